// SPDX-License-Identifier: GPL-2.0-only
/*
 * rdma.c: the "rdma" object, and what the one-sided RDMA commands do on a channel: single
 * messages with their flags, registrations, RDMACHAN_IOC_RDMA, and the
 * client side of "rdmachan mr reg" (connect, descriptor, local buffer).
 */
#include <errno.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <unistd.h>

#include "rdma.h"

#define DESC_TIMEOUT_MS		30000
#define REPLY_TIMEOUT_MS	10000

int chan_recv_msg(int fd, void *buf, uint32_t room, bool dontwait,
		  struct rdmachan_user_msg *m)
{
	struct rdmachan_mmsg mm;

	memset(m, 0, sizeof(*m));
	m->buf = (uintptr_t)buf;
	m->len = room;
	memset(&mm, 0, sizeof(mm));
	mm.size = sizeof(mm);
	mm.flags = dontwait ? RDMACHAN_MSG_DONTWAIT : 0;
	mm.msgs = (uintptr_t)m;
	mm.count = 1;
	if (ioctl(fd, RDMACHAN_IOC_RECV, &mm) < 0)
		return -errno;
	return mm.done ? 0 : 1;
}

int chan_recv_timed(int fd, void *buf, uint32_t room, int timeout_ms,
		    struct rdmachan_user_msg *m)
{
	double end = now_sec() + timeout_ms / 1000.0;
	int r;

	for (;;) {
		struct pollfd p = { .fd = fd, .events = POLLIN };
		double left = end - now_sec();

		if (left <= 0)
			return -ETIMEDOUT;
		r = poll(&p, 1, (int)(left * 1000) + 1);
		if (r < 0 && errno != EINTR)
			return -errno;
		if (r <= 0)
			continue;
		r = chan_recv_msg(fd, buf, room, true, m);
		if (r != -EAGAIN && r != -EINTR)
			return r;
	}
}

static int chan_send_flags(int fd, const void *buf, size_t len, uint32_t flags)
{
	struct rdmachan_user_msg m = { .buf = (uintptr_t)buf, .len = len };
	struct rdmachan_mmsg mm = {
		.size = sizeof(mm), .flags = flags, .msgs = (uintptr_t)&m, .count = 1,
	};

	return ioctl(fd, RDMACHAN_IOC_SEND, &mm) < 0 ? -errno : 0;
}

int chan_send_msg(int fd, const void *buf, size_t len)
{
	return chan_send_flags(fd, buf, len, 0);
}

int chan_send_nowait(int fd, const void *buf, size_t len)
{
	return chan_send_flags(fd, buf, len, RDMACHAN_MSG_DONTWAIT);
}

int chan_send_str(int fd, const char *s)
{
	return chan_send_msg(fd, s, strlen(s));
}

int rdma_client_opt(const char *cmd, int c, char **argv, struct chan_args *a,
		    struct rdma_target *t)
{
	const char *arg = optarg;

	switch (c) {
	case RDMA_TARGET_OPT_BASE + 0:
		if (parse_offset(arg, &t->offset))
			break;
		return 0;
	case RDMA_TARGET_OPT_BASE + 1:
		if (parse_uint(arg, 0, UINT32_MAX, &t->rkey))
			break;
		t->has_rkey = true;
		return 0;
	case RDMA_TARGET_OPT_BASE + 2:
		if (parse_uint(arg, 0, UINT64_MAX, &t->raddr))
			break;
		t->has_raddr = true;
		return 0;
	case RDMA_TARGET_OPT_BASE + 3:
		t->stale = true;
		return 0;
	default:
		return chan_opt(cmd, c, argv, a);
	}
	tool_usage_err(cmd, "invalid value '%s'", arg);
	return -1;
}

/* rdma_client_open: connect, and read the peer's memory descriptor. */
int rdma_client_open(const char *cmd, const char *addr, const struct chan_args *a,
		     struct rdma_client *cl)
{
	struct rdmachan_user_msg m;
	int r, timeout = DESC_TIMEOUT_MS;
	struct chan_conn ch;
	char *msg;

