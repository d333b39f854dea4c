// SPDX-License-Identifier: GPL-2.0-only
/*
 * dgram.c: the "dgram" object: datagram endpoints (RDMACHAN_IOC_DGRAM_*),
 * unreliable datagrams over rdma_cm's UDP port space as rdma-core's
 * udaddy sends them.  Its commands (dgram_echo.c, dgram_recv.c,
 * dgram_ping.c, dgram_send.c) and what they share: their options, the
 * endpoint, its errors.
 */
#include <errno.h>
#include <getopt.h>
#include <netinet/in.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "dgram.h"
#include "ioc.h"
#include "rdma.h"		/* errno_name() */

/* every option of the commands; dgram_parse takes those of its mask */
static const struct {
	struct option lo;
	unsigned int bit;
} dgram_opts[] = {
	{ { "count", required_argument, NULL, 'c' }, DGRAM_OPT_COUNT },
	{ { "size", required_argument, NULL, 's' }, DGRAM_OPT_SIZE },
	{ { "burst", required_argument, NULL, 'b' }, DGRAM_OPT_BURST },
	{ { "src", required_argument, NULL, 'I' }, DGRAM_OPT_SRC },
	{ { "validate", no_argument, NULL, 'V' }, DGRAM_OPT_VALIDATE },
	{ { "wait", required_argument, NULL, 'W' }, DGRAM_OPT_WAIT },
	{ { "depth", required_argument, NULL, 'd' }, DGRAM_OPT_DEPTH },
	{ { "qpn", required_argument, NULL, 'Q' }, DGRAM_OPT_QPN },
	{ { "time", required_argument, NULL, 't' }, DGRAM_OPT_TIME },
	{ { "kernel", no_argument, NULL, 'k' }, DGRAM_OPT_KERNEL },
	{ { "op", required_argument, NULL, 'O' }, DGRAM_OPT_OP },
	{ { "sink", no_argument, NULL, 'S' }, DGRAM_OPT_SINK },
	{ { "busy-poll", no_argument, NULL, 'P' }, DGRAM_OPT_BUSY },
};

#define DGRAM_NR_OPTS	(sizeof(dgram_opts) / sizeof(dgram_opts[0]))

/* getopt's short and long options of @mask (--qpn, --op, --sink and
 * --busy-poll: long only)
 */
static void dgram_getopt_of(unsigned int mask, char *shortopts,
			    struct option *longopts)
{
	unsigned int i, n = 0;
	char *s = shortopts;

	*s++ = 'h';
	for (i = 0; i < DGRAM_NR_OPTS; i++) {
		if (!(mask & dgram_opts[i].bit))
			continue;
		longopts[n++] = dgram_opts[i].lo;
		if (strchr("QOSP", dgram_opts[i].lo.val))
			continue;
		*s++ = dgram_opts[i].lo.val;
		if (dgram_opts[i].lo.has_arg)
			*s++ = ':';
	}
	*s = '\0';
	longopts[n++] = (struct option){ "help", no_argument, NULL, 'h' };
	longopts[n] = (struct option){ NULL, 0, NULL, 0 };
}

/* the operands left after the options: ADDR [DATA] */
static int dgram_operands(const char *cmd, unsigned int mask, int argc,
			  char **argv, struct dgram_args *a)
{
	int max = mask & DGRAM_OPT_DATA ? 2 : 1, ret;
	const char *msg;

	argc -= optind - 1;
	argv += optind - 1;
	if (argc < 1)
		return tool_usage_err(cmd, "an address is needed");
	if (argc > max)
		return tool_usage_err(cmd, "unexpected argument '%s'", argv[max]);
	if (mask & DGRAM_OPT_SERVE)
		ret = parse_listen_addr(argv[0], DGRAM_PORT, &a->addr);
	else
		ret = parse_addr(argv[0], DGRAM_PORT, &a->addr);
	if (ret)
		return tool_usage_err(cmd, "'%s' is not ADDR[:PORT]", argv[0]);
	if (argc == 2)
		a->data = argv[1];
	msg = dgram_check(a, mask);
	if (msg)
		return tool_usage_err(cmd, "%s", msg);
	return 0;
}

