/*
 * Forced include (-include) for Linux 6.1's own scatterlist code built in
 * userspace beside sgchain's: its exported names get a k61_ prefix so the
 * two link into one benchmark. Everything else comes from usim/include.
 */
#ifndef _BENCH_K61_SHIM_H
#define _BENCH_K61_SHIM_H

#define sg_next			k61_sg_next
#define sg_nents		k61_sg_nents
#define sg_nents_for_len	k61_sg_nents_for_len
#define sg_last			k61_sg_last
#define sg_init_table		k61_sg_init_table
#define sg_init_one		k61_sg_init_one
#define __sg_free_table		k61___sg_free_table
#define sg_free_table		k61_sg_free_table
#define sg_free_append_table	k61_sg_free_append_table
#define __sg_alloc_table	k61___sg_alloc_table
#define sg_alloc_table		k61_sg_alloc_table
#define sg_free_table_chained	k61_sg_free_table_chained
#define sg_alloc_table_chained	k61_sg_alloc_table_chained

#define sg_alloc_append_table_from_pages	k61_sg_alloc_append_table_from_pages
#define sg_alloc_table_from_pages_segment	k61_sg_alloc_table_from_pages_segment

#endif
