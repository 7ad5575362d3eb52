/* Page arenas behind struct page, pfn_to_page and virt_to_page. */
#include <stdlib.h>
#include <string.h>

#include <linux/bug.h>
#include <linux/kernel.h>
#include <linux/mm.h>

#include "mock_page.h"
#include "usim_report.h"

struct mock_page_arena {
	size_t npages;
	char *memory;
	struct page *pages;
	struct mock_page_arena *next;
	int order;		/* alloc_pages()'s, whose memory is not ours; else -1 */
};

static struct mock_page_arena *arenas;

/*
 * Memory for struct pages. A page-aligned struct page pointer is a number
 * page (<linux/mm.h>), so usim's own may never be page-aligned: struct
 * page is 32 bytes and every block starts 8 bytes past a 32-byte
 * boundary, so no element does. Freed with struct_pages_free().
 */
static void *struct_pages_alloc(size_t bytes)
{
	char *raw;

	_Static_assert(sizeof(struct page) == 32, "struct page must stay 32 bytes");
	raw = aligned_alloc(32, ALIGN(bytes + 8, 32));
	if (!raw)
		return NULL;
	memset(raw, 0, ALIGN(bytes + 8, 32));
	return raw + 8;
}

static void struct_pages_free(void *pages)
{
	if (pages)
		free((char *)pages - 8);
}

/*
 * Outside the arenas, host memory stands for the kernel's linear map: the
 * page holding address a has pfn a >> PAGE_SHIFT. Its struct page is made
 * on first use and kept in a hash, so kmalloc'ed and stack buffers work
 * with sg_set_buf() as kernel buffers do. Arena pfns are far below these.
 */
#define LINEAR_HASH_BITS	10

struct linear_page {
	struct page page;
	struct linear_page *next;
};

static struct linear_page *linear_hash[1u << LINEAR_HASH_BITS];

static struct linear_page **linear_bucket(unsigned long pfn)
{
	return &linear_hash[(pfn * 0x9e3779b97f4a7c15ULL) >>
			    (64 - LINEAR_HASH_BITS)];
}

static struct page *linear_page(unsigned long pfn, bool create)
{
	struct linear_page **bucket = linear_bucket(pfn), *lp;

	for (lp = *bucket; lp; lp = lp->next)
		if (lp->page.pfn == pfn)
			return &lp->page;
	if (!create)
		return NULL;
	lp = struct_pages_alloc(sizeof(*lp));
	BUG_ON(!lp);
	lp->page.pfn = pfn;
	lp->page.virtual = (void *)(pfn << PAGE_SHIFT);
	lp->next = *bucket;
	*bucket = lp;
	return &lp->page;
}

__attribute__((destructor)) static void linear_pages_free(void)
{
	struct linear_page *lp, *next;
	size_t i;

	for (i = 0; i < ARRAY_SIZE(linear_hash); i++) {
		for (lp = linear_hash[i]; lp; lp = next) {
			next = lp->next;
			struct_pages_free(lp);
		}
		linear_hash[i] = NULL;
	}
}

/* pfn -> arena page, so DMA translation is not a scan of every arena. */
#define PFN_HASH_BITS	14

static unsigned int pfn_bucket(unsigned long pfn)
{
	return (pfn * 0x9e3779b97f4a7c15ULL) >> (64 - PFN_HASH_BITS);
}

struct pfn_slot {
	struct page *page;
	struct pfn_slot *next;
};

static struct pfn_slot *pfn_slots[1u << PFN_HASH_BITS];

static void pfn_hash_add(struct page *page)
{
	struct pfn_slot *slot = malloc(sizeof(*slot));

	BUG_ON(!slot);
	slot->page = page;
	slot->next = pfn_slots[pfn_bucket(page->pfn)];
	pfn_slots[pfn_bucket(page->pfn)] = slot;
}

static void pfn_hash_del(const struct page *page)
{
	struct pfn_slot **link = &pfn_slots[pfn_bucket(page->pfn)], *slot;

	while ((slot = *link) && slot->page != page)
		link = &slot->next;
	BUG_ON(!slot);
	*link = slot->next;
	free(slot);
}

static struct page *arena_pfn_to_page(unsigned long pfn)
{
	struct pfn_slot *slot;

	for (slot = pfn_slots[pfn_bucket(pfn)]; slot; slot = slot->next)
		if (slot->page->pfn == pfn)
			return slot->page;
	return NULL;
}

struct page *pfn_to_page(unsigned long pfn)
{
	struct page *page = arena_pfn_to_page(pfn);

	return page ? page : linear_page(pfn, false);
}

static struct page *arena_page_of(const void *addr)
{
	const char *p = addr;
	struct mock_page_arena *arena;

	for (arena = arenas; arena; arena = arena->next)
		if (p >= arena->memory &&
		    p < arena->memory + arena->npages * PAGE_SIZE)
			return &arena->pages[(p - arena->memory) / PAGE_SIZE];
	return NULL;
}

bool virt_addr_valid(const void *addr)
{
	/* The first page is never mapped, in the kernel or here. */
	return (unsigned long)addr >= PAGE_SIZE;
}

struct page *virt_to_page(const void *addr)
{
	struct page *page = arena_page_of(addr);

	/*
	 * The kernel's virt_to_page() does not check (without
	 * CONFIG_DEBUG_VIRTUAL): it invents a page, as this does. The error
	 * fails the test, so a caller's own check is what a test sees.
	 */
	if (!virt_addr_valid(addr))
		usim_error("virt_to_page(%p): not in the linear map", addr);
	return page ? page : linear_page((unsigned long)addr >> PAGE_SHIFT, true);
}

