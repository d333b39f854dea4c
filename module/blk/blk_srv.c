// SPDX-License-Identifier: GPL-2.0-only
/*
 * rdmachan_blk server: exports, the listener, queues and their OPEN
 *
 * An export opens a local block device exclusively and lets the clients
 * its allow list admits map it.  The listener ([::]:port, IPv4 clients
 * too; from load to unload) accepts every channel; a channel is a queue of a client
 * session and must open with OPEN, which names the export: the answer
 * OPEN_RSP carries the geometry, or the reason of the refusal (the
 * channel is then closed).  Requests are served by blk_srv_io.c.
 *
 * Locking: rcblk_srv_mutex guards the export list, the queue list and
 * the listener; an export's @lock its queues and sessions; a queue's
 * @lock its slot lists.  Order: rcblk_srv_mutex, then an export's lock;
 * a queue's lock is never held with another.
 *
 * A queue's teardown (rcblk_srv_close_work(), in this order):
 *  1. RCBLK_Q_DEAD under its lock: the receive callback starts no
 *     OPEN, io_work makes no channel call once the runs in progress
 *     (waited for) are over;
 *  2. open_work and io_work waited for;
 *  3. parked messages released (before the channel's close), the
 *     registrations of slots without RDMA in flight undone;
 *  4. rdmachan_close(): no callback after it; every RDMA started has
 *     ended (flushed), its slot freed by io_work;
 *  5. detached from its export (session count, wakes an unexport);
 *  6. off the queue list, the channel's reference put.  Bios in flight
 *     hold the rest; the last put frees slots and pages from a work item
 *     (rcblk_srv_release_work()).
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/blkdev.h>
#include <linux/ctype.h>
#include <linux/delay.h>
#include <linux/in.h>
#include <linux/in6.h>
#include <linux/module.h>
#include <linux/moduleparam.h>
#include <linux/slab.h>
#include <linux/string.h>
#include <linux/uaccess.h>
#include <linux/wait_bit.h>

#include "blk_srv.h"

/*
 * port: the TCP-style port of the listener (rdma_cm), read at load.
 */
static ushort port = RCBLK_DEFAULT_PORT;
module_param(port, ushort, 0444);
MODULE_PARM_DESC(port, "rdma_cm port the server listens on, [::]:port for IPv6 and IPv4 (default 7471)");

/*
 * exports: exports made at load, before any client can connect:
 * "NAME=PATH[,ro][,stable_id][,allow=CIDR[+CIDR...]][;NAME=PATH...]", for example
 * "disk0=/dev/nullb0,ro,allow=192.0.2.0/24+10.0.0.1;disk1=/dev/ram0".
 * Each is checked like RDMACHAN_IOC_BLK_EXPORT; a bad one makes the
 * load fail.  An export without allow= admits no client.
 */
static char *exports;
module_param(exports, charp, 0444);
MODULE_PARM_DESC(exports, "exports made at load: NAME=PATH[,ro][,stable_id][,allow=CIDR[+CIDR...]] separated by ';'");

/*
 * max_io_kb: largest request the server takes (and its slot size), at
 * most 1024 (a bio of BIO_MAX_VECS pages); a channel's registration
 * limit lowers it further.  Read at each OPEN.
 */
unsigned int rcblk_srv_max_io_kb = 128;
module_param_named(max_io_kb, rcblk_srv_max_io_kb, uint, 0644);
MODULE_PARM_DESC(max_io_kb, "largest request in KiB, 4..1024 (default 128)");

/*
 * inline_kb: WRITEs up to this size travel inside the request message;
 * the listener's max_msg_size is 32 + inline_kb KiB.  0..64, read when
 * the listener starts (at load).
 */
unsigned int rcblk_srv_inline_kb = 4;
module_param_named(inline_kb, rcblk_srv_inline_kb, uint, 0444);
MODULE_PARM_DESC(inline_kb, "largest inline WRITE in KiB, 0..64 (default 4), read at load");

/*
 * queue_depth: requests per queue the server offers (the channel's
 * credits, negotiated down to the client's): each costs a slot of
 * max_io bytes.  1..1024, read when the listener starts.
 */
static unsigned int queue_depth = 64;
module_param(queue_depth, uint, 0444);
MODULE_PARM_DESC(queue_depth, "requests per queue at most, 1..1024 (default 64), read at load");

/*
 * open_timeout_ms: a channel accepted must bring its OPEN within this
 * time, or it is closed (a client that connects and says nothing holds
 * a channel's buffers for nothing).  1000..600000, default 10000; read
 * at each accept.
 */
static unsigned int open_timeout_ms = 10000;

static int rcblk_srv_set_open_timeout(const char *val,
				      const struct kernel_param *kp)
{
	unsigned int v;
	int ret = kstrtouint(val, 0, &v);

	if (ret)
		return ret;
	if (v < 1000 || v > 600000) {
		pr_warn("open_timeout_ms=%u refused: 1000..600000\n", v);
		return -ERANGE;
	}
	WRITE_ONCE(open_timeout_ms, v);
	return 0;
}

static const struct kernel_param_ops rcblk_srv_open_timeout_ops = {
	.set	= rcblk_srv_set_open_timeout,
	.get	= param_get_uint,
};
module_param_cb(open_timeout_ms, &rcblk_srv_open_timeout_ops,
		&open_timeout_ms, 0644);
MODULE_PARM_DESC(open_timeout_ms, "time a new channel has to send its OPEN, 1000..600000 ms (default 10000)");

/* Listener restarts after it failed (device removal): tries, interval */
#define RCBLK_LISTEN_TRIES	30
#define RCBLK_LISTEN_DELAY_MS	2000
/* Bound of an unexport's waits: queues closing, bios in flight */
#define RCBLK_UNEXPORT_WAIT_MS	30000
/*
 * How long an unexport without force waits for the sessions of an export
 * to end before it refuses (-EBUSY): a client's unmap returns once its
 * own end of the channels is closed, and the server learns of it only
 * after (the disconnect, then the queues' close work), so that an unmap
 * followed at once by an unexport (one host, or a script driving both)
 * would otherwise find the session still there.
 */
