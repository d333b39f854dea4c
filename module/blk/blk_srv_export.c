// SPDX-License-Identifier: GPL-2.0-only
/*
 * rdmachan_blk server: exports - made, removed, listed, and made from
 * text (the sysfs file export and the exports parameter)
 *
 * See blk_srv.c for the locking and a queue's teardown.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/blkdev.h>
#include <linux/module.h>
#include <linux/slab.h>
#include <linux/string.h>
#include <linux/uaccess.h>
#include <linux/wait_bit.h>

#include "blk_srv.h"

/*
 * How long an unexport without force waits for the sessions of an export
 * to end before it refuses (-EBUSY): a client's unmap returns once its
 * own end of the channels is closed, and the server learns of it only
 * after (the disconnect, then the queues' close work), so that an unmap
 * followed at once by an unexport (one host, or a script driving both)
 * would otherwise find the session still there.
 */
#define RCBLK_UNEXPORT_GRACE_MS	3000

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

/*
 * The geometry of @exp from its device (RO exports offer no writes), and
 * its identity (rcblk_export_id()), which OPEN_RSP carries with it
 */
static void rcblk_srv_geometry(struct rcblk_export *exp)
{
	struct block_device *bdev = exp->dev.bdev;
	struct rcblk_geo *g = &exp->geo;
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
	/* the identity hashes the size: after it, and before OPEN_RSP has it */
	rcblk_export_id(exp->name, bdev->bd_dev, bdev->bd_disk->diskseq,
			g->nr_sectors, exp->flags & RDMACHAN_BLK_STABLE_ID,
			exp->export_id);
	memcpy(g->export_id, exp->export_id, sizeof(g->export_id));
}

/*
 * -EEXIST when an export is called @name, logged when it is being
 * unexported (it stays on the list, and its directory in sysfs, until
 * its unexport has released everything); else 0.  rcblk_srv_mutex held.
 */
static int rcblk_srv_exists(const char *name)
{
	struct rcblk_export *exp = rcblk_srv_find(name);

	if (!exp)
		return 0;
	if (READ_ONCE(exp->gone))
		pr_info_ratelimited("export %s refused: its unexport has not finished\n",
				    name);
	return -EEXIST;
}

/*
 * The error of a failed open of @exp's device, @err.  The kernel refuses
 * a write open of a read-only device with -EACCES; that case is -EROFS,
 * as for a device made read-only after the open: a read-only open of the
 * same path (not exclusive, not kept) tells it from a refused permission.
 */
