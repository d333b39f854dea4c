/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * rdmachan_blk: wire protocol of the block channel
 *
 * Every message is a message of an rdmachan channel (module/rdmachan.h);
 * this header says what their bytes mean.  All fields are big-endian.
 * Mirrored in Documentation/blk-protocol.rst: a layout change must fail
 * the build (the static_asserts below) and change the document.
 *
 * A mapping is one channel per client hardware queue.  Each channel opens
 * with OPEN (client) and OPEN_RSP (server); then the client sends IO
 * requests and the server answers each with a reply: a zero-length
 * message whose immediate is rcblk_reply_imm(tag, status), sent with
 * RDMACHAN_SEND_INV of the request's rkey when the request had a remote
 * buffer and the channel can (rdmachan_can_send_inv()); with
 * RCBLK_F_REPLY_BATCH, further replies may follow in its payload.  A
 * READ that succeeded may be answered instead by the RDMA WRITE_WITH_IMM
 * of its data, immediate rcblk_reply_imm(tag, RCBLK_S_OK), where the
 * client offered RCBLK_OPEN_WRITE_IMM and the transport has it (not
 * iWARP); the client then invalidates a registration itself.  rdmachan's
 * server does so for a READ into the client's staging registration
 * (RCBLK_DATA_STAGED), whose reply never invalidates (the client copies
 * the data out), and for a REMOTE READ only where it cannot send with
 * invalidate.
 *
 * The nvme-rdma data path: a WRITE's data is inline after the header up
 * to OPEN_RSP.inline_max bytes, else the server pulls it with RDMA READ
 * from the client's one-I/O registration (@rkey, @addr); a READ's data
 * is pushed by the server with RDMA WRITE into that registration before
 * the reply.
 */
#ifndef RCBLK_PROTO_H
#define RCBLK_PROTO_H

#include <linux/bits.h>
#include <linux/build_bug.h>
#include <linux/errno.h>
#include <linux/minmax.h>
#include <linux/types.h>

#define RCBLK_WIRE_MAGIC	0x52424C4B	/* "RBLK" */
#define RCBLK_WIRE_VERSION	1
#define RCBLK_NAME_MAX		64	/* export names, with the NUL */
#define RCBLK_SESSION_LEN	16
#define RCBLK_ID_LEN		16

/* Default rdma_cm port of the server (parameter port; the tool uses 7470) */
#define RCBLK_DEFAULT_PORT	7471

enum rcblk_msg_type {
	RCBLK_MSG_OPEN		= 1,
	RCBLK_MSG_OPEN_RSP	= 2,
	RCBLK_MSG_IO		= 3,
};

/* rcblk_wire_io.op */
enum rcblk_op {
	RCBLK_OP_READ		= 0,
	RCBLK_OP_WRITE		= 1,
	RCBLK_OP_FLUSH		= 2,
	RCBLK_OP_DISCARD	= 3,
	RCBLK_OP_WRITE_ZEROES	= 4,
};

/*
 * rcblk_wire_io.flags: one bit per REQ_* flag the block layer gives a
 * request, negotiated at OPEN (features); the server refuses a request
 * with a bit it did not accept.
 */
#define RCBLK_F_FUA		BIT(0)	/* REQ_FUA */
#define RCBLK_F_PREFLUSH	BIT(1)	/* REQ_PREFLUSH */
#define RCBLK_F_NOUNMAP		BIT(2)	/* REQ_NOUNMAP (WRITE_ZEROES) */
#define RCBLK_F_SYNC		BIT(3)	/* REQ_SYNC */
#define RCBLK_F_META		BIT(4)	/* REQ_META */
#define RCBLK_F_PRIO		BIT(5)	/* REQ_PRIO */
#define RCBLK_F_IDLE		BIT(6)	/* REQ_IDLE */
#define RCBLK_F_KNOWN		(BIT(7) - 1)
/*
 * Features of the channel rather than of a request: bits 16 and up of
 * OPEN's and OPEN_RSP's @features, never in a request's 16-bit @flags,
 * negotiated alike (a server leaves out what it does not know).
 * RCBLK_F_REPLY_BATCH: a reply message may carry further replies in its
 * payload (rcblk_reply_batch_more()).  RCBLK_F_READ_STAGED: a READ may
 * name a buffer of the client's that stays registered for the channel's
 * life (RCBLK_DATA_STAGED), which the server never invalidates.
 */
