/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The fixture of rdmachan_chan_kunit.ko's device-backed suites
 * (chan_fixture.c): every such suite's .init is or calls ct_init(), its
 * .exit is ct_exit(), and it sets up what its tests share with the
 * helpers here: a listener on 192.0.2.1 (rxe0), a channel connected from
 * 192.0.2.2 (rxe1) and the one it accepted (ct_pair()), callbacks that
 * record what they saw and in which context (struct ct_sink), the
 * payload patterns and their checks, and a watchdog for calls that block
 * by design.  Whatever a test set up is closed by ct_exit(), also after
 * a failed assertion.
 */
#ifndef RDMACHAN_CHAN_FIXTURE_H
#define RDMACHAN_CHAN_FIXTURE_H

#include <kunit/test.h>
#include <linux/atomic.h>
#include <linux/completion.h>
#include <linux/hrtimer.h>
#include <linux/in.h>
#include <linux/jiffies.h>
#include <linux/sched.h>
#include <linux/spinlock.h>
#include <linux/timer.h>
#include <linux/types.h>
#include <linux/wait.h>
#include <linux/workqueue.h>

#include "../../module/rdmachan.h"

#define CT_IP_SERVER	0xc0000201	/* 192.0.2.1, rxe0 */
#define CT_IP_CLIENT	0xc0000202	/* 192.0.2.2, rxe1 */

/*
 * One port per test, so that one test's leftovers cannot fail another:
 * a test that sets up its own pair names one here; a suite whose .init
 * sets up the pair takes the next of CT_PORT_FIXTURE's range for each
 * test (ct_fixture_port()).
 */
enum {
	CT_PORT_REFUSED = 18600,
	CT_PORT_CLOSED_LISTENER,
	CT_PORT_ACCEPT,
	CT_PORT_EXCHANGE_SOFTIRQ,
	CT_PORT_EXCHANGE_WORKQUEUE,
	CT_PORT_DIRECT,
	CT_PORT_PULL,
	CT_PORT_MSGSIZE,
	CT_PORT_CREDITS,
	CT_PORT_CLOSE_PULL,
	CT_PORT_CLOSE_PUSH,
	CT_PORT_FAULT_ENOMEM,
	CT_PORT_FAULT_NTH_LISTEN,
	CT_PORT_FAULT_NTH_CONNECT,
	CT_PORT_ABORT,
	CT_PORT_DEVREMOVE,
	CT_PORT_DEVREMOVE_CLOSED,
	CT_PORT_WRITABLE_SEND,
	CT_PORT_RDMA_START,
	CT_PORT_FAULT_SEND_BUF,
	CT_PORT_FRAG_SRV_SMALL,
	CT_PORT_FRAG_CLI_SMALL,
	CT_PORT_IMM_CREDIT_BOTH,
	CT_PORT_IMM_CREDIT_SRV,
	CT_PORT_IMM_CREDIT_CLI,
	CT_PORT_FIXTURE = 18700,	/* and up */
};

#define CT_TIMEOUT	(15 * HZ)	/* the debug kernel under TCG is slow */
#define CT_SHORT	(HZ / 4)	/* for calls that must block */
#define CT_MAX_MSGS	64
#define CT_MAX_HELD	16
#define CT_NR_BUFS	3
#define CT_BUF_LEN	(2 * PAGE_SIZE)

/* Channel slots of a test */
enum { CT_SRV, CT_CLI, CT_NR };

