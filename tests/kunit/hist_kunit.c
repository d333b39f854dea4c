// SPDX-License-Identifier: GPL-2.0-only
/*
 * KUnit suite for module/chan/hist.h: the bucket of a latency at each
 * bucket's edges (below 1 us, powers of two, the open last bucket, a
 * clock that went backwards), the buckets' lower bounds, and the text
 * sysfs shows, whole and cut short.
 */
#include "../../module/chan/hist.h"

#include <kunit/test.h>
#include <linux/string.h>

static void hist_test_bucket(struct kunit *test)
{
	unsigned int b;

	KUNIT_EXPECT_EQ(test, rdmachan_hist_bucket(0), 0U);
	KUNIT_EXPECT_EQ(test, rdmachan_hist_bucket(999), 0U);
	KUNIT_EXPECT_EQ(test, rdmachan_hist_bucket(1000), 1U);
	KUNIT_EXPECT_EQ(test, rdmachan_hist_bucket(1999), 1U);
	KUNIT_EXPECT_EQ(test, rdmachan_hist_bucket(2000), 2U);
	/* each bucket from its lower bound to just below the next one's */
	for (b = 1; b < RDMACHAN_HIST_BUCKETS - 1; b++) {
		u64 lo = rdmachan_hist_lo_us(b) * NSEC_PER_USEC;
		u64 next = rdmachan_hist_lo_us(b + 1) * NSEC_PER_USEC;

		KUNIT_EXPECT_EQ(test, rdmachan_hist_bucket(lo), b);
		KUNIT_EXPECT_EQ(test, rdmachan_hist_bucket(next - 1), b);
	}
	KUNIT_EXPECT_EQ(test, rdmachan_hist_bucket(3600ULL * NSEC_PER_SEC),
			RDMACHAN_HIST_BUCKETS - 1U);
	/* a clock read on another CPU that was behind: a huge u64 */
	KUNIT_EXPECT_EQ(test, rdmachan_hist_bucket(U64_MAX),
			RDMACHAN_HIST_BUCKETS - 1U);
}

static void hist_test_bounds(struct kunit *test)
{
	KUNIT_EXPECT_EQ(test, rdmachan_hist_lo_us(0), 0ULL);
	KUNIT_EXPECT_EQ(test, rdmachan_hist_lo_us(1), 1ULL);
	KUNIT_EXPECT_EQ(test, rdmachan_hist_lo_us(11), 1024ULL);
	KUNIT_EXPECT_EQ(test, rdmachan_hist_lo_us(RDMACHAN_HIST_BUCKETS - 1),
			1ULL << (RDMACHAN_HIST_BUCKETS - 2));
}

static void hist_test_format(struct kunit *test)
{
	u64 counts[RDMACHAN_HIST_BUCKETS] = { [0] = 3, [1] = 1, [23] = 7 };
	char *buf = kunit_kzalloc(test, PAGE_SIZE, GFP_KERNEL);
	char small[12];
	int n;

	KUNIT_ASSERT_NOT_NULL(test, buf);
	n = rdmachan_hist_format(counts, buf, PAGE_SIZE);
	KUNIT_EXPECT_EQ(test, n, (int)strlen(buf));
	KUNIT_EXPECT_TRUE(test, !strncmp(buf, "0 3\n1 1\n2 0\n4 0\n", 16));
	/* the last bucket, from 2^22 us on */
	KUNIT_EXPECT_NOT_NULL(test, strstr(buf, "\n2097152 0\n4194304 7\n"));
	/* every bucket, one a line */
	KUNIT_EXPECT_EQ(test, (int)(strchr(buf, '\0') - buf),
			n);
	n = 0;
	for (buf = strchr(buf, '\n'); buf; buf = strchr(buf + 1, '\n'))
		n++;
	KUNIT_EXPECT_EQ(test, n, RDMACHAN_HIST_BUCKETS);
	/* cut short, terminated, never past the end */
	n = rdmachan_hist_format(counts, small, sizeof(small));
	KUNIT_EXPECT_LT(test, n, (int)sizeof(small));
	KUNIT_EXPECT_EQ(test, (int)strlen(small), n);
}

static struct kunit_case hist_cases[] = {
	KUNIT_CASE(hist_test_bucket),
	KUNIT_CASE(hist_test_bounds),
	KUNIT_CASE(hist_test_format),
	{}
};

static struct kunit_suite hist_suite = {
	.name = "rdmachan_hist",
	.test_cases = hist_cases,
};

kunit_test_suite(hist_suite);
