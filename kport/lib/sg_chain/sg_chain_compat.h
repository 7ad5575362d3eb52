/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The kernel names the sg_chain suites use that Linux 6.1 and 6.12 spell
 * differently. sgchain carries the same suite files in its series for
 * both kernels; this header is the one place where the two differ.
 * Kernels between the two stop the build here rather than guess: MAX_ORDER
 * changed meaning in 6.4, and a block order from the wrong side of that
 * would compile and quietly test something else.
 */
#ifndef _SG_CHAIN_COMPAT_H
#define _SG_CHAIN_COMPAT_H

#include <linux/mmzone.h>
#include <linux/swiotlb.h>
#include <linux/version.h>

/* The version first: checkpatch takes LINUX_VERSION_CODE for a variable. */
#if KERNEL_VERSION(6, 12, 0) <= LINUX_VERSION_CODE

/* The largest order the page allocator gives (6.8 named it so). */
#define SG_CHAIN_MAX_PAGE_ORDER	MAX_PAGE_ORDER

/* Does @phys lie in a swiotlb bounce slot of @dev? */
static inline bool sg_chain_is_swiotlb_buffer(struct device *dev,
					      phys_addr_t phys)
{
	return swiotlb_find_pool(dev, phys);
}

#elif KERNEL_VERSION(6, 2, 0) > LINUX_VERSION_CODE

/* Until 6.4, MAX_ORDER was one more than the largest order. */
#define SG_CHAIN_MAX_PAGE_ORDER	(MAX_ORDER - 1)

static inline bool sg_chain_is_swiotlb_buffer(struct device *dev,
					      phys_addr_t phys)
{
	return is_swiotlb_buffer(dev, phys);
}

#else
#error "the sg_chain suites know Linux 6.1 and 6.12: add this kernel's names here"
#endif

#endif /* _SG_CHAIN_COMPAT_H */
