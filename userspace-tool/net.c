// SPDX-License-Identifier: GPL-2.0-only
/*
 * net.c: the "net" object: the network channel of rdmachan_net.ko, a
 * point-to-point IP interface over one rdmachan channel.
 *
 *   rdmachan net add NAME listen ADDR[:PORT] [--peer ADDR] [OPTIONS]
 *   rdmachan net add NAME connect ADDR[:PORT] [--src ADDR] [OPTIONS]
 *   rdmachan net del NAME
 *   rdmachan [-j] net show [NAME]
 *
 * The ioctls are RDMACHAN_IOC_NET_* of /dev/rdmachan.
 */
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <unistd.h>

#include <linux/rdmachan_net.h>

#include "net.h"
#include "rdma.h"		/* errno_name() */

const char *net_state_name(unsigned int state)
{
	switch (state) {
	case RDMACHAN_NET_UP: return "up";
	case RDMACHAN_NET_RECONNECTING: return "reconnecting";
	case RDMACHAN_NET_DEAD: return "dead";
	case RDMACHAN_NET_WAITING: return "waiting";
	default: return "unknown";
	}
}

bool net_name_ok(const char *s)
{
	size_t n = s ? strlen(s) : 0;

	if (!n || n >= RDMACHAN_NET_NAME_MAX || !strcmp(s, ".") || !strcmp(s, ".."))
		return false;
	for (; *s; s++)
		if (*s == '/' || *s == ':' || *s <= ' ' || *s == 0x7f)
			return false;
	return true;
}

int ctl_net_list(int ctl, struct rdmachan_net_info **entries, unsigned int *count)
{
	unsigned int cap = 8;
	struct rdmachan_net_info *e = NULL;

	for (;;) {
		struct rdmachan_net_list l;
		void *p = realloc(e, cap * sizeof(*e));

		if (!p) {
			free(e);
			errno = ENOMEM;
			return -1;
		}
		e = p;
		memset(e, 0, cap * sizeof(*e));
		memset(&l, 0, sizeof(l));
		l.size = sizeof(l);
		l.count = cap;
		l.entry_size = sizeof(*e);
		l.entries = (uintptr_t)e;
		if (ioctl(ctl, RDMACHAN_IOC_NET_LIST, &l) < 0) {
			int err = errno;

			free(e);
			errno = err;
			return -1;
		}
		if (l.count <= cap) {
			*entries = e;
			*count = l.count;
			return 0;
		}
		cap = l.count + 4;
	}
}

/*
 * net_err: "rdmachan: CMD WHAT: strerror (ENAME)[: hint]"; the module's
 * absence for ENOTTY.  Returns EXIT_FAIL.
 */
static int net_err(const char *cmd, const char *what, int err, const char *hint)
{
	if (err == ENOTTY)
		hint = "rdmachan_net is not loaded and could not be (modprobe rdmachan_net; blacklisted?)";
	else if (err == EPERM && !hint)
		hint = "CAP_NET_ADMIN is needed";
	tool_err("%s%s%s: %s (%s)%s%s", cmd, what ? " " : "", what ? what : "",
		 strerror(err), errno_name(err), hint ? ": " : "", hint ? hint : "");
	return EXIT_FAIL;
}

#define NET_GETOPT_INIT() ((void)(optind = 0, opterr = 0))
#define NET_GETOPT(argc, argv, s, l) getopt_long((argc) + 1, (argv) - 1, s, l, NULL)

/* after NET_GETOPT: the operands; usage error unless there are @n */
static int operands(const char *cmd, int *argc, char ***argv, int n, const char *what)
{
	*argc -= optind - 1;
	*argv += optind - 1;
	if (*argc == n)
		return 0;
	if (*argc < n)
		return tool_usage_err(cmd, "%s needed", what);
	return tool_usage_err(cmd, "unexpected argument '%s'", (*argv)[n]);
}

static int bad_option(const char *cmd, char **argv)
{
	return tool_usage_err(cmd, "unknown or incomplete option '%s'", argv[optind - 2]);
}

/* ---- add, del ------------------------------------------------------ */

