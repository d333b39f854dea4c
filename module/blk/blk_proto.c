// SPDX-License-Identifier: GPL-2.0-only
/*
 * rdmachan_blk: encoding and checking of the block wire protocol
 * (blk_proto.h).  Pure functions, unit-tested by
 * tests/kunit/blk_proto_kunit.c.
 */
#include "blk_proto.h"

/* ---- client side (blk_clt*.c) ---- */

#include <linux/errno.h>
#include <linux/kernel.h>
#include <linux/log2.h>
#include <linux/string.h>

#include "blk_proto_clt.h"

/**
 * rcblk_clt_encode_open() - fill an OPEN message
 * @o: the message
 * @flags: RCBLK_OPEN_*
 * @features: RCBLK_F_* the client may send and the channel features it
 *	takes
 * @max_io: the client's largest request in bytes
 * @queue: this channel's hardware queue
 * @nr_queues: the mapping's channels
 * @gen: the connection's generation, with RCBLK_OPEN_FENCE (else 0)
 * @session: RCBLK_SESSION_LEN bytes, the same on every channel
 * @name: the export; truncated to RCBLK_NAME_MAX - 1 bytes
 *
 * Context: any.
 */
void rcblk_clt_encode_open(struct rcblk_wire_open *o, u16 flags, u32 features,
			   u32 max_io, u16 queue, u16 nr_queues, u32 gen,
			   const u8 *session, const char *name)
{
	memset(o, 0, sizeof(*o));
	o->magic = cpu_to_be32(RCBLK_WIRE_MAGIC);
	o->type = RCBLK_MSG_OPEN;
	o->version = RCBLK_WIRE_VERSION;
	o->flags = cpu_to_be16(flags);
	o->features = cpu_to_be32(features);
	o->max_io = cpu_to_be32(max_io);
	o->queue = cpu_to_be16(queue);
	o->nr_queues = cpu_to_be16(nr_queues);
	o->gen = cpu_to_be32(gen);
	memcpy(o->session, session, RCBLK_SESSION_LEN);
	strscpy(o->name, name, sizeof(o->name));
}

/**
 * rcblk_clt_encode_io() - fill an IO request header
 * @io: the header
 * @op: enum rcblk_op
 * @flags: RCBLK_F_*
 * @sector: first 512-byte sector
 * @len: bytes
 * @tag: the client's tag
 * @data: enum rcblk_data
 * @rkey: RCBLK_DATA_REMOTE, RCBLK_DATA_STAGED: the registration's key,
 *	else ignored
 * @addr: RCBLK_DATA_REMOTE, RCBLK_DATA_STAGED: its address, else ignored
 *
 * Context: any.
 */
void rcblk_clt_encode_io(struct rcblk_wire_io *io, u8 op, u16 flags,
			 u64 sector, u32 len, u16 tag, u8 data, u32 rkey,
			 u64 addr)
{
	memset(io, 0, sizeof(*io));
	io->type = RCBLK_MSG_IO;
	io->op = op;
	io->flags = cpu_to_be16(flags);
	io->tag = cpu_to_be16(tag);
	io->data = data;
	io->sector = cpu_to_be64(sector);
	io->len = cpu_to_be32(len);
	if (rcblk_data_placed(data)) {
		io->rkey = cpu_to_be32(rkey);
		io->addr = cpu_to_be64(addr);
	}
}

static int rcblk_clt_open_errno(u16 status)
{
	switch (status) {
	case RCBLK_OPEN_NOENT:
		return -ENOENT;
	case RCBLK_OPEN_ACCES:
		return -EACCES;
	case RCBLK_OPEN_ROFS:
		return -EROFS;
	case RCBLK_OPEN_PROTO:
		return -EPROTO;
	case RCBLK_OPEN_BUSY:
		return -EBUSY;
	case RCBLK_OPEN_NOMEM:
		return -ENOMEM;
	case RCBLK_OPEN_FENCED:
		return -EAGAIN;
	case RCBLK_OPEN_LOOP:
		return -ELOOP;
	case RCBLK_OPEN_LIMIT:
		return -EUSERS;
	default:
		return -EPROTO;
	}
}

