// SPDX-License-Identifier: GPL-2.0-only
/*
 * listen_test: what a listener may be made to hold, and what it says when
 * its device goes away.  The listener binds 192.0.2.1 ($DEV0); clients
 * connect from 192.0.2.2 ($DEV1).  Reports its checks in KTAP (ktap.h)
 * for the guest test library's run_checks.
 *
 *   listen_test flood      connect requests far beyond the listener's
 *                          budget: half-open ones (raw rdma_cm through
 *                          /dev/infiniband/rdma_cm: the REP is never
 *                          answered) and completed ones never accepted.
 *                          The listener's memory stays within its budget,
 *                          the excess is refused with reason BUSY
 *                          (ENOBUFS), half-open ones are dropped after
 *                          the listener's timeout, and a normal
 *                          connect + accept + message works meanwhile.
 *                          Expects listen_budget_kb and
 *                          listen_max_connecting set small by the script.
 *   listen_test devremove  "rdma link delete $DEV0" under a listener on
 *                          192.0.2.1: poll() and epoll wake with
 *                          POLLERR within a bound, accept says ENODEV.
 */
#define _GNU_SOURCE
#include <glob.h>
#include <poll.h>
#include <pthread.h>
#include <signal.h>
#include <stdint.h>
#include <sys/epoll.h>
#include <time.h>

#include <rdma/rdma_user_cm.h>

#include "chanlib.h"
#include "subcmd.h"

#define SRV_IP	CHAN_SRV_IP
#define CLI_IP	CHAN_CLI_IP

/* enum rdma_cm_event_type (include/rdma/rdma_cm.h, not in the uapi) */
enum {
	EV_ADDR_RESOLVED	= 0,
	EV_ROUTE_RESOLVED	= 2,
	EV_CONNECT_RESPONSE	= 5,
	EV_REJECTED		= 8,
	EV_ESTABLISHED		= 9,
};

/* The rdmachan wire protocol (Documentation/protocol.rst) */
#define WIRE_MAGIC	0x52434831
#define WIRE_VERSION	3
#define REJ_BUSY	7

/* ---- sysfs and /proc --------------------------------------------------- */

/* the sysfs directory of the listener bound to @port, or "" */
static void listener_dir(int port, char *dir, size_t n)
{
	char want[32], buf[96];
	glob_t g;

	dir[0] = 0;
	snprintf(want, sizeof(want), ":%d\n", port);
	if (glob("/sys/class/rdmachan/listener*/src_addr", 0, NULL, &g))
		return;
	for (size_t i = 0; i < g.gl_pathc; i++) {
		FILE *f = fopen(g.gl_pathv[i], "r");

		if (!f)
			continue;
		if (fgets(buf, sizeof(buf), f) && strlen(buf) >= strlen(want) &&
		    !strcmp(buf + strlen(buf) - strlen(want), want)) {
			snprintf(dir, n, "%.*s", (int)(strrchr(g.gl_pathv[i], '/') -
						      g.gl_pathv[i]), g.gl_pathv[i]);
		}
		fclose(f);
	}
	globfree(&g);
}

static int read_line(const char *path, char *buf, size_t n)
{
	FILE *f = fopen(path, "r");

	buf[0] = 0;
	if (!f)
		return -1;
	if (!fgets(buf, n, f))
		buf[0] = 0;
	fclose(f);
	buf[strcspn(buf, "\n")] = 0;
	return 0;
}

/* attribute @name of the listener directory @dir as a number, -1 if none */
static long long lattr(const char *dir, const char *name)
{
	char path[160], buf[64];

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	if (read_line(path, buf, sizeof(buf)) || !buf[0])
		return -1;
	return strtoll(buf, NULL, 0);
}

static long long meminfo(const char *key)
{
	char line[128];
	long long v = -1;
	size_t n = strlen(key);
	FILE *f = fopen("/proc/meminfo", "r");

	if (!f)
		return -1;
	while (fgets(line, sizeof(line), f))
		if (!strncmp(line, key, n) && line[n] == ':') {
			v = strtoll(line + n + 1, NULL, 10) * 1024;
			break;
		}
	fclose(f);
	return v;
}

/*
 * The sampler: while a flood runs, the listener's counters and the
 * machine's memory every 20 ms, keeping the extremes.
 */
struct sampler {
	pthread_t th;
	volatile int stop;
	char dir[128];
	long long max_connecting, max_mem_pending, min_avail, max_slab;
	unsigned long samples;
};

