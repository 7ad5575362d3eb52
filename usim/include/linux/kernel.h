/*
 * ARRAY_SIZE, min, max, min_t, ALIGN, DIV_ROUND_UP, snprintf (equivalent;
 * min/max without the type checks), and the headers that the kernel's
 * kernel.h brings and 6.1's lib/ files rely on without naming them.
 */
#ifndef _USIM_LINUX_KERNEL_H
#define _USIM_LINUX_KERNEL_H

#include <linux/export.h>
#include <linux/log2.h>
#include <linux/printk.h>
#include <linux/stringify.h>
#include <linux/types.h>
#include <limits.h>
#include <stdio.h>
/* Userspace tests of the kernel's own (tools/testing/scatterlist) call exit(). */
#include <stdlib.h>

#define ARRAY_SIZE(arr)		(sizeof(arr) / sizeof((arr)[0]))
#define DIV_ROUND_UP(n, d)	(((n) + (d) - 1) / (d))

#define min(x, y) ({ typeof(x) __x = (x); typeof(y) __y = (y); __x < __y ? __x : __y; })
#define max(x, y) ({ typeof(x) __x = (x); typeof(y) __y = (y); __x > __y ? __x : __y; })
#define min_t(type, x, y)	min((type)(x), (type)(y))
#define max_t(type, x, y)	max((type)(x), (type)(y))
/* @a a power of two, as the kernel's. */
#define round_up(x, a)		((((x) - 1) | ((typeof(x))(a) - 1)) + 1)
#define round_down(x, a)	((x) & ~((typeof(x))(a) - 1))
#define ALIGN(x, a)		(((x) + ((typeof(x))(a) - 1)) & ~((typeof(x))(a) - 1))
#define ALIGN_DOWN(x, a)	ALIGN((x) - ((a) - 1), (a))

#endif
