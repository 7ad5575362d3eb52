// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit suite for chained scatterlists: the case tables and reference
 * model that sgchain's userspace suites use (sg_chain_cases.h), run here
 * with real pages, real kmalloc and real mempools.
 */
#include <kunit/test.h>
#include <linux/debugfs.h>
#include <linux/device.h>
#include <linux/mempool.h>
#include <linux/mm.h>
#include <linux/scatterlist.h>
#include <linux/slab.h>

#include "sg_chain_cases.h"

/* Check a list built by an allocator against the model. */
static void sg_chain_expect_shape(struct kunit *test, struct scatterlist *sgl,
				  unsigned int nents, unsigned int cap1,
				  unsigned int max, const unsigned int *lengths)
{
	struct sg_chain_shape shape = sg_chain_expected_shape(nents, cap1, max);
	struct scatterlist *sg, *last = NULL;
	unsigned int i;
	char why[128];

	for_each_sg(sgl, sg, nents, i)
		sg->length = lengths[i];
	KUNIT_ASSERT_EQ_MSG(test, sg_chain_check_list(sgl, nents, &shape, max,
						      lengths, &last, why,
						      sizeof(why)), 0,
			    "list of %u: %s", nents, why);
	KUNIT_EXPECT_PTR_EQ(test, sg_last(sgl, nents), last);
	KUNIT_EXPECT_EQ(test, sg_nents(sgl), (int)nents);
	KUNIT_EXPECT_EQ(test, sg_validate(sgl, nents), SG_VALID);
}

/* Lengths 1, 2, 3, ... for the largest list of the suite. */
static unsigned int *sg_chain_lengths(struct kunit *test)
{
	unsigned int *lengths, i;

	lengths = kunit_kmalloc_array(test, SG_CHAIN_TEST_MAX_NENTS,
				      sizeof(*lengths), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, lengths);
	for (i = 0; i < SG_CHAIN_TEST_MAX_NENTS; i++)
		lengths[i] = i + 1;
	return lengths;
}

static void sg_chain_test_chained_every_size(struct kunit *test)
{
	unsigned int *lengths = sg_chain_lengths(test);
	struct sg_table table;
	unsigned int n;

	for (n = 1; n <= SG_MAX_SEGMENTS; n++) {
		KUNIT_ASSERT_EQ(test, sg_alloc_table_chained(&table, n, NULL, 0), 0);
		sg_chain_expect_shape(test, table.sgl, n, SG_CHUNK_SIZE,
				      SG_CHUNK_SIZE, lengths);
		sg_free_table_chained(&table, 0);
	}
}

/* drivers/scsi/scsi_lib.c's inline counts: none where lists cannot chain. */
#define SG_CHAIN_SCSI_INLINE	(IS_ENABLED(CONFIG_ARCH_NO_SG_CHAIN) ? 0 : 2)
#define SG_CHAIN_SCSI_INLINE_PROT (IS_ENABLED(CONFIG_ARCH_NO_SG_CHAIN) ? 0 : 1)

/*
 * What SCSI does for data (up to SG_MAX_SEGMENTS entries) and protection
 * information: table->sgl points at the command's inline entries, which
 * are passed again with their count; a count of 0 or 1 means "none".
 */
static void sg_chain_scsi_one(struct kunit *test, unsigned int nents,
			      unsigned int ninline)
{
	unsigned int cap1 = ninline > 1 ? ninline : SG_CHUNK_SIZE;
	unsigned int *lengths = sg_chain_lengths(test);
	struct scatterlist inline_sg[2];
	struct sg_table table = { .sgl = inline_sg };

	KUNIT_ASSERT_EQ_MSG(test, sg_alloc_table_chained(&table, nents,
							 table.sgl, ninline),
			    0, "%u entries, %u inline", nents, ninline);
	if (nents <= ninline || ninline > 1)
		KUNIT_EXPECT_PTR_EQ(test, table.sgl, &inline_sg[0]);
	else
		KUNIT_EXPECT_PTR_NE(test, table.sgl, &inline_sg[0]);
	sg_chain_expect_shape(test, table.sgl, nents, cap1, SG_CHUNK_SIZE,
			      lengths);
	sg_free_table_chained(&table, ninline);
}

static void sg_chain_test_chained_scsi_inline_chunk(struct kunit *test)
{
	unsigned int n;

	sg_chain_scsi_one(test, SG_MAX_SEGMENTS, SG_CHAIN_SCSI_INLINE);
	for (n = 1; n <= 300 && n <= SG_MAX_SEGMENTS; n++) {
		sg_chain_scsi_one(test, n, SG_CHAIN_SCSI_INLINE);
		sg_chain_scsi_one(test, n, SG_CHAIN_SCSI_INLINE_PROT);
	}
}

/*
 * "N entries" and the allocator: names unique within a suite, which a lab
 * (LAVA) that flattens KTAP needs to tell the results apart.
 */
static void sg_chain_size_desc(const unsigned int *size, const char *alloc,
			       char *desc)
{
	snprintf(desc, KUNIT_PARAM_DESC_SIZE, "%u entries by %s", *size, alloc);
}

/*
 * The sizes of @sizes that one table of @max holds where lists cannot
 * chain (the refusals are usim's to test), all of them elsewhere. A
 * generator, not kunit_skip(): 6.1 prints a skipped parameter as "ok".
 */
