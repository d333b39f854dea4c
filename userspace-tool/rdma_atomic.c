// SPDX-License-Identifier: GPL-2.0-only
/*
 * rdma_atomic.c: "rdmachan rdma atomic fadd|cswap": RDMA atomics on 8
 * bytes of the buffer of "rdmachan mr reg"; the old value(s) printed.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "rdma.h"

enum { OPT_ADD = 2100, OPT_COUNT, OPT_COMPARE, OPT_SWAP };

static void atomic_help(void)
{
	printf("Usage: rdmachan rdma atomic fadd ADDR[:PORT] [--offset OFF] --add N [--count K] [OPTIONS]\n"
	       "       rdmachan rdma atomic cswap ADDR[:PORT] [--offset OFF] --compare C --swap S [OPTIONS]\n"
	       "RDMA atomics on the 8 bytes at offset OFF (8-byte aligned) of the\n"
	       "buffer of \"rdmachan mr reg\"; print the old value.\n"
	       "  fadd: fetch and add N; --count K does it K times (up to %d per call)\n"
	       "        and prints the last old value\n"
	       "  cswap: compare with C and, when equal, swap in S\n"
	       RDMA_TARGET_HELP CHAN_OPTS_HELP, RDMACHAN_MAX_RDMA_OPS);
}

struct atomic_run {
	bool cswap;
	uint64_t arg, swap, count;	/* arg: addend or compare */
	uint64_t done, first_old, last_old;
	struct rdmachan_rdma_op last;	/* the failed op, or the last one */
};

/* Run the ops in batches; 0 or the errno of the first failure. */
static int run(struct rdma_client *cl, const struct rdma_target *t, struct atomic_run *ar)
{
	struct rdmachan_rdma_op ops[RDMACHAN_MAX_RDMA_OPS];
	struct rdmachan_sge sge[RDMACHAN_MAX_RDMA_OPS];
	unsigned int i, m, done;
	int err;

	while (ar->done < ar->count) {
		m = ar->count - ar->done < RDMACHAN_MAX_RDMA_OPS ?
			ar->count - ar->done : RDMACHAN_MAX_RDMA_OPS;
		memset(ops, 0, sizeof(ops));
		for (i = 0; i < m; i++) {
			sge[i] = (struct rdmachan_sge){
				.handle = cl->handle, .length = 8, .offset = 8 * i,
			};
			ops[i].opcode = ar->cswap ? RDMACHAN_OP_CMP_SWAP : RDMACHAN_OP_FETCH_ADD;
			ops[i].flags = i + 1 == m ? RDMACHAN_OPF_SIGNALED : 0;
			ops[i].sgl = (uintptr_t)&sge[i];
			ops[i].nr_sge = 1;
			ops[i].remote_addr = rdma_remote_addr(cl, t);
			ops[i].rkey = rdma_rkey(cl, t);
			ops[i].compare_add = ar->arg;
			ops[i].swap = ar->swap;
		}
		err = rdma_submit(cl->fd, ops, m, &done);
		if (done && !ar->done)
			ar->first_old = ops[0].result;
		if (done)
			ar->last_old = ops[done - 1].result;
		ar->done += done;
		ar->last = ops[err ? rdma_failed_op(ops, m, done) : m - 1];
		if (err)
			return err;
	}
	return 0;
}

static void report(const struct rdma_client *cl, const struct rdma_target *t,
		   const struct atomic_run *ar)
{
	const char *name = ar->cswap ? "cswap" : "fadd";
	bool ok = ar->done == ar->count;
	/* text: the line of a run that went through, else only the error */
	enum out_type tt = ok ? PRINT_ANY : PRINT_JSON;

	open_record(stdout);
	print_str(tt, "op", "%s", name);
	print_str(tt & PRINT_FP, NULL, " %s", cl->dst);
	print_u64(tt, "offset", " offset %llu", t->offset);
	if (ar->cswap) {
		print_u64(PRINT_JSON, "compare", NULL, ar->arg);
		print_u64(PRINT_JSON, "swap", NULL, ar->swap);
	} else {
		print_u64(PRINT_JSON, "add", NULL, ar->arg);
		print_u64(PRINT_JSON, "count", NULL, ar->count);
		print_u64(tt, "done", ": %llu done,", ar->done);
	}
	if (ar->done)
		print_u64(tt, "old", ar->cswap ? ": old %llu" : " old %llu\n", ar->last_old);
	else
		print_null(PRINT_JSON, "old", NULL);
	if (!ar->cswap && ar->done)
		print_u64(PRINT_JSON, "first_old", NULL, ar->first_old);
	if (ar->cswap && ok)
		print_bool(PRINT_JSON, "swapped", NULL, ar->last_old == ar->arg);
	if (ar->cswap)
		print_str(tt & PRINT_FP, NULL, " (%s)\n",
			  ar->last_old == ar->arg ? "swapped" : "not swapped");
	rdma_op_print("", &ar->last);
	close_record();
	if (!ok)
		rdma_op_err(name, &ar->last);
}

