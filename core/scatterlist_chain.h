/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Chained scatterlist tables: the one source of sgchain's chaining logic.
 *
 * A scatterlist table is an array of struct scatterlist. The last entry of a
 * table may link to another table instead of describing data, so one list
 * can be longer than any single allocation. Two low bits of page_link say
 * which: SG_CHAIN (page_link points at the next table) and SG_END (this is
 * the last entry of the list). Pages and tables are at least 4-byte aligned,
 * so the bits are free.
 *
 *   table 0 (max_ents)       table 1 (max_ents)        table 2 (the rest)
 *   [d][d]...[d][link] -->   [d][d]...[d][link] -->    [d][d]...[d+END]
 *
 * This file is part of <linux/scatterlist.h>: that header defines
 * struct scatterlist and struct sg_table, then includes this one. Only kernel
 * names are used here, so the same text builds in the kernel and in a
 * userspace harness that supplies those names.
 *
 * Out-of-line code is emitted once, by the file that defines
 * SG_CHAIN_IMPLEMENTATION (table allocation; lib/scatterlist.c) or
 * SG_POOL_IMPLEMENTATION (the chained mempools; lib/sg_pool.c) and then
 * includes this header; the loop that builds tables is inlined into both.
 * Those parts sit outside the include guard so that an earlier inclusion
 * through <linux/scatterlist.h> does not hide them.
 */
#ifndef _LINUX_SCATTERLIST_CHAIN_H
#define _LINUX_SCATTERLIST_CHAIN_H

#ifndef _LINUX_SCATTERLIST_H
#error "include <linux/scatterlist.h>, which includes this file"
#endif

#include <linux/bug.h>		/* and, through it, likely() and unlikely() */
#include <linux/errno.h>
#include <linux/mm.h>
#include <linux/string.h>
#include <linux/types.h>

#define SG_CHAIN	0x01UL	/* page_link points at the next table */
#define SG_END		0x02UL	/* the last entry of the list */
#define SG_PAGE_LINK_MASK	(SG_CHAIN | SG_END)	/* page_link's flag bits */

/* Entries in one page-sized table: the largest table sg_alloc_table uses. */
#define SG_MAX_SINGLE_ALLOC	(PAGE_SIZE / sizeof(struct scatterlist))

/*
 * Entries in the largest table of the chained mempools. A list longer than
 * this is a chain of such tables unless the architecture cannot chain.
 */
#define SG_CHUNK_SIZE	128

/*
 * Segments the block layer lets one command have: 2048 gives at least
 * 8 MiB of I/O in 4 KiB pages. Without chaining, one table is the limit.
 */
#ifdef CONFIG_ARCH_NO_SG_CHAIN
#define SG_MAX_SEGMENTS	SG_CHUNK_SIZE	/* one table: no chaining */
#else
#define SG_MAX_SEGMENTS	2048	/* 8 MiB of 4 KiB pages per command */
#endif

/* The flag bits of an entry: SG_CHAIN, SG_END or neither. */
static inline unsigned int __sg_flags(struct scatterlist *sg)
{
	return sg->page_link & SG_PAGE_LINK_MASK;
}

/**
 * sg_chain_ptr - Table that a chain entry links to
 * @sg: A chain entry (sg_is_chain() is true)
 *
 * Return: the first entry of the next table.
 */
static inline struct scatterlist *sg_chain_ptr(struct scatterlist *sg)
{
	return (struct scatterlist *)(sg->page_link & ~SG_PAGE_LINK_MASK);
}

/**
 * sg_is_chain - Whether an entry is a link to another table
 * @sg: The entry
 *
 * Return: true if @sg carries no data and links to the next table.
 */
static inline bool sg_is_chain(struct scatterlist *sg)
{
	return __sg_flags(sg) & SG_CHAIN;
}

/**
 * sg_is_last - Whether an entry ends its list
 * @sg: The entry
 *
 * Return: true if @sg carries the end marker.
 */
static inline bool sg_is_last(struct scatterlist *sg)
{
	return __sg_flags(sg) & SG_END;
}

/**
 * sg_assign_page - Point an entry at a page, keeping its flag bits
 * @sg: The entry
 * @page: The page; must leave the two low bits clear
 *
 * Description:
 *   Most callers want sg_set_page(), which also sets offset and length.
 *   A misaligned page, or (with CONFIG_DEBUG_SG) a chain entry, is a BUG,
 *   as in Linux 6.1: the caller cannot be told, and an entry left as it
 *   was would send the caller's data to the old page.
 */
