/*
 * Page mappings (mock): counted, so unbalanced map and unmap calls show.
 * A lowmem page maps to its own address. A highmem page (<linux/mm.h>)
 * maps to a window of its own: a page of fresh memory holding a copy of
 * the page, written back and freed at the unmap, so that a use after the
 * unmap, or past the mapped page, is a use of freed or foreign memory that
 * ASan and valgrind report, and a write through the window reaches the
 * page only as the kernel's would: once the caller is done with it.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <linux/bug.h>
#include <linux/highmem.h>

static unsigned long kmaps, atomic_kmaps, local_kmaps, pagefault_depth;

/* The kernel nests at most 16 local maps per task; kmap() a few more. */
#define MAX_WINDOWS	32

static struct window {
	void *addr;
	struct page *page;
} windows[MAX_WINDOWS];
static unsigned int nwindows;

/* An unmap (or enable) without its map is the caller's bug. */
static void undo(unsigned long *count)
{
	BUG_ON(!*count);
	(*count)--;
}

static void *map(struct page *page)
{
	unsigned int i;
	void *addr;

	if (!PageHighMem(page))
		return page_address(page);
	/* One window per page: two would not see each other's writes. */
	for (i = 0; i < nwindows; i++)
		BUG_ON(windows[i].page == page);
	BUG_ON(nwindows == MAX_WINDOWS);
	addr = aligned_alloc(PAGE_SIZE, PAGE_SIZE);
	BUG_ON(!addr);
	memcpy(addr, usim_page_memory(page), PAGE_SIZE);
	windows[nwindows++] = (struct window){ addr, page };
	return addr;
}

/* The window holding @addr, or that of @page; nwindows if none. */
static unsigned int window_of(const void *addr, const struct page *page)
{
	uintptr_t a = (uintptr_t)addr;
	unsigned int i;

	for (i = 0; i < nwindows; i++) {
		uintptr_t w = (uintptr_t)windows[i].addr;

		if (page ? windows[i].page == page : a >= w && a < w + PAGE_SIZE)
			break;
	}
	return i;
}

/* Undo the window @addr points into, or that of @page; lowmem: nothing. */
static void unmap(const void *addr, const struct page *page)
{
	unsigned int i = window_of(addr, page);

	if (i == nwindows) {
		/* Not a window: only a lowmem page's own address may be unmapped. */
		BUG_ON(page ? PageHighMem(page) : !virt_addr_valid(addr));
		return;
	}
	memcpy(usim_page_memory(windows[i].page), windows[i].addr, PAGE_SIZE);
	free(windows[i].addr);
	windows[i] = windows[--nwindows];
}

/* Each map counts once its window is made: a caught BUG counts nothing. */
void *kmap(struct page *page)
{
	void *addr = map(page);

	kmaps++;
	return addr;
}

void kunmap(struct page *page)
{
	undo(&kmaps);
	unmap(NULL, page);
}

void *kmap_atomic(struct page *page)
{
	void *addr = map(page);

	pagefault_disable();
	atomic_kmaps++;
	return addr;
}

void kunmap_atomic(const void *addr)
{
	undo(&atomic_kmaps);
	unmap(addr, NULL);
	pagefault_enable();
}

/* As in the kernel, local maps leave page faults enabled. */
void *kmap_local_page(struct page *page)
{
	void *addr = map(page);

	local_kmaps++;
	return addr;
}

void kunmap_local(const void *addr)
{
	undo(&local_kmaps);
	unmap(addr, NULL);
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

unsigned long usim_kmap_windows(void)
{
	return nwindows;
}
