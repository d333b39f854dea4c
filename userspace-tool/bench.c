// SPDX-License-Identifier: GPL-2.0-only
/*
 * bench.c: "rdmachan bench": message rate and bandwidth of one channel
 * blasting batched messages at "rdmachan listen --sink"; with --op
 * write|read, RDMA ops against "rdmachan reg", or with --kernel against
 * "rdmachan listen --target" (bench_rdma.c).
 */
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <unistd.h>

#include "chan.h"
#ifdef RDMACHAN_IOC_RDMA
#include "rdma.h"
#endif

static volatile sig_atomic_t interrupted;

static void on_int(int sig)
{
	(void)sig;
	interrupted = 1;
}

static void bench_help(void)
{
	printf("Usage: rdmachan bench ADDR[:PORT] [--op send|write|read] [-s SIZE] [-t DURATION]\n"
	       "                      [-c COUNT] [-b BATCH] [-q] [OPTIONS]\n"
	       "Send messages to \"rdmachan listen --sink\" as fast as credits allow,\n"
	       "BATCH per RDMACHAN_IOC_SENDMMSG call; print a progress line each\n"
	       "second (unless -q) and the message rate and bandwidth at the end.\n"
	       "With --op write or read: RDMA WRITEs or READs of SIZE bytes against\n"
	       "\"rdmachan reg\", spread over its buffer, BATCH per RDMACHAN_IOC_RDMA;\n"
	       "with --kernel too, against \"listen --target\", BATCH per chained post.\n"
	       "      --op OP         send (default), write or read\n"
	       "  -s, --size SIZE     message or op size (default 64)\n"
	       "  -t, --time DUR      how long to run (default 5s, unless -c)\n"
	       "  -c, --count N       stop after N messages or ops\n"
	       "  -b, --batch N       messages per call (default 32), or ops per call\n"
	       "                      (default 16, at most 64)\n"
	       "  -q, --quiet         no progress lines\n"
	       "  -k, --kernel        loop in the kernel (RDMACHAN_IOC_BENCH, BATCH per\n"
	       "                      chained post) against \"listen --sink --kernel\",\n"
	       "                      or with --op write|read \"listen --target\"\n"
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

	if (tool.json) {
		struct json *j = &tool.j;

		json_obj_open(j);
		json_kv_str(j, "dst", dst);
		json_kv_str(j, "op", "send");
		json_kv_u64(j, "size", r->size);
		json_kv_u64(j, "queue_depth", r->depth);
		json_kv_u64(j, "batch", r->batch);
		json_kv_str(j, "mode", r->kernel ? "kernel" : "user");
		json_kv_double(j, "seconds", r->secs);
		json_kv_u64(j, "messages", r->msgs);
		json_kv_u64(j, "bytes", r->msgs * r->size);
		json_kv_double(j, "msg_rate", rate);
		json_kv_double(j, "mbytes_per_sec", bw / 1e6);
		json_kv_double(j, "gbits_per_sec", bw * 8 / 1e9);
		json_kv_u64(j, "credit_stalls", r->stalls);
		json_obj_close(j);
		json_end(j);
		return;
	}
	printf("%s size %llu depth %llu batch %llu%s: %llu messages in %.2f s, %.0f msg/s, %.2f MB/s (%.3f Gb/s)\n",
	       dst, (unsigned long long)r->size, (unsigned long long)r->depth,
	       (unsigned long long)r->batch, r->kernel ? " in-kernel" : "",
	       (unsigned long long)r->msgs, r->secs,
	       rate, bw / 1e6, bw * 8 / 1e9);
}

int cmd_bench(int argc, char **argv)
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
	struct sockaddr_storage dst;
	struct bench_result res = { 0 };
	struct sigaction sa;
	unsigned char *buf = NULL;
	double t0, tick, t;
	bool quiet = false, has_time = false;
	const char *op = "send";
	char dstbuf[64];
	int c, r, ctl, fd, ret = EXIT_OK;
	uint64_t i;

	optind = 1;
	opterr = 0;
	while ((c = CMD_GETOPT(argc, argv, "s:t:c:b:qkh" CHAN_GETOPT_SHORT, longopts)) != -1) {
		switch (c) {
		case 's':
			if (parse_size(optarg, 0, 1U << 30, &size))
				return tool_usage_err("bench", "invalid size '%s'", optarg);
			break;
		case 't':
			if (parse_duration_ms(optarg, &time_ms) || !time_ms)
				return tool_usage_err("bench", "invalid duration '%s'", optarg);
			has_time = true;
			break;
		case 'c':
			if (parse_uint(optarg, 1, UINT64_MAX, &count))
				return tool_usage_err("bench", "invalid count '%s'", optarg);
			break;
		case 'o':
			if (strcmp(optarg, "send") && strcmp(optarg, "write") &&
			    strcmp(optarg, "read"))
				return tool_usage_err("bench", "invalid op '%s' (send, write or read)",
						      optarg);
			op = optarg;
			break;
		case 'b':
			if (parse_uint(optarg, 1, 1024, &batch))
				return tool_usage_err("bench", "invalid batch '%s'", optarg);
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
			r = chan_opt("bench", c, optarg, &a);
			if (r < 0)
				return EXIT_USAGE;
			if (!r)
				return tool_usage_err("bench", "unknown or incomplete option '%s'",
						      argv[optind - 2]);
		}
	}
	argc -= optind - 1;
	argv += optind - 1;
	if (argc != 1)
		return tool_usage_err("bench", "one address expected");
	if (count && !has_time)
		time_ms = 0;	/* -c alone: no time limit */
	if (strcmp(op, "send")) {
#ifdef RDMACHAN_IOC_RDMA
		struct bench_rdma_args b = {
			.addr = argv[0], .chan = &a, .read = !strcmp(op, "read"),
			.size = size, .batch = batch ? batch : 16,
			.time_ms = time_ms, .count = count, .quiet = quiet,
			.kernel = res.kernel,
		};

		if (b.batch > RDMACHAN_MAX_RDMA_OPS)
			return tool_usage_err("bench", "--op %s: at most %d ops per call",
					      op, RDMACHAN_MAX_RDMA_OPS);
		if (!size)
			return tool_usage_err("bench", "--op %s: the size must be at least 1", op);
		return b.kernel ? bench_rdma_kernel(&b) : bench_rdma(&b);
#else
		return tool_usage_err("bench", "--op %s: built without the RDMA ABI", op);
#endif
	}
	if (!batch)
		batch = 32;
	if (parse_addr(argv[0], TOOL_DEFAULT_PORT, &dst))
		return tool_usage_err("bench", "'%s' is not ADDR[:PORT]", argv[0]);
	format_addr(&dst, dstbuf, sizeof(dstbuf));
	ctl = ctl_open();
	if (ctl < 0)
		return EXIT_FAIL;
	fd = chan_connect_to(ctl, &dst, &a);
	close(ctl);
	if (fd < 0)
		return EXIT_FAIL;
	if (chan_get_info(fd, &ci)) {
		close(fd);
		return EXIT_FAIL;
	}
	if (size > ci.max_msg_size) {
		tool_err("size %llu is larger than the channel's max message size %u",
			 (unsigned long long)size, ci.max_msg_size);
		close(fd);
		return EXIT_FAIL;
	}
	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_int;
	sigaction(SIGINT, &sa, NULL);
	signal(SIGPIPE, SIG_IGN);
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
		if (interrupted || (time_ms && t - t0 >= time_ms / 1000.0) ||
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
	report(dstbuf, &res);
out:
	free(msgs);
	free(buf);
	close(fd);
	return ret;
}
