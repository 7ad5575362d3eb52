/* usim configuration: the CONFIG_ options the core sees in userspace (mock). */
#ifndef _USIM_LINUX_KCONFIG_H
#define _USIM_LINUX_KCONFIG_H

/*
 * x86-64 keeps dma_length: a merging mapper needs it, and it sizes the
 * struct. The nodmalen build leaves it out, as UML and riscv do.
 */
#ifndef USIM_NO_SG_DMA_LENGTH
#define CONFIG_NEED_SG_DMA_LENGTH 1
#endif
#define CONFIG_DEBUG_SG 1
#define CONFIG_SG_POOL 1
/*
 * KUnit's visibility: usim's tests call what the kernel makes visible to
 * KUnit alone. The benchmark builds sgchain's side as a kernel without
 * KUnit is built (USIM_NO_KUNIT), the form production kernels run.
 */
#ifndef USIM_NO_KUNIT
#define CONFIG_KUNIT 1
#endif
/* CONFIG_ARCH_NO_SG_CHAIN is set on the command line by the no-chain build. */

/*
 * IS_ENABLED(CONFIG_X) (equivalent, without modules): 1 if CONFIG_X is
 * defined as 1, else 0, usable in C expressions. A defined option pastes
 * into a placeholder that expands to "0,", shifting 1 into second place.
 */
#define __usim_placeholder_1			0,
#define __usim_second(ignored, val, ...)	val
#define __usim_pick(arg_or_junk)		__usim_second(arg_or_junk 1, 0, 0)
#define __usim_paste(val)			__usim_pick(__usim_placeholder_##val)
#define IS_ENABLED(option)			__usim_paste(option)

#endif
