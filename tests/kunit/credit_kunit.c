// SPDX-License-Identifier: GPL-2.0-only
/*
 * KUnit suite for module/chan/credit.h: the credit accounting of a channel,
 * case by case and as a model of two ends exchanging messages, where no
 * credit may ever be created or lost.
 */
#include "../../module/chan/credit.h"
#include "../../module/chan/proto.h"

#include <kunit/test.h>
#include <linux/prandom.h>
#include <linux/string.h>

static const u32 depths[] = { 2, 3, 7, 8, 9, 16, 128, 1000, RDMACHAN_MAX_DEPTH };

static void depth_desc(const u32 *d, char *desc)
{
	snprintf(desc, KUNIT_PARAM_DESC_SIZE, "depth %u", *d);
}

KUNIT_ARRAY_PARAM(depth, depths, depth_desc);

/* A connection as the channel starts one: buffers posted, then up */
static void credits_new(struct rdmachan_credits *c, u32 depth, bool defer)
{
	rdmachan_credits_rx_reset(c);
	rdmachan_credits_init(c, depth, defer, depth, depth);
}

/* A new connection: everything available, nothing owed, threshold >= 1 */
static void credit_test_init(struct kunit *test)
{
	const u32 depth = *(const u32 *)test->param_value;
	struct rdmachan_credits c;

	memset(&c, 0xa5, sizeof(c));
	credits_new(&c, depth, true);
	KUNIT_EXPECT_EQ(test, c.depth, depth);
	KUNIT_EXPECT_EQ(test, c.avail, depth);
	KUNIT_EXPECT_EQ(test, c.owed, 0U);
	KUNIT_EXPECT_EQ(test, c.out, 0U);
	KUNIT_EXPECT_EQ(test, c.threshold, max_t(u32, 1, depth / 8));
	KUNIT_EXPECT_GE(test, c.threshold, 1U);
	KUNIT_EXPECT_LE(test, c.threshold, depth);
	KUNIT_EXPECT_EQ(test, c.report_at, max(c.threshold, depth / 2));
	KUNIT_EXPECT_LE(test, c.report_at, depth);
	KUNIT_EXPECT_FALSE(test, rdmachan_credits_report_due(&c));

	/* not deferred: the threshold of owed credits alone decides */
	memset(&c, 0xa5, sizeof(c));
	credits_new(&c, depth, false);
	KUNIT_EXPECT_EQ(test, c.out, 0U);
	KUNIT_EXPECT_EQ(test, c.report_at, c.threshold);
}

/*
 * The peer sent before ESTABLISHED reached us, and the reader released
 * some: init keeps what was received and owed, and a report may be due
 * at once.
 */
static void credit_test_early_receives(struct kunit *test)
{
	struct rdmachan_credits c;
	u32 i;

	memset(&c, 0, sizeof(c));
	rdmachan_credits_rx_reset(&c);
	for (i = 0; i < 16; i++)
		rdmachan_credits_took_one(&c);
	for (i = 0; i < 10; i++)
		rdmachan_credits_owe_one(&c);
	rdmachan_credits_init(&c, 16, true, 16, 16);
	KUNIT_EXPECT_EQ(test, c.avail, 16U);
	KUNIT_EXPECT_EQ(test, c.out, 16U);
	KUNIT_EXPECT_EQ(test, c.owed, 10U);
	/* the peer has spent all 16: ours to report now (the channel does) */
	KUNIT_EXPECT_TRUE(test, rdmachan_credits_report_due(&c));
	KUNIT_EXPECT_EQ(test, rdmachan_credits_take_owed(&c), 10);
	KUNIT_EXPECT_EQ(test, c.out, 6U);

	/* a new connection starts from nothing */
	rdmachan_credits_rx_reset(&c);
	rdmachan_credits_init(&c, 16, true, 16, 16);
	KUNIT_EXPECT_EQ(test, c.out, 0U);
	KUNIT_EXPECT_EQ(test, c.owed, 0U);
	KUNIT_EXPECT_FALSE(test, rdmachan_credits_report_due(&c));
}

/* Without deferral a report is due exactly at the threshold, as it comes */
static void credit_test_no_defer(struct kunit *test)
{
	const u32 depth = *(const u32 *)test->param_value;
	struct rdmachan_credits c;
	u32 i;

	credits_new(&c, depth, false);
	for (i = 1; i < c.threshold; i++) {
		KUNIT_EXPECT_FALSE(test, rdmachan_credits_took_one(&c));
		KUNIT_EXPECT_FALSE(test, rdmachan_credits_owe_one(&c));
	}
	/* one held: its arrival reports nothing, its repost everything */
	KUNIT_EXPECT_FALSE(test, rdmachan_credits_took_one(&c));
	KUNIT_EXPECT_TRUE(test, rdmachan_credits_owe_one(&c));
	KUNIT_EXPECT_EQ(test, rdmachan_credits_take_owed(&c), (u16)c.threshold);
	KUNIT_EXPECT_EQ(test, c.out, 0U);
	KUNIT_EXPECT_FALSE(test, rdmachan_credits_report_due(&c));
}

/**
 * struct spend_case - one rdmachan_credits_spend() call
 * @name: what the case shows
 * @avail: credits available before
 * @want: credits asked for
 * @room: free send slots
 * @spent: the expected result
 */
