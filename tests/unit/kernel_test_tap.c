/*
 * TAP for one of the kernel's own userspace tests, built unchanged over
 * usim with its main() renamed to kernel_test_main (-D on the command
 * line): one result, passing when it returns 0. Such tests exit(1) on a
 * failure; the exit handler reports that as the failed result.
 */
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>

int kernel_test_main(void);

static bool finished;

static void report_exit(void)
{
	if (!finished)
		printf("not ok 1 - %s exited before its end\n", KERNEL_TEST_NAME);
}

int main(void)
{
	int rc;

	printf("1..1\n");
	fflush(stdout);
	atexit(report_exit);
	rc = kernel_test_main();
	finished = true;
	printf("%sok 1 - %s\n", rc ? "not " : "", KERNEL_TEST_NAME);
	return rc;
}
