// SPDX-License-Identifier: GPL-2.0-only
/*
 * test_dgram.c: unit tests of the "dgram" object (dgram_util.c, the
 * option parsing of dgram.c, its grammar in rdmachan.c); TAP results
 * through test_unit.c's ok().
 */
#include <arpa/inet.h>
#include <errno.h>
#include <netinet/in.h>
#include <stdio.h>
#include <string.h>

#include "dgram.h"
#include "test_unit.h"

static void test_dgram_opt(void)
{
	struct dgram_args a;

	dgram_args_init(&a);
	ok(a.count == 1 && a.size == DGRAM_DEFAULT_SIZE && a.burst == 1 &&
	   a.wait_ms == 5000 && !a.depth && !a.qpn && !a.validate &&
	   !a.has_count && !a.has_size, "dgram: the defaults");
	ok(!dgram_opt('c', "0", &a) && a.count == 0 && a.has_count &&
	   dgram_opt('c', "-1", &a) == -EINVAL &&
	   dgram_opt('c', "4294967296", &a) == -EINVAL,
	   "dgram: -c 0 to 2^32-1");
	ok(!dgram_opt('s', "1k", &a) && a.size == 1024 && a.has_size &&
	   !dgram_opt('s', "0", &a) && a.size == 0 &&
	   dgram_opt('s', "2m", &a) == -EINVAL, "dgram: -s 0 to 1m, suffixes");
	ok(!dgram_opt('b', "64", &a) && a.burst == 64 &&
	   dgram_opt('b', "65", &a) == -EINVAL && dgram_opt('b', "0", &a) == -EINVAL,
	   "dgram: -b 1 to 64 (a batch)");
	ok(!a.has_wait && !dgram_opt('W', "250ms", &a) && a.wait_ms == 250 &&
	   a.has_wait &&
	   dgram_opt('W', "0", &a) == -EINVAL && dgram_opt('W', "1h", &a) == -EINVAL,
	   "dgram: -W a duration, not 0");
	ok(!dgram_opt('d', "4096", &a) && a.depth == 4096 &&
	   dgram_opt('d', "4097", &a) == -EINVAL && dgram_opt('d', "0", &a) == -EINVAL,
	   "dgram: -d 1 to RDMACHAN_DGRAM_MAX_DEPTH");
	ok(!dgram_opt('Q', "0xffffff", &a) && a.qpn == 0xffffff &&
	   dgram_opt('Q', "1", &a) == -EINVAL &&
	   dgram_opt('Q', "0x1000000", &a) == -EINVAL,
	   "dgram: --qpn 2 to 2^24-1");
	ok(!a.time_ms && !dgram_opt('t', "2s", &a) && a.time_ms == 2000 &&
	   dgram_opt('t', "0", &a) == -EINVAL && !a.kernel &&
	   !dgram_opt('k', NULL, &a) && a.kernel,
	   "dgram: -t a duration, not 0; -k");
	ok(a.op == DGRAM_BENCH_BLAST && !dgram_opt('O', "pingpong", &a) &&
	   a.op == DGRAM_BENCH_PINGPONG && !dgram_opt('O', "blast", &a) &&
	   a.op == DGRAM_BENCH_BLAST && dgram_opt('O', "ping", &a) == -EINVAL,
	   "dgram: --op blast or pingpong, whole words");
	ok(!dgram_opt('I', "192.0.2.2", &a) && a.src.ss_family == AF_INET &&
	   dgram_opt('I', "nonsense", &a) == -EINVAL && !dgram_opt('V', NULL, &a) &&
	   a.validate && dgram_opt('x', "1", &a) == -EINVAL,
	   "dgram: -I an address, -V, no other option");
}

