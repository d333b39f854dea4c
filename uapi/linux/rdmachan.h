/* SPDX-License-Identifier: ((GPL-2.0 WITH Linux-syscall-note) OR BSD-2-Clause) */
/*
 * rdmachan: RDMA message channels - userspace ABI of /dev/rdmachan
 *
 * Every ioctl argument is a fixed-size structure whose first member is
 * @size, set by the caller to sizeof() the structure it was compiled
 * with.  The kernel rejects a size it does not know with -EINVAL, so a
 * later ABI version can grow a structure (with a new size) without
 * breaking old binaries.  Reserved members and padding must be zero on
 * input and are zero on output.  Pointers to user memory are passed as
 * __u64 so that 32-bit and 64-bit callers share one layout.
 *
 * See Documentation/ioctl.rst for the full description.
 */
#ifndef _UAPI_LINUX_RDMACHAN_H
#define _UAPI_LINUX_RDMACHAN_H

#include <linux/ioctl.h>
#include <linux/socket.h>
#include <linux/types.h>

#define RDMACHAN_ABI_VERSION	1

/* Name of the control device node, below /dev. */
#define RDMACHAN_DEVICE_NAME	"rdmachan"

/* Longest RDMA device name, including the terminating NUL. */
#define RDMACHAN_NAME_MAX	64

/* Longest firmware version string, including the terminating NUL. */
#define RDMACHAN_FW_VER_MAX	64

/* Bits of rdmachan_version.features: what this module implements. */
enum rdmachan_feature {
	RDMACHAN_FEAT_DEV_LIST	= 1ULL << 0,
	RDMACHAN_FEAT_DEV_QUERY	= 1ULL << 1,
	RDMACHAN_FEAT_CHANNEL	= 1ULL << 2,	/* CONNECT, LISTEN, channel fds */
	RDMACHAN_FEAT_BENCH	= 1ULL << 3,	/* RDMACHAN_IOC_BENCH */
	RDMACHAN_FEAT_RDMA	= 1ULL << 4,	/* REG_MR, DEREG_MR, RDMA */
};

/**
 * struct rdmachan_version - argument of RDMACHAN_IOC_VERSION
 * @size: in: sizeof(struct rdmachan_version)
 * @abi_version: out: RDMACHAN_ABI_VERSION of the running module
 * @features: out: mask of enum rdmachan_feature
 * @device_count: out: RDMA devices currently known to rdmachan
 * @reserved: must be zero
 */
struct rdmachan_version {
	__u32 size;
	__u32 abi_version;
	__u64 features;
	__u32 device_count;
	__u32 reserved[7];
};

/**
 * struct rdmachan_dev_entry - one element of the RDMACHAN_IOC_DEV_LIST array
 * @name: RDMA device name, NUL-terminated (e.g. "rxe0")
 * @index: the RDMA core's device index (as in "rdma dev show")
 * @port_count: number of physical ports
 * @node_type: enum rdmachan_node_type
 * @reserved: zero
 */
struct rdmachan_dev_entry {
	char  name[RDMACHAN_NAME_MAX];
	__u32 index;
	__u32 port_count;
	__u32 node_type;
	__u32 reserved[5];
};

/**
 * struct rdmachan_dev_list - argument of RDMACHAN_IOC_DEV_LIST
 * @size: in: sizeof(struct rdmachan_dev_list)
 * @capacity: in: number of elements @entries has room for (may be 0)
 * @entries: in: user pointer to struct rdmachan_dev_entry[@capacity]
 * @count: out: number of devices known; when larger than @capacity
 *	only the first @capacity were written and the caller may retry
 *	with a larger array
 * @reserved: must be zero
 */
struct rdmachan_dev_list {
	__u32 size;
	__u32 capacity;
	__u64 entries;
	__u32 count;
	__u32 reserved[5];
};

enum rdmachan_node_type {
	RDMACHAN_NODE_UNKNOWN	= 0,
	RDMACHAN_NODE_CA	= 1,	/* InfiniBand channel adapter (also RoCE) */
	RDMACHAN_NODE_SWITCH	= 2,
	RDMACHAN_NODE_ROUTER	= 3,
	RDMACHAN_NODE_RNIC	= 4,	/* iWARP */
	RDMACHAN_NODE_USNIC	= 5,
	RDMACHAN_NODE_USNIC_UDP	= 6,
	RDMACHAN_NODE_UNSPECIFIED = 7,
};

/* Wire protocol spoken on a port: rdmachan_port_attr.protocol */
enum rdmachan_port_protocol {
	RDMACHAN_PROTO_UNKNOWN	= 0,
	RDMACHAN_PROTO_IB	= 1,
	RDMACHAN_PROTO_ROCE	= 2,	/* RoCE v1 and/or v2 */
	RDMACHAN_PROTO_IWARP	= 3,
	RDMACHAN_PROTO_USNIC	= 4,
};