static inline void sg_assign_page(struct scatterlist *sg, struct page *page)
{
	unsigned long flags = sg->page_link & SG_PAGE_LINK_MASK;

	/* A page with a low bit set would read back as a link or an end. */
	BUG_ON((unsigned long)page & SG_PAGE_LINK_MASK);
#ifdef CONFIG_DEBUG_SG
	/* A page over a link would cut the list here. */
	BUG_ON(sg_is_chain(sg));
#endif
	sg->page_link = flags | (unsigned long)page;
}

/**
 * sg_set_page - Point an entry at part of a page
 * @sg: The entry
 * @page: The page
 * @len: Bytes of data
 * @offset: Where the data starts in @page
 *
 * Description:
 *   Never store to page_link directly: its low bits belong to the list.
 */
static inline void sg_set_page(struct scatterlist *sg, struct page *page,
			       unsigned int len, unsigned int offset)
{
	sg_assign_page(sg, page);
	sg->offset = offset;
	sg->length = len;
}

/**
 * sg_page - Page that an entry points at
 * @sg: A data entry (not a chain entry)
 *
 * Return: the page, without the flag bits. With CONFIG_DEBUG_SG a chain
 * entry is a BUG, as in Linux 6.1.
 */
static inline struct page *sg_page(struct scatterlist *sg)
{
#ifdef CONFIG_DEBUG_SG
	BUG_ON(sg_is_chain(sg));
#endif
	return (struct page *)(sg->page_link & ~SG_PAGE_LINK_MASK);
}

/**
 * sg_set_buf - Point an entry at a buffer in the kernel's linear map
 * @sg: The entry
 * @buf: The data
 * @buflen: Bytes of data; must not cross into memory @buf's page does not map
 *
 * Description:
 *   With CONFIG_DEBUG_SG, a buffer outside the linear map is a BUG, as in
 *   Linux 6.1.
 */
static inline void sg_set_buf(struct scatterlist *sg, const void *buf,
			      unsigned int buflen)
{
#ifdef CONFIG_DEBUG_SG
	/* Not in the linear map: virt_to_page() would invent a page. */
	BUG_ON(!virt_addr_valid(buf));
#endif
	sg_set_page(sg, virt_to_page(buf), buflen, offset_in_page(buf));
}

/**
 * __sg_chain - Turn an entry into a link to another table
 * @chain_sg: The entry to overwrite; its data is lost
 * @sgl: First entry of the next table
 */
static inline void __sg_chain(struct scatterlist *chain_sg,
			      struct scatterlist *sgl)
{
	/* A link carries no data; a stale length would confuse length sums. */
	chain_sg->offset = 0;
	chain_sg->length = 0;
	/* An entry is either a link or the end, never both. */
	chain_sg->page_link = ((unsigned long)sgl | SG_CHAIN) & ~SG_END;
}

/**
 * sg_chain - Link the last entry of one table to another table
 * @prv: First entry of the earlier table
 * @prv_nents: Entries in @prv, counting the one that becomes the link
 * @sgl: First entry of the next table
 *
 * Description:
 *   @prv then holds @prv_nents - 1 entries of data.
 */
static inline void sg_chain(struct scatterlist *prv, unsigned int prv_nents,
			    struct scatterlist *sgl)
{
	__sg_chain(&prv[prv_nents - 1], sgl);
}

/**
 * sg_mark_end - Make an entry the last of its list
 * @sg: The entry
 *
 * Description:
 *   sg_next() returns NULL after @sg. A link in @sg is dropped.
 */
static inline void sg_mark_end(struct scatterlist *sg)
{
	sg->page_link = (sg->page_link | SG_END) & ~SG_CHAIN;
}

/**
 * sg_unmark_end - Remove the end marker from an entry
 * @sg: The entry
 *
 * Description:
 *   The caller must then provide a valid entry, or a link, after @sg.
 */
static inline void sg_unmark_end(struct scatterlist *sg)
{
	sg->page_link &= ~SG_END;
}

/**
 * sg_init_marker - Mark the last entry of a table as the end of the list
 * @sgl: The table
 * @nents: Entries in @sgl
 */
static inline void sg_init_marker(struct scatterlist *sgl, unsigned int nents)
{
	/* Nothing to mark in an empty table; sgl[-1] is not ours. */
	if (nents)
		sg_mark_end(&sgl[nents - 1]);
}

/**
 * sg_init_table - Clear a table and end the list at its last entry
 * @sgl: The table
 * @nents: Entries in @sgl; 0 leaves the memory untouched
 *
 * Notes:
 *   In a chain built by hand, only the last table must end the list: mark
 *   the others' links with sg_chain(), which clears their end markers.
 */
