// SPDX-License-Identifier: GPL-2.0-only
/*
 * KUnit suite "rdmachan_chan_msg" of rdmachan_chan_kunit.ko: messages over
 * a connected pair (chan_fixture.h) as rdmachan.ko's exported API hands
 * them over: pushed in each completion context (softirq, workqueue,
 * polled by the caller), pulled, message sizes and credits, fragments
 * one way, and credits returned in WRITE_WITH_IMM immediates.
 */
#include <linux/delay.h>
#include <linux/errno.h>
#include <linux/scatterlist.h>
#include <linux/uio.h>

#include "chan_fixture.h"

/**
 * struct ct_mode - a completion context to test
 * @name: shown as the parameter
 * @mode: enum rdmachan_poll_mode
 * @port: the test's port
 */
struct ct_mode {
	const char *name;
	u32 mode;
	u16 port;
};

static const struct ct_mode ct_modes[] = {
	{ "softirq", RDMACHAN_POLL_SOFTIRQ, CT_PORT_EXCHANGE_SOFTIRQ },
	{ "workqueue", RDMACHAN_POLL_WORKQUEUE, CT_PORT_EXCHANGE_WORKQUEUE },
};

static void ct_mode_desc(const struct ct_mode *m, char *desc)
{
	strscpy(desc, m->name, KUNIT_PARAM_DESC_SIZE);
}

KUNIT_ARRAY_PARAM(ct_mode, ct_modes, ct_mode_desc);

/* Where a recv callback of @mode must run: check @s's record of @n. */
static void ct_expect_ctx(struct kunit *test, struct ct_sink *s, u32 mode,
			  unsigned int n, const char *end)
{
	KUNIT_EXPECT_EQ_MSG(test, s->ctx_hardirq, 0U, "%s", end);
	KUNIT_EXPECT_EQ_MSG(test, s->ctx_irqs_off, 0U, "%s", end);
	if (mode == RDMACHAN_POLL_SOFTIRQ) {
		KUNIT_EXPECT_EQ_MSG(test, s->ctx_softirq, n,
				    "%s: recv in softirq", end);
		KUNIT_EXPECT_EQ_MSG(test, s->ctx_task, 0U, "%s", end);
	} else {
		KUNIT_EXPECT_EQ_MSG(test, s->ctx_task, n,
				    "%s: recv in process context", end);
		KUNIT_EXPECT_EQ_MSG(test, s->ctx_softirq, 0U, "%s", end);
		KUNIT_EXPECT_EQ_MSG(test, s->ctx_bh, 0U,
				    "%s: bottom halves on", end);
	}
}

/*
 * Push mode, SOFTIRQ and WORKQUEUE: the standard sequence each way
 * arrives complete and in order through &rdmachan_ops.recv, which runs
 * serving a softirq (RDMACHAN_POLL_SOFTIRQ) or in process context with
 * bottom halves on (RDMACHAN_POLL_WORKQUEUE), never with interrupts off.
 */
static void chan_test_exchange(struct kunit *test)
{
	const struct ct_mode *m = test->param_value;
	struct rdmachan_opts opts = {
		.queue_depth = 16, .max_msg_size = 4096, .poll_mode = m->mode,
	};
	struct ct_ctx *c = test->priv;
	struct ct_exp exp[2][CT_SCRIPT_LEN];
	struct rdmachan *srv, *cli;

	ct_pair(test, m->port, &opts, &ct_push_ops, &opts, &ct_push_ops);
	srv = c->ch[CT_SRV];
	cli = c->ch[CT_CLI];
	KUNIT_ASSERT_EQ(test, rdmachan_max_msg_size(cli), 4096U);

	ct_send_script(test, cli, 0, 4096, exp[0]);
	ct_send_script(test, srv, 1, 4096, exp[1]);
	ct_sink_check(test, &c->sink[CT_SRV], srv, 0, exp[0], CT_SCRIPT_LEN);
	ct_sink_check(test, &c->sink[CT_CLI], cli, 1, exp[1], CT_SCRIPT_LEN);
	ct_expect_ctx(test, &c->sink[CT_SRV], m->mode, CT_SCRIPT_LEN,
		      "accepted end");
	ct_expect_ctx(test, &c->sink[CT_CLI], m->mode, CT_SCRIPT_LEN,
		      "connected end");
	KUNIT_EXPECT_EQ(test, c->sink[CT_SRV].nr_state, 0U);
	KUNIT_EXPECT_EQ(test, c->sink[CT_CLI].nr_state, 0U);
}

