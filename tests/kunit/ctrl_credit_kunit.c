// SPDX-License-Identifier: GPL-2.0-only
/*
 * KUnit suite for the control messages: when a keepalive probe goes
 * (module/chan/keepalive.h), and the control credits of
 * module/chan/credit.h (wire version 6): case by case, and as a model
 * of two ends whose receive completions lag behind what arrives, where
 * no control message may ever find its receive buffers all taken, and no
 * end may be left with a control message waiting once everything under
 * way has landed.
 */
#include "../../module/chan/credit.h"
#include "../../module/chan/keepalive.h"
#include "../../module/chan/proto.h"

#include <kunit/test.h>
#include <linux/prandom.h>
#include <linux/string.h>

static void ctrl_new(struct rdmachan_ctrl_credits *c, bool on)
{
	memset(c, 0xa5, sizeof(*c));
	c->waits = 0;
	rdmachan_ctrl_rx_reset(c);
	rdmachan_ctrl_init(c, on);
}

/* A new connection: every control credit free, nothing owed */
static void ctrl_test_init(struct kunit *test)
{
	struct rdmachan_ctrl_credits c;

	ctrl_new(&c, true);
	KUNIT_EXPECT_EQ(test, c.avail, (u8)RDMACHAN_CTRL_RECV);
	KUNIT_EXPECT_EQ(test, c.owed, 0);
	KUNIT_EXPECT_TRUE(test, rdmachan_ctrl_may_send(&c));
	KUNIT_EXPECT_FALSE(test, rdmachan_ctrl_ack_due(&c));
}

/* The last credit goes only with a return; a data header takes none */
static void ctrl_test_last_credit(struct kunit *test)
{
	struct rdmachan_ctrl_credits c;

	ctrl_new(&c, true);
	KUNIT_EXPECT_EQ(test, rdmachan_ctrl_take(&c, true), 0);
	KUNIT_EXPECT_EQ(test, rdmachan_ctrl_take(&c, true), 0);
	KUNIT_EXPECT_EQ(test, c.avail, 1);
	KUNIT_EXPECT_FALSE(test, rdmachan_ctrl_may_send(&c));
	KUNIT_EXPECT_EQ(test, rdmachan_ctrl_reposted(&c), 0);
	KUNIT_EXPECT_TRUE(test, rdmachan_ctrl_may_send(&c));
	/* a data header carries the return and takes no control credit */
	KUNIT_EXPECT_EQ(test, rdmachan_ctrl_take(&c, false), 1);
	KUNIT_EXPECT_EQ(test, c.avail, 1);
	KUNIT_EXPECT_FALSE(test, rdmachan_ctrl_may_send(&c));
	KUNIT_EXPECT_EQ(test, rdmachan_ctrl_reposted(&c), 0);
	KUNIT_EXPECT_EQ(test, rdmachan_ctrl_take(&c, true), 1);
	KUNIT_EXPECT_EQ(test, c.avail, 0);
	KUNIT_EXPECT_FALSE(test, rdmachan_ctrl_may_send(&c));
	KUNIT_EXPECT_EQ(test, rdmachan_ctrl_returned(&c, 3), 0);
	KUNIT_EXPECT_EQ(test, c.avail, (u8)RDMACHAN_CTRL_RECV);
}

/* Returns owed become due at RDMACHAN_CTRL_ACK_DUE; a fourth is a lie */
static void ctrl_test_owed(struct kunit *test)
{
	struct rdmachan_ctrl_credits c;
	int i;

	ctrl_new(&c, true);
	for (i = 1; i <= RDMACHAN_CTRL_RECV; i++) {
		KUNIT_EXPECT_EQ(test, rdmachan_ctrl_reposted(&c),
				i >= RDMACHAN_CTRL_ACK_DUE ? 1 : 0);
		KUNIT_EXPECT_EQ(test, c.owed, i);
	}
	KUNIT_EXPECT_EQ(test, rdmachan_ctrl_reposted(&c), -EPROTO);
	KUNIT_EXPECT_EQ(test, c.owed, (u8)RDMACHAN_CTRL_RECV);
	KUNIT_EXPECT_EQ(test, rdmachan_ctrl_take(&c, true),
			(u8)RDMACHAN_CTRL_RECV);
	KUNIT_EXPECT_FALSE(test, rdmachan_ctrl_ack_due(&c));
	/* receive half reset by a new connection */
	rdmachan_ctrl_reposted(&c);
	rdmachan_ctrl_rx_reset(&c);
	KUNIT_EXPECT_EQ(test, c.owed, 0);
}