#define RCBLK_F_REPLY_BATCH	BIT(16)
#define RCBLK_F_READ_STAGED	BIT(17)
#define RCBLK_F_CHAN_KNOWN	(RCBLK_F_REPLY_BATCH | RCBLK_F_READ_STAGED)

/* rcblk_wire_io.data: where a request's data is */
enum rcblk_data {
	RCBLK_DATA_NONE		= 0,	/* FLUSH, DISCARD, WRITE_ZEROES */
	RCBLK_DATA_INLINE	= 1,	/* WRITE: @len bytes follow the header */
	RCBLK_DATA_REMOTE	= 2,	/* the client's registration @rkey/@addr */
	/*
	 * READ (RCBLK_F_READ_STAGED): @rkey/@addr in the client's staging
	 * registration, of the channel's life: moved as REMOTE, never
	 * invalidated by the reply
	 */
	RCBLK_DATA_STAGED	= 3,
};

/* Does @data name a registration of the client's in @rkey/@addr? */
static inline bool rcblk_data_placed(u8 data)
{
	return data == RCBLK_DATA_REMOTE || data == RCBLK_DATA_STAGED;
}

/* Status of a reply (low 8 bits of its immediate) */
enum rcblk_status {
	RCBLK_S_OK		= 0,
	RCBLK_S_IOERR		= 1,	/* the backing device failed it */
	RCBLK_S_INVAL		= 2,	/* malformed request */
	RCBLK_S_RANGE		= 3,	/* outside the export */
	RCBLK_S_RO		= 4,	/* write to a read-only export/mapping */
	RCBLK_S_NOTSUPP		= 5,	/* op or flag not offered */
	RCBLK_S_TOOBIG		= 6,	/* over the negotiated max_io */
	RCBLK_S_NOSPC		= 7,	/* the backing device is full */
	RCBLK_S_RESOURCE	= 8,	/* server out of resources: retry */
	RCBLK_S_GONE		= 9,	/* the export was removed (forced) */
	RCBLK_S_REMOTE		= 10,	/* the RDMA transfer of the data failed */
};

/*
 * A reply's tag that names no request (tags are below the queue depth, at
 * most 65535): with RCBLK_S_GONE, the server's notice that the export was
 * removed (a forced unexport) before it closes the channel; the client
 * gives up the mapping instead of reconnecting.
 */
#define RCBLK_TAG_NOTICE	0xffff

/*
 * The reply's immediate: tag in the high 16 bits, status in the low 8.
 * A READ's tag is below its queue's depth, so a WRITE_WITH_IMM's leaves
 * bit 31 clear, the channel's on a queue opened with
 * &rdmachan_opts.imm_credit (rdmachan_rdma_start() refuses it set).
 */
static inline u32 rcblk_reply_imm(u16 tag, u8 status)
{
	return (u32)tag << 16 | status;
}

static inline u16 rcblk_reply_tag(u32 imm)
{
	return imm >> 16;
}

static inline u8 rcblk_reply_status(u32 imm)
{
	return imm & 0xff;
}

/*
 * Replies in one message at most, with RCBLK_F_REPLY_BATCH: the first in
 * the immediate, the others in the payload, each a __be32 of the
 * immediate's format, in the order the server answered them.  A batch
 * invalidates nothing: a reply that invalidates remotely goes alone.
 */
#define RCBLK_REPLY_BATCH_MAX	32

/**
 * rcblk_reply_batch_more() - the further replies of a reply message
 * @len: the payload's bytes
 *
 * Context: any.
 * Return: how many replies follow the immediate's, or -EPROTO when @len
 * is not a whole number of them or more than a batch holds.
 */
static inline int rcblk_reply_batch_more(u32 len)
{
	if (len % sizeof(__be32) ||
	    len / sizeof(__be32) > RCBLK_REPLY_BATCH_MAX - 1)
		return -EPROTO;
	return len / sizeof(__be32);
}

