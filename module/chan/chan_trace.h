/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * rdmachan: the channel's tracepoints (TRACE_SYSTEM rdmachan)
 *
 * As rtrs-clt-trace.h is for rtrs: one header, made into the events by
 * chan_trace.c.  Every event names its channel by the number of its
 * sysfs name (chanN) and its queue pair number, which with the channel's
 * device joins it with `rdma res show qp` and `rdma res show cm_id`
 * (lqpn) and with ib_cma's events.  Documentation/debugging.rst lists
 * them.
 */
#undef TRACE_SYSTEM
#define TRACE_SYSTEM rdmachan

#if !defined(RDMACHAN_CHAN_TRACE_H) || defined(TRACE_HEADER_MULTI_READ)
#define RDMACHAN_CHAN_TRACE_H

#include <linux/tracepoint.h>
#include <rdma/rdma_cm.h>

#include "proto.h"
#include "rdmachan.h"
#include "state.h"

TRACE_DEFINE_ENUM(RDMACHAN_CONNECTING);
TRACE_DEFINE_ENUM(RDMACHAN_CONNECTED);
TRACE_DEFINE_ENUM(RDMACHAN_DISCONNECTED);
TRACE_DEFINE_ENUM(RDMACHAN_FAILED);

#define show_rdmachan_state(x)						\
	__print_symbolic(x,						\
		{ RDMACHAN_CONNECTING,		"CONNECTING" },		\
		{ RDMACHAN_CONNECTED,		"CONNECTED" },		\
		{ RDMACHAN_DISCONNECTED,	"DISCONNECTED" },	\
		{ RDMACHAN_FAILED,		"FAILED" })

TRACE_DEFINE_ENUM(RDMACHAN_EV_ESTABLISHED);
TRACE_DEFINE_ENUM(RDMACHAN_EV_CLOSED);
TRACE_DEFINE_ENUM(RDMACHAN_EV_FAILED);

#define show_rdmachan_event(x)						\
	__print_symbolic(x,						\
		{ RDMACHAN_EV_ESTABLISHED,	"ESTABLISHED" },	\
		{ RDMACHAN_EV_CLOSED,		"CLOSED" },		\
		{ RDMACHAN_EV_FAILED,		"FAILED" })

TRACE_DEFINE_ENUM(RDMACHAN_MSG_DATA);
TRACE_DEFINE_ENUM(RDMACHAN_MSG_CREDIT);
TRACE_DEFINE_ENUM(RDMACHAN_MSG_KEEPALIVE);
TRACE_DEFINE_ENUM(RDMACHAN_MSG_CLOSE);
TRACE_DEFINE_ENUM(RDMACHAN_MSG_PAD);
TRACE_DEFINE_ENUM(RDMACHAN_MSG_RETIRE);

#define show_rdmachan_msg(x)						\
	__print_symbolic(x,						\
		{ RDMACHAN_MSG_DATA,		"DATA" },		\
		{ RDMACHAN_MSG_CREDIT,		"CREDIT" },		\
		{ RDMACHAN_MSG_KEEPALIVE,	"KEEPALIVE" },		\
		{ RDMACHAN_MSG_CLOSE,		"CLOSE" },		\
		{ RDMACHAN_MSG_PAD,		"PAD" },		\
		{ RDMACHAN_MSG_RETIRE,		"RETIRE" })

TRACE_DEFINE_ENUM(RDMACHAN_LINK_LIVE);
TRACE_DEFINE_ENUM(RDMACHAN_LINK_RECONNECTING);
TRACE_DEFINE_ENUM(RDMACHAN_LINK_DEAD);

#define show_rdmachan_link(x)						\
	__print_symbolic(x,						\
		{ RDMACHAN_LINK_LIVE,		"LIVE" },		\
		{ RDMACHAN_LINK_RECONNECTING,	"RECONNECTING" },	\
		{ RDMACHAN_LINK_DEAD,		"DEAD" })

