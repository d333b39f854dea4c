// SPDX-License-Identifier: GPL-2.0-only
/*
 * rdmachan_blk client: mappings
 *
 * rcblk_clt_map() connects one channel per hardware queue to the server,
 * opens the export on each (OPEN / OPEN_RSP, the same session id on
 * every channel), checks that every queue saw the same export, then
 * builds a blk-mq tag set and the disk /dev/rcblk<index>.
 * rcblk_clt_unmap() undoes that; with RDMACHAN_BLK_FORCE even while the
 * disk is open, failing its I/O.
 *
 * The channels, their recovery after a link loss and the teardown are
 * blk_clt_link.c's (nvme-rdma's error recovery, on the core's reconnect
 * loop); blk_clt_io.c has the requests, blk_clt_sysfs.c the sysfs files.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/blkdev.h>
#include <linux/cpumask.h>
#include <linux/idr.h>
#include <linux/inet.h>
#include <linux/module.h>
#include <linux/random.h>
#include <linux/sizes.h>
#include <linux/slab.h>
#include <linux/uaccess.h>
#include <net/addrconf.h>
#include <net/route.h>

#include "blk_clt.h"
#include "compat.h"

struct workqueue_struct *rcblk_clt_wq;
static int rcblk_clt_major;
static DEFINE_IDA(rcblk_clt_ida);
static DEFINE_MUTEX(rcblk_clt_mutex);	/* rcblk_clt_maps */
static LIST_HEAD(rcblk_clt_maps);

u32 rcblk_clt_connect_timeout(void)
{
	return rcblk_param(clt_timeout_ms);
}

static int rcblk_clt_open_disk(struct gendisk *disk)
{
	struct rcblk_clt_map *map = disk->private_data;

	/* disk->open_mutex is held: rcblk_clt_unmap() sets removing under it */
	if (map->removing)
		return -ENXIO;
	return 0;
}

RC_DEFINE_BDOPS_OPEN(rcblk_clt)

static const struct block_device_operations rcblk_clt_fops = {
	.owner	= THIS_MODULE,
	.open	= rcblk_clt_open,
};

/*
 * A mapping's change as a uevent of its disk (RDMACHAN_EVENT=mapped,
 * unmapped, remap with its outcome), in order with its link's
 */
static void rcblk_clt_uevent(struct rcblk_clt_map *map, const char *what,
			     int err)
{
	rdmachan_uevent(disk_to_dev(map->disk),
			"RDMACHAN_OBJ=blk RDMACHAN_EVENT=%s RDMACHAN_EXPORT=%s RDMACHAN_SERVER=%pISpc RDMACHAN_ERROR=%d",
			what, map->name, &map->server, err);
}

/*
 * The limits and features of @map's disk, from the server's geometry;
 * the disk is allocated with them (rc_blk_mq_alloc_disk()).
 */
static unsigned int rcblk_clt_limits(const struct rcblk_clt_map *map,
				     struct queue_limits *lim)
{
	const struct rcblk_geo *g = &map->geo;
	bool cache = g->export_flags & RCBLK_EXP_WRITE_CACHE;
	bool fua = cache && (g->export_flags & RCBLK_EXP_FUA) &&
		   (g->features & RCBLK_F_FUA);
	unsigned int features = 0;

	lim->logical_block_size = g->lbs;
	lim->physical_block_size = g->pbs;
	lim->io_min = g->pbs;
	lim->max_hw_sectors = g->max_io >> SECTOR_SHIFT;
	/* one registration per request: no gaps between pages */
	lim->virt_boundary_mask = PAGE_SIZE - 1;
	lim->max_segments = map->max_segs;
	if (g->max_discard_sectors) {
		lim->max_hw_discard_sectors = g->max_discard_sectors;
		lim->discard_granularity = g->discard_granularity;
	}
	lim->max_write_zeroes_sectors = g->max_write_zeroes_sectors;
	/*
	 * Without a volatile cache blk-flush drops FLUSH and PREFLUSH; with
	 * one but no FUA it follows a FUA write with a FLUSH.
	 */
	if (cache)
		features |= RC_BLK_WRITE_CACHE;
	if (fua)
		features |= RC_BLK_FUA;
	if (g->export_flags & RCBLK_EXP_ROTATIONAL)
		features |= RC_BLK_ROTATIONAL;
	return features;
}

