/*
 * One side of the differential suite. Built twice over usim's mocks: once
 * against Linux 6.1's own scatterlist.h, lib/scatterlist.c and lib/sg_pool.c,
 * once against the same files with sgchain's series applied (the core
 * included). Both programs run the same inputs: every public function of
 * the core, every calling pattern of an in-tree 6.1 caller, sizes around
 * every table boundary, and an allocation failure at every index. Each
 * input runs in a child process, so a BUG, an oops, a loop or a runaway
 * allocation in one implementation is an outcome, not the end of the run.
 *
 * Output, one line per input:  NAME <tab> CLASS <tab> DETAIL
 *   CLASS   what a declared difference names: ret=N (or ok for a void
 *           call), leak, wrote-outside, misuse, overshoot or short (a list
 *           from pages or a split part longer or shorter than asked),
 *           misread (a split part whose copy differs from the input's bytes
 *           there), or for a child that did not finish: BUG, oops, hang,
 *           runaway
 *   DETAIL  everything observable, with pointers named by what they point
 *           into: counts, every entry of the resulting list, every
 *           allocation and free (site, cache or pool, bytes, gfp flags),
 *           what is left allocated, warnings
 * tests/diff/compare.py pairs the two programs' lines and reads the
 * declared differences (kport/declared-differences).
 */
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include <linux/gfp.h>
#include <linux/kernel.h>
/* 6.1's header has stubs with unused parameters; the kernel builds without -Wextra. */
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wunused-parameter"
#include <linux/scatterlist.h>
#pragma GCC diagnostic pop

#include "alloc_log.h"
#include "fault_inject.h"
#include "mock_mempool.h"
#include "mock_page.h"
#include "mock_slab.h"
#include "usim_report.h"
#include "sg_chain_cases.h"
#include "sg_chain_pages_cases.h"

#define SG_BYTES	sizeof(struct scatterlist)
/* A child that allocates this often is not going to stop. */
#define RUNAWAY_ALLOCS	4096
#define EXIT_RUNAWAY	42
#define CASE_SECONDS	2
/* Allocation failures injected per input: one at each index up to this. */
#define MAX_FAULT_INDEX	200

/* ---- what the child records --------------------------------------------- */

static char out[1 << 20];
static size_t out_len;

static void __attribute__((format(printf, 1, 2))) emit(const char *fmt, ...)
{
	va_list ap;
	int n;

	if (out_len >= sizeof(out) - 1)
		return;
	va_start(ap, fmt);
	n = vsnprintf(out + out_len, sizeof(out) - out_len, fmt, ap);
	va_end(ap);
	if (n > 0)
		out_len = out_len + n < sizeof(out) ? out_len + n : sizeof(out) - 1;
}

/* Named memory, newest first: a pointer prints as the name it falls in. */
struct region {
	const char *base;
	size_t bytes;
	char name[16];
};
static struct region regions[8192];
static unsigned int nregions;

static void region_add(const void *base, size_t bytes, const char *fmt, ...)
{
	struct region *r;
	va_list ap;

	if (nregions == ARRAY_SIZE(regions))
		return;
	r = &regions[nregions++];
	r->base = base;
	r->bytes = bytes;
	va_start(ap, fmt);
	vsnprintf(r->name, sizeof(r->name), fmt, ap);
	va_end(ap);
}

/* "A3[5]" for entry 5 of allocation 3, "P7" for page 7, "0", or "?". */
static const char *sym(const void *p)
{
	static char bufs[4][48];
	static unsigned int next;
	char *buf = bufs[next++ % 4];
	unsigned int i;

	if (!p)
		return "0";
	for (i = nregions; i-- > 0;) {
		const struct region *r = &regions[i];
		size_t off = (const char *)p - r->base;

		if ((const char *)p < r->base || off >= r->bytes + (r->bytes == 0))
			continue;
		if (!off && r->bytes <= sizeof(struct page))
			snprintf(buf, 48, "%s", r->name);
		else if (off % SG_BYTES == 0)
			snprintf(buf, 48, "%s[%zu]", r->name, off / SG_BYTES);
		else
			snprintf(buf, 48, "%s+%zu", r->name, off);
		return buf;
	}
	return "?";
}

/* Every allocation and free the mocks see, in order. */
static char events[1 << 19];
static size_t events_len;
static unsigned long allocs_seen;

static void on_alloc_event(const struct usim_alloc_event *ev)
{
	static const char *const site[] = {
		[USIM_ALLOC_KMALLOC] = "kmalloc", [USIM_ALLOC_PAGE] = "page",
		[USIM_ALLOC_CACHE] = "cache", [USIM_ALLOC_MEMPOOL] = "mempool",
	};
	int n;

	if (!ev->is_free) {
		if (++allocs_seen > RUNAWAY_ALLOCS)
			_exit(EXIT_RUNAWAY);
		/* A mempool element is the cache object just named. */
		if (ev->ptr && !(ev->site == USIM_ALLOC_MEMPOOL &&
				 strcmp(sym(ev->ptr), "?")))
			region_add(ev->ptr, ev->bytes, "A%lu", allocs_seen);
	}
	if (events_len >= sizeof(events) - 1)
		return;
	if (ev->is_free)
		n = snprintf(events + events_len, sizeof(events) - events_len,
			     " -%s:%s:%s", site[ev->site], ev->name, sym(ev->ptr));
	else
		n = snprintf(events + events_len, sizeof(events) - events_len,
			     " +%s:%s:%zu:%#x:%s", site[ev->site], ev->name,
			     ev->bytes, ev->gfp, ev->ptr ? sym(ev->ptr) : "FAIL");
	if (n > 0)
		events_len = events_len + n < sizeof(events) ? events_len + n
							    : sizeof(events) - 1;
}

/* ---- caller memory with guards --------------------------------------- */

#define GUARD_ENTRIES	2
#define GUARD_BYTE	0x5a
#define FILL_BYTE	0x3c

/* Entries for the caller (a first chunk, a hand-built table) between guards. */
struct guarded {
	struct scatterlist *sg;
	unsigned int nents;
	struct scatterlist *block;
};
static struct guarded guardeds[64];
static unsigned int nguardeds;

static struct scatterlist *guarded_table(unsigned int nents, const char *name)
{
	struct guarded *g = &guardeds[nguardeds++];
	size_t total = nents + 2 * GUARD_ENTRIES;

	g->block = malloc(total * SG_BYTES);
	if (!g->block)
		abort();
	memset(g->block, GUARD_BYTE, GUARD_ENTRIES * SG_BYTES);
	memset(g->block + GUARD_ENTRIES, FILL_BYTE, nents * SG_BYTES);
	memset(g->block + GUARD_ENTRIES + nents, GUARD_BYTE, GUARD_ENTRIES * SG_BYTES);
	g->sg = g->block + GUARD_ENTRIES;
	g->nents = nents;
	region_add(g->sg, nents * SG_BYTES, "%s", name);
	return g->sg;
}

