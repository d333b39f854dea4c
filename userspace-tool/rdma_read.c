// SPDX-License-Identifier: GPL-2.0-only
/*
 * rdma_read.c: "rdmachan rdma read": one RDMA READ against the buffer of
 * "rdmachan mr reg".
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "rdma.h"

enum { OPT_LEN = 2000, OPT_OUT, OPT_SGE, OPT_FENCE, OPT_CHECK };

static void read_help(void)
{
	printf("Usage: rdmachan rdma read ADDR[:PORT] [--offset OFF] --len N [--out FILE] [--sge K]\n"
	       "                          [--fence] [--check-byte B] [--rkey X] [--raddr X] [--stale]\n"
	       "                          [OPTIONS]\n"
	       "One RDMA READ of N bytes at offset OFF of the buffer of \"rdmachan mr reg\";\n"
	       "print their FNV-1a 64 and the first 64 of them (or write them to FILE).\n"
	       "      --len N         bytes to read\n"
	       "      --out FILE      write the bytes to FILE\n"
	       "      --sge K         scatter into K segments of the local registration,\n"
	       "                      %d bytes apart (the gaps are checked untouched)\n"
	       "      --fence         RDMACHAN_OPF_FENCE\n"
	       "      --check-byte B  fail unless every byte read is B\n"
	       RDMA_TARGET_HELP CHAN_OPTS_HELP, SGE_GAP);
}

static void hexdump(const unsigned char *p, size_t n)
{
	size_t i, j;

	for (i = 0; i < n; i += 16) {
		print_fp("%08zx ", i);
		for (j = i; j < i + 16; j++)
			if (j < n)
				print_fp(" %02x", p[j]);
			else
				print_fp("   ");
		print_fp("  |");
		for (j = i; j < i + 16 && j < n; j++)
			print_fp("%c", p[j] >= 0x20 && p[j] < 0x7f ? p[j] : '.');
		print_fp("|\n");
	}
}

static int write_file(const char *path, const unsigned char *p, uint64_t n)
{
	FILE *f = fopen(path, "wb");
	bool ok;

	if (!f) {
		tool_err("%s: %s", path, strerror(errno));
		return -1;
	}
	ok = fwrite(p, 1, n, f) == n;
	if (fclose(f) || !ok) {
		tool_err("%s: %s", path, strerror(errno));
		return -1;
	}
	return 0;
}

/* -1 when every byte is @b, else the offset of the first that is not */
static int64_t first_mismatch(const unsigned char *p, uint64_t n, unsigned char b)
{
	uint64_t i;

	for (i = 0; i < n; i++)
		if (p[i] != b)
			return i;
	return -1;
}

/* true when the gaps between the segments still hold SGE_POISON */
static bool gaps_intact(const struct rdma_client *cl, const struct rdmachan_sge *sge,
			unsigned int k)
{
	unsigned int i;

	for (i = 0; i + 1 < k; i++) {
		uint64_t end = sge[i].offset + sge[i].length;

		if (first_mismatch(cl->buf + end, sge[i + 1].offset - end, SGE_POISON) >= 0)
			return false;
	}
	return true;
}

struct read_result {
	uint64_t fnv;
	int64_t bad;		/* --check-byte: first other byte, or -1 */
	bool gaps_ok;
	bool out_ok;
};

static void read_report(const struct rdma_client *cl, const struct rdma_target *t,
			const unsigned char *data, uint64_t len, unsigned int k,
			const char *out, int check, const struct rdmachan_rdma_op *op,
			const struct read_result *res)
{
	/* text: the line (and hexdump) of a read that went through */
	enum out_type tt = !op->status && res->out_ok ? PRINT_ANY : PRINT_JSON;
	char hex[2 * 64 + 1];

	open_record(stdout);
	print_str(PRINT_JSON, "op", NULL, "read");
	print_u64(tt, "bytes", "read %llu bytes", len);
	print_str(tt & PRINT_FP, NULL, " from %s", cl->dst);
	rdma_op_print("", op);
	print_u64(tt, "offset", " offset %llu", t->offset);
	print_uint(PRINT_JSON, "sge", NULL, k);
	if (!op->status) {
		snprintf(hex, sizeof(hex), "%016" PRIx64, res->fnv);
		print_str(tt, "fnv64", ": fnv64 %s\n", hex);
		if (len >= 8)
			print_u64(PRINT_JSON, "first_u64", NULL, le64_load(data));
		if (out) {
			print_str(PRINT_JSON, "out", NULL, out);
		} else {
			format_hex(data, len < 64 ? len : 64, hex, sizeof(hex));
			print_str(PRINT_JSON, "hex", NULL, hex);
			if (tt & PRINT_FP)
				hexdump(data, len < 64 ? len : 64);
		}
		if (k > 1)
			print_bool(PRINT_JSON, "gaps_ok", NULL, res->gaps_ok);
		if (check >= 0) {
			print_uint(PRINT_JSON, "check_byte", NULL, check);
			print_bool(PRINT_JSON, "check_ok", NULL, res->bad < 0);
			if (res->bad < 0)
				print_null(PRINT_JSON, "first_mismatch", NULL);
			else
				print_u64(PRINT_JSON, "first_mismatch", NULL, res->bad);
		}
	}
	close_record();
	if (op->status)
		rdma_op_err("read", op);
	if (!op->status && !res->gaps_ok)
		tool_err("read: bytes outside the %u segments changed", k);
	if (!op->status && check >= 0 && res->bad >= 0)
		tool_err("read: byte %lld is 0x%02x, not 0x%02x", (long long)res->bad,
			 data[res->bad], check);
}

