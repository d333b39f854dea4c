/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * rdmachan: wire protocol of the message channel
 *
 * Connection setup carries struct rdmachan_wire_conn as rdma_cm private
 * data in both the request and the reply, and struct rdmachan_wire_rej in
 * a rejection.  Every SEND on an established channel starts with struct
 * rdmachan_wire_hdr.  All fields are big-endian.  Described in
 * Documentation/protocol.rst; the checks here are pure functions so they
 * can be unit-tested.
 */
#ifndef RDMACHAN_PROTO_H
#define RDMACHAN_PROTO_H

#include <linux/bits.h>
#include <linux/build_bug.h>
#include <linux/types.h>

#define RDMACHAN_WIRE_MAGIC	0x52434831	/* "RCH1" */
/*
 * 2: PAD (type 5); 3: features; 4: start grants (rdmachan_wire_conn.grant);
 * 5: F_FRAG says how large the writer's receive buffers are, each way;
 * 6: control messages take control credits (RDMACHAN_HDR_CACK_MASK)
 */
#define RDMACHAN_WIRE_VERSION	6
/* The oldest version served: it grants the whole depth at the start */
#define RDMACHAN_WIRE_VERSION_MIN	3

/*
 * rdmachan_wire_conn.features (RDMACHAN_WIRE_F_*: what the two modules
 * speak on the wire, not the uapi's RDMACHAN_FEAT_*, which say what this
 * module offers its users).  The passive side replies with the bits it
 * accepts, a subset of those offered; it must accept HDR_IMM whenever its
 * transport has immediate data, because the active side parses what it
 * receives in the offered format from the start.
 */
#define RDMACHAN_WIRE_F_HDR_IMM	BIT_ULL(0)	/* header in the immediate */
/*
 * Either side may send a DATA message as SEND_WITH_INV: it has no
 * immediate, so it carries its header in band (and a user immediate in
 * the trailer, RDMACHAN_HDR_F_IMM) even under HDR_IMM; the receiver tells
 * it by IB_WC_WITH_INVALIDATE.  Offered and accepted only where the
 * device does remote invalidation (IB_DEVICE_MEM_MGT_EXTENSIONS).
 */
#define RDMACHAN_WIRE_F_SEND_INV	BIT_ULL(1)
/*
 * The grant follows use: a sender may retire credits (RETIRE messages),
 * a receiver grant credits beyond those it got messages for, up to the
 * depth (credit.h).  Not offered by a side whose receive buffers are its
 * user's pages (&rdmachan_opts.rx_pages).
 */
#define RDMACHAN_WIRE_F_GROW	BIT_ULL(2)
/*
 * Version 5: the writer's receive buffers are RDMACHAN_FRAG_BUF bytes from
 * the start, so a DATA message to it whose payload is larger than
 * RDMACHAN_FRAG_PAYLOAD goes as several, each but the last flagged
 * RDMACHAN_HDR_F_MORE with a full fragment's payload; each takes a credit.
 * Each side says it for itself, the reply whatever the request said (a
 * version 5 side sends fragments whenever asked): set by a side whose
 * user reads messages that span buffers (a channel of /dev/rdmachan) and
 * whose depth holds the largest message's fragments.  The reply lowers
 * the largest message to what the depth's fragments hold when the request
 * set it.  Version 4 knew it as a feature both had to offer; it is never
 * accepted in a version 4 reply.
 */
#define RDMACHAN_WIRE_F_FRAG	BIT_ULL(3)
/*
 * The top bit of an RDMA WRITE_WITH_IMM's immediate (RDMACHAN_IMM_CREDIT)
 * returns one credit, as a message header's @credits would; the user's
 * immediate is the other 31 bits.  Offered and accepted by a side whose
 * user's immediates fit 31 bits (&rdmachan_opts.imm_credit), never on
 * iWARP (no WRITE_WITH_IMM): a request/reply user that answers with
 * WRITE_WITH_IMMs then needs no CREDIT messages, one answer returning
 * the credit its request took.
 */
#define RDMACHAN_WIRE_F_IMM_CREDIT	BIT_ULL(4)
#define RDMACHAN_WIRE_F_KNOWN	(RDMACHAN_WIRE_F_HDR_IMM | \
				 RDMACHAN_WIRE_F_SEND_INV | \
				 RDMACHAN_WIRE_F_GROW | \
				 RDMACHAN_WIRE_F_FRAG | \
				 RDMACHAN_WIRE_F_IMM_CREDIT)
/* RDMACHAN_WIRE_F_IMM_CREDIT: the immediate's bit that returns a credit */
#define RDMACHAN_IMM_CREDIT	BIT(31)

