// SPDX-License-Identifier: GPL-2.0
/*
 * A file that fills a table through sg_set_buf() and names neither the
 * struct nor any accessor that reads an entry: the rule must still read it.
 */
struct table_holder {
	struct sg_table *sgt;
};

static void fill(struct table_holder *h, void *buf, int i)
{
	sg_set_buf(&h->sgt->sgl[i], buf, 64); /* walk: index */
}