static void rcblk_clt_decode_geo(const struct rcblk_wire_open_rsp *r,
				 struct rcblk_geo *geo)
{
	memset(geo, 0, sizeof(*geo));
	geo->features = be32_to_cpu(r->features);
	geo->max_io = be32_to_cpu(r->max_io);
	geo->nr_sectors = be64_to_cpu(r->nr_sectors);
	geo->lbs = be32_to_cpu(r->lbs);
	geo->pbs = be32_to_cpu(r->pbs);
	geo->max_discard_sectors = be32_to_cpu(r->max_discard_sectors);
	geo->discard_granularity = be32_to_cpu(r->discard_granularity);
	geo->max_write_zeroes_sectors =
		be32_to_cpu(r->max_write_zeroes_sectors);
	geo->inline_max = be32_to_cpu(r->inline_max);
	geo->export_flags = be16_to_cpu(r->export_flags);
	memcpy(geo->export_id, r->export_id, RCBLK_ID_LEN);
}

/* What is wrong with an accepted answer, or NULL; rounds max_io down */
static const char *rcblk_clt_geo_bad(struct rcblk_geo *geo, u32 offered,
				     u32 max_io)
{
	if (geo->features & ~offered)
		return "features not offered";
	if (geo->lbs < 512 || geo->lbs > 4096 || !is_power_of_2(geo->lbs))
		return "bad logical block size";
	if (geo->pbs < geo->lbs || geo->pbs > 65536 ||
	    !is_power_of_2(geo->pbs))
		return "bad physical block size";
	if (!geo->nr_sectors || geo->nr_sectors > (U64_MAX >> 10) ||
	    geo->nr_sectors & ((geo->lbs >> 9) - 1))
		return "bad size";
	if (geo->max_io > max_io)
		return "max_io over the offer";
	geo->max_io &= ~(geo->lbs - 1);
	if (!geo->max_io)
		return "max_io under a block";
	if (geo->max_discard_sectors &&
	    (geo->discard_granularity < geo->lbs ||
	     geo->discard_granularity & (geo->lbs - 1)))
		return "bad discard granularity";
	return NULL;
}

/**
 * rcblk_clt_check_open_rsp() - check an OPEN_RSP and decode it
 * @buf: the message
 * @len: its bytes
 * @offered: the RCBLK_F_* the OPEN offered
 * @max_io: the max_io the OPEN offered
 * @geo: out: the decoded answer, when 0 is returned
 * @why: out: what was wrong, when -EPROTO is returned
 *
 * A refusal maps to an errno: NOENT -ENOENT, ACCES -EACCES, ROFS -EROFS,
 * PROTO -EPROTO, BUSY -EBUSY, NOMEM -ENOMEM, FENCED -EAGAIN (retry: an
 * earlier connection of the session still ends its I/O); an unknown
 * status, a short
 * or malformed message, or an answer outside what was offered -EPROTO.
 * Unknown export flags and reserved fields are ignored.
 *
 * Context: any.
 * Return: 0 when the server accepted with a sane geometry, else the
 * negative errno above.
 */
int rcblk_clt_check_open_rsp(const void *buf, size_t len, u32 offered,
			     u32 max_io, struct rcblk_geo *geo,
			     const char **why)
{
	const struct rcblk_wire_open_rsp *r = buf;
	u16 status;

	*why = "refused";
	if (len < sizeof(*r))
		*why = "short OPEN_RSP";
	else if (be32_to_cpu(r->magic) != RCBLK_WIRE_MAGIC)
		*why = "bad magic";
	else if (r->type != RCBLK_MSG_OPEN_RSP)
		*why = "not an OPEN_RSP";
	else if (r->version != RCBLK_WIRE_VERSION)
		*why = "unknown version";
	else
		*why = NULL;
	if (*why)
		return -EPROTO;
	status = be16_to_cpu(r->status);
	if (status != RCBLK_OPEN_OK) {
		*why = "refused";
		return rcblk_clt_open_errno(status);
	}
	rcblk_clt_decode_geo(r, geo);
	*why = rcblk_clt_geo_bad(geo, offered, max_io);
	return *why ? -EPROTO : 0;
}