struct spend_case {
	const char *name;
	u32 avail;
	u32 want;
	u32 room;
	u32 spent;
};

static const struct spend_case spend_cases[] = {
	{ "want fewer than available", 16, 4, 16, 4 },
	{ "want all", 16, 16, 16, 16 },
	{ "want more than available", 16, 17, 100, 16 },
	{ "ring smaller than credits", 16, 16, 5, 5 },
	{ "ring full", 16, 4, 0, 0 },
	{ "no credit", 0, 4, 16, 0 },
	{ "want none", 16, 0, 16, 0 },
	{ "want U32_MAX", 16, U32_MAX, U32_MAX, 16 },
};

static void spend_case_desc(const struct spend_case *c, char *desc)
{
	strscpy(desc, c->name, KUNIT_PARAM_DESC_SIZE);
}

KUNIT_ARRAY_PARAM(spend, spend_cases, spend_case_desc);

static void credit_test_spend(struct kunit *test)
{
	const struct spend_case *sc = test->param_value;
	struct rdmachan_credits c;

	credits_new(&c, 16, true);
	c.avail = sc->avail;
	KUNIT_EXPECT_EQ(test, rdmachan_credits_spend(&c, sc->want, sc->room),
			sc->spent);
	KUNIT_EXPECT_EQ(test, c.avail, sc->avail - sc->spent);
	KUNIT_EXPECT_EQ(test, c.owed, 0U);
}

/* The peer may return what was spent, never more */
static void credit_test_grant_bounds(struct kunit *test)
{
	const u32 depth = *(const u32 *)test->param_value;
	struct rdmachan_credits c;
	u32 spent;

	credits_new(&c, depth, true);
	KUNIT_EXPECT_EQ(test, rdmachan_credits_grant(&c, 0), 0);
	KUNIT_EXPECT_EQ(test, rdmachan_credits_grant(&c, 1), -EPROTO);
	KUNIT_EXPECT_EQ(test, c.avail, depth);

	spent = rdmachan_credits_spend(&c, depth / 2 + 1, depth);
	KUNIT_ASSERT_EQ(test, spent, depth / 2 + 1);
	KUNIT_EXPECT_EQ(test, rdmachan_credits_grant(&c, spent + 1), -EPROTO);
	KUNIT_EXPECT_EQ(test, c.avail, depth - spent);
	KUNIT_EXPECT_EQ(test, rdmachan_credits_grant(&c, U16_MAX), -EPROTO);
	KUNIT_EXPECT_EQ(test, rdmachan_credits_grant(&c, U32_MAX), -EPROTO);
	KUNIT_EXPECT_EQ(test, c.avail, depth - spent);

	KUNIT_EXPECT_EQ(test, rdmachan_credits_grant(&c, spent - 1), 0);
	KUNIT_EXPECT_EQ(test, rdmachan_credits_grant(&c, 2), -EPROTO);
	KUNIT_EXPECT_EQ(test, rdmachan_credits_grant(&c, 1), 0);
	KUNIT_EXPECT_EQ(test, c.avail, depth);

	/* all spent, all returned in one header */
	KUNIT_ASSERT_EQ(test, rdmachan_credits_spend(&c, depth, depth), depth);
	KUNIT_EXPECT_EQ(test, c.avail, 0U);
	KUNIT_EXPECT_EQ(test, rdmachan_credits_grant(&c, depth + 1), -EPROTO);
	KUNIT_EXPECT_EQ(test, rdmachan_credits_grant(&c, depth), 0);
	KUNIT_EXPECT_EQ(test, c.avail, depth);
}

/* Credits of unposted messages come back, never beyond the depth */
static void credit_test_refund(struct kunit *test)
{
	struct rdmachan_credits c;

	credits_new(&c, 8, true);
	KUNIT_ASSERT_EQ(test, rdmachan_credits_spend(&c, 5, 8), 5U);
	rdmachan_credits_refund(&c, 2);
	KUNIT_EXPECT_EQ(test, c.avail, 5U);
	rdmachan_credits_refund(&c, 3);
	KUNIT_EXPECT_EQ(test, c.avail, 8U);
	rdmachan_credits_refund(&c, 1);
	KUNIT_EXPECT_EQ(test, c.avail, 8U);
	rdmachan_credits_refund(&c, U32_MAX);
	KUNIT_EXPECT_EQ(test, c.avail, 8U);
}

/*
 * An explicit report is due once threshold credits are owed and report_at
 * of the peer's are out; taking what is owed returns them and clears it.
 */
