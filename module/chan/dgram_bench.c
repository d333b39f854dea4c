// SPDX-License-Identifier: GPL-2.0-only
/*
 * rdmachan: the in-kernel datagram benchmark (RDMACHAN_IOC_DGRAM_BENCH on
 * an endpoint's file)
 *
 * bench.c's four message modes over a datagram endpoint, written against
 * the public API of rdmachan.h only: BLAST sends datagrams to a peer as
 * fast as send buffers free up, SINK takes and drops them, PINGPONG sends
 * one with its sequence number as immediate data and waits for its ECHO,
 * both busy-polling for what comes next as perftest does (an echo only
 * for 2 ms after each datagram, then it sleeps).
 * Unlike a channel, nothing holds a sender back for its receiver: a BLAST
 * outruns a slow SINK, whose device then drops what finds no receive
 * buffer (the endpoint's rx_empty counts the times), and a PINGPONG whose
 * request or reply is lost stops waiting after wait_ms, counts it lost
 * and goes on with the next.  perftest's ib_send_bw and ib_send_lat with
 * "-c UD" are what make bench sets beside it.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/jiffies.h>
#include <linux/ktime.h>
#include <linux/mm.h>
#include <linux/sched/signal.h>
#include <linux/slab.h>
#include <linux/uio.h>

#include <linux/rdmachan.h>
#include <linux/rdmachan_verbs.h>

#include "bench.h"
#include "rdmachan.h"

struct rdmachan_dgram_bench_run {
	struct rdmachan_dgram *d;
	struct rdmachan_dgram_bench *b;
	u64 deadline;		/* ktime_get_ns() to stop at, 0: none */
	void *payload;
	struct rdmachan_bench_lat lat;
};

/* Has the run reached its count or time limit (or been interrupted)? */
static bool rdmachan_dgram_bench_over(const struct rdmachan_dgram_bench_run *r)
{
	return rdmachan_bench_over(r->b->msgs, r->b->count, r->deadline);
}

/* Send the payload to the peer, with immediate data @imm if not NULL */
static int rdmachan_dgram_bench_send(struct rdmachan_dgram_bench_run *r,
				     const __be32 *imm)
{
	struct rdmachan_dgram_bench *b = r->b;
	struct kvec vec = { .iov_base = r->payload, .iov_len = b->msg_size };
	struct iov_iter from;

	iov_iter_kvec(&from, WRITE, &vec, 1, b->msg_size);
	return rdmachan_dgram_send(r->d, (struct sockaddr *)&b->peer.addr,
				   b->peer.qpn, b->peer.qkey, &from, imm,
				   false);
}

static int rdmachan_dgram_bench_blast(struct rdmachan_dgram_bench_run *r)
{
	struct rdmachan_dgram_bench *b = r->b;
	u64 start = ktime_get_ns();
	int ret = 0;

	while (!rdmachan_dgram_bench_over(r)) {
		ret = rdmachan_dgram_bench_send(r, NULL);
		if (ret)
			break;
		b->msgs++;
		b->bytes += b->msg_size;
		cond_resched();
	}
	b->elapsed_ns = ktime_get_ns() - start;
	return ret;
}

/* How long an echo busy-polls for the next request before it sleeps */
#define RDMACHAN_DGRAM_BENCH_SPIN_NS	(2 * NSEC_PER_MSEC)

/*
 * Busy-poll for a datagram until ktime_get_ns() @until, as perftest
 * waits: the completion is processed in softirq, which each round runs
 * (rdmachan_poll_relax()).  Return: 0, -EAGAIN at @until or at a signal
 * (the sleeping wait that follows reports it), or the endpoint's death.
 */
static int rdmachan_dgram_bench_spin(struct rdmachan_dgram_bench_run *r,
				     u64 until, struct rdmachan_dgram_rx **rx)
{
	int ret;

	for (;;) {
		ret = rdmachan_dgram_recv(r->d, rx, 0);
		if (ret != -EAGAIN)
			return ret;
		if (ktime_get_ns() >= until || signal_pending(current))
			return -EAGAIN;
		rdmachan_poll_relax();
	}
}