enum rdmachan_link_layer {
	RDMACHAN_LINK_UNSPECIFIED = 0,
	RDMACHAN_LINK_INFINIBAND = 1,
	RDMACHAN_LINK_ETHERNET	= 2,
};

/* Port states, numbered as in the InfiniBand specification and verbs. */
enum rdmachan_port_state {
	RDMACHAN_PORT_NOP	= 0,
	RDMACHAN_PORT_DOWN	= 1,
	RDMACHAN_PORT_INIT	= 2,
	RDMACHAN_PORT_ARMED	= 3,
	RDMACHAN_PORT_ACTIVE	= 4,
	RDMACHAN_PORT_ACTIVE_DEFER = 5,
};

/* Atomic operation support: rdmachan_dev_query.atomic_cap */
enum rdmachan_atomic_cap {
	RDMACHAN_ATOMIC_NONE	= 0,
	RDMACHAN_ATOMIC_HCA	= 1,	/* atomic within this device */
	RDMACHAN_ATOMIC_GLOB	= 2,	/* atomic with respect to CPUs too */
};

/**
 * struct rdmachan_port_attr - one element of rdmachan_dev_query.ports
 * @port_num: port number, from 1
 * @state: enum rdmachan_port_state
 * @phys_state: physical port state, numbered as in the IB specification
 * @protocol: enum rdmachan_port_protocol
 * @link_layer: enum rdmachan_link_layer
 * @max_mtu: largest path MTU the port supports, in bytes
 * @active_mtu: active path MTU, in bytes
 * @gid_tbl_len: number of entries in the GID table
 * @port_cap_flags: IB port capability mask
 * @lid: local identifier (InfiniBand only, else 0)
 * @sm_lid: subnet manager LID (InfiniBand only, else 0)
 * @active_speed: IB speed encoding (1 SDR 2.5, 2 DDR 5, 4 QDR 10,
 *	8 FDR10 10, 16 FDR 14, 32 EDR 25, 64 HDR 50, 128 NDR 100 Gb/s/lane)
 * @active_width: IB width encoding (1 1X, 2 4X, 4 8X, 8 12X, 16 2X)
 * @gid_valid: 1 when @gid holds GID index 0, 0 when it could not be read
 * @gid: GID at index 0, network byte order
 * @reserved: zero
 */
struct rdmachan_port_attr {
	__u32 port_num;
	__u32 state;
	__u32 phys_state;
	__u32 protocol;
	__u32 link_layer;
	__u32 max_mtu;
	__u32 active_mtu;
	__u32 gid_tbl_len;
	__u32 port_cap_flags;
	__u32 lid;
	__u32 sm_lid;
	__u16 active_speed;
	__u8  active_width;
	__u8  gid_valid;
	__u8  gid[16];
	__u32 reserved[4];
};

/**
 * struct rdmachan_dev_query - argument of RDMACHAN_IOC_DEV_QUERY
 * @size: in: sizeof(struct rdmachan_dev_query)
 * @port_capacity: in: elements @ports has room for (may be 0)
 * @name: in: RDMA device name, NUL-terminated
 * @ports: in: user pointer to struct rdmachan_port_attr[@port_capacity]
 * @port_count: out: physical ports of the device; the first
 *	min(@port_capacity, @port_count) were written to @ports
 * @index: out: RDMA core device index
 * @node_type: out: enum rdmachan_node_type
 * @node_guid: out: node GUID, host byte order
 * @sys_image_guid: out: system image GUID, host byte order
 * @fw_ver: out: firmware version string, NUL-terminated; when the driver
 *	has none, the numeric version as "major.minor.sub" (as libibverbs)
 * @vendor_id: out: IEEE OUI of the vendor
 * @vendor_part_id: out: vendor's part number
 * @hw_ver: out: hardware version
 * @atomic_cap: out: enum rdmachan_atomic_cap
 * @max_mr_size: out: largest memory region, in bytes
 * @page_size_cap: out: supported page sizes, a bit per size
 * @device_cap_flags: out: IB device capability flags
 * @max_qp: out: maximum number of queue pairs
 * @max_qp_wr: out: maximum work requests per queue
 * @max_send_sge: out: maximum scatter/gather entries per send WR
 * @max_recv_sge: out: maximum scatter/gather entries per receive WR
 * @max_sge_rd: out: maximum scatter/gather entries per RDMA READ
 * @max_cq: out: maximum number of completion queues
 * @max_cqe: out: maximum entries per completion queue
 * @max_mr: out: maximum number of memory regions
 * @max_pd: out: maximum number of protection domains
 * @max_qp_rd_atom: out: RDMA READ/atomic ops a QP may have in flight
 *	as responder
 * @max_qp_init_rd_atom: out: the same as initiator
 * @max_srq: out: maximum number of shared receive queues
 * @max_fast_reg_page_list_len: out: pages one FRWR may map
 * @max_inline_data: out: largest inline send a RC QP accepted when
 *	rdmachan probed the device at registration (0 if none)
 * @max_pkeys: out: P_Key table size
 * @local_ca_ack_delay: out: local CA ACK delay
 * @reserved0: must be zero on input; zero on output
 * @reserved: must be zero on input; zero on output
 */
