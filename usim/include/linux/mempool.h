/*
 * mempool (mock, in usim/mock_mempool.c): the kernel's reserve semantics,
 * plus outstanding counts, poisoned reserve elements and fault injection.
 * Where the kernel would sleep for an element, the mock counts a wait.
 */
#ifndef _USIM_LINUX_MEMPOOL_H
#define _USIM_LINUX_MEMPOOL_H

#include <linux/gfp.h>
#include <linux/types.h>

struct kmem_cache;

typedef void *(mempool_alloc_t)(gfp_t gfp_mask, void *pool_data);
typedef void (mempool_free_t)(void *element, void *pool_data);
typedef struct mempool_s mempool_t;

mempool_t *mempool_create(int min_nr, mempool_alloc_t *alloc_fn,
			  mempool_free_t *free_fn, void *pool_data);
void mempool_destroy(mempool_t *pool);
void *mempool_alloc(mempool_t *pool, gfp_t gfp_mask);
void mempool_free(void *element, mempool_t *pool);

void *mempool_alloc_slab(gfp_t gfp_mask, void *pool_data);
void mempool_free_slab(void *element, void *pool_data);

static inline mempool_t *mempool_create_slab_pool(int min_nr,
						  struct kmem_cache *kc)
{
	return mempool_create(min_nr, mempool_alloc_slab, mempool_free_slab,
			      kc);
}

#endif
