// SPDX-License-Identifier: GPL-2.0-only
/*
 * chan_test_conc.c: several threads on one channel: user buffers that
 * fault among other senders' messages (efault), and writers and readers
 * of every kind at once (concurrent).
 */
#define _GNU_SOURCE
#include "chan_test.h"

/*
 * efault: a message whose user buffer faults is not sent and nothing
 * takes its place - alone, and while another thread's sends follow it in
 * the send ring (its slot then goes out as a PAD message).  Every
 * message carries its sender's tag and index; the reader checks that
 * none is missing, repeated, reordered or empty, and that afterwards
 * the sender's credits plus the receiver's owed credits make the depth.
 */
#define EFAULT_ROUNDS	3000
#define EFAULT_BAD_PTR	((uintptr_t)8)

/* volatile: the compiler must not see that it points nowhere */
static void *volatile efault_bad_ptr = (void *)EFAULT_BAD_PTR;

struct efault_sender {
	int fd;
	int bad;			/* sends batches with a faulting message */
	unsigned long sent;
	unsigned long partial;		/* batches that stopped at the fault */
	int err;
};

static unsigned int efault_msg(unsigned char *b, uint32_t tag, uint32_t i)
{
	unsigned int len = 16 + i % 48;

	memcpy(b, &tag, 4);
	memcpy(b + 4, &i, 4);
	fill(b + 8, len - 8, i ^ tag);
	return len;
}

static void *efault_send(void *arg)
{
	struct efault_sender *c = arg;
	unsigned char b0[64], b2[64];
	uint32_t tag = c->bad ? 0xbad0 : 0x600d;
	int i;

	for (i = 0; i < EFAULT_ROUNDS; i++) {
		struct rdmachan_user_msg m[3] = {};
		struct rdmachan_mmsg mm = {
			.size = sizeof(mm), .msgs = (uintptr_t)m,
		};

		m[0].buf = (uintptr_t)b0;
		m[0].len = efault_msg(b0, tag, c->sent);
		mm.count = 1;
		if (c->bad) {
			m[1].buf = EFAULT_BAD_PTR;
			m[1].len = 16;
			m[2].buf = (uintptr_t)b2;
			m[2].len = efault_msg(b2, tag, c->sent + 1);
			mm.count = 3;
		}
		if (ioctl(c->fd, RDMACHAN_IOC_SENDMMSG, &mm) < 0) {
			c->err = errno;
			break;
		}
		c->sent += mm.done;
		if (c->bad && mm.done == 1)
			c->partial++;
		if (mm.done != 1) {
			c->err = EPROTO;
			break;
		}
	}
	return NULL;
}

/* Read everything; check tags, order and contents.  Returns messages read. */
static unsigned long efault_read_all(int fd, unsigned long *per_tag, int *bad)
{
	unsigned char in[128], want[64];
	unsigned long n = 0;
	struct pollfd pfd = { .fd = fd, .events = POLLIN };

	for (;;) {
		uint32_t tag, i;
		unsigned int wlen;
		ssize_t r;
		int slot;

		r = read(fd, in, sizeof(in));
		if (r < 0 && errno == EAGAIN) {
			if (poll(&pfd, 1, 3000) <= 0)
				return n;
			continue;
		}
		if (r < 16) {
			ktap_result(0, "every message read is a whole message",
			       "read %zd (%s) after %lu messages", r,
			       strerror(errno), n);
			*bad = 1;
			return n;
		}
		memcpy(&tag, in, 4);
		memcpy(&i, in + 4, 4);
		slot = tag == 0xbad0 ? 0 : tag == 0x600d ? 1 : -1;
		wlen = slot < 0 ? 0 : efault_msg(want, tag, i);
		if (slot < 0 || i != per_tag[slot] || r != (ssize_t)wlen ||
		    memcmp(in, want, wlen)) {
			if (!*bad)
				ktap_result(0, "messages arrive whole and in order",
				       "message %lu: tag %#x index %u len %zd, expected index %lu",
				       n, tag, i, r,
				       slot < 0 ? 0 : per_tag[slot]);
			*bad = 1;
		}
		if (slot >= 0)
			per_tag[slot] = i + 1;
		n++;
	}
}

