// SPDX-License-Identifier: GPL-2.0-only
/*
 * rdmachan_blk client: the link (opening the queues, recovery)
 *
 * Link loss (nvme-rdma's error recovery, with the core's reconnect loop):
 * a failed channel, or a request that timed out too often on a live one,
 * calls rcblk_clt_fail(), which marks the mapping RECOVERING and queues
 * err_work: quiesce dispatch; stop every channel (rdmachan_shutdown():
 * from then on the server reaches no request's pages); take the requests
 * on the wire back onto blk-mq's requeue list (held, not failed); destroy
 * the pools and close the channels; tell the loop
 * (rdmachan_reconnect_lost()).  Each attempt (rcblk_clt_attempt())
 * connects and opens every queue again, checks that the export is the
 * same one (identity, size, geometry) and that the channels are no
 * smaller, makes the pools, then lets dispatch resubmit what was held.
 * At fast_io_fail_ms dispatch runs again only to fail I/O; at
 * loss_timeout_ms the loop gives up: the mapping is dead and I/O fails
 * until it is remapped (rcblk_clt_remap(): one attempt, on demand) or
 * unmapped.
 *
 * Teardown order (rcblk_clt_shutdown()): stop dispatch (quiesce); with
 * requests on the wire stop the channels, then end those requests (the
 * peer cannot reach their pages any more); destroy the pools, then close
 * the channels (rdmachan_close() wants the pools gone first); let
 * dispatch run again (it fails fast).
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/blkdev.h>
#include <linux/cpumask.h>
#include <linux/idr.h>
#include <linux/inet.h>
#include <linux/module.h>
#include <linux/random.h>
#include <linux/sizes.h>
#include <linux/slab.h>
#include <linux/uaccess.h>
#include <net/addrconf.h>
#include <net/route.h>

#include "blk_clt.h"
#include "compat.h"

/*
 * Dispatch stopped by us, once: the recovery, fast_io_fail, the death at
 * the loss timeout and the teardown each quiesce or unquiesce, and
 * blk-mq counts.  Under map->qlock (taken inside map->lock, if at all).
 */
static void rcblk_clt_stop_channels(struct rcblk_clt_map *map);

void rcblk_clt_quiesce(struct rcblk_clt_map *map)
{
	mutex_lock(&map->qlock);
	if (!test_and_set_bit(RCBLK_M_QUIESCED, &map->flags))
		blk_mq_quiesce_queue(map->disk->queue);
	mutex_unlock(&map->qlock);
}

void rcblk_clt_unquiesce(struct rcblk_clt_map *map)
{
	mutex_lock(&map->qlock);
	if (test_and_clear_bit(RCBLK_M_QUIESCED, &map->flags))
		blk_mq_unquiesce_queue(map->disk->queue);
	/*
	 * Not once the disk is deleted: no request is left to requeue, and
	 * del_gendisk() cancelled the queue's work for good; work queued now
	 * would run after put_disk() freed the queue
	 */
	if (!test_bit(RCBLK_M_DELETED, &map->flags))
		blk_mq_kick_requeue_list(map->disk->queue);
	mutex_unlock(&map->qlock);
}

/*
 * A channel failed, or a request timed out too often: hold the requests
 * on the wire and start reconnecting.  Unmapping (or dead), the mapping
 * is torn down instead: its I/O fails.
 */
void rcblk_clt_err_work(struct work_struct *work)
{
	struct rcblk_clt_map *map = container_of(work, struct rcblk_clt_map,
						 err_work);
	int err = READ_ONCE(map->last_error) ?: -ECONNRESET;
	u32 held;

	if (test_bit(RCBLK_M_UNMAPPING, &map->flags) ||
	    test_bit(RCBLK_M_DEAD, &map->flags)) {
		/* no attempt from now on; none runs when this returns */
		rdmachan_reconnect_stop(map->rc);
		rcblk_clt_shutdown(map);
		return;
	}
	mutex_lock(&map->lock);
	if (test_bit(RCBLK_M_CLOSED, &map->flags) ||
	    !test_bit(RCBLK_M_RECOVERING, &map->flags)) {
		mutex_unlock(&map->lock);
		return;
	}
	rcblk_clt_quiesce(map);
	/* a fast_io_fail of the last loss ran late: this loss starts anew */
	clear_bit(RCBLK_M_FAILFAST, &map->flags);
	rcblk_clt_stop_channels(map);
	held = rcblk_clt_hold_all(map);
	rcblk_clt_destroy_pools(map);
	rcblk_clt_close_channels(map);
	mutex_unlock(&map->lock);
	pr_warn_ratelimited("rcblk%d: export %s on %pISpc: channels stopped, %u request(s) held\n",
			    map->index, map->name, &map->server, held);
	rdmachan_reconnect_lost(map->rc, err);
}

