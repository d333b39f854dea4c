/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * rdmachan: a channel's own memory - its count (rdmachan.mem, sysfs
 * mem_bytes), its memory cgroup, its message buffers (chan_qp.c)
 */
#ifndef RDMACHAN_CHAN_MEM_H
#define RDMACHAN_CHAN_MEM_H

#include <linux/memcontrol.h>
#include <linux/sched/mm.h>

#include "rdmachan-pri.h"

/**
 * rdmachan_mem_charge() - count memory a channel allocated for itself
 * @ch: the channel
 * @bytes: what the allocator took (kmalloc_size_roundup() of the size
 *	asked for, or whole pages); negative for what it freed
 *
 * Context: any.
 */
static inline void rdmachan_mem_charge(struct rdmachan *ch, long bytes)
{
	atomic_long_add(bytes, &ch->mem);
}

/*
 * Memory cgroups.  What a channel made through /dev/rdmachan allocates for
 * itself is charged to its maker's memory cgroup (&rdmachan.memcg), in
 * whatever context it is allocated (the accept work, a sender, a work
 * item): rdmachan_mem_begin() makes that cgroup the active one until
 * rdmachan_mem_end(), and rdmachan_gfp() asks for the charge.
 */

/* A reference to the calling process's memory cgroup, or NULL */
static inline struct mem_cgroup *rdmachan_memcg_caller(void)
{
	return current->mm ? get_mem_cgroup_from_mm(current->mm) : NULL;
}

/* Another reference to @memcg (NULL: none) */
static inline struct mem_cgroup *rdmachan_memcg_get(struct mem_cgroup *memcg)
{
#ifdef CONFIG_MEMCG
	if (memcg)
		css_get(&memcg->css);
#endif
	return memcg;
}

/*
 * Charged, and refused rather than paid for with an OOM kill: a channel
 * its maker's cgroup has no room for fails with -ENOMEM
 */
static inline gfp_t rdmachan_gfp(const struct rdmachan *ch, gfp_t gfp)
{
	return ch->memcg ? gfp | __GFP_ACCOUNT | __GFP_RETRY_MAYFAIL : gfp;
}

/* Return: what rdmachan_mem_end() restores */
static inline struct mem_cgroup *rdmachan_mem_begin(struct rdmachan *ch)
{
	return ch->memcg ? set_active_memcg(ch->memcg) : NULL;
}

static inline void rdmachan_mem_end(struct rdmachan *ch,
				    struct mem_cgroup *old)
{
	if (ch->memcg)
		set_active_memcg(old);
}

/* chan_qp.c */
void *rdmachan_buf_alloc(size_t size, gfp_t gfp);
void rdmachan_buf_free(void *buf, size_t size);

#endif /* RDMACHAN_CHAN_MEM_H */