/**
 * rcblk_clt_geo_same() - two queues of a mapping answered alike
 * @a: one answer
 * @b: another
 *
 * The features of the channel (RCBLK_F_CHAN_KNOWN) are each queue's own:
 * a server upgraded or downgraded while the mapping reconnects may grant
 * them or not, and the disk stays the same.
 *
 * Context: any.
 * Return: true when the export and everything negotiated for requests
 * are the same.
 */
bool rcblk_clt_geo_same(const struct rcblk_geo *a,
			const struct rcblk_geo *b)
{
	struct rcblk_geo x, y;

	memcpy(&x, a, sizeof(x));	/* padding and all */
	memcpy(&y, b, sizeof(y));
	x.features &= ~RCBLK_F_CHAN_KNOWN;
	y.features &= ~RCBLK_F_CHAN_KNOWN;
	return !memcmp(&x, &y, sizeof(x));
}

/*
 * ---- Server side: decoding and checking what a client sends ----
 *
 * Each function below is pure (no state, no allocation, any context) and
 * unit-tested field by field at and past its bounds.
 */
#include <linux/blk_types.h>
#include <linux/ctype.h>
#include <linux/errno.h>
#include <linux/in.h>
#include <linux/in6.h>
#include <linux/inet.h>
#include <linux/kernel.h>
#include <linux/kstrtox.h>
#include <linux/siphash.h>
#include <linux/string.h>

#include "blk_proto_srv.h"
#include "compat.h"

/**
 * rcblk_name_ok() - is @name a valid export name
 * @name: the name
 * @room: bytes @name may span, its NUL included
 *
 * Valid: 1 to @room - 1 characters of [A-Za-z0-9._-], NUL-terminated
 * within @room, and neither "." nor ".." (it names a sysfs directory).
 *
 * Context: any.
 * Return: true when valid.
 */
bool rcblk_name_ok(const char *name, size_t room)
{
	size_t i;

	for (i = 0; i < room && name[i]; i++) {
		unsigned char c = name[i];

		/* ASCII only: the kernel's isalnum() takes Latin-1 letters */
		if (!(c >= 'a' && c <= 'z') && !(c >= 'A' && c <= 'Z') &&
		    !(c >= '0' && c <= '9') && c != '.' && c != '_' &&
		    c != '-')
			return false;
	}
	if (!i || i == room)
		return false;
	return strcmp(name, ".") && strcmp(name, "..");
}

/**
 * rcblk_open_check() - decode and check an OPEN message
 * @buf: the message
 * @len: its length in bytes
 * @req: out: the decoded fields (only when the return is RCBLK_OPEN_OK)
 *
 * Checked: exact length, magic, type, version, flags within
 * RCBLK_OPEN_KNOWN, gen not zero with RCBLK_OPEN_FENCE and zero
 * without, max_io at least RCBLK_MIN_IO,
 * 1 <= nr_queues, queue < nr_queues, the name valid (rcblk_name_ok()).
 * Unknown feature bits are not an error: the answer accepts
 * only known ones (rcblk_open_features()).
 *
 * Context: any.
 * Return: RCBLK_OPEN_OK or RCBLK_OPEN_PROTO.
 */
enum rcblk_open_status rcblk_open_check(const void *buf, size_t len,
					struct rcblk_open_req *req)
{
	const struct rcblk_wire_open *w = buf;

