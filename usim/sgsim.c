/*
 * sgsim: what a chained scatterlist and its DMA mapping look like for one
 * I/O, built by sgchain's core in usim. See `sgsim --help`.
 */
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <linux/dma-mapping.h>
#include <linux/scatterlist.h>
#include <linux/slab.h>

#include "dma_mappers.h"
#include "mock_page.h"

enum layout { CONTIGUOUS, SCATTERED, RANDOM, MISALIGNED };
enum mapper { DIRECT, IOMMU, SWIOTLB };

struct options {
	unsigned long long io_size;
	enum layout layout;
	unsigned long long seed;
	unsigned int offset;		/* of the buffer in its first page */
	unsigned int entry_size;	/* bytes of one struct scatterlist */
	unsigned int table_size;	/* bytes of one table */
	unsigned int max_segments;	/* entries one command may have */
	bool pools;			/* sg_alloc_table_chained's pools */
	bool from_pages;		/* sg_alloc_table_from_pages_segment */
	unsigned int max_segment;	/* its largest entry */
	enum mapper mapper;
	unsigned int max_seg_size;
	unsigned long long seg_boundary;
	unsigned int dma_bits;
	unsigned long aperture;
	unsigned long bounce_slots;
	const char *dot;
	bool all_segments;
};

static const char usage[] =
"usage: sgsim [OPTION]...\n"
"Build the scatterlist of one I/O with sgchain's core, map it for DMA, and\n"
"print the chain, the DMA segments and the largest command.\n"
"\n"
"The I/O\n"
"  -s, --io-size SIZE      bytes of I/O; K, M, G suffixes (default 8M)\n"
"  -l, --layout LAYOUT     physical pages of the buffer (default scattered):\n"
"                            contiguous  one run of adjacent pages\n"
"                            scattered   no two pages adjacent\n"
"                            random      distinct pages drawn from --seed\n"
"                            misaligned  scattered, starting at --offset\n"
"      --seed N            seed of the random layout (default 1)\n"
"      --offset BYTES      where the buffer starts in its first page\n"
"                          (default 0; 512 with --layout misaligned)\n"
"The tables\n"
"  -e, --entry-size BYTES  size of one scatterlist entry (default %zu, this\n"
"                          build; the 2007 article's i386 was 20, x86-64 40)\n"
"  -t, --table-size BYTES  size of one table (default %lu, a page)\n"
"      --max-segments N    entries one command may have (default %u)\n"
"      --pools             allocate like SCSI, from the 8..128-entry mempools\n"
"                          (sg_alloc_table_chained) instead of tables of\n"
"                          --table-size / --entry-size entries\n"
"      --from-pages        build it as the kernel's sg_alloc_table_from_pages\n"
"                          does: runs of adjacent pages merge into one entry\n"
"      --max-segment SIZE  with --from-pages, the largest entry (default\n"
"                          unlimited; rounded down to pages)\n"
"The mapping\n"
"  -m, --mapper MAPPER     direct (default), iommu (merging) or swiotlb\n"
"      --max-seg-size BYTES  the device's largest DMA segment (default 65536)\n"
"      --seg-boundary MASK   no segment crosses a multiple of MASK + 1\n"
"                            (default 0xffffffff)\n"
"      --dma-mask BITS     address bits the device drives (default 64;\n"
"                          32 with swiotlb)\n"
"      --aperture PAGES    IOMMU aperture (default 65536 pages)\n"
"      --bounce-slots N    swiotlb pool, page-sized slots (default 8192)\n"
"Output\n"
"      --segments          list every DMA segment, not the first and last few\n"
"      --dot FILE          write the chain as a Graphviz graph\n"
"  -h, --help              this text\n"
"\n"
"Example, the article's figures: sgsim -e 20 -t 4096 (204 entries, about\n"
"800 KB in one table); sgsim -e 40 (half that); 2048 chained entries: 8 MiB.\n"
"Exit status: 0, 1 if the list cannot be built or mapped, 2 for bad usage.\n";

static void __attribute__((noreturn)) bad_usage(const char *fmt, const char *arg)
{
	fprintf(stderr, "sgsim: ");
	fprintf(stderr, fmt, arg);
	fprintf(stderr, "\nTry 'sgsim --help'.\n");
	exit(2);
}

