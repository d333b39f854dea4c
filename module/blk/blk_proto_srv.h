/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * rdmachan_blk: the server's pure protocol helpers (blk_proto.c, server
 * block), unit-tested by tests/kunit/blk_proto_kunit.c.  They decode and
 * check what a client sends (OPEN, IO), encode OPEN_RSP, and check export
 * names and CIDR allow lists.  No state, no allocation, any context.
 */
#ifndef RCBLK_PROTO_SRV_H
#define RCBLK_PROTO_SRV_H

#include <linux/minmax.h>
#include <linux/sizes.h>
#include <linux/socket.h>
#include <linux/types.h>

#include <linux/rdmachan_blk.h>

#include "blk_proto.h"

/* Smallest max_io a client may offer: one 512-byte sector */
#define RCBLK_MIN_IO		512

/**
 * struct rcblk_open_req - a decoded OPEN
 * @flags: RCBLK_OPEN_*
 * @features: RCBLK_F_* offered (unknown bits included, as sent)
 * @max_io: the client's largest request in bytes
 * @queue: the channel's queue index
 * @nr_queues: channels of the mapping
 * @session: the mapping's session id
 * @name: the export, NUL-terminated
 */
struct rcblk_open_req {
	u16 flags;
	u32 features;
	u32 max_io;
	u16 queue;
	u16 nr_queues;
	u32 gen;
	u8 session[RCBLK_SESSION_LEN];
	char name[RCBLK_NAME_MAX];
};

/**
 * struct rcblk_io_limits - what a queue accepts, fixed at OPEN
 * @nr_sectors: export size in 512-byte sectors
 * @lbs: logical block size (512..PAGE_SIZE, a power of two)
 * @max_io: largest READ/WRITE in bytes
 * @inline_max: largest inline WRITE in bytes
 * @features: RCBLK_F_* accepted
 * @max_discard_sectors: 0: DISCARD not offered
 * @max_write_zeroes_sectors: 0: WRITE_ZEROES not offered
 * @ro: the export or the mapping is read-only
 */
struct rcblk_io_limits {
	u64 nr_sectors;
	u32 lbs;
	u32 max_io;
	u32 inline_max;
	u32 features;
	u32 max_discard_sectors;
	u32 max_write_zeroes_sectors;
	bool ro;
};

/**
 * struct rcblk_io_req - a decoded IO request (host order)
 * @op: enum rcblk_op
 * @data: enum rcblk_data
 * @flags: RCBLK_F_*
 * @tag: the client's tag
 * @sector: first sector
 * @len: bytes
 * @rkey: RCBLK_DATA_REMOTE: the client's rkey
 * @addr: RCBLK_DATA_REMOTE: the client's address
 */
struct rcblk_io_req {
	u8 op;
	u8 data;
	u16 flags;
	u16 tag;
	u64 sector;
	u32 len;
	u32 rkey;
	u64 addr;
};

bool rcblk_name_ok(const char *name, size_t room);
enum rcblk_open_status rcblk_open_check(const void *buf, size_t len,
					struct rcblk_open_req *req);
u32 rcblk_open_features(u32 offered, bool write_zeroes);
enum rcblk_fence rcblk_fence_check(u32 have, u32 gen);
void rcblk_open_rsp_encode(struct rcblk_wire_open_rsp *rsp, u16 status,
			   const struct rcblk_geo *geo);
enum rcblk_status rcblk_io_check(const struct rcblk_io_limits *lim,
				 const void *buf, size_t len,
				 struct rcblk_io_req *req);
void rcblk_export_id(const char *name, u64 dev, u64 diskseq, u64 nr_sectors,
		     bool stable, u8 *id);
int rcblk_cidr_check(const struct rdmachan_blk_cidr *c);
int rcblk_cidr_parse(const char *s, size_t len, struct rdmachan_blk_cidr *c);
bool rcblk_cidr_match(const struct rdmachan_blk_cidr *allow, u32 nr_allow,
		      const struct sockaddr *sa);
bool rcblk_same_host(const struct sockaddr *a, const struct sockaddr *b);

/**
 * rcblk_window_fits() - may a queue start an RDMA READ piece of a
 *	WRITE's data now (blk_srv_pull.c)
 * @inflight: bytes of the queue's READ pieces in flight
 * @len: the piece's bytes
 * @window: the queue's pull window in bytes (0: none)
 *
 * One piece always may, whatever its size.
 *
 * Return: true when @len may start.
 */
static inline bool rcblk_window_fits(u32 inflight, u32 len, u32 window)
{
	return !window || !inflight || (u64)inflight + len <= window;
}

/**
 * rcblk_pull_piece() - the bytes of a WRITE's next RDMA READ piece
 * @left: the request's bytes not yet read (or posted)
 * @window: the queue's pull window in bytes (0: none)
 *
 * Half the window, in whole 4 KiB, at least 4 KiB: two pieces are in
 * flight at a time.
 *
 * Return: at most @left; @left when there is no window.
 */
static inline u32 rcblk_pull_piece(u32 left, u32 window)
{
	u32 piece = max_t(u32, window / 2 & ~(SZ_4K - 1), SZ_4K);

	return window ? min(left, piece) : left;
}

#endif /* RCBLK_PROTO_SRV_H */
