/*
 * A GART-like merging IOMMU (seed patch 10's pci-gart, walked by chain).
 *
 * An entry joins the DMA segment of the entries before it when the one
 * before ends on a page boundary, it starts at offset 0, and the segment
 * stays within the device's max_segment_size and segment boundary: the
 * IOMMU maps the pages back to back in its aperture, wherever they are in
 * physical memory. Segments are written in place over the list, the
 * output cursor moving with sg_next() (the 2007 code indexed sg + out,
 * which runs off a table at a link).
 */
#include <stdlib.h>

#include <linux/dma-mapping.h>

#include "dma_mappers.h"
#include "fault_inject.h"
#include "usim_report.h"

struct usim_iommu {
	unsigned long npages;		/* aperture size in IOMMU pages */
	unsigned char *used;		/* per page: mapped or not */
	phys_addr_t *pte;		/* per page: the physical page */
	unsigned long outstanding;	/* pages mapped now */
	unsigned long next;		/* where the next search starts */
};

struct usim_iommu *usim_iommu_create(unsigned long aperture_pages)
{
	struct usim_iommu *mmu = calloc(1, sizeof(*mmu));

	if (!mmu)
		return NULL;
	mmu->npages = aperture_pages;
	mmu->used = calloc(aperture_pages, 1);
	mmu->pte = calloc(aperture_pages, sizeof(*mmu->pte));
	if (!mmu->used || !mmu->pte) {
		usim_iommu_destroy(mmu);
		return NULL;
	}
	return mmu;
}

void usim_iommu_destroy(struct usim_iommu *mmu)
{
	if (!mmu)
		return;
	if (mmu->outstanding)
		usim_error("iommu destroyed with %lu pages mapped", mmu->outstanding);
	free(mmu->used);
	free(mmu->pte);
	free(mmu);
}

unsigned long usim_iommu_outstanding(const struct usim_iommu *mmu)
{
	return mmu->outstanding;
}

static unsigned long pages_spanned(u64 start, u64 len)
{
	return ((start & ~PAGE_MASK) + len + PAGE_SIZE - 1) >> PAGE_SHIFT;
}

/* Whether pages [start, start + n) are free and inside one boundary window. */
static bool iova_fits(const struct usim_iommu *mmu, unsigned long start,
		      unsigned long n, unsigned long window)
{
	unsigned long i;

	if (start + n > mmu->npages ||
	    (window && start / window != (start + n - 1) / window))
		return false;
	for (i = 0; i < n; i++)
		if (mmu->used[start + i])
			return false;
	return true;
}

/*
 * Next fit for @n pages that do not cross a segment boundary window
 * (@boundary + 1 bytes, aligned from the bus base), as the GART searched
 * from its last allocation. Returns the first page, or -1 if full.
 */
static long iova_alloc(struct usim_iommu *mmu, unsigned long n,
		       unsigned long boundary)
{
	unsigned long window = boundary >= ~0UL >> 1 ? 0 :
			       (boundary + 1) >> PAGE_SHIFT;
	unsigned long tries, start = mmu->next, i;

	if (usim_fault_should_fail(&usim_iova_fault))
		return -1;
	for (tries = 0; tries < mmu->npages; tries++, start++) {
		if (start >= mmu->npages)
			start = 0;
		if (!iova_fits(mmu, start, n, window))
			continue;
		for (i = 0; i < n; i++)
			mmu->used[start + i] = 1;
		mmu->outstanding += n;
		mmu->next = start + n;
		return start;
	}
	return -1;
}

static void iova_free(struct usim_iommu *mmu, dma_addr_t addr, unsigned int len)
{
	unsigned long first = (addr - USIM_IOMMU_BUS_BASE) >> PAGE_SHIFT;
	unsigned long n = pages_spanned(addr, len), i;

	if (addr < USIM_IOMMU_BUS_BASE || first + n > mmu->npages) {
		usim_error("iommu unmap of %#llx+%u: outside the aperture",
			   (unsigned long long)addr, len);
		return;
	}
	for (i = 0; i < n; i++) {
		if (!mmu->used[first + i])
			usim_error("iommu unmap of page %lu that is not mapped",
				   first + i);
		else
			mmu->outstanding--;
		mmu->used[first + i] = 0;
	}
}

