/*
 * sg_validate(): each kind of corrupt list, built by hand, and the code it
 * must report; lists the allocators build are checked valid elsewhere
 * (assert_list_shape() in every allocation suite).
 *
 *   a: [d][d][d][link] --> b: [d][d][d+END]      the valid start of each case
 */
#include <stdint.h>

#include "usim_test.h"

static struct scatterlist a[4], b[3];

static void build_valid(void)
{
	unsigned int i;

	sg_init_table(a, 4);
	sg_init_table(b, 3);
	for (i = 0; i < 3; i++) {
		a[i].length = 100 + i;
		b[i].length = 200 + i;
	}
	sg_chain(a, 4, b);
}

static void test_valid_list(void **state)
{
	(void)state;
	build_valid();
	assert_int_equal(sg_validate(a, 6), SG_VALID);
	assert_int_equal(sg_validate(&a[2], 4), SG_VALID);
	assert_int_equal(sg_validate(a, 0), SG_VALID);
}

static void test_cycle(void **state)
{
	(void)state;
	/* b's last entry links back to a: the walk never ends. */
	build_valid();
	sg_unmark_end(&b[2]);
	sg_chain(b, 3, a);
	assert_int_equal(sg_validate(a, 1000), SG_INVALID_CYCLE);
	assert_int_equal(sg_validate(a, UINT32_MAX), SG_INVALID_CYCLE);
	/* A table that links to itself. */
	build_valid();
	sg_chain(a, 4, a);
	assert_int_equal(sg_validate(a, 10), SG_INVALID_CYCLE);
	/* A cycle the head is not on: b links back to itself, after a. */
	build_valid();
	sg_unmark_end(&b[2]);
	sg_chain(b, 3, b);
	assert_int_equal(sg_validate(a, 1000), SG_INVALID_CYCLE);
	/* Asked for fewer entries than the cycle: the end is simply missing. */
	assert_int_equal(sg_validate(a, 2), SG_INVALID_NO_END);
}

static void test_bad_link(void **state)
{
	(void)state;
	build_valid();
	sg_chain(a, 4, NULL);
	assert_int_equal(sg_validate(a, 6), SG_INVALID_LINK);

	build_valid();
	sg_chain(a, 4, (struct scatterlist *)((char *)b + 4));
	assert_int_equal(sg_validate(a, 6), SG_INVALID_LINK);

	/* A link to a link: sg_next() would hand the second one out as data. */
	build_valid();
	sg_chain(b, 1, a);
	assert_int_equal(sg_validate(a, 6), SG_INVALID_LINK);

	/* A list that starts with a link. */
	build_valid();
	assert_int_equal(sg_validate(&a[3], 3), SG_INVALID_LINK);
	assert_int_equal(sg_validate(NULL, 3), SG_INVALID_LINK);
}

static void test_link_with_data(void **state)
{
	(void)state;
	build_valid();
	a[3].length = 512;
	assert_int_equal(sg_validate(a, 6), SG_INVALID_LINK_DATA);
	build_valid();
	a[3].offset = 8;
	assert_int_equal(sg_validate(a, 6), SG_INVALID_LINK_DATA);
}

static void test_end_markers(void **state)
{
	(void)state;
	build_valid();
	sg_mark_end(&a[1]);
	assert_int_equal(sg_validate(a, 6), SG_INVALID_EARLY_END);
	assert_int_equal(sg_validate(a, 2), SG_VALID);

	build_valid();
	sg_unmark_end(&b[2]);
	assert_int_equal(sg_validate(a, 6), SG_INVALID_NO_END);
	/* Asking for fewer entries than marked: no end where asked. */
	build_valid();
	assert_int_equal(sg_validate(a, 5), SG_INVALID_NO_END);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		USIM_TEST(test_valid_list),
		USIM_TEST(test_cycle),
		USIM_TEST(test_bad_link),
		USIM_TEST(test_link_with_data),
		USIM_TEST(test_end_markers),
	};

	return cmocka_run_group_tests_name("sg_validate", tests, NULL, NULL);
}
