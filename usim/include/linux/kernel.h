/* ARRAY_SIZE, min, max, DIV_ROUND_UP, snprintf (equivalent; min/max without the type checks). */
#ifndef _USIM_LINUX_KERNEL_H
#define _USIM_LINUX_KERNEL_H

#include <linux/types.h>
#include <limits.h>
#include <stdio.h>

#define ARRAY_SIZE(arr)		(sizeof(arr) / sizeof((arr)[0]))
#define DIV_ROUND_UP(n, d)	(((n) + (d) - 1) / (d))

#define min(x, y) ({ typeof(x) __x = (x); typeof(y) __y = (y); __x < __y ? __x : __y; })
#define max(x, y) ({ typeof(x) __x = (x); typeof(y) __y = (y); __x > __y ? __x : __y; })

#endif
