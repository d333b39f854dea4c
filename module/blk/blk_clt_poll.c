// SPDX-License-Identifier: GPL-2.0-only
/*
 * rdmachan_blk client: queues of polled I/O
 *
 * A mapping may have queues for polled I/O beyond its others
 * (rdmachan_blk_map.nr_poll_queues, nvme's nr_poll_queues): blk-mq sends
 * them the requests that asked to be polled (REQ_POLLED: io_uring with
 * IOPOLL, fio's --hipri), whose submitter then busy-polls for their end
 * (blk_mq_ops.poll) instead of sleeping until an interrupt.  Each such
 * queue's channel is RDMACHAN_POLL_DIRECT: its completion queue is never
 * armed, and its completions (replies, send completions, the server's
 * credits) are processed by rcblk_clt_poll(), by the OPEN handshake's
 * wait (rcblk_clt_open_wait()), by the channel's keepalive once a period
 * when nobody polls, and by the channel's own teardown.
 *
 * The last nr_poll_queues queues are the polled ones (HCTX_TYPE_POLL);
 * the read map is the default map, as nvme-rdma's without read queues.
 * Recovery treats a polled queue as any other: its channel goes and
 * comes back with the others, and a poller finds no channel in between
 * (rcblk_clt_poll() returns 0, the submitter keeps polling, as nvme's
 * does on a queue that is not live).
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/blk-mq.h>
#include <linux/jiffies.h>
#include <linux/llist.h>
#include <linux/preempt.h>
#include <linux/workqueue.h>

#include "blk_clt.h"

/* completions one call of rcblk_clt_poll() processes at most */
#define RCBLK_CLT_POLL_BUDGET	16

/**
 * rcblk_clt_queue_polled() - is this a queue of polled I/O?
 * @map: the mapping
 * @qid: the queue
 *
 * Context: any.
 * Return: true for the last &rcblk_clt_map.nr_poll_queues queues.
 */
bool rcblk_clt_queue_polled(const struct rcblk_clt_map *map, u16 qid)
{
	return qid >= map->nr_queues - map->nr_poll_queues;
}

/**
 * rcblk_clt_set_channel() - publish a queue's channel, or take it away
 * @q: the queue
 * @ch: the channel, or NULL
 *
 * Context: process context, the mapping's lock held; dispatch quiesced
 * or the queue not yet in use.
 * Return: the channel it had.
 */
struct rdmachan *rcblk_clt_set_channel(struct rcblk_clt_queue *q,
				       struct rdmachan *ch)
{
	struct rdmachan *old;

	spin_lock(&q->poll_lock);
	old = q->ch;
	q->ch = ch;
	spin_unlock(&q->poll_lock);
	return old;
}

/**
 * rcblk_clt_open_wait() - wait for a queue's OPEN_RSP
 * @q: the queue, its OPEN sent
 * @left: the bound, in jiffies
 *
 * A polled queue's answer arrives only when its channel is polled: poll
 * it between short waits.
 *
 * Context: process context, the mapping's lock held.
 * Return: what wait_for_completion_killable_timeout() returns: > 0 once
 * completed, 0 after @left, -ERESTARTSYS when killed.
 */
long rcblk_clt_open_wait(struct rcblk_clt_queue *q, unsigned long left)
{
	unsigned long end = jiffies + left;
	long ret;

	if (!rcblk_clt_queue_polled(q->map, q->qid))
		return wait_for_completion_killable_timeout(&q->open_done,
							    left);
	for (;;) {
		rdmachan_poll(q->ch, -1);
		ret = wait_for_completion_killable_timeout(&q->open_done, 1);
		if (ret)
			return ret;
		if (time_after_eq(jiffies, end))
			return 0;
	}
}

/**
 * rcblk_clt_poll_defer() - leave a polled request's end to task context
 * @rq: a request that is to end now
 *
 * A polled bio comes from a per-CPU cache that only task context may
 * give it back to (bio_put()), and the end of a request with a
 * registration comes from the registrations' completion queue, in
 * softirq context.  Such a request goes on its queue's poll_ends, which
 * the poller's next rcblk_clt_poll() ends; should no poller come within
 * a jiffy (the submitter gave up polling), poll_work does.
 *
 * Context: any.
 * Return: true when it was left to them; false: end it now.
 */
