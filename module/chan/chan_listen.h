/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * rdmachan: listeners (chan_listen.c) - their structure and calls
 *
 * Included by rdmachan-pri.h after struct rdmachan, whose passive
 * channels a listener queues.
 */
#ifndef RDMACHAN_CHAN_LISTEN_H
#define RDMACHAN_CHAN_LISTEN_H

/**
 * struct rdmachan_listen_queue - a listener's channels not yet accepted
 *	(chan_listen.c); every field under rdmachan_listener.lock, unless
 *	said (sysfs reads the numbers without it)
 * @pending: channels accepted by us, not yet established
 * @ready: established channels waiting for rdmachan_accept()
 * @nr_pending: length of @pending, plus requests being set up
 * @nr_ready: length of @ready
 * @max_connecting: bound of @nr_pending (listen_max_connecting); set once
 *	when the listener is created
 * @budget: bytes the channels of @pending and @ready may hold together
 *	(listen_budget_kb); set once when the listener is created
 * @charged: bytes they hold (estimated from their parameters)
 */
struct rdmachan_listen_queue {
	struct list_head	pending;
	struct list_head	ready;
	u32			nr_pending;
	u32			nr_ready;
	u32			max_connecting;
	u64			budget;
	u64			charged;
};

/**
 * struct rdmachan_listen_stats - a listener's counters (atomic)
 * @accepted: connections handed out
 * @rejected: connection requests refused
 * @rejected_busy: of those, refused with RDMACHAN_REJ_BUSY
 * @rejected_refused: of those, refused by the user's admit callback
 *	(RDMACHAN_REJ_REFUSED)
 * @timed_out: connections dropped by rdmachan_listener.reap_work
 */
struct rdmachan_listen_stats {
	atomic64_t		accepted;
	atomic64_t		rejected;
	atomic64_t		rejected_busy;
	atomic64_t		rejected_refused;
	atomic64_t		timed_out;
};

/**
 * struct rdmachan_listener - a listening endpoint
 * @obj: kind RDMACHAN_OBJ_LISTENER, number, references, sysfs directory,
 *	place on the device it is bound to (if any)
 * @lock: protects @queue, @closing, @err, @cm_id and the failure report
 * @cm_id: the listening rdma_cm identifier; set before the listener is
 *	handed to its user, cleared under @lock when it stops
 * @opts: options for accepted channels; set once when it is created
 * @queue: channels not yet accepted, and their bounds
 * @closing: no more connections; set under @lock (sysfs reads it without)
 * @err: why the listener failed (e.g. -ENODEV), or 0; set under @lock
 * @failure_told: the user's @failed callback ran (or may no longer run);
 *	under @lock
 * @failed_task: the task running the @failed callback, or NULL; under
 *	@lock
 * @wq: rdmachan_accept() and poll waiters
 * @reap_work: drops channels of @queue.pending whose peer did not
 *	complete the connection within the listener's timeout_ms; armed
 *	under @lock unless @closing
 * @notify: the user's "connection pending" callback; set once when the
 *	listener is created
 * @notifying: @notify calls under way; under @lock.  Close waits for
 *	none to be left (the callback's module and the listener outlive it)
 * @admit: the user's peer check, before anything is set up for a
 *	connection request; set once when the listener is created
 * @failed: the user's "listener failed" callback; likewise
 * @priv: the user's pointer; likewise
 * @addr: the bound address; set once when the listener is created
 * @memcg: the memory cgroup of the process that made the listener
 *	through /dev/rdmachan, which its channels are charged to
 *	(&rdmachan.memcg), or NULL; set once when the listener is created,
 *	put with it
 * @stats: its counters
 */
struct rdmachan_listener {
	struct rdmachan_obj	obj;
	spinlock_t		lock;	/* queue, closing, err, cm_id */
	struct rdma_cm_id	*cm_id;
	struct rdmachan_opts	opts;
	struct rdmachan_listen_queue queue;
	bool			closing;
	int			err;
	bool			failure_told;
	struct task_struct	*failed_task;
	wait_queue_head_t	wq;
	struct delayed_work	reap_work;
	void			(*notify)(struct rdmachan_listener *l);
	unsigned int		notifying;
	int			(*admit)(struct rdmachan_listener *l,
					 const struct sockaddr *peer);
	void			(*failed)(struct rdmachan_listener *l, int err);
	void			*priv;
	struct sockaddr_storage	addr;
	struct mem_cgroup	*memcg;
	struct rdmachan_listen_stats stats;
};

/* chan_listen.c */
int rdmachan_listen_net(struct net *net, bool account,
			const struct sockaddr *addr,
			const struct rdmachan_opts *opts,
			const struct rdmachan_listener_ops *ops,
			void *priv, struct rdmachan_listener **lp);
u64 rdmachan_listener_chan_cost(const struct rdmachan_conn_params *p,
				u32 max_send_regs, bool rx_pages, bool frag_rx,
				bool frag_tx);

void rdmachan_listener_established(struct rdmachan_listener *l,
				   struct rdmachan *ch);
void rdmachan_listener_drop(struct rdmachan_listener *l, struct rdmachan *ch);
void rdmachan_accept_work(struct work_struct *work);
int rdmachan_listener_cm_handler(struct rdma_cm_id *id,
				 struct rdma_cm_event *ev);
bool rdmachan_listener_has_ready(struct rdmachan_listener *l);
void rdmachan_listener_get(struct rdmachan_listener *l);
void rdmachan_listener_put(struct rdmachan_listener *l);

#endif /* RDMACHAN_CHAN_LISTEN_H */
