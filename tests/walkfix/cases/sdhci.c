// SPDX-License-Identifier: GPL-2.0
/*
 * walkfix: drivers/mmc/host/sdhci.c sdhci_external_dma_setup
 * fix: mmc: sdhci: check the alignment of a chained list's entries
 *
 * sdhci_external_dma_setup() refuses a list with an entry that is not a
 * multiple of the block size, before it touches the DMA engine, and the
 * caller then falls back to the controller's own DMA or PIO. brcmfmac
 * with its txglomsz parameter at 128 or more hands the host a chained list
 * of up to 128 entries, whose 128th is the link. Expect a misaligned last
 * entry refused with -EINVAL and the engine never asked; an aligned list
 * handed to it whole.
 */
#include "walkfix.h"

/* What the function uses of the kernel's dmaengine and MMC headers. */
#define EINVAL			22
#define SDHCI_BUFFER		0x20
#define MMC_DATA_WRITE		(1 << 8)
#define DMA_PREP_INTERRUPT	(1 << 0)
#define DMA_CTRL_ACK		(1 << 1)
#define dma_submit_error(cookie) ((cookie) < 0 ? 1 : 0)

typedef int dma_cookie_t;
enum dma_transfer_direction { DMA_MEM_TO_DEV = 1, DMA_DEV_TO_MEM = 2 };
enum dma_slave_buswidth { DMA_SLAVE_BUSWIDTH_4_BYTES = 4 };
enum sdhci_cookie { COOKIE_MAPPED = 1 };

struct dma_slave_config {
	phys_addr_t src_addr, dst_addr;
	enum dma_slave_buswidth src_addr_width, dst_addr_width;
	u32 src_maxburst, dst_maxburst;
};

struct dma_chan {
	int asked;			/* prep_slave_sg calls */
	struct scatterlist *sgl;	/* what the last one was given */
	unsigned int sg_len;
};

struct dma_async_tx_descriptor {
	void (*callback)(void *);
	void *callback_param;
};

struct mmc_data {
	struct scatterlist *sg;
	unsigned int sg_len, blksz, flags;
};

struct mmc_command {
	struct mmc_data *data;
};

struct sdhci_host {
	phys_addr_t mapbase;
	struct dma_chan chan;
};

static struct dma_async_tx_descriptor the_desc;

static struct dma_chan *sdhci_external_dma_channel(struct sdhci_host *host,
						   struct mmc_data *data)
{
	return &host->chan;
}

static int dmaengine_slave_config(struct dma_chan *chan, struct dma_slave_config *cfg)
{
	return 0;
}

/* dma_map_sg() of a list that nothing merges: as many entries back. */
static int sdhci_pre_dma_transfer(struct sdhci_host *host, struct mmc_data *data, int cookie)
{
	return data->sg_len;
}

static struct dma_async_tx_descriptor *
dmaengine_prep_slave_sg(struct dma_chan *chan, struct scatterlist *sgl, unsigned int sg_len,
			enum dma_transfer_direction dir, unsigned long flags)
{
	chan->asked++;
	chan->sgl = sgl;
	chan->sg_len = sg_len;
	return &the_desc;
}

static dma_cookie_t dmaengine_submit(struct dma_async_tx_descriptor *desc)
{
	return 1;
}

#include WALKFIX_EXTRACT

static int setup(struct walkfix_list *l, struct sdhci_host *host)
{
	struct mmc_data data = { .sg = l->first, .sg_len = l->ndata, .blksz = 512 };
	struct mmc_command cmd = { .data = &data };

	memset(&host->chan, 0, sizeof(host->chan));
	return sdhci_external_dma_setup(host, &cmd);
}

int main(void)
{
	/*
	 * brcmfmac's shape, scaled down: its sg_alloc_table() list holds 127
	 * entries, the link and the rest, and a request takes up to 128 of
	 * them, so the last is the first of the second table.
	 */
	const size_t head = 9, ndata = 10;
	struct sdhci_host host = { .mapbase = 0xfe300000 };
	struct walkfix_list l;
	int ret;

	walkfix_list_init(&l, head, ndata);
	walkfix_list_map(&l);

	ret = setup(&l, &host);
	walkfix_check(ret == 0 && host.chan.asked == 1 && host.chan.sgl == l.first &&
		      host.chan.sg_len == ndata,
		      "blocks of 512 bytes: the engine gets the list whole (returned %d, asked %d times)",
		      ret, host.chan.asked);

	/* The last data entry, behind the link, ends 100 bytes into a block. */
	l.second[ndata - head - 1].length = 3 * 512 + 100;
	ret = setup(&l, &host);
	walkfix_check(ret == -EINVAL && host.chan.asked == 0,
		      "the last entry not a multiple of 512: refused before the engine (returned %d, engine asked %d times)",
		      ret, host.chan.asked);

	walkfix_list_free(&l);
	return walkfix_result();
}
