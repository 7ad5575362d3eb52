/* printk and pr_* (equivalent: to stderr, the log level kept as a prefix). */
#ifndef _USIM_LINUX_PRINTK_H
#define _USIM_LINUX_PRINTK_H

#include <stdio.h>

#define KERN_ERR	"<3>"
#define KERN_WARNING	"<4>"
#define KERN_INFO	"<6>"

#define printk(fmt, ...)	fprintf(stderr, fmt, ##__VA_ARGS__)
#define pr_err(fmt, ...)	printk(KERN_ERR fmt, ##__VA_ARGS__)
#define pr_warn(fmt, ...)	printk(KERN_WARNING fmt, ##__VA_ARGS__)
#define pr_info(fmt, ...)	printk(KERN_INFO fmt, ##__VA_ARGS__)

#endif