static void credit_test_owe_and_report(struct kunit *test)
{
	const u32 depth = *(const u32 *)test->param_value;
	struct rdmachan_credits c;
	bool due;
	u32 i;

	credits_new(&c, depth, true);
	/* the peer has report_at - 1 out, all reposted: not short yet */
	for (i = 1; i < c.report_at; i++) {
		KUNIT_EXPECT_FALSE(test, rdmachan_credits_took_one(&c));
		KUNIT_EXPECT_FALSE(test, rdmachan_credits_owe_one(&c));
		KUNIT_EXPECT_FALSE(test, rdmachan_credits_report_due(&c));
	}
	KUNIT_EXPECT_EQ(test, c.out, c.report_at - 1);
	KUNIT_EXPECT_EQ(test, c.owed, c.report_at - 1);
	/*
	 * The next message makes the peer short: the report is due on its
	 * arrival if enough are owed already, before the reader lets it go
	 */
	due = c.owed >= c.threshold;
	KUNIT_EXPECT_EQ(test, rdmachan_credits_took_one(&c), due);
	KUNIT_EXPECT_TRUE(test, rdmachan_credits_owe_one(&c));
	KUNIT_EXPECT_TRUE(test, rdmachan_credits_report_due(&c));
	KUNIT_EXPECT_EQ(test, c.owed, c.report_at);

	KUNIT_EXPECT_EQ(test, rdmachan_credits_take_owed(&c), (u16)c.report_at);
	KUNIT_EXPECT_EQ(test, c.owed, 0U);
	KUNIT_EXPECT_EQ(test, c.out, 0U);
	KUNIT_EXPECT_FALSE(test, rdmachan_credits_report_due(&c));
	KUNIT_EXPECT_EQ(test, rdmachan_credits_take_owed(&c), 0);

	/*
	 * The reader holds all the buffers: the peer is short, but a report
	 * waits for threshold reposts.
	 */
	for (i = 0; i < depth; i++)
		KUNIT_EXPECT_FALSE(test, rdmachan_credits_took_one(&c));
	KUNIT_EXPECT_EQ(test, c.out, depth);
	for (i = 1; i < c.threshold; i++)
		KUNIT_EXPECT_FALSE(test, rdmachan_credits_owe_one(&c));
	KUNIT_EXPECT_TRUE(test, rdmachan_credits_owe_one(&c));
	KUNIT_EXPECT_EQ(test, rdmachan_credits_take_owed(&c),
			(u16)c.threshold);
	KUNIT_EXPECT_EQ(test, c.out, depth - c.threshold);

	/* the rest reposted: the whole of it owed, in one report */
	for (i = c.threshold; i < depth; i++)
		rdmachan_credits_owe_one(&c);
	KUNIT_EXPECT_TRUE(test, rdmachan_credits_report_due(&c));
	KUNIT_EXPECT_EQ(test, rdmachan_credits_take_owed(&c),
			(u16)(depth - c.threshold));
	KUNIT_EXPECT_EQ(test, c.owed, 0U);
	KUNIT_EXPECT_EQ(test, c.out, 0U);
}

/* Piggybacked returns keep the peer from ever getting short */
static void credit_test_piggyback_defers_report(struct kunit *test)
{
	const u32 depth = *(const u32 *)test->param_value;
	struct rdmachan_credits c;
	u32 i;

	credits_new(&c, depth, true);
	for (i = 0; i < 4 * depth; i++) {
		KUNIT_EXPECT_FALSE(test, rdmachan_credits_took_one(&c));
		KUNIT_EXPECT_FALSE(test, rdmachan_credits_owe_one(&c) &&
				   c.report_at > 1);
		/* a reply carries the credit back in its header */
		KUNIT_EXPECT_EQ(test, rdmachan_credits_take_owed(&c), 1);
		KUNIT_EXPECT_EQ(test, c.out, 0U);
	}
}

/* More owed than granted cannot happen, but never overflows the field */
static void credit_test_take_owed_clamped(struct kunit *test)
{
	struct rdmachan_credits c;

	credits_new(&c, RDMACHAN_MAX_DEPTH, true);
	c.owed = RDMACHAN_MAX_DEPTH + 5;
	c.out = RDMACHAN_MAX_DEPTH;
	KUNIT_EXPECT_EQ(test, rdmachan_credits_take_owed(&c),
			(u16)RDMACHAN_MAX_DEPTH);
	KUNIT_EXPECT_EQ(test, c.owed, 5U);
	KUNIT_EXPECT_EQ(test, c.out, 0U);
	KUNIT_EXPECT_LE(test, (u32)RDMACHAN_MAX_DEPTH, (u32)U16_MAX);
}

/*
 * One direction of a channel as a model: A sends data to B; B holds some
 * messages, releases them (reposting, so owing a credit), and returns the
 * credits owed piggybacked on its own sends or in CREDIT messages once
 * a report is due; A takes them in when B's headers arrive.  At every
 * step no credit is created or lost:
 *
 *   A.avail + data in flight + held by B + B.owed + in flight back = depth
 *
 * A never sends without a credit, B never receives into a buffer it does
 * not have, every grant is accepted, B's count of A's credits out with it
 * is exact, and A is never left without a credit while nothing is on the
 * wire (the deferred report would then be a deadlock).
 */
struct credit_model {
	struct rdmachan_credits a;	/* A's view: what it may send */
	struct rdmachan_credits b;	/* B's view: what it owes */
	u32 data_in_flight;
	u32 held;
	u32 back_in_flight[4];		/* credit headers on the way to A */
	u32 nr_back;
	u32 credit_msgs;
	u32 piggybacked;
	u32 stalls;
};

static u32 model_back_total(const struct credit_model *m)
{
	u32 i, sum = 0;

	for (i = 0; i < m->nr_back; i++)
		sum += m->back_in_flight[i];
	return sum;
}

