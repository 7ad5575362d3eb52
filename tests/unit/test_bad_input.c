/*
 * Bad input is never undefined behaviour: every refused call returns
 * -EINVAL (or NULL where the kernel API returns a pointer), allocates
 * nothing and leaves the table header empty.
 */
#include <limits.h>

#include "usim_test.h"

static struct scatterlist *never_alloc(unsigned int nents, gfp_t gfp)
{
	(void)nents, (void)gfp;
	fail_msg("a refused call allocated");
	return NULL;
}

static void never_free(struct scatterlist *sgl, unsigned int nents)
{
	(void)sgl, (void)nents;
	fail_msg("a table was freed");
}

static void assert_refused(int ret, const struct sg_table *table)
{
	assert_int_equal(ret, -EINVAL);
	assert_null(table->sgl);
	assert_int_equal(table->nents, 0);
	assert_int_equal(table->orig_nents, 0);
	assert_int_equal(usim_alloc_log_count(), 0);
}

static void test_zero_entries(void **state)
{
	struct sg_table table;

	(void)state;
	assert_refused(__sg_alloc_table(&table, 0, 128, NULL, 0, GFP_KERNEL, never_alloc), &table);
	assert_refused(sg_alloc_table(&table, 0, GFP_KERNEL), &table);
	assert_refused(sg_alloc_table_chained(&table, 0, NULL, 0), &table);
	assert_refused(sg_alloc_table_chained_gfp(&table, 0, NULL, 0, GFP_NOIO), &table);
}

static void test_negative_entries(void **state)
{
	struct scatterlist chunk[2];
	struct sg_table table = { .sgl = chunk };

	(void)state;
	assert_refused(sg_alloc_table_chained(&table, -1, NULL, 0), &table);
	table.sgl = chunk;
	assert_refused(sg_alloc_table_chained(&table, INT_MIN, chunk, 2), &table);
}

static void test_first_chunk_and_its_size_disagree(void **state)
{
	struct scatterlist chunk[4];
	struct sg_table table;

	(void)state;
	/* The free could not tell the caller's table from a pool table. */
	assert_refused(__sg_alloc_table(&table, 10, 8, NULL, 4, GFP_KERNEL, never_alloc), &table);
	assert_refused(__sg_alloc_table(&table, 10, 8, chunk, 0, GFP_KERNEL, never_alloc), &table);
	assert_refused(sg_alloc_table_chained(&table, 10, NULL, 4), &table);
	/* Without chaining 10 entries exceed tables of 8 first: 6.1 warns there. */
	if (!CAN_CHAIN)
		usim_test_expect_warnings(2);
}

static void test_tables_too_small_to_chain(void **state)
{
	struct scatterlist chunk[4];
	struct sg_table table;

	(void)state;
	/* One entry cannot hold data and a link: the 2007 code looped forever. */
	assert_refused(__sg_alloc_table(&table, 2, 1, NULL, 0, GFP_KERNEL, never_alloc), &table);
	assert_refused(__sg_alloc_table(&table, 2, 0, NULL, 0, GFP_KERNEL, never_alloc), &table);
	assert_refused(__sg_alloc_table(&table, 5, 8, chunk, 1, GFP_KERNEL, never_alloc), &table);
	/* A first chunk that can chain does not make later tables of one entry able to. */
	assert_refused(__sg_alloc_table(&table, 5, 1, chunk, 4, GFP_KERNEL, never_alloc), &table);
	assert_refused(__sg_alloc_table(&table, 5, 0, chunk, 4, GFP_KERNEL, never_alloc), &table);
	/* Without chaining each is refused, with a warning, as too long. */
	if (!CAN_CHAIN)
		usim_test_expect_warnings(5);

	/* Told to free more than a table of one entry holds: a warning, nothing freed. */
	table.sgl = chunk;
	__sg_free_table(&table, 1, 0, never_free, 3);
	assert_null(table.sgl);
	usim_test_expect_warnings(1);
}

