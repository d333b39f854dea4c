/* SPDX-License-Identifier: GPL-2.0-only WITH Linux-syscall-note */
/*
 * rdmachan: user ABI of what speaks to standard verbs peers
 *
 * ioctls of /dev/rdmachan served by rdmachan.ko that talk to programs
 * which are not rdmachan: an in-kernel rping (rdma-core's
 * librdmacm/examples/rping.c, the kernel's krping), and datagram
 * endpoints: unreliable datagrams (UD) over rdma_cm's UDP port space, as
 * rdma-core's udaddy sends them.  Every argument starts with its size, so
 * that it can grow; reserved fields must be zero.  The tool's "rping" and
 * "dgram" commands use them.
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

/* ---- datagram endpoints (UD) ------------------------------------------- */

#define RDMACHAN_DGRAM_QKEY		0x01234567U	/* RDMA_UDP_QKEY */
#define RDMACHAN_DGRAM_DEFAULT_DEPTH	256
#define RDMACHAN_DGRAM_MAX_DEPTH	4096
#define RDMACHAN_DGRAM_MAX_BATCH	64
#define RDMACHAN_DGRAM_DEFAULT_TIMEOUT	5000	/* ms, of RESOLVE and JOIN */
#define RDMACHAN_DGRAM_MCAST_QPN	0xffffffU	/* a group's members */

/* rdmachan_dgram_open.flags */
#define RDMACHAN_DGRAM_SERVE	0x1U	/* answer resolutions of @addr's port */
#define RDMACHAN_DGRAM_BUSY_POLL	0x2U	/* waits poll the completion queue */
#define RDMACHAN_DGRAM_OPEN_FLAGS	(RDMACHAN_DGRAM_SERVE | \
					 RDMACHAN_DGRAM_BUSY_POLL)

/**
 * struct rdmachan_dgram_open - argument of RDMACHAN_IOC_DGRAM_OPEN
 * @size: sizeof(struct rdmachan_dgram_open)
 * @flags: RDMACHAN_DGRAM_SERVE: answer the resolutions (SIDR requests of
 *	rdma_cm's UDP port space) of @addr's port with this endpoint's
 *	queue pair, as udaddy's server does; the port must be free.
 *	RDMACHAN_DGRAM_BUSY_POLL: the endpoint's completion queue is
 *	polled by its users' waits (receive, send, close, poll()), which
 *	spin a while before they sleep, as a DIRECT channel's do, rather
 *	than in softirq: the lowest latency, a CPU spent waiting
 * @fd_flags: RDMACHAN_FD_*
 * @depth: receive buffers, each one datagram; 0:
 *	RDMACHAN_DGRAM_DEFAULT_DEPTH, at most RDMACHAN_DGRAM_MAX_DEPTH
 * @addr: in: the local address, which names the RDMA device (struct
 *	sockaddr_in or sockaddr_in6, not a wildcard), and the port to serve
 *	(0: a free one); out: the port
 * @fd: out: the endpoint's file descriptor (also the return value)
 * @qpn: out: its queue pair number
 * @qkey: out: its qkey (RDMACHAN_DGRAM_QKEY)
 * @max_size: out: the largest datagram, the port's active MTU
 * @reserved: zero
 *
 * An endpoint is one UD queue pair with @depth receive buffers.  The
 * file reads (read(), DGRAM_RECV) the datagrams that arrive, in order,
 * with their source; writes (write() to the connected peer, DGRAM_SEND to
 * any) send datagrams of up to @max_size bytes; poll() says which can go
 * on.  UD is unreliable: a datagram that finds no receive buffer is
 * dropped by the device, and nobody is told.
 */
struct rdmachan_dgram_open {
	__u32 size;
	__u32 flags;
	__u32 fd_flags;
	__u32 depth;
	struct __kernel_sockaddr_storage addr;
	__s32 fd;
	__u32 qpn;
	__u32 qkey;
	__u32 max_size;
	__u64 reserved[4];
};

/**
 * struct rdmachan_dgram_peer - the other end of a datagram
 * @addr: its IP address (struct sockaddr_in or sockaddr_in6; the port is
 *	not used: received datagrams say 0)
 * @qpn: its queue pair number
 * @qkey: its qkey; 0 on a send: RDMACHAN_DGRAM_QKEY
 */
