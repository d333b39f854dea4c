/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * tool.h: internals shared by the rdmachan tool's source files.
 */
#ifndef RDMACHAN_TOOL_H
#define RDMACHAN_TOOL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/socket.h>

#include <linux/rdmachan.h>

#include "cmd.h"
#include "json.h"
#include "out.h"

#define TOOL_VERSION		RDMACHAN_VERSION
#define TOOL_DEFAULT_PORT	7470

/* Exit codes, as iproute2: 0 success, 1 the operation failed, 2 usage. */
#define EXIT_OK		0
#define EXIT_FAIL	1
#define EXIT_USAGE	2

/*
 * @stats: -s, as ip -s: text output shows counters only with it
 * @details: -d, as ip -d: text output shows what sysfs adds (identities,
 *	source addresses, reconnect policies) only with it
 * JSON shows both always: a script's keys do not depend on how a person
 * wants the text (Documentation/tool.rst, "Options").
 */
struct tool_opts {
	bool json;
	bool pretty;
	bool stats;
	bool details;
	const char *ctl_path;
};

extern struct tool_opts tool;

/* tool_stats, tool_details: counters, details wanted in this output */
static inline bool tool_stats(void)
{
	return out_json() || tool.stats;
}

static inline bool tool_details(void)
{
	return out_json() || tool.details;
}

/*
 * sysfs_word: the first line of sysfs file ROOT/(@fmt ...), without its
 * newline, into @buf ("" when unreadable); ROOT is /sys or
 * $RDMACHAN_SYSFS (sysfs.c)
 */
void sysfs_word(char *buf, size_t len, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

/*
 * What sysfs has of a mapping or an interface that the list ioctls do
 * not: the values as sysfs prints them ("5000", "off"), "" for one not
 * read.  @src: a mapping's source, an interface's source (connect) or
 * only peer (listen), "" for any; @id: a mapping's export_id; @fast: a
 * mapping's fast_io_fail_ms.  blk show -d, net show -d and config save
 * read them (sysfs.c).
 */
struct sysfs_extra {
	char delay[16];
	char loss[16];
	char fast[16];
	char src[64];
	char id[40];
};

/* sysfs_map_extra: /sys/block/rcblk@index/rdmachan/'s */
void sysfs_map_extra(uint32_t index, struct sysfs_extra *x);
/* sysfs_net_extra: /sys/class/net/@name/rdmachan/'s (no @fast, @id) */
void sysfs_net_extra(const char *name, struct sysfs_extra *x);
/*
 * show_map_channels, show_net_channel: the channels that carry a mapping's
 * queues or an interface, each with its device and queue pair number (its
 * lines in "rdma res"): "channels" in JSON, "queue N chanM dev D qpn Q"
 * lines in text (sysfs.c)
 */
void show_map_channels(uint32_t index);
void show_net_channel(const char *name);

/* Messages on stderr, prefixed "rdmachan: " (cmd.c). */
void tool_err(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/* tool_usage_err: tool_err plus a hint to "rdmachan @cmd --help"; returns EXIT_USAGE. */
int tool_usage_err(const char *cmd, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

/* ---- util.c: parsing and formatting, no I/O (unit-tested) ---------- */
int parse_uint(const char *s, uint64_t min, uint64_t max, uint64_t *out);
int parse_size(const char *s, uint64_t min, uint64_t max, uint64_t *out);
int parse_duration_ms(const char *s, uint64_t *out);
int parse_addr(const char *s, int default_port, struct sockaddr_storage *ss);
int parse_listen_addr(const char *s, int default_port,
		      struct sockaddr_storage *ss);
void format_addr(const void *ss, char *buf, size_t len);
void format_guid(uint64_t guid, char *buf, size_t len);
void format_gid(const uint8_t gid[16], char *buf, size_t len);
const char *port_state_name(unsigned int state);
const char *phys_state_name(unsigned int state);
const char *node_type_name(unsigned int type);
const char *link_layer_name(unsigned int ll);
const char *protocol_name(unsigned int proto);
const char *atomic_cap_name(unsigned int cap);
const char *chan_state_name(unsigned int state);
const char *poll_mode_name(unsigned int mode);
int parse_poll_mode(const char *s);
double speed_gbps(unsigned int speed);
unsigned int width_lanes(unsigned int width);
double percentile(const double *sorted, size_t n, double p);

/* ---- ctl.c: /dev/rdmachan ------------------------------------------ */
int ctl_open(void);
int ctl_version(int ctl, struct rdmachan_version *v);
int ctl_dev_list(int ctl, struct rdmachan_dev_entry **entries, unsigned int *count);
int ctl_dev_query(int ctl, const char *name, struct rdmachan_dev_query *q,
		  struct rdmachan_port_attr **ports);

/* rdmachan.c: the whole tool, as main() runs it */
int rdmachan(int argc, char **argv);
/* batch_words: a line of rdmachan -b split into at most @max words */
int batch_words(char *line, char **w, int max);

/* ---- objects: each runs its COMMAND [ARGS] (cmd_run) ----------------- */
extern const struct cmd tool_objects[], dev_cmds[], chan_cmds[], mr_cmds[],
	rdma_cmds[], version_cmds[];
int obj_dev(int argc, char **argv);
int obj_chan(int argc, char **argv);
int obj_mr(int argc, char **argv);
int obj_rdma(int argc, char **argv);
int obj_blk(int argc, char **argv);	/* blk.c, blk.h */
int obj_net(int argc, char **argv);	/* net.c, net.h */
int obj_rping(int argc, char **argv);	/* rping.c */
int obj_dgram(int argc, char **argv);	/* dgram.c, dgram.h */
int obj_monitor(int argc, char **argv);	/* monitor.c, monitor.h */
int obj_version(int argc, char **argv);

#endif /* RDMACHAN_TOOL_H */