/* rdma_cm's events, as ib_core's own tracepoints print them */
#define show_rdmachan_cm_event(x)					\
	__print_symbolic(x,						\
		{ RDMA_CM_EVENT_ADDR_RESOLVED,	"ADDR_RESOLVED" },	\
		{ RDMA_CM_EVENT_ADDR_ERROR,	"ADDR_ERROR" },		\
		{ RDMA_CM_EVENT_ROUTE_RESOLVED,	"ROUTE_RESOLVED" },	\
		{ RDMA_CM_EVENT_ROUTE_ERROR,	"ROUTE_ERROR" },	\
		{ RDMA_CM_EVENT_CONNECT_REQUEST, "CONNECT_REQUEST" },	\
		{ RDMA_CM_EVENT_CONNECT_RESPONSE, "CONNECT_RESPONSE" },	\
		{ RDMA_CM_EVENT_CONNECT_ERROR,	"CONNECT_ERROR" },	\
		{ RDMA_CM_EVENT_UNREACHABLE,	"UNREACHABLE" },	\
		{ RDMA_CM_EVENT_REJECTED,	"REJECTED" },		\
		{ RDMA_CM_EVENT_ESTABLISHED,	"ESTABLISHED" },	\
		{ RDMA_CM_EVENT_DISCONNECTED,	"DISCONNECTED" },	\
		{ RDMA_CM_EVENT_DEVICE_REMOVAL,	"DEVICE_REMOVAL" },	\
		{ RDMA_CM_EVENT_ADDR_CHANGE,	"ADDR_CHANGE" },	\
		{ RDMA_CM_EVENT_TIMEWAIT_EXIT,	"TIMEWAIT_EXIT" })

/*
 * rdmachan_chan_state - a channel moved along its life cycle
 * (rdmachan_event_locked()): the event, the old and new state, and for
 * FAILED why (a negative errno)
 */
TRACE_EVENT(rdmachan_chan_state,
	    TP_PROTO(u32 id, u32 qpn, int old, int state, int ev, int err),
	    TP_ARGS(id, qpn, old, state, ev, err),
	    TP_STRUCT__entry(__field(u32, id)
			     __field(u32, qpn)
			     __field(int, old)
			     __field(int, state)
			     __field(int, ev)
			     __field(int, err)),
	    TP_fast_assign(__entry->id = id;
			   __entry->qpn = qpn;
			   __entry->old = old;
			   __entry->state = state;
			   __entry->ev = ev;
			   __entry->err = err;),
	    TP_printk("chan%u qpn %u %s: %s -> %s err %d", __entry->id,
		      __entry->qpn, show_rdmachan_event(__entry->ev),
		      show_rdmachan_state(__entry->old),
		      show_rdmachan_state(__entry->state), __entry->err)
);

/*
 * rdmachan_chan_cm - an rdma_cm event reached a channel: its status (a
 * rejection's reason, an error)
 */
TRACE_EVENT(rdmachan_chan_cm,
	    TP_PROTO(u32 id, u32 qpn, int event, int status),
	    TP_ARGS(id, qpn, event, status),
	    TP_STRUCT__entry(__field(u32, id)
			     __field(u32, qpn)
			     __field(int, event)
			     __field(int, status)),
	    TP_fast_assign(__entry->id = id;
			   __entry->qpn = qpn;
			   __entry->event = event;
			   __entry->status = status;),
	    TP_printk("chan%u qpn %u %s status %d", __entry->id, __entry->qpn,
		      show_rdmachan_cm_event(__entry->event), __entry->status)
);

/*
 * rdmachan_chan_send - a message posted (rdmachan_commit_locked()): DATA,
 * or the PAD of a withdrawn slot or a RETIRE, its sequence number, length,
 * immediate, and the credits left to the sender
 */
TRACE_EVENT(rdmachan_chan_send,
	    TP_PROTO(u32 id, u32 qpn, int type, u64 seq, u32 len, bool has_imm,
		     u32 credits),
	    TP_ARGS(id, qpn, type, seq, len, has_imm, credits),
	    TP_STRUCT__entry(__field(u32, id)
			     __field(u32, qpn)
			     __field(int, type)
			     __field(u64, seq)
			     __field(u32, len)
			     __field(bool, has_imm)
			     __field(u32, credits)),
	    TP_fast_assign(__entry->id = id;
			   __entry->qpn = qpn;
			   __entry->type = type;
			   __entry->seq = seq;
			   __entry->len = len;
			   __entry->has_imm = has_imm;
			   __entry->credits = credits;),
	    TP_printk("chan%u qpn %u %s seq %llu len %u%s credits %u",
		      __entry->id, __entry->qpn, show_rdmachan_msg(__entry->type),
		      __entry->seq, __entry->len,
		      __entry->has_imm ? " imm" : "", __entry->credits)
);

