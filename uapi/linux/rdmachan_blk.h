/* SPDX-License-Identifier: GPL-2.0-only WITH Linux-syscall-note */
/*
 * rdmachan_blk: user ABI of the block channel
 *
 * ioctls of /dev/rdmachan served by rdmachan_blk.ko (-ENOTTY while it is
 * not loaded).  Every argument starts with its size, so that it can grow;
 * reserved fields must be zero.  The tool's "blk" object uses them.
 */
#ifndef _UAPI_LINUX_RDMACHAN_BLK_H
#define _UAPI_LINUX_RDMACHAN_BLK_H

#include <linux/types.h>
#include <linux/socket.h>
#include <linux/rdmachan.h>

#define RDMACHAN_BLK_NAME_MAX	64	/* export names, with the NUL */
#define RDMACHAN_BLK_PATH_MAX	256	/* backing device paths */
#define RDMACHAN_BLK_MAX_ALLOW	16	/* CIDR entries of an export */

/* Flags of EXPORT and MAP */
#define RDMACHAN_BLK_RO		0x1U	/* read-only */
/*
 * Flag of EXPORT: the export's identity is its name and size only, not
 * which disk the path opened (its dev_t and disk sequence number): the
 * path names the same data after the server's reboot, so that clients
 * reconnect across it (Documentation/blk-server.rst, "Exports")
 */
#define RDMACHAN_BLK_STABLE_ID	0x2U
/* Flags of UNEXPORT and UNMAP */
#define RDMACHAN_BLK_FORCE	0x1U	/* even in use: fail its I/O */

/**
 * struct rdmachan_blk_cidr - a network prefix allowed to map an export
 * @family: AF_INET or AF_INET6
 * @prefix: prefix length in bits (0..32 or 0..128)
 * @reserved: zero
 * @addr: the network, 4 or 16 bytes, network order
 */
struct rdmachan_blk_cidr {
	__u16 family;
	__u8 prefix;
	__u8 reserved;
	__u8 addr[16];
};

/**
 * struct rdmachan_blk_export - argument of RDMACHAN_IOC_BLK_EXPORT
 * @size: sizeof(struct rdmachan_blk_export)
 * @flags: RDMACHAN_BLK_RO, RDMACHAN_BLK_STABLE_ID
 * @name: the export's name, what clients map; NUL-terminated, [A-Za-z0-9._-]
 * @path: the backing block device, e.g. /dev/nullb0
 * @nr_allow: entries of @allow; 0 refuses every client
 * @reserved: zero
 * @allow: client networks allowed to map it
 */
struct rdmachan_blk_export {
	__u32 size;
	__u32 flags;
	char name[RDMACHAN_BLK_NAME_MAX];
	char path[RDMACHAN_BLK_PATH_MAX];
	__u32 nr_allow;
	__u32 reserved;
	struct rdmachan_blk_cidr allow[RDMACHAN_BLK_MAX_ALLOW];
};

/**
 * struct rdmachan_blk_unexport - argument of RDMACHAN_IOC_BLK_UNEXPORT
 * @size: sizeof(struct rdmachan_blk_unexport)
 * @flags: RDMACHAN_BLK_FORCE: even with clients mapped (their I/O fails)
 * @name: the export
 */
struct rdmachan_blk_unexport {
	__u32 size;
	__u32 flags;
	char name[RDMACHAN_BLK_NAME_MAX];
};

/**
 * struct rdmachan_blk_map - argument of RDMACHAN_IOC_BLK_MAP
 * @size: sizeof(struct rdmachan_blk_map)
 * @flags: RDMACHAN_BLK_RO
 * @server: the server's address; port 0 for the default (7471)
 * @src: local address to connect from; AF_UNSPEC for any
 * @name: the export to map
 * @nr_queues: hardware queues (one channel each); 0: one per CPU
 * @queue_depth: requests per queue; 0: the module's default
 * @index: out: the disk is /dev/rcblk<index>
 * @reconnect_delay_ms: after a link loss, wait this long before the first
 *	attempt to reconnect (later waits double, up to the module's
 *	clt_reconnect_max_delay_ms); 0: the module's clt_reconnect_delay_ms;
 *	100 to 3600000
 * @loss_timeout_ms: give up reconnecting this long after the loss: held
 *	and new I/O fail, the mapping is dead (nvme's ctrl_loss_tmo); 0:
 *	the module's clt_loss_timeout_ms; RDMACHAN_BLK_TMO_OFF: never give up
 * @fast_io_fail_ms: this long after the loss, fail held and new I/O while
 *	reconnecting goes on (nvme's fast_io_fail_tmo); 0: the module's
 *	clt_fast_io_fail_ms; RDMACHAN_BLK_TMO_OFF: never; below
 *	@loss_timeout_ms
 * @nr_poll_queues: hardware queues beyond @nr_queues for polled I/O
 *	(nvme's nr_poll_queues): their channels' completions are processed
 *	by whoever waits for the I/O (io_uring with IOPOLL), not by an
 *	interrupt; 0: none; at most the CPUs, and with @nr_queues at most
 *	64
 * @reserved: zero
 */
