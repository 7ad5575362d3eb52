/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Cases and models for lists built from pages and for the library code
 * that walks them (copies, the mapping iterator, page iterators,
 * sg_split()), shared by the cmocka suites test_sg_pages and test_sg_copy
 * (usim) and the sg_chain_pages KUnit suite (kernel). Include it after
 * <linux/scatterlist.h>; only kernel names are used.
 *
 * Pages are given as indices into a block of consecutive pfns, so both
 * worlds lay out the same runs: usim over a mock arena, the kernel over
 * one high-order allocation.
 *
 * The model of a list from pages is written from the kernel-doc, not from
 * the code: runs of consecutive pfns merge into one entry of at most
 * max_segment bytes, the first entry starts at @offset and the last ends
 * where @size does; with two rules 6.1's kernel-doc leaves out and its
 * code (and every caller) relies on: max_segment counts whole pages
 * (rounded down), and only the first entry has an offset.
 */
#ifndef _SG_CHAIN_PAGES_CASES_H
#define _SG_CHAIN_PAGES_CASES_H

#include <linux/kernel.h>
#include <linux/scatterlist.h>
#include <linux/string.h>

/*
 * xorshift64, so both worlds draw the same numbers from the same seed
 * (nonzero). Callers reduce 32-bit parts of it: a 64-bit modulo needs
 * libgcc on 32-bit kernels.
 */
static inline u64 sg_chain_rand(u64 *x)
{
	*x ^= *x << 13;
	*x ^= *x >> 7;
	*x ^= *x << 17;
	return *x;
}

enum sg_chain_layout {
	SG_CHAIN_CONTIGUOUS,
	SG_CHAIN_STRIDED,
	SG_CHAIN_RUNS,
	SG_CHAIN_LAYOUTS
};

static const char *const sg_chain_layout_names[] = {
	"contiguous", "strided", "random runs",
};

/*
 * Where each of @n pages lies in the block: all consecutive, every second
 * page, or runs of 1 to 40 consecutive pages with gaps of 1 to 5. Returns
 * how many pages of the block the layout spans.
 */
static inline unsigned int sg_chain_layout_pages(enum sg_chain_layout layout,
						 unsigned int *at,
						 unsigned int n, u64 seed)
{
	u64 x = seed | 1;
	unsigned int i = 0, next = 0, run;

	if (layout != SG_CHAIN_RUNS) {
		unsigned int stride = layout == SG_CHAIN_STRIDED ? 2 : 1;

		for (i = 0; i < n; i++)
			at[i] = i * stride;
		return n ? at[n - 1] + 1 : 0;
	}
	while (i < n) {
		sg_chain_rand(&x);
		run = 1 + (u32)x % 40;
		next += 1 + (u32)(x >> 8) % 5;
		while (run-- && i < n)
			at[i++] = next++;
	}
	return next;
}

/* max_segment values, from one page to unlimited. */
static const unsigned int sg_chain_max_segments[] = {
	PAGE_SIZE, PAGE_SIZE + 1, 2 * PAGE_SIZE, 3 * PAGE_SIZE, 64 * 1024,
	1 << 20, UINT_MAX,
};

/* Buffer ends: { offset into the first page, bytes short of the last page's end }. */
static const unsigned int sg_chain_page_ends[][2] = {
	{ 0, 0 }, { 100, 0 }, { 0, 1 }, { PAGE_SIZE - 1, PAGE_SIZE - 1 },
};

/* Pages per append call; 0: all of them in one call. */
static const unsigned int sg_chain_append_steps[] = { 1, 7, 128, 129, 0 };

/* One entry of the model: its first page (an index into the page array). */
struct sg_chain_page_seg {
	unsigned int first;
	unsigned int offset, length;
};

/* The entries a list of pages with these pfns must have; returns how many. */
static inline unsigned int sg_chain_pages_model(const unsigned long *pfns,
						unsigned int n,
						unsigned int offset,
						unsigned long size,
						unsigned int max_segment,
						struct sg_chain_page_seg *segs)
{
	unsigned long max_pages = max_segment / PAGE_SIZE, left = size;
	unsigned int nsegs = 0, i, pages = 0;

	for (i = 0; i < n; i++) {
		if (i && pfns[i] == pfns[i - 1] + 1 && pages < max_pages) {
			pages++;
		} else {
			nsegs++;
			segs[nsegs - 1].first = i;
			pages = 1;
		}
		segs[nsegs - 1].length = pages * PAGE_SIZE;
	}
	segs[0].offset = offset;
	segs[0].length -= offset;
	for (i = 0; i < nsegs; i++) {
		if (i)
			segs[i].offset = 0;
		if (segs[i].length > left)
			segs[i].length = left;
		left -= segs[i].length;
	}
	return nsegs;
}

/*
 * Check a list from pages against the model: entry by entry with
 * for_each_sg(), the end marker on the last, sg_nents() agreeing. Returns
 * 0, or -1 with @why saying what differs.
 */
