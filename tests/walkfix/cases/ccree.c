// SPDX-License-Identifier: GPL-2.0
/*
 * walkfix: drivers/crypto/ccree/cc_buffer_mgr.c union:buffer_array_entry struct:buffer_array cc_add_sg_entry cc_is_icv_frag ?cc_sg_nth cc_prepare_aead_data_mlli
 * fix: crypto: ccree - find the ICV's entry by following chain links
 *
 * cc_prepare_aead_data_mlli() points the engine at the ICV, the last
 * authsize bytes of the data: in the last of the src.nents (or dst.nents)
 * entries that hold it, *src_last_bytes into that entry. AF_ALG's aead
 * hands the driver its receive list as req->dst, 16 pages a table and a
 * link to the next: out of place, or in place on that list under the
 * echainiv template. Expect the ICV's DMA and virtual addresses inside the
 * last data entry, for each of the three ways the function takes (in
 * place; out of place, encrypt, the ICV in dst; out of place, decrypt, the
 * ICV in src, which AF_ALG keeps flat but another caller need not),
 * whether that entry ends the list or not.
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

static void check_icv(struct walkfix_list *l, size_t nents, const char *way,
		      struct aead_req_ctx *ctx)
{
	size_t last = nents - 1, at = LAST_BYTES - AUTHSIZE;
	dma_addr_t dma = walkfix_data_dma(l, last) + at;
	u8 *virt = (u8 *)walkfix_data(l, last) + at;

	walkfix_check(ctx->icv_dma_addr == dma && ctx->icv_virt_addr == virt && !ctx->is_icv_fragmented,
		      "%s: the ICV is bytes %zu..%zu of data entry %zu (dma %#llx, %p; got %#llx, %p)",
		      way, at, at + AUTHSIZE - 1, last, (unsigned long long)dma, virt,
		      (unsigned long long)ctx->icv_dma_addr, ctx->icv_virt_addr);
}

/*
 * The request's data in the first @nents entries of each list: all of
 * them, or all but the last when the caller's buffer is longer than the
 * request (nothing makes the entry holding the ICV the list's last).
 */
static void prepare(struct aead_request *req, struct walkfix_list *src, struct walkfix_list *dst,
		    size_t nents, enum drv_crypto_direction dir)
{
	static struct cc_drvdata drvdata;
	struct buffer_array sg_data = { 0 };
	u32 src_last = LAST_BYTES, dst_last = LAST_BYTES;

	memset(req, 0, sizeof(*req));
	req->src = src->first;
	req->dst = dst->first;
	req->ctx = (struct aead_req_ctx){
		.gen_ctx.op_type = dir,
		.src = { .nents = nents }, .dst = { .nents = nents },
		.src_sgl = src->first, .dst_sgl = dst->first,
		.cryptlen = (nents - 1) * PAGE_SIZE + LAST_BYTES - AUTHSIZE,
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
	size_t nents;

	walkfix_list_init(&a, head, ndata);
	walkfix_list_map(&a);
	walkfix_list_init(&b, head, ndata);
	walkfix_list_map(&b);

	for (nents = ndata; nents >= ndata - 1; nents--) {
		printf("data in %zu of the %zu entries\n", nents, ndata);
		prepare(&req, &a, &a, nents, DRV_CRYPTO_DIRECTION_ENCRYPT);
		check_icv(&a, nents, "in place, encrypt", &req.ctx);
		prepare(&req, &a, &b, nents, DRV_CRYPTO_DIRECTION_DECRYPT);
		check_icv(&a, nents, "out of place, decrypt (ICV in src)", &req.ctx);
		prepare(&req, &a, &b, nents, DRV_CRYPTO_DIRECTION_ENCRYPT);
		check_icv(&b, nents, "out of place, encrypt (ICV in dst)", &req.ctx);
	}

	walkfix_list_free(&a);
	walkfix_list_free(&b);
	return walkfix_result();
}