bool rcblk_clt_poll_defer(struct request *rq)
{
	struct rcblk_clt_req *req = blk_mq_rq_to_pdu(rq);
	struct rcblk_clt_queue *q = rq->mq_hctx->driver_data;

	if (!(rq->cmd_flags & REQ_POLLED) || !in_interrupt())
		return false;
	if (llist_add(&req->poll_node, &q->poll_ends))
		queue_delayed_work(rcblk_clt_wq, &q->poll_work, 1);
	return true;
}

/* End the requests rcblk_clt_poll_defer() left; task context */
static int rcblk_clt_poll_ends(struct rcblk_clt_queue *q)
{
	struct llist_node *first = llist_del_all(&q->poll_ends);
	struct rcblk_clt_req *req, *next;
	int n = 0;

	first = llist_reverse_order(first);
	llist_for_each_entry_safe(req, next, first, poll_node) {
		rcblk_clt_reply_done(blk_mq_rq_from_pdu(req));
		n++;
	}
	return n;
}

/**
 * rcblk_clt_poll_work() - end the deferred polled requests no poller took
 * @work: &rcblk_clt_queue.poll_work
 *
 * Context: process context (rcblk_clt_wq).
 */
void rcblk_clt_poll_work(struct work_struct *work)
{
	struct rcblk_clt_queue *q = container_of(to_delayed_work(work),
						 struct rcblk_clt_queue,
						 poll_work);

	rcblk_clt_poll_ends(q);
}

/**
 * rcblk_clt_poll_flush() - end every deferred polled request now
 * @map: the mapping
 *
 * Context: process context.
 */
void rcblk_clt_poll_flush(struct rcblk_clt_map *map)
{
	u32 i;

	for (i = 0; i < map->nr_queues; i++) {
		cancel_delayed_work_sync(&map->queues[i].poll_work);
		rcblk_clt_poll_ends(&map->queues[i]);
	}
}

/**
 * rcblk_clt_map_queues() - blk_mq_ops.map_queues: the default map, and
 *	with queues of polled I/O the read map (the default one's queues)
 *	and the polled map
 * @set: the mapping's tag set
 *
 * Context: process context (blk-mq).
 */
void rcblk_clt_map_queues(struct blk_mq_tag_set *set)
{
	struct rcblk_clt_map *map = set->driver_data;
	struct blk_mq_queue_map *def = &set->map[HCTX_TYPE_DEFAULT];
	struct blk_mq_queue_map *rd = &set->map[HCTX_TYPE_READ];
	struct blk_mq_queue_map *poll = &set->map[HCTX_TYPE_POLL];

	def->queue_offset = 0;
	def->nr_queues = map->nr_queues - map->nr_poll_queues;
	blk_mq_map_queues(def);
	if (set->nr_maps <= HCTX_TYPE_POLL)
		return;
	rd->queue_offset = 0;
	rd->nr_queues = def->nr_queues;
	blk_mq_map_queues(rd);
	poll->queue_offset = def->nr_queues;
	poll->nr_queues = map->nr_poll_queues;
	blk_mq_map_queues(poll);
}

/**
 * rcblk_clt_poll() - blk_mq_ops.poll: the submitter of polled I/O looks
 *	for its end
 * @hctx: a polled queue
 * @iob: unused: requests end one by one, as interrupts end them
 *
 * Under the queue's poll_lock, so that the channel does not close
 * meanwhile.
 *
 * Context: process context (the submitter's), may not sleep.
 * Return: completions processed; 0 while the queue has no channel
 * (recovery) and while another thread polls it.
 */
int rcblk_clt_poll(struct blk_mq_hw_ctx *hctx, struct io_comp_batch *iob)
{
	struct rcblk_clt_queue *q = hctx->driver_data;
	int n = 0;

	spin_lock(&q->poll_lock);
	if (q->ch)
		n = rdmachan_poll(q->ch, RCBLK_CLT_POLL_BUDGET);
	spin_unlock(&q->poll_lock);
	return n + rcblk_clt_poll_ends(q);
}
