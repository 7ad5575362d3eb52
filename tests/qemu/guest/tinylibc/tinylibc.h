/*
 * tinylibc: the part of a C library that init-dma.c, guest.h and sgio.c
 * use, over raw system calls, for a guest that has no libc of its own:
 * sparc32 (QEMU's SPARCstation 5 has a V8 CPU, and Debian's 32-bit SPARC
 * glibc is V9 code). Each program is one file, so everything here is
 * defined in this header, as the kernel's tools/include/nolibc does (which
 * has no SPARC in 6.1 or 6.12). The headers beside it (stdio.h, ...) only
 * include this one; build with -nostdinc -nostdlib -ffreestanding and
 * gcc's own include directory for stdarg.h, stdint.h and stdbool.h.
 *
 * What a function does not need here it does not do: printf knows the
 * conversions the programs use, fscanf parses %ld and %llu, realpath()
 * always fails (only dma-iommu runs look for an IOMMU group). Numbers are
 * SPARC's: system calls, open flags, mmap flags.
 */
#ifndef TINYLIBC_H
#define TINYLIBC_H

#if !defined(__sparc__) || defined(__arch64__)
#error "tinylibc is for 32-bit SPARC only"
#endif

#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define TL_UNUSED __attribute__((unused))

typedef long ssize_t;
typedef long long off_t;
typedef int pid_t;
typedef unsigned int mode_t;

/* limits.h */
#define PATH_MAX	4096
#define IOV_MAX		1024
#define INT_MAX		0x7fffffff
#define UINT_MAX	0xffffffffU
#define LONG_MAX	0x7fffffffL
#define LONG_MIN	(-LONG_MAX - 1)
#define ULONG_MAX	0xffffffffUL
#define LLONG_MAX	0x7fffffffffffffffLL
#define ULLONG_MAX	0xffffffffffffffffULL

/* SPARC's system call numbers (asm/unistd_32.h). */
#define __NR_exit	1
#define __NR_fork	2
#define __NR_read	3
#define __NR_write	4
#define __NR_open	5
#define __NR_close	6
#define __NR_wait4	7
#define __NR_access	33
#define __NR_sync	36
#define __NR_reboot	55
#define __NR_mmap2	56
#define __NR_readlink	58
#define __NR_execve	59
#define __NR_pread64	67
#define __NR_munmap	73
#define __NR_dup2	90
#define __NR_fsync	95
#define __NR_getdents64	154
#define __NR_mount	167
#define __NR_exit_group	188
#define __NR_syslog	207
#define __NR__llseek	236
#define __NR_nanosleep	249
#define __NR_mremap	250
#define __NR_pipe2	321
#define __NR_preadv	324
#define __NR_pwritev	325

/* fcntl.h, sys/mman.h: SPARC's values */
#define O_RDONLY	0
#define O_WRONLY	1
#define O_CREAT		0x0200
#define O_RDWR		2
#define O_TRUNC		0x0400
#define O_LARGEFILE	0x40000
#define O_DIRECT	0x100000
#define PROT_READ	1
#define PROT_WRITE	2
#define MAP_PRIVATE	0x02
#define MAP_FIXED	0x10
#define MAP_ANONYMOUS	0x20
#define MAP_POPULATE	0x8000
#define MAP_FAILED	((void *)-1)
#define MREMAP_MAYMOVE	1
#define MREMAP_FIXED	2
#define SEEK_SET	0
#define R_OK		4
#define _SC_PAGESIZE	30
#define RB_AUTOBOOT	0x01234567
#define RB_POWER_OFF	0x4321fedc
#define WIFEXITED(s)	(((s) & 0x7f) == 0)
#define WEXITSTATUS(s)	(((s) >> 8) & 0xff)
#define EOF		(-1)

int errno;
char **environ;

/*
 * A system call: number in %g1, arguments in %o0-%o5, "ta 0x10". The
 * kernel sets the carry flag on failure with the positive errno in %o0;
 * the annulled delay slot negates it only then. %o1 carries fork()'s
 * second result.
 */
