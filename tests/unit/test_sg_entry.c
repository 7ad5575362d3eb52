/*
 * Entries and hand-built chains: the page_link encoding, the page
 * accessors, sg_chain/sg_mark_end/sg_unmark_end, and walking chains of
 * tables of different sizes with for_each_sg, sg_next, sg_nents, sg_last
 * and sg_nents_for_len, against a flat model of the same entries.
 */
#include <stdlib.h>

#include "mock_page.h"
#include "usim_test.h"

#define ARENA_PAGES	8

static struct mock_page_arena *arena;

static int arena_setup(void **state)
{
	unsigned long pfns[ARENA_PAGES];

	mock_pfns_strided(pfns, ARENA_PAGES, 0x100, 3);
	arena = mock_page_arena_create(ARENA_PAGES, pfns);
	assert_non_null(arena);
	return usim_test_setup(state);
}

static int arena_teardown(void **state)
{
	mock_page_arena_destroy(arena);
	return usim_test_teardown(state);
}

/*
 * A hand-built chain: tables from the host allocator (aligned like any
 * kernel table), each entry given a page and a length from the flat model.
 */
struct hand_chain {
	struct scatterlist *tables[SG_CHAIN_HAND_MAX_TABLES];
	struct scatterlist **flat;	/* data entries in walk order */
	unsigned int nents;
};

static void hand_chain_build(struct hand_chain *hc,
			     const struct sg_chain_hand_case *c)
{
	unsigned int t, i;

	hc->nents = sg_chain_hand_nents(c);
	hc->flat = calloc(hc->nents, sizeof(*hc->flat));
	assert_non_null(hc->flat);
	for (t = 0; t < c->ntables; t++) {
		hc->tables[t] = calloc(c->sizes[t], sizeof(struct scatterlist));
		assert_non_null(hc->tables[t]);
	}
	sg_chain_hand_link(c, hc->tables, hc->flat);
	for (i = 0; i < hc->nents; i++) {
		sg_assign_page(hc->flat[i], mock_page_arena_page(arena, i % ARENA_PAGES));
		hc->flat[i]->offset = i % 512;
	}
}

static void hand_chain_free(struct hand_chain *hc, unsigned int ntables)
{
	unsigned int t;

	for (t = 0; t < ntables; t++)
		free(hc->tables[t]);
	free(hc->flat);
}

static void assert_walk_matches(struct hand_chain *hc, unsigned int nents)
{
	struct scatterlist *sg;
	unsigned int i;

	for_each_sg(hc->flat[0], sg, nents, i) {
		assert_ptr_equal(sg, hc->flat[i]);
		assert_ptr_equal(sg_page(sg),
				 mock_page_arena_page(arena, i % ARENA_PAGES));
		assert_int_equal(sg->length, i + 1);
	}
	for (i = 0, sg = hc->flat[0]; sg; sg = sg_next(sg), i++)
		assert_ptr_equal(sg, hc->flat[i]);
	assert_int_equal(i, nents);
	assert_int_equal(sg_nents(hc->flat[0]), nents);
	assert_ptr_equal(sg_last(hc->flat[0], nents), hc->flat[nents - 1]);
}

static void test_hand_chains_walk(void **state)
{
	unsigned int c;

	(void)state;
	for (c = 0; c < ARRAY_SIZE(sg_chain_hand_cases); c++) {
		const struct sg_chain_hand_case *hcase = &sg_chain_hand_cases[c];
		struct hand_chain hc;

		hand_chain_build(&hc, hcase);
		assert_walk_matches(&hc, hc.nents);
		hand_chain_free(&hc, hcase->ntables);
	}
}

static void test_hand_chains_sg_last_is_not_flat_index(void **state)
{
	const struct sg_chain_hand_case *hcase = &sg_chain_hand_cases[1];
	struct hand_chain hc;

	(void)state;
	/* The 2007 sg_last() returned &sgl[nents - 1] on chaining arches. */
	hand_chain_build(&hc, hcase);
	assert_ptr_not_equal(sg_last(hc.flat[0], hc.nents), &hc.flat[0][hc.nents - 1]);
	assert_ptr_equal(sg_last(hc.flat[0], hc.nents), hc.flat[hc.nents - 1]);
	/* Counted from an entry in the middle of a table, too. */
	assert_ptr_equal(sg_last(hc.flat[2], hc.nents - 2), hc.flat[hc.nents - 1]);
	hand_chain_free(&hc, hcase->ntables);
}

static void test_mark_end_in_the_middle(void **state)
{
	unsigned int c, k;

	(void)state;
	for (c = 0; c < ARRAY_SIZE(sg_chain_hand_cases); c++) {
		const struct sg_chain_hand_case *hcase = &sg_chain_hand_cases[c];
		struct hand_chain hc;

		hand_chain_build(&hc, hcase);
		for (k = 0; k < hc.nents; k++) {
			bool was_last = k == hc.nents - 1;

			sg_mark_end(hc.flat[k]);
			assert_int_equal(sg_nents(hc.flat[0]), k + 1);
			assert_null(sg_next(hc.flat[k]));
			assert_ptr_equal(sg_last(hc.flat[0], k + 1), hc.flat[k]);
			/* Asking past the new end finds nothing. */
			assert_null(sg_last(hc.flat[0], k + 2));
			if (!was_last) {
				sg_unmark_end(hc.flat[k]);
				assert_false(sg_is_last(hc.flat[k]));
			}
			assert_walk_matches(&hc, hc.nents);
		}
		hand_chain_free(&hc, hcase->ntables);
	}
}

