/*
 * <linux/highmem.h> (mock): a lowmem page maps to page_address(); a
 * highmem page (an option per page, <linux/mm.h>) to a window of fresh
 * memory that is written back and freed at the unmap (usim/mock_highmem.c).
 * The mappings are counted: kmap_atomic() also disables page faults, as in
 * the kernel, which pagefault_disabled() reports (kmap_local_page() does
 * not, as in the kernel); an unmap without its map is a BUG, and a test can
 * check that nothing is left mapped (usim_kmap_outstanding()).
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

/* Mappings made and not yet undone, of every kind; highmem windows open. */
unsigned long usim_kmap_outstanding(void);
unsigned long usim_kmap_windows(void);

#endif
