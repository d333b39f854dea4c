// SPDX-License-Identifier: GPL-2.0-only
/*
 * rdmachan: messages that span receive buffers (RDMACHAN_WIRE_F_FRAG)
 *
 * Under F_FRAG a side's message buffers are RDMACHAN_FRAG_BUF bytes
 * whatever the largest message, as RDS fragments its messages into pages:
 * a receive buffer, which the peer may fill with any message, no longer
 * has to hold the largest one, so an idle channel's buffers cost a page
 * each (chan_rxbuf.c) rather than max_msg_size.  A message of more than
 * RDMACHAN_FRAG_PAYLOAD bytes goes as several DATA messages, each but
 * the last flagged RDMACHAN_HDR_F_MORE and full:
 *
 * - the sender reserves the message's slots (and credits) at once, so its
 *   fragments follow each other in the ring and on the wire: no other
 *   DATA, PAD, RETIRE or WRITE_WITH_IMM comes between, control messages
 *   may (rdmachan_send_frags());
 * - the receiver chains the fragments' buffers behind the first
 *   (&rdmachan_rx.next) and queues the message when the last arrives;
 *   its reader copies it out across them (rdmachan_msg_copy_to_iter()),
 *   and releasing it reposts every buffer, each fragment's credit owed
 *   back (chan_recv.c).
 *
 * Each side says in its connect private data whether its own buffers are
 * small (wire version 5): a side whose user reads that way
 * (&rdmachan_opts.rx_frags: /dev/rdmachan's channels) and whose depth
 * holds the largest message's fragments makes them small from the start,
 * before it connects or accepts, and the other sends it fragments whatever
 * its own buffers are (rdmachan_frag_setup(); &rdmachan_conn.frag_rx and
 * .frag_tx).  So the connecting side's first buffers are small too, and a
 * kernel user that reads whole buffers may serve a /dev/rdmachan peer.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/uio.h>

#include "rdmachan-pri.h"
#include "chan_frag.h"
#include "chan_send.h"
#include "chan_sbuf.h"

static_assert(RDMACHAN_HDR_LEN + RDMACHAN_FRAG_PAYLOAD + RDMACHAN_IMM_TRAILER ==
	      RDMACHAN_FRAG_BUF);

/**
 * rdmachan_frag_setup() - are this side's buffers small, and what size
 *	are they?
 * @ch: the channel, its depth sized to the device (rdmachan_setup_resources())
 *
 * Settles &rdmachan_conn.frag_rx and the F_FRAG bit this side writes
 * (rdmachan_frag_fit()): on the passive side the request's F_FRAG
 * (&rdmachan_conn.frag_tx) may lower the largest message first.
 *
 * Context: process context, before the buffers are made.
 * Return: the size of the channel's receive buffers: RDMACHAN_FRAG_BUF
 * where they are small, else the largest message's.
 */
u32 rdmachan_frag_setup(struct rdmachan *ch)
{
	struct rdmachan_conn_params *p = &ch->conn.params;
	u32 full;

	ch->conn.frag_rx = rdmachan_frag_fit(p, ch->opts.rx_frags,
					     ch->conn.frag_tx);
	full = RDMACHAN_HDR_LEN + p->max_msg_size + RDMACHAN_IMM_TRAILER;
	rdmachan_sbuf_size_set(ch, ch->conn.frag_tx ? RDMACHAN_FRAG_BUF : full);
	return ch->conn.frag_rx ? RDMACHAN_FRAG_BUF : full;
}

/**
 * rdmachan_frag_adopt() - the passive side's buffers are small: make the
 *	send buffers small
 * @ch: the active channel, established, its I/O not started and its send
 *	buffers not yet made (rdmachan_sbuf_reserve() makes them after)
 *
 * Context: process context (the rdma_cm handler).
 */
void rdmachan_frag_adopt(struct rdmachan *ch)
{
	unsigned long flags;

	spin_lock_irqsave(&ch->lock, flags);
	ch->conn.frag_tx = true;
	rdmachan_sbuf_size_set(ch, RDMACHAN_FRAG_BUF);
	spin_unlock_irqrestore(&ch->lock, flags);
}

