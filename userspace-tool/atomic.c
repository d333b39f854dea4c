// SPDX-License-Identifier: GPL-2.0-only
/*
 * atomic.c: "rdmachan atomic fadd|cswap": RDMA atomics on 8 bytes of the
 * buffer of "rdmachan reg"; the old value(s) printed.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "rdma.h"

enum { OPT_ADD = 2100, OPT_COUNT, OPT_COMPARE, OPT_SWAP };

static void atomic_help(void)
{
	printf("Usage: rdmachan atomic fadd ADDR[:PORT] [--offset OFF] --add N [--count K] [OPTIONS]\n"
	       "       rdmachan atomic cswap ADDR[:PORT] [--offset OFF] --compare C --swap S [OPTIONS]\n"
	       "RDMA atomics on the 8 bytes at offset OFF (8-byte aligned) of the\n"
	       "buffer of \"rdmachan reg\"; print the old value.\n"
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

	if (tool.json) {
		json_obj_open(&tool.j);
		json_kv_str(&tool.j, "op", name);
		json_kv_u64(&tool.j, "offset", t->offset);
		if (ar->cswap) {
			json_kv_u64(&tool.j, "compare", ar->arg);
			json_kv_u64(&tool.j, "swap", ar->swap);
		} else {
			json_kv_u64(&tool.j, "add", ar->arg);
			json_kv_u64(&tool.j, "count", ar->count);
			json_kv_u64(&tool.j, "done", ar->done);
		}
		json_key(&tool.j, "old");
		if (ar->done)
			json_u64(&tool.j, ar->last_old);
		else
			json_null(&tool.j);
		if (!ar->cswap && ar->done)
			json_kv_u64(&tool.j, "first_old", ar->first_old);
		if (ar->cswap && ok)
			json_kv_bool(&tool.j, "swapped", ar->last_old == ar->arg);
		rdma_op_json("", &ar->last);
		json_obj_close(&tool.j);
		json_end(&tool.j);
	} else if (ok && ar->cswap) {
		printf("cswap %s offset %llu: old %" PRIu64 " (%s)\n", cl->dst,
		       (unsigned long long)t->offset, ar->last_old,
		       ar->last_old == ar->arg ? "swapped" : "not swapped");
	} else if (ok) {
		printf("fadd %s offset %llu: %llu done, old %" PRIu64 "\n", cl->dst,
		       (unsigned long long)t->offset, (unsigned long long)ar->done,
		       ar->last_old);
	}
	if (!ok)
		rdma_op_err(name, &ar->last);
}

int cmd_atomic(int argc, char **argv)
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
			return tool_usage_err("atomic", "fadd or cswap expected");
		atomic_help();
		return EXIT_OK;
	}
	if (!strcmp(argv[0], "cswap"))
		ar.cswap = true;
	else if (strcmp(argv[0], "fadd"))
		return tool_usage_err("atomic", "unknown operation '%s' (fadd or cswap)",
				      argv[0]);
	cmd = ar.cswap ? "atomic cswap" : "atomic fadd";
	argc--;
	argv++;
	optind = 1;
	opterr = 0;
	while ((c = CMD_GETOPT(argc, argv, "h" CHAN_GETOPT_SHORT, longopts)) != -1) {
		switch (c) {
		case 'h':
			atomic_help();
			return EXIT_OK;
		case OPT_ADD:
		case OPT_COMPARE:
			if ((c == OPT_ADD) == ar.cswap)
				return tool_usage_err("atomic", "--%s is not an option of %s",
						      c == OPT_ADD ? "add" : "compare", cmd);
			if (parse_uint(optarg, 0, UINT64_MAX, &ar.arg))
				return tool_usage_err("atomic", "invalid value '%s'", optarg);
			has_arg = true;
			break;
		case OPT_SWAP:
			if (!ar.cswap)
				return tool_usage_err("atomic", "--swap is not an option of %s", cmd);
			if (parse_uint(optarg, 0, UINT64_MAX, &ar.swap))
				return tool_usage_err("atomic", "invalid value '%s'", optarg);
			has_swap = true;
			break;
		case OPT_COUNT:
			if (ar.cswap)
				return tool_usage_err("atomic", "--count is not an option of %s", cmd);
			if (parse_uint(optarg, 1, UINT32_MAX, &ar.count))
				return tool_usage_err("atomic", "invalid count '%s'", optarg);
			break;
		default:
			r = rdma_client_opt("atomic", c, optarg, &a, &t);
			if (r < 0)
				return EXIT_USAGE;
			if (!r)
				return tool_usage_err("atomic", "unknown or incomplete option '%s'",
						      argv[optind - 2]);
		}
	}
	argc -= optind - 1;
	argv += optind - 1;
	if (argc != 1)
		return tool_usage_err("atomic", argc ? "one address expected" :
				      "an address is needed");
	if (!has_arg || (ar.cswap && !has_swap))
		return tool_usage_err("atomic", ar.cswap ? "--compare and --swap are needed" :
				      "--add is needed");
	ret = rdma_client_open("atomic", argv[0], &a, &cl);
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
