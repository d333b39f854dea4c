// SPDX-License-Identifier: GPL-2.0-only
/*
 * dgram_bench.c: "rdmachan dgram bench" and "dgram recv --sink": the
 * in-kernel datagram benchmark (RDMACHAN_IOC_DGRAM_BENCH).  bench blasts
 * datagrams at a sink or ping-pongs them with an echo (dgram echo -k),
 * the whole loop in the kernel, as chan bench --kernel does on a channel
 * against chan listen --sink; recv --sink serves a port and counts what
 * comes.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/ioctl.h>

#include "chan.h"		/* catch_signals() */
#include "dgram.h"

/* a blast's time when neither -t nor -c is given */
#define DGRAM_BENCH_DEFAULT_MS	5000
/* a sink's end: no datagram for this long after the first */
#define DGRAM_SINK_IDLE_MS	2000
/* the kernel's bound of a reply or an idle sink */
#define DGRAM_BENCH_MAX_WAIT_MS	600000

int dgram_bench_kernel(const char *cmd, const char *what,
		       const struct dgram_ep *ep, struct rdmachan_dgram_bench *b)
{
	b->size = sizeof(*b);
	/* a signal before the run: the run ends at once, with nothing done */
	if (tool_interrupted)
		return 0;
	if (ioctl(ep->fd, RDMACHAN_IOC_DGRAM_BENCH, b) == 0)
		return 0;
	return dgram_err(cmd, what, errno, ep);
}

static void bench_help(void)
{
	printf("Usage: rdmachan dgram bench ADDR[:PORT] -I SRC [--op blast|pingpong]\n"
	       "                [-s SIZE] [-t DUR] [-c N] [-W DUR] [--qpn N] [--busy-poll]\n"
	       "In the kernel, blast datagrams of SIZE bytes at dgram recv --sink (--op\n"
	       "blast, the default) or send one at a time and wait for its echo\n"
	       "from dgram echo -k (--op pingpong); print the rate, or the round\n"
	       "trips.  ADDR's port (default %d) is resolved from -I SRC.\n"
	       "  -s, --size SIZE     bytes a datagram, 1 to the path MTU (default 64)\n"
	       "  -t, --time DUR      run this long (default 5s, or until -c)\n"
	       "  -c, --count N       stop after N datagrams or round trips\n"
	       "  -W, --wait DUR      bound of the resolution (default 5s) and,\n"
	       "                      pingpong, of each reply (default 1s): a\n"
	       "                      reply not back by then counts as lost\n"
	       "      --qpn N         send to queue pair N of ADDR, unresolved\n"
	       "      --busy-poll     the endpoint's waits poll its completion\n"
	       "                      queue, spinning a while before they sleep\n",
	       DGRAM_PORT);
}

static void bench_report(const char *dst, const struct rdmachan_dgram_bench *b)
{
	double secs = b->elapsed_ns / 1e9;
	double rate = secs > 0 ? b->msgs / secs : 0;
	double bw = rate * b->msg_size;

	open_record(stdout);
	print_str(PRINT_ANY, "dst", "%s", dst);
	print_str(PRINT_ANY, "op", " %s", "blast");
	print_uint(PRINT_ANY, "size", " size %u", b->msg_size);
	print_str(PRINT_JSON, "mode", NULL, "kernel");
	print_fp(" in-kernel");
	print_double(PRINT_JSON, "seconds", NULL, secs);
	print_u64(PRINT_ANY, "datagrams", ": %llu datagrams", b->msgs);
	print_double(PRINT_FP, NULL, " in %.2f s", secs);
	print_u64(PRINT_JSON, "bytes", NULL, b->bytes);
	print_double(PRINT_ANY, "msg_rate", ", %.0f msg/s", rate);
	print_double(PRINT_ANY, "mbytes_per_sec", ", %.2f MB/s", bw / 1e6);
	print_double(PRINT_ANY, "gbits_per_sec", " (%.3f Gb/s) sent\n", bw * 8 / 1e9);
	close_record();
}

static void pingpong_report(const char *dst, const struct rdmachan_dgram_bench *b)
{
	enum out_type t = b->msgs ? PRINT_ANY : PRINT_JSON;

	open_record(stdout);
	print_str(PRINT_ANY, "dst", "%s", dst);
	print_str(PRINT_ANY, "op", " %s", "pingpong");
	print_uint(PRINT_ANY, "size", " size %u", b->msg_size);
	print_str(PRINT_JSON, "mode", NULL, "kernel");
	print_fp(" in-kernel");
	print_u64(PRINT_ANY, "round_trips", ": %llu round trips", b->msgs);
	print_u64(PRINT_ANY, "lost", ", %llu lost", b->lost);
	print_double(PRINT_ANY, "seconds", " in %.2f s\n", b->elapsed_ns / 1e9);
	/* no reply: no text line for the times, zeros in JSON */
	print_double(t, "min_us", "rtt min/avg/p50/p99/max = %.1f",
		     b->lat_min_ns / 1e3);
	print_double(t, "avg_us", "/%.1f", b->lat_avg_ns / 1e3);
	print_double(t, "p50_us", "/%.1f", b->lat_p50_ns / 1e3);
	print_double(t, "p99_us", "/%.1f", b->lat_p99_ns / 1e3);
	print_double(t, "max_us", "/%.1f us\n", b->lat_max_ns / 1e3);
	close_record();
}

