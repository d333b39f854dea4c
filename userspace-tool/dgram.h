/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * dgram.h: the "dgram" object of the rdmachan tool (dgram.c): datagram
 * endpoints (UD queue pairs over rdma_cm's UDP port space, as rdma-core's
 * udaddy has them, RDMACHAN_IOC_DGRAM_*).  Its commands are
 * dgram_COMMAND.c; the parsers and the payload pattern are pure
 * functions (dgram_util.c), covered by test_dgram.c.
 */
#ifndef RDMACHAN_TOOL_DGRAM_H
#define RDMACHAN_TOOL_DGRAM_H

#include <stdbool.h>
#include <stdint.h>
#include <sys/socket.h>

#include <linux/rdmachan_verbs.h>

#include "tool.h"

/* udaddy's port, and its message size */
#define DGRAM_PORT		7174
#define DGRAM_DEFAULT_SIZE	100
#define DGRAM_DEFAULT_WAIT_MS	5000
#define DGRAM_MAX_WAIT_MS	86400000
/* the bytes of a datagram that recv's text line shows */
#define DGRAM_TEXT_BYTES	64
/* the pattern's header: "rdmachan-dgram-<seq>: " */
#define DGRAM_PATTERN_PREFIX	"rdmachan-dgram-"

/* the options a command takes (dgram_parse's @mask) */
enum {
	DGRAM_OPT_COUNT		= 1 << 0,	/* -c, --count N */
	DGRAM_OPT_SIZE		= 1 << 1,	/* -s, --size SIZE */
	DGRAM_OPT_BURST		= 1 << 2,	/* -b, --burst N */
	DGRAM_OPT_SRC		= 1 << 3,	/* -I, --src ADDR */
	DGRAM_OPT_VALIDATE	= 1 << 4,	/* -V, --validate */
	DGRAM_OPT_WAIT		= 1 << 5,	/* -W, --wait DUR */
	DGRAM_OPT_DEPTH		= 1 << 6,	/* -d, --depth N */
	DGRAM_OPT_QPN		= 1 << 7,	/* --qpn N */
	DGRAM_OPT_SERVE		= 1 << 8,	/* not an option: ADDR is local */
	DGRAM_OPT_DATA		= 1 << 9,	/* not an option: [DATA] after ADDR */
	/* not an option: ADDR may be a multicast group, joined from -I SRC */
	DGRAM_OPT_GROUP		= 1 << 10,
	DGRAM_OPT_TIME		= 1 << 11,	/* -t, --time DUR */
	DGRAM_OPT_KERNEL	= 1 << 12,	/* -k, --kernel */
	DGRAM_OPT_OP		= 1 << 13,	/* --op blast|pingpong */
	DGRAM_OPT_SINK		= 1 << 14,	/* --sink */
	DGRAM_OPT_BUSY		= 1 << 15,	/* --busy-poll */
};

/* bench --op */
enum dgram_bench_op {
	DGRAM_BENCH_BLAST,
	DGRAM_BENCH_PINGPONG,
};

/* what a command was given; the defaults are dgram_args_init()'s */
struct dgram_args {
	struct sockaddr_storage addr;	/* ADDR[:PORT] */
	struct sockaddr_storage src;	/* -I; AF_UNSPEC: not given */
	uint64_t count;
	uint64_t size;
	uint64_t burst;
	uint64_t wait_ms;
	uint64_t depth;			/* 0: the kernel's default */
	uint64_t qpn;			/* --qpn; 0: resolve */
	uint64_t time_ms;		/* -t; 0: not given */
	const char *data;		/* send's DATA, or NULL */
	enum dgram_bench_op op;		/* --op */
	bool validate;
	bool kernel;			/* -k */
	bool sink;			/* --sink */
	bool busy;			/* --busy-poll */
	bool has_count;
	bool has_size;
	bool has_wait;
};

/* ---- dgram_util.c: parsing, formatting, the pattern (unit-tested) ---- */

