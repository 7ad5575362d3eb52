/*
 * Written against the kernel API alone, as any kernel test would be: it
 * includes <linux/scatterlist.h> and links with libusim.a, nothing else of
 * sgchain. The function-pointer table fails to compile if a signature
 * drifts from Linux 6.1's.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <linux/gfp.h>
#include <linux/scatterlist.h>
#include <linux/slab.h>

static const struct {
	bool (*is_chain)(struct scatterlist *);
	bool (*is_last)(struct scatterlist *);
	struct scatterlist *(*chain_ptr)(struct scatterlist *);
	void (*assign_page)(struct scatterlist *, struct page *);
	void (*set_page)(struct scatterlist *, struct page *, unsigned int, unsigned int);
	struct page *(*page)(struct scatterlist *);
	void (*__chain)(struct scatterlist *, struct scatterlist *);
	void (*chain)(struct scatterlist *, unsigned int, struct scatterlist *);
	void (*mark_end)(struct scatterlist *);
	void (*unmark_end)(struct scatterlist *);
	void (*init_table)(struct scatterlist *, unsigned int);
	void (*init_one)(struct scatterlist *, const void *, unsigned int);
	struct scatterlist *(*next)(struct scatterlist *);
	int (*nents)(struct scatterlist *);
	int (*nents_for_len)(struct scatterlist *, u64);
	struct scatterlist *(*last)(struct scatterlist *, unsigned int);
	int (*__alloc_table)(struct sg_table *, unsigned int, unsigned int,
			     struct scatterlist *, unsigned int, gfp_t, sg_alloc_fn *);
	void (*__free_table)(struct sg_table *, unsigned int, unsigned int,
			     sg_free_fn *, unsigned int);
	int (*alloc_table)(struct sg_table *, unsigned int, gfp_t);
	void (*free_table)(struct sg_table *);
	int (*alloc_table_chained)(struct sg_table *, int, struct scatterlist *, unsigned);
	void (*free_table_chained)(struct sg_table *, unsigned);
} api = {
	sg_is_chain, sg_is_last, sg_chain_ptr, sg_assign_page, sg_set_page,
	sg_page, __sg_chain, sg_chain, sg_mark_end, sg_unmark_end,
	sg_init_table, sg_init_one, sg_next, sg_nents, sg_nents_for_len,
	sg_last, __sg_alloc_table, __sg_free_table, sg_alloc_table,
	sg_free_table, sg_alloc_table_chained, sg_free_table_chained,
};

/* The rest of 6.1's API, which usim compiles from the kernel's own files. */
static const struct {
	int (*split)(struct scatterlist *, const int, const off_t, const int,
		     const size_t *, struct scatterlist **, int *, gfp_t);
	void (*free_append_table)(struct sg_append_table *);
	int (*alloc_append_table_from_pages)(struct sg_append_table *, struct page **,
					     unsigned int, unsigned int, unsigned long,
					     unsigned int, unsigned int, gfp_t);
	int (*alloc_table_from_pages_segment)(struct sg_table *, struct page **,
					      unsigned int, unsigned int, unsigned long,
					      unsigned int, gfp_t);
	int (*alloc_table_from_pages)(struct sg_table *, struct page **, unsigned int,
				      unsigned int, unsigned long, gfp_t);
	struct scatterlist *(*sgl_alloc_order)(unsigned long long, unsigned int, bool,
					       gfp_t, unsigned int *);
	struct scatterlist *(*sgl_alloc)(unsigned long long, gfp_t, unsigned int *);
	void (*sgl_free_n_order)(struct scatterlist *, int, int);
	void (*sgl_free_order)(struct scatterlist *, int);
	void (*sgl_free)(struct scatterlist *);
	size_t (*copy_buffer)(struct scatterlist *, unsigned int, void *, size_t, off_t, bool);
	size_t (*copy_from_buffer)(struct scatterlist *, unsigned int, const void *, size_t);
	size_t (*copy_to_buffer)(struct scatterlist *, unsigned int, void *, size_t);
	size_t (*pcopy_from_buffer)(struct scatterlist *, unsigned int, const void *,
				    size_t, off_t);
	size_t (*pcopy_to_buffer)(struct scatterlist *, unsigned int, void *, size_t, off_t);
	size_t (*zero_buffer)(struct scatterlist *, unsigned int, size_t, off_t);
	bool (*page_iter_next)(struct sg_page_iter *);
	bool (*page_iter_dma_next)(struct sg_dma_page_iter *);
	void (*page_iter_start)(struct sg_page_iter *, struct scatterlist *, unsigned int,
				unsigned long);
	void (*miter_start)(struct sg_mapping_iter *, struct scatterlist *, unsigned int,
			    unsigned int);
	bool (*miter_skip)(struct sg_mapping_iter *, off_t);
	bool (*miter_next)(struct sg_mapping_iter *);
	void (*miter_stop)(struct sg_mapping_iter *);
} lib = {
	sg_split, sg_free_append_table, sg_alloc_append_table_from_pages,
	sg_alloc_table_from_pages_segment, sg_alloc_table_from_pages,
	sgl_alloc_order, sgl_alloc, sgl_free_n_order, sgl_free_order, sgl_free,
	sg_copy_buffer, sg_copy_from_buffer, sg_copy_to_buffer,
	sg_pcopy_from_buffer, sg_pcopy_to_buffer, sg_zero_buffer,
	__sg_page_iter_next, __sg_page_iter_dma_next, __sg_page_iter_start,
	sg_miter_start, sg_miter_skip, sg_miter_next, sg_miter_stop,
};

