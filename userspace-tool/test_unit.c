// SPDX-License-Identifier: GPL-2.0-only
/*
 * test_unit.c: host-side unit tests of the rdmachan tool's grammar
 * (cmd.c, rdmachan.c: prefixes, ambiguity, a missing command, unknown
 * objects and commands), argument parsing (util.c, rdma_util.c),
 * and formatting (util.c, rdma_util.c); TAP output, with main().  The
 * output path's tests are test_out.c's, the blk and net objects'
 * test_blk_net.c's, the config object's test_config.c's, the dgram
 * object's test_dgram.c's.
 */
#include <arpa/inet.h>
#include <errno.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "blk.h"
#include "net.h"
#include "rdma.h"
#include "test_unit.h"
#include "tool.h"

static int test_num, failed;

void ok(int cond, const char *fmt, ...)
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
	ok(parse_addr("192.0.2.1:0", 7470, &ss) == -EINVAL,
	   "port 0 is refused to connect to");
	ok(!parse_listen_addr("192.0.2.1:0", 7470, &ss) && ss.ss_family == AF_INET &&
	   sin->sin_port == 0, "port 0 to listen on: any free port");
	ok(!parse_listen_addr("[2001:db8::2]:0", 7470, &ss) &&
	   ss.ss_family == AF_INET6 && sin6->sin6_port == 0,
	   "[IPv6]:0 to listen on");
	ok(!parse_listen_addr("192.0.2.1", 7470, &ss) && ntohs(sin->sin_port) == 7470,
	   "a listen address without port takes the default");
	ok(parse_listen_addr("192.0.2.1:65536", 7470, &ss) == -EINVAL,
	   "port 65536 is refused to listen on");
	ok(parse_listen_addr("192.0.2.1:", 7470, &ss) == -EINVAL,
	   "empty port is refused to listen on");
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

static void test_mr_desc(void)
{
	struct rdmachan_remote_mr mr = {
		.addr = 0x7f0012345678ULL, .length = 1048576, .rkey = 0xabcd1234,
	}, out;
	const char *bad[] = {
		"",
		"rdmachan-mr",
		"rdmachan-mr addr=0x10 length=4",
		"rdmachan-mr addr=0x10 length=4 rkey=0x1 ",
		"rdmachan-mr addr=0x10 length=4 rkey=0x1 extra",
		"rdmachan-mr addr=0x10  length=4 rkey=0x1",
		"rdmachan-mr addr=10 length=4 rkey=0x1",
		"rdmachan-mr addr=0x length=4 rkey=0x1",
		"rdmachan-mr addr=0x0x10 length=4 rkey=0x1",
		"rdmachan-mr addr=0x10 length=-4 rkey=0x1",
		"rdmachan-mr addr=0x10 length=0x4 rkey=0x1",
		"rdmachan-mr addr=0x10 length=4 rkey=0xg",
		"rdmachan-mr length=4 addr=0x10 rkey=0x1",
		"rdmachan-mr error EINVAL",
		"RDMACHAN-MR addr=0x10 length=4 rkey=0x1",
	};
	char buf[MR_DESC_MAX];
	const char *s;
	unsigned int i;
	int n;

	n = mr_desc_format(&mr, buf, sizeof(buf));
	ok(n > 0 && !strcmp(buf, "rdmachan-mr addr=0x7f0012345678 length=1048576 rkey=0xabcd1234"),
	   "descriptor format: %s", buf);
	memset(&out, 0xff, sizeof(out));
	ok(!mr_desc_parse(buf, n, &out) && out.addr == mr.addr &&
	   out.length == mr.length && out.rkey == mr.rkey && !out.reserved,
	   "descriptor round trip");
	mr = (struct rdmachan_remote_mr){ .addr = UINT64_MAX, .length = UINT64_MAX,
					  .rkey = UINT32_MAX };
	n = mr_desc_format(&mr, buf, sizeof(buf));
	ok(n > 0 && !mr_desc_parse(buf, n, &out) && out.addr == UINT64_MAX &&
	   out.length == UINT64_MAX && out.rkey == UINT32_MAX,
	   "descriptor round trip at the limits");
	ok(mr_desc_format(&mr, buf, 20) == -ENOSPC, "descriptor format: too small");
	s = "rdmachan-mr addr=0xABC length=7 rkey=0x0 and more";
	ok(!mr_desc_parse(s, strlen("rdmachan-mr addr=0xABC length=7 rkey=0x0"), &out) &&
	   out.addr == 0xabc && out.length == 7 && out.rkey == 0,
	   "descriptor parse takes the message length, upper-case hex");
	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++)
		ok(mr_desc_parse(bad[i], strlen(bad[i]), &out) == -EINVAL,
		   "descriptor parse rejects \"%s\"", bad[i]);
	s = "rdmachan-mr addr=0x10 length=4 rkey=0x100000000";
	ok(mr_desc_parse(s, strlen(s), &out) == -ERANGE, "descriptor rkey above 32 bits");
	s = "rdmachan-mr addr=0x10000000000000000 length=4 rkey=0x1";
	ok(mr_desc_parse(s, strlen(s), &out) == -ERANGE, "descriptor addr above 64 bits");
	s = "rdmachan-mr addr=0x10 length=18446744073709551616 rkey=0x1";
	ok(mr_desc_parse(s, strlen(s), &out) == -ERANGE, "descriptor length above 64 bits");
	ok(mr_desc_parse("rdmachan-mr addr=0x1\0 length=4 rkey=0x1", 39, &out) == -EINVAL,
	   "descriptor with a NUL inside");
	memset(buf, 'a', sizeof(buf));
	ok(mr_desc_parse(buf, sizeof(buf), &out) == -EINVAL, "descriptor too long");
}

