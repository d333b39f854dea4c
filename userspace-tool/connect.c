// SPDX-License-Identifier: GPL-2.0-only
/*
 * connect.c: "rdmachan connect" (a channel on stdin/stdout, one message
 * per line) and "rdmachan send" (send messages, then close).
 */
#include <errno.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <unistd.h>

#include "chan.h"

/* @flags: RDMACHAN_MSG_IMM (with @imm), RDMACHAN_MSG_SOLICITED */
static int send_one(int fd, const void *buf, size_t len, unsigned int flags,
		    uint32_t imm)
{
	struct rdmachan_user_msg m = {
		.buf = (uintptr_t)buf, .len = len, .imm = imm, .flags = flags,
	};
	struct rdmachan_mmsg mm = {
		.size = sizeof(mm), .msgs = (uintptr_t)&m, .count = 1,
	};

	while (ioctl(fd, RDMACHAN_IOC_SEND, &mm) < 0) {
		if (errno == EINTR)
			continue;
		tool_err("send: %s", strerror(errno));
		return -1;
	}
	return 0;
}

/* open_to: the channel to ADDR[:PORT], or -1 (message printed). */
static int open_to(const char *cmd, const char *addr, const struct chan_args *a,
		   int *usage)
{
	struct sockaddr_storage dst;
	int ctl, fd;

	*usage = 0;
	if (parse_addr(addr, TOOL_DEFAULT_PORT, &dst)) {
		*usage = tool_usage_err(cmd, "'%s' is not ADDR[:PORT]", addr);
		return -1;
	}
	ctl = ctl_open();
	if (ctl < 0)
		return -1;
	fd = chan_connect_to(ctl, &dst, a);
	close(ctl);
	return fd;
}

static void connect_help(void)
{
	printf("Usage: rdmachan connect ADDR[:PORT] [OPTIONS]\n"
	       "Open a channel to a listener; send each line of standard input\n"
	       "as one message, print each message received as a line.  Ends\n"
	       "at the end of input (closing the channel) or when the peer closes.\n"
	       CHAN_OPTS_HELP);
}

static int recv_print(int fd, unsigned char *buf, size_t room)
{
	ssize_t n = read(fd, buf, room);

	if (n < 0) {
		if (errno == EAGAIN || errno == EINTR)
			return 0;
		tool_err("receive: %s", strerror(errno));
		return -1;
	}
	if (n == 0)
		return 1;
	fwrite(buf, 1, n, stdout);
	putchar('\n');
	fflush(stdout);
	return 0;
}

/* Standard input, split into lines with read(2): poll sees all of it. */
struct line_buf {
	char *buf;
	size_t len, cap;
};

/*
 * stdin_lines: read what standard input has and send each complete line
 * (without its newline) as a message; a line as long as the channel's
 * largest message is sent as it is.  Returns 0, 1 at the end of input
 * (the last, unterminated, line sent), or -1 after an error.
 */
static int stdin_lines(int fd, struct line_buf *in)
{
	ssize_t n = read(0, in->buf + in->len, in->cap - in->len);
	char *nl;

	if (n < 0)
		return errno == EINTR || errno == EAGAIN ? 0 : -1;
	if (n == 0) {
		if (in->len && send_one(fd, in->buf, in->len, 0, 0))
			return -1;
		return 1;
	}
	in->len += n;
	while ((nl = memchr(in->buf, '\n', in->len))) {
		size_t line = nl - in->buf;

		if (send_one(fd, in->buf, line, 0, 0))
			return -1;
		in->len -= line + 1;
		memmove(in->buf, nl + 1, in->len);
	}
	if (in->len == in->cap) {
		if (send_one(fd, in->buf, in->len, 0, 0))
			return -1;
		in->len = 0;
	}
	return 0;
}

