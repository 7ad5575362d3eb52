/* fls and get_count_order (equivalent). */
#ifndef _USIM_LINUX_LOG2_H
#define _USIM_LINUX_LOG2_H

/* Position of the highest set bit, 1-based; 0 for 0. */
static inline int fls(unsigned int x)
{
	return x ? 32 - __builtin_clz(x) : 0;
}

/* Order of the smallest power of two not below @count; -1 for 0. */
static inline int get_count_order(unsigned int count)
{
	if (count == 0)
		return -1;
	return fls(--count);
}

#endif
