/*
 * usim's mempool: a reserve of min_nr elements that callers fall back on
 * when the pool's allocator fails, as in mm/mempool.c.
 */
#include <stdlib.h>
#include <string.h>

#include <linux/mempool.h>

#include "alloc_log.h"
#include "fault_inject.h"
#include "mock_mempool.h"
#include "mock_slab.h"
#include "usim_report.h"

struct mempool_s {
	int min_nr;
	int curr_nr;
	void **elements;
	void *pool_data;
	mempool_alloc_t *alloc;
	mempool_free_t *free;

	const char *name;
	struct kmem_cache *cache;	/* slab-backed pools only */
	unsigned long outstanding;
	unsigned long waits;
	struct mempool_s *next;
};

static struct mempool_s *pools;

void *mempool_alloc_slab(gfp_t gfp_mask, void *pool_data)
{
	return kmem_cache_alloc(pool_data, gfp_mask);
}

void mempool_free_slab(void *element, void *pool_data)
{
	kmem_cache_free(pool_data, element);
}

static size_t pool_bytes(const mempool_t *pool)
{
	return pool->cache ? usim_kmem_cache_size(pool->cache) : 0;
}

/* Reserve elements are poisoned: a write to one is a write after free. */
static void reserve_put(mempool_t *pool, void *element)
{
	if (pool->cache)
		memset(element, USIM_POISON_FREE,
		       usim_kmem_cache_size(pool->cache));
	pool->elements[pool->curr_nr++] = element;
}

static void *reserve_take(mempool_t *pool)
{
	void *element = pool->elements[--pool->curr_nr];
	const unsigned char *p = element;

	if (pool->cache) {
		for (unsigned int i = 0; i < usim_kmem_cache_size(pool->cache); i++) {
			if (p[i] != USIM_POISON_FREE) {
				usim_error("mempool %s: reserved element %p written at +%u after free",
					   pool->name, element, i);
				break;
			}
		}
	}
	return element;
}

mempool_t *mempool_create(int min_nr, mempool_alloc_t *alloc_fn,
			  mempool_free_t *free_fn, void *pool_data)
{
	mempool_t *pool = calloc(1, sizeof(*pool));

	if (!pool)
		return NULL;
	pool->elements = calloc(min_nr ? min_nr : 1, sizeof(void *));
	if (!pool->elements) {
		free(pool);
		return NULL;
	}
	pool->min_nr = min_nr;
	pool->alloc = alloc_fn;
	pool->free = free_fn;
	pool->pool_data = pool_data;
	if (alloc_fn == mempool_alloc_slab) {
		pool->cache = pool_data;
		pool->name = usim_kmem_cache_name(pool->cache);
	} else {
		pool->name = "mempool";
	}
	pool->next = pools;
	pools = pool;

	while (pool->curr_nr < min_nr) {
		void *element = alloc_fn(GFP_KERNEL, pool_data);

		if (!element) {
			mempool_destroy(pool);
			return NULL;
		}
		reserve_put(pool, element);
	}
	return pool;
}

void mempool_destroy(mempool_t *pool)
{
	mempool_t **link;

	if (!pool)
		return;
	if (pool->outstanding)
		usim_error("mempool_destroy(%s): %lu elements outstanding",
			   pool->name, pool->outstanding);
	while (pool->curr_nr)
		pool->free(reserve_take(pool), pool->pool_data);
	for (link = &pools; *link != pool; link = &(*link)->next)
		;
	*link = pool->next;
	free(pool->elements);
	free(pool);
}

void *mempool_alloc(mempool_t *pool, gfp_t gfp_mask)
{
	void *element = NULL;

	if (!usim_fault_should_fail(&usim_mempool_fault)) {
		/* The kernel tries the allocator without reclaim first. */
		element = pool->alloc(gfp_mask & ~(__GFP_DIRECT_RECLAIM | __GFP_IO),
				      pool->pool_data);
		if (!element && pool->curr_nr)
			element = reserve_take(pool);
	}
	if (!element && gfpflags_allow_blocking(gfp_mask)) {
		/*
		 * The kernel sleeps here until someone returns an element.
		 * One thread cannot wait for another, so count the wait and
		 * end it as if memory had come back.
		 */
		pool->waits++;
		usim_fault_suspend();
		element = pool->alloc(gfp_mask, pool->pool_data);
		usim_fault_resume();
	}
	usim_alloc_log_record(USIM_ALLOC_MEMPOOL, pool->name, gfp_mask,
			      !element);
	usim_alloc_event(&(struct usim_alloc_event){
		.site = USIM_ALLOC_MEMPOOL, .name = pool->name, .gfp = gfp_mask,
		.bytes = pool_bytes(pool), .ptr = element });
	if (element)
		pool->outstanding++;
	return element;
}

void mempool_free(void *element, mempool_t *pool)
{
	int i;

	if (!element)
		return;
	for (i = 0; i < pool->curr_nr; i++) {
		if (pool->elements[i] == element) {
			usim_error("mempool_free(%p, %s): double free", element,
				   pool->name);
			return;
		}
	}
	if (pool->cache && !usim_slab_owns(element, pool->cache)) {
		usim_error("mempool_free(%p, %s): not an element of this pool",
			   element, pool->name);
		return;
	}
	if (!pool->outstanding) {
		usim_error("mempool_free(%p, %s): more frees than allocations",
			   element, pool->name);
		return;
	}
	usim_alloc_event(&(struct usim_alloc_event){
		.site = USIM_ALLOC_MEMPOOL, .is_free = true, .name = pool->name,
		.bytes = pool_bytes(pool), .ptr = element });
	pool->outstanding--;
	if (pool->curr_nr < pool->min_nr)
		reserve_put(pool, element);
	else
		pool->free(element, pool->pool_data);
}

mempool_t *usim_mempool_find(const char *name)
{
	mempool_t *pool;

	for (pool = pools; pool; pool = pool->next)
		if (!strcmp(pool->name, name))
			return pool;
	return NULL;
}

const char *usim_mempool_name(const mempool_t *pool)
{
	return pool->name;
}

unsigned long usim_mempool_outstanding(const mempool_t *pool)
{
	return pool->outstanding;
}

int usim_mempool_reserved(const mempool_t *pool)
{
	return pool->curr_nr;
}

unsigned long usim_mempool_waits(const mempool_t *pool)
{
	return pool->waits;
}

unsigned long usim_mempool_outstanding_all(void)
{
	unsigned long sum = 0;
	const mempool_t *pool;

	for (pool = pools; pool; pool = pool->next)
		sum += pool->outstanding;
	return sum;
}

unsigned long usim_mempool_waits_all(void)
{
	unsigned long sum = 0;
	const mempool_t *pool;

	for (pool = pools; pool; pool = pool->next)
		sum += pool->waits;
	return sum;
}