	if (len != sizeof(*w))
		return RCBLK_OPEN_PROTO;
	if (get_unaligned_be32(&w->magic) != RCBLK_WIRE_MAGIC ||
	    w->type != RCBLK_MSG_OPEN || w->version != RCBLK_WIRE_VERSION)
		return RCBLK_OPEN_PROTO;
	if (get_unaligned_be16(&w->flags) & ~RCBLK_OPEN_KNOWN)
		return RCBLK_OPEN_PROTO;
	/* a generation with fencing, none without */
	if (!(get_unaligned_be16(&w->flags) & RCBLK_OPEN_FENCE) !=
	    !get_unaligned_be32(&w->gen))
		return RCBLK_OPEN_PROTO;
	if (get_unaligned_be32(&w->max_io) < RCBLK_MIN_IO)
		return RCBLK_OPEN_PROTO;
	if (!get_unaligned_be16(&w->nr_queues) ||
	    get_unaligned_be16(&w->queue) >= get_unaligned_be16(&w->nr_queues))
		return RCBLK_OPEN_PROTO;
	if (!rcblk_name_ok(w->name, sizeof(w->name)))
		return RCBLK_OPEN_PROTO;
	req->flags = get_unaligned_be16(&w->flags);
	req->features = get_unaligned_be32(&w->features);
	req->max_io = get_unaligned_be32(&w->max_io);
	req->queue = get_unaligned_be16(&w->queue);
	req->nr_queues = get_unaligned_be16(&w->nr_queues);
	req->gen = get_unaligned_be32(&w->gen);
	memcpy(req->session, w->session, sizeof(req->session));
	strscpy(req->name, w->name, sizeof(req->name));
	return RCBLK_OPEN_OK;
}

/**
 * rcblk_open_features() - the features a server accepts
 * @offered: RCBLK_F_* of the client's OPEN
 * @write_zeroes: the export offers WRITE_ZEROES (else NOUNMAP is moot)
 *
 * Context: any.
 * Return: @offered within RCBLK_F_KNOWN and RCBLK_F_CHAN_KNOWN, without
 * RCBLK_F_NOUNMAP when !@write_zeroes.
 */
u32 rcblk_open_features(u32 offered, bool write_zeroes)
{
	u32 f = offered & (RCBLK_F_KNOWN | RCBLK_F_CHAN_KNOWN);

	if (!write_zeroes)
		f &= ~RCBLK_F_NOUNMAP;
	return f;
}

/**
 * rcblk_fence_check() - may a connection join an export on which its
 *	session has a connection already
 * @have: the generation of a connection of the same session id on the
 *	export (with queues attached, or bios of them not yet ended); 0:
 *	one without fencing
 * @gen: the generation of the OPEN; 0: without fencing
 *
 * Generations compare as serial numbers (a later one is ahead by less
 * than 2^31), so that they may wrap.  A fencing and a non-fencing OPEN
 * of one session id never share it.
 *
 * Context: any.
 * Return: RCBLK_FENCE_JOIN for the same connection; RCBLK_FENCE_OLDER
 * when @have is older (refuse with RCBLK_OPEN_FENCED until it is gone,
 * and close it: its client moved on); RCBLK_FENCE_REFUSE otherwise (an
 * OPEN of a connection older than one the server has: its client moved
 * on past it).
 */
enum rcblk_fence rcblk_fence_check(u32 have, u32 gen)
{
	if (have == gen)
		return RCBLK_FENCE_JOIN;
	if (!have || !gen)
		return RCBLK_FENCE_REFUSE;
	return (s32)(gen - have) > 0 ? RCBLK_FENCE_OLDER : RCBLK_FENCE_REFUSE;
}

/**
 * rcblk_open_rsp_encode() - write an OPEN_RSP
 * @rsp: out: the message, every byte written
 * @status: enum rcblk_open_status
 * @geo: the export's geometry, for RCBLK_OPEN_OK; ignored (fields zero)
 *	otherwise, may then be NULL
 *
 * Context: any.
 */