static void test_dgram_check(void)
{
	unsigned int srv = DGRAM_OPT_SERVE, cli = DGRAM_OPT_SRC;
	struct dgram_args a;

	dgram_args_init(&a);
	parse_listen_addr("0.0.0.0", DGRAM_PORT, &a.addr);
	ok(dgram_check(&a, srv) != NULL, "dgram check: no wildcard to serve");
	parse_listen_addr("[::]:0", DGRAM_PORT, &a.addr);
	ok(dgram_check(&a, srv) != NULL, "dgram check: no IPv6 wildcard to serve");
	parse_listen_addr("192.0.2.1:0", DGRAM_PORT, &a.addr);
	ok(dgram_check(&a, srv) == NULL, "dgram check: a local address, port 0");
	parse_addr("192.0.2.1", DGRAM_PORT, &a.addr);
	ok(dgram_check(&a, cli) != NULL, "dgram check: -I is needed");
	parse_listen_addr("0.0.0.0", 0, &a.src);
	ok(dgram_check(&a, cli) != NULL, "dgram check: -I is no wildcard");
	parse_listen_addr("2001:db8::2", 0, &a.src);
	ok(dgram_check(&a, cli) != NULL, "dgram check: -I of ADDR's family");
	parse_listen_addr("192.0.2.2", 0, &a.src);
	ok(dgram_check(&a, cli) == NULL, "dgram check: ADDR and -I");
	a.data = "hi";
	a.has_size = true;
	ok(dgram_check(&a, cli | DGRAM_OPT_DATA) != NULL &&
	   dgram_check(&a, cli) == NULL, "dgram check: DATA or -s, not both");
	a.has_size = false;
	a.count = 0;
	ok(dgram_check(&a, cli | DGRAM_OPT_DATA) != NULL,
	   "dgram check: send -c 0 is refused");
}

/* dgram_parse of "dgram WORDS...", its usage errors silenced */
static int parse(unsigned int mask, struct dgram_args *a, int argc, char **argv)
{
	FILE *saved = stderr;
	int r;

	stderr = fopen("/dev/null", "w");
	r = dgram_parse("dgram test", mask, argc - 1, argv + 1, a, NULL);
	fclose(stderr);
	stderr = saved;
	return r;
}

static void test_dgram_parse(void)
{
	unsigned int ping = DGRAM_OPT_COUNT | DGRAM_OPT_SIZE | DGRAM_OPT_BURST |
			    DGRAM_OPT_SRC | DGRAM_OPT_VALIDATE | DGRAM_OPT_WAIT;
	unsigned int send = DGRAM_OPT_COUNT | DGRAM_OPT_SIZE | DGRAM_OPT_SRC |
			    DGRAM_OPT_QPN | DGRAM_OPT_WAIT | DGRAM_OPT_DATA;
	char *p1[] = { "ping", "192.0.2.1:9", "-I", "192.0.2.2", "-c", "3",
		       "--size", "1k", "-b", "10", "-V", "--wait=250ms" };
	char *p2[] = { "ping", "192.0.2.1", "-I", "192.0.2.2", "--qpn", "5" };
	char *p3[] = { "ping", "--src", "192.0.2.2", "192.0.2.1", "extra" };
	char *s1[] = { "send", "[2001:db8::1]", "-I", "2001:db8::2", "--qpn",
		       "0x12", "hello" };
	char *e1[] = { "echo", "192.0.2.1", "-c", "2", "--burst", "3" };
	struct sockaddr_in *sin;
	struct dgram_args a;

	ok(!parse(ping, &a, 12, p1) && a.count == 3 && a.has_count &&
	   a.size == 1024 && a.burst == 10 && a.validate && a.wait_ms == 250,
	   "dgram parse: ping's options, short and long");
	sin = (struct sockaddr_in *)&a.addr;
	ok(ntohs(sin->sin_port) == 9 && a.src.ss_family == AF_INET,
	   "dgram parse: ADDR:PORT, -I");
	ok(parse(ping, &a, 2, (char *[]){ "ping", "192.0.2.1" }) == EXIT_USAGE &&
	   parse(ping, &a, 6, p2) == EXIT_USAGE &&
	   parse(ping, &a, 5, p3) == EXIT_USAGE,
	   "dgram parse: no -I, an option of another command, an extra operand");
	ok(!parse(send, &a, 7, s1) && a.qpn == 0x12 && a.data &&
	   !strcmp(a.data, "hello") && a.addr.ss_family == AF_INET6 &&
	   ntohs(((struct sockaddr_in6 *)&a.addr)->sin6_port) == DGRAM_PORT,
	   "dgram parse: send [IPv6] --qpn DATA, the default port");
	ok(parse(DGRAM_OPT_COUNT | DGRAM_OPT_SERVE, &a, 6, e1) == EXIT_USAGE,
	   "dgram parse: echo takes no --burst");
	ok(!parse(DGRAM_OPT_SRC | DGRAM_OPT_SIZE | DGRAM_OPT_TIME |
		  DGRAM_OPT_COUNT | DGRAM_OPT_WAIT | DGRAM_OPT_QPN | DGRAM_OPT_OP,
		  &a, 9, (char *[]){ "bench", "192.0.2.1", "-I", "192.0.2.2",
				     "--op=pingpong", "-t", "3s", "-s", "64" }) &&
	   a.op == DGRAM_BENCH_PINGPONG && a.time_ms == 3000 && a.size == 64,
	   "dgram parse: bench --op -t -s");
	ok(parse(DGRAM_OPT_COUNT | DGRAM_OPT_SERVE, &a, 3,
		 (char *[]){ "echo", "192.0.2.1", "-k" }) == EXIT_USAGE &&
	   !parse(DGRAM_OPT_COUNT | DGRAM_OPT_SERVE | DGRAM_OPT_KERNEL, &a, 3,
		  (char *[]){ "echo", "192.0.2.1", "--kernel" }) && a.kernel,
	   "dgram parse: -k only where it is taken");
	ok(!parse(DGRAM_OPT_COUNT | DGRAM_OPT_SERVE, &a, 4,
		  (char *[]){ "recv", "192.0.2.1:0", "-c", "0" }) &&
	   a.count == 0 && a.addr.ss_family == AF_INET,
	   "dgram parse: a served port 0, -c 0");
}

