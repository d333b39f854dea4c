// SPDX-License-Identifier: GPL-2.0-only
/*
 * rdmachan_blk client: sysfs
 *
 * /sys/class/rdmachan_blk/ctl/map_device and unmap_device (like RNBD's
 * map_device), and /sys/block/rcblkN/rdmachan/ with the mapping's state,
 * parameters and counters.  Documentation/blk-client.rst describes them.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/blkdev.h>
#include <linux/inet.h>
#include <linux/kernel.h>
#include <linux/slab.h>
#include <linux/string.h>

#include "blk_clt.h"

/* "ADDR", "ADDR:PORT", "[ADDR6]" or "[ADDR6]:PORT" */
static int rcblk_clt_parse_addr(char *s, struct sockaddr_storage *ss)
{
	struct sockaddr_in6 *sin6 = (struct sockaddr_in6 *)ss;
	struct sockaddr_in *sin = (struct sockaddr_in *)ss;
	char *port = NULL, *end;
	u16 p = 0;

	memset(ss, 0, sizeof(*ss));
	if (*s == '[') {
		end = strchr(++s, ']');
		if (!end)
			return -EINVAL;
		*end++ = '\0';
		if (*end == ':')
			port = end + 1;
		else if (*end)
			return -EINVAL;
		if (!in6_pton(s, -1, sin6->sin6_addr.s6_addr, '\0', NULL))
			return -EINVAL;
		sin6->sin6_family = AF_INET6;
	} else {
		end = strchr(s, ':');
		if (end) {
			*end = '\0';
			port = end + 1;
		}
		if (!in4_pton(s, -1, (u8 *)&sin->sin_addr.s_addr, '\0', NULL))
			return -EINVAL;
		sin->sin_family = AF_INET;
	}
	if (port && (kstrtou16(port, 10, &p) || !p))
		return -EINVAL;
	if (ss->ss_family == AF_INET)
		sin->sin_port = htons(p);
	else
		sin6->sin6_port = htons(p);
	return 0;
}

/* "MS", or "off" for RDMACHAN_BLK_TMO_OFF when @off is allowed */
static int rcblk_clt_parse_ms(const char *s, bool off, u32 *ms)
{
	if (off && !strcmp(s, "off")) {
		*ms = RDMACHAN_BLK_TMO_OFF;
		return 0;
	}
	if (kstrtou32(s, 10, ms) || !*ms || *ms == RDMACHAN_BLK_TMO_OFF)
		return -EINVAL;
	return 0;
}

/**
 * rcblk_clt_parse_map() - parse a line of map_device
 * @buf: "ADDR[:PORT] NAME [ro] [queues=N] [poll_queues=P] [depth=D]
 *	[src=ADDR]
 *	[reconnect_delay_ms=MS] [loss_timeout_ms=MS|off]
 *	[fast_io_fail_ms=MS|off]"
 * @m: out: the map request (size, flags, server, name, nr_queues,
 *	nr_poll_queues, queue_depth, src: AF_UNSPEC unless given, the reconnect policy: 0
 *	for the module's defaults unless given)
 *
 * Context: process context.
 * Return: 0, -EINVAL for a malformed line, -ENOMEM.
 */