static void *sampler_run(void *arg)
{
	struct sampler *s = arg;

	while (!s->stop) {
		long long c = lattr(s->dir, "connecting");
		long long m = lattr(s->dir, "mem_pending");
		long long a = meminfo("MemAvailable");
		long long sl = meminfo("Slab");

		if (c > s->max_connecting)
			s->max_connecting = c;
		if (m > s->max_mem_pending)
			s->max_mem_pending = m;
		if (a >= 0 && (s->min_avail < 0 || a < s->min_avail))
			s->min_avail = a;
		if (sl > s->max_slab)
			s->max_slab = sl;
		s->samples++;
		usleep(20000);
	}
	return NULL;
}

/* ---- a raw rdma_cm client (no librdmacm in the build) ------------------ */

static int ucm_write(int fd, uint32_t cmd, void *arg, uint16_t in,
		     uint16_t out)
{
	char buf[sizeof(struct rdma_ucm_cmd_hdr) + 512];
	struct rdma_ucm_cmd_hdr *h = (void *)buf;

	h->cmd = cmd;
	h->in = in;
	h->out = out;
	memcpy(buf + sizeof(*h), arg, in);
	return write(fd, buf, sizeof(*h) + in) == (ssize_t)(sizeof(*h) + in) ?
	       0 : -1;
}

static int ucm_create_id(int fd, uint64_t uid, uint32_t *id)
{
	struct rdma_ucm_create_id_resp resp = {};
	struct rdma_ucm_create_id c = {
		.uid = uid, .response = (uintptr_t)&resp,
		.ps = RDMA_PS_TCP, .qp_type = 2 /* IB_QPT_RC */,
	};

	if (ucm_write(fd, RDMA_USER_CM_CMD_CREATE_ID, &c, sizeof(c),
		      sizeof(resp)))
		return -1;
	*id = resp.id;
	return 0;
}

static int ucm_resolve_addr(int fd, uint32_t id, int port)
{
	struct rdma_ucm_resolve_addr r = {
		.id = id, .timeout_ms = 5000,
		.src_size = sizeof(struct sockaddr_in),
		.dst_size = sizeof(struct sockaddr_in),
	};

	set_in4(&r.src_addr, CLI_IP, 0);
	set_in4(&r.dst_addr, SRV_IP, port);
	return ucm_write(fd, RDMA_USER_CM_CMD_RESOLVE_ADDR, &r, sizeof(r), 0);
}

static int ucm_resolve_route(int fd, uint32_t id)
{
	struct rdma_ucm_resolve_route r = { .id = id, .timeout_ms = 5000 };

	return ucm_write(fd, RDMA_USER_CM_CMD_RESOLVE_ROUTE, &r, sizeof(r), 0);
}

/* connect without a QP: the REP comes back as CONNECT_RESPONSE, and
 * nothing answers it, so the connection is never established */
static int ucm_connect(int fd, uint32_t id, uint32_t depth, uint32_t msg)
{
	struct rdma_ucm_connect c;
	unsigned char *pd = c.conn_param.private_data;
	uint32_t v;
	uint16_t s;

	memset(&c, 0, sizeof(c));
	c.id = id;
	c.conn_param.qp_num = 0x1234 + id;
	c.conn_param.responder_resources = 1;
	c.conn_param.initiator_depth = 1;
	c.conn_param.retry_count = 6;
	c.conn_param.rnr_retry_count = 7;
	c.conn_param.valid = 1;
	c.conn_param.private_data_len = 32;
	v = htonl(WIRE_MAGIC);
	memcpy(pd, &v, 4);
	s = htons(WIRE_VERSION);
	memcpy(pd + 4, &s, 2);
	v = htonl(depth);
	memcpy(pd + 8, &v, 4);
	v = htonl(msg);
	memcpy(pd + 12, &v, 4);
	return ucm_write(fd, RDMA_USER_CM_CMD_CONNECT, &c, sizeof(c), 0);
}

static int ucm_get_event(int fd, struct rdma_ucm_event_resp *ev)
{
	struct rdma_ucm_get_event g = { .response = (uintptr_t)ev };

	memset(ev, 0, sizeof(*ev));
	return ucm_write(fd, RDMA_USER_CM_CMD_GET_EVENT, &g, sizeof(g),
			 sizeof(*ev));
}