void rcblk_open_rsp_encode(struct rcblk_wire_open_rsp *rsp, u16 status,
			   const struct rcblk_geo *geo)
{
	memset(rsp, 0, sizeof(*rsp));
	put_unaligned_be32(RCBLK_WIRE_MAGIC, &rsp->magic);
	rsp->type = RCBLK_MSG_OPEN_RSP;
	rsp->version = RCBLK_WIRE_VERSION;
	put_unaligned_be16(status, &rsp->status);
	if (status != RCBLK_OPEN_OK || !geo)
		return;
	put_unaligned_be32(geo->features, &rsp->features);
	put_unaligned_be32(geo->max_io, &rsp->max_io);
	put_unaligned_be64(geo->nr_sectors, &rsp->nr_sectors);
	put_unaligned_be32(geo->lbs, &rsp->lbs);
	put_unaligned_be32(geo->pbs, &rsp->pbs);
	put_unaligned_be32(geo->max_discard_sectors,
			   &rsp->max_discard_sectors);
	put_unaligned_be32(geo->discard_granularity,
			   &rsp->discard_granularity);
	put_unaligned_be32(geo->max_write_zeroes_sectors,
			   &rsp->max_write_zeroes_sectors);
	put_unaligned_be32(geo->inline_max, &rsp->inline_max);
	put_unaligned_be16(geo->export_flags, &rsp->export_flags);
	memcpy(rsp->export_id, geo->export_id, sizeof(rsp->export_id));
}

/* The flags each op may carry, beyond those accepted at OPEN */
static u16 rcblk_op_flags(u8 op)
{
	const u16 any = RCBLK_F_SYNC | RCBLK_F_META | RCBLK_F_PRIO |
			RCBLK_F_IDLE;

	switch (op) {
	case RCBLK_OP_WRITE:
	case RCBLK_OP_FLUSH:
		return any | RCBLK_F_FUA | RCBLK_F_PREFLUSH;
	case RCBLK_OP_WRITE_ZEROES:
		return any | RCBLK_F_FUA | RCBLK_F_PREFLUSH | RCBLK_F_NOUNMAP;
	default:	/* READ, DISCARD */
		return any;
	}
}

/* @sector..+@len inside the export, aligned to its logical blocks */
static enum rcblk_status rcblk_io_range(const struct rcblk_io_limits *lim,
					u64 sector, u32 len)
{
	u64 nr = len >> SECTOR_SHIFT;

	if (sector & ((lim->lbs >> SECTOR_SHIFT) - 1))
		return RCBLK_S_INVAL;
	if (sector > lim->nr_sectors || nr > lim->nr_sectors - sector)
		return RCBLK_S_RANGE;
	return RCBLK_S_OK;
}

/**
 * rcblk_io_check() - decode and check an IO request
 * @lim: what the queue accepts
 * @buf: the message
 * @len: its length in bytes
 * @req: out: the decoded header, filled in whenever @len covers one (so
 *	that a refused request can be answered with its tag)
 *
 * In order: a header (else INVAL, @req untouched: the caller cannot
 * answer it), type IO and reserved zero (INVAL), the op known (NOTSUPP),
 * flags within the accepted features (NOTSUPP) and valid for the op
 * (INVAL), the data kind and message length for the op (INVAL:
 * READ takes REMOTE, or STAGED where the queue accepted
 * RCBLK_F_READ_STAGED, with no payload; WRITE REMOTE with no payload, or
 * INLINE with exactly @len bytes after the header (over inline_max:
 * TOOBIG); the others NONE with no payload; rkey and addr zero unless
 * REMOTE or STAGED), a WRITE,
 * DISCARD or WRITE_ZEROES to a read-only queue (RO), the length
 * (READ/WRITE: non-zero (INVAL), at most max_io (TOOBIG); DISCARD and
 * WRITE_ZEROES: offered (NOTSUPP), non-zero, at most their limit
 * (TOOBIG); FLUSH: zero, its sector ignored), a multiple of the
 * logical block size (INVAL), last the range (RANGE; sector aligned:
 * INVAL).
 *
 * Context: any.
 * Return: RCBLK_S_OK or why the request is refused.
 */
