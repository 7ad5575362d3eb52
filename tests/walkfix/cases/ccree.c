// SPDX-License-Identifier: GPL-2.0
/*
 * walkfix: drivers/crypto/ccree/cc_buffer_mgr.c union:buffer_array_entry struct:buffer_array cc_add_sg_entry cc_is_icv_frag cc_prepare_aead_data_mlli
 * fix: crypto: ccree - find the ICV's entry with sg_last()
 *
 * cc_prepare_aead_data_mlli() points the engine at the ICV, the last
 * authsize bytes of the data: in the last of the src.nents (or dst.nents)
 * entries that hold it, *src_last_bytes into that entry. AF_ALG's aead
 * hands an in-place request its receive list, 16 pages a table and a link
 * to the next. Expect the ICV's DMA and virtual addresses inside the last
 * data entry, for each of the three ways the function takes (in place;
 * out of place, decrypt; out of place, encrypt).
 */
#include "walkfix.h"

/* What the function uses of the driver's headers, as 6.12 has them. */
#define MAX_NUM_OF_BUFFERS_IN_MLLI	4
#define MAX_MAC_SIZE			64
#define dev_dbg(dev, ...)		do { } while (0)

enum drv_crypto_direction {
	DRV_CRYPTO_DIRECTION_ENCRYPT = 0,
	DRV_CRYPTO_DIRECTION_DECRYPT = 1,
};

enum cc_sg_cpy_direct { CC_SG_TO_BUF = 0, CC_SG_FROM_BUF = 1 };

struct cc_drvdata {
	bool coherent;
};

struct cc_mlli {
	u32 nents;
	u32 mlli_nents;
};

struct aead_req_ctx {
	u8 mac_buf[MAX_MAC_SIZE];
	u8 backup_mac[MAX_MAC_SIZE];
	dma_addr_t mac_buf_dma_addr;
	dma_addr_t icv_dma_addr;
	u8 *icv_virt_addr;
	struct { enum drv_crypto_direction op_type; } gen_ctx;
	struct cc_mlli src, dst;
	struct scatterlist *src_sgl, *dst_sgl;
	unsigned int src_offset, dst_offset, cryptlen, req_authsize;
	bool is_icv_fragmented;
};

struct aead_request {
	struct scatterlist *src, *dst;
	struct aead_req_ctx ctx;
};

static struct aead_req_ctx *aead_request_ctx_dma(struct aead_request *req)
{
	return &req->ctx;
}

static struct device *drvdata_to_dev(struct cc_drvdata *drvdata)
{
	return NULL;
}

/* Only for an ICV split across entries, which these requests never have. */
static void cc_copy_mac(struct device *dev, struct aead_request *req, enum cc_sg_cpy_direct dir)
{
	walkfix_check(0, "cc_copy_mac: not called for an ICV inside one entry");
}

#include WALKFIX_EXTRACT

#define AUTHSIZE	16
/* The data ends 100 bytes into its last page: the ICV is its bytes 84..99. */
#define LAST_BYTES	100

static void check_icv(struct walkfix_list *l, const char *way, struct aead_req_ctx *ctx)
{
	size_t last = l->ndata - 1, at = LAST_BYTES - AUTHSIZE;
	dma_addr_t dma = walkfix_data_dma(l, last) + at;
	u8 *virt = (u8 *)walkfix_data(l, last) + at;

	walkfix_check(ctx->icv_dma_addr == dma && ctx->icv_virt_addr == virt && !ctx->is_icv_fragmented,
		      "%s: the ICV is bytes %zu..%zu of data entry %zu (dma %#llx, %p; got %#llx, %p)",
		      way, at, at + AUTHSIZE - 1, last, (unsigned long long)dma, virt,
		      (unsigned long long)ctx->icv_dma_addr, ctx->icv_virt_addr);
}

static void prepare(struct aead_request *req, struct walkfix_list *src, struct walkfix_list *dst,
		    enum drv_crypto_direction dir)
{
	static struct cc_drvdata drvdata;
	struct buffer_array sg_data = { 0 };
	u32 src_last = LAST_BYTES, dst_last = LAST_BYTES;

	memset(req, 0, sizeof(*req));
	req->src = src->first;
	req->dst = dst->first;
	req->ctx = (struct aead_req_ctx){
		.gen_ctx.op_type = dir,
		.src = { .nents = src->ndata }, .dst = { .nents = dst->ndata },
		.src_sgl = src->first, .dst_sgl = dst->first,
		.cryptlen = (src->ndata - 1) * PAGE_SIZE + LAST_BYTES - AUTHSIZE,
		.req_authsize = AUTHSIZE,
	};
	cc_prepare_aead_data_mlli(&drvdata, req, &sg_data, &src_last, &dst_last, true);
}

int main(void)
{
	/* AF_ALG's receive list: a table of 16 pages, the link, two more. */
	const size_t head = 16, ndata = 18;
	struct walkfix_list a, b;
	struct aead_request req;

	walkfix_list_init(&a, head, ndata);
	walkfix_list_map(&a);
	walkfix_list_init(&b, head, ndata);
	walkfix_list_map(&b);

	prepare(&req, &a, &a, DRV_CRYPTO_DIRECTION_ENCRYPT);
	check_icv(&a, "in place, encrypt", &req.ctx);
	prepare(&req, &a, &b, DRV_CRYPTO_DIRECTION_DECRYPT);
	check_icv(&a, "out of place, decrypt (ICV in src)", &req.ctx);
	prepare(&req, &a, &b, DRV_CRYPTO_DIRECTION_ENCRYPT);
	check_icv(&b, "out of place, encrypt (ICV in dst)", &req.ctx);

	walkfix_list_free(&a);
	walkfix_list_free(&b);
	return walkfix_result();
}
