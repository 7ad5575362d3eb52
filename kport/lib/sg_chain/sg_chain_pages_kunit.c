// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit suite sg_chain_pages: the library code that builds scatterlists
 * from pages and walks them (lib/scatterlist.c, lib/sg_split.c), on lists
 * long enough to chain, over real pages of one high-order block. The
 * layouts, case tables and models are those of sgchain's userspace suites
 * (sg_chain_pages_cases.h); the bytes are checked against a flat copy.
 * The block is highmem where the machine has it (i386): the suite reaches
 * its bytes through kmap_local_page(), as the library's iterators do.
 */
#include <kunit/test.h>
#include <linux/gfp.h>
#include <linux/highmem.h>
#include <linux/mm.h>
#include <linux/module.h>
#include <linux/scatterlist.h>
#include <linux/slab.h>
#include <linux/uaccess.h>
#include <linux/vmalloc.h>

#include "sg_chain_compat.h"
#include "sg_chain_pages_cases.h"

/*
 * 1024 pages of consecutive pfns (4 MiB with 4K pages), or the largest
 * block the page allocator has: the layouts check that they fit.
 */
#define SG_CHAIN_BLOCK_ORDER	min(10, SG_CHAIN_MAX_PAGE_ORDER)
#define SG_CHAIN_BLOCK_PAGES	BIT(SG_CHAIN_BLOCK_ORDER)

/* Strided: two or three tables. Without chaining: one table's worth. */
#define SG_CHAIN_NPAGES	(IS_ENABLED(CONFIG_ARCH_NO_SG_CHAIN) ? 100u : 255u)

/* Copy lists: two or three tables, or the largest single table. */
#define SG_CHAIN_COPY_MAX_NENTS	300u
#define SG_CHAIN_COPY_NENTS \
	(IS_ENABLED(CONFIG_ARCH_NO_SG_CHAIN) ? \
	 min_t(unsigned int, SG_MAX_SINGLE_ALLOC, SG_CHAIN_COPY_MAX_NENTS) : \
	 SG_CHAIN_COPY_MAX_NENTS)

struct sg_chain_pages_fx {
	struct page *block;
	unsigned long first_pfn;
	struct page **pages;
	unsigned long *pfns;
	unsigned int *at;
	struct sg_chain_page_seg *segs;

	/* The copy tests' list and its flat model. */
	struct sg_table table;
	unsigned int nents;
	size_t start[SG_CHAIN_COPY_MAX_NENTS + 1];
	size_t total;
	u8 *model;
	u8 *buf;	/* as large as the model */
	u64 rng;
};

static int sg_chain_pages_init(struct kunit *test)
{
	struct sg_chain_pages_fx *fx;

	/* .exit runs after a failed .init, and priv outlives a parameter. */
	test->priv = NULL;
	fx = kunit_kzalloc(test, sizeof(*fx), GFP_KERNEL);
	if (!fx)
		return -ENOMEM;
	fx->pages = kunit_kmalloc_array(test, SG_CHAIN_BLOCK_PAGES,
					sizeof(*fx->pages), GFP_KERNEL);
	fx->pfns = kunit_kmalloc_array(test, SG_CHAIN_BLOCK_PAGES,
				       sizeof(*fx->pfns), GFP_KERNEL);
	fx->at = kunit_kmalloc_array(test, SG_CHAIN_BLOCK_PAGES,
				     sizeof(*fx->at), GFP_KERNEL);
	fx->segs = kunit_kmalloc_array(test, SG_CHAIN_BLOCK_PAGES,
				       sizeof(*fx->segs), GFP_KERNEL);
	fx->block = alloc_pages(GFP_HIGHUSER | __GFP_NOWARN, SG_CHAIN_BLOCK_ORDER);
	if (!fx->pages || !fx->pfns || !fx->at || !fx->segs || !fx->block) {
		if (fx->block)
			__free_pages(fx->block, SG_CHAIN_BLOCK_ORDER);
		return -ENOMEM;
	}
	fx->first_pfn = page_to_pfn(fx->block);
	test->priv = fx;
	return 0;
}