struct rdmachan_dgram_peer {
	struct __kernel_sockaddr_storage addr;
	__u32 qpn;
	__u32 qkey;
};

/* rdmachan_dgram_resolve.flags */
#define RDMACHAN_DGRAM_CONNECT	0x1U	/* the peer becomes write()'s */

/**
 * struct rdmachan_dgram_resolve - argument of RDMACHAN_IOC_DGRAM_RESOLVE
 * @size: sizeof(struct rdmachan_dgram_resolve)
 * @flags: RDMACHAN_DGRAM_CONNECT: write() sends to the peer from now on
 * @timeout_ms: the bound of resolving the address, the route and the
 *	service; 0: RDMACHAN_DGRAM_DEFAULT_TIMEOUT
 * @reserved0: zero
 * @addr: the service: the peer's address and port (an endpoint opened with
 *	RDMACHAN_DGRAM_SERVE, or udaddy's server)
 * @peer: out: its queue pair and qkey, for DGRAM_SEND
 * @reserved: zero
 *
 * Asks the peer (a SIDR request of rdma_cm's UDP port space, as udaddy's
 * client does) for the queue pair behind a port.  Errors: ETIMEDOUT,
 * EHOSTUNREACH (no route, or nobody serves the port), ENETUNREACH (the
 * route leaves from another device than the endpoint's).
 */
struct rdmachan_dgram_resolve {
	__u32 size;
	__u32 flags;
	__u32 timeout_ms;
	__u32 reserved0;
	struct __kernel_sockaddr_storage addr;
	struct rdmachan_dgram_peer peer;
	__u64 reserved[2];
};

/* rdmachan_dgram_join.flags */
#define RDMACHAN_DGRAM_SENDONLY	0x1U	/* join to send only */

/**
 * struct rdmachan_dgram_join - argument of RDMACHAN_IOC_DGRAM_JOIN and
 *	RDMACHAN_IOC_DGRAM_LEAVE
 * @size: sizeof(struct rdmachan_dgram_join)
 * @flags: JOIN: RDMACHAN_DGRAM_SENDONLY joins as a send-only full member
 *	(the group's datagrams do not come to this endpoint); LEAVE: zero
 * @timeout_ms: JOIN: the bound of resolving and joining; 0:
 *	RDMACHAN_DGRAM_DEFAULT_TIMEOUT; LEAVE: zero
 * @reserved0: zero
 * @addr: the group (an IPv4 or IPv6 multicast address; the port is not
 *	used)
 * @peer: out (JOIN): the group as DGRAM_SEND names it: @addr, qpn
 *	RDMACHAN_DGRAM_MCAST_QPN, the group's qkey
 * @reserved: zero
 *
 * An endpoint joins at most 64 groups; closing it leaves them.  Errors of
 * JOIN: EALREADY (joined), ENOBUFS (64 joined), EINVAL (not a multicast
 * address), ETIMEDOUT, ENETUNREACH, ENOTSUPP (an IPv6 group on RoCEv2);
 * of LEAVE: ENOENT (not joined).
 */
struct rdmachan_dgram_join {
	__u32 size;
	__u32 flags;
	__u32 timeout_ms;
	__u32 reserved0;
	struct __kernel_sockaddr_storage addr;
	struct rdmachan_dgram_peer peer;
	__u64 reserved[2];
};

/* rdmachan_dgram_msg.flags */
#define RDMACHAN_DGRAM_MSG_IMM		0x1U	/* @imm is sent, was received */
#define RDMACHAN_DGRAM_MSG_TRUNC	0x2U	/* out: larger than @len */
#define RDMACHAN_DGRAM_MSG_FLAGS	RDMACHAN_DGRAM_MSG_IMM

/**
 * struct rdmachan_dgram_msg - one datagram of DGRAM_SEND or DGRAM_RECV
 * @buf: its bytes (user pointer)
 * @len: send: its length, at most the endpoint's max_size; receive: in,
 *	the room at @buf; out, the datagram's length (more than the room
 *	with RDMACHAN_DGRAM_MSG_TRUNC: the rest is dropped)
 * @flags: RDMACHAN_DGRAM_MSG_*
 * @imm: the immediate data, as on the wire (udaddy sends its queue pair
 *	number there, and answers the queue pair it names)
 * @reserved: zero
 * @peer: send: the destination (@peer.qpn 0: the connected peer);
 *	receive, out: the source
 */