/*
 * rdmachan_chan_recv - a message arrived and was checked
 * (rdmachan_rx_done()): its type, length, and the credits it returned
 */
TRACE_EVENT(rdmachan_chan_recv,
	    TP_PROTO(u32 id, u32 qpn, int type, u32 len, u32 credits),
	    TP_ARGS(id, qpn, type, len, credits),
	    TP_STRUCT__entry(__field(u32, id)
			     __field(u32, qpn)
			     __field(int, type)
			     __field(u32, len)
			     __field(u32, credits)),
	    TP_fast_assign(__entry->id = id;
			   __entry->qpn = qpn;
			   __entry->type = type;
			   __entry->len = len;
			   __entry->credits = credits;),
	    TP_printk("chan%u qpn %u %s len %u credits %u", __entry->id,
		      __entry->qpn, show_rdmachan_msg(__entry->type), __entry->len,
		      __entry->credits)
);

/*
 * rdmachan_chan_keepalive_miss - a keepalive went unanswered for @secs:
 * the channel fails
 */
TRACE_EVENT(rdmachan_chan_keepalive_miss,
	    TP_PROTO(u32 id, u32 qpn, u32 secs),
	    TP_ARGS(id, qpn, secs),
	    TP_STRUCT__entry(__field(u32, id)
			     __field(u32, qpn)
			     __field(u32, secs)),
	    TP_fast_assign(__entry->id = id;
			   __entry->qpn = qpn;
			   __entry->secs = secs;),
	    TP_printk("chan%u qpn %u unanswered for %u s", __entry->id,
		      __entry->qpn, __entry->secs)
);

#define show_rdmachan_wr(x)						\
	__print_symbolic(x,						\
		{ IB_WR_RDMA_WRITE,		"WRITE" },		\
		{ IB_WR_RDMA_WRITE_WITH_IMM,	"WRITE_WITH_IMM" },	\
		{ IB_WR_RDMA_READ,		"READ" },		\
		{ IB_WR_ATOMIC_CMP_AND_SWP,	"CMP_AND_SWP" },	\
		{ IB_WR_ATOMIC_FETCH_AND_ADD,	"FETCH_AND_ADD" },	\
		{ IB_WR_REG_MR,			"REG_MR" },		\
		{ IB_WR_LOCAL_INV,		"LOCAL_INV" })

/*
 * rdmachan_chan_rdma - a one-sided request posted (rdmachan_rdma_post()):
 * its first operation, its operations and how many went, and the post's
 * error
 */
TRACE_EVENT(rdmachan_chan_rdma,
	    TP_PROTO(u32 id, u32 qpn, int opcode, u32 nr, u32 posted,
		     int err),
	    TP_ARGS(id, qpn, opcode, nr, posted, err),
	    TP_STRUCT__entry(__field(u32, id)
			     __field(u32, qpn)
			     __field(int, opcode)
			     __field(u32, nr)
			     __field(u32, posted)
			     __field(int, err)),
	    TP_fast_assign(__entry->id = id;
			   __entry->qpn = qpn;
			   __entry->opcode = opcode;
			   __entry->nr = nr;
			   __entry->posted = posted;
			   __entry->err = err;),
	    TP_printk("chan%u qpn %u %s nr %u posted %u err %d", __entry->id,
		      __entry->qpn, show_rdmachan_wr(__entry->opcode),
		      __entry->nr, __entry->posted, __entry->err)
);

/*
 * rdmachan_chan_rdma_done - a one-sided request's last operation
 * completed: its status (ib_wc_status)
 */
TRACE_EVENT(rdmachan_chan_rdma_done,
	    TP_PROTO(u32 id, u32 qpn, u32 nr, int status),
	    TP_ARGS(id, qpn, nr, status),
	    TP_STRUCT__entry(__field(u32, id)
			     __field(u32, qpn)
			     __field(u32, nr)
			     __field(int, status)),
	    TP_fast_assign(__entry->id = id;
			   __entry->qpn = qpn;
			   __entry->nr = nr;
			   __entry->status = status;),
	    TP_printk("chan%u qpn %u nr %u status %d", __entry->id,
		      __entry->qpn, __entry->nr, __entry->status)
);

