// SPDX-License-Identifier: GPL-2.0-only
/*
 * rdmachan: wire protocol encoding, decoding and validation
 *
 * Everything a peer sends is checked here before it is used: a malicious
 * or broken peer gets its connection refused or the channel failed, never
 * an out-of-bounds access.
 */
#include <linux/errno.h>
#include <linux/kernel.h>
#include <linux/stddef.h>
#include <linux/string.h>

#include "proto.h"

/**
 * rdmachan_wire_conn_encode() - build connect private data
 * @w: the buffer to fill
 * @p: the parameters to offer (request) or the negotiated ones (reply)
 */
void rdmachan_wire_conn_encode(struct rdmachan_wire_conn *w,
			       const struct rdmachan_conn_params *p)
{
	u16 version = p->version ?: RDMACHAN_WIRE_VERSION;

	memset(w, 0, sizeof(*w));
	w->magic = cpu_to_be32(RDMACHAN_WIRE_MAGIC);
	w->version = cpu_to_be16(version);
	w->queue_depth = cpu_to_be32(p->queue_depth);
	w->max_msg_size = cpu_to_be32(p->max_msg_size);
	w->features = cpu_to_be64(p->features);
	if (version >= 4)
		w->grant = cpu_to_be32(p->grant);
}

/**
 * rdmachan_wire_conn_decode() - validate and decode connect private data
 * @data: the private data received (may be NULL)
 * @len: its length; transports may pad it, so longer is accepted
 * @p: the decoded parameters
 *
 * Return: RDMACHAN_REJ_NONE when valid, else the reason to reject with.
 */
enum rdmachan_rej_reason
rdmachan_wire_conn_decode(const void *data, size_t len,
			  struct rdmachan_conn_params *p)
{
	struct rdmachan_wire_conn w;

	if (!data || len < sizeof(w))
		return RDMACHAN_REJ_BAD_MAGIC;
	memcpy(&w, data, sizeof(w));
	if (be32_to_cpu(w.magic) != RDMACHAN_WIRE_MAGIC)
		return RDMACHAN_REJ_BAD_MAGIC;
	p->version = be16_to_cpu(w.version);
	if (p->version < RDMACHAN_WIRE_VERSION_MIN ||
	    p->version > RDMACHAN_WIRE_VERSION)
		return RDMACHAN_REJ_BAD_VERSION;
	p->queue_depth = be32_to_cpu(w.queue_depth);
	p->max_msg_size = be32_to_cpu(w.max_msg_size);
	p->features = be64_to_cpu(w.features);
	p->grant = p->version >= 4 ? be32_to_cpu(w.grant) : 0;
	if (w.flags || p->queue_depth < 1 ||
	    p->queue_depth > RDMACHAN_MAX_DEPTH || p->max_msg_size < 1 ||
	    (p->version >= 4 && (p->grant < 1 || p->grant > p->queue_depth)))
		return RDMACHAN_REJ_BAD_PARAMS;
	return RDMACHAN_REJ_NONE;
}

/**
 * rdmachan_wire_rej_encode() - build rejection private data
 * @w: the buffer to fill
 * @reason: why the request is refused
 */
void rdmachan_wire_rej_encode(struct rdmachan_wire_rej *w,
			      enum rdmachan_rej_reason reason)
{
	w->magic = cpu_to_be32(RDMACHAN_WIRE_MAGIC);
	w->version = cpu_to_be16(RDMACHAN_WIRE_VERSION);
	w->reason = cpu_to_be16(reason);
}

/**
 * rdmachan_wire_rej_decode() - the reason of an rdmachan rejection
 * @data: the rejection's private data (may be NULL)
 * @len: its length
 *
 * Return: the enum rdmachan_rej_reason, or -1 when the rejection did not
 * come from an rdmachan peer (e.g. no listener on the port).
 */
int rdmachan_wire_rej_decode(const void *data, size_t len)
{
	struct rdmachan_wire_rej w;

	if (!data || len < sizeof(w))
		return -1;
	memcpy(&w, data, sizeof(w));
	if (be32_to_cpu(w.magic) != RDMACHAN_WIRE_MAGIC)
		return -1;
	return be16_to_cpu(w.reason);
}