struct rdmachan_dev_query {
	__u32 size;
	__u32 port_capacity;
	char  name[RDMACHAN_NAME_MAX];
	__u64 ports;
	__u32 port_count;
	__u32 index;
	__u32 node_type;
	__u32 vendor_id;
	__u64 node_guid;
	__u64 sys_image_guid;
	char  fw_ver[RDMACHAN_FW_VER_MAX];
	__u32 vendor_part_id;
	__u32 hw_ver;
	__u32 atomic_cap;
	__u32 max_qp;
	__u64 max_mr_size;
	__u64 page_size_cap;
	__u64 device_cap_flags;
	__u32 max_qp_wr;
	__u32 max_send_sge;
	__u32 max_recv_sge;
	__u32 max_sge_rd;
	__u32 max_cq;
	__u32 max_cqe;
	__u32 max_mr;
	__u32 max_pd;
	__u32 max_qp_rd_atom;
	__u32 max_qp_init_rd_atom;
	__u32 max_srq;
	__u32 max_fast_reg_page_list_len;
	__u32 max_inline_data;
	__u16 max_pkeys;
	__u8  local_ca_ack_delay;
	__u8  reserved0;
	__u32 reserved[8];
};

/* ---- Message channels ------------------------------------------------ */

/* Completion processing of a channel: rdmachan_chan_opts.poll_mode */
enum rdmachan_chan_poll {
	RDMACHAN_POLL_MODE_SOFTIRQ	= 0,
	RDMACHAN_POLL_MODE_WORKQUEUE	= 1,
	/* busy-poll in read/write; poll/select/epoll sleep, woken by the CQ */
	RDMACHAN_POLL_MODE_DIRECT	= 2,
	/*
	 * Waiters (poll, epoll, blocking read) wake for solicited messages
	 * only; a read also takes what has arrived before it.  Not on siw.
	 */
	RDMACHAN_POLL_MODE_SOLICITED	= 3,
};

/*
 * rdmachan_chan_info.wire_flags: how messages travel on this channel.
 * HDR_IMM: the 8-byte message header rides in the immediate data of a
 * SEND_WITH_IMM, so a message takes only its payload (plus 4 bytes when
 * it has an immediate of its own).  Without it (iWARP, or the imm_header
 * module parameter 0 on the connecting side) every message starts with
 * the header.  FRAG: this end's message buffers are 4 KiB of payload, and
 * a larger message from the peer spans several (each taking a credit); a
 * reader sees it whole all the same.  FRAG_TX: the peer's are, and this
 * end sends it larger messages as several.  Documentation/protocol.rst
 * has the details.
 */
#define RDMACHAN_WIRE_HDR_IMM	0x1U
#define RDMACHAN_WIRE_FRAG	0x2U
#define RDMACHAN_WIRE_FRAG_TX	0x4U

/* Channel states: rdmachan_chan_info.state */
enum rdmachan_chan_state {
	RDMACHAN_STATE_CONNECTING	= 0,
	RDMACHAN_STATE_CONNECTED	= 1,
	RDMACHAN_STATE_DISCONNECTED	= 2,
	RDMACHAN_STATE_FAILED		= 3,
};

/**
 * struct rdmachan_chan_opts - what a new channel asks for; 0 = default
 * @queue_depth: credits (receive buffers) per direction (module
 *	parameter queue_depth); negotiated down to the peer's and device's,
 *	and to what fits the chan_mem_kb parameter (its message buffers)
 * @max_msg_size: largest message (parameter max_msg_size); negotiated
 * @timeout_ms: connect bound (parameter connect_timeout_ms)
 * @poll_mode: enum rdmachan_chan_poll
 * @backlog: listeners: established connections not yet accepted
 *	(default 128)
 * @reserved: zero
 */
struct rdmachan_chan_opts {
	__u32 queue_depth;
	__u32 max_msg_size;
	__u32 timeout_ms;
	__u32 poll_mode;
	__u32 backlog;
	__u32 reserved;
};

/* Flags of CONNECT, LISTEN and ACCEPT: of the new file descriptor */
#define RDMACHAN_FD_NONBLOCK	0x1U
#define RDMACHAN_FD_CLOEXEC	0x2U

/**
 * struct rdmachan_connect - argument of RDMACHAN_IOC_CONNECT
 * @size: sizeof(struct rdmachan_connect)
 * @flags: RDMACHAN_FD_*
 * @opts: channel options
 * @dst: the peer (struct sockaddr_in or sockaddr_in6, with port)
 * @src: local address to connect from; family AF_UNSPEC (0) for any
 * @fd: out: the channel's file descriptor (also the return value)
 * @reserved: zero
 */
