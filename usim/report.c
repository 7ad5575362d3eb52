/* BUG, WARN and mock error reporting for usim. */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>

#include <linux/bug.h>
#include "usim_report.h"

static unsigned long errors;
static unsigned long warnings;

void usim_bug(const char *file, int line, const char *cond)
{
	fprintf(stderr, "usim: kernel BUG at %s:%d: %s\n", file, line, cond);
	abort();
}

void usim_warn(const char *file, int line, const char *cond, bool print)
{
	warnings++;
	if (print)
		fprintf(stderr, "usim: WARNING at %s:%d: %s\n", file, line, cond);
}

unsigned long usim_warn_count(void)
{
	return warnings;
}

void usim_error(const char *fmt, ...)
{
	va_list ap;

	errors++;
	fputs("usim: ERROR: ", stderr);
	va_start(ap, fmt);
	/* NOLINTNEXTLINE(clang-analyzer-valist.Uninitialized): clang 14 misses the va_start above */
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
}

unsigned long usim_error_count(void)
{
	return errors;
}
