// SPDX-License-Identifier: GPL-2.0-only
/*
 * chan.c: the "chan" object (message channels): its commands, and what
 * they share: opening channels and listeners, and their options.
 */
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/ioctl.h>
#include <time.h>
#include <unistd.h>

#include "chan.h"
#include "ioc.h"

volatile sig_atomic_t tool_interrupted;

static void on_signal(int sig)
{
	(void)sig;
	tool_interrupted = 1;
}

void catch_signals(bool term)
{
	struct sigaction sa;

	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_signal;
	sigaction(SIGINT, &sa, NULL);
	if (term)
		sigaction(SIGTERM, &sa, NULL);
	signal(SIGPIPE, SIG_IGN);
}

double now_sec(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

int chan_opt(const char *cmd, int c, char **argv, struct chan_args *a)
{
	const char *arg = optarg;
	uint64_t v;
	int mode;

	switch (c) {
	case 'd':
		if (parse_uint(arg, 1, 65535, &v))
			goto bad;
		a->opts.queue_depth = v;
		return 0;
	case 'm':
		if (parse_size(arg, 1, 1U << 30, &v))
			goto bad;
		a->opts.max_msg_size = v;
		return 0;
	case CHAN_OPT_BASE + 0:
		if (parse_duration_ms(arg, &v) || v == 0 || v > 3600000)
			goto bad;
		a->opts.timeout_ms = v;
		return 0;
	case CHAN_OPT_BASE + 1:
		mode = parse_poll_mode(arg);
		if (mode < 0)
			goto bad;
		a->opts.poll_mode = mode;
		return 0;
	case CHAN_OPT_BASE + 2:
		if (parse_addr(arg, 0, &a->src))
			goto bad;
		return 0;
	case CHAN_OPT_BASE + 3:
		if (parse_uint(arg, 1, 65535, &v))
			goto bad;
		a->opts.backlog = v;
		return 0;
	default:
		/* getopt's '?' or ':', or an option the command left to us */
		cmd_bad_option(cmd, argv);
		return -1;
	}
bad:
	tool_usage_err(cmd, "invalid value '%s'", arg);
	return -1;
}

int cmd_one_addr(const char *cmd, int *argc, char ***argv)
{
	*argc -= optind - 1;
	*argv += optind - 1;
	if (*argc == 1)
		return 0;
	return tool_usage_err(cmd, *argc ? "one address expected" : "an address is needed");
}

/* Add a hint to the errno texts whose cause is not obvious. */
static const char *hint(int err)
{
	switch (err) {
	case ECONNREFUSED:
		return " (no listener on that port?)";
	case ETIMEDOUT:
		return " (peer unreachable or not answering)";
	case ENOBUFS:
		return " (the listener is busy: too many connections not yet accepted; try again)";
	case EACCES:
		return " (the listener does not admit this address)";
	case EADDRNOTAVAIL:
		return " (address not configured on an RDMA-capable interface?)";
	case ENODEV:
		return " (no RDMA device for that address?)";
	case EMSGSIZE:
		return " (larger than the channel's max message size)";
	default:
		return "";
	}
}

int chan_connect_to(int ctl, const struct sockaddr_storage *dst,
		    const struct chan_args *a)
{
	char buf[64];
	int fd;

	fd = ioc_connect(ctl, dst, &a->src, &a->opts,
			 RDMACHAN_FD_CLOEXEC | (a->nonblock ? RDMACHAN_FD_NONBLOCK : 0));
	if (fd < 0) {
		int e = errno;

		format_addr(dst, buf, sizeof(buf));
		tool_err("connect %s: %s%s", buf, strerror(e), hint(e));
		errno = e;
	}
	return fd;
}

int chan_open(const char *cmd, const char *addr, const struct chan_args *a,
	      uint64_t msg_size, struct chan_conn *c)
{
	struct sockaddr_storage dst;
	int ctl;

	memset(c, 0, sizeof(*c));
	c->fd = -1;
	if (parse_addr(addr, TOOL_DEFAULT_PORT, &dst))
		return tool_usage_err(cmd, "'%s' is not ADDR[:PORT]", addr);
	format_addr(&dst, c->dst, sizeof(c->dst));
	ctl = ctl_open();
	if (ctl < 0)
		return EXIT_FAIL;
	c->fd = chan_connect_to(ctl, &dst, a);
	close(ctl);
	if (c->fd < 0)
		return EXIT_FAIL;
	if (chan_get_info(c->fd, &c->ci))
		goto fail;
	if (msg_size > c->ci.max_msg_size) {
		tool_err("size %llu is larger than the channel's max message size %u",
			 (unsigned long long)msg_size, c->ci.max_msg_size);
		goto fail;
	}
	return EXIT_OK;
fail:
	close(c->fd);
	c->fd = -1;
	return EXIT_FAIL;
}

int chan_listen_on(int ctl, struct sockaddr_storage *addr,
		   const struct chan_args *a)
{
	char buf[64];
	int fd;

	fd = ioc_listen(ctl, addr, &a->opts, RDMACHAN_FD_CLOEXEC);
	if (fd < 0) {
		int e = errno;

		format_addr(addr, buf, sizeof(buf));
		tool_err("listen %s: %s%s", buf, strerror(e), hint(e));
		errno = e;
	}
	return fd;
}

int chan_accept_one(int lfd, struct sockaddr_storage *peer)
{
	int fd = ioc_accept(lfd, RDMACHAN_FD_CLOEXEC, peer);

	if (fd < 0 && errno != EINTR && errno != EAGAIN)
		tool_err("accept: %s", strerror(errno));
	return fd;
}

int chan_info_query(int fd, struct rdmachan_chan_info *ci,
		    int (*ioc)(int fd, unsigned long req, void *arg))
{
	memset(ci, 0, sizeof(*ci));
	ci->size = sizeof(*ci);
	if (!ioc(fd, RDMACHAN_IOC_CHAN_INFO, ci))
		return 0;
	if (errno != EINVAL)
		return -1;
	/* a module of the first ABI: the struct before solicited_events */
	memset(ci, 0, sizeof(*ci));
	ci->size = RDMACHAN_CHAN_INFO_SIZE_V1;
	return ioc(fd, RDMACHAN_IOC_CHAN_INFO, ci) ? -1 : 0;
}

static int sys_ioctl(int fd, unsigned long req, void *arg)
{
	return ioctl(fd, req, arg);
}

int chan_get_info(int fd, struct rdmachan_chan_info *ci)
{
	if (chan_info_query(fd, ci, sys_ioctl)) {
		tool_err("channel info: %s", strerror(errno));
		return -1;
	}
	return 0;
}

int chan_bench(int fd, struct rdmachan_bench *b)
{
	static const char *const modes[] = {
		"blast", "ping-pong", "sink", "echo", "target", "write", "read",
	};

	b->size = sizeof(*b);
	if (ioctl(fd, RDMACHAN_IOC_BENCH, b) < 0) {
		int e = errno;

		tool_err("in-kernel %s: %s", b->mode < sizeof(modes) / sizeof(modes[0]) ?
			 modes[b->mode] : "bench", strerror(e));
		errno = e;
		return -1;
	}
	return 0;
}

/* @flags: RDMACHAN_MSG_IMM (with @imm), RDMACHAN_MSG_SOLICITED */
int chan_send_one(int fd, const void *buf, size_t len, unsigned int flags,
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

static int chan_help(int argc, char **argv)
{
	(void)argc;
	(void)argv;
	printf("Usage: rdmachan [OPTIONS] chan [ COMMAND [ARGS] ]\n"
	       "       rdmachan chan { COMMAND --help | help }\n"
	       "where  COMMAND := { show | listen | connect | send | recv | ping | bench }\n"
	       "  show [NAME]                  channels, listeners and devices with their\n"
	       "                               state and counters (sysfs); the default\n"
	       "  listen ADDR[:PORT] [...]     accept channels: print, --echo, --sink\n"
	       "                               or --target (in-kernel one-sided)\n"
	       "  connect ADDR[:PORT] [...]    a channel: stdin lines out, messages in\n"
	       "  send ADDR[:PORT] MSG...      send messages and close\n"
	       "  recv ADDR[:PORT] [...]       accept one channel, print its messages\n"
	       "  ping ADDR[:PORT] [...]       round-trip times against listen --echo\n"
	       "  bench ADDR[:PORT] [...]      message rate and bandwidth against\n"
	       "                               listen --sink (--op write|read: mr reg;\n"
	       "                               with --kernel: listen --target)\n"
	       "Default port: %d.\n", TOOL_DEFAULT_PORT);
	return EXIT_OK;
}

const struct cmd chan_cmds[] = {
	{ "show", cmd_chan_show },
	{ "listen", cmd_chan_listen },
	{ "connect", cmd_chan_connect },
	{ "send", cmd_chan_send },
	{ "recv", cmd_chan_recv },
	{ "ping", cmd_chan_ping },
	{ "bench", cmd_chan_bench },
	{ "help", chan_help },
	CMD_END
};

int obj_chan(int argc, char **argv)
{
	return cmd_run("chan", chan_cmds, argc, argv);
}
