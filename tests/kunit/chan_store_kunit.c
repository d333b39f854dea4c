// SPDX-License-Identifier: GPL-2.0-only
/*
 * KUnit suites of rdmachan_chan_kunit.ko for what a block driver or a
 * netdev needs of rdmachan.ko's exported API, over a connected pair
 * (chan_fixture.h):
 *
 * "rdmachan_chan_store": posts that never sleep and the writable callback
 * when a refused one may go, rdmachan_rdma_start() from a recv callback
 * and from hard interrupt context.
 *
 * "rdmachan_chan_pool" and "rdmachan_chan_pool_multi": pools of fast
 * registrations for one I/O at a time, sent in front of the message that
 * names them, and their invalidation by the peer (SEND_INV) or locally.
 * Their .init sets up what every test of theirs uses (ct_pool_init()): a
 * pair, a pool of one registration (rdmachan_chan_pool) or of two
 * (rdmachan_chan_pool_multi) on the connected end, and zeroed buffers.
 */
#include <linux/delay.h>
#include <linux/errno.h>
#include <linux/hrtimer.h>
#include <linux/scatterlist.h>
#include <linux/string.h>

#include "chan_fixture.h"

#define CT_POOL_PAGES	4
#define CT_IMM_REPLY	0x00c0ffee

/*
 * NONBLOCK sends until -EAGAIN (the receiver holds every message): no
 * writable callback yet; the receiver releases them, the credits come
 * back, and ->writable runs once, in the completion context.
 */
static void chan_test_writable_send(struct kunit *test)
{
	struct rdmachan_opts opts = { .queue_depth = 4, .max_msg_size = 64 };
	struct ct_ctx *c = test->priv;
	struct ct_sink *s = &c->sink[CT_CLI];
	struct rdmachan_msg *msg = NULL;
	struct rdmachan *srv, *cli;
	u8 byte = 1;
	struct kvec v = { .iov_base = &byte, .iov_len = 1 };
	int i, ret = 0, sent = 0;

	ct_pair(test, CT_PORT_WRITABLE_SEND, &opts, &ct_store_ops, &opts,
		&ct_store_ops);
	srv = c->ch[CT_SRV];
	cli = c->ch[CT_CLI];
	/*
	 * The grant starts at one credit and grows as the messages arrive:
	 * blocking sends fill the depth (a blocking sender's wait is no
	 * refusal, ->writable is not called for it), then a non-blocking one
	 * is refused
	 */
	for (i = 0; i < 4; i++) {
		ct_wd_arm(c, CT_TIMEOUT);
		ret = rdmachan_send(cli, &v, 1, 0, 0);
		KUNIT_EXPECT_FALSE(test, ct_wd_disarm(c));
		if (ret)
			break;
		sent++;
	}
	KUNIT_EXPECT_EQ(test, sent, 4);
	ret = rdmachan_send_ext(cli, &v, 1, 0, RDMACHAN_SEND_NONBLOCK, NULL);
	KUNIT_EXPECT_EQ(test, ret, -EAGAIN);
	/* a second refusal before room returns: still one call */
	KUNIT_EXPECT_EQ(test, rdmachan_send(cli, &v, 1, 0,
					    RDMACHAN_SEND_NONBLOCK),
			-EAGAIN);
	msleep(100);
	KUNIT_EXPECT_EQ(test, atomic_read(&s->nr_writable), 0);

	for (i = 0; i < sent; i++) {
		KUNIT_ASSERT_EQ(test, ct_pull(srv, &msg, false), 0);
		rdmachan_msg_release(srv, msg);
	}
	KUNIT_EXPECT_TRUE(test, ct_wait_atomic(s, &s->nr_writable, 1));
	msleep(200);
	KUNIT_EXPECT_EQ(test, atomic_read(&s->nr_writable), 1);
	KUNIT_EXPECT_EQ(test, atomic_read(&s->writable_task), 0);
	KUNIT_EXPECT_EQ(test, rdmachan_send(cli, &v, 1, 0,
					    RDMACHAN_SEND_NONBLOCK),
			0);
}

/*
 * rdmachan_rdma_start() from the server's recv callback (softirq): the
 * WRITE lands and its end runs.  Then, with bottom halves off so that no
 * completion can run on this CPU, single-op starts fill the one-sided
 * room until -EAGAIN; once they complete ->writable runs, and a start
 * goes again.
 */
