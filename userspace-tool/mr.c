// SPDX-License-Identifier: GPL-2.0-only
/*
 * mr.c: the "mr" object (memory registrations): its commands, and a
 * registration on a channel and its end (RDMACHAN_IOC_REG_MR, DEREG_MR).
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "ioc.h"
#include "rdma.h"

int mr_reg(int fd, void *addr, uint64_t len, uint32_t access,
	   struct rdmachan_reg_mr *r)
{
	return ioc_reg_mr(fd, addr, len, access, r) < 0 ? -errno : 0;
}

int mr_dereg(int fd, uint32_t handle)
{
	return ioc_dereg_mr(fd, handle) < 0 ? -errno : 0;
}

static int mr_help(int argc, char **argv)
{
	(void)argc;
	(void)argv;
	printf("Usage: rdmachan [OPTIONS] mr reg ADDR[:PORT] --size SIZE [ARGS]\n"
	       "       rdmachan mr { reg --help | help }\n"
	       "  reg ADDR[:PORT] --size SIZE  serve one registered buffer to \"rdmachan\n"
	       "                               rdma\" and \"rdmachan chan bench --op\"\n");
	return EXIT_OK;
}

const struct cmd mr_cmds[] = {
	{ "reg", cmd_mr_reg },
	{ "help", mr_help },
	CMD_END
};

int obj_mr(int argc, char **argv)
{
	return cmd_run("mr", mr_cmds, argc, argv);
}
