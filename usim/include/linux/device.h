/*
 * struct device (mock): only what DMA mapping reads, plus the usim mapper
 * the device sits behind (an IOMMU, a bounce pool, or none).
 */
#ifndef _USIM_LINUX_DEVICE_H
#define _USIM_LINUX_DEVICE_H

#include <linux/types.h>

struct device_dma_parameters {
	unsigned int max_segment_size;
	unsigned long segment_boundary_mask;
};

struct usim_dma_ops;

struct device {
	const char *init_name;
	u64 *dma_mask;
	u64 coherent_dma_mask;
	struct device_dma_parameters *dma_parms;
	const struct usim_dma_ops *dma_ops;	/* usim: the mapper */
	void *dma_ops_data;			/* usim: its state */
	struct device_dma_parameters usim_parms; /* usim: what dma_parms points to */
};

#endif