static void chan_test_rdma_start(struct kunit *test)
{
	struct rdmachan_opts opts = { .queue_depth = 8, .max_msg_size = 256 };
	const u32 len = 64;
	struct ct_ctx *c = test->priv;
	struct ct_sink *s = &c->sink[CT_SRV];
	struct rdmachan_remote_mr desc;
	struct rdmachan_op *ops;
	struct rdmachan_seg *seg;
	struct rdmachan *srv, *cli;
	u8 *dst, *src;
	struct kvec v;
	int i, n, ret = 0, started = 0;

	ct_pair(test, CT_PORT_RDMA_START, &opts, &ct_start_ops, &opts,
		&ct_store_ops);
	srv = c->ch[CT_SRV];
	cli = c->ch[CT_CLI];
	dst = kunit_kzalloc(test, len, GFP_KERNEL);
	src = kunit_kmalloc(test, len, GFP_KERNEL);
	n = 200;
	ops = kunit_kcalloc(test, n, sizeof(*ops), GFP_KERNEL);
	seg = kunit_kzalloc(test, sizeof(*seg), GFP_KERNEL);
	KUNIT_ASSERT_TRUE(test, dst && src && ops && seg);
	memset(src, 0x3c, len);
	KUNIT_ASSERT_EQ(test, rdmachan_mr_reg_kbuf(cli, dst, len,
						   RDMACHAN_ACCESS_LOCAL_WRITE |
						   RDMACHAN_ACCESS_REMOTE_WRITE,
						   &c->kmr[CT_CLI]),
			0);
	KUNIT_ASSERT_EQ(test, rdmachan_mr_reg_kbuf(srv, src, len, 0,
						   &c->kmr[CT_SRV]),
			0);
	rdmachan_mr_remote(c->kmr[CT_CLI], &desc);
	*seg = (struct rdmachan_seg){ .mr = c->kmr[CT_SRV], .length = len };
	for (i = 0; i < n; i++)
		ops[i] = (struct rdmachan_op){ .opcode = RDMACHAN_OP_WRITE,
					       .segs = seg, .nr_segs = 1,
					       .remote_addr = desc.addr,
					       .rkey = desc.rkey };
	s->start_ops = &ops[0];
	s->start_count = 1;
	v = (struct kvec){ .iov_base = &desc, .iov_len = sizeof(desc) };
	KUNIT_ASSERT_EQ(test, rdmachan_send(cli, &v, 1, 0, 0), 0);
	KUNIT_ASSERT_TRUE(test, ct_sink_wait(s, 1));
	KUNIT_EXPECT_TRUE(test, s->start_called);
	KUNIT_EXPECT_EQ(test, s->start_ret, 0);
	KUNIT_EXPECT_TRUE(test, s->start_bh);
	KUNIT_EXPECT_TRUE(test, ct_wait_atomic(s, &s->nr_end, 1));
	KUNIT_EXPECT_EQ(test, s->end_err, 0);
	KUNIT_EXPECT_EQ(test, ops[0].status, 0);
	KUNIT_EXPECT_EQ(test, memcmp(dst, src, len), 0);

	/* fill the one-sided room without letting a completion run here */
	local_bh_disable();
	for (i = 1; i < n; i++) {
		ret = rdmachan_rdma_start(srv, &ops[i], 1, ct_start_end, s);
		if (ret)
			break;
		started++;
	}
	local_bh_enable();
	if (ret != -EAGAIN) {
		kunit_info(test, "%d starts, no -EAGAIN (%d): completions ran elsewhere\n",
			   started, ret);
		KUNIT_EXPECT_EQ(test, ret, 0);
	} else {
		KUNIT_EXPECT_EQ(test, ops[i].status, -ECANCELED);
		KUNIT_EXPECT_TRUE(test, ct_wait_atomic(s, &s->nr_writable, 1));
	}
	KUNIT_EXPECT_TRUE(test, ct_wait_atomic(s, &s->nr_end, 1 + started));
	KUNIT_EXPECT_EQ(test, s->end_err, 0);
	KUNIT_EXPECT_EQ(test, rdmachan_rdma_start(srv, &ops[n - 1], 1,
						  ct_start_end, s),
			0);
	KUNIT_EXPECT_TRUE(test, ct_wait_atomic(s, &s->nr_end, 2 + started));

	/* from hard interrupt context */
	c->hrt_ch = srv;
	c->hrt_op = &ops[0];
	hrtimer_start(&c->hrt, ms_to_ktime(1), HRTIMER_MODE_REL_HARD);
	KUNIT_ASSERT_TRUE(test, ct_wait_atomic(s, &c->hrt_fired, 1));
	KUNIT_EXPECT_TRUE(test, c->hrt_hard);
	KUNIT_EXPECT_EQ(test, c->hrt_ret, 0);
	KUNIT_EXPECT_TRUE(test, ct_wait_atomic(s, &s->nr_end, 3 + started));
	KUNIT_EXPECT_EQ(test, ops[0].status, 0);
	KUNIT_EXPECT_EQ(test, rdmachan_get_state(srv), RDMACHAN_CONNECTED);
}

/*
 * The client maps @buf through its pool and sends the registration's
 * descriptor with the fast registration in front (rdmachan_send_ext()),
 * the server pulls it and RDMA WRITEs @len bytes of @pattern into it.
 * Return: the client's registration (the test puts it back).
 */