/**
 * rcblk_clt_export_gone() - the server removed the export (its notice)
 * @map: the mapping
 *
 * A forced unexport is no link loss: the mapping dies at once (its I/O
 * fails) instead of reconnecting to an export that is no more.
 *
 * Context: any (the channel's receive callback).
 */
void rcblk_clt_export_gone(struct rcblk_clt_map *map)
{
	WRITE_ONCE(map->last_error, -ENODEV);
	if (!test_bit(RCBLK_M_LIVE, &map->flags) ||
	    test_and_set_bit(RCBLK_M_DEAD, &map->flags))
		return;
	pr_err("rcblk%d: export %s was removed on %pISpc (forced unexport): mapping dead, I/O fails until it is remapped or unmapped\n",
	       map->index, map->name, &map->server);
	queue_work(rcblk_clt_wq, &map->err_work);
}

/**
 * rcblk_clt_fail() - a channel of @map failed, or a request timed out
 * @map: the mapping
 * @err: why, a negative errno
 *
 * A live mapping starts its recovery once (RCBLK_M_RECOVERING, err_work):
 * requests are held and the link reconnected.  While recovering, dead or
 * before the disk exists only @err is kept.
 *
 * Context: any.
 */
void rcblk_clt_fail(struct rcblk_clt_map *map, int err)
{
	WRITE_ONCE(map->last_error, err);
	if (!test_bit(RCBLK_M_LIVE, &map->flags) ||
	    test_bit(RCBLK_M_DEAD, &map->flags) ||
	    test_and_set_bit(RCBLK_M_RECOVERING, &map->flags))
		return;
	pr_warn_ratelimited("rcblk%d: export %s on %pISpc: link lost (%pe): holding its I/O, stopping its channels\n",
			    map->index, map->name, &map->server, ERR_PTR(err));
	queue_work(rcblk_clt_wq, &map->err_work);
}

void rcblk_clt_close_channels(struct rcblk_clt_map *map)
{
	struct rdmachan *ch;
	u32 i;

	for (i = 0; i < map->nr_queues; i++) {
		/* out of a poller's reach first */
		ch = rcblk_clt_set_channel(&map->queues[i], NULL);
		if (ch)
			rdmachan_close(ch);
	}
	rcblk_clt_zc_flush(map);
}

void rcblk_clt_destroy_pools(struct rcblk_clt_map *map)
{
	u32 i;

	for (i = 0; i < map->nr_queues; i++) {
		rcblk_clt_stage_dereg(&map->queues[i]);
		if (map->queues[i].pool) {
			rdmachan_mr_pool_destroy(map->queues[i].pool);
			map->queues[i].pool = NULL;
		}
	}
}

static bool rcblk_clt_on_wire(struct request *rq, void *data)
{
	struct rcblk_clt_req *req = blk_mq_rq_to_pdu(rq);
	int state = atomic_read(&req->state);
	bool *any = data;

	/* replied, a request may wait for its invalidation or its send */
	if (state != RCBLK_RQ_SENT && state != RCBLK_RQ_REPLY)
		return true;
	*any = true;
	return false;
}

/*
 * Stop every channel's I/O at once (disconnect, drain, QP destroyed): on
 * return the server's RDMA can reach no request's pages, whatever the
 * provider's local invalidation does (soft-RoCE's may complete while its
 * responder still copies a WRITE).  nvme-rdma stops its queues so before
 * cancelling.
 */
static void rcblk_clt_stop_channels(struct rcblk_clt_map *map)
{
	u32 i;

	for (i = 0; i < map->nr_queues; i++)
		if (map->queues[i].ch)
			rdmachan_shutdown(map->queues[i].ch);
	/* every zero-copy send's part done: the ends it queued too */
	rcblk_clt_zc_flush(map);
}