#define RCBLK_UNEXPORT_GRACE_MS	3000

/*
 * Two workqueues: io_work runs on rcblk_srv_wq (WQ_MEM_RECLAIM: it
 * submits bios); open, close, release and the listener's restart on
 * rcblk_srv_ctl_wq, without a rescuer, so that a close may wait for an
 * open (flush_work()) of the same queue.
 */
struct workqueue_struct *rcblk_srv_wq;
struct workqueue_struct *rcblk_srv_ctl_wq;
/* guards the export list, the listener and the exports directory */
DEFINE_MUTEX(rcblk_srv_mutex);
LIST_HEAD(rcblk_srv_exports);
/* every queue, for unload; under rcblk_srv_qlock (listener callbacks) */
static LIST_HEAD(rcblk_srv_queues);
static DEFINE_SPINLOCK(rcblk_srv_qlock);
static atomic_t rcblk_srv_nr_queues = ATOMIC_INIT(0);
static struct rdmachan_listener *rcblk_srv_listener;
static unsigned int rcblk_srv_listen_tries;
static bool rcblk_srv_stopping;
static void rcblk_srv_listen_work(struct work_struct *work);
static DECLARE_DELAYED_WORK(rcblk_srv_listen_dwork, rcblk_srv_listen_work);

/**
 * rcblk_srv_count() - add to an export's counter
 * @exp: the export
 * @c: which
 * @v: how much (may be negative: inflight)
 *
 * Context: any.
 */
void rcblk_srv_count(struct rcblk_export *exp, enum rcblk_srv_counter c,
		     s64 v)
{
	atomic64_add(v, &exp->c[c]);
}

/**
 * rcblk_srv_counters() - read an export's counters
 * @exp: the export
 * @c: out: the counters
 *
 * Context: any.
 */
void rcblk_srv_counters(struct rcblk_export *exp,
			struct rdmachan_blk_counters *c)
{
	u64 *v = (u64 *)c;
	int i;

	BUILD_BUG_ON(sizeof(*c) != RCBLK_C_NR * sizeof(u64));
	for (i = 0; i < RCBLK_C_NR; i++)
		v[i] = atomic64_read(&exp->c[i]);
}

/**
 * rcblk_srv_find() - an export by name
 * @name: its name
 *
 * Context: process context, rcblk_srv_mutex held.
 * Return: the export, or NULL.
 */
struct rcblk_export *rcblk_srv_find(const char *name)
{
	struct rcblk_export *exp;

	lockdep_assert_held(&rcblk_srv_mutex);
	list_for_each_entry(exp, &rcblk_srv_exports, node)
		if (!strcmp(exp->name, name))
			return exp;
	return NULL;
}

/* The geometry of @exp from its device (RO exports offer no writes) */
static void rcblk_srv_geometry(struct rcblk_export *exp)
{
	struct block_device *bdev = exp->bdev;
	struct rcblk_open_geo *g = &exp->geo;
	bool ro = exp->flags & RDMACHAN_BLK_RO;

	g->nr_sectors = bdev_nr_sectors(bdev);
	g->lbs = bdev_logical_block_size(bdev);
	g->pbs = bdev_physical_block_size(bdev);
	if (!ro) {
		/* a request's len is 32 bits: at most 1 GiB at once */
		g->max_discard_sectors = min(bdev_max_discard_sectors(bdev),
					     1U << 21);
		g->discard_granularity = g->max_discard_sectors ?
					 bdev_discard_granularity(bdev) : 0;
		g->max_write_zeroes_sectors =
			min(bdev_write_zeroes_sectors(bdev), 1U << 21);
	}
	g->export_flags = 0;
	if (ro)
		g->export_flags |= RCBLK_EXP_RO;
	if (!bdev_nonrot(bdev))
		g->export_flags |= RCBLK_EXP_ROTATIONAL;
	if (bdev_write_cache(bdev))
		g->export_flags |= RCBLK_EXP_WRITE_CACHE;
	if (bdev_fua(bdev))
		g->export_flags |= RCBLK_EXP_FUA;
	memcpy(g->export_id, exp->export_id, sizeof(g->export_id));
}

/**
 * rcblk_srv_export() - export a block device
 * @e: the request, its strings terminated (checked by the caller)
 *
 * Opens @e->path exclusively (read-only with RDMACHAN_BLK_RO), gives
 * the export its id (rcblk_export_id()), publishes it under
 * ctl/exports/NAME and takes a module reference (rmmod is refused while
 * exports exist).
 *
 * Context: process context, sleeps.
 * Return: 0; -EINVAL (name, allow list); -EEXIST (name taken); -EROFS
 * (read-write export of a read-only device); -ELOOP (the device is a
 * disk this host maps from itself: rcblk_clt_loop_check()); -EAGAIN (the module is
 * still loading); -ENODEV (it is unloading); the error of blkdev_get_by_path() (-ENOENT,
 * -ENOTBLK, -EBUSY when held by someone else) or of sysfs.
 */
