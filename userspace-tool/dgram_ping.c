// SPDX-License-Identifier: GPL-2.0-only
/*
 * dgram_ping.c: "rdmachan dgram ping": rounds of bursts of datagrams
 * against "dgram echo" or udaddy's server, which answer the queue pair
 * named in the immediate data: how many came back within the bound, and
 * each burst's round trip.
 */
#include <arpa/inet.h>
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "chan.h"		/* catch_signals(), now_sec() */
#include "dgram.h"

static void ping_help(void)
{
	printf("Usage: rdmachan dgram ping ADDR[:PORT] -I SRC [-c COUNT] [-s SIZE] [-b BURST] [-V] [-W DUR]\n"
	       "                [--busy-poll]\n"
	       "Resolve the endpoint serving ADDR's port (default %d): \"dgram echo\"\n"
	       "or udaddy's server; then COUNT rounds: send BURST datagrams, wait\n"
	       "for BURST replies.  Prints the datagrams sent, received and lost\n"
	       "and the round trip of a burst (first send to last reply).  Against\n"
	       "udaddy's server: -b 10 -c 1.\n"
	       "  -I, --src ADDR      the local address (its RDMA device) to send from\n"
	       "  -c, --count N       rounds (default 10; 0: until SIGINT or SIGTERM)\n"
	       "  -s, --size SIZE     bytes of each datagram (default %d), at most\n"
	       "                      the port's active MTU\n"
	       "  -b, --burst N       datagrams a round (default 1, at most %d)\n"
	       "  -V, --validate      each reply must be one of the datagrams sent\n"
	       "                      (dgram echo's; not udaddy's)\n"
	       "  -W, --wait DUR      bound of the resolution and of each round's\n"
	       "                      replies (default 5s)\n"
	       "      --busy-poll     the endpoint's waits poll its completion\n"
	       "                      queue, spinning a while before they sleep\n",
	       DGRAM_PORT, DGRAM_DEFAULT_SIZE, RDMACHAN_DGRAM_MAX_BATCH);
}

struct ping_run {
	const char *cmd;
	const struct dgram_args *a;
	struct dgram_ep ep;
	struct rdmachan_dgram_peer peer;
	char peer_str[80];
	struct dgram_bufs tx;		/* a burst, of a->size bytes each */
	struct dgram_bufs rx;		/* its replies, of max_size each */
	uint64_t sent, received, lost, late;
	uint64_t bursts;		/* complete ones, of the rtt */
	double rtt_min, rtt_max, rtt_sum;	/* us */
	uint64_t bad_round;		/* the round of EBADMSG */
	bool resolved;
};

/* round @round's burst into p->tx: the pattern of its datagrams */
static void ping_fill(struct ping_run *p, uint64_t round)
{
	struct rdmachan_dgram_msg *m;
	unsigned int i;

	for (i = 0; i < p->a->burst; i++) {
		m = &p->tx.msgs[i];
		memset(m, 0, sizeof(*m));
		m->buf = (uintptr_t)(p->tx.data + i * p->tx.room);
		m->len = p->a->size;
		m->flags = RDMACHAN_DGRAM_MSG_IMM;
		m->imm = htonl(p->ep.o.qpn);
		m->peer = p->peer;
		dgram_fill(p->tx.data + i * p->tx.room, p->a->size,
			   round * p->a->burst + i);
	}
}

/*
 * a datagram received in the round of datagrams @base..: 1 a reply, 0
 * none (another source's; with -V a late reply of an earlier round),
 * -EBADMSG (-V: none of the datagrams of this round)
 */
static int ping_reply(struct ping_run *p, const struct rdmachan_dgram_msg *m,
		      uint64_t base, unsigned int n, uint64_t *seen)
{
	const void *buf = (const void *)(uintptr_t)m->buf;
	size_t len = m->len < p->rx.room ? m->len : p->rx.room;
	uint64_t seq;

	if (m->peer.qpn != p->peer.qpn)
		return 0;
	if (!p->a->validate)
		return 1;
	if (!(m->flags & RDMACHAN_DGRAM_MSG_TRUNC) &&
	    dgram_match(buf, len, p->tx.data, p->a->size, n, seen) >= 0)
		return 1;
	if (!dgram_seq(buf, len, &seq) && seq < base) {
		p->late++;
		return 0;
	}
	return -EBADMSG;
}

static void ping_rtt(struct ping_run *p, double us)
{
	if (!p->bursts || us < p->rtt_min)
		p->rtt_min = us;
	if (!p->bursts || us > p->rtt_max)
		p->rtt_max = us;
	p->rtt_sum += us;
	p->bursts++;
}

/* wait for the @n replies of the burst sent at @t0; 0 or -errno */
static int ping_wait(struct ping_run *p, uint64_t base, unsigned int n,
		     double t0)
{
	double deadline = t0 + p->a->wait_ms / 1e3, left, last = t0;
	unsigned int got = 0;
	uint64_t seen = 0;
	int i, r, ret = 0;

	while (got < n && !tool_interrupted) {
		left = deadline - now_sec();
		if (left <= 0)
			break;
		r = dgram_recv(&p->ep, &p->rx, n - got, ceil(left * 1e3));
		if (r == -EAGAIN)
			break;
		if (r < 0) {
			ret = r;
			break;
		}
		last = now_sec();
		for (i = 0; i < r && ret >= 0; i++) {
			ret = ping_reply(p, &p->rx.msgs[i], base, n, &seen);
			got += ret > 0 && got < n;
		}
		if (ret < 0)
			break;
		ret = 0;
	}
	p->received += got;
	if (got == n)
		ping_rtt(p, (last - t0) * 1e6);
	else if (!ret && !tool_interrupted)
		p->lost += n - got;	/* missing at the bound */
	return ret;
}

