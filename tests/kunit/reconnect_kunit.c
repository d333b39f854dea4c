// SPDX-License-Identifier: GPL-2.0-only
/*
 * KUnit suite for module/chan/reconnect.h: a reconnect policy's bounds,
 * its waits with their backoff, and the attempts it allows before the
 * loss timeout (what "attempt X of Y" shows).
 */
#include "../../module/chan/reconnect.h"

#include <kunit/test.h>
#include <linux/kernel.h>

#define P(d, m, l, f) ((struct rdmachan_reconnect_policy){ d, m, l, f })

static void rc_test_policy_check(struct kunit *test)
{
	struct rdmachan_reconnect_policy p;

	p = P(2000, 2000, 600000, 0);	/* nvme's defaults, no backoff */
	KUNIT_EXPECT_EQ(test, rdmachan_rc_policy_check(&p), 0);
	p = P(100, 3600000, 0, 0);	/* edges; never give up */
	KUNIT_EXPECT_EQ(test, rdmachan_rc_policy_check(&p), 0);
	p = P(99, 1000, 0, 0);		/* delay below 100 ms */
	KUNIT_EXPECT_EQ(test, rdmachan_rc_policy_check(&p), -EINVAL);
	p = P(0, 0, 0, 0);
	KUNIT_EXPECT_EQ(test, rdmachan_rc_policy_check(&p), -EINVAL);
	p = P(3600001, 3600001, 0, 0);	/* delay above 1 h */
	KUNIT_EXPECT_EQ(test, rdmachan_rc_policy_check(&p), -EINVAL);
	p = P(1000, 999, 0, 0);		/* cap below the delay */
	KUNIT_EXPECT_EQ(test, rdmachan_rc_policy_check(&p), -EINVAL);
	p = P(1000, 1000, 999, 0);	/* gives up before the first attempt */
	KUNIT_EXPECT_EQ(test, rdmachan_rc_policy_check(&p), -EINVAL);
	p = P(1000, 1000, 1000, 0);	/* one attempt, at the deadline */
	KUNIT_EXPECT_EQ(test, rdmachan_rc_policy_check(&p), 0);
	p = P(1000, 1000, RDMACHAN_RC_MAX_LOSS_MS + 1, 0);
	KUNIT_EXPECT_EQ(test, rdmachan_rc_policy_check(&p), -EINVAL);
	p = P(1000, 1000, 10000, 10000);	/* fast fail not before the end */
	KUNIT_EXPECT_EQ(test, rdmachan_rc_policy_check(&p), -EINVAL);
	p = P(1000, 1000, 10000, 9999);
	KUNIT_EXPECT_EQ(test, rdmachan_rc_policy_check(&p), 0);
	p = P(1000, 1000, 0, U32_MAX);	/* fast fail without a loss timeout */
	KUNIT_EXPECT_EQ(test, rdmachan_rc_policy_check(&p), -EINVAL);
	p = P(1000, 1000, 0, 5000);
	KUNIT_EXPECT_EQ(test, rdmachan_rc_policy_check(&p), 0);
}

static void rc_test_delay(struct kunit *test)
{
	struct rdmachan_reconnect_policy p = P(100, 800, 0, 0);

	KUNIT_EXPECT_EQ(test, rdmachan_rc_delay(&p, 1), 100U);
	KUNIT_EXPECT_EQ(test, rdmachan_rc_delay(&p, 2), 200U);
	KUNIT_EXPECT_EQ(test, rdmachan_rc_delay(&p, 3), 400U);
	KUNIT_EXPECT_EQ(test, rdmachan_rc_delay(&p, 4), 800U);
	KUNIT_EXPECT_EQ(test, rdmachan_rc_delay(&p, 5), 800U);
	KUNIT_EXPECT_EQ(test, rdmachan_rc_delay(&p, U32_MAX), 800U);
	/* a cap that is no power-of-two multiple of the delay */
	p = P(100, 300, 0, 0);
	KUNIT_EXPECT_EQ(test, rdmachan_rc_delay(&p, 2), 200U);
	KUNIT_EXPECT_EQ(test, rdmachan_rc_delay(&p, 3), 300U);
	/* no backoff */
	p = P(2000, 2000, 0, 0);
	KUNIT_EXPECT_EQ(test, rdmachan_rc_delay(&p, 1), 2000U);
	KUNIT_EXPECT_EQ(test, rdmachan_rc_delay(&p, 1000), 2000U);
	/* the largest figures: no overflow */
	p = P(3600000, 3600000, 0, 0);
	KUNIT_EXPECT_EQ(test, rdmachan_rc_delay(&p, U32_MAX), 3600000U);
	p = P(100, 3600000, 0, 0);
	KUNIT_EXPECT_EQ(test, rdmachan_rc_delay(&p, 64), 3600000U);
}

static void rc_test_max_attempts(struct kunit *test)
{
	struct rdmachan_reconnect_policy p;

	p = P(1000, 1000, 0, 0);		/* no limit */
	KUNIT_EXPECT_EQ(test, rdmachan_rc_max_attempts(&p), 0U);
	p = P(1000, 1000, 10000, 0);	/* at 1 .. 9 s */
	KUNIT_EXPECT_EQ(test, rdmachan_rc_max_attempts(&p), 9U);
	p = P(1000, 1000, 10001, 0);	/* and at 10 s */
	KUNIT_EXPECT_EQ(test, rdmachan_rc_max_attempts(&p), 10U);
	p = P(1000, 1000, 1000, 0);	/* the one at the deadline */
	KUNIT_EXPECT_EQ(test, rdmachan_rc_max_attempts(&p), 1U);
	/* waits 100, 200, 400, 800, 800...: at 100, 300, 700, 1500, 2300 */
	p = P(100, 800, 3000, 0);
	KUNIT_EXPECT_EQ(test, rdmachan_rc_max_attempts(&p), 5U);
	p = P(100, 800, 3101, 0);	/* and at 3100 */
	KUNIT_EXPECT_EQ(test, rdmachan_rc_max_attempts(&p), 6U);
	/* the end falls inside the doubling */
	p = P(100, 3600000, 1000, 0);	/* at 100, 300, 700 */
	KUNIT_EXPECT_EQ(test, rdmachan_rc_max_attempts(&p), 3U);
	/* nvme's defaults: every 2 s for 10 min */
	p = P(2000, 2000, 600000, 0);
	KUNIT_EXPECT_EQ(test, rdmachan_rc_max_attempts(&p), 299U);
	/* the largest: 7 days every 100 ms, no overflow, no long loop */
	p = P(100, 100, RDMACHAN_RC_MAX_LOSS_MS, 0);
	KUNIT_EXPECT_EQ(test, rdmachan_rc_max_attempts(&p),
			RDMACHAN_RC_MAX_LOSS_MS / 100 - 1);
}

static struct kunit_case rc_cases[] = {
	KUNIT_CASE(rc_test_policy_check),
	KUNIT_CASE(rc_test_delay),
	KUNIT_CASE(rc_test_max_attempts),
	{}
};

static struct kunit_suite rc_suite = {
	.name = "rdmachan_reconnect_policy",
	.test_cases = rc_cases,
};
kunit_test_suite(rc_suite);