int rcblk_clt_parse_map(const char *buf, struct rdmachan_blk_map *m)
{
	char *copy, *s, *tok;
	int n = 0, ret = -EINVAL;

	memset(m, 0, sizeof(*m));
	m->size = sizeof(*m);
	copy = kstrdup(buf, GFP_KERNEL);
	if (!copy)
		return -ENOMEM;
	s = strim(copy);
	while ((tok = strsep(&s, " \t\n")) != NULL) {
		if (!*tok)
			continue;
		if (n == 0) {
			if (rcblk_clt_parse_addr(tok, &m->server))
				goto out;
		} else if (n == 1) {
			if (strlen(tok) >= sizeof(m->name) ||
			    strpbrk(tok, "/="))
				goto out;
			strscpy(m->name, tok, sizeof(m->name));
		} else if (!strcmp(tok, "ro")) {
			m->flags |= RDMACHAN_BLK_RO;
		} else if (!strncmp(tok, "queues=", 7)) {
			if (kstrtou32(tok + 7, 10, &m->nr_queues))
				goto out;
		} else if (!strncmp(tok, "poll_queues=", 12)) {
			if (kstrtou32(tok + 12, 10, &m->nr_poll_queues))
				goto out;
		} else if (!strncmp(tok, "depth=", 6)) {
			if (kstrtou32(tok + 6, 10, &m->queue_depth))
				goto out;
		} else if (!strncmp(tok, "src=", 4)) {
			if (rcblk_clt_parse_addr(tok + 4, &m->src))
				goto out;
		} else if (!strncmp(tok, "reconnect_delay_ms=", 19)) {
			if (rcblk_clt_parse_ms(tok + 19, false,
					       &m->reconnect_delay_ms))
				goto out;
		} else if (!strncmp(tok, "loss_timeout_ms=", 16)) {
			if (rcblk_clt_parse_ms(tok + 16, true,
					       &m->loss_timeout_ms))
				goto out;
		} else if (!strncmp(tok, "fast_io_fail_ms=", 16)) {
			if (rcblk_clt_parse_ms(tok + 16, true,
					       &m->fast_io_fail_ms))
				goto out;
		} else {
			goto out;
		}
		n++;
	}
	if (n >= 2)
		ret = 0;
out:
	kfree(copy);
	return ret;
}

static ssize_t map_device_show(struct device *dev,
			       struct device_attribute *attr, char *buf)
{
	return sysfs_emit(buf,
			  "Usage: echo \"ADDR[:PORT] NAME [ro] [queues=N] [poll_queues=P] [depth=D] [src=ADDR] [reconnect_delay_ms=MS] [loss_timeout_ms=MS|off] [fast_io_fail_ms=MS|off]\" > %s\n",
			  attr->attr.name);
}

static ssize_t map_device_store(struct device *dev,
				struct device_attribute *attr,
				const char *buf, size_t count)
{
	struct rdmachan_blk_map m;
	int ret;

	if (!capable(CAP_SYS_ADMIN))
		return -EPERM;
	ret = rcblk_clt_parse_map(buf, &m);
	if (ret) {
		pr_warn_ratelimited("map_device: cannot parse \"%.*s\"\n",
				    (int)min_t(size_t, count, 128), buf);
		return ret;
	}
	ret = rcblk_clt_map(&m);
	return ret ? ret : count;
}
static DEVICE_ATTR_RW(map_device);

static ssize_t unmap_device_show(struct device *dev,
				 struct device_attribute *attr, char *buf)
{
	return sysfs_emit(buf, "Usage: echo \"INDEX [force]\" > %s\n",
			  attr->attr.name);
}

static ssize_t unmap_device_store(struct device *dev,
				  struct device_attribute *attr,
				  const char *buf, size_t count)
{
	char *copy, *s, *tok;
	u32 index, flags = 0;
	int ret = -EINVAL;

	if (!capable(CAP_SYS_ADMIN))
		return -EPERM;
	copy = kstrdup(buf, GFP_KERNEL);
	if (!copy)
		return -ENOMEM;
	s = strim(copy);
	tok = strsep(&s, " \t");
	if (!tok || kstrtou32(tok, 10, &index))
		goto out;
	if (s) {
		s = strim(s);
		if (!strcmp(s, "force"))
			flags = RDMACHAN_BLK_FORCE;
		else if (*s)
			goto out;
	}
	ret = rcblk_clt_unmap(index, flags);
out:
	kfree(copy);
	return ret ? ret : count;
}
static DEVICE_ATTR_RW(unmap_device);

