/*
 * The seed's SCSI command layer over the core: commands of every size up
 * to SCSI_MAX_SG_CHAIN_SEGMENTS, freed correctly after a DMA mapping has
 * lowered use_sg, unwinding on every allocation failure.
 */
#include "scsi_sgtable.h"
#include "usim_test.h"

static unsigned int largest_command(void)
{
	return CAN_CHAIN ? SCSI_MAX_SG_CHAIN_SEGMENTS : SCSI_MAX_SG_SEGMENTS;
}

static void test_every_command_size(void **state)
{
	unsigned int n;

	(void)state;
	for (n = 1; n <= largest_command(); n++) {
		struct scsi_cmnd cmd = { .use_sg = n };

		assert_non_null(scsi_alloc_sgtable(&cmd, GFP_ATOMIC));
		assert_list_shape(cmd.request_buffer, n, SCSI_MAX_SG_SEGMENTS,
				  SCSI_MAX_SG_SEGMENTS);
		scsi_free_sgtable(&cmd);
		assert_null(cmd.request_buffer);
		assert_int_equal(usim_mempool_outstanding_all(), 0);
	}
}

static void test_free_after_mapping_lowered_use_sg(void **state)
{
	unsigned int n, mapped;

	(void)state;
	/* A merging IOMMU maps n entries into fewer segments and says so in use_sg. */
	for (n = 1; n <= largest_command(); n += 37) {
		for (mapped = 1; mapped <= n; mapped += 1 + n / 5) {
			struct scsi_cmnd cmd = { .use_sg = n };

			assert_non_null(scsi_alloc_sgtable(&cmd, GFP_ATOMIC));
			cmd.use_sg = mapped;
			scsi_free_sgtable(&cmd);
			if (usim_mempool_outstanding_all())
				fail_msg("use_sg %u lowered to %u: %lu tables leaked", n,
					 mapped, usim_mempool_outstanding_all());
		}
	}
}

static void test_unwinds_on_every_failure(void **state)
{
	unsigned int s;
	unsigned long k;

	(void)state;
	for (s = 0; s < ARRAY_SIZE(sg_chain_boundary_sizes); s++) {
		unsigned int n = sg_chain_boundary_sizes[s];
		struct sg_chain_shape shape =
			sg_chain_expected_shape(n, SCSI_MAX_SG_SEGMENTS, SCSI_MAX_SG_SEGMENTS);

		if (n > largest_command())
			continue;
		for (k = 0; k < shape.tables; k++) {
			struct scsi_cmnd cmd = { .use_sg = n };

			usim_fault_fail_nth(&usim_mempool_fault, k);
			assert_null(scsi_alloc_sgtable(&cmd, GFP_ATOMIC));
			assert_int_equal(usim_mempool_fault.failures, 1);
			assert_null(cmd.request_buffer);
			assert_int_equal(cmd.__use_sg, 0);
			assert_int_equal(usim_mempool_outstanding_all(), 0);
		}
	}
}

static void test_refuses_bad_counts(void **state)
{
	struct scsi_cmnd none = { .use_sg = 0 };
	struct scsi_cmnd too_many = { .use_sg = SCSI_MAX_SG_CHAIN_SEGMENTS + 1 };

	(void)state;
	assert_null(scsi_alloc_sgtable(&none, GFP_ATOMIC));
	assert_null(scsi_alloc_sgtable(&too_many, GFP_ATOMIC));
	assert_int_equal(usim_alloc_log_count(), 0);
}

static void test_sleeps_only_for_the_first_table(void **state)
{
	struct scsi_cmnd cmd = { .use_sg = CAN_CHAIN ? 2048 : 128 };
	unsigned long i, seen = 0;

	(void)state;
	assert_non_null(scsi_alloc_sgtable(&cmd, GFP_NOIO));
	for (i = 0; i < usim_alloc_log_count(); i++) {
		const struct usim_alloc_record *r = usim_alloc_log_get(i);

		if (r->site != USIM_ALLOC_MEMPOOL)
			continue;
		assert_int_equal(!!(r->gfp & __GFP_DIRECT_RECLAIM), seen == 0);
		seen++;
	}
	assert_int_equal(seen, CAN_CHAIN ? 17 : 1);
	scsi_free_sgtable(&cmd);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		USIM_TEST(test_every_command_size),
		USIM_TEST(test_free_after_mapping_lowered_use_sg),
		USIM_TEST(test_unwinds_on_every_failure),
		USIM_TEST(test_refuses_bad_counts),
		USIM_TEST(test_sleeps_only_for_the_first_table),
	};

	return cmocka_run_group_tests_name("scsi_sgtable", tests, NULL, NULL);
}
