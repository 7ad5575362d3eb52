/* BUG, WARN and mock error reporting for usim. */
#include <stdarg.h>
#include <stdio.h>
#include <setjmp.h>
#include <stdlib.h>

#include <linux/bug.h>
#include "usim_report.h"

static unsigned long errors;
static unsigned long warnings;
static jmp_buf *bug_catcher;

void usim_bug_catch(jmp_buf *catcher)
{
	bug_catcher = catcher;
}

void usim_bug(const char *file, int line, const char *cond)
{
	jmp_buf *catcher = bug_catcher;

	fprintf(stderr, "usim: kernel BUG at %s:%d: %s%s\n", file, line, cond,
		catcher ? " (expected by the test)" : "");
	bug_catcher = NULL;
	if (catcher)
		longjmp(*catcher, 1);
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