/**
 * struct ct_sink - what a channel's callbacks saw (its rdmachan_priv())
 * @lock: protects the rest
 * @wq: woken on every callback
 * @seen_ch: the channel of the last callback
 * @msgs: messages pushed to &rdmachan_ops.recv, held (not released) in
 *	order until the test released them
 * @nr: messages pushed
 * @nr_released: messages of @msgs the test released
 * @overflow: messages released at once for lack of room
 * @ctx_hardirq: recv callbacks in hard interrupt context
 * @ctx_softirq: recv callbacks serving a softirq
 * @ctx_bh: recv callbacks with bottom halves off (or serving a softirq)
 * @ctx_task: recv callbacks in task context
 * @ctx_irqs_off: recv callbacks with interrupts off
 * @ctx_poller: recv callbacks inside rdmachan_poll() of the test thread
 * @poller: the test thread, while it polls
 * @polling: the test thread is in rdmachan_poll()
 * @nr_state: state_change callbacks
 * @state: the last state reported
 * @err: the last error reported
 * @state_task: every state_change ran in task context, interrupts on
 * @state_preempt: preempt_count() in the last state_change
 * @nr_at_state: messages pushed before the last state_change
 * @state_done: completed by state_change
 * @nr_writable: writable callbacks
 * @writable_task: writable callbacks in task context, interrupts on
 * @start_ops: ct_recv_start() starts these with rdmachan_rdma_start()
 *	at the first message, from the recv callback
 * @start_count: their number
 * @start_called: it did
 * @start_ret: what rdmachan_rdma_start() returned
 * @start_bh: it ran with bottom halves off (softirq or bh-disabled)
 * @nr_end: rdmachan_rdma_start() end callbacks (any of the test's)
 * @end_err: the error of the last one
 * @nr_done: rdmachan_mr_pool_put() done callbacks
 * @done_err: the error of the last one
 */
struct ct_sink {
	spinlock_t lock;	/* everything below */
	wait_queue_head_t wq;
	struct rdmachan *seen_ch;
	struct rdmachan_msg *msgs[CT_MAX_MSGS];
	unsigned int nr;
	unsigned int nr_released;
	unsigned int overflow;
	unsigned int ctx_hardirq;
	unsigned int ctx_softirq;
	unsigned int ctx_bh;
	unsigned int ctx_task;
	unsigned int ctx_irqs_off;
	unsigned int ctx_poller;
	struct task_struct *poller;
	bool polling;
	unsigned int nr_state;
	enum rdmachan_state state;
	int err;
	bool state_task;
	unsigned int state_preempt;
	unsigned int nr_at_state;
	struct completion state_done;
	atomic_t nr_writable;
	atomic_t writable_task;
	struct rdmachan_op *start_ops;
	unsigned int start_count;
	bool start_called;
	int start_ret;
	bool start_bh;
	atomic_t nr_end;
	int end_err;
	atomic_t nr_done;
	int done_err;
};

/**
 * struct ct_lrec - what a listener's pending callback saw
 * @nr: calls
 * @not_task: calls outside task context
 * @wq: woken on every call
 */
struct ct_lrec {
	atomic_t nr;
	atomic_t not_task;
	wait_queue_head_t wq;
};

/**
 * struct ct_ctx - one test's objects, closed by ct_exit() in every case
 * @test: the test
 * @l: its listener, or NULL
 * @lrec: @l's rdmachan_listener_priv()
 * @ch: its channels (CT_SRV accepted, CT_CLI connected), or NULL
 * @sink: @ch's rdmachan_priv()
 * @held_ch: channel of the pulled messages in @held
 * @held: messages pulled and not yet released
 * @nr_held: entries of @held
 * @release_from: @release_work releases @held from this index on
 * @release_work: releases messages from another context, later
 * @send_work: sends one message from another context, later
 * @work_ch: @send_work's channel
 * @work_buf: its payload
 * @work_len: its length
 * @work_k: its number (for the payload pattern)
 * @work_ret: what rdmachan_send() returned
 * @wd_timer: the watchdog of blocking calls
 * @wd_task: the thread it signals
 * @wd_fired: it fired
 * @pool: a registration pool of @ch[CT_CLI], destroyed before it closes
 * @kmr: kernel registrations of @ch, deregistered before they close
 * @pool_src: ct_pool_io()'s source, registered as @kmr[CT_SRV]
 * @pool_src_len: its length
 * @buf: zeroed buffers of CT_BUF_LEN bytes, from the pool suites' .init
 * @hrt: a timer expiring in hard interrupt context, which starts @hrt_op
 *	on @hrt_ch with rdmachan_rdma_start()
 * @hrt_ch: the channel
 * @hrt_op: the operation
 * @hrt_ret: what rdmachan_rdma_start() returned
 * @hrt_hard: it ran in hard interrupt context
 * @hrt_fired: the timer's callback ran
 */
