// SPDX-License-Identifier: GPL-2.0-only
/*
 * fuzz_blk.c: the fuzzer's calls on the block channel (rdmachan_blk):
 * EXPORT, UNEXPORT, MAP, UNMAP and LIST, I/O on the mapped disks, and
 * the parent's cleanup of what is left (blk_cleanup()).
 */
#define _GNU_SOURCE
#include <arpa/inet.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <netinet/in.h>
#include <poll.h>
#include <signal.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/epoll.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/select.h>
#include <sys/stat.h>
#include <sys/time.h>
#include <sys/uio.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <linux/rdmachan.h>
#include <linux/rdmachan_blk.h>
#include <linux/rdmachan_net.h>

#include "chanlib.h"
#include "fuzz.h"

/* ---- the block channel (rdmachan_blk) -------------------------------- */

struct blkshared *blk_sh;	/* what the workers share of it (fuzz.h) */

static const char *const blk_names[] = { "fz0", "fz1", "fz2", "fz3" };

static int blk_trylock(uint32_t *l)
{
	uint32_t free = 0;

	return __atomic_compare_exchange_n(l, &free, 1, 0, __ATOMIC_ACQUIRE,
					   __ATOMIC_RELAXED);
}

static void blk_unlock(uint32_t *l)
{
	__atomic_store_n(l, 0, __ATOMIC_RELEASE);
}

static uint32_t blk_entry_size(uint32_t what)
{
	return what == RDMACHAN_BLK_LIST_MAPS ?
		sizeof(struct rdmachan_blk_map_info) :
		sizeof(struct rdmachan_blk_export_info);
}

/*
 * blk_list: LIST @what into @entries (room for @room), as a recorded
 * call on a control descriptor; the count, or -1 (errno set)
 */
static int blk_list(uint32_t what, void *entries, uint32_t room)
{
	struct rdmachan_blk_list l = {
		.size = sizeof(l), .what = what, .count = room,
		.entry_size = blk_entry_size(what), .entries = (uintptr_t)entries,
	};
	int slot = pick_slot(T_CTL);

	if (slot < 0) {
		errno = EBADF;
		return -1;
	}
	if (do_ioctl(OP_BLK_LIST, slot, pool[slot].fd, RDMACHAN_IOC_BLK_LIST,
		     &l, &l, sizeof(l), 0) < 0)
		return -1;
	return l.count;
}

/*
 * blk_room: may a call make one more of @what (LIST_EXPORTS or
 * LIST_MAPS)?  Asked with its lock held: fewer than BLK_MAX_LIVE there,
 * or the module is not loaded (nothing can be made).
 */
static int blk_room(uint32_t what)
{
	int n = blk_list(what, NULL, 0);

	return n < 0 ? errno == ENOTTY : n < BLK_MAX_LIVE;
}

/* blk_note_index: remember a mapping made (or forget one, @gone) */
static void blk_note_index(int32_t index, int gone)
{
	if (!gone) {
		uint32_t k = __atomic_fetch_add(&blk_sh->idx_next, 1, __ATOMIC_RELAXED);

		__atomic_store_n(&blk_sh->idx[k % BLK_RING], index, __ATOMIC_RELAXED);
		return;
	}
	for (int k = 0; k < BLK_RING; k++) {
		int32_t v = index;

		if (__atomic_compare_exchange_n(&blk_sh->idx[k], &v, -1, 0,
						__ATOMIC_RELAXED, __ATOMIC_RELAXED))
			return;
	}
}

/*
 * blk_pick_index: the index of a mapping that is likely live: one made
 * by a worker, or one LIST names; -1 when none is known
 */
static int32_t blk_pick_index(void)
{
	struct rdmachan_blk_map_info *mi =
		(void *)(scratch + SCRATCH_LEN - 448 * 1024);
	int32_t cand[BLK_RING];
	int n = 0;

	if (chance(50)) {
		for (int k = 0; k < BLK_RING; k++) {
			int32_t v = __atomic_load_n(&blk_sh->idx[k], __ATOMIC_RELAXED);

			if (v >= 0)
				cand[n++] = v;
		}
		if (n)
			return cand[rnd(n)];
	}
	n = blk_list(RDMACHAN_BLK_LIST_MAPS, mi, BLK_RING);
	if (n <= 0)
		return -1;
	return mi[rnd(n < BLK_RING ? n : BLK_RING)].index;
}