struct rdmachan_connect {
	__u32 size;
	__u32 flags;
	struct rdmachan_chan_opts opts;
	struct __kernel_sockaddr_storage dst;
	struct __kernel_sockaddr_storage src;
	__s32 fd;
	__u32 reserved[7];
};

/**
 * struct rdmachan_listen - argument of RDMACHAN_IOC_LISTEN
 * @size: sizeof(struct rdmachan_listen)
 * @flags: RDMACHAN_FD_*
 * @opts: options of the accepted channels, and the backlog
 * @addr: in: address and port to listen on (port 0: any free port);
 *	out: the bound address and port
 * @fd: out: the listener's file descriptor (also the return value)
 * @reserved: zero
 */
struct rdmachan_listen {
	__u32 size;
	__u32 flags;
	struct rdmachan_chan_opts opts;
	struct __kernel_sockaddr_storage addr;
	__s32 fd;
	__u32 reserved[7];
};

/**
 * struct rdmachan_accept - argument of RDMACHAN_IOC_ACCEPT (listener fd)
 * @size: sizeof(struct rdmachan_accept)
 * @flags: RDMACHAN_FD_*; RDMACHAN_FD_NONBLOCK also makes the accept
 *	itself fail with EAGAIN instead of waiting
 * @fd: out: the channel's file descriptor (also the return value)
 * @reserved0: zero
 * @peer: out: the peer's address
 * @reserved: zero
 */
struct rdmachan_accept {
	__u32 size;
	__u32 flags;
	__s32 fd;
	__u32 reserved0;
	struct __kernel_sockaddr_storage peer;
	__u32 reserved[8];
};

/* Flags of a message: rdmachan_user_msg.flags */
#define RDMACHAN_MSG_IMM	0x1U	/* has an immediate value */
/* received: not a message but the peer's RDMA WRITE_WITH_IMM (@len 0) */
#define RDMACHAN_MSG_RDMA_IMM	0x4U
/* send: wake the peer's solicited waiters (IB_SEND_SOLICITED) */
#define RDMACHAN_MSG_SOLICITED	0x8U
/* Flags of SEND, RECV, SENDMMSG, RECVMMSG */
#define RDMACHAN_MSG_DONTWAIT	0x2U	/* EAGAIN instead of waiting */

/**
 * struct rdmachan_user_msg - one message of SEND, RECV, SENDMMSG, RECVMMSG
 * @buf: user pointer to the payload (send) or to room for it (receive)
 * @len: send: payload bytes; receive: in: room at @buf, out: the
 *	message's length
 * @imm: the immediate value (send: with RDMACHAN_MSG_IMM; receive: set
 *	when @flags has RDMACHAN_MSG_IMM)
 * @flags: send: RDMACHAN_MSG_IMM, RDMACHAN_MSG_SOLICITED; receive: out:
 *	RDMACHAN_MSG_IMM, RDMACHAN_MSG_RDMA_IMM
 * @reserved: zero
 */
struct rdmachan_user_msg {
	__u64 buf;
	__u32 len;
	__u32 imm;
	__u32 flags;
	__u32 reserved;
};

/**
 * struct rdmachan_mmsg - argument of SEND, RECV, SENDMMSG and RECVMMSG
 * @size: sizeof(struct rdmachan_mmsg)
 * @flags: RDMACHAN_MSG_DONTWAIT
 * @msgs: user pointer to struct rdmachan_user_msg[@count]
 * @count: messages to send, or most messages to receive
 * @done: out: messages sent or received
 * @reserved: zero
 *
 * SEND and RECV take exactly one message.  SENDMMSG posts as many of the
 * messages as credits allow as one chained post, waiting (unless
 * DONTWAIT) for the first credit only.  RECVMMSG waits (unless DONTWAIT)
 * for one message and returns as many as are queued.  A receive whose
 * room is too small fails with EMSGSIZE, the message stays queued and
 * its length is reported in @len.
 */
struct rdmachan_mmsg {
	__u32 size;
	__u32 flags;
	__u64 msgs;
	__u32 count;
	__u32 done;
	__u32 reserved[4];
};

