/*
 * Error numbers (equivalent: the system's UAPI header has the kernel's).
 * glibc's <errno.h> includes <linux/errno.h> too and lands here, so this
 * file must pass through to the real one rather than include <errno.h>.
 */
#ifndef _USIM_LINUX_ERRNO_H
#define _USIM_LINUX_ERRNO_H

#include_next <linux/errno.h>

#endif