/* blk_note_name: remember an export made, or forget one (@gone) */
static void blk_note_name(const char *name, int gone)
{
	if (!gone) {
		uint32_t k = __atomic_fetch_add(&blk_sh->name_next, 1, __ATOMIC_RELAXED);

		memcpy(blk_sh->names[k % BLK_RING], name, RDMACHAN_BLK_NAME_MAX);
		blk_sh->names[k % BLK_RING][RDMACHAN_BLK_NAME_MAX - 1] = 0;
		return;
	}
	for (int k = 0; k < BLK_RING; k++)
		if (!strncmp(blk_sh->names[k], name, RDMACHAN_BLK_NAME_MAX))
			blk_sh->names[k][0] = 0;
}

/* blk_live_name: the name of an export LIST names now, in @n; 0 or -1 */
static int blk_live_name(char *n)
{
	struct rdmachan_blk_export_info *ei =
		(void *)(scratch + SCRATCH_LEN - 440 * 1024);
	int k = blk_list(RDMACHAN_BLK_LIST_EXPORTS, ei, BLK_RING);

	if (k <= 0)
		return -1;
	memcpy(n, ei[rnd(k < BLK_RING ? k : BLK_RING)].name, RDMACHAN_BLK_NAME_MAX);
	n[RDMACHAN_BLK_NAME_MAX - 1] = 0;
	return 0;
}

/*
 * blk_name: an export name: mostly one of blk_names (what EXPORT makes,
 * so MAP and UNEXPORT find it) or one an EXPORT made; else valid names
 * nobody exports, and bad ones: empty, ".", "..", a slash, a space or
 * a control character, unterminated, random bytes
 */
static void blk_name(char *n)
{
	static const char *const odd[] = {
		"nosuch", "a", "fz-x.y_Z9", "FZ0", "fz0.", "-", "_",
	};
	static const char *const bad_names[] = {
		"", ".", "..", "a/b", "/", "fz0 ", " fz0", "fz\n0", "fz0\x7f",
		"\xff\xfe", "../fz0", "fz%s%n",
	};
	uint32_t r = rnd(100);

	memset(n, 0, RDMACHAN_BLK_NAME_MAX);
	if (r < 70) {
		strcpy(n, blk_names[rnd(ARRAY_SIZE(blk_names))]);
	} else if (r < 82) {
		const char *s = blk_sh->names[rnd(BLK_RING)];

		memcpy(n, s, RDMACHAN_BLK_NAME_MAX);
		n[RDMACHAN_BLK_NAME_MAX - 1] = 0;
		if (!n[0])
			strcpy(n, blk_names[rnd(ARRAY_SIZE(blk_names))]);
	} else if (r < 88) {
		strcpy(n, odd[rnd(ARRAY_SIZE(odd))]);
	} else if (r < 91) {
		/* the longest valid name, 63 characters */
		for (int i = 0; i < RDMACHAN_BLK_NAME_MAX - 1; i++)
			n[i] = "abcdefghijklmnopqrstuvwxyz0123456789._-"[rnd(39)];
	} else if (r < 94) {
		memset(n, chance(50) ? 'x' : 0xff, RDMACHAN_BLK_NAME_MAX);
	} else if (r < 96) {
		for (int i = 0; i < RDMACHAN_BLK_NAME_MAX; i++)
			n[i] = rnd64();
	} else {
		strcpy(n, bad_names[rnd(ARRAY_SIZE(bad_names))]);
	}
}

/*
 * blk_path: a backing device for EXPORT: one of --blk-dev's mostly (a
 * real device, free or exported already), a mapped /dev/rcblkN at times
 * (a disk of this very client), else what is no block device or no path
 */
