// SPDX-License-Identifier: GPL-2.0-only
/*
 * rdmachan: the DGRAM_OPEN ioctl of /dev/rdmachan and the file of a
 * datagram endpoint
 *
 * read() takes the next datagram, as recv() on a UDP socket does: a
 * buffer smaller than the datagram gets its start, the rest is dropped
 * (rx_trunc counts it).  write() sends one datagram to the connected peer
 * (DGRAM_RESOLVE with RDMACHAN_DGRAM_CONNECT), EDESTADDRREQ without one.
 * poll() reports readable (a datagram waits), writable (a send buffer is
 * free), hang-up and error (the endpoint died).  DGRAM_SEND and
 * DGRAM_RECV move batches with a peer per datagram; DGRAM_INFO reports
 * the counters.  O_NONBLOCK applies to all of them but RESOLVE, which is
 * bounded by its timeout.  Closing the file closes the endpoint.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/file.h>
#include <linux/fs.h>
#include <linux/nsproxy.h>
#include <linux/poll.h>
#include <linux/uaccess.h>
#include <linux/uio.h>

#include <linux/rdmachan.h>
#include <linux/rdmachan_verbs.h>

#include "bench.h"
#include "dgram.h"
#include "ioctl.h"

static int rdmachan_dgram_release(struct inode *inode, struct file *file)
{
	rdmachan_dgram_close(file->private_data);
	return 0;
}

static bool rdmachan_dgram_nonblock(struct file *file, u32 flags)
{
	return (file->f_flags & O_NONBLOCK) || (flags & RDMACHAN_DGRAM_DONTWAIT);
}

/* Copy @rx's bytes to @buf (@room of them); count a truncation */
static int rdmachan_dgram_copy_out(struct rdmachan_dgram *d,
				   struct rdmachan_dgram_rx *rx,
				   void __user *buf, u32 room)
{
	unsigned long flags;

	if (rx->len > room) {
		spin_lock_irqsave(&d->lock, flags);
		d->stats.rx_trunc++;
		spin_unlock_irqrestore(&d->lock, flags);
	}
	return copy_to_user(buf, rx->data, min(rx->len, room)) ? -EFAULT : 0;
}

static ssize_t rdmachan_dgram_read(struct file *file, char __user *buf,
				   size_t count, loff_t *ppos)
{
	struct rdmachan_dgram *d = file->private_data;
	struct rdmachan_dgram_rx *rx;
	ssize_t ret;

	ret = rdmachan_dgram_recv(d, &rx, file->f_flags & O_NONBLOCK ?
				  0 : MAX_SCHEDULE_TIMEOUT);
	if (ret)
		return ret;
	count = min_t(size_t, count, rx->len);
	ret = rdmachan_dgram_copy_out(d, rx, buf, count) ?: count;
	rdmachan_dgram_rx_release(d, rx);
	return ret;
}

static ssize_t rdmachan_dgram_write_iter(struct kiocb *iocb,
					 struct iov_iter *from)
{
	struct rdmachan_dgram *d = iocb->ki_filp->private_data;
	struct rdmachan_dgram_peer to;
	size_t len = iov_iter_count(from);
	unsigned long flags;
	bool set;
	int ret;

	spin_lock_irqsave(&d->lock, flags);
	set = d->conn_set;
	to = d->conn;
	spin_unlock_irqrestore(&d->lock, flags);
	if (!set)
		return -EDESTADDRREQ;
	ret = rdmachan_dgram_send(d, (struct sockaddr *)&to.addr, to.qpn,
				  to.qkey, from, NULL,
				  iocb->ki_filp->f_flags & O_NONBLOCK);
	return ret ?: len;
}

static __poll_t rdmachan_dgram_file_poll(struct file *file, poll_table *wait)
{
	return rdmachan_dgram_poll(file->private_data, file, wait);
}

static long rdmachan_ioc_dgram_resolve(struct rdmachan_dgram *d,
				       void __user *uarg)
{
	struct rdmachan_dgram_resolve r;
	unsigned long flags;
	int ret;

	if (copy_from_user(&r, uarg, sizeof(r)))
		return -EFAULT;
	ret = rdmachan_check_dgram_resolve(&r);
	if (ret)
		return ret;
	ret = rdmachan_dgram_resolve(d, (struct sockaddr *)&r.addr,
				     r.timeout_ms, &r.peer.qpn, &r.peer.qkey);
	if (ret)
		return ret;
	memcpy(&r.peer.addr, &r.addr, sizeof(r.peer.addr));
	((struct sockaddr_in *)&r.peer.addr)->sin_port = 0;
	if (r.flags & RDMACHAN_DGRAM_CONNECT) {
		spin_lock_irqsave(&d->lock, flags);
		d->conn = r.peer;
		d->conn_set = true;
		spin_unlock_irqrestore(&d->lock, flags);
	}
	return copy_to_user(uarg, &r, sizeof(r)) ? -EFAULT : 0;
}

