/*
 * <linux/highmem.h> (mock): usim has no highmem, every page has an
 * address, so mapping a page returns page_address(). The mappings are
 * counted (usim/mock_highmem.c): kmap_atomic() also disables page faults,
 * as in the kernel, which pagefault_disabled() reports (kmap_local_page()
 * does not, as in a kernel without highmem); an unmap without its map is a BUG, and a test can check that
 * nothing is left mapped (usim_kmap_outstanding()).
 */
#ifndef _USIM_LINUX_HIGHMEM_H
#define _USIM_LINUX_HIGHMEM_H

#include <linux/mm.h>

void *kmap(struct page *page);
void kunmap(struct page *page);
void *kmap_atomic(struct page *page);
void kunmap_atomic(const void *addr);
void *kmap_local_page(struct page *page);
void kunmap_local(const void *addr);

void pagefault_disable(void);
void pagefault_enable(void);
bool pagefault_disabled(void);

/* Stub: host caches are coherent. */
static inline void flush_dcache_page(struct page *page)
{
	(void)page;
}

/* Mappings made and not yet undone, of every kind. */
unsigned long usim_kmap_outstanding(void);

#endif