	memset(cl, 0, sizeof(*cl));
	signal(SIGPIPE, SIG_IGN);
	r = chan_open(cmd, addr, a, 0, &ch);
	cl->fd = ch.fd;
	cl->ci = ch.ci;
	memcpy(cl->dst, ch.dst, sizeof(cl->dst));
	if (r)
		return r;
	msg = malloc(cl->ci.max_msg_size + 1);
	if (!msg) {
		tool_err("out of memory");
		goto fail;
	}
	if (a->opts.timeout_ms > DESC_TIMEOUT_MS)
		timeout = a->opts.timeout_ms;
	r = chan_recv_timed(cl->fd, msg, cl->ci.max_msg_size, timeout, &m);
	if (r == 1)
		tool_err("%s closed the channel before sending a memory descriptor",
			 cl->dst);
	else if (r == -ETIMEDOUT)
		tool_err("no memory descriptor from %s within %d s (is it \"rdmachan mr reg\"?)",
			 cl->dst, timeout / 1000);
	else if (r < 0)
		tool_err("receive the memory descriptor: %s", strerror(-r));
	else if (m.len > strlen(MR_DESC_ERROR) &&
		 !memcmp(msg, MR_DESC_ERROR, strlen(MR_DESC_ERROR)))
		tool_err("%s could not register its buffer: %.*s", cl->dst,
			 (int)(m.len - strlen(MR_DESC_ERROR)), msg + strlen(MR_DESC_ERROR));
	else if ((m.flags & RDMACHAN_MSG_RDMA_IMM) ||
		 mr_desc_parse(msg, m.len, &cl->remote))
		tool_err("the first message from %s is not a memory descriptor (is it \"rdmachan mr reg\"?)",
			 cl->dst);
	else
		r = 2;
	free(msg);
	if (r == 2)
		return EXIT_OK;
fail:
	close(cl->fd);
	cl->fd = -1;
	return EXIT_FAIL;
}

/*
 * rdma_client_buf: a zeroed, page-aligned buffer of @len bytes (at least
 * 8), registered with local and remote write: a READ sink or an atomic
 * result needs local write, and on iWARP a READ sink remote write too.
 */
int rdma_client_buf(struct rdma_client *cl, uint64_t len)
{
	struct rdmachan_reg_mr r;
	long page = sysconf(_SC_PAGESIZE);
	void *p;
	int err;

	if (len < 8)
		len = 8;
	if (posix_memalign(&p, page > 0 ? page : 4096, len)) {
		tool_err("cannot allocate %llu bytes", (unsigned long long)len);
		return -1;
	}
	memset(p, 0, len);
	err = mr_reg(cl->fd, p, len, RDMACHAN_ACCESS_LOCAL_WRITE |
		     RDMACHAN_ACCESS_REMOTE_WRITE, &r);
	if (err == -E2BIG && cl->ci.max_reg_pages) {
		tool_err("register %llu bytes: %s (%s); more pages than one registration of %s maps (%u)",
			 (unsigned long long)len, strerror(-err), errno_name(err),
			 cl->ci.dev_name, cl->ci.max_reg_pages);
	} else if (err) {
		tool_err("register %llu bytes: %s (%s)%s", (unsigned long long)len,
			 strerror(-err), errno_name(err),
			 err == -E2BIG ? "; more pages than one registration maps" :
			 err == -ENOMEM ? "; over RLIMIT_MEMLOCK (ulimit -l)?" : "");
	}
	if (err) {
		free(p);
		return -1;
	}
	cl->buf = p;
	cl->buflen = len;
	cl->handle = r.handle;
	return 0;
}

void rdma_client_close(struct rdma_client *cl, bool dereg)
{
	int err;

	if (cl->buf && dereg) {
		err = mr_dereg(cl->fd, cl->handle);
		if (err)
			tool_err("deregister: %s (%s)", strerror(-err), errno_name(err));
	}
	if (cl->fd >= 0)
		close(cl->fd);
	free(cl->buf);
	cl->buf = NULL;
	cl->fd = -1;
}

int rdma_client_stale(struct rdma_client *cl)
{
	struct rdmachan_user_msg m;
	char reply[64];
	int r;

	while ((r = chan_send_str(cl->fd, "dereg")) == -EINTR)
		;
	if (r) {
		tool_err("send \"dereg\": %s", strerror(-r));
		return -1;
	}
	do {	/* skip nothing but an RDMA_IMM notice: there are none here */
		r = chan_recv_timed(cl->fd, reply, sizeof(reply) - 1, REPLY_TIMEOUT_MS, &m);
	} while (!r && (m.flags & RDMACHAN_MSG_RDMA_IMM));
	if (r) {
		tool_err("no reply to \"dereg\": %s", r == 1 ? "peer closed" : strerror(-r));
		return -1;
	}
	reply[m.len] = '\0';
	if (strcmp(reply, "dereg ok")) {
		tool_err("the peer did not deregister: \"%s\"", reply);
		return -1;
	}
	return 0;
}

uint64_t rdma_remote_addr(const struct rdma_client *cl, const struct rdma_target *t)
{
	return (t->has_raddr ? t->raddr : cl->remote.addr) + t->offset;
}

uint32_t rdma_rkey(const struct rdma_client *cl, const struct rdma_target *t)
{
	return t->has_rkey ? t->rkey : cl->remote.rkey;
}