/* the reason of an rdmachan rejection, -1 if it is none */
static int rej_reason(const struct rdma_ucm_event_resp *ev)
{
	const unsigned char *pd = ev->param.conn.private_data;
	uint32_t magic;
	uint16_t reason;

	memcpy(&magic, pd, 4);
	if (ntohl(magic) != WIRE_MAGIC)
		return -1;
	memcpy(&reason, pd + 6, 2);
	return ntohs(reason);
}

struct half_open {
	int fd;			/* /dev/infiniband/rdma_cm */
	unsigned int n;
	uint32_t *ids;
	int *state;		/* 0 resolving, 1 routing, 2 connecting, 3 done */
	unsigned int responses, busy, other;
};

/*
 * Send @n connect requests, all in flight together, and collect their
 * answers: a REP (CONNECT_RESPONSE, left unanswered) or a rejection.
 */
static int half_open_flood(struct half_open *h, unsigned int n, int port,
			   uint32_t depth, uint32_t msg)
{
	struct rdma_ucm_event_resp ev;
	unsigned int ended = 0;
	double deadline = now() + 60;

	memset(h, 0, sizeof(*h));
	h->fd = open("/dev/infiniband/rdma_cm", O_RDWR | O_CLOEXEC);
	if (h->fd < 0) {
		ktap_diag("open /dev/infiniband/rdma_cm: %s", strerror(errno));
		return -1;
	}
	h->n = n;
	h->ids = calloc(n, sizeof(*h->ids));
	h->state = calloc(n, sizeof(*h->state));
	for (unsigned int i = 0; i < n; i++)
		/* uid 0 would be ignored: ucma reports no event for it */
		if (ucm_create_id(h->fd, i + 1, &h->ids[i]) ||
		    ucm_resolve_addr(h->fd, h->ids[i], port)) {
			ktap_diag("rdma_cm id %u: %s", i, strerror(errno));
			return -1;
		}
	while (ended < n && now() < deadline) {
		struct pollfd p = { .fd = h->fd, .events = POLLIN };
		unsigned int i;

		if (poll(&p, 1, 1000) <= 0)
			continue;
		if (ucm_get_event(h->fd, &ev))
			return -1;
		i = ev.uid - 1;
		if (ev.uid < 1 || i >= n)
			continue;
		switch (ev.event) {
		case EV_ADDR_RESOLVED:
			h->state[i] = 1;
			if (ucm_resolve_route(h->fd, h->ids[i]))
				h->state[i] = 3;
			break;
		case EV_ROUTE_RESOLVED:
			h->state[i] = 2;
			if (ucm_connect(h->fd, h->ids[i], depth, msg))
				h->state[i] = 3;
			break;
		case EV_CONNECT_RESPONSE:
			h->responses++;
			h->state[i] = 3;
			break;
		case EV_REJECTED:
			if (h->state[i] == 3)
				break;	/* the listener gave up on our REP */
			if (rej_reason(&ev) == REJ_BUSY)
				h->busy++;
			else
				h->other++;
			h->state[i] = 3;
			break;
		default:
			if (h->state[i] != 3) {
				ktap_diag("request %u: rdma_cm event %u status %d",
				       i, ev.event, (int)ev.status);
				h->other++;
				h->state[i] = 3;
			}
			break;
		}
		ended = 0;
		for (unsigned int k = 0; k < n; k++)
			ended += h->state[k] == 3;
	}
	if (ended < n)
		for (unsigned int k = 0; k < n; k++)
			if (h->state[k] != 3)
				ktap_diag("request %u: no answer, step %d", k,
				       h->state[k]);
	return ended == n ? 0 : -1;
}

/* ---- flood --------------------------------------------------------------- */

/*
 * Send @what from @cli and read it at @srv.  @srv may be non-blocking (an
 * fd from a non-blocking accept): wait for the message, boundedly, so that
 * a read that overtakes the message is not taken for a lost one.
 */
static int send_recv_one(int cli, int srv, const char *what)
{
	struct pollfd p = { .fd = srv, .events = POLLIN };
	char buf[64];
	int r;

	if (write(cli, what, strlen(what)) != (ssize_t)strlen(what))
		return -1;
	if (poll(&p, 1, 5000) != 1)
		return -1;
	r = read(srv, buf, sizeof(buf));
	return r == (int)strlen(what) && !memcmp(buf, what, r) ? 0 : -1;
}

