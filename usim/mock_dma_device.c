/* The DMA-capable mock device (see mock_dma_device.h). */
#include <linux/errno.h>

#include "dma_mappers.h"
#include "mock_dma_device.h"

/* A DMA page at a time: each may translate to a different physical page. */
static int dev_dma(struct device *dev, dma_addr_t addr, void *buf, size_t len,
		   bool to_memory)
{
	char *p = buf;

	while (len) {
		size_t chunk = PAGE_SIZE - (addr & ~PAGE_MASK);
		phys_addr_t phys;

		if (chunk > len)
			chunk = len;
		if (!dev->dma_ops->translate(dev, addr, &phys))
			return -EFAULT;
		if (to_memory)
			usim_phys_write(phys, p, chunk);
		else
			usim_phys_read(phys, p, chunk);
		addr += chunk;
		p += chunk;
		len -= chunk;
	}
	return 0;
}

int usim_dev_dma_read(struct device *dev, dma_addr_t addr, void *buf,
		      size_t len)
{
	return dev_dma(dev, addr, buf, len, false);
}

int usim_dev_dma_write(struct device *dev, dma_addr_t addr, const void *buf,
		       size_t len)
{
	return dev_dma(dev, addr, (void *)buf, len, true);
}

static long dev_dma_sg(struct device *dev, struct scatterlist *sgl, int count,
		       char *buf, size_t len, bool to_memory)
{
	struct scatterlist *sg;
	size_t done = 0;
	int i;

	for_each_sg(sgl, sg, count, i) {
		if (done + sg_dma_len(sg) > len)
			return -EFAULT;
		if (dev_dma(dev, sg_dma_address(sg), buf + done,
			    sg_dma_len(sg), to_memory))
			return -EFAULT;
		done += sg_dma_len(sg);
	}
	return done;
}

long usim_dev_dma_read_sg(struct device *dev, struct scatterlist *sgl,
			  int count, void *buf, size_t len)
{
	return dev_dma_sg(dev, sgl, count, buf, len, false);
}

long usim_dev_dma_write_sg(struct device *dev, struct scatterlist *sgl,
			   int count, const void *buf, size_t len)
{
	return dev_dma_sg(dev, sgl, count, (char *)buf, len, true);
}
