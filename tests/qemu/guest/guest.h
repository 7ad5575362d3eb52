/*
 * What the C inits of the test initramfs share (init-main.c, the parisc
 * run; init-dma.c, make qemu-dma and qemu-arch): KTAP results, sysfs reads
 * and writes, and running /bin/sgio. Each init is one file built static
 * with its architecture's compiler, so these are static functions in a
 * header.
 */
#ifndef SGCHAIN_GUEST_H
#define SGCHAIN_GUEST_H

#define _GNU_SOURCE
#include <dirent.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

static unsigned int tests, failures;

/* One line of the KTAP block: @head as it is, then @fmt. */
static void vline(const char *head, const char *fmt, va_list ap)
{
	fputs(head, stdout);
	vprintf(fmt, ap);
	printf("\n");
	fflush(stdout);
}

/* A result; @fmt says why it failed and is printed only then. */
static void result(int ok, const char *name, const char *fmt, ...)
{
	char head[256];
	va_list ap;

	tests++;
	if (ok) {
		printf("    ok %u %s\n", tests, name);
		fflush(stdout);
		return;
	}
	failures++;
	snprintf(head, sizeof(head), "    not ok %u %s # ", tests, name);
	va_start(ap, fmt);
	vline(head, fmt, ap);
	va_end(ap);
}

static void diag(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vline("    # ", fmt, ap);
	va_end(ap);
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

static int write_str(const char *path, const char *text)
{
	int fd = open(path, O_WRONLY | O_TRUNC), ok;

	if (fd < 0)
		return -1;
	ok = write(fd, text, strlen(text)) == (ssize_t)strlen(text);
	close(fd);
	return ok ? 0 : -1;
}

static int write_long(const char *dir, const char *file, long value)
{
	char path[512], text[32];

	snprintf(path, sizeof(path), "%s/%s", dir, file);
	snprintf(text, sizeof(text), "%ld", value);
	return write_str(path, text);
}

/* As large as the driver accepts: halve from max_hw_sectors_kb until taken. */
static void raise_max_sectors(const char *queue)
{
	long try;

	for (try = read_long(queue, "max_hw_sectors_kb");
	     try >= 4 && write_long(queue, "max_sectors_kb", try); try /= 2)
		;
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

/*
 * The first sd disk for which @match says yes, its name into @name,
 * waiting up to 10 s for the disks to appear. Returns 0, or -1 if none.
 */
static int find_sd(int (*match)(const char *disk, const void *arg), const void *arg,
		   char *name, size_t len)
{
	int tries;

	for (tries = 0; tries < 20; tries++) {
		DIR *d = opendir("/sys/block");
		struct dirent *e;

		while (d && (e = readdir(d))) {
			if (strncmp(e->d_name, "sd", 2) || strlen(e->d_name) >= len ||
			    !match(e->d_name, arg))
				continue;
			strcpy(name, e->d_name);
			closedir(d);
			return 0;
		}
		if (d)
			closedir(d);
		usleep(500000);
	}
	return -1;
}

#endif /* SGCHAIN_GUEST_H */