int rcblk_srv_export(const struct rdmachan_blk_export *e)
{
	struct rcblk_export *exp;
	struct block_device *bdev;
	u32 i;
	int ret;

	if (!rcblk_name_ok(e->name, sizeof(e->name)) ||
	    e->nr_allow > RDMACHAN_BLK_MAX_ALLOW)
		return -EINVAL;
	for (i = 0; i < e->nr_allow; i++)
		if (rcblk_cidr_check(&e->allow[i]))
			return -EINVAL;
	/* a taken name is EEXIST, even if the device is busy too */
	mutex_lock(&rcblk_srv_mutex);
	exp = rcblk_srv_find(e->name);
	mutex_unlock(&rcblk_srv_mutex);
	if (exp)
		return -EEXIST;
	exp = kzalloc(sizeof(*exp), GFP_KERNEL);
	if (!exp)
		return -ENOMEM;
	strscpy(exp->name, e->name, sizeof(exp->name));
	strscpy(exp->path, e->path, sizeof(exp->path));
	exp->flags = e->flags & (RDMACHAN_BLK_RO | RDMACHAN_BLK_STABLE_ID);
	exp->nr_allow = e->nr_allow;
	memcpy(exp->allow, e->allow, e->nr_allow * sizeof(e->allow[0]));
	spin_lock_init(&exp->lock);
	INIT_LIST_HEAD(&exp->queues);
	INIT_LIST_HEAD(&exp->sessions);
	INIT_LIST_HEAD(&exp->node);
	exp->mode = FMODE_READ | FMODE_EXCL;
	if (!(exp->flags & RDMACHAN_BLK_RO))
		exp->mode |= FMODE_WRITE;

	bdev = blkdev_get_by_path(exp->path, exp->mode, exp);
	if (IS_ERR(bdev)) {
		ret = PTR_ERR(bdev);
		pr_info_ratelimited("export %s: cannot open %s: %d\n",
				    exp->name, exp->path, ret);
		kfree(exp);
		return ret;
	}
	exp->bdev = bdev;
	ret = -EROFS;
	if (!(exp->flags & RDMACHAN_BLK_RO) && bdev_read_only(bdev))
		goto out_put;
	ret = -ELOOP;
	if (rcblk_clt_loop_check(bdev, NULL)) {
		pr_info_ratelimited("export %s: %s is a disk this host maps from itself: refused (a loop)\n",
				    exp->name, exp->path);
		goto out_put;
	}
	rcblk_srv_geometry(exp);
	rcblk_export_id(exp->name, bdev->bd_dev, bdev->bd_disk->diskseq,
			exp->geo.nr_sectors,
			exp->flags & RDMACHAN_BLK_STABLE_ID, exp->export_id);

	mutex_lock(&rcblk_srv_mutex);
	ret = -ENODEV;
	if (rcblk_srv_stopping)		/* unloading */
		goto out_unlock;
	ret = -EEXIST;
	if (rcblk_srv_find(exp->name))
		goto out_unlock;
	ret = rcblk_srv_sysfs_add(exp);	/* kobject initialized, even failing */
	if (ret) {
		mutex_unlock(&rcblk_srv_mutex);
		blkdev_put(bdev, exp->mode);
		kobject_put(&exp->kobj);
		return ret;
	}
	__module_get(THIS_MODULE);
	spin_lock(&rcblk_srv_exp_lock);
	list_add_tail(&exp->node, &rcblk_srv_exports);
	spin_unlock(&rcblk_srv_exp_lock);
	mutex_unlock(&rcblk_srv_mutex);
	pr_info("exported %s (%s%s%s, %llu sectors, %u allowed networks)\n",
		exp->name, exp->path,
		exp->flags & RDMACHAN_BLK_RO ? ", read-only" : "",
		exp->flags & RDMACHAN_BLK_STABLE_ID ? ", stable id" : "",
		exp->geo.nr_sectors, exp->nr_allow);
	return 0;

out_unlock:
	mutex_unlock(&rcblk_srv_mutex);
out_put:
	blkdev_put(bdev, exp->mode);
	kfree(exp);
	return ret;
}

/**
 * rcblk_srv_unexport() - stop exporting
 * @name: the export
 * @flags: RDMACHAN_BLK_FORCE: even while clients have it mapped
 *
 * Without RDMACHAN_BLK_FORCE an export with sessions stays (-EBUSY),
 * after a grace of RCBLK_UNEXPORT_GRACE_MS for sessions that are ending
 * (a client that has just unmapped).
 * Forced: the export is marked gone (new requests get RCBLK_S_GONE, new
 * OPENs RCBLK_OPEN_BUSY), its queues' channels are closed, the bios in
 * flight end (their completions only free their slots); then the device
 * is released.  Both waits are bounded (RCBLK_UNEXPORT_WAIT_MS each):
 * a device whose bios never end is released anyway, with a warning.
 *
 * Context: process context, sleeps.
 * Return: 0, -ENOENT, -EBUSY.
 */
int rcblk_srv_unexport(const char *name, u32 flags)
{
	struct rcblk_srv_queue *q;
	struct rcblk_export *exp;
	unsigned long tmo = msecs_to_jiffies(RCBLK_UNEXPORT_WAIT_MS);
	bool waited = false;

again:
	mutex_lock(&rcblk_srv_mutex);
	exp = rcblk_srv_find(name);
	if (!exp) {
		mutex_unlock(&rcblk_srv_mutex);
		return -ENOENT;
	}
	spin_lock(&exp->lock);
	if (exp->nr_sessions && !(flags & RDMACHAN_BLK_FORCE)) {
		spin_unlock(&exp->lock);
		if (waited) {
			mutex_unlock(&rcblk_srv_mutex);
			return -EBUSY;
		}
		/*
		 * Sessions that are ending detach within the grace (their
		 * detach wakes nr_queues); the export may be unexported by
		 * another caller meanwhile, so it is looked up again.
		 */
		kobject_get(&exp->kobj);
		mutex_unlock(&rcblk_srv_mutex);
		wait_var_event_timeout(&exp->nr_queues,
				       !READ_ONCE(exp->nr_sessions),
				       msecs_to_jiffies(RCBLK_UNEXPORT_GRACE_MS));
		kobject_put(&exp->kobj);
		waited = true;
		goto again;
	}
	WRITE_ONCE(exp->gone, true);
	list_for_each_entry(q, &exp->queues, exp_node)
		rcblk_srv_queue_close(q);
	spin_unlock(&exp->lock);
	spin_lock(&rcblk_srv_exp_lock);
	list_del_init(&exp->node);
	spin_unlock(&rcblk_srv_exp_lock);
	mutex_unlock(&rcblk_srv_mutex);

	if (!wait_var_event_timeout(&exp->nr_queues,
				    !READ_ONCE(exp->nr_queues), tmo))
		pr_warn("unexport %s: queues still closing after %u ms\n",
			exp->name, RCBLK_UNEXPORT_WAIT_MS);
	if (!wait_var_event_timeout(&exp->bios, !atomic_read(&exp->bios),
				    tmo))
		pr_warn("unexport %s: %d bios still in flight after %u ms: releasing %s anyway\n",
			exp->name, atomic_read(&exp->bios),
			RCBLK_UNEXPORT_WAIT_MS, exp->path);
	rcblk_srv_sysfs_del(exp);
	blkdev_put(exp->bdev, exp->mode);
	pr_info("unexported %s%s\n", exp->name,
		flags & RDMACHAN_BLK_FORCE ? " (forced)" : "");
	kobject_put(&exp->kobj);	/* the list's */
	module_put(THIS_MODULE);
	return 0;
}

