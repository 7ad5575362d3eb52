/*
 * <linux/scatterlist.h> (equivalent): the 6.1 struct layouts and DMA
 * accessors, then sgchain's core for everything about chaining, then the
 * declarations of the rest of 6.1's API, which usim compiles from the
 * kernel's own lib/scatterlist.c and lib/sg_split.c.
 */
#ifndef _LINUX_SCATTERLIST_H
#define _LINUX_SCATTERLIST_H

#include <linux/bug.h>
#include <linux/errno.h>
#include <linux/gfp.h>
#include <linux/mm.h>
#include <linux/string.h>
#include <linux/types.h>

struct scatterlist {
	unsigned long	page_link;
	unsigned int	offset;
	unsigned int	length;
	dma_addr_t	dma_address;
#ifdef CONFIG_NEED_SG_DMA_LENGTH
	unsigned int	dma_length;
#endif
};

#define sg_dma_address(sg)	((sg)->dma_address)
#ifdef CONFIG_NEED_SG_DMA_LENGTH
#define sg_dma_len(sg)		((sg)->dma_length)
#else
#define sg_dma_len(sg)		((sg)->length)
#endif

struct sg_table {
	struct scatterlist *sgl;	/* the list */
	unsigned int nents;		/* number of mapped entries */
	unsigned int orig_nents;	/* original size of list */
};

/* A table that sg_alloc_append_table_from_pages() grows. */
struct sg_append_table {
	struct sg_table sgt;
	struct scatterlist *prv;	/* the last entry in use */
	unsigned int total_nents;	/* entries allocated, links included */
};

#include <linux/scatterlist_chain.h>

#define for_each_sgtable_sg(sgt, sg, i)		\
	for_each_sg((sgt)->sgl, sg, (sgt)->orig_nents, i)
#define for_each_sgtable_dma_sg(sgt, sg, i)	\
	for_each_sg((sgt)->sgl, sg, (sgt)->nents, i)

static inline dma_addr_t sg_phys(struct scatterlist *sg)
{
	return page_to_phys(sg_page(sg)) + sg->offset;
}

static inline void *sg_virt(struct scatterlist *sg)
{
	return (char *)page_address(sg_page(sg)) + sg->offset;
}

/* No PCI peer-to-peer DMA here: no entry is a bus address. */
static inline bool sg_is_dma_bus_address(struct scatterlist *sg)
{
	(void)sg;
	return false;
}

static inline void sg_dma_mark_bus_address(struct scatterlist *sg)
{
	(void)sg;
}

static inline void sg_dma_unmark_bus_address(struct scatterlist *sg)
{
	(void)sg;
}

/* lib/sg_split.c */
int sg_split(struct scatterlist *in, const int in_mapped_nents,
	     const off_t skip, const int nb_splits, const size_t *split_sizes,
	     struct scatterlist **out, int *out_mapped_nents, gfp_t gfp_mask);

/* Lists from arrays of pages, merging contiguous ones (lib/scatterlist.c). */
void sg_free_append_table(struct sg_append_table *sgt);
int sg_alloc_append_table_from_pages(struct sg_append_table *sgt,
				     struct page **pages, unsigned int n_pages,
				     unsigned int offset, unsigned long size,
				     unsigned int max_segment,
				     unsigned int left_pages, gfp_t gfp_mask);
int sg_alloc_table_from_pages_segment(struct sg_table *sgt, struct page **pages,
				      unsigned int n_pages, unsigned int offset,
				      unsigned long size,
				      unsigned int max_segment, gfp_t gfp_mask);

static inline int sg_alloc_table_from_pages(struct sg_table *sgt,
					    struct page **pages,
					    unsigned int n_pages,
					    unsigned int offset,
					    unsigned long size, gfp_t gfp_mask)
{
	return sg_alloc_table_from_pages_segment(sgt, pages, n_pages, offset,
						 size, UINT_MAX, gfp_mask);
}

/* Lists of newly allocated pages (CONFIG_SGL_ALLOC, always built here). */
struct scatterlist *sgl_alloc_order(unsigned long long length,
				    unsigned int order, bool chainable,
				    gfp_t gfp, unsigned int *nent_p);
struct scatterlist *sgl_alloc(unsigned long long length, gfp_t gfp,
			      unsigned int *nent_p);
