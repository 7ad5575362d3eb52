/*
 * Inspection of usim's mempools (the kernel API is in <linux/mempool.h>).
 * Every live pool is registered; a slab-backed pool is named after its
 * cache, so tests find the core's pools as "sgpool-8" ... "sgpool-128".
 */
#ifndef _USIM_MOCK_MEMPOOL_H
#define _USIM_MOCK_MEMPOOL_H

#include <linux/mempool.h>

mempool_t *usim_mempool_find(const char *name);
const char *usim_mempool_name(const mempool_t *pool);
/* Elements handed out and not yet returned. */
unsigned long usim_mempool_outstanding(const mempool_t *pool);
/* Elements held in reserve now. */
int usim_mempool_reserved(const mempool_t *pool);
/* Times a caller would have slept waiting for an element. */
unsigned long usim_mempool_waits(const mempool_t *pool);
/* Sums over every live pool. */
unsigned long usim_mempool_outstanding_all(void);
unsigned long usim_mempool_waits_all(void);

#endif
