// SPDX-License-Identifier: GPL-2.0-only
/*
 * fuzz_net: the ioctl fuzzer's calls to the network channel
 * (rdmachan_net; ENOTTY while it is not loaded), dispatched by fuzz.c's
 * one_call() to fz_net() and recorded like every other call:
 *
 * NET_ADD     names of the fuzzer (NET_PREFIX and a number, or NET_PREFIX
 *             "%d" for the kernel to number), names in use (another
 *             device's of this module, the fixture's lo and veths), the
 *             longest valid name, and bad ones: empty, ".", "..", with a
 *             slash, a colon, a space, a conversion other than one %d,
 *             16 bytes without a NUL, random bytes after the prefix;
 *             LISTEN and CONNECT (and bad modes) on SRV_IP and CLI_IP
 *             with the default port (0), a few fixed ones that both ends
 *             meet, the fuzzer's channel listeners' and the block
 *             server's ports, random addresses, ports and families;
 *             sources of the family, AF_UNSPEC or another; MTUs, message
 *             sizes, depths, reconnect delays and loss timeouts within,
 *             at and past their bounds; reserved fields set; then the
 *             usual mutations (fields, size, the argument's pointer).
 * NET_DEL     names NET_LIST returns, the fuzzer's, bad ones; flags.
 * NET_LIST    room from 0 up, entry sizes off by one, NULL and bad
 *             arrays, reserved set.
 * net-sysfs   opens and preads of /sys/class/net/rcn*'s rdmachan/ files
 *             and a few of the netdev's own (mtu, carrier, statistics),
 *             of its directory, and of a descriptor kept open from
 *             before (the interface may be gone since).
 * net-link    of the fuzzer's interfaces only: deletion by rtnetlink
 *             (RTM_DELLINK, what ip link del sends) and, now and then,
 *             by running ip link del itself, link up and down, MTU
 *             changes, renames (to NET_PREFIX names), so that with
 *             several workers deletions race the other workers' reads
 *             and ioctls.
 *
 * Only names that start with NET_PREFIX can make an interface: a name a
 * mutation made valid gets the prefix (net_name_guard()), but for the
 * names of the fixture's interfaces, which exist (EEXIST).  At most
 * NET_MAX_LIVE interfaces exist at once (counted with NET_LIST under a
 * lock the workers share); what would make one more has its size
 * spoilt or is left out.  Depth times message size stays within 1 MiB,
 * as for the channels (the VM has 1 GiB).  net_cleanup() deletes every
 * interface left, in the parent after the workers.
 */
#define _GNU_SOURCE
#include <arpa/inet.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <net/if.h>
#include <netinet/in.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

#include <linux/netlink.h>
#include <linux/rtnetlink.h>
#include <linux/rdmachan_net.h>

#include "fuzz.h"

#define NET_PREFIX	"rcnfz"		/* every interface the fuzzer makes */
#define NET_PREFIX_LEN	5
#define NET_NAMES	6		/* NET_PREFIX0 .. NET_PREFIX5 */
#define NET_MAX_LIVE	4
#define NET_TAKEN	8		/* names of the fixture's interfaces */
#define NET_SYSFS_KEEP	3		/* attribute files kept open */
#define NAMESZ		RDMACHAN_NET_NAME_MAX
#define IP_CMD		"/usr/sbin/ip"

/* ports LISTEN devices take and CONNECT devices go to (0: the first) */
static const int net_ports[] = { RDMACHAN_NET_DEFAULT_PORT, 7473, 7474 };

/*
 * What the workers share: the lock held while counting the interfaces
 * and adding one (so that NET_MAX_LIVE holds across workers), and the
 * names of the interfaces that existed before the run (names in use);
 * for the report, how many of the interfaces NET_LIST showed had their
 * link up (a LISTEN and a CONNECT device met, or a channel call reached
 * one)
 */
struct netshared {
	uint32_t add_lock;
	uint64_t seen, seen_up;	/* interfaces net_live_name() saw, with carrier */
	int ntaken;
	char taken[NET_TAKEN][NAMESZ];
};

static struct netshared *net_sh;

