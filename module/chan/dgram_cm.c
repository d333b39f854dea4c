// SPDX-License-Identifier: GPL-2.0-only
/*
 * rdmachan: the rdma_cm side of datagram endpoints
 *
 * Serving: an endpoint opened with RDMACHAN_DGRAM_SERVE listens on its
 * port in rdma_cm's UDP port space and answers every SIDR request with its
 * queue pair number and qkey (rdma_accept() on the request's identifier,
 * which then goes: SIDR keeps no state), as udaddy's server does.
 *
 * Resolving: rdmachan_dgram_resolve() resolves the service's address and
 * route from the endpoint's address and sends a SIDR request
 * (rdma_connect() on a UD identifier), as udaddy's client does; the reply
 * names the queue pair and qkey, and its address vector becomes the
 * host's address handle.  A send to a host with no address handle yet
 * resolves its address and route only, and makes the handle from the
 * path (ib_init_ah_attr_from_path(), as rdma_cm does for SIDR).  Handles
 * are kept per host, at most RDMACHAN_DGRAM_MAX_AH; one no send uses is
 * replaced when the table is full.  Every step is bounded.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": dgram: " fmt

#include <linux/jiffies.h>
#include <linux/slab.h>
#include <rdma/ib_cm.h>
#include <rdma/ib_sa.h>
#include <rdma/rdma_cm.h>

#include "dgram.h"

/* ---- serving -------------------------------------------------------------- */

/* Answer a SIDR request with the endpoint's QP; the request's id goes. */
static int rdmachan_dgram_serve(struct rdmachan_dgram *d,
				struct rdma_cm_id *id)
{
	struct rdma_conn_param p = { .qkey = RDMACHAN_DGRAM_QKEY };
	unsigned long flags;
	int ret;

	spin_lock_irqsave(&d->lock, flags);
	ret = d->dead ?: (d->qpn ? 0 : -EAGAIN);
	p.qp_num = d->qpn;
	spin_unlock_irqrestore(&d->lock, flags);
	if (!ret)
		ret = rdma_accept(id, &p);
	if (ret) {
		pr_info_ratelimited("qpn %u: not answering %pISpc: %d\n",
				    d->qpn, &id->route.addr.dst_addr, ret);
		rdma_reject(id, NULL, 0, IB_CM_REJ_CONSUMER_DEFINED);
	} else {
		spin_lock_irqsave(&d->lock, flags);
		d->stats.served++;
		spin_unlock_irqrestore(&d->lock, flags);
	}
	return 1;
}

/**
 * rdmachan_dgram_cm_handler() - events of an endpoint's identifier
 * @id: the endpoint's identifier, or a SIDR request's
 * @ev: the event
 *
 * Context: rdma_cm's handler context (its mutex held); sleeps.
 * Return: 1 to have rdma_cm destroy a request's identifier, else 0.
 */
int rdmachan_dgram_cm_handler(struct rdma_cm_id *id, struct rdma_cm_event *ev)
{
	struct rdmachan_dgram *d = id->context;
	unsigned long flags;

	switch (ev->event) {
	case RDMA_CM_EVENT_CONNECT_REQUEST:
		return rdmachan_dgram_serve(d, id);
	case RDMA_CM_EVENT_DEVICE_REMOVAL:
		/* our ib_client's removal tears it down before rdma_cm's */
		spin_lock_irqsave(&d->lock, flags);
		if (!d->dead)
			d->dead = -ENODEV;
		spin_unlock_irqrestore(&d->lock, flags);
		wake_up_all(&d->wq);
		return 0;
	default:
		return 0;
	}
}

/* ---- resolving ------------------------------------------------------------ */

/**
 * rdmachan_dgram_step_set() - record how far an identifier has come
 * @s: its progress
 * @state: RDMACHAN_DGRAM_STEP_*, or a negative errno
 *
 * Context: its event handler.
 */
void rdmachan_dgram_step_set(struct rdmachan_dgram_step *s, int state)
{
	WRITE_ONCE(s->state, state);
	wake_up_all(&s->wq);
}

static bool rdmachan_dgram_step_reached(struct rdmachan_dgram_step *s,
					int want)
{
	int st = READ_ONCE(s->state);

	return st < 0 || st >= want;
}

