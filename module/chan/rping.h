/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * rdmachan: rping's wire format and data, as pure functions (rping.c runs
 * the protocol; KUnit tests these)
 *
 * rdma-core's librdmacm/examples/rping.c: each SEND carries 16 bytes,
 * struct rping_rdma_info, naming a buffer the peer may reach; the client
 * fills its source buffer with "rdma-ping-N: " and a run of letters from
 * 'A' + N % 58 up to 'z' and round again, NUL last, and the server writes
 * back strlen() + 1 of what it read.
 */
#ifndef RDMACHAN_RPING_H
#define RDMACHAN_RPING_H

#include <linux/build_bug.h>
#include <linux/kernel.h>
#include <linux/string.h>
#include <linux/types.h>

/**
 * struct rdmachan_rping_info - rping's 16-byte message
 * @buf: the buffer's address as the peer's work requests name it
 * @rkey: its remote key
 * @size: its length
 */
struct rdmachan_rping_info {
	__be64 buf;
	__be32 rkey;
	__be32 size;
};

static_assert(sizeof(struct rdmachan_rping_info) == 16);

#define RDMACHAN_RPING_FIRST	65	/* 'A' */
#define RDMACHAN_RPING_LAST	122	/* 'z' */

/* The first letter of ping @ping's run */
static inline u8 rdmachan_rping_start(u64 ping)
{
	return RDMACHAN_RPING_FIRST +
	       ping % (RDMACHAN_RPING_LAST - RDMACHAN_RPING_FIRST + 1);
}

/*
 * The data of ping @ping, @len bytes (at least RDMACHAN_RPING_MIN_SIZE),
 * into @buf, as rping's client makes it.
 */
static inline void rdmachan_rping_fill(u8 *buf, u32 len, u64 ping)
{
	u8 c = rdmachan_rping_start(ping);
	int n = snprintf(buf, len, "rdma-ping-%d: ", (int)ping);
	u32 i;

	for (i = min_t(u32, n, len); i < len; i++) {
		buf[i] = c;
		if (++c > RDMACHAN_RPING_LAST)
			c = RDMACHAN_RPING_FIRST;
	}
	if (len)
		buf[len - 1] = 0;
}

/*
 * Does @buf, @len bytes, hold ping @ping's data?  Return: -1 when it
 * does, else the offset of the first byte that differs.
 */
static inline long rdmachan_rping_check(const u8 *buf, u32 len, u64 ping)
{
	char head[24];
	u8 c = rdmachan_rping_start(ping);
	u32 n = min_t(u32, snprintf(head, sizeof(head), "rdma-ping-%d: ",
				    (int)ping), len);
	u32 i;

	for (i = 0; i < n; i++)
		if (buf[i] != (u8)head[i])
			return i;
	for (; i + 1 < len; i++) {
		if (buf[i] != c)
			return i;
		if (++c > RDMACHAN_RPING_LAST)
			c = RDMACHAN_RPING_FIRST;
	}
	return len && buf[len - 1] ? (long)len - 1 : -1;
}

/*
 * What a server writes back of the @len bytes it read: the string and its
 * NUL, at most @len and at most the client's sink, @sink bytes.
 */
static inline u32 rdmachan_rping_echo_len(const u8 *buf, u32 len, u32 sink)
{
	return min3(len, sink, (u32)strnlen(buf, len) + 1);
}

#endif /* RDMACHAN_RPING_H */