static bool guards_intact(const struct guarded *g)
{
	const unsigned char *b = (const unsigned char *)g->block;
	size_t i, after = (GUARD_ENTRIES + g->nents) * SG_BYTES;

	for (i = 0; i < GUARD_ENTRIES * SG_BYTES; i++)
		if (b[i] != GUARD_BYTE || b[after + i] != GUARD_BYTE)
			return false;
	return true;
}

/* ---- printing a list ---------------------------------------------------- */

static void emit_entry(const struct scatterlist *sg)
{
	unsigned long link = sg->page_link;

	emit(" %s%s", link & SG_CHAIN ? "L" : "", link & SG_END ? "E" : "");
	if (link & SG_CHAIN)
		emit(">%s", sym((void *)(link & ~3UL)));
	else
		emit("p=%s", sym((void *)(link & ~3UL)));
	if (sg->offset || sg->length)
		emit(",%u+%u", sg->offset, sg->length);
	if (sg->dma_address)
		emit(",dma");
}

/* Consecutive entries that are all zero but for flags print as one run. */
static bool blank(const struct scatterlist *sg)
{
	return !(sg->page_link & ~SG_END) && !sg->offset && !sg->length &&
	       !sg->dma_address;
}

/* Walk by raw page_link from @sgl, not by the implementation's sg_next. */
static void emit_list(struct scatterlist *sgl, unsigned int limit)
{
	struct scatterlist *sg = sgl;
	unsigned int steps = 0, run = 0;

	emit(" list=%s:", sym(sgl));
	while (sg && steps++ < limit) {
		if (blank(sg) && !(sg->page_link & SG_END)) {
			run++;
			sg++;
			continue;
		}
		if (run)
			emit(" z%u", run);
		run = 0;
		if (blank(sg)) {
			emit(" E");
			return;
		}
		emit_entry(sg);
		if (sg->page_link & SG_END)
			return;
		sg = sg->page_link & SG_CHAIN ? (void *)(sg->page_link & ~3UL) : sg + 1;
	}
	if (run)
		emit(" z%u", run);
	emit(sg ? " ..." : " NULL");
}

static void emit_table(const char *what, struct sg_table *t, unsigned int limit)
{
	emit(" %s: sgl=%s nents=%u orig_nents=%u", what, sym(t->sgl), t->nents,
	     t->orig_nents);
	if (t->sgl)
		emit_list(t->sgl, limit);
}

/* ---- running one input --------------------------------------------------- */

enum fault_kind { FAULT_NONE, FAULT_MEMPOOL, FAULT_SLAB, FAULT_FN };
static const char *const fault_name[] = {
	[FAULT_NONE] = "", [FAULT_MEMPOOL] = "mempool", [FAULT_SLAB] = "slab",
	[FAULT_FN] = "alloc_fn",
};

struct run {
	enum fault_kind fault;
	long fault_at;		/* -1: none */
	unsigned long calls;	/* of the faulted kind, counted by the case */
	char cls[32];		/* set by the case: "ret=N" or "ok" */
};
static struct run *cur;

static void set_ret(int ret)
{
	snprintf(cur->cls, sizeof(cur->cls), "ret=%d", ret);
}

/* The harness's own table allocator for __sg_alloc_table: guarded too. */
static unsigned long fn_calls;

static struct scatterlist *fn_alloc(unsigned int nents, gfp_t gfp)
{
	long call = fn_calls++;
	struct scatterlist *block;

	emit(" alloc_fn(%u,%#x)", nents, gfp);
	if (cur->fault == FAULT_FN && call == cur->fault_at)
		return NULL;
	block = kmalloc_array(nents + 2 * GUARD_ENTRIES, SG_BYTES, gfp);
	if (!block)
		return NULL;
	memset(block, GUARD_BYTE, GUARD_ENTRIES * SG_BYTES);
	memset(block + GUARD_ENTRIES + nents, GUARD_BYTE, GUARD_ENTRIES * SG_BYTES);
	region_add(block + GUARD_ENTRIES, nents * SG_BYTES, "F%ld", call);
	return block + GUARD_ENTRIES;
}

static bool fn_guards_ok = true;

static void fn_free(struct scatterlist *sgl, unsigned int nents)
{
	const unsigned char *b = (const unsigned char *)(sgl - GUARD_ENTRIES);
	size_t i, after = (GUARD_ENTRIES + nents) * SG_BYTES;

	emit(" free_fn(%s,%u)", sym(sgl), nents);
	for (i = 0; i < GUARD_ENTRIES * SG_BYTES; i++)
		if (b[i] != GUARD_BYTE || b[after + i] != GUARD_BYTE)
			fn_guards_ok = false;
	kfree(sgl - GUARD_ENTRIES);
}

typedef void (case_fn)(const void *arg);

/* In the child: arm the fault, run, check what is left, print. */
static void child_run(case_fn *fn, const void *arg, struct run *run)
{
	unsigned long slab0 = usim_slab_outstanding();
	unsigned long pool0 = usim_mempool_outstanding_all();
	unsigned long warn0 = usim_warn_count(), err0 = usim_error_count();
	unsigned long slab, pool;
	unsigned int i;
	bool guards = true;

	cur = run;
	alarm(CASE_SECONDS);
	strcpy(run->cls, "ok");
	usim_alloc_observe(on_alloc_event);
	if (run->fault == FAULT_MEMPOOL && run->fault_at >= 0)
		usim_fault_fail_nth(&usim_mempool_fault, run->fault_at);
	if (run->fault == FAULT_SLAB && run->fault_at >= 0)
		usim_fault_fail_nth(&usim_slab_fault, run->fault_at);
	/* Counting only: a fault index past the end never fires. */
	if (run->fault_at < 0 && run->fault == FAULT_MEMPOOL)
		usim_fault_fail_nth(&usim_mempool_fault, ~0UL >> 1);
	if (run->fault_at < 0 && run->fault == FAULT_SLAB)
		usim_fault_fail_nth(&usim_slab_fault, ~0UL >> 1);

	fn(arg);

	usim_alloc_observe(NULL);
	if (run->fault == FAULT_MEMPOOL)
		run->calls = usim_mempool_fault.calls;
	else if (run->fault == FAULT_SLAB)
		run->calls = usim_slab_fault.calls;
	else if (run->fault == FAULT_FN)
		run->calls = fn_calls;
	usim_fault_reset(&usim_mempool_fault);
	usim_fault_reset(&usim_slab_fault);

	for (i = 0; i < nguardeds; i++)
		guards &= guards_intact(&guardeds[i]);
	guards &= fn_guards_ok;
	slab = usim_slab_outstanding() - slab0;
	pool = usim_mempool_outstanding_all() - pool0;
	emit(" | left=%lu,%lu warn=%lu err=%lu guards=%s | events:%.*s",
	     slab, pool, usim_warn_count() - warn0, usim_error_count() - err0,
	     guards ? "ok" : "written", (int)events_len, events);
	if (!guards)
		strcpy(run->cls, "wrote-outside");
	else if (slab || pool)
		strcpy(run->cls, "leak");
	else if (usim_error_count() != err0)
		strcpy(run->cls, "misuse");
}

