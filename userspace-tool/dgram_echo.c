// SPDX-License-Identifier: GPL-2.0-only
/*
 * dgram_echo.c: "rdmachan dgram echo": serve a port, send every datagram
 * back to its source: the server of "dgram ping" and of udaddy's client
 * (udaddy -s), which answers the queue pair in the immediate data, as
 * this does.
 */
#include <arpa/inet.h>
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "chan.h"		/* catch_signals() */
#include "dgram.h"

static void echo_help(void)
{
	printf("Usage: rdmachan dgram echo ADDR[:PORT] [-c COUNT] [-d DEPTH] [-k] [--busy-poll]\n"
	       "Serve ADDR's port (default %d, udaddy's) and send every datagram\n"
	       "back to its source, with this endpoint's queue pair number as\n"
	       "immediate data (as udaddy's server does), until COUNT were echoed\n"
	       "or a signal; then print how many.\n"
	       "  -c, --count N       stop after N datagrams (default 0: until\n"
	       "                      SIGINT or SIGTERM)\n"
	       "  -d, --depth N       receive buffers (default %d, at most %d)\n"
	       "  -k, --kernel        echo in the kernel (RDMACHAN_IOC_DGRAM_BENCH,\n"
	       "                      the server of dgram bench --op pingpong):\n"
	       "                      each datagram goes back with its own\n"
	       "                      immediate data\n"
	       "      --busy-poll     the endpoint's waits poll its completion\n"
	       "                      queue, spinning a while before they sleep\n",
	       DGRAM_PORT, RDMACHAN_DGRAM_DEFAULT_DEPTH, RDMACHAN_DGRAM_MAX_DEPTH);
}

/* the received datagrams of @b as their echoes: same bytes, back to the source */
static void echo_turn(const struct dgram_ep *ep, struct dgram_bufs *b,
		      unsigned int n)
{
	struct rdmachan_dgram_msg *m;
	unsigned int i;

	for (i = 0; i < n; i++) {
		m = &b->msgs[i];
		if (m->len > b->room)
			m->len = b->room;	/* truncated: what is left */
		m->flags = RDMACHAN_DGRAM_MSG_IMM;
		m->imm = htonl(ep->o.qpn);
		m->reserved = 0;
	}
}

/* errors of one datagram (its destination), not of the endpoint */
static bool echo_skips(int err)
{
	return err == EHOSTUNREACH || err == ENETUNREACH || err == ETIMEDOUT ||
	       err == EINVAL || err == EMSGSIZE || err == EAFNOSUPPORT;
}

/*
 * send the @n echoes: how many went in *@echoed; a datagram that cannot
 * go back to its source is named and skipped.  0 or -errno.
 */
static int echo_send(const char *cmd, struct dgram_ep *ep,
		     struct dgram_bufs *b, unsigned int n, uint64_t *echoed)
{
	struct rdmachan_dgram_msg *m;
	unsigned int done = 0, k;
	char to[64], what[96];
	int err;

	while (done < n) {
		k = dgram_send(ep, b->msgs + done, n - done, &err);
		done += k;
		*echoed += k;
		if (!err)
			break;
		if (!echo_skips(err))
			return -err;
		m = &b->msgs[done++];
		format_host(&m->peer.addr, to, sizeof(to));
		snprintf(what, sizeof(what), "echo to %s qpn %u", to,
			 m->peer.qpn);
		dgram_err(cmd, what, err, ep);
	}
	return 0;
}

static void echo_print(const struct dgram_ep *ep, uint64_t echoed, int err)
{
	open_record(stdout);
	print_str(PRINT_ANY, "role", "%s", "echo");
	print_str(PRINT_ANY, "addr", " %s", ep->addr);
	print_uint(PRINT_ANY, "qpn", " qpn %u", ep->o.qpn);
	print_u64(PRINT_ANY, "echoed", ": %llu", echoed);
	print_fp(" datagram%s echoed", echoed == 1 ? "" : "s");
	dgram_print_counters(ep);
	dgram_print_error(err);
	print_nl();
	close_record();
}

/* echo -k: the loop in the kernel; EXIT_OK or EXIT_FAIL */
static int echo_kernel(const char *cmd, const struct dgram_args *a)
{
	struct rdmachan_dgram_bench b = { .mode = RDMACHAN_BENCH_ECHO };
	struct dgram_ep ep;
	int ret;

	b.count = a->count;
	/* caught from before the port is served: a signal ends the run */
	catch_signals(true);
	if (dgram_open(cmd, &a->addr, dgram_open_flags(a, RDMACHAN_DGRAM_SERVE),
		       a->depth, &ep))
		return EXIT_FAIL;
	dgram_serving(&ep, &a->addr);
	ret = dgram_bench_kernel(cmd, ep.addr, &ep, &b);
	if (!ret)
		echo_print(&ep, b.msgs, 0);
	dgram_close(&ep);
	return ret;
}

int cmd_dgram_echo(int argc, char **argv)
{
	const char *cmd = "dgram echo";
	struct dgram_bufs b = { 0 };
	struct dgram_args a;
	struct dgram_ep ep;
	uint64_t echoed = 0;
	unsigned int want;
	int ret, err = 0;

	ret = dgram_parse(cmd, DGRAM_OPT_COUNT | DGRAM_OPT_DEPTH | DGRAM_OPT_SERVE |
			  DGRAM_OPT_KERNEL | DGRAM_OPT_BUSY, argc, argv, &a,
			  echo_help);
	if (ret)
		return ret == DGRAM_HELP ? EXIT_OK : ret;
	if (!a.has_count)
		a.count = 0;
	if (a.kernel)
		return echo_kernel(cmd, &a);
	if (dgram_serve_open(cmd, &a, &ep, &b))
		return EXIT_FAIL;
	while (!tool_interrupted && (!a.count || echoed < a.count)) {
		want = b.n;
		if (a.count && a.count - echoed < want)
			want = a.count - echoed;
		ret = dgram_recv(&ep, &b, want, 0);
		if (ret >= 0) {
			echo_turn(&ep, &b, ret);
			ret = echo_send(cmd, &ep, &b, ret, &echoed);
		}
		if (ret == -EINTR)
			break;
		if (ret < 0) {
			err = -ret;
			break;
		}
	}
	echo_print(&ep, echoed, err);
	if (err)
		dgram_err(cmd, ep.addr, err, &ep);
	dgram_bufs_free(&b);
	dgram_close(&ep);
	return err ? EXIT_FAIL : EXIT_OK;
}
