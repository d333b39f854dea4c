// SPDX-License-Identifier: GPL-2.0-only
/*
 * rdma.c: "rdmachan write" and "rdmachan read": one RDMA WRITE (or
 * WRITE_WITH_IMM, or a READ then a WRITE) or one RDMA READ against the
 * buffer of "rdmachan reg".
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "rdma.h"

#define MAX_DATA	(1ULL << 30)
#define RTW_BASE	64	/* --read-then-write: the data after the 8-byte sink */

enum {
	OPT_DATA = 2000, OPT_LEN, OPT_PATTERN, OPT_FILE, OPT_IMM, OPT_SGE,
	OPT_INLINE, OPT_FENCE, OPT_UNSIGNALED, OPT_SOLICITED, OPT_RTW,
	OPT_NO_FENCE, OPT_OUT, OPT_CHECK,
};

static int read_file(const char *path, unsigned char **data, uint64_t *len)
{
	FILE *f = fopen(path, "rb");
	size_t cap = 4096, n = 0, got;
	unsigned char *b = NULL, *nb;

	if (!f) {
		tool_err("%s: %s", path, strerror(errno));
		return -1;
	}
	for (;;) {
		nb = realloc(b, cap);
		if (!nb)
			break;
		b = nb;
		got = fread(b + n, 1, cap - n, f);
		n += got;
		if (n < cap || cap >= MAX_DATA)
			break;
		cap *= 2;
	}
	if (!nb || ferror(f) || n > MAX_DATA || (n == cap && fgetc(f) != EOF)) {
		tool_err("%s: %s", path, !nb ? "out of memory" : ferror(f) ?
			 strerror(errno) : "larger than 1 GiB");
		free(b);
		fclose(f);
		return -1;
	}
	fclose(f);
	*data = b;
	*len = n;
	return 0;
}

/* Lay the data out in @cl's buffer; @sge gets the handle.  -1: error printed */
static int stage(struct rdma_client *cl, const unsigned char *data, uint64_t len,
		 unsigned int k, uint64_t base, struct rdmachan_sge *sge)
{
	int64_t span = len ? sge_split(len, k, base, k > 1 ? SGE_GAP : 0, sge) : (int64_t)base;
	unsigned int i;

	if (span < 0) {
		tool_err("cannot split %llu bytes into %u segments", (unsigned long long)len, k);
		return -1;
	}
	if (rdma_client_buf(cl, span))
		return -1;
	memset(cl->buf, SGE_POISON, cl->buflen);
	for (i = 0; len && i < k; i++)
		sge[i].handle = cl->handle;
	if (data)
		sge_pack(cl->buf, data, sge, k);
	return 0;
}

static void write_help(void)
{
	printf("Usage: rdmachan write ADDR[:PORT] [--offset OFF] (--data STRING | --len N [--pattern BYTE]\n"
	       "                      | --file FILE) [--imm N] [--sge K] [--inline] [--fence]\n"
	       "                      [--unsignaled] [--solicited] [--read-then-write [--no-fence]]\n"
	       "                      [--rkey X] [--raddr X] [--stale] [OPTIONS]\n"
	       "One RDMA WRITE of the data to offset OFF of the buffer of \"rdmachan reg\".\n"
	       "      --data STRING   the bytes of STRING\n"
	       "      --len N         N bytes of BYTE (--pattern, default 0x5a); 0: a\n"
	       "                      zero-length write\n"
	       "      --file FILE     the content of FILE (at most 1 GiB)\n"
	       "      --imm N         WRITE_WITH_IMM with 32-bit immediate N\n"
	       "      --sge K         gather the data from K segments of the local\n"
	       "                      registration, %d bytes apart (default 1)\n"
	       "      --inline        RDMACHAN_OPF_INLINE\n"
	       "      --fence         RDMACHAN_OPF_FENCE\n"
	       "      --unsignaled    without RDMACHAN_OPF_SIGNALED\n"
	       "      --solicited     RDMACHAN_OPF_SOLICITED\n"
	       "      --read-then-write\n"
	       "                      in the same call, first READ the 8 bytes at OFF\n"
	       "                      (printed as read_before), then WRITE, fenced\n"
	       "      --no-fence      with --read-then-write: no fence on the WRITE\n"
	       RDMA_TARGET_HELP CHAN_OPTS_HELP, SGE_GAP);
}

struct write_args {
	struct rdma_target t;
	const char *data, *file;
	uint64_t len, pattern, imm, sge;
	bool has_len, has_imm, inl, fence, unsignaled, solicited, rtw, no_fence;
};

