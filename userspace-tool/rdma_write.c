// SPDX-License-Identifier: GPL-2.0-only
/*
 * rdma_write.c: "rdmachan rdma write": one RDMA WRITE (or WRITE_WITH_IMM,
 * or a READ then a WRITE) against the buffer of "rdmachan mr reg".
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "rdma.h"

#define RTW_BASE	64	/* --read-then-write: the data after the 8-byte sink */

enum {
	OPT_DATA = 2000, OPT_LEN, OPT_PATTERN, OPT_FILE, OPT_IMM, OPT_SGE,
	OPT_INLINE, OPT_FENCE, OPT_UNSIGNALED, OPT_SOLICITED, OPT_RTW,
	OPT_NO_FENCE,
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
		if (n < cap || cap >= RDMA_MAX_DATA)
			break;
		cap *= 2;
	}
	if (!nb || ferror(f) || n > RDMA_MAX_DATA || (n == cap && fgetc(f) != EOF)) {
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

static void write_help(void)
{
	printf("Usage: rdmachan rdma write ADDR[:PORT] [--offset OFF] (--data STRING | --len N [--pattern BYTE]\n"
	       "                           | --file FILE) [--imm N] [--sge K] [--inline] [--fence]\n"
	       "                           [--unsignaled] [--solicited] [--read-then-write [--no-fence]]\n"
	       "                           [--rkey X] [--raddr X] [--stale] [OPTIONS]\n"
	       "One RDMA WRITE of the data to offset OFF of the buffer of \"rdmachan mr reg\".\n"
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
		return !parse_size(arg, 0, RDMA_MAX_DATA, &w->len);
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
	/* text: the line of a write that went through, else only errors */
	enum out_type t = !wr->status && (!rd || !rd->status) ? PRINT_ANY : PRINT_JSON;

	open_record(stdout);
	print_str(PRINT_JSON, "op", NULL, "write");
	print_u64(t, "bytes", "wrote %llu bytes", len);
	print_str(t & PRINT_FP, NULL, " to %s", cl->dst);
	rdma_op_print("", wr);
	print_u64(t, "offset", " offset %llu", w->t.offset);
	print_u64(PRINT_JSON, "sge", NULL, len ? w->sge : 0);
	if (w->has_imm)
		print_u64(PRINT_JSON, "imm", NULL, w->imm);
	if (rd) {
		if (rd->status)
			print_null(PRINT_JSON, "read_before", NULL);
		else
			print_u64(t, "read_before", ", read before: %llu", le64_load(cl->buf));
		rdma_op_print("read_", rd);
		print_bool(PRINT_JSON, "fence", NULL, !!(wr->flags & RDMACHAN_OPF_FENCE));
	}
	if (t & PRINT_FP)
		print_nl();
	close_record();
	if (rd && rd->status)
		rdma_op_err("read", rd);
	if (wr->status)
		rdma_op_err("write", wr);
}

int cmd_rdma_write(int argc, char **argv)
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

	CMD_GETOPT_INIT();
	while ((c = CMD_GETOPT(argc, argv, "h" CHAN_GETOPT_SHORT, longopts)) != -1) {
		if (c == 'h') {
			write_help();
			return EXIT_OK;
		}
		r = write_opt(c, optarg, &w);
		if (r == 0)
			return tool_usage_err("rdma write", "invalid value '%s'", optarg);
		if (r > 0)
			continue;
		if (rdma_client_opt("rdma write", c, argv, &a, &w.t))
			return EXIT_USAGE;
	}
	if (cmd_one_addr("rdma write", &argc, &argv))
		return EXIT_USAGE;
	if (!!w.data + w.has_len + !!w.file != 1)
		return tool_usage_err("rdma write", "one of --data, --len and --file is needed");
	if (w.no_fence && !w.rtw)
		return tool_usage_err("rdma write", "--no-fence goes with --read-then-write");
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
		return tool_usage_err("rdma write", "--sge %llu: more segments than bytes",
				      (unsigned long long)w.sge);
	}
	ret = rdma_client_open("rdma write", argv[0], &a, &cl);
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
	    rdma_client_stage(&cl, data, len, w.sge, w.rtw ? RTW_BASE : 0, sge))
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