static long tl_syscall(long n, long a, long b, long c, long d, long e,
			long f, long *second)
{
	register long g1 __asm__("g1") = n;
	register long o0 __asm__("o0") = a;
	register long o1 __asm__("o1") = b;
	register long o2 __asm__("o2") = c;
	register long o3 __asm__("o3") = d;
	register long o4 __asm__("o4") = e;
	register long o5 __asm__("o5") = f;

	__asm__ volatile("ta 0x10\n\t"
			 "bcs,a 1f\n\t"
			 " sub %%g0, %%o0, %%o0\n"
			 "1:"
			 : "+r"(g1), "+r"(o0), "+r"(o1), "+r"(o2), "+r"(o3),
			   "+r"(o4), "+r"(o5)
			 :
			 : "cc", "memory");
	if (second)
		*second = o1;
	return o0;
}

/* The result, or -1 with errno for the kernel's -4095..-1. */
static long tl_ret(long r)
{
	if ((unsigned long)r > -4096UL) {
		errno = (int)-r;
		return -1;
	}
	return r;
}

#define tl_sys(n, a, b, c, d, e, f) \
	tl_ret(tl_syscall((n), (long)(a), (long)(b), (long)(c), (long)(d), \
			   (long)(e), (long)(f), NULL))

/* unistd.h */
static TL_UNUSED ssize_t read(int fd, void *buf, size_t n)
{
	return tl_sys(__NR_read, fd, buf, n, 0, 0, 0);
}

static TL_UNUSED ssize_t write(int fd, const void *buf, size_t n)
{
	return tl_sys(__NR_write, fd, buf, n, 0, 0, 0);
}

static TL_UNUSED int close(int fd)
{
	return (int)tl_sys(__NR_close, fd, 0, 0, 0, 0, 0);
}

/* A 64-bit offset goes in two registers, high word first. */
static TL_UNUSED ssize_t pread(int fd, void *buf, size_t n, off_t off)
{
	return tl_sys(__NR_pread64, fd, buf, n, (unsigned long long)off >> 32,
		      (unsigned long)off, 0);
}

static TL_UNUSED off_t lseek(int fd, off_t off, int whence)
{
	long long result;

	if (tl_sys(__NR__llseek, fd, (unsigned long long)off >> 32,
		   (unsigned long)off, &result, whence, 0) < 0)
		return -1;
	return result;
}

static TL_UNUSED int fsync(int fd)
{
	return (int)tl_sys(__NR_fsync, fd, 0, 0, 0, 0, 0);
}

static TL_UNUSED void sync(void)
{
	tl_sys(__NR_sync, 0, 0, 0, 0, 0, 0);
}

static TL_UNUSED int access(const char *path, int mode)
{
	return (int)tl_sys(__NR_access, path, mode, 0, 0, 0, 0);
}

static TL_UNUSED ssize_t readlink(const char *path, char *buf, size_t n)
{
	return tl_sys(__NR_readlink, path, buf, n, 0, 0, 0);
}

static TL_UNUSED int dup2(int from, int to)
{
	return (int)tl_sys(__NR_dup2, from, to, 0, 0, 0, 0);
}

static TL_UNUSED int pipe(int fds[2])
{
	return (int)tl_sys(__NR_pipe2, fds, 0, 0, 0, 0, 0);
}

/* The child sees its parent's pid in %o0 and 1 in %o1. */
static TL_UNUSED pid_t fork(void)
{
	long child, r = tl_ret(tl_syscall(__NR_fork, 0, 0, 0, 0, 0, 0, &child));

	return r < 0 ? -1 : child ? 0 : (pid_t)r;
}

static TL_UNUSED int execv(const char *path, char *const argv[])
{
	return (int)tl_sys(__NR_execve, path, argv, environ, 0, 0, 0);
}

static TL_UNUSED __attribute__((noreturn)) void _exit(int status)
{
	for (;;)
		tl_sys(__NR_exit_group, status, 0, 0, 0, 0, 0);
}

static TL_UNUSED int usleep(unsigned long us)
{
	long ts[2] = { (long)(us / 1000000), (long)(us % 1000000 * 1000) };

	return (int)tl_sys(__NR_nanosleep, ts, 0, 0, 0, 0, 0);
}

static TL_UNUSED long sysconf(int name)
{
	return name == _SC_PAGESIZE ? 4096 : -1;
}

/* sys/wait.h, sys/mount.h, sys/reboot.h, sys/klog.h */
static TL_UNUSED pid_t waitpid(pid_t pid, int *status, int options)
{
	return (pid_t)tl_sys(__NR_wait4, pid, status, options, 0, 0, 0);
}