struct ct_ctx {
	struct kunit *test;
	struct rdmachan_listener *l;
	struct ct_lrec lrec;
	struct rdmachan *ch[CT_NR];
	struct ct_sink sink[CT_NR];
	struct rdmachan *held_ch;
	struct rdmachan_msg *held[CT_MAX_HELD];
	unsigned int nr_held;
	unsigned int release_from;
	struct delayed_work release_work;
	struct delayed_work send_work;
	struct rdmachan *work_ch;
	void *work_buf;
	u32 work_len;
	u32 work_k;
	int work_ret;
	struct timer_list wd_timer;
	struct task_struct *wd_task;
	bool wd_fired;
	struct rdmachan_mr_pool *pool;
	struct rdmachan_mr *kmr[CT_NR];
	void *pool_src;
	u32 pool_src_len;
	void *buf[CT_NR_BUFS];
	struct hrtimer hrt;
	struct rdmachan *hrt_ch;
	struct rdmachan_op *hrt_op;
	int hrt_ret;
	bool hrt_hard;
	atomic_t hrt_fired;
};

/**
 * struct ct_exp - a message a receiver must see
 * @k: its number in the sender's sequence (the payload pattern)
 * @len: payload bytes
 * @has_imm: sent with an immediate
 * @imm: the immediate
 */
struct ct_exp {
	u32 k;
	u32 len;
	bool has_imm;
	u32 imm;
};

#define CT_SCRIPT_LEN	10

extern const struct rdmachan_ops ct_store_ops;
extern const struct rdmachan_ops ct_start_ops;
extern const struct rdmachan_ops ct_push_ops;
extern const struct rdmachan_ops ct_pull_ops;

/* payloads */
void ct_expect_msg(struct kunit *test, const struct rdmachan_msg *m,
		   u32 dir, const struct ct_exp *e, unsigned int idx);
void *ct_payload(struct kunit *test, u32 len, u32 dir, u32 k);
void ct_send_script(struct kunit *test, struct rdmachan *ch, u32 dir,
		    u32 max, struct ct_exp *exp);

/* callbacks and what they saw */
void ct_pending(struct rdmachan_listener *l);
void ct_start_end(struct rdmachan_op *ops, unsigned int count, int err,
		  void *ctx);
void ct_pool_done(void *ctx, int err);
unsigned int ct_sink_nr(struct ct_sink *s);
bool ct_sink_wait(struct ct_sink *s, unsigned int n);
bool ct_wait_atomic(struct ct_sink *s, atomic_t *a, int n);
void ct_sink_check(struct kunit *test, struct ct_sink *s,
		   struct rdmachan *ch, u32 dir,
		   const struct ct_exp *exp, unsigned int n);

/* the watchdog of blocking calls */
void ct_wd_arm(struct ct_ctx *c, unsigned long timeout);
bool ct_wd_disarm(struct ct_ctx *c);
int ct_send_msgs_all(struct rdmachan *ch, const struct kvec *v, int n,
		     u32 imm, u32 flags);

/* setting up and tearing down */
int ct_init(struct kunit *test);
void ct_exit(struct kunit *test);
u16 ct_fixture_port(void);
void ct_addr(struct sockaddr_in *sin, u32 ip, u16 port);
int ct_listen(struct ct_ctx *c, u16 port, const struct rdmachan_opts *opts);
int ct_connect(struct ct_ctx *c, u16 port, const struct rdmachan_opts *opts,
	       const struct rdmachan_ops *ops, unsigned int slot);
int ct_accept(struct ct_ctx *c, const struct rdmachan_ops *ops,
	      unsigned int slot);
void ct_accept_none(struct kunit *test, struct rdmachan_listener *l, int err);
void ct_pair(struct kunit *test, u16 port,
	     const struct rdmachan_opts *lopts,
	     const struct rdmachan_ops *sops,
	     const struct rdmachan_opts *copts,
	     const struct rdmachan_ops *cops);
void ct_close(struct ct_ctx *c, unsigned int slot);
void ct_close_listener(struct ct_ctx *c);
int ct_pull(struct rdmachan *ch, struct rdmachan_msg **msg, bool direct);
void ct_pull_check(struct kunit *test, struct rdmachan *ch, u32 dir,
		   const struct ct_exp *exp, unsigned int n);

#endif /* RDMACHAN_CHAN_FIXTURE_H */
