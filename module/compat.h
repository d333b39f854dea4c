/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * rdmachan: the one place that knows that kernels differ.
 *
 * Every kernel interface rdmachan uses that changed between Linux 6.1
 * and the kernels it is built for has one form here, and the rest of
 * the code calls that form and nothing else: no #if on a kernel version
 * anywhere.  Which form a kernel has is decided by the feature probes of
 * module/compat/probes/, compiled against the target tree before the
 * modules (module/compat/Kbuild); their results are the RDMACHAN_HAVE_*
 * macros of the generated compat/rdmachan_have.h.  The probe list and
 * what kernel change each one detects are in
 * Documentation/admin-guide.rst, "Supported kernels".
 *
 * Names: a kernel interface that was only renamed keeps its new name,
 * defined here for the kernels before the rename; one whose arguments
 * or semantics changed gets an rc_ wrapper.  Where a newer kernel
 * changed a default (a queue is non-rotational unless it says so), the
 * wrapper sets the setting explicitly, so that rdmachan behaves the same
 * on every kernel.
 */
#ifndef RDMACHAN_COMPAT_H
#define RDMACHAN_COMPAT_H

#include <linux/blk-mq.h>
#include <linux/blkdev.h>
#include <linux/fs.h>
#include <linux/timer.h>

#include "compat/rdmachan_have.h"

#ifdef RDMACHAN_HAVE_LINUX_UNALIGNED_H
#include <linux/unaligned.h>
#else
#include <asm/unaligned.h>
#endif

#ifdef RDMACHAN_HAVE_PAGE_POOL_HELPERS_H
#include <net/page_pool/helpers.h>
#else
#include <net/page_pool.h>
#endif

#ifdef RDMACHAN_HAVE_NAPI_PP_PUT_PAGE_NETMEM
#include <linux/skbuff_ref.h>
#include <net/netmem.h>
#endif

/* --- timers ----------------------------------------------------------- */

#ifndef RDMACHAN_HAVE_TIMER_DELETE_SYNC
#define timer_delete_sync(timer)	del_timer_sync(timer)
#endif

#ifndef RDMACHAN_HAVE_TIMER_CONTAINER_OF
#define timer_container_of(var, timer, field)	from_timer(var, timer, field)
#endif

/* --- page pool -------------------------------------------------------- */

/**
 * rc_page_pool_put_page() - give a page back to the page pool it came from
 * @page: any page (any page of a compound page)
 *
 * Only where CONFIG_PAGE_POOL is set.
 *
 * Context: process or softirq context with interrupts on.
 * Return: true if @page belonged to a page pool and went back to it;
 * false if it did not (the caller still holds its reference).
 */
static inline bool rc_page_pool_put_page(struct page *page)
{
#ifdef RDMACHAN_HAVE_NAPI_PP_PUT_PAGE_NETMEM
	return napi_pp_put_page(page_to_netmem(page));
#else
	return page_pool_return_skb_page(page);
#endif
}

/* --- rtnl_link_ops.newlink -------------------------------------------- */

/*
 * RC_DEFINE_NEWLINK(prefix) defines prefix_newlink(), an
 * rtnl_link_ops.newlink of this kernel's form, which calls
 * int prefix_newlink_dev(struct net_device *dev, struct nlattr *tb[],
 *			  struct nlattr *data[],
 *			  struct netlink_ext_ack *extack).
 */
#ifdef RDMACHAN_HAVE_RTNL_NEWLINK_PARAMS
#define RC_DEFINE_NEWLINK(prefix)					\
static int prefix##_newlink(struct net_device *dev,			\
		struct rtnl_newlink_params *params,			\
		struct netlink_ext_ack *extack)				\
{									\
	return prefix##_newlink_dev(dev, params->tb, params->data,	\
				    extack);				\
}
#else
#define RC_DEFINE_NEWLINK(prefix)					\
static int prefix##_newlink(struct net *src_net, struct net_device *dev, \
		struct nlattr *tb[], struct nlattr *data[],		\
		struct netlink_ext_ack *extack)				\
{									\
	return prefix##_newlink_dev(dev, tb, data, extack);		\
}
#endif