/* More returned than taken, or any before version 6, is refused */
static void ctrl_test_returned_bounds(struct kunit *test)
{
	struct rdmachan_ctrl_credits c;

	ctrl_new(&c, true);
	KUNIT_EXPECT_EQ(test, rdmachan_ctrl_returned(&c, 1), -EPROTO);
	KUNIT_EXPECT_EQ(test, c.avail, (u8)RDMACHAN_CTRL_RECV);
	rdmachan_ctrl_take(&c, true);
	KUNIT_EXPECT_EQ(test, rdmachan_ctrl_returned(&c, 2), -EPROTO);
	KUNIT_EXPECT_EQ(test, rdmachan_ctrl_returned(&c, 0), 0);
	KUNIT_EXPECT_EQ(test, rdmachan_ctrl_returned(&c, 1), 0);
	KUNIT_EXPECT_EQ(test, c.avail, (u8)RDMACHAN_CTRL_RECV);

	ctrl_new(&c, false);
	KUNIT_EXPECT_EQ(test, rdmachan_ctrl_returned(&c, 1), -EPROTO);
	KUNIT_EXPECT_EQ(test, rdmachan_ctrl_returned(&c, 0), 0);
}

/* Before version 6: control messages go as they did, uncounted */
static void ctrl_test_old_peer(struct kunit *test)
{
	struct rdmachan_ctrl_credits c;
	int i;

	ctrl_new(&c, false);
	for (i = 0; i < 100; i++) {
		KUNIT_EXPECT_TRUE(test, rdmachan_ctrl_may_send(&c));
		KUNIT_EXPECT_EQ(test, rdmachan_ctrl_take(&c, true), 0);
	}
	KUNIT_EXPECT_EQ(test, c.avail, (u8)RDMACHAN_CTRL_RECV);
}

/* ---- two ends ----------------------------------------------------------- */

#define MODEL_Q		256

/* A message under way: a control message or data, with its returns */
struct model_msg {
	bool ctrl;
	u8 cack;
};

struct model_end {
	struct rdmachan_ctrl_credits c;
	bool pending;			/* a control message waits */
	u32 free_bufs;			/* control buffers posted for the peer */
	/* the peer's messages: landed (buffer taken), not yet processed */
	struct model_msg landed[MODEL_Q];
	u32 nr_landed;
	/* this end's messages on the wire, oldest first */
	struct model_msg wire[MODEL_Q];
	u32 nr_wire;
	u32 sent_ctrl;
};

static void model_push(struct kunit *test, struct model_end *e, bool ctrl)
{
	KUNIT_ASSERT_LT(test, e->nr_wire, (u32)MODEL_Q);
	e->wire[e->nr_wire].ctrl = ctrl;
	e->wire[e->nr_wire].cack = rdmachan_ctrl_take(&e->c, ctrl);
	e->nr_wire++;
	if (ctrl)
		e->sent_ctrl++;
}

/* A control message: now, or waiting for a credit */
static void model_ctrl(struct kunit *test, struct model_end *e)
{
	if (rdmachan_ctrl_may_send(&e->c)) {
		e->pending = false;
		model_push(test, e, true);
	} else {
		e->pending = true;
	}
}

/*
 * rdmachan_ctrl_kick_locked(): a CREDIT for the returns due, then what
 * waits, if it may go now
 */
static void model_kick(struct kunit *test, struct model_end *e)
{
	if (rdmachan_ctrl_ack_due(&e->c))
		model_ctrl(test, e);
	if (e->pending && rdmachan_ctrl_may_send(&e->c))
		model_ctrl(test, e);
}

/* The oldest message of @from lands at @to: it takes a buffer */
static void model_land(struct kunit *test, struct model_end *from,
		       struct model_end *to)
{
	struct model_msg m = from->wire[0];

	memmove(from->wire, from->wire + 1, --from->nr_wire * sizeof(m));
	if (m.ctrl) {
		/* the invariant: a control message always finds a buffer */
		KUNIT_ASSERT_GT(test, to->free_bufs, 0U);
		to->free_bufs--;
	}
	KUNIT_ASSERT_LT(test, to->nr_landed, (u32)MODEL_Q);
	to->landed[to->nr_landed++] = m;
}

/* @e's receive completion for the oldest landed message runs */
static void model_process(struct kunit *test, struct model_end *e)
{
	struct model_msg m = e->landed[0];
	bool kick = m.cack;	/* rdmachan_ctrl_rx_locked() */

	memmove(e->landed, e->landed + 1, --e->nr_landed * sizeof(m));
	KUNIT_ASSERT_EQ(test, rdmachan_ctrl_returned(&e->c, m.cack), 0);
	/* rdmachan_ctrl_repost_locked() */
	if (m.ctrl) {
		e->free_bufs++;
		KUNIT_ASSERT_GE(test, rdmachan_ctrl_reposted(&e->c), 0);
		kick |= rdmachan_ctrl_ack_due(&e->c) ||
			(e->pending && rdmachan_ctrl_may_send(&e->c));
	}
	/* the kernel kicks exactly there: nothing else retries */
	if (kick)
		model_kick(test, e);
}