/* round @round: its burst out, its replies in; 0 or -errno */
static int ping_round(struct ping_run *p, uint64_t round)
{
	unsigned int n;
	int err, ret;
	double t0;

	ping_fill(p, round);
	t0 = now_sec();
	n = dgram_send(&p->ep, p->tx.msgs, p->a->burst, &err);
	p->sent += n;
	ret = n ? ping_wait(p, round * p->a->burst, n, t0) : 0;
	if (ret == -EBADMSG)
		p->bad_round = round;
	return ret ? ret : -err;
}

static void ping_print(const struct ping_run *p, int err)
{
	enum out_type t = p->bursts ? PRINT_ANY : PRINT_JSON;

	open_record(stdout);
	print_str(PRINT_ANY, "role", "%s", "ping");
	print_str(PRINT_ANY, "peer", " %s", p->peer_str);
	print_uint(p->resolved ? PRINT_ANY : PRINT_JSON, "peer_qpn", " (qpn %u)",
		   p->peer.qpn);
	print_fp(":");
	print_uint(PRINT_JSON, "qpn", NULL, p->ep.o.qpn);
	print_u64(PRINT_JSON, "size", NULL, p->a->size);
	print_u64(PRINT_JSON, "burst", NULL, p->a->burst);
	print_bool(PRINT_JSON, "validated", NULL, p->a->validate);
	print_u64(PRINT_ANY, "sent", " %llu sent", p->sent);
	print_u64(PRINT_ANY, "received", ", %llu received", p->received);
	print_u64(PRINT_ANY, "lost", ", %llu lost", p->lost);
	print_double(t, "rtt_min_us", ", rtt min/avg/max %.0f", p->rtt_min);
	print_double(t, "rtt_avg_us", "/%.0f",
		     p->bursts ? p->rtt_sum / p->bursts : 0);
	print_double(t, "rtt_max_us", "/%.0f us", p->rtt_max);
	dgram_print_error(err);
	print_nl();
	close_record();
}

/* the error line of @err (after the record), or of the datagrams lost */
static int ping_result(const struct ping_run *p, int err)
{
	char what[96];

	if (err == EBADMSG) {
		tool_err("%s %s: round %llu: a reply is none of the datagrams sent (EBADMSG)",
			 p->cmd, p->peer_str, (unsigned long long)p->bad_round);
		return EXIT_FAIL;
	}
	if (err == EMSGSIZE) {
		snprintf(what, sizeof(what), "send of %llu bytes",
			 (unsigned long long)p->a->size);
		return dgram_err(p->cmd, what, err, &p->ep);
	}
	if (err && !p->resolved) {
		snprintf(what, sizeof(what), "resolve %s", p->peer_str);
		return dgram_err(p->cmd, what, err, &p->ep);
	}
	if (err)
		return dgram_err(p->cmd, p->peer_str, err, &p->ep);
	if (p->lost) {
		tool_err("%s %s: %llu of %llu datagrams lost (no reply within %llu ms)",
			 p->cmd, p->peer_str, (unsigned long long)p->lost,
			 (unsigned long long)p->sent,
			 (unsigned long long)p->a->wait_ms);
		return EXIT_FAIL;
	}
	return EXIT_OK;
}

/* the rounds, until @a->count or a signal; 0 or an errno */
static int ping_rounds(struct ping_run *p)
{
	uint64_t round;
	int ret = 0;

	if (dgram_bufs_alloc(&p->tx, p->a->burst, p->a->size) ||
	    dgram_bufs_alloc(&p->rx, p->a->burst, p->ep.o.max_size))
		return ENOMEM;
	catch_signals(true);
	for (round = 0; !p->a->count || round < p->a->count; round++) {
		if (tool_interrupted)
			break;
		ret = ping_round(p, round);
		if (ret)
			break;
	}
	return ret == -EINTR ? 0 : -ret;
}

int cmd_dgram_ping(int argc, char **argv)
{
	struct ping_run p = { .cmd = "dgram ping" };
	struct dgram_args a;
	int ret, err;

	ret = dgram_parse(p.cmd, DGRAM_OPT_COUNT | DGRAM_OPT_SIZE | DGRAM_OPT_BURST |
			  DGRAM_OPT_SRC | DGRAM_OPT_VALIDATE | DGRAM_OPT_WAIT |
			  DGRAM_OPT_BUSY, argc, argv, &a, ping_help);
	if (ret)
		return ret == DGRAM_HELP ? EXIT_OK : ret;
	if (!a.has_count)
		a.count = 10;
	p.a = &a;
	err = dgram_connect(p.cmd, &a, &p.ep, &p.peer, p.peer_str,
			    sizeof(p.peer_str));
	if (err < 0)
		return EXIT_FAIL;
	p.resolved = !err;
	if (!err)
		err = ping_rounds(&p);
	ping_print(&p, err);
	ret = ping_result(&p, err);
	dgram_bufs_free(&p.tx);
	dgram_bufs_free(&p.rx);
	dgram_close(&p.ep);
	return ret;
}