/* --- block: the disk side --------------------------------------------- */

#ifndef RDMACHAN_HAVE_BLK_MQ_F_SHOULD_MERGE
/* merging is what every queue does, and the flag is gone */
#define BLK_MQ_F_SHOULD_MERGE	0
#endif

/*
 * RC_DEFINE_BDOPS_OPEN(prefix) defines prefix_open(), a
 * block_device_operations.open of this kernel's form, which calls
 * int prefix_open_disk(struct gendisk *disk).
 */
#ifdef RDMACHAN_HAVE_BDOPS_OPEN_GENDISK
#define RC_DEFINE_BDOPS_OPEN(prefix)					\
static int prefix##_open(struct gendisk *disk, blk_mode_t mode)		\
{									\
	return prefix##_open_disk(disk);				\
}
#else
#define RC_DEFINE_BDOPS_OPEN(prefix)					\
static int prefix##_open(struct block_device *bdev, fmode_t mode)	\
{									\
	return prefix##_open_disk(bdev->bd_disk);			\
}
#endif

/**
 * rc_blk_rq_map_sg() - map a request to a scatterlist
 * @rq: the request
 * @sgl: room for the request's segments
 *
 * Return: the number of entries of @sgl used.
 */
static inline int rc_blk_rq_map_sg(struct request *rq,
				   struct scatterlist *sgl)
{
#ifdef RDMACHAN_HAVE_BLK_RQ_MAP_SG_RQ
	return blk_rq_map_sg(rq, sgl);
#else
	return blk_rq_map_sg(rq->q, rq, sgl);
#endif
}

/* the queue features of rc_blk_mq_alloc_disk() */
#define RC_BLK_WRITE_CACHE	BIT(0)	/* a volatile write cache: flushes */
#define RC_BLK_FUA		BIT(1)	/* forced unit access writes */
#define RC_BLK_ROTATIONAL	BIT(2)	/* rotational (not the default) */

#ifndef RDMACHAN_HAVE_BLK_MQ_ALLOC_DISK_LIM
/*
 * Apply the limits rdmachan sets (and only those) through the setters
 * that came before struct queue_limits was handed to the allocation, in
 * the order the setters expect: the block sizes first (they raise
 * io_min and round max_hw_sectors), the discard granularity last.
 */
static inline void rc_blk_apply_limits(struct request_queue *q,
				       const struct queue_limits *lim)
{
	blk_queue_logical_block_size(q, lim->logical_block_size);
	blk_queue_physical_block_size(q, lim->physical_block_size);
	blk_queue_io_min(q, lim->io_min);
	blk_queue_max_hw_sectors(q, lim->max_hw_sectors);
	blk_queue_virt_boundary(q, lim->virt_boundary_mask);
	blk_queue_max_segments(q, lim->max_segments);
	if (lim->max_hw_discard_sectors) {
		blk_queue_max_discard_sectors(q, lim->max_hw_discard_sectors);
		q->limits.discard_granularity = lim->discard_granularity;
	}
	if (lim->max_write_zeroes_sectors)
		blk_queue_max_write_zeroes_sectors(q,
						   lim->max_write_zeroes_sectors);
}
#endif

/**
 * rc_blk_mq_alloc_disk() - a blk-mq disk with its limits and features
 * @set: the tag set
 * @lim: the limits: the block sizes, io_min, max_hw_sectors,
 *	virt_boundary_mask, max_segments, max_hw_discard_sectors with
 *	discard_granularity, max_write_zeroes_sectors; the rest zero
 *	(the kernel's defaults)
 * @features: RC_BLK_WRITE_CACHE, RC_BLK_FUA, RC_BLK_ROTATIONAL
 * @queuedata: the queue's queuedata
 *
 * Every feature is set or cleared explicitly, whatever the kernel's
 * default (a queue was rotational by default before Linux 6.11 and is
 * non-rotational since).
 *
 * Context: process context, sleeps.
 * Return: the disk, or an ERR_PTR().
 */
