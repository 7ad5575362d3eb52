// SPDX-License-Identifier: GPL-2.0
/*
 * walkfix: drivers/mmc/host/wbsd.c wbsd_init_sg wbsd_next_sg wbsd_map_sg wbsd_sg_to_dma wbsd_dma_to_sg wbsd_empty_fifo
 * fix: mmc: wbsd: walk the data's list with sg_next()
 *
 * wbsd moves a request's data between data->sg and the card by ISA DMA,
 * through a bounce buffer (wbsd_sg_to_dma() before a write,
 * wbsd_dma_to_sg() after a read), or by PIO, a FIFO at a time, stepping
 * through the list with wbsd_next_sg(). brcmfmac with its txglomsz
 * parameter at 65 or more hands the host, in its first scatter-gather
 * transfer of 128 entries, a chained list whose 128th is the link. Expect
 * every byte of every data entry copied, each way, and a PIO read to put
 * the card's bytes in the data entries in order and nowhere else.
 *
 * Each page the PIO walk maps is checked where it is mapped: one that is no
 * data entry's is reported and the function left there (longjmp), as what
 * the kernel would make of it is no memory the case owns.
 */
#include "walkfix.h"

#include <setjmp.h>

#include <linux/highmem.h>

/* What the functions use of wbsd.h and of the kernel. */
#define WBSD_DFR		0x01
#define WBSD_FSR		0x04
#define WBSD_FIFO_EMPTY		0x80
#define WBSD_FIFO_FULL		0x40
#define WBSD_FIFO_FUTHRE	0x10

struct work_struct { int queued; };
struct workqueue_struct;
static struct workqueue_struct *system_bh_wq;

static bool queue_work(struct workqueue_struct *wq, struct work_struct *work)
{
	work->queued++;
	return true;
}

struct mmc_data {
	struct scatterlist *sg;
	unsigned int sg_len, blocks, blksz, bytes_xfered;
};

struct mmc_command { struct mmc_data *data; };
struct mmc_request { struct mmc_command *cmd; };

struct wbsd_host {
	struct mmc_request *mrq;
	struct scatterlist *cur_sg;
	unsigned int num_sg, offset, remain;
	char *dma_buffer;
	int base;
	struct work_struct fifo_bh_work;
};

/* The card's side of a PIO read: its bytes through the FIFO, 16 at most. */
#define WBSD_BASE	0x240
static const unsigned char *card;
static size_t card_pos, card_len;

static unsigned char case_inb(int port)
{
	size_t left = card_len - card_pos;

	if (port == WBSD_BASE + WBSD_DFR)
		return left ? card[card_pos++] : 0xff;
	return !left ? WBSD_FIFO_EMPTY : left >= 16 ? WBSD_FIFO_FULL : 0;
}

/* A page the walk maps: a data entry's, or the walk is lost. */
static struct walkfix_list *list;
static jmp_buf left;

static void *case_kmap(struct page *page)
{
	size_t i;

	for (i = 0; i < list->ndata; i++)
		if (page == mock_page_arena_page(list->data, i))
			return kmap_local_page(page);
	walkfix_check(0, "wbsd_map_sg: maps data entry %zu's page (got %p, not a data entry's)",
		      card_pos / PAGE_SIZE, (void *)page);
	longjmp(left, 1);
}

#define inb(port)		case_inb(port)
#define kmap_local_page(page)	case_kmap(page)

#include WALKFIX_EXTRACT

#undef kmap_local_page

static unsigned char pattern(size_t i, int salt)
{
	return (unsigned char)(i * 7 + i / 4093 + salt);
}

/* Data entry @e holds bytes e * PAGE_SIZE.. of the pattern? */
static void check_entries(struct walkfix_list *l, const char *who, int salt)
{
	size_t e, i;

	for (e = 0; e < l->ndata; e++) {
		const unsigned char *p = walkfix_data(l, e);

		for (i = 0; i < PAGE_SIZE && p[i] == pattern(e * PAGE_SIZE + i, salt); i++)
			;
		walkfix_check(i == PAGE_SIZE, "%s: data entry %zu holds its %lu bytes (%zu right)",
			      who, e, (unsigned long)PAGE_SIZE, i);
	}
}

static void fill_entries(struct walkfix_list *l, int salt)
{
	size_t e, i;

	for (e = 0; e < l->ndata; e++)
		for (i = 0; i < PAGE_SIZE; i++)
			((unsigned char *)walkfix_data(l, e))[i] = pattern(e * PAGE_SIZE + i, salt);
}

int main(void)
{
	/*
	 * brcmfmac's shape, scaled down: its sg_alloc_table() list holds 127
	 * entries, the link and the rest, and a request takes up to 128 of
	 * them, so the last is the first of the second table.
	 */
	const size_t head = 3, ndata = 4, len = ndata * PAGE_SIZE;
	struct mmc_data data = { .sg_len = ndata, .blocks = len / 512, .blksz = 512 };
	struct mmc_command cmd = { .data = &data };
	struct mmc_request mrq = { .cmd = &cmd };
	struct wbsd_host host = { .mrq = &mrq, .base = WBSD_BASE };
	unsigned char *bytes = malloc(len);
	struct walkfix_list l;
	size_t i, wrong;

	walkfix_list_init(&l, head, ndata);
	list = &l;
	data.sg = l.first;
	host.dma_buffer = malloc(len);

	/* A write by DMA: the data entries into the bounce buffer. */
	fill_entries(&l, 1);
	memset(host.dma_buffer, 0, len);
	wbsd_sg_to_dma(&host, &data);
	for (i = 0; i < len && (unsigned char)host.dma_buffer[i] == pattern(i, 1); i++)
		;
	walkfix_check(i == len, "wbsd_sg_to_dma: the %zu bytes of the data entries in the DMA buffer (%zu right)",
		      len, i);

	/* A read by DMA: the bounce buffer into the data entries. */
	for (i = 0; i < len; i++)
		host.dma_buffer[i] = pattern(i, 2);
	memset(mock_page_arena_memory(l.data), 0, len);
	wbsd_dma_to_sg(&host, &data);
	check_entries(&l, "wbsd_dma_to_sg", 2);

	/* A read by PIO: the card's bytes through the FIFO. */
	for (i = 0; i < len; i++)
		bytes[i] = pattern(i, 3);
	card = bytes;
	card_pos = 0;
	card_len = len;
	memset(mock_page_arena_memory(l.data), 0, len);
	memset(mock_page_arena_memory(l.poison), 0xa5, WALKFIX_POISON * PAGE_SIZE);
	if (!setjmp(left)) {
		wbsd_init_sg(&host, &data);
		wbsd_empty_fifo(&host);
		walkfix_check(card_pos == len && data.bytes_xfered == len,
			      "wbsd_empty_fifo: takes the card's %zu bytes (took %zu)", len, card_pos);
		check_entries(&l, "wbsd_empty_fifo", 3);
	}
	for (i = wrong = 0; i < WALKFIX_POISON * PAGE_SIZE; i++)
		wrong += ((unsigned char *)mock_page_arena_memory(l.poison))[i] != 0xa5;
	walkfix_check(!wrong, "wbsd_empty_fifo: nothing written to the pages behind the link (%zu bytes)",
		      wrong);

	free(bytes);
	free(host.dma_buffer);
	walkfix_list_free(&l);
	return walkfix_result();
}
