/*
 * The benchmark's view of one implementation, compiled once per header
 * set: impl_sgchain.c (usim/include and the core) and impl_k61.c (Linux
 * 6.1's own scatterlist.h and lib/scatterlist.c, extracted at bench time).
 * IMPL names the implementation; the same source walks both.
 */
#include <stdlib.h>

#include <linux/gfp.h>
#include <linux/scatterlist.h>

#include "bench_impl.h"

#define CAT2(a, b)	a##_##b
#define CAT(a, b)	CAT2(a, b)
#define FN(name)	CAT(IMPL, name)

static void *FN(build)(unsigned int nents)
{
	struct sg_table *table = malloc(sizeof(*table));
	struct scatterlist *sg;
	unsigned int i;

	if (!table || sg_alloc_table_chained(table, nents, NULL, 0)) {
		free(table);
		return NULL;
	}
	for_each_sg(table->sgl, sg, nents, i)
		sg->length = 512 + i % 4096;
	return table;
}

static void FN(destroy)(void *list)
{
	sg_free_table_chained(list, 0);
	free(list);
}

static uint64_t FN(walk_for_each)(void *list, unsigned int nents)
{
	struct sg_table *table = list;
	struct scatterlist *sg;
	uint64_t sum = 0;
	unsigned int i;

	for_each_sg(table->sgl, sg, nents, i)
		sum += sg->length;
	return sum;
}

static uint64_t FN(walk_sg_next)(void *list)
{
	struct sg_table *table = list;
	struct scatterlist *sg;
	uint64_t sum = 0;

	for (sg = table->sgl; sg; sg = sg_next(sg))
		sum += sg->length;
	return sum;
}

static int FN(nents)(void *list)
{
	return sg_nents(((struct sg_table *)list)->sgl);
}

static int FN(nents_for_len)(void *list, uint64_t len)
{
	return sg_nents_for_len(((struct sg_table *)list)->sgl, len);
}

static const void *FN(last)(void *list, unsigned int nents)
{
	return sg_last(((struct sg_table *)list)->sgl, nents);
}

static int FN(alloc_free_chained)(unsigned int nents)
{
	struct sg_table table;
	int ret = sg_alloc_table_chained(&table, nents, NULL, 0);

	if (!ret)
		sg_free_table_chained(&table, 0);
	return ret;
}

static int FN(alloc_free_kmalloc)(unsigned int nents)
{
	struct sg_table table;
	int ret = sg_alloc_table(&table, nents, GFP_KERNEL);

	if (!ret)
		sg_free_table(&table);
	return ret;
}

const struct bench_impl FN(impl) = {
	.name = BENCH_NAME,
	.build = FN(build),
	.destroy = FN(destroy),
	.walk_for_each = FN(walk_for_each),
	.walk_sg_next = FN(walk_sg_next),
	.nents = FN(nents),
	.nents_for_len = FN(nents_for_len),
	.last = FN(last),
	.alloc_free_chained = FN(alloc_free_chained),
	.alloc_free_kmalloc = FN(alloc_free_kmalloc),
};
