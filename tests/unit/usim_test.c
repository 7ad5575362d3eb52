/* The shared fixture of the usim cmocka suites (see usim_test.h). */
#include <stdio.h>
#include <stdlib.h>

#include "usim_test.h"

static unsigned long base_slab, base_errors, base_warnings;

int usim_test_setup(void **state)
{
	(void)state;
	usim_fault_reset(&usim_slab_fault);
	usim_fault_reset(&usim_mempool_fault);
	usim_alloc_log_reset();
	base_slab = usim_slab_outstanding();
	base_errors = usim_error_count();
	base_warnings = usim_warn_count();
	return 0;
}

int usim_test_teardown(void **state)
{
	(void)state;
	usim_fault_reset(&usim_slab_fault);
	usim_fault_reset(&usim_mempool_fault);
	assert_int_equal(usim_mempool_outstanding_all(), 0);
	assert_int_equal(usim_test_slab_delta(), 0);
	/* Freed memory must still hold its poison. */
	usim_slab_flush_quarantine();
	assert_int_equal(usim_error_count(), base_errors);
	assert_int_equal(usim_warn_count(), base_warnings);
	return 0;
}

void usim_test_expect_errors(unsigned long n)
{
	base_errors += n;
}

void usim_test_expect_warnings(unsigned long n)
{
	base_warnings += n;
}

long usim_test_slab_delta(void)
{
	return (long)usim_slab_outstanding() - (long)base_slab;
}

unsigned long sgpool_outstanding(unsigned int size)
{
	char name[32];
	mempool_t *pool;

	snprintf(name, sizeof(name), "sgpool-%u", size);
	pool = usim_mempool_find(name);
	assert_non_null(pool);
	return usim_mempool_outstanding(pool);
}

unsigned long alloc_log_count_site(enum usim_alloc_site site)
{
	unsigned long i, n = 0;

	for (i = 0; i < usim_alloc_log_count(); i++)
		n += usim_alloc_log_get(i)->site == site;
	return n;
}

/* Longer than any list a suite builds (SG_CHAIN_TEST_MAX_NENTS and 65536). */
#define TEST_LENGTHS_MAX	(1u << 17)

static unsigned int *lengths;

const unsigned int *test_lengths(void)
{
	unsigned int i;

	if (!lengths) {
		lengths = malloc(sizeof(*lengths) * (TEST_LENGTHS_MAX));
		assert_non_null(lengths);
		for (i = 0; i < TEST_LENGTHS_MAX; i++)
			lengths[i] = i + 1;
	}
	return lengths;
}

__attribute__((destructor)) static void free_lengths(void)
{
	free(lengths);
}

void fill_lengths(struct scatterlist *sgl, unsigned int nents)
{
	const unsigned int *lengths = test_lengths();
	struct scatterlist *sg;
	unsigned int i;

	assert_true(nents <= TEST_LENGTHS_MAX);
	for_each_sg(sgl, sg, nents, i)
		sg->length = lengths[i];
}

void assert_list_shape(struct scatterlist *sgl, unsigned int nents,
		       unsigned int cap1, unsigned int max)
{
	struct sg_chain_shape shape = sg_chain_expected_shape(nents, cap1, max);
	struct scatterlist *last;
	char why[160];

	fill_lengths(sgl, nents);
	if (sg_chain_check_list(sgl, nents, &shape, max, test_lengths(), &last,
				why, sizeof(why)))
		fail_msg("list of %u (tables %u + %u): %s", nents, cap1, max, why);
	assert_ptr_equal(sg_last(sgl, nents), last);
	assert_int_equal(sg_nents(sgl), nents);
	assert_int_equal(sg_validate(sgl, nents), SG_VALID);
}
