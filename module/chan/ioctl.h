/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * rdmachan: ioctl handlers of /dev/rdmachan and the checks of their arguments
 */
#ifndef RDMACHAN_IOCTL_H
#define RDMACHAN_IOCTL_H

#include <linux/compiler.h>
#include <linux/printk.h>
#include <linux/sched.h>
#include <linux/types.h>

struct rdmachan_accept;
struct rdmachan_bench;
struct rdmachan_connect;
struct rdmachan_dev_list;
struct rdmachan_dev_query;
struct rdmachan_listen;
struct rdmachan_mmsg;
struct rdmachan_opts;
struct rdmachan_rdma;
struct rdmachan_rdma_op;
struct rdmachan_reg_mr;
struct rdmachan_dereg_mr;
struct rdmachan_user_msg;
struct rdmachan_version;

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
/* CHAN_INFO: the size field */
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

long rdmachan_ioc_version(void __user *uarg);
long rdmachan_ioc_dev_list(void __user *uarg);
long rdmachan_ioc_dev_query(void __user *uarg);
long rdmachan_ioc_connect(void __user *uarg);
long rdmachan_ioc_listen(void __user *uarg);

#endif /* RDMACHAN_IOCTL_H */