static void ctrl_model_run(struct kunit *test, u32 seed, u32 lag)
{
	struct model_end *e;
	struct rnd_state rnd;
	u32 step, i;

	e = kunit_kcalloc(test, 2, sizeof(*e), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, e);
	prandom_seed_state(&rnd, 0x43414b00ULL + seed);
	for (i = 0; i < 2; i++) {
		ctrl_new(&e[i].c, true);
		e[i].free_bufs = RDMACHAN_CTRL_RECV;
	}
	for (step = 0; step < 20000; step++) {
		u32 op = prandom_u32_state(&rnd) % 100;
		struct model_end *a = &e[prandom_u32_state(&rnd) % 2];
		struct model_end *b = a == &e[0] ? &e[1] : &e[0];

		if (op < 30) {
			/* a credit update, keepalive or close wants to go */
			if (!a->pending && a->nr_wire < MODEL_Q - 4)
				model_ctrl(test, a);
		} else if (op < 40) {
			/* data, as far as the data credits let it (roughly) */
			if (a->nr_wire + b->nr_landed < 32)
				model_push(test, a, false);
		} else if (op < 75) {
			if (a->nr_wire)
				model_land(test, a, b);
		} else if (op >= 75 + lag && a->nr_landed) {
			/* completions lag: they run less often than lands */
			model_process(test, a);
		}
	}
	/* nothing new: everything under way lands and is processed */
	for (step = 0; step < 100000; step++) {
		bool moved = false;

		for (i = 0; i < 2; i++) {
			if (e[i].nr_wire) {
				model_land(test, &e[i], &e[1 - i]);
				moved = true;
			}
			if (e[i].nr_landed) {
				model_process(test, &e[i]);
				moved = true;
			}
		}
		if (!moved)
			break;
	}
	for (i = 0; i < 2; i++) {
		KUNIT_EXPECT_FALSE_MSG(test, e[i].pending,
				       "end %u left waiting for a control credit",
				       i);
		KUNIT_EXPECT_EQ(test, e[i].free_bufs, (u32)RDMACHAN_CTRL_RECV);
		/* what it may send and what the peer still owes make all */
		KUNIT_EXPECT_EQ(test, e[i].c.avail + e[1 - i].c.owed,
				RDMACHAN_CTRL_RECV);
		/* credits went round, or ran out where nothing came back */
		KUNIT_EXPECT_GE(test, e[i].sent_ctrl,
				lag < 25 ? 10U : RDMACHAN_CTRL_RECV);
	}
}

/* 25: no completion runs until everything under way has landed */
static const u32 lags[] = { 0, 10, 20, 25 };

static void lag_desc(const u32 *l, char *desc)
{
	snprintf(desc, KUNIT_PARAM_DESC_SIZE, "completions lag %u", *l);
}

KUNIT_ARRAY_PARAM(lag, lags, lag_desc);

static void ctrl_test_model(struct kunit *test)
{
	const u32 lag = *(const u32 *)test->param_value;
	u32 seed;

	for (seed = 0; seed < 20; seed++)
		ctrl_model_run(test, seed, lag);
}

/* An idle channel probes every RDMACHAN_KEEPALIVE_QUIET_TICKS ticks */
static void keepalive_test_quiet(struct kunit *test)
{
	u8 quiet = 0;
	int round, i;

	for (round = 0; round < 3; round++) {
		for (i = 1; i < RDMACHAN_KEEPALIVE_QUIET_TICKS; i++)
			KUNIT_EXPECT_FALSE(test,
					   rdmachan_keepalive_probe_due(&quiet,
									false));
		KUNIT_EXPECT_TRUE(test, rdmachan_keepalive_probe_due(&quiet,
								     false));
		KUNIT_EXPECT_EQ(test, quiet, 0);
	}
}

/* Whatever arrives (the peer's probe too) starts the quiet count again */
static void keepalive_test_seen(struct kunit *test)
{
	u8 quiet = 0;
	int i;

	for (i = 1; i < RDMACHAN_KEEPALIVE_QUIET_TICKS; i++)
		KUNIT_EXPECT_FALSE(test, rdmachan_keepalive_probe_due(&quiet,
								      false));
	KUNIT_EXPECT_FALSE(test, rdmachan_keepalive_probe_due(&quiet, true));
	KUNIT_EXPECT_EQ(test, quiet, 0);
	/* a busy channel never probes */
	for (i = 0; i < 100; i++)
		KUNIT_EXPECT_FALSE(test, rdmachan_keepalive_probe_due(&quiet,
								      true));
	for (i = 1; i < RDMACHAN_KEEPALIVE_QUIET_TICKS; i++)
		KUNIT_EXPECT_FALSE(test, rdmachan_keepalive_probe_due(&quiet,
								      false));
	KUNIT_EXPECT_TRUE(test, rdmachan_keepalive_probe_due(&quiet, false));
}

static struct kunit_case ctrl_credit_cases[] = {
	KUNIT_CASE(keepalive_test_quiet),
	KUNIT_CASE(keepalive_test_seen),
	KUNIT_CASE(ctrl_test_init),
	KUNIT_CASE(ctrl_test_last_credit),
	KUNIT_CASE(ctrl_test_owed),
	KUNIT_CASE(ctrl_test_returned_bounds),
	KUNIT_CASE(ctrl_test_old_peer),
	KUNIT_CASE_PARAM(ctrl_test_model, lag_gen_params),
	{}
};

static struct kunit_suite ctrl_credit_suite = {
	.name = "rdmachan_ctrl_credit",
	.test_cases = ctrl_credit_cases,
};

kunit_test_suite(ctrl_credit_suite);
