/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * hist.h: the latency histograms of sysfs (module/chan/hist.c), read and
 * drawn by "show --hist" (hist.c).  The parsing and the percentiles are
 * pure, for the unit tests.
 */
#ifndef RDMACHAN_TOOL_HIST_H
#define RDMACHAN_TOOL_HIST_H

#include <stdbool.h>
#include <stdint.h>

#define HIST_MAX	64

/* A histogram: bucket i holds latencies from lo_us[i] to lo_us[i + 1] */
struct hist {
	int n;
	uint64_t lo_us[HIST_MAX];
	uint64_t count[HIST_MAX];
	uint64_t total;
};

/* hist_parse: "LO_US COUNT" lines into @h; -1 for a malformed text */
int hist_parse(const char *text, struct hist *h);
/*
 * hist_pct: the latency under which a fraction @p of the samples fall,
 * as the upper bound of their bucket (its lower bound for the last,
 * which has none); 0 without samples
 */
uint64_t hist_pct(const struct hist *h, double p);
/*
 * show_hist: the histogram in sysfs file /sys/(@fmt ...) under @key: text,
 * its samples, p50, p99 and a bar a bucket from the first to the last
 * that counted; JSON, {"samples", "p50_us", "p99_us", "buckets":
 * [{"lo_us", "count"}...]}.  Nothing when the file is missing or empty
 * (histograms off).
 */
void show_hist(const char *key, const char *what, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
/* take_hist_flag: remove "--hist" from @argv; whether it was there */
bool take_hist_flag(int *argc, char **argv);

#endif /* RDMACHAN_TOOL_HIST_H */
