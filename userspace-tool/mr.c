// SPDX-License-Identifier: GPL-2.0-only
/*
 * mr.c: "rdmachan reg": the memory server of the one-sided RDMA
 * commands.  One buffer for the whole process, registered on every
 * accepted channel and described to its peer in a message; the channels
 * are served at once, their requests ("dereg", "sum", "peek OFF LEN")
 * answered, the peer's WRITE_WITH_IMM notices counted.
 *
 * Nothing waits for one peer: an answer that finds no credit (the peer
 * does not read its answers) is kept, and that channel is not read
 * again until the answer went out (poll for POLLOUT), while the others
 * are served.
 */
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "rdma.h"

#define MR_MAX_CONNS	1024
#define RX_BURST	64	/* messages per channel per poll round */

struct mr_conn {
	int fd;
	unsigned int id;
	char peer[64];
	bool registered;
	uint32_t handle;
	uint32_t access;	/* the rights it was registered with */
	uint32_t max_msg;
	unsigned char *msg;
	unsigned char *out;	/* an answer waiting for a credit */
	uint32_t out_len;
	bool out_pending;
	uint64_t write_imm;
	uint64_t unknown;	/* messages that were no request: not answered */
};

struct mr_server {
	unsigned char *buf;
	uint64_t size;
	uint32_t access;
	bool access_default;	/* no --access: all the device supports */
	int lfd;
	uint64_t max_conns, accepted, ended;
	uint64_t write_imm;
	unsigned int reg_errors;
	bool quiet;
	struct mr_conn *conns[MR_MAX_CONNS];
	unsigned int nconns;
};

static volatile sig_atomic_t stop_requested;

static void on_signal(int sig)
{
	(void)sig;
	stop_requested = 1;
}

/* event: a JSON line, or a line on stderr; @err as its errno name */
static void event(struct mr_server *s, struct mr_conn *c, const char *what, int err,
		  const struct rdmachan_reg_mr *r)
{
	char access[80];

	if (s->quiet && !err)
		return;
	if (!tool.json) {
		fprintf(stderr, "chan %u: %s", c->id, what);
		if (r)
			fprintf(stderr, " %llu bytes for %s: addr 0x%llx rkey 0x%x",
				(unsigned long long)r->length, c->peer,
				(unsigned long long)r->remote.addr, r->remote.rkey);
		if (!strcmp(what, "closed") || !strcmp(what, "failed"))
			fprintf(stderr, " after %llu write_imm, %llu unknown requests",
				(unsigned long long)c->write_imm,
				(unsigned long long)c->unknown);
		if (err)
			fprintf(stderr, ": %s (%s)", strerror(err), errno_name(err));
		fputc('\n', stderr);
		return;
	}
	json_obj_open(&tool.j);
	json_kv_str(&tool.j, "event", what);
	json_kv_u64(&tool.j, "chan", c->id);
	json_kv_str(&tool.j, "peer", c->peer);
	if (r) {
		char hex[24];

		snprintf(hex, sizeof(hex), "0x%llx", (unsigned long long)r->remote.addr);
		json_kv_str(&tool.j, "addr", hex);
		json_kv_u64(&tool.j, "length", r->remote.length);
		snprintf(hex, sizeof(hex), "0x%x", r->remote.rkey);
		json_kv_str(&tool.j, "rkey", hex);
	}
	if (!strcmp(what, "registered") || !strcmp(what, "reg_failed")) {
		format_access(c->access, access, sizeof(access));
		json_kv_str(&tool.j, "access", access);
	}
	if (!strcmp(what, "closed") || !strcmp(what, "failed")) {
		json_kv_u64(&tool.j, "write_imm", c->write_imm);
		json_kv_u64(&tool.j, "unknown_requests", c->unknown);
	}
	if (err)
		json_kv_str(&tool.j, "error", errno_name(err));
	json_obj_close(&tool.j);
	json_end(&tool.j);
}

