// SPDX-License-Identifier: GPL-2.0-only
/*
 * chan_connect.c: "rdmachan chan connect": a channel on stdin/stdout, one
 * message per line.
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

static void connect_help(void)
{
	printf("Usage: rdmachan chan connect ADDR[:PORT] [OPTIONS]\n"
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
		if (in->len && chan_send_one(fd, in->buf, in->len, 0, 0))
			return -1;
		return 1;
	}
	in->len += n;
	while ((nl = memchr(in->buf, '\n', in->len))) {
		size_t line = nl - in->buf;

		if (chan_send_one(fd, in->buf, line, 0, 0))
			return -1;
		in->len -= line + 1;
		memmove(in->buf, nl + 1, in->len);
	}
	if (in->len == in->cap) {
		if (chan_send_one(fd, in->buf, in->len, 0, 0))
			return -1;
		in->len = 0;
	}
	return 0;
}

int cmd_chan_connect(int argc, char **argv)
{
	static const struct option longopts[] = { CHAN_LONG_OPTS, { NULL, 0, NULL, 0 } };
	struct chan_args a = { 0 };
	struct line_buf in = { 0 };
	unsigned char *rbuf = NULL;
	struct chan_conn ch;
	int c, r, fd, ret;

	CMD_GETOPT_INIT();
	while ((c = CMD_GETOPT(argc, argv, "h" CHAN_GETOPT_SHORT, longopts)) != -1) {
		if (c == 'h') {
			connect_help();
			return EXIT_OK;
		}
		if (chan_opt("chan connect", c, argv, &a))
			return EXIT_USAGE;
	}
	if (cmd_one_addr("chan connect", &argc, &argv))
		return EXIT_USAGE;
	signal(SIGPIPE, SIG_IGN);
	ret = chan_open("chan connect", argv[0], &a, 0, &ch);
	if (ret)
		return ret;
	fd = ch.fd;
	if (!(rbuf = malloc(ch.ci.max_msg_size + 1)) ||
	    !(in.buf = malloc(ch.ci.max_msg_size))) {
		free(rbuf);
		close(fd);
		return EXIT_FAIL;
	}
	in.cap = ch.ci.max_msg_size;
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
			r = recv_print(fd, rbuf, ch.ci.max_msg_size);
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

