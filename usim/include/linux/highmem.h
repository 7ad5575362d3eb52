/* <linux/highmem.h> (stub): the part of lib/scatterlist.c usim builds maps no pages. */
#ifndef _USIM_LINUX_HIGHMEM_H
#define _USIM_LINUX_HIGHMEM_H
#endif