static ssize_t remap_device_show(struct device *dev,
				 struct device_attribute *attr, char *buf)
{
	return sysfs_emit(buf, "Usage: echo INDEX > %s\n", attr->attr.name);
}

static ssize_t remap_device_store(struct device *dev,
				  struct device_attribute *attr,
				  const char *buf, size_t count)
{
	u32 index;
	int ret;

	if (!capable(CAP_SYS_ADMIN))
		return -EPERM;
	ret = kstrtou32(buf, 10, &index);
	if (ret) {
		pr_warn_ratelimited("remap_device: cannot parse \"%.*s\"\n",
				    (int)min_t(size_t, count, 32), buf);
		return ret;
	}
	ret = rcblk_clt_remap(index);
	return ret ? ret : count;
}
static DEVICE_ATTR_RW(remap_device);

static struct attribute *rcblk_clt_ctl_attrs[] = {
	&dev_attr_map_device.attr,
	&dev_attr_unmap_device.attr,
	&dev_attr_remap_device.attr,
	NULL,
};

const struct attribute_group rcblk_clt_ctl_group = {
	.attrs = rcblk_clt_ctl_attrs,
};

/* /sys/block/rcblkN/rdmachan/ */

static struct rcblk_clt_map *dev_map(struct device *dev)
{
	return dev_to_disk(dev)->private_data;
}

static const char * const rcblk_clt_state_names[] = {
	[RDMACHAN_BLK_LIVE]		= "live",
	[RDMACHAN_BLK_RECONNECTING]	= "reconnecting",
	[RDMACHAN_BLK_DEAD]		= "dead",
};

static ssize_t state_show(struct device *dev, struct device_attribute *attr,
			  char *buf)
{
	struct rdmachan_reconnect_info rci;

	return sysfs_emit(buf, "%s\n",
			  rcblk_clt_state_names[rcblk_clt_state(dev_map(dev),
								&rci)]);
}
static DEVICE_ATTR_RO(state);

/* "X of Y" (Y: what the loss timeout allows), "X" without one; 0 live */
static ssize_t attempt_show(struct device *dev,
			    struct device_attribute *attr, char *buf)
{
	struct rdmachan_reconnect_info rci;

	if (rcblk_clt_state(dev_map(dev), &rci) == RDMACHAN_BLK_LIVE)
		return sysfs_emit(buf, "0\n");
	if (rci.max_attempts)
		return sysfs_emit(buf, "%u of %u\n", rci.attempt,
				  rci.max_attempts);
	return sysfs_emit(buf, "%u\n", rci.attempt);
}
static DEVICE_ATTR_RO(attempt);

#define RCBLK_CLT_RC_ATTR(_name, _field, _state)			\
static ssize_t _name##_show(struct device *dev,				\
			    struct device_attribute *attr, char *buf)	\
{									\
	struct rdmachan_reconnect_info rci;				\
	u32 state = rcblk_clt_state(dev_map(dev), &rci);		\
									\
	return sysfs_emit(buf, "%llu\n",				\
			  (unsigned long long)(_state ? rci._field : 0)); \
}									\
static DEVICE_ATTR_RO(_name)

RCBLK_CLT_RC_ATTR(next_attempt_ms, next_ms,
		  state == RDMACHAN_BLK_RECONNECTING);
RCBLK_CLT_RC_ATTR(deadline_ms, deadline_ms,
		  state == RDMACHAN_BLK_RECONNECTING);
RCBLK_CLT_RC_ATTR(down_ms, down_ms, state != RDMACHAN_BLK_LIVE);

static ssize_t losses_show(struct device *dev, struct device_attribute *attr,
			   char *buf)
{
	struct rdmachan_reconnect_info rci;

	rcblk_clt_state(dev_map(dev), &rci);
	return sysfs_emit(buf, "%u\n", rci.losses);
}
static DEVICE_ATTR_RO(losses);

/*
 * The policy, writable: it applies at once, to a recovery under way too
 * (rdmachan_reconnect_set_policy()).  "off" where never is allowed.
 */