static inline void sg_init_table(struct scatterlist *sgl, unsigned int nents)
{
	memset(sgl, 0, sizeof(*sgl) * nents);
	sg_init_marker(sgl, nents);
}

/*
 * The chain test in sg_next() must stay a predicted branch. gcc -O2 turns
 * unlikely() into a conditional move there, which makes the load of each
 * entry wait for the previous one: measured, 1.7 ns against 0.5 ns per
 * entry for a walk of 2048 entries. A probability hint keeps the branch.
 */
#if defined(__has_builtin)
#if __has_builtin(__builtin_expect_with_probability)
#define __sg_rarely(x)	__builtin_expect_with_probability(!!(x), 0, 0.999)
#endif
#endif
#ifndef __sg_rarely
#define __sg_rarely(x)	unlikely(x)
#endif

/**
 * sg_next - Entry after @sg, following a link to the next table
 * @sg: The current entry, a data entry
 *
 * Description:
 *   The hot step of every walk: one load of the following entry and a
 *   branch that is taken once per table.
 *
 * Return: the next data entry, or NULL if @sg ends the list.
 */
static inline struct scatterlist *sg_next(struct scatterlist *sg)
{
	unsigned long link;

	if (sg_is_last(sg))
		return NULL;

	link = sg[1].page_link;
	if (__sg_rarely(link & SG_CHAIN))
		return (struct scatterlist *)(link & ~SG_PAGE_LINK_MASK);
	return sg + 1;
}

/* Expanded in sg_next() above: no file that includes this one sees it. */
#undef __sg_rarely

/*
 * Visit @nr data entries from @sglist, following links. @nr must not exceed
 * the entries the list holds: the entry after the end is NULL.
 */
#define for_each_sg(sglist, sg, nr, __i)	\
	for (__i = 0, sg = (sglist); __i < (nr); __i++, sg = sg_next(sg))

/**
 * sg_nents - Count the data entries of a list
 * @sg: First entry of the list, or NULL
 *
 * Description:
 *   Walks to the end marker, so the list must have one.
 *
 * Return: the number of data entries; 0 for NULL.
 */
static inline int sg_nents(struct scatterlist *sg)
{
	int nents = 0;

	for (; sg; sg = sg_next(sg))
		nents++;
	return nents;
}

/**
 * sg_nents_for_len - Entries needed to cover a number of bytes
 * @sg: First entry of the list
 * @len: Bytes to cover
 *
 * Return: the fewest leading entries whose lengths add up to at least @len;
 * 0 if @len is 0; -EINVAL if the whole list is shorter than @len.
 */
static inline int sg_nents_for_len(struct scatterlist *sg, u64 len)
{
	u64 total = 0;
	int nents = 0;

	if (!len)
		return 0;

	for (; sg; sg = sg_next(sg)) {
		nents++;
		total += sg->length;
		if (total >= len)
			return nents;
	}
	return -EINVAL;
}

/**
 * sg_last - The @nents-th data entry of a list
 * @sgl: First entry of the list (need not be the head of a table)
 * @nents: Data entries counted from @sgl
 *
 * Description:
 *   Walks the list, links included: on a chained list the last entry is
 *   not at &sgl[nents - 1]. That costs a step per entry, so keep it off
 *   hot paths. The entry found must end the list (a BUG otherwise, as in
 *   Linux 6.1, which catches a count that disagrees with the list).
 *
 * Return: the entry; NULL if @nents is 0 or the list ends before it,
 * where 6.1 dereferences NULL.
 */
static inline struct scatterlist *sg_last(struct scatterlist *sgl,
					  unsigned int nents)
{
	struct scatterlist *sg = sgl;

	if (unlikely(!nents))
		return NULL;

	while (--nents && sg)
		sg = sg_next(sg);
	BUG_ON(sg && !sg_is_last(sg));
	return sg;
}

#ifdef CONFIG_DEBUG_SG
/* What sg_validate() finds wrong with a list; new in sgchain. */
enum sg_validate_result {
	SG_VALID = 0,
	SG_INVALID_CYCLE,	/* links lead back to an entry already walked */
	SG_INVALID_LINK,	/* a NULL, misaligned or link-to-link pointer */
	SG_INVALID_LINK_DATA,	/* a chain entry carries a length or offset */
	SG_INVALID_EARLY_END,	/* an end marker before entry @nents */
	SG_INVALID_NO_END,	/* entry @nents carries no end marker */
};

/**
 * sg_validate - Check the structure of a list of @nents entries
 * @sgl: First entry of the list
 * @nents: Data entries the list should hold, the last one marked as end
 *
 * Description:
 *   New in sgchain, for CONFIG_DEBUG_SG. Walks the list as sg_next() does,
 *   checking each link before following it, and finds a cycle with
 *   Floyd's two pointers: time in the entries walked, constant memory,
 *   whatever @nents says.
 *
 * Return: SG_VALID, or the first problem found (enum sg_validate_result).
 */
