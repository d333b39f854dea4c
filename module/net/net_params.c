// SPDX-License-Identifier: GPL-2.0-only
/*
 * rdmachan_net: the module's parameters
 *
 * Read with READ_ONCE() when a device is made (the reconnect policy,
 * the connect timeout, rx_spread) or per packet (rx_zero_copy,
 * rx_backlog); Documentation/net.rst and the admin guide describe them.
 */
#include <linux/moduleparam.h>

#include "net.h"

unsigned int rcnet_reconnect_delay_ms = 1000;
module_param_named(reconnect_delay_ms, rcnet_reconnect_delay_ms, uint, 0644);
MODULE_PARM_DESC(reconnect_delay_ms,
		 "wait before the first reconnect attempt after a link loss, in ms, when the device does not say (100..3600000, default 1000)");

unsigned int rcnet_reconnect_max_delay_ms = 8000;
module_param_named(reconnect_max_delay_ms, rcnet_reconnect_max_delay_ms, uint, 0644);
MODULE_PARM_DESC(reconnect_max_delay_ms,
		 "each wait between reconnect attempts doubles up to this, in ms (default 8000)");

unsigned int rcnet_loss_timeout_ms;
module_param_named(loss_timeout_ms, rcnet_loss_timeout_ms, uint, 0644);
MODULE_PARM_DESC(loss_timeout_ms,
		 "give up reconnecting this long after a link loss, in ms, when the device does not say (0: never, the default)");

unsigned int rcnet_connect_timeout_ms = 3000;
module_param_named(connect_timeout_ms, rcnet_connect_timeout_ms, uint, 0644);
MODULE_PARM_DESC(connect_timeout_ms,
		 "bound on one connection attempt and on the orderly close, in ms (100..600000, default 3000)");

bool rcnet_rx_spread;
module_param_named(rx_spread, rcnet_rx_spread, bool, 0644);
MODULE_PARM_DESC(rx_spread,
		 "devices added from now on take their channel's completions in an unbound workqueue and run NAPI in a kthread: more throughput where one CPU's softirq is the bottleneck, higher latency (default off)");

bool rcnet_rx_zero_copy = true;
module_param_named(rx_zero_copy, rcnet_rx_zero_copy, bool, 0644);
MODULE_PARM_DESC(rx_zero_copy,
		 "large received packets go up in the channel's own receive buffer, which the channel replaces, rather than copied (default on)");

unsigned int rcnet_rx_backlog = 1024;
module_param_named(rx_backlog, rcnet_rx_backlog, uint, 0644);
MODULE_PARM_DESC(rx_backlog,
		 "received packets queued for NAPI per device before new ones are dropped (default 1024)");
