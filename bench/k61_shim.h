/*
 * Forced include (-include) for Linux 6.1's own scatterlist code built in
 * userspace beside sgchain's: its exported names get the prefix K61 names
 * (k61_, or k61b_ for the control's second copy) so that the copies link
 * into one benchmark. Everything else comes from usim/include.
 */
#ifndef _BENCH_K61_SHIM_H
#define _BENCH_K61_SHIM_H

#ifndef K61
#define K61	k61
#endif
#define K61_CAT2(prefix, name)	prefix##_##name
#define K61_CAT(prefix, name)	K61_CAT2(prefix, name)
#define K61_NAME(name)		K61_CAT(K61, name)

#define sg_next			K61_NAME(sg_next)
#define sg_nents		K61_NAME(sg_nents)
#define sg_nents_for_len	K61_NAME(sg_nents_for_len)
#define sg_last			K61_NAME(sg_last)
#define sg_init_table		K61_NAME(sg_init_table)
#define sg_init_one		K61_NAME(sg_init_one)
#define __sg_free_table		K61_NAME(__sg_free_table)
#define sg_free_table		K61_NAME(sg_free_table)
#define sg_free_append_table	K61_NAME(sg_free_append_table)
#define __sg_alloc_table	K61_NAME(__sg_alloc_table)
#define sg_alloc_table		K61_NAME(sg_alloc_table)
#define sg_free_table_chained	K61_NAME(sg_free_table_chained)
#define sg_alloc_table_chained	K61_NAME(sg_alloc_table_chained)

#define sg_alloc_append_table_from_pages	K61_NAME(sg_alloc_append_table_from_pages)
#define sg_alloc_table_from_pages_segment	K61_NAME(sg_alloc_table_from_pages_segment)

#endif
