// SPDX-License-Identifier: GPL-2.0-only
/*
 * rdmachan_blk client: mappings
 *
 * rcblk_clt_map() connects one channel per hardware queue to the server,
 * opens the export on each (OPEN / OPEN_RSP, the same session id on
 * every channel), checks that every queue saw the same export, then
 * builds a blk-mq tag set and the disk /dev/rcblk<index>.
 * rcblk_clt_unmap() undoes that; with RDMACHAN_BLK_FORCE even while the
 * disk is open, failing its I/O.  A failed channel kills its mapping
 * (rcblk_clt_fail()): I/O fails from then on, until it is unmapped
 * (reconnection is a later issue).
 *
 * Teardown order (rcblk_clt_shutdown()): stop dispatch (quiesce); end
 * the requests still on the wire, each after the local invalidation of
 * its registration (from then on the peer cannot reach its pages);
 * destroy the pools (which waits for those invalidations), then close
 * the channels (rdmachan_close() wants the pools gone first); let
 * dispatch run again (it fails fast).
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/blkdev.h>
#include <linux/cpumask.h>
#include <linux/idr.h>
#include <linux/inet.h>
#include <linux/module.h>
#include <linux/moduleparam.h>
#include <linux/random.h>
#include <linux/sizes.h>
#include <linux/slab.h>
#include <linux/uaccess.h>

#include "blk_clt.h"

#define RCBLK_CLT_MINORS	16
#define RCBLK_CLT_MAX_QUEUES	64
#define RCBLK_CLT_MAX_DEPTH	4096
#define RCBLK_CLT_MAX_IO	SZ_1M
#define RCBLK_CLT_MAX_INLINE_KB	64

/* clt_: the server side has its own queue_depth, inline_kb */
static unsigned int queue_depth = 128;
module_param_named(clt_queue_depth, queue_depth, uint, 0644);
MODULE_PARM_DESC(clt_queue_depth,
		 "client: requests per hardware queue when the map does not say (2..4096, default 128)");

static unsigned int inline_kb = 4;
module_param_named(clt_inline_kb, inline_kb, uint, 0644);
MODULE_PARM_DESC(clt_inline_kb,
		 "client: WRITEs up to this many KiB travel inside the request (0..64, default 4)");

unsigned int rcblk_clt_timeout_ms = 10000;
module_param_named(clt_timeout_ms, rcblk_clt_timeout_ms, uint, 0644);
MODULE_PARM_DESC(clt_timeout_ms,
		 "client: bound on connecting and on the server's OPEN_RSP, per channel (100..600000, default 10000)");

static int rcblk_clt_major;
static DEFINE_IDA(rcblk_clt_ida);
static DEFINE_MUTEX(rcblk_clt_mutex);	/* rcblk_clt_maps */
static LIST_HEAD(rcblk_clt_maps);

static u32 rcblk_clt_timeout(void)
{
	return clamp(READ_ONCE(rcblk_clt_timeout_ms), 100U, 600000U);
}

static int rcblk_clt_open(struct block_device *bdev, fmode_t mode)
{
	struct rcblk_clt_map *map = bdev->bd_disk->private_data;

	/* disk->open_mutex is held: rcblk_clt_unmap() sets removing under it */
	if (map->removing)
		return -ENXIO;
	return 0;
}

static const struct block_device_operations rcblk_clt_fops = {
	.owner	= THIS_MODULE,
	.open	= rcblk_clt_open,
};

static void rcblk_clt_fail_work(struct work_struct *work)
{
	struct rcblk_clt_map *map = container_of(work, struct rcblk_clt_map,
						 fail_work);

	rcblk_clt_shutdown(map);
}

/**
 * rcblk_clt_fail() - a channel of @map failed, or a request timed out
 * @map: the mapping
 * @err: why, a negative errno
 *
 * Marks a live mapping dead once and queues its teardown: new I/O fails
 * at once, the requests on the wire fail when the channels are closed.
 * Before the disk exists only @err is kept.
 *
 * Context: any.
 */
