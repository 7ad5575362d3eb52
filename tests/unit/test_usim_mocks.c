/*
 * The mocks themselves: a test is only as good as the mock that would
 * catch the bug. Each misuse here must be reported, each fault schedule
 * must fire exactly where it says.
 */
#include <linux/highmem.h>

#include "mock_page.h"
#include "usim_test.h"

static void test_double_and_foreign_frees_are_reported(void **state)
{
	char on_stack[16];
	void *obj = kmalloc(40, GFP_KERNEL);
	unsigned long page = __get_free_page(GFP_KERNEL);
	unsigned long before = usim_error_count();

	(void)state;
	kfree(obj);
	kfree(obj);
	assert_int_equal(usim_error_count(), before + 1);
	kfree(on_stack);
	assert_int_equal(usim_error_count(), before + 2);
	kfree((void *)page);	/* a page is not a slab object */
	assert_int_equal(usim_error_count(), before + 3);
	free_page(page);
	usim_test_expect_errors(3);
}

static void test_cache_objects_go_back_to_their_cache(void **state)
{
	struct kmem_cache *a = kmem_cache_create("test-a", 64, 0, 0, NULL);
	struct kmem_cache *b = kmem_cache_create("test-b", 64, 0, 0, NULL);
	void *obj = kmem_cache_alloc(a, GFP_KERNEL);
	unsigned long before = usim_error_count();

	(void)state;
	assert_int_equal(usim_kmem_cache_outstanding(a), 1);
	kmem_cache_free(b, obj);
	assert_int_equal(usim_error_count(), before + 1);
	kmem_cache_free(a, obj);
	assert_int_equal(usim_kmem_cache_outstanding(a), 0);
	kmem_cache_destroy(a);
	kmem_cache_destroy(b);
	usim_test_expect_errors(1);
}

static void test_poison_new_and_freed_memory(void **state)
{
	unsigned char *fresh = kmalloc(32, GFP_KERNEL);
	unsigned char *zeroed = kzalloc(32, GFP_KERNEL);
	unsigned long before;

	(void)state;
	assert_int_equal(fresh[0], USIM_POISON_INUSE);
	assert_int_equal(fresh[31], USIM_POISON_INUSE);
	assert_int_equal(zeroed[17], 0);
	kfree(zeroed);

	kfree(fresh);
	assert_int_equal(fresh[5], USIM_POISON_FREE);
	fresh[5] = 1;	/* a write after free, caught when the poison is checked */
	before = usim_error_count();
	usim_slab_flush_quarantine();
	assert_int_equal(usim_error_count(), before + 1);
	usim_test_expect_errors(1);
}

static void test_fault_schedules(void **state)
{
	struct usim_fault *f = &usim_slab_fault;
	unsigned int i, fails = 0;
	bool first[64], again[64];

	(void)state;
	usim_fault_fail_nth(f, 2);
	assert_false(usim_fault_should_fail(f));
	assert_false(usim_fault_should_fail(f));
	assert_true(usim_fault_should_fail(f));
	assert_false(usim_fault_should_fail(f));
	assert_int_equal(f->calls, 4);
	assert_int_equal(f->failures, 1);
	assert_int_equal(f->successes, 3);

	usim_fault_fail_from(f, 1);
	assert_false(usim_fault_should_fail(f));
	for (i = 0; i < 100; i++)
		assert_true(usim_fault_should_fail(f));

	usim_fault_fail_random(f, 0.25, 7);
	for (i = 0; i < 64; i++)
		first[i] = usim_fault_should_fail(f);
	for (i = 0; i < 10000; i++)
		fails += usim_fault_should_fail(f);
	assert_in_range(fails, 2300, 2700);
	usim_fault_fail_random(f, 0.25, 7);
	for (i = 0; i < 64; i++)
		again[i] = usim_fault_should_fail(f);
	assert_memory_equal(first, again, sizeof(first));

	/* The allocator obeys: call 1 fails, calls 0 and 2 do not. */
	usim_fault_fail_nth(f, 1);
	void *a = kmalloc(8, GFP_KERNEL), *b = kmalloc(8, GFP_KERNEL), *c = kmalloc(8, GFP_KERNEL);
	assert_non_null(a);
	assert_null(b);
	assert_non_null(c);
	kfree(a);
	kfree(c);
}

