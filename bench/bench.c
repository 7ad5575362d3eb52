/*
 * sgchain's benchmark: walks, counts, chained allocation and IOMMU mapping,
 * sgchain side by side with Linux 6.1's own lib/scatterlist.c (built from
 * the tarball at bench time) and a flat array, in one run.
 *
 *   bench OUTDIR           measure; write every timed repetition to
 *                          OUTDIR/samples.tsv (bench/summarise.py makes
 *                          the tables of several processes' samples)
 *   bench --count WHAT N   run one path a fixed number of times, for
 *                          callgrind (WHAT: walk-, nents-, nents_for_len-,
 *                          last-, alloc- (sg_alloc_table_chained), kmalloc-
 *                          (sg_alloc_table) with sgchain or k61; walk-flat;
 *                          map-sgchain)
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <linux/dma-mapping.h>
#include <linux/scatterlist.h>

#include "bench_impl.h"
#include "dma_mappers.h"
#include "mock_page.h"

#define REPS		12		/* timed repetitions: each order of 3, twice */
#define VISITS		(1u << 23)	/* entries walked per measurement */

static const unsigned int sizes[] = { 8, 128, 129, 2048, 8192, 65536 };
#define NSIZES	(sizeof(sizes) / sizeof(sizes[0]))

static volatile uint64_t sink;	/* keeps every walk's result alive */
static volatile uint64_t all_of_it = ~0ULL;	/* a length no list reaches */

static double now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1e9 + ts.tv_nsec;
}

/* What one measurement runs: walk/count a list, or alloc+free one. */
enum op { FOR_EACH, SG_NEXT, NENTS, NENTS_FOR_LEN, LAST, FLAT, ALLOC_CHAINED,
	  ALLOC_KMALLOC, NOPS };

static const char *const op_name[NOPS] = {
	"for_each_sg", "sg_next to NULL", "sg_nents", "sg_nents_for_len", "sg_last",
	"flat array",
	"sg_alloc_table_chained + free", "sg_alloc_table + free",
};

static void run_op(enum op op, const struct bench_impl *impl, void *list,
		   unsigned int n, unsigned int iters)
{
	unsigned int k;

	for (k = 0; k < iters; k++) {
		switch (op) {
		case FOR_EACH: sink += impl->walk_for_each(list, n); break;
		case SG_NEXT: sink += impl->walk_sg_next(list); break;
		case NENTS: sink += impl->nents(list); break;
		case NENTS_FOR_LEN: sink += impl->nents_for_len(list, all_of_it); break;
		case LAST: sink += (uintptr_t)impl->last(list, n); break;
		case FLAT: sink += flat_walk(list, n); break;
		case ALLOC_CHAINED: sink += impl->alloc_free_chained(n); break;
		case ALLOC_KMALLOC: sink += impl->alloc_free_kmalloc(n); break;
		default: break;
		}
	}
}

/*
 * The implementations timed side by side. Linux 6.1's code runs twice, on
 * lists of its own: the second run is the control, a second copy of the
 * same code that the Makefile links half a cache line from the first,
 * whose ratio to the first is the noise of the machine, of the lists'
 * layout and of the code's placement.
 */
enum { SGCHAIN, K61, K61_AGAIN, NIMPLS };
static const char *const impl_name[NIMPLS] = { "sgchain", "linux-6.1", "linux-6.1-again" };

/* Every timed repetition, ns per entry, as one line of samples.tsv. */
static void sample(FILE *f, const char *op, unsigned int n, unsigned int rep,
		   const char *impl, double ns)
{
	fprintf(f, "%s\t%u\t%u\t%s\t%.4f\n", op, n, rep, impl, ns);
}

static void measure(FILE *out)
{
	static const unsigned int orders[6][NIMPLS] = {
		{ 0, 1, 2 }, { 1, 2, 0 }, { 2, 0, 1 }, { 2, 1, 0 }, { 1, 0, 2 }, { 0, 2, 1 },
	};
	const struct bench_impl *impls[NIMPLS] = { &sgchain_impl, &k61_impl, &k61b_impl };
	unsigned int s, r, i, j, op;

	BUILD_BUG_ON(NIMPLS != 3 || REPS % 6);

	srand((unsigned int)getpid());

	for (s = 0; s < NSIZES; s++) {
		unsigned int n = sizes[s];
		unsigned int iters = VISITS / n ? VISITS / n : 1;
		unsigned int alloc_iters = (1u << 18) / n ? (1u << 18) / n : 4;
		void *lists[NIMPLS], *flat = flat_build(n);
		unsigned int order[NIMPLS];

		/*
		 * Built in a random order: the first list built lands where
		 * the heap starts, and at 2 MiB a list's addresses alone move
		 * its walk by a tenth. Every process draws its own layout.
		 */
		for (j = 0; j < NIMPLS; j++)
			order[j] = j;
		for (j = NIMPLS; j > 1; j--) {
			unsigned int k = (unsigned int)rand() % j, t = order[k];

			order[k] = order[j - 1];
			order[j - 1] = t;
		}
		for (j = 0; j < NIMPLS; j++) {
			i = order[j];
			lists[i] = impls[i]->build(n);
			if (!lists[i] || !flat) {
				fprintf(stderr, "bench: cannot build lists of %u\n", n);
				exit(1);
			}
		}
		/*
		 * Interleaved, so every implementation sees the same noise, in
		 * each of the six orders twice, so each runs first, second and
		 * last equally often, each after an untimed warm-up of its
		 * own: whoever runs first after another operation otherwise
		 * pays for the caches and the allocator state that one left
		 * behind.
		 */
		for (r = 0; r < REPS; r++) {
			for (op = 0; op < NOPS; op++) {
				for (j = 0; j < NIMPLS; j++) {
					unsigned int it = op >= ALLOC_CHAINED ? alloc_iters : iters;
					void *list;
					double t0;

					i = orders[r % 6][j];
					if (op == FLAT && i)
						continue;
					list = op == FLAT ? flat : lists[i];
					run_op(op, impls[i], list, n, it / 4 + 1);
					t0 = now_ns();
					run_op(op, impls[i], list, n, it);
					sample(out, op_name[op], n, r, op == FLAT ? "flat" : impl_name[i],
					       (now_ns() - t0) / ((double)it * n));
				}
			}
		}
		for (i = 0; i < NIMPLS; i++)
			impls[i]->destroy(lists[i]);
		flat_destroy(flat);
	}
}