/**
 * rdmachan_dgram_step_wait() - wait until an identifier reaches a step
 * @s: its progress
 * @want: the step, RDMACHAN_DGRAM_STEP_*
 * @left: jiffies left of the whole bound; what remains afterwards
 *
 * Context: process context; sleeps, interruptible.
 * Return: 0, the error the handler recorded, -ETIMEDOUT, -ERESTARTSYS.
 */
int rdmachan_dgram_step_wait(struct rdmachan_dgram_step *s, int want,
			     long *left)
{
	long t = wait_event_interruptible_timeout(s->wq,
			rdmachan_dgram_step_reached(s, want), *left);

	if (t < 0)
		return t;
	if (READ_ONCE(s->state) < 0)
		return READ_ONCE(s->state);
	if (!t)
		return -ETIMEDOUT;
	*left = t;
	return 0;
}

/**
 * rdmachan_dgram_resolve_addr() - resolve an address from an endpoint's
 * @d: the endpoint
 * @id: a UD identifier of its own whose handler records in @s
 * @s: @id's progress
 * @to: the address
 * @timeout_ms: the bound of the resolution
 * @left: jiffies left of the caller's bound; what remains afterwards
 *
 * Context: process context; sleeps, interruptible.
 * Return: 0, -ENETUNREACH when @to is reached through another device
 * than @d's, or as rdmachan_dgram_step_wait().
 */
int rdmachan_dgram_resolve_addr(struct rdmachan_dgram *d,
				struct rdma_cm_id *id,
				struct rdmachan_dgram_step *s,
				const struct sockaddr_storage *to,
				unsigned int timeout_ms, long *left)
{
	struct sockaddr_storage src;
	int ret;

	memcpy(&src, &d->addr, sizeof(src));
	((struct sockaddr_in *)&src)->sin_port = 0;	/* same place in in6 */
	ret = rdma_resolve_addr(id, (struct sockaddr *)&src,
				(struct sockaddr *)to, timeout_ms);
	if (!ret)
		ret = rdmachan_dgram_step_wait(s, RDMACHAN_DGRAM_STEP_ADDR,
					       left);
	if (!ret && id->device != d->ibdev) {
		pr_info_ratelimited("qpn %u: %pISc is reached through %s, not this endpoint's device\n",
				    d->qpn, to, dev_name(&id->device->dev));
		ret = -ENETUNREACH;
	}
	return ret;
}

/**
 * struct rdmachan_dgram_res - one resolution
 * @step: its identifier's progress
 * @attr: the address vector of the SIDR reply, or of the path
 * @have_attr: @attr holds references (rdma_destroy_ah_attr() it)
 * @qpn: the SIDR reply's queue pair
 * @qkey: its qkey
 */
struct rdmachan_dgram_res {
	struct rdmachan_dgram_step	step;
	struct rdma_ah_attr		attr;
	bool				have_attr;
	u32				qpn;
	u32				qkey;
};

static int rdmachan_dgram_res_handler(struct rdma_cm_id *id,
				      struct rdma_cm_event *ev)
{
	struct rdmachan_dgram_res *r = id->context;
	int st;

	switch (ev->event) {
	case RDMA_CM_EVENT_ADDR_RESOLVED:
		st = RDMACHAN_DGRAM_STEP_ADDR;
		break;
	case RDMA_CM_EVENT_ROUTE_RESOLVED:
		st = RDMACHAN_DGRAM_STEP_ROUTE;
		break;
	case RDMA_CM_EVENT_ESTABLISHED:
		rdma_copy_ah_attr(&r->attr, &ev->param.ud.ah_attr);
		r->have_attr = true;
		r->qpn = ev->param.ud.qp_num;
		r->qkey = ev->param.ud.qkey;
		st = RDMACHAN_DGRAM_STEP_DONE;
		break;
	case RDMA_CM_EVENT_ADDR_ERROR:
	case RDMA_CM_EVENT_ROUTE_ERROR:
		st = ev->status < 0 ? ev->status : -EHOSTUNREACH;
		break;
	case RDMA_CM_EVENT_UNREACHABLE:
	case RDMA_CM_EVENT_REJECTED:
		/* no answer (-ETIMEDOUT), or nobody serves the port */
		st = ev->status == -ETIMEDOUT ? -ETIMEDOUT : -EHOSTUNREACH;
		break;
	case RDMA_CM_EVENT_DEVICE_REMOVAL:
		st = -ENODEV;
		break;
	default:
		return 0;
	}
	rdmachan_dgram_step_set(&r->step, st);
	return 0;
}