/**
 * struct rdmachan_chan_info - argument of RDMACHAN_IOC_CHAN_INFO
 * @size: sizeof(struct rdmachan_chan_info)
 * @id: the channel's number (its sysfs name)
 * @state: enum rdmachan_chan_state
 * @error: negative errno when FAILED, else 0
 * @active: 1 if this side connected, 0 if it accepted
 * @poll_mode: enum rdmachan_chan_poll
 * @queue_depth: negotiated credits per direction
 * @max_msg_size: negotiated largest message
 * @send_credits: messages that could be sent now
 * @credits_to_return: credits owed to the peer, not yet returned
 * @rx_queued: received messages waiting to be read
 * @max_inline: the QP's inline limit
 * @port_num: RDMA port
 * @wire_flags: RDMACHAN_WIRE_* flags in force on the channel
 * @max_send_sge: segments one one-sided operation may gather
 * @max_sge_rd: segments a READ may scatter into (1 on iWARP)
 * @max_reg_pages: pages one registration may span (the device's
 *	fast-registration limit)
 * @dev_name: RDMA device name ("" after teardown)
 * @src: local address
 * @dst: peer address
 * @msgs_tx: messages sent
 * @bytes_tx: payload bytes sent
 * @msgs_rx: messages received
 * @bytes_rx: payload bytes received
 * @credit_stalls: sends that had to wait for a credit
 * @credit_msgs_tx: explicit credit updates sent
 * @keepalives_tx: keepalive probes sent
 * @errors: work completions with an error
 * @reserved: zero
 * @solicited_events: solicited events of a RDMACHAN_POLL_SOLICITED
 *	channel.  Appended: a caller of the first version of this ABI passes
 *	@size RDMACHAN_CHAN_INFO_SIZE_V1 and gets the struct up to @reserved,
 *	as before; its module always took that size, while a module that
 *	knows @solicited_events takes both.
 */
struct rdmachan_chan_info {
	__u32 size;
	__u32 id;
	__u32 state;
	__s32 error;
	__u32 active;
	__u32 poll_mode;
	__u32 queue_depth;
	__u32 max_msg_size;
	__u32 send_credits;
	__u32 credits_to_return;
	__u32 rx_queued;
	__u32 max_inline;
	__u32 port_num;
	__u32 wire_flags;
	char  dev_name[RDMACHAN_NAME_MAX];
	struct __kernel_sockaddr_storage src;
	struct __kernel_sockaddr_storage dst;
	__u64 msgs_tx;
	__u64 bytes_tx;
	__u64 msgs_rx;
	__u64 bytes_rx;
	__u64 credit_stalls;
	__u64 credit_msgs_tx;
	__u64 keepalives_tx;
	__u64 errors;
	__u32 max_send_sge;
	__u32 max_sge_rd;
	__u32 max_reg_pages;
	__u32 reserved[5];
	__u64 solicited_events;
};

/* sizeof(struct rdmachan_chan_info) before @solicited_events was appended */
#define RDMACHAN_CHAN_INFO_SIZE_V1	472

/* rdmachan_bench.mode */
enum rdmachan_bench_mode {
	RDMACHAN_BENCH_BLAST	= 0,	/* send as fast as credits allow */
	RDMACHAN_BENCH_PINGPONG	= 1,	/* send one, wait for its echo */
	RDMACHAN_BENCH_SINK	= 2,	/* receive and drop */
	RDMACHAN_BENCH_ECHO	= 3,	/* receive and send each back */
	RDMACHAN_BENCH_RDMA_TARGET = 4,	/* register a region, send its descriptor */
	RDMACHAN_BENCH_WRITE	= 5,	/* RDMA WRITE into the target's region */
	RDMACHAN_BENCH_READ	= 6,	/* RDMA READ from the target's region */
};

/* RDMA_TARGET, WRITE, READ: the most @batch * @msg_size may be */
#define RDMACHAN_BENCH_MAX_REGION	(64U << 20)

