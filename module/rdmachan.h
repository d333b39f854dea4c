/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * rdmachan: in-kernel API of the RDMA message channel
 *
 * A channel is a reliable, ordered, flow-controlled message pipe between
 * two hosts over an RC queue pair, set up with rdma_cm.  One message sent
 * is one message received, in order, exactly once, or the channel fails
 * and both ends are told.  The sender never posts more messages than the
 * receiver has buffers for: each side grants the other "queue depth"
 * credits and returns them as it consumes messages, so a receiver that
 * holds on to messages slows the sender down instead of losing data.
 *
 * Messages are received either pushed, through &rdmachan_ops.recv, or
 * pulled with rdmachan_recv().  Either way the receiver owns the message
 * buffer until it calls rdmachan_msg_release(); holding messages holds
 * credits.
 */
#ifndef RDMACHAN_H
#define RDMACHAN_H

#include <linux/bits.h>
#include <linux/list.h>
#include <linux/stringify.h>
#include <linux/socket.h>
#include <linux/types.h>
#include <linux/uio.h>

#include <linux/rdmachan.h>	/* RDMACHAN_ACCESS_*, RDMACHAN_OP*_ */
#include <linux/rdmachan_verbs.h>	/* RDMACHAN_DGRAM_* */

struct device;

struct rdmachan;
struct rdmachan_mr;
struct ib_cq;
struct rdmachan_listener;
struct scatterlist;
struct page;
struct file;
struct module;

/**
 * enum rdmachan_poll_mode - where completions of a channel are processed
 * @RDMACHAN_POLL_SOFTIRQ: in softirq context (lowest latency, default)
 * @RDMACHAN_POLL_WORKQUEUE: in a workqueue (process context)
 * @RDMACHAN_POLL_DIRECT: when the user polls: rdmachan_poll() or a
 *	blocking call on the channel busy-polls the completion queue (and
 *	the keepalive work polls once per period, one poller at a time)
 * @RDMACHAN_POLL_SOLICITED: event-driven, waking for solicited messages
 *	only: the receive completion queue is armed with IB_CQ_SOLICITED,
 *	so received messages are handed to the user (queued for
 *	rdmachan_recv(), pushed to &rdmachan_ops.recv, waking waiters)
 *	when a solicited message arrives (RDMACHAN_SEND_SOLICITED, or an
 *	RDMA WRITE_WITH_IMM with RDMACHAN_OPF_SOLICITED), together with
 *	every message before it; rdmachan_recv() also takes what has
 *	arrived before it waits.  Sends complete in softirq context.
 *	Needs a device that raises solicited events for receives (not
 *	siw: -EOPNOTSUPP).
 * @RDMACHAN_POLL_UNBOUND: in an unbound workqueue (process context, on
 *	whichever CPU the scheduler picks, not the one that took the
 *	completion): for a user whose per-message work (a copy, a stack
 *	above) is better spread over the CPUs than run where the device's
 *	own work runs, as rdmachan_net's receive copy.  Costs a wakeup per
 *	batch of completions.
 */
enum rdmachan_poll_mode {
	RDMACHAN_POLL_SOFTIRQ	= 0,
	RDMACHAN_POLL_WORKQUEUE	= 1,
	RDMACHAN_POLL_DIRECT	= 2,
	RDMACHAN_POLL_SOLICITED	= 3,
	RDMACHAN_POLL_UNBOUND	= 4,
};

/**
 * enum rdmachan_state - life cycle of a channel
 * @RDMACHAN_CONNECTING: resolving, connecting or waiting to be accepted
 * @RDMACHAN_CONNECTED: messages flow
 * @RDMACHAN_DISCONNECTED: either side closed in order; messages already
 *	received can still be read
 * @RDMACHAN_FAILED: the connection failed; rdmachan_error() says why
 *	(-ECONNRESET peer lost, -ENODEV device removed, ...)
 */
enum rdmachan_state {
	RDMACHAN_CONNECTING	= 0,
	RDMACHAN_CONNECTED	= 1,
	RDMACHAN_DISCONNECTED	= 2,
	RDMACHAN_FAILED		= 3,
};

