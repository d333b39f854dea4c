// SPDX-License-Identifier: GPL-2.0-only
/*
 * chan_recv.c: "rdmachan chan recv": accept one channel and print its
 * messages (the server of chan_listen.c, for one channel).
 */
#include <stdio.h>

#include "chan.h"

static void recv_help(void)
{
	printf("Usage: rdmachan chan recv ADDR[:PORT] [-c COUNT] [OPTIONS]\n"
	       "Accept one channel on ADDR, print its messages as lines (JSON\n"
	       "lines with -j) until the peer closes or COUNT have arrived.\n"
	       "  -c, --count N       stop after N messages\n"
	       CHAN_OPTS_HELP);
}

int cmd_chan_recv(int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "count", required_argument, NULL, 'c' },
		CHAN_LONG_OPTS,
		{ NULL, 0, NULL, 0 }
	};
	struct listen_opts o = { .cmd = "chan recv", .mode = LISTEN_PRINT,
				 .max_conns = 1, .quiet = true };
	struct chan_args a = { 0 };
	int c;

	CMD_GETOPT_INIT();
	while ((c = CMD_GETOPT(argc, argv, "c:h" CHAN_GETOPT_SHORT, longopts)) != -1) {
		switch (c) {
		case 'c':
			if (parse_uint(optarg, 1, UINT64_MAX, &o.max_msgs))
				return tool_usage_err(o.cmd, "invalid count '%s'", optarg);
			break;
		case 'h':
			recv_help();
			return EXIT_OK;
		default:
			if (chan_opt(o.cmd, c, argv, &a))
				return EXIT_USAGE;
		}
	}
	if (cmd_one_addr(o.cmd, &argc, &argv))
		return EXIT_USAGE;
	return chan_listen_run(&o, argv[0], &a);
}