/* Send datagram @i of a batch */
static int rdmachan_dgram_send_one(struct rdmachan_dgram *d,
				   struct rdmachan_dgram_msg __user *um, u32 i,
				   bool nonblock)
{
	struct rdmachan_dgram_msg m;
	struct rdmachan_dgram_peer to;
	struct iov_iter from;
	unsigned long flags;
	int ret;

	if (copy_from_user(&m, &um[i], sizeof(m)))
		return -EFAULT;
	ret = rdmachan_check_dgram_msg(&m, i, rdmachan_dgram_max_size(d));
	if (ret)
		return ret;
	to = m.peer;
	if (!to.qpn) {
		spin_lock_irqsave(&d->lock, flags);
		ret = d->conn_set ? 0 : -EDESTADDRREQ;
		to = d->conn;
		spin_unlock_irqrestore(&d->lock, flags);
		if (ret)
			return ret;
	}
	iov_iter_ubuf(&from, WRITE, u64_to_user_ptr(m.buf), m.len);
	return rdmachan_dgram_send(d, (struct sockaddr *)&to.addr, to.qpn,
				   to.qkey, &from,
				   m.flags & RDMACHAN_DGRAM_MSG_IMM ? &m.imm :
				   NULL, nonblock);
}

/* Receive datagram @i of a batch, waiting at most @timeout for it */
static int rdmachan_dgram_recv_one(struct rdmachan_dgram *d,
				   struct rdmachan_dgram_msg __user *um, u32 i,
				   long timeout)
{
	struct rdmachan_dgram_msg m;
	struct rdmachan_dgram_rx *rx;
	int ret;

	if (copy_from_user(&m, &um[i], sizeof(m)))
		return -EFAULT;
	ret = rdmachan_dgram_recv(d, &rx, timeout);
	if (ret)
		return ret;
	ret = rdmachan_dgram_copy_out(d, rx, u64_to_user_ptr(m.buf), m.len);
	m.flags = (rx->has_imm ? RDMACHAN_DGRAM_MSG_IMM : 0) |
		  (rx->len > m.len ? RDMACHAN_DGRAM_MSG_TRUNC : 0);
	m.len = rx->len;
	m.imm = rx->imm;
	m.reserved = 0;
	memset(&m.peer, 0, sizeof(m.peer));
	memcpy(&m.peer.addr, &rx->from, sizeof(m.peer.addr));
	m.peer.qpn = rx->qpn;
	m.peer.qkey = RDMACHAN_DGRAM_QKEY;
	rdmachan_dgram_rx_release(d, rx);
	if (!ret && copy_to_user(&um[i], &m, sizeof(m)))
		ret = -EFAULT;
	return ret;
}

static long rdmachan_ioc_dgram_batch(struct rdmachan_dgram *d,
				     struct file *file, void __user *uarg,
				     bool send)
{
	struct rdmachan_dgram_batch b;
	struct rdmachan_dgram_msg __user *um;
	bool nonblock;
	long timeout;
	u32 i;
	int ret = 0;

	if (copy_from_user(&b, uarg, sizeof(b)))
		return -EFAULT;
	ret = rdmachan_check_dgram_batch(&b, send);
	if (ret)
		return ret;
	um = u64_to_user_ptr(b.msgs);
	nonblock = rdmachan_dgram_nonblock(file, b.flags);
	timeout = nonblock ? 0 : b.timeout_ms ?
		  msecs_to_jiffies(b.timeout_ms) : MAX_SCHEDULE_TIMEOUT;
	for (i = 0; i < b.count; i++) {
		if (send)
			ret = rdmachan_dgram_send_one(d, um, i, nonblock);
		else
			ret = rdmachan_dgram_recv_one(d, um, i, i ? 0 : timeout);
		if (ret)
			break;
	}
	/* a later entry's failure ends the batch; the count says where */
	if (i)
		ret = 0;
	else if (ret == -ERESTARTSYS && !send && b.timeout_ms)
		ret = -EINTR;	/* its timeout may not restart from the top */
	if (ret)
		return ret;
	b.count = i;
	if (put_user(b.count, &((struct rdmachan_dgram_batch __user *)uarg)->count))
		return -EFAULT;
	return i;
}

static long rdmachan_ioc_dgram_info(struct rdmachan_dgram *d,
				    void __user *uarg)
{
	struct rdmachan_dgram_info info;

	if (copy_from_user(&info, uarg, sizeof(info)))
		return -EFAULT;
	if (info.size != sizeof(info)) {
		pr_info_ratelimited("DGRAM_INFO: size %u, expected %zu\n",
				    info.size, sizeof(info));
		return -EINVAL;
	}
	memset(&info, 0, sizeof(info));
	info.size = sizeof(info);
	rdmachan_dgram_stats(d, &info);
	return copy_to_user(uarg, &info, sizeof(info)) ? -EFAULT : 0;
}

