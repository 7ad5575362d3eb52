/*
 * sgchain's benchmark: walks, counts, chained allocation and IOMMU mapping,
 * sgchain side by side with Linux 6.1's own lib/scatterlist.c (built from
 * the tarball at bench time) and a flat array, in one run.
 *
 *   bench OUTDIR           measure; write OUTDIR/results.md and plot data
 *   bench --count WHAT N   run one path a fixed number of times, for
 *                          callgrind (WHAT: walk-, nents-, nents_for_len-,
 *                          last-, alloc- with sgchain or k61; walk-flat;
 *                          map-sgchain)
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <linux/dma-mapping.h>
#include <linux/scatterlist.h>

#include "bench_impl.h"
#include "dma_mappers.h"
#include "mock_page.h"

#define REPS		9		/* the median of 9, and their spread */
#define VISITS		(1u << 23)	/* entries walked per measurement */

static const unsigned int sizes[] = { 8, 128, 129, 2048, 8192, 65536 };
#define NSIZES	(sizeof(sizes) / sizeof(sizes[0]))

static volatile uint64_t sink;	/* keeps every walk's result alive */

static double now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1e9 + ts.tv_nsec;
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

struct stat {
	double median, spread;	/* ns per entry; spread = (max - min) / median */
};

static struct stat summarise(double *v)
{
	qsort(v, REPS, sizeof(*v), cmp_double);
	return (struct stat){ v[REPS / 2], (v[REPS - 1] - v[0]) / v[REPS / 2] };
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
		case NENTS_FOR_LEN: sink += impl->nents_for_len(list); break;
		case LAST: sink += (uintptr_t)impl->last(list, n); break;
		case FLAT: sink += flat_walk(list, n); break;
		case ALLOC_CHAINED: sink += impl->alloc_free_chained(n); break;
		case ALLOC_KMALLOC: sink += impl->alloc_free_kmalloc(n); break;
		default: break;
		}
	}
}

/* results[op][impl][size]; impl 0 sgchain, 1 linux-6.1 (flat: 0). */
static struct stat results[NOPS][2][NSIZES];

static void measure(void)
{
	const struct bench_impl *impls[2] = { &sgchain_impl, &k61_impl };
	unsigned int s, r, i, j, op;

	for (s = 0; s < NSIZES; s++) {
		unsigned int n = sizes[s];
		unsigned int iters = VISITS / n ? VISITS / n : 1;
		unsigned int alloc_iters = (1u << 18) / n ? (1u << 18) / n : 4;
		void *lists[2] = { impls[0]->build(n), impls[1]->build(n) };
		void *flat = flat_build(n);
		double v[NOPS][2][REPS];

		if (!lists[0] || !lists[1] || !flat) {
			fprintf(stderr, "bench: cannot build lists of %u\n", n);
			exit(1);
		}
		/*
		 * Interleaved, so every implementation sees the same noise, in
		 * alternating order, each after an untimed warm-up of its own:
		 * whoever runs first after another operation otherwise pays for
		 * the caches and the allocator state that one left behind.
		 */
		for (r = 0; r < REPS; r++) {
			for (op = 0; op < NOPS; op++) {
				for (j = 0; j < 2; j++) {
					unsigned int it = op >= ALLOC_CHAINED ? alloc_iters : iters;
					void *list;
					double t0;

					i = j ^ (r & 1);
					if (op == FLAT && i)
						continue;
					list = op == FLAT ? flat : lists[i];
					run_op(op, impls[i], list, n, it / 4 + 1);
					t0 = now_ns();
					run_op(op, impls[i], list, n, it);
					v[op][i][r] = (now_ns() - t0) / ((double)it * n);
				}
			}
		}
		for (op = 0; op < NOPS; op++)
			for (i = 0; i < (op == FLAT ? 1u : 2u); i++)
				results[op][i][s] = summarise(v[op][i]);
		impls[0]->destroy(lists[0]);
		impls[1]->destroy(lists[1]);
		flat_destroy(flat);
	}
}

/* IOMMU map + unmap per entry: must not grow with the list. */
static const unsigned int map_sizes[] = { 128, 512, 2048, 8192, 32768, 65536 };
#define NMAP	(sizeof(map_sizes) / sizeof(map_sizes[0]))
static struct stat map_results[NMAP];

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

static void measure_map(void)
{
	unsigned int s, r;

	for (s = 0; s < NMAP; s++) {
		unsigned int n = map_sizes[s], iters = (1u << 20) / n + 1;
		struct map_setup m;
		double v[REPS];

		map_setup(&m, n);
		for (r = 0; r < REPS; r++) {
			double t0 = now_ns();

			map_unmap(&m, n, iters);
			v[r] = (now_ns() - t0) / ((double)iters * n);
		}
		map_results[s] = summarise(v);
		map_teardown(&m);
	}
}