static void blk_path(char *p)
{
	static const char *const bogus[] = {
		"/dev/null", "/dev/zero", "/dev/" RDMACHAN_DEVICE_NAME,
		"/tmp/fzb-regular", "/tmp", "/dev", "/", "/nonexistent",
		"/dev/nonexistent/x", "", "nullb0", "dev/nullb_fz0",
		"/proc/self/fd/0", "/sys/block", "/dev/nullb_fz0/..",
		"/dev/./nullb_fz0", "//dev//nullb_fz1",
	};
	uint32_t r = rnd(100);

	memset(p, 0, RDMACHAN_BLK_PATH_MAX);
	if (r < 60 && opt_nblk_devs) {
		snprintf(p, RDMACHAN_BLK_PATH_MAX, "%s",
			 opt_blk_devs[rnd(opt_nblk_devs)]);
	} else if (r < 64) {
		int32_t i = blk_pick_index();

		snprintf(p, RDMACHAN_BLK_PATH_MAX, "/dev/rcblk%d",
			 i >= 0 ? i : (int)rnd(4));
	} else if (r < 90) {
		snprintf(p, RDMACHAN_BLK_PATH_MAX, "%s", bogus[rnd(ARRAY_SIZE(bogus))]);
	} else if (r < 94) {
		/* very long: 255 characters, terminated, a directory chain */
		for (int i = 0; i < RDMACHAN_BLK_PATH_MAX - 1; i++)
			p[i] = i % 8 ? 'a' + rnd(26) : '/';
	} else if (r < 97) {
		/* unterminated */
		memset(p, '/', RDMACHAN_BLK_PATH_MAX);
		if (chance(50) && opt_nblk_devs)
			memcpy(p, opt_blk_devs[0], strlen(opt_blk_devs[0]));
	} else {
		for (int i = 0; i < RDMACHAN_BLK_PATH_MAX; i++)
			p[i] = rnd64();
	}
}

/*
 * blk_cidr: an allow entry: mostly the fixture's network (so that the
 * client at CLI_IP may map), others that do not admit it, then bad
 * families, prefixes past the family's width, reserved bits, host bits
 */
static void blk_cidr(struct rdmachan_blk_cidr *c)
{
	static const uint8_t net[4] = { 192, 0, 2, 0 };
	static const uint8_t doc6[16] = { 0x20, 0x01, 0x0d, 0xb8 };

	memset(c, 0, sizeof(*c));
	c->family = AF_INET;
	memcpy(c->addr, net, 4);
	switch (rnd(dirty ? 12 : 7)) {
	case 0:
	case 1:
	case 2:
		c->prefix = 24;
		break;
	case 3:
		c->prefix = 32;
		c->addr[3] = chance(80) ? 2 : 1;
		break;
	case 4:
		memset(c->addr, 0, 4);	/* 0.0.0.0/0: anyone */
		break;
	case 5:
		c->family = AF_INET6;
		memcpy(c->addr, doc6, sizeof(doc6));
		c->prefix = 32;
		break;
	case 6:
		c->addr[0] = 198;
		c->addr[1] = 51;
		c->addr[2] = 100;
		c->prefix = 24;
		break;
	case 7:
		c->family = (uint16_t)bval();
		c->prefix = rnd(33);
		break;
	case 8:
		c->family = chance(50) ? AF_INET : AF_INET6;
		c->prefix = c->family == AF_INET ? 33 + rnd(223) : 129 + rnd(127);
		break;
	case 9:
		c->prefix = 24;
		c->reserved = 1 + rnd(255);
		break;
	case 10:
		c->prefix = 24;
		c->addr[3] = 1;		/* host bits set */
		break;
	default:
		for (size_t i = 0; i < sizeof(*c); i++)
			((uint8_t *)c)[i] = rnd64();
		break;
	}
}

/*
 * spoil: the call could make one more export or mapping than the bound
 * allows: make its size wrong instead (or skip it, return 1)
 */
static int spoil(uint32_t *size, uint32_t good)
{
	if (chance(75))
		return 1;
	*size = good ^ (1U << rnd(12));
	return 0;
}