static void test_mempool_reserve_and_waits(void **state)
{
	struct kmem_cache *cache = kmem_cache_create("test-pool", 128, 0, 0, NULL);
	mempool_t *pool = mempool_create_slab_pool(2, cache);
	void *e[3];
	unsigned long before;

	(void)state;
	assert_int_equal(usim_mempool_reserved(pool), 2);
	usim_fault_fail_from(&usim_slab_fault, 0);
	e[0] = mempool_alloc(pool, GFP_ATOMIC);
	e[1] = mempool_alloc(pool, GFP_ATOMIC);
	assert_non_null(e[0]);
	assert_non_null(e[1]);
	assert_null(mempool_alloc(pool, GFP_ATOMIC));
	/* A sleeping caller would wait; the mock counts the wait and serves it. */
	e[2] = mempool_alloc(pool, GFP_KERNEL);
	assert_non_null(e[2]);
	assert_int_equal(usim_mempool_waits(pool), 1);
	assert_int_equal(usim_mempool_outstanding(pool), 3);
	usim_fault_reset(&usim_slab_fault);

	mempool_free(e[0], pool);
	assert_int_equal(usim_mempool_reserved(pool), 1);
	before = usim_error_count();
	mempool_free(e[0], pool);	/* double free into the reserve */
	assert_int_equal(usim_error_count(), before + 1);
	((char *)e[0])[3] = 0;		/* write to a reserved element */
	mempool_free(e[1], pool);
	mempool_free(e[2], pool);
	assert_int_equal(usim_mempool_outstanding(pool), 0);
	mempool_destroy(pool);
	assert_int_equal(usim_error_count(), before + 2);
	kmem_cache_destroy(cache);
	usim_test_expect_errors(2);
}

static void test_mempool_fault_ignores_reserve(void **state)
{
	struct kmem_cache *cache = kmem_cache_create("test-fault", 64, 0, 0, NULL);
	mempool_t *pool = mempool_create_slab_pool(2, cache);

	(void)state;
	assert_ptr_equal(usim_mempool_find("test-fault"), pool);
	usim_alloc_log_reset();
	usim_fault_fail_nth(&usim_mempool_fault, 0);
	assert_null(mempool_alloc(pool, GFP_ATOMIC));
	assert_int_equal(usim_mempool_reserved(pool), 2);
	assert_int_equal(usim_alloc_log_count(), 1);
	assert_true(usim_alloc_log_get(0)->failed);
	assert_int_equal(usim_alloc_log_get(0)->site, USIM_ALLOC_MEMPOOL);
	assert_string_equal(usim_alloc_log_get(0)->name, "test-fault");
	mempool_destroy(pool);
	kmem_cache_destroy(cache);
}

/* An element freed to a pool it did not come from is an error, not a gift. */
static void test_mempool_foreign_element_is_reported(void **state)
{
	struct kmem_cache *a = kmem_cache_create("test-a", 64, 0, 0, NULL);
	struct kmem_cache *b = kmem_cache_create("test-b", 64, 0, 0, NULL);
	mempool_t *pa = mempool_create_slab_pool(1, a), *pb = mempool_create_slab_pool(1, b);
	unsigned long before = usim_error_count();
	void *e, *own;

	(void)state;
	e = mempool_alloc(pa, GFP_KERNEL);
	/* pb has one out: the foreign free is not also one free too many. */
	own = mempool_alloc(pb, GFP_KERNEL);
	assert_true(e && own);
	mempool_free(e, pb);
	assert_int_equal(usim_error_count(), before + 1);
	assert_int_equal(usim_mempool_outstanding(pb), 1);
	mempool_free(own, pb);
	mempool_free(e, pa);
	mempool_destroy(pa);
	mempool_destroy(pb);
	kmem_cache_destroy(a);
	kmem_cache_destroy(b);
	assert_int_equal(usim_error_count(), before + 1);
	usim_test_expect_errors(1);
}

static void test_page_arena_layouts(void **state)
{
	unsigned long pfns[64], dup[1];
	struct mock_page_arena *arena, *clash;
	unsigned int i, j;

	(void)state;
	mock_pfns_random(pfns, 64, 0x1000, 100, 3);
	for (i = 0; i < 64; i++) {
		assert_in_range(pfns[i], 0x1000, 0x1000 + 99);
		for (j = 0; j < i; j++)
			assert_int_not_equal(pfns[i], pfns[j]);
	}
	arena = mock_page_arena_create(64, pfns);
	assert_non_null(arena);
	for (i = 0; i < 64; i++) {
		struct page *page = mock_page_arena_page(arena, i);
		char *mem = (char *)mock_page_arena_memory(arena) + i * PAGE_SIZE;

		assert_ptr_equal(pfn_to_page(pfns[i]), page);
		assert_ptr_equal(virt_to_page(mem + 4095), page);
		assert_ptr_equal(page_address(page), mem);
		assert_int_equal(page_to_phys(page), (u64)pfns[i] << PAGE_SHIFT);
	}
	dup[0] = pfns[10];
	clash = mock_page_arena_create(1, dup);
	assert_null(clash);
	mock_page_arena_destroy(arena);
}

/*
 * alloc_pages(): a block is 1 << order pages with consecutive pfns over
 * virtually contiguous memory, aligned to its size; two blocks are never
 * adjacent; faults and leaks are those of every usim allocation; a free
 * with another order or page is a BUG.
 */
