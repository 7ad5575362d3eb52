/*
 * libFuzzer harness for sgchain: the input is a program of operations on
 * up to four lists (allocate with a fault schedule, hand-chain tables,
 * move the end marker, walk, sg_nents_for_len, map through a mapper with
 * faults and move data, free), each checked against a reference model kept
 * on flat arrays. A mismatch aborts; so do sanitizer reports; anything
 * left allocated or reported by a mock after an input is a failure too.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <linux/dma-mapping.h>
#include <linux/scatterlist.h>
#include <linux/slab.h>

#include "dma_mappers.h"
#include "fault_inject.h"
#include "mock_dma_device.h"
#include "mock_mempool.h"
#include "mock_page.h"
#include "mock_slab.h"
#include "sg_chain_cases.h"
#include "usim_report.h"

#define CHECK(cond, ...)						\
	do {								\
		if (!(cond)) {						\
			fprintf(stderr, "fuzz: %s:%d: %s: ", __FILE__,	\
				__LINE__, #cond);			\
			fprintf(stderr, __VA_ARGS__);			\
			fputc('\n', stderr);				\
			abort();					\
		}							\
	} while (0)

#define SLOTS		4
#define MAX_NENTS	3000
#define ARENA_PAGES	64
#define MAX_TABLES	6

/* The input, read a byte at a time; zeros once it runs out. */
struct input {
	const uint8_t *p;
	size_t left;
};

static unsigned int byte(struct input *in)
{
	if (!in->left)
		return 0;
	in->left--;
	return *in->p++;
}

static unsigned int word(struct input *in)
{
	return byte(in) | byte(in) << 8;
}

enum kind { EMPTY, CHAINED, CHAINED_INLINE, KMALLOC, RAW, HAND };

/* A list and its model: the entries in walk order, and where it ends. */
struct slot {
	enum kind kind;
	struct sg_table table;
	struct scatterlist inline_sg[2];
	unsigned int raw_max;			/* RAW: entries per table */
	struct scatterlist *hand[MAX_TABLES];	/* HAND: the tables */
	unsigned int ntables;
	struct scatterlist **flat;		/* model: entry i of the walk */
	unsigned int n;				/* entries allocated */
	unsigned int end;			/* model: entries up to the end mark */
};

static struct slot slots[SLOTS];
static struct mock_page_arena *arena;
static unsigned long pfns[ARENA_PAGES];
/* One IOMMU and one bounce pool for every input: each must end empty. */
static struct usim_iommu *mmu;
static struct usim_swiotlb *pool;

static struct scatterlist *raw_alloc(unsigned int nents, gfp_t gfp)
{
	return kmalloc_array(nents, sizeof(struct scatterlist), gfp);
}

static void raw_free(struct scatterlist *sgl, unsigned int nents)
{
	(void)nents;
	kfree(sgl);
}

/* Give the entries pages and lengths from the input; record the model. */
static void fill(struct slot *s, struct input *in)
{
	struct scatterlist *sg;
	unsigned int i;

	s->flat = calloc(s->n, sizeof(*s->flat));
	CHECK(s->flat, "out of memory");
	for_each_sg(s->table.sgl, sg, s->n, i) {
		unsigned int off = byte(in) % 2 ? 0 : (i * 37) % PAGE_SIZE;
		unsigned int len = 1 + (i * 131 + byte(in)) % (PAGE_SIZE - off);

		if (byte(in) & 1)
			len = PAGE_SIZE - off;	/* ends on a page: merges */
		sg_set_page(sg, mock_page_arena_page(arena, (i * 7 + byte(in)) % ARENA_PAGES),
			    len, off);
		s->flat[i] = sg;
	}
	s->end = s->n;
}