void rcblk_clt_fail(struct rcblk_clt_map *map, int err)
{
	WRITE_ONCE(map->last_error, err);
	if (!test_bit(RCBLK_M_LIVE, &map->flags) ||
	    test_and_set_bit(RCBLK_M_DEAD, &map->flags))
		return;
	pr_err("rcblk%d: export %s on %pISpc failed (%d): mapping dead, I/O fails until it is unmapped\n",
	       map->index, map->name, &map->server, err);
	schedule_work(&map->fail_work);
}

static void rcblk_clt_close_channels(struct rcblk_clt_map *map)
{
	u32 i;

	for (i = 0; i < map->nr_queues; i++) {
		if (map->queues[i].ch) {
			rdmachan_close(map->queues[i].ch);
			map->queues[i].ch = NULL;
		}
	}
}

static void rcblk_clt_destroy_pools(struct rcblk_clt_map *map)
{
	u32 i;

	for (i = 0; i < map->nr_queues; i++) {
		if (map->queues[i].pool) {
			rdmachan_mr_pool_destroy(map->queues[i].pool);
			map->queues[i].pool = NULL;
		}
	}
}

static bool rcblk_clt_on_wire(struct request *rq, void *data)
{
	struct rcblk_clt_req *req = blk_mq_rq_to_pdu(rq);
	bool *any = data;

	if (atomic_read(&req->state) != RCBLK_RQ_SENT)
		return true;
	*any = true;
	return false;
}

/*
 * Stop every channel's I/O at once (disconnect, drain, QP destroyed): on
 * return the server's RDMA can reach no request's pages, whatever the
 * provider's local invalidation does (soft-RoCE's may complete while its
 * responder still copies a WRITE).  nvme-rdma stops its queues so before
 * cancelling.
 */
static void rcblk_clt_stop_channels(struct rcblk_clt_map *map)
{
	u32 i;

	for (i = 0; i < map->nr_queues; i++)
		if (map->queues[i].ch)
			rdmachan_shutdown(map->queues[i].ch);
}

/**
 * rcblk_clt_shutdown() - close a mapping's channels, end its requests
 * @map: a mapping with a disk
 *
 * Idempotent.  Dispatch is quiesced while the channels close, so no
 * queue_rq uses a channel being freed.  With requests still on the wire
 * (a failure, a forced unmap) the channels are stopped first, then those
 * requests end with BLK_STS_IOERR: the server can no longer reach their
 * pages.  Without any (an unmap of an idle disk) each channel closes in
 * order.  Dispatch resumes and fails fast.  Bounded by the drains (the
 * transport's retry time) and rdmachan_close() per channel.
 *
 * Context: process context, sleeps.
 */
void rcblk_clt_shutdown(struct rcblk_clt_map *map)
{
	struct request_queue *q = map->disk->queue;
	bool on_wire = false;

	mutex_lock(&map->lock);
	if (test_bit(RCBLK_M_CLOSED, &map->flags)) {
		mutex_unlock(&map->lock);
		return;
	}
	set_bit(RCBLK_M_DEAD, &map->flags);
	blk_mq_quiesce_queue(q);
	blk_mq_tagset_busy_iter(&map->tag_set, rcblk_clt_on_wire, &on_wire);
	if (on_wire)
		rcblk_clt_stop_channels(map);
	rcblk_clt_cancel_all(map);
	rcblk_clt_destroy_pools(map);
	set_bit(RCBLK_M_CLOSED, &map->flags);
	rcblk_clt_end_all(map);
	rcblk_clt_close_channels(map);
	blk_mq_unquiesce_queue(q);
	blk_mq_kick_requeue_list(q);
	mutex_unlock(&map->lock);
}

