// SPDX-License-Identifier: GPL-2.0-only
/*
 * ioctl_abuse: feed /dev/rdmachan every malformed ioctl argument we can
 * think of and check each is refused with the documented errno, and that
 * nothing the kernel copies out carries stale kernel memory.
 *
 * Usage: ioctl_abuse DEVICE_COUNT   run every check, expecting that many
 *                                   RDMA devices (the first named rxe0)
 *        ioctl_abuse open-as UID    open /dev/rdmachan as UID, print the
 *                                   errno name (or "OK")
 *        ioctl_abuse run-as UID CMD [ARGS...]
 *                                   run CMD as UID (busybox has no chpst)
 *
 * Run with DEVICE_COUNT it reports each check in KTAP (ktap.h), which
 * the guest test library's run_checks reads.  Exit status: 0 if every
 * check passed.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <unistd.h>

#include <linux/rdmachan.h>

#include "ktap.h"

#define CTL "/dev/" RDMACHAN_DEVICE_NAME

static void *noaccess;	/* a page that faults on any access */

/* expect_errno: the ioctl must fail with exactly @want */
static void expect_errno(int fd, unsigned long cmd, void *arg, int want,
			 const char *what)
{
	int ret = ioctl(fd, cmd, arg);
	int err = errno;

	ktap_result(ret == -1 && err == want, what, "returned %d errno %s, want %s",
	       ret, ret ? strerrorname_np(err) : "-", strerrorname_np(want));
}

static void expect_ok(int fd, unsigned long cmd, void *arg, const char *what)
{
	int ret = ioctl(fd, cmd, arg);
	int err = errno;

	ktap_result(ret == 0, what, "returned %d errno %s", ret,
	       ret ? strerrorname_np(err) : "-");
}

static int all_zero(const void *p, size_t n)
{
	const unsigned char *c = p;

	while (n--)
		if (*c++)
			return 0;
	return 1;
}

static void check_dispatch(int fd)
{
	struct rdmachan_version v = { .size = sizeof(v) };

	expect_errno(fd, _IOWR(RDMACHAN_IOC_MAGIC, 0x7f, struct rdmachan_version),
		     &v, ENOTTY, "unknown ioctl number gives ENOTTY");
	expect_errno(fd, _IOWR('x', 0x00, struct rdmachan_version), &v, ENOTTY,
		     "foreign ioctl magic gives ENOTTY");
	expect_errno(fd, _IOWR(RDMACHAN_IOC_MAGIC, 0x00, char[8]), &v, ENOTTY,
		     "VERSION with wrong size in the command gives ENOTTY");
	expect_errno(fd, _IO(RDMACHAN_IOC_MAGIC, 0x00), NULL, ENOTTY,
		     "VERSION without direction bits gives ENOTTY");
}

static void check_version(int fd, unsigned int ndev)
{
	struct rdmachan_version v;

	expect_errno(fd, RDMACHAN_IOC_VERSION, NULL, EFAULT,
		     "VERSION with NULL argument gives EFAULT");
	expect_errno(fd, RDMACHAN_IOC_VERSION, noaccess, EFAULT,
		     "VERSION with unmapped argument gives EFAULT");

	memset(&v, 0, sizeof(v));
	expect_errno(fd, RDMACHAN_IOC_VERSION, &v, EINVAL,
		     "VERSION with size 0 gives EINVAL");
	v.size = sizeof(v) - 4;
	expect_errno(fd, RDMACHAN_IOC_VERSION, &v, EINVAL,
		     "VERSION with short size gives EINVAL");
	v.size = sizeof(v) + 8;
	expect_errno(fd, RDMACHAN_IOC_VERSION, &v, EINVAL,
		     "VERSION with long size gives EINVAL");
	v.size = sizeof(v);
	v.reserved[6] = 1;
	expect_errno(fd, RDMACHAN_IOC_VERSION, &v, EINVAL,
		     "VERSION with non-zero reserved gives EINVAL");

	memset(&v, 0, sizeof(v));
	v.size = sizeof(v);
	expect_ok(fd, RDMACHAN_IOC_VERSION, &v, "VERSION succeeds");
	ktap_result(v.abi_version == RDMACHAN_ABI_VERSION, "VERSION reports ABI 1",
	       "abi_version %u", v.abi_version);
	ktap_result((v.features & (RDMACHAN_FEAT_DEV_LIST | RDMACHAN_FEAT_DEV_QUERY)) ==
	       (RDMACHAN_FEAT_DEV_LIST | RDMACHAN_FEAT_DEV_QUERY),
	       "VERSION reports dev_list and dev_query features",
	       "features 0x%llx", (unsigned long long)v.features);
	ktap_result(v.device_count == ndev, "VERSION counts the devices",
	       "device_count %u, want %u", v.device_count, ndev);
	ktap_result(v.size == sizeof(v) && all_zero(v.reserved, sizeof(v.reserved)),
	       "VERSION output has zero reserved fields", "size %u", v.size);
}

