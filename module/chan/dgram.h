/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * rdmachan: datagram endpoints (UD) - what dgram.c, dgram_cm.c and
 * ioctl_dgram.c share, and the pure logic KUnit tests
 * (tests/kunit/dgram_kunit.c): where a datagram came from, by its GRH.
 */
#ifndef RDMACHAN_DGRAM_H
#define RDMACHAN_DGRAM_H

#include <linux/in.h>
#include <linux/in6.h>
#include <linux/ip.h>
#include <linux/poll.h>
#include <linux/rwsem.h>
#include <linux/socket.h>
#include <linux/spinlock.h>
#include <linux/string.h>
#include <linux/types.h>
#include <linux/wait.h>
#include <linux/workqueue.h>
#include <net/ipv6.h>
#include <rdma/ib_verbs.h>
#include <rdma/rdma_cm.h>

#include "device.h"
#include "rdmachan.h"

#define RDMACHAN_DGRAM_GRH	40	/* room for the GRH before each datagram */
#define RDMACHAN_DGRAM_TX	64	/* send buffers, a page each */
#define RDMACHAN_DGRAM_MAX_AH	256	/* address handles kept */
/* receive buffers an idle endpoint keeps: room for one full batch */
#define RDMACHAN_DGRAM_RX_KEEP	RDMACHAN_DGRAM_MAX_BATCH
/* receive buffers one completion adds at most */
#define RDMACHAN_DGRAM_GROW_STEP	16
/* send pages an idle endpoint keeps */
#define RDMACHAN_DGRAM_TX_KEEP	1

/**
 * rdmachan_dgram_grh_source() - the source address of a received datagram
 * @grh: the RDMACHAN_DGRAM_GRH bytes the device wrote before it
 * @ipv4: the datagram came over RoCEv2 with an IPv4 header (then the header
 *	is the last 20 of the 40 bytes); else @grh is an IB/RoCE GRH, whose
 *	source GID is the address (an IPv4-mapped one is an IPv4 address)
 * @ss: the address, port 0
 *
 * Context: any.
 * Return: 0, or -EPROTO when an IPv4 header is not one.
 */
static inline int rdmachan_dgram_grh_source(const u8 *grh, bool ipv4,
					    struct sockaddr_storage *ss)
{
	struct sockaddr_in6 *sin6 = (struct sockaddr_in6 *)ss;
	struct sockaddr_in *sin = (struct sockaddr_in *)ss;
	struct in6_addr gid;

	memset(ss, 0, sizeof(*ss));
	if (ipv4) {
		const struct iphdr *ip = (const void *)(grh + 20);

		if (ip->version != 4 || ip->ihl != 5)
			return -EPROTO;
		sin->sin_family = AF_INET;
		sin->sin_addr.s_addr = ip->saddr;
		return 0;
	}
	/* struct ib_grh: the source GID at byte 8 */
	memcpy(&gid, grh + 8, sizeof(gid));
	if (ipv6_addr_v4mapped(&gid)) {
		sin->sin_family = AF_INET;
		sin->sin_addr.s_addr = gid.s6_addr32[3];
		return 0;
	}
	sin6->sin6_family = AF_INET6;
	sin6->sin6_addr = gid;
	return 0;
}

/**
 * rdmachan_dgram_same_ip() - do two addresses name the same host?
 * @a: one (AF_INET or AF_INET6; the port is not compared)
 * @b: the other
 *
 * Context: any.
 * Return: true when they do; an IPv4 address and its IPv4-mapped IPv6
 * form are the same.
 */
static inline bool rdmachan_dgram_same_ip(const struct sockaddr_storage *a,
					  const struct sockaddr_storage *b)
{
	struct in6_addr x, y;
	int i;

	for (i = 0; i < 2; i++) {
		const struct sockaddr_storage *s = i ? b : a;
		struct in6_addr *o = i ? &y : &x;

		if (s->ss_family == AF_INET)
			ipv6_addr_set_v4mapped(((const struct sockaddr_in *)s)->sin_addr.s_addr,
					       o);
		else if (s->ss_family == AF_INET6)
			*o = ((const struct sockaddr_in6 *)s)->sin6_addr;
		else
			return false;
	}
	return ipv6_addr_equal(&x, &y);
}

/**
 * rdmachan_dgram_grow_n() - receive buffers to add at a completion
 * @made: receive buffers the endpoint has
 * @posted: of them posted, after the completion
 * @depth: its most
 *
 * A receiver whose buffers are at most half posted (the rest hold
 * datagrams nobody has read yet) adds up to RDMACHAN_DGRAM_GROW_STEP, as
 * a channel's grant grows when its peer uses half of it (chan_grant.c).
 *
 * Context: any.
 * Return: how many, 0 for none.
 */
