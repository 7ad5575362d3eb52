/* Kernel scalar types (equivalent), on top of the C library's. */
#ifndef _USIM_LINUX_TYPES_H
#define _USIM_LINUX_TYPES_H

#include <linux/kconfig.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>	/* off_t, as the kernel's */

typedef uint8_t u8;
typedef uint16_t u16;
typedef uint32_t u32;
typedef uint64_t u64;
typedef int64_t s64;
typedef u64 dma_addr_t;
typedef u64 phys_addr_t;
typedef unsigned int gfp_t;
typedef unsigned int slab_flags_t;

#define __force

#endif
