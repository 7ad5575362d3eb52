// SPDX-License-Identifier: GPL-2.0
/*
 * walkfix: drivers/crypto/cavium/cpt/cptvf_algs.c update_input_data update_output_data
 * fix: crypto: cavium/cpt - walk the request's lists with sg_next()
 *
 * update_input_data() and update_output_data() turn a request's list into
 * the in[] and out[] buffers the CPT engine reads and writes. authenc()
 * hands the skcipher scatterwalk_ffwd()'s list: one data entry, then a link
 * to the rest of the caller's list. Expect one buffer per data entry, in
 * order, and nothing from behind the link.
 */
#include "walkfix.h"

/* The fields the two functions use, as request_manager.h has them. */
#define MAX_BUF_CNT	16

struct buf_ptr {
	u8 *vptr;
	dma_addr_t dma_addr;
	u16 size;
};

struct cptvf_request {
	u32 dlen;
};

struct cpt_request_info {
	u16 rlen;
	struct cptvf_request req;
	struct buf_ptr in[MAX_BUF_CNT];
	struct buf_ptr out[MAX_BUF_CNT];
};

#include WALKFIX_EXTRACT

int main(void)
{
	/* Four pages: the entry before the link, three after it. */
	const size_t head = 1, ndata = 4;
	struct cpt_request_info req = { 0 };
	struct walkfix_list l;
	u32 argcnt = 0;
	size_t i;

	walkfix_list_init(&l, head, ndata);
	update_input_data(&req, l.first, ndata * PAGE_SIZE, &argcnt);
	walkfix_check(argcnt == ndata, "update_input_data: %zu buffers (got %u)", ndata, argcnt);
	for (i = 0; i < ndata && i < argcnt; i++)
		walkfix_check_segment(&l, "update_input_data", i, req.in[i].vptr, req.in[i].size);

	argcnt = 0;
	update_output_data(&req, l.first, ndata * PAGE_SIZE, &argcnt);
	walkfix_check(argcnt == ndata, "update_output_data: %zu buffers (got %u)", ndata, argcnt);
	for (i = 0; i < ndata && i < argcnt; i++)
		walkfix_check_segment(&l, "update_output_data", i, req.out[i].vptr,
				      req.out[i].size);
	walkfix_list_free(&l);
	return walkfix_result();
}
