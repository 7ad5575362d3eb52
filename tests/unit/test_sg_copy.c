/*
 * The kernel's own copies, mapping iterator, page iterators, sg_split()
 * and sgl_alloc() (lib/scatterlist.c, lib/sg_split.c) over a chained list
 * of entries with unaligned offsets and lengths up to three pages, each
 * checked byte for byte against a flat model: the bytes of the entries in
 * order.
 */
#include <linux/highmem.h>

#include "mock_page.h"
#include "usim_test.h"
#include "sg_chain_pages_cases.h"

/* Five tables where lists chain; one where they cannot. */
#define NENTS		(CAN_CHAIN ? 600 : SG_MAX_SINGLE_ALLOC)
#define MAX_NENTS	600
#define ARENA_PAGES	(MAX_NENTS * 4)	/* up to 3 pages each, and a gap */

struct copy_fixture {
	struct mock_page_arena *arena;
	struct sg_table table;
	unsigned int first_page[MAX_NENTS];	/* arena page of each entry */
	size_t start[MAX_NENTS + 1];		/* model offset of each entry */
	size_t total;
	unsigned char *model;
};

static struct copy_fixture fx;

static u64 rng_state;

static u64 rnd(void)
{
	return sg_chain_rand(&rng_state);
}

/* The memory an entry describes (highmem too: the model reads it directly). */
static unsigned char *sg_bytes(struct scatterlist *sg)
{
	return (unsigned char *)usim_page_memory(sg_page(sg)) + sg->offset;
}

/*
 * The list of sg_chain_copy_layout(): NENTS entries over contiguous pfns,
 * each in its own pages with a page left out between entries, random
 * offset and length up to three pages; the model gets the pages' initial
 * contents.
 */
static int copy_setup_in(void **state, bool highmem)
{
	static unsigned long pfns[ARENA_PAGES];
	static struct sg_chain_page_seg segs[MAX_NENTS];
	struct scatterlist *sg;
	unsigned int i, page;
	uint64_t *memory;
	int ret = usim_test_setup(state);

	if (ret)
		return ret;
	rng_state = 0x9e3779b97f4a7c15ULL;
	page = sg_chain_copy_layout(segs, NENTS, 3, &rng_state);
	mock_pfns_contiguous(pfns, ARENA_PAGES, 0x40000);
	fx.arena = mock_page_arena_create(ARENA_PAGES, pfns);
	if (!fx.arena || page > ARENA_PAGES || sg_alloc_table(&fx.table, NENTS, GFP_KERNEL))
		return -1;
	if (highmem)
		mock_page_arena_set_highmem(fx.arena);
	fx.total = 0;
	for_each_sg(fx.table.sgl, sg, NENTS, i) {
		fx.first_page[i] = segs[i].first;
		fx.start[i] = fx.total;
		sg_set_page(sg, mock_page_arena_page(fx.arena, segs[i].first), segs[i].length,
			    segs[i].offset);
		fx.total += segs[i].length;
	}
	fx.start[NENTS] = fx.total;
	fx.model = malloc(fx.total);
	if (!fx.model)
		return -1;
	memory = mock_page_arena_memory(fx.arena);
	for (i = 0; i < page * PAGE_SIZE / sizeof(*memory); i++)
		memory[i] = i * 0x9e3779b97f4a7c15ULL;
	for_each_sg(fx.table.sgl, sg, NENTS, i)
		memcpy(fx.model + fx.start[i], sg_bytes(sg), sg->length);
	return 0;
}

static int copy_setup(void **state)
{
	return copy_setup_in(state, false);
}

/*
 * The same list over highmem pages: the library reaches them only through
 * kmap windows, so a copy that bypassed the mapping, or a write left in a
 * window, would not reach the model's view of the pages.
 */
static int copy_setup_highmem(void **state)
{
	return copy_setup_in(state, true);
}