static void add_help(void)
{
	printf("Usage: rdmachan net add NAME listen ADDR[:PORT] [--peer ADDR] [OPTIONS]\n"
	       "       rdmachan net add NAME connect ADDR[:PORT] [--src ADDR] [OPTIONS]\n"
	       "Add the point-to-point IP interface NAME over one rdmachan channel:\n"
	       "one end listens on its ADDR, the other connects to it (port %d\n"
	       "unless given; [IPv6]:PORT).  The carrier is on while the channel is\n"
	       "connected; a lost link is reconnected.\n"
	       "      --peer ADDR       listen: accept only this peer (default: the\n"
	       "                        first one that connects, kept)\n"
	       "  -s, --src ADDR        connect: the local address to connect from\n"
	       "  -m, --mtu N           the MTU (68 up to the message size; default\n"
	       "                        the largest)\n"
	       "      --msg-size N      the channel's message size (1280-1048576;\n"
	       "                        default 65524: 64 KiB buffers)\n"
	       "  -d, --depth D         the channel's credits (2-16384; default the\n"
	       "                        rdmachan module's queue_depth)\n"
	       "      --reconnect-delay MS  first attempt MS after a loss, later\n"
	       "                        waits doubling (100-3600000; default the\n"
	       "                        module's reconnect_delay_ms)\n"
	       "      --loss-timeout MS|off give up MS after a loss (default the\n"
	       "                        module's loss_timeout_ms: never)\n",
	       RDMACHAN_NET_DEFAULT_PORT);
}

static const struct cmd add_modes[] = {
	{ "listen", NULL },
	{ "connect", NULL },
	CMD_END
};

static int net_add(int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "peer", required_argument, NULL, 'P' },
		{ "src", required_argument, NULL, 's' },
		{ "mtu", required_argument, NULL, 'm' },
		{ "msg-size", required_argument, NULL, 'M' },
		{ "depth", required_argument, NULL, 'd' },
		{ "reconnect-delay", required_argument, NULL, 'R' },
		{ "loss-timeout", required_argument, NULL, 'L' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 }
	};
	struct rdmachan_net_add a;
	const char *src = NULL, *peer = NULL;
	uint64_t v;
	char addr[64], what[128];
	int c, ctl, mode;

	memset(&a, 0, sizeof(a));
	a.size = sizeof(a);
	NET_GETOPT_INIT();
	while ((c = NET_GETOPT(argc, argv, "hs:m:d:", longopts)) != -1) {
		switch (c) {
		case 'h':
			add_help();
			return EXIT_OK;
		case 'P':
			peer = optarg;
			break;
		case 's':
			src = optarg;
			break;
		case 'm':
			if (parse_uint(optarg, 68, 65535, &v))
				return tool_usage_err("net add", "invalid MTU '%.20s' (68-65535)",
						      optarg);
			a.mtu = v;
			break;
		case 'M':
			if (parse_size(optarg, 1280, 1048576, &v))
				return tool_usage_err("net add",
						      "invalid message size '%.20s' (1280-1048576)",
						      optarg);
			a.max_msg_size = v;
			break;
		case 'd':
			if (parse_uint(optarg, 2, 16384, &v))
				return tool_usage_err("net add", "invalid depth '%.20s' (2-16384)",
						      optarg);
			a.queue_depth = v;
			break;
		case 'R':
			if (parse_uint(optarg, 100, 3600000, &v))
				return tool_usage_err("net add",
						      "invalid --reconnect-delay '%.20s' (100-3600000 ms)",
						      optarg);
			a.reconnect_delay_ms = v;
			break;
		case 'L':
			if (!strcmp(optarg, "off"))
				v = RDMACHAN_NET_TMO_OFF;
			else if (parse_uint(optarg, 1, 0xfffffffeULL, &v))
				return tool_usage_err("net add",
						      "invalid --loss-timeout '%.20s' (ms or off)",
						      optarg);
			a.loss_timeout_ms = v;
			break;
		default:
			return bad_option("net add", argv);
		}
	}
	if (operands("net add", &argc, &argv, 3, "a NAME, listen or connect, and an ADDR are"))
		return EXIT_USAGE;
	if (!net_name_ok(argv[0]))
		return tool_usage_err("net add", "invalid interface name '%.70s'", argv[0]);
	strcpy(a.name, argv[0]);
	mode = cmd_match(add_modes, argv[1]);
	if (mode < 0)
		return tool_usage_err("net add", "'%.20s' is neither listen nor connect", argv[1]);
	a.mode = mode == 0 ? RDMACHAN_NET_LISTEN : RDMACHAN_NET_CONNECT;
	if (a.mode == RDMACHAN_NET_LISTEN ?
	    parse_listen_addr(argv[2], RDMACHAN_NET_DEFAULT_PORT,
			      (struct sockaddr_storage *)&a.addr) :
	    parse_addr(argv[2], RDMACHAN_NET_DEFAULT_PORT,
		       (struct sockaddr_storage *)&a.addr))
		return tool_usage_err("net add", "invalid address '%.70s'", argv[2]);
	if (src && a.mode != RDMACHAN_NET_CONNECT)
		return tool_usage_err("net add", "--src is for connect; listen takes --peer");
	if (peer && a.mode != RDMACHAN_NET_LISTEN)
		return tool_usage_err("net add", "--peer is for listen; connect takes --src");
	if (src || peer) {
		if (parse_listen_addr(src ? src : peer, 0, (struct sockaddr_storage *)&a.src))
			return tool_usage_err("net add", "invalid address '%.70s'",
					      src ? src : peer);
		if (a.src.ss_family != a.addr.ss_family)
			return tool_usage_err("net add", "%s and ADDR are of different families",
					      src ? "--src" : "--peer");
	}
	if (a.mtu && a.mtu > (a.max_msg_size ? a.max_msg_size : RDMACHAN_NET_DEFAULT_MSG))
		return tool_usage_err("net add", "the MTU is larger than the messages");
	ctl = ctl_open();
	if (ctl < 0)
		return EXIT_FAIL;
	if (ioctl(ctl, RDMACHAN_IOC_NET_ADD, &a) < 0) {
		int err = errno;

		close(ctl);
		format_addr(&a.addr, addr, sizeof(addr));
		snprintf(what, sizeof(what), "%s %s %s", a.name,
			 a.mode == RDMACHAN_NET_LISTEN ? "listen" : "connect", addr);
		return net_err("net add", what, err,
			       err == EEXIST ? "an rdmachan interface of that name exists" :
			       err == EADDRINUSE ? "the address and port are taken" :
			       err == EADDRNOTAVAIL || err == ENODEV ?
			       "no RDMA device has that address" : NULL);
	}
	close(ctl);
	return EXIT_OK;
}