/*
 * rdmachan_chan_grant - a grant changed (chan_grant.c): the receiver
 * granted @n more ("grow"), or the sender gave @n back ("retire"); the
 * credits granted to the peer, or held, after
 */
TRACE_EVENT(rdmachan_chan_grant,
	    TP_PROTO(u32 id, u32 qpn, bool grow, u32 n, u32 after),
	    TP_ARGS(id, qpn, grow, n, after),
	    TP_STRUCT__entry(__field(u32, id)
			     __field(u32, qpn)
			     __field(bool, grow)
			     __field(u32, n)
			     __field(u32, after)),
	    TP_fast_assign(__entry->id = id;
			   __entry->qpn = qpn;
			   __entry->grow = grow;
			   __entry->n = n;
			   __entry->after = after;),
	    TP_printk("chan%u qpn %u %s %u: %s %u", __entry->id, __entry->qpn,
		      __entry->grow ? "grow" : "retire", __entry->n,
		      __entry->grow ? "granted" : "held", __entry->after)
);

/*
 * rdmachan_link_state - a reconnecting link (chan_reconnect.c: a block
 * mapping's, "rcblkN") changed state: lost (LIVE -> RECONNECTING, with
 * the loss's error), back (RECONNECTING -> LIVE after @attempt attempts
 * and @down_ms), given up or stopped (-> DEAD, with the last error), or
 * restarted by its user (DEAD -> LIVE)
 */
TRACE_EVENT(rdmachan_link_state,
	    TP_PROTO(const char *name, int old, int state, int err,
		     u32 attempt, u32 down_ms),
	    TP_ARGS(name, old, state, err, attempt, down_ms),
	    TP_STRUCT__entry(__array(char, name, 32)
			     __field(int, old)
			     __field(int, state)
			     __field(int, err)
			     __field(u32, attempt)
			     __field(u32, down_ms)),
	    TP_fast_assign(strscpy(__entry->name, name, 32);
			   __entry->old = old;
			   __entry->state = state;
			   __entry->err = err;
			   __entry->attempt = attempt;
			   __entry->down_ms = down_ms;),
	    TP_printk("%s %s -> %s err %d attempts %u down %u ms",
		      __entry->name, show_rdmachan_link(__entry->old),
		      show_rdmachan_link(__entry->state), __entry->err,
		      __entry->attempt, __entry->down_ms)
);

/*
 * rdmachan_link_attempt - a reconnect attempt ended: its number, of how
 * many (0: no limit), its error (0: the link is back), and the wait
 * before the next (0: none)
 */
TRACE_EVENT(rdmachan_link_attempt,
	    TP_PROTO(const char *name, u32 attempt, u32 max, int err,
		     u32 next_ms),
	    TP_ARGS(name, attempt, max, err, next_ms),
	    TP_STRUCT__entry(__array(char, name, 32)
			     __field(u32, attempt)
			     __field(u32, max)
			     __field(int, err)
			     __field(u32, next_ms)),
	    TP_fast_assign(strscpy(__entry->name, name, 32);
			   __entry->attempt = attempt;
			   __entry->max = max;
			   __entry->err = err;
			   __entry->next_ms = next_ms;),
	    TP_printk("%s attempt %u of %u err %d next in %u ms",
		      __entry->name, __entry->attempt, __entry->max,
		      __entry->err, __entry->next_ms)
);

/*
 * rdmachan_link_fast_fail - a reconnecting link's fast-fail time passed:
 * its user fails the I/O it holds and what comes
 */
TRACE_EVENT(rdmachan_link_fast_fail,
	    TP_PROTO(const char *name, u32 fast_fail_ms),
	    TP_ARGS(name, fast_fail_ms),
	    TP_STRUCT__entry(__array(char, name, 32)
			     __field(u32, fast_fail_ms)),
	    TP_fast_assign(strscpy(__entry->name, name, 32);
			   __entry->fast_fail_ms = fast_fail_ms;),
	    TP_printk("%s fast-fail after %u ms", __entry->name,
		      __entry->fast_fail_ms)
);

#endif /* RDMACHAN_CHAN_TRACE_H */

#undef TRACE_INCLUDE_PATH
#define TRACE_INCLUDE_PATH .
#undef TRACE_INCLUDE_FILE
#define TRACE_INCLUDE_FILE chan_trace
#include <trace/define_trace.h>