void fz_blk_export(void)
{
	struct rdmachan_blk_export e;
	int slot, fd = target(T_CTL, &slot);
	int locked = blk_trylock(&blk_sh->export_lock);
	uint32_t n;

	memset(&e, 0, sizeof(e));
	e.size = sizeof(e);
	e.flags = chance(85) ? (chance(25) ? RDMACHAN_BLK_RO : 0) : (uint32_t)bval();
	blk_name(e.name);
	blk_path(e.path);
	if (chance(80))
		n = 1 + rnd(3);
	else if (chance(40))
		n = 0;		/* refuses every client */
	else
		n = chance(50) ? RDMACHAN_BLK_MAX_ALLOW + rnd(2) : (uint32_t)bval();
	e.nr_allow = n;
	for (uint32_t i = 0; i < n && i < RDMACHAN_BLK_MAX_ALLOW; i++)
		blk_cidr(&e.allow[i]);
	if (bad(5))
		e.reserved = bval();
	MAYBE_MUTATE(e, 10);
	if (!locked || !blk_room(RDMACHAN_BLK_LIST_EXPORTS)) {
		if (spoil(&e.size, sizeof(e)))
			goto out;
	}
	if (do_ioctl(OP_BLK_EXPORT, slot, fd, RDMACHAN_IOC_BLK_EXPORT,
		     place_arg(&e, sizeof(e)), &e, sizeof(e), 0) == 0)
		blk_note_name(e.name, 0);
out:
	if (locked)
		blk_unlock(&blk_sh->export_lock);
}

void fz_blk_unexport(void)
{
	struct rdmachan_blk_unexport u = { .size = sizeof(u) };
	int slot, fd = target(T_CTL, &slot);

	u.flags = chance(90) ? (chance(50) ? RDMACHAN_BLK_FORCE : 0) : (uint32_t)bval();
	if (!chance(30) || blk_live_name(u.name))
		blk_name(u.name);
	MAYBE_MUTATE(u, 10);
	if (do_ioctl(OP_BLK_UNEXPORT, slot, fd, RDMACHAN_IOC_BLK_UNEXPORT,
		     place_arg(&u, sizeof(u)), &u, sizeof(u), 0) == 0)
		blk_note_name(u.name, 1);
}

void fz_blk_map(void)
{
	struct rdmachan_blk_map m = { .size = sizeof(m) };
	int slot, fd = target(T_CTL, &slot);
	int locked = blk_trylock(&blk_sh->map_lock);
	uint32_t r = rnd(100);
	uint8_t *arg;

	m.flags = chance(85) ? (chance(20) ? RDMACHAN_BLK_RO : 0) : (uint32_t)bval();
	/* port 0 is the default, BLK_PORT */
	if (chance(85))
		set_in4(&m.server, SRV_IP, chance(30) ? 0 : BLK_PORT);
	else
		addr_pick(&m.server, SRV_IP, chance(50) ? BLK_PORT : pick_port());
	if (r < 80)
		set_in4(&m.src, CLI_IP, 0);
	else if (r >= 90)	/* else AF_UNSPEC: any */
		addr_pick(&m.src, CLI_IP, chance(80) ? 0 : (int)rnd(65536));
	/* mostly a live export, so that maps reach a disk */
	if (!chance(60) || blk_live_name(m.name))
		blk_name(m.name);
	m.nr_queues = chance(80) ? rnd(4) : (uint32_t)bval();
	/* polled queues: none mostly, a few, or any value (capped) */
	if (chance(30))
		m.nr_poll_queues = chance(80) ? rnd(3) : (uint32_t)bval();
	if (chance(40))
		m.queue_depth = 0;	/* the module's default */
	else
		m.queue_depth = chance(80) ? 2 + rnd(63) : (uint32_t)bval();
	if (bad(5))
		m.reserved = bval();
	if (bad(3))
		m.index = bval();	/* out only: EINVAL when set */
	MAYBE_MUTATE(m, 10);
	/* depths the module takes (2..4096) stay within the VM's memory */
	if (m.queue_depth > BLK_MAX_DEPTH && m.queue_depth <= 4096)
		m.queue_depth = BLK_MAX_DEPTH;
	if (!locked || !blk_room(RDMACHAN_BLK_LIST_MAPS)) {
		if (spoil(&m.size, sizeof(m)))
			goto out;
	}
	arg = place_arg(&m, sizeof(m));
	/*
	 * Connecting waits (interruptibly; the OPEN_RSP then killably, up
	 * to clt_timeout_ms a queue): now and then interrupted early
	 */
	if (do_ioctl(OP_BLK_MAP, slot, fd, RDMACHAN_IOC_BLK_MAP, arg, &m,
		     sizeof(m), chance(25) ? 1 : 20000) == 0 &&
	    arg >= argpage && arg < argpage + PAGE)
		blk_note_index(((struct rdmachan_blk_map *)arg)->index, 0);
out:
	if (locked)
		blk_unlock(&blk_sh->map_lock);
}

