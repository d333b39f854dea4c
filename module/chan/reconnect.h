/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * rdmachan: the arithmetic of a reconnect policy (chan_reconnect.c),
 * pure functions for KUnit (tests/kunit/reconnect_kunit.c)
 */
#ifndef RDMACHAN_RECONNECT_H
#define RDMACHAN_RECONNECT_H

#include <linux/errno.h>
#include <linux/minmax.h>
#include <linux/types.h>

#include "rdmachan.h"

/* The bounds of a policy's figures, RDMACHAN_RC_*, are rdmachan.h's */

/**
 * rdmachan_rc_policy_check() - is a reconnect policy one we can follow
 * @p: the policy
 *
 * Context: any.
 * Return: 0, or -EINVAL: a delay below RDMACHAN_RC_MIN_DELAY_MS or above
 * RDMACHAN_RC_MAX_DELAY_MS, a backoff cap below the delay, a loss
 * timeout (when set) below the delay or above RDMACHAN_RC_MAX_LOSS_MS, a
 * fast-fail time (when set) not below the loss timeout (when that is
 * set) or above RDMACHAN_RC_MAX_LOSS_MS.
 */
static inline int rdmachan_rc_policy_check(const struct rdmachan_reconnect_policy *p)
{
	if (p->delay_ms < RDMACHAN_RC_MIN_DELAY_MS ||
	    p->delay_ms > RDMACHAN_RC_MAX_DELAY_MS ||
	    p->max_delay_ms < p->delay_ms ||
	    p->max_delay_ms > RDMACHAN_RC_MAX_DELAY_MS)
		return -EINVAL;
	if (p->loss_timeout_ms &&
	    (p->loss_timeout_ms < p->delay_ms ||
	     p->loss_timeout_ms > RDMACHAN_RC_MAX_LOSS_MS))
		return -EINVAL;
	if (p->fast_fail_ms &&
	    (p->fast_fail_ms > RDMACHAN_RC_MAX_LOSS_MS ||
	     (p->loss_timeout_ms && p->fast_fail_ms >= p->loss_timeout_ms)))
		return -EINVAL;
	return 0;
}

/**
 * rdmachan_rc_delay() - the wait before an attempt
 * @p: a policy that passed rdmachan_rc_policy_check()
 * @attempt: which attempt, from 1
 *
 * The first waits @p->delay_ms, each later one twice the one before, at
 * most @p->max_delay_ms.
 *
 * Context: any.
 * Return: milliseconds.
 */
static inline u32 rdmachan_rc_delay(const struct rdmachan_reconnect_policy *p,
				    u32 attempt)
{
	u64 d = p->delay_ms;
	u32 i;

	for (i = 1; i < attempt && d < p->max_delay_ms; i++)
		d <<= 1;
	return min_t(u64, d, p->max_delay_ms);
}

/**
 * rdmachan_rc_max_attempts() - how many attempts a policy makes at most
 * @p: a policy that passed rdmachan_rc_policy_check()
 *
 * The attempts that start before the loss timeout, counting their waits
 * only (an attempt itself takes time too: the real count may be lower,
 * never higher).
 *
 * Context: any.
 * Return: the count, at least 1; 0 when there is no loss timeout (no
 * limit).
 */
static inline u32 rdmachan_rc_max_attempts(const struct rdmachan_reconnect_policy *p)
{
	u64 t = 0, d = p->delay_ms;
	u32 n = 0;

	if (!p->loss_timeout_ms)
		return 0;
	/* the doubling waits (at most 26 of them), one by one */
	while (d < p->max_delay_ms) {
		t += d;
		if (t >= p->loss_timeout_ms)
			return max_t(u32, n, 1);
		n++;
		d <<= 1;
	}
	/* then waits of max_delay_ms: those that start before the end */
	n += (p->loss_timeout_ms - t - 1) / p->max_delay_ms;
	return max_t(u32, n, 1);
}

#endif /* RDMACHAN_RECONNECT_H */