/**
 * rcblk_clt_shutdown() - close a mapping's channels, end its requests
 * @map: a mapping with a disk
 *
 * Idempotent.  Dispatch is quiesced while the channels close, so no
 * queue_rq uses a channel being freed.  With requests still on the wire
 * (a failure, a forced unmap) the channels are stopped first, then those
 * requests end with BLK_STS_IOERR: the server can no longer reach their
 * pages.  Without any (an unmap of an idle disk) each channel closes in
 * order.  Dispatch resumes and fails fast.  Bounded by the drains (the
 * transport's retry time) and rdmachan_close() per channel.
 *
 * Context: process context, sleeps.
 */
void rcblk_clt_shutdown(struct rcblk_clt_map *map)
{
	bool on_wire = false;

	mutex_lock(&map->lock);
	if (test_bit(RCBLK_M_CLOSED, &map->flags)) {
		mutex_unlock(&map->lock);
		return;
	}
	set_bit(RCBLK_M_DEAD, &map->flags);
	rcblk_clt_quiesce(map);
	blk_mq_tagset_busy_iter(&map->tag_set, rcblk_clt_on_wire, &on_wire);
	if (on_wire)
		rcblk_clt_stop_channels(map);
	rcblk_clt_cancel_all(map);
	rcblk_clt_destroy_pools(map);
	set_bit(RCBLK_M_CLOSED, &map->flags);
	rcblk_clt_end_all(map);
	rcblk_clt_close_channels(map);
	/* the held requests too: they fail now */
	rcblk_clt_unquiesce(map);
	mutex_unlock(&map->lock);
}

static int rcblk_clt_connect(struct rcblk_clt_map *map, u16 qid)
{
	struct rcblk_clt_queue *q = &map->queues[qid];
	struct rdmachan_opts opts = {
		.queue_depth	= map->queue_depth,
		.max_msg_size	= sizeof(struct rcblk_wire_io) +
				  min(rcblk_param(clt_inline_kb),
				      RCBLK_CLT_MAX_INLINE_KB) * 1024,
		.timeout_ms	= rcblk_clt_connect_timeout(),
		.poll_mode	= rcblk_clt_queue_polled(map, qid) ?
				  RDMACHAN_POLL_DIRECT : RDMACHAN_POLL_SOFTIRQ,
		.max_send_regs	= 1,
		.zc_send	= true,	/* inline WRITEs (blk_clt_inline.c) */
		.min_grant	= RCBLK_MIN_GRANT,
		.imm_credit	= true,
		/* a poller runs the provider's work as it polls */
		.post_defer	= !rcblk_clt_queue_polled(map, qid),
	};
	struct sockaddr *src = map->src.ss_family == AF_UNSPEC ? NULL :
			       (struct sockaddr *)&map->src;
	struct rdmachan *ch;
	int ret;

	q->map = map;
	q->qid = qid;
	/* a reconnect opens the queue anew */
	q->open_len = 0;
	q->open_err = 0;
	init_completion(&q->open_done);
	/* at least the OPEN and the OPEN_RSP fit; reconnecting, what was */
	opts.max_msg_size = max3(opts.max_msg_size,
				 (u32)sizeof(struct rcblk_wire_open),
				 (u32)sizeof(struct rcblk_wire_io) +
				 map->inline_max);
	ret = rdmachan_connect((struct sockaddr *)&map->server, src, &opts,
			       &rcblk_clt_chan_ops, q, &ch);
	rcblk_clt_set_channel(q, ret ? NULL : ch);
	if (ret) {
		/* reconnecting: the loop logs each failed attempt */
		if (!test_bit(RCBLK_M_RECOVERING, &map->flags))
			pr_err("rcblk%d: connecting queue %u to %pISpc for export %s: %d\n",
			       map->index, qid, &map->server, map->name, ret);
	}
	return ret;
}

