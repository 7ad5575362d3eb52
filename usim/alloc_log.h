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

/*
 * Every allocation and free as it happens, with its memory, for tests that
 * compare two implementations call for call (tests/diff). A mempool call
 * and the cache call it makes are two events.
 */
struct usim_alloc_event {
	enum usim_alloc_site site;
	bool is_free;
	const char *name;	/* as in struct usim_alloc_record */
	gfp_t gfp;		/* allocations only */
	size_t bytes;		/* 0 for a pool that is not slab-backed */
	const void *ptr;	/* NULL for a failed allocation */
};

typedef void (usim_alloc_observer)(const struct usim_alloc_event *ev);

/* Call @fn for every event from now on; NULL stops it. */
void usim_alloc_observe(usim_alloc_observer *fn);
/* Called by the allocators. */
void usim_alloc_event(const struct usim_alloc_event *ev);

#endif
