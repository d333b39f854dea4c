// SPDX-License-Identifier: GPL-2.0-only
/*
 * rdmachan: the file descriptor of a channel
 *
 * write() sends one message, read() receives one (too small a buffer:
 * EMSGSIZE, the message stays queued), poll() reports readable, writable
 * (a credit is free), hang-up and error; O_NONBLOCK applies to these and
 * to the message ioctls, not to one-sided calls, which wait for send
 * queue room (Documentation/rdma.rst) and, when synchronous, for their
 * end.
 * ioctls send with an immediate, receive with the immediate and length,
 * batch many messages in one call, and report the channel's state and
 * counters.  Closing the last reference closes the channel.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/file.h>
#include <linux/fs.h>
#include <linux/module.h>
#include <linux/poll.h>
#include <linux/slab.h>
#include <linux/uaccess.h>
#include <linux/uio.h>

#include <linux/rdmachan.h>

#include "bench.h"
#include "rdmachan-pri.h"
#include "chan_frag.h"
#include "chan_send.h"
#include "device.h"
#include "ioctl.h"

static int rdmachan_chan_release(struct inode *inode, struct file *file)
{
	struct rdmachan *ch = file->private_data;

	rdmachan_get(ch);
	/*
	 * Close first: its teardown destroys the QP (the rkeys die with
	 * it), ends every one-sided call (also those the transport never
	 * completed) and releases the registrations' pages.  Deregistering
	 * before it would wait, holding mr.mutex, for calls that only the
	 * teardown can end, while the teardown waits for mr.mutex.
	 */
	rdmachan_close(ch);
	/* torn down: what is left of the registrations is their handles */
	rdmachan_mr_dereg_all(ch);
	/* ... and every asynchronous call has ended */
	rdmachan_rdma_reap_release(ch);
	rdmachan_put(ch);
	return 0;
}

/* Copy @msg whole to @buf (room for it): 0 or -EFAULT */
static int rdmachan_msg_copy_to_user(void __user *buf,
				     const struct rdmachan_msg *msg)
{
	struct iov_iter to;

	iov_iter_ubuf(&to, READ, buf, msg->len);
	return rdmachan_msg_copy_to_iter(msg, &to) == msg->len ? 0 : -EFAULT;
}

static ssize_t rdmachan_chan_read(struct file *file, char __user *buf,
				  size_t count, loff_t *ppos)
{
	struct rdmachan *ch = file->private_data;
	struct rdmachan_rx *rx;
	ssize_t ret;

	if (mutex_lock_interruptible(&ch->recv.read_mutex))
		return -ERESTARTSYS;
	ret = rdmachan_rx_wait_take(ch, file->f_flags & O_NONBLOCK, &rx);
	if (ret <= 0)
		goto out;
	if (rx->msg.len > count) {
		ret = -EMSGSIZE;
		rdmachan_rx_untake(ch, rx);
	} else if (rdmachan_msg_copy_to_user(buf, &rx->msg)) {
		ret = -EFAULT;
		rdmachan_rx_untake(ch, rx);
	} else {
		ret = rx->msg.len;
		rdmachan_msg_release(ch, &rx->msg);
	}
out:
	mutex_unlock(&ch->recv.read_mutex);
	return ret;
}

static ssize_t rdmachan_chan_write_iter(struct kiocb *iocb,
					struct iov_iter *from)
{
	struct rdmachan *ch = iocb->ki_filp->private_data;
	size_t len = iov_iter_count(from);
	unsigned int flags = 0;
	int ret;

	if (!len)
		return 0;
	if ((iocb->ki_flags & IOCB_NOWAIT) ||
	    (iocb->ki_filp->f_flags & O_NONBLOCK))
		flags |= RDMACHAN_SEND_NONBLOCK;
	ret = rdmachan_send_iter(ch, from, 0, flags);
	return ret ?: len;
}

static __poll_t rdmachan_chan_events(struct rdmachan *ch)
{
	__poll_t mask = 0;

	rdmachan_poll(ch, -1);
	if (rdmachan_writable(ch))
		mask |= EPOLLOUT | EPOLLWRNORM;
	if (rdmachan_readable(ch))
		mask |= EPOLLIN | EPOLLRDNORM;
	if (rdmachan_rdma_reapable(ch))
		mask |= EPOLLPRI;
	mask |= rdmachan_state_poll_events(READ_ONCE(ch->state));
	return mask;
}

/*
 * poll(), select() and epoll see the same: the events as they are now.
 * A RDMACHAN_POLL_DIRECT channel's completions are processed right here
 * (nobody else polls its queue); when nothing the caller waits for is
 * there, the queue is armed so that its next completion wakes ch->wq,
 * and the caller's next look (poll's next round, epoll's callback)
 * processes it.  No busy spinning: a busy poller is read() or write().
 */
