/*
 * sgio: big O_DIRECT I/O with a known pattern, for the QEMU guest, and the
 * host-side check of a disk image written by it.
 *
 *   sgio rw DEV DISK_OFFSET NBYTES BUF_OFFSET SEED [ALIGN]
 *	write NBYTES of pattern from a buffer that starts BUF_OFFSET bytes
 *	past an ALIGN-aligned address (default: a page), read them back into
 *	a cleared buffer, compare; print the commands and sectors each
 *	direction added to /sys/block/X/stat. O_DIRECT wants buffers aligned
 *	to the queue's dma_alignment + 1, 32 KiB on QEMU's parisc machine.
 *   sgio write DEV DISK_OFFSET NBYTES SEED
 *	write the pattern only (for a disk the host checks after exit).
 *   sgio check FILE DISK_OFFSET NBYTES SEED
 *	compare a file (the disk image) with the pattern.
 *
 * The pattern depends on the disk offset and the seed, so data that lands
 * at the wrong place, twice, or not at all is caught.
 */
#define _GNU_SOURCE
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define PAGE	4096

/* Word w (4 bytes) of the disk, counted from offset 0, for @seed. */
static uint32_t pattern_word(uint64_t w, uint32_t seed)
{
	uint64_t x = (w + 1) * 0x9e3779b97f4a7c15ULL ^ seed;

	x ^= x >> 29;
	return (uint32_t)(x * 0xbf58476d1ce4e5b9ULL >> 32);
}

static void fill(uint8_t *buf, uint64_t disk_off, size_t n, uint32_t seed)
{
	size_t i;

	for (i = 0; i < n; i += 4) {
		uint32_t v = pattern_word((disk_off + i) / 4, seed);

		memcpy(buf + i, &v, 4);
	}
}

/* Index of the first differing byte, or -1. */
static long mismatch(const uint8_t *buf, uint64_t disk_off, size_t n,
		     uint32_t seed)
{
	uint8_t want[PAGE];
	size_t i, j;

	for (i = 0; i < n; i += PAGE) {
		size_t len = n - i < PAGE ? n - i : PAGE;

		fill(want, disk_off + i, len, seed);
		if (memcmp(buf + i, want, len))
			for (j = 0; j < len; j++)
				if (buf[i + j] != want[j])
					return (long)(i + j);
	}
	return -1;
}

/* Fields 1, 3, 5, 7 of /sys/block/NAME/stat: read/write ios and sectors. */
struct blkstat {
	unsigned long long rd_ios, rd_sec, wr_ios, wr_sec;
};

static int read_stat(const char *dev, struct blkstat *st)
{
	const char *name = strrchr(dev, '/') ? strrchr(dev, '/') + 1 : dev;
	unsigned long long f[8];
	char path[256];
	FILE *fp;
	int n;

	snprintf(path, sizeof(path), "/sys/block/%s/stat", name);
	fp = fopen(path, "r");
	if (!fp)
		return -1;
	n = fscanf(fp, "%llu %llu %llu %llu %llu %llu %llu %llu", &f[0],
		   &f[1], &f[2], &f[3], &f[4], &f[5], &f[6], &f[7]);
	fclose(fp);
	if (n != 8)
		return -1;
	*st = (struct blkstat){ f[0], f[2], f[4], f[6] };
	return 0;
}

static uint8_t *buffer_at(size_t n, size_t buf_off, size_t align, uint8_t **base)
{
	*base = aligned_alloc(align, (n + buf_off + align) / align * align + align);
	if (!*base) {
		perror("sgio: aligned_alloc");
		exit(1);
	}
	return *base + buf_off;
}

static int full_io(int fd, uint8_t *buf, size_t n, off_t off, int write)
{
	ssize_t done = write ? pwrite(fd, buf, n, off) : pread(fd, buf, n, off);

	if (done != (ssize_t)n) {
		fprintf(stderr, "sgio: %s of %zu bytes at %lld returned %zd: %m\n",
			write ? "write" : "read", n, (long long)off, done);
		return -1;
	}
	return 0;
}

