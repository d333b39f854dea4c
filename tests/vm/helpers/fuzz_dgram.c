// SPDX-License-Identifier: GPL-2.0-only
/*
 * fuzz_dgram.c: the datagram endpoints' calls of the ioctl fuzzer
 * (RDMACHAN_IOC_DGRAM_*): open (on either host's address, a port picked
 * or 0, serving or not, busy-polling or not, depths to past the bound),
 * and on an endpoint's file resolve (a port served or not, bounds short
 * and long), send and receive batches (peers of the other endpoints, the
 * group, the connected one or junk; lengths to past the MTU; buffers
 * anywhere), info, join and leave (groups 224.0.1.200-203, unicast,
 * junk), the in-kernel bench (each mode, to the peers a send picks, runs
 * cut short by the bounds or the worker's alarm).  At most MAX_DGRAMS
 * endpoints a worker; every blocking call is short or interruptible.
 */
#include <arpa/inet.h>
#include <errno.h>
#include <netinet/in.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/ioctl.h>

#include <linux/rdmachan.h>
#include <linux/rdmachan_verbs.h>

#include "fuzz.h"

#define MAX_DGRAMS	4
#define DGRAM_PORTS	7480		/* 7480..7483 */

/* a group of the fuzzer's, or now and then a unicast or zero address */
static void group_pick(struct __kernel_sockaddr_storage *ss)
{
	char ip[32];

	switch (rnd(10)) {
	case 0:
		addr_pick(ss, SRV_IP, 0);
		break;
	case 1:
		memset(ss, 0, sizeof(*ss));
		ss->ss_family = (uint16_t)rnd(12);
		break;
	default:
		snprintf(ip, sizeof(ip), "224.0.1.%u", 200 + rnd(4));
		addr_pick(ss, ip, 0);
	}
}

void fz_dgram_open(void)
{
	struct rdmachan_dgram_open o = { .size = sizeof(o) };
	int slot, fd = target(T_CTL, &slot);
	long ret;

	if (count_type(T_DGRAM) >= MAX_DGRAMS)
		return;
	o.flags = chance(85) ? rnd(4) : (uint32_t)bval();
	o.fd_flags = chance(85) ? rnd(4) : (uint32_t)bval();
	o.depth = chance(80) ? rnd(65) : (uint32_t)bval();
	addr_pick(&o.addr, chance(60) ? SRV_IP : CLI_IP,
		  chance(60) ? DGRAM_PORTS + (int)rnd(4) : 0);
	if (chance(5))
		addr_pick(&o.addr, "0.0.0.0", 0);
	MAYBE_MUTATE(o, 15);
	ret = do_ioctl(OP_DGRAM_OPEN, slot, fd, RDMACHAN_IOC_DGRAM_OPEN,
		       place_arg(&o, sizeof(o)), &o, sizeof(o), 0);
	if (ret >= 0)
		adopt(ret, T_DGRAM, 0);
}

void fz_dgram_resolve(void)
{
	struct rdmachan_dgram_resolve r = { .size = sizeof(r) };
	int slot, fd = target(T_DGRAM, &slot);

	r.flags = chance(85) ? rnd(2) : (uint32_t)bval();
	r.timeout_ms = chance(80) ? 1 + rnd(300) : (uint32_t)bval();
	addr_pick(&r.addr, chance(50) ? SRV_IP : CLI_IP,
		  chance(80) ? DGRAM_PORTS + (int)rnd(4) : (int)rnd(65536));
	MAYBE_MUTATE(r, 15);
	do_ioctl(OP_DGRAM_RESOLVE, slot, fd, RDMACHAN_IOC_DGRAM_RESOLVE,
		 place_arg(&r, sizeof(r)), &r, sizeof(r), 1);
}

/* one datagram of a batch: a peer, a length, a buffer */
static void msg_fill(struct rdmachan_dgram_msg *m, int send)
{
	uint32_t len = chance(20) ? (uint32_t)bval() : rnd(4200);

	memset(m, 0, sizeof(*m));
	m->len = len;
	m->buf = chance(90) ? (uintptr_t)scratch + rnd(SCRATCH_LEN - 4200) :
		 ptr_pick(len);
	m->flags = chance(80) ? rnd(2) : (uint32_t)bval();
	m->imm = (uint32_t)rnd64();
	if (!send)
		return;
	switch (rnd(6)) {
	case 0:		/* the connected peer */
		break;
	case 1:
		group_pick(&m->peer.addr);
		m->peer.qpn = RDMACHAN_DGRAM_MCAST_QPN;
		break;
	case 2:
		m->peer.qpn = (uint32_t)bval();
		addr_pick(&m->peer.addr, SRV_IP, 0);
		break;
	default:	/* some QP on the fixture's hosts, likely a live one */
		m->peer.qpn = 1 + rnd(64);
		addr_pick(&m->peer.addr, chance(50) ? SRV_IP : CLI_IP, 0);
	}
	m->peer.qkey = chance(90) ? 0 : (uint32_t)rnd64();
}