/**
 * struct rdmachan_opts - what a channel asks for
 * @queue_depth: credits (receive buffers) per direction, at most; 0 for
 *	the queue_depth module parameter.  Negotiated down to the peer's and
 *	the device's limits, and to what fits the chan_mem_kb module
 *	parameter (the channel's message buffers).  The receiver grants one
 *	at the start and more as they are used, up to this depth, except
 *	with @rx_pages and in the poll modes DIRECT and SOLICITED, where it
 *	grants the depth from the start (Documentation/protocol.rst).
 * @max_msg_size: largest message in bytes; 0 for the max_msg_size module
 *	parameter.  Negotiated down to the peer's.
 * @timeout_ms: bound on address/route resolution and connection; 0 for
 *	the connect_timeout_ms module parameter
 * @poll_mode: enum rdmachan_poll_mode
 * @backlog: listeners only: connections established but not yet
 *	accepted, beyond which requests are rejected; 0 for 128.  The
 *	memory those connections hold is bounded too: see the
 *	listen_budget_kb and listen_max_connecting module parameters.
 * @max_send_regs: registrations of a pool (rdmachan_mr_pool_map()) that
 *	one send may carry (&rdmachan_send_ext.regs); 0 for none.  The send
 *	queue grows by two entries per registration and credit (its fast
 *	registration and its local invalidation), and the channel's pools
 *	hold at most queue_depth * @max_send_regs registrations in all.
 *	At most RDMACHAN_MAX_SEND_REGS.
 * @rx_pages: receive buffers are compound pages of their own, which
 *	rdmachan_msg_detach() can hand over to the user instead of a copy
 *	(as a network driver builds skbs on them), taken from a page pool
 *	of the channel where the kernel has one, so that pages given back
 *	are reused rather than allocated (and zeroed) again.  A buffer
 *	holds max_msg_size + RDMACHAN_RX_OVERHEAD bytes, rounded up to a
 *	power of two pages: a max_msg_size of 2^n - RDMACHAN_RX_OVERHEAD
 *	wastes nothing.
 * @zc_send: the user sends with rdmachan_send_sg_zc(): the channel keeps
 *	a gather list for each credit (queue_depth * RDMACHAN_MAX_SGE
 *	entries of 16 bytes).  Without it rdmachan_send_sg_zc_max() is 0.
 * @rx_frags: the user reads each message with rdmachan_msg_copy_to_iter():
 *	where the depth holds the largest message's fragments, receive
 *	buffers are of 4 KiB of payload whatever max_msg_size, and a larger
 *	message spans several of them (wire feature FRAG; the peer sends
 *	fragments whether or not its own user reads this way):
 *	&rdmachan_msg.data then holds its first &rdmachan_msg.frag_len bytes
 *	only.  /dev/rdmachan's channels do.
 * @min_grant: where the grant follows use (RDMACHAN_WIRE_F_GROW), the
 *	credits this side grants the peer at the start and never shrinks
 *	below (receive buffers kept posted for it, at most the depth), and
 *	the credits it keeps of the peer's grant when idle; 0 for one.  A
 *	request/reply user whose replies carry no header (RDMA
 *	WRITE_WITH_IMM) returns its credits in explicit messages, one per
 *	min_grant / 2 requests at low depths: a block queue keeps 16.
 * @post_defer: a send's work in a software provider (rxe, siw: a
 *	tasklet) waits for whatever runs bottom halves next (an interrupt's
 *	exit, ksoftirqd), as after another kernel user's post, instead of
 *	running before the send returns.  The sends made meanwhile go out in
 *	one run, and a user sharing its CPU with the peer's work (both ends
 *	on one host) fills its queue before the peer runs; a lone message
 *	waits for a scheduler round trip.  A block client's queue sets it.
 *	No effect with a hardware provider.
 * @imm_credit: the immediates of the user's RDMA WRITE_WITH_IMMs fit 31
 *	bits (rdmachan_rdma_start() refuses one with bit 31 set).  Where the
 *	peer's user says so too, the channel returns a credit in that bit
 *	of each (wire feature IMM_CREDIT) and strips it from those received:
 *	a request/reply user whose answers are WRITE_WITH_IMMs (a block
 *	server's READs) then returns each request's credit with its answer
 *	instead of in explicit CREDIT messages.  Both ends of a block
 *	queue set it.
 */
struct rdmachan_opts {
	u32 queue_depth;
	u32 max_msg_size;
	u32 timeout_ms;
	u32 poll_mode;
	u32 backlog;
	u32 max_send_regs;
	bool rx_pages;
	bool zc_send;
	bool rx_frags;
	u32 min_grant;
	bool post_defer;
	bool imm_credit;
};

/*
 * Bytes a receive buffer holds beyond &rdmachan_opts.max_msg_size: the
 * message header and an immediate carried in band
 */
#define RDMACHAN_RX_OVERHEAD	12

/* Largest &rdmachan_opts.max_send_regs */
#define RDMACHAN_MAX_SEND_REGS	4

