// SPDX-License-Identifier: GPL-2.0-only
/*
 * blk_show.c: "rdmachan blk show": the exports and the mappings, their state,
 * details (-d) and counters (-s)
 */
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "blk.h"
#include "hist.h"
#include "ioc.h"
#include "rdma.h"		/* errno_name() */

/* An export's state (rdmachan_blk_export_info.state) */
static const char *blk_export_state_name(unsigned int state)
{
	switch (state) {
	case RDMACHAN_BLK_EXPORTED:
		return "exported";
	case RDMACHAN_BLK_UNEXPORTING:
		return "unexporting";
	case RDMACHAN_BLK_DRAINING:
		return "draining";
	default:
		return "unknown";
	}
}

static void show_help(void)
{
	printf("Usage: rdmachan [-j [-p]] [-s] [-d] blk show [exports | maps] [--hist]\n"
	       "The exports this host serves and the disks it maps (both when\n"
	       "neither is named); with -s their counters, with -d their\n"
	       "identities, sources and reconnect policies (JSON: always).\n"
	       "  --hist    the request latency histograms by operation (read,\n"
	       "            write, other): a mapping's from a request's dispatch\n"
	       "            to its end, an export's from its arrival to its reply\n");
}

static void show_counters(const struct rdmachan_blk_counters *c)
{
	open_object("counters");
	print_u64(PRINT_ANY, "reads", "    reads %llu", c->reads);
	print_u64(PRINT_ANY, "read_bytes", " read_bytes %llu", c->read_bytes);
	print_u64(PRINT_ANY, "writes", " writes %llu", c->writes);
	print_u64(PRINT_ANY, "write_bytes", " write_bytes %llu", c->write_bytes);
	print_u64(PRINT_ANY, "inline_writes", " inline_writes %llu\n", c->inline_writes);
	print_u64(PRINT_ANY, "flushes", "    flushes %llu", c->flushes);
	print_u64(PRINT_ANY, "fua", " fua %llu", c->fua);
	print_u64(PRINT_ANY, "discards", " discards %llu", c->discards);
	print_u64(PRINT_ANY, "write_zeroes", " write_zeroes %llu", c->write_zeroes);
	print_u64(PRINT_ANY, "errors", " errors %llu", c->errors);
	print_u64(PRINT_ANY, "rejected", " rejected %llu", c->rejected);
	print_u64(PRINT_ANY, "inflight", " inflight %llu\n", c->inflight);
	close_object();
}

/* blk show --hist: the latency histograms too */
static bool show_hists;

/* @fmt names a directory of sysfs with hist_read, hist_write, hist_other */
static void show_blk_hists(const char *fmt, const char *what,
			   const char *dir)
{
	static const char *const ops[] = { "read", "write", "other" };
	char key[16], title[96], path[256];
	unsigned int i;

	if (!show_hists)
		return;
	for (i = 0; i < 3; i++) {
		snprintf(key, sizeof(key), "hist_%s", ops[i]);
		snprintf(title, sizeof(title), "%s %s", ops[i], what);
		snprintf(path, sizeof(path), fmt, dir);
		show_hist(key, title, "%s/%s", path, key);
	}
}

