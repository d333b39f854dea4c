// SPDX-License-Identifier: GPL-2.0-only
/*
 * KUnit suite "rdmachan_reconnect" of rdmachan_chan_kunit.ko: the
 * reconnect loop of rdmachan.ko's exported API (rdmachan_reconnect_*()),
 * with attempts that fail a given number of times: no device needed.
 * The policy's pure logic is reconnect_kunit.c's.
 */
#include <kunit/test.h>
#include <linux/atomic.h>
#include <linux/completion.h>
#include <linux/delay.h>
#include <linux/err.h>
#include <linux/errno.h>
#include <linux/jiffies.h>
#include <linux/limits.h>

#include "../../module/rdmachan.h"

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
	p.delay_ms = 100;
	p.max_delay_ms = 100;
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

kunit_test_suite(rct_suite);
