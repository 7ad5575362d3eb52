/*
 * DMA mapping over chained lists: the direct, merging-IOMMU and bounce
 * mappers against a reference model computed on a flat copy of the same
 * entries. Lists are chained tables of 2 to 128 entries, so links fall at
 * every position relative to merge runs and bounced entries; a mock
 * device moves the data both ways through the DMA addresses.
 */
#include <stdlib.h>

#include "dma_mappers.h"
#include "mock_dma_device.h"
#include "mock_page.h"
#include "sg_chain_dma_cases.h"
#include "usim_test.h"

#define ARENA_PAGES	2100		/* the largest list touches each page once */
#define LOW_PFN		0x1000		/* below a 32-bit mask */
#define HIGH_PFN	0x200000	/* 8 GiB: above it */
#define BOUNCE_PFN	0x20000		/* 512 MiB: the pool itself is low */
#define MASK_32		DMA_BIT_MASK(32)

/* One entry of the flat model: which arena page, where in it, how long. */
struct flat_entry {
	unsigned int page, offset, length;
};

struct fixture {
	struct mock_page_arena *arena;
	unsigned long pfns[ARENA_PAGES];
	struct sg_table table;
	struct scatterlist **flat_sg;	/* the entries in list order */
	struct flat_entry *e;
	unsigned int nents;
	unsigned int max_ents;
	/* The limits the test gave the device (set_limits()), for the model. */
	unsigned int max_seg;
	unsigned long boundary;
};

static struct fixture fx;

static struct scatterlist *table_alloc(unsigned int nents, gfp_t gfp)
{
	return kmalloc_array(nents, sizeof(struct scatterlist), gfp);
}

static void table_free(struct scatterlist *sgl, unsigned int nents)
{
	(void)nents;
	kfree(sgl);
}

/* Arena pages get random pfns, half of them above 4 GiB. Once per run. */
static int arena_create(void **state)
{
	unsigned int i;

	(void)state;
	mock_pfns_random(fx.pfns, ARENA_PAGES / 2, LOW_PFN, 60000, 11);
	mock_pfns_random(fx.pfns + ARENA_PAGES / 2, ARENA_PAGES - ARENA_PAGES / 2,
			 HIGH_PFN, 60000, 12);
	fx.arena = mock_page_arena_create(ARENA_PAGES, fx.pfns);
	if (!fx.arena)
		return -1;
	/* Every word of memory differs from its neighbours. */
	for (i = 0; i < ARENA_PAGES * PAGE_SIZE / 4; i++)
		((u32 *)mock_page_arena_memory(fx.arena))[i] = i * 2654435761u;
	return 0;
}

static int arena_destroy(void **state)
{
	(void)state;
	mock_page_arena_destroy(fx.arena);
	return 0;
}

/*
 * Build the list of fx.e[0..n) in tables of @max_ents entries; one table
 * where the architecture cannot chain.
 */
static void list_build(unsigned int n, unsigned int max_ents)
{
	struct scatterlist *sg;
	unsigned int i;

	if (!CAN_CHAIN)
		max_ents = n;
	fx.max_ents = max_ents;
	assert_int_equal(__sg_alloc_table(&fx.table, n, max_ents, NULL, 0,
					  GFP_KERNEL, table_alloc), 0);
	fx.flat_sg = calloc(n, sizeof(*fx.flat_sg));
	assert_non_null(fx.flat_sg);
	for_each_sg(fx.table.sgl, sg, n, i) {
		sg_set_page(sg, mock_page_arena_page(fx.arena, fx.e[i].page),
			    fx.e[i].length, fx.e[i].offset);
		fx.flat_sg[i] = sg;
	}
	fx.nents = n;
}

static void list_free(void)
{
	__sg_free_table(&fx.table, fx.max_ents, 0, table_free,
			fx.table.orig_nents);
	free(fx.flat_sg);
	fx.flat_sg = NULL;
}

/* The bytes of entries [first, first + count) as the CPU sees them. */
static size_t model_bytes(unsigned int first, unsigned int count, char *out)
{
	size_t done = 0;
	unsigned int i;

	for (i = first; i < first + count; i++) {
		const struct flat_entry *e = &fx.e[i];

		memcpy(out + done, (char *)mock_page_arena_memory(fx.arena) +
		       (size_t)e->page * PAGE_SIZE + e->offset, e->length);
		done += e->length;
	}
	return done;
}

static size_t total_bytes(unsigned int n)
{
	size_t sum = 0;
	unsigned int i;

	for (i = 0; i < n; i++)
		sum += fx.e[i].length;
	return sum;
}

/* Bytes the device writes: differ from memory's, and by @seed. */
static void fill_pattern(char *buf, size_t len, unsigned int seed)
{
	size_t i;

	for (i = 0; i + sizeof(u32) <= len; i += sizeof(u32)) {
		u32 v = (u32)(i + seed) * 0x9e3779b1u;

		memcpy(buf + i, &v, sizeof(v));
	}
	for (; i < len; i++)
		buf[i] = (char)seed;
}