/*
 * RDMACHAN_POLL_DIRECT (the accepted end): nothing is delivered while
 * nobody polls; rdmachan_poll() delivers, in the calling thread, at most
 * @budget completions a call, in order; rdmachan_poll() of a channel
 * that is not DIRECT returns 0.  The DIRECT end sends too.
 */
static void chan_test_direct(struct kunit *test)
{
	struct rdmachan_opts lopts = {
		.queue_depth = 16, .max_msg_size = 4096,
		.poll_mode = RDMACHAN_POLL_DIRECT,
	};
	struct rdmachan_opts copts = { .queue_depth = 16, .max_msg_size = 4096 };
	static const u32 lens[] = { 1, 4096, 0 };
	struct ct_ctx *c = test->priv;
	struct ct_sink *s = &c->sink[CT_SRV];
	struct ct_exp exp[ARRAY_SIZE(lens)];
	unsigned long deadline;
	struct rdmachan *srv, *cli;
	struct kvec v;
	unsigned int i;
	int n, polled = 0, over_budget = 0;

	ct_pair(test, CT_PORT_DIRECT, &lopts, &ct_push_ops, &copts,
		&ct_push_ops);
	srv = c->ch[CT_SRV];
	cli = c->ch[CT_CLI];

	for (i = 0; i < ARRAY_SIZE(lens); i++) {
		v = (struct kvec){ .iov_base = ct_payload(test, lens[i], 0, i),
				   .iov_len = lens[i] };
		KUNIT_EXPECT_EQ(test, rdmachan_send(cli, &v, 1, 100 + i,
						    RDMACHAN_SEND_IMM), 0);
		exp[i] = (struct ct_exp){ i, lens[i], true, 100 + i };
	}
	KUNIT_EXPECT_EQ(test, rdmachan_poll(cli, -1), 0);

	/* Nobody polls: nothing may arrive */
	msleep(300);
	KUNIT_EXPECT_EQ_MSG(test, ct_sink_nr(s), 0U,
			    "delivered without rdmachan_poll()");

	s->poller = current;
	deadline = jiffies + CT_TIMEOUT;
	while (ct_sink_nr(s) < ARRAY_SIZE(lens) &&
	       time_before(jiffies, deadline)) {
		WRITE_ONCE(s->polling, true);
		n = rdmachan_poll(srv, 1);
		WRITE_ONCE(s->polling, false);
		if (n < 0 || n > 1)
			over_budget++;
		if (n > 0)
			polled += n;
		else
			usleep_range(500, 1000);
	}
	KUNIT_EXPECT_EQ(test, over_budget, 0);
	KUNIT_EXPECT_GE(test, polled, (int)ARRAY_SIZE(lens));
	KUNIT_EXPECT_EQ(test, s->ctx_poller, (unsigned int)ARRAY_SIZE(lens));
	KUNIT_EXPECT_EQ(test, s->ctx_task, (unsigned int)ARRAY_SIZE(lens));
	KUNIT_EXPECT_EQ(test, s->ctx_bh, 0U);
	ct_sink_check(test, s, srv, 0, exp, ARRAY_SIZE(lens));

	/*
	 * The DIRECT end sends; the SOFTIRQ end receives in softirq.  It
	 * grants one credit at the start and more as they come: the second
	 * send may wait for the grant (polling, as a DIRECT end does).
	 */
	for (i = 0; i < 2; i++) {
		v = (struct kvec){ .iov_base = ct_payload(test, 1000 + i, 1, i),
				   .iov_len = 1000 + i };
		KUNIT_EXPECT_EQ(test, rdmachan_send(srv, &v, 1, 0, 0), 0);
		exp[i] = (struct ct_exp){ i, 1000 + i, false, 0 };
	}
	ct_sink_check(test, &c->sink[CT_CLI], cli, 1, exp, 2);
	ct_expect_ctx(test, &c->sink[CT_CLI], RDMACHAN_POLL_SOFTIRQ, 2,
		      "connected end");
}

/*
 * Pull mode (no recv callback): rdmachan_recv() with
 * RDMACHAN_RECV_NONBLOCK returns -EAGAIN while nothing is queued and a
 * blocking one waits (until a signal: -ERESTARTSYS) or until a message
 * sent later arrives; the standard sequence arrives complete and in
 * order both ways.
 */