int rcblk_clt_make_disk(struct rcblk_clt_map *map)
{
	struct blk_mq_tag_set *set = &map->tag_set;
	struct queue_limits lim = {};
	unsigned int features;
	struct gendisk *disk;
	int ret;

	set->ops = &rcblk_clt_mq_ops;
	set->nr_hw_queues = map->nr_queues;
	/* the read map is the default one; polled I/O has queues of its own */
	set->nr_maps = map->nr_poll_queues ? HCTX_MAX_TYPES : 1;
	set->queue_depth = map->queue_depth;
	set->numa_node = NUMA_NO_NODE;
	set->cmd_size = sizeof(struct rcblk_clt_req);
	/* no I/O scheduler unless one is set: the server's disk has its own */
	set->flags = BLK_MQ_F_SHOULD_MERGE | BLK_MQ_F_NO_SCHED_BY_DEFAULT;
	set->driver_data = map;
	set->timeout = 30 * HZ;
	ret = blk_mq_alloc_tag_set(set);
	if (ret)
		return ret;
	smp_mb__before_atomic();	/* the tags before RCBLK_M_READY */
	set_bit(RCBLK_M_READY, &map->flags);

	features = rcblk_clt_limits(map, &lim);
	disk = rc_blk_mq_alloc_disk(set, &lim, features, map);
	if (IS_ERR(disk)) {
		ret = PTR_ERR(disk);
		goto out_set;
	}
	map->disk = disk;
	disk->major = rcblk_clt_major;
	disk->first_minor = map->index * RCBLK_CLT_MINORS;
	disk->minors = RCBLK_CLT_MINORS;
	disk->fops = &rcblk_clt_fops;
	disk->private_data = map;
	snprintf(disk->disk_name, sizeof(disk->disk_name), "rcblk%d",
		 map->index);
	set_capacity(disk, map->geo.nr_sectors);
	set_disk_ro(disk, map->ro || (map->geo.export_flags & RCBLK_EXP_RO));

	set_bit(RCBLK_M_LIVE, &map->flags);
	ret = device_add_disk(NULL, disk, rcblk_clt_disk_groups);
	if (ret)
		goto out_disk;
	/* after the disk's ADD: the mapping, then its link's changes */
	rcblk_clt_uevent(map, "mapped", 0);
	rdmachan_reconnect_set_uevent(map->rc, disk_to_dev(disk));
	return 0;

out_disk:
	clear_bit(RCBLK_M_LIVE, &map->flags);
	rcblk_clt_shutdown(map);
	cancel_work_sync(&map->err_work);
	put_disk(disk);
	map->disk = NULL;
out_set:
	clear_bit(RCBLK_M_READY, &map->flags);
	blk_mq_free_tag_set(set);
	return ret;
}

/* The queues and their staging pages, no longer registered */
static void rcblk_clt_free_queues(struct rcblk_clt_map *map)
{
	u32 i;

	for (i = 0; map->queues && i < map->nr_queues; i++)
		rcblk_clt_stage_free(&map->queues[i]);
	kfree(map->queues);
}

static void rcblk_clt_free(struct rcblk_clt_map *map)
{
	ida_free(&rcblk_clt_ida, map->index);
	rcblk_hists_free(map->hist);
	rcblk_clt_free_queues(map);
	kfree(map);
}

/*
 * The policy of a map request: 0 takes the module's default, TMO_OFF
 * means never; rdmachan_reconnect_create() checks the bounds.
 */
static void rcblk_clt_policy(const struct rdmachan_blk_map *m,
			     struct rdmachan_reconnect_policy *p)
{
	u32 loss = m->loss_timeout_ms ?: rcblk_param(clt_loss_timeout_ms);
	u32 fast = m->fast_io_fail_ms ?: rcblk_param(clt_fast_io_fail_ms);

