/*
 * Allocation sweeps: every size from 1 to SG_MAX_SEGMENTS and the large
 * sizes, through each allocator, checked against the model of
 * sg_chain_cases.h: entries, end marker, tables, links, and which pool or
 * allocator each table came from.
 */
#include "usim_test.h"

/* Tables of the chained pools for a list of @nents, by pool size. */
static void expected_pool_use(unsigned int nents, unsigned int cap1,
			      bool caller_chunk, unsigned long use[129])
{
	struct sg_chain_shape shape = sg_chain_expected_shape(nents, cap1, SG_CHUNK_SIZE);
	unsigned int t;

	memset(use, 0, sizeof(use[0]) * 129);
	for (t = 0; t < shape.tables; t++) {
		unsigned int size;

		if (t == 0 && caller_chunk)
			continue;
		if (t == shape.tables - 1)
			size = shape.last_size;
		else
			size = t == 0 ? cap1 : SG_CHUNK_SIZE;
		use[sg_chain_expected_pool(size)]++;
	}
}

static void assert_pool_use(const unsigned long want[129])
{
	unsigned int size;

	for (size = 8; size <= 128; size *= 2)
		if (sgpool_outstanding(size) != want[size])
			fail_msg("sgpool-%u: %lu tables out, want %lu", size,
				 sgpool_outstanding(size), want[size]);
}

static void chained_one(unsigned int nents, struct scatterlist *inline_sg,
			unsigned int ninline)
{
	unsigned int cap1 = ninline > 1 ? ninline : SG_CHUNK_SIZE;
	struct sg_table table;
	unsigned long want[129];
	int ret;

	table.sgl = inline_sg;
	ret = sg_alloc_table_chained(&table, nents, inline_sg, ninline);
	if (!CAN_CHAIN && nents > cap1) {
		assert_int_equal(ret, -EINVAL);
		assert_int_equal(usim_mempool_outstanding_all(), 0);
		usim_test_expect_warnings(1);
		return;
	}
	assert_int_equal(ret, 0);
	assert_int_equal(table.orig_nents, nents);
	assert_int_equal(table.nents, nents);
	if (ninline > 1 && nents <= ninline)
		assert_ptr_equal(table.sgl, inline_sg);
	assert_list_shape(table.sgl, nents, cap1, SG_CHUNK_SIZE);
	/* A one-entry chunk is used only when the list fits in it. */
	expected_pool_use(nents, cap1, inline_sg && (ninline > 1 || nents <= ninline), want);
	assert_pool_use(want);

	sg_free_table_chained(&table, ninline);
	assert_int_equal(usim_mempool_outstanding_all(), 0);
}

static void test_chained_every_size(void **state)
{
	unsigned int n;

	(void)state;
	for (n = 1; n <= SG_MAX_SEGMENTS; n++)
		chained_one(n, NULL, 0);
}

static void test_chained_inline_first_chunk_every_size(void **state)
{
	struct scatterlist inline_sg[2];
	unsigned int n;

	(void)state;
	for (n = 1; n <= SG_MAX_SEGMENTS; n++)
		chained_one(n, inline_sg, ARRAY_SIZE(inline_sg));
}

static void test_chained_one_entry_chunk_is_ignored(void **state)
{
	struct scatterlist inline_sg[1];
	unsigned int n;

	(void)state;
	/* A one-entry chunk cannot hold data and a link: pools only. */
	for (n = 1; n <= 300; n++)
		chained_one(n, inline_sg, 1);
}

static void test_chained_large_sizes(void **state)
{
	unsigned int i;

	(void)state;
	for (i = 0; i < ARRAY_SIZE(sg_chain_large_sizes); i++)
		chained_one(sg_chain_large_sizes[i], NULL, 0);
}

static void kmalloc_one(unsigned int nents)
{
	struct sg_chain_shape shape =
		sg_chain_expected_shape(nents, SG_MAX_SINGLE_ALLOC, SG_MAX_SINGLE_ALLOC);
	unsigned long pages, kmallocs;
	struct sg_table table;
	int ret;

	usim_alloc_log_reset();
	ret = sg_alloc_table(&table, nents, GFP_KERNEL);
	if (!CAN_CHAIN && nents > SG_MAX_SINGLE_ALLOC) {
		assert_int_equal(ret, -EINVAL);
		assert_int_equal(usim_alloc_log_count(), 0);
		usim_test_expect_warnings(1);
		return;
	}
	assert_int_equal(ret, 0);
	assert_int_equal(table.orig_nents, nents);
	assert_list_shape(table.sgl, nents, SG_MAX_SINGLE_ALLOC, SG_MAX_SINGLE_ALLOC);

	/* Every table but a short last one is exactly one page. */
	pages = shape.tables - 1 + (shape.last_size == SG_MAX_SINGLE_ALLOC);
	kmallocs = shape.last_size != SG_MAX_SINGLE_ALLOC;
	assert_int_equal(alloc_log_count_site(USIM_ALLOC_PAGE), pages);
	assert_int_equal(alloc_log_count_site(USIM_ALLOC_KMALLOC), kmallocs);
	assert_int_equal(usim_test_slab_delta(), pages + kmallocs);

	sg_free_table(&table);
	assert_null(table.sgl);
	assert_int_equal(usim_test_slab_delta(), 0);
}

