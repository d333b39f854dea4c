// SPDX-License-Identifier: GPL-2.0-only
/*
 * rdmachan: device ioctls of /dev/rdmachan - VERSION, DEV_LIST, DEV_QUERY
 *
 * Arguments are copied in whole, checked (size, reserved fields, strings:
 * ioctl_check.c), answered from kernel-side copies built in zeroed
 * memory, and copied out only after every lock and device reference is
 * dropped: a faulting or stalled user buffer can never hold up device
 * removal.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/sched.h>
#include <linux/slab.h>
#include <linux/string.h>
#include <linux/uaccess.h>
#include <rdma/ib_cache.h>
#include <rdma/ib_verbs.h>
#include <rdma/rdma_netlink.h>

#include <linux/rdmachan.h>

#include "device.h"
#include "ioctl.h"

#define RDMACHAN_FEATURES	(RDMACHAN_FEAT_DEV_LIST | RDMACHAN_FEAT_DEV_QUERY | \
				 RDMACHAN_FEAT_CHANNEL | RDMACHAN_FEAT_BENCH | \
				 RDMACHAN_FEAT_RDMA)

/*
 * Devices may come and go between sizing the snapshot and taking it; retry
 * a few times when more devices than allocated for appeared.
 */
#define RDMACHAN_DEV_LIST_TRIES	8

long rdmachan_ioc_version(void __user *uarg)
{
	struct rdmachan_version v;
	int ret;

	if (copy_from_user(&v, uarg, sizeof(v)))
		return -EFAULT;
	ret = rdmachan_check_version(&v);
	if (ret)
		return ret;

	memset(&v, 0, sizeof(v));
	v.size = sizeof(v);
	v.abi_version = RDMACHAN_ABI_VERSION;
	v.features = RDMACHAN_FEATURES;
	v.device_count = rdmachan_device_count();

	if (copy_to_user(uarg, &v, sizeof(v)))
		return -EFAULT;
	return 0;
}

static u32 rdmachan_node_type(u8 t)
{
	switch (t) {
	case RDMA_NODE_IB_CA:
		return RDMACHAN_NODE_CA;
	case RDMA_NODE_IB_SWITCH:
		return RDMACHAN_NODE_SWITCH;
	case RDMA_NODE_IB_ROUTER:
		return RDMACHAN_NODE_ROUTER;
	case RDMA_NODE_RNIC:
		return RDMACHAN_NODE_RNIC;
	case RDMA_NODE_USNIC:
		return RDMACHAN_NODE_USNIC;
	case RDMA_NODE_USNIC_UDP:
		return RDMACHAN_NODE_USNIC_UDP;
	case RDMA_NODE_UNSPECIFIED:
		return RDMACHAN_NODE_UNSPECIFIED;
	}
	return RDMACHAN_NODE_UNKNOWN;
}

struct rdmachan_list_snapshot {
	struct rdmachan_dev_entry *entries;
	u32 capacity;
	u32 count;
};

static int rdmachan_list_visit(struct rdmachan_device *dev, void *arg)
{
	struct rdmachan_list_snapshot *snap = arg;

	if (snap->count < snap->capacity) {
		struct rdmachan_dev_entry *e = &snap->entries[snap->count];

		strscpy(e->name, dev->name, sizeof(e->name));
		e->index = dev->ibdev->index;
		e->port_count = rdma_end_port(dev->ibdev);
		e->node_type = rdmachan_node_type(dev->ibdev->node_type);
	}
	snap->count++;
	return 0;
}