static void chan_test_pull(struct kunit *test)
{
	struct rdmachan_opts opts = { .queue_depth = 16, .max_msg_size = 4096 };
	struct ct_ctx *c = test->priv;
	struct ct_exp exp[CT_SCRIPT_LEN];
	struct ct_exp late = { CT_SCRIPT_LEN, 33, true, CT_SCRIPT_LEN };
	struct rdmachan_msg *msg = NULL;
	struct rdmachan *srv, *cli;
	bool fired;
	int ret;

	ct_pair(test, CT_PORT_PULL, &opts, NULL, &opts, NULL);
	srv = c->ch[CT_SRV];
	cli = c->ch[CT_CLI];

	KUNIT_EXPECT_EQ(test, rdmachan_recv(srv, &msg, RDMACHAN_RECV_NONBLOCK),
			-EAGAIN);
	KUNIT_EXPECT_EQ(test, rdmachan_recv(cli, &msg, RDMACHAN_RECV_NONBLOCK),
			-EAGAIN);
	ct_wd_arm(c, CT_SHORT);
	ret = rdmachan_recv(srv, &msg, 0);
	fired = ct_wd_disarm(c);
	KUNIT_EXPECT_EQ(test, ret, -ERESTARTSYS);
	KUNIT_EXPECT_TRUE(test, fired);
	KUNIT_EXPECT_NULL(test, msg);

	ct_send_script(test, cli, 0, 4096, exp);
	ct_pull_check(test, srv, 0, exp, CT_SCRIPT_LEN);
	KUNIT_EXPECT_EQ(test, rdmachan_recv(srv, &msg, RDMACHAN_RECV_NONBLOCK),
			-EAGAIN);

	/* A blocked reader is woken by a message sent later */
	c->work_ch = cli;
	c->work_len = late.len;
	c->work_k = late.k;
	c->work_buf = ct_payload(test, late.len, 0, late.k);
	c->work_ret = 1;
	schedule_delayed_work(&c->send_work, HZ / 5);
	ct_wd_arm(c, CT_TIMEOUT);
	ret = rdmachan_recv(srv, &msg, 0);
	fired = ct_wd_disarm(c);
	flush_delayed_work(&c->send_work);
	KUNIT_EXPECT_EQ(test, c->work_ret, 0);
	KUNIT_EXPECT_EQ(test, ret, 0);
	KUNIT_EXPECT_FALSE(test, fired);
	if (!ret) {
		ct_expect_msg(test, msg, 0, &late, CT_SCRIPT_LEN);
		rdmachan_msg_release(srv, msg);
	}

	ct_send_script(test, srv, 1, 4096, exp);
	ct_pull_check(test, cli, 1, exp, CT_SCRIPT_LEN);
	KUNIT_EXPECT_EQ(test, rdmachan_recv(cli, &msg, RDMACHAN_RECV_NONBLOCK),
			-EAGAIN);
}

/*
 * Message size: negotiated down to the listener's 4096 although the
 * connecting end asked for 8192; larger sends fail with -EMSGSIZE through
 * every sender (rdmachan_send_msgs() sends none of a batch with one
 * oversize message) and take no credit; exactly max_msg_size passes.
 */
