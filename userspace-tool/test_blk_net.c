// SPDX-License-Identifier: GPL-2.0-only
/*
 * test_blk_net.c: unit tests of the blk and net objects (blk*.c, net*.c):
 * the blk parsers (networks, servers, disks), and both objects' usage
 * errors, errno hints and refusals run through the whole tool; TAP
 * results through test_unit.c.
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
#include "test_unit.h"
#include "tool.h"

/* ---- the blk object (blk.c) ------------------------------------------- */

static int cidr_is(const char *s, int family, unsigned int prefix, const char *back)
{
	struct rdmachan_blk_cidr c;
	char buf[64];

	if (parse_cidr(s, &c) || c.family != family || c.prefix != prefix || c.reserved)
		return 0;
	format_cidr(&c, buf, sizeof(buf));
	return !strcmp(buf, back);
}

void test_blk_cidr(void)
{
	struct rdmachan_blk_cidr c;

	ok(cidr_is("192.0.2.0/24", AF_INET, 24, "192.0.2.0/24"), "cidr: IPv4 /24");
	ok(cidr_is("192.0.2.7", AF_INET, 32, "192.0.2.7/32"), "cidr: one IPv4 address is /32");
	ok(cidr_is("0.0.0.0/0", AF_INET, 0, "0.0.0.0/0"), "cidr: IPv4 /0 (everyone)");
	ok(cidr_is("10.1.2.3/32", AF_INET, 32, "10.1.2.3/32"), "cidr: IPv4 /32, the upper bound");
	ok(parse_cidr("10.0.0.0/33", &c) == -ERANGE, "cidr: IPv4 /33 is out of range");
	ok(cidr_is("2001:db8::/32", AF_INET6, 32, "2001:db8::/32"), "cidr: IPv6 /32");
	ok(cidr_is("2001:db8::1", AF_INET6, 128, "2001:db8::1/128"), "cidr: one IPv6 address is /128");
	ok(cidr_is("::/0", AF_INET6, 0, "::/0"), "cidr: IPv6 /0");
	ok(cidr_is("2001:db8::1/128", AF_INET6, 128, "2001:db8::1/128"), "cidr: IPv6 /128, the upper bound");
	ok(parse_cidr("2001:db8::/129", &c) == -ERANGE, "cidr: IPv6 /129 is out of range");
	ok(parse_cidr("192.0.2.1/24", &c) == -EINVAL && parse_cidr("2001:db8::1/64", &c) == -EINVAL,
	   "cidr: bits set past the prefix are refused (v4, v6)");
	ok(cidr_is("192.0.2.128/25", AF_INET, 25, "192.0.2.128/25") &&
	   parse_cidr("192.0.2.64/25", &c) == -EINVAL, "cidr: /25 checks the odd bit");
	ok(parse_cidr("192.0.2.0/", &c) == -EINVAL && parse_cidr("192.0.2.0/-1", &c) == -EINVAL &&
	   parse_cidr("192.0.2.0/+8", &c) == -EINVAL && parse_cidr("192.0.2.0/0x18", &c) == -EINVAL &&
	   parse_cidr("192.0.2.0/024", &c) == -EINVAL && parse_cidr("192.0.2.0/24x", &c) == -EINVAL &&
	   parse_cidr("192.0.2.0/24/1", &c) == -EINVAL,
	   "cidr: the length is plain decimal, nothing after it");
	ok(parse_cidr("", &c) == -EINVAL && parse_cidr("/24", &c) == -EINVAL &&
	   parse_cidr("192.0.2/24", &c) == -EINVAL && parse_cidr("host.example/24", &c) == -EINVAL &&
	   parse_cidr("[2001:db8::]/32", &c) == -EINVAL && parse_cidr("256.0.0.0/8", &c) == -EINVAL,
	   "cidr: not an address");
	ok(parse_cidr("99999999999999999999/8", &c) == -EINVAL &&
	   parse_cidr("10.0.0.0/4294967296", &c) == -EINVAL,
	   "cidr: overlong input");
	ok(parse_cidr("10.0.0.0/4294967295", &c) == -ERANGE, "cidr: a huge length is out of range");
	memset(&c, 0, sizeof(c));
	c.family = AF_UNIX;
	{
		char buf[16];

		format_cidr(&c, buf, sizeof(buf));
		ok(!strcmp(buf, "?"), "cidr: another family formats as ?");
	}
}