static void test_mr_req(void)
{
	struct mr_req r;

	mr_req_parse("dereg", 5, &r);
	ok(r.type == MR_REQ_DEREG, "request dereg");
	mr_req_parse("dereg\n", 6, &r);
	ok(r.type == MR_REQ_DEREG, "request dereg with a newline");
	mr_req_parse("sum", 3, &r);
	ok(r.type == MR_REQ_SUM, "request sum");
	mr_req_parse("summary", 3, &r);
	ok(r.type == MR_REQ_SUM, "request: the message length counts");
	mr_req_parse("peek 16 8", 9, &r);
	ok(r.type == MR_REQ_PEEK && r.off == 16 && r.len == 8, "request peek 16 8");
	mr_req_parse("peek 0x1000 4096", 16, &r);
	ok(r.type == MR_REQ_PEEK && r.off == 4096 && r.len == 4096, "request peek in hex");
	mr_req_parse("peek 16", 7, &r);
	ok(r.type == MR_REQ_UNKNOWN, "request peek without a length");
	mr_req_parse("peek 1 2 3", 10, &r);
	ok(r.type == MR_REQ_UNKNOWN, "request peek with junk");
	mr_req_parse("peek -1 2", 9, &r);
	ok(r.type == MR_REQ_UNKNOWN, "request peek negative");
	mr_req_parse("sums", 4, &r);
	ok(r.type == MR_REQ_UNKNOWN, "request sums is unknown");
	mr_req_parse("", 0, &r);
	ok(r.type == MR_REQ_UNKNOWN, "empty request is unknown");
}

static void test_access(void)
{
	uint32_t a = 0;
	char buf[80];

	ok(!parse_access_list("all", &a) && a == RDMACHAN_ACCESS_ALL, "access all");
	ok(!parse_access_list("local-write,remote-write", &a) &&
	   a == (RDMACHAN_ACCESS_LOCAL_WRITE | RDMACHAN_ACCESS_REMOTE_WRITE),
	   "access local-write,remote-write");
	ok(!parse_access_list("remote-read", &a) && a == RDMACHAN_ACCESS_REMOTE_READ,
	   "access remote-read");
	ok(!parse_access_list("remote-atomic,local-write", &a) &&
	   a == (RDMACHAN_ACCESS_REMOTE_ATOMIC | RDMACHAN_ACCESS_LOCAL_WRITE),
	   "access remote-atomic,local-write");
	ok(!parse_access_list("none", &a) && a == 0, "access none");
	a = 99;
	ok(parse_access_list("", &a) == -EINVAL && a == 99, "access: empty list");
	ok(parse_access_list("local-write,,remote-read", &a) == -EINVAL,
	   "access: empty item");
	ok(parse_access_list("local-write,", &a) == -EINVAL, "access: trailing comma");
	ok(parse_access_list("remote", &a) == -EINVAL, "access: a prefix is no name");
	ok(parse_access_list("remote-writes", &a) == -EINVAL, "access: unknown name");
	format_access(RDMACHAN_ACCESS_ALL, buf, sizeof(buf));
	ok(!strcmp(buf, "local-write,remote-write,remote-read,remote-atomic"),
	   "format access all: %s", buf);
	format_access(RDMACHAN_ACCESS_REMOTE_READ, buf, sizeof(buf));
	ok(!strcmp(buf, "remote-read"), "format access remote-read");
	format_access(0, buf, sizeof(buf));
	ok(!strcmp(buf, "none"), "format access none");
}