static TL_UNUSED int mount(const char *src, const char *dir, const char *type,
			   unsigned long flags, const void *data)
{
	return (int)tl_sys(__NR_mount, src, dir, type, flags, data, 0);
}

static TL_UNUSED int reboot(int cmd)
{
	return (int)tl_sys(__NR_reboot, 0xfee1dead, 0x28121969, cmd, 0, 0, 0);
}

static TL_UNUSED int klogctl(int type, char *buf, int len)
{
	return (int)tl_sys(__NR_syslog, type, buf, len, 0, 0, 0);
}

/* fcntl.h: every file large. */
static TL_UNUSED int open(const char *path, int flags, ...)
{
	return (int)tl_sys(__NR_open, path, flags | O_LARGEFILE, 0644, 0, 0, 0);
}

/* sys/mman.h */
static TL_UNUSED void *mmap(void *addr, size_t len, int prot, int flags,
			    int fd, off_t off)
{
	long r = tl_sys(__NR_mmap2, addr, len, prot, flags, fd, off >> 12);

	return r == -1 ? MAP_FAILED : (void *)r;
}

static TL_UNUSED int munmap(void *addr, size_t len)
{
	return (int)tl_sys(__NR_munmap, addr, len, 0, 0, 0, 0);
}

static TL_UNUSED void *mremap(void *old, size_t old_len, size_t new_len,
			      int flags, ...)
{
	va_list ap;
	void *to;
	long r;

	va_start(ap, flags);
	to = flags & MREMAP_FIXED ? va_arg(ap, void *) : NULL;
	va_end(ap);
	r = tl_sys(__NR_mremap, old, old_len, new_len, flags, to, 0);
	return r == -1 ? MAP_FAILED : (void *)r;
}

/* sys/uio.h: the offset as low word, high word. */
struct iovec {
	void *iov_base;
	size_t iov_len;
};

static TL_UNUSED ssize_t preadv(int fd, const struct iovec *iov, int n, off_t off)
{
	return tl_sys(__NR_preadv, fd, iov, n, (unsigned long)off,
		      (unsigned long long)off >> 32, 0);
}

static TL_UNUSED ssize_t pwritev(int fd, const struct iovec *iov, int n, off_t off)
{
	return tl_sys(__NR_pwritev, fd, iov, n, (unsigned long)off,
		      (unsigned long long)off >> 32, 0);
}

/*
 * string.h. gcc may call memcpy, memset, memmove and memcmp on its own
 * (structure copies): those are global.
 */
void *memcpy(void *to, const void *from, size_t n)
{
	unsigned char *d = to;
	const unsigned char *s = from;

	while (n--)
		*d++ = *s++;
	return to;
}

void *memmove(void *to, const void *from, size_t n)
{
	unsigned char *d = to;
	const unsigned char *s = from;

	if (d < s)
		return memcpy(to, from, n);
	while (n--)
		d[n] = s[n];
	return to;
}

void *memset(void *p, int c, size_t n)
{
	unsigned char *d = p;

	while (n--)
		*d++ = (unsigned char)c;
	return p;
}

int memcmp(const void *a, const void *b, size_t n)
{
	const unsigned char *x = a, *y = b;

	for (; n; n--, x++, y++)
		if (*x != *y)
			return *x - *y;
	return 0;
}

static TL_UNUSED size_t strlen(const char *s)
{
	size_t n = 0;

	while (s[n])
		n++;
	return n;
}

static TL_UNUSED int strncmp(const char *a, const char *b, size_t n)
{
	for (; n; n--, a++, b++)
		if (*a != *b || !*a)
			return (unsigned char)*a - (unsigned char)*b;
	return 0;
}

static TL_UNUSED int strcmp(const char *a, const char *b)
{
	return strncmp(a, b, (size_t)-1);
}

static TL_UNUSED char *strcpy(char *to, const char *from)
{
	return memcpy(to, from, strlen(from) + 1);
}

static TL_UNUSED char *strchr(const char *s, int c)
{
	for (;; s++) {
		if (*s == (char)c)
			return (char *)s;
		if (!*s)
			return NULL;
	}
}

static TL_UNUSED char *strrchr(const char *s, int c)
{
	const char *last = NULL;

	for (;; s++) {
		if (*s == (char)c)
			last = s;
		if (!*s)
			return (char *)last;
	}
}

static TL_UNUSED char *strstr(const char *s, const char *want)
{
	size_t n = strlen(want);

	for (; *s; s++)
		if (!strncmp(s, want, n))
			return (char *)s;
	return n ? NULL : (char *)s;
}

