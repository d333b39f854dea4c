// SPDX-License-Identifier: GPL-2.0-only
/*
 * net_abuse: bad arguments to RDMACHAN_IOC_NET_*, each refused with its
 * errno (tests/vm/cases/net_basic.sh).  KTAP (ktap.h).
 *
 *   net_abuse EXISTING_NAME
 *
 * EXISTING_NAME: an rdmachan interface that exists (a duplicate add is
 * refused with EEXIST).
 */
#include <arpa/inet.h>
#include <errno.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/un.h>
#include <unistd.h>

#include <linux/rdmachan_net.h>

#include "ktap.h"

static int ctl;

static void good_add(struct rdmachan_net_add *a, const char *name)
{
	struct sockaddr_in *sin = (struct sockaddr_in *)&a->addr;

	memset(a, 0, sizeof(*a));
	a->size = sizeof(*a);
	a->mode = RDMACHAN_NET_CONNECT;
	snprintf(a->name, sizeof(a->name), "%s", name);
	sin->sin_family = AF_INET;
	sin->sin_port = htons(7999);
	inet_pton(AF_INET, "192.0.2.1", &sin->sin_addr);
}

static void expect(const char *what, unsigned long cmd, void *arg, int want)
{
	int ret = ioctl(ctl, cmd, arg);
	int err = ret < 0 ? errno : 0;

	ktap_result(ret < 0 && err == want, what, "returned %d errno %d (%s), wanted %d",
		    ret, err, strerror(err), want);
}

int main(int argc, char **argv)
{
	struct rdmachan_net_add a;
	struct rdmachan_net_del d;
	struct rdmachan_net_list l;
	struct rdmachan_net_info info;

	ktap_header();
	if (argc != 2) {
		ktap_result(0, "usage: net_abuse EXISTING_NAME", "no name");
		return ktap_plan(1);
	}
	ctl = open("/dev/rdmachan", O_RDWR);
	if (ctl < 0) {
		ktap_result(0, "open /dev/rdmachan", "%s", strerror(errno));
		return ktap_plan(1);
	}

	good_add(&a, "rcbad0");
	a.size--;
	expect("add: a wrong size is EINVAL", RDMACHAN_IOC_NET_ADD, &a, EINVAL);
	good_add(&a, "rcbad0");
	a.reserved[2] = 1;
	expect("add: reserved not zero is EINVAL", RDMACHAN_IOC_NET_ADD, &a, EINVAL);
	good_add(&a, "rcbad0");
	memset(a.name, 'x', sizeof(a.name));
	expect("add: a name without its NUL is EINVAL", RDMACHAN_IOC_NET_ADD, &a, EINVAL);
	good_add(&a, "");
	expect("add: an empty name is EINVAL", RDMACHAN_IOC_NET_ADD, &a, EINVAL);
	good_add(&a, "a/b");
	expect("add: a name with '/' is EINVAL", RDMACHAN_IOC_NET_ADD, &a, EINVAL);
	good_add(&a, "rcbad0");
	a.mode = 7;
	expect("add: mode 7 is EINVAL", RDMACHAN_IOC_NET_ADD, &a, EINVAL);
	good_add(&a, "rcbad0");
	a.addr.ss_family = AF_UNIX;
	expect("add: an AF_UNIX address is EAFNOSUPPORT", RDMACHAN_IOC_NET_ADD, &a,
	       EAFNOSUPPORT);
	good_add(&a, "rcbad0");
	a.src.ss_family = AF_INET6;
	expect("add: a source of another family is EINVAL", RDMACHAN_IOC_NET_ADD, &a,
	       EINVAL);
	good_add(&a, "rcbad0");
	a.max_msg_size = 100;
	expect("add: 100-byte messages are EINVAL", RDMACHAN_IOC_NET_ADD, &a, EINVAL);
	good_add(&a, "rcbad0");
	a.max_msg_size = 4096;
	a.mtu = 9000;
	expect("add: an MTU above the message size is EINVAL", RDMACHAN_IOC_NET_ADD, &a,
	       EINVAL);
	good_add(&a, "rcbad0");
	a.mtu = 20;
	expect("add: MTU 20 is EINVAL", RDMACHAN_IOC_NET_ADD, &a, EINVAL);
	good_add(&a, "rcbad0");
	a.reconnect_delay_ms = 5;
	expect("add: a 5 ms reconnect delay is EINVAL", RDMACHAN_IOC_NET_ADD, &a, EINVAL);
	good_add(&a, argv[1]);
	expect("add: the name of an existing interface is EEXIST", RDMACHAN_IOC_NET_ADD,
	       &a, EEXIST);
	good_add(&a, "lo");
	expect("add: the name of another interface (lo) is EEXIST",
	       RDMACHAN_IOC_NET_ADD, &a, EEXIST);
	good_add(&a, "rcbad0");
	a.mode = RDMACHAN_NET_LISTEN;
	inet_pton(AF_INET, "203.0.113.9", &((struct sockaddr_in *)&a.addr)->sin_addr);
	{
		int ret = ioctl(ctl, RDMACHAN_IOC_NET_ADD, &a);
		int err = errno;

		ktap_result(ret < 0 && err != EINVAL,
			    "add: listening on an address of no device fails",
			    "returned %d errno %d (%s)", ret, ret < 0 ? err : 0,
			    ret < 0 ? strerror(err) : "-");
		if (!ret) {
			memset(&d, 0, sizeof(d));
			d.size = sizeof(d);
			strcpy(d.name, "rcbad0");
			ioctl(ctl, RDMACHAN_IOC_NET_DEL, &d);
		}
	}
	expect("add: a NULL argument is EFAULT", RDMACHAN_IOC_NET_ADD, NULL, EFAULT);

	memset(&d, 0, sizeof(d));
	d.size = sizeof(d);
	strcpy(d.name, "rcnone9");
	expect("del: no such interface is ENODEV", RDMACHAN_IOC_NET_DEL, &d, ENODEV);
	strcpy(d.name, "lo");
	expect("del: lo (not ours) is ENODEV", RDMACHAN_IOC_NET_DEL, &d, ENODEV);
	snprintf(d.name, sizeof(d.name), "%s", argv[1]);
	d.flags = 1;
	expect("del: unknown flags are EINVAL", RDMACHAN_IOC_NET_DEL, &d, EINVAL);
	d.flags = 0;
	d.size = 3;
	expect("del: a wrong size is EINVAL", RDMACHAN_IOC_NET_DEL, &d, EINVAL);

	memset(&l, 0, sizeof(l));
	l.size = sizeof(l);
	l.entry_size = sizeof(info) - 8;
	l.count = 1;
	l.entries = (uintptr_t)&info;
	expect("list: a wrong entry size is EINVAL", RDMACHAN_IOC_NET_LIST, &l, EINVAL);
	l.entry_size = sizeof(info);
	l.entries = 16;
	expect("list: a bad entries pointer is EFAULT", RDMACHAN_IOC_NET_LIST, &l, EFAULT);
	l.entries = 0;
	expect("list: room with a null array is EINVAL", RDMACHAN_IOC_NET_LIST, &l, EINVAL);
	l.count = 0;
	l.entries = 0;
	ktap_result(!ioctl(ctl, RDMACHAN_IOC_NET_LIST, &l) && l.count >= 1,
		    "list: no room counts the interfaces", "count %u", l.count);
	expect("an unknown ioctl of the net range is ENOTTY",
	       _IOW(RDMACHAN_IOC_MAGIC, 0x9e, struct rdmachan_net_del), &d, ENOTTY);
	close(ctl);
	return ktap_plan(ktap_failures() ? 1 : 0);
}