/**
 * struct rdmachan_bench - argument of RDMACHAN_IOC_BENCH (channel fd)
 * @size: sizeof(struct rdmachan_bench)
 * @mode: enum rdmachan_bench_mode
 * @msg_size: BLAST, PINGPONG: bytes per message (at most the channel's
 *	max_msg_size); RDMA_TARGET, WRITE, READ: bytes per operation, 1 or
 *	more
 * @batch: BLAST: messages per chained post, 1 to the queue depth (0: 16);
 *	WRITE, READ: operations per chained post (one call), 1 to
 *	RDMACHAN_MAX_RDMA_OPS (0 is EINVAL); RDMA_TARGET: with @msg_size
 *	the size of the region, @batch * @msg_size bytes, which must hold
 *	the initiator's @batch * @msg_size
 * @duration_ms: stop after this long (WRITE, READ: from the descriptor's
 *	arrival), even while no message comes (SINK, ECHO); 0: no time
 *	limit (then @count, or for SINK, ECHO and RDMA_TARGET the peer's
 *	close, or a signal ends the run)
 * @reserved0: zero
 * @count: stop after this many messages (WRITE, READ: operations); 0: no
 *	limit.  RDMA_TARGET ignores @count and @duration_ms.
 * @msgs: out: messages sent (BLAST, PINGPONG: round trips) or received
 *	(SINK, ECHO); WRITE, READ: operations completed; RDMA_TARGET: 0
 * @bytes: out: payload bytes of @msgs
 * @elapsed_ns: out: BLAST, PINGPONG: from start to the last message;
 *	SINK, ECHO: from the first message received to the last; WRITE,
 *	READ: from the descriptor to the last call's end; RDMA_TARGET: from
 *	sending the descriptor to the run's end
 * @lat_min_ns: out: PINGPONG: shortest round trip
 * @lat_avg_ns: out: PINGPONG: mean round trip
 * @lat_p50_ns: out: PINGPONG: median round trip
 * @lat_p99_ns: out: PINGPONG: 99th percentile round trip
 * @lat_max_ns: out: PINGPONG: longest round trip
 * @reserved: zero
 *
 * The whole run loops in the kernel over the in-kernel channel API, with
 * no user/kernel crossing per message (like krping): the peer runs SINK
 * against BLAST, ECHO against PINGPONG and RDMA_TARGET against WRITE and
 * READ.  The target registers its region (at most RDMACHAN_BENCH_MAX_REGION
 * bytes and the device's max_reg_pages: E2BIG) for remote READ and WRITE
 * and sends its struct rdmachan_remote_mr as the channel's first message;
 * the initiator waits up to 10 s for it (ETIMEDOUT; EPROTO for another
 * message, EMSGSIZE for a region too small), then runs calls of @batch
 * operations of @msg_size bytes over its first @batch * @msg_size bytes,
 * one call at a time, until @count or @duration_ms.  The target's run
 * ends at the initiator's close; a target ended by a signal first sends
 * an empty message, and the initiator's run then fails with EPIPE.  A
 * failed operation fails the run with its errno.  Completions are
 * busy-polled on channels in RDMACHAN_POLL_MODE_DIRECT.  A signal ends a
 * run early; its results are still returned.
 */
struct rdmachan_bench {
	__u32 size;
	__u32 mode;
	__u32 msg_size;
	__u32 batch;
	__u32 duration_ms;
	__u32 reserved0;
	__u64 count;
	__u64 msgs;
	__u64 bytes;
	__u64 elapsed_ns;
	__u64 lat_min_ns;
	__u64 lat_avg_ns;
	__u64 lat_p50_ns;
	__u64 lat_p99_ns;
	__u64 lat_max_ns;
	__u32 reserved[8];
};

/* Access rights of a registration: rdmachan_reg_mr.access */
#define RDMACHAN_ACCESS_LOCAL_WRITE	0x1U	/* READ results, atomics land here */
#define RDMACHAN_ACCESS_REMOTE_WRITE	0x2U	/* the peer may WRITE here */
#define RDMACHAN_ACCESS_REMOTE_READ	0x4U	/* the peer may READ from here */
#define RDMACHAN_ACCESS_REMOTE_ATOMIC	0x8U	/* the peer may use atomics */
#define RDMACHAN_ACCESS_ALL		0xfU

/**
 * struct rdmachan_remote_mr - what the peer needs to reach a registration
 * @addr: address of the registration's first byte in the peer's
 *	operations (remote_addr = @addr + offset); not a pointer of ours
 * @length: bytes registered
 * @rkey: the remote key; valid until the registration is released
 * @reserved: zero
 *
 * An application passes this to its peer, e.g. in a message.
 */
struct rdmachan_remote_mr {
	__u64 addr;
	__u64 length;
	__u32 rkey;
	__u32 reserved;
};

/**
 * struct rdmachan_reg_mr - argument of RDMACHAN_IOC_REG_MR (channel fd)
 * @size: sizeof(struct rdmachan_reg_mr)
 * @access: RDMACHAN_ACCESS_*; remote write and remote atomic need local
 *	write too (EINVAL otherwise)
 * @addr: user pointer to the buffer; any alignment
 * @length: bytes, 1 to the module parameter max_mr_size (E2BIG past it,
 *	and past the device's fast-registration limit)
 * @handle: out: names the registration in RDMA ops and DEREG_MR
 * @reserved0: zero
 * @remote: out: what the peer needs to access it
 * @reserved: zero
 *
 * The pages are pinned (charged to RLIMIT_MEMLOCK unless CAP_IPC_LOCK)
 * and registered with exactly the rights asked for, through a fast
 * registration work request on the channel's queue pair.
 */
struct rdmachan_reg_mr {
	__u32 size;
	__u32 access;
	__u64 addr;
	__u64 length;
	__u32 handle;
	__u32 reserved0;
	struct rdmachan_remote_mr remote;
	__u32 reserved[6];
};

/**
 * struct rdmachan_dereg_mr - argument of RDMACHAN_IOC_DEREG_MR
 * @size: sizeof(struct rdmachan_dereg_mr)
 * @handle: the registration
 * @reserved: zero
 *
 * Invalidates the remote key before the pages are unpinned: the peer's
 * later accesses fail.
 */
struct rdmachan_dereg_mr {
	__u32 size;
	__u32 handle;
	__u32 reserved[6];
};

