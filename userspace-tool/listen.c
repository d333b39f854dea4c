// SPDX-License-Identifier: GPL-2.0-only
/*
 * listen.c: "rdmachan listen" (serve channels: print, echo or sink their
 * messages, or be the in-kernel target of one-sided bench runs) and
 * "rdmachan recv" (one channel, its messages printed).
 */
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/wait.h>
#include <unistd.h>

#include "chan.h"

#define MAX_CONNS	1024
#define BATCH_BYTES	(4U << 20)
#define MAX_BATCH	32U
#define DEFAULT_REGION	(1U << 20)

#define LISTEN_OPT_TARGET	1200
#define LISTEN_OPT_REGION	1201

enum serve_mode { MODE_PRINT, MODE_ECHO, MODE_SINK, MODE_TARGET };

struct conn {
	int fd;
	unsigned int id;
	char peer[64];
	unsigned int batch;
	unsigned int max_msg;
	struct rdmachan_user_msg *msgs;
	unsigned char *buf;
	uint64_t rx_msgs, rx_bytes;
	double t0;
	double kernel_secs;	/* --kernel: the run's length, as measured there */
};

struct server {
	const char *cmd;
	enum serve_mode mode;
	int lfd;
	uint64_t max_conns;	/* stop after this many channels ended; 0: never */
	uint64_t max_msgs;	/* per channel, then close it; 0: unlimited */
	uint64_t ended;
	bool quiet;
	bool kernel;		/* echo or sink in the kernel, a child per channel */
	uint64_t region;	/* MODE_TARGET: bytes registered per channel */
	struct conn *conns[MAX_CONNS];
	unsigned int nconns;
	pid_t children[MAX_CONNS];
	unsigned int nchildren;
};

static volatile sig_atomic_t stop_requested;

static void on_signal(int sig)
{
	(void)sig;
	stop_requested = 1;
}

static struct conn *conn_new(int fd, const struct sockaddr_storage *peer)
{
	struct rdmachan_chan_info ci;
	struct conn *c;
	unsigned int i;

	if (chan_get_info(fd, &ci))
		return NULL;
	c = calloc(1, sizeof(*c));
	if (!c)
		return NULL;
	c->fd = fd;
	c->id = ci.id;
	c->max_msg = ci.max_msg_size ? ci.max_msg_size : 1;
	c->batch = BATCH_BYTES / c->max_msg;
	if (c->batch > MAX_BATCH)
		c->batch = MAX_BATCH;
	if (c->batch < 1)
		c->batch = 1;
	format_addr(peer, c->peer, sizeof(c->peer));
	c->msgs = calloc(c->batch, sizeof(*c->msgs));
	c->buf = malloc((size_t)c->batch * c->max_msg);
	if (!c->msgs || !c->buf) {
		free(c->msgs);
		free(c->buf);
		free(c);
		return NULL;
	}
	for (i = 0; i < c->batch; i++)
		c->msgs[i].buf = (uintptr_t)(c->buf + (size_t)i * c->max_msg);
	c->t0 = now_sec();
	return c;
}

static void conn_event(struct server *s, struct conn *c, const char *what, int err)
{
	double dt = s->kernel ? c->kernel_secs : now_sec() - c->t0;

	if (s->quiet && !err && s->mode != MODE_SINK && s->mode != MODE_TARGET)
		return;
	if (tool.json) {
		json_obj_open(&tool.j);
		json_kv_str(&tool.j, "event", what);
		json_kv_u64(&tool.j, "chan", c->id);
		json_kv_str(&tool.j, "peer", c->peer);
		if (strcmp(what, "accepted")) {
			json_kv_u64(&tool.j, "messages", c->rx_msgs);
			json_kv_u64(&tool.j, "bytes", c->rx_bytes);
			json_kv_double(&tool.j, "seconds", dt);
			if (s->mode == MODE_TARGET)
				json_kv_u64(&tool.j, "region", s->region);
			if (err)
				json_kv_str(&tool.j, "error", strerror(err));
		}
		json_obj_close(&tool.j);
		json_end(&tool.j);
	} else if (!strcmp(what, "accepted")) {
		fprintf(stderr, "chan %u: accepted from %s\n", c->id, c->peer);
	} else if (s->mode == MODE_TARGET) {
		fprintf(stderr, "chan %u: %s%s%s: target of %llu bytes for %.3f s\n",
			c->id, what, err ? ": " : "", err ? strerror(err) : "",
			(unsigned long long)s->region, dt);
	} else {
		fprintf(stderr, "chan %u: %s%s%s after %llu messages, %llu bytes in %.3f s",
			c->id, what, err ? ": " : "", err ? strerror(err) : "",
			(unsigned long long)c->rx_msgs, (unsigned long long)c->rx_bytes, dt);
		if (dt > 0 && c->rx_msgs)
			fprintf(stderr, " (%.0f msg/s, %.2f MB/s)", c->rx_msgs / dt,
				c->rx_bytes / dt / 1e6);
		fputc('\n', stderr);
	}
}