int dgram_parse(const char *cmd, unsigned int mask, int argc, char **argv,
		struct dgram_args *a, void (*help)(void))
{
	struct option longopts[DGRAM_NR_OPTS + 2];
	char shortopts[2 * DGRAM_NR_OPTS + 2];
	int c;

	dgram_args_init(a);
	dgram_getopt_of(mask, shortopts, longopts);
	CMD_GETOPT_INIT();
	while ((c = CMD_GETOPT(argc, argv, shortopts, longopts)) != -1) {
		if (c == 'h') {
			help();
			return DGRAM_HELP;
		}
		if (c == '?' || c == ':')
			return cmd_bad_option(cmd, argv);
		if (dgram_opt(c, optarg, a))
			return tool_usage_err(cmd, "invalid value '%s'", optarg);
	}
	return dgram_operands(cmd, mask, argc, argv, a);
}

/* the hint to an errno whose cause is not obvious; NULL for none */
static const char *dgram_hint(int err, const struct dgram_ep *ep,
			      char *buf, size_t len)
{
	switch (err) {
	case ENOTTY:
		return "the module has no datagram endpoints (an older rdmachan.ko?)";
	case ENODEV:
		if (ep)
			return "the endpoint's RDMA device went away";
		/* fall through */
	case EADDRNOTAVAIL:
		return "the address is not configured on an RDMA-capable interface?";
	case EADDRINUSE:
		return "the port is served already (another dgram echo or recv, udaddy?)";
	case ETIMEDOUT:
		return "peer unreachable or not answering";
	case EHOSTUNREACH:
		return "no route, or nobody serves that port (dgram echo, udaddy's server)";
	case ENETUNREACH:
		return "the route leaves from another RDMA device than -I's";
	case EMSGSIZE:
		if (!ep)
			return NULL;
		snprintf(buf, len,
			 "larger than the endpoint's largest datagram, %u bytes (the port's active MTU)",
			 ep->o.max_size);
		return buf;
	default:
		return NULL;
	}
}

int dgram_err(const char *cmd, const char *what, int err,
	      const struct dgram_ep *ep)
{
	char buf[128];

	return cmd_errno(cmd, what, err, dgram_hint(err, ep, buf, sizeof(buf)));
}

int dgram_open(const char *cmd, const struct sockaddr_storage *addr,
	       unsigned int flags, unsigned int depth, struct dgram_ep *ep)
{
	int ctl, err;

	char what[96];

	memset(ep, 0, sizeof(*ep));
	ep->fd = -1;
	/* a served address with its port, a source without */
	if (flags & RDMACHAN_DGRAM_SERVE)
		format_addr(addr, ep->addr, sizeof(ep->addr));
	else
		format_host(addr, ep->addr, sizeof(ep->addr));
	ctl = ctl_open();
	if (ctl < 0)
		return EXIT_FAIL;
	ep->fd = ioc_dgram_open(ctl, addr, flags, RDMACHAN_FD_CLOEXEC, depth,
				&ep->o);
	err = errno;
	close(ctl);
	if (ep->fd < 0) {
		snprintf(what, sizeof(what), "open %s", ep->addr);
		return dgram_err(cmd, what, err, NULL);
	}
	format_addr(&ep->o.addr, ep->addr, sizeof(ep->addr));
	return 0;
}

void dgram_close(struct dgram_ep *ep)
{
	if (ep->fd >= 0)
		close(ep->fd);
	ep->fd = -1;
}

/* join group @a->addr (@flags: RDMACHAN_DGRAM_SENDONLY); 0 or EXIT_FAIL */
static int dgram_join(const char *cmd, const struct dgram_args *a,
		      struct dgram_ep *ep, unsigned int flags,
		      struct rdmachan_dgram_peer *peer)
{
	char what[96];

	if (ioc_dgram_join(ep->fd, RDMACHAN_IOC_DGRAM_JOIN, &a->addr, flags,
			   a->wait_ms, peer) >= 0) {
		format_host(&a->addr, ep->addr, sizeof(ep->addr));
		/* the line a script waits for before the group's sender */
		open_record(stderr);
		print_str(PRINT_JSON, "event", NULL, "joined");
		print_str(PRINT_ANY, "group", "joined %s", ep->addr);
		print_uint(PRINT_ANY, "qpn", " qpn %u\n", ep->o.qpn);
		close_record();
		return 0;
	}
	format_host(&a->addr, what + 5, sizeof(what) - 5);
	memcpy(what, "join ", 5);
	dgram_err(cmd, what, errno, ep);
	return EXIT_FAIL;
}

