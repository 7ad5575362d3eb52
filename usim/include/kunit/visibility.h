/* KUnit's visibility macros (as the kernel's): static without CONFIG_KUNIT. */
#ifndef _USIM_KUNIT_VISIBILITY_H
#define _USIM_KUNIT_VISIBILITY_H

#include <linux/kconfig.h>

#if IS_ENABLED(CONFIG_KUNIT)
#define VISIBLE_IF_KUNIT
#else
#define VISIBLE_IF_KUNIT static
#endif
/* Userspace has no modules to export to (as <linux/export.h> here). */
#define EXPORT_SYMBOL_IF_KUNIT(symbol)

#endif
