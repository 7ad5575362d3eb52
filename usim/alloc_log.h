/*
 * A record of every allocation call usim's allocators saw: which
 * allocator, which cache or pool, the gfp flags and whether it failed.
 * Tests assert rules such as "only the first table may sleep" from it.
 */
#ifndef _USIM_ALLOC_LOG_H
#define _USIM_ALLOC_LOG_H

#include <linux/types.h>

enum usim_alloc_site {
	USIM_ALLOC_KMALLOC,
	USIM_ALLOC_PAGE,
	USIM_ALLOC_CACHE,	/* kmem_cache_alloc, mempool refills included */
	USIM_ALLOC_MEMPOOL,	/* mempool_alloc as its caller made it */
};

struct usim_alloc_record {
	enum usim_alloc_site site;
	const char *name;	/* cache or pool name, or "kmalloc"/"page" */
	gfp_t gfp;
	bool failed;
};

/* Oldest records are dropped past this many; usim_alloc_log_count() says. */
#define USIM_ALLOC_LOG_MAX	65536

void usim_alloc_log_record(enum usim_alloc_site site, const char *name,
			   gfp_t gfp, bool failed);
void usim_alloc_log_reset(void);
/* Calls recorded since the last reset, dropped ones included. */
unsigned long usim_alloc_log_count(void);
/* The @i-th record since the reset, or NULL if dropped or not there. */
const struct usim_alloc_record *usim_alloc_log_get(unsigned long i);

#endif
