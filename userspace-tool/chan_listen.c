// SPDX-License-Identifier: GPL-2.0-only
/*
 * chan_listen.c: "rdmachan chan listen": serve channels (serve.c): print,
 * echo or sink their messages, or be the in-kernel target of one-sided
 * bench runs; and the same server for "rdmachan chan recv".
 */
#include <errno.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/wait.h>
#include <unistd.h>

#include "serve.h"

#define BATCH_BYTES	(4U << 20)
#define MAX_BATCH	32U
#define DEFAULT_REGION	(1U << 20)

#define LISTEN_OPT_TARGET	1200
#define LISTEN_OPT_REGION	1201

struct conn {
	struct srv_conn c;
	unsigned int batch;
	struct rdmachan_user_msg *msgs;
	unsigned char *buf;
	uint64_t rx_msgs, rx_bytes;
	double t0;
	double kernel_secs;	/* --kernel: the run's length, as measured there */
};

struct listener {
	struct listen_opts o;
	pid_t children[SRV_MAX_CONNS];
	unsigned int nchildren;
};

static struct listener *lst(struct srv *s)
{
	return s->priv;
}

static int conn_init(struct srv *s, struct srv_conn *sc)
{
	struct conn *c = (struct conn *)sc;
	unsigned int i;

	(void)s;
	c->batch = BATCH_BYTES / sc->max_msg;
	if (c->batch > MAX_BATCH)
		c->batch = MAX_BATCH;
	if (c->batch < 1)
		c->batch = 1;
	c->msgs = calloc(c->batch, sizeof(*c->msgs));
	c->buf = malloc((size_t)c->batch * sc->max_msg);
	if (!c->msgs || !c->buf) {
		free(c->msgs);
		free(c->buf);
		return -1;
	}
	for (i = 0; i < c->batch; i++)
		c->msgs[i].buf = (uintptr_t)(c->buf + (size_t)i * sc->max_msg);
	c->t0 = now_sec();
	return 0;
}

static void conn_event(struct srv *s, struct conn *c, const char *what, int err)
{
	const struct listen_opts *o = &lst(s)->o;
	double dt = o->kernel ? c->kernel_secs : now_sec() - c->t0;
	bool target = o->mode == LISTEN_TARGET;

	if (o->quiet && !err && o->mode != LISTEN_SINK && !target)
		return;
	open_record(stderr);
	print_str(PRINT_JSON, "event", NULL, what);
	print_uint(PRINT_ANY, "chan", "chan %u: ", c->c.id);
	if (!strcmp(what, "accepted")) {
		print_str(PRINT_ANY, "peer", "accepted from %s\n", c->c.peer);
		close_record();
		return;
	}
	print_str(PRINT_JSON, "peer", NULL, c->c.peer);
	print_str(PRINT_FP, NULL, "%s", what);
	if (err)
		print_fp(": %s", strerror(err));
	print_u64(PRINT_JSON, "messages", NULL, c->rx_msgs);
	print_u64(PRINT_JSON, "bytes", NULL, c->rx_bytes);
	if (target) {
		print_u64(PRINT_FP, NULL, ": target of %llu bytes", o->region);
		print_double(PRINT_ANY, "seconds", " for %.3f s", dt);
		print_u64(PRINT_JSON, "region", NULL, o->region);
	} else {
		print_u64(PRINT_FP, NULL, " after %llu messages", c->rx_msgs);
		print_u64(PRINT_FP, NULL, ", %llu bytes", c->rx_bytes);
		print_double(PRINT_ANY, "seconds", " in %.3f s", dt);
		if (dt > 0 && c->rx_msgs)
			print_fp(" (%.0f msg/s, %.2f MB/s)", c->rx_msgs / dt,
				 c->rx_bytes / dt / 1e6);
	}
	if (err)
		print_str(PRINT_JSON, "error", NULL, strerror(err));
	print_nl();
	close_record();
}

static void conn_free(struct conn *c)
{
	free(c->msgs);
	free(c->buf);
}

static void conn_end(struct srv *s, unsigned int idx, const char *what, int err)
{
	struct conn *c = (struct conn *)s->conns[idx];

	conn_event(s, c, what, err);
	conn_free(c);
	srv_drop(s, idx, true);
}

static void print_msg(struct conn *c, const struct rdmachan_user_msg *m)
{
	open_record(stdout);
	print_uint(PRINT_JSON, "chan", NULL, c->c.id);
	print_uint(PRINT_JSON, "len", NULL, m->len);
	if (m->flags & RDMACHAN_MSG_IMM)
		print_uint(PRINT_ANY, "imm", "[imm 0x%08x] ", m->imm);
	print_bytes(PRINT_ANY, "data", (const void *)(uintptr_t)m->buf, m->len);
	print_nl();
	close_record();
}