static struct rdmachan_mr *ct_pool_io(struct kunit *test, void *buf, u32 len,
				      u8 pattern,
				      struct rdmachan_remote_mr *desc)
{
	struct ct_ctx *c = test->priv;
	struct rdmachan *srv = c->ch[CT_SRV], *cli = c->ch[CT_CLI];
	const u32 rw = RDMACHAN_ACCESS_LOCAL_WRITE |
		       RDMACHAN_ACCESS_REMOTE_WRITE;
	struct rdmachan_send_ext ext = { .nr_regs = 1 };
	struct rdmachan_remote_mr got;
	struct rdmachan_msg *msg = NULL;
	struct rdmachan_mr *mr = NULL;
	struct rdmachan_seg seg;
	struct rdmachan_op op;
	struct scatterlist sg;
	struct kvec v;
	void *src;

	memset(buf, 0, len);
	sg_init_one(&sg, buf, len);
	KUNIT_ASSERT_EQ(test, rdmachan_mr_pool_map(c->pool, &sg, 1, rw, &mr),
			0);
	rdmachan_mr_remote(mr, desc);
	KUNIT_EXPECT_EQ(test, desc->length, (u64)len);
	ext.regs = &mr;
	v = (struct kvec){ .iov_base = desc, .iov_len = sizeof(*desc) };
	KUNIT_ASSERT_EQ(test, rdmachan_send_ext(cli, &v, 1, 0,
						RDMACHAN_SEND_NONBLOCK, &ext),
			0);
	/* a registration goes out once */
	KUNIT_EXPECT_EQ(test, rdmachan_send_ext(cli, &v, 1, 0,
						RDMACHAN_SEND_NONBLOCK, &ext),
			-EINVAL);

	KUNIT_ASSERT_EQ(test, ct_pull(srv, &msg, false), 0);
	KUNIT_ASSERT_EQ(test, msg->len, (u32)sizeof(got));
	memcpy(&got, msg->data, sizeof(got));
	rdmachan_msg_release(srv, msg);
	KUNIT_EXPECT_EQ(test, got.rkey, desc->rkey);

	/* the server's source: a kernel registration of its own, made once */
	if (!c->kmr[CT_SRV]) {
		src = kunit_kmalloc(test, len, GFP_KERNEL);
		KUNIT_ASSERT_NOT_NULL(test, src);
		KUNIT_ASSERT_EQ(test, rdmachan_mr_reg_kbuf(srv, src, len, 0,
							   &c->kmr[CT_SRV]),
				0);
		c->pool_src = src;
		c->pool_src_len = len;
	} else if (c->pool_src_len < len) {
		KUNIT_FAIL(test, "the source registration is too short");
	}
	memset(c->pool_src, pattern, len);
	seg = (struct rdmachan_seg){ .mr = c->kmr[CT_SRV], .length = len };
	op = (struct rdmachan_op){ .opcode = RDMACHAN_OP_WRITE, .segs = &seg,
				   .nr_segs = 1, .remote_addr = got.addr,
				   .rkey = got.rkey };
	KUNIT_EXPECT_EQ(test, rdmachan_rdma(srv, &op, 1), 0);
	return mr;
}

/*
 * The server replies to the I/O of registration @rkey with an empty
 * message whose immediate is the status, sent with SEND_INV of @rkey
 * when @inv; the client pulls it and checks its immediate and
 * invalidation.
 */
static void ct_pool_reply(struct kunit *test, bool inv, u32 rkey)
{
	struct ct_ctx *c = test->priv;
	struct rdmachan *srv = c->ch[CT_SRV], *cli = c->ch[CT_CLI];
	struct rdmachan_send_ext ext = { .inv_rkey = rkey };
	struct rdmachan_msg *msg = NULL;
	struct kvec v = {};

	if (inv)
		KUNIT_EXPECT_EQ(test, rdmachan_send_ext(srv, NULL, 0,
							CT_IMM_REPLY,
							RDMACHAN_SEND_IMM |
							RDMACHAN_SEND_INV,
							&ext),
				0);
	else
		KUNIT_EXPECT_EQ(test, rdmachan_send(srv, &v, 0, CT_IMM_REPLY,
						    RDMACHAN_SEND_IMM),
				0);

	KUNIT_ASSERT_EQ(test, ct_pull(cli, &msg, false), 0);
	KUNIT_EXPECT_EQ(test, msg->len, 0U);
	KUNIT_EXPECT_TRUE(test, msg->has_imm);
	KUNIT_EXPECT_EQ(test, msg->imm, (u32)CT_IMM_REPLY);
	KUNIT_EXPECT_EQ(test, msg->invalidated, inv);
	if (inv)
		KUNIT_EXPECT_EQ(test, msg->inv_rkey, rkey);
	rdmachan_msg_release(cli, msg);
}