static const void *sg_chain_next_size(const unsigned int *sizes,
				      size_t count, const void *prev,
				      char *desc, unsigned int max,
				      const char *alloc)
{
	const unsigned int *p = prev ? (const unsigned int *)prev + 1 : sizes;

	for (; p < sizes + count; p++) {
		if (sg_chain_fits(*p, max, max)) {
			sg_chain_size_desc(p, alloc, desc);
			return p;
		}
	}
	return NULL;
}

static const void *sg_chain_boundary_gen_params(const void *prev, char *desc)
{
	return sg_chain_next_size(sg_chain_boundary_sizes,
				  ARRAY_SIZE(sg_chain_boundary_sizes), prev,
				  desc, SG_MAX_SINGLE_ALLOC, "sg_alloc_table");
}

static const void *sg_chain_pool_sizes_gen_params(const void *prev,
						  char *desc)
{
	return sg_chain_next_size(sg_chain_boundary_sizes,
				  ARRAY_SIZE(sg_chain_boundary_sizes), prev,
				  desc, SG_CHUNK_SIZE, "__sg_alloc_table_mempool");
}

static const void *sg_chain_large_gen_params(const void *prev, char *desc)
{
	return sg_chain_next_size(sg_chain_large_sizes,
				  ARRAY_SIZE(sg_chain_large_sizes), prev, desc,
				  SG_CHUNK_SIZE, "sg_alloc_table_chained");
}

static void sg_chain_test_chained_large(struct kunit *test)
{
	const unsigned int *nents = test->param_value;
	unsigned int *lengths, i;
	struct sg_table table;

	lengths = kunit_kmalloc_array(test, *nents, sizeof(*lengths),
				      GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, lengths);
	for (i = 0; i < *nents; i++)
		lengths[i] = i + 1;
	KUNIT_ASSERT_EQ(test, sg_alloc_table_chained(&table, *nents, NULL, 0),
			0);
	sg_chain_expect_shape(test, table.sgl, *nents, SG_CHUNK_SIZE,
			      SG_CHUNK_SIZE, lengths);
	sg_free_table_chained(&table, 0);
}

static void sg_chain_test_kmalloc_boundary(struct kunit *test)
{
	const unsigned int *nents = test->param_value;
	unsigned int *lengths = sg_chain_lengths(test);
	struct sg_table table;

	KUNIT_ASSERT_EQ(test, sg_alloc_table(&table, *nents, GFP_KERNEL), 0);
	sg_chain_expect_shape(test, table.sgl, *nents, SG_MAX_SINGLE_ALLOC,
			      SG_MAX_SINGLE_ALLOC, lengths);
	sg_free_table(&table);
	KUNIT_EXPECT_NULL(test, table.sgl);
}

static struct scatterlist *sg_chain_kmalloc_table(unsigned int nents,
						  gfp_t gfp)
{
	return kmalloc_array(nents, sizeof(struct scatterlist), gfp);
}

static void sg_chain_kfree_table(struct scatterlist *sgl, unsigned int nents)
{
	kfree(sgl);
}

static void sg_chain_geometry_desc(const struct sg_chain_geometry *g,
				   char *desc)
{
	strscpy(desc, g->name, KUNIT_PARAM_DESC_SIZE);
}

KUNIT_ARRAY_PARAM(sg_chain_geometry, sg_chain_geometries,
		  sg_chain_geometry_desc);

static void sg_chain_test_geometry_sizes(struct kunit *test)
{
	const struct sg_chain_geometry *g = test->param_value;
	unsigned int cap1 = g->first_chunk ?: g->max_ents;
	unsigned int *lengths = sg_chain_lengths(test);
	struct scatterlist *chunk = NULL;
	struct sg_table table;
	unsigned int n;

	if (g->first_chunk) {
		chunk = kunit_kmalloc_array(test, g->first_chunk,
					    sizeof(*chunk), GFP_KERNEL);
		KUNIT_ASSERT_NOT_NULL(test, chunk);
	}
	for (n = 1; n <= 600 && sg_chain_fits(n, cap1, g->max_ents); n++) {
		KUNIT_ASSERT_EQ(test, __sg_alloc_table(&table, n, g->max_ents,
						       chunk, g->first_chunk,
						       GFP_KERNEL,
						       sg_chain_kmalloc_table),
				0);
		sg_chain_expect_shape(test, table.sgl, n, cap1, g->max_ents,
				      lengths);
		__sg_free_table(&table, g->max_ents, g->first_chunk,
				sg_chain_kfree_table, table.orig_nents);
	}
}

/* Tables of a hand-built chain, data entries on real pages. */
struct sg_chain_hand {
	struct scatterlist *tables[SG_CHAIN_HAND_MAX_TABLES];
	struct scatterlist **flat;
	unsigned int nents;
};

static void sg_chain_hand_build(struct kunit *test, struct sg_chain_hand *hc,
				const struct sg_chain_hand_case *c,
				struct page *page)
{
	unsigned int t, i;

	hc->nents = sg_chain_hand_nents(c);
	hc->flat = kunit_kmalloc_array(test, hc->nents, sizeof(*hc->flat),
				       GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, hc->flat);
	for (t = 0; t < c->ntables; t++) {
		hc->tables[t] = kunit_kmalloc_array(test, c->sizes[t],
						    sizeof(struct scatterlist),
						    GFP_KERNEL);
		KUNIT_ASSERT_NOT_NULL(test, hc->tables[t]);
	}
	sg_chain_hand_link(c, hc->tables, hc->flat);
	for (i = 0; i < hc->nents; i++)
		sg_assign_page(hc->flat[i], page);
}