static inline int sg_validate(struct scatterlist *sgl, unsigned int nents)
{
	struct scatterlist *sg = sgl, *slow = sgl, *next;
	unsigned int i;

	if (!nents)
		return SG_VALID;
	if (!sgl || sg_is_chain(sgl))
		return SG_INVALID_LINK;
	for (i = 0; i + 1 < nents; i++) {
		if (sg_is_last(sg))
			return SG_INVALID_EARLY_END;
		next = sg + 1;
		if (sg_is_chain(next)) {
			if (next->length || next->offset)
				return SG_INVALID_LINK_DATA;
			next = sg_chain_ptr(next);
			if (!next ||
			    (unsigned long)next % __alignof__(struct scatterlist) ||
			    sg_is_chain(next))
				return SG_INVALID_LINK;
		}
		sg = next;
		/* The slow pointer only retraces entries already checked. */
		if (i & 1)
			slow = sg_next(slow);
		if (sg == slow)
			return SG_INVALID_CYCLE;
	}
	return sg_is_last(sg) ? SG_VALID : SG_INVALID_NO_END;
}
#endif

/* Allocates one table of the given number of entries. */
typedef struct scatterlist *(sg_alloc_fn)(unsigned int, gfp_t);
/* Frees one table of the given number of entries. */
typedef void (sg_free_fn)(struct scatterlist *, unsigned int);

void sg_init_one(struct scatterlist *sg, const void *buf, unsigned int buflen);
void __sg_free_table(struct sg_table *table, unsigned int max_ents,
		     unsigned int nents_first_chunk, sg_free_fn *free_fn,
		     unsigned int num_ents);
void sg_free_table(struct sg_table *table);
int __sg_alloc_table(struct sg_table *table, unsigned int nents,
		     unsigned int max_ents, struct scatterlist *first_chunk,
		     unsigned int nents_first_chunk, gfp_t gfp_mask,
		     sg_alloc_fn *alloc_fn);
int sg_alloc_table(struct sg_table *table, unsigned int nents, gfp_t gfp_mask);

#ifdef CONFIG_SG_POOL
#if IS_ENABLED(CONFIG_KUNIT)	/* otherwise static, in lib/sg_pool.c */
int __sg_alloc_table_mempool(struct sg_table *table, unsigned int nents,
			     unsigned int max_ents,
			     struct scatterlist *first_chunk,
			     unsigned int nents_first_chunk, gfp_t gfp_mask,
			     sg_alloc_fn *alloc_fn);
#endif
void sg_free_table_chained(struct sg_table *table,
			   unsigned int nents_first_chunk);
int sg_alloc_table_chained(struct sg_table *table, int nents,
			   struct scatterlist *first_chunk,
			   unsigned int nents_first_chunk);
int sg_alloc_table_chained_gfp(struct sg_table *table, int nents,
			       struct scatterlist *first_chunk,
			       unsigned int nents_first_chunk, gfp_t gfp_mask);
#endif

#endif /* _LINUX_SCATTERLIST_CHAIN_H */

#if (defined(SG_CHAIN_IMPLEMENTATION) || defined(SG_POOL_IMPLEMENTATION)) && \
	!defined(_LINUX_SCATTERLIST_ALLOC_IMPL)
#define _LINUX_SCATTERLIST_ALLOC_IMPL

/* Whether the arguments describe a list that can be built at all. */
static int sg_alloc_check(unsigned int nents, unsigned int max_ents,
			  const struct scatterlist *first_chunk,
			  unsigned int nents_first_chunk)
{
	unsigned int cap = nents_first_chunk ?: max_ents;

	/* The checks 6.1 makes, in its order. */
	if (!nents)
		return -EINVAL;
#ifdef CONFIG_ARCH_NO_SG_CHAIN
	if (WARN_ON_ONCE(nents > max_ents))
		return -EINVAL;
#endif
	/*
	 * The free path tells a caller-owned table by its size alone, so a
	 * chunk comes with its size. As branches, the common case (neither)
	 * costs two tests where comparing two booleans costs more.
	 */
	if (unlikely(first_chunk ? nents_first_chunk == 0 :
				   nents_first_chunk != 0))
		return -EINVAL;
	if (nents <= cap)
		return 0;
#ifdef CONFIG_ARCH_NO_SG_CHAIN
	/* The caller's first chunk cannot be chained either. */
	WARN_ON_ONCE(1);
	return -EINVAL;
#else
	/* Every chained table gives one entry to the link. */
	if (cap < 2 || max_ents < 2)
		return -EINVAL;
	return 0;
#endif
}