void test_blk_server(void)
{
	struct sockaddr_storage ss;
	struct sockaddr_in *sin = (struct sockaddr_in *)&ss;
	struct sockaddr_in6 *sin6 = (struct sockaddr_in6 *)&ss;

	ok(!parse_blk_server("192.0.2.1", &ss) && ss.ss_family == AF_INET &&
	   ntohs(sin->sin_port) == BLK_DEFAULT_PORT, "server: IPv4 gets port 7471");
	ok(!parse_blk_server("192.0.2.1:9000", &ss) && ntohs(sin->sin_port) == 9000,
	   "server: IPv4:PORT");
	ok(!parse_blk_server("2001:db8::2", &ss) && ss.ss_family == AF_INET6 &&
	   ntohs(sin6->sin6_port) == BLK_DEFAULT_PORT, "server: bare IPv6 gets port 7471");
	ok(!parse_blk_server("[2001:db8::2]", &ss) && ss.ss_family == AF_INET6 &&
	   ntohs(sin6->sin6_port) == BLK_DEFAULT_PORT, "server: [IPv6] gets port 7471");
	ok(!parse_blk_server("[2001:db8::2]:7000", &ss) && ss.ss_family == AF_INET6 &&
	   ntohs(sin6->sin6_port) == 7000, "server: [IPv6]:PORT");
	ok(!parse_blk_server("192.0.2.1:65535", &ss) && ntohs(sin->sin_port) == 65535,
	   "server: port 65535, the upper bound");
	ok(parse_blk_server("192.0.2.1:0", &ss) == -EINVAL &&
	   parse_blk_server("192.0.2.1:65536", &ss) == -EINVAL &&
	   parse_blk_server("[2001:db8::2]:0", &ss) == -EINVAL &&
	   parse_blk_server("[2001:db8::2]:", &ss) == -EINVAL,
	   "server: ports 0, 65536 and empty are refused");
	ok(parse_blk_server("[2001:db8::2", &ss) == -EINVAL &&
	   parse_blk_server("[192.0.2.1]x", &ss) == -EINVAL &&
	   parse_blk_server("2001:db8::2:7000:1:2:3:4:5", &ss) == -EINVAL &&
	   parse_blk_server("", &ss) == -EINVAL && parse_blk_server("server:7471", &ss) == -EINVAL,
	   "server: malformed addresses are refused");
}

void test_blk_dev(void)
{
	uint32_t i = 99;

	ok(!parse_blk_dev("/dev/rcblk0", &i) && i == 0, "dev: /dev/rcblk0");
	ok(!parse_blk_dev("rcblk12", &i) && i == 12, "dev: rcblk12");
	ok(!parse_blk_dev("7", &i) && i == 7, "dev: 7");
	ok(!parse_blk_dev("4294967295", &i) && i == UINT32_MAX, "dev: the largest index");
	ok(parse_blk_dev("4294967296", &i) == -EINVAL, "dev: an index past 32 bits");
	ok(parse_blk_dev("rcblk", &i) == -EINVAL && parse_blk_dev("/dev/rcblk", &i) == -EINVAL &&
	   parse_blk_dev("", &i) == -EINVAL, "dev: no number");
	ok(parse_blk_dev("rcblk01", &i) == -EINVAL && parse_blk_dev("0x1", &i) == -EINVAL &&
	   parse_blk_dev("-1", &i) == -EINVAL && parse_blk_dev("+1", &i) == -EINVAL,
	   "dev: no leading zero, hex or sign");
	ok(parse_blk_dev("rcblk1p1", &i) == -EINVAL && parse_blk_dev("/dev/sda", &i) == -EINVAL &&
	   parse_blk_dev("/dev/nullb0", &i) == -EINVAL && parse_blk_dev("dev/rcblk1", &i) == -EINVAL &&
	   parse_blk_dev("/dev//rcblk1", &i) == -EINVAL,
	   "dev: partitions and other disks are refused");
}

