/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * rdmachan_blk: the client's private structures
 *
 * A mapping (struct rcblk_clt_map) is one remote export seen as the disk
 * /dev/rcblk<index>: one channel per hardware queue (struct
 * rcblk_clt_queue), each with its registration pool, and one blk-mq tag
 * set.  blk_clt.c makes and unmakes mappings, blk_clt_io.c moves their
 * requests, blk_clt_sysfs.c shows them.
 */
#ifndef RCBLK_CLT_H
#define RCBLK_CLT_H

#include <linux/atomic.h>
#include <linux/blk-mq.h>
#include <linux/sizes.h>
#include <linux/completion.h>
#include <linux/mutex.h>
#include <linux/scatterlist.h>
#include <linux/llist.h>
#include <linux/socket.h>
#include <linux/workqueue.h>

#include "blk.h"
#include "blk_proto_clt.h"

/* rcblk_clt_req.state: who owns a request's completion */
enum {
	RCBLK_RQ_IDLE	= 0,	/* not on the wire */
	RCBLK_RQ_SENT	= 1,	/* sent: the reply, the timeout or teardown */
	RCBLK_RQ_REPLY	= 2,	/* replied: waiting for its invalidation or send */
	RCBLK_RQ_DONE	= 3,	/* claimed by whoever ends it */
};

/**
 * struct rcblk_clt_req - blk-mq's per-request context (cmd_size)
 * @state: RCBLK_RQ_*, changed with atomic_cmpxchg()
 * @hdr: the request's header on the wire
 * @mr: the registration of a RCBLK_DATA_REMOTE request, or NULL
 * @rkey: its key, which a remote invalidation must name
 * @wire: the reply's status (enum rcblk_status)
 * @retries: RCBLK_S_RESOURCE replies requeued so far
 * @timeouts: timer expiries on a live channel
 * @zc: sent from its pages (blk_clt_inline.c): it ends once @ends is 0
 * @ends: with @zc, of its reply and its send's completion, those still to
 *	come; the one that takes it to 0 ends the request
 * @zc_node: on its queue's zc_ends, when its send's completion came last
 * @poll_node: on its queue's poll_ends, a polled request whose end came
 *	in interrupt context
 * @inline_buf: the data of an inline WRITE (inline_max bytes), where it
 *	is copied (highmem)
 * @sgl: the scatterlist of a remote request, or of a zero-copy inline
 *	WRITE's message (max_segs entries)
 * @t_ns: with the mapping's histograms, when the request was first
 *	dispatched (a requeue keeps it)
 *
 * @zc is set before the request goes on the wire and read only while it
 * is on it.
 */
struct rcblk_clt_req {
	atomic_t state;
	struct rcblk_wire_io hdr;
	struct rdmachan_mr *mr;
	u32 rkey;
	u8 wire;
	u8 retries;
	u8 timeouts;
	bool zc;
	atomic_t ends;
	struct llist_node zc_node;
	struct llist_node poll_node;
	void *inline_buf;
	struct scatterlist *sgl;
	u64 t_ns;
};

/* an inline WRITE sent from its pages in pieces: at most this many */
#define RCBLK_CLT_INLINE_VECS	8

/* rcblk_clt_queue.flags */
#define RCBLK_Q_STARVED	0	/* queue_rq found the pool empty */
/* its channel's server granted RCBLK_F_REPLY_BATCH (set at each OPEN_RSP) */
#define RCBLK_Q_BATCHES	1
/* and RCBLK_F_READ_STAGED: small READs go through the staging pages */
#define RCBLK_Q_STAGED	2

/**
 * struct rcblk_clt_stage - a queue's staging pages (blk_clt_stage.c)
 * @buf: one page per tag below @buf.nr (0: none), made with the mapping
 * @mr: their registration (remote write) on the channel's connection,
 *	or NULL; made and dropped with the queue's pool, while dispatch
 *	is quiesced
 * @rkey: @mr's key
 * @addr: @mr's address for RDMA, of the first page
 */
struct rcblk_clt_stage {
	struct rcblk_pages buf;
	struct rdmachan_mr *mr;
	u32 rkey;
	u64 addr;
};

