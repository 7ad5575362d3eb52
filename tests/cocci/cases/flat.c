// SPDX-License-Identifier: GPL-2.0
/*
 * Walks sg_flat_walk.cocci must not report: each list is one flat table the
 * code built itself, or the code follows links itself. No line here may be
 * reported.
 */
#include <linux/scatterlist.h>

struct ring {
	struct scatterlist sg[8];
	struct scatterlist *table;
	struct scatterlist *carved;
};

/* An array on the stack. */
static void own_stack_array(int n)
{
	struct scatterlist sg[4];
	struct scatterlist *s = sg;
	int i;

	sg_init_table(sg, 4);
	for (i = 0; i < n; i++)
		consume(sg[i].length);
	s++;
	consume(s->length);
}

/* A fresh allocation, initialised here. */
static void own_allocation(int n)
{
	struct scatterlist *sgl;
	int i;

	sgl = kmalloc_array(n, sizeof(*sgl), GFP_KERNEL);
	sg_init_table(sgl, n);
	for (i = 0; i < n; i++)
		consume(sgl[i].length);
	sg_mark_end(&sgl[n - 1]);
}

/* A fresh allocation the code fills without sg_init_table(). */
static void own_uninitialised_allocation(int n)
{
	struct scatterlist *sgl = kcalloc(n, sizeof(*sgl), GFP_KERNEL);
	struct scatterlist *sg = sgl;
	int i;

	for (i = 0; i < n; i++, sg++)
		consume(sg->length);
}

/* A field that the object allocates and initialises. */
static void ring_build(struct ring *r, int n)
{
	r->table = kcalloc(n, sizeof(*r->table), GFP_KERNEL);
	sg_init_table(r->table, n);
}

static void ring_walk(struct ring *r, int i)
{
	consume(r->table[i].length);
	consume(sg_virt(r->table + i));
}

/* A field carved out of a buffer the object allocated. */
static void ring_carve(struct ring *r, size_t n)
{
	void *buf = kzalloc(sizeof(*r) + n * sizeof(*r->carved), GFP_KERNEL);

	buf += sizeof(*r);
	r->carved = buf;
}

static void ring_walk_carved(struct ring *r, int i)
{
	consume(r->carved[i].length);
}

/* An array field, through a pointer. */
static void ring_array(struct ring *r, int i)
{
	struct scatterlist *s = &r->sg[0];

	s += i;
	consume(s->length);
}

/* sg_next() itself, or any function that tests for a link. */
static struct scatterlist *follow(struct scatterlist *sg)
{
	if (sg_is_last(sg))
		return NULL;
	sg++;
	if (sg_is_chain(sg))
		sg = sg_chain_ptr(sg);
	return sg;
}

/* The chain-aware walks: nothing to report. */
static void chain_aware(struct scatterlist *sgl, int n)
{
	struct scatterlist *sg;
	int i;

	for_each_sg(sgl, sg, n, i)
		consume(sg->length);
	for (sg = sgl; sg; sg = sg_next(sg))
		consume(sg->length);
	consume(sgl[0].length);
}

/* A list from a mempool and one from sgl_alloc(): both one flat array. */
static void own_pool_list(mempool_t *pool, int i)
{
	struct scatterlist *sgl = mempool_alloc(pool, GFP_NOIO);
	struct scatterlist *other;
	unsigned int n;

	consume(sgl[i].length);
	other = sgl_alloc(1 << 20, GFP_KERNEL, &n);
	consume(other[i].length);
}

/* A page of entries, through a cast: the last slot of a fresh table. */
static void own_page_table(void)
{
	struct scatterlist *sgl;

	sgl = (typeof(sgl))__get_free_page(GFP_KERNEL);
	sg_init_marker(sgl, SG_MAX_SINGLE_ALLOC);
	consume(sg_virt(sgl + SG_MAX_SINGLE_ALLOC - 1));
}

/* A field saved and put back around a reset: still the object's table. */
struct saved {
	struct scatterlist *sgl;
	int n;
};

static void saved_setup(struct saved *c, int n)
{
	c->sgl = kcalloc(n, sizeof(*c->sgl), GFP_KERNEL);
}

static void saved_reset(struct saved *c)
{
	struct scatterlist *sgl = c->sgl;

	memset(c, 0, sizeof(*c));
	c->sgl = sgl;
}

static void saved_walk(struct saved *c, int i)
{
	consume(c->sgl[i].length);
}

/* Entries that follow the object they were allocated with. */
struct msg {
	int nents;
};

static void trailing_entries(struct msg *m, int i)
{
	struct scatterlist *sg = (struct scatterlist *)&m[1];

	consume(sg[i].length);
}

/* A pointer at an entry of an array in a struct, then walked. */
struct inline_sgs {
	struct scatterlist inline_sg[4];
};

static void array_entry_walk(struct inline_sgs *c, int k)
{
	struct scatterlist *sg = &c->inline_sg[k];

	sg++;
	consume(sg->length);
}

/* How far apart two entries are: a difference, not a walk. */
static int entries_between(struct scatterlist *first, struct scatterlist *last)
{
	return last - first;
}