/**
 * struct rdmachan_msg - a received message, owned by the receiver until
 *	rdmachan_msg_release()
 * @data: the payload, or with &rdmachan_opts.rx_frags its first
 *	@frag_len bytes
 * @len: payload bytes (may be 0)
 * @frag_len: the bytes at @data: @len but for a message that spans
 *	buffers (&rdmachan_opts.rx_frags), read whole with
 *	rdmachan_msg_copy_to_iter()
 * @imm: the immediate value, when @has_imm
 * @has_imm: the sender gave the message a 32-bit immediate (@imm)
 * @rdma_imm: not a message: the peer's RDMA WRITE_WITH_IMM completed
 *	(@len 0, @imm its immediate); what it wrote is in place
 * @invalidated: the peer sent the message with RDMACHAN_SEND_INV: the
 *	local registration whose rkey is @inv_rkey is no longer reachable
 *	(remote invalidation).  The receiver checks that @inv_rkey is the
 *	one it expected before it relies on it (rdmachan_mr_pool_put()).
 * @inv_rkey: the rkey invalidated, when @invalidated
 */
struct rdmachan_msg {
	const void *data;
	u32 len;
	u32 frag_len;
	u32 imm;
	bool has_imm;
	bool rdma_imm;
	bool invalidated;
	u32 inv_rkey;
};

/**
 * struct rdmachan_ops - callbacks of a channel's user
 * @recv: a message arrived.  Called in the completion context of the
 *	channel (softirq for RDMACHAN_POLL_SOFTIRQ, a workqueue for
 *	RDMACHAN_POLL_WORKQUEUE and RDMACHAN_POLL_UNBOUND, the polling
 *	thread for RDMACHAN_POLL_DIRECT; for RDMACHAN_POLL_SOLICITED the work run by a
 *	solicited event, or the teardown; for messages that arrived
 *	before rdmachan_accept(), the accepting thread): must not sleep or
 *	call rdmachan_close().
 *	The callee owns @msg until it calls rdmachan_msg_release(), from
 *	any context, or a successful rdmachan_msg_detach(), before
 *	rdmachan_close().  NULL: messages queue until rdmachan_recv()
 *	pulls them.
 * @state_change: the channel became DISCONNECTED or FAILED (@err is
 *	rdmachan_error()).  Called from process context; must not call
 *	rdmachan_close().
 * @writable: a call refused with -EAGAIN for want of credits, send
 *	queue room or a send buffer (rdmachan_send*() with
 *	RDMACHAN_SEND_NONBLOCK, rdmachan_rdma_start()) may succeed now: what
 *	it lacked came back.  Called once after each refusal (several
 *	refusals before the room returns: one call), in the channel's
 *	completion context (before the recv of the message that brought the
 *	credits), or from a work item (process context) when a send buffer
 *	was allocated; must not sleep or call rdmachan_close().  Also
 *	called when the channel fails (any context, the rdma_cm handler
 *	among them) and in its teardown (process context, possibly inside
 *	the user's rdmachan_close()), so that a user waiting for room
 *	learns that it will not come.  A block driver restarts its stopped
 *	queues here.  An empty pool (rdmachan_mr_pool_map()) and -ENOMEM of
 *	rdmachan_rdma_start() get no call.
 *
 * All are optional.
 */
struct rdmachan_ops {
	void (*recv)(struct rdmachan *ch, struct rdmachan_msg *msg);
	void (*state_change)(struct rdmachan *ch, enum rdmachan_state state,
			     int err);
	void (*writable)(struct rdmachan *ch);
};

/* Flags of rdmachan_send() */
#define RDMACHAN_SEND_IMM	BIT(0)	/* send with immediate data */
#define RDMACHAN_SEND_NONBLOCK	BIT(1)	/* -EAGAIN instead of waiting */
/* raise a solicited event at the receiver (IB_SEND_SOLICITED) */
#define RDMACHAN_SEND_SOLICITED	BIT(2)
/*
 * rdmachan_send_ext(): invalidate the peer's registration
 * &rdmachan_send_ext.inv_rkey as the message arrives (SEND_WITH_INV);
 * only where rdmachan_can_send_inv()
 */
#define RDMACHAN_SEND_INV	BIT(3)

/**
 * struct rdmachan_send_ext - what rdmachan_send_ext() adds to a message
 * @regs: registrations from rdmachan_mr_pool_map() that become valid just
 *	before the message is sent (their fast registrations are posted
 *	in front of it, so the peer can use them as soon as it has the
 *	message); NULL when @nr_regs is 0
 * @nr_regs: entries of @regs, at most the channel's
 *	&rdmachan_opts.max_send_regs
 * @inv_rkey: with RDMACHAN_SEND_INV: the peer's rkey to invalidate
 */
struct rdmachan_send_ext {
	struct rdmachan_mr * const *regs;
	u32 nr_regs;
	u32 inv_rkey;
};

