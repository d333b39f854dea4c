/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * rdmachan: private structures of channels and listeners
 */
#ifndef RDMACHAN_PRI_H
#define RDMACHAN_PRI_H

#include <linux/completion.h>
#include <linux/interrupt.h>
#include <linux/kref.h>
#include <linux/mutex.h>
#include <linux/spinlock.h>
#include <linux/wait.h>
#include <linux/workqueue.h>
#include <linux/xarray.h>
#include <rdma/ib_verbs.h>
#include <rdma/rdma_cm.h>

struct page_pool;
struct mem_cgroup;

#include "state.h"
#include "credit.h"
#include "device.h"
#include "chan_ring.h"
#include "proto.h"
#include "bounds.h"
#include "chan_mr.h"
#include "rdmachan.h"

struct net;

#define RDMACHAN_HDR_LEN	sizeof(struct rdmachan_wire_hdr)

/*
 * RC transport timers of both ends' QPs: the ACK timeout is the ack_timeout
 * parameter (rdmachan_param_ack_timeout(), default about 2.1 s), with 6
 * retries, so a peer that vanished fails the next send (or keepalive)
 * within 7 timeouts, about 15 s.  Not 7: rxe retransmits forever with a
 * retry count of 7.  The timeout is set on the passive side's cm_id too,
 * as rdma_cm does not carry it over from the listener.
 */
#define RDMACHAN_RETRY_COUNT	6
#define RDMACHAN_RNR_RETRY	7	/* infinite: wait for a reposted buffer */

/*
 * A keepalive probe neither completed nor failed this long after its post
 * means the transport is stuck (RC retries end within about 15 s): the
 * channel fails with -ETIMEDOUT.
 */
#define RDMACHAN_KEEPALIVE_STUCK	(30 * HZ)

/*
 * Likewise a one-sided request (a registration's included) not ended this
 * long after its post: the channel fails, and its teardown ends it.
 */
#define RDMACHAN_REQ_STUCK		(30 * HZ)

/*
 * How long teardown waits for the provider to flush the QP (it does so at
 * once, normally); past it the QP is destroyed with what it did not
 * flush, which teardown ends itself.
 */
#define RDMACHAN_DRAIN_TIMEOUT		(15 * HZ)

/**
 * struct rdmachan_drain - a marker work request of teardown's drain
 * @cqe: its completion entry
 * @done: completed by its (flushed) completion
 *
 * Kept in the channel, not on the stack: a provider may deliver it after
 * the drain gave up waiting (until the CQ is freed).
 */
struct rdmachan_drain {
	struct ib_cqe		cqe;
	struct completion	done;
};

/* Bit of rdmachan.poll.lock */
#define RDMACHAN_POLLING	0

/**
 * enum rdmachan_flag - bits of rdmachan.flags, the life cycle of a channel
 * @RDMACHAN_F_DYING: teardown has begun: the channel's builders
 *	(rdmachan_build()) must not build (set
 *	under the cm_id's handler lock, or before there is one)
 * @RDMACHAN_F_IO_STOPPED: no more posting; set under rdmachan.lock before
 *	the QP drains (or a failed setup frees the receive CQ)
 * @RDMACHAN_F_PEER_CLOSED: the peer disconnected (the rdma_cm handler)
 * @RDMACHAN_F_PEER_SAID_CLOSE: the peer sent CLOSE before disconnecting:
 *	an orderly end (without it a disconnect means the peer failed); set
 *	under rdmachan.lock
 * @RDMACHAN_F_CLOSE_SENT: our CLOSE was posted (at most once; under
 *	rdmachan.lock)
 * @RDMACHAN_F_TORN_DOWN: resources released (set last by teardown, under
 *	rdmachan.teardown_mutex)
 * @RDMACHAN_F_ESTABLISHED: a passive channel reached ESTABLISHED (set
 *	under its listener's lock)
 * @RDMACHAN_F_DELIVERING: a pushed delivery is running, the only one
 *	(keeps order; under rdmachan.lock)
 * @RDMACHAN_F_RX_SEEN: a message arrived since the last keepalive tick
 *	(under rdmachan.lock)
 * @RDMACHAN_F_ZC_SENT: a zero-copy send began (rdmachan_send_sg_zc());
 *	set under rdmachan.lock while @RDMACHAN_F_IO_STOPPED is clear: the
 *	teardown then waits for its RCU read section before it releases
 * @RDMACHAN_F_ROUTED: an active channel's route is resolved: the
 *	connecting thread builds it and sends the request (set by the
 *	rdma_cm handler)
 */
enum rdmachan_flag {
	RDMACHAN_F_DYING,
	RDMACHAN_F_IO_STOPPED,
	RDMACHAN_F_PEER_CLOSED,
	RDMACHAN_F_PEER_SAID_CLOSE,
	RDMACHAN_F_CLOSE_SENT,
	RDMACHAN_F_TORN_DOWN,
	RDMACHAN_F_ESTABLISHED,
	RDMACHAN_F_DELIVERING,
	RDMACHAN_F_RX_SEEN,
	RDMACHAN_F_ZC_SENT,
	RDMACHAN_F_ROUTED,
};

