// SPDX-License-Identifier: GPL-2.0-only
/*
 * rdmachan: the data send buffers, as many as the messages in flight
 *
 * A data send slot holds a buffer from its reservation
 * (rdmachan_sbuf_take_locked()) to its retirement
 * (rdmachan_tx_retire_locked()) only.  In between, buffers wait on the
 * channel's spare stack, the most recently used on top, so that a
 * ping-pong keeps reusing one warm buffer.  A channel that never sent
 * holds one; one that sends holds as many as it keeps in flight, at most
 * its depth; a keepalive tick that finds no reservation since the last
 * frees the spares but one (rdmachan_sbuf_idle_locked()).  As svcrdma and
 * UCX size them: by the operations in flight, not by the connections.
 *
 * A sender short of buffers allocates them before it reserves slots
 * (rdmachan_sbuf_fill(), without the lock, GFP_KERNEL when it may wait,
 * and when refused waits for one in flight to come back; one that may
 * not and finds the allocator short gets -EAGAIN, and a
 * work item allocates with GFP_KERNEL, no I/O, and calls
 * &rdmachan_ops.writable, as when a credit comes back), and maps and stacks each under the lock
 * unless the I/O stopped meanwhile: the teardown unmaps what it finds
 * after the stop (rdmachan_sbuf_unmap(), from
 * rdmachan_release_resources()), and nothing is stacked after it.  A
 * channel keeps RDMACHAN_SBUF_KEEP buffers from before its I/O starts
 * (made with the passive side's queues, and by the active side at
 * ESTABLISHED, once it knows their size), so that a sender never depends
 * on the allocator to make progress.
 *
 * A buffer that holds a fragment (RDMACHAN_FRAG_BUF: the peer's receive
 * buffers are small) is split as the receive buffers are
 * (&rdmachan_res.tx_split, rx_layout.h): an order-0 page for the payload
 * and a small &struct rdmachan_tx_wire for the header, the immediate and
 * the gather list that sends the three, so that nothing above order 0 is
 * allocated for it.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/sched/mm.h>
#include <linux/slab.h>

#include "chan_sbuf.h"
#include "chan_send.h"
#include "chan_post.h"
#include "chan_mem.h"

/* Buffers a refill from work makes at a time */
#define RDMACHAN_SBUF_REFILL	8
/*
 * Buffers a connected channel keeps whatever happens (the idle tick frees
 * none below): made before the I/O starts, so that a sender always gets
 * one back from a completion, with no allocation, as a block device's
 * writeback needs (rdmachan_post_tx_locked() signals the send that takes
 * the last spare)
 */
#define RDMACHAN_SBUF_KEEP	1

/**
 * rdmachan_sbuf_size_set() - the size of the data send buffers to make
 * @ch: the channel, no send buffer made yet
 * @size: RDMACHAN_FRAG_BUF, or the largest message's buffer
 *
 * Also decides whether they are split: those of RDMACHAN_FRAG_BUF are
 * where the device gathers a send from three pieces.
 *
 * Context: process context; rdmachan.lock held once the I/O may start.
 */
void rdmachan_sbuf_size_set(struct rdmachan *ch, u32 size)
{
	ch->res.sbuf_size = size;
	ch->res.tx_split = size == RDMACHAN_FRAG_BUF &&
			   rdmachan_ibdev(ch)->attrs.max_send_sge >=
			   RDMACHAN_RX_SPLIT_SGES;
}

/* The memory one data send buffer takes */
static long rdmachan_sbuf_bytes(const struct rdmachan *ch)
{
	if (ch->res.tx_split)
		return PAGE_SIZE +
		       kmalloc_size_roundup(sizeof(struct rdmachan_tx_wire));
	return rdmachan_buf_bytes(ch->res.sbuf_size);
}

/* A new data send buffer, not mapped; NULL when the allocator refused */
static void *rdmachan_sbuf_alloc(struct rdmachan *ch, gfp_t gfp)
{
	struct rdmachan_tx_wire *w;

	if (!ch->res.tx_split)
		return rdmachan_buf_alloc(ch->res.sbuf_size, gfp);
	w = kzalloc(sizeof(*w), gfp);
	if (!w)
		return NULL;
	w->page = (void *)__get_free_page(gfp);
	if (!w->page) {
		kfree(w);
		return NULL;
	}
	return w;
}

