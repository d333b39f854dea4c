// SPDX-License-Identifier: GPL-2.0-only
/*
 * RDMACHAN_HAVE_TIMER_DELETE_SYNC: del_timer_sync() is called
 * timer_delete_sync().
 * Linux 6.2: "timers: Rename del_timer_sync() to timer_delete_sync()";
 * the old name is gone in 6.15.
 */
#include <linux/timer.h>

int rdmachan_probe(struct timer_list *t);
int rdmachan_probe(struct timer_list *t)
{
	return timer_delete_sync(t);
}