/* Both kinds of rdma_cm_id context start with this tag. */
enum rdmachan_obj_kind {
	RDMACHAN_OBJ_CHANNEL	= 0x43484e4c,	/* "CHNL" */
	RDMACHAN_OBJ_LISTENER	= 0x4c53544e,	/* "LSTN" */
};

/**
 * struct rdmachan_obj - what channels and listeners have in common
 * @kind: which of the two; first, as an rdma_cm_id's context is either
 * @id: its number, unique among the objects of its kind while it exists:
 *	its sysfs name (chanN, listenerN) and its log prefix
 * @ref: references
 * @sysfs_dev: its /sys/class/rdmachan directory, or NULL; set and cleared
 *	by its user's thread (connect, accept, listen, close)
 * @dev_user: its place among the users of its RDMA device (device.h),
 *	under the device list lock
 */
struct rdmachan_obj {
	enum rdmachan_obj_kind	kind;
	u32			id;
	struct kref		ref;
	struct device		*sysfs_dev;
	struct rdmachan_dev_user dev_user;
};

/* Control send slots: one credit update and one keepalive in flight */
enum {
	RDMACHAN_CTRL_CREDIT,
	RDMACHAN_CTRL_KEEPALIVE,
	RDMACHAN_CTRL_CLOSE,
	RDMACHAN_CTRL_SLOTS
};

/* The counters of a channel (chan_stats.h), by number */
enum rdmachan_stat {
#define RDMACHAN_STAT(name)	RDMACHAN_STAT_##name,
#include "chan_stats.h"
#undef RDMACHAN_STAT
	RDMACHAN_NR_STATS
};

/**
 * struct rdmachan_conn - the connection of a channel (chan_cm.c,
 *	chan_listen.c)
 * @cm_id: the rdma_cm identifier; set before the channel is reachable
 *	(rdmachan_connect_net(), or the listener's request handler), cleared
 *	by teardown under rdmachan.teardown_mutex
 * @done: completed when connection setup ends, either way
 * @active: we connected (true) or accepted (false); set once at
 *	allocation
 * @local: the parameters we offered; set once before the connect request
 *	or the accept
 * @params: the negotiated queue depth, message size and wire features;
 *	set by the connecting thread or the rdma_cm handler before I/O
 *	starts (rdmachan_start_io()), read-only from then on
 * @grant_rx: data receive buffers posted for the peer at the start, our
 *	start grant (chan_grant.c); set with the resources
 * @grant_tx: the peer's start grant, our first credits: its reply's or
 *	request's (the whole depth from a version 3 peer); set before I/O
 *	starts
 * @hdr_imm: RDMACHAN_WIRE_F_HDR_IMM is in force: every SEND is a
 *	SEND_WITH_IMM whose immediate is the header, the payload starts the
 *	message; set once before I/O starts
 * @frag_rx: this side's receive buffers hold a fragment
 *	(RDMACHAN_WIRE_F_FRAG, chan_frag.c): the peer sends messages larger
 *	than one as several, this side chains them; set once with the
 *	resources
 * @frag_tx: the peer's receive buffers hold a fragment: this side sends
 *	larger messages as several; set once before I/O starts (the
 *	request's, or the reply's on the active side)
 * @src: local address; set once before the channel is handed to its user
 * @dst: peer address; set once at connect or at the connect request
 * @dying_id: @cm_id once teardown handed it to @destroy_work (set once,
 *	under rdmachan.teardown_mutex; that work's alone from then on)
 * @destroy_work: destroys @dying_id, then drops the channel reference
 *	teardown took for it (rdmachan_cm_destroy_work())
 */
struct rdmachan_conn {
	struct rdma_cm_id	*cm_id;
	struct rdma_cm_id	*dying_id;
	struct work_struct	destroy_work;
	struct completion	done;
	bool			active;
	bool			hdr_imm;
	bool			frag_rx;
	bool			frag_tx;
	u32			grant_rx;
	u32			grant_tx;
	struct rdmachan_conn_params local;
	struct rdmachan_conn_params params;
	struct sockaddr_storage	src;
	struct sockaddr_storage	dst;
};

