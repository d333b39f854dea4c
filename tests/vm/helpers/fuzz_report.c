// SPDX-License-Identifier: GPL-2.0-only
/*
 * fuzz_report.c: what the fuzzer's parent says: a call as recorded, a
 * worker that hung or died with its last calls and kernel stack, the
 * summary and histogram of results by errno, and the KTAP results.
 */
#define _GNU_SOURCE
#include <arpa/inet.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <netinet/in.h>
#include <poll.h>
#include <signal.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/epoll.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/select.h>
#include <sys/stat.h>
#include <sys/time.h>
#include <sys/uio.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <linux/rdmachan.h>
#include <linux/rdmachan_blk.h>
#include <linux/rdmachan_net.h>

#include "chanlib.h"
#include "fuzz.h"

/* ---- calls (enum op: fuzz.h) ---------------------------------------- */

static const char *const op_names[NOPS] = {
	"VERSION", "DEV_LIST", "DEV_QUERY", "CONNECT", "LISTEN", "ACCEPT",
	"SEND", "RECV", "SENDMMSG", "RECVMMSG", "CHAN_INFO", "BENCH",
	"REG_MR", "DEREG_MR", "RDMA", "RDMA_REAP", "random-ioctl", "read",
	"write", "writev", "poll", "epoll_ctl", "epoll_wait", "select",
	"fcntl", "lseek/mmap/fstat", "close", "open", "new-listener",
	"new-pair", "remap", "BLK_EXPORT", "BLK_UNEXPORT", "BLK_MAP",
	"BLK_UNMAP", "BLK_LIST", "blk-open/close", "blk-pread/pwrite",
	"NET_ADD", "NET_DEL", "NET_LIST", "net-sysfs", "net-link",
	"DGRAM_OPEN", "DGRAM_RESOLVE", "DGRAM_SEND/RECV", "DGRAM_INFO",
	"DGRAM_JOIN/LEAVE", "DGRAM_BENCH",
};


/* ---- reporting ------------------------------------------------------- */

static const char *errname(int e)
{
	static char buf[16];

	switch (e) {
	case 0: return "ok";
	case EPERM: return "EPERM";
	case ENOENT: return "ENOENT";
	case EINTR: return "EINTR";
	case EIO: return "EIO";
	case E2BIG: return "E2BIG";
	case EBADF: return "EBADF";
	case EAGAIN: return "EAGAIN";
	case ENOMEM: return "ENOMEM";
	case EACCES: return "EACCES";
	case EFAULT: return "EFAULT";
	case EBUSY: return "EBUSY";
	case EEXIST: return "EEXIST";
	case ENODEV: return "ENODEV";
	case EINVAL: return "EINVAL";
	case EMFILE: return "EMFILE";
	case ENOTTY: return "ENOTTY";
	case ENOSPC: return "ENOSPC";
	case ESPIPE: return "ESPIPE";
	case EPIPE: return "EPIPE";
	case ERANGE: return "ERANGE";
	case ENOSYS: return "ENOSYS";
	case EPROTO: return "EPROTO";
	case EOVERFLOW: return "EOVERFLOW";
	case EMSGSIZE: return "EMSGSIZE";
	case EPROTONOSUPPORT: return "EPROTONOSUPPORT";
	case EOPNOTSUPP: return "EOPNOTSUPP";
	case EAFNOSUPPORT: return "EAFNOSUPPORT";
	case EADDRINUSE: return "EADDRINUSE";
	case EADDRNOTAVAIL: return "EADDRNOTAVAIL";
	case ENETUNREACH: return "ENETUNREACH";
	case ENETRESET: return "ENETRESET";
	case ECONNRESET: return "ECONNRESET";
	case ENOBUFS: return "ENOBUFS";
	case ETIMEDOUT: return "ETIMEDOUT";
	case ECONNREFUSED: return "ECONNREFUSED";
	case EHOSTUNREACH: return "EHOSTUNREACH";
	case ECANCELED: return "ECANCELED";
	case EREMOTEIO: return "EREMOTEIO";
	case ENOTCONN: return "ENOTCONN";
	case ENXIO: return "ENXIO";
	case ENOTBLK: return "ENOTBLK";
	case ENOTDIR: return "ENOTDIR";
	case EISDIR: return "EISDIR";
	case EROFS: return "EROFS";
	case ENAMETOOLONG: return "ENAMETOOLONG";
	case ELOOP: return "ELOOP";
	case EFBIG: return "EFBIG";
	}
	snprintf(buf, sizeof(buf), "E%d", e);
	return buf;
}