static void test_names(void)
{
	static const char *const wc[] = {
		"SUCCESS", "LOC_LEN_ERR", "LOC_QP_OP_ERR", "LOC_EEC_OP_ERR",
		"LOC_PROT_ERR", "WR_FLUSH_ERR", "MW_BIND_ERR", "BAD_RESP_ERR",
		"LOC_ACCESS_ERR", "REM_INV_REQ_ERR", "REM_ACCESS_ERR", "REM_OP_ERR",
		"RETRY_EXC_ERR", "RNR_RETRY_EXC_ERR", "LOC_RDD_VIOL_ERR",
		"REM_INV_RD_REQ_ERR", "REM_ABORT_ERR", "INV_EECN_ERR",
		"INV_EEC_STATE_ERR", "FATAL_ERR", "RESP_TIMEOUT_ERR", "GENERAL_ERR",
	};
	unsigned int i, good = 0;

	for (i = 0; i < 22; i++)
		good += !strcmp(wc_status_name(i), wc[i]);
	ok(good == 22, "wc_status names 0..21 in order");
	ok(!strcmp(wc_status_name(10), "REM_ACCESS_ERR"), "wc_status 10 is REM_ACCESS_ERR");
	ok(!strcmp(wc_status_name(22), "unknown") &&
	   !strcmp(wc_status_name(UINT32_MAX), "unknown"), "wc_status 22 is unknown");
	ok(!strcmp(errno_name(EACCES), "EACCES") && !strcmp(errno_name(-EACCES), "EACCES"),
	   "errno name EACCES, either sign");
	ok(!strcmp(errno_name(-EOPNOTSUPP), "EOPNOTSUPP"), "errno name EOPNOTSUPP");
	ok(!strcmp(errno_name(ECANCELED), "ECANCELED"), "errno name ECANCELED");
	ok(errno_name(0) == NULL, "errno name of 0 is NULL");
	ok(!strcmp(errno_name(9999), "unknown"), "errno name 9999 is unknown");
}

static void test_fnv(void)
{
	unsigned char zero[4096] = { 0 };
	unsigned char le[8] = { 0x2a, 0, 0, 0, 0, 0, 0, 0x80 };
	char hex[20];

	ok(fnv1a64(FNV64_INIT, "", 0) == 0xcbf29ce484222325ULL, "fnv1a64 of nothing");
	ok(fnv1a64(FNV64_INIT, "a", 1) == 0xaf63dc4c8601ec8cULL, "fnv1a64 of \"a\"");
	ok(fnv1a64(FNV64_INIT, "foobar", 6) == 0x85944171f73967e8ULL, "fnv1a64 of \"foobar\"");
	ok(fnv1a64(fnv1a64(FNV64_INIT, "foo", 3), "bar", 3) == 0x85944171f73967e8ULL,
	   "fnv1a64 in two steps");
	ok(fnv1a64(FNV64_INIT, zero, sizeof(zero)) == 0xb93a0c83ce3b6325ULL,
	   "fnv1a64 of 4096 zeros");
	ok(le64_load(le) == 0x800000000000002aULL, "le64_load");
	format_hex(le, 3, hex, sizeof(hex));
	ok(!strcmp(hex, "2a0000"), "format_hex");
	format_hex(le, 8, hex, 7);
	ok(!strcmp(hex, "2a0000"), "format_hex truncates to whole bytes");
}