	p->delay_ms = m->reconnect_delay_ms ?: rcblk_param(clt_reconnect_delay_ms);
	p->max_delay_ms = max(p->delay_ms, rcblk_param(clt_reconnect_max_delay_ms));
	p->loss_timeout_ms = loss == RDMACHAN_BLK_TMO_OFF ? 0 : loss;
	p->fast_fail_ms = fast == RDMACHAN_BLK_TMO_OFF ? 0 : fast;
}

/**
 * rcblk_clt_set_policy() - change one figure of a mapping's reconnect
 *	policy (sysfs)
 * @map: the mapping
 * @off: offsetof() the figure in &struct rdmachan_reconnect_policy
 * @ms: its new value (0: never, for the timeouts)
 *
 * A new delay raises the backoff's cap to it at least.  It applies at
 * once, to a recovery under way too.
 *
 * Context: process context.
 * Return: 0, or -EINVAL for a policy out of bounds (logged).
 */
int rcblk_clt_set_policy(struct rcblk_clt_map *map, size_t off, u32 ms)
{
	struct rdmachan_reconnect_policy p;
	int ret;

	mutex_lock(&map->lock);
	p = map->policy;
	*(u32 *)((u8 *)&p + off) = ms;
	if (off == offsetof(struct rdmachan_reconnect_policy, delay_ms))
		p.max_delay_ms = max(p.max_delay_ms, ms);
	ret = rdmachan_reconnect_set_policy(map->rc, &p);
	if (!ret)
		map->policy = p;
	mutex_unlock(&map->lock);
	if (ret)
		pr_warn_ratelimited("rcblk%d: reconnect policy refused: delay %u ms, loss timeout %u ms, fast_io_fail %u ms\n",
				    map->index, p.delay_ms, p.loss_timeout_ms,
				    p.fast_fail_ms);
	return ret;
}

/* Is @ss an address of this host (in the initial namespace)? */
static bool rcblk_addr_local(const struct sockaddr_storage *ss)
{
	const struct sockaddr_in *sin = (const struct sockaddr_in *)ss;

	if (ss->ss_family == AF_INET)
		return inet_addr_type(&init_net, sin->sin_addr.s_addr) ==
		       RTN_LOCAL;
#if IS_ENABLED(CONFIG_IPV6)
	if (ss->ss_family == AF_INET6) {
		const struct sockaddr_in6 *sin6 =
			(const struct sockaddr_in6 *)ss;

		if (ipv6_addr_v4mapped(&sin6->sin6_addr))
			return inet_addr_type(&init_net,
					      sin6->sin6_addr.s6_addr32[3]) ==
			       RTN_LOCAL;
		return ipv6_chk_addr(&init_net, &sin6->sin6_addr, NULL, 0);
	}
#endif
	return false;
}

/**
 * rcblk_clt_map() - map a remote export as /dev/rcblk<index>
 * @m: what to map (checked by the caller: size, flags, name); m->index out
 *
 * Connects m->nr_queues channels (0: one per online CPU) and
 * m->nr_poll_queues more (rcblk_clt_queue_counts(): at most 64 in all),
 * opens the export on each and waits for every OPEN_RSP (timeout_ms
 * each), then adds the disk.  The mapping holds a reference on the
 * module.  A refusal maps to an errno (rcblk_clt_check_open_rsp()) and is
 * logged with the export and the server.
 *
 * Context: process context, sleeps (bounded by timeout_ms per channel).
 * Return: 0, -EINVAL for a bad address or depth, -ENOMEM, -ENODEV when
 * the module is going away, the errno of the connection, the refusal or
 * -EPROTO for a bad answer, -ETIMEDOUT.
 */