/* connect, retrying while the listener is busy; the fd or -1/errno */
static int connect_retry(int port, const struct rdmachan_chan_opts *o,
			 double secs, int *busy_seen)
{
	double end = now() + secs;
	int fd;

	for (;;) {
		fd = chan_connect(ctl, SRV_IP, port, CLI_IP, o, 0);
		if (fd >= 0 || errno != ENOBUFS || now() > end)
			return fd;
		(*busy_seen)++;
		usleep(100000);
	}
}

static int cmd_flood(SUBCMD_ARGS)
{
	struct rdmachan_chan_opts so = {
		.queue_depth = 64, .max_msg_size = 16384, .timeout_ms = 1500,
	};
	struct rdmachan_chan_opts co = {
		.queue_depth = 64, .max_msg_size = 16384,
	};
	unsigned int n_half = 128, n_full = 48;
	int lfd, port, cli, srv, r, busy_seen = 0;
	long long budget, maxc, avail0, slab0;
	struct sampler s = { .min_avail = -1 };
	struct half_open h, h2;
	int full[48];
	unsigned int nfull = 0, nbusy = 0, nother = 0, queued;
	double t;

	lfd = chan_listen(ctl, SRV_IP, 0, &so, 0, &port);
	ktap_result(lfd >= 0, "listener for the flood", "%s", strerror(errno));
	if (lfd < 0)
		return 1;
	listener_dir(port, s.dir, sizeof(s.dir));
	budget = lattr(s.dir, "mem_budget");
	maxc = lattr(s.dir, "max_connecting");
	ktap_result(budget > 0 && maxc > 0 && budget <= 64LL << 20 && maxc <= 8,
	       "the listener shows a small budget and connecting bound in sysfs",
	       "dir '%s' mem_budget %lld max_connecting %lld", s.dir, budget,
	       maxc);
	if (budget <= 0 || maxc <= 0)
		return 1;

	avail0 = meminfo("MemAvailable");
	slab0 = meminfo("Slab");
	pthread_create(&s.th, NULL, sampler_run, &s);

	/* 1. half-open requests, all in flight at once */
	t = now();
	r = half_open_flood(&h, n_half, port, 16384, 1 << 20);
	ktap_result(!r, "every half-open connect request is answered",
	       "responses %u busy %u other %u", h.responses, h.busy, h.other);
	if (h.fd < 0)
		return 1;
	ktap_diag("%u half-open requests in %.1f s: %u admitted, %u BUSY, %u other",
	       n_half, now() - t, h.responses, h.busy, h.other);
	ktap_result(h.responses >= 1 && h.other == 0 &&
	       h.responses + h.busy == n_half && h.busy >= n_half / 2,
	       "half-open flood: a few admitted, the excess refused with reason BUSY",
	       "admitted %u, BUSY %u, other %u of %u", h.responses, h.busy,
	       h.other, n_half);

	/* 2. a normal client gets through while those are held open */
	cli = connect_retry(port, &co, 30, &busy_seen);
	ktap_result(cli >= 0, "a normal connect succeeds while half-open requests are held",
	       "%s after %d ENOBUFS", strerror(errno), busy_seen);
	srv = cli >= 0 ? chan_accept(lfd, 0) : -1;
	ktap_result(srv >= 0 && !send_recv_one(cli, srv, "during the flood"),
	       "... and is accepted and carries a message", "accept %d: %s", srv,
	       strerror(errno));
	if (srv >= 0)
		close(srv);
	if (cli >= 0)
		close(cli);

	/* the listener drops what was never completed, by itself */
	t = now() + 20;
	while (lattr(s.dir, "connecting") > 0 && now() < t)
		usleep(100000);
	ktap_result(lattr(s.dir, "connecting") == 0 &&
	       lattr(s.dir, "timed_out") >= h.responses,
	       "half-open connections are dropped after the listener's timeout",
	       "connecting %lld timed_out %lld (admitted %u)",
	       lattr(s.dir, "connecting"), lattr(s.dir, "timed_out"),
	       h.responses);

	/*
	 * 2b. small half-open requests (depth 2, 64-byte messages): the
	 * memory would allow many, max_connecting binds
	 */
	r = half_open_flood(&h2, 64, port, 2, 64);
	ktap_diag("64 small half-open requests: %u admitted, %u BUSY, %u other",
	       h2.responses, h2.busy, h2.other);
	ktap_result(!r && h2.other == 0 && h2.responses >= maxc &&
	       h2.busy >= 64 / 2,
	       "small half-open requests: max_connecting binds, the rest BUSY",
	       "admitted %u, BUSY %u, other %u (max_connecting %lld)",
	       h2.responses, h2.busy, h2.other, maxc);
	t = now() + 20;
	while (lattr(s.dir, "connecting") > 0 && now() < t)
		usleep(100000);
	ktap_result(lattr(s.dir, "connecting") == 0,
	       "... and they are dropped after the timeout too", "connecting %lld",
	       lattr(s.dir, "connecting"));

	/* 3. completed connections nobody accepts fill the budget only */
	for (unsigned int i = 0; i < n_full; i++) {
		int fd = chan_connect(ctl, SRV_IP, port, CLI_IP, &co, 0);

		if (fd >= 0)
			full[nfull++] = fd;
		else if (errno == ENOBUFS)
			nbusy++;
		else
			nother++;
	}
	ktap_diag("%u completed requests: %u queued, %u ENOBUFS, %u other; mem_pending %lld of %lld",
	       n_full, nfull, nbusy, nother, lattr(s.dir, "mem_pending"),
	       budget);
	ktap_result(nfull >= 1 && nbusy >= 1 && nother == 0 &&
	       nfull + nbusy == n_full,
	       "unaccepted connections: the budget's worth queued, the rest fail with ENOBUFS",
	       "queued %u, ENOBUFS %u, other %u", nfull, nbusy, nother);
	ktap_result(lattr(s.dir, "mem_pending") > 0 &&
	       lattr(s.dir, "mem_pending") <= budget &&
	       lattr(s.dir, "pending") == nfull,
	       "sysfs: pending counts them, mem_pending within mem_budget",
	       "pending %lld mem_pending %lld budget %lld",
	       lattr(s.dir, "pending"), lattr(s.dir, "mem_pending"), budget);
	ktap_result(lattr(s.dir, "rejected_busy") >= h.busy + nbusy &&
	       lattr(s.dir, "rejected") >= lattr(s.dir, "rejected_busy"),
	       "sysfs counts the BUSY rejections",
	       "rejected_busy %lld rejected %lld", lattr(s.dir, "rejected_busy"),
	       lattr(s.dir, "rejected"));

	/* accepting makes room again: the listener keeps serving */
	srv = chan_accept(lfd, RDMACHAN_FD_NONBLOCK);
	queued = nfull - (srv >= 0);
	if (srv >= 0)
		close(srv);
	busy_seen = 0;
	cli = connect_retry(port, &co, 10, &busy_seen);
	ktap_result(cli >= 0, "after one accept a new connect gets in",
	       "%s", strerror(errno));
	/*
	 * FIFO: the queued ones first, then ours.  Ours is ready only once
	 * the RTU reached the passive side, which can be after connect()
	 * returned on the active side: wait for each one, boundedly.
	 */
	srv = -1;
	for (unsigned int i = 0; cli >= 0 && i <= queued; i++) {
		struct pollfd p = { .fd = lfd, .events = POLLIN };
		int fd = -1;

		if (poll(&p, 1, 5000) == 1)
			fd = chan_accept(lfd, RDMACHAN_FD_NONBLOCK);
		if (srv >= 0)
			close(srv);
		srv = fd;
		if (fd < 0)
			break;
	}
	ktap_result(srv >= 0 && cli >= 0 && !send_recv_one(cli, srv, "after the flood"),
	       "... and carries a message once accepted", "srv %d cli %d", srv,
	       cli);

	s.stop = 1;
	pthread_join(s.th, NULL);
	ktap_diag("%lu samples: connecting <= %lld, mem_pending <= %lld, MemAvailable %lld -> min %lld, Slab %lld -> max %lld",
	       s.samples, s.max_connecting, s.max_mem_pending, avail0,
	       s.min_avail, slab0, s.max_slab);
	ktap_result(s.samples > 10 && s.max_connecting <= maxc &&
	       s.max_mem_pending <= budget,
	       "throughout: connecting within max_connecting, mem_pending within the budget",
	       "connecting %lld (max %lld) mem_pending %lld (budget %lld)",
	       s.max_connecting, maxc, s.max_mem_pending, budget);
	/*
	 * Both ends are in this machine: the clients' channels cost as much
	 * as the listener's, the half-open ones nothing.  Without the
	 * budget, the 128 half-open requests alone took 128 channels of
	 * about 2.3 MiB each.
	 */
	ktap_result(avail0 - s.min_avail <= 2 * budget + (48LL << 20),
	       "memory stays bounded: MemAvailable drops by at most twice the budget + 48 MiB",
	       "dropped by %lld KiB, budget %lld KiB",
	       (avail0 - s.min_avail) >> 10, budget >> 10);

	if (srv >= 0)
		close(srv);
	if (cli >= 0)
		close(cli);
	for (unsigned int i = 0; i < nfull; i++)
		close(full[i]);
	close(h.fd);
	if (h2.fd >= 0)
		close(h2.fd);
	close(lfd);
	ktap_result(1, "everything closes", "-");
	return ktap_failures() ? 1 : 0;
}

