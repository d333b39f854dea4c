// SPDX-License-Identifier: GPL-2.0-only
/*
 * link_rdmachan.c: iproute2's parser and printer of the link kind
 * "rdmachan" (link_rdmachan.so, which ip loads from its library
 * directory, /usr/lib/<multiarch>/ip on Debian, for "type rdmachan"):
 *
 *   ip link add NAME type rdmachan mode { listen | connect } addr ADDR[:PORT]
 *	[ src ADDR | peer ADDR ] [ msg-size N ] [ depth N ]
 *	[ reconnect-delay MS ] [ loss-timeout { MS | off } ]
 *   ip -d link show NAME
 *
 * The attributes are IFLA_RDMACHAN_* of uapi/linux/rdmachan_net.h;
 * module/net/net_link.c makes the device from them.  ip's own functions
 * (addattr_l(), print_color_*()) are called by their exported symbols,
 * with the declarations below, as iproute2 6.1 to 6.18 have them
 * (ip/ip_common.h, include/json_print.h, include/color.h): iproute2
 * installs no header for its link modules.
 */
#include <arpa/inet.h>
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <linux/netlink.h>
#include <linux/rtnetlink.h>

#include <linux/rdmachan_net.h>

#include "../tool.h"

/* ---- iproute2's, as its headers declare them ------------------------- */
struct link_util {
	struct link_util *next;
	const char *id;
	int maxattr;
	int (*parse_opt)(struct link_util *lu, int argc, char **argv,
			 struct nlmsghdr *n);
	void (*print_opt)(struct link_util *lu, FILE *f, struct rtattr *tb[]);
	void (*print_xstats)(struct link_util *lu, FILE *f, struct rtattr *xs);
	void (*print_help)(struct link_util *lu, int argc, char **argv,
			   FILE *f);
	int (*parse_ifla_xstats)(struct link_util *lu, int argc, char **argv);
	int (*print_ifla_xstats)(struct nlmsghdr *n, void *arg);
};

enum output_type { IP_PRINT_FP = 1, IP_PRINT_JSON = 2, IP_PRINT_ANY = 4 };
enum color_attr { COLOR_IFNAME, COLOR_MAC, COLOR_INET, COLOR_INET6,
		  COLOR_OPERSTATE_UP, COLOR_OPERSTATE_DOWN, COLOR_NONE };

int addattr_l(struct nlmsghdr *n, int maxlen, int type, const void *data,
	      int alen);
int print_color_string(enum output_type t, enum color_attr color,
		       const char *key, const char *fmt, const char *value);
int print_color_uint(enum output_type t, enum color_attr color,
		     const char *key, const char *fmt, unsigned int value);
int print_color_null(enum output_type t, enum color_attr color,
		     const char *key, const char *fmt, const char *value);
/* ---------------------------------------------------------------------- */

/* what ip gives its link modules to add attributes to (iplink.c) */
#define RC_MAXLEN	1024

static void rc_help(FILE *f)
{
	fprintf(f,
		"Usage: ... rdmachan mode { listen | connect } addr ADDR[:PORT]\n"
		"                    [ src ADDR | peer ADDR ] [ msg-size N ] [ depth N ]\n"
		"                    [ reconnect-delay MS ] [ loss-timeout { MS | off } ]\n"
		"\n"
		"listen: wait for the peer on ADDR (peer: accept only that one);\n"
		"connect: connect to the peer at ADDR (src: from that address).\n"
		"PORT: %d by default; [IPv6]:PORT.  As \"rdmachan net add\".\n",
		RDMACHAN_NET_DEFAULT_PORT);
}

static void rc_print_help(struct link_util *lu, int argc, char **argv,
			  FILE *f)
{
	(void)lu;
	(void)argc;
	(void)argv;
	rc_help(f);
}

static int rc_bad(const char *what, const char *arg)
{
	fprintf(stderr, "rdmachan: invalid %s \"%s\"\n", what, arg ? arg : "");
	return -1;
}

static int rc_put_u32(struct nlmsghdr *n, int type, uint32_t v)
{
	return addattr_l(n, RC_MAXLEN, type, &v, sizeof(v));
}

