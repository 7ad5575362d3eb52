/*
 * Lists built from arrays of pages by the kernel's own lib/scatterlist.c
 * (sg_alloc_table_from_pages_segment(), sg_alloc_append_table_from_pages()),
 * long enough to chain, against the model of sg_chain_pages_cases.h
 * (written from the documentation), with its layouts and case tables,
 * which the sg_chain_pages KUnit suite runs in the kernel too.
 */
#include "mock_page.h"
#include "usim_test.h"
#include "sg_chain_pages_cases.h"

#define NPAGES		600	/* strided: 600 entries, five tables */
#define MAX_SEGS	NPAGES

static void assert_matches_model(struct scatterlist *sgl, unsigned int nents,
				 struct page *const *pages,
				 const struct sg_chain_page_seg *segs,
				 unsigned int nsegs, const char *what)
{
	char why[160];

	if (sg_chain_pages_check(sgl, nents, pages, segs, nsegs, why, sizeof(why)))
		fail_msg("%s: %s", what, why);
}

struct pages_fixture {
	struct mock_page_arena *arena;
	struct page *pages[NPAGES];
	unsigned long pfns[NPAGES];
};

/* The pages of @layout over pfns of their own (a failed test leaves its arena). */
static void pages_make(struct pages_fixture *f, enum sg_chain_layout layout, uint64_t seed)
{
	unsigned int at[NPAGES], i;

	sg_chain_layout_pages(layout, at, NPAGES, seed);
	for (i = 0; i < NPAGES; i++)
		f->pfns[i] = 0x10000 * (1 + seed) + at[i];
	f->arena = mock_page_arena_create(NPAGES, f->pfns);
	assert_non_null(f->arena);
	for (i = 0; i < NPAGES; i++)
		f->pages[i] = mock_page_arena_page(f->arena, i);
}

static void test_from_pages_every_layout_and_max_segment(void **state)
{
	static struct pages_fixture f;
	static struct sg_chain_page_seg segs[MAX_SEGS];
	/* Without chaining only one table's worth. */
	unsigned int npages = CAN_CHAIN ? NPAGES : 100;
	unsigned int l, m, e;
	char what[128];

	(void)state;
	for (l = 0; l < SG_CHAIN_LAYOUTS; l++) {
		pages_make(&f, l, 7 + l);
		for (m = 0; m < ARRAY_SIZE(sg_chain_max_segments); m++) {
			for (e = 0; e < ARRAY_SIZE(sg_chain_page_ends); e++) {
				unsigned int max_segment = sg_chain_max_segments[m];
				unsigned int offset = sg_chain_page_ends[e][0];
				unsigned long size = (unsigned long)npages * PAGE_SIZE - offset -
						     sg_chain_page_ends[e][1];
				unsigned int nsegs = sg_chain_pages_model(f.pfns, npages, offset, size,
									  max_segment, segs);
				struct sg_table table;

				snprintf(what, sizeof(what), "%s, max_segment %u, offset %u, size %lu",
					 sg_chain_layout_names[l], max_segment, offset, size);
				assert_int_equal(sg_alloc_table_from_pages_segment(&table, f.pages,
										   npages, offset,
										   size, max_segment,
										   GFP_KERNEL), 0);
				assert_int_equal(table.orig_nents, table.nents);
				assert_matches_model(table.sgl, table.nents, f.pages, segs, nsegs, what);
				sg_free_table(&table);
			}
		}
		mock_page_arena_destroy(f.arena);
	}
}

/* Where lists cannot chain, a table cannot grow: a second append is refused. */
static void assert_second_append_refused(void)
{
	static struct pages_fixture f;
	struct sg_append_table append = { 0 };

	pages_make(&f, SG_CHAIN_STRIDED, 1);
	assert_int_equal(sg_alloc_append_table_from_pages(&append, f.pages, 10, 0,
							  10 * PAGE_SIZE, UINT_MAX, 10,
							  GFP_KERNEL), 0);
	assert_int_equal(sg_alloc_append_table_from_pages(&append, f.pages + 10, 10, 0,
							  10 * PAGE_SIZE, UINT_MAX, 0,
							  GFP_KERNEL), -EOPNOTSUPP);
	assert_int_equal(append.sgt.nents, 10);
	sg_free_append_table(&append);
	mock_page_arena_destroy(f.arena);
}

/*
 * Appending in steps gives the list a one-shot build gives, also when the
 * buffer ends inside a page that merges into the previous entry (6.1 made
 * that entry longer than @size says; patch 1 of the series fixes it).
 */
