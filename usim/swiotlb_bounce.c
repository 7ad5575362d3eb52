/*
 * A bounce-buffer mapper (seed patch 9's swiotlb, walked by chain).
 *
 * Entries whose memory the device cannot address (above its DMA mask) go
 * through page-sized slots of a pool in low memory: DMA_TO_DEVICE copies
 * in at map time, DMA_FROM_DEVICE copies back at unmap time, and the
 * sync calls copy in between. When the pool runs out, the entries mapped
 * so far are unmapped by walking the list from its head again (the 2007
 * code unwound from sg - i, which is not the head past a chain link).
 */
#include <stdlib.h>

#include <linux/dma-mapping.h>

#include "dma_mappers.h"
#include "fault_inject.h"
#include "mock_page.h"
#include "usim_report.h"

struct bounce_slot {
	phys_addr_t orig;	/* first slot of a bounce: where the data lives */
	unsigned int len;	/* first slot of a bounce: bytes */
	unsigned int count;	/* first slot of a bounce: slots it uses */
	bool used;
};

struct usim_swiotlb {
	unsigned long nslots;
	struct mock_page_arena *arena;	/* the slots' memory */
	phys_addr_t start;		/* physical address of slot 0 */
	struct bounce_slot *slot;
	unsigned long outstanding;
	unsigned long bounced;
};

struct usim_swiotlb *usim_swiotlb_create(unsigned long slots,
					 unsigned long first_pfn)
{
	struct usim_swiotlb *pool = calloc(1, sizeof(*pool));
	unsigned long *pfns = calloc(slots, sizeof(*pfns));

	if (!pool || !pfns)
		goto fail;
	mock_pfns_contiguous(pfns, slots, first_pfn);
	pool->arena = mock_page_arena_create(slots, pfns);
	pool->slot = calloc(slots, sizeof(*pool->slot));
	if (!pool->arena || !pool->slot)
		goto fail;
	pool->nslots = slots;
	pool->start = (phys_addr_t)first_pfn << PAGE_SHIFT;
	free(pfns);
	return pool;
fail:
	free(pfns);
	usim_swiotlb_destroy(pool);
	return NULL;
}

void usim_swiotlb_destroy(struct usim_swiotlb *pool)
{
	if (!pool)
		return;
	if (pool->outstanding)
		usim_error("swiotlb destroyed with %lu slots in use", pool->outstanding);
	mock_page_arena_destroy(pool->arena);
	free(pool->slot);
	free(pool);
}

unsigned long usim_swiotlb_outstanding(const struct usim_swiotlb *pool)
{
	return pool->outstanding;
}

unsigned long usim_swiotlb_bounced(const struct usim_swiotlb *pool)
{
	return pool->bounced;
}

static bool is_bounce(const struct usim_swiotlb *pool, dma_addr_t addr)
{
	return addr >= pool->start &&
	       addr < pool->start + ((u64)pool->nslots << PAGE_SHIFT);
}

static struct bounce_slot *slot_of(struct usim_swiotlb *pool, dma_addr_t tlb)
{
	struct bounce_slot *slot = &pool->slot[(tlb - pool->start) >> PAGE_SHIFT];

	if (!slot->used || !slot->count) {
		usim_error("swiotlb: %#llx is not the start of a bounce",
			   (unsigned long long)tlb);
		return NULL;
	}
	return slot;
}

/* Copy a bounce's bytes between its slots and where the data lives. */
static void bounce_copy(struct usim_swiotlb *pool, dma_addr_t tlb,
			bool to_orig)
{
	struct bounce_slot *slot = slot_of(pool, tlb);
	char buf[PAGE_SIZE];
	unsigned int done, chunk;

	if (!slot)
		return;
	for (done = 0; done < slot->len; done += chunk) {
		chunk = slot->len - done < PAGE_SIZE ? slot->len - done : PAGE_SIZE;
		usim_phys_read((to_orig ? tlb : slot->orig) + done, buf, chunk);
		usim_phys_write((to_orig ? slot->orig : tlb) + done, buf, chunk);
	}
}