/**
 * rdmachan_frag_rx_locked() - a DATA fragment arrived: chain it
 * @ch: the channel
 * @rx: its buffer, &rdmachan_rx.msg filled in for this fragment alone
 * @more: it is flagged RDMACHAN_HDR_F_MORE
 * @first: the message's first buffer, when it is whole
 *
 * Context: ch->lock held; the receive completion.
 * Return: 0 with *@first the whole message, 1 while more is to come, or
 * -EPROTO: a fragment without F_FRAG, an invalidation or immediate on one
 * with more to come, or a message over the largest.
 */
int rdmachan_frag_rx_locked(struct rdmachan *ch, struct rdmachan_rx *rx,
			    bool more, struct rdmachan_rx **first)
{
	struct rdmachan_rx *head = ch->recv.asm_first;

	lockdep_assert_held(&ch->lock);
	if (!ch->conn.frag_rx ||
	    (more && (rx->msg.invalidated || rx->msg.has_imm)))
		return -EPROTO;
	if (!head) {
		ch->recv.asm_first = rx;
		ch->recv.asm_last = rx;
		return 1;
	}
	/* each is at most RDMACHAN_FRAG_PAYLOAD: no wrap */
	if (rx->msg.invalidated ||
	    head->msg.len + rx->msg.frag_len > ch->conn.params.max_msg_size)
		return -EPROTO;
	ch->recv.asm_last->next = rx;
	ch->recv.asm_last = rx;
	head->msg.len += rx->msg.frag_len;
	if (more)
		return 1;
	head->msg.has_imm = rx->msg.has_imm;
	head->msg.imm = rx->msg.imm;
	ch->recv.asm_first = NULL;
	ch->recv.asm_last = NULL;
	*first = head;
	return 0;
}

/**
 * rdmachan_msg_copy_to_iter() - copy a received message out whole
 * @msg: a message from &rdmachan_ops.recv or rdmachan_recv(), held
 * @to: where to: room for &rdmachan_msg.len bytes
 *
 * Across the buffers it spans with &rdmachan_opts.rx_frags, from
 * &rdmachan_msg.data otherwise.
 *
 * Context: as @to allows (user memory: process context, may fault).
 * Return: bytes copied: &rdmachan_msg.len, or fewer where @to faulted or
 * ran out.
 */
size_t rdmachan_msg_copy_to_iter(const struct rdmachan_msg *msg,
				 struct iov_iter *to)
{
	const struct rdmachan_rx *rx = container_of(msg, struct rdmachan_rx,
						    msg);
	size_t done = 0, n;

	for (; rx; rx = rx->next) {
		n = copy_to_iter(rx->msg.data, rx->msg.frag_len, to);
		done += n;
		if (n != rx->msg.frag_len)
			break;
	}
	return done;
}
EXPORT_SYMBOL_GPL(rdmachan_msg_copy_to_iter);

/* A copy of @len bytes at @off of the message into @dst; 0 or -EFAULT */
typedef int (*rdmachan_frag_copy_t)(void *arg, void *dst, size_t off,
				    size_t len);

static int rdmachan_frag_copy_iter(void *arg, void *dst, size_t off,
				   size_t len)
{
	return copy_from_iter(dst, len, arg) == len ? 0 : -EFAULT;
}

struct rdmachan_frag_sg {
	struct scatterlist *sgl;
	unsigned int nents;
};

static int rdmachan_frag_copy_sg(void *arg, void *dst, size_t off,
				 size_t len)
{
	struct rdmachan_frag_sg *s = arg;

	return sg_pcopy_to_buffer(s->sgl, s->nents, dst, len, off) == len ?
	       0 : -EFAULT;
}

/*
 * Send a message of @len bytes that spans fragments: its slots reserved
 * at once, each filled from @copy, all posted together or, when a copy
 * faults, none (given back, or PAD messages).
 */