struct rcblk_clt_pol_attr {
	size_t off;	/* in struct rdmachan_reconnect_policy */
	bool can_off;	/* 0 is "off" (never) */
};

static ssize_t rcblk_clt_policy_show(struct device *dev, char *buf,
				     const struct rcblk_clt_pol_attr *pa)
{
	struct rcblk_clt_map *map = dev_map(dev);
	u32 v = READ_ONCE(*(u32 *)((u8 *)&map->policy + pa->off));

	if (pa->can_off && !v)
		return sysfs_emit(buf, "off\n");
	return sysfs_emit(buf, "%u\n", v);
}

static ssize_t rcblk_clt_policy_store(struct device *dev, const char *buf,
				      size_t count,
				      const struct rcblk_clt_pol_attr *pa)
{
	char tok[16];
	u32 ms;
	int ret;

	if (!capable(CAP_SYS_ADMIN))
		return -EPERM;
	if (strscpy(tok, buf, sizeof(tok)) < 0)
		return -EINVAL;
	ret = rcblk_clt_parse_ms(strim(tok), pa->can_off, &ms);
	if (ret)
		return ret;
	ret = rcblk_clt_set_policy(dev_map(dev), pa->off,
				   ms == RDMACHAN_BLK_TMO_OFF ? 0 : ms);
	return ret ? ret : count;
}

#define RCBLK_CLT_POLICY_ATTR(_name, _field, _can_off)			\
static const struct rcblk_clt_pol_attr rcblk_clt_pol_##_name = {	\
	.off = offsetof(struct rdmachan_reconnect_policy, _field),	\
	.can_off = _can_off,						\
};									\
static ssize_t _name##_show(struct device *dev,				\
			    struct device_attribute *attr, char *buf)	\
{									\
	return rcblk_clt_policy_show(dev, buf, &rcblk_clt_pol_##_name); \
}									\
static ssize_t _name##_store(struct device *dev,			\
			     struct device_attribute *attr,		\
			     const char *buf, size_t count)		\
{									\
	return rcblk_clt_policy_store(dev, buf, count,			\
				      &rcblk_clt_pol_##_name);		\
}									\
static DEVICE_ATTR_RW(_name)

RCBLK_CLT_POLICY_ATTR(reconnect_delay_ms, delay_ms, false);
RCBLK_CLT_POLICY_ATTR(loss_timeout_ms, loss_timeout_ms, true);
RCBLK_CLT_POLICY_ATTR(fast_io_fail_ms, fast_fail_ms, true);

static ssize_t server_show(struct device *dev, struct device_attribute *attr,
			   char *buf)
{
	return sysfs_emit(buf, "%pISpc\n", &dev_map(dev)->server);
}
static DEVICE_ATTR_RO(server);

/* the local address given to map (--src), empty for any */
static ssize_t src_show(struct device *dev, struct device_attribute *attr,
			char *buf)
{
	const struct sockaddr_storage *ss = &dev_map(dev)->src;

	if (ss->ss_family != AF_INET && ss->ss_family != AF_INET6)
		return sysfs_emit(buf, "\n");
	return sysfs_emit(buf, "%pISc\n", ss);
}
static DEVICE_ATTR_RO(src);

static ssize_t export_show(struct device *dev, struct device_attribute *attr,
			   char *buf)
{
	return sysfs_emit(buf, "%s\n", dev_map(dev)->name);
}
static DEVICE_ATTR_RO(export);

/* the export's identity, as the server's export_id shows it */
static ssize_t export_id_show(struct device *dev,
			      struct device_attribute *attr, char *buf)
{
	return sysfs_emit(buf, "%*phN\n", RCBLK_ID_LEN,
			  dev_map(dev)->geo.export_id);
}
static DEVICE_ATTR_RO(export_id);

static ssize_t last_error_show(struct device *dev,
			       struct device_attribute *attr, char *buf)
{
	return sysfs_emit(buf, "%d\n", READ_ONCE(dev_map(dev)->last_error));
}
static DEVICE_ATTR_RO(last_error);

#define RCBLK_CLT_U32_ATTR(_name, _expr)				\
static ssize_t _name##_show(struct device *dev,				\
			    struct device_attribute *attr, char *buf)	\
{									\
	struct rcblk_clt_map *map = dev_map(dev);			\
									\
	return sysfs_emit(buf, "%u\n", (u32)(_expr));			\
}									\
static DEVICE_ATTR_RO(_name)

