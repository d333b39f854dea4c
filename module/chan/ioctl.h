/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * rdmachan: the user ABI - /dev/rdmachan, listener and channel files, their
 * ioctl handlers and the checks of their arguments
 *
 * Everything here is above the channel core: the ioctl_*.c files call the
 * core (rdmachan-pri.h) and the public API (rdmachan.h), never the other
 * way round (Documentation/architecture.rst).
 */
#ifndef RDMACHAN_IOCTL_H
#define RDMACHAN_IOCTL_H

#include <linux/compiler.h>
#include <linux/pid.h>
#include <linux/printk.h>
#include <linux/sched.h>
#include <linux/types.h>

#include <linux/rdmachan.h>

#include "rdmachan.h"

struct file;
struct rdmachan;
struct rdmachan_listener;

/* Most messages one SENDMMSG/RECVMMSG call handles */
#define RDMACHAN_MMSG_MAX	1024

/*
 * Reject a malformed ioctl argument: -EINVAL and a rate-limited log line
 * naming the ioctl and the reason, so a misbehaving caller can be found.
 */
#define rdmachan_ioc_inval(ioc, fmt, ...)				\
	({								\
		pr_info_ratelimited("%s: %s (pid %d): " fmt "\n",	\
				    ioc, current->comm,			\
				    task_pid_nr(current), ##__VA_ARGS__); \
		-EINVAL;						\
	})

/*
 * Checks of an ioctl argument once it is copied in (ioctl_check.c): 0, or
 * -EINVAL through rdmachan_ioc_inval(); no user memory, device or channel
 * is touched.
 */
/* VERSION: right size, every other field zero */
int rdmachan_check_version(const struct rdmachan_version *v);
/* DEV_LIST: size, count and reserved zero, an array when capacity is set */
int rdmachan_check_dev_list(const struct rdmachan_dev_list *l);
/* DEV_QUERY: size, terminated non-empty name, ports array, outputs zero */
int rdmachan_check_dev_query(const struct rdmachan_dev_query *q);
/* CONNECT: size, flags, fd/reserved, options (into @opts), dst and src */
int rdmachan_check_connect(const struct rdmachan_connect *c,
			   struct rdmachan_opts *opts);
/* LISTEN: size, flags, fd/reserved, options (into @opts), addr, backlog */
int rdmachan_check_listen(const struct rdmachan_listen *c,
			  struct rdmachan_opts *opts);
/* ACCEPT: size, flags, fd/peer/reserved zero */
int rdmachan_check_accept(const struct rdmachan_accept *a);
/* SEND, RECV (@single), SENDMMSG, RECVMMSG: size, flags, reserved, count, array */
int rdmachan_check_mmsg(const char *ioc, const struct rdmachan_mmsg *mm,
			bool single);
/* SEND/SENDMMSG: flags and reserved field of message @i of the array */
int rdmachan_check_user_msg(const char *ioc, const struct rdmachan_user_msg *m,
			    u32 i);
/* CHAN_INFO: the size field (this ABI's struct, or RDMACHAN_CHAN_INFO_SIZE_V1) */
int rdmachan_check_chan_info(u32 size);
/*
 * BENCH on a channel of @depth credits and messages of @max_msg_size:
 * size, outputs and reserved zero, mode, msg_size (-EMSGSIZE), batch (0,
 * for the default, passes)
 */
int rdmachan_check_bench(const struct rdmachan_bench *b, u32 depth,
			 u32 max_msg_size);

/* REG_MR: size, access (rules of the verbs model), length, outputs zero */
int rdmachan_check_reg_mr(const struct rdmachan_reg_mr *r);
/* DEREG_MR: size, reserved zero */
int rdmachan_check_dereg_mr(const struct rdmachan_dereg_mr *d);
/* RDMA: size, flags, count, array, reserved zero */
int rdmachan_check_rdma(const struct rdmachan_rdma *r);
int rdmachan_check_rdma_reap(const struct rdmachan_rdma_reap *r);
/* RDMA: operation @i: opcode, flags, segments, atomic alignment, reserved */
int rdmachan_check_rdma_op(const struct rdmachan_rdma_op *op, u32 i);

struct rdmachan_rping;
/* RPING: size, flags, count, size and step bounds, reserved, address */
int rdmachan_check_rping(struct rdmachan_rping *r);

struct rdmachan_dgram_open;
struct rdmachan_dgram_resolve;
struct rdmachan_dgram_batch;
struct rdmachan_dgram_msg;
/* DGRAM_*: the arguments of the datagram ioctls (fills in defaults) */
int rdmachan_check_dgram_open(const struct rdmachan_dgram_open *o);
int rdmachan_check_dgram_resolve(struct rdmachan_dgram_resolve *r);
int rdmachan_check_dgram_batch(const struct rdmachan_dgram_batch *b,
			       bool send);
int rdmachan_check_dgram_msg(const struct rdmachan_dgram_msg *m, u32 i,
			     u32 max);
struct rdmachan_dgram_join;
int rdmachan_check_dgram_join(struct rdmachan_dgram_join *j, bool join);
struct rdmachan_dgram_bench;
int rdmachan_check_dgram_bench(struct rdmachan_dgram_bench *b, u32 max);

/* ioctl_ctl.c: /dev/rdmachan, and how every new descriptor is installed */
int rdmachan_ctl_init(void);
void rdmachan_ctl_exit(void);
long rdmachan_ioc_new_fd(u32 fd_flags,
			 int (*open)(void *ctx, int fd, struct file **filep),
			 void *ctx, const void *karg, void __user *uarg,
			 size_t len);
int rdmachan_ioc_anon_file(const char *name,
			   const struct file_operations *fops, void *priv,
			   unsigned int flags, struct file **filep);

/* ioctl_dev.c: VERSION, DEV_LIST, DEV_QUERY of /dev/rdmachan */
long rdmachan_ioc_version(void __user *uarg);
long rdmachan_ioc_dev_list(void __user *uarg);
long rdmachan_ioc_dev_query(void __user *uarg);

/* ioctl_rping.c, rping.c: RPING of /dev/rdmachan */
long rdmachan_ioc_rping(void __user *uarg);
/* ioctl_dgram.c: DGRAM_OPEN of /dev/rdmachan, and the endpoint's file */
long rdmachan_ioc_dgram_open(void __user *uarg);
int rdmachan_rping_run(struct rdmachan_rping *a);

/* ioctl_connect.c: CONNECT and LISTEN of /dev/rdmachan */
long rdmachan_ioc_connect(void __user *uarg);
long rdmachan_ioc_listen(void __user *uarg);

/*
 * ioctl_chan.c, ioctl_listener.c: the files of a channel and a listener;
 * on failure the object is closed
 */
int rdmachan_chan_fd_create(struct rdmachan *ch, unsigned int flags,
			    struct file **filep);
int rdmachan_listener_fd_create(struct rdmachan_listener *l,
				unsigned int flags, struct file **filep);

/* Everything one RDMACHAN_IOC_RDMA call needs, allocated at once */
struct rdmachan_rdma_call {
	struct rdmachan_rdma_op uops[RDMACHAN_MAX_RDMA_OPS];
	struct rdmachan_op ops[RDMACHAN_MAX_RDMA_OPS];
	struct rdmachan_sge usges[RDMACHAN_MAX_SGE];
	struct rdmachan_seg segs[RDMACHAN_MAX_RDMA_OPS][RDMACHAN_MAX_SGE];
};

/* ioctl_rdma.c: the one-sided ioctls of a channel file */
/* RDMACHAN_IOC_REG_MR: pin and register, return the handle and remote */
long rdmachan_ioc_reg_mr(struct rdmachan *ch, void __user *uarg);
/* RDMACHAN_IOC_DEREG_MR: invalidate and release a registration */
long rdmachan_ioc_dereg_mr(struct rdmachan *ch, void __user *uarg);
/* RDMACHAN_IOC_RDMA: run one-sided operations, report each one's status */
long rdmachan_ioc_rdma(struct rdmachan *ch, void __user *uarg);

/* ioctl_rdma_async.c: RDMACHAN_RDMA_ASYNC and RDMACHAN_IOC_RDMA_REAP */
int rdmachan_ioc_rdma_async(struct rdmachan *ch,
			    struct rdmachan_rdma_call *c, u32 count);
long rdmachan_ioc_rdma_reap(struct rdmachan *ch, void __user *uarg);
bool rdmachan_rdma_reapable(struct rdmachan *ch);
void rdmachan_rdma_reap_release(struct rdmachan *ch);

#endif /* RDMACHAN_IOCTL_H */