static int rcblk_clt_connect(struct rcblk_clt_map *map, u16 qid)
{
	struct rcblk_clt_queue *q = &map->queues[qid];
	struct rdmachan_opts opts = {
		.queue_depth	= map->queue_depth,
		.max_msg_size	= sizeof(struct rcblk_wire_io) +
				  min(READ_ONCE(inline_kb),
				      RCBLK_CLT_MAX_INLINE_KB) * 1024,
		.timeout_ms	= rcblk_clt_timeout(),
		.poll_mode	= RDMACHAN_POLL_SOFTIRQ,
		.max_send_regs	= 1,
	};
	struct sockaddr *src = map->src.ss_family == AF_UNSPEC ? NULL :
			       (struct sockaddr *)&map->src;
	int ret;

	q->map = map;
	q->qid = qid;
	init_completion(&q->open_done);
	/* at least the OPEN and the OPEN_RSP fit */
	opts.max_msg_size = max_t(u32, opts.max_msg_size,
				  sizeof(struct rcblk_wire_open));
	ret = rdmachan_connect((struct sockaddr *)&map->server, src, &opts,
			       &rcblk_clt_chan_ops, q, &q->ch);
	if (ret) {
		q->ch = NULL;
		pr_err("rcblk%d: connecting queue %u to %pISpc for export %s: %d\n",
		       map->index, qid, &map->server, map->name, ret);
	}
	return ret;
}

static int rcblk_clt_open_queue(struct rcblk_clt_map *map, u16 qid,
				u32 max_io, struct rcblk_clt_geo *geo)
{
	struct rcblk_clt_queue *q = &map->queues[qid];
	struct rcblk_wire_open o;
	struct kvec v = { .iov_base = &o, .iov_len = sizeof(o) };
	const char *why;
	long left;
	int ret;

	rcblk_clt_encode_open(&o, map->ro ? RCBLK_OPEN_RO : 0, RCBLK_F_KNOWN,
			      max_io, qid, map->nr_queues, map->session,
			      map->name);
	ret = rdmachan_send(q->ch, &v, 1, 0, RDMACHAN_SEND_NONBLOCK);
	if (ret) {
		pr_err("rcblk%d: sending OPEN of %s to %pISpc: %d\n",
		       map->index, map->name, &map->server, ret);
		return ret;
	}
	left = msecs_to_jiffies(rcblk_clt_timeout());
	left = wait_for_completion_killable_timeout(&q->open_done, left);
	if (left < 0)
		return left;
	if (!left) {
		pr_err("rcblk%d: no OPEN_RSP for %s from %pISpc in %u ms\n",
		       map->index, map->name, &map->server,
		       rcblk_clt_timeout());
		return -ETIMEDOUT;
	}
	if (!q->open_len) {
		ret = q->open_err ? q->open_err : -ECONNRESET;
		pr_err("rcblk%d: channel to %pISpc closed before OPEN_RSP of %s: %d\n",
		       map->index, &map->server, map->name, ret);
		return ret;
	}
	ret = rcblk_clt_check_open_rsp(&q->rsp, q->open_len, RCBLK_F_KNOWN,
				       max_io, geo, &why);
	if (ret == -EPROTO)
		pr_err("rcblk%d: bad OPEN_RSP for %s from %pISpc: %s\n",
		       map->index, map->name, &map->server, why);
	else if (ret)
		pr_err("rcblk%d: %pISpc refused export %s: %d\n",
		       map->index, &map->server, map->name, ret);
	return ret;
}

static void rcblk_clt_limits(struct rcblk_clt_map *map)
{
	struct request_queue *q = map->disk->queue;
	const struct rcblk_clt_geo *g = &map->geo;
	bool cache = g->export_flags & RCBLK_EXP_WRITE_CACHE;
	bool fua = cache && (g->export_flags & RCBLK_EXP_FUA) &&
		   (g->features & RCBLK_F_FUA);

	blk_queue_logical_block_size(q, g->lbs);
	blk_queue_physical_block_size(q, g->pbs);
	blk_queue_io_min(q, g->pbs);
	blk_queue_max_hw_sectors(q, g->max_io >> SECTOR_SHIFT);
	/* one registration per request: no gaps between pages */
	blk_queue_virt_boundary(q, PAGE_SIZE - 1);
	blk_queue_max_segments(q, map->max_segs);
	if (g->max_discard_sectors) {
		blk_queue_max_discard_sectors(q, g->max_discard_sectors);
		q->limits.discard_granularity = g->discard_granularity;
	}
	if (g->max_write_zeroes_sectors)
		blk_queue_max_write_zeroes_sectors(q,
						   g->max_write_zeroes_sectors);
	/*
	 * Without a volatile cache blk-flush drops FLUSH and PREFLUSH; with
	 * one but no FUA it follows a FUA write with a FLUSH.
	 */
	blk_queue_write_cache(q, cache, fua);
	if (g->export_flags & RCBLK_EXP_ROTATIONAL)
		blk_queue_flag_clear(QUEUE_FLAG_NONROT, q);
	else
		blk_queue_flag_set(QUEUE_FLAG_NONROT, q);
}

