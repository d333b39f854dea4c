// SPDX-License-Identifier: GPL-2.0-only
/*
 * rdmachan: latency histograms, for channels, block mappings and exports,
 * and network interfaces (Documentation/debugging.rst, "Latency
 * histograms")
 *
 * A histogram counts latencies in log2 buckets of microseconds
 * (hist.h), in per-CPU counters: adding one is a clock read by the caller
 * and an increment of this CPU's bucket, in any context, with no lock and
 * no shared cache line.  Reading sums the CPUs; a reset zeroes them,
 * racing with the adds of that moment (a count may survive it).  A user
 * makes one with rdmachan_hist_alloc() when the latency_hist module
 * parameter is on (rdmachan_hist_enabled()), and shows it in sysfs with
 * rdmachan_hist_show(), a write resetting it.
 */
#include <linux/cpumask.h>
#include <linux/debugfs.h>
#include <linux/mm.h>
#include <linux/percpu.h>
#include <linux/sched.h>
#include <linux/seq_file.h>
#include <linux/slab.h>
#include <linux/string.h>

#include "rdmachan.h"
#include "hist.h"
#include "params.h"

struct rdmachan_hist_cpu {
	u64 b[RDMACHAN_HIST_BUCKETS];
};

/* A histogram: its per-CPU counters */
struct rdmachan_hist {
	struct rdmachan_hist_cpu __percpu *cpu;
};

/**
 * rdmachan_hist_enabled() - do new objects keep latency histograms
 *
 * The latency_hist module parameter of rdmachan.ko, read once per object
 * as it is made.
 *
 * Context: any.
 * Return: whether they do.
 */
bool rdmachan_hist_enabled(void)
{
	return rdmachan_param_latency_hist();
}
EXPORT_SYMBOL_GPL(rdmachan_hist_enabled);

/**
 * rdmachan_hist_alloc() - a histogram, all buckets 0
 * @gfp: how to allocate (GFP_KERNEL, or GFP_KERNEL_ACCOUNT to charge the
 *	caller's memory cgroup)
 *
 * Context: process context.
 * Return: the histogram, or NULL without memory.
 */
struct rdmachan_hist *rdmachan_hist_alloc(gfp_t gfp)
{
	struct rdmachan_hist *h = kzalloc(sizeof(*h), gfp);

	if (!h)
		return NULL;
	h->cpu = alloc_percpu_gfp(struct rdmachan_hist_cpu, gfp);
	if (!h->cpu) {
		kfree(h);
		return NULL;
	}
	return h;
}
EXPORT_SYMBOL_GPL(rdmachan_hist_alloc);

/**
 * rdmachan_hist_free() - free a histogram
 * @h: the histogram, or NULL
 *
 * Context: process context; nothing adds to @h any more.
 */
void rdmachan_hist_free(struct rdmachan_hist *h)
{
	if (!h)
		return;
	free_percpu(h->cpu);
	kfree(h);
}
EXPORT_SYMBOL_GPL(rdmachan_hist_free);

/**
 * rdmachan_hist_bytes() - the memory a histogram takes
 *
 * Context: any.
 * Return: bytes, its per-CPU counters on every possible CPU included.
 */
size_t rdmachan_hist_bytes(void)
{
	return sizeof(struct rdmachan_hist) +
	       num_possible_cpus() * sizeof(struct rdmachan_hist_cpu);
}
EXPORT_SYMBOL_GPL(rdmachan_hist_bytes);

/**
 * rdmachan_hist_add() - count one latency
 * @h: the histogram, or NULL (nothing is counted)
 * @ns: the latency, nanoseconds (a negative difference of clock reads
 *	on two CPUs, as a u64, counts in the last bucket)
 *
 * Context: any.
 */
void rdmachan_hist_add(struct rdmachan_hist *h, u64 ns)
{
	if (h)
		this_cpu_inc(h->cpu->b[rdmachan_hist_bucket(ns)]);
}
EXPORT_SYMBOL_GPL(rdmachan_hist_add);

/**
 * rdmachan_hist_read() - a histogram's counts, summed over the CPUs
 * @h: the histogram
 * @counts: RDMACHAN_HIST_BUCKETS counts
 *
 * Context: any.
 */
void rdmachan_hist_read(struct rdmachan_hist *h, u64 *counts)
{
	unsigned int b;
	int cpu;

	memset(counts, 0, RDMACHAN_HIST_BUCKETS * sizeof(*counts));
	for_each_possible_cpu(cpu) {
		const struct rdmachan_hist_cpu *c = per_cpu_ptr(h->cpu, cpu);

		for (b = 0; b < RDMACHAN_HIST_BUCKETS; b++)
			counts[b] += READ_ONCE(c->b[b]);
	}
}
EXPORT_SYMBOL_GPL(rdmachan_hist_read);

/**
 * rdmachan_hist_show() - a histogram as a sysfs attribute shows it
 * @h: the histogram, or NULL (kept off: nothing is shown)
 * @buf: the attribute's page
 *
 * One line a bucket, "LO_US COUNT" (hist.h).
 *
 * Context: process context.
 * Return: the text's length.
 */
ssize_t rdmachan_hist_show(struct rdmachan_hist *h, char *buf)
{
	u64 counts[RDMACHAN_HIST_BUCKETS];

	if (!h)
		return 0;
	rdmachan_hist_read(h, counts);
	return rdmachan_hist_format(counts, buf, PAGE_SIZE);
}
EXPORT_SYMBOL_GPL(rdmachan_hist_show);

/**
 * rdmachan_hist_reset() - zero a histogram
 * @h: the histogram, or NULL
 *
 * A latency added on another CPU at this moment may be kept.
 *
 * Context: any.
 */
void rdmachan_hist_reset(struct rdmachan_hist *h)
{
	int cpu;

	if (!h)
		return;
	for_each_possible_cpu(cpu)
		memset(per_cpu_ptr(h->cpu, cpu), 0,
		       sizeof(struct rdmachan_hist_cpu));
}
EXPORT_SYMBOL_GPL(rdmachan_hist_reset);

/* Latencies timed and counted by one read of hist_cost */
#define RDMACHAN_HIST_COST_N	65536

/*
 * /sys/kernel/debug/rdmachan/hist_cost: what one latency costs, timed
 * here: two clock reads and an add, RDMACHAN_HIST_COST_N times, on a
 * scratch histogram; the nanoseconds of one.  make bench sets it against
 * the time of a message (Documentation/debugging.rst).
 */
static int rdmachan_hist_cost_show(struct seq_file *m, void *v)
{
	struct rdmachan_hist *h = rdmachan_hist_alloc(GFP_KERNEL);
	u64 t0, n;

	if (!h)
		return -ENOMEM;
	t0 = ktime_get_ns();
	for (n = 0; n < RDMACHAN_HIST_COST_N; n++) {
		u64 t = ktime_get_ns();

		rdmachan_hist_add(h, ktime_get_ns() - t);
		if (!(n % 4096))
			cond_resched();
	}
	t0 = ktime_get_ns() - t0;
	rdmachan_hist_free(h);
	seq_printf(m, "%llu\n", div_u64(t0, RDMACHAN_HIST_COST_N));
	return 0;
}
DEFINE_SHOW_ATTRIBUTE(rdmachan_hist_cost);

/**
 * rdmachan_hist_debugfs() - create hist_cost in rdmachan's debugfs
 * @dir: /sys/kernel/debug/rdmachan
 *
 * Context: module init.
 */
void rdmachan_hist_debugfs(struct dentry *dir)
{
	debugfs_create_file("hist_cost", 0400, dir, NULL,
			    &rdmachan_hist_cost_fops);
}
