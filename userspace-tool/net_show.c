// SPDX-License-Identifier: GPL-2.0-only
/*
 * net_show.c: "rdmachan net show": the interfaces, their state, details (-d)
 * and counters (-s)
 */
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <unistd.h>

#include <linux/rdmachan_net.h>

#include "hist.h"
#include "net.h"
#include "rdma.h"		/* errno_name() */

/* what sysfs adds: the source or peer given, the reconnect policy */
static void show_details(const char *name)
{
	struct sysfs_extra x;

	sysfs_net_extra(name, &x);
	print_str_null(PRINT_ANY, "src", "    src %s", x.src);
	print_str_null(PRINT_ANY, "reconnect_delay_ms", " reconnect_delay_ms %s", x.delay);
	print_str_null(PRINT_ANY, "loss_timeout_ms", " loss_timeout_ms %s\n", x.loss);
	show_net_channel(name);
}

/* net show --hist: the latency histograms too */
static bool show_hists;

static void show_one(const struct rdmachan_net_info *i)
{
	const struct rdmachan_net_counters *c = &i->c;
	char name[RDMACHAN_NET_NAME_MAX + 1], addr[64], peer[64];

	snprintf(name, sizeof(name), "%.*s", (int)sizeof(i->name), i->name);
	format_addr(&i->addr, addr, sizeof(addr));
	open_object(NULL);
	print_str(PRINT_ANY, "name", "%s:", name);
	print_uint(PRINT_JSON, "ifindex", NULL, i->ifindex);
	print_str(PRINT_ANY, "mode", " %s",
		  i->mode == RDMACHAN_NET_LISTEN ? "listen" : "connect");
	print_str(PRINT_ANY, "addr", " %s", addr);
	print_str(PRINT_ANY, "state", " state %s", net_state_name(i->state));
	print_bool(PRINT_JSON, "carrier", NULL, i->carrier);
	if (i->peer.ss_family == AF_INET || i->peer.ss_family == AF_INET6) {
		format_addr(&i->peer, peer, sizeof(peer));
		print_str(PRINT_ANY, "peer", " peer %s", peer);
	} else {
		print_null(PRINT_JSON, "peer", NULL);
	}
	print_uint(PRINT_JSON, "attempt", NULL, i->attempt);
	print_uint(PRINT_JSON, "max_attempts", NULL, i->max_attempts);
	print_uint(PRINT_JSON, "next_attempt_ms", NULL, i->next_ms);
	print_uint(PRINT_JSON, "down_ms", NULL, i->down_ms);
	if (i->state == RDMACHAN_NET_RECONNECTING || i->state == RDMACHAN_NET_DEAD) {
		print_uint(PRINT_FP, NULL, " attempt %u", i->attempt);
		if (i->max_attempts)
			print_uint(PRINT_FP, NULL, " of %u", i->max_attempts);
		if (i->next_ms)
			print_uint(PRINT_FP, NULL, " next in %ums", i->next_ms);
		print_uint(PRINT_FP, NULL, " down %ums", i->down_ms);
	}
	print_s64(PRINT_JSON, "last_error", NULL, i->last_error);
	if (i->last_error < 0)
		print_str(PRINT_ANY, "last_error_name", " last_error %s",
			  errno_name(-i->last_error));
	print_uint(PRINT_ANY, "mtu", "\n    mtu %u", i->mtu);
	print_uint(PRINT_ANY, "max_msg_size", " msg_size %u", i->max_msg_size);
	print_uint(PRINT_ANY, "queue_depth", " depth %u", i->queue_depth);
	print_uint(PRINT_ANY, "losses", " losses %u\n", i->losses);
	if (tool_details())
		show_details(name);
	if (show_hists) {
		show_hist("hist_tx", "packets, from xmit to release",
			  "class/net/%s/rdmachan/hist_tx", name);
		show_hist("hist_rx", "packets, from arrival to the stack",
			  "class/net/%s/rdmachan/hist_rx", name);
	}
	if (!tool_stats()) {
		close_object();
		return;
	}
	open_object("counters");
	print_u64(PRINT_ANY, "rx_packets", "    rx_packets %llu", c->rx_packets);
	print_u64(PRINT_ANY, "rx_bytes", " rx_bytes %llu", c->rx_bytes);
	print_u64(PRINT_ANY, "rx_dropped", " rx_dropped %llu", c->rx_dropped);
	print_u64(PRINT_ANY, "rx_errors", " rx_errors %llu\n", c->rx_errors);
	print_u64(PRINT_ANY, "tx_packets", "    tx_packets %llu", c->tx_packets);
	print_u64(PRINT_ANY, "tx_bytes", " tx_bytes %llu", c->tx_bytes);
	print_u64(PRINT_ANY, "tx_dropped", " tx_dropped %llu", c->tx_dropped);
	print_u64(PRINT_ANY, "tx_errors", " tx_errors %llu", c->tx_errors);
	print_u64(PRINT_ANY, "tx_stopped", " tx_stopped %llu", c->tx_stopped);
	print_u64(PRINT_ANY, "reconnects", " reconnects %llu\n", c->reconnects);
	close_object();
	close_object();
}

int cmd_net_show(int argc, char **argv)
{
	struct rdmachan_net_info *e = NULL;
	unsigned int n = 0, i, shown = 0;
	int ctl;

	if (cmd_help_asked(argc, argv)) {
		printf("Usage: rdmachan [-j [-p]] [-s] [-d] net show [NAME] [--hist]\n"
		       "The rdmachan interfaces (or NAME): mode, address, state, peer,\n"
		       "the reconnect loop's figures; with -s the counters, with -d the\n"
		       "source or peer given and the reconnect policy (JSON: always).\n"
		       "  --hist    the latency histograms: from a packet's xmit to\n"
		       "            its release, from its arrival to the stack\n");
		return EXIT_OK;
	}
	show_hists = take_hist_flag(&argc, argv);
	if (argc > 1)
		return tool_usage_err("net show", "unexpected argument '%s'", argv[1]);
	ctl = ctl_open();
	if (ctl < 0)
		return EXIT_FAIL;
	if (ctl_net_list(ctl, &e, &n)) {
		close(ctl);
		return net_err("net show", NULL, errno, NULL);
	}
	close(ctl);
	open_record(stdout);
	open_array("devices");
	for (i = 0; i < n; i++) {
		if (argc == 1 && strncmp(e[i].name, argv[0], sizeof(e[i].name)))
			continue;
		show_one(&e[i]);
		shown++;
	}
	close_array();
	close_record();
	free(e);
	if (argc == 1 && !shown)
		return net_err("net show", argv[0], ENODEV, "no such rdmachan interface");
	return EXIT_OK;
}