static TL_UNUSED size_t strcspn(const char *s, const char *reject)
{
	size_t n = 0;

	while (s[n] && !strchr(reject, s[n]))
		n++;
	return n;
}

static TL_UNUSED char *strtok_r(char *s, const char *delim, char **save)
{
	char *end;

	if (!s)
		s = *save;
	while (*s && strchr(delim, *s))
		s++;
	if (!*s) {
		*save = s;
		return NULL;
	}
	end = s + strcspn(s, delim);
	*save = *end ? end + 1 : end;
	*end = '\0';
	return s;
}

/* No table of messages: the number. */
static TL_UNUSED const char *strerror(int e)
{
	static char buf[24];
	char digits[12], *p = digits + sizeof(digits);
	unsigned int v = (unsigned int)e;

	*--p = '\0';
	do
		*--p = (char)('0' + v % 10);
	while (v /= 10);
	memcpy(buf, "errno ", 6);
	memcpy(buf + 6, p, strlen(p) + 1);
	return buf;
}

/* stdlib.h */
static TL_UNUSED unsigned long long tl_strtox(const char *s, char **end,
					      int base, bool *neg)
{
	unsigned long long v = 0;

	while (*s == ' ' || *s == '\t' || *s == '\n')
		s++;
	*neg = *s == '-';
	if (*s == '-' || *s == '+')
		s++;
	if ((base == 0 || base == 16) && s[0] == '0' && (s[1] | 32) == 'x') {
		s += 2;
		base = 16;
	} else if (base == 0) {
		base = *s == '0' ? 8 : 10;
	}
	for (;; s++) {
		int d = *s >= '0' && *s <= '9' ? *s - '0' :
			(*s | 32) >= 'a' && (*s | 32) <= 'z' ? (*s | 32) - 'a' + 10 : 99;

		if (d >= base)
			break;
		v = v * (unsigned int)base + (unsigned int)d;
	}
	if (end)
		*end = (char *)s;
	return v;
}

static TL_UNUSED unsigned long long strtoull(const char *s, char **end, int base)
{
	bool neg;
	unsigned long long v = tl_strtox(s, end, base, &neg);

	return neg ? -v : v;
}

static TL_UNUSED unsigned long strtoul(const char *s, char **end, int base)
{
	return (unsigned long)strtoull(s, end, base);
}

static TL_UNUSED long strtol(const char *s, char **end, int base)
{
	return (long)strtoull(s, end, base);
}

static TL_UNUSED char *getenv(const char *name)
{
	size_t n = strlen(name);
	char **e;

	for (e = environ; e && *e; e++)
		if (!strncmp(*e, name, n) && (*e)[n] == '=')
			return *e + n + 1;
	return NULL;
}

/* Memory: a mapping per block, its size in the 8 bytes before it. */
static TL_UNUSED void *malloc(size_t n)
{
	uint64_t *p = mmap(NULL, n + 8, PROT_READ | PROT_WRITE,
			   MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);

	if (p == MAP_FAILED)
		return NULL;
	*p = n + 8;
	return p + 1;
}

static TL_UNUSED void *calloc(size_t n, size_t size)
{
	/* Anonymous memory is zeroed. */
	return size && n > (size_t)-1 / size ? NULL : malloc(n * size);
}

static TL_UNUSED void free(void *p)
{
	if (p)
		munmap((uint64_t *)p - 1, (size_t)((uint64_t *)p)[-1]);
}

/* Copies of the settings setenv() adds, in a table of its own. */
static TL_UNUSED int setenv(const char *name, const char *value, int overwrite)
{
	static char *table[64];
	static char store[4096];
	static size_t used;
	size_t n = strlen(name), v = strlen(value), i;
	char **e;

	if (getenv(name) && !overwrite)
		return 0;
	if (used + n + v + 2 > sizeof(store))
		return -1;
	memcpy(store + used, name, n);
	store[used + n] = '=';
	memcpy(store + used + n + 1, value, v + 1);
	for (e = environ, i = 0; e && *e; e++) {
		if (strncmp(*e, name, n) || (*e)[n] != '=') {
			if (i + 2 > sizeof(table) / sizeof(table[0]))
				return -1;
			table[i++] = *e;
		}
	}
	table[i++] = store + used;
	table[i] = NULL;
	used += n + v + 2;
	environ = table;
	return 0;
}