/**
 * struct rdmachan_res - the RDMA resources of a channel (chan_qp.c)
 *
 * Built by rdmachan_setup_resources() before I/O starts and released by
 * teardown (under rdmachan.teardown_mutex, I/O stopped, holding the poll
 * bit); everything else only reads them in between, unless said.
 *
 * @dev_name: the RDMA device's name while the resources exist, else empty;
 *	under rdmachan.lock (sysfs and CHAN_INFO read it without waiting for
 *	a teardown)
 * @port_num: the port while the resources exist, else 0; under
 *	rdmachan.lock
 * @pd: the channel's own protection domain: its registrations are
 *	reachable through its QP only
 * @cq: completion queue of sends, and of receives unless
 *	rdmachan_poll_state.rcq; published whole with WRITE_ONCE(), as
 *	rdmachan_poll() may look at it any time
 * @qp: the RC queue pair (conn.cm_id->qp)
 * @qpn: its number, which joins the channel with `rdma res` and its
 *	tracepoints; set with @qp, kept after it goes (0: none yet)
 * @reg_qpn: @reg_qp's number, likewise (0: none)
 * @max_inline: the QP's inline data limit
 * @max_send_sge: the QP's gather limit (one-sided ops)
 * @max_sge_rd: the device's limit of a READ's local segments (1 on iWARP)
 * @max_reg_pages: pages one registration may span (fast-registration limit)
 * @buf_size: the receive buffers' size, set with the resources: header,
 *	largest payload, in-band immediate; RDMACHAN_FRAG_BUF with frag_rx
 * @sbuf_size: the same for the send buffers, RDMACHAN_FRAG_BUF with
 *	&rdmachan_conn.frag_tx; set with the resources, and lowered under
 *	rdmachan.lock by an active side whose peer answered F_FRAG
 *	(rdmachan_frag_adopt()) before it makes any (at ESTABLISHED)
 * @rx_split: receive buffers split (rx_layout.h), set with the resources
 * @tx_split: send buffers split (chan_sbuf.c), set with @sbuf_size
 * @iwarp: the transport is iWARP
 * @has_atomics: the device does atomics
 * @reg_fence: a fast registration must not wait in the send queue
 *	behind work requests not yet acknowledged (rxe, whose requester
 *	executes again the local operations it finds when it goes back to
 *	retransmit: a REG_MR run twice fails, "not free", and the send queue
 *	stalls): the registrations a send carries follow a fencing LOCAL_INV
 *	(chan_post.c); with the registration QP (@reg_qp), those of
 *	one-sided requests, and a send's while the channel is idle
 *	(rdmachan_send_idle_locked())
 * @reg_qp: where @reg_fence and sends may carry registrations: the QP
 *	of the sends' fast registrations and of the pools' LOCAL_INVs, an
 *	RC QP in @pd connected to itself that only runs local operations
 *	(chan_post.c, rdmachan_regq_create()); else NULL
 * @reg_cq: its completion queue (softirq)
 * @drain_sq: teardown's marker on the send queue
 * @drain_rq: teardown's marker on the receive queue
 */
struct rdmachan_res {
	char			dev_name[IB_DEVICE_NAME_MAX];
	u32			port_num;
	struct ib_pd		*pd;
	struct ib_cq		*cq;
	struct ib_qp		*qp;
	u32			qpn;
	u32			reg_qpn;
	u32			max_inline;
	u32			max_send_sge;
	u32			max_sge_rd;
	u32			max_reg_pages;
	u32			buf_size;
	u32			sbuf_size;
	bool			rx_split;
	bool			tx_split;
	bool			iwarp;
	bool			has_atomics;
	bool			reg_fence;
	struct ib_qp		*reg_qp;
	struct ib_cq		*reg_cq;
	struct rdmachan_drain	drain_sq;
	struct rdmachan_drain	drain_rq;
};

/**
 * struct rdmachan_send_ring - the data send ring (chan_send.c)
 * @ring: the data send slots, @depth of them; allocated before I/O starts.
 *	A slot between @completed and @reserved belongs to the sender that
 *	reserved it (which fills it without a lock) until it is posted, then
 *	to the QP; it holds a buffer from @spare over that time only
 * @depth: slots in @ring; set once before I/O starts
 * @reserved: slots handed to senders (a counter); under rdmachan.lock
 * @posted: slots posted, in order (a counter); under rdmachan.lock
 * @completed: slots known complete (a counter); under rdmachan.lock.
 *	The three are 64-bit, so that they never wrap: sequence number
 *	modulo @depth names one slot only while it cannot wrap (with 32
 *	bits, a @depth that does not divide 2^32 would give two messages in
 *	flight across the wrap one slot)
 * @sig_interval: every this many data sends is signalled; set once
 *	before I/O starts
 * @imm_inband: user immediates travel after the payload, flagged
 *	RDMACHAN_HDR_F_IMM: the transport has no SEND_WITH_IMM (iWARP), or
 *	the immediate carries the header (conn.hdr_imm); set once before I/O
 *	starts
 * @zc_sge: gather lists of zero-copy sends, a row of @zc_width entries a
 *	slot: [0] the header (when it is not the immediate), [1..nr_zc] the
 *	payload, then the in-band immediate; allocated with @ring where
 *	&rdmachan_opts.zc_send, else NULL
 * @zc_width: entries of a row: the QP's max_send_sge; 0 without @zc_sge
 * @ext: a slot's registrations and zero-copy callback, by slot
 *	(rdmachan_tx_ext()); allocated with @ring where
 *	&rdmachan_opts.max_send_regs or .zc_send, else NULL
 * @spare: data send buffers no slot holds (chan_sbuf.h), the most
 *	recently used last; room for @depth; under rdmachan.lock
 * @nr_spare: buffers in @spare; under rdmachan.lock
 * @nr_bufs: data send buffers the channel has, in slots and in @spare:
 *	at most @depth; under rdmachan.lock
 * @idle_mark: @reserved at the last keepalive tick (a tick that finds it
 *	unchanged frees @spare); under rdmachan.lock
 * @fill_work: allocates buffers that a sender that may not wait could
 *	not have, then calls &rdmachan_ops.writable (chan_sbuf.c)
 * @retire_mark: @reserved at the last tick (chan_grant.c); under the lock
 * @retire_since: jiffies of the last use of credits; under rdmachan.lock
 * @retired: RETIRE messages reserved (a counter): sent, never answered
 *	(rdmachan_send_idle_locked()); under rdmachan.lock
 * @want_least: the slots a non-blocking message of fragments was refused
 *	for, 0 after a reservation: poll and &rdmachan_ops.writable wait for
 *	as many (chan_send.c); under rdmachan.lock
 * @waiting: senders waiting for several credits at once (a message of
 *	fragments, a one-sided request's WRITE_WITH_IMMs): the channel is
 *	not idle, its credits are not retired (chan_grant.c); under
 *	rdmachan.lock
 * @retire_hdr: the header of every RETIRE message, where it is not the
 *	immediate; allocated, mapped at @retire_dma, before I/O starts
 * @retire_dma: its DMA address
 * @inv_tail: the send queue's last work requests are a LOCAL_INV and
 *	local operations only (fast registrations): a REG_MR posted now
 *	needs no fence of its own where &rdmachan_res.reg_fence (rxe runs
 *	that LOCAL_INV only once every work request before it completed;
 *	chan_post.c).  Kept by rdmachan_post_send_locked(); under
 *	rdmachan.lock
 * @hist: send-to-completion latencies (hist.c), NULL when off; set at
 *	creation
 * @t_ns: with @hist, when each slot was filled (by slot, 0: none);
 *	allocated with @ring; under rdmachan.lock
 */
