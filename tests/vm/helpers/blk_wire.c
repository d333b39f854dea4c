// SPDX-License-Identifier: GPL-2.0-only
/*
 * blk_wire: a hostile block client in user space.  It speaks the block
 * channel's wire protocol (module/blk/blk_proto.h, big-endian; the
 * layouts are mirrored below, their sizes and offsets asserted) over a
 * plain rdmachan channel to rdmachan_blk's server (port 7471), and checks
 * that every malformed OPEN gets the right OPEN_RSP status and every
 * malformed request a reply (a zero-length message, immediate
 * tag << 16 | status) with the right status, the server staying healthy:
 * a valid READ afterwards returns the backing device's bytes.  That the
 * backing device is untouched the case checks (a checksum before and
 * after: tests/vm/cases/blk_bad.sh).
 *
 *   blk_wire [-s SERVER] [-c CLIENT] [-p PORT] -b BACKING RW_EXPORT RO_EXPORT DENIED_EXPORT
 *	      [SLOW_EXPORT]
 *   blk_wire [-s SERVER] [-c CLIENT] [-p PORT] -F ROUNDS EXPORT
 *
 * -F: only the refusal flood, ROUNDS times on EXPORT (read-write): a
 * session that never receives sends malformed requests as fast as credits
 * let it; the server's refusals find no room (the client holds every
 * receive buffer), so it queues them, closes the queue at twice its
 * depth of them, and the requests keep coming while the queue closes.
 * Each round must end with the server closing the channel; that the
 * refusals queued meanwhile are freed, the debug kernel's kmemleak and
 * the server's own check at a queue's release (a WARN) tell.
 *
 * RW_EXPORT: exported read-write to CLIENT, backed by BACKING (read here
 * to compare); RO_EXPORT: exported --ro to CLIENT; DENIED_EXPORT:
 * exported without CLIENT's address in its allow list; SLOW_EXPORT:
 * read-write, offering DISCARD, on a device that completes each request
 * after 150 ms, a few at a time: a flood of DISCARDs fills the server's
 * slots and its waiting list, and the rest must be refused with RESOURCE
 * (every request answered once, the channel kept).  KTAP output.
 *
 * The floods (SLOW_EXPORT, -F) are blk_wire_flood.c's.
 */
#include "blk_wire.h"

/* ---- the fixture ----------------------------------------------------- */

static const char *srv_ip = CHAN_SRV_IP, *cli_ip = CHAN_CLI_IP;
static int port = RCBLK_DEFAULT_PORT, ctl, backing = -1;
uint16_t next_tag = 1;
static bool last_broke;		/* io_send: the channel failed (and was opened again) */

#define TIMEOUT_MS 10000

static const char *status_name(int s)
{
	static const char *const n[] = {
		"OK", "IOERR", "INVAL", "RANGE", "RO", "NOTSUPP", "TOOBIG", "NOSPC",
		"RESOURCE", "GONE", "REMOTE",
	};

	return s >= 0 && s < (int)(sizeof(n) / sizeof(n[0])) ? n[s] : "?";
}

static const char *open_status_name(int s)
{
	static const char *const n[] = {
		"OK", "NOENT", "ACCES", "ROFS", "PROTO", "BUSY", "NOMEM",
	};

	return s >= 0 && s < (int)(sizeof(n) / sizeof(n[0])) ? n[s] : "?";
}

/* send @n iovecs as one message */
int send_msg(int fd, const void *a, size_t alen, const void *b, size_t blen)
{
	static char buf[1 << 20];

	if (alen + blen > sizeof(buf)) {
		errno = EMSGSIZE;
		return -1;
	}
	memcpy(buf, a, alen);
	if (blen)
		memcpy(buf + alen, b, blen);
	{
		struct rdmachan_user_msg m = { .buf = (uintptr_t)buf, .len = alen + blen };
		struct rdmachan_mmsg mm = {
			.size = sizeof(mm), .msgs = (uintptr_t)&m, .count = 1,
		};

		return ioctl(fd, RDMACHAN_IOC_SEND, &mm) < 0 ? -1 : 0;
	}
}

/*
 * recv_one: RECV of one message without waiting: its length, or -1 with
 * errno: EAGAIN (none yet), EPIPE (the channel ended: RECV received
 * nothing, done 0), or the ioctl's
 */