/*
 * Resolve the route to @to from @d's address, and with @sidr (@to's port
 * is the service) its queue pair.  Fills @r->attr.  Context: process.
 */
static int rdmachan_dgram_route(struct rdmachan_dgram *d,
				const struct sockaddr_storage *to, bool sidr,
				unsigned int timeout_ms,
				struct rdmachan_dgram_res *r)
{
	struct rdma_conn_param p = {};
	long left = msecs_to_jiffies(timeout_ms);
	struct rdma_cm_id *id;
	int ret;

	init_waitqueue_head(&r->step.wq);
	id = rdma_create_id(d->net, rdmachan_dgram_res_handler, r, RDMA_PS_UDP,
			    IB_QPT_UD);
	if (IS_ERR(id))
		return PTR_ERR(id);
	ret = rdmachan_dgram_resolve_addr(d, id, &r->step, to, timeout_ms,
					  &left);
	if (!ret)
		ret = rdma_resolve_route(id, jiffies_to_msecs(left) ?: 1);
	if (!ret)
		ret = rdmachan_dgram_step_wait(&r->step,
					       RDMACHAN_DGRAM_STEP_ROUTE, &left);
	if (!ret && sidr)
		ret = rdma_connect(id, &p);
	if (!ret && sidr) {
		ret = rdmachan_dgram_step_wait(&r->step,
					       RDMACHAN_DGRAM_STEP_DONE, &left);
	} else if (!ret) {
		ret = ib_init_ah_attr_from_path(id->device, id->port_num,
						id->route.path_rec, &r->attr,
						id->route.addr.dev_addr.sgid_attr);
		r->have_attr = !ret;
	}
	rdma_destroy_id(id);
	if (ret && ret != -ERESTARTSYS)
		pr_info_ratelimited("qpn %u: resolving %pISpc%s: %d\n", d->qpn,
				    to, sidr ? " (SIDR)" : "", ret);
	return ret;
}

/* ---- address handles ------------------------------------------------------ */

/* The entry for @to with one more send on it, or NULL; under @d->lock */
static struct rdmachan_dgram_ah *
rdmachan_dgram_ah_find(struct rdmachan_dgram *d,
		       const struct sockaddr_storage *to)
{
	u32 i;

	for (i = 0; i < d->nr_ahs; i++) {
		struct rdmachan_dgram_ah *e = &d->ahs[i];

		if (e->ah && rdmachan_dgram_same_ip(&e->addr, to)) {
			e->inflight++;
			e->used = jiffies;
			return e;
		}
	}
	return NULL;
}

/*
 * An entry to fill: a free one, else the longest unused with no send on
 * it, emptied (its handle in *@old, to destroy); NULL when every one is
 * in use.  Under @d->lock.
 */
static struct rdmachan_dgram_ah *
rdmachan_dgram_ah_slot(struct rdmachan_dgram *d, struct ib_ah **old)
{
	struct rdmachan_dgram_ah *e, *victim = NULL;
	u32 i;

	*old = NULL;
	for (i = 0; i < d->nr_ahs; i++) {
		e = &d->ahs[i];
		if (!e->ah)
			return e;
		if (!e->inflight &&
		    (!victim || time_before(e->used, victim->used)))
			victim = e;
	}
	if (d->nr_ahs < RDMACHAN_DGRAM_MAX_AH)
		return &d->ahs[d->nr_ahs++];
	if (victim) {
		*old = victim->ah;
		victim->ah = NULL;
	}
	return victim;
}

/*
 * Make the handle of @to from @attr and keep it, with one send on it.
 * Context: ah_mutex held, not @d->rwsem.
 */
static struct rdmachan_dgram_ah *
rdmachan_dgram_ah_make(struct rdmachan_dgram *d,
		       const struct sockaddr_storage *to,
		       struct rdma_ah_attr *attr)
{
	struct rdmachan_dgram_ah *e = NULL;
	struct ib_ah *ah, *old = NULL;
	unsigned long flags;
	int ret;

