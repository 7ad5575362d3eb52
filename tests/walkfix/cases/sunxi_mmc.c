// SPDX-License-Identifier: GPL-2.0
/*
 * walkfix: drivers/mmc/host/sunxi-mmc.c define:SDXC_IDMAC_DES0_DIC define:SDXC_IDMAC_DES0_LD define:SDXC_IDMAC_DES0_FD define:SDXC_IDMAC_DES0_CH define:SDXC_IDMAC_DES0_ER define:SDXC_IDMAC_DES0_OWN struct:sunxi_idma_des sunxi_mmc_init_idma_des
 * fix: mmc: sunxi-mmc: walk the data's list with for_each_sg()
 *
 * sunxi_mmc_init_idma_des() writes one IDMAC descriptor per entry of
 * data->sg, each pointing at the next. brcmfmac with its txglomsz parameter
 * at 65 or more hands the host, in its first scatter-gather transfer of 128
 * entries, a chained list whose 128th is the link. Expect one descriptor
 * per data entry with its DMA address and length (a buf_size of 0 read as
 * the largest size, as the driver takes it), chained in order, the last
 * marked LD with no next, and nothing at bus address 0.
 */
#include "walkfix.h"

/* What the function uses of the kernel, of the host and of the request. */
typedef u32 __le32;
#define BIT(n)			(1UL << (n))
#define cpu_to_le32(x)		((u32)(x))
#define le32_to_cpu(x)		((u32)(x))
#define wmb()			__sync_synchronize()

struct sunxi_mmc_cfg {
	u32 idma_des_size_bits;
	u32 idma_des_shift;
};

struct sunxi_mmc_host {
	const struct sunxi_mmc_cfg *cfg;
	void *sg_cpu;
	dma_addr_t sg_dma;
};

struct mmc_data {
	struct scatterlist *sg;
	unsigned int sg_len;
};

#include WALKFIX_EXTRACT

int main(void)
{
	/*
	 * brcmfmac's shape, scaled down: its sg_alloc_table() list holds 127
	 * entries, the link and the rest, and a request takes up to 128 of
	 * them, so the last is the first of the second table. The A64's
	 * descriptor layout: sizes of 16 bits, addresses unshifted.
	 */
	static const struct sunxi_mmc_cfg cfg = { .idma_des_size_bits = 16 };
	const size_t head = 9, ndata = 10, max_len = 1 << 16;
	struct sunxi_mmc_host host = { .cfg = &cfg, .sg_dma = 0x7f000000 };
	struct sunxi_idma_des *d;
	struct walkfix_list l;
	struct mmc_data data;
	size_t i;

	walkfix_list_init(&l, head, ndata);
	walkfix_list_map(&l);
	data = (struct mmc_data){ .sg = l.first, .sg_len = ndata };
	host.sg_cpu = aligned_alloc(PAGE_SIZE, PAGE_SIZE);
	memset(host.sg_cpu, 0, PAGE_SIZE);
	d = host.sg_cpu;

	sunxi_mmc_init_idma_des(&host, &data);
	for (i = 0; i < ndata; i++) {
		u32 size = le32_to_cpu(d[i].buf_size);

		walkfix_check_dma(&l, "sunxi_mmc_init_idma_des", i, le32_to_cpu(d[i].buf_addr_ptr1),
				  size ? size : max_len);
	}
	for (i = 0; i + 1 < ndata; i++)
		walkfix_check(le32_to_cpu(d[i].buf_addr_ptr2) == host.sg_dma + (i + 1) * sizeof(*d),
			      "sunxi_mmc_init_idma_des: descriptor %zu leads to descriptor %zu", i, i + 1);
	walkfix_check((le32_to_cpu(d[ndata - 1].config) & SDXC_IDMAC_DES0_LD) &&
		      !d[ndata - 1].buf_addr_ptr2,
		      "sunxi_mmc_init_idma_des: descriptor %zu, the last data entry's, ends the chain",
		      ndata - 1);
	for (i = 0; i < ndata; i++)
		if (le32_to_cpu(d[i].config) & SDXC_IDMAC_DES0_OWN && !d[i].buf_addr_ptr1)
			break;
	walkfix_check(i == ndata, "sunxi_mmc_init_idma_des: no descriptor moves data at bus address 0");

	free(host.sg_cpu);
	walkfix_list_free(&l);
	return walkfix_result();
}
