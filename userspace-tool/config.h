/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * config.h: the "config" object of the rdmachan tool (config.c): the
 * exports, mappings and network interfaces of this host written to a
 * file and made again from it (Documentation/admin-guide.rst,
 * "Configuration that survives a reboot").  The file is rdmachan
 * commands, one a line, as "rdmachan -b" reads them; the line builders
 * and config_key() are pure functions, covered by test_config.c.
 */
#ifndef RDMACHAN_TOOL_CONFIG_H
#define RDMACHAN_TOOL_CONFIG_H

#include <stddef.h>

#include <linux/rdmachan_blk.h>
#include <linux/rdmachan_net.h>

#include "tool.h"

/* where config save writes and config restore reads without --file */
#define CONFIG_DEFAULT_FILE	"/etc/rdmachan/rdmachan.conf"
/* the longest line config save writes (an export with 16 networks) */
#define CONFIG_LINE_MAX		2048

/*
 * config_quote: @s as one word of a batch line: as it is when it is made
 * of [A-Za-z0-9/._:@+=,-] only, else in '...' (a ' inside as '\'' is
 * not possible in batch_words: then "..." with \" and \\).  -1 when
 * @len is short.
 */
int config_quote(const char *s, char *buf, size_t len);
/* config_export_line: "blk export NAME PATH [--ro] [--stable-id] --allow ..." */
int config_export_line(const struct rdmachan_blk_export_info *e, char *buf,
		       size_t len);
/* config_map_line: "blk map ADDR:PORT NAME [--ro] --queues N --depth D ..." */
int config_map_line(const struct rdmachan_blk_map_info *m,
		    const struct sysfs_extra *x, char *buf, size_t len);
/* config_net_line: "net add NAME listen|connect ADDR:PORT ..." */
int config_net_line(const struct rdmachan_net_info *n,
		    const struct sysfs_extra *x, char *buf, size_t len);
/*
 * config_key: what the command of words @w[0..@n-1] makes, when it is
 * one config restore skips once it exists: "export NAME", "map
 * ADDR:PORT NAME" (the address as format_addr() prints it) or "net
 * NAME".  Objects and commands may be prefixes, as the tool takes them.
 * Return: 0 with @key set, -ENOENT for another command, -EINVAL for a
 * make-command whose operands do not parse.
 */
int config_key(int n, char **w, char *key, size_t len);

extern const struct cmd config_cmds[];
int obj_config(int argc, char **argv);

#endif /* RDMACHAN_TOOL_CONFIG_H */
