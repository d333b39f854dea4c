/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * rdmachan: when a channel's keepalive tick sends a probe, as a pure
 * function (chan_ctrl.c's rdmachan_keepalive_work() applies it)
 *
 * The tick runs every keepalive_ms for the channel's housekeeping (send
 * buffers and credits of an idle channel given back, a grant's retries,
 * the stuck-transport checks).  A probe goes only once nothing has
 * arrived for RDMACHAN_KEEPALIVE_QUIET_TICKS ticks in a row, as RTRS's
 * heartbeat and NVMe's keep alive (5 s each by default) are sent: an
 * idle channel costs its two hosts a probe and half a CREDIT every five
 * seconds instead of every second, and a host with many idle channels
 * (the idle queues of a block mapping, a server's many clients) that
 * much less work between its I/Os.  A peer's probe arriving resets the
 * count, so that the two ends of an idle channel send one probe per five
 * ticks between them, whichever counts to five first; its RC ACK tells
 * the prober the peer is there, its arrival tells the peer.
 */
#ifndef RDMACHAN_KEEPALIVE_H
#define RDMACHAN_KEEPALIVE_H

#include <linux/types.h>

/* Ticks with nothing arrived before a keepalive probe goes */
#define RDMACHAN_KEEPALIVE_QUIET_TICKS	5

/**
 * rdmachan_keepalive_probe_due() - count a keepalive tick
 * @quiet: ticks in a row that found nothing arrived; updated
 * @seen: something arrived since the previous tick
 *
 * Context: the channel's keepalive work, under its lock.
 * Return: whether a probe is due (the count then starts again).
 */
static inline bool rdmachan_keepalive_probe_due(u8 *quiet, bool seen)
{
	if (seen) {
		*quiet = 0;
		return false;
	}
	if (++*quiet < RDMACHAN_KEEPALIVE_QUIET_TICKS)
		return false;
	*quiet = 0;
	return true;
}

#endif /* RDMACHAN_KEEPALIVE_H */