static void sg_chain_pages_exit(struct kunit *test)
{
	struct sg_chain_pages_fx *fx = test->priv;

	if (!fx)
		return;
	if (fx->table.sgl)
		sg_free_table(&fx->table);
	vfree(fx->model);
	vfree(fx->buf);
	__free_pages(fx->block, SG_CHAIN_BLOCK_ORDER);
}

/* Lay @n pages of @layout out in the block: fx->pages and fx->pfns. */
static void sg_chain_pages_lay_out(struct kunit *test,
				   enum sg_chain_layout layout,
				   unsigned int n, u64 seed)
{
	struct sg_chain_pages_fx *fx = test->priv;
	unsigned int i, span;

	span = sg_chain_layout_pages(layout, fx->at, n, seed);
	KUNIT_ASSERT_LE(test, span, SG_CHAIN_BLOCK_PAGES);
	for (i = 0; i < n; i++) {
		fx->pages[i] = nth_page(fx->block, fx->at[i]);
		fx->pfns[i] = fx->first_pfn + fx->at[i];
	}
}

static void sg_chain_layout_desc(const char *const *name, char *desc)
{
	strscpy(desc, *name, KUNIT_PARAM_DESC_SIZE);
}

/* The layouts again, for the other case: names unique within the suite. */
static void sg_chain_steps_desc(const char *const *name, char *desc)
{
	snprintf(desc, KUNIT_PARAM_DESC_SIZE, "%s in steps", *name);
}

KUNIT_ARRAY_PARAM(sg_chain_layout, sg_chain_layout_names,
		  sg_chain_layout_desc);
KUNIT_ARRAY_PARAM(sg_chain_steps, sg_chain_layout_names, sg_chain_steps_desc);

static enum sg_chain_layout sg_chain_param_layout(struct kunit *test)
{
	const char *const *name = test->param_value;

	return name - sg_chain_layout_names;
}

/* From pages in one call: every max_segment and buffer end, as modelled. */
static void sg_chain_pages_test_from_pages(struct kunit *test)
{
	struct sg_chain_pages_fx *fx = test->priv;
	enum sg_chain_layout layout = sg_chain_param_layout(test);
	unsigned int n = SG_CHAIN_NPAGES, m, e, nsegs;
	struct sg_table t;
	char why[128];
	int ret;

	sg_chain_pages_lay_out(test, layout, n, 7 + layout);
	for (m = 0; m < ARRAY_SIZE(sg_chain_max_segments); m++) {
		for (e = 0; e < ARRAY_SIZE(sg_chain_page_ends); e++) {
			unsigned int max_segment = sg_chain_max_segments[m];
			unsigned int offset = sg_chain_page_ends[e][0];
			unsigned long size = (unsigned long)n * PAGE_SIZE - offset -
					     sg_chain_page_ends[e][1];

			nsegs = sg_chain_pages_model(fx->pfns, n, offset, size, max_segment,
						     fx->segs);
			ret = sg_alloc_table_from_pages_segment(&t, fx->pages, n, offset, size,
								max_segment, GFP_KERNEL);
			KUNIT_ASSERT_EQ(test, ret, 0);
			KUNIT_EXPECT_EQ(test, t.orig_nents, t.nents);
			ret = sg_chain_pages_check(t.sgl, t.nents, fx->pages, fx->segs, nsegs,
						   why, sizeof(why));
			KUNIT_EXPECT_EQ_MSG(test, ret, 0, "max_segment %u, offset %u, size %lu: %s",
					    max_segment, offset, size, why);
			sg_free_table(&t);
		}
	}
}