void sgl_free_n_order(struct scatterlist *sgl, int nents, int order);
void sgl_free_order(struct scatterlist *sgl, int order);
void sgl_free(struct scatterlist *sgl);

/* Copies between a list and a linear buffer. */
size_t sg_copy_buffer(struct scatterlist *sgl, unsigned int nents, void *buf,
		      size_t buflen, off_t skip, bool to_buffer);
size_t sg_copy_from_buffer(struct scatterlist *sgl, unsigned int nents,
			   const void *buf, size_t buflen);
size_t sg_copy_to_buffer(struct scatterlist *sgl, unsigned int nents,
			 void *buf, size_t buflen);
size_t sg_pcopy_from_buffer(struct scatterlist *sgl, unsigned int nents,
			    const void *buf, size_t buflen, off_t skip);
size_t sg_pcopy_to_buffer(struct scatterlist *sgl, unsigned int nents,
			  void *buf, size_t buflen, off_t skip);
size_t sg_zero_buffer(struct scatterlist *sgl, unsigned int nents,
		      size_t buflen, off_t skip);

/* The pages of a list, one at a time; the fields after sg_pgoffset are private. */
struct sg_page_iter {
	struct scatterlist *sg;		/* the entry holding the page */
	unsigned int sg_pgoffset;	/* the page's index within it */
	unsigned int __nents;
	int __pg_advance;
};

/* The same over the DMA side of a mapped list. */
struct sg_dma_page_iter {
	struct sg_page_iter base;
};

bool __sg_page_iter_next(struct sg_page_iter *piter);
bool __sg_page_iter_dma_next(struct sg_dma_page_iter *dma_iter);
void __sg_page_iter_start(struct sg_page_iter *piter,
			  struct scatterlist *sglist, unsigned int nents,
			  unsigned long pgoffset);

static inline struct page *sg_page_iter_page(struct sg_page_iter *piter)
{
	return nth_page(sg_page(piter->sg), piter->sg_pgoffset);
}

static inline dma_addr_t
sg_page_iter_dma_address(struct sg_dma_page_iter *dma_iter)
{
	return sg_dma_address(dma_iter->base.sg) +
	       ((dma_addr_t)dma_iter->base.sg_pgoffset << PAGE_SHIFT);
}

#define for_each_sg_page(sglist, piter, nents, pgoffset)		   \
	for (__sg_page_iter_start((piter), (sglist), (nents), (pgoffset)); \
	     __sg_page_iter_next(piter);)

#define for_each_sg_dma_page(sglist, dma_iter, dma_nents, pgoffset)	\
	for (__sg_page_iter_start(&(dma_iter)->base, sglist, dma_nents,	\
				  pgoffset);				\
	     __sg_page_iter_dma_next(dma_iter);)

#define for_each_sgtable_page(sgt, piter, pgoffset)	\
	for_each_sg_page((sgt)->sgl, piter, (sgt)->orig_nents, pgoffset)

#define for_each_sgtable_dma_page(sgt, dma_iter, pgoffset)	\
	for_each_sg_dma_page((sgt)->sgl, dma_iter, (sgt)->nents, pgoffset)

/* Mapping iterator: each page of a list mapped in turn. */
#define SG_MITER_ATOMIC		(1 << 0)	/* kmap_atomic(): no sleeping */
#define SG_MITER_TO_SG		(1 << 1)	/* the pages are written */
#define SG_MITER_FROM_SG	(1 << 2)	/* the pages are read */

struct sg_mapping_iter {
	struct page *page;		/* the page mapped now */
	void *addr;			/* where it is mapped */
	size_t length;			/* bytes there */
	size_t consumed;		/* bytes the user took */
	struct sg_page_iter piter;
	/* private */
	unsigned int __offset;
	unsigned int __remaining;
	unsigned int __flags;
};

void sg_miter_start(struct sg_mapping_iter *miter, struct scatterlist *sgl,
		    unsigned int nents, unsigned int flags);
bool sg_miter_skip(struct sg_mapping_iter *miter, off_t offset);
bool sg_miter_next(struct sg_mapping_iter *miter);
void sg_miter_stop(struct sg_mapping_iter *miter);

#endif
