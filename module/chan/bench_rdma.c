// SPDX-License-Identifier: GPL-2.0-only
/*
 * rdmachan: the in-kernel one-sided benchmark, RDMACHAN_IOC_BENCH modes
 * RDMA_TARGET, WRITE and READ (what ib_write_bw and ib_read_bw measure)
 *
 * The target registers a region of @batch * @msg_size bytes for remote
 * READ and WRITE and sends its descriptor as one message.  The initiator
 * waits for that descriptor (a bounded wait), registers a local buffer of
 * its own @batch * @msg_size bytes and moves it in calls of @batch
 * operations of @msg_size bytes each (one chained post, the last
 * operation signalled, two calls in flight through
 * rdmachan_rdma_submit()) until its count or time is up; then its file
 * is closed, and that orderly close ends the target's run.
 *
 * A target that ends before the initiator (a signal) first sends an empty
 * message, then invalidates its region: the initiator's next operations
 * fail on the dead rkey, and the message tells it why (-EPIPE, the peer
 * ended the run) instead of a bare remote access error.
 *
 * Like bench.c it uses the public API of rdmachan.h only.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/delay.h>
#include <linux/ktime.h>
#include <linux/sched/signal.h>
#include <linux/slab.h>
#include <linux/vmalloc.h>

#include <linux/rdmachan.h>

#include "bench.h"
#include "rdmachan.h"

/* How long the initiator waits for the target's descriptor */
#define RDMACHAN_BENCH_DESC_WAIT_MS	10000
/* How often the target looks for the initiator's close */
#define RDMACHAN_BENCH_TARGET_NAP_MS	10
/* After a failed call: how long to look for the target's end message */
#define RDMACHAN_BENCH_END_WAIT_MS	100

/* The region (or buffer) of a run, not zeroed: its content is not checked */
static void *rdmachan_bench_rdma_alloc(size_t len)
{
	return __vmalloc(len, GFP_KERNEL | __GFP_NOWARN);
}

static int rdmachan_bench_rdma_target(struct rdmachan *ch,
				      struct rdmachan_bench *b, size_t len)
{
	struct rdmachan_remote_mr desc;
	struct kvec vec = { .iov_base = &desc, .iov_len = sizeof(desc) };
	struct rdmachan_msg *msg;
	struct rdmachan_mr *mr;
	u64 start;
	void *buf;
	int ret;

	buf = rdmachan_bench_rdma_alloc(len);
	if (!buf)
		return -ENOMEM;
	ret = rdmachan_mr_reg_kbuf(ch, buf, len, RDMACHAN_ACCESS_LOCAL_WRITE |
				   RDMACHAN_ACCESS_REMOTE_WRITE |
				   RDMACHAN_ACCESS_REMOTE_READ, &mr);
	if (ret)
		goto free;
	rdmachan_mr_remote(mr, &desc);
	ret = rdmachan_send(ch, &vec, 1, 0, 0);
	start = ktime_get_ns();
	/*
	 * The initiator's close ends the run; messages are not expected.
	 * One-sided operations complete nothing here: look for the close
	 * now and then instead of busy-polling a DIRECT channel, whose
	 * spinning would take the CPU from the device's own work.
	 */
	while (!ret) {
		ret = rdmachan_recv(ch, &msg, RDMACHAN_RECV_NONBLOCK);
		if (!ret) {
			rdmachan_msg_release(ch, msg);
			continue;
		}
		if (ret != -EAGAIN)
			break;
		rdmachan_poll(ch, -1);
		msleep_interruptible(RDMACHAN_BENCH_TARGET_NAP_MS);
		ret = signal_pending(current) ? -ERESTARTSYS : 0;
	}
	b->elapsed_ns = ktime_get_ns() - start;
	if (ret == -ERESTARTSYS) {
		/*
		 * A signal ends the run before the initiator's close: say so
		 * before the rkey dies under it.  Best effort: a send that
		 * would wait for a credit is left out.
		 */
		vec.iov_len = 0;
		rdmachan_send(ch, &vec, 1, 0, RDMACHAN_SEND_NONBLOCK);
		ret = 0;
	} else if (ret == -EPIPE) {
		ret = 0;
	}
	rdmachan_mr_dereg(mr);
free:
	vfree(buf);
	return ret;
}

/*
 * The target's descriptor: one message of exactly its size, within
 * RDMACHAN_BENCH_DESC_WAIT_MS.  Return: 0; -ETIMEDOUT (none came: the
 * peer runs no target); -EPROTO (a message that is no descriptor);
 * -EMSGSIZE (the target's region is smaller than @need); -EPIPE (the peer
 * closed first); the channel's error; -ERESTARTSYS (a signal).
 */