static bool can_merge(const struct scatterlist *prev,
		      const struct scatterlist *sg, unsigned int seg_off,
		      unsigned int seg_len, unsigned int max_seg,
		      unsigned long boundary)
{
	return (prev->offset + prev->length) % PAGE_SIZE == 0 &&
	       sg->offset == 0 &&
	       (u64)seg_len + sg->length <= max_seg &&
	       (u64)seg_off + seg_len + sg->length - 1 <= boundary;
}

/*
 * Map the @count entries from @first as one segment and describe it in
 * @out. Returns -1 if the aperture is full.
 */
static int map_segment(struct usim_iommu *mmu, struct scatterlist *first,
		       unsigned int count, unsigned int len,
		       unsigned long boundary, struct scatterlist *out)
{
	unsigned long npages = pages_spanned(first->offset, len);
	struct scatterlist *sg = first;
	long page = iova_alloc(mmu, npages, boundary);
	unsigned int i, k;

	if (page < 0)
		return -1;
	out->dma_address = USIM_IOMMU_BUS_BASE + ((u64)page << PAGE_SHIFT) +
			   first->offset;
	out->dma_length = len;
	for (i = 0; i < count; i++, sg = sg_next(sg)) {
		unsigned long n = pages_spanned(sg->offset, sg->length);

		for (k = 0; k < n; k++)
			mmu->pte[page++] = page_to_phys(sg_page(sg)) +
					   ((u64)k << PAGE_SHIFT);
	}
	return 0;
}

static void iommu_unmap_sg(struct device *dev, struct scatterlist *sgl,
			   int nents, enum dma_data_direction dir)
{
	struct usim_iommu *mmu = dev->dma_ops_data;
	struct scatterlist *sg;
	int i;

	(void)dir;
	for_each_sg(sgl, sg, nents, i) {
		if (!sg->dma_length)
			break;
		iova_free(mmu, sg->dma_address, sg->dma_length);
	}
}

static int iommu_map_sg(struct device *dev, struct scatterlist *sgl,
			int nents, enum dma_data_direction dir)
{
	struct usim_iommu *mmu = dev->dma_ops_data;
	unsigned int max_seg = dma_get_max_seg_size(dev);
	unsigned long boundary = dma_get_seg_boundary(dev);
	struct scatterlist *sg, *prev = NULL, *seg = NULL, *out = sgl;
	unsigned int seg_len = 0, seg_count = 0;
	int i, mapped = 0;

	if (nents <= 0)
		return 0;
	for_each_sg(sgl, sg, nents, i) {
		if (!sg->length || sg->length > max_seg)
			goto fail;
		if (seg && can_merge(prev, sg, seg->offset, seg_len, max_seg,
				     boundary)) {
			seg_len += sg->length;
			seg_count++;
		} else {
			if (seg) {
				if (map_segment(mmu, seg, seg_count, seg_len,
						boundary, out))
					goto fail;
				mapped++;
				out = sg_next(out);
			}
			seg = sg;
			seg_len = sg->length;
			seg_count = 1;
		}
		prev = sg;
	}
	if (map_segment(mmu, seg, seg_count, seg_len, boundary, out))
		goto fail;
	mapped++;
	/* Ends the segments for dma_unmap_sg() and for drivers. */
	if (mapped < nents)
		sg_next(out)->dma_length = 0;
	return mapped;

fail:
	iommu_unmap_sg(dev, sgl, mapped, dir);
	for_each_sg(sgl, sg, nents, i) {
		sg->dma_address = DMA_MAPPING_ERROR;
		sg->dma_length = 0;
	}
	return 0;
}

static bool iommu_translate(struct device *dev, dma_addr_t addr,
			    phys_addr_t *phys)
{
	struct usim_iommu *mmu = dev->dma_ops_data;
	unsigned long page = (addr - USIM_IOMMU_BUS_BASE) >> PAGE_SHIFT;

	if (addr < USIM_IOMMU_BUS_BASE || page >= mmu->npages ||
	    !mmu->used[page])
		return false;
	*phys = mmu->pte[page] + (addr & ~PAGE_MASK);
	return true;
}

static const struct usim_dma_ops iommu_ops = {
	.name = "iommu",
	.map_sg = iommu_map_sg,
	.unmap_sg = iommu_unmap_sg,
	.translate = iommu_translate,
};

void usim_device_attach_iommu(struct device *dev, struct usim_iommu *mmu)
{
	dev->dma_ops = &iommu_ops;
	dev->dma_ops_data = mmu;
}
