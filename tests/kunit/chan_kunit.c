// SPDX-License-Identifier: GPL-2.0-only
/*
 * KUnit suite "rdmachan_chan" of rdmachan_chan_kunit.ko: a channel's life
 * through rdmachan.ko's exported API over the soft-RoCE fixture
 * (chan_fixture.h): connecting (refused, or accepted), an orderly close
 * and an abort as the surviving end sees them, and a listener whose
 * device goes away.  The last case deletes rxe0: this file is linked
 * last (Kbuild), so no other device-backed suite runs after it.
 */
#include <linux/errno.h>
#include <linux/scatterlist.h>
#include <linux/umh.h>

#include "chan_fixture.h"

/*
 * Connecting to a port nobody listens on is refused with -ECONNREFUSED,
 * also right after a listener on it was closed; no channel is returned.
 */
static void chan_test_connect_refused(struct kunit *test)
{
	struct ct_ctx *c = test->priv;
	struct sockaddr_in dst, src;
	struct rdmachan *ch = NULL;

	ct_addr(&dst, CT_IP_SERVER, CT_PORT_REFUSED);
	ct_addr(&src, CT_IP_CLIENT, 0);
	KUNIT_EXPECT_EQ(test, rdmachan_connect((struct sockaddr *)&dst,
					       (struct sockaddr *)&src, NULL,
					       NULL, NULL, &ch), -ECONNREFUSED);
	KUNIT_EXPECT_NULL(test, ch);

	KUNIT_ASSERT_EQ(test, ct_listen(c, CT_PORT_CLOSED_LISTENER, NULL), 0);
	ct_close_listener(c);
	ct_addr(&dst, CT_IP_SERVER, CT_PORT_CLOSED_LISTENER);
	KUNIT_EXPECT_EQ(test, rdmachan_connect((struct sockaddr *)&dst,
					       (struct sockaddr *)&src, NULL,
					       NULL, NULL, &ch), -ECONNREFUSED);
	KUNIT_EXPECT_NULL(test, ch);
}

/*
 * Listen, connect from 192.0.2.2, accept: both ends CONNECTED with the
 * negotiated (smaller) depth and message size, their priv pointers, the
 * listener's pending callback in process context; a second listener on
 * the address is refused; accept without a connection returns -EAGAIN
 * (non-blocking) or waits (until a signal: -ERESTARTSYS).  One message
 * each way over the new channel.
 */
