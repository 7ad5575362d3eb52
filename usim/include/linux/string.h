/* memset, memcpy, memcmp (equivalent: the C library's). */
#ifndef _USIM_LINUX_STRING_H
#define _USIM_LINUX_STRING_H

#include <string.h>

#endif