/*
 * The sender's credits and those the receiver owes make what the receiver
 * granted (at most @depth: the grant follows use, module/chan/chan_grant.c),
 * once the credit messages and grants under way have landed (within 2 s)
 */
static int efault_credits_add_up(struct chan_pair *p, unsigned int depth)
{
	struct rdmachan_chan_info ci, si;
	unsigned long granted;
	char buf[32];
	int i;

	for (i = 0; i < 20; i++) {
		if (ioc_chan_info(p->cli, &ci) || ioc_chan_info(p->srv, &si))
			return 0;
		granted = strtoul(sysfs_attr(p->srv, "credits_granted", buf,
					     sizeof(buf)), NULL, 0);
		if (ci.state != RDMACHAN_STATE_CONNECTED ||
		    si.state != RDMACHAN_STATE_CONNECTED || granted > depth)
			return 0;
		if (ci.send_credits + si.credits_to_return == granted)
			return 1;
		usleep(100 * 1000);
	}
	return 0;
}

int cmd_efault(SUBCMD_ARGS)
{
	struct rdmachan_chan_opts opts = { .queue_depth = 32 };
	struct efault_sender bad = { .bad = 1 }, good = {};
	unsigned long per_tag[2] = {}, got;
	struct rdmachan_chan_info ci;
	pthread_t tb, tg;
	struct chan_pair p;
	int flags, broken = 0, r;
	unsigned int before;
	char buf[64];

	if (pair_open(&p, &opts))
		return 1;
	flags = fcntl(p.srv, F_GETFL);
	fcntl(p.srv, F_SETFL, flags | O_NONBLOCK);

	/* alone: nothing is sent, the reservation is given back */
	ioc_chan_info(p.cli, &ci);
	before = ci.send_credits;
	r = write(p.cli, efault_bad_ptr, 16);
	ktap_result(r < 0 && errno == EFAULT, "a write from a bad pointer fails with EFAULT",
	       "write %d (%s)", r, strerror(errno));
	usleep(200000);
	r = read(p.srv, buf, sizeof(buf));
	ktap_result(r < 0 && errno == EAGAIN, "nothing arrives for the faulting write",
	       "read %d (%s)", r, strerror(errno));
	ktap_result(!ioc_chan_info(p.cli, &ci) && ci.send_credits == before,
	       "the faulting write took no credit", "%u of %u credits",
	       ci.send_credits, before);

	/* two senders; one's batches fault in the middle */
	bad.fd = good.fd = p.cli;
	pthread_create(&tb, NULL, efault_send, &bad);
	pthread_create(&tg, NULL, efault_send, &good);
	got = efault_read_all(p.srv, per_tag, &broken);
	pthread_join(tb, NULL);
	pthread_join(tg, NULL);
	got += efault_read_all(p.srv, per_tag, &broken);

	ktap_result(!bad.err && bad.partial == EFAULT_ROUNDS,
	       "every faulting batch sends the messages before the fault only",
	       "%lu of %d partial (%s)", bad.partial, EFAULT_ROUNDS,
	       strerror(bad.err));
	ktap_result(!good.err && good.sent == EFAULT_ROUNDS,
	       "the other sender's messages all go out", "%lu sent (%s)",
	       good.sent, strerror(good.err));
	ktap_result(!broken && per_tag[0] == bad.sent && per_tag[1] == good.sent &&
	       got == bad.sent + good.sent,
	       "every message sent arrives once, in order, intact, and nothing else",
	       "read %lu; faulting sender %lu sent, %lu read; other %lu sent, %lu read",
	       got, bad.sent, per_tag[0], good.sent, per_tag[1]);
	ktap_result(efault_credits_add_up(&p, ci.queue_depth),
	       "no credit was created or lost: sender's plus receiver's owed make the grant",
	       "see CHAN_INFO");
	r = write(p.cli, "after", 5);
	usleep(100000);
	memset(buf, 0, sizeof(buf));
	ktap_result(r == 5 && read(p.srv, buf, sizeof(buf)) == 5 && !memcmp(buf, "after", 5),
	       "the channel still works afterwards", "write %d, read '%s'", r, buf);
	chan_pair_close(&p);
	return ktap_failures() ? 1 : 0;
}