int dgram_connect(const char *cmd, const struct dgram_args *a,
		  struct dgram_ep *ep, struct rdmachan_dgram_peer *peer,
		  char *peer_str, size_t len)
{
	format_addr(&a->addr, peer_str, len);
	memset(peer, 0, sizeof(*peer));
	if (dgram_open(cmd, &a->src, dgram_open_flags(a, 0), a->depth, ep))
		return -1;
	/* a group: joined to send only; its queue pair is every member */
	if (addr_is_multicast(&a->addr))
		return dgram_join(cmd, a, ep, RDMACHAN_DGRAM_SENDONLY, peer) ?
		       -1 : 0;
	if (a->qpn) {
		memcpy(&peer->addr, &a->addr, sizeof(peer->addr));
		peer->qpn = a->qpn;
		return 0;
	}
	return -dgram_resolve(ep, &a->addr, a->wait_ms, peer);
}

int dgram_resolve(const struct dgram_ep *ep, const struct sockaddr_storage *dst,
		  uint32_t timeout_ms, struct rdmachan_dgram_peer *peer)
{
	return ioc_dgram_resolve(ep->fd, dst, 0, timeout_ms, peer) < 0 ?
	       -errno : 0;
}

int dgram_info(const struct dgram_ep *ep, struct rdmachan_dgram_info *i)
{
	return ioc_dgram_info(ep->fd, i) < 0 ? -errno : 0;
}

unsigned int dgram_send(struct dgram_ep *ep, struct rdmachan_dgram_msg *msgs,
			unsigned int n, int *err)
{
	unsigned int done = 0, k;
	int ret;

	*err = 0;
	while (done < n) {
		k = n - done;
		if (k > RDMACHAN_DGRAM_MAX_BATCH)
			k = RDMACHAN_DGRAM_MAX_BATCH;
		ret = ioc_dgram_batch(ep->fd, RDMACHAN_IOC_DGRAM_SEND, msgs + done,
				      k, 0, 0);
		if (ret < 0) {
			*err = errno;
			break;
		}
		done += ret;
	}
	return done;
}

int dgram_recv(struct dgram_ep *ep, struct dgram_bufs *b, unsigned int n,
	       uint32_t timeout_ms)
{
	unsigned int i;
	int ret;

	if (n > b->n)
		n = b->n;
	for (i = 0; i < n; i++) {
		memset(&b->msgs[i], 0, sizeof(b->msgs[i]));
		b->msgs[i].buf = (uintptr_t)(b->data + i * b->room);
		b->msgs[i].len = b->room;
	}
	ret = ioc_dgram_batch(ep->fd, RDMACHAN_IOC_DGRAM_RECV, b->msgs, n, 0,
			      timeout_ms);
	if (ret < 0)
		return errno == ETIMEDOUT ? -EAGAIN : -errno;
	return ret;
}

int dgram_bufs_alloc(struct dgram_bufs *b, unsigned int n, size_t room)
{
	b->n = n;
	b->room = room;
	b->msgs = calloc(n, sizeof(*b->msgs));
	/* one byte at least: a buffer of no room is still an address */
	b->data = malloc(n * room + 1);
	if (b->msgs && b->data)
		return 0;
	dgram_bufs_free(b);
	tool_err("out of memory");
	return -1;
}

void dgram_bufs_free(struct dgram_bufs *b)
{
	free(b->msgs);
	free(b->data);
	b->msgs = NULL;
	b->data = NULL;
}

void dgram_print_error(int err)
{
	if (!err)
		return;
	print_fp("; %s", strerror(err));
	print_str(PRINT_ANY, "error", " (%s)", errno_name(err));
}