/* Fork, run, classify; returns the number of faultable calls it made. */
static unsigned long run_input(const char *name, case_fn *fn, const void *arg,
			       enum fault_kind fault, long fault_at)
{
	struct run run = { .fault = fault, .fault_at = fault_at };
	int pipefd[2], status;
	char buf[sizeof(out) + 64];
	size_t got = 0;
	ssize_t n;
	pid_t pid;
	const char *cls = NULL;
	unsigned long calls = 0;
	char full[256];

	if (fault_at >= 0)
		snprintf(full, sizeof(full), "%s/%s@%ld", name, fault_name[fault], fault_at);
	else
		snprintf(full, sizeof(full), "%s", name);

	fflush(stdout);
	if (pipe(pipefd))
		abort();
	pid = fork();
	if (pid < 0)
		abort();
	if (pid == 0) {
		close(pipefd[0]);
		child_run(fn, arg, &run);
		dprintf(pipefd[1], "%lu\n%s\t%.*s", run.calls, run.cls,
			(int)out_len, out);
		_exit(0);
	}
	close(pipefd[1]);
	while ((n = read(pipefd[0], buf + got, sizeof(buf) - 1 - got)) > 0)
		got += n;
	close(pipefd[0]);
	buf[got] = '\0';
	waitpid(pid, &status, 0);

	if (WIFSIGNALED(status)) {
		int sig = WTERMSIG(status);

		cls = sig == SIGABRT ? "BUG" : sig == SIGALRM ? "hang" :
		      sig == SIGSEGV || sig == SIGBUS ? "oops" : "killed";
	} else if (WEXITSTATUS(status) == EXIT_RUNAWAY) {
		cls = "runaway";
	} else if (WEXITSTATUS(status) != 0 || !got) {
		cls = "died";
	}
	if (cls) {
		printf("%s\t%s\t-\n", full, cls);
		return 0;
	}
	calls = strtoul(buf, NULL, 10);
	printf("%s\t%s\n", full, strchr(buf, '\n') + 1);
	return calls;
}

/* The input without faults, then with a failure at every index it reached. */
static void run_with_faults(const char *name, case_fn *fn, const void *arg,
			    enum fault_kind fault)
{
	unsigned long calls = run_input(name, fn, arg, fault, -1), k;

	for (k = 0; k < calls && k < MAX_FAULT_INDEX; k++)
		run_input(name, fn, arg, fault, k);
}

/* ---- inputs: entry helpers ----------------------------------------------- */

static struct page fake_pages[4];

/* Four entries with pages and lengths; entry 1 in the given state. */
enum entry_state { PLAIN, END, LINK };
static const char *const state_name[] = { "plain", "end", "link" };

static struct scatterlist *entries_in(enum entry_state state)
{
	struct scatterlist *sg = guarded_table(4, "C");
	struct scatterlist *next = guarded_table(2, "T");
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(fake_pages); i++)
		region_add(&fake_pages[i], sizeof(fake_pages[i]), "P%u", i);
	memset(sg, 0, 4 * SG_BYTES);
	memset(next, 0, 2 * SG_BYTES);
	for (i = 0; i < 4; i++) {
		sg[i].page_link = (unsigned long)&fake_pages[i];
		sg[i].offset = i;
		sg[i].length = 10 * (i + 1);
	}
	sg[3].page_link |= SG_END;
	if (state == END)
		sg[1].page_link |= SG_END;
	if (state == LINK) {
		sg[1].page_link = (unsigned long)next | SG_CHAIN;
		sg[1].offset = sg[1].length = 0;
	}
	return sg;
}

static void emit_entries(const struct scatterlist *sg, unsigned int n)
{
	unsigned int i;

	emit(" entries:");
	for (i = 0; i < n; i++)
		emit_entry(&sg[i]);
}

struct entry_arg {
	enum entry_state state;
	int variant;
};

/* variant: 0 an aligned page, 1 and 2 a pointer with that low bit set. */
static struct page *variant_page(int variant)
{
	return (struct page *)((char *)&fake_pages[2] + variant);
}

static void case_set_page(const void *p)
{
	const struct entry_arg *a = p;
	struct scatterlist *sg = entries_in(a->state);

	sg_set_page(&sg[1], variant_page(a->variant), 100, 7);
	emit_entries(sg, 4);
}

static void case_assign_page(const void *p)
{
	const struct entry_arg *a = p;
	struct scatterlist *sg = entries_in(a->state);

	sg_assign_page(&sg[1], variant_page(a->variant));
	emit_entries(sg, 4);
}

static void case_page(const void *p)
{
	const struct entry_arg *a = p;
	struct scatterlist *sg = entries_in(a->state);

	emit(" sg_page=%s", sym(sg_page(&sg[1])));
}

static void case_mark_end(const void *p)
{
	const struct entry_arg *a = p;
	struct scatterlist *sg = entries_in(a->state);

	if (a->variant)
		sg_unmark_end(&sg[1]);
	else
		sg_mark_end(&sg[1]);
	emit_entries(sg, 4);
}

static void case_chain_entry(const void *p)
{
	const struct entry_arg *a = p;
	struct scatterlist *sg = entries_in(a->state);
	struct scatterlist *other = guarded_table(3, "U");

	if (a->variant)
		sg_chain(sg, a->variant, other);
	else
		__sg_chain(&sg[1], other);
	emit_entries(sg, 4);
}

static void case_init_table(const void *p)
{
	const struct entry_arg *a = p;
	struct scatterlist *sg = entries_in(PLAIN);

	if (a->state == END)
		sg_init_marker(sg, a->variant);
	else
		sg_init_table(sg, a->variant);
	emit_entries(sg, 4);
}

static struct mock_page_arena *arena_of(size_t npages, unsigned long first_pfn,
					unsigned long stride)
{
	unsigned long *pfns = calloc(npages, sizeof(*pfns));
	struct mock_page_arena *arena;
	size_t i;

	if (!pfns)
		abort();
	mock_pfns_strided(pfns, npages, first_pfn, stride);
	arena = mock_page_arena_create(npages, pfns);
	free(pfns);
	for (i = 0; i < npages; i++)
		region_add(mock_page_arena_page(arena, i), sizeof(struct page), "P%zu", i);
	return arena;
}

static void case_set_buf(const void *p)
{
	const struct entry_arg *a = p;
	struct scatterlist *sg = entries_in(PLAIN);
	struct mock_page_arena *arena = arena_of(2, 100, 1);
	const char *buf = (char *)mock_page_arena_memory(arena) + 300;

	/* variant 1: an address below the first page, never in the linear map. */
	if (a->variant)
		buf = (const char *)16;
	if (a->state == END)
		sg_init_one(sg, buf, 50);
	else
		sg_set_buf(&sg[1], buf, 50);
	emit_entries(sg, 4);
	mock_page_arena_destroy(arena);
}

