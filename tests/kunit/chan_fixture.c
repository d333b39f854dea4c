// SPDX-License-Identifier: GPL-2.0-only
/*
 * rdmachan_chan_kunit.ko: KUnit suites of rdmachan's exported in-kernel
 * API (module/rdmachan.h) over the soft-RoCE fixture of the test VM: rxe0
 * on veth0 (192.0.2.1) and rxe1 on veth1 (192.0.2.2), set up by
 * tests/vm/cases/kunit.sh before this module is loaded.  Unlike the pure
 * logic suites it links against rdmachan.ko's exported symbols only.
 *
 * This file is the fixture its device-backed suites share
 * (chan_fixture.h); the suites are in the chan_*_kunit.c files.  Their
 * tests listen on 192.0.2.1 (a port of their own), connect from
 * 192.0.2.2 and accept, then check what a userspace script cannot see:
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
#include <linux/delay.h>
#include <linux/errno.h>
#include <linux/module.h>
#include <linux/preempt.h>
#include <linux/scatterlist.h>
#include <linux/sched/signal.h>
#include <linux/sched/task.h>
#include <linux/signal.h>
#include <linux/slab.h>

#include "chan_fixture.h"

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

void ct_expect_msg(struct kunit *test, const struct rdmachan_msg *m,
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

void ct_pending(struct rdmachan_listener *l)
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

void ct_start_end(struct rdmachan_op *ops, unsigned int count, int err,
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

void ct_pool_done(void *ctx, int err)
{
	struct ct_sink *s = ctx;

	s->done_err = err;
	atomic_inc(&s->nr_done);
	wake_up_all(&s->wq);
}

/* Pull mode, with the storage user's writable callback */
const struct rdmachan_ops ct_store_ops = {
	.state_change = ct_state_change,
	.writable = ct_writable,
};

const struct rdmachan_ops ct_start_ops = {
	.recv = ct_recv_start,
	.state_change = ct_state_change,
	.writable = ct_writable,
};

const struct rdmachan_ops ct_push_ops = {
	.recv = ct_recv,
	.state_change = ct_state_change,
};

/* rdmachan_recv() pulls; state changes are still reported */
const struct rdmachan_ops ct_pull_ops = {
	.state_change = ct_state_change,
};

unsigned int ct_sink_nr(struct ct_sink *s)
{
	unsigned long flags;
	unsigned int n;

	spin_lock_irqsave(&s->lock, flags);
	n = s->nr;
	spin_unlock_irqrestore(&s->lock, flags);
	return n;
}

/* Wait until @s holds @n pushed messages; false on timeout. */
bool ct_sink_wait(struct ct_sink *s, unsigned int n)
{
	return wait_event_timeout(s->wq, ct_sink_nr(s) >= n, CT_TIMEOUT) > 0;
}

/* Wait until @a reaches @n; false on timeout. */
bool ct_wait_atomic(struct ct_sink *s, atomic_t *a, int n)
{
	return wait_event_timeout(s->wq, atomic_read(a) >= n, CT_TIMEOUT) > 0;
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
void ct_sink_check(struct kunit *test, struct ct_sink *s,
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
void ct_wd_arm(struct ct_ctx *c, unsigned long timeout)
{
	allow_signal(SIGUSR1);
	c->wd_task = get_task_struct(current);
	WRITE_ONCE(c->wd_fired, false);
	mod_timer(&c->wd_timer, jiffies + timeout);
}

/* Return: the watchdog fired (the call it guarded was interrupted). */
bool ct_wd_disarm(struct ct_ctx *c)
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

int ct_init(struct kunit *test)
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

void ct_close(struct ct_ctx *c, unsigned int slot)
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
void ct_accept_none(struct kunit *test, struct rdmachan_listener *l,
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

void ct_close_listener(struct ct_ctx *c)
{
	if (c->l) {
		rdmachan_listener_close(c->l);
		c->l = NULL;
	}
}

/* Runs after every test, also one that failed an assertion. */
void ct_exit(struct kunit *test)
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

/**
 * ct_fixture_port() - the port of a test whose suite's .init sets up a pair
 *
 * Return: the next port of CT_PORT_FIXTURE's range, a new one each call.
 */
u16 ct_fixture_port(void)
{
	static atomic_t next = ATOMIC_INIT(CT_PORT_FIXTURE);

	return atomic_fetch_inc(&next);
}

void ct_addr(struct sockaddr_in *sin, u32 ip, u16 port)
{
	memset(sin, 0, sizeof(*sin));
	sin->sin_family = AF_INET;
	sin->sin_addr.s_addr = cpu_to_be32(ip);
	sin->sin_port = cpu_to_be16(port);
}

int ct_listen(struct ct_ctx *c, u16 port,
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
int ct_connect(struct ct_ctx *c, u16 port,
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
int ct_accept(struct ct_ctx *c, const struct rdmachan_ops *ops,
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
void ct_pair(struct kunit *test, u16 port,
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
int ct_pull(struct rdmachan *ch, struct rdmachan_msg **msg,
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
void ct_pull_check(struct kunit *test, struct rdmachan *ch, u32 dir,
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
void *ct_payload(struct kunit *test, u32 len, u32 dir, u32 k)
{
	void *buf = kunit_kmalloc(test, len ?: 1, GFP_KERNEL);

	KUNIT_ASSERT_NOT_NULL(test, buf);
	ct_fill(buf, len, dir, k);
	return buf;
}

/* ---- the standard sequence ----------------------------------------------- */

/*
 * rdmachan_send_msgs() of @n messages, blocking, in as many calls as the
 * credits take: a batch sends what the grant allows, and a new channel's
 * grant starts at one credit and grows as messages arrive.  Return: the
 * messages sent, or the error of a call that sent none.
 */
int ct_send_msgs_all(struct rdmachan *ch, const struct kvec *v, int n,
		     u32 imm, u32 flags)
{
	int sent = 0, ret;

	while (sent < n) {
		ret = rdmachan_send_msgs(ch, v + sent, n - sent, imm, flags);
		if (ret <= 0)
			return sent ?: ret;
		sent += ret;
	}
	return sent;
}

/*
 * Send the standard sequence on @ch in direction @dir: sizes 0, 1 and
 * @max, with and without an immediate, through rdmachan_send() (one and
 * two pieces), rdmachan_send_msgs() and rdmachan_send_sg() (three
 * entries); @exp gets what the receiver must see, in order.
 */
void ct_send_script(struct kunit *test, struct rdmachan *ch, u32 dir,
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
	KUNIT_EXPECT_EQ(test, ct_send_msgs_all(ch, v, 3, 0x42, imm_flags), 3);
	k += 3;

	/* two more without immediate */
	for (i = 0; i < 2; i++) {
		u32 len = 17 + 16 * i;

		v[i] = (struct kvec){ .iov_base = ct_payload(test, len, dir, k + i),
				      .iov_len = len };
		exp[k + i] = (struct ct_exp){ k + i, len, false, 0 };
	}
	KUNIT_EXPECT_EQ(test, ct_send_msgs_all(ch, v, 2, 0, 0), 2);
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

MODULE_DESCRIPTION("KUnit tests of rdmachan's in-kernel channel API over soft-RoCE");
MODULE_LICENSE("GPL");
