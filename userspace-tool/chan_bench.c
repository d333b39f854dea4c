// SPDX-License-Identifier: GPL-2.0-only
/*
 * chan_bench.c: "rdmachan chan bench": message rate and bandwidth of one channel
 * blasting batched messages at "rdmachan chan listen --sink"; with --op
 * write|read, RDMA ops against "rdmachan mr reg", or with --kernel against
 * "rdmachan chan listen --target" (chan_bench_rdma.c).
 */
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <unistd.h>

#include "chan.h"
#include "rdma.h"

static void bench_help(void)
{
	printf("Usage: rdmachan chan bench ADDR[:PORT] [--op send|write|read] [-s SIZE] [-t DURATION]\n"
	       "                           [-c COUNT] [-b BATCH] [-q] [OPTIONS]\n"
	       "Send messages to \"rdmachan chan listen --sink\" as fast as credits allow,\n"
	       "BATCH per RDMACHAN_IOC_SENDMMSG call; print a progress line each\n"
	       "second (unless -q) and the message rate and bandwidth at the end.\n"
	       "With --op write or read: RDMA WRITEs or READs of SIZE bytes against\n"
	       "\"rdmachan mr reg\", spread over its buffer, BATCH per RDMACHAN_IOC_RDMA;\n"
	       "with --kernel too, against \"chan listen --target\", BATCH per chained post.\n"
	       "      --op OP         send (default), write or read\n"
	       "  -s, --size SIZE     message or op size (default 64)\n"
	       "  -t, --time DUR      how long to run (default 5s, unless -c)\n"
	       "  -c, --count N       stop after N messages or ops\n"
	       "  -b, --batch N       messages per call (default 32), or ops per call\n"
	       "                      (default 16, at most 64)\n"
	       "  -q, --quiet         no progress lines\n"
	       "  -k, --kernel        loop in the kernel (RDMACHAN_IOC_BENCH, BATCH per\n"
	       "                      chained post) against \"chan listen --sink --kernel\",\n"
	       "                      or with --op write|read \"chan listen --target\"\n"
	       CHAN_OPTS_HELP);
}

struct bench_result {
	uint64_t size, depth, batch, msgs, stalls;
	double secs;
	bool kernel;
};

static void report(const char *dst, const struct bench_result *r)
{
	double rate = r->secs > 0 ? r->msgs / r->secs : 0;
	double bw = rate * r->size;

	open_record(stdout);
	print_str(PRINT_ANY, "dst", "%s", dst);
	print_str(PRINT_JSON, "op", NULL, "send");
	print_u64(PRINT_ANY, "size", " size %llu", r->size);
	print_u64(PRINT_ANY, "queue_depth", " depth %llu", r->depth);
	print_u64(PRINT_ANY, "batch", " batch %llu", r->batch);
	print_str(PRINT_JSON, "mode", NULL, r->kernel ? "kernel" : "user");
	print_str(PRINT_FP, NULL, "%s", r->kernel ? " in-kernel" : "");
	print_double(PRINT_JSON, "seconds", NULL, r->secs);
	print_u64(PRINT_ANY, "messages", ": %llu messages", r->msgs);
	print_double(PRINT_FP, NULL, " in %.2f s", r->secs);
	print_u64(PRINT_JSON, "bytes", NULL, r->msgs * r->size);
	print_double(PRINT_ANY, "msg_rate", ", %.0f msg/s", rate);
	print_double(PRINT_ANY, "mbytes_per_sec", ", %.2f MB/s", bw / 1e6);
	print_double(PRINT_ANY, "gbits_per_sec", " (%.3f Gb/s)\n", bw * 8 / 1e9);
	print_u64(PRINT_JSON, "credit_stalls", NULL, r->stalls);
	close_record();
}