struct rdmachan_send_ring {
	struct rdmachan_tx	*ring;
	u32			depth;
	u64			reserved;
	u64			posted;
	u64			completed;
	u32			sig_interval;
	u32			want_least;
	u32			waiting;
	bool			imm_inband;
	struct ib_sge		*zc_sge;
	u32			zc_width;
	struct rdmachan_tx_ext	*ext;
	struct rdmachan_sbuf	*spare;
	u32			nr_spare;
	u32			nr_bufs;
	u64			idle_mark;
	struct work_struct	fill_work;
	u64			retire_mark;
	unsigned long		retire_since;
	u64			retired;
	void			*retire_hdr;
	u64			retire_dma;
	bool			inv_tail;
	struct rdmachan_hist	*hist;
	u64			*t_ns;
};

/**
 * struct rdmachan_recv_queue - received messages (chan_recv.c)
 * @all: the receive slots (&rdmachan_rx.link), each made with its buffer:
 *	those of the start grant and the control reserve before I/O starts,
 *	more as the grant grows (chan_grant.c); a slot is freed with its
 *	buffer when the peer retires it, the rest with the channel (a reader
 *	may hold one after teardown); under rdmachan.lock once I/O started
 * @nr_slots: the slots in @all; under rdmachan.lock once I/O started
 * @nr_bufs: posted depth plus control reserve, the most slots; set once
 *	before I/O starts
 * @ready: received messages not yet handed to the user, in order; under
 *	rdmachan.lock
 * @nr_ready: their number; under rdmachan.lock
 * @pending: RDMACHAN_POLL_SOLICITED: received messages waiting for a
 *	solicited event (or a read) before they go to @ready, in order;
 *	under rdmachan.lock
 * @nr_pending: their number; under rdmachan.lock
 * @read_mutex: serialises the consumers of the channel's file (read(),
 *	RECV, RECVMMSG, BENCH modes that receive), keeping their order
 * @pool: &rdmachan_opts.rx_pages where the kernel has page pools: where
 *	the buffers' pages come from and go back to; allocations under
 *	rdmachan.lock once I/O started (one consumer at a time)
 * @order: &rdmachan_opts.rx_pages: the buffers' page order
 * @grow_work: allocates and posts buffers for more credits (chan_grant.c)
 * @grow_queued: @grow_work is queued or running; under rdmachan.lock
 * @ask: the peer's standing ask for more credits (RDMACHAN_HDR_F_WANT)
 *	and its stuck clock (credit.h); under rdmachan.lock
 * @grown: buffers counted in the device's &rdmachan_device.rx_grown;
 *	under rdmachan.lock
 * @asm_first: F_FRAG: the first buffer of the message whose fragments
 *	arrive, NULL between messages; under rdmachan.lock (chan_frag.c)
 * @asm_last: its last fragment's so far
 * @hist: arrival-to-release latencies (hist.c), NULL when off; set at
 *	creation
 */
struct rdmachan_recv_queue {
	struct list_head	all;
	u32			nr_slots;
	u32			nr_bufs;
	struct work_struct	grow_work;
	bool			grow_queued;
	struct rdmachan_grant_ask ask;
	u32			grown;
	struct rdmachan_rx	*asm_first;
	struct rdmachan_rx	*asm_last;
	struct page_pool	*pool;
	unsigned int		order;
	struct list_head	ready;
	u32			nr_ready;
	struct list_head	pending;
	u32			nr_pending;
	struct mutex		read_mutex;	/* one reader at a time */
	struct rdmachan_hist	*hist;
};

