// SPDX-License-Identifier: GPL-2.0-only
/*
 * KUnit suite for module/chan/state.h: every transition of a channel's
 * life cycle, and what a send, a read and poll() see in each state.
 */
#include "../../module/chan/state.h"

#include <kunit/test.h>
#include <linux/string.h>

static const char *const state_name[] = {
	[RDMACHAN_CONNECTING]	= "CONNECTING",
	[RDMACHAN_CONNECTED]	= "CONNECTED",
	[RDMACHAN_DISCONNECTED]	= "DISCONNECTED",
	[RDMACHAN_FAILED]	= "FAILED",
};

static const char *const event_name[] = {
	[RDMACHAN_EV_ESTABLISHED]	= "established",
	[RDMACHAN_EV_CLOSED]		= "closed",
	[RDMACHAN_EV_FAILED]		= "failed",
};

#define NR_STATES	ARRAY_SIZE(state_name)
#define NR_EVENTS	ARRAY_SIZE(event_name)

/**
 * struct transition_case - one row of the state table
 * @from: the state
 * @ev: the event
 * @to: the state it must lead to
 */
struct transition_case {
	enum rdmachan_state from;
	enum rdmachan_event ev;
	enum rdmachan_state to;
};

/* The whole table: every state with every event. */
static const struct transition_case transition_cases[] = {
	{ RDMACHAN_CONNECTING, RDMACHAN_EV_ESTABLISHED, RDMACHAN_CONNECTED },
	{ RDMACHAN_CONNECTING, RDMACHAN_EV_CLOSED, RDMACHAN_DISCONNECTED },
	{ RDMACHAN_CONNECTING, RDMACHAN_EV_FAILED, RDMACHAN_FAILED },
	{ RDMACHAN_CONNECTED, RDMACHAN_EV_ESTABLISHED, RDMACHAN_CONNECTED },
	{ RDMACHAN_CONNECTED, RDMACHAN_EV_CLOSED, RDMACHAN_DISCONNECTED },
	{ RDMACHAN_CONNECTED, RDMACHAN_EV_FAILED, RDMACHAN_FAILED },
	{ RDMACHAN_DISCONNECTED, RDMACHAN_EV_ESTABLISHED, RDMACHAN_DISCONNECTED },
	{ RDMACHAN_DISCONNECTED, RDMACHAN_EV_CLOSED, RDMACHAN_DISCONNECTED },
	{ RDMACHAN_DISCONNECTED, RDMACHAN_EV_FAILED, RDMACHAN_FAILED },
	{ RDMACHAN_FAILED, RDMACHAN_EV_ESTABLISHED, RDMACHAN_FAILED },
	{ RDMACHAN_FAILED, RDMACHAN_EV_CLOSED, RDMACHAN_FAILED },
	{ RDMACHAN_FAILED, RDMACHAN_EV_FAILED, RDMACHAN_FAILED },
};

static void transition_desc(const struct transition_case *c, char *desc)
{
	snprintf(desc, KUNIT_PARAM_DESC_SIZE, "%s --%s--> %s",
		 state_name[c->from], event_name[c->ev], state_name[c->to]);
}

KUNIT_ARRAY_PARAM(transition, transition_cases, transition_desc);

static void state_test_transition(struct kunit *test)
{
	const struct transition_case *c = test->param_value;

	KUNIT_EXPECT_EQ(test, rdmachan_state_next(c->from, c->ev), c->to);
}

/* The table above is complete: each (state, event) pair exactly once. */
static void state_test_table_complete(struct kunit *test)
{
	unsigned int seen[NR_STATES][NR_EVENTS] = {};
	unsigned int i, s, e;

	for (i = 0; i < ARRAY_SIZE(transition_cases); i++)
		seen[transition_cases[i].from][transition_cases[i].ev]++;
	for (s = 0; s < NR_STATES; s++)
		for (e = 0; e < NR_EVENTS; e++)
			KUNIT_EXPECT_EQ_MSG(test, seen[s][e], 1U, "%s, %s",
					    state_name[s], event_name[e]);
}

/*
 * From every state, every sequence of events: a channel never goes back
 * to CONNECTING, never reaches CONNECTED again once it left it, and never
 * leaves FAILED.
 */
static void state_test_no_way_back(struct kunit *test)
{
	unsigned int s, seq, i;

	for (s = 0; s < NR_STATES; s++) {
		/* all sequences of 4 events: 3^4 */
		for (seq = 0; seq < 81; seq++) {
			enum rdmachan_state cur = s, next;
			bool left_connected = false;
			unsigned int code = seq;

			for (i = 0; i < 4; i++, code /= NR_EVENTS) {
				next = rdmachan_state_next(cur, code % NR_EVENTS);
				KUNIT_EXPECT_TRUE(test, next == cur ||
						  next != RDMACHAN_CONNECTING);
				if (cur == RDMACHAN_FAILED)
					KUNIT_EXPECT_EQ(test, next,
							RDMACHAN_FAILED);
				if (cur == RDMACHAN_CONNECTED &&
				    next != RDMACHAN_CONNECTED)
					left_connected = true;
				if (left_connected)
					KUNIT_EXPECT_NE(test, next,
							RDMACHAN_CONNECTED);
				if (cur != RDMACHAN_CONNECTING &&
				    next == RDMACHAN_CONNECTED)
					KUNIT_EXPECT_EQ(test, cur,
							RDMACHAN_CONNECTED);
				cur = next;
			}
		}
	}
}

