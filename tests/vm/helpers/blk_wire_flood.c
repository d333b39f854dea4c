// SPDX-License-Identifier: GPL-2.0-only
/*
 * blk_wire_flood.c: blk_wire's floods: DISCARDs past the slow export's
 * slots and waiting list (flood), and a session that never receives
 * while its refusals pile up (reject_flood, -F).  See blk_wire.c.
 */
#include "blk_wire.h"

#define FLOOD_N 400
#define FLOOD_FIRST_MS 2000	/* the device takes 150 ms a request, 4 at a time */

static long long now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1000LL + ts.tv_nsec / 1000000;
}

/*
 * flood: FLOOD_N DISCARDs sent as fast as credits let them go, the
 * replies taken as they come (a client that stops receiving would leave
 * the server's refusals without room).  With every request on a slow
 * device, queue-depth of them hold the slots and as many more wait; the
 * rest must come back RESOURCE at once, and the others OK as the device
 * completes them: the first within FLOOD_FIRST_MS of the last send, not
 * after the server's submissions that wait for the device's few tags.
 */
void flood(const char *name)
{
	static uint8_t seen[FLOOD_N];
	unsigned int imm, n_ok = 0, n_res = 0, n_bad = 0, got = 0, sent = 0;
	long long t_sent = 0, t_ok = 0;
	struct sess f = { .fd = -1 };
	uint16_t first;
	struct wire_io io;
	char buf[4096];
	int r, has_imm;

	if (sess_open(&f, name, 0)) {
		ktap_result(0, "OPEN of the slow export: OK", "no session");
		return;
	}
	ktap_result(1, "OPEN of the slow export: OK", "-");
	first = next_tag;
	while (got < FLOOD_N) {
		if (sent < FLOOD_N) {
			io_fill(&io, OP_DISCARD, 8 * (sent % 64), f.lbs, DATA_NONE);
			if (send_msg(f.fd, &io, sizeof(io), NULL, 0)) {
				ktap_diag("flood: send %u: %s", sent, strerror(errno));
				break;
			}
			if (++sent == FLOOD_N)
				t_sent = now_ms();
			r = recv_one(f.fd, buf, sizeof(buf), &imm, &has_imm);
		} else {
			r = recv_msg(f.fd, buf, sizeof(buf), &imm, &has_imm);
		}
		if (r < 0) {
			if (errno == EAGAIN)
				continue;
			ktap_diag("flood: after %u sent, %u replies: %s", sent, got,
				  strerror(errno));
			break;
		}
		got++;
		if (r || !has_imm || (uint16_t)((imm >> 16) - first) >= FLOOD_N ||
		    seen[(uint16_t)((imm >> 16) - first)]++) {
			n_bad++;
			continue;
		}
		if ((imm & 0xff) == S_OK) {
			if (!n_ok++)
				t_ok = now_ms();
		} else if ((imm & 0xff) == S_RESOURCE) {
			n_res++;
		} else {
			n_bad++;
		}
	}
	ktap_diag("flood of %u DISCARDs: %u OK, %u RESOURCE, %u other", FLOOD_N, n_ok, n_res,
		  n_bad);
	ktap_result(got == FLOOD_N && !n_bad,
		    "every request of a flood answered once, each OK or RESOURCE",
		    "%u of %u answered, %u otherwise", got, FLOOD_N, n_bad);
	ktap_result(n_res > 0 && n_ok > 0,
		    "a flood past the slots and the waiting list: some served, the rest RESOURCE",
		    "%u OK, %u RESOURCE", n_ok, n_res);
	if (n_ok && t_sent)
		ktap_diag("flood: the first OK %lld ms after the last send", t_ok - t_sent);
	ktap_result(n_ok && t_sent && t_ok - t_sent < FLOOD_FIRST_MS,
		    "the flood's first OK came within 2 s: replies do not wait behind submissions",
		    "%lld ms after the last send", n_ok && t_sent ? t_ok - t_sent : -1LL);
	io_fill(&io, OP_DISCARD, 0, f.lbs, DATA_NONE);
	check_io(&f, "the flooded channel still serves a DISCARD", &io, sizeof(io), NULL, 0,
		 S_OK, -1);
	close(f.fd);
}

#define RFLOOD_MS 30000

/* send @io without waiting: 0, or -1 with errno (EAGAIN: no credit) */
static int send_nowait(int fd, const struct wire_io *io)
{
	struct rdmachan_user_msg m = { .buf = (uintptr_t)io, .len = sizeof(*io) };
	struct rdmachan_mmsg mm = {
		.size = sizeof(mm), .msgs = (uintptr_t)&m, .count = 1,
		.flags = RDMACHAN_MSG_DONTWAIT,
	};

	return ioctl(fd, RDMACHAN_IOC_SEND, &mm) < 0 ? -1 : 0;
}

/* reject_flood: see -F at the top */
void reject_flood(const char *name, int rounds)
{
	struct sess f = { .fd = -1 };
	struct pollfd p;
	struct wire_io io;
	unsigned int sent;
	long long t0;
	int r, err;

	for (r = 1; r <= rounds; r++) {
		if (sess_open(&f, name, 0)) {
			ktap_result(0, "refusal flood: OPEN", "round %d: no session", r);
			return;
		}
		t0 = now_ms();
		sent = 0;
		err = 0;
		while (now_ms() - t0 < RFLOOD_MS) {
			/* a READ of 0 bytes: INVAL */
			io_fill(&io, OP_READ, 0, 0, DATA_NONE);
			if (!send_nowait(f.fd, &io)) {
				sent++;
				continue;
			}
			if (errno != EAGAIN) {
				err = errno;
				break;
			}
			p.fd = f.fd;
			p.events = POLLOUT;
			poll(&p, 1, 100);
		}
		ktap_diag("refusal flood round %d: %u requests sent in %lld ms, then %s", r, sent,
			  now_ms() - t0, err ? strerror(err) : "the time was up");
		ktap_result(err && sent,
			    "refusal flood: the server closes a channel whose refusals find no room",
			    "round %d: %u sent, the channel still open after %d ms", r, sent,
			    RFLOOD_MS);
		close(f.fd);
		f.fd = -1;
	}
}
