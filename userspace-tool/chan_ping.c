// SPDX-License-Identifier: GPL-2.0-only
/*
 * chan_ping.c: "rdmachan chan ping": round-trip times of messages echoed
 * by "rdmachan chan listen --echo", printed like ping(8), with percentiles.
 */
#include <errno.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "chan.h"

static void ping_help(void)
{
	printf("Usage: rdmachan chan ping ADDR[:PORT] [-c COUNT] [-s SIZE] [-i INTERVAL] [-W TIMEOUT] [-q] [OPTIONS]\n"
	       "Send messages to \"rdmachan chan listen --echo\" and time their replies.\n"
	       "  -c, --count N       stop after N replies (default: until interrupted)\n"
	       "  -s, --size SIZE     message size in bytes (default 64)\n"
	       "  -i, --interval DUR  wait between messages (default 1s; 0: none)\n"
	       "  -W, --wait DUR      give up on a reply after DUR (default 5s)\n"
	       "  -q, --quiet         only the summary\n"
	       "  -k, --kernel        loop in the kernel (RDMACHAN_IOC_BENCH) against\n"
	       "                      \"chan listen --echo --kernel\": back to back, no\n"
	       "                      per-message lines; COUNT defaults to 10000\n"
	       CHAN_OPTS_HELP);
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return x < y ? -1 : x > y;
}

static void fill(unsigned char *b, size_t n, uint64_t seq)
{
	size_t i;

	for (i = 0; i < n; i++)
		b[i] = (unsigned char)(seq * 131 + i);
	if (n >= sizeof(seq))
		memcpy(b, &seq, sizeof(seq));
}

/* Round-trip times in microseconds */
struct rtt_stats {
	double min, avg, p50, p99, max;
};

static void rtt_stats_of(double *rtt, uint64_t n, struct rtt_stats *st)
{
	double sum = 0;
	uint64_t i;

	memset(st, 0, sizeof(*st));
	if (!n)
		return;
	qsort(rtt, n, sizeof(*rtt), cmp_double);
	for (i = 0; i < n; i++)
		sum += rtt[i];
	st->min = rtt[0];
	st->max = rtt[n - 1];
	st->avg = sum / n;
	st->p50 = percentile(rtt, n, 50);
	st->p99 = percentile(rtt, n, 99);
}

static void summary(const char *dst, uint64_t size, uint64_t sent, uint64_t n,
		    const struct rtt_stats *st, bool kernel)
{
	enum out_type t = n ? PRINT_ANY : PRINT_JSON;

	open_record(stdout);
	print_str(PRINT_ANY, "dst", "--- %s rdmachan ping statistics", dst);
	print_str(PRINT_FP, NULL, "%s ---\n", kernel ? " (in-kernel)" : "");
	print_u64(PRINT_JSON, "size", NULL, size);
	print_u64(PRINT_ANY, "sent", "%llu messages sent", sent);
	print_u64(PRINT_ANY, "received", ", %llu received", n);
	print_double(PRINT_FP, NULL, ", %.0f%% without reply\n",
		     sent ? 100.0 * (sent - n) / sent : 0.0);
	print_str(PRINT_JSON, "mode", NULL, kernel ? "kernel" : "user");
	/* no reply: no text line for the times, zeros in JSON */
	print_double(t, "min_us", "rtt min/avg/p50/p99/max = %.1f", st->min);
	print_double(t, "avg_us", "/%.1f", st->avg);
	print_double(t, "p50_us", "/%.1f", st->p50);
	print_double(t, "p99_us", "/%.1f", st->p99);
	print_double(t, "max_us", "/%.1f us\n", st->max);
	close_record();
}

/* ping --kernel: the ping-pong loop runs in the kernel */
static int ping_kernel(int fd, const char *dst, uint64_t count, uint64_t size)
{
	struct rdmachan_bench b = {
		.mode = RDMACHAN_BENCH_PINGPONG, .msg_size = size,
		.count = count ? count : 10000,
	};
	struct rtt_stats st;

	if (chan_bench(fd, &b))
		return EXIT_FAIL;
	st.min = b.lat_min_ns / 1e3;
	st.avg = b.lat_avg_ns / 1e3;
	st.p50 = b.lat_p50_ns / 1e3;
	st.p99 = b.lat_p99_ns / 1e3;
	st.max = b.lat_max_ns / 1e3;
	summary(dst, size, b.msgs, b.msgs, &st, true);
	return EXIT_OK;
}

