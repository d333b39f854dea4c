/* SPDX-License-Identifier: GPL-2.0-only WITH Linux-syscall-note */
/*
 * rdmachan_net: user ABI of the network channel
 *
 * ioctls of /dev/rdmachan served by rdmachan_net.ko (-ENOTTY while it is
 * not loaded).  A device is a point-to-point IP netdev whose packets
 * travel over one rdmachan channel; one end listens, the other connects.
 * Every argument starts with its size, so that it can grow; reserved
 * fields must be zero.  The tool's "net" object uses them.
 */
#ifndef _UAPI_LINUX_RDMACHAN_NET_H
#define _UAPI_LINUX_RDMACHAN_NET_H

#include <linux/types.h>
#include <linux/socket.h>
#include <linux/rdmachan.h>

#define RDMACHAN_NET_NAME_MAX	16	/* interface names, with the NUL (IFNAMSIZ) */
#define RDMACHAN_NET_DEFAULT_PORT 7472	/* rdma_cm port when ADDR has none */
/*
 * The message size of &rdmachan_net_add.max_msg_size 0: the largest whose
 * receive buffer, with the channel's framing, is 64 KiB
 */
#define RDMACHAN_NET_DEFAULT_MSG 65524

/* rdmachan_net_add.mode, rdmachan_net_info.mode */
#define RDMACHAN_NET_LISTEN	1	/* wait for the peer on addr */
#define RDMACHAN_NET_CONNECT	2	/* connect to the peer at addr */

/* rdmachan_net_add.loss_timeout_ms: never give up */
#define RDMACHAN_NET_TMO_OFF	0xffffffffU

/**
 * struct rdmachan_net_add - argument of RDMACHAN_IOC_NET_ADD
 * @size: sizeof(struct rdmachan_net_add)
 * @mode: RDMACHAN_NET_LISTEN or RDMACHAN_NET_CONNECT
 * @name: the interface's name, NUL-terminated, a valid netdev name
 * @addr: LISTEN: the local address (and port) to listen on; CONNECT: the
 *	peer's address; port 0 for RDMACHAN_NET_DEFAULT_PORT
 * @src: CONNECT: the local address to connect from, AF_UNSPEC for any;
 *	LISTEN: the only peer address accepted (its port is ignored),
 *	AF_UNSPEC for the first peer that connects
 * @mtu: the interface's MTU, 68 up to @max_msg_size (and 65535); 0 for
 *	the largest
 * @max_msg_size: the channel's message size, 1280 to 1048576, 0 for
 *	RDMACHAN_NET_DEFAULT_MSG; the MTU cannot exceed it
 * @queue_depth: the channel's credits per direction, 0 for the module's
 *	default
 * @reconnect_delay_ms: after a link loss, wait this long before the first
 *	attempt (later waits double up to the module's
 *	reconnect_max_delay_ms); 0: the module's reconnect_delay_ms;
 *	100 to 3600000
 * @loss_timeout_ms: give up reconnecting this long after a loss (the
 *	carrier stays off; a LISTEN device takes a new peer connection
 *	still); 0: the module's loss_timeout_ms; RDMACHAN_NET_TMO_OFF:
 *	never
 * @reserved: zero
 */
struct rdmachan_net_add {
	__u32 size;
	__u32 mode;
	char name[RDMACHAN_NET_NAME_MAX];
	struct __kernel_sockaddr_storage addr;
	struct __kernel_sockaddr_storage src;
	__u32 mtu;
	__u32 max_msg_size;
	__u32 queue_depth;
	__u32 reconnect_delay_ms;
	__u32 loss_timeout_ms;
	__u32 reserved[3];
};

/**
 * struct rdmachan_net_del - argument of RDMACHAN_IOC_NET_DEL
 * @size: sizeof(struct rdmachan_net_del)
 * @flags: zero (none defined)
 * @name: the interface (its name now, in whichever network namespace)
 */
struct rdmachan_net_del {
	__u32 size;
	__u32 flags;
	char name[RDMACHAN_NET_NAME_MAX];
};

/* rdmachan_net_info.state */
enum rdmachan_net_state {
	RDMACHAN_NET_UP			= 0,	/* connected, carrier on */
	RDMACHAN_NET_RECONNECTING	= 1,	/* link lost, attempts made */
	RDMACHAN_NET_DEAD		= 2,	/* given up (loss timeout) */
	RDMACHAN_NET_WAITING		= 3,	/* LISTEN: no peer yet */
};

/**
 * struct rdmachan_net_counters - counters of a device
 * @rx_packets: packets delivered to the stack
 * @rx_bytes: their bytes
 * @tx_packets: packets sent as messages
 * @tx_bytes: their bytes
 * @rx_dropped: messages dropped (no memory, device down, backlog full)
 * @tx_dropped: packets dropped without a channel (carrier off)
 * @rx_errors: messages refused (no immediate, not IPv4/IPv6, bad length)
 * @tx_errors: sends that failed (the channel failed, larger than the
 *	channel's messages, not IPv4/IPv6)
 * @tx_stopped: times the queue was stopped for want of credits
 * @reconnects: times the link came back after a loss
 */
struct rdmachan_net_counters {
	__u64 rx_packets;
	__u64 rx_bytes;
	__u64 tx_packets;
	__u64 tx_bytes;
	__u64 rx_dropped;
	__u64 tx_dropped;
	__u64 rx_errors;
	__u64 tx_errors;
	__u64 tx_stopped;
	__u64 reconnects;
};

