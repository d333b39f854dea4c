// SPDX-License-Identifier: GPL-2.0-only
/*
 * KUnit suite for module/chan/params.c: parsing and bounds of the module
 * parameters, as insmod and writes to /sys/module/rdmachan/parameters/
 * hand them over (with or without echo's newline).
 */
/* First: it defines pr_fmt before any header does. */
#include "../../module/chan/params.c"
#include "../../module/chan/proto.h"

#include <kunit/test.h>
#include <linux/gfp.h>
#include <linux/string.h>

/**
 * struct parse_case - one string given for a parameter
 * @name: what the case shows
 * @base: the parameter's base (8 or 10)
 * @min: its smallest value
 * @max: its largest value
 * @str: the string given
 * @ret: the expected return of rdmachan_uint_param_parse()
 * @val: the expected value when @ret is 0
 */
struct parse_case {
	const char *name;
	unsigned int base;
	unsigned int min;
	unsigned int max;
	const char *str;
	int ret;
	unsigned int val;
};

static const struct parse_case parse_cases[] = {
	/* bounds 2..16384 (queue_depth) */
	{ "min", 10, 2, 16384, "2", 0, 2 },
	{ "min - 1", 10, 2, 16384, "1", -EINVAL, 0 },
	{ "zero", 10, 2, 16384, "0", -EINVAL, 0 },
	{ "max", 10, 2, 16384, "16384", 0, 16384 },
	{ "max + 1", 10, 2, 16384, "16385", -EINVAL, 0 },
	{ "newline", 10, 2, 16384, "128\n", 0, 128 },
	{ "two newlines", 10, 2, 16384, "128\n\n", -EINVAL, 0 },
	{ "leading plus", 10, 2, 16384, "+128", 0, 128 },
	{ "leading zero is decimal", 10, 2, 16384, "010", 0, 10 },
	{ "empty", 10, 2, 16384, "", -EINVAL, 0 },
	{ "only newline", 10, 2, 16384, "\n", -EINVAL, 0 },
	{ "letters", 10, 2, 16384, "abc", -EINVAL, 0 },
	{ "trailing garbage", 10, 2, 16384, "128abc", -EINVAL, 0 },
	{ "leading space", 10, 2, 16384, " 128", -EINVAL, 0 },
	{ "trailing space", 10, 2, 16384, "128 ", -EINVAL, 0 },
	{ "negative", 10, 2, 16384, "-1", -EINVAL, 0 },
	{ "hex in base 10", 10, 2, 16384, "0x10", -EINVAL, 0 },
	{ "U32_MAX", 10, 2, 16384, "4294967295", -EINVAL, 0 },
	{ "U32_MAX + 1", 10, 2, 16384, "4294967296", -ERANGE, 0 },
	{ "11 digits", 10, 2, 16384, "99999999999", -ERANGE, 0 },
	{ "U64_MAX + 1", 10, 2, 16384, "18446744073709551616", -ERANGE, 0 },
	/* bounds 0..U32_MAX: the whole range */
	{ "0 of 0..U32_MAX", 10, 0, U32_MAX, "0", 0, 0 },
	{ "U32_MAX of 0..U32_MAX", 10, 0, U32_MAX, "4294967295", 0, U32_MAX },
	/* bounds 0..0777, octal (dev_mode) */
	{ "octal 0600", 8, 0, 0777, "0600", 0, 0600 },
	{ "octal without 0", 8, 0, 0777, "644", 0, 0644 },
	{ "octal 0", 8, 0, 0777, "0", 0, 0 },
	{ "octal max", 8, 0, 0777, "0777", 0, 0777 },
	{ "octal max + 1", 8, 0, 0777, "01000", -EINVAL, 0 },
	{ "octal digit 8", 8, 0, 0777, "0608", -EINVAL, 0 },
	{ "octal digit 9", 8, 0, 0777, "0999", -EINVAL, 0 },
	{ "octal newline", 8, 0, 0777, "0640\n", 0, 0640 },
};

static void parse_case_desc(const struct parse_case *c, char *desc)
{
	strscpy(desc, c->name, KUNIT_PARAM_DESC_SIZE);
}

KUNIT_ARRAY_PARAM(parse, parse_cases, parse_case_desc);

static void params_test_parse(struct kunit *test)
{
	const struct parse_case *c = test->param_value;
	struct rdmachan_uint_param p = {
		.val = 7, .min = c->min, .max = c->max, .base = c->base,
	};
	unsigned int out = 0xdeadbeef;

	KUNIT_EXPECT_EQ(test, rdmachan_uint_param_parse(&p, c->str, &out), c->ret);
	KUNIT_EXPECT_EQ(test, out, c->ret ? 0xdeadbeef : c->val);
	KUNIT_EXPECT_EQ(test, p.val, 7);
}

