// SPDX-License-Identifier: GPL-2.0-only
/*
 * rdmachan: multicast groups of datagram endpoints
 *
 * rdma_cm joins a group on an identifier without a QP (it refuses a
 * kernel QP's own), so each group an endpoint joins has an identifier of
 * its own: its address resolved from the endpoint's address (the same
 * device), then rdma_join_multicast(), as mckey joins.  The join's event
 * names the group's GID, LID and qkey; the endpoint's QP is attached to
 * it (ib_attach_mcast(), unless the join is send-only) and the group's
 * address vector becomes the address handle of the group's address, so
 * that a send to (group, 0xffffff) reaches every member.  On RoCEv2,
 * rdma_cm also joins the IPv4 group on the net device (IGMP), which lets
 * the datagrams in.  Leaving, closing and device removal detach the QP
 * and leave (rdma_leave_multicast()) before the QP goes.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": dgram: " fmt

#include <linux/jiffies.h>
#include <linux/slab.h>
#include <rdma/ib_sa.h>
#include <rdma/rdma_cm.h>

#include "dgram.h"

#define RDMACHAN_DGRAM_MAX_GROUPS	64

/**
 * struct rdmachan_dgram_group - a group an endpoint joined
 * @node: in rdmachan_dgram.groups, under its lock; added with its rwsem
 *	held for reading, so that teardown finds every attached group
 * @id: the join's identifier (no QP)
 * @addr: the group's address
 * @step: the join's progress (RDMACHAN_DGRAM_STEP_ADDR, then _DONE once
 *	joined)
 * @attr: the join's address vector (references held while @have_attr)
 * @have_attr: @attr is set
 * @qkey: the group's qkey
 * @attached: the endpoint's QP is attached to the group
 */
struct rdmachan_dgram_group {
	struct list_head	node;
	struct rdma_cm_id	*id;
	struct sockaddr_storage	addr;
	struct rdmachan_dgram_step step;
	struct rdma_ah_attr	attr;
	bool			have_attr;
	u32			qkey;
	bool			attached;
};

static int rdmachan_dgram_group_handler(struct rdma_cm_id *id,
					struct rdma_cm_event *ev)
{
	struct rdmachan_dgram_group *g = id->context;
	int st;

	switch (ev->event) {
	case RDMA_CM_EVENT_ADDR_RESOLVED:
		st = RDMACHAN_DGRAM_STEP_ADDR;
		break;
	case RDMA_CM_EVENT_MULTICAST_JOIN:
		if (READ_ONCE(g->step.state) >= RDMACHAN_DGRAM_STEP_DONE)
			return 0;
		rdma_copy_ah_attr(&g->attr, &ev->param.ud.ah_attr);
		g->have_attr = true;
		g->qkey = ev->param.ud.qkey;
		st = RDMACHAN_DGRAM_STEP_DONE;
		break;
	case RDMA_CM_EVENT_ADDR_ERROR:
	case RDMA_CM_EVENT_MULTICAST_ERROR:
		st = ev->status < 0 ? ev->status : -ENETUNREACH;
		pr_info_ratelimited("group %pISc: %s (%d)\n", &g->addr,
				    rdma_event_msg(ev->event), ev->status);
		break;
	case RDMA_CM_EVENT_DEVICE_REMOVAL:
		st = -ENODEV;
		break;
	default:
		return 0;
	}
	rdmachan_dgram_step_set(&g->step, st);
	return 0;
}

/*
 * The group of @addr among @d's, or NULL; with @del taken off the list.
 * *@n: how many there are.  Context: ah_mutex held.
 */
static struct rdmachan_dgram_group *
rdmachan_dgram_group_find(struct rdmachan_dgram *d,
			  const struct sockaddr_storage *addr, bool del,
			  unsigned int *n)
{
	struct rdmachan_dgram_group *g, *found = NULL;
	unsigned long flags;

	*n = 0;
	spin_lock_irqsave(&d->lock, flags);
	list_for_each_entry(g, &d->groups, node) {
		(*n)++;
		if (!found && rdmachan_dgram_same_ip(&g->addr, addr))
			found = g;
	}
	if (found && del)
		list_del(&found->node);
	spin_unlock_irqrestore(&d->lock, flags);
	return found;
}

/* Detach, leave and free @g.  Context: its endpoint's QP still exists */
static void rdmachan_dgram_group_free(struct rdmachan_dgram *d,
				      struct rdmachan_dgram_group *g)
{
	if (g->attached && d->id && d->id->qp)
		ib_detach_mcast(d->id->qp, &g->attr.grh.dgid,
				rdma_ah_get_dlid(&g->attr));
	if (g->step.state >= RDMACHAN_DGRAM_STEP_DONE)
		rdma_leave_multicast(g->id, (struct sockaddr *)&g->addr);
	rdma_destroy_id(g->id);
	if (g->have_attr)
		rdma_destroy_ah_attr(&g->attr);
	kfree(g);
}

