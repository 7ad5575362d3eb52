/*
 * Inspection of usim's slab and page allocator (the kernel API is in
 * <linux/slab.h> and <linux/gfp.h>). Objects are counted while live; freed
 * ones are poisoned and kept in quarantine a while, so a double free is
 * recognised and a write after free is found when the poison is checked.
 */
#ifndef _USIM_MOCK_SLAB_H
#define _USIM_MOCK_SLAB_H

#include <linux/slab.h>

#define USIM_POISON_INUSE	0xa5	/* new memory without __GFP_ZERO */
#define USIM_POISON_FREE	0x6b	/* freed memory */

/* Live objects of every kind: kmalloc, pages and cache objects. */
unsigned long usim_slab_outstanding(void);
unsigned long usim_slab_outstanding_bytes(void);
/* Live objects of one cache. */
unsigned long usim_kmem_cache_outstanding(const struct kmem_cache *s);
unsigned int usim_kmem_cache_size(const struct kmem_cache *s);
const char *usim_kmem_cache_name(const struct kmem_cache *s);

/* True if @ptr is a live object of @s. */
bool usim_slab_owns(const void *ptr, const struct kmem_cache *s);

/* Check the poison of and release every quarantined object. */
void usim_slab_flush_quarantine(void);

#endif