static void test_alloc_pages_blocks(void **state)
{
	struct page *a = alloc_pages(GFP_KERNEL, 2), *b = alloc_page(GFP_KERNEL);
	struct page *c = alloc_page(GFP_KERNEL);
	unsigned long i;

	(void)state;
	assert_non_null(a);
	assert_int_equal(page_to_pfn(a) % 4, 0);
	for (i = 1; i < 4; i++) {
		assert_int_equal(page_to_pfn(nth_page(a, i)), page_to_pfn(a) + i);
		assert_ptr_equal(page_address(nth_page(a, i)),
				 (char *)page_address(a) + i * PAGE_SIZE);
		assert_ptr_equal(virt_to_page((char *)page_address(a) + i * PAGE_SIZE + 5),
				 nth_page(a, i));
	}
	assert_true(page_to_pfn(c) != page_to_pfn(b) + 1);
	assert_int_equal(usim_slab_outstanding(), 3);
	assert_true(USIM_CATCH_BUG(__free_pages(a, 1)));
	assert_true(USIM_CATCH_BUG(__free_pages(nth_page(a, 1), 2)));
	__free_pages(a, 2);
	__free_page(b);
	__free_page(c);

	usim_fault_fail_nth(&usim_slab_fault, 0);
	assert_null(alloc_pages(GFP_KERNEL, 3));
	usim_fault_reset(&usim_slab_fault);
}

/* Number pages: page-aligned struct page pointers, as tools/testing/scatterlist makes them. */
static void test_number_pages(void **state)
{
	struct page *n = (struct page *)(8 * PAGE_SIZE);
	struct page *real = alloc_page(GFP_KERNEL);

	(void)state;
	assert_false(usim_number_page(real));
	assert_true(usim_number_page(n));
	assert_int_equal(page_to_pfn(n), 8);
	assert_int_equal(page_to_pfn(nth_page(n, 3)), 11);
	assert_true(USIM_CATCH_BUG(page_address(n)));
	__free_page(real);
}

/* Maps are counted: kmap_atomic() disables page faults until its unmap. */
static void test_kmap_counting(void **state)
{
	struct page *page = alloc_page(GFP_KERNEL);
	void *a, *l;

	(void)state;
	a = kmap_atomic(page);
	assert_ptr_equal(a, page_address(page));
	assert_true(pagefault_disabled());
	l = kmap_local_page(page);
	assert_int_equal(usim_kmap_outstanding(), 2);
	kunmap_local(l);
	kunmap_atomic(a);
	assert_false(pagefault_disabled());
	assert_int_equal(usim_kmap_outstanding(), 0);
	assert_true(USIM_CATCH_BUG(kunmap(page)));
	__free_page(page);
}

/*
 * Highmem pages: no address; each map is a window of its own, the page's
 * bytes in it, written back at the unmap and not before.
 */
static void test_highmem_windows(void **state)
{
	struct page *high = alloc_page(GFP_KERNEL | __GFP_HIGHMEM);
	struct page *low = alloc_page(GFP_KERNEL);
	unsigned char *mem, *w, *a;

	(void)state;
	assert_non_null(high);
	assert_true(PageHighMem(high));
	assert_false(PageHighMem(low));
	assert_null(page_address(high));
	mem = usim_page_memory(high);
	memset(mem, 0x11, PAGE_SIZE);
	w = kmap_local_page(high);
	assert_true(w != mem);
	assert_int_equal(w[PAGE_SIZE - 1], 0x11);
	memset(w, 0x22, 100);
	assert_int_equal(mem[0], 0x11);		/* not until the unmap */
	a = kmap_atomic(low);			/* a lowmem map: its own address */
	assert_ptr_equal(a, page_address(low));
	assert_int_equal(usim_kmap_windows(), 1);
	kunmap_atomic(a);
	kunmap_local(w + 50);			/* any address in the window */
	assert_int_equal(mem[0], 0x22);
	assert_int_equal(mem[100], 0x11);
	assert_int_equal(usim_kmap_windows(), 0);
	/* The same page twice at once: usim cannot keep two windows coherent. */
	w = kmap(high);
	assert_true(USIM_CATCH_BUG(kmap_local_page(high)));
	kunmap(high);
	assert_int_equal(usim_kmap_outstanding(), 0);
	__free_page(high);
	__free_page(low);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		USIM_TEST(test_double_and_foreign_frees_are_reported),
		USIM_TEST(test_cache_objects_go_back_to_their_cache),
		USIM_TEST(test_poison_new_and_freed_memory),
		USIM_TEST(test_fault_schedules),
		USIM_TEST(test_mempool_reserve_and_waits),
		USIM_TEST(test_mempool_fault_ignores_reserve),
		USIM_TEST(test_mempool_foreign_element_is_reported),
		USIM_TEST(test_page_arena_layouts),
		USIM_TEST(test_alloc_pages_blocks),
		USIM_TEST(test_number_pages),
		USIM_TEST(test_kmap_counting),
		USIM_TEST(test_highmem_windows),
	};

	return cmocka_run_group_tests_name("usim_mocks", tests, NULL, NULL);
}
