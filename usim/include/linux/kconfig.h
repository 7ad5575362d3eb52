/* usim configuration: the CONFIG_ options the core sees in userspace (mock). */
#ifndef _USIM_LINUX_KCONFIG_H
#define _USIM_LINUX_KCONFIG_H

/* x86-64 keeps dma_length: a merging mapper needs it, and it sizes the struct. */
#define CONFIG_NEED_SG_DMA_LENGTH 1
#define CONFIG_DEBUG_SG 1
#define CONFIG_SG_POOL 1
/* CONFIG_ARCH_NO_SG_CHAIN is set on the command line by the no-chain build. */

#endif