/**
 * struct rdmachan_net_info - one device, of RDMACHAN_IOC_NET_LIST
 * @name: the interface's name now
 * @ifindex: its index (in its network namespace)
 * @mode: RDMACHAN_NET_LISTEN or RDMACHAN_NET_CONNECT
 * @state: enum rdmachan_net_state
 * @last_error: the last error, a negative errno, or 0
 * @addr: what the device was added with (listen address or peer)
 * @peer: the connected peer's address (AF_UNSPEC when not connected)
 * @mtu: the interface's MTU
 * @max_msg_size: the channel's message size (negotiated when connected)
 * @queue_depth: the channel's credits (negotiated when connected)
 * @carrier: 1 while the carrier is on
 * @attempt: reconnect attempts since the loss (the running one included)
 * @max_attempts: attempts the policy allows before the loss timeout; 0
 *	when it never gives up
 * @next_ms: milliseconds until the next attempt, while reconnecting
 * @down_ms: milliseconds since the loss, while reconnecting or dead
 * @losses: link losses since the device was added
 * @reserved: zero
 * @c: counters
 */
struct rdmachan_net_info {
	char name[RDMACHAN_NET_NAME_MAX];
	__u32 ifindex;
	__u32 mode;
	__u32 state;
	__s32 last_error;
	struct __kernel_sockaddr_storage addr;
	struct __kernel_sockaddr_storage peer;
	__u32 mtu;
	__u32 max_msg_size;
	__u32 queue_depth;
	__u32 carrier;
	__u32 attempt;
	__u32 max_attempts;
	__u32 next_ms;
	__u32 down_ms;
	__u32 losses;
	__u32 reserved[3];
	struct rdmachan_net_counters c;
};

/**
 * struct rdmachan_net_list - argument of RDMACHAN_IOC_NET_LIST
 * @size: sizeof(struct rdmachan_net_list)
 * @reserved: zero
 * @count: in: entries @entries has room for; out: devices there are
 *	(more than were copied when the room was short)
 * @entry_size: in: sizeof(struct rdmachan_net_info)
 * @entries: user pointer to the array
 */
struct rdmachan_net_list {
	__u32 size;
	__u32 reserved;
	__u32 count;
	__u32 entry_size;
	__u64 entries;
};

/* _IOC_NR 0x90..0x9f of RDMACHAN_IOC_MAGIC belong to rdmachan_net */
#define RDMACHAN_IOC_NET_FIRST	0x90
#define RDMACHAN_IOC_NET_LAST	0x9f

#define RDMACHAN_IOC_NET_ADD	_IOW(RDMACHAN_IOC_MAGIC, 0x90, struct rdmachan_net_add)
#define RDMACHAN_IOC_NET_DEL	_IOW(RDMACHAN_IOC_MAGIC, 0x91, struct rdmachan_net_del)
#define RDMACHAN_IOC_NET_LIST	_IOWR(RDMACHAN_IOC_MAGIC, 0x92, struct rdmachan_net_list)

/*
 * rtnetlink: "ip link add NAME type rdmachan ...", the kind "rdmachan"
 * (IFLA_INFO_KIND), makes the same device as RDMACHAN_IOC_NET_ADD from
 * these attributes of IFLA_INFO_DATA, and "ip -d link show" reports
 * them.  The MTU is IFLA_MTU's.
 *
 * IFLA_RDMACHAN_MODE: __u32, RDMACHAN_NET_LISTEN or RDMACHAN_NET_CONNECT
 *	(required)
 * IFLA_RDMACHAN_ADDR: struct in_addr (4 bytes) or struct in6_addr (16):
 *	LISTEN: the local address; CONNECT: the peer's (required)
 * IFLA_RDMACHAN_PORT: __u16, host order: ADDR's port (absent or 0:
 *	RDMACHAN_NET_DEFAULT_PORT)
 * IFLA_RDMACHAN_SRC: as ADDR, of the same family: CONNECT: the local
 *	address to connect from; LISTEN: the one peer accepted (absent:
 *	any)
 * IFLA_RDMACHAN_SCOPE_ID: __u32: an IPv6 link-local ADDR's interface
 * IFLA_RDMACHAN_MSG_SIZE, IFLA_RDMACHAN_QUEUE_DEPTH,
 * IFLA_RDMACHAN_RECONNECT_DELAY_MS, IFLA_RDMACHAN_LOSS_TIMEOUT_MS:
 *	__u32, as the fields of struct rdmachan_net_add (0 or absent: the
 *	default; RDMACHAN_NET_TMO_OFF: never give up)
 */
enum {
	IFLA_RDMACHAN_UNSPEC,
	IFLA_RDMACHAN_MODE,
	IFLA_RDMACHAN_ADDR,
	IFLA_RDMACHAN_PORT,
	IFLA_RDMACHAN_SRC,
	IFLA_RDMACHAN_SCOPE_ID,
	IFLA_RDMACHAN_MSG_SIZE,
	IFLA_RDMACHAN_QUEUE_DEPTH,
	IFLA_RDMACHAN_RECONNECT_DELAY_MS,
	IFLA_RDMACHAN_LOSS_TIMEOUT_MS,
	__IFLA_RDMACHAN_MAX
};

#define IFLA_RDMACHAN_MAX	(__IFLA_RDMACHAN_MAX - 1)

#endif /* _UAPI_LINUX_RDMACHAN_NET_H */
