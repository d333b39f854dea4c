// SPDX-License-Identifier: GPL-2.0-only
/*
 * chan_send.c: "rdmachan chan send": send messages, then close.
 */
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "chan.h"

static void send_help(void)
{
	printf("Usage: rdmachan chan send ADDR[:PORT] [--imm N] [--solicited] [-r REPEAT] [OPTIONS] [MSG...]\n"
	       "Open a channel, send each MSG (or, without any, each line of\n"
	       "standard input) as one message, and close it once all were sent.\n"
	       "      --imm N         send with 32-bit immediate N (SEND_WITH_IMM)\n"
	       "      --solicited     send as solicited messages: they wake a peer\n"
	       "                      in poll mode solicited\n"
	       "  -r, --repeat N      send the messages N times\n"
	       CHAN_OPTS_HELP);
}

int cmd_chan_send(int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "imm", required_argument, NULL, 'i' },
		{ "solicited", no_argument, NULL, 'S' },
		{ "repeat", required_argument, NULL, 'r' },
		CHAN_LONG_OPTS,
		{ NULL, 0, NULL, 0 }
	};
	struct chan_args a = { 0 };
	uint64_t imm = 0, repeat = 1, rep, sent = 0;
	unsigned int flags = 0;
	struct chan_conn ch;
	int c, i, fd, ret;

	CMD_GETOPT_INIT();
	while ((c = CMD_GETOPT(argc, argv, "hr:" CHAN_GETOPT_SHORT, longopts)) != -1) {
		switch (c) {
		case 'h':
			send_help();
			return EXIT_OK;
		case 'i':
			if (parse_uint(optarg, 0, UINT32_MAX, &imm))
				return tool_usage_err("chan send", "invalid immediate '%s'", optarg);
			flags |= RDMACHAN_MSG_IMM;
			break;
		case 'S':
			flags |= RDMACHAN_MSG_SOLICITED;
			break;
		case 'r':
			if (parse_uint(optarg, 1, UINT32_MAX, &repeat))
				return tool_usage_err("chan send", "invalid count '%s'", optarg);
			break;
		default:
			if (chan_opt("chan send", c, argv, &a))
				return EXIT_USAGE;
		}
	}
	argc -= optind - 1;
	argv += optind - 1;
	if (argc < 1)
		return tool_usage_err("chan send", "an address is needed");
	signal(SIGPIPE, SIG_IGN);
	ret = chan_open("chan send", argv[0], &a, 0, &ch);
	if (ret)
		return ret;
	fd = ch.fd;
	for (rep = 0; rep < repeat && ret == EXIT_OK; rep++) {
		if (argc > 1) {
			for (i = 1; i < argc && ret == EXIT_OK; i++) {
				if (chan_send_one(fd, argv[i], strlen(argv[i]), flags, imm))
					ret = EXIT_FAIL;
				else
					sent++;
			}
		} else {
			char *line = NULL;
			size_t cap = 0;
			ssize_t n;

			while (ret == EXIT_OK && (n = getline(&line, &cap, stdin)) >= 0) {
				if (n > 0 && line[n - 1] == '\n')
					line[--n] = '\0';
				if (chan_send_one(fd, line, n, flags, imm))
					ret = EXIT_FAIL;
				else
					sent++;
			}
			free(line);
			break;	/* standard input is read once */
		}
	}
	close(fd);
	if (ret == EXIT_OK || out_json()) {
		open_record(stderr);
		print_u64(PRINT_ANY, "sent", "sent %llu", sent);
		print_fp(" message%s\n", sent == 1 ? "" : "s");
		close_record();
	}
	return ret;
}