	down_read(&d->rwsem);
	ret = READ_ONCE(d->dead);
	if (ret)
		goto out;
	ah = rdma_create_ah(d->pd, attr, RDMA_CREATE_AH_SLEEPABLE);
	if (IS_ERR(ah)) {
		ret = PTR_ERR(ah);
		goto out;
	}
	spin_lock_irqsave(&d->lock, flags);
	e = rdmachan_dgram_ah_slot(d, &old);
	if (e) {
		memset(&e->addr, 0, sizeof(e->addr));
		memcpy(&e->addr, to, sizeof(e->addr));
		e->ah = ah;
		e->inflight = 1;
		e->used = jiffies;
	}
	spin_unlock_irqrestore(&d->lock, flags);
	if (old)
		rdma_destroy_ah(old, RDMA_DESTROY_AH_SLEEPABLE);
	if (!e) {
		rdma_destroy_ah(ah, RDMA_DESTROY_AH_SLEEPABLE);
		pr_info_ratelimited("qpn %u: all %u address handles have sends in flight\n",
				    d->qpn, RDMACHAN_DGRAM_MAX_AH);
		ret = -ENOSPC;
	}
out:
	up_read(&d->rwsem);
	return ret ? ERR_PTR(ret) : e;
}

/* The kept handle of @to, with one more send on it, or NULL */
static struct rdmachan_dgram_ah *
rdmachan_dgram_ah_lookup(struct rdmachan_dgram *d,
			 const struct sockaddr_storage *to)
{
	struct rdmachan_dgram_ah *e;
	unsigned long flags;

	spin_lock_irqsave(&d->lock, flags);
	e = rdmachan_dgram_ah_find(d, to);
	spin_unlock_irqrestore(&d->lock, flags);
	return e;
}

/**
 * rdmachan_dgram_ah_put() - drop one send's hold on an address handle
 * @d: the endpoint
 * @e: the handle's entry
 *
 * Context: any.
 */
void rdmachan_dgram_ah_put(struct rdmachan_dgram *d,
			   struct rdmachan_dgram_ah *e)
{
	unsigned long flags;

	spin_lock_irqsave(&d->lock, flags);
	e->inflight--;
	spin_unlock_irqrestore(&d->lock, flags);
}

/**
 * rdmachan_dgram_ah_keep() - keep a handle for a host or group
 * @d: the endpoint
 * @to: the host or group
 * @attr: its address vector, made into a handle unless one is kept
 *
 * Context: process context, @d->ah_mutex held; sleeps.
 * Return: 0, or as rdmachan_dgram_ah_make().
 */
int rdmachan_dgram_ah_keep(struct rdmachan_dgram *d,
			   const struct sockaddr_storage *to,
			   struct rdma_ah_attr *attr)
{
	struct rdmachan_dgram_ah *e;

	e = rdmachan_dgram_ah_lookup(d, to) ?:
	    rdmachan_dgram_ah_make(d, to, attr);
	if (IS_ERR(e))
		return PTR_ERR(e);
	rdmachan_dgram_ah_put(d, e);
	return 0;
}

/**
 * rdmachan_dgram_ah_get() - the address handle of a host, for one send
 * @d: the endpoint
 * @to: the host (AF_INET or AF_INET6; the port is not used)
 * @timeout_ms: the bound of resolving it when none is kept
 *
 * The caller drops the send's hold (inflight) when the send completes or
 * is not posted.
 *
 * Context: process context; sleeps.
 * Return: the entry, or an ERR_PTR().
 */
struct rdmachan_dgram_ah *rdmachan_dgram_ah_get(struct rdmachan_dgram *d,
						const struct sockaddr_storage *to,
						unsigned int timeout_ms)
{
	struct rdmachan_dgram_res r = {};
	struct rdmachan_dgram_ah *e;
	int ret;

	e = rdmachan_dgram_ah_lookup(d, to);
	if (e)
		return e;
	if (mutex_lock_interruptible(&d->ah_mutex))
		return ERR_PTR(-ERESTARTSYS);
	e = rdmachan_dgram_ah_lookup(d, to);
	if (!e) {
		ret = rdmachan_dgram_route(d, to, false, timeout_ms, &r);
		e = ret ? ERR_PTR(ret) : rdmachan_dgram_ah_make(d, to, &r.attr);
	}
	mutex_unlock(&d->ah_mutex);
	if (r.have_attr)
		rdma_destroy_ah_attr(&r.attr);
	return e;
}

