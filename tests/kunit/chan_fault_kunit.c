// SPDX-License-Identifier: GPL-2.0-only
/*
 * KUnit suite "rdmachan_chan_fault" of rdmachan_chan_kunit.ko: allocation
 * failures forced with failslab in the test's thread (kunit.sh sets it up
 * for tasks with make_it_fail) while rdmachan_listen(), rdmachan_connect()
 * and a first rdmachan_send() run: each fails cleanly or works, and a
 * pair works right after (chan_fixture.h).
 */
#include <linux/delay.h>
#include <linux/err.h>
#include <linux/errno.h>
#include <linux/sched.h>
#include <linux/slab.h>

#include "chan_fixture.h"

#define CT_NTH_MAX	400

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

/**
 * struct ct_nth - a walk of fail_nth over the fault points of one call
 * @call: the call, as the log names it
 * @failed: calls that failed
 * @enomem: of those, calls that failed with -ENOMEM
 */
struct ct_nth {
	const char *call;
	unsigned int failed;
	unsigned int enomem;
};

/*
 * The call of @w failed with @ret under fail_nth=@n, handing out @out:
 * a negative errno and nothing handed out, and a fault it reached
 * (@left: fail_nth after the call, 0 once the fault was injected).
 */
static void ct_nth_failed(struct kunit *test, struct ct_nth *w,
			  unsigned int n, int ret, const void *out,
			  unsigned int left)
{
	KUNIT_EXPECT_LT_MSG(test, ret, 0, "fail_nth=%u", n);
	KUNIT_EXPECT_GE_MSG(test, ret, -MAX_ERRNO, "fail_nth=%u", n);
	KUNIT_EXPECT_NULL_MSG(test, out, "fail_nth=%u", n);
	w->failed++;
	w->enomem += ret == -ENOMEM;
	if (ret != -ENOMEM)
		kunit_info(test, "fail_nth=%u: %s = %d\n", n, w->call, ret);
	if (left)
		KUNIT_FAIL(test, "fail_nth=%u: %d with no fault", n, ret);
}

/*
 * The walk of @w ended at fail_nth=@n: within CT_NTH_MAX, and some fault
 * point was an allocation.
 */
static void ct_nth_done(struct kunit *test, const struct ct_nth *w,
			unsigned int n)
{
	kunit_info(test, "%s: %u fault points, %u failed calls (%u -ENOMEM)\n",
		   w->call, n - 1, w->failed, w->enomem);
	KUNIT_EXPECT_LE_MSG(test, n, (unsigned int)CT_NTH_MAX,
			    "no clean call in %d", CT_NTH_MAX);
	KUNIT_EXPECT_GT(test, w->enomem, 0U);
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
	struct ct_nth w = { .call = "rdmachan_listen()" };
	unsigned int n, left = 0;
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
			ct_nth_failed(test, &w, n, ret, l, left);
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
	ct_nth_done(test, &w, n);

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
	struct ct_nth w = { .call = "rdmachan_connect()" };
	unsigned int n, left = 0;
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
			ct_nth_failed(test, &w, n, ret, ch, left);
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
	ct_nth_done(test, &w, n);

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

/*
 * The send buffers a channel holds beyond the one it keeps
 * (module/chan/chan_sbuf.c) are allocated by the sender, in its thread,
 * where failslab fails them: sends still go, on the kept buffer.  A
 * NONBLOCK batch of four sends at least one and fails none; blocking
 * sends of the rest each wait for a buffer to come back from a
 * completion (no -ENOMEM); the four arrive in order with their contents.
 */
static void chan_test_fault_send_buf(struct kunit *test)
{
#if IS_ENABLED(CONFIG_FAILSLAB)
	struct rdmachan_opts opts = { .queue_depth = 4, .max_msg_size = 1024 };
	struct ct_ctx *c = test->priv;
	struct ct_exp e[4];
	struct kvec v[4];
	struct rdmachan *cli;
	int i, sent;

	if (!ct_failslab_armed())
		kunit_skip(test, "failslab is not set up (see tests/vm/cases/kunit.sh)");
	ct_pair(test, CT_PORT_FAULT_SEND_BUF, &opts, NULL, &opts, NULL);
	cli = c->ch[CT_CLI];
	for (i = 0; i < 4; i++) {
		e[i] = (struct ct_exp){ i, 1024, false, 0 };
		v[i] = (struct kvec){ .iov_base = ct_payload(test, 1024, 0, i),
				      .iov_len = 1024 };
	}
	current->make_it_fail = 1;
	sent = rdmachan_send_msgs(cli, v, 4, 0, RDMACHAN_SEND_NONBLOCK);
	current->make_it_fail = 0;
	KUNIT_EXPECT_GE(test, sent, 1);
	KUNIT_EXPECT_LE(test, sent, 4);
	for (i = max(sent, 0); i < 4; i++) {
		ct_wd_arm(c, CT_TIMEOUT);
		current->make_it_fail = 1;
		KUNIT_EXPECT_EQ_MSG(test, rdmachan_send(cli, &v[i], 1, 0, 0), 0,
				    "message %d", i);
		current->make_it_fail = 0;
		KUNIT_EXPECT_FALSE(test, ct_wd_disarm(c));
	}
	ct_pull_check(test, c->ch[CT_SRV], 0, e, 4);
#else
	kunit_skip(test, "needs CONFIG_FAILSLAB");
#endif
}

static struct kunit_case chan_fault_cases[] = {
	KUNIT_CASE(chan_test_fault_enomem),
	KUNIT_CASE(chan_test_fault_send_buf),
	KUNIT_CASE(chan_test_fault_nth_listen),
	KUNIT_CASE(chan_test_fault_nth_connect),
	{}
};

static struct kunit_suite chan_fault_suite = {
	.name = "rdmachan_chan_fault",
	.init = ct_init,
	.exit = ct_exit,
	.test_cases = chan_fault_cases,
};

kunit_test_suite(chan_fault_suite);