static void list_init(struct rdmachan_dev_list *l, void *entries,
		      unsigned int capacity)
{
	memset(l, 0, sizeof(*l));
	l->size = sizeof(*l);
	l->capacity = capacity;
	l->entries = (unsigned long)entries;
}

static void check_dev_list(int fd, unsigned int ndev)
{
	struct rdmachan_dev_entry e[8];
	struct rdmachan_dev_list l;
	unsigned int i;
	int clean = 1;

	list_init(&l, NULL, 0);
	expect_ok(fd, RDMACHAN_IOC_DEV_LIST, &l, "DEV_LIST with capacity 0 succeeds");
	ktap_result(l.count == ndev, "DEV_LIST with capacity 0 returns the count",
	       "count %u, want %u", l.count, ndev);

	list_init(&l, NULL, 0);
	l.size = 0;
	expect_errno(fd, RDMACHAN_IOC_DEV_LIST, &l, EINVAL,
		     "DEV_LIST with size 0 gives EINVAL");
	list_init(&l, NULL, 0);
	l.reserved[4] = 0xdead;
	expect_errno(fd, RDMACHAN_IOC_DEV_LIST, &l, EINVAL,
		     "DEV_LIST with non-zero reserved gives EINVAL");
	list_init(&l, NULL, 0);
	l.count = 3;
	expect_errno(fd, RDMACHAN_IOC_DEV_LIST, &l, EINVAL,
		     "DEV_LIST with non-zero output count gives EINVAL");
	list_init(&l, NULL, 4);
	expect_errno(fd, RDMACHAN_IOC_DEV_LIST, &l, EINVAL,
		     "DEV_LIST with capacity but NULL array gives EINVAL");
	expect_errno(fd, RDMACHAN_IOC_DEV_LIST, noaccess, EFAULT,
		     "DEV_LIST with unmapped argument gives EFAULT");
	if (ndev) {
		list_init(&l, noaccess, 8);
		expect_errno(fd, RDMACHAN_IOC_DEV_LIST, &l, EFAULT,
			     "DEV_LIST with unmapped array gives EFAULT");
	}

	/* Partial fill: only the first entry is written. */
	memset(e, 0xa5, sizeof(e));
	list_init(&l, e, 1);
	expect_ok(fd, RDMACHAN_IOC_DEV_LIST, &l, "DEV_LIST with capacity 1 succeeds");
	ktap_result(l.count == ndev, "DEV_LIST with capacity 1 still returns the full count",
	       "count %u, want %u", l.count, ndev);
	ktap_result(ndev < 1 || (e[1].name[0] == (char)0xa5 && e[1].index == 0xa5a5a5a5),
	       "DEV_LIST writes no more entries than the capacity", "entry 1 written");

	/* A huge capacity with a buffer only as large as the device count. */
	memset(e, 0xff, sizeof(e));
	list_init(&l, e, 0xffffffffu);
	if (ndev <= 8) {
		expect_ok(fd, RDMACHAN_IOC_DEV_LIST, &l,
			  "DEV_LIST with capacity 0xffffffff writes only the devices");
		for (i = 0; i < ndev; i++) {
			size_t n = strnlen(e[i].name, sizeof(e[i].name));

			if (n == sizeof(e[i].name) ||
			    !all_zero(e[i].name + n, sizeof(e[i].name) - n) ||
			    !all_zero(e[i].reserved, sizeof(e[i].reserved)))
				clean = 0;
		}
		ktap_result(clean, "DEV_LIST entries are NUL-padded with zero reserved fields",
		       "stale bytes in an entry");
		ktap_result(ndev < 1 || !strcmp(e[0].name, "rxe0"),
		       "DEV_LIST names rxe0 first", "first is '%.64s'", e[0].name);
		ktap_result(ndev < 1 || e[0].port_count == 1,
		       "DEV_LIST reports one port for rxe0", "port_count %u",
		       e[0].port_count);
		ktap_result(ndev < 1 || e[0].node_type == RDMACHAN_NODE_CA,
		       "DEV_LIST reports node type CA for rxe0", "node_type %u",
		       e[0].node_type);
	}
}