static void sg_chain_hand_desc(const struct sg_chain_hand_case *c, char *desc)
{
	strscpy(desc, c->name, KUNIT_PARAM_DESC_SIZE);
}

KUNIT_ARRAY_PARAM(sg_chain_hand, sg_chain_hand_cases, sg_chain_hand_desc);

static void sg_chain_test_hand_walk(struct kunit *test)
{
	const struct sg_chain_hand_case *c = test->param_value;
	struct page *page = alloc_page(GFP_KERNEL);
	struct sg_chain_hand hc;
	struct scatterlist *sg;
	unsigned int i, k;
	u64 sum = 0;

	KUNIT_ASSERT_NOT_NULL(test, page);
	sg_chain_hand_build(test, &hc, c, page);

	for_each_sg(hc.flat[0], sg, hc.nents, i) {
		KUNIT_EXPECT_PTR_EQ(test, sg, hc.flat[i]);
		KUNIT_EXPECT_PTR_EQ(test, sg_page(sg), page);
	}
	KUNIT_EXPECT_EQ(test, sg_nents(hc.flat[0]), (int)hc.nents);
	KUNIT_EXPECT_PTR_EQ(test, sg_last(hc.flat[0], hc.nents),
			    hc.flat[hc.nents - 1]);

	/* Entry k is k + 1 bytes long. */
	for (k = 1; k <= hc.nents; k++) {
		KUNIT_EXPECT_EQ(test, sg_nents_for_len(hc.flat[0], sum + 1),
				(int)k);
		sum += k;
		KUNIT_EXPECT_EQ(test, sg_nents_for_len(hc.flat[0], sum),
				(int)k);
	}
	KUNIT_EXPECT_EQ(test, sg_nents_for_len(hc.flat[0], sum + 1), -EINVAL);

	KUNIT_EXPECT_EQ(test, sg_validate(hc.flat[0], hc.nents), SG_VALID);
	/* A one-entry last table would turn into a link to a link instead. */
	if (c->ntables > 1 && c->sizes[c->ntables - 1] > 1) {
		struct scatterlist *tail = hc.flat[hc.nents - 1];

		/* The last entry links back to the first table: a cycle. */
		__sg_chain(tail, hc.tables[0]);
		KUNIT_EXPECT_EQ(test, sg_validate(hc.flat[0], U32_MAX),
				SG_INVALID_CYCLE);
		tail->page_link = 0;
		sg_set_page(tail, page, hc.nents, 0);
		sg_mark_end(tail);
	}
	for (k = 0; k + 1 < hc.nents; k++) {
		sg_mark_end(hc.flat[k]);
		KUNIT_EXPECT_EQ(test, sg_nents(hc.flat[0]), (int)k + 1);
		KUNIT_EXPECT_NULL(test, sg_next(hc.flat[k]));
		sg_unmark_end(hc.flat[k]);
		KUNIT_EXPECT_EQ(test, sg_nents(hc.flat[0]), (int)hc.nents);
	}
	__free_page(page);
}

#define SG_CHAIN_FAULT_MAX_TABLES (SG_CHAIN_TEST_MAX_NENTS / (SG_CHUNK_SIZE - 1) + 2)

/*
 * Pools like the kernel's sg pools, whose allocator fails on command:
 * faults reach the allocation code through a real mempool. No reserve,
 * so a failing element fails the (non-sleeping) mempool_alloc().
 *
 * The free side is told each table's entry count, and 6.1's own free
 * functions pick the pool (sg_pool_free()) or page against kmalloc
 * (sg_kfree()) by it: a table must come back with the count it was
 * allocated with, which the pools of one size class cannot see.
 */
struct sg_chain_fault_pools {
	struct kmem_cache *cache[5];
	mempool_t *pool[5];
	int countdown;		/* allocations left before one fails */
	int outstanding;
	gfp_t gfp[SG_CHAIN_FAULT_MAX_TABLES];
	unsigned int calls;
	struct {
		struct scatterlist *sgl;
		unsigned int nents;
	} live[SG_CHAIN_FAULT_MAX_TABLES];
	unsigned int nlive;
	unsigned int bad_frees;	/* another count, or a table not allocated */
};

static struct sg_chain_fault_pools *sg_chain_fp;

static void *sg_chain_fault_alloc(gfp_t gfp, void *cache)
{
	struct sg_chain_fault_pools *fp = sg_chain_fp;
	void *element;

	if (fp->countdown >= 0 && fp->countdown-- == 0)
		return NULL;
	element = kmem_cache_alloc(cache, gfp);
	if (element)
		fp->outstanding++;
	return element;
}

static void sg_chain_fault_free(void *element, void *cache)
{
	sg_chain_fp->outstanding--;
	kmem_cache_free(cache, element);
}

static unsigned int sg_chain_fault_index(unsigned int nents)
{
	return nents <= 8 ? 0 : order_base_2(nents) - 3;
}

static struct scatterlist *sg_chain_fault_table(unsigned int nents, gfp_t gfp)
{
	struct sg_chain_fault_pools *fp = sg_chain_fp;
	struct scatterlist *sgl;