/**
 * struct rcblk_clt_queue - one hardware queue, one channel
 * @map: its mapping
 * @ch: the channel; NULL once closed.  Set and cleared under @poll_lock
 *	(and the mapping's lock), read by dispatch (quiesced while it
 *	changes) and, on a polled queue, by rcblk_clt_poll() under
 *	@poll_lock
 * @poll_lock: keeps @ch from closing under a poller (blk_clt_poll.c)
 * @pool: its registration pool
 * @stage: its staging pages
 * @hctx: blk-mq's hardware context, once the tag set exists
 * @qid: the index
 * @flags: RCBLK_Q_*
 * @open_done: completed by the OPEN_RSP or the channel's end
 * @open_len: bytes of @rsp received; 0 while none came
 * @open_err: the channel's error while opening
 * @rsp: the OPEN_RSP as received
 * @zc_ends: requests whose zero-copy send completed after their reply,
 *	for @zc_work to end (lock-free: added from the channel's completion)
 * @zc_work: ends them (blk_clt_inline.c); made with the queue
 * @poll_ends: polled requests to end in task context (lock-free: added
 *	from the registrations' completions, blk_clt_poll.c)
 * @poll_work: ends them when no poller did within a jiffy; made with the
 *	queue
 * @idle_posts: posts in a row that found nothing on the wire
 *	(rcblk_clt_post_now(); dispatch only, a hint without a lock)
 */
struct rcblk_clt_queue {
	struct rcblk_clt_map *map;
	struct rdmachan *ch;
	spinlock_t poll_lock;	/* @ch against rcblk_clt_poll() */
	struct rdmachan_mr_pool *pool;
	struct rcblk_clt_stage stage;
	struct blk_mq_hw_ctx *hctx;
	u16 qid;
	unsigned long flags;
	struct completion open_done;
	u32 open_len;
	int open_err;
	struct rcblk_wire_open_rsp rsp;
	struct llist_head zc_ends;
	struct work_struct zc_work;
	struct llist_head poll_ends;
	struct delayed_work poll_work;
	u8 idle_posts;
};

/**
 * struct rcblk_clt_stats - counters of a mapping
 * @reads: READs completed
 * @writes: WRITEs completed
 * @read_bytes: bytes read
 * @write_bytes: bytes written
 * @flushes: FLUSHes completed
 * @fua: requests with FUA completed
 * @discards: DISCARDs completed
 * @write_zeroes: WRITE_ZEROES completed
 * @inline_writes: WRITEs sent inline, completed
 * @staged_reads: READs that went through the staging pages, completed
 * @errors: requests ended with an error
 * @rejected: requests the server refused (INVAL, RANGE, RO, NOTSUPP, TOOBIG)
 * @bogus: replies ignored: bad tag, not in flight, wrong invalidation
 * @timeouts: request timer expiries on a live link (the timer reset)
 * @held: requests taken off a lost link, to be resubmitted once it is back
 *	(counted when held: they fail instead if the link never comes back)
 * @reconnects: links brought back
 * @remote_inv: registrations the server's reply invalidated (SEND_WITH_INV)
 * @local_inv: registrations invalidated here (LOCAL_INV) after the reply
 * @starved: dispatches put off because the queue's pool had no registration
 * @busy: dispatches put off for want of a credit or send queue room
 * @posts_now: dispatches whose provider work ran before queue_rq
 *	returned (rcblk_clt_post_now())
 * @batched: replies that came behind another in one message
 *	(RCBLK_F_REPLY_BATCH)
 * @inflight: requests on the wire now
 */
struct rcblk_clt_stats {
	atomic64_t reads;
	atomic64_t writes;
	atomic64_t read_bytes;
	atomic64_t write_bytes;
	atomic64_t flushes;
	atomic64_t fua;
	atomic64_t discards;
	atomic64_t write_zeroes;
	atomic64_t inline_writes;
	atomic64_t staged_reads;
	atomic64_t errors;
	atomic64_t rejected;
	atomic64_t bogus;
	atomic64_t timeouts;
	atomic64_t held;
	atomic64_t reconnects;
	atomic64_t remote_inv;
	atomic64_t local_inv;
	atomic64_t starved;
	atomic64_t busy;
	atomic64_t posts_now;
	atomic64_t batched;
	atomic_t inflight;
};