/* ---- devremove ------------------------------------------------------------ */

struct poller {
	int fd, epoll;
	short revents;
	uint32_t events;
	double waited;
};

static void *poll_thread(void *arg)
{
	struct poller *p = arg;
	struct pollfd pfd = { .fd = p->fd, .events = POLLIN };
	double t = now();

	if (poll(&pfd, 1, 30000) > 0)
		p->revents = pfd.revents;
	p->waited = now() - t;
	return NULL;
}

static void *epoll_thread(void *arg)
{
	struct poller *p = arg;
	struct epoll_event ev = {};
	double t = now();

	if (epoll_wait(p->epoll, &ev, 1, 30000) > 0)
		p->events = ev.events;
	p->waited = now() - t;
	return NULL;
}

static int cmd_devremove(SUBCMD_ARGS)
{
	struct poller pp = {}, ep = {};
	struct epoll_event ev = { .events = EPOLLIN };
	pthread_t tp, te;
	char dir[128], cmd[96], state[32], path[160];
	int lfd, port, r;

	lfd = chan_listen(ctl, SRV_IP, 0, NULL, 0, &port);
	ktap_result(lfd >= 0, "listen on " SRV_IP, "%s", strerror(errno));
	if (lfd < 0)
		return 1;
	listener_dir(port, dir, sizeof(dir));
	pp.fd = lfd;
	ep.epoll = epoll_create1(EPOLL_CLOEXEC);
	epoll_ctl(ep.epoll, EPOLL_CTL_ADD, lfd, &ev);
	pthread_create(&tp, NULL, poll_thread, &pp);
	pthread_create(&te, NULL, epoll_thread, &ep);
	usleep(300000);
	ktap_result(!pp.revents && !ep.events, "nothing to report before the removal",
	       "revents 0x%x events 0x%x", pp.revents, ep.events);

	snprintf(cmd, sizeof(cmd), "/usr/bin/rdma link delete %s",
		 dev_name_env("DEV0", "rxe0"));
	r = system(cmd);
	ktap_result(r == 0, "rdma link delete DEV0 under the listener", "status %d", r);
	pthread_join(tp, NULL);
	pthread_join(te, NULL);
	ktap_result((pp.revents & POLLERR) && (pp.revents & POLLHUP) && pp.waited < 10,
	       "a poll() waiting on the listener wakes with POLLERR|POLLHUP",
	       "revents 0x%x after %.1f s", pp.revents, pp.waited);
	ktap_result((ep.events & EPOLLERR) && ep.waited < 10,
	       "an epoll_wait() on the listener wakes with EPOLLERR",
	       "events 0x%x after %.1f s", ep.events, ep.waited);
	errno = 0;
	r = chan_accept(lfd, 0);
	ktap_result(r < 0 && errno == ENODEV, "accept fails with ENODEV (no wait)",
	       "accept %d: %s", r, strerror(errno));
	r = chan_accept(lfd, RDMACHAN_FD_NONBLOCK);
	ktap_result(r < 0 && errno == ENODEV, "non-blocking accept too",
	       "accept %d: %s", r, strerror(errno));
	snprintf(path, sizeof(path), "%s/state", dir);
	read_line(path, state, sizeof(state));
	ktap_result(!strcmp(state, "failed") && lattr(dir, "error") == -ENODEV,
	       "sysfs: the listener is failed with -ENODEV",
	       "dir '%s' state '%s' error %lld", dir, state, lattr(dir, "error"));
	close(ep.epoll);
	close(lfd);
	ktap_result(1, "the failed listener closes", "-");
	return ktap_failures() ? 1 : 0;
}

static const struct subcmd cmds[] = {
	{ "flood", cmd_flood, NULL,
	  "connect requests far beyond the listener's budget", 0 },
	{ "devremove", cmd_devremove, NULL,
	  "rdma link delete under a listener: POLLERR, ENODEV", 0 },
	{ }
};

int main(int argc, char **argv)
{
	return subcmd_main(argc, argv, cmds, NULL);
}