static void chan_test_connect_accept(struct kunit *test)
{
	struct rdmachan_opts lopts = { .queue_depth = 8, .max_msg_size = 4096 };
	struct rdmachan_opts copts = { .queue_depth = 16, .max_msg_size = 8192 };
	struct ct_ctx *c = test->priv;
	struct rdmachan_listener *l2 = NULL;
	struct rdmachan *ch = NULL, *srv, *cli;
	struct ct_exp e = { 0, 64, true, 7 };
	struct sockaddr_in sin;
	struct kvec v;
	bool fired;
	int ret;

	KUNIT_ASSERT_EQ(test, ct_listen(c, CT_PORT_ACCEPT, &lopts), 0);
	KUNIT_EXPECT_PTR_EQ(test, rdmachan_listener_priv(c->l),
			    (void *)&c->lrec);

	ct_addr(&sin, CT_IP_SERVER, CT_PORT_ACCEPT);
	KUNIT_EXPECT_EQ(test, rdmachan_listen((struct sockaddr *)&sin, NULL,
					      NULL, NULL, &l2), -EADDRINUSE);
	KUNIT_EXPECT_NULL(test, l2);
	if (l2)
		rdmachan_listener_close(l2);

	ct_accept_none(test, c->l, -EAGAIN);
	ct_wd_arm(c, CT_SHORT);
	ret = rdmachan_accept(c->l, NULL, NULL, 0, &ch);
	fired = ct_wd_disarm(c);
	KUNIT_EXPECT_EQ(test, ret, -ERESTARTSYS);
	KUNIT_EXPECT_TRUE(test, fired);
	KUNIT_EXPECT_NULL(test, ch);

	KUNIT_ASSERT_EQ(test, ct_connect(c, CT_PORT_ACCEPT, &copts, NULL,
					 CT_CLI), 0);
	cli = c->ch[CT_CLI];
	KUNIT_EXPECT_EQ(test, rdmachan_get_state(cli), RDMACHAN_CONNECTED);
	KUNIT_EXPECT_TRUE(test, wait_event_timeout(c->lrec.wq,
						   atomic_read(&c->lrec.nr) > 0,
						   CT_TIMEOUT) > 0);
	KUNIT_EXPECT_EQ(test, atomic_read(&c->lrec.nr), 1);
	KUNIT_EXPECT_EQ(test, atomic_read(&c->lrec.not_task), 0);

	/* pending was called: the connection is there to take at once */
	ret = rdmachan_accept(c->l, NULL, &c->sink[CT_SRV],
			      RDMACHAN_ACCEPT_NONBLOCK, &ch);
	KUNIT_ASSERT_EQ(test, ret, 0);
	c->ch[CT_SRV] = ch;
	srv = ch;
	ct_accept_none(test, c->l, -EAGAIN);

	KUNIT_EXPECT_EQ(test, rdmachan_get_state(srv), RDMACHAN_CONNECTED);
	KUNIT_EXPECT_EQ(test, rdmachan_error(srv), 0);
	KUNIT_EXPECT_EQ(test, rdmachan_error(cli), 0);
	KUNIT_EXPECT_PTR_EQ(test, rdmachan_priv(srv), (void *)&c->sink[CT_SRV]);
	KUNIT_EXPECT_PTR_EQ(test, rdmachan_priv(cli), (void *)&c->sink[CT_CLI]);
	KUNIT_EXPECT_EQ(test, rdmachan_queue_depth(srv), 8U);
	KUNIT_EXPECT_EQ(test, rdmachan_queue_depth(cli), 8U);
	KUNIT_EXPECT_EQ(test, rdmachan_max_msg_size(srv), 4096U);
	KUNIT_EXPECT_EQ(test, rdmachan_max_msg_size(cli), 4096U);

	v = (struct kvec){ .iov_base = ct_payload(test, 64, 0, 0),
			   .iov_len = 64 };
	KUNIT_EXPECT_EQ(test, rdmachan_send(cli, &v, 1, 7, RDMACHAN_SEND_IMM),
			0);
	ct_pull_check(test, srv, 0, &e, 1);
	v.iov_base = ct_payload(test, 64, 1, 0);
	KUNIT_EXPECT_EQ(test, rdmachan_send(srv, &v, 1, 7, RDMACHAN_SEND_IMM),
			0);
	ct_pull_check(test, cli, 1, &e, 1);
}

/**
 * struct ct_close_case - how the surviving end receives
 * @name: shown as the parameter
 * @push: it has a recv callback (else it pulls)
 * @port: the test's port
 */
struct ct_close_case {
	const char *name;
	bool push;
	u16 port;
};

static const struct ct_close_case ct_close_cases[] = {
	{ "pull", false, CT_PORT_CLOSE_PULL },
	{ "push", true, CT_PORT_CLOSE_PUSH },
};

static void ct_close_desc(const struct ct_close_case *cc, char *desc)
{
	strscpy(desc, cc->name, KUNIT_PARAM_DESC_SIZE);
}

KUNIT_ARRAY_PARAM(ct_close, ct_close_cases, ct_close_desc);

/*
 * Orderly close: the accepted end sends three messages and closes at
 * once.  Nothing is lost: the connected end gets all three (pushed before
 * its state_change, or pulled after it), then state_change DISCONNECTED
 * with error 0, once, in process context; rdmachan_get_state() says
 * DISCONNECTED and rdmachan_error() 0; rdmachan_recv() then returns
 * -EPIPE, blocking or not, and every sender -ECONNRESET.  Closing the
 * disconnected end calls no callback again.
 */
