/* Compiler hints (equivalent). */
#ifndef _USIM_LINUX_COMPILER_H
#define _USIM_LINUX_COMPILER_H

#define likely(x)	__builtin_expect(!!(x), 1)
#define unlikely(x)	__builtin_expect(!!(x), 0)
#define noinline	__attribute__((noinline))
#define __maybe_unused	__attribute__((unused))
/* glibc's <sys/cdefs.h> may define it too, the same way, after an #undef. */
#ifndef __always_inline
#define __always_inline	inline __attribute__((always_inline))
#endif

#endif