static void conn_end(struct mr_server *s, unsigned int idx, const char *what, int err)
{
	struct mr_conn *c = s->conns[idx];

	if (c->registered)
		mr_dereg(c->fd, c->handle);	/* a failed channel may refuse */
	event(s, c, what, err, NULL);
	close(c->fd);
	free(c->msg);
	free(c->out);
	free(c);
	s->conns[idx] = s->conns[--s->nconns];
	s->ended++;
}

/*
 * Send an answer, or keep it when the peer has no credit for it (it is
 * not reading): serve() then waits for POLLOUT on this channel, and
 * reads nothing more from it, instead of blocking every other one.
 * Returns 0 (sent or kept) or -errno.
 */
static int send_reply(struct mr_conn *c, const void *buf, size_t len)
{
	int r;

	while ((r = chan_send_nowait(c->fd, buf, len)) == -EINTR)
		;
	if (r != -EAGAIN)
		return r;
	memcpy(c->out, buf, len);
	c->out_len = len;
	c->out_pending = true;
	return 0;
}

/* Send the kept answer if a credit came: 0 (sent or still kept) or -errno */
static int flush_reply(struct mr_conn *c)
{
	int r;

	while ((r = chan_send_nowait(c->fd, c->out, c->out_len)) == -EINTR)
		;
	if (r == -EAGAIN)
		return 0;
	if (!r)
		c->out_pending = false;
	return r;
}

/* Register the buffer on a new channel and describe it to the peer. */
static int conn_start(struct mr_server *s, struct mr_conn *c)
{
	struct rdmachan_reg_mr r;
	char desc[MR_DESC_MAX];
	int err;

	c->access = s->access;
	err = mr_reg(c->fd, s->buf, s->size, c->access, &r);
	if (err == -EOPNOTSUPP && s->access_default &&
	    (c->access & RDMACHAN_ACCESS_REMOTE_ATOMIC)) {
		/* iWARP: no atomics; the default is what the device has */
		c->access &= ~RDMACHAN_ACCESS_REMOTE_ATOMIC;
		err = mr_reg(c->fd, s->buf, s->size, c->access, &r);
	}
	/* a peer gone before its channel was served: not a registration error */
	if (err == -ECONNRESET || err == -ENOTCONN || err == -EPIPE)
		return err;
	if (err) {
		s->reg_errors++;
		event(s, c, "reg_failed", -err, NULL);
		snprintf(desc, sizeof(desc), MR_DESC_ERROR "%s", errno_name(err));
	} else {
		c->registered = true;
		c->handle = r.handle;
		event(s, c, "registered", 0, &r);
		mr_desc_format(&r.remote, desc, sizeof(desc));
	}
	return send_reply(c, desc, strlen(desc));
}

static void accept_new(struct mr_server *s)
{
	struct rdmachan_chan_info ci;
	struct sockaddr_storage peer;
	struct mr_conn *c;
	int fd, fl, err;

	fd = chan_accept_one(s->lfd, &peer);
	if (fd < 0)
		return;
	/* poll says when to receive, and when a kept answer may go */
	fl = fcntl(fd, F_GETFL);
	if (fl >= 0)
		fcntl(fd, F_SETFL, fl & ~O_NONBLOCK);
	s->accepted++;
	c = calloc(1, sizeof(*c));
	if (!c || chan_get_info(fd, &ci) ||
	    !(c->msg = malloc((ci.max_msg_size ? ci.max_msg_size : 1) + 1)) ||
	    !(c->out = malloc(ci.max_msg_size > MR_DESC_MAX ? ci.max_msg_size :
			      MR_DESC_MAX))) {
		tool_err("cannot serve a channel: out of memory or no channel info");
		if (c)
			free(c->msg);
		free(c);
		close(fd);
		s->ended++;
		return;
	}
	c->fd = fd;
	c->id = ci.id;
	c->max_msg = ci.max_msg_size ? ci.max_msg_size : 1;
	format_addr(&peer, c->peer, sizeof(c->peer));
	s->conns[s->nconns++] = c;
	err = conn_start(s, c);
	if (err)
		conn_end(s, s->nconns - 1, "failed", -err);
}

