// SPDX-License-Identifier: GPL-2.0-only
/*
 * rdmachan: probing device limits the RDMA core does not report
 *
 * struct ib_device_attr has no inline-data limit: it is a property of a
 * QP, and devices differ in whether they reject or round a request.  We
 * find the largest request an RC QP accepts by bisection, once per
 * device, and keep what the device reported back for it.
 */
#include <rdma/ib_verbs.h>

#include "device.h"

#define RDMACHAN_PROBE_INLINE_MAX	4096

static int rdmachan_try_inline(struct ib_pd *pd, struct ib_cq *cq, u32 len,
			       u32 *granted)
{
	struct ib_qp_init_attr attr = {
		.send_cq = cq,
		.recv_cq = cq,
		.qp_type = IB_QPT_RC,
		.sq_sig_type = IB_SIGNAL_REQ_WR,
		.cap = {
			.max_send_wr = 1,
			.max_recv_wr = 1,
			.max_send_sge = 1,
			.max_recv_sge = 1,
			.max_inline_data = len,
		},
	};
	struct ib_qp *qp;

	qp = ib_create_qp(pd, &attr);
	if (IS_ERR(qp))
		return PTR_ERR(qp);
	*granted = attr.cap.max_inline_data;
	ib_destroy_qp(qp);
	return 0;
}

/**
 * rdmachan_device_probe_inline() - largest inline data of an RC QP
 * @ibdev: the device
 * @pd: a protection domain on @ibdev
 *
 * Context: process context, may sleep.
 * Return: the limit in bytes; 0 if the device takes no inline data or the
 * probe could not run (e.g. out of memory).
 */
u32 rdmachan_device_probe_inline(struct ib_device *ibdev, struct ib_pd *pd)
{
	u32 lo = 0, hi = RDMACHAN_PROBE_INLINE_MAX, best = 0, granted;
	struct ib_cq *cq;

	cq = ib_alloc_cq(ibdev, NULL, 2, 0, IB_POLL_DIRECT);
	if (IS_ERR(cq))
		return 0;

	if (rdmachan_try_inline(pd, cq, 0, &granted))
		goto out;
	best = granted;

	/* Invariant: a request of lo is accepted, one of hi + 1 is not known */
	while (lo < hi) {
		u32 mid = lo + (hi - lo + 1) / 2;

		if (!rdmachan_try_inline(pd, cq, mid, &granted)) {
			lo = mid;
			best = max(best, granted);
		} else {
			hi = mid - 1;
		}
	}
out:
	ib_free_cq(cq);
	return best;
}
