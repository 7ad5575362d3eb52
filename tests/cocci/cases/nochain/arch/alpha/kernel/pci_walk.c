// SPDX-License-Identifier: GPL-2.0
/*
 * alpha selects ARCH_NO_SG_CHAIN: a mapper here walks with sg++ and is
 * right to. No line here may be reported.
 */
#include <linux/scatterlist.h>

static void alpha_style_map(struct scatterlist *sg, int nents)
{
	int i;

	for (i = 0; i < nents; i++, sg++)
		consume(sg_dma_address(sg));
}
