// SPDX-License-Identifier: GPL-2.0-only
/*
 * mr_reg.c: "rdmachan mr reg": the memory server of the one-sided RDMA
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
#include <inttypes.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "rdma.h"
#include "serve.h"

#define RX_BURST	64	/* messages per channel per poll round */

struct mr_conn {
	struct srv_conn c;
	bool registered;
	uint32_t handle;
	uint32_t access;	/* the rights it was registered with */
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
	uint64_t write_imm;
	unsigned int reg_errors;
	bool quiet;
};

static struct mr_server *mrs(struct srv *s)
{
	return s->priv;
}

/* event: a JSON line, or a line on stderr; @err as its errno name */
static void event(struct srv *s, struct mr_conn *c, const char *what, int err,
		  const struct rdmachan_reg_mr *r)
{
	char access[80], hex[24];

	if (mrs(s)->quiet && !err)
		return;
	open_record(stderr);
	print_str(PRINT_JSON, "event", NULL, what);
	print_uint(PRINT_ANY, "chan", "chan %u: ", c->c.id);
	print_str(PRINT_FP, NULL, "%s", what);
	print_str(PRINT_JSON, "peer", NULL, c->c.peer);
	if (r) {
		print_u64(PRINT_FP, NULL, " %llu bytes", r->length);
		print_str(PRINT_FP, NULL, " for %s", c->c.peer);
		snprintf(hex, sizeof(hex), "0x%llx", (unsigned long long)r->remote.addr);
		print_str(PRINT_ANY, "addr", ": addr %s", hex);
		print_u64(PRINT_JSON, "length", NULL, r->remote.length);
		snprintf(hex, sizeof(hex), "0x%x", r->remote.rkey);
		print_str(PRINT_ANY, "rkey", " rkey %s", hex);
	}
	if (!strcmp(what, "registered") || !strcmp(what, "reg_failed")) {
		format_access(c->access, access, sizeof(access));
		print_str(PRINT_JSON, "access", NULL, access);
	}
	if (!strcmp(what, "closed") || !strcmp(what, "failed")) {
		print_u64(PRINT_ANY, "write_imm", " after %llu write_imm", c->write_imm);
		print_u64(PRINT_ANY, "unknown_requests", ", %llu unknown requests",
			  c->unknown);
	}
	if (err) {
		print_fp(": %s", strerror(err));
		print_str(PRINT_ANY, "error", " (%s)", errno_name(err));
	}
	print_nl();
	close_record();
}

static void conn_end(struct srv *s, unsigned int idx, const char *what, int err)
{
	struct mr_conn *c = (struct mr_conn *)s->conns[idx];

	if (c->registered)
		mr_dereg(c->c.fd, c->handle);	/* a failed channel may refuse */
	event(s, c, what, err, NULL);
	free(c->msg);
	free(c->out);
	srv_drop(s, idx, true);
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

	while ((r = chan_send_nowait(c->c.fd, buf, len)) == -EINTR)
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

	while ((r = chan_send_nowait(c->c.fd, c->out, c->out_len)) == -EINTR)
		;
	if (r == -EAGAIN)
		return 0;
	if (!r)
		c->out_pending = false;
	return r;
}

/* Register the buffer on a new channel and describe it to the peer. */
static int conn_register(struct srv *srv, struct mr_conn *c)
{
	struct mr_server *s = mrs(srv);
	struct rdmachan_reg_mr r;
	char desc[MR_DESC_MAX];
	int err;

	c->access = s->access;
	err = mr_reg(c->c.fd, s->buf, s->size, c->access, &r);
	if (err == -EOPNOTSUPP && s->access_default &&
	    (c->access & RDMACHAN_ACCESS_REMOTE_ATOMIC)) {
		/* iWARP: no atomics; the default is what the device has */
		c->access &= ~RDMACHAN_ACCESS_REMOTE_ATOMIC;
		err = mr_reg(c->c.fd, s->buf, s->size, c->access, &r);
	}
	/* a peer gone before its channel was served: not a registration error */
	if (err == -ECONNRESET || err == -ENOTCONN || err == -EPIPE)
		return err;
	if (err) {
		s->reg_errors++;
		event(srv, c, "reg_failed", -err, NULL);
		snprintf(desc, sizeof(desc), MR_DESC_ERROR "%s", errno_name(err));
	} else {
		c->registered = true;
		c->handle = r.handle;
		event(srv, c, "registered", 0, &r);
		mr_desc_format(&r.remote, desc, sizeof(desc));
	}
	return send_reply(c, desc, strlen(desc));
}