struct rdmachan_blk_map {
	__u32 size;
	__u32 flags;
	struct __kernel_sockaddr_storage server;
	struct __kernel_sockaddr_storage src;
	char name[RDMACHAN_BLK_NAME_MAX];
	__u32 nr_queues;
	__u32 queue_depth;
	__u32 index;
	__u32 reconnect_delay_ms;
	__u32 loss_timeout_ms;
	__u32 fast_io_fail_ms;
	__u32 nr_poll_queues;
	__u32 reserved;
};

/* rdmachan_blk_map.loss_timeout_ms and fast_io_fail_ms: never */
#define RDMACHAN_BLK_TMO_OFF	0xffffffffU

/**
 * struct rdmachan_blk_unmap - argument of RDMACHAN_IOC_BLK_UNMAP
 * @size: sizeof(struct rdmachan_blk_unmap)
 * @flags: RDMACHAN_BLK_FORCE: even while the disk is open
 * @index: the disk's index
 * @reserved: zero
 */
struct rdmachan_blk_unmap {
	__u32 size;
	__u32 flags;
	__u32 index;
	__u32 reserved;
};

/**
 * struct rdmachan_blk_remap - argument of RDMACHAN_IOC_BLK_REMAP
 * @size: sizeof(struct rdmachan_blk_remap)
 * @flags: zero
 * @index: the disk's index; the mapping must be dead (EALREADY when live,
 *	EBUSY while reconnecting)
 * @reserved: zero
 *
 * One attempt to open the same export on the same server again, at once:
 * the disk, and whatever has it open, go on when it works; the mapping
 * stays dead and the call fails with the attempt's errno when not.
 */
struct rdmachan_blk_remap {
	__u32 size;
	__u32 flags;
	__u32 index;
	__u32 reserved;
};

/**
 * struct rdmachan_blk_counters - I/O counters of an export or a mapping
 * @reads: READ requests completed
 * @writes: WRITE requests completed
 * @read_bytes: bytes read
 * @write_bytes: bytes written
 * @flushes: FLUSH requests (and PREFLUSH flags)
 * @fua: requests with FUA
 * @discards: DISCARD requests
 * @write_zeroes: WRITE_ZEROES requests
 * @inline_writes: WRITEs whose data travelled inline
 * @errors: requests completed with an error status
 * @rejected: requests refused as malformed, out of range or not allowed
 * @inflight: requests in flight now
 */
struct rdmachan_blk_counters {
	__u64 reads;
	__u64 writes;
	__u64 read_bytes;
	__u64 write_bytes;
	__u64 flushes;
	__u64 fua;
	__u64 discards;
	__u64 write_zeroes;
	__u64 inline_writes;
	__u64 errors;
	__u64 rejected;
	__u64 inflight;
};

/* rdmachan_blk_export_info.state */
enum rdmachan_blk_export_state {
	/* served */
	RDMACHAN_BLK_EXPORTED		= 0,
	/* an unexport waits for its channels to close and its bios to end */
	RDMACHAN_BLK_UNEXPORTING	= 1,
	/*
	 * a forced unexport gave up waiting (EINPROGRESS): bios may still
	 * reach the device, which stays claimed until the last one ends;
	 * then the export goes
	 */
	RDMACHAN_BLK_DRAINING		= 2,
};

/**
 * struct rdmachan_blk_export_info - one export, of RDMACHAN_IOC_BLK_LIST
 * @name: the export
 * @path: its backing device
 * @flags: RDMACHAN_BLK_RO
 * @nr_allow: entries of @allow
 * @allow: the networks allowed
 * @nr_sectors: size in 512-byte sectors
 * @lbs: logical block size
 * @sessions: client mappings using it now
 * @channels: their channels
 * @state: enum rdmachan_blk_export_state
 * @bios: bios in flight on its device now
 * @reserved: zero
 * @c: counters
 */
struct rdmachan_blk_export_info {
	char name[RDMACHAN_BLK_NAME_MAX];
	char path[RDMACHAN_BLK_PATH_MAX];
	__u32 flags;
	__u32 nr_allow;
	struct rdmachan_blk_cidr allow[RDMACHAN_BLK_MAX_ALLOW];
	__u64 nr_sectors;
	__u32 lbs;
	__u32 sessions;
	__u32 channels;
	__u32 state;
	__u32 bios;
	__u32 reserved;
	struct rdmachan_blk_counters c;
};