static int rcblk_clt_open_queue(struct rcblk_clt_map *map, u16 qid,
				u32 max_io, struct rcblk_geo *geo)
{
	struct rcblk_clt_queue *q = &map->queues[qid];
	struct rcblk_wire_open o;
	struct kvec v = { .iov_base = &o, .iov_len = sizeof(o) };
	const char *why;
	u16 flags = RCBLK_OPEN_FENCE | (map->ro ? RCBLK_OPEN_RO : 0);
	long left;
	int ret;

	/*
	 * A READ answered by its data's WRITE_WITH_IMM leaves the client a
	 * local invalidation, whose completion comes in softirq, on another
	 * queue: a polled queue asks for the reply that invalidates
	 * remotely instead, which its poller ends at once (blk_clt_poll.c).
	 */
	if (!rcblk_clt_queue_polled(map, qid))
		flags |= RCBLK_OPEN_WRITE_IMM;
	/* this channel's server says anew what it grants */
	clear_bit(RCBLK_Q_BATCHES, &q->flags);
	clear_bit(RCBLK_Q_STAGED, &q->flags);
	rcblk_clt_encode_open(&o, flags, map->offer,
			      max_io, qid, map->nr_queues, map->gen,
			      map->session, map->name);
	ret = rdmachan_send(q->ch, &v, 1, 0, RDMACHAN_SEND_NONBLOCK);
	if (ret) {
		pr_err("rcblk%d: sending OPEN of %s to %pISpc: %d\n",
		       map->index, map->name, &map->server, ret);
		return ret;
	}
	left = msecs_to_jiffies(rcblk_clt_connect_timeout());
	left = rcblk_clt_open_wait(q, left);
	if (left < 0)
		return left;
	if (!left) {
		pr_err("rcblk%d: no OPEN_RSP for %s from %pISpc in %u ms\n",
		       map->index, map->name, &map->server,
		       rcblk_clt_connect_timeout());
		return -ETIMEDOUT;
	}
	if (!q->open_len) {
		ret = q->open_err ? q->open_err : -ECONNRESET;
		pr_err("rcblk%d: channel to %pISpc closed before OPEN_RSP of %s: %d\n",
		       map->index, &map->server, map->name, ret);
		return ret;
	}
	ret = rcblk_clt_check_open_rsp(&q->rsp, q->open_len, map->offer,
				       max_io, geo, &why);
	if (!ret && geo->features & RCBLK_F_REPLY_BATCH)
		set_bit(RCBLK_Q_BATCHES, &q->flags);
	if (!ret && geo->features & RCBLK_F_READ_STAGED)
		set_bit(RCBLK_Q_STAGED, &q->flags);
	if (ret == -EPROTO)
		pr_err("rcblk%d: bad OPEN_RSP for %s from %pISpc: %s\n",
		       map->index, map->name, &map->server, why);
	else if (ret == -EAGAIN)
		pr_warn_ratelimited("rcblk%d: %pISpc fenced connection %u of export %s: I/O of an earlier one may still reach the device: retrying later\n",
				    map->index, &map->server, map->gen,
				    map->name);
	else if (ret)
		pr_err("rcblk%d: %pISpc refused export %s: %d\n",
		       map->index, &map->server, map->name, ret);
	return ret;
}

/*
 * A registration pool per queue, of queue_depth x max_pages, and its
 * staging pages registered
 */
static int rcblk_clt_create_pools(struct rcblk_clt_map *map)
{
	u32 i;
	int ret;

	for (i = 0; i < map->nr_queues; i++) {
		ret = rdmachan_mr_pool_create(map->queues[i].ch,
					      map->queue_depth, map->max_pages,
					      &map->queues[i].pool);
		if (ret) {
			map->queues[i].pool = NULL;
			pr_err("rcblk%d: registration pool of %u x %u pages: %d\n",
			       map->index, map->queue_depth, map->max_pages,
			       ret);
			return ret;
		}
		rcblk_clt_stage_reg(&map->queues[i]);
	}
	return 0;
}

