// SPDX-License-Identifier: GPL-2.0-only
/*
 * rdmachan: the send queue - what a channel posts there, and the
 * registration QP
 *
 * Every work request of a channel's send queue is posted here, through
 * rdmachan_post_send_locked(), but the teardown's drain marker: a ready
 * message slot becomes its SEND (rdmachan_post_tx_locked()), with the
 * fast registrations it carries in front of it; a one-sided request's
 * registrations go in front of it (rdmachan_post_reg_locked()); a pool
 * registration's LOCAL_INV goes on one queue or the other
 * (rdmachan_post_inv_locked()).  chan_send.c keeps the send ring and
 * calls this once a slot; chan_pool.c keeps the pools' state, and
 * chan_rdma.c the one-sided requests.  As nvme-rdma keeps
 * nvme_rdma_post_send() beside its map_data().
 *
 * Send queue room.  A channel's pools hold at most queue_depth *
 * opts.max_send_regs registrations, and its send queue has two entries
 * more per credit and registration (rdmachan_qp_sizes(), bounds.h): one
 * for each registration's REG_MR (retired with the send behind it) and
 * one for its LOCAL_INV (at most one in flight per registration); on rxe
 * one more per credit, for the LOCAL_INV fencing a send's registrations
 * (rdmachan_post_reg_locked()).  So no post can find the queue full, and
 * none needs to wait or refuse.
 *
 * The registration QP.  rxe executes again the local operations it finds
 * behind a send when it goes back to retransmit it, and a REG_MR run
 * twice fails the QP, so on rxe no fast registration may wait in a send
 * queue behind a send not yet acknowledged.  There a channel whose sends
 * carry registrations has &rdmachan_res.reg_qp (rdmachan_regq_create()),
 * an RC QP of its PD connected to itself that runs local operations
 * only: a send's REG_MRs go there (rdmachan_regq_post_locked()), the
 * last one signalled, and its completion posts the message, the ring's
 * order kept (&rdmachan_tx.regs_pending); a put's LOCAL_INV goes there
 * too.  It has room for two work requests per registration the pools
 * may hold.  That costs the send a completion's round through the CQ,
 * which a fence on an idle send queue does not: when the peer has
 * answered every message posted and no one-sided request is under way
 * (rdmachan_send_idle_locked(), a QD1 block request's case), a send's
 * registrations go in front of it behind the fence, and a put's
 * LOCAL_INV on the channel's send queue, as before.  The registrations
 * of one-sided requests stay on the channel's send queue, behind a
 * fencing LOCAL_INV.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <rdma/ib_cache.h>

#include "rdmachan-pri.h"
#include "chan_post.h"
#include "chan_grant.h"

/**
 * rdmachan_post_send_locked() - post a chain on the channel's send queue
 * @ch: the channel
 * @first: the chain
 * @bad: as for ib_post_send()
 *
 * Every post of the send queue but the teardown's drain goes through
 * here, so that &rdmachan_send_ring.inv_tail follows what the queue ends
 * in: a LOCAL_INV and fast registrations after it only.  Nothing is
 * known after a refused post (the channel fails then): not set.
 *
 * Context: channel lock held.
 * Return: as ib_post_send().
 */
int rdmachan_post_send_locked(struct rdmachan *ch,
			      const struct ib_send_wr *first,
			      const struct ib_send_wr **bad)
{
	const struct ib_send_wr *wr;
	bool tail = ch->send.inv_tail;
	int ret;

	lockdep_assert_held(&ch->lock);
	for (wr = first; wr; wr = wr->next) {
		if (wr->opcode == IB_WR_LOCAL_INV)
			tail = true;
		else if (wr->opcode != IB_WR_REG_MR)
			tail = false;
	}
	ret = ib_post_send(ch->res.qp, first, bad);
	ch->send.inv_tail = tail && !ret;
	return ret;
}

/* Append @wr to chain @c */
void rdmachan_chain_add(struct rdmachan_chain *c, struct ib_send_wr *wr)
{
	wr->next = NULL;
	if (c->last)
		c->last->next = wr;
	else
		c->first = wr;
	c->last = wr;
}

