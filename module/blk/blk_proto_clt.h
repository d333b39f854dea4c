/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * rdmachan_blk: the client's pure helpers of the wire protocol
 * (blk_proto.c, client block): encode OPEN and IO, check OPEN_RSP; how
 * a channel's refusal reads, how many queues a mapping gets, and when a
 * queue's post runs its provider work at once.
 */
#ifndef RCBLK_PROTO_CLT_H
#define RCBLK_PROTO_CLT_H

#include <linux/errno.h>

#include "rdmachan.h"
#include "blk_proto.h"

/**
 * rcblk_clt_refusal_lost() - does a channel's refusal mean the link is lost?
 * @err: what a registration or a send of the channel returned, not
 *	-EAGAIN (no room: the request waits for it)
 * @state: the channel's state (rdmachan_get_state()) after the refusal
 *
 * A failing channel refuses with -ECONNRESET, or -ENOTCONN, while its
 * state still says CONNECTED: the state follows once its teardown has
 * drained it.  Any other refusal of a CONNECTED channel is the request's
 * own (too large, no memory) and fails it.
 *
 * Context: any.
 * Return: true when the request should wait for the link's recovery.
 */
static inline bool rcblk_clt_refusal_lost(int err, enum rdmachan_state state)
{
	return err == -ECONNRESET || err == -ENOTCONN ||
	       state != RDMACHAN_CONNECTED;
}

/**
 * rcblk_clt_queue_counts() - the hardware queues of a new mapping
 * @want: queues of the default and read maps asked for; 0: one per CPU
 * @want_poll: queues of polled I/O asked for beyond them
 * @cpus: CPUs online
 * @cpu_ids: CPU ids possible (nr_cpu_ids)
 * @max: queues a mapping may have in all
 * @poll: out: the polled queues among the result, the last ones
 *
 * Each kind at most one per possible CPU (more would map no CPU), and
 * the polled ones leave at least one of the others: a polled queue only
 * takes I/O that asked to be polled.
 *
 * Context: any.
 * Return: the queues in all, at least 1.
 */
static inline u32 rcblk_clt_queue_counts(u32 want, u32 want_poll, u32 cpus,
					 u32 cpu_ids, u32 max, u32 *poll)
{
	u32 nr = want ? want : cpus;

	*poll = min3(want_poll, cpu_ids, max - 1);
	nr = clamp(min(nr, cpu_ids), 1U, max - *poll);
	return nr + *poll;
}

/* Posts in a row that must find the mapping idle before one runs at once */
#define RCBLK_CLT_IDLE_POSTS	8

/**
 * rcblk_clt_post_now() - run a post's provider work now, or leave it?
 * @idle_posts: the queue's count of posts in a row that found no request
 *	of the mapping on the wire; updated
 * @idle: whether this post found none
 *
 * A queue's channel leaves a software provider's work for a post to the
 * next softirq run (&rdmachan_opts.post_defer), so that the posts of a
 * busy queue go out in one run.  A request alone on the wire pays for
 * it the wakeup of ksoftirqd.  Once RCBLK_CLT_IDLE_POSTS posts in a row
 * found nothing on the wire (a queue depth of 1), the next ones run that
 * work at once, until one finds a request on the wire: a stray idle post
 * under load does not switch, and one busy post switches back.
 *
 * Context: any; @idle_posts is a hint, a racing dispatch may lose a count.
 * Return: true when the post should run its provider work at once.
 */
static inline bool rcblk_clt_post_now(u8 *idle_posts, bool idle)
{
	u8 n = READ_ONCE(*idle_posts);

	n = idle ? min_t(u8, n + 1, RCBLK_CLT_IDLE_POSTS) : 0;
	WRITE_ONCE(*idle_posts, n);
	return n == RCBLK_CLT_IDLE_POSTS;
}

void rcblk_clt_encode_open(struct rcblk_wire_open *o, u16 flags, u32 features,
			   u32 max_io, u16 queue, u16 nr_queues, u32 gen,
			   const u8 *session, const char *name);
void rcblk_clt_encode_io(struct rcblk_wire_io *io, u8 op, u16 flags,
			 u64 sector, u32 len, u16 tag, u8 data, u32 rkey,
			 u64 addr);
int rcblk_clt_check_open_rsp(const void *buf, size_t len, u32 offered,
			     u32 max_io, struct rcblk_geo *geo,
			     const char **why);
bool rcblk_clt_geo_same(const struct rcblk_geo *a,
			const struct rcblk_geo *b);

#endif /* RCBLK_PROTO_CLT_H */
