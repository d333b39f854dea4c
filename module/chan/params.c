// SPDX-License-Identifier: GPL-2.0-only
/*
 * rdmachan: module parameters
 *
 * Every numeric parameter carries its bounds, so a bad value given to
 * insmod fails the load and a bad value written to
 * /sys/module/rdmachan/parameters/ fails the write, both with -EINVAL
 * and a log line, and the old value stays in force.
 */
/* each line names its module: rdmachan's, or a user's (below) */
#define pr_fmt(fmt) fmt

#include <linux/kernel.h>
#include <linux/module.h>
#include <linux/moduleparam.h>
#include <linux/string.h>
#include <linux/sysfs.h>

#include "params.h"

/**
 * rdmachan_uint_param_parse() - parse and bounds-check a parameter string
 * @p: the parameter, for its bounds and base
 * @str: the string given (may end in a newline, as from "echo")
 * @out: where to store the value on success
 *
 * Return: 0 on success, -EINVAL for a malformed or out-of-range value,
 * -ERANGE for a number that does not fit in 32 bits.
 */
int rdmachan_uint_param_parse(const struct rdmachan_uint_param *p,
			      const char *str, unsigned int *out)
{
	unsigned int v;
	int ret;

	ret = kstrtouint(str, p->base, &v);
	if (ret)
		return ret;
	if (v < p->min || v > p->max)
		return -EINVAL;
	*out = v;
	return 0;
}

static int rdmachan_uint_param_set(const char *val,
				   const struct kernel_param *kp)
{
	struct rdmachan_uint_param *p = kp->arg;
	unsigned int v;
	int ret;

	ret = rdmachan_uint_param_parse(p, val, &v);
	if (ret) {
		/* Log the value as given, without echo's newline, at most 16 */
		int len = min_t(size_t, strcspn(val, "\n"), 16);

		/* rdmachan's own, or one of a module built on it */
		const char *mod = kp->mod ? kp->mod->name : KBUILD_MODNAME;

		if (p->base == 8)
			pr_err("%s: %s: invalid value '%.*s' (octal %o..%o)\n",
			       mod, kp->name, len, val, p->min, p->max);
		else
			pr_err("%s: %s: invalid value '%.*s' (%u..%u)\n",
			       mod, kp->name, len, val, p->min, p->max);
		return ret == -ERANGE ? -EINVAL : ret;
	}
	WRITE_ONCE(p->val, v);
	return 0;
}

static int rdmachan_uint_param_get(char *buffer,
				   const struct kernel_param *kp)
{
	const struct rdmachan_uint_param *p = kp->arg;

	if (p->base == 8)
		return sysfs_emit(buffer, "0%o\n", READ_ONCE(p->val));
	return sysfs_emit(buffer, "%u\n", READ_ONCE(p->val));
}

/*
 * The ops of struct rdmachan_uint_param (rdmachan.h), for rdmachan's
 * parameters and those of the modules built on it; exported by main.c,
 * as tests/kunit/ includes this file.
 */
const struct kernel_param_ops rdmachan_uint_param_ops = {
	.set = rdmachan_uint_param_set,
	.get = rdmachan_uint_param_get,
};

static struct rdmachan_uint_param dev_mode = {
	.val = 0600, .min = 0, .max = 0777, .base = 8,
};
module_param_cb(dev_mode, &rdmachan_uint_param_ops, &dev_mode, 0444);
MODULE_PARM_DESC(dev_mode,
		 "Permissions of /dev/rdmachan, octal, set at load (default 0600)");

static struct rdmachan_uint_param queue_depth = {
	.val = 128, .min = 2, .max = 16384, .base = 10,
};
module_param_cb(queue_depth, &rdmachan_uint_param_ops, &queue_depth, 0644);
MODULE_PARM_DESC(queue_depth,
		 "Default send/receive queue depth of new channels, 2..16384 (default 128)");

static struct rdmachan_uint_param max_msg_size = {
	.val = 65536, .min = 64, .max = 1 << 20, .base = 10,
};
module_param_cb(max_msg_size, &rdmachan_uint_param_ops, &max_msg_size, 0644);
MODULE_PARM_DESC(max_msg_size,
		 "Default largest message of new channels in bytes, 64..1048576 (default 65536)");

static struct rdmachan_uint_param connect_timeout_ms = {
	.val = 5000, .min = 100, .max = 600000, .base = 10,
};
module_param_cb(connect_timeout_ms, &rdmachan_uint_param_ops,
		&connect_timeout_ms, 0644);
MODULE_PARM_DESC(connect_timeout_ms,
		 "Address/route resolution and connect timeout in ms, 100..600000 (default 5000)");

