/*
 * Allocation failure: for the boundary sizes, fail allocation k for
 * k = 0, 1, 2, ... until the call succeeds. Each failing call must return
 * -ENOMEM and leave nothing allocated (after the caller's free, where the
 * API makes the caller free); the succeeding call must have made exactly
 * the allocations the model predicts. Then random faults, exhausted
 * slabs falling back on mempool reserves, and the no-sleep rule.
 */
#include "usim_test.h"

struct alloc_under_test {
	const char *name;
	struct usim_fault *fault;	/* the allocator it draws from */
	unsigned int cap1, max;		/* table geometry */
	unsigned int caller_chunk;	/* entries of a caller's first table */
	unsigned int oom_max;		/* largest size for the k-loop, 0: all */
	int (*alloc)(struct sg_table *table, unsigned int nents);
	void (*free)(struct sg_table *table);	/* after success or -ENOMEM */
};

static struct scatterlist inline_sg[2];

static int chained_alloc(struct sg_table *t, unsigned int nents)
{
	return sg_alloc_table_chained(t, nents, NULL, 0);
}

static void chained_free(struct sg_table *t)
{
	sg_free_table_chained(t, 0);
}

static int chained_inline_alloc(struct sg_table *t, unsigned int nents)
{
	t->sgl = inline_sg;
	return sg_alloc_table_chained(t, nents, inline_sg, ARRAY_SIZE(inline_sg));
}

static void chained_inline_free(struct sg_table *t)
{
	sg_free_table_chained(t, ARRAY_SIZE(inline_sg));
}

static int kmalloc_alloc(struct sg_table *t, unsigned int nents)
{
	return sg_alloc_table(t, nents, GFP_KERNEL);
}

static void kmalloc_free(struct sg_table *t)
{
	sg_free_table(t);
}

static struct scatterlist *kmalloc_table(unsigned int nents, gfp_t gfp)
{
	return kmalloc_array(nents, sizeof(struct scatterlist), gfp);
}

static void kfree_table(struct scatterlist *sgl, unsigned int nents)
{
	(void)nents;
	kfree(sgl);
}

static int raw_alloc(struct sg_table *t, unsigned int nents)
{
	return __sg_alloc_table(t, nents, 3, NULL, 0, GFP_KERNEL, kmalloc_table);
}

/* The same tables, built as from a caller's own pools. */
static int raw_mempool_alloc(struct sg_table *t, unsigned int nents)
{
	return __sg_alloc_table_mempool(t, nents, 3, NULL, 0, GFP_KERNEL,
					kmalloc_table);
}

/* __sg_alloc_table leaves the partial list to the caller: free it all. */
static void raw_free(struct sg_table *t)
{
	__sg_free_table(t, 3, 0, kfree_table, t->orig_nents);
}

static const struct alloc_under_test allocators[] = {
	{ "sg_alloc_table_chained", &usim_mempool_fault, 128, 128, 0, 0,
	  chained_alloc, chained_free },
	{ "sg_alloc_table_chained, inline 2", &usim_mempool_fault, 2, 128, 2, 0,
	  chained_inline_alloc, chained_inline_free },
	{ "sg_alloc_table", &usim_slab_fault, 0, 0, 0, 0,
	  kmalloc_alloc, kmalloc_free },
	/* A table per two entries: the k-loop is quadratic in tables. */
	{ "__sg_alloc_table, tables of 3", &usim_slab_fault, 3, 3, 0, 2049,
	  raw_alloc, raw_free },
	{ "__sg_alloc_table_mempool, tables of 3", &usim_slab_fault, 3, 3, 0,
	  2049, raw_mempool_alloc, raw_free },
};

/*
 * The next allocation to fail: every one for lists up to one past
 * SG_MAX_SEGMENTS (17 tables); for the longest lists, the first and last
 * four and every 16th between, which keeps the sweep quadratic only where
 * the table boundaries are few.
 */
static unsigned long next_fault(unsigned long k, unsigned long allocations,
				unsigned int nents)
{
	if (nents <= SG_MAX_SEGMENTS + 1 || k < 3 || k + 5 >= allocations)
		return k + 1;
	return k + 16 < allocations - 4 ? k + 16 : allocations - 4;
}