static unsigned long long parse_number(const char *arg, bool suffixes)
{
	unsigned long long v;
	char *end;

	errno = 0;
	v = strtoull(arg, &end, 0);
	if (errno || end == arg || arg[0] == '-')
		bad_usage("%s is not a number", arg);
	if (suffixes && *end) {
		int shift = *end == 'K' || *end == 'k' ? 10 :
			    *end == 'M' || *end == 'm' ? 20 :
			    *end == 'G' || *end == 'g' ? 30 : -1;

		if (shift < 0 || end[1])
			bad_usage("bad size suffix in %s (K, M or G)", arg);
		v <<= shift;
		end++;
	}
	if (*end)
		bad_usage("trailing characters in %s", arg);
	return v;
}

static void parse_options(int argc, char **argv, struct options *o)
{
	enum { SEED = 256, OFFSET, MAX_SEGMENTS, POOLS, FROM_PAGES, MAX_SEGMENT,
	       MAX_SEG_SIZE, SEG_BOUNDARY, DMA_MASK, APERTURE, BOUNCE_SLOTS,
	       SEGMENTS, DOT };
	static const struct option longopts[] = {
		{ "io-size", required_argument, NULL, 's' },
		{ "layout", required_argument, NULL, 'l' },
		{ "seed", required_argument, NULL, SEED },
		{ "offset", required_argument, NULL, OFFSET },
		{ "entry-size", required_argument, NULL, 'e' },
		{ "table-size", required_argument, NULL, 't' },
		{ "max-segments", required_argument, NULL, MAX_SEGMENTS },
		{ "pools", no_argument, NULL, POOLS },
		{ "from-pages", no_argument, NULL, FROM_PAGES },
		{ "max-segment", required_argument, NULL, MAX_SEGMENT },
		{ "mapper", required_argument, NULL, 'm' },
		{ "max-seg-size", required_argument, NULL, MAX_SEG_SIZE },
		{ "seg-boundary", required_argument, NULL, SEG_BOUNDARY },
		{ "dma-mask", required_argument, NULL, DMA_MASK },
		{ "aperture", required_argument, NULL, APERTURE },
		{ "bounce-slots", required_argument, NULL, BOUNCE_SLOTS },
		{ "segments", no_argument, NULL, SEGMENTS },
		{ "dot", required_argument, NULL, DOT },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	bool offset_set = false, mask_set = false, tables_set = false;
	bool max_segment_set = false;
	int c;

	*o = (struct options){
		.io_size = 8 << 20, .layout = SCATTERED, .seed = 1,
		.entry_size = sizeof(struct scatterlist), .table_size = PAGE_SIZE,
		.max_segments = SG_MAX_SEGMENTS, .mapper = DIRECT,
		.max_seg_size = 65536, .seg_boundary = 0xffffffff, .dma_bits = 64,
		.aperture = 65536, .bounce_slots = 8192, .max_segment = UINT_MAX,
	};
	opterr = 0;
	while ((c = getopt_long(argc, argv, ":s:l:e:t:m:h", longopts, NULL)) != -1) {
		switch (c) {
		case 's': o->io_size = parse_number(optarg, true); break;
		case 'l':
			if (!strcmp(optarg, "contiguous")) o->layout = CONTIGUOUS;
			else if (!strcmp(optarg, "scattered")) o->layout = SCATTERED;
			else if (!strcmp(optarg, "random")) o->layout = RANDOM;
			else if (!strcmp(optarg, "misaligned")) o->layout = MISALIGNED;
			else bad_usage("unknown layout %s", optarg);
			break;
		case SEED: o->seed = parse_number(optarg, false); break;
		case OFFSET:
			o->offset = parse_number(optarg, false);
			offset_set = true;
			break;
		case 'e':
			o->entry_size = parse_number(optarg, false);
			tables_set = true;
			break;
		case 't':
			o->table_size = parse_number(optarg, true);
			tables_set = true;
			break;
		case MAX_SEGMENTS: o->max_segments = parse_number(optarg, false); break;
		case POOLS: o->pools = true; break;
		case FROM_PAGES: o->from_pages = true; break;
		case MAX_SEGMENT:
			o->max_segment = parse_number(optarg, true);
			max_segment_set = true;
			break;
		case 'm':
			if (!strcmp(optarg, "direct")) o->mapper = DIRECT;
			else if (!strcmp(optarg, "iommu")) o->mapper = IOMMU;
			else if (!strcmp(optarg, "swiotlb")) o->mapper = SWIOTLB;
			else bad_usage("unknown mapper %s (direct, iommu, swiotlb)", optarg);
			break;
		case MAX_SEG_SIZE: o->max_seg_size = parse_number(optarg, true); break;
		case SEG_BOUNDARY: o->seg_boundary = parse_number(optarg, false); break;
		case DMA_MASK:
			o->dma_bits = parse_number(optarg, false);
			mask_set = true;
			break;
		case APERTURE: o->aperture = parse_number(optarg, false); break;
		case BOUNCE_SLOTS: o->bounce_slots = parse_number(optarg, false); break;
		case SEGMENTS: o->all_segments = true; break;
		case DOT: o->dot = optarg; break;
		case 'h':
			printf(usage, sizeof(struct scatterlist), PAGE_SIZE,
			       (unsigned int)SG_MAX_SEGMENTS);
			exit(0);
		case ':': bad_usage("option %s needs a value", argv[optind - 1]);
		default: bad_usage("unknown option %s", argv[optind - 1]);
		}
	}
	if (optind < argc)
		bad_usage("unexpected argument %s", argv[optind]);
	if (o->layout == MISALIGNED && !offset_set)
		o->offset = 512;
	if (o->mapper == SWIOTLB && !mask_set)
		o->dma_bits = 32;
	if (!o->io_size || o->io_size > 1ULL << 30)
		bad_usage("--io-size must be 1 byte to 1G, not %s", "the value given");
	if (o->offset >= PAGE_SIZE)
		bad_usage("--offset must be below the page size, %s", "4096");
	if (o->entry_size < 8 || o->table_size < 2 * o->entry_size)
		bad_usage("a table must hold two entries of at least 8 bytes%s", "");
	if (o->from_pages && (o->pools || tables_set))
		bad_usage("--from-pages builds the kernel's page-sized tables: no --pools, -e or -t%s", "");
	if (max_segment_set && !o->from_pages)
		bad_usage("--max-segment goes with --from-pages%s", "");
	if (o->from_pages && o->max_segment < PAGE_SIZE)
		bad_usage("--max-segment must be a page or more, %s", "4096");
	if (!o->max_segments || !o->max_seg_size || o->dma_bits < 24 ||
	    o->dma_bits > 64 || !o->aperture || !o->bounce_slots)
		bad_usage("a limit is zero or out of range%s", "");
}

/* Pages the buffer touches: from @offset in its first page. */
static unsigned long pages_touched(const struct options *o)
{
	return (o->offset + o->io_size + PAGE_SIZE - 1) / PAGE_SIZE;
}

static void layout_pfns(const struct options *o, unsigned long *pfns,
			unsigned long n)
{
	/* High enough that a 32-bit device needs bounces with swiotlb. */
	unsigned long base = o->mapper == SWIOTLB ? 0x200000 : 0x10000;

	switch (o->layout) {
	case CONTIGUOUS: mock_pfns_contiguous(pfns, n, base); break;
	case SCATTERED:
	case MISALIGNED: mock_pfns_strided(pfns, n, base, 2); break;
	case RANDOM: mock_pfns_random(pfns, n, base, 8 * n + 64, o->seed); break;
	}
}

static struct scatterlist *table_alloc(unsigned int nents, gfp_t gfp)
{
	return kmalloc_array(nents, sizeof(struct scatterlist), gfp);
}

static void table_free(struct scatterlist *sgl, unsigned int nents)
{
	(void)nents;
	kfree(sgl);
}

static void print_size(const char *label, unsigned long long bytes)
{
	if (bytes >= 1 << 20 && bytes % (1 << 20) == 0)
		printf("%s%llu MiB", label, bytes >> 20);
	else if (bytes >= 1024)
		printf("%s%.0f KiB", label, bytes / 1024.0);
	else
		printf("%s%llu bytes", label, bytes);
	printf(" (%llu bytes, %.0f kB)", bytes, bytes / 1000.0);
}

/* Tables, in list order, as the data structure has them. */
static unsigned int walk_tables(struct scatterlist *sgl, unsigned int nents,
				struct scatterlist **heads, unsigned int *sizes)
{
	struct scatterlist *sg, *head = sgl;
	unsigned int i, t = 0, in_table = 0;

	for_each_sg(sgl, sg, nents, i) {
		if (sg != head + in_table) {	/* followed a link */
			heads[t] = head;
			sizes[t++] = in_table;
			head = sg;
			in_table = 0;
		}
		in_table++;
	}
	heads[t] = head;
	sizes[t++] = in_table;
	return t;
}

static void write_dot(const char *path, struct scatterlist **heads,
		      const unsigned int *sizes, unsigned int tables)
{
	FILE *f = fopen(path, "w");
	unsigned int t, j, first = 0;

	if (!f) {
		fprintf(stderr, "sgsim: cannot write %s: %s\n", path, strerror(errno));
		exit(1);
	}
	fprintf(f, "digraph sg_chain {\n\trankdir=LR;\n\tnode [shape=record, fontname=monospace];\n");
	for (t = 0; t < tables; t++) {
		bool linked = t + 1 < tables;

		fprintf(f, "\tt%u [label=\"table %u", t, t);
		for (j = 0; j < sizes[t]; j++) {
			/* Long tables: the first two and the last entry. */
			if (sizes[t] > 4 && j == 2) {
				fprintf(f, "|... %u more ...", sizes[t] - 3);
				j = sizes[t] - 2;
				continue;
			}
			fprintf(f, "|%u: %u bytes%s", first + j, heads[t][j].length,
				!linked && j + 1 == sizes[t] ? " END" : "");
		}
		if (linked)
			fprintf(f, "|<link> link");
		fprintf(f, "\"];\n");
		if (linked)
			fprintf(f, "\tt%u:link -> t%u;\n", t, t + 1);
		first += sizes[t];
	}
	fprintf(f, "}\n");
	fclose(f);
}

static void setup_device(const struct options *o, struct device *dev,
			 struct usim_iommu **mmu, struct usim_swiotlb **pool)
{
	usim_device_init(dev, "sgsim", DMA_BIT_MASK(o->dma_bits));
	dma_set_max_seg_size(dev, o->max_seg_size);
	dma_set_seg_boundary(dev, o->seg_boundary);
	switch (o->mapper) {
	case DIRECT:
		usim_device_attach_direct(dev);
		break;
	case IOMMU:
		*mmu = usim_iommu_create(o->aperture);
		usim_device_attach_iommu(dev, *mmu);
		printf("mapper: iommu, aperture %lu pages, ", o->aperture);
		break;
	case SWIOTLB:
		*pool = usim_swiotlb_create(o->bounce_slots, 0x1000);
		usim_device_attach_swiotlb(dev, *pool);
		printf("mapper: swiotlb, %lu slots, ", o->bounce_slots);
		break;
	}
	if (o->mapper == DIRECT)
		printf("mapper: direct, ");
	printf("%u-bit DMA mask, max segment %u, boundary %#llx\n", o->dma_bits,
	       o->max_seg_size, o->seg_boundary);
}

static void print_segments(const struct options *o, struct scatterlist *sgl,
			   int mapped)
{
	struct scatterlist *sg;
	int i;

	for_each_sg(sgl, sg, mapped, i) {
		if (!o->all_segments && i == 4 && mapped > 6) {
			printf("  ... %d more ...\n", mapped - 5);
			continue;
		}
		if (!o->all_segments && i > 4 && i < mapped - 1)
			continue;
		printf("  segment %d: dma %#llx, %u bytes\n", i,
		       (unsigned long long)sg_dma_address(sg), sg_dma_len(sg));
	}
}

int main(int argc, char **argv)
{
	struct options o;
	unsigned long npages, *pfns, per_table, i;
	unsigned long long table_bytes, left;
	struct mock_page_arena *arena;
	struct usim_iommu *mmu = NULL;
	struct usim_swiotlb *pool = NULL;
	struct scatterlist **heads, *sg;
	unsigned int *sizes, tables, nents, j;
	struct sg_table table;
	struct device dev;
	int ret, mapped = 0;

	parse_options(argc, argv, &o);
	npages = pages_touched(&o);
	nents = npages;
	per_table = o.table_size / o.entry_size;

	printf("I/O: ");
	print_size("", o.io_size);
	printf(" from offset %u in its first page: %u entries, one per page piece\n",
	       o.offset, nents);
	printf("table: %u bytes / %u-byte entries = %lu entries, %lu of data when linked\n",
	       o.table_size, o.entry_size, per_table, per_table - 1);
	printf("largest command without chaining: %lu entries = ",
	       per_table < o.max_segments ? per_table : o.max_segments);
	print_size("", (per_table < o.max_segments ? per_table : o.max_segments) * PAGE_SIZE);
	printf("\nlargest command with chaining: %u entries (max-segments) = ", o.max_segments);
	print_size("", (unsigned long long)o.max_segments * PAGE_SIZE);
	printf("\n");
	if (nents > o.max_segments)
		printf("note: %u entries exceed max-segments: the block layer would split this I/O into %lu commands\n",
		       nents, (nents + o.max_segments - 1UL) / o.max_segments);

	pfns = calloc(npages, sizeof(*pfns));
	heads = calloc(nents, sizeof(struct scatterlist *));
	sizes = calloc(nents, sizeof(*sizes));
	arena = NULL;
	if (!pfns || !heads || !sizes)
		goto out;
	layout_pfns(&o, pfns, npages);
	arena = mock_page_arena_create(npages, pfns);
	if (!arena) {
		fprintf(stderr, "sgsim: cannot create %lu pages\n", npages);
		goto out;
	}

	if (o.from_pages) {
		struct page **pages = calloc(npages, sizeof(struct page *));

		if (!pages)
			goto out;
		for (i = 0; i < npages; i++)
			pages[i] = mock_page_arena_page(arena, i);
		ret = sg_alloc_table_from_pages_segment(&table, pages, npages, o.offset,
							o.io_size, o.max_segment,
							GFP_KERNEL);
		free(pages);
		if (!ret) {
			nents = table.nents;
			printf("from pages: %lu pages merged into %u entries (max-segment ",
			       npages, nents);
			if (o.max_segment == UINT_MAX)
				printf("unlimited)\n");
			else
				print_size("", o.max_segment & PAGE_MASK), printf(")\n");
		}
	} else if (o.pools) {
		ret = sg_alloc_table_chained(&table, nents, NULL, 0);
	} else {
		ret = __sg_alloc_table(&table, nents, per_table, NULL, 0,
				       GFP_KERNEL, table_alloc);
	}
	if (ret) {
		fprintf(stderr, "sgsim: allocating %u entries failed: %s\n", nents,
			ret == -EINVAL ? "-EINVAL" : "-ENOMEM");
		goto out;
	}
	/* One entry per page piece, unless the kernel's code set them. */
	left = o.io_size;
	for_each_sg(table.sgl, sg, o.from_pages ? 0 : nents, j) {
		unsigned int off = j ? 0 : o.offset;
		unsigned int len = left < PAGE_SIZE - off ? left : PAGE_SIZE - off;

		sg_set_page(sg, mock_page_arena_page(arena, j), len, off);
		left -= len;
	}

	tables = walk_tables(table.sgl, nents, heads, sizes);
	table_bytes = o.pools || o.from_pages ? 0 :
		      (unsigned long long)tables * o.table_size;
	/* sg_kmalloc(): a page for a full table, kmalloc for a shorter one. */
	for (i = 0; o.from_pages && i < tables; i++) {
		unsigned int size = sizes[i] + (i + 1 < tables);

		table_bytes += size == SG_MAX_SINGLE_ALLOC ? PAGE_SIZE :
			       size * sizeof(struct scatterlist);
	}
	printf("chain: %u tables, %u links", tables, tables - 1);
	if (o.pools) {
		/* The pools' tables are 8..128 entries of this build's size. */
		printf("; pools:");
		for (i = 0; i < tables; i++) {
			unsigned int size = sizes[i] + (i + 1 < tables);
			unsigned int pool_size = 8;

			while (pool_size < size)
				pool_size *= 2;
			table_bytes += pool_size * sizeof(struct scatterlist);
			if (i == 0 || i + 1 == tables || sizes[i] != sizes[i - 1])
				printf(" %ssgpool-%u", i ? "... " : "", pool_size);
		}
	}
	printf("\nentries per table:");
	for (i = 0; i < tables && i < 6; i++)
		printf(" %u", sizes[i]);
	if (tables > 6)
		printf(" ... %u", sizes[tables - 1]);
	printf("\nsg table memory: %llu bytes, %.0f bytes per MiB of I/O\n",
	       table_bytes, table_bytes * (double)(1 << 20) / o.io_size);
	if (o.dot) {
		write_dot(o.dot, heads, sizes, tables);
		printf("wrote %s (dot -Tpng %s -o chain.png)\n", o.dot, o.dot);
	}

	setup_device(&o, &dev, &mmu, &pool);
	mapped = dma_map_sg(&dev, table.sgl, nents, DMA_TO_DEVICE);
	if (!mapped) {
		printf("DMA mapping failed: aperture or bounce pool too small\n");
	} else {
		printf("DMA segments: %d for %u entries", mapped, nents);
		if (pool)
			printf(" (%lu bounced)", usim_swiotlb_bounced(pool));
		printf("\n");
		print_segments(&o, table.sgl, mapped);
		dma_unmap_sg(&dev, table.sgl, nents, DMA_TO_DEVICE);
	}

	if (o.from_pages)
		sg_free_table(&table);
	else if (o.pools)
		sg_free_table_chained(&table, 0);
	else
		__sg_free_table(&table, per_table, 0, table_free, table.orig_nents);
	usim_iommu_destroy(mmu);
	usim_swiotlb_destroy(pool);
out:
	mock_page_arena_destroy(arena);
	free(pfns);
	free(heads);
	free(sizes);
	return mapped ? 0 : 1;
}
