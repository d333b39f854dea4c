// SPDX-License-Identifier: GPL-2.0-only
/*
 * rdmachan_blk server: the listener ([::]:port, IPv4 clients too), its
 * restart after a failure; its connections become queues in blk_srv.c
 * (rcblk_srv_pending()).
 *
 * A host listens only while it exports something: the listener starts
 * with the first export and is closed after the last unexport
 * (rcblk_srv_listen_update()), so that a host that only maps disks, or
 * has the module loaded for nothing, offers no port.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/in.h>
#include <linux/in6.h>
#include <linux/module.h>

#include "blk_srv.h"

/* Listener restarts after it failed (device removal): tries, interval */
#define RCBLK_LISTEN_TRIES	30
#define RCBLK_LISTEN_DELAY_MS	2000

static struct rdmachan_listener *rcblk_srv_listener;
static unsigned int rcblk_srv_listen_tries;
static void rcblk_srv_listen_work(struct work_struct *work);
static DECLARE_DELAYED_WORK(rcblk_srv_listen_dwork, rcblk_srv_listen_work);

static void rcblk_srv_failed(struct rdmachan_listener *l, int err)
{
	pr_warn("listener on port %u failed (%d): listening again\n",
		rcblk_param(port), err);
	rcblk_srv_listen_tries = 0;
	queue_delayed_work(rcblk_srv_ctl_wq, &rcblk_srv_listen_dwork,
			   msecs_to_jiffies(RCBLK_LISTEN_DELAY_MS));
}

static const struct rdmachan_listener_ops rcblk_srv_listener_ops = {
	.pending	= rcblk_srv_pending,
	.admit		= rcblk_srv_admit,
	.failed		= rcblk_srv_failed,
};

/*
 * (Re)start the listener; rcblk_srv_mutex held.  It binds the IPv6
 * wildcard, which rdma_cm matches with IPv4 requests too (as a socket on
 * [::] takes them, unless net.ipv6.bindv6only is set); on 0.0.0.0 where
 * that cannot be bound.  @where: out, what it bound, for the log.
 */
static int rcblk_srv_listen(const char **where)
{
	struct sockaddr_in6 sin6 = {
		.sin6_family = AF_INET6,
		.sin6_addr = IN6ADDR_ANY_INIT,
		.sin6_port = htons(rcblk_param(port)),
	};
	struct sockaddr_in sin = {
		.sin_family = AF_INET,
		.sin_addr.s_addr = htonl(INADDR_ANY),
		.sin_port = htons(rcblk_param(port)),
	};
	struct rdmachan_opts opts = {
		.queue_depth = rcblk_param(queue_depth),
		.max_msg_size = sizeof(struct rcblk_wire_io) +
				rcblk_param(inline_kb) * 1024,
		.max_send_regs = 0,
		.min_grant = RCBLK_MIN_GRANT,
		.imm_credit = true,
	};
	int ret;

	lockdep_assert_held(&rcblk_srv_mutex);
	if (rcblk_srv_listener) {
		rdmachan_listener_close(rcblk_srv_listener);
		rcblk_srv_listener = NULL;
	}
	*where = "[::]";
	ret = rdmachan_listen_ops((struct sockaddr *)&sin6, &opts,
				  &rcblk_srv_listener_ops, NULL,
				  &rcblk_srv_listener);
	if (!ret)
		return 0;
	*where = "0.0.0.0";
	return rdmachan_listen_ops((struct sockaddr *)&sin, &opts,
				   &rcblk_srv_listener_ops, NULL,
				   &rcblk_srv_listener);
}

/* Whether the server should listen: exports exist; rcblk_srv_mutex held */
static bool rcblk_srv_listen_wanted(void)
{
	lockdep_assert_held(&rcblk_srv_mutex);
	return !rcblk_srv_stopping && !list_empty(&rcblk_srv_exports);
}

/* Listen again after a failure, a bounded number of times */
static void rcblk_srv_listen_work(struct work_struct *work)
{
	const char *where;
	int ret;

	mutex_lock(&rcblk_srv_mutex);
	if (!rcblk_srv_listen_wanted()) {
		mutex_unlock(&rcblk_srv_mutex);
		return;
	}
	ret = rcblk_srv_listen(&where);
	if (!ret) {
		pr_info("listening on %s:%u again\n", where, rcblk_param(port));
	} else if (++rcblk_srv_listen_tries < RCBLK_LISTEN_TRIES) {
		queue_delayed_work(rcblk_srv_ctl_wq, &rcblk_srv_listen_dwork,
				   msecs_to_jiffies(RCBLK_LISTEN_DELAY_MS));
	} else {
		pr_err("cannot listen on port %u (%d): gave up after %u tries\n",
		       rcblk_param(port), ret, RCBLK_LISTEN_TRIES);
	}
	mutex_unlock(&rcblk_srv_mutex);
}

/**
 * rcblk_srv_listen_update() - listen while exports exist, and only then
 *
 * Called after the export list changed: the first export starts the
 * listener, the last unexport closes it (queues accepted stay: each is
 * closed by its unexport, its failure or its OPEN timeout).  A listener
 * that cannot start is retried (RCBLK_LISTEN_TRIES, every
 * RCBLK_LISTEN_DELAY_MS) and the export stands; so is one that failed.
 *
 * Context: process context, rcblk_srv_mutex held.
 */
void rcblk_srv_listen_update(void)
{
	const char *where;
	int ret;

	lockdep_assert_held(&rcblk_srv_mutex);
	if (!rcblk_srv_listen_wanted()) {
		/* a restart that waits for the mutex finds nothing to do */
		cancel_delayed_work(&rcblk_srv_listen_dwork);
		if (rcblk_srv_listener) {
			rdmachan_listener_close(rcblk_srv_listener);
			rcblk_srv_listener = NULL;
			pr_info("no export left: no longer listening on port %u\n",
				rcblk_param(port));
		}
		return;
	}
	if (rcblk_srv_listener || delayed_work_pending(&rcblk_srv_listen_dwork))
		return;
	ret = rcblk_srv_listen(&where);
	if (!ret) {
		pr_info("listening on %s:%u\n", where, rcblk_param(port));
	} else {
		pr_warn("cannot listen on port %u (%d): retrying\n",
			rcblk_param(port), ret);
		rcblk_srv_listen_tries = 0;
		queue_delayed_work(rcblk_srv_ctl_wq, &rcblk_srv_listen_dwork,
				   msecs_to_jiffies(RCBLK_LISTEN_DELAY_MS));
	}
}

/**
 * rcblk_srv_listen_stop() - close the listener for good (unload): no
 *	->pending() runs after it returns
 *
 * Context: process context, rcblk_srv_stopping set.
 */
void rcblk_srv_listen_stop(void)
{
	struct rdmachan_listener *l;

	cancel_delayed_work_sync(&rcblk_srv_listen_dwork);
	mutex_lock(&rcblk_srv_mutex);
	l = rcblk_srv_listener;
	rcblk_srv_listener = NULL;
	mutex_unlock(&rcblk_srv_mutex);
	if (l)
		rdmachan_listener_close(l);
}