enum rcblk_status rcblk_io_check(const struct rcblk_io_limits *lim,
				 const void *buf, size_t len,
				 struct rcblk_io_req *req)
{
	const struct rcblk_wire_io *w = buf;
	size_t payload;
	u64 limit;

	if (len < sizeof(*w))
		return RCBLK_S_INVAL;
	payload = len - sizeof(*w);
	req->op = w->op;
	req->data = w->data;
	req->flags = get_unaligned_be16(&w->flags);
	req->tag = get_unaligned_be16(&w->tag);
	req->sector = get_unaligned_be64(&w->sector);
	req->len = get_unaligned_be32(&w->len);
	req->rkey = get_unaligned_be32(&w->rkey);
	req->addr = get_unaligned_be64(&w->addr);

	if (w->type != RCBLK_MSG_IO || w->reserved) {
		/*
		 * Not a request: its fields mean nothing, and the refusal
		 * must not invalidate an rkey taken from them (a SEND_INV
		 * of a key the client never had breaks its channel)
		 */
		req->data = RCBLK_DATA_NONE;
		return RCBLK_S_INVAL;
	}
	if (req->op > RCBLK_OP_WRITE_ZEROES)
		return RCBLK_S_NOTSUPP;
	if (req->flags & ~lim->features)
		return RCBLK_S_NOTSUPP;
	if (req->flags & ~rcblk_op_flags(req->op))
		return RCBLK_S_INVAL;

	/* where the data is */
	switch (req->op) {
	case RCBLK_OP_READ:
		if (payload)
			return RCBLK_S_INVAL;
		if (req->data == RCBLK_DATA_STAGED &&
		    (lim->features & RCBLK_F_READ_STAGED))
			break;
		if (req->data != RCBLK_DATA_REMOTE)
			return RCBLK_S_INVAL;
		break;
	case RCBLK_OP_WRITE:
		if (req->data == RCBLK_DATA_REMOTE) {
			if (payload)
				return RCBLK_S_INVAL;
		} else if (req->data == RCBLK_DATA_INLINE) {
			if (req->len > lim->inline_max)
				return RCBLK_S_TOOBIG;
			if (payload != req->len || req->rkey || req->addr)
				return RCBLK_S_INVAL;
		} else {
			return RCBLK_S_INVAL;
		}
		break;
	default:
		if (req->data != RCBLK_DATA_NONE || payload || req->rkey ||
		    req->addr)
			return RCBLK_S_INVAL;
		break;
	}

	/* writes to a read-only queue, whatever their size */
	if (lim->ro && (req->op == RCBLK_OP_WRITE ||
			req->op == RCBLK_OP_DISCARD ||
			req->op == RCBLK_OP_WRITE_ZEROES))
		return RCBLK_S_RO;

	/* how much */
	switch (req->op) {
	case RCBLK_OP_FLUSH:
		return req->len ? RCBLK_S_INVAL : RCBLK_S_OK;
	case RCBLK_OP_DISCARD:
		limit = (u64)lim->max_discard_sectors << SECTOR_SHIFT;
		break;
	case RCBLK_OP_WRITE_ZEROES:
		limit = (u64)lim->max_write_zeroes_sectors << SECTOR_SHIFT;
		break;
	default:
		limit = lim->max_io;
		break;
	}
	if (!limit)
		return RCBLK_S_NOTSUPP;
	if (!req->len)
		return RCBLK_S_INVAL;
	if (req->len > limit)
		return RCBLK_S_TOOBIG;
	if (req->len & (lim->lbs - 1))
		return RCBLK_S_INVAL;
	return rcblk_io_range(lim, req->sector, req->len);
}

