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

/* A table chained by hand, as i915's error capture grows its list. */
struct grow {
	struct scatterlist *cur;
};

static void grow_table(struct grow *g)
{
	struct scatterlist *sgl = (typeof(sgl))__get_free_page(GFP_KERNEL);

	if (g->cur)
		g->cur->page_link = (unsigned long)sgl | SG_CHAIN;
	g->cur = sgl;
}

static void grow_add(struct grow *g)
{
	g->cur++; /* walk: advance */
}

/* A field pointed at a buffer the caller gave: not known to be flat. */
struct carve {
	struct scatterlist *sgl;
};

static void carve_from(struct carve *c, unsigned char *buf)
{
	c->sgl = (struct scatterlist *)buf;
}

static void carve_walk(struct carve *c, int i)
{
	consume(c->sgl[i].length); /* walk: index */
}

/* Entries of a caller's array, each initialised here: the rest of the list is not. */
static void init_each_entry(struct scatterlist *sg, int n)
{
	int i;

	for (i = 0; i < n; i++) {
		sg_init_table(&sg[i], 1); /* walk: index */
		consume(sg[i].length); /* walk: index */
	}
}

/* A request field from include/ is the caller's, whatever the file builds. */
struct areq_ctx {
	struct scatterlist src[2];
};

static void own_src(struct areq_ctx *ctx)
{
	sg_init_table(ctx->src, 2);
}

static void request_src(struct aead_request *req, int i)
{
	consume(sg_virt(req->src + i)); /* walk: offset */
}

/* An array of its own that scatterwalk_ffwd() turns into a link. */
static void forwarded(struct scatterlist *in, int i)
{
	struct scatterlist fwd[2];
	struct scatterlist *sg = fwd;

	scatterwalk_ffwd(fwd, in, 16);
	consume(sg[i].length); /* walk: index */
}

/* An index that itself steps a counter, and a field stepped back. */
struct host_idx {
	int idx;
};

static void index_by_counter(struct mmc_data *data, struct host_idx *host)
{
	consume(sg_dma_len(&data->sg[host->idx++])); /* walk: index */
	data->sg--; /* walk: advance */
}

static void scsi_back(struct scsi_cmnd *cmd, int i)
{
	consume(sg_virt(scsi_sglist(cmd) - i)); /* walk: offset */
}

/* A parameter that holds an allocation only sometimes is the caller's. */
static void maybe_allocated(struct scatterlist *sg, int n, int i)
{
	struct scatterlist *s;

	if (!sg)
		sg = kcalloc(n, sizeof(*sg), GFP_KERNEL);
	s = sg;
	consume(s[i].length); /* walk: index */
}

/* An array parameter is a pointer to the caller's list. */
static void array_parameter(struct scatterlist sgl[], int i)
{
	struct scatterlist *s = sgl;

	consume(s[i].length); /* walk: index */
}