static void test_dgram_format(void)
{
	struct sockaddr_storage ss;
	char buf[64];

	parse_addr("192.0.2.7:99", 1, &ss);
	format_host(&ss, buf, sizeof(buf));
	ok(!strcmp(buf, "192.0.2.7"), "format_host IPv4: %s", buf);
	parse_addr("[2001:db8::7]:99", 1, &ss);
	format_host(&ss, buf, sizeof(buf));
	ok(!strcmp(buf, "2001:db8::7"), "format_host IPv6: %s", buf);
	memset(&ss, 0, sizeof(ss));
	format_host(&ss, buf, sizeof(buf));
	ok(!strcmp(buf, "-"), "format_host AF_UNSPEC: -");
	ok(addr_is_any(&ss) == false, "addr_is_any: AF_UNSPEC is none");

	format_escaped("a\\b\n\t\r\x01\xff~", 9, 64, buf, sizeof(buf));
	ok(!strcmp(buf, "a\\\\b\\n\\t\\r\\x01\\xff~"), "format_escaped: %s", buf);
	format_escaped("abcdef", 6, 3, buf, sizeof(buf));
	ok(!strcmp(buf, "abc..."), "format_escaped: the first bytes, then ...");
	format_escaped("abc", 3, 3, buf, sizeof(buf));
	ok(!strcmp(buf, "abc"), "format_escaped: all of them, no ...");
	format_escaped("\x01\x02\x03", 3, 64, buf, 9);
	ok(!strcmp(buf, "\\x01\\x02"), "format_escaped: cut at an escape, terminated");
	format_escaped("", 0, 64, buf, sizeof(buf));
	ok(!strcmp(buf, ""), "format_escaped: nothing");
}

static void test_dgram_pattern(void)
{
	unsigned char b[64], sent[3 * 40];
	uint64_t seq = 0, seen = 0;
	int i;

	dgram_fill(b, 40, 7);
	ok(!memcmp(b, "rdmachan-dgram-7: ", 18) && b[18] == 'A' + 7 &&
	   b[19] == 'A' + 8, "pattern: the header, then letters from seq");
	ok(!dgram_seq(b, 40, &seq) && seq == 7, "pattern: its seq");
	dgram_fill(b, 64, 57);
	ok(b[19] == 'z' && b[20] == 'A', "pattern: the letters wrap at z");
	memset(b, 0, sizeof(b));
	dgram_fill(b, 10, 7);
	ok(!memcmp(b, "rdmachan-d", 10) && b[10] == 0,
	   "pattern: cut to its size, nothing beyond");
	dgram_fill(b, 0, 7);
	ok(dgram_seq(b, 10, &seq) == -EINVAL, "pattern: a cut header has no seq");
	ok(!dgram_seq("rdmachan-dgram-18446744073709551615: ", 37, &seq) &&
	   seq == UINT64_MAX, "pattern: seq 2^64-1");
	ok(dgram_seq("rdmachan-dgram-18446744073709551616: ", 37, &seq) == -EINVAL &&
	   dgram_seq("rdmachan-dgram-07: ", 19, &seq) == -EINVAL &&
	   dgram_seq("rdmachan-dgram-: ", 17, &seq) == -EINVAL &&
	   dgram_seq("rdmachan-dgram-7:x", 18, &seq) == -EINVAL &&
	   dgram_seq("rdmachan-dgram-7", 16, &seq) == -EINVAL &&
	   dgram_seq("rdmachan-dgrom-7: ", 18, &seq) == -EINVAL,
	   "pattern: no seq in an overflow, a leading zero, junk");

	for (i = 0; i < 3; i++)
		dgram_fill(sent + i * 40, 40, 30 + i);
	dgram_fill(b, 40, 32);
	ok(dgram_match(b, 40, sent, 40, 3, &seen) == 2 && seen == 4,
	   "match: the datagram sent, its bit");
	ok(dgram_match(b, 40, sent, 40, 3, &seen) == -1,
	   "match: not twice (a duplicate)");
	dgram_fill(b, 40, 30);
	ok(dgram_match(b, 39, sent, 40, 3, &seen) == -1 &&
	   dgram_match(b, 40, sent, 40, 3, &seen) == 0 && seen == 5,
	   "match: of the size only");
	dgram_fill(b, 40, 31);
	b[39] ^= 1;
	ok(dgram_match(b, 40, sent, 40, 3, &seen) == -1,
	   "match: not with a byte changed");
	dgram_fill(b, 40, 33);
	ok(dgram_match(b, 40, sent, 40, 3, &seen) == -1 && seen == 5,
	   "match: not another round's");
}

