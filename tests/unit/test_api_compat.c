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

#include <linux/scatterlist.h>

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
	assert_int_equal(sg_dma_len(&one), 0);

	assert_int_equal(sg_alloc_table(&table, KMALLOC_LEN, GFP_KERNEL), 0);
	assert_int_equal(sg_nents(table.sgl), KMALLOC_LEN);
	sg_free_table(&table);
	assert_int_equal(sg_alloc_table(&table, 0, GFP_ATOMIC), -EINVAL);
	/* The kernel's numbers, which kernel-API tests may print or compare. */
	assert_int_equal(EINVAL, 22);
	assert_int_equal(ENOMEM, 12);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_chained_list),
		cmocka_unit_test(test_kernel_buffer_and_errors),
	};

	return cmocka_run_group_tests_name("api_compat", tests, NULL, NULL);
}