long rdmachan_ioc_dev_list(void __user *uarg)
{
	struct rdmachan_list_snapshot snap = {};
	struct rdmachan_dev_list l;
	unsigned int tries;
	long ret = 0;

	if (copy_from_user(&l, uarg, sizeof(l)))
		return -EFAULT;
	ret = rdmachan_check_dev_list(&l);
	if (ret)
		return ret;

	for (tries = 0; tries < RDMACHAN_DEV_LIST_TRIES; tries++) {
		snap.capacity = min(l.capacity, rdmachan_device_count());
		snap.count = 0;
		kfree(snap.entries);
		snap.entries = NULL;
		if (snap.capacity) {
			snap.entries = kcalloc(snap.capacity,
					       sizeof(*snap.entries),
					       GFP_KERNEL);
			if (!snap.entries)
				return -ENOMEM;
		}
		rdmachan_device_for_each(rdmachan_list_visit, &snap);
		if (snap.count <= snap.capacity || snap.capacity == l.capacity)
			break;
	}
	if (tries == RDMACHAN_DEV_LIST_TRIES) {
		ret = -EAGAIN;
		goto out;
	}

	if (copy_to_user(u64_to_user_ptr(l.entries), snap.entries,
			 array_size(min(snap.count, snap.capacity),
				    sizeof(*snap.entries)))) {
		ret = -EFAULT;
		goto out;
	}
	l.count = snap.count;
	if (copy_to_user(uarg, &l, sizeof(l)))
		ret = -EFAULT;
out:
	kfree(snap.entries);
	return ret;
}

static u32 rdmachan_port_protocol(struct ib_device *ibdev, u32 port)
{
	if (rdma_protocol_ib(ibdev, port))
		return RDMACHAN_PROTO_IB;
	if (rdma_protocol_roce(ibdev, port))
		return RDMACHAN_PROTO_ROCE;
	if (rdma_protocol_iwarp(ibdev, port))
		return RDMACHAN_PROTO_IWARP;
	if (rdma_protocol_usnic(ibdev, port))
		return RDMACHAN_PROTO_USNIC;
	return RDMACHAN_PROTO_UNKNOWN;
}

static u32 rdmachan_link_layer(struct ib_device *ibdev, u32 port)
{
	switch (rdma_port_get_link_layer(ibdev, port)) {
	case IB_LINK_LAYER_INFINIBAND:
		return RDMACHAN_LINK_INFINIBAND;
	case IB_LINK_LAYER_ETHERNET:
		return RDMACHAN_LINK_ETHERNET;
	default:
		return RDMACHAN_LINK_UNSPECIFIED;
	}
}

static u32 rdmachan_mtu_bytes(enum ib_mtu mtu)
{
	int bytes = ib_mtu_enum_to_int(mtu);

	return bytes > 0 ? bytes : 0;
}

static int rdmachan_query_port(struct ib_device *ibdev, u32 port,
			       struct rdmachan_port_attr *out)
{
	struct ib_port_attr pa;
	union ib_gid gid;
	int ret;

	ret = ib_query_port(ibdev, port, &pa);
	if (ret)
		return ret;

	out->port_num = port;
	out->state = pa.state;
	out->phys_state = pa.phys_state;
	out->protocol = rdmachan_port_protocol(ibdev, port);
	out->link_layer = rdmachan_link_layer(ibdev, port);
	out->max_mtu = rdmachan_mtu_bytes(pa.max_mtu);
	out->active_mtu = rdmachan_mtu_bytes(pa.active_mtu);
	out->gid_tbl_len = pa.gid_tbl_len;
	out->port_cap_flags = pa.port_cap_flags;
	out->lid = pa.lid;
	out->sm_lid = pa.sm_lid;
	out->active_speed = pa.active_speed;
	out->active_width = pa.active_width;
	if (pa.gid_tbl_len && !rdma_query_gid(ibdev, port, 0, &gid)) {
		memcpy(out->gid, gid.raw, sizeof(out->gid));
		out->gid_valid = 1;
	}
	return 0;
}

static void rdmachan_fill_dev_attrs(struct rdmachan_device *dev,
				    struct rdmachan_dev_query *q)
{
	struct ib_device *ibdev = dev->ibdev;
	const struct ib_device_attr *a = &ibdev->attrs;