/* stdio.h: files read through a buffer, written straight through. */
typedef struct {
	int fd;		/* first: tl_open_handle() */
	size_t pos, len;
	char buf[512];
} FILE;

static TL_UNUSED FILE tl_stdout = { 1, 0, 0, { 0 } };
static TL_UNUSED FILE tl_stderr = { 2, 0, 0, { 0 } };
#define stdout (&tl_stdout)
#define stderr (&tl_stderr)

/*
 * A FILE or a DIR: @size zeroed bytes that start with the int fd of @path,
 * opened for reading.
 */
static TL_UNUSED void *tl_open_handle(const char *path, size_t size)
{
	int fd = open(path, O_RDONLY);
	int *h;

	if (fd < 0)
		return NULL;
	h = calloc(1, size);
	if (!h) {
		close(fd);
		return NULL;
	}
	*h = fd;
	return h;
}

static TL_UNUSED int tl_close_handle(void *h)
{
	int r = close(*(int *)h);

	free(h);
	return r;
}

static TL_UNUSED FILE *fopen(const char *path, const char *mode)
{
	(void)mode;	/* read only */
	return tl_open_handle(path, sizeof(FILE));
}

static TL_UNUSED int fclose(FILE *f)
{
	return tl_close_handle(f);
}

static TL_UNUSED int fflush(FILE *f)
{
	(void)f;	/* nothing is buffered for writing */
	return 0;
}

static TL_UNUSED int tl_getc(FILE *f)
{
	if (f->pos == f->len) {
		ssize_t n = read(f->fd, f->buf, sizeof(f->buf));

		if (n <= 0)
			return EOF;
		f->pos = 0;
		f->len = (size_t)n;
	}
	return (unsigned char)f->buf[f->pos++];
}

static TL_UNUSED char *fgets(char *s, int n, FILE *f)
{
	int i = 0, c = 0;

	while (i < n - 1 && c != '\n' && (c = tl_getc(f)) != EOF)
		s[i++] = (char)c;
	s[i] = '\0';
	return i ? s : NULL;
}

static TL_UNUSED int fseeko(FILE *f, off_t off, int whence)
{
	f->pos = f->len = 0;
	return lseek(f->fd, off, whence) < 0 ? -1 : 0;
}

static TL_UNUSED size_t fread(void *to, size_t size, size_t n, FILE *f)
{
	size_t want = size * n, got = 0;

	while (got < want && f->pos < f->len)
		((char *)to)[got++] = (char)tl_getc(f);
	while (got < want) {
		ssize_t r = read(f->fd, (char *)to + got, want - got);

		if (r <= 0)
			break;
		got += (size_t)r;
	}
	return size ? got / size : 0;
}

/* %ld and %llu conversions, separated by white space. */
static TL_UNUSED int fscanf(FILE *f, const char *fmt, ...)
{
	char text[512], *p = text, *end;
	int done = 0, c;
	size_t n = 0;
	va_list ap;

	while (n < sizeof(text) - 1 && (c = tl_getc(f)) != EOF)
		text[n++] = (char)c;
	text[n] = '\0';
	va_start(ap, fmt);
	for (; *fmt; fmt++) {
		if (*fmt != '%')
			continue;
		if (!strncmp(fmt, "%llu", 4)) {
			*va_arg(ap, unsigned long long *) = strtoull(p, &end, 10);
			fmt += 3;
		} else if (!strncmp(fmt, "%ld", 3)) {
			*va_arg(ap, long *) = strtol(p, &end, 10);
			fmt += 2;
		} else {
			break;
		}
		if (end == p)
			break;
		p = end;
		done++;
	}
	va_end(ap);
	return done;
}