int cmd_rdma_atomic(int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "add", required_argument, NULL, OPT_ADD },
		{ "count", required_argument, NULL, OPT_COUNT },
		{ "compare", required_argument, NULL, OPT_COMPARE },
		{ "swap", required_argument, NULL, OPT_SWAP },
		RDMA_TARGET_LONG_OPTS,
		CHAN_LONG_OPTS,
		{ NULL, 0, NULL, 0 }
	};
	static const struct cmd ops[] = { { "fadd", NULL }, { "cswap", NULL }, CMD_END };
	struct atomic_run ar = { .count = 1 };
	struct rdma_target t = { 0 };
	struct chan_args a = { 0 };
	struct rdma_client cl;
	bool has_arg = false, has_swap = false;
	const char *cmd;
	int c, r, ret;

	if (argc < 1 || !strcmp(argv[0], "-h") || !strcmp(argv[0], "--help") ||
	    !strcmp(argv[0], "help")) {
		if (argc < 1)
			return tool_usage_err("rdma atomic", "fadd or cswap expected");
		atomic_help();
		return EXIT_OK;
	}
	/* the operation: a word of the grammar too, a prefix will do */
	r = cmd_match(ops, argv[0]);
	if (r < 0)
		return tool_usage_err("rdma atomic", "unknown operation '%s' (fadd or cswap)",
				      argv[0]);
	ar.cswap = r == 1;
	cmd = ar.cswap ? "rdma atomic cswap" : "rdma atomic fadd";
	argc--;
	argv++;
	CMD_GETOPT_INIT();
	while ((c = CMD_GETOPT(argc, argv, "h" CHAN_GETOPT_SHORT, longopts)) != -1) {
		switch (c) {
		case 'h':
			atomic_help();
			return EXIT_OK;
		case OPT_ADD:
		case OPT_COMPARE:
			if ((c == OPT_ADD) == ar.cswap)
				return tool_usage_err("rdma atomic", "--%s is not an option of %s",
						      c == OPT_ADD ? "add" : "compare", cmd);
			if (parse_uint(optarg, 0, UINT64_MAX, &ar.arg))
				return tool_usage_err("rdma atomic", "invalid value '%s'", optarg);
			has_arg = true;
			break;
		case OPT_SWAP:
			if (!ar.cswap)
				return tool_usage_err("rdma atomic", "--swap is not an option of %s", cmd);
			if (parse_uint(optarg, 0, UINT64_MAX, &ar.swap))
				return tool_usage_err("rdma atomic", "invalid value '%s'", optarg);
			has_swap = true;
			break;
		case OPT_COUNT:
			if (ar.cswap)
				return tool_usage_err("rdma atomic", "--count is not an option of %s", cmd);
			if (parse_uint(optarg, 1, UINT32_MAX, &ar.count))
				return tool_usage_err("rdma atomic", "invalid count '%s'", optarg);
			break;
		default:
			if (rdma_client_opt("rdma atomic", c, argv, &a, &t))
				return EXIT_USAGE;
		}
	}
	if (cmd_one_addr("rdma atomic", &argc, &argv))
		return EXIT_USAGE;
	if (!has_arg || (ar.cswap && !has_swap))
		return tool_usage_err("rdma atomic", ar.cswap ? "--compare and --swap are needed" :
				      "--add is needed");
	ret = rdma_client_open("rdma atomic", argv[0], &a, &cl);
	if (ret)
		return ret;
	ret = EXIT_FAIL;
	if ((t.stale && rdma_client_stale(&cl)) ||
	    rdma_client_buf(&cl, 8 * RDMACHAN_MAX_RDMA_OPS))
		goto out;
	r = run(&cl, &t, &ar);
	report(&cl, &t, &ar);
	ret = r ? EXIT_FAIL : EXIT_OK;
out:
	rdma_client_close(&cl, ret == EXIT_OK);
	return ret;
}