/* rcblk_clt_map.flags */
#define RCBLK_M_READY	0	/* the tag set exists: replies are looked up */
#define RCBLK_M_LIVE	1	/* the disk exists: failures kill the mapping */
#define RCBLK_M_DEAD	2	/* I/O fails at once */
#define RCBLK_M_CLOSED	3	/* pools destroyed: no DMA, requests may end */
#define RCBLK_M_RECOVERING 4	/* link lost: channels down, requests held */
#define RCBLK_M_FAILFAST 5	/* fast_io_fail passed: held I/O fails */
#define RCBLK_M_QUIESCED 6	/* dispatch quiesced by us; under @qlock */
#define RCBLK_M_UNMAPPING 7	/* unmap began: a loss kills, no reconnect */
#define RCBLK_M_DELETED	8	/* del_gendisk() returned: no request is left */

/**
 * struct rcblk_clt_map - one mapping
 * @node: in rcblk_clt_maps
 * @index: /dev/rcblk<index>
 * @ro: mapped read-only (RDMACHAN_BLK_RO)
 * @removing: unmap began: opens are refused (under disk->open_mutex)
 * @server: the server's address and port
 * @server_local: @server is an address of this host (set at creation)
 * @src: the local address, or AF_UNSPEC
 * @name: the export
 * @session: random, sent on every channel of every connection
 * @gen: the connection's generation (RCBLK_OPEN_FENCE), counted up by
 *	each attempt, never 0
 * @nr_queues: channels, the polled ones last
 * @nr_poll_queues: of those, the queues of polled I/O (HCTX_TYPE_POLL)
 * @queue_depth: requests per queue (the channels' credits)
 * @max_pages: pages of one registration
 * @max_segs: scatterlist entries of one request
 * @inline_max: largest inline WRITE in bytes
 * @stage_pages: staging pages of each queue (clt_staged_reads), set at
 *	the first setup
 * @offer: the RCBLK_F_* every OPEN of the mapping offers, set at
 *	creation (clt_reply_batch, clt_staged_reads)
 * @geo: what the server answered
 * @queues: @nr_queues of them
 * @tag_set: blk-mq's
 * @disk: the disk
 * @flags: RCBLK_M_*
 * @last_error: the last channel error, or 0
 * @lock: serialises what makes and unmakes the channels: the teardown,
 *	the recovery's hold and its attempts, and dispatch's quiescing
 * @qlock: dispatch's quiescing (RCBLK_M_QUIESCED), apart from @lock so
 *	that fast_io_fail does not wait for an attempt under way
 * @ctl_mutex: a remap under way; unmap waits for it
 * @err_work: a channel failed: hold the requests and start reconnecting
 *	(or, unmapping, kill the mapping)
 * @rc: the reconnect loop (rdmachan_reconnect_*)
 * @policy: its policy, as the map asked or sysfs set it
 * @st: counters
 * @hist: request latencies by RCBLK_HIST_* (from the first dispatch to
 *	the end), NULL when off; set at creation
 */
struct rcblk_clt_map {
	struct list_head node;
	int index;
	bool ro;
	bool removing;
	struct sockaddr_storage server;
	bool server_local;
	struct sockaddr_storage src;
	char name[RCBLK_NAME_MAX];
	u8 session[RCBLK_SESSION_LEN];
	u32 gen;
	u32 nr_queues;
	u32 nr_poll_queues;
	u32 queue_depth;
	u32 max_pages;
	u32 max_segs;
	u32 inline_max;
	u32 stage_pages;
	u32 offer;
	struct rcblk_geo geo;
	struct rcblk_clt_queue *queues;
	struct blk_mq_tag_set tag_set;
	struct gendisk *disk;
	unsigned long flags;
	int last_error;
	struct mutex lock;	/* see @lock above */
	struct mutex qlock;	/* see @qlock above */
	struct mutex ctl_mutex;	/* see @ctl_mutex above */
	struct work_struct err_work;
	struct rdmachan_reconnect *rc;
	struct rdmachan_reconnect_policy policy;
	struct rcblk_clt_stats st;
	struct rdmachan_hist *hist[RCBLK_HIST_NR];
};