/**
 * rdmachan_rej_reason_str() - text for a rejection reason
 * @reason: enum rdmachan_rej_reason, or -1 for a non-rdmachan rejection
 *
 * Return: a static string ("unknown reason" for one it does not know).
 */
const char *rdmachan_rej_reason_str(int reason)
{
	switch (reason) {
	case RDMACHAN_REJ_BAD_MAGIC:
		return "not an rdmachan peer";
	case RDMACHAN_REJ_BAD_VERSION:
		return "protocol version not supported";
	case RDMACHAN_REJ_BAD_PARAMS:
		return "bad channel parameters";
	case RDMACHAN_REJ_NO_RESOURCES:
		return "no resources";
	case RDMACHAN_REJ_BACKLOG:
		return "accept queue full";
	case RDMACHAN_REJ_CLOSING:
		return "listener closing";
	case RDMACHAN_REJ_BUSY:
		return "listener busy: budget of unaccepted connections spent";
	case RDMACHAN_REJ_REFUSED:
		return "peer not admitted by the listener's user";
	case -1:
		return "no rdmachan listener";
	default:
		return "unknown reason";
	}
}

/**
 * rdmachan_negotiate() - the parameters both sides of a channel use
 * @local: what this side offers
 * @remote: what the peer offered
 * @dev_max_depth: the deepest queue the device allows
 * @out: the minimum of all three; the features both offer
 */
void rdmachan_negotiate(const struct rdmachan_conn_params *local,
			const struct rdmachan_conn_params *remote,
			u32 dev_max_depth, struct rdmachan_conn_params *out)
{
	out->queue_depth = min3(local->queue_depth, remote->queue_depth,
				dev_max_depth);
	out->queue_depth = clamp_t(u32, out->queue_depth, 1, RDMACHAN_MAX_DEPTH);
	out->max_msg_size = min(local->max_msg_size, remote->max_msg_size);
	out->features = local->features & remote->features;
	/* the reply is in the request's version; its grant is the caller's */
	out->version = remote->version;
	out->grant = 0;
}

/**
 * rdmachan_wire_hdr_check() - validate a received message header
 * @h: the header, at the start of the receive buffer
 * @byte_len: bytes the receive completion reports
 * @max_msg_size: the negotiated largest payload
 *
 * Return: 0 when the header is consistent, -EPROTO otherwise.
 */
int rdmachan_wire_hdr_check(const struct rdmachan_wire_hdr *h, u32 byte_len,
			    u32 max_msg_size)
{
	/* control credits returned: the receiver checks the wire version */
	u8 flags = h->flags & ~RDMACHAN_HDR_CACK_MASK;
	u32 len, trailer = 0;

	if (byte_len < sizeof(*h))
		return -EPROTO;
	len = be32_to_cpu(h->len);
	if (flags == RDMACHAN_HDR_F_IMM && h->type == RDMACHAN_MSG_DATA)
		trailer = RDMACHAN_IMM_TRAILER;
	else if (flags == RDMACHAN_HDR_F_MORE && h->type == RDMACHAN_MSG_DATA)
		;	/* the receiver checks the feature */
	else if (flags == RDMACHAN_HDR_F_WANT &&
		 (h->type == RDMACHAN_MSG_KEEPALIVE ||
		  h->type == RDMACHAN_MSG_CREDIT))
		;	/* the receiver checks the wire version */
	else if (flags)
		return -EPROTO;
	if (byte_len - sizeof(*h) < trailer ||
	    len != byte_len - sizeof(*h) - trailer)
		return -EPROTO;
	switch (h->type) {
	case RDMACHAN_MSG_DATA:
		/* a fragment with more to come is a whole one */
		if (flags == RDMACHAN_HDR_F_MORE)
			return len == RDMACHAN_FRAG_PAYLOAD &&
			       len < max_msg_size ? 0 : -EPROTO;
		return len <= max_msg_size ? 0 : -EPROTO;
	case RDMACHAN_MSG_CREDIT:
	case RDMACHAN_MSG_KEEPALIVE:
	case RDMACHAN_MSG_CLOSE:
	case RDMACHAN_MSG_PAD:
	case RDMACHAN_MSG_RETIRE:
		return len == 0 ? 0 : -EPROTO;
	default:
		return -EPROTO;
	}
}

