// SPDX-License-Identifier: GPL-2.0-only
/*
 * chan_test_frag.c: messages that span receive buffers (wire feature
 * FRAG, module/chan/chan_frag.c), between two channels of /dev/rdmachan.
 *
 *   - a default pair's ends both make buffers of 4108 bytes
 *     (msg_buf_bytes) from the start and send each other fragments
 *     (wire_flags FRAG and FRAG_TX on both ends);
 *   - each receive buffer takes one page (rx_buf_mem 4096: an order-0
 *     page and the slot's wire area, module/chan/rx_layout.h);
 *   - messages around the fragment size (their immediate in the page,
 *     across its end, or past it) and up to the largest arrive
 *     whole and intact, with their immediates, through write/read and
 *     SEND/RECV, on a fresh channel whose grant is one credit (the
 *     sender asks for the credits a large message needs);
 *   - SENDMMSG of small and large messages: all arrive, in order;
 *   - a non-blocking large send to a peer holding the credits fails with
 *     EAGAIN, poll reports no POLLOUT until all its credits are back,
 *     then it goes;
 *   - a reader's buffer too small for a large message: EMSGSIZE, the
 *     message stays and is read whole later;
 *   - idle, each end holds little: at most 80 KiB;
 *   - a depth that cannot hold a largest message's fragments, or a
 *     largest message that fits one, keeps whole buffers: no FRAG.
 */
#include "chan_test.h"

#define FRAG_BUF	4108
#define FRAG_MAX	65536

static long attr_num(int fd, const char *name)
{
	char buf[64];

	return strtol(sysfs_attr(fd, name, buf, sizeof(buf)), NULL, 0);
}

/* One message of @len bytes with immediate @imm each way; 1 when intact */
static int exchange(struct chan_pair *p, unsigned int len, uint32_t imm)
{
	static unsigned char out[FRAG_MAX], in[FRAG_MAX];
	unsigned int got_imm = 0;
	int has = 0, r;

	fill(out, len, len + imm);
	if (chan_send_imm(p->cli, out, len, imm, 0))
		return 0;
	r = chan_recv_msg(p->srv, in, sizeof(in), &got_imm, &has, 0);
	if (r != (int)len || !has || got_imm != imm || memcmp(in, out, len))
		return 0;
	/* and back, through write() and read() */
	if (write(p->srv, out, len) != (ssize_t)len)
		return 0;
	memset(in, 0, len);
	return read(p->cli, in, sizeof(in)) == (ssize_t)len &&
	       !memcmp(in, out, len);
}

static void check_sizes(struct chan_pair *p)
{
	static const unsigned int sizes[] = {
		1, 4092, 4093, 4094, 4095, 4096, 4097, 8190, 8192, 8193,
		12289, 65535, 65536,
	};
	unsigned int i;

	for (i = 0; i < sizeof(sizes) / sizeof(sizes[0]); i++) {
		char desc[96];

		snprintf(desc, sizeof(desc),
			 "a %u-byte message arrives whole, both ways", sizes[i]);
		ktap_result(exchange(p, sizes[i], i), desc, "%s",
			    strerror(errno));
	}
}

static void check_mmsg(struct chan_pair *p)
{
	static unsigned char bufs[6][FRAG_MAX], in[FRAG_MAX];
	static const unsigned int sizes[6] = { 10, 20000, 4096, 65536, 7, 4097 };
	struct rdmachan_user_msg m[6];
	struct rdmachan_mmsg mm = { .size = sizeof(mm),
				    .msgs = (unsigned long)m, .count = 6 };
	unsigned int imm = 0, i, total = 0, calls;
	int ok = 1, has = 0, r = 0;

	for (i = 0; i < 6; i++) {
		fill(bufs[i], sizes[i], 77 + i);
		m[i] = (struct rdmachan_user_msg){
			.buf = (unsigned long)bufs[i], .len = sizes[i],
			.imm = i, .flags = RDMACHAN_MSG_IMM };
	}
	for (calls = 0; total < 6 && calls < 20; calls++) {
		mm.msgs = (unsigned long)&m[total];
		mm.count = 6 - total;
		mm.done = 0;
		r = ioctl(p->cli, RDMACHAN_IOC_SENDMMSG, &mm);
		if (r || !mm.done)
			break;
		total += mm.done;
	}
	ktap_result(total == 6, "SENDMMSG of small and large messages sends them all",
		    "ret %d: %u sent in %u calls", r, total, calls);
	for (i = 0; i < 6; i++) {
		r = chan_recv_msg(p->srv, in, sizeof(in), &imm, &has, 0);
		if (r != (int)sizes[i] || !has || imm != i ||
		    memcmp(in, bufs[i], sizes[i]))
			ok = 0;
	}
	ktap_result(ok, "they arrive in order, whole, with their immediates",
		    "message %u: %d bytes", i, r);
}

