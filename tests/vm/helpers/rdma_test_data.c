// SPDX-License-Identifier: GPL-2.0-only
/*
 * rdma_test_data.c: what lands: WRITE and READ integrity, 1 B to 4 MiB,
 * unaligned, multi-SGE; WRITE_WITH_IMM; fence; atomics; unsignalled
 * batches (data).
 */
#define _GNU_SOURCE
#include "rdma_test.h"

/*
 * Move @len bytes from the client's @src (at @soff) to the server's @dst
 * (at @doff) by WRITE, or back by READ, over registrations of at most
 * @chunk bytes each on both sides, with the local side split in @nseg
 * segments per op.  Return: whether every byte landed, and nothing else.
 */
static int xfer(struct chan_pair *p, int read_op, size_t len, size_t soff,
		size_t doff, uint64_t chunk, unsigned int nseg, char *why,
		size_t whylen)
{
	unsigned char *cbase = map(DATA_MAX + 16384),
		      *sbase = map(DATA_MAX + 16384);
	unsigned char *cli = cbase + 4096, *srv = sbase + 4096;
	unsigned int cl_access = read_op ? RDMACHAN_ACCESS_LOCAL_WRITE |
				 (iwarp ? RDMACHAN_ACCESS_REMOTE_WRITE : 0) : 0;
	unsigned int sv_access = read_op ? RDMACHAN_ACCESS_REMOTE_READ :
				 RDMACHAN_ACCESS_LOCAL_WRITE |
				 RDMACHAN_ACCESS_REMOTE_WRITE;
	struct rdmachan_rdma_op ops[RDMACHAN_MAX_RDMA_OPS];
	struct rdmachan_sge sg[RDMACHAN_MAX_RDMA_OPS][RDMACHAN_MAX_SGE];
	struct rdmachan_reg_mr creg[8], sreg[8];
	unsigned char *from, *to;
	unsigned int nr = 0, i, k, n;
	size_t off;
	uint32_t done;
	int ok = 1;

	from = read_op ? srv + doff : cli + soff;
	to = read_op ? cli + soff : srv + doff;
	fill(from, len, (uint32_t)len);
	memset(to - 1, 0x5a, len + 2);
	for (off = 0; off < len; off += chunk, nr++) {
		size_t c = len - off < chunk ? len - off : chunk;

		if (ioc_reg_mr(p->cli, cli + soff + off, c, cl_access, &creg[nr]) ||
		    ioc_reg_mr(p->srv, srv + doff + off, c, sv_access, &sreg[nr])) {
			snprintf(why, whylen, "register %zu bytes: %s", c,
				 strerror(errno));
			return 0;
		}
		n = c < nseg ? 1 : nseg;
		rdma_op_set(&ops[nr], read_op ? RDMACHAN_OP_READ : RDMACHAN_OP_WRITE,
		       sg[nr], n, &sreg[nr], 0);
		for (k = 0; k < n; k++) {
			size_t a = c * k / n, b = c * (k + 1) / n;

			sg[nr][k] = (struct rdmachan_sge){
				.handle = creg[nr].handle, .offset = a,
				.length = (uint32_t)(b - a) };
		}
	}
	if (rdma(p->cli, ops, nr, &done) || done != nr) {
		snprintf(why, whylen, "RDMA: %s, done %u of %u, status %d wc %u",
			 strerror(errno), done, nr, ops[0].status,
			 ops[0].wc_status);
		ok = 0;
	} else if (!read_op && peer_sync(p)) {
		snprintf(why, whylen, "no sync message after the WRITEs");
		ok = 0;
	} else if (memcmp(from, to, len)) {
		snprintf(why, whylen, "data differs");
		ok = 0;
	} else if (to[-1] != 0x5a || to[len] != 0x5a) {
		snprintf(why, whylen, "bytes around the target changed");
		ok = 0;
	}
	for (i = 0; i < nr; i++) {
		ioc_dereg_mr(p->cli, creg[i].handle);
		ioc_dereg_mr(p->srv, sreg[i].handle);
	}
	munmap(cbase, DATA_MAX + 16384);
	munmap(sbase, DATA_MAX + 16384);
	return ok;
}

