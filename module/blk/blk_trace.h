/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * rdmachan_blk: the block channel's tracepoints (TRACE_SYSTEM rdmachan_blk)
 *
 * As rnbd-srv-trace.h and rtrs-clt-trace.h are for rnbd and rtrs: one
 * header, made into the events by blk_trace.c.  A client's events name
 * the mapping (rcblkN), its queue and the request's tag; a server's the
 * export and the tag the client gave.  The tag and the queue's channel
 * (whose own events, system rdmachan, carry its QP number) join the two
 * sides.  Documentation/debugging.rst lists them.
 */
#undef TRACE_SYSTEM
#define TRACE_SYSTEM rdmachan_blk

#if !defined(RDMACHAN_BLK_TRACE_H) || defined(TRACE_HEADER_MULTI_READ)
#define RDMACHAN_BLK_TRACE_H

#include <linux/tracepoint.h>

#include <linux/rdmachan_blk.h>

#include "blk_proto.h"

TRACE_DEFINE_ENUM(RCBLK_OP_READ);
TRACE_DEFINE_ENUM(RCBLK_OP_WRITE);
TRACE_DEFINE_ENUM(RCBLK_OP_FLUSH);
TRACE_DEFINE_ENUM(RCBLK_OP_DISCARD);
TRACE_DEFINE_ENUM(RCBLK_OP_WRITE_ZEROES);

#define show_rcblk_op(x)						\
	__print_symbolic(x,						\
		{ RCBLK_OP_READ,		"READ" },		\
		{ RCBLK_OP_WRITE,		"WRITE" },		\
		{ RCBLK_OP_FLUSH,		"FLUSH" },		\
		{ RCBLK_OP_DISCARD,		"DISCARD" },		\
		{ RCBLK_OP_WRITE_ZEROES,	"WRITE_ZEROES" })

TRACE_DEFINE_ENUM(RCBLK_DATA_NONE);
TRACE_DEFINE_ENUM(RCBLK_DATA_INLINE);
TRACE_DEFINE_ENUM(RCBLK_DATA_REMOTE);
TRACE_DEFINE_ENUM(RCBLK_DATA_STAGED);

#define show_rcblk_data(x)						\
	__print_symbolic(x,						\
		{ RCBLK_DATA_NONE,		"none" },		\
		{ RCBLK_DATA_INLINE,		"inline" },		\
		{ RCBLK_DATA_REMOTE,		"remote" },		\
		{ RCBLK_DATA_STAGED,		"staged" })

/*
 * rcblk_clt_send - a request goes to the server (rcblk_clt_send_rq()):
 * its operation, sector, length and how its data travels.  Recorded
 * before the post: over a fast link its reply may end it before the post
 * returns.
 */
TRACE_EVENT(rcblk_clt_send,
	    TP_PROTO(int map, u16 qid, u16 tag, u8 op, u64 sector, u32 len,
		     u8 data),
	    TP_ARGS(map, qid, tag, op, sector, len, data),
	    TP_STRUCT__entry(__field(int, map)
			     __field(u16, qid)
			     __field(u16, tag)
			     __field(u8, op)
			     __field(u8, data)
			     __field(u64, sector)
			     __field(u32, len)),
	    TP_fast_assign(__entry->map = map;
			   __entry->qid = qid;
			   __entry->tag = tag;
			   __entry->op = op;
			   __entry->data = data;
			   __entry->sector = sector;
			   __entry->len = len;),
	    TP_printk("rcblk%d queue %u tag %u %s sector %llu len %u data %s",
		      __entry->map, __entry->qid, __entry->tag,
		      show_rcblk_op(__entry->op), __entry->sector,
		      __entry->len, show_rcblk_data(__entry->data))
);

/*
 * rcblk_clt_unsent - the send of a request just recorded failed: the
 * error (-EAGAIN: the channel had no room, blk-mq runs it again)
 */
TRACE_EVENT(rcblk_clt_unsent,
	    TP_PROTO(int map, u16 qid, u16 tag, int ret),
	    TP_ARGS(map, qid, tag, ret),
	    TP_STRUCT__entry(__field(int, map)
			     __field(u16, qid)
			     __field(u16, tag)
			     __field(int, ret)),
	    TP_fast_assign(__entry->map = map;
			   __entry->qid = qid;
			   __entry->tag = tag;
			   __entry->ret = ret;),
	    TP_printk("rcblk%d queue %u tag %u ret %d",
		      __entry->map, __entry->qid, __entry->tag, __entry->ret)
);

/*
 * rcblk_clt_reply - the server's reply to a request in flight arrived:
 * its status (enum rcblk_status), by a SEND or with a READ's data (an
 * RDMA WRITE_WITH_IMM), and whether it invalidated the registration
 */