static inline u32 rdmachan_dgram_grow_n(u32 made, u32 posted, u32 depth)
{
	if (made >= depth || posted > made / 2)
		return 0;
	return min_t(u32, RDMACHAN_DGRAM_GROW_STEP, depth - made);
}

/**
 * rdmachan_dgram_keep() - the receive buffers an idle endpoint keeps
 * @depth: its most
 *
 * Context: any.
 * Return: RDMACHAN_DGRAM_RX_KEEP, or @depth when smaller.
 */
static inline u32 rdmachan_dgram_keep(u32 depth)
{
	return min_t(u32, depth, RDMACHAN_DGRAM_RX_KEEP);
}

/**
 * rdmachan_dgram_retire_n() - receive buffers an idle endpoint gives back
 * @made: receive buffers it has
 * @retiring: of them already on their way back (a retire datagram sent)
 * @depth: its most
 *
 * Context: any.
 * Return: what it holds beyond rdmachan_dgram_keep(), less @retiring.
 */
static inline u32 rdmachan_dgram_retire_n(u32 made, u32 retiring, u32 depth)
{
	u32 keep = rdmachan_dgram_keep(depth);

	return made > keep + retiring ? made - keep - retiring : 0;
}

/**
 * rdmachan_dgram_is_retire() - is a datagram one an endpoint sent itself
 *	to give a receive buffer back?
 * @rx: the datagram
 * @qpn: the endpoint's queue pair
 * @imm: its retire datagrams' immediate data, random
 * @self: its address
 *
 * Context: any.
 * Return: true for an empty datagram with @imm from @qpn at @self's host
 * (or with no source address: no GRH, as on an InfiniBand subnet).
 */
static inline bool rdmachan_dgram_is_retire(const struct rdmachan_dgram_rx *rx,
					    u32 qpn, __be32 imm,
					    const struct sockaddr_storage *self)
{
	return rx->has_imm && !rx->len && rx->qpn == qpn && rx->imm == imm &&
	       (rx->from.ss_family == AF_UNSPEC ||
		rdmachan_dgram_same_ip(&rx->from, self));
}

/**
 * struct rdmachan_dgram_ah - an address handle kept for one peer host
 * @addr: the host (port 0)
 * @ah: its address handle on the endpoint's PD
 * @inflight: sends posted with @ah and not completed; under the
 *	endpoint's lock
 * @used: jiffies of its last send, for eviction; under the lock
 */
struct rdmachan_dgram_ah {
	struct sockaddr_storage	addr;
	struct ib_ah		*ah;
	u32			inflight;
	unsigned long		used;
};

/**
 * struct rdmachan_dgram_slot - a receive or send buffer
 * @page: the datagram's bytes (one page holds any MTU); NULL for a
 *	receive slot without a buffer (on &rdmachan_dgram.rx_free) and a
 *	send slot not used since the endpoint was idle (dgram_buf.c)
 * @dma: its mapping; 0 when unmapped
 * @cqe: its completion
 * @len: receive: the datagram's length; send: bytes posted
 * @src: receive: its source (address, QPN); send: the AH entry used
 * @imm: receive: the immediate data
 * @has_imm: receive: @imm is valid
 * @d: the endpoint, for the completion handler
 */
struct rdmachan_dgram_slot {
	struct page			*page;
	u64				dma;
	struct ib_cqe			cqe;
	u32				len;
	union {
		struct rdmachan_dgram_rx	rx;
		struct rdmachan_dgram_ah	*ah;
	};
	struct rdmachan_dgram		*d;
};