static int copy_teardown(void **state)
{
	free(fx.model);
	sg_free_table(&fx.table);
	assert_int_equal(usim_kmap_windows(), 0);
	mock_page_arena_destroy(fx.arena);
	return usim_test_teardown(state);
}

/* The list's bytes equal the model's, entry by entry. */
static void assert_list_is_model(const char *what)
{
	struct scatterlist *sg;
	unsigned int i;

	for_each_sg(fx.table.sgl, sg, NENTS, i)
		if (memcmp(sg_bytes(sg), fx.model + fx.start[i], sg->length))
			fail_msg("%s: entry %u differs from the model", what, i);
}

/* Skips around every link and a spread of others, and the ends. */
static size_t skip_at(unsigned int k)
{
	return sg_chain_skip_at(k, fx.start, NENTS, fx.total, &rng_state);
}

static void test_copy_to_and_from_buffer(void **state)
{
	unsigned char *buf = malloc(fx.total + 64);
	unsigned int k;

	(void)state;
	assert_non_null(buf);
	assert_int_equal(sg_copy_to_buffer(fx.table.sgl, NENTS, buf, fx.total + 64), fx.total);
	assert_memory_equal(buf, fx.model, fx.total);
	for (k = 0; k < 200; k++) {
		size_t skip = skip_at(k), len = rnd() % (3 * PAGE_SIZE * 4);
		size_t want = skip >= fx.total ? 0 :
			      (len < fx.total - skip ? len : fx.total - skip);
		size_t i;

		/* Out of the list: what the model holds there. */
		assert_int_equal(sg_pcopy_to_buffer(fx.table.sgl, NENTS, buf, len, skip), want);
		if (memcmp(buf, fx.model + skip, want))
			fail_msg("sg_pcopy_to_buffer(skip %zu, %zu bytes) differs", skip, len);
		/* Into the list: the model changes the same way. */
		for (i = 0; i < want; i++)
			buf[i] = (unsigned char)rnd();
		assert_int_equal(sg_pcopy_from_buffer(fx.table.sgl, NENTS, buf, len, skip), want);
		memcpy(fx.model + skip, buf, want);
		if (k % 4 == 0)
			assert_list_is_model("after sg_pcopy_from_buffer");
		if (k % 10 == 0) {
			assert_int_equal(sg_zero_buffer(fx.table.sgl, NENTS, len, skip), want);
			memset(fx.model + skip, 0, want);
			assert_list_is_model("after sg_zero_buffer");
		}
	}
	memset(buf, 0x5a, fx.total);
	assert_int_equal(sg_copy_from_buffer(fx.table.sgl, NENTS, buf, fx.total), fx.total);
	memset(fx.model, 0x5a, fx.total);
	assert_list_is_model("after sg_copy_from_buffer");
	free(buf);
	assert_int_equal(usim_kmap_outstanding(), 0);
}

/*
 * sg_miter in every mode: the pieces it maps are the model's bytes in
 * order; consuming part of a piece continues from there; a skip lands
 * where it says; stopping midway leaves nothing mapped.
 */