int rcblk_clt_setup(struct rcblk_clt_map *map)
{
	struct rcblk_geo geo;
	u32 i, pages = U32_MAX, depth = U32_MAX, msg = U32_MAX, max_io;
	int ret;

	for (i = 0; i < map->nr_queues; i++) {
		ret = rcblk_clt_connect(map, i);
		if (ret)
			return ret;
		pages = min(pages, rdmachan_max_reg_pages(map->queues[i].ch));
		depth = min(depth, rdmachan_queue_depth(map->queues[i].ch));
		msg = min(msg, rdmachan_max_msg_size(map->queues[i].ch));
	}
	pages = min_t(u32, pages, RCBLK_CLT_MAX_IO / PAGE_SIZE + 1);
	if (pages < 2 || depth < 2 || depth > U16_MAX ||
	    msg < sizeof(struct rcblk_wire_open)) {
		pr_err("rcblk%d: channels to %pISpc too small: %u pages per registration, depth %u, messages of %u bytes\n",
		       map->index, &map->server, pages, depth, msg);
		return -EOPNOTSUPP;
	}
	max_io = (pages - 1) * PAGE_SIZE;

	for (i = 0; i < map->nr_queues; i++) {
		ret = rcblk_clt_open_queue(map, i, max_io,
					   i ? &geo : &map->geo);
		if (ret)
			return ret;
		if (i && !rcblk_clt_geo_same(&geo, &map->geo)) {
			pr_err("rcblk%d: queue %u of %s on %pISpc answered another export or geometry\n",
			       map->index, i, map->name, &map->server);
			return -EPROTO;
		}
	}
	if (!map->ro && (map->geo.export_flags & RCBLK_EXP_RO))
		pr_info("rcblk%d: export %s is read-only\n", map->index,
			map->name);

	map->queue_depth = depth;
	map->max_pages = pages;
	map->max_segs = pages - 1;
	map->inline_max = min3(map->geo.inline_max,
			       min(rcblk_param(clt_inline_kb),
				   RCBLK_CLT_MAX_INLINE_KB) * 1024,
			       msg - (u32)sizeof(struct rcblk_wire_io));
	map->inline_max = min(map->inline_max, map->geo.max_io);
	/* a page per tag, as many as one registration holds */
	if (map->offer & RCBLK_F_READ_STAGED)
		map->stage_pages = min(depth, pages - 1);
	for (i = 0; i < map->nr_queues; i++) {
		ret = rcblk_clt_stage_alloc(&map->queues[i], map->stage_pages);
		if (ret)
			return ret;
	}
	ret = rcblk_clt_create_pools(map);
	if (ret)
		return ret;
	return rcblk_clt_make_disk(map);
}

/*
 * One reconnect attempt (rdmachan_reconnect_ops.attempt, on the core's
 * reconnect work): every queue connected and opened again as the next
 * connection of the mapping's session (fenced by the server until the
 * earlier ones' I/O has ended: -EAGAIN, the loop tries again), each
 * answer the same export as before (its identity, size and everything
 * negotiated: rcblk_clt_geo_same()), each channel at least
 * as large as the tag set and pools need; then the pools, and dispatch
 * resumes with the held requests.  On failure what was made is undone.
 */
