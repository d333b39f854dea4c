/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * rdmachan_blk: what the server's files share
 *
 * blk_srv.c: module parameters, queues, OPEN, load and unload.
 * blk_srv_export.c: exports (made, removed, listed, from text).
 * blk_srv_listen.c: the listener.
 * blk_srv_io.c: a queue's requests, from the message to the reply.
 * blk_srv_sysfs.c: control files and the per-export directories.
 * blk_srv_fence.c: sessions and the pins that keep a device claimed
 *	while a bio of it may be in flight; the end of an unexport.
 *
 * Objects and their references:
 *  - an export (struct rcblk_export) lives in rcblk_srv.exports while it
 *    is exported; its kobject's reference count keeps its memory: the
 *    list holds one, each queue attached to it holds one.  It holds the
 *    backing device (opened exclusively) and a module reference until
 *    it is unexported.
 *  - a queue (struct rcblk_srv_queue) is one accepted channel; its kref
 *    is held by the channel (until the queue's close work has closed
 *    it) and by each bio in flight.  The last put frees it from a work
 *    item.
 *  - a session (struct rcblk_srv_sess) counts the queues of one client
 *    mapping (same session id) on one export.  Each queue attached pins
 *    its session until the queue's last reference (its bios ended): a
 *    session without queues lingers while its bios may still reach the
 *    device (blk_srv_fence.c).
 */
#ifndef RCBLK_SRV_H
#define RCBLK_SRV_H

#include <linux/atomic.h>
#include <linux/blkdev.h>
#include <linux/kobject.h>
#include <linux/kref.h>
#include <linux/list.h>
#include <linux/mutex.h>
#include <linux/scatterlist.h>
#include <linux/spinlock.h>
#include <linux/workqueue.h>

#include "blk.h"
#include "blk_proto_srv.h"
#include "compat.h"

/* Index of each counter of struct rdmachan_blk_counters */
enum rcblk_srv_counter {
	RCBLK_C_READS,
	RCBLK_C_WRITES,
	RCBLK_C_READ_BYTES,
	RCBLK_C_WRITE_BYTES,
	RCBLK_C_FLUSHES,
	RCBLK_C_FUA,
	RCBLK_C_DISCARDS,
	RCBLK_C_WRITE_ZEROES,
	RCBLK_C_INLINE_WRITES,
	RCBLK_C_ERRORS,
	RCBLK_C_REJECTED,
	RCBLK_C_INFLIGHT,
	RCBLK_C_NR,
};

/**
 * struct rcblk_export - a local block device served to clients
 * @node: in rcblk_srv_exports, under rcblk_srv_mutex and, for the
 *	listener's admit callback, rcblk_srv_exp_lock (blk_srv_limits.c)
 * @kobj: ctl/exports/NAME; its reference count keeps this memory
 * @name: what clients map
 * @path: the backing device's path
 * @flags: RDMACHAN_BLK_RO
 * @nr_allow: entries of @allow
 * @allow: networks allowed
 * @dev: the backing device (@dev.bdev), opened exclusively, held by the
 *	export, read-write unless RDMACHAN_BLK_RO (rc_bdev_open())
 * @export_id: rcblk_export_id() of its name, device and size (name and
 *	size with RDMACHAN_BLK_STABLE_ID)
 * @geo: the geometry OPEN_RSP tells (features, max_io, inline_max
 *	filled per queue)
 * @lock: protects @queues, @sessions, @nr_sessions, @nr_queues
 * @queues: the queues attached (struct rcblk_srv_queue.exp_node)
 * @sessions: struct rcblk_srv_sess
 * @nr_sessions: entries of @sessions
 * @nr_queues: entries of @queues
 * @gone: unexport started: OPEN is refused, requests get RCBLK_S_GONE
 * @state: enum rdmachan_blk_export_state, or RCBLK_EXP_RELEASED; under
 *	@lock
 * @pins: queues attached and not yet released, under @lock: while
 *	non-zero a bio may reach @bdev (an unexport waits for 0, bounded;
 *	then the export is draining and the last one releases it)
 * @drain_work: releases a draining export once @pins is 0
 * @bios: bios in flight on @bdev (reported)
 * @c: counters, enum rcblk_srv_counter
 * @hist: request latencies by RCBLK_HIST_* (from the request's arrival to
 *	its reply's post), NULL when off; set at creation
 */
struct rcblk_export {
	struct list_head node;
	struct kobject kobj;
	char name[RDMACHAN_BLK_NAME_MAX];
	char path[RDMACHAN_BLK_PATH_MAX];
	u32 flags;
	u32 nr_allow;
	struct rdmachan_blk_cidr allow[RDMACHAN_BLK_MAX_ALLOW];
	struct rc_bdev dev;
	u8 export_id[RCBLK_ID_LEN];
	struct rcblk_geo geo;
	spinlock_t lock;	/* @queues, @sessions and their counts */
	struct list_head queues;
	struct list_head sessions;
	u32 nr_sessions;
	u32 nr_queues;
	bool gone;
	u32 state;
	u32 pins;
	struct work_struct drain_work;
	atomic_t bios;
	atomic64_t c[RCBLK_C_NR];
	struct rdmachan_hist *hist[RCBLK_HIST_NR];
};

