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
 * @features: RCBLK_F_* the client may send
 * @max_io: the client's largest request in bytes
 * @queue: this channel's hardware queue
 * @nr_queues: the mapping's channels
 * @session: RCBLK_SESSION_LEN bytes, the same on every channel
 * @name: the export; truncated to RCBLK_NAME_MAX - 1 bytes
 *
 * Context: any.
 */
void rcblk_clt_encode_open(struct rcblk_wire_open *o, u16 flags, u32 features,
			   u32 max_io, u16 queue, u16 nr_queues,
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
 * @rkey: RCBLK_DATA_REMOTE: the registration's key, else ignored
 * @addr: RCBLK_DATA_REMOTE: its address, else ignored
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
	if (data == RCBLK_DATA_REMOTE) {
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
	default:
		return -EPROTO;
	}
}

static void rcblk_clt_decode_geo(const struct rcblk_wire_open_rsp *r,
				 struct rcblk_clt_geo *geo)
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
static const char *rcblk_clt_geo_bad(struct rcblk_clt_geo *geo, u32 offered,
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
 * PROTO -EPROTO, BUSY -EBUSY, NOMEM -ENOMEM; an unknown status, a short
 * or malformed message, or an answer outside what was offered -EPROTO.
 * Unknown export flags and reserved fields are ignored.
 *
 * Context: any.
 * Return: 0 when the server accepted with a sane geometry, else the
 * negative errno above.
 */
int rcblk_clt_check_open_rsp(const void *buf, size_t len, u32 offered,
			     u32 max_io, struct rcblk_clt_geo *geo,
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
 * Context: any.
 * Return: true when the export and everything negotiated are the same.
 */
bool rcblk_clt_geo_same(const struct rcblk_clt_geo *a,
			const struct rcblk_clt_geo *b)
{
	return !memcmp(a, b, sizeof(*a));
}