/* the channel's buffers: a request, and an answer kept */
static int conn_init(struct srv *s, struct srv_conn *sc)
{
	struct mr_conn *c = (struct mr_conn *)sc;

	(void)s;
	c->msg = malloc(sc->max_msg + 1);
	c->out = malloc(sc->max_msg > MR_DESC_MAX ? sc->max_msg : MR_DESC_MAX);
	if (c->msg && c->out)
		return 0;
	free(c->msg);
	free(c->out);
	return -1;
}

static void conn_start(struct srv *s, unsigned int idx)
{
	int err = conn_register(s, (struct mr_conn *)s->conns[idx]);

	if (err)
		conn_end(s, idx, "failed", -err);
}

/*
 * Answer one request; 0, or -errno when the reply could not be sent.
 * Anything else is counted, not answered: a peer that sends messages
 * without reading (e.g. "chan bench --op send") must not block the server.
 */
static int serve_request(struct srv *srv, struct mr_conn *c, uint32_t len)
{
	struct mr_server *s = mrs(srv);
	char reply[64];
	struct mr_req q;
	int err;

	mr_req_parse((const char *)c->msg, len, &q);
	switch (q.type) {
	case MR_REQ_DEREG:
		err = c->registered ? mr_dereg(c->c.fd, c->handle) : -ENOENT;
		if (!err)
			c->registered = false;
		event(srv, c, "dereg", -err, NULL);
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
		else if (q.len > c->c.max_msg)
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
static void conn_rx(struct srv *s, unsigned int idx)
{
	struct mr_conn *c = (struct mr_conn *)s->conns[idx];
	struct rdmachan_user_msg m;
	unsigned int n;
	int r;

	for (n = 0; n < RX_BURST; n++) {
		r = chan_recv_msg(c->c.fd, c->msg, c->c.max_msg, true, &m);
		if (r == -EAGAIN || r == -EINTR)
			return;
		if (r) {
			conn_end(s, idx, r > 0 ? "closed" : "failed", r > 0 ? 0 : -r);
			return;
		}
		if (m.flags & RDMACHAN_MSG_RDMA_IMM) {
			c->write_imm++;
			mrs(s)->write_imm++;
			if (mrs(s)->quiet)
				continue;
			open_record(stderr);
			print_str(PRINT_JSON, "event", NULL, "write_imm");
			print_uint(PRINT_ANY, "chan", "chan %u: write_imm", c->c.id);
			print_uint(PRINT_ANY, "imm", " imm %u\n", m.imm);
			close_record();
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
static void conn_ready(struct srv *s, unsigned int idx, short rev)
{
	struct mr_conn *c = (struct mr_conn *)s->conns[idx];
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

/* a channel with a kept answer waits for a credit, and is not read */
static short conn_events(const struct srv *s, const struct srv_conn *sc)
{
	(void)s;
	return ((const struct mr_conn *)sc)->out_pending ? POLLOUT : POLLIN;
}

/* When the last channel ended: the buffer's checksum and first u64. */
static void summary(struct srv *srv)
{
	const struct mr_server *s = mrs(srv);
	uint64_t h = fnv1a64(FNV64_INIT, s->buf, s->size);
	uint64_t first = s->size >= 8 ? le64_load(s->buf) : 0;
	char hex[24];

	open_record(stdout);
	print_u64(PRINT_ANY, "channels", "%llu channels", srv->ended);
	print_u64(PRINT_ANY, "write_imm", ", %llu write_imm", s->write_imm);
	snprintf(hex, sizeof(hex), "%016" PRIx64, h);
	print_str(PRINT_ANY, "fnv64", ", fnv64 %s", hex);
	print_u64(PRINT_ANY, "first_u64", ", first u64 %llu", first);
	snprintf(hex, sizeof(hex), "0x%" PRIx64, first);
	print_str(PRINT_JSON, "first_u64_hex", NULL, hex);
	print_u64(PRINT_JSON, "size", NULL, s->size);
	print_uint(PRINT_JSON, "reg_errors", NULL, s->reg_errors);
	if (s->reg_errors)
		print_fp(", registrations failed");
	print_nl();
	close_record();
}

static const struct srv_ops reg_ops = {
	.conn_size = sizeof(struct mr_conn),
	.init = conn_init,
	.start = conn_start,
	.events = conn_events,
	.ready = conn_ready,
	.end = conn_end,
	.finish = summary,
};

static void reg_help(void)
{
	printf("Usage: rdmachan mr reg ADDR[:PORT] --size SIZE [--access LIST] [--fill BYTE]\n"
	       "                       [--offset-in-page N] [-n COUNT] [-q] [OPTIONS]\n"
	       "Serve one buffer to the one-sided RDMA commands (rdma write, read,\n"
	       "atomic, chan bench --op write|read): accept COUNT channels, serve them at once,\n"
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

int cmd_mr_reg(int argc, char **argv)
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
	static struct srv srv = { .ops = &reg_ops, .cmd = "mr reg", .max_conns = 1 };
	struct mr_server s = {
		.access = RDMACHAN_ACCESS_ALL, .access_default = true,
	};
	struct chan_args a = { 0 };
	uint64_t fill = 0, in_page = 0;
	long page = sysconf(_SC_PAGESIZE);
	void *base;
	int c, ret;

	if (page <= 0)
		page = 4096;
	CMD_GETOPT_INIT();
	while ((c = CMD_GETOPT(argc, argv, "s:a:n:qh" CHAN_GETOPT_SHORT, longopts)) != -1) {
		switch (c) {
		case 's':
			if (parse_size(optarg, 1, 1ULL << 40, &s.size))
				return tool_usage_err("mr reg", "invalid size '%s'", optarg);
			break;
		case 'a':
			if (parse_access_list(optarg, &s.access))
				return tool_usage_err("mr reg", "invalid access list '%s'", optarg);
			s.access_default = false;
			break;
		case 'f':
			if (parse_uint(optarg, 0, 255, &fill))
				return tool_usage_err("mr reg", "invalid byte '%s'", optarg);
			break;
		case 'o':
			if (parse_uint(optarg, 0, page - 1, &in_page))
				return tool_usage_err("mr reg", "invalid offset in page '%s'", optarg);
			break;
		case 'n':
			if (parse_uint(optarg, 1, SRV_MAX_CONNS, &srv.max_conns))
				return tool_usage_err("mr reg", "invalid count '%s' (1 to %d)",
						      optarg, SRV_MAX_CONNS);
			break;
		case 'q':
			s.quiet = true;
			break;
		case 'h':
			reg_help();
			return EXIT_OK;
		default:
			if (chan_opt("mr reg", c, argv, &a))
				return EXIT_USAGE;
		}
	}
	if (cmd_one_addr("mr reg", &argc, &argv))
		return EXIT_USAGE;
	if (!s.size)
		return tool_usage_err("mr reg", "--size is needed");
	if (posix_memalign(&base, page, s.size + in_page)) {
		tool_err("cannot allocate %llu bytes", (unsigned long long)s.size);
		return EXIT_FAIL;
	}
	s.buf = (unsigned char *)base + in_page;
	memset(s.buf, fill, s.size);
	srv.priv = &s;
	ret = srv_run(&srv, argv[0], &a);
	if (ret == EXIT_OK && s.reg_errors)
		ret = EXIT_FAIL;
	free(base);
	return ret;
}