/**
 * rcblk_cidr_check() - is an allow-list entry well formed
 * @c: the entry
 *
 * AF_INET with a prefix of 0..32 or AF_INET6 with 0..128, reserved zero.
 * Bits of @c->addr past the prefix are ignored (the network is
 * addr/prefix), so are the bytes past 4 of an AF_INET entry.
 *
 * Context: any.
 * Return: 0 or -EINVAL.
 */
int rcblk_cidr_check(const struct rdmachan_blk_cidr *c)
{
	if (c->reserved)
		return -EINVAL;
	if (c->family == AF_INET)
		return c->prefix <= 32 ? 0 : -EINVAL;
	if (c->family == AF_INET6)
		return c->prefix <= 128 ? 0 : -EINVAL;
	return -EINVAL;
}

/**
 * rcblk_cidr_parse() - parse "ADDR[/PREFIX]"
 * @s: the text (need not be NUL-terminated)
 * @len: its length
 * @c: out: the entry
 *
 * ADDR is dotted IPv4 or IPv6 text; no PREFIX means the one address
 * (/32 or /128).
 *
 * Context: any.
 * Return: 0 or -EINVAL.
 */
int rcblk_cidr_parse(const char *s, size_t len, struct rdmachan_blk_cidr *c)
{
	const char *slash = memchr(s, '/', len);
	size_t alen = slash ? slash - s : len;
	char num[4];
	const char *end;
	u8 max;

	memset(c, 0, sizeof(*c));
	if (!alen)
		return -EINVAL;
	if (in4_pton(s, alen, c->addr, -1, &end) && end == s + alen) {
		c->family = AF_INET;
		max = 32;
	} else if (in6_pton(s, alen, c->addr, -1, &end) && end == s + alen) {
		c->family = AF_INET6;
		max = 128;
	} else {
		memset(c, 0, sizeof(*c));
		return -EINVAL;
	}
	c->prefix = max;
	if (slash) {
		size_t plen = len - alen - 1;

		if (!plen || plen >= sizeof(num))
			goto bad;
		memcpy(num, slash + 1, plen);
		num[plen] = '\0';
		if (num[0] == '+' || kstrtou8(num, 10, &c->prefix) ||
		    c->prefix > max)
			goto bad;
	}
	return 0;
bad:
	memset(c, 0, sizeof(*c));
	return -EINVAL;
}

/* The first @bits bits of @a and @b are equal */
static bool rcblk_prefix_eq(const u8 *a, const u8 *b, unsigned int bits)
{
	unsigned int bytes = bits / 8, rest = bits % 8;

	if (memcmp(a, b, bytes))
		return false;
	if (!rest)
		return true;
	return !((a[bytes] ^ b[bytes]) & (0xff00 >> rest));
}

/**
 * rcblk_cidr_match() - is a client's address allowed
 * @allow: the export's allow list
 * @nr_allow: its entries; 0 allows nobody
 * @sa: the client's address (AF_INET, or AF_INET6: an IPv4-mapped one
 *	is matched against the IPv4 entries as well)
 *
 * Context: any.
 * Return: true when an entry covers @sa.
 */
bool rcblk_cidr_match(const struct rdmachan_blk_cidr *allow, u32 nr_allow,
		      const struct sockaddr *sa)
{
	static const u8 v4mapped[12] = { [10] = 0xff, [11] = 0xff };
	const u8 *v4 = NULL, *v6 = NULL;
	u32 i;

	if (sa->sa_family == AF_INET) {
		v4 = (const u8 *)&((const struct sockaddr_in *)sa)->sin_addr;
	} else if (sa->sa_family == AF_INET6) {
		v6 = ((const struct sockaddr_in6 *)sa)->sin6_addr.s6_addr;
		if (!memcmp(v6, v4mapped, sizeof(v4mapped)))
			v4 = v6 + 12;
	} else {
		return false;
	}
	for (i = 0; i < nr_allow; i++) {
		const struct rdmachan_blk_cidr *c = &allow[i];

		if (rcblk_cidr_check(c))
			continue;
		if (c->family == AF_INET && v4 &&
		    rcblk_prefix_eq(c->addr, v4, c->prefix))
			return true;
		if (c->family == AF_INET6 && v6 &&
		    rcblk_prefix_eq(c->addr, v6, c->prefix))
			return true;
	}
	return false;
}

