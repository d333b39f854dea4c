// SPDX-License-Identifier: GPL-2.0-only
/*
 * test_hist.c: the latency histograms' reading (hist.c): the parsing of
 * sysfs's "LO_US COUNT" lines and the percentiles drawn from them.
 */
#include <string.h>

#include "hist.h"
#include "test_unit.h"

void test_hist(void)
{
	struct hist h;

	ok(!hist_parse("0 0\n1 2\n2 5\n4 3\n8 0\n", &h) && h.n == 5 &&
	   h.total == 10 && h.lo_us[3] == 4 && h.count[2] == 5,
	   "hist: sysfs's lines parse, the samples add up");
	ok(hist_pct(&h, 0.5) == 4 && hist_pct(&h, 0.2) == 2 &&
	   hist_pct(&h, 0.99) == 8 && hist_pct(&h, 0.0) == 2,
	   "hist: a percentile is the upper bound of its bucket");
	ok(!hist_parse("0 0\n1 0\n", &h) && !h.total && !hist_pct(&h, 0.5),
	   "hist: no samples, no percentile");
	ok(!hist_parse("0 1\n1 0\n2 7", &h) && hist_pct(&h, 0.99) == 2,
	   "hist: the last bucket, which has no upper bound, gives its lower");
	ok(hist_parse("0 1\n0 2\n", &h) == -1 && hist_parse("0 x\n", &h) == -1 &&
	   hist_parse("0 1 2\n", &h) == -1,
	   "hist: bounds out of order and malformed lines are refused");
	ok(!hist_parse("", &h) && h.n == 0, "hist: an empty file is no histogram");
}
