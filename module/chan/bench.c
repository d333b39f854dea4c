// SPDX-License-Identifier: GPL-2.0-only
/*
 * rdmachan: the in-kernel benchmark (RDMACHAN_IOC_BENCH on a channel fd)
 *
 * Like krping, the whole run loops in the kernel, so what it measures is
 * the transport and not the user/kernel crossings of the tool: BLAST
 * sends batches of messages as fast as credits allow against a SINK that
 * receives and drops them, PINGPONG sends one message and waits for it
 * to come back from an ECHO; the one-sided WRITE and READ against an
 * RDMA_TARGET are in bench_rdma.c.  It is written against the public API
 * of rdmachan.h only, and so is also the example of an in-kernel user.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/ktime.h>
#include <linux/mm.h>
#include <linux/sched/signal.h>
#include <linux/slab.h>
#include <linux/uio.h>

#include <linux/rdmachan.h>

#include "bench.h"
#include "rdmachan.h"

#define RDMACHAN_BENCH_DEFAULT_BATCH	16

struct rdmachan_bench_run {
	struct rdmachan *ch;
	struct rdmachan_bench *b;
	u64 deadline;		/* ktime_get_ns() to stop at, 0: none */
	void *payload;
	struct rdmachan_bench_lat lat;
};

/* Has the run reached its count or time limit (or been interrupted)? */
static bool rdmachan_bench_run_over(const struct rdmachan_bench_run *r)
{
	return rdmachan_bench_over(r->b->msgs, r->b->count, r->deadline);
}

/* A signal ends a run; what it measured so far is still the result. */
static int rdmachan_bench_end(int ret)
{
	return ret == -ERESTARTSYS ? 0 : ret;
}

static int rdmachan_bench_blast(struct rdmachan_bench_run *r)
{
	struct rdmachan_bench *b = r->b;
	struct kvec *vec;
	u64 start = ktime_get_ns();
	unsigned int i, want;
	int ret = 0;

	vec = kcalloc(b->batch, sizeof(*vec), GFP_KERNEL);
	if (!vec)
		return -ENOMEM;
	for (i = 0; i < b->batch; i++) {
		vec[i].iov_base = r->payload;
		vec[i].iov_len = b->msg_size;
	}
	while (!rdmachan_bench_run_over(r)) {
		want = b->batch;
		if (b->count && b->count - b->msgs < want)
			want = b->count - b->msgs;
		ret = rdmachan_send_msgs(r->ch, vec, want, 0, 0);
		if (ret < 0)
			break;
		b->msgs += ret;
		b->bytes += (u64)ret * b->msg_size;
		ret = 0;
		cond_resched();
	}
	b->elapsed_ns = ktime_get_ns() - start;
	kfree(vec);
	return rdmachan_bench_end(ret);
}

static int rdmachan_bench_pingpong(struct rdmachan_bench_run *r)
{
	struct rdmachan_bench *b = r->b;
	struct kvec vec = { .iov_base = r->payload, .iov_len = b->msg_size };
	struct rdmachan_msg *msg;
	u64 start = ktime_get_ns(), t0, rtt;
	int ret = 0;

	while (!rdmachan_bench_run_over(r)) {
		t0 = ktime_get_ns();
		ret = rdmachan_send(r->ch, &vec, 1, 0, 0);
		if (ret)
			break;
		ret = rdmachan_recv(r->ch, &msg, 0);
		if (ret)
			break;
		rtt = ktime_get_ns() - t0;
		if (msg->len != b->msg_size) {
			pr_warn_ratelimited("bench: echo of %u bytes came back as %u\n",
					    b->msg_size, msg->len);
			rdmachan_msg_release(r->ch, msg);
			ret = -EPROTO;
			break;
		}
		rdmachan_msg_release(r->ch, msg);
		rdmachan_bench_lat_add(&r->lat, rtt);
		b->msgs++;
		b->bytes += b->msg_size;
	}
	b->elapsed_ns = ktime_get_ns() - start;
	rdmachan_bench_lat_out(&r->lat, b);
	return rdmachan_bench_end(ret);
}

/*
 * The next message of a run: one with a time limit waits no longer than
 * to its end (-ETIMEDOUT), however long the peer stays silent.
 */
static int rdmachan_bench_recv(struct rdmachan_bench_run *r,
			       struct rdmachan_msg **msg)
{
	u64 now;