static int net_del(int argc, char **argv)
{
	struct rdmachan_net_del d;
	int ctl;

	if (cmd_help_asked(argc, argv)) {
		printf("Usage: rdmachan net del NAME\n"
		       "Delete the interface NAME (in whichever network namespace it is):\n"
		       "its channel is closed in order, then the interface goes.\n");
		return EXIT_OK;
	}
	if (argc != 1)
		return tool_usage_err("net del", argc ? "unexpected argument '%s'" :
				      "a NAME is needed%s", argc ? argv[1] : "");
	if (!net_name_ok(argv[0]))
		return tool_usage_err("net del", "invalid interface name '%.70s'", argv[0]);
	memset(&d, 0, sizeof(d));
	d.size = sizeof(d);
	strcpy(d.name, argv[0]);
	ctl = ctl_open();
	if (ctl < 0)
		return EXIT_FAIL;
	if (ioctl(ctl, RDMACHAN_IOC_NET_DEL, &d) < 0) {
		int err = errno;

		close(ctl);
		return net_err("net del", d.name, err,
			       err == ENODEV ? "no such rdmachan interface" : NULL);
	}
	close(ctl);
	return EXIT_OK;
}

/* ---- show ---------------------------------------------------------- */

/* what sysfs adds: the source or peer given, the reconnect policy */
static void show_details(const char *name)
{
	char src[64], delay[16], loss[16];

	sysfs_word(src, sizeof(src), "class/net/%s/rdmachan/src", name);
	sysfs_word(delay, sizeof(delay), "class/net/%s/rdmachan/reconnect_delay_ms", name);
	sysfs_word(loss, sizeof(loss), "class/net/%s/rdmachan/loss_timeout_ms", name);
	print_str_null(PRINT_ANY, "src", "    src %s", src);
	print_str_null(PRINT_ANY, "reconnect_delay_ms", " reconnect_delay_ms %s", delay);
	print_str_null(PRINT_ANY, "loss_timeout_ms", " loss_timeout_ms %s\n", loss);
}

