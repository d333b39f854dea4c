// SPDX-License-Identifier: GPL-2.0-only
/*
 * dgram_recv.c: "rdmachan dgram recv": serve a port and print the
 * datagrams that come, a line each.
 */
#include <arpa/inet.h>
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "chan.h"		/* catch_signals() */
#include "dgram.h"

static void recv_help(void)
{
	printf("Usage: rdmachan dgram recv ADDR[:PORT] [-c COUNT] [-W DUR] [-d DEPTH] [--busy-poll]\n"
	       "       rdmachan dgram recv GROUP -I SRC [-c COUNT] [-W DUR] [-d DEPTH] [--busy-poll]\n"
	       "       rdmachan dgram recv ADDR[:PORT] --sink [-c COUNT] [-t DUR] [-W DUR] [-d DEPTH]\n"
	       "                [--busy-poll]\n"
	       "Serve ADDR's port (default %d), or join the multicast GROUP from\n"
	       "the local address SRC, and print each datagram that comes as a\n"
	       "line: its source, queue pair, immediate data, length and (text)\n"
	       "its first %d bytes escaped, (JSON) all of them.\n"
	       "  -I, --src ADDR      the local address that joins GROUP\n"
	       "  -c, --count N       stop after N datagrams (default 1; 0: until\n"
	       "                      SIGINT or SIGTERM)\n"
	       "  -W, --wait DUR      fail when none comes within DUR (default 5s;\n"
	       "                      with -c 0: no bound), each time\n"
	       "  -d, --depth N       receive buffers (default %d, at most %d)\n"
	       "      --sink          take and count the datagrams in the kernel\n"
	       "                      (RDMACHAN_IOC_DGRAM_BENCH, the server of dgram\n"
	       "                      bench's blast) until COUNT (default 0: no\n"
	       "                      limit), -t DUR, none for -W DUR after the\n"
	       "                      first (default 2s) or a signal; then print\n"
	       "                      how many, their rate and rx_empty\n"
	       "  -t, --time DUR      --sink: stop after DUR\n"
	       "      --busy-poll     the endpoint's waits poll its completion\n"
	       "                      queue, spinning a while before they sleep\n",
	       DGRAM_PORT, DGRAM_TEXT_BYTES, RDMACHAN_DGRAM_DEFAULT_DEPTH,
	       RDMACHAN_DGRAM_MAX_DEPTH);
}

static void recv_print(const struct rdmachan_dgram_msg *m, size_t room)
{
	char from[64], text[4 * DGRAM_TEXT_BYTES + 8];
	bool trunc = m->flags & RDMACHAN_DGRAM_MSG_TRUNC;
	const void *buf = (const void *)(uintptr_t)m->buf;
	size_t n = m->len < room ? m->len : room;

	format_host(&m->peer.addr, from, sizeof(from));
	format_escaped(buf, n, DGRAM_TEXT_BYTES, text, sizeof(text));
	open_record(stdout);
	print_str(PRINT_ANY, "from", "from %s", from);
	print_uint(PRINT_ANY, "qpn", " qpn %u", m->peer.qpn);
	if (m->flags & RDMACHAN_DGRAM_MSG_IMM)
		print_uint(PRINT_ANY, "imm", " imm 0x%08x", ntohl(m->imm));
	else
		print_null(PRINT_JSON, "imm", NULL);
	print_uint(PRINT_ANY, "len", " %u bytes", m->len);
	print_bool(PRINT_JSON, "trunc", NULL, trunc);
	if (trunc)
		print_fp(" (truncated to %zu)", n);
	print_fp(": %s", text);
	print_bytes(PRINT_JSON, "data", buf, n);
	print_nl();
	close_record();
}

/* receive and print until @a->count came (0: a signal); 0 or an errno */
static int recv_loop(const char *cmd, struct dgram_ep *ep,
		     struct dgram_bufs *b, const struct dgram_args *a)
{
	uint64_t got = 0;
	unsigned int want;
	int i, ret;

	while (!tool_interrupted && (!a->count || got < a->count)) {
		want = b->n;
		if (a->count && a->count - got < want)
			want = a->count - got;
		/* until a signal: without bound, unless -W says one */
		ret = dgram_recv(ep, b, want,
				 a->count || a->has_wait ? a->wait_ms : 0);
		if (ret == -EINTR)
			return 0;
		if (ret == -EAGAIN) {
			tool_err("%s %s: no datagram within %llu ms (ETIMEDOUT)",
				 cmd, ep->addr, (unsigned long long)a->wait_ms);
			return ETIMEDOUT;
		}
		if (ret < 0) {
			dgram_err(cmd, ep->addr, -ret, ep);
			return -ret;
		}
		for (i = 0; i < ret; i++)
			recv_print(&b->msgs[i], b->room);
		got += ret;
		fflush(stdout);
	}
	return 0;
}

int cmd_dgram_recv(int argc, char **argv)
{
	const char *cmd = "dgram recv";
	struct dgram_bufs b = { 0 };
	struct dgram_args a;
	struct dgram_ep ep;
	int ret;

	ret = dgram_parse(cmd, DGRAM_OPT_COUNT | DGRAM_OPT_WAIT | DGRAM_OPT_DEPTH |
			  DGRAM_OPT_SERVE | DGRAM_OPT_SRC | DGRAM_OPT_GROUP |
			  DGRAM_OPT_SINK | DGRAM_OPT_TIME | DGRAM_OPT_BUSY, argc,
			  argv, &a, recv_help);
	if (ret)
		return ret == DGRAM_HELP ? EXIT_OK : ret;
	if (a.sink)
		return dgram_sink(cmd, &a);
	if (a.time_ms)
		return tool_usage_err(cmd, "-t is for --sink");
	if (dgram_serve_open(cmd, &a, &ep, &b))
		return EXIT_FAIL;
	ret = recv_loop(cmd, &ep, &b, &a);
	dgram_bufs_free(&b);
	dgram_close(&ep);
	return ret ? EXIT_FAIL : EXIT_OK;
}
