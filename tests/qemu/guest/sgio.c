/*
 * sgio: big O_DIRECT I/O with a known pattern, for the QEMU guest, and the
 * checks of what a disk holds afterwards.
 *
 *   sgio rw DEV DISK_OFFSET NBYTES BUF_OFFSET SEED [ALIGN [FLAGS]]
 *	write NBYTES of pattern from a buffer that starts BUF_OFFSET bytes
 *	past an ALIGN-aligned address (default: a page), read them back into
 *	a cleared buffer, compare; print the commands and sectors each
 *	direction added to /sys/block/X/stat. O_DIRECT wants buffers aligned
 *	to the queue's dma_alignment + 1, 32 KiB on QEMU's parisc machine.
 *	FLAGS, comma-separated: "scatter" puts the buffer on pages that are
 *	not physically adjacent (every other page of a larger mapping), so
 *	each page is a segment of its own; "frag=N" (with scatter, BUF_OFFSET
 *	0) moves only the first N bytes of each of those pages, one iovec each
 *	(preadv/pwritev), so that segments smaller than a page fill a command:
 *	NBYTES / N of them; "predict" also prints the segments and the
 *	commands each direction must take, from the buffer's physical pages
 *	(/proc/self/pagemap) and the queue's limits (see predict()).
 *   sgio write DEV DISK_OFFSET NBYTES SEED
 *	write the pattern only (for a disk checked through another device).
 *   sgio check FILE DISK_OFFSET NBYTES SEED
 *	compare a file (or a disk, through the page cache) with the pattern.
 *   sgio verify DEV DISK_OFFSET NBYTES SEED [ZEROS]
 *	compare a disk with the pattern, and the ZEROS bytes after it with
 *	zeros (data written twice, or past its end, lands there on a blank
 *	disk); read with O_DIRECT a page at a time: past any page cache, and
 *	one segment a command, which no driver chains (virtio-blk chains from
 *	its third entry), so the check does not lean on what it checks.
 *
 * The pattern depends on the disk offset and the seed, so data that lands
 * at the wrong place, twice, or not at all is caught.
 */
#define _GNU_SOURCE
#include <fcntl.h>
#include <limits.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/uio.h>
#include <unistd.h>