static inline int sg_chain_pages_check(struct scatterlist *sgl,
				       unsigned int nents,
				       struct page *const *pages,
				       const struct sg_chain_page_seg *segs,
				       unsigned int nsegs, char *why,
				       size_t why_len)
{
	struct scatterlist *sg, *last = NULL;
	unsigned int i;

	if (nents != nsegs) {
		snprintf(why, why_len, "%u entries, model %u", nents, nsegs);
		return -1;
	}
	for_each_sg(sgl, sg, nents, i) {
		if (sg_page(sg) != pages[segs[i].first] ||
		    sg->offset != segs[i].offset ||
		    sg->length != segs[i].length) {
			snprintf(why, why_len,
				 "entry %u is page %lu +%u len %u, model page %lu +%u len %u",
				 i, page_to_pfn(sg_page(sg)), sg->offset,
				 sg->length, page_to_pfn(pages[segs[i].first]),
				 segs[i].offset, segs[i].length);
			return -1;
		}
		last = sg;
	}
	if (!last || !sg_is_last(last) || sg_nents(sgl) != (int)nents) {
		snprintf(why, why_len, "no end marker after entry %u", nents);
		return -1;
	}
	return 0;
}

/*
 * Append @npages pages in calls of @step (0: one call), each telling how
 * many pages are left, stopping before page @stop_page. The buffer starts at
 * @offset and holds @size bytes, so the last call may end inside a page.
 * @append is initialised here.
 */
static inline int sg_chain_append_in_steps(struct sg_append_table *append,
					   struct page **pages,
					   unsigned int npages,
					   unsigned int step,
					   unsigned int offset,
					   unsigned long size,
					   unsigned int max_segment,
					   unsigned int stop_page, gfp_t gfp)
{
	unsigned int done = 0;
	int ret = 0;

	memset(append, 0, sizeof(*append));
	if (!step)
		step = npages;
	while (done < npages && done < stop_page) {
		unsigned int n = min(step, npages - done);
		unsigned long bytes = (unsigned long)n * PAGE_SIZE -
				      (done ? 0 : offset);

		if (done + n == npages)
			bytes = size - ((unsigned long)done * PAGE_SIZE -
					(done ? offset : 0));
		ret = sg_alloc_append_table_from_pages(append, pages + done, n,
						       done ? 0 : offset, bytes,
						       max_segment,
						       npages - done - n, gfp);
		if (ret)
			return ret;
		done += n;
	}
	return ret;
}

/*
 * The list the copy tests walk: @nents entries, each at a random offset
 * in its first page with a random length of up to @max_pages pages (every
 * fifth one ending at a page end: walkers that carry a page count from
 * one entry to the next go wrong there), each in its own pages of the
 * block with one page left out between entries. segs[i].first is the
 * block page an entry starts in. Returns the block pages used.
 */
static inline unsigned int sg_chain_copy_layout(struct sg_chain_page_seg *segs,
						unsigned int nents,
						unsigned int max_pages, u64 *x)
{
	unsigned int i, page = 0;

	for (i = 0; i < nents; i++) {
		unsigned int offset = (u32)sg_chain_rand(x) % PAGE_SIZE;
		unsigned int length = 1 + (u32)sg_chain_rand(x) %
					  (max_pages * PAGE_SIZE - offset);

		if (i % 5 == 4)
			length = round_up(offset + length, PAGE_SIZE) - offset;

		segs[i] = (struct sg_chain_page_seg){ page, offset, length };
		page += DIV_ROUND_UP(offset + length, PAGE_SIZE) + 1;
	}
	return page;
}

/*
 * Skip points for copies, the mapping iterator and splits: the start of
 * an entry (k * 37 spreads over every table and its links), one byte
 * before it, one after it, or anywhere. @start holds each entry's offset
 * in the flat model; @total is its length.
 */
static inline size_t sg_chain_skip_at(unsigned int k, const size_t *start,
				      unsigned int nents, size_t total, u64 *x)
{
	unsigned int e = (k * 37) % nents;

	switch (k % 4) {
	case 0:
		return start[e];
	case 1:
		return start[e] ? start[e] - 1 : 0;
	case 2:
		return start[e] + 1;
	default:
		return (u32)sg_chain_rand(x) % (total + 1);
	}
}

/*
 * Skips for sg_split() before split point k of sg_chain_skip_at(): none,
 * or exactly to the start of an entry half as far into the list, so that
 * the skip passes whole entries and ends where one ends.
 */
static inline size_t sg_chain_split_skip(unsigned int k, const size_t *start,
					 unsigned int nents)
{
	return k % 2 ? start[(k * 37) % nents / 2] : 0;
}

/* The bytes a list describes: what a device may transfer through it. */
static inline size_t sg_chain_list_bytes(struct scatterlist *sgl,
					 unsigned int nents)
{
	struct scatterlist *sg;
	size_t bytes = 0;
	unsigned int i;

	for_each_sg(sgl, sg, nents, i)
		bytes += sg->length;
	return bytes;
}

/*
 * Part sizes for split point k: @a - @skip bytes, then the rest in one or
 * two parts, the last of them (for odd k / 2) ending inside an entry
 * short of the list's end. Returns how many parts, 0 when the point does
 * not fit.
 */
static inline int sg_chain_split_sizes(unsigned int k, size_t skip, size_t a,
				       size_t total, size_t *sizes)
{
	int parts = 2 + k % 2;

	if (a <= skip || a >= total)
		return 0;
	sizes[0] = a - skip;
	sizes[1] = (total - a) / (parts == 3 ? 2 : 1);
	sizes[2] = total - a - sizes[1];
	if (k / 2 % 2)
		sizes[parts - 1] -= sizes[parts - 1] / 3;
	if (!sizes[1] || (parts == 3 && !sizes[2]))
		return 0;
	return parts;
}

#endif /* _SG_CHAIN_PAGES_CASES_H */
