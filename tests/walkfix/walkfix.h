/*
 * What each case of tests/walkfix shares: a chained list laid out the way
 * the kernel's producers lay them out, with poison entries behind the link
 * so that a walk by sg++ reads defined memory and shows what it took, and a
 * check of the segments a walk produced against the list's data entries.
 *
 * A case #includes this, defines the driver's types it needs, #includes the
 * functions tests/walkfix/run.py took out of the tree (WALKFIX_EXTRACT), and
 * ends main() with walkfix_result(): exit 0 when every check held.
 */
#ifndef _WALKFIX_H
#define _WALKFIX_H

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/*
 * As a production kernel builds (Debian's config has no CONFIG_DEBUG_SG):
 * sg_page() of a link then hands on the next table as a page instead of
 * stopping at a BUG, and the check below shows what the walk made of it.
 */
#include <linux/kconfig.h>
#undef CONFIG_DEBUG_SG

#include <linux/kernel.h>
#include <linux/scatterlist.h>

#include "mock_page.h"

/* Entries of the first table past its link, filled with poison pages. */
#define WALKFIX_POISON	14

/*
 * A list of @ndata entries of a page each: the first table holds @head data
 * entries and a link (as scatterwalk_ffwd() and the SCSI midlayer's inline
 * chunk do), the second table the rest. Behind the link sit poison entries
 * on pages of their own, which no correct walk reaches.
 */
struct walkfix_list {
	struct mock_page_arena *data, *poison;
	struct scatterlist *first, *second;
	size_t head, ndata;
};

static int walkfix_lists;

static inline void walkfix_list_init(struct walkfix_list *l, size_t head, size_t ndata)
{
	unsigned long pfns[64];
	size_t i, rest = ndata - head;

	if (ndata > 32 || head < 1 || head >= ndata ||
	    (ndata - head + 7) * sizeof(struct scatterlist) > PAGE_SIZE) {
		fprintf(stderr, "walkfix: a list of %zu entries with %zu before the link\n",
			ndata, head);
		exit(2);
	}
	/* Each list's pages at pfns of their own: usim refuses a pfn twice. */
	mock_pfns_contiguous(pfns, ndata, 0x1000 + walkfix_lists * 0x10000);
	l->data = mock_page_arena_create(ndata, pfns);
	mock_pfns_contiguous(pfns, WALKFIX_POISON, 0x9000 + walkfix_lists * 0x10000);
	l->poison = mock_page_arena_create(WALKFIX_POISON, pfns);
	if (!l->data || !l->poison) {
		fprintf(stderr, "walkfix: no mock pages for list %d\n", walkfix_lists);
		exit(2);
	}
	walkfix_lists++;
	l->head = head;
	l->ndata = ndata;
	l->first = calloc(head + 1 + WALKFIX_POISON, sizeof(*l->first));
	/*
	 * The second table away from the first, so a link is not sg + 1, and
	 * off a page boundary: usim takes a page-aligned struct page pointer
	 * for a pfn, and sg_page() of the link is this address.
	 */
	l->second = aligned_alloc(PAGE_SIZE, PAGE_SIZE);
	memset(l->second, 0, PAGE_SIZE);
	l->second += 7;
	sg_init_table(l->first, head + 1 + WALKFIX_POISON);
	sg_init_table(l->second, rest);
	for (i = 0; i < head; i++)
		sg_set_page(&l->first[i], mock_page_arena_page(l->data, i), PAGE_SIZE, 0);
	for (i = 0; i < WALKFIX_POISON; i++)
		sg_set_page(&l->first[head + 1 + i], mock_page_arena_page(l->poison, i),
			    PAGE_SIZE, 0);
	for (i = 0; i < rest; i++)
		sg_set_page(&l->second[i], mock_page_arena_page(l->data, head + i),
			    PAGE_SIZE, 0);
	sg_chain(l->first, head + 1, l->second);
}

