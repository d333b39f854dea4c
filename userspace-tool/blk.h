/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * blk.h: the "blk" object of the rdmachan tool (blk.c): the block
 * channel of rdmachan_blk.ko, its exports (server side) and mappings
 * (client side, /dev/rcblkN).  The parsers are pure functions, covered
 * by test_unit.c.
 */
#ifndef RDMACHAN_TOOL_BLK_H
#define RDMACHAN_TOOL_BLK_H

#include <stdint.h>
#include <sys/socket.h>

#include <linux/rdmachan_blk.h>

#include "tool.h"

/* The server's rdma_cm port when ADDR has none (RCBLK_DEFAULT_PORT) */
#define BLK_DEFAULT_PORT	7471
/* The disks' names: /dev/rcblk<index> */
#define BLK_DISK_PREFIX		"rcblk"

/*
 * parse_cidr: "IPv4[/N]" (N 0..32) or "IPv6[/N]" (N 0..128; no
 * brackets) into @c; without /N, the one address (32 or 128).  Bits set
 * beyond the prefix are refused, as iproute2 does.  0 or -EINVAL
 * (-ERANGE for a prefix length out of bounds).
 */
int parse_cidr(const char *s, struct rdmachan_blk_cidr *c);
/* format_cidr: "192.0.2.0/24", "2001:db8::/32" ("?" for another family) */
void format_cidr(const struct rdmachan_blk_cidr *c, char *buf, size_t len);
/*
 * parse_blk_server: ADDR[:PORT] of a server, [IPv6]:PORT for a port
 * with IPv6; BLK_DEFAULT_PORT without one; port 0 refused.  0 or -EINVAL.
 */
int parse_blk_server(const char *s, struct sockaddr_storage *ss);
/*
 * parse_blk_dev: a mapping's disk as "/dev/rcblkN", "rcblkN" or "N"
 * (decimal, no sign, no leading zero, below 2^32) into @index.  0 or
 * -EINVAL.
 */
int parse_blk_dev(const char *s, uint32_t *index);
/* blk_name_ok: an export name: 1..63 of [A-Za-z0-9._-] */
bool blk_name_ok(const char *s);
/* blk_state_name: "live", "reconnecting", "dead" or "unknown" */
const char *blk_state_name(unsigned int state);

/*
 * ctl_blk_list: every export (@what RDMACHAN_BLK_LIST_EXPORTS) or
 * mapping (RDMACHAN_BLK_LIST_MAPS) in a malloc'ed array the caller
 * frees.  -1 with errno (no message) when the ioctl fails.
 */
int ctl_blk_list(int ctl, unsigned int what, void **entries, unsigned int *count);

/*
 * blk_err: "rdmachan: CMD WHAT: strerror (ENAME)[: hint]" for errno
 * @err, with the module's absence for ENOTTY and the capability for
 * EPERM.  Returns EXIT_FAIL.
 */
int blk_err(const char *cmd, const char *what, int err, const char *hint);

/* the commands: blk_export.c, blk_map.c, blk_show.c */
int cmd_blk_export(int argc, char **argv);
int cmd_blk_unexport(int argc, char **argv);
int cmd_blk_map(int argc, char **argv);
int cmd_blk_unmap(int argc, char **argv);
int cmd_blk_remap(int argc, char **argv);
int cmd_blk_show(int argc, char **argv);

extern const struct cmd blk_cmds[];
int obj_blk(int argc, char **argv);

#endif /* RDMACHAN_TOOL_BLK_H */
