// SPDX-License-Identifier: GPL-2.0-only
/*
 * blk_evil: a hostile block server in user space, for the client's case
 * (tests/vm/cases/blk_clt.sh).  It listens on a plain rdmachan channel,
 * answers OPEN as told, then misbehaves with the requests:
 *
 *   blk_evil [-s ADDR] [-p PORT] [-q QUEUES] MODE
 *
 * MODE, after the OPEN (one connection per queue, QUEUES of them):
 *   garbage   OPEN_RSP with a bad magic: the map fails, EPROTO
 *   short     a 10-byte OPEN_RSP: EPROTO
 *   refuse    OPEN_RSP status ACCES: EACCES
 *   mismatch  each queue answers another export id: EPROTO
 *   mute      no OPEN_RSP at all (then closes after 5 s): ETIMEDOUT
 *   badtags   every request: a reply with a tag past the depth, one
 *             with the right tag and IOERR, then the same one again
 *             (no longer in flight): the request fails with EIO
 *   batch     grants RCBLK_F_REPLY_BATCH where offered; every request:
 *             a batch of 6 bytes, one of 32 replies (one too many),
 *             then one whose immediate has a tag past the depth and
 *             whose payload answers the request with IOERR twice: the
 *             request fails with EIO, the rest is bogus.  Where the
 *             feature was not offered, that last batch (bogus: a reply
 *             with a payload) and a plain reply with IOERR
 *   staged    grants RCBLK_F_READ_STAGED where offered; every READ
 *             into a staging page: its data (bytes 0xa5) written there
 *             by RDMA, then two bogus WRITE_WITH_IMMs of no data (a
 *             tag past the depth; the right tag with IOERR), then the
 *             plain OK reply; every READ into a registration of the
 *             client's (REMOTE): its data (0xa5) by one RDMA
 *             WRITE_WITH_IMM (tag, OK), the reply riding it, which the
 *             client invalidates itself; every other request IOERR
 *   silent    like badtags (without the bogus ones) until the file
 *             /tmp/blk_evil.silent exists, then no reply at all
 *   close     like silent, but closes its channels instead
 *
 * The export it describes: 64 MiB of 512-byte blocks, no cache, no
 * discard, max_io 128 KiB, inline 4 KiB.  Exits when every channel is
 * closed; prints what it did on stdout.
 */
#include <endian.h>
#include <stdbool.h>
#include <stdint.h>

#include "chanlib.h"

#define MAGIC		0x52424C4B
#define MSG_OPEN	1
#define MSG_OPEN_RSP	2
#define MSG_IO		3
#define S_IOERR		1
#define OPEN_ACCES	2
#define F_REPLY_BATCH	(1u << 16)
#define F_READ_STAGED	(1u << 17)
#define OP_READ		0
#define DATA_REMOTE	2
#define DATA_STAGED	3
#define BATCH_MAX	32
#define MAX_Q		8
#define TRIGGER		"/tmp/blk_evil.silent"

struct rsp {
	uint32_t magic;
	uint8_t type, version;
	uint16_t status;
	uint32_t features, max_io;
	uint64_t nr_sectors;
	uint32_t lbs, pbs, max_discard, discard_gran, max_wz, inline_max;
	uint16_t export_flags, reserved;
	uint32_t reserved2;
	uint8_t export_id[16];
} __attribute__((packed));

_Static_assert(sizeof(struct rsp) == 72, "OPEN_RSP layout");

static const char *mode;
static bool batches;	/* RCBLK_F_REPLY_BATCH granted */
static bool staged;	/* RCBLK_F_READ_STAGED granted */
static unsigned char sdata[65536] __attribute__((aligned(4096)));

static int send_plain(int fd, const void *buf, unsigned int len)
{
	struct rdmachan_user_msg m = { .buf = (uintptr_t)buf, .len = len };
	struct rdmachan_mmsg mm = {
		.size = sizeof(mm), .msgs = (uintptr_t)&m, .count = 1,
	};

	return ioctl(fd, RDMACHAN_IOC_SEND, &mm) < 0 ? -1 : 0;
}