static void chan_test_close(struct kunit *test)
{
	const struct ct_close_case *cc = test->param_value;
	struct rdmachan_opts opts = { .queue_depth = 16, .max_msg_size = 4096 };
	static const u32 lens[] = { 1, 4096, 0 };
	const struct rdmachan_ops *ops = cc->push ? &ct_push_ops : &ct_pull_ops;
	struct ct_ctx *c = test->priv;
	struct ct_sink *s = &c->sink[CT_CLI], *ss = &c->sink[CT_SRV];
	struct ct_exp exp[ARRAY_SIZE(lens)];
	struct rdmachan_msg *msg = NULL;
	struct rdmachan *srv, *cli;
	struct scatterlist sg;
	struct kvec v;
	unsigned int i;
	bool fired;
	int ret;

	ct_pair(test, cc->port, &opts, &ct_pull_ops, &opts, ops);
	srv = c->ch[CT_SRV];
	cli = c->ch[CT_CLI];

	for (i = 0; i < ARRAY_SIZE(lens); i++) {
		v = (struct kvec){ .iov_base = ct_payload(test, lens[i], 1, i),
				   .iov_len = lens[i] };
		KUNIT_EXPECT_EQ(test, rdmachan_send(srv, &v, 1, 0, 0), 0);
		exp[i] = (struct ct_exp){ i, lens[i], false, 0 };
	}
	ct_close(c, CT_SRV);
	/* its own close may report DISCONNECTED, but nothing else */
	KUNIT_EXPECT_LE(test, ss->nr_state, 1U);
	if (ss->nr_state) {
		KUNIT_EXPECT_EQ(test, ss->state, RDMACHAN_DISCONNECTED);
		KUNIT_EXPECT_EQ(test, ss->err, 0);
		KUNIT_EXPECT_TRUE(test, ss->state_task);
	}

	KUNIT_ASSERT_TRUE_MSG(test,
			      wait_for_completion_timeout(&s->state_done,
							  CT_TIMEOUT) > 0,
			      "state_change after the peer closed");
	KUNIT_EXPECT_EQ(test, s->nr_state, 1U);
	KUNIT_EXPECT_EQ(test, s->state, RDMACHAN_DISCONNECTED);
	KUNIT_EXPECT_EQ(test, s->err, 0);
	KUNIT_EXPECT_TRUE_MSG(test, s->state_task,
			      "state_change in process context");
	KUNIT_EXPECT_EQ_MSG(test, s->state_preempt, 0U,
			    "state_change may sleep (preempt_count)");
	KUNIT_EXPECT_PTR_EQ(test, s->seen_ch, cli);
	KUNIT_EXPECT_EQ(test, rdmachan_get_state(cli), RDMACHAN_DISCONNECTED);
	KUNIT_EXPECT_EQ(test, rdmachan_error(cli), 0);

	if (cc->push) {
		KUNIT_EXPECT_EQ_MSG(test, s->nr_at_state,
				    (unsigned int)ARRAY_SIZE(lens),
				    "messages pushed before DISCONNECTED");
		ct_sink_check(test, s, cli, 1, exp, ARRAY_SIZE(lens));
	} else {
		ct_pull_check(test, cli, 1, exp, ARRAY_SIZE(lens));
		KUNIT_EXPECT_EQ(test, rdmachan_recv(cli, &msg,
						    RDMACHAN_RECV_NONBLOCK),
				-EPIPE);
		ct_wd_arm(c, CT_TIMEOUT);
		ret = rdmachan_recv(cli, &msg, 0);
		fired = ct_wd_disarm(c);
		KUNIT_EXPECT_EQ(test, ret, -EPIPE);
		KUNIT_EXPECT_FALSE(test, fired);
	}

	v = (struct kvec){ .iov_base = ct_payload(test, 8, 0, 0), .iov_len = 8 };
	KUNIT_EXPECT_EQ(test, rdmachan_send(cli, &v, 1, 0, 0), -ECONNRESET);
	KUNIT_EXPECT_EQ(test, rdmachan_send(cli, &v, 1, 0,
					    RDMACHAN_SEND_NONBLOCK),
			-ECONNRESET);
	KUNIT_EXPECT_EQ(test, rdmachan_send_msgs(cli, &v, 1, 0, 0),
			-ECONNRESET);
	sg_init_one(&sg, v.iov_base, v.iov_len);
	KUNIT_EXPECT_EQ(test, rdmachan_send_sg(cli, &sg, 1, 0, 0), -ECONNRESET);

	ct_close(c, CT_CLI);
	KUNIT_EXPECT_EQ(test, s->nr_state, 1U);
}