static long rdmachan_ioc_dgram_join(struct rdmachan_dgram *d,
				    void __user *uarg, bool join)
{
	struct rdmachan_dgram_join j;
	int ret;

	if (copy_from_user(&j, uarg, sizeof(j)))
		return -EFAULT;
	ret = rdmachan_check_dgram_join(&j, join);
	if (ret)
		return ret;
	if (!join)
		return rdmachan_dgram_leave(d, (struct sockaddr *)&j.addr);
	ret = rdmachan_dgram_join(d, (struct sockaddr *)&j.addr,
				  j.flags & RDMACHAN_DGRAM_SENDONLY,
				  j.timeout_ms, &j.peer.qkey);
	if (ret)
		return ret;
	memcpy(&j.peer.addr, &j.addr, sizeof(j.peer.addr));
	((struct sockaddr_in *)&j.peer.addr)->sin_port = 0;
	j.peer.qpn = RDMACHAN_DGRAM_MCAST_QPN;
	return copy_to_user(uarg, &j, sizeof(j)) ? -EFAULT : 0;
}

static long rdmachan_ioc_dgram_bench(struct rdmachan_dgram *d,
				     void __user *uarg)
{
	struct rdmachan_dgram_bench b;
	long ret;

	if (copy_from_user(&b, uarg, sizeof(b)))
		return -EFAULT;
	ret = rdmachan_check_dgram_bench(&b, rdmachan_dgram_max_size(d));
	if (ret)
		return ret;
	ret = rdmachan_dgram_bench_run(d, &b);
	if (ret)
		return ret;
	return copy_to_user(uarg, &b, sizeof(b)) ? -EFAULT : 0;
}

static long rdmachan_dgram_ioctl(struct file *file, unsigned int cmd,
				 unsigned long arg)
{
	struct rdmachan_dgram *d = file->private_data;
	void __user *uarg = (void __user *)arg;

	switch (cmd) {
	case RDMACHAN_IOC_DGRAM_RESOLVE:
		return rdmachan_ioc_dgram_resolve(d, uarg);
	case RDMACHAN_IOC_DGRAM_SEND:
		return rdmachan_ioc_dgram_batch(d, file, uarg, true);
	case RDMACHAN_IOC_DGRAM_RECV:
		return rdmachan_ioc_dgram_batch(d, file, uarg, false);
	case RDMACHAN_IOC_DGRAM_INFO:
		return rdmachan_ioc_dgram_info(d, uarg);
	case RDMACHAN_IOC_DGRAM_JOIN:
		return rdmachan_ioc_dgram_join(d, uarg, true);
	case RDMACHAN_IOC_DGRAM_LEAVE:
		return rdmachan_ioc_dgram_join(d, uarg, false);
	case RDMACHAN_IOC_DGRAM_BENCH:
		return rdmachan_ioc_dgram_bench(d, uarg);
	default:
		return -ENOTTY;
	}
}

static const struct file_operations rdmachan_dgram_fops = {
	.owner		= THIS_MODULE,
	.release	= rdmachan_dgram_release,
	.read		= rdmachan_dgram_read,
	.write_iter	= rdmachan_dgram_write_iter,
	.poll		= rdmachan_dgram_file_poll,
	.unlocked_ioctl	= rdmachan_dgram_ioctl,
	.compat_ioctl	= compat_ptr_ioctl,
	.llseek		= noop_llseek,
};

/* DGRAM_OPEN: open the endpoint, then make its file */
static int rdmachan_dgram_open_file(void *ctx, int fd, struct file **filep)
{
	struct rdmachan_dgram_open *o = ctx;
	struct rdmachan_dgram *d;
	int ret;

	ret = rdmachan_dgram_open_net(current->nsproxy->net_ns,
				      (struct sockaddr *)&o->addr, o->depth,
				      o->flags, &d);
	if (ret)
		return ret;
	ret = rdmachan_ioc_anon_file("[rdmachan-dgram]", &rdmachan_dgram_fops,
				     d, o->fd_flags, filep);
	if (ret) {
		rdmachan_dgram_close(d);
		return ret;
	}
	o->fd = fd;
	o->qpn = rdmachan_dgram_qpn(d);
	o->qkey = RDMACHAN_DGRAM_QKEY;
	o->max_size = rdmachan_dgram_max_size(d);
	o->depth = d->depth;
	rdmachan_dgram_local_addr(d, (struct sockaddr_storage *)&o->addr);
	return 0;
}

long rdmachan_ioc_dgram_open(void __user *uarg)
{
	struct rdmachan_dgram_open o;
	long ret;

	if (copy_from_user(&o, uarg, sizeof(o)))
		return -EFAULT;
	ret = rdmachan_check_dgram_open(&o);
	if (ret)
		return ret;
	return rdmachan_ioc_new_fd(o.fd_flags, rdmachan_dgram_open_file, &o,
				   &o, uarg, sizeof(o));
}
