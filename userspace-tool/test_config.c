// SPDX-License-Identifier: GPL-2.0-only
/*
 * test_config.c: unit tests of the config object's pure half (config.c):
 * the lines config save writes for an export, a mapping and an
 * interface read back as the same words, quoting, and the keys config
 * restore uses to skip what exists; TAP results through test_unit.c.
 */
#include <arpa/inet.h>
#include <errno.h>
#include <netinet/in.h>
#include <stdio.h>
#include <string.h>

#include "blk.h"
#include "config.h"
#include "test_unit.h"

static void v4(void *ss, const char *a, int port)
{
	struct sockaddr_in *sin = ss;

	memset(ss, 0, sizeof(struct sockaddr_storage));
	sin->sin_family = AF_INET;
	sin->sin_port = htons(port);
	inet_pton(AF_INET, a, &sin->sin_addr);
}

/* @line split as a batch line, the words joined by '|' */
static const char *words(const char *line)
{
	static char out[CONFIG_LINE_MAX];
	char copy[CONFIG_LINE_MAX], *w[64];
	int i, n;

	snprintf(copy, sizeof(copy), "%s", line);
	n = batch_words(copy, w, 64);
	out[0] = '\0';
	for (i = 0; i < n; i++)
		snprintf(out + strlen(out), sizeof(out) - strlen(out), "%s%s",
			 i ? "|" : "", w[i]);
	return out;
}

static void test_quote(void)
{
	char b[64];

	ok(!config_quote("/dev/disk/by-id/wwn-0x5:1", b, sizeof(b)) &&
	   !strcmp(b, "/dev/disk/by-id/wwn-0x5:1"), "config: a plain word is as it is");
	ok(!config_quote("/dev/my disk", b, sizeof(b)) &&
	   !strcmp(words(b), "/dev/my disk"), "config: a blank is quoted and reads back");
	ok(!config_quote("a\"b\\c#d'e", b, sizeof(b)) &&
	   !strcmp(words(b), "a\"b\\c#d'e"), "config: quotes, backslash and # read back");
	ok(!config_quote("", b, sizeof(b)) && !strcmp(b, "\"\""),
	   "config: the empty word is \"\"");
	ok(config_quote("abc def", b, 5) == -1, "config: a short buffer is refused");
}

static void test_export_line(void)
{
	struct rdmachan_blk_export_info e;
	char line[CONFIG_LINE_MAX];

	memset(&e, 0, sizeof(e));
	strcpy(e.name, "disk0");
	strcpy(e.path, "/dev/nullb0");
	e.flags = RDMACHAN_BLK_RO | RDMACHAN_BLK_STABLE_ID;
	e.nr_allow = 2;
	parse_cidr("192.0.2.0/24", &e.allow[0]);
	parse_cidr("2001:db8::/32", &e.allow[1]);
	ok(!config_export_line(&e, line, sizeof(line)) &&
	   !strcmp(line, "blk export disk0 /dev/nullb0 --ro --stable-id "
		   "--allow 192.0.2.0/24 --allow 2001:db8::/32"),
	   "config: an export's line (%s)", line);
	e.flags = 0;
	e.nr_allow = 0;
	strcpy(e.path, "/dev/disk/by-label/my data");
	ok(!config_export_line(&e, line, sizeof(line)) &&
	   !strcmp(words(line), "blk|export|disk0|/dev/disk/by-label/my data"),
	   "config: a path with a blank reads back as one word");
	ok(config_export_line(&e, line, 20) == -1, "config: a short buffer fails the line");
}