int recv_one(int fd, void *buf, unsigned int room, unsigned int *imm, int *has_imm)
{
	struct rdmachan_user_msg m = { .buf = (uintptr_t)buf, .len = room };
	struct rdmachan_mmsg mm = {
		.size = sizeof(mm), .msgs = (uintptr_t)&m, .count = 1,
		.flags = RDMACHAN_MSG_DONTWAIT,
	};

	if (ioctl(fd, RDMACHAN_IOC_RECV, &mm) < 0)
		return -1;
	if (!mm.done) {
		errno = EPIPE;
		return -1;
	}
	*has_imm = !!(m.flags & RDMACHAN_MSG_IMM);
	*imm = m.imm;
	return m.len;
}

/*
 * recv_msg: one message within TIMEOUT_MS: its length (and immediate),
 * -1/errno (ETIMEDOUT when none came, EPIPE when the channel ended)
 */
int recv_msg(int fd, void *buf, unsigned int room, unsigned int *imm, int *has_imm)
{
	struct pollfd p = { .fd = fd, .events = POLLIN };
	int r, waited = 0;

	for (;;) {
		r = recv_one(fd, buf, room, imm, has_imm);
		if (r >= 0 || errno != EAGAIN)
			return r;
		if (waited >= TIMEOUT_MS) {
			errno = ETIMEDOUT;
			return -1;
		}
		r = poll(&p, 1, 500);
		if (r < 0 && errno != EINTR)
			return -1;
		waited += 500;
	}
}

/* chan_open: a channel to the block server; -1 when it could not connect */
static int chan_open(void)
{
	struct rdmachan_chan_opts o = { 0 };
	int fd;

	o.timeout_ms = 5000;
	fd = chan_connect(ctl, srv_ip, port, cli_ip, &o, 0);
	return fd;
}

static void open_fill(struct wire_open *o, const char *name, uint16_t flags)
{
	memset(o, 0, sizeof(*o));
	o->magic = htobe32(RCBLK_WIRE_MAGIC);
	o->type = RCBLK_MSG_OPEN;
	o->version = RCBLK_WIRE_VERSION;
	o->flags = htobe16(flags);
	o->features = htobe32(F_KNOWN);
	o->max_io = htobe32(128 * 1024);
	o->queue = htobe16(0);
	o->nr_queues = htobe16(1);
	memcpy(o->session, "blk_wire-session", 16);
	o->session[15] = (uint8_t)getpid();
	snprintf(o->name, sizeof(o->name), "%s", name);
}

/*
 * open_exchange: connect, send @len bytes of @o, receive the OPEN_RSP
 * into @rsp.  Returns the channel fd (the caller closes it) and the
 * status in *@status, or -1 with @why set.
 */
static int open_exchange(const void *o, size_t len, struct wire_open_rsp *rsp, int *status,
			 char *why, size_t wlen)
{
	unsigned int imm;
	int fd, r, has_imm;
	char buf[4096];

	fd = chan_open();
	if (fd < 0) {
		/* a server may refuse the connection itself: then no status */
		snprintf(why, wlen, "connect to %s:%d: %s", srv_ip, port, strerror(errno));
		return -1;
	}
	if (send_msg(fd, o, len, NULL, 0)) {
		snprintf(why, wlen, "send OPEN: %s", strerror(errno));
		close(fd);
		return -1;
	}
	r = recv_msg(fd, buf, sizeof(buf), &imm, &has_imm);
	if (r < 0) {
		snprintf(why, wlen, "no OPEN_RSP: %s", strerror(errno));
		close(fd);
		return -1;
	}
	if (r < (int)sizeof(*rsp)) {
		snprintf(why, wlen, "OPEN_RSP of %d bytes, not %zu", r, sizeof(*rsp));
		close(fd);
		return -1;
	}
	memcpy(rsp, buf, sizeof(*rsp));
	if (be32toh(rsp->magic) != RCBLK_WIRE_MAGIC || rsp->type != RCBLK_MSG_OPEN_RSP ||
	    rsp->version != RCBLK_WIRE_VERSION) {
		snprintf(why, wlen, "OPEN_RSP magic 0x%x type %u version %u",
			 be32toh(rsp->magic), rsp->type, rsp->version);
		close(fd);
		return -1;
	}
	*status = be16toh(rsp->status);
	return fd;
}