/* @ss's address (4 or 16 bytes) as attribute @type */
static int rc_put_addr(struct nlmsghdr *n, int type,
		       const struct sockaddr_storage *ss)
{
	const struct sockaddr_in6 *sin6 = (const void *)ss;
	const struct sockaddr_in *sin = (const void *)ss;

	if (ss->ss_family == AF_INET)
		return addattr_l(n, RC_MAXLEN, type, &sin->sin_addr, 4);
	return addattr_l(n, RC_MAXLEN, type, &sin6->sin6_addr, 16);
}

/* @s as a number in [@min, @max], or "off" (@off_ok) */
static int rc_u32(const char *s, uint64_t min, uint64_t max, bool off_ok,
		  uint32_t *v)
{
	uint64_t x;

	if (off_ok && !strcmp(s, "off")) {
		*v = RDMACHAN_NET_TMO_OFF;
		return 0;
	}
	if (parse_uint(s, min, max, &x))
		return -1;
	*v = x;
	return 0;
}

static const struct {
	const char *word;
	int type;
	uint64_t min, max;
	bool off_ok;
} rc_nums[] = {
	{ "msg-size", IFLA_RDMACHAN_MSG_SIZE, 1280, 1048576, false },
	{ "depth", IFLA_RDMACHAN_QUEUE_DEPTH, 2, 16384, false },
	{ "reconnect-delay", IFLA_RDMACHAN_RECONNECT_DELAY_MS, 100, 3600000, false },
	{ "loss-timeout", IFLA_RDMACHAN_LOSS_TIMEOUT_MS, 100, 604800000, true },
};

static int rc_parse_opt(struct link_util *lu, int argc, char **argv,
			struct nlmsghdr *n)
{
	struct sockaddr_storage addr, src;
	const char *w;
	uint32_t mode = 0, v;
	bool have_addr = false, have_src = false;
	unsigned int i;

	(void)lu;
	src.ss_family = AF_UNSPEC;
	for (; argc > 0; argc--, argv++) {
		w = *argv;
		if (!strcmp(w, "help")) {
			rc_help(stdout);
			exit(0);
		}
		if (argc < 2)
			return rc_bad("argument: a value is needed after", w);
		argc--;
		argv++;
		if (!strcmp(w, "mode")) {
			if (!strcmp(*argv, "listen"))
				mode = RDMACHAN_NET_LISTEN;
			else if (!strcmp(*argv, "connect"))
				mode = RDMACHAN_NET_CONNECT;
			else
				return rc_bad("mode (listen or connect)", *argv);
			continue;
		}
		if (!strcmp(w, "addr")) {
			if (parse_listen_addr(*argv, 0, &addr))
				return rc_bad("addr", *argv);
			have_addr = true;
			continue;
		}
		if (!strcmp(w, "src") || !strcmp(w, "peer")) {
			if (parse_listen_addr(*argv, 0, &src))
				return rc_bad(w, *argv);
			have_src = true;
			continue;
		}
		for (i = 0; i < sizeof(rc_nums) / sizeof(rc_nums[0]); i++)
			if (!strcmp(w, rc_nums[i].word))
				break;
		if (i == sizeof(rc_nums) / sizeof(rc_nums[0]))
			return rc_bad("argument", w);
		if (rc_u32(*argv, rc_nums[i].min, rc_nums[i].max,
			   rc_nums[i].off_ok, &v))
			return rc_bad(w, *argv);
		if (rc_put_u32(n, rc_nums[i].type, v))
			return -1;
	}
	if (!mode || !have_addr) {
		fprintf(stderr, "rdmachan: mode and addr are needed\n");
		rc_help(stderr);
		return -1;
	}
	if (have_src && src.ss_family != addr.ss_family)
		return rc_bad("src/peer: not of addr's family:", "");
	{
		const struct sockaddr_in6 *a6 = (const void *)&addr;
		uint16_t port = ntohs(a6->sin6_port);	/* sin_port: same place */

		if (rc_put_u32(n, IFLA_RDMACHAN_MODE, mode) ||
		    rc_put_addr(n, IFLA_RDMACHAN_ADDR, &addr) ||
		    (port && addattr_l(n, RC_MAXLEN, IFLA_RDMACHAN_PORT, &port,
				       sizeof(port))) ||
		    (addr.ss_family == AF_INET6 && a6->sin6_scope_id &&
		     rc_put_u32(n, IFLA_RDMACHAN_SCOPE_ID, a6->sin6_scope_id)) ||
		    (have_src && rc_put_addr(n, IFLA_RDMACHAN_SRC, &src)))
			return -1;
	}
	return 0;
}

