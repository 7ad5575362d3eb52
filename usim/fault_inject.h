/*
 * Fault injection for usim's allocators, after SQLite's test_malloc: let a
 * number of calls through, then fail a number of them (or all), or fail
 * each call with a probability from a seed. Counters say what happened.
 */
#ifndef _USIM_FAULT_INJECT_H
#define _USIM_FAULT_INJECT_H

#include <stdbool.h>
#include <stdint.h>

#define USIM_FAULT_FOREVER	(~0UL)

struct usim_fault {
	const char *name;
	bool armed;
	unsigned long countdown;	/* calls still to let through */
	unsigned long repeat;		/* failures after that, or FOREVER */
	uint32_t prob_ppm;		/* random mode: failures per million */
	uint64_t rng;			/* random mode: xorshift state */
	unsigned long calls;		/* since the last set-up */
	unsigned long failures;
	unsigned long successes;
};

/* Every kmalloc, kmem_cache_alloc and page allocation. */
extern struct usim_fault usim_slab_fault;
/* Every mempool_alloc: a fault means no element, reserve or not. */
extern struct usim_fault usim_mempool_fault;
/* Every IOVA range the IOMMU mapper allocates: a fault means a full aperture. */
extern struct usim_fault usim_iova_fault;
/* Every bounce the swiotlb mapper makes: a fault means a full pool. */
extern struct usim_fault usim_bounce_fault;

/* Let @n calls through (0-based index @n fails), fail one, then succeed. */
void usim_fault_fail_nth(struct usim_fault *f, unsigned long n);
/* Let @n calls through, then fail every call. */
void usim_fault_fail_from(struct usim_fault *f, unsigned long n);
/* Fail each call with probability @p, reproducibly from @seed. */
void usim_fault_fail_random(struct usim_fault *f, double p, uint64_t seed);
/* Disarm and zero the counters. */
void usim_fault_reset(struct usim_fault *f);

/* Called by the allocators: true if this call must fail. */
bool usim_fault_should_fail(struct usim_fault *f);

/* While suspended (nests), no fault fires and no call is counted. */
void usim_fault_suspend(void);
void usim_fault_resume(void);

/* Empty and never inlined: a place for a debugger breakpoint. */
void usim_fault_hit(const struct usim_fault *f);

#endif