static void oom_loop(const struct alloc_under_test *a, unsigned int nents)
{
	unsigned int cap1 = a->cap1 ? a->cap1 : SG_MAX_SINGLE_ALLOC;
	unsigned int max = a->max ? a->max : SG_MAX_SINGLE_ALLOC;
	struct sg_chain_shape shape = sg_chain_expected_shape(nents, cap1, max);
	unsigned long allocations = shape.tables;
	struct sg_table table;
	unsigned long k;
	int ret;

	if (a->caller_chunk && nents <= a->caller_chunk)
		allocations = 0;
	else if (a->caller_chunk)
		allocations--;

	for (k = 0;; k = next_fault(k, allocations, nents)) {
		usim_fault_fail_nth(a->fault, k);
		ret = a->alloc(&table, nents);
		if (!CAN_CHAIN && nents > cap1) {
			assert_int_equal(ret, -EINVAL);
			assert_int_equal(a->fault->calls, 0);
			usim_test_expect_warnings(1);
			return;
		}
		if (!a->fault->failures)
			break;
		if (ret != -ENOMEM)
			fail_msg("%s(%u), allocation %lu failing: returned %d",
				 a->name, nents, k, ret);
		a->free(&table);
		if (usim_mempool_outstanding_all() || usim_test_slab_delta())
			fail_msg("%s(%u), allocation %lu failing: %lu pool tables and %ld objects left",
				 a->name, nents, k, usim_mempool_outstanding_all(),
				 usim_test_slab_delta());
	}
	usim_fault_reset(a->fault);
	assert_int_equal(ret, 0);
	if (k != allocations)
		fail_msg("%s(%u): %lu allocations, want %lu", a->name, nents, k,
			 allocations);
	assert_list_shape(table.sgl, nents, cap1, max);
	a->free(&table);
}

static void test_every_failure_point(void **state)
{
	unsigned int i, s;

	(void)state;
	for (i = 0; i < ARRAY_SIZE(allocators); i++)
		for (s = 0; s < ARRAY_SIZE(sg_chain_boundary_sizes); s++)
			if (!allocators[i].oom_max ||
			    sg_chain_boundary_sizes[s] <= allocators[i].oom_max)
				oom_loop(&allocators[i], sg_chain_boundary_sizes[s]);
}

static void test_random_faults(void **state)
{
	uint64_t x = 42;
	unsigned int round, i, failed = 0;

	(void)state;
	for (round = 0; round < 400; round++) {
		const struct alloc_under_test *a = &allocators[round % ARRAY_SIZE(allocators)];
		unsigned int cap1 = a->cap1 ? a->cap1 : SG_MAX_SINGLE_ALLOC;
		unsigned int max = a->max ? a->max : SG_MAX_SINGLE_ALLOC;
		unsigned int nents;
		struct sg_table table;
		int ret;

		x ^= x << 13, x ^= x >> 7, x ^= x << 17;
		nents = 1 + x % (CAN_CHAIN ? 3000 : cap1);
		usim_fault_fail_random(a->fault, 0.05, x);
		ret = a->alloc(&table, nents);
		i = a->fault->failures;
		usim_fault_reset(a->fault);
		if (ret == 0) {
			assert_int_equal(i, 0);
			assert_list_shape(table.sgl, nents, cap1, max);
		} else {
			assert_int_equal(ret, -ENOMEM);
			assert_int_equal(i, 1);
			failed++;
		}
		a->free(&table);
		assert_int_equal(usim_mempool_outstanding_all(), 0);
		assert_int_equal(usim_test_slab_delta(), 0);
	}
	/* Both outcomes must have been exercised. */
	assert_true(failed > 0 && failed < round);
}

static void test_exhausted_slab_falls_back_on_reserves(void **state)
{
	mempool_t *pool128 = usim_mempool_find("sgpool-128");
	struct sg_table table;

	(void)state;
	assert_int_equal(usim_mempool_reserved(pool128), 2);
	usim_fault_fail_from(&usim_slab_fault, 0);

	/* One table: served from the reserve although the slab is dead. */
	assert_int_equal(sg_alloc_table_chained(&table, 100, NULL, 0), 0);
	assert_int_equal(usim_mempool_reserved(pool128), 1);
	sg_free_table_chained(&table, 0);
	assert_int_equal(usim_mempool_reserved(pool128), 2);

	if (CAN_CHAIN) {
		/* 2048 entries need 16 tables of 128: two reserves are not enough. */
		assert_int_equal(sg_alloc_table_chained(&table, 2048, NULL, 0), -ENOMEM);
		assert_int_equal(usim_mempool_reserved(pool128), 2);
		/* Three tables: both reserves, then the third fails. */
		assert_int_equal(sg_alloc_table_chained(&table, 3 * 127, NULL, 0), -ENOMEM);
		assert_int_equal(sg_alloc_table_chained(&table, 2 * 127 + 1, NULL, 0), 0);
		assert_int_equal(usim_mempool_reserved(pool128), 0);
		sg_free_table_chained(&table, 0);
		assert_int_equal(usim_mempool_reserved(pool128), 2);
	}
	assert_int_equal(usim_mempool_waits_all(), 0);
}

/* The calls to @site's allocator in the log: their gfp flags in order. */
static unsigned int logged_gfps(enum usim_alloc_site site, gfp_t *gfps,
				unsigned int max)
{
	unsigned long i;
	unsigned int n = 0;

	for (i = 0; i < usim_alloc_log_count(); i++) {
		const struct usim_alloc_record *r = usim_alloc_log_get(i);

		if (r->site == site && n < max)
			gfps[n++] = r->gfp;
	}
	return n;
}