/* rcblk_export.state after rdmachan_blk_export_state's: device released */
#define RCBLK_EXP_RELEASED	0x100

/**
 * struct rcblk_srv_sess - the queues of one client mapping on an export
 * @node: in rcblk_export.sessions
 * @id: the session id of OPEN
 * @nr_queues: queues attached with it (0: it no longer counts in
 *	rcblk_export.nr_sessions)
 * @pins: queues attached and not yet released; the session is freed at 0
 * @gen: the connection's generation (RCBLK_OPEN_FENCE), 0 without fencing
 *
 * One connection of a client mapping: with fencing the mapping's
 * connections share the id and differ in @gen (blk_srv_fence.c).
 */
struct rcblk_srv_sess {
	struct list_head node;
	u8 id[RCBLK_SESSION_LEN];
	u32 nr_queues;
	u32 pins;
	u32 gen;
};

/* RDMA READs of one request's data in flight at most (blk_srv_pull.c) */
#define RCBLK_SRV_PULL_OPS	2

/* struct rcblk_srv_req.stage: what a request waits for */
enum rcblk_srv_stage {
	RCBLK_ST_FREE,		/* on the free list */
	RCBLK_ST_PULL,		/* RDMA READ of a WRITE's data */
	RCBLK_ST_SUBMIT,	/* its bio to be submitted */
	RCBLK_ST_BIO,		/* its bio in flight */
	RCBLK_ST_PUSH,		/* RDMA WRITE of a READ's data */
	RCBLK_ST_REPLY,		/* its reply to be sent */
};

/**
 * struct rcblk_srv_req - a slot: one request's server buffer and state
 * @node: on one list of its queue (free, work or retry), on one of a run
 *	of io_work (its todo, its deferred submissions, its batch of
 *	replies), or none while the transport or the block layer has it
 * @q: the queue
 * @io: the request as decoded
 * @stage: enum rcblk_srv_stage
 * @status: the reply's enum rcblk_status
 * @buf: pages of max_io bytes, registered once as @mr
 * @mr: local-write registration of @buf
 * @seg: the segment of each of @op
 * @op: the RDMA WRITE of a READ's data (the first), or the RDMA READs of
 *	a WRITE's data in flight (blk_srv_pull.c)
 * @bio: its bio while in flight
 * @rdma: an RDMA READ or WRITE of @mr may be in flight
 * @holds: what must end before the slot is free: its reply's post, and
 *	for a READ whose data was pushed the RDMA WRITE too (the reply is
 *	posted right behind it, not after its completion)
 * @push_err: the RDMA WRITE of a pushed READ failed (after its reply
 *	was posted: the queue pair failed, so that reply never arrives)
 * @pull_next: a WRITE's bytes whose RDMA READ was posted, under the
 *	queue's lock as the three below
 * @pulls: its READ pieces in flight (at most RCBLK_SRV_PULL_OPS)
 * @pull_seq: its pieces posted, which picks each one's @op
 * @pull_err: a piece or a post failed: the request is answered REMOTE
 *	(RESOURCE: no memory to post) once none is in flight
 * @pull_busy: a caller of rcblk_srv_pull() posts its pieces
 * @t_ns: with the export's histograms, when the request arrived
 */
struct rcblk_srv_req {
	struct list_head node;
	struct rcblk_srv_queue *q;
	struct rcblk_io_req io;
	u8 stage;
	u8 status;
	struct rcblk_pages buf;
	struct rdmachan_mr *mr;
	struct rdmachan_seg seg[RCBLK_SRV_PULL_OPS];
	struct rdmachan_op op[RCBLK_SRV_PULL_OPS];
	struct bio *bio;
	bool rdma;
	atomic_t holds;
	bool push_err;
	u32 pull_next;
	u8 pulls;
	u8 pull_seq;
	bool pull_err;
	bool pull_busy;
	u64 t_ns;
};

/**
 * struct rcblk_srv_parked - a request waiting for a free slot, a copy:
 *	its message was released (holding it would hold the client's
 *	credit, and with all of them held neither side could move)
 * @node: in rcblk_srv_queue.parked
 * @io: the request
 * @t_ns: when it arrived (with the export's histograms)
 * @data: an inline WRITE's payload
 */
struct rcblk_srv_parked {
	struct list_head node;
	struct rcblk_io_req io;
	u64 t_ns;
	u8 data[];
};