/* check_open: an OPEN of @len bytes of @o gets OPEN_RSP status @want */
static void check_open(const char *what, const void *o, size_t len, int want, int alt)
{
	struct wire_open_rsp rsp;
	char why[256];
	int fd, st = -1;

	fd = open_exchange(o, len, &rsp, &st, why, sizeof(why));
	if (fd < 0) {
		ktap_result(0, what, "%s", why);
		return;
	}
	ktap_result(st == want || st == alt, what, "OPEN_RSP status %d (%s), expected %s",
		    st, open_status_name(st), open_status_name(want));
	close(fd);
}


int sess_open(struct sess *s, const char *name, uint16_t oflags)
{
	struct wire_open o;
	char why[256];
	int st = -1;

	if (s->fd >= 0)
		close(s->fd);
	s->name = name;
	s->oflags = oflags;
	s->mr_ok = false;
	open_fill(&o, name, oflags);
	s->fd = open_exchange(&o, sizeof(o), &s->rsp, &st, why, sizeof(why));
	if (s->fd < 0 || st != OPEN_OK) {
		ktap_diag("OPEN %s: %s", name, s->fd < 0 ? why : open_status_name(st));
		if (s->fd >= 0)
			close(s->fd);
		s->fd = -1;
		return -1;
	}
	s->nr_sectors = be64toh(s->rsp.nr_sectors);
	s->lbs = be32toh(s->rsp.lbs);
	s->max_io = be32toh(s->rsp.max_io);
	s->inline_max = be32toh(s->rsp.inline_max);
	s->features = be32toh(s->rsp.features);
	if (!s->buf) {
		s->buf_len = 2 << 20;
		s->buf = aligned_alloc(4096, s->buf_len);
	}
	return 0;
}

/* a fresh registration of the buffer: the server's reply may invalidate it */
static int sess_reg(struct sess *s)
{
	if (s->mr_ok) {
		ioc_dereg_mr(s->fd, s->mr.handle);
		s->mr_ok = false;
	}
	if (ioc_reg_mr(s->fd, s->buf, s->buf_len,
		       RDMACHAN_ACCESS_LOCAL_WRITE | RDMACHAN_ACCESS_REMOTE_WRITE |
		       RDMACHAN_ACCESS_REMOTE_READ, &s->mr) < 0) {
		ktap_diag("REG_MR: %s", strerror(errno));
		return -1;
	}
	s->mr_ok = true;
	return 0;
}

void io_fill(struct wire_io *io, uint8_t op, uint64_t sector, uint32_t len, uint8_t data)
{
	memset(io, 0, sizeof(*io));
	io->type = RCBLK_MSG_IO;
	io->op = op;
	io->tag = htobe16(next_tag++);
	io->data = data;
	io->sector = htobe64(sector);
	io->len = htobe32(len);
}

static void io_remote(struct sess *s, struct wire_io *io)
{
	if (sess_reg(s) == 0) {
		io->rkey = htobe32(s->mr.remote.rkey);
		io->addr = htobe64(s->mr.remote.addr);
	}
}

/*
 * io_send: send @io (its first @hlen bytes) and @plen bytes of payload;
 * the reply's status, or -1 with @why.  A channel that failed is opened
 * again (the failure is reported by the caller).
 */
static int io_send(struct sess *s, const struct wire_io *io, size_t hlen, const void *payload,
		   size_t plen, char *why, size_t wlen)
{
	static unsigned char buf[256 * 1024];
	unsigned int imm = 0;
	int r, has_imm = 0;

	last_broke = false;
	memset(buf, 0xee, sizeof(buf));
	if (s->fd < 0 && sess_open(s, s->name, s->oflags)) {
		snprintf(why, wlen, "no session");
		return -1;
	}
	if (send_msg(s->fd, io, hlen, payload, plen)) {
		snprintf(why, wlen, "send: %s", strerror(errno));
		goto reopen;
	}
	r = recv_msg(s->fd, buf, sizeof(buf), &imm, &has_imm);
	if (r < 0) {
		snprintf(why, wlen, "no reply: %s (the server dropped the channel?)",
			 strerror(errno));
		goto reopen;
	}
	if (r != 0 || !has_imm) {
		int i, n = r > 0 ? r : 0, written = 0, zero = 0;

		for (i = 0; i < n; i++) {
			written += buf[i] != 0xee;
			zero += !buf[i];
		}
		snprintf(why, wlen, "a message of %d bytes (%d not 0xee as filled, %d zero), %s "
			 "immediate (0x%x), not a reply; first bytes %02x %02x %02x %02x %02x "
			 "%02x %02x %02x", r, written, zero, has_imm ? "with" : "without", imm,
			 buf[0], buf[1], buf[2], buf[3], buf[4], buf[5], buf[6], buf[7]);
		return -1;
	}
	if ((imm >> 16) != be16toh(io->tag)) {
		snprintf(why, wlen, "reply tag %u, request tag %u (status %u)", imm >> 16,
			 be16toh(io->tag), imm & 0xff);
		return -1;
	}
	if (imm & 0xff00) {
		snprintf(why, wlen, "reply immediate 0x%x: bits 8-15 set", imm);
		return -1;
	}
	return imm & 0xff;
reopen:
	last_broke = true;
	close(s->fd);
	s->fd = -1;
	sess_open(s, s->name, s->oflags);
	return -1;
}