/*
 * The pool suites' fixture: ct_init(), then a pair whose ends may send
 * one registration in front of a message, on a port of its own; a pool
 * of @count registrations of CT_POOL_PAGES pages on the connected end
 * (c->pool), after checking that a larger one is refused: bounded by
 * queue_depth * max_send_regs and by the device's pages; and CT_NR_BUFS
 * zeroed buffers of CT_BUF_LEN bytes (c->buf).  ct_exit() destroys the
 * pool before it closes the channels.
 */
static int ct_pool_init(struct kunit *test, u32 count)
{
	struct rdmachan_opts opts = { .queue_depth = 8, .max_msg_size = 256,
				      .max_send_regs = 1 };
	struct rdmachan_mr_pool *pool = NULL;
	struct rdmachan *cli;
	struct ct_ctx *c;
	unsigned int i;
	int ret;

	ret = ct_init(test);
	if (ret)
		return ret;
	c = test->priv;
	ct_pair(test, ct_fixture_port(), &opts, &ct_store_ops, &opts,
		&ct_store_ops);
	cli = c->ch[CT_CLI];
	KUNIT_ASSERT_GE(test, rdmachan_max_reg_pages(cli), (u32)CT_POOL_PAGES);
	/* bounded by queue_depth * max_send_regs */
	KUNIT_EXPECT_EQ(test, rdmachan_mr_pool_create(cli, 9, CT_POOL_PAGES,
						      &pool),
			-EINVAL);
	KUNIT_EXPECT_EQ(test, rdmachan_mr_pool_create(cli, count,
						      CT_POOL_PAGES + 1 +
						      rdmachan_max_reg_pages(cli),
						      &pool),
			-EINVAL);
	KUNIT_ASSERT_EQ(test, rdmachan_mr_pool_create(cli, count,
						      CT_POOL_PAGES, &c->pool),
			0);
	for (i = 0; i < CT_NR_BUFS; i++) {
		c->buf[i] = kunit_kzalloc(test, CT_BUF_LEN, GFP_KERNEL);
		KUNIT_ASSERT_NOT_NULL(test, c->buf[i]);
	}
	return 0;
}

/* .init of rdmachan_chan_pool: a pool of one registration */
static int ct_pool1_init(struct kunit *test)
{
	return ct_pool_init(test, 1);
}

/* .init of rdmachan_chan_pool_multi: a pool of two registrations */
static int ct_pool2_init(struct kunit *test)
{
	return ct_pool_init(test, 2);
}

/*
 * The block protocol's READ: the client maps its buffer through a pool
 * and sends the registration in front of the request; the server WRITEs
 * into it and replies with an empty message whose immediate is the
 * status, sent with SEND_INV of the rkey: the client sees the
 * invalidation and its rkey, the immediate all the same, and puts the
 * registration back at once.  A new map of the same MR has a new rkey;
 * an empty pool says -EAGAIN, too many pages -E2BIG.
 */
static void chan_test_pool_send_inv(struct kunit *test)
{
	const u32 len = 2 * PAGE_SIZE;
	struct ct_ctx *c = test->priv;
	struct rdmachan *srv = c->ch[CT_SRV], *cli = c->ch[CT_CLI];
	struct rdmachan_remote_mr desc, desc2;
	struct rdmachan_mr *mr, *mr2 = NULL;
	struct scatterlist sg;
	void *buf = c->buf[0];
	u32 i;

	KUNIT_ASSERT_TRUE(test, rdmachan_can_send_inv(cli));
	KUNIT_ASSERT_TRUE(test, rdmachan_can_send_inv(srv));

	mr = ct_pool_io(test, buf, len, 0x5a, &desc);
	for (i = 0; i < len; i++)
		if (((u8 *)buf)[i] != 0x5a)
			break;
	KUNIT_EXPECT_EQ_MSG(test, i, len, "the peer's WRITE landed");

	/* the pool's one registration is out */
	sg_init_one(&sg, buf, len);
	KUNIT_EXPECT_EQ(test, rdmachan_mr_pool_map(c->pool, &sg, 1,
						   RDMACHAN_ACCESS_LOCAL_WRITE,
						   &mr2),
			-EAGAIN);

	ct_pool_reply(test, true, desc.rkey);
	KUNIT_EXPECT_EQ(test, rdmachan_mr_pool_put(mr, true, ct_pool_done,
						   &c->sink[CT_CLI]),
			0);
	KUNIT_EXPECT_EQ(test, atomic_read(&c->sink[CT_CLI].nr_done), 0);

	/* the same MR again: a new rkey, never the old one */
	KUNIT_ASSERT_EQ(test, rdmachan_mr_pool_map(c->pool, &sg, 1,
						   RDMACHAN_ACCESS_LOCAL_WRITE,
						   &mr2),
			0);
	KUNIT_EXPECT_PTR_EQ(test, mr2, mr);
	rdmachan_mr_remote(mr2, &desc2);
	KUNIT_EXPECT_NE(test, desc2.rkey, desc.rkey);
	/* never sent: back at once */
	KUNIT_EXPECT_EQ(test, rdmachan_mr_pool_put(mr2, false, NULL, NULL), 0);

	/* more pages than the pool maps */
	sg_init_one(&sg, buf, (CT_POOL_PAGES + 1) * PAGE_SIZE);
	KUNIT_EXPECT_EQ(test, rdmachan_mr_pool_map(c->pool, &sg, 1,
						   RDMACHAN_ACCESS_LOCAL_WRITE,
						   &mr2),
			-E2BIG);

	/* the channel still works both ways */
	KUNIT_EXPECT_EQ(test, rdmachan_get_state(cli), RDMACHAN_CONNECTED);
	KUNIT_EXPECT_EQ(test, rdmachan_get_state(srv), RDMACHAN_CONNECTED);
}