static int write_opt(int c, const char *arg, struct write_args *w)
{
	switch (c) {
	case OPT_DATA:
		w->data = arg;
		return 1;
	case OPT_LEN:
		w->has_len = true;
		return !parse_size(arg, 0, MAX_DATA, &w->len);
	case OPT_PATTERN:
		return !parse_uint(arg, 0, 255, &w->pattern);
	case OPT_FILE:
		w->file = arg;
		return 1;
	case OPT_IMM:
		w->has_imm = true;
		return !parse_uint(arg, 0, UINT32_MAX, &w->imm);
	case OPT_SGE:
		return !parse_uint(arg, 1, RDMACHAN_MAX_SGE, &w->sge);
	case OPT_INLINE:
		w->inl = true;
		return 1;
	case OPT_FENCE:
		w->fence = true;
		return 1;
	case OPT_UNSIGNALED:
		w->unsignaled = true;
		return 1;
	case OPT_SOLICITED:
		w->solicited = true;
		return 1;
	case OPT_RTW:
		w->rtw = true;
		return 1;
	case OPT_NO_FENCE:
		w->no_fence = true;
		return 1;
	default:
		return -1;
	}
}

static void write_report(const struct rdma_client *cl, const struct write_args *w,
			 uint64_t len, const struct rdmachan_rdma_op *rd,
			 const struct rdmachan_rdma_op *wr)
{
	if (tool.json) {
		json_obj_open(&tool.j);
		json_kv_str(&tool.j, "op", "write");
		json_kv_u64(&tool.j, "bytes", len);
		rdma_op_json("", wr);
		json_kv_u64(&tool.j, "offset", w->t.offset);
		json_kv_u64(&tool.j, "sge", len ? w->sge : 0);
		if (w->has_imm)
			json_kv_u64(&tool.j, "imm", w->imm);
		if (rd) {
			json_key(&tool.j, "read_before");
			if (rd->status)
				json_null(&tool.j);
			else
				json_u64(&tool.j, le64_load(cl->buf));
			rdma_op_json("read_", rd);
			json_kv_bool(&tool.j, "fence", !!(wr->flags & RDMACHAN_OPF_FENCE));
		}
		json_obj_close(&tool.j);
		json_end(&tool.j);
	} else if (!wr->status && (!rd || !rd->status)) {
		printf("wrote %llu bytes to %s offset %llu",
		       (unsigned long long)len, cl->dst, (unsigned long long)w->t.offset);
		if (rd)
			printf(", read before: %" PRIu64, le64_load(cl->buf));
		putchar('\n');
	}
	if (rd && rd->status)
		rdma_op_err("read", rd);
	if (wr->status)
		rdma_op_err("write", wr);
}

