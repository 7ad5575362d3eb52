/*
 * Scatterlist DMA mapping (mock): the 6.1 calls and limits, dispatched to
 * the usim mapper the device sits behind (usim/dma_mappers.h).
 */
#ifndef _USIM_LINUX_DMA_MAPPING_H
#define _USIM_LINUX_DMA_MAPPING_H

#include <linux/device.h>
#include <linux/scatterlist.h>
#include <linux/types.h>

enum dma_data_direction {
	DMA_BIDIRECTIONAL = 0,
	DMA_TO_DEVICE = 1,
	DMA_FROM_DEVICE = 2,
	DMA_NONE = 3,
};

#define DMA_MAPPING_ERROR	(~(dma_addr_t)0)
#define DMA_BIT_MASK(n)		(((n) == 64) ? ~0ULL : ((1ULL << (n)) - 1))

int dma_map_sg(struct device *dev, struct scatterlist *sg, int nents,
	       enum dma_data_direction dir);
void dma_unmap_sg(struct device *dev, struct scatterlist *sg, int nents,
		  enum dma_data_direction dir);
void dma_sync_sg_for_cpu(struct device *dev, struct scatterlist *sg,
			 int nelems, enum dma_data_direction dir);
void dma_sync_sg_for_device(struct device *dev, struct scatterlist *sg,
			    int nelems, enum dma_data_direction dir);

int dma_set_mask(struct device *dev, u64 mask);
int dma_set_max_seg_size(struct device *dev, unsigned int size);
int dma_set_seg_boundary(struct device *dev, unsigned long mask);
unsigned int dma_get_max_seg_size(struct device *dev);
unsigned long dma_get_seg_boundary(struct device *dev);

#endif