/* Free what rdmachan_sbuf_alloc() made, unmapped (NULL: nothing) */
static void rdmachan_sbuf_release(struct rdmachan *ch, void *buf)
{
	struct rdmachan_tx_wire *w = buf;

	if (!ch->res.tx_split) {
		rdmachan_buf_free(buf, ch->res.sbuf_size);
		return;
	}
	if (!w)
		return;
	free_page((unsigned long)w->page);
	kfree(w);
}

/* Map @buf to the device; its DMA address (of the wire bytes), 0: not */
static u64 rdmachan_sbuf_map(struct rdmachan *ch, void *buf)
{
	struct ib_device *ibdev = rdmachan_ibdev(ch);
	struct rdmachan_tx_wire *w = buf;
	u64 dma;

	if (!ch->res.tx_split) {
		dma = ib_dma_map_single(ibdev, buf, ch->res.sbuf_size,
					DMA_TO_DEVICE);
		return ib_dma_mapping_error(ibdev, dma) ? 0 : dma;
	}
	w->page_dma = ib_dma_map_page(ibdev, virt_to_page(w->page), 0,
				      RDMACHAN_FRAG_PAYLOAD, DMA_TO_DEVICE);
	if (ib_dma_mapping_error(ibdev, w->page_dma))
		return 0;
	dma = ib_dma_map_single(ibdev, w->bytes, sizeof(w->bytes),
				DMA_TO_DEVICE);
	if (!ib_dma_mapping_error(ibdev, dma))
		return dma;
	ib_dma_unmap_page(ibdev, w->page_dma, RDMACHAN_FRAG_PAYLOAD,
			  DMA_TO_DEVICE);
	return 0;
}

/* Undo rdmachan_sbuf_map(): @buf mapped at @dma */
static void rdmachan_sbuf_unmap_one(struct rdmachan *ch, void *buf, u64 dma)
{
	struct ib_device *ibdev = rdmachan_ibdev(ch);
	struct rdmachan_tx_wire *w = buf;

	if (!ch->res.tx_split) {
		ib_dma_unmap_single(ibdev, dma, ch->res.sbuf_size,
				    DMA_TO_DEVICE);
		return;
	}
	ib_dma_unmap_single(ibdev, dma, sizeof(w->bytes), DMA_TO_DEVICE);
	ib_dma_unmap_page(ibdev, w->page_dma, RDMACHAN_FRAG_PAYLOAD,
			  DMA_TO_DEVICE);
}

/**
 * rdmachan_sbuf_free_slot() - free the buffer a slot holds
 * @ch: the channel being freed
 * @tx: the slot; its buffer unmapped (rdmachan_sbuf_unmap()), or none
 *
 * Context: process context.
 */
void rdmachan_sbuf_free_slot(struct rdmachan *ch, struct rdmachan_tx *tx)
{
	rdmachan_sbuf_release(ch, tx->buf);
	tx->buf = NULL;
}

/**
 * rdmachan_sbuf_reserve() - the buffers a channel always keeps
 * @ch: the channel, its QP made, I/O not started
 *
 * Context: process context.
 * Return: 0 or -ENOMEM.
 */
int rdmachan_sbuf_reserve(struct rdmachan *ch)
{
	return rdmachan_sbuf_fill(ch, RDMACHAN_SBUF_KEEP, GFP_KERNEL);
}

/*
 * Map the new buffer @buf and stack it; @ch->lock held.  Return: false
 * when the caller keeps it (to free): the I/O stopped, the depth's worth
 * exists already (a concurrent filler), or it could not be mapped.
 */
static bool rdmachan_sbuf_push_new_locked(struct rdmachan *ch, void *buf)
{
	struct rdmachan_sbuf *sb;
	u64 dma;

	lockdep_assert_held(&ch->lock);
	if (test_bit(RDMACHAN_F_IO_STOPPED, &ch->flags) ||
	    ch->send.nr_bufs >= ch->send.depth)
		return false;
	/* the device stays until the resources go, after the stop */
	dma = rdmachan_sbuf_map(ch, buf);
	if (!dma)
		return false;
	sb = &ch->send.spare[ch->send.nr_spare++];
	sb->buf = buf;
	sb->dma = dma;
	ch->send.nr_bufs++;
	rdmachan_mem_charge(ch, rdmachan_sbuf_bytes(ch));
	return true;
}

