// SPDX-License-Identifier: GPL-2.0-only
/*
 * chan_bench_rdma.c: "rdmachan chan bench --op write|read": the rate and
 * bandwidth of RDMA WRITEs or READs against the buffer of "rdmachan mr
 * reg", BATCH ops per RDMACHAN_IOC_RDMA call; with --kernel, the same
 * loop in the kernel (RDMACHAN_IOC_BENCH) against "rdmachan chan listen
 * --target".
 */
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/ioctl.h>
#include <unistd.h>

#include "rdma.h"

static void report(const char *dst, const struct bench_rdma_args *b,
		   uint64_t ops, double secs)
{
	double rate = secs > 0 ? ops / secs : 0;
	double bw = rate * b->size;

	open_record(stdout);
	print_str(PRINT_ANY, "dst", "%s", dst);
	print_str(PRINT_ANY, "op", " %s", b->read ? "read" : "write");
	print_u64(PRINT_ANY, "size", " size %llu", b->size);
	print_u64(PRINT_ANY, "batch", " batch %llu", b->batch);
	print_str(PRINT_JSON, "mode", NULL, b->kernel ? "kernel" : "user");
	print_str(PRINT_FP, NULL, "%s", b->kernel ? " in-kernel" : "");
	print_double(PRINT_JSON, "seconds", NULL, secs);
	print_u64(PRINT_ANY, "ops", ": %llu ops", ops);
	print_double(PRINT_FP, NULL, " in %.2f s", secs);
	print_u64(PRINT_JSON, "bytes", NULL, ops * b->size);
	print_double(PRINT_ANY, "ops_per_sec", ", %.0f ops/s", rate);
	print_double(PRINT_ANY, "mbytes_per_sec", ", %.2f MB/s", bw / 1e6);
	print_double(PRINT_ANY, "gbits_per_sec", " (%.3f Gb/s)\n", bw * 8 / 1e9);
	close_record();
}

/* What an in-kernel run's errno means here */
static const char *kernel_hint(int err)
{
	switch (err) {
	case ETIMEDOUT:
		return " (no descriptor from the peer: is it \"chan listen --target\"?)";
	case EPROTO:
		return " (the peer sent something else than a descriptor: is it \"chan listen --target\"?)";
	case EMSGSIZE:
		return " (the target's region is smaller than BATCH * SIZE: see chan listen --region)";
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
 * bench_rdma_kernel: "chan bench --kernel --op write|read": connect to
 * "chan listen --target" and run RDMACHAN_IOC_BENCH WRITE or READ; the target's run
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
	struct chan_conn ch;
	int fd, err, ret;

	ret = chan_open("chan bench", b->addr, b->chan, 0, &ch);
	if (ret)
		return ret;
	fd = ch.fd;
	/* a signal ends the run in the kernel, which still reports it */
	catch_signals(false);
	if (ioctl(fd, RDMACHAN_IOC_BENCH, &kb) < 0) {
		err = errno;
		tool_err("in-kernel %s: %s%s", b->read ? "read" : "write",
			 strerror(err), kernel_hint(err));
		close(fd);
		return EXIT_FAIL;
	}
	close(fd);
	report(ch.dst, b, kb.msgs, kb.elapsed_ns / 1e9);
	return EXIT_OK;
}

int bench_rdma(const struct bench_rdma_args *b)
{
	struct rdmachan_rdma_op ops[RDMACHAN_MAX_RDMA_OPS];
	uint64_t total = 0, last = 0, slots, seq = 0;
	struct rdmachan_sge sge;
	struct rdma_client cl;
	double t0, tick, t;
	unsigned int i, m, done;
	int err = 0, ret;

	ret = rdma_client_open("chan bench", b->addr, b->chan, &cl);
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
	catch_signals(false);

	t0 = now_sec();
	tick = t0 + 1;
	for (;;) {
		t = now_sec();
		if (tool_interrupted || (b->time_ms && t - t0 >= b->time_ms / 1000.0) ||
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
		if (err == EINTR && tool_interrupted)
			break;
		if (err) {
			rdma_op_err(b->read ? "read" : "write", &ops[rdma_failed_op(ops, m, done)]);
			break;
		}
	}
	report(cl.dst, b, total, now_sec() - t0);
	ret = err && !(err == EINTR && tool_interrupted) ? EXIT_FAIL : EXIT_OK;
out:
	rdma_client_close(&cl, ret == EXIT_OK);
	return ret;
}
