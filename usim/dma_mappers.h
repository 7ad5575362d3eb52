/*
 * The DMA mappers a usim device can sit behind, after the 2007 ones the
 * seed patches converted from sg++ to chain walks:
 *   direct   no IOMMU: the DMA address is the physical address;
 *   iommu    a GART-like merging IOMMU: entries that meet on a page
 *            boundary become one DMA segment in a small aperture;
 *   swiotlb  a bounce pool: pages above the device's DMA mask are copied
 *            through low memory.
 * Each has fault injection on its allocator (usim_iova_fault,
 * usim_bounce_fault) and counts what is outstanding.
 */
#ifndef _USIM_DMA_MAPPERS_H
#define _USIM_DMA_MAPPERS_H

#include <linux/dma-mapping.h>

struct usim_dma_ops {
	const char *name;
	int (*map_sg)(struct device *dev, struct scatterlist *sgl, int nents,
		      enum dma_data_direction dir);
	void (*unmap_sg)(struct device *dev, struct scatterlist *sgl, int nents,
			 enum dma_data_direction dir);
	void (*sync_sg_for_cpu)(struct device *dev, struct scatterlist *sgl,
				int nents, enum dma_data_direction dir);
	void (*sync_sg_for_device)(struct device *dev, struct scatterlist *sgl,
				   int nents, enum dma_data_direction dir);
	/* The physical address a DMA address reaches, or false. */
	bool (*translate)(struct device *dev, dma_addr_t addr, phys_addr_t *phys);
};

/* A device with a DMA mask and default limits (64 KiB segments, no boundary). */
void usim_device_init(struct device *dev, const char *name, u64 dma_mask);

void usim_device_attach_direct(struct device *dev);
/* 1:1 translation, for mappers without an IOMMU: below the mask, in memory. */
bool usim_dma_translate_direct(struct device *dev, dma_addr_t addr,
			       phys_addr_t *phys);

/* Bus address of IOMMU page 0; windows of any boundary mask start on it. */
#define USIM_IOMMU_BUS_BASE	0x80000000ULL

struct usim_iommu;
struct usim_iommu *usim_iommu_create(unsigned long aperture_pages);
void usim_iommu_destroy(struct usim_iommu *mmu);
void usim_device_attach_iommu(struct device *dev, struct usim_iommu *mmu);
/* IOMMU pages mapped now. */
unsigned long usim_iommu_outstanding(const struct usim_iommu *mmu);

struct usim_swiotlb;
/* @slots page-sized slots with pfns from @first_pfn (keep them under the mask). */
struct usim_swiotlb *usim_swiotlb_create(unsigned long slots,
					 unsigned long first_pfn);
void usim_swiotlb_destroy(struct usim_swiotlb *pool);
void usim_device_attach_swiotlb(struct device *dev, struct usim_swiotlb *pool);
/* Slots in use now, and entries bounced since creation. */
unsigned long usim_swiotlb_outstanding(const struct usim_swiotlb *pool);
unsigned long usim_swiotlb_bounced(const struct usim_swiotlb *pool);

/* Copy between a buffer and physical memory (arena or linear pages). */
void usim_phys_read(phys_addr_t phys, void *buf, size_t len);
void usim_phys_write(phys_addr_t phys, const void *buf, size_t len);

#endif
