/*
 * The kernel's lib/sg_pool.c with the series applied (the core's chained
 * mempools, made by its subsys_initcall before main()), plus what only
 * userspace needs: the pools destroyed at exit, so that valgrind finds
 * nothing left. The Makefile puts the patched tree on the include path.
 */
/* NOLINTNEXTLINE(bugprone-suspicious-include): the file is compiled whole. */
#include <lib/sg_pool.c>

__attribute__((destructor)) static void usim_sg_pool_destroy(void)
{
	sg_pool_destroy_all();
}