/**
 * rdmachan_sbuf_fill() - have at least @want spare buffers, if the depth
 *	allows
 * @ch: a channel whose I/O started
 * @want: spare buffers wanted
 * @gfp: GFP_KERNEL where the caller may wait, else GFP_NOWAIT
 *
 * Concurrent fillers may each allocate; what would exceed the depth is
 * freed again.
 *
 * Context: no lock of the channel held.
 * Return: 0, or -ENOMEM when the allocator (or the mapping) refused and
 * no buffer is spare; 0 when the I/O stopped (the caller's reservation
 * finds the channel's error).
 */
int rdmachan_sbuf_fill(struct rdmachan *ch, u32 want, gfp_t gfp)
{
	struct mem_cgroup *memcg;
	unsigned long flags;
	int ret = 0;
	void *buf;

	for (;;) {
		spin_lock_irqsave(&ch->lock, flags);
		if (ch->send.nr_spare >= want ||
		    ch->send.nr_bufs >= ch->send.depth ||
		    test_bit(RDMACHAN_F_IO_STOPPED, &ch->flags))
			break;
		spin_unlock_irqrestore(&ch->lock, flags);
		memcg = rdmachan_mem_begin(ch);
		buf = rdmachan_sbuf_alloc(ch, rdmachan_gfp(ch, gfp) |
					  __GFP_NOWARN);
		rdmachan_mem_end(ch, memcg);
		if (!buf) {
			spin_lock_irqsave(&ch->lock, flags);
			if (!ch->send.nr_spare)
				ret = -ENOMEM;
			break;
		}
		spin_lock_irqsave(&ch->lock, flags);
		if (!rdmachan_sbuf_push_new_locked(ch, buf)) {
			spin_unlock_irqrestore(&ch->lock, flags);
			rdmachan_sbuf_release(ch, buf);
			spin_lock_irqsave(&ch->lock, flags);
			if (!test_bit(RDMACHAN_F_IO_STOPPED, &ch->flags) &&
			    !ch->send.nr_spare &&
			    ch->send.nr_bufs < ch->send.depth)
				ret = -ENOMEM;	/* not mapped */
			break;
		}
		spin_unlock_irqrestore(&ch->lock, flags);
	}
	spin_unlock_irqrestore(&ch->lock, flags);
	return ret;
}

/**
 * rdmachan_sbuf_fill_later() - a sender that may not wait found no buffer
 * @ch: the channel
 *
 * Marks the refusal for &rdmachan_ops.writable and has the buffers
 * allocated from work (rdmachan_sbuf_fill_work()).
 *
 * Context: any; no lock of the channel held.
 * Return: -EAGAIN, for the sender; the channel's error once it failed.
 */
int rdmachan_sbuf_fill_later(struct rdmachan *ch)
{
	unsigned long flags;
	int ret;

	spin_lock_irqsave(&ch->lock, flags);
	/* a teardown that took the wants already: its error, not -EAGAIN */
	ret = rdmachan_send_state_err(ch);
	if (!ret)
		rdmachan_want_send_locked(ch);
	spin_unlock_irqrestore(&ch->lock, flags);
	if (ret)
		return ret;
	rdmachan_get(ch);
	if (!queue_work(rdmachan_wq, &ch->send.fill_work))
		rdmachan_put(ch);
	return -EAGAIN;
}

/**
 * rdmachan_sbuf_wait_done() - may a sender that may wait, and whom the
 *	allocator refused, go on?
 * @ch: the channel
 *
 * It waits for a buffer in flight to come back: there is one, as the
 * channel keeps RDMACHAN_SBUF_KEEP, and the send that took the last
 * spare is signalled, so its completion retires it and wakes the waiter.
 *
 * Context: any; takes ch->lock.
 * Return: true when a buffer is spare or the channel failed.
 */
