/*
 * Lists built from arrays of pages by the kernel's own lib/scatterlist.c
 * (sg_alloc_table_from_pages_segment(), sg_alloc_append_table_from_pages()),
 * long enough to chain, against a model written here from the
 * documentation: runs of consecutive pfns merge into one entry of at most
 * max_segment (rounded down to pages) bytes, the first entry starts at
 * @offset, the last ends where @size does.
 */
#include "mock_page.h"
#include "usim_test.h"

#define NPAGES		600	/* strided: 600 entries, five tables */
#define MAX_SEGS	NPAGES

struct seg {
	unsigned int first;	/* index of its first page */
	unsigned int offset, length;
};

/* The model: the entries a list of these pages must have. */
static unsigned int model(const unsigned long *pfns, unsigned int n,
			  unsigned int offset, unsigned long size,
			  unsigned int max_segment, struct seg *segs)
{
	unsigned long max_pages = (max_segment / PAGE_SIZE), left = size;
	unsigned int nsegs = 0, i, pages = 0;

	for (i = 0; i < n; i++) {
		if (i && pfns[i] == pfns[i - 1] + 1 && pages < max_pages) {
			pages++;
		} else {
			nsegs++;
			segs[nsegs - 1].first = i;
			pages = 1;
		}
		segs[nsegs - 1].length = pages * PAGE_SIZE;
	}
	segs[0].offset = offset;
	segs[0].length -= offset;
	for (i = 0; i < nsegs; i++) {
		if (i)
			segs[i].offset = 0;
		if (segs[i].length > left)
			segs[i].length = left;
		left -= segs[i].length;
	}
	return nsegs;
}

static void assert_matches_model(struct scatterlist *sgl, unsigned int nents,
				 struct page *const *pages, const struct seg *segs,
				 unsigned int nsegs, const char *what)
{
	struct scatterlist *sg, *last = NULL;
	unsigned int i;

	if (nents != nsegs)
		fail_msg("%s: %u entries, model %u", what, nents, nsegs);
	for_each_sg(sgl, sg, nents, i) {
		if (sg_page(sg) != pages[segs[i].first] || sg->offset != segs[i].offset ||
		    sg->length != segs[i].length)
			fail_msg("%s: entry %u is page %lu +%u len %u, model page %lu +%u len %u",
				 what, i, page_to_pfn(sg_page(sg)), sg->offset, sg->length,
				 page_to_pfn(pages[segs[i].first]), segs[i].offset,
				 segs[i].length);
		last = sg;
	}
	assert_true(sg_is_last(last));
	assert_int_equal(sg_nents(sgl), nents);
}

enum layout { CONTIGUOUS, STRIDED, RUNS, LAYOUTS };
static const char *const layout_names[] = { "contiguous", "strided", "random runs" };

/* pfns of @layout: for RUNS, runs of 1 to 40 consecutive pfns with gaps. */
static void make_pfns(enum layout layout, unsigned long *pfns, unsigned int n,
		      uint64_t seed)
{
	uint64_t x = seed | 1;
	/* Each seed its own pfns: a test that failed midway leaves its arena. */
	unsigned long pfn = 0x10000 * (1 + seed);
	unsigned int i = 0, run;

	if (layout == CONTIGUOUS) {
		mock_pfns_contiguous(pfns, n, pfn);
		return;
	}
	if (layout == STRIDED) {
		mock_pfns_strided(pfns, n, pfn, 2);
		return;
	}
	while (i < n) {
		x ^= x << 13, x ^= x >> 7, x ^= x << 17;
		run = 1 + x % 40;
		pfn += 1 + (x >> 8) % 5;	/* a gap of 1 to 5 */
		while (run-- && i < n)
			pfns[i++] = pfn++;
	}
}

struct pages_fixture {
	struct mock_page_arena *arena;
	struct page *pages[NPAGES];
	unsigned long pfns[NPAGES];
};

static void pages_make(struct pages_fixture *f, enum layout layout, uint64_t seed)
{
	unsigned int i;

	make_pfns(layout, f->pfns, NPAGES, seed);
	f->arena = mock_page_arena_create(NPAGES, f->pfns);
	assert_non_null(f->arena);
	for (i = 0; i < NPAGES; i++)
		f->pages[i] = mock_page_arena_page(f->arena, i);
}

static const unsigned int max_segments[] = {
	PAGE_SIZE, PAGE_SIZE + 1, 2 * PAGE_SIZE, 3 * PAGE_SIZE, 64 * 1024,
	1 << 20, UINT_MAX,
};

/* (offset, bytes short of the last page's end) */
static const unsigned int ends[][2] = { { 0, 0 }, { 100, 0 }, { 0, 1 }, { 4095, 4095 } };