static void chan_test_msgsize(struct kunit *test)
{
	struct rdmachan_opts lopts = { .queue_depth = 4, .max_msg_size = 4096 };
	struct rdmachan_opts copts = { .queue_depth = 4, .max_msg_size = 8192 };
	static const struct ct_exp exp[4] = {
		{ 10, 4096, false, 0 }, { 11, 1, false, 0 },
		{ 12, 0, false, 0 }, { 13, 4096, true, 5 },
	};
	const u32 nb = RDMACHAN_SEND_NONBLOCK;
	struct ct_ctx *c = test->priv;
	struct scatterlist sg[2];
	struct rdmachan *srv, *cli;
	struct kvec v[2];
	void *big;
	int i;

	ct_pair(test, CT_PORT_MSGSIZE, &lopts, NULL, &copts, NULL);
	srv = c->ch[CT_SRV];
	cli = c->ch[CT_CLI];
	KUNIT_EXPECT_EQ(test, rdmachan_max_msg_size(cli), 4096U);
	KUNIT_EXPECT_EQ(test, rdmachan_max_msg_size(srv), 4096U);
	KUNIT_EXPECT_EQ(test, rdmachan_queue_depth(cli), 4U);

	big = ct_payload(test, 8192, 0, 0);
	v[0] = (struct kvec){ .iov_base = big, .iov_len = 4097 };
	KUNIT_EXPECT_EQ(test, rdmachan_send(cli, v, 1, 0, 0), -EMSGSIZE);
	KUNIT_EXPECT_EQ(test, rdmachan_send(cli, v, 1, 0, nb), -EMSGSIZE);
	v[0].iov_len = 8192;
	KUNIT_EXPECT_EQ(test, rdmachan_send(cli, v, 1, 0, 0), -EMSGSIZE);
	/* two pieces adding up to one byte too many */
	v[0] = (struct kvec){ .iov_base = big, .iov_len = 4000 };
	v[1] = (struct kvec){ .iov_base = big + 4000, .iov_len = 97 };
	KUNIT_EXPECT_EQ(test, rdmachan_send(cli, v, 2, 0, 0), -EMSGSIZE);
	/* a batch with one oversize message sends nothing */
	v[0] = (struct kvec){ .iov_base = big, .iov_len = 1 };
	v[1] = (struct kvec){ .iov_base = big, .iov_len = 4097 };
	KUNIT_EXPECT_EQ(test, rdmachan_send_msgs(cli, v, 2, 0, 0), -EMSGSIZE);
	sg_init_table(sg, 2);
	sg_set_buf(&sg[0], big, 4000);
	sg_set_buf(&sg[1], big + 4000, 97);
	KUNIT_EXPECT_EQ(test, rdmachan_send_sg(cli, sg, 2, 0, 0), -EMSGSIZE);
	KUNIT_EXPECT_EQ(test, rdmachan_get_state(cli), RDMACHAN_CONNECTED);

	/*
	 * The refusals took no credit: the start grant's one is still there
	 * (a send that may not wait goes); the others wait for the grant to
	 * grow, to the depth; then there are none
	 */
	for (i = 0; i < 4; i++) {
		v[0] = (struct kvec){
			.iov_base = ct_payload(test, exp[i].len, 0, exp[i].k),
			.iov_len = exp[i].len,
		};
		ct_wd_arm(c, CT_TIMEOUT);
		KUNIT_EXPECT_EQ_MSG(test, rdmachan_send(cli, v, 1, exp[i].imm,
							(i ? 0 : nb) |
							(exp[i].has_imm ?
							RDMACHAN_SEND_IMM : 0)),
				    0, "send %d", i);
		KUNIT_EXPECT_FALSE(test, ct_wd_disarm(c));
	}
	v[0] = (struct kvec){ .iov_base = big, .iov_len = 1 };
	KUNIT_EXPECT_EQ(test, rdmachan_send(cli, v, 1, 0, nb), -EAGAIN);
	ct_pull_check(test, srv, 0, exp, 4);

	/* and the other way */
	v[0] = (struct kvec){ .iov_base = ct_payload(test, 4097, 1, 10),
			      .iov_len = 4097 };
	KUNIT_EXPECT_EQ(test, rdmachan_send(srv, v, 1, 0, 0), -EMSGSIZE);
	v[0].iov_len = 4096;
	KUNIT_EXPECT_EQ(test, rdmachan_send(srv, v, 1, 0, 0), 0);
	ct_pull_check(test, cli, 1, exp, 1);
}

/*
 * Credits: a receiver that holds its messages stops the sender.  With
 * depth 4, the grant grows from one credit as the held messages arrive,
 * and blocking sends of 6 stop after 4; then every non-blocking
 * sender returns -EAGAIN and a blocking one waits (until a signal:
 * -ERESTARTSYS).  Each released message returns one credit; a sender
 * blocked for one is woken when the receiver releases later, from
 * another context.  Nothing is lost or reordered on the way.
 */
