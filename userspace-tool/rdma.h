/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * rdma.h: the one-sided RDMA commands ("mr reg", "rdma write|read|atomic",
 * "chan bench --op write|read"): the helpers they share.
 */
#ifndef RDMACHAN_TOOL_RDMA_H
#define RDMACHAN_TOOL_RDMA_H

#include "chan.h"

/* ---- rdma_util.c: parsing and formatting, no I/O (unit-tested) ----- */

/* The descriptor "reg" sends on each channel, and its error variant. */
#define MR_DESC_PREFIX		"rdmachan-mr "
#define MR_DESC_ERROR		"rdmachan-mr error "
#define MR_DESC_MAX		128

int mr_desc_format(const struct rdmachan_remote_mr *mr, char *buf, size_t len);
int mr_desc_parse(const char *msg, size_t len, struct rdmachan_remote_mr *mr);

/* What a client may ask "reg" in a message */
enum mr_req_type { MR_REQ_UNKNOWN, MR_REQ_DEREG, MR_REQ_SUM, MR_REQ_PEEK };

struct mr_req {
	enum mr_req_type type;
	uint64_t off, len;	/* MR_REQ_PEEK */
};

void mr_req_parse(const char *msg, size_t len, struct mr_req *r);

/* parse_offset: a size ("4k") or a number ("0x1000") */
int parse_offset(const char *s, uint64_t *out);
int parse_access_list(const char *s, uint32_t *access);
void format_access(uint32_t access, char *buf, size_t len);
const char *wc_status_name(unsigned int status);
const char *errno_name(int err);

#define FNV64_INIT	0xcbf29ce484222325ULL
uint64_t fnv1a64(uint64_t h, const void *p, size_t n);
uint64_t le64_load(const void *p);
void format_hex(const void *p, size_t n, char *buf, size_t len);

/* Gaps between the segments of "--sge K": filled with SGE_POISON. */
#define SGE_GAP		64
#define SGE_POISON	0xee
int64_t sge_split(uint64_t len, unsigned int k, uint64_t base, uint64_t gap,
		  struct rdmachan_sge *sge);
void sge_pack(void *buf, const void *data, const struct rdmachan_sge *sge,
	      unsigned int k);
void sge_unpack(void *data, const void *buf, const struct rdmachan_sge *sge,
		unsigned int k);

/* The largest transfer of "rdma write" and "rdma read" */
#define RDMA_MAX_DATA	(1ULL << 30)

/* ---- rdma.c: messages, registrations and ops on a channel ----- */

/* One message with its flags (RDMACHAN_IOC_RECV); 0, 1 at the end, -errno */
int chan_recv_msg(int fd, void *buf, uint32_t room, bool dontwait,
		  struct rdmachan_user_msg *m);
/* wait up to @timeout_ms for a message; -ETIMEDOUT after that */
int chan_recv_timed(int fd, void *buf, uint32_t room, int timeout_ms,
		    struct rdmachan_user_msg *m);
/* send one message, waiting for a credit; 0 or -errno (-EINTR too) */
int chan_send_msg(int fd, const void *buf, size_t len);
/* the same, but -EAGAIN instead of waiting for a credit */
int chan_send_nowait(int fd, const void *buf, size_t len);
int chan_send_str(int fd, const char *s);

/* mr.c: a registration on a channel, and its end */
int mr_reg(int fd, void *addr, uint64_t len, uint32_t access,
	   struct rdmachan_reg_mr *r);
int mr_dereg(int fd, uint32_t handle);

/* A client of "rdmachan mr reg": its channel, the peer's buffer, its own. */
struct rdma_client {
	int fd;
	struct rdmachan_chan_info ci;
	struct rdmachan_remote_mr remote;
	unsigned char *buf;	/* page-aligned, registered as @handle */
	uint64_t buflen;
	uint32_t handle;
	char dst[64];
};

/* Options of every client command, besides CHAN_LONG_OPTS */
struct rdma_target {
	uint64_t offset;
	uint64_t rkey, raddr;
	bool has_rkey, has_raddr;
	bool stale;
};

