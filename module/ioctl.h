/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * rdmachan: ioctl handlers of /dev/rdmachan and their shared checks
 */
#ifndef RDMACHAN_IOCTL_H
#define RDMACHAN_IOCTL_H

#include <linux/compiler.h>
#include <linux/printk.h>
#include <linux/sched.h>

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

long rdmachan_ioc_version(void __user *uarg);
long rdmachan_ioc_dev_list(void __user *uarg);
long rdmachan_ioc_dev_query(void __user *uarg);
long rdmachan_ioc_connect(void __user *uarg);
long rdmachan_ioc_listen(void __user *uarg);

#endif /* RDMACHAN_IOCTL_H */