static void chan_test_credits(struct kunit *test)
{
	struct rdmachan_opts opts = { .queue_depth = 4, .max_msg_size = 256 };
	const u32 nb = RDMACHAN_SEND_NONBLOCK;
	struct ct_ctx *c = test->priv;
	struct ct_exp exp[6];
	struct rdmachan_msg *msg = NULL;
	struct rdmachan *srv, *cli;
	struct scatterlist sg;
	unsigned long deadline;
	struct kvec v[6];
	bool fired;
	int i, ret;

	ct_pair(test, CT_PORT_CREDITS, &opts, NULL, &opts, NULL);
	srv = c->ch[CT_SRV];
	cli = c->ch[CT_CLI];
	KUNIT_ASSERT_EQ(test, rdmachan_queue_depth(cli), 4U);

	for (i = 0; i < 6; i++) {
		v[i] = (struct kvec){ .iov_base = ct_payload(test, 8 + i, 0, i),
				      .iov_len = 8 + i };
		exp[i] = (struct ct_exp){ i, 8 + i, false, 0 };
	}
	ct_wd_arm(c, CT_TIMEOUT);
	KUNIT_EXPECT_EQ(test, ct_send_msgs_all(cli, v, 4, 0, 0), 4);
	KUNIT_EXPECT_FALSE(test, ct_wd_disarm(c));
	KUNIT_EXPECT_EQ(test, rdmachan_send(cli, &v[4], 1, 0, nb), -EAGAIN);
	KUNIT_EXPECT_EQ(test, rdmachan_send_msgs(cli, &v[4], 2, 0, nb),
			-EAGAIN);
	sg_init_one(&sg, v[4].iov_base, v[4].iov_len);
	KUNIT_EXPECT_EQ(test, rdmachan_send_sg(cli, &sg, 1, 0, nb), -EAGAIN);
	ct_wd_arm(c, CT_SHORT);
	ret = rdmachan_send(cli, &v[4], 1, 0, 0);
	fired = ct_wd_disarm(c);
	KUNIT_EXPECT_EQ(test, ret, -ERESTARTSYS);
	KUNIT_EXPECT_TRUE(test, fired);
	KUNIT_EXPECT_EQ(test, rdmachan_get_state(cli), RDMACHAN_CONNECTED);

	/* The receiver takes the four and holds them */
	c->held_ch = srv;
	for (i = 0; i < 4; i++) {
		ret = ct_pull(srv, &msg, false);
		KUNIT_ASSERT_EQ_MSG(test, ret, 0, "pulling message %d", i);
		ct_expect_msg(test, msg, 0, &exp[i], i);
		c->held[c->nr_held++] = msg;
	}
	KUNIT_EXPECT_EQ(test, rdmachan_recv(srv, &msg, RDMACHAN_RECV_NONBLOCK),
			-EAGAIN);

	/* One released: one credit comes back, one more message goes */
	rdmachan_msg_release(srv, c->held[0]);
	c->held[0] = c->held[--c->nr_held];
	deadline = jiffies + CT_TIMEOUT;
	do {
		ret = rdmachan_send(cli, &v[4], 1, 0, nb);
		if (ret == -EAGAIN)
			usleep_range(500, 1000);
	} while (ret == -EAGAIN && time_before(jiffies, deadline));
	KUNIT_EXPECT_EQ(test, ret, 0);
	KUNIT_EXPECT_EQ(test, rdmachan_send(cli, &v[5], 1, 0, nb), -EAGAIN);

	/* A blocked sender is woken by credits released later, elsewhere */
	c->release_from = 0;
	schedule_delayed_work(&c->release_work, HZ / 5);
	ct_wd_arm(c, CT_TIMEOUT);
	ret = rdmachan_send(cli, &v[5], 1, 0, 0);
	fired = ct_wd_disarm(c);
	flush_delayed_work(&c->release_work);
	KUNIT_EXPECT_EQ(test, ret, 0);
	KUNIT_EXPECT_FALSE(test, fired);
	KUNIT_EXPECT_EQ(test, c->nr_held, 0U);

	ct_pull_check(test, srv, 0, &exp[4], 2);
	KUNIT_EXPECT_EQ(test, rdmachan_recv(srv, &msg, RDMACHAN_RECV_NONBLOCK),
			-EAGAIN);
}

/**
 * struct ct_frag_mode - which end's buffers hold a fragment
 * @name: shown as the parameter
 * @srv_small: the listener's user reads messages across buffers, the
 *	connecting one reads whole buffers; else the other way round
 * @port: the test's port
 */
struct ct_frag_mode {
	const char *name;
	bool srv_small;
	u16 port;
};

static const struct ct_frag_mode ct_frag_modes[] = {
	{ "accepting end small", true, CT_PORT_FRAG_SRV_SMALL },
	{ "connecting end small", false, CT_PORT_FRAG_CLI_SMALL },
};