static int rdmachan_bench_rdma_desc(struct rdmachan *ch,
				    struct rdmachan_remote_mr *desc,
				    size_t need)
{
	u64 end = ktime_get_ns() + RDMACHAN_BENCH_DESC_WAIT_MS * NSEC_PER_MSEC;
	struct rdmachan_msg *msg;
	int ret;

	for (;;) {
		ret = rdmachan_recv(ch, &msg, RDMACHAN_RECV_NONBLOCK);
		if (ret != -EAGAIN)
			break;
		if (signal_pending(current))
			return -ERESTARTSYS;
		if (ktime_get_ns() >= end) {
			pr_info_ratelimited("bench: no descriptor from the peer within %u ms (is it an RDMA_TARGET?)\n",
					    RDMACHAN_BENCH_DESC_WAIT_MS);
			return -ETIMEDOUT;
		}
		/* busy-polled channels see their completions only here */
		if (!rdmachan_poll(ch, -1))
			usleep_range(200, 400);
	}
	if (ret)
		return ret;
	if (msg->len != sizeof(*desc)) {
		pr_info_ratelimited("bench: the peer's first message has %u bytes, not a descriptor's %zu\n",
				    msg->len, sizeof(*desc));
		ret = -EPROTO;
	} else {
		memcpy(desc, msg->data, sizeof(*desc));
		if (desc->length < need) {
			pr_info_ratelimited("bench: the target registered %llu bytes, %zu needed\n",
					    desc->length, need);
			ret = -EMSGSIZE;
		}
	}
	rdmachan_msg_release(ch, msg);
	return ret;
}

/*
 * A call failed with @err: did the target end the run?  Its end message
 * (or its orderly close) may trail the error a little.
 */
static int rdmachan_bench_rdma_why(struct rdmachan *ch, int err)
{
	u64 end = ktime_get_ns() + RDMACHAN_BENCH_END_WAIT_MS * NSEC_PER_MSEC;
	struct rdmachan_msg *msg;
	int ret;

	for (;;) {
		ret = rdmachan_recv(ch, &msg, RDMACHAN_RECV_NONBLOCK);
		if (ret != -EAGAIN || ktime_get_ns() >= end)
			break;
		if (!rdmachan_poll(ch, -1))
			usleep_range(200, 400);
	}
	if (!ret) {
		ret = msg->len ? err : -EPIPE;
		rdmachan_msg_release(ch, msg);
		return ret;
	}
	return ret == -EPIPE ? -EPIPE : err;
}

/*
 * The initiator keeps RDMACHAN_BENCH_CHAINS calls in flight (as perftest
 * keeps its send queue full): while one chain runs, the next is posted,
 * so the wire never idles between calls.
 */
#define RDMACHAN_BENCH_CHAINS	2

/**
 * struct rdmachan_bench_chain - one call of the initiator
 * @ops: its operations
 * @nr: their number, 0 when it has not been submitted
 * @ok: operations that succeeded, in order, once it ended
 * @err: its first error, once it ended
 * @busy: submitted and not ended
 * @wq: where the initiator waits for its end
 */
struct rdmachan_bench_chain {
	struct rdmachan_op	ops[RDMACHAN_MAX_RDMA_OPS];
	u32			nr;
	u32			ok;
	int			err;
	bool			busy;
	wait_queue_head_t	*wq;
};

/*
 * rdmachan_rdma_submit()'s end: completion context, must not sleep.  The
 * outcome is published under the waitqueue's lock, and the initiator
 * reads @busy under it too: once it sees the chain ended, this has let
 * go of the waitqueue, which may then go away with the run.
 */
static void rdmachan_bench_rdma_end(struct rdmachan_op *ops,
				    unsigned int count, int err, void *ctx)
{
	struct rdmachan_bench_chain *c = ctx;
	unsigned long flags;
	u32 i;

	for (i = 0; i < count && !ops[i].status; i++)
		;
	spin_lock_irqsave(&c->wq->lock, flags);
	c->ok = i;
	c->err = err;
	c->busy = false;
	wake_up_locked(c->wq);
	spin_unlock_irqrestore(&c->wq->lock, flags);
}

static bool rdmachan_bench_chain_busy(struct rdmachan_bench_chain *c)
{
	unsigned long flags;
	bool busy;

	spin_lock_irqsave(&c->wq->lock, flags);
	busy = c->busy;
	spin_unlock_irqrestore(&c->wq->lock, flags);
	return busy;
}

/*
 * Wait for @c to end and count what it moved.  Not interruptible: its
 * operations live here until it ends, which it does within the
 * transport's retry time, or when the channel is torn down.
 */
static int rdmachan_bench_rdma_reap(struct rdmachan *ch,
				    struct rdmachan_bench_chain *c,
				    struct rdmachan_bench *b)
{
	bool direct = rdmachan_get_poll_mode(ch) == RDMACHAN_POLL_DIRECT;

	while (rdmachan_bench_chain_busy(c)) {
		/* a DIRECT channel completes only when polled: spin on it */
		if (direct) {
			if (!rdmachan_poll(ch, -1))
				rdmachan_poll_relax();
			continue;
		}
		wait_event_timeout(*c->wq, !rdmachan_bench_chain_busy(c),
				   HZ / 100);
	}
	if (!c->nr)
		return 0;
	b->msgs += c->ok;
	b->bytes += (u64)c->ok * b->msg_size;
	c->nr = 0;
	return c->err;
}

