/*
 * The core's out-of-line functions, emitted once for usim, and its chained
 * mempools, created before main() as the kernel's subsys_initcall would.
 */
#include <linux/scatterlist.h>

#define SG_CHAIN_IMPLEMENTATION
#define SG_POOL_IMPLEMENTATION
#include "../core/scatterlist_chain.h"

__attribute__((constructor)) static void usim_sg_pool_create(void)
{
	BUG_ON(sg_pool_init());
}

__attribute__((destructor)) static void usim_sg_pool_destroy(void)
{
	sg_pool_destroy_all();
}