static __poll_t rdmachan_chan_poll(struct file *file, poll_table *wait)
{
	struct rdmachan *ch = file->private_data;
	__poll_t want = poll_requested_events(wait) | EPOLLERR | EPOLLHUP;
	__poll_t mask;

	poll_wait(file, &ch->wq, wait);
	mask = rdmachan_chan_events(ch);
	if ((mask & want) || ch->opts.poll_mode != RDMACHAN_POLL_DIRECT)
		return mask;
	/* what completed between the look and the arming: look again */
	if (rdmachan_poll_arm(ch))
		mask = rdmachan_chan_events(ch);
	return mask;
}

/*
 * The argument of @ioc (SEND, SENDMMSG, RECV, RECVMMSG; @single: one
 * message) into @mm, checked, and a copy of its messages.  Return: the
 * copy, to be kfree()d, or an ERR_PTR.
 */
static struct rdmachan_user_msg *rdmachan_mmsg_get(const char *ioc,
						   void __user *uarg,
						   struct rdmachan_mmsg *mm,
						   bool single)
{
	int ret;

	if (copy_from_user(mm, uarg, sizeof(*mm)))
		return ERR_PTR(-EFAULT);
	ret = rdmachan_check_mmsg(ioc, mm, single);
	if (ret)
		return ERR_PTR(ret);
	return memdup_user(u64_to_user_ptr(mm->msgs),
			   array_size(mm->count, sizeof(struct rdmachan_user_msg)));
}

struct rdmachan_send_ctx {
	const struct rdmachan_user_msg *msgs;
};

static int rdmachan_fill_user(struct rdmachan *ch, struct rdmachan_tx *tx,
			      u32 i, void *arg)
{
	const struct rdmachan_user_msg *m = &((struct rdmachan_send_ctx *)arg)->msgs[i];

	tx->len = m->len;
	tx->imm = m->imm;
	tx->has_imm = m->flags & RDMACHAN_MSG_IMM;
	tx->solicited = m->flags & RDMACHAN_MSG_SOLICITED;
	if (copy_from_user(rdmachan_tx_data(ch, tx), u64_to_user_ptr(m->buf),
			   m->len))
		return -EFAULT;
	return 0;
}

/*
 * SEND and SENDMMSG where a message spans fragments: one at a time, the
 * first waiting as @nonblock says, the others only where there is room.
 * Return: messages sent, or a negative errno when none was.
 */
static long rdmachan_send_user_each(struct rdmachan *ch,
				    const struct rdmachan_user_msg *msgs,
				    u32 count, bool nonblock)
{
	unsigned int flags = nonblock ? RDMACHAN_SEND_NONBLOCK : 0;
	struct iov_iter from;
	long ret = 0;
	u32 i;

	for (i = 0; i < count; i++) {
		const struct rdmachan_user_msg *m = &msgs[i];

		iov_iter_ubuf(&from, WRITE, u64_to_user_ptr(m->buf), m->len);
		ret = rdmachan_send_iter(ch, &from, m->imm, flags |
					 ((m->flags & RDMACHAN_MSG_IMM) ?
					  RDMACHAN_SEND_IMM : 0) |
					 ((m->flags & RDMACHAN_MSG_SOLICITED) ?
					  RDMACHAN_SEND_SOLICITED : 0));
		if (ret)
			break;
		flags |= RDMACHAN_SEND_NONBLOCK;
	}
	return i ? i : ret;
}

static long rdmachan_ioc_send(struct rdmachan *ch, struct file *file,
			      void __user *uarg, bool single)
{
	const char *ioc = single ? "SEND" : "SENDMMSG";
	struct rdmachan_send_ctx ctx;
	struct rdmachan_user_msg *msgs;
	struct rdmachan_mmsg mm;
	bool nonblock;
	long ret;
	u32 i;

	msgs = rdmachan_mmsg_get(ioc, uarg, &mm, single);
	if (IS_ERR(msgs))
		return PTR_ERR(msgs);
	for (i = 0; i < mm.count; i++) {
		ret = rdmachan_check_user_msg(ioc, &msgs[i], i);
		if (ret)
			goto out;
		if (msgs[i].len > rdmachan_max_msg_size(ch)) {
			ret = -EMSGSIZE;
			goto out;
		}
	}
	nonblock = (mm.flags & RDMACHAN_MSG_DONTWAIT) ||
		   (file->f_flags & O_NONBLOCK);
	ctx.msgs = msgs;
	for (i = 0; i < mm.count; i++)
		if (rdmachan_frags(ch, msgs[i].len) > 1)
			break;
	if (i < mm.count)
		ret = rdmachan_send_user_each(ch, msgs, mm.count, nonblock);
	else
		ret = rdmachan_send_batch(ch, rdmachan_fill_user, &ctx,
					  mm.count, nonblock);
	if (ret > 0) {
		mm.done = ret;
		ret = put_user(mm.done,
			       &((struct rdmachan_mmsg __user *)uarg)->done);
	}
out:
	kfree(msgs);
	return ret;
}

