// SPDX-License-Identifier: GPL-2.0-only
/*
 * rdmachan: the in-kernel one-sided benchmark, RDMACHAN_IOC_BENCH modes
 * RDMA_TARGET, WRITE and READ (what ib_write_bw and ib_read_bw measure)
 *
 * The target registers a region of @batch * @msg_size bytes for remote
 * READ and WRITE and sends its descriptor as one message.  The initiator
 * registers a local buffer of the same size and moves it in calls of
 * @batch operations of @msg_size bytes each (one chained post, the last
 * operation signalled) until its count or time is up; then its file is
 * closed, and that orderly close ends the target's run.  Like bench.c it
 * uses the public API of rdmachan.h only.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/ktime.h>
#include <linux/sched/signal.h>
#include <linux/slab.h>
#include <linux/vmalloc.h>

#include <linux/rdmachan.h>

#include "bench.h"
#include "rdmachan.h"

#define RDMACHAN_BENCH_RDMA_BATCH	16

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

	buf = vzalloc(len);
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
	/* the initiator's close ends the run; messages are not expected */
	while (!ret) {
		ret = rdmachan_recv(ch, &msg, 0);
		if (!ret)
			rdmachan_msg_release(ch, msg);
	}
	b->elapsed_ns = ktime_get_ns() - start;
	if (ret == -EPIPE || ret == -ERESTARTSYS)
		ret = 0;
	rdmachan_mr_dereg(mr);
free:
	vfree(buf);
	return ret;
}

/* The target's descriptor: one message of exactly its size */
static int rdmachan_bench_rdma_desc(struct rdmachan *ch,
				    struct rdmachan_remote_mr *desc,
				    size_t need)
{
	struct rdmachan_msg *msg;
	int ret;

	ret = rdmachan_recv(ch, &msg, 0);
	if (ret)
		return ret;
	if (msg->len != sizeof(*desc)) {
		pr_warn_ratelimited("bench: the target's descriptor has %u bytes, not %zu\n",
				    msg->len, sizeof(*desc));
		ret = -EPROTO;
	} else {
		memcpy(desc, msg->data, sizeof(*desc));
		if (desc->length < need) {
			pr_warn_ratelimited("bench: the target registered %llu bytes, %zu needed\n",
					    desc->length, need);
			ret = -EPROTO;
		}
	}
	rdmachan_msg_release(ch, msg);
	return ret;
}

static int rdmachan_bench_rdma_run(struct rdmachan *ch,
				   struct rdmachan_bench *b, size_t len,
				   u64 deadline)
{
	bool rd = b->mode == RDMACHAN_BENCH_READ;
	struct rdmachan_remote_mr desc;
	struct rdmachan_seg *segs;
	struct rdmachan_op *ops;
	struct rdmachan_mr *mr;
	u32 i, want;
	u64 start;
	void *buf;
	int ret;

	ret = rdmachan_bench_rdma_desc(ch, &desc, len);
	if (ret)
		return ret;
	buf = vzalloc(len);
	segs = kcalloc(b->batch, sizeof(*segs), GFP_KERNEL);
	ops = kcalloc(b->batch, sizeof(*ops), GFP_KERNEL);
	ret = -ENOMEM;
	if (!buf || !segs || !ops)
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
	start = ktime_get_ns();
	while (!signal_pending(current) &&
	       (!deadline || ktime_get_ns() < deadline) &&
	       (!b->count || b->msgs < b->count)) {
		want = b->batch;
		if (b->count && b->count - b->msgs < want)
			want = b->count - b->msgs;
		for (i = 0; i < want; i++) {
			ops[i] = (struct rdmachan_op){
				.opcode = rd ? RDMACHAN_OP_READ :
					       RDMACHAN_OP_WRITE,
				.segs = &segs[i],
				.nr_segs = 1,
				.remote_addr = desc.addr + segs[i].offset,
				.rkey = desc.rkey,
			};
		}
		ret = rdmachan_rdma(ch, ops, want);
		if (ret)
			break;
		b->msgs += want;
		b->bytes += (u64)want * b->msg_size;
		cond_resched();
	}
	b->elapsed_ns = ktime_get_ns() - start;
	if (ret == -ERESTARTSYS || ret == -EINTR)
		ret = 0;
	rdmachan_mr_dereg(mr);
free:
	kfree(ops);
	kfree(segs);
	vfree(buf);
	return ret;
}

/**
 * rdmachan_bench_rdma() - a one-sided run of RDMACHAN_IOC_BENCH
 * @ch: the channel
 * @b: checked arguments; results are filled in
 * @deadline: ktime_get_ns() to stop at, 0 for none
 *
 * Context: process context; sleeps for the length of the run.
 * Return: 0 (also when a signal ended the run early) or a negative errno.
 */
int rdmachan_bench_rdma(struct rdmachan *ch, struct rdmachan_bench *b,
			u64 deadline)
{
	size_t len;

	if (!b->batch)
		b->batch = RDMACHAN_BENCH_RDMA_BATCH;
	len = (size_t)b->batch * b->msg_size;
	if (b->mode == RDMACHAN_BENCH_RDMA_TARGET)
		return rdmachan_bench_rdma_target(ch, b, len);
	return rdmachan_bench_rdma_run(ch, b, len, deadline);
}
