// SPDX-License-Identifier: GPL-2.0-only
/*
 * test_unit.c: host-side unit tests of the rdmachan tool's argument
 * parsing (util.c) and output formatting (util.c, json.c); TAP output.
 */
#include <arpa/inet.h>
#include <errno.h>
#include <netinet/in.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tool.h"

static int test_num, failed;

static void ok(int cond, const char *fmt, ...)
{
	va_list ap;

	printf("%sok %d - ", cond ? "" : "not ", ++test_num);
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	printf("\n");
	if (!cond)
		failed++;
}

static void test_parse_uint(void)
{
	uint64_t v = 0;

	ok(!parse_uint("42", 0, 100, &v) && v == 42, "parse_uint 42");
	ok(!parse_uint("0x10", 0, 100, &v) && v == 16, "parse_uint hex 0x10");
	ok(parse_uint("101", 0, 100, &v) == -ERANGE, "parse_uint above max is ERANGE");
	ok(parse_uint("0", 1, 100, &v) == -ERANGE, "parse_uint below min is ERANGE");
	ok(parse_uint("-1", 0, 100, &v) == -EINVAL, "parse_uint rejects a sign");
	ok(parse_uint("", 0, 100, &v) == -EINVAL, "parse_uint rejects empty");
	ok(parse_uint("12x", 0, 100, &v) == -EINVAL, "parse_uint rejects trailing junk");
	ok(parse_uint(" 1", 0, 100, &v) == -EINVAL, "parse_uint rejects leading space");
	ok(parse_uint("99999999999999999999999", 0, UINT64_MAX, &v) == -ERANGE,
	   "parse_uint overflow is ERANGE");
}

static void test_parse_size(void)
{
	uint64_t v = 0;

	ok(!parse_size("4096", 0, UINT64_MAX, &v) && v == 4096, "parse_size plain");
	ok(!parse_size("4k", 0, UINT64_MAX, &v) && v == 4096, "parse_size 4k");
	ok(!parse_size("1M", 0, UINT64_MAX, &v) && v == 1048576, "parse_size 1M");
	ok(!parse_size("2KiB", 0, UINT64_MAX, &v) && v == 2048, "parse_size 2KiB");
	ok(!parse_size("1g", 0, UINT64_MAX, &v) && v == 1ULL << 30, "parse_size 1g");
	ok(parse_size("1t", 0, UINT64_MAX, &v) == -EINVAL, "parse_size rejects t");
	ok(parse_size("k", 0, UINT64_MAX, &v) == -EINVAL, "parse_size rejects bare suffix");
	ok(parse_size("2M", 0, 1048576, &v) == -ERANGE, "parse_size above max");
	ok(parse_size("17179869184G", 0, UINT64_MAX, &v) == -ERANGE,
	   "parse_size shift overflow is ERANGE");
}

static void test_parse_duration(void)
{
	uint64_t v = 0;

	ok(!parse_duration_ms("5", &v) && v == 5000, "duration 5 = 5 s");
	ok(!parse_duration_ms("2s", &v) && v == 2000, "duration 2s");
	ok(!parse_duration_ms("250ms", &v) && v == 250, "duration 250ms");
	ok(!parse_duration_ms("0", &v) && v == 0, "duration 0");
	ok(!parse_duration_ms("3m", &v) && v == 180000, "duration 3m");
	ok(parse_duration_ms("1h", &v) == -EINVAL, "duration rejects h");
	ok(parse_duration_ms("1441m", &v) == -ERANGE, "duration over a day");
}

static void test_parse_addr(void)
{
	struct sockaddr_storage ss;
	struct sockaddr_in *sin = (struct sockaddr_in *)&ss;
	struct sockaddr_in6 *sin6 = (struct sockaddr_in6 *)&ss;
	char buf[64];

	ok(!parse_addr("192.0.2.1", 7470, &ss) && ss.ss_family == AF_INET &&
	   ntohs(sin->sin_port) == 7470 && sin->sin_addr.s_addr == htonl(0xc0000201),
	   "IPv4 without port takes the default");
	ok(!parse_addr("192.0.2.1:9000", 7470, &ss) && ntohs(sin->sin_port) == 9000,
	   "IPv4:PORT");
	ok(parse_addr("192.0.2.1:0", 7470, &ss) == -EINVAL, "port 0 is refused");
	ok(parse_addr("192.0.2.1:65536", 7470, &ss) == -EINVAL, "port 65536 is refused");
	ok(parse_addr("192.0.2.1:", 7470, &ss) == -EINVAL, "empty port is refused");
	ok(parse_addr("192.0.2.300", 7470, &ss) == -EINVAL, "bad IPv4 octet");
	ok(parse_addr("host.example", 7470, &ss) == -EINVAL, "names are not resolved");
	ok(!parse_addr("fe80::1", 7470, &ss) && ss.ss_family == AF_INET6 &&
	   ntohs(sin6->sin6_port) == 7470, "bare IPv6");
	ok(!parse_addr("[2001:db8::2]:8000", 7470, &ss) && ss.ss_family == AF_INET6 &&
	   ntohs(sin6->sin6_port) == 8000, "[IPv6]:PORT");
	ok(parse_addr("[2001:db8::2", 7470, &ss) == -EINVAL, "unclosed bracket");
	ok(parse_addr("[2001:db8::2]x", 7470, &ss) == -EINVAL, "junk after bracket");
	ok(parse_addr("", 7470, &ss) == -EINVAL, "empty address");

	parse_addr("192.0.2.1:9000", 7470, &ss);
	format_addr(&ss, buf, sizeof(buf));
	ok(!strcmp(buf, "192.0.2.1:9000"), "format IPv4: %s", buf);
	parse_addr("[2001:db8::2]:8000", 7470, &ss);
	format_addr(&ss, buf, sizeof(buf));
	ok(!strcmp(buf, "[2001:db8::2]:8000"), "format IPv6: %s", buf);
	memset(&ss, 0, sizeof(ss));
	format_addr(&ss, buf, sizeof(buf));
	ok(!strcmp(buf, "-"), "format AF_UNSPEC");
}