int cmd_connect(int argc, char **argv)
{
	static const struct option longopts[] = { CHAN_LONG_OPTS, { NULL, 0, NULL, 0 } };
	struct chan_args a = { 0 };
	struct rdmachan_chan_info ci;
	struct line_buf in = { 0 };
	unsigned char *rbuf = NULL;
	int c, r, fd, usage, ret = EXIT_OK;

	optind = 1;
	opterr = 0;
	while ((c = CMD_GETOPT(argc, argv, "h" CHAN_GETOPT_SHORT, longopts)) != -1) {
		if (c == 'h') {
			connect_help();
			return EXIT_OK;
		}
		r = chan_opt("connect", c, optarg, &a);
		if (r < 0)
			return EXIT_USAGE;
		if (!r)
			return tool_usage_err("connect", "unknown or incomplete option '%s'",
					      argv[optind - 2]);
	}
	argc -= optind - 1;
	argv += optind - 1;
	if (argc != 1)
		return tool_usage_err("connect", "one address expected");
	signal(SIGPIPE, SIG_IGN);
	fd = open_to("connect", argv[0], &a, &usage);
	if (fd < 0)
		return usage ? usage : EXIT_FAIL;
	if (chan_get_info(fd, &ci) || !(rbuf = malloc(ci.max_msg_size + 1)) ||
	    !(in.buf = malloc(ci.max_msg_size))) {
		free(rbuf);
		close(fd);
		return EXIT_FAIL;
	}
	in.cap = ci.max_msg_size;
	for (;;) {
		struct pollfd p[2] = {
			{ .fd = fd, .events = POLLIN },
			{ .fd = 0, .events = POLLIN },
		};

		if (poll(p, 2, -1) < 0) {
			if (errno == EINTR)
				continue;
			ret = EXIT_FAIL;
			break;
		}
		if (p[0].revents) {
			r = recv_print(fd, rbuf, ci.max_msg_size);
			if (r) {
				ret = r < 0 ? EXIT_FAIL : EXIT_OK;
				break;
			}
		}
		if (p[1].revents) {
			r = stdin_lines(fd, &in);
			if (r) {
				ret = r < 0 ? EXIT_FAIL : EXIT_OK;
				break;	/* end of input: close */
			}
		}
	}
	free(in.buf);
	free(rbuf);
	close(fd);
	return ret;
}

static void send_help(void)
{
	printf("Usage: rdmachan send ADDR[:PORT] [--imm N] [--solicited] [-r REPEAT] [OPTIONS] [MSG...]\n"
	       "Open a channel, send each MSG (or, without any, each line of\n"
	       "standard input) as one message, and close it once all were sent.\n"
	       "      --imm N         send with 32-bit immediate N (SEND_WITH_IMM)\n"
	       "      --solicited     send as solicited messages: they wake a peer\n"
	       "                      in poll mode solicited\n"
	       "  -r, --repeat N      send the messages N times\n"
	       CHAN_OPTS_HELP);
}

int cmd_send(int argc, char **argv)
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
	int c, r, i, fd, usage, ret = EXIT_OK;

	optind = 1;
	opterr = 0;
	while ((c = CMD_GETOPT(argc, argv, "hr:" CHAN_GETOPT_SHORT, longopts)) != -1) {
		switch (c) {
		case 'h':
			send_help();
			return EXIT_OK;
		case 'i':
			if (parse_uint(optarg, 0, UINT32_MAX, &imm))
				return tool_usage_err("send", "invalid immediate '%s'", optarg);
			flags |= RDMACHAN_MSG_IMM;
			break;
		case 'S':
			flags |= RDMACHAN_MSG_SOLICITED;
			break;
		case 'r':
			if (parse_uint(optarg, 1, UINT32_MAX, &repeat))
				return tool_usage_err("send", "invalid count '%s'", optarg);
			break;
		default:
			r = chan_opt("send", c, optarg, &a);
			if (r < 0)
				return EXIT_USAGE;
			if (!r)
				return tool_usage_err("send", "unknown or incomplete option '%s'",
						      argv[optind - 2]);
		}
	}
	argc -= optind - 1;
	argv += optind - 1;
	if (argc < 1)
		return tool_usage_err("send", "an address is needed");
	signal(SIGPIPE, SIG_IGN);
	fd = open_to("send", argv[0], &a, &usage);
	if (fd < 0)
		return usage ? usage : EXIT_FAIL;
	for (rep = 0; rep < repeat && ret == EXIT_OK; rep++) {
		if (argc > 1) {
			for (i = 1; i < argc && ret == EXIT_OK; i++) {
				if (send_one(fd, argv[i], strlen(argv[i]), flags, imm))
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
				if (send_one(fd, line, n, flags, imm))
					ret = EXIT_FAIL;
				else
					sent++;
			}
			free(line);
			break;	/* standard input is read once */
		}
	}
	close(fd);
	if (tool.json) {
		json_obj_open(&tool.j);
		json_kv_u64(&tool.j, "sent", sent);
		json_obj_close(&tool.j);
		json_end(&tool.j);
	} else if (ret == EXIT_OK) {
		fprintf(stderr, "sent %llu message%s\n", (unsigned long long)sent,
			sent == 1 ? "" : "s");
	}
	return ret;
}