static void ct_frag_desc(const struct ct_frag_mode *m, char *desc)
{
	strscpy(desc, m->name, KUNIT_PARAM_DESC_SIZE);
}

KUNIT_ARRAY_PARAM(ct_frag, ct_frag_modes, ct_frag_desc);

/* Send @len bytes of pattern (@dir, @k) on @from, pull them on @to. */
static void ct_frag_one(struct kunit *test, struct rdmachan *from,
			struct rdmachan *to, bool to_small, u32 len, u32 dir,
			u32 k)
{
	struct kvec v = { .iov_base = ct_payload(test, len, dir, k),
			  .iov_len = len };
	struct rdmachan_msg *msg = NULL;
	struct ct_ctx *c = test->priv;
	struct iov_iter it;
	struct kvec out;
	bool fired;
	int ret;

	ct_wd_arm(c, CT_TIMEOUT);
	ret = rdmachan_send(from, &v, 1, 0, 0);
	if (!ret)
		ret = rdmachan_recv(to, &msg, 0);
	fired = ct_wd_disarm(c);
	KUNIT_ASSERT_EQ_MSG(test, ret, 0, "%u bytes, direction %u", len, dir);
	KUNIT_EXPECT_FALSE(test, fired);
	KUNIT_EXPECT_EQ(test, msg->len, len);
	if (to_small) {
		/* more than a fragment: in several buffers, read across */
		KUNIT_EXPECT_EQ(test, msg->frag_len,
				min_t(u32, len, 4096));
		out.iov_base = kunit_kzalloc(test, len, GFP_KERNEL);
		KUNIT_ASSERT_NOT_NULL(test, out.iov_base);
		out.iov_len = len;
		iov_iter_kvec(&it, ITER_DEST, &out, 1, len);
		KUNIT_EXPECT_EQ(test, rdmachan_msg_copy_to_iter(msg, &it), len);
		KUNIT_EXPECT_EQ(test, memcmp(out.iov_base, v.iov_base, len), 0);
	} else {
		/* whole, where its user reads it in place */
		KUNIT_EXPECT_EQ(test, msg->frag_len, len);
		KUNIT_EXPECT_EQ(test, memcmp(msg->data, v.iov_base, len), 0);
	}
	rdmachan_msg_release(to, msg);
}

/*
 * Fragments one way (wire version 5): a user that reads whole buffers
 * (blk, net) serves an end whose buffers hold a fragment
 * (&rdmachan_opts.rx_frags, as /dev/rdmachan's channels), whichever end
 * connects.  Messages of every size up to the largest reach the small end
 * as fragments, read whole across its buffers, and the other end whole,
 * in one buffer; both ways, in turn and in order.
 */
static void chan_test_frag_oneway(struct kunit *test)
{
	static const u32 sizes[] = { 1, 4096, 4097, 12289, 65536 };
	const struct ct_frag_mode *m = test->param_value;
	struct rdmachan_opts small = { .max_msg_size = 65536,
				       .rx_frags = true };
	struct rdmachan_opts whole = { .max_msg_size = 65536 };
	struct ct_ctx *c = test->priv;
	struct rdmachan *srv, *cli;
	unsigned int i;

	ct_pair(test, m->port, m->srv_small ? &small : &whole, NULL,
		m->srv_small ? &whole : &small, NULL);
	srv = c->ch[CT_SRV];
	cli = c->ch[CT_CLI];
	KUNIT_EXPECT_EQ(test, rdmachan_max_msg_size(cli), 65536U);
	for (i = 0; i < ARRAY_SIZE(sizes); i++) {
		ct_frag_one(test, cli, srv, m->srv_small, sizes[i], 0, i);
		ct_frag_one(test, srv, cli, !m->srv_small, sizes[i], 1, i);
	}
}

/**
 * struct ct_imm_mode - which ends' users set &rdmachan_opts.imm_credit
 * @name: shown as the parameter
 * @srv: the listener's
 * @cli: the connecting one's
 * @port: the test's port
 */
struct ct_imm_mode {
	const char *name;
	bool srv;
	bool cli;
	u16 port;
};