static void test_dgram_grammar(void)
{
	ok(cmd_match(tool_objects, "d") == idx(tool_objects, "dev") &&
	   cmd_match(tool_objects, "dgram") == -ENOENT &&
	   run_tool(2, "dgram", "help") == EXIT_OK &&
	   run_tool(2, "dg", "help") == EXIT_USAGE &&
	   run_tool(1, "dgram") == EXIT_USAGE,
	   "dgram: by its whole word only (d stays dev), no show");
	ok(cmd_match(dgram_cmds, "e") == idx(dgram_cmds, "echo") &&
	   cmd_match(dgram_cmds, "p") == idx(dgram_cmds, "ping") &&
	   cmd_match(dgram_cmds, "r") == idx(dgram_cmds, "recv") &&
	   cmd_match(dgram_cmds, "s") == idx(dgram_cmds, "send") &&
	   cmd_match(dgram_cmds, "b") == idx(dgram_cmds, "bench"),
	   "dgram: e p r s b");
	ok(run_tool(3, "dgram", "echo", "--help") == EXIT_OK &&
	   run_tool(3, "dgram", "p", "-h") == EXIT_OK &&
	   run_tool(3, "dgram", "recv", "--help") == EXIT_OK &&
	   run_tool(3, "dgram", "send", "--help") == EXIT_OK &&
	   run_tool(3, "dgram", "bench", "--help") == EXIT_OK,
	   "dgram: COMMAND --help exits 0");
	ok(run_tool(3, "dgram", "ping", "192.0.2.1") == EXIT_USAGE &&
	   run_tool(3, "dgram", "echo", "0.0.0.0") == EXIT_USAGE &&
	   run_tool(5, "dgram", "ping", "192.0.2.1", "-I", "192.0.2.2:x") == EXIT_USAGE &&
	   run_tool(8, "dgram", "send", "192.0.2.1", "-I", "192.0.2.2", "-s", "9",
		    "data") == EXIT_USAGE &&
	   run_tool(5, "dgram", "recv", "192.0.2.1", "-W", "0") == EXIT_USAGE &&
	   run_tool(2, "dgram", "echo") == EXIT_USAGE &&
	   run_tool(7, "dgram", "bench", "192.0.2.1", "-I", "192.0.2.2", "-s",
		    "0") == EXIT_USAGE &&
	   run_tool(6, "dgram", "recv", "192.0.2.1", "--sink", "-W", "11m") == EXIT_USAGE &&
	   run_tool(5, "dgram", "recv", "192.0.2.1", "-t", "1s") == EXIT_USAGE &&
	   run_tool(6, "dgram", "recv", "224.0.1.1", "-I", "192.0.2.2", "--sink") ==
	   EXIT_USAGE,
	   "dgram: its usage errors exit 2");
	ok(run_tool(5, "--ctl", "/nonexistent/rdmachan", "dgram", "recv",
		    "192.0.2.1") == EXIT_FAIL,
	   "dgram: without the control device, exit 1");
}

void test_dgram(void)
{
	test_dgram_opt();
	test_dgram_check();
	test_dgram_parse();
	test_dgram_format();
	test_dgram_pattern();
	test_dgram_grammar();
}