static void query_init(struct rdmachan_dev_query *q, const char *name,
		       void *ports, unsigned int capacity)
{
	memset(q, 0, sizeof(*q));
	q->size = sizeof(*q);
	strncpy(q->name, name, sizeof(q->name) - 1);
	q->ports = (unsigned long)ports;
	q->port_capacity = capacity;
}

static void check_dev_query(int fd, unsigned int ndev)
{
	struct rdmachan_port_attr p[2];
	struct rdmachan_dev_query q;

	query_init(&q, "nosuchdev", NULL, 0);
	expect_errno(fd, RDMACHAN_IOC_DEV_QUERY, &q, ENODEV,
		     "DEV_QUERY of an unknown device gives ENODEV");
	query_init(&q, "", NULL, 0);
	expect_errno(fd, RDMACHAN_IOC_DEV_QUERY, &q, EINVAL,
		     "DEV_QUERY with an empty name gives EINVAL");
	query_init(&q, "", NULL, 0);
	memset(q.name, 'a', sizeof(q.name));
	expect_errno(fd, RDMACHAN_IOC_DEV_QUERY, &q, EINVAL,
		     "DEV_QUERY with an unterminated name gives EINVAL");
	query_init(&q, "rxe0", NULL, 0);
	q.size = sizeof(q) + 4;
	expect_errno(fd, RDMACHAN_IOC_DEV_QUERY, &q, EINVAL,
		     "DEV_QUERY with a wrong size gives EINVAL");
	query_init(&q, "rxe0", NULL, 0);
	q.vendor_id = 1;
	expect_errno(fd, RDMACHAN_IOC_DEV_QUERY, &q, EINVAL,
		     "DEV_QUERY with a non-zero output field gives EINVAL");
	query_init(&q, "rxe0", NULL, 0);
	q.reserved[7] = 1;
	expect_errno(fd, RDMACHAN_IOC_DEV_QUERY, &q, EINVAL,
		     "DEV_QUERY with non-zero reserved gives EINVAL");
	query_init(&q, "rxe0", NULL, 1);
	expect_errno(fd, RDMACHAN_IOC_DEV_QUERY, &q, EINVAL,
		     "DEV_QUERY with port capacity but NULL array gives EINVAL");
	expect_errno(fd, RDMACHAN_IOC_DEV_QUERY, NULL, EFAULT,
		     "DEV_QUERY with NULL argument gives EFAULT");
	if (!ndev)
		return;

	query_init(&q, "rxe0", noaccess, 1);
	expect_errno(fd, RDMACHAN_IOC_DEV_QUERY, &q, EFAULT,
		     "DEV_QUERY with unmapped port array gives EFAULT");

	query_init(&q, "rxe0", NULL, 0);
	expect_ok(fd, RDMACHAN_IOC_DEV_QUERY, &q, "DEV_QUERY without ports succeeds");
	ktap_result(q.port_count == 1, "DEV_QUERY counts rxe0's port", "port_count %u",
	       q.port_count);

	memset(p, 0xff, sizeof(p));
	query_init(&q, "rxe0", p, 2);
	expect_ok(fd, RDMACHAN_IOC_DEV_QUERY, &q, "DEV_QUERY with ports succeeds");
	ktap_result(p[0].port_num == 1 && p[0].state == RDMACHAN_PORT_ACTIVE,
	       "DEV_QUERY reports port 1 ACTIVE", "port %u state %u",
	       p[0].port_num, p[0].state);
	ktap_result(p[0].protocol == RDMACHAN_PROTO_ROCE &&
	       p[0].link_layer == RDMACHAN_LINK_ETHERNET,
	       "DEV_QUERY reports RoCE over Ethernet", "protocol %u link %u",
	       p[0].protocol, p[0].link_layer);
	ktap_result(p[0].gid_valid == 1 && p[0].gid[0] == 0xfe && p[0].gid[1] == 0x80,
	       "DEV_QUERY reports a link-local GID 0", "gid_valid %u gid %02x%02x",
	       p[0].gid_valid, p[0].gid[0], p[0].gid[1]);
	ktap_result(all_zero(p[0].reserved, sizeof(p[0].reserved)),
	       "DEV_QUERY port reserved fields are zero", "stale bytes");
	ktap_result(p[1].port_num == 0xffffffffu,
	       "DEV_QUERY writes no more ports than the device has",
	       "port 2 written");
	ktap_result(q.reserved0 == 0 && all_zero(q.reserved, sizeof(q.reserved)),
	       "DEV_QUERY reserved fields are zero on output", "stale bytes");
	ktap_result(q.max_qp > 0 && q.max_qp_wr > 0 && q.max_send_sge > 0 &&
	       q.max_cqe > 0 && q.max_mr > 0 && q.max_pd > 0,
	       "DEV_QUERY reports non-zero verbs limits",
	       "max_qp %u max_qp_wr %u", q.max_qp, q.max_qp_wr);
	ktap_result(q.max_inline_data > 0, "DEV_QUERY reports the probed inline limit",
	       "max_inline_data %u", q.max_inline_data);
}