/**
 * struct rdmachan_sge - a local segment of an RDMA operation
 * @handle: the registration it lies in
 * @length: bytes
 * @offset: from the registration's first byte
 */
struct rdmachan_sge {
	__u32 handle;
	__u32 length;
	__u64 offset;
};

/* rdmachan_rdma_op.opcode */
enum rdmachan_rdma_opcode {
	RDMACHAN_OP_WRITE	= 0,	/* local segments -> remote */
	RDMACHAN_OP_WRITE_IMM	= 1,	/* the same, plus an immediate */
	RDMACHAN_OP_READ	= 2,	/* remote -> local segments */
	RDMACHAN_OP_FETCH_ADD	= 3,	/* 8 bytes, old value to local */
	RDMACHAN_OP_CMP_SWAP	= 4,	/* 8 bytes, old value to local */
};

/* rdmachan_rdma_op.flags: the send flags of the verbs model */
#define RDMACHAN_OPF_SIGNALED	0x1U	/* a completion of its own */
#define RDMACHAN_OPF_SOLICITED	0x2U	/* WRITE_IMM: wake a solicited reader */
#define RDMACHAN_OPF_INLINE	0x4U	/* WRITE(_IMM): copy data into the WR */
#define RDMACHAN_OPF_FENCE	0x8U	/* wait for earlier READs and atomics */

/* Most local segments of one operation, and operations of one call */
#define RDMACHAN_MAX_SGE	16
#define RDMACHAN_MAX_RDMA_OPS	64

/**
 * struct rdmachan_rdma_op - one operation of RDMACHAN_IOC_RDMA
 * @opcode: enum rdmachan_rdma_opcode
 * @flags: RDMACHAN_OPF_*
 * @sgl: user pointer to struct rdmachan_sge[@nr_sge]: WRITE gathers from
 *	them, READ scatters into them (they need local write), an atomic
 *	takes one 8-byte segment for the old value (local write)
 * @nr_sge: 1 to RDMACHAN_MAX_SGE (and the device's limit); WRITE may
 *	have 0 for a zero-length write
 * @imm: WRITE_IMM: the immediate the peer receives
 * @remote_addr: the peer's address (struct rdmachan_remote_mr.addr plus
 *	an offset); 8-byte aligned for atomics
 * @rkey: the peer's remote key
 * @reserved0: zero
 * @compare_add: FETCH_ADD: the addend; CMP_SWAP: the value compared
 * @swap: CMP_SWAP: the value stored when equal
 * @result: out: atomics: the old value at @remote_addr
 * @status: out: 0, or the negative errno of the failed operation
 *	(-ECANCELED: flushed after an earlier failure, or not run because
 *	the call was refused before anything was posted)
 * @wc_status: out: the verbs completion status (enum ib_wc_status)
 * @user_data: RDMACHAN_RDMA_ASYNC: returned in the operation's
 *	struct rdmachan_rdma_cqe; otherwise ignored
 * @reserved: zero
 */
struct rdmachan_rdma_op {
	__u32 opcode;
	__u32 flags;
	__u64 sgl;
	__u32 nr_sge;
	__u32 imm;
	__u64 remote_addr;
	__u32 rkey;
	__u32 reserved0;
	__u64 compare_add;
	__u64 swap;
	__u64 result;
	__s32 status;
	__u32 wc_status;
	__u64 user_data;
	__u32 reserved[2];
};

/* rdmachan_rdma.flags: post and return; reap the outcome later */
#define RDMACHAN_RDMA_ASYNC	0x1U

/* Most asynchronous operations a channel holds, running or not reaped */
#define RDMACHAN_MAX_ASYNC_OPS	1024

/**
 * struct rdmachan_rdma - argument of RDMACHAN_IOC_RDMA (channel fd)
 * @size: sizeof(struct rdmachan_rdma)
 * @flags: RDMACHAN_RDMA_ASYNC or zero
 * @ops: user pointer to struct rdmachan_rdma_op[@count]
 * @count: 1 to RDMACHAN_MAX_RDMA_OPS
 * @done: out: operations that completed successfully, in order;
 *	RDMACHAN_RDMA_ASYNC: operations posted (@count)
 * @reserved: zero
 *
 * Every operation is checked first (handles, bounds, alignment, rights,
 * device support); then all are posted as one chain, and the call waits
 * for their completion.  Returns 0 when all succeeded, else the errno of
 * the first that failed, with each one's @status filled in.  A call
 * refused at its checks ran nothing: @done is 0, the refused operation's
 * @status is its errno and every other's -ECANCELED.  A remote access
 * error breaks the connection (RC semantics): the channel fails.
 *
 * With RDMACHAN_RDMA_ASYNC the call returns once the chain is posted;
 * each operation's outcome is then reaped as a struct rdmachan_rdma_cqe
 * (RDMACHAN_IOC_RDMA_REAP; poll() reports EPOLLPRI while one waits).
 * A refused call (nothing posted) fails as without the flag, each
 * operation's @status saying why.  ENOBUFS: the channel already holds
 * RDMACHAN_MAX_ASYNC_OPS asynchronous operations, running or not reaped.
 */
