// SPDX-License-Identifier: GPL-2.0-only
/*
 * rdmachan_chan_kunit.ko: KUnit suite "rdmachan_chan", rdmachan's exported
 * in-kernel API (module/rdmachan.h) over the soft-RoCE fixture of the test
 * VM: rxe0 on veth0 (192.0.2.1) and rxe1 on veth1 (192.0.2.2), set up by
 * tests/vm/cases/kunit.sh before this module is loaded.  Unlike the pure
 * logic suites it links against rdmachan.ko's exported symbols only.
 *
 * Every test listens on 192.0.2.1 (a port of its own), connects from
 * 192.0.2.2 and accepts, then checks what a userspace script cannot see:
 * the context callbacks run in, messages as the API hands them over
 * (contents, order, immediates), credits, error codes, and allocation
 * failures forced in the caller's thread with failslab.
 *
 * Nothing waits unbounded: waits have timeouts, and a call that blocks by
 * design (rdmachan_recv(), rdmachan_accept(), rdmachan_send() without
 * RDMACHAN_*_NONBLOCK) runs under a watchdog that signals the test thread,
 * so a hang fails the test with -ERESTARTSYS instead of stalling the VM.
 * Whatever a test set up is closed by ct_exit(), also after a failed
 * assertion.
 *
 * kunit.sh loads rdmachan with keepalive_ms=3600000: the keepalive tick
 * also polls RDMACHAN_POLL_DIRECT channels, which would make the check
 * that such a channel delivers only through the caller's rdmachan_poll()
 * depend on timing.
 */
#include <kunit/test.h>
#include <linux/delay.h>
#include <linux/hrtimer.h>
#include <linux/errno.h>
#include <linux/in.h>
#include <linux/jiffies.h>
#include <linux/module.h>
#include <linux/preempt.h>
#include <linux/scatterlist.h>
#include <linux/sched.h>
#include <linux/sched/signal.h>
#include <linux/sched/task.h>
#include <linux/signal.h>
#include <linux/slab.h>
#include <linux/spinlock.h>
#include <linux/timer.h>
#include <linux/umh.h>
#include <linux/wait.h>
#include <linux/workqueue.h>

#include "../../module/rdmachan.h"

#define CT_IP_SERVER	0xc0000201	/* 192.0.2.1, rxe0 */
#define CT_IP_CLIENT	0xc0000202	/* 192.0.2.2, rxe1 */

/* One port per test, so that one test's leftovers cannot fail another */
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
	CT_PORT_POOL_SEND_INV,
	CT_PORT_POOL_LOCAL_INV,
	CT_PORT_WRITABLE_SEND,
	CT_PORT_RDMA_START,
	CT_PORT_POOL_TEARDOWN,
	CT_PORT_POOL_LOCAL_SEG,
	CT_PORT_POOL_UNSENT,
	CT_PORT_POOL_SHUTDOWN,
};

#define CT_TIMEOUT	(15 * HZ)	/* the debug kernel under TCG is slow */
#define CT_SHORT	(HZ / 4)	/* for calls that must block */
#define CT_MAX_MSGS	64
#define CT_MAX_HELD	16
#define CT_NTH_MAX	400

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
	struct hrtimer hrt;
	struct rdmachan *hrt_ch;
	struct rdmachan_op *hrt_op;
	int hrt_ret;
	bool hrt_hard;
	atomic_t hrt_fired;
};

/* ---- payloads ------------------------------------------------------- */

/* Byte @j of message @k sent in direction @dir (0: to the server) */
static u8 ct_byte(u32 dir, u32 k, u32 j)
{
	return (u8)(dir * 101 + k * 31 + j * 7 + (j >> 8));
}

static void ct_fill(void *buf, u32 len, u32 dir, u32 k)
{
	u8 *p = buf;
	u32 j;

	for (j = 0; j < len; j++)
		p[j] = ct_byte(dir, k, j);
}

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

static void ct_expect_msg(struct kunit *test, const struct rdmachan_msg *m,
			  u32 dir, const struct ct_exp *e, unsigned int idx)
{
	const u8 *p;
	u32 j;

	KUNIT_EXPECT_EQ_MSG(test, m->len, e->len, "message %u (k=%u)", idx,
			    e->k);
	KUNIT_EXPECT_EQ_MSG(test, m->has_imm, e->has_imm, "message %u (k=%u)",
			    idx, e->k);
	if (e->has_imm && m->has_imm)
		KUNIT_EXPECT_EQ_MSG(test, m->imm, e->imm, "message %u (k=%u)",
				    idx, e->k);
	if (m->len != e->len)
		return;
	if (e->len)
		KUNIT_EXPECT_NOT_NULL_MSG(test, m->data, "message %u", idx);
	if (!m->data)
		return;
	p = m->data;
	for (j = 0; j < e->len; j++) {
		if (p[j] != ct_byte(dir, e->k, j)) {
			KUNIT_FAIL(test,
				   "message %u (k=%u, %u bytes): byte %u is 0x%02x, want 0x%02x",
				   idx, e->k, e->len, j, p[j],
				   ct_byte(dir, e->k, j));
			return;
		}
	}
}

/* ---- callbacks ------------------------------------------------------ */

static void ct_recv(struct rdmachan *ch, struct rdmachan_msg *msg)
{
	struct ct_sink *s = rdmachan_priv(ch);
	bool hard = in_hardirq(), soft = in_serving_softirq();
	bool bh = in_softirq(), task = in_task(), irqs = irqs_disabled();
	unsigned long flags;
	bool keep;

	spin_lock_irqsave(&s->lock, flags);
	s->seen_ch = ch;
	s->ctx_hardirq += hard;
	s->ctx_softirq += soft;
	s->ctx_bh += bh;
	s->ctx_task += task;
	s->ctx_irqs_off += irqs;
	if (s->polling && s->poller == current)
		s->ctx_poller++;
	keep = s->nr < CT_MAX_MSGS;
	if (keep)
		s->msgs[s->nr++] = msg;
	else
		s->overflow++;
	spin_unlock_irqrestore(&s->lock, flags);
	if (!keep)
		rdmachan_msg_release(ch, msg);
	wake_up_all(&s->wq);
}

static void ct_state_change(struct rdmachan *ch, enum rdmachan_state state,
			    int err)
{
	struct ct_sink *s = rdmachan_priv(ch);
	bool task = in_task() && !irqs_disabled();
	unsigned int pc = preempt_count();
	unsigned long flags;

	spin_lock_irqsave(&s->lock, flags);
	s->seen_ch = ch;
	s->state = state;
	s->err = err;
	s->state_task = (s->nr_state ? s->state_task : true) && task;
	s->state_preempt = pc;
	s->nr_at_state = s->nr;
	s->nr_state++;
	spin_unlock_irqrestore(&s->lock, flags);
	complete(&s->state_done);
	wake_up_all(&s->wq);
}

static void ct_pending(struct rdmachan_listener *l)
{
	struct ct_lrec *r = rdmachan_listener_priv(l);

	if (!in_task() || irqs_disabled())
		atomic_inc(&r->not_task);
	atomic_inc(&r->nr);
	wake_up_all(&r->wq);
}

static void ct_writable(struct rdmachan *ch)
{
	struct ct_sink *s = rdmachan_priv(ch);

	if (in_task() && !irqs_disabled())
		atomic_inc(&s->writable_task);
	atomic_inc(&s->nr_writable);
	wake_up_all(&s->wq);
}

static void ct_start_end(struct rdmachan_op *ops, unsigned int count, int err,
			 void *ctx)
{
	struct ct_sink *s = ctx;

	s->end_err = err;
	atomic_inc(&s->nr_end);
	wake_up_all(&s->wq);
}

/* ct_recv(), and the first message starts the sink's one-sided ops */
static void ct_recv_start(struct rdmachan *ch, struct rdmachan_msg *msg)
{
	struct ct_sink *s = rdmachan_priv(ch);

	if (s->start_ops && !s->start_called) {
		s->start_bh = in_softirq();
		s->start_ret = rdmachan_rdma_start(ch, s->start_ops,
						   s->start_count, ct_start_end,
						   s);
		s->start_called = true;
	}
	ct_recv(ch, msg);
}

static void ct_pool_done(void *ctx, int err)
{
	struct ct_sink *s = ctx;

	s->done_err = err;
	atomic_inc(&s->nr_done);
	wake_up_all(&s->wq);
}

/* Pull mode, with the storage user's writable callback */
static const struct rdmachan_ops ct_store_ops = {
	.state_change = ct_state_change,
	.writable = ct_writable,
};

static const struct rdmachan_ops ct_start_ops = {
	.recv = ct_recv_start,
	.state_change = ct_state_change,
	.writable = ct_writable,
};

static const struct rdmachan_ops ct_push_ops = {
	.recv = ct_recv,
	.state_change = ct_state_change,
};

/* rdmachan_recv() pulls; state changes are still reported */
static const struct rdmachan_ops ct_pull_ops = {
	.state_change = ct_state_change,
};

static unsigned int ct_sink_nr(struct ct_sink *s)
{
	unsigned long flags;
	unsigned int n;

	spin_lock_irqsave(&s->lock, flags);
	n = s->nr;
	spin_unlock_irqrestore(&s->lock, flags);
	return n;
}

/* Wait until @s holds @n pushed messages; false on timeout. */
static bool ct_sink_wait(struct ct_sink *s, unsigned int n)
{
	return wait_event_timeout(s->wq, ct_sink_nr(s) >= n, CT_TIMEOUT) > 0;
}

/* Release every pushed message of @s not released yet. */
static void ct_sink_release(struct ct_sink *s, struct rdmachan *ch)
{
	struct rdmachan_msg *msg;
	unsigned long flags;

	for (;;) {
		spin_lock_irqsave(&s->lock, flags);
		msg = s->nr_released < s->nr ? s->msgs[s->nr_released++] : NULL;
		spin_unlock_irqrestore(&s->lock, flags);
		if (!msg)
			return;
		rdmachan_msg_release(ch, msg);
	}
}

/* Check the @n messages @s holds against @exp, then release them. */
static void ct_sink_check(struct kunit *test, struct ct_sink *s,
			  struct rdmachan *ch, u32 dir,
			  const struct ct_exp *exp, unsigned int n)
{
	unsigned int i;

	KUNIT_EXPECT_TRUE_MSG(test, ct_sink_wait(s, n),
			      "%u of %u messages pushed in time", ct_sink_nr(s),
			      n);
	KUNIT_EXPECT_EQ(test, ct_sink_nr(s), n);
	KUNIT_EXPECT_EQ(test, s->overflow, 0U);
	for (i = 0; i < n && i < ct_sink_nr(s); i++)
		ct_expect_msg(test, s->msgs[i], dir, &exp[i], i);
	if (ct_sink_nr(s))
		KUNIT_EXPECT_PTR_EQ(test, s->seen_ch, ch);
	ct_sink_release(s, ch);
}

/* ---- the watchdog of blocking calls ----------------------------------- */

static void ct_wd_fire(struct timer_list *t)
{
	struct ct_ctx *c = from_timer(c, t, wd_timer);

	WRITE_ONCE(c->wd_fired, true);
	send_sig(SIGUSR1, c->wd_task, 1);
}

/* Signal this thread after @timeout jiffies unless ct_wd_disarm() first. */
static void ct_wd_arm(struct ct_ctx *c, unsigned long timeout)
{
	allow_signal(SIGUSR1);
	c->wd_task = get_task_struct(current);
	WRITE_ONCE(c->wd_fired, false);
	mod_timer(&c->wd_timer, jiffies + timeout);
}

/* Return: the watchdog fired (the call it guarded was interrupted). */
static bool ct_wd_disarm(struct ct_ctx *c)
{
	del_timer_sync(&c->wd_timer);
	if (c->wd_task) {
		put_task_struct(c->wd_task);
		c->wd_task = NULL;
	}
	flush_signals(current);
	disallow_signal(SIGUSR1);
	return READ_ONCE(c->wd_fired);
}

/* ---- setting up and tearing down ---------------------------------------- */

static void ct_release_work(struct work_struct *work)
{
	struct ct_ctx *c = container_of(to_delayed_work(work), struct ct_ctx,
					release_work);

	while (c->nr_held > c->release_from)
		rdmachan_msg_release(c->held_ch, c->held[--c->nr_held]);
}

static void ct_send_work(struct work_struct *work)
{
	struct ct_ctx *c = container_of(to_delayed_work(work), struct ct_ctx,
					send_work);
	struct kvec v = { .iov_base = c->work_buf, .iov_len = c->work_len };

	c->work_ret = rdmachan_send(c->work_ch, &v, 1, c->work_k,
				    RDMACHAN_SEND_IMM | RDMACHAN_SEND_NONBLOCK);
}

static void ct_start_end(struct rdmachan_op *ops, unsigned int count, int err,
			 void *ctx);

/* Hard interrupt context: start one operation, as a bio's end_io may */
static enum hrtimer_restart ct_hrt_fire(struct hrtimer *t)
{
	struct ct_ctx *c = container_of(t, struct ct_ctx, hrt);

	c->hrt_hard = in_hardirq();
	c->hrt_ret = rdmachan_rdma_start(c->hrt_ch, c->hrt_op, 1, ct_start_end,
					 &c->sink[CT_SRV]);
	atomic_inc(&c->hrt_fired);
	wake_up_all(&c->sink[CT_SRV].wq);
	return HRTIMER_NORESTART;
}

static int ct_init(struct kunit *test)
{
	struct ct_ctx *c;
	unsigned int i;

	c = kunit_kzalloc(test, sizeof(*c), GFP_KERNEL);
	if (!c)
		return -ENOMEM;
	c->test = test;
	atomic_set(&c->lrec.nr, 0);
	atomic_set(&c->lrec.not_task, 0);
	init_waitqueue_head(&c->lrec.wq);
	for (i = 0; i < CT_NR; i++) {
		spin_lock_init(&c->sink[i].lock);
		init_waitqueue_head(&c->sink[i].wq);
		init_completion(&c->sink[i].state_done);
	}
	INIT_DELAYED_WORK(&c->release_work, ct_release_work);
	INIT_DELAYED_WORK(&c->send_work, ct_send_work);
	timer_setup(&c->wd_timer, ct_wd_fire, 0);
	hrtimer_init(&c->hrt, CLOCK_MONOTONIC, HRTIMER_MODE_REL_HARD);
	c->hrt.function = ct_hrt_fire;
	test->priv = c;
	return 0;
}

static void ct_close(struct ct_ctx *c, unsigned int slot)
{
	struct rdmachan *ch = c->ch[slot];

	if (!ch)
		return;
	if (c->held_ch == ch) {
		while (c->nr_held)
			rdmachan_msg_release(ch, c->held[--c->nr_held]);
		c->held_ch = NULL;
	}
	ct_sink_release(&c->sink[slot], ch);
	c->ch[slot] = NULL;
	rdmachan_close(ch);
}

/*
 * Nothing waits on @l: a non-blocking accept returns @err and leaves its
 * result alone.  A channel it returns anyway is closed here, not leaked
 * (a leaked channel's sysfs directory outlives rdmachan's class).
 */
static void ct_accept_none(struct kunit *test, struct rdmachan_listener *l,
			   int err)
{
	struct rdmachan *const untouched = ERR_PTR(-ESRCH);
	struct rdmachan *ch = untouched;
	int ret;

	ret = rdmachan_accept(l, NULL, NULL, RDMACHAN_ACCEPT_NONBLOCK, &ch);
	KUNIT_EXPECT_EQ(test, ret, err);
	if (ret)
		KUNIT_EXPECT_PTR_EQ(test, ch, untouched);
	else if (!IS_ERR_OR_NULL(ch))
		rdmachan_close(ch);
}

static void ct_close_listener(struct ct_ctx *c)
{
	if (c->l) {
		rdmachan_listener_close(c->l);
		c->l = NULL;
	}
}

