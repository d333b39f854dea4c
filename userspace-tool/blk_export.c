// SPDX-License-Identifier: GPL-2.0-only
/*
 * blk_export.c: "rdmachan blk export" and "blk unexport": a block device served
 * under a name (the server side of rdmachan_blk.ko)
 */
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "blk.h"
#include "ioc.h"
#include "rdma.h"		/* errno_name() */

static void export_help(void)
{
	printf("Usage: rdmachan blk export NAME PATH [--ro] [--stable-id] [--allow CIDR]...\n"
	       "Serve block device PATH as export NAME ([A-Za-z0-9._-], up to 63\n"
	       "characters) to the clients of the networks allowed.\n"
	       "      --ro            read-only: clients may only map it --ro\n"
	       "      --stable-id     its identity is NAME and size only: PATH names\n"
	       "                      the same data after a reboot, so that clients\n"
	       "                      reconnect across it\n"
	       "  -a, --allow CIDR    a client network, ADDR/LEN (IPv4 or IPv6) or\n"
	       "                      one ADDR; up to %d; none refuses every client\n",
	       RDMACHAN_BLK_MAX_ALLOW);
}

int cmd_blk_export(int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "ro", no_argument, NULL, 'r' },
		{ "stable-id", no_argument, NULL, 's' },
		{ "allow", required_argument, NULL, 'a' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 }
	};
	struct rdmachan_blk_cidr allow[RDMACHAN_BLK_MAX_ALLOW];
	unsigned int nr_allow = 0, flags = 0;
	int c, ctl, ret;

	CMD_GETOPT_INIT();
	while ((c = CMD_GETOPT(argc, argv, "ha:", longopts)) != -1) {
		switch (c) {
		case 'h':
			export_help();
			return EXIT_OK;
		case 'r':
			flags |= RDMACHAN_BLK_RO;
			break;
		case 's':
			flags |= RDMACHAN_BLK_STABLE_ID;
			break;
		case 'a':
			if (nr_allow == RDMACHAN_BLK_MAX_ALLOW)
				return tool_usage_err("blk export", "at most %d --allow",
						      RDMACHAN_BLK_MAX_ALLOW);
			ret = parse_cidr(optarg, &allow[nr_allow]);
			if (ret)
				return tool_usage_err("blk export", "invalid network '%s'%s", optarg,
						      ret == -ERANGE ? ": prefix length out of range" :
						      " (ADDR/LEN, no bits set past LEN)");
			nr_allow++;
			break;
		default:
			return cmd_bad_option("blk export", argv);
		}
	}
	if (cmd_operands("blk export", &argc, &argv, 2, "a NAME and a PATH are"))
		return EXIT_USAGE;
	if (!blk_name_ok(argv[0]))
		return tool_usage_err("blk export", "invalid export name '%.70s'", argv[0]);
	if (!argv[1][0] || strlen(argv[1]) >= RDMACHAN_BLK_PATH_MAX)
		return tool_usage_err("blk export", "invalid path '%.70s'", argv[1]);
	ctl = ctl_open();
	if (ctl < 0)
		return EXIT_FAIL;
	ret = ioc_blk_export(ctl, argv[0], argv[1], flags, allow, nr_allow);
	if (ret < 0) {
		int err = errno;
		const char *hint = NULL;

		if (err == EEXIST)
			hint = "an export of this name exists";
		else if (err == ENOENT)
			hint = "no such backing device";
		else if (err == ENOTBLK)
			hint = "not a block device";
		else if (err == EBUSY)
			hint = "the device is in use (exported already, or opened exclusively)";
		else if (err == EROFS)
			hint = "the device is read-only: export it --ro";
		else if (err == ELOOP)
			hint = "the device is a disk this host maps from itself: its requests would come back to it";
		close(ctl);
		return blk_err("blk export", argv[0], err, hint);
	}
	close(ctl);
	if (!nr_allow && !out_json())
		fprintf(stderr, "rdmachan: blk export %s: no --allow: every client is refused\n",
			argv[0]);
	return EXIT_OK;
}

static void unexport_help(void)
{
	printf("Usage: rdmachan blk unexport NAME [--force]\n"
	       "Stop serving export NAME.\n"
	       "  -f, --force         even with clients mapping it: their I/O fails\n");
}

int cmd_blk_unexport(int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "force", no_argument, NULL, 'f' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 }
	};
	unsigned int flags = 0;
	int c, ctl, ret;

	CMD_GETOPT_INIT();
	while ((c = CMD_GETOPT(argc, argv, "hf", longopts)) != -1) {
		switch (c) {
		case 'h':
			unexport_help();
			return EXIT_OK;
		case 'f':
			flags |= RDMACHAN_BLK_FORCE;
			break;
		default:
			return cmd_bad_option("blk unexport", argv);
		}
	}
	if (cmd_operands("blk unexport", &argc, &argv, 1, "a NAME is"))
		return EXIT_USAGE;
	if (!blk_name_ok(argv[0]))
		return tool_usage_err("blk unexport", "invalid export name '%.70s'", argv[0]);
	ctl = ctl_open();
	if (ctl < 0)
		return EXIT_FAIL;
	ret = ioc_blk_unexport(ctl, argv[0], flags);
	if (ret < 0) {
		int err = errno;

		close(ctl);
		return blk_err("blk unexport", argv[0], err,
			       err == ENOENT ? "no such export" :
			       err == EBUSY ? "clients map it: --force fails their I/O" :
			       err == EINPROGRESS ? "bios still in flight on the device: the export is draining and keeps it claimed until they end (blk show)" :
			       NULL);
	}
	close(ctl);
	return EXIT_OK;
}