/* Append n pages in calls of @step pages and check the list. */
static void sg_chain_pages_append_one(struct kunit *test, unsigned int n,
				      unsigned int max_segment, unsigned int step,
				      unsigned int e)
{
	struct sg_chain_pages_fx *fx = test->priv;
	unsigned int offset = sg_chain_page_ends[e][0], nsegs;
	unsigned long size = (unsigned long)n * PAGE_SIZE - offset - sg_chain_page_ends[e][1];
	struct sg_append_table append;
	char why[128];
	int ret;

	nsegs = sg_chain_pages_model(fx->pfns, n, offset, size, max_segment, fx->segs);
	ret = sg_chain_append_in_steps(&append, fx->pages, n, step, offset, size,
				       max_segment, n, GFP_KERNEL);
	if (ret) {
		/* The caller frees after a failure too. */
		sg_free_append_table(&append);
		KUNIT_FAIL(test, "steps of %u: %d", step, ret);
		return;
	}
	ret = sg_chain_pages_check(append.sgt.sgl, append.sgt.nents, fx->pages, fx->segs,
				   nsegs, why, sizeof(why));
	KUNIT_EXPECT_EQ_MSG(test, ret, 0, "max_segment %u, steps of %u, offset %u, size %lu: %s",
			    max_segment, step, offset, size, why);
	sg_free_append_table(&append);
}

/*
 * Appending in 1 to all pages per call gives the one-shot list, also when
 * the buffer ends inside a page that merges into the previous entry.
 * Without chaining a table cannot grow: the second call is refused.
 */
static void sg_chain_pages_test_append_in_steps(struct kunit *test)
{
	struct sg_chain_pages_fx *fx = test->priv;
	enum sg_chain_layout layout = sg_chain_param_layout(test);
	unsigned int n = SG_CHAIN_NPAGES, m, s, e;
	struct sg_append_table append = {};
	int ret;

	sg_chain_pages_lay_out(test, layout, n, 11 + layout);
	if (IS_ENABLED(CONFIG_ARCH_NO_SG_CHAIN)) {
		ret = sg_alloc_append_table_from_pages(&append, fx->pages, 10, 0, 10 * PAGE_SIZE,
						       UINT_MAX, 10, GFP_KERNEL);
		if (!ret)
			ret = sg_alloc_append_table_from_pages(&append, fx->pages + 10, 10, 0,
							       10 * PAGE_SIZE, UINT_MAX, 0,
							       GFP_KERNEL);
		KUNIT_EXPECT_EQ(test, ret, -EOPNOTSUPP);
		/* The first call's list, as it was. */
		KUNIT_EXPECT_EQ(test, append.sgt.nents,
				sg_chain_pages_model(fx->pfns, 10, 0, 10 * PAGE_SIZE, UINT_MAX,
						     fx->segs));
		sg_free_append_table(&append);
		return;
	}
	for (m = 0; m < ARRAY_SIZE(sg_chain_max_segments); m++)
		for (s = 0; s < ARRAY_SIZE(sg_chain_append_steps); s++)
			for (e = 0; e < ARRAY_SIZE(sg_chain_page_ends); e++)
				sg_chain_pages_append_one(test, n, sg_chain_max_segments[m],
							  sg_chain_append_steps[s], e);
}

/*
 * The bytes of an entry, a page at a time: copied out to @out, or, with
 * @out NULL, compared with @cmp. Returns whether they equal @cmp.
 */
static bool sg_chain_entry_bytes(struct scatterlist *sg, u8 *out, const u8 *cmp)
{
	unsigned int done = 0, off = sg->offset;
	bool same = true;

	while (done < sg->length) {
		unsigned int in_page = off % PAGE_SIZE;
		unsigned int n = min_t(unsigned int, sg->length - done,
				       PAGE_SIZE - in_page);
		u8 *p = kmap_local_page(nth_page(sg_page(sg), off / PAGE_SIZE));

		if (out)
			memcpy(out + done, p + in_page, n);
		else
			same = same && !memcmp(p + in_page, cmp + done, n);
		kunmap_local(p);
		done += n;
		off += n;
	}
	return same;
}

/*
 * The copy tests' list: sg_chain_copy_layout() entries of up to two pages
 * in a table from sg_alloc_table(), and the flat model of their bytes.
 */