static void test_sge_split(void)
{
	struct rdmachan_sge sge[RDMACHAN_MAX_SGE];
	unsigned char data[10], buf[256], back[10];
	unsigned int i;
	int64_t span;

	span = sge_split(10, 3, 0, 64, sge);
	ok(span == 138 && sge[0].length == 4 && sge[1].length == 3 && sge[2].length == 3 &&
	   sge[0].offset == 0 && sge[1].offset == 68 && sge[2].offset == 135,
	   "sge_split 10 bytes in 3 with gaps of 64");
	span = sge_split(10, 1, 64, 64, sge);
	ok(span == 74 && sge[0].length == 10 && sge[0].offset == 64, "sge_split in 1, from 64");
	span = sge_split(16, 16, 0, 0, sge);
	ok(span == 16 && sge[15].length == 1 && sge[15].offset == 15, "sge_split 16 in 16, no gaps");
	ok(sge_split(10, 0, 0, 64, sge) == -EINVAL, "sge_split in 0");
	ok(sge_split(3, 4, 0, 64, sge) == -EINVAL, "sge_split more segments than bytes");
	ok(sge_split(100, RDMACHAN_MAX_SGE + 1, 0, 64, sge) == -EINVAL,
	   "sge_split more than RDMACHAN_MAX_SGE");
	ok(sge_split(1ULL << 33, 1, 0, 0, sge) == -EINVAL, "sge_split: a segment above 4 GiB");
	for (i = 0; i < sizeof(data); i++)
		data[i] = i + 1;
	memset(buf, SGE_POISON, sizeof(buf));
	span = sge_split(sizeof(data), 3, 0, 64, sge);
	sge_pack(buf, data, sge, 3);
	ok(buf[0] == 1 && buf[3] == 4 && buf[4] == SGE_POISON && buf[68] == 5 &&
	   buf[71] == SGE_POISON && buf[135] == 8 && buf[137] == 10 && buf[138] == SGE_POISON,
	   "sge_pack lays the data out with gaps");
	memset(back, 0, sizeof(back));
	sge_unpack(back, buf, sge, 3);
	ok(!memcmp(back, data, sizeof(data)), "sge_unpack gathers it back");
}

static void test_results_fix(void)
{
	struct rdmachan_rdma_op ops[3];
	unsigned int done;

	/* refused as a whole: no status set by the kernel */
	memset(ops, 0, sizeof(ops));
	done = rdma_results_fix(ops, 3, 0, EINVAL);
	ok(done == 0 && ops[0].status == -EINVAL && ops[2].status == -EINVAL &&
	   ops[1].wc_status == RDMA_WC_NONE, "results: a refused call fails every op");

	/* op 1 refused when checked: op 0 was never posted either */
	memset(ops, 0, sizeof(ops));
	ops[1].status = -EINVAL;
	done = rdma_results_fix(ops, 3, 1, EINVAL);
	ok(done == 0, "results: a refused op means none was done");
	ok(ops[0].status == -ECANCELED && ops[0].wc_status == RDMA_WC_NONE,
	   "results: an op checked before the refused one did not run");
	ok(ops[1].status == -EINVAL && ops[1].wc_status == RDMA_WC_NONE &&
	   ops[2].status == -ECANCELED, "results: the refused op keeps its errno");
	ok(rdma_failed_op(ops, 3, done) == 1, "results: the refused op is the one reported");

	/* op 1 failed remotely: op 0 done, op 2 flushed */
	memset(ops, 0, sizeof(ops));
	ops[1].status = -EACCES;
	ops[1].wc_status = 10;		/* REM_ACCESS_ERR */
	ops[2].status = -ECANCELED;
	ops[2].wc_status = 5;		/* WR_FLUSH_ERR */
	done = rdma_results_fix(ops, 3, 1, EACCES);
	ok(done == 1 && ops[0].status == 0 && ops[1].wc_status == 10 &&
	   ops[2].wc_status == 5, "results: a remote failure keeps what completed");
	ok(rdma_failed_op(ops, 3, done) == 1, "results: the failed op, not the flushed one");

	/* a done count past the ops is not believed */
	memset(ops, 0, sizeof(ops));
	ops[0].status = -ECONNRESET;
	ops[0].wc_status = 5;
	ok(rdma_results_fix(ops, 1, 7, ECONNRESET) == 0, "results: done is at most the ops");
}

