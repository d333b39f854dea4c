/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * monitor.h: what "rdmachan monitor" reads (monitor.c): one kernel uevent,
 * cut into its action, path and variables, and which of rdmachan's
 * objects it is of.  Pure, for the unit tests.
 */
#ifndef RDMACHAN_TOOL_MONITOR_H
#define RDMACHAN_TOOL_MONITOR_H

#include <stddef.h>

/* The objects, as the monitor's arguments name them (a mask) */
enum mon_obj {
	MON_DEV		= 1 << 0,
	MON_CHAN	= 1 << 1,
	MON_LISTENER	= 1 << 2,
	MON_BLK		= 1 << 3,
	MON_NET		= 1 << 4,
	MON_ALL		= (1 << 5) - 1,
};

#define MON_MAX_VARS	32

/* One uevent, pointing into the buffer it was cut from */
struct mon_event {
	const char *action;	/* add, remove, change, ... */
	const char *devpath;
	const char *name;	/* the last part of devpath */
	const char *subsystem;	/* "" when it has none */
	unsigned int nvars;
	const char *vars[MON_MAX_VARS];	/* "KEY=VALUE", in order */
};

/*
 * mon_parse: cut the @len bytes of a kernel uevent in @buf
 * ("ACTION@DEVPATH\0KEY=VALUE\0..."; @buf[@len] must be writable) into
 * @ev.  -1 for what is not one (udev's own messages, "libudev...").
 */
int mon_parse(char *buf, size_t len, struct mon_event *ev);
/* mon_var: the value of @key (without "="), NULL when absent */
const char *mon_var(const struct mon_event *ev, const char *key);
/* mon_object: which MON_* object @ev is of, 0 when none of rdmachan's */
int mon_object(const struct mon_event *ev);
/* mon_obj_word: MON_* for an argument ("dev", "chan", ...), 0 for none */
int mon_obj_word(const char *word);
/* mon_print: one record of @ev (an object mon_object() named) */
void mon_print(const struct mon_event *ev, int obj);

#endif /* RDMACHAN_TOOL_MONITOR_H */