static void entry_inputs(void)
{
	static struct entry_arg args[64];
	unsigned int na = 0;
	char name[96];
	int s, v;

	for (s = PLAIN; s <= LINK; s++) {
		for (v = 0; v <= 2; v++) {
			args[na] = (struct entry_arg){ s, v };
			snprintf(name, sizeof(name), "entry/sg_set_page/%s/page+%d", state_name[s], v);
			run_input(name, case_set_page, &args[na], FAULT_NONE, -1);
			snprintf(name, sizeof(name), "entry/sg_assign_page/%s/page+%d", state_name[s], v);
			run_input(name, case_assign_page, &args[na++], FAULT_NONE, -1);
		}
		args[na] = (struct entry_arg){ s, 0 };
		snprintf(name, sizeof(name), "entry/sg_page/%s", state_name[s]);
		run_input(name, case_page, &args[na], FAULT_NONE, -1);
		snprintf(name, sizeof(name), "entry/sg_mark_end/%s", state_name[s]);
		run_input(name, case_mark_end, &args[na], FAULT_NONE, -1);
		snprintf(name, sizeof(name), "entry/__sg_chain/%s", state_name[s]);
		run_input(name, case_chain_entry, &args[na++], FAULT_NONE, -1);
		args[na] = (struct entry_arg){ s, 1 };
		snprintf(name, sizeof(name), "entry/sg_unmark_end/%s", state_name[s]);
		run_input(name, case_mark_end, &args[na++], FAULT_NONE, -1);
	}
	for (v = 1; v <= 4; v++) {
		args[na] = (struct entry_arg){ PLAIN, v };
		snprintf(name, sizeof(name), "entry/sg_chain/prv_nents=%d", v);
		run_input(name, case_chain_entry, &args[na++], FAULT_NONE, -1);
	}
	for (v = 0; v <= 4; v++) {
		args[na] = (struct entry_arg){ PLAIN, v };
		snprintf(name, sizeof(name), "entry/sg_init_table/n=%d", v);
		run_input(name, case_init_table, &args[na++], FAULT_NONE, -1);
		args[na] = (struct entry_arg){ END, v };
		snprintf(name, sizeof(name), "entry/sg_init_marker/n=%d", v);
		run_input(name, case_init_table, &args[na++], FAULT_NONE, -1);
	}
	for (v = 0; v <= 1; v++) {
		args[na] = (struct entry_arg){ PLAIN, v };
		snprintf(name, sizeof(name), "entry/sg_set_buf/%s", v ? "not_linear" : "linear");
		run_input(name, case_set_buf, &args[na++], FAULT_NONE, -1);
		args[na] = (struct entry_arg){ END, v };
		snprintf(name, sizeof(name), "entry/sg_init_one/%s", v ? "not_linear" : "linear");
		run_input(name, case_set_buf, &args[na++], FAULT_NONE, -1);
	}
}

/* ---- inputs: walks over hand-built chains ------------------------------- */

enum walk_op { WALK_NEXT, WALK_NENTS, WALK_FOR_LEN, WALK_LAST, WALK_FOR_EACH, WALK_TRIMMED };

struct walk_arg {
	const struct sg_chain_hand_case *hc;
	enum walk_op op;
	long n;
};

static struct scatterlist *hand_chain(const struct sg_chain_hand_case *hc)
{
	struct scatterlist *tables[SG_CHAIN_HAND_MAX_TABLES];
	struct scatterlist **flat = calloc(sg_chain_hand_nents(hc) + 1, sizeof(*flat));
	unsigned int t;
	char name[8];

	if (!flat)
		abort();
	for (t = 0; t < hc->ntables; t++) {
		snprintf(name, sizeof(name), "T%u", t);
		tables[t] = guarded_table(hc->sizes[t], name);
	}
	sg_chain_hand_link(hc, tables, flat);
	free(flat);
	return tables[0];
}

static void case_walk(const void *p)
{
	const struct walk_arg *a = p;
	struct scatterlist *sgl = hand_chain(a->hc), *sg;
	unsigned int nents = sg_chain_hand_nents(a->hc), i;
	unsigned long sum = 0;

	switch (a->op) {
	case WALK_NEXT:
		emit(" walk:");
		for (sg = sgl, i = 0; sg && i <= nents + 1; sg = sg_next(sg), i++)
			emit(" %s", sym(sg));
		break;
	case WALK_NENTS:
		set_ret(sg_nents(sgl));
		break;
	case WALK_FOR_LEN:
		set_ret(sg_nents_for_len(sgl, a->n));
		break;
	case WALK_LAST:
		emit(" sg_last=%s", sym(sg_last(sgl, a->n)));
		break;
	case WALK_FOR_EACH:
		for_each_sg(sgl, sg, nents, i)
			sum += sg->length * (i + 1);
		emit(" sum=%lu", sum);
		break;
	case WALK_TRIMMED:
		/* A driver ends the list early, as after a short transfer. */
		for (sg = sgl, i = 1; i < a->n; i++)
			sg = sg_next(sg);
		sg_mark_end(sg);
		emit(" sg_nents=%d sg_last=%s", sg_nents(sgl), sym(sg_last(sgl, a->n)));
		break;
	}
}

/* A NULL list, as a caller with nothing mapped may pass one. */
static void case_walk_null(const void *p)
{
	const struct walk_arg *a = p;

	if (a->op == WALK_NENTS)
		set_ret(sg_nents(NULL));
	else if (a->op == WALK_FOR_LEN)
		set_ret(sg_nents_for_len(NULL, a->n));
	else
		emit(" sg_last=%s", sym(sg_last(NULL, a->n)));
}