static void sg_chain_copy_list(struct kunit *test)
{
	struct sg_chain_pages_fx *fx = test->priv;
	struct scatterlist *sg;
	unsigned int i, k, pages;

	fx->nents = SG_CHAIN_COPY_NENTS;
	fx->rng = 0x9e3779b97f4a7c15ULL;
	pages = sg_chain_copy_layout(fx->segs, fx->nents, 2, &fx->rng);
	KUNIT_ASSERT_LE(test, pages, SG_CHAIN_BLOCK_PAGES);
	for (i = 0; i < pages; i++) {
		u64 *words = kmap_local_page(nth_page(fx->block, i));
		u64 w = (u64)i * (PAGE_SIZE / sizeof(*words));

		for (k = 0; k < PAGE_SIZE / sizeof(*words); k++)
			words[k] = (w + k) * 0x9e3779b97f4a7c15ULL;
		kunmap_local(words);
	}
	KUNIT_ASSERT_EQ(test, sg_alloc_table(&fx->table, fx->nents, GFP_KERNEL), 0);
	fx->total = 0;
	for_each_sg(fx->table.sgl, sg, fx->nents, i) {
		fx->start[i] = fx->total;
		sg_set_page(sg, nth_page(fx->block, fx->segs[i].first),
			    fx->segs[i].length, fx->segs[i].offset);
		fx->total += sg->length;
	}
	fx->start[fx->nents] = fx->total;
	fx->model = vmalloc(fx->total);
	fx->buf = vmalloc(fx->total);
	KUNIT_ASSERT_NOT_NULL(test, fx->model);
	KUNIT_ASSERT_NOT_NULL(test, fx->buf);
	for_each_sg(fx->table.sgl, sg, fx->nents, i)
		sg_chain_entry_bytes(sg, fx->model + fx->start[i], NULL);
}

static size_t sg_chain_skip(struct sg_chain_pages_fx *fx, unsigned int k)
{
	return sg_chain_skip_at(k, fx->start, fx->nents, fx->total, &fx->rng);
}

static void sg_chain_expect_list_is_model(struct kunit *test, const char *what)
{
	struct sg_chain_pages_fx *fx = test->priv;
	struct scatterlist *sg;
	unsigned int i;

	for_each_sg(fx->table.sgl, sg, fx->nents, i) {
		if (!sg_chain_entry_bytes(sg, NULL, fx->model + fx->start[i])) {
			KUNIT_FAIL(test, "%s: entry %u differs from the model", what, i);
			return;
		}
	}
}

/* Copies to and from the list, whole and at skips around every link. */
static void sg_chain_pages_test_copies(struct kunit *test)
{
	struct sg_chain_pages_fx *fx;
	unsigned int k;
	u8 *buf;

	sg_chain_copy_list(test);
	fx = test->priv;
	buf = fx->buf;
	KUNIT_EXPECT_EQ(test, sg_copy_to_buffer(fx->table.sgl, fx->nents, buf,
						fx->total), fx->total);
	KUNIT_EXPECT_EQ(test, memcmp(buf, fx->model, fx->total), 0);
	for (k = 0; k < 120; k++) {
		size_t skip = sg_chain_skip(fx, k);
		size_t len = (u32)sg_chain_rand(&fx->rng) % (8 * PAGE_SIZE);
		size_t want = skip >= fx->total ? 0 : min(len, fx->total - skip);
		size_t i;

		KUNIT_EXPECT_EQ(test, sg_pcopy_to_buffer(fx->table.sgl, fx->nents,
							 buf, len, skip), want);
		KUNIT_EXPECT_EQ_MSG(test, memcmp(buf, fx->model + skip, want), 0,
				    "sg_pcopy_to_buffer(skip %zu, %zu bytes)", skip, len);
		for (i = 0; i < want; i++)
			buf[i] = sg_chain_rand(&fx->rng);
		KUNIT_EXPECT_EQ(test, sg_pcopy_from_buffer(fx->table.sgl, fx->nents,
							   buf, len, skip), want);
		memcpy(fx->model + skip, buf, want);
		if (k % 10 == 0) {
			KUNIT_EXPECT_EQ(test, sg_zero_buffer(fx->table.sgl, fx->nents,
							     len, skip), want);
			memset(fx->model + skip, 0, want);
		}
	}
	sg_chain_expect_list_is_model(test, "after sg_pcopy_from_buffer and sg_zero_buffer");
}