	if (fp->calls < ARRAY_SIZE(fp->gfp))
		fp->gfp[fp->calls] = gfp;
	fp->calls++;
	sgl = mempool_alloc(fp->pool[sg_chain_fault_index(nents)], gfp);
	if (sgl && fp->nlive < ARRAY_SIZE(fp->live)) {
		fp->live[fp->nlive].sgl = sgl;
		fp->live[fp->nlive++].nents = nents;
	}
	return sgl;
}

static void sg_chain_fault_free_table(struct scatterlist *sgl,
				      unsigned int nents)
{
	struct sg_chain_fault_pools *fp = sg_chain_fp;
	unsigned int i = 0;

	while (i < fp->nlive && fp->live[i].sgl != sgl)
		i++;
	if (i == fp->nlive || fp->live[i].nents != nents)
		fp->bad_frees++;
	if (i < fp->nlive)
		fp->live[i] = fp->live[--fp->nlive];
	mempool_free(sgl, fp->pool[sg_chain_fault_index(nents)]);
}

static int sg_chain_fault_init(struct kunit *test)
{
	static const char *const names[] = {
		"sg_chain_kunit-8", "sg_chain_kunit-16", "sg_chain_kunit-32",
		"sg_chain_kunit-64", "sg_chain_kunit-128",
	};
	struct sg_chain_fault_pools *fp;
	unsigned int i;

	fp = kunit_kzalloc(test, sizeof(*fp), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, fp);
	/* Set first: .exit runs after a failed assertion here too. */
	sg_chain_fp = fp;
	for (i = 0; i < ARRAY_SIZE(fp->pool); i++) {
		unsigned int size = (8 << i) * sizeof(struct scatterlist);

		fp->cache[i] = kmem_cache_create(names[i], size, 0, 0, NULL);
		KUNIT_ASSERT_NOT_NULL(test, fp->cache[i]);
		fp->pool[i] = mempool_create(0, sg_chain_fault_alloc,
					     sg_chain_fault_free, fp->cache[i]);
		KUNIT_ASSERT_NOT_NULL(test, fp->pool[i]);
	}
	fp->countdown = -1;
	return 0;
}

static void sg_chain_fault_exit(struct kunit *test)
{
	struct sg_chain_fault_pools *fp = sg_chain_fp;
	unsigned int i;

	if (!fp)
		return;
	for (i = 0; i < ARRAY_SIZE(fp->pool); i++) {
		mempool_destroy(fp->pool[i]);
		kmem_cache_destroy(fp->cache[i]);
	}
	sg_chain_fp = NULL;
}

static void sg_chain_test_fault_every_index(struct kunit *test)
{
	const unsigned int *nents = test->param_value;
	struct sg_chain_shape shape =
		sg_chain_expected_shape(*nents, SG_CHUNK_SIZE, SG_CHUNK_SIZE);
	struct sg_chain_fault_pools *fp = sg_chain_fp;
	struct sg_table table;
	unsigned int k;
	int ret;

	for (k = 0; k <= shape.tables; k++) {
		fp->countdown = k;
		ret = __sg_alloc_table_mempool(&table, *nents, SG_CHUNK_SIZE,
					       NULL, 0, GFP_ATOMIC,
					       sg_chain_fault_table);
		/* k == tables: every allocation made, none failed. */
		KUNIT_EXPECT_EQ_MSG(test, ret, k < shape.tables ? -ENOMEM : 0,
				    "allocation %u failing", k);
		__sg_free_table(&table, SG_CHUNK_SIZE, 0,
				sg_chain_fault_free_table, table.orig_nents);
		KUNIT_ASSERT_EQ_MSG(test, fp->outstanding, 0,
				    "allocation %u failing", k);
		KUNIT_ASSERT_EQ_MSG(test, fp->bad_frees, 0,
				    "allocation %u failing: a table freed with another entry count than it was allocated with",
				    k);
	}
}

static void sg_chain_test_fault_only_first_may_sleep(struct kunit *test)
{
	struct sg_chain_fault_pools *fp = sg_chain_fp;
	struct sg_table table;
	unsigned int i;

	fp->calls = 0;
	KUNIT_ASSERT_EQ(test, __sg_alloc_table_mempool(&table, SG_MAX_SEGMENTS,
						       SG_CHUNK_SIZE, NULL, 0,
						       GFP_KERNEL,
						       sg_chain_fault_table),
			0);
	/* 17 tables for 2048 entries; one where lists cannot chain. */
	KUNIT_EXPECT_EQ(test, fp->calls,
			sg_chain_expected_shape(SG_MAX_SEGMENTS, SG_CHUNK_SIZE,
						SG_CHUNK_SIZE).tables);
	KUNIT_EXPECT_TRUE(test, fp->gfp[0] & __GFP_DIRECT_RECLAIM);
	for (i = 1; i < fp->calls; i++)
		KUNIT_EXPECT_FALSE(test, fp->gfp[i] & __GFP_DIRECT_RECLAIM);
	__sg_free_table(&table, SG_CHUNK_SIZE, 0, sg_chain_fault_free_table,
			table.orig_nents);
	KUNIT_EXPECT_EQ(test, fp->outstanding, 0);
	KUNIT_EXPECT_EQ(test, fp->bad_frees, 0);
}

