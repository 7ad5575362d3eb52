/*
 * libFuzzer harness for sgchain: the input is a program of operations on
 * up to four lists (allocate with a fault schedule, hand-chain tables,
 * build from runs of pages appended in steps, move the end marker, walk,
 * sg_nents_for_len, copy in and out, iterate with sg_miter and the page
 * iterator, split, map through a mapper with faults and move data, free),
 * each checked against a reference model kept on flat arrays. A mismatch
 * aborts; so do sanitizer reports; anything left allocated or reported by
 * a mock after an input is a failure too.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <linux/dma-mapping.h>
#include <linux/highmem.h>
#include <linux/scatterlist.h>
#include <linux/slab.h>

#include "dma_mappers.h"
#include "fault_inject.h"
#include "mock_dma_device.h"
#include "mock_mempool.h"
#include "mock_page.h"
#include "mock_slab.h"
#include "sg_chain_cases.h"
#include "sg_chain_pages_cases.h"
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
/* Lists from pages: distinct pages of one block of consecutive pfns. */
#define BLOCK_PAGES	2048

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

enum kind { EMPTY, CHAINED, CHAINED_INLINE, KMALLOC, RAW, HAND, PAGES };

/* A list and its model: the entries in walk order, and where it ends. */
struct slot {
	enum kind kind;
	struct sg_table table;
	struct scatterlist inline_sg[2];
	unsigned int raw_max;			/* RAW: entries per table */
	struct scatterlist *hand[MAX_TABLES];	/* HAND: the tables */
	unsigned int ntables;
	struct sg_append_table append;		/* PAGES: the list */
	struct scatterlist **flat;		/* model: entry i of the walk */
	unsigned int n;				/* entries allocated */
	unsigned int end;			/* model: entries up to the end mark */
};

static struct slot slots[SLOTS];
static struct mock_page_arena *arena, *block;
static unsigned long pfns[ARENA_PAGES], block_pfns[BLOCK_PAGES];
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
	case PAGES: sg_free_append_table(&s->append); break;
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

/*
 * A list from pages: runs of consecutive pages of the block (lengths and
 * gaps from the input), appended in steps with a max_segment and buffer
 * ends from the input, an allocation perhaps failing. The entries against
 * the model of sg_chain_pages_cases.h; a failed append leaves the entries
 * the steps before it made.
 */
