/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * rdmachan: latency histograms (hist.c), the pure part for KUnit
 * (tests/kunit/hist_kunit.c): log2 buckets of microseconds and their
 * text, as sysfs shows it
 */
#ifndef RDMACHAN_HIST_H
#define RDMACHAN_HIST_H

#include <linux/bitops.h>
#include <linux/kernel.h>
#include <linux/math64.h>
#include <linux/minmax.h>
#include <linux/time64.h>
#include <linux/types.h>

#include "rdmachan.h"	/* RDMACHAN_HIST_BUCKETS */

struct dentry;
void rdmachan_hist_debugfs(struct dentry *dir);	/* hist.c */

/**
 * rdmachan_hist_bucket() - the bucket of a latency
 * @ns: the latency, nanoseconds
 *
 * Context: any.
 * Return: its bucket, below RDMACHAN_HIST_BUCKETS.
 */
static inline unsigned int rdmachan_hist_bucket(u64 ns)
{
	u64 us = div_u64(ns, NSEC_PER_USEC);

	return min_t(unsigned int, us ? fls64(us) : 0,
		     RDMACHAN_HIST_BUCKETS - 1);
}

/**
 * rdmachan_hist_lo_us() - the smallest latency a bucket holds
 * @b: the bucket
 *
 * Context: any.
 * Return: microseconds.
 */
static inline u64 rdmachan_hist_lo_us(unsigned int b)
{
	return b ? 1ULL << (b - 1) : 0;
}

/**
 * rdmachan_hist_format() - a histogram as sysfs shows it
 * @counts: RDMACHAN_HIST_BUCKETS counts
 * @buf: where the text goes
 * @size: its size
 *
 * One line a bucket, "LO_US COUNT", LO_US the smallest latency the
 * bucket holds (rdmachan_hist_lo_us()), every bucket, in order.
 *
 * Context: any.
 * Return: the length of the text (cut short at @size - 1).
 */
static inline int rdmachan_hist_format(const u64 *counts, char *buf,
				       size_t size)
{
	unsigned int b;
	int n = 0;

	for (b = 0; b < RDMACHAN_HIST_BUCKETS && n < (int)size - 1; b++)
		n += scnprintf(buf + n, size - n, "%llu %llu\n",
			       rdmachan_hist_lo_us(b), counts[b]);
	return n;
}

#endif /* RDMACHAN_HIST_H */