/**
 * rcblk_srv_list() - describe the exports
 * @entries: user array
 * @room: its entries
 * @count: out: exports there are (more than copied when @room is short)
 *
 * Context: process context, sleeps.
 * Return: 0 or -EFAULT.
 */
int rcblk_srv_list(struct rdmachan_blk_export_info __user *entries,
		   u32 room, u32 *count)
{
	struct rdmachan_blk_export_info *info;
	struct rcblk_export *exp;
	u32 n = 0;
	int ret = 0;

	info = kmalloc(sizeof(*info), GFP_KERNEL);
	if (!info)
		return -ENOMEM;
	mutex_lock(&rcblk_srv_mutex);
	list_for_each_entry(exp, &rcblk_srv_exports, node) {
		if (n < room) {
			memset(info, 0, sizeof(*info));
			strscpy(info->name, exp->name, sizeof(info->name));
			strscpy(info->path, exp->path, sizeof(info->path));
			info->flags = exp->flags;
			info->nr_allow = exp->nr_allow;
			memcpy(info->allow, exp->allow, sizeof(info->allow));
			info->nr_sectors = exp->geo.nr_sectors;
			info->lbs = exp->geo.lbs;
			spin_lock(&exp->lock);
			info->sessions = exp->nr_sessions;
			info->channels = exp->nr_queues;
			spin_unlock(&exp->lock);
			rcblk_srv_counters(exp, &info->c);
			if (copy_to_user(&entries[n], info, sizeof(*info))) {
				ret = -EFAULT;
				break;
			}
		}
		n++;
	}
	mutex_unlock(&rcblk_srv_mutex);
	kfree(info);
	*count = n;
	return ret;
}

/* Add one allow entry from text; -EINVAL or -E2BIG */
static int rcblk_srv_add_allow(struct rdmachan_blk_export *e, const char *s,
			       size_t len)
{
	if (e->nr_allow >= RDMACHAN_BLK_MAX_ALLOW)
		return -E2BIG;
	if (rcblk_cidr_parse(s, len, &e->allow[e->nr_allow]))
		return -EINVAL;
	e->nr_allow++;
	return 0;
}

/* The allow= value @v: entries separated by any of @seps */
static int rcblk_srv_parse_allow(struct rdmachan_blk_export *e, char *v,
				 const char *seps)
{
	char *tok;
	int ret;

	while ((tok = strsep(&v, seps))) {
		if (!*tok)
			return -EINVAL;
		ret = rcblk_srv_add_allow(e, tok, strlen(tok));
		if (ret)
			return ret;
	}
	return 0;
}

/* An option of an export's text: "ro", "stable_id" or "allow=..." */
static int rcblk_srv_parse_opt(struct rdmachan_blk_export *e, char *opt,
			       const char *seps)
{
	if (!strcmp(opt, "ro")) {
		e->flags |= RDMACHAN_BLK_RO;
		return 0;
	}
	if (!strcmp(opt, "stable_id")) {
		e->flags |= RDMACHAN_BLK_STABLE_ID;
		return 0;
	}
	if (!strncmp(opt, "allow=", 6))
		return rcblk_srv_parse_allow(e, opt + 6, seps);
	return -EINVAL;
}

static int rcblk_srv_set_str(char *dst, size_t room, const char *src)
{
	if (!*src || strscpy(dst, src, room) < 0)
		return -EINVAL;
	return 0;
}

/**
 * rcblk_srv_export_text() - export from text
 * @buf: the text
 * @len: its length
 * @param: the syntax of the exports parameter (one entry,
 *	"NAME=PATH[,ro][,stable_id][,allow=CIDR[+CIDR...]]"), else that of the sysfs
 *	file export ("NAME PATH [ro] [stable_id] [allow=CIDR[,CIDR...]]", whitespace
 *	separated, allow= may repeat)
 *
 * Context: process context, sleeps.
 * Return: what rcblk_srv_export() returns; -EINVAL for bad text, -E2BIG
 * for more than RDMACHAN_BLK_MAX_ALLOW networks.
 */
int rcblk_srv_export_text(const char *buf, size_t len, bool param)
{
	struct rdmachan_blk_export *e;
	char *text, *p, *tok, *path;
	int ret = -EINVAL;

	e = kzalloc(sizeof(*e), GFP_KERNEL);
	text = kmemdup_nul(buf, len, GFP_KERNEL);
	if (!e || !text) {
		ret = -ENOMEM;
		goto out;
	}
	e->size = sizeof(*e);
	p = strim(text);
	if (param) {
		tok = strsep(&p, ",");
		path = strchr(tok, '=');
		if (!path)
			goto out;
		*path++ = '\0';
		if (rcblk_srv_set_str(e->name, sizeof(e->name), tok) ||
		    rcblk_srv_set_str(e->path, sizeof(e->path), path))
			goto out;
		while ((tok = strsep(&p, ","))) {
			ret = rcblk_srv_parse_opt(e, tok, "+");
			if (ret)
				goto out;
		}
	} else {
		tok = strsep(&p, " \t\n");
		if (!tok || rcblk_srv_set_str(e->name, sizeof(e->name), tok))
			goto out;
		p = p ? skip_spaces(p) : NULL;
		tok = p ? strsep(&p, " \t\n") : NULL;
		if (!tok || rcblk_srv_set_str(e->path, sizeof(e->path), tok))
			goto out;
		while (p && *(p = skip_spaces(p))) {
			tok = strsep(&p, " \t\n");
			ret = rcblk_srv_parse_opt(e, tok, ",");
			if (ret)
				goto out;
		}
	}
	ret = rcblk_srv_export(e);
out:
	kfree(text);
	kfree(e);
	return ret;
}