/*
 * Answer one request; 0, or -errno when the reply could not be sent.
 * Anything else is counted, not answered: a peer that sends messages
 * without reading (e.g. "bench --op send") must not block the server.
 */
static int serve_request(struct mr_server *s, struct mr_conn *c, uint32_t len)
{
	char reply[64];
	struct mr_req q;
	int err;

	mr_req_parse((const char *)c->msg, len, &q);
	switch (q.type) {
	case MR_REQ_DEREG:
		err = c->registered ? mr_dereg(c->fd, c->handle) : -ENOENT;
		if (!err)
			c->registered = false;
		event(s, c, "dereg", -err, NULL);
		if (err)
			snprintf(reply, sizeof(reply), "dereg error %s", errno_name(err));
		else
			snprintf(reply, sizeof(reply), "dereg ok");
		break;
	case MR_REQ_SUM:
		snprintf(reply, sizeof(reply), "sum %016" PRIx64 " %" PRIu64,
			 fnv1a64(FNV64_INIT, s->buf, s->size),
			 s->size >= 8 ? le64_load(s->buf) : 0);
		break;
	case MR_REQ_PEEK:
		if (!q.len || q.off > s->size || q.len > s->size - q.off)
			err = ERANGE;
		else if (q.len > c->max_msg)
			err = EMSGSIZE;
		else
			return send_reply(c, s->buf + q.off, q.len);
		snprintf(reply, sizeof(reply), "peek error %s", errno_name(err));
		break;
	default:
		c->unknown++;
		return 0;
	}
	return send_reply(c, reply, strlen(reply));
}

/* Drain what channel @idx has queued; it may end (and leave the array). */
static void conn_rx(struct mr_server *s, unsigned int idx)
{
	struct mr_conn *c = s->conns[idx];
	struct rdmachan_user_msg m;
	unsigned int n;
	int r;

	for (n = 0; n < RX_BURST; n++) {
		r = chan_recv_msg(c->fd, c->msg, c->max_msg, true, &m);
		if (r == -EAGAIN || r == -EINTR)
			return;
		if (r) {
			conn_end(s, idx, r > 0 ? "closed" : "failed", r > 0 ? 0 : -r);
			return;
		}
		if (m.flags & RDMACHAN_MSG_RDMA_IMM) {
			c->write_imm++;
			s->write_imm++;
			if (!s->quiet && tool.json) {
				json_obj_open(&tool.j);
				json_kv_str(&tool.j, "event", "write_imm");
				json_kv_u64(&tool.j, "chan", c->id);
				json_kv_u64(&tool.j, "imm", m.imm);
				json_obj_close(&tool.j);
				json_end(&tool.j);
			} else if (!s->quiet) {
				fprintf(stderr, "chan %u: write_imm imm %u\n", c->id, m.imm);
			}
			continue;
		}
		r = serve_request(s, c, m.len);
		if (r) {
			conn_end(s, idx, "failed", -r);
			return;
		}
		if (c->out_pending)	/* no more until the answer went out */
			return;
	}
}

/* Channel @idx polled with @rev: send its kept answer, read what came. */
static void conn_ready(struct mr_server *s, unsigned int idx, short rev)
{
	struct mr_conn *c = s->conns[idx];
	int r;

	if (c->out_pending) {
		r = flush_reply(c);
		if (!r && c->out_pending && (rev & (POLLHUP | POLLERR)))
			r = -ECONNRESET;	/* gone without taking its answer */
		if (r) {
			conn_end(s, idx, "failed", -r);
			return;
		}
		if (c->out_pending)
			return;
	} else if (!(rev & (POLLIN | POLLHUP | POLLERR))) {
		return;
	}
	conn_rx(s, idx);
}