static void test_nents_for_len(void **state)
{
	unsigned int c, k;

	(void)state;
	for (c = 0; c < ARRAY_SIZE(sg_chain_hand_cases); c++) {
		const struct sg_chain_hand_case *hcase = &sg_chain_hand_cases[c];
		struct hand_chain hc;
		u64 before = 0, total;

		hand_chain_build(&hc, hcase);
		/* Entry i is i + 1 bytes: the first k entries hold k(k+1)/2. */
		total = (u64)hc.nents * (hc.nents + 1) / 2;
		for (k = 1; k <= hc.nents; k++) {
			u64 upto = (u64)k * (k + 1) / 2;

			assert_int_equal(sg_nents_for_len(hc.flat[0], upto), k);
			assert_int_equal(sg_nents_for_len(hc.flat[0], before + 1), k);
			before = upto;
		}
		assert_int_equal(sg_nents_for_len(hc.flat[0], 0), 0);
		assert_int_equal(sg_nents_for_len(hc.flat[0], total + 1), -EINVAL);
		assert_int_equal(sg_nents_for_len(hc.flat[0], ~0ULL), -EINVAL);
		hand_chain_free(&hc, hcase->ntables);
	}
}

static void test_page_link_encoding(void **state)
{
	struct page *page = mock_page_arena_page(arena, 3);
	struct scatterlist sg[2], next[1];

	(void)state;
	sg_init_table(sg, 2);
	assert_false(sg_is_last(&sg[0]));
	assert_true(sg_is_last(&sg[1]));
	assert_false(sg_is_chain(&sg[1]));

	/* Setting a page keeps the end bit and reads back without it. */
	sg_set_page(&sg[1], page, 100, 28);
	assert_true(sg_is_last(&sg[1]));
	assert_ptr_equal(sg_page(&sg[1]), page);
	assert_int_equal(sg[1].length, 100);
	assert_int_equal(sg[1].offset, 28);
	assert_int_equal(sg_phys(&sg[1]), (0x100 + 3 * 3) * PAGE_SIZE + 28);

	/* A link: chain bit, no end bit, no data, the table's address. */
	sg_chain(sg, 2, next);
	assert_true(sg_is_chain(&sg[1]));
	assert_false(sg_is_last(&sg[1]));
	assert_int_equal(sg[1].length, 0);
	assert_int_equal(sg[1].offset, 0);
	assert_ptr_equal(sg_chain_ptr(&sg[1]), next);
	assert_int_equal(sg[1].page_link, (unsigned long)next | SG_CHAIN);

	/* Marking the end drops the link. */
	sg_mark_end(&sg[1]);
	assert_int_equal(sg[1].page_link & SG_PAGE_LINK_MASK, SG_END);
	sg_unmark_end(&sg[1]);
	assert_int_equal(sg[1].page_link & SG_PAGE_LINK_MASK, 0);
	assert_ptr_equal(sg_page(&sg[1]), (struct page *)next);
}

static void test_sg_next_follows_link_to_next_table(void **state)
{
	struct scatterlist a[3], b[2];

	(void)state;
	sg_init_table(a, 3);
	sg_init_table(b, 2);
	sg_chain(a, 3, b);
	assert_ptr_equal(sg_next(&a[0]), &a[1]);
	assert_ptr_equal(sg_next(&a[1]), &b[0]);
	assert_ptr_equal(sg_next(&b[0]), &b[1]);
	assert_null(sg_next(&b[1]));
}

static void test_init_one(void **state)
{
	char *buf = (char *)mock_page_arena_memory(arena) + 2 * PAGE_SIZE + 100;
	char kbuf[64];
	struct scatterlist sg;

	(void)state;
	sg_init_one(&sg, buf, 200);
	assert_ptr_equal(sg_page(&sg), mock_page_arena_page(arena, 2));
	assert_int_equal(sg.offset, 100);
	assert_int_equal(sg.length, 200);
	assert_true(sg_is_last(&sg));
	assert_ptr_equal(sg_virt(&sg), buf);
	assert_null(sg_next(&sg));

	/* Any other buffer stands in the linear map, as kmalloc memory does. */
	sg_init_one(&sg, kbuf, sizeof(kbuf));
	assert_ptr_equal(sg_virt(&sg), kbuf);
	assert_int_equal(sg.offset, (unsigned long)kbuf % PAGE_SIZE);
}

static void test_init_table_clears_and_marks_only_the_last(void **state)
{
	struct scatterlist sg[5];
	unsigned int i;

	(void)state;
	memset(sg, 0xff, sizeof(sg));
	sg_init_table(sg, 5);
	for (i = 0; i < 5; i++) {
		assert_int_equal(sg[i].page_link, i == 4 ? SG_END : 0);
		assert_int_equal(sg[i].length, 0);
		assert_int_equal(sg[i].dma_address, 0);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_hand_chains_walk, arena_setup, arena_teardown),
		cmocka_unit_test_setup_teardown(test_hand_chains_sg_last_is_not_flat_index, arena_setup, arena_teardown),
		cmocka_unit_test_setup_teardown(test_mark_end_in_the_middle, arena_setup, arena_teardown),
		cmocka_unit_test_setup_teardown(test_nents_for_len, arena_setup, arena_teardown),
		cmocka_unit_test_setup_teardown(test_page_link_encoding, arena_setup, arena_teardown),
		cmocka_unit_test_setup_teardown(test_sg_next_follows_link_to_next_table, arena_setup, arena_teardown),
		cmocka_unit_test_setup_teardown(test_init_one, arena_setup, arena_teardown),
		cmocka_unit_test_setup_teardown(test_init_table_clears_and_marks_only_the_last, arena_setup, arena_teardown),
	};

	return cmocka_run_group_tests_name("sg_entry", tests, NULL, NULL);
}
