/* dma_map_sg() and friends: device limits and dispatch to its mapper. */
#include <string.h>

#include <linux/bug.h>
#include <linux/dma-mapping.h>
#include <linux/mm.h>

#include "dma_mappers.h"

static const struct device_dma_parameters default_parms = {
	.max_segment_size = 65536,
	.segment_boundary_mask = ~0UL,
};

void usim_device_init(struct device *dev, const char *name, u64 dma_mask)
{
	memset(dev, 0, sizeof(*dev));
	dev->init_name = name;
	dev->coherent_dma_mask = dma_mask;
	dev->dma_mask = &dev->coherent_dma_mask;
	dev->usim_parms = default_parms;
	dev->dma_parms = &dev->usim_parms;
}

int dma_set_mask(struct device *dev, u64 mask)
{
	*dev->dma_mask = mask;
	return 0;
}

int dma_set_max_seg_size(struct device *dev, unsigned int size)
{
	if (!dev->dma_parms)
		return -EIO;
	dev->dma_parms->max_segment_size = size;
	return 0;
}

int dma_set_seg_boundary(struct device *dev, unsigned long mask)
{
	if (!dev->dma_parms)
		return -EIO;
	dev->dma_parms->segment_boundary_mask = mask;
	return 0;
}

unsigned int dma_get_max_seg_size(struct device *dev)
{
	return dev->dma_parms ? dev->dma_parms->max_segment_size : 65536;
}

unsigned long dma_get_seg_boundary(struct device *dev)
{
	return dev->dma_parms ? dev->dma_parms->segment_boundary_mask : ~0UL;
}

int dma_map_sg(struct device *dev, struct scatterlist *sg, int nents,
	       enum dma_data_direction dir)
{
	BUG_ON(dir == DMA_NONE || !dev->dma_ops);
	return nents > 0 ? dev->dma_ops->map_sg(dev, sg, nents, dir) : 0;
}

void dma_unmap_sg(struct device *dev, struct scatterlist *sg, int nents,
		  enum dma_data_direction dir)
{
	BUG_ON(dir == DMA_NONE || !dev->dma_ops);
	if (nents > 0)
		dev->dma_ops->unmap_sg(dev, sg, nents, dir);
}

void dma_sync_sg_for_cpu(struct device *dev, struct scatterlist *sg,
			 int nelems, enum dma_data_direction dir)
{
	if (nelems > 0 && dev->dma_ops->sync_sg_for_cpu)
		dev->dma_ops->sync_sg_for_cpu(dev, sg, nelems, dir);
}

void dma_sync_sg_for_device(struct device *dev, struct scatterlist *sg,
			    int nelems, enum dma_data_direction dir)
{
	if (nelems > 0 && dev->dma_ops->sync_sg_for_device)
		dev->dma_ops->sync_sg_for_device(dev, sg, nelems, dir);
}

/* Page by page: physically adjacent pages need not be adjacent here. */
static void phys_copy(phys_addr_t phys, void *buf, size_t len, bool to_phys)
{
	char *p = buf;

	while (len) {
		struct page *page = pfn_to_page(phys >> PAGE_SHIFT);
		size_t off = phys & ~PAGE_MASK;
		size_t chunk = len < PAGE_SIZE - off ? len : PAGE_SIZE - off;
		char *mem;

		BUG_ON(!page);
		mem = (char *)usim_page_memory(page) + off;
		if (to_phys)
			memcpy(mem, p, chunk);
		else
			memcpy(p, mem, chunk);
		phys += chunk;
		p += chunk;
		len -= chunk;
	}
}

void usim_phys_read(phys_addr_t phys, void *buf, size_t len)
{
	phys_copy(phys, buf, len, false);
}

void usim_phys_write(phys_addr_t phys, const void *buf, size_t len)
{
	phys_copy(phys, (void *)buf, len, true);
}
