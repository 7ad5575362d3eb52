/* Section markers (stub: userspace has no init sections to discard). */
#ifndef _USIM_LINUX_INIT_H
#define _USIM_LINUX_INIT_H

#define __init
#define __exit

#endif