static void show_export(const struct rdmachan_blk_export_info *e)
{
	char name[RDMACHAN_BLK_NAME_MAX + 1], path[RDMACHAN_BLK_PATH_MAX + 1], cidr[64];
	unsigned int i, n = e->nr_allow;

	snprintf(name, sizeof(name), "%.*s", (int)sizeof(e->name), e->name);
	snprintf(path, sizeof(path), "%.*s", (int)sizeof(e->path), e->path);
	if (n > RDMACHAN_BLK_MAX_ALLOW)
		n = RDMACHAN_BLK_MAX_ALLOW;
	open_object(NULL);
	print_str(PRINT_ANY, "name", "export %s", name);
	print_str(PRINT_ANY, "path", " path %s", path);
	print_bool(PRINT_JSON, "ro", NULL, e->flags & RDMACHAN_BLK_RO);
	print_str(PRINT_FP, NULL, " %s", e->flags & RDMACHAN_BLK_RO ? "ro" : "rw");
	print_bool(PRINT_JSON, "stable_id", NULL, e->flags & RDMACHAN_BLK_STABLE_ID);
	if (e->flags & RDMACHAN_BLK_STABLE_ID)
		print_fp(" stable-id");
	print_u64(PRINT_JSON, "sectors", NULL, e->nr_sectors);
	print_u64(PRINT_ANY, "size", " size %llu", e->nr_sectors * 512);
	print_uint(PRINT_ANY, "lbs", " lbs %u", e->lbs);
	print_uint(PRINT_ANY, "sessions", " sessions %u", e->sessions);
	print_uint(PRINT_ANY, "channels", " channels %u", e->channels);
	print_str(PRINT_ANY, "state", " state %s", blk_export_state_name(e->state));
	print_uint(PRINT_ANY, "bios", " bios %u", e->bios);
	print_fp(" allow");
	if (!n)
		print_fp(" none");
	open_array("allow");
	for (i = 0; i < n; i++) {
		format_cidr(&e->allow[i], cidr, sizeof(cidr));
		print_str(PRINT_ANY, NULL, " %s", cidr);
	}
	close_array();
	print_nl();
	if (tool_details()) {
		char id[40];

		sysfs_word(id, sizeof(id), "class/rdmachan_blk/ctl/exports/%s/export_id", name);
		print_str_null(PRINT_ANY, "export_id", "    export_id %s\n", id);
	}
	if (tool_stats())
		show_counters(&e->c);
	show_blk_hists("class/rdmachan_blk/ctl/exports/%s",
		       "requests, from arrival to reply", name);
	close_object();
}

/* what sysfs adds to a mapping: its identity, source and policy */
static void show_map_details(uint32_t index)
{
	struct sysfs_extra x;

	sysfs_map_extra(index, &x);
	print_str_null(PRINT_ANY, "export_id", "    export_id %s", x.id);
	print_str_null(PRINT_ANY, "src", " src %s", x.src);
	print_str_null(PRINT_ANY, "reconnect_delay_ms", "\n    reconnect_delay_ms %s", x.delay);
	print_str_null(PRINT_ANY, "loss_timeout_ms", " loss_timeout_ms %s", x.loss);
	print_str_null(PRINT_ANY, "fast_io_fail_ms", " fast_io_fail_ms %s\n", x.fast);
	show_map_channels(index);
}