/* Flags of rdmachan_recv() */
#define RDMACHAN_RECV_NONBLOCK	BIT(0)	/* -EAGAIN instead of waiting */

int rdmachan_connect(const struct sockaddr *dst, const struct sockaddr *src,
		     const struct rdmachan_opts *opts,
		     const struct rdmachan_ops *ops, void *priv,
		     struct rdmachan **chp);
void rdmachan_close(struct rdmachan *ch);
void rdmachan_shutdown(struct rdmachan *ch);

int rdmachan_send(struct rdmachan *ch, const struct kvec *vec,
		  unsigned int nr_vec, u32 imm, unsigned int flags);
int rdmachan_send_msgs(struct rdmachan *ch, const struct kvec *msgs,
		       unsigned int count, u32 imm, unsigned int flags);
int rdmachan_send_sg(struct rdmachan *ch, struct scatterlist *sgl,
		     unsigned int nents, u32 imm, unsigned int flags);
int rdmachan_send_sg_zc(struct rdmachan *ch, struct scatterlist *sgl,
			unsigned int nents, u32 imm, unsigned int flags,
			void (*done)(void *ctx, int err), void *ctx);
unsigned int rdmachan_send_sg_zc_max(struct rdmachan *ch);
int rdmachan_send_ext(struct rdmachan *ch, const struct kvec *vec,
		      unsigned int nr_vec, u32 imm, unsigned int flags,
		      const struct rdmachan_send_ext *ext);
bool rdmachan_can_send_inv(struct rdmachan *ch);
bool rdmachan_can_write_imm(struct rdmachan *ch);
bool rdmachan_credits_due(struct rdmachan *ch);
int rdmachan_recv(struct rdmachan *ch, struct rdmachan_msg **msgp,
		  unsigned int flags);
int rdmachan_recv_timeout(struct rdmachan *ch, struct rdmachan_msg **msgp,
			  unsigned int timeout_ms);
void rdmachan_msg_release(struct rdmachan *ch, struct rdmachan_msg *msg);
size_t rdmachan_msg_copy_to_iter(const struct rdmachan_msg *msg,
				 struct iov_iter *to);
struct page *rdmachan_msg_detach(struct rdmachan *ch, struct rdmachan_msg *msg,
				 unsigned int *offset, unsigned int *truesize);
void rdmachan_rx_page_put(struct page *page);
unsigned int rdmachan_rx_truesize(struct rdmachan *ch);
int rdmachan_poll(struct rdmachan *ch, int budget);
void rdmachan_poll_relax(void);

enum rdmachan_state rdmachan_get_state(struct rdmachan *ch);
enum rdmachan_poll_mode rdmachan_get_poll_mode(struct rdmachan *ch);
int rdmachan_error(struct rdmachan *ch);
void *rdmachan_priv(struct rdmachan *ch);
u32 rdmachan_max_msg_size(struct rdmachan *ch);
u32 rdmachan_queue_depth(struct rdmachan *ch);
u32 rdmachan_chan_id(struct rdmachan *ch);
u32 rdmachan_qpn(struct rdmachan *ch);
int rdmachan_peer_addr(struct rdmachan *ch, struct sockaddr_storage *addr);
int rdmachan_local_addr(struct rdmachan *ch, struct sockaddr_storage *addr);
u32 rdmachan_max_reg_pages(struct rdmachan *ch);

/* For a user's own verbs: frees a CQ of ib_alloc_cq() safely */
void rdmachan_free_cq(struct ib_cq *cq);

/**
 * struct rdmachan_listener_ops - callbacks of a listener's user
 * @pending: a connection is ready for rdmachan_accept().  Process
 *	context, from rdma_cm's event handler (its handler mutex held):
 *	must not call rdmachan_listener_close(), nor wait for anything that
 *	closes a channel (rdmachan_close() takes rdma_cm's mutexes): accept
 *	here, or queue a work item that does.  rdmachan_listener_close()
 *	waits for a call under way, so it must not hold anything this
 *	callback waits for.
 * @admit: who may connect, decided before anything is set up for a
 *	connection request: return 0 to go on, an error to refuse it (the
 *	peer's connect fails with -EACCES, reason RDMACHAN_REJ_REFUSED, and
 *	the listener counts it in rejected_refused).  @peer is the
 *	requester's address.  A refused peer never gets a channel, so none
 *	of its messages reaches the user.  Process context, from rdma_cm's
 *	event handler: must not sleep for long; takes no lock that is held
 *	across rdmachan_accept() or rdmachan_close().
 * @failed: the listener stopped by itself and accepts nothing more; @err
 *	is why (-ENODEV: the RDMA device of its address went away).  Called
 *	once, in process context (the device removal), never after
 *	rdmachan_listener_close() returned; connections not yet accepted are
 *	closed before.  rdmachan_accept() then fails with @err.  May call
 *	rdmachan_listener_close(); must not call rdmachan_listen() (the RDMA
 *	core is removing a device: defer that to a work item).
 *
 * Each is optional.
 */