/* Runs after every test, also one that failed an assertion. */
static void ct_exit(struct kunit *test)
{
	struct ct_ctx *c = test->priv;
	unsigned int i;

	if (!c)
		return;
#if IS_ENABLED(CONFIG_FAULT_INJECTION)
	current->make_it_fail = 0;
	current->fail_nth = 0;
#endif
	del_timer_sync(&c->wd_timer);
	hrtimer_cancel(&c->hrt);
	if (c->wd_task) {
		put_task_struct(c->wd_task);
		c->wd_task = NULL;
	}
	cancel_delayed_work_sync(&c->send_work);
	cancel_delayed_work_sync(&c->release_work);
	/* before the close: the storage user's order */
	rdmachan_mr_pool_destroy(c->pool);
	c->pool = NULL;
	for (i = 0; i < CT_NR; i++) {
		if (c->kmr[i])
			rdmachan_mr_dereg(c->kmr[i]);
		c->kmr[i] = NULL;
	}
	for (i = 0; i < CT_NR; i++)
		ct_close(c, i);
	ct_close_listener(c);
}

static void ct_addr(struct sockaddr_in *sin, u32 ip, u16 port)
{
	memset(sin, 0, sizeof(*sin));
	sin->sin_family = AF_INET;
	sin->sin_addr.s_addr = cpu_to_be32(ip);
	sin->sin_port = cpu_to_be16(port);
}

static int ct_listen(struct ct_ctx *c, u16 port,
		     const struct rdmachan_opts *opts)
{
	struct rdmachan_listener *l = NULL;
	struct sockaddr_in sin;
	int ret;

	ct_addr(&sin, CT_IP_SERVER, port);
	ret = rdmachan_listen((struct sockaddr *)&sin, opts, ct_pending,
			      &c->lrec, &l);
	if (!ret)
		c->l = l;
	return ret;
}

/* Connect from 192.0.2.2 to 192.0.2.1:@port into channel slot @slot. */
static int ct_connect(struct ct_ctx *c, u16 port,
		      const struct rdmachan_opts *opts,
		      const struct rdmachan_ops *ops, unsigned int slot)
{
	struct sockaddr_in dst, src;
	struct rdmachan *ch = NULL;
	int ret;

	ct_addr(&dst, CT_IP_SERVER, port);
	ct_addr(&src, CT_IP_CLIENT, 0);
	ret = rdmachan_connect((struct sockaddr *)&dst, (struct sockaddr *)&src,
			       opts, ops, &c->sink[slot], &ch);
	if (!ret)
		c->ch[slot] = ch;
	return ret;
}

/* Accept into slot @slot, polling without blocking, bounded. */
static int ct_accept(struct ct_ctx *c, const struct rdmachan_ops *ops,
		     unsigned int slot)
{
	unsigned long deadline = jiffies + CT_TIMEOUT;
	struct rdmachan *ch = NULL;
	int ret;

	for (;;) {
		ret = rdmachan_accept(c->l, ops, &c->sink[slot],
				      RDMACHAN_ACCEPT_NONBLOCK, &ch);
		if (ret != -EAGAIN || time_after(jiffies, deadline))
			break;
		usleep_range(1000, 2000);
	}
	if (!ret)
		c->ch[slot] = ch;
	return ret;
}

/* Listen on @port, connect (CT_CLI) and accept (CT_SRV); asserts. */
static void ct_pair(struct kunit *test, u16 port,
		    const struct rdmachan_opts *lopts,
		    const struct rdmachan_ops *sops,
		    const struct rdmachan_opts *copts,
		    const struct rdmachan_ops *cops)
{
	struct ct_ctx *c = test->priv;

	KUNIT_ASSERT_EQ_MSG(test, ct_listen(c, port, lopts), 0,
			    "listen on 192.0.2.1:%u", port);
	KUNIT_ASSERT_EQ_MSG(test, ct_connect(c, port, copts, cops, CT_CLI), 0,
			    "connect 192.0.2.2 -> 192.0.2.1:%u", port);
	KUNIT_ASSERT_EQ_MSG(test, ct_accept(c, sops, CT_SRV), 0,
			    "accept on 192.0.2.1:%u", port);
	KUNIT_ASSERT_NOT_NULL(test, c->ch[CT_SRV]);
	KUNIT_ASSERT_NOT_NULL(test, c->ch[CT_CLI]);
}

/*
 * Pull the next message, without blocking but waiting up to CT_TIMEOUT;
 * a DIRECT channel is polled meanwhile.  Return: as rdmachan_recv().
 */
static int ct_pull(struct rdmachan *ch, struct rdmachan_msg **msg,
		   bool direct)
{
	unsigned long deadline = jiffies + CT_TIMEOUT;
	int ret;

	for (;;) {
		ret = rdmachan_recv(ch, msg, RDMACHAN_RECV_NONBLOCK);
		if (ret != -EAGAIN || time_after(jiffies, deadline))
			return ret;
		if (direct)
			rdmachan_poll(ch, -1);
		usleep_range(500, 1000);
	}
}

/* Pull @n messages and check them against @exp, releasing each. */
static void ct_pull_check(struct kunit *test, struct rdmachan *ch, u32 dir,
			  const struct ct_exp *exp, unsigned int n)
{
	struct rdmachan_msg *msg;
	unsigned int i;
	int ret;

	for (i = 0; i < n; i++) {
		ret = ct_pull(ch, &msg, false);
		KUNIT_EXPECT_EQ_MSG(test, ret, 0, "pulling message %u of %u",
				    i, n);
		if (ret)
			return;
		ct_expect_msg(test, msg, dir, &exp[i], i);
		rdmachan_msg_release(ch, msg);
	}
}

/* A buffer of @len bytes (at least one) holding message @k's payload */
static void *ct_payload(struct kunit *test, u32 len, u32 dir, u32 k)
{
	void *buf = kunit_kmalloc(test, len ?: 1, GFP_KERNEL);

	KUNIT_ASSERT_NOT_NULL(test, buf);
	ct_fill(buf, len, dir, k);
	return buf;
}

/* ---- the standard sequence ----------------------------------------------- */

#define CT_SCRIPT_LEN	10

/*
 * Send the standard sequence on @ch in direction @dir: sizes 0, 1 and
 * @max, with and without an immediate, through rdmachan_send() (one and
 * two pieces), rdmachan_send_msgs() and rdmachan_send_sg() (three
 * entries); @exp gets what the receiver must see, in order.
 */
static void ct_send_script(struct kunit *test, struct rdmachan *ch, u32 dir,
			   u32 max, struct ct_exp *exp)
{
	static const u32 imm_flags = RDMACHAN_SEND_IMM;
	struct scatterlist sg[3];
	struct kvec v[3];
	u32 a, b, k = 0;
	void *buf;
	int i;

	KUNIT_ASSERT_GT(test, max, 200U);

	/* rdmachan_send(): 0 bytes, no immediate */
	buf = ct_payload(test, 0, dir, k);
	v[0] = (struct kvec){ .iov_base = buf, .iov_len = 0 };
	KUNIT_EXPECT_EQ(test, rdmachan_send(ch, v, 1, 0, 0), 0);
	exp[k] = (struct ct_exp){ k, 0, false, 0 };
	k++;

	/* 1 byte, immediate 1 */
	buf = ct_payload(test, 1, dir, k);
	v[0] = (struct kvec){ .iov_base = buf, .iov_len = 1 };
	KUNIT_EXPECT_EQ(test, rdmachan_send(ch, v, 1, 1, imm_flags), 0);
	exp[k] = (struct ct_exp){ k, 1, true, 1 };
	k++;

	/* @max bytes from two pieces, immediate 0xdeadbeef */
	buf = ct_payload(test, max, dir, k);
	v[0] = (struct kvec){ .iov_base = buf, .iov_len = 100 };
	v[1] = (struct kvec){ .iov_base = buf + 100, .iov_len = max - 100 };
	KUNIT_EXPECT_EQ(test, rdmachan_send(ch, v, 2, 0xdeadbeef, imm_flags),
			0);
	exp[k] = (struct ct_exp){ k, max, true, 0xdeadbeef };
	k++;

	/* rdmachan_send_msgs(): 0, 1 and @max bytes, immediate 0x42 each */
	for (i = 0; i < 3; i++) {
		u32 len = i == 0 ? 0 : i == 1 ? 1 : max;

		v[i] = (struct kvec){ .iov_base = ct_payload(test, len, dir, k + i),
				      .iov_len = len };
		exp[k + i] = (struct ct_exp){ k + i, len, true, 0x42 };
	}
	KUNIT_EXPECT_EQ(test, rdmachan_send_msgs(ch, v, 3, 0x42, imm_flags), 3);
	k += 3;

	/* two more without immediate */
	for (i = 0; i < 2; i++) {
		u32 len = 17 + 16 * i;

		v[i] = (struct kvec){ .iov_base = ct_payload(test, len, dir, k + i),
				      .iov_len = len };
		exp[k + i] = (struct ct_exp){ k + i, len, false, 0 };
	}
	KUNIT_EXPECT_EQ(test, rdmachan_send_msgs(ch, v, 2, 0, 0), 2);
	k += 2;

	/* rdmachan_send_sg(): @max bytes in three entries, immediate */
	buf = ct_payload(test, max, dir, k);
	a = max / 3;
	b = max / 3 + 5;
	sg_init_table(sg, 3);
	sg_set_buf(&sg[0], buf, a);
	sg_set_buf(&sg[1], buf + a, b);
	sg_set_buf(&sg[2], buf + a + b, max - a - b);
	KUNIT_EXPECT_EQ(test, rdmachan_send_sg(ch, sg, 3, 0xfeedf00d,
					       imm_flags), 0);
	exp[k] = (struct ct_exp){ k, max, true, 0xfeedf00d };
	k++;

	/* 1 byte in one entry, no immediate */
	buf = ct_payload(test, 1, dir, k);
	sg_init_table(sg, 1);
	sg_set_buf(&sg[0], buf, 1);
	KUNIT_EXPECT_EQ(test, rdmachan_send_sg(ch, sg, 1, 0, 0), 0);
	exp[k] = (struct ct_exp){ k, 1, false, 0 };
	k++;

	KUNIT_ASSERT_EQ(test, k, (u32)CT_SCRIPT_LEN);
}

/* ---- tests --------------------------------------------------------------- */

/*
 * Connecting to a port nobody listens on is refused with -ECONNREFUSED,
 * also right after a listener on it was closed; no channel is returned.
 */
static void chan_test_connect_refused(struct kunit *test)
{
	struct ct_ctx *c = test->priv;
	struct sockaddr_in dst, src;
	struct rdmachan *ch = NULL;

	ct_addr(&dst, CT_IP_SERVER, CT_PORT_REFUSED);
	ct_addr(&src, CT_IP_CLIENT, 0);
	KUNIT_EXPECT_EQ(test, rdmachan_connect((struct sockaddr *)&dst,
					       (struct sockaddr *)&src, NULL,
					       NULL, NULL, &ch), -ECONNREFUSED);
	KUNIT_EXPECT_NULL(test, ch);

	KUNIT_ASSERT_EQ(test, ct_listen(c, CT_PORT_CLOSED_LISTENER, NULL), 0);
	ct_close_listener(c);
	ct_addr(&dst, CT_IP_SERVER, CT_PORT_CLOSED_LISTENER);
	KUNIT_EXPECT_EQ(test, rdmachan_connect((struct sockaddr *)&dst,
					       (struct sockaddr *)&src, NULL,
					       NULL, NULL, &ch), -ECONNREFUSED);
	KUNIT_EXPECT_NULL(test, ch);
}

/*
 * Listen, connect from 192.0.2.2, accept: both ends CONNECTED with the
 * negotiated (smaller) depth and message size, their priv pointers, the
 * listener's pending callback in process context; a second listener on
 * the address is refused; accept without a connection returns -EAGAIN
 * (non-blocking) or waits (until a signal: -ERESTARTSYS).  One message
 * each way over the new channel.
 */
static void chan_test_connect_accept(struct kunit *test)
{
	struct rdmachan_opts lopts = { .queue_depth = 8, .max_msg_size = 4096 };
	struct rdmachan_opts copts = { .queue_depth = 16, .max_msg_size = 8192 };
	struct ct_ctx *c = test->priv;
	struct rdmachan_listener *l2 = NULL;
	struct rdmachan *ch = NULL, *srv, *cli;
	struct ct_exp e = { 0, 64, true, 7 };
	struct sockaddr_in sin;
	struct kvec v;
	bool fired;
	int ret;

	KUNIT_ASSERT_EQ(test, ct_listen(c, CT_PORT_ACCEPT, &lopts), 0);
	KUNIT_EXPECT_PTR_EQ(test, rdmachan_listener_priv(c->l),
			    (void *)&c->lrec);

	ct_addr(&sin, CT_IP_SERVER, CT_PORT_ACCEPT);
	KUNIT_EXPECT_EQ(test, rdmachan_listen((struct sockaddr *)&sin, NULL,
					      NULL, NULL, &l2), -EADDRINUSE);
	KUNIT_EXPECT_NULL(test, l2);
	if (l2)
		rdmachan_listener_close(l2);

	ct_accept_none(test, c->l, -EAGAIN);
	ct_wd_arm(c, CT_SHORT);
	ret = rdmachan_accept(c->l, NULL, NULL, 0, &ch);
	fired = ct_wd_disarm(c);
	KUNIT_EXPECT_EQ(test, ret, -ERESTARTSYS);
	KUNIT_EXPECT_TRUE(test, fired);
	KUNIT_EXPECT_NULL(test, ch);

	KUNIT_ASSERT_EQ(test, ct_connect(c, CT_PORT_ACCEPT, &copts, NULL,
					 CT_CLI), 0);
	cli = c->ch[CT_CLI];
	KUNIT_EXPECT_EQ(test, rdmachan_get_state(cli), RDMACHAN_CONNECTED);
	KUNIT_EXPECT_TRUE(test, wait_event_timeout(c->lrec.wq,
						   atomic_read(&c->lrec.nr) > 0,
						   CT_TIMEOUT) > 0);
	KUNIT_EXPECT_EQ(test, atomic_read(&c->lrec.nr), 1);
	KUNIT_EXPECT_EQ(test, atomic_read(&c->lrec.not_task), 0);

	/* pending was called: the connection is there to take at once */
	ret = rdmachan_accept(c->l, NULL, &c->sink[CT_SRV],
			      RDMACHAN_ACCEPT_NONBLOCK, &ch);
	KUNIT_ASSERT_EQ(test, ret, 0);
	c->ch[CT_SRV] = ch;
	srv = ch;
	ct_accept_none(test, c->l, -EAGAIN);

	KUNIT_EXPECT_EQ(test, rdmachan_get_state(srv), RDMACHAN_CONNECTED);
	KUNIT_EXPECT_EQ(test, rdmachan_error(srv), 0);
	KUNIT_EXPECT_EQ(test, rdmachan_error(cli), 0);
	KUNIT_EXPECT_PTR_EQ(test, rdmachan_priv(srv), (void *)&c->sink[CT_SRV]);
	KUNIT_EXPECT_PTR_EQ(test, rdmachan_priv(cli), (void *)&c->sink[CT_CLI]);
	KUNIT_EXPECT_EQ(test, rdmachan_queue_depth(srv), 8U);
	KUNIT_EXPECT_EQ(test, rdmachan_queue_depth(cli), 8U);
	KUNIT_EXPECT_EQ(test, rdmachan_max_msg_size(srv), 4096U);
	KUNIT_EXPECT_EQ(test, rdmachan_max_msg_size(cli), 4096U);

	v = (struct kvec){ .iov_base = ct_payload(test, 64, 0, 0),
			   .iov_len = 64 };
	KUNIT_EXPECT_EQ(test, rdmachan_send(cli, &v, 1, 7, RDMACHAN_SEND_IMM),
			0);
	ct_pull_check(test, srv, 0, &e, 1);
	v.iov_base = ct_payload(test, 64, 1, 0);
	KUNIT_EXPECT_EQ(test, rdmachan_send(srv, &v, 1, 7, RDMACHAN_SEND_IMM),
			0);
	ct_pull_check(test, cli, 1, &e, 1);
}

/**
 * struct ct_mode - a completion context to test
 * @name: shown as the parameter
 * @mode: enum rdmachan_poll_mode
 * @port: the test's port
 */
struct ct_mode {
	const char *name;
	u32 mode;
	u16 port;
};

static const struct ct_mode ct_modes[] = {
	{ "softirq", RDMACHAN_POLL_SOFTIRQ, CT_PORT_EXCHANGE_SOFTIRQ },
	{ "workqueue", RDMACHAN_POLL_WORKQUEUE, CT_PORT_EXCHANGE_WORKQUEUE },
};

static void ct_mode_desc(const struct ct_mode *m, char *desc)
{
	strscpy(desc, m->name, KUNIT_PARAM_DESC_SIZE);
}

