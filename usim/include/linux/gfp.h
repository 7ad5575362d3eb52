/*
 * GFP flags with the 6.1 bit values (equivalent) and the page allocator
 * (mock, in usim/mock_slab.c: tracked, poisoned, fault-injectable).
 */
#ifndef _USIM_LINUX_GFP_H
#define _USIM_LINUX_GFP_H

#include <linux/types.h>

#define __GFP_DMA		0x01u
#define __GFP_HIGHMEM		0x02u
#define __GFP_DMA32		0x04u
#define __GFP_HIGH		0x20u
#define __GFP_IO		0x40u
#define __GFP_FS		0x80u
#define __GFP_ZERO		0x100u
#define __GFP_ATOMIC		0x200u
#define __GFP_DIRECT_RECLAIM	0x400u
#define __GFP_KSWAPD_RECLAIM	0x800u
#define __GFP_NOWARN		0x2000u
#define __GFP_RECLAIM		(__GFP_DIRECT_RECLAIM | __GFP_KSWAPD_RECLAIM)

#define GFP_DMA		__GFP_DMA
#define GFP_ATOMIC	(__GFP_HIGH | __GFP_ATOMIC | __GFP_KSWAPD_RECLAIM)
#define GFP_KERNEL	(__GFP_RECLAIM | __GFP_IO | __GFP_FS)
#define GFP_NOWAIT	(__GFP_KSWAPD_RECLAIM)
#define GFP_NOIO	(__GFP_RECLAIM)
#define GFP_NOFS	(__GFP_RECLAIM | __GFP_IO)

static inline bool gfpflags_allow_blocking(const gfp_t gfp_flags)
{
	return !!(gfp_flags & __GFP_DIRECT_RECLAIM);
}

unsigned long __get_free_page(gfp_t gfp_mask);
void free_page(unsigned long addr);

struct page;
/* 1 << @order pages, physically contiguous (consecutive pfns) and aligned. */
struct page *alloc_pages(gfp_t gfp_mask, unsigned int order);
void __free_pages(struct page *page, unsigned int order);
#define alloc_page(gfp_mask)	alloc_pages(gfp_mask, 0)
#define __free_page(page)	__free_pages((page), 0)

#endif