static void test_kmalloc_every_size(void **state)
{
	unsigned int n;

	(void)state;
	for (n = 1; n <= SG_MAX_SEGMENTS; n++)
		kmalloc_one(n);
}

static void test_kmalloc_large_sizes(void **state)
{
	unsigned int i;

	(void)state;
	for (i = 0; i < ARRAY_SIZE(sg_chain_large_sizes); i++)
		kmalloc_one(sg_chain_large_sizes[i]);
}

/* Tables from kmalloc of exactly the asked size, for custom geometries. */
static struct scatterlist *geometry_alloc(unsigned int nents, gfp_t gfp)
{
	return kmalloc_array(nents, sizeof(struct scatterlist), gfp);
}

static void geometry_free(struct scatterlist *sgl, unsigned int nents)
{
	(void)nents;
	kfree(sgl);
}

static void geometry_one(const struct sg_chain_geometry *g, unsigned int nents)
{
	struct scatterlist chunk[32];
	unsigned int cap1 = g->first_chunk ? g->first_chunk : g->max_ents;
	struct sg_chain_shape shape = sg_chain_expected_shape(nents, cap1, g->max_ents);
	struct sg_table table;
	int ret;

	assert_true(g->first_chunk <= ARRAY_SIZE(chunk));
	ret = __sg_alloc_table(&table, nents, g->max_ents,
			       g->first_chunk ? chunk : NULL, g->first_chunk,
			       GFP_KERNEL, geometry_alloc);
	/* No list longer than a table (6.1), the caller's chunk included. */
	if (!CAN_CHAIN && (nents > cap1 || nents > g->max_ents)) {
		assert_int_equal(ret, -EINVAL);
		usim_test_expect_warnings(1);
		return;
	}
	assert_int_equal(ret, 0);
	assert_list_shape(table.sgl, nents, cap1, g->max_ents);
	assert_int_equal(usim_test_slab_delta(),
			 shape.tables - (g->first_chunk ? 1 : 0));
	__sg_free_table(&table, g->max_ents, g->first_chunk, geometry_free,
			table.orig_nents);
	assert_int_equal(usim_test_slab_delta(), 0);
}

static void test_geometries(void **state)
{
	unsigned int i, n;

	(void)state;
	for (i = 0; i < ARRAY_SIZE(sg_chain_geometries); i++) {
		for (n = 1; n <= 600; n++)
			geometry_one(&sg_chain_geometries[i], n);
		for (n = 0; n < ARRAY_SIZE(sg_chain_boundary_sizes); n++)
			geometry_one(&sg_chain_geometries[i], sg_chain_boundary_sizes[n]);
	}
}

static void test_free_ignores_moved_end_marker(void **state)
{
	unsigned int nents = CAN_CHAIN ? 1000 : 100, end = nents / 3;
	struct sg_table table;
	struct scatterlist *sg;
	unsigned int i;

	(void)state;
	/* A driver that ends the list early after mapping: the free walks by count. */
	assert_int_equal(sg_alloc_table_chained(&table, nents, NULL, 0), 0);
	for_each_sg(table.sgl, sg, end, i)
		;
	sg_mark_end(sg);
	table.nents = end + 1;
	assert_int_equal(sg_nents(table.sgl), end + 1);
	sg_free_table_chained(&table, 0);
	assert_int_equal(usim_mempool_outstanding_all(), 0);

	/* The same through sg_alloc_table(): it frees by orig_nents, not nents. */
	assert_int_equal(sg_alloc_table(&table, nents, GFP_KERNEL), 0);
	for_each_sg(table.sgl, sg, end, i)
		;
	sg_mark_end(sg);
	table.nents = end + 1;
	sg_free_table(&table);
	assert_int_equal(usim_test_slab_delta(), 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		USIM_TEST(test_chained_every_size),
		USIM_TEST(test_chained_inline_first_chunk_every_size),
		USIM_TEST(test_chained_one_entry_chunk_is_ignored),
		USIM_TEST(test_chained_large_sizes),
		USIM_TEST(test_kmalloc_every_size),
		USIM_TEST(test_kmalloc_large_sizes),
		USIM_TEST(test_geometries),
		USIM_TEST(test_free_ignores_moved_end_marker),
	};

	return cmocka_run_group_tests_name("sg_alloc", tests, NULL, NULL);
}
