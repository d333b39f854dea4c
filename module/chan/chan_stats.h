/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * rdmachan: the counters of a channel, defined once
 *
 * One RDMACHAN_STAT(name) a counter; no include guard: each user defines
 * RDMACHAN_STAT(), includes this file and undefines it again.  That
 * generates enum rdmachan_stat (rdmachan-pri.h; rdmachan.stats is an
 * array of it), the attributes of /sys/class/rdmachan/chanN/stats/
 * (chan_sysfs.c) and the copy into struct rdmachan_chan_info
 * (ioctl_chan.c), whose members of the same names the tool shows.  A new
 * counter goes here, into the uapi struct (appended: it has a size
 * field) and into Documentation/ABI/testing/sysfs-class-rdmachan.
 */

RDMACHAN_STAT(msgs_tx)		/* data messages sent */
RDMACHAN_STAT(bytes_tx)		/* payload bytes sent */
RDMACHAN_STAT(msgs_rx)		/* data messages received */
RDMACHAN_STAT(bytes_rx)		/* payload bytes received */
RDMACHAN_STAT(credit_stalls)	/* sends that had to wait for a credit */
RDMACHAN_STAT(credit_msgs_tx)	/* explicit credit updates sent */
RDMACHAN_STAT(keepalives_tx)	/* keepalive probes sent */
RDMACHAN_STAT(errors)		/* completions with an error */
RDMACHAN_STAT(solicited_events)	/* solicited events (POLL_SOLICITED) */