struct rdmachan_dgram_msg {
	__u64 buf;
	__u32 len;
	__u32 flags;
	__be32 imm;
	__u32 reserved;
	struct rdmachan_dgram_peer peer;
};

/* rdmachan_dgram_batch.flags */
#define RDMACHAN_DGRAM_DONTWAIT	0x1U	/* EAGAIN rather than wait */

/**
 * struct rdmachan_dgram_batch - argument of RDMACHAN_IOC_DGRAM_SEND and
 *	RDMACHAN_IOC_DGRAM_RECV
 * @size: sizeof(struct rdmachan_dgram_batch)
 * @flags: RDMACHAN_DGRAM_DONTWAIT (also when the file is O_NONBLOCK)
 * @count: in: entries at @msgs, 1 to RDMACHAN_DGRAM_MAX_BATCH; out: how
 *	many were sent or received (also the return value)
 * @timeout_ms: receive: wait at most this for the first datagram (0:
 *	until one comes or a signal); send: zero
 * @msgs: struct rdmachan_dgram_msg array (user pointer)
 * @reserved: zero
 *
 * A send waits for send buffers (interruptible) and returns once every
 * datagram is posted; a receive returns what has arrived, at least one.
 * An error on a later entry ends the batch early: @count says how many
 * went, and the error is returned only when none did.
 */
struct rdmachan_dgram_batch {
	__u32 size;
	__u32 flags;
	__u32 count;
	__u32 timeout_ms;
	__u64 msgs;
	__u64 reserved[2];
};

/**
 * struct rdmachan_dgram_info - argument of RDMACHAN_IOC_DGRAM_INFO
 * @size: sizeof(struct rdmachan_dgram_info)
 * @qpn: the endpoint's queue pair number
 * @qkey: its qkey
 * @max_size: the largest datagram
 * @depth: the most receive buffers it makes
 * @posted: of @buffers, posted now (the rest hold datagrams not yet read)
 * @error: 0, or why the endpoint died (ENODEV: its device went away)
 * @buffers: receive buffers it has now: @depth at open, fewer once it
 *	received nothing for the module's shrink_idle_ms, more again as
 *	datagrams come
 * @mem_bytes: what it holds: its buffers' pages, their bookkeeping and
 *	itself (not the device's queues)
 * @addr: the local address and served port
 * @tx: datagrams sent
 * @rx: datagrams received
 * @tx_bytes: their bytes
 * @rx_bytes: likewise
 * @rx_trunc: datagrams truncated by a reader's small buffer
 * @rx_empty: times every receive buffer was taken: datagrams that came
 *	then were dropped by the device
 * @tx_errors: sends that failed in the device
 * @resolved: resolutions answered to this endpoint
 * @served: resolutions this endpoint answered
 * @grown: receive buffers made after the open, as datagrams came
 * @retired: receive buffers given back while it was idle
 * @reserved: zero
 */
struct rdmachan_dgram_info {
	__u32 size;
	__u32 qpn;
	__u32 qkey;
	__u32 max_size;
	__u32 depth;
	__u32 posted;
	__s32 error;
	__u32 buffers;
	struct __kernel_sockaddr_storage addr;
	__u64 tx;
	__u64 rx;
	__u64 tx_bytes;
	__u64 rx_bytes;
	__u64 rx_trunc;
	__u64 rx_empty;
	__u64 tx_errors;
	__u64 resolved;
	__u64 served;
	__u64 mem_bytes;
	__u64 grown;
	__u64 retired;
	__u64 reserved[1];
};

/* rdmachan_dgram_bench.wait_ms's default for PINGPONG: a reply's bound */
#define RDMACHAN_DGRAM_BENCH_REPLY_MS	1000