RCBLK_CLT_U32_ATTR(nr_queues, map->nr_queues - map->nr_poll_queues);
RCBLK_CLT_U32_ATTR(poll_queues, map->nr_poll_queues);
RCBLK_CLT_U32_ATTR(queue_depth, map->queue_depth);
RCBLK_CLT_U32_ATTR(max_io, map->geo.max_io);
RCBLK_CLT_U32_ATTR(inline_max, map->inline_max);
RCBLK_CLT_U32_ATTR(staging_pages, map->stage_pages);
RCBLK_CLT_U32_ATTR(features, map->geo.features);
RCBLK_CLT_U32_ATTR(export_flags, map->geo.export_flags);
RCBLK_CLT_U32_ATTR(inflight, atomic_read(&map->st.inflight));

#define RCBLK_CLT_CTR_ATTR(_name, _ctr)				\
static ssize_t _name##_show(struct device *dev,				\
			    struct device_attribute *attr, char *buf)	\
{									\
	return sysfs_emit(buf, "%lld\n",				\
			  atomic64_read(&dev_map(dev)->st._ctr));	\
}									\
static DEVICE_ATTR_RO(_name)

RCBLK_CLT_CTR_ATTR(reads, reads);
RCBLK_CLT_CTR_ATTR(writes, writes);
RCBLK_CLT_CTR_ATTR(read_bytes, read_bytes);
RCBLK_CLT_CTR_ATTR(write_bytes, write_bytes);
RCBLK_CLT_CTR_ATTR(flushes, flushes);
RCBLK_CLT_CTR_ATTR(fua, fua);
RCBLK_CLT_CTR_ATTR(discards, discards);
RCBLK_CLT_CTR_ATTR(write_zeroes, write_zeroes);
RCBLK_CLT_CTR_ATTR(inline_writes, inline_writes);
RCBLK_CLT_CTR_ATTR(staged_reads, staged_reads);
RCBLK_CLT_CTR_ATTR(errors, errors);
RCBLK_CLT_CTR_ATTR(rejected, rejected);
RCBLK_CLT_CTR_ATTR(bogus, bogus);
RCBLK_CLT_CTR_ATTR(timeouts, timeouts);
RCBLK_CLT_CTR_ATTR(held, held);
RCBLK_CLT_CTR_ATTR(reconnects, reconnects);
RCBLK_CLT_CTR_ATTR(remote_inv, remote_inv);
RCBLK_CLT_CTR_ATTR(local_inv, local_inv);
RCBLK_CLT_CTR_ATTR(starved, starved);
RCBLK_CLT_CTR_ATTR(busy, busy);
RCBLK_CLT_CTR_ATTR(posts_now, posts_now);
RCBLK_CLT_CTR_ATTR(batched_replies, batched);

/*
 * The channels that carry the queues, in queue order: each one's sysfs
 * name (chanN), "-" for a queue without one (reconnecting); under the
 * lock that makes and closes them
 */
static ssize_t channels_show(struct device *dev,
			     struct device_attribute *attr, char *buf)
{
	struct rcblk_clt_map *map = dev_map(dev);
	ssize_t len = 0;
	u32 i;