static int rdmachan_send_frags(struct rdmachan *ch, size_t len, u32 imm,
			       unsigned int flags, rdmachan_frag_copy_t copy,
			       void *arg)
{
	u32 k, i, n;
	u64 first;
	int ret;

	if (len > ch->conn.params.max_msg_size)
		return -EMSGSIZE;
	k = rdmachan_frag_count(len);
	ret = rdmachan_reserve_all(ch, k, flags & RDMACHAN_SEND_NONBLOCK,
				   &first);
	if (ret < 0)
		return ret;
	for (i = 0; i < k; i++) {
		struct rdmachan_tx *tx = rdmachan_tx_slot(ch, first + i);
		size_t off = (size_t)i * RDMACHAN_FRAG_PAYLOAD;

		n = min_t(size_t, len - off, RDMACHAN_FRAG_PAYLOAD);
		tx->len = n;
		tx->more = i + 1 < k;
		tx->imm = imm;
		tx->has_imm = !tx->more && (flags & RDMACHAN_SEND_IMM);
		tx->solicited = !tx->more && (flags & RDMACHAN_SEND_SOLICITED);
		tx->send_inv = false;
		tx->nr_regs = 0;
		if (copy(arg, rdmachan_tx_data(ch, tx), off, n))
			break;
	}
	ret = rdmachan_commit(ch, first, k, i == k ? k : 0);
	if (i < k)
		return -EFAULT;
	if (ret)
		return ret;
	atomic64_inc(&ch->stats[RDMACHAN_STAT_msgs_tx]);
	atomic64_add(len, &ch->stats[RDMACHAN_STAT_bytes_tx]);
	return 0;
}

/**
 * rdmachan_send_frags_iter() - rdmachan_send_iter() of a message that
 *	spans fragments (rdmachan_frags() > 1)
 * @ch: the channel
 * @from: the message
 * @imm: its immediate, with RDMACHAN_SEND_IMM
 * @flags: RDMACHAN_SEND_*
 *
 * Return: as rdmachan_send_iter().
 */
int rdmachan_send_frags_iter(struct rdmachan *ch, struct iov_iter *from,
			     u32 imm, unsigned int flags)
{
	return rdmachan_send_frags(ch, iov_iter_count(from), imm, flags,
				   rdmachan_frag_copy_iter, from);
}

/**
 * rdmachan_send_frags_sg() - rdmachan_send_sg() of a message that spans
 *	fragments
 * @ch: the channel
 * @sgl: the message's pages
 * @nents: entries of @sgl
 * @len: its bytes
 * @imm: its immediate, with RDMACHAN_SEND_IMM
 * @flags: RDMACHAN_SEND_*
 *
 * Return: as rdmachan_send_sg().
 */
int rdmachan_send_frags_sg(struct rdmachan *ch, struct scatterlist *sgl,
			   unsigned int nents, size_t len, u32 imm,
			   unsigned int flags)
{
	struct rdmachan_frag_sg s = { .sgl = sgl, .nents = nents };

	return rdmachan_send_frags(ch, len, imm, flags, rdmachan_frag_copy_sg,
				   &s);
}

/**
 * rdmachan_send_each() - rdmachan_send_msgs() where a message spans
 *	fragments: one message at a time
 * @ch: the channel
 * @msgs: the messages
 * @count: how many
 * @imm: every message's immediate, with RDMACHAN_SEND_IMM
 * @flags: RDMACHAN_SEND_*; the first may wait, as @flags says, the
 *	others go only where there is room now
 *
 * Return: messages sent, or a negative errno when none was.
 */
int rdmachan_send_each(struct rdmachan *ch, const struct kvec *msgs,
		       unsigned int count, u32 imm, unsigned int flags)
{
	unsigned int i, f = flags & ~RDMACHAN_SEND_SOLICITED;
	int ret = 0;

	for (i = 0; i < count; i++) {
		/* the last message of the batch raises the solicited event */
		if (i + 1 == count)
			f |= flags & RDMACHAN_SEND_SOLICITED;
		ret = rdmachan_send(ch, &msgs[i], 1, imm, f);
		if (ret)
			break;
		f |= RDMACHAN_SEND_NONBLOCK;
	}
	return i ? i : ret;
}