static void show_one(const struct rdmachan_net_info *i)
{
	const struct rdmachan_net_counters *c = &i->c;
	char name[RDMACHAN_NET_NAME_MAX + 1], addr[64], peer[64];

	snprintf(name, sizeof(name), "%.*s", (int)sizeof(i->name), i->name);
	format_addr(&i->addr, addr, sizeof(addr));
	open_object(NULL);
	print_str(PRINT_ANY, "name", "%s:", name);
	print_uint(PRINT_JSON, "ifindex", NULL, i->ifindex);
	print_str(PRINT_ANY, "mode", " %s",
		  i->mode == RDMACHAN_NET_LISTEN ? "listen" : "connect");
	print_str(PRINT_ANY, "addr", " %s", addr);
	print_str(PRINT_ANY, "state", " state %s", net_state_name(i->state));
	print_bool(PRINT_JSON, "carrier", NULL, i->carrier);
	if (i->peer.ss_family == AF_INET || i->peer.ss_family == AF_INET6) {
		format_addr(&i->peer, peer, sizeof(peer));
		print_str(PRINT_ANY, "peer", " peer %s", peer);
	} else {
		print_null(PRINT_JSON, "peer", NULL);
	}
	print_uint(PRINT_JSON, "attempt", NULL, i->attempt);
	print_uint(PRINT_JSON, "max_attempts", NULL, i->max_attempts);
	print_uint(PRINT_JSON, "next_attempt_ms", NULL, i->next_ms);
	print_uint(PRINT_JSON, "down_ms", NULL, i->down_ms);
	if (i->state == RDMACHAN_NET_RECONNECTING || i->state == RDMACHAN_NET_DEAD) {
		print_uint(PRINT_FP, NULL, " attempt %u", i->attempt);
		if (i->max_attempts)
			print_uint(PRINT_FP, NULL, " of %u", i->max_attempts);
		if (i->next_ms)
			print_uint(PRINT_FP, NULL, " next in %ums", i->next_ms);
		print_uint(PRINT_FP, NULL, " down %ums", i->down_ms);
	}
	print_s64(PRINT_JSON, "last_error", NULL, i->last_error);
	if (i->last_error < 0)
		print_str(PRINT_ANY, "last_error_name", " last_error %s",
			  errno_name(-i->last_error));
	print_uint(PRINT_ANY, "mtu", "\n    mtu %u", i->mtu);
	print_uint(PRINT_ANY, "max_msg_size", " msg_size %u", i->max_msg_size);
	print_uint(PRINT_ANY, "queue_depth", " depth %u", i->queue_depth);
	print_uint(PRINT_ANY, "losses", " losses %u\n", i->losses);
	if (tool_details())
		show_details(name);
	if (!tool_stats()) {
		close_object();
		return;
	}
	open_object("counters");
	print_u64(PRINT_ANY, "rx_packets", "    rx_packets %llu", c->rx_packets);
	print_u64(PRINT_ANY, "rx_bytes", " rx_bytes %llu", c->rx_bytes);
	print_u64(PRINT_ANY, "rx_dropped", " rx_dropped %llu", c->rx_dropped);
	print_u64(PRINT_ANY, "rx_errors", " rx_errors %llu\n", c->rx_errors);
	print_u64(PRINT_ANY, "tx_packets", "    tx_packets %llu", c->tx_packets);
	print_u64(PRINT_ANY, "tx_bytes", " tx_bytes %llu", c->tx_bytes);
	print_u64(PRINT_ANY, "tx_dropped", " tx_dropped %llu", c->tx_dropped);
	print_u64(PRINT_ANY, "tx_errors", " tx_errors %llu", c->tx_errors);
	print_u64(PRINT_ANY, "tx_stopped", " tx_stopped %llu", c->tx_stopped);
	print_u64(PRINT_ANY, "reconnects", " reconnects %llu\n", c->reconnects);
	close_object();
	close_object();
}

static int net_show(int argc, char **argv)
{
	struct rdmachan_net_info *e = NULL;
	unsigned int n = 0, i, shown = 0;
	int ctl;

	if (cmd_help_asked(argc, argv)) {
		printf("Usage: rdmachan [-j [-p]] [-s] [-d] net show [NAME]\n"
		       "The rdmachan interfaces (or NAME): mode, address, state, peer,\n"
		       "the reconnect loop's figures; with -s the counters, with -d the\n"
		       "source or peer given and the reconnect policy (JSON: always).\n");
		return EXIT_OK;
	}
	if (argc > 1)
		return tool_usage_err("net show", "unexpected argument '%s'", argv[1]);
	ctl = ctl_open();
	if (ctl < 0)
		return EXIT_FAIL;
	if (ctl_net_list(ctl, &e, &n)) {
		close(ctl);
		return net_err("net show", NULL, errno, NULL);
	}
	close(ctl);
	open_record(stdout);
	open_array("devices");
	for (i = 0; i < n; i++) {
		if (argc == 1 && strncmp(e[i].name, argv[0], sizeof(e[i].name)))
			continue;
		show_one(&e[i]);
		shown++;
	}
	close_array();
	close_record();
	free(e);
	if (argc == 1 && !shown)
		return net_err("net show", argv[0], ENODEV, "no such rdmachan interface");
	return EXIT_OK;
}

/* ---- the object ---------------------------------------------------- */

static int net_help(int argc, char **argv)
{
	(void)argc;
	(void)argv;
	printf("Usage: rdmachan net add NAME listen ADDR[:PORT] [--peer ADDR] [OPTIONS]\n"
	       "       rdmachan net add NAME connect ADDR[:PORT] [--src ADDR] [OPTIONS]\n"
	       "       rdmachan net del NAME\n"
	       "       rdmachan [-j [-p]] net show [NAME]\n"
	       "       rdmachan net { COMMAND --help | help }\n"
	       "The network channel (rdmachan_net.ko): a point-to-point IP interface\n"
	       "over one rdmachan channel.  Port: %d.\n",
	       RDMACHAN_NET_DEFAULT_PORT);
	return EXIT_OK;
}

const struct cmd net_cmds[] = {
	{ "show", net_show },
	{ "add", net_add },
	{ "del", net_del },
	{ "help", net_help },
	CMD_END
};

int obj_net(int argc, char **argv)
{
	return cmd_run("net", net_cmds, argc, argv);
}