/* Slots for @len bytes of @orig: the bounce address, or DMA_MAPPING_ERROR. */
static dma_addr_t bounce_map(struct usim_swiotlb *pool, phys_addr_t orig,
			     unsigned int len, enum dma_data_direction dir)
{
	unsigned long n = (len + PAGE_SIZE - 1) >> PAGE_SHIFT, first, i;
	dma_addr_t tlb;

	if (usim_fault_should_fail(&usim_bounce_fault))
		return DMA_MAPPING_ERROR;
	for (first = 0; first + n <= pool->nslots; first++) {
		for (i = 0; i < n && !pool->slot[first + i].used; i++)
			;
		if (i == n)
			break;
		first += i;
	}
	if (first + n > pool->nslots)
		return DMA_MAPPING_ERROR;

	for (i = 0; i < n; i++)
		pool->slot[first + i].used = true;
	pool->slot[first].orig = orig;
	pool->slot[first].len = len;
	pool->slot[first].count = n;
	pool->outstanding += n;
	pool->bounced++;
	tlb = pool->start + ((u64)first << PAGE_SHIFT);
	if (dir == DMA_TO_DEVICE || dir == DMA_BIDIRECTIONAL)
		bounce_copy(pool, tlb, false);
	return tlb;
}

static void bounce_unmap(struct usim_swiotlb *pool, dma_addr_t tlb)
{
	struct bounce_slot *slot = slot_of(pool, tlb);
	unsigned long i, n;

	if (!slot)
		return;
	n = slot->count;
	for (i = 0; i < n; i++)
		slot[i] = (struct bounce_slot){ 0 };
	pool->outstanding -= n;
}

static bool copies_back(enum dma_data_direction dir)
{
	return dir == DMA_FROM_DEVICE || dir == DMA_BIDIRECTIONAL;
}

/* @sync: copy device data back first; an unwound mapping has none. */
static void unmap_entries(struct device *dev, struct scatterlist *sgl,
			  int nents, enum dma_data_direction dir, bool sync)
{
	struct usim_swiotlb *pool = dev->dma_ops_data;
	struct scatterlist *sg;
	int i;

	for_each_sg(sgl, sg, nents, i) {
		if (!is_bounce(pool, sg->dma_address))
			continue;
		if (sync && copies_back(dir))
			bounce_copy(pool, sg->dma_address, true);
		bounce_unmap(pool, sg->dma_address);
	}
}

static void swiotlb_unmap_sg(struct device *dev, struct scatterlist *sgl,
			     int nents, enum dma_data_direction dir)
{
	unmap_entries(dev, sgl, nents, dir, true);
}

static int swiotlb_map_sg(struct device *dev, struct scatterlist *sgl,
			  int nents, enum dma_data_direction dir)
{
	struct usim_swiotlb *pool = dev->dma_ops_data;
	struct scatterlist *sg;
	int i;

	for_each_sg(sgl, sg, nents, i) {
		phys_addr_t phys = sg_phys(sg);

		sg->dma_length = sg->length;
		if (phys + sg->length - 1 <= *dev->dma_mask) {
			sg->dma_address = phys;
			continue;
		}
		sg->dma_address = bounce_map(pool, phys, sg->length, dir);
		if (sg->dma_address == DMA_MAPPING_ERROR) {
			/* Exactly the i entries before this one, from the head. */
			unmap_entries(dev, sgl, i, dir, false);
			sgl->dma_length = 0;
			return 0;
		}
	}
	return nents;
}

static void swiotlb_sync_sg_for_cpu(struct device *dev, struct scatterlist *sgl,
				    int nents, enum dma_data_direction dir)
{
	struct usim_swiotlb *pool = dev->dma_ops_data;
	struct scatterlist *sg;
	int i;

	if (!copies_back(dir))
		return;
	for_each_sg(sgl, sg, nents, i)
		if (is_bounce(pool, sg->dma_address))
			bounce_copy(pool, sg->dma_address, true);
}

static void swiotlb_sync_sg_for_device(struct device *dev,
				       struct scatterlist *sgl, int nents,
				       enum dma_data_direction dir)
{
	struct usim_swiotlb *pool = dev->dma_ops_data;
	struct scatterlist *sg;
	int i;

	if (dir == DMA_FROM_DEVICE)
		return;
	for_each_sg(sgl, sg, nents, i)
		if (is_bounce(pool, sg->dma_address))
			bounce_copy(pool, sg->dma_address, false);
}

static const struct usim_dma_ops swiotlb_ops = {
	.name = "swiotlb",
	.map_sg = swiotlb_map_sg,
	.unmap_sg = swiotlb_unmap_sg,
	.sync_sg_for_cpu = swiotlb_sync_sg_for_cpu,
	.sync_sg_for_device = swiotlb_sync_sg_for_device,
	/* Bounce slots are plain low memory: addresses translate 1:1. */
	.translate = usim_dma_translate_direct,
};

void usim_device_attach_swiotlb(struct device *dev, struct usim_swiotlb *pool)
{
	dev->dma_ops = &swiotlb_ops;
	dev->dma_ops_data = pool;
}