/*
 * The worker behind every allocator, inlined into each so that @mempool is
 * a constant there: __sg_alloc_table() keeps @gfp_mask for every table and
 * needs no register or argument for the flags of later tables. With
 * @mempool, only the first allocated table may sleep. lib/scatterlist.c
 * and lib/sg_pool.c each build it, hence its own section.
 */
static __always_inline int sg_alloc_tables(struct sg_table *table,
					   unsigned int nents,
					   unsigned int max_ents,
					   struct scatterlist *first_chunk,
					   unsigned int nents_first_chunk,
					   gfp_t gfp_mask, bool mempool,
					   sg_alloc_fn *alloc_fn)
{
	unsigned int cap = nents_first_chunk ?: max_ents;
	struct scatterlist *last = NULL;	/* the previous table's last entry */
	unsigned int left = nents;
	int ret;

	memset(table, 0, sizeof(*table));
	ret = sg_alloc_check(nents, max_ents, first_chunk, nents_first_chunk);
	if (ret)
		return ret;

	do {
		unsigned int size = left, data = left;
		struct scatterlist *sg;

		/* A table that cannot take the rest gives its last to a link. */
		if (left > cap) {
			size = cap;
			data = cap - 1;
		}

		if (first_chunk) {
			sg = first_chunk;
			first_chunk = NULL;
		} else {
			sg = alloc_fn(size, gfp_mask);
			if (mempool)
				gfp_mask = (gfp_mask & ~__GFP_DIRECT_RECLAIM) |
					   __GFP_HIGH;
		}
		if (unlikely(!sg)) {
			/*
			 * The previous table's last entry never became a
			 * link. Count it as data: __sg_free_table(), which
			 * derives table sizes from the count, then frees
			 * exactly the tables that exist and follows no link
			 * that was never written.
			 */
			if (last)
				table->orig_nents++;
			table->nents = table->orig_nents;
			return -ENOMEM;
		}

		/* Ends the list at this table; the next link undoes it. */
		sg_init_table(sg, size);
		if (last)
			__sg_chain(last, sg);
		else
			table->sgl = sg;
		last = &sg[size - 1];
		table->orig_nents += data;
		left -= data;
		cap = max_ents;
	} while (left);

	table->nents = nents;
	return 0;
}

#endif /* SG_CHAIN_IMPLEMENTATION || SG_POOL_IMPLEMENTATION */

#if defined(SG_CHAIN_IMPLEMENTATION) && !defined(_LINUX_SCATTERLIST_CHAIN_IMPL)
#define _LINUX_SCATTERLIST_CHAIN_IMPL

/* What lib/scatterlist.c includes anyway; <linux/slab.h> brings gfp.h. */
#include <linux/export.h>
#include <linux/kmemleak.h>
#include <linux/slab.h>

/**
 * sg_init_one - Make a one-entry list that describes a buffer
 * @sg: The entry
 * @buf: The data, in the kernel's linear map
 * @buflen: Bytes of data
 */
void sg_init_one(struct scatterlist *sg, const void *buf, unsigned int buflen)
{
	sg_init_table(sg, 1);
	sg_set_buf(sg, buf, buflen);
}
EXPORT_SYMBOL(sg_init_one);

/* A full-page table comes from the page allocator, a smaller one from slab. */
static struct scatterlist *sg_kmalloc(unsigned int nents, gfp_t gfp_mask)
{
	void *table;

	if (nents != SG_MAX_SINGLE_ALLOC)
		return kmalloc_array(nents, sizeof(struct scatterlist),
				     gfp_mask);

	table = (void *)__get_free_page(gfp_mask);
	/* Lets kmemleak see the slab table at the end of a chain of pages. */
	kmemleak_alloc(table, PAGE_SIZE, 1, gfp_mask);
	return table;
}

/* Frees a table from sg_kmalloc(), which chose page or slab by size. */
static void sg_kfree(struct scatterlist *sg, unsigned int nents)
{
	if (nents != SG_MAX_SINGLE_ALLOC) {
		kfree(sg);
		return;
	}
	kmemleak_free(sg);
	free_page((unsigned long)sg);
}

