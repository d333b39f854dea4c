// SPDX-License-Identifier: GPL-2.0-only
/*
 * KUnit suite for module/chan/uevent.h: the cutting of an event's text
 * into the variables kobject_uevent_env() takes: single and repeated
 * spaces, a text cut short in the middle of a variable, runs without '='
 * or starting with one (dropped), and more variables than room.
 */
#include "../../module/chan/uevent.h"

#include <kunit/test.h>
#include <linux/string.h>

static void uevent_test_split(struct kunit *test)
{
	char buf[] = "RDMACHAN_OBJ=chan RDMACHAN_STATE=failed  RDMACHAN_ERROR=-103";
	char *envp[RDMACHAN_UEV_VARS + 1];

	KUNIT_ASSERT_EQ(test, rdmachan_uev_split(buf, envp, RDMACHAN_UEV_VARS),
			3U);
	KUNIT_EXPECT_STREQ(test, envp[0], "RDMACHAN_OBJ=chan");
	KUNIT_EXPECT_STREQ(test, envp[1], "RDMACHAN_STATE=failed");
	KUNIT_EXPECT_STREQ(test, envp[2], "RDMACHAN_ERROR=-103");
	KUNIT_EXPECT_NULL(test, envp[3]);
}

static void uevent_test_edges(struct kunit *test)
{
	char lead[] = "  A=1 junk =x B= C=3 ";
	char cut[] = "A=1 RDMACH";
	char empty[] = "   ";
	char *envp[RDMACHAN_UEV_VARS + 1];

	/* "junk" has no '=', "=x" no key: dropped; "B=" is an empty value */
	KUNIT_ASSERT_EQ(test, rdmachan_uev_split(lead, envp, RDMACHAN_UEV_VARS),
			3U);
	KUNIT_EXPECT_STREQ(test, envp[0], "A=1");
	KUNIT_EXPECT_STREQ(test, envp[1], "B=");
	KUNIT_EXPECT_STREQ(test, envp[2], "C=3");
	/* what vsnprintf() cut short leaves a piece without '=' */
	KUNIT_EXPECT_EQ(test, rdmachan_uev_split(cut, envp, RDMACHAN_UEV_VARS),
			1U);
	KUNIT_EXPECT_STREQ(test, envp[0], "A=1");
	KUNIT_EXPECT_EQ(test, rdmachan_uev_split(empty, envp, RDMACHAN_UEV_VARS),
			0U);
	KUNIT_EXPECT_NULL(test, envp[0]);
}

static void uevent_test_room(struct kunit *test)
{
	char buf[] = "A=1 B=2 C=3 D=4";
	char *envp[3];

	KUNIT_ASSERT_EQ(test, rdmachan_uev_split(buf, envp, 2), 2U);
	KUNIT_EXPECT_STREQ(test, envp[0], "A=1");
	KUNIT_EXPECT_STREQ(test, envp[1], "B=2");
	KUNIT_EXPECT_NULL(test, envp[2]);
}

static struct kunit_case uevent_cases[] = {
	KUNIT_CASE(uevent_test_split),
	KUNIT_CASE(uevent_test_edges),
	KUNIT_CASE(uevent_test_room),
	{}
};

static struct kunit_suite uevent_suite = {
	.name = "rdmachan_uevent",
	.test_cases = uevent_cases,
};

kunit_test_suite(uevent_suite);