/* Longer than one table where the architecture can chain. */
#define LIST_LEN	(SG_MAX_SEGMENTS > SG_CHUNK_SIZE ? 300 : SG_CHUNK_SIZE)
#define KMALLOC_LEN	(SG_MAX_SEGMENTS > SG_CHUNK_SIZE ? 5000 : SG_MAX_SINGLE_ALLOC)

static void test_chained_list(void **state)
{
	struct sg_table table;
	struct scatterlist *sg;
	unsigned int i;
	int n = 0;

	(void)state;
	assert_int_equal(api.alloc_table_chained(&table, LIST_LEN, NULL, 0), 0);
	assert_int_equal(table.orig_nents, LIST_LEN);
	for_each_sg(table.sgl, sg, table.orig_nents, i) {
		sg->length = 4096;
		assert_false(sg_is_chain(sg));
	}
	for (sg = table.sgl; sg; sg = sg_next(sg))
		n++;
	assert_int_equal(n, LIST_LEN);
	assert_int_equal(sg_nents_for_len(table.sgl, LIST_LEN * 4096ULL), LIST_LEN);
	assert_int_equal(sg_nents_for_len(table.sgl, LIST_LEN * 4096ULL + 1), -EINVAL);
	assert_true(sg_is_last(sg_last(table.sgl, LIST_LEN)));
	sg_free_table_chained(&table, 0);
}

static void test_kernel_buffer_and_errors(void **state)
{
	static char buf[8192];
	struct sg_table table;
	struct scatterlist one;

	(void)state;
	sg_init_one(&one, buf + 10, 100);
	assert_int_equal(one.length, 100);
	assert_ptr_equal(sg_virt(&one), buf + 10);
	/* Without dma_length, sg_dma_len() reads the entry's own length. */
	assert_int_equal(sg_dma_len(&one), IS_ENABLED(CONFIG_NEED_SG_DMA_LENGTH) ? 0 : 100);

	assert_int_equal(sg_alloc_table(&table, KMALLOC_LEN, GFP_KERNEL), 0);
	assert_int_equal(sg_nents(table.sgl), KMALLOC_LEN);
	sg_free_table(&table);
	assert_int_equal(sg_alloc_table(&table, 0, GFP_ATOMIC), -EINVAL);
	/* The kernel's numbers, which kernel-API tests may print or compare. */
	assert_int_equal(EINVAL, 22);
	assert_int_equal(ENOMEM, 12);
}