static void test_parse_offset(void)
{
	uint64_t v = 0;

	ok(!parse_offset("4k", &v) && v == 4096, "offset 4k");
	ok(!parse_offset("0x10", &v) && v == 16, "offset 0x10");
	ok(!parse_offset("12", &v) && v == 12, "offset 12");
	ok(parse_offset("x", &v) == -EINVAL && parse_offset("-8", &v) == -EINVAL,
	   "offset rejects junk");
}

/* ---- the grammar (cmd.c, rdmachan.c) ---------------------------------- */

static int called;		/* which fake command ran, and its argc */
static int called_argc;
static const char *called_word;	/* its argv[-1] */

#define FAKE(n) static int fake_##n(int argc, char **argv) \
	{ called = n; called_argc = argc; called_word = argv[-1]; return 40 + n; }
FAKE(1) FAKE(2) FAKE(3) FAKE(4) FAKE(5)

static const struct cmd fake_cmds[] = {
	{ "show", fake_1 }, { "send", fake_2 }, { "read", fake_3 },
	{ "readv", fake_4 }, { "help", fake_5 }, CMD_END
};

static const struct cmd fake_noshow[] = { { "reg", fake_1 }, CMD_END };

/* quiet: run @fn with stdout and stderr on /dev/null (usage, errors) */
static int saved_out = -1, saved_err = -1;

static void quiet(bool on)
{
	fflush(stdout);
	fflush(stderr);
	if (on) {
		int null = open("/dev/null", O_WRONLY);

		saved_out = dup(1);
		saved_err = dup(2);
		dup2(null, 1);
		dup2(null, 2);
		close(null);
	} else {
		dup2(saved_out, 1);
		dup2(saved_err, 2);
		close(saved_out);
		close(saved_err);
	}
}

static int run_cmd(const struct cmd *cmds, int argc, ...)
{
	char *argv[8] = { "obj" };
	va_list ap;
	int i, r;

	va_start(ap, argc);
	for (i = 0; i < argc; i++)
		argv[i + 1] = va_arg(ap, char *);
	va_end(ap);
	called = 0;
	quiet(true);
	r = cmd_run("obj", cmds, argc, argv + 1);
	quiet(false);
	return r;
}

/* the whole tool on "rdmachan ARGS...": its exit status */
int run_tool(int argc, ...)
{
	char *argv[10] = { "rdmachan" };
	va_list ap;
	int i, r;

	va_start(ap, argc);
	for (i = 0; i < argc; i++)
		argv[i + 1] = va_arg(ap, char *);
	va_end(ap);
	quiet(true);
	r = rdmachan(argc + 1, argv);
	quiet(false);
	return r;
}

int idx(const struct cmd *cmds, const char *name)
{
	int i;

	for (i = 0; cmds[i].name; i++)
		if (!strcmp(cmds[i].name, name))
			return i;
	return -1;
}