KUNIT_ARRAY_PARAM(ct_mode, ct_modes, ct_mode_desc);

/* Where a recv callback of @mode must run: check @s's record of @n. */
static void ct_expect_ctx(struct kunit *test, struct ct_sink *s, u32 mode,
			  unsigned int n, const char *end)
{
	KUNIT_EXPECT_EQ_MSG(test, s->ctx_hardirq, 0U, "%s", end);
	KUNIT_EXPECT_EQ_MSG(test, s->ctx_irqs_off, 0U, "%s", end);
	if (mode == RDMACHAN_POLL_SOFTIRQ) {
		KUNIT_EXPECT_EQ_MSG(test, s->ctx_softirq, n,
				    "%s: recv in softirq", end);
		KUNIT_EXPECT_EQ_MSG(test, s->ctx_task, 0U, "%s", end);
	} else {
		KUNIT_EXPECT_EQ_MSG(test, s->ctx_task, n,
				    "%s: recv in process context", end);
		KUNIT_EXPECT_EQ_MSG(test, s->ctx_softirq, 0U, "%s", end);
		KUNIT_EXPECT_EQ_MSG(test, s->ctx_bh, 0U,
				    "%s: bottom halves on", end);
	}
}

/*
 * Push mode, SOFTIRQ and WORKQUEUE: the standard sequence each way
 * arrives complete and in order through &rdmachan_ops.recv, which runs
 * serving a softirq (RDMACHAN_POLL_SOFTIRQ) or in process context with
 * bottom halves on (RDMACHAN_POLL_WORKQUEUE), never with interrupts off.
 */
static void chan_test_exchange(struct kunit *test)
{
	const struct ct_mode *m = test->param_value;
	struct rdmachan_opts opts = {
		.queue_depth = 16, .max_msg_size = 4096, .poll_mode = m->mode,
	};
	struct ct_ctx *c = test->priv;
	struct ct_exp exp[2][CT_SCRIPT_LEN];
	struct rdmachan *srv, *cli;

	ct_pair(test, m->port, &opts, &ct_push_ops, &opts, &ct_push_ops);
	srv = c->ch[CT_SRV];
	cli = c->ch[CT_CLI];
	KUNIT_ASSERT_EQ(test, rdmachan_max_msg_size(cli), 4096U);

	ct_send_script(test, cli, 0, 4096, exp[0]);
	ct_send_script(test, srv, 1, 4096, exp[1]);
	ct_sink_check(test, &c->sink[CT_SRV], srv, 0, exp[0], CT_SCRIPT_LEN);
	ct_sink_check(test, &c->sink[CT_CLI], cli, 1, exp[1], CT_SCRIPT_LEN);
	ct_expect_ctx(test, &c->sink[CT_SRV], m->mode, CT_SCRIPT_LEN,
		      "accepted end");
	ct_expect_ctx(test, &c->sink[CT_CLI], m->mode, CT_SCRIPT_LEN,
		      "connected end");
	KUNIT_EXPECT_EQ(test, c->sink[CT_SRV].nr_state, 0U);
	KUNIT_EXPECT_EQ(test, c->sink[CT_CLI].nr_state, 0U);
}

/*
 * RDMACHAN_POLL_DIRECT (the accepted end): nothing is delivered while
 * nobody polls; rdmachan_poll() delivers, in the calling thread, at most
 * @budget completions a call, in order; rdmachan_poll() of a channel
 * that is not DIRECT returns 0.  The DIRECT end sends too.
 */
static void chan_test_direct(struct kunit *test)
{
	struct rdmachan_opts lopts = {
		.queue_depth = 16, .max_msg_size = 4096,
		.poll_mode = RDMACHAN_POLL_DIRECT,
	};
	struct rdmachan_opts copts = { .queue_depth = 16, .max_msg_size = 4096 };
	static const u32 lens[] = { 1, 4096, 0 };
	struct ct_ctx *c = test->priv;
	struct ct_sink *s = &c->sink[CT_SRV];
	struct ct_exp exp[ARRAY_SIZE(lens)];
	unsigned long deadline;
	struct rdmachan *srv, *cli;
	struct kvec v;
	unsigned int i;
	int n, polled = 0, over_budget = 0;

	ct_pair(test, CT_PORT_DIRECT, &lopts, &ct_push_ops, &copts,
		&ct_push_ops);
	srv = c->ch[CT_SRV];
	cli = c->ch[CT_CLI];

	for (i = 0; i < ARRAY_SIZE(lens); i++) {
		v = (struct kvec){ .iov_base = ct_payload(test, lens[i], 0, i),
				   .iov_len = lens[i] };
		KUNIT_EXPECT_EQ(test, rdmachan_send(cli, &v, 1, 100 + i,
						    RDMACHAN_SEND_IMM), 0);
		exp[i] = (struct ct_exp){ i, lens[i], true, 100 + i };
	}
	KUNIT_EXPECT_EQ(test, rdmachan_poll(cli, -1), 0);

	/* Nobody polls: nothing may arrive */
	msleep(300);
	KUNIT_EXPECT_EQ_MSG(test, ct_sink_nr(s), 0U,
			    "delivered without rdmachan_poll()");

	s->poller = current;
	deadline = jiffies + CT_TIMEOUT;
	while (ct_sink_nr(s) < ARRAY_SIZE(lens) &&
	       time_before(jiffies, deadline)) {
		WRITE_ONCE(s->polling, true);
		n = rdmachan_poll(srv, 1);
		WRITE_ONCE(s->polling, false);
		if (n < 0 || n > 1)
			over_budget++;
		if (n > 0)
			polled += n;
		else
			usleep_range(500, 1000);
	}
	KUNIT_EXPECT_EQ(test, over_budget, 0);
	KUNIT_EXPECT_GE(test, polled, (int)ARRAY_SIZE(lens));
	KUNIT_EXPECT_EQ(test, s->ctx_poller, (unsigned int)ARRAY_SIZE(lens));
	KUNIT_EXPECT_EQ(test, s->ctx_task, (unsigned int)ARRAY_SIZE(lens));
	KUNIT_EXPECT_EQ(test, s->ctx_bh, 0U);
	ct_sink_check(test, s, srv, 0, exp, ARRAY_SIZE(lens));

	/* The DIRECT end sends; the SOFTIRQ end receives in softirq */
	for (i = 0; i < 2; i++) {
		v = (struct kvec){ .iov_base = ct_payload(test, 1000 + i, 1, i),
				   .iov_len = 1000 + i };
		KUNIT_EXPECT_EQ(test, rdmachan_send(srv, &v, 1, 0,
						    RDMACHAN_SEND_NONBLOCK), 0);
		exp[i] = (struct ct_exp){ i, 1000 + i, false, 0 };
	}
	ct_sink_check(test, &c->sink[CT_CLI], cli, 1, exp, 2);
	ct_expect_ctx(test, &c->sink[CT_CLI], RDMACHAN_POLL_SOFTIRQ, 2,
		      "connected end");
}

/*
 * Pull mode (no recv callback): rdmachan_recv() with
 * RDMACHAN_RECV_NONBLOCK returns -EAGAIN while nothing is queued and a
 * blocking one waits (until a signal: -ERESTARTSYS) or until a message
 * sent later arrives; the standard sequence arrives complete and in
 * order both ways.
 */
static void chan_test_pull(struct kunit *test)
{
	struct rdmachan_opts opts = { .queue_depth = 16, .max_msg_size = 4096 };
	struct ct_ctx *c = test->priv;
	struct ct_exp exp[CT_SCRIPT_LEN];
	struct ct_exp late = { CT_SCRIPT_LEN, 33, true, CT_SCRIPT_LEN };
	struct rdmachan_msg *msg = NULL;
	struct rdmachan *srv, *cli;
	bool fired;
	int ret;

	ct_pair(test, CT_PORT_PULL, &opts, NULL, &opts, NULL);
	srv = c->ch[CT_SRV];
	cli = c->ch[CT_CLI];

	KUNIT_EXPECT_EQ(test, rdmachan_recv(srv, &msg, RDMACHAN_RECV_NONBLOCK),
			-EAGAIN);
	KUNIT_EXPECT_EQ(test, rdmachan_recv(cli, &msg, RDMACHAN_RECV_NONBLOCK),
			-EAGAIN);
	ct_wd_arm(c, CT_SHORT);
	ret = rdmachan_recv(srv, &msg, 0);
	fired = ct_wd_disarm(c);
	KUNIT_EXPECT_EQ(test, ret, -ERESTARTSYS);
	KUNIT_EXPECT_TRUE(test, fired);
	KUNIT_EXPECT_NULL(test, msg);

	ct_send_script(test, cli, 0, 4096, exp);
	ct_pull_check(test, srv, 0, exp, CT_SCRIPT_LEN);
	KUNIT_EXPECT_EQ(test, rdmachan_recv(srv, &msg, RDMACHAN_RECV_NONBLOCK),
			-EAGAIN);

	/* A blocked reader is woken by a message sent later */
	c->work_ch = cli;
	c->work_len = late.len;
	c->work_k = late.k;
	c->work_buf = ct_payload(test, late.len, 0, late.k);
	c->work_ret = 1;
	schedule_delayed_work(&c->send_work, HZ / 5);
	ct_wd_arm(c, CT_TIMEOUT);
	ret = rdmachan_recv(srv, &msg, 0);
	fired = ct_wd_disarm(c);
	flush_delayed_work(&c->send_work);
	KUNIT_EXPECT_EQ(test, c->work_ret, 0);
	KUNIT_EXPECT_EQ(test, ret, 0);
	KUNIT_EXPECT_FALSE(test, fired);
	if (!ret) {
		ct_expect_msg(test, msg, 0, &late, CT_SCRIPT_LEN);
		rdmachan_msg_release(srv, msg);
	}

	ct_send_script(test, srv, 1, 4096, exp);
	ct_pull_check(test, cli, 1, exp, CT_SCRIPT_LEN);
	KUNIT_EXPECT_EQ(test, rdmachan_recv(cli, &msg, RDMACHAN_RECV_NONBLOCK),
			-EAGAIN);
}

/*
 * Message size: negotiated down to the listener's 4096 although the
 * connecting end asked for 8192; larger sends fail with -EMSGSIZE through
 * every sender (rdmachan_send_msgs() sends none of a batch with one
 * oversize message) and take no credit; exactly max_msg_size passes.
 */
static void chan_test_msgsize(struct kunit *test)
{
	struct rdmachan_opts lopts = { .queue_depth = 4, .max_msg_size = 4096 };
	struct rdmachan_opts copts = { .queue_depth = 4, .max_msg_size = 8192 };
	static const struct ct_exp exp[4] = {
		{ 10, 4096, false, 0 }, { 11, 1, false, 0 },
		{ 12, 0, false, 0 }, { 13, 4096, true, 5 },
	};
	const u32 nb = RDMACHAN_SEND_NONBLOCK;
	struct ct_ctx *c = test->priv;
	struct scatterlist sg[2];
	struct rdmachan *srv, *cli;
	struct kvec v[2];
	void *big;
	int i;

	ct_pair(test, CT_PORT_MSGSIZE, &lopts, NULL, &copts, NULL);
	srv = c->ch[CT_SRV];
	cli = c->ch[CT_CLI];
	KUNIT_EXPECT_EQ(test, rdmachan_max_msg_size(cli), 4096U);
	KUNIT_EXPECT_EQ(test, rdmachan_max_msg_size(srv), 4096U);
	KUNIT_EXPECT_EQ(test, rdmachan_queue_depth(cli), 4U);

	big = ct_payload(test, 8192, 0, 0);
	v[0] = (struct kvec){ .iov_base = big, .iov_len = 4097 };
	KUNIT_EXPECT_EQ(test, rdmachan_send(cli, v, 1, 0, 0), -EMSGSIZE);
	KUNIT_EXPECT_EQ(test, rdmachan_send(cli, v, 1, 0, nb), -EMSGSIZE);
	v[0].iov_len = 8192;
	KUNIT_EXPECT_EQ(test, rdmachan_send(cli, v, 1, 0, 0), -EMSGSIZE);
	/* two pieces adding up to one byte too many */
	v[0] = (struct kvec){ .iov_base = big, .iov_len = 4000 };
	v[1] = (struct kvec){ .iov_base = big + 4000, .iov_len = 97 };
	KUNIT_EXPECT_EQ(test, rdmachan_send(cli, v, 2, 0, 0), -EMSGSIZE);
	/* a batch with one oversize message sends nothing */
	v[0] = (struct kvec){ .iov_base = big, .iov_len = 1 };
	v[1] = (struct kvec){ .iov_base = big, .iov_len = 4097 };
	KUNIT_EXPECT_EQ(test, rdmachan_send_msgs(cli, v, 2, 0, 0), -EMSGSIZE);
	sg_init_table(sg, 2);
	sg_set_buf(&sg[0], big, 4000);
	sg_set_buf(&sg[1], big + 4000, 97);
	KUNIT_EXPECT_EQ(test, rdmachan_send_sg(cli, sg, 2, 0, 0), -EMSGSIZE);
	KUNIT_EXPECT_EQ(test, rdmachan_get_state(cli), RDMACHAN_CONNECTED);

	/* All four credits are still there; then there are none */
	for (i = 0; i < 4; i++) {
		v[0] = (struct kvec){
			.iov_base = ct_payload(test, exp[i].len, 0, exp[i].k),
			.iov_len = exp[i].len,
		};
		KUNIT_EXPECT_EQ_MSG(test, rdmachan_send(cli, v, 1, exp[i].imm,
							nb | (exp[i].has_imm ?
							RDMACHAN_SEND_IMM : 0)),
				    0, "send %d", i);
	}
	v[0] = (struct kvec){ .iov_base = big, .iov_len = 1 };
	KUNIT_EXPECT_EQ(test, rdmachan_send(cli, v, 1, 0, nb), -EAGAIN);
	ct_pull_check(test, srv, 0, exp, 4);

	/* and the other way */
	v[0] = (struct kvec){ .iov_base = ct_payload(test, 4097, 1, 10),
			      .iov_len = 4097 };
	KUNIT_EXPECT_EQ(test, rdmachan_send(srv, v, 1, 0, 0), -EMSGSIZE);
	v[0].iov_len = 4096;
	KUNIT_EXPECT_EQ(test, rdmachan_send(srv, v, 1, 0, 0), 0);
	ct_pull_check(test, cli, 1, exp, 1);
}

/*
 * Credits: a receiver that holds its messages stops the sender.  With
 * depth 4, rdmachan_send_msgs() of 6 sends 4; then every non-blocking
 * sender returns -EAGAIN and a blocking one waits (until a signal:
 * -ERESTARTSYS).  Each released message returns one credit; a sender
 * blocked for one is woken when the receiver releases later, from
 * another context.  Nothing is lost or reordered on the way.
 */