int cmd_dgram_bench(int argc, char **argv)
{
	const char *cmd = "dgram bench";
	struct rdmachan_dgram_bench b = { 0 };
	struct dgram_args a;
	struct dgram_ep ep;
	char dst[80];
	int ret;

	ret = dgram_parse(cmd, DGRAM_OPT_SRC | DGRAM_OPT_SIZE | DGRAM_OPT_TIME |
			  DGRAM_OPT_COUNT | DGRAM_OPT_WAIT | DGRAM_OPT_QPN |
			  DGRAM_OPT_OP | DGRAM_OPT_BUSY, argc, argv, &a,
			  bench_help);
	if (ret)
		return ret == DGRAM_HELP ? EXIT_OK : ret;
	if (!a.has_size)
		a.size = 64;
	if (!a.size)
		return tool_usage_err(cmd, "-s: at least 1 byte");
	if (a.wait_ms > DGRAM_BENCH_MAX_WAIT_MS)
		return tool_usage_err(cmd, "-W: at most 600s");
	b.mode = a.op == DGRAM_BENCH_BLAST ? RDMACHAN_BENCH_BLAST :
		 RDMACHAN_BENCH_PINGPONG;
	b.msg_size = a.size;
	b.count = a.has_count ? a.count : 0;
	/* -c alone: no time limit */
	b.duration_ms = a.time_ms ? a.time_ms :
			a.has_count ? 0 : DGRAM_BENCH_DEFAULT_MS;
	if (b.mode == RDMACHAN_BENCH_PINGPONG && a.has_wait)
		b.wait_ms = a.wait_ms;
	ret = dgram_connect(cmd, &a, &ep, &b.peer, dst, sizeof(dst));
	if (ret < 0)
		return EXIT_FAIL;
	if (ret) {
		snprintf(dst + strlen(dst), sizeof(dst) - strlen(dst), " resolve");
		ret = dgram_err(cmd, dst, ret, &ep);
		dgram_close(&ep);
		return ret;
	}
	catch_signals(true);
	ret = dgram_bench_kernel(cmd, dst, &ep, &b);
	if (!ret && b.mode == RDMACHAN_BENCH_BLAST)
		bench_report(dst, &b);
	else if (!ret)
		pingpong_report(dst, &b);
	dgram_close(&ep);
	return ret;
}

static void sink_report(const struct dgram_ep *ep,
			const struct rdmachan_dgram_bench *b)
{
	double secs = b->elapsed_ns / 1e9;
	double rate = secs > 0 ? b->msgs / secs : 0;

	open_record(stdout);
	print_str(PRINT_ANY, "role", "%s", "sink");
	print_str(PRINT_ANY, "addr", " %s", ep->addr);
	print_uint(PRINT_ANY, "qpn", " qpn %u", ep->o.qpn);
	print_u64(PRINT_ANY, "datagrams", ": %llu datagrams", b->msgs);
	print_u64(PRINT_ANY, "bytes", ", %llu bytes", b->bytes);
	print_double(PRINT_ANY, "seconds", " in %.2f s", secs);
	print_double(PRINT_ANY, "msg_rate", ", %.0f msg/s", rate);
	print_double(PRINT_ANY, "mbytes_per_sec", ", %.2f MB/s",
		     secs > 0 ? b->bytes / secs / 1e6 : 0);
	dgram_print_counters(ep);
	print_nl();
	close_record();
}

int dgram_sink(const char *cmd, const struct dgram_args *a)
{
	struct rdmachan_dgram_bench b = { .mode = RDMACHAN_BENCH_SINK };
	struct dgram_ep ep;
	int ret;

	if (addr_is_multicast(&a->addr))
		return tool_usage_err(cmd, "--sink serves a port, not a group");
	if (a->wait_ms > DGRAM_BENCH_MAX_WAIT_MS)
		return tool_usage_err(cmd, "-W: at most 600s");
	b.count = a->has_count ? a->count : 0;
	b.duration_ms = a->time_ms;
	b.wait_ms = a->has_wait ? a->wait_ms : DGRAM_SINK_IDLE_MS;
	/* caught from before the port is served: a signal ends the run */
	catch_signals(true);
	if (dgram_open(cmd, &a->addr, dgram_open_flags(a, RDMACHAN_DGRAM_SERVE),
		       a->depth, &ep))
		return EXIT_FAIL;
	dgram_serving(&ep, &a->addr);
	ret = dgram_bench_kernel(cmd, ep.addr, &ep, &b);
	if (!ret)
		sink_report(&ep, &b);
	dgram_close(&ep);
	return ret;
}