static struct rdmachan_uint_param keepalive_ms = {
	.val = 1000, .min = 0, .max = 3600000, .base = 10,
};
module_param_cb(keepalive_ms, &rdmachan_uint_param_ops, &keepalive_ms, 0644);
MODULE_PARM_DESC(keepalive_ms,
		 "Keepalive tick in ms: a channel that received nothing for 5 ticks probes its peer, 0..3600000, 0 = no probes (default 1000)");

/*
 * RC ACK timeout exponent of new channels' queue pairs (4.096 us * 2^n).
 * 19 is rdma_cm's own for RoCE, which nvme-rdma, rtrs and RDS keep: on
 * soft-RoCE, whose retransmission timer is not pushed back by later
 * sends, a shorter one fires while a message's ACK is on its way and
 * sends it again (Documentation/protocol.rst).  At most 19: the
 * RDMACHAN_RETRY_COUNT + 1 tries of a send then end within 15 s, inside
 * RDMACHAN_KEEPALIVE_STUCK.
 */
static struct rdmachan_uint_param ack_timeout = {
	.val = 19, .min = 12, .max = 19, .base = 10,
};
module_param_cb(ack_timeout, &rdmachan_uint_param_ops, &ack_timeout, 0644);
MODULE_PARM_DESC(ack_timeout,
		 "RC ACK timeout of new channels, 4.096 us * 2^N, N = 12..19 (default 19, about 2.1 s)");

static struct rdmachan_uint_param shrink_idle_ms = {
	.val = 5000, .min = 0, .max = 3600000, .base = 10,
};
module_param_cb(shrink_idle_ms, &rdmachan_uint_param_ops, &shrink_idle_ms,
		0644);
MODULE_PARM_DESC(shrink_idle_ms,
		 "A channel that sent nothing for this many ms lets its peer free the receive buffers it keeps for it, but one; a datagram endpoint idle that long frees its buffers but a batch's, 0..3600000, 0 = never (default 5000)");

static struct rdmachan_uint_param imm_header = {
	.val = 1, .min = 0, .max = 1, .base = 10,
};
module_param_cb(imm_header, &rdmachan_uint_param_ops, &imm_header, 0644);
MODULE_PARM_DESC(imm_header,
		 "New outgoing channels offer the message header in the immediate data, 0..1 (default 1)");

static struct rdmachan_uint_param imm_credit = {
	.val = 1, .min = 0, .max = 1, .base = 10,
};
module_param_cb(imm_credit, &rdmachan_uint_param_ops, &imm_credit, 0644);
MODULE_PARM_DESC(imm_credit,
		 "New channels whose user asks offer and accept a credit in each RDMA WRITE_WITH_IMM's immediate, 0..1 (default 1)");

/* off by default: its cost is over 2% of a small message's time */
static struct rdmachan_uint_param latency_hist = {
	.val = 0, .min = 0, .max = 1, .base = 10,
};
module_param_cb(latency_hist, &rdmachan_uint_param_ops, &latency_hist, 0644);
MODULE_PARM_DESC(latency_hist,
		 "New channels, block mappings and exports, and network interfaces keep latency histograms, 0..1 (default 0)");

/*
 * Largest user registration (RDMACHAN_IOC_REG_MR), in bytes: a bound of its
 * own besides RLIMIT_MEMLOCK (which CAP_IPC_LOCK lifts) and the device's
 * fast-registration limit, so that no size computed from a registration's
 * length (its pages, their array) can come near overflowing.
 */
static struct rdmachan_uint_param max_mr_size = {
	.val = 1U << 30, .min = 4096, .max = 1U << 31, .base = 10,
};
module_param_cb(max_mr_size, &rdmachan_uint_param_ops, &max_mr_size, 0644);
MODULE_PARM_DESC(max_mr_size,
		 "Largest user memory registration in bytes, 4096..2147483648 (default 1073741824)");

/*
 * Memory of one channel's message buffers, in KiB: the queue depth a
 * channel offers is lowered until its buffers fit (rdmachan_depth_cap()),
 * so that no CONNECT, LISTEN or peer can make one channel allocate more.
 */
static struct rdmachan_uint_param chan_mem_kb = {
	.val = 65536, .min = 1024, .max = 1U << 22, .base = 10,
};
module_param_cb(chan_mem_kb, &rdmachan_uint_param_ops, &chan_mem_kb, 0644);
MODULE_PARM_DESC(chan_mem_kb,
		 "Message buffer memory of one channel in KiB; the queue depth is lowered to fit, 1024..4194304 (default 65536)");

/*
 * Receive buffers the channels of one RDMA device may be granted beyond
 * their start grants, in KiB (chan_grant.c): a busy channel's grant grows
 * towards its depth while the device's channels hold less than this.
 */
static struct rdmachan_uint_param grow_budget_kb = {
	.val = 131072, .min = 0, .max = 1U << 30, .base = 10,
};
module_param_cb(grow_budget_kb, &rdmachan_uint_param_ops, &grow_budget_kb,
		0644);