static void model_send_back(struct credit_model *m, u32 n)
{
	if (m->nr_back < ARRAY_SIZE(m->back_in_flight)) {
		m->back_in_flight[m->nr_back++] = n;
	} else {
		/* in-order wire: merge into the newest header on the way */
		m->back_in_flight[m->nr_back - 1] += n;
	}
}

static void credit_model_run(struct kunit *test, u32 depth, bool defer)
{
	struct rnd_state rnd;
	struct credit_model *m;
	u32 step;

	m = kunit_kzalloc(test, sizeof(*m), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, m);
	prandom_seed_state(&rnd, 0x5243483131ULL + depth);
	credits_new(&m->a, depth, defer);
	credits_new(&m->b, depth, defer);

	for (step = 0; step < 20000; step++) {
		u32 op = prandom_u32_state(&rnd) % 100;
		u32 n;

		if (op < 40) {
			/* A sends a burst */
			n = 1 + prandom_u32_state(&rnd) % max_t(u32, 8, depth / 4);
			n = rdmachan_credits_spend(&m->a, n, U32_MAX);
			if (!n)
				m->stalls++;
			m->data_in_flight += n;
		} else if (op < 60 && m->data_in_flight) {
			/* B receives: every message lands in a free buffer */
			n = 1 + prandom_u32_state(&rnd) % m->data_in_flight;
			m->data_in_flight -= n;
			m->held += n;
			while (n--) {
				if (!rdmachan_credits_took_one(&m->b))
					continue;
				model_send_back(m,
						rdmachan_credits_take_owed(&m->b));
				m->credit_msgs++;
			}
			KUNIT_ASSERT_LE(test, m->held + m->b.owed +
					model_back_total(m), depth);
		} else if (op < 80 && m->held) {
			/* B releases some: reposted, credits owed */
			for (n = 1 + prandom_u32_state(&rnd) % m->held; n; n--) {
				m->held--;
				if (rdmachan_credits_owe_one(&m->b)) {
					model_send_back(m,
							rdmachan_credits_take_owed(&m->b));
					m->credit_msgs++;
				}
			}
		} else if (op < 88 && step >= 10000) {
			/*
			 * B sends data of its own, in the second half only (the
			 * first is one-way traffic): credits piggybacked
			 */
			n = rdmachan_credits_take_owed(&m->b);
			if (n) {
				model_send_back(m, n);
				m->piggybacked++;
			}
		} else if (m->nr_back) {
			/* A receives B's oldest header */
			KUNIT_ASSERT_EQ(test,
					rdmachan_credits_grant(&m->a,
							       m->back_in_flight[0]),
					0);
			m->nr_back--;
			memmove(&m->back_in_flight[0], &m->back_in_flight[1],
				m->nr_back * sizeof(m->back_in_flight[0]));
		}
		KUNIT_ASSERT_EQ_MSG(test, m->a.avail + m->data_in_flight +
				    m->held + m->b.owed + model_back_total(m),
				    depth, "credit created or lost at step %u",
				    step);
		KUNIT_ASSERT_LE(test, m->a.avail, depth);
		/* B's count of what A has out with it is exact */
		KUNIT_ASSERT_EQ(test, m->b.out, m->held + m->b.owed);
		/* and B sent every report as soon as it was due */
		KUNIT_ASSERT_FALSE_MSG(test, rdmachan_credits_report_due(&m->b),
				       "a report left due at step %u", step);
		/*
		 * Never a deadlock: with nothing on the wire and nothing
		 * held, A has a credit to send (B reported when it got short)
		 */
		if (!m->data_in_flight && !m->held && !m->nr_back)
			KUNIT_ASSERT_GT_MSG(test, m->a.avail, 0U,
					    "A stalled for good at step %u",
					    step);
	}
	/*
	 * Credits came back in CREDIT messages and, unless every repost
	 * reaches the threshold at once, piggybacked too.
	 */
	KUNIT_EXPECT_GT(test, m->credit_msgs, 0U);
	if (m->b.threshold > 1)
		KUNIT_EXPECT_GT(test, m->piggybacked, 0U);
	kunit_info(test, "depth %u%s: %u credit messages, %u piggybacked, %u stalls\n",
		   depth, defer ? "" : " (reports not deferred)",
		   m->credit_msgs, m->piggybacked, m->stalls);
}

static void credit_test_model(struct kunit *test)
{
	const u32 depth = *(const u32 *)test->param_value;

	credit_model_run(test, depth, true);
	credit_model_run(test, depth, false);
}

