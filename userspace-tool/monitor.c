// SPDX-License-Identifier: GPL-2.0-only
/*
 * monitor.c: "rdmachan monitor": the events of RDMA devices, channels,
 * listeners, block mappings and network interfaces as they happen, as
 * "ip monitor" and "rdma monitor" print theirs.  The kernel tells them as
 * uevents (module/chan/uevent.c): this reads NETLINK_KOBJECT_UEVENT's
 * kernel group, keeps what has RDMACHAN_* variables, and prints one line
 * (or one JSON object, with every variable) an event.
 */
#include <errno.h>
#include <getopt.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include <linux/netlink.h>

#include "chan.h"
#include "cmd.h"
#include "monitor.h"
#include "out.h"
#include "tool.h"

int mon_parse(char *buf, size_t len, struct mon_event *ev)
{
	char *p = buf, *end = buf + len, *at, *slash;

	buf[len] = '\0';
	memset(ev, 0, sizeof(*ev));
	at = strchr(buf, '@');
	if (!at || !strncmp(buf, "libudev", 7) || at + 1 >= end)
		return -1;
	*at = '\0';
	ev->action = buf;
	ev->devpath = at + 1;
	slash = strrchr(ev->devpath, '/');
	ev->name = slash ? slash + 1 : ev->devpath;
	ev->subsystem = "";
	p += strlen(ev->devpath) + (size_t)(ev->devpath - buf) + 1;
	while (p < end) {
		size_t n = strlen(p);

		if (strchr(p, '=')) {
			if (!strncmp(p, "SUBSYSTEM=", 10))
				ev->subsystem = p + 10;
			if (ev->nvars < MON_MAX_VARS)
				ev->vars[ev->nvars++] = p;
		}
		p += n + 1;
	}
	return 0;
}

const char *mon_var(const struct mon_event *ev, const char *key)
{
	size_t n = strlen(key);
	unsigned int i;

	for (i = 0; i < ev->nvars; i++)
		if (!strncmp(ev->vars[i], key, n) && ev->vars[i][n] == '=')
			return ev->vars[i] + n + 1;
	return NULL;
}

static const struct {
	const char *word;
	int obj;
} mon_words[] = {
	{ "dev", MON_DEV }, { "chan", MON_CHAN }, { "listener", MON_LISTENER },
	{ "blk", MON_BLK }, { "net", MON_NET }, { "all", MON_ALL },
};

int mon_obj_word(const char *word)
{
	size_t i;

	for (i = 0; i < sizeof(mon_words) / sizeof(mon_words[0]); i++)
		if (!strcmp(word, mon_words[i].word))
			return mon_words[i].obj;
	return 0;
}

static const char *mon_obj_name(int obj)
{
	size_t i;

	for (i = 0; i < sizeof(mon_words) / sizeof(mon_words[0]); i++)
		if (mon_words[i].obj == obj)
			return mon_words[i].word;
	return "?";
}

int mon_object(const struct mon_event *ev)
{
	const char *o = mon_var(ev, "RDMACHAN_OBJ");
	int obj;

	/* a link's events carry no object: its user's directory says it */
	if (!o && mon_var(ev, "RDMACHAN_EVENT"))
		o = !strcmp(ev->subsystem, "block") ? "blk" :
		    !strcmp(ev->subsystem, "net") ? "net" : NULL;
	if (!o)
		return 0;
	obj = mon_obj_word(o);
	return obj == MON_ALL ? 0 : obj;
}

/* A number of the event, 0 when absent */
static long mon_num(const struct mon_event *ev, const char *key)
{
	const char *v = mon_var(ev, key);

	return v ? strtol(v, NULL, 10) : 0;
}

static const char *mon_str(const struct mon_event *ev, const char *key)
{
	const char *v = mon_var(ev, key);

	return v ? v : "-";
}

/* " (error E)" when RDMACHAN_ERROR is set */
static void mon_print_error(const struct mon_event *ev)
{
	long err = mon_num(ev, "RDMACHAN_ERROR");

	if (err)
		print_fp(" (error %ld)", err);
}

static void mon_text_link(const struct mon_event *ev)
{
	const char *what = mon_str(ev, "RDMACHAN_LINK_EVENT");
	long attempt = mon_num(ev, "RDMACHAN_ATTEMPT");
	long max = mon_num(ev, "RDMACHAN_MAX_ATTEMPTS");
	long ms = mon_num(ev, "RDMACHAN_MS");

	if (!strcmp(what, "lost")) {
		print_fp("link lost");
		mon_print_error(ev);
		if (max)
			print_fp(": reconnecting, at most %ld attempts", max);
		else
			print_fp(": reconnecting, no limit");
		print_fp(", the first in %ld ms", ms);
	} else if (!strcmp(what, "attempt")) {
		print_fp("attempt %ld", attempt);
		if (max)
			print_fp(" of %ld", max);
		print_fp(" failed");
		mon_print_error(ev);
		/* none after the last: the link is stopped or dead */
		if (ms)
			print_fp(", next in %ld ms", ms);
	} else if (!strcmp(what, "back")) {
		print_fp("live after %ld attempt%s, %ld ms down", attempt,
			 attempt == 1 ? "" : "s", ms);
	} else if (!strcmp(what, "dead")) {
		print_fp("dead after %ld attempt%s, %ld ms down", attempt,
			 attempt == 1 ? "" : "s", ms);
		mon_print_error(ev);
	} else if (!strcmp(what, "stopped")) {
		print_fp("reconnecting stopped after %ld attempt%s: dead",
			 attempt, attempt == 1 ? "" : "s");
	} else if (!strcmp(what, "reopened")) {
		print_fp("link reopened");
	} else if (!strcmp(what, "fast_fail")) {
		print_fp("fast-fail time (%ld ms) passed: failing I/O", ms);
	} else {
		print_fp("link %s", what);
	}
}