/*
 * The next datagram, waiting no longer than @bound_ns (0: no bound) and
 * the run's end, busy-polling the first @spin_ns of it.  Return: 0,
 * -EAGAIN when a bound passed first, or errno.
 */
static int rdmachan_dgram_bench_recv(struct rdmachan_dgram_bench_run *r,
				     u64 bound_ns, u64 spin_ns,
				     struct rdmachan_dgram_rx **rx)
{
	u64 now = ktime_get_ns(), end = r->deadline;
	long timeout = MAX_SCHEDULE_TIMEOUT;
	int ret;

	if (bound_ns && (!end || now + bound_ns < end))
		end = now + bound_ns;
	if (spin_ns) {
		ret = rdmachan_dgram_bench_spin(r, end ? min(end, now + spin_ns) :
						now + spin_ns, rx);
		if (ret != -EAGAIN)
			return ret;
		now = ktime_get_ns();
	}
	if (end) {
		if (now >= end)
			return -EAGAIN;
		timeout = nsecs_to_jiffies(end - now) + 1;
	}
	return rdmachan_dgram_recv(r->d, rx, timeout);
}

/*
 * Wait for the echo of request @seq sent at @t0: 0 with it counted, 1
 * when it did not come within wait_ms (lost), or errno.  Echoes of
 * earlier requests, late, and strangers' datagrams are dropped.
 */
static int rdmachan_dgram_bench_reply(struct rdmachan_dgram_bench_run *r,
				      u32 seq, u64 t0)
{
	struct rdmachan_dgram_bench *b = r->b;
	u64 wait = (u64)b->wait_ms * NSEC_PER_MSEC, now;
	struct rdmachan_dgram_rx *rx;
	bool ours;
	int ret;

	for (;;) {
		now = ktime_get_ns();
		if (now - t0 >= wait)
			return 1;
		/* busy-polled, as perftest waits for its reply */
		ret = rdmachan_dgram_bench_recv(r, t0 + wait - now,
						t0 + wait - now, &rx);
		if (ret == -EAGAIN)
			return r->deadline && ktime_get_ns() >= r->deadline ?
			       -ETIME : 1;
		if (ret)
			return ret;
		ours = rx->has_imm && be32_to_cpu(rx->imm) == seq &&
		       rx->qpn == b->peer.qpn && rx->len == b->msg_size;
		rdmachan_dgram_rx_release(r->d, rx);
		if (ours) {
			rdmachan_bench_lat_add(&r->lat, ktime_get_ns() - t0);
			return 0;
		}
	}
}

static int rdmachan_dgram_bench_pingpong(struct rdmachan_dgram_bench_run *r)
{
	struct rdmachan_dgram_bench *b = r->b;
	u64 start = ktime_get_ns(), t0;
	__be32 imm;
	u32 seq = 0;
	int ret = 0;

	while (!rdmachan_dgram_bench_over(r)) {
		imm = cpu_to_be32(++seq);
		t0 = ktime_get_ns();
		ret = rdmachan_dgram_bench_send(r, &imm);
		if (ret)
			break;
		ret = rdmachan_dgram_bench_reply(r, seq, t0);
		if (ret < 0)
			break;
		if (ret) {
			b->lost++;
			ret = 0;
			continue;
		}
		b->msgs++;
		b->bytes += b->msg_size;
	}
	b->elapsed_ns = ktime_get_ns() - start;
	rdmachan_bench_lat_out(&r->lat, b);
	/* the run's time ran out while a reply was awaited: not an error */
	return ret == -ETIME ? 0 : ret;
}

