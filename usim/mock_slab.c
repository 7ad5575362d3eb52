/*
 * usim's slab and page allocator: host memory behind the kernel API, with
 * every object in a hash table so that frees can be checked.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <linux/bug.h>
#include <linux/mm.h>
#include <linux/slab.h>

#include "alloc_log.h"
#include "fault_inject.h"
#include "mock_page.h"
#include "mock_slab.h"
#include "usim_report.h"

enum obj_kind { OBJ_KMALLOC, OBJ_PAGE, OBJ_CACHE, OBJ_PAGES };

static const char *const kind_api[] = {
	[OBJ_KMALLOC] = "kmalloc",
	[OBJ_PAGE] = "__get_free_page",
	[OBJ_CACHE] = "kmem_cache_alloc",
	[OBJ_PAGES] = "alloc_pages",
};

struct kmem_cache {
	char name[32];
	unsigned int size;
	unsigned long outstanding;
};

struct tracked_obj {
	void *ptr;
	size_t size;
	enum obj_kind kind;
	struct kmem_cache *cache;
	bool freed;
	struct tracked_obj *hash_next;
	struct tracked_obj *quarantine_next;
};

#define HASH_BITS	14
#define QUARANTINE_MAX	512

static struct tracked_obj *hash[1u << HASH_BITS];
static struct tracked_obj *quarantine_head, *quarantine_tail;
static unsigned long quarantined;
static unsigned long live_objects, live_bytes;

static unsigned int hash_of(const void *ptr)
{
	uint64_t v = (uintptr_t)ptr >> 4;

	return (unsigned int)((v * 0x9e3779b97f4a7c15ULL) >> (64 - HASH_BITS));
}

static struct tracked_obj *lookup(const void *ptr)
{
	struct tracked_obj *obj;

	for (obj = hash[hash_of(ptr)]; obj; obj = obj->hash_next)
		if (obj->ptr == ptr)
			return obj;
	return NULL;
}

static void unhash(struct tracked_obj *victim)
{
	struct tracked_obj **link = &hash[hash_of(victim->ptr)];

	while (*link != victim)
		link = &(*link)->hash_next;
	*link = victim->hash_next;
}

static void check_poison(const struct tracked_obj *obj)
{
	static unsigned char poison[PAGE_SIZE];
	const unsigned char *p = obj->ptr;
	size_t done, chunk, i;

	if (!poison[0])
		memset(poison, USIM_POISON_FREE, sizeof(poison));
	/* memcmp a page at a time: freed sg tables are checked by the million. */
	for (done = 0; done < obj->size; done += chunk) {
		chunk = obj->size - done < PAGE_SIZE ? obj->size - done : PAGE_SIZE;
		if (!memcmp(p + done, poison, chunk))
			continue;
		for (i = done; p[i] == USIM_POISON_FREE; i++)
			;
		usim_error("%s object %p (%zu bytes) written at +%zu after free",
			   kind_api[obj->kind], obj->ptr, obj->size, i);
		return;
	}
}

static void release(struct tracked_obj *obj)
{
	check_poison(obj);
	unhash(obj);
	free(obj->ptr);
	free(obj);
}

static void quarantine_pop(void)
{
	struct tracked_obj *oldest = quarantine_head;

	quarantine_head = oldest->quarantine_next;
	if (!quarantine_head)
		quarantine_tail = NULL;
	quarantined--;
	release(oldest);
}

static void quarantine_push(struct tracked_obj *obj)
{
	obj->quarantine_next = NULL;
	if (quarantine_tail)
		quarantine_tail->quarantine_next = obj;
	else
		quarantine_head = obj;
	quarantine_tail = obj;
	if (++quarantined > QUARANTINE_MAX)
		quarantine_pop();
}

void usim_slab_flush_quarantine(void)
{
	while (quarantine_head)
		quarantine_pop();
}

/* Runs after every other destructor, pools included. */
__attribute__((destructor(101))) static void flush_at_exit(void)
{
	usim_slab_flush_quarantine();
}

static const enum usim_alloc_site obj_site[] = {
	[OBJ_KMALLOC] = USIM_ALLOC_KMALLOC,
	[OBJ_PAGE] = USIM_ALLOC_PAGE,
	[OBJ_CACHE] = USIM_ALLOC_CACHE,
	[OBJ_PAGES] = USIM_ALLOC_PAGE,
};

static void *track_alloc(enum obj_kind kind, size_t size,
			 struct kmem_cache *cache, gfp_t gfp)
{
	const enum usim_alloc_site *site = obj_site;
	bool fail = usim_fault_should_fail(&usim_slab_fault);
	struct tracked_obj *obj;
	void *ptr;

	usim_alloc_log_record(site[kind], cache ? cache->name : kind_api[kind],
			      gfp, fail);
	if (fail) {
		usim_alloc_event(&(struct usim_alloc_event){
			.site = site[kind], .gfp = gfp, .bytes = size,
			.name = cache ? cache->name : kind_api[kind] });
		return NULL;
	}

	if (kind == OBJ_PAGE || kind == OBJ_PAGES)
		ptr = aligned_alloc(PAGE_SIZE, size);
	else
		ptr = malloc(size ? size : 1);
	obj = calloc(1, sizeof(*obj));
	if (!ptr || !obj) {
		/* The host, not the simulation, ran out: no test expects it. */
		BUG();
	}
	/* Code that forgets to initialise sees 0xa5, not lucky zeroes. */
	memset(ptr, gfp & __GFP_ZERO ? 0 : USIM_POISON_INUSE, size);