void dgram_args_init(struct dgram_args *a);
/* dgram_open_flags: @flags and RDMACHAN_DGRAM_BUSY_POLL with --busy-poll */
unsigned int dgram_open_flags(const struct dgram_args *a, unsigned int flags);
/*
 * dgram_opt: option @c (dgram_parse's letters; 'Q' is --qpn) with value
 * @arg into @a.  0, or -EINVAL for a value out of bounds.
 */
int dgram_opt(int c, const char *arg, struct dgram_args *a);
/*
 * dgram_check: what is wrong with @a for a command of @mask (SERVE: ADDR
 * is local, no wildcard; SRC: -I is needed, of ADDR's family, no
 * wildcard; DATA: not with -s), as a usage message, or NULL
 */
const char *dgram_check(const struct dgram_args *a, unsigned int mask);
/* addr_is_multicast: @ss is an IPv4 or IPv6 multicast address */
bool addr_is_multicast(const struct sockaddr_storage *ss);
/* addr_is_any: @ss is 0.0.0.0 or :: */
bool addr_is_any(const struct sockaddr_storage *ss);
/* format_host: @ss's address without the port ("192.0.2.1", "2001:db8::1", "-") */
void format_host(const void *ss, char *buf, size_t len);
/*
 * format_escaped: the first @max of @n bytes as a text line: printable
 * ASCII as it is, a backslash doubled, \n \r \t, every other byte \xNN,
 * "..." when some were left out; always terminated (cut to @len)
 */
void format_escaped(const void *p, size_t n, size_t max, char *buf, size_t len);
/*
 * dgram_fill: @size bytes of the pattern of datagram @seq into @buf:
 * "rdmachan-dgram-<seq>: " (cut to @size), then a run of letters that
 * starts at one @seq chooses, as rping's pattern
 */
void dgram_fill(void *buf, size_t size, uint64_t seq);
/* dgram_seq: the <seq> of the pattern's header at @buf; 0 or -EINVAL */
int dgram_seq(const void *buf, size_t len, uint64_t *seq);
/*
 * dgram_match: which of the @n datagrams of @size bytes at @sent (one
 * after the other), none of *@seen (a bit each) yet, @buf of @len bytes
 * is; its bit is set in *@seen.  The index, or -1.
 */
int dgram_match(const void *buf, size_t len, const void *sent, size_t size,
		unsigned int n, uint64_t *seen);

/* ---- dgram.c: the endpoint, errors --------------------------------- */

/* An open endpoint: its file, what DGRAM_OPEN said, its address. */
struct dgram_ep {
	int fd;
	struct rdmachan_dgram_open o;
	char addr[80];			/* the local address (and served port) */
};

/* messages of a batch, each with its own buffer of @room bytes */
struct dgram_bufs {
	struct rdmachan_dgram_msg *msgs;
	unsigned char *data;
	unsigned int n;
	size_t room;
};

/*
 * dgram_parse: CMD_GETOPT over the options of @mask into @a (with -h:
 * @help), then the operands: ADDR (DATA too with DGRAM_OPT_DATA), checked
 * by dgram_check.  0, DGRAM_HELP (help printed), or EXIT_USAGE after a
 * message.
 */
#define DGRAM_HELP	(-1)
int dgram_parse(const char *cmd, unsigned int mask, int argc, char **argv,
		struct dgram_args *a, void (*help)(void));
/*
 * dgram_open: an endpoint on @addr (@flags: RDMACHAN_DGRAM_SERVE) into
 * @ep; 0, or EXIT_FAIL after a message
 */
int dgram_open(const char *cmd, const struct sockaddr_storage *addr,
	       unsigned int flags, unsigned int depth, struct dgram_ep *ep);
void dgram_close(struct dgram_ep *ep);
/* dgram_resolve: the queue pair behind @dst into @peer; 0 or -errno */
int dgram_resolve(const struct dgram_ep *ep, const struct sockaddr_storage *dst,
		  uint32_t timeout_ms, struct rdmachan_dgram_peer *peer);
