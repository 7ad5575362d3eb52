/*
 * BUG and WARN (mock): BUG reports and aborts; WARN reports, counts every
 * hit (WARN_ON_ONCE prints once per site but counts all) and goes on.
 */
#ifndef _USIM_LINUX_BUG_H
#define _USIM_LINUX_BUG_H

#include <linux/compiler.h>
#include <stdbool.h>

void usim_bug(const char *file, int line, const char *cond)
	__attribute__((noreturn));
void usim_warn(const char *file, int line, const char *cond, bool print);

#define BUG()		usim_bug(__FILE__, __LINE__, "BUG()")
#define BUG_ON(cond)	do { if (unlikely(cond)) usim_bug(__FILE__, __LINE__, #cond); } while (0)

#define WARN_ON(cond) ({						\
	bool __warn = !!(cond);						\
	if (unlikely(__warn))						\
		usim_warn(__FILE__, __LINE__, #cond, true);		\
	unlikely(__warn);						\
})

#define WARN_ON_ONCE(cond) ({						\
	static bool __warned;						\
	bool __warn = !!(cond);						\
	if (unlikely(__warn)) {						\
		usim_warn(__FILE__, __LINE__, #cond, !__warned);	\
		__warned = true;					\
	}								\
	unlikely(__warn);						\
})

/* The message is not formatted: the condition and the place are reported. */
#define WARN_ONCE(cond, fmt, ...)	WARN_ON_ONCE(cond)

#define BUILD_BUG_ON(cond)	_Static_assert(!(cond), #cond)

#endif
