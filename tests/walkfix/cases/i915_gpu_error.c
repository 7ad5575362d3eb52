// SPDX-License-Identifier: GPL-2.0
/*
 * walkfix: drivers/gpu/drm/i915/i915_gpu_error.c define:ALLOW_FAIL __sg_set_buf __i915_error_grow i915_error_puts err_free_sgl err_print_to_sgl
 * fix: drm/i915: allocate the error state buffer before chaining a new table
 *
 * err_print_to_sgl() prints a GPU error state into buffers that
 * __i915_error_grow() allocates and lists, 127 to a page of entries and a
 * link to the next page, then ends the list with sg_mark_end(m.cur - 1).
 * Expect, when a buffer cannot be had (the 1st, or the 128th, the first
 * after a link) or a page of entries cannot (the 1st or the 2nd), -ENOMEM,
 * the end mark on an entry that was written, and every buffer and table
 * freed; and, when all can be had, a list of every chunk in order.
 *
 * The end mark is checked where it is made: a mark outside the entries
 * written is reported and the function left there (longjmp), since what
 * follows, err_free_sgl() over a table never written, would only crash.
 */
#include "walkfix.h"

#include <setjmp.h>

#include <linux/err.h>
#include <linux/slab.h>

/* What the functions use of i915 and of the kernel. */
#define __GFP_RETRY_MAYFAIL	0x4000u
#define SZ_64K			0x10000
#define GEM_BUG_ON(cond)	BUG_ON(cond)
#define cmpxchg(ptr, old, new)	__sync_val_compare_and_swap(ptr, old, new)
#define READ_ONCE(x)		(*(volatile typeof(x) *)&(x))

struct drm_i915_private;

struct drm_i915_error_state_buf {
	struct drm_i915_private *i915;
	struct scatterlist *sgl, *cur, *end;
	char *buf;
	size_t bytes;
	size_t size;
	loff_t iter;
	int err;
};

struct i915_gpu_coredump {
	struct drm_i915_private *i915;
	struct scatterlist *sgl;
};

/*
 * The allocators, counted: buffers from kmalloc() fail from number
 * fail_at on (both of __i915_error_grow()'s tries), pages of entries from
 * number page_fail_at on; a page comes back unwritten (0xa5), as
 * __get_free_page() gives it.
 */
static int kmallocs, kfrees, pages, pages_freed, fail_at = -1, page_fail_at = -1;
static struct scatterlist *tables[8];
static int ntables;

static void *case_kmalloc(size_t size, gfp_t gfp)
{
	if (fail_at >= 0 && kmallocs >= fail_at)
		return NULL;
	kmallocs++;
	return malloc(size);
}

static void case_kfree(const void *p)
{
	if (!p)
		return;
	kfrees++;
	free((void *)p);
}

static unsigned long case_get_free_page(gfp_t gfp)
{
	struct scatterlist *t;

	if (page_fail_at >= 0 && pages >= page_fail_at)
		return 0;
	BUG_ON(ntables == ARRAY_SIZE(tables));
	t = aligned_alloc(PAGE_SIZE, PAGE_SIZE);

	memset(t, 0xa5, PAGE_SIZE);
	tables[ntables++] = t;
	pages++;
	return (unsigned long)t;
}

static void case_free_page(unsigned long addr)
{
	pages_freed++;
	free((void *)addr);
}

/* Where the end mark went: an entry of a table, before its link? */
static jmp_buf left;

static void case_mark_end(struct scatterlist *sg)
{
	int i;

	for (i = 0; i < ntables; i++)
		if (sg >= tables[i] && sg < tables[i] + SG_MAX_SINGLE_ALLOC - 1)
			break;
	walkfix_check(i < ntables, "sg_mark_end(m.cur - 1) on an entry of a table (%p; tables at %p, %p)",
		      sg, ntables > 0 ? tables[0] : NULL, ntables > 1 ? tables[1] : NULL);
	if (i == ntables)
		longjmp(left, 1);
	sg_mark_end(sg);
}

#define kmalloc(size, gfp)	case_kmalloc(size, gfp)
#define kfree(p)		case_kfree(p)
#define __get_free_page(gfp)	case_get_free_page(gfp)
#define free_page(addr)		case_free_page(addr)
#define sg_mark_end(sg)		case_mark_end(sg)

/* The state printed: @nchunks chunks of CHUNK bytes, each its own letter. */
#define CHUNK	40000
static int nchunks;
static char chunk[CHUNK + 1];

static void i915_error_puts(struct drm_i915_error_state_buf *e, const char *str);

static void __err_print_to_sgl(struct drm_i915_error_state_buf *m,
			       struct i915_gpu_coredump *error)
{
	int k;

	for (k = 0; k < nchunks; k++) {
		memset(chunk, 'a' + k % 26, CHUNK);
		i915_error_puts(m, chunk);
	}
}

#include WALKFIX_EXTRACT

#undef sg_mark_end

static void reset(int chunks, int fail, int page_fail)
{
	kmallocs = kfrees = pages = pages_freed = ntables = 0;
	nchunks = chunks;
	fail_at = fail;
	page_fail_at = page_fail;
}

/*
 * Buffer @fail (or, if @fail is -1, table @page_fail) cannot be had:
 * -ENOMEM, the end where it belongs, nothing leaked.
 */
static void check_failure(int fail, int page_fail)
{
	struct i915_gpu_coredump error = { 0 };
	volatile int ret = 0;
	char what[32];

	snprintf(what, sizeof(what), fail >= 0 ? "buffer %d fails" : "table %d fails",
		 (fail >= 0 ? fail : page_fail) + 1);
	reset(SG_MAX_SINGLE_ALLOC + 3, fail, page_fail);
	if (setjmp(left))
		return;
	ret = err_print_to_sgl(&error);
	walkfix_check(ret == -ENOMEM && !error.sgl, "%s: -ENOMEM, no list (returned %d)", what, ret);
	walkfix_check(kfrees == kmallocs && pages_freed == pages,
		      "%s: the %d buffers and %d tables had are freed (freed %d, %d)",
		      what, kmallocs, pages, kfrees, pages_freed);
}

/* All can be had: one entry per chunk, in order, the last marked. */
static void check_success(int chunks)
{
	struct i915_gpu_coredump error = { 0 };
	struct scatterlist *sg;
	int k = 0, right = 0, ret;

	reset(chunks, -1, -1);
	ret = err_print_to_sgl(&error);
	for (sg = error.sgl; sg; sg = sg_next(sg), k++) {
		const char *p = sg_virt(sg);

		right += sg->length == CHUNK && p[0] == 'a' + k % 26 && p[CHUNK - 1] == p[0];
	}
	walkfix_check(ret == 0 && k == chunks && right == chunks,
		      "%d chunks: a list of %d entries, each its chunk (returned %d; %d entries, %d right)",
		      chunks, chunks, ret, k, right);
	err_free_sgl(error.sgl);
	walkfix_check(kfrees == kmallocs && pages_freed == pages,
		      "%d chunks: err_free_sgl() frees the %d buffers and %d tables (freed %d, %d)",
		      chunks, kmallocs, pages, kfrees, pages_freed);
}

int main(void)
{
	check_success(130);
	check_failure(0, -1);
	check_failure(SG_MAX_SINGLE_ALLOC - 1, -1);
	check_failure(-1, 0);
	check_failure(-1, 1);
	return walkfix_result();
}