static void test_cmd_match(void)
{
	char buf[64];

	ok(cmd_match(fake_cmds, "show") == 0, "match: a whole name");
	ok(cmd_match(fake_cmds, "sh") == 0 && cmd_match(fake_cmds, "se") == 1,
	   "match: unique prefixes");
	ok(cmd_match(fake_cmds, "s") == -EINVAL, "match: a prefix of two is ambiguous");
	ok(cmd_match(fake_cmds, "read") == 2, "match: a whole name beats a longer one");
	ok(cmd_match(fake_cmds, "readv") == 3 && cmd_match(fake_cmds, "r") == -EINVAL,
	   "match: readv whole, r ambiguous");
	ok(cmd_match(fake_cmds, "shows") == -ENOENT, "match: longer than a name is unknown");
	ok(cmd_match(fake_cmds, "bogus") == -ENOENT, "match: unknown");
	ok(cmd_match(fake_cmds, "") == -ENOENT, "match: empty word");
	ok(cmd_match(fake_cmds, "SHOW") == -ENOENT, "match: case counts");
	cmd_names(fake_cmds, "s", buf, sizeof(buf));
	ok(!strcmp(buf, "show, send"), "names of a prefix: %s", buf);
	cmd_names(fake_cmds, "", buf, sizeof(buf));
	ok(!strcmp(buf, "show, send, read, readv, help"), "all names: %s", buf);

	/* the tool's own tables */
	ok(cmd_match(tool_objects, "d") == idx(tool_objects, "dev") &&
	   cmd_match(tool_objects, "ch") == idx(tool_objects, "chan") &&
	   cmd_match(tool_objects, "m") == idx(tool_objects, "mr") &&
	   cmd_match(tool_objects, "r") == idx(tool_objects, "rdma") &&
	   cmd_match(tool_objects, "v") == idx(tool_objects, "version"),
	   "objects: d ch m r v");
	ok(cmd_match(tool_objects, "rp") == -ENOENT &&
	   run_tool(2, "rping", "--help") == EXIT_OK &&
	   run_tool(2, "rpin", "--help") == EXIT_USAGE &&
	   run_tool(1, "rping") == EXIT_USAGE &&
	   run_tool(3, "rping", "-c", "-S", "10") == EXIT_USAGE,
	   "objects: rping by its whole name only, its usage errors exit 2");
	ok(cmd_match(chan_cmds, "sh") == idx(chan_cmds, "show") &&
	   cmd_match(chan_cmds, "se") == idx(chan_cmds, "send") &&
	   cmd_match(chan_cmds, "l") == idx(chan_cmds, "listen") &&
	   cmd_match(chan_cmds, "c") == idx(chan_cmds, "connect") &&
	   cmd_match(chan_cmds, "r") == idx(chan_cmds, "recv") &&
	   cmd_match(chan_cmds, "p") == idx(chan_cmds, "ping") &&
	   cmd_match(chan_cmds, "b") == idx(chan_cmds, "bench"),
	   "chan: sh se l c r p b");
	ok(cmd_match(chan_cmds, "s") == -EINVAL, "chan: s is ambiguous (send, show)");
	ok(cmd_match(rdma_cmds, "w") == idx(rdma_cmds, "write") &&
	   cmd_match(rdma_cmds, "rea") == idx(rdma_cmds, "read") &&
	   cmd_match(rdma_cmds, "a") == idx(rdma_cmds, "atomic"),
	   "rdma: w rea a");
	ok(cmd_match(dev_cmds, "s") == idx(dev_cmds, "show") &&
	   cmd_match(dev_cmds, "l") == idx(dev_cmds, "list") &&
	   cmd_match(mr_cmds, "r") == idx(mr_cmds, "reg") &&
	   cmd_match(version_cmds, "s") == idx(version_cmds, "show"),
	   "dev s l, mr r, version s");
	ok(cmd_match(tool_objects, "listen") == -ENOENT &&
	   cmd_match(tool_objects, "stat") == -ENOENT &&
	   cmd_match(tool_objects, "reg") == -ENOENT &&
	   cmd_match(tool_objects, "read") == -ENOENT,
	   "objects: the old commands are no objects");
}

static void test_cmd_run(void)
{
	ok(run_cmd(fake_cmds, 0) == 41 && called == 1 && called_argc == 0 &&
	   !strcmp(called_word, "obj"), "run: no command is show (argv[-1] the object)");
	ok(run_cmd(fake_cmds, 3, "se", "a", "b") == 42 && called == 2 && called_argc == 2 &&
	   !strcmp(called_word, "se"), "run: a prefix runs its command with the rest");
	ok(run_cmd(fake_cmds, 1, "read") == 43 && called == 3, "run: whole name");
	ok(run_cmd(fake_cmds, 1, "h") == 45 && called == 5, "run: h is help");
	ok(run_cmd(fake_cmds, 1, "-h") == 45 && run_cmd(fake_cmds, 1, "--help") == 45,
	   "run: -h and --help are help");
	ok(run_cmd(fake_cmds, 2, "s", "x") == EXIT_USAGE && !called,
	   "run: an ambiguous prefix is a usage error");
	ok(run_cmd(fake_cmds, 1, "bogus") == EXIT_USAGE && !called,
	   "run: an unknown command is a usage error");
	ok(run_cmd(fake_noshow, 0) == EXIT_USAGE && !called,
	   "run: no command and no show is a usage error");
	ok(run_cmd(fake_noshow, 1, "r") == 41 && called == 1, "run: r is reg");
}