int rcblk_clt_map(struct rdmachan_blk_map *m)
{
	struct sockaddr_in6 *sin6 = (struct sockaddr_in6 *)&m->server;
	struct sockaddr_in *sin = (struct sockaddr_in *)&m->server;
	struct rcblk_clt_map *map;
	char rc_name[16];
	u32 nr, poll, depth, i;
	int ret;

	if (sin->sin_family != AF_INET && sin->sin_family != AF_INET6)
		return -EINVAL;
	if (m->src.ss_family != AF_UNSPEC &&
	    m->src.ss_family != sin->sin_family)
		return -EINVAL;
	depth = m->queue_depth ? m->queue_depth : rcblk_param(clt_queue_depth);
	if (depth < 2 || depth > RCBLK_CLT_MAX_DEPTH)
		return -EINVAL;
	nr = rcblk_clt_queue_counts(m->nr_queues, m->nr_poll_queues,
				    num_online_cpus(), nr_cpu_ids,
				    RCBLK_CLT_MAX_QUEUES, &poll);
	if (!try_module_get(THIS_MODULE))
		return -ENODEV;

	ret = -ENOMEM;
	map = kzalloc(sizeof(*map), GFP_KERNEL);
	if (!map)
		goto out_put;
	map->queues = kcalloc(nr, sizeof(*map->queues), GFP_KERNEL);
	if (!map->queues)
		goto out_map;
	for (i = 0; i < nr; i++) {
		spin_lock_init(&map->queues[i].poll_lock);
		init_llist_head(&map->queues[i].zc_ends);
		INIT_WORK(&map->queues[i].zc_work, rcblk_clt_zc_work);
		init_llist_head(&map->queues[i].poll_ends);
		INIT_DELAYED_WORK(&map->queues[i].poll_work,
				  rcblk_clt_poll_work);
	}
	/* without memory for them, the mapping keeps none */
	rcblk_hists_make(map->hist);
	ret = ida_alloc_max(&rcblk_clt_ida, MINORMASK / RCBLK_CLT_MINORS,
			    GFP_KERNEL);
	if (ret < 0)
		goto out_map;
	map->index = ret;
	map->nr_queues = nr;
	map->nr_poll_queues = poll;
	map->queue_depth = depth;
	map->ro = m->flags & RDMACHAN_BLK_RO;
	map->offer = RCBLK_F_KNOWN |
		     (rcblk_param(clt_reply_batch) ? RCBLK_F_REPLY_BATCH : 0) |
		     (rcblk_param(clt_staged_reads) ? RCBLK_F_READ_STAGED : 0);
	memcpy(&map->server, &m->server, sizeof(map->server));
	if (sin->sin_family == AF_INET && !sin->sin_port)
		((struct sockaddr_in *)&map->server)->sin_port =
			htons(RCBLK_DEFAULT_PORT);
	if (sin6->sin6_family == AF_INET6 && !sin6->sin6_port)
		((struct sockaddr_in6 *)&map->server)->sin6_port =
			htons(RCBLK_DEFAULT_PORT);
	map->server_local = rcblk_addr_local(&map->server);
	memcpy(&map->src, &m->src, sizeof(map->src));
	strscpy(map->name, m->name, sizeof(map->name));
	get_random_bytes(map->session, sizeof(map->session));
	map->gen = 1;
	mutex_init(&map->lock);
	mutex_init(&map->qlock);
	mutex_init(&map->ctl_mutex);
	INIT_WORK(&map->err_work, rcblk_clt_err_work);
	INIT_LIST_HEAD(&map->node);
	rcblk_clt_policy(m, &map->policy);
	snprintf(rc_name, sizeof(rc_name), "rcblk%d", map->index);
	map->rc = rdmachan_reconnect_create(rc_name, &map->policy,
					    &rcblk_clt_rc_ops, map);
	if (IS_ERR(map->rc)) {
		ret = PTR_ERR(map->rc);
		pr_err("rcblk%d: reconnect policy refused: delay %u ms (backoff to %u), loss timeout %u ms, fast_io_fail %u ms\n",
		       map->index, map->policy.delay_ms,
		       map->policy.max_delay_ms, map->policy.loss_timeout_ms,
		       map->policy.fast_fail_ms);
		ida_free(&rcblk_clt_ida, map->index);
		goto out_map;
	}

	ret = rcblk_clt_setup(map);
	if (ret) {
		if (!map->disk) {
			rcblk_clt_destroy_pools(map);
			rcblk_clt_close_channels(map);
		}
		rdmachan_reconnect_destroy(map->rc);
		ida_free(&rcblk_clt_ida, map->index);
		goto out_map;
	}
	mutex_lock(&rcblk_clt_mutex);
	list_add_tail(&map->node, &rcblk_clt_maps);
	mutex_unlock(&rcblk_clt_mutex);
	m->index = map->index;
	pr_info("rcblk%d: export %s on %pISpc: %llu sectors of %u bytes, %u queues (%u polled) of %u, max_io %u, inline %u, staging %u pages per queue%s\n",
		map->index, map->name, &map->server, map->geo.nr_sectors,
		map->geo.lbs, map->nr_queues, map->nr_poll_queues,
		map->queue_depth, map->geo.max_io, map->inline_max,
		map->stage_pages,
		get_disk_ro(map->disk) ? ", read-only" : "");
	return 0;

out_map:
	if (map) {
		rcblk_hists_free(map->hist);
		rcblk_clt_free_queues(map);
	}
	kfree(map);
out_put:
	module_put(THIS_MODULE);
	return ret;
}