/**
 * rdmachan_wire_hdr_to_imm() - the immediate that carries a header
 * @h: the header, built as for the in-band format
 *
 * Return: its first four bytes (type, flags, credits) as the immediate of
 * a SEND_WITH_IMM under RDMACHAN_WIRE_F_HDR_IMM; @len is left out, the
 * receiver takes it from the byte count.
 */
__be32 rdmachan_wire_hdr_to_imm(const struct rdmachan_wire_hdr *h)
{
	__be32 imm;

	BUILD_BUG_ON(offsetof(struct rdmachan_wire_hdr, len) != sizeof(imm));
	memcpy(&imm, h, sizeof(imm));
	return imm;
}

/**
 * rdmachan_frag_count() - the DATA messages a message goes as under F_FRAG
 * @len: its payload
 *
 * Return: one per RDMACHAN_FRAG_PAYLOAD bytes or part of it, at least one
 * (the immediate trailer fits in the last: RDMACHAN_FRAG_BUF).
 */
u32 rdmachan_frag_count(u32 len)
{
	return len ? DIV_ROUND_UP(len, RDMACHAN_FRAG_PAYLOAD) : 1;
}

/**
 * rdmachan_frag_fit() - settle one side's part of F_FRAG
 * @p: the channel's parameters, its depth and largest message known
 *	(negotiated on the passive side, offered on the active one); its
 *	F_FRAG bit left set where this side's receive buffers hold a
 *	fragment, cleared otherwise
 * @rx_frags: this side's user reads messages that span buffers
 * @frag_tx: the peer's buffers hold a fragment (its request set F_FRAG):
 *	this side sends it fragments, so the largest message is lowered to
 *	what the depth's fragments hold
 *
 * Small buffers only from version 5, only where the largest message
 * spans several, and only where the depth holds its fragments (a sender
 * waits for all of a message's credits at once).
 *
 * Return: true where this side's receive buffers hold a fragment.
 */
bool rdmachan_frag_fit(struct rdmachan_conn_params *p, bool rx_frags,
		       bool frag_tx)
{
	u32 n;

	if (frag_tx &&
	    (u64)p->queue_depth * RDMACHAN_FRAG_PAYLOAD < p->max_msg_size)
		p->max_msg_size = p->queue_depth * RDMACHAN_FRAG_PAYLOAD;
	n = rdmachan_frag_count(p->max_msg_size);
	p->features &= ~RDMACHAN_WIRE_F_FRAG;
	if (!rx_frags || p->version < 5 || n == 1 || p->queue_depth < n)
		return false;
	p->features |= RDMACHAN_WIRE_F_FRAG;
	return true;
}

/**
 * rdmachan_wire_imm_check() - decode and validate a header carried in the
 *	immediate
 * @imm: the receive completion's immediate
 * @byte_len: bytes the receive completion reports (payload and trailer)
 * @max_msg_size: the negotiated largest payload
 * @h: the header rebuilt, @len included
 *
 * Return: 0 when the header is consistent, -EPROTO otherwise, exactly as
 * rdmachan_wire_hdr_check() judges the same message in the in-band format.
 */
int rdmachan_wire_imm_check(__be32 imm, u32 byte_len, u32 max_msg_size,
			    struct rdmachan_wire_hdr *h)
{
	u32 trailer = 0;

	memcpy(h, &imm, sizeof(imm));
	if ((h->flags & ~RDMACHAN_HDR_CACK_MASK) == RDMACHAN_HDR_F_IMM &&
	    h->type == RDMACHAN_MSG_DATA)
		trailer = RDMACHAN_IMM_TRAILER;
	if (byte_len < trailer || byte_len > U32_MAX - sizeof(*h))
		return -EPROTO;
	h->len = cpu_to_be32(byte_len - trailer);
	return rdmachan_wire_hdr_check(h, byte_len + sizeof(*h), max_msg_size);
}