/*
 * dgram_connect: an endpoint on @a->src (not served) into @ep, and the
 * peer at @a->addr: @a->qpn's when given, else the one RESOLVE finds
 * within @a->wait_ms; @peer_str gets @a->addr formatted.  0; -1 when the
 * endpoint did not open (a message printed); the errno of RESOLVE (none)
 */
int dgram_connect(const char *cmd, const struct dgram_args *a,
		  struct dgram_ep *ep, struct rdmachan_dgram_peer *peer,
		  char *peer_str, size_t len);
/* dgram_info: DGRAM_INFO into @i; 0 or -errno */
int dgram_info(const struct dgram_ep *ep, struct rdmachan_dgram_info *i);
/*
 * dgram_send: the @n messages at @msgs, batch after batch, until all went
 * or one failed: how many went; *@err the errno of the one that failed
 * (0 when none did)
 */
unsigned int dgram_send(struct dgram_ep *ep, struct rdmachan_dgram_msg *msgs,
			unsigned int n, int *err);
/*
 * dgram_recv: up to @n datagrams into @b's buffers, waiting at most
 * @timeout_ms (0: until one comes) for the first; how many, or -errno
 * (-EAGAIN: none within the bound, -EINTR: a signal)
 */
int dgram_recv(struct dgram_ep *ep, struct dgram_bufs *b, unsigned int n,
	       uint32_t timeout_ms);
/* dgram_bufs_alloc: @n messages and their buffers; 0, or -1 after a message */
int dgram_bufs_alloc(struct dgram_bufs *b, unsigned int n, size_t room);
void dgram_bufs_free(struct dgram_bufs *b);
/*
 * dgram_err: "rdmachan: CMD WHAT: strerror (ENAME)[: hint]" for errno
 * @err, the hint from the endpoint (@ep, NULL before it is open) where
 * the errno needs one; EXIT_FAIL
 */
int dgram_err(const char *cmd, const char *what, int err,
	      const struct dgram_ep *ep);
/*
 * dgram_print_error: in a record, "; strerror (ENAME)", JSON
 * "error":"ENAME"; nothing for 0
 */
void dgram_print_error(int err);
/*
 * dgram_print_counters: in a record, the endpoint's counters:
 * " (rx_empty N)" in text, " (rx N, tx N, rx_empty N, buffers N/DEPTH,
 * mem BYTES, grown N, retired N)" with -s, all of them in JSON
 */
void dgram_print_counters(const struct dgram_ep *ep);
/*
 * dgram_serving: when @asked has port 0, the line that says which port
 * the kernel chose: "serving ADDR:PORT qpn N" on stderr, JSON
 * {"event":"serving","addr":..,"qpn":..} on stdout
 */
void dgram_serving(const struct dgram_ep *ep, const struct sockaddr_storage *asked);
/*
 * dgram_serve_open: the endpoint of echo and recv, serving @a->addr (or,
 * @a->addr a multicast group, on @a->src, a full member of the group)
 * with batch buffers, signals caught; 0, or EXIT_FAIL after a message
 */
int dgram_serve_open(const char *cmd, const struct dgram_args *a,
		     struct dgram_ep *ep, struct dgram_bufs *b);

/* the commands */
int cmd_dgram_echo(int argc, char **argv);
int cmd_dgram_ping(int argc, char **argv);
int cmd_dgram_recv(int argc, char **argv);
int cmd_dgram_send(int argc, char **argv);
int cmd_dgram_bench(int argc, char **argv);
/* recv --sink: the in-kernel sink of @a; EXIT_OK or EXIT_FAIL */
int dgram_sink(const char *cmd, const struct dgram_args *a);
/*
 * dgram_bench_kernel: DGRAM_BENCH @b on @ep (a signal ends it, the
 * results kept); 0, or EXIT_FAIL after a message naming @what
 */
int dgram_bench_kernel(const char *cmd, const char *what,
		       const struct dgram_ep *ep, struct rdmachan_dgram_bench *b);
extern const struct cmd dgram_cmds[];
int obj_dgram(int argc, char **argv);

#endif /* RDMACHAN_TOOL_DGRAM_H */
