// SPDX-License-Identifier: GPL-2.0-only
/*
 * dgram_test: a datagram endpoint's buffers follow use (dgram_buf.c), as
 * a list of checks in KTAP (ktap.h).
 *
 * A receiving endpoint on the server's address and a sending one on the
 * client's, the sender resolving the receiver's port.  With the module's
 * shrink_idle_ms 0 the receiver keeps its depth; set short, an idle
 * receiver gives its buffers back but RDMACHAN_DGRAM_RX_KEEP, its reader
 * seeing none of the retire datagrams that did it; a full batch then
 * arrives whole; with its reader stopped, a flood grows it back to its
 * depth, each buffer holding a datagram, which the reader then reads,
 * each once, its bytes checked (UD keeps no order); idle again, it
 * shrinks again, and so do the
 * sender's send pages.  An empty datagram with the retire immediate from
 * a peer is delivered as any datagram and takes no buffer.  The module
 * parameter is put back at the end.
 *
 *   dgram_test
 */
#define _GNU_SOURCE
#include <poll.h>
#include <time.h>

#include <linux/rdmachan_verbs.h>

#include "chanlib.h"

#define SRV_IP		"192.0.2.1"
#define CLI_IP		"192.0.2.2"
#define PORT		7330
#define DEPTH		256
#define KEEP		RDMACHAN_DGRAM_MAX_BATCH	/* RDMACHAN_DGRAM_RX_KEEP */
#define SIZE		200
#define FLOOD		2000
#define SHRINK_MS	300
#define PAGE		4096
#define RETIRE_IMM	0x52544952
#define PARAM		"shrink_idle_ms"

static int ctl;
static struct rdmachan_dgram_peer peer;	/* the receiver, for the sender */

static int info(int fd, struct rdmachan_dgram_info *i)
{
	memset(i, 0, sizeof(*i));
	return ioc_dgram_info(fd, i);
}

/*
 * Wait at most @ms for @fd to hold @buffers receive buffers (and to have
 * received @rx datagrams, unless 0); its info
 */
static int wait_buffers(int fd, unsigned int buffers, uint64_t rx, int ms,
			struct rdmachan_dgram_info *i)
{
	for (;;) {
		if (info(fd, i))
			return -1;
		if (i->buffers == buffers && (!rx || i->rx == rx))
			return 0;
		if (ms <= 0)
			return -1;
		usleep(50 * 1000);
		ms -= 50;
	}
}

/* Send datagrams @first.. (@n, batches of KEEP) to the receiver */
static int send_seq(int fd, uint32_t first, unsigned int n, size_t size,
		    int imm)
{
	static uint8_t bufs[KEEP][PAGE];
	struct rdmachan_dgram_msg m[KEEP];
	unsigned int k, done = 0;
	int r;

	while (done < n) {
		unsigned int c = n - done < KEEP ? n - done : KEEP;

		memset(m, 0, sizeof(m));
		for (k = 0; k < c; k++) {
			uint32_t seq = first + done + k;

			memset(bufs[k], (uint8_t)seq, size);
			if (size >= sizeof(seq))
				memcpy(bufs[k], &seq, sizeof(seq));
			m[k].buf = (uintptr_t)bufs[k];
			m[k].len = size;
			m[k].peer = peer;
			if (imm) {
				m[k].flags = RDMACHAN_DGRAM_MSG_IMM;
				m[k].imm = htonl(RETIRE_IMM);
			}
		}
		r = ioc_dgram_batch(fd, RDMACHAN_IOC_DGRAM_SEND, m, c, 0, 0);
		if (r <= 0)
			return -1;
		done += r;
	}
	return 0;
}

/* The sequence numbers read so far, each once: read_seq() marks them */
static uint8_t seen[FLOOD + KEEP + 2];

/*
 * Read what has arrived at @fd without waiting: each of @size bytes,
 * numbered from @first to @last, and each number once (UD promises no
 * order: rxe's packets may cross the veth on two CPUs); the count, or -1
 * with @why set.
 */