/* rdmachan_blk_map_info.state */
enum rdmachan_blk_map_state {
	RDMACHAN_BLK_LIVE		= 0,
	RDMACHAN_BLK_RECONNECTING	= 1,
	RDMACHAN_BLK_DEAD		= 2,
};

/**
 * struct rdmachan_blk_map_info - one mapping, of RDMACHAN_IOC_BLK_LIST
 * @index: /dev/rcblk<index>
 * @flags: RDMACHAN_BLK_RO
 * @state: enum rdmachan_blk_map_state
 * @last_error: the last error, a negative errno, or 0
 * @server: the server's address and port
 * @name: the export
 * @nr_queues: hardware queues (channels) of the default and read maps
 * @queue_depth: requests per queue
 * @nr_sectors: size in 512-byte sectors
 * @lbs: logical block size
 * @pbs: physical block size
 * @max_io: largest request in bytes
 * @inline_max: largest inline WRITE in bytes
 * @openers: openers of the disk now
 * @attempt: reconnect attempts since the link was lost (the one running
 *	included), while reconnecting or dead
 * @max_attempts: attempts the policy allows before the loss timeout; 0
 *	when it never gives up
 * @next_ms: milliseconds until the next attempt (0: one is running),
 *	while reconnecting
 * @deadline_ms: milliseconds until the loss timeout, while reconnecting
 *	(0: none)
 * @down_ms: milliseconds since the loss, while reconnecting or dead
 * @losses: link losses since the mapping was made
 * @nr_poll_queues: hardware queues (channels) for polled I/O, beyond
 *	@nr_queues
 * @c: counters
 */
struct rdmachan_blk_map_info {
	__u32 index;
	__u32 flags;
	__u32 state;
	__s32 last_error;
	struct __kernel_sockaddr_storage server;
	char name[RDMACHAN_BLK_NAME_MAX];
	__u32 nr_queues;
	__u32 queue_depth;
	__u64 nr_sectors;
	__u32 lbs;
	__u32 pbs;
	__u32 max_io;
	__u32 inline_max;
	__u32 openers;
	__u32 attempt;
	__u32 max_attempts;
	__u32 next_ms;
	__u32 deadline_ms;
	__u32 down_ms;
	__u32 losses;
	__u32 nr_poll_queues;
	struct rdmachan_blk_counters c;
};

/* rdmachan_blk_list.what */
#define RDMACHAN_BLK_LIST_EXPORTS	1
#define RDMACHAN_BLK_LIST_MAPS		2

/**
 * struct rdmachan_blk_list - argument of RDMACHAN_IOC_BLK_LIST
 * @size: sizeof(struct rdmachan_blk_list)
 * @what: RDMACHAN_BLK_LIST_EXPORTS or RDMACHAN_BLK_LIST_MAPS
 * @count: in: entries @entries has room for; out: entries there are
 *	(more than were copied when the room was short)
 * @entry_size: in: sizeof(struct rdmachan_blk_export_info) or
 *	sizeof(struct rdmachan_blk_map_info)
 * @entries: user pointer to the array
 */
struct rdmachan_blk_list {
	__u32 size;
	__u32 what;
	__u32 count;
	__u32 entry_size;
	__u64 entries;
};

/* _IOC_NR 0x80..0x8f of RDMACHAN_IOC_MAGIC belong to rdmachan_blk */
#define RDMACHAN_IOC_BLK_FIRST	0x80
#define RDMACHAN_IOC_BLK_LAST	0x8f

#define RDMACHAN_IOC_BLK_EXPORT	_IOW(RDMACHAN_IOC_MAGIC, 0x80, struct rdmachan_blk_export)
#define RDMACHAN_IOC_BLK_UNEXPORT _IOW(RDMACHAN_IOC_MAGIC, 0x81, struct rdmachan_blk_unexport)
#define RDMACHAN_IOC_BLK_MAP	_IOWR(RDMACHAN_IOC_MAGIC, 0x82, struct rdmachan_blk_map)
#define RDMACHAN_IOC_BLK_UNMAP	_IOW(RDMACHAN_IOC_MAGIC, 0x83, struct rdmachan_blk_unmap)
#define RDMACHAN_IOC_BLK_LIST	_IOWR(RDMACHAN_IOC_MAGIC, 0x84, struct rdmachan_blk_list)
#define RDMACHAN_IOC_BLK_REMAP	_IOW(RDMACHAN_IOC_MAGIC, 0x85, struct rdmachan_blk_remap)

#endif /* _UAPI_LINUX_RDMACHAN_BLK_H */