int cmd_write(int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "data", required_argument, NULL, OPT_DATA },
		{ "len", required_argument, NULL, OPT_LEN },
		{ "pattern", required_argument, NULL, OPT_PATTERN },
		{ "file", required_argument, NULL, OPT_FILE },
		{ "imm", required_argument, NULL, OPT_IMM },
		{ "sge", required_argument, NULL, OPT_SGE },
		{ "inline", no_argument, NULL, OPT_INLINE },
		{ "fence", no_argument, NULL, OPT_FENCE },
		{ "unsignaled", no_argument, NULL, OPT_UNSIGNALED },
		{ "solicited", no_argument, NULL, OPT_SOLICITED },
		{ "read-then-write", no_argument, NULL, OPT_RTW },
		{ "no-fence", no_argument, NULL, OPT_NO_FENCE },
		RDMA_TARGET_LONG_OPTS,
		CHAN_LONG_OPTS,
		{ NULL, 0, NULL, 0 }
	};
	struct write_args w = { .pattern = 0x5a, .sge = 1 };
	struct rdmachan_sge sge[RDMACHAN_MAX_SGE] = { { 0 } }, sink;
	struct rdmachan_rdma_op ops[2], *wr;
	struct chan_args a = { 0 };
	struct rdma_client cl;
	unsigned char *data = NULL;
	unsigned int n = 0, done;
	uint64_t len = 0;
	int c, r, ret;

	optind = 1;
	opterr = 0;
	while ((c = CMD_GETOPT(argc, argv, "h" CHAN_GETOPT_SHORT, longopts)) != -1) {
		if (c == 'h') {
			write_help();
			return EXIT_OK;
		}
		r = write_opt(c, optarg, &w);
		if (r == 0)
			return tool_usage_err("write", "invalid value '%s'", optarg);
		if (r > 0)
			continue;
		r = rdma_client_opt("write", c, optarg, &a, &w.t);
		if (r < 0)
			return EXIT_USAGE;
		if (!r)
			return tool_usage_err("write", "unknown or incomplete option '%s'",
					      argv[optind - 2]);
	}
	argc -= optind - 1;
	argv += optind - 1;
	if (argc != 1)
		return tool_usage_err("write", argc ? "one address expected" :
				      "an address is needed");
	if (!!w.data + w.has_len + !!w.file != 1)
		return tool_usage_err("write", "one of --data, --len and --file is needed");
	if (w.no_fence && !w.rtw)
		return tool_usage_err("write", "--no-fence goes with --read-then-write");
	if (w.data) {
		len = strlen(w.data);
		data = (unsigned char *)strdup(w.data);
	} else if (w.has_len) {
		len = w.len;
		data = malloc(len ? len : 1);
		if (data)
			memset(data, w.pattern, len);
	} else if (read_file(w.file, &data, &len)) {
		return EXIT_FAIL;
	}
	if (!data) {
		tool_err("out of memory");
		return EXIT_FAIL;
	}
	if ((len && w.sge > len) || (!len && w.sge > 1)) {
		free(data);
		return tool_usage_err("write", "--sge %llu: more segments than bytes",
				      (unsigned long long)w.sge);
	}
	ret = rdma_client_open("write", argv[0], &a, &cl);
	if (ret)
		goto out_free;
	ret = EXIT_FAIL;
	/* the channel's limits (0: a module that does not report them) */
	if (len && cl.ci.max_send_sge && w.sge > cl.ci.max_send_sge) {
		tool_err("write: --sge %llu: an operation on %s gathers at most %u segments (max_send_sge)",
			 (unsigned long long)w.sge, cl.ci.dev_name, cl.ci.max_send_sge);
		goto out;
	}
	if (w.inl && len > cl.ci.max_inline) {
		tool_err("write: --inline: %llu bytes are over the channel's inline limit of %u",
			 (unsigned long long)len, cl.ci.max_inline);
		goto out;
	}
	if ((w.t.stale && rdma_client_stale(&cl)) ||
	    stage(&cl, data, len, w.sge, w.rtw ? RTW_BASE : 0, sge))
		goto out;
	memset(ops, 0, sizeof(ops));
	if (w.rtw) {
		sink = (struct rdmachan_sge){ .handle = cl.handle, .length = 8 };
		ops[n].opcode = RDMACHAN_OP_READ;
		ops[n].flags = RDMACHAN_OPF_SIGNALED;
		ops[n].sgl = (uintptr_t)&sink;
		ops[n].nr_sge = 1;
		ops[n].remote_addr = rdma_remote_addr(&cl, &w.t);
		ops[n].rkey = rdma_rkey(&cl, &w.t);
		n++;
	}
	wr = &ops[n++];
	wr->opcode = w.has_imm ? RDMACHAN_OP_WRITE_IMM : RDMACHAN_OP_WRITE;
	wr->flags = (w.unsignaled ? 0 : RDMACHAN_OPF_SIGNALED) |
		    (w.inl ? RDMACHAN_OPF_INLINE : 0) |
		    (w.solicited ? RDMACHAN_OPF_SOLICITED : 0) |
		    (w.fence || (w.rtw && !w.no_fence) ? RDMACHAN_OPF_FENCE : 0);
	wr->sgl = (uintptr_t)sge;
	wr->nr_sge = len ? w.sge : 0;
	wr->imm = w.imm;
	wr->remote_addr = rdma_remote_addr(&cl, &w.t);
	wr->rkey = rdma_rkey(&cl, &w.t);
	r = rdma_submit(cl.fd, ops, n, &done);
	write_report(&cl, &w, len, w.rtw ? &ops[0] : NULL, wr);
	ret = r ? EXIT_FAIL : EXIT_OK;
out:
	rdma_client_close(&cl, ret == EXIT_OK);
out_free:
	free(data);
	return ret;
}