static void slot_free(struct slot *s)
{
	unsigned int t;

	/* The allocators free by count: put the end back where it was. */
	if (s->kind != EMPTY && s->end != s->n) {
		sg_unmark_end(s->flat[s->end - 1]);
		sg_mark_end(s->flat[s->n - 1]);
	}
	switch (s->kind) {
	case CHAINED: sg_free_table_chained(&s->table, 0); break;
	case CHAINED_INLINE: sg_free_table_chained(&s->table, 2); break;
	case KMALLOC: sg_free_table(&s->table); break;
	case RAW:
		__sg_free_table(&s->table, s->raw_max, 0, raw_free, s->table.orig_nents);
		break;
	case HAND:
		for (t = 0; t < s->ntables; t++)
			free(s->hand[t]);
		break;
	case EMPTY: break;
	}
	free(s->flat);
	memset(s, 0, sizeof(*s));
}

static void op_alloc(struct slot *s, struct input *in)
{
	unsigned int how = byte(in) % 4, n = 1 + word(in) % MAX_NENTS;
	unsigned int fault = byte(in), cap1 = SG_CHUNK_SIZE, max = SG_CHUNK_SIZE;
	/* The chained allocators draw on the mempools, the others on slab. */
	struct usim_fault *f = how < 2 ? &usim_mempool_fault : &usim_slab_fault;
	unsigned long before, pooled;
	int ret;

	slot_free(s);
	before = usim_slab_outstanding();
	pooled = usim_mempool_outstanding_all();
	if (fault & 0x80)
		usim_fault_fail_nth(f, fault & 0x3f);
	switch (how) {
	case 0:
		ret = sg_alloc_table_chained(&s->table, n, NULL, 0);
		s->kind = CHAINED;
		break;
	case 1:
		s->table.sgl = s->inline_sg;
		ret = sg_alloc_table_chained(&s->table, n, s->inline_sg, 2);
		s->kind = CHAINED_INLINE;
		cap1 = 2;
		break;
	case 2:
		ret = sg_alloc_table(&s->table, n, GFP_KERNEL);
		s->kind = KMALLOC;
		cap1 = max = SG_MAX_SINGLE_ALLOC;
		break;
	default:
		s->raw_max = cap1 = max = 2 + byte(in) % 30;
		ret = __sg_alloc_table(&s->table, n, s->raw_max, NULL, 0,
				       GFP_KERNEL, raw_alloc);
		s->kind = RAW;
		break;
	}
	CHECK(ret == 0 || f->failures == 1, "n=%u: %d without a fault", n, ret);
	CHECK(ret == 0 || ret == -ENOMEM, "n=%u: returned %d", n, ret);
	usim_fault_reset(f);
	if (ret) {
		if (s->kind == RAW)	/* the caller frees what was built */
			__sg_free_table(&s->table, s->raw_max, 0, raw_free,
					s->table.orig_nents);
		CHECK(usim_slab_outstanding() == before &&
		      usim_mempool_outstanding_all() == pooled,
		      "n=%u: failed allocation left memory", n);
		memset(s, 0, sizeof(*s));
		return;
	}
	s->n = n;
	fill(s, in);
	{
		struct sg_chain_shape shape = sg_chain_expected_shape(n, cap1, max);
		struct scatterlist *table = s->table.sgl;
		unsigned int t, j, i = 0;

		/* The model's table layout, read straight from the links. */
		for (t = 0; t < shape.tables; t++) {
			unsigned int data = sg_chain_table_data(&shape, t, max);

			for (j = 0; j < data; j++, i++)
				CHECK(&table[j] == s->flat[i], "n=%u: entry %u misplaced", n, i);
			if (t + 1 < shape.tables) {
				CHECK(sg_is_chain(&table[data]), "n=%u: no link in table %u", n, t);
				table = sg_chain_ptr(&table[data]);
			}
		}
		CHECK(i == n, "n=%u: model saw %u entries", n, i);
	}
}