void fz_dgram_xfer(void)
{
	struct rdmachan_dgram_msg msgs[8];
	struct rdmachan_dgram_batch b = { .size = sizeof(b) };
	int slot, fd = target(T_DGRAM, &slot), send = chance(50);
	unsigned int i, n = 1 + rnd(ARRAY_SIZE(msgs));
	void *arr;

	for (i = 0; i < n; i++)
		msg_fill(&msgs[i], send);
	arr = place_arg(msgs, n * sizeof(msgs[0]));
	b.count = chance(90) ? n : (uint32_t)bval();
	b.flags = chance(85) ? rnd(2) : (uint32_t)bval();
	b.timeout_ms = send ? (chance(90) ? 0 : rnd(100)) :
		       (chance(80) ? 1 + rnd(50) : rnd(2));
	b.msgs = chance(95) ? (uintptr_t)arr : ptr_pick(n * sizeof(msgs[0]));
	MAYBE_MUTATE(b, 10, offsetof(struct rdmachan_dgram_batch, msgs));
	do_ioctl(OP_DGRAM_XFER, slot, fd,
		 send ? RDMACHAN_IOC_DGRAM_SEND : RDMACHAN_IOC_DGRAM_RECV,
		 place_arg(&b, sizeof(b)), &b, sizeof(b), 1);
}

void fz_dgram_info(void)
{
	struct rdmachan_dgram_info info = { .size = sizeof(info) };
	int slot, fd = target(T_DGRAM, &slot);

	if (chance(10))
		info.size = pick_size(sizeof(info));
	do_ioctl(OP_DGRAM_INFO, slot, fd, RDMACHAN_IOC_DGRAM_INFO,
		 place_arg(&info, sizeof(info)), &info, sizeof(info), 0);
}

void fz_dgram_join(void)
{
	struct rdmachan_dgram_join j = { .size = sizeof(j) };
	int slot, fd = target(T_DGRAM, &slot), join = chance(60);

	j.flags = join && chance(85) ? rnd(2) : (chance(90) ? 0 : (uint32_t)bval());
	j.timeout_ms = join ? (chance(85) ? 1 + rnd(300) : (uint32_t)bval()) :
		       (chance(95) ? 0 : rnd(10));
	group_pick(&j.addr);
	MAYBE_MUTATE(j, 15);
	do_ioctl(OP_DGRAM_JOIN, slot, fd,
		 join ? RDMACHAN_IOC_DGRAM_JOIN : RDMACHAN_IOC_DGRAM_LEAVE,
		 place_arg(&j, sizeof(j)), &j, sizeof(j), 1);
}

void fz_dgram_bench(void)
{
	struct rdmachan_dgram_bench b = { .size = sizeof(b) };
	struct rdmachan_dgram_msg m;
	int slot, fd = target(T_DGRAM, &slot);

	/* mostly a mode of the four, sized and bounded; the alarm ends it */
	b.mode = chance(90) ? rnd(4) : (uint32_t)bval();
	b.msg_size = chance(80) ? 1 + rnd(1100) : (uint32_t)bval();
	if ((b.mode == RDMACHAN_BENCH_SINK || b.mode == RDMACHAN_BENCH_ECHO) &&
	    chance(90))
		b.msg_size = 0;
	b.duration_ms = chance(90) ? 1 + rnd(100) : (uint32_t)bval();
	b.wait_ms = chance(80) ? rnd(50) : (uint32_t)bval();
	b.count = chance(80) ? rnd(200) : bval();
	if (b.mode <= RDMACHAN_BENCH_PINGPONG || chance(10)) {
		msg_fill(&m, 1);
		b.peer = m.peer;
	}
	MAYBE_MUTATE(b, 10);
	do_ioctl(OP_DGRAM_BENCH, slot, fd, RDMACHAN_IOC_DGRAM_BENCH,
		 place_arg(&b, sizeof(b)), &b, sizeof(b), 1);
}