static void test_more_than_one_table_without_chaining(void **state)
{
	struct scatterlist chunk[2];
	struct sg_table table;
	int ret;

	(void)state;
	ret = sg_alloc_table_chained(&table, SG_CHUNK_SIZE + 1, NULL, 0);
	if (CAN_CHAIN) {
		/* Chaining architectures have no limit but memory. */
		assert_int_equal(ret, 0);
		sg_free_table_chained(&table, 0);
		return;
	}
	assert_refused(ret, &table);
	assert_refused(sg_alloc_table(&table, SG_MAX_SINGLE_ALLOC + 1, GFP_KERNEL), &table);
	/* The caller's first chunk cannot be chained either. */
	table.sgl = chunk;
	assert_refused(sg_alloc_table_chained(&table, 3, chunk, 2), &table);
	usim_test_expect_warnings(3);
}

static void test_length_beyond_the_list(void **state)
{
	struct scatterlist sg[3];

	(void)state;
	sg_init_table(sg, 3);
	sg[0].length = sg[1].length = sg[2].length = 512;
	assert_int_equal(sg_nents_for_len(sg, 3 * 512), 3);
	assert_int_equal(sg_nents_for_len(sg, 3 * 512 + 1), -EINVAL);
	assert_null(sg_last(sg, 0));
	/* With nents 0 the list is not even read. */
	assert_null(sg_last((struct scatterlist *)16, 0));
	assert_null(sg_last(sg, 4));
	assert_int_equal(sg_nents(NULL), 0);
}

static void test_empty_table_operations(void **state)
{
	struct scatterlist sg[1] = { { .page_link = 0x1230, .length = 7 } };
	struct sg_table table = { 0 };

	(void)state;
	sg_init_table(sg, 0);
	assert_int_equal(sg[0].page_link, 0x1230);
	assert_int_equal(sg[0].length, 7);
	sg_free_table(&table);
	sg_free_table_chained(&table, 0);
	sg_free_table_chained(&table, 2);
}

/* As in 6.1: the caller cannot be told, and going on would misdirect data. */
static void test_entry_misuse_is_a_bug(void **state)
{
	struct scatterlist sg[3], next[1], one;
	struct page *page = (struct page *)0x2000;

	(void)state;
	sg_init_table(sg, 3);
	sg_chain(sg, 3, next);
	sg_init_table(next, 1);

	/* A page pointer with a low bit set would read back as a link. */
	assert_true(USIM_CATCH_BUG(sg_assign_page(&sg[0], (struct page *)0x1001)));
	assert_true(USIM_CATCH_BUG(sg_set_page(&sg[0], (struct page *)0x1002, 10, 0)));
	assert_int_equal(sg[0].page_link, 0);
	assert_int_equal(sg[0].length, 0);
	/* A page over a link would cut the list (CONFIG_DEBUG_SG). */
	assert_true(USIM_CATCH_BUG(sg_set_page(&sg[2], page, 10, 0)));
	assert_true(USIM_CATCH_BUG(sg_page(&sg[2])));
	assert_ptr_equal(sg_next(&sg[1]), next);
	/* A count that stops short of the end marker. */
	assert_true(USIM_CATCH_BUG(sg_last(sg, 2)));
	assert_ptr_equal(sg_last(sg, 3), &next[0]);
	/* Outside the linear map: virt_to_page() would invent a page. */
	assert_true(USIM_CATCH_BUG(sg_set_buf(&sg[0], (void *)16, 8)));
	assert_true(USIM_CATCH_BUG(sg_init_one(&one, (void *)16, 8)));
	/* And nothing here is a BUG. */
	assert_false(USIM_CATCH_BUG(sg_set_page(&sg[0], page, 10, 0)));
	assert_ptr_equal(sg_page(&sg[0]), page);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		USIM_TEST(test_zero_entries),
		USIM_TEST(test_negative_entries),
		USIM_TEST(test_first_chunk_and_its_size_disagree),
		USIM_TEST(test_tables_too_small_to_chain),
		USIM_TEST(test_more_than_one_table_without_chaining),
		USIM_TEST(test_length_beyond_the_list),
		USIM_TEST(test_empty_table_operations),
		USIM_TEST(test_entry_misuse_is_a_bug),
	};

	return cmocka_run_group_tests_name("bad_input", tests, NULL, NULL);
}