static long rdmachan_ioc_recv(struct rdmachan *ch, struct file *file,
			      void __user *uarg, bool single)
{
	const char *ioc = single ? "RECV" : "RECVMMSG";
	struct rdmachan_user_msg *msgs;
	struct rdmachan_mmsg mm;
	struct rdmachan_rx *rx;
	bool nonblock;
	long ret;
	u32 n = 0;

	msgs = rdmachan_mmsg_get(ioc, uarg, &mm, single);
	if (IS_ERR(msgs))
		return PTR_ERR(msgs);
	if (mutex_lock_interruptible(&ch->recv.read_mutex)) {
		ret = -ERESTARTSYS;
		goto out_free;
	}
	nonblock = (mm.flags & RDMACHAN_MSG_DONTWAIT) ||
		   (file->f_flags & O_NONBLOCK);
	ret = rdmachan_rx_wait_take(ch, nonblock, &rx);
	if (ret <= 0) {
		/* End of an orderly shutdown: nothing received, no error */
		goto out_unlock;
	}
	ret = 0;
	for (; rx; rx = n < mm.count ? rdmachan_rx_take(ch) : NULL) {
		struct rdmachan_user_msg *m = &msgs[n];

		if (rx->msg.len > m->len) {
			rdmachan_rx_untake(ch, rx);
			if (!n) {
				m->len = rx->msg.len;
				ret = -EMSGSIZE;
				n = 1;	/* report the length wanted */
			}
			break;
		}
		if (rdmachan_msg_copy_to_user(u64_to_user_ptr(m->buf),
					      &rx->msg)) {
			rdmachan_rx_untake(ch, rx);
			if (!n)
				ret = -EFAULT;
			break;
		}
		m->len = rx->msg.len;
		m->imm = rx->msg.imm;
		m->flags = (rx->msg.has_imm ? RDMACHAN_MSG_IMM : 0) |
			   (rx->msg.rdma_imm ? RDMACHAN_MSG_RDMA_IMM : 0);
		rdmachan_msg_release(ch, &rx->msg);
		n++;
	}
out_unlock:
	mutex_unlock(&ch->recv.read_mutex);
	if (n && copy_to_user(u64_to_user_ptr(mm.msgs), msgs,
			      array_size(n, sizeof(*msgs))))
		ret = -EFAULT;
	if (!ret || ret == -EMSGSIZE) {
		mm.done = ret ? 0 : n;
		if (put_user(mm.done,
			     &((struct rdmachan_mmsg __user *)uarg)->done))
			ret = -EFAULT;
	}
out_free:
	kfree(msgs);
	return ret;
}

/* Where CHAN_INFO has each counter (enum rdmachan_stat) */
static const size_t rdmachan_stat_info[RDMACHAN_NR_STATS] = {
#define RDMACHAN_STAT(name)	offsetof(struct rdmachan_chan_info, name),
#include "chan_stats.h"
#undef RDMACHAN_STAT
};

static long rdmachan_ioc_chan_info(struct rdmachan *ch, void __user *uarg)
{
	struct rdmachan_chan_info *info;
	unsigned long flags;
	unsigned int i;
	u32 size;
	long ret = 0;

	if (get_user(size, (u32 __user *)uarg))
		return -EFAULT;
	ret = rdmachan_check_chan_info(size);
	if (ret)
		return ret;
	info = kzalloc(sizeof(*info), GFP_KERNEL);
	if (!info)
		return -ENOMEM;
	/* a caller of the first ABI gets the struct as it knew it */
	info->size = size;
	info->id = ch->obj.id;
	spin_lock_irqsave(&ch->lock, flags);
	info->state = ch->state;
	info->error = ch->err;
	info->send_credits = ch->credits.avail;
	info->credits_to_return = ch->credits.owed;
	info->rx_queued = ch->recv.nr_ready;
	spin_unlock_irqrestore(&ch->lock, flags);
	info->active = ch->conn.active;
	info->poll_mode = ch->opts.poll_mode;
	info->queue_depth = ch->conn.params.queue_depth;
	info->max_msg_size = ch->conn.params.max_msg_size;
	info->max_inline = ch->res.max_inline;
	info->wire_flags = (ch->conn.hdr_imm ? RDMACHAN_WIRE_HDR_IMM : 0) |
			   (ch->conn.frag_rx ? RDMACHAN_WIRE_FRAG : 0) |
			   (ch->conn.frag_tx ? RDMACHAN_WIRE_FRAG_TX : 0);
	info->port_num = rdmachan_dev_port(ch, info->dev_name,
					   sizeof(info->dev_name));
	memcpy(&info->src, &ch->conn.src, sizeof(info->src));
	memcpy(&info->dst, &ch->conn.dst, sizeof(info->dst));
	for (i = 0; i < RDMACHAN_NR_STATS; i++)
		*(u64 *)((void *)info + rdmachan_stat_info[i]) =
			atomic64_read(&ch->stats[i]);
	info->max_send_sge = ch->res.max_send_sge;
	info->max_sge_rd = ch->res.max_sge_rd;
	info->max_reg_pages = ch->res.max_reg_pages;
	if (copy_to_user(uarg, info, size))
		ret = -EFAULT;
	kfree(info);
	return ret;
}