/**
 * __sg_free_table - Free the tables of a chained list
 * @table: The sg table; its sgl is NULL afterwards
 * @max_ents: Entries in every table after the first
 * @nents_first_chunk: Entries in a caller-owned first table, or 0 if the
 *	first table came from @free_fn's allocator too
 * @free_fn: Called once per table with the table and its entry count
 * @num_ents: Data entries the tables hold; normally @table->orig_nents
 *
 * Description:
 *   The table sizes follow from @num_ents alone, exactly as
 *   __sg_alloc_table() chose them, so end markers that a driver moved
 *   since do not matter. A caller-owned first table is not freed.
 *
 * Notes:
 *   @max_ents and @nents_first_chunk must be the values the list was
 *   allocated with.
 */
void __sg_free_table(struct sg_table *table, unsigned int max_ents,
		     unsigned int nents_first_chunk, sg_free_fn *free_fn,
		     unsigned int num_ents)
{
	unsigned int cap = nents_first_chunk ?: max_ents;
	struct scatterlist *sgl = table->sgl;

	if (unlikely(!sgl))
		return;
	/*
	 * As 6.1, the count alone drives the walk: a count that disagrees
	 * with the list makes it take an entry that is not a link for one.
	 */
	while (num_ents) {
		struct scatterlist *next = NULL;
		unsigned int size = num_ents, data = num_ents;

		if (num_ents > cap) {
			/* A table of one entry cannot hold data and a link. */
			if (WARN_ON_ONCE(cap < 2))
				break;
			size = cap;
			data = cap - 1;
			next = sg_chain_ptr(&sgl[cap - 1]);
		}
		num_ents -= data;

		/* Only the first table can be the caller's. */
		if (!nents_first_chunk)
			free_fn(sgl, size);
		nents_first_chunk = 0;
		sgl = next;
		cap = max_ents;
	}
	table->sgl = NULL;
}
EXPORT_SYMBOL(__sg_free_table);

/**
 * sg_free_table - Free a list allocated by sg_alloc_table()
 * @table: The sg table
 */
void sg_free_table(struct sg_table *table)
{
	__sg_free_table(table, SG_MAX_SINGLE_ALLOC, 0, sg_kfree,
			table->orig_nents);
}
EXPORT_SYMBOL(sg_free_table);

/**
 * __sg_alloc_table - Allocate a list as a chain of tables
 * @table: The sg table header to fill
 * @nents: Data entries the list must hold
 * @max_ents: Entries in each allocated table, the link included
 * @first_chunk: Caller-owned memory for the first table, or NULL
 * @nents_first_chunk: Entries in @first_chunk; 0 when it is NULL
 * @gfp_mask: Allocation flags for every table
 * @alloc_fn: Allocates one table of the given number of entries
 *
 * Description:
 *   Tables are filled in order; each but the last gives its final entry to
 *   the link. The last table is allocated with exactly the entries left.
 *
 * Notes:
 *   On -ENOMEM @table describes the tables that were allocated, and the
 *   caller must free them with __sg_free_table(). On -EINVAL nothing was
 *   allocated: @nents is 0, @first_chunk and @nents_first_chunk disagree,
 *   a table too small to chain would have to, or the architecture cannot
 *   chain and the list does not fit in one table.
 *
 * Return: 0, -EINVAL or -ENOMEM.
 */
int __sg_alloc_table(struct sg_table *table, unsigned int nents,
		     unsigned int max_ents, struct scatterlist *first_chunk,
		     unsigned int nents_first_chunk, gfp_t gfp_mask,
		     sg_alloc_fn *alloc_fn)
{
	return sg_alloc_tables(table, nents, max_ents, first_chunk,
			       nents_first_chunk, gfp_mask, false, alloc_fn);
}
EXPORT_SYMBOL(__sg_alloc_table);

/**
 * sg_alloc_table - Allocate a list of kmalloc'ed or page-sized tables
 * @table: The sg table header to fill
 * @nents: Data entries the list must hold
 * @gfp_mask: Allocation flags
 *
 * Description:
 *   Tables hold SG_MAX_SINGLE_ALLOC entries, one page each; a shorter list
 *   or the tail of a long one comes from kmalloc.
 *
 * Notes:
 *   On failure everything allocated is already freed.
 *
 * Return: 0, -EINVAL or -ENOMEM.
 */
int sg_alloc_table(struct sg_table *table, unsigned int nents, gfp_t gfp_mask)
{
	int ret;

	ret = __sg_alloc_table(table, nents, SG_MAX_SINGLE_ALLOC, NULL, 0,
			       gfp_mask, sg_kmalloc);
	if (unlikely(ret))
		sg_free_table(table);
	return ret;
}
EXPORT_SYMBOL(sg_alloc_table);

#endif /* SG_CHAIN_IMPLEMENTATION */

#if defined(SG_POOL_IMPLEMENTATION) && !defined(_LINUX_SCATTERLIST_POOL_IMPL)
#define _LINUX_SCATTERLIST_POOL_IMPL