static void conn_end(struct server *s, unsigned int i, const char *what, int err)
{
	struct conn *c = s->conns[i];

	conn_event(s, c, what, err);
	close(c->fd);
	free(c->msgs);
	free(c->buf);
	free(c);
	s->conns[i] = s->conns[--s->nconns];
	s->ended++;
}

static void print_msg(struct conn *c, const struct rdmachan_user_msg *m)
{
	const unsigned char *p = (const unsigned char *)(uintptr_t)m->buf;

	if (tool.json) {
		char *s = malloc(m->len + 1);

		if (!s)
			return;
		memcpy(s, p, m->len);
		s[m->len] = '\0';
		json_obj_open(&tool.j);
		json_kv_u64(&tool.j, "chan", c->id);
		json_kv_u64(&tool.j, "len", m->len);
		if (m->flags & RDMACHAN_MSG_IMM)
			json_kv_u64(&tool.j, "imm", m->imm);
		json_kv_str(&tool.j, "data", s);
		json_obj_close(&tool.j);
		json_end(&tool.j);
		free(s);
		return;
	}
	if (m->flags & RDMACHAN_MSG_IMM)
		printf("[imm 0x%08x] ", m->imm);
	fwrite(p, 1, m->len, stdout);
	putchar('\n');
	fflush(stdout);
}

/*
 * conn_rx: drain what @c has queued.  Returns 0 to keep the channel, or
 * 1 when it ended (orderly or not) or reached its message limit.
 */
static int conn_rx(struct server *s, unsigned int idx)
{
	struct conn *c = s->conns[idx];
	struct rdmachan_mmsg mm;
	unsigned int i, want = c->batch;

	if (s->max_msgs && s->max_msgs - c->rx_msgs < want)
		want = s->max_msgs - c->rx_msgs;
	for (i = 0; i < want; i++) {
		c->msgs[i].len = c->max_msg;
		c->msgs[i].flags = 0;
	}
	memset(&mm, 0, sizeof(mm));
	mm.size = sizeof(mm);
	mm.flags = RDMACHAN_MSG_DONTWAIT;
	mm.msgs = (uintptr_t)c->msgs;
	mm.count = want;
	if (ioctl(c->fd, RDMACHAN_IOC_RECVMMSG, &mm) < 0) {
		if (errno == EAGAIN || errno == EINTR)
			return 0;
		if (errno == ECONNRESET && !c->rx_msgs) {
			conn_end(s, idx, "reset", errno);
			return 1;
		}
		conn_end(s, idx, "failed", errno);
		return 1;
	}
	if (mm.done == 0) {	/* orderly end: everything was read */
		conn_end(s, idx, "closed", 0);
		return 1;
	}
	for (i = 0; i < mm.done; i++) {
		c->rx_msgs++;
		c->rx_bytes += c->msgs[i].len;
		if (s->mode == MODE_PRINT)
			print_msg(c, &c->msgs[i]);
	}
	if (s->mode == MODE_ECHO) {
		struct rdmachan_mmsg out;
		unsigned int sent = 0;

		/* Blocking: waits for credits, as the peer reads its replies. */
		while (sent < mm.done) {
			memset(&out, 0, sizeof(out));
			out.size = sizeof(out);
			out.msgs = (uintptr_t)(c->msgs + sent);
			out.count = mm.done - sent;
			if (ioctl(c->fd, RDMACHAN_IOC_SENDMMSG, &out) < 0) {
				if (errno == EINTR && !stop_requested)
					continue;
				conn_end(s, idx, "failed", errno);
				return 1;
			}
			sent += out.done;
		}
	}
	if (s->max_msgs && c->rx_msgs >= s->max_msgs) {
		conn_end(s, idx, "done", 0);
		return 1;
	}
	return 0;
}