int cmd_chan_ping(int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "count", required_argument, NULL, 'c' },
		{ "size", required_argument, NULL, 's' },
		{ "interval", required_argument, NULL, 'i' },
		{ "wait", required_argument, NULL, 'W' },
		{ "quiet", no_argument, NULL, 'q' },
		{ "kernel", no_argument, NULL, 'k' },
		CHAN_LONG_OPTS,
		{ NULL, 0, NULL, 0 }
	};
	uint64_t count = 0, size = 64, interval_ms = 1000, wait_ms = 5000, seq;
	struct chan_args a = { 0 };
	unsigned char *out = NULL, *in = NULL;
	double *rtt = NULL;
	size_t rtt_cap = 0;
	uint64_t got = 0, sent = 0;
	bool quiet = false, kernel = false;
	struct rtt_stats st;
	struct chan_conn ch;
	char *dstbuf = ch.dst;
	int c, r, fd, ret;

	CMD_GETOPT_INIT();
	while ((c = CMD_GETOPT(argc, argv, "c:s:i:W:qkh" CHAN_GETOPT_SHORT, longopts)) != -1) {
		switch (c) {
		case 'c':
			if (parse_uint(optarg, 1, UINT32_MAX, &count))
				return tool_usage_err("chan ping", "invalid count '%s'", optarg);
			break;
		case 's':
			if (parse_size(optarg, 0, 1U << 30, &size))
				return tool_usage_err("chan ping", "invalid size '%s'", optarg);
			break;
		case 'i':
			if (parse_duration_ms(optarg, &interval_ms))
				return tool_usage_err("chan ping", "invalid interval '%s'", optarg);
			break;
		case 'W':
			if (parse_duration_ms(optarg, &wait_ms) || !wait_ms)
				return tool_usage_err("chan ping", "invalid wait '%s'", optarg);
			break;
		case 'q':
			quiet = true;
			break;
		case 'k':
			kernel = true;
			break;
		case 'h':
			ping_help();
			return EXIT_OK;
		default:
			if (chan_opt("chan ping", c, argv, &a))
				return EXIT_USAGE;
		}
	}
	if (cmd_one_addr("chan ping", &argc, &argv))
		return EXIT_USAGE;
	ret = chan_open("chan ping", argv[0], &a, size, &ch);
	if (ret)
		return ret;
	fd = ch.fd;
	catch_signals(false);
	if (kernel) {
		ret = ping_kernel(fd, dstbuf, count, size);
		goto out;
	}
	out = malloc(size + 1);
	in = malloc(size + 1);
	if (!out || !in) {
		ret = EXIT_FAIL;
		goto out;
	}
	if (!quiet)
		print_fp("PING %s: %llu bytes, queue depth %u\n", dstbuf,
			 (unsigned long long)size, ch.ci.queue_depth);

	for (seq = 0; !tool_interrupted && (!count || seq < count); seq++) {
		struct pollfd p = { .fd = fd, .events = POLLIN };
		double t0, us;
		ssize_t n;

		if (seq && interval_ms) {
			struct timespec ts = { interval_ms / 1000,
					       (interval_ms % 1000) * 1000000 };

			nanosleep(&ts, NULL);
			if (tool_interrupted)
				break;
		}
		fill(out, size, seq);
		t0 = now_sec();
		if (write(fd, out, size) != (ssize_t)size) {
			tool_err("send: %s", strerror(errno));
			ret = EXIT_FAIL;
			break;
		}
		sent++;
		r = poll(&p, 1, wait_ms);
		if (r == 0) {
			tool_err("no reply to seq %llu within %llu ms (is the peer \"chan listen --echo\"?)",
				 (unsigned long long)seq, (unsigned long long)wait_ms);
			ret = EXIT_FAIL;
			break;
		}
		n = r < 0 ? -1 : read(fd, in, size + 1);
		us = (now_sec() - t0) * 1e6;
		if (n < 0 && errno == EINTR)
			break;
		if (n <= 0) {
			tool_err("receive: %s", n ? strerror(errno) : "peer closed the channel");
			ret = EXIT_FAIL;
			break;
		}
		if ((size_t)n != size || memcmp(in, out, size)) {
			tool_err("seq %llu: the reply differs from what was sent (%zd bytes)",
				 (unsigned long long)seq, n);
			ret = EXIT_FAIL;
			break;
		}
		if (got == rtt_cap) {
			double *nr;

			rtt_cap = rtt_cap ? rtt_cap * 2 : 1024;
			nr = realloc(rtt, rtt_cap * sizeof(*rtt));
			if (!nr) {
				ret = EXIT_FAIL;
				break;
			}
			rtt = nr;
		}
		rtt[got++] = us;
		if (!quiet)
			print_fp("%llu bytes from %s: seq=%llu time=%.1f us\n",
				 (unsigned long long)size, dstbuf,
				 (unsigned long long)seq, us);
	}
	rtt_stats_of(rtt, got, &st);
	summary(dstbuf, size, sent, got, &st, false);
	if (got < sent)
		ret = EXIT_FAIL;
out:
	free(rtt);
	free(in);
	free(out);
	close(fd);
	return ret;
}