/**
 * rcblk_clt_loop_check() - would exporting @bdev close a loop?
 * @bdev: a block device about to be exported, or an export's device
 * @session: the session of a mapping that opens that export, or NULL
 *
 * An export whose device is one of this host's mapped disks (a
 * partition of one counts) would, when that disk maps the export
 * itself, send each request back to the disk that waits for it: no
 * request of either would ever end.  With @session: is @bdev the disk
 * of the mapping that opens it with @session (a remap of the disk onto
 * the export it backs)?  Without: is @bdev a disk that this host maps
 * from a server address of its own (exporting it can only serve a
 * loop, or a detour through this host's RDMA device)?
 *
 * Only a disk itself is seen, not one stacked on it (device mapper):
 * such an export's requests still end, at the mapping's request
 * timeout and recovery.
 *
 * Context: process context.
 * Return: true when it would.
 */
bool rcblk_clt_loop_check(struct block_device *bdev, const u8 *session)
{
	struct rcblk_clt_map *map;
	bool loop = false;

	if (bdev->bd_disk->fops != &rcblk_clt_fops)
		return false;
	mutex_lock(&rcblk_clt_mutex);
	list_for_each_entry(map, &rcblk_clt_maps, node) {
		if (map->disk != bdev->bd_disk)
			continue;
		loop = session ?
		       !memcmp(map->session, session, RCBLK_SESSION_LEN) :
		       rcblk_addr_local(&map->server);
		break;
	}
	mutex_unlock(&rcblk_clt_mutex);
	return loop;
}

/* The mapping of /dev/rcblk<@index>, or NULL; rcblk_clt_mutex held */
static struct rcblk_clt_map *rcblk_clt_find_locked(u32 index)
{
	struct rcblk_clt_map *map;

	lockdep_assert_held(&rcblk_clt_mutex);
	list_for_each_entry(map, &rcblk_clt_maps, node)
		if (map->index == index)
			return map;
	return NULL;
}

/**
 * rcblk_clt_unmap() - remove /dev/rcblk<index>
 * @index: the disk's index
 * @flags: RDMACHAN_BLK_FORCE: even while the disk is open
 *
 * Without FORCE an open disk stays (-EBUSY); once begun no new open is
 * allowed, and no reconnect attempt is made.  With FORCE, or while the
 * link is being recovered (there is no link to write back over), the
 * mapping dies first: its channels close, held, on the wire and new I/O
 * fail with BLK_STS_IOERR, then the disk goes.  Bounded: an attempt under
 * way (the connect timeout), rdmachan_close() per channel, del_gendisk()
 * of a disk whose I/O fails fast; never a wait on the server.
 *
 * Context: process context, sleeps.
 * Return: 0, -ENOENT for no such mapping, -EBUSY when open without FORCE.
 */
