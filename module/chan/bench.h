/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * rdmachan: the in-kernel benchmark behind RDMACHAN_IOC_BENCH
 */
#ifndef RDMACHAN_BENCH_H
#define RDMACHAN_BENCH_H

#include <linux/bits.h>
#include <linux/compiler.h>
#include <linux/ktime.h>
#include <linux/sched/signal.h>
#include <linux/types.h>

struct rdmachan;
struct rdmachan_bench;

/* Round trips whose latency is kept for the percentiles (4 MiB) */
#define RDMACHAN_BENCH_MAX_SAMPLES	BIT(20)

/**
 * struct rdmachan_bench_lat - the round trips of a ping-pong run
 * @samples: the first @room round trips in ns (capped at U32_MAX)
 * @nr: of them kept
 * @room: the most @samples holds
 * @n: round trips counted
 * @sum: their ns
 * @min: the shortest
 * @max: the longest
 * @avg: set by rdmachan_bench_lat_end(): the mean
 * @p50: likewise, the median (nearest rank)
 * @p99: likewise, the 99th percentile
 *
 * One run's, on its stack: no lock.  The channel bench (bench.c) and the
 * datagram bench (dgram_bench.c) share it.
 */
struct rdmachan_bench_lat {
	u32 *samples;
	u32 nr;
	u32 room;
	u64 n;
	u64 sum;
	u64 min;
	u64 max;
	u64 avg;
	u64 p50;
	u64 p99;
};

int rdmachan_bench_lat_init(struct rdmachan_bench_lat *l, u64 count);
void rdmachan_bench_lat_add(struct rdmachan_bench_lat *l, u64 rtt);
void rdmachan_bench_lat_end(struct rdmachan_bench_lat *l);

/*
 * rdmachan_bench_lat_out() - end @l and copy its figures to @b, a struct
 * rdmachan_bench or rdmachan_dgram_bench (their lat_*_ns fields)
 */
#define rdmachan_bench_lat_out(l, b) do {		\
	struct rdmachan_bench_lat *__l = (l);		\
	typeof(b) __b = (b);				\
							\
	rdmachan_bench_lat_end(__l);			\
	__b->lat_min_ns = __l->min;			\
	__b->lat_avg_ns = __l->avg;			\
	__b->lat_p50_ns = __l->p50;			\
	__b->lat_p99_ns = __l->p99;			\
	__b->lat_max_ns = __l->max;			\
} while (0)

/**
 * rdmachan_bench_over() - has a run reached its limits?
 * @msgs: messages it has moved
 * @count: its count, 0 for none
 * @deadline: ktime_get_ns() to stop at, 0 for none
 *
 * Context: process context.
 * Return: true at @count, at @deadline, or once a signal is pending.
 */
static inline bool rdmachan_bench_over(u64 msgs, u64 count, u64 deadline)
{
	if (count && msgs >= count)
		return true;
	if (deadline && ktime_get_ns() >= deadline)
		return true;
	return signal_pending(current);
}

long rdmachan_bench_run(struct rdmachan *ch, struct rdmachan_bench *b);
int rdmachan_bench_rdma(struct rdmachan *ch, struct rdmachan_bench *b);

struct rdmachan_dgram;
struct rdmachan_dgram_bench;
long rdmachan_dgram_bench_run(struct rdmachan_dgram *d,
			      struct rdmachan_dgram_bench *b);

#endif /* RDMACHAN_BENCH_H */