/**
 * struct rdmachan_ctrl_slots - control messages (chan_ctrl.c)
 * @slot: the control send slots, by RDMACHAN_CTRL_*; a slot is its
 *	poster's while its bit of @busy is set, under rdmachan.lock
 * @busy: bit per slot in flight: set under rdmachan.lock, cleared by its
 *	completion (atomic bit operations)
 * @keepalive_posted: jiffies of the last keepalive probe's post; under
 *	rdmachan.lock
 * @keepalive_work: periodic liveness probe; queued when I/O starts,
 *	cancelled by teardown
 * @quiet_ticks: keepalive ticks in a row that found nothing arrived
 *	(keepalive.h); @keepalive_work's, under rdmachan.lock
 * @close_handshake: iWARP: a send completion does not mean delivery, so
 *	CLOSE is answered with CLOSE, and the closing side waits for it;
 *	set once before I/O starts
 * @want_grant: the next KEEPALIVE or CREDIT asks the peer for more
 *	credits (RDMACHAN_HDR_F_WANT, chan_grant.c); under rdmachan.lock
 * @flush_owed: the peer asked for credits: a CREDIT returns what is owed,
 *	below the report thresholds too (chan_grant.c); under rdmachan.lock
 * @credits: the control credits (credit.h); under rdmachan.lock
 * @pending: bit per slot whose message waits for a control credit; under
 *	rdmachan.lock
 * @pending_since: jiffies @pending last became non-zero; under
 *	rdmachan.lock
 * @held: the peer's control messages whose buffers an injection holds
 *	back from the receive queue (chan_event.c), linked by
 *	&rdmachan_rx.node; under rdmachan.lock, emptied before the buffers
 *	are freed
 * @hold: that injection is on; under rdmachan.lock
 */
struct rdmachan_ctrl_slots {
	struct rdmachan_tx	slot[RDMACHAN_CTRL_SLOTS];
	unsigned long		busy;
	unsigned long		keepalive_posted;
	struct delayed_work	keepalive_work;
	u8			quiet_ticks;
	bool			close_handshake;
	bool			want_grant;
	bool			flush_owed;
	struct rdmachan_ctrl_credits credits;
	unsigned long		pending;
	unsigned long		pending_since;
	struct list_head	held;
	bool			hold;
};

/**
 * struct rdmachan_poll_state - completions the user drives (chan_poll.c)
 * @lock: bit RDMACHAN_POLLING is held by the one thread processing a
 *	DIRECT channel's CQ (a SOLICITED channel's @rcq); teardown takes it
 *	for good before the drain (atomic bit operations, acquire/release)
 * @rcq: RDMACHAN_POLL_SOLICITED: the receive completion queue, armed for
 *	solicited events and polled under bit RDMACHAN_POLLING; published
 *	whole with WRITE_ONCE() before I/O starts, freed by teardown
 * @rcq_work: processes the receive queue after a solicited event
 */
struct rdmachan_poll_state {
	unsigned long		lock;
	struct ib_cq		*rcq;
	struct work_struct	rcq_work;
};

/**
 * struct rdmachan_listen_entry - a passive channel on its listener's
 *	lists, until accepted (chan_listen.c)
 * @listener: the listener, holding a reference on it, until the channel
 *	is accepted or dropped; cleared under rdmachan.lock (or before
 *	anyone saw the channel)
 * @node: entry in the listener's pending or ready list; under
 *	rdmachan_listener.lock
 * @charge: bytes charged to the listener's budget while listed; set once
 *	before the channel is listed
 * @since: jiffies when the listener accepted the request; set once before
 *	the channel is listed
 * @accept_work: builds the channel and accepts (rdmachan_accept_work()),
 *	queued once by the connect request's handler
 * @resp_res: responder resources to accept with; set once before
 *	@accept_work is queued
 * @init_depth: initiator depth to accept with; likewise
 */
struct rdmachan_listen_entry {
	struct rdmachan_listener *listener;
	struct list_head	node;
	u64			charge;
	unsigned long		since;
	struct work_struct	accept_work;
	u8			resp_res;
	u8			init_depth;
};