/* check_io: the reply to @io has status @want (or @alt, -1 for none) */
void check_io(struct sess *s, const char *what, const struct wire_io *io, size_t hlen,
	      const void *payload, size_t plen, int want, int alt)
{
	char why[256];
	int st;

	st = io_send(s, io, hlen, payload, plen, why, sizeof(why));
	if (st < 0) {
		ktap_result(0, what, "%s", why);
		return;
	}
	if (alt >= 0 && alt != want)
		ktap_result(st == want || st == alt, what, "status %d (%s), expected %s or %s",
			    st, status_name(st), status_name(want), status_name(alt));
	else
		ktap_result(st == want, what, "status %d (%s), expected %s", st,
			    status_name(st), status_name(want));
}

/* check_read_ok: a valid READ of @len bytes at @sector returns the backing bytes */
static void check_read_ok(struct sess *s, const char *what, uint64_t sector, uint32_t len)
{
	struct wire_io io;
	char why[256], *want;
	int st;

	if (s->fd < 0 && sess_open(s, s->name, s->oflags)) {
		ktap_result(0, what, "cannot open a session");
		return;
	}
	memset(s->buf, 0xa5, len);
	io_fill(&io, OP_READ, sector, len, DATA_REMOTE);
	io_remote(s, &io);
	st = io_send(s, &io, sizeof(io), NULL, 0, why, sizeof(why));
	if (st != S_OK) {
		ktap_result(0, what, "%s", st < 0 ? why : status_name(st));
		return;
	}
	if (backing < 0) {
		ktap_result(1, what, "-");
		return;
	}
	want = malloc(len);
	if (!want || pread(backing, want, len, sector * 512) != (ssize_t)len) {
		ktap_result(0, what, "pread of the backing device: %s", strerror(errno));
		free(want);
		return;
	}
	ktap_result(!memcmp(want, s->buf, len), what, "the data differs from the backing device's");
	free(want);
}

static void usage(void)
{
	fprintf(stderr, "usage: blk_wire [-s SERVER] [-c CLIENT] [-p PORT] -b BACKING "
		"RW_EXPORT RO_EXPORT DENIED_EXPORT [SLOW_EXPORT]\n"
		"       blk_wire [-s SERVER] [-c CLIENT] [-p PORT] -F ROUNDS EXPORT\n");
	exit(2);
}