static void test_only_first_table_may_sleep(void **state)
{
	struct sg_table table;
	gfp_t gfps[64];
	unsigned int n, i, nents = CAN_CHAIN ? 2048 : 100;
	unsigned int want = CAN_CHAIN ? 17 : 1;

	(void)state;
	assert_int_equal(sg_alloc_table_chained_gfp(&table, nents, NULL, 0, GFP_NOIO), 0);
	n = logged_gfps(USIM_ALLOC_MEMPOOL, gfps, ARRAY_SIZE(gfps));
	assert_int_equal(n, want);
	assert_true(gfps[0] & __GFP_DIRECT_RECLAIM);
	for (i = 1; i < n; i++) {
		assert_false(gfps[i] & __GFP_DIRECT_RECLAIM);
		assert_true(gfps[i] & __GFP_HIGH);
	}
	sg_free_table_chained(&table, 0);

	/* The atomic API never asks to sleep. */
	usim_alloc_log_reset();
	assert_int_equal(sg_alloc_table_chained(&table, nents, NULL, 0), 0);
	n = logged_gfps(USIM_ALLOC_MEMPOOL, gfps, ARRAY_SIZE(gfps));
	assert_int_equal(n, want);
	for (i = 0; i < n; i++)
		assert_false(gfps[i] & __GFP_DIRECT_RECLAIM);
	sg_free_table_chained(&table, 0);
}

/*
 * The rule on __sg_alloc_table_mempool() itself, with pools that are not
 * the sg pools (the KUnit suites call it so): here kmalloc, whose calls
 * the allocation log records with their flags.
 */
static void test_own_pools_only_first_table_may_sleep(void **state)
{
	unsigned int nents = CAN_CHAIN ? 2048 : SG_CHUNK_SIZE, n, i;
	/* Every table but the last gives one entry to its link. */
	unsigned int want = CAN_CHAIN ? DIV_ROUND_UP(nents - 1, SG_CHUNK_SIZE - 1) : 1;
	struct sg_table table;
	gfp_t gfps[64];

	(void)state;
	assert_int_equal(__sg_alloc_table_mempool(&table, nents, SG_CHUNK_SIZE, NULL, 0,
						  GFP_NOIO, kmalloc_table), 0);
	n = logged_gfps(USIM_ALLOC_KMALLOC, gfps, ARRAY_SIZE(gfps));
	assert_int_equal(n, want);
	assert_int_equal(gfps[0], GFP_NOIO);
	for (i = 1; i < n; i++)
		assert_int_equal(gfps[i], (GFP_NOIO & ~__GFP_DIRECT_RECLAIM) | __GFP_HIGH);
	__sg_free_table(&table, SG_CHUNK_SIZE, 0, kfree_table, table.orig_nents);
}

static void test_sleeping_first_table_waits_later_ones_fail(void **state)
{
	struct scatterlist chunk[2];
	struct sg_table table;
	unsigned int k;

	(void)state;
	/* No element for the first table: a sleeping caller waits and gets one. */
	usim_fault_fail_nth(&usim_mempool_fault, 0);
	assert_int_equal(sg_alloc_table_chained_gfp(&table, CAN_CHAIN ? 1000 : 100,
						    NULL, 0, GFP_NOIO), 0);
	assert_int_equal(usim_mempool_waits_all(), 1);
	sg_free_table_chained(&table, 0);
	if (!CAN_CHAIN)
		return;

	/* Holding a table, it must not wait for the next: it fails instead. */
	for (k = 1; k < 8; k++) {
		usim_fault_fail_nth(&usim_mempool_fault, k);
		assert_int_equal(sg_alloc_table_chained_gfp(&table, 1000, NULL, 0, GFP_NOIO),
				 -ENOMEM);
		assert_int_equal(usim_mempool_waits_all(), 1);
	}

	/* Behind a caller's chunk, the first table from a pool is the one that may. */
	table.sgl = chunk;
	usim_fault_fail_nth(&usim_mempool_fault, 0);
	assert_int_equal(sg_alloc_table_chained_gfp(&table, 1000, chunk, 2, GFP_NOIO), 0);
	assert_int_equal(usim_mempool_waits_all(), 2);
	sg_free_table_chained(&table, 2);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		USIM_TEST(test_every_failure_point),
		USIM_TEST(test_random_faults),
		USIM_TEST(test_exhausted_slab_falls_back_on_reserves),
		USIM_TEST(test_only_first_table_may_sleep),
		USIM_TEST(test_own_pools_only_first_table_may_sleep),
		USIM_TEST(test_sleeping_first_table_waits_later_ones_fail),
	};

	return cmocka_run_group_tests_name("sg_faults", tests, NULL, NULL);
}