/* The text after "OBJECT NAME: " */
static void mon_text(const struct mon_event *ev, int obj)
{
	const char *event = mon_var(ev, "RDMACHAN_EVENT");

	if (!strcmp(ev->action, "add") || !strcmp(ev->action, "remove")) {
		print_fp("%s", !strcmp(ev->action, "add") ? "added" : "removed");
		if (obj == MON_CHAN)
			print_fp(": %s, %s qpn %ld, peer %s",
				 mon_str(ev, "RDMACHAN_STATE"),
				 mon_str(ev, "RDMACHAN_DEV"),
				 mon_num(ev, "RDMACHAN_QPN"),
				 mon_str(ev, "RDMACHAN_PEER"));
		else if (obj == MON_LISTENER)
			print_fp(": on %s", mon_str(ev, "RDMACHAN_ADDR"));
		mon_print_error(ev);
	} else if (!event) {
		print_fp("%s", ev->action);
	} else if (!strcmp(event, "link")) {
		mon_text_link(ev);
	} else if (!strcmp(event, "state")) {
		if (mon_var(ev, "RDMACHAN_OLD_STATE"))
			print_fp("%s -> ", mon_str(ev, "RDMACHAN_OLD_STATE"));
		print_fp("%s", mon_str(ev, "RDMACHAN_STATE"));
		mon_print_error(ev);
	} else if (!strncmp(event, "port_", 5) || !strcmp(event, "gid_change")) {
		print_fp("port %ld %s", mon_num(ev, "RDMACHAN_PORT"),
			 !strcmp(event, "port_up") ? "up" :
			 !strcmp(event, "port_down") ? "down" :
			 !strcmp(event, "gid_change") ? "GID table changed" :
			 "changed");
	} else if (!strcmp(event, "fatal")) {
		print_fp("fatal error: its channels fail");
	} else if (!strcmp(event, "carrier")) {
		print_fp("carrier %s", mon_str(ev, "RDMACHAN_CARRIER"));
	} else if (!strcmp(event, "mapped")) {
		print_fp("mapped export %s on %s", mon_str(ev, "RDMACHAN_EXPORT"),
			 mon_str(ev, "RDMACHAN_SERVER"));
	} else if (!strcmp(event, "remap")) {
		print_fp("%s", mon_num(ev, "RDMACHAN_ERROR") ?
			 "remap failed: still dead" : "remapped: live");
		mon_print_error(ev);
	} else {
		print_fp("%s", event);
	}
}

/* The variables whose values JSON gives as numbers */
static int mon_numeric(const char *key)
{
	static const char *const keys[] = {
		"error", "qpn", "port", "attempt", "max_attempts", "ms",
	};
	size_t i;

	for (i = 0; i < sizeof(keys) / sizeof(keys[0]); i++)
		if (!strcmp(key, keys[i]))
			return 1;
	return 0;
}

/* JSON: each RDMACHAN_KEY as "key" */
static void mon_json_vars(const struct mon_event *ev)
{
	unsigned int i;

	for (i = 0; i < ev->nvars; i++) {
		const char *v = ev->vars[i], *eq = strchr(v, '=');
		char key[64];
		size_t n, k;

		if (strncmp(v, "RDMACHAN_", 9) || !strncmp(v, "RDMACHAN_OBJ=", 13))
			continue;
		n = (size_t)(eq - v) - 9;
		if (n >= sizeof(key))
			continue;
		for (k = 0; k < n; k++)
			key[k] = (char)(v[9 + k] >= 'A' && v[9 + k] <= 'Z' ?
					v[9 + k] - 'A' + 'a' : v[9 + k]);
		key[n] = '\0';
		if (mon_numeric(key))
			print_s64(PRINT_JSON, key, NULL, strtoll(eq + 1, NULL, 10));
		else
			print_str(PRINT_JSON, key, NULL, eq + 1);
	}
}