/*
 * --kernel: a child process runs the channel's echo or sink loop in the
 * kernel (RDMACHAN_IOC_BENCH), which returns when the peer closes; so
 * does --target's, which registers a region of --region bytes, sends the
 * peer its descriptor and waits for the peer's close.
 */
static int serve_in_kernel(struct server *s, unsigned int idx)
{
	struct conn *c = s->conns[idx];
	struct rdmachan_bench b = {
		.mode = s->mode == MODE_ECHO ? RDMACHAN_BENCH_ECHO : RDMACHAN_BENCH_SINK,
		.count = s->max_msgs,
	};
	pid_t pid;

	if (s->mode == MODE_TARGET) {
		/* the region is batch * msg_size: one "operation" of it all */
		b = (struct rdmachan_bench){
			.mode = RDMACHAN_BENCH_RDMA_TARGET,
			.msg_size = s->region, .batch = 1,
		};
	}

	fflush(stdout);
	fflush(stderr);
	pid = fork();
	if (pid < 0) {
		tool_err("fork: %s", strerror(errno));
		conn_end(s, idx, "closed", errno);
		return 0;
	}
	if (!pid) {
		int err = chan_bench(c->fd, &b) ? errno : 0;

		c->rx_msgs = b.msgs;
		c->rx_bytes = b.bytes;
		c->kernel_secs = b.elapsed_ns / 1e9;
		s->ended = 0;
		conn_end(s, idx, err ? "failed" : b.count && b.msgs >= b.count ?
			 "done" : "closed", err);
		fflush(stdout);
		_exit(err ? EXIT_FAIL : EXIT_OK);
	}
	s->children[s->nchildren++] = pid;
	/* the child owns the channel now */
	close(c->fd);
	free(c->msgs);
	free(c->buf);
	free(c);
	s->conns[idx] = s->conns[--s->nconns];
	return 0;
}

/* Count the --kernel children that ended; with @wait, wait for them all. */
static void reap_children(struct server *s, bool wait)
{
	unsigned int i;

	for (i = 0; i < s->nchildren;) {
		if (waitpid(s->children[i], NULL, wait ? 0 : WNOHANG) > 0 ||
		    (wait && errno != EINTR)) {
			s->children[i] = s->children[--s->nchildren];
			s->ended++;
		} else {
			i++;
		}
	}
}

static int accept_new(struct server *s)
{
	struct sockaddr_storage peer;
	struct conn *c;
	int fd, fl;

	fd = chan_accept_one(s->lfd, &peer);
	if (fd < 0)
		return (errno == EAGAIN || errno == EINTR) ? 0 : -1;
	/* Poll says when to receive; sends (echo) may wait for credits. */
	fl = fcntl(fd, F_GETFL);
	if (fl >= 0)
		fcntl(fd, F_SETFL, fl & ~O_NONBLOCK);
	if (s->nconns == MAX_CONNS) {
		tool_err("more than %d channels: refusing one", MAX_CONNS);
		close(fd);
		return 0;
	}
	c = conn_new(fd, &peer);
	if (!c) {
		close(fd);
		return 0;
	}
	s->conns[s->nconns++] = c;
	if (!s->quiet)
		conn_event(s, c, "accepted", 0);
	if (s->kernel)
		return serve_in_kernel(s, s->nconns - 1);
	return 0;
}