static void op_hand(struct slot *s, struct input *in)
{
	unsigned int sizes[MAX_TABLES], t, j, total = 0;

	slot_free(s);
	s->ntables = 1 + byte(in) % MAX_TABLES;
	for (t = 0; t < s->ntables; t++) {
		/* Tables that link need room for data and the link. */
		sizes[t] = (t + 1 < s->ntables ? 2 : 1) + byte(in) % 9;
		s->hand[t] = calloc(sizes[t], sizeof(struct scatterlist));
		CHECK(s->hand[t], "out of memory");
		sg_init_table(s->hand[t], sizes[t]);
		total += sizes[t] - (t + 1 < s->ntables);
	}
	s->kind = HAND;
	s->n = total;
	s->flat = calloc(total, sizeof(*s->flat));
	CHECK(s->flat, "out of memory");
	for (t = 0, total = 0; t < s->ntables; t++) {
		for (j = 0; j < sizes[t] - (t + 1 < s->ntables); j++, total++) {
			sg_set_page(&s->hand[t][j], mock_page_arena_page(arena, total % ARENA_PAGES),
				    1 + byte(in) * 16, 0);
			s->flat[total] = &s->hand[t][j];
		}
		if (t + 1 < s->ntables)
			sg_chain(s->hand[t], sizes[t], s->hand[t + 1]);
	}
	s->table.sgl = s->hand[0];
	s->end = s->n;
}

static void op_walk(struct slot *s)
{
	struct scatterlist *sg;
	unsigned int i;

	CHECK(sg_validate(s->table.sgl, s->end) == SG_VALID, "invalid list");
	for_each_sg(s->table.sgl, sg, s->end, i)
		CHECK(sg == s->flat[i], "for_each_sg entry %u", i);
	for (i = 0, sg = s->table.sgl; sg; sg = sg_next(sg), i++)
		CHECK(i < s->end && sg == s->flat[i], "sg_next entry %u", i);
	CHECK(i == s->end, "sg_next saw %u of %u", i, s->end);
	CHECK(sg_nents(s->table.sgl) == (int)s->end, "sg_nents");
	CHECK(sg_last(s->table.sgl, s->end) == s->flat[s->end - 1], "sg_last");
	CHECK(!sg_last(s->table.sgl, s->end + 1), "sg_last past the end");
}

static void op_end(struct slot *s, struct input *in)
{
	unsigned int k = word(in) % s->n;

	/* Move the end marker to entry k (entries after it stay, unwalked). */
	sg_unmark_end(s->flat[s->end - 1]);
	sg_mark_end(s->flat[k]);
	s->end = k + 1;
	op_walk(s);
}

static void op_nents_for_len(struct slot *s, struct input *in)
{
	uint64_t want = word(in) * 13ULL, sum = 0;
	unsigned int i;
	int expect = -EINVAL;

	if (!want)
		expect = 0;
	for (i = 0; i < s->end && expect == -EINVAL; i++) {
		sum += s->flat[i]->length;
		if (sum >= want)
			expect = i + 1;
	}
	CHECK(sg_nents_for_len(s->table.sgl, want) == expect, "len %llu",
	      (unsigned long long)want);
}

/* The model of the merging IOMMU: segments of the first @n entries. */
static int model_segments(struct slot *s, unsigned int n, unsigned int max_seg)
{
	unsigned int i, segs = 0;
	u64 len = 0, first_off = 0;

	for (i = 0; i < n; i++) {
		struct scatterlist *p = i ? s->flat[i - 1] : NULL, *e = s->flat[i];

		if (p && (p->offset + p->length) % PAGE_SIZE == 0 && e->offset == 0 &&
		    len + e->length <= max_seg &&
		    first_off + len + e->length - 1 <= 0xffffffffULL) {
			len += e->length;
			continue;
		}
		segs++;
		len = e->length;
		first_off = e->offset;
	}
	return segs;
}

