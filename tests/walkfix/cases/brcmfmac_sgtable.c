// SPDX-License-Identifier: GPL-2.0
/*
 * walkfix: drivers/net/wireless/broadcom/brcm80211/brcmfmac/bcmsdh.c define:BRCMF_DEFAULT_RXGLOM_SIZE brcmf_sdiod_sgtable_alloc
 * fix: wifi: brcmfmac: keep the SDIO scatter-gather table to one table
 *
 * brcmf_sdiod_sgtable_alloc() sizes the table brcmf_sdiod_sglist_rw()
 * fills for each request of at most max_segment_count entries, and which
 * brcmf_sdiod_sglist_rw() re-initialises after each transfer with
 * sg_init_table(sgl, orig_nents), as one array. Expect, for every txglomsz
 * and host max_segs, one table, with no link among its entries, of at least
 * the entries a request takes: max_segment_count, or fewer if the glom
 * queue holds fewer packets (two per frame, commit 857282b819cb's worst
 * case).
 */
#include "walkfix.h"

#include <linux/slab.h>

/* What the function uses of the driver's and the MMC core's types. */
#define brcmf_dbg(level, fmt, ...)	do { } while (0)
#define brcmf_err(fmt, ...)		fprintf(stderr, "brcmfmac: " fmt "\n", ##__VA_ARGS__)

struct mmc_host {
	unsigned int max_segs, max_blk_count, max_req_size, max_seg_size;
};

struct mmc_card { struct mmc_host *host; };

struct sdio_func {
	struct mmc_card *card;
	unsigned int cur_blksize;
};

struct brcmf_mp_device {
	struct { struct { int txglomsz; } sdio; } bus;
};

struct brcmf_sdio_dev {
	struct sdio_func *func2;
	struct brcmf_mp_device *settings;
	bool sg_support;
	uint max_request_size;
	ushort max_segment_count;
	uint max_segment_size;
	uint txglomsz;
	struct sg_table sgtable;
};

#include WALKFIX_EXTRACT

static void check(int txglomsz, unsigned int max_segs)
{
	struct mmc_host host = { .max_segs = max_segs, .max_blk_count = 511,
				 .max_req_size = 512 * 511, .max_seg_size = 65536 };
	struct mmc_card card = { .host = &host };
	struct sdio_func func = { .card = &card, .cur_blksize = 512 };
	struct brcmf_mp_device settings = { .bus.sdio.txglomsz = txglomsz };
	struct brcmf_sdio_dev dev = { .func2 = &func, .settings = &settings };
	/* The most packets a glom queue holds: two per frame, at least 32 frames. */
	unsigned int queue = 2 * max(txglomsz, 32);
	struct scatterlist *sg;
	unsigned int i, links = 0, n;
	bool ok;

	brcmf_sdiod_sgtable_alloc(&dev);
	n = dev.sgtable.orig_nents;
	for (i = 0, sg = dev.sgtable.sgl; i < n && i < SG_MAX_SINGLE_ALLOC; i++, sg++)
		links += sg_is_chain(sg);
	if (max_segs < 2) {
		walkfix_check(!dev.sg_support && !n,
			      "txglomsz %d, max_segs %u: no scatter-gather, no table (got %u entries)",
			      txglomsz, max_segs, n);
		return;
	}
	ok = dev.sg_support && n >= min(queue, dev.max_segment_count) && !links &&
	     n <= SG_MAX_SINGLE_ALLOC;
	walkfix_check(ok, "txglomsz %d, max_segs %u: one table of at least %u entries (got %u, %u links)",
		      txglomsz, max_segs, min(queue, dev.max_segment_count), n, links);
	/*
	 * What brcmf_sdiod_sglist_rw() does after each transfer, here only on
	 * a table found whole: ASan holds it to the table's memory.
	 */
	if (ok)
		sg_init_table(dev.sgtable.sgl, dev.sgtable.orig_nents);
	sg_free_table(&dev.sgtable);
}

int main(void)
{
	static const int txglomsz[] = { 32, 64, 65, 128, 256 };
	static const unsigned int max_segs[] = { 1, 16, 64, 128, 256 };
	size_t i, j;

	for (i = 0; i < ARRAY_SIZE(txglomsz); i++)
		for (j = 0; j < ARRAY_SIZE(max_segs); j++)
			check(txglomsz[i], max_segs[j]);
	return walkfix_result();
}