/* Drain what channel @idx has queued; it may end (and leave the array). */
static void conn_rx(struct srv *s, unsigned int idx, short revents)
{
	const struct listen_opts *o = &lst(s)->o;
	struct conn *c = (struct conn *)s->conns[idx];
	struct rdmachan_mmsg mm;
	unsigned int i, want = c->batch;

	if (!(revents & (POLLIN | POLLHUP | POLLERR)))
		return;
	if (o->max_msgs && o->max_msgs - c->rx_msgs < want)
		want = o->max_msgs - c->rx_msgs;
	for (i = 0; i < want; i++) {
		c->msgs[i].len = c->c.max_msg;
		c->msgs[i].flags = 0;
	}
	memset(&mm, 0, sizeof(mm));
	mm.size = sizeof(mm);
	mm.flags = RDMACHAN_MSG_DONTWAIT;
	mm.msgs = (uintptr_t)c->msgs;
	mm.count = want;
	if (ioctl(c->c.fd, RDMACHAN_IOC_RECVMMSG, &mm) < 0) {
		if (errno == EAGAIN || errno == EINTR)
			return;
		conn_end(s, idx, errno == ECONNRESET && !c->rx_msgs ? "reset" : "failed",
			 errno);
		return;
	}
	if (mm.done == 0) {	/* orderly end: everything was read */
		conn_end(s, idx, "closed", 0);
		return;
	}
	for (i = 0; i < mm.done; i++) {
		c->rx_msgs++;
		c->rx_bytes += c->msgs[i].len;
		if (o->mode == LISTEN_PRINT)
			print_msg(c, &c->msgs[i]);
	}
	if (o->mode == LISTEN_ECHO) {
		struct rdmachan_mmsg out;
		unsigned int sent = 0;

		/* Blocking: waits for credits, as the peer reads its replies. */
		while (sent < mm.done) {
			memset(&out, 0, sizeof(out));
			out.size = sizeof(out);
			out.msgs = (uintptr_t)(c->msgs + sent);
			out.count = mm.done - sent;
			if (ioctl(c->c.fd, RDMACHAN_IOC_SENDMMSG, &out) < 0) {
				if (errno == EINTR && !tool_interrupted)
					continue;
				conn_end(s, idx, "failed", errno);
				return;
			}
			sent += out.done;
		}
	}
	if (o->max_msgs && c->rx_msgs >= o->max_msgs)
		conn_end(s, idx, "done", 0);
}

/*
 * --kernel: a child process runs the channel's echo or sink loop in the
 * kernel (RDMACHAN_IOC_BENCH), which returns when the peer closes; so
 * does --target's, which registers a region of --region bytes, sends the
 * peer its descriptor and waits for the peer's close.
 */
static void serve_in_kernel(struct srv *s, unsigned int idx)
{
	struct listener *l = lst(s);
	struct conn *c = (struct conn *)s->conns[idx];
	struct rdmachan_bench b = {
		.mode = l->o.mode == LISTEN_ECHO ? RDMACHAN_BENCH_ECHO : RDMACHAN_BENCH_SINK,
		.count = l->o.max_msgs,
	};
	pid_t pid;

	if (l->o.mode == LISTEN_TARGET) {
		/* the region is batch * msg_size: one "operation" of it all */
		b = (struct rdmachan_bench){
			.mode = RDMACHAN_BENCH_RDMA_TARGET,
			.msg_size = l->o.region, .batch = 1,
		};
	}

	fflush(stdout);
	fflush(stderr);
	pid = fork();
	if (pid < 0) {
		tool_err("fork: %s", strerror(errno));
		conn_end(s, idx, "closed", errno);
		return;
	}
	if (!pid) {
		int err = chan_bench(c->c.fd, &b) ? errno : 0;

		c->rx_msgs = b.msgs;
		c->rx_bytes = b.bytes;
		c->kernel_secs = b.elapsed_ns / 1e9;
		conn_end(s, idx, err ? "failed" : b.count && b.msgs >= b.count ?
			 "done" : "closed", err);
		fflush(stdout);
		_exit(err ? EXIT_FAIL : EXIT_OK);
	}
	l->children[l->nchildren++] = pid;
	/* the child owns the channel now; it ends when the child is reaped */
	conn_free(c);
	srv_drop(s, idx, false);
}

static void conn_start(struct srv *s, unsigned int idx)
{
	const struct listen_opts *o = &lst(s)->o;

	if (!o->quiet)
		conn_event(s, (struct conn *)s->conns[idx], "accepted", 0);
	if (o->kernel)
		serve_in_kernel(s, idx);
}