struct rdmachan_listener_ops {
	void (*pending)(struct rdmachan_listener *l);
	int (*admit)(struct rdmachan_listener *l, const struct sockaddr *peer);
	void (*failed)(struct rdmachan_listener *l, int err);
};

int rdmachan_listen(const struct sockaddr *addr,
		    const struct rdmachan_opts *opts,
		    void (*pending)(struct rdmachan_listener *l),
		    void *priv, struct rdmachan_listener **lp);
int rdmachan_listen_ops(const struct sockaddr *addr,
			const struct rdmachan_opts *opts,
			const struct rdmachan_listener_ops *ops, void *priv,
			struct rdmachan_listener **lp);
int rdmachan_accept(struct rdmachan_listener *l,
		    const struct rdmachan_ops *ops, void *priv,
		    unsigned int flags, struct rdmachan **chp);
void rdmachan_listener_close(struct rdmachan_listener *l);
void *rdmachan_listener_priv(struct rdmachan_listener *l);

/**
 * struct rdmachan_seg - a local segment of a one-sided operation
 * @mr: the registration it lies in, of the same channel
 * @offset: from the registration's first byte
 * @length: bytes
 */
struct rdmachan_seg {
	struct rdmachan_mr *mr;
	u64 offset;
	u32 length;
};

/**
 * struct rdmachan_op - a one-sided operation for rdmachan_rdma()
 * @opcode: enum rdmachan_rdma_opcode (RDMACHAN_OP_WRITE, ...)
 * @flags: RDMACHAN_OPF_* (signaled, solicited, inline, fence)
 * @segs: local segments: WRITE gathers from them; READ scatters into
 *	them (local write rights, and remote write on iWARP); an atomic
 *	takes one 8-byte segment for the old value (local write)
 * @nr_segs: up to RDMACHAN_MAX_SGE and the device's limit; 0 only for
 *	a zero-length WRITE
 * @imm: WRITE_IMM: the immediate the peer receives (31 bits on a channel
 *	whose user set &rdmachan_opts.imm_credit)
 * @remote_addr: the peer's address (its struct rdmachan_remote_mr.addr
 *	plus an offset); 8-byte aligned for atomics
 * @rkey: the peer's remote key
 * @compare_add: FETCH_ADD: the addend; CMP_SWAP: the value compared
 * @swap: CMP_SWAP: the value stored when equal
 * @result: out: atomics: the old value
 * @status: out: 0 or the operation's negative errno
 * @wc_status: out: its verbs completion status (enum ib_wc_status)
 */
struct rdmachan_op {
	u32 opcode;
	u32 flags;
	const struct rdmachan_seg *segs;
	u32 nr_segs;
	u32 imm;
	u64 remote_addr;
	u32 rkey;
	u64 compare_add;
	u64 swap;
	u64 result;
	int status;
	u32 wc_status;
};

int rdmachan_mr_reg_kbuf(struct rdmachan *ch, void *buf, size_t len,
			 u32 access, struct rdmachan_mr **mrp);
int rdmachan_mr_reg_sg(struct rdmachan *ch, struct scatterlist *sgl,
		       unsigned int nents, u32 access,
		       struct rdmachan_mr **mrp);
void rdmachan_mr_remote(const struct rdmachan_mr *mr,
			struct rdmachan_remote_mr *desc);
void rdmachan_mr_dereg(struct rdmachan_mr *mr);
int rdmachan_rdma(struct rdmachan *ch, struct rdmachan_op *ops,
		  unsigned int count);

/**
 * typedef rdmachan_rdma_end_t - the end of a rdmachan_rdma_submit() call
 * @ops: the call's operations, their outcome filled in
 * @count: their number
 * @err: the first operation's error, or 0 when all succeeded
 * @ctx: the submitter's pointer
 */
typedef void (*rdmachan_rdma_end_t)(struct rdmachan_op *ops,
				    unsigned int count, int err, void *ctx);
int rdmachan_rdma_submit(struct rdmachan *ch, struct rdmachan_op *ops,
			 unsigned int count, rdmachan_rdma_end_t end,
			 void *ctx);
int rdmachan_rdma_start(struct rdmachan *ch, struct rdmachan_op *ops,
			unsigned int count, rdmachan_rdma_end_t end, void *ctx);