/*
 * sg_miter in four modes: the pieces are the model's bytes in order, a
 * partly consumed piece continues from there, a skip lands where it says,
 * and a stop midway leaves the CPU as it found it. Failures inside an
 * atomic mapping are counted and reported after the stop.
 */
static void sg_chain_pages_test_miter(struct kunit *test)
{
	static const unsigned int modes[] = {
		SG_MITER_FROM_SG, SG_MITER_FROM_SG | SG_MITER_ATOMIC,
		SG_MITER_TO_SG, SG_MITER_TO_SG | SG_MITER_ATOMIC,
	};
	struct sg_chain_pages_fx *fx;
	struct sg_mapping_iter miter;
	unsigned int m, k;

	sg_chain_copy_list(test);
	fx = test->priv;
	for (m = 0; m < ARRAY_SIZE(modes); m++) {
		unsigned int bad = 0, bad_atomic = 0;
		size_t pos = 0;

		sg_miter_start(&miter, fx->table.sgl, fx->nents, modes[m]);
		while (sg_miter_next(&miter)) {
			size_t take = miter.length > 1 && pos % 3 == 0 ?
				      miter.length / 2 : miter.length;

			bad += !miter.length || miter.length > PAGE_SIZE;
			bad_atomic += pagefault_disabled() !=
				      !!(modes[m] & SG_MITER_ATOMIC);
			if (modes[m] & SG_MITER_TO_SG) {
				memset(miter.addr, pos & 0xff, take);
				memset(fx->model + pos, pos & 0xff, take);
			} else {
				bad += !!memcmp(miter.addr, fx->model + pos, take);
			}
			miter.consumed = take;
			pos += take;
		}
		sg_miter_stop(&miter);
		KUNIT_EXPECT_EQ_MSG(test, bad, 0, "mode %#x: pieces that differ", modes[m]);
		KUNIT_EXPECT_EQ_MSG(test, bad_atomic, 0,
				    "mode %#x: page faults enabled where atomic", modes[m]);
		KUNIT_EXPECT_EQ(test, pos, fx->total);
		sg_chain_expect_list_is_model(test, "after a sg_miter pass");
	}
	for (k = 0; k < 100; k++) {
		size_t skip = sg_chain_skip(fx, k);
		bool skipped, next = false, same = true;

		sg_miter_start(&miter, fx->table.sgl, fx->nents,
			       SG_MITER_FROM_SG | SG_MITER_ATOMIC);
		skipped = sg_miter_skip(&miter, skip);
		if (skipped) {
			next = sg_miter_next(&miter);
			if (next)
				same = !memcmp(miter.addr, fx->model + skip,
					       miter.length);
		}
		sg_miter_stop(&miter);
		KUNIT_EXPECT_FALSE(test, pagefault_disabled());
		if (!skipped)
			KUNIT_EXPECT_GE(test, skip, fx->total);
		else if (!next)
			KUNIT_EXPECT_EQ(test, skip, fx->total);
		KUNIT_EXPECT_TRUE_MSG(test, same, "after skipping %zu", skip);
	}
}

/* Every page of every entry once, in order, from any starting page. */
static void sg_chain_pages_test_page_iterators(struct kunit *test)
{
	struct sg_chain_pages_fx *fx;
	struct sg_dma_page_iter diter;
	struct sg_page_iter piter;
	struct scatterlist *sg;
	unsigned int i, n = 0, got, start;
	unsigned long *want;

	sg_chain_copy_list(test);
	fx = test->priv;
	want = kunit_kmalloc_array(test, SG_CHAIN_BLOCK_PAGES, sizeof(*want),
				   GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, want);
	for_each_sg(fx->table.sgl, sg, fx->nents, i) {
		unsigned int p, pages = DIV_ROUND_UP(sg->offset + sg->length,
						     PAGE_SIZE);

		/* Not a mapping: the DMA iterator only does arithmetic on it. */
		sg_dma_address(sg) = PFN_PHYS(fx->first_pfn + fx->segs[i].first) +
				     sg->offset;
		sg_dma_len(sg) = sg->length;
		for (p = 0; p < pages; p++)
			want[n++] = fx->first_pfn + fx->segs[i].first + p;
	}
	for (start = 0; start < n; start += 37) {
		unsigned int wrong = 0;

		got = 0;
		for_each_sg_page(fx->table.sgl, &piter, fx->nents, start) {
			wrong += start + got >= n ||
				 page_to_pfn(sg_page_iter_page(&piter)) != want[start + got];
			got++;
		}
		KUNIT_EXPECT_EQ_MSG(test, got, n - start, "pages from page %u", start);
		KUNIT_EXPECT_EQ_MSG(test, wrong, 0, "wrong pages from page %u", start);
	}
	got = 0;
	for_each_sg_dma_page(fx->table.sgl, &diter, fx->nents, 0) {
		KUNIT_EXPECT_LT(test, got, n);
		if (got < n)
			KUNIT_EXPECT_EQ(test, PHYS_PFN(sg_page_iter_dma_address(&diter)),
					want[got]);
		got++;
	}
	KUNIT_EXPECT_EQ(test, got, n);
}