static int serve(struct server *s)
{
	struct pollfd pfd[MAX_CONNS + 1];
	uint64_t accepted = 0;
	unsigned int i, n;
	int r;

	while (!stop_requested) {
		bool accepting = !s->max_conns || accepted < s->max_conns;

		reap_children(s, false);
		if (s->max_conns && s->ended >= s->max_conns)
			return EXIT_OK;
		n = 0;
		pfd[n].fd = accepting ? s->lfd : -1;
		pfd[n++].events = POLLIN;
		for (i = 0; i < s->nconns; i++) {
			pfd[n].fd = s->conns[i]->fd;
			pfd[n++].events = POLLIN;
		}
		r = poll(pfd, n, s->nchildren ? 100 : -1);
		if (r < 0) {
			if (errno == EINTR)
				continue;
			tool_err("poll: %s", strerror(errno));
			return EXIT_FAIL;
		}
		if (pfd[0].revents & (POLLERR | POLLHUP | POLLNVAL)) {
			tool_err("listener failed (RDMA device removed?)");
			return EXIT_FAIL;
		}
		if (pfd[0].revents & POLLIN) {
			unsigned int before = s->nconns + s->nchildren;

			if (accept_new(s))
				return EXIT_FAIL;
			accepted += s->nconns + s->nchildren - before;
		}
		/* Walk backwards: conn_end moves the last entry into a hole. */
		for (i = n - 1; i >= 1; i--) {
			unsigned int idx = i - 1;

			if (idx < s->nconns && s->conns[idx]->fd == pfd[i].fd &&
			    (pfd[i].revents & (POLLIN | POLLHUP | POLLERR)))
				conn_rx(s, idx);
		}
	}
	return EXIT_OK;
}

static void listen_help(void)
{
	printf("Usage: rdmachan listen ADDR[:PORT] [--echo | --sink [-k] | --target [--region SIZE]]\n"
	       "                       [-n CONNS] [-q] [OPTIONS]\n"
	       "Accept channels on ADDR (port %d by default, 0 for any free port)\n"
	       "and print each message received as a line (JSON lines with -j),\n"
	       "or send it back (--echo, the server for \"rdmachan ping\"), or\n"
	       "count and drop it (--sink, the server for \"rdmachan bench\").\n"
	       "  -k, --kernel        echo or sink in the kernel (RDMACHAN_IOC_BENCH),\n"
	       "                      one child process per channel: the server of\n"
	       "                      \"ping --kernel\" and \"bench --kernel\"\n"
	       "      --target        the in-kernel target of \"bench --kernel --op\n"
	       "                      write|read\": each channel's child registers a\n"
	       "                      region for remote READ and WRITE and sends its\n"
	       "                      descriptor, until the peer closes (implies -k)\n"
	       "      --region SIZE   the target's region (default 1m): at least the\n"
	       "                      initiator's BATCH * SIZE\n"
	       "  -n, --conns N       exit after N channels have ended\n"
	       "  -q, --quiet         no accept/close lines (sink totals stay)\n"
	       CHAN_OPTS_HELP, TOOL_DEFAULT_PORT);
}

static void recv_help(void)
{
	printf("Usage: rdmachan recv ADDR[:PORT] [-c COUNT] [OPTIONS]\n"
	       "Accept one channel on ADDR, print its messages as lines (JSON\n"
	       "lines with -j) until the peer closes or COUNT have arrived.\n"
	       "  -c, --count N       stop after N messages\n"
	       CHAN_OPTS_HELP);
}

static int run_server(struct server *s, const char *addr, struct chan_args *a)
{
	struct sockaddr_storage ss;
	struct sigaction sa;
	char buf[64];
	int ctl, ret;

	if (parse_listen_addr(addr, TOOL_DEFAULT_PORT, &ss))
		return tool_usage_err(s->cmd, "'%s' is not ADDR[:PORT]", addr);
	ctl = ctl_open();
	if (ctl < 0)
		return EXIT_FAIL;
	s->lfd = chan_listen_on(ctl, &ss, a);
	close(ctl);
	if (s->lfd < 0)
		return EXIT_FAIL;
	/* accept never waits: a connection may vanish before its accept */
	fcntl(s->lfd, F_SETFL, fcntl(s->lfd, F_GETFL) | O_NONBLOCK);
	format_addr(&ss, buf, sizeof(buf));
	if (tool.json) {
		json_obj_open(&tool.j);
		json_kv_str(&tool.j, "event", "listening");
		json_kv_str(&tool.j, "addr", buf);
		json_obj_close(&tool.j);
		json_end(&tool.j);
	} else {
		fprintf(stderr, "listening on %s\n", buf);
	}
	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_signal;
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	signal(SIGPIPE, SIG_IGN);
	ret = serve(s);
	for (unsigned int i = 0; i < s->nchildren; i++)
		kill(s->children[i], SIGTERM);
	reap_children(s, true);
	while (s->nconns)
		conn_end(s, s->nconns - 1, "closed", 0);
	close(s->lfd);
	return ret;
}