/*
 * Pools of fast registrations for one I/O at a time (the nvme-rdma
 * model): allocated once per channel, mapped onto an I/O's pages without
 * sleeping, made valid by the send that carries them
 * (rdmachan_send_ext()), invalidated when the I/O ends - by the peer's
 * SEND_WITH_INV or a local invalidation - and reused.
 */
struct rdmachan_mr_pool;

/**
 * typedef rdmachan_mr_done_t - a pool registration's invalidation ended
 * @ctx: the pointer given to rdmachan_mr_pool_put()
 * @err: 0, or the invalidation's errno (the channel failed: its QP is
 *	gone, so the registration cannot be reached either)
 */
typedef void (*rdmachan_mr_done_t)(void *ctx, int err);

int rdmachan_mr_pool_create(struct rdmachan *ch, u32 count, u32 max_pages,
			    struct rdmachan_mr_pool **poolp);
void rdmachan_mr_pool_destroy(struct rdmachan_mr_pool *pool);
int rdmachan_mr_pool_map(struct rdmachan_mr_pool *pool,
			 struct scatterlist *sgl, unsigned int nents,
			 u32 access, struct rdmachan_mr **mrp);
int rdmachan_mr_pool_put(struct rdmachan_mr *mr, bool invalidated,
			 rdmachan_mr_done_t done, void *ctx);

/**
 * struct rdmachan_ctl_ext - ioctls of /dev/rdmachan served by another
 *	module (rdmachan_blk, rdmachan_net)
 * @owner: THIS_MODULE; held for the duration of each call
 * @nr_first: first _IOC_NR() of RDMACHAN_IOC_MAGIC it serves
 * @nr_last: last one
 * @ioctl: serves @cmd; process context, may sleep
 * @node: private to rdmachan
 */
struct rdmachan_ctl_ext {
	struct module *owner;
	unsigned int nr_first;
	unsigned int nr_last;
	long (*ioctl)(struct file *file, unsigned int cmd, void __user *arg);
	struct list_head node;
};

/* _IOC_NR()s from this one up are served by other modules */
#define RDMACHAN_CTL_NR_EXT		0x80

/*
 * The module alias an ioctl of a range nobody serves asks modprobe for:
 * "rdmachan-ioc-0x80" for 0x80..0x8f, and so on by sixteens.
 */
#define RDMACHAN_CTL_ALIAS_FMT		"rdmachan-ioc-0x%02x"
#define RDMACHAN_CTL_ALIAS_BASE(nr)	((nr) & ~0xfU)

/**
 * RDMACHAN_CTL_ALIAS() - load this module on its ioctls
 * @nr_first: the first _IOC_NR() of its rdmachan_ctl_ext range, a
 *	multiple of 16 spelled as RDMACHAN_CTL_ALIAS_FMT prints it (0x80;
 *	a macro that expands to it does)
 *
 * Declares the alias that rdmachan's /dev/rdmachan asks modprobe for when
 * an ioctl of the range arrives and no module serves it yet.
 */
#define RDMACHAN_CTL_ALIAS(nr_first) \
	MODULE_ALIAS("rdmachan-ioc-" __stringify(nr_first))

int rdmachan_ctl_register(struct rdmachan_ctl_ext *ext);
void rdmachan_ctl_unregister(struct rdmachan_ctl_ext *ext);

/* Flags of rdmachan_accept() */
#define RDMACHAN_ACCEPT_NONBLOCK	BIT(0)

/*
 * Reconnecting: the loop a user of channels runs when its link is lost
 * (the block channel's mappings, the network channel's devices), with
 * nvme-rdma's policy (reconnect_delay, ctrl_loss_tmo,
 * fast_io_fail_tmo).  rdmachan makes the attempts, waits between them
 * and keeps the count, the last error and the deadline; the user says
 * what an attempt is (connect its channels again, check the peer) and
 * hears of each change of state.
 */

/* Bounds of a reconnect policy's figures, in milliseconds */
#define RDMACHAN_RC_MIN_DELAY_MS	100
#define RDMACHAN_RC_MAX_DELAY_MS	(3600 * 1000)
#define RDMACHAN_RC_MAX_LOSS_MS		(7 * 24 * 3600 * 1000U)

/**
 * struct rdmachan_reconnect_policy - when a lost link is tried again,
 *	and when given up
 * @delay_ms: wait before the first attempt, 100 ms to 1 h
 * @max_delay_ms: each wait doubles the one before, up to this (equal to
 *	@delay_ms: a constant wait), at most 1 h
 * @loss_timeout_ms: give up this long after the loss: the link is dead
 *	(0: never give up); at least @delay_ms, at most 7 days
 * @fast_fail_ms: this long after the loss, tell the user to fail what
 *	waits for the link while the attempts go on (0: never); below
 *	@loss_timeout_ms when that is set
 */