static void walk_inputs(void)
{
	static struct walk_arg args[1024];
	unsigned int na = 0, c;
	char name[128];

	for (c = 0; c < ARRAY_SIZE(sg_chain_hand_cases); c++) {
		const struct sg_chain_hand_case *hc = &sg_chain_hand_cases[c];
		long nents = sg_chain_hand_nents(hc);
		/* Lengths are 1, 2, ..., nents: the total is a triangle number. */
		long total = nents * (nents + 1) / 2;
		const long lens[] = { 0, 1, total - 1, total, total + 1 };
		const long lasts[] = { 0, 1, nents - 1, nents, nents + 1 };
		const char *const last_names[] = { "0", "1", "nents-1", "nents", "nents+1" };
		char base[64];
		unsigned int i;

		snprintf(base, sizeof(base), "walk/%s", hc->name);
		for (i = 0; base[i]; i++)
			if (base[i] == ' ')
				base[i] = '_';
		args[na] = (struct walk_arg){ hc, WALK_NEXT, 0 };
		snprintf(name, sizeof(name), "%s/sg_next", base);
		run_input(name, case_walk, &args[na++], FAULT_NONE, -1);
		args[na] = (struct walk_arg){ hc, WALK_NENTS, 0 };
		snprintf(name, sizeof(name), "%s/sg_nents", base);
		run_input(name, case_walk, &args[na++], FAULT_NONE, -1);
		args[na] = (struct walk_arg){ hc, WALK_FOR_EACH, 0 };
		snprintf(name, sizeof(name), "%s/for_each_sg", base);
		run_input(name, case_walk, &args[na++], FAULT_NONE, -1);
		for (i = 0; i < ARRAY_SIZE(lens); i++) {
			args[na] = (struct walk_arg){ hc, WALK_FOR_LEN, lens[i] };
			snprintf(name, sizeof(name), "%s/sg_nents_for_len=%ld", base, lens[i]);
			run_input(name, case_walk, &args[na++], FAULT_NONE, -1);
		}
		for (i = 0; i < ARRAY_SIZE(lasts); i++) {
			args[na] = (struct walk_arg){ hc, WALK_LAST, lasts[i] };
			snprintf(name, sizeof(name), "%s/sg_last=%s", base, last_names[i]);
			run_input(name, case_walk, &args[na++], FAULT_NONE, -1);
		}
		args[na] = (struct walk_arg){ hc, WALK_TRIMMED, (nents + 1) / 2 };
		snprintf(name, sizeof(name), "%s/trimmed_to=%ld", base, (nents + 1) / 2);
		run_input(name, case_walk, &args[na++], FAULT_NONE, -1);
	}
	args[na] = (struct walk_arg){ NULL, WALK_NENTS, 0 };
	run_input("walk/null_list/sg_nents", case_walk_null, &args[na++], FAULT_NONE, -1);
	args[na] = (struct walk_arg){ NULL, WALK_FOR_LEN, 1 };
	run_input("walk/null_list/sg_nents_for_len=1", case_walk_null, &args[na++],
		  FAULT_NONE, -1);
	args[na] = (struct walk_arg){ NULL, WALK_LAST, 1 };
	run_input("walk/null_list/sg_last=1", case_walk_null, &args[na++], FAULT_NONE, -1);
}

/* ---- inputs: the allocators ---------------------------------------------- */

/* Sizes where the layout changes, for pool tables and for page tables. */
static const int alloc_sizes[] = {
	0, 1, 2, 3, 7, 8, 9, 16, 17, 127, 128, 129, 130, 254, 255, 256, 257,
	381, 382, 383, 2047, 2048, 2049,
};

struct alloc_arg {
	int n;
	int max_ents;
	int chunk;		/* entries of the caller's chunk; -1: none */
	int chunk_arg;		/* nents_first_chunk passed */
	int trim;		/* sg_mark_end at this entry before freeing */
	bool sgl_unset;		/* table->sgl not pointed at the chunk */
};

static void case_sg_alloc_table(const void *p)
{
	const struct alloc_arg *a = p;
	struct sg_table t;
	int ret = sg_alloc_table(&t, a->n, GFP_KERNEL);

	set_ret(ret);
	emit_table("after alloc", &t, 20000);
	if (!ret) {
		if (a->trim) {
			struct scatterlist *sg = t.sgl;
			int i;

			for (i = 1; i < a->trim; i++)
				sg = sg_next(sg);
			sg_mark_end(sg);
		}
		sg_free_table(&t);
		emit(" after free: sgl=%s", sym(t.sgl));
	}
}

static void case___sg_alloc_table(const void *p)
{
	const struct alloc_arg *a = p;
	struct scatterlist *chunk = a->chunk >= 0 ? guarded_table(a->chunk, "C") : NULL;
	struct sg_table t;
	int ret;

	ret = __sg_alloc_table(&t, a->n, a->max_ents, chunk, a->chunk_arg,
			       GFP_KERNEL, fn_alloc);
	set_ret(ret);
	emit_table("after alloc", &t, 20000);
	/* As its kernel-doc says: free on failure too. */
	__sg_free_table(&t, a->max_ents, a->chunk_arg, fn_free, t.orig_nents);
	emit(" after free: sgl=%s", sym(t.sgl));
}

static void case_chained(const void *p)
{
	const struct alloc_arg *a = p;
	struct scatterlist *chunk = a->chunk >= 0 ? guarded_table(a->chunk, "C") : NULL;
	struct sg_table t;
	int ret;

	memset(&t, 0, sizeof(t));
	/* Every in-tree caller points table->sgl at its inline chunk first. */
	if (!a->sgl_unset)
		t.sgl = chunk;
	ret = sg_alloc_table_chained(&t, a->n, chunk, a->chunk_arg);
	set_ret(ret);
	emit_table("after alloc", &t, 20000);
	if (!ret) {
		sg_free_table_chained(&t, a->chunk_arg);
		emit(" after free: sgl=%s", sym(t.sgl));
	}
}

static void note_free(struct scatterlist *sgl, unsigned int nents)
{
	emit(" free_fn(%s,%u)", sym(sgl), nents);
}

/* The free walk alone, over one caller-owned table it must not free. */
static void case___sg_free_table(const void *p)
{
	const struct alloc_arg *a = p;
	struct scatterlist *sgl = guarded_table(a->n, "C");
	struct sg_table t = { .sgl = sgl, .nents = a->n, .orig_nents = a->n };

	sg_init_table(sgl, a->n);
	__sg_free_table(&t, a->max_ents, a->chunk_arg, note_free, a->n);
	emit(" after free: sgl=%s", sym(t.sgl));
}