static void test_append_in_steps_matches_one_shot(void **state)
{
	static struct pages_fixture f;
	static struct sg_chain_page_seg segs[MAX_SEGS];
	unsigned int l, m, s, e;
	char what[160];

	(void)state;
	if (!CAN_CHAIN) {
		assert_second_append_refused();
		return;
	}
	for (l = 0; l < SG_CHAIN_LAYOUTS; l++) {
		pages_make(&f, l, 11 + l);
		for (m = 0; m < ARRAY_SIZE(sg_chain_max_segments); m++) {
			for (s = 0; s < ARRAY_SIZE(sg_chain_append_steps); s++) {
				for (e = 0; e < ARRAY_SIZE(sg_chain_page_ends); e++) {
					unsigned int max_segment = sg_chain_max_segments[m];
					unsigned int step = sg_chain_append_steps[s];
					unsigned int offset = sg_chain_page_ends[e][0];
					unsigned long size = (unsigned long)NPAGES * PAGE_SIZE -
							     offset - sg_chain_page_ends[e][1];
					unsigned int nsegs = sg_chain_pages_model(f.pfns, NPAGES, offset,
										  size, max_segment,
										  segs);
					struct sg_append_table append;

					snprintf(what, sizeof(what),
						 "%s, max_segment %u, steps of %u, offset %u, size %lu",
						 sg_chain_layout_names[l], max_segment, step, offset,
						 size);
					assert_int_equal(sg_chain_append_in_steps(&append, f.pages, NPAGES,
										  step, offset, size,
										  max_segment, NPAGES,
										  GFP_KERNEL), 0);
					assert_matches_model(append.sgt.sgl, append.sgt.nents,
							     f.pages, segs, nsegs, what);
					sg_free_append_table(&append);
				}
			}
		}
		mock_page_arena_destroy(f.arena);
	}
}

/*
 * Every allocation of a one-shot build failing in turn: -ENOMEM and
 * nothing left allocated (sg_alloc_table_from_pages_segment() frees).
 */
static void test_from_pages_fault_every_index(void **state)
{
	static struct pages_fixture f;
	unsigned int npages = CAN_CHAIN ? NPAGES : 100;
	struct sg_table table;
	unsigned long k;
	int ret;

	(void)state;
	pages_make(&f, SG_CHAIN_STRIDED, 3);
	for (k = 0;; k++) {
		usim_fault_fail_nth(&usim_slab_fault, k);
		ret = sg_alloc_table_from_pages_segment(&table, f.pages, npages, 0,
							(unsigned long)npages * PAGE_SIZE,
							UINT_MAX, GFP_KERNEL);
		usim_fault_reset(&usim_slab_fault);
		if (!ret)
			break;
		assert_int_equal(ret, -ENOMEM);
		assert_int_equal(usim_test_slab_delta(), 0);
	}
	/* One table per 127 entries but the last. */
	assert_int_equal(k, CAN_CHAIN ? DIV_ROUND_UP(NPAGES - 1, SG_MAX_SINGLE_ALLOC - 1) : 1);
	sg_free_table(&table);
	mock_page_arena_destroy(f.arena);
}

/*
 * An append whose allocation fails leaves the list as it was before the
 * call: the same entries, walkable, freeable by sg_free_append_table().
 */
static void test_append_fault_keeps_the_list(void **state)
{
	static struct pages_fixture f;
	static struct sg_chain_page_seg segs[MAX_SEGS];
	unsigned int step = 50, upto, nsegs;
	struct sg_append_table append;
	char what[96];
	int ret;

	(void)state;
	if (!CAN_CHAIN) {
		assert_second_append_refused();
		return;
	}
	pages_make(&f, SG_CHAIN_STRIDED, 5);
	for (upto = step; upto < NPAGES; upto += step) {
		nsegs = sg_chain_pages_model(f.pfns, upto, 0, (unsigned long)upto * PAGE_SIZE,
					     UINT_MAX, segs);
		assert_int_equal(sg_chain_append_in_steps(&append, f.pages, NPAGES, step, 0,
							  (unsigned long)NPAGES * PAGE_SIZE, UINT_MAX,
							  upto, GFP_KERNEL), 0);
		/* The next step's first allocation fails (if it makes one). */
		usim_fault_fail_from(&usim_slab_fault, 0);
		ret = sg_alloc_append_table_from_pages(&append, f.pages + upto, step, 0,
						       (unsigned long)step * PAGE_SIZE, UINT_MAX,
						       NPAGES - upto - step, GFP_KERNEL);
		usim_fault_reset(&usim_slab_fault);
		snprintf(what, sizeof(what), "after a failed append at page %u", upto);
		if (ret == 0) {
			/* It fitted in the table it had: no allocation made. */
			sg_free_append_table(&append);
			continue;
		}
		assert_int_equal(ret, -ENOMEM);
		assert_int_equal(append.sgt.nents, nsegs);
		{
			struct scatterlist *sg;
			unsigned int i;

			for_each_sg(append.sgt.sgl, sg, append.sgt.nents, i)
				if (sg_page(sg) != f.pages[segs[i].first] ||
				    sg->length != segs[i].length)
					fail_msg("%s: entry %u changed", what, i);
		}
		sg_free_append_table(&append);
	}
	mock_page_arena_destroy(f.arena);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		USIM_TEST(test_from_pages_every_layout_and_max_segment),
		USIM_TEST(test_append_in_steps_matches_one_shot),
		USIM_TEST(test_from_pages_fault_every_index),
		USIM_TEST(test_append_fault_keeps_the_list),
	};

	return cmocka_run_group_tests_name("sg_pages", tests, NULL, NULL);
}