static void data_sizes(struct chan_pair *p, uint64_t chunk)
{
	static const size_t sizes[] = { 1, 7, 64, 4095, 4096, 4097, 65536 + 13,
					 1 << 20, 4u << 20 };
	char what[160], why[160];
	unsigned int i, r;

	for (r = 0; r < 2; r++)
		for (i = 0; i < sizeof(sizes) / sizeof(sizes[0]); i++) {
			size_t len = sizes[i], soff = (i * 13) % 4096,
			       doff = (i * 29 + 1) % 4096;
			unsigned int nseg = i % 2 ? 4 : 1;

			/* a READ's sink: at most max_sge_rd (1 on iWARP) */
			if (r && nseg > p->info.max_sge_rd)
				nseg = p->info.max_sge_rd;

			why[0] = 0;
			snprintf(what, sizeof(what),
				 "%s of %zu bytes (offsets %zu/%zu, %u segment%s) lands exactly",
				 r ? "READ" : "WRITE", len, soff, doff, nseg,
				 nseg > 1 ? "s" : "");
			ktap_result(xfer(p, r, len, soff, doff, chunk, nseg, why,
				    sizeof(why)), what, "%s", why);
		}
}

static void data_write_imm(struct chan_pair *p)
{
	unsigned char *cli = map(8192), *srv = map(8192), msg[16];
	struct rdmachan_reg_mr cr, sr;
	struct rdmachan_user_msg um = { .buf = (uintptr_t)msg,
					.len = sizeof(msg) };
	struct rdmachan_mmsg mm = { .size = sizeof(mm), .msgs = (uintptr_t)&um,
				    .count = 1 };
	struct rdmachan_rdma_op op;
	struct rdmachan_sge sg;
	int ret;

	ioc_reg_mr(p->cli, cli, 4096, 0, &cr);
	ioc_reg_mr(p->srv, srv, 4096, RDMACHAN_ACCESS_LOCAL_WRITE |
	    RDMACHAN_ACCESS_REMOTE_WRITE, &sr);
	fill(cli, 100, 77);
	sg = (struct rdmachan_sge){ .handle = cr.handle, .length = 100 };
	rdma_op_set(&op, RDMACHAN_OP_WRITE_IMM, &sg, 1, &sr, 50);
	op.imm = 0xabcd1234;
	op.flags = RDMACHAN_OPF_SOLICITED;
	ret = rdma(p->cli, &op, 1, NULL);
	if (iwarp) {
		ktap_result(expect_errno(ret, EOPNOTSUPP),
		       "WRITE_WITH_IMM over iWARP fails with EOPNOTSUPP", "%s",
		       strerror(errno));
		goto out;
	}
	ktap_result(!ret && !op.status, "WRITE_WITH_IMM completes", "%s status %d",
	       strerror(errno), op.status);
	ret = ioctl(p->srv, RDMACHAN_IOC_RECV, &mm);
	ktap_result(!ret && mm.done == 1 && um.len == 0 &&
	       (um.flags & RDMACHAN_MSG_RDMA_IMM) && (um.flags & RDMACHAN_MSG_IMM) &&
	       um.imm == 0xabcd1234 && !memcmp(srv + 50, cli, 100),
	       "the peer reads the immediate once its data is in place",
	       "%s done %u len %u flags %#x imm %#x", strerror(errno), mm.done,
	       um.len, um.flags, um.imm);
	mm.flags = RDMACHAN_MSG_DONTWAIT;
	um.len = sizeof(msg);
	um.flags = 0;
	mm.done = 0;
	ret = ioctl(p->srv, RDMACHAN_IOC_RECV, &mm);
	ktap_result(expect_errno(ret, EAGAIN),
	       "the immediate arrives exactly once",
	       "ret %d (%s) done %u len %u flags %#x imm %#x", ret,
	       strerror(errno), mm.done, um.len, um.flags, um.imm);
out:
	ioc_dereg_mr(p->cli, cr.handle);
	ioc_dereg_mr(p->srv, sr.handle);
	munmap(cli, 8192);
	munmap(srv, 8192);
}