/* memcmp with a message: cmocka's byte-by-byte compare is slow at 8 MiB. */
#define assert_bytes_equal(a, b, len)					\
	do {								\
		if (memcmp((a), (b), (len)))				\
			fail_msg("%zu bytes differ: %s vs %s", (size_t)(len), #a, #b); \
	} while (0)

/* The mapping must leave page, offset, length and the links alone. */
static void assert_entries_untouched(void)
{
	unsigned int i;

	for (i = 0; i < fx.nents; i++) {
		assert_ptr_equal(sg_page(fx.flat_sg[i]),
				 mock_page_arena_page(fx.arena, fx.e[i].page));
		assert_int_equal(fx.flat_sg[i]->offset, fx.e[i].offset);
		assert_int_equal(fx.flat_sg[i]->length, fx.e[i].length);
	}
	assert_int_equal(sg_nents(fx.table.sgl), fx.nents);
}

/* Layouts: entries made so that merge runs start and stop in many places. */
enum layout { FULL_PAGES, PAIRS, RANDOM_RUNS, MISALIGNED_START };

static void make_entries(enum layout layout, unsigned int n, uint64_t seed)
{
	uint64_t x = seed | 1;
	unsigned int i;

	fx.e = calloc(n, sizeof(*fx.e));
	assert_non_null(fx.e);
	for (i = 0; i < n; i++) {
		struct flat_entry *e = &fx.e[i];

		x ^= x << 13, x ^= x >> 7, x ^= x << 17;
		e->page = i % ARENA_PAGES;
		switch (layout) {
		case FULL_PAGES:
			e->offset = 0, e->length = PAGE_SIZE;
			break;
		case PAIRS:	/* the tail of a page, then the head of one */
			e->offset = i % 2 ? 0 : PAGE_SIZE - 512;
			e->length = 512;
			break;
		case RANDOM_RUNS:	/* page ends and page starts at random */
			e->offset = x % 3 ? 0 : (x >> 8) % 2048;
			e->length = (x >> 20) % 2 ? PAGE_SIZE - e->offset :
				    1 + (x >> 24) % (PAGE_SIZE - e->offset);
			break;
		case MISALIGNED_START:
			e->offset = i ? 0 : 1000;
			e->length = PAGE_SIZE - e->offset;
			break;
		}
	}
}

/* Give @dev these limits, and remember them for the model: not read back. */
static void set_limits(struct device *dev, unsigned int max_seg, unsigned long boundary)
{
	assert_int_equal(dma_set_max_seg_size(dev, max_seg), 0);
	assert_int_equal(dma_set_seg_boundary(dev, boundary), 0);
	fx.max_seg = max_seg;
	fx.boundary = boundary;
}

/* A 32-bit device behind @mmu with the default limits, remembered for the model. */
static void iommu_device(struct device *dev, struct usim_iommu *mmu)
{
	usim_device_init(dev, "iommu-dev", MASK_32);
	usim_device_attach_iommu(dev, mmu);
	set_limits(dev, 65536, ~0UL);
}

/* Reference: the merging IOMMU's segments on the flat entries. */
static unsigned int model_iommu_segments(unsigned int n, unsigned int max_seg,
					 unsigned long boundary,
					 unsigned int *seg_first,
					 unsigned int *seg_count)
{
	unsigned int i, nseg = 0;
	u64 len = 0;

	for (i = 0; i < n; i++) {
		const struct flat_entry *p = &fx.e[i - (i > 0)], *e = &fx.e[i];

		if (i && (p->offset + p->length) % PAGE_SIZE == 0 &&
		    e->offset == 0 && len + e->length <= max_seg &&
		    fx.e[seg_first[nseg - 1]].offset + len + e->length - 1 <= boundary) {
			seg_count[nseg - 1]++;
			len += e->length;
			continue;
		}
		seg_first[nseg] = i;
		seg_count[nseg] = 1;
		nseg++;
		len = e->length;
	}
	return nseg;
}

/*
 * Map entries fx.e[0..n) in tables of @max_ents through the IOMMU and
 * check segments, bytes both ways and the terminator against the model.
 * @stale: the entries first carry another mapping's DMA fields (a list
 * mapped before, one segment per entry), as a driver's reused list does.
 */
static void check_iommu_case(struct device *dev, struct usim_iommu *mmu,
			     unsigned int n, unsigned int max_ents, bool stale)
{
	unsigned int *first = calloc(n, sizeof(*first));
	unsigned int *count = calloc(n, sizeof(*count));
	size_t total = total_bytes(n);
	char *want = malloc(total + 1), *got = malloc(total + 1);
	unsigned int nseg, k;
	struct scatterlist *sg;
	int mapped;

	assert_true(first && count && want && got);
	list_build(n, max_ents);
	nseg = model_iommu_segments(n, fx.max_seg, fx.boundary, first, count);

	if (stale)
		for_each_sg(fx.table.sgl, sg, n, k) {
			sg->dma_address = USIM_IOMMU_BUS_BASE + (u64)k * PAGE_SIZE;
			sg->dma_length = sg->length;
		}
	mapped = dma_map_sg(dev, fx.table.sgl, n, DMA_TO_DEVICE);
	if (mapped != (int)nseg)
		fail_msg("%u entries in tables of %u: %d segments, model %u",
			 n, max_ents, mapped, nseg);
	assert_entries_untouched();
	/*
	 * Segment k is entries first[k]..: same length, same bytes, and no
	 * crossing of the device's segment boundary in bus addresses.
	 */
	for_each_sg(fx.table.sgl, sg, (unsigned int)mapped, k) {
		size_t len = model_bytes(first[k], count[k], want);
		u64 boundary = fx.boundary;

		assert_int_equal(sg_dma_len(sg), len);
		if ((sg_dma_address(sg) & ~boundary) != ((sg_dma_address(sg) + len - 1) & ~boundary))
			fail_msg("%u entries: segment %u at %#llx+%zu crosses a boundary of %#lx",
				 n, k, (unsigned long long)sg_dma_address(sg), len,
				 (unsigned long)boundary);
		assert_int_equal(usim_dev_dma_read(dev, sg_dma_address(sg), got, len), 0);
		if (memcmp(got, want, len))
			fail_msg("%u entries: segment %u bytes differ", n, k);
	}
	/* The entry after the last segment ends the segments. */
	if (mapped < (int)n)
		assert_int_equal(fx.flat_sg[mapped]->dma_length, 0);
	/* What a driver walking to the terminator sees: the segments, no more. */
	k = 0;
	for_each_sg(fx.table.sgl, sg, n, k)
		if (!sg_dma_len(sg))
			break;
	assert_int_equal(k, nseg);
	assert_int_equal(usim_dev_dma_read_sg(dev, fx.table.sgl, mapped, got, total),
			 total);
	model_bytes(0, n, want);
	assert_bytes_equal(got, want, total);
	dma_unmap_sg(dev, fx.table.sgl, n, DMA_TO_DEVICE);
	assert_int_equal(usim_iommu_outstanding(mmu), 0);

	/* The other way: the device writes, the CPU reads the entries. */
	fill_pattern(want, total, n);
	mapped = dma_map_sg(dev, fx.table.sgl, n, DMA_FROM_DEVICE);
	assert_int_equal(mapped, nseg);
	assert_int_equal(usim_dev_dma_write_sg(dev, fx.table.sgl, mapped, want, total),
			 total);
	dma_unmap_sg(dev, fx.table.sgl, n, DMA_FROM_DEVICE);
	model_bytes(0, n, got);
	assert_bytes_equal(got, want, total);
	assert_int_equal(usim_iommu_outstanding(mmu), 0);

	list_free();
	free(first), free(count), free(want), free(got);
}

static const unsigned int table_sizes[] = { 2, 3, 4, 5, 7, 8, 16, 128 };
/*
 * Around one table and SG_MAX_SEGMENTS: what the every-n sweeps of 1..40
 * do not reach. Lists longer than SG_MAX_SEGMENTS exist only with chaining.
 */
static const unsigned int large_sizes[] = { 127, 128, 129, 255, 2048, 2049 };

static void test_iommu_merges_like_the_model(void **state)
{
	static const enum layout layouts[] = {
		FULL_PAGES, PAIRS, RANDOM_RUNS, MISALIGNED_START,
	};
	struct usim_iommu *mmu = usim_iommu_create(8192);
	struct device dev;
	unsigned int l, t, n;

	(void)state;
	iommu_device(&dev, mmu);
	for (l = 0; l < ARRAY_SIZE(layouts); l++) {
		make_entries(layouts[l], 2100, 40 + l);
		for (t = 0; t < ARRAY_SIZE(table_sizes); t++)
			for (n = 1; n <= 40; n++)
				check_iommu_case(&dev, mmu, n, table_sizes[t], false);
		for (n = 0; n < ARRAY_SIZE(large_sizes); n++)
			if (large_sizes[n] <= SG_MAX_SEGMENTS)
				check_iommu_case(&dev, mmu, large_sizes[n], 128, false);
		free(fx.e);
	}
	usim_iommu_destroy(mmu);
}

/*
 * List sizes for the limit checks: every one while segments and tables
 * (of 5) still line up differently, then a spread up to 600.
 */
static unsigned int next_limit_size(unsigned int n)
{
	return n < 40 ? n + 1 : n + 61;
}

static void test_iommu_respects_segment_limits(void **state)
{
	struct usim_iommu *mmu = usim_iommu_create(8192);
	struct device dev;
	unsigned int n;

	(void)state;
	usim_device_init(&dev, "limited", MASK_32);
	usim_device_attach_iommu(&dev, mmu);
	make_entries(FULL_PAGES, 600, 1);
	/* Segments of at most 3 pages; no segment across a 16 KiB boundary. */
	set_limits(&dev, 3 * PAGE_SIZE, ~0UL);
	for (n = 1; n <= 600; n = next_limit_size(n))
		check_iommu_case(&dev, mmu, n, 5, false);
	set_limits(&dev, 65536, 4 * PAGE_SIZE - 1);
	for (n = 1; n <= 600; n = next_limit_size(n))
		check_iommu_case(&dev, mmu, n, 5, false);
	free(fx.e);
	make_entries(MISALIGNED_START, 100, 2);
	check_iommu_case(&dev, mmu, 100, 3, false);
	free(fx.e);
	usim_iommu_destroy(mmu);
}

/*
 * A list mapped before keeps its DMA fields: mapping it again with fewer,
 * merged segments must still end them with a zero length, or unmap and
 * drivers walk on into the old mapping.
 */
static void test_iommu_remaps_a_list_with_stale_fields(void **state)
{
	static const enum layout layouts[] = { FULL_PAGES, RANDOM_RUNS };
	struct usim_iommu *mmu = usim_iommu_create(8192);
	struct device dev;
	unsigned int l, n;

	(void)state;
	iommu_device(&dev, mmu);
	for (l = 0; l < ARRAY_SIZE(layouts); l++) {
		make_entries(layouts[l], 300, 60 + l);
		for (n = 1; n <= 300; n = next_limit_size(n))
			check_iommu_case(&dev, mmu, n, 7, true);
		free(fx.e);
	}
	usim_iommu_destroy(mmu);
}

/*
 * Entries of several pages, as sg_alloc_table_from_pages() makes them from
 * physically contiguous runs from @pfn on: the mapper must map (or bounce)
 * each page of an entry as its own. Runs of 4 pages with gaps between,
 * entries of at most @max_pages pages; the device moves the whole buffer
 * both ways and the CPU checks it page by page against the arena.
 */
static void check_from_pages(struct device *dev, unsigned long pfn,
			     unsigned int npages, unsigned int max_pages)
{
	unsigned long *pfns = calloc(npages, sizeof(*pfns));
	struct page **pages = calloc(npages, sizeof(*pages));
	struct mock_page_arena *arena;
	size_t offset = 100, size, i;
	char *want, *got, *mem;
	struct sg_table table;
	int mapped;

	assert_true(pfns && pages);
	for (i = 0; i < npages; i++) {
		pfns[i] = pfn++;
		pfn += i % 4 == 3;	/* a gap after every fourth page */
	}
	arena = mock_page_arena_create(npages, pfns);
	assert_non_null(arena);
	mem = mock_page_arena_memory(arena);
	for (i = 0; i < npages; i++) {
		pages[i] = mock_page_arena_page(arena, i);
		memset(mem + i * PAGE_SIZE, (int)(i + 1), PAGE_SIZE);
	}
	size = (size_t)npages * PAGE_SIZE - offset - 50;
	assert_int_equal(sg_alloc_table_from_pages_segment(&table, pages, npages, offset,
							   size, max_pages * PAGE_SIZE,
							   GFP_KERNEL), 0);
	want = malloc(size);
	got = malloc(size);
	assert_true(want && got);

	mapped = dma_map_sg(dev, table.sgl, table.orig_nents, DMA_TO_DEVICE);
	assert_true(mapped > 0);
	assert_int_equal(usim_dev_dma_read_sg(dev, table.sgl, mapped, got, size), size);
	assert_bytes_equal(got, mem + offset, size);
	dma_unmap_sg(dev, table.sgl, table.orig_nents, DMA_TO_DEVICE);

	fill_pattern(want, size, npages);
	mapped = dma_map_sg(dev, table.sgl, table.orig_nents, DMA_FROM_DEVICE);
	assert_true(mapped > 0);
	assert_int_equal(usim_dev_dma_write_sg(dev, table.sgl, mapped, want, size), size);
	dma_unmap_sg(dev, table.sgl, table.orig_nents, DMA_FROM_DEVICE);
	for (i = 0; i < size; i += PAGE_SIZE) {
		size_t len = size - i < PAGE_SIZE ? size - i : PAGE_SIZE;

		if (memcmp(mem + offset + i, want + i, len))
			fail_msg("%u pages in entries of %u: page at byte %zu differs",
				 npages, max_pages, offset + i);
	}
	sg_free_table(&table);
	mock_page_arena_destroy(arena);
	free(pfns), free(pages), free(want), free(got);
}

static void test_iommu_maps_every_page_of_an_entry(void **state)
{
	static const unsigned int max_pages[] = { 1, 2, 3, 4, 16 };
	struct usim_iommu *mmu = usim_iommu_create(8192);
	struct device dev;
	unsigned int m;

	(void)state;
	iommu_device(&dev, mmu);
	for (m = 0; m < ARRAY_SIZE(max_pages); m++) {
		check_from_pages(&dev, 0x30000, 9, max_pages[m]);
		/* Without chaining, a list of single pages must fit in one table. */
		check_from_pages(&dev, 0x30000, CAN_CHAIN ? 700 : 100, max_pages[m]);
		assert_int_equal(usim_iommu_outstanding(mmu), 0);
	}
	usim_iommu_destroy(mmu);
}

/* @n full pages from arena page @first, in their own list: they merge to one. */
static void full_pages(struct scatterlist *sgl, unsigned int first, unsigned int n)
{
	unsigned int i;

	sg_init_table(sgl, n);
	for (i = 0; i < n; i++)
		sg_set_page(&sgl[i], mock_page_arena_page(fx.arena, first + i), PAGE_SIZE, 0);
}

/*
 * Mappings alive at once in an aperture of 8 pages with a hole: a new one
 * takes only free pages, an unmapped one no longer translates, unmapping
 * twice is reported, and an entry longer than a segment is refused.
 */
static void test_iommu_holes_unmapped_and_misuse(void **state)
{
	struct usim_iommu *mmu = usim_iommu_create(8);
	struct scatterlist a[1], b[4], c[4], big[1];
	unsigned long before;
	struct device dev;
	char buf[8];

	(void)state;
	iommu_device(&dev, mmu);
	full_pages(a, 0, 1);
	full_pages(b, 10, 4);
	full_pages(c, 20, 4);
	assert_int_equal(dma_map_sg(&dev, a, 1, DMA_TO_DEVICE), 1);	/* page 0 */
	assert_int_equal(dma_map_sg(&dev, b, 4, DMA_TO_DEVICE), 1);	/* pages 1-4 */
	dma_unmap_sg(&dev, a, 1, DMA_TO_DEVICE);
	/* Free: page 0 and pages 5-7; four in a row are nowhere. */
	assert_int_equal(dma_map_sg(&dev, c, 4, DMA_TO_DEVICE), 0);
	assert_int_equal(usim_iommu_outstanding(mmu), 4);
	dma_unmap_sg(&dev, b, 4, DMA_TO_DEVICE);
	/* A's address is unmapped: a fault for the device. */
	assert_int_equal(usim_dev_dma_read(&dev, sg_dma_address(a), buf, sizeof(buf)), -EFAULT);
	before = usim_error_count();
	dma_unmap_sg(&dev, a, 1, DMA_TO_DEVICE);
	assert_int_equal(usim_error_count(), before + 1);
	usim_test_expect_errors(1);
	/* An entry of two pages where a segment holds one: refused, nothing kept. */
	set_limits(&dev, PAGE_SIZE, ~0UL);
	sg_init_table(big, 1);
	sg_set_page(big, mock_page_arena_page(fx.arena, 40), 2 * PAGE_SIZE, 0);
	assert_int_equal(dma_map_sg(&dev, big, 1, DMA_TO_DEVICE), 0);
	assert_int_equal(usim_iommu_outstanding(mmu), 0);
	usim_iommu_destroy(mmu);
}

/*
 * A bounce pool of 4 slots with a hole: a bounce of two slots takes only
 * free ones. B's two pages have consecutive pfns above the mask.
 */
static void test_swiotlb_slots_with_a_hole(void **state)
{
	struct usim_swiotlb *pool = usim_swiotlb_create(4, BOUNCE_PFN);
	unsigned long pfns[2] = { 0x300100, 0x300101 };
	struct mock_page_arena *two = mock_page_arena_create(2, pfns);
	struct scatterlist a[1], b[1], c[1];
	struct device dev;

	(void)state;
	assert_true(pool && two);
	usim_device_init(&dev, "32-bit", MASK_32);
	usim_device_attach_swiotlb(&dev, pool);
	sg_init_table(a, 1);
	sg_set_page(a, mock_page_arena_page(fx.arena, ARENA_PAGES - 1), PAGE_SIZE, 0);
	sg_init_table(b, 1);
	sg_set_page(b, mock_page_arena_page(two, 0), 2 * PAGE_SIZE, 0);
	sg_init_table(c, 1);
	sg_set_page(c, mock_page_arena_page(two, 0), PAGE_SIZE + 1, 0);
	assert_int_equal(dma_map_sg(&dev, a, 1, DMA_TO_DEVICE), 1);	/* slot 0 */
	assert_int_equal(dma_map_sg(&dev, b, 1, DMA_TO_DEVICE), 1);	/* slots 1-2 */
	dma_unmap_sg(&dev, a, 1, DMA_TO_DEVICE);
	/* Free: slot 0 and slot 3; two in a row are nowhere. */
	assert_int_equal(dma_map_sg(&dev, c, 1, DMA_TO_DEVICE), 0);
	assert_int_equal(usim_swiotlb_outstanding(pool), 2);
	dma_unmap_sg(&dev, b, 1, DMA_TO_DEVICE);
	assert_int_equal(usim_swiotlb_outstanding(pool), 0);
	mock_page_arena_destroy(two);
	usim_swiotlb_destroy(pool);
}

static void test_iommu_full_aperture_at_every_step(void **state)
{
	struct usim_iommu *mmu = usim_iommu_create(8192);
	unsigned int first[300], count[300], nseg, k, i;
	struct device dev;

	(void)state;
	iommu_device(&dev, mmu);
	make_entries(RANDOM_RUNS, 300, 5);
	list_build(300, 7);
	nseg = model_iommu_segments(300, 65536, ~0UL, first, count);
	for (k = 0; k < nseg; k++) {
		usim_fault_fail_nth(&usim_iova_fault, k);
		assert_int_equal(dma_map_sg(&dev, fx.table.sgl, 300, DMA_TO_DEVICE), 0);
		assert_int_equal(usim_iova_fault.failures, 1);
		assert_int_equal(usim_iommu_outstanding(mmu), 0);
		/* No segment of the failed mapping is left for unmap or a driver. */
		for (i = 0; i < 300; i++) {
			assert_int_equal(fx.flat_sg[i]->dma_address, DMA_MAPPING_ERROR);
			assert_int_equal(fx.flat_sg[i]->dma_length, 0);
		}
		assert_entries_untouched();
	}
	usim_fault_reset(&usim_iova_fault);
	list_free();

	/* A real shortage: an aperture of 100 pages for 300 pages of data. */
	usim_iommu_destroy(mmu);
	mmu = usim_iommu_create(100);
	usim_device_attach_iommu(&dev, mmu);
	list_build(300, 7);
	assert_int_equal(dma_map_sg(&dev, fx.table.sgl, 300, DMA_BIDIRECTIONAL), 0);
	assert_int_equal(usim_iommu_outstanding(mmu), 0);
	list_free();
	free(fx.e);
	usim_iommu_destroy(mmu);
}

/* Reference: which entries the bounce mapper must bounce. */
static bool model_bounces(unsigned int i, u64 mask)
{
	u64 phys = ((u64)fx.pfns[fx.e[i].page] << PAGE_SHIFT) + fx.e[i].offset;

	return phys + fx.e[i].length - 1 > mask;
}

static void check_swiotlb_case(struct device *dev, struct usim_swiotlb *pool,
			       unsigned int n, unsigned int max_ents)
{
	size_t total = total_bytes(n);
	char *want = malloc(total + 1), *got = malloc(total + 1);
	unsigned long bounced = usim_swiotlb_bounced(pool), expect = 0;
	unsigned int i;

	assert_true(want && got);
	list_build(n, max_ents);
	for (i = 0; i < n; i++)
		expect += model_bounces(i, *dev->dma_mask);

	/* To the device: it must read what the CPU wrote, bounced or not. */
	assert_int_equal(dma_map_sg(dev, fx.table.sgl, n, DMA_TO_DEVICE), n);
	assert_int_equal(usim_swiotlb_bounced(pool) - bounced, expect);
	assert_entries_untouched();
	for (i = 0; i < n; i++)
		assert_true(fx.flat_sg[i]->dma_address + fx.e[i].length - 1 <=
			    *dev->dma_mask);
	assert_int_equal(usim_dev_dma_read_sg(dev, fx.table.sgl, n, got, total), total);
	model_bytes(0, n, want);
	assert_bytes_equal(got, want, total);
	dma_unmap_sg(dev, fx.table.sgl, n, DMA_TO_DEVICE);
	assert_int_equal(usim_swiotlb_outstanding(pool), 0);

	/* From the device: the CPU sees it after unmap (or a sync). */
	fill_pattern(want, total, n + 1);
	assert_int_equal(dma_map_sg(dev, fx.table.sgl, n, DMA_FROM_DEVICE), n);
	assert_int_equal(usim_dev_dma_write_sg(dev, fx.table.sgl, n, want, total), total);
	dma_sync_sg_for_cpu(dev, fx.table.sgl, n, DMA_FROM_DEVICE);
	model_bytes(0, n, got);
	assert_bytes_equal(got, want, total);
	dma_unmap_sg(dev, fx.table.sgl, n, DMA_FROM_DEVICE);
	model_bytes(0, n, got);
	assert_bytes_equal(got, want, total);
	assert_int_equal(usim_swiotlb_outstanding(pool), 0);

	/* Unmapped without a sync first: the unmap itself copies back. */
	fill_pattern(want, total, n + 2);
	assert_int_equal(dma_map_sg(dev, fx.table.sgl, n, DMA_FROM_DEVICE), n);
	assert_int_equal(usim_dev_dma_write_sg(dev, fx.table.sgl, n, want, total), total);
	dma_unmap_sg(dev, fx.table.sgl, n, DMA_FROM_DEVICE);
	model_bytes(0, n, got);
	assert_bytes_equal(got, want, total);

	/*
	 * Both ways: the device reads the CPU's new bytes (not what the slots
	 * held from before), the CPU gets the device's.
	 */
	fill_pattern(want, total, n + 4);
	assert_int_equal(sg_copy_from_buffer(fx.table.sgl, n, want, total), total);
	assert_int_equal(dma_map_sg(dev, fx.table.sgl, n, DMA_BIDIRECTIONAL), n);
	assert_int_equal(usim_dev_dma_read_sg(dev, fx.table.sgl, n, got, total), total);
	assert_bytes_equal(got, want, total);
	fill_pattern(want, total, n + 3);
	assert_int_equal(usim_dev_dma_write_sg(dev, fx.table.sgl, n, want, total), total);
	dma_unmap_sg(dev, fx.table.sgl, n, DMA_BIDIRECTIONAL);
	model_bytes(0, n, got);
	assert_bytes_equal(got, want, total);
	assert_int_equal(usim_swiotlb_outstanding(pool), 0);

	list_free();
	free(want), free(got);
}

static void test_swiotlb_bounces_like_the_model(void **state)
{
	struct usim_swiotlb *pool = usim_swiotlb_create(4096, BOUNCE_PFN);
	struct device dev;
	unsigned int t, n;

	(void)state;
	assert_non_null(pool);
	usim_device_init(&dev, "32-bit", MASK_32);
	usim_device_attach_swiotlb(&dev, pool);
	make_entries(RANDOM_RUNS, 2100, 77);
	/* Entries alternate between low and high pages: every pattern of bounces. */
	for (n = 0; n < 2100; n++)
		fx.e[n].page = (n * 2657) % ARENA_PAGES;
	for (t = 0; t < ARRAY_SIZE(table_sizes); t++)
		for (n = 1; n <= 30; n++)
			check_swiotlb_case(&dev, pool, n, table_sizes[t]);
	for (n = 0; n < ARRAY_SIZE(large_sizes); n++)
		if (large_sizes[n] <= SG_MAX_SEGMENTS)
			check_swiotlb_case(&dev, pool, large_sizes[n], 128);
	free(fx.e);
	usim_swiotlb_destroy(pool);
}

static void test_swiotlb_sync_for_device(void **state)
{
	struct usim_swiotlb *pool = usim_swiotlb_create(64, BOUNCE_PFN);
	struct device dev;
	char got[PAGE_SIZE], want[PAGE_SIZE];
	char *cpu;

	(void)state;
	usim_device_init(&dev, "32-bit", MASK_32);
	usim_device_attach_swiotlb(&dev, pool);
	make_entries(FULL_PAGES, 1, 0);
	fx.e[0].page = ARENA_PAGES - 1;		/* a high page: it bounces */
	list_build(1, 2);
	assert_int_equal(dma_map_sg(&dev, fx.table.sgl, 1, DMA_TO_DEVICE), 1);
	/* The CPU changes the buffer after mapping: the device sees it after a sync. */
	cpu = sg_virt(fx.table.sgl);
	memset(cpu, 0x5a, PAGE_SIZE);
	memset(want, 0x5a, PAGE_SIZE);
	assert_int_equal(usim_dev_dma_read(&dev, sg_dma_address(fx.table.sgl), got, PAGE_SIZE), 0);
	assert_memory_not_equal(got, want, PAGE_SIZE);
	dma_sync_sg_for_device(&dev, fx.table.sgl, 1, DMA_TO_DEVICE);
	assert_int_equal(usim_dev_dma_read(&dev, sg_dma_address(fx.table.sgl), got, PAGE_SIZE), 0);
	assert_bytes_equal(got, want, PAGE_SIZE);
	dma_unmap_sg(&dev, fx.table.sgl, 1, DMA_TO_DEVICE);
	list_free();
	free(fx.e);
	usim_swiotlb_destroy(pool);
}

/*
 * Entries that start below a 32-bit mask and end above it: the device can
 * reach their first bytes but not their last, so each must bounce whole.
 * Two pages on either side of 4 GiB, entries of every offset over the line.
 */
static void test_swiotlb_bounces_an_entry_across_the_mask(void **state)
{
	static const unsigned int offsets[] = { 1, 2048, PAGE_SIZE - 1 };
	struct usim_swiotlb *pool = usim_swiotlb_create(16, BOUNCE_PFN);
	unsigned long pfns[2] = { (MASK_32 >> PAGE_SHIFT), (MASK_32 >> PAGE_SHIFT) + 1 };
	struct mock_page_arena *arena = mock_page_arena_create(2, pfns);
	char *mem = mock_page_arena_memory(arena), want[PAGE_SIZE + 2], got[PAGE_SIZE + 2];
	struct scatterlist sg[1];
	struct device dev;
	unsigned int o;

	(void)state;
	assert_true(pool && arena);
	usim_device_init(&dev, "32-bit", MASK_32);
	usim_device_attach_swiotlb(&dev, pool);
	for (o = 0; o < ARRAY_SIZE(offsets); o++) {
		unsigned int off = offsets[o], len = PAGE_SIZE + 2 - off % 2;

		fill_pattern(mem, 2 * PAGE_SIZE, o);
		sg_init_table(sg, 1);
		sg_set_page(sg, mock_page_arena_page(arena, 0), len, off);
		assert_int_equal(dma_map_sg(&dev, sg, 1, DMA_TO_DEVICE), 1);
		assert_true(sg_dma_address(sg) + len - 1 <= MASK_32);
		assert_int_equal(usim_dev_dma_read(&dev, sg_dma_address(sg), got, len), 0);
		assert_bytes_equal(got, mem + off, len);
		dma_unmap_sg(&dev, sg, 1, DMA_TO_DEVICE);

		fill_pattern(want, len, o + 100);
		assert_int_equal(dma_map_sg(&dev, sg, 1, DMA_FROM_DEVICE), 1);
		assert_int_equal(usim_dev_dma_write(&dev, sg_dma_address(sg), want, len), 0);
		dma_unmap_sg(&dev, sg, 1, DMA_FROM_DEVICE);
		assert_bytes_equal(mem + off, want, len);
	}
	assert_int_equal(usim_swiotlb_bounced(pool), 2 * ARRAY_SIZE(offsets));
	assert_int_equal(usim_swiotlb_outstanding(pool), 0);
	mock_page_arena_destroy(arena);
	usim_swiotlb_destroy(pool);
}

/* Entries of several pages above the mask: each bounce takes all its slots. */
static void test_swiotlb_bounces_multi_page_entries(void **state)
{
	static const unsigned int max_pages[] = { 2, 3, 16 };
	struct usim_swiotlb *pool = usim_swiotlb_create(4096, BOUNCE_PFN);
	struct device dev;
	unsigned int m;

	(void)state;
	usim_device_init(&dev, "32-bit", MASK_32);
	usim_device_attach_swiotlb(&dev, pool);
	for (m = 0; m < ARRAY_SIZE(max_pages); m++) {
		check_from_pages(&dev, 0x300000, 9, max_pages[m]);
		check_from_pages(&dev, 0x300000, CAN_CHAIN ? 700 : 100, max_pages[m]);
		assert_int_equal(usim_swiotlb_outstanding(pool), 0);
	}
	assert_true(usim_swiotlb_bounced(pool) > 0);
	usim_swiotlb_destroy(pool);
}

static void test_swiotlb_full_pool_at_every_step(void **state)
{
	struct usim_swiotlb *pool = usim_swiotlb_create(4096, BOUNCE_PFN);
	unsigned int n = 300, i, k, bounces = 0;
	struct device dev;
	char *before, *after;
	size_t total;

	(void)state;
	usim_device_init(&dev, "32-bit", MASK_32);
	usim_device_attach_swiotlb(&dev, pool);
	make_entries(RANDOM_RUNS, n, 9);
	for (i = 0; i < n; i++)
		fx.e[i].page = (i * 2657) % ARENA_PAGES;
	list_build(n, 4);
	for (i = 0; i < n; i++)
		bounces += model_bounces(i, MASK_32);
	total = total_bytes(n);
	before = malloc(total);
	after = malloc(total);
	model_bytes(0, n, before);
	/* An unwound FROM_DEVICE mapping must not copy stale bounces back. */
	for (k = 0; k < bounces; k++) {
		usim_fault_fail_nth(&usim_bounce_fault, k);
		assert_int_equal(dma_map_sg(&dev, fx.table.sgl, n, DMA_FROM_DEVICE), 0);
		assert_int_equal(usim_bounce_fault.failures, 1);
		assert_int_equal(usim_swiotlb_outstanding(pool), 0);
		assert_int_equal(fx.table.sgl->dma_length, 0);
		model_bytes(0, n, after);
		assert_bytes_equal(before, after, total);
	}
	usim_fault_reset(&usim_bounce_fault);
	list_free();
	free(before), free(after), free(fx.e);
	usim_swiotlb_destroy(pool);

	/* A real shortage: 8 slots for many bounces. */
	pool = usim_swiotlb_create(8, BOUNCE_PFN);
	usim_device_attach_swiotlb(&dev, pool);
	make_entries(FULL_PAGES, 64, 0);
	for (i = 0; i < 64; i++)
		fx.e[i].page = ARENA_PAGES - 1 - i;
	list_build(64, 5);
	assert_int_equal(dma_map_sg(&dev, fx.table.sgl, 64, DMA_TO_DEVICE), 0);
	assert_int_equal(usim_swiotlb_outstanding(pool), 0);
	list_free();
	free(fx.e);
	usim_swiotlb_destroy(pool);
}

/*
 * The mappers and the device move bytes by physical address: across a
 * page boundary the next byte is in whatever page has the next pfn, here
 * a page of another arena.
 */
static void test_phys_copy_follows_pfns(void **state)
{
	unsigned long pfn_a = 0x70000, pfn_b = 0x70001;
	struct mock_page_arena *a = mock_page_arena_create(1, &pfn_a);
	struct mock_page_arena *b = mock_page_arena_create(1, &pfn_b);
	char in[300], out[300], *ma, *mb;

	(void)state;
	assert_true(a && b);
	ma = mock_page_arena_memory(a);
	mb = mock_page_arena_memory(b);
	fill_pattern(in, sizeof(in), 7);
	usim_phys_write(((phys_addr_t)pfn_a << PAGE_SHIFT) + PAGE_SIZE - 100, in, sizeof(in));
	assert_bytes_equal(ma + PAGE_SIZE - 100, in, 100);
	assert_bytes_equal(mb, in + 100, sizeof(in) - 100);
	usim_phys_read(((phys_addr_t)pfn_a << PAGE_SHIFT) + PAGE_SIZE - 100, out, sizeof(out));
	assert_bytes_equal(out, in, sizeof(in));
	mock_page_arena_destroy(a);
	mock_page_arena_destroy(b);
}

static void test_direct_maps_physical_addresses(void **state)
{
	struct device dev;
	unsigned int n = 700, i;
	size_t total;
	char *want, *got;

	(void)state;
	usim_device_init(&dev, "64-bit", DMA_BIT_MASK(64));
	usim_device_attach_direct(&dev);
	make_entries(RANDOM_RUNS, n, 3);
	for (i = 0; i < n; i++)
		fx.e[i].page = (i * 2657) % ARENA_PAGES;
	list_build(n, 6);
	total = total_bytes(n);
	want = malloc(total);
	got = malloc(total);
	assert_int_equal(dma_map_sg(&dev, fx.table.sgl, n, DMA_BIDIRECTIONAL), n);
	for (i = 0; i < n; i++) {
		assert_int_equal(fx.flat_sg[i]->dma_address,
				 ((u64)fx.pfns[fx.e[i].page] << PAGE_SHIFT) + fx.e[i].offset);
		assert_int_equal(fx.flat_sg[i]->dma_length, fx.e[i].length);
	}
	assert_int_equal(usim_dev_dma_read_sg(&dev, fx.table.sgl, n, got, total), total);
	model_bytes(0, n, want);
	assert_bytes_equal(got, want, total);
	dma_unmap_sg(&dev, fx.table.sgl, n, DMA_BIDIRECTIONAL);
	/* A 32-bit device cannot reach the high pages: the device faults. */
	dma_set_mask(&dev, MASK_32);
	assert_int_equal(usim_dev_dma_read_sg(&dev, fx.table.sgl, n, got, total), -EFAULT);
	list_free();
	free(want), free(got), free(fx.e);
}

/*
 * The lists of the kernel's sg_chain_dma suite (sg_chain_cases.h), mapped
 * by the fakes: the IOMMU must make the segments the shared model makes
 * (the model dma-iommu is held to in the booted kernel), the bounce pool
 * one segment per entry, as dma-direct does with swiotlb forced.
 */
static void test_kernel_dma_cases_agree_with_the_model(void **state)
{
	struct usim_iommu *mmu = usim_iommu_create(8192);
	struct usim_swiotlb *pool = usim_swiotlb_create(4096, BOUNCE_PFN);
	unsigned int *seg_len = calloc(2048, sizeof(*seg_len));
	struct device iommu_dev, bounce_dev;
	unsigned int layout, s, i, segs;
	struct scatterlist *sg;

	(void)state;
	usim_device_init(&iommu_dev, "iommu-dev", MASK_32);
	usim_device_attach_iommu(&iommu_dev, mmu);
	/* Every page above the mask: the pool bounces each entry. */
	usim_device_init(&bounce_dev, "bounce-dev", MASK_32);
	usim_device_attach_swiotlb(&bounce_dev, pool);
	for (layout = 0; layout < SG_CHAIN_DMA_LAYOUTS; layout++) {
		for (s = 0; s < ARRAY_SIZE(sg_chain_dma_sizes); s++) {
			unsigned int n = sg_chain_dma_sizes[s];

			if (n > SG_MAX_SEGMENTS)
				continue;
			fx.e = calloc(n, sizeof(*fx.e));
			for (i = 0; i < n; i++) {
				sg_chain_dma_entry(layout, i, &fx.e[i].offset, &fx.e[i].length);
				fx.e[i].page = ARENA_PAGES / 2 + (i * 7) % (ARENA_PAGES / 2);
			}
			list_build(n, SG_CHUNK_SIZE);
			segs = sg_chain_dma_model(layout, n, 65536, seg_len);
			assert_int_equal(dma_map_sg(&iommu_dev, fx.table.sgl, n,
						    DMA_BIDIRECTIONAL), segs);
			i = 0;
			for_each_sg(fx.table.sgl, sg, segs, i)
				if (sg->dma_length != seg_len[i])
					fail_msg("%s, %u entries: segment %u is %u bytes, the model %u",
						 sg_chain_dma_layout_names[layout], n, i,
						 sg->dma_length, seg_len[i]);
			dma_unmap_sg(&iommu_dev, fx.table.sgl, n, DMA_BIDIRECTIONAL);

			assert_int_equal(dma_map_sg(&bounce_dev, fx.table.sgl, n,
						    DMA_TO_DEVICE), n);
			for_each_sg(fx.table.sgl, sg, n, i)
				assert_int_equal(sg->dma_length, sg->length);
			dma_unmap_sg(&bounce_dev, fx.table.sgl, n, DMA_TO_DEVICE);
			list_free();
			free(fx.e);
		}
	}
	assert_int_equal(usim_iommu_outstanding(mmu), 0);
	assert_int_equal(usim_swiotlb_outstanding(pool), 0);
	free(seg_len);
	usim_iommu_destroy(mmu);
	usim_swiotlb_destroy(pool);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_iommu_merges_like_the_model, usim_test_setup, usim_test_teardown),
		cmocka_unit_test_setup_teardown(test_iommu_respects_segment_limits, usim_test_setup, usim_test_teardown),
		cmocka_unit_test_setup_teardown(test_iommu_remaps_a_list_with_stale_fields, usim_test_setup, usim_test_teardown),
		cmocka_unit_test_setup_teardown(test_iommu_maps_every_page_of_an_entry, usim_test_setup, usim_test_teardown),
		cmocka_unit_test_setup_teardown(test_iommu_holes_unmapped_and_misuse, usim_test_setup, usim_test_teardown),
		cmocka_unit_test_setup_teardown(test_iommu_full_aperture_at_every_step, usim_test_setup, usim_test_teardown),
		cmocka_unit_test_setup_teardown(test_swiotlb_bounces_like_the_model, usim_test_setup, usim_test_teardown),
		cmocka_unit_test_setup_teardown(test_swiotlb_sync_for_device, usim_test_setup, usim_test_teardown),
		cmocka_unit_test_setup_teardown(test_swiotlb_bounces_an_entry_across_the_mask, usim_test_setup, usim_test_teardown),
		cmocka_unit_test_setup_teardown(test_swiotlb_bounces_multi_page_entries, usim_test_setup, usim_test_teardown),
		cmocka_unit_test_setup_teardown(test_swiotlb_slots_with_a_hole, usim_test_setup, usim_test_teardown),
		cmocka_unit_test_setup_teardown(test_swiotlb_full_pool_at_every_step, usim_test_setup, usim_test_teardown),
		cmocka_unit_test_setup_teardown(test_phys_copy_follows_pfns, usim_test_setup, usim_test_teardown),
		cmocka_unit_test_setup_teardown(test_direct_maps_physical_addresses, usim_test_setup, usim_test_teardown),
		cmocka_unit_test_setup_teardown(test_kernel_dma_cases_agree_with_the_model, usim_test_setup, usim_test_teardown),
	};

	return cmocka_run_group_tests_name("dma_mappers", tests, arena_create,
					   arena_destroy);
}