int cmd_listen(int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "echo", no_argument, NULL, 'e' },
		{ "sink", no_argument, NULL, 's' },
		{ "conns", required_argument, NULL, 'n' },
		{ "quiet", no_argument, NULL, 'q' },
		{ "kernel", no_argument, NULL, 'k' },
		{ "target", no_argument, NULL, LISTEN_OPT_TARGET },
		{ "region", required_argument, NULL, LISTEN_OPT_REGION },
		CHAN_LONG_OPTS,
		{ NULL, 0, NULL, 0 }
	};
	struct server s = { .cmd = "listen", .mode = MODE_PRINT,
			    .region = DEFAULT_REGION };
	bool has_region = false;
	struct chan_args a = { 0 };
	int c, r;

	optind = 1;
	opterr = 0;
	while ((c = CMD_GETOPT(argc, argv, "esn:qkh" CHAN_GETOPT_SHORT, longopts)) != -1) {
		switch (c) {
		case 'e':
			s.mode = MODE_ECHO;
			break;
		case 's':
			s.mode = MODE_SINK;
			break;
		case 'n':
			if (parse_uint(optarg, 1, UINT32_MAX, &s.max_conns))
				return tool_usage_err("listen", "invalid count '%s'", optarg);
			break;
		case 'q':
			s.quiet = true;
			break;
		case 'k':
			s.kernel = true;
			break;
		case LISTEN_OPT_TARGET:
			s.mode = MODE_TARGET;
			s.kernel = true;
			break;
		case LISTEN_OPT_REGION:
			if (parse_size(optarg, 1, RDMACHAN_BENCH_MAX_REGION, &s.region))
				return tool_usage_err("listen", "invalid region '%s' (1 to %u bytes)",
						      optarg, RDMACHAN_BENCH_MAX_REGION);
			has_region = true;
			break;
		case 'h':
			listen_help();
			return EXIT_OK;
		default:
			r = chan_opt("listen", c, optarg, &a);
			if (r < 0)
				return EXIT_USAGE;
			if (!r)
				return tool_usage_err("listen", "unknown or incomplete option '%s'",
						      argv[optind - 2]);
		}
	}
	argc -= optind - 1;
	argv += optind - 1;
	if (argc != 1)
		return tool_usage_err("listen", argc ? "one address expected" :
				      "an address is needed");
	if (s.kernel && s.mode == MODE_PRINT)
		return tool_usage_err("listen", "--kernel needs --echo, --sink or --target");
	if (has_region && s.mode != MODE_TARGET)
		return tool_usage_err("listen", "--region goes with --target");
	return run_server(&s, argv[0], &a);
}

int cmd_recv(int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "count", required_argument, NULL, 'c' },
		CHAN_LONG_OPTS,
		{ NULL, 0, NULL, 0 }
	};
	struct server s = { .cmd = "recv", .mode = MODE_PRINT, .max_conns = 1,
			    .quiet = true };
	struct chan_args a = { 0 };
	int c, r;

	optind = 1;
	opterr = 0;
	while ((c = CMD_GETOPT(argc, argv, "c:h" CHAN_GETOPT_SHORT, longopts)) != -1) {
		switch (c) {
		case 'c':
			if (parse_uint(optarg, 1, UINT64_MAX, &s.max_msgs))
				return tool_usage_err("recv", "invalid count '%s'", optarg);
			break;
		case 'h':
			recv_help();
			return EXIT_OK;
		default:
			r = chan_opt("recv", c, optarg, &a);
			if (r < 0)
				return EXIT_USAGE;
			if (!r)
				return tool_usage_err("recv", "unknown or incomplete option '%s'",
						      argv[optind - 2]);
		}
	}
	argc -= optind - 1;
	argv += optind - 1;
	if (argc != 1)
		return tool_usage_err("recv", argc ? "one address expected" :
				      "an address is needed");
	return run_server(&s, argv[0], &a);
}