static int open_as(const char *uid)
{
	int fd;

	if (setgid(atoi(uid)) || setuid(atoi(uid))) {
		perror("setuid");
		return 2;
	}
	fd = open(CTL, O_RDWR);
	if (fd < 0) {
		printf("%s\n", strerrorname_np(errno));
		return 1;
	}
	printf("OK\n");
	close(fd);
	return 0;
}

int main(int argc, char **argv)
{
	unsigned int ndev;
	int fd;

	if (argc == 3 && !strcmp(argv[1], "open-as"))
		return open_as(argv[2]);
	if (argc >= 4 && !strcmp(argv[1], "run-as")) {
		if (setgid(atoi(argv[2])) || setuid(atoi(argv[2]))) {
			perror("setuid");
			return 2;
		}
		execv(argv[3], argv + 3);
		perror(argv[3]);
		return 127;
	}
	if (argc != 2) {
		fprintf(stderr, "usage: %s DEVICE_COUNT | open-as UID | run-as UID CMD...\n", argv[0]);
		return 2;
	}
	ndev = strtoul(argv[1], NULL, 0);
	ktap_header();

	noaccess = mmap(NULL, 4096, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (noaccess == MAP_FAILED) {
		perror("mmap");
		return 2;
	}
	fd = open(CTL, O_RDWR);
	ktap_result(fd >= 0, "open " CTL, "%s", strerror(errno));
	if (fd < 0)
		return ktap_plan(1);

	check_dispatch(fd);
	check_version(fd, ndev);
	check_dev_list(fd, ndev);
	check_dev_query(fd, ndev);
	close(fd);
	return ktap_plan(ktap_failures() ? 1 : 0);
}
