/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The lists the DMA suites map and the model of their segments, shared by
 * the kernel's sg_chain_dma KUnit suite (through the real IOMMU and swiotlb
 * code) and usim's test_dma_mappers (through the fakes). Only kernel names
 * are used, so it compiles unchanged in both worlds.
 */
#ifndef _SG_CHAIN_DMA_CASES_H
#define _SG_CHAIN_DMA_CASES_H

#include <linux/kernel.h>
#include <linux/mm.h>

/*
 * A list: a size, and a layout of offsets and lengths for entry i. The
 * pages under the entries are the suite's; their physical places matter
 * to the translations only.
 */
static const unsigned int sg_chain_dma_sizes[] = {
	1, 2, 127, 128, 129, 254, 255, 256, 1024, 2047, 2048,
};

enum sg_chain_dma_layout {
	SG_CHAIN_DMA_FULL_PAGES,	/* whole pages: they merge */
	SG_CHAIN_DMA_UNALIGNED,		/* 512 bytes in, 512 short: none merges */
	SG_CHAIN_DMA_MIXED,		/* some start or end inside a page */
	SG_CHAIN_DMA_LAYOUTS
};

static const char *const sg_chain_dma_layout_names[SG_CHAIN_DMA_LAYOUTS] = {
	"full pages", "unaligned", "mixed",
};

/* Offset into its page and length of entry @i of @layout. */
static inline void sg_chain_dma_entry(unsigned int layout, unsigned int i,
				      unsigned int *offset, unsigned int *length)
{
	switch (layout) {
	case SG_CHAIN_DMA_FULL_PAGES:
		*offset = 0;
		*length = PAGE_SIZE;
		break;
	case SG_CHAIN_DMA_UNALIGNED:
		*offset = 512;
		*length = PAGE_SIZE - 1024;
		break;
	default:
		/* Every third starts mid-page, every fifth ends early. */
		*offset = i % 3 == 1 ? 64 * (1 + i % 7) : 0;
		*length = PAGE_SIZE - *offset - (i % 5 == 4 ? 100 : 0);
		break;
	}
}

/*
 * The segments an IOMMU mapper that merges at page boundaries makes of
 * the first @nents entries of @layout (the rule of dma-iommu.c's
 * __finalise_sg() and of usim's fake): an entry joins the segment before
 * it when that segment ends at a page end, the entry starts at a page
 * start, and the segment stays within @max_seg bytes. Assumes the list
 * spans less than the segment boundary. Returns the number of segments;
 * @seg_len, if not NULL, gets their lengths.
 */
static inline unsigned int sg_chain_dma_model(unsigned int layout,
					      unsigned int nents,
					      unsigned int max_seg,
					      unsigned int *seg_len)
{
	unsigned int i, segs = 0, cur = 0, offset, length;

	for (i = 0; i < nents; i++) {
		sg_chain_dma_entry(layout, i, &offset, &length);
		if (cur && !offset && max_seg - cur >= length) {
			cur += length;
		} else {
			segs++;
			cur = length;
		}
		if (seg_len)
			seg_len[segs - 1] = cur;
		/* An entry that ends inside its page closes the segment. */
		if ((offset + length) % PAGE_SIZE)
			cur = 0;
	}
	return segs;
}

#endif /* _SG_CHAIN_DMA_CASES_H */