static uint32_t rc_get_u32(struct rtattr *tb[], int type)
{
	uint32_t v = 0;

	if (tb[type] && RTA_PAYLOAD(tb[type]) >= sizeof(v))
		memcpy(&v, RTA_DATA(tb[type]), sizeof(v));
	return v;
}

/* address attribute @type as text into @buf ("" when absent or bad) */
static void rc_addr(struct rtattr *tb[], int type, char *buf, size_t len)
{
	buf[0] = '\0';
	if (!tb[type])
		return;
	if (RTA_PAYLOAD(tb[type]) == 4)
		inet_ntop(AF_INET, RTA_DATA(tb[type]), buf, len);
	else if (RTA_PAYLOAD(tb[type]) == 16)
		inet_ntop(AF_INET6, RTA_DATA(tb[type]), buf, len);
}

static void rc_print_opt(struct link_util *lu, FILE *f, struct rtattr *tb[])
{
	char addr[INET6_ADDRSTRLEN], src[INET6_ADDRSTRLEN];
	uint32_t mode, loss;
	uint16_t port = 0;

	(void)lu;
	(void)f;
	if (!tb)
		return;
	mode = rc_get_u32(tb, IFLA_RDMACHAN_MODE);
	print_color_string(IP_PRINT_ANY, COLOR_NONE, "mode", "mode %s ",
			   mode == RDMACHAN_NET_LISTEN ? "listen" :
			   mode == RDMACHAN_NET_CONNECT ? "connect" : "?");
	rc_addr(tb, IFLA_RDMACHAN_ADDR, addr, sizeof(addr));
	print_color_string(IP_PRINT_ANY, COLOR_NONE, "addr", "addr %s ", addr);
	if (tb[IFLA_RDMACHAN_PORT] && RTA_PAYLOAD(tb[IFLA_RDMACHAN_PORT]) >= 2)
		memcpy(&port, RTA_DATA(tb[IFLA_RDMACHAN_PORT]), sizeof(port));
	print_color_uint(IP_PRINT_ANY, COLOR_NONE, "port", "port %u ", port);
	rc_addr(tb, IFLA_RDMACHAN_SRC, src, sizeof(src));
	if (*src)
		print_color_string(IP_PRINT_ANY, COLOR_NONE,
				   mode == RDMACHAN_NET_LISTEN ? "peer" : "src",
				   mode == RDMACHAN_NET_LISTEN ? "peer %s " : "src %s ",
				   src);
	print_color_uint(IP_PRINT_ANY, COLOR_NONE, "msg_size", "msg-size %u ",
			 rc_get_u32(tb, IFLA_RDMACHAN_MSG_SIZE));
	print_color_uint(IP_PRINT_ANY, COLOR_NONE, "depth", "depth %u ",
			 rc_get_u32(tb, IFLA_RDMACHAN_QUEUE_DEPTH));
	print_color_uint(IP_PRINT_ANY, COLOR_NONE, "reconnect_delay_ms",
			 "reconnect-delay %u ",
			 rc_get_u32(tb, IFLA_RDMACHAN_RECONNECT_DELAY_MS));
	loss = rc_get_u32(tb, IFLA_RDMACHAN_LOSS_TIMEOUT_MS);
	if (loss == RDMACHAN_NET_TMO_OFF)
		print_color_null(IP_PRINT_ANY, COLOR_NONE, "loss_timeout_ms",
				 "loss-timeout %s ", "off");
	else
		print_color_uint(IP_PRINT_ANY, COLOR_NONE, "loss_timeout_ms",
				 "loss-timeout %u ", loss);
}

/* ip finds it by this name: <kind>_link_util */
struct link_util rdmachan_link_util = {
	.id		= "rdmachan",
	.maxattr	= IFLA_RDMACHAN_MAX,
	.parse_opt	= rc_parse_opt,
	.print_opt	= rc_print_opt,
	.print_help	= rc_print_help,
};