static int rdmachan_bench_rdma_run(struct rdmachan *ch,
				   struct rdmachan_bench *b, size_t len)
{
	bool rd = b->mode == RDMACHAN_BENCH_READ;
	DECLARE_WAIT_QUEUE_HEAD_ONSTACK(wq);
	struct rdmachan_bench_chain *chains;
	struct rdmachan_remote_mr desc;
	struct rdmachan_seg *segs;
	struct rdmachan_mr *mr;
	u64 start, deadline = 0, queued = 0;
	u32 i, k, want;
	void *buf;
	int ret, err;

	ret = rdmachan_bench_rdma_desc(ch, &desc, len);
	if (ret)
		return ret;
	buf = rdmachan_bench_rdma_alloc(len);
	segs = kcalloc(b->batch, sizeof(*segs), GFP_KERNEL);
	chains = kcalloc(RDMACHAN_BENCH_CHAINS, sizeof(*chains), GFP_KERNEL);
	ret = -ENOMEM;
	if (!buf || !segs || !chains)
		goto free;
	/* a READ's sink is written by the peer's response on iWARP */
	ret = rdmachan_mr_reg_kbuf(ch, buf, len, rd ?
				   RDMACHAN_ACCESS_LOCAL_WRITE |
				   RDMACHAN_ACCESS_REMOTE_WRITE : 0, &mr);
	if (ret)
		goto free;
	for (i = 0; i < b->batch; i++) {
		segs[i].mr = mr;
		segs[i].offset = (u64)i * b->msg_size;
		segs[i].length = b->msg_size;
	}
	for (k = 0; k < RDMACHAN_BENCH_CHAINS; k++)
		chains[k].wq = &wq;
	start = ktime_get_ns();
	/* the run's time starts with the descriptor */
	if (b->duration_ms)
		deadline = start + (u64)b->duration_ms * NSEC_PER_MSEC;
	for (k = 0; ; k = (k + 1) % RDMACHAN_BENCH_CHAINS) {
		struct rdmachan_bench_chain *c = &chains[k];

		ret = rdmachan_bench_rdma_reap(ch, c, b);
		if (ret || signal_pending(current) ||
		    (deadline && ktime_get_ns() >= deadline) ||
		    (b->count && queued >= b->count))
			break;
		want = b->batch;
		if (b->count && b->count - queued < want)
			want = b->count - queued;
		for (i = 0; i < want; i++) {
			c->ops[i] = (struct rdmachan_op){
				.opcode = rd ? RDMACHAN_OP_READ :
					       RDMACHAN_OP_WRITE,
				.segs = &segs[i],
				.nr_segs = 1,
				.remote_addr = desc.addr + segs[i].offset,
				.rkey = desc.rkey,
			};
		}
		c->nr = want;
		c->busy = true;
		ret = rdmachan_rdma_submit(ch, c->ops, want,
					   rdmachan_bench_rdma_end, c);
		if (ret) {
			c->busy = false;
			c->nr = 0;
			break;
		}
		queued += want;
		cond_resched();
	}
	/* the chains still in flight end (and count) before anything goes */
	for (k = 0; k < RDMACHAN_BENCH_CHAINS; k++) {
		err = rdmachan_bench_rdma_reap(ch, &chains[k], b);
		if (!ret)
			ret = err;
	}
	b->elapsed_ns = ktime_get_ns() - start;
	/* a signal ends the run: -ERESTARTSYS nothing posted */
	if (ret == -ERESTARTSYS) {
		ret = 0;
	} else if (ret) {
		ret = rdmachan_bench_rdma_why(ch, ret);
		pr_info_ratelimited("bench: one-sided %s ended after %llu operations: %d\n",
				    rd ? "READ" : "WRITE", b->msgs, ret);
	}
	rdmachan_mr_dereg(mr);
free:
	kfree(chains);
	kfree(segs);
	vfree(buf);
	return ret;
}

/**
 * rdmachan_bench_rdma() - a one-sided run of RDMACHAN_IOC_BENCH
 * @ch: the channel
 * @b: checked arguments (@batch 1 to RDMACHAN_MAX_RDMA_OPS, @msg_size not
 *	0, the region at most RDMACHAN_BENCH_MAX_REGION); results are
 *	filled in
 *
 * Context: process context; sleeps for the length of the run.
 * Return: 0 (also when a signal ended the run early) or a negative errno:
 * besides the channel's and the registration's (-E2BIG over the device's
 * limit), -ETIMEDOUT, -EPROTO, -EMSGSIZE while waiting for the target's
 * descriptor, -EPIPE when the target ended the run first, and the errno
 * of a failed operation.
 */
int rdmachan_bench_rdma(struct rdmachan *ch, struct rdmachan_bench *b)
{
	size_t len = (size_t)b->batch * b->msg_size;

	if (b->mode == RDMACHAN_BENCH_RDMA_TARGET)
		return rdmachan_bench_rdma_target(ch, b, len);
	return rdmachan_bench_rdma_run(ch, b, len);
}