static void alloc_inputs(void)
{
	static struct alloc_arg args[4096];
	unsigned int na = 0, i, m, c;
	char name[128];

	for (i = 0; i < ARRAY_SIZE(alloc_sizes); i++) {
		args[na] = (struct alloc_arg){ .n = alloc_sizes[i] };
		snprintf(name, sizeof(name), "sg_alloc_table/n=%d", alloc_sizes[i]);
		run_with_faults(name, case_sg_alloc_table, &args[na++], FAULT_SLAB);
	}
	args[na] = (struct alloc_arg){ .n = 16384 };
	run_with_faults("sg_alloc_table/n=16384", case_sg_alloc_table, &args[na++], FAULT_SLAB);
	args[na] = (struct alloc_arg){ .n = 300, .trim = 150 };
	run_input("sg_alloc_table/n=300/trimmed_to=150", case_sg_alloc_table, &args[na++],
		  FAULT_NONE, -1);

	/* __sg_alloc_table: table sizes, and first chunks right and wrong. */
	{
		static const int maxes[] = { 0, 1, 2, 3, 8, 128 };
		static const struct { int chunk, arg; const char *name; } chunks[] = {
			{ -1, 0, "none" }, { 1, 1, "chunk1" }, { 2, 2, "chunk2" },
			{ 3, 3, "chunk3" }, { 32, 32, "chunk32" },
			{ -1, 4, "null_with_4" }, { -1, 1, "null_with_1" },
			{ 4, 0, "chunk4_with_0" },
		};
		static const int ns[] = { 0, 1, 2, 3, 4, 5, 9, 33, 129, 300 };

		for (m = 0; m < ARRAY_SIZE(maxes); m++)
			for (c = 0; c < ARRAY_SIZE(chunks); c++)
				for (i = 0; i < ARRAY_SIZE(ns); i++) {
					args[na] = (struct alloc_arg){
						.n = ns[i], .max_ents = maxes[m],
						.chunk = chunks[c].chunk,
						.chunk_arg = chunks[c].arg,
					};
					snprintf(name, sizeof(name),
						 "__sg_alloc_table/max_ents=%d/%s/n=%d",
						 maxes[m], chunks[c].name, ns[i]);
					run_with_faults(name, case___sg_alloc_table,
							&args[na++], FAULT_FN);
				}
	}

	for (m = 0; m <= 3; m++) {
		args[na] = (struct alloc_arg){ .n = 3, .max_ents = m };
		snprintf(name, sizeof(name), "__sg_free_table/max_ents=%u/num_ents=3", m);
		run_input(name, case___sg_free_table, &args[na++], FAULT_NONE, -1);
	}
	/* A caller's chunk of one entry, which could hold only the link. */
	args[na] = (struct alloc_arg){ .n = 3, .max_ents = 3, .chunk_arg = 1 };
	run_input("__sg_free_table/max_ents=3/nents_first_chunk=1/num_ents=3",
		  case___sg_free_table, &args[na++], FAULT_NONE, -1);

	/*
	 * sg_alloc_table_chained as its callers call it: table->sgl points at
	 * the inline chunk, passed again as first_chunk, with its size:
	 *   inline0    scsi_lib (data and protection), virtio_blk, nvme-rdma,
	 *              nvme-fc, nvmet-loop, rnbd-clt on CONFIG_ARCH_NO_SG_CHAIN
	 *   inline1    scsi_lib protection data, nvme-rdma metadata (chaining)
	 *   inline2    scsi_lib, virtio_blk, nvme-rdma/fc, nvmet-loop, rnbd-clt
	 *   inline128  ksmbd transport_rdma, sunrpc svc_rdma_rw (SG_CHUNK_SIZE)
	 *   null       no chunk (the API's simplest form)
	 * and the wrong forms: a size without a chunk, table->sgl left NULL.
	 */
	{
		static const struct {
			int chunk, arg;
			bool sgl_unset;
			const char *name;
		} patterns[] = {
			{ 0, 0, false, "inline0" }, { 1, 1, false, "inline1" },
			{ 2, 2, false, "inline2" }, { 128, 128, false, "inline128" },
			{ -1, 0, false, "null" }, { -1, 4, false, "null_with_4" },
			{ -1, 200, false, "null_with_200" },
			{ 2, 2, true, "inline2_sgl_unset" },
		};
		static const int extra[] = { -1, 4096 };

		for (c = 0; c < ARRAY_SIZE(patterns); c++) {
			for (i = 0; i < ARRAY_SIZE(alloc_sizes) + ARRAY_SIZE(extra); i++) {
				int n = i < ARRAY_SIZE(alloc_sizes) ? alloc_sizes[i] :
					extra[i - ARRAY_SIZE(alloc_sizes)];

				args[na] = (struct alloc_arg){
					.n = n, .chunk = patterns[c].chunk,
					.chunk_arg = patterns[c].arg,
					.sgl_unset = patterns[c].sgl_unset,
				};
				snprintf(name, sizeof(name), "sg_alloc_table_chained/%s/n=%d",
					 patterns[c].name, n);
				run_with_faults(name, case_chained, &args[na], FAULT_MEMPOOL);
				/* The pools' allocator failing: the reserves take over. */
				snprintf(name, sizeof(name), "sg_alloc_table_chained/%s/n=%d/reserves",
					 patterns[c].name, n);
				run_with_faults(name, case_chained, &args[na++], FAULT_SLAB);
			}
		}
	}
}

/* ---- inputs: lists from pages (append) ---------------------------------- */

struct pages_arg {
	const char *caller;
	unsigned int npages;
	unsigned long stride;	/* pfn step: 1 contiguous, 2 no page adjacent */
	unsigned int max_segment;
	unsigned int offset;
	unsigned int tail;	/* bytes short of the last page's end */
	unsigned int batch;	/* pages per append call (umem: 512) */
};

/* A list from pages must describe its buffer exactly. */
static void judge_bytes(struct sg_table *t, unsigned long buffer)
{
	unsigned long bytes = sg_chain_list_bytes(t->sgl, t->nents);

	if (bytes > buffer)
		strcpy(cur->cls, "overshoot");
	else if (bytes < buffer)
		strcpy(cur->cls, "short");
}

static void case_umem(const void *p)
{
	const struct pages_arg *a = p;
	struct mock_page_arena *arena = arena_of(a->npages, 1000, a->stride);
	struct page **pages = calloc(a->npages, sizeof(*pages));
	struct sg_append_table app;
	unsigned int done = 0, i;
	int ret = 0;

	if (!pages)
		abort();
	for (i = 0; i < a->npages; i++)
		pages[i] = mock_page_arena_page(arena, i);
	memset(&app, 0, sizeof(app));
	/* drivers/infiniband/core/umem.c: batches, left_pages = what remains. */
	while (done < a->npages && !ret) {
		unsigned int n = min(a->batch, a->npages - done);
		unsigned long size = (unsigned long)n << PAGE_SHIFT;

		/* The buffer may end inside the last call's last page. */
		if (done + n == a->npages)
			size -= a->tail;
		ret = sg_alloc_append_table_from_pages(&app, pages + done, n, 0, size,
						       a->max_segment,
						       a->npages - done - n, GFP_KERNEL);
		emit(" append(%u)=%d", n, ret);
		done += n;
	}
	set_ret(ret);
	emit(" total_nents=%u prv=%s", app.total_nents, sym(app.prv));
	emit_table("sgt", &app.sgt, 20000);
	if (!ret)
		judge_bytes(&app.sgt, ((unsigned long)a->npages << PAGE_SHIFT) - a->tail);
	sg_free_append_table(&app);
	free(pages);
	mock_page_arena_destroy(arena);
}

/*
 * Appends that break the whole-pages pattern every in-tree caller keeps:
 * a call whose buffer ends inside a page followed by more calls, a @size
 * that runs out while pages still merge, a @size of 0. Each call gives
 * its pages (indices into @pfns) and bytes; the buffer is their sum.
 */
struct append_call {
	unsigned int first, pages;	/* into the script's pfns */
	unsigned long bytes;
};

struct append_script {
	unsigned long pfns[8];
	unsigned int npfns, ncalls;
	struct append_call call[3];
};

static void case_append_script(const void *p)
{
	const struct append_script *a = p;
	struct mock_page_arena *arena = mock_page_arena_create(a->npfns, a->pfns);
	struct page *pages[8];
	struct sg_append_table app;
	unsigned long buffer = 0;
	unsigned int i, left = 0;
	int ret = 0;

	if (!arena)
		abort();
	for (i = 0; i < a->npfns; i++) {
		pages[i] = mock_page_arena_page(arena, i);
		region_add(pages[i], sizeof(struct page), "P%u", i);
	}
	for (i = 0; i < a->ncalls; i++)
		left += a->call[i].pages;
	memset(&app, 0, sizeof(app));
	for (i = 0; i < a->ncalls && !ret; i++) {
		left -= a->call[i].pages;
		ret = sg_alloc_append_table_from_pages(&app, pages + a->call[i].first,
						       a->call[i].pages, 0, a->call[i].bytes,
						       UINT_MAX, left, GFP_KERNEL);
		emit(" append(%u,%lu)=%d", a->call[i].pages, a->call[i].bytes, ret);
		buffer += a->call[i].bytes;
	}
	set_ret(ret);
	emit_table("sgt", &app.sgt, 100);
	if (!ret)
		judge_bytes(&app.sgt, buffer);
	sg_free_append_table(&app);
	mock_page_arena_destroy(arena);
}