static void test_map_line(void)
{
	struct rdmachan_blk_map_info m;
	struct sysfs_extra x = { "5000", "off", "2000", "", "" };
	char line[CONFIG_LINE_MAX];

	memset(&m, 0, sizeof(m));
	v4(&m.server, "192.0.2.1", 7471);
	strcpy(m.name, "disk0");
	m.nr_queues = 2;
	m.queue_depth = 128;
	ok(!config_map_line(&m, &x, line, sizeof(line)) &&
	   !strcmp(line, "blk map 192.0.2.1:7471 disk0 --queues 2 --depth 128 "
		   "--reconnect-delay 5000 --loss-timeout off --fast-io-fail 2000"),
	   "config: a mapping's line (%s)", line);
	memset(&x, 0, sizeof(x));
	strcpy(x.src, "192.0.2.2");
	m.flags = RDMACHAN_BLK_RO;
	m.nr_queues = m.queue_depth = 0;
	ok(!config_map_line(&m, &x, line, sizeof(line)) &&
	   !strcmp(line, "blk map 192.0.2.1:7471 disk0 --ro --src 192.0.2.2"),
	   "config: what sysfs did not give is left out (%s)", line);
}

static void test_net_line(void)
{
	struct rdmachan_net_info n;
	struct sysfs_extra x = { "200", "off", "", "192.0.2.2", "" };
	char line[CONFIG_LINE_MAX];

	memset(&n, 0, sizeof(n));
	strcpy(n.name, "rcn0");
	n.mode = RDMACHAN_NET_LISTEN;
	v4(&n.addr, "192.0.2.1", 7480);
	n.mtu = 9000;
	n.max_msg_size = 65524;
	ok(!config_net_line(&n, &x, line, sizeof(line)) &&
	   !strcmp(line, "net add rcn0 listen 192.0.2.1:7480 --peer 192.0.2.2 "
		   "--mtu 9000 --msg-size 65524 --reconnect-delay 200 --loss-timeout off"),
	   "config: a listening interface's line (%s)", line);
	n.mode = RDMACHAN_NET_CONNECT;
	n.queue_depth = 64;
	x.src[0] = '\0';
	ok(!config_net_line(&n, &x, line, sizeof(line)) &&
	   !strcmp(line, "net add rcn0 connect 192.0.2.1:7480 --mtu 9000 "
		   "--msg-size 65524 --depth 64 --reconnect-delay 200 --loss-timeout off"),
	   "config: a connecting interface's line (%s)", line);
}

/* config_key of @line's words */
static int key_of(const char *line, char *key, size_t len)
{
	char copy[CONFIG_LINE_MAX], *w[64];
	int n;

	snprintf(copy, sizeof(copy), "%s", line);
	n = batch_words(copy, w, 64);
	key[0] = '\0';
	return config_key(n, w, key, len);
}

static void test_key(void)
{
	char k[256];

	ok(!key_of("blk export disk0 /dev/nullb0 --ro", k, sizeof(k)) &&
	   !strcmp(k, "export disk0"), "config: an export's key");
	ok(!key_of("b ex disk0 /dev/nullb0", k, sizeof(k)) &&
	   !strcmp(k, "export disk0"), "config: prefixes name the same command");
	ok(!key_of("blk map 192.0.2.1 disk0 --queues 2", k, sizeof(k)) &&
	   !strcmp(k, "map 192.0.2.1:7471 disk0"),
	   "config: a mapping's key has the default port (%s)", k);
	ok(!key_of("blk map [2001:db8::1]:9 d", k, sizeof(k)) &&
	   !strcmp(k, "map [2001:db8::1]:9 d"), "config: an IPv6 server's key (%s)", k);
	ok(!key_of("net add rcn0 listen 192.0.2.1", k, sizeof(k)) &&
	   !strcmp(k, "net rcn0"), "config: an interface's key");
	ok(key_of("blk unmap 0", k, sizeof(k)) == -ENOENT &&
	   key_of("chan show", k, sizeof(k)) == -ENOENT &&
	   key_of("net", k, sizeof(k)) == -ENOENT &&
	   key_of("blk zzz", k, sizeof(k)) == -ENOENT,
	   "config: other commands have no key");
	ok(key_of("blk map 192.0.2.1", k, sizeof(k)) == -EINVAL &&
	   key_of("blk map nowhere disk0", k, sizeof(k)) == -EINVAL &&
	   key_of("blk export --ro", k, sizeof(k)) == -EINVAL,
	   "config: a make-command without its operands is -EINVAL");
}

void test_config(void)
{
	test_quote();
	test_export_line();
	test_map_line();
	test_net_line();
	test_key();
}
