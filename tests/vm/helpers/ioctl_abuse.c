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
 *        ioctl_abuse blk SERVER CLIENT EXPORT
 *                                   the block channel's ioctls
 *                                   (rdmachan_blk loaded, EXPORT exported
 *                                   read-write to CLIENT on SERVER, no
 *                                   disk mapped): the errors of
 *                                   Documentation/ioctl.rst's table, a
 *                                   MAP whose argument is read-only, and
 *                                   a LIST whose user buffer stalls
 *                                   (userfaultfd) holding up no other
 *                                   call
 *
 * Run with DEVICE_COUNT it reports each check in KTAP (ktap.h), which
 * the guest test library's run_checks reads.  Exit status: 0 if every
 * check passed.
 */
#define _GNU_SOURCE
#include <arpa/inet.h>
#include <errno.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <poll.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#include <linux/rdmachan.h>
#include <linux/rdmachan_blk.h>
#include <linux/userfaultfd.h>

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

/* ---- the block channel's ioctls (ioctl_abuse blk ...) ------------------ */

static const char *blk_srv, *blk_cli, *blk_export;

/* blk_count: exports or mappings there are (LIST with count 0), or -1 */
static int blk_count(int fd, unsigned int what)
{
	struct rdmachan_blk_list l = {
		.size = sizeof(l), .what = what,
		.entry_size = what == RDMACHAN_BLK_LIST_MAPS ?
			sizeof(struct rdmachan_blk_map_info) :
			sizeof(struct rdmachan_blk_export_info),
	};

	return ioctl(fd, RDMACHAN_IOC_BLK_LIST, &l) < 0 ? -1 : (int)l.count;
}

static void blk_list_init(struct rdmachan_blk_list *l, unsigned int what, void *entries,
			  unsigned int count)
{
	memset(l, 0, sizeof(*l));
	l->size = sizeof(*l);
	l->what = what;
	l->count = count;
	l->entry_size = what == RDMACHAN_BLK_LIST_MAPS ? sizeof(struct rdmachan_blk_map_info) :
		sizeof(struct rdmachan_blk_export_info);
	l->entries = (unsigned long)entries;
}

static void blk_map_init(struct rdmachan_blk_map *m)
{
	struct sockaddr_in *srv = (struct sockaddr_in *)&m->server;
	struct sockaddr_in *src = (struct sockaddr_in *)&m->src;

	memset(m, 0, sizeof(*m));
	m->size = sizeof(*m);
	srv->sin_family = AF_INET;
	inet_pton(AF_INET, blk_srv, &srv->sin_addr);
	src->sin_family = AF_INET;
	inet_pton(AF_INET, blk_cli, &src->sin_addr);
	snprintf(m->name, sizeof(m->name), "%s", blk_export);
	m->nr_queues = 1;
}

static int blk_unmap(int fd, unsigned int index)
{
	struct rdmachan_blk_unmap u = {
		.size = sizeof(u), .flags = RDMACHAN_BLK_FORCE, .index = index,
	};

	return ioctl(fd, RDMACHAN_IOC_BLK_UNMAP, &u);
}