static int rcblk_srv_open_error(const struct rcblk_export *exp, int err)
{
	struct rc_bdev ro_dev;
	bool ro;

	if (err != -EACCES || (exp->flags & RDMACHAN_BLK_RO))
		return err;
	if (rc_bdev_open(&ro_dev, exp->path, false, NULL))
		return err;
	ro = bdev_read_only(ro_dev.bdev);
	rc_bdev_close(&ro_dev);
	if (ro)
		pr_info_ratelimited("export %s: %s is read-only: export it with ro\n",
				    exp->name, exp->path);
	return ro ? -EROFS : err;
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
 * Return: 0; -EINVAL (name, allow list); -EEXIST (name taken, also by
 * an export whose unexport has not finished); -EROFS (read-write export
 * of a read-only device); -ELOOP (the device is a disk this host maps
 * from itself: rcblk_clt_loop_check()); -EAGAIN (the module is still
 * loading); -ENODEV (it is unloading); the error of the open
 * (rc_bdev_open(): -ENOENT, -ENOTBLK, -EBUSY when held by someone else, -EACCES) or of sysfs.
 */
int rcblk_srv_export(const struct rdmachan_blk_export *e)
{
	struct rcblk_export *exp;
	struct block_device *bdev;
	u32 i;
	int ret;

	if (!rcblk_name_ok(e->name, sizeof(e->name))) {
		pr_info_ratelimited("export \"%*pE\" refused: a name is 1 to %u characters of [A-Za-z0-9._-], not . or ..\n",
				    (int)strnlen(e->name, sizeof(e->name)),
				    e->name, RDMACHAN_BLK_NAME_MAX - 1);
		return -EINVAL;
	}
	if (e->nr_allow > RDMACHAN_BLK_MAX_ALLOW) {
		pr_info_ratelimited("export %s refused: %u networks, at most %u\n",
				    e->name, e->nr_allow,
				    RDMACHAN_BLK_MAX_ALLOW);
		return -EINVAL;
	}
	for (i = 0; i < e->nr_allow; i++) {
		if (rcblk_cidr_check(&e->allow[i])) {
			pr_info_ratelimited("export %s refused: network %u is malformed\n",
					    e->name, i);
			return -EINVAL;
		}
	}
	/* a taken name is EEXIST, even if the device is busy too */
	mutex_lock(&rcblk_srv_mutex);
	ret = rcblk_srv_exists(e->name);
	mutex_unlock(&rcblk_srv_mutex);
	if (ret)
		return ret;
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
	INIT_WORK(&exp->drain_work, rcblk_srv_drain_work);
	/* without memory for them, the export keeps none */
	rcblk_hists_make(exp->hist);
	/* exclusive: held by the export */
	ret = rc_bdev_open(&exp->dev, exp->path,
			   !(exp->flags & RDMACHAN_BLK_RO), exp);
	if (ret) {
		ret = rcblk_srv_open_error(exp, ret);
		pr_info_ratelimited("export %s: cannot open %s: %d\n",
				    exp->name, exp->path, ret);
		rcblk_hists_free(exp->hist);
		kfree(exp);
		return ret;
	}
	bdev = exp->dev.bdev;
	ret = -EROFS;
	if (!(exp->flags & RDMACHAN_BLK_RO) && bdev_read_only(bdev)) {
		pr_info_ratelimited("export %s: %s is read-only: export it with ro\n",
				    exp->name, exp->path);
		goto out_put;
	}
	ret = -ELOOP;
	if (rcblk_clt_loop_check(bdev, NULL)) {
		pr_info_ratelimited("export %s: %s is a disk this host maps from itself: refused (a loop)\n",
				    exp->name, exp->path);
		goto out_put;
	}
	rcblk_srv_geometry(exp);

	mutex_lock(&rcblk_srv_mutex);
	ret = -ENODEV;
	if (rcblk_srv_stopping)		/* unloading */
		goto out_unlock;
	ret = rcblk_srv_exists(exp->name);
	if (ret)
		goto out_unlock;
	ret = rcblk_srv_sysfs_add(exp);	/* kobject initialized, even failing */
	if (ret) {
		mutex_unlock(&rcblk_srv_mutex);
		rc_bdev_close(&exp->dev);
		kobject_put(&exp->kobj);
		return ret;
	}
	__module_get(THIS_MODULE);
	spin_lock(&rcblk_srv_exp_lock);
	list_add_tail(&exp->node, &rcblk_srv_exports);
	spin_unlock(&rcblk_srv_exp_lock);
	rcblk_srv_listen_update();	/* the first export: listen */
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
	rc_bdev_close(&exp->dev);
	rcblk_hists_free(exp->hist);
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
 * is released.  The wait is bounded (rcblk_srv_unexport_end()): a device
 * whose bios do not end in time stays claimed, the export draining,
 * until the last one ends.  The export leaves the list last, once its
 * directory and its device are released: until then its name is taken.
 * An unexport of an export being unexported or draining waits for it
 * the same way.
 *
 * Context: process context, sleeps.
 * Return: 0, -ENOENT, -EBUSY; -EINPROGRESS: bios still in flight, the
 * export is draining.
 */
int rcblk_srv_unexport(const char *name, u32 flags)
{
	struct rcblk_srv_queue *q;
	struct rcblk_export *exp;
	bool waited = false;
	int ret;

again:
	mutex_lock(&rcblk_srv_mutex);
	exp = rcblk_srv_find(name);
	if (!exp) {
		mutex_unlock(&rcblk_srv_mutex);
		return -ENOENT;
	}
	if (exp->gone) {	/* being unexported, or draining */
		kobject_get(&exp->kobj);
		mutex_unlock(&rcblk_srv_mutex);
		ret = rcblk_srv_unexport_wait(exp);
		kobject_put(&exp->kobj);
		return ret;
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
	/*
	 * Gone, it stays on the list (its name taken: EEXIST) until its
	 * directory and its device are released, so that an export of the
	 * same name in the meantime is refused cleanly instead of finding
	 * the directory still there.
	 */
	WRITE_ONCE(exp->gone, true);
	WRITE_ONCE(exp->state, RDMACHAN_BLK_UNEXPORTING);
	list_for_each_entry(q, &exp->queues, exp_node)
		rcblk_srv_queue_close(q);
	spin_unlock(&exp->lock);
	mutex_unlock(&rcblk_srv_mutex);
	return rcblk_srv_unexport_end(exp, flags);
}

/* Describe @exp in @info; rcblk_srv_mutex held */
static void rcblk_srv_info(struct rcblk_export *exp,
			   struct rdmachan_blk_export_info *info)
{
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
	info->state = exp->state;
	spin_unlock(&exp->lock);
	info->bios = atomic_read(&exp->bios);
	rcblk_srv_counters(exp, &info->c);
}

/*
 * Describe at most @room exports into @info (room for @room entries);
 * return how many exports there are.  rcblk_srv_mutex held.
 */
static u32 rcblk_srv_snapshot(void *buf, u32 room)
{
	struct rdmachan_blk_export_info *info = buf;
	struct rcblk_export *exp;
	u32 n = 0;

	lockdep_assert_held(&rcblk_srv_mutex);
	list_for_each_entry(exp, &rcblk_srv_exports, node) {
		if (n < room)
			rcblk_srv_info(exp, &info[n]);
		n++;
	}
	return n;
}

/**
 * rcblk_srv_list() - describe the exports
 * @entries: user array
 * @room: its entries
 * @count: out: exports there are (more than copied when @room is short)
 *
 * Described into kernel memory under rcblk_srv_mutex, copied out
 * without it (rcblk_list_out()): a stalled user buffer holds up no
 * export, unexport or OPEN.
 *
 * Context: process context, sleeps.
 * Return: 0, -ENOMEM or -EFAULT.
 */
int rcblk_srv_list(struct rdmachan_blk_export_info __user *entries,
		   u32 room, u32 *count)
{
	return rcblk_list_out(entries, room, count, sizeof(*entries),
			      &rcblk_srv_mutex, rcblk_srv_snapshot);
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

/* Remove every export (forced); unload and failed loads */
void rcblk_srv_unexport_all(void)
{
	struct rcblk_export *exp;
	char name[RDMACHAN_BLK_NAME_MAX];

	bool found;

	for (;;) {
		found = false;
		mutex_lock(&rcblk_srv_mutex);
		/* one being unexported by another caller is left to it */
		list_for_each_entry(exp, &rcblk_srv_exports, node) {
			if (!READ_ONCE(exp->gone)) {
				strscpy(name, exp->name, sizeof(name));
				found = true;
				break;
			}
		}
		mutex_unlock(&rcblk_srv_mutex);
		if (!found)
			return;
		rcblk_srv_unexport(name, RDMACHAN_BLK_FORCE);
	}
}