bool rdmachan_sbuf_wait_done(struct rdmachan *ch)
{
	unsigned long flags;
	bool ret;

	spin_lock_irqsave(&ch->lock, flags);
	ret = rdmachan_send_state_err(ch) || ch->send.nr_spare;
	spin_unlock_irqrestore(&ch->lock, flags);
	return ret;
}

/*
 * Are @n buffers spare, did the channel fail, or has it fewer than @n
 * (the keepalive tick freed some: the caller allocates again)?
 */
static bool rdmachan_sbuf_spare_n(struct rdmachan *ch, u32 n, u32 unused)
{
	unsigned long flags;
	bool ret;

	spin_lock_irqsave(&ch->lock, flags);
	ret = rdmachan_send_state_err(ch) || ch->send.nr_spare >= n ||
	      ch->send.nr_bufs < n;
	spin_unlock_irqrestore(&ch->lock, flags);
	return ret;
}

/**
 * rdmachan_sbuf_wait() - the allocator refused: wait for buffers in
 *	flight to come back
 * @ch: the channel
 * @n: buffers wanted at once
 *
 * One is always there to come back (rdmachan_sbuf_wait_done()); more
 * than one only where the channel has as many.
 *
 * Context: process context.
 * Return: 0, -ERESTARTSYS on a signal, or -ENOMEM where the channel
 * has fewer than @n buffers and the allocator refuses more.
 */
int rdmachan_sbuf_wait(struct rdmachan *ch, u32 n)
{
	unsigned long flags;
	bool enough;

	if (n <= 1)
		return rdmachan_wait(ch, rdmachan_sbuf_wait_done);
	spin_lock_irqsave(&ch->lock, flags);
	enough = ch->send.nr_bufs >= n;
	spin_unlock_irqrestore(&ch->lock, flags);
	if (!enough)
		return -ENOMEM;
	return rdmachan_wait_n(ch, rdmachan_sbuf_spare_n, n, 0);
}

/**
 * rdmachan_sbuf_fill_work() - allocate send buffers where waiting is
 *	allowed, then wake the senders and call &rdmachan_ops.writable
 * @work: &rdmachan_send_ring.fill_work
 *
 * Holds the reference rdmachan_sbuf_fill_later() took.
 *
 * Context: process context (rdmachan_wq).
 */
void rdmachan_sbuf_fill_work(struct work_struct *work)
{
	struct rdmachan *ch = container_of(work, struct rdmachan,
					   send.fill_work);
	unsigned long flags;
	unsigned int noio;
	bool writable;

	/* a block device's writeback may wait for this: no I/O to reclaim */
	noio = memalloc_noio_save();
	/* enough for a refused message of fragments too */
	rdmachan_sbuf_fill(ch, max_t(u32, RDMACHAN_SBUF_REFILL,
				     READ_ONCE(ch->send.want_least)),
			   GFP_KERNEL);
	memalloc_noio_restore(noio);
	spin_lock_irqsave(&ch->lock, flags);
	/* none made: the completion of one in flight returns one, and calls */
	writable = !rdmachan_send_state_err(ch) && ch->send.nr_spare &&
		   rdmachan_writable_due_locked(ch);
	spin_unlock_irqrestore(&ch->lock, flags);
	wake_up_all(&ch->wq);
	if (writable)
		rdmachan_call_writable(ch);
	rdmachan_put(ch);
}

/**
 * rdmachan_sbuf_take_locked() - a reserved slot takes a spare buffer
 * @ch: the channel
 * @tx: the slot, holding none
 *
 * Context: ch->lock held; a buffer is spare (the caller counted them).
 */
void rdmachan_sbuf_take_locked(struct rdmachan *ch, struct rdmachan_tx *tx)
{
	struct rdmachan_sbuf *sb = &ch->send.spare[--ch->send.nr_spare];

	lockdep_assert_held(&ch->lock);
	WARN_ON_ONCE(tx->buf);
	tx->buf = sb->buf;
	tx->dma = sb->dma;
	/* a message of fragments says otherwise (chan_frag.c) */
	tx->more = false;
}

/**
 * rdmachan_sbuf_give_locked() - a slot retired or given back: its buffer
 *	goes on top of the stack
 * @ch: the channel
 * @tx: the slot
 *
 * Context: ch->lock held.
 */