static void read_help(void)
{
	printf("Usage: rdmachan read ADDR[:PORT] [--offset OFF] --len N [--out FILE] [--sge K]\n"
	       "                     [--fence] [--check-byte B] [--rkey X] [--raddr X] [--stale]\n"
	       "                     [OPTIONS]\n"
	       "One RDMA READ of N bytes at offset OFF of the buffer of \"rdmachan reg\";\n"
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
		printf("%08zx ", i);
		for (j = i; j < i + 16; j++)
			if (j < n)
				printf(" %02x", p[j]);
			else
				printf("   ");
		printf("  |");
		for (j = i; j < i + 16 && j < n; j++)
			putchar(p[j] >= 0x20 && p[j] < 0x7f ? p[j] : '.');
		printf("|\n");
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
	char hex[2 * 64 + 1];

	if (tool.json) {
		json_obj_open(&tool.j);
		json_kv_str(&tool.j, "op", "read");
		json_kv_u64(&tool.j, "bytes", len);
		rdma_op_json("", op);
		json_kv_u64(&tool.j, "offset", t->offset);
		json_kv_u64(&tool.j, "sge", k);
		if (!op->status) {
			snprintf(hex, sizeof(hex), "%016" PRIx64, res->fnv);
			json_kv_str(&tool.j, "fnv64", hex);
			if (len >= 8)
				json_kv_u64(&tool.j, "first_u64", le64_load(data));
			if (out) {
				json_kv_str(&tool.j, "out", out);
			} else {
				format_hex(data, len < 64 ? len : 64, hex, sizeof(hex));
				json_kv_str(&tool.j, "hex", hex);
			}
			if (k > 1)
				json_kv_bool(&tool.j, "gaps_ok", res->gaps_ok);
			if (check >= 0) {
				json_kv_u64(&tool.j, "check_byte", check);
				json_kv_bool(&tool.j, "check_ok", res->bad < 0);
				json_key(&tool.j, "first_mismatch");
				if (res->bad < 0)
					json_null(&tool.j);
				else
					json_u64(&tool.j, res->bad);
			}
		}
		json_obj_close(&tool.j);
		json_end(&tool.j);
	} else if (!op->status && res->out_ok) {
		printf("read %llu bytes from %s offset %llu: fnv64 %016" PRIx64 "\n",
		       (unsigned long long)len, cl->dst, (unsigned long long)t->offset,
		       res->fnv);
		if (!out)
			hexdump(data, len < 64 ? len : 64);
	}
	if (op->status)
		rdma_op_err("read", op);
	if (!op->status && !res->gaps_ok)
		tool_err("read: bytes outside the %u segments changed", k);
	if (!op->status && check >= 0 && res->bad >= 0)
		tool_err("read: byte %lld is 0x%02x, not 0x%02x", (long long)res->bad,
			 data[res->bad], check);
}

int cmd_read(int argc, char **argv)
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

	optind = 1;
	opterr = 0;
	while ((c = CMD_GETOPT(argc, argv, "h" CHAN_GETOPT_SHORT, longopts)) != -1) {
		switch (c) {
		case 'h':
			read_help();
			return EXIT_OK;
		case OPT_LEN:
			if (parse_size(optarg, 1, MAX_DATA, &len))
				return tool_usage_err("read", "invalid length '%s'", optarg);
			break;
		case OPT_OUT:
			out = optarg;
			break;
		case OPT_SGE:
			if (parse_uint(optarg, 1, RDMACHAN_MAX_SGE, &k))
				return tool_usage_err("read", "invalid segment count '%s'", optarg);
			break;
		case OPT_FENCE:
			fence = true;
			break;
		case OPT_CHECK:
			if (parse_uint(optarg, 0, 255, &v))
				return tool_usage_err("read", "invalid byte '%s'", optarg);
			check = v;
			break;
		default:
			r = rdma_client_opt("read", c, optarg, &a, &t);
			if (r < 0)
				return EXIT_USAGE;
			if (!r)
				return tool_usage_err("read", "unknown or incomplete option '%s'",
						      argv[optind - 2]);
		}
	}
	argc -= optind - 1;
	argv += optind - 1;
	if (argc != 1)
		return tool_usage_err("read", argc ? "one address expected" :
				      "an address is needed");
	if (!len)
		return tool_usage_err("read", "--len is needed");
	if (k > len)
		return tool_usage_err("read", "--sge %llu: more segments than bytes",
				      (unsigned long long)k);
	data = malloc(len);
	if (!data) {
		tool_err("out of memory");
		return EXIT_FAIL;
	}
	ret = rdma_client_open("read", argv[0], &a, &cl);
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
	if ((t.stale && rdma_client_stale(&cl)) || stage(&cl, NULL, len, k, 0, sge))
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