/* net_setup: in the parent, before the workers; 0 or -1 */
int net_setup(void)
{
	struct dirent *d;
	DIR *dir;

	net_sh = mmap(NULL, sizeof(*net_sh), PROT_READ | PROT_WRITE,
		      MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	if (net_sh == MAP_FAILED) {
		perror("fuzz: mmap");
		return -1;
	}
	dir = opendir("/sys/class/net");
	while (dir && (d = readdir(dir)) && net_sh->ntaken < NET_TAKEN) {
		if (d->d_name[0] == '.' || strlen(d->d_name) >= NAMESZ ||
		    !strncmp(d->d_name, NET_PREFIX, NET_PREFIX_LEN))
			continue;
		strcpy(net_sh->taken[net_sh->ntaken++], d->d_name);
	}
	if (dir)
		closedir(dir);
	return 0;
}

/* net_port: a port of the devices, for the channel calls' CONNECT */
int net_port(void)
{
	return net_ports[rnd(ARRAY_SIZE(net_ports))];
}

static int net_trylock(void)
{
	uint32_t free = 0;

	return __atomic_compare_exchange_n(&net_sh->add_lock, &free, 1, 0,
					   __ATOMIC_ACQUIRE, __ATOMIC_RELAXED);
}

static void net_unlock(void)
{
	__atomic_store_n(&net_sh->add_lock, 0, __ATOMIC_RELEASE);
}

static int net_is_taken(const char *n)
{
	for (int i = 0; i < net_sh->ntaken; i++)
		if (!strncmp(n, net_sh->taken[i], NAMESZ))
			return 1;
	return 0;
}

/*
 * net_list: NET_LIST into @e (room for @room), as a recorded call on a
 * control descriptor; the count, or -1 (errno set)
 */
static int net_list(struct rdmachan_net_info *e, uint32_t room)
{
	struct rdmachan_net_list l = {
		.size = sizeof(l), .count = room,
		.entry_size = sizeof(struct rdmachan_net_info),
		.entries = (uintptr_t)e,
	};
	int slot = pick_slot(T_CTL);

	if (slot < 0) {
		errno = EBADF;
		return -1;
	}
	if (do_ioctl(OP_NET_LIST, slot, slot_fd(slot), RDMACHAN_IOC_NET_LIST,
		     &l, &l, sizeof(l), 0) < 0)
		return -1;
	return l.count;
}

/* net_live_name: the name of an interface NET_LIST names now; 0 or -1 */
static int net_live_name(char *n)
{
	struct rdmachan_net_info *e = (void *)(scratch + SCRATCH_LEN - 512 * 1024);
	int k = net_list(e, 8);

	if (k <= 0)
		return -1;
	for (int i = 0; i < k && i < 8; i++) {
		__atomic_fetch_add(&net_sh->seen, 1, __ATOMIC_RELAXED);
		if (e[i].carrier)
			__atomic_fetch_add(&net_sh->seen_up, 1, __ATOMIC_RELAXED);
	}
	memcpy(n, e[rnd(k < 8 ? k : 8)].name, NAMESZ);
	n[NAMESZ - 1] = 0;
	return 0;
}

/*
 * net_name: an interface name for ADD or DEL, in @n (NAMESZ bytes): the
 * fuzzer's mostly, one in use, else the longest valid, overlong and bad
 * ones (net_name_guard() keeps the valid ones the fuzzer's)
 */
static void net_name(char *n)
{
	static const char *const bad_names[] = {
		"", ".", "..", NET_PREFIX "/0", NET_PREFIX ":0", NET_PREFIX " 0",
		NET_PREFIX "\t", NET_PREFIX "0\n", NET_PREFIX "%s",
		NET_PREFIX "%d%d", NET_PREFIX "%", NET_PREFIX "%x",
		NET_PREFIX "%99d", "/", " ",
	};
	static const char chars[] = "abcdefghijklmnopqrstuvwxyz0123456789._-";
	uint32_t r = rnd(100);
	int i;

	memset(n, 0, NAMESZ);
	if (r < 55) {
		snprintf(n, NAMESZ, NET_PREFIX "%u", rnd(NET_NAMES));
	} else if (r < 62) {
		strcpy(n, NET_PREFIX "%d");	/* the kernel numbers it */
	} else if (r < 70) {
		if (net_live_name(n))
			snprintf(n, NAMESZ, NET_PREFIX "%u", rnd(NET_NAMES));
	} else if (r < 74 && net_sh->ntaken) {
		memcpy(n, net_sh->taken[rnd(net_sh->ntaken)], NAMESZ);
	} else if (r < 78) {
		/* the longest valid name, 15 characters */
		memcpy(n, NET_PREFIX, NET_PREFIX_LEN);
		for (i = NET_PREFIX_LEN; i < NAMESZ - 1; i++)
			n[i] = chars[rnd(sizeof(chars) - 1)];
	} else if (r < 84) {
		/* 16 characters: no room for the NUL */
		memcpy(n, NET_PREFIX, NET_PREFIX_LEN);
		for (i = NET_PREFIX_LEN; i < NAMESZ; i++)
			n[i] = chance(50) ? chars[rnd(sizeof(chars) - 1)] : 'x';
		if (chance(20))
			memset(n, 0xff, NAMESZ);
	} else if (r < 92) {
		strcpy(n, bad_names[rnd(ARRAY_SIZE(bad_names))]);
	} else {
		/* random bytes after the prefix, ended at random or not */
		memcpy(n, NET_PREFIX, NET_PREFIX_LEN);
		for (i = NET_PREFIX_LEN; i < NAMESZ; i++)
			n[i] = 1 + rnd(255);
		if (chance(70))
			n[NET_PREFIX_LEN + rnd(NAMESZ - NET_PREFIX_LEN)] = 0;
	}
}

/*
 * net_name_guard: a name the kernel would take (terminated, not empty,
 * ".", "..", no slash, colon or space) that is not the fuzzer's nor one
 * in use (which the kernel refuses) gets the prefix: the interfaces the
 * fuzzer makes are all its own, to find and delete.  Looser than the
 * kernel's dev_valid_name(): a name it refuses may get the prefix too.
 */
static void net_name_guard(char *n)
{
	size_t len = strnlen(n, NAMESZ);

	if (!len || len == NAMESZ || !strncmp(n, NET_PREFIX, NET_PREFIX_LEN) ||
	    net_is_taken(n) || !strcmp(n, ".") || !strcmp(n, "..") ||
	    strpbrk(n, "/: \t\n\v\f\r"))
		return;
	memmove(n + NET_PREFIX_LEN, n, NAMESZ - 1 - NET_PREFIX_LEN);
	memcpy(n, NET_PREFIX, NET_PREFIX_LEN);
	n[NAMESZ - 1] = 0;
}

static void in4(struct __kernel_sockaddr_storage *ss, const char *ip,
		uint32_t raw, int port)
{
	struct sockaddr_in *sin = (struct sockaddr_in *)ss;

	memset(ss, 0, sizeof(*ss));
	sin->sin_family = AF_INET;
	sin->sin_port = htons(port);
	if (ip)
		inet_pton(AF_INET, ip, &sin->sin_addr);
	else
		sin->sin_addr.s_addr = raw;
}

/* a device's port: the default, the shared ones, others' or random */
static int net_pick_port(void)
{
	uint32_t r = rnd(100);

	if (r < 30)
		return 0;
	if (r < 75)
		return net_port();
	if (r < 85)
		return pick_port();	/* the fuzzer's listeners, the block server */
	return chance(50) ? (int)rnd(65536) : (int)(bval() & 0xffff);
}

/* @ss: the fixture's addresses mostly, random ones, odd families */
static void net_addr(struct __kernel_sockaddr_storage *ss, const char *ip,
		     int port)
{
	uint32_t r = rnd(100);

	if (r < 85) {
		in4(ss, ip, 0, port);
	} else if (r < 90) {
		in4(ss, NULL, htonl(0xc0000200 | rnd(256)), port);	/* 192.0.2.x */
	} else if (r < 94) {
		in4(ss, NULL, (uint32_t)rnd64(), port);
	} else {
		addr_pick(ss, ip, port);
	}
}

static uint32_t pick(const uint32_t *v, size_t n)
{
	return v[rnd(n)];
}

/* the fields after the name and addresses, mostly valid */
static void net_add_sizes(struct rdmachan_net_add *a)
{
	static const uint32_t mtus[] = { 67, 68, 1279, 1280, 1500, 9000,
					 65524, 65535, 65536 };
	static const uint32_t msgs[] = { 1279, 1280, 1281, 4096, 9000, 65524,
					 65536, 1048576, 1048577 };
	static const uint32_t delays[] = { 99, 100, 101, 3600000, 3600001 };
	uint32_t d, m;

	a->mtu = chance(70) ? 0 : chance(60) ? 68 + rnd(9000) :
		chance(70) ? pick(mtus, ARRAY_SIZE(mtus)) : (uint32_t)bval();
	a->max_msg_size = chance(40) ? 0 : chance(50) ? 1280 + rnd(16384) :
		chance(70) ? pick(msgs, ARRAY_SIZE(msgs)) : (uint32_t)bval();
	a->queue_depth = chance(40) ? 0 : chance(70) ? 1 + rnd(64) : (uint32_t)bval();
	a->reconnect_delay_ms = chance(50) ? 0 : chance(70) ? 100 + rnd(2000) :
		chance(60) ? pick(delays, ARRAY_SIZE(delays)) : (uint32_t)bval();
	a->loss_timeout_ms = chance(50) ? 0 : chance(60) ? 1000 + rnd(20000) :
		chance(50) ? RDMACHAN_NET_TMO_OFF : (uint32_t)bval();
	if (bad(10) || chance(2))
		a->reserved[rnd(3)] = bval();
	/* depth times message size within 1 MiB (0: 128 and 65524) */
	d = a->queue_depth ? a->queue_depth : 128;
	m = a->max_msg_size ? a->max_msg_size : RDMACHAN_NET_DEFAULT_MSG;
	if (m >= 1280 && m <= (1U << 20) && (uint64_t)d * m > (1U << 20))
		a->queue_depth = (1U << 20) / m > 2 ? (1U << 20) / m : 2;
}

static void fz_net_add(void)
{
	struct rdmachan_net_add a;
	int slot, fd = target(T_CTL, &slot);
	int locked = net_trylock();
	uint32_t r = rnd(100);

	memset(&a, 0, sizeof(a));
	a.size = sizeof(a);
	a.mode = r < 45 ? RDMACHAN_NET_LISTEN : r < 90 ? RDMACHAN_NET_CONNECT :
		chance(50) ? rnd(4) : (uint32_t)bval();
	net_name(a.name);
	r = rnd(100);
	if (a.mode == RDMACHAN_NET_LISTEN) {
		/* listen on either address; a peer to accept only, or any */
		net_addr(&a.addr, chance(80) ? SRV_IP : CLI_IP, net_pick_port());
		if (r < 30)
			in4(&a.src, chance(80) ? CLI_IP : SRV_IP, 0, rnd(65536));
		else if (r < 40)
			net_addr(&a.src, CLI_IP, 0);
	} else {
		net_addr(&a.addr, chance(80) ? SRV_IP : CLI_IP, net_pick_port());
		if (r < 60)
			in4(&a.src, CLI_IP, 0, 0);
		else if (r < 70)
			in4(&a.src, SRV_IP, 0, 0);
		else if (r < 80)
			net_addr(&a.src, CLI_IP, chance(80) ? 0 : (int)rnd(65536));
	}
	net_add_sizes(&a);
	MAYBE_MUTATE(a, 10);
	net_name_guard(a.name);
	if (!locked || net_list(NULL, 0) >= NET_MAX_LIVE) {
		/* one more than the bound: a wrong size, or nothing */
		if (chance(75))
			goto out;
		a.size = sizeof(a) ^ (1U << rnd(12));
	}
	do_ioctl(OP_NET_ADD, slot, fd, RDMACHAN_IOC_NET_ADD,
		 place_arg(&a, sizeof(a)), &a, sizeof(a), 0);
out:
	if (locked)
		net_unlock();
}

static void fz_net_del(void)
{
	struct rdmachan_net_del d = { .size = sizeof(d) };
	int slot, fd = target(T_CTL, &slot);

	if (!chance(50) || net_live_name(d.name))
		net_name(d.name);
	d.flags = chance(90) ? 0 : (uint32_t)bval();
	MAYBE_MUTATE(d, 10);
	/* waits for a connection attempt under way: connect_timeout_ms */
	do_ioctl(OP_NET_DEL, slot, fd, RDMACHAN_IOC_NET_DEL,
		 place_arg(&d, sizeof(d)), &d, sizeof(d), 0);
}

static void fz_net_list(void)
{
	struct rdmachan_net_list l = { .size = sizeof(l) };
	int slot, fd = target(T_CTL, &slot);
	uint32_t r = rnd(100);

	l.count = chance(80) ? rnd(7) : (uint32_t)bval();
	if (r < 85)
		l.entry_size = sizeof(struct rdmachan_net_info);
	else if (r < 92)
		l.entry_size = sizeof(struct rdmachan_net_info) + rnd(3) - 1;
	else
		l.entry_size = chance(50) ? 0 : (uint32_t)bval();
	/* NULL: a count of the devices, or EINVAL with room */
	l.entries = chance(12) ? 0 :
		ptr_pick((uint64_t)l.count * sizeof(struct rdmachan_net_info));
	if (bad(10))
		l.reserved = bval();
	MAYBE_MUTATE(l, 15, 16);
	do_ioctl(OP_NET_LIST, slot, fd, RDMACHAN_IOC_NET_LIST,
		 place_arg(&l, sizeof(l)), &l, sizeof(l), 0);
}

/*
 * net_ifaces: names in /sys/class/net starting with @prefix, up to @max,
 * in @names; their number
 */
static int net_ifaces(char (*names)[NAMESZ], int max, const char *prefix)
{
	struct dirent *d;
	DIR *dir = opendir("/sys/class/net");
	int n = 0;

	if (!dir)
		return 0;
	while ((d = readdir(dir)) && n < max)
		if (!strncmp(d->d_name, prefix, strlen(prefix)) &&
		    strlen(d->d_name) < NAMESZ)
			strcpy(names[n++], d->d_name);
	closedir(dir);
	return n;
}

/* an interface of the module (rcn*), of the fuzzer's mostly, or none */
static void net_iface(char *n, const char *prefix)
{
	char names[16][NAMESZ];
	int k = net_ifaces(names, 16, prefix);

	if (k && chance(90))
		memcpy(n, names[rnd(k)], NAMESZ);
	else
		snprintf(n, NAMESZ, NET_PREFIX "%u", rnd(NET_NAMES + 2));
}

/* a pread of @fd, @len mostly a page into scratch, recorded */
static void net_sysfs_read(int slot, int fd, const char *path)
{
	uint64_t len = chance(80) ? 4096 : chance(50) ? rnd(8) : bval() & (SCRATCH_LEN - 1);
	uint64_t buf = chance(90) ? (uintptr_t)scratch + rnd(SCRATCH_LEN / 2) :
		ptr_pick(len);
	off_t off = chance(80) ? 0 : chance(50) ? (off_t)rnd(64) : (off_t)(bval() >> 1);

	begin(OP_NET_SYSFS, slot, fd, off, buf, path, strlen(path) + 1, 0);
	end(pread(fd, (void *)(uintptr_t)buf, len, off));
}

/*
 * fz_net_sysfs: an attribute of an interface of the module (its
 * rdmachan/ group mostly, the netdev's own at times), opened, read and
 * closed or kept open; a kept one read again; or its directory listed
 */
static void fz_net_sysfs(void)
{
	static const char *const attrs[] = {
		"rdmachan/mode", "rdmachan/state", "rdmachan/addr",
		"rdmachan/peer", "rdmachan/max_msg_size", "rdmachan/queue_depth",
		"rdmachan/attempt", "rdmachan/losses", "rdmachan/last_error",
		"rdmachan/reconnects", "rdmachan/tx_stopped",
		"rdmachan/rx_pool_packets", "rdmachan/rx_zc_packets",
		"rdmachan/tx_zc_packets", "rdmachan/nosuch",
		"mtu", "carrier", "operstate", "flags", "threaded",
		"statistics/rx_packets", "statistics/tx_dropped", "uevent",
	};
	char ifn[NAMESZ], path[96];
	int slot = pick_slot(T_SYSFS), n, fl;
	long fd;

	if (slot >= 0 && chance(30)) {
		net_sysfs_read(slot, slot_fd(slot), "(kept)");
		return;
	}
	net_iface(ifn, "rcn");
	if (chance(10)) {
		DIR *dir;
		uint64_t a[1] = { 0 };

		snprintf(path, sizeof(path), "/sys/class/net/%s/rdmachan", ifn);
		begin(OP_NET_SYSFS, -1, -1, 0, 0, path, strlen(path) + 1, 0);
		dir = opendir(path);
		if (dir) {
			while (readdir(dir))
				a[0]++;
			closedir(dir);
		}
		end(dir ? (long)a[0] : -1);
		return;
	}
	snprintf(path, sizeof(path), "/sys/class/net/%s/%s", ifn,
		 attrs[rnd(ARRAY_SIZE(attrs))]);
	fl = (chance(95) ? O_RDONLY : chance(50) ? O_WRONLY : O_RDWR) | O_CLOEXEC;
	begin(OP_NET_SYSFS, -1, -1, fl, 0, path, strlen(path) + 1, 0);
	fd = end(open(path, fl));
	if (fd < 0)
		return;
	for (n = 1 + rnd(3); n; n--)
		net_sysfs_read(-1, fd, path);
	/* kept: read again later, maybe after the interface went */
	if (count_type(T_SYSFS) < NET_SYSFS_KEEP && chance(25) &&
	    adopt(fd, T_SYSFS, 0) >= 0)
		return;
	close(fd);
}

/* rtnl_del: RTM_DELLINK of @name, as ip link del sends it; 0 or -1 */
static int rtnl_del(const char *name)
{
	struct {
		struct nlmsghdr n;
		struct ifinfomsg i;
		char attrs[64];
	} req;
	char ans[1024];
	struct rtattr *rta;
	struct nlmsghdr *h = (struct nlmsghdr *)ans;
	size_t len = strnlen(name, NAMESZ - 1);
	int fd, ret = -1, e = EIO;

	memset(&req, 0, sizeof(req));
	req.n.nlmsg_len = NLMSG_LENGTH(sizeof(req.i));
	req.n.nlmsg_type = RTM_DELLINK;
	req.n.nlmsg_flags = NLM_F_REQUEST | NLM_F_ACK;
	req.i.ifi_family = AF_UNSPEC;
	rta = (struct rtattr *)((char *)&req + NLMSG_ALIGN(req.n.nlmsg_len));
	rta->rta_type = IFLA_IFNAME;
	rta->rta_len = RTA_LENGTH(len + 1);
	memcpy(RTA_DATA(rta), name, len);
	req.n.nlmsg_len = NLMSG_ALIGN(req.n.nlmsg_len) + RTA_ALIGN(rta->rta_len);
	fd = socket(AF_NETLINK, SOCK_RAW | SOCK_CLOEXEC, NETLINK_ROUTE);
	if (fd < 0)
		return -1;
	if (send(fd, &req, req.n.nlmsg_len, 0) < 0) {
		e = errno;
	} else if (recv(fd, ans, sizeof(ans), 0) >= (ssize_t)NLMSG_LENGTH(sizeof(int)) &&
		   h->nlmsg_type == NLMSG_ERROR) {
		e = -((struct nlmsgerr *)NLMSG_DATA(h))->error;
		ret = e ? -1 : 0;
	}
	close(fd);
	errno = e;
	return ret;
}

/* ip_link_del: run ip link del dev @name; 0, or -1 with ENODEV (ip failed) */
static int ip_link_del(const char *name)
{
	int status;
	pid_t pid = fork();

	if (pid < 0)
		return -1;
	if (!pid) {
		int null = open("/dev/null", O_RDWR);

		if (null >= 0) {
			dup2(null, 1);
			dup2(null, 2);
		}
		execl(IP_CMD, "ip", "link", "del", "dev", name, (char *)NULL);
		_exit(127);
	}
	while (waitpid(pid, &status, 0) < 0)
		if (errno != EINTR)
			return -1;
	if (WIFEXITED(status) && !WEXITSTATUS(status))
		return 0;
	errno = ENODEV;
	return -1;
}

/*
 * fz_net_link: one of the fuzzer's interfaces (or a name that is none)
 * deleted, up or down, its MTU changed or renamed; what cmd says in the
 * record: 1 RTM_DELLINK, 2 ip link del, SIOCSIFFLAGS, SIOCSIFMTU,
 * SIOCSIFNAME
 */
static void fz_net_link(void)
{
	static const uint32_t mtus[] = { 0, 67, 68, 1280, 1500, 9000, 65524,
					 65535, 65536 };
	struct ifreq ifr;
	uint32_t r = rnd(100);
	int s;

	memset(&ifr, 0, sizeof(ifr));
	net_iface(ifr.ifr_name, NET_PREFIX);
	if (r < 45) {
		begin(OP_NET_LINK, -1, -1, 1, 0, ifr.ifr_name, NAMESZ, 0);
		end(rtnl_del(ifr.ifr_name));
		return;
	}
	if (r < 55) {
		begin(OP_NET_LINK, -1, -1, 2, 0, ifr.ifr_name, NAMESZ, 0);
		end(ip_link_del(ifr.ifr_name));
		return;
	}
	s = socket(AF_INET, SOCK_DGRAM | SOCK_CLOEXEC, 0);
	if (s < 0)
		return;
	if (r < 75) {
		if (ioctl(s, SIOCGIFFLAGS, &ifr) == 0) {
			ifr.ifr_flags ^= IFF_UP;
			begin(OP_NET_LINK, -1, s, SIOCSIFFLAGS, 0, &ifr, sizeof(ifr), 0);
			end(ioctl(s, SIOCSIFFLAGS, &ifr));
		}
	} else if (r < 90) {
		ifr.ifr_mtu = chance(60) ? 68 + (int)rnd(9000) :
			chance(70) ? (int)pick(mtus, ARRAY_SIZE(mtus)) : (int)bval();
		begin(OP_NET_LINK, -1, s, SIOCSIFMTU, 0, &ifr, sizeof(ifr), 0);
		end(ioctl(s, SIOCSIFMTU, &ifr));
	} else {
		/* a name of the fuzzer's, or one the kernel numbers */
		if (chance(70))
			snprintf(ifr.ifr_newname, NAMESZ, NET_PREFIX "%u",
				 rnd(NET_NAMES + 2));
		else
			strcpy(ifr.ifr_newname, NET_PREFIX "%d");
		begin(OP_NET_LINK, -1, s, SIOCSIFNAME, 0, &ifr, sizeof(ifr), 0);
		end(ioctl(s, SIOCSIFNAME, &ifr));
	}
	close(s);
}

void fz_net(int op)
{
	switch (op) {
	case OP_NET_ADD:
		fz_net_add();
		break;
	case OP_NET_DEL:
		fz_net_del();
		break;
	case OP_NET_LIST:
		fz_net_list();
		break;
	case OP_NET_SYSFS:
		fz_net_sysfs();
		break;
	case OP_NET_LINK:
		fz_net_link();
		break;
	}
}

/*
 * net_cleanup: in the parent, after the workers: delete every interface
 * of the module, so that rdmachan_net can unload.  Return: 0 when none
 * is left and all were the fuzzer's (NET_PREFIX), else non-zero; what
 * was done in @done.
 */
int net_cleanup(char *done, size_t n)
{
	static struct rdmachan_net_info e[64];
	int fd = open(CTL_PATH, O_RDWR | O_CLOEXEC), left = -1;
	int deleted = 0, failed = 0, foreign = 0;
	char first_foreign[NAMESZ] = "";

	snprintf(done, n, "cannot open " CTL_PATH);
	if (fd < 0)
		return -1;
	for (int pass = 0; pass < 5; pass++) {
		struct rdmachan_net_list l = {
			.size = sizeof(l), .count = ARRAY_SIZE(e),
			.entry_size = sizeof(e[0]), .entries = (uintptr_t)e,
		};
		struct rdmachan_net_del d = { .size = sizeof(d) };
		int k;

		if (ioctl(fd, RDMACHAN_IOC_NET_LIST, &l) < 0) {
			if (errno == ENOTTY) {
				snprintf(done, n, "rdmachan_net is not loaded");
				close(fd);
				return 0;
			}
			break;
		}
		k = l.count < ARRAY_SIZE(e) ? (int)l.count : (int)ARRAY_SIZE(e);
		left = l.count;
		if (!k)
			break;
		for (int i = 0; i < k; i++) {
			memcpy(d.name, e[i].name, NAMESZ);
			d.name[NAMESZ - 1] = 0;
			if (!pass && strncmp(d.name, NET_PREFIX, NET_PREFIX_LEN) &&
			    !foreign++)
				memcpy(first_foreign, d.name, NAMESZ);
			if (ioctl(fd, RDMACHAN_IOC_NET_DEL, &d) == 0)
				deleted++;
			else
				failed++;
		}
	}
	close(fd);
	snprintf(done, n, "%d interfaces deleted, %d refused, %d left%s%s%s "
		 "(NET_LIST showed %" PRIu64 ", %" PRIu64 " with carrier)",
		 deleted, failed, left, foreign ? ", not the fuzzer's: " : "",
		 first_foreign, foreign > 1 ? " and more" : "", net_sh->seen,
		 net_sh->seen_up);
	return left || foreign;
}
