/* kmemleak hooks (stub: usim's allocator tracks every object itself). */
#ifndef _USIM_LINUX_KMEMLEAK_H
#define _USIM_LINUX_KMEMLEAK_H

#include <linux/types.h>

static inline void kmemleak_alloc(const void *ptr, size_t size, int min_count,
				  gfp_t gfp)
{
	(void)ptr, (void)size, (void)min_count, (void)gfp;
}

static inline void kmemleak_free(const void *ptr)
{
	(void)ptr;
}

#endif