static void op_pages(struct slot *s, struct input *in)
{
	static unsigned int at[BLOCK_PAGES];
	static unsigned long pp[BLOCK_PAGES];
	static struct page *pages[BLOCK_PAGES];
	static struct sg_chain_page_seg segs[BLOCK_PAGES];
	unsigned int want = 1 + word(in) % MAX_NENTS, n = 0, next = byte(in), done = 0;
	unsigned int max_segment = sg_chain_max_segments[byte(in) %
							 ARRAY_SIZE(sg_chain_max_segments)];
	unsigned int step = 1 + word(in) % 300, fault = byte(in), offset, tail, nsegs, i;
	unsigned long size, before;
	struct scatterlist *sg;
	char why[160];
	int ret = 0;

	slot_free(s);
	before = usim_slab_outstanding();
	while (n < want && next < BLOCK_PAGES) {
		unsigned int run = 1 + byte(in) % 40;

		while (run-- && n < want && next < BLOCK_PAGES)
			at[n++] = next++;
		next += byte(in) % 4;	/* 0: the run goes on */
	}
	offset = byte(in) % 2 ? 0 : word(in) % PAGE_SIZE;
	tail = byte(in) % 2 ? 0 : word(in) % PAGE_SIZE;
	if (n == 1 && offset + tail >= PAGE_SIZE)
		tail = 0;
	size = (unsigned long)n * PAGE_SIZE - offset - tail;
	if (byte(in) % 3 == 0)
		step = n;
	for (i = 0; i < n; i++) {
		pages[i] = mock_page_arena_page(block, at[i]);
		pp[i] = page_to_pfn(pages[i]);
	}
	memset(&s->append, 0, sizeof(s->append));
	if (fault & 0x80)
		usim_fault_fail_nth(&usim_slab_fault, fault & 0x3f);
	while (done < n) {
		unsigned int k = min(step, n - done);
		unsigned long bytes = (unsigned long)k * PAGE_SIZE - (done ? 0 : offset);

		if (done + k == n)
			bytes -= tail;
		ret = sg_alloc_append_table_from_pages(&s->append, pages + done, k,
						       done ? 0 : offset, bytes, max_segment,
						       n - done - k, GFP_KERNEL);
		if (ret)
			break;
		done += k;
	}
	CHECK(ret == 0 || (ret == -ENOMEM && usim_slab_fault.failures == 1),
	      "%u pages in steps of %u: %d", n, step, ret);
	usim_fault_reset(&usim_slab_fault);
	if (ret) {
		/* Whole pages so far: only the last step has the tail. */
		nsegs = done ? sg_chain_pages_model(pp, done, offset,
						    (unsigned long)done * PAGE_SIZE - offset,
						    max_segment, segs) : 0;
		CHECK(s->append.sgt.nents == nsegs, "failed at page %u: %u entries, model %u",
		      done, s->append.sgt.nents, nsegs);
		for_each_sg(s->append.sgt.sgl, sg, s->append.sgt.nents, i)
			CHECK(sg_page(sg) == pages[segs[i].first] && sg->offset == segs[i].offset &&
			      sg->length == segs[i].length, "failed at page %u: entry %u changed",
			      done, i);
		sg_free_append_table(&s->append);
		CHECK(usim_slab_outstanding() == before, "a failed append left memory");
		memset(s, 0, sizeof(*s));
		return;
	}
	nsegs = sg_chain_pages_model(pp, n, offset, size, max_segment, segs);
	CHECK(!sg_chain_pages_check(s->append.sgt.sgl, s->append.sgt.nents, pages, segs, nsegs,
				    why, sizeof(why)),
	      "%u pages, steps of %u, max_segment %u, offset %u, tail %u: %s", n, step,
	      max_segment, offset, tail, why);
	s->kind = PAGES;
	s->table = s->append.sgt;
	s->n = s->end = nsegs;
	s->flat = calloc(nsegs, sizeof(*s->flat));
	CHECK(s->flat, "out of memory");
	for_each_sg(s->table.sgl, sg, nsegs, i)
		s->flat[i] = sg;
}

/* The model's bytes: the entries up to the end marker, in walk order. */
static size_t model_bytes(struct slot *s, unsigned char **bytes)
{
	size_t total = 0, off = 0;
	unsigned int i;

	for (i = 0; i < s->end; i++)
		total += s->flat[i]->length;
	*bytes = malloc(total + 1);
	CHECK(*bytes, "out of memory");
	for (i = 0; i < s->end; i++) {
		memcpy(*bytes + off, sg_virt(s->flat[i]), s->flat[i]->length);
		off += s->flat[i]->length;
	}
	return total;
}

/* A place in the bytes: anywhere, or around the start of an entry. */
static size_t model_point(struct slot *s, struct input *in, size_t total)
{
	unsigned int e = word(in) % s->end, i;
	size_t at = 0;

	if (byte(in) % 2)
		return (word(in) * 37UL) % (total + 1);
	for (i = 0; i < e; i++)
		at += s->flat[i]->length;
	switch (byte(in) % 3) {
	case 0: return at ? at - 1 : 0;
	case 1: return at;
	default: return at + 1 <= total ? at + 1 : total;
	}
}

/*
 * Copies: out of the list at a skip, compared with the model; into it,
 * or zeroing, where the list's pages are its own (lists from pages), then
 * every entry read back through the model's flat array.
 */
