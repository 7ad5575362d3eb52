// SPDX-License-Identifier: GPL-2.0
/*
 * walkfix: drivers/crypto/hifn_795x.c define:ACRYPTO_MODE_ECB define:HIFN_D_DST_DALIGN define:HIFN_D_CMD_RSIZE define:HIFN_QUEUE_LENGTH define:HIFN_DEFAULT_ACTIVE_NUM define:ASYNC_SCATTERLIST_CACHE define:ASYNC_FLAGS_MISALIGNED struct:hifn_cipher_walk struct:hifn_context struct:hifn_request_context hifn_setup_dma hifn_cipher_walk_init hifn_cipher_walk_exit ?hifn_sg_advance skcipher_add hifn_cipher_walk hifn_setup_session skcipher_get hifn_process_ready
 * fix: crypto: hifn_795x - walk the request's lists with sg_next()
 *
 * hifn_setup_session() counts req->dst's entries, hifn_cipher_walk() plans
 * the bounce pages for a misaligned destination, hifn_setup_dma() gives the
 * engine a descriptor per entry of req->src and req->dst (or per bounce
 * page), and hifn_process_ready() copies the bounce pages back. The case
 * plays the engine: it writes an output stream through the destination
 * descriptors, in order. Expect, for authenc's scatterwalk_ffwd() lists
 * (one entry, a link, the rest) as source and destination, aligned,
 * misaligned, and misaligned only behind the link: the walk's plan (bounce
 * or not, one chunk per entry when aligned) as the entries ask, a source
 * descriptor per source data entry, the stream in the destination's data
 * entries, in order, and nothing written elsewhere.
 *
 * Each page the functions or the engine map is checked where it is mapped:
 * one that is no page of the request's or the driver's is reported and the
 * request left there (longjmp), as what the kernel would make of it is no
 * memory the case owns; so is the driver's own BUG().
 */
#include "walkfix.h"

#include <setjmp.h>

#include <linux/gfp.h>
#include <linux/kernel.h>
#include <linux/highmem.h>

/* What the functions use of the crypto API, the PCI device and the driver. */
#define HIFN_MAX_CRYPT_KEY_LENGTH	32
#define pr_debug(fmt, ...)		do { } while (0)
#define dev_info(dev, fmt, ...)		do { } while (0)
#define spin_lock_irqsave(lock, flags)	((void)(lock), (flags) = 0)
#define spin_unlock_irqrestore(lock, flags)	((void)(lock), (void)(flags))
#define min3(a, b, c)			min(min(a, b), c)
#define IS_ALIGNED(x, a)		(((x) & ((typeof(x))(a) - 1)) == 0)

struct pci_dev { struct device *dev; };

struct hifn_device {
	int lock, started, snum, active;
	struct pci_dev *pdev;
};

struct skcipher_request {
	struct { void *tfm; } base;
	struct scatterlist *src, *dst;
	unsigned int cryptlen;
	void *ctx;
	int completed;
};

static void *crypto_tfm_ctx(void *tfm)
{
	return tfm;
}

static void *skcipher_request_ctx(struct skcipher_request *req)
{
	return req->ctx;
}

static void skcipher_request_complete(struct skcipher_request *req, int err)
{
	req->completed++;
}

/* The descriptors the engine is given, a page, offset and length each. */
struct desc { struct page *page; unsigned int off, len; };
static struct desc src_descs[64], dst_descs[64];
static int nsrc, ndst;

static int hifn_setup_src_desc(struct hifn_device *dev, struct page *page,
			       unsigned int offset, unsigned int size, int last)
{
	if (nsrc < 64)
		src_descs[nsrc] = (struct desc){ page, offset, size };
	nsrc++;
	return 0;
}

static void hifn_setup_dst_desc(struct hifn_device *dev, struct page *page,
				unsigned int offset, unsigned int size, int last)
{
	if (ndst < 64)
		dst_descs[ndst] = (struct desc){ page, offset, size };
	ndst++;
}

struct hifn_context;
struct hifn_request_context;

static int hifn_setup_cmd_desc(struct hifn_device *dev, struct hifn_context *ctx,
			       struct hifn_request_context *rctx, void *priv,
			       unsigned int nbytes)
{
	return 0;
}

static void hifn_setup_res_desc(struct hifn_device *dev)
{
}