/**
 * struct rcblk_srv_reject - a refusal whose reply could not be sent yet
 * @node: in rcblk_srv_queue.rejects
 * @tag: the request's tag
 * @status: why
 * @remote: the request named a remote buffer: invalidate @rkey
 * @rkey: its rkey
 */
struct rcblk_srv_reject {
	struct list_head node;
	u16 tag;
	u8 status;
	bool remote;
	u32 rkey;
};

/**
 * struct rcblk_srv_batch - replies of one io_work pass that go out as
 *	one message (RCBLK_F_REPLY_BATCH; blk_srv_reply.c)
 * @reqs: their slots, in order (by &rcblk_srv_req.node)
 * @n: how many
 */
struct rcblk_srv_batch {
	struct list_head reqs;
	u32 n;
};

/* Bits of struct rcblk_srv_queue.flags */
enum {
	RCBLK_Q_OPENING,	/* the OPEN message is being handled */
	RCBLK_Q_LIVE,		/* OPEN accepted: requests are served */
	RCBLK_Q_CLOSING,	/* close work queued: nothing new starts */
	RCBLK_Q_DEAD,		/* no more channel calls (close follows) */
	RCBLK_Q_ATTACHED,	/* on its export's list, session counted */
	RCBLK_Q_WRITE_IMM,	/* a READ's OK reply rides its data's WRITE */
	RCBLK_Q_IO_RUN,		/* a run of the I/O work is under way */
	RCBLK_Q_IO_AGAIN,	/* something for it came: run (again) */
};

/**
 * struct rcblk_srv_queue - one accepted channel of a client session
 * @ref: see blk_srv.h's head comment
 * @ch: the channel; closed by @close_work only
 * @flags: RCBLK_Q_* bits
 * @exp: the export, from OPEN accepted (a kobject reference)
 * @sess: the session it counts in
 * @exp_node: in @exp->queues
 * @node: in rcblk_srv_queues (every queue, for unload), under
 *	rcblk_srv_qlock
 * @lim: what requests may ask
 * @open_msg: the OPEN message, between receive and @open_work
 * @peer: the client's address, set at the accept under rcblk_srv_qlock
 * @lock: protects the lists below and the slots' @stage, RCBLK_Q_DEAD
 * @free: free slots
 * @work_list: slots for @io_work (SUBMIT, PUSH, REPLY)
 * @retry: slots refused with -EAGAIN, retried by @io_work on writable
 * @parked: struct rcblk_srv_parked
 * @nr_parked: its entries, at most @depth
 * @pull_wait: slots whose next RDMA READ piece waits for room in the
 *	pull window, none of theirs in flight (blk_srv_pull.c)
 * @pull_bytes: bytes of the RDMA READ pieces in flight
 * @rejects: struct rcblk_srv_reject
 * @nr_rejects: its entries, at most twice @depth (then the queue closes)
 * @slots: @depth slots
 * @depth: entries of @slots, the channel's queue depth
 * @batch_cap: replies io_work sends in one message: 1, or with
 *	RCBLK_F_REPLY_BATCH accepted rcblk_reply_batch_cap(); set at OPEN,
 *	before RCBLK_Q_LIVE
 * @open_timer: closes the queue when no OPEN came within
 *	open_timeout_ms of the accept
 * @open_work: handles OPEN (process context: allocates, registers)
 * @io_work: submits bios, sends replies and retries (process context,
 *	rcblk_srv_wq); the runs of it and of @io_yield_work take turns
 *	(RCBLK_Q_IO_RUN, blk_srv_io.c)
 * @io_yield_work: the same work, queued on rcblk_srv_yield_wq from a user
 *	task's softirq work
 * @close_work: the teardown
 * @release_work: frees the queue after the last reference
 */
struct rcblk_srv_queue {
	struct kref ref;
	struct rdmachan *ch;
	unsigned long flags;
	struct rcblk_export *exp;
	struct rcblk_srv_sess *sess;
	struct list_head exp_node;
	struct list_head node;
	struct rcblk_io_limits lim;
	struct rdmachan_msg *open_msg;
	struct sockaddr_storage peer;
	spinlock_t lock;	/* the lists below, slots' @stage */
	struct list_head free;
	struct list_head work_list;
	struct list_head retry;
	struct list_head parked;
	u32 nr_parked;
	struct list_head pull_wait;
	u32 pull_bytes;
	struct list_head rejects;
	u32 nr_rejects;
	struct rcblk_srv_req *slots;
	u32 depth;
	u32 batch_cap;
	struct timer_list open_timer;
	struct work_struct open_work;
	struct work_struct io_work;
	struct work_struct io_yield_work;
	struct work_struct close_work;
	struct work_struct release_work;
};