static int answer_open(int fd, int qid)
{
	uint8_t buf[4096];
	unsigned int imm;
	int has_imm, len;
	struct rsp r;

	len = chan_recv_msg(fd, buf, sizeof(buf), &imm, &has_imm, 0);
	if (len < 0) {
		perror("recv OPEN");
		return -1;
	}
	if (len < 8 || be32toh(*(uint32_t *)buf) != MAGIC || buf[4] != MSG_OPEN) {
		fprintf(stderr, "queue %d: not an OPEN (%d bytes)\n", qid, len);
		return -1;
	}
	memset(&r, 0, sizeof(r));
	r.magic = htobe32(MAGIC);
	r.type = MSG_OPEN_RSP;
	r.version = 1;
	r.max_io = htobe32(131072);
	r.nr_sectors = htobe64(131072);
	r.lbs = htobe32(512);
	r.pbs = htobe32(512);
	r.inline_max = htobe32(4096);
	memset(r.export_id, 0x5a, sizeof(r.export_id));
	if (!strcmp(mode, "garbage"))
		r.magic = htobe32(0xdeadbeef);
	else if (!strcmp(mode, "refuse"))
		r.status = htobe16(OPEN_ACCES);
	else if (!strcmp(mode, "mismatch"))
		r.export_id[0] = qid;
	/* OPEN's features at byte 8: the same on every queue */
	if (!strcmp(mode, "batch") && len >= 12 &&
	    be32toh(*(uint32_t *)(buf + 8)) & F_REPLY_BATCH) {
		r.features = htobe32(F_REPLY_BATCH);
		batches = true;
	}
	if (!strcmp(mode, "staged") && len >= 12 &&
	    be32toh(*(uint32_t *)(buf + 8)) & F_READ_STAGED) {
		r.features = htobe32(F_READ_STAGED);
		staged = true;
	}
	if (!strcmp(mode, "mute"))
		return 0;
	/* without an immediate: that is what tells it from a reply */
	if (send_plain(fd, &r, !strcmp(mode, "short") ? 10 : sizeof(r))) {
		perror("send OPEN_RSP");
		return -1;
	}
	return 0;
}

static int reply(int fd, uint16_t tag, uint8_t status)
{
	struct rdmachan_user_msg m = {
		.buf = 0, .len = 0, .imm = (uint32_t)tag << 16 | status,
		.flags = RDMACHAN_MSG_IMM,
	};
	struct rdmachan_mmsg mm = {
		.size = sizeof(mm), .msgs = (uintptr_t)&m, .count = 1,
	};

	return ioctl(fd, RDMACHAN_IOC_SEND, &mm) < 0 ? -1 : 0;
}

/* A reply with @n further replies (each @more) in its payload of @len bytes */
static int reply_batch(int fd, uint32_t imm, uint32_t more, unsigned int n,
		       unsigned int len)
{
	uint32_t buf[BATCH_MAX + 1];
	struct rdmachan_user_msg m = {
		.buf = (uintptr_t)buf, .len = len, .imm = imm,
		.flags = RDMACHAN_MSG_IMM,
	};
	struct rdmachan_mmsg mm = {
		.size = sizeof(mm), .msgs = (uintptr_t)&m, .count = 1,
	};
	unsigned int i;

	for (i = 0; i < n && i < BATCH_MAX + 1; i++)
		buf[i] = htobe32(more);
	return ioctl(fd, RDMACHAN_IOC_SEND, &mm) < 0 ? -1 : 0;
}

/* Mode batch: what it sends for request @tag; the bogus ones it counts */
static long answer_batch(int fd, uint16_t tag)
{
	uint32_t ioerr = (uint32_t)tag << 16 | S_IOERR;

	if (!batches) {
		reply_batch(fd, ioerr, ioerr, 1, 4);
		reply(fd, tag, S_IOERR);
		return 1;
	}
	reply_batch(fd, ioerr, ioerr, 2, 6);
	reply_batch(fd, ioerr, ioerr, BATCH_MAX, BATCH_MAX * 4);
	reply_batch(fd, (uint32_t)(tag + 4096) << 16, ioerr, 2, 8);
	return 4;
}

/* One RDMA WRITE (with @imm: WRITE_WITH_IMM) of @len bytes of sdata */
static int rdma_write(int fd, uint32_t handle, uint32_t len, uint64_t addr,
		      uint32_t rkey, int with_imm, uint32_t imm)
{
	struct rdmachan_sge sg = { .handle = handle, .length = len };
	struct rdmachan_rdma_op op = {
		.opcode = with_imm ? RDMACHAN_OP_WRITE_IMM : RDMACHAN_OP_WRITE,
		.sgl = (uintptr_t)&sg, .nr_sge = len ? 1 : 0, .imm = imm,
		.remote_addr = addr, .rkey = rkey,
	};
	struct rdmachan_rdma r = { .size = sizeof(r), .ops = (uintptr_t)&op,
				   .count = 1 };

	return ioctl(fd, RDMACHAN_IOC_RDMA, &r) < 0 || op.status ? -1 : 0;
}

/* Mode staged: what it sends for request @req; the bogus ones it counts */
static long answer_staged(int fd, uint32_t handle, const uint8_t *req)
{
	uint16_t tag = be16toh(*(uint16_t *)(req + 4));
	uint32_t len = be32toh(*(uint32_t *)(req + 16));
	uint32_t rkey = be32toh(*(uint32_t *)(req + 20));
	uint64_t addr = be64toh(*(uint64_t *)(req + 24));

	if (req[1] == OP_READ && req[6] == DATA_REMOTE && staged &&
	    len <= sizeof(sdata)) {
		if (rdma_write(fd, handle, len, addr, rkey, 1,
			       (uint32_t)tag << 16))
			perror("RDMA WRITE_WITH_IMM of a remote READ");
		return 0;
	}
	if (req[1] != OP_READ || req[6] != DATA_STAGED || !staged ||
	    len > sizeof(sdata)) {
		reply(fd, tag, S_IOERR);
		return 0;
	}
	if (rdma_write(fd, handle, len, addr, rkey, 0, 0))
		perror("RDMA WRITE to the staging page");
	rdma_write(fd, handle, 0, addr, rkey, 1, (uint32_t)(tag + 4096) << 16);
	rdma_write(fd, handle, 0, addr, rkey, 1, (uint32_t)tag << 16 | S_IOERR);
	reply(fd, tag, 0);
	return 2;
}