static void show_map(const struct rdmachan_blk_map_info *m)
{
	char name[RDMACHAN_BLK_NAME_MAX + 1], dev[32], addr[64];

	snprintf(name, sizeof(name), "%.*s", (int)sizeof(m->name), m->name);
	snprintf(dev, sizeof(dev), "/dev/" BLK_DISK_PREFIX "%u", m->index);
	format_addr(&m->server, addr, sizeof(addr));
	open_object(NULL);
	print_uint(PRINT_JSON, "index", NULL, m->index);
	print_str(PRINT_ANY, "dev", "%s:", dev);
	print_str(PRINT_ANY, "server", " server %s", addr);
	print_str(PRINT_ANY, "export", " export %s", name);
	print_str(PRINT_ANY, "state", " state %s", blk_state_name(m->state));
	/* the reconnect loop's figures: "attempt 3 of 20 next 4000ms ..." */
	print_uint(PRINT_JSON, "attempt", NULL, m->attempt);
	print_uint(PRINT_JSON, "max_attempts", NULL, m->max_attempts);
	if (m->state != RDMACHAN_BLK_LIVE) {
		print_uint(PRINT_FP, NULL, " attempt %u", m->attempt);
		if (m->max_attempts)
			print_uint(PRINT_FP, NULL, " of %u", m->max_attempts);
	}
	print_uint(PRINT_JSON, "next_attempt_ms", NULL, m->next_ms);
	print_uint(PRINT_JSON, "deadline_ms", NULL, m->deadline_ms);
	print_uint(PRINT_JSON, "down_ms", NULL, m->down_ms);
	print_uint(PRINT_JSON, "losses", NULL, m->losses);
	if (m->state == RDMACHAN_BLK_RECONNECTING) {
		if (m->next_ms)
			print_uint(PRINT_FP, NULL, " next in %ums", m->next_ms);
		else
			print_str(PRINT_FP, NULL, " %s", "attempting");
		if (m->deadline_ms)
			print_uint(PRINT_FP, NULL, " gives up in %ums",
				   m->deadline_ms);
	}
	if (m->state != RDMACHAN_BLK_LIVE)
		print_uint(PRINT_FP, NULL, " down %ums", m->down_ms);
	print_bool(PRINT_JSON, "ro", NULL, m->flags & RDMACHAN_BLK_RO);
	print_str(PRINT_FP, NULL, " %s", m->flags & RDMACHAN_BLK_RO ? "ro" : "rw");
	print_s64(PRINT_JSON, "last_error", NULL, m->last_error);
	if (m->last_error < 0)
		print_str(PRINT_ANY, "last_error_name", " last_error %s",
			  errno_name(-m->last_error));
	print_uint(PRINT_ANY, "queues", "\n    queues %u", m->nr_queues);
	print_uint(PRINT_JSON, "poll_queues", NULL, m->nr_poll_queues);
	if (m->nr_poll_queues)
		print_uint(PRINT_FP, NULL, " poll_queues %u", m->nr_poll_queues);
	print_uint(PRINT_ANY, "depth", " depth %u", m->queue_depth);
	print_u64(PRINT_JSON, "sectors", NULL, m->nr_sectors);
	print_u64(PRINT_ANY, "size", " size %llu", m->nr_sectors * 512);
	print_uint(PRINT_ANY, "lbs", " lbs %u", m->lbs);
	print_uint(PRINT_ANY, "pbs", " pbs %u", m->pbs);
	print_uint(PRINT_ANY, "max_io", " max_io %u", m->max_io);
	print_uint(PRINT_ANY, "inline_max", " inline_max %u", m->inline_max);
	print_uint(PRINT_ANY, "openers", " openers %u\n", m->openers);
	if (tool_details())
		show_map_details(m->index);
	if (tool_stats())
		show_counters(&m->c);
	show_blk_hists("block/%s/rdmachan", "requests, from dispatch to end",
		       dev + 5);
	close_object();
}

static const struct cmd show_what[] = {
	{ "exports", NULL },
	{ "maps", NULL },
	CMD_END
};

int cmd_blk_show(int argc, char **argv)
{
	bool exports = true, maps = true;
	unsigned int n_exp = 0, n_map = 0, i;
	struct rdmachan_blk_export_info *e = NULL;
	struct rdmachan_blk_map_info *m = NULL;
	int ctl, w;

	if (cmd_help_asked(argc, argv)) {
		show_help();
		return EXIT_OK;
	}
	show_hists = take_hist_flag(&argc, argv);
	if (argc > 1)
		return tool_usage_err("blk show", "unexpected argument '%s'", argv[1]);
	if (argc == 1) {
		w = cmd_match(show_what, argv[0]);
		if (w < 0)
			return tool_usage_err("blk show", "'%s' is neither exports nor maps",
					      argv[0]);
		exports = w == 0;
		maps = w == 1;
	}
	ctl = ctl_open();
	if (ctl < 0)
		return EXIT_FAIL;
	if (exports && ctl_blk_list(ctl, RDMACHAN_BLK_LIST_EXPORTS, (void **)&e, &n_exp)) {
		close(ctl);
		return blk_err("blk show", "exports", errno, NULL);
	}
	if (maps && ctl_blk_list(ctl, RDMACHAN_BLK_LIST_MAPS, (void **)&m, &n_map)) {
		free(e);
		close(ctl);
		return blk_err("blk show", "maps", errno, NULL);
	}
	close(ctl);
	open_record(stdout);
	if (exports) {
		open_array("exports");
		for (i = 0; i < n_exp; i++)
			show_export(&e[i]);
		close_array();
	}
	if (maps) {
		open_array("maps");
		for (i = 0; i < n_map; i++)
			show_map(&m[i]);
		close_array();
	}
	close_record();
	free(e);
	free(m);
	return EXIT_OK;
}