/* RDMACHAN_WIRE_F_GROW: retiring, one by one */
static void credit_test_retire(struct kunit *test)
{
	struct rdmachan_credits a, b;

	credits_new(&a, 16, true);
	credits_new(&b, 16, true);
	KUNIT_EXPECT_EQ(test, b.granted, 16U);
	/* the sender keeps @keep, and retires no more than @room */
	KUNIT_EXPECT_EQ(test, rdmachan_credits_retire(&a, 1, 5), 5U);
	KUNIT_EXPECT_EQ(test, a.avail, 11U);
	KUNIT_EXPECT_EQ(test, rdmachan_credits_retire(&a, 1, U32_MAX), 10U);
	KUNIT_EXPECT_EQ(test, a.avail, 1U);
	KUNIT_EXPECT_EQ(test, rdmachan_credits_retire(&a, 1, U32_MAX), 0U);
	/* the receiver frees a buffer for each; the thresholds follow */
	KUNIT_EXPECT_EQ(test, rdmachan_credits_retired(&b), 0);
	KUNIT_EXPECT_EQ(test, b.granted, 15U);
	while (b.granted > 1)
		KUNIT_EXPECT_EQ(test, rdmachan_credits_retired(&b), 0);
	KUNIT_EXPECT_EQ(test, b.threshold, 1U);
	KUNIT_EXPECT_EQ(test, b.report_at, 1U);
	/* the last credit is out with us (a message held): not retirable */
	rdmachan_credits_took_one(&b);
	KUNIT_EXPECT_EQ(test, rdmachan_credits_retired(&b), -EPROTO);
	KUNIT_EXPECT_EQ(test, b.granted, 1U);
	/* a returned credit never lifts the sender above the depth */
	KUNIT_EXPECT_EQ(test, rdmachan_credits_grant(&a, 15), 0);
	KUNIT_EXPECT_EQ(test, rdmachan_credits_grant(&a, 1), -EPROTO);
}

/* RDMACHAN_WIRE_F_GROW: when and how much a receiver grants */
static void credit_test_grow(struct kunit *test)
{
	struct rdmachan_credits b;

	credits_new(&b, 16, true);
	/* at the depth already, every credit out with us: never more */
	b.out = 16;
	KUNIT_EXPECT_EQ(test, rdmachan_credits_grow_want(&b), 0U);

	credits_new(&b, 16, true);
	while (b.granted > 1)
		KUNIT_ASSERT_EQ(test, rdmachan_credits_retired(&b), 0);
	/* nothing of the peer's with us: it has its credit, no need */
	KUNIT_EXPECT_EQ(test, rdmachan_credits_grow_want(&b), 0U);
	/* its one message arrived: as many again */
	rdmachan_credits_took_one(&b);
	KUNIT_EXPECT_EQ(test, rdmachan_credits_grow_want(&b), 1U);
	KUNIT_EXPECT_TRUE(test, rdmachan_credits_grow(&b, 1));
	KUNIT_EXPECT_EQ(test, b.granted, 2U);
	KUNIT_EXPECT_EQ(test, b.owed, 1U);
	KUNIT_EXPECT_EQ(test, b.out, 2U);
	KUNIT_EXPECT_EQ(test, rdmachan_credits_take_owed(&b), 1U);
	/* one of two out: at half, grow again, to 4 */
	KUNIT_EXPECT_EQ(test, rdmachan_credits_grow_want(&b), 2U);
	rdmachan_credits_grow(&b, 2);
	rdmachan_credits_take_owed(&b);
	KUNIT_EXPECT_EQ(test, b.granted, 4U);
	/* one of four out: below half, enough */
	KUNIT_EXPECT_EQ(test, rdmachan_credits_grow_want(&b), 0U);
	/* never beyond the depth */
	b.out = 4;
	rdmachan_credits_grow(&b, 8);
	KUNIT_EXPECT_EQ(test, b.granted, 12U);
	KUNIT_EXPECT_EQ(test, rdmachan_credits_grow_want(&b), 4U);
	rdmachan_credits_grow(&b, 100);
	KUNIT_EXPECT_EQ(test, b.granted, 16U);
	KUNIT_EXPECT_EQ(test, b.threshold, 2U);
	KUNIT_EXPECT_EQ(test, b.report_at, 8U);
	KUNIT_EXPECT_EQ(test, rdmachan_credits_grow_asked(&b, 16), 0U);
	/* asked (F_WANT): the whole depth, whatever is out */
	b.out = 0;
	b.owed = 0;
	while (b.granted > 3)
		KUNIT_ASSERT_EQ(test, rdmachan_credits_retired(&b), 0);
	KUNIT_EXPECT_EQ(test, rdmachan_credits_grow_want(&b), 0U);
	KUNIT_EXPECT_EQ(test, rdmachan_credits_grow_asked(&b, 16), 13U);
	KUNIT_EXPECT_EQ(test, b.threshold, 1U);
	KUNIT_EXPECT_EQ(test, b.report_at, 1U);
	b.granted = 10;
	KUNIT_EXPECT_EQ(test, rdmachan_credits_grow_asked(&b, 16), 6U);
	/* F_FRAG: a step, or as many again as granted */
	b.granted = 1;
	KUNIT_EXPECT_EQ(test, rdmachan_credits_grow_asked(&b, 4), 4U);
	b.granted = 3;
	KUNIT_EXPECT_EQ(test, rdmachan_credits_grow_asked(&b, 2), 3U);
	b.granted = 12;
	KUNIT_EXPECT_EQ(test, rdmachan_credits_grow_asked(&b, 2), 4U);
	b.granted = 17;
	KUNIT_EXPECT_EQ(test, rdmachan_credits_grow_asked(&b, 2), 0U);
}