/*
 * A listener closed with a connection not yet accepted closes it (see
 * rdmachan_listener_close()) without the CLOSE of an orderly end: the
 * connected end fails.  state_change reports FAILED with -ECONNRESET,
 * once, in process context; rdmachan_error() says -ECONNRESET, and
 * rdmachan_recv() (blocking or not) and every sender return it.
 */
static void chan_test_abort(struct kunit *test)
{
	struct rdmachan_opts opts = { .queue_depth = 8, .max_msg_size = 1024 };
	struct ct_ctx *c = test->priv;
	struct ct_sink *s = &c->sink[CT_CLI];
	struct rdmachan_msg *msg = NULL;
	struct rdmachan *cli;
	struct kvec v;
	bool fired;
	int ret;

	KUNIT_ASSERT_EQ(test, ct_listen(c, CT_PORT_ABORT, &opts), 0);
	KUNIT_ASSERT_EQ(test, ct_connect(c, CT_PORT_ABORT, &opts, &ct_pull_ops,
					 CT_CLI), 0);
	cli = c->ch[CT_CLI];
	KUNIT_EXPECT_TRUE(test, wait_event_timeout(c->lrec.wq,
						   atomic_read(&c->lrec.nr) > 0,
						   CT_TIMEOUT) > 0);
	ct_close_listener(c);

	KUNIT_ASSERT_TRUE_MSG(test,
			      wait_for_completion_timeout(&s->state_done,
							  CT_TIMEOUT) > 0,
			      "state_change after the listener closed");
	KUNIT_EXPECT_EQ(test, s->nr_state, 1U);
	KUNIT_EXPECT_EQ(test, s->state, RDMACHAN_FAILED);
	KUNIT_EXPECT_EQ(test, s->err, -ECONNRESET);
	KUNIT_EXPECT_TRUE(test, s->state_task);
	KUNIT_EXPECT_EQ(test, s->state_preempt, 0U);
	KUNIT_EXPECT_EQ(test, rdmachan_get_state(cli), RDMACHAN_FAILED);
	KUNIT_EXPECT_EQ(test, rdmachan_error(cli), -ECONNRESET);

	KUNIT_EXPECT_EQ(test, rdmachan_recv(cli, &msg, RDMACHAN_RECV_NONBLOCK),
			-ECONNRESET);
	ct_wd_arm(c, CT_TIMEOUT);
	ret = rdmachan_recv(cli, &msg, 0);
	fired = ct_wd_disarm(c);
	KUNIT_EXPECT_EQ(test, ret, -ECONNRESET);
	KUNIT_EXPECT_FALSE(test, fired);
	KUNIT_EXPECT_NULL(test, msg);
	v = (struct kvec){ .iov_base = ct_payload(test, 8, 0, 0), .iov_len = 8 };
	KUNIT_EXPECT_EQ(test, rdmachan_send(cli, &v, 1, 0, 0), -ECONNRESET);
	KUNIT_EXPECT_EQ(test, rdmachan_send_msgs(cli, &v, 1, 0,
						 RDMACHAN_SEND_NONBLOCK),
			-ECONNRESET);

	ct_close(c, CT_CLI);
	KUNIT_EXPECT_EQ(test, s->nr_state, 1U);
}

/* What the failed callback of a listener saw */
struct ct_lfail {
	atomic_t nr;
	int err;
	struct rdmachan_listener *l;
	struct task_struct *task;
	wait_queue_head_t wq;
};

static void ct_listener_failed(struct rdmachan_listener *l, int err)
{
	struct ct_lfail *f = rdmachan_listener_priv(l);

	f->err = err;
	f->l = l;
	f->task = current;
	atomic_inc(&f->nr);
	wake_up_all(&f->wq);
}

