// SPDX-License-Identifier: GPL-2.0-only
/*
 * rdmachan: one-sided ioctls of a channel file - REG_MR, DEREG_MR, RDMA
 *
 * Arguments are checked by ioctl_check.c; registrations are named by
 * handles, looked up (and held) for the length of an RDMA call.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/slab.h>
#include <linux/uaccess.h>

#include <linux/rdmachan.h>

#include "rdmachan-pri.h"
#include "ioctl.h"

long rdmachan_ioc_reg_mr(struct rdmachan *ch, void __user *uarg)
{
	struct rdmachan_reg_mr r;
	struct rdmachan_mr *mr;
	long ret;

	if (copy_from_user(&r, uarg, sizeof(r)))
		return -EFAULT;
	ret = rdmachan_check_reg_mr(&r);
	if (ret)
		return ret;
	ret = rdmachan_mr_reg_user(ch, r.addr, r.length, r.access, &mr);
	if (ret)
		return ret;
	r.handle = mr->handle;
	rdmachan_mr_remote(mr, &r.remote);
	if (copy_to_user(uarg, &r, sizeof(r))) {
		rdmachan_mr_dereg_user(ch, r.handle);
		return -EFAULT;
	}
	return 0;
}

long rdmachan_ioc_dereg_mr(struct rdmachan *ch, void __user *uarg)
{
	struct rdmachan_dereg_mr d;
	long ret;

	if (copy_from_user(&d, uarg, sizeof(d)))
		return -EFAULT;
	ret = rdmachan_check_dereg_mr(&d);
	if (ret)
		return ret;
	return rdmachan_mr_dereg_user(ch, d.handle);
}

/* Copy in op @i's segments and look up (hold) their registrations. */
static int rdmachan_rdma_segs(struct rdmachan *ch,
			      struct rdmachan_rdma_call *c, u32 i)
{
	const struct rdmachan_rdma_op *u = &c->uops[i];
	struct rdmachan_op *op = &c->ops[i];
	u32 k;

	if (copy_from_user(c->usges, u64_to_user_ptr(u->sgl),
			   u->nr_sge * sizeof(c->usges[0])))
		return -EFAULT;
	for (k = 0; k < u->nr_sge; k++) {
		struct rdmachan_seg *seg = &c->segs[i][k];

		seg->mr = rdmachan_mr_get_user(ch, c->usges[k].handle);
		if (!seg->mr) {
			pr_info_ratelimited("RDMACHAN_IOC_RDMA: op %u segment %u: no registration %u\n",
					    i, k, c->usges[k].handle);
			return -ENOENT;
		}
		op->nr_segs++;
		seg->offset = c->usges[k].offset;
		seg->length = c->usges[k].length;
	}
	return 0;
}

static void rdmachan_rdma_from_user(struct rdmachan_op *op,
				    const struct rdmachan_rdma_op *u,
				    const struct rdmachan_seg *segs)
{
	op->opcode = u->opcode;
	op->flags = u->flags;
	op->segs = segs;
	op->imm = u->imm;
	op->remote_addr = u->remote_addr;
	op->rkey = u->rkey;
	op->compare_add = u->compare_add;
	op->swap = u->swap;
}

long rdmachan_ioc_rdma(struct rdmachan *ch, void __user *uarg)
{
	struct rdmachan_rdma_call *c;
	struct rdmachan_rdma r;
	u32 i, k, done;
	long ret;

	if (copy_from_user(&r, uarg, sizeof(r)))
		return -EFAULT;
	ret = rdmachan_check_rdma(&r);
	if (ret)
		return ret;
	c = kvzalloc(sizeof(*c), GFP_KERNEL);
	if (!c)
		return -ENOMEM;
	if (copy_from_user(c->uops, u64_to_user_ptr(r.ops),
			   r.count * sizeof(c->uops[0]))) {
		ret = -EFAULT;
		goto free;
	}
	for (i = 0; i < r.count; i++) {
		ret = rdmachan_check_rdma_op(&c->uops[i], i);
		if (ret)
			goto put;
		rdmachan_rdma_from_user(&c->ops[i], &c->uops[i], c->segs[i]);
		ret = rdmachan_rdma_segs(ch, c, i);
		if (ret)
			goto put;
	}

	if (r.flags & RDMACHAN_RDMA_ASYNC) {
		ret = rdmachan_ioc_rdma_async(ch, c, r.count);
		if (!ret) {
			r.done = r.count;
			/* EFAULT here: the call did go out; reap its outcomes */
			if (copy_to_user(uarg, &r, sizeof(r)))
				ret = -EFAULT;
			goto put;
		}
		if (ret == -ENOBUFS || ret == -ENOMEM)
			goto put;
	} else {
		ret = rdmachan_rdma(ch, c->ops, r.count);
		if (ret == -EINTR)
			goto put;
	}
	for (i = 0, done = 0; i < r.count; i++) {
		c->uops[i].status = c->ops[i].status;
		c->uops[i].wc_status = c->ops[i].wc_status;
		c->uops[i].result = c->ops[i].result;
		if (!c->ops[i].status && done == i)
			done++;
	}
	r.done = done;
	if (copy_to_user(u64_to_user_ptr(r.ops), c->uops,
			 r.count * sizeof(c->uops[0])) ||
	    copy_to_user(uarg, &r, sizeof(r)))
		ret = -EFAULT;
put:
	for (i = 0; i < r.count; i++)
		for (k = 0; k < c->ops[i].nr_segs; k++)
			rdmachan_mr_put(c->segs[i][k].mr);
free:
	kvfree(c);
	return ret;
}