static void op_copy(struct slot *s, struct input *in)
{
	unsigned char *model, *buf;
	size_t total = model_bytes(s, &model), skip = model_point(s, in, total);
	size_t len = word(in) * 7UL, want = skip >= total ? 0 : min(len, total - skip), off = 0;
	unsigned int i;

	buf = malloc(len + 1);
	CHECK(buf, "out of memory");
	CHECK(sg_pcopy_to_buffer(s->table.sgl, s->end, buf, len, skip) == want,
	      "sg_pcopy_to_buffer(%zu at %zu of %zu)", len, skip, total);
	CHECK(!memcmp(buf, model + skip, want), "copied out %zu at %zu: bytes differ", len, skip);
	if (s->kind == PAGES) {
		if (byte(in) % 2) {
			for (i = 0; i < want; i++)
				buf[i] = (unsigned char)(byte(in) ^ i);
			CHECK(sg_pcopy_from_buffer(s->table.sgl, s->end, buf, len, skip) == want,
			      "sg_pcopy_from_buffer(%zu at %zu)", len, skip);
			memcpy(model + skip, buf, want);
		} else {
			CHECK(sg_zero_buffer(s->table.sgl, s->end, len, skip) == want,
			      "sg_zero_buffer(%zu at %zu)", len, skip);
			memset(model + skip, 0, want);
		}
		for (i = 0; i < s->end; i++) {
			CHECK(!memcmp(sg_virt(s->flat[i]), model + off, s->flat[i]->length),
			      "after copying %zu in at %zu: entry %u differs", len, skip, i);
			off += s->flat[i]->length;
		}
	}
	free(buf);
	free(model);
}

/*
 * sg_miter (atomic or not, consuming part of some pieces) gives the
 * model's bytes in order; the page iterator gives every page each entry
 * spans, once, in order.
 */
static void op_iterate(struct slot *s, struct input *in)
{
	unsigned int flags = SG_MITER_FROM_SG | (byte(in) % 2 ? SG_MITER_ATOMIC : 0);
	unsigned int cut = 1 + byte(in) % 4, pieces = 0, i = 0, p = 0;
	struct sg_mapping_iter miter;
	struct sg_page_iter piter;
	unsigned char *model;
	size_t total = model_bytes(s, &model), pos = 0;

	sg_miter_start(&miter, s->table.sgl, s->end, flags);
	while (sg_miter_next(&miter)) {
		size_t take = pieces++ % cut == 0 && miter.length > 1 ?
			      miter.length / 2 : miter.length;

		CHECK(miter.length <= PAGE_SIZE && pos + take <= total, "piece of %zu at %zu",
		      miter.length, pos);
		CHECK(!memcmp(miter.addr, model + pos, take), "sg_miter: %zu bytes at %zu differ",
		      take, pos);
		miter.consumed = take;
		pos += take;
	}
	sg_miter_stop(&miter);
	CHECK(pos == total, "sg_miter gave %zu of %zu bytes", pos, total);
	CHECK(!usim_kmap_outstanding(), "sg_miter left a page mapped");
	for_each_sg_page(s->table.sgl, &piter, s->end, 0) {
		struct scatterlist *e = s->flat[i];

		CHECK(i < s->end, "page iterator past the end");
		CHECK(page_to_pfn(sg_page_iter_page(&piter)) == page_to_pfn(sg_page(e)) + p,
		      "page iterator: entry %u page %u", i, p);
		if (++p == DIV_ROUND_UP(e->offset + e->length, PAGE_SIZE)) {
			i++;
			p = 0;
		}
	}
	CHECK(i == s->end && !p, "page iterator stopped at entry %u page %u", i, p);
	free(model);
}

/*
 * sg_split() into 1 to 3 parts after a skip, an allocation perhaps
 * failing: each part holds the model's bytes of its range. A part may have
 * size 0, and one part may take exactly the rest of the list: a part of
 * size 0 that starts at the list's end has no entry to start in, so the
 * split is refused (-EINVAL); anywhere else it is an empty part.
 */