static const struct rdmachan_listener_ops ct_lfail_ops = {
	.failed = ct_listener_failed,
};

/* run "/usr/bin/rdma @cmd..." (NULL-terminated), wait: its status */
static int ct_rdma_cmd(char **cmd)
{
	char *envp[2] = { "PATH=/usr/sbin:/usr/bin:/sbin:/bin", NULL };
	char *argv[10] = { "/usr/bin/rdma" };
	int i;

	for (i = 0; cmd[i] && i < 8; i++)
		argv[i + 1] = cmd[i];
	return call_usermodehelper(argv[0], argv, envp, UMH_WAIT_PROC);
}

/*
 * The device of a listener's address goes away ("rdma link delete rxe0",
 * run from here): its failed callback runs once, with -ENODEV, in process
 * context; accept then fails with -ENODEV.  A listener closed before the
 * removal is not called.  rxe0 is added back afterwards: the last case.
 */
static void chan_test_listener_device_removed(struct kunit *test)
{
	struct rdmachan_listener *l = NULL, *closed = NULL;
	struct ct_lfail f = {}, fc = {};
	struct rdmachan *ch = NULL;
	struct sockaddr_in sin;
	int ret;

	init_waitqueue_head(&f.wq);
	init_waitqueue_head(&fc.wq);
	ct_addr(&sin, CT_IP_SERVER, CT_PORT_DEVREMOVE);
	KUNIT_ASSERT_EQ(test, rdmachan_listen_ops((struct sockaddr *)&sin, NULL,
						  &ct_lfail_ops, &f, &l), 0);
	ct_addr(&sin, CT_IP_SERVER, CT_PORT_DEVREMOVE_CLOSED);
	KUNIT_ASSERT_EQ(test, rdmachan_listen_ops((struct sockaddr *)&sin, NULL,
						  &ct_lfail_ops, &fc, &closed),
			0);
	rdmachan_listener_close(closed);
	ct_accept_none(test, l, -EAGAIN);
	KUNIT_EXPECT_EQ(test, atomic_read(&f.nr), 0);

	ret = ct_rdma_cmd((char *[]){ "link", "delete", "rxe0", NULL });
	KUNIT_EXPECT_EQ(test, ret, 0);
	KUNIT_EXPECT_GT(test, wait_event_timeout(f.wq, atomic_read(&f.nr) > 0,
						 CT_TIMEOUT), 0L);
	KUNIT_EXPECT_EQ(test, atomic_read(&f.nr), 1);
	KUNIT_EXPECT_EQ(test, f.err, -ENODEV);
	KUNIT_EXPECT_PTR_EQ(test, f.l, l);
	/* the removal's own task, not one of ours or an interrupt */
	KUNIT_EXPECT_PTR_NE(test, f.task, current);
	KUNIT_EXPECT_EQ(test, rdmachan_accept(l, NULL, NULL, 0, &ch), -ENODEV);
	ct_accept_none(test, l, -ENODEV);
	KUNIT_EXPECT_NULL(test, ch);
	rdmachan_listener_close(l);
	KUNIT_EXPECT_EQ(test, atomic_read(&f.nr), 1);
	KUNIT_EXPECT_EQ(test, atomic_read(&fc.nr), 0);

	/* put the fixture back */
	ret = ct_rdma_cmd((char *[]){ "link", "add", "rxe0", "type", "rxe",
			  "netdev", "veth0", NULL });
	if (ret)
		kunit_info(test, "rdma link add rxe0 again: %d\n", ret);
}

static struct kunit_case chan_cases[] = {
	KUNIT_CASE(chan_test_connect_refused),
	KUNIT_CASE(chan_test_connect_accept),
	KUNIT_CASE_PARAM(chan_test_close, ct_close_gen_params),
	KUNIT_CASE(chan_test_abort),
	/* last: it deletes rxe0 */
	KUNIT_CASE(chan_test_listener_device_removed),
	{}
};

static struct kunit_suite chan_suite = {
	.name = "rdmachan_chan",
	.init = ct_init,
	.exit = ct_exit,
	.test_cases = chan_cases,
};

kunit_test_suite(chan_suite);
