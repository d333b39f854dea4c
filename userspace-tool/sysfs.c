// SPDX-License-Identifier: GPL-2.0-only
/*
 * sysfs.c: one value of sysfs, for what the ioctls do not list (blk show
 * -d, net show -d, config save).  RDMACHAN_SYSFS in the environment
 * stands for /sys (the bash completion and the tests read it too).
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tool.h"

void sysfs_word(char *buf, size_t len, const char *fmt, ...)
{
	const char *root = getenv("RDMACHAN_SYSFS");
	char p[256];
	va_list ap;
	FILE *f;
	int o;

	buf[0] = '\0';
	o = snprintf(p, sizeof(p), "%s/", root ? root : "/sys");
	va_start(ap, fmt);
	vsnprintf(p + o, sizeof(p) - o, fmt, ap);
	va_end(ap);
	f = fopen(p, "r");
	if (!f)
		return;
	if (fgets(buf, len, f))
		buf[strcspn(buf, "\n")] = '\0';
	fclose(f);
}
