// SPDX-License-Identifier: GPL-2.0-only
/*
 * RDMACHAN_HAVE_TIMER_CONTAINER_OF: from_timer() is called
 * timer_container_of().
 * Linux 6.16: "treewide, timers: Rename from_timer() to
 * timer_container_of()".
 */
#include <linux/timer.h>

struct rdmachan_probe_obj {
	struct timer_list timer;
};

struct rdmachan_probe_obj *rdmachan_probe(struct timer_list *t);
struct rdmachan_probe_obj *rdmachan_probe(struct timer_list *t)
{
	struct rdmachan_probe_obj *o = timer_container_of(o, t, timer);

	return o;
}