/**
 * rcblk_same_host() - are @a and @b the same host's address (any port)?
 * @a: an address (AF_INET or AF_INET6; AF_UNSPEC: nobody's)
 * @b: another
 *
 * An IPv4-mapped IPv6 address is its IPv4 address.
 *
 * Context: any.
 * Return: true when they are.
 */
bool rcblk_same_host(const struct sockaddr *a, const struct sockaddr *b)
{
	struct rdmachan_blk_cidr c = {};

	if (a->sa_family == AF_INET) {
		c.family = AF_INET;
		c.prefix = 32;
		memcpy(c.addr, &((const struct sockaddr_in *)a)->sin_addr, 4);
	} else if (a->sa_family == AF_INET6) {
		const u8 *v6 = ((const struct sockaddr_in6 *)a)->sin6_addr.s6_addr;
		static const u8 v4mapped[12] = { [10] = 0xff, [11] = 0xff };

		if (!memcmp(v6, v4mapped, sizeof(v4mapped))) {
			c.family = AF_INET;
			c.prefix = 32;
			memcpy(c.addr, v6 + 12, 4);
		} else {
			c.family = AF_INET6;
			c.prefix = 128;
			memcpy(c.addr, v6, 16);
		}
	} else {
		return false;
	}
	return rcblk_cidr_match(&c, 1, b);
}

/* ---- end of the server side ---- */

/**
 * rcblk_export_id() - the identity of an export, as OPEN_RSP carries it
 * @name: the export's name (NUL-terminated, RDMACHAN_BLK_NAME_MAX at most)
 * @dev: the backing device's dev_t
 * @diskseq: its disk's sequence number (a disk made again gets a new one)
 * @nr_sectors: its size
 * @stable: RDMACHAN_BLK_STABLE_ID: the name and size only, not @dev and
 *	@diskseq (the admin says the path names the same data after a
 *	reboot, when the disk's dev_t and sequence number may differ)
 * @id: out: RCBLK_ID_LEN bytes
 *
 * Stable: the same device exported again under the same name (an
 * unexport and export, the server module reloaded) has the same identity,
 * so a client reconnecting across that resumes; another device, a disk
 * made anew or a resized one has another, and the client refuses it.
 * With @stable, only a resized disk or another name has another.  Two
 * SipHash-2-4 values of the fields under fixed keys (not a secret: a
 * fingerprint); a stable identity hashes @dev and @diskseq as ~0, which
 * no disk has, so that it differs from every identity without it.
 *
 * Context: any.
 */
void rcblk_export_id(const char *name, u64 dev, u64 diskseq, u64 nr_sectors,
		     bool stable, u8 *id)
{
	static const siphash_key_t k0 = {{ 0x7263626c6b2d6964ULL,
					   0x2d6578706f72742dULL }};
	static const siphash_key_t k1 = {{ 0x6964656e74697479ULL,
					   0x2d7630312d726362ULL }};
	struct {
		u64 dev;
		u64 diskseq;
		u64 nr_sectors;
		char name[RDMACHAN_BLK_NAME_MAX];
	} f;
	u64 h[2];

	memset(&f, 0, sizeof(f));
	f.dev = stable ? ~0ULL : dev;
	f.diskseq = stable ? ~0ULL : diskseq;
	f.nr_sectors = nr_sectors;
	strscpy(f.name, name, sizeof(f.name));
	h[0] = siphash(&f, sizeof(f), &k0);
	h[1] = siphash(&f, sizeof(f), &k1);
	BUILD_BUG_ON(sizeof(h) != RCBLK_ID_LEN);
	memcpy(id, h, RCBLK_ID_LEN);
}