#define RCBLK_CLT_MINORS	16
#define RCBLK_CLT_MAX_QUEUES	64
#define RCBLK_CLT_MAX_DEPTH	4096
#define RCBLK_CLT_MAX_IO	SZ_1M
#define RCBLK_CLT_MAX_INLINE_KB	64

/* blk_clt.c: the mappings */
extern struct workqueue_struct *rcblk_clt_wq;
u32 rcblk_clt_connect_timeout(void);
int rcblk_clt_make_disk(struct rcblk_clt_map *map);
int rcblk_clt_set_policy(struct rcblk_clt_map *map, size_t off, u32 ms);
u32 rcblk_clt_state(struct rcblk_clt_map *map,
		    struct rdmachan_reconnect_info *rci);

/* blk_clt_link.c: the channels and their recovery */
extern const struct rdmachan_reconnect_ops rcblk_clt_rc_ops;
void rcblk_clt_fail(struct rcblk_clt_map *map, int err);
void rcblk_clt_export_gone(struct rcblk_clt_map *map);
void rcblk_clt_shutdown(struct rcblk_clt_map *map);
void rcblk_clt_quiesce(struct rcblk_clt_map *map);
void rcblk_clt_unquiesce(struct rcblk_clt_map *map);
void rcblk_clt_err_work(struct work_struct *work);
void rcblk_clt_destroy_pools(struct rcblk_clt_map *map);
void rcblk_clt_close_channels(struct rcblk_clt_map *map);
int rcblk_clt_setup(struct rcblk_clt_map *map);
int rcblk_clt_attempt(void *priv);

/* blk_clt_io.c */
extern const struct blk_mq_ops rcblk_clt_mq_ops;
extern const struct rdmachan_ops rcblk_clt_chan_ops;
void rcblk_clt_cancel_all(struct rcblk_clt_map *map);
void rcblk_clt_end_all(struct rcblk_clt_map *map);
u32 rcblk_clt_hold_all(struct rcblk_clt_map *map);
void rcblk_clt_reply_done(struct request *rq);

/* blk_clt_inline.c */
unsigned int rcblk_clt_inline_vecs(struct request *rq, struct kvec *vec,
				   unsigned int max);
void rcblk_clt_copy_inline(struct request *rq, void *buf);
unsigned int rcblk_clt_zc_sg(struct rcblk_clt_queue *q, struct request *rq);
int rcblk_clt_zc_send(struct rcblk_clt_queue *q, struct request *rq,
		      unsigned int n);
void rcblk_clt_reply_end(struct request *rq);
void rcblk_clt_zc_work(struct work_struct *work);
void rcblk_clt_zc_flush(struct rcblk_clt_map *map);

/* blk_clt_stage.c */
int rcblk_clt_stage_alloc(struct rcblk_clt_queue *q, u32 nr);
void rcblk_clt_stage_free(struct rcblk_clt_queue *q);
void rcblk_clt_stage_reg(struct rcblk_clt_queue *q);
void rcblk_clt_stage_dereg(struct rcblk_clt_queue *q);
bool rcblk_clt_stage_desc(struct rcblk_clt_queue *q, struct request *rq,
			  struct rdmachan_remote_mr *desc);
void rcblk_clt_stage_copy(struct rcblk_clt_queue *q, struct request *rq);

/* blk_clt_poll.c */
bool rcblk_clt_queue_polled(const struct rcblk_clt_map *map, u16 qid);
struct rdmachan *rcblk_clt_set_channel(struct rcblk_clt_queue *q,
				       struct rdmachan *ch);
long rcblk_clt_open_wait(struct rcblk_clt_queue *q, unsigned long left);
void rcblk_clt_map_queues(struct blk_mq_tag_set *set);
int rcblk_clt_poll(struct blk_mq_hw_ctx *hctx, struct io_comp_batch *iob);
bool rcblk_clt_poll_defer(struct request *rq);
void rcblk_clt_poll_work(struct work_struct *work);
void rcblk_clt_poll_flush(struct rcblk_clt_map *map);

/* blk_clt_sysfs.c */
extern const struct attribute_group *rcblk_clt_disk_groups[];
int rcblk_clt_parse_map(const char *buf, struct rdmachan_blk_map *m);

#endif /* RCBLK_CLT_H */