static void sg_chain_test_bad_input_refused(struct kunit *test)
{
	struct scatterlist chunk[4];
	struct sg_table table;

	KUNIT_EXPECT_EQ(test, sg_alloc_table(&table, 0, GFP_KERNEL), -EINVAL);
	KUNIT_EXPECT_EQ(test, sg_alloc_table_chained(&table, 0, NULL, 0),
			-EINVAL);
	KUNIT_EXPECT_EQ(test, sg_alloc_table_chained(&table, -5, NULL, 0),
			-EINVAL);
	KUNIT_EXPECT_EQ(test, sg_alloc_table_chained(&table, 10, NULL, 4),
			-EINVAL);
	/* Without chaining these warn, as 6.1 does: usim tests them there. */
	if (!IS_ENABLED(CONFIG_ARCH_NO_SG_CHAIN)) {
		KUNIT_EXPECT_EQ(test, __sg_alloc_table(&table, 2, 1, NULL, 0,
						       GFP_KERNEL,
						       sg_chain_kmalloc_table),
				-EINVAL);
		KUNIT_EXPECT_EQ(test, __sg_alloc_table(&table, 5, 8, chunk, 1,
						       GFP_KERNEL,
						       sg_chain_kmalloc_table),
				-EINVAL);
	}
	KUNIT_EXPECT_NULL(test, table.sgl);
	KUNIT_EXPECT_NULL(test, sg_last(chunk, 0));
}

static struct kunit_case sg_chain_test_cases[] = {
	KUNIT_CASE(sg_chain_test_chained_every_size),
	KUNIT_CASE(sg_chain_test_chained_scsi_inline_chunk),
	KUNIT_CASE_PARAM(sg_chain_test_chained_large,
			 sg_chain_large_gen_params),
	KUNIT_CASE_PARAM(sg_chain_test_kmalloc_boundary,
			 sg_chain_boundary_gen_params),
	KUNIT_CASE_PARAM(sg_chain_test_geometry_sizes,
			 sg_chain_geometry_gen_params),
	KUNIT_CASE_PARAM(sg_chain_test_hand_walk, sg_chain_hand_gen_params),
	KUNIT_CASE(sg_chain_test_bad_input_refused),
	{}
};

static struct kunit_suite sg_chain_test_suite = {
	.name = "sg_chain",
	.test_cases = sg_chain_test_cases,
};

static struct kunit_case sg_chain_fault_test_cases[] = {
	KUNIT_CASE_PARAM(sg_chain_test_fault_every_index,
			 sg_chain_pool_sizes_gen_params),
	KUNIT_CASE(sg_chain_test_fault_only_first_may_sleep),
	{}
};

/* Its own suite: each case gets fresh fault-injecting pools. */
static struct kunit_suite sg_chain_fault_test_suite = {
	.name = "sg_chain_fault",
	.init = sg_chain_fault_init,
	.exit = sg_chain_fault_exit,
	.test_cases = sg_chain_fault_test_cases,
};

/*
 * The kernel's own allocators under the kernel's own fault injection: the
 * sg pools with failslab, limited to the caches that slub_debug=A,sgpool-*
 * marks, and sg_alloc_table()'s pages with fail_page_alloc. A task's
 * fail-nth (here current->fail_nth) fails exactly the n-th allocation
 * that reaches either. The pools' reserves are counted by draining them:
 * lists of one table each, taken while their slab allocation fails, until
 * even the reserve is empty.
 */
#if defined(CONFIG_FAILSLAB) && defined(CONFIG_FAULT_INJECTION_DEBUG_FS)

/*
 * A knob of a fault attribute's debugfs directory, by the variable behind
 * it: the only way in for code that runs before userspace could write the
 * file. Test code only; the suite puts every value back in .exit, which
 * KUnit skips only when a case times out.
 */
static void *sg_chain_fault_knob(const char *attr, const char *name)
{
	struct dentry *dir = debugfs_lookup(attr, NULL), *file;
	void *knob = NULL;

	if (!dir)
		return NULL;
	file = debugfs_lookup(name, dir);
	if (file) {
		knob = d_inode(file)->i_private;
		dput(file);
	}
	dput(dir);
	return knob;
}

/* The pool sizes, and a list size that takes one table of each. */
static const unsigned int sg_chain_pool_sizes[] = { 8, 16, 32, 64, 128 };
#define SG_CHAIN_POOLS		ARRAY_SIZE(sg_chain_pool_sizes)
#define SG_CHAIN_RESERVE	2u	/* elements each pool keeps (sg_pool.c) */

/* fail_page_alloc's min-order for "no page allocation may fail". */
#define SG_CHAIN_NO_PAGE_FAULTS	U32_MAX

static const char *const sg_chain_fault_attrs[] = { "failslab", "fail_page_alloc" };

/* The knobs the suite sets, and their values before. */
struct sg_chain_real {
	bool *cache_filter;
	bool cache_filter_was;
	u32 *page_min_order;
	u32 page_min_order_was;
	unsigned long *verbose[ARRAY_SIZE(sg_chain_fault_attrs)];
	unsigned long verbose_was[ARRAY_SIZE(sg_chain_fault_attrs)];
	struct sg_table held[SG_CHAIN_POOLS][2 * SG_CHAIN_RESERVE + 1];
	unsigned int nheld[SG_CHAIN_POOLS];
};

/*
 * Allocate from the pools with the @k-th allocation of this task that
 * fault injection considers failing: with page faults off, the @k-th slab
 * allocation from a marked cache. *@unused is what is left of @k when
 * fewer allocations came (0 when one failed).
 */