/* ---- queues ---- */

/**
 * rcblk_srv_queue_close() - start a queue's teardown (once)
 * @q: the queue
 *
 * Context: any.
 */
void rcblk_srv_queue_close(struct rcblk_srv_queue *q)
{
	if (!test_and_set_bit(RCBLK_Q_CLOSING, &q->flags))
		queue_work(rcblk_srv_ctl_wq, &q->close_work);
}

static void rcblk_srv_queue_free(struct rcblk_srv_queue *q)
{
	kfree(q);
	if (atomic_dec_and_test(&rcblk_srv_nr_queues))
		wake_up_var(&rcblk_srv_nr_queues);
}

static void rcblk_srv_release(struct kref *ref)
{
	struct rcblk_srv_queue *q = container_of(ref, struct rcblk_srv_queue,
						 ref);

	queue_work(rcblk_srv_ctl_wq, &q->release_work);
}

/**
 * rcblk_srv_queue_put() - put a queue reference
 * @q: the queue
 *
 * Context: any.
 */
void rcblk_srv_queue_put(struct rcblk_srv_queue *q)
{
	kref_put(&q->ref, rcblk_srv_release);
}

/* The last reference is gone: every bio ended, the channel closed */
static void rcblk_srv_release_work(struct work_struct *work)
{
	struct rcblk_srv_queue *q = container_of(work, struct rcblk_srv_queue,
						 release_work);

	del_timer_sync(&q->open_timer);
	cancel_work_sync(&q->io_work);
	rcblk_srv_slots_free(q);
	if (q->exp)
		kobject_put(&q->exp->kobj);
	rcblk_srv_queue_free(q);
}

/* Detach @q from its export: its session count, the unexport's wait */
static void rcblk_srv_detach(struct rcblk_srv_queue *q)
{
	struct rcblk_export *exp = q->exp;
	struct rcblk_srv_sess *sess = q->sess;

	if (!test_and_clear_bit(RCBLK_Q_ATTACHED, &q->flags))
		return;
	spin_lock(&exp->lock);
	list_del_init(&q->exp_node);
	if (!--sess->nr_queues) {
		list_del(&sess->node);
		WRITE_ONCE(exp->nr_sessions, exp->nr_sessions - 1);
	} else {
		sess = NULL;
	}
	WRITE_ONCE(exp->nr_queues, exp->nr_queues - 1);
	spin_unlock(&exp->lock);
	kfree(sess);
	wake_up_var(&exp->nr_queues);
}

/* The teardown of a queue: see the head comment for the order */
static void rcblk_srv_close_work(struct work_struct *work)
{
	struct rcblk_srv_queue *q = container_of(work, struct rcblk_srv_queue,
						 close_work);

	spin_lock_irq(&q->lock);
	set_bit(RCBLK_Q_DEAD, &q->flags);
	spin_unlock_irq(&q->lock);
	del_timer_sync(&q->open_timer);
	flush_work(&q->open_work);
	flush_work(&q->io_work);
	rcblk_srv_drain(q);
	rcblk_srv_unreg(q);
	/*
	 * A forced unexport: the client gives the mapping up on this notice
	 * instead of reconnecting (rdmachan_close() flushes it first).
	 */
	if (q->ch && q->exp && READ_ONCE(q->exp->gone) &&
	    rdmachan_send(q->ch, NULL, 0,
			  rcblk_reply_imm(RCBLK_TAG_NOTICE, RCBLK_S_GONE),
			  RDMACHAN_SEND_IMM | RDMACHAN_SEND_NONBLOCK))
		pr_info_ratelimited("%s: queue %p: the export-gone notice could not be sent\n",
				    q->exp->name, q);
	if (q->ch)
		rdmachan_close(q->ch);
	/* RDMA ends flushed by the close queued io_work: free those slots */
	flush_work(&q->io_work);
	rcblk_srv_detach(q);
	spin_lock(&rcblk_srv_qlock);
	list_del_init(&q->node);
	spin_unlock(&rcblk_srv_qlock);
	rcblk_srv_queue_put(q);		/* the channel's */
}

/* Send OPEN_RSP; on a refusal, close the queue after it */
static void rcblk_srv_open_answer(struct rcblk_srv_queue *q, u16 status,
				  const struct rcblk_open_geo *geo)
{
	struct rcblk_wire_open_rsp rsp;
	struct kvec vec = { .iov_base = &rsp, .iov_len = sizeof(rsp) };
	int ret;

	rcblk_open_rsp_encode(&rsp, status, geo);
	ret = rdmachan_send(q->ch, &vec, 1, 0, 0);
	if (ret)
		pr_info_ratelimited("queue %p: OPEN_RSP not sent: %d\n", q,
				    ret);
	if (ret || status != RCBLK_OPEN_OK)
		rcblk_srv_queue_close(q);
}

/* Find or make @q's session on @exp and attach @q; exp->lock held */
static u16 rcblk_srv_attach(struct rcblk_srv_queue *q,
			    struct rcblk_export *exp,
			    const struct rcblk_open_req *req,
			    struct rcblk_srv_sess **spare)
{
	struct rcblk_srv_sess *sess, *found = NULL;
	u16 status;

	lockdep_assert_held(&exp->lock);
	list_for_each_entry(sess, &exp->sessions, node) {
		if (!memcmp(sess->id, req->session, RCBLK_SESSION_LEN)) {
			found = sess;
			break;
		}
	}
	status = rcblk_srv_open_limits(q, exp, req, found);
	if (status)
		return status;
	sess = found;
	if (!sess) {
		sess = *spare;
		*spare = NULL;
		memcpy(sess->id, req->session, RCBLK_SESSION_LEN);
		sess->nr_queues = 0;
		list_add_tail(&sess->node, &exp->sessions);
		exp->nr_sessions++;
	}
	sess->nr_queues++;
	q->sess = sess;
	list_add_tail(&q->exp_node, &exp->queues);
	WRITE_ONCE(exp->nr_queues, exp->nr_queues + 1);
	set_bit(RCBLK_Q_ATTACHED, &q->flags);
	return RCBLK_OPEN_OK;
}