static void check_too_small(struct chan_pair *p)
{
	static unsigned char out[20000], in[20000];
	int r;

	fill(out, sizeof(out), 5);
	if (write(p->cli, out, sizeof(out)) != sizeof(out))
		ktap_result(0, "a 20000-byte message goes", "%s", strerror(errno));
	errno = 0;
	r = read(p->srv, in, 8000);
	ktap_result(r < 0 && errno == EMSGSIZE,
		    "reading a 20000-byte message into 8000 bytes fails with EMSGSIZE",
		    "read %d %s", r, strerror(errno));
	r = read(p->srv, in, sizeof(in));
	ktap_result(r == sizeof(in) && !memcmp(in, out, sizeof(in)),
		    "the message is kept and read whole later", "read %d", r);
}

/* The server holds messages: a large non-blocking send waits for credits */
static void check_nonblock(struct chan_pair *p)
{
	static unsigned char big[FRAG_MAX], in[FRAG_MAX];
	struct pollfd pfd = { .fd = p->cli, .events = POLLOUT };
	struct rdmachan_chan_info ci;
	int held = 0, r, ok = 1, err;

	/*
	 * fill the depth with one-fragment messages nobody reads, until no
	 * credit comes back for a second (the grant grows as they arrive)
	 */
	for (;;) {
		if (!chan_send_imm(p->cli, big, 100, held, 1)) {
			held++;
			continue;
		}
		err = errno;
		if (err != EAGAIN || poll(&pfd, 1, 1000) != 1)
			break;
	}
	ioc_chan_info(p->cli, &ci);
	ktap_result(err == EAGAIN && held > 0 && ci.send_credits == 0,
		    "unread small messages take every credit", "%d held: %s",
		    held, strerror(err));
	/*
	 * read eight back: their credits are owed, eight of a 64 KiB
	 * message's sixteen at most
	 */
	for (r = 0; r < 8 && held > 0; r++) {
		unsigned int imm;
		int has;

		if (chan_recv_msg(p->srv, in, sizeof(in), &imm, &has, 0) != 100)
			ok = 0;
		held--;
	}
	usleep(200 * 1000);
	fill(big, sizeof(big), 3);
	r = chan_send_imm(p->cli, big, sizeof(big), 99, 1);
	ktap_result(r < 0 && errno == EAGAIN,
		    "a 64 KiB send without its sixteen credits fails with EAGAIN",
		    "ret %d %s", r, strerror(errno));
	r = poll(&pfd, 1, 300);
	ktap_result(ok && r == 0,
		    "poll reports no POLLOUT while fewer credits than it needs are back",
		    "poll %d revents %#x", r, pfd.revents);
	while (held > 0) {
		unsigned int imm;
		int has;

		if (chan_recv_msg(p->srv, in, sizeof(in), &imm, &has, 0) != 100)
			ok = 0;
		held--;
	}
	r = poll(&pfd, 1, 5000);
	ktap_result(ok && r == 1 && (pfd.revents & POLLOUT),
		    "POLLOUT once the reader took the held messages",
		    "poll %d revents %#x", r, pfd.revents);
	r = chan_send_imm(p->cli, big, sizeof(big), 99, 1);
	ktap_result(!r, "then the 64 KiB send goes", "%s", strerror(errno));
	{
		unsigned int imm;
		int has;

		r = chan_recv_msg(p->srv, in, sizeof(in), &imm, &has, 0);
		ktap_result(r == FRAG_MAX && has && imm == 99 &&
			    !memcmp(in, big, sizeof(big)),
			    "and arrives whole", "read %d", r);
	}
}

/* Wait up to @secs for both ends to hold at most @kib of their own */
static int wait_small(struct chan_pair *p, long kib, int secs)
{
	int i;

	for (i = 0; i < secs * 10; i++) {
		if (attr_num(p->srv, "mem_bytes") <= kib * 1024 &&
		    attr_num(p->cli, "mem_bytes") <= kib * 1024)
			return 1;
		usleep(100 * 1000);
	}
	return 0;
}

