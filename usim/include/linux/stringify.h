/* __stringify (equivalent): a macro argument as a string, after expansion. */
#ifndef _USIM_LINUX_STRINGIFY_H
#define _USIM_LINUX_STRINGIFY_H

#define __stringify_1(x...)	#x
#define __stringify(x...)	__stringify_1(x)

#endif