static int sg_chain_alloc_failing(struct sg_table *table, unsigned int nents,
				  unsigned int k, unsigned int *unused)
{
	int ret;

	WRITE_ONCE(current->fail_nth, k);
	ret = sg_alloc_table_chained(table, nents, NULL, 0);
	if (unused)
		*unused = READ_ONCE(current->fail_nth);
	WRITE_ONCE(current->fail_nth, 0);
	return ret;
}

/*
 * Take every reserve element of every pool, keeping them with any taken
 * before; how many each pool had now.
 */
static void sg_chain_drain(struct kunit *test, unsigned int *found)
{
	struct sg_chain_real *r = test->priv;
	unsigned int p;

	for (p = 0; p < SG_CHAIN_POOLS; p++) {
		found[p] = 0;
		while (r->nheld[p] < ARRAY_SIZE(r->held[p]) &&
		       !sg_chain_alloc_failing(&r->held[p][r->nheld[p]],
					       sg_chain_pool_sizes[p], 1, NULL)) {
			r->nheld[p]++;
			found[p]++;
		}
	}
}

/* Give the drained elements back: the reserves fill up again. */
static void sg_chain_undrain(struct kunit *test)
{
	struct sg_chain_real *r = test->priv;
	unsigned int p;

	for (p = 0; p < SG_CHAIN_POOLS; p++)
		while (r->nheld[p])
			sg_free_table_chained(&r->held[p][--r->nheld[p]], 0);
}

/* The pool a table of @nents entries comes from. */
static unsigned int sg_chain_pool_of(unsigned int nents)
{
	unsigned int p = 0;

	while (p + 1 < SG_CHAIN_POOLS && nents > sg_chain_pool_sizes[p])
		p++;
	return p;
}

static void sg_chain_expect_reserves(struct kunit *test, const unsigned int *want,
				     const char *when)
{
	unsigned int found[SG_CHAIN_POOLS], p;

	sg_chain_drain(test, found);
	sg_chain_undrain(test);
	for (p = 0; p < SG_CHAIN_POOLS; p++)
		KUNIT_EXPECT_EQ_MSG(test, found[p], want[p],
				    "%s: sgpool-%u holds %u elements, want %u",
				    when, sg_chain_pool_sizes[p], found[p], want[p]);
}

static int sg_chain_real_init(struct kunit *test)
{
	struct sg_chain_real *r;
	unsigned int i;

	/* Disks found at boot are set up and idle while reserves are counted. */
	wait_for_device_probe();
	r = kunit_kzalloc(test, sizeof(*r), GFP_KERNEL);
	if (!r)
		return -ENOMEM;
	test->priv = r;
	/* Only the marked sg pools may fail, not kmemleak's or others'. */
	r->cache_filter = sg_chain_fault_knob("failslab", "cache-filter");
	if (r->cache_filter) {
		r->cache_filter_was = READ_ONCE(*r->cache_filter);
		WRITE_ONCE(*r->cache_filter, true);
	}
	/*
	 * No page allocation counts unless a case asks: slab growth (the
	 * pools', kmemleak's) would otherwise take a fault meant for a table.
	 */
	r->page_min_order = sg_chain_fault_knob("fail_page_alloc", "min-order");
	if (r->page_min_order) {
		r->page_min_order_was = READ_ONCE(*r->page_min_order);
		WRITE_ONCE(*r->page_min_order, SG_CHAIN_NO_PAGE_FAULTS);
	}
	/* Each injected fault would print a stack trace otherwise. */
	for (i = 0; i < ARRAY_SIZE(sg_chain_fault_attrs); i++) {
		r->verbose[i] = sg_chain_fault_knob(sg_chain_fault_attrs[i],
						    "verbose");
		if (r->verbose[i]) {
			r->verbose_was[i] = READ_ONCE(*r->verbose[i]);
			WRITE_ONCE(*r->verbose[i], 0);
		}
	}
	return 0;
}

static void sg_chain_real_exit(struct kunit *test)
{
	struct sg_chain_real *r = test->priv;
	unsigned int i;

	if (!r)
		return;
	sg_chain_undrain(test);
	if (r->cache_filter)
		WRITE_ONCE(*r->cache_filter, r->cache_filter_was);
	if (r->page_min_order)
		WRITE_ONCE(*r->page_min_order, r->page_min_order_was);
	for (i = 0; i < ARRAY_SIZE(sg_chain_fault_attrs); i++)
		if (r->verbose[i])
			WRITE_ONCE(*r->verbose[i], r->verbose_was[i]);
}

/*
 * Skip where failslab cannot reach the pools; a pool whose reserve does
 * not absorb one failure is a failure, not a skip.
 */
static void sg_chain_real_skip_unless_armed(struct kunit *test)
{
	struct sg_chain_real *r = test->priv;
	struct sg_table table;
	unsigned int unused;
	int ret;

	if (!r->cache_filter)
		kunit_skip(test, "no failslab in debugfs");
	ret = sg_chain_alloc_failing(&table, 8, 1, &unused);
	if (!ret)
		sg_free_table_chained(&table, 0);
	if (unused)
		kunit_skip(test, "the sg pools are not marked: boot with slub_debug=A,sgpool-*");
	KUNIT_ASSERT_EQ_MSG(test, ret, 0,
			    "8 entries, the slab allocation failing: the sgpool-8 reserve did not take over");
}

