// SPDX-License-Identifier: GPL-2.0-only
/*
 * rdmachan: the round trips of a ping-pong benchmark (struct
 * rdmachan_bench_lat): kept, summed and summarised as min, mean, median,
 * 99th percentile and max.  Pure logic without the channel or datagram
 * API, shared by bench.c and dgram_bench.c and tested by KUnit
 * (tests/kunit/bench_kunit.c includes this file).
 */
#include <linux/math64.h>
#include <linux/minmax.h>
#include <linux/mm.h>
#include <linux/slab.h>
#include <linux/sort.h>
#include <linux/string.h>

#include "bench.h"

static int rdmachan_bench_cmp_u32(const void *a, const void *b)
{
	u32 x = *(const u32 *)a, y = *(const u32 *)b;

	return x < y ? -1 : x > y;
}

/**
 * rdmachan_bench_lat_init() - room for the round trips of a ping-pong
 * @l: the summary, zeroed here
 * @count: round trips the run makes, 0 for no limit (the first
 *	RDMACHAN_BENCH_MAX_SAMPLES are kept for the percentiles)
 *
 * Context: process context; sleeps.
 * Return: 0 or -ENOMEM.
 */
int rdmachan_bench_lat_init(struct rdmachan_bench_lat *l, u64 count)
{
	memset(l, 0, sizeof(*l));
	l->room = RDMACHAN_BENCH_MAX_SAMPLES;
	if (count && count < l->room)
		l->room = count;
	l->samples = kvmalloc_array(l->room, sizeof(u32), GFP_KERNEL);
	return l->samples ? 0 : -ENOMEM;
}

/* Count a round trip of @rtt ns.  Context: any. */
void rdmachan_bench_lat_add(struct rdmachan_bench_lat *l, u64 rtt)
{
	if (!l->n || rtt < l->min)
		l->min = rtt;
	l->max = max(l->max, rtt);
	if (l->nr < l->room)
		l->samples[l->nr++] = min_t(u64, rtt, U32_MAX);
	l->sum += rtt;
	l->n++;
}

/* Nearest-rank percentile @p of the sorted samples */
static u64 rdmachan_bench_pct(const struct rdmachan_bench_lat *l,
			      unsigned int p)
{
	u32 rank = DIV_ROUND_UP(l->nr * p, 100);

	return l->samples[rank ? rank - 1 : 0];
}

/**
 * rdmachan_bench_lat_end() - summarise the round trips, and free the room
 * @l: what rdmachan_bench_lat_add() counted; @avg, @p50 and @p99 are set
 *	(0 for no round trip, as @min and @max are then)
 *
 * Context: process context.
 */
void rdmachan_bench_lat_end(struct rdmachan_bench_lat *l)
{
	if (l->n) {
		sort(l->samples, l->nr, sizeof(u32), rdmachan_bench_cmp_u32,
		     NULL);
		l->avg = div64_u64(l->sum, l->n);
		l->p50 = rdmachan_bench_pct(l, 50);
		l->p99 = rdmachan_bench_pct(l, 99);
	}
	kvfree(l->samples);
	l->samples = NULL;
}
