/* Compiler hints (equivalent). */
#ifndef _USIM_LINUX_COMPILER_H
#define _USIM_LINUX_COMPILER_H

/* glibc's own __always_inline, the kernel's meaning. */
#include <sys/cdefs.h>

#define likely(x)	__builtin_expect(!!(x), 1)
#define unlikely(x)	__builtin_expect(!!(x), 0)
#define noinline	__attribute__((noinline))
#define __maybe_unused	__attribute__((unused))

#endif
