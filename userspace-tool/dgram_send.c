// SPDX-License-Identifier: GPL-2.0-only
/*
 * dgram_send.c: "rdmachan dgram send": datagrams to a served port (or
 * straight to a queue pair), with this endpoint's queue pair number as
 * immediate data, as udaddy sends them.
 */
#include <arpa/inet.h>
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "chan.h"		/* catch_signals() */
#include "dgram.h"

static void send_help(void)
{
	printf("Usage: rdmachan dgram send ADDR[:PORT] -I SRC [-c COUNT] [-s SIZE | DATA] [--qpn N] [-W DUR]\n"
	       "                [--busy-poll]\n"
	       "Resolve the endpoint serving ADDR's port (default %d), send it\n"
	       "DATA (the string), or SIZE bytes of dgram ping's pattern, COUNT\n"
	       "times, each with this endpoint's queue pair number as immediate\n"
	       "data; print how many went.\n"
	       "  -I, --src ADDR      the local address (its RDMA device) to send from\n"
	       "  -c, --count N       datagrams (default 1)\n"
	       "  -s, --size SIZE     bytes of each (default %d), at most the port's\n"
	       "                      active MTU\n"
	       "      --qpn N         send to queue pair N at ADDR with the default\n"
	       "                      qkey, without resolving ADDR's port\n"
	       "  -W, --wait DUR      bound of the resolution (default 5s)\n"
	       "      --busy-poll     the endpoint's waits poll its completion\n"
	       "                      queue, spinning a while before they sleep\n",
	       DGRAM_PORT, DGRAM_DEFAULT_SIZE);
}

/* the datagrams @first.. of @n into @b: DATA, or the pattern */
static void send_fill(struct dgram_bufs *b, const struct dgram_args *a,
		      const struct rdmachan_dgram_peer *peer, uint32_t qpn,
		      uint64_t first, unsigned int n)
{
	struct rdmachan_dgram_msg *m;
	unsigned int i;

	for (i = 0; i < n; i++) {
		m = &b->msgs[i];
		memset(m, 0, sizeof(*m));
		m->buf = a->data ? (uintptr_t)a->data :
			 (uintptr_t)(b->data + i * b->room);
		m->len = a->size;
		m->flags = RDMACHAN_DGRAM_MSG_IMM;
		m->imm = htonl(qpn);
		m->peer = *peer;
		if (!a->data)
			dgram_fill(b->data + i * b->room, a->size, first + i);
	}
}

/* send @a->count datagrams; how many went in *@sent; 0 or an errno */
static int send_all(struct dgram_ep *ep, struct dgram_bufs *b,
		    const struct dgram_args *a,
		    const struct rdmachan_dgram_peer *peer, uint64_t *sent)
{
	unsigned int n, k;
	int err = 0;

	catch_signals(true);
	while (*sent < a->count && !tool_interrupted) {
		n = b->n;
		if (a->count - *sent < n)
			n = a->count - *sent;
		send_fill(b, a, peer, ep->o.qpn, *sent, n);
		k = dgram_send(ep, b->msgs, n, &err);
		*sent += k;
		if (err)
			break;
	}
	return err == EINTR ? 0 : err;
}

static void send_print(const struct dgram_ep *ep, const char *peer_str,
		       const struct rdmachan_dgram_peer *peer, uint64_t sent,
		       uint64_t size, int err)
{
	open_record(stdout);
	print_str(PRINT_JSON, "role", NULL, "send");
	print_u64(PRINT_ANY, "sent", "sent %llu", sent);
	print_fp(" datagram%s", sent == 1 ? "" : "s");
	print_u64(PRINT_ANY, "size", " of %llu bytes", size);
	print_str(PRINT_ANY, "peer", " to %s", peer_str);
	print_uint(PRINT_ANY, "peer_qpn", " (qpn %u)", peer->qpn);
	print_uint(PRINT_JSON, "qpn", NULL, ep->o.qpn);
	dgram_print_error(err);
	print_nl();
	close_record();
}

int cmd_dgram_send(int argc, char **argv)
{
	const char *cmd = "dgram send";
	struct rdmachan_dgram_peer peer;
	struct dgram_bufs b = { 0 };
	char peer_str[80], what[96];
	struct dgram_args a;
	struct dgram_ep ep;
	uint64_t sent = 0;
	int ret, err;

	ret = dgram_parse(cmd, DGRAM_OPT_COUNT | DGRAM_OPT_SIZE | DGRAM_OPT_SRC |
			  DGRAM_OPT_QPN | DGRAM_OPT_WAIT | DGRAM_OPT_DATA |
			  DGRAM_OPT_BUSY,
			  argc, argv, &a, send_help);
	if (ret)
		return ret == DGRAM_HELP ? EXIT_OK : ret;
	if (a.data)
		a.size = strlen(a.data);
	err = dgram_connect(cmd, &a, &ep, &peer, peer_str, sizeof(peer_str));
	if (err < 0)
		return EXIT_FAIL;
	snprintf(what, sizeof(what), "%s %s", err ? "resolve" : "to",
		 peer_str);
	/* DATA is every datagram's buffer; the pattern needs one each */
	if (!err && dgram_bufs_alloc(&b, RDMACHAN_DGRAM_MAX_BATCH,
				     a.data ? 0 : a.size))
		err = ENOMEM;
	if (!err)
		err = send_all(&ep, &b, &a, &peer, &sent);
	send_print(&ep, peer_str, &peer, sent, a.size, err);
	if (err)
		dgram_err(cmd, what, err, &ep);
	dgram_bufs_free(&b);
	dgram_close(&ep);
	return err ? EXIT_FAIL : EXIT_OK;
}