	if (mutex_lock_interruptible(&map->lock))
		return -EINTR;
	for (i = 0; i < map->nr_queues; i++) {
		struct rdmachan *ch = map->queues ? map->queues[i].ch : NULL;

		if (ch)
			len += sysfs_emit_at(buf, len, "%schan%u", i ? " " : "",
					     rdmachan_chan_id(ch));
		else
			len += sysfs_emit_at(buf, len, "%s-", i ? " " : "");
	}
	mutex_unlock(&map->lock);
	len += sysfs_emit_at(buf, len, "\n");
	return len;
}
static DEVICE_ATTR_RO(channels);

/* The request latencies by class (hist.c's lines); a write resets one */
#define RCBLK_CLT_HIST_ATTR(_name, _class)				\
static struct rdmachan_hist *_name##_of(struct device *dev)		\
{									\
	return dev_map(dev)->hist[_class];				\
}									\
static ssize_t _name##_show(struct device *dev,				\
			    struct device_attribute *attr, char *buf)	\
{									\
	return rdmachan_hist_show(_name##_of(dev), buf);		\
}									\
static ssize_t _name##_store(struct device *dev,			\
			     struct device_attribute *attr,		\
			     const char *buf, size_t count)		\
{									\
	rdmachan_hist_reset(_name##_of(dev));				\
	return count;							\
}									\
static DEVICE_ATTR_RW(_name)

RCBLK_CLT_HIST_ATTR(hist_read, RCBLK_HIST_READ);
RCBLK_CLT_HIST_ATTR(hist_write, RCBLK_HIST_WRITE);
RCBLK_CLT_HIST_ATTR(hist_other, RCBLK_HIST_OTHER);

static struct attribute *rcblk_clt_disk_attrs[] = {
	&dev_attr_channels.attr,
	&dev_attr_hist_read.attr,
	&dev_attr_hist_write.attr,
	&dev_attr_hist_other.attr,
	&dev_attr_state.attr,
	&dev_attr_attempt.attr,
	&dev_attr_next_attempt_ms.attr,
	&dev_attr_deadline_ms.attr,
	&dev_attr_down_ms.attr,
	&dev_attr_losses.attr,
	&dev_attr_reconnect_delay_ms.attr,
	&dev_attr_loss_timeout_ms.attr,
	&dev_attr_fast_io_fail_ms.attr,
	&dev_attr_server.attr,
	&dev_attr_src.attr,
	&dev_attr_export.attr,
	&dev_attr_export_id.attr,
	&dev_attr_last_error.attr,
	&dev_attr_nr_queues.attr,
	&dev_attr_poll_queues.attr,
	&dev_attr_queue_depth.attr,
	&dev_attr_max_io.attr,
	&dev_attr_inline_max.attr,
	&dev_attr_staging_pages.attr,
	&dev_attr_features.attr,
	&dev_attr_export_flags.attr,
	&dev_attr_inflight.attr,
	&dev_attr_reads.attr,
	&dev_attr_writes.attr,
	&dev_attr_read_bytes.attr,
	&dev_attr_write_bytes.attr,
	&dev_attr_flushes.attr,
	&dev_attr_fua.attr,
	&dev_attr_discards.attr,
	&dev_attr_write_zeroes.attr,
	&dev_attr_inline_writes.attr,
	&dev_attr_staged_reads.attr,
	&dev_attr_errors.attr,
	&dev_attr_rejected.attr,
	&dev_attr_bogus.attr,
	&dev_attr_timeouts.attr,
	&dev_attr_held.attr,
	&dev_attr_reconnects.attr,
	&dev_attr_remote_inv.attr,
	&dev_attr_local_inv.attr,
	&dev_attr_starved.attr,
	&dev_attr_busy.attr,
	&dev_attr_posts_now.attr,
	&dev_attr_batched_replies.attr,
	NULL,
};

static const struct attribute_group rcblk_clt_disk_group = {
	.name	= "rdmachan",
	.attrs	= rcblk_clt_disk_attrs,
};

const struct attribute_group *rcblk_clt_disk_groups[] = {
	&rcblk_clt_disk_group,
	NULL,
};