static void data_fence(struct chan_pair *p)
{
	uint64_t *cli = map(8192), *srv = map(8192);
	struct rdmachan_reg_mr cr, sr;
	struct rdmachan_rdma_op ops[2];
	struct rdmachan_sge sg[2];
	unsigned int round, bad = 0;
	int ret = 0;

	ioc_reg_mr(p->cli, cli, 4096, RDMACHAN_ACCESS_LOCAL_WRITE |
	    (iwarp ? RDMACHAN_ACCESS_REMOTE_WRITE : 0), &cr);
	ioc_reg_mr(p->srv, srv, 4096, RDMACHAN_ACCESS_LOCAL_WRITE |
	    RDMACHAN_ACCESS_REMOTE_WRITE | RDMACHAN_ACCESS_REMOTE_READ, &sr);
	for (round = 0; round < 200 && !ret; round++) {
		srv[0] = round;
		cli[0] = ~0ull;
		cli[1] = round + 1000;
		sg[0] = (struct rdmachan_sge){ .handle = cr.handle, .length = 8 };
		sg[1] = (struct rdmachan_sge){ .handle = cr.handle, .offset = 8,
					       .length = 8 };
		rdma_op_set(&ops[0], RDMACHAN_OP_READ, &sg[0], 1, &sr, 0);
		rdma_op_set(&ops[1], RDMACHAN_OP_WRITE, &sg[1], 1, &sr, 0);
		ops[1].flags = RDMACHAN_OPF_FENCE;
		ret = rdma(p->cli, ops, 2, NULL);
		if (!ret)
			ret = peer_sync(p);
		if (cli[0] != round || srv[0] != round + 1000)
			bad++;
	}
	ktap_result(!ret && !bad,
	       "a fenced WRITE after a READ of the same place: the READ sees the old value (200 rounds)",
	       "%s, %u rounds wrong", strerror(errno), bad);
	ioc_dereg_mr(p->cli, cr.handle);
	ioc_dereg_mr(p->srv, sr.handle);
	munmap(cli, 8192);
	munmap(srv, 8192);
}

static void data_atomics(struct chan_pair *p)
{
	uint64_t *cli = map(8192), *srv = map(8192);
	struct rdmachan_reg_mr cr, sr;
	struct rdmachan_rdma_op op;
	struct rdmachan_sge sg;
	int ret;

	ioc_reg_mr(p->cli, cli, 4096, RDMACHAN_ACCESS_LOCAL_WRITE, &cr);
	ret = ioc_reg_mr(p->srv, srv, 4096, RDMACHAN_ACCESS_LOCAL_WRITE |
		  RDMACHAN_ACCESS_REMOTE_ATOMIC, &sr);
	if (iwarp) {
		ktap_result(expect_errno(ret, EOPNOTSUPP),
		       "registering for remote atomics over iWARP fails with EOPNOTSUPP",
		       "%s", strerror(errno));
		sg = (struct rdmachan_sge){ .handle = cr.handle, .length = 8 };
		rdma_op_set(&op, RDMACHAN_OP_FETCH_ADD, &sg, 1, &cr, 0);
		ret = rdma(p->cli, &op, 1, NULL);
		ktap_result(expect_errno(ret, EOPNOTSUPP),
		       "FETCH_ADD over iWARP fails with EOPNOTSUPP", "%s",
		       strerror(errno));
		goto out;
	}
	srv[1] = 40;
	sg = (struct rdmachan_sge){ .handle = cr.handle, .offset = 16,
				    .length = 8 };
	rdma_op_set(&op, RDMACHAN_OP_FETCH_ADD, &sg, 1, &sr, 8);
	op.compare_add = 2;
	ret = rdma(p->cli, &op, 1, NULL);
	ktap_result(!ret && op.result == 40 && cli[2] == 40 && srv[1] == 42,
	       "FETCH_ADD returns the old value and adds",
	       "%s result %llu local %llu remote %llu", strerror(errno),
	       (unsigned long long)op.result, (unsigned long long)cli[2],
	       (unsigned long long)srv[1]);
	rdma_op_set(&op, RDMACHAN_OP_CMP_SWAP, &sg, 1, &sr, 8);
	op.compare_add = 42;
	op.swap = 7;
	ret = rdma(p->cli, &op, 1, NULL);
	ktap_result(!ret && op.result == 42 && srv[1] == 7,
	       "CMP_SWAP that matches swaps and returns the old value",
	       "%s result %llu remote %llu", strerror(errno),
	       (unsigned long long)op.result, (unsigned long long)srv[1]);
	op.compare_add = 42;
	op.swap = 9;
	ret = rdma(p->cli, &op, 1, NULL);
	ktap_result(!ret && op.result == 7 && srv[1] == 7,
	       "CMP_SWAP that does not match leaves the value and returns it",
	       "%s result %llu remote %llu", strerror(errno),
	       (unsigned long long)op.result, (unsigned long long)srv[1]);
	ioc_dereg_mr(p->srv, sr.handle);
out:
	ioc_dereg_mr(p->cli, cr.handle);
	munmap(cli, 8192);
	munmap(srv, 8192);
}

