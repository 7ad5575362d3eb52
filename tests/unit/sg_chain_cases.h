/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Test cases and the reference model shared by the cmocka suites (usim)
 * and the KUnit suite (kernel): include it after <linux/scatterlist.h>.
 * Only kernel names are used, so it compiles unchanged in both worlds.
 *
 * The model is written from the layout rules, not from the code: a list of
 * n entries in tables of `cap1` entries (the first) and `max` entries (the
 * rest) fills each table but the last with max - 1 data entries and a
 * link, so its shape has a closed form (sg_chain_expected_shape()).
 */
#ifndef _SG_CHAIN_CASES_H
#define _SG_CHAIN_CASES_H

#include <linux/kernel.h>
#include <linux/scatterlist.h>

/* Largest list the exhaustive tests build; the API itself takes more. */
#define SG_CHAIN_TEST_MAX_NENTS	16384u

/* Sizes where the layout changes: pool sizes, table sizes, 2048 and past. */
static const unsigned int sg_chain_boundary_sizes[] = {
	1, 2, 7, 8, 9, 16, 17, 32, 33, 64, 65, 127, 128, 129, 254, 255, 256,
	2047, 2048, 2049, SG_CHAIN_TEST_MAX_NENTS,
};

/* Sizes above the every-n sweep of 1..SG_MAX_SEGMENTS. */
static const unsigned int sg_chain_large_sizes[] = {
	2049, 2159, 4096, 4097, 8192, 16383, SG_CHAIN_TEST_MAX_NENTS, 65536,
};

/*
 * Whether this architecture builds a list of @nents entries from a first
 * table of @cap1 and more of @max: without chaining, only one table, and
 * no longer than @max (the allocators refuse the rest).
 */
static inline bool sg_chain_fits(unsigned int nents, unsigned int cap1,
				 unsigned int max)
{
	if (!IS_ENABLED(CONFIG_ARCH_NO_SG_CHAIN))
		return true;
	return nents <= cap1 && nents <= max;
}

/* Table capacities for __sg_alloc_table() with a caller's first chunk. */
struct sg_chain_geometry {
	const char *name;
	unsigned int max_ents;		/* entries per allocated table */
	unsigned int first_chunk;	/* caller's first table, 0 for none */
};

static const struct sg_chain_geometry sg_chain_geometries[] = {
	{ "tables of 128", 128, 0 },
	{ "tables of 2", 2, 0 },
	{ "tables of 3", 3, 0 },
	{ "tables of 8 after an inline 2", 8, 2 },
	{ "tables of 128 after an inline 2", 128, 2 },
	{ "tables of 16 after an inline 32", 16, 32 },
	{ "tables of 1000", 1000, 0 },
};

/* Hand-built chains: sizes[i] entries in table i; each but the last links. */
#define SG_CHAIN_HAND_MAX_TABLES	12

struct sg_chain_hand_case {
	const char *name;
	unsigned int ntables;
	unsigned int sizes[SG_CHAIN_HAND_MAX_TABLES];
};

static const struct sg_chain_hand_case sg_chain_hand_cases[] = {
	{ "one table", 1, { 5 } },
	{ "two tables", 2, { 4, 3 } },
	{ "three tables of different sizes", 3, { 5, 2, 9 } },
	{ "chain to a one-entry table", 2, { 6, 1 } },
	{ "two-entry tables down to one entry", 4, { 2, 2, 2, 1 } },
	{ "many tables", 12, { 3, 17, 2, 128, 9, 2, 64, 5, 2, 33, 2, 1 } },
	{ "page-sized tables", 3, { 128, 128, 7 } },
};

/* Data entries of a hand-built chain: each table but the last gives one to its link. */
static inline unsigned int sg_chain_hand_nents(const struct sg_chain_hand_case *c)
{
	unsigned int t, nents = 0;

	for (t = 0; t < c->ntables; t++)
		nents += c->sizes[t] - (t + 1 < c->ntables);
	return nents;
}

/*
 * Link the caller's tables (tables[t] holds c->sizes[t] entries) into the
 * case's chain. flat[i] gets the i-th data entry in walk order, with
 * length i + 1; the caller gives the entries their pages.
 */
static inline void sg_chain_hand_link(const struct sg_chain_hand_case *c,
				      struct scatterlist **tables,
				      struct scatterlist **flat)
{
	unsigned int t, j, i = 0;

