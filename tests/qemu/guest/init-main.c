/*
 * PID 1 of the test initramfs where there is no busybox (make qemu-parisc):
 * the same I/O checks as the shell init of the x86 run, in C, built static
 * with the cross compiler. The kernel has already run the KUnit suites;
 * this moves big I/O through scsi_debug with /bin/sgio (data checked, the
 * commands counted in /sys/block/X/stat) and reports KTAP suite
 * "sg_chain_io", then ends the VM (QEMU runs with -no-reboot).
 *
 * The host passes expectations on the kernel command line, which reach
 * init as environment variables:
 *   sgchain_max_segments   the queue's max_segments the series must give
 *                          (SG_MAX_SEGMENTS: 128 where lists cannot chain)
 */
#include <sys/klog.h>
#include <sys/mount.h>
#include <sys/reboot.h>

#include "guest.h"

#define PAGE	4096
#define SEED	0x5eed

static const unsigned int sweep_pages[] = { 1, 127, 128, 129, 256, 1024, 2048 };
#define NSWEEP	(sizeof(sweep_pages) / sizeof(sweep_pages[0]))

/* A disk whose model is scsi_debug. */
static int is_scsi_debug(const char *disk, const void *arg)
{
	char path[320];

	(void)arg;
	snprintf(path, sizeof(path), "/sys/block/%s/device/model", disk);
	return strstr(read_line(path), "scsi_debug") != NULL;
}

int main(void)
{
	const char *want_segs_env = getenv("sgchain_max_segments");
	long want_segs = want_segs_env ? strtol(want_segs_env, NULL, 0) : 0;
	long hw, max_kb, max_segs, align, per_cmd;
	char disk[256] = "sda", queue[300], dev[300];
	unsigned long long off = 0;
	unsigned int i;

	mount("proc", "/proc", "proc", 0, NULL);
	mount("sysfs", "/sys", "sysfs", 0, NULL);
	mount("devtmpfs", "/dev", "devtmpfs", 0, NULL);
	/* Keep kernel messages out of the KTAP block from here on. */
	klogctl(8, NULL, 1);

	printf("KTAP version 1\n1..1\n    KTAP version 1\n    # Subtest: sg_chain_io\n");
	printf("    1..%zu\n", 3 + NSWEEP);

	result(!find_sd(is_scsi_debug, NULL, disk, sizeof(disk)), "scsi_debug_disk_found",
	       "no scsi_debug disk in /sys/block");
	snprintf(queue, sizeof(queue), "/sys/block/%s/queue", disk);
	snprintf(dev, sizeof(dev), "/dev/%s", disk);

	/* As large as the driver accepts: halve until it does. */
	hw = read_long(queue, "max_hw_sectors_kb");
	raise_max_sectors(queue);
	max_kb = read_long(queue, "max_sectors_kb");
	max_segs = read_long(queue, "max_segments");
	align = read_long(queue, "dma_alignment") + 1;
	if (align < PAGE)
		align = PAGE;
	diag("%s: max_hw_sectors_kb=%ld max_sectors_kb=%ld max_segments=%ld dma_alignment+1=%ld",
	     disk, hw, max_kb, max_segs, align);
	result(want_segs && max_segs == want_segs, "queue_max_segments_as_expected",
	       "max_segments=%ld, want %ld (sgchain_max_segments)", max_segs, want_segs);
	result(max_kb >= max_segs * PAGE / 1024, "queue_takes_a_full_table_per_command",
	       "max_sectors_kb=%ld < %ld segments of a page", max_kb, max_segs);

	/* One segment per page (scsi_debug does not merge): a command per table. */
	per_cmd = max_segs < max_kb * 1024 / PAGE ? max_segs : max_kb * 1024 / PAGE;
	for (i = 0; i < NSWEEP; i++) {
		unsigned long long bytes = (unsigned long long)sweep_pages[i] * PAGE;
		long cmds = (sweep_pages[i] + per_cmd - 1) / per_cmd;
		char name[64], want[160], got[512], a_off[32], a_n[32], a_align[32], a_seed[16];
		char *args[] = { "sgio", "rw", dev, a_off, a_n, "0", a_seed, a_align, NULL };

		snprintf(a_off, sizeof(a_off), "%llu", off);
		snprintf(a_n, sizeof(a_n), "%llu", bytes);
		snprintf(a_align, sizeof(a_align), "%ld", align);
		snprintf(a_seed, sizeof(a_seed), "%d", SEED + i);
		snprintf(name, sizeof(name), "sweep_%u_pages", sweep_pages[i]);
		snprintf(want, sizeof(want),
			 "write_cmds=%ld write_sectors=%llu read_cmds=%ld read_sectors=%llu data=ok",
			 cmds, bytes / 512, cmds, bytes / 512);
		if (sgio(got, sizeof(got), args) || strcmp(got, want))
			diag("%s: %s", name, got);
		result(!strcmp(got, want), name, "want %s", want);
		off += bytes;
	}

	printf("%s 1 sg_chain_io\n", failures || tests != 3 + NSWEEP ? "not ok" : "ok");
	printf("sgchain-init: done\n");
	fflush(stdout);
	sync();
	reboot(RB_AUTOBOOT);
	return 0;
}
