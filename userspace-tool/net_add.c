// SPDX-License-Identifier: GPL-2.0-only
/*
 * net_add.c: "rdmachan net add" and "net del": a point-to-point interface over
 * one channel, made and deleted (RDMACHAN_IOC_NET_ADD, _DEL)
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

int cmd_net_add(int argc, char **argv)
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
	CMD_GETOPT_INIT();
	while ((c = CMD_GETOPT(argc, argv, "hs:m:d:", longopts)) != -1) {
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
			return cmd_bad_option("net add", argv);
		}
	}
	if (cmd_operands("net add", &argc, &argv, 3, "a NAME, listen or connect, and an ADDR are"))
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

int cmd_net_del(int argc, char **argv)
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
