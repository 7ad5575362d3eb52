/*
 * Fixture for the cmocka suites on usim. Setup disarms faults, empties the
 * allocation log and notes the counters; teardown fails the test if it
 * left anything allocated, made a mock report an error, or warned, unless
 * the test said it expected that.
 */
#ifndef _USIM_TEST_H
#define _USIM_TEST_H

#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <linux/scatterlist.h>

#include "alloc_log.h"
#include "fault_inject.h"
#include "mock_mempool.h"
#include "mock_slab.h"
#include "usim_report.h"
#include "sg_chain_cases.h"

#ifdef CONFIG_ARCH_NO_SG_CHAIN
#define CAN_CHAIN	false
#else
#define CAN_CHAIN	true
#endif

int usim_test_setup(void **state);
int usim_test_teardown(void **state);

/* The test caused these on purpose: take them out of the teardown check. */
void usim_test_expect_errors(unsigned long n);
void usim_test_expect_warnings(unsigned long n);

/* Objects and pool elements allocated since setup, reserves excluded. */
long usim_test_slab_delta(void);
/* Elements handed out by the sg pools, by pool size (8..128). */
unsigned long sgpool_outstanding(unsigned int size);
/* Mempool calls in the allocation log. */
unsigned long alloc_log_count_site(enum usim_alloc_site site);

/* Distinct lengths 1, 2, 3, ... for the model checks, big enough for any list. */
const unsigned int *test_lengths(void);
/* Give the entries of a list lengths test_lengths()[0..nents). */
void fill_lengths(struct scatterlist *sgl, unsigned int nents);
/* sg_chain_check_list() as a cmocka assertion, also checking sg_last(). */
void assert_list_shape(struct scatterlist *sgl, unsigned int nents,
		       unsigned int cap1, unsigned int max);

#define USIM_TEST(fn)	cmocka_unit_test_setup_teardown(fn, usim_test_setup, usim_test_teardown)

#endif