/**
 * rdmachan_post_reg_locked() - chain a pool registration's REG_MR
 * @mr: a pool registration, mapped and not posted yet: posted from here
 * @fence: whether the chain still needs its fence (see below); cleared
 *	once chained
 * @c: the chain
 *
 * Where &rdmachan_res.reg_fence (rxe) the registrations follow a LOCAL_INV
 * of the first one's previous key, the one its last REG_MR gave the
 * device (the MR is free: it changes nothing).
 * rxe runs a LOCAL_INV only once every work request before it completed,
 * so the REG_MRs behind it never wait behind an unacknowledged send: when
 * rxe goes back to retransmit, it starts again at its oldest work request
 * not completed and runs again the local operations from there on; a
 * REG_MR run twice finds its MR valid, fails ("rxe_reg_fast_mr: ... not
 * free") and stalls the send queue for good.  Its completer retires the
 * local operations done at the head of the queue before it starts a
 * retransmission, so only one that ran while a send before it was not
 * acknowledged runs twice.  Any LOCAL_INV fences on rxe, the one a
 * registration's put posts as well: where the send queue ends in one
 * and local operations only (&rdmachan_send_ring.inv_tail), the caller
 * passes @fence false.
 *
 * Context: channel lock held.
 */
void rdmachan_post_reg_locked(struct rdmachan_mr *mr, bool *fence,
			      struct rdmachan_chain *c)
{
	struct rdmachan_mr_preg *p = &mr->preg;

	lockdep_assert_held(&mr->ch->lock);
	p->state = RDMACHAN_PR_POSTED;
	p->hw_valid = true;
	if (*fence && mr->ch->res.reg_fence) {
		/* the key the device holds, not a mapping's never sent */
		memset(&p->fence_wr, 0, sizeof(p->fence_wr));
		p->fence_wr.opcode = IB_WR_LOCAL_INV;
		p->fence_wr.wr_cqe = &p->reg_cqe;
		p->fence_wr.ex.invalidate_rkey = p->dev_key;
		rdmachan_chain_add(c, &p->fence_wr);
	}
	*fence = false;
	p->dev_key = p->reg_wr.key;
	rdmachan_chain_add(c, &p->reg_wr.wr);
}

/*
 * Chain the fast registrations of send slot @tx (behind a fence when
 * @fence) and clear them.  Channel lock held.
 */
static void rdmachan_post_tx_regs(struct rdmachan_tx *tx, bool fence,
				  struct rdmachan_chain *c)
{
	struct rdmachan_tx_ext *te = rdmachan_tx_ext(tx->ch, tx);
	u32 i;

	for (i = 0; i < tx->nr_regs; i++) {
		struct rdmachan_mr *mr = te->regs[i];

		/* given back (a bug of the user's) while the send was filled */
		if (mr->preg.state != RDMACHAN_PR_CLAIMED)
			continue;
		rdmachan_post_reg_locked(mr, &fence, c);
	}
	tx->nr_regs = 0;
}

/*
 * The gather list of zero-copy slot @tx: its header unless that is the
 * immediate (@hdr_imm), the payload mapped by rdmachan_send_sg_zc(),
 * then the in-band immediate (@trail bytes after the header in @tx->buf).
 */
static void rdmachan_zc_gather(struct rdmachan *ch, struct rdmachan_tx *tx,
			       bool hdr_imm, u32 trail)
{
	struct ib_sge *row = rdmachan_zc_row(ch, tx);
	u32 lkey = ch->res.pd->local_dma_lkey;

	row[0].addr = tx->dma;
	row[0].length = RDMACHAN_HDR_LEN;
	row[0].lkey = lkey;
	if (trail) {
		row[1 + tx->nr_zc].addr = tx->dma + RDMACHAN_HDR_LEN;
		row[1 + tx->nr_zc].length = trail;
		row[1 + tx->nr_zc].lkey = lkey;
	}
	tx->wr.sg_list = hdr_imm ? row + 1 : row;
	tx->wr.num_sge = tx->nr_zc + (hdr_imm ? 0 : 1) + (trail ? 1 : 0);
}