void fmt_rec(char *out, size_t n, const struct rec *r)
{
	int k = snprintf(out, n, "#%" PRIu64 " %s slot %d fd %d%s cmd %#" PRIx64
			 " argp %#" PRIx64 " len %u", r->seq,
			 r->op < NOPS ? op_names[r->op] : "?", r->slot, r->fd,
			 r->nonblock ? " (O_NONBLOCK)" : "", r->cmd, r->argp,
			 r->arglen);

	if (r->done)
		k += snprintf(out + k, n - k, " -> %d (%s)", r->ret,
			      r->ret < 0 ? errname(r->err) : "ok");
	else
		k += snprintf(out + k, n - k, " -> (still inside)");
	if (r->arglen && (size_t)k + 8 < n) {
		unsigned int m = r->arglen < REC_ARG ? r->arglen : REC_ARG;

		k += snprintf(out + k, n - k, "\n      arg:");
		for (unsigned int i = 0; i + 4 <= m && (size_t)k + 12 < n; i += 4)
			k += snprintf(out + k, n - k, " %08x",
				      *(const uint32_t *)(r->arg + i));
	}
}

/* Print @text, a block of lines, as KTAP diagnostic lines */
static void diag_lines(const char *text)
{
	const char *p = text, *nl;

	while (*p) {
		nl = strchr(p, '\n');
		if (!nl)
			nl = p + strlen(p);
		printf("#   %.*s\n", (int)(nl - p), p);
		p = *nl ? nl + 1 : nl;
	}
}

void dump_worker(int id, const char *why)
{
	struct wshared *w = &all_ws[id];
	char buf[1024], path[64];
	uint64_t c = w->calls;
	FILE *f;

	printf("# fuzz: worker %d (pid %d) %s after %" PRIu64 " calls; its last calls:\n",
	       id, w->pid, why, c);
	if (w->fault_sig)
		printf("# fuzz: worker %d: %s at %#" PRIx64 " while making a %s call%s\n",
		       id, strsignal(w->fault_sig), w->fault_addr,
		       w->gen_op >= 0 && w->gen_op < NOPS ? op_names[w->gen_op] : "(none)",
		       w->in_call ? " (inside it)" : "");
	for (uint64_t s = c >= RING ? c - RING + 1 : 0; s <= c; s++) {
		const struct rec *r = &w->ring[s % RING];

		if (r->seq != s || (s == c && !w->in_call && !r->done))
			continue;
		fmt_rec(buf, sizeof(buf), r);
		printf("#   %s\n", buf);
	}
	if (w->fault_sig) {
		printf("# fuzz: worker %d's mappings:\n", id);
		diag_lines(w->maps);
	}
	/* its state and signals: is the alarm pending, blocked, caught? */
	snprintf(path, sizeof(path), "/proc/%d/status", w->pid);
	f = fopen(path, "r");
	if (f) {
		while (fgets(buf, sizeof(buf), f))
			if (!strncmp(buf, "State:", 6) || !strncmp(buf, "Sig", 3) ||
			    !strncmp(buf, "ShdPnd:", 7))
				printf("#   %s", buf);
		fclose(f);
	}
	snprintf(path, sizeof(path), "/proc/%d/stack", w->pid);
	f = fopen(path, "r");
	if (f) {
		printf("# fuzz: worker %d kernel stack:\n", id);
		while (fgets(buf, sizeof(buf), f))
			printf("#   %s", buf);
		fclose(f);
	}
	fflush(stdout);
}