void mon_print(const struct mon_event *ev, int obj)
{
	const char *name = ev->name;

	/* a device's directory is devN: its RDMA name says more */
	if (obj == MON_DEV && mon_var(ev, "RDMACHAN_DEV"))
		name = mon_var(ev, "RDMACHAN_DEV");
	open_record(stdout);
	print_str(PRINT_ANY, "object", "%s", mon_obj_name(obj));
	print_str(PRINT_ANY, "name", " %s: ", name);
	print_str(PRINT_JSON, "action", NULL, ev->action);
	print_str(PRINT_JSON, "sysfs", NULL, ev->devpath);
	print_u64(PRINT_JSON, "seq", NULL,
		  strtoull(mon_var(ev, "SEQNUM") ? mon_var(ev, "SEQNUM") : "0",
			   NULL, 10));
	mon_json_vars(ev);
	if (!out_json())
		mon_text(ev, obj);
	print_nl();
	close_record();
	fflush(stdout);
}

static void monitor_help(void)
{
	printf("Usage: rdmachan monitor [OBJECT...] [-c|--count N]\n"
	       "Print the events of rdmachan's objects as they happen, one a line\n"
	       "(with -j, one JSON object a line, with every variable), until\n"
	       "interrupted.  They are the kernel's uevents (udev sees them too).\n"
	       "OBJECT := { dev | chan | listener | blk | net | all } (default all)\n"
	       "  dev       RDMA devices: added, removed, port up and down, fatal\n"
	       "  chan      channels: added, state changes, removed\n"
	       "  listener  listeners: added, failed, removed\n"
	       "  blk       block mappings: mapped, link lost, attempts, live,\n"
	       "            dead, remapped, unmapped\n"
	       "  net       network interfaces: added, carrier, link, removed\n"
	       "  -c, --count N   stop after N events\n");
}

/* The kernel's uevents, with a receive buffer for bursts */
static int monitor_socket(void)
{
	struct sockaddr_nl sa = { .nl_family = AF_NETLINK, .nl_groups = 1 };
	int fd, size = 4 << 20;

	fd = socket(AF_NETLINK, SOCK_RAW | SOCK_CLOEXEC,
		    NETLINK_KOBJECT_UEVENT);
	if (fd < 0)
		return -errno;
	/* past rmem_max as root; else what rmem_max allows */
	if (setsockopt(fd, SOL_SOCKET, SO_RCVBUFFORCE, &size, sizeof(size)))
		setsockopt(fd, SOL_SOCKET, SO_RCVBUF, &size, sizeof(size));
	if (bind(fd, (struct sockaddr *)&sa, sizeof(sa))) {
		int err = -errno;

		close(fd);
		return err;
	}
	return fd;
}

/* Read and print until @count events (0: no end) or a signal */
static int monitor_loop(int fd, int mask, uint64_t count)
{
	static char buf[16384];
	uint64_t seen = 0;

	while (!count || seen < count) {
		struct sockaddr_nl from;
		struct iovec iov = { buf, sizeof(buf) - 1 };
		struct msghdr msg = {
			.msg_name = &from, .msg_namelen = sizeof(from),
			.msg_iov = &iov, .msg_iovlen = 1,
		};
		struct mon_event ev;
		ssize_t n;
		int obj;

		n = recvmsg(fd, &msg, 0);
		if (n < 0 && errno == EINTR)
			return EXIT_OK;
		if (n < 0 && errno == ENOBUFS) {
			tool_err("monitor: events were lost: the receive buffer overflowed");
			continue;
		}
		if (n < 0)
			return cmd_errno("monitor", "recvmsg", errno, NULL);
		/* the kernel's only: another process may send to the group */
		if (from.nl_pid || mon_parse(buf, (size_t)n, &ev))
			continue;
		obj = mon_object(&ev);
		if (!(obj & mask))
			continue;
		mon_print(&ev, obj);
		seen++;
	}
	return EXIT_OK;
}

int obj_monitor(int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "count", required_argument, NULL, 'c' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 }
	};
	uint64_t count = 0;
	int c, fd, ret, mask = 0;

	CMD_GETOPT_INIT();
	while ((c = CMD_GETOPT(argc, argv, "hc:", longopts)) != -1) {
		if (c == 'h') {
			monitor_help();
			return EXIT_OK;
		}
		if (c == 'c' && !parse_uint(optarg, 1, UINT32_MAX, &count))
			continue;
		if (c == 'c')
			return tool_usage_err("monitor", "invalid count '%s'",
					      optarg);
		return cmd_bad_option("monitor", argv);
	}
	for (c = optind - 1; c < argc; c++) {
		int obj = mon_obj_word(argv[c]);

		if (!obj)
			return tool_usage_err("monitor",
					      "unknown object '%s' (dev, chan, listener, blk, net, all)",
					      argv[c]);
		mask |= obj;
	}
	fd = monitor_socket();
	if (fd < 0)
		return cmd_errno("monitor", "netlink uevent socket", -fd, NULL);
	/* for a script: events from here on are seen */
	fprintf(stderr, "rdmachan monitor: listening\n");
	catch_signals(true);
	ret = monitor_loop(fd, mask ? mask : MON_ALL, count);
	close(fd);
	return ret;
}
