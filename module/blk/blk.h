/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * rdmachan_blk: what the module's two sides share
 *
 * blk_main.c loads the module: it creates the class "rdmachan_blk" with
 * one device "ctl" (/sys/class/rdmachan_blk/ctl/) that carries both
 * sides' control files, and takes /dev/rdmachan's ioctls
 * RDMACHAN_IOC_BLK_* (blk_ioctl.c), which it hands to a side.
 *
 * Server (blk_srv*.c): exports, the listener, serving requests.
 * Client (blk_clt*.c): mappings, their disks and channels.
 * Both: the wire protocol (blk_proto.[ch]), pure and unit-tested.
 */
#ifndef RCBLK_H
#define RCBLK_H

#include <linux/device.h>
#include <linux/sysfs.h>

#include <linux/rdmachan_blk.h>

#include "rdmachan.h"
#include "blk_proto.h"

struct block_device;

/* blk_params.c: the module's parameters, read with rcblk_param(NAME) */
#define rcblk_param(name)	rdmachan_param_val(&rcblk_param_##name)
extern struct rdmachan_uint_param rcblk_param_clt_queue_depth,
	rcblk_param_clt_inline_kb, rcblk_param_clt_timeout_ms,
	rcblk_param_clt_reconnect_delay_ms,
	rcblk_param_clt_reconnect_max_delay_ms,
	rcblk_param_clt_loss_timeout_ms, rcblk_param_clt_fast_io_fail_ms,
	rcblk_param_clt_reply_batch, rcblk_param_clt_staged_reads,
	rcblk_param_port, rcblk_param_queue_depth, rcblk_param_max_io_kb,
	rcblk_param_inline_kb, rcblk_param_open_timeout_ms,
	rcblk_param_max_queues, rcblk_param_max_peer_queues,
	rcblk_param_max_session_queues, rcblk_param_max_export_queues,
	rcblk_param_pull_window_kb;
extern char *rcblk_param_exports;

/*
 * Credits a queue's channel grants at the least, both sides
 * (&rdmachan_opts.min_grant): READs are answered by RDMA WRITE_WITH_IMM,
 * which returns a credit only where both ends' channels set
 * &rdmachan_opts.imm_credit (an older peer's do not); elsewhere the
 * server returns them in explicit messages, one per min_grant / 2
 * requests at low depths (at QD1 one of every two requests with a grant
 * of one)
 */
#define RCBLK_MIN_GRANT		16

/*
 * The latency histograms of a mapping (by the client) and of an export
 * (by the server), one an operation class: READ, WRITE, the others
 * (FLUSH, DISCARD, WRITE_ZEROES); Documentation/debugging.rst
 */
enum {
	RCBLK_HIST_READ,
	RCBLK_HIST_WRITE,
	RCBLK_HIST_OTHER,
	RCBLK_HIST_NR
};

/* The histogram class of a wire operation (RCBLK_OP_*) */
static inline unsigned int rcblk_hist_class(u8 op)
{
	return op == RCBLK_OP_READ ? RCBLK_HIST_READ :
	       op == RCBLK_OP_WRITE ? RCBLK_HIST_WRITE : RCBLK_HIST_OTHER;
}

/* An object's histograms, where latency_hist says so (else NULL) */
static inline void rcblk_hists_make(struct rdmachan_hist **h)
{
	unsigned int i;

	if (!rdmachan_hist_enabled())
		return;
	for (i = 0; i < RCBLK_HIST_NR; i++)
		h[i] = rdmachan_hist_alloc(GFP_KERNEL);
}

static inline void rcblk_hists_free(struct rdmachan_hist **h)
{
	unsigned int i;

	for (i = 0; i < RCBLK_HIST_NR; i++)
		rdmachan_hist_free(h[i]);
}

/* The ctl device, /sys/class/rdmachan_blk/ctl (blk_main.c) */
extern struct device *rcblk_ctl_dev;

/* Control files of each side under ctl/ */
extern const struct attribute_group rcblk_srv_ctl_group;
extern const struct attribute_group rcblk_clt_ctl_group;

/* Server side (blk_srv*.c) */
int rcblk_srv_init(void);
void rcblk_srv_exit(void);
int rcblk_srv_start(void);
void rcblk_srv_stop(void);
int rcblk_srv_export(const struct rdmachan_blk_export *e);
int rcblk_srv_unexport(const char *name, u32 flags);
int rcblk_srv_list(struct rdmachan_blk_export_info __user *entries,
		   u32 room, u32 *count);

/* Client side (blk_clt*.c) */
int rcblk_clt_init(void);
void rcblk_clt_exit(void);
int rcblk_clt_map(struct rdmachan_blk_map *m);
int rcblk_clt_unmap(u32 index, u32 flags);
int rcblk_clt_remap(u32 index);
int rcblk_clt_list(struct rdmachan_blk_map_info __user *entries, u32 room,
		   u32 *count);
/**
 * struct rcblk_pages - pages of the module's own that RDMA reaches, and
 *	the scatterlist their registration is made from (blk_pages.c)
 * @pages: @nr pages
 * @sgl: @nr entries, a whole page each
 * @nr: pages allocated
 */
struct rcblk_pages {
	struct page **pages;
	struct scatterlist *sgl;
	u32 nr;
};

int rcblk_pages_alloc(struct rcblk_pages *p, u32 nr);
void rcblk_pages_free(struct rcblk_pages *p);

/* blk_ioctl.c: a list ioctl's snapshot under @lock, copied out after */
int rcblk_list_out(void __user *entries, u32 room, u32 *count, size_t esize,
		   struct mutex *lock, u32 (*snapshot)(void *buf, u32 room));
/* what the server asks the client: is an export's device a loop? */
bool rcblk_clt_loop_check(struct block_device *bdev, const u8 *session);

#endif /* RCBLK_H */
