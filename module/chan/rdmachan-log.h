/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * rdmachan: the log lines of channels and listeners
 *
 * One family of macros for both kinds of object, as rtrs-log.h is for
 * rtrs: every line names its object ("channel 3: ...", "listener 1:
 * ..."), the _addr forms its address too.  Included by rdmachan-pri.h
 * once struct rdmachan and struct rdmachan_listener are defined; the
 * fail_stuck macro needs rdmachan_fail_io() (chan_core.c).
 */
#ifndef RDMACHAN_LOG_H
#define RDMACHAN_LOG_H

#include <linux/printk.h>

void rdmachan_fail_io(struct rdmachan *ch, int err);

/* "channel" or "listener": the first word of the object's log lines */
static inline const char *rdmachan_obj_name(const struct rdmachan_obj *obj)
{
	return obj->kind == RDMACHAN_OBJ_LISTENER ? "listener" : "channel";
}

/* The address of its log lines: a channel's peer, a listener's own */
static inline const struct sockaddr_storage *
rdmachan_obj_addr(const struct rdmachan_obj *obj)
{
	if (obj->kind == RDMACHAN_OBJ_LISTENER)
		return &container_of(obj, struct rdmachan_listener, obj)->addr;
	return &container_of(obj, struct rdmachan, obj)->conn.dst;
}

/*
 * Log lines of a channel or listener (@o: struct rdmachan or struct
 * rdmachan_listener), one family for both, as rtrs-log.h does for rtrs:
 * "channel 3: ..." or "listener 1: ...", and with the _addr forms the
 * address too, "channel 3 (192.0.2.2:4791): ...".  The printk function
 * goes first: pr_err, pr_info_ratelimited, pr_debug, ...
 */
#define rdmachan_obj_log(fn, obj, fmt, ...)				\
	do {								\
		const struct rdmachan_obj *__o = (obj);			\
									\
		fn("%s %u: " fmt, rdmachan_obj_name(__o), __o->id,	\
		   ##__VA_ARGS__);					\
	} while (0)
#define rdmachan_obj_log_addr(fn, obj, fmt, ...)			\
	do {								\
		const struct rdmachan_obj *__o = (obj);			\
									\
		fn("%s %u (%pISpc): " fmt, rdmachan_obj_name(__o),	\
		   __o->id, rdmachan_obj_addr(__o), ##__VA_ARGS__);	\
	} while (0)
#define rdmachan_log(fn, o, fmt, ...)					\
	rdmachan_obj_log(fn, &(o)->obj, fmt, ##__VA_ARGS__)
#define rdmachan_log_addr(fn, o, fmt, ...)				\
	rdmachan_obj_log_addr(fn, &(o)->obj, fmt, ##__VA_ARGS__)

#define rdmachan_err(o, fmt, ...)					\
	rdmachan_log(pr_err, o, fmt, ##__VA_ARGS__)
#define rdmachan_err_rl(o, fmt, ...)					\
	rdmachan_log(pr_err_ratelimited, o, fmt, ##__VA_ARGS__)
#define rdmachan_warn(o, fmt, ...)					\
	rdmachan_log(pr_warn, o, fmt, ##__VA_ARGS__)
#define rdmachan_warn_rl(o, fmt, ...)					\
	rdmachan_log(pr_warn_ratelimited, o, fmt, ##__VA_ARGS__)
#define rdmachan_info(o, fmt, ...)					\
	rdmachan_log(pr_info, o, fmt, ##__VA_ARGS__)
#define rdmachan_info_rl(o, fmt, ...)					\
	rdmachan_log(pr_info_ratelimited, o, fmt, ##__VA_ARGS__)
#define rdmachan_dbg(o, fmt, ...)					\
	rdmachan_log(pr_debug, o, fmt, ##__VA_ARGS__)
#define rdmachan_err_rl_addr(o, fmt, ...)				\
	rdmachan_log_addr(pr_err_ratelimited, o, fmt, ##__VA_ARGS__)
#define rdmachan_info_addr(o, fmt, ...)					\
	rdmachan_log_addr(pr_info, o, fmt, ##__VA_ARGS__)
#define rdmachan_info_rl_addr(o, fmt, ...)				\
	rdmachan_log_addr(pr_info_ratelimited, o, fmt, ##__VA_ARGS__)

/*
 * Something RC ends within its retry time, with a completion or an error,
 * has not ended for much longer: the transport is stuck, and so is
 * whatever waits on it.  Log it (@fmt: what, and since when), count an
 * error and fail the channel with -ETIMEDOUT; its teardown ends what is
 * left.  A macro, so that each caller keeps its own log rate limit.
 */
#define rdmachan_fail_stuck(ch, fmt, ...)				\
	do {								\
		struct rdmachan *__ch = (ch);				\
									\
		rdmachan_err_rl_addr(__ch,				\
				     fmt ": the transport is stuck\n",	\
				     ##__VA_ARGS__);			\
		atomic64_inc(&__ch->stats[RDMACHAN_STAT_errors]);	\
		rdmachan_fail_io(__ch, -ETIMEDOUT);			\
	} while (0)

#endif /* RDMACHAN_LOG_H */