static void test_miter_modes_skip_and_stop(void **state)
{
	static const unsigned int modes[] = {
		SG_MITER_FROM_SG, SG_MITER_FROM_SG | SG_MITER_ATOMIC,
		SG_MITER_TO_SG, SG_MITER_TO_SG | SG_MITER_ATOMIC,
	};
	struct sg_mapping_iter miter;
	unsigned int m, k;

	(void)state;
	for (m = 0; m < ARRAY_SIZE(modes); m++) {
		size_t pos = 0;

		sg_miter_start(&miter, fx.table.sgl, NENTS, modes[m]);
		while (sg_miter_next(&miter)) {
			/* Take a part of every third piece: the rest comes next. */
			size_t take = miter.length > 1 && pos % 3 == 0 ?
				      miter.length / 2 : miter.length;

			assert_true(miter.length > 0 && miter.length <= PAGE_SIZE);
			assert_int_equal(pagefault_disabled(), !!(modes[m] & SG_MITER_ATOMIC));
			if (modes[m] & SG_MITER_TO_SG) {
				memset(miter.addr, (int)(pos & 0xff), take);
				memset(fx.model + pos, (int)(pos & 0xff), take);
			} else if (memcmp(miter.addr, fx.model + pos, take)) {
				fail_msg("mode %#x: %zu bytes at %zu differ", modes[m], take, pos);
			}
			miter.consumed = take;
			pos += take;
		}
		sg_miter_stop(&miter);
		assert_int_equal(pos, fx.total);
		assert_list_is_model("after a sg_miter pass");
	}
	for (k = 0; k < 100; k++) {
		size_t skip = skip_at(k);

		sg_miter_start(&miter, fx.table.sgl, NENTS, SG_MITER_FROM_SG | SG_MITER_ATOMIC);
		if (!sg_miter_skip(&miter, skip)) {
			assert_true(skip >= fx.total);
		} else if (sg_miter_next(&miter)) {
			if (memcmp(miter.addr, fx.model + skip, miter.length))
				fail_msg("after skipping %zu: the next piece differs", skip);
		} else {
			assert_int_equal(skip, fx.total);
		}
		/* Stopped midway, mapped or not: nothing stays mapped. */
		sg_miter_stop(&miter);
		assert_int_equal(usim_kmap_outstanding(), 0);
		assert_false(pagefault_disabled());
	}
}

/* Every page of every entry, once, in order, from any starting page. */
static void test_page_iterators_visit_every_page(void **state)
{
	struct sg_page_iter piter;
	struct sg_dma_page_iter diter;
	struct scatterlist *sg;
	unsigned long *want = malloc(sizeof(*want) * ARENA_PAGES);
	dma_addr_t *want_dma = malloc(sizeof(*want_dma) * ARENA_PAGES);
	unsigned int i, n = 0, got, start;

	(void)state;
	assert_non_null(want);
	assert_non_null(want_dma);
	for_each_sg(fx.table.sgl, sg, NENTS, i) {
		unsigned int p, pages = DIV_ROUND_UP(sg->offset + sg->length, PAGE_SIZE);
		/*
		 * A mapping of the entry as 6.1's DMA page iterator expects
		 * one: the address of its first byte and its length, so
		 * that it spans as many pages as the entry.
		 */
		dma_addr_t dma = 0x100000000ULL + ((dma_addr_t)(0x40000 + fx.first_page[i]) << PAGE_SHIFT) +
				 sg->offset;

		sg_dma_address(sg) = dma;
		sg_dma_len(sg) = sg->length;
		for (p = 0; p < pages; p++) {
			want_dma[n] = dma + ((dma_addr_t)p << PAGE_SHIFT);
			want[n++] = 0x40000 + fx.first_page[i] + p;
		}
	}
	for (start = 0; start < n; start += 97) {
		got = 0;
		for_each_sg_page(fx.table.sgl, &piter, NENTS, start) {
			if (start + got >= n ||
			    page_to_pfn(sg_page_iter_page(&piter)) != want[start + got])
				fail_msg("from page %u: page %u is pfn %#lx", start, got,
					 page_to_pfn(sg_page_iter_page(&piter)));
			got++;
		}
		assert_int_equal(start + got, n);
	}
	/* Told fewer entries than the list has: their pages, no more. */
	for (i = 1, got = 0; i < NENTS; i += 41, got = 0) {
		unsigned int pages = 0, k;

		for_each_sg(fx.table.sgl, sg, i, k)
			pages += DIV_ROUND_UP(sg->offset + sg->length, PAGE_SIZE);
		for_each_sg_page(fx.table.sgl, &piter, i, 0)
			got++;
		assert_int_equal(got, pages);
	}
	for (i = 1, got = 0; i < NENTS; i += 41, got = 0) {
		unsigned int pages = 0, k;

		for_each_sg(fx.table.sgl, sg, i, k)
			pages += DIV_ROUND_UP(sg->offset + sg_dma_len(sg), PAGE_SIZE);
		for_each_sg_dma_page(fx.table.sgl, &diter, i, 0)
			got++;
		assert_int_equal(got, pages);
	}
	got = 0;
	for_each_sg_dma_page(fx.table.sgl, &diter, NENTS, 0) {
		assert_true(got < n);
		assert_int_equal(sg_page_iter_dma_address(&diter), want_dma[got]);
		got++;
	}
	assert_int_equal(got, n);
	free(want);
	free(want_dma);
}

