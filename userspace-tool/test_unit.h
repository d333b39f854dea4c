/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * test_unit.h: what the tool's unit test files (test_unit.c, which has
 * main(), and test_config.c) share: one TAP result each.
 */
#ifndef RDMACHAN_TOOL_TEST_UNIT_H
#define RDMACHAN_TOOL_TEST_UNIT_H

/* ok: result "ok N - ..." when @cond holds, else "not ok N - ..." */
void ok(int cond, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

void test_config(void);	/* test_config.c */

#endif /* RDMACHAN_TOOL_TEST_UNIT_H */
