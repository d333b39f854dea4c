// SPDX-License-Identifier: GPL-2.0-only
/*
 * rdmachan_net: the module's parameters
 *
 * Read when a device is made (the reconnect policy, the connect timeout,
 * rx_spread) or per packet (rx_zero_copy, rx_backlog); Documentation/net.rst
 * and the admin guide describe them.  Every numeric one is a struct
 * rdmachan_uint_param with its bounds (rdmachan.h), as rdmachan's own
 * are: a value out of bounds fails the load or the write to
 * /sys/module/rdmachan_net/parameters/ with -EINVAL and a log line.
 */
#include <linux/moduleparam.h>

#include "net.h"

/*
 * Parameter NAME, a struct rdmachan_uint_param with its bounds; its
 * MODULE_PARM_DESC() follows it
 */
#define RCNET_PARAM(name, def, lo, hi)					\
	struct rdmachan_uint_param rcnet_param_##name = {		\
		.val = (def), .min = (lo), .max = (hi), .base = 10,	\
	};								\
	module_param_cb(name, &rdmachan_uint_param_ops,			\
			&rcnet_param_##name, 0644)

/* within the bounds of a reconnect policy (rdmachan.h) */
RCNET_PARAM(reconnect_delay_ms, 1000, RDMACHAN_RC_MIN_DELAY_MS,
	    RDMACHAN_RC_MAX_DELAY_MS);
MODULE_PARM_DESC(reconnect_delay_ms,
		 "wait before the first reconnect attempt after a link loss, in ms, when the device does not say (100..3600000, default 1000)");
RCNET_PARAM(reconnect_max_delay_ms, 8000, RDMACHAN_RC_MIN_DELAY_MS,
	    RDMACHAN_RC_MAX_DELAY_MS);
MODULE_PARM_DESC(reconnect_max_delay_ms,
		 "each wait between reconnect attempts doubles up to this, in ms (100..3600000, default 8000)");
RCNET_PARAM(loss_timeout_ms, 0, 0, RDMACHAN_RC_MAX_LOSS_MS);
MODULE_PARM_DESC(loss_timeout_ms,
		 "give up reconnecting this long after a link loss, in ms, when the device does not say (0: never, the default; at most 7 days)");
RCNET_PARAM(connect_timeout_ms, 3000, 100, 600000);
MODULE_PARM_DESC(connect_timeout_ms,
		 "bound on one connection attempt and on the orderly close, in ms (100..600000, default 3000)");
RCNET_PARAM(rx_backlog, 1024, 1, 65536);
MODULE_PARM_DESC(rx_backlog,
		 "received packets queued for NAPI per device before new ones are dropped (1..65536, default 1024)");

bool rcnet_rx_spread;
module_param_named(rx_spread, rcnet_rx_spread, bool, 0644);
MODULE_PARM_DESC(rx_spread,
		 "devices added from now on take their channel's completions in an unbound workqueue and run NAPI in a kthread: more throughput where one CPU's softirq is the bottleneck, higher latency (default off)");

bool rcnet_rx_zero_copy = true;
module_param_named(rx_zero_copy, rcnet_rx_zero_copy, bool, 0644);
MODULE_PARM_DESC(rx_zero_copy,
		 "large received packets go up in the channel's own receive buffer, which the channel replaces, rather than copied (default on)");