static void chan_test_credits(struct kunit *test)
{
	struct rdmachan_opts opts = { .queue_depth = 4, .max_msg_size = 256 };
	const u32 nb = RDMACHAN_SEND_NONBLOCK;
	struct ct_ctx *c = test->priv;
	struct ct_exp exp[6];
	struct rdmachan_msg *msg = NULL;
	struct rdmachan *srv, *cli;
	struct scatterlist sg;
	unsigned long deadline;
	struct kvec v[6];
	bool fired;
	int i, ret;

	ct_pair(test, CT_PORT_CREDITS, &opts, NULL, &opts, NULL);
	srv = c->ch[CT_SRV];
	cli = c->ch[CT_CLI];
	KUNIT_ASSERT_EQ(test, rdmachan_queue_depth(cli), 4U);

	for (i = 0; i < 6; i++) {
		v[i] = (struct kvec){ .iov_base = ct_payload(test, 8 + i, 0, i),
				      .iov_len = 8 + i };
		exp[i] = (struct ct_exp){ i, 8 + i, false, 0 };
	}
	KUNIT_EXPECT_EQ(test, rdmachan_send_msgs(cli, v, 6, 0, nb), 4);
	KUNIT_EXPECT_EQ(test, rdmachan_send(cli, &v[4], 1, 0, nb), -EAGAIN);
	KUNIT_EXPECT_EQ(test, rdmachan_send_msgs(cli, &v[4], 2, 0, nb),
			-EAGAIN);
	sg_init_one(&sg, v[4].iov_base, v[4].iov_len);
	KUNIT_EXPECT_EQ(test, rdmachan_send_sg(cli, &sg, 1, 0, nb), -EAGAIN);
	ct_wd_arm(c, CT_SHORT);
	ret = rdmachan_send(cli, &v[4], 1, 0, 0);
	fired = ct_wd_disarm(c);
	KUNIT_EXPECT_EQ(test, ret, -ERESTARTSYS);
	KUNIT_EXPECT_TRUE(test, fired);
	KUNIT_EXPECT_EQ(test, rdmachan_get_state(cli), RDMACHAN_CONNECTED);

	/* The receiver takes the four and holds them */
	c->held_ch = srv;
	for (i = 0; i < 4; i++) {
		ret = ct_pull(srv, &msg, false);
		KUNIT_ASSERT_EQ_MSG(test, ret, 0, "pulling message %d", i);
		ct_expect_msg(test, msg, 0, &exp[i], i);
		c->held[c->nr_held++] = msg;
	}
	KUNIT_EXPECT_EQ(test, rdmachan_recv(srv, &msg, RDMACHAN_RECV_NONBLOCK),
			-EAGAIN);

	/* One released: one credit comes back, one more message goes */
	rdmachan_msg_release(srv, c->held[0]);
	c->held[0] = c->held[--c->nr_held];
	deadline = jiffies + CT_TIMEOUT;
	do {
		ret = rdmachan_send(cli, &v[4], 1, 0, nb);
		if (ret == -EAGAIN)
			usleep_range(500, 1000);
	} while (ret == -EAGAIN && time_before(jiffies, deadline));
	KUNIT_EXPECT_EQ(test, ret, 0);
	KUNIT_EXPECT_EQ(test, rdmachan_send(cli, &v[5], 1, 0, nb), -EAGAIN);

	/* A blocked sender is woken by credits released later, elsewhere */
	c->release_from = 0;
	schedule_delayed_work(&c->release_work, HZ / 5);
	ct_wd_arm(c, CT_TIMEOUT);
	ret = rdmachan_send(cli, &v[5], 1, 0, 0);
	fired = ct_wd_disarm(c);
	flush_delayed_work(&c->release_work);
	KUNIT_EXPECT_EQ(test, ret, 0);
	KUNIT_EXPECT_FALSE(test, fired);
	KUNIT_EXPECT_EQ(test, c->nr_held, 0U);

	ct_pull_check(test, srv, 0, &exp[4], 2);
	KUNIT_EXPECT_EQ(test, rdmachan_recv(srv, &msg, RDMACHAN_RECV_NONBLOCK),
			-EAGAIN);
}

/**
 * struct ct_close_case - how the surviving end receives
 * @name: shown as the parameter
 * @push: it has a recv callback (else it pulls)
 * @port: the test's port
 */
struct ct_close_case {
	const char *name;
	bool push;
	u16 port;
};

static const struct ct_close_case ct_close_cases[] = {
	{ "pull", false, CT_PORT_CLOSE_PULL },
	{ "push", true, CT_PORT_CLOSE_PUSH },
};

static void ct_close_desc(const struct ct_close_case *cc, char *desc)
{
	strscpy(desc, cc->name, KUNIT_PARAM_DESC_SIZE);
}

KUNIT_ARRAY_PARAM(ct_close, ct_close_cases, ct_close_desc);

/*
 * Orderly close: the accepted end sends three messages and closes at
 * once.  Nothing is lost: the connected end gets all three (pushed before
 * its state_change, or pulled after it), then state_change DISCONNECTED
 * with error 0, once, in process context; rdmachan_get_state() says
 * DISCONNECTED and rdmachan_error() 0; rdmachan_recv() then returns
 * -EPIPE, blocking or not, and every sender -ECONNRESET.  Closing the
 * disconnected end calls no callback again.
 */
static void chan_test_close(struct kunit *test)
{
	const struct ct_close_case *cc = test->param_value;
	struct rdmachan_opts opts = { .queue_depth = 16, .max_msg_size = 4096 };
	static const u32 lens[] = { 1, 4096, 0 };
	const struct rdmachan_ops *ops = cc->push ? &ct_push_ops : &ct_pull_ops;
	struct ct_ctx *c = test->priv;
	struct ct_sink *s = &c->sink[CT_CLI], *ss = &c->sink[CT_SRV];
	struct ct_exp exp[ARRAY_SIZE(lens)];
	struct rdmachan_msg *msg = NULL;
	struct rdmachan *srv, *cli;
	struct scatterlist sg;
	struct kvec v;
	unsigned int i;
	bool fired;
	int ret;

	ct_pair(test, cc->port, &opts, &ct_pull_ops, &opts, ops);
	srv = c->ch[CT_SRV];
	cli = c->ch[CT_CLI];

	for (i = 0; i < ARRAY_SIZE(lens); i++) {
		v = (struct kvec){ .iov_base = ct_payload(test, lens[i], 1, i),
				   .iov_len = lens[i] };
		KUNIT_EXPECT_EQ(test, rdmachan_send(srv, &v, 1, 0, 0), 0);
		exp[i] = (struct ct_exp){ i, lens[i], false, 0 };
	}
	ct_close(c, CT_SRV);
	/* its own close may report DISCONNECTED, but nothing else */
	KUNIT_EXPECT_LE(test, ss->nr_state, 1U);
	if (ss->nr_state) {
		KUNIT_EXPECT_EQ(test, ss->state, RDMACHAN_DISCONNECTED);
		KUNIT_EXPECT_EQ(test, ss->err, 0);
		KUNIT_EXPECT_TRUE(test, ss->state_task);
	}

	KUNIT_ASSERT_TRUE_MSG(test,
			      wait_for_completion_timeout(&s->state_done,
							  CT_TIMEOUT) > 0,
			      "state_change after the peer closed");
	KUNIT_EXPECT_EQ(test, s->nr_state, 1U);
	KUNIT_EXPECT_EQ(test, s->state, RDMACHAN_DISCONNECTED);
	KUNIT_EXPECT_EQ(test, s->err, 0);
	KUNIT_EXPECT_TRUE_MSG(test, s->state_task,
			      "state_change in process context");
	KUNIT_EXPECT_EQ_MSG(test, s->state_preempt, 0U,
			    "state_change may sleep (preempt_count)");
	KUNIT_EXPECT_PTR_EQ(test, s->seen_ch, cli);
	KUNIT_EXPECT_EQ(test, rdmachan_get_state(cli), RDMACHAN_DISCONNECTED);
	KUNIT_EXPECT_EQ(test, rdmachan_error(cli), 0);

	if (cc->push) {
		KUNIT_EXPECT_EQ_MSG(test, s->nr_at_state,
				    (unsigned int)ARRAY_SIZE(lens),
				    "messages pushed before DISCONNECTED");
		ct_sink_check(test, s, cli, 1, exp, ARRAY_SIZE(lens));
	} else {
		ct_pull_check(test, cli, 1, exp, ARRAY_SIZE(lens));
		KUNIT_EXPECT_EQ(test, rdmachan_recv(cli, &msg,
						    RDMACHAN_RECV_NONBLOCK),
				-EPIPE);
		ct_wd_arm(c, CT_TIMEOUT);
		ret = rdmachan_recv(cli, &msg, 0);
		fired = ct_wd_disarm(c);
		KUNIT_EXPECT_EQ(test, ret, -EPIPE);
		KUNIT_EXPECT_FALSE(test, fired);
	}

	v = (struct kvec){ .iov_base = ct_payload(test, 8, 0, 0), .iov_len = 8 };
	KUNIT_EXPECT_EQ(test, rdmachan_send(cli, &v, 1, 0, 0), -ECONNRESET);
	KUNIT_EXPECT_EQ(test, rdmachan_send(cli, &v, 1, 0,
					    RDMACHAN_SEND_NONBLOCK),
			-ECONNRESET);
	KUNIT_EXPECT_EQ(test, rdmachan_send_msgs(cli, &v, 1, 0, 0),
			-ECONNRESET);
	sg_init_one(&sg, v.iov_base, v.iov_len);
	KUNIT_EXPECT_EQ(test, rdmachan_send_sg(cli, &sg, 1, 0, 0), -ECONNRESET);

	ct_close(c, CT_CLI);
	KUNIT_EXPECT_EQ(test, s->nr_state, 1U);
}

/*
 * A listener closed with a connection not yet accepted closes it (see
 * rdmachan_listener_close()) without the CLOSE of an orderly end: the
 * connected end fails.  state_change reports FAILED with -ECONNRESET,
 * once, in process context; rdmachan_error() says -ECONNRESET, and
 * rdmachan_recv() (blocking or not) and every sender return it.
 */
static void chan_test_abort(struct kunit *test)
{
	struct rdmachan_opts opts = { .queue_depth = 8, .max_msg_size = 1024 };
	struct ct_ctx *c = test->priv;
	struct ct_sink *s = &c->sink[CT_CLI];
	struct rdmachan_msg *msg = NULL;
	struct rdmachan *cli;
	struct kvec v;
	bool fired;
	int ret;

	KUNIT_ASSERT_EQ(test, ct_listen(c, CT_PORT_ABORT, &opts), 0);
	KUNIT_ASSERT_EQ(test, ct_connect(c, CT_PORT_ABORT, &opts, &ct_pull_ops,
					 CT_CLI), 0);
	cli = c->ch[CT_CLI];
	KUNIT_EXPECT_TRUE(test, wait_event_timeout(c->lrec.wq,
						   atomic_read(&c->lrec.nr) > 0,
						   CT_TIMEOUT) > 0);
	ct_close_listener(c);

	KUNIT_ASSERT_TRUE_MSG(test,
			      wait_for_completion_timeout(&s->state_done,
							  CT_TIMEOUT) > 0,
			      "state_change after the listener closed");
	KUNIT_EXPECT_EQ(test, s->nr_state, 1U);
	KUNIT_EXPECT_EQ(test, s->state, RDMACHAN_FAILED);
	KUNIT_EXPECT_EQ(test, s->err, -ECONNRESET);
	KUNIT_EXPECT_TRUE(test, s->state_task);
	KUNIT_EXPECT_EQ(test, s->state_preempt, 0U);
	KUNIT_EXPECT_EQ(test, rdmachan_get_state(cli), RDMACHAN_FAILED);
	KUNIT_EXPECT_EQ(test, rdmachan_error(cli), -ECONNRESET);

	KUNIT_EXPECT_EQ(test, rdmachan_recv(cli, &msg, RDMACHAN_RECV_NONBLOCK),
			-ECONNRESET);
	ct_wd_arm(c, CT_TIMEOUT);
	ret = rdmachan_recv(cli, &msg, 0);
	fired = ct_wd_disarm(c);
	KUNIT_EXPECT_EQ(test, ret, -ECONNRESET);
	KUNIT_EXPECT_FALSE(test, fired);
	KUNIT_EXPECT_NULL(test, msg);
	v = (struct kvec){ .iov_base = ct_payload(test, 8, 0, 0), .iov_len = 8 };
	KUNIT_EXPECT_EQ(test, rdmachan_send(cli, &v, 1, 0, 0), -ECONNRESET);
	KUNIT_EXPECT_EQ(test, rdmachan_send_msgs(cli, &v, 1, 0,
						 RDMACHAN_SEND_NONBLOCK),
			-ECONNRESET);

	ct_close(c, CT_CLI);
	KUNIT_EXPECT_EQ(test, s->nr_state, 1U);
}

#if IS_ENABLED(CONFIG_FAILSLAB)
/*
 * Is failslab set up as kunit.sh does it (every allocation of a task with
 * make_it_fail fails, GFP_KERNEL included)?
 */
static bool ct_failslab_armed(void)
{
	void *p;

	current->make_it_fail = 1;
	p = kmalloc(32, GFP_KERNEL | __GFP_NOWARN);
	current->make_it_fail = 0;
	kfree(p);
	return !p;
}

/* Does fail_nth reach GFP_KERNEL slab allocations (ignore-gfp-wait=N)? */
static bool ct_fail_nth_works(void)
{
	void *p;

	current->fail_nth = 1;
	p = kmalloc(32, GFP_KERNEL | __GFP_NOWARN);
	current->fail_nth = 0;
	kfree(p);
	return !p;
}

/* One message each way over a fresh pair: the error path left no harm. */
static void ct_pair_works(struct kunit *test, u16 port)
{
	struct rdmachan_opts opts = { .queue_depth = 8, .max_msg_size = 1024 };
	struct ct_ctx *c = test->priv;
	struct ct_exp e = { 3, 1024, true, 3 };
	struct kvec v;

	if (!c->l)
		KUNIT_ASSERT_EQ(test, ct_listen(c, port, &opts), 0);
	KUNIT_ASSERT_EQ(test, ct_connect(c, port, &opts, NULL, CT_CLI), 0);
	KUNIT_ASSERT_EQ(test, ct_accept(c, NULL, CT_SRV), 0);
	v = (struct kvec){ .iov_base = ct_payload(test, 1024, 0, 3),
			   .iov_len = 1024 };
	KUNIT_EXPECT_EQ(test, rdmachan_send(c->ch[CT_CLI], &v, 1, 3,
					    RDMACHAN_SEND_IMM), 0);
	ct_pull_check(test, c->ch[CT_SRV], 0, &e, 1);
	v.iov_base = ct_payload(test, 1024, 1, 3);
	KUNIT_EXPECT_EQ(test, rdmachan_send(c->ch[CT_SRV], &v, 1, 3,
					    RDMACHAN_SEND_IMM), 0);
	ct_pull_check(test, c->ch[CT_CLI], 1, &e, 1);
}

/* A connection to listener c->l comes through (after fail_nth=@n). */
static void ct_listener_works(struct kunit *test,
			      const struct rdmachan_opts *opts, unsigned int n)
{
	struct ct_ctx *c = test->priv;
	int ret;

	ret = ct_connect(c, CT_PORT_FAULT_NTH_LISTEN, opts, NULL, CT_CLI);
	KUNIT_EXPECT_EQ_MSG(test, ret, 0, "fail_nth=%u: connect", n);
	if (!ret)
		KUNIT_EXPECT_EQ_MSG(test, ct_accept(c, NULL, CT_SRV), 0,
				    "fail_nth=%u: accept", n);
	ct_close(c, CT_SRV);
	ct_close(c, CT_CLI);
}
#endif

/*
 * failslab fails every allocation of this thread (task-filter with
 * make_it_fail): rdmachan_listen() and rdmachan_connect() return -ENOMEM
 * and hand out nothing; the listener's port is not left bound, the
 * listener sees no connection, and a normal listen, connect and
 * exchange work right after (kmemleak checks for leaks after the VM's
 * tests).
 */
static void chan_test_fault_enomem(struct kunit *test)
{
#if IS_ENABLED(CONFIG_FAILSLAB)
	struct ct_ctx *c = test->priv;
	struct rdmachan_listener *l = NULL;
	struct rdmachan *ch = NULL;
	struct sockaddr_in dst, src;
	int ret;

	if (!ct_failslab_armed())
		kunit_skip(test, "failslab is not set up (see tests/vm/cases/kunit.sh)");

	ct_addr(&dst, CT_IP_SERVER, CT_PORT_FAULT_ENOMEM);
	ct_addr(&src, CT_IP_CLIENT, 0);
	current->make_it_fail = 1;
	ret = rdmachan_listen((struct sockaddr *)&dst, NULL, NULL, NULL, &l);
	current->make_it_fail = 0;
	KUNIT_EXPECT_EQ(test, ret, -ENOMEM);
	KUNIT_EXPECT_NULL(test, l);
	if (!ret)
		rdmachan_listener_close(l);

	KUNIT_ASSERT_EQ(test, ct_listen(c, CT_PORT_FAULT_ENOMEM, NULL), 0);
	current->make_it_fail = 1;
	ret = rdmachan_connect((struct sockaddr *)&dst, (struct sockaddr *)&src,
			       NULL, NULL, NULL, &ch);
	current->make_it_fail = 0;
	KUNIT_EXPECT_EQ(test, ret, -ENOMEM);
	KUNIT_EXPECT_NULL(test, ch);
	if (!ret)
		rdmachan_close(ch);
	msleep(100);
	ct_accept_none(test, c->l, -EAGAIN);
	KUNIT_EXPECT_EQ(test, atomic_read(&c->lrec.nr), 0);

	ct_pair_works(test, CT_PORT_FAULT_ENOMEM);
#else
	kunit_skip(test, "needs CONFIG_FAILSLAB");
#endif
}

