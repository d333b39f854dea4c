/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * net.h: the "net" object of the rdmachan tool (net.c): the network
 * channel of rdmachan_net.ko, point-to-point IP interfaces over one
 * rdmachan channel each.
 */
#ifndef RDMACHAN_TOOL_NET_H
#define RDMACHAN_TOOL_NET_H

#include <stdbool.h>

#include <linux/rdmachan_net.h>

#include "tool.h"

/* net_state_name: "up", "reconnecting", "dead", "waiting" or "unknown" */
const char *net_state_name(unsigned int state);
/* net_name_ok: an interface name: 1..15 characters, no '/', ':' or blank */
bool net_name_ok(const char *s);
/*
 * ctl_net_list: every interface in a malloc'ed array the caller frees.
 * -1 with errno (no message) when the ioctl fails.
 */
int ctl_net_list(int ctl, struct rdmachan_net_info **entries, unsigned int *count);

/*
 * net_err: "rdmachan: CMD WHAT: strerror (ENAME)[: hint]", with the
 * module's absence for ENOTTY and the capability for EPERM.  Returns
 * EXIT_FAIL.
 */
int net_err(const char *cmd, const char *what, int err, const char *hint);

/* the commands: net_add.c, net_show.c */
int cmd_net_add(int argc, char **argv);
int cmd_net_del(int argc, char **argv);
int cmd_net_show(int argc, char **argv);

extern const struct cmd net_cmds[];
int obj_net(int argc, char **argv);

#endif /* RDMACHAN_TOOL_NET_H */