static int serve(struct mr_server *s)
{
	struct pollfd pfd[MR_MAX_CONNS + 1];
	unsigned int i, n;

	while (!stop_requested && s->ended < s->max_conns) {
		n = 0;
		pfd[n].fd = s->accepted < s->max_conns ? s->lfd : -1;
		pfd[n++].events = POLLIN;
		for (i = 0; i < s->nconns; i++) {
			pfd[n].fd = s->conns[i]->fd;
			pfd[n++].events = s->conns[i]->out_pending ? POLLOUT : POLLIN;
		}
		if (poll(pfd, n, -1) < 0) {
			if (errno == EINTR)
				continue;
			tool_err("poll: %s", strerror(errno));
			return EXIT_FAIL;
		}
		if (pfd[0].revents & (POLLERR | POLLHUP | POLLNVAL)) {
			tool_err("listener failed (RDMA device removed?)");
			return EXIT_FAIL;
		}
		/* Walk backwards: conn_end moves the last entry into a hole. */
		for (i = n - 1; i >= 1; i--) {
			unsigned int idx = i - 1;

			if (idx < s->nconns && s->conns[idx]->fd == pfd[i].fd &&
			    pfd[i].revents)
				conn_ready(s, idx, pfd[i].revents);
		}
		if (pfd[0].revents & POLLIN)
			accept_new(s);
	}
	return EXIT_OK;
}

static void summary(const struct mr_server *s)
{
	uint64_t h = fnv1a64(FNV64_INIT, s->buf, s->size);
	uint64_t first = s->size >= 8 ? le64_load(s->buf) : 0;
	char hex[24];

	if (!tool.json) {
		printf("%llu channels, %llu write_imm, fnv64 %016" PRIx64 ", first u64 %" PRIu64 "%s\n",
		       (unsigned long long)s->ended, (unsigned long long)s->write_imm,
		       h, first, s->reg_errors ? ", registrations failed" : "");
		return;
	}
	json_obj_open(&tool.j);
	json_kv_u64(&tool.j, "channels", s->ended);
	json_kv_u64(&tool.j, "write_imm", s->write_imm);
	snprintf(hex, sizeof(hex), "%016" PRIx64, h);
	json_kv_str(&tool.j, "fnv64", hex);
	json_kv_u64(&tool.j, "first_u64", first);
	snprintf(hex, sizeof(hex), "0x%" PRIx64, first);
	json_kv_str(&tool.j, "first_u64_hex", hex);
	json_kv_u64(&tool.j, "size", s->size);
	json_kv_u64(&tool.j, "reg_errors", s->reg_errors);
	json_obj_close(&tool.j);
	json_end(&tool.j);
}

static int run(struct mr_server *s, const char *addr, struct chan_args *a)
{
	struct sockaddr_storage ss;
	struct sigaction sa;
	char buf[64];
	int ctl, ret;

	if (parse_listen_addr(addr, TOOL_DEFAULT_PORT, &ss))
		return tool_usage_err("reg", "'%s' is not ADDR[:PORT]", addr);
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
	while (s->nconns)
		conn_end(s, s->nconns - 1, "closed", 0);
	close(s->lfd);
	summary(s);
	if (ret == EXIT_OK && s->reg_errors)
		ret = EXIT_FAIL;
	return ret;
}