/* ---- concurrent consumers ------------------------------------------- */

/*
 * Every kind of writer on the client fd and every kind of reader on the
 * server fd at once.  Writers tag their messages (kind, index) and fill
 * them from the tag; the BENCH blast's are 8 bytes of 0xa5; the BENCH
 * sink counts what it takes without looking.  Once the writers are done
 * and everything was consumed, the counts must add up, no message may
 * have come twice, and the credits must add up to the depth.  (The BENCH
 * receive path once bypassed the readers' lock: a message was handed to
 * two readers and its buffer reposted twice.)
 */
#define CC_KINDS	3	/* write, SEND, SENDMMSG */
#define CC_BLAST_SIZE	8

struct cc_state {
	struct chan_pair p;
	unsigned long per_kind;
	unsigned char *seen[CC_KINDS];	/* one byte per message: times read */
	pthread_mutex_t lock;
	unsigned long consumed;		/* by the readers and the sink */
	unsigned long blast_read;	/* blast messages the readers got */
	unsigned long dups, corrupt;
	unsigned long sent[CC_KINDS + 1];
	int werr[CC_KINDS + 1];
	int rerr[4];
	unsigned long got[4];
};

struct cc_thread {
	struct cc_state *st;
	int kind;
};

static unsigned int cc_msg(unsigned char *b, uint32_t kind, uint32_t i)
{
	unsigned int len = 16 + (i * 7 + kind) % 240;

	memcpy(b, &kind, 4);
	memcpy(b + 4, &i, 4);
	fill(b + 8, len - 8, kind * 1000003 + i);
	return len;
}

static void *cc_writer(void *arg)
{
	struct cc_thread *t = arg;
	struct cc_state *st = t->st;
	unsigned char b[4][256];
	unsigned long i = 0;

	while (i < st->per_kind) {
		struct rdmachan_user_msg m[4] = {};
		struct rdmachan_mmsg mm = {
			.size = sizeof(mm), .msgs = (uintptr_t)m, .count = 1,
		};
		unsigned int k, n = t->kind == 2 ? 4 : 1;
		ssize_t r;

		if (n > st->per_kind - i)
			n = st->per_kind - i;
		for (k = 0; k < n; k++) {
			m[k].buf = (uintptr_t)b[k];
			m[k].len = cc_msg(b[k], t->kind, i + k);
		}
		switch (t->kind) {
		case 0:
			r = write(st->p.cli, b[0], m[0].len);
			r = r == (ssize_t)m[0].len ? 1 : -1;
			break;
		case 1:
			r = ioctl(st->p.cli, RDMACHAN_IOC_SEND, &mm) < 0 ? -1 : (ssize_t)mm.done;
			break;
		default:
			mm.count = n;
			r = ioctl(st->p.cli, RDMACHAN_IOC_SENDMMSG, &mm) < 0 ? -1 : (ssize_t)mm.done;
			break;
		}
		if (r <= 0) {
			st->werr[t->kind] = r < 0 ? errno : EPROTO;
			break;
		}
		i += r;
	}
	st->sent[t->kind] = i;
	return NULL;
}

static void *cc_blaster(void *arg)
{
	struct cc_state *st = arg;
	struct rdmachan_bench b = {
		.size = sizeof(b), .mode = RDMACHAN_BENCH_BLAST,
		.msg_size = CC_BLAST_SIZE, .count = st->per_kind, .batch = 4,
	};

	if (ioctl(st->p.cli, RDMACHAN_IOC_BENCH, &b) < 0)
		st->werr[CC_KINDS] = errno;
	st->sent[CC_KINDS] = b.msgs;
	return NULL;
}

/* One message a reader got: check it and mark it seen. */
static void cc_got(struct cc_state *st, const unsigned char *b, size_t len)
{
	unsigned char want[256];
	uint32_t kind, i;
	size_t k;

	pthread_mutex_lock(&st->lock);
	st->consumed++;
	if (len == CC_BLAST_SIZE) {
		for (k = 0; k < len && b[k] == 0xa5; k++)
			;
		if (k == len)
			st->blast_read++;
		else
			st->corrupt++;
	} else if (len < 16) {
		st->corrupt++;
	} else {
		memcpy(&kind, b, 4);
		memcpy(&i, b + 4, 4);
		if (kind >= CC_KINDS || i >= st->per_kind ||
		    cc_msg(want, kind, i) != len || memcmp(b, want, len))
			st->corrupt++;
		else if (st->seen[kind][i]++)
			st->dups++;
	}
	pthread_mutex_unlock(&st->lock);
}