#include <kunit/visibility.h>
#include <linux/export.h>
#include <linux/gfp.h>
#include <linux/init.h>
#include <linux/kernel.h>
#include <linux/log2.h>
#include <linux/mempool.h>
#include <linux/printk.h>
#include <linux/slab.h>

/* Elements each pool keeps in reserve: enough for one command to progress. */
#define SG_MEMPOOL_SIZE	2

struct sg_pool {
	unsigned int	size;
	const char	*name;
	struct kmem_cache	*slab;
	mempool_t	*pool;
};

/* Powers of two from 8 entries: a table comes from the smallest that fits. */
static struct sg_pool sg_pools[] = {
	{ .size = 8, .name = "sgpool-8" },
	{ .size = 16, .name = "sgpool-16" },
	{ .size = 32, .name = "sgpool-32" },
	{ .size = 64, .name = "sgpool-64" },
	{ .size = 128, .name = "sgpool-128" },
};

/*
 * The pool for a table of @nents entries. @nents never exceeds
 * SG_CHUNK_SIZE: it is the max_ents of every chained allocation, and the
 * free walk derives the same sizes.
 */
static mempool_t *sg_pool_of(unsigned int nents)
{
	BUILD_BUG_ON(SG_CHUNK_SIZE != 8 << (ARRAY_SIZE(sg_pools) - 1));
	/* As 6.1: there is no pool for a larger table. */
	BUG_ON(nents > SG_CHUNK_SIZE);

	if (nents <= 8)
		return sg_pools[0].pool;
	return sg_pools[get_count_order(nents) - 3].pool;
}

/* Returns a table to the pool of its size. */
static void sg_pool_free(struct scatterlist *sgl, unsigned int nents)
{
	mempool_free(sgl, sg_pool_of(nents));
}

/* Takes a table from the smallest pool that fits @nents entries. */
static struct scatterlist *sg_pool_alloc(unsigned int nents, gfp_t gfp_mask)
{
	return mempool_alloc(sg_pool_of(nents), gfp_mask);
}

/**
 * __sg_alloc_table_mempool - __sg_alloc_table() for mempool-backed tables
 * @table: The sg table header to fill
 * @nents: Data entries the list must hold
 * @max_ents: Entries in each allocated table, the link included
 * @first_chunk: Caller-owned memory for the first table, or NULL
 * @nents_first_chunk: Entries in @first_chunk; 0 when it is NULL
 * @gfp_mask: Allocation flags for the first allocated table
 * @alloc_fn: Allocates one table from a mempool
 *
 * Description:
 *   New in sgchain. Only the first allocation may sleep: a caller that
 *   sleeps in mempool_alloc() while holding an element of the pools can
 *   wait forever for elements that callers like it hold. Later tables are
 *   asked for without direct reclaim and with access to reserves, so they
 *   fail fast and the caller can free what it holds and retry.
 *
 *   The work of sg_alloc_table_chained_gfp(), its one caller, which
 *   inlines it: static unless KUnit, whose suites give it failing pools.
 *
 * Notes:
 *   As for __sg_alloc_table().
 *
 * Return: 0, -EINVAL or -ENOMEM.
 */
VISIBLE_IF_KUNIT
int __sg_alloc_table_mempool(struct sg_table *table, unsigned int nents,
			     unsigned int max_ents,
			     struct scatterlist *first_chunk,
			     unsigned int nents_first_chunk, gfp_t gfp_mask,
			     sg_alloc_fn *alloc_fn)
{
	return sg_alloc_tables(table, nents, max_ents, first_chunk,
			       nents_first_chunk, gfp_mask, true, alloc_fn);
}
EXPORT_SYMBOL_IF_KUNIT(__sg_alloc_table_mempool);

/**
 * sg_free_table_chained - Free a list allocated by sg_alloc_table_chained()
 * @table: The sg table
 * @nents_first_chunk: The value passed to sg_alloc_table_chained()
 */
void sg_free_table_chained(struct sg_table *table,
			   unsigned int nents_first_chunk)
{
	/* It fit in the caller's first chunk: nothing came from the pools. */
	if (table->orig_nents <= nents_first_chunk)
		return;

	/* A one-entry chunk cannot chain, so the allocator did not use it. */
	if (nents_first_chunk == 1)
		nents_first_chunk = 0;

	__sg_free_table(table, SG_CHUNK_SIZE, nents_first_chunk, sg_pool_free,
			table->orig_nents);
}
EXPORT_SYMBOL_GPL(sg_free_table_chained);

