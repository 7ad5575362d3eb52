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
#define _GNU_SOURCE
#include <dirent.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/klog.h>
#include <sys/mount.h>
#include <sys/reboot.h>
#include <sys/wait.h>
#include <unistd.h>

#define PAGE	4096
#define SEED	0x5eed

static const unsigned int sweep_pages[] = { 1, 127, 128, 129, 256, 1024, 2048 };
#define NSWEEP	(sizeof(sweep_pages) / sizeof(sweep_pages[0]))

static unsigned int tests, failures;

static void result(int ok, const char *name, const char *fmt, ...)
{
	va_list ap;

	tests++;
	printf("    %s %u %s", ok ? "ok" : "not ok", tests, name);
	if (!ok) {
		failures++;
		printf(" # ");
		va_start(ap, fmt);
		vprintf(fmt, ap);
		va_end(ap);
	}
	printf("\n");
	fflush(stdout);
}

static void diag(const char *fmt, ...)
{
	va_list ap;

	printf("    # ");
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	printf("\n");
	fflush(stdout);
}

/* The first line of a sysfs file, or "" */
static const char *read_line(const char *path)
{
	static char buf[256];
	FILE *f = fopen(path, "r");

	buf[0] = '\0';
	if (f) {
		if (!fgets(buf, sizeof(buf), f))
			buf[0] = '\0';
		fclose(f);
	}
	buf[strcspn(buf, "\n")] = '\0';
	return buf;
}

static long read_long(const char *dir, const char *file)
{
	char path[512];

	snprintf(path, sizeof(path), "%s/%s", dir, file);
	return strtol(read_line(path), NULL, 0);
}

static int write_long(const char *dir, const char *file, long value)
{
	char path[512], text[32];
	int fd, ok;

	snprintf(path, sizeof(path), "%s/%s", dir, file);
	snprintf(text, sizeof(text), "%ld", value);
	fd = open(path, O_WRONLY);
	if (fd < 0)
		return -1;
	ok = write(fd, text, strlen(text)) == (ssize_t)strlen(text);
	close(fd);
	return ok ? 0 : -1;
}

/* The sd disk whose model is scsi_debug, waiting up to 10 s for it. */
static int find_disk(char *name, size_t len)
{
	int tries;

	for (tries = 0; tries < 20; tries++) {
		DIR *d = opendir("/sys/block");
		struct dirent *e;

		while (d && (e = readdir(d))) {
			char path[320];

			if (strncmp(e->d_name, "sd", 2))
				continue;
			snprintf(path, sizeof(path), "/sys/block/%s/device/model", e->d_name);
			if (strstr(read_line(path), "scsi_debug")) {
				snprintf(name, len, "%s", e->d_name);
				closedir(d);
				return 0;
			}
		}
		if (d)
			closedir(d);
		usleep(500000);
	}
	return -1;
}

/* Run /bin/sgio with @args; its first output line into @out. */
static int sgio(char *out, size_t len, char *const args[])
{
	int pipefd[2], status;
	ssize_t n, got = 0;
	pid_t pid;

	if (pipe(pipefd))
		return -1;
	pid = fork();
	if (pid == 0) {
		dup2(pipefd[1], 1);
		dup2(pipefd[1], 2);
		close(pipefd[0]);
		execv("/bin/sgio", args);
		_exit(127);
	}
	close(pipefd[1]);
	while (got < (ssize_t)len - 1 &&
	       (n = read(pipefd[0], out + got, len - 1 - got)) > 0)
		got += n;
	close(pipefd[0]);
	out[got] = '\0';
	out[strcspn(out, "\n")] = '\0';
	waitpid(pid, &status, 0);
	return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

int main(void)
{
	const char *want_segs_env = getenv("sgchain_max_segments");
	long want_segs = want_segs_env ? strtol(want_segs_env, NULL, 0) : 0;
	long hw, try, max_kb, max_segs, align, per_cmd;
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

	result(!find_disk(disk, sizeof(disk)), "scsi_debug_disk_found",
	       "no scsi_debug disk in /sys/block");
	snprintf(queue, sizeof(queue), "/sys/block/%s/queue", disk);
	snprintf(dev, sizeof(dev), "/dev/%s", disk);

	/* As large as the driver accepts: halve until it does. */
	hw = read_long(queue, "max_hw_sectors_kb");
	for (try = hw; try >= 4 && write_long(queue, "max_sectors_kb", try); try /= 2)
		;
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
