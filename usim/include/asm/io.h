/* <asm/io.h> (stub): <linux/scatterlist.h> includes it; usim needs nothing from it. */
#ifndef _USIM_ASM_IO_H
#define _USIM_ASM_IO_H
#endif
