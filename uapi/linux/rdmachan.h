/* SPDX-License-Identifier: ((GPL-2.0 WITH Linux-syscall-note) OR BSD-2-Clause) */
/*
 * rdmachan: RDMA message and block channels - userspace ABI of /dev/rdmachan
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
 * @fw_ver: out: firmware version string, NUL-terminated ("" if none)
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

#define RDMACHAN_IOC_MAGIC	0xDC

#define RDMACHAN_IOC_VERSION	_IOWR(RDMACHAN_IOC_MAGIC, 0x00, struct rdmachan_version)
#define RDMACHAN_IOC_DEV_LIST	_IOWR(RDMACHAN_IOC_MAGIC, 0x01, struct rdmachan_dev_list)
#define RDMACHAN_IOC_DEV_QUERY	_IOWR(RDMACHAN_IOC_MAGIC, 0x02, struct rdmachan_dev_query)

#endif /* _UAPI_LINUX_RDMACHAN_H */