/*
 * The pages anyone may map: the lists' data and poison pages, the
 * source's, and the bounce pages the driver allocates.
 */
static struct walkfix_list *list, *src_list;
static struct page *bounce[16];		/* the driver's cache holds 16 */
static int nbounce;
static jmp_buf left;

static bool known_page(struct page *page)
{
	int i;

	if (walkfix_list_owns_page(list, page) || walkfix_list_owns_page(src_list, page))
		return true;
	for (i = 0; i < nbounce; i++)
		if (page == bounce[i])
			return true;
	return false;
}

static void *case_kmap_atomic(struct page *page, const char *who)
{
	if (!known_page(page)) {
		walkfix_check(0, "%s: maps a page of the request's or the driver's (got %p)",
			      who, (void *)page);
		longjmp(left, 1);
	}
	return kmap_atomic(page);
}

static struct page *case_alloc_page(gfp_t gfp)
{
	struct page *page = alloc_page(gfp);

	if (page && nbounce < (int)ARRAY_SIZE(bounce))
		bounce[nbounce++] = page;
	return page;
}

/* The driver's own BUG(), as a check: an oops in the kernel. */
#undef BUG
#define BUG()	do { walkfix_check(0, "%s: reaches BUG()", __func__); longjmp(left, 1); } while (0)

#define kmap_atomic(page)	case_kmap_atomic(page, __func__)
#undef alloc_page
#define alloc_page(gfp)		case_alloc_page(gfp)

#include WALKFIX_EXTRACT

#undef kmap_atomic

static unsigned char stream(size_t i)
{
	return (unsigned char)(i * 13 + i / 1021 + 7);
}

/* The engine: the output stream through the destination descriptors. */
static void engine(void)
{
	size_t pos = 0;
	int i;

	for (i = 0; i < ndst && i < 64; i++) {
		unsigned char *p;
		unsigned int k;

		if (!known_page(dst_descs[i].page)) {
			walkfix_check(0, "the engine: destination descriptor %d is a page of the request's or the driver's (got %p)",
				      i, (void *)dst_descs[i].page);
			continue;
		}
		p = (unsigned char *)kmap_atomic(dst_descs[i].page) + dst_descs[i].off;
		for (k = 0; k < dst_descs[i].len; k++)
			p[k] = stream(pos++);
		kunmap_atomic(p - dst_descs[i].off);
	}
}

/* The engine reads the source's data entries, each whole, in order? */
static void check_src(const char *who, struct walkfix_list *l)
{
	size_t e, right = 0;

	for (e = 0; e < l->ndata && e < (size_t)nsrc; e++)
		right += src_descs[e].page == sg_page(walkfix_entry(l, e)) &&
			 src_descs[e].off == walkfix_entry(l, e)->offset &&
			 src_descs[e].len == walkfix_entry(l, e)->length;
	walkfix_check(nsrc == (int)l->ndata && right == l->ndata,
		      "%s: a source descriptor per data entry of the source, in order (%d descriptors, %zu right)",
		      who, nsrc, right);
}

/* The destination's data entries, in order, hold the stream? */
static void check_dst(const char *who, struct walkfix_list *l)
{
	size_t e, pos = 0, i, right = 0, want = 0;

	for (e = 0; e < l->ndata; e++) {
		struct scatterlist *sg = walkfix_entry(l, e);
		const unsigned char *p = (const unsigned char *)walkfix_data(l, e) + sg->offset;

		for (i = 0; i < sg->length; i++, pos++)
			right += p[i] == stream(pos);
		want += sg->length;
	}
	walkfix_check(right == want, "%s: the destination's %zu bytes hold the engine's output in order (%zu right)",
		      who, want, right);
	for (i = right = 0; i < WALKFIX_POISON * PAGE_SIZE; i++)
		right += ((unsigned char *)mock_page_arena_memory(l->poison))[i] == 0xa5;
	walkfix_check(right == WALKFIX_POISON * PAGE_SIZE,
		      "%s: nothing written behind the link (%zu poison bytes changed)",
		      who, WALKFIX_POISON * PAGE_SIZE - right);
}

/*
 * The entries of @l: whole pages, or, with @misaligned, 1000 bytes at
 * offset 2 (a valid cbc(aes) length, a misaligned start); lengths vary
 * otherwise. The poison entries behind the link start at offset 2 and are
 * 1001 bytes, so a walk that reads them also sees a misaligned entry.
 */