/* ECHO: @rx back to its source, its immediate data with it */
static int rdmachan_dgram_bench_echo(struct rdmachan_dgram_bench_run *r,
				     const struct rdmachan_dgram_rx *rx)
{
	struct kvec vec = { .iov_base = rx->data, .iov_len = rx->len };
	struct iov_iter from;

	iov_iter_kvec(&from, WRITE, &vec, 1, rx->len);
	return rdmachan_dgram_send(r->d, (const struct sockaddr *)&rx->from,
				   rx->qpn, 0, &from,
				   rx->has_imm ? &rx->imm : NULL, false);
}

/*
 * SINK and ECHO: take datagrams until the limits, or until none came for
 * wait_ms after the first, which is how a run against BLAST or PINGPONG
 * ends (a datagram peer does not close).
 */
static int rdmachan_dgram_bench_serve(struct rdmachan_dgram_bench_run *r,
				      bool echo)
{
	struct rdmachan_dgram_bench *b = r->b;
	u64 idle = (u64)b->wait_ms * NSEC_PER_MSEC, first = 0, last = 0;
	struct rdmachan_dgram_rx *rx;
	int ret = 0;

	while (!rdmachan_dgram_bench_over(r)) {
		/* an echo busy-polls a while for the next request */
		ret = rdmachan_dgram_bench_recv(r, first ? idle : 0,
						echo && first ?
						RDMACHAN_DGRAM_BENCH_SPIN_NS : 0,
						&rx);
		if (ret == -EAGAIN) {
			ret = 0;
			break;
		}
		if (ret)
			break;
		if (!first)
			first = ktime_get_ns();
		if (echo)
			ret = rdmachan_dgram_bench_echo(r, rx);
		/*
		 * One that cannot go back (no route to its source, no source
		 * in its GRH) is skipped; the endpoint's own end (ENODEV)
		 * comes with the next receive
		 */
		if (ret && ret != -ERESTARTSYS)
			pr_info_ratelimited("dgram bench: no echo to %pISc qpn %u: %d\n",
					    &rx->from, rx->qpn, ret);
		b->msgs++;
		b->bytes += rx->len;
		rdmachan_dgram_rx_release(r->d, rx);
		last = ktime_get_ns();
		if (ret == -ERESTARTSYS)
			break;
		ret = 0;
	}
	b->elapsed_ns = last - first;
	return ret;
}

/**
 * rdmachan_dgram_bench_run() - RDMACHAN_IOC_DGRAM_BENCH: run a benchmark
 * @d: the endpoint of the file
 * @b: the argument, copied in and checked (rdmachan_check_dgram_bench());
 *	the results are filled in
 *
 * Context: process context; sleeps for the length of the run.
 * Return: 0 with the results in @b (also when a signal ended the run), or
 * a negative errno (the results so far are in @b all the same).
 */
long rdmachan_dgram_bench_run(struct rdmachan_dgram *d,
			      struct rdmachan_dgram_bench *b)
{
	struct rdmachan_dgram_bench_run r = { .d = d, .b = b };
	int ret;

	if (b->duration_ms)
		r.deadline = ktime_get_ns() + (u64)b->duration_ms * NSEC_PER_MSEC;
	switch (b->mode) {
	case RDMACHAN_BENCH_BLAST:
	case RDMACHAN_BENCH_PINGPONG:
		r.payload = kmalloc(b->msg_size, GFP_KERNEL);
		if (!r.payload)
			return -ENOMEM;
		memset(r.payload, 0xa5, b->msg_size);
		if (b->mode == RDMACHAN_BENCH_BLAST) {
			ret = rdmachan_dgram_bench_blast(&r);
			break;
		}
		ret = rdmachan_bench_lat_init(&r.lat, b->count);
		if (!ret)
			ret = rdmachan_dgram_bench_pingpong(&r);
		break;
	default:
		ret = rdmachan_dgram_bench_serve(&r, b->mode == RDMACHAN_BENCH_ECHO);
	}
	kfree(r.payload);
	/* a signal ends a run; what it measured so far is still the result */
	return ret == -ERESTARTSYS || ret == -EINTR ? 0 : ret;
}