static void test_tool_grammar(void)
{
	char *nodev = "--ctl", *path = "/nonexistent/rdmachan";

	ok(run_tool(0) == EXIT_USAGE, "tool: no object is a usage error");
	ok(run_tool(1, "help") == EXIT_OK && run_tool(1, "-h") == EXIT_OK &&
	   run_tool(1, "--help") == EXIT_OK && run_tool(1, "-V") == EXIT_OK,
	   "tool: help, -h, --help, -V exit 0");
	ok(run_tool(2, "chan", "help") == EXIT_OK && run_tool(2, "dev", "help") == EXIT_OK &&
	   run_tool(2, "mr", "help") == EXIT_OK && run_tool(2, "rdma", "help") == EXIT_OK &&
	   run_tool(2, "version", "help") == EXIT_OK && run_tool(2, "ch", "h") == EXIT_OK,
	   "tool: OBJECT help exits 0, for every object");
	ok(run_tool(3, "chan", "listen", "--help") == EXIT_OK &&
	   run_tool(3, "ch", "l", "-h") == EXIT_OK &&
	   run_tool(3, "r", "w", "--help") == EXIT_OK &&
	   run_tool(4, "rdma", "atomic", "f", "--help") == EXIT_OK &&
	   run_tool(3, "m", "r", "--help") == EXIT_OK,
	   "tool: OBJECT COMMAND --help exits 0, prefixes too");
	ok(run_tool(1, "bogus") == EXIT_USAGE, "tool: an unknown object exits 2");
	ok(run_tool(2, "--bogus", "dev") == EXIT_USAGE, "tool: an unknown option exits 2");
	ok(run_tool(2, "dev", "bogus") == EXIT_USAGE, "tool: an unknown command exits 2");
	ok(run_tool(2, "chan", "s") == EXIT_USAGE, "tool: an ambiguous command exits 2");
	ok(run_tool(2, "listen", "192.0.2.1") == EXIT_USAGE &&
	   run_tool(1, "stat") == EXIT_USAGE && run_tool(1, "reg") == EXIT_USAGE,
	   "tool: the old top-level commands exit 2");
	ok(run_tool(1, "mr") == EXIT_USAGE && run_tool(1, "rdma") == EXIT_USAGE,
	   "tool: mr and rdma have no show: a command is needed");
	/* without a control device: a show that ran fails (1), not usage (2) */
	ok(run_tool(3, nodev, path, "dev") == EXIT_FAIL &&
	   run_tool(3, nodev, path, "d") == EXIT_FAIL &&
	   run_tool(3, nodev, path, "version") == EXIT_FAIL,
	   "tool: dev, d, version without a command run show");
	ok(run_tool(4, nodev, path, "dev", "show") == EXIT_FAIL &&
	   run_tool(5, nodev, path, "dev", "sh", "extra1") == EXIT_FAIL &&
	   run_tool(5, nodev, path, "dev", "list", "x") == EXIT_USAGE,
	   "tool: dev show [DEV], dev list takes nothing");
	ok(run_tool(3, "chan", "ping", "192.0.2.1:0") == EXIT_USAGE &&
	   run_tool(3, "ch", "send", "nonsense") == EXIT_USAGE &&
	   run_tool(4, "chan", "bench", "192.0.2.1", "--op=bogus") == EXIT_USAGE,
	   "tool: a command's usage errors exit 2");
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
	test_utf8();
	test_batch();
	test_out();
	test_chan_show();
	test_chan_info();
	test_cmd_match();
	test_cmd_run();
	test_tool_grammar();
	test_mr_desc();
	test_mr_req();
	test_access();
	test_names();
	test_fnv();
	test_sge_split();
	test_parse_offset();
	test_results_fix();
	test_blk_cidr();
	test_blk_server();
	test_blk_dev();
	test_blk_tool();
	test_net_tool();
	test_config();
	test_dgram();
	test_monitor();
	test_hist();
	printf("1..%d\n", test_num);
	return failed ? 1 : 0;
}
