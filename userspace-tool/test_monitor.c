// SPDX-License-Identifier: GPL-2.0-only
/*
 * test_monitor.c: "rdmachan monitor"'s reading of uevents (monitor.c):
 * the cutting of a kernel uevent, which object it is of, and the line
 * and JSON object printed for it.
 */
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "monitor.h"
#include "out.h"
#include "test_unit.h"

/* mk: a uevent of the NUL-separated @parts into @buf; its length */
static size_t mk(char *buf, const char *const *parts)
{
	size_t n = 0;

	for (; *parts; parts++) {
		strcpy(buf + n, *parts);
		n += strlen(*parts) + 1;
	}
	return n;
}

/* printed: mon_print() of @ev, as text or JSON, into @out: one line */
static void printed(const struct mon_event *ev, int obj, int json,
		    char *out, size_t len)
{
	FILE *f = tmpfile();
	int saved = dup(1);
	size_t n;

	fflush(stdout);
	dup2(fileno(f), 1);
	out_init(json, false, stdout);
	mon_print(ev, obj);
	fflush(stdout);
	dup2(saved, 1);
	close(saved);
	out_init(false, false, stdout);
	rewind(f);
	n = fread(out, 1, len - 1, f);
	out[n] = '\0';
	fclose(f);
	/* one line each: its newline, then nothing */
	if (n && out[n - 1] == '\n' && !memchr(out, '\n', n - 1))
		out[n - 1] = '\0';
}

static void test_mon_chan(void)
{
	static const char *const parts[] = {
		"change@/devices/virtual/rdmachan/chan3", "ACTION=change",
		"DEVPATH=/devices/virtual/rdmachan/chan3", "SUBSYSTEM=rdmachan",
		"RDMACHAN_OBJ=chan", "RDMACHAN_EVENT=state",
		"RDMACHAN_STATE=failed", "RDMACHAN_OLD_STATE=connected",
		"RDMACHAN_ERROR=-103", "RDMACHAN_QPN=17", "SEQNUM=42", NULL
	};
	char buf[1024], out[1024];
	struct mon_event ev;
	size_t n = mk(buf, parts);

	ok(!mon_parse(buf, n, &ev) && !strcmp(ev.action, "change") &&
	   !strcmp(ev.name, "chan3") && !strcmp(ev.subsystem, "rdmachan") &&
	   ev.nvars == 10, "monitor: a kernel uevent is cut into its parts");
	ok(!strcmp(mon_var(&ev, "RDMACHAN_STATE"), "failed") &&
	   !mon_var(&ev, "RDMACHAN_STAT") && !mon_var(&ev, "NOPE"),
	   "monitor: a variable is found by its whole key");
	ok(mon_object(&ev) == MON_CHAN, "monitor: RDMACHAN_OBJ names the object");
	printed(&ev, MON_CHAN, 0, out, sizeof(out));
	ok(!strcmp(out, "chan chan3: connected -> failed (error -103)"),
	   "monitor: a channel's state change as text: %s", out);
	printed(&ev, MON_CHAN, 1, out, sizeof(out));
	ok(strstr(out, "\"object\":\"chan\"") && strstr(out, "\"seq\":42") &&
	   strstr(out, "\"error\":-103") && strstr(out, "\"qpn\":17") &&
	   strstr(out, "\"old_state\":\"connected\"") &&
	   !strstr(out, "\"obj\""),
	   "monitor: JSON has every variable, numbers as numbers: %s", out);
}

static void test_mon_link(void)
{
	static const char *const parts[] = {
		"change@/devices/virtual/block/rcblk0", "SUBSYSTEM=block",
		"RDMACHAN_EVENT=link", "RDMACHAN_LINK=rcblk0",
		"RDMACHAN_LINK_EVENT=attempt", "RDMACHAN_LINK_STATE=reconnecting",
		"RDMACHAN_ATTEMPT=2", "RDMACHAN_MAX_ATTEMPTS=5",
		"RDMACHAN_ERROR=-111", "RDMACHAN_MS=400", NULL
	};
	static const char *const disk_add[] = {
		"add@/devices/virtual/block/rcblk0", "SUBSYSTEM=block",
		"DEVNAME=rcblk0", NULL
	};
	static const char *const net_carrier[] = {
		"change@/devices/virtual/net/rcn0", "SUBSYSTEM=net",
		"RDMACHAN_OBJ=net", "RDMACHAN_EVENT=carrier",
		"RDMACHAN_CARRIER=off", NULL
	};
	char buf[1024], out[1024];
	struct mon_event ev;
	size_t n = mk(buf, parts);

	ok(!mon_parse(buf, n, &ev) && mon_object(&ev) == MON_BLK,
	   "monitor: a link's event is its disk's (blk)");
	printed(&ev, MON_BLK, 0, out, sizeof(out));
	ok(!strcmp(out, "blk rcblk0: attempt 2 of 5 failed (error -111), next in 400 ms"),
	   "monitor: a failed attempt as text: %s", out);
	n = mk(buf, disk_add);
	ok(!mon_parse(buf, n, &ev) && mon_object(&ev) == 0,
	   "monitor: a disk's own ADD is not ours");
	n = mk(buf, net_carrier);
	mon_parse(buf, n, &ev);
	printed(&ev, mon_object(&ev), 0, out, sizeof(out));
	ok(mon_object(&ev) == MON_NET && !strcmp(out, "net rcn0: carrier off"),
	   "monitor: a carrier change as text: %s", out);
	strcpy(buf, "libudev\0change@/x");
	ok(mon_parse(buf, 17, &ev) == -1 && mon_parse(buf + 8, 0, &ev) == -1,
	   "monitor: udev's own messages and empty ones are refused");
	ok(mon_obj_word("listener") == MON_LISTENER && mon_obj_word("all") ==
	   MON_ALL && !mon_obj_word("ch"), "monitor: objects by whole words");
}

void test_monitor(void)
{
	test_mon_chan();
	test_mon_link();
}
