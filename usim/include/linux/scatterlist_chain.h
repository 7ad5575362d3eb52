/*
 * <linux/scatterlist_chain.h> (equivalent): sgchain's core itself, for
 * scatterlist.h files that include it by its kernel name (usim's own and
 * the patched 6.1 header the differential suite builds).
 */
#include "../../../core/scatterlist_chain.h"