/* A pair with @o: does it do without FRAG, and carry its largest? */
static void check_whole(const struct rdmachan_chan_opts *o, const char *why)
{
	struct rdmachan_chan_info ci;
	struct chan_pair p;
	char desc[128];

	if (pair_open(&p, o))
		return;
	ioc_chan_info(p.cli, &ci);
	snprintf(desc, sizeof(desc), "%s: whole buffers, no FRAG", why);
	ktap_result(!(ci.wire_flags &
		      (RDMACHAN_WIRE_FRAG | RDMACHAN_WIRE_FRAG_TX)) &&
		    attr_num(p.srv, "msg_buf_bytes") ==
		    (long)ci.max_msg_size + 12 &&
		    attr_num(p.srv, "rx_buf_mem") >=
		    attr_num(p.srv, "msg_buf_bytes"), desc,
		    "wire_flags %#x msg_buf_bytes %ld rx_buf_mem %ld",
		    ci.wire_flags, attr_num(p.srv, "msg_buf_bytes"),
		    attr_num(p.srv, "rx_buf_mem"));
	snprintf(desc, sizeof(desc), "%s: its largest message goes", why);
	ktap_result(exchange(&p, ci.max_msg_size, 1), desc, "%s",
		    strerror(errno));
	chan_pair_close(&p);
}

int cmd_frag(SUBCMD_ARGS)
{
	struct rdmachan_chan_opts o = { 0 };
	struct rdmachan_chan_info ci, si;
	struct chan_pair p;
	int ok;

	if (pair_open(&p, &o))
		return 1;
	ioc_chan_info(p.cli, &ci);
	ioc_chan_info(p.srv, &si);
	ktap_result((ci.wire_flags & RDMACHAN_WIRE_FRAG) &&
		    (si.wire_flags & RDMACHAN_WIRE_FRAG) &&
		    (ci.wire_flags & RDMACHAN_WIRE_FRAG_TX) &&
		    (si.wire_flags & RDMACHAN_WIRE_FRAG_TX) &&
		    ci.max_msg_size == FRAG_MAX,
		    "a default pair agrees on FRAG", "wire_flags %#x %#x",
		    ci.wire_flags, si.wire_flags);
	ktap_result(attr_num(p.srv, "msg_buf_bytes") == FRAG_BUF &&
		    attr_num(p.cli, "msg_buf_bytes") == FRAG_BUF,
		    "both ends make buffers of 4108 bytes", "%ld %ld",
		    attr_num(p.srv, "msg_buf_bytes"),
		    attr_num(p.cli, "msg_buf_bytes"));
	ktap_result(attr_num(p.srv, "rx_buf_mem") == 4096 &&
		    attr_num(p.cli, "rx_buf_mem") == 4096,
		    "each receive buffer takes a page", "%ld %ld",
		    attr_num(p.srv, "rx_buf_mem"),
		    attr_num(p.cli, "rx_buf_mem"));
	ktap_result(ci.send_credits == 1,
		    "the client starts with one credit", "%u", ci.send_credits);
	check_sizes(&p);
	check_mmsg(&p);
	check_too_small(&p);
	check_nonblock(&p);
	ok = wait_small(&p, 80, 20);
	ktap_result(ok, "idle, each end holds at most 80 KiB of its own",
		    "server %ld, client %ld bytes, granted %ld and %ld",
		    attr_num(p.srv, "mem_bytes"), attr_num(p.cli, "mem_bytes"),
		    attr_num(p.srv, "credits_granted"),
		    attr_num(p.cli, "credits_granted"));
	ioc_chan_info(p.cli, &ci);
	ioc_chan_info(p.srv, &si);
	ktap_result(ci.state == RDMACHAN_STATE_CONNECTED && !ci.errors &&
		    si.state == RDMACHAN_STATE_CONNECTED && !si.errors,
		    "no end saw an error", "errors %llu %llu",
		    (unsigned long long)ci.errors,
		    (unsigned long long)si.errors);
	chan_pair_close(&p);

	o.queue_depth = 8;
	check_whole(&o, "depth 8 for 16 fragments");
	o.queue_depth = 0;
	o.max_msg_size = 4096;
	check_whole(&o, "a largest message of 4096");
	return ktap_failures() ? 1 : 0;
}
