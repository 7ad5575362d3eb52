/* The practical limit: no chaining, no end marker, a scalar loop. */
#include <stdlib.h>

#include <linux/scatterlist.h>

#include "bench_impl.h"

void *flat_build(unsigned int nents)
{
	struct scatterlist *sg = calloc(nents, sizeof(*sg));
	unsigned int i;

	for (i = 0; sg && i < nents; i++)
		sg[i].length = 512 + i % 4096;
	return sg;
}

void flat_destroy(void *list)
{
	free(list);
}

uint64_t flat_walk(void *list, unsigned int nents)
{
	const struct scatterlist *sg = list;
	uint64_t sum = 0;
	unsigned int i;

	for (i = 0; i < nents; i++)
		sum += sg[i].length;
	return sum;
}