	if (!r->deadline)
		return rdmachan_recv(r->ch, msg, 0);
	now = ktime_get_ns();
	if (now >= r->deadline)
		return -ETIMEDOUT;
	return rdmachan_recv_timeout(r->ch, msg,
				     DIV_ROUND_UP_ULL(r->deadline - now,
						      NSEC_PER_MSEC));
}

/*
 * ECHO: send @msg back, from its buffer, or copied out first where it
 * spans several (&rdmachan_opts.rx_frags)
 */
static int rdmachan_bench_echo(struct rdmachan_bench_run *r,
			       const struct rdmachan_msg *msg)
{
	struct kvec vec = { .iov_base = (void *)msg->data,
			    .iov_len = msg->len };
	struct iov_iter to;

	if (msg->frag_len != msg->len) {
		if (!r->payload)
			r->payload = kvmalloc(rdmachan_max_msg_size(r->ch),
					      GFP_KERNEL);
		if (!r->payload)
			return -ENOMEM;
		vec.iov_base = r->payload;
		iov_iter_kvec(&to, READ, &vec, 1, msg->len);
		rdmachan_msg_copy_to_iter(msg, &to);
	}
	return rdmachan_send(r->ch, &vec, 1, msg->imm,
			     msg->has_imm ? RDMACHAN_SEND_IMM : 0);
}

/*
 * SINK and ECHO: take messages until the limits, or the peer's orderly
 * close (-EPIPE), which is how a run against BLAST or PINGPONG ends.
 */
static int rdmachan_bench_serve(struct rdmachan_bench_run *r, bool echo)
{
	struct rdmachan_bench *b = r->b;
	struct rdmachan_msg *msg;
	u64 first = 0, last = 0;
	int ret = 0;

	while (!rdmachan_bench_run_over(r)) {
		ret = rdmachan_bench_recv(r, &msg);
		if (ret == -ETIMEDOUT) {
			ret = 0;
			break;
		}
		if (ret)
			break;
		if (!first)
			first = ktime_get_ns();
		if (echo)
			ret = rdmachan_bench_echo(r, msg);
		b->msgs++;
		b->bytes += msg->len;
		rdmachan_msg_release(r->ch, msg);
		last = ktime_get_ns();
		if (ret)
			break;
	}
	b->elapsed_ns = last - first;
	return ret == -EPIPE ? 0 : rdmachan_bench_end(ret);
}

/**
 * rdmachan_bench_run() - RDMACHAN_IOC_BENCH: run a benchmark on a channel
 * @ch: the channel of the file
 * @b: the argument, copied in and checked (rdmachan_check_bench()); the
 *	results are filled in
 *
 * Context: process context; sleeps for the length of the run.  The
 * caller serialises the modes that receive with the file's other readers.
 * Return: 0 with the results in @b, or a negative errno.
 */
long rdmachan_bench_run(struct rdmachan *ch, struct rdmachan_bench *b)
{
	struct rdmachan_bench_run r = { .ch = ch, .b = b };
	u32 depth = rdmachan_queue_depth(ch);
	int ret;

	/* BLAST's default batch: never more than the depth, as checked */
	if (b->mode == RDMACHAN_BENCH_BLAST && !b->batch)
		b->batch = min_t(u32, RDMACHAN_BENCH_DEFAULT_BATCH, depth);
	if (b->duration_ms)
		r.deadline = ktime_get_ns() + (u64)b->duration_ms * NSEC_PER_MSEC;
	switch (b->mode) {
	case RDMACHAN_BENCH_BLAST:
	case RDMACHAN_BENCH_PINGPONG:
		r.payload = kvmalloc(max(b->msg_size, 1U), GFP_KERNEL);
		if (!r.payload)
			return -ENOMEM;
		memset(r.payload, 0xa5, b->msg_size);
		if (b->mode == RDMACHAN_BENCH_BLAST) {
			ret = rdmachan_bench_blast(&r);
			break;
		}
		ret = rdmachan_bench_lat_init(&r.lat, b->count);
		if (!ret)
			ret = rdmachan_bench_pingpong(&r);
		break;
	case RDMACHAN_BENCH_SINK:
	case RDMACHAN_BENCH_ECHO:
		ret = rdmachan_bench_serve(&r, b->mode == RDMACHAN_BENCH_ECHO);
		break;
	default:
		ret = rdmachan_bench_rdma(ch, b);
	}
	kvfree(r.payload);
	return ret;
}
