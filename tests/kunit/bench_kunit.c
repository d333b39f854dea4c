// SPDX-License-Identifier: GPL-2.0-only
/*
 * KUnit suite for the round trips of the in-kernel benchmarks
 * (module/chan/bench_lat.c, included here): what is kept, and the min,
 * mean, nearest-rank median and 99th percentile and max of what was
 * counted, as RDMACHAN_IOC_BENCH and RDMACHAN_IOC_DGRAM_BENCH report them.
 */
#include "../../module/chan/bench_lat.c"

#include <kunit/test.h>

/* No round trip: every figure 0, the room freed */
static void bench_test_lat_empty(struct kunit *test)
{
	struct rdmachan_bench_lat l;

	KUNIT_ASSERT_EQ(test, rdmachan_bench_lat_init(&l, 0), 0);
	KUNIT_EXPECT_EQ(test, l.room, RDMACHAN_BENCH_MAX_SAMPLES);
	rdmachan_bench_lat_end(&l);
	KUNIT_EXPECT_EQ(test, l.min + l.avg + l.p50 + l.p99 + l.max, 0ULL);
	KUNIT_EXPECT_NULL(test, l.samples);
}

/* 1..100 ns in a shuffled order: nearest ranks 50 and 99, mean 50 */
static void bench_test_lat_ranks(struct kunit *test)
{
	struct rdmachan_bench_lat l;
	u64 i;

	KUNIT_ASSERT_EQ(test, rdmachan_bench_lat_init(&l, 100), 0);
	KUNIT_EXPECT_EQ(test, l.room, 100U);
	for (i = 0; i < 100; i++)
		rdmachan_bench_lat_add(&l, (i * 37) % 100 + 1);
	rdmachan_bench_lat_end(&l);
	KUNIT_EXPECT_EQ(test, l.n, 100ULL);
	KUNIT_EXPECT_EQ(test, l.min, 1ULL);
	KUNIT_EXPECT_EQ(test, l.max, 100ULL);
	KUNIT_EXPECT_EQ(test, l.avg, 50ULL);	/* 5050 / 100, rounded down */
	KUNIT_EXPECT_EQ(test, l.p50, 50ULL);
	KUNIT_EXPECT_EQ(test, l.p99, 99ULL);
}

/*
 * More round trips than room: the first are kept for the percentiles,
 * every one counts in min, mean and max; one over 4 s is kept as U32_MAX
 */
static void bench_test_lat_room(struct kunit *test)
{
	struct rdmachan_bench_lat l;

	KUNIT_ASSERT_EQ(test, rdmachan_bench_lat_init(&l, 2), 0);
	rdmachan_bench_lat_add(&l, 10);
	rdmachan_bench_lat_add(&l, 5ULL << 32);
	rdmachan_bench_lat_add(&l, 3);
	KUNIT_EXPECT_EQ(test, l.nr, 2U);
	KUNIT_EXPECT_EQ(test, l.samples[1], U32_MAX);
	rdmachan_bench_lat_end(&l);
	KUNIT_EXPECT_EQ(test, l.n, 3ULL);
	KUNIT_EXPECT_EQ(test, l.min, 3ULL);
	KUNIT_EXPECT_EQ(test, l.max, 5ULL << 32);
	KUNIT_EXPECT_EQ(test, l.avg, ((5ULL << 32) + 13) / 3);
	KUNIT_EXPECT_EQ(test, l.p50, 10ULL);
	KUNIT_EXPECT_EQ(test, l.p99, (u64)U32_MAX);
}

static struct kunit_case bench_kunit_cases[] = {
	KUNIT_CASE(bench_test_lat_empty),
	KUNIT_CASE(bench_test_lat_ranks),
	KUNIT_CASE(bench_test_lat_room),
	{}
};

static struct kunit_suite bench_suite = {
	.name = "rdmachan_bench",
	.test_cases = bench_kunit_cases,
};

kunit_test_suite(bench_suite);