/*
 * Mappings never sent (rdmachan_send_ext() refused, or the user changed
 * its mind) bump the MR's key without a REG_MR: the device still holds
 * the key of the last one posted.  The next registration sent must still
 * go through (on rxe its fence invalidates the device's key, not the
 * mapping's: a wrong one fails the send queue), and so must the one after
 * the peer's SEND_INV: the registration is never posted while the device
 * may hold it valid.
 */
static void chan_test_pool_unsent(struct kunit *test)
{
	const u32 len = PAGE_SIZE;
	const u32 rw = RDMACHAN_ACCESS_LOCAL_WRITE | RDMACHAN_ACCESS_REMOTE_WRITE;
	struct ct_ctx *c = test->priv;
	struct rdmachan *srv = c->ch[CT_SRV], *cli = c->ch[CT_CLI];
	struct rdmachan_send_ext ext = { .nr_regs = 1 };
	struct rdmachan_remote_mr desc, desc2;
	struct rdmachan_mr *mr, *mr2 = NULL;
	struct rdmachan_msg *msg = NULL;
	struct scatterlist sg;
	void *buf = c->buf[0];
	struct kvec v;
	int i;

	KUNIT_ASSERT_TRUE(test, rdmachan_can_send_inv(srv));
	sg_init_one(&sg, buf, len);
	for (i = 0; i < 3; i++) {
		KUNIT_ASSERT_EQ(test, rdmachan_mr_pool_map(c->pool, &sg, 1, rw,
							   &mr2),
				0);
		KUNIT_EXPECT_EQ(test, rdmachan_mr_pool_put(mr2, false, NULL,
							   NULL),
				0);
	}

	mr = ct_pool_io(test, buf, len, 0x3c, &desc);
	KUNIT_EXPECT_EQ(test, ((u8 *)buf)[len - 1], 0x3c);
	ct_pool_reply(test, true, desc.rkey);
	KUNIT_EXPECT_EQ(test, rdmachan_mr_pool_put(mr, true, NULL, NULL), 0);

	/* invalidated by the peer: it maps and goes out again */
	KUNIT_ASSERT_EQ(test, rdmachan_mr_pool_map(c->pool, &sg, 1, rw, &mr2),
			0);
	KUNIT_EXPECT_PTR_EQ(test, mr2, mr);
	rdmachan_mr_remote(mr2, &desc2);
	ext.regs = &mr2;
	v = (struct kvec){ .iov_base = &desc2, .iov_len = sizeof(desc2) };
	KUNIT_ASSERT_EQ(test, rdmachan_send_ext(cli, &v, 1, 0,
						RDMACHAN_SEND_NONBLOCK, &ext),
			0);
	KUNIT_ASSERT_EQ(test, ct_pull(srv, &msg, false), 0);
	rdmachan_msg_release(srv, msg);
	ct_pool_reply(test, true, desc2.rkey);
	KUNIT_EXPECT_EQ(test, rdmachan_mr_pool_put(mr2, true, NULL, NULL), 0);
	KUNIT_EXPECT_EQ(test, rdmachan_get_state(cli), RDMACHAN_CONNECTED);
	KUNIT_EXPECT_EQ(test, rdmachan_get_state(srv), RDMACHAN_CONNECTED);
}

/*
 * The same without SEND_INV: the reply is not flagged, so the client's
 * put posts a local invalidation (-EINPROGRESS) and its callback runs
 * once the registration is back; the next I/O's registration goes out
 * right behind that invalidation; then it maps again.
 */