MODULE_PARM_DESC(grow_budget_kb,
		 "Receive buffers the channels of one RDMA device may be granted beyond their start, in KiB; a channel's grant stops growing there, 0..1073741824 (default 131072)");

static struct rdmachan_uint_param listen_budget_kb = {
	.val = 262144, .min = 64, .max = 1U << 30, .base = 10,
};
module_param_cb(listen_budget_kb, &rdmachan_uint_param_ops, &listen_budget_kb,
		0644);
MODULE_PARM_DESC(listen_budget_kb,
		 "Memory a listener may hold for connections not yet accepted, in KiB, 64..1073741824 (default 262144)");

static struct rdmachan_uint_param listen_max_connecting = {
	.val = 16, .min = 1, .max = 65536, .base = 10,
};
module_param_cb(listen_max_connecting, &rdmachan_uint_param_ops,
		&listen_max_connecting, 0644);
MODULE_PARM_DESC(listen_max_connecting,
		 "Connections a listener sets up at a time (accepted by it, not yet established), 1..65536 (default 16)");

/** rdmachan_param_dev_mode() - mode bits of the /dev/rdmachan node */
unsigned int rdmachan_param_dev_mode(void)
{
	return READ_ONCE(dev_mode.val);
}

/** rdmachan_param_queue_depth() - default queue depth of a new channel */
unsigned int rdmachan_param_queue_depth(void)
{
	return READ_ONCE(queue_depth.val);
}

/** rdmachan_param_max_msg_size() - default largest message of a new channel */
unsigned int rdmachan_param_max_msg_size(void)
{
	return READ_ONCE(max_msg_size.val);
}

/** rdmachan_param_keepalive_ms() - keepalive period, 0 for none */
unsigned int rdmachan_param_keepalive_ms(void)
{
	return READ_ONCE(keepalive_ms.val);
}

/**
 * rdmachan_param_ack_timeout() - RC ACK timeout exponent for a new
 *	channel's queue pair (rdma_set_ack_timeout())
 */
u8 rdmachan_param_ack_timeout(void)
{
	return READ_ONCE(ack_timeout.val);
}

/**
 * rdmachan_param_shrink_idle_ms() - idle time after which a sender retires
 *	its credits (chan_grant.c), 0 for never
 */
unsigned int rdmachan_param_shrink_idle_ms(void)
{
	return READ_ONCE(shrink_idle_ms.val);
}

/** rdmachan_param_latency_hist() - new objects keep latency histograms */
bool rdmachan_param_latency_hist(void)
{
	return READ_ONCE(latency_hist.val);
}

/** rdmachan_param_imm_header() - offer RDMACHAN_WIRE_F_HDR_IMM when connecting */
bool rdmachan_param_imm_header(void)
{
	return READ_ONCE(imm_header.val);
}

/**
 * rdmachan_param_imm_credit() - offer and accept RDMACHAN_WIRE_F_IMM_CREDIT
 *	where the channel's user asks (&rdmachan_opts.imm_credit)
 */
bool rdmachan_param_imm_credit(void)
{
	return READ_ONCE(imm_credit.val);
}

/** rdmachan_param_connect_timeout_ms() - rdma_cm resolve/connect timeout */
unsigned int rdmachan_param_connect_timeout_ms(void)
{
	return READ_ONCE(connect_timeout_ms.val);
}

/** rdmachan_param_max_mr_size() - largest user registration, in bytes */
unsigned int rdmachan_param_max_mr_size(void)
{
	return READ_ONCE(max_mr_size.val);
}

/** rdmachan_param_chan_mem() - one channel's message buffers, in bytes */
u64 rdmachan_param_chan_mem(void)
{
	return (u64)READ_ONCE(chan_mem_kb.val) << 10;
}

/**
 * rdmachan_param_grow_budget() - receive buffers one device's channels may
 *	be granted beyond their start grants, in bytes
 *
 * Return: the grow_budget_kb parameter, in bytes.
 */
u64 rdmachan_param_grow_budget(void)
{
	return (u64)READ_ONCE(grow_budget_kb.val) << 10;
}

/**
 * rdmachan_param_listen_budget() - what a listener's unaccepted connections
 *	may hold, in bytes
 *
 * Return: the listen_budget_kb parameter, in bytes.
 */
u64 rdmachan_param_listen_budget(void)
{
	return (u64)READ_ONCE(listen_budget_kb.val) << 10;
}

/**
 * rdmachan_param_listen_max_connecting() - connections a listener sets up
 *	at a time
 *
 * Return: the listen_max_connecting parameter.
 */
unsigned int rdmachan_param_listen_max_connecting(void)
{
	return READ_ONCE(listen_max_connecting.val);
}