/*
 * sg_split() into two and three parts at points around the links and
 * elsewhere, after no skip, a skip of whole entries or one that ends
 * inside an entry, the last part reaching the list's end or ending inside
 * an entry: each part holds the model's bytes of its range and describes
 * no more.
 */
/*
 * The parts of split @k, from @skip on: each holds the model's bytes of
 * its range, has the entries sg_split() said, and describes no more than
 * its size. Frees them.
 */
static void assert_parts_are_model(unsigned int k, struct scatterlist **out,
				   const int *out_nents, int parts, const size_t *sizes,
				   size_t skip, unsigned char *buf)
{
	size_t at = skip;
	int p;

	for (p = 0; p < parts; p++) {
		size_t got = sg_copy_to_buffer(out[p], sg_nents(out[p]), buf, sizes[p]);

		assert_int_equal(got, sizes[p]);
		assert_int_equal(sg_nents(out[p]), out_nents[p]);
		if (memcmp(buf, fx.model + at, sizes[p]))
			fail_msg("split %u: part %d (%zu bytes at %zu) differs", k, p, sizes[p], at);
		if (sg_chain_list_bytes(out[p], out_nents[p]) != sizes[p])
			fail_msg("split %u: part %d describes %zu bytes, not %zu", k, p,
				 sg_chain_list_bytes(out[p], out_nents[p]), sizes[p]);
		at += sizes[p];
		kfree(out[p]);
	}
}

static void test_split_every_kind_of_point(void **state)
{
	unsigned char *buf = malloc(fx.total);
	unsigned int k, done[2] = { 0, 0 };	/* splits without, with a skip */
	unsigned int page_end_skips = 0, short_tails = 0, inside_skips = 0;

	(void)state;
	assert_non_null(buf);
	for (k = 0; k < 120; k++) {
		size_t skip = sg_chain_split_skip(k, fx.start, NENTS), sizes[3];
		int parts = sg_chain_split_sizes(k, skip, skip_at(k), fx.total, sizes), p;
		struct scatterlist *out[3], *sg;
		int out_nents[3];
		unsigned int i;
		size_t end = skip;

		if (!parts)
			continue;
		assert_int_equal(sg_split(fx.table.sgl, 0, skip, parts, sizes, out, out_nents,
					  GFP_KERNEL), 0);
		done[!!skip]++;
		/* The kinds of point the fixes are about: count that they ran. */
		for (p = 0; p < parts; p++)
			end += sizes[p];
		for_each_sg(fx.table.sgl, sg, NENTS, i) {
			page_end_skips += skip && fx.start[i + 1] == skip &&
					  !offset_in_page(sg->offset + sg->length);
			short_tails += i + 1 < NENTS && end > fx.start[i] && end < fx.start[i + 1];
		}
		assert_parts_are_model(k, out, out_nents, parts, sizes, skip, buf);
	}
	/* And at every link: a table's last byte, the next table's first, one more. */
	for (k = SG_MAX_SINGLE_ALLOC - 1; k < NENTS; k += SG_MAX_SINGLE_ALLOC - 1) {
		size_t a, sizes[2];
		struct scatterlist *out[2];
		int out_nents[2];

		for (a = fx.start[k] - 1; a <= fx.start[k] + 1; a++) {
			sizes[0] = a;
			sizes[1] = fx.total - a;
			assert_int_equal(sg_split(fx.table.sgl, 0, 0, 2, sizes, out, out_nents,
						  GFP_KERNEL), 0);
			assert_parts_are_model(1000 + k, out, out_nents, 2, sizes, 0, buf);
		}
	}
	/*
	 * Skips that end inside an entry, the first part running one byte into
	 * the entry after next: its first entry holds the entry's bytes after
	 * the skip, not the whole entry.
	 */
	for (k = 0; k + 2 < NENTS; k += 5) {
		size_t skip = fx.start[k] + 1 + k % 3, sizes[2];
		struct scatterlist *out[2];
		int out_nents[2];

		if (skip >= fx.start[k + 1])
			continue;
		sizes[0] = fx.start[k + 2] + 1 - skip;
		sizes[1] = fx.total - skip - sizes[0];
		assert_int_equal(sg_split(fx.table.sgl, 0, skip, 2, sizes, out, out_nents,
					  GFP_KERNEL), 0);
		assert_parts_are_model(2000 + k, out, out_nents, 2, sizes, skip, buf);
		inside_skips++;
	}
	free(buf);
	/* Not a loop of skipped cases: both kinds were split many times. */
	assert_true(done[0] >= 30 && done[1] >= 20);
	/* Skips that end at a page end with an entry (patch 2) and last parts
	 * that end inside an entry short of the list's (patch 3). */
	assert_true(page_end_skips >= 3 && short_tails >= 10);
	assert_true(inside_skips >= 20);
}