TRACE_EVENT(rcblk_clt_reply,
	    TP_PROTO(int map, u16 qid, u16 tag, u8 status, bool write_imm,
		     bool invalidated),
	    TP_ARGS(map, qid, tag, status, write_imm, invalidated),
	    TP_STRUCT__entry(__field(int, map)
			     __field(u16, qid)
			     __field(u16, tag)
			     __field(u8, status)
			     __field(bool, write_imm)
			     __field(bool, invalidated)),
	    TP_fast_assign(__entry->map = map;
			   __entry->qid = qid;
			   __entry->tag = tag;
			   __entry->status = status;
			   __entry->write_imm = write_imm;
			   __entry->invalidated = invalidated;),
	    TP_printk("rcblk%d queue %u tag %u status %u by %s%s",
		      __entry->map, __entry->qid, __entry->tag,
		      __entry->status,
		      __entry->write_imm ? "write_imm" : "send",
		      __entry->invalidated ? " invalidated" : "")
);

/* how a request that went to the server ends on the client */
#define RCBLK_TR_ENDED		0	/* completed, with its status */
#define RCBLK_TR_RESUBMIT	1	/* refused with RESOURCE: goes again */
#define RCBLK_TR_HELD		2	/* held by a link loss */

#define show_rcblk_how(x)						\
	__print_symbolic(x,						\
		{ RCBLK_TR_ENDED,		"ended" },		\
		{ RCBLK_TR_RESUBMIT,		"resubmitted" },	\
		{ RCBLK_TR_HELD,		"held" })

/*
 * rcblk_clt_done - a request that went to the server ends (with its
 * blk_status_t, 0 success), or goes again after a RESOURCE refusal, or
 * is held by a link loss to go again once the link is back
 */
TRACE_EVENT(rcblk_clt_done,
	    TP_PROTO(int map, u16 tag, u8 op, u64 sector, u32 len, int status,
		     u8 how),
	    TP_ARGS(map, tag, op, sector, len, status, how),
	    TP_STRUCT__entry(__field(int, map)
			     __field(u16, tag)
			     __field(u8, op)
			     __field(u64, sector)
			     __field(u32, len)
			     __field(int, status)
			     __field(u8, how)),
	    TP_fast_assign(__entry->map = map;
			   __entry->tag = tag;
			   __entry->op = op;
			   __entry->sector = sector;
			   __entry->len = len;
			   __entry->status = status;
			   __entry->how = how;),
	    TP_printk("rcblk%d tag %u %s sector %llu len %u %s status %d",
		      __entry->map, __entry->tag, show_rcblk_op(__entry->op),
		      __entry->sector, __entry->len,
		      show_rcblk_how(__entry->how), __entry->status)
);

/*
 * A server's request at one of its stages: arrived (checked, with a
 * slot or parked), its bio submitted, its bio ended, the RDMA of its data
 * about to be posted (a READ's push; each RDMA READ piece of a WRITE's
 * pull, naming the piece's sector and length; again after the channel
 * had no room), its reply posted; the status so far (enum rcblk_status)
 */
DECLARE_EVENT_CLASS(rcblk_srv_class,
		    TP_PROTO(const char *exp, u16 tag, u8 op, u64 sector,
			     u32 len, u8 status),
		    TP_ARGS(exp, tag, op, sector, len, status),
		    TP_STRUCT__entry(__array(char, exp, RDMACHAN_BLK_NAME_MAX)
				     __field(u16, tag)
				     __field(u8, op)
				     __field(u8, status)
				     __field(u64, sector)
				     __field(u32, len)),
		    TP_fast_assign(strscpy(__entry->exp, exp,
					   RDMACHAN_BLK_NAME_MAX);
				   __entry->tag = tag;
				   __entry->op = op;
				   __entry->status = status;
				   __entry->sector = sector;
				   __entry->len = len;),
		    TP_printk("%s tag %u %s sector %llu len %u status %u",
			      __entry->exp, __entry->tag,
			      show_rcblk_op(__entry->op), __entry->sector,
			      __entry->len, __entry->status)
);

#define RCBLK_SRV_EVENT(name)						\
DEFINE_EVENT(rcblk_srv_class, name,					\
	     TP_PROTO(const char *exp, u16 tag, u8 op, u64 sector,	\
		      u32 len, u8 status),				\
	     TP_ARGS(exp, tag, op, sector, len, status))

RCBLK_SRV_EVENT(rcblk_srv_arrive);
RCBLK_SRV_EVENT(rcblk_srv_submit);
RCBLK_SRV_EVENT(rcblk_srv_bio_end);
RCBLK_SRV_EVENT(rcblk_srv_rdma);
RCBLK_SRV_EVENT(rcblk_srv_reply);

#endif /* RDMACHAN_BLK_TRACE_H */

#undef TRACE_INCLUDE_PATH
#define TRACE_INCLUDE_PATH .
#undef TRACE_INCLUDE_FILE
#define TRACE_INCLUDE_FILE blk_trace
#include <trace/define_trace.h>