static const struct ct_imm_mode ct_imm_modes[] = {
	{ "both ends", true, true, CT_PORT_IMM_CREDIT_BOTH },
	{ "accepting end only", true, false, CT_PORT_IMM_CREDIT_SRV },
	{ "connecting end only", false, true, CT_PORT_IMM_CREDIT_CLI },
};

static void ct_imm_desc(const struct ct_imm_mode *m, char *desc)
{
	strscpy(desc, m->name, KUNIT_PARAM_DESC_SIZE);
}

KUNIT_ARRAY_PARAM(ct_imm, ct_imm_modes, ct_imm_desc);

/*
 * IMM_CREDIT: a request of the client's (grant 4), released by the
 * server, leaves a credit owed, due back at the next request
 * (rdmachan_credits_due()); the server's answer, a zero-length RDMA
 * WRITE_WITH_IMM, returns it where both ends asked for the feature, and
 * the client sees the immediate as sent either way.  An immediate with
 * bit 31 set is refused where the sender's user asked.
 */
static void chan_test_imm_credit(struct kunit *test)
{
	const struct ct_imm_mode *m = test->param_value;
	struct rdmachan_opts sopts = { .queue_depth = 4, .max_msg_size = 256,
				       .min_grant = 4, .imm_credit = m->srv };
	struct rdmachan_opts copts = sopts;
	struct ct_ctx *c = test->priv;
	struct rdmachan_msg *msg = NULL;
	struct rdmachan *srv, *cli;
	struct rdmachan_op op;
	struct kvec v;
	int i, ret;

	copts.imm_credit = m->cli;
	ct_pair(test, m->port, &sopts, NULL, &copts, NULL);
	srv = c->ch[CT_SRV];
	cli = c->ch[CT_CLI];
	op = (struct rdmachan_op){ .opcode = RDMACHAN_OP_WRITE_IMM,
				   .imm = BIT(31) };
	KUNIT_EXPECT_EQ(test, rdmachan_rdma(srv, &op, 1), m->srv ? -EINVAL : 0);
	if (!m->srv) {
		KUNIT_ASSERT_EQ(test, ct_pull(cli, &msg, false), 0);
		KUNIT_EXPECT_EQ(test, msg->imm, BIT(31));
		rdmachan_msg_release(cli, msg);
	}
	v = (struct kvec){ .iov_base = ct_payload(test, 8, 0, 0), .iov_len = 8 };
	for (i = 0; i < 12; i++) {
		ct_wd_arm(c, CT_TIMEOUT);
		ret = rdmachan_send(cli, &v, 1, 0, 0);
		KUNIT_EXPECT_FALSE(test, ct_wd_disarm(c));
		KUNIT_ASSERT_EQ(test, ret, 0);
		KUNIT_ASSERT_EQ(test, ct_pull(srv, &msg, false), 0);
		rdmachan_msg_release(srv, msg);
		KUNIT_EXPECT_TRUE(test, rdmachan_credits_due(srv));
		op = (struct rdmachan_op){ .opcode = RDMACHAN_OP_WRITE_IMM,
					   .imm = 0x7fff0000 | i };
		KUNIT_ASSERT_EQ(test, rdmachan_rdma(srv, &op, 1), 0);
		KUNIT_EXPECT_EQ(test, rdmachan_credits_due(srv),
				!(m->srv && m->cli));
		KUNIT_ASSERT_EQ(test, ct_pull(cli, &msg, false), 0);
		KUNIT_EXPECT_TRUE(test, msg->rdma_imm);
		KUNIT_EXPECT_EQ(test, msg->imm, 0x7fff0000U | i);
		rdmachan_msg_release(cli, msg);
	}
}

static struct kunit_case chan_msg_cases[] = {
	KUNIT_CASE_PARAM(chan_test_exchange, ct_mode_gen_params),
	KUNIT_CASE(chan_test_direct),
	KUNIT_CASE(chan_test_pull),
	KUNIT_CASE(chan_test_msgsize),
	KUNIT_CASE(chan_test_credits),
	KUNIT_CASE_PARAM(chan_test_frag_oneway, ct_frag_gen_params),
	KUNIT_CASE_PARAM(chan_test_imm_credit, ct_imm_gen_params),
	{}
};

static struct kunit_suite chan_msg_suite = {
	.name = "rdmachan_chan_msg",
	.init = ct_init,
	.exit = ct_exit,
	.test_cases = chan_msg_cases,
};

kunit_test_suite(chan_msg_suite);