/* A sender refused for want of credits: when it asks for a larger grant */
static void credit_test_ask(struct kunit *test)
{
	struct rdmachan_credits a;

	credits_new(&a, 16, true);
	/* credits in hand: nothing to ask, whatever the message takes */
	KUNIT_EXPECT_FALSE(test, rdmachan_credits_ask(&a, 1, true, true));
	KUNIT_EXPECT_FALSE(test, rdmachan_credits_ask(&a, 16, false, false));
	rdmachan_credits_spend(&a, 14, 16);
	/* two left: a message of three waits for them all, and asks */
	KUNIT_EXPECT_TRUE(test, rdmachan_credits_ask(&a, 3, false, false));
	KUNIT_EXPECT_FALSE(test, rdmachan_credits_ask(&a, 2, true, true));
	rdmachan_credits_spend(&a, 2, 16);
	/* none left: one that may not wait asks a peer whose grant grows */
	KUNIT_EXPECT_TRUE(test, rdmachan_credits_ask(&a, 1, true, true));
	KUNIT_EXPECT_FALSE(test, rdmachan_credits_ask(&a, 1, true, false));
	/* one that waits leaves it to the peer's reader */
	KUNIT_EXPECT_FALSE(test, rdmachan_credits_ask(&a, 1, false, true));
	/* a grant of the whole depth in hand cannot grow */
	KUNIT_EXPECT_EQ(test, rdmachan_credits_grant(&a, 16), 0);
	KUNIT_EXPECT_FALSE(test, rdmachan_credits_ask(&a, 17, true, true));
}

/* The receiver of an ask: is its own reader the one that holds the grant? */
static void credit_test_reader_holds(struct kunit *test)
{
	struct rdmachan_credits b;
	u32 i;

	credits_new(&b, 16, true);
	KUNIT_EXPECT_FALSE(test, rdmachan_credits_reader_holds(&b));
	/* seven held: less than half */
	for (i = 0; i < 7; i++)
		rdmachan_credits_took_one(&b);
	KUNIT_EXPECT_FALSE(test, rdmachan_credits_reader_holds(&b));
	/* eight: half of the grant */
	rdmachan_credits_took_one(&b);
	KUNIT_EXPECT_TRUE(test, rdmachan_credits_reader_holds(&b));
	/* released and owed, not yet returned: on their way, not held */
	for (i = 0; i < 4; i++)
		rdmachan_credits_owe_one(&b);
	KUNIT_EXPECT_FALSE(test, rdmachan_credits_reader_holds(&b));
	/* returned: the same */
	rdmachan_credits_take_owed(&b);
	KUNIT_EXPECT_FALSE(test, rdmachan_credits_reader_holds(&b));
	/* a smaller grant: the same four are half of it */
	b.granted = 8;
	KUNIT_EXPECT_TRUE(test, rdmachan_credits_reader_holds(&b));
}

/*
 * rdmachan_credits_return_due(): a receiver whose answers carry no header
 * (a block server's WRITE_WITH_IMM replies) answers with a message when
 * it says so.  One request at a time from a grant of 16: the message
 * goes every seventh request, returns all that is owed, and the explicit
 * report never becomes due.  Without such messages the report does, at
 * the eighth.  Nothing owed: never due.
 */
static void credit_test_return_due(struct kunit *test)
{
	struct rdmachan_credits c;
	u32 i, msgs = 0, reports = 0, first = 0;

	rdmachan_credits_rx_reset(&c);
	rdmachan_credits_init(&c, 128, true, 16, 16);
	KUNIT_EXPECT_FALSE(test, rdmachan_credits_return_due(&c));
	for (i = 1; i <= 70; i++) {
		reports += rdmachan_credits_took_one(&c);
		reports += rdmachan_credits_owe_one(&c);
		if (rdmachan_credits_return_due(&c)) {
			KUNIT_EXPECT_EQ(test, c.owed, 7U);
			KUNIT_EXPECT_EQ(test, rdmachan_credits_take_owed(&c), 7);
			if (!first)
				first = i;
			msgs++;
		}
	}
	KUNIT_EXPECT_EQ(test, first, 7U);
	KUNIT_EXPECT_EQ(test, msgs, 10U);
	KUNIT_EXPECT_EQ(test, reports, 0U);
	KUNIT_EXPECT_EQ(test, c.out, 0U);

	/* answered by WRITE_WITH_IMM only: the report at the eighth */
	rdmachan_credits_rx_reset(&c);
	rdmachan_credits_init(&c, 128, true, 16, 16);
	for (i = 1; i <= 7; i++) {
		KUNIT_EXPECT_FALSE(test, rdmachan_credits_took_one(&c));
		KUNIT_EXPECT_FALSE(test, rdmachan_credits_owe_one(&c));
	}
	KUNIT_EXPECT_TRUE(test, rdmachan_credits_return_due(&c));
	KUNIT_EXPECT_TRUE(test, rdmachan_credits_took_one(&c));

	/* messages held, none reposted: nothing owed, nothing to return */
	rdmachan_credits_rx_reset(&c);
	rdmachan_credits_init(&c, 128, true, 16, 16);
	for (i = 0; i < 12; i++)
		rdmachan_credits_took_one(&c);
	KUNIT_EXPECT_FALSE(test, rdmachan_credits_return_due(&c));
}