static void check_blk_errors(int fd)
{
	struct rdmachan_blk_export e;
	struct rdmachan_blk_list l;
	struct rdmachan_blk_map m, *rom;
	int before;

	blk_list_init(&l, RDMACHAN_BLK_LIST_EXPORTS, NULL, 4);
	expect_errno(fd, RDMACHAN_IOC_BLK_LIST, &l, EINVAL,
		     "BLK_LIST of exports with a count but NULL entries gives EINVAL");
	blk_list_init(&l, RDMACHAN_BLK_LIST_MAPS, NULL, 1);
	expect_errno(fd, RDMACHAN_IOC_BLK_LIST, &l, EINVAL,
		     "BLK_LIST of maps with a count but NULL entries gives EINVAL");
	blk_list_init(&l, RDMACHAN_BLK_LIST_EXPORTS, NULL, 0);
	expect_ok(fd, RDMACHAN_IOC_BLK_LIST, &l, "BLK_LIST with count 0 and NULL entries succeeds");
	ktap_result(l.count >= 1, "BLK_LIST with count 0 counts the exports", "count %u",
		    l.count);
	blk_list_init(&l, RDMACHAN_BLK_LIST_EXPORTS, noaccess, 4);
	expect_errno(fd, RDMACHAN_IOC_BLK_LIST, &l, EFAULT,
		     "BLK_LIST with an unmapped array gives EFAULT");

	/* export names: [A-Za-z0-9._-] only, not Latin-1 letters */
	memset(&e, 0, sizeof(e));
	e.size = sizeof(e);
	strcpy(e.name, "x\xe9");
	strcpy(e.path, "/dev/null");
	expect_errno(fd, RDMACHAN_IOC_BLK_EXPORT, &e, EINVAL,
		     "BLK_EXPORT of the name \"x\\xe9\" (a Latin-1 letter) gives EINVAL");
	strcpy(e.name, "\xc0\xff");
	expect_errno(fd, RDMACHAN_IOC_BLK_EXPORT, &e, EINVAL,
		     "BLK_EXPORT of the name \"\\xc0\\xff\" gives EINVAL");

	/* MAP: an output field set on input; an argument in read-only memory */
	before = blk_count(fd, RDMACHAN_BLK_LIST_MAPS);
	blk_map_init(&m);
	m.index = 7;
	expect_errno(fd, RDMACHAN_IOC_BLK_MAP, &m, EINVAL,
		     "BLK_MAP with its output field index set gives EINVAL");
	ktap_result(blk_count(fd, RDMACHAN_BLK_LIST_MAPS) == before,
		    "the refused BLK_MAP made no disk", "%d maps, %d before",
		    blk_count(fd, RDMACHAN_BLK_LIST_MAPS), before);
	rom = mmap(NULL, 4096, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (rom == MAP_FAILED) {
		ktap_result(0, "BLK_MAP with its argument in read-only memory gives EFAULT",
			    "mmap: %s", strerror(errno));
		return;
	}
	blk_map_init(rom);
	mprotect(rom, 4096, PROT_READ);
	expect_errno(fd, RDMACHAN_IOC_BLK_MAP, rom, EFAULT,
		     "BLK_MAP with its argument in read-only memory gives EFAULT");
	ktap_result(blk_count(fd, RDMACHAN_BLK_LIST_MAPS) == before,
		    "the BLK_MAP that failed with EFAULT left no disk", "%d maps, %d before",
		    blk_count(fd, RDMACHAN_BLK_LIST_MAPS), before);
	/* whatever it left (before the fix: a disk) goes */
	if (blk_count(fd, RDMACHAN_BLK_LIST_MAPS) > before) {
		struct rdmachan_blk_map_info mi[8];
		int i;

		blk_list_init(&l, RDMACHAN_BLK_LIST_MAPS, mi, 8);
		if (!ioctl(fd, RDMACHAN_IOC_BLK_LIST, &l))
			for (i = 0; i < (int)l.count && i < 8; i++)
				blk_unmap(fd, mi[i].index);
	}
	munmap(rom, 4096);
}

/* ---- a LIST whose user buffer stalls ---- */

struct blk_call {
	int fd;
	unsigned long cmd;
	void *arg;
	int ret, err;
	volatile int done;
};

static void *blk_call_run(void *p)
{
	struct blk_call *c = p;

	c->ret = ioctl(c->fd, c->cmd, c->arg);
	c->err = errno;
	c->done = 1;
	return NULL;
}

static int blk_wait_done(struct blk_call *c, int ms)
{
	struct timespec ts = { 0, 10 * 1000 * 1000 };

	for (; ms > 0 && !c->done; ms -= 10)
		nanosleep(&ts, NULL);
	return c->done;
}

/*
 * check_blk_stall: LIST @what into a page that userfaultfd keeps missing,
 * so that its copy to user memory stalls; meanwhile @other (an ioctl that
 * takes the same side's mutex) must return.  Then the page is supplied
 * and the LIST returns.
 */
static void check_blk_stall(int fd, unsigned int what, unsigned long other_cmd, void *other,
			    const char *title)
{
	struct uffdio_api api = { .api = UFFD_API };
	struct uffdio_register reg;
	struct uffdio_zeropage zp;
	struct blk_call list = { .fd = fd, .cmd = RDMACHAN_IOC_BLK_LIST };
	struct blk_call call = { .fd = fd, .cmd = other_cmd, .arg = other };
	struct rdmachan_blk_list l;
	struct uffd_msg msg;
	struct pollfd pfd;
	pthread_t tl, tc;
	size_t len = 16 * 4096;
	int uffd, faulted, went;
	char *buf;

	uffd = syscall(SYS_userfaultfd, O_CLOEXEC | O_NONBLOCK);
	if (uffd < 0 || ioctl(uffd, UFFDIO_API, &api)) {
		ktap_diag("userfaultfd: %s: the stalled LIST is left out", strerror(errno));
		return;
	}
	buf = mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	reg.range.start = (unsigned long)buf;
	reg.range.len = len;
	reg.mode = UFFDIO_REGISTER_MODE_MISSING;
	if (buf == MAP_FAILED || ioctl(uffd, UFFDIO_REGISTER, &reg)) {
		ktap_diag("UFFDIO_REGISTER: %s: the stalled LIST is left out", strerror(errno));
		close(uffd);
		return;
	}
	blk_list_init(&l, what, buf, 8);
	list.arg = &l;
	pthread_create(&tl, NULL, blk_call_run, &list);
	pfd.fd = uffd;
	pfd.events = POLLIN;
	faulted = poll(&pfd, 1, 10000) == 1 && read(uffd, &msg, sizeof(msg)) == sizeof(msg) &&
		  msg.event == UFFD_EVENT_PAGEFAULT;
	ktap_result(faulted && !list.done, "BLK_LIST into a missing userfaultfd page stalls",
		    "%s", faulted ? "it returned" : "no fault came");
	went = 0;
	if (faulted) {
		pthread_create(&tc, NULL, blk_call_run, &call);
		went = blk_wait_done(&call, 5000);
	}
	ktap_result(went, title, "%s", faulted ? "it waited 5 s for the stalled LIST" :
		    "not tried");
	/* supply every page: the LIST (and the call behind it) end */
	zp.range.start = (unsigned long)buf;
	zp.range.len = len;
	zp.mode = 0;
	ioctl(uffd, UFFDIO_ZEROPAGE, &zp);
	pthread_join(tl, NULL);
	if (faulted)
		pthread_join(tc, NULL);
	ktap_result(list.ret == 0 && l.count >= 1,
		    "the stalled BLK_LIST returns once its page is there",
		    "returned %d errno %d, count %u", list.ret, list.err, l.count);
	close(uffd);
	munmap(buf, len);
}

static int blk_main(int argc, char **argv)
{
	struct rdmachan_blk_unexport ux = { .size = sizeof(ux) };
	struct rdmachan_blk_unmap um = {
		.size = sizeof(um), .flags = RDMACHAN_BLK_FORCE, .index = 4000000,
	};
	struct rdmachan_blk_map m;
	int fd, mapped;

	if (argc != 5) {
		fprintf(stderr, "usage: %s blk SERVER CLIENT EXPORT\n", argv[0]);
		return 2;
	}
	blk_srv = argv[2];
	blk_cli = argv[3];
	blk_export = argv[4];
	ktap_header();
	noaccess = mmap(NULL, 4096, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	fd = open(CTL, O_RDWR);
	ktap_result(fd >= 0, "open " CTL, "%s", strerror(errno));
	if (fd < 0 || noaccess == MAP_FAILED)
		return ktap_plan(1);
	check_blk_errors(fd);

	/* a good MAP: its index comes back; the stalls need a mapping */
	blk_map_init(&m);
	mapped = ioctl(fd, RDMACHAN_IOC_BLK_MAP, &m) == 0;
	ktap_result(mapped, "BLK_MAP of the export succeeds", "%s", strerror(errno));
	strcpy(ux.name, "no-such-export");
	check_blk_stall(fd, RDMACHAN_BLK_LIST_EXPORTS, RDMACHAN_IOC_BLK_UNEXPORT, &ux,
			"a BLK_UNEXPORT returns while a BLK_LIST of exports stalls on its buffer");
	if (mapped)
		check_blk_stall(fd, RDMACHAN_BLK_LIST_MAPS, RDMACHAN_IOC_BLK_UNMAP, &um,
				"a BLK_UNMAP returns while a BLK_LIST of maps stalls on its buffer");
	if (mapped)
		ktap_result(blk_unmap(fd, m.index) == 0, "BLK_UNMAP of the mapping",
			    "%s", strerror(errno));
	close(fd);
	return ktap_plan(ktap_failures() ? 1 : 0);
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
	if (argc >= 2 && !strcmp(argv[1], "blk"))
		return blk_main(argc, argv);
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