static void shape(struct walkfix_list *l, bool misaligned)
{
	static const unsigned int lens[] = { PAGE_SIZE, 1024, PAGE_SIZE, 2048 };
	size_t e;

	for (e = 0; e < l->ndata; e++) {
		walkfix_entry(l, e)->offset = misaligned ? 2 : 0;
		walkfix_entry(l, e)->length = misaligned ? 1000 : lens[e % 4];
	}
	for (e = 0; e < WALKFIX_POISON; e++) {
		l->first[l->head + 1 + e].offset = 2;
		l->first[l->head + 1 + e].length = 1001;
	}
}

static unsigned int total(struct walkfix_list *l)
{
	unsigned int n = 0;
	size_t e;

	for (e = 0; e < l->ndata; e++)
		n += walkfix_entry(l, e)->length;
	return n;
}

/*
 * @misaligned: the destination must go through bounce pages; @chunk0, if
 * not 0, the bytes the first bounce page must take.
 */
static void run(const char *who, struct walkfix_list *src, struct walkfix_list *dst,
		bool misaligned, unsigned int chunk0)
{
	static struct hifn_device dev;
	static struct hifn_context ctx;
	static struct hifn_request_context rctx;
	struct skcipher_request req = { .src = src->first, .dst = dst->first,
					.cryptlen = total(dst) };
	int err;

	memset(&rctx, 0, sizeof(rctx));
	memset(&dev, 0, sizeof(dev));
	ctx.dev = &dev;
	req.base.tfm = &ctx;
	req.ctx = &rctx;
	nsrc = ndst = nbounce = 0;
	memset(mock_page_arena_memory(dst->data), 0, dst->ndata * PAGE_SIZE);
	memset(mock_page_arena_memory(dst->poison), 0xa5, WALKFIX_POISON * PAGE_SIZE);
	list = dst;
	src_list = src;
	if (setjmp(left))
		return;
	err = hifn_setup_session(&req);
	walkfix_check(!err, "%s: hifn_setup_session() returns 0 (got %d)", who, err);
	if (err)
		return;
	walkfix_check(!!(rctx.walk.flags & ASYNC_FLAGS_MISALIGNED) == misaligned &&
		      (!chunk0 || rctx.walk.cache[0].length == chunk0),
		      "%s: %s (flags %#x, first bounce chunk %u bytes)", who,
		      misaligned ? "misaligned, through bounce pages" : "aligned, no bounce",
		      rctx.walk.flags, rctx.walk.cache[0].length);
	if (!misaligned) {
		/* Aligned, the walk plans one chunk per entry and changes nothing. */
		int chunks = hifn_cipher_walk(&req, &rctx.walk);

		walkfix_check(chunks == (int)dst->ndata, "%s: one chunk per destination entry (%zu; got %d)",
			      who, dst->ndata, chunks);
	}
	check_src(who, src);
	engine();
	hifn_process_ready(&req, 0);
	walkfix_check(req.completed == 1, "%s: the request completes once", who);
	check_dst(who, dst);
}

int main(void)
{
	struct walkfix_list src, dst;

	/*
	 * authenc over cbc-aes-hifn0, out of place: scatterwalk_ffwd()'s lists,
	 * one entry and a link to the rest, as source and destination. (AF_ALG's
	 * receive list puts its link after 16 entries, where hifn_setup_dma()
	 * also reads its bounce cache past its 16 entries, a bug of its own.)
	 */
	walkfix_list_init(&src, 1, 4);
	walkfix_list_init(&dst, 1, 4);
	shape(&src, false);
	shape(&dst, false);
	run("authenc, 4 aligned entries", &src, &dst, false, 0);

	/* The destination 1000 bytes an entry at offset 2: through a bounce page. */
	shape(&dst, true);
	shape(&src, true);
	run("authenc, 4 misaligned entries", &src, &dst, true, 4000);
	/* Only the entries behind the link misaligned: the count must reach them. */
	shape(&dst, true);
	dst.first[0].offset = 0;
	dst.first[0].length = 1024;
	shape(&src, true);
	src.first[0].offset = 0;
	src.first[0].length = 1024;
	run("authenc, misaligned behind the link", &src, &dst, true, 0);
	walkfix_list_free(&src);
	walkfix_list_free(&dst);
	return walkfix_result();
}
