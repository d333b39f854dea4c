/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * test_unit.h: what the tool's unit test files (test_unit.c, which has
 * main(), and test_config.c) share: one TAP result each.
 */
#ifndef RDMACHAN_TOOL_TEST_UNIT_H
#define RDMACHAN_TOOL_TEST_UNIT_H

#include "cmd.h"

/* ok: result "ok N - ..." when @cond holds, else "not ok N - ..." */
void ok(int cond, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* run_tool: the whole tool on "rdmachan ARGS...", quiet: its exit status */
int run_tool(int argc, ...);
/* idx: the index of @name in @cmds, -1 when absent */
int idx(const struct cmd *cmds, const char *name);
/* test_out.c */
void test_batch(void);
void test_utf8(void);
void test_out(void);
void test_chan_show(void);
void test_chan_info(void);
void test_json(void);

void test_config(void);	/* test_config.c */
void test_dgram(void);	/* test_dgram.c */
void test_monitor(void);	/* test_monitor.c */
void test_hist(void);	/* test_hist.c */
/* test_blk_net.c */
void test_blk_cidr(void);
void test_blk_server(void);
void test_blk_dev(void);
void test_blk_tool(void);
void test_net_tool(void);

#endif /* RDMACHAN_TOOL_TEST_UNIT_H */