static void chan_test_pool_local_inv(struct kunit *test)
{
	const u32 len = PAGE_SIZE;
	struct ct_ctx *c = test->priv;
	struct ct_sink *s = &c->sink[CT_CLI];
	struct rdmachan_remote_mr desc;
	struct rdmachan_mr *mr, *mr2 = NULL;
	struct scatterlist sg;
	void *buf = c->buf[0];

	mr = ct_pool_io(test, buf, len, 0xa5, &desc);
	KUNIT_EXPECT_EQ(test, ((u8 *)buf)[len - 1], 0xa5);

	ct_pool_reply(test, false, 0);
	KUNIT_EXPECT_EQ(test, rdmachan_mr_pool_put(mr, false, ct_pool_done, s),
			-EINPROGRESS);
	KUNIT_EXPECT_TRUE(test, ct_wait_atomic(s, &s->nr_done, 1));
	KUNIT_EXPECT_EQ(test, s->done_err, 0);
	KUNIT_EXPECT_EQ(test, atomic_read(&s->nr_done), 1);

	/*
	 * The next I/O's registration goes out right behind that LOCAL_INV,
	 * on rxe without a fence of its own (chan_pool.c): valid when the
	 * server's WRITE comes, and invalidated again after.
	 */
	mr2 = ct_pool_io(test, buf, len, 0x5b, &desc);
	KUNIT_EXPECT_PTR_EQ(test, mr2, mr);
	KUNIT_EXPECT_EQ(test, ((u8 *)buf)[len - 1], 0x5b);
	ct_pool_reply(test, false, 0);
	KUNIT_EXPECT_EQ(test, rdmachan_mr_pool_put(mr2, false, ct_pool_done,
						   s),
			-EINPROGRESS);
	KUNIT_EXPECT_TRUE(test, ct_wait_atomic(s, &s->nr_done, 2));
	KUNIT_EXPECT_EQ(test, s->done_err, 0);

	sg_init_one(&sg, buf, len);
	KUNIT_ASSERT_EQ(test, rdmachan_mr_pool_map(c->pool, &sg, 1,
						   RDMACHAN_ACCESS_LOCAL_WRITE,
						   &mr2),
			0);
	KUNIT_EXPECT_EQ(test, rdmachan_mr_pool_put(mr2, false, NULL, NULL), 0);
	KUNIT_EXPECT_EQ(test, rdmachan_get_state(c->ch[CT_CLI]),
			RDMACHAN_CONNECTED);
}

/*
 * The peer closes while the client has one registration sent (valid on
 * the wire) and one only mapped: the client's channel is torn down (its
 * state_change reports it), after which mapping fails with the channel's
 * error (not -EAGAIN), both registrations go back at once (0, no
 * callback), a non-blocking send and rdmachan_rdma_start() fail, and the
 * pool is destroyed before the close (ct_exit()) without a warning.
 */
static void chan_test_pool_teardown(struct kunit *test)
{
	const u32 len = PAGE_SIZE;
	const u32 rw = RDMACHAN_ACCESS_LOCAL_WRITE |
		       RDMACHAN_ACCESS_REMOTE_WRITE;
	struct ct_ctx *c = test->priv;
	struct ct_sink *s = &c->sink[CT_CLI];
	struct rdmachan_send_ext ext = { .nr_regs = 1 };
	struct rdmachan_mr *mr1 = NULL, *mr2 = NULL, *mr3 = NULL;
	struct rdmachan_seg seg = {};
	struct rdmachan_op op = {};
	struct scatterlist sg1, sg2;
	struct rdmachan *cli = c->ch[CT_CLI];
	u8 byte = 0;
	struct kvec v = { .iov_base = &byte, .iov_len = 1 };
	int ret;

	sg_init_one(&sg1, c->buf[0], len);
	sg_init_one(&sg2, c->buf[1], len);
	KUNIT_ASSERT_EQ(test, rdmachan_mr_pool_map(c->pool, &sg1, 1, rw, &mr1),
			0);
	KUNIT_ASSERT_EQ(test, rdmachan_mr_pool_map(c->pool, &sg2, 1, rw, &mr2),
			0);
	ext.regs = &mr1;
	KUNIT_ASSERT_EQ(test, rdmachan_send_ext(cli, &v, 1, 0, 0, &ext), 0);

	ct_close(c, CT_SRV);
	KUNIT_ASSERT_TRUE(test, wait_for_completion_timeout(&s->state_done,
							    CT_TIMEOUT) > 0);
	KUNIT_EXPECT_NE(test, rdmachan_get_state(cli), RDMACHAN_CONNECTED);

	ret = rdmachan_mr_pool_map(c->pool, &sg1, 1, rw, &mr3);
	KUNIT_EXPECT_LT(test, ret, 0);
	KUNIT_EXPECT_NE(test, ret, -EAGAIN);
	KUNIT_EXPECT_EQ(test, rdmachan_mr_pool_put(mr1, false, ct_pool_done, s),
			0);
	KUNIT_EXPECT_EQ(test, rdmachan_mr_pool_put(mr2, false, ct_pool_done, s),
			0);
	KUNIT_EXPECT_EQ(test, atomic_read(&s->nr_done), 0);
	ret = rdmachan_send_ext(cli, &v, 1, 0, RDMACHAN_SEND_NONBLOCK, NULL);
	KUNIT_EXPECT_LT(test, ret, 0);
	KUNIT_EXPECT_NE(test, ret, -EAGAIN);
	op = (struct rdmachan_op){ .opcode = RDMACHAN_OP_WRITE, .segs = &seg };
	ret = rdmachan_rdma_start(cli, &op, 1, ct_start_end, s);
	KUNIT_EXPECT_LT(test, ret, 0);
	KUNIT_EXPECT_NE(test, ret, -EAGAIN);
	KUNIT_EXPECT_EQ(test, atomic_read(&s->nr_end), 0);
}