/* Whether a list from the pools has the model's shape; why not in @why. */
static bool sg_chain_real_list_ok(struct scatterlist *sgl, unsigned int nents,
				  const unsigned int *lengths, char *why,
				  size_t len)
{
	struct sg_chain_shape shape =
		sg_chain_expected_shape(nents, SG_CHUNK_SIZE, SG_CHUNK_SIZE);
	struct scatterlist *sg, *last = NULL;
	unsigned int i;

	for_each_sg(sgl, sg, nents, i)
		sg->length = lengths[i];
	return !sg_chain_check_list(sgl, nents, &shape, SG_CHUNK_SIZE, lengths,
				    &last, why, len);
}

/* Lists of every size around the pool and table sizes. */
static const unsigned int sg_chain_real_sizes[] = { 9, 128, 129, 300, 2048 };

/* The first @max_tables tables of a list of @nents from the pools, by pool. */
static void sg_chain_real_tables(unsigned int nents, unsigned int max_tables,
				 unsigned int *per_pool)
{
	struct sg_chain_shape shape =
		sg_chain_expected_shape(nents, SG_CHUNK_SIZE, SG_CHUNK_SIZE);
	unsigned int t;

	memset(per_pool, 0, SG_CHAIN_POOLS * sizeof(*per_pool));
	for (t = 0; t < shape.tables && t < max_tables; t++) {
		unsigned int size = t + 1 < shape.tables ? SG_CHUNK_SIZE :
				    shape.last_size;

		per_pool[sg_chain_pool_of(size)]++;
	}
}

/* One failed slab allocation anywhere in a list: the reserve takes over. */
static void sg_chain_real_test_reserve_absorbs_a_failure(struct kunit *test)
{
	unsigned int *lengths = sg_chain_lengths(test);
	unsigned int full[SG_CHAIN_POOLS], i, k, p;
	struct sg_table table;

	sg_chain_real_skip_unless_armed(test);
	for (p = 0; p < SG_CHAIN_POOLS; p++)
		full[p] = SG_CHAIN_RESERVE;
	for (i = 0; i < ARRAY_SIZE(sg_chain_real_sizes); i++) {
		unsigned int n = sg_chain_real_sizes[i];
		struct sg_chain_shape shape =
			sg_chain_expected_shape(n, SG_CHUNK_SIZE, SG_CHUNK_SIZE);

		if (!sg_chain_fits(n, SG_CHUNK_SIZE, SG_CHUNK_SIZE))
			continue;
		for (k = 1; k <= shape.tables; k++) {
			unsigned int unused;
			char why[128];
			bool ok;

			/* A failed call has freed what it took. */
			KUNIT_ASSERT_EQ_MSG(test, sg_chain_alloc_failing(&table, n, k, &unused), 0,
					    "%u entries, allocation %u failing", n, k);
			/* Checked after the free: pool tables must not leak. */
			ok = sg_chain_real_list_ok(table.sgl, n, lengths, why,
						   sizeof(why));
			sg_free_table_chained(&table, 0);
			KUNIT_EXPECT_EQ_MSG(test, unused, 0,
					    "%u entries: allocation %u never came", n, k);
			KUNIT_EXPECT_TRUE_MSG(test, ok,
					      "%u entries, allocation %u failing: %s",
					      n, k, why);
			sg_chain_expect_reserves(test, full, "after the free");
		}
	}
}

/*
 * With the reserves held, the @k-th table failing is -ENOMEM, and the
 * tables allocated before it go back, the reserves first: draining again
 * finds exactly them. Another user of the pools (a disk's I/O completing)
 * can refill a reserve meanwhile, which looks like a success or like more
 * tables back: that attempt is repeated. Fewer tables back is a lost
 * table, unless another user took a reserve element after its own slab
 * allocation failed, which takes real memory pressure at that moment.
 */
static void sg_chain_real_unwind_one(struct kunit *test, unsigned int n,
				     unsigned int k)
{
	unsigned int found[SG_CHAIN_POOLS], want[SG_CHAIN_POOLS], p, tries;
	struct sg_table table;
	bool disturbed = true;
	int ret;

	sg_chain_real_tables(n, k - 1, want);
	for (tries = 0; tries < 5 && disturbed; tries++) {
		disturbed = false;
		sg_chain_drain(test, found);
		for (p = 0; p < SG_CHAIN_POOLS; p++)
			KUNIT_ASSERT_EQ(test, found[p], SG_CHAIN_RESERVE);
		ret = sg_chain_alloc_failing(&table, n, k, NULL);
		if (ret == 0) {
			sg_free_table_chained(&table, 0);
			sg_chain_undrain(test);
			disturbed = true;
			continue;
		}
		KUNIT_EXPECT_EQ_MSG(test, ret, -ENOMEM,
				    "%u entries, allocation %u failing", n, k);
		KUNIT_EXPECT_NULL(test, table.sgl);
		sg_chain_drain(test, found);
		sg_chain_undrain(test);
		for (p = 0; p < SG_CHAIN_POOLS; p++) {
			unsigned int back = min(want[p], SG_CHAIN_RESERVE);

			if (found[p] > back) {
				disturbed = true;
				continue;
			}
			KUNIT_EXPECT_EQ_MSG(test, found[p], back,
					    "%u entries, allocation %u failing: sgpool-%u got %u tables back, want %u",
					    n, k, sg_chain_pool_sizes[p], found[p], back);
		}
	}
	KUNIT_EXPECT_FALSE_MSG(test, disturbed,
			       "%u entries, allocation %u failing: the pools kept changing",
			       n, k);
}