	q->port_count = rdma_end_port(ibdev);
	q->index = ibdev->index;
	q->node_type = rdmachan_node_type(ibdev->node_type);
	q->node_guid = be64_to_cpu(ibdev->node_guid);
	q->sys_image_guid = be64_to_cpu(a->sys_image_guid);
	ib_get_device_fw_str(ibdev, q->fw_ver);
	/* As libibverbs: the numeric version when the driver has no string */
	if (!q->fw_ver[0])
		snprintf(q->fw_ver, sizeof(q->fw_ver), "%u.%u.%u",
			 (u32)(a->fw_ver >> 32) & 0xffff,
			 (u32)(a->fw_ver >> 16) & 0xffff, (u32)a->fw_ver & 0xffff);
	q->vendor_id = a->vendor_id;
	q->vendor_part_id = a->vendor_part_id;
	q->hw_ver = a->hw_ver;
	q->atomic_cap = a->atomic_cap == IB_ATOMIC_GLOB ? RDMACHAN_ATOMIC_GLOB :
			a->atomic_cap == IB_ATOMIC_HCA ? RDMACHAN_ATOMIC_HCA :
			RDMACHAN_ATOMIC_NONE;
	q->max_qp = a->max_qp;
	q->max_mr_size = a->max_mr_size;
	q->page_size_cap = a->page_size_cap;
	q->device_cap_flags = a->device_cap_flags;
	q->max_qp_wr = a->max_qp_wr;
	q->max_send_sge = a->max_send_sge;
	q->max_recv_sge = a->max_recv_sge;
	q->max_sge_rd = a->max_sge_rd;
	q->max_cq = a->max_cq;
	q->max_cqe = a->max_cqe;
	q->max_mr = a->max_mr;
	q->max_pd = a->max_pd;
	q->max_qp_rd_atom = a->max_qp_rd_atom;
	q->max_qp_init_rd_atom = a->max_qp_init_rd_atom;
	q->max_srq = a->max_srq;
	q->max_fast_reg_page_list_len = a->max_fast_reg_page_list_len;
	q->max_inline_data = dev->max_inline_data;
	q->max_pkeys = a->max_pkeys;
	q->local_ca_ack_delay = a->local_ca_ack_delay;
}

long rdmachan_ioc_dev_query(void __user *uarg)
{
	struct rdmachan_port_attr *ports = NULL;
	struct rdmachan_dev_query in, *q;
	struct rdmachan_device *dev;
	u32 i, nports;
	long ret;

	if (copy_from_user(&in, uarg, sizeof(in)))
		return -EFAULT;
	ret = rdmachan_check_dev_query(&in);
	if (ret)
		return ret;

	q = kzalloc(sizeof(*q), GFP_KERNEL);
	if (!q)
		return -ENOMEM;

	dev = rdmachan_device_get_by_name(in.name);
	if (!dev) {
		ret = -ENODEV;
		goto out_free;
	}

	rdmachan_fill_dev_attrs(dev, q);
	nports = min(in.port_capacity, q->port_count);
	if (nports) {
		ports = kcalloc(nports, sizeof(*ports), GFP_KERNEL);
		if (!ports) {
			ret = -ENOMEM;
			goto out_put;
		}
	}
	for (i = 0; i < nports; i++) {
		ret = rdmachan_query_port(dev->ibdev, rdma_start_port(dev->ibdev) + i,
					  &ports[i]);
		if (ret)
			goto out_put;
	}
	rdmachan_device_put(dev);
	dev = NULL;

	q->size = in.size;
	q->port_capacity = in.port_capacity;
	strscpy(q->name, in.name, sizeof(q->name));
	q->ports = in.ports;

	ret = 0;
	if (nports && copy_to_user(u64_to_user_ptr(in.ports), ports,
				   array_size(nports, sizeof(*ports))))
		ret = -EFAULT;
	else if (copy_to_user(uarg, q, sizeof(*q)))
		ret = -EFAULT;
out_put:
	if (dev)
		rdmachan_device_put(dev);
out_free:
	kfree(ports);
	kfree(q);
	return ret;
}