/*
 * Systematic fault injection (current->fail_nth): for n = 1, 2, ... the
 * n-th fault-injection point that rdmachan_listen() reaches in this
 * thread fails, until a call reaches none.  Each call returns 0 or a
 * negative errno and hands out nothing when it fails; a listener it
 * returns despite the fault (e.g. without its sysfs directory) accepts a
 * connection; afterwards a normal pair works.
 */
static void chan_test_fault_nth_listen(struct kunit *test)
{
#if IS_ENABLED(CONFIG_FAILSLAB)
	struct rdmachan_opts opts = { .queue_depth = 8, .max_msg_size = 1024 };
	struct ct_ctx *c = test->priv;
	unsigned int n, left = 0, failed = 0, enomem = 0;
	struct sockaddr_in sin;
	int ret;

	if (!ct_fail_nth_works())
		kunit_skip(test, "failslab is not set up (see tests/vm/cases/kunit.sh)");

	ct_addr(&sin, CT_IP_SERVER, CT_PORT_FAULT_NTH_LISTEN);
	for (n = 1; n <= CT_NTH_MAX; n++) {
		struct rdmachan_listener *l = NULL;

		current->fail_nth = n;
		ret = rdmachan_listen((struct sockaddr *)&sin, &opts,
				      ct_pending, &c->lrec, &l);
		left = current->fail_nth;
		current->fail_nth = 0;
		if (ret) {
			KUNIT_EXPECT_LT_MSG(test, ret, 0, "fail_nth=%u", n);
			KUNIT_EXPECT_GE_MSG(test, ret, -MAX_ERRNO,
					    "fail_nth=%u", n);
			KUNIT_EXPECT_NULL_MSG(test, l, "fail_nth=%u", n);
			failed++;
			enomem += ret == -ENOMEM;
			if (ret != -ENOMEM)
				kunit_info(test, "fail_nth=%u: rdmachan_listen() = %d\n",
					   n, ret);
			if (left)
				KUNIT_FAIL(test, "fail_nth=%u: %d with no fault",
					   n, ret);
		} else if (l) {
			c->l = l;
			if (!left)	/* returned despite the fault */
				ct_listener_works(test, &opts, n);
			ct_close_listener(c);
		} else {
			KUNIT_FAIL(test, "fail_nth=%u: 0 and no listener", n);
		}
		if (left)
			break;
	}
	kunit_info(test, "rdmachan_listen(): %u fault points, %u failed calls (%u -ENOMEM)\n",
		   n - 1, failed, enomem);
	KUNIT_EXPECT_LE_MSG(test, n, (unsigned int)CT_NTH_MAX,
			    "no clean call in %d", CT_NTH_MAX);
	KUNIT_EXPECT_GT(test, enomem, 0U);

	ct_pair_works(test, CT_PORT_FAULT_NTH_LISTEN);
#else
	kunit_skip(test, "needs CONFIG_FAILSLAB");
#endif
}

/*
 * The same for rdmachan_connect() to a live listener (the work done in
 * this thread: allocation, rdma_cm identifier, address resolution, sysfs;
 * the rest runs in rdma_cm's workers).  A connect that succeeds despite
 * the fault is accepted, used and closed; one that fails leaves nothing
 * on the listener.
 */
static void chan_test_fault_nth_connect(struct kunit *test)
{
#if IS_ENABLED(CONFIG_FAILSLAB)
	/*
	 * The timeout only bounds a connect that a fault leaves waiting; a
	 * clean connect must never reach it: on the debug kernel under TCG
	 * with the host busy one took over 3 s and failed the test.
	 */
	struct rdmachan_opts opts = {
		.queue_depth = 8, .max_msg_size = 1024, .timeout_ms = 20000,
	};
	struct ct_ctx *c = test->priv;
	unsigned int n, left = 0, failed = 0, enomem = 0;
	struct sockaddr_in dst, src;
	struct ct_exp e = { 1, 10, false, 0 };
	struct kvec v;
	int ret;

	if (!ct_fail_nth_works())
		kunit_skip(test, "failslab is not set up (see tests/vm/cases/kunit.sh)");

	KUNIT_ASSERT_EQ(test, ct_listen(c, CT_PORT_FAULT_NTH_CONNECT, &opts),
			0);
	ct_addr(&dst, CT_IP_SERVER, CT_PORT_FAULT_NTH_CONNECT);
	ct_addr(&src, CT_IP_CLIENT, 0);
	v = (struct kvec){ .iov_base = ct_payload(test, 10, 0, 1),
			   .iov_len = 10 };
	for (n = 1; n <= CT_NTH_MAX; n++) {
		struct rdmachan *ch = NULL;

		current->fail_nth = n;
		ret = rdmachan_connect((struct sockaddr *)&dst,
				       (struct sockaddr *)&src, &opts, NULL,
				       &c->sink[CT_CLI], &ch);
		left = current->fail_nth;
		current->fail_nth = 0;
		if (ret) {
			KUNIT_EXPECT_LT_MSG(test, ret, 0, "fail_nth=%u", n);
			KUNIT_EXPECT_GE_MSG(test, ret, -MAX_ERRNO,
					    "fail_nth=%u", n);
			KUNIT_EXPECT_NULL_MSG(test, ch, "fail_nth=%u", n);
			failed++;
			enomem += ret == -ENOMEM;
			if (ret != -ENOMEM)
				kunit_info(test, "fail_nth=%u: rdmachan_connect() = %d\n",
					   n, ret);
			if (left)
				KUNIT_FAIL(test, "fail_nth=%u: %d with no fault",
					   n, ret);
			if (left)
				break;
			continue;
		}
		KUNIT_EXPECT_NOT_NULL(test, ch);
		if (!ch)
			break;
		c->ch[CT_CLI] = ch;
		ret = ct_accept(c, NULL, CT_SRV);
		KUNIT_EXPECT_EQ_MSG(test, ret, 0, "fail_nth=%u: accept", n);
		if (!ret) {
			KUNIT_EXPECT_EQ(test, rdmachan_send(ch, &v, 1, 0, 0), 0);
			ct_pull_check(test, c->ch[CT_SRV], 0, &e, 1);
		}
		ct_close(c, CT_SRV);
		ct_close(c, CT_CLI);
		if (left)
			break;
	}
	kunit_info(test, "rdmachan_connect(): %u fault points, %u failed calls (%u -ENOMEM)\n",
		   n - 1, failed, enomem);
	KUNIT_EXPECT_LE_MSG(test, n, (unsigned int)CT_NTH_MAX,
			    "no clean call in %d", CT_NTH_MAX);
	KUNIT_EXPECT_GT(test, enomem, 0U);

	/* Nothing failed half-way is left on the listener */
	msleep(100);
	KUNIT_EXPECT_EQ(test, rdmachan_accept(c->l, NULL, NULL,
					      RDMACHAN_ACCEPT_NONBLOCK,
					      &c->ch[CT_SRV]), -EAGAIN);
	/* one that was (the failure above) is closed, not leaked */
	ct_close(c, CT_SRV);
	ct_pair_works(test, CT_PORT_FAULT_NTH_CONNECT);
#else
	kunit_skip(test, "needs CONFIG_FAILSLAB");
#endif
}

/* What the failed callback of a listener saw */
struct ct_lfail {
	atomic_t nr;
	int err;
	struct rdmachan_listener *l;
	struct task_struct *task;
	wait_queue_head_t wq;
};

static void ct_listener_failed(struct rdmachan_listener *l, int err)
{
	struct ct_lfail *f = rdmachan_listener_priv(l);

	f->err = err;
	f->l = l;
	f->task = current;
	atomic_inc(&f->nr);
	wake_up_all(&f->wq);
}

static const struct rdmachan_listener_ops ct_lfail_ops = {
	.failed = ct_listener_failed,
};

/* run "/usr/bin/rdma @cmd..." (NULL-terminated), wait: its status */
static int ct_rdma_cmd(char **cmd)
{
	static char *envp[] = { "PATH=/usr/sbin:/usr/bin:/sbin:/bin", NULL };
	char *argv[10] = { "/usr/bin/rdma" };
	int i;

	for (i = 0; cmd[i] && i < 8; i++)
		argv[i + 1] = cmd[i];
	return call_usermodehelper(argv[0], argv, envp, UMH_WAIT_PROC);
}

/*
 * The device of a listener's address goes away ("rdma link delete rxe0",
 * run from here): its failed callback runs once, with -ENODEV, in process
 * context; accept then fails with -ENODEV.  A listener closed before the
 * removal is not called.  rxe0 is added back afterwards: the last case.
 */
static void chan_test_listener_device_removed(struct kunit *test)
{
	struct rdmachan_listener *l = NULL, *closed = NULL;
	struct ct_lfail f = {}, fc = {};
	struct rdmachan *ch = NULL;
	struct sockaddr_in sin;
	int ret;

	init_waitqueue_head(&f.wq);
	init_waitqueue_head(&fc.wq);
	ct_addr(&sin, CT_IP_SERVER, CT_PORT_DEVREMOVE);
	KUNIT_ASSERT_EQ(test, rdmachan_listen_ops((struct sockaddr *)&sin, NULL,
						  &ct_lfail_ops, &f, &l), 0);
	ct_addr(&sin, CT_IP_SERVER, CT_PORT_DEVREMOVE_CLOSED);
	KUNIT_ASSERT_EQ(test, rdmachan_listen_ops((struct sockaddr *)&sin, NULL,
						  &ct_lfail_ops, &fc, &closed),
			0);
	rdmachan_listener_close(closed);
	ct_accept_none(test, l, -EAGAIN);
	KUNIT_EXPECT_EQ(test, atomic_read(&f.nr), 0);

	ret = ct_rdma_cmd((char *[]){ "link", "delete", "rxe0", NULL });
	KUNIT_EXPECT_EQ(test, ret, 0);
	KUNIT_EXPECT_GT(test, wait_event_timeout(f.wq, atomic_read(&f.nr) > 0,
						 CT_TIMEOUT), 0L);
	KUNIT_EXPECT_EQ(test, atomic_read(&f.nr), 1);
	KUNIT_EXPECT_EQ(test, f.err, -ENODEV);
	KUNIT_EXPECT_PTR_EQ(test, f.l, l);
	/* the removal's own task, not one of ours or an interrupt */
	KUNIT_EXPECT_PTR_NE(test, f.task, current);
	KUNIT_EXPECT_EQ(test, rdmachan_accept(l, NULL, NULL, 0, &ch), -ENODEV);
	ct_accept_none(test, l, -ENODEV);
	KUNIT_EXPECT_NULL(test, ch);
	rdmachan_listener_close(l);
	KUNIT_EXPECT_EQ(test, atomic_read(&f.nr), 1);
	KUNIT_EXPECT_EQ(test, atomic_read(&fc.nr), 0);

	/* put the fixture back */
	ret = ct_rdma_cmd((char *[]){ "link", "add", "rxe0", "type", "rxe",
				      "netdev", "veth0", NULL });
	if (ret)
		kunit_info(test, "rdma link add rxe0 again: %d\n", ret);
}

/* ---- the storage user's API --------------------------------------------- */

#define CT_POOL_PAGES	4
#define CT_IMM_REPLY	0x00c0ffee

/* Wait until @a reaches @n; false on timeout. */
static bool ct_wait_atomic(struct ct_sink *s, atomic_t *a, int n)
{
	return wait_event_timeout(s->wq, atomic_read(a) >= n, CT_TIMEOUT) > 0;
}

/*
 * The client maps @buf through its pool and sends the registration's
 * descriptor with the fast registration in front (rdmachan_send_ext()),
 * the server pulls it and RDMA WRITEs @len bytes of @pattern into it.
 * Return: the client's registration (the test puts it back).
 */
static struct rdmachan_mr *ct_pool_io(struct kunit *test, void *buf, u32 len,
				      u8 pattern,
				      struct rdmachan_remote_mr *desc)
{
	struct ct_ctx *c = test->priv;
	struct rdmachan *srv = c->ch[CT_SRV], *cli = c->ch[CT_CLI];
	const u32 rw = RDMACHAN_ACCESS_LOCAL_WRITE |
		       RDMACHAN_ACCESS_REMOTE_WRITE;
	struct rdmachan_send_ext ext = { .nr_regs = 1 };
	struct rdmachan_remote_mr got;
	struct rdmachan_msg *msg = NULL;
	struct rdmachan_mr *mr = NULL;
	struct rdmachan_seg seg;
	struct rdmachan_op op;
	struct scatterlist sg;
	struct kvec v;
	void *src;

	memset(buf, 0, len);
	sg_init_one(&sg, buf, len);
	KUNIT_ASSERT_EQ(test, rdmachan_mr_pool_map(c->pool, &sg, 1, rw, &mr),
			0);
	rdmachan_mr_remote(mr, desc);
	KUNIT_EXPECT_EQ(test, desc->length, (u64)len);
	ext.regs = &mr;
	v = (struct kvec){ .iov_base = desc, .iov_len = sizeof(*desc) };
	KUNIT_ASSERT_EQ(test, rdmachan_send_ext(cli, &v, 1, 0,
						RDMACHAN_SEND_NONBLOCK, &ext),
			0);
	/* a registration goes out once */
	KUNIT_EXPECT_EQ(test, rdmachan_send_ext(cli, &v, 1, 0,
						RDMACHAN_SEND_NONBLOCK, &ext),
			-EINVAL);

	KUNIT_ASSERT_EQ(test, ct_pull(srv, &msg, false), 0);
	KUNIT_ASSERT_EQ(test, msg->len, (u32)sizeof(got));
	memcpy(&got, msg->data, sizeof(got));
	rdmachan_msg_release(srv, msg);
	KUNIT_EXPECT_EQ(test, got.rkey, desc->rkey);

	/* the server's source: a kernel registration of its own, made once */
	if (!c->kmr[CT_SRV]) {
		src = kunit_kmalloc(test, len, GFP_KERNEL);
		KUNIT_ASSERT_NOT_NULL(test, src);
		KUNIT_ASSERT_EQ(test, rdmachan_mr_reg_kbuf(srv, src, len, 0,
							   &c->kmr[CT_SRV]),
				0);
		c->pool_src = src;
		c->pool_src_len = len;
	} else if (c->pool_src_len < len) {
		KUNIT_FAIL(test, "the source registration is too short");
	}
	memset(c->pool_src, pattern, len);
	seg = (struct rdmachan_seg){ .mr = c->kmr[CT_SRV], .length = len };
	op = (struct rdmachan_op){ .opcode = RDMACHAN_OP_WRITE, .segs = &seg,
				   .nr_segs = 1, .remote_addr = got.addr,
				   .rkey = got.rkey };
	KUNIT_EXPECT_EQ(test, rdmachan_rdma(srv, &op, 1), 0);
	return mr;
}

/* The client pulls the reply; checks its immediate and invalidation. */
static void ct_pool_reply(struct kunit *test, bool inv, u32 rkey)
{
	struct ct_ctx *c = test->priv;
	struct rdmachan *cli = c->ch[CT_CLI];
	struct rdmachan_msg *msg = NULL;

	KUNIT_ASSERT_EQ(test, ct_pull(cli, &msg, false), 0);
	KUNIT_EXPECT_EQ(test, msg->len, 0U);
	KUNIT_EXPECT_TRUE(test, msg->has_imm);
	KUNIT_EXPECT_EQ(test, msg->imm, (u32)CT_IMM_REPLY);
	KUNIT_EXPECT_EQ(test, msg->invalidated, inv);
	if (inv)
		KUNIT_EXPECT_EQ(test, msg->inv_rkey, rkey);
	rdmachan_msg_release(cli, msg);
}