/**
 * struct rdmachan_dgram - a datagram endpoint (dgram.c)
 * @ref: references: the owner's, one per reader holding a datagram
 * @dev_user: its place among its RDMA device's users (device.h)
 * @rwsem: readers post (send, repost a receive, resolve); teardown (close,
 *	device removal) takes it for writing: under it for reading, @dead
 *	false means the device resources below exist
 * @lock: the rings, @tx_free, the counters, @ahs' use counts
 * @wq: readers and writers wait here
 * @dead: 0, or why the endpoint died (-ENODEV: device removal); under
 *	@lock, written under @rwsem held for writing
 * @net: the network namespace of its address (a reference)
 * @id: its rdma_cm identifier, bound to its address (listening when
 *	serving); owns the QP
 * @ibdev: the device of @id, for comparing only (it may be gone)
 * @pd: protection domain
 * @cq: completion queue of both queues
 * @qpn: its queue pair's number, kept after teardown for INFO
 * @flags: RDMACHAN_DGRAM_SERVE, RDMACHAN_DGRAM_BUSY_POLL
 * @polling: bit 0: a thread processes @cq (BUSY_POLL: dgram_poll.c);
 *	teardown takes it for good before it frees @cq
 * @cq_events: BUSY_POLL: the armed @cq's completion events, which wake
 *	the sleepers of @wq
 * @addr: the bound address and port
 * @max_size: the largest datagram (active MTU, at most a page)
 * @depth: receive buffers
 * @rx: the receive buffers
 * @grh: the GRH area of every receive buffer, RDMACHAN_DGRAM_GRH each
 * @grh_dma: its mapping; 0 once unmapped
 * @rx_ring: indexes of received buffers in arrival order; under @lock
 * @rx_head: next to read; under @lock
 * @rx_count: in @rx_ring; under @lock
 * @rx_made: receive slots with a buffer (posted, received, held by a
 *	reader, or retiring); under @lock
 * @rx_free: indexes of the slots without one, a stack; under @lock
 * @rx_nfree: on @rx_free; under @lock
 * @rx_retiring: retire datagrams sent and not back; under @lock.  Only
 *	while some are on their way is a datagram taken for one
 * @retire_imm: their immediate data, random, so that no peer can send one
 * @posted: receive and send requests posted, not completed; under @lock
 * @rx_posted: receives of them
 * @tx: the send buffers
 * @tx_free: bitmap of free send buffers; under @lock
 * @tx_pages: send slots with a page; under @lock
 * @memcg: the memory cgroup of the endpoint's maker (a reference), which
 *	the buffers made in completion handlers are charged to; NULL: none
 * @idle_work: the tick that gives an idle endpoint's buffers back
 *	(dgram_buf.c); cancelled by teardown before it takes @rwsem
 * @idle_rx: @stats.rx at the last tick; under @lock
 * @idle_tx: @stats.tx at the last tick; under @lock
 * @self_ah: the address handle to itself (rdmachan_dgram_ah_self()), held
 *	for good; the idle tick's only
 * @ahs: address handles by peer host; under @rwsem (written under it for
 *	writing or with @ah_mutex), their counts under @lock
 * @nr_ahs: entries of @ahs used
 * @ah_mutex: serializes making an address handle (it sleeps)
 * @groups: the multicast groups joined (dgram_mcast.c); under @lock
 * @conn: write()'s destination (RDMACHAN_DGRAM_CONNECT); under @lock
 * @conn_set: @conn is set
 * @stats: the counters of struct rdmachan_dgram_info; under @lock
 */
struct rdmachan_dgram {
	struct kref			ref;
	struct rdmachan_dev_user	dev_user;
	struct rw_semaphore		rwsem;
	spinlock_t			lock;	/* rings, tx_free, counters */
	wait_queue_head_t		wq;
	int				dead;
	struct net			*net;
	struct rdma_cm_id		*id;
	struct ib_device		*ibdev;
	struct ib_pd			*pd;
	struct ib_cq			*cq;
	u32				qpn;
	u32				flags;
	unsigned long			polling;
	atomic_t			cq_events;
	struct sockaddr_storage		addr;
	u32				max_size;
	u32				depth;
	struct rdmachan_dgram_slot	*rx;
	void				*grh;
	u64				grh_dma;
	u32				*rx_ring;
	u32				rx_head;
	u32				rx_count;
	u32				rx_made;
	u32				*rx_free;
	u32				rx_nfree;
	u32				rx_retiring;
	__be32				retire_imm;
	u32				posted;
	u32				rx_posted;
	struct rdmachan_dgram_slot	tx[RDMACHAN_DGRAM_TX];
	DECLARE_BITMAP(tx_free, RDMACHAN_DGRAM_TX);
	u32				tx_pages;
	struct mem_cgroup		*memcg;
	struct delayed_work		idle_work;
	u64				idle_rx;
	u64				idle_tx;
	struct rdmachan_dgram_ah	*self_ah;
	struct rdmachan_dgram_ah	*ahs;
	u32				nr_ahs;
	struct mutex			ah_mutex; /* making address handles */
	struct list_head		groups;
	struct rdmachan_dgram_peer	conn;
	bool				conn_set;
	struct {
		u64 tx, rx, tx_bytes, rx_bytes, rx_trunc, rx_empty;
		u64 tx_errors, resolved, served, grown, retired;
	} stats;
};

/**
 * rdmachan_dgram_host() - the host of a peer's or a group's address
 * @sa: the address (AF_INET or AF_INET6)
 * @ss: a copy of it, the rest zero
 *
 * Context: any.
 * Return: 0, or -EAFNOSUPPORT for another family.
 */
static inline int rdmachan_dgram_host(const struct sockaddr *sa,
				      struct sockaddr_storage *ss)
{
	memset(ss, 0, sizeof(*ss));
	if (sa->sa_family != AF_INET && sa->sa_family != AF_INET6)
		return -EAFNOSUPPORT;
	memcpy(ss, sa, sa->sa_family == AF_INET ? sizeof(struct sockaddr_in) :
	       sizeof(struct sockaddr_in6));
	return 0;
}