/**
 * struct rdmachan - a message channel
 * @obj: kind RDMACHAN_OBJ_CHANNEL, number, references (the user's one,
 *	plus transient ones), sysfs directory, place on its device
 * @lock: protects the state, credits, rings and queues (as each field
 *	says)
 * @state: enum rdmachan_state; changed under @lock, read with READ_ONCE()
 *	where a hint will do
 * @err: why the channel failed (negative errno), or 0; set under @lock
 *	with @state
 * @flags: bits of enum rdmachan_flag, the channel's life cycle; atomic
 *	bit operations, and each bit names what orders it
 * @credits: credits we may spend and credits we owe the peer; under @lock
 * @wq: waiters for messages, credits and state changes
 * @opts: what the user asked for, defaults filled in; set once at
 *	allocation
 * @ops: the user's callbacks; set before the channel is handed to its
 *	user (at accept under @lock)
 * @priv: the user's pointer; likewise
 * @teardown_mutex: serialises teardown, and keeps the resources while a
 *	holder looks at them
 * @teardown_work: teardown requested from a context that cannot sleep
 * @conn: the connection: rdma_cm identifier, parameters, addresses
 * @res: the RDMA resources: PD, CQ, QP, the device's limits
 * @send: the data send ring
 * @recv: the receive buffers and the reader's queues
 * @ctrl: the control send slots and the keepalive
 * @poll: the poll bit and a SOLICITED channel's receive CQ
 * @rdma: one-sided requests in flight
 * @reap: outcomes of asynchronous one-sided calls
 * @mr: the memory registrations
 * @pools: the registration pools (rdmachan_mr_pool_create())
 * @writable_wanted: what calls refused with -EAGAIN since
 *	&rdmachan_ops.writable last ran lacked: RDMACHAN_WANT_SEND (a credit
 *	and a ring slot), RDMACHAN_WANT_RDMA (one-sided room, and credits
 *	for WRITE_WITH_IMM); set under @lock at the refusal, tested and
 *	cleared under @lock where room comes back
 *	(rdmachan_writable_due_locked()), and when the channel fails
 * @want_rdma_slots: the smallest one-sided room a refused call asked
 *	for, with RDMACHAN_WANT_RDMA; under @lock
 * @want_rdma_credits: the fewest credits one asked for; under @lock
 * @listen: a passive channel's place on its listener until accepted
 * @mem: bytes of memory the channel allocated for itself, as the
 *	allocators round them (the structure, its rings and message
 *	buffers; not the provider's queues, not the user's registrations):
 *	added to at each allocation by rdmachan_mem_charge(), read any time
 *	(sysfs mem_bytes)
 * @memcg: the memory cgroup that @mem is charged to: that of the process
 *	that made the channel through /dev/rdmachan (its CONNECT, or the
 *	LISTEN of the listener that took it in), NULL for kernel users,
 *	whose channels serve the system; set by rdmachan_alloc(), its
 *	reference put by the channel's release
 * @stats: counters, by enum rdmachan_stat (atomic)
 */
struct rdmachan {
	struct rdmachan_obj	obj;
	spinlock_t		lock;	/* state, credits, rings, rx lists */
	enum rdmachan_state	state;
	int			err;
	unsigned long		flags;
	struct rdmachan_credits	credits;
	wait_queue_head_t	wq;
	struct rdmachan_opts	opts;
	const struct rdmachan_ops *ops;
	void			*priv;
	struct mutex		teardown_mutex;	/* teardown vs. cm_id users */
	struct work_struct	teardown_work;

	struct rdmachan_conn	conn;
	struct rdmachan_res	res;
	struct rdmachan_send_ring send;
	struct rdmachan_recv_queue recv;
	struct rdmachan_ctrl_slots ctrl;
	struct rdmachan_poll_state poll;
	struct rdmachan_rdma_inflight rdma;
	struct rdmachan_reap_queue reap;
	struct rdmachan_mr_set	mr;
	struct rdmachan_pool_set pools;
	u32			writable_wanted;
	u32			want_rdma_slots;
	u32			want_rdma_credits;
	struct rdmachan_listen_entry listen;
	atomic_long_t		mem;
	struct mem_cgroup	*memcg;

	atomic64_t		stats[RDMACHAN_NR_STATS];
};

#include "chan_listen.h"

/* The channel's RDMA device while it holds resources there, else NULL */
static inline struct rdmachan_device *rdmachan_chan_dev(struct rdmachan *ch)
{
	return ch->obj.dev_user.dev;
}

/**
 * rdmachan_dev_port() - the channel's RDMA device and port, a snapshot
 * @ch: the channel
 * @name: the device's name, empty once the resources are gone
 * @len: room at @name
 *
 * Context: any; never waits for a teardown.
 * Return: the port, 0 once the resources are gone.
 */
static inline u32 rdmachan_dev_port(struct rdmachan *ch, char *name,
				    size_t len)
{
	unsigned long flags;
	u32 port;

	spin_lock_irqsave(&ch->lock, flags);
	strscpy(name, ch->res.dev_name, len);
	port = ch->res.port_num;
	spin_unlock_irqrestore(&ch->lock, flags);
	return port;
}

#include "rdmachan-log.h"

extern struct workqueue_struct *rdmachan_wq;
extern struct workqueue_struct *rdmachan_accept_wq;

/* chan_reconnect.c: its workqueue, made and destroyed with the module */
int rdmachan_reconnect_init(void);
void rdmachan_reconnect_exit(void);
void rdmachan_reconnect_kick_all(const char *why);

/*
 * Software providers (rxe, siw) do the work of a post in a tasklet.  From
 * process context that tasklet would wait for ksoftirqd; with bottom
 * halves disabled around the post it runs as soon as they are enabled
 * again, right here, which takes a scheduler round trip off every
 * message.  Harmless for hardware providers.  Not possible where
 * interrupts are off (the caller's own lock): then the tasklet is late.
 */
static inline bool rdmachan_bh_off(void)
{
	if (in_hardirq() || irqs_disabled())
		return false;
	local_bh_disable();
	return true;
}

static inline void rdmachan_bh_on(bool was_turned_off)
{
	if (was_turned_off)
		local_bh_enable();
}

/*
 * rdmachan_bh_off() around a post, unless the user asked for the
 * provider's work to wait (&rdmachan_opts.post_defer)
 */
static inline bool rdmachan_post_bh_off(const struct rdmachan *ch)
{
	return !ch->opts.post_defer && rdmachan_bh_off();
}