/*
 * Pages from alloc_pages(), appended to a table in steps until it chains,
 * filled through sg_copy_buffer(), split in two with sg_split(), and read
 * back page by page with sg_miter: the bytes are where they were put.
 */
#define CAN_CHAIN	(SG_MAX_SEGMENTS > SG_CHUNK_SIZE)
/* Without chaining a table cannot grow: one call, one table. */
#define APPEND_PAGES	(CAN_CHAIN ? 300 : 100)
#define APPEND_STEP	(CAN_CHAIN ? 37 : APPEND_PAGES)

static unsigned char pattern_byte(size_t i)
{
	return (unsigned char)(i * 131 + (i >> 9));
}

static void test_pages_append_split_miter(void **state)
{
	static struct page *pages[APPEND_PAGES];
	static unsigned char buf[APPEND_PAGES * PAGE_SIZE];
	size_t bytes = sizeof(buf), i, seen = 0, sizes[2];
	struct sg_append_table append = { 0 };
	struct scatterlist *out[2];
	struct sg_mapping_iter miter;
	int out_nents[2];
	unsigned int done;

	(void)state;
	for (i = 0; i < APPEND_PAGES; i++) {
		pages[i] = alloc_page(GFP_KERNEL);
		assert_non_null(pages[i]);
	}
	for (done = 0; done < APPEND_PAGES; done += APPEND_STEP) {
		unsigned int n = APPEND_PAGES - done < APPEND_STEP ?
				 APPEND_PAGES - done : APPEND_STEP;

		assert_int_equal(lib.alloc_append_table_from_pages(&append, pages + done, n, 0,
								   n * PAGE_SIZE, UINT_MAX,
								   APPEND_PAGES - done - n,
								   GFP_KERNEL), 0);
	}
	/* alloc_page() blocks are never adjacent: no two pages merge. */
	assert_int_equal(append.sgt.nents, APPEND_PAGES);
	assert_true(!CAN_CHAIN || SG_MAX_SINGLE_ALLOC < APPEND_PAGES);

	for (i = 0; i < bytes; i++)
		buf[i] = pattern_byte(i);
	assert_int_equal(lib.copy_from_buffer(append.sgt.sgl, append.sgt.nents, buf, bytes),
			 bytes);
	memset(buf, 0, bytes);

	/* Where the lists chain, both parts cross a link. */
	sizes[0] = bytes / 2 + 1000;
	sizes[1] = bytes - sizes[0];
	/* Not DMA-mapped: no mapped entries to split. */
	assert_int_equal(lib.split(append.sgt.sgl, 0, 0, 2, sizes, out, out_nents,
				   GFP_KERNEL), 0);
	for (i = 0; i < 2; i++) {
		lib.miter_start(&miter, out[i], sg_nents(out[i]), SG_MITER_FROM_SG);
		while (lib.miter_next(&miter)) {
			memcpy(buf + seen, miter.addr, miter.length);
			seen += miter.length;
		}
		lib.miter_stop(&miter);
		kfree(out[i]);
	}
	assert_int_equal(seen, bytes);
	for (i = 0; i < bytes; i++)
		if (buf[i] != pattern_byte(i))
			fail_msg("byte %zu: %u, want %u", i, buf[i], pattern_byte(i));

	lib.free_append_table(&append);
	for (i = 0; i < APPEND_PAGES; i++)
		__free_page(pages[i]);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_chained_list),
		cmocka_unit_test(test_kernel_buffer_and_errors),
		cmocka_unit_test(test_pages_append_split_miter),
	};

	return cmocka_run_group_tests_name("api_compat", tests, NULL, NULL);
}