/*
 * sg_split() in two and three parts around links, after no skip or a skip
 * of whole entries, the last part reaching the list's end or ending inside
 * an entry: each part holds the model's bytes of its range, no more.
 */
static void sg_chain_pages_test_split(struct kunit *test)
{
	unsigned int k, done[2] = { 0, 0 };
	struct sg_chain_pages_fx *fx;
	u8 *buf;

	sg_chain_copy_list(test);
	fx = test->priv;
	buf = fx->buf;
	for (k = 0; k < 120; k++) {
		size_t skip = sg_chain_split_skip(k, fx->start, fx->nents), at = skip, sizes[3];
		int parts = sg_chain_split_sizes(k, skip, sg_chain_skip(fx, k), fx->total, sizes);
		int out_nents[3], p;
		struct scatterlist *out[3];

		if (!parts)
			continue;
		KUNIT_ASSERT_EQ(test, sg_split(fx->table.sgl, 0, skip, parts, sizes,
					       out, out_nents, GFP_KERNEL), 0);
		done[!!skip]++;
		for (p = 0; p < parts; p++) {
			KUNIT_EXPECT_EQ(test, sg_nents(out[p]), out_nents[p]);
			KUNIT_EXPECT_EQ(test, sg_copy_to_buffer(out[p], sg_nents(out[p]),
								buf, sizes[p]), sizes[p]);
			KUNIT_EXPECT_EQ_MSG(test, memcmp(buf, fx->model + at, sizes[p]), 0,
					    "split %u: part %d (%zu bytes at %zu)",
					    k, p, sizes[p], at);
			KUNIT_EXPECT_EQ_MSG(test, sg_chain_list_bytes(out[p], out_nents[p]),
					    sizes[p], "split %u: bytes part %d describes", k, p);
			at += sizes[p];
			kfree(out[p]);
		}
	}
	/* Both kinds ran, not a loop of skipped points. */
	KUNIT_EXPECT_GE(test, done[0], 30);
	KUNIT_EXPECT_GE(test, done[1], 20);
}

/*
 * Parts of size 0: after parts that reach the list's end, -EINVAL (they
 * have no entry); between others, an empty entry.
 */
static void sg_chain_pages_test_split_zero_parts(struct kunit *test)
{
	struct sg_chain_pages_fx *fx;
	struct scatterlist *out[3];
	size_t past_end[2], between[3] = { 100, 0, 200 };
	int out_nents[3], p;

	sg_chain_copy_list(test);
	fx = test->priv;
	past_end[0] = fx->total;
	past_end[1] = 0;
	KUNIT_EXPECT_EQ(test, sg_split(fx->table.sgl, 0, 0, 2, past_end, out, out_nents,
				       GFP_KERNEL), -EINVAL);
	KUNIT_ASSERT_EQ(test, sg_split(fx->table.sgl, 0, 0, 3, between, out, out_nents,
				       GFP_KERNEL), 0);
	for (p = 0; p < 3; p++) {
		KUNIT_EXPECT_EQ(test, sg_chain_list_bytes(out[p], out_nents[p]), between[p]);
		kfree(out[p]);
	}
}