/* run_tool_err: run the tool; its stderr in @buf */
static int run_tool_err(char *buf, size_t len, int argc, ...)
{
	char *argv[12] = { "rdmachan" };
	FILE *f = tmpfile();
	int saved_err, saved_out, null, i, r;
	va_list ap;
	size_t n;

	va_start(ap, argc);
	for (i = 0; i < argc; i++)
		argv[i + 1] = va_arg(ap, char *);
	va_end(ap);
	fflush(stdout);
	fflush(stderr);
	saved_err = dup(2);
	saved_out = dup(1);
	null = open("/dev/null", O_WRONLY);
	dup2(fileno(f), 2);
	dup2(null, 1);
	close(null);
	r = rdmachan(argc + 1, argv);
	fflush(stdout);
	fflush(stderr);
	dup2(saved_err, 2);
	dup2(saved_out, 1);
	close(saved_err);
	close(saved_out);
	rewind(f);
	n = fread(buf, 1, len - 1, f);
	buf[n] = '\0';
	fclose(f);
	return r;
}

void test_blk_tool(void)
{
	char *ctl = "--ctl", *null = "/dev/null";
	char err[512];

	ok(blk_name_ok("disk0") && blk_name_ok("a.b_c-D9") && !blk_name_ok("") &&
	   !blk_name_ok("a/b") && !blk_name_ok("a b") && !blk_name_ok("dïsk"),
	   "name: [A-Za-z0-9._-] only");
	memset(err, 'x', 64);
	err[64] = '\0';
	ok(!blk_name_ok(err), "name: 64 characters are too many (65 with the NUL)");
	err[63] = '\0';
	ok(blk_name_ok(err), "name: 63 characters fit");
	ok(!strcmp(blk_state_name(0), "live") && !strcmp(blk_state_name(1), "reconnecting") &&
	   !strcmp(blk_state_name(2), "dead") && !strcmp(blk_state_name(3), "unknown"),
	   "state names");
	ok(cmd_match(tool_objects, "b") == idx(tool_objects, "blk") &&
	   cmd_match(blk_cmds, "s") == idx(blk_cmds, "show") &&
	   cmd_match(blk_cmds, "e") == idx(blk_cmds, "export") &&
	   cmd_match(blk_cmds, "une") == idx(blk_cmds, "unexport") &&
	   cmd_match(blk_cmds, "unm") == idx(blk_cmds, "unmap") &&
	   cmd_match(blk_cmds, "m") == idx(blk_cmds, "map") &&
	   cmd_match(blk_cmds, "u") == -EINVAL,
	   "blk: prefixes b s e une unm m; u is ambiguous");
	ok(run_tool(2, "blk", "help") == EXIT_OK && run_tool(3, "b", "e", "--help") == EXIT_OK &&
	   run_tool(3, "b", "une", "-h") == EXIT_OK && run_tool(3, "b", "m", "--help") == EXIT_OK &&
	   run_tool(3, "b", "unm", "--help") == EXIT_OK && run_tool(3, "b", "s", "help") == EXIT_OK,
	   "blk: help of the object and of every command");
	ok(run_tool(3, "blk", "export", "disk0") == EXIT_USAGE &&
	   run_tool(5, "blk", "export", "disk0", "/dev/x", "extra") == EXIT_USAGE &&
	   run_tool(4, "blk", "export", "bad/name", "/dev/x") == EXIT_USAGE &&
	   run_tool(6, "blk", "export", "d", "/dev/x", "--allow", "10.0.0.1/8") == EXIT_USAGE &&
	   run_tool(5, "blk", "export", "d", "/dev/x", "--bogus") == EXIT_USAGE &&
	   run_tool(5, "blk", "export", "d", "/dev/x", "--allow") == EXIT_USAGE,
	   "blk export: usage errors exit 2");
	ok(run_tool(3, "blk", "map", "192.0.2.1") == EXIT_USAGE &&
	   run_tool(4, "blk", "map", "192.0.2.1:0", "d") == EXIT_USAGE &&
	   run_tool(6, "blk", "map", "192.0.2.1", "d", "--queues", "0") == EXIT_USAGE &&
	   run_tool(6, "blk", "map", "192.0.2.1", "d", "--queues", "1025") == EXIT_USAGE &&
	   run_tool(6, "blk", "map", "192.0.2.1", "d", "--depth", "65536") == EXIT_USAGE &&
	   run_tool(6, "blk", "map", "192.0.2.1", "d", "--src", "x") == EXIT_USAGE &&
	   run_tool(6, "blk", "map", "192.0.2.1", "d", "--src", "::1") == EXIT_USAGE,
	   "blk map: usage errors exit 2");
	ok(run_tool(3, "blk", "unmap", "sda") == EXIT_USAGE &&
	   run_tool(2, "blk", "unmap") == EXIT_USAGE &&
	   run_tool(3, "blk", "show", "bogus") == EXIT_USAGE &&
	   run_tool(4, "blk", "show", "maps", "x") == EXIT_USAGE,
	   "blk unmap, show: usage errors exit 2");
	/* /dev/rdmachan without rdmachan_blk answers ENOTTY; /dev/null does too */
	ok(run_tool_err(err, sizeof(err), 4, ctl, null, "blk", "show") == EXIT_FAIL &&
	   strstr(err, "ENOTTY") && strstr(err, "rdmachan_blk is not loaded"),
	   "blk show without the module: ENOTTY and the hint");
	ok(run_tool_err(err, sizeof(err), 5, ctl, null, "blk", "unmap", "/dev/rcblk3") == EXIT_FAIL &&
	   strstr(err, "rcblk3") && strstr(err, "ENOTTY") && strstr(err, "rdmachan_blk is not loaded"),
	   "blk unmap without the module names the disk");
	ok(run_tool_err(err, sizeof(err), 8, ctl, null, "blk", "export", "disk0", "/dev/nullb0",
			"--allow", "192.0.2.0/24") == EXIT_FAIL &&
	   strstr(err, "disk0") && strstr(err, "ENOTTY"),
	   "blk export without the module");
	ok(run_tool_err(err, sizeof(err), 9, ctl, null, "blk", "export", "disk0", "/dev/nullb0",
			"--stable-id", "--allow", "192.0.2.0/24") == EXIT_FAIL &&
	   strstr(err, "disk0") && strstr(err, "ENOTTY") &&
	   run_tool(6, "blk", "export", "d", "/dev/x", "--stable-id=1") == EXIT_USAGE,
	   "blk export --stable-id is an option (no argument)");
	ok(run_tool_err(err, sizeof(err), 6, ctl, null, "blk", "map", "[2001:db8::1]:9000",
			"disk0") == EXIT_FAIL &&
	   strstr(err, "[2001:db8::1]:9000 disk0") && strstr(err, "ENOTTY"),
	   "blk map without the module names server and export");
}