static inline struct ib_device *rdmachan_ibdev(struct rdmachan *ch)
{
	return ch->conn.cm_id->device;
}

/*
 * What a channel's queues are sized for (rdmachan_qp_sizes()), with the
 * core's fixed room: the one description of a channel's needs, for
 * chan_qp.c's queues and a listener's estimate of them.
 */
static inline struct rdmachan_qp_want
rdmachan_qp_want(u32 depth, u32 max_send_regs, bool reg_fence, u32 dev_max_wr)
{
	return (struct rdmachan_qp_want){
		.depth = depth,
		.regs = min_t(u32, max_send_regs, RDMACHAN_MAX_SEND_REGS),
		.reg_fence = reg_fence,
		.dev_max_wr = dev_max_wr,
		.ctrl_recv = RDMACHAN_CTRL_RECV,
		.ctrl_send = RDMACHAN_CTRL_SLOTS,
		/* one call's work requests, and what rounding leaves */
		.rdma_slots = RDMACHAN_MAX_RDMA_OPS,
	};
}

/* The row of zero-copy gather entries of send slot @tx */
/* What data send slot @tx holds for registrations and zero-copy sends */
static inline struct rdmachan_tx_ext *rdmachan_tx_ext(struct rdmachan *ch,
						      struct rdmachan_tx *tx)
{
	return &ch->send.ext[tx - ch->send.ring];
}

static inline struct ib_sge *rdmachan_zc_row(struct rdmachan *ch,
					     struct rdmachan_tx *tx)
{
	return &ch->send.zc_sge[(tx - ch->send.ring) * ch->send.zc_width];
}

/* Bits of rdmachan.writable_wanted */
#define RDMACHAN_WANT_SEND	BIT(0)
#define RDMACHAN_WANT_RDMA	BIT(1)

/*
 * A send is refused for want of a credit or a ring slot: have the return
 * of both call &rdmachan_ops.writable.  Caller holds ch->lock.
 */
static inline void rdmachan_want_send_locked(struct rdmachan *ch)
{
	lockdep_assert_held(&ch->lock);
	ch->writable_wanted |= RDMACHAN_WANT_SEND;
}

/*
 * A one-sided call is refused for want of @slots of room and @credits:
 * likewise.  Caller holds ch->lock.
 */
static inline void rdmachan_want_rdma_locked(struct rdmachan *ch, u32 slots,
					     u32 credits)
{
	lockdep_assert_held(&ch->lock);
	if (!(ch->writable_wanted & RDMACHAN_WANT_RDMA)) {
		ch->want_rdma_slots = slots;
		ch->want_rdma_credits = credits;
	} else {
		ch->want_rdma_slots = min(ch->want_rdma_slots, slots);
		ch->want_rdma_credits = min(ch->want_rdma_credits, credits);
	}
	ch->writable_wanted |= RDMACHAN_WANT_RDMA;
}

/*
 * The channel failed or is torn down, with ch->lock held: whether a
 * refusal waits (it is to learn that no room will come).  When true,
 * the caller calls rdmachan_call_writable() once it has dropped the lock.
 */
static inline bool rdmachan_writable_take_locked(struct rdmachan *ch)
{
	bool due = ch->writable_wanted;

	lockdep_assert_held(&ch->lock);
	ch->writable_wanted = 0;
	return due;
}

/* chan_core.c */
struct rdmachan *rdmachan_alloc(const struct rdmachan_opts *opts, bool active,
				struct mem_cgroup *memcg);
void rdmachan_get(struct rdmachan *ch);
void rdmachan_put(struct rdmachan *ch);
bool rdmachan_event_locked(struct rdmachan *ch, enum rdmachan_event ev,
			   int err);
void rdmachan_set_failed(struct rdmachan *ch, int err);
void rdmachan_set_disconnected(struct rdmachan *ch);
void rdmachan_fail_io(struct rdmachan *ch, int err);
void rdmachan_post_failed_locked(struct rdmachan *ch, const char *what,
				 int err);
bool rdmachan_wc_ok(struct rdmachan *ch, struct ib_wc *wc, const char *what);
void rdmachan_teardown(struct rdmachan *ch);
void rdmachan_schedule_teardown(struct rdmachan *ch);
int rdmachan_build(struct rdmachan *ch,
		   int (*build)(struct rdmachan *ch, struct rdma_cm_id *id));
void rdmachan_opts_fill(struct rdmachan_opts *o, const struct rdmachan_opts *in);
void rdmachan_call_writable(struct rdmachan *ch);
u32 rdmachan_depth_cap(u32 depth, u32 max_msg_size, bool rx_pages);
int rdmachan_core_init(void);
void rdmachan_core_exit(void);

/* chan_event.c */
void rdmachan_qp_event(struct ib_event *ev, void *ctx);
void rdmachan_cq_event(struct ib_event *ev, void *ctx);
void rdmachan_event_init(void);
void rdmachan_event_exit(void);
void rdmachan_inject_cm_destroy_delay(void);

/* chan_qp.c */
int rdmachan_setup_resources(struct rdmachan *ch, struct rdma_cm_id *cm_id);
void rdmachan_release_resources(struct rdmachan *ch);
int rdmachan_post_all_recvs(struct rdmachan *ch);
void rdmachan_drain_qp(struct rdmachan *ch);