/*
 * The gather list of split slot @tx (&rdmachan_res.tx_split): its header
 * unless that is the immediate, the payload from the page, then the
 * in-band immediate (@trail bytes after the header in the wire bytes);
 * the pieces synced for the device.
 */
static void rdmachan_split_gather(struct rdmachan *ch, struct rdmachan_tx *tx,
				  bool hdr_imm, u32 trail)
{
	struct rdmachan_tx_wire *w = tx->buf;
	struct ib_device *ibdev = rdmachan_ibdev(ch);

	ib_dma_sync_single_for_device(ibdev, tx->dma, sizeof(w->bytes),
				      DMA_TO_DEVICE);
	if (tx->len)
		ib_dma_sync_single_for_device(ibdev, w->page_dma, tx->len,
					      DMA_TO_DEVICE);
	tx->wr.sg_list = w->sge;
	tx->wr.num_sge = rdmachan_split_sges(hdr_imm, w->page_dma, tx->len,
					     tx->dma, trail,
					     ch->res.pd->local_dma_lkey,
					     w->sge);
}

/**
 * rdmachan_post_tx_locked() - chain a ready message slot's work requests
 * @ch: the channel
 * @tx: the slot, ready, its fast registrations not on the registration
 *	QP or completed there, &rdmachan_tx.seq set
 * @c: the chain, posted by the caller with rdmachan_post_send_locked()
 *
 * Writes the slot's header (its credit grant taken now, so that it is as
 * late as can be), and chains the slot's fast registrations, fenced if
 * the queue needs it, then its SEND: registrations go first, valid
 * before the peer knows of them.  Signalled are every sig_interval-th
 * send, the one that fills the ring and every zero-copy one.
 *
 * Context: channel lock held.
 */
void rdmachan_post_tx_locked(struct rdmachan *ch, struct rdmachan_tx *tx,
			     struct rdmachan_chain *c)
{
	struct rdmachan_wire_hdr *h = tx->buf;
	/*
	 * The message starts after the header unless it is in the imm; a
	 * SEND_WITH_INV has none, so it keeps its header.
	 */
	bool hdr_imm = ch->conn.hdr_imm && !tx->send_inv;
	u32 start = hdr_imm ? RDMACHAN_HDR_LEN : 0;
	/* a zero-copy payload is not in the buffer */
	u32 bytes = RDMACHAN_HDR_LEN - start + (tx->nr_zc ? 0 : tx->len);
	/* a split buffer's page holds the payload alone (chan_sbuf.c) */
	bool split = ch->res.tx_split && !tx->nr_zc;
	u32 trail = 0;

	lockdep_assert_held(&ch->lock);
	if (tx->retire) {
		rdmachan_post_retire_locked(ch, tx, c);
		return;
	}
	h->type = tx->pad ? RDMACHAN_MSG_PAD : RDMACHAN_MSG_DATA;
	tx->pad = false;
	h->flags = 0;
	h->credits = cpu_to_be16(rdmachan_credits_take_owed(&ch->credits));
	h->len = cpu_to_be32(tx->len);
	/* a fragment with more to come (chan_frag.c); never a PAD */
	if (tx->more && h->type == RDMACHAN_MSG_DATA)
		h->flags = RDMACHAN_HDR_F_MORE;
	tx->more = false;
	if (tx->has_imm && (ch->send.imm_inband || tx->send_inv)) {
		__be32 imm = cpu_to_be32(tx->imm);

		h->flags = RDMACHAN_HDR_F_IMM;
		memcpy(tx->buf + (split ? RDMACHAN_HDR_LEN : start + bytes),
		       &imm, sizeof(imm));
		bytes += sizeof(imm);
		trail = sizeof(imm);
	}
	/* the peer's control messages reposted for (version 6) */
	h->flags |= rdmachan_ctrl_take(&ch->ctrl.credits, false) <<
		    RDMACHAN_HDR_CACK_SHIFT;
	if (!split)
		ib_dma_sync_single_for_device(rdmachan_ibdev(ch), tx->dma,
					      start + bytes, DMA_TO_DEVICE);