/* blk_srv.c */
extern struct workqueue_struct *rcblk_srv_wq;
extern struct workqueue_struct *rcblk_srv_yield_wq;
extern struct workqueue_struct *rcblk_srv_ctl_wq;
extern struct mutex rcblk_srv_mutex;
extern struct list_head rcblk_srv_exports;
extern bool rcblk_srv_stopping;
void rcblk_srv_queue_close(struct rcblk_srv_queue *q);
void rcblk_srv_queue_put(struct rcblk_srv_queue *q);
void rcblk_srv_pending(struct rdmachan_listener *l);

/* blk_srv_export.c */
void rcblk_srv_count(struct rcblk_export *exp, enum rcblk_srv_counter c,
		     s64 v);
struct rcblk_export *rcblk_srv_find(const char *name);
void rcblk_srv_counters(struct rcblk_export *exp,
			struct rdmachan_blk_counters *c);
int rcblk_srv_export_text(const char *buf, size_t len, bool param);
void rcblk_srv_unexport_all(void);

/* blk_srv_listen.c */
void rcblk_srv_listen_update(void);
void rcblk_srv_listen_stop(void);

void rcblk_srv_count_queues(const struct sockaddr *peer, u32 *all, u32 *mine);
u32 rcblk_srv_queues_held(void);

/* blk_srv_limits.c */
extern spinlock_t rcblk_srv_exp_lock;
int rcblk_srv_admit(struct rdmachan_listener *l, const struct sockaddr *peer);
bool rcblk_srv_queue_limits_ok(const struct sockaddr *peer, u32 all, u32 mine,
			       const char *what);
u16 rcblk_srv_open_limits(struct rcblk_srv_queue *q, struct rcblk_export *exp,
			  const struct rcblk_open_req *req);

/* blk_srv_io.c */
extern const struct rdmachan_ops rcblk_srv_chan_ops;
void rcblk_srv_to_work(struct rcblk_srv_req *req, u8 stage);
void rcblk_srv_io_kick(struct rcblk_srv_queue *q);
void rcblk_srv_replied(struct rcblk_srv_queue *q, struct rcblk_srv_req *req);
void rcblk_srv_io_work(struct work_struct *work);
void rcblk_srv_io_yield_work(struct work_struct *work);
void rcblk_srv_io_flush(struct rcblk_srv_queue *q, bool cancel);
void rcblk_srv_drain(struct rcblk_srv_queue *q);
void rcblk_srv_unreg(struct rcblk_srv_queue *q);

/* blk_srv_pull.c: a WRITE's data, in pieces under the pull window */
int rcblk_srv_pull(struct rcblk_srv_queue *q, struct rdmachan *ch,
		   struct rcblk_srv_req *req);
void rcblk_srv_pull_retry(struct rcblk_srv_queue *q, struct rcblk_srv_req *req);

/* blk_srv_reply.c: replies, refusals, batches */
int rcblk_srv_send_reply(struct rdmachan *ch, u16 tag, u8 status,
			 bool remote, u32 rkey);
void rcblk_srv_reject(struct rcblk_srv_queue *q, struct rdmachan *ch,
		      const struct rcblk_io_req *io, u8 status);
bool rcblk_srv_send_rejects(struct rcblk_srv_queue *q, struct rdmachan *ch);
bool rcblk_srv_batch_add(struct rcblk_srv_queue *q, struct rdmachan *ch,
			 struct rcblk_srv_batch *b, struct rcblk_srv_req *req);
bool rcblk_srv_batch_send(struct rcblk_srv_queue *q, struct rdmachan *ch,
			  struct rcblk_srv_batch *b);

/* blk_srv_bio.c: slots, bios, counters of completed requests */
int rcblk_srv_slots_alloc(struct rcblk_srv_queue *q, u32 max_io);
void rcblk_srv_slots_free(struct rcblk_srv_queue *q);
void rcblk_srv_submit(struct rcblk_srv_queue *q, struct rcblk_srv_req *req);
void rcblk_srv_account(struct rcblk_export *exp,
		       const struct rcblk_srv_req *req);

/* blk_srv_fence.c */
void rcblk_srv_unpin(struct rcblk_srv_queue *q);
u16 rcblk_srv_attach(struct rcblk_srv_queue *q, struct rcblk_export *exp,
		     const struct rcblk_open_req *req,
		     struct rcblk_srv_sess **spare);
int rcblk_srv_unexport_end(struct rcblk_export *exp, u32 flags);
int rcblk_srv_unexport_wait(struct rcblk_export *exp);
void rcblk_srv_drain_work(struct work_struct *work);
const char *rcblk_srv_state_name(u32 state);

/* blk_srv_sysfs.c */
int rcblk_srv_sysfs_init(void);
void rcblk_srv_sysfs_exit(void);
int rcblk_srv_sysfs_add(struct rcblk_export *exp);
void rcblk_srv_sysfs_del(struct rcblk_export *exp);

#endif /* RCBLK_SRV_H */
