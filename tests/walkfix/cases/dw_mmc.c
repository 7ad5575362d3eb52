// SPDX-License-Identifier: GPL-2.0
/*
 * walkfix: drivers/mmc/host/dw_mmc.c define:DESC_RING_BUF_SZ struct:idmac_desc_64addr struct:idmac_desc define:DW_MCI_DESC_DATA_LENGTH dw_mci_prepare_desc64 dw_mci_prepare_desc32
 * fix: mmc: dw_mmc: walk the data's list with for_each_sg()
 *
 * dw_mci_prepare_desc64() and dw_mci_prepare_desc32() write one IDMAC
 * descriptor per page of each mapped entry of data->sg. brcmfmac with its
 * txglomsz parameter at 65 or more hands the host, in its first
 * scatter-gather transfer of 128 entries, a chained list whose 128th is
 * the link. Expect one descriptor per data entry, with its DMA address,
 * in order, a page each, and nothing else.
 */
#include "walkfix.h"

/* What the two functions use of the kernel, as stubs of its behaviour. */
typedef u32 __le32;
#define BIT(n)			(1UL << (n))
#define cpu_to_le32(x)		((u32)(x))
#define USEC_PER_MSEC		1000L
#define ETIMEDOUT		110
/* The IDMAC gave every descriptor back: the condition holds at once. */
#define readl_poll_timeout_atomic(addr, val, cond, delay_us, timeout_us) \
	({ (val) = *(addr); (cond) ? 0 : -ETIMEDOUT; })
#define dev_dbg(dev, ...)	do { } while (0)

struct dw_mci {
	void *sg_cpu;
	struct device *dev;
};

struct mmc_data {
	struct scatterlist *sg;
};

static void dw_mci_idmac_init(struct dw_mci *host)
{
	(void)host;
}

#include WALKFIX_EXTRACT

/* Descriptor @i of the ring, of either layout: its address, length, DES0. */
struct desc_seen {
	dma_addr_t addr;
	unsigned long len;
	u32 des0;
};

static struct desc_seen seen64(struct dw_mci *host, size_t i)
{
	struct idmac_desc_64addr *d = (struct idmac_desc_64addr *)host->sg_cpu + i;

	return (struct desc_seen){ d->des4 | (u64)d->des5 << 32, d->des2 & 0x1fff, d->des0 };
}

static struct desc_seen seen32(struct dw_mci *host, size_t i)
{
	struct idmac_desc *d = (struct idmac_desc *)host->sg_cpu + i;

	return (struct desc_seen){ d->des2, d->des1 & 0x1fff, d->des0 };
}

/*
 * One descriptor per data entry (each a page: DW_MCI_DESC_DATA_LENGTH), in
 * order; the last marked LD; none written after it.
 */
static void check_ring(struct walkfix_list *l, struct dw_mci *host, const char *who,
		       int (*prepare)(struct dw_mci *, struct mmc_data *, unsigned int),
		       struct desc_seen (*seen)(struct dw_mci *, size_t))
{
	struct mmc_data data = { .sg = l->first };
	size_t i;

	memset(host->sg_cpu, 0, DESC_RING_BUF_SZ);
	walkfix_check(prepare(host, &data, l->ndata) == 0, "%s: returns 0", who);
	for (i = 0; i < l->ndata; i++)
		walkfix_check_dma(l, who, i, seen(host, i).addr, seen(host, i).len);
	walkfix_check(seen(host, l->ndata - 1).des0 & IDMAC_DES0_LD,
		      "%s: descriptor %zu, the last data entry's, ends the chain (LD)",
		      who, l->ndata - 1);
	walkfix_check(!(seen(host, l->ndata).des0 & IDMAC_DES0_OWN),
		      "%s: no descriptor after the %zu of the data entries", who, l->ndata);
}

int main(void)
{
	/*
	 * brcmfmac's shape, scaled down: its sg_alloc_table() list holds 127
	 * entries, the link and the rest, and a request takes up to 128 of
	 * them, so the last is the first of the second table.
	 */
	const size_t head = 9, ndata = 10;
	struct walkfix_list l;
	struct dw_mci host;

	walkfix_list_init(&l, head, ndata);
	walkfix_list_map(&l);
	host.sg_cpu = aligned_alloc(PAGE_SIZE, DESC_RING_BUF_SZ);
	check_ring(&l, &host, "dw_mci_prepare_desc64", dw_mci_prepare_desc64, seen64);
	check_ring(&l, &host, "dw_mci_prepare_desc32", dw_mci_prepare_desc32, seen32);
	free(host.sg_cpu);
	walkfix_list_free(&l);
	return walkfix_result();
}