struct rdmachan_reconnect_policy {
	u32 delay_ms;
	u32 max_delay_ms;
	u32 loss_timeout_ms;
	u32 fast_fail_ms;
};

/**
 * enum rdmachan_link_state - the state of a reconnecting link
 * @RDMACHAN_LINK_LIVE: up (before any loss, or after an attempt worked)
 * @RDMACHAN_LINK_RECONNECTING: lost; attempts are made
 * @RDMACHAN_LINK_DEAD: given up at the loss timeout, or stopped
 */
enum rdmachan_link_state {
	RDMACHAN_LINK_LIVE		= 0,
	RDMACHAN_LINK_RECONNECTING	= 1,
	RDMACHAN_LINK_DEAD		= 2,
};

/**
 * struct rdmachan_reconnect_ops - what a reconnecting link does
 * @attempt: one attempt to bring the link back: process context, may
 *	sleep, bounded by the user's own timeouts (rdmachan_connect()'s
 *	@opts->timeout_ms); returns 0 when the link is back, else the
 *	errno of the failure (kept as the last error).  Never runs twice at
 *	once for one link.
 * @state_change: the state changed to @state: LIVE after an attempt
 *	worked (@err 0), DEAD at the loss timeout (@err the last error);
 *	process context, from the loop's work item (rdmachan_reconnect_stop()
 *	changes the state without calling it)
 * @fast_fail: @fast_fail_ms passed since the loss and the link is not
 *	back: fail what waits for it; once per loss, process context (may
 *	be NULL)
 */
struct rdmachan_reconnect_ops {
	int (*attempt)(void *priv);
	void (*state_change)(void *priv, enum rdmachan_link_state state,
			     int err);
	void (*fast_fail)(void *priv);
};

/**
 * struct rdmachan_reconnect_info - where a reconnecting link stands
 * @state: its state
 * @attempt: attempts made since the loss (the one running included)
 * @max_attempts: attempts the policy allows before the loss timeout (an
 *	upper bound: attempts take time too); 0 without a loss timeout
 * @last_error: the errno of the loss or of the last failed attempt, 0
 *	when live
 * @losses: losses since the link was made
 * @next_ms: milliseconds until the next attempt (0: one is running or
 *	none is due), while reconnecting
 * @deadline_ms: milliseconds until the loss timeout (0: none, or past),
 *	while reconnecting
 * @down_ms: milliseconds since the loss, while reconnecting or dead
 * @fast_failed: the fast-fail time passed during this loss
 */
struct rdmachan_reconnect_info {
	enum rdmachan_link_state state;
	u32 attempt;
	u32 max_attempts;
	int last_error;
	u32 losses;
	u64 next_ms;
	u64 deadline_ms;
	u64 down_ms;
	bool fast_failed;
};

struct rdmachan_reconnect;

struct rdmachan_reconnect *
rdmachan_reconnect_create(const char *name,
			  const struct rdmachan_reconnect_policy *policy,
			  const struct rdmachan_reconnect_ops *ops, void *priv);
void rdmachan_reconnect_destroy(struct rdmachan_reconnect *rc);
bool rdmachan_reconnect_lost(struct rdmachan_reconnect *rc, int err);
void rdmachan_reconnect_kick(struct rdmachan_reconnect *rc);
void rdmachan_reconnect_stop(struct rdmachan_reconnect *rc);
void rdmachan_reconnect_restart(struct rdmachan_reconnect *rc);
int rdmachan_reconnect_set_policy(struct rdmachan_reconnect *rc,
				  const struct rdmachan_reconnect_policy *policy);
void rdmachan_reconnect_get_info(struct rdmachan_reconnect *rc,
				 struct rdmachan_reconnect_info *info);
void rdmachan_reconnect_set_uevent(struct rdmachan_reconnect *rc,
				   struct device *dev);

/*
 * Events (uevent.c): a user's own changes as KOBJ_CHANGE uevents of
 * its sysfs directory, in one order with rdmachan's own (channels,
 * listeners, devices, links), for "rdmachan monitor" and udev.
 */
__printf(2, 3) void rdmachan_uevent(struct device *dev, const char *fmt, ...);
void rdmachan_uevent_flush(void);

/*
 * Latency histograms (hist.c): per-CPU log2 buckets of microseconds, for
 * a user's sysfs (Documentation/debugging.rst, "Latency histograms").
 */
struct rdmachan_hist;

