/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * rdmachan: the life cycle of a channel, as pure functions
 *
 *   CONNECTING  --established-->  CONNECTED
 *   CONNECTING, CONNECTED  --closed-->  DISCONNECTED
 *   CONNECTING, CONNECTED, DISCONNECTED  --failed-->  FAILED
 *
 * Every other event leaves the state as it is: FAILED is final, a closed
 * channel is never re-established, and the first failure's error is the
 * one kept.  A DISCONNECTED channel can still fail (its device goes away
 * while messages wait to be read), which turns the end of its stream
 * into that error.
 *
 * What a send, a read or poll() sees follows from the state alone; the
 * channel code holds its lock around these and acts on the result.
 */
#ifndef RDMACHAN_STATE_H
#define RDMACHAN_STATE_H

#include <linux/errno.h>
#include <linux/poll.h>
#include <linux/types.h>

#include "rdmachan.h"

/* What happened to a channel */
enum rdmachan_event {
	RDMACHAN_EV_ESTABLISHED,	/* rdma_cm ESTABLISHED, I/O can start */
	RDMACHAN_EV_CLOSED,		/* orderly close, by either side */
	RDMACHAN_EV_FAILED,		/* peer lost, device gone, error */
};

/* The state after @ev in state @s */
static inline enum rdmachan_state
rdmachan_state_next(enum rdmachan_state s, enum rdmachan_event ev)
{
	switch (ev) {
	case RDMACHAN_EV_ESTABLISHED:
		return s == RDMACHAN_CONNECTING ? RDMACHAN_CONNECTED : s;
	case RDMACHAN_EV_CLOSED:
		if (s == RDMACHAN_CONNECTING || s == RDMACHAN_CONNECTED)
			return RDMACHAN_DISCONNECTED;
		return s;
	case RDMACHAN_EV_FAILED:
		return RDMACHAN_FAILED;
	}
	return s;
}

/*
 * The errno of a send in state @s; 0 when it may go ahead.  @io_stopped:
 * teardown has begun; @err: the channel's error, once FAILED.
 */
static inline int rdmachan_state_send_err(enum rdmachan_state s,
					  bool io_stopped, int err)
{
	switch (s) {
	case RDMACHAN_CONNECTED:
		return io_stopped ? -ECONNRESET : 0;
	case RDMACHAN_CONNECTING:
		return -ENOTCONN;
	case RDMACHAN_DISCONNECTED:
		return -ECONNRESET;
	case RDMACHAN_FAILED:
		break;
	}
	return err ?: -ECONNRESET;
}

/*
 * What a read finds with no message queued: -EAGAIN (one may still
 * come: wait), 0 (the end of an orderly shutdown) or the channel's error.
 * @torn_down: the channel's resources are gone.
 */
static inline int rdmachan_state_read_end(enum rdmachan_state s,
					  bool torn_down, int err)
{
	if (s == RDMACHAN_FAILED)
		return err ?: -ECONNRESET;
	if (s == RDMACHAN_DISCONNECTED || torn_down)
		return 0;
	return -EAGAIN;
}

/* The poll() events that follow from the state alone */
static inline __poll_t rdmachan_state_poll_events(enum rdmachan_state s)
{
	switch (s) {
	case RDMACHAN_DISCONNECTED:
		return EPOLLRDHUP | EPOLLHUP;
	case RDMACHAN_FAILED:
		return EPOLLERR | EPOLLHUP;
	default:
		return 0;
	}
}

#endif /* RDMACHAN_STATE_H */
