/* Page mappings (mock): counted, so unbalanced map and unmap calls show. */
#include <linux/bug.h>
#include <linux/highmem.h>

static unsigned long kmaps, atomic_kmaps, local_kmaps, pagefault_depth;

/* An unmap (or enable) without its map is the caller's bug. */
static void undo(unsigned long *count)
{
	BUG_ON(!*count);
	(*count)--;
}

void *kmap(struct page *page)
{
	kmaps++;
	return page_address(page);
}

void kunmap(struct page *page)
{
	(void)page;
	undo(&kmaps);
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
	undo(&atomic_kmaps);
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
	undo(&local_kmaps);
}

void pagefault_disable(void)
{
	pagefault_depth++;
}

void pagefault_enable(void)
{
	undo(&pagefault_depth);
}

bool pagefault_disabled(void)
{
	return pagefault_depth != 0;
}

unsigned long usim_kmap_outstanding(void)
{
	return kmaps + atomic_kmaps + local_kmaps;
}
