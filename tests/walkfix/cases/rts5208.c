// SPDX-License-Identifier: GPL-2.0
/*
 * walkfix: drivers/staging/rts5208/rtsx_transport.c rtsx_stor_access_xfer_buf
 * fix: staging: rts5208: walk the command's list with sg_next()
 *
 * rtsx_stor_access_xfer_buf() copies between a buffer and a SCSI command's
 * list, either way, a piece at a time: *index and *offset say where the
 * last call stopped. The SCSI midlayer keeps two entries inline, so a
 * command of three or more segments is one data entry, a link, then the
 * rest. Expect the bytes of the data entries, in order, whether copied
 * whole or 256 bytes a call as spi_read_flash() does, and never a poison
 * byte; and a buffer copied into the list to land in the data entries, not
 * behind the link.
 */
#include "walkfix.h"

#include <linux/highmem.h>

/* What the function uses of a SCSI command, and of rtsx.h. */
enum xfer_buf_dir { TO_XFER_BUF, FROM_XFER_BUF };

struct scsi_cmnd {
	struct scatterlist *sgl;
	unsigned int nents, bufflen;
};

static unsigned int scsi_sg_count(struct scsi_cmnd *cmd)
{
	return cmd->nents;
}

static struct scatterlist *scsi_sglist(struct scsi_cmnd *cmd)
{
	return cmd->sgl;
}

static unsigned int scsi_bufflen(struct scsi_cmnd *cmd)
{
	return cmd->bufflen;
}

static void memcpy_from_page(void *to, struct page *page, size_t offset, size_t len)
{
	char *from = kmap_local_page(page);

	memcpy(to, from + offset, len);
	kunmap_local(from);
}

static void memcpy_to_page(struct page *page, size_t offset, const void *from, size_t len)
{
	char *to = kmap_local_page(page);

	memcpy(to + offset, from, len);
	kunmap_local(to);
}

#include WALKFIX_EXTRACT

/* Byte @i of data entry @e, and of every poison page. */
static unsigned char pattern(size_t e, size_t i)
{
	return (unsigned char)(e * 37 + i / 7 + 1);
}

#define POISON	0xa5

static void fill(struct walkfix_list *l)
{
	size_t e, i;

	for (e = 0; e < l->ndata; e++)
		for (i = 0; i < PAGE_SIZE; i++)
			((unsigned char *)walkfix_data(l, e))[i] = pattern(e, i);
	memset(mock_page_arena_memory(l->poison), POISON, WALKFIX_POISON * PAGE_SIZE);
}

/* The bytes read: the data entries' in order? The first wrong one, if not. */
static void check_bytes(const char *who, const unsigned char *buf, size_t len)
{
	size_t i;

	for (i = 0; i < len && buf[i] == pattern(i / PAGE_SIZE, i % PAGE_SIZE); i++)
		;
	walkfix_check(i == len, "%s: %zu bytes of the data entries in order (first wrong at %zu: %#x)",
		      who, len, i, i < len ? buf[i] : 0);
}

int main(void)
{
	/* The SCSI midlayer's shape: one inline entry, the link, three more. */
	const size_t head = 1, ndata = 4, len = ndata * PAGE_SIZE;
	unsigned char *buf = calloc(1, len);
	unsigned int index = 0, offset = 0, got;
	struct walkfix_list l;
	struct scsi_cmnd srb;
	size_t done;

	walkfix_list_init(&l, head, ndata);
	fill(&l);
	srb = (struct scsi_cmnd){ .sgl = l.first, .nents = ndata, .bufflen = len };

	got = rtsx_stor_access_xfer_buf(buf, len, &srb, &index, &offset, FROM_XFER_BUF);
	walkfix_check(got == len, "one call: %zu bytes copied (got %u)", len, got);
	check_bytes("one call", buf, len);

	/* spi_read_flash(): 256 bytes a call, resuming at *index, *offset. */
	memset(buf, 0, len);
	index = offset = 0;
	for (done = 0; done < len; done += got) {
		got = rtsx_stor_access_xfer_buf(buf + done, 256, &srb, &index, &offset,
						FROM_XFER_BUF);
		if (!got)
			break;
	}
	walkfix_check(done == len, "256 bytes a call: %zu bytes copied (got %zu)", len, done);
	check_bytes("256 bytes a call", buf, len);

	/* The other way, as read_mem and spi_read_flash() hand data to the host. */
	for (done = 0; done < len; done++)
		buf[done] = pattern(done / PAGE_SIZE, done % PAGE_SIZE);
	memset(mock_page_arena_memory(l.data), 0, len);
	index = offset = 0;
	got = rtsx_stor_access_xfer_buf(buf, len, &srb, &index, &offset, TO_XFER_BUF);
	walkfix_check(got == len, "into the list: %zu bytes copied (got %u)", len, got);
	check_bytes("into the list", mock_page_arena_memory(l.data), len);
	for (done = 0; done < WALKFIX_POISON * PAGE_SIZE &&
	     ((unsigned char *)mock_page_arena_memory(l.poison))[done] == POISON; done++)
		;
	walkfix_check(done == WALKFIX_POISON * PAGE_SIZE,
		      "into the list: the pages behind the link untouched (first written at %zu)", done);

	free(buf);
	walkfix_list_free(&l);
	return walkfix_result();
}