int rcblk_clt_unmap(u32 index, u32 flags)
{
	struct rcblk_clt_map *map;
	struct gendisk *disk;
	bool force = flags & RDMACHAN_BLK_FORCE;

	mutex_lock(&rcblk_clt_mutex);
	map = rcblk_clt_find_locked(index);
	if (!map) {
		mutex_unlock(&rcblk_clt_mutex);
		return -ENOENT;
	}
	disk = map->disk;
	mutex_lock(&disk->open_mutex);
	if (disk_openers(disk) && !force) {
		mutex_unlock(&disk->open_mutex);
		mutex_unlock(&rcblk_clt_mutex);
		return -EBUSY;
	}
	map->removing = true;
	mutex_unlock(&disk->open_mutex);
	list_del_init(&map->node);
	mutex_unlock(&rcblk_clt_mutex);

	pr_info("rcblk%d: unmapping export %s on %pISpc%s\n", map->index,
		map->name, &map->server, force ? " (forced)" : "");
	/* a loss from now on kills (rcblk_clt_err_work()); no attempt runs */
	set_bit(RCBLK_M_UNMAPPING, &map->flags);
	smp_mb__after_atomic();	/* the flag before the loop's stop */
	/* a remap under way ends first (its attempt: the connect timeout) */
	mutex_lock(&map->ctl_mutex);
	mutex_unlock(&map->ctl_mutex);
	rdmachan_reconnect_stop(map->rc);
	flush_work(&map->err_work);
	/* the last events go before the disk's REMOVE */
	rdmachan_reconnect_set_uevent(map->rc, NULL);
	rcblk_clt_uevent(map, "unmapped", 0);
	rdmachan_uevent_flush();
	if (force || test_bit(RCBLK_M_RECOVERING, &map->flags) ||
	    test_bit(RCBLK_M_DEAD, &map->flags)) {
		set_bit(RCBLK_M_DEAD, &map->flags);
		blk_mark_disk_dead(disk);
		rcblk_clt_shutdown(map);
	}
	del_gendisk(disk);
	set_bit(RCBLK_M_DELETED, &map->flags);
	rcblk_clt_shutdown(map);
	cancel_work_sync(&map->err_work);
	put_disk(disk);
	blk_mq_free_tag_set(&map->tag_set);
	rdmachan_reconnect_destroy(map->rc);
	rcblk_clt_free(map);
	module_put(THIS_MODULE);
	return 0;
}

/**
 * rcblk_clt_remap() - open a dead mapping again, onto the same disk
 * @index: the disk's index
 *
 * A mapping that gave up (loss timeout, forced unexport on the server)
 * keeps its disk, so that what has it open (a mounted filesystem) can go
 * on once the export is back.  Remap makes one attempt at once, as the
 * reconnect loop would (rcblk_clt_attempt(): the same export, identity
 * and size, no smaller channels): on success the mapping is live and a
 * later loss reconnects with a fresh deadline; on failure it stays dead
 * and the attempt's errno is returned.  I/O that comes meanwhile waits
 * for the outcome.  RNBD's remap_device is the model; nvme-rdma has none
 * (a controller gone after ctrl_loss_tmo is removed with its namespaces).
 *
 * Context: process context, sleeps: bounded by the connect and open of
 * each queue (the connect timeout).
 * Return: 0; -ENOENT for no such mapping; -EALREADY when it is live;
 * -EBUSY while it reconnects by itself; the attempt's errno (e.g.
 * -ECONNREFUSED, -ETIMEDOUT, -ESTALE for another export).
 */