/**
 * rcblk_reply_batch_cap() - the replies a server puts in one message
 * @max_msg: the channel's largest message (rdmachan_max_msg_size())
 *
 * Context: any.
 * Return: RCBLK_REPLY_BATCH_MAX, or fewer where the client's receive
 * buffers are smaller; at least 1 (the immediate's).
 */
static inline u32 rcblk_reply_batch_cap(u32 max_msg)
{
	return min_t(u32, RCBLK_REPLY_BATCH_MAX,
		     1 + max_msg / sizeof(__be32));
}

/* rcblk_wire_open.flags */
#define RCBLK_OPEN_RO		BIT(0)	/* the client maps read-only */
/*
 * The client takes a READ's successful reply as the RDMA WRITE_WITH_IMM
 * of its data (immediate rcblk_reply_imm(tag, RCBLK_S_OK)) as well as a
 * message; it then invalidates the registration itself.
 */
#define RCBLK_OPEN_WRITE_IMM	BIT(1)
/*
 * Fencing: @session names the client's mapping for its whole life and
 * @gen (not zero) its connection, counted up by each reconnect.  The
 * server admits a connection to an export only once no bio of an
 * earlier connection of the same session can still reach the export's
 * device; until then it refuses the OPEN with RCBLK_OPEN_FENCED (and
 * closes what is left of the earlier connection), which the client
 * retries.  So a write held across a reconnect is resubmitted only once
 * the old copy of it can no longer land after a newer one.
 */
#define RCBLK_OPEN_FENCE	BIT(2)
#define RCBLK_OPEN_KNOWN	(RCBLK_OPEN_RO | RCBLK_OPEN_WRITE_IMM | \
				 RCBLK_OPEN_FENCE)

/**
 * struct rcblk_wire_open - first message of every channel of a mapping
 * @magic: RCBLK_WIRE_MAGIC
 * @type: RCBLK_MSG_OPEN
 * @version: RCBLK_WIRE_VERSION
 * @flags: RCBLK_OPEN_*
 * @features: RCBLK_F_* the client may send, and the features of the
 *	channel it takes (RCBLK_F_CHAN_KNOWN)
 * @max_io: the client's largest request in bytes
 * @queue: this channel's hardware queue index
 * @nr_queues: the mapping's channels
 * @gen: with RCBLK_OPEN_FENCE, the connection's generation (not zero);
 *	else zero
 * @session: random, the same on every channel of one mapping (with
 *	RCBLK_OPEN_FENCE: of every connection of it)
 * @name: the export, NUL-terminated
 */
struct rcblk_wire_open {
	__be32	magic;
	u8	type;
	u8	version;
	__be16	flags;
	__be32	features;
	__be32	max_io;
	__be16	queue;
	__be16	nr_queues;
	__be32	gen;
	u8	session[RCBLK_SESSION_LEN];
	char	name[RCBLK_NAME_MAX];
};

static_assert(sizeof(struct rcblk_wire_open) == 104);

/* rcblk_wire_open_rsp.status */
enum rcblk_open_status {
	RCBLK_OPEN_OK		= 0,
	RCBLK_OPEN_NOENT	= 1,	/* no such export */
	RCBLK_OPEN_ACCES	= 2,	/* the client's address is not allowed */
	RCBLK_OPEN_ROFS		= 3,	/* read-write map of a read-only export */
	RCBLK_OPEN_PROTO	= 4,	/* bad magic, version or message */
	RCBLK_OPEN_BUSY		= 5,	/* the export is going away */
	RCBLK_OPEN_NOMEM	= 6,	/* server out of memory */
	/* an earlier connection of the session may still write: retry */
	RCBLK_OPEN_FENCED	= 7,
	/* the export's device is the very disk that asks to open it */
	RCBLK_OPEN_LOOP		= 8,
	/* a queue limit of the server (module parameters) is reached */
	RCBLK_OPEN_LIMIT	= 9,
};

/* rcblk_fence_check(): may a connection of a session join an export */
enum rcblk_fence {
	RCBLK_FENCE_JOIN,	/* the same connection: join it */
	RCBLK_FENCE_OLDER,	/* an older one is there: FENCED, close it */
	RCBLK_FENCE_REFUSE,	/* a newer one, or fenced and unfenced: FENCED */
};