struct mock_page_arena *mock_page_arena_create(size_t npages,
					       const unsigned long *pfns)
{
	struct mock_page_arena *arena;
	size_t i;

	if (!npages)
		return NULL;
	for (i = 0; i < npages; i++)
		if (pfn_to_page(pfns[i]))
			return NULL;	/* pfn already in use */

	arena = calloc(1, sizeof(*arena));
	if (!arena)
		return NULL;
	arena->npages = npages;
	arena->order = -1;
	arena->memory = aligned_alloc(PAGE_SIZE, npages * PAGE_SIZE);
	arena->pages = struct_pages_alloc(npages * sizeof(*arena->pages));
	if (!arena->memory || !arena->pages) {
		free(arena->memory);
		struct_pages_free(arena->pages);
		free(arena);
		return NULL;
	}
	memset(arena->memory, 0, npages * PAGE_SIZE);
	for (i = 0; i < npages; i++) {
		arena->pages[i] = (struct page){
			.pfn = pfns[i],
			.virtual = arena->memory + i * PAGE_SIZE,
			.arena = arena,
		};
		pfn_hash_add(&arena->pages[i]);
	}
	arena->next = arenas;
	arenas = arena;
	return arena;
}

void mock_page_arena_destroy(struct mock_page_arena *arena)
{
	struct mock_page_arena **link;
	size_t i;

	if (!arena)
		return;
	/* alloc_pages()'s blocks go back through __free_pages(). */
	BUG_ON(arena->order >= 0);
	for (link = &arenas; *link != arena; link = &(*link)->next)
		;
	*link = arena->next;
	for (i = 0; i < arena->npages; i++)
		pfn_hash_del(&arena->pages[i]);
	free(arena->memory);
	struct_pages_free(arena->pages);
	free(arena);
}

/*
 * alloc_pages()'s pfns: from 2^36 up, above the linear map's (host
 * addresses >> PAGE_SHIFT stay below 2^35), never reused, each block
 * aligned to its size as the buddy allocator's are.
 */
static unsigned long next_alloc_pfn = 1UL << 36;

struct page *mock_pages_adopt(void *memory, unsigned int order, bool highmem)
{
	size_t npages = (size_t)1 << order, i;
	struct mock_page_arena *arena = calloc(1, sizeof(*arena));
	unsigned long pfn = ALIGN(next_alloc_pfn, npages);

	BUG_ON(!arena);
	arena->pages = struct_pages_alloc(npages * sizeof(*arena->pages));
	BUG_ON(!arena->pages);
	arena->npages = npages;
	arena->memory = memory;
	arena->order = (int)order;
	for (i = 0; i < npages; i++) {
		arena->pages[i] = (struct page){
			.pfn = pfn + i,
			.virtual = arena->memory + i * PAGE_SIZE,
			.arena = arena,
			.flags = highmem ? USIM_PAGE_HIGHMEM : 0,
		};
		pfn_hash_add(&arena->pages[i]);
	}
	/*
	 * A pfn left out after each block: two blocks are never physically
	 * adjacent, as their memory is not virtually adjacent either (the
	 * kernel's linear map makes adjacent pfns adjacent addresses).
	 */
	next_alloc_pfn = pfn + npages + 1;
	arena->next = arenas;
	arenas = arena;
	return &arena->pages[0];
}

void *mock_pages_release(struct page *page, unsigned int order)
{
	struct mock_page_arena *arena = page->arena, **link;
	void *memory;
	size_t i;

	/* As __free_pages() with another page or order: the kernel's bug. */
	BUG_ON(!arena || arena->order != (int)order || page != &arena->pages[0]);
	for (link = &arenas; *link != arena; link = &(*link)->next)
		;
	*link = arena->next;
	for (i = 0; i < arena->npages; i++)
		pfn_hash_del(&arena->pages[i]);
	memory = arena->memory;
	struct_pages_free(arena->pages);
	free(arena);
	return memory;
}

struct page *mock_page_arena_page(struct mock_page_arena *arena, size_t i)
{
	BUG_ON(i >= arena->npages);
	return &arena->pages[i];
}

void mock_page_arena_set_highmem(struct mock_page_arena *arena)
{
	size_t i;

	for (i = 0; i < arena->npages; i++)
		arena->pages[i].flags |= USIM_PAGE_HIGHMEM;
}

size_t mock_page_arena_npages(const struct mock_page_arena *arena)
{
	return arena->npages;
}

void *mock_page_arena_memory(struct mock_page_arena *arena)
{
	return arena->memory;
}

void mock_pfns_contiguous(unsigned long *pfns, size_t n, unsigned long first)
{
	mock_pfns_strided(pfns, n, first, 1);
}

void mock_pfns_strided(unsigned long *pfns, size_t n, unsigned long first,
		       unsigned long stride)
{
	size_t i;

	for (i = 0; i < n; i++)
		pfns[i] = first + i * stride;
}

void mock_pfns_random(unsigned long *pfns, size_t n, unsigned long lo,
		      unsigned long span, uint64_t seed)
{
	uint64_t x = seed ? seed : 1;
	size_t i, j;

	BUG_ON(span < n);
	for (i = 0; i < n; i++) {
		bool taken;

		do {
			x ^= x << 13;
			x ^= x >> 7;
			x ^= x << 17;
			pfns[i] = lo + x % span;
			taken = false;
			for (j = 0; j < i; j++)
				taken |= pfns[j] == pfns[i];
		} while (taken);
	}
}