static void *cc_reader(void *arg)
{
	struct cc_thread *t = arg;
	struct cc_state *st = t->st;
	unsigned char b[8][512];
	int fd = st->p.srv;

	for (;;) {
		struct rdmachan_user_msg m[8] = {};
		struct rdmachan_mmsg mm = {
			.size = sizeof(mm), .msgs = (uintptr_t)m, .count = 1,
		};
		unsigned int k;
		ssize_t r;

		for (k = 0; k < 8; k++) {
			m[k].buf = (uintptr_t)b[k];
			m[k].len = sizeof(b[k]);
		}
		switch (t->kind) {
		case 0:
			r = read(fd, b[0], sizeof(b[0]));
			if (r > 0) {
				m[0].len = r;
				r = 1;
			}
			break;
		case 1:
			r = ioctl(fd, RDMACHAN_IOC_RECV, &mm) < 0 ? -1 : (ssize_t)mm.done;
			break;
		default:
			mm.count = 8;
			r = ioctl(fd, RDMACHAN_IOC_RECVMMSG, &mm) < 0 ? -1 : (ssize_t)mm.done;
			break;
		}
		if (r < 0)
			st->rerr[t->kind] = errno;
		if (r <= 0)
			break;		/* 0: the orderly end */
		for (k = 0; k < r; k++)
			cc_got(st, b[k], m[k].len);
		st->got[t->kind] += r;
	}
	return NULL;
}

static void *cc_sink(void *arg)
{
	struct cc_state *st = arg;
	struct rdmachan_chan_info ci;

	for (;;) {
		struct rdmachan_bench b = {
			.size = sizeof(b), .mode = RDMACHAN_BENCH_SINK,
			.duration_ms = 20,
		};

		if (ioctl(st->p.srv, RDMACHAN_IOC_BENCH, &b) < 0) {
			st->rerr[3] = errno;
			break;
		}
		pthread_mutex_lock(&st->lock);
		st->consumed += b.msgs;
		pthread_mutex_unlock(&st->lock);
		st->got[3] += b.msgs;
		if (!b.msgs && (ioc_chan_info(st->p.srv, &ci) ||
				ci.state != RDMACHAN_STATE_CONNECTED))
			break;
	}
	return NULL;
}

