/*
 * A device that does DMA: it reads and writes memory through DMA
 * addresses, translated by the mapper it sits behind, so tests check data
 * end to end. An address the mapper did not map is a fault (-EFAULT).
 */
#ifndef _USIM_MOCK_DMA_DEVICE_H
#define _USIM_MOCK_DMA_DEVICE_H

#include <linux/dma-mapping.h>

int usim_dev_dma_read(struct device *dev, dma_addr_t addr, void *buf,
		      size_t len);
int usim_dev_dma_write(struct device *dev, dma_addr_t addr, const void *buf,
		       size_t len);

/*
 * Move a whole command: the first @count DMA segments of @sgl, in order,
 * from memory into @buf (read) or from @buf into memory (write). Returns
 * the bytes moved, or -EFAULT.
 */
long usim_dev_dma_read_sg(struct device *dev, struct scatterlist *sgl,
			  int count, void *buf, size_t len);
long usim_dev_dma_write_sg(struct device *dev, struct scatterlist *sgl,
			   int count, const void *buf, size_t len);

#endif
