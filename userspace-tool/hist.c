// SPDX-License-Identifier: GPL-2.0-only
/*
 * hist.c: the latency histograms of sysfs (module/chan/hist.c: one line a
 * bucket, "LO_US COUNT", log2 buckets of microseconds), drawn as text bars
 * or given as JSON by "chan show --hist", "blk show --hist" and "net show
 * --hist".
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "hist.h"
#include "out.h"
#include "tool.h"

#define HIST_BAR	40

int hist_parse(const char *text, struct hist *h)
{
	const char *p = text;

	memset(h, 0, sizeof(*h));
	while (*p) {
		unsigned long long lo, count;
		int used;

		if (sscanf(p, "%llu %llu%n", &lo, &count, &used) != 2 ||
		    h->n == HIST_MAX || (h->n && lo <= h->lo_us[h->n - 1]))
			return -1;
		h->lo_us[h->n] = lo;
		h->count[h->n++] = count;
		h->total += count;
		p += used;
		if (*p && *p != '\n')
			return -1;
		if (*p)
			p++;
	}
	return 0;
}

uint64_t hist_pct(const struct hist *h, double p)
{
	uint64_t want, seen = 0;
	int i;

	if (!h->total)
		return 0;
	want = (uint64_t)(p * (double)h->total + 0.999999);
	if (!want)
		want = 1;
	for (i = 0; i < h->n; i++) {
		seen += h->count[i];
		if (seen >= want)
			return i + 1 < h->n ? h->lo_us[i + 1] : h->lo_us[i];
	}
	return h->lo_us[h->n - 1];
}

/* the file of sysfs (RDMACHAN_SYSFS for /sys), read whole into @buf */
static int hist_file(char *buf, size_t len, const char *fmt, va_list ap)
{
	const char *root = getenv("RDMACHAN_SYSFS");
	char path[512];
	size_t n;
	FILE *f;
	int o;

	o = snprintf(path, sizeof(path), "%s/", root ? root : "/sys");
	vsnprintf(path + o, sizeof(path) - o, fmt, ap);
	f = fopen(path, "r");
	if (!f)
		return -1;
	n = fread(buf, 1, len - 1, f);
	buf[n] = '\0';
	fclose(f);
	return 0;
}

static void hist_bars(const struct hist *h)
{
	uint64_t max = 0;
	int i, first = -1, last = -1;

	for (i = 0; i < h->n; i++) {
		if (!h->count[i])
			continue;
		if (first < 0)
			first = i;
		last = i;
		if (h->count[i] > max)
			max = h->count[i];
	}
	for (i = first; i >= 0 && i <= last; i++) {
		int w = (int)((h->count[i] * HIST_BAR + max - 1) / max);
		char bar[HIST_BAR + 1];

		memset(bar, '#', w);
		bar[w] = '\0';
		if (i + 1 < h->n)
			print_fp("      %8llu - %8llu us |%-*s %llu\n",
				 (unsigned long long)h->lo_us[i],
				 (unsigned long long)h->lo_us[i + 1], HIST_BAR,
				 bar, (unsigned long long)h->count[i]);
		else
			print_fp("      %8llu us and more |%-*s %llu\n",
				 (unsigned long long)h->lo_us[i], HIST_BAR, bar,
				 (unsigned long long)h->count[i]);
	}
}

void show_hist(const char *key, const char *what, const char *fmt, ...)
{
	char text[4096];
	struct hist h;
	va_list ap;
	int i, ret;

	va_start(ap, fmt);
	ret = hist_file(text, sizeof(text), fmt, ap);
	va_end(ap);
	if (ret || !text[0] || hist_parse(text, &h))
		return;
	open_object(key);
	print_str(PRINT_FP, NULL, "    %s", key);
	print_str(PRINT_FP, NULL, " (%s):", what);
	print_u64(PRINT_ANY, "samples", " %llu samples", h.total);
	if (h.total) {
		print_u64(PRINT_ANY, "p50_us", ", p50 < %llu us",
			  hist_pct(&h, 0.5));
		print_u64(PRINT_ANY, "p99_us", ", p99 < %llu us",
			  hist_pct(&h, 0.99));
	}
	print_nl();
	open_array("buckets");
	for (i = 0; i < h.n; i++) {
		open_object(NULL);
		print_u64(PRINT_JSON, "lo_us", NULL, h.lo_us[i]);
		print_u64(PRINT_JSON, "count", NULL, h.count[i]);
		close_object();
	}
	close_array();
	if (!out_json())
		hist_bars(&h);
	close_object();
}

bool take_hist_flag(int *argc, char **argv)
{
	bool found = false;
	int i, j;

	for (i = j = 0; i < *argc; i++) {
		if (!strcmp(argv[i], "--hist"))
			found = true;
		else
			argv[j++] = argv[i];
	}
	*argc = j;
	return found;
}