/*
 * RDMACHAN_WIRE_F_IMM_CREDIT, a block server's end (grant 16 of 128):
 * each request arrives and its buffer is reposted before its answer, a
 * WRITE_WITH_IMM that takes the credit owed.  Nothing is ever due, and
 * the client keeps its whole grant.  With nothing owed an immediate
 * returns none; credits of WRITEs not posted are owed again.
 */
static void credit_test_imm_credit(struct kunit *test)
{
	struct rdmachan_credits srv, clt;
	u32 i, due = 0;

	rdmachan_credits_rx_reset(&srv);
	rdmachan_credits_init(&srv, 128, true, 16, 16);
	rdmachan_credits_rx_reset(&clt);
	rdmachan_credits_init(&clt, 128, true, 16, 16);
	KUNIT_EXPECT_FALSE(test, rdmachan_credits_take_one(&srv));
	for (i = 0; i < 1000; i++) {
		KUNIT_EXPECT_EQ(test, rdmachan_credits_spend(&clt, 1, 1), 1U);
		due += rdmachan_credits_took_one(&srv);
		due += rdmachan_credits_owe_one(&srv);
		due += rdmachan_credits_return_due(&srv);
		KUNIT_EXPECT_TRUE(test, rdmachan_credits_take_one(&srv));
		KUNIT_EXPECT_EQ(test, rdmachan_credits_grant(&clt, 1), 0);
	}
	KUNIT_EXPECT_EQ(test, due, 0U);
	KUNIT_EXPECT_EQ(test, clt.avail, 16U);
	KUNIT_EXPECT_EQ(test, srv.owed, 0U);
	KUNIT_EXPECT_EQ(test, srv.out, 0U);

	/* two owed, one taken by a WRITE that was not posted: two again */
	rdmachan_credits_took_one(&srv);
	rdmachan_credits_owe_one(&srv);
	rdmachan_credits_took_one(&srv);
	rdmachan_credits_owe_one(&srv);
	KUNIT_EXPECT_TRUE(test, rdmachan_credits_take_one(&srv));
	KUNIT_EXPECT_EQ(test, srv.owed, 1U);
	rdmachan_credits_untake(&srv, 1);
	KUNIT_EXPECT_EQ(test, srv.owed, 2U);
	KUNIT_EXPECT_EQ(test, srv.out, 2U);
	KUNIT_EXPECT_EQ(test, rdmachan_credits_take_owed(&srv), 2);
}

/*
 * The stuck clock of a standing ask (struct rdmachan_grant_ask): stuck
 * after a whole tick's interval with nothing of the peer's, kept by a
 * second ask, restarted by a part of the ask granted, ended by the whole;
 * past the budget only while stuck and the reader does not hold half.
 */
static void credit_test_ask_clock(struct kunit *test)
{
	struct rdmachan_grant_ask a = {};
	struct rdmachan_credits c;

	credits_new(&c, 16, true);
	/* no ask: ticks do nothing */
	rdmachan_ask_tick(&a);
	rdmachan_ask_tick(&a);
	KUNIT_EXPECT_FALSE(test, a.stuck);
	KUNIT_EXPECT_FALSE(test, rdmachan_ask_past_budget(&a, &c));

	/* the first tick sees it, the second finds nothing came: stuck */
	rdmachan_ask_raise(&a);
	rdmachan_ask_tick(&a);
	KUNIT_EXPECT_FALSE(test, a.stuck);
	rdmachan_ask_tick(&a);
	KUNIT_EXPECT_TRUE(test, a.stuck);
	KUNIT_EXPECT_TRUE(test, rdmachan_ask_past_budget(&a, &c));
	/* asked again while it stands: the clock runs on */
	rdmachan_ask_raise(&a);
	KUNIT_EXPECT_TRUE(test, a.stuck);

	/* granted in part: not stuck until a whole interval passed again */
	rdmachan_ask_granted(&a, 5, 16);
	KUNIT_EXPECT_TRUE(test, a.asked);
	KUNIT_EXPECT_FALSE(test, a.stuck);
	KUNIT_EXPECT_FALSE(test, rdmachan_ask_past_budget(&a, &c));
	rdmachan_ask_tick(&a);
	KUNIT_EXPECT_FALSE(test, a.stuck);
	rdmachan_ask_tick(&a);
	KUNIT_EXPECT_TRUE(test, a.stuck);

	/* none of it granted: the clock is not restarted */
	rdmachan_ask_granted(&a, 0, 16);
	KUNIT_EXPECT_TRUE(test, a.asked);
	KUNIT_EXPECT_TRUE(test, a.stuck);

	/* a reader that holds half of the grant: never past the budget */
	c.granted = 2;
	rdmachan_credits_took_one(&c);
	KUNIT_EXPECT_FALSE(test, rdmachan_ask_past_budget(&a, &c));

	/* granted whole: the ask ends, and a new one starts afresh */
	rdmachan_ask_granted(&a, 16, 16);
	KUNIT_EXPECT_FALSE(test, a.asked);
	rdmachan_ask_tick(&a);
	rdmachan_ask_tick(&a);
	KUNIT_EXPECT_FALSE(test, a.stuck);
	rdmachan_ask_raise(&a);
	KUNIT_EXPECT_FALSE(test, a.stuck);
	KUNIT_EXPECT_FALSE(test, a.ticked);

	/* data between the ticks: the peer is not stuck */
	rdmachan_ask_tick(&a);
	rdmachan_ask_data(&a);
	rdmachan_ask_tick(&a);
	KUNIT_EXPECT_FALSE(test, a.stuck);
	rdmachan_ask_tick(&a);
	KUNIT_EXPECT_TRUE(test, a.stuck);
}

