// SPDX-License-Identifier: GPL-2.0-only
/*
 * Not a feature: it must compile, or the compiler or the kernel tree is
 * broken and no other probe's result means anything (module/compat/Kbuild
 * stops the build then).
 */
#include <linux/module.h>

int rdmachan_probe(void);
int rdmachan_probe(void)
{
	return IS_ENABLED(CONFIG_MODULES) ? 0 : 1;
}
