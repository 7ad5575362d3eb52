/*
 * Page arenas: struct pages with real 4 KiB of memory each and a pfn per
 * page that the test chooses, so a test states the physical layout of a
 * buffer (contiguous runs, scattered, above a DMA mask) as a list of pfns.
 * The memory of one arena is virtually contiguous whatever the pfns.
 */
#ifndef _USIM_MOCK_PAGE_H
#define _USIM_MOCK_PAGE_H

#include <linux/mm.h>

struct mock_page_arena;

/* @pfns[i] is page i's pfn; pfns must be unique across live arenas. */
struct mock_page_arena *mock_page_arena_create(size_t npages,
					       const unsigned long *pfns);
void mock_page_arena_destroy(struct mock_page_arena *arena);
struct page *mock_page_arena_page(struct mock_page_arena *arena, size_t i);
size_t mock_page_arena_npages(const struct mock_page_arena *arena);
/* Start of page 0's memory; page i is at + i * PAGE_SIZE. */
void *mock_page_arena_memory(struct mock_page_arena *arena);
/* Make every page of @arena a highmem page (<linux/mm.h>). */
void mock_page_arena_set_highmem(struct mock_page_arena *arena);

/*
 * alloc_pages()'s struct pages: 1 << @order of them over @memory, with
 * consecutive pfns aligned to 1 << @order, above any pfn a test or the
 * linear map uses. mock_pages_release() takes them away again (a BUG if
 * @page is not the first of such a block of that order) and returns the
 * memory for the caller to free.
 */
struct page *mock_pages_adopt(void *memory, unsigned int order, bool highmem);
void *mock_pages_release(struct page *page, unsigned int order);

/* Layouts: first, first + 1, ... */
void mock_pfns_contiguous(unsigned long *pfns, size_t n, unsigned long first);
/* first, first + stride, ...: no two pages adjacent if stride > 1. */
void mock_pfns_strided(unsigned long *pfns, size_t n, unsigned long first,
		       unsigned long stride);
/* Distinct pfns drawn from [lo, lo + span), reproducibly from @seed. */
void mock_pfns_random(unsigned long *pfns, size_t n, unsigned long lo,
		      unsigned long span, uint64_t seed);

#endif