static inline struct gendisk *
rc_blk_mq_alloc_disk(struct blk_mq_tag_set *set, struct queue_limits *lim,
		     unsigned int features, void *queuedata)
{
	struct gendisk *disk;

#ifdef RDMACHAN_HAVE_BLK_FEAT
	lim->features &= ~(BLK_FEAT_WRITE_CACHE | BLK_FEAT_FUA |
			   BLK_FEAT_ROTATIONAL);
	if (features & RC_BLK_WRITE_CACHE)
		lim->features |= BLK_FEAT_WRITE_CACHE;
	if (features & RC_BLK_FUA)
		lim->features |= BLK_FEAT_FUA;
	if (features & RC_BLK_ROTATIONAL)
		lim->features |= BLK_FEAT_ROTATIONAL;
#endif
#ifdef RDMACHAN_HAVE_BLK_MQ_ALLOC_DISK_LIM
	disk = blk_mq_alloc_disk(set, lim, queuedata);
	if (IS_ERR(disk))
		return disk;
#else
	disk = blk_mq_alloc_disk(set, queuedata);
	if (IS_ERR(disk))
		return disk;
	rc_blk_apply_limits(disk->queue, lim);
#endif
#ifndef RDMACHAN_HAVE_BLK_FEAT
	blk_queue_write_cache(disk->queue, features & RC_BLK_WRITE_CACHE,
			      features & RC_BLK_FUA);
	if (features & RC_BLK_ROTATIONAL)
		blk_queue_flag_clear(QUEUE_FLAG_NONROT, disk->queue);
	else
		blk_queue_flag_set(QUEUE_FLAG_NONROT, disk->queue);
#endif
	return disk;
}

/* --- block: opening a device ------------------------------------------ */

/* An open block device: rc_bdev_open(), rc_bdev_close() */
struct rc_bdev {
	struct block_device *bdev;
#ifdef RDMACHAN_HAVE_BDEV_FILE_OPEN_BY_PATH
	struct file *file;
#else
	fmode_t mode;
#endif
};

/**
 * rc_bdev_open() - open a block device by its path
 * @b: filled in on success; @b->bdev is the device
 * @path: the device's path
 * @write: read-write, else read-only
 * @holder: non-NULL: an exclusive open held by @holder (another
 *	exclusive open with another holder fails with -EBUSY)
 *
 * Context: process context, sleeps.
 * Return: 0; -EACCES for a write open of a read-only device; the error
 * of the open (-ENOENT, -ENOTBLK, -EBUSY, ...).
 */
static inline int rc_bdev_open(struct rc_bdev *b, const char *path,
			       bool write, void *holder)
{
#ifdef RDMACHAN_HAVE_BDEV_FILE_OPEN_BY_PATH
	blk_mode_t mode = BLK_OPEN_READ | (write ? BLK_OPEN_WRITE : 0);
	struct file *file;

	file = bdev_file_open_by_path(path, mode, holder, NULL);
	if (IS_ERR(file))
		return PTR_ERR(file);
	b->file = file;
	b->bdev = file_bdev(file);
#else
	fmode_t mode = FMODE_READ | (write ? FMODE_WRITE : 0) |
		       (holder ? FMODE_EXCL : 0);
	struct block_device *bdev;

	bdev = blkdev_get_by_path(path, mode, holder);
	if (IS_ERR(bdev))
		return PTR_ERR(bdev);
	b->mode = mode;
	b->bdev = bdev;
#endif
	return 0;
}

/**
 * rc_bdev_close() - close a block device rc_bdev_open() opened
 * @b: the device
 *
 * An exclusive claim ends before this returns, so that the device can
 * be opened exclusively again at once, from any context.
 *
 * Context: process context, sleeps.
 */
static inline void rc_bdev_close(struct rc_bdev *b)
{
#if defined(RDMACHAN_HAVE_BDEV_FPUT)
	bdev_fput(b->file);
#elif defined(RDMACHAN_HAVE_BDEV_FILE_OPEN_BY_PATH)
#error "bdev_file_open_by_path() without bdev_fput(): unsupported (6.9-rc1, -rc2)"
#else
	blkdev_put(b->bdev, b->mode);
#endif
	b->bdev = NULL;
}

#endif /* RDMACHAN_COMPAT_H */
