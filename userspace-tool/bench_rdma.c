// SPDX-License-Identifier: GPL-2.0-only
/*
 * bench_rdma.c: "rdmachan bench --op write|read": the rate and bandwidth
 * of RDMA WRITEs or READs against the buffer of "rdmachan reg", BATCH
 * ops per RDMACHAN_IOC_RDMA call; with --kernel, the same loop in the
 * kernel (RDMACHAN_IOC_BENCH) against "rdmachan listen --target".
 */
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/ioctl.h>
#include <unistd.h>

#include "rdma.h"

static volatile sig_atomic_t interrupted;

static void on_int(int sig)
{
	(void)sig;
	interrupted = 1;
}

static void report(const char *dst, const struct bench_rdma_args *b,
		   uint64_t ops, double secs)
{
	double rate = secs > 0 ? ops / secs : 0;
	double bw = rate * b->size;
	const char *op = b->read ? "read" : "write";

	if (tool.json) {
		struct json *j = &tool.j;

		json_obj_open(j);
		json_kv_str(j, "dst", dst);
		json_kv_str(j, "op", op);
		json_kv_u64(j, "size", b->size);
		json_kv_u64(j, "batch", b->batch);
		json_kv_str(j, "mode", b->kernel ? "kernel" : "user");
		json_kv_double(j, "seconds", secs);
		json_kv_u64(j, "ops", ops);
		json_kv_u64(j, "bytes", ops * b->size);
		json_kv_double(j, "ops_per_sec", rate);
		json_kv_double(j, "mbytes_per_sec", bw / 1e6);
		json_kv_double(j, "gbits_per_sec", bw * 8 / 1e9);
		json_obj_close(j);
		json_end(j);
		return;
	}
	printf("%s %s size %llu batch %llu%s: %llu ops in %.2f s, %.0f ops/s, %.2f MB/s (%.3f Gb/s)\n",
	       dst, op, (unsigned long long)b->size, (unsigned long long)b->batch,
	       b->kernel ? " in-kernel" : "", (unsigned long long)ops, secs, rate,
	       bw / 1e6, bw * 8 / 1e9);
}

/* What an in-kernel run's errno means here */
static const char *kernel_hint(int err)
{
	switch (err) {
	case ETIMEDOUT:
		return " (no descriptor from the peer: is it \"listen --target\"?)";
	case EPROTO:
		return " (the peer sent something else than a descriptor: is it \"listen --target\"?)";
	case EMSGSIZE:
		return " (the target's region is smaller than BATCH * SIZE: see listen --region)";
	case E2BIG:
		return " (BATCH * SIZE is over the device's registration limit)";
	case EPIPE:
		return " (the target ended the run)";
	case EACCES:
		return " (the target refused an access)";
	default:
		return "";
	}
}

/*
 * bench_rdma_kernel: "bench --kernel --op write|read": connect to "listen
 * --target" and run RDMACHAN_IOC_BENCH WRITE or READ; the target's run
 * ends when this closes the channel.
 */
int bench_rdma_kernel(const struct bench_rdma_args *b)
{
	struct rdmachan_bench kb = {
		.size = sizeof(kb),
		.mode = b->read ? RDMACHAN_BENCH_READ : RDMACHAN_BENCH_WRITE,
		.msg_size = b->size, .batch = b->batch,
		.duration_ms = b->time_ms, .count = b->count,
	};
	struct sockaddr_storage dst;
	struct sigaction sa;
	char dstbuf[64];
	int ctl, fd, err;

	if (parse_addr(b->addr, TOOL_DEFAULT_PORT, &dst))
		return tool_usage_err("bench", "'%s' is not ADDR[:PORT]", b->addr);
	format_addr(&dst, dstbuf, sizeof(dstbuf));
	ctl = ctl_open();
	if (ctl < 0)
		return EXIT_FAIL;
	fd = chan_connect_to(ctl, &dst, b->chan);
	close(ctl);
	if (fd < 0)
		return EXIT_FAIL;
	/* a signal ends the run in the kernel, which still reports it */
	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_int;
	sigaction(SIGINT, &sa, NULL);
	signal(SIGPIPE, SIG_IGN);
	if (ioctl(fd, RDMACHAN_IOC_BENCH, &kb) < 0) {
		err = errno;
		tool_err("in-kernel %s: %s%s", b->read ? "read" : "write",
			 strerror(err), kernel_hint(err));
		close(fd);
		return EXIT_FAIL;
	}
	close(fd);
	report(dstbuf, b, kb.msgs, kb.elapsed_ns / 1e9);
	return EXIT_OK;
}

int bench_rdma(const struct bench_rdma_args *b)
{
	struct rdmachan_rdma_op ops[RDMACHAN_MAX_RDMA_OPS];
	uint64_t total = 0, last = 0, slots, seq = 0;
	struct rdmachan_sge sge;
	struct rdma_client cl;
	struct sigaction sa;
	double t0, tick, t;
	unsigned int i, m, done;
	int err = 0, ret;

	ret = rdma_client_open("bench", b->addr, b->chan, &cl);
	if (ret)
		return ret;
	ret = EXIT_FAIL;
	slots = cl.remote.length / b->size;
	if (!slots) {
		tool_err("size %llu is larger than the peer's buffer (%llu bytes)",
			 (unsigned long long)b->size, (unsigned long long)cl.remote.length);
		goto out;
	}
	if (rdma_client_buf(&cl, b->size))
		goto out;
	sge = (struct rdmachan_sge){ .handle = cl.handle, .length = b->size };
	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_int;
	sigaction(SIGINT, &sa, NULL);

	t0 = now_sec();
	tick = t0 + 1;
	for (;;) {
		t = now_sec();
		if (interrupted || (b->time_ms && t - t0 >= b->time_ms / 1000.0) ||
		    (b->count && total >= b->count))
			break;
		if (t >= tick) {
			if (!b->quiet)
				fprintf(stderr, "%6.1f s %12llu ops %12.0f ops/s %10.2f MB/s\n",
					t - t0, (unsigned long long)total,
					(total - last) / (t - tick + 1),
					(total - last) * b->size / (t - tick + 1) / 1e6);
			last = total;
			tick = t + 1;
		}
		m = b->batch;
		if (b->count && b->count - total < m)
			m = b->count - total;
		memset(ops, 0, m * sizeof(ops[0]));
		for (i = 0; i < m; i++, seq++) {
			ops[i].opcode = b->read ? RDMACHAN_OP_READ : RDMACHAN_OP_WRITE;
			/* the kernel signals the last op of a call anyway */
			ops[i].flags = i + 1 == m ? RDMACHAN_OPF_SIGNALED : 0;
			ops[i].sgl = (uintptr_t)&sge;
			ops[i].nr_sge = 1;
			ops[i].remote_addr = cl.remote.addr + seq % slots * b->size;
			ops[i].rkey = cl.remote.rkey;
		}
		err = rdma_submit(cl.fd, ops, m, &done);
		total += done;
		if (err == EINTR && interrupted)
			break;
		if (err) {
			rdma_op_err(b->read ? "read" : "write", &ops[rdma_failed_op(ops, m, done)]);
			break;
		}
	}
	report(cl.dst, b, total, now_sec() - t0);
	ret = err && !(err == EINTR && interrupted) ? EXIT_FAIL : EXIT_OK;
out:
	rdma_client_close(&cl, ret == EXIT_OK);
	return ret;
}