static void op_map(struct slot *s, struct input *in)
{
	unsigned int how = byte(in) % 3, fault = byte(in), i;
	struct device dev;
	size_t total = 0, off = 0;
	char *want, *got;
	int mapped;

	usim_device_init(&dev, "fuzz", how == 2 ? DMA_BIT_MASK(32) : DMA_BIT_MASK(64));
	if (how == 0) {
		usim_device_attach_direct(&dev);
	} else if (how == 1) {
		usim_device_attach_iommu(&dev, mmu);
		if (fault & 0x80)
			usim_fault_fail_nth(&usim_iova_fault, fault & 0x3f);
	} else {
		usim_device_attach_swiotlb(&dev, pool);
		if (fault & 0x80)
			usim_fault_fail_nth(&usim_bounce_fault, fault & 0x3f);
	}
	for (i = 0; i < s->end; i++)
		total += s->flat[i]->length;
	want = malloc(total);
	got = malloc(total);
	CHECK(want && got, "out of memory");
	for (i = 0; i < s->end; i++) {
		memcpy(want + off, sg_virt(s->flat[i]), s->flat[i]->length);
		off += s->flat[i]->length;
	}

	mapped = dma_map_sg(&dev, s->table.sgl, s->end, DMA_TO_DEVICE);
	if (mapped) {
		int expect = how == 1 ? model_segments(s, s->end, 65536) : (int)s->end;

		CHECK(mapped == expect, "%s: %d segments, model %d",
		      dev.dma_ops->name, mapped, expect);
		CHECK(usim_dev_dma_read_sg(&dev, s->table.sgl, mapped, got, total) ==
		      (long)total, "device read");
		CHECK(!memcmp(got, want, total), "%s: bytes differ", dev.dma_ops->name);
		dma_unmap_sg(&dev, s->table.sgl, s->end, DMA_TO_DEVICE);
	} else {
		CHECK(usim_iova_fault.failures + usim_bounce_fault.failures == 1,
		      "%s: mapping failed without a fault", dev.dma_ops->name);
	}
	CHECK(!usim_iommu_outstanding(mmu), "IOVA pages left");
	CHECK(!usim_swiotlb_outstanding(pool), "bounce slots left");
	CHECK(sg_validate(s->table.sgl, s->end) == SG_VALID, "mapping broke the list");
	usim_fault_reset(&usim_iova_fault);
	usim_fault_reset(&usim_bounce_fault);
	free(want);
	free(got);
}

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	(void)argc, (void)argv;
	mock_pfns_random(pfns, ARENA_PAGES / 2, 0x10000, 4096, 1);
	mock_pfns_random(pfns + ARENA_PAGES / 2, ARENA_PAGES / 2, 0x200000, 4096, 2);
	arena = mock_page_arena_create(ARENA_PAGES, pfns);
	mmu = usim_iommu_create(8192);
	/* Enough slots for any list: the faults, not the size, make it fail. */
	pool = usim_swiotlb_create(MAX_NENTS, 0x1000);
	return arena && mmu && pool ? 0 : 1;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct input in = { data, size };
	unsigned long slab = usim_slab_outstanding(), errors = usim_error_count();
	unsigned int steps;

	for (steps = 0; in.left && steps < 64; steps++) {
		unsigned int op = byte(&in), k = op >> 4 & (SLOTS - 1);
		struct slot *s = &slots[k];

		switch (op % 8) {
		case 0: case 1: op_alloc(s, &in); break;
		case 2: op_hand(s, &in); break;
		case 3: if (s->kind) op_end(s, &in); break;
		case 4: if (s->kind) op_walk(s); break;
		case 5: if (s->kind) op_nents_for_len(s, &in); break;
		case 6: if (s->kind) op_map(s, &in); break;
		case 7: slot_free(s); break;
		}
	}
	for (steps = 0; steps < SLOTS; steps++)
		slot_free(&slots[steps]);
	CHECK(usim_slab_outstanding() == slab, "%ld objects left",
	      (long)(usim_slab_outstanding() - slab));
	CHECK(!usim_mempool_outstanding_all(), "pool elements left");
	CHECK(usim_error_count() == errors, "a mock reported misuse");
	return 0;
}