static int rcblk_clt_make_disk(struct rcblk_clt_map *map)
{
	struct blk_mq_tag_set *set = &map->tag_set;
	struct gendisk *disk;
	int ret;

	set->ops = &rcblk_clt_mq_ops;
	set->nr_hw_queues = map->nr_queues;
	set->queue_depth = map->queue_depth;
	set->numa_node = NUMA_NO_NODE;
	set->cmd_size = sizeof(struct rcblk_clt_req);
	set->flags = BLK_MQ_F_SHOULD_MERGE;
	set->driver_data = map;
	set->timeout = 30 * HZ;
	ret = blk_mq_alloc_tag_set(set);
	if (ret)
		return ret;
	smp_mb__before_atomic();	/* the tags before RCBLK_M_READY */
	set_bit(RCBLK_M_READY, &map->flags);

	disk = blk_mq_alloc_disk(set, map);
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
	rcblk_clt_limits(map);
	set_capacity(disk, map->geo.nr_sectors);
	set_disk_ro(disk, map->ro || (map->geo.export_flags & RCBLK_EXP_RO));

	set_bit(RCBLK_M_LIVE, &map->flags);
	ret = device_add_disk(NULL, disk, rcblk_clt_disk_groups);
	if (ret)
		goto out_disk;
	return 0;

out_disk:
	clear_bit(RCBLK_M_LIVE, &map->flags);
	rcblk_clt_shutdown(map);
	cancel_work_sync(&map->fail_work);
	put_disk(disk);
	map->disk = NULL;
out_set:
	clear_bit(RCBLK_M_READY, &map->flags);
	blk_mq_free_tag_set(set);
	return ret;
}

static void rcblk_clt_free(struct rcblk_clt_map *map)
{
	ida_free(&rcblk_clt_ida, map->index);
	kfree(map->queues);
	kfree(map);
}

static int rcblk_clt_setup(struct rcblk_clt_map *map)
{
	struct rcblk_clt_geo geo;
	u32 i, pages = U32_MAX, depth = U32_MAX, msg = U32_MAX, max_io;
	int ret;

	for (i = 0; i < map->nr_queues; i++) {
		ret = rcblk_clt_connect(map, i);
		if (ret)
			return ret;
		pages = min(pages, rdmachan_max_reg_pages(map->queues[i].ch));
		depth = min(depth, rdmachan_queue_depth(map->queues[i].ch));
		msg = min(msg, rdmachan_max_msg_size(map->queues[i].ch));
	}
	pages = min_t(u32, pages, RCBLK_CLT_MAX_IO / PAGE_SIZE + 1);
	if (pages < 2 || depth < 2 || depth > U16_MAX ||
	    msg < sizeof(struct rcblk_wire_open)) {
		pr_err("rcblk%d: channels to %pISpc too small: %u pages per registration, depth %u, messages of %u bytes\n",
		       map->index, &map->server, pages, depth, msg);
		return -EOPNOTSUPP;
	}
	max_io = (pages - 1) * PAGE_SIZE;

	for (i = 0; i < map->nr_queues; i++) {
		ret = rcblk_clt_open_queue(map, i, max_io,
					   i ? &geo : &map->geo);
		if (ret)
			return ret;
		if (i && !rcblk_clt_geo_same(&geo, &map->geo)) {
			pr_err("rcblk%d: queue %u of %s on %pISpc answered another export or geometry\n",
			       map->index, i, map->name, &map->server);
			return -EPROTO;
		}
	}
	if (!map->ro && (map->geo.export_flags & RCBLK_EXP_RO))
		pr_info("rcblk%d: export %s is read-only\n", map->index,
			map->name);

	map->queue_depth = depth;
	map->max_pages = pages;
	map->max_segs = pages - 1;
	map->inline_max = min3(map->geo.inline_max,
			       min(READ_ONCE(inline_kb),
				   RCBLK_CLT_MAX_INLINE_KB) * 1024,
			       msg - (u32)sizeof(struct rcblk_wire_io));
	map->inline_max = min(map->inline_max, map->geo.max_io);
	for (i = 0; i < map->nr_queues; i++) {
		ret = rdmachan_mr_pool_create(map->queues[i].ch, depth, pages,
					      &map->queues[i].pool);
		if (ret) {
			map->queues[i].pool = NULL;
			pr_err("rcblk%d: registration pool of %u x %u pages: %d\n",
			       map->index, depth, pages, ret);
			return ret;
		}
	}
	return rcblk_clt_make_disk(map);
}

