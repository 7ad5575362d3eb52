// SPDX-License-Identifier: GPL-2.0
/*
 * walkfix: drivers/dma/ste_dma40.c d40_prep_sg
 * fix: dmaengine: ste_dma40: find the last entry of a chained list with for_each_sg()
 *
 * d40_prep_sg() marks a transfer cyclic when the entry after the last of
 * its sg_len entries is the first: dma40_prep_dma_cyclic() links a ring of
 * periods that way. Expect a cyclic ring marked cyclic, and a flat or a
 * chained slave list (spi-pl022's sg_alloc_table() list, a link after the
 * first table) not, with no entry read but the list's own.
 *
 * sg_next() is checked where it is called: on an entry that is none of the
 * list's, the case reports it (what the kernel reads there is whatever the
 * memory past the table holds).
 */
#include "walkfix.h"

#include <linux/slab.h>

/* What the function uses of dmaengine and of the driver's channel. */
enum dma_transfer_direction { DMA_MEM_TO_DEV = 1, DMA_DEV_TO_MEM = 2 };

struct dma_chan { int id; };
struct dma_slave_config { int unused; };
struct dma_async_tx_descriptor { int unused; };
struct list_head { struct list_head *next, *prev; };

struct d40_desc {
	struct dma_async_tx_descriptor txd;
	struct list_head node;
	bool cyclic;
};

struct d40_chan {
	int lock;
	void *phy_chan;
	struct dma_chan chan;
	struct list_head prepare_queue;
	struct dma_slave_config slave_config;
	dma_addr_t runtime_addr;
};

#define container_of(ptr, type, member) ((type *)((char *)(ptr) - offsetof(type, member)))
#define spin_lock_irqsave(lock, flags)		((void)(lock), (flags) = 0)
#define spin_unlock_irqrestore(lock, flags)	((void)(lock), (void)(flags))
#define chan_err(chan, fmt, ...)		fprintf(stderr, fmt, ##__VA_ARGS__)

static struct d40_desc the_desc;
static int prepared;

static int d40_set_runtime_config_write(struct dma_chan *chan, struct dma_slave_config *cfg,
					enum dma_transfer_direction dir)
{
	return 0;
}

static struct d40_desc *d40_prep_desc(struct d40_chan *chan, struct scatterlist *sg,
				      unsigned int sg_len, unsigned long flags)
{
	memset(&the_desc, 0, sizeof(the_desc));
	return &the_desc;
}

static bool chan_is_logical(struct d40_chan *chan)
{
	return true;
}

static int d40_prep_sg_log(struct d40_chan *chan, struct d40_desc *desc,
			   struct scatterlist *sg_src, struct scatterlist *sg_dst,
			   unsigned int sg_len, dma_addr_t src_dev_addr, dma_addr_t dst_dev_addr)
{
	prepared++;
	return 0;
}

static int d40_prep_sg_phy(struct d40_chan *chan, struct d40_desc *desc,
			   struct scatterlist *sg_src, struct scatterlist *sg_dst,
			   unsigned int sg_len, dma_addr_t src_dev_addr, dma_addr_t dst_dev_addr)
{
	prepared++;
	return 0;
}

static void list_add_tail(struct list_head *new, struct list_head *head)
{
}

static void d40_desc_free(struct d40_chan *chan, struct d40_desc *desc)
{
}

/* The entries sg_next() may be given: those of the list under test. */
static struct scatterlist *entries[40];
static int nentries, strays;

static struct scatterlist *case_sg_next(struct scatterlist *sg)
{
	int i;

	for (i = 0; i < nentries && entries[i] != sg; i++)
		;
	if (i == nentries)
		strays++;
	return sg_next(sg);
}

#define sg_next(sg)	case_sg_next(sg)

#include WALKFIX_EXTRACT

#undef sg_next

static void check(const char *who, struct scatterlist *sgl, unsigned int sg_len, bool cyclic)
{
	struct d40_chan chan = { .phy_chan = &chan };
	struct dma_async_tx_descriptor *txd;

	strays = prepared = 0;
	txd = d40_prep_sg(&chan.chan, sgl, sgl, sg_len, DMA_MEM_TO_DEV, 0);
	walkfix_check(txd && prepared == 1 && the_desc.cyclic == cyclic && !strays,
		      "%s: prepared, %s, sg_next() only on its entries (%s; %d other entries)",
		      who, cyclic ? "cyclic" : "not cyclic",
		      the_desc.cyclic ? "cyclic" : "not cyclic", strays);
}

int main(void)
{
	const unsigned int periods = 8;
	struct scatterlist *ring;
	struct walkfix_list l;
	size_t i;

	/* spi-pl022's list, scaled down: a first table, its link, the rest. */
	walkfix_list_init(&l, 16, 18);
	walkfix_list_map(&l);
	nentries = 0;
	for (i = 0; i < l.head; i++)
		entries[nentries++] = &l.first[i];
	for (i = 0; i < l.ndata - l.head; i++)
		entries[nentries++] = &l.second[i];
	check("a chained slave list of 18", l.first, l.ndata, false);
	check("its first 16, one table", l.first, l.head, false);
	walkfix_list_free(&l);

	/* dma40_prep_dma_cyclic()'s ring: periods entries, a link back. */
	ring = kcalloc(periods + 1, sizeof(*ring), GFP_KERNEL);
	nentries = 0;
	for (i = 0; i < periods; i++) {
		sg_dma_address(&ring[i]) = 0x80000000 + i * 4096;
		sg_dma_len(&ring[i]) = 4096;
		entries[nentries++] = &ring[i];
	}
	sg_chain(ring, periods + 1, ring);
	check("a cyclic ring of 8 periods", ring, periods, true);
	kfree(ring);
	return walkfix_result();
}