/* OPEN: check it, find the export, allocate the slots, answer */
static void rcblk_srv_open_work(struct work_struct *work)
{
	struct rcblk_srv_queue *q = container_of(work, struct rcblk_srv_queue,
						 open_work);
	struct rcblk_srv_sess *spare = NULL;
	struct rcblk_open_req req;
	struct rcblk_export *exp;
	struct rcblk_open_geo geo;
	u32 max_io, inline_max, msg_max;
	u16 status;
	int ret;

	status = rcblk_open_check(q->open_msg->data, q->open_msg->len, &req);
	rdmachan_msg_release(q->ch, q->open_msg);
	q->open_msg = NULL;
	if (status) {
		pr_info_ratelimited("queue %p: malformed OPEN: refused\n", q);
		goto refuse;
	}
	if (rdmachan_peer_addr(q->ch, &q->peer)) {
		status = RCBLK_OPEN_ACCES;
		goto refuse;
	}

	mutex_lock(&rcblk_srv_mutex);
	exp = rcblk_srv_find(req.name);
	if (!exp)
		status = RCBLK_OPEN_NOENT;
	else if (READ_ONCE(exp->gone))
		status = RCBLK_OPEN_BUSY;
	else if (!rcblk_cidr_match(exp->allow, exp->nr_allow,
				   (struct sockaddr *)&q->peer))
		status = RCBLK_OPEN_ACCES;
	else if (!(req.flags & RCBLK_OPEN_RO) &&
		 exp->flags & RDMACHAN_BLK_RO)
		status = RCBLK_OPEN_ROFS;
	else if (rcblk_clt_loop_check(exp->bdev, req.session))
		status = RCBLK_OPEN_LOOP;
	else
		kobject_get(&exp->kobj);
	mutex_unlock(&rcblk_srv_mutex);
	if (status) {
		pr_info_ratelimited("OPEN of %s from %pISc refused: %u\n",
				    req.name, &q->peer, status);
		goto refuse;
	}
	q->exp = exp;	/* its reference put at release */

	/* the largest request: the client's, ours, the registration's */
	max_io = min3(req.max_io, clamp(rcblk_srv_max_io_kb, 4U, 1024U) * 1024,
		      rdmachan_max_reg_pages(q->ch) * (u32)PAGE_SIZE);
	max_io = round_down(max_io, exp->geo.lbs);
	msg_max = rdmachan_max_msg_size(q->ch);
	inline_max = msg_max > sizeof(struct rcblk_wire_io) ?
		     msg_max - sizeof(struct rcblk_wire_io) : 0;
	inline_max = min3(inline_max, rcblk_srv_inline_kb * 1024, max_io);
	inline_max = round_down(inline_max, exp->geo.lbs);
	if (!max_io) {
		status = RCBLK_OPEN_PROTO;
		goto refuse;
	}
	ret = rcblk_srv_slots_alloc(q, max_io);
	spare = kzalloc(sizeof(*spare), GFP_KERNEL);
	if (ret || !spare) {
		pr_info_ratelimited("OPEN of %s: no memory for %u slots of %u bytes: %d\n",
				    exp->name, q->depth, max_io, ret);
		status = RCBLK_OPEN_NOMEM;
		goto refuse;
	}

	geo = exp->geo;
	geo.features = rcblk_open_features(req.features,
					   geo.max_write_zeroes_sectors);
	geo.max_io = max_io;
	geo.inline_max = inline_max;
	q->lim = (struct rcblk_io_limits) {
		.nr_sectors = geo.nr_sectors,
		.lbs = geo.lbs,
		.max_io = max_io,
		.inline_max = inline_max,
		.features = geo.features,
		.max_discard_sectors = geo.max_discard_sectors,
		.max_write_zeroes_sectors = geo.max_write_zeroes_sectors,
		.ro = (exp->flags & RDMACHAN_BLK_RO) ||
		      (req.flags & RCBLK_OPEN_RO),
	};

	spin_lock(&exp->lock);
	if (READ_ONCE(exp->gone))
		status = RCBLK_OPEN_BUSY;
	else
		status = rcblk_srv_attach(q, exp, &req, &spare);
	spin_unlock(&exp->lock);
	if (status)
		goto refuse;	/* frees @spare */
	kfree(spare);		/* unused: the session was there */
	if (req.flags & RCBLK_OPEN_WRITE_IMM && rdmachan_can_write_imm(q->ch))
		set_bit(RCBLK_Q_WRITE_IMM, &q->flags);
	/* live before the answer: the client sends requests once it has it */
	set_bit(RCBLK_Q_LIVE, &q->flags);
	pr_debug("queue %p: %pISc opened %s (queue %u/%u, max_io %u, inline %u, depth %u)\n",
		 q, &q->peer, exp->name, req.queue, req.nr_queues, max_io,
		 inline_max, q->depth);
	rcblk_srv_open_answer(q, RCBLK_OPEN_OK, &geo);
	return;

refuse:
	kfree(spare);
	rcblk_srv_open_answer(q, status, NULL);
}

/* No OPEN within open_timeout_ms of the accept: close the channel */
static void rcblk_srv_open_timeout(struct timer_list *t)
{
	struct rcblk_srv_queue *q = from_timer(q, t, open_timer);
	struct sockaddr_storage peer;

	/*
	 * A queue closing (its channel may be closed already: the timer is
	 * armed after accept returns, and a channel that failed in between
	 * was closed before it) or opening: nothing to do.  A close that
	 * begins after this check waits for this handler (del_timer_sync())
	 * before it closes the channel.
	 */
	if (test_bit(RCBLK_Q_CLOSING, &q->flags) ||
	    test_bit(RCBLK_Q_OPENING, &q->flags))
		return;
	rdmachan_peer_addr(q->ch, &peer);
	pr_info_ratelimited("%pISc: no OPEN within %u ms of the connection: closing it\n",
			    &peer, READ_ONCE(open_timeout_ms));
	rcblk_srv_queue_close(q);
}