void dgram_print_counters(const struct dgram_ep *ep)
{
	enum out_type t = tool_stats() ? PRINT_ANY : PRINT_JSON;
	struct rdmachan_dgram_info i;

	if (dgram_info(ep, &i))
		memset(&i, 0, sizeof(i));
	print_fp(" (");
	print_u64(t, "rx", "rx %llu, ", i.rx);
	print_u64(t, "tx", "tx %llu, ", i.tx);
	print_u64(PRINT_ANY, "rx_empty", "rx_empty %llu", i.rx_empty);
	print_uint(t, "buffers", ", buffers %u", i.buffers);
	print_uint(t, "depth", "/%u", i.depth);
	print_u64(t, "mem_bytes", ", mem %llu", i.mem_bytes);
	print_u64(t, "grown", ", grown %llu", i.grown);
	print_u64(t, "retired", ", retired %llu", i.retired);
	print_fp(")");
}

void dgram_serving(const struct dgram_ep *ep, const struct sockaddr_storage *asked)
{
	const struct sockaddr_in *sin = (const struct sockaddr_in *)asked;
	const struct sockaddr_in6 *sin6 = (const struct sockaddr_in6 *)asked;

	if (asked->ss_family == AF_INET ? sin->sin_port : sin6->sin6_port)
		return;
	open_record(stderr);
	print_str(PRINT_JSON, "event", NULL, "serving");
	print_str(PRINT_ANY, "addr", "serving %s", ep->addr);
	print_uint(PRINT_ANY, "qpn", " qpn %u\n", ep->o.qpn);
	close_record();
}

static int dgram_help(int argc, char **argv)
{
	(void)argc;
	(void)argv;
	printf("Usage: rdmachan [-j] dgram COMMAND ADDR[:PORT] [OPTIONS]\n"
	       "       rdmachan dgram { COMMAND --help | help }\n"
	       "where  COMMAND := { echo | ping | recv | send | bench }\n"
	       "Datagram endpoints: unreliable datagrams (UD) over rdma_cm's UDP\n"
	       "port space, as rdma-core's udaddy sends them.\n"
	       "  echo ADDR[:PORT] [...]       serve ADDR, send every datagram back\n"
	       "                               (the server of dgram ping, udaddy -s)\n"
	       "  ping ADDR[:PORT] -I SRC [...] bursts of datagrams against dgram echo\n"
	       "                               or udaddy's server: received, lost, rtt\n"
	       "  recv ADDR[:PORT] [...]       serve ADDR, print the datagrams\n"
	       "  send ADDR[:PORT] -I SRC [...] send datagrams to a served port\n"
	       "  bench ADDR[:PORT] -I SRC [...] in-kernel blast or ping-pong against\n"
	       "                               dgram recv --sink or dgram echo -k\n"

	       "Default port: %d (udaddy's).  Only the whole word dgram names the\n"
	       "object.\n", DGRAM_PORT);
	return EXIT_OK;
}

const struct cmd dgram_cmds[] = {
	{ "echo", cmd_dgram_echo },
	{ "ping", cmd_dgram_ping },
	{ "recv", cmd_dgram_recv },
	{ "send", cmd_dgram_send },
	{ "bench", cmd_dgram_bench },
	{ "help", dgram_help },
	CMD_END
};

int obj_dgram(int argc, char **argv)
{
	return cmd_run("dgram", dgram_cmds, argc, argv);
}

int dgram_serve_open(const char *cmd, const struct dgram_args *a,
		     struct dgram_ep *ep, struct dgram_bufs *b)
{
	if (addr_is_multicast(&a->addr)) {
		if (dgram_open(cmd, &a->src, dgram_open_flags(a, 0), a->depth,
			       ep))
			return EXIT_FAIL;
		if (dgram_join(cmd, a, ep, 0, NULL)) {
			dgram_close(ep);
			return EXIT_FAIL;
		}
	} else if (dgram_open(cmd, &a->addr,
			      dgram_open_flags(a, RDMACHAN_DGRAM_SERVE),
			      a->depth, ep)) {
		return EXIT_FAIL;
	}
	if (dgram_bufs_alloc(b, RDMACHAN_DGRAM_MAX_BATCH, ep->o.max_size)) {
		dgram_close(ep);
		return EXIT_FAIL;
	}
	if (!addr_is_multicast(&a->addr))
		dgram_serving(ep, &a->addr);
	catch_signals(true);
	return 0;
}