int cmd_concurrent(SUBCMD_ARGS)
{
	long per_kind = argc > 1 ? atol(argv[1]) : 3000;
	const char *mode = argc > 2 ? argv[2] : NULL;
	struct rdmachan_chan_opts opts = { .queue_depth = 16 };
	pthread_t wt[CC_KINDS + 1], rt[4];
	struct cc_thread wa[CC_KINDS], ra[3];
	struct rdmachan_chan_info ci;
	static struct cc_state st;
	unsigned long total = 0, seen_once = 0, i;
	double deadline;
	int k, credits_ok;

	if (mode && !strcmp(mode, "workqueue"))
		opts.poll_mode = RDMACHAN_POLL_MODE_WORKQUEUE;
	else if (mode && !strcmp(mode, "direct"))
		opts.poll_mode = RDMACHAN_POLL_MODE_DIRECT;
	st.per_kind = per_kind;
	pthread_mutex_init(&st.lock, NULL);
	for (k = 0; k < CC_KINDS; k++)
		st.seen[k] = calloc(per_kind, 1);
	if (pair_open(&st.p, &opts))
		return 1;

	for (k = 0; k < 3; k++) {
		ra[k] = (struct cc_thread){ .st = &st, .kind = k };
		pthread_create(&rt[k], NULL, cc_reader, &ra[k]);
	}
	pthread_create(&rt[3], NULL, cc_sink, &st);
	for (k = 0; k < CC_KINDS; k++) {
		wa[k] = (struct cc_thread){ .st = &st, .kind = k };
		pthread_create(&wt[k], NULL, cc_writer, &wa[k]);
	}
	pthread_create(&wt[CC_KINDS], NULL, cc_blaster, &st);
	for (k = 0; k <= CC_KINDS; k++) {
		pthread_join(wt[k], NULL);
		total += st.sent[k];
	}
	ktap_result(!st.werr[0] && !st.werr[1] && !st.werr[2] && !st.werr[3] &&
	       st.sent[0] == (unsigned long)per_kind &&
	       st.sent[1] == (unsigned long)per_kind &&
	       st.sent[2] == (unsigned long)per_kind &&
	       st.sent[3] == (unsigned long)per_kind,
	       "concurrent writers of every kind send everything",
	       "write %lu (%s), SEND %lu (%s), SENDMMSG %lu (%s), BENCH %lu (%s) of %ld",
	       st.sent[0], strerror(st.werr[0]), st.sent[1],
	       strerror(st.werr[1]), st.sent[2], strerror(st.werr[2]),
	       st.sent[3], strerror(st.werr[3]), per_kind);

	/*
	 * wait until the readers consumed everything sent: the sink's runs
	 * of 20 ms end on time even when no message comes (a run that
	 * waited for the next message kept what it had counted until the
	 * close)
	 */
	deadline = now() + 60;
	for (;;) {
		unsigned long c;

		pthread_mutex_lock(&st.lock);
		c = st.consumed;
		pthread_mutex_unlock(&st.lock);
		if (c >= total || now() > deadline) {
			ioc_chan_info(st.p.srv, &ci);
			ktap_result(c >= total,
			       "the readers (a timed BENCH sink among them) account for every message while the channel is open",
			       "consumed %lu of %lu; rx_queued %u; read %lu RECV %lu RECVMMSG %lu sink %lu",
			       c, total, ci.rx_queued, st.got[0], st.got[1],
			       st.got[2], st.got[3]);
			break;
		}
		usleep(20000);
	}
	usleep(200000);		/* let the last credit returns land */
	{
		/* busy-polled ends see their completions only when polled */
		struct pollfd pf[2] = {
			{ .fd = st.p.cli, .events = POLLOUT },
			{ .fd = st.p.srv, .events = POLLOUT },
		};

		poll(pf, 2, 0);
	}
	credits_ok = efault_credits_add_up(&st.p, opts.queue_depth);
	ktap_result(!ioc_chan_info(st.p.srv, &ci) && ci.rx_queued == 0 && credits_ok,
	       "no credit is created or lost, nothing left queued",
	       "rx_queued %u, credits add up %d", ci.rx_queued, credits_ok);

	/* the orderly end stops every reader */
	close(st.p.cli);
	st.p.cli = -1;
	for (k = 0; k < 4; k++)
		pthread_join(rt[k], NULL);
	for (k = 0; k < CC_KINDS; k++)
		for (i = 0; i < (unsigned long)per_kind; i++)
			seen_once += st.seen[k][i] >= 1;
	ktap_result(!st.rerr[0] && !st.rerr[1] && !st.rerr[2] && !st.rerr[3],
	       "concurrent readers of every kind end cleanly at the orderly close",
	       "read %s, RECV %s, RECVMMSG %s, BENCH %s", strerror(st.rerr[0]),
	       strerror(st.rerr[1]), strerror(st.rerr[2]), strerror(st.rerr[3]));
	ktap_result(st.got[0] && st.got[1] && st.got[2] && st.got[3],
	       "every kind of reader took messages",
	       "read %lu, RECV %lu, RECVMMSG %lu, BENCH %lu", st.got[0],
	       st.got[1], st.got[2], st.got[3]);
	ktap_result(!st.dups && !st.corrupt && st.consumed == total &&
	       seen_once + st.blast_read + st.got[3] == total,
	       "every message arrives once and intact, and nothing else",
	       "sent %lu, consumed %lu (sink %lu), distinct %lu, blast read %lu, duplicates %lu, corrupt %lu",
	       total, st.consumed, st.got[3], seen_once, st.blast_read,
	       st.dups, st.corrupt);
	chan_pair_close(&st.p);
	return ktap_failures() ? 1 : 0;
}