/*
 * A part of size 0 after parts that reach the list's end has no entry:
 * -EINVAL and nothing left allocated (6.1 wrote below ZERO_SIZE_PTR).
 * One of size 0 between others gets an empty entry.
 */
static void test_split_zero_size_parts(void **state)
{
	size_t past_end[2] = { fx.total, 0 }, between[3] = { 100, 0, 200 };
	struct scatterlist *out[3];
	int out_nents[3], p;
	long held = usim_test_slab_delta();	/* the fixture's list */

	(void)state;
	assert_int_equal(sg_split(fx.table.sgl, 0, 0, 2, past_end, out, out_nents, GFP_KERNEL),
			 -EINVAL);
	assert_int_equal(usim_test_slab_delta(), held);
	assert_int_equal(sg_split(fx.table.sgl, 0, 0, 3, between, out, out_nents, GFP_KERNEL), 0);
	for (p = 0; p < 3; p++) {
		assert_int_equal(sg_chain_list_bytes(out[p], out_nents[p]), between[p]);
		kfree(out[p]);
	}
}

/* sg_split() with each of its allocations failing: -ENOMEM, nothing left. */
static void test_split_fault_every_index(void **state)
{
	size_t sizes[3] = { fx.start[200] + 5, fx.start[450] - fx.start[200], 0 };
	struct scatterlist *out[3];
	int out_nents[3], ret, p;
	long held = usim_test_slab_delta();	/* the fixture's list */
	unsigned long k;

	(void)state;
	if (!CAN_CHAIN)
		sizes[0] = fx.start[40] + 5, sizes[1] = fx.start[90] - fx.start[40];
	sizes[2] = fx.total - sizes[0] - sizes[1];
	for (k = 0;; k++) {
		usim_fault_fail_nth(&usim_slab_fault, k);
		ret = sg_split(fx.table.sgl, 0, 0, 3, sizes, out, out_nents, GFP_KERNEL);
		usim_fault_reset(&usim_slab_fault);
		if (!ret)
			break;
		assert_int_equal(ret, -ENOMEM);
		assert_int_equal(usim_test_slab_delta(), held);
	}
	/* The splitters, then one table per part. */
	assert_int_equal(k, 4);
	for (p = 0; p < 3; p++)
		kfree(out[p]);
}

