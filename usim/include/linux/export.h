/* Symbol exports (stub: userspace has no modules to export to). */
#ifndef _USIM_LINUX_EXPORT_H
#define _USIM_LINUX_EXPORT_H

#define EXPORT_SYMBOL(sym)
#define EXPORT_SYMBOL_GPL(sym)

#endif