/**
 * struct io_case - what I/O sees in one state
 * @state: the channel's state
 * @stopped: teardown has begun (io_stopped) or resources are gone
 *	(torn_down), as the function under test takes it
 * @err: the channel's error
 * @send: the expected rdmachan_state_send_err()
 * @read: the expected rdmachan_state_read_end()
 */
struct io_case {
	enum rdmachan_state state;
	bool stopped;
	int err;
	int send;
	int read;
};

static const struct io_case io_cases[] = {
	{ RDMACHAN_CONNECTING, false, 0, -ENOTCONN, -EAGAIN },
	{ RDMACHAN_CONNECTING, true, 0, -ENOTCONN, 0 },
	{ RDMACHAN_CONNECTED, false, 0, 0, -EAGAIN },
	{ RDMACHAN_CONNECTED, true, 0, -ECONNRESET, 0 },
	{ RDMACHAN_DISCONNECTED, false, 0, -ECONNRESET, 0 },
	{ RDMACHAN_DISCONNECTED, true, 0, -ECONNRESET, 0 },
	{ RDMACHAN_FAILED, false, -ENODEV, -ENODEV, -ENODEV },
	{ RDMACHAN_FAILED, true, -ENODEV, -ENODEV, -ENODEV },
	{ RDMACHAN_FAILED, false, -ETIMEDOUT, -ETIMEDOUT, -ETIMEDOUT },
	{ RDMACHAN_FAILED, false, -EPROTO, -EPROTO, -EPROTO },
	{ RDMACHAN_FAILED, false, 0, -ECONNRESET, -ECONNRESET },
};

static void io_case_desc(const struct io_case *c, char *desc)
{
	snprintf(desc, KUNIT_PARAM_DESC_SIZE, "%s%s, error %d",
		 state_name[c->state], c->stopped ? " (stopped)" : "", c->err);
}

KUNIT_ARRAY_PARAM(io, io_cases, io_case_desc);

static void state_test_io(struct kunit *test)
{
	const struct io_case *c = test->param_value;

	KUNIT_EXPECT_EQ(test,
			rdmachan_state_send_err(c->state, c->stopped, c->err),
			c->send);
	KUNIT_EXPECT_EQ(test,
			rdmachan_state_read_end(c->state, c->stopped, c->err),
			c->read);
}

/* __poll_t is a sparse bitwise type; KUnit compares plain integers */
static u32 poll_bits(__poll_t ev)
{
	return (__force u32)ev;
}

/* poll(): hang-up once the channel ended; an error only when it failed */
static void state_test_poll(struct kunit *test)
{
	KUNIT_EXPECT_EQ(test,
			poll_bits(rdmachan_state_poll_events(RDMACHAN_CONNECTING)),
			0U);
	KUNIT_EXPECT_EQ(test,
			poll_bits(rdmachan_state_poll_events(RDMACHAN_CONNECTED)),
			0U);
	KUNIT_EXPECT_EQ(test,
			poll_bits(rdmachan_state_poll_events(RDMACHAN_DISCONNECTED)),
			poll_bits(EPOLLRDHUP | EPOLLHUP));
	KUNIT_EXPECT_EQ(test,
			poll_bits(rdmachan_state_poll_events(RDMACHAN_FAILED)),
			poll_bits(EPOLLERR | EPOLLHUP));
}

/* A send may go ahead only in CONNECTED; a read may wait only before the end */
static void state_test_io_consistent(struct kunit *test)
{
	unsigned int s;

	for (s = 0; s < NR_STATES; s++) {
		int send = rdmachan_state_send_err(s, false, -EIO);
		int read = rdmachan_state_read_end(s, false, -EIO);
		__poll_t ev = rdmachan_state_poll_events(s);

		KUNIT_EXPECT_EQ_MSG(test, send == 0, s == RDMACHAN_CONNECTED,
				    "%s", state_name[s]);
		KUNIT_EXPECT_EQ_MSG(test, read == -EAGAIN, !(ev & EPOLLHUP),
				    "%s", state_name[s]);
		KUNIT_EXPECT_LE_MSG(test, send, 0, "%s", state_name[s]);
		KUNIT_EXPECT_LE_MSG(test, read, 0, "%s", state_name[s]);
	}
}

static struct kunit_case state_cases[] = {
	KUNIT_CASE_PARAM(state_test_transition, transition_gen_params),
	KUNIT_CASE(state_test_table_complete),
	KUNIT_CASE(state_test_no_way_back),
	KUNIT_CASE_PARAM(state_test_io, io_gen_params),
	KUNIT_CASE(state_test_poll),
	KUNIT_CASE(state_test_io_consistent),
	{}
};

static struct kunit_suite state_suite = {
	.name = "rdmachan_state",
	.test_cases = state_cases,
};

kunit_test_suite(state_suite);