/* Count the --kernel children that ended; with @wait, wait for them all. */
static void reap_children(struct srv *s, bool wait)
{
	struct listener *l = lst(s);
	unsigned int i;

	for (i = 0; i < l->nchildren;) {
		if (waitpid(l->children[i], NULL, wait ? 0 : WNOHANG) > 0 ||
		    (wait && errno != EINTR)) {
			l->children[i] = l->children[--l->nchildren];
			s->ended++;
		} else {
			i++;
		}
	}
}

static int tick(struct srv *s)
{
	reap_children(s, false);
	return lst(s)->nchildren ? 100 : -1;
}

static void stop(struct srv *s)
{
	struct listener *l = lst(s);
	unsigned int i;

	for (i = 0; i < l->nchildren; i++)
		kill(l->children[i], SIGTERM);
	reap_children(s, true);
}

static const struct srv_ops listen_ops = {
	.conn_size = sizeof(struct conn),
	.init = conn_init,
	.start = conn_start,
	.ready = conn_rx,
	.end = conn_end,
	.tick = tick,
	.stop = stop,
};

int chan_listen_run(const struct listen_opts *o, const char *addr,
		    const struct chan_args *a)
{
	static struct listener l;
	static struct srv s;

	l.o = *o;
	s.ops = &listen_ops;
	s.cmd = o->cmd;
	s.priv = &l;
	s.max_conns = o->max_conns;
	return srv_run(&s, addr, a);
}

static void listen_help(void)
{
	printf("Usage: rdmachan chan listen ADDR[:PORT] [--echo | --sink [-k] | --target [--region SIZE]]\n"
	       "                            [-n CONNS] [-q] [OPTIONS]\n"
	       "Accept channels on ADDR (port %d by default, 0 for any free port)\n"
	       "and print each message received as a line (JSON lines with -j),\n"
	       "or send it back (--echo, the server for \"rdmachan chan ping\"), or\n"
	       "count and drop it (--sink, the server for \"rdmachan chan bench\").\n"
	       "  -k, --kernel        echo or sink in the kernel (RDMACHAN_IOC_BENCH),\n"
	       "                      one child process per channel: the server of\n"
	       "                      \"chan ping --kernel\" and \"chan bench --kernel\"\n"
	       "      --target        the in-kernel target of \"chan bench --kernel\n"
	       "                      --op write|read\": each channel's child registers a\n"
	       "                      region for remote READ and WRITE and sends its\n"
	       "                      descriptor, until the peer closes (implies -k)\n"
	       "      --region SIZE   the target's region (default 1m): at least the\n"
	       "                      initiator's BATCH * SIZE\n"
	       "  -n, --conns N       exit after N channels have ended\n"
	       "  -q, --quiet         no accept/close lines (sink totals stay)\n"
	       CHAN_OPTS_HELP, TOOL_DEFAULT_PORT);
}

int cmd_chan_listen(int argc, char **argv)
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
	struct listen_opts o = { .cmd = "chan listen", .mode = LISTEN_PRINT,
				 .region = DEFAULT_REGION };
	bool has_region = false;
	struct chan_args a = { 0 };
	int c;

	CMD_GETOPT_INIT();
	while ((c = CMD_GETOPT(argc, argv, "esn:qkh" CHAN_GETOPT_SHORT, longopts)) != -1) {
		switch (c) {
		case 'e':
			o.mode = LISTEN_ECHO;
			break;
		case 's':
			o.mode = LISTEN_SINK;
			break;
		case 'n':
			if (parse_uint(optarg, 1, UINT32_MAX, &o.max_conns))
				return tool_usage_err(o.cmd, "invalid count '%s'", optarg);
			break;
		case 'q':
			o.quiet = true;
			break;
		case 'k':
			o.kernel = true;
			break;
		case LISTEN_OPT_TARGET:
			o.mode = LISTEN_TARGET;
			o.kernel = true;
			break;
		case LISTEN_OPT_REGION:
			if (parse_size(optarg, 1, RDMACHAN_BENCH_MAX_REGION, &o.region))
				return tool_usage_err(o.cmd, "invalid region '%s' (1 to %u bytes)",
						      optarg, RDMACHAN_BENCH_MAX_REGION);
			has_region = true;
			break;
		case 'h':
			listen_help();
			return EXIT_OK;
		default:
			if (chan_opt(o.cmd, c, argv, &a))
				return EXIT_USAGE;
		}
	}
	if (cmd_one_addr(o.cmd, &argc, &argv))
		return EXIT_USAGE;
	if (o.kernel && o.mode == LISTEN_PRINT)
		return tool_usage_err(o.cmd, "--kernel needs --echo, --sink or --target");
	if (has_region && o.mode != LISTEN_TARGET)
		return tool_usage_err(o.cmd, "--region goes with --target");
	return chan_listen_run(&o, argv[0], &a);
}