/* A fragment's payload under F_FRAG, and the buffer that holds it */
#define RDMACHAN_FRAG_PAYLOAD	4096
#define RDMACHAN_FRAG_BUF	(8 + RDMACHAN_FRAG_PAYLOAD + 4)

/*
 * Receive buffers each side posts beyond its credits, for control
 * messages (CREDIT, KEEPALIVE, CLOSE).  Before version 6 a side had each
 * kind at most once in flight, until its send completed; that does not
 * bound what waits for the peer to repost (an iWARP send completes once
 * it is on the socket).  From version 6 they are the control credits:
 * a control message takes one, and the peer returns it in the header of
 * any later message once it reposted the buffer (credit.h).
 */
#define RDMACHAN_CTRL_RECV	3

/* Largest negotiable queue depth: credits travel in a 16-bit field */
#define RDMACHAN_MAX_DEPTH	16384

/**
 * struct rdmachan_wire_conn - connect request and reply private data
 * @magic: RDMACHAN_WIRE_MAGIC
 * @version: RDMACHAN_WIRE_VERSION
 * @flags: zero
 * @queue_depth: request: receive buffers the requester offers (the
 *	credits it grants); reply: the negotiated depth both sides use
 * @max_msg_size: request: largest message the requester accepts; reply:
 *	the negotiated largest message
 * @features: request: RDMACHAN_WIRE_F_* offered; reply: those accepted
 * @grant: version 4: data receive buffers the writer posted for the other
 *	side at the start, the credits the other side starts with (1 to
 *	@queue_depth; the receiver grants more as they are used, up to the
 *	depth: credit.h); version 3: zero, and the whole depth is granted
 * @reserved: zero
 *
 * The reply is in the version of the request; a version this side does not
 * serve is rejected with RDMACHAN_REJ_BAD_VERSION.
 */
struct rdmachan_wire_conn {
	__be32 magic;
	__be16 version;
	__be16 flags;
	__be32 queue_depth;
	__be32 max_msg_size;
	__be64 features;
	__be32 grant;
	__be32 reserved;
};

/* Documentation/protocol.rst: a layout change must fail the build */
static_assert(sizeof(struct rdmachan_wire_conn) == 32);

/* Why a connection request was refused: rdmachan_wire_rej.reason */
enum rdmachan_rej_reason {
	RDMACHAN_REJ_NONE		= 0,
	RDMACHAN_REJ_BAD_MAGIC		= 1,	/* not an rdmachan peer */
	RDMACHAN_REJ_BAD_VERSION	= 2,	/* protocol version unsupported */
	RDMACHAN_REJ_BAD_PARAMS		= 3,	/* depth or size out of range */
	RDMACHAN_REJ_NO_RESOURCES	= 4,	/* out of memory or QP resources */
	RDMACHAN_REJ_BACKLOG		= 5,	/* listener's accept queue full */
	RDMACHAN_REJ_CLOSING		= 6,	/* listener is closing */
	/* the listener's budget for connections not yet accepted is spent */
	RDMACHAN_REJ_BUSY		= 7,
	/* the listener's user does not admit this peer (its admit callback) */
	RDMACHAN_REJ_REFUSED		= 8,
};

/**
 * struct rdmachan_wire_rej - private data of a rejection
 * @magic: RDMACHAN_WIRE_MAGIC
 * @version: RDMACHAN_WIRE_VERSION
 * @reason: enum rdmachan_rej_reason
 */
struct rdmachan_wire_rej {
	__be32 magic;
	__be16 version;
	__be16 reason;
};

static_assert(sizeof(struct rdmachan_wire_rej) == 8);

/* rdmachan_wire_hdr.type */
enum rdmachan_msg_type {
	RDMACHAN_MSG_DATA	= 1,	/* a user message of @len bytes follows */
	RDMACHAN_MSG_CREDIT	= 2,	/* only returns credits */
	RDMACHAN_MSG_KEEPALIVE	= 3,	/* liveness probe; the RC ACK answers */
	RDMACHAN_MSG_CLOSE	= 4,	/* orderly close: nothing follows */
	RDMACHAN_MSG_PAD	= 5,	/* withdrawn slot: credit, no data */
	/* F_GROW: takes a credit and its buffer for good, no data */
	RDMACHAN_MSG_RETIRE	= 6,
};

/*
 * rdmachan_wire_hdr.flags of a DATA message: its 32-bit immediate travels
 * in band, big-endian, in the 4 bytes after the payload.  Used by senders
 * whose transport has no SEND_WITH_IMM (iWARP); receivers accept both.
 */