static void op_split(struct slot *s, struct input *in)
{
	unsigned char *model, *buf;
	size_t total = model_bytes(s, &model), skip = model_point(s, in, total), sizes[3], at;
	int parts = 1 + byte(in) % 3, out_nents[3], ret, p, want = 0;
	unsigned int fault = byte(in), shape = byte(in);
	unsigned long before = usim_slab_outstanding();
	struct scatterlist *out[3];

	if (total - skip < (size_t)parts) {
		free(model);
		return;
	}
	for (p = 0, at = skip; p < parts; at += sizes[p], p++) {
		if (shape >> (2 * p) & 1)
			sizes[p] = 0;
		else if (shape >> (2 * p) & 2)
			sizes[p] = total - at;	/* the rest: later parts start at the end */
		else
			sizes[p] = 1 + word(in) % ((total - skip) / parts);
		if (at + sizes[p] > total)
			sizes[p] = total - at;
		if (!sizes[p] && at == total)
			want = -EINVAL;
	}
	if (fault & 0x80)
		usim_fault_fail_nth(&usim_slab_fault, fault & 7);
	ret = sg_split(s->table.sgl, 0, skip, parts, sizes, out, out_nents, GFP_KERNEL);
	CHECK(ret == want || (ret == -ENOMEM && usim_slab_fault.failures == 1),
	      "sg_split of %d parts at %zu (sizes %zu %zu %zu of %zu): %d, want %d", parts,
	      skip, sizes[0], parts > 1 ? sizes[1] : 0, parts > 2 ? sizes[2] : 0, total, ret,
	      want);
	usim_fault_reset(&usim_slab_fault);
	if (ret) {
		CHECK(usim_slab_outstanding() == before, "a failed sg_split left memory");
		free(model);
		return;
	}
	for (p = 0, at = skip; p < parts; at += sizes[p], p++) {
		buf = malloc(sizes[p] + 1);
		CHECK(buf, "out of memory");
		CHECK(sg_nents(out[p]) == out_nents[p], "part %d: %d entries, said %d", p,
		      sg_nents(out[p]), out_nents[p]);
		CHECK(sg_copy_to_buffer(out[p], out_nents[p], buf, sizes[p]) == sizes[p] &&
		      !memcmp(buf, model + at, sizes[p]), "part %d (%zu bytes at %zu) differs",
		      p, sizes[p], at);
		CHECK(sg_chain_list_bytes(out[p], out_nents[p]) == sizes[p],
		      "part %d describes %zu bytes, not %zu", p,
		      sg_chain_list_bytes(out[p], out_nents[p]), sizes[p]);
		free(buf);
		kfree(out[p]);
	}
	free(model);
}

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	(void)argc, (void)argv;
	mock_pfns_random(pfns, ARENA_PAGES / 2, 0x10000, 4096, 1);
	mock_pfns_random(pfns + ARENA_PAGES / 2, ARENA_PAGES / 2, 0x200000, 4096, 2);
	arena = mock_page_arena_create(ARENA_PAGES, pfns);
	mock_pfns_contiguous(block_pfns, BLOCK_PAGES, 0x400000);
	block = mock_page_arena_create(BLOCK_PAGES, block_pfns);
	mmu = usim_iommu_create(8192);
	/* Enough slots for any list: the faults, not the size, make it fail. */
	pool = usim_swiotlb_create(MAX_NENTS, 0x1000);
	return arena && block && mmu && pool ? 0 : 1;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct input in = { data, size };
	unsigned long slab = usim_slab_outstanding(), errors = usim_error_count();
	unsigned int steps;

	for (steps = 0; in.left && steps < 64; steps++) {
		unsigned int op = byte(&in), k = op >> 4 & (SLOTS - 1);
		struct slot *s = &slots[k];

		switch (op % 12) {
		case 0: case 1: op_alloc(s, &in); break;
		case 2: op_hand(s, &in); break;
		case 3: if (s->kind) op_end(s, &in); break;
		case 4: if (s->kind) op_walk(s); break;
		case 5: if (s->kind) op_nents_for_len(s, &in); break;
		/* The mappers' models take entries within a page: not PAGES. */
		case 6: if (s->kind && s->kind != PAGES) op_map(s, &in); break;
		case 7: slot_free(s); break;
		case 8: op_pages(s, &in); break;
		case 9: if (s->kind) op_copy(s, &in); break;
		case 10: if (s->kind) op_iterate(s, &in); break;
		case 11: if (s->kind) op_split(s, &in); break;
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
