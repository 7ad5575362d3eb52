// SPDX-License-Identifier: GPL-2.0
/*
 * Walks sg_flat_walk.cocci must report. A line ending in a "walk:" comment
 * must be reported with that form; every other line must not be.
 */
#include <linux/scatterlist.h>

struct scsi_cmnd;
struct scatterlist *scsi_sglist(struct scsi_cmnd *cmd);

struct ctx {
	struct scatterlist *sgl;
	int n;
};

/* A parameter, stepped in a for loop as the 2007 mappers did. */
static void walk_param(struct scatterlist *sgl, int nents)
{
	struct scatterlist *sg;
	int i;

	for (i = 0, sg = sgl; i < nents; i++, sg++) /* walk: advance */
		consume(sg_dma_address(sg));
}

/* Pre-increment, decrement and a compound step. */
static void walk_steps(struct scatterlist *sg, int n)
{
	++sg; /* walk: advance */
	sg--; /* walk: advance */
	sg += n; /* walk: advance */
	consume(sg_page(sg));
}

/* Offsets and indexes of a parameter. */
static void walk_offsets(struct scatterlist *sgl, int i)
{
	consume(sg_virt(sgl + i)); /* walk: offset */
	consume(sg_virt(&sgl[i])); /* walk: index */
	consume(sgl[i].length); /* walk: index */
	consume(sg_virt(sgl - 1)); /* walk: offset */
}

/* A field of a struct declared here, never built here. */
static void walk_own_field(struct ctx *c, int i)
{
	consume(c->sgl[i].length); /* walk: index */
}

/* Fields of structs declared in include/: a crypto request, an mmc_data. */
static void walk_header_fields(struct skcipher_request *req,
			       struct mmc_data *data, int idx)
{
	consume(sg_virt(&req->dst[idx])); /* walk: index */
	consume(sg_virt(req->src + idx)); /* walk: offset */
	consume(sg_dma_len(&data->sg[idx])); /* walk: index */
}

/* An sg_table from outside: sg_alloc_table() chains above 128 entries. */
static void walk_table(struct sg_table *sgt, struct sg_table t, int i)
{
	consume(sg_dma_address(sgt->sgl + i)); /* walk: offset */
	consume(sg_dma_address(&t.sgl[i])); /* walk: index */
}

/* The SCSI midlayer's list, as rts5208 walks it. */
static void walk_scsi(struct scsi_cmnd *srb, int index)
{
	struct scatterlist *sg;

	consume(sg_virt(scsi_sglist(srb) + index)); /* walk: offset */
	consume(sg_virt(&scsi_sglist(srb)[index])); /* walk: index */
	sg = scsi_sglist(srb);
	sg++; /* walk: advance */
}

/* A local that also holds the caller's list is not provably flat. */
static void walk_mixed(struct scatterlist *in, int n, int own)
{
	struct scatterlist *sg = kcalloc(n, sizeof(*sg), GFP_KERNEL);
	int i;

	if (!own)
		sg = in;
	for (i = 0; i < n; i++)
		consume(sg[i].offset); /* walk: index */
}

/* An array of its own that then gets a link is no longer flat. */
static void walk_linked(struct scatterlist *next, int i)
{
	struct scatterlist *sg = kmalloc_array(4, sizeof(*sg), GFP_KERNEL);

	sg_init_table(sg, 4);
	sg_chain(sg, 4, next);
	consume(sg[i].length); /* walk: index */
}

/* A field the file builds, but also points at a caller's list. */
struct holder {
	struct scatterlist *list;
};

static void holder_build(struct holder *h, int n)
{
	h->list = kcalloc(n, sizeof(*h->list), GFP_KERNEL);
	sg_init_table(h->list, n);
}

static void holder_borrow(struct holder *h, struct scatterlist *caller)
{
	h->list = caller;
}

static void holder_walk(struct holder *h, int i)
{
	consume(h->list[i].length); /* walk: index */
}
