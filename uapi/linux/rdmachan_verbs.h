/* SPDX-License-Identifier: GPL-2.0-only WITH Linux-syscall-note */
/*
 * rdmachan: user ABI of what speaks to standard verbs peers
 *
 * ioctls of /dev/rdmachan served by rdmachan.ko that talk to programs
 * which are not rdmachan: an in-kernel rping (rdma-core's
 * librdmacm/examples/rping.c, the kernel's krping).  Every argument starts
 * with its size, so that it can grow; reserved fields must be zero.  The
 * tool's "rping" command uses them.
 */
#ifndef _UAPI_LINUX_RDMACHAN_VERBS_H
#define _UAPI_LINUX_RDMACHAN_VERBS_H

#include <linux/types.h>
#include <linux/socket.h>
#include <linux/rdmachan.h>

/* rping's defaults and limits (rping.c: RPING_MIN_BUFSIZE, RPING_BUFSIZE) */
#define RDMACHAN_RPING_PORT		7174
#define RDMACHAN_RPING_DEFAULT_SIZE	64
#define RDMACHAN_RPING_MIN_SIZE		26
#define RDMACHAN_RPING_MAX_SIZE		65535

/* rdmachan_rping.flags */
#define RDMACHAN_RPING_SERVER	0x1U	/* wait for one client on @addr */
#define RDMACHAN_RPING_VERBOSE	0x2U	/* log each ping's data (-v) */
#define RDMACHAN_RPING_VALIDATE	0x4U	/* check each ping's data (-V) */
#define RDMACHAN_RPING_FLAGS	(RDMACHAN_RPING_SERVER | \
				 RDMACHAN_RPING_VERBOSE | \
				 RDMACHAN_RPING_VALIDATE)

/**
 * struct rdmachan_rping - argument of RDMACHAN_IOC_RPING
 * @size: sizeof(struct rdmachan_rping)
 * @flags: RDMACHAN_RPING_*
 * @count: client: pings to make, 0 until interrupted; server: zero
 * @msg_size: bytes of each ping (rping's -S), RDMACHAN_RPING_MIN_SIZE to
 *	RDMACHAN_RPING_MAX_SIZE; 0: RDMACHAN_RPING_DEFAULT_SIZE.  A server
 *	refuses a client that advertises more.
 * @timeout_ms: the bound of each step that waits for the peer (address
 *	and route resolution, the connection, each message and RDMA
 *	operation); 0: 5000.  A server waits for its client without bound,
 *	until interrupted.
 * @reserved0: zero
 * @addr: client: the server (struct sockaddr_in or sockaddr_in6; port 0:
 *	RDMACHAN_RPING_PORT); server: the address to listen on, likewise
 * @src: client: the address to connect from (rping's -I); AF_UNSPEC (0)
 *	for any; server: zero
 * @pings: out: pings completed (a client's whole round trips, a server's
 *	echoes)
 * @rtt_min_ns: out: the shortest client round trip (advertisement to the
 *	second go-ahead); 0 on a server
 * @rtt_max_ns: out: the longest
 * @rtt_sum_ns: out: their sum
 * @peer_size: out: the size the peer advertised last
 * @reserved: zero
 *
 * Speaks rping's wire protocol exactly: over an RC connection of port
 * space RDMA_PS_TCP without private data, the client SENDs 16 bytes
 * (__be64 addr, __be32 rkey, __be32 size) naming its source buffer, the
 * server READs it and SENDs a go-ahead, the client names its sink, the
 * server WRITEs the data back and SENDs a go-ahead; again for each ping.
 * Runs in the caller's thread until done; a signal ends it (EINTR, the
 * counts copied out as far as they went).  Errors: ETIMEDOUT (a step's
 * bound), ECONNREFUSED (rejected, no listener), EPROTO (a message of
 * another size, a size beyond @msg_size), EIO (a work request failed),
 * ECONNRESET (the peer went away mid-ping), EBADMSG (a ping's data did
 * not check out under RDMACHAN_RPING_VALIDATE).
 */
struct rdmachan_rping {
	__u32 size;
	__u32 flags;
	__u32 count;
	__u32 msg_size;
	__u32 timeout_ms;
	__u32 reserved0;
	struct __kernel_sockaddr_storage addr;
	struct __kernel_sockaddr_storage src;
	__u64 pings;
	__u64 rtt_min_ns;
	__u64 rtt_max_ns;
	__u64 rtt_sum_ns;
	__u32 peer_size;
	__u32 reserved[7];
};

#define RDMACHAN_IOC_RPING	_IOWR(RDMACHAN_IOC_MAGIC, 0x50, struct rdmachan_rping)

#endif /* _UAPI_LINUX_RDMACHAN_VERBS_H */