/*
 * Bucket 0 holds what took less than 1 us, bucket k (1 <= k < 23) what
 * took [2^(k-1), 2^k) us, the last what took 2^22 us (4.2 s) or more.
 */
#define RDMACHAN_HIST_BUCKETS	24

bool rdmachan_hist_enabled(void);
struct rdmachan_hist *rdmachan_hist_alloc(gfp_t gfp);
void rdmachan_hist_free(struct rdmachan_hist *h);
size_t rdmachan_hist_bytes(void);
void rdmachan_hist_add(struct rdmachan_hist *h, u64 ns);
void rdmachan_hist_read(struct rdmachan_hist *h, u64 *counts);
ssize_t rdmachan_hist_show(struct rdmachan_hist *h, char *buf);
void rdmachan_hist_reset(struct rdmachan_hist *h);

/*
 * Datagram endpoints (dgram.c): unreliable datagrams (UD) over rdma_cm's
 * UDP port space, as rdma-core's udaddy sends them.  An endpoint is one UD
 * queue pair on the device of its local address; it sends a datagram of
 * up to rdmachan_dgram_max_size() bytes to any peer (address, queue pair
 * number, qkey) and receives the datagrams that find a receive buffer,
 * with their source.  Nothing is acknowledged or resent: a datagram that
 * finds no buffer is dropped.  rdmachan_dgram_resolve() asks a peer's
 * port for its queue pair (SIDR); an endpoint opened with
 * RDMACHAN_DGRAM_SERVE answers those requests for its own port.  One
 * opened with RDMACHAN_DGRAM_BUSY_POLL has its completions processed by
 * the calls that wait for them, not in softirq.
 */
struct rdmachan_dgram;

/**
 * struct rdmachan_dgram_rx - a received datagram
 * @from: its source host (AF_INET or AF_INET6, port 0)
 * @qpn: its source queue pair
 * @len: its length
 * @has_imm: it carried immediate data
 * @imm: that, as on the wire
 * @data: its bytes; the receiver's until rdmachan_dgram_rx_release()
 */
struct rdmachan_dgram_rx {
	struct sockaddr_storage	from;
	u32			qpn;
	u32			len;
	bool			has_imm;
	__be32			imm;
	void			*data;
};

int rdmachan_dgram_open(const struct sockaddr *addr, u32 depth, u32 flags,
			struct rdmachan_dgram **dp);
void rdmachan_dgram_close(struct rdmachan_dgram *d);
int rdmachan_dgram_resolve(struct rdmachan_dgram *d,
			   const struct sockaddr *svc,
			   unsigned int timeout_ms, u32 *qpn, u32 *qkey);
int rdmachan_dgram_send(struct rdmachan_dgram *d, const struct sockaddr *to,
			u32 qpn, u32 qkey, struct iov_iter *from,
			const __be32 *imm, bool nonblock);
int rdmachan_dgram_recv(struct rdmachan_dgram *d,
			struct rdmachan_dgram_rx **rxp, long timeout);
void rdmachan_dgram_rx_release(struct rdmachan_dgram *d,
			       struct rdmachan_dgram_rx *rx);
u32 rdmachan_dgram_qpn(struct rdmachan_dgram *d);
u32 rdmachan_dgram_max_size(struct rdmachan_dgram *d);
int rdmachan_dgram_local_addr(struct rdmachan_dgram *d,
			      struct sockaddr_storage *addr);
int rdmachan_dgram_join(struct rdmachan_dgram *d, const struct sockaddr *group,
			bool send_only, unsigned int timeout_ms, u32 *qkey);
int rdmachan_dgram_leave(struct rdmachan_dgram *d,
			 const struct sockaddr *group);

/**
 * struct rdmachan_uint_param - an unsigned module parameter with bounds
 * @val: current value, read with rdmachan_param_val() (sysfs may change
 *	it)
 * @min: smallest accepted value
 * @max: largest accepted value
 * @base: number base for parsing and printing (8 or 10)
 *
 * With &rdmachan_uint_param_ops (module_param_cb()), a value out of
 * bounds given at load fails the load, and one written to
 * /sys/module/MODULE/parameters/ fails the write, both with -EINVAL and
 * a log line naming the module, the parameter and the bounds; the old
 * value stays.  rdmachan and the modules built on it bound every
 * numeric parameter so.
 */
struct rdmachan_uint_param {
	unsigned int val;
	unsigned int min;
	unsigned int max;
	unsigned int base;
};

extern const struct kernel_param_ops rdmachan_uint_param_ops;

/* The current value of @p */
static inline unsigned int
rdmachan_param_val(const struct rdmachan_uint_param *p)
{
	return READ_ONCE(p->val);
}

#endif /* RDMACHAN_H */