/*
 * BENCH: the modes that receive take messages like read() does, so they
 * queue behind the file's other consumers on recv.read_mutex (BLAST receives
 * nothing and runs beside them).
 */
static long rdmachan_bench_checked(struct rdmachan *ch,
				   struct rdmachan_bench *b)
{
	return rdmachan_check_bench(b, rdmachan_queue_depth(ch),
				    rdmachan_max_msg_size(ch)) ?:
	       rdmachan_bench_run(ch, b);
}

static long rdmachan_chan_ioc_bench(struct rdmachan *ch, void __user *uarg)
{
	struct rdmachan_bench b;
	long ret;

	if (copy_from_user(&b, uarg, sizeof(b)))
		return -EFAULT;
	if (b.mode == RDMACHAN_BENCH_BLAST) {
		ret = rdmachan_bench_checked(ch, &b);
	} else {
		if (mutex_lock_interruptible(&ch->recv.read_mutex))
			return -ERESTARTSYS;
		ret = rdmachan_bench_checked(ch, &b);
		mutex_unlock(&ch->recv.read_mutex);
	}
	if (ret)
		return ret;
	return copy_to_user(uarg, &b, sizeof(b)) ? -EFAULT : 0;
}

static long rdmachan_chan_ioctl(struct file *file, unsigned int cmd,
				unsigned long arg)
{
	struct rdmachan *ch = file->private_data;
	void __user *uarg = (void __user *)arg;

	switch (cmd) {
	case RDMACHAN_IOC_SEND:
		return rdmachan_ioc_send(ch, file, uarg, true);
	case RDMACHAN_IOC_SENDMMSG:
		return rdmachan_ioc_send(ch, file, uarg, false);
	case RDMACHAN_IOC_RECV:
		return rdmachan_ioc_recv(ch, file, uarg, true);
	case RDMACHAN_IOC_RECVMMSG:
		return rdmachan_ioc_recv(ch, file, uarg, false);
	case RDMACHAN_IOC_CHAN_INFO:
		return rdmachan_ioc_chan_info(ch, uarg);
	case RDMACHAN_IOC_BENCH:
		/* its unsolicited messages would never wake the peer */
		if (ch->opts.poll_mode == RDMACHAN_POLL_SOLICITED) {
			rdmachan_info_rl(ch,
					 "RDMACHAN_IOC_BENCH: not on a channel in poll mode solicited\n");
			return -EOPNOTSUPP;
		}
		return rdmachan_chan_ioc_bench(ch, uarg);
	case RDMACHAN_IOC_REG_MR:
		return rdmachan_ioc_reg_mr(ch, uarg);
	case RDMACHAN_IOC_DEREG_MR:
		return rdmachan_ioc_dereg_mr(ch, uarg);
	case RDMACHAN_IOC_RDMA:
		return rdmachan_ioc_rdma(ch, uarg);
	case RDMACHAN_IOC_RDMA_REAP:
		return rdmachan_ioc_rdma_reap(ch, uarg);
	default:
		return -ENOTTY;
	}
}

static const struct file_operations rdmachan_chan_fops = {
	.owner		= THIS_MODULE,
	.release	= rdmachan_chan_release,
	.read		= rdmachan_chan_read,
	.write_iter	= rdmachan_chan_write_iter,
	.poll		= rdmachan_chan_poll,
	.unlocked_ioctl	= rdmachan_chan_ioctl,
	.compat_ioctl	= compat_ptr_ioctl,
};

/**
 * rdmachan_chan_fd_create() - a file for a channel
 * @ch: the channel; the file takes over the caller's reference
 * @flags: RDMACHAN_FD_NONBLOCK
 * @filep: the file, for fd_install() once the caller commits
 *
 * Context: process context.
 * Return: 0, or a negative errno after the channel was closed.
 */
int rdmachan_chan_fd_create(struct rdmachan *ch, unsigned int flags,
			    struct file **filep)
{
	int ret;

	ret = rdmachan_ioc_anon_file("[rdmachan]", &rdmachan_chan_fops, ch,
				     flags, filep);
	if (ret)
		rdmachan_close(ch);
	return ret;
}