/* chan_send.c */
int rdmachan_send_state_err(struct rdmachan *ch);
int rdmachan_commit_locked(struct rdmachan *ch);
bool rdmachan_send_idle_locked(struct rdmachan *ch);
int rdmachan_send_iter(struct rdmachan *ch, struct iov_iter *from, u32 imm,
		       unsigned int flags);
int rdmachan_send_batch(struct rdmachan *ch,
			int (*fill)(struct rdmachan *ch, struct rdmachan_tx *tx,
				    u32 i, void *arg),
			void *arg, u32 count, bool nonblock);
bool rdmachan_writable(struct rdmachan *ch);
bool rdmachan_writable_due_locked(struct rdmachan *ch);
void rdmachan_tx_done(struct ib_cq *cq, struct ib_wc *wc);
struct rdmachan_tx *rdmachan_tx_slot(struct rdmachan *ch, u64 seq);
void rdmachan_tx_retire_locked(struct rdmachan *ch, u64 upto);
void rdmachan_send_end_orphans(struct rdmachan *ch);

/* chan_recv.c */
void rdmachan_post_recv_locked(struct rdmachan *ch, struct rdmachan_rx *rx);
int rdmachan_rx_pages_init(struct rdmachan *ch);
struct page *rdmachan_rx_page_alloc(struct rdmachan *ch, gfp_t gfp);
void rdmachan_rx_pages_destroy(struct rdmachan *ch);
void rdmachan_deliver(struct rdmachan *ch);
bool rdmachan_readable(struct rdmachan *ch);
struct rdmachan_rx *rdmachan_rx_take(struct rdmachan *ch);
void rdmachan_rx_untake(struct rdmachan *ch, struct rdmachan_rx *rx);
int rdmachan_rx_wait_take(struct rdmachan *ch, bool nonblock,
			  struct rdmachan_rx **rxp);
void rdmachan_rx_done(struct ib_cq *cq, struct ib_wc *wc);

/* chan_ctrl.c */
void rdmachan_post_ctrl_locked(struct rdmachan *ch, unsigned int slot);
void rdmachan_ctrl_kick_locked(struct rdmachan *ch);
const char *rdmachan_ctrl_rx_locked(struct rdmachan *ch,
				    const struct rdmachan_wire_hdr *h);
const char *rdmachan_ctrl_repost_locked(struct rdmachan *ch,
					struct rdmachan_rx *rx, u8 type);
int rdmachan_ctrl_hold(struct rdmachan *ch, bool hold);
void rdmachan_ctrl_done(struct ib_cq *cq, struct ib_wc *wc);
void rdmachan_start_io(struct rdmachan *ch);
int rdmachan_flush_sends(struct rdmachan *ch, unsigned long timeout);
int rdmachan_say_close(struct rdmachan *ch, unsigned long timeout);
void rdmachan_keepalive_work(struct work_struct *work);

/* chan_poll.c */
int rdmachan_wait(struct rdmachan *ch, bool (*cond)(struct rdmachan *));
int rdmachan_wait_until(struct rdmachan *ch, bool (*cond)(struct rdmachan *),
			unsigned long end);
int rdmachan_wait_round(struct rdmachan *ch,
			bool (*cond)(struct rdmachan *));
bool rdmachan_poll_arm(struct rdmachan *ch);
void rdmachan_direct_comp(struct ib_cq *cq, void *ctx);
int rdmachan_rcq_create(struct rdmachan *ch, struct ib_device *ibdev,
			u32 cqe, int vector);
void rdmachan_rcq_destroy(struct rdmachan *ch);
void rdmachan_rx_hand_over(struct rdmachan *ch);
void rdmachan_rx_take_arrived(struct rdmachan *ch, bool may_sleep);

/* chan_rdma.c */
struct rdmachan_rdma_req;
struct rdmachan_rdma_req *rdmachan_rdma_req_alloc(struct rdmachan *ch,
						  u32 nr);
int rdmachan_rdma_post_wait(struct rdmachan_rdma_req *req, bool killable);
struct ib_send_wr *rdmachan_rdma_req_wr(struct rdmachan_rdma_req *req,
					u32 i);
int rdmachan_rdma_req_status(struct rdmachan_rdma_req *req, u32 i);
void rdmachan_rdma_req_put(struct rdmachan_rdma_req *req);
int rdmachan_wc_errno(enum ib_wc_status status);
void rdmachan_rdma_end_orphans(struct rdmachan *ch);
void rdmachan_rdma_check_stuck(struct rdmachan *ch);
bool rdmachan_rdma_room(struct rdmachan *ch, u32 nr, u32 credits);

/* chan_cm.c */
int rdmachan_cm_handler(struct rdma_cm_id *id, struct rdma_cm_event *ev);
int rdmachan_connect_net(struct net *net, bool account,
			 const struct sockaddr *dst,
			 const struct sockaddr *src,
			 const struct rdmachan_opts *opts,
			 const struct rdmachan_ops *ops, void *priv,
			 struct rdmachan **chp);

#endif /* RDMACHAN_PRI_H */