/* How far an rdma_cm identifier of a resolution or a join has come */
enum {
	RDMACHAN_DGRAM_STEP_IDLE,
	RDMACHAN_DGRAM_STEP_ADDR,	/* address resolved */
	RDMACHAN_DGRAM_STEP_ROUTE,	/* route resolved */
	RDMACHAN_DGRAM_STEP_DONE,	/* SIDR answered, or group joined */
};

/**
 * struct rdmachan_dgram_step - the progress of one rdma_cm identifier
 * @wq: the thread that drives it waits here
 * @state: RDMACHAN_DGRAM_STEP_*, or a negative errno; written by the
 *	identifier's event handler (rdmachan_dgram_step_set())
 */
struct rdmachan_dgram_step {
	wait_queue_head_t	wq;
	int			state;
};

/* dgram_cm.c: the rdma_cm side */
void rdmachan_dgram_step_set(struct rdmachan_dgram_step *s, int state);
int rdmachan_dgram_step_wait(struct rdmachan_dgram_step *s, int want,
			     long *left);
int rdmachan_dgram_resolve_addr(struct rdmachan_dgram *d,
				struct rdma_cm_id *id,
				struct rdmachan_dgram_step *s,
				const struct sockaddr_storage *to,
				unsigned int timeout_ms, long *left);
int rdmachan_dgram_ah_keep(struct rdmachan_dgram *d,
			   const struct sockaddr_storage *to,
			   struct rdma_ah_attr *attr);
void rdmachan_dgram_ah_put(struct rdmachan_dgram *d,
			   struct rdmachan_dgram_ah *e);
int rdmachan_dgram_cm_handler(struct rdma_cm_id *id,
			      struct rdma_cm_event *ev);
struct rdmachan_dgram_ah *rdmachan_dgram_ah_get(struct rdmachan_dgram *d,
						const struct sockaddr_storage *to,
						unsigned int timeout_ms);
struct rdmachan_dgram_ah *rdmachan_dgram_ah_self(struct rdmachan_dgram *d);
void rdmachan_dgram_ahs_free(struct rdmachan_dgram *d);

/* dgram_mcast.c: multicast groups */
void rdmachan_dgram_groups_free(struct rdmachan_dgram *d);

/* dgram_buf.c: the buffers, which follow use */
int rdmachan_dgram_buffers(struct rdmachan_dgram *d);
void rdmachan_dgram_unmap(struct rdmachan_dgram *d);
void rdmachan_dgram_bufs_free(struct rdmachan_dgram *d);
int rdmachan_dgram_post_recv(struct rdmachan_dgram *d, u32 i);
int rdmachan_dgram_tx_page(struct rdmachan_dgram *d,
			   struct rdmachan_dgram_slot *s);
void rdmachan_dgram_idle_init(struct rdmachan_dgram *d);
void rdmachan_dgram_idle_start(struct rdmachan_dgram *d);
u64 rdmachan_dgram_mem_bytes(const struct rdmachan_dgram *d);

/* dgram_poll.c: the waits of a BUSY_POLL endpoint */
static inline bool rdmachan_dgram_busy(const struct rdmachan_dgram *d)
{
	return d->flags & RDMACHAN_DGRAM_BUSY_POLL;
}

void rdmachan_dgram_comp(struct ib_cq *cq, void *ctx);
void rdmachan_dgram_process(struct rdmachan_dgram *d);
long rdmachan_dgram_busy_wait(struct rdmachan_dgram *d,
			      bool (*cond)(struct rdmachan_dgram *d),
			      long timeout, bool intr);
bool rdmachan_dgram_arm(struct rdmachan_dgram *d);
void rdmachan_dgram_poll_stop(struct rdmachan_dgram *d);

/* dgram.c: for dgram_buf.c */
void rdmachan_dgram_send_done(struct ib_cq *cq, struct ib_wc *wc);
int rdmachan_dgram_tx_take(struct rdmachan_dgram *d);
int rdmachan_dgram_post_send(struct rdmachan_dgram *d,
			     struct rdmachan_dgram_slot *s,
			     struct rdmachan_dgram_ah *ah, u32 qpn, u32 qkey,
			     const __be32 *imm);

/* dgram.c: for ioctl_dgram.c */
int rdmachan_dgram_open_net(struct net *net, const struct sockaddr *addr,
			    u32 depth, u32 flags, struct rdmachan_dgram **dp);
__poll_t rdmachan_dgram_poll(struct rdmachan_dgram *d, struct file *file,
			     poll_table *wait);
void rdmachan_dgram_stats(struct rdmachan_dgram *d,
			  struct rdmachan_dgram_info *info);
void rdmachan_dgram_put(struct rdmachan_dgram *d);

#endif /* RDMACHAN_DGRAM_H */