static void print_table(FILE *f)
{
	unsigned int s, op;

	fprintf(f, "## Walks and counts, ns per entry (median of %d, spread in %%)\n\n", REPS);
	fprintf(f, "| entries | operation | sgchain | linux-6.1 | flat array | sgchain / linux-6.1 | sgchain / flat |\n");
	fprintf(f, "| ---: | --- | ---: | ---: | ---: | ---: | ---: |\n");
	for (s = 0; s < NSIZES; s++) {
		for (op = FOR_EACH; op <= LAST; op++) {
			struct stat a = results[op][0][s], b = results[op][1][s];
			struct stat fl = results[FLAT][0][s];

			fprintf(f, "| %u | %s | %.3f (%.0f%%) | %.3f (%.0f%%) | %.3f | %.2f | %.2f |\n",
				sizes[s], op_name[op], a.median, 100 * a.spread,
				b.median, 100 * b.spread, fl.median,
				a.median / b.median, a.median / fl.median);
		}
	}
	fprintf(f, "\n## Allocation + free, ns per entry (same mock allocator for both)\n\n");
	fprintf(f, "| entries | operation | sgchain | linux-6.1 | sgchain / linux-6.1 |\n");
	fprintf(f, "| ---: | --- | ---: | ---: | ---: |\n");
	for (s = 0; s < NSIZES; s++) {
		for (op = ALLOC_CHAINED; op <= ALLOC_KMALLOC; op++) {
			struct stat a = results[op][0][s], b = results[op][1][s];

			fprintf(f, "| %u | %s | %.2f (%.0f%%) | %.2f (%.0f%%) | %.2f |\n",
				sizes[s], op_name[op], a.median, 100 * a.spread,
				b.median, 100 * b.spread, a.median / b.median);
		}
	}
	/* Against the middle size's cost: one noisy size cannot skew them all. */
	double costs[NMAP], mid, lo, hi;

	for (s = 0; s < NMAP; s++)
		costs[s] = map_results[s].median;
	qsort(costs, NMAP, sizeof(costs[0]), cmp_double);
	mid = costs[NMAP / 2];
	lo = costs[0];
	hi = costs[NMAP - 1];
	fprintf(f, "\n## IOMMU map + unmap, ns per entry (usim merging IOMMU, pairs merged)\n\n");
	fprintf(f, "| entries | ns per entry | spread | vs the median size |\n| ---: | ---: | ---: | ---: |\n");
	for (s = 0; s < NMAP; s++)
		fprintf(f, "| %u | %.2f | %.0f%% | %.2f |\n", map_sizes[s],
			map_results[s].median, 100 * map_results[s].spread,
			map_results[s].median / mid);
	fprintf(f, "\nCost per entry from %u to %u entries: %.2f to %.2f ns, within %.0f%% of the median size's.\n",
		map_sizes[0], map_sizes[NMAP - 1], lo, hi,
		100 * (hi - mid > mid - lo ? hi - mid : mid - lo) / mid);
}

static void write_plot_data(const char *dir)
{
	char path[512];
	unsigned int s;
	FILE *f;

	snprintf(path, sizeof(path), "%s/walk.dat", dir);
	f = fopen(path, "w");
	if (!f)
		exit(1);
	fprintf(f, "# entries sgchain_for_each sgchain_sg_next linux61_for_each linux61_sg_next flat\n");
	for (s = 0; s < NSIZES; s++)
		fprintf(f, "%u %.4f %.4f %.4f %.4f %.4f\n", sizes[s],
			results[FOR_EACH][0][s].median, results[SG_NEXT][0][s].median,
			results[FOR_EACH][1][s].median, results[SG_NEXT][1][s].median,
			results[FLAT][0][s].median);
	fclose(f);
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
			sink += impl->nents_for_len(list);
		else if (!strncmp(what, "last-", 5))
			sink += (uintptr_t)impl->last(list, n);
		else if (!strncmp(what, "alloc-", 6))
			sink += impl->alloc_free_chained(n);
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
	fprintf(stderr, "[bench] walks, counts and allocation: %zu sizes x %d repetitions\n",
		NSIZES, REPS);
	measure();
	fprintf(stderr, "[bench] IOMMU map + unmap: %zu sizes\n", NMAP);
	measure_map();
	snprintf(path, sizeof(path), "%s/timings.md", argv[1]);
	f = fopen(path, "w");
	if (!f)
		return 1;
	print_table(f);
	fclose(f);
	print_table(stdout);
	write_plot_data(argv[1]);
	return 0;
}