/**
 * rcblk_clt_map() - map a remote export as /dev/rcblk<index>
 * @m: what to map (checked by the caller: size, flags, name); m->index out
 *
 * Connects m->nr_queues channels (0: one per online CPU; at most 64),
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
	u32 nr, depth;
	int ret;

	if (sin->sin_family != AF_INET && sin->sin_family != AF_INET6)
		return -EINVAL;
	if (m->src.ss_family != AF_UNSPEC &&
	    m->src.ss_family != sin->sin_family)
		return -EINVAL;
	depth = m->queue_depth ? m->queue_depth : READ_ONCE(queue_depth);
	if (depth < 2 || depth > RCBLK_CLT_MAX_DEPTH)
		return -EINVAL;
	nr = m->nr_queues ? m->nr_queues : num_online_cpus();
	nr = min3(nr, (u32)nr_cpu_ids, (u32)RCBLK_CLT_MAX_QUEUES);
	if (!try_module_get(THIS_MODULE))
		return -ENODEV;

	ret = -ENOMEM;
	map = kzalloc(sizeof(*map), GFP_KERNEL);
	if (!map)
		goto out_put;
	map->queues = kcalloc(nr, sizeof(*map->queues), GFP_KERNEL);
	if (!map->queues)
		goto out_map;
	ret = ida_alloc_max(&rcblk_clt_ida, MINORMASK / RCBLK_CLT_MINORS,
			    GFP_KERNEL);
	if (ret < 0)
		goto out_map;
	map->index = ret;
	map->nr_queues = nr;
	map->queue_depth = depth;
	map->ro = m->flags & RDMACHAN_BLK_RO;
	memcpy(&map->server, &m->server, sizeof(map->server));
	if (sin->sin_family == AF_INET && !sin->sin_port)
		((struct sockaddr_in *)&map->server)->sin_port =
			htons(RCBLK_DEFAULT_PORT);
	if (sin6->sin6_family == AF_INET6 && !sin6->sin6_port)
		((struct sockaddr_in6 *)&map->server)->sin6_port =
			htons(RCBLK_DEFAULT_PORT);
	memcpy(&map->src, &m->src, sizeof(map->src));
	strscpy(map->name, m->name, sizeof(map->name));
	get_random_bytes(map->session, sizeof(map->session));
	mutex_init(&map->lock);
	INIT_WORK(&map->fail_work, rcblk_clt_fail_work);
	INIT_LIST_HEAD(&map->node);

	ret = rcblk_clt_setup(map);
	if (ret) {
		if (!map->disk) {
			rcblk_clt_destroy_pools(map);
			rcblk_clt_close_channels(map);
		}
		ida_free(&rcblk_clt_ida, map->index);
		goto out_map;
	}
	mutex_lock(&rcblk_clt_mutex);
	list_add_tail(&map->node, &rcblk_clt_maps);
	mutex_unlock(&rcblk_clt_mutex);
	m->index = map->index;
	pr_info("rcblk%d: export %s on %pISpc: %llu sectors of %u bytes, %u queues of %u, max_io %u, inline %u%s\n",
		map->index, map->name, &map->server, map->geo.nr_sectors,
		map->geo.lbs, map->nr_queues, map->queue_depth,
		map->geo.max_io, map->inline_max,
		get_disk_ro(map->disk) ? ", read-only" : "");
	return 0;

out_map:
	if (map)
		kfree(map->queues);
	kfree(map);
out_put:
	module_put(THIS_MODULE);
	return ret;
}

/**
 * rcblk_clt_unmap() - remove /dev/rcblk<index>
 * @index: the disk's index
 * @flags: RDMACHAN_BLK_FORCE: even while the disk is open
 *
 * Without FORCE an open disk stays (-EBUSY); once begun no new open is
 * allowed.  With FORCE the mapping dies first: its channels close, I/O
 * on the wire and new I/O fail with BLK_STS_IOERR, then the disk goes.
 * Bounded: rdmachan_close() per channel, del_gendisk() of a disk whose
 * I/O fails fast.
 *
 * Context: process context, sleeps.
 * Return: 0, -ENOENT for no such mapping, -EBUSY when open without FORCE.
 */
