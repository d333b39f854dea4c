// SPDX-License-Identifier: GPL-2.0-only
/*
 * rdmachan_blk server: sysfs (RNBD style), Documentation/blk-server.rst
 *
 * /sys/class/rdmachan_blk/ctl/
 *	export		write "NAME PATH [ro] [stable_id] [allow=CIDR[,CIDR...]]"
 *	unexport	write "NAME [force]"
 *	queues		the queues the server holds (what max_queues bounds)
 *	exports/NAME/	one directory per export: path, ro, stable_id, allow,
 *			size_sectors, sessions, channels, export_id, state,
 *			bios and
 *			counters/ (struct rdmachan_blk_counters, one file
 *			each)
 *
 * Writes take the same checks, and fail with the same errors, as
 * RDMACHAN_IOC_BLK_EXPORT and RDMACHAN_IOC_BLK_UNEXPORT.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/capability.h>
#include <linux/kobject.h>
#include <linux/slab.h>
#include <linux/string.h>
#include <linux/sysfs.h>

#include "blk_srv.h"

static struct kobject *rcblk_srv_exports_kobj;

static ssize_t export_store(struct device *dev, struct device_attribute *attr,
			    const char *buf, size_t count)
{
	int ret;

	if (!capable(CAP_SYS_ADMIN))
		return -EPERM;
	if (!rcblk_srv_exports_kobj)
		return -EAGAIN;
	ret = rcblk_srv_export_text(buf, count, false);
	return ret ? ret : count;
}
static DEVICE_ATTR_WO(export);

static ssize_t unexport_store(struct device *dev,
			      struct device_attribute *attr, const char *buf,
			      size_t count)
{
	char *text, *p, *name, *opt;
	u32 flags = 0;
	int ret = -EINVAL;

	if (!capable(CAP_SYS_ADMIN))
		return -EPERM;
	text = kmemdup_nul(buf, count, GFP_KERNEL);
	if (!text)
		return -ENOMEM;
	p = strim(text);
	name = strsep(&p, " \t\n");
	if (p) {
		opt = strim(p);
		if (strcmp(opt, "force"))
			goto out;
		flags |= RDMACHAN_BLK_FORCE;
	}
	if (!rcblk_name_ok(name, RDMACHAN_BLK_NAME_MAX))
		goto out;
	ret = rcblk_srv_unexport(name, flags);
out:
	kfree(text);
	return ret ? ret : count;
}
static DEVICE_ATTR_WO(unexport);

static ssize_t queues_show(struct device *dev, struct device_attribute *attr,
			   char *buf)
{
	return sysfs_emit(buf, "%u\n", rcblk_srv_queues_held());
}
static DEVICE_ATTR_RO(queues);

static struct attribute *rcblk_srv_ctl_attrs[] = {
	&dev_attr_export.attr,
	&dev_attr_unexport.attr,
	&dev_attr_queues.attr,
	NULL,
};

/* The server's control files under /sys/class/rdmachan_blk/ctl/ */
const struct attribute_group rcblk_srv_ctl_group = {
	.attrs = rcblk_srv_ctl_attrs,
};

/* ---- exports/NAME/ ---- */

static struct rcblk_export *to_exp(struct kobject *kobj)
{
	return container_of(kobj, struct rcblk_export, kobj);
}

static ssize_t path_show(struct kobject *kobj, struct kobj_attribute *attr,
			 char *buf)
{
	return sysfs_emit(buf, "%s\n", to_exp(kobj)->path);
}

static ssize_t ro_show(struct kobject *kobj, struct kobj_attribute *attr,
		       char *buf)
{
	return sysfs_emit(buf, "%d\n",
			  !!(to_exp(kobj)->flags & RDMACHAN_BLK_RO));
}

static ssize_t stable_id_show(struct kobject *kobj,
			      struct kobj_attribute *attr, char *buf)
{
	return sysfs_emit(buf, "%d\n",
			  !!(to_exp(kobj)->flags & RDMACHAN_BLK_STABLE_ID));
}

static ssize_t allow_show(struct kobject *kobj, struct kobj_attribute *attr,
			  char *buf)
{
	struct rcblk_export *exp = to_exp(kobj);
	int len = 0;
	u32 i;

	for (i = 0; i < exp->nr_allow; i++) {
		const struct rdmachan_blk_cidr *c = &exp->allow[i];

		if (c->family == AF_INET)
			len += sysfs_emit_at(buf, len, "%s%pI4/%u",
					     i ? "," : "", c->addr,
					     c->prefix);
		else
			len += sysfs_emit_at(buf, len, "%s%pI6c/%u",
					     i ? "," : "", c->addr,
					     c->prefix);
	}
	len += sysfs_emit_at(buf, len, "\n");
	return len;
}

