/*
 * The core's out-of-line functions as one translation unit, for cppcheck
 * and clang-tidy (make lint). In every build they come in through the
 * kernel's own lib/scatterlist.c, which these tools are not asked to
 * judge; the core is sgchain's and is.
 */
#include <linux/scatterlist.h>

#define SG_CHAIN_IMPLEMENTATION
#include <linux/scatterlist_chain.h>