static void reg_help(void)
{
	printf("Usage: rdmachan reg ADDR[:PORT] --size SIZE [--access LIST] [--fill BYTE]\n"
	       "                    [--offset-in-page N] [-n COUNT] [-q] [OPTIONS]\n"
	       "Serve one buffer to the one-sided RDMA commands (write, read, atomic,\n"
	       "bench --op write|read): accept COUNT channels, serve them at once,\n"
	       "register the buffer on each and send its peer the descriptor\n"
	       "\"rdmachan-mr addr=0x.. length=N rkey=0x..\"; answer the requests\n"
	       "\"dereg\", \"sum\" and \"peek OFF LEN\"; count WRITE_WITH_IMMs.  When\n"
	       "all COUNT channels ended, print a summary (FNV-1a 64 of the buffer,\n"
	       "its first u64) and exit (1 if a registration failed).\n"
	       "  -s, --size SIZE     the buffer's size (required)\n"
	       "  -a, --access LIST   rights, comma-separated: local-write,\n"
	       "                      remote-write, remote-read, remote-atomic,\n"
	       "                      all, none (default: all the device has;\n"
	       "                      iWARP has no remote-atomic)\n"
	       "      --fill BYTE     initial content of every byte (default 0)\n"
	       "      --offset-in-page N\n"
	       "                      start the buffer N bytes into a page\n"
	       "  -n, --conns COUNT   channels to serve (default 1)\n"
	       "  -q, --quiet         only the summary (and errors)\n"
	       CHAN_OPTS_HELP);
}

int cmd_reg(int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "size", required_argument, NULL, 's' },
		{ "access", required_argument, NULL, 'a' },
		{ "fill", required_argument, NULL, 'f' },
		{ "offset-in-page", required_argument, NULL, 'o' },
		{ "conns", required_argument, NULL, 'n' },
		{ "quiet", no_argument, NULL, 'q' },
		CHAN_LONG_OPTS,
		{ NULL, 0, NULL, 0 }
	};
	struct mr_server s = {
		.access = RDMACHAN_ACCESS_ALL, .access_default = true, .max_conns = 1,
	};
	struct chan_args a = { 0 };
	uint64_t fill = 0, in_page = 0;
	long page = sysconf(_SC_PAGESIZE);
	void *base;
	int c, r, ret;

	if (page <= 0)
		page = 4096;
	optind = 1;
	opterr = 0;
	while ((c = CMD_GETOPT(argc, argv, "s:a:n:qh" CHAN_GETOPT_SHORT, longopts)) != -1) {
		switch (c) {
		case 's':
			if (parse_size(optarg, 1, 1ULL << 40, &s.size))
				return tool_usage_err("reg", "invalid size '%s'", optarg);
			break;
		case 'a':
			if (parse_access_list(optarg, &s.access))
				return tool_usage_err("reg", "invalid access list '%s'", optarg);
			s.access_default = false;
			break;
		case 'f':
			if (parse_uint(optarg, 0, 255, &fill))
				return tool_usage_err("reg", "invalid byte '%s'", optarg);
			break;
		case 'o':
			if (parse_uint(optarg, 0, page - 1, &in_page))
				return tool_usage_err("reg", "invalid offset in page '%s'", optarg);
			break;
		case 'n':
			if (parse_uint(optarg, 1, MR_MAX_CONNS, &s.max_conns))
				return tool_usage_err("reg", "invalid count '%s' (1 to %d)",
						      optarg, MR_MAX_CONNS);
			break;
		case 'q':
			s.quiet = true;
			break;
		case 'h':
			reg_help();
			return EXIT_OK;
		default:
			r = chan_opt("reg", c, optarg, &a);
			if (r < 0)
				return EXIT_USAGE;
			if (!r)
				return tool_usage_err("reg", "unknown or incomplete option '%s'",
						      argv[optind - 2]);
		}
	}
	argc -= optind - 1;
	argv += optind - 1;
	if (argc != 1)
		return tool_usage_err("reg", argc ? "one address expected" :
				      "an address is needed");
	if (!s.size)
		return tool_usage_err("reg", "--size is needed");
	if (posix_memalign(&base, page, s.size + in_page)) {
		tool_err("cannot allocate %llu bytes", (unsigned long long)s.size);
		return EXIT_FAIL;
	}
	s.buf = (unsigned char *)base + in_page;
	memset(s.buf, fill, s.size);
	ret = run(&s, argv[0], &a);
	free(base);
	return ret;
}