static ssize_t size_sectors_show(struct kobject *kobj,
				 struct kobj_attribute *attr, char *buf)
{
	return sysfs_emit(buf, "%llu\n", to_exp(kobj)->geo.nr_sectors);
}

static ssize_t sessions_show(struct kobject *kobj, struct kobj_attribute *attr,
			     char *buf)
{
	struct rcblk_export *exp = to_exp(kobj);
	u32 n;

	spin_lock(&exp->lock);
	n = exp->nr_sessions;
	spin_unlock(&exp->lock);
	return sysfs_emit(buf, "%u\n", n);
}

static ssize_t channels_show(struct kobject *kobj, struct kobj_attribute *attr,
			     char *buf)
{
	return sysfs_emit(buf, "%u\n", READ_ONCE(to_exp(kobj)->nr_queues));
}

static ssize_t state_show(struct kobject *kobj, struct kobj_attribute *attr,
			  char *buf)
{
	return sysfs_emit(buf, "%s\n",
			  rcblk_srv_state_name(READ_ONCE(to_exp(kobj)->state)));
}

static ssize_t bios_show(struct kobject *kobj, struct kobj_attribute *attr,
			 char *buf)
{
	return sysfs_emit(buf, "%d\n", atomic_read(&to_exp(kobj)->bios));
}

static ssize_t export_id_show(struct kobject *kobj,
			      struct kobj_attribute *attr, char *buf)
{
	return sysfs_emit(buf, "%*phN\n", RCBLK_ID_LEN,
			  to_exp(kobj)->export_id);
}

static struct kobj_attribute rcblk_attr_path = __ATTR_RO(path);
static struct kobj_attribute rcblk_attr_ro = __ATTR_RO(ro);
static struct kobj_attribute rcblk_attr_stable_id = __ATTR_RO(stable_id);
static struct kobj_attribute rcblk_attr_allow = __ATTR_RO(allow);
static struct kobj_attribute rcblk_attr_size_sectors = __ATTR_RO(size_sectors);
static struct kobj_attribute rcblk_attr_sessions = __ATTR_RO(sessions);
static struct kobj_attribute rcblk_attr_channels = __ATTR_RO(channels);
static struct kobj_attribute rcblk_attr_export_id = __ATTR_RO(export_id);
static struct kobj_attribute rcblk_attr_state = __ATTR_RO(state);
static struct kobj_attribute rcblk_attr_bios = __ATTR_RO(bios);

/* The request latencies by class (hist.c's lines); a write resets one */
#define RCBLK_EXP_HIST_ATTR(_name, _class)				\
static struct rdmachan_hist *_name##_of(struct kobject *kobj)		\
{									\
	return to_exp(kobj)->hist[_class];				\
}									\
static ssize_t _name##_show(struct kobject *kobj,			\
			    struct kobj_attribute *attr, char *buf)	\
{									\
	return rdmachan_hist_show(_name##_of(kobj), buf);		\
}									\
static ssize_t _name##_store(struct kobject *kobj,			\
			     struct kobj_attribute *attr,		\
			     const char *buf, size_t count)		\
{									\
	rdmachan_hist_reset(_name##_of(kobj));				\
	return count;							\
}									\
static struct kobj_attribute rcblk_attr_##_name = __ATTR_RW(_name)

RCBLK_EXP_HIST_ATTR(hist_read, RCBLK_HIST_READ);
RCBLK_EXP_HIST_ATTR(hist_write, RCBLK_HIST_WRITE);
RCBLK_EXP_HIST_ATTR(hist_other, RCBLK_HIST_OTHER);

static struct attribute *rcblk_exp_attrs[] = {
	&rcblk_attr_path.attr,
	&rcblk_attr_ro.attr,
	&rcblk_attr_stable_id.attr,
	&rcblk_attr_allow.attr,
	&rcblk_attr_size_sectors.attr,
	&rcblk_attr_sessions.attr,
	&rcblk_attr_channels.attr,
	&rcblk_attr_export_id.attr,
	&rcblk_attr_state.attr,
	&rcblk_attr_bios.attr,
	&rcblk_attr_hist_read.attr,
	&rcblk_attr_hist_write.attr,
	&rcblk_attr_hist_other.attr,
	NULL,
};

static const struct attribute_group rcblk_exp_group = {
	.attrs = rcblk_exp_attrs,
};

/* counters/: one file per counter */
#define RCBLK_COUNTER_ATTR(_name, _idx)					\
static ssize_t _name##_show(struct kobject *kobj,			\
			    struct kobj_attribute *attr, char *buf)	\
{									\
	return sysfs_emit(buf, "%lld\n",				\
			  (s64)atomic64_read(&to_exp(kobj)->c[_idx]));	\
}									\
static struct kobj_attribute rcblk_attr_##_name = __ATTR_RO(_name)