static void sg_chain_real_test_unwind_gives_every_table_back(struct kunit *test)
{
	unsigned int i, k;

	sg_chain_real_skip_unless_armed(test);
	for (i = 0; i < ARRAY_SIZE(sg_chain_real_sizes); i++) {
		unsigned int n = sg_chain_real_sizes[i];
		struct sg_chain_shape shape =
			sg_chain_expected_shape(n, SG_CHUNK_SIZE, SG_CHUNK_SIZE);

		if (!sg_chain_fits(n, SG_CHUNK_SIZE, SG_CHUNK_SIZE))
			continue;
		for (k = 1; k <= shape.tables; k++)
			sg_chain_real_unwind_one(test, n, k);
	}
}

/*
 * What 6.1's unwind leaves in orig_nents when page @k of sg_alloc_table()
 * fails: the data entries of the pages before it, and the unused link
 * entry of the last one counted as data (0 when the first page fails).
 */
static unsigned int sg_chain_page_unwind_count(unsigned int k)
{
	return k == 1 ? 0 : (k - 1) * (SG_MAX_SINGLE_ALLOC - 1) + 1;
}

/*
 * sg_alloc_table() takes a page for each table of SG_MAX_SINGLE_ALLOC
 * entries and kmallocs a shorter last one, and sg_kfree() tells the two
 * apart by the entry count alone. With page @k failing, the pages before
 * it go back through sg_free_table() by the count the unwind left: were
 * it one short, the last page would go to kfree(), which SLUB warns of
 * (free_large_kmalloc()), and make qemu fails on the warning. The count
 * itself is 6.1's internal state, checked because it decides the free.
 */
static void sg_chain_real_test_page_tables_unwind(struct kunit *test)
{
	static const unsigned int sizes[] = { 129, 255, 256, 300, 2048 };
	struct sg_chain_real *r = test->priv;
	unsigned int i, k, tries;
	struct sg_table table;
	int ret = 0;

	if (!r->page_min_order)
		kunit_skip(test, "no fail_page_alloc in debugfs");
	/* The tables are single pages; .exit restores the knob. */
	WRITE_ONCE(*r->page_min_order, 0);
	for (i = 0; i < ARRAY_SIZE(sizes); i++) {
		unsigned int n = sizes[i];
		struct sg_chain_shape shape =
			sg_chain_expected_shape(n, SG_MAX_SINGLE_ALLOC,
						SG_MAX_SINGLE_ALLOC);
		unsigned int pages = shape.tables -
			(shape.last_size < SG_MAX_SINGLE_ALLOC);

		if (!sg_chain_fits(n, SG_MAX_SINGLE_ALLOC, SG_MAX_SINGLE_ALLOC))
			continue;
		for (k = 1; k <= pages; k++) {
			unsigned int got = 0, j;
			bool earlier;

			/*
			 * Another page allocation of this task (kmemleak
			 * growing its object cache) can take the fault: the
			 * list is then complete, or ends at an earlier page.
			 * Both are repeated; a count one short is neither.
			 */
			for (tries = 0; tries < 5; tries++) {
				WRITE_ONCE(current->fail_nth, k);
				ret = sg_alloc_table(&table, n,
						     GFP_ATOMIC | __GFP_NOWARN);
				WRITE_ONCE(current->fail_nth, 0);
				if (!ret) {
					sg_free_table(&table);
					continue;
				}
				got = table.orig_nents;
				earlier = false;
				for (j = 1; j < k; j++)
					earlier |= got == sg_chain_page_unwind_count(j);
				if (!earlier)
					break;
			}
			KUNIT_EXPECT_EQ_MSG(test, ret, -ENOMEM,
					    "%u entries, page %u failing", n, k);
			KUNIT_EXPECT_NULL(test, table.sgl);
			KUNIT_EXPECT_EQ_MSG(test, got, sg_chain_page_unwind_count(k),
					    "%u entries, page %u failing", n, k);
		}
	}
	WRITE_ONCE(*r->page_min_order, SG_CHAIN_NO_PAGE_FAULTS);
}

static struct kunit_case sg_chain_real_test_cases[] = {
	KUNIT_CASE(sg_chain_real_test_reserve_absorbs_a_failure),
	KUNIT_CASE(sg_chain_real_test_unwind_gives_every_table_back),
	KUNIT_CASE(sg_chain_real_test_page_tables_unwind),
	{}
};

static struct kunit_suite sg_chain_real_faults_test_suite = {
	.name = "sg_chain_real_faults",
	.init = sg_chain_real_init,
	.exit = sg_chain_real_exit,
	.test_cases = sg_chain_real_test_cases,
};

kunit_test_suites(&sg_chain_test_suite, &sg_chain_fault_test_suite,
		  &sg_chain_real_faults_test_suite);
#else
kunit_test_suites(&sg_chain_test_suite, &sg_chain_fault_test_suite);
#endif

MODULE_DESCRIPTION("KUnit tests of scatterlist chaining and the sg pools");
MODULE_LICENSE("GPL");
/* __sg_alloc_table_mempool(), visible to KUnit alone */
MODULE_IMPORT_NS(EXPORTED_FOR_KUNIT_TESTING);