static void test_from_pages_every_layout_and_max_segment(void **state)
{
	static struct pages_fixture f;
	static struct seg segs[MAX_SEGS];
	unsigned int l, m, e, n;
	char what[128];

	(void)state;
	for (l = 0; l < LAYOUTS; l++) {
		pages_make(&f, l, 7 + l);
		for (m = 0; m < ARRAY_SIZE(max_segments); m++) {
			for (e = 0; e < ARRAY_SIZE(ends); e++) {
				/* Without chaining only one table's worth. */
				unsigned int npages = CAN_CHAIN ? NPAGES : 100;
				unsigned long size = (unsigned long)npages * PAGE_SIZE -
						     ends[e][0] - ends[e][1];
				struct sg_table table;
				unsigned int nsegs = model(f.pfns, npages, ends[e][0], size,
							   max_segments[m], segs);
				int ret;

				snprintf(what, sizeof(what), "%s, max_segment %u, offset %u, size %lu",
					 layout_names[l], max_segments[m], ends[e][0], size);
				ret = sg_alloc_table_from_pages_segment(&table, f.pages, npages,
									ends[e][0], size,
									max_segments[m],
									GFP_KERNEL);
				assert_int_equal(ret, 0);
				n = table.nents;
				assert_int_equal(table.orig_nents, n);
				assert_matches_model(table.sgl, n, f.pages, segs, nsegs, what);
				sg_free_table(&table);
			}
		}
		mock_page_arena_destroy(f.arena);
	}
}

/* Append in steps of @step pages, each telling how many pages are left. */
static int append_steps(struct sg_append_table *append, struct pages_fixture *f,
			unsigned int npages, unsigned int step, unsigned int offset,
			unsigned long size, unsigned int max_segment, unsigned int upto)
{
	unsigned int done = 0;
	int ret = 0;

	memset(append, 0, sizeof(*append));
	while (done < npages && done < upto) {
		unsigned int n = npages - done < step ? npages - done : step;
		unsigned long bytes = (unsigned long)n * PAGE_SIZE - (done ? 0 : offset);

		if (done + n == npages)
			bytes = size - ((unsigned long)done * PAGE_SIZE - (done ? offset : 0));
		ret = sg_alloc_append_table_from_pages(append, f->pages + done, n,
						       done ? 0 : offset, bytes,
						       max_segment, npages - done - n,
						       GFP_KERNEL);
		if (ret)
			return ret;
		done += n;
	}
	return ret;
}

static const unsigned int steps[] = { 1, 7, 128, 129, NPAGES };

/* Where lists cannot chain, a table cannot grow: a second append is refused. */
static void assert_second_append_refused(void)
{
	static struct pages_fixture f;
	struct sg_append_table append = { 0 };

	pages_make(&f, STRIDED, 1);
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
	static struct seg segs[MAX_SEGS];
	unsigned int l, m, s, e;
	char what[160];

	(void)state;
	if (!CAN_CHAIN) {
		assert_second_append_refused();
		return;
	}
	for (l = 0; l < LAYOUTS; l++) {
		pages_make(&f, l, 11 + l);
		for (m = 0; m < ARRAY_SIZE(max_segments); m++) {
			for (s = 0; s < ARRAY_SIZE(steps); s++) {
				for (e = 0; e < ARRAY_SIZE(ends); e++) {
					unsigned long size = (unsigned long)NPAGES * PAGE_SIZE -
							     ends[e][0] - ends[e][1];
					struct sg_append_table append;
					unsigned int nsegs = model(f.pfns, NPAGES, ends[e][0], size,
								   max_segments[m], segs);

					snprintf(what, sizeof(what),
						 "%s, max_segment %u, steps of %u, offset %u, size %lu",
						 layout_names[l], max_segments[m], steps[s],
						 ends[e][0], size);
					assert_int_equal(append_steps(&append, &f, NPAGES, steps[s],
								      ends[e][0], size,
								      max_segments[m], NPAGES), 0);
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
	pages_make(&f, STRIDED, 3);
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
	static struct seg segs[MAX_SEGS];
	unsigned int step = 50, upto, nsegs;
	struct sg_append_table append;
	char what[96];
	int ret;

	(void)state;
	if (!CAN_CHAIN) {
		assert_second_append_refused();
		return;
	}
	pages_make(&f, STRIDED, 5);
	for (upto = step; upto < NPAGES; upto += step) {
		nsegs = model(f.pfns, upto, 0, (unsigned long)upto * PAGE_SIZE, UINT_MAX, segs);
		assert_int_equal(append_steps(&append, &f, NPAGES, step, 0,
					      (unsigned long)NPAGES * PAGE_SIZE, UINT_MAX, upto), 0);
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