/* IOMMU map + unmap per entry: must not grow with the list. */
static const unsigned int map_sizes[] = { 128, 512, 2048, 8192, 32768, 65536 };
#define NMAP	(sizeof(map_sizes) / sizeof(map_sizes[0]))

/* A device behind a roomy IOMMU, and a list of @n entries in pairs. */
struct map_setup {
	struct mock_page_arena *arena;
	struct usim_iommu *mmu;
	struct device dev;
	struct sg_table table;
};

static void map_setup(struct map_setup *m, unsigned int n)
{
	static unsigned long pfns[1024];
	struct scatterlist *sg;
	unsigned int i;

	mock_pfns_random(pfns, 1024, 0x10000, 1u << 20, 5);
	m->arena = mock_page_arena_create(1024, pfns);
	m->mmu = usim_iommu_create(1u << 17);
	if (!m->arena || !m->mmu || sg_alloc_table_chained(&m->table, n, NULL, 0))
		exit(1);
	usim_device_init(&m->dev, "bench", DMA_BIT_MASK(64));
	usim_device_attach_iommu(&m->dev, m->mmu);
	/* Pairs: the tail of one page then the head of another, merged. */
	for_each_sg(m->table.sgl, sg, n, i)
		sg_set_page(sg, mock_page_arena_page(m->arena, i % 1024), 512,
			    i % 2 ? 0 : PAGE_SIZE - 512);
}

static void map_teardown(struct map_setup *m)
{
	sg_free_table_chained(&m->table, 0);
	usim_iommu_destroy(m->mmu);
	mock_page_arena_destroy(m->arena);
}

static void map_unmap(struct map_setup *m, unsigned int n, unsigned int iters)
{
	unsigned int k;

	for (k = 0; k < iters; k++) {
		int mapped = dma_map_sg(&m->dev, m->table.sgl, n, DMA_TO_DEVICE);

		if (mapped != (int)n / 2 + (int)(n % 2))
			exit(1);
		dma_unmap_sg(&m->dev, m->table.sgl, n, DMA_TO_DEVICE);
	}
}

static void measure_map(FILE *out)
{
	unsigned int s, r;

	for (s = 0; s < NMAP; s++) {
		unsigned int n = map_sizes[s], iters = (1u << 20) / n + 1;
		struct map_setup m;

		map_setup(&m, n);
		for (r = 0; r < REPS; r++) {
			double t0 = now_ns();

			map_unmap(&m, n, iters);
			sample(out, "IOMMU map + unmap", n, r, "sgchain",
			       (now_ns() - t0) / ((double)iters * n));
		}
		map_teardown(&m);
	}
}

/* For callgrind: one path, a fixed number of times, nothing else timed. */
static int count_mode(const char *what, unsigned int n)
{
	const struct bench_impl *impl = strstr(what, "k61") ? &k61_impl : &sgchain_impl;
	void *list;
	unsigned int k;

	if (!strcmp(what, "map-sgchain")) {
		struct map_setup m;

		map_setup(&m, n);
		map_unmap(&m, n, 100);
		map_teardown(&m);
		return 0;
	}
	list = strstr(what, "flat") ? flat_build(n) : impl->build(n);

	for (k = 0; k < 100; k++) {
		if (!strncmp(what, "walk-flat", 9))
			sink += flat_walk(list, n);
		else if (!strncmp(what, "walk-", 5))
			sink += impl->walk_for_each(list, n);
		else if (!strncmp(what, "nents-", 6))
			sink += impl->nents(list);
		else if (!strncmp(what, "nents_for_len-", 14))
			sink += impl->nents_for_len(list, all_of_it);
		else if (!strncmp(what, "last-", 5))
			sink += (uintptr_t)impl->last(list, n);
		else if (!strncmp(what, "alloc-", 6))
			sink += impl->alloc_free_chained(n);
		else if (!strncmp(what, "kmalloc-", 8))
			sink += impl->alloc_free_kmalloc(n);
		else
			return 2;
	}
	if (strstr(what, "flat"))
		flat_destroy(list);
	else
		impl->destroy(list);
	return 0;
}

int main(int argc, char **argv)
{
	char path[512];
	FILE *f;

	if (argc == 4 && !strcmp(argv[1], "--count"))
		return count_mode(argv[2], strtoul(argv[3], NULL, 0));
	if (argc != 2) {
		fprintf(stderr, "usage: bench OUTDIR | bench --count WHAT N\n");
		return 2;
	}
	snprintf(path, sizeof(path), "%s/samples.tsv", argv[1]);
	f = fopen(path, "w");
	if (!f) {
		perror(path);
		return 1;
	}
	fprintf(f, "operation\tentries\trepetition\timplementation\tns_per_entry\n");
	measure(f);
	measure_map(f);
	if (fclose(f)) {
		perror(path);
		return 1;
	}
	return 0;
}