static void ct_pool_pair(struct kunit *test, u16 port, u32 count)
{
	struct rdmachan_opts opts = { .queue_depth = 8, .max_msg_size = 256,
				      .max_send_regs = 1 };
	struct ct_ctx *c = test->priv;
	struct rdmachan_mr_pool *pool = NULL;

	ct_pair(test, port, &opts, &ct_store_ops, &opts, &ct_store_ops);
	KUNIT_ASSERT_GE(test, rdmachan_max_reg_pages(c->ch[CT_CLI]),
			(u32)CT_POOL_PAGES);
	/* bounded by queue_depth * max_send_regs */
	KUNIT_EXPECT_EQ(test, rdmachan_mr_pool_create(c->ch[CT_CLI], 9,
						      CT_POOL_PAGES, &pool),
			-EINVAL);
	KUNIT_EXPECT_EQ(test, rdmachan_mr_pool_create(c->ch[CT_CLI], count,
						      CT_POOL_PAGES + 1 +
						      rdmachan_max_reg_pages(c->ch[CT_CLI]),
						      &pool),
			-EINVAL);
	KUNIT_ASSERT_EQ(test, rdmachan_mr_pool_create(c->ch[CT_CLI], count,
						      CT_POOL_PAGES, &c->pool),
			0);
}

/*
 * The block protocol's READ: the client maps its buffer through a pool
 * and sends the registration in front of the request; the server WRITEs
 * into it and replies with an empty message whose immediate is the
 * status, sent with SEND_INV of the rkey: the client sees the
 * invalidation and its rkey, the immediate all the same, and puts the
 * registration back at once.  A new map of the same MR has a new rkey;
 * an empty pool says -EAGAIN, too many pages -E2BIG.
 */
static void chan_test_pool_send_inv(struct kunit *test)
{
	const u32 len = 2 * PAGE_SIZE;
	struct ct_ctx *c = test->priv;
	struct rdmachan *srv, *cli;
	struct rdmachan_send_ext ext = {};
	struct rdmachan_remote_mr desc, desc2;
	struct rdmachan_mr *mr, *mr2 = NULL;
	struct scatterlist sg;
	void *buf;
	u32 i;

	ct_pool_pair(test, CT_PORT_POOL_SEND_INV, 1);
	srv = c->ch[CT_SRV];
	cli = c->ch[CT_CLI];
	KUNIT_ASSERT_TRUE(test, rdmachan_can_send_inv(cli));
	KUNIT_ASSERT_TRUE(test, rdmachan_can_send_inv(srv));
	buf = kunit_kmalloc(test, len, GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, buf);

	mr = ct_pool_io(test, buf, len, 0x5a, &desc);
	for (i = 0; i < len; i++)
		if (((u8 *)buf)[i] != 0x5a)
			break;
	KUNIT_EXPECT_EQ_MSG(test, i, len, "the peer's WRITE landed");

	/* the pool's one registration is out */
	sg_init_one(&sg, buf, len);
	KUNIT_EXPECT_EQ(test, rdmachan_mr_pool_map(c->pool, &sg, 1,
						   RDMACHAN_ACCESS_LOCAL_WRITE,
						   &mr2),
			-EAGAIN);

	ext.inv_rkey = desc.rkey;
	KUNIT_EXPECT_EQ(test, rdmachan_send_ext(srv, NULL, 0, CT_IMM_REPLY,
						RDMACHAN_SEND_IMM |
						RDMACHAN_SEND_INV, &ext),
			0);
	ct_pool_reply(test, true, desc.rkey);
	KUNIT_EXPECT_EQ(test, rdmachan_mr_pool_put(mr, true, ct_pool_done,
						   &c->sink[CT_CLI]),
			0);
	KUNIT_EXPECT_EQ(test, atomic_read(&c->sink[CT_CLI].nr_done), 0);

	/* the same MR again: a new rkey, never the old one */
	KUNIT_ASSERT_EQ(test, rdmachan_mr_pool_map(c->pool, &sg, 1,
						   RDMACHAN_ACCESS_LOCAL_WRITE,
						   &mr2),
			0);
	KUNIT_EXPECT_PTR_EQ(test, mr2, mr);
	rdmachan_mr_remote(mr2, &desc2);
	KUNIT_EXPECT_NE(test, desc2.rkey, desc.rkey);
	/* never sent: back at once */
	KUNIT_EXPECT_EQ(test, rdmachan_mr_pool_put(mr2, false, NULL, NULL), 0);

	/* more pages than the pool maps */
	sg_init_one(&sg, buf, (CT_POOL_PAGES + 1) * PAGE_SIZE);
	KUNIT_EXPECT_EQ(test, rdmachan_mr_pool_map(c->pool, &sg, 1,
						   RDMACHAN_ACCESS_LOCAL_WRITE,
						   &mr2),
			-E2BIG);

	/* the channel still works both ways */
	KUNIT_EXPECT_EQ(test, rdmachan_get_state(cli), RDMACHAN_CONNECTED);
	KUNIT_EXPECT_EQ(test, rdmachan_get_state(srv), RDMACHAN_CONNECTED);
}

/*
 * Mappings never sent (rdmachan_send_ext() refused, or the user changed
 * its mind) bump the MR's key without a REG_MR: the device still holds
 * the key of the last one posted.  The next registration sent must still
 * go through (on rxe its fence invalidates the device's key, not the
 * mapping's: a wrong one fails the send queue), and so must the one after
 * the peer's SEND_INV: the registration is never posted while the device
 * may hold it valid.
 */
static void chan_test_pool_unsent(struct kunit *test)
{
	const u32 len = PAGE_SIZE;
	const u32 rw = RDMACHAN_ACCESS_LOCAL_WRITE | RDMACHAN_ACCESS_REMOTE_WRITE;
	struct ct_ctx *c = test->priv;
	struct rdmachan_send_ext ext = { .nr_regs = 1 };
	struct rdmachan_remote_mr desc, desc2;
	struct rdmachan_mr *mr, *mr2 = NULL;
	struct rdmachan_msg *msg = NULL;
	struct rdmachan *srv, *cli;
	struct scatterlist sg;
	struct kvec v;
	void *buf;
	int i;

	ct_pool_pair(test, CT_PORT_POOL_UNSENT, 1);
	srv = c->ch[CT_SRV];
	cli = c->ch[CT_CLI];
	KUNIT_ASSERT_TRUE(test, rdmachan_can_send_inv(srv));
	buf = kunit_kmalloc(test, len, GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, buf);
	sg_init_one(&sg, buf, len);
	for (i = 0; i < 3; i++) {
		KUNIT_ASSERT_EQ(test, rdmachan_mr_pool_map(c->pool, &sg, 1, rw,
							   &mr2),
				0);
		KUNIT_EXPECT_EQ(test, rdmachan_mr_pool_put(mr2, false, NULL,
							   NULL),
				0);
	}

	mr = ct_pool_io(test, buf, len, 0x3c, &desc);
	KUNIT_EXPECT_EQ(test, ((u8 *)buf)[len - 1], 0x3c);
	ext.inv_rkey = desc.rkey;
	ext.nr_regs = 0;
	KUNIT_EXPECT_EQ(test, rdmachan_send_ext(srv, NULL, 0, CT_IMM_REPLY,
						RDMACHAN_SEND_IMM |
						RDMACHAN_SEND_INV, &ext),
			0);
	ct_pool_reply(test, true, desc.rkey);
	KUNIT_EXPECT_EQ(test, rdmachan_mr_pool_put(mr, true, NULL, NULL), 0);

	/* invalidated by the peer: it maps and goes out again */
	KUNIT_ASSERT_EQ(test, rdmachan_mr_pool_map(c->pool, &sg, 1, rw, &mr2),
			0);
	KUNIT_EXPECT_PTR_EQ(test, mr2, mr);
	rdmachan_mr_remote(mr2, &desc2);
	ext.regs = &mr2;
	ext.nr_regs = 1;
	v = (struct kvec){ .iov_base = &desc2, .iov_len = sizeof(desc2) };
	KUNIT_ASSERT_EQ(test, rdmachan_send_ext(cli, &v, 1, 0,
						RDMACHAN_SEND_NONBLOCK, &ext),
			0);
	KUNIT_ASSERT_EQ(test, ct_pull(srv, &msg, false), 0);
	rdmachan_msg_release(srv, msg);
	ext.inv_rkey = desc2.rkey;
	ext.nr_regs = 0;
	KUNIT_EXPECT_EQ(test, rdmachan_send_ext(srv, NULL, 0, CT_IMM_REPLY,
						RDMACHAN_SEND_IMM |
						RDMACHAN_SEND_INV, &ext),
			0);
	ct_pool_reply(test, true, desc2.rkey);
	KUNIT_EXPECT_EQ(test, rdmachan_mr_pool_put(mr2, true, NULL, NULL), 0);
	KUNIT_EXPECT_EQ(test, rdmachan_get_state(cli), RDMACHAN_CONNECTED);
	KUNIT_EXPECT_EQ(test, rdmachan_get_state(srv), RDMACHAN_CONNECTED);
}

/*
 * The same without SEND_INV: the reply is not flagged, so the client's
 * put posts a local invalidation (-EINPROGRESS) and its callback runs
 * once the registration is back; the next I/O's registration goes out
 * right behind that invalidation; then it maps again.
 */
static void chan_test_pool_local_inv(struct kunit *test)
{
	const u32 len = PAGE_SIZE;
	struct ct_ctx *c = test->priv;
	struct ct_sink *s = &c->sink[CT_CLI];
	struct rdmachan_remote_mr desc;
	struct rdmachan_mr *mr, *mr2 = NULL;
	struct scatterlist sg;
	struct kvec v = {};
	void *buf;

	ct_pool_pair(test, CT_PORT_POOL_LOCAL_INV, 1);
	buf = kunit_kmalloc(test, len, GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, buf);
	mr = ct_pool_io(test, buf, len, 0xa5, &desc);
	KUNIT_EXPECT_EQ(test, ((u8 *)buf)[len - 1], 0xa5);

	KUNIT_EXPECT_EQ(test, rdmachan_send(c->ch[CT_SRV], &v, 0, CT_IMM_REPLY,
					    RDMACHAN_SEND_IMM),
			0);
	ct_pool_reply(test, false, 0);
	KUNIT_EXPECT_EQ(test, rdmachan_mr_pool_put(mr, false, ct_pool_done, s),
			-EINPROGRESS);
	KUNIT_EXPECT_TRUE(test, ct_wait_atomic(s, &s->nr_done, 1));
	KUNIT_EXPECT_EQ(test, s->done_err, 0);
	KUNIT_EXPECT_EQ(test, atomic_read(&s->nr_done), 1);

	/*
	 * The next I/O's registration goes out right behind that LOCAL_INV,
	 * on rxe without a fence of its own (chan_pool.c): valid when the
	 * server's WRITE comes, and invalidated again after.
	 */
	mr2 = ct_pool_io(test, buf, len, 0x5b, &desc);
	KUNIT_EXPECT_PTR_EQ(test, mr2, mr);
	KUNIT_EXPECT_EQ(test, ((u8 *)buf)[len - 1], 0x5b);
	KUNIT_EXPECT_EQ(test, rdmachan_send(c->ch[CT_SRV], &v, 0, CT_IMM_REPLY,
					    RDMACHAN_SEND_IMM),
			0);
	ct_pool_reply(test, false, 0);
	KUNIT_EXPECT_EQ(test, rdmachan_mr_pool_put(mr2, false, ct_pool_done,
						   s),
			-EINPROGRESS);
	KUNIT_EXPECT_TRUE(test, ct_wait_atomic(s, &s->nr_done, 2));
	KUNIT_EXPECT_EQ(test, s->done_err, 0);

	sg_init_one(&sg, buf, len);
	KUNIT_ASSERT_EQ(test, rdmachan_mr_pool_map(c->pool, &sg, 1,
						   RDMACHAN_ACCESS_LOCAL_WRITE,
						   &mr2),
			0);
	KUNIT_EXPECT_EQ(test, rdmachan_mr_pool_put(mr2, false, NULL, NULL), 0);
	KUNIT_EXPECT_EQ(test, rdmachan_get_state(c->ch[CT_CLI]),
			RDMACHAN_CONNECTED);
}

/*
 * NONBLOCK sends until -EAGAIN (the receiver holds every message): no
 * writable callback yet; the receiver releases them, the credits come
 * back, and ->writable runs once, in the completion context.
 */
static void chan_test_writable_send(struct kunit *test)
{
	struct rdmachan_opts opts = { .queue_depth = 4, .max_msg_size = 64 };
	struct ct_ctx *c = test->priv;
	struct ct_sink *s = &c->sink[CT_CLI];
	struct rdmachan_msg *msg = NULL;
	struct rdmachan *srv, *cli;
	u8 byte = 1;
	struct kvec v = { .iov_base = &byte, .iov_len = 1 };
	int i, ret = 0, sent = 0;

	ct_pair(test, CT_PORT_WRITABLE_SEND, &opts, &ct_store_ops, &opts,
		&ct_store_ops);
	srv = c->ch[CT_SRV];
	cli = c->ch[CT_CLI];
	for (i = 0; i < 16; i++) {
		ret = rdmachan_send_ext(cli, &v, 1, 0, RDMACHAN_SEND_NONBLOCK,
					NULL);
		if (ret)
			break;
		sent++;
	}
	KUNIT_EXPECT_EQ(test, ret, -EAGAIN);
	KUNIT_EXPECT_EQ(test, sent, 4);
	/* a second refusal before room returns: still one call */
	KUNIT_EXPECT_EQ(test, rdmachan_send(cli, &v, 1, 0,
					    RDMACHAN_SEND_NONBLOCK),
			-EAGAIN);
	msleep(100);
	KUNIT_EXPECT_EQ(test, atomic_read(&s->nr_writable), 0);

	for (i = 0; i < sent; i++) {
		KUNIT_ASSERT_EQ(test, ct_pull(srv, &msg, false), 0);
		rdmachan_msg_release(srv, msg);
	}
	KUNIT_EXPECT_TRUE(test, ct_wait_atomic(s, &s->nr_writable, 1));
	msleep(200);
	KUNIT_EXPECT_EQ(test, atomic_read(&s->nr_writable), 1);
	KUNIT_EXPECT_EQ(test, atomic_read(&s->writable_task), 0);
	KUNIT_EXPECT_EQ(test, rdmachan_send(cli, &v, 1, 0,
					    RDMACHAN_SEND_NONBLOCK),
			0);
}

/*
 * rdmachan_rdma_start() from the server's recv callback (softirq): the
 * WRITE lands and its end runs.  Then, with bottom halves off so that no
 * completion can run on this CPU, single-op starts fill the one-sided
 * room until -EAGAIN; once they complete ->writable runs, and a start
 * goes again.
 */