int rdma_submit(int fd, struct rdmachan_rdma_op *ops, unsigned int n, unsigned int *done)
{
	struct rdmachan_rdma r = {
		.size = sizeof(r), .ops = (uintptr_t)ops, .count = n,
	};
	unsigned int i;
	int err;

	for (i = 0; i < n; i++) {
		ops[i].result = 0;
		ops[i].status = 0;
		ops[i].wc_status = 0;
	}
	if (!ioctl(fd, RDMACHAN_IOC_RDMA, &r)) {
		*done = n;
		return 0;
	}
	err = errno;
	*done = rdma_results_fix(ops, n, r.done, err);
	return err;
}

void rdma_op_print(const char *prefix, const struct rdmachan_rdma_op *op)
{
	const char *name = errno_name(op->status);
	char key[64];

	snprintf(key, sizeof(key), "%sstatus", prefix);
	print_s64(PRINT_JSON, key, NULL, op->status);
	snprintf(key, sizeof(key), "%serror", prefix);
	if (name)
		print_str(PRINT_JSON, key, NULL, name);
	else
		print_null(PRINT_JSON, key, NULL);
	snprintf(key, sizeof(key), "%swc_status", prefix);
	if (op->wc_status == RDMA_WC_NONE)
		print_null(PRINT_JSON, key, NULL);
	else
		print_str(PRINT_JSON, key, NULL, wc_status_name(op->wc_status));
}

static const char *op_hint(const struct rdmachan_rdma_op *op)
{
	switch (-op->status) {
	case EOPNOTSUPP:
		return op->opcode >= RDMACHAN_OP_FETCH_ADD ?
			"; the RDMA device has no atomics" :
			"; not supported by the RDMA device";
	case ECANCELED:
		return op->wc_status == RDMA_WC_NONE ?
			"; not run: another operation of the call was refused" :
			"; flushed after an earlier failure";
	case EINVAL:
		if (op->opcode >= RDMACHAN_OP_FETCH_ADD && (op->remote_addr & 7))
			return "; atomics need an 8-byte aligned remote address";
		return op->wc_status == RDMA_WC_NONE ? "; refused by the kernel" : "";
	default:
		break;
	}
	switch (op->wc_status) {
	case 10:	/* REM_ACCESS_ERR */
		return "; the peer refused the access (key, bounds or rights)";
	case 9:		/* REM_INV_REQ_ERR */
		return "; the peer found the request invalid";
	default:
		return "";
	}
}

void rdma_op_err(const char *what, const struct rdmachan_rdma_op *op)
{
	char wc[48] = "";

	if (op->wc_status != RDMA_WC_NONE)
		snprintf(wc, sizeof(wc), ", wc_status %s", wc_status_name(op->wc_status));
	tool_err("%s: %s (%s%s%s)", what, strerror(-op->status),
		 errno_name(op->status) ? errno_name(op->status) : "0", wc, op_hint(op));
}

int rdma_client_stage(struct rdma_client *cl, const unsigned char *data, uint64_t len,
		      unsigned int k, uint64_t base, struct rdmachan_sge *sge)
{
	int64_t span = len ? sge_split(len, k, base, k > 1 ? SGE_GAP : 0, sge) : (int64_t)base;
	unsigned int i;

	if (span < 0) {
		tool_err("cannot split %llu bytes into %u segments", (unsigned long long)len, k);
		return -1;
	}
	if (rdma_client_buf(cl, span))
		return -1;
	memset(cl->buf, SGE_POISON, cl->buflen);
	for (i = 0; len && i < k; i++)
		sge[i].handle = cl->handle;
	if (data)
		sge_pack(cl->buf, data, sge, k);
	return 0;
}

static int rdma_help(int argc, char **argv)
{
	(void)argc;
	(void)argv;
	printf("Usage: rdmachan [OPTIONS] rdma { write | read | atomic } ADDR[:PORT] [ARGS]\n"
	       "       rdmachan rdma { COMMAND --help | help }\n"
	       "One-sided operations on the buffer of \"rdmachan mr reg\":\n"
	       "  write ADDR[:PORT] [...]      one RDMA WRITE (or WRITE_WITH_IMM)\n"
	       "  read ADDR[:PORT] --len N     one RDMA READ\n"
	       "  atomic fadd|cswap ADDR[:PORT] [...]\n"
	       "                               RDMA atomics on 8 bytes of it\n");
	return EXIT_OK;
}

const struct cmd rdma_cmds[] = {
	{ "write", cmd_rdma_write },
	{ "read", cmd_rdma_read },
	{ "atomic", cmd_rdma_atomic },
	{ "help", rdma_help },
	CMD_END
};

int obj_rdma(int argc, char **argv)
{
	return cmd_run("rdma", rdma_cmds, argc, argv);
}
