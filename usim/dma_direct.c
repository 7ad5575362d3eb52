/* The direct mapper: no IOMMU, DMA address = physical address. */
#include <linux/dma-mapping.h>

#include "dma_mappers.h"

static int direct_map_sg(struct device *dev, struct scatterlist *sgl,
			 int nents, enum dma_data_direction dir)
{
	struct scatterlist *sg;
	int i;

	(void)dev, (void)dir;
	for_each_sg(sgl, sg, nents, i) {
		sg->dma_address = sg_phys(sg);
		sg->dma_length = sg->length;
	}
	return nents;
}

static void direct_unmap_sg(struct device *dev, struct scatterlist *sgl,
			    int nents, enum dma_data_direction dir)
{
	(void)dev, (void)sgl, (void)nents, (void)dir;
}

bool usim_dma_translate_direct(struct device *dev, dma_addr_t addr,
			       phys_addr_t *phys)
{
	/* The device cannot drive address lines above its mask. */
	if (addr > *dev->dma_mask || !pfn_to_page(addr >> PAGE_SHIFT))
		return false;
	*phys = addr;
	return true;
}

static const struct usim_dma_ops direct_ops = {
	.name = "direct",
	.map_sg = direct_map_sg,
	.unmap_sg = direct_unmap_sg,
	.translate = usim_dma_translate_direct,
};

void usim_device_attach_direct(struct device *dev)
{
	dev->dma_ops = &direct_ops;
	dev->dma_ops_data = NULL;
}