static struct rcblk_srv_queue *rcblk_srv_queue_alloc(void)
{
	struct rcblk_srv_queue *q = kzalloc(sizeof(*q), GFP_KERNEL);

	if (!q)
		return NULL;
	atomic_inc(&rcblk_srv_nr_queues);
	kref_init(&q->ref);
	spin_lock_init(&q->lock);
	INIT_LIST_HEAD(&q->exp_node);
	INIT_LIST_HEAD(&q->node);
	INIT_LIST_HEAD(&q->free);
	INIT_LIST_HEAD(&q->work_list);
	INIT_LIST_HEAD(&q->retry);
	INIT_LIST_HEAD(&q->parked);
	INIT_LIST_HEAD(&q->rejects);
	INIT_WORK(&q->open_work, rcblk_srv_open_work);
	INIT_WORK(&q->io_work, rcblk_srv_io_work);
	INIT_WORK(&q->close_work, rcblk_srv_close_work);
	INIT_WORK(&q->release_work, rcblk_srv_release_work);
	timer_setup(&q->open_timer, rcblk_srv_open_timeout, 0);
	return q;
}

/**
 * rcblk_srv_count_queues() - the queues there are, and those of a host
 * @peer: the host's address
 * @all: out: every queue
 * @mine: out: those accepted from @peer's address (any port)
 *
 * Context: any; takes rcblk_srv_qlock.
 */
void rcblk_srv_count_queues(const struct sockaddr *peer, u32 *all, u32 *mine)
{
	struct rcblk_srv_queue *q;

	*all = 0;
	*mine = 0;
	spin_lock(&rcblk_srv_qlock);
	list_for_each_entry(q, &rcblk_srv_queues, node) {
		(*all)++;
		if (rcblk_same_host((struct sockaddr *)&q->peer, peer))
			(*mine)++;
	}
	spin_unlock(&rcblk_srv_qlock);
}

/* ---- the listener ---- */

/* Accept every connection ready; each becomes a queue */
static void rcblk_srv_pending(struct rdmachan_listener *l)
{
	struct rcblk_srv_queue *q;
	struct rdmachan *ch;
	int ret;

	for (;;) {
		q = rcblk_srv_queue_alloc();
		if (!q)
			return;
		spin_lock(&rcblk_srv_qlock);
		list_add_tail(&q->node, &rcblk_srv_queues);
		spin_unlock(&rcblk_srv_qlock);
		ret = rdmachan_accept(l, &rcblk_srv_chan_ops, q,
				      RDMACHAN_ACCEPT_NONBLOCK, &ch);
		if (ret) {
			spin_lock(&rcblk_srv_qlock);
			list_del(&q->node);
			spin_unlock(&rcblk_srv_qlock);
			rcblk_srv_queue_free(q);
			if (ret != -EAGAIN)
				pr_info_ratelimited("accept: %d\n", ret);
			return;
		}
		/* counted against its address from here (blk_srv_limits.c) */
		spin_lock(&rcblk_srv_qlock);
		rdmachan_peer_addr(ch, &q->peer);
		spin_unlock(&rcblk_srv_qlock);
		WRITE_ONCE(q->ch, ch);
		mod_timer(&q->open_timer, jiffies +
			  msecs_to_jiffies(READ_ONCE(open_timeout_ms)));
	}
}

static void rcblk_srv_failed(struct rdmachan_listener *l, int err)
{
	pr_warn("listener on port %u failed (%d): listening again\n", port,
		err);
	rcblk_srv_listen_tries = 0;
	queue_delayed_work(rcblk_srv_ctl_wq, &rcblk_srv_listen_dwork,
			   msecs_to_jiffies(RCBLK_LISTEN_DELAY_MS));
}

static const struct rdmachan_listener_ops rcblk_srv_listener_ops = {
	.pending	= rcblk_srv_pending,
	.admit		= rcblk_srv_admit,
	.failed		= rcblk_srv_failed,
};

/*
 * (Re)start the listener; rcblk_srv_mutex held.  It binds the IPv6
 * wildcard, which rdma_cm matches with IPv4 requests too (as a socket on
 * [::] takes them, unless net.ipv6.bindv6only is set); on 0.0.0.0 where
 * that cannot be bound.  @where: out, what it bound, for the log.
 */
static int rcblk_srv_listen(const char **where)
{
	struct sockaddr_in6 sin6 = {
		.sin6_family = AF_INET6,
		.sin6_addr = IN6ADDR_ANY_INIT,
		.sin6_port = htons(port),
	};
	struct sockaddr_in sin = {
		.sin_family = AF_INET,
		.sin_addr.s_addr = htonl(INADDR_ANY),
		.sin_port = htons(port),
	};
	struct rdmachan_opts opts = {
		.queue_depth = clamp(queue_depth, 1U, 1024U),
		.max_msg_size = sizeof(struct rcblk_wire_io) +
				min(rcblk_srv_inline_kb, 64U) * 1024,
		.max_send_regs = 0,
	};
	int ret;

	lockdep_assert_held(&rcblk_srv_mutex);
	if (rcblk_srv_listener) {
		rdmachan_listener_close(rcblk_srv_listener);
		rcblk_srv_listener = NULL;
	}
	*where = "[::]";
	ret = rdmachan_listen_ops((struct sockaddr *)&sin6, &opts,
				  &rcblk_srv_listener_ops, NULL,
				  &rcblk_srv_listener);
	if (!ret)
		return 0;
	*where = "0.0.0.0";
	return rdmachan_listen_ops((struct sockaddr *)&sin, &opts,
				   &rcblk_srv_listener_ops, NULL,
				   &rcblk_srv_listener);
}

