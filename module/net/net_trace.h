/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * rdmachan_net: the network channel's tracepoints (TRACE_SYSTEM
 * rdmachan_net)
 *
 * One header, made into the events by net_trace.c, as the channel's and
 * the block channel's are.  Each event names its interface (rcnN, or
 * what "ip link add" named it); the interface's channel, whose own
 * events (system rdmachan) carry its queue pair number, is in "rdmachan
 * net show -d".  Documentation/debugging.rst lists them.
 */
#undef TRACE_SYSTEM
#define TRACE_SYSTEM rdmachan_net

#if !defined(RDMACHAN_NET_TRACE_H) || defined(TRACE_HEADER_MULTI_READ)
#define RDMACHAN_NET_TRACE_H

#include <linux/if.h>
#include <linux/tracepoint.h>

/*
 * rcnet_xmit - a packet went to the channel (rcnet_xmit()): its length,
 * protocol, whether it was sent from its own pages (zero copy) and the
 * send's error (-EAGAIN: no credit even after the queue stopped, the
 * stack tries again)
 */
TRACE_EVENT(rcnet_xmit,
	    TP_PROTO(const char *dev, u32 len, u16 proto, bool zc, int ret),
	    TP_ARGS(dev, len, proto, zc, ret),
	    TP_STRUCT__entry(__array(char, dev, IFNAMSIZ)
			     __field(u32, len)
			     __field(u16, proto)
			     __field(bool, zc)
			     __field(int, ret)),
	    TP_fast_assign(strscpy(__entry->dev, dev, IFNAMSIZ);
			   __entry->len = len;
			   __entry->proto = proto;
			   __entry->zc = zc;
			   __entry->ret = ret;),
	    TP_printk("%s len %u proto %#06x %s ret %d", __entry->dev,
		      __entry->len, __entry->proto,
		      __entry->zc ? "zero-copy" : "copy", __entry->ret)
);

/*
 * rcnet_queue - the transmit queue stopped (no credit for a packet) or
 * was woken (credits back)
 */
TRACE_EVENT(rcnet_queue,
	    TP_PROTO(const char *dev, bool stop),
	    TP_ARGS(dev, stop),
	    TP_STRUCT__entry(__array(char, dev, IFNAMSIZ)
			     __field(bool, stop)),
	    TP_fast_assign(strscpy(__entry->dev, dev, IFNAMSIZ);
			   __entry->stop = stop;),
	    TP_printk("%s %s", __entry->dev, __entry->stop ? "stop" : "wake")
);

/*
 * rcnet_recv - a packet arrived and is on its way to the stack: its
 * length, protocol, and whether the skb took the channel's receive
 * buffer (zero copy) or a copy
 */
TRACE_EVENT(rcnet_recv,
	    TP_PROTO(const char *dev, u32 len, u16 proto, bool zc),
	    TP_ARGS(dev, len, proto, zc),
	    TP_STRUCT__entry(__array(char, dev, IFNAMSIZ)
			     __field(u32, len)
			     __field(u16, proto)
			     __field(bool, zc)),
	    TP_fast_assign(strscpy(__entry->dev, dev, IFNAMSIZ);
			   __entry->len = len;
			   __entry->proto = proto;
			   __entry->zc = zc;),
	    TP_printk("%s len %u proto %#06x %s", __entry->dev, __entry->len,
		      __entry->proto, __entry->zc ? "zero-copy" : "copy")
);

#endif /* RDMACHAN_NET_TRACE_H */

#undef TRACE_INCLUDE_PATH
#define TRACE_INCLUDE_PATH .
#undef TRACE_INCLUDE_FILE
#define TRACE_INCLUDE_FILE net_trace
#include <trace/define_trace.h>