	memset(&tx->wr, 0, sizeof(tx->wr));
	tx->wr.wr_cqe = &tx->cqe;
	if (tx->nr_zc) {
		rdmachan_zc_gather(ch, tx, hdr_imm, trail);
	} else if (split) {
		rdmachan_split_gather(ch, tx, hdr_imm, trail);
	} else {
		tx->sge.addr = tx->dma + start;
		tx->sge.length = bytes;
		tx->sge.lkey = ch->res.pd->local_dma_lkey;
		tx->wr.sg_list = &tx->sge;
		tx->wr.num_sge = bytes ? 1 : 0;
	}
	if (tx->send_inv) {
		tx->wr.opcode = IB_WR_SEND_WITH_INV;
		tx->wr.ex.invalidate_rkey = tx->inv_rkey;
		tx->send_inv = false;
	} else if (hdr_imm) {
		tx->wr.opcode = IB_WR_SEND_WITH_IMM;
		tx->wr.ex.imm_data = rdmachan_wire_hdr_to_imm(h);
	} else if (tx->has_imm && !ch->send.imm_inband) {
		tx->wr.opcode = IB_WR_SEND_WITH_IMM;
		tx->wr.ex.imm_data = cpu_to_be32(tx->imm);
	} else {
		tx->wr.opcode = IB_WR_SEND;
	}
	if (bytes && bytes <= ch->res.max_inline && !tx->nr_zc)
		tx->wr.send_flags |= IB_SEND_INLINE;
	if (tx->solicited)
		tx->wr.send_flags |= IB_SEND_SOLICITED;
	tx->solicited = false;
	/*
	 * A zero-copy sender waits for its pages (a TCP socket for its send
	 * buffer room): its slot completes, and frees them, at once rather
	 * than at the next signalled one.  So does a send that took the last
	 * spare buffer: its completion gives buffers back (chan_sbuf.c).
	 */
	if ((u32)(tx->seq + 1) % ch->send.sig_interval == 0 ||
	    tx->seq + 1 - ch->send.completed >= ch->send.depth || tx->nr_zc ||
	    !ch->send.nr_spare)
		tx->wr.send_flags |= IB_SEND_SIGNALED;

	/*
	 * Right behind a LOCAL_INV the registrations need no fence; behind
	 * the send of a slot before them in this chain they do.
	 */
	if (tx->nr_regs)
		rdmachan_post_tx_regs(tx, c->last || !ch->send.inv_tail, c);
	rdmachan_chain_add(c, &tx->wr);
}

/* The completion of a send's fast registrations on the registration QP */
static void rdmachan_regq_done(struct ib_cq *cq, struct ib_wc *wc)
{
	struct rdmachan_tx *tx = container_of(wc->wr_cqe,
					      struct rdmachan_tx_ext,
					      reg_cqe)->tx;
	struct rdmachan *ch = tx->ch;
	unsigned long flags;
	int ret;

	/* failed: the channel fails, and the message never goes */
	if (!rdmachan_wc_ok(ch, wc, "fast registration"))
		return;
	spin_lock_irqsave(&ch->lock, flags);
	tx->regs_pending = false;
	ret = test_bit(RDMACHAN_F_IO_STOPPED, &ch->flags) ? 0 :
	      rdmachan_commit_locked(ch);
	spin_unlock_irqrestore(&ch->lock, flags);
	if (ret)
		rdmachan_fail_io(ch, -ECONNRESET);
}

/**
 * rdmachan_regq_post_locked() - post a send's fast registrations on the
 *	registration QP
 * @tx: the send slot, filled and ready; its registrations are cleared
 *
 * The last one is signalled: its completion (rdmachan_regq_done())
 * clears &rdmachan_tx.regs_pending, and posts the message and those
 * that waited behind it.  When none is left to post (each given back
 * while the send was filled, a bug of the user's), the message goes at
 * once.
 *
 * Context: channel lock held.
 * Return: 0, or the error of ib_post_send() (the slot then stays
 * pending: the channel fails, and the message never goes).
 */