/* Listen again after a failure, a bounded number of times */
static void rcblk_srv_listen_work(struct work_struct *work)
{
	const char *where;
	int ret;

	mutex_lock(&rcblk_srv_mutex);
	if (rcblk_srv_stopping) {
		mutex_unlock(&rcblk_srv_mutex);
		return;
	}
	ret = rcblk_srv_listen(&where);
	if (!ret) {
		pr_info("listening on %s:%u again\n", where, port);
	} else if (++rcblk_srv_listen_tries < RCBLK_LISTEN_TRIES) {
		queue_delayed_work(rcblk_srv_ctl_wq, &rcblk_srv_listen_dwork,
				   msecs_to_jiffies(RCBLK_LISTEN_DELAY_MS));
	} else {
		pr_err("cannot listen on port %u (%d): gave up after %u tries\n",
		       port, ret, RCBLK_LISTEN_TRIES);
	}
	mutex_unlock(&rcblk_srv_mutex);
}

/* ---- load and unload ---- */

/**
 * rcblk_srv_init() - the server's state, before the ctl device exists
 *
 * Context: process context (module load).
 * Return: 0 or -ENOMEM.
 */
int rcblk_srv_init(void)
{
	/*
	 * io_work moves the I/O: high priority, as ib_comp_wq, where
	 * nvmet-rdma does the same work, so that it does not queue behind
	 * ordinary tasks of the CPU its softirq work raised it on.
	 */
	rcblk_srv_wq = alloc_workqueue("rcblk_srv", WQ_MEM_RECLAIM | WQ_HIGHPRI,
				       0);
	if (!rcblk_srv_wq)
		return -ENOMEM;
	rcblk_srv_ctl_wq = alloc_workqueue("rcblk_srv_ctl", 0, 0);
	if (!rcblk_srv_ctl_wq) {
		destroy_workqueue(rcblk_srv_wq);
		return -ENOMEM;
	}
	return 0;
}

/* Remove every export (forced); unload and failed loads */
static void rcblk_srv_unexport_all(void)
{
	struct rcblk_export *exp;
	char name[RDMACHAN_BLK_NAME_MAX];

	for (;;) {
		mutex_lock(&rcblk_srv_mutex);
		exp = list_first_entry_or_null(&rcblk_srv_exports,
					       struct rcblk_export, node);
		if (exp)
			strscpy(name, exp->name, sizeof(name));
		mutex_unlock(&rcblk_srv_mutex);
		if (!exp)
			return;
		rcblk_srv_unexport(name, RDMACHAN_BLK_FORCE);
	}
}

/**
 * rcblk_srv_start() - the parts that need the ctl device: the exports
 *	directory, the exports of the parameter, the listener
 *
 * The listener runs from load to unload; one that cannot start is
 * retried (RCBLK_LISTEN_TRIES, every RCBLK_LISTEN_DELAY_MS) and the
 * load goes on.
 *
 * Context: process context (module load), after rcblk_srv_init().
 * Return: 0, or the error of the directory or of an export of the
 * parameter exports (what was made is undone).
 */
int rcblk_srv_start(void)
{
	char *list, *p, *entry;
	const char *where;
	int ret;

	ret = rcblk_srv_sysfs_init();
	if (ret)
		return ret;
	if (exports && *exports) {
		list = kstrdup(exports, GFP_KERNEL);
		if (!list) {
			ret = -ENOMEM;
			goto fail;
		}
		p = list;
		while ((entry = strsep(&p, ";"))) {
			if (!*strim(entry))
				continue;
			ret = rcblk_srv_export_text(entry, strlen(entry), true);
			if (ret) {
				pr_err("exports: \"%s\": %d\n", entry, ret);
				break;
			}
		}
		kfree(list);
		if (ret)
			goto fail;
	}
	mutex_lock(&rcblk_srv_mutex);
	ret = rcblk_srv_listen(&where);
	if (!ret) {
		pr_info("listening on %s:%u\n", where, port);
	} else {
		pr_warn("cannot listen on port %u (%d): retrying\n", port, ret);
		queue_delayed_work(rcblk_srv_ctl_wq, &rcblk_srv_listen_dwork,
				   msecs_to_jiffies(RCBLK_LISTEN_DELAY_MS));
	}
	mutex_unlock(&rcblk_srv_mutex);
	return 0;

fail:
	rcblk_srv_unexport_all();
	rcblk_srv_sysfs_exit();
	return ret;
}

/**
 * rcblk_srv_stop() - undo rcblk_srv_start(): the listener, the queues
 *	(closed and freed), the exports directory
 *
 * Context: process context (module unload: no export is left, each
 * holds the module).
 */
void rcblk_srv_stop(void)
{
	struct rdmachan_listener *l;
	struct rcblk_srv_queue *q;

	mutex_lock(&rcblk_srv_mutex);
	rcblk_srv_stopping = true;
	mutex_unlock(&rcblk_srv_mutex);
	cancel_delayed_work_sync(&rcblk_srv_listen_dwork);
	mutex_lock(&rcblk_srv_mutex);
	l = rcblk_srv_listener;
	rcblk_srv_listener = NULL;
	mutex_unlock(&rcblk_srv_mutex);
	if (l)
		rdmachan_listener_close(l);	/* no pending() after it */
	spin_lock(&rcblk_srv_qlock);
	list_for_each_entry(q, &rcblk_srv_queues, node)
		rcblk_srv_queue_close(q);
	spin_unlock(&rcblk_srv_qlock);
	/* each close is bounded by its channel's timeout */
	while (!wait_var_event_timeout(&rcblk_srv_nr_queues,
				       !atomic_read(&rcblk_srv_nr_queues),
				       10 * HZ))
		pr_warn("unload: %d queues still closing\n",
			atomic_read(&rcblk_srv_nr_queues));
	flush_workqueue(rcblk_srv_ctl_wq);
	flush_workqueue(rcblk_srv_wq);
	rcblk_srv_unexport_all();
	rcblk_srv_sysfs_exit();
}

/**
 * rcblk_srv_exit() - undo rcblk_srv_init()
 *
 * Context: process context (module unload).
 */
void rcblk_srv_exit(void)
{
	destroy_workqueue(rcblk_srv_ctl_wq);
	destroy_workqueue(rcblk_srv_wq);
}