static void chan_test_rdma_start(struct kunit *test)
{
	struct rdmachan_opts opts = { .queue_depth = 8, .max_msg_size = 256 };
	const u32 len = 64;
	struct ct_ctx *c = test->priv;
	struct ct_sink *s = &c->sink[CT_SRV];
	struct rdmachan_remote_mr desc;
	struct rdmachan_op *ops;
	struct rdmachan_seg *seg;
	struct rdmachan *srv, *cli;
	u8 *dst, *src;
	struct kvec v;
	int i, n, ret = 0, started = 0;

	ct_pair(test, CT_PORT_RDMA_START, &opts, &ct_start_ops, &opts,
		&ct_store_ops);
	srv = c->ch[CT_SRV];
	cli = c->ch[CT_CLI];
	dst = kunit_kzalloc(test, len, GFP_KERNEL);
	src = kunit_kmalloc(test, len, GFP_KERNEL);
	n = 200;
	ops = kunit_kcalloc(test, n, sizeof(*ops), GFP_KERNEL);
	seg = kunit_kzalloc(test, sizeof(*seg), GFP_KERNEL);
	KUNIT_ASSERT_TRUE(test, dst && src && ops && seg);
	memset(src, 0x3c, len);
	KUNIT_ASSERT_EQ(test, rdmachan_mr_reg_kbuf(cli, dst, len,
						   RDMACHAN_ACCESS_LOCAL_WRITE |
						   RDMACHAN_ACCESS_REMOTE_WRITE,
						   &c->kmr[CT_CLI]),
			0);
	KUNIT_ASSERT_EQ(test, rdmachan_mr_reg_kbuf(srv, src, len, 0,
						   &c->kmr[CT_SRV]),
			0);
	rdmachan_mr_remote(c->kmr[CT_CLI], &desc);
	*seg = (struct rdmachan_seg){ .mr = c->kmr[CT_SRV], .length = len };
	for (i = 0; i < n; i++)
		ops[i] = (struct rdmachan_op){ .opcode = RDMACHAN_OP_WRITE,
					       .segs = seg, .nr_segs = 1,
					       .remote_addr = desc.addr,
					       .rkey = desc.rkey };
	s->start_ops = &ops[0];
	s->start_count = 1;
	v = (struct kvec){ .iov_base = &desc, .iov_len = sizeof(desc) };
	KUNIT_ASSERT_EQ(test, rdmachan_send(cli, &v, 1, 0, 0), 0);
	KUNIT_ASSERT_TRUE(test, ct_sink_wait(s, 1));
	KUNIT_EXPECT_TRUE(test, s->start_called);
	KUNIT_EXPECT_EQ(test, s->start_ret, 0);
	KUNIT_EXPECT_TRUE(test, s->start_bh);
	KUNIT_EXPECT_TRUE(test, ct_wait_atomic(s, &s->nr_end, 1));
	KUNIT_EXPECT_EQ(test, s->end_err, 0);
	KUNIT_EXPECT_EQ(test, ops[0].status, 0);
	KUNIT_EXPECT_EQ(test, memcmp(dst, src, len), 0);

	/* fill the one-sided room without letting a completion run here */
	local_bh_disable();
	for (i = 1; i < n; i++) {
		ret = rdmachan_rdma_start(srv, &ops[i], 1, ct_start_end, s);
		if (ret)
			break;
		started++;
	}
	local_bh_enable();
	if (ret != -EAGAIN) {
		kunit_info(test, "%d starts, no -EAGAIN (%d): completions ran elsewhere\n",
			   started, ret);
		KUNIT_EXPECT_EQ(test, ret, 0);
	} else {
		KUNIT_EXPECT_EQ(test, ops[i].status, -ECANCELED);
		KUNIT_EXPECT_TRUE(test, ct_wait_atomic(s, &s->nr_writable, 1));
	}
	KUNIT_EXPECT_TRUE(test, ct_wait_atomic(s, &s->nr_end, 1 + started));
	KUNIT_EXPECT_EQ(test, s->end_err, 0);
	KUNIT_EXPECT_EQ(test, rdmachan_rdma_start(srv, &ops[n - 1], 1,
						  ct_start_end, s),
			0);
	KUNIT_EXPECT_TRUE(test, ct_wait_atomic(s, &s->nr_end, 2 + started));

	/* from hard interrupt context */
	c->hrt_ch = srv;
	c->hrt_op = &ops[0];
	hrtimer_start(&c->hrt, ms_to_ktime(1), HRTIMER_MODE_REL_HARD);
	KUNIT_ASSERT_TRUE(test, ct_wait_atomic(s, &c->hrt_fired, 1));
	KUNIT_EXPECT_TRUE(test, c->hrt_hard);
	KUNIT_EXPECT_EQ(test, c->hrt_ret, 0);
	KUNIT_EXPECT_TRUE(test, ct_wait_atomic(s, &s->nr_end, 3 + started));
	KUNIT_EXPECT_EQ(test, ops[0].status, 0);
	KUNIT_EXPECT_EQ(test, rdmachan_get_state(srv), RDMACHAN_CONNECTED);
}

/*
 * The peer closes while the client has one registration sent (valid on
 * the wire) and one only mapped: the client's channel is torn down (its
 * state_change reports it), after which mapping fails with the channel's
 * error (not -EAGAIN), both registrations go back at once (0, no
 * callback), a non-blocking send and rdmachan_rdma_start() fail, and the
 * pool is destroyed before the close (ct_exit()) without a warning.
 */
static void chan_test_pool_teardown(struct kunit *test)
{
	const u32 len = PAGE_SIZE;
	const u32 rw = RDMACHAN_ACCESS_LOCAL_WRITE |
		       RDMACHAN_ACCESS_REMOTE_WRITE;
	struct ct_ctx *c = test->priv;
	struct ct_sink *s = &c->sink[CT_CLI];
	struct rdmachan_send_ext ext = { .nr_regs = 1 };
	struct rdmachan_mr *mr1 = NULL, *mr2 = NULL, *mr3 = NULL;
	struct rdmachan_seg seg = {};
	struct rdmachan_op op = {};
	struct scatterlist sg1, sg2;
	struct rdmachan *cli;
	void *buf1, *buf2;
	u8 byte = 0;
	struct kvec v = { .iov_base = &byte, .iov_len = 1 };
	int ret;

	ct_pool_pair(test, CT_PORT_POOL_TEARDOWN, 2);
	cli = c->ch[CT_CLI];
	buf1 = kunit_kzalloc(test, len, GFP_KERNEL);
	buf2 = kunit_kzalloc(test, len, GFP_KERNEL);
	KUNIT_ASSERT_TRUE(test, buf1 && buf2);
	sg_init_one(&sg1, buf1, len);
	sg_init_one(&sg2, buf2, len);
	KUNIT_ASSERT_EQ(test, rdmachan_mr_pool_map(c->pool, &sg1, 1, rw, &mr1),
			0);
	KUNIT_ASSERT_EQ(test, rdmachan_mr_pool_map(c->pool, &sg2, 1, rw, &mr2),
			0);
	ext.regs = &mr1;
	KUNIT_ASSERT_EQ(test, rdmachan_send_ext(cli, &v, 1, 0, 0, &ext), 0);

	ct_close(c, CT_SRV);
	KUNIT_ASSERT_TRUE(test, wait_for_completion_timeout(&s->state_done,
							    CT_TIMEOUT) > 0);
	KUNIT_EXPECT_NE(test, rdmachan_get_state(cli), RDMACHAN_CONNECTED);

	ret = rdmachan_mr_pool_map(c->pool, &sg1, 1, rw, &mr3);
	KUNIT_EXPECT_LT(test, ret, 0);
	KUNIT_EXPECT_NE(test, ret, -EAGAIN);
	KUNIT_EXPECT_EQ(test, rdmachan_mr_pool_put(mr1, false, ct_pool_done, s),
			0);
	KUNIT_EXPECT_EQ(test, rdmachan_mr_pool_put(mr2, false, ct_pool_done, s),
			0);
	KUNIT_EXPECT_EQ(test, atomic_read(&s->nr_done), 0);
	ret = rdmachan_send_ext(cli, &v, 1, 0, RDMACHAN_SEND_NONBLOCK, NULL);
	KUNIT_EXPECT_LT(test, ret, 0);
	KUNIT_EXPECT_NE(test, ret, -EAGAIN);
	op = (struct rdmachan_op){ .opcode = RDMACHAN_OP_WRITE, .segs = &seg };
	ret = rdmachan_rdma_start(cli, &op, 1, ct_start_end, s);
	KUNIT_EXPECT_LT(test, ret, 0);
	KUNIT_EXPECT_NE(test, ret, -EAGAIN);
	KUNIT_EXPECT_EQ(test, atomic_read(&s->nr_end), 0);
}

/*
 * Pool registrations as the local segments of rdmachan_rdma_start() (a
 * server's zero copy): a WRITE from one and a READ back into another, in
 * one call, their fast registrations posted in front of it; then each
 * is given back with a local invalidation.
 */
static void chan_test_pool_local_seg(struct kunit *test)
{
	const u32 len = PAGE_SIZE;
	struct ct_ctx *c = test->priv;
	struct ct_sink *s = &c->sink[CT_CLI];
	struct rdmachan_mr *m1 = NULL, *m2 = NULL;
	struct rdmachan_remote_mr desc;
	struct scatterlist sg1, sg2;
	struct rdmachan_seg *seg;
	struct rdmachan_op *ops;
	struct rdmachan *srv, *cli;
	u8 *src, *dst, *back;

	ct_pool_pair(test, CT_PORT_POOL_LOCAL_SEG, 2);
	srv = c->ch[CT_SRV];
	cli = c->ch[CT_CLI];
	src = kunit_kmalloc(test, len, GFP_KERNEL);
	dst = kunit_kzalloc(test, len, GFP_KERNEL);
	back = kunit_kzalloc(test, len, GFP_KERNEL);
	seg = kunit_kcalloc(test, 2, sizeof(*seg), GFP_KERNEL);
	ops = kunit_kcalloc(test, 2, sizeof(*ops), GFP_KERNEL);
	KUNIT_ASSERT_TRUE(test, src && dst && back && seg && ops);
	memset(src, 0x77, len);
	KUNIT_ASSERT_EQ(test, rdmachan_mr_reg_kbuf(srv, dst, len,
						   RDMACHAN_ACCESS_LOCAL_WRITE |
						   RDMACHAN_ACCESS_REMOTE_WRITE |
						   RDMACHAN_ACCESS_REMOTE_READ,
						   &c->kmr[CT_SRV]),
			0);
	rdmachan_mr_remote(c->kmr[CT_SRV], &desc);
	sg_init_one(&sg1, src, len);
	sg_init_one(&sg2, back, len);
	KUNIT_ASSERT_EQ(test, rdmachan_mr_pool_map(c->pool, &sg1, 1, 0, &m1),
			0);
	KUNIT_ASSERT_EQ(test, rdmachan_mr_pool_map(c->pool, &sg2, 1,
						   RDMACHAN_ACCESS_LOCAL_WRITE,
						   &m2),
			0);
	seg[0] = (struct rdmachan_seg){ .mr = m1, .length = len };
	seg[1] = (struct rdmachan_seg){ .mr = m2, .length = len };
	ops[0] = (struct rdmachan_op){ .opcode = RDMACHAN_OP_WRITE,
				       .segs = &seg[0], .nr_segs = 1,
				       .remote_addr = desc.addr,
				       .rkey = desc.rkey };
	ops[1] = (struct rdmachan_op){ .opcode = RDMACHAN_OP_READ,
				       .segs = &seg[1], .nr_segs = 1,
				       .remote_addr = desc.addr,
				       .rkey = desc.rkey };
	KUNIT_ASSERT_EQ(test, rdmachan_rdma_start(cli, ops, 2, ct_start_end, s),
			0);
	KUNIT_ASSERT_TRUE(test, ct_wait_atomic(s, &s->nr_end, 1));
	KUNIT_EXPECT_EQ(test, s->end_err, 0);
	KUNIT_EXPECT_EQ(test, ops[0].status, 0);
	KUNIT_EXPECT_EQ(test, ops[1].status, 0);
	KUNIT_EXPECT_EQ(test, memcmp(dst, src, len), 0);
	KUNIT_EXPECT_EQ(test, memcmp(back, src, len), 0);

	KUNIT_EXPECT_EQ(test, rdmachan_mr_pool_put(m1, false, ct_pool_done, s),
			-EINPROGRESS);
	KUNIT_EXPECT_EQ(test, rdmachan_mr_pool_put(m2, false, ct_pool_done, s),
			-EINPROGRESS);
	KUNIT_EXPECT_TRUE(test, ct_wait_atomic(s, &s->nr_done, 2));
	KUNIT_EXPECT_EQ(test, s->done_err, 0);
	KUNIT_EXPECT_EQ(test, rdmachan_get_state(cli), RDMACHAN_CONNECTED);
}

/*
 * rdmachan_shutdown() under I/O (a block client ending its requests
 * early): the server has a registration's descriptor and WROTE into it,
 * the client has put one registration back (its LOCAL_INV posted) and
 * holds a second one sent.  On return from the shutdown, without any
 * wait: the first one's callback has run (0, or -ECANCELED if the drain
 * flushed the LOCAL_INV); the state_change has run; the second goes back
 * at once (0, no callback); mapping fails with the channel's error; the
 * server sees the disconnect; a second shutdown does nothing; and the
 * pool is destroyed before the close without a warning (ct_exit()).
 */
static void chan_test_pool_shutdown(struct kunit *test)
{
	const u32 len = PAGE_SIZE;
	const u32 rw = RDMACHAN_ACCESS_LOCAL_WRITE |
		       RDMACHAN_ACCESS_REMOTE_WRITE;
	struct ct_ctx *c = test->priv;
	struct ct_sink *s = &c->sink[CT_CLI];
	struct rdmachan_send_ext ext = { .nr_regs = 1 };
	struct rdmachan_mr *mr1, *mr2 = NULL, *mr3 = NULL;
	struct rdmachan_remote_mr desc;
	struct scatterlist sg2;
	struct rdmachan *cli;
	void *buf1, *buf2;
	u8 byte = 0;
	struct kvec v = { .iov_base = &byte, .iov_len = 1 };
	int ret;

	ct_pool_pair(test, CT_PORT_POOL_SHUTDOWN, 2);
	cli = c->ch[CT_CLI];
	buf1 = kunit_kzalloc(test, len, GFP_KERNEL);
	buf2 = kunit_kzalloc(test, len, GFP_KERNEL);
	KUNIT_ASSERT_TRUE(test, buf1 && buf2);
	mr1 = ct_pool_io(test, buf1, len, 0x5c, &desc);
	KUNIT_EXPECT_EQ(test, ((u8 *)buf1)[len - 1], 0x5c);
	sg_init_one(&sg2, buf2, len);
	KUNIT_ASSERT_EQ(test, rdmachan_mr_pool_map(c->pool, &sg2, 1, rw, &mr2),
			0);
	ext.regs = &mr2;
	KUNIT_ASSERT_EQ(test, rdmachan_send_ext(cli, &v, 1, 0, 0, &ext), 0);

	KUNIT_EXPECT_EQ(test, rdmachan_mr_pool_put(mr1, false, ct_pool_done, s),
			-EINPROGRESS);
	rdmachan_shutdown(cli);
	KUNIT_EXPECT_EQ(test, atomic_read(&s->nr_done), 1);
	KUNIT_EXPECT_TRUE(test, s->done_err == 0 || s->done_err == -ECANCELED);
	KUNIT_EXPECT_TRUE(test, completion_done(&s->state_done));
	KUNIT_EXPECT_NE(test, rdmachan_get_state(cli), RDMACHAN_CONNECTED);

	KUNIT_EXPECT_EQ(test, rdmachan_mr_pool_put(mr2, false, ct_pool_done, s),
			0);
	KUNIT_EXPECT_EQ(test, atomic_read(&s->nr_done), 1);
	ret = rdmachan_mr_pool_map(c->pool, &sg2, 1, rw, &mr3);
	KUNIT_EXPECT_LT(test, ret, 0);
	KUNIT_EXPECT_NE(test, ret, -EAGAIN);
	rdmachan_shutdown(cli);
	KUNIT_EXPECT_TRUE(test,
			  wait_for_completion_timeout(&c->sink[CT_SRV].state_done,
						      CT_TIMEOUT) > 0);
	KUNIT_EXPECT_NE(test, rdmachan_get_state(c->ch[CT_SRV]),
			RDMACHAN_CONNECTED);
}

static struct kunit_case chan_cases[] = {
	KUNIT_CASE(chan_test_connect_refused),
	KUNIT_CASE(chan_test_connect_accept),
	KUNIT_CASE_PARAM(chan_test_exchange, ct_mode_gen_params),
	KUNIT_CASE(chan_test_direct),
	KUNIT_CASE(chan_test_pull),
	KUNIT_CASE(chan_test_msgsize),
	KUNIT_CASE(chan_test_credits),
	KUNIT_CASE_PARAM(chan_test_close, ct_close_gen_params),
	KUNIT_CASE(chan_test_abort),
	KUNIT_CASE(chan_test_fault_enomem),
	KUNIT_CASE(chan_test_fault_nth_listen),
	KUNIT_CASE(chan_test_fault_nth_connect),
	KUNIT_CASE(chan_test_pool_send_inv),
	KUNIT_CASE(chan_test_pool_local_inv),
	KUNIT_CASE(chan_test_writable_send),
	KUNIT_CASE(chan_test_rdma_start),
	KUNIT_CASE(chan_test_pool_teardown),
	KUNIT_CASE(chan_test_pool_local_seg),
	KUNIT_CASE(chan_test_pool_unsent),
	KUNIT_CASE(chan_test_pool_shutdown),
	/* last: it deletes rxe0 */
	KUNIT_CASE(chan_test_listener_device_removed),
	{}
};

static struct kunit_suite chan_suite = {
	.name = "rdmachan_chan",
	.init = ct_init,
	.exit = ct_exit,
	.test_cases = chan_cases,
};

/*
 * The reconnect loop (rdmachan_reconnect_*()), with attempts that fail a
 * given number of times: no device needed.
 */
struct rct {
	atomic_t attempts;
	int fail_first;		/* attempts that fail before one works */
	int err;		/* their errno */
	atomic_t fast_fails;
	atomic_t lives;
	atomic_t deads;
	int dead_err;
	struct completion changed;
	struct completion fast_failed;
	unsigned int attempt_ms;	/* each attempt sleeps this long */
};