/*
 * Pool registrations as the local segments of rdmachan_rdma_start() (a
 * server's zero copy): a WRITE from one and a READ back into another, in
 * one call, their fast registrations posted in front of it; then each
 * is given back with a local invalidation.
 */
static void chan_test_pool_local_seg(struct kunit *test)
{
	const u32 len = PAGE_SIZE;
	struct ct_ctx *c = test->priv;
	struct ct_sink *s = &c->sink[CT_CLI];
	struct rdmachan_mr *m1 = NULL, *m2 = NULL;
	struct rdmachan_remote_mr desc;
	struct scatterlist sg1, sg2;
	struct rdmachan_seg *seg;
	struct rdmachan_op *ops;
	struct rdmachan *srv = c->ch[CT_SRV], *cli = c->ch[CT_CLI];
	u8 *src = c->buf[0], *dst = c->buf[1], *back = c->buf[2];

	seg = kunit_kcalloc(test, 2, sizeof(*seg), GFP_KERNEL);
	ops = kunit_kcalloc(test, 2, sizeof(*ops), GFP_KERNEL);
	KUNIT_ASSERT_TRUE(test, seg && ops);
	memset(src, 0x77, len);
	KUNIT_ASSERT_EQ(test, rdmachan_mr_reg_kbuf(srv, dst, len,
						   RDMACHAN_ACCESS_LOCAL_WRITE |
						   RDMACHAN_ACCESS_REMOTE_WRITE |
						   RDMACHAN_ACCESS_REMOTE_READ,
						   &c->kmr[CT_SRV]),
			0);
	rdmachan_mr_remote(c->kmr[CT_SRV], &desc);
	sg_init_one(&sg1, src, len);
	sg_init_one(&sg2, back, len);
	KUNIT_ASSERT_EQ(test, rdmachan_mr_pool_map(c->pool, &sg1, 1, 0, &m1),
			0);
	KUNIT_ASSERT_EQ(test, rdmachan_mr_pool_map(c->pool, &sg2, 1,
						   RDMACHAN_ACCESS_LOCAL_WRITE,
						   &m2),
			0);
	seg[0] = (struct rdmachan_seg){ .mr = m1, .length = len };
	seg[1] = (struct rdmachan_seg){ .mr = m2, .length = len };
	ops[0] = (struct rdmachan_op){ .opcode = RDMACHAN_OP_WRITE,
				       .segs = &seg[0], .nr_segs = 1,
				       .remote_addr = desc.addr,
				       .rkey = desc.rkey };
	ops[1] = (struct rdmachan_op){ .opcode = RDMACHAN_OP_READ,
				       .segs = &seg[1], .nr_segs = 1,
				       .remote_addr = desc.addr,
				       .rkey = desc.rkey };
	KUNIT_ASSERT_EQ(test, rdmachan_rdma_start(cli, ops, 2, ct_start_end, s),
			0);
	KUNIT_ASSERT_TRUE(test, ct_wait_atomic(s, &s->nr_end, 1));
	KUNIT_EXPECT_EQ(test, s->end_err, 0);
	KUNIT_EXPECT_EQ(test, ops[0].status, 0);
	KUNIT_EXPECT_EQ(test, ops[1].status, 0);
	KUNIT_EXPECT_EQ(test, memcmp(dst, src, len), 0);
	KUNIT_EXPECT_EQ(test, memcmp(back, src, len), 0);

	KUNIT_EXPECT_EQ(test, rdmachan_mr_pool_put(m1, false, ct_pool_done, s),
			-EINPROGRESS);
	KUNIT_EXPECT_EQ(test, rdmachan_mr_pool_put(m2, false, ct_pool_done, s),
			-EINPROGRESS);
	KUNIT_EXPECT_TRUE(test, ct_wait_atomic(s, &s->nr_done, 2));
	KUNIT_EXPECT_EQ(test, s->done_err, 0);
	KUNIT_EXPECT_EQ(test, rdmachan_get_state(cli), RDMACHAN_CONNECTED);
}