/* The conversions the programs use: d u s m %, with l, ll or z. */
static TL_UNUSED int vsnprintf(char *out, size_t size, const char *fmt, va_list ap)
{
	size_t n = 0;

#define TL_PUT(ch) do { if (n + 1 < size) out[n] = (ch); n++; } while (0)
	for (; *fmt; fmt++) {
		char digits[24], *d = digits + sizeof(digits);
		unsigned long long v = 0;
		const char *s = NULL;
		bool neg = false;
		int longs = 0;

		if (*fmt != '%') {
			TL_PUT(*fmt);
			continue;
		}
		/* size_t is as wide as long here: z counts as one l. */
		for (fmt++; *fmt == 'l' || *fmt == 'z'; fmt++)
			longs++;
		switch (*fmt) {
		case 'd':
			{
				long long x = longs > 1 ? va_arg(ap, long long) :
					      longs ? va_arg(ap, long) : va_arg(ap, int);

				neg = x < 0;
				v = neg ? -(unsigned long long)x : (unsigned long long)x;
			}
			break;
		case 'u':
			v = longs > 1 ? va_arg(ap, unsigned long long) :
			    longs ? va_arg(ap, unsigned long) : va_arg(ap, unsigned int);
			break;
		case 's':
			s = va_arg(ap, const char *);
			if (!s)
				s = "(null)";
			break;
		case 'm':
			s = strerror(errno);
			break;
		case '%':
			s = "%";
			break;
		default:
			s = "<?>";
			break;
		}
		if (!s) {
			*--d = '\0';
			do
				*--d = (char)('0' + v % 10);
			while (v /= 10);
			if (neg)
				*--d = '-';
			s = d;
		}
		while (*s)
			TL_PUT(*s++);
	}
#undef TL_PUT
	if (size)
		out[n < size ? n : size - 1] = '\0';
	return (int)n;
}

static TL_UNUSED int snprintf(char *out, size_t size, const char *fmt, ...)
{
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vsnprintf(out, size, fmt, ap);
	va_end(ap);
	return n;
}

static TL_UNUSED int vfprintf(FILE *f, const char *fmt, va_list ap)
{
	char buf[1024];
	int n = vsnprintf(buf, sizeof(buf), fmt, ap);

	write(f->fd, buf, strlen(buf));
	return n;
}

static TL_UNUSED int fprintf(FILE *f, const char *fmt, ...)
{
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vfprintf(f, fmt, ap);
	va_end(ap);
	return n;
}

static TL_UNUSED int vprintf(const char *fmt, va_list ap)
{
	return vfprintf(stdout, fmt, ap);
}

static TL_UNUSED int printf(const char *fmt, ...)
{
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vfprintf(stdout, fmt, ap);
	va_end(ap);
	return n;
}

static TL_UNUSED int fputs(const char *s, FILE *f)
{
	return write(f->fd, s, strlen(s)) < 0 ? EOF : 0;
}

static TL_UNUSED void perror(const char *what)
{
	fprintf(stderr, "%s: %s\n", what, strerror(errno));
}

static TL_UNUSED __attribute__((noreturn)) void exit(int status)
{
	_exit(status);
}

/* dirent.h: getdents64's records as they come. */
struct dirent {
	uint64_t d_ino;
	int64_t d_off;
	unsigned short d_reclen;
	unsigned char d_type;
	char d_name[];
};

typedef struct {
	int fd;		/* first: tl_open_handle() */
	long pos, len;
	char buf[2048] __attribute__((aligned(8)));
} DIR;

static TL_UNUSED DIR *opendir(const char *path)
{
	return tl_open_handle(path, sizeof(DIR));
}

static TL_UNUSED struct dirent *readdir(DIR *d)
{
	struct dirent *e;

	if (d->pos >= d->len) {
		d->len = tl_sys(__NR_getdents64, d->fd, d->buf, sizeof(d->buf), 0, 0, 0);
		d->pos = 0;
		if (d->len <= 0)
			return NULL;
	}
	e = (struct dirent *)(d->buf + d->pos);
	d->pos += e->d_reclen;
	return e;
}

static TL_UNUSED int closedir(DIR *d)
{
	return tl_close_handle(d);
}

/* Only dma-iommu runs resolve a path, and sparc32 has none: fails. */
static TL_UNUSED char *realpath(const char *path, char *resolved)
{
	(void)path;
	(void)resolved;
	errno = 38;	/* ENOSYS */
	return NULL;
}

/*
 * The entry point: %sp holds the 64-byte window save area, then argc and
 * argv. The C function gets a frame of its own below them.
 */
int main();

void tl_start(int argc, char **argv)
{
	environ = argv + argc + 1;
	exit(main(argc, argv));
}

__asm__(".text\n"
	".global _start\n"
	"_start:\n"
	"	mov %g0, %fp\n"
	"	ld [%sp + 64], %o0\n"
	"	add %sp, 68, %o1\n"
	"	sub %sp, 96, %sp\n"
	"	call tl_start\n"
	"	 nop\n");

#endif /* TINYLIBC_H */