	for (t = 0; t < c->ntables; t++) {
		unsigned int data = c->sizes[t] - (t + 1 < c->ntables);

		sg_init_table(tables[t], c->sizes[t]);
		for (j = 0; j < data; j++, i++) {
			tables[t][j].length = i + 1;
			flat[i] = &tables[t][j];
		}
		if (t + 1 < c->ntables)
			sg_chain(tables[t], c->sizes[t], tables[t + 1]);
	}
}

/* Shape of a list built by the allocators: what the model predicts. */
struct sg_chain_shape {
	unsigned int tables;		/* every table, a caller's chunk included */
	unsigned int first_data;	/* data entries in the first table */
	unsigned int last_size;		/* entries of the last table, all data */
};

/*
 * The closed form. After the first table's cap1 - 1 data entries, `rest`
 * remain; k more tables hold (k - 1) * (max - 1) + max of them at most, so
 * k = ceil((rest - 1) / (max - 1)).
 */
static inline struct sg_chain_shape
sg_chain_expected_shape(unsigned int nents, unsigned int cap1,
			unsigned int max)
{
	struct sg_chain_shape shape = { 1, nents, nents };
	unsigned int rest, more;

	if (nents <= cap1)
		return shape;
	rest = nents - (cap1 - 1);
	more = DIV_ROUND_UP(rest - 1, max - 1);
	shape.tables = 1 + more;
	shape.first_data = cap1 - 1;
	shape.last_size = rest - (more - 1) * (max - 1);
	return shape;
}

/* Data entries of table @i of a list of that shape. */
static inline unsigned int sg_chain_table_data(const struct sg_chain_shape *s,
					       unsigned int i,
					       unsigned int max)
{
	if (i == s->tables - 1)
		return s->last_size;
	return i ? max - 1 : s->first_data;
}

/* Pool that a table of @nents entries comes from: the smallest that fits. */
static inline unsigned int sg_chain_expected_pool(unsigned int nents)
{
	static const unsigned int pool_sizes[] = { 8, 16, 32, 64, 128 };
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(pool_sizes); i++)
		if (nents <= pool_sizes[i])
			return pool_sizes[i];
	return 0;
}

/*
 * Check a list against the model, walking it twice: once by raw table
 * positions the model predicts (reading links straight from page_link),
 * once with sg_next(). The caller's entries must have distinct lengths in
 * walk order, lengths[0..nents). On success *@last is the last entry by
 * the model and 0 is returned; otherwise @why says what differs, and -1.
 */
static inline int sg_chain_check_list(struct scatterlist *sgl,
				      unsigned int nents,
				      const struct sg_chain_shape *shape,
				      unsigned int max,
				      const unsigned int *lengths,
				      struct scatterlist **last,
				      char *why, size_t why_len)
{
	struct scatterlist *table = sgl, *sg, *next;
	unsigned int t, j, seen = 0, ends = 0;

	for (t = 0; t < shape->tables; t++) {
		unsigned int data = sg_chain_table_data(shape, t, max);

		for (j = 0; j < data; j++, seen++) {
			if (table[j].page_link & SG_CHAIN) {
				snprintf(why, why_len, "table %u entry %u is a link", t, j);
				return -1;
			}
			if (table[j].length != lengths[seen]) {
				snprintf(why, why_len, "entry %u has length %u, want %u",
					 seen, table[j].length, lengths[seen]);
				return -1;
			}
			ends += !!(table[j].page_link & SG_END);
		}
		if (t == shape->tables - 1)
			break;
		if ((table[data].page_link & SG_PAGE_LINK_MASK) != SG_CHAIN ||
		    table[data].length) {
			snprintf(why, why_len, "table %u entry %u is not a clean link",
				 t, data);
			return -1;
		}
		table = (struct scatterlist *)(table[data].page_link & ~3UL);
	}
	if (seen != nents || ends != 1 ||
	    !(table[shape->last_size - 1].page_link & SG_END)) {
		snprintf(why, why_len, "%u entries and %u end marks, want %u and 1 at the last",
			 seen, ends, nents);
		return -1;
	}

	seen = 0;
	for (sg = sgl; sg; sg = next, seen++) {
		next = sg_next(sg);
		if (seen >= nents || sg->length != lengths[seen]) {
			snprintf(why, why_len, "sg_next walk differs at entry %u", seen);
			return -1;
		}
		if (!next && sg != &table[shape->last_size - 1]) {
			snprintf(why, why_len, "sg_next walk ends early at entry %u", seen);
			return -1;
		}
	}
	if (seen != nents) {
		snprintf(why, why_len, "sg_next walk saw %u entries, want %u", seen, nents);
		return -1;
	}
	*last = &table[shape->last_size - 1];
	return 0;
}

#endif /* _SG_CHAIN_CASES_H */