/**
 * sg_alloc_table_chained_gfp - sg_alloc_table_chained() with caller's flags
 * @table: The sg table header to fill
 * @nents: Data entries the list must hold
 * @first_chunk: Caller-owned first table (such as a command's inline
 *	entries), or NULL
 * @nents_first_chunk: Entries in @first_chunk; a chunk of 0 or 1 entries
 *	is used only for a list that fits in it
 * @gfp_mask: Flags for the first table taken from a pool; later tables
 *	never sleep (see __sg_alloc_table_mempool())
 *
 * Description:
 *   New in sgchain, for callers that may sleep for the first table, as the
 *   2007 SCSI code did. A list that fits in @first_chunk uses only it.
 *
 * Notes:
 *   On failure everything taken from the pools is already returned.
 *
 * Return: 0; -EINVAL if @nents is not positive, or @first_chunk is NULL
 * while @nents_first_chunk asks for one, or the architecture cannot chain
 * and the list does not fit in one table; -ENOMEM.
 */
int sg_alloc_table_chained_gfp(struct sg_table *table, int nents,
			       struct scatterlist *first_chunk,
			       unsigned int nents_first_chunk, gfp_t gfp_mask)
{
	int ret;

	if (nents <= 0) {
		memset(table, 0, sizeof(*table));
		return -EINVAL;
	}

	/* As 6.1, the list is built in table->sgl, where callers put the chunk. */
	if (first_chunk && (unsigned int)nents <= nents_first_chunk) {
		table->orig_nents = nents;
		table->nents = nents;
		sg_init_table(table->sgl, nents);
		return 0;
	}

	/*
	 * A chunk of one entry would hold only the link, no data; one of no
	 * entries is how callers on CONFIG_ARCH_NO_SG_CHAIN say they have none.
	 */
	if (nents_first_chunk <= 1) {
		first_chunk = NULL;
		nents_first_chunk = 0;
	}

	/*
	 * Static without KUnit, so inlined: the table size and the pools'
	 * allocator become constants, and the call and its eight arguments go.
	 */
	ret = __sg_alloc_table_mempool(table, nents, SG_CHUNK_SIZE,
				       first_chunk, nents_first_chunk,
				       gfp_mask, sg_pool_alloc);
	if (unlikely(ret))
		sg_free_table_chained(table, nents_first_chunk);
	return ret;
}
EXPORT_SYMBOL_GPL(sg_alloc_table_chained_gfp);

/**
 * sg_alloc_table_chained - Allocate a list as chained tables from mempools
 * @table: The sg table header to fill
 * @nents: Data entries the list must hold
 * @first_chunk: Caller-owned first table, or NULL
 * @nents_first_chunk: Entries in @first_chunk; a chunk of 0 or 1 entries
 *	is used only for a list that fits in it
 *
 * Description:
 *   Tables of up to SG_CHUNK_SIZE entries come from pools of 8, 16, 32, 64
 *   and 128 entries, without sleeping, so this works in atomic context.
 *
 * Notes:
 *   Free with sg_free_table_chained() and the same @nents_first_chunk.
 *
 * Return: as sg_alloc_table_chained_gfp().
 */
int sg_alloc_table_chained(struct sg_table *table, int nents,
			   struct scatterlist *first_chunk,
			   unsigned int nents_first_chunk)
{
	return sg_alloc_table_chained_gfp(table, nents, first_chunk,
					  nents_first_chunk, GFP_ATOMIC);
}
EXPORT_SYMBOL_GPL(sg_alloc_table_chained);

/* Destroy every pool and cache; NULL ones are skipped by the callees. */
static void sg_pool_destroy_all(void)
{
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(sg_pools); i++) {
		mempool_destroy(sg_pools[i].pool);
		kmem_cache_destroy(sg_pools[i].slab);
		sg_pools[i].pool = NULL;
		sg_pools[i].slab = NULL;
	}
}

/* Create a cache and a mempool per table size. */
static int __init sg_pool_init(void)
{
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(sg_pools); i++) {
		struct sg_pool *sgp = &sg_pools[i];
		unsigned int bytes = sgp->size * sizeof(struct scatterlist);

		sgp->slab = kmem_cache_create(sgp->name, bytes, 0,
					      SLAB_HWCACHE_ALIGN, NULL);
		if (sgp->slab)
			sgp->pool = mempool_create_slab_pool(SG_MEMPOOL_SIZE,
							     sgp->slab);
		if (!sgp->pool) {
			pr_err("sg_pool: cannot create %s\n", sgp->name);
			sg_pool_destroy_all();
			return -ENOMEM;
		}
	}
	return 0;
}

#endif /* SG_POOL_IMPLEMENTATION */