int rcblk_clt_attempt(void *priv)
{
	struct rcblk_clt_map *map = priv;
	u32 max_io = (map->max_pages - 1) * PAGE_SIZE, i;
	struct rcblk_geo geo;
	int ret = -ESHUTDOWN, lost = 0;

	mutex_lock(&map->lock);
	if (test_bit(RCBLK_M_CLOSED, &map->flags) ||
	    test_bit(RCBLK_M_UNMAPPING, &map->flags) ||
	    test_bit(RCBLK_M_DEAD, &map->flags) ||
	    !test_bit(RCBLK_M_RECOVERING, &map->flags))
		goto out;
	/*
	 * The same session, the next connection: the server admits it only
	 * once no bio of an earlier one can reach the export's device
	 * (RCBLK_OPEN_FENCE), so the held requests go again only then.
	 */
	if (!++map->gen)
		map->gen = 1;
	for (i = 0; i < map->nr_queues; i++) {
		struct rdmachan *ch;

		ret = rcblk_clt_connect(map, i);
		if (ret)
			goto undo;
		ch = map->queues[i].ch;
		if (rdmachan_max_reg_pages(ch) < map->max_pages ||
		    rdmachan_queue_depth(ch) < map->queue_depth ||
		    rdmachan_max_msg_size(ch) <
		    sizeof(struct rcblk_wire_io) + map->inline_max) {
			pr_err("rcblk%d: queue %u to %pISpc reconnected smaller: %u pages, depth %u, messages of %u bytes\n",
			       map->index, i, &map->server,
			       rdmachan_max_reg_pages(ch),
			       rdmachan_queue_depth(ch),
			       rdmachan_max_msg_size(ch));
			ret = -EPROTO;
			goto undo;
		}
	}
	for (i = 0; i < map->nr_queues; i++) {
		ret = rcblk_clt_open_queue(map, i, max_io, &geo);
		if (ret)
			goto undo;
		if (!rcblk_clt_geo_same(&geo, &map->geo)) {
			pr_err("rcblk%d: export %s on %pISpc is not the one mapped (identity %*phN, %llu sectors; was %*phN, %llu sectors)\n",
			       map->index, map->name, &map->server,
			       RCBLK_ID_LEN, geo.export_id, geo.nr_sectors,
			       RCBLK_ID_LEN, map->geo.export_id,
			       map->geo.nr_sectors);
			ret = -ESTALE;
			goto undo;
		}
	}
	ret = rcblk_clt_create_pools(map);
	if (ret)
		goto undo;

	/* the channels before the flag (queue_rq's test_bit_acquire()) */
	clear_bit(RCBLK_M_FAILFAST, &map->flags);
	clear_bit_unlock(RCBLK_M_RECOVERING, &map->flags);
	smp_mb__after_atomic();	/* the flag before the channels' states */
	/* a channel that failed from here on calls rcblk_clt_fail() itself */
	for (i = 0; i < map->nr_queues && !lost; i++)
		if (rdmachan_get_state(map->queues[i].ch) != RDMACHAN_CONNECTED)
			lost = rdmachan_error(map->queues[i].ch) ?: -ECONNRESET;
	WRITE_ONCE(map->last_error, 0);
	atomic64_inc(&map->st.reconnects);
	rcblk_clt_unquiesce(map);
	mutex_unlock(&map->lock);
	pr_info("rcblk%d: export %s on %pISpc back: %u queues, resubmitting held requests\n",
		map->index, map->name, &map->server, map->nr_queues);
	/* failed before the flag was clear: nobody else saw it */
	if (lost)
		rcblk_clt_fail(map, lost);
	return 0;

undo:
	rcblk_clt_destroy_pools(map);
	rcblk_clt_close_channels(map);
	WRITE_ONCE(map->last_error, ret);
out:
	mutex_unlock(&map->lock);
	return ret;
}

/* rdmachan_reconnect_ops.fast_fail: fail what is held and what comes */
static void rcblk_clt_fast_fail(void *priv)
{
	struct rcblk_clt_map *map = priv;

	/* not map->lock: an attempt may hold it for its connect timeout */
	if (!test_bit(RCBLK_M_RECOVERING, &map->flags) ||
	    test_bit(RCBLK_M_CLOSED, &map->flags))
		return;
	set_bit(RCBLK_M_FAILFAST, &map->flags);
	pr_warn_ratelimited("rcblk%d: export %s on %pISpc: fast_io_fail_ms passed: I/O fails while reconnecting goes on\n",
			    map->index, map->name, &map->server);
	rcblk_clt_unquiesce(map);
}

/* rdmachan_reconnect_ops.state_change: back (logged), or given up */
static void rcblk_clt_link_state(void *priv, enum rdmachan_link_state state,
				 int err)
{
	struct rcblk_clt_map *map = priv;

	if (state != RDMACHAN_LINK_DEAD)
		return;
	mutex_lock(&map->lock);
	if (!test_bit(RCBLK_M_CLOSED, &map->flags)) {
		set_bit(RCBLK_M_DEAD, &map->flags);
		pr_err("rcblk%d: export %s on %pISpc not back within loss_timeout_ms (%u, last error %pe): mapping dead, I/O fails until it is remapped or unmapped\n",
		       map->index, map->name, &map->server,
		       map->policy.loss_timeout_ms, ERR_PTR(err));
		rcblk_clt_unquiesce(map);
	}
	mutex_unlock(&map->lock);
}

const struct rdmachan_reconnect_ops rcblk_clt_rc_ops = {
	.attempt	= rcblk_clt_attempt,
	.state_change	= rcblk_clt_link_state,
	.fast_fail	= rcblk_clt_fast_fail,
};