static int read_seq(int fd, size_t size, uint32_t first, uint32_t last,
		    const char **why)
{
	static uint8_t buf[PAGE];
	struct rdmachan_dgram_msg m;
	int n = 0;

	for (;;) {
		uint32_t seq;
		int r;

		memset(&m, 0, sizeof(m));
		m.buf = (uintptr_t)buf;
		m.len = sizeof(buf);
		r = ioc_dgram_batch(fd, RDMACHAN_IOC_DGRAM_RECV, &m, 1,
				    RDMACHAN_DGRAM_DONTWAIT, 0);
		if (r < 0)
			return errno == EAGAIN ? n : -1;
		if (m.len != size) {
			*why = "a datagram of another length";
			return -1;
		}
		memcpy(&seq, buf, sizeof(seq));
		if (seq < first || seq > last || seq >= sizeof(seen)) {
			*why = "a datagram not sent";
			return -1;
		}
		if (seen[seq]++) {
			*why = "a datagram twice";
			return -1;
		}
		for (size_t k = sizeof(seq); k < size; k++)
			if (buf[k] != (uint8_t)seq) {
				*why = "a datagram's bytes differ";
				return -1;
			}
		n++;
	}
}

static int open_pair(int *rfd, int *sfd)
{
	struct __kernel_sockaddr_storage a;
	struct rdmachan_dgram_open o;

	set_in4(&a, SRV_IP, PORT);
	*rfd = ioc_dgram_open(ctl, &a, RDMACHAN_DGRAM_SERVE, 0, DEPTH, &o);
	set_in4(&a, CLI_IP, 0);
	*sfd = ioc_dgram_open(ctl, &a, 0, 0, DEPTH, &o);
	if (*rfd < 0 || *sfd < 0)
		return -1;
	set_in4(&a, SRV_IP, PORT);
	return ioc_dgram_resolve(*sfd, &a, 0, 5000, &peer);
}

static void idle_checks(int rfd, int sfd)
{
	struct rdmachan_dgram_info i0, i;
	const char *why = "";
	int n;

	info(rfd, &i0);
	ktap_result(i0.buffers == DEPTH && i0.depth == DEPTH &&
		    i0.mem_bytes >= (uint64_t)DEPTH * PAGE,
		    "an endpoint opens with a buffer for each of its depth",
		    "buffers %u/%u, mem %llu", i0.buffers, i0.depth,
		    (unsigned long long)i0.mem_bytes);
	sleep(3);	/* the tick, 1 s while shrink_idle_ms is 0 */
	info(rfd, &i);
	ktap_result(i.buffers == DEPTH && !i.retired,
		    "with shrink_idle_ms 0 an idle endpoint keeps them",
		    "buffers %u, retired %llu", i.buffers,
		    (unsigned long long)i.retired);
	module_param_set(PARAM, SHRINK_MS);
	n = wait_buffers(rfd, KEEP, 0, 5000, &i);
	ktap_result(!n && i.retired == DEPTH - KEEP && !i.grown,
		    "idle for shrink_idle_ms, it gives them back but a batch's",
		    "buffers %u, retired %llu, grown %llu", i.buffers,
		    (unsigned long long)i.retired,
		    (unsigned long long)i.grown);
	ktap_diag("an endpoint of depth %u holds %llu bytes at open, %llu idle",
		  DEPTH, (unsigned long long)i0.mem_bytes,
		  (unsigned long long)i.mem_bytes);
	ktap_result(i0.mem_bytes - i.mem_bytes >= (uint64_t)(DEPTH - KEEP) * PAGE,
		    "and its memory falls by their pages",
		    "mem %llu -> %llu", (unsigned long long)i0.mem_bytes,
		    (unsigned long long)i.mem_bytes);
	/* none was sent yet: any datagram read is one too many */
	n = read_seq(rfd, SIZE, 1, 0, &why);
	ktap_result(n == 0 && !i.rx && i.posted == KEEP,
		    "its reader sees none of the retire datagrams",
		    "read %d (%s), rx %llu, posted %u", n, why,
		    (unsigned long long)i.rx, i.posted);
	n = wait_buffers(sfd, KEEP, 0, 5000, &i);
	ktap_result(!n, "the idle sender's buffers went too", "buffers %u",
		    i.buffers);
}