	*obj = (struct tracked_obj){
		.ptr = ptr, .size = size, .kind = kind, .cache = cache,
	};
	obj->hash_next = hash[hash_of(ptr)];
	hash[hash_of(ptr)] = obj;
	live_objects++;
	live_bytes += size;
	if (cache)
		cache->outstanding++;
	usim_alloc_event(&(struct usim_alloc_event){
		.site = site[kind], .gfp = gfp, .bytes = size, .ptr = ptr,
		.name = cache ? cache->name : kind_api[kind] });
	return ptr;
}

/* @cache NULL: any cache (kfree may free cache objects, as in SLUB). */
static void track_free(const void *ptr, enum obj_kind kind,
		       const struct kmem_cache *cache, const char *api)
{
	struct tracked_obj *obj;

	if (!ptr)
		return;
	obj = lookup(ptr);
	if (!obj) {
		usim_error("%s(%p): not allocated by usim (foreign free)", api, ptr);
		return;
	}
	if (obj->freed) {
		usim_error("%s(%p): double free", api, ptr);
		return;
	}
	if (obj->kind != kind && !(kind == OBJ_KMALLOC && obj->kind == OBJ_CACHE)) {
		usim_error("%s(%p): object came from %s", api, ptr,
			   kind_api[obj->kind]);
		return;
	}
	if (cache && obj->cache != cache) {
		usim_error("%s(%p): object of cache %s freed to cache %s", api,
			   ptr, obj->cache ? obj->cache->name : "kmalloc",
			   cache->name);
		return;
	}

	usim_alloc_event(&(struct usim_alloc_event){
		.site = obj_site[obj->kind], .is_free = true, .bytes = obj->size,
		.ptr = ptr, .name = obj->cache ? obj->cache->name : api });
	obj->freed = true;
	live_objects--;
	live_bytes -= obj->size;
	if (obj->cache)
		obj->cache->outstanding--;
	memset(obj->ptr, USIM_POISON_FREE, obj->size);
	quarantine_push(obj);
}

void *kmalloc(size_t size, gfp_t flags)
{
	if (!size)
		return ZERO_SIZE_PTR;
	return track_alloc(OBJ_KMALLOC, size, NULL, flags);
}

void *kmalloc_array(size_t n, size_t size, gfp_t flags)
{
	if (size && n > SIZE_MAX / size)
		return NULL;
	return kmalloc(n * size, flags);
}

void kfree(const void *objp)
{
	if (objp == ZERO_SIZE_PTR)
		return;
	track_free(objp, OBJ_KMALLOC, NULL, "kfree");
}

unsigned long __get_free_page(gfp_t gfp_mask)
{
	return (unsigned long)track_alloc(OBJ_PAGE, PAGE_SIZE, NULL, gfp_mask);
}

void free_page(unsigned long addr)
{
	track_free((void *)addr, OBJ_PAGE, NULL, "free_page");
}

struct page *alloc_pages(gfp_t gfp_mask, unsigned int order)
{
	void *memory;

	BUG_ON(order > USIM_MAX_PAGE_ORDER);
	memory = track_alloc(OBJ_PAGES, PAGE_SIZE << order, NULL, gfp_mask);
	return memory ? mock_pages_adopt(memory, order, gfp_mask & __GFP_HIGHMEM) : NULL;
}

void __free_pages(struct page *page, unsigned int order)
{
	track_free(mock_pages_release(page, order), OBJ_PAGES, NULL,
		   "__free_pages");
}

/* ctor keeps the kernel's type, void (*)(void *): it cannot be const. */
struct kmem_cache *kmem_cache_create(const char *name, unsigned int size,
				     unsigned int align, slab_flags_t flags,
				     /* cppcheck-suppress constParameter */
				     void (*ctor)(void *))
{
	struct kmem_cache *s = calloc(1, sizeof(*s));

	(void)align, (void)flags;
	/* No caller of the core uses a constructor; none is emulated. */
	BUG_ON(ctor);
	if (!s)
		return NULL;
	snprintf(s->name, sizeof(s->name), "%s", name);
	s->size = size;
	return s;
}

void kmem_cache_destroy(struct kmem_cache *s)
{
	if (!s)
		return;
	if (s->outstanding)
		usim_error("kmem_cache_destroy(%s): %lu objects outstanding",
			   s->name, s->outstanding);
	free(s);
}

void *kmem_cache_alloc(struct kmem_cache *s, gfp_t flags)
{
	return track_alloc(OBJ_CACHE, s->size, s, flags);
}

void kmem_cache_free(struct kmem_cache *s, void *objp)
{
	track_free(objp, OBJ_CACHE, s, "kmem_cache_free");
}

unsigned long usim_slab_outstanding(void)
{
	return live_objects;
}

unsigned long usim_slab_outstanding_bytes(void)
{
	return live_bytes;
}

unsigned long usim_kmem_cache_outstanding(const struct kmem_cache *s)
{
	return s->outstanding;
}

unsigned int usim_kmem_cache_size(const struct kmem_cache *s)
{
	return s->size;
}

const char *usim_kmem_cache_name(const struct kmem_cache *s)
{
	return s->name;
}

bool usim_slab_owns(const void *ptr, const struct kmem_cache *s)
{
	const struct tracked_obj *obj = lookup(ptr);

	return obj && !obj->freed && obj->cache == s;
}