int rcblk_clt_unmap(u32 index, u32 flags)
{
	struct rcblk_clt_map *map = NULL, *it;
	struct gendisk *disk;
	bool force = flags & RDMACHAN_BLK_FORCE;

	mutex_lock(&rcblk_clt_mutex);
	list_for_each_entry(it, &rcblk_clt_maps, node) {
		if (it->index == index) {
			map = it;
			break;
		}
	}
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
	if (force) {
		set_bit(RCBLK_M_DEAD, &map->flags);
		blk_mark_disk_dead(disk);
		rcblk_clt_shutdown(map);
	}
	del_gendisk(disk);
	rcblk_clt_shutdown(map);
	cancel_work_sync(&map->fail_work);
	put_disk(disk);
	blk_mq_free_tag_set(&map->tag_set);
	rcblk_clt_free(map);
	module_put(THIS_MODULE);
	return 0;
}

static void rcblk_clt_info(struct rcblk_clt_map *map,
			   struct rdmachan_blk_map_info *e)
{
	struct rcblk_clt_stats *st = &map->st;

	memset(e, 0, sizeof(*e));
	e->index = map->index;
	e->flags = map->ro ? RDMACHAN_BLK_RO : 0;
	e->state = test_bit(RCBLK_M_DEAD, &map->flags) ? RDMACHAN_BLK_DEAD :
							 RDMACHAN_BLK_LIVE;
	e->last_error = READ_ONCE(map->last_error);
	memcpy(&e->server, &map->server, sizeof(e->server));
	strscpy(e->name, map->name, sizeof(e->name));
	e->nr_queues = map->nr_queues;
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

/**
 * rcblk_clt_list() - describe the mappings
 * @entries: user array of @room entries
 * @room: its entries
 * @count: out: the mappings there are (may exceed @room)
 *
 * Context: process context, sleeps.
 * Return: 0, -ENOMEM or -EFAULT.
 */
int rcblk_clt_list(struct rdmachan_blk_map_info __user *entries, u32 room,
		   u32 *count)
{
	struct rdmachan_blk_map_info *e;
	struct rcblk_clt_map *map;
	u32 n = 0;
	int ret = 0;

	e = kmalloc(sizeof(*e), GFP_KERNEL);
	if (!e)
		return -ENOMEM;
	mutex_lock(&rcblk_clt_mutex);
	list_for_each_entry(map, &rcblk_clt_maps, node) {
		if (n < room) {
			rcblk_clt_info(map, e);
			if (copy_to_user(&entries[n], e, sizeof(*e))) {
				ret = -EFAULT;
				break;
			}
		}
		n++;
	}
	mutex_unlock(&rcblk_clt_mutex);
	kfree(e);
	*count = n;
	return ret;
}

/**
 * rcblk_clt_init() - the client side's load
 *
 * Context: process context (module init).
 * Return: 0 or the errno of register_blkdev().
 */
int rcblk_clt_init(void)
{
	int ret = register_blkdev(0, "rcblk");

	if (ret < 0)
		return ret;
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
	ida_destroy(&rcblk_clt_ida);
}
