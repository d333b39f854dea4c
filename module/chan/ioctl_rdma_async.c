// SPDX-License-Identifier: GPL-2.0-only
/*
 * rdmachan: asynchronous one-sided calls of a channel file -
 * RDMACHAN_IOC_RDMA with RDMACHAN_RDMA_ASYNC, and RDMACHAN_IOC_RDMA_REAP
 *
 * An asynchronous call keeps a compact copy of its operations (the
 * segments they name, each operation's user_data) in a struct
 * rdmachan_rdma_async, submits it with rdmachan_rdma_submit() and
 * returns.  Its end (softirq or wherever the channel completes) turns
 * the outcome into struct rdmachan_rdma_cqe records and queues the call
 * on ch->reap.list; RDMACHAN_IOC_RDMA_REAP copies the records out in
 * order and frees the calls it emptied.  A channel holds at most
 * RDMACHAN_MAX_ASYNC_OPS operations running or unreaped, so a process
 * that never reaps cannot make it grow.  What is left when the file is
 * released goes with it (every call has ended by then: the teardown
 * flushed what was posted).
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/sched/signal.h>
#include <linux/slab.h>
#include <linux/uaccess.h>

#include "rdmachan-pri.h"
#include "ioctl.h"

/**
 * struct rdmachan_rdma_async - one asynchronous call
 * @node: entry in ch->reap.list once it ended
 * @ch: the channel
 * @count: operations
 * @next: the first record not reaped yet
 * @cqes: the records, @count of them
 * @segs: the segments the operations name
 * @ops: the operations
 */
struct rdmachan_rdma_async {
	struct list_head		node;
	struct rdmachan			*ch;
	u32				count;
	u32				next;
	struct rdmachan_rdma_cqe	*cqes;
	struct rdmachan_seg		*segs;
	struct rdmachan_op		ops[];
};

/* The call ended (any context): its records become reapable. */
static void rdmachan_rdma_async_end(struct rdmachan_op *ops,
				    unsigned int count, int err, void *ctx)
{
	struct rdmachan_rdma_async *a = ctx;
	struct rdmachan *ch = a->ch;
	unsigned long flags;
	u32 i;

	for (i = 0; i < count; i++) {
		a->cqes[i].result = ops[i].result;
		a->cqes[i].status = ops[i].status;
		a->cqes[i].wc_status = ops[i].wc_status;
		a->cqes[i].opcode = ops[i].opcode;
	}
	spin_lock_irqsave(&ch->lock, flags);
	list_add_tail(&a->node, &ch->reap.list);
	ch->reap.ready += count;
	spin_unlock_irqrestore(&ch->lock, flags);
	wake_up_all(&ch->wq);
}

/* A compact copy of the checked operations of @c. */
static struct rdmachan_rdma_async *
rdmachan_rdma_async_alloc(struct rdmachan *ch,
			  const struct rdmachan_rdma_call *c, u32 count)
{
	struct rdmachan_rdma_async *a;
	u32 i, nsegs = 0;
	size_t size;

	for (i = 0; i < count; i++)
		nsegs += c->ops[i].nr_segs;
	size = struct_size(a, ops, count) + count * sizeof(a->cqes[0]) +
	       nsegs * sizeof(a->segs[0]);
	a = kvzalloc(size, GFP_KERNEL);
	if (!a)
		return NULL;
	a->ch = ch;
	a->count = count;
	a->cqes = (void *)&a->ops[count];
	a->segs = (void *)&a->cqes[count];
	nsegs = 0;
	for (i = 0; i < count; i++) {
		a->ops[i] = c->ops[i];
		memcpy(&a->segs[nsegs], c->segs[i],
		       c->ops[i].nr_segs * sizeof(a->segs[0]));
		a->ops[i].segs = &a->segs[nsegs];
		nsegs += c->ops[i].nr_segs;
		a->cqes[i].user_data = c->uops[i].user_data;
	}
	return a;
}

/* Take room for @count more asynchronous operations (or give it back). */
static int rdmachan_rdma_async_charge(struct rdmachan *ch, s32 count)
{
	unsigned long flags;
	int ret = 0;

	spin_lock_irqsave(&ch->lock, flags);
	if (count > 0 &&
	    ch->reap.async_ops + count > RDMACHAN_MAX_ASYNC_OPS)
		ret = -ENOBUFS;
	else
		ch->reap.async_ops += count;
	spin_unlock_irqrestore(&ch->lock, flags);
	return ret;
}

/**
 * rdmachan_ioc_rdma_async() - submit the checked call @c, return at once
 * @ch: the channel
 * @c: the call: operations checked and their registrations held (the
 *	caller drops them afterwards)
 * @count: its operations
 *
 * Return: 0 when submitted; -ENOBUFS past RDMACHAN_MAX_ASYNC_OPS and
 * -ENOMEM (nothing changed in @c); or the errno of a refused call, with
 * each operation's status in @c->ops.
 */
int rdmachan_ioc_rdma_async(struct rdmachan *ch,
			    struct rdmachan_rdma_call *c, u32 count)
{
	struct rdmachan_rdma_async *a;
	int ret;
	u32 i;

	ret = rdmachan_rdma_async_charge(ch, count);
	if (ret) {
		rdmachan_info_rl(ch,
				 "RDMACHAN_IOC_RDMA: %u asynchronous operations running or not reaped already\n",
				 RDMACHAN_MAX_ASYNC_OPS);
		return ret;
	}
	a = rdmachan_rdma_async_alloc(ch, c, count);
	if (!a) {
		rdmachan_rdma_async_charge(ch, -(s32)count);
		return -ENOMEM;
	}
	ret = rdmachan_rdma_submit(ch, a->ops, count, rdmachan_rdma_async_end,
				   a);
	if (ret) {
		for (i = 0; i < count; i++) {
			c->ops[i].status = a->ops[i].status;
			c->ops[i].wc_status = a->ops[i].wc_status;
		}
		rdmachan_rdma_async_charge(ch, -(s32)count);
		kvfree(a);
	}
	return ret;
}