#define RDMACHAN_HDR_F_IMM	0x01
/*
 * rdmachan_wire_hdr.flags of a KEEPALIVE or CREDIT message, wire version 4
 * only: the sender waits for more credits than the peer granted it (a
 * one-sided request whose WRITE_WITH_IMMs take several): the peer grows
 * its grant to the depth, whatever its peer has out with it.
 */
#define RDMACHAN_HDR_F_WANT	0x02
/*
 * rdmachan_wire_hdr.flags of a DATA message under F_FRAG: more of the
 * message follows in the next DATA message (control messages may come
 * between).  Its payload is RDMACHAN_FRAG_PAYLOAD bytes exactly, without
 * an immediate: that travels with the last fragment.
 */
#define RDMACHAN_HDR_F_MORE	0x04
#define RDMACHAN_IMM_TRAILER	4
/*
 * rdmachan_wire_hdr.flags of any message, wire version 6: how many of the
 * peer's control messages the sender has reposted the receive buffers of
 * since it last said so (0 to RDMACHAN_CTRL_RECV), beside the flags above
 */
#define RDMACHAN_HDR_CACK_SHIFT	3
#define RDMACHAN_HDR_CACK_MASK	(0x3 << RDMACHAN_HDR_CACK_SHIFT)
static_assert(RDMACHAN_CTRL_RECV <=
	      RDMACHAN_HDR_CACK_MASK >> RDMACHAN_HDR_CACK_SHIFT);

/**
 * struct rdmachan_wire_hdr - header of every SEND
 *
 * With RDMACHAN_WIRE_F_HDR_IMM the header is not in the message: every SEND
 * is a SEND_WITH_IMM whose immediate holds the first four bytes (@type,
 * @flags, @credits), and @len is the received byte count less the
 * immediate trailer.  A user's immediate then travels in band (F_IMM).
 *
 * @type: enum rdmachan_msg_type
 * @flags: RDMACHAN_HDR_F_IMM or RDMACHAN_HDR_F_MORE (DATA only),
 *	RDMACHAN_HDR_F_WANT (KEEPALIVE and CREDIT only) or zero; from
 *	version 6 with control credits returned in RDMACHAN_HDR_CACK_MASK
 * @credits: receive buffers the sender has reposted since it last said so
 * @len: payload bytes after the header (0 for control messages)
 */
struct rdmachan_wire_hdr {
	u8	type;
	u8	flags;
	__be16	credits;
	__be32	len;
};

static_assert(sizeof(struct rdmachan_wire_hdr) == 8);

/**
 * struct rdmachan_conn_params - negotiated or requested channel parameters
 * @queue_depth: credits (receive buffers for data) per direction
 * @max_msg_size: largest message payload in bytes
 * @features: RDMACHAN_WIRE_F_* bits
 * @version: the wire version (RDMACHAN_WIRE_VERSION_MIN to
 *	RDMACHAN_WIRE_VERSION); 0 to encode RDMACHAN_WIRE_VERSION
 * @grant: version 4: the writer's start grant (rdmachan_wire_conn.grant);
 *	0 in version 3
 */
struct rdmachan_conn_params {
	u32 queue_depth;
	u32 max_msg_size;
	u64 features;
	u16 version;
	u32 grant;
};

void rdmachan_wire_conn_encode(struct rdmachan_wire_conn *w,
			       const struct rdmachan_conn_params *p);
enum rdmachan_rej_reason
rdmachan_wire_conn_decode(const void *data, size_t len,
			  struct rdmachan_conn_params *p);
void rdmachan_wire_rej_encode(struct rdmachan_wire_rej *w,
			      enum rdmachan_rej_reason reason);
int rdmachan_wire_rej_decode(const void *data, size_t len);
const char *rdmachan_rej_reason_str(int reason);
void rdmachan_negotiate(const struct rdmachan_conn_params *local,
			const struct rdmachan_conn_params *remote,
			u32 dev_max_depth, struct rdmachan_conn_params *out);
int rdmachan_wire_hdr_check(const struct rdmachan_wire_hdr *h, u32 byte_len,
			    u32 max_msg_size);
__be32 rdmachan_wire_hdr_to_imm(const struct rdmachan_wire_hdr *h);
u32 rdmachan_frag_count(u32 len);
bool rdmachan_frag_fit(struct rdmachan_conn_params *p, bool rx_frags,
		       bool frag_tx);
int rdmachan_wire_imm_check(__be32 imm, u32 byte_len, u32 max_msg_size,
			    struct rdmachan_wire_hdr *h);

#endif /* RDMACHAN_PROTO_H */