/* rcblk_wire_open_rsp.export_flags */
#define RCBLK_EXP_RO		BIT(0)	/* exported read-only */
#define RCBLK_EXP_ROTATIONAL	BIT(1)
#define RCBLK_EXP_WRITE_CACHE	BIT(2)	/* volatile cache: FLUSH matters */
#define RCBLK_EXP_FUA		BIT(3)	/* FUA is honoured natively */

/**
 * struct rcblk_wire_open_rsp - the server's answer to OPEN
 * @magic: RCBLK_WIRE_MAGIC
 * @type: RCBLK_MSG_OPEN_RSP
 * @version: RCBLK_WIRE_VERSION
 * @status: enum rcblk_open_status; the fields below are valid when OK
 * @features: RCBLK_F_* accepted, a subset of those offered
 * @max_io: largest request in bytes, at most the client's
 * @nr_sectors: export size in 512-byte sectors
 * @lbs: logical block size in bytes
 * @pbs: physical block size in bytes
 * @max_discard_sectors: 0: no DISCARD
 * @discard_granularity: bytes
 * @max_write_zeroes_sectors: 0: no WRITE_ZEROES
 * @inline_max: WRITEs up to this many bytes travel inline
 * @export_flags: RCBLK_EXP_*
 * @reserved: zero
 * @reserved2: zero
 * @export_id: identity of the export (rcblk_export_id(): its name, device
 *	and size, or name and size for RDMACHAN_BLK_STABLE_ID): a client
 *	reconnecting checks it is still the same one
 */
struct rcblk_wire_open_rsp {
	__be32	magic;
	u8	type;
	u8	version;
	__be16	status;
	__be32	features;
	__be32	max_io;
	__be64	nr_sectors;
	__be32	lbs;
	__be32	pbs;
	__be32	max_discard_sectors;
	__be32	discard_granularity;
	__be32	max_write_zeroes_sectors;
	__be32	inline_max;
	__be16	export_flags;
	__be16	reserved;
	__be32	reserved2;
	u8	export_id[RCBLK_ID_LEN];
};

static_assert(sizeof(struct rcblk_wire_open_rsp) == 72);

/**
 * struct rcblk_wire_io - an I/O request
 * @type: RCBLK_MSG_IO
 * @op: enum rcblk_op
 * @flags: RCBLK_F_*
 * @tag: the client's tag, echoed in the reply
 * @data: enum rcblk_data
 * @reserved: zero
 * @sector: first 512-byte sector
 * @len: bytes (a multiple of the logical block size)
 * @rkey: RCBLK_DATA_REMOTE: the client's registration
 * @addr: RCBLK_DATA_REMOTE: its address for RDMA
 */
struct rcblk_wire_io {
	u8	type;
	u8	op;
	__be16	flags;
	__be16	tag;
	u8	data;
	u8	reserved;
	__be64	sector;
	__be32	len;
	__be32	rkey;
	__be64	addr;
};

static_assert(sizeof(struct rcblk_wire_io) == 32);

/**
 * struct rcblk_geo - an export's geometry as OPEN_RSP carries it, in host
 *	order: what the server answers (rcblk_srv_geometry()) and what the
 *	client takes once rcblk_clt_check_open_rsp() passed it
 * @features: RCBLK_F_* accepted
 * @max_io: largest request in bytes, a multiple of @lbs
 * @nr_sectors: export size in 512-byte sectors
 * @lbs: logical block size
 * @pbs: physical block size
 * @max_discard_sectors: 0: no DISCARD
 * @discard_granularity: bytes
 * @max_write_zeroes_sectors: 0: no WRITE_ZEROES
 * @inline_max: the server's inline limit in bytes
 * @export_flags: RCBLK_EXP_*
 * @export_id: the export's identity
 */
struct rcblk_geo {
	u32 features;
	u32 max_io;
	u64 nr_sectors;
	u32 lbs;
	u32 pbs;
	u32 max_discard_sectors;
	u32 discard_granularity;
	u32 max_write_zeroes_sectors;
	u32 inline_max;
	u16 export_flags;
	u8 export_id[RCBLK_ID_LEN];
};

#endif /* RCBLK_PROTO_H */