/*
 * rdmachan_shutdown() under I/O (a block client ending its requests
 * early): the server has a registration's descriptor and WROTE into it,
 * the client has put one registration back (its LOCAL_INV posted) and
 * holds a second one sent.  On return from the shutdown, without any
 * wait: the first one's callback has run (0, or -ECANCELED if the drain
 * flushed the LOCAL_INV); the state_change has run; the second goes back
 * at once (0, no callback); mapping fails with the channel's error; the
 * server sees the disconnect; a second shutdown does nothing; and the
 * pool is destroyed before the close without a warning (ct_exit()).
 */
static void chan_test_pool_shutdown(struct kunit *test)
{
	const u32 len = PAGE_SIZE;
	const u32 rw = RDMACHAN_ACCESS_LOCAL_WRITE |
		       RDMACHAN_ACCESS_REMOTE_WRITE;
	struct ct_ctx *c = test->priv;
	struct ct_sink *s = &c->sink[CT_CLI];
	struct rdmachan_send_ext ext = { .nr_regs = 1 };
	struct rdmachan_mr *mr1, *mr2 = NULL, *mr3 = NULL;
	struct rdmachan_remote_mr desc;
	struct scatterlist sg2;
	struct rdmachan *cli = c->ch[CT_CLI];
	u8 *buf1 = c->buf[0];
	u8 byte = 0;
	struct kvec v = { .iov_base = &byte, .iov_len = 1 };
	int ret;

	mr1 = ct_pool_io(test, buf1, len, 0x5c, &desc);
	KUNIT_EXPECT_EQ(test, buf1[len - 1], 0x5c);
	sg_init_one(&sg2, c->buf[1], len);
	KUNIT_ASSERT_EQ(test, rdmachan_mr_pool_map(c->pool, &sg2, 1, rw, &mr2),
			0);
	ext.regs = &mr2;
	KUNIT_ASSERT_EQ(test, rdmachan_send_ext(cli, &v, 1, 0, 0, &ext), 0);

	KUNIT_EXPECT_EQ(test, rdmachan_mr_pool_put(mr1, false, ct_pool_done, s),
			-EINPROGRESS);
	rdmachan_shutdown(cli);
	KUNIT_EXPECT_EQ(test, atomic_read(&s->nr_done), 1);
	KUNIT_EXPECT_TRUE(test, s->done_err == 0 || s->done_err == -ECANCELED);
	KUNIT_EXPECT_TRUE(test, completion_done(&s->state_done));
	KUNIT_EXPECT_NE(test, rdmachan_get_state(cli), RDMACHAN_CONNECTED);

	KUNIT_EXPECT_EQ(test, rdmachan_mr_pool_put(mr2, false, ct_pool_done, s),
			0);
	KUNIT_EXPECT_EQ(test, atomic_read(&s->nr_done), 1);
	ret = rdmachan_mr_pool_map(c->pool, &sg2, 1, rw, &mr3);
	KUNIT_EXPECT_LT(test, ret, 0);
	KUNIT_EXPECT_NE(test, ret, -EAGAIN);
	rdmachan_shutdown(cli);
	KUNIT_EXPECT_TRUE(test,
			  wait_for_completion_timeout(&c->sink[CT_SRV].state_done,
						      CT_TIMEOUT) > 0);
	KUNIT_EXPECT_NE(test, rdmachan_get_state(c->ch[CT_SRV]),
			RDMACHAN_CONNECTED);
}

static struct kunit_case chan_store_cases[] = {
	KUNIT_CASE(chan_test_writable_send),
	KUNIT_CASE(chan_test_rdma_start),
	{}
};

static struct kunit_suite chan_store_suite = {
	.name = "rdmachan_chan_store",
	.init = ct_init,
	.exit = ct_exit,
	.test_cases = chan_store_cases,
};

static struct kunit_case chan_pool_cases[] = {
	KUNIT_CASE(chan_test_pool_send_inv),
	KUNIT_CASE(chan_test_pool_local_inv),
	KUNIT_CASE(chan_test_pool_unsent),
	{}
};

static struct kunit_suite chan_pool_suite = {
	.name = "rdmachan_chan_pool",
	.init = ct_pool1_init,
	.exit = ct_exit,
	.test_cases = chan_pool_cases,
};

static struct kunit_case chan_pool_multi_cases[] = {
	KUNIT_CASE(chan_test_pool_teardown),
	KUNIT_CASE(chan_test_pool_local_seg),
	KUNIT_CASE(chan_test_pool_shutdown),
	{}
};

static struct kunit_suite chan_pool_multi_suite = {
	.name = "rdmachan_chan_pool_multi",
	.init = ct_pool2_init,
	.exit = ct_exit,
	.test_cases = chan_pool_multi_cases,
};

kunit_test_suites(&chan_store_suite, &chan_pool_suite, &chan_pool_multi_suite);
