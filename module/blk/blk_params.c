// SPDX-License-Identifier: GPL-2.0-only
/*
 * rdmachan_blk: the module's parameters, both sides'
 *
 * Every numeric one is a struct rdmachan_uint_param with its bounds
 * (rdmachan.h), as rdmachan's own are: a value out of bounds given at
 * load fails the load, and one written to
 * /sys/module/rdmachan_blk/parameters/ fails the write with -EINVAL and a
 * log line, the old value kept.  Each is read where it is used, with
 * rcblk_param(); the admin guide and Documentation/blk-*.rst say what
 * each does and when it is read.
 */
#include <linux/moduleparam.h>

#include "blk_clt.h"
#include "blk_srv.h"

/*
 * Parameter NAME, a struct rdmachan_uint_param with its bounds; its
 * MODULE_PARM_DESC() follows it
 */
#define RCBLK_PARAM(name, def, lo, hi, perm)				\
	struct rdmachan_uint_param rcblk_param_##name = {		\
		.val = (def), .min = (lo), .max = (hi), .base = 10,	\
	};								\
	module_param_cb(name, &rdmachan_uint_param_ops,			\
			&rcblk_param_##name, perm)

/* ---- the client (clt_: the server has its own queue_depth, inline_kb) */

RCBLK_PARAM(clt_queue_depth, 128, 2, RCBLK_CLT_MAX_DEPTH, 0644);
MODULE_PARM_DESC(clt_queue_depth,
		 "client: requests per hardware queue when the map does not say (2..4096, default 128)");
RCBLK_PARAM(clt_inline_kb, 4, 0, 64, 0644);
MODULE_PARM_DESC(clt_inline_kb,
		 "client: WRITEs up to this many KiB travel inside the request (0..64, default 4)");
RCBLK_PARAM(clt_staged_reads, 1, 0, 1, 0644);
MODULE_PARM_DESC(clt_staged_reads,
		 "client: READs of a page go through a page per tag of their queue instead of a registration of their own, on maps made after (0..1, default 1)");
RCBLK_PARAM(clt_reply_batch, 1, 0, 1, 0644);
MODULE_PARM_DESC(clt_reply_batch,
		 "client: offer the server to answer several requests in one message, on maps made after (0..1, default 1)");
RCBLK_PARAM(clt_timeout_ms, 10000, 100, 600000, 0644);
MODULE_PARM_DESC(clt_timeout_ms,
		 "client: bound on connecting and on the server's OPEN_RSP, per channel (100..600000, default 10000)");

/*
 * nvme's reconnect_delay, ctrl_loss_tmo and fast_io_fail_tmo, within the
 * bounds of a reconnect policy (rdmachan.h); each map may say otherwise
 * (RDMACHAN_IOC_BLK_MAP, map_device) and sysfs changes a mapping's later
 */
RCBLK_PARAM(clt_reconnect_delay_ms, 2000, RDMACHAN_RC_MIN_DELAY_MS,
	    RDMACHAN_RC_MAX_DELAY_MS, 0644);
MODULE_PARM_DESC(clt_reconnect_delay_ms,
		 "client: wait before the first reconnect attempt after a link loss, in ms, when the map does not say (100..3600000, default 2000)");
RCBLK_PARAM(clt_reconnect_max_delay_ms, 30000, RDMACHAN_RC_MIN_DELAY_MS,
	    RDMACHAN_RC_MAX_DELAY_MS, 0644);
MODULE_PARM_DESC(clt_reconnect_max_delay_ms,
		 "client: each wait between reconnect attempts doubles up to this, in ms (100..3600000, at least the map's delay; default 30000)");
RCBLK_PARAM(clt_loss_timeout_ms, 600000, 0, RDMACHAN_RC_MAX_LOSS_MS, 0644);
MODULE_PARM_DESC(clt_loss_timeout_ms,
		 "client: give up reconnecting this long after a link loss, in ms, when the map does not say (0: never; at most 7 days; default 600000)");
RCBLK_PARAM(clt_fast_io_fail_ms, 0, 0, RDMACHAN_RC_MAX_LOSS_MS, 0644);
MODULE_PARM_DESC(clt_fast_io_fail_ms,
		 "client: fail held and new I/O this long after a link loss while reconnecting goes on, in ms, when the map does not say (0: never, the default)");

/* ---- the server ------------------------------------------------------ */

/*
 * exports: exports made at load, before any client can connect:
 * "NAME=PATH[,ro][,stable_id][,allow=CIDR[+CIDR...]][;NAME=PATH...]", for
 * example "disk0=/dev/nullb0,ro,allow=192.0.2.0/24+10.0.0.1;disk1=/dev/ram0".
 * Each is checked like RDMACHAN_IOC_BLK_EXPORT; a bad one makes the
 * load fail.  An export without allow= admits no client.
 */
char *rcblk_param_exports;
module_param_named(exports, rcblk_param_exports, charp, 0444);
MODULE_PARM_DESC(exports, "exports made at load: NAME=PATH[,ro][,stable_id][,allow=CIDR[+CIDR...]] separated by ';'");

/* the listener's rdma_cm port, read at load */
RCBLK_PARAM(port, RCBLK_DEFAULT_PORT, 1, 65535, 0444);
MODULE_PARM_DESC(port,
		 "rdma_cm port the server listens on, [::]:port for IPv6 and IPv4 (default 7471)");
/*
 * requests per queue the server offers (the channel's credits,
 * negotiated down to the client's): each costs a slot of max_io bytes;
 * read when the listener starts
 */
RCBLK_PARAM(queue_depth, 64, 1, 1024, 0444);
MODULE_PARM_DESC(queue_depth,
		 "requests per queue at most, 1..1024 (default 64), read at load");
/*
 * largest request the server takes (and its slot size), at most a bio
 * of BIO_MAX_VECS pages; a channel's registration limit lowers it
 * further.  Read at each OPEN.
 */
RCBLK_PARAM(max_io_kb, 128, 4, 1024, 0644);
MODULE_PARM_DESC(max_io_kb,
		 "largest request in KiB, 4..1024 (default 128)");
/*
 * WRITEs up to this size travel inside the request message; the
 * listener's max_msg_size is 32 + inline_kb KiB.  Read when the listener
 * starts (with the first export).
 */
RCBLK_PARAM(inline_kb, 4, 0, 64, 0444);
MODULE_PARM_DESC(inline_kb,
		 "largest inline WRITE in KiB, 0..64 (default 4), read at load");
/*
 * bytes of RDMA READ one queue has in flight pulling WRITEs' data, read
 * in pieces of half of it (blk_srv_pull.c); read at each piece
 */
RCBLK_PARAM(pull_window_kb, 64, 0, 65536, 0644);
MODULE_PARM_DESC(pull_window_kb,
		 "RDMA READ bytes of WRITE data one queue has in flight, read in pieces of half of it (0: each request in one READ, unbounded; 0..65536, default 64)");
/*
 * a channel accepted must bring its OPEN within this time, or it is
 * closed (a client that connects and says nothing holds a channel's
 * buffers for nothing); read at each accept
 */
RCBLK_PARAM(open_timeout_ms, 10000, 1000, 600000, 0644);
MODULE_PARM_DESC(open_timeout_ms,
		 "time a new channel has to send its OPEN, 1000..600000 ms (default 10000)");

/* The server's queue limits (blk_srv_limits.c), read at each connect and OPEN */
RCBLK_PARAM(max_queues, 1024, 1, 65536, 0644);
MODULE_PARM_DESC(max_queues,
		 "queues (channels) the server holds, all clients (1..65536, default 1024)");
RCBLK_PARAM(max_peer_queues, 128, 1, 65536, 0644);
MODULE_PARM_DESC(max_peer_queues,
		 "queues one client address may hold, opened or not (1..65536, default 128)");
RCBLK_PARAM(max_session_queues, 64, 1, 65536, 0644);
MODULE_PARM_DESC(max_session_queues,
		 "queues one mapping may ask for (1..65536, default 64)");
RCBLK_PARAM(max_export_queues, 512, 1, 65536, 0644);
MODULE_PARM_DESC(max_export_queues,
		 "queues of one export, all its clients (1..65536, default 512)");
