/*
 * Section markers (stub: userspace has no init sections to discard) and
 * subsys_initcall (mock: the function runs before main(), and a failure
 * is a BUG, as a failed initcall of a built-in subsystem would be fatal).
 */
#ifndef _USIM_LINUX_INIT_H
#define _USIM_LINUX_INIT_H

#include <linux/bug.h>

#define __init
#define __exit

#define subsys_initcall(fn)						\
	static void __attribute__((constructor)) __usim_initcall_##fn(void) \
	{								\
		BUG_ON(fn());						\
	}

#endif