static int rct_attempt(void *priv)
{
	struct rct *r = priv;
	int n = atomic_inc_return(&r->attempts);

	if (r->attempt_ms)
		msleep(r->attempt_ms);
	return n <= r->fail_first ? r->err : 0;
}

static void rct_state_change(void *priv, enum rdmachan_link_state state,
			     int err)
{
	struct rct *r = priv;

	if (state == RDMACHAN_LINK_LIVE) {
		atomic_inc(&r->lives);
	} else if (state == RDMACHAN_LINK_DEAD) {
		r->dead_err = err;
		atomic_inc(&r->deads);
	}
	complete(&r->changed);
}

static void rct_fast_fail(void *priv)
{
	struct rct *r = priv;

	atomic_inc(&r->fast_fails);
	complete(&r->fast_failed);
}

static const struct rdmachan_reconnect_ops rct_ops = {
	.attempt = rct_attempt,
	.state_change = rct_state_change,
	.fast_fail = rct_fast_fail,
};

static struct rdmachan_reconnect *rct_new(struct kunit *test, struct rct *r,
					  const struct rdmachan_reconnect_policy *p)
{
	struct rdmachan_reconnect *rc;

	init_completion(&r->changed);
	init_completion(&r->fast_failed);
	rc = rdmachan_reconnect_create("kunit", p, &rct_ops, r);
	KUNIT_ASSERT_FALSE(test, IS_ERR(rc));
	return rc;
}

/* Two failed attempts, the third works: LIVE again, the count kept */
static void rct_test_back(struct kunit *test)
{
	struct rdmachan_reconnect_policy p = { 100, 200, 10000, 0 };
	struct rdmachan_reconnect_info info;
	struct rct r = { .fail_first = 2, .err = -ECONNREFUSED };
	struct rdmachan_reconnect *rc = rct_new(test, &r, &p);

	rdmachan_reconnect_get_info(rc, &info);
	KUNIT_EXPECT_EQ(test, info.state, RDMACHAN_LINK_LIVE);
	KUNIT_EXPECT_EQ(test, info.losses, 0U);
	KUNIT_EXPECT_TRUE(test, rdmachan_reconnect_lost(rc, -ECONNRESET));
	/* a second report of the same loss starts nothing */
	KUNIT_EXPECT_FALSE(test, rdmachan_reconnect_lost(rc, -EIO));
	rdmachan_reconnect_get_info(rc, &info);
	KUNIT_EXPECT_EQ(test, info.state, RDMACHAN_LINK_RECONNECTING);
	KUNIT_EXPECT_EQ(test, info.last_error, -ECONNRESET);
	/* waits 100, then 200: attempts at 100, 300 ... 9900 ms */
	KUNIT_EXPECT_EQ(test, info.max_attempts, 50U);
	KUNIT_EXPECT_GT(test, info.deadline_ms, 0ULL);
	KUNIT_EXPECT_LE(test, info.next_ms, 100ULL);
	KUNIT_ASSERT_GT(test, wait_for_completion_timeout(&r.changed, 10 * HZ), 0UL);
	KUNIT_EXPECT_EQ(test, atomic_read(&r.lives), 1);
	KUNIT_EXPECT_EQ(test, atomic_read(&r.attempts), 3);
	rdmachan_reconnect_get_info(rc, &info);
	KUNIT_EXPECT_EQ(test, info.state, RDMACHAN_LINK_LIVE);
	KUNIT_EXPECT_EQ(test, info.attempt, 3U);
	KUNIT_EXPECT_EQ(test, info.last_error, 0);
	KUNIT_EXPECT_EQ(test, info.losses, 1U);
	/* and a second loss starts again from 0 */
	reinit_completion(&r.changed);
	KUNIT_EXPECT_TRUE(test, rdmachan_reconnect_lost(rc, -ETIMEDOUT));
	KUNIT_ASSERT_GT(test, wait_for_completion_timeout(&r.changed, 10 * HZ), 0UL);
	rdmachan_reconnect_get_info(rc, &info);
	KUNIT_EXPECT_EQ(test, info.attempt, 1U);
	KUNIT_EXPECT_EQ(test, info.losses, 2U);
	rdmachan_reconnect_destroy(rc);
}

/* Every attempt fails: DEAD at the loss timeout with the last error */
static void rct_test_dead(struct kunit *test)
{
	struct rdmachan_reconnect_policy p = { 100, 100, 450, 0 };
	struct rdmachan_reconnect_info info;
	struct rct r = { .fail_first = INT_MAX, .err = -EHOSTUNREACH };
	struct rdmachan_reconnect *rc = rct_new(test, &r, &p);
	unsigned long t0 = jiffies;

	rdmachan_reconnect_lost(rc, -ECONNRESET);
	KUNIT_ASSERT_GT(test, wait_for_completion_timeout(&r.changed, 10 * HZ), 0UL);
	KUNIT_EXPECT_EQ(test, atomic_read(&r.deads), 1);
	KUNIT_EXPECT_EQ(test, r.dead_err, -EHOSTUNREACH);
	KUNIT_EXPECT_GE(test, jiffies_to_msecs(jiffies - t0), 450U);
	/* attempts at 100, 200, 300, 400 ms: the policy's bound holds */
	KUNIT_EXPECT_GE(test, atomic_read(&r.attempts), 1);
	KUNIT_EXPECT_LE(test, atomic_read(&r.attempts), 4);
	rdmachan_reconnect_get_info(rc, &info);
	KUNIT_EXPECT_EQ(test, info.state, RDMACHAN_LINK_DEAD);
	KUNIT_EXPECT_EQ(test, info.last_error, -EHOSTUNREACH);
	KUNIT_EXPECT_EQ(test, info.next_ms, 0ULL);
	KUNIT_EXPECT_GE(test, info.down_ms, 450ULL);
	/* a dead link opened again (a remap) reconnects afresh */
	r.fail_first = 0;
	reinit_completion(&r.changed);
	KUNIT_EXPECT_TRUE(test, rdmachan_reconnect_lost(rc, -ENOTCONN));
	KUNIT_ASSERT_GT(test, wait_for_completion_timeout(&r.changed, 10 * HZ), 0UL);
	KUNIT_EXPECT_EQ(test, atomic_read(&r.lives), 1);
	rdmachan_reconnect_destroy(rc);
}

/* fast_fail once, before the attempts stop */
static void rct_test_fast_fail(struct kunit *test)
{
	struct rdmachan_reconnect_policy p = { 100, 100, 1000, 250 };
	struct rct r = { .fail_first = INT_MAX, .err = -ECONNREFUSED };
	struct rdmachan_reconnect *rc = rct_new(test, &r, &p);

	rdmachan_reconnect_lost(rc, -ECONNRESET);
	KUNIT_ASSERT_GT(test, wait_for_completion_timeout(&r.fast_failed, 10 * HZ), 0UL);
	KUNIT_EXPECT_EQ(test, atomic_read(&r.deads), 0);
	KUNIT_ASSERT_GT(test, wait_for_completion_timeout(&r.changed, 10 * HZ), 0UL);
	KUNIT_EXPECT_EQ(test, atomic_read(&r.deads), 1);
	KUNIT_EXPECT_EQ(test, atomic_read(&r.fast_fails), 1);
	rdmachan_reconnect_destroy(rc);
}

/* stop during an attempt: it waits for it, then no callback, DEAD */
static void rct_test_stop(struct kunit *test)
{
	struct rdmachan_reconnect_policy p = { 100, 100, 0, 0 };
	struct rdmachan_reconnect_info info;
	struct rct r = { .fail_first = INT_MAX, .err = -ECONNREFUSED,
			 .attempt_ms = 300 };
	struct rdmachan_reconnect *rc = rct_new(test, &r, &p);
	int n;

	rdmachan_reconnect_lost(rc, -ECONNRESET);
	msleep(200);		/* the first attempt is under way */
	rdmachan_reconnect_stop(rc);
	n = atomic_read(&r.attempts);
	KUNIT_EXPECT_GE(test, n, 1);
	rdmachan_reconnect_get_info(rc, &info);
	KUNIT_EXPECT_EQ(test, info.state, RDMACHAN_LINK_DEAD);
	KUNIT_EXPECT_EQ(test, info.max_attempts, 0U);
	msleep(500);
	KUNIT_EXPECT_EQ(test, atomic_read(&r.attempts), n);
	KUNIT_EXPECT_EQ(test, atomic_read(&r.lives) + atomic_read(&r.deads), 0);
	/* stopped for good */
	KUNIT_EXPECT_FALSE(test, rdmachan_reconnect_lost(rc, -EIO));
	rdmachan_reconnect_destroy(rc);
}

/*
 * restart: a stopped link (a remap after the mapping was given up) is live
 * again and reconnects after its next loss; a reconnecting one is left
 */
static void rct_test_restart(struct kunit *test)
{
	struct rdmachan_reconnect_policy p = { 100, 100, 0, 0 };
	struct rdmachan_reconnect_info info;
	struct rct r = { .fail_first = INT_MAX, .err = -ECONNREFUSED };
	struct rdmachan_reconnect *rc = rct_new(test, &r, &p);
	int n;

	rdmachan_reconnect_lost(rc, -ECONNRESET);
	/* reconnecting, not stopped: restart changes nothing */
	rdmachan_reconnect_restart(rc);
	rdmachan_reconnect_get_info(rc, &info);
	KUNIT_EXPECT_EQ(test, info.state, RDMACHAN_LINK_RECONNECTING);
	msleep(250);
	KUNIT_EXPECT_GE(test, atomic_read(&r.attempts), 1);
	rdmachan_reconnect_stop(rc);
	rdmachan_reconnect_restart(rc);
	rdmachan_reconnect_get_info(rc, &info);
	KUNIT_EXPECT_EQ(test, info.state, RDMACHAN_LINK_LIVE);
	KUNIT_EXPECT_EQ(test, info.attempt, 0U);
	KUNIT_EXPECT_EQ(test, info.last_error, 0);
	KUNIT_EXPECT_EQ(test, info.losses, 1U);
	/* the next loss reconnects, and the attempt works this time */
	n = atomic_read(&r.attempts);
	r.fail_first = 0;
	reinit_completion(&r.changed);
	KUNIT_EXPECT_TRUE(test, rdmachan_reconnect_lost(rc, -EIO));
	KUNIT_ASSERT_GT(test, wait_for_completion_timeout(&r.changed, 10 * HZ), 0UL);
	KUNIT_EXPECT_EQ(test, atomic_read(&r.lives), 1);
	KUNIT_EXPECT_EQ(test, atomic_read(&r.attempts), n + 1);
	rdmachan_reconnect_get_info(rc, &info);
	KUNIT_EXPECT_EQ(test, info.state, RDMACHAN_LINK_LIVE);
	KUNIT_EXPECT_EQ(test, info.losses, 2U);
	rdmachan_reconnect_destroy(rc);
}

/* kick: the wait ends now; a bad policy is refused, a good one taken */
static void rct_test_kick_policy(struct kunit *test)
{
	struct rdmachan_reconnect_policy p = { 60000, 60000, 0, 0 };
	struct rdmachan_reconnect_policy bad = { 50, 50, 0, 0 };
	struct rdmachan_reconnect_ops no_attempt = { .state_change = rct_state_change };
	struct rct r = { .fail_first = 0 };
	struct rdmachan_reconnect *rc = rct_new(test, &r, &p);

	KUNIT_EXPECT_TRUE(test, IS_ERR(rdmachan_reconnect_create("kunit", &bad, &rct_ops, &r)));
	KUNIT_EXPECT_TRUE(test, IS_ERR(rdmachan_reconnect_create("kunit", &p, &no_attempt, &r)));
	KUNIT_EXPECT_EQ(test, rdmachan_reconnect_set_policy(rc, &bad), -EINVAL);
	rdmachan_reconnect_lost(rc, -ECONNRESET);
	/* a minute away; the kick makes it now */
	KUNIT_EXPECT_EQ(test, wait_for_completion_timeout(&r.changed, HZ / 2), 0UL);
	rdmachan_reconnect_kick(rc);
	KUNIT_ASSERT_GT(test, wait_for_completion_timeout(&r.changed, 10 * HZ), 0UL);
	KUNIT_EXPECT_EQ(test, atomic_read(&r.lives), 1);
	/* a shorter delay taken while reconnecting brings the attempt closer */
	reinit_completion(&r.changed);
	rdmachan_reconnect_lost(rc, -ECONNRESET);
	p.delay_ms = p.max_delay_ms = 100;
	KUNIT_EXPECT_EQ(test, rdmachan_reconnect_set_policy(rc, &p), 0);
	KUNIT_ASSERT_GT(test, wait_for_completion_timeout(&r.changed, 10 * HZ), 0UL);
	KUNIT_EXPECT_EQ(test, atomic_read(&r.lives), 2);
	rdmachan_reconnect_destroy(rc);
	rdmachan_reconnect_destroy(NULL);
}

/*
 * A loss reported while an attempt runs: that attempt counts as failed
 * with the new error, though it returned 0, and the next one brings the
 * link back.
 */
static void rct_test_relost(struct kunit *test)
{
	struct rdmachan_reconnect_policy p = { 100, 100, 20000, 0 };
	struct rct r = { .attempt_ms = 500 };
	struct rdmachan_reconnect *rc = rct_new(test, &r, &p);
	struct rdmachan_reconnect_info info;
	int i;

	KUNIT_EXPECT_TRUE(test, rdmachan_reconnect_lost(rc, -ECONNRESET));
	for (i = 0; i < 100 && !atomic_read(&r.attempts); i++)
		msleep(20);
	KUNIT_ASSERT_EQ(test, atomic_read(&r.attempts), 1);
	/* during the first attempt's 500 ms */
	KUNIT_EXPECT_FALSE(test, rdmachan_reconnect_lost(rc, -EPIPE));
	KUNIT_ASSERT_GT(test, wait_for_completion_timeout(&r.changed, 10 * HZ), 0UL);
	KUNIT_EXPECT_EQ(test, atomic_read(&r.lives), 1);
	KUNIT_EXPECT_EQ(test, atomic_read(&r.attempts), 2);
	rdmachan_reconnect_get_info(rc, &info);
	KUNIT_EXPECT_EQ(test, info.state, RDMACHAN_LINK_LIVE);
	KUNIT_EXPECT_EQ(test, info.attempt, 2U);
	KUNIT_EXPECT_EQ(test, info.losses, 1U);
	rdmachan_reconnect_destroy(rc);
}

/*
 * The fast-fail time passes while an attempt runs (3 s): fast_fail is
 * called at its time, not when the attempt ends.
 */
static void rct_test_fast_fail_during_attempt(struct kunit *test)
{
	struct rdmachan_reconnect_policy p = { 100, 100, 20000, 300 };
	struct rct r = { .fail_first = INT_MAX, .err = -ETIMEDOUT,
			 .attempt_ms = 3000 };
	struct rdmachan_reconnect *rc = rct_new(test, &r, &p);

	rdmachan_reconnect_lost(rc, -ECONNRESET);
	KUNIT_ASSERT_GT(test, wait_for_completion_timeout(&r.fast_failed,
							  msecs_to_jiffies(2500)),
			0UL);
	KUNIT_EXPECT_EQ(test, atomic_read(&r.attempts), 1);
	KUNIT_EXPECT_EQ(test, atomic_read(&r.fast_fails), 1);
	rdmachan_reconnect_destroy(rc);
	KUNIT_EXPECT_EQ(test, atomic_read(&r.fast_fails), 1);
}

static struct kunit_case rct_cases[] = {
	KUNIT_CASE(rct_test_back),
	KUNIT_CASE(rct_test_dead),
	KUNIT_CASE(rct_test_fast_fail),
	KUNIT_CASE(rct_test_stop),
	KUNIT_CASE(rct_test_restart),
	KUNIT_CASE(rct_test_kick_policy),
	KUNIT_CASE(rct_test_relost),
	KUNIT_CASE(rct_test_fast_fail_during_attempt),
	{}
};

static struct kunit_suite rct_suite = {
	.name = "rdmachan_reconnect",
	.test_cases = rct_cases,
};

kunit_test_suites(&chan_suite, &rct_suite);

MODULE_DESCRIPTION("KUnit tests of rdmachan's in-kernel channel API over soft-RoCE");
MODULE_LICENSE("GPL");