int main(int argc, char **argv)
{
	struct rdmachan_chan_opts opts = { .queue_depth = 16, .max_msg_size = 8192 };
	const char *addr = CHAN_SRV_IP;
	int port = 7480, nq = 1, ctl, lfd, fds[MAX_Q], open_q, i, opt;
	struct rdmachan_reg_mr smr[MAX_Q];
	long served = 0, bogus = 0;
	bool quiet = false, closed = false;

	while ((opt = getopt(argc, argv, "s:p:q:")) != -1) {
		switch (opt) {
		case 's': addr = optarg; break;
		case 'p': port = atoi(optarg); break;
		case 'q': nq = atoi(optarg); break;
		default: return 2;
		}
	}
	if (optind + 1 != argc || nq < 1 || nq > MAX_Q) {
		fprintf(stderr, "usage: blk_evil [-s ADDR] [-p PORT] [-q QUEUES] MODE\n");
		return 2;
	}
	mode = argv[optind];
	unlink(TRIGGER);
	ctl = ctl_open();
	lfd = chan_listen(ctl, addr, port, &opts, 0, NULL);
	if (lfd < 0) {
		perror("listen");
		return 1;
	}
	printf("listening on %s:%d, mode %s\n", addr, port, mode);
	fflush(stdout);
	for (i = 0; i < nq; i++) {
		fds[i] = chan_accept(lfd, 0);
		if (fds[i] < 0) {
			perror("accept");
			return 1;
		}
		if (answer_open(fds[i], i))
			return 1;
	}
	if (!strcmp(mode, "staged")) {
		memset(sdata, 0xa5, sizeof(sdata));
		for (i = 0; i < nq; i++)
			if (ioc_reg_mr(fds[i], sdata, sizeof(sdata),
				       RDMACHAN_ACCESS_LOCAL_WRITE, &smr[i])) {
				perror("registering the data");
				return 1;
			}
	}
	printf("answered %d OPEN\n", nq);
	fflush(stdout);
	open_q = nq;
	if (strcmp(mode, "badtags") && strcmp(mode, "silent") &&
	    strcmp(mode, "close") && strcmp(mode, "batch") &&
	    strcmp(mode, "staged")) {
		/* the client refuses the mapping: nothing more to do */
		if (!strcmp(mode, "mute"))
			sleep(5);
		for (i = 0; i < nq; i++)
			close(fds[i]);
		open_q = 0;
	}
	while (open_q) {
		bool got = false;

		if (!quiet && access(TRIGGER, F_OK) == 0) {
			quiet = true;
			printf("trigger: %s after %ld replies\n", mode, served);
			fflush(stdout);
			if (!strcmp(mode, "close")) {
				for (i = 0; i < nq; i++)
					close(fds[i]);
				closed = true;
				break;
			}
		}
		/* non-blocking receives: a closed channel says so (EPIPE) */
		for (i = 0; i < nq; i++) {
			uint8_t buf[8192];
			unsigned int imm;
			int has_imm, len;
			uint16_t tag;

			if (fds[i] < 0)
				continue;
			len = chan_recv_msg(fds[i], buf, sizeof(buf), &imm, &has_imm, 1);
			/* nothing received: the channel's end (EPIPE) */
			if (len <= 0) {
				if (len < 0 && errno == EAGAIN)
					continue;
				close(fds[i]);
				fds[i] = -1;
				open_q--;
				continue;
			}
			got = true;
			if (len < 32 || buf[0] != MSG_IO || quiet)
				continue;
			tag = be16toh(*(uint16_t *)(buf + 4));
			if (!strcmp(mode, "batch")) {
				bogus += answer_batch(fds[i], tag);
				served++;
				continue;
			}
			if (!strcmp(mode, "staged")) {
				bogus += answer_staged(fds[i], smr[i].handle,
						       buf);
				served++;
				continue;
			}
			if (!strcmp(mode, "badtags")) {
				reply(fds[i], tag + 4096, 0);
				bogus++;
			}
			reply(fds[i], tag, S_IOERR);
			served++;
			if (!strcmp(mode, "badtags")) {
				reply(fds[i], tag, 0);
				bogus++;
			}
		}
		if (!got)
			usleep(10000);
	}
	printf("%s: %ld replies, %ld bogus ones%s\n", mode, served, bogus,
	       closed ? ", channels closed" : "");
	close(lfd);
	return 0;
}