void fz_blk_unmap(void)
{
	struct rdmachan_blk_unmap u = { .size = sizeof(u) };
	int slot, fd = target(T_CTL, &slot);
	int32_t i = chance(90) ? blk_pick_index() : -1;

	u.index = i >= 0 ? (uint32_t)i : chance(60) ? rnd(16) : (uint32_t)bval();
	u.flags = chance(90) ? (chance(50) ? RDMACHAN_BLK_FORCE : 0) : (uint32_t)bval();
	if (bad(5))
		u.reserved = bval();
	MAYBE_MUTATE(u, 10);
	if (do_ioctl(OP_BLK_UNMAP, slot, fd, RDMACHAN_IOC_BLK_UNMAP,
		     place_arg(&u, sizeof(u)), &u, sizeof(u), 0) == 0)
		blk_note_index(u.index, 1);
}

void fz_blk_list(void)
{
	struct rdmachan_blk_list l = { .size = sizeof(l) };
	int slot, fd = target(T_CTL, &slot);
	uint32_t r = rnd(100);

	l.what = r < 45 ? RDMACHAN_BLK_LIST_EXPORTS : r < 90 ?
		RDMACHAN_BLK_LIST_MAPS : (chance(50) ? rnd(4) : (uint32_t)bval());
	r = rnd(100);
	if (r < 85)
		l.entry_size = blk_entry_size(l.what);
	else if (r < 90)
		l.entry_size = blk_entry_size(l.what == RDMACHAN_BLK_LIST_MAPS ?
					      RDMACHAN_BLK_LIST_EXPORTS :
					      RDMACHAN_BLK_LIST_MAPS);
	else if (r < 95)
		l.entry_size = blk_entry_size(l.what) + rnd(3) - 1;
	else
		l.entry_size = (uint32_t)bval();
	l.count = chance(80) ? rnd(7) : (uint32_t)bval();
	l.entries = ptr_pick((uint64_t)l.count * blk_entry_size(l.what));
	MAYBE_MUTATE(l, 15, 16);
	do_ioctl(OP_BLK_LIST, slot, fd, RDMACHAN_IOC_BLK_LIST,
		 place_arg(&l, sizeof(l)), &l, sizeof(l), 0);
}

/*
 * fz_blk_io: open a mapped disk (mostly one made here, maybe unmapped
 * or dying under another worker's forced UNMAP or UNEXPORT), a few
 * small preads and pwrites, O_DIRECT or through the page cache, then
 * close it, or keep it open a while (a non-forced UNMAP meets EBUSY;
 * the other calls may pick it too)
 */