/* The set hook maps -ERANGE to -EINVAL and keeps the old value on error. */
static void params_test_set(struct kunit *test)
{
	struct rdmachan_uint_param p = {
		.val = 128, .min = 2, .max = 16384, .base = 10,
	};
	const struct kernel_param kp = { .name = "kunit_param", .arg = &p };

	KUNIT_EXPECT_EQ(test, rdmachan_uint_param_set("1", &kp), -EINVAL);
	KUNIT_EXPECT_EQ(test, p.val, 128);
	KUNIT_EXPECT_EQ(test, rdmachan_uint_param_set("99999999999", &kp), -EINVAL);
	KUNIT_EXPECT_EQ(test, p.val, 128);
	KUNIT_EXPECT_EQ(test, rdmachan_uint_param_set("abc\n", &kp), -EINVAL);
	KUNIT_EXPECT_EQ(test, p.val, 128);
	KUNIT_EXPECT_EQ(test, rdmachan_uint_param_set("256\n", &kp), 0);
	KUNIT_EXPECT_EQ(test, p.val, 256);
	KUNIT_EXPECT_EQ(test, rdmachan_uint_param_set("16384", &kp), 0);
	KUNIT_EXPECT_EQ(test, p.val, 16384);
}

/* The get hook prints octal parameters with a leading 0, others decimal. */
static void params_test_get(struct kunit *test)
{
	struct rdmachan_uint_param oct = {
		.val = 0600, .min = 0, .max = 0777, .base = 8,
	};
	struct rdmachan_uint_param dec = {
		.val = 65536, .min = 64, .max = 1 << 20, .base = 10,
	};
	struct kernel_param kp = { .name = "kunit_param" };
	char *page;

	/* sysfs_emit() wants a page-aligned buffer, as sysfs gives it. */
	page = (char *)__get_free_page(GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, page);

	kp.arg = &oct;
	KUNIT_EXPECT_EQ(test, rdmachan_uint_param_get(page, &kp), 5);
	KUNIT_EXPECT_STREQ(test, page, "0600\n");
	kp.arg = &dec;
	KUNIT_EXPECT_EQ(test, rdmachan_uint_param_get(page, &kp), 6);
	KUNIT_EXPECT_STREQ(test, page, "65536\n");

	free_page((unsigned long)page);
}

/* Every real parameter's default lies within its bounds, and reads back. */
static void params_test_defaults(struct kunit *test)
{
	const struct rdmachan_uint_param *all[] = {
		&dev_mode, &queue_depth, &max_msg_size, &connect_timeout_ms,
		&keepalive_ms, &imm_header, &ack_timeout,
	};
	int i;

	for (i = 0; i < ARRAY_SIZE(all); i++) {
		KUNIT_EXPECT_LE_MSG(test, all[i]->min, all[i]->val, "parameter %d", i);
		KUNIT_EXPECT_LE_MSG(test, all[i]->val, all[i]->max, "parameter %d", i);
		KUNIT_EXPECT_LE_MSG(test, all[i]->min, all[i]->max, "parameter %d", i);
		KUNIT_EXPECT_TRUE_MSG(test, all[i]->base == 8 || all[i]->base == 10,
				      "parameter %d", i);
	}
	KUNIT_EXPECT_EQ(test, rdmachan_param_dev_mode(), dev_mode.val);
	KUNIT_EXPECT_EQ(test, rdmachan_param_queue_depth(), queue_depth.val);
	KUNIT_EXPECT_EQ(test, rdmachan_param_max_msg_size(), max_msg_size.val);
	KUNIT_EXPECT_EQ(test, rdmachan_param_connect_timeout_ms(),
			connect_timeout_ms.val);
	KUNIT_EXPECT_EQ(test, rdmachan_param_keepalive_ms(), keepalive_ms.val);
	KUNIT_EXPECT_EQ(test, rdmachan_param_imm_header(), !!imm_header.val);
	KUNIT_EXPECT_EQ(test, rdmachan_param_ack_timeout(), ack_timeout.val);
	/* rdma_cm's own for RoCE (CMA_IBOE_PACKET_LIFETIME + 1) */
	KUNIT_EXPECT_EQ(test, ack_timeout.val, 19U);
	/* A channel's queue depth must be negotiable on the wire. */
	KUNIT_EXPECT_LE(test, queue_depth.max, RDMACHAN_MAX_DEPTH);
}

static struct kunit_case params_cases[] = {
	KUNIT_CASE_PARAM(params_test_parse, parse_gen_params),
	KUNIT_CASE(params_test_set),
	KUNIT_CASE(params_test_get),
	KUNIT_CASE(params_test_defaults),
	{}
};

static struct kunit_suite params_suite = {
	.name = "rdmachan_params",
	.test_cases = params_cases,
};

kunit_test_suite(params_suite);
