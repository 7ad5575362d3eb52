/*
 * One implementation of the scatterlist API as the benchmark sees it:
 * opaque lists, so sgchain's and Linux 6.1's struct definitions never
 * meet in one translation unit.
 */
#ifndef _BENCH_IMPL_H
#define _BENCH_IMPL_H

#include <stdint.h>

struct bench_impl {
	const char *name;
	/* A chained list of @nents entries from the SCSI pools, lengths set. */
	void *(*build)(unsigned int nents);
	void (*destroy)(void *list);
	uint64_t (*walk_for_each)(void *list, unsigned int nents);
	uint64_t (*walk_sg_next)(void *list);
	int (*nents)(void *list);
	/*
	 * sg_nents_for_len() of @len, more than the list holds: a whole walk.
	 * A length the compiler cannot see, as a caller's is: a constant
	 * would let it fold sgchain's inline copy into another loop.
	 */
	int (*nents_for_len)(void *list, uint64_t len);
	const void *(*last)(void *list, unsigned int nents);
	/* One allocation and free; 0 on success. */
	int (*alloc_free_chained)(unsigned int nents);
	int (*alloc_free_kmalloc)(unsigned int nents);
};

extern const struct bench_impl sgchain_impl, k61_impl;
extern const struct bench_impl k61b_impl;	/* the control: 6.1 again, elsewhere */

/* The practical limit: a flat array walked by a scalar loop. */
void *flat_build(unsigned int nents);
void flat_destroy(void *list);
uint64_t flat_walk(void *list, unsigned int nents);

#endif