RCBLK_COUNTER_ATTR(reads, RCBLK_C_READS);
RCBLK_COUNTER_ATTR(writes, RCBLK_C_WRITES);
RCBLK_COUNTER_ATTR(read_bytes, RCBLK_C_READ_BYTES);
RCBLK_COUNTER_ATTR(write_bytes, RCBLK_C_WRITE_BYTES);
RCBLK_COUNTER_ATTR(flushes, RCBLK_C_FLUSHES);
RCBLK_COUNTER_ATTR(fua, RCBLK_C_FUA);
RCBLK_COUNTER_ATTR(discards, RCBLK_C_DISCARDS);
RCBLK_COUNTER_ATTR(write_zeroes, RCBLK_C_WRITE_ZEROES);
RCBLK_COUNTER_ATTR(inline_writes, RCBLK_C_INLINE_WRITES);
RCBLK_COUNTER_ATTR(errors, RCBLK_C_ERRORS);
RCBLK_COUNTER_ATTR(rejected, RCBLK_C_REJECTED);
RCBLK_COUNTER_ATTR(inflight, RCBLK_C_INFLIGHT);

static struct attribute *rcblk_counter_attrs[] = {
	&rcblk_attr_reads.attr,
	&rcblk_attr_writes.attr,
	&rcblk_attr_read_bytes.attr,
	&rcblk_attr_write_bytes.attr,
	&rcblk_attr_flushes.attr,
	&rcblk_attr_fua.attr,
	&rcblk_attr_discards.attr,
	&rcblk_attr_write_zeroes.attr,
	&rcblk_attr_inline_writes.attr,
	&rcblk_attr_errors.attr,
	&rcblk_attr_rejected.attr,
	&rcblk_attr_inflight.attr,
	NULL,
};

static const struct attribute_group rcblk_counter_group = {
	.name = "counters",
	.attrs = rcblk_counter_attrs,
};

static const struct attribute_group *rcblk_exp_groups[] = {
	&rcblk_exp_group,
	&rcblk_counter_group,
	NULL,
};

static void rcblk_exp_release(struct kobject *kobj)
{
	rcblk_hists_free(to_exp(kobj)->hist);
	kfree(to_exp(kobj));
}

static const struct kobj_type rcblk_exp_ktype = {
	.release	= rcblk_exp_release,
	.sysfs_ops	= &kobj_sysfs_ops,
	.default_groups	= rcblk_exp_groups,
};

/**
 * rcblk_srv_sysfs_add() - publish an export: ctl/exports/NAME/
 * @exp: the export
 *
 * Initializes @exp->kobj even when it fails: the caller then puts it,
 * which frees @exp.
 *
 * Context: process context, rcblk_srv_mutex held.
 * Return: 0, -EAGAIN before rcblk_srv_sysfs_init(), or the error of
 * kobject_add().
 */
int rcblk_srv_sysfs_add(struct rcblk_export *exp)
{
	kobject_init(&exp->kobj, &rcblk_exp_ktype);
	if (!rcblk_srv_exports_kobj)
		return -EAGAIN;
	return kobject_add(&exp->kobj, rcblk_srv_exports_kobj, "%s",
			   exp->name);
}

/**
 * rcblk_srv_sysfs_del() - remove an export's directory
 * @exp: the export; its memory stays until the last kobject_put()
 *
 * Context: process context.
 */
void rcblk_srv_sysfs_del(struct rcblk_export *exp)
{
	kobject_del(&exp->kobj);
}

/**
 * rcblk_srv_sysfs_init() - create ctl/exports/
 *
 * Context: process context, the ctl device registered.
 * Return: 0 or -ENOMEM.
 */
int rcblk_srv_sysfs_init(void)
{
	struct kobject *kobj;

	kobj = kobject_create_and_add("exports", &rcblk_ctl_dev->kobj);
	if (!kobj)
		return -ENOMEM;
	mutex_lock(&rcblk_srv_mutex);
	rcblk_srv_exports_kobj = kobj;
	mutex_unlock(&rcblk_srv_mutex);
	return 0;
}

/**
 * rcblk_srv_sysfs_exit() - remove ctl/exports/ (no export is left)
 *
 * Context: process context.
 */
void rcblk_srv_sysfs_exit(void)
{
	struct kobject *kobj;

	mutex_lock(&rcblk_srv_mutex);
	kobj = rcblk_srv_exports_kobj;
	rcblk_srv_exports_kobj = NULL;
	mutex_unlock(&rcblk_srv_mutex);
	kobject_put(kobj);
}
