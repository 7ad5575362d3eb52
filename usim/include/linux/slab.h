/*
 * kmalloc and kmem_cache (mock, in usim/mock_slab.c): every object is
 * tracked, new memory is filled with 0xa5 unless __GFP_ZERO, freed memory
 * with 0x6b; double, foreign and mismatched frees are reported. As in the
 * kernel, kmalloc() of 0 bytes returns ZERO_SIZE_PTR, which faults on any
 * access, and kfree() takes it back.
 */
#ifndef _USIM_LINUX_SLAB_H
#define _USIM_LINUX_SLAB_H

#include <linux/err.h>
#include <linux/gfp.h>
#include <linux/types.h>

#define SLAB_HWCACHE_ALIGN	0x00002000u

struct kmem_cache;

#define ZERO_SIZE_PTR		((void *)16)
#define ZERO_OR_NULL_PTR(x)	((unsigned long)(x) <= (unsigned long)ZERO_SIZE_PTR)

void *kmalloc(size_t size, gfp_t flags);
void *kmalloc_array(size_t n, size_t size, gfp_t flags);
void kfree(const void *objp);

static inline void *kzalloc(size_t size, gfp_t flags)
{
	return kmalloc(size, flags | __GFP_ZERO);
}

static inline void *kcalloc(size_t n, size_t size, gfp_t flags)
{
	return kmalloc_array(n, size, flags | __GFP_ZERO);
}

struct kmem_cache *kmem_cache_create(const char *name, unsigned int size,
				     unsigned int align, slab_flags_t flags,
				     void (*ctor)(void *));
void kmem_cache_destroy(struct kmem_cache *s);
void *kmem_cache_alloc(struct kmem_cache *s, gfp_t flags);
void kmem_cache_free(struct kmem_cache *s, void *objp);

#endif