#define RDMA_TARGET_OPT_BASE	1100
#define RDMA_TARGET_LONG_OPTS \
	{ "offset", required_argument, NULL, RDMA_TARGET_OPT_BASE + 0 }, \
	{ "rkey", required_argument, NULL, RDMA_TARGET_OPT_BASE + 1 }, \
	{ "raddr", required_argument, NULL, RDMA_TARGET_OPT_BASE + 2 }, \
	{ "stale", no_argument, NULL, RDMA_TARGET_OPT_BASE + 3 }

#define RDMA_TARGET_HELP \
	"      --offset OFF    from the start of the peer's buffer (default 0)\n" \
	"      --rkey X        use this remote key, not the descriptor's\n" \
	"      --raddr X       use this remote base address, not the descriptor's\n" \
	"      --stale         have the peer deregister first (\"dereg\"), then\n" \
	"                      use the stale key: expected to fail\n"

/*
 * rdma_client_opt: chan_opt() for the client commands: also an option of
 * RDMA_TARGET_LONG_OPTS (0); -1 after a usage error.
 */
int rdma_client_opt(const char *cmd, int c, char **argv, struct chan_args *a,
		    struct rdma_target *t);
int rdma_client_open(const char *cmd, const char *addr, const struct chan_args *a,
		     struct rdma_client *cl);
int rdma_client_buf(struct rdma_client *cl, uint64_t len);
/*
 * rdma_client_stage: a local buffer holding @len bytes of @data (NULL:
 * none, a READ sink) as @k segments from offset @base (SGE_GAP apart);
 * @sge gets them.  0, or -1 after an error message.
 */
int rdma_client_stage(struct rdma_client *cl, const unsigned char *data, uint64_t len,
		      unsigned int k, uint64_t base, struct rdmachan_sge *sge);
/* close the channel; with @dereg, release the registration first */
void rdma_client_close(struct rdma_client *cl, bool dereg);
/* --stale: "dereg" and its reply; 0 when the peer deregistered */
int rdma_client_stale(struct rdma_client *cl);
uint64_t rdma_remote_addr(const struct rdma_client *cl, const struct rdma_target *t);
uint32_t rdma_rkey(const struct rdma_client *cl, const struct rdma_target *t);

/*
 * rdma_submit: RDMACHAN_IOC_RDMA on @n ops; 0 or the errno.  After a
 * failure, the ops not done that have no completion (refused before
 * posting, or not run) get wc_status RDMA_WC_NONE; when the kernel
 * refused the arguments as a whole (no @status set), they all get
 * -errno as their @status; when it refused one op (nothing was posted),
 * the others get -ECANCELED and @done is 0.
 */
#define RDMA_WC_NONE	UINT32_MAX
int rdma_submit(int fd, struct rdmachan_rdma_op *ops, unsigned int n, unsigned int *done);
/* rdma_results_fix: what rdma_submit does to the results of a failed
 * call (@err, @done as the kernel returned them); returns @done fixed */
unsigned int rdma_results_fix(struct rdmachan_rdma_op *ops, unsigned int n,
			      unsigned int done, int err);
/* the op that failed first after the @done that succeeded (one that
 * failed on its own before one that was only cancelled) */
unsigned int rdma_failed_op(const struct rdmachan_rdma_op *ops, unsigned int n,
			    unsigned int done);
/* "status", "error", "wc_status" of @op (each after @prefix): JSON only */
void rdma_op_print(const char *prefix, const struct rdmachan_rdma_op *op);
/* the same, as a tool_err line "WHAT: errno text (ENAME, wc_status X)" */
void rdma_op_err(const char *what, const struct rdmachan_rdma_op *op);

int cmd_mr_reg(int argc, char **argv);
int cmd_rdma_write(int argc, char **argv);
int cmd_rdma_read(int argc, char **argv);
int cmd_rdma_atomic(int argc, char **argv);

/* chan_bench_rdma.c: "chan bench --op write|read", in user space or (@kernel) not */
struct bench_rdma_args {
	const char *addr;
	struct chan_args *chan;
	bool read;
	uint64_t size, batch, time_ms, count;
	bool quiet;
	bool kernel;
};

int bench_rdma(const struct bench_rdma_args *b);
int bench_rdma_kernel(const struct bench_rdma_args *b);

#endif /* RDMACHAN_TOOL_RDMA_H */
