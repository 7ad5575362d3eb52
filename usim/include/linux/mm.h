/*
 * struct page and address helpers (mock): test pages live in usim's page
 * arenas (usim/mock_page.h), each with 4 KiB of real memory and a pfn the
 * test chooses; alloc_pages() makes blocks of them; any other host address
 * stands for the linear map, with pfn = address >> PAGE_SHIFT; and a
 * page-aligned struct page pointer is a number page (below).
 */
#ifndef _USIM_LINUX_MM_H
#define _USIM_LINUX_MM_H

#include <linux/bug.h>
#include <linux/gfp.h>		/* as the kernel's mm.h */
#include <linux/kernel.h>
#include <linux/types.h>

#define PAGE_SHIFT	12
#define PAGE_SIZE	(1UL << PAGE_SHIFT)
#define PAGE_MASK	(~(PAGE_SIZE - 1))

#define offset_in_page(p)	((unsigned long)(p) & ~PAGE_MASK)
#define PAGE_ALIGN(addr)	ALIGN(addr, PAGE_SIZE)
/* The kernel's MAX_ORDER - 1 on x86-64: the largest alloc_pages() order. */
#define USIM_MAX_PAGE_ORDER	10

struct mock_page_arena;

struct page {
	unsigned long pfn;
	void *virtual;		/* its memory, also for highmem (see below) */
	struct mock_page_arena *arena;
	unsigned long flags;	/* USIM_PAGE_HIGHMEM; 32 bytes: see usim_number_page() */
};

/*
 * Highmem (mock, an option per page): a page of a highmem arena
 * (mock_page_arena_set_highmem()) or of alloc_pages(__GFP_HIGHMEM) has no
 * kernel address, as on a 32-bit kernel: page_address() is NULL and only
 * kmap*() reach its memory, through a window of their own (usim/mock_highmem.c).
 */
#define USIM_PAGE_HIGHMEM	1UL

static inline bool PageHighMem(const struct page *page)
{
	return page->flags & USIM_PAGE_HIGHMEM;
}

/*
 * A number page: a page-aligned struct page pointer, which usim never
 * makes (mock_page.c), stands for the page whose pfn is the pointer over
 * PAGE_SIZE, as tools/testing/scatterlist's harness makes its pages.
 * Nothing can be read through one: no memory, no address.
 */
static inline bool usim_number_page(const struct page *page)
{
	return !((unsigned long)page & (PAGE_SIZE - 1));
}

static inline void *page_address(const struct page *page)
{
	BUG_ON(usim_number_page(page));
	return PageHighMem(page) ? NULL : page->virtual;
}

/* A page's memory whatever its zone: for mocks and test models, not the kernel. */
static inline void *usim_page_memory(const struct page *page)
{
	BUG_ON(usim_number_page(page));
	return page->virtual;
}

static inline unsigned long page_to_pfn(const struct page *page)
{
	if (usim_number_page(page))
		return (unsigned long)page / PAGE_SIZE;
	return page->pfn;
}

static inline phys_addr_t page_to_phys(const struct page *page)
{
	return (phys_addr_t)page_to_pfn(page) << PAGE_SHIFT;
}

/* The page of a pfn, or NULL where no memory is (not a kernel behaviour). */
struct page *pfn_to_page(unsigned long pfn);

/* The kernel's SPARSEMEM form: mock pages are adjacent only by pfn. */
static inline struct page *nth_page(struct page *page, unsigned long n)
{
	if (usim_number_page(page))
		return (struct page *)((unsigned long)page + n * PAGE_SIZE);
	return pfn_to_page(page_to_pfn(page) + n);
}
struct page *virt_to_page(const void *addr);
bool virt_addr_valid(const void *addr);

#endif