/*
 * The model of credit_model_run() with F_GROW: A retires what it holds
 * beyond one when it is "idle", B grants more as A's messages arrive, from
 * the whole depth or from a start grant of one, reports deferred or not.
 * No credit is created or lost, B never grants beyond the depth, never
 * sees a RETIRE it cannot account for, and A is never stuck (a RETIRE that
 * lowers the thresholds may make a report due: it goes then).
 */
static void credit_grow_model_run(struct kunit *test, u32 depth, bool defer,
				  u32 start)
{
	struct rdmachan_credits a, b;
	struct rnd_state rnd;
	u32 data = 0, retires = 0, held = 0, back = 0, step, grown = 0;

	prandom_seed_state(&rnd, 0x47524f57ULL + depth + start + defer);
	rdmachan_credits_rx_reset(&a);
	rdmachan_credits_rx_reset(&b);
	rdmachan_credits_init(&a, depth, defer, start, depth);
	rdmachan_credits_init(&b, depth, defer, depth, start);
	for (step = 0; step < 20000; step++) {
		u32 op = prandom_u32_state(&rnd) % 100;
		u32 n;

		if (op < 30) {
			n = 1 + prandom_u32_state(&rnd) % max_t(u32, 8, depth / 4);
			data += rdmachan_credits_spend(&a, n, U32_MAX);
		} else if (op < 35) {
			retires += rdmachan_credits_retire(&a, 1, U32_MAX);
		} else if (op < 45 && retires) {
			KUNIT_ASSERT_EQ(test, rdmachan_credits_retired(&b), 0);
			retires--;
			/* the thresholds fell: owed credits may be due now */
			if (rdmachan_credits_report_due(&b))
				back += rdmachan_credits_take_owed(&b);
		} else if (op < 65 && data) {
			bool due;

			data--;
			held++;
			due = rdmachan_credits_took_one(&b);
			/* as chan_recv.c: the grant is checked before the report */
			n = rdmachan_credits_grow_want(&b);
			if (n) {
				grown += n;
				rdmachan_credits_grow(&b, n);
			}
			if (due || n)
				back += rdmachan_credits_take_owed(&b);
		} else if (op < 85 && held) {
			held--;
			if (rdmachan_credits_owe_one(&b))
				back += rdmachan_credits_take_owed(&b);
		} else if (back) {
			KUNIT_ASSERT_EQ(test, rdmachan_credits_grant(&a, back), 0);
			back = 0;
		}
		KUNIT_ASSERT_EQ_MSG(test, a.avail + data + retires + held +
				    b.owed + back, b.granted,
				    "credit created or lost at step %u", step);
		KUNIT_ASSERT_LE(test, b.granted, depth);
		KUNIT_ASSERT_EQ(test, b.out, held + b.owed);
		if (!data && !retires && !held && !back)
			KUNIT_ASSERT_GT_MSG(test, a.avail, 0U,
					    "A stalled for good at step %u",
					    step);
	}
	/* from one credit it grows (from the depth, only once retired) */
	if (start < depth)
		KUNIT_EXPECT_GT(test, grown, 0U);
}

static void credit_test_grow_model(struct kunit *test)
{
	const u32 depth = *(const u32 *)test->param_value;

	credit_grow_model_run(test, depth, true, depth);
	credit_grow_model_run(test, depth, false, depth);
	credit_grow_model_run(test, depth, true, 1);
	credit_grow_model_run(test, depth, false, 1);
}

static struct kunit_case credit_cases[] = {
	KUNIT_CASE_PARAM(credit_test_init, depth_gen_params),
	KUNIT_CASE(credit_test_early_receives),
	KUNIT_CASE_PARAM(credit_test_spend, spend_gen_params),
	KUNIT_CASE_PARAM(credit_test_grant_bounds, depth_gen_params),
	KUNIT_CASE(credit_test_refund),
	KUNIT_CASE_PARAM(credit_test_owe_and_report, depth_gen_params),
	KUNIT_CASE_PARAM(credit_test_no_defer, depth_gen_params),
	KUNIT_CASE_PARAM(credit_test_piggyback_defers_report, depth_gen_params),
	KUNIT_CASE(credit_test_take_owed_clamped),
	KUNIT_CASE_PARAM(credit_test_model, depth_gen_params),
	KUNIT_CASE(credit_test_retire),
	KUNIT_CASE(credit_test_grow),
	KUNIT_CASE(credit_test_ask),
	KUNIT_CASE(credit_test_reader_holds),
	KUNIT_CASE(credit_test_ask_clock),
	KUNIT_CASE(credit_test_return_due),
	KUNIT_CASE(credit_test_imm_credit),
	KUNIT_CASE_PARAM(credit_test_grow_model, depth_gen_params),
	{}
};

static struct kunit_suite credit_suite = {
	.name = "rdmachan_credit",
	.test_cases = credit_cases,
};

kunit_test_suite(credit_suite);