static uint64_t summary(double secs)
{
	uint64_t calls = 0, stray = 0, own_ptrs = 0;

	for (unsigned int i = 0; i < opt_procs; i++) {
		calls += all_ws[i].calls;
		stray += all_ws[i].stray_fds;
		own_ptrs += all_ws[i].own_ptrs;
	}
	printf("# fuzz: %" PRIu64 " calls in %.1f s (%.0f/s), %u procs, seed %" PRIu64
	       ", %" PRIu64 " stray descriptors\n", calls, secs,
	       secs > 0 ? calls / secs : 0.0, opt_procs, opt_seed, stray);
	printf("# fuzz: %" PRIu64 " mutated pointers into the fuzzer's own memory replaced\n",
	       own_ptrs);
	for (int op = 0; op < NOPS; op++) {
		uint64_t tot = 0, h[NERR + 2] = { 0 };
		char line[2048];
		int k;

		for (unsigned int i = 0; i < opt_procs; i++)
			for (int e = 0; e < NERR + 2; e++) {
				h[e] += all_ws[i].hist[op][e];
				tot += all_ws[i].hist[op][e];
			}
		if (!tot)
			continue;
		k = snprintf(line, sizeof(line), "#   %-16s %9" PRIu64 ":", op_names[op], tot);
		for (int e = 0; e < NERR + 2 && k < (int)sizeof(line) - 32; e++)
			if (h[e])
				k += snprintf(line + k, sizeof(line) - k, " %s %" PRIu64,
					      e == NERR + 1 ? "other" : errname(e), h[e]);
		printf("%s\n", line);
	}
	fflush(stdout);
	return stray;
}

/*
 * The end, in KTAP: the summary as diagnostics, then the five results
 * the VM case reports (tests/vm/cases/fuzz.sh).  @rc: 0, 2 (a worker was
 * killed or exited early), 3 (a call hung: the block and network
 * channels are left as they are, their teardown could hang too).
 * Return: @rc, or 1 when only the descriptor check, the counters or the
 * block or network channel's teardown failed.
 */
int report(double secs, int rc)
{
	uint64_t stray = summary(secs);
	char blk_done[128] = "skipped: a call hung";
	int blk_left = rc == 3 ? -1 : blk_cleanup(blk_done, sizeof(blk_done));
	char net_done[192] = "skipped: a call hung";
	int net_left = rc == 3 ? -1 : net_cleanup(net_done, sizeof(net_done));
	unsigned int torn = 0;

	/*
	 * Each call counted adds one to its worker's histogram and calls:
	 * sums that differ mean something wrote into the fuzzer's own
	 * (shared) memory, which no call points at: the kernel, through a
	 * stale page (a registration's or a request's)
	 */
	for (unsigned int i = 0; i < opt_procs; i++) {
		uint64_t sum = 0;

		for (int op = 0; op < NOPS; op++)
			for (int e = 0; e < NERR + 2; e++)
				sum += all_ws[i].hist[op][e];
		if (sum != all_ws[i].calls) {
			printf("# fuzz: worker %u's counts were overwritten: %" PRIu64
			       " calls, histogram sum %" PRIu64 "\n", i,
			       all_ws[i].calls, sum);
			torn++;
		}
	}

	if (rc)
		printf("not ok 1 - workers end cleanly: none killed, no call stuck # %s\n",
		       rc == 3 ? "a call hung" : "a worker was killed or exited early");
	else
		printf("ok 1 - workers end cleanly: none killed, no call stuck\n");
	printf("%sok 2 - no descriptor installed without being returned",
	       stray ? "not " : "");
	if (stray)
		printf(" # %" PRIu64 " stray descriptors", stray);
	printf("\n%sok 3 - every block mapping and export removed at the end # %s\n",
	       blk_left ? "not " : "", blk_done);
	printf("%sok 4 - the fuzzer's own memory is intact (call counts match)\n",
	       torn ? "not " : "");
	printf("%sok 5 - every network device removed at the end # %s\n",
	       net_left ? "not " : "", net_done);
	printf("1..5\n");
	fflush(stdout);
	return rc ?: (stray || blk_left || torn || net_left ? 1 : 0);
}