/* Compared in chunks of this many bytes. */
#define CHUNK	4096
/* The machine's page size (4 KiB, 8 KiB on sparc64 and alpha): main() sets it. */
static size_t page_size = 4096;

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
	uint8_t want[CHUNK];
	size_t i, j;

	for (i = 0; i < n; i += CHUNK) {
		size_t len = n - i < CHUNK ? n - i : CHUNK;

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

/*
 * Anonymous memory, placed low where the kernel takes the hint: pagemap's
 * file offset is the address / page size * 8, and for the upper half of
 * sparc64's address space, where mappings go by default, that is past
 * the largest offset a read accepts. Never unmapped: sgio exits.
 */
static uint8_t *map_anon(size_t len, int flags)
{
	static uintptr_t hint = (uintptr_t)(UINT64_C(1) << 32);
	void *p = mmap((void *)hint, len, PROT_READ | PROT_WRITE,
		       MAP_PRIVATE | MAP_ANONYMOUS | flags, -1, 0);

	if (p == MAP_FAILED) {
		perror("sgio: mmap");
		exit(1);
	}
	if (hint)
		hint += (len + page_size - 1) / page_size * page_size + page_size;
	return p;
}

/* @n bytes that start @buf_off bytes past an @align-aligned address. */
static uint8_t *buffer_at(size_t n, size_t buf_off, size_t align)
{
	uintptr_t p = (uintptr_t)map_anon(n + buf_off + align, 0);

	return (uint8_t *)((p + align - 1) / align * align) + buf_off;
}

/*
 * The page frame under @addr, or NO_PFN when pagemap does not say (not
 * root). Frame 0 is a page like any other: RAM starts there on sparc64.
 */
#define NO_PFN	UINT64_MAX
static uint64_t pfn_of(int pagemap, const void *addr)
{
	uint64_t entry = 0;

	if (pread(pagemap, &entry, 8, (off_t)((uintptr_t)addr / page_size) * 8) != 8 ||
	    !(entry >> 63))
		return NO_PFN;
	return entry & ((1ULL << 55) - 1);
}

/* Pages of @buf that follow their neighbour physically, or -1 if unknown. */
static long adjacent_pages(const uint8_t *buf, size_t pages)
{
	int pagemap = open("/proc/self/pagemap", O_RDONLY);
	uint64_t prev = NO_PFN, pfn;
	long adjacent = 0;
	size_t i;

	if (pagemap < 0)
		return -1;
	for (i = 0; i < pages; i++, prev = pfn) {
		pfn = pfn_of(pagemap, buf + i * page_size);
		if (pfn == NO_PFN) {
			adjacent = -1;
			break;
		}
		adjacent += i && pfn == prev + 1;
	}
	close(pagemap);
	return adjacent;
}

/*
 * A buffer on pages that are not physically adjacent: every other page
 * of a mapping twice as large, moved side by side (and tried again while
 * pagemap shows two that meet). The block layer then makes a segment of
 * each page, so a 1 MiB transfer is a list of 256 entries: more than one
 * 128-entry table.
 */
static uint8_t *scattered_once(size_t pages)
{
	uint8_t *src, *dst;
	size_t i;

	src = map_anon(2 * pages * page_size, MAP_POPULATE);
	dst = map_anon(pages * page_size, 0);
	for (i = 0; i < pages; i++) {
		if (mremap(src + 2 * i * page_size, page_size, page_size, MREMAP_MAYMOVE | MREMAP_FIXED,
			   dst + i * page_size) == MAP_FAILED) {
			perror("sgio: mremap");
			exit(1);
		}
		munmap(src + (2 * i + 1) * page_size, page_size);
	}
	return dst;
}

/*
 * Retried while any two pages meet: the mappings of failed tries stay, so
 * each try gets other pages. Where pagemap cannot say (not root), the
 * first try is taken.
 */
static uint8_t *scattered_buffer(size_t n, size_t buf_off)
{
	size_t pages = (buf_off + n + page_size - 1) / page_size;
	uint8_t *dst = NULL;
	int tries;

	for (tries = 0; tries < 8; tries++) {
		dst = scattered_once(pages);
		if (adjacent_pages(dst, pages) <= 0)
			return dst + buf_off;
	}
	fprintf(stderr, "sgio: %ld of %zu pages still adjacent after %d tries\n",
		adjacent_pages(dst, pages), pages, tries);
	return dst + buf_off;
}

static long sysfs_long(const char *dev, const char *file)
{
	const char *name = strrchr(dev, '/') ? strrchr(dev, '/') + 1 : dev;
	char path[256];
	long v = 0;
	FILE *fp;

	snprintf(path, sizeof(path), "/sys/block/%s/queue/%s", name, file);
	fp = fopen(path, "r");
	if (!fp || fscanf(fp, "%ld", &v) != 1)
		v = 0;
	if (fp)
		fclose(fp);
	return v;
}

/* What the block layer makes of an O_DIRECT transfer, from 6.1's rules. */
struct prediction {
	unsigned long segments;	/* over the whole buffer */
	unsigned long bios;
	unsigned long cmds;
};

/* One bio's runs cut into pieces, each joined to the request before it or not. */
struct request_state {
	long max_segs, max_bytes, max_seg_size;
	unsigned long req_segs, req_bytes;	/* the request being built */
	unsigned long piece_segs, piece_bytes;	/* the piece being cut */
};

/* The piece is cut: back-merge it into the request before if it fits. */
static void close_piece(struct request_state *r, struct prediction *p)
{
	if (r->req_segs && r->req_segs + r->piece_segs <= (unsigned long)r->max_segs &&
	    r->req_bytes + r->piece_bytes <= (unsigned long)r->max_bytes) {
		r->req_segs += r->piece_segs;
		r->req_bytes += r->piece_bytes;
	} else {
		p->cmds++;
		r->req_segs = r->piece_segs;
		r->req_bytes = r->piece_bytes;
	}
	r->piece_segs = r->piece_bytes = 0;
}

/* blk_bio_segment_split(): segments of at most max_segment_size, pieces within both limits. */
static void submit_bio(struct request_state *r, const uint64_t *runs, size_t nruns,
		       struct prediction *p)
{
	size_t i;

	p->bios++;
	for (i = 0; i < nruns; i++) {
		uint64_t left = runs[i];

		while (left) {
			uint64_t seg = left < (uint64_t)r->max_seg_size ? left :
				       (uint64_t)r->max_seg_size;

			if (r->piece_segs == (unsigned long)r->max_segs ||
			    r->piece_bytes == (unsigned long)r->max_bytes)
				close_piece(r, p);
			if (seg > (uint64_t)r->max_bytes - r->piece_bytes)
				seg = r->max_bytes - r->piece_bytes;
			p->segments++;
			r->piece_segs++;
			r->piece_bytes += seg;
			left -= seg;
		}
	}
	close_piece(r, p);
}

/*
 * Emulates Linux 6.1 for a synchronous O_DIRECT read or write of one
 * buffer on a block device. block/fops.c gives each bio room for as many
 * bio_vecs as pages remain, at most 256, and bio_iov_iter_get_pages()
 * fills it in batches of as many pages as it has free bio_vecs: a page
 * physically adjacent to the last bio_vec joins it (bio_add_page()), any
 * other takes a new one, until the bio_vecs are used up.
 * blk_bio_segment_split() cuts each bio into pieces of at most
 * max_segments segments (a run split at max_segment_size) and
 * max_sectors_kb bytes; a bio's last piece joins the request before it
 * when both limits still hold (a back merge under the plug). Assumes the
 * 4 GiB segment boundary of the disks tested and no virt boundary (it
 * checks the latter). A transfer of several iovecs (frag=) is the same
 * with each iovec's pages in turn: pieces of different iovecs join only
 * where they meet physically, as pages of one do. Returns -1 when the
 * physical pages are unknown (pagemap needs root).
 */
static int predict(const char *dev, const struct iovec *iov, size_t niov,
		   struct prediction *p)
{
	struct request_state r = {
		.max_segs = sysfs_long(dev, "max_segments"),
		.max_bytes = sysfs_long(dev, "max_sectors_kb") * 1024,
		.max_seg_size = sysfs_long(dev, "max_segment_size"),
	};
	size_t npieces = 0, i = 0, done, v, n = 0;
	uint64_t *phys, *len, runs[256];
	int pagemap = open("/proc/self/pagemap", O_RDONLY);

	for (v = 0; v < niov; v++)
		n += iov[v].iov_len;

	if (pagemap < 0 || r.max_segs <= 0 || r.max_bytes <= 0 || r.max_seg_size <= 0 ||
	    sysfs_long(dev, "virt_boundary_mask"))
		return -1;
	memset(p, 0, sizeof(*p));
	/* The pieces of the iovecs, a page each: where they are, how long. */
	phys = calloc(n / page_size + 2 * niov, sizeof(*phys));
	len = calloc(n / page_size + 2 * niov, sizeof(*len));
	if (!phys || !len)
		exit(1);
	for (v = 0; v < niov; v++) {
		for (done = 0; done < iov[v].iov_len; npieces++) {
			const uint8_t *at = (const uint8_t *)iov[v].iov_base + done;
			uint64_t pfn = pfn_of(pagemap, at);

			if (pfn == NO_PFN) {
				close(pagemap);
				free(phys), free(len);
				return -1;
			}
			len[npieces] = page_size - (uintptr_t)at % page_size;
			if (len[npieces] > iov[v].iov_len - done)
				len[npieces] = iov[v].iov_len - done;
			phys[npieces] = pfn * page_size + (uintptr_t)at % page_size;
			done += len[npieces];
		}
	}
	close(pagemap);

	while (i < npieces) {
		size_t max_vecs = npieces - i < 256 ? npieces - i : 256, nruns = 0;
		uint64_t run_end = 0;

		while (i < npieces && nruns < max_vecs) {
			size_t batch = max_vecs - nruns, j;

			for (j = 0; j < batch && i < npieces; j++, i++) {
				if (nruns && phys[i] == run_end) {
					runs[nruns - 1] += len[i];
				} else {
					runs[nruns++] = len[i];
				}
				run_end = phys[i] + len[i];
			}
		}
		submit_bio(&r, runs, nruns, p);
	}
	free(phys), free(len);
	return 0;
}

static int full_io(int fd, const struct iovec *iov, int niov, size_t n, off_t off,
		   int write)
{
	ssize_t done = write ? pwritev(fd, iov, niov, off) : preadv(fd, iov, niov, off);

	if (done != (ssize_t)n) {
		fprintf(stderr, "sgio: %s of %zu bytes at %lld returned %zd: %m\n",
			write ? "write" : "read", n, (long long)off, done);
		return -1;
	}
	return 0;
}

/* The iovecs' bytes against the pattern from @off: the first bad byte, or -1. */
static long iov_mismatch(const struct iovec *iov, int niov, uint64_t off, uint32_t seed)
{
	long done = 0, bad;
	int v;

	for (v = 0; v < niov; v++) {
		bad = mismatch(iov[v].iov_base, off + done, iov[v].iov_len, seed);
		if (bad >= 0)
			return done + bad;
		done += iov[v].iov_len;
	}
	return -1;
}

static int cmd_rw(const char *dev, uint64_t off, size_t n, size_t buf_off,
		  uint32_t seed, size_t align, const char *flags)
{
	bool scatter = strstr(flags, "scatter"), want_prediction = strstr(flags, "predict");
	const char *frag_at = strstr(flags, "frag=");
	size_t frag = frag_at ? strtoul(frag_at + 5, NULL, 0) : 0;
	struct blkstat s0, s1, s2;
	struct prediction pred;
	struct iovec *iov;
	uint64_t done;
	int niov, v;
	uint8_t *buf;
	long bad;
	int fd = open(dev, O_RDWR | O_DIRECT);

	if (frag && (!scatter || buf_off || frag > page_size || n % frag ||
		     n / frag > IOV_MAX)) {
		fprintf(stderr, "sgio: frag=%zu needs scatter, BUF_OFFSET 0, at most a page, "
			"NBYTES a multiple of it and at most %d pieces\n", frag, IOV_MAX);
		return 2;
	}
	/* One iovec, or one per page of a buffer of NBYTES / frag pages. */
	niov = frag ? (int)(n / frag) : 1;
	iov = calloc(niov, sizeof(*iov));
	if (!iov)
		return 1;
	if (frag) {
		buf = scattered_buffer((size_t)niov * page_size, 0);
		for (v = 0; v < niov; v++)
			iov[v] = (struct iovec){ buf + (size_t)v * page_size, frag };
	} else {
		buf = scatter ? scattered_buffer(n, buf_off) : buffer_at(n, buf_off, align);
		iov[0] = (struct iovec){ buf, n };
	}

	if (fd < 0 || read_stat(dev, &s0)) {
		perror("sgio: open or stat");
		return 1;
	}
	for (v = 0, done = 0; v < niov; done += iov[v++].iov_len)
		fill(iov[v].iov_base, off + done, iov[v].iov_len, seed);
	/* The pages are in place now: the prediction reads where they are. */
	if (want_prediction && predict(dev, iov, niov, &pred)) {
		fprintf(stderr, "sgio: no prediction: pagemap or queue limits unreadable\n");
		return 1;
	}
	/* No fsync: a cache flush would count as one more write command. */
	if (full_io(fd, iov, niov, n, off, 1) || read_stat(dev, &s1))
		return 1;
	for (v = 0; v < niov; v++)
		memset(iov[v].iov_base, 0, iov[v].iov_len);
	if (full_io(fd, iov, niov, n, off, 0) || read_stat(dev, &s2))
		return 1;
	close(fd);
	bad = iov_mismatch(iov, niov, off, seed);
	free(iov);
	printf("write_cmds=%llu write_sectors=%llu read_cmds=%llu read_sectors=%llu data=%s",
	       s1.wr_ios - s0.wr_ios, s1.wr_sec - s0.wr_sec,
	       s2.rd_ios - s1.rd_ios, s2.rd_sec - s1.rd_sec,
	       bad < 0 ? "ok" : "BAD");
	if (bad >= 0)
		printf(" first_bad_byte=%ld", bad);
	if (want_prediction)
		printf(" predicted_cmds=%lu segments=%lu bios=%lu", pred.cmds,
		       pred.segments, pred.bios);
	printf("\n");
	return bad < 0 ? 0 : 1;
}

static int cmd_write(const char *dev, uint64_t off, size_t n, uint32_t seed)
{
	uint8_t *buf = buffer_at(n, 0, page_size);
	int fd = open(dev, O_WRONLY | O_DIRECT);

	if (fd < 0) {
		perror("sgio: open");
		return 1;
	}
	fill(buf, off, n, seed);
	if (full_io(fd, &(struct iovec){ buf, n }, 1, n, off, 1) || fsync(fd))
		return 1;
	close(fd);
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

static int cmd_verify(const char *dev, uint64_t off, size_t n, uint32_t seed,
		      size_t zeros)
{
	uint8_t *buf = buffer_at(page_size, 0, page_size);
	int fd = open(dev, O_RDONLY | O_DIRECT);
	size_t done, len, i;
	long bad;

	if (!n) {
		fprintf(stderr, "sgio: verify: no bytes to compare\n");
		return 2;
	}
	if (fd < 0) {
		perror("sgio: open");
		return 1;
	}
	for (done = 0; done < n + zeros; done += len) {
		len = n + zeros - done < page_size ? n + zeros - done : page_size;
		if (full_io(fd, &(struct iovec){ buf, len }, 1, len, off + done, 0))
			return 1;
		if (done < n) {
			bad = mismatch(buf, off + done, len, seed);
			if (bad >= 0) {
				printf("%s: pattern differs at byte %zu of %zu\n", dev,
				       done + (size_t)bad, n);
				return 1;
			}
			continue;
		}
		for (i = 0; i < len; i++) {
			if (buf[i]) {
				printf("%s: byte %zu after the pattern is not zero\n", dev,
				       done - n + i);
				return 1;
			}
		}
	}
	close(fd);
	printf("%s: %zu bytes at %llu match the pattern, %zu zeros follow\n", dev,
	       n, (unsigned long long)off, zeros);
	return 0;
}

int main(int argc, char **argv)
{
	page_size = (size_t)sysconf(_SC_PAGESIZE);
	if (argc >= 7 && argc <= 9 && !strcmp(argv[1], "rw"))
		return cmd_rw(argv[2], strtoull(argv[3], NULL, 0),
			      strtoull(argv[4], NULL, 0),
			      strtoull(argv[5], NULL, 0),
			      (uint32_t)strtoul(argv[6], NULL, 0),
			      argc >= 8 ? strtoull(argv[7], NULL, 0) : page_size,
			      argc == 9 ? argv[8] : "");
	if (argc == 6 && !strcmp(argv[1], "write"))
		return cmd_write(argv[2], strtoull(argv[3], NULL, 0),
				 strtoull(argv[4], NULL, 0),
				 (uint32_t)strtoul(argv[5], NULL, 0));
	if (argc == 6 && !strcmp(argv[1], "check"))
		return cmd_check(argv[2], strtoull(argv[3], NULL, 0),
				 strtoull(argv[4], NULL, 0),
				 (uint32_t)strtoul(argv[5], NULL, 0));
	if ((argc == 6 || argc == 7) && !strcmp(argv[1], "verify"))
		return cmd_verify(argv[2], strtoull(argv[3], NULL, 0),
				  strtoull(argv[4], NULL, 0),
				  (uint32_t)strtoul(argv[5], NULL, 0),
				  argc == 7 ? strtoull(argv[6], NULL, 0) : 0);
	fprintf(stderr,
		"usage: sgio rw DEV DISK_OFFSET NBYTES BUF_OFFSET SEED [ALIGN [scatter,frag=N,predict]]\n"
		"       sgio write DEV DISK_OFFSET NBYTES SEED\n"
		"       sgio check FILE DISK_OFFSET NBYTES SEED\n"
		"       sgio verify DEV DISK_OFFSET NBYTES SEED [ZEROS]\n");
	return 2;
}
