// SPDX-License-Identifier: GPL-2.0-only
/*
 * sysfs.c: values of sysfs, for what the ioctls do not list (blk show
 * -d, net show -d, config save).  RDMACHAN_SYSFS in the environment
 * stands for /sys (the bash completion and the tests read it too).
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "blk.h"		/* BLK_DISK_PREFIX */
#include "out.h"
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

#define MAP_SYSFS	"block/" BLK_DISK_PREFIX "%u/rdmachan/"
#define NET_SYSFS	"class/net/%s/rdmachan/"

void sysfs_map_extra(uint32_t index, struct sysfs_extra *x)
{
	memset(x, 0, sizeof(*x));
	sysfs_word(x->id, sizeof(x->id), MAP_SYSFS "export_id", index);
	sysfs_word(x->src, sizeof(x->src), MAP_SYSFS "src", index);
	sysfs_word(x->delay, sizeof(x->delay), MAP_SYSFS "reconnect_delay_ms", index);
	sysfs_word(x->loss, sizeof(x->loss), MAP_SYSFS "loss_timeout_ms", index);
	sysfs_word(x->fast, sizeof(x->fast), MAP_SYSFS "fast_io_fail_ms", index);
}

void sysfs_net_extra(const char *name, struct sysfs_extra *x)
{
	memset(x, 0, sizeof(*x));
	sysfs_word(x->src, sizeof(x->src), NET_SYSFS "src", name);
	sysfs_word(x->delay, sizeof(x->delay), NET_SYSFS "reconnect_delay_ms", name);
	sysfs_word(x->loss, sizeof(x->loss), NET_SYSFS "loss_timeout_ms", name);
}

/* @list: sysfs's names of the channels, queue by queue, "-" for none */
static void show_channels(char *list)
{
	char dev[64], qpn[16], *save = NULL, *w;
	unsigned int queue = 0;

	open_array("channels");
	for (w = strtok_r(list, " ", &save); w; w = strtok_r(NULL, " ", &save)) {
		open_object(NULL);
		print_uint(PRINT_ANY, "queue", "    queue %u", queue++);
		if (strcmp(w, "-")) {
			sysfs_word(dev, sizeof(dev), "class/rdmachan/%s/dev_name", w);
			sysfs_word(qpn, sizeof(qpn), "class/rdmachan/%s/qpn", w);
			print_str(PRINT_ANY, "channel", " %s", w);
			print_str(PRINT_ANY, "dev", " dev %s", dev);
			print_uint(PRINT_ANY, "qpn", " qpn %u",
				   (unsigned int)strtoul(qpn, NULL, 10));
		} else {
			print_null(PRINT_ANY, "channel", " -");
		}
		close_object();
		print_nl();
	}
	close_array();
}

void show_map_channels(uint32_t index)
{
	char list[1024];

	sysfs_word(list, sizeof(list), MAP_SYSFS "channels", index);
	show_channels(list);
}

void show_net_channel(const char *name)
{
	char list[32];

	sysfs_word(list, sizeof(list), NET_SYSFS "channel", name);
	show_channels(list);
}