static int cmd_rw(const char *dev, uint64_t off, size_t n, size_t buf_off,
		  uint32_t seed, size_t align)
{
	struct blkstat s0, s1, s2;
	uint8_t *base, *buf = buffer_at(n, buf_off, align, &base);
	long bad;
	int fd = open(dev, O_RDWR | O_DIRECT);

	if (fd < 0 || read_stat(dev, &s0)) {
		perror("sgio: open or stat");
		return 1;
	}
	fill(buf, off, n, seed);
	/* No fsync: a cache flush would count as one more write command. */
	if (full_io(fd, buf, n, off, 1) || read_stat(dev, &s1))
		return 1;
	memset(buf, 0, n);
	if (full_io(fd, buf, n, off, 0) || read_stat(dev, &s2))
		return 1;
	close(fd);
	bad = mismatch(buf, off, n, seed);
	printf("write_cmds=%llu write_sectors=%llu read_cmds=%llu read_sectors=%llu data=%s",
	       s1.wr_ios - s0.wr_ios, s1.wr_sec - s0.wr_sec,
	       s2.rd_ios - s1.rd_ios, s2.rd_sec - s1.rd_sec,
	       bad < 0 ? "ok" : "BAD");
	if (bad >= 0)
		printf(" first_bad_byte=%ld", bad);
	printf("\n");
	free(base);
	return bad < 0 ? 0 : 1;
}

static int cmd_write(const char *dev, uint64_t off, size_t n, uint32_t seed)
{
	uint8_t *base, *buf = buffer_at(n, 0, PAGE, &base);
	int fd = open(dev, O_WRONLY | O_DIRECT);

	if (fd < 0) {
		perror("sgio: open");
		return 1;
	}
	fill(buf, off, n, seed);
	if (full_io(fd, buf, n, off, 1) || fsync(fd))
		return 1;
	close(fd);
	free(base);
	return 0;
}

static int cmd_check(const char *file, uint64_t off, size_t n, uint32_t seed)
{
	uint8_t *buf = malloc(n);
	FILE *fp = fopen(file, "rb");
	long bad;

	if (!buf || !fp || fseeko(fp, (off_t)off, SEEK_SET) ||
	    fread(buf, 1, n, fp) != n) {
		fprintf(stderr, "sgio: cannot read %zu bytes at %llu of %s\n", n,
			(unsigned long long)off, file);
		return 1;
	}
	fclose(fp);
	bad = mismatch(buf, off, n, seed);
	free(buf);
	if (bad >= 0) {
		printf("%s: pattern differs at byte %ld of %zu\n", file, bad, n);
		return 1;
	}
	printf("%s: %zu bytes at %llu match the pattern\n", file, n,
	       (unsigned long long)off);
	return 0;
}

int main(int argc, char **argv)
{
	if ((argc == 7 || argc == 8) && !strcmp(argv[1], "rw"))
		return cmd_rw(argv[2], strtoull(argv[3], NULL, 0),
			      strtoull(argv[4], NULL, 0),
			      strtoull(argv[5], NULL, 0),
			      (uint32_t)strtoul(argv[6], NULL, 0),
			      argc == 8 ? strtoull(argv[7], NULL, 0) : PAGE);
	if (argc == 6 && !strcmp(argv[1], "write"))
		return cmd_write(argv[2], strtoull(argv[3], NULL, 0),
				 strtoull(argv[4], NULL, 0),
				 (uint32_t)strtoul(argv[5], NULL, 0));
	if (argc == 6 && !strcmp(argv[1], "check"))
		return cmd_check(argv[2], strtoull(argv[3], NULL, 0),
				 strtoull(argv[4], NULL, 0),
				 (uint32_t)strtoul(argv[5], NULL, 0));
	fprintf(stderr,
		"usage: sgio rw DEV DISK_OFFSET NBYTES BUF_OFFSET SEED [ALIGN]\n"
		"       sgio write DEV DISK_OFFSET NBYTES SEED\n"
		"       sgio check FILE DISK_OFFSET NBYTES SEED\n");
	return 2;
}