static void use_checks(int rfd, int sfd)
{
	struct rdmachan_dgram_info i, s0, s;
	const char *why = "";
	int n, tries;

	ktap_result(!send_seq(sfd, 1, KEEP, SIZE, 0),
		    "a full batch goes to the shrunk receiver", "errno %d",
		    errno);
	for (n = 0, tries = 0; n < KEEP && tries < 100; tries++) {
		int r = read_seq(rfd, SIZE, 1, KEEP, &why);

		if (r < 0)
			break;
		n += r;
		if (n < KEEP)
			usleep(50 * 1000);
	}
	info(rfd, &i);
	ktap_result(n == KEEP && !i.rx_empty,
		    "it arrives whole, each datagram once, its bytes right",
		    "read %d of %d (%s), rx_empty %llu", n, KEEP, why,
		    (unsigned long long)i.rx_empty);

	/* the reader stopped: a flood grows the buffers to the depth */
	ktap_result(!send_seq(sfd, KEEP + 1, FLOOD, SIZE, 0),
		    "a flood goes to the receiver, its reader stopped",
		    "errno %d", errno);
	info(sfd, &s0);
	n = wait_buffers(rfd, DEPTH, KEEP + DEPTH, 10000, &i);
	ktap_result(!n && i.buffers == DEPTH + i.grown - i.retired &&
		    i.grown >= DEPTH - KEEP && i.rx_empty,
		    "the receiver grows back to its depth, each buffer holding a datagram, the rest dropped",
		    "buffers %u, grown %llu, rx %llu, rx_empty %llu",
		    i.buffers, (unsigned long long)i.grown,
		    (unsigned long long)i.rx,
		    (unsigned long long)i.rx_empty);
	usleep(500 * 1000);	/* the flood's last sends complete */
	n = read_seq(rfd, SIZE, KEEP + 1, KEEP + FLOOD, &why);
	ktap_result(n >= DEPTH,
		    "its reader then reads them, each once, their bytes right",
		    "read %d of %d (%s)", n, DEPTH, why);
	n = wait_buffers(rfd, KEEP, 0, 5000, &i);
	ktap_result(!n && i.retired == i.grown + DEPTH - KEEP,
		    "idle again, it shrinks again",
		    "buffers %u, retired %llu", i.buffers,
		    (unsigned long long)i.retired);
	usleep(3 * SHRINK_MS * 1000);
	info(sfd, &s);
	ktap_result(s.mem_bytes < s0.mem_bytes &&
		    s0.mem_bytes - s.mem_bytes >= PAGE,
		    "the sender, idle, frees its send pages but one",
		    "mem %llu -> %llu", (unsigned long long)s0.mem_bytes,
		    (unsigned long long)s.mem_bytes);
}

static void spoof_checks(int rfd, int sfd)
{
	struct rdmachan_dgram_info i0, i;
	struct rdmachan_dgram_msg m = { 0 };
	uint8_t buf[16];
	int r;

	info(rfd, &i0);
	ktap_result(!send_seq(sfd, 0, 1, 0, 1),
		    "a peer sends an empty datagram with the retire immediate",
		    "errno %d", errno);
	m.buf = (uintptr_t)buf;
	m.len = sizeof(buf);
	r = ioc_dgram_batch(rfd, RDMACHAN_IOC_DGRAM_RECV, &m, 1, 0, 5000);
	info(rfd, &i);
	ktap_result(r == 1 && !m.len && (m.flags & RDMACHAN_DGRAM_MSG_IMM) &&
		    ntohl(m.imm) == RETIRE_IMM && i.retired == i0.retired &&
		    i.buffers == i0.buffers,
		    "it is delivered as any datagram and takes no buffer",
		    "recv %d len %u imm %#x, retired %llu -> %llu, buffers %u -> %u",
		    r, m.len, ntohl(m.imm), (unsigned long long)i0.retired,
		    (unsigned long long)i.retired, i0.buffers, i.buffers);
}

int main(void)
{
	int rfd, sfd;
	long old;

	ktap_header();
	ctl = ctl_open();
	old = module_param(PARAM);
	if (old < 0 || module_param_set(PARAM, 0) || open_pair(&rfd, &sfd)) {
		ktap_result(0, "two endpoints open, the sender resolves the receiver",
			    "param %ld, errno %d", old, errno);
		return ktap_plan(1);
	}
	idle_checks(rfd, sfd);
	use_checks(rfd, sfd);
	spoof_checks(rfd, sfd);
	close(sfd);
	close(rfd);
	ktap_result(!module_param_set(PARAM, old), "shrink_idle_ms is put back", "errno %d",
		    errno);
	return ktap_plan(ktap_failures() ? 1 : 0);
}