/*
 * As dma_map_sg() leaves the list when nothing merges: each data and poison
 * entry's DMA address is its page's physical address; the link keeps 0.
 */
static inline void walkfix_map_entry(struct scatterlist *sg)
{
	sg_dma_address(sg) = page_to_phys(sg_page(sg));
	sg_dma_len(sg) = sg->length;
}

static inline void walkfix_list_map(struct walkfix_list *l)
{
	size_t i;

	for (i = 0; i < l->head + 1 + WALKFIX_POISON; i++)
		if (i != l->head)
			walkfix_map_entry(&l->first[i]);
	for (i = 0; i < l->ndata - l->head; i++)
		walkfix_map_entry(&l->second[i]);
}

/* Data entry @i's DMA address, once mapped. */
static inline dma_addr_t walkfix_data_dma(struct walkfix_list *l, size_t i)
{
	return page_to_phys(mock_page_arena_page(l->data, i));
}

static inline void walkfix_list_free(struct walkfix_list *l)
{
	free(l->first);
	free(l->second - 7);
	mock_page_arena_destroy(l->data);
	mock_page_arena_destroy(l->poison);
}

/* Data entry @e of @l, in whichever table it sits. */
static inline struct scatterlist *walkfix_entry(struct walkfix_list *l, size_t e)
{
	return e < l->head ? &l->first[e] : &l->second[e - l->head];
}

/* Is @page one of @l's data or poison pages (memory a case owns)? */
static inline bool walkfix_list_owns_page(struct walkfix_list *l, struct page *page)
{
	size_t i;

	for (i = 0; i < l->ndata; i++)
		if (page == mock_page_arena_page(l->data, i))
			return true;
	for (i = 0; i < WALKFIX_POISON; i++)
		if (page == mock_page_arena_page(l->poison, i))
			return true;
	return false;
}

/* Data entry @i's memory: what the walk must hand on for it. */
static inline void *walkfix_data(struct walkfix_list *l, size_t i)
{
	return (char *)mock_page_arena_memory(l->data) + i * PAGE_SIZE;
}

static int walkfix_passed, walkfix_failed;

static inline void walkfix_check(int ok, const char *what, ...)
	__attribute__((format(printf, 2, 3)));
static inline void walkfix_check(int ok, const char *what, ...)
{
	va_list ap;

	printf("%s ", ok ? "ok  " : "FAIL");
	va_start(ap, what);
	vprintf(what, ap);
	va_end(ap);
	printf("\n");
	if (ok)
		walkfix_passed++;
	else
		walkfix_failed++;
}

/* Segment @i of a walk's output against data entry @i of the list. */
static inline void walkfix_check_segment(struct walkfix_list *l, const char *who, size_t i,
					 const void *addr, unsigned long len)
{
	int ok = addr == walkfix_data(l, i) && len == PAGE_SIZE;

	walkfix_check(ok, "%s: segment %zu is data entry %zu (%p, %lu bytes; got %p, %lu)",
		      who, i, i, walkfix_data(l, i), (unsigned long)PAGE_SIZE, addr, len);
}

/* Segment @i of a mapped walk against data entry @i's DMA address. */
static inline void walkfix_check_dma(struct walkfix_list *l, const char *who, size_t i,
				     dma_addr_t addr, unsigned long len)
{
	int ok = addr == walkfix_data_dma(l, i) && len == PAGE_SIZE;

	walkfix_check(ok, "%s: segment %zu is data entry %zu (dma %#llx, %lu bytes; got %#llx, %lu)",
		      who, i, i, (unsigned long long)walkfix_data_dma(l, i),
		      (unsigned long)PAGE_SIZE, (unsigned long long)addr, len);
}

static inline int walkfix_result(void)
{
	printf("%d passed, %d failed\n", walkfix_passed, walkfix_failed);
	return walkfix_failed ? 1 : 0;
}

#endif