int cmd_chan_bench(int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "size", required_argument, NULL, 's' },
		{ "time", required_argument, NULL, 't' },
		{ "batch", required_argument, NULL, 'b' },
		{ "quiet", no_argument, NULL, 'q' },
		{ "kernel", no_argument, NULL, 'k' },
		{ "op", required_argument, NULL, 'o' },
		{ "count", required_argument, NULL, 'c' },
		CHAN_LONG_OPTS,
		{ NULL, 0, NULL, 0 }
	};
	uint64_t size = 64, time_ms = 5000, batch = 0, count = 0, last_msgs = 0;
	struct rdmachan_user_msg *msgs = NULL;
	struct chan_args a = { 0 };
	struct rdmachan_chan_info ci;
	struct bench_result res = { 0 };
	unsigned char *buf = NULL;
	double t0, tick, t;
	bool quiet = false, has_time = false;
	const char *op = "send";
	struct chan_conn ch;
	int c, fd, ret;
	uint64_t i;

	CMD_GETOPT_INIT();
	while ((c = CMD_GETOPT(argc, argv, "s:t:c:b:qkh" CHAN_GETOPT_SHORT, longopts)) != -1) {
		switch (c) {
		case 's':
			if (parse_size(optarg, 0, 1U << 30, &size))
				return tool_usage_err("chan bench", "invalid size '%s'", optarg);
			break;
		case 't':
			if (parse_duration_ms(optarg, &time_ms) || !time_ms)
				return tool_usage_err("chan bench", "invalid duration '%s'", optarg);
			has_time = true;
			break;
		case 'c':
			if (parse_uint(optarg, 1, UINT64_MAX, &count))
				return tool_usage_err("chan bench", "invalid count '%s'", optarg);
			break;
		case 'o':
			if (strcmp(optarg, "send") && strcmp(optarg, "write") &&
			    strcmp(optarg, "read"))
				return tool_usage_err("chan bench", "invalid op '%s' (send, write or read)",
						      optarg);
			op = optarg;
			break;
		case 'b':
			if (parse_uint(optarg, 1, 1024, &batch))
				return tool_usage_err("chan bench", "invalid batch '%s'", optarg);
			break;
		case 'q':
			quiet = true;
			break;
		case 'k':
			res.kernel = true;
			break;
		case 'h':
			bench_help();
			return EXIT_OK;
		default:
			if (chan_opt("chan bench", c, argv, &a))
				return EXIT_USAGE;
		}
	}
	if (cmd_one_addr("chan bench", &argc, &argv))
		return EXIT_USAGE;
	if (count && !has_time)
		time_ms = 0;	/* -c alone: no time limit */
	if (strcmp(op, "send")) {
		struct bench_rdma_args b = {
			.addr = argv[0], .chan = &a, .read = !strcmp(op, "read"),
			.size = size, .batch = batch ? batch : 16,
			.time_ms = time_ms, .count = count, .quiet = quiet,
			.kernel = res.kernel,
		};

		if (b.batch > RDMACHAN_MAX_RDMA_OPS)
			return tool_usage_err("chan bench", "--op %s: at most %d ops per call",
					      op, RDMACHAN_MAX_RDMA_OPS);
		if (!size)
			return tool_usage_err("chan bench", "--op %s: the size must be at least 1", op);
		return b.kernel ? bench_rdma_kernel(&b) : bench_rdma(&b);
	}
	if (!batch)
		batch = 32;
	ret = chan_open("chan bench", argv[0], &a, size, &ch);
	if (ret)
		return ret;
	fd = ch.fd;
	ci = ch.ci;
	catch_signals(false);
	res.size = size;
	res.depth = ci.queue_depth;
	res.batch = batch;
	if (res.kernel) {
		struct rdmachan_bench b = {
			.mode = RDMACHAN_BENCH_BLAST, .msg_size = size,
			.batch = batch < ci.queue_depth ? batch : ci.queue_depth,
			.duration_ms = time_ms, .count = count,
		};

		if (chan_bench(fd, &b)) {
			ret = EXIT_FAIL;
			goto out;
		}
		res.batch = b.batch;
		res.msgs = b.msgs;
		res.secs = b.elapsed_ns / 1e9;
		goto done;
	}
	/* All messages of a batch share one buffer: the payload is not checked. */
	buf = calloc(1, size + 1);
	msgs = calloc(batch, sizeof(*msgs));
	if (!buf || !msgs) {
		ret = EXIT_FAIL;
		goto out;
	}
	for (i = 0; i < batch; i++) {
		msgs[i].buf = (uintptr_t)buf;
		msgs[i].len = size;
	}

	t0 = now_sec();
	tick = t0 + 1;
	for (;;) {
		struct rdmachan_mmsg mm = {
			.size = sizeof(mm), .msgs = (uintptr_t)msgs, .count = batch,
		};

		t = now_sec();
		if (tool_interrupted || (time_ms && t - t0 >= time_ms / 1000.0) ||
		    (count && res.msgs >= count))
			break;
		if (count && count - res.msgs < batch)
			mm.count = count - res.msgs;
		if (t >= tick) {
			if (!quiet)
				fprintf(stderr, "%6.1f s %12llu msgs %12.0f msg/s %10.2f MB/s\n",
					t - t0, (unsigned long long)res.msgs,
					(res.msgs - last_msgs) / (t - tick + 1),
					(res.msgs - last_msgs) * size / (t - tick + 1) / 1e6);
			last_msgs = res.msgs;
			tick = t + 1;
		}
		if (ioctl(fd, RDMACHAN_IOC_SENDMMSG, &mm) < 0) {
			if (errno == EINTR)
				continue;
			tool_err("send: %s", strerror(errno));
			ret = EXIT_FAIL;
			break;
		}
		res.msgs += mm.done;
	}
	res.secs = now_sec() - t0;
done:
	if (!chan_get_info(fd, &ci))
		res.stalls = ci.credit_stalls;
	report(ch.dst, &res);
out:
	free(msgs);
	free(buf);
	close(fd);
	return ret;
}