void rdmachan_sbuf_give_locked(struct rdmachan *ch, struct rdmachan_tx *tx)
{
	struct rdmachan_sbuf *sb;

	lockdep_assert_held(&ch->lock);
	if (!tx->buf)
		return;
	sb = &ch->send.spare[ch->send.nr_spare++];
	sb->buf = tx->buf;
	sb->dma = tx->dma;
	tx->buf = NULL;
	tx->dma = 0;
}

/**
 * rdmachan_sbuf_idle_locked() - the keepalive tick: free the spares of a
 *	channel that reserved nothing since the last
 * @ch: the channel, connected, its I/O not stopped
 *
 * Context: ch->lock held (unmapping and freeing do not sleep).
 */
void rdmachan_sbuf_idle_locked(struct rdmachan *ch)
{
	long size = rdmachan_sbuf_bytes(ch);
	bool freed = false;

	lockdep_assert_held(&ch->lock);
	if (ch->send.reserved != ch->send.idle_mark) {
		ch->send.idle_mark = ch->send.reserved;
		return;
	}
	while (ch->send.nr_spare && ch->send.nr_bufs > RDMACHAN_SBUF_KEEP) {
		struct rdmachan_sbuf *sb = &ch->send.spare[--ch->send.nr_spare];

		rdmachan_sbuf_unmap_one(ch, sb->buf, sb->dma);
		rdmachan_sbuf_release(ch, sb->buf);
		ch->send.nr_bufs--;
		rdmachan_mem_charge(ch, -size);
		/* a sender waiting for several allocates them again */
		freed = true;
	}
	if (freed)
		wake_up_all(&ch->wq);
}

/**
 * rdmachan_sbuf_unretired_locked() - does an idle channel hold buffers in
 *	sends that no completion retired?
 * @ch: the channel
 *
 * Only every sig_interval-th send is signalled: the last sends of a burst
 * keep their slots, and their buffers, until a later completion retires
 * them.  Idle since the last tick, the keepalive tick posts a KEEPALIVE
 * for that (rdmachan_keepalive_work()), whose completion does.
 *
 * Context: ch->lock held.
 * Return: true when idle with such sends.
 */
bool rdmachan_sbuf_unretired_locked(struct rdmachan *ch)
{
	lockdep_assert_held(&ch->lock);
	return ch->send.reserved == ch->send.idle_mark &&
	       ch->send.posted == ch->send.reserved &&
	       ch->send.completed != ch->send.posted;
}

/**
 * rdmachan_sbuf_unmap() - unmap every data send buffer; the resources go
 * @ch: the channel, its I/O stopped (nothing stacks a new buffer)
 *
 * Those in slots and those spare, in one hold of the lock: a sender
 * giving its reserved slot back (rdmachan_commit()) moves a buffer from
 * one to the other meanwhile, its DMA address with it, which is zeroed
 * here once unmapped.
 *
 * Context: process context (rdmachan_release_resources()).
 */
void rdmachan_sbuf_unmap(struct rdmachan *ch)
{
	unsigned long flags;
	void *buf;
	u64 *dma;
	u32 i;

	spin_lock_irqsave(&ch->lock, flags);
	for (i = 0; i < ch->send.depth + ch->send.nr_spare; i++) {
		if (i < ch->send.depth) {
			if (!ch->send.ring)
				continue;
			buf = ch->send.ring[i].buf;
			dma = &ch->send.ring[i].dma;
		} else {
			buf = ch->send.spare[i - ch->send.depth].buf;
			dma = &ch->send.spare[i - ch->send.depth].dma;
		}
		if (!*dma)
			continue;
		rdmachan_sbuf_unmap_one(ch, buf, *dma);
		*dma = 0;
	}
	spin_unlock_irqrestore(&ch->lock, flags);
}

/**
 * rdmachan_sbuf_free() - free the spare buffers and the stack
 * @ch: the channel being freed
 *
 * Context: process context.
 */
void rdmachan_sbuf_free(struct rdmachan *ch)
{
	u32 i;

	for (i = 0; ch->send.spare && i < ch->send.nr_spare; i++)
		rdmachan_sbuf_release(ch, ch->send.spare[i].buf);
	kvfree(ch->send.spare);
}