/**
 * struct rdmachan_dgram_bench - argument of RDMACHAN_IOC_DGRAM_BENCH
 * @size: sizeof(struct rdmachan_dgram_bench)
 * @mode: RDMACHAN_BENCH_BLAST, RDMACHAN_BENCH_PINGPONG, RDMACHAN_BENCH_SINK
 *	or RDMACHAN_BENCH_ECHO (enum rdmachan_bench_mode, <linux/rdmachan.h>)
 * @msg_size: BLAST, PINGPONG: bytes a datagram, 1 to the endpoint's
 *	max_size (EMSGSIZE beyond); SINK, ECHO: zero
 * @duration_ms: stop after this long; 0: no time limit
 * @wait_ms: SINK, ECHO: end once no datagram came for this long after
 *	the first (0: no such bound; the first is waited for without one);
 *	PINGPONG: how long a reply is waited for before its request counts
 *	as @lost and the next one goes (0: RDMACHAN_DGRAM_BENCH_REPLY_MS);
 *	BLAST: zero
 * @count: BLAST: datagrams to send; PINGPONG: round trips; SINK, ECHO:
 *	datagrams to take; 0: no limit
 * @peer: BLAST, PINGPONG: the destination, as DGRAM_RESOLVE gave it
 *	(@peer.qkey 0: RDMACHAN_DGRAM_QKEY); SINK, ECHO: zero
 * @msgs: out: datagrams sent (BLAST), round trips (PINGPONG), datagrams
 *	taken (SINK, ECHO)
 * @bytes: out: their payload bytes
 * @elapsed_ns: out: BLAST, PINGPONG: from the start to the last;
 *	SINK, ECHO: from the first datagram taken to the last
 * @lost: out: PINGPONG: requests whose reply did not come within
 *	@wait_ms; other modes: 0 (the endpoint's rx_empty counts a sink's
 *	drops)
 * @lat_min_ns: out: PINGPONG: shortest round trip
 * @lat_avg_ns: out: PINGPONG: mean round trip
 * @lat_p50_ns: out: PINGPONG: median round trip
 * @lat_p99_ns: out: PINGPONG: 99th percentile round trip
 * @lat_max_ns: out: PINGPONG: longest round trip
 * @reserved: zero
 *
 * The whole run loops in the kernel over the in-kernel datagram API
 * (like RDMACHAN_IOC_BENCH on a channel): BLAST sends to @peer as fast as
 * send buffers free up, against a SINK that takes and drops what comes;
 * PINGPONG sends one datagram with its sequence number as immediate data
 * and waits for the ECHO that sends each datagram back to its source,
 * immediate data and all.  A reply that is not the one waited for (a
 * late one) is dropped.  A signal ends a run early; its results are
 * still returned.  The receiving modes take datagrams the file's readers
 * would otherwise read.
 */
struct rdmachan_dgram_bench {
	__u32 size;
	__u32 mode;
	__u32 msg_size;
	__u32 duration_ms;
	__u32 wait_ms;
	__u32 reserved0;
	__u64 count;
	struct rdmachan_dgram_peer peer;
	__u64 msgs;
	__u64 bytes;
	__u64 elapsed_ns;
	__u64 lost;
	__u64 lat_min_ns;
	__u64 lat_avg_ns;
	__u64 lat_p50_ns;
	__u64 lat_p99_ns;
	__u64 lat_max_ns;
	__u64 reserved[4];
};

#define RDMACHAN_IOC_DGRAM_OPEN	_IOWR(RDMACHAN_IOC_MAGIC, 0x51, struct rdmachan_dgram_open)
/* of an endpoint's file */
#define RDMACHAN_IOC_DGRAM_RESOLVE	\
	_IOWR(RDMACHAN_IOC_MAGIC, 0x52, struct rdmachan_dgram_resolve)
#define RDMACHAN_IOC_DGRAM_SEND	_IOWR(RDMACHAN_IOC_MAGIC, 0x53, struct rdmachan_dgram_batch)
#define RDMACHAN_IOC_DGRAM_RECV	_IOWR(RDMACHAN_IOC_MAGIC, 0x54, struct rdmachan_dgram_batch)
#define RDMACHAN_IOC_DGRAM_INFO	_IOWR(RDMACHAN_IOC_MAGIC, 0x55, struct rdmachan_dgram_info)
#define RDMACHAN_IOC_DGRAM_JOIN	_IOWR(RDMACHAN_IOC_MAGIC, 0x56, struct rdmachan_dgram_join)
#define RDMACHAN_IOC_DGRAM_LEAVE	_IOW(RDMACHAN_IOC_MAGIC, 0x57, struct rdmachan_dgram_join)
#define RDMACHAN_IOC_DGRAM_BENCH	\
	_IOWR(RDMACHAN_IOC_MAGIC, 0x58, struct rdmachan_dgram_bench)

#endif /* _UAPI_LINUX_RDMACHAN_VERBS_H */