static void test_format(void)
{
	uint8_t gid[16] = { 0xfe, 0x80, 0, 0, 0, 0, 0, 0,
			    0x50, 0x54, 0x00, 0xff, 0xfe, 0x12, 0x34, 0x56 };
	char buf[64];

	format_guid(0x505400fffe123456ULL, buf, sizeof(buf));
	ok(!strcmp(buf, "5054:00ff:fe12:3456"), "guid as ibv_devinfo: %s", buf);
	format_gid(gid, buf, sizeof(buf));
	ok(!strcmp(buf, "fe80:0000:0000:0000:5054:00ff:fe12:3456"), "gid: %s", buf);
	ok(!strcmp(port_state_name(4), "ACTIVE"), "port state 4 is ACTIVE");
	ok(!strcmp(port_state_name(99), "unknown"), "port state 99 is unknown");
	ok(!strcmp(phys_state_name(5), "LINK_UP"), "phys state 5 is LINK_UP");
	ok(!strcmp(phys_state_name(0), "unknown"), "phys state 0 is unknown");
	ok(!strcmp(atomic_cap_name(1), "hca"), "atomic cap 1 is hca");
	ok(!strcmp(link_layer_name(2), "Ethernet"), "link layer 2 is Ethernet");
	ok(!strcmp(protocol_name(2), "roce"), "protocol 2 is roce");
	ok(!strcmp(node_type_name(4), "rnic"), "node type 4 is rnic");
	ok(!strcmp(chan_state_name(1), "connected"), "chan state 1 is connected");
	ok(parse_poll_mode("direct") == 2 && parse_poll_mode("bogus") == -1,
	   "poll mode names");
	ok(speed_gbps(1) == 2.5 && width_lanes(2) == 4 && !width_lanes(3),
	   "speed and width codes");
}

static void test_percentile(void)
{
	double v[100];
	int i;

	for (i = 0; i < 100; i++)
		v[i] = i + 1;
	ok(percentile(v, 100, 50) == 50, "p50 of 1..100 is 50");
	ok(percentile(v, 100, 99) == 99, "p99 of 1..100 is 99");
	ok(percentile(v, 100, 100) == 100, "p100 is the max");
	ok(percentile(v, 1, 99) == 1, "percentile of one value");
	ok(percentile(v, 0, 50) == 0, "percentile of none is 0");
}

/* render: run @fn with a JSON writer on a memory stream, return its text. */
static char *render(void (*fn)(struct json *), bool pretty)
{
	static char buf[1024];
	FILE *f = fmemopen(buf, sizeof(buf), "w");
	struct json j;

	json_init(&j, f, pretty);
	fn(&j);
	fclose(f);
	return buf;
}

static void doc1(struct json *j)
{
	json_arr_open(j);
	json_obj_open(j);
	json_kv_str(j, "name", "rxe0");
	json_kv_u64(j, "n", 18446744073709551615ULL);
	json_kv_s64(j, "e", -5);
	json_kv_bool(j, "ok", true);
	json_key(j, "ports");
	json_arr_open(j);
	json_arr_close(j);
	json_key(j, "none");
	json_null(j);
	json_obj_close(j);
	json_obj_open(j);
	json_obj_close(j);
	json_arr_close(j);
	json_end(j);
}

static void doc2(struct json *j)
{
	json_obj_open(j);
	json_kv_str(j, "s", "a\"b\\c\n\t\x01");
	json_kv_double(j, "d", 1.5);
	json_kv_double(j, "inf", 1.0 / 0.0);
	json_obj_close(j);
	json_end(j);
}

static void doc3(struct json *j)
{
	json_obj_open(j);
	json_kv_u64(j, "a", 1);
	json_key(j, "b");
	json_arr_open(j);
	json_u64(j, 2);
	json_u64(j, 3);
	json_arr_close(j);
	json_obj_close(j);
	json_end(j);
}

static void test_json(void)
{
	char *s;

	s = render(doc1, false);
	ok(!strcmp(s, "[{\"name\":\"rxe0\",\"n\":18446744073709551615,\"e\":-5,"
		   "\"ok\":true,\"ports\":[],\"none\":null},{}]\n"),
	   "compact JSON");
	s = render(doc2, false);
	ok(!strcmp(s, "{\"s\":\"a\\\"b\\\\c\\n\\t\\u0001\",\"d\":1.5,\"inf\":null}\n"),
	   "JSON escapes and doubles");
	s = render(doc3, true);
	ok(!strcmp(s, "{\n  \"a\": 1,\n  \"b\": [\n    2,\n    3\n  ]\n}\n"),
	   "pretty JSON indents");
}

int main(void)
{
	test_parse_uint();
	test_parse_size();
	test_parse_duration();
	test_parse_addr();
	test_format();
	test_percentile();
	test_json();
	printf("1..%d\n", test_num);
	return failed ? 1 : 0;
}
