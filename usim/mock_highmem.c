/* Page mappings (mock): counted, so unbalanced map and unmap calls show. */
#include <linux/bug.h>
#include <linux/highmem.h>

static unsigned long kmaps, atomic_kmaps, local_kmaps, pagefault_depth;

void *kmap(struct page *page)
{
	kmaps++;
	return page_address(page);
}

void kunmap(struct page *page)
{
	(void)page;
	BUG_ON(!kmaps);
	kmaps--;
}

void *kmap_atomic(struct page *page)
{
	pagefault_disable();
	atomic_kmaps++;
	return page_address(page);
}

void kunmap_atomic(const void *addr)
{
	(void)addr;
	BUG_ON(!atomic_kmaps);
	atomic_kmaps--;
	pagefault_enable();
}

/* Without highmem the kernel's local maps leave page faults enabled. */
void *kmap_local_page(struct page *page)
{
	local_kmaps++;
	return page_address(page);
}

void kunmap_local(const void *addr)
{
	(void)addr;
	BUG_ON(!local_kmaps);
	local_kmaps--;
}

void pagefault_disable(void)
{
	pagefault_depth++;
}

void pagefault_enable(void)
{
	BUG_ON(!pagefault_depth);
	pagefault_depth--;
}

bool pagefault_disabled(void)
{
	return pagefault_depth != 0;
}

unsigned long usim_kmap_outstanding(void)
{
	return kmaps + atomic_kmaps + local_kmaps;
}