int rcblk_clt_remap(u32 index)
{
	struct rcblk_clt_map *map;
	int ret;

	mutex_lock(&rcblk_clt_mutex);
	map = rcblk_clt_find_locked(index);
	if (!map) {
		mutex_unlock(&rcblk_clt_mutex);
		return -ENOENT;
	}
	/* unmap takes ctl_mutex after the list: @map outlives this call */
	mutex_lock(&map->ctl_mutex);
	mutex_unlock(&rcblk_clt_mutex);

	if (!test_bit(RCBLK_M_DEAD, &map->flags)) {
		ret = test_bit(RCBLK_M_RECOVERING, &map->flags) ? -EBUSY :
								  -EALREADY;
		pr_info("rcblk%d: remap refused: the mapping is %s\n",
			map->index, ret == -EBUSY ? "reconnecting" : "live");
		goto out;
	}
	/* a death's teardown is over, no attempt of the loop comes */
	flush_work(&map->err_work);
	rdmachan_reconnect_stop(map->rc);
	pr_info("rcblk%d: remapping export %s on %pISpc\n", map->index,
		map->name, &map->server);

	mutex_lock(&map->lock);
	rcblk_clt_quiesce(map);
	/* held, not failed, from here: recovering, as after a loss */
	set_bit(RCBLK_M_RECOVERING, &map->flags);
	clear_bit(RCBLK_M_FAILFAST, &map->flags);
	clear_bit(RCBLK_M_CLOSED, &map->flags);
	clear_bit(RCBLK_M_DEAD, &map->flags);
	mutex_unlock(&map->lock);
	/* live for the loop first: a loss right after the attempt reconnects */
	rdmachan_reconnect_restart(map->rc);
	ret = rcblk_clt_attempt(map);
	if (ret) {
		rdmachan_reconnect_stop(map->rc);
		mutex_lock(&map->lock);
		set_bit(RCBLK_M_DEAD, &map->flags);
		rcblk_clt_unquiesce(map);
		mutex_unlock(&map->lock);
		pr_err("rcblk%d: remap of export %s on %pISpc failed (%pe): the mapping stays dead\n",
		       map->index, map->name, &map->server, ERR_PTR(ret));
	}
	rcblk_clt_uevent(map, "remap", ret);
out:
	mutex_unlock(&map->ctl_mutex);
	return ret;
}

/**
 * rcblk_clt_state() - a mapping's state as the tool and sysfs show it
 * @map: the mapping
 * @rci: out: the reconnect loop's figures
 *
 * Context: any.
 * Return: enum rdmachan_blk_map_state.
 */
u32 rcblk_clt_state(struct rcblk_clt_map *map,
		    struct rdmachan_reconnect_info *rci)
{
	rdmachan_reconnect_get_info(map->rc, rci);
	/*
	 * Recovering, but the loss not yet handed to the loop (err_work):
	 * the count is the last loss's, and no attempt of this one was made
	 */
	if (rci->state == RDMACHAN_LINK_LIVE)
		rci->attempt = 0;
	if (test_bit(RCBLK_M_DEAD, &map->flags))
		return RDMACHAN_BLK_DEAD;
	if (test_bit(RCBLK_M_RECOVERING, &map->flags))
		return RDMACHAN_BLK_RECONNECTING;
	return RDMACHAN_BLK_LIVE;
}

static u32 rcblk_clt_ms32(u64 ms)
{
	return min_t(u64, ms, U32_MAX);
}

static void rcblk_clt_info(struct rcblk_clt_map *map,
			   struct rdmachan_blk_map_info *e)
{
	struct rcblk_clt_stats *st = &map->st;
	struct rdmachan_reconnect_info rci;