int cmd_rdma_read(int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "len", required_argument, NULL, OPT_LEN },
		{ "out", required_argument, NULL, OPT_OUT },
		{ "sge", required_argument, NULL, OPT_SGE },
		{ "fence", no_argument, NULL, OPT_FENCE },
		{ "check-byte", required_argument, NULL, OPT_CHECK },
		RDMA_TARGET_LONG_OPTS,
		CHAN_LONG_OPTS,
		{ NULL, 0, NULL, 0 }
	};
	struct rdmachan_sge sge[RDMACHAN_MAX_SGE] = { { 0 } };
	struct read_result res = { .bad = -1, .gaps_ok = true, .out_ok = true };
	struct rdma_target t = { 0 };
	struct rdmachan_rdma_op op;
	struct chan_args a = { 0 };
	struct rdma_client cl;
	uint64_t len = 0, k = 1, v;
	unsigned char *data = NULL;
	const char *out = NULL;
	bool fence = false;
	unsigned int done;
	int c, r = 0, ret, check = -1;

	CMD_GETOPT_INIT();
	while ((c = CMD_GETOPT(argc, argv, "h" CHAN_GETOPT_SHORT, longopts)) != -1) {
		switch (c) {
		case 'h':
			read_help();
			return EXIT_OK;
		case OPT_LEN:
			if (parse_size(optarg, 1, RDMA_MAX_DATA, &len))
				return tool_usage_err("rdma read", "invalid length '%s'", optarg);
			break;
		case OPT_OUT:
			out = optarg;
			break;
		case OPT_SGE:
			if (parse_uint(optarg, 1, RDMACHAN_MAX_SGE, &k))
				return tool_usage_err("rdma read", "invalid segment count '%s'", optarg);
			break;
		case OPT_FENCE:
			fence = true;
			break;
		case OPT_CHECK:
			if (parse_uint(optarg, 0, 255, &v))
				return tool_usage_err("rdma read", "invalid byte '%s'", optarg);
			check = v;
			break;
		default:
			if (rdma_client_opt("rdma read", c, argv, &a, &t))
				return EXIT_USAGE;
		}
	}
	if (cmd_one_addr("rdma read", &argc, &argv))
		return EXIT_USAGE;
	if (!len)
		return tool_usage_err("rdma read", "--len is needed");
	if (k > len)
		return tool_usage_err("rdma read", "--sge %llu: more segments than bytes",
				      (unsigned long long)k);
	data = malloc(len);
	if (!data) {
		tool_err("out of memory");
		return EXIT_FAIL;
	}
	ret = rdma_client_open("rdma read", argv[0], &a, &cl);
	if (ret)
		goto out_free;
	ret = EXIT_FAIL;
	r = -1;
	if (cl.ci.max_sge_rd && k > cl.ci.max_sge_rd) {
		/* iWARP names one sink per READ */
		tool_err("read: --sge %llu: a READ on %s scatters into at most %u segment%s (max_sge_rd)",
			 (unsigned long long)k, cl.ci.dev_name, cl.ci.max_sge_rd,
			 cl.ci.max_sge_rd == 1 ? "" : "s");
		goto out;
	}
	if ((t.stale && rdma_client_stale(&cl)) || rdma_client_stage(&cl, NULL, len, k, 0, sge))
		goto out;
	memset(&op, 0, sizeof(op));
	op.opcode = RDMACHAN_OP_READ;
	op.flags = RDMACHAN_OPF_SIGNALED | (fence ? RDMACHAN_OPF_FENCE : 0);
	op.sgl = (uintptr_t)sge;
	op.nr_sge = k;
	op.remote_addr = rdma_remote_addr(&cl, &t);
	op.rkey = rdma_rkey(&cl, &t);
	r = rdma_submit(cl.fd, &op, 1, &done);
	if (!r) {
		sge_unpack(data, cl.buf, sge, k);
		res.fnv = fnv1a64(FNV64_INIT, data, len);
		res.gaps_ok = gaps_intact(&cl, sge, k);
		if (check >= 0)
			res.bad = first_mismatch(data, len, check);
		if (out)
			res.out_ok = !write_file(out, data, len);
	}
	read_report(&cl, &t, data, len, k, out, check, &op, &res);
	ret = r || !res.gaps_ok || res.bad >= 0 || !res.out_ok ? EXIT_FAIL : EXIT_OK;
out:
	rdma_client_close(&cl, r == 0);
out_free:
	free(data);
	return ret;
}