static void case_from_pages(const void *p)
{
	const struct pages_arg *a = p;
	struct mock_page_arena *arena = arena_of(a->npages, 1000, a->stride);
	struct page **pages = calloc(a->npages, sizeof(*pages));
	unsigned long size = ((unsigned long)a->npages << PAGE_SHIFT) - a->offset - a->tail;
	struct sg_table t;
	unsigned int i;
	int ret;

	if (!pages)
		abort();
	for (i = 0; i < a->npages; i++)
		pages[i] = mock_page_arena_page(arena, i);
	memset(&t, 0, sizeof(t));
	/* i915 userptr, drm_prime: the whole of an array of pages. */
	ret = sg_alloc_table_from_pages_segment(&t, pages, a->npages, a->offset,
						size, a->max_segment, GFP_KERNEL);
	set_ret(ret);
	emit_table("sgt", &t, 20000);
	if (!ret) {
		judge_bytes(&t, size);
		sg_free_table(&t);
	}
	free(pages);
	mock_page_arena_destroy(arena);
}

static void pages_inputs(void)
{
	static struct pages_arg args[512];
	static const unsigned int npages[] = { 1, 127, 128, 129, 255, 256, 300, 1100 };
	static const unsigned long strides[] = { 1, 2 };
	static const unsigned int segs[] = { PAGE_SIZE, 65536, UINT_MAX };
	unsigned int na = 0, i, s, g;
	char name[128];

	for (i = 0; i < ARRAY_SIZE(npages); i++)
		for (s = 0; s < ARRAY_SIZE(strides); s++)
			for (g = 0; g < ARRAY_SIZE(segs); g++) {
				args[na] = (struct pages_arg){
					.npages = npages[i], .stride = strides[s],
					.max_segment = segs[g], .batch = 512,
				};
				snprintf(name, sizeof(name),
					 "append/umem/pages=%u/stride=%lu/max_segment=%u",
					 npages[i], strides[s], segs[g]);
				run_with_faults(name, case_umem, &args[na], FAULT_SLAB);
				snprintf(name, sizeof(name),
					 "from_pages/i915/pages=%u/stride=%lu/max_segment=%u",
					 npages[i], strides[s], segs[g]);
				run_with_faults(name, case_from_pages, &args[na++], FAULT_SLAB);
			}
	/* Small batches: the append must chain across many calls. */
	args[na] = (struct pages_arg){ .npages = 700, .stride = 2, .max_segment = UINT_MAX,
				       .batch = 37 };
	run_with_faults("append/umem/pages=700/stride=2/batch=37", case_umem, &args[na++],
			FAULT_SLAB);
	/*
	 * Appends whose buffer ends inside the last page: merging into the
	 * previous entry (stride 1), partly (max_segment), or not at all.
	 */
	args[na] = (struct pages_arg){ .npages = 4, .stride = 1, .max_segment = UINT_MAX,
				       .tail = 3996, .batch = 2 };
	run_input("append/tail=3996/pages=4/stride=1/batch=2", case_umem, &args[na++],
		  FAULT_NONE, -1);
	args[na] = (struct pages_arg){ .npages = 6, .stride = 1, .max_segment = 16384,
				       .tail = 100, .batch = 3 };
	run_with_faults("append/tail=100/pages=6/stride=1/max_segment=16384/batch=3",
			case_umem, &args[na++], FAULT_SLAB);
	args[na] = (struct pages_arg){ .npages = 300, .stride = 2, .max_segment = UINT_MAX,
				       .tail = 100, .batch = 37 };
	run_with_faults("append/tail=100/pages=300/stride=2/batch=37", case_umem, &args[na++],
			FAULT_SLAB);
	{
		static const struct { const char *name; struct append_script script; } scripts[] = {
			/* Ends inside page 2, then page 3 after it. */
			{ "append/script/partial-then-next-page",
			  { { 1, 2, 3, 4 }, 4, 3, { { 0, 2, 8192 }, { 2, 1, 100 }, { 3, 1, 4096 } } } },
			/* @size runs out on the first merged page; two more follow. */
			{ "append/script/size-ends-while-merging",
			  { { 1, 2, 3, 4, 6, 7 }, 6, 2, { { 0, 2, 8192 }, { 2, 4, 4096 } } } },
			{ "append/script/size-0",
			  { { 1, 2, 3, 4 }, 4, 2, { { 0, 2, 8192 }, { 2, 2, 0 } } } },
		};
		unsigned int i;

		for (i = 0; i < ARRAY_SIZE(scripts); i++)
			run_with_faults(scripts[i].name, case_append_script, &scripts[i].script,
					FAULT_SLAB);
	}
	/* A buffer that starts and ends inside a page. */
	args[na] = (struct pages_arg){ .npages = 300, .stride = 2, .max_segment = UINT_MAX,
				       .offset = 512, .tail = 100 };
	run_with_faults("from_pages/offset=512/tail=100/pages=300/stride=2", case_from_pages,
			&args[na++], FAULT_SLAB);
	args[na] = (struct pages_arg){ .npages = 300, .stride = 1, .max_segment = 65536,
				       .offset = 4000, .tail = 4000 };
	run_input("from_pages/offset=4000/tail=4000/pages=300/stride=1", case_from_pages,
		  &args[na++], FAULT_NONE, -1);
}

/* ---- inputs: sg_split() ------------------------------------------------- */

struct split_arg {
	unsigned int nents;
	unsigned int skip_entries;	/* the skip: the first this many entries */
	int parts;
	unsigned int last_short;	/* bytes the last part stops short of the end */
	bool zero_tail;			/* one more part, of size 0 */
	bool mapped;			/* split the DMA segments too (in_mapped_nents) */
};

/*
 * Entry i: its own two pages, offset 64 * (i % 8); the odd ones end at a
 * page end (a page count that a walker could carry into the next entry),
 * the even ones 100 + i bytes long.
 */