/*
 * sgl_alloc_order(): ceil(length / block) entries, the last shorter, and
 * memory that holds a pattern written through the list.
 */
static void sg_chain_pages_test_sgl_alloc_order(struct kunit *test)
{
	static const unsigned long long lengths[] = {
		1, PAGE_SIZE, PAGE_SIZE + 1, 129 * PAGE_SIZE - 3,
	};
	unsigned int order, l, chainable;
	u8 *buf, *back;

	buf = kunit_kmalloc(test, lengths[ARRAY_SIZE(lengths) - 1], GFP_KERNEL);
	back = kunit_kmalloc(test, lengths[ARRAY_SIZE(lengths) - 1], GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, buf);
	KUNIT_ASSERT_NOT_NULL(test, back);
	for (order = 0; order <= 3; order++) {
		for (l = 0; l < ARRAY_SIZE(lengths); l++) {
			for (chainable = 0; chainable <= 1; chainable++) {
				unsigned long long len = lengths[l];
				unsigned long block = PAGE_SIZE << order;
				unsigned int want = DIV_ROUND_UP_ULL(len, block);
				struct scatterlist *sgl, *sg;
				unsigned int nents, i;

				sgl = sgl_alloc_order(len, order, chainable,
						      GFP_KERNEL, &nents);
				KUNIT_ASSERT_NOT_NULL(test, sgl);
				KUNIT_EXPECT_EQ(test, nents, want);
				for_each_sg(sgl, sg, nents, i)
					KUNIT_EXPECT_EQ(test, sg->length,
							i + 1 < want ? block :
							len - (want - 1) * block);
				for (i = 0; i < len; i++)
					buf[i] = i * 13 + order;
				KUNIT_EXPECT_EQ(test, sg_copy_from_buffer(sgl, nents,
									  buf, len), len);
				KUNIT_EXPECT_EQ(test, sg_copy_to_buffer(sgl, nents,
									back, len), len);
				KUNIT_EXPECT_EQ(test, memcmp(buf, back, len), 0);
				sgl_free_order(sgl, order);
			}
		}
	}
}

#ifdef CONFIG_HIGHMEM
/*
 * Where the machine has highmem, the block is in it, so that every case
 * walks pages without a lasting kernel address. Kernels without highmem
 * have no such case: kunit.py's runs fail on a skip.
 */
static void sg_chain_pages_test_highmem(struct kunit *test)
{
	struct sg_chain_pages_fx *fx = test->priv;

	if (!totalhigh_pages())
		kunit_skip(test, "no highmem on this machine");
	KUNIT_EXPECT_TRUE_MSG(test, PageHighMem(fx->block),
			      "the block (pfn %#lx) is in lowmem", fx->first_pfn);
}
#endif

static struct kunit_case sg_chain_pages_test_cases[] = {
	KUNIT_CASE_PARAM(sg_chain_pages_test_from_pages,
			 sg_chain_layout_gen_params),
	KUNIT_CASE_PARAM(sg_chain_pages_test_append_in_steps,
			 sg_chain_steps_gen_params),
#ifdef CONFIG_HIGHMEM
	KUNIT_CASE(sg_chain_pages_test_highmem),
#endif
	KUNIT_CASE(sg_chain_pages_test_copies),
	KUNIT_CASE(sg_chain_pages_test_miter),
	KUNIT_CASE(sg_chain_pages_test_page_iterators),
	KUNIT_CASE(sg_chain_pages_test_split),
	KUNIT_CASE(sg_chain_pages_test_split_zero_parts),
	KUNIT_CASE(sg_chain_pages_test_sgl_alloc_order),
	{}
};

static struct kunit_suite sg_chain_pages_test_suite = {
	.name = "sg_chain_pages",
	.init = sg_chain_pages_init,
	.exit = sg_chain_pages_exit,
	.test_cases = sg_chain_pages_test_cases,
};

kunit_test_suites(&sg_chain_pages_test_suite);

MODULE_DESCRIPTION("KUnit tests of chained scatterlists built from pages");
MODULE_LICENSE("GPL");