int rdmachan_regq_post_locked(struct rdmachan_tx *tx)
{
	struct rdmachan_chain c = {};
	struct rdmachan *ch = tx->ch;
	struct rdmachan_tx_ext *te = rdmachan_tx_ext(ch, tx);

	lockdep_assert_held(&ch->lock);
	/* nothing but local operations there: no fence */
	rdmachan_post_tx_regs(tx, false, &c);
	if (!c.last)
		return 0;
	c.last->send_flags |= IB_SEND_SIGNALED;
	te->reg_cqe.done = rdmachan_regq_done;
	c.last->wr_cqe = &te->reg_cqe;
	tx->regs_pending = true;
	return ib_post_send(ch->res.reg_qp, c.first, NULL);
}

/**
 * rdmachan_post_inv_locked() - post a pool registration's LOCAL_INV
 * @mr: a pool registration whose fast registration was posted, now
 *	INVALIDATING; its &rdmachan_mr_preg.inv_cqe completes the put
 *
 * On the registration QP unless nothing would wait behind it in the
 * channel's send queue (rdmachan_send_idle_locked()); the queue has room
 * for it (the top of this file).  On the registration QP of a channel
 * that failed it is not posted: on the channel's own send queue it would
 * be flushed, and a peer's access under way may still land until the
 * QP is destroyed (chan_pool.c), so teardown, scheduled here, gives the
 * registration back.  Not posted for a refusal either: the channel
 * fails, and the registration comes back the same way.
 *
 * Context: channel lock held.
 */
void rdmachan_post_inv_locked(struct rdmachan_mr *mr)
{
	struct rdmachan *ch = mr->ch;
	struct ib_send_wr wr = {
		.opcode = IB_WR_LOCAL_INV,
		.wr_cqe = &mr->preg.inv_cqe,
		.send_flags = IB_SEND_SIGNALED,
		.ex.invalidate_rkey = mr->ibmr->rkey,
	};
	int err;

	lockdep_assert_held(&ch->lock);
	if (ch->res.reg_qp && !rdmachan_send_idle_locked(ch)) {
		if (rdmachan_send_state_err(ch)) {
			rdmachan_schedule_teardown(ch);
			return;
		}
		err = ib_post_send(ch->res.reg_qp, &wr, NULL);
	} else {
		err = rdmachan_post_send_locked(ch, &wr, NULL);
	}
	if (err) {
		rdmachan_post_failed_locked(ch, "local invalidation", err);
		rdmachan_schedule_teardown(ch);
	}
}

/**
 * rdmachan_regq_create() - the registration QP of a channel on rxe
 * @ch: the channel, its PD allocated and its send ring sized
 * @cm_id: its rdma_cm_id, with the source GID resolved
 * @sz: its sizes (&rdmachan_qp_sizes.reg_wr, .reg_cqe)
 *
 * Where &rdmachan_res.reg_fence, a send's fast registrations and a pool
 * registration's LOCAL_INV go on a QP of their own instead of the
 * channel's send queue, where rxe would hold every later message behind
 * a fence until the messages before it were acknowledged (the top of
 * this file).  Only local operations are ever posted on it,
 * so it never sends a packet; RC needs a peer to reach RTS all the same,
 * and it is its own: an RC QP in the channel's PD whose address is its
 * own GID and MAC, and whose destination QP number is its own.
 *
 * Its send queue holds two entries per registration the channel's pools
 * may hold (queue_depth * max_send_regs): its REG_MR and its LOCAL_INV;
 * its CQ has room for each of them to complete (rdmachan_qp_sizes()).  The CQ is polled in softirq
 * context whatever the channel's poll mode: a message waits for its
 * registrations' completion, and that completion posts it.
 *
 * Context: process context, the cm_id's handler mutex held
 * (rdmachan_setup_resources()).
 * Return: 0 or a negative errno; what was built is released by
 * rdmachan_release_resources().
 */