/*
 * sgl_alloc_order(): ceil(length / block) entries of 1 << order pages,
 * the last shorter, one more entry when chainable; distinct memory (a
 * pattern written through the list reads back); every allocation failing
 * in turn leaves nothing.
 */
static void test_sgl_alloc_orders(void **state)
{
	static const unsigned long long lengths[] = {
		1, PAGE_SIZE, PAGE_SIZE + 1, 129 * PAGE_SIZE - 3,
	};
	unsigned int order, l;
	bool chainable;

	(void)state;
	for (order = 0; order <= 3; order++) {
		for (l = 0; l < ARRAY_SIZE(lengths); l++) {
			for (chainable = false; ; chainable = true) {
				unsigned long long len = lengths[l];
				unsigned long block = PAGE_SIZE << order;
				unsigned int nents, want = DIV_ROUND_UP(len, block), i;
				struct scatterlist *sgl, *sg;
				unsigned char *buf = malloc(len), *back = malloc(len);
				unsigned long k;

				assert_non_null(buf);
				assert_non_null(back);
				sgl = sgl_alloc_order(len, order, chainable, GFP_KERNEL, &nents);
				assert_non_null(sgl);
				assert_int_equal(nents, want);
				for_each_sg(sgl, sg, nents, i)
					assert_int_equal(sg->length, i + 1 < want ? block :
							 len - (unsigned long long)(want - 1) * block);
				/* The spare entry for a link ends the list, without a page. */
				assert_int_equal(sg_nents(sgl), want + chainable);
				if (chainable)
					assert_null(sg_page(sg_last(sgl, want + 1)));
				for (i = 0; i < len; i++)
					buf[i] = (unsigned char)(i * 13 + order);
				assert_int_equal(sg_copy_from_buffer(sgl, nents, buf, len), len);
				assert_int_equal(sg_copy_to_buffer(sgl, nents, back, len), len);
				assert_memory_equal(buf, back, len);
				sgl_free_order(sgl, order);
				free(buf);
				free(back);

				/* Every index up to 130 blocks, then a spread. */
				for (k = 0; k <= want; k += want <= 130 ? 1 : want / 7) {
					usim_fault_fail_nth(&usim_slab_fault, k);
					sgl = sgl_alloc_order(len, order, chainable, GFP_KERNEL, &nents);
					usim_fault_reset(&usim_slab_fault);
					assert_null(sgl);
					assert_int_equal(usim_test_slab_delta(), 0);
				}
				/* The table, then each block: want + 1 allocations. */
				usim_fault_fail_nth(&usim_slab_fault, want + 1);
				sgl = sgl_alloc_order(len, order, chainable, GFP_KERNEL, &nents);
				usim_fault_reset(&usim_slab_fault);
				assert_non_null(sgl);
				sgl_free_order(sgl, order);
				if (chainable)
					break;
			}
		}
	}
}

#define COPY_TEST(fn)	cmocka_unit_test_setup_teardown(fn, copy_setup, copy_teardown)
#define HIGHMEM_TEST(fn) \
	{ "highmem: " #fn, fn, copy_setup_highmem, copy_teardown, NULL }

int main(void)
{
	const struct CMUnitTest tests[] = {
		COPY_TEST(test_copy_to_and_from_buffer),
		COPY_TEST(test_miter_modes_skip_and_stop),
		COPY_TEST(test_page_iterators_visit_every_page),
		COPY_TEST(test_split_every_kind_of_point),
		COPY_TEST(test_split_fault_every_index),
		COPY_TEST(test_split_zero_size_parts),
		USIM_TEST(test_sgl_alloc_orders),
		HIGHMEM_TEST(test_copy_to_and_from_buffer),
		HIGHMEM_TEST(test_miter_modes_skip_and_stop),
	};

	return cmocka_run_group_tests_name("sg_copy", tests, NULL, NULL);
}