/* Resolve and join @g; attach the QP and keep the group's handle */
static int rdmachan_dgram_group_join(struct rdmachan_dgram *d,
				     struct rdmachan_dgram_group *g,
				     bool send_only, unsigned int timeout_ms)
{
	long left = msecs_to_jiffies(timeout_ms);
	unsigned long flags;
	int ret;

	ret = rdmachan_dgram_resolve_addr(d, g->id, &g->step, &g->addr,
					  timeout_ms, &left);
	if (!ret)
		ret = rdma_join_multicast(g->id, (struct sockaddr *)&g->addr,
					  send_only ?
					  BIT(SENDONLY_FULLMEMBER_JOIN) :
					  BIT(FULLMEMBER_JOIN), g);
	if (!ret)
		ret = rdmachan_dgram_step_wait(&g->step,
					       RDMACHAN_DGRAM_STEP_DONE, &left);
	/* the group's handle: a send to the group's address uses it */
	if (!ret)
		ret = rdmachan_dgram_ah_keep(d, &g->addr, &g->attr);
	if (ret)
		return ret;
	/* attached and listed at once, as teardown finds it or not at all */
	down_read(&d->rwsem);
	ret = READ_ONCE(d->dead);
	if (!ret && !send_only) {
		ret = ib_attach_mcast(d->id->qp, &g->attr.grh.dgid,
				      rdma_ah_get_dlid(&g->attr));
		g->attached = !ret;
	}
	if (!ret) {
		spin_lock_irqsave(&d->lock, flags);
		list_add_tail(&g->node, &d->groups);
		spin_unlock_irqrestore(&d->lock, flags);
	}
	up_read(&d->rwsem);
	return ret;
}

/**
 * rdmachan_dgram_join() - join a multicast group
 * @d: the endpoint
 * @group: the group's address (AF_INET or AF_INET6 multicast)
 * @send_only: join to send only (a send-only full member): datagrams
 *	sent to the group do not come to @d
 * @timeout_ms: the bound of resolving and joining
 * @qkey: the group's qkey
 *
 * Datagrams sent to the group reach every member; send them with
 * rdmachan_dgram_send() to @group, queue pair RDMACHAN_DGRAM_MCAST_QPN.
 *
 * Context: process context; sleeps, interruptible.
 * Return: 0, -EALREADY (joined), -ENOBUFS (64 groups joined), -EINVAL
 * (not a multicast address), -ETIMEDOUT, -ENETUNREACH (reached through
 * another device), -ENOTSUPP (IPv6 groups on RoCEv2), -ERESTARTSYS, or
 * the endpoint's death.
 */
int rdmachan_dgram_join(struct rdmachan_dgram *d, const struct sockaddr *group,
			bool send_only, unsigned int timeout_ms, u32 *qkey)
{
	struct rdmachan_dgram_group *g;
	struct sockaddr_storage to;
	unsigned int n;
	int ret;

	if (rdmachan_dgram_host(group, &to) ||
	    (group->sa_family == AF_INET ?
	     !ipv4_is_multicast(((struct sockaddr_in *)&to)->sin_addr.s_addr) :
	     !ipv6_addr_is_multicast(&((struct sockaddr_in6 *)&to)->sin6_addr)))
		return -EINVAL;
	if (mutex_lock_interruptible(&d->ah_mutex))
		return -ERESTARTSYS;
	ret = rdmachan_dgram_group_find(d, &to, false, &n) ? -EALREADY :
	      n >= RDMACHAN_DGRAM_MAX_GROUPS ? -ENOBUFS : READ_ONCE(d->dead);
	if (ret)
		goto out;
	g = kzalloc(sizeof(*g), GFP_KERNEL_ACCOUNT);
	if (!g) {
		ret = -ENOMEM;
		goto out;
	}
	init_waitqueue_head(&g->step.wq);
	memcpy(&g->addr, &to, sizeof(to));
	g->id = rdma_create_id(d->net, rdmachan_dgram_group_handler, g,
			       RDMA_PS_UDP, IB_QPT_UD);
	if (IS_ERR(g->id)) {
		ret = PTR_ERR(g->id);
		kfree(g);
		goto out;
	}
	ret = rdmachan_dgram_group_join(d, g, send_only, timeout_ms);
	if (ret) {
		pr_info_ratelimited("qpn %u: joining %pISc: %d\n", d->qpn,
				    &to, ret);
		down_read(&d->rwsem);
		rdmachan_dgram_group_free(d, g);
		up_read(&d->rwsem);
		goto out;
	}
	*qkey = g->qkey;
out:
	mutex_unlock(&d->ah_mutex);
	return ret;
}
EXPORT_SYMBOL_GPL(rdmachan_dgram_join);

/**
 * rdmachan_dgram_leave() - leave a multicast group
 * @d: the endpoint
 * @group: the group's address, as joined
 *
 * Context: process context; sleeps.
 * Return: 0, or -ENOENT when @d is not a member.
 */
int rdmachan_dgram_leave(struct rdmachan_dgram *d, const struct sockaddr *group)
{
	struct rdmachan_dgram_group *g;
	struct sockaddr_storage to;
	unsigned int n;

	if (rdmachan_dgram_host(group, &to))
		return -ENOENT;
	mutex_lock(&d->ah_mutex);
	g = rdmachan_dgram_group_find(d, &to, true, &n);
	if (g) {
		down_read(&d->rwsem);
		rdmachan_dgram_group_free(d, g);
		up_read(&d->rwsem);
	}
	mutex_unlock(&d->ah_mutex);
	return g ? 0 : -ENOENT;
}
EXPORT_SYMBOL_GPL(rdmachan_dgram_leave);

/**
 * rdmachan_dgram_groups_free() - leave every group
 * @d: the endpoint; its QP still there
 *
 * Context: process context, @d->rwsem held for writing (teardown).
 */
void rdmachan_dgram_groups_free(struct rdmachan_dgram *d)
{
	struct rdmachan_dgram_group *g, *tmp;
	unsigned long flags;
	LIST_HEAD(groups);

	spin_lock_irqsave(&d->lock, flags);
	list_splice_init(&d->groups, &groups);
	spin_unlock_irqrestore(&d->lock, flags);
	list_for_each_entry_safe(g, tmp, &groups, node)
		rdmachan_dgram_group_free(d, g);
}