int rdmachan_regq_create(struct rdmachan *ch, struct rdma_cm_id *cm_id,
			 const struct rdmachan_qp_sizes *sz)
{
	const struct ib_gid_attr *sgid = cm_id->route.addr.dev_addr.sgid_attr;
	struct ib_device *ibdev = cm_id->device;
	struct ib_qp_init_attr init = {};
	struct ib_qp_attr a = {};
	union ib_gid dgid;
	struct ib_cq *cq;
	struct ib_qp *qp;
	u16 vlan;
	int ret;

	if (!sgid || !rdma_protocol_roce(ibdev, cm_id->port_num))
		return -EOPNOTSUPP;
	cq = ib_alloc_cq(ibdev, ch, sz->reg_cqe,
			 ch->obj.id % ibdev->num_comp_vectors, IB_POLL_SOFTIRQ);
	if (IS_ERR(cq))
		return PTR_ERR(cq);
	cq->event_handler = rdmachan_cq_event;
	ch->res.reg_cq = cq;

	init.event_handler = rdmachan_qp_event;
	init.qp_context = ch;
	init.send_cq = cq;
	init.recv_cq = cq;
	init.qp_type = IB_QPT_RC;
	init.sq_sig_type = IB_SIGNAL_REQ_WR;
	init.cap.max_send_wr = sz->reg_wr;
	init.cap.max_recv_wr = 1;
	init.cap.max_send_sge = 1;
	init.cap.max_recv_sge = 1;
	qp = ib_create_qp(ch->res.pd, &init);
	if (IS_ERR(qp))
		return PTR_ERR(qp);
	ch->res.reg_qp = qp;
	WRITE_ONCE(ch->res.reg_qpn, qp->qp_num);

	a.qp_state = IB_QPS_INIT;
	a.port_num = cm_id->port_num;
	ret = ib_modify_qp(qp, &a, IB_QP_STATE | IB_QP_PKEY_INDEX |
			   IB_QP_PORT | IB_QP_ACCESS_FLAGS);
	if (ret)
		return ret;

	/* connected to itself: its own GID, MAC and QP number */
	memset(&a, 0, sizeof(a));
	a.qp_state = IB_QPS_RTR;
	a.path_mtu = IB_MTU_1024;
	a.dest_qp_num = qp->qp_num;
	a.min_rnr_timer = 12;
	a.ah_attr.type = RDMA_AH_ATTR_TYPE_ROCE;
	rdma_ah_set_port_num(&a.ah_attr, cm_id->port_num);
	dgid = sgid->gid;
	rdma_ah_set_grh(&a.ah_attr, &dgid, 0, sgid->index, 1, 0);
	ret = rdma_read_gid_l2_fields(sgid, &vlan, a.ah_attr.roce.dmac);
	if (ret)
		return ret;
	ret = ib_modify_qp(qp, &a, IB_QP_STATE | IB_QP_AV | IB_QP_PATH_MTU |
			   IB_QP_DEST_QPN | IB_QP_RQ_PSN |
			   IB_QP_MAX_DEST_RD_ATOMIC | IB_QP_MIN_RNR_TIMER);
	if (ret)
		return ret;

	memset(&a, 0, sizeof(a));
	a.qp_state = IB_QPS_RTS;
	a.timeout = 14;
	a.retry_cnt = 7;
	a.rnr_retry = 7;
	return ib_modify_qp(qp, &a, IB_QP_STATE | IB_QP_TIMEOUT |
			    IB_QP_RETRY_CNT | IB_QP_RNR_RETRY | IB_QP_SQ_PSN |
			    IB_QP_MAX_QP_RD_ATOMIC);
}

/**
 * rdmachan_regq_destroy() - release the registration QP and its CQ
 * @ch: the channel, its own QP destroyed: a completion of the
 *	registration QP that still runs finds I/O stopped and posts nothing
 *
 * Context: process context (rdmachan_release_resources()).
 */
void rdmachan_regq_destroy(struct rdmachan *ch)
{
	if (ch->res.reg_qp) {
		ib_destroy_qp(ch->res.reg_qp);
		ch->res.reg_qp = NULL;
	}
	if (ch->res.reg_cq) {
		rdmachan_free_cq(ch->res.reg_cq);
		ch->res.reg_cq = NULL;
	}
}