int main(int argc, char **argv)
{
	struct sess s = { .fd = -1 }, ro = { .fd = -1 };
	const char *rw_name, *ro_name, *deny_name, *bpath = NULL;
	struct wire_open o;
	struct wire_io io;
	char *payload;
	int c, rounds = 0;

	while ((c = getopt(argc, argv, "s:c:p:b:F:")) != -1) {
		switch (c) {
		case 's': srv_ip = optarg; break;
		case 'c': cli_ip = optarg; break;
		case 'p': port = atoi(optarg); break;
		case 'b': bpath = optarg; break;
		case 'F': rounds = atoi(optarg); break;
		default: usage();
		}
	}
	if (rounds > 0) {
		if (argc - optind != 1)
			usage();
		ktap_header();
		ctl = ctl_open();
		reject_flood(argv[optind], rounds);
		return ktap_plan(ktap_failures() ? 1 : 0);
	}
	if ((argc - optind != 3 && argc - optind != 4) || !bpath)
		usage();
	rw_name = argv[optind];
	ro_name = argv[optind + 1];
	deny_name = argv[optind + 2];
	ktap_header();
	ctl = ctl_open();
	backing = open(bpath, O_RDONLY | O_CLOEXEC);
	if (backing < 0)
		ktap_diag("open %s: %s", bpath, strerror(errno));
	payload = calloc(1, 1 << 20);

	/* ---- no OPEN at all: the server closes the channel ---- */
	{
		unsigned int imm;
		int fd = chan_open(), has_imm, r = -1;

		if (fd >= 0)
			r = recv_msg(fd, payload, 1 << 20, &imm, &has_imm);
		ktap_result(fd >= 0 && r < 0 && errno == EPIPE,
			    "a channel that sends no OPEN is closed by the server (open_timeout_ms)",
			    "%s", fd < 0 ? "no channel" : r >= 0 ? "a message came" :
			    strerror(errno));
		if (fd >= 0)
			close(fd);
	}

	/* ---- OPEN ---- */
	open_fill(&o, rw_name, 0);
	o.magic = htobe32(0x4b4c4252);
	check_open("OPEN with a bad magic: PROTO", &o, sizeof(o), OPEN_PROTO, -1);
	open_fill(&o, rw_name, 0);
	o.version = 2;
	check_open("OPEN of version 2: PROTO", &o, sizeof(o), OPEN_PROTO, -1);
	open_fill(&o, rw_name, 0);
	o.version = 0;
	check_open("OPEN of version 0: PROTO", &o, sizeof(o), OPEN_PROTO, -1);
	open_fill(&o, rw_name, 0);
	o.type = RCBLK_MSG_IO;
	check_open("OPEN of type IO: PROTO", &o, sizeof(o), OPEN_PROTO, -1);
	open_fill(&o, rw_name, 0);
	check_open("OPEN of 40 bytes (cut short): PROTO", &o, 40, OPEN_PROTO, -1);
	open_fill(&o, "no-such-export", 0);
	check_open("OPEN of an unknown export: NOENT", &o, sizeof(o), OPEN_NOENT, -1);
	open_fill(&o, rw_name, 0);
	memset(o.name, 'a', sizeof(o.name));
	check_open("OPEN with a name not NUL-terminated: PROTO (or NOENT)", &o, sizeof(o),
		   OPEN_PROTO, OPEN_NOENT);
	open_fill(&o, rw_name, 0x8000);
	check_open("OPEN with an unknown flag: PROTO", &o, sizeof(o), OPEN_PROTO, -1);
	open_fill(&o, deny_name, 0);
	check_open("OPEN from an address the export does not allow: ACCES", &o, sizeof(o),
		   OPEN_ACCES, -1);
	open_fill(&o, deny_name, OPEN_RO);
	check_open("OPEN --ro from an address not allowed: ACCES", &o, sizeof(o), OPEN_ACCES, -1);
	open_fill(&o, ro_name, 0);
	check_open("OPEN read-write of a read-only export: ROFS", &o, sizeof(o), OPEN_ROFS, -1);
	open_fill(&o, ro_name, OPEN_RO);
	check_open("OPEN read-only of a read-only export: OK", &o, sizeof(o), OPEN_OK, -1);

	/* ---- a good OPEN, then hostile requests ---- */
	if (sess_open(&s, rw_name, 0)) {
		ktap_result(0, "OPEN of the read-write export: OK", "no session");
		return ktap_plan(1);
	}
	ktap_result(1, "OPEN of the read-write export: OK", "-");
	ktap_diag("export %s: %llu sectors, lbs %u, max_io %u, inline_max %u, features 0x%x",
		  rw_name, (unsigned long long)s.nr_sectors, s.lbs, s.max_io, s.inline_max,
		  s.features);
	ktap_result(s.lbs >= 512 && !(s.lbs & (s.lbs - 1)) && s.nr_sectors &&
		    s.max_io >= s.lbs && s.max_io <= 128 * 1024 && !(s.features & ~F_KNOWN),
		    "OPEN_RSP: lbs a power of two, max_io within the client's, features offered",
		    "lbs %u max_io %u features 0x%x", s.lbs, s.max_io, s.features);
	if (s.lbs < 512 || s.lbs > 65536 || !s.max_io || s.max_io > (1 << 20))
		return ktap_plan(1);
	check_read_ok(&s, "a valid READ before the hostile requests", 0, s.lbs * 8);

	io_fill(&io, OP_READ, s.nr_sectors, s.lbs, DATA_REMOTE);
	io_remote(&s, &io);
	check_io(&s, "READ at the first sector past the end: RANGE", &io, sizeof(io), NULL, 0,
		 S_RANGE, -1);
	io_fill(&io, OP_READ, s.nr_sectors - s.lbs / 512, 2 * s.lbs, DATA_REMOTE);
	io_remote(&s, &io);
	check_io(&s, "READ across the end: RANGE", &io, sizeof(io), NULL, 0, S_RANGE, -1);
	io_fill(&io, OP_READ, UINT64_MAX - 7, s.lbs * 2, DATA_REMOTE);
	io_remote(&s, &io);
	check_io(&s, "READ whose sector + len wraps around: RANGE (or INVAL)", &io, sizeof(io),
		 NULL, 0, S_RANGE, S_INVAL);
	io_fill(&io, OP_READ, UINT64_MAX >> 9, s.lbs, DATA_REMOTE);
	io_remote(&s, &io);
	check_io(&s, "READ whose byte offset overflows 64 bits: RANGE (or INVAL)", &io,
		 sizeof(io), NULL, 0, S_RANGE, S_INVAL);
	io_fill(&io, OP_WRITE, s.nr_sectors, s.lbs, DATA_INLINE);
	check_io(&s, "inline WRITE past the end: RANGE", &io, sizeof(io), payload, s.lbs,
		 S_RANGE, -1);
	io_fill(&io, OP_DISCARD, s.nr_sectors - 8, 16 * s.lbs, DATA_NONE);
	check_io(&s, "DISCARD across the end: RANGE (or NOTSUPP)", &io, sizeof(io), NULL, 0,
		 S_RANGE, S_NOTSUPP);
	io_fill(&io, OP_WRITE_ZEROES, s.nr_sectors, s.lbs, DATA_NONE);
	check_io(&s, "WRITE_ZEROES past the end: RANGE (or NOTSUPP)", &io, sizeof(io), NULL, 0,
		 S_RANGE, S_NOTSUPP);
	io_fill(&io, OP_READ, 0, s.lbs + 1, DATA_REMOTE);
	io_remote(&s, &io);
	check_io(&s, "READ of len not a multiple of the block size: INVAL", &io, sizeof(io),
		 NULL, 0, S_INVAL, -1);
	io_fill(&io, OP_READ, 0, 0, DATA_REMOTE);
	io_remote(&s, &io);
	check_io(&s, "READ of len 0: INVAL", &io, sizeof(io), NULL, 0, S_INVAL, -1);
	if (s.lbs > 512) {
		io_fill(&io, OP_READ, 1, s.lbs, DATA_REMOTE);
		io_remote(&s, &io);
		check_io(&s, "READ at a sector not aligned to the block size: INVAL", &io,
			 sizeof(io), NULL, 0, S_INVAL, -1);
	}
	io_fill(&io, OP_READ, 0, s.max_io + s.lbs, DATA_REMOTE);
	io_remote(&s, &io);
	check_io(&s, "READ over max_io: TOOBIG", &io, sizeof(io), NULL, 0, S_TOOBIG, -1);
	io_fill(&io, OP_READ, 0, 0x80000000u, DATA_REMOTE);
	io_remote(&s, &io);
	check_io(&s, "READ of 2 GiB: TOOBIG", &io, sizeof(io), NULL, 0, S_TOOBIG, -1);
	io_fill(&io, 99, 0, s.lbs, DATA_NONE);
	check_io(&s, "unknown op 99: NOTSUPP (or INVAL)", &io, sizeof(io), NULL, 0, S_NOTSUPP,
		 S_INVAL);
	io_fill(&io, 0xff, 0, s.lbs, DATA_NONE);
	check_io(&s, "unknown op 255: NOTSUPP (or INVAL)", &io, sizeof(io), NULL, 0, S_NOTSUPP,
		 S_INVAL);
	io_fill(&io, OP_READ, 0, s.lbs, DATA_REMOTE);
	io_remote(&s, &io);
	io.flags = htobe16(0x80);
	check_io(&s, "READ with an unknown flag (bit 7): NOTSUPP (or INVAL)", &io, sizeof(io),
		 NULL, 0, S_NOTSUPP, S_INVAL);
	io_fill(&io, OP_READ, 0, s.lbs, DATA_REMOTE);
	io_remote(&s, &io);
	io.flags = htobe16(0x8000);
	check_io(&s, "READ with flag bit 15: NOTSUPP (or INVAL)", &io, sizeof(io), NULL, 0,
		 S_NOTSUPP, S_INVAL);
	io_fill(&io, OP_READ, 0, s.lbs, 7);
	check_io(&s, "READ with data kind 7: INVAL", &io, sizeof(io), NULL, 0, S_INVAL, -1);
	io_fill(&io, OP_READ, 0, s.lbs, DATA_INLINE);
	check_io(&s, "READ with inline data: INVAL", &io, sizeof(io), payload, s.lbs, S_INVAL, -1);
	io_fill(&io, OP_FLUSH, 0, 0, DATA_REMOTE);
	io_remote(&s, &io);
	check_io(&s, "FLUSH with a remote buffer: INVAL", &io, sizeof(io), NULL, 0, S_INVAL, -1);
	io_fill(&io, OP_WRITE, 0, s.lbs, DATA_NONE);
	check_io(&s, "WRITE without data: INVAL", &io, sizeof(io), NULL, 0, S_INVAL, -1);
	io_fill(&io, OP_WRITE, 0, 2 * s.lbs, DATA_INLINE);
	check_io(&s, "inline WRITE of len 2 blocks carrying 1: INVAL", &io, sizeof(io), payload,
		 s.lbs, S_INVAL, -1);
	io_fill(&io, OP_WRITE, 0, s.lbs, DATA_INLINE);
	check_io(&s, "inline WRITE of len 1 block carrying 2: INVAL", &io, sizeof(io), payload,
		 2 * s.lbs, S_INVAL, -1);
	io_fill(&io, OP_WRITE, 0, s.lbs, DATA_INLINE);
	check_io(&s, "inline WRITE carrying nothing: INVAL", &io, sizeof(io), NULL, 0, S_INVAL, -1);
	if (s.inline_max + s.lbs <= s.max_io && s.inline_max + s.lbs + 32 <= 4096) {
		uint32_t n = (s.inline_max / s.lbs + 1) * s.lbs;

		io_fill(&io, OP_WRITE, 0, n, DATA_INLINE);
		check_io(&s, "inline WRITE over inline_max: INVAL (or TOOBIG)", &io, sizeof(io),
			 payload, n, S_INVAL, S_TOOBIG);
	}
	io_fill(&io, OP_READ, 0, s.lbs, DATA_REMOTE);
	io_remote(&s, &io);
	io.reserved = 1;
	check_io(&s, "READ with its reserved byte set: INVAL", &io, sizeof(io), NULL, 0, S_INVAL, -1);
	io_fill(&io, OP_WRITE, 0, s.lbs, DATA_INLINE);
	io.reserved = 0x80;
	check_io(&s, "WRITE with its reserved byte set: INVAL", &io, sizeof(io), payload, s.lbs,
		 S_INVAL, -1);
	check_read_ok(&s, "the server still answers a valid READ on the same channel",
		      s.nr_sectors - 8 * (s.lbs / 512), s.lbs * 8);

	/*
	 * What may end the channel, each on a session of its own: a request
	 * of another type, one cut short (both still deserve a reply), and
	 * a READ into rkey 0 (the server's RDMA WRITE fails: on RC that
	 * breaks the channel, so a REMOTE reply or the channel's end are
	 * both right); the server must serve a new session after each.
	 */
	sess_open(&s, rw_name, 0);
	io_fill(&io, OP_READ, 0, s.lbs, DATA_REMOTE);
	io_remote(&s, &io);
	io.type = RCBLK_MSG_OPEN;
	check_io(&s, "a request of type OPEN after the OPEN: INVAL", &io, sizeof(io), NULL, 0,
		 S_INVAL, -1);
	sess_open(&s, rw_name, 0);
	io_fill(&io, OP_READ, 0, s.lbs, DATA_REMOTE);
	io.type = 0x7f;
	check_io(&s, "a request of type 0x7f: INVAL", &io, sizeof(io), NULL, 0, S_INVAL, -1);
	sess_open(&s, rw_name, 0);
	{
		char why[256];
		int st;

		/* Documentation/blk-server.rst: shorter than the header closes the queue */
		io_fill(&io, OP_READ, 0, s.lbs, DATA_REMOTE);
		st = io_send(&s, &io, 16, NULL, 0, why, sizeof(why));
		ktap_result(st == S_INVAL || (st < 0 && last_broke),
			    "a request cut to 16 bytes: INVAL, or the channel ends",
			    "%s", st < 0 ? why : status_name(st));
	}
	sess_open(&s, rw_name, 0);
	{
		char why[256];
		int st;

		io_fill(&io, OP_READ, 0, s.lbs, DATA_REMOTE);
		st = io_send(&s, &io, sizeof(io), NULL, 0, why, sizeof(why));
		ktap_result(st == S_REMOTE || st == S_INVAL || (st < 0 && last_broke),
			    "a READ into rkey 0: REMOTE or INVAL, or the channel ends",
			    "%s", st < 0 ? why : status_name(st));
		if (st < 0)
			ktap_diag("READ into rkey 0 ended the channel: %s", why);
	}
	sess_open(&s, rw_name, 0);
	{
		char why[256];
		int st;

		/* pulled in pieces (blk-server.rst, "Pulls"): two fail at once */
		io_fill(&io, OP_WRITE, 0, 65536, DATA_REMOTE);
		st = io_send(&s, &io, sizeof(io), NULL, 0, why, sizeof(why));
		ktap_result(st == S_REMOTE || st == S_INVAL || (st < 0 && last_broke),
			    "a 64 KiB WRITE from rkey 0: REMOTE or INVAL, or the channel ends",
			    "%s", st < 0 ? why : status_name(st));
	}
	if (sess_open(&s, rw_name, 0))
		ktap_result(0, "a new session after the channel-ending requests", "OPEN failed");
	else
		check_read_ok(&s, "a new session after the channel-ending requests: a valid READ",
			      0, s.lbs * 8);

	/* a read-only OPEN of the read-write export: writes are refused */
	if (sess_open(&ro, rw_name, OPEN_RO)) {
		ktap_result(0, "OPEN --ro of the read-write export: OK", "no session");
	} else {
		ktap_result(1, "OPEN --ro of the read-write export: OK", "-");
		io_fill(&io, OP_WRITE, 0, s.lbs, DATA_INLINE);
		check_io(&ro, "inline WRITE on a read-only session: RO", &io, sizeof(io), payload,
			 s.lbs, S_RO, -1);
		io_fill(&io, OP_WRITE_ZEROES, 0, s.lbs, DATA_NONE);
		check_io(&ro, "WRITE_ZEROES on a read-only session: RO (or NOTSUPP)", &io,
			 sizeof(io), NULL, 0, S_RO, S_NOTSUPP);
		io_fill(&io, OP_DISCARD, 0, s.lbs, DATA_NONE);
		check_io(&ro, "DISCARD on a read-only session: RO", &io, sizeof(io), NULL, 0, S_RO, -1);
		check_read_ok(&ro, "a read-only session reads", 0, s.lbs);
	}
	/* a read-only export: the same through a read-only OPEN */
	if (sess_open(&ro, ro_name, OPEN_RO)) {
		ktap_result(0, "OPEN --ro of the read-only export: OK", "no session");
	} else {
		uint32_t lbs = be32toh(ro.rsp.lbs);
		uint16_t ef = be16toh(ro.rsp.export_flags);

		ktap_result(ef & 1, "OPEN_RSP of the read-only export says EXP_RO",
			    "export_flags 0x%x", ef);
		io_fill(&io, OP_WRITE, 0, lbs, DATA_INLINE);
		check_io(&ro, "inline WRITE to a read-only export: RO", &io, sizeof(io), payload,
			 lbs, S_RO, -1);
		ro.buf = ro.buf ? ro.buf : aligned_alloc(4096, 2 << 20);
		io_fill(&io, OP_WRITE, 0, lbs * 16, DATA_REMOTE);
		io_remote(&ro, &io);
		check_io(&ro, "remote WRITE to a read-only export: RO", &io, sizeof(io), NULL, 0,
			 S_RO, -1);
	}
	if (argc - optind == 4)
		flood(argv[optind + 3]);
	/* and the server still serves a new session */
	if (sess_open(&s, rw_name, 0))
		ktap_result(0, "a new session after all that", "OPEN failed");
	else
		check_read_ok(&s, "a new session after all that: a valid READ", 8, s.lbs * 4);
	if (s.fd >= 0)
		close(s.fd);
	if (ro.fd >= 0)
		close(ro.fd);
	return ktap_plan(ktap_failures() ? 1 : 0);
}