void test_net_tool(void)
{
	char *ctl = "--ctl", *null = "/dev/null";
	char err[512], name[32];

	ok(net_name_ok("rcn0") && net_name_ok("a.b-c_d") && !net_name_ok("") &&
	   !net_name_ok("a/b") && !net_name_ok("a b") && !net_name_ok("a:b") &&
	   !net_name_ok(".") && !net_name_ok(".."),
	   "net: interface names as the kernel takes them");
	memset(name, 'x', 16);
	name[16] = '\0';
	ok(!net_name_ok(name), "net: 16 characters are too many (IFNAMSIZ)");
	name[15] = '\0';
	ok(net_name_ok(name), "net: 15 characters fit");
	ok(!strcmp(net_state_name(0), "up") && !strcmp(net_state_name(1), "reconnecting") &&
	   !strcmp(net_state_name(2), "dead") && !strcmp(net_state_name(3), "waiting") &&
	   !strcmp(net_state_name(4), "unknown"),
	   "net: state names");
	ok(cmd_match(tool_objects, "n") == idx(tool_objects, "net") &&
	   cmd_match(net_cmds, "s") == idx(net_cmds, "show") &&
	   cmd_match(net_cmds, "a") == idx(net_cmds, "add") &&
	   cmd_match(net_cmds, "d") == idx(net_cmds, "del"),
	   "net: prefixes n s a d");
	ok(run_tool(2, "net", "help") == EXIT_OK && run_tool(3, "n", "a", "--help") == EXIT_OK &&
	   run_tool(3, "n", "d", "-h") == EXIT_OK && run_tool(3, "n", "s", "help") == EXIT_OK,
	   "net: help of the object and of every command");
	ok(run_tool(4, "net", "add", "rcn0", "listen") == EXIT_USAGE &&
	   run_tool(5, "net", "add", "rcn0", "bogus", "192.0.2.1") == EXIT_USAGE &&
	   run_tool(5, "net", "add", "a/b", "l", "192.0.2.1") == EXIT_USAGE &&
	   run_tool(5, "net", "add", "rcn0", "c", "192.0.2.1:0") == EXIT_USAGE &&
	   run_tool(7, "net", "add", "rcn0", "l", "192.0.2.1", "--src", "192.0.2.2") == EXIT_USAGE &&
	   run_tool(7, "net", "add", "rcn0", "c", "192.0.2.1", "--peer", "192.0.2.2") == EXIT_USAGE &&
	   run_tool(7, "net", "add", "rcn0", "c", "192.0.2.1", "--src", "::1") == EXIT_USAGE &&
	   run_tool(7, "net", "add", "rcn0", "c", "192.0.2.1", "--mtu", "67") == EXIT_USAGE &&
	   run_tool(9, "net", "add", "rcn0", "c", "192.0.2.1", "--mtu", "9000", "--msg-size",
		    "4096") == EXIT_USAGE &&
	   /* above the default message size, RDMACHAN_NET_DEFAULT_MSG */
	   run_tool(7, "net", "add", "rcn0", "c", "192.0.2.1", "--mtu", "65525") == EXIT_USAGE &&
	   run_tool(7, "net", "add", "rcn0", "c", "192.0.2.1", "--depth", "1") == EXIT_USAGE &&
	   run_tool(7, "net", "add", "rcn0", "c", "192.0.2.1", "--reconnect-delay",
		    "99") == EXIT_USAGE &&
	   run_tool(7, "net", "add", "rcn0", "c", "192.0.2.1", "--loss-timeout", "x") == EXIT_USAGE,
	   "net add: usage errors exit 2");
	ok(run_tool(2, "net", "del") == EXIT_USAGE && run_tool(4, "net", "del", "a", "b") == EXIT_USAGE &&
	   run_tool(4, "net", "show", "a", "b") == EXIT_USAGE,
	   "net del, show: usage errors exit 2");
	ok(run_tool_err(err, sizeof(err), 4, ctl, null, "net", "show") == EXIT_FAIL &&
	   strstr(err, "ENOTTY") && strstr(err, "rdmachan_net is not loaded"),
	   "net show without the module: ENOTTY and the hint");
	ok(run_tool_err(err, sizeof(err), 7, ctl, null, "net", "add", "rcn0", "connect",
			"[2001:db8::1]:9000") == EXIT_FAIL &&
	   strstr(err, "rcn0 connect [2001:db8::1]:9000") && strstr(err, "ENOTTY"),
	   "net add without the module names the interface and the peer");
	ok(run_tool_err(err, sizeof(err), 5, ctl, null, "net", "del", "rcn0") == EXIT_FAIL &&
	   strstr(err, "rcn0") && strstr(err, "ENOTTY"),
	   "net del without the module names the interface");
}
