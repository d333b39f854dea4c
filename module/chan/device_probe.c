// SPDX-License-Identifier: GPL-2.0-only
/*
 * rdmachan: probing device limits the RDMA core does not report
 *
 * struct ib_device_attr has no inline-data limit: it is a property of a
 * QP, and devices differ in whether they reject or round a request.
 * Once per device, we first ask: a QP with as many send SGEs as the
 * device allows and no inline data, whose granted capabilities (rxe
 * rounds the inline limit up to its work request's size) or
 * ib_query_qp() (siw reports its limit there) name the limit, which a
 * second QP then requests.  Only a device that names none, or whose
 * named limit is refused, is bisected for the largest request an RC QP
 * accepts.  Each refusal is a failed QP creation, which some drivers log
 * as an error (rxe on 6.12): asking first keeps a load quiet where the
 * device answers.
 */
#include <rdma/ib_verbs.h>

#include "device.h"

#define RDMACHAN_PROBE_INLINE_MAX	4096

/*
 * A QP of @sges send SGEs asking for @len bytes of inline data: 0 and
 * in *@granted the limit the device granted or reports for it, or the
 * error of its creation
 */
static int rdmachan_try_inline(struct ib_pd *pd, struct ib_cq *cq, u32 len,
			       u32 sges, u32 *granted)
{
	struct ib_qp_init_attr attr = {
		.send_cq = cq,
		.recv_cq = cq,
		.qp_type = IB_QPT_RC,
		.sq_sig_type = IB_SIGNAL_REQ_WR,
		.cap = {
			.max_send_wr = 1,
			.max_recv_wr = 1,
			.max_send_sge = sges,
			.max_recv_sge = 1,
			.max_inline_data = len,
		},
	};
	struct ib_qp_init_attr qinit;
	struct ib_qp_attr qattr;
	struct ib_qp *qp;

	qp = ib_create_qp(pd, &attr);
	if (IS_ERR(qp))
		return PTR_ERR(qp);
	*granted = attr.cap.max_inline_data;
	if (!ib_query_qp(qp, &qattr, IB_QP_CAP, &qinit))
		*granted = max(*granted, qattr.cap.max_inline_data);
	ib_destroy_qp(qp);
	return 0;
}

/*
 * The limit the device names for a QP of its most send SGEs, if a QP
 * that requests it is created; 0 otherwise
 */
static u32 rdmachan_inline_named(struct ib_device *ibdev, struct ib_pd *pd,
				 struct ib_cq *cq)
{
	u32 sges = max(ibdev->attrs.max_send_sge, 1);
	u32 named, granted;

	if (rdmachan_try_inline(pd, cq, 0, sges, &named) || !named)
		return 0;
	named = min_t(u32, named, RDMACHAN_PROBE_INLINE_MAX);
	if (rdmachan_try_inline(pd, cq, named, 1, &granted))
		return 0;
	return max(named, min_t(u32, granted, RDMACHAN_PROBE_INLINE_MAX));
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

	best = rdmachan_inline_named(ibdev, pd, cq);
	if (best)
		goto out;
	if (rdmachan_try_inline(pd, cq, 0, 1, &granted))
		goto out;
	best = granted;

	/* Invariant: a request of lo is accepted, one of hi + 1 is not known */
	while (lo < hi) {
		u32 mid = lo + (hi - lo + 1) / 2;

		if (!rdmachan_try_inline(pd, cq, mid, 1, &granted)) {
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
