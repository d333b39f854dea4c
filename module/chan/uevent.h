/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * rdmachan: events as uevents (uevent.c), and the pure splitting of
 * an event's variables for KUnit (tests/kunit/uevent_kunit.c)
 */
#ifndef RDMACHAN_UEVENT_H
#define RDMACHAN_UEVENT_H

#include <linux/types.h>

struct device;

/* An event's variables, "KEY=VALUE" separated by single spaces */
#define RDMACHAN_UEV_LEN	256
/* at most this many of them */
#define RDMACHAN_UEV_VARS	12

/**
 * rdmachan_uev_split() - cut an event's text into its variables
 * @buf: "KEY=VALUE KEY=VALUE ...", cut in place
 * @envp: where the variables go, @max + 1 entries: NULL follows the last
 * @max: at most this many
 *
 * A variable is a run of characters other than a space; runs of spaces
 * separate them.  A run without '=' is not a variable and is dropped, as
 * are those past @max.
 *
 * Context: any.
 * Return: how many went to @envp.
 */
static inline unsigned int rdmachan_uev_split(char *buf, char **envp,
					      unsigned int max)
{
	unsigned int n = 0;
	char *p = buf;

	while (*p) {
		char *start, *eq = NULL;

		while (*p == ' ')
			*p++ = '\0';
		if (!*p)
			break;
		start = p;
		while (*p && *p != ' ') {
			if (*p == '=' && !eq)
				eq = p;
			p++;
		}
		if (eq && eq != start && n < max)
			envp[n++] = start;
	}
	envp[n] = NULL;
	return n;
}

/* uevent.c */
__printf(2, 3) void rdmachan_uevent_dir(struct device **devp,
					const char *fmt, ...);
void rdmachan_uevent_publish(struct device **devp, struct device *dev);
struct device *rdmachan_uevent_unpublish(struct device **devp);
int rdmachan_uevent_add(struct device *dev, const char *vars);
void rdmachan_uevent_del(struct device *dev, const char *vars);
void rdmachan_uevent_exit(void);

#endif /* RDMACHAN_UEVENT_H */