/* 20000 WRITEs, 64 per call, none asking for a completion */
static void data_unsignalled(struct chan_pair *p)
{
	uint32_t *cli = map(8192), *srv = map(8192);
	struct rdmachan_rdma_op ops[RDMACHAN_MAX_RDMA_OPS];
	struct rdmachan_sge sg[RDMACHAN_MAX_RDMA_OPS];
	struct rdmachan_reg_mr cr, sr;
	unsigned int n = 0, i;
	uint32_t done;
	int ret = 0;

	ioc_reg_mr(p->cli, cli, 4096, 0, &cr);
	ioc_reg_mr(p->srv, srv, 4096, RDMACHAN_ACCESS_LOCAL_WRITE |
	    RDMACHAN_ACCESS_REMOTE_WRITE, &sr);
	while (n < 20000 && !ret) {
		for (i = 0; i < RDMACHAN_MAX_RDMA_OPS; i++) {
			cli[i] = n + i;
			sg[i] = (struct rdmachan_sge){ .handle = cr.handle,
						       .offset = 4 * i,
						       .length = 4 };
			rdma_op_set(&ops[i], RDMACHAN_OP_WRITE, &sg[i], 1, &sr, 4 * i);
			if (i % 8 == 0)
				ops[i].flags = RDMACHAN_OPF_INLINE;
		}
		ret = rdma(p->cli, ops, RDMACHAN_MAX_RDMA_OPS, &done);
		n += done;
	}
	if (!ret)
		ret = peer_sync(p);
	for (i = 0; i < RDMACHAN_MAX_RDMA_OPS && !ret; i++)
		if (srv[i] != cli[i]) {
			ktap_diag("word %u: %u, expected %u", i, srv[i], cli[i]);
			ret = -1;
		}
	ktap_result(!ret && n >= 20000,
	       "20000 unsignalled WRITEs (some inline) in chains of 64 all land",
	       "%s after %u", strerror(errno), n);
	ioc_dereg_mr(p->cli, cr.handle);
	ioc_dereg_mr(p->srv, sr.handle);
	munmap(cli, 8192);
	munmap(srv, 8192);
}

int cmd_data(SUBCMD_ARGS)
{
	unsigned int poll_mode = poll_mode_arg(argc, argv);
	unsigned char *probe = map(DATA_MAX);
	struct chan_pair p;
	uint64_t chunk;

	if (pair_open(&p, poll_mode)) {
		ktap_result(0, "channel pair", "%s", strerror(errno));
		return 1;
	}
	chunk = max_reg(p.cli, probe);
	munmap(probe, DATA_MAX);
	ktap_result(chunk >= 65536, "the device registers at least 64 KiB at once",
	       "largest %llu", (unsigned long long)chunk);
	ktap_diag("largest registration: %llu bytes", (unsigned long long)chunk);
	ktap_result(chunk == DATA_MAX ||
	       (chunk <= p.info.max_reg_pages * 4096ull &&
		chunk * 2 > p.info.max_reg_pages * 4096ull),
	       "the largest registration is what CHAN_INFO's max_reg_pages says",
	       "largest %llu, max_reg_pages %u", (unsigned long long)chunk,
	       p.info.max_reg_pages);
	/* a registration need not start on a page: room for the offsets */
	data_sizes(&p, chunk / 2);
	data_write_imm(&p);
	data_fence(&p);
	data_atomics(&p);
	data_unsignalled(&p);
	chan_pair_close(&p);
	return ktap_failures() ? 1 : 0;
}
