// SPDX-License-Identifier: GPL-2.0-only
/*
 * rdmachan_blk: what a client may hold on the server
 *
 * Every channel accepted is a queue with buffers and, once opened, a
 * slot of max_io bytes per credit; nothing bounded how many a host could
 * open.  These bounds apply, each a module parameter (writable, read at
 * each decision), refused beyond with a log line:
 *
 *   at the connection request (the listener's admit callback, before the
 *   listener sets anything up; the peer's connect fails with EACCES):
 *     - an address that no export's allow list covers;
 *     - max_queues: queues of the server, all clients, opened or not;
 *     - max_peer_queues: queues of one client address, opened or not;
 *   at the accept, the last two again (connections set up beside each
 *   other were all admitted before any was counted): a queue past them
 *   is closed at once;
 *   at OPEN (status LIMIT, the client's map fails with EUSERS):
 *     - max_session_queues: the nr_queues a mapping may ask for;
 *     - max_export_queues: queues of one export, all its sessions.
 *   A session may hold more queues than it asked for, for a while: a
 *   client that reconnects opens its new queues before the server has
 *   closed the old ones.  max_peer_queues bounds that too.
 *
 * A host that is allowed, and never sends OPEN, holds at most
 * max_peer_queues channels for open_timeout_ms each; a host that is not
 * allowed holds none.  The anchor is rtrs-srv's per-session path limit
 * (drivers/infiniband/ulp/rtrs/rtrs-srv.c: a session's paths are
 * bounded, beyond is refused); rdmachan counts by address too, as a
 * server exposed to a network must.
 *
 * The admit callback runs in rdma_cm's handler, where rcblk_srv_mutex
 * cannot be taken (it is held across rdmachan_listener_close(), which
 * waits for that handler): the export list is walked under
 * rcblk_srv_exp_lock, which every change of its membership takes too;
 * an export's allow list does not change while it is listed.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/spinlock.h>

#include "blk_srv.h"

DEFINE_SPINLOCK(rcblk_srv_exp_lock);

/* Does an export allow @sa?  Under rcblk_srv_exp_lock. */
static bool rcblk_srv_allowed(const struct sockaddr *sa)
{
	struct rcblk_export *exp;

	lockdep_assert_held(&rcblk_srv_exp_lock);
	list_for_each_entry(exp, &rcblk_srv_exports, node)
		if (rcblk_cidr_match(exp->allow, exp->nr_allow, sa))
			return true;
	return false;
}

/**
 * rcblk_srv_admit() - &rdmachan_listener_ops.admit of the block server
 * @l: the listener
 * @peer: the requester's address
 *
 * Context: rdma_cm's event handler; takes spinlocks only.
 * Return: 0, or -EACCES (not allowed by any export) or -EMFILE (a
 * queue limit reached): the request is refused.
 */
int rcblk_srv_admit(struct rdmachan_listener *l, const struct sockaddr *peer)
{
	u32 all = 0, mine = 0;
	bool allowed;

	spin_lock(&rcblk_srv_exp_lock);
	allowed = rcblk_srv_allowed(peer);
	spin_unlock(&rcblk_srv_exp_lock);
	if (!allowed) {
		pr_info_ratelimited("connection from %pISc refused: no export allows it\n",
				    peer);
		return -EACCES;
	}
	rcblk_srv_count_queues(peer, &all, &mine);
	return rcblk_srv_queue_limits_ok(peer, all, mine, "refused") ?
	       0 : -EMFILE;
}

/**
 * rcblk_srv_queue_limits_ok() - may @peer have one more queue?
 * @peer: its address
 * @all: the queues the server holds, but that one
 * @mine: those of @peer's address, but that one
 * @what: what is done otherwise, for the log ("refused", "closed")
 *
 * Asked at admission, and again at the accept: connections set up beside
 * each other are all admitted before any of them is counted, so the
 * accept closes those past the limits.
 *
 * Context: any.
 * Return: true when within max_queues and max_peer_queues (else logged).
 */
bool rcblk_srv_queue_limits_ok(const struct sockaddr *peer, u32 all, u32 mine,
			       const char *what)
{
	if (all >= rcblk_param(max_queues)) {
		pr_warn_ratelimited("connection from %pISc %s: the server holds %u queues (max_queues)\n",
				    peer, what, all);
		return false;
	}
	if (mine >= rcblk_param(max_peer_queues)) {
		pr_warn_ratelimited("connection from %pISc %s: it holds %u queues (max_peer_queues)\n",
				    peer, what, mine);
		return false;
	}
	return true;
}

/**
 * rcblk_srv_open_limits() - may @q's OPEN attach to @exp?
 * @q: the queue
 * @exp: the export it names
 * @req: its OPEN
 *
 * Context: @exp->lock held.
 * Return: RCBLK_OPEN_OK, or RCBLK_OPEN_LIMIT (logged).
 */
u16 rcblk_srv_open_limits(struct rcblk_srv_queue *q, struct rcblk_export *exp,
			  const struct rcblk_open_req *req)
{
	u32 max_sess = rcblk_param(max_session_queues);

	lockdep_assert_held(&exp->lock);
	if (req->nr_queues > max_sess) {
		pr_warn_ratelimited("OPEN of %s from %pISc refused: %u queues asked, max_session_queues is %u\n",
				    exp->name, &q->peer, req->nr_queues,
				    max_sess);
		return RCBLK_OPEN_LIMIT;
	}
	if (exp->nr_queues >= rcblk_param(max_export_queues)) {
		pr_warn_ratelimited("OPEN of %s from %pISc refused: the export has %u queues (max_export_queues)\n",
				    exp->name, &q->peer, exp->nr_queues);
		return RCBLK_OPEN_LIMIT;
	}
	return RCBLK_OPEN_OK;
}