void fz_blk_io(void)
{
	int32_t i = blk_pick_index();
	char path[32];
	uint64_t a[3];
	int fl, n;
	long fd;

	snprintf(path, sizeof(path), "/dev/rcblk%d", i >= 0 ? i : (int)rnd(8));
	fl = (chance(70) ? O_RDWR : O_RDONLY) | O_CLOEXEC |
		(chance(50) ? O_DIRECT : 0) | (chance(10) ? O_NONBLOCK : 0) |
		(chance(5) ? O_EXCL : 0);
	a[0] = fl;
	begin(OP_BLK_OPEN, -1, -1, fl, 0, a, sizeof(a[0]), 0);
	fd = end(open(path, fl));
	if (fd < 0)
		return;
	n = 1 + rnd(3);
	while (n--) {
		int wr = (fl & O_ACCMODE) == O_RDWR && chance(50);
		uint64_t len, off, buf;

		if (chance(90)) {
			len = (chance(50) ? 512 : 4096) * (1 + rnd(8));
			off = (uint64_t)rnd(BLK_IO_SPAN / 512) * 512;
			buf = (uintptr_t)scratch + rnd(SCRATCH_LEN / 2 / PAGE) * PAGE;
		} else {
			len = chance(50) ? rnd(8192) : bval() & (SCRATCH_LEN - 1);
			off = chance(50) ? rnd(BLK_IO_SPAN + 8192) : bval();
			buf = ptr_pick(len);
		}
		a[0] = off;
		a[1] = len;
		a[2] = wr;
		begin(OP_BLK_IO, -1, fd, wr, buf, a, sizeof(a), 0);
		if (wr)
			end(pwrite(fd, (void *)(uintptr_t)buf, len, (off_t)off));
		else
			end(pread(fd, (void *)(uintptr_t)buf, len, (off_t)off));
	}
	if (count_type(T_BLK) < 2 && chance(25) && adopt(fd, T_BLK, 0) >= 0)
		return;
	begin(OP_BLK_OPEN, -1, fd, 0, 0, NULL, 0, 0);
	end(close(fd));
}

/*
 * blk_cleanup: in the parent, after the workers: remove every mapping
 * and export (forced), so that rdmachan_blk can unload.  Return: how
 * many are left (-1: LIST failed), with what was removed in @done.
 */
int blk_cleanup(char *done, size_t n)
{
	static struct rdmachan_blk_map_info mi[64];
	static struct rdmachan_blk_export_info ei[64];
	int fd = open(CTL_PATH, O_RDWR), nm = 0, ne = 0, left = -1;
	int unmapped = 0, unexported = 0, failed = 0;

	snprintf(done, n, "nothing to remove");
	if (fd < 0)
		return -1;
	for (int pass = 0; pass < 5; pass++) {
		struct rdmachan_blk_list l = { .size = sizeof(l) };
		struct rdmachan_blk_unmap um = { .size = sizeof(um) };
		struct rdmachan_blk_unexport ue = { .size = sizeof(ue) };

		l.what = RDMACHAN_BLK_LIST_MAPS;
		l.count = ARRAY_SIZE(mi);
		l.entry_size = sizeof(mi[0]);
		l.entries = (uintptr_t)mi;
		if (ioctl(fd, RDMACHAN_IOC_BLK_LIST, &l) < 0) {
			if (errno == ENOTTY)	/* not loaded */
				left = 0;
			break;
		}
		nm = l.count;
		for (int i = 0; i < nm && i < (int)ARRAY_SIZE(mi); i++) {
			um.index = mi[i].index;
			um.flags = RDMACHAN_BLK_FORCE;
			if (ioctl(fd, RDMACHAN_IOC_BLK_UNMAP, &um) == 0)
				unmapped++;
			else
				failed++;
		}
		l.what = RDMACHAN_BLK_LIST_EXPORTS;
		l.count = ARRAY_SIZE(ei);
		l.entry_size = sizeof(ei[0]);
		l.entries = (uintptr_t)ei;
		if (ioctl(fd, RDMACHAN_IOC_BLK_LIST, &l) < 0)
			break;
		ne = l.count;
		for (int i = 0; i < ne && i < (int)ARRAY_SIZE(ei); i++) {
			memcpy(ue.name, ei[i].name, sizeof(ue.name));
			ue.flags = RDMACHAN_BLK_FORCE;
			if (ioctl(fd, RDMACHAN_IOC_BLK_UNEXPORT, &ue) == 0)
				unexported++;
			else
				failed++;
		}
		if (!nm && !ne) {
			left = 0;
			break;
		}
		left = nm + ne;
	}
	close(fd);
	snprintf(done, n, "%d mappings and %d exports removed, %d refused, %d left",
		 unmapped, unexported, failed, left);
	return left;
}