	memset(e, 0, sizeof(*e));
	e->index = map->index;
	e->flags = map->ro ? RDMACHAN_BLK_RO : 0;
	e->state = rcblk_clt_state(map, &rci);
	if (e->state != RDMACHAN_BLK_LIVE) {
		e->attempt = rci.attempt;
		e->max_attempts = rci.max_attempts;
		e->down_ms = rcblk_clt_ms32(rci.down_ms);
	}
	if (e->state == RDMACHAN_BLK_RECONNECTING) {
		e->next_ms = rcblk_clt_ms32(rci.next_ms);
		e->deadline_ms = rcblk_clt_ms32(rci.deadline_ms);
	}
	e->losses = rci.losses;
	e->last_error = READ_ONCE(map->last_error);
	memcpy(&e->server, &map->server, sizeof(e->server));
	strscpy(e->name, map->name, sizeof(e->name));
	e->nr_queues = map->nr_queues - map->nr_poll_queues;
	e->nr_poll_queues = map->nr_poll_queues;
	e->queue_depth = map->queue_depth;
	e->nr_sectors = map->geo.nr_sectors;
	e->lbs = map->geo.lbs;
	e->pbs = map->geo.pbs;
	e->max_io = map->geo.max_io;
	e->inline_max = map->inline_max;
	e->openers = disk_openers(map->disk);
	e->c.reads = atomic64_read(&st->reads);
	e->c.writes = atomic64_read(&st->writes);
	e->c.read_bytes = atomic64_read(&st->read_bytes);
	e->c.write_bytes = atomic64_read(&st->write_bytes);
	e->c.flushes = atomic64_read(&st->flushes);
	e->c.fua = atomic64_read(&st->fua);
	e->c.discards = atomic64_read(&st->discards);
	e->c.write_zeroes = atomic64_read(&st->write_zeroes);
	e->c.inline_writes = atomic64_read(&st->inline_writes);
	e->c.errors = atomic64_read(&st->errors);
	e->c.rejected = atomic64_read(&st->rejected);
	e->c.inflight = atomic_read(&st->inflight);
}

/*
 * Describe at most @room mappings into @info (room for @room entries);
 * return how many mappings there are.  rcblk_clt_mutex held.
 */
static u32 rcblk_clt_snapshot(void *buf, u32 room)
{
	struct rdmachan_blk_map_info *info = buf;
	struct rcblk_clt_map *map;
	u32 n = 0;

	lockdep_assert_held(&rcblk_clt_mutex);
	list_for_each_entry(map, &rcblk_clt_maps, node) {
		if (n < room)
			rcblk_clt_info(map, &info[n]);
		n++;
	}
	return n;
}

/**
 * rcblk_clt_list() - describe the mappings
 * @entries: user array of @room entries
 * @room: its entries
 * @count: out: the mappings there are (may exceed @room)
 *
 * Described into kernel memory under rcblk_clt_mutex, copied out
 * without it (rcblk_list_out()): a stalled user buffer holds up no map
 * or unmap.
 *
 * Context: process context, sleeps.
 * Return: 0, -ENOMEM or -EFAULT.
 */
int rcblk_clt_list(struct rdmachan_blk_map_info __user *entries, u32 room,
		   u32 *count)
{
	return rcblk_list_out(entries, room, count, sizeof(*entries),
			      &rcblk_clt_mutex, rcblk_clt_snapshot);
}

/**
 * rcblk_clt_init() - the client side's load
 *
 * Context: process context (module init).
 * Return: 0 or the errno of register_blkdev().
 */
int rcblk_clt_init(void)
{
	int ret;

	/* block I/O waits for the recovery's hold: it must run under reclaim */
	rcblk_clt_wq = alloc_workqueue("rcblk_clt", WQ_MEM_RECLAIM, 0);
	if (!rcblk_clt_wq)
		return -ENOMEM;
	ret = register_blkdev(0, "rcblk");
	if (ret < 0) {
		destroy_workqueue(rcblk_clt_wq);
		return ret;
	}
	rcblk_clt_major = ret;
	return 0;
}

/**
 * rcblk_clt_exit() - the client side's unload; no mapping is left (each
 *	holds a module reference)
 *
 * Context: process context (module exit).
 */
void rcblk_clt_exit(void)
{
	WARN_ON(!list_empty(&rcblk_clt_maps));
	unregister_blkdev(rcblk_clt_major, "rcblk");
	destroy_workqueue(rcblk_clt_wq);
	ida_destroy(&rcblk_clt_ida);
}