/**
 * rdmachan_rdma_reapable() - is an outcome waiting to be reaped?
 * @ch: the channel
 *
 * Return: true when one is.
 */
bool rdmachan_rdma_reapable(struct rdmachan *ch)
{
	return READ_ONCE(ch->reap.ready);
}

static bool rdmachan_rdma_reap_wait_done(struct rdmachan *ch)
{
	unsigned long flags;
	bool ret;

	spin_lock_irqsave(&ch->lock, flags);
	ret = ch->reap.ready || !ch->reap.async_ops;
	spin_unlock_irqrestore(&ch->lock, flags);
	return ret;
}

/* Wait for an outcome, or for nothing left to wait for. */
static int rdmachan_rdma_reap_wait(struct rdmachan *ch, bool nonblock)
{
	if (rdmachan_rdma_reap_wait_done(ch))
		return 0;
	if (nonblock)
		return -EAGAIN;
	if (ch->opts.poll_mode != RDMACHAN_POLL_DIRECT)
		return wait_event_interruptible(ch->wq,
						rdmachan_rdma_reap_wait_done(ch));
	while (!rdmachan_rdma_reap_wait_done(ch)) {
		if (signal_pending(current))
			return -ERESTARTSYS;
		if (!rdmachan_poll(ch, -1))
			rdmachan_poll_relax();
	}
	return 0;
}

/*
 * Copy up to @room records into @out without consuming them (the caller
 * holds ch->reap.mutex: nobody else takes them meanwhile).
 */
static u32 rdmachan_rdma_reap_peek(struct rdmachan *ch,
				   struct rdmachan_rdma_cqe *out, u32 room)
{
	struct rdmachan_rdma_async *a;
	unsigned long flags;
	u32 n = 0, k;

	spin_lock_irqsave(&ch->lock, flags);
	list_for_each_entry(a, &ch->reap.list, node) {
		k = min(a->count - a->next, room - n);
		memcpy(&out[n], &a->cqes[a->next], k * sizeof(out[0]));
		n += k;
		if (n == room)
			break;
	}
	spin_unlock_irqrestore(&ch->lock, flags);
	return n;
}

/* Consume @n records; free the calls they empty.  Return: still pending. */
static u32 rdmachan_rdma_reap_consume(struct rdmachan *ch, u32 n)
{
	struct rdmachan_rdma_async *a, *tmp;
	unsigned long flags;
	LIST_HEAD(empty);
	u32 k, pending;

	spin_lock_irqsave(&ch->lock, flags);
	ch->reap.ready -= n;
	ch->reap.async_ops -= n;
	pending = ch->reap.async_ops;
	list_for_each_entry_safe(a, tmp, &ch->reap.list, node) {
		if (!n)
			break;
		k = min(a->count - a->next, n);
		a->next += k;
		n -= k;
		if (a->next == a->count)
			list_move_tail(&a->node, &empty);
	}
	spin_unlock_irqrestore(&ch->lock, flags);
	list_for_each_entry_safe(a, tmp, &empty, node)
		kvfree(a);
	return pending;
}

/**
 * rdmachan_ioc_rdma_reap() - RDMACHAN_IOC_RDMA_REAP
 * @ch: the channel
 * @uarg: struct rdmachan_rdma_reap
 *
 * Return: 0 (@done outcomes copied out), -EAGAIN, -ERESTARTSYS, -EFAULT
 * (nothing consumed), -EINVAL, -ENOMEM.
 */
long rdmachan_ioc_rdma_reap(struct rdmachan *ch, void __user *uarg)
{
	struct rdmachan_rdma_cqe *out;
	struct rdmachan_rdma_reap r;
	long ret;
	u32 n;

	if (copy_from_user(&r, uarg, sizeof(r)))
		return -EFAULT;
	ret = rdmachan_check_rdma_reap(&r);
	if (ret)
		return ret;
	out = kvmalloc_array(r.count, sizeof(*out), GFP_KERNEL);
	if (!out)
		return -ENOMEM;
	if (mutex_lock_interruptible(&ch->reap.mutex)) {
		kvfree(out);
		return -ERESTARTSYS;
	}
	ret = rdmachan_rdma_reap_wait(ch, r.flags & RDMACHAN_REAP_DONTWAIT);
	if (ret)
		goto unlock;
	n = rdmachan_rdma_reap_peek(ch, out, r.count);
	if (copy_to_user(u64_to_user_ptr(r.cqes), out, n * sizeof(*out))) {
		ret = -EFAULT;
		goto unlock;
	}
	r.done = n;
	r.pending = rdmachan_rdma_reap_consume(ch, n);
	if (copy_to_user(uarg, &r, sizeof(r)))
		ret = -EFAULT;	/* the outcomes did go out */
unlock:
	mutex_unlock(&ch->reap.mutex);
	kvfree(out);
	return ret;
}

/**
 * rdmachan_rdma_reap_release() - free the outcomes nobody reaped
 * @ch: a channel torn down: every asynchronous call has ended
 */
void rdmachan_rdma_reap_release(struct rdmachan *ch)
{
	struct rdmachan_rdma_async *a, *tmp;

	list_for_each_entry_safe(a, tmp, &ch->reap.list, node)
		kvfree(a);
	INIT_LIST_HEAD(&ch->reap.list);
	ch->reap.ready = 0;
	ch->reap.async_ops = 0;
}