/**
 * rdmachan_dgram_ah_self() - an endpoint's address handle to itself
 * @d: the endpoint
 *
 * Made at the first call that finds no other thread making a handle, and
 * kept for the endpoint's life: &rdmachan_dgram.self_ah holds it (its own
 * hold, so it is never replaced).
 *
 * Context: process context, the idle tick (the only user of @self_ah);
 * sleeps, RDMACHAN_DGRAM_DEFAULT_TIMEOUT at most.
 * Return: the entry, or an ERR_PTR(): -EBUSY while another thread makes a
 * handle, or as rdmachan_dgram_ah_get().
 */
struct rdmachan_dgram_ah *rdmachan_dgram_ah_self(struct rdmachan_dgram *d)
{
	struct rdmachan_dgram_res r = {};
	struct sockaddr_storage self;
	struct rdmachan_dgram_ah *e;
	int ret;

	if (d->self_ah)
		return d->self_ah;
	ret = rdmachan_dgram_host((struct sockaddr *)&d->addr, &self);
	if (ret)
		return ERR_PTR(ret);
	/* a user's resolution may hold the mutex long: not waited for */
	if (!mutex_trylock(&d->ah_mutex))
		return ERR_PTR(-EBUSY);
	e = rdmachan_dgram_ah_lookup(d, &self);
	if (!e) {
		ret = rdmachan_dgram_route(d, &self, false,
					   RDMACHAN_DGRAM_DEFAULT_TIMEOUT, &r);
		e = ret ? ERR_PTR(ret) : rdmachan_dgram_ah_make(d, &self, &r.attr);
	}
	mutex_unlock(&d->ah_mutex);
	if (r.have_attr)
		rdma_destroy_ah_attr(&r.attr);
	if (!IS_ERR(e))
		d->self_ah = e;
	return e;
}

/**
 * rdmachan_dgram_ahs_free() - destroy every address handle kept
 * @d: the endpoint, its QP gone
 *
 * Context: process context, @d->rwsem held for writing.
 */
void rdmachan_dgram_ahs_free(struct rdmachan_dgram *d)
{
	u32 i;

	for (i = 0; d->ahs && i < d->nr_ahs; i++) {
		if (d->ahs[i].ah)
			rdma_destroy_ah(d->ahs[i].ah,
					RDMA_DESTROY_AH_SLEEPABLE);
		d->ahs[i].ah = NULL;
	}
}

/**
 * rdmachan_dgram_resolve() - ask a peer's port for its queue pair (SIDR)
 * @d: the endpoint
 * @svc: the peer's address and port (an endpoint opened with
 *	RDMACHAN_DGRAM_SERVE, or udaddy's server)
 * @timeout_ms: the bound of the whole resolution
 * @qpn: its queue pair
 * @qkey: its qkey
 *
 * The reply's address vector becomes @svc's host's address handle.
 *
 * Context: process context; sleeps, interruptible.
 * Return: 0, -ETIMEDOUT, -EHOSTUNREACH (no route, or nobody serves the
 * port), -ENETUNREACH (reached through another device), -ERESTARTSYS, or
 * the endpoint's death.
 */
int rdmachan_dgram_resolve(struct rdmachan_dgram *d,
			   const struct sockaddr *svc,
			   unsigned int timeout_ms, u32 *qpn, u32 *qkey)
{
	struct rdmachan_dgram_res r = {};
	struct sockaddr_storage to;
	unsigned long flags;
	int ret;

	ret = rdmachan_dgram_host(svc, &to);
	if (ret)
		return ret;
	if (mutex_lock_interruptible(&d->ah_mutex))
		return -ERESTARTSYS;
	ret = rdmachan_dgram_route(d, &to, true, timeout_ms, &r);
	if (!ret)
		ret = rdmachan_dgram_ah_keep(d, &to, &r.attr);
	if (!ret) {
		spin_lock_irqsave(&d->lock, flags);
		d->stats.resolved++;
		spin_unlock_irqrestore(&d->lock, flags);
		*qpn = r.qpn;
		*qkey = r.qkey;
	}
	mutex_unlock(&d->ah_mutex);
	if (r.have_attr)
		rdma_destroy_ah_attr(&r.attr);
	return ret;
}
EXPORT_SYMBOL_GPL(rdmachan_dgram_resolve);
