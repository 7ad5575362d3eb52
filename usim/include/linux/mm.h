/*
 * struct page and address helpers (mock): test pages live in usim's page
 * arenas (usim/mock_page.h), each with 4 KiB of real memory and a pfn the
 * test chooses; any other host address stands for the linear map, with
 * pfn = address >> PAGE_SHIFT.
 */
#ifndef _USIM_LINUX_MM_H
#define _USIM_LINUX_MM_H

#include <linux/kernel.h>
#include <linux/types.h>

#define PAGE_SHIFT	12
#define PAGE_SIZE	(1UL << PAGE_SHIFT)
#define PAGE_MASK	(~(PAGE_SIZE - 1))

#define offset_in_page(p)	((unsigned long)(p) & ~PAGE_MASK)

struct mock_page_arena;

struct page {
	unsigned long pfn;
	void *virtual;
	struct mock_page_arena *arena;
};

static inline void *page_address(const struct page *page)
{
	return page->virtual;
}

static inline unsigned long page_to_pfn(const struct page *page)
{
	return page->pfn;
}

static inline phys_addr_t page_to_phys(const struct page *page)
{
	return (phys_addr_t)page->pfn << PAGE_SHIFT;
}

struct page *pfn_to_page(unsigned long pfn);
/* The kernel's SPARSEMEM form: mock pages are adjacent only by pfn. */
#define nth_page(page, n)	pfn_to_page(page_to_pfn(page) + (n))
struct page *virt_to_page(const void *addr);
bool virt_addr_valid(const void *addr);

#endif