struct rdmachan_rdma {
	__u32 size;
	__u32 flags;
	__u64 ops;
	__u32 count;
	__u32 done;
	__u32 reserved[4];
};

/**
 * struct rdmachan_rdma_cqe - the outcome of one asynchronous operation
 * @user_data: the operation's @user_data
 * @result: atomics: the old value
 * @status: 0, or the negative errno (as struct rdmachan_rdma_op.status)
 * @wc_status: the verbs completion status (enum ib_wc_status)
 * @opcode: the operation's opcode
 * @reserved: zero
 */
struct rdmachan_rdma_cqe {
	__u64 user_data;
	__u64 result;
	__s32 status;
	__u32 wc_status;
	__u32 opcode;
	__u32 reserved;
};

/* rdmachan_rdma_reap.flags: EAGAIN instead of waiting */
#define RDMACHAN_REAP_DONTWAIT	0x1U

/**
 * struct rdmachan_rdma_reap - argument of RDMACHAN_IOC_RDMA_REAP
 * @size: sizeof(struct rdmachan_rdma_reap)
 * @flags: RDMACHAN_REAP_DONTWAIT or zero
 * @cqes: user pointer to room for struct rdmachan_rdma_cqe[@count]
 * @count: 1 to RDMACHAN_MAX_ASYNC_OPS
 * @done: out: outcomes returned, in the order of the operations
 * @pending: out: asynchronous operations still running or not reaped
 * @reserved: zero
 *
 * Waits (interruptibly; not with DONTWAIT: EAGAIN) until an outcome is
 * there, then returns as many as fit.  With nothing running and nothing
 * to reap it returns at once, @done 0.
 */
struct rdmachan_rdma_reap {
	__u32 size;
	__u32 flags;
	__u64 cqes;
	__u32 count;
	__u32 done;
	__u32 pending;
	__u32 reserved[3];
};

#define RDMACHAN_IOC_MAGIC	0xDC

#define RDMACHAN_IOC_VERSION	_IOWR(RDMACHAN_IOC_MAGIC, 0x00, struct rdmachan_version)
#define RDMACHAN_IOC_DEV_LIST	_IOWR(RDMACHAN_IOC_MAGIC, 0x01, struct rdmachan_dev_list)
#define RDMACHAN_IOC_DEV_QUERY	_IOWR(RDMACHAN_IOC_MAGIC, 0x02, struct rdmachan_dev_query)
#define RDMACHAN_IOC_CONNECT	_IOWR(RDMACHAN_IOC_MAGIC, 0x10, struct rdmachan_connect)
#define RDMACHAN_IOC_LISTEN	_IOWR(RDMACHAN_IOC_MAGIC, 0x11, struct rdmachan_listen)

/* On a listener fd */
#define RDMACHAN_IOC_ACCEPT	_IOWR(RDMACHAN_IOC_MAGIC, 0x20, struct rdmachan_accept)

/* On a channel fd */
#define RDMACHAN_IOC_SEND	_IOWR(RDMACHAN_IOC_MAGIC, 0x30, struct rdmachan_mmsg)
#define RDMACHAN_IOC_RECV	_IOWR(RDMACHAN_IOC_MAGIC, 0x31, struct rdmachan_mmsg)
#define RDMACHAN_IOC_SENDMMSG	_IOWR(RDMACHAN_IOC_MAGIC, 0x32, struct rdmachan_mmsg)
#define RDMACHAN_IOC_RECVMMSG	_IOWR(RDMACHAN_IOC_MAGIC, 0x33, struct rdmachan_mmsg)
#define RDMACHAN_IOC_CHAN_INFO	_IOWR(RDMACHAN_IOC_MAGIC, 0x34, struct rdmachan_chan_info)
#define RDMACHAN_IOC_BENCH	_IOWR(RDMACHAN_IOC_MAGIC, 0x35, struct rdmachan_bench)
#define RDMACHAN_IOC_REG_MR	_IOWR(RDMACHAN_IOC_MAGIC, 0x40, struct rdmachan_reg_mr)
#define RDMACHAN_IOC_DEREG_MR	_IOWR(RDMACHAN_IOC_MAGIC, 0x41, struct rdmachan_dereg_mr)
#define RDMACHAN_IOC_RDMA	_IOWR(RDMACHAN_IOC_MAGIC, 0x42, struct rdmachan_rdma)
#define RDMACHAN_IOC_RDMA_REAP	_IOWR(RDMACHAN_IOC_MAGIC, 0x43, struct rdmachan_rdma_reap)

#endif /* _UAPI_LINUX_RDMACHAN_H */