static void case_split(const void *p)
{
	const struct split_arg *a = p;
	struct mock_page_arena *arena = arena_of(2 * a->nents, 1000, 1);
	unsigned char *memory = mock_page_arena_memory(arena), *model, *buf;
	struct scatterlist *sg, *out[4] = { NULL, NULL, NULL, NULL };
	size_t skip = 0, total = 0, rest, sizes[4], at;
	int out_mapped[4] = { 0 }, ret, k, parts = a->parts + a->zero_tail;
	struct sg_table t;
	unsigned int i;
	bool overshoot = false, short_part = false, misread = false;

	for (i = 0; i < 2 * a->nents * PAGE_SIZE; i++)
		memory[i] = (unsigned char)(i * 7 + i / PAGE_SIZE);
	if (sg_alloc_table(&t, a->nents, GFP_KERNEL)) {
		set_ret(-ENOMEM);
		mock_page_arena_destroy(arena);
		return;
	}
	for_each_sg(t.sgl, sg, a->nents, i) {
		unsigned int offset = 64 * (i % 8);

		sg_set_page(sg, mock_page_arena_page(arena, 2 * i),
			    i % 2 ? 2 * PAGE_SIZE - offset : 100 + i, offset);
		if (i < a->skip_entries)
			skip += sg->length;
		total += sg->length;
	}
	model = malloc(total);
	buf = malloc(total);
	if (!model || !buf)
		abort();
	at = 0;
	for_each_sg(t.sgl, sg, a->nents, i) {
		memcpy(model + at, memory + 2 * i * PAGE_SIZE + sg->offset, sg->length);
		at += sg->length;
	}
	rest = total - skip - a->last_short;
	for (k = 0; k < a->parts; k++)
		sizes[k] = k + 1 < a->parts ? rest / a->parts : rest - (a->parts - 1) * (rest / a->parts);
	sizes[a->parts] = 0;
	/*
	 * As a merging IOMMU maps it (nents is even): DMA segment j, in the
	 * DMA fields of entry j as dma_map_sg() leaves them, covers entries
	 * 2j and 2j + 1.
	 */
	if (a->mapped) {
		struct scatterlist *seg = t.sgl;

		for_each_sg(t.sgl, sg, a->nents, i) {
			if (i % 2)
				continue;
			sg_dma_address(seg) = 0x100000000ULL + ((dma_addr_t)i << 20);
			sg_dma_len(seg) = sg->length + sg_next(sg)->length;
			seg = sg_next(seg);
		}
	}
	/* out_mapped: the parts' DMA segments, or their entries if unmapped. */
	ret = sg_split(t.sgl, a->mapped ? a->nents / 2 : 0, skip, parts, sizes, out,
		       out_mapped, GFP_KERNEL);
	set_ret(ret);
	emit(" skip=%zu total=%zu", skip, total);
	for (k = 0, at = skip; !ret && k < parts; at += sizes[k], k++) {
		size_t bytes = sg_chain_list_bytes(out[k], sg_nents(out[k])), dma_bytes = 0;

		emit(" part%d(%zu):", k, sizes[k]);
		emit_list(out[k], 100);
		overshoot |= bytes > sizes[k];
		short_part |= bytes < sizes[k];
		if (a->mapped) {
			/* The DMA side of the part: its segments' lengths. */
			emit(" mapped=%d", out_mapped[k]);
			for_each_sg(out[k], sg, (unsigned int)out_mapped[k], i) {
				emit(" %llx+%u", (unsigned long long)sg_dma_address(sg),
				     sg_dma_len(sg));
				dma_bytes += sg_dma_len(sg);
			}
			overshoot |= dma_bytes > sizes[k];
			short_part |= dma_bytes < sizes[k];
		}
		/* What a CPU reading the part gets: the input's bytes there. */
		misread |= sg_copy_to_buffer(out[k], sg_nents(out[k]), buf, sizes[k]) != sizes[k] ||
			   memcmp(buf, model + at, sizes[k]);
		kfree(out[k]);
	}
	if (overshoot)
		strcpy(cur->cls, "overshoot");
	else if (short_part)
		strcpy(cur->cls, "short");
	else if (misread)
		strcpy(cur->cls, "misread");
	free(model);
	free(buf);
	sg_free_table(&t);
	mock_page_arena_destroy(arena);
}

static void split_inputs(void)
{
	static struct split_arg args[48];
	static const struct { unsigned int skip_entries; int parts; unsigned int last_short; } cases[] = {
		{ 0, 1, 0 }, { 0, 2, 0 }, { 0, 3, 0 },	/* how the in-tree callers split */
		{ 0, 1, 1000 },		/* sa2ul: ends in the last entry */
		{ 0, 1, 9000 }, { 0, 2, 9000 }, { 0, 3, 12000 },	/* ends in an earlier one */
		{ 2, 2, 0 }, { 4, 3, 0 },	/* skips ending at a page end */
		{ 3, 2, 0 },			/* a skip ending inside a page */
		{ 2, 2, 1000 },
	};
	/* The in-tree callers split mapped lists: the same with DMA segments. */
	static const struct { int parts; unsigned int last_short; } mapped[] = {
		{ 1, 0 }, { 2, 0 }, { 3, 0 }, { 1, 9000 }, { 2, 9000 },
	};
	static const unsigned int nents[] = { 10, 300 };
	unsigned int na = 0, c, n;
	char name[128];

	for (n = 0; n < ARRAY_SIZE(nents); n++)
		for (c = 0; c < ARRAY_SIZE(cases); c++) {
			args[na] = (struct split_arg){
				.nents = nents[n], .skip_entries = cases[c].skip_entries,
				.parts = cases[c].parts, .last_short = cases[c].last_short,
			};
			snprintf(name, sizeof(name),
				 "sg_split/n=%u/skip_entries=%u/parts=%d/last_short=%u",
				 nents[n], cases[c].skip_entries, cases[c].parts,
				 cases[c].last_short);
			run_with_faults(name, case_split, &args[na++], FAULT_SLAB);
		}
	for (n = 0; n < ARRAY_SIZE(nents); n++)
		for (c = 0; c < ARRAY_SIZE(mapped); c++) {
			args[na] = (struct split_arg){
				.nents = nents[n], .parts = mapped[c].parts,
				.last_short = mapped[c].last_short, .mapped = true,
			};
			snprintf(name, sizeof(name), "sg_split/n=%u/mapped/parts=%d/last_short=%u",
				 nents[n], mapped[c].parts, mapped[c].last_short);
			run_with_faults(name, case_split, &args[na++], FAULT_SLAB);
		}
	/* A part of size 0 after parts that reach the list's end. */
	for (n = 0; n < ARRAY_SIZE(nents); n++) {
		args[na] = (struct split_arg){ .nents = nents[n], .parts = 2, .zero_tail = true };
		snprintf(name, sizeof(name), "sg_split/n=%u/zero_tail", nents[n]);
		run_input(name, case_split, &args[na++], FAULT_NONE, -1);
	}
}

int main(int argc, char **argv)
{
	const char *only = argc > 1 ? argv[1] : "";

	if (!*only || !strcmp(only, "entry"))
		entry_inputs();
	if (!*only || !strcmp(only, "walk"))
		walk_inputs();
	if (!*only || !strcmp(only, "alloc"))
		alloc_inputs();
	if (!*only || !strcmp(only, "pages"))
		pages_inputs();
	if (!*only || !strcmp(only, "split"))
		split_inputs();
	return 0;
}
