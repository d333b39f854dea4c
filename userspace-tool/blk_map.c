// SPDX-License-Identifier: GPL-2.0-only
/*
 * blk_map.c: "rdmachan blk map", "unmap" and "remap": a server's export as the
 * local disk /dev/rcblkN (the client side of rdmachan_blk.ko)
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

/*
 * --reconnect-delay, --loss-timeout or --fast-io-fail (@opt R, L, F) into
 * @policy[0..2]; "off" is RDMACHAN_BLK_TMO_OFF for the last two.  The
 * module checks the policy as a whole.
 */
static int parse_policy_ms(int opt, const char *s, uint32_t *policy)
{
	int i = opt == 'R' ? 0 : opt == 'L' ? 1 : 2;
	uint64_t v;

	if (i && !strcmp(s, "off")) {
		policy[i] = RDMACHAN_BLK_TMO_OFF;
		return 0;
	}
	if (parse_uint(s, i ? 1 : 100, i ? 0xfffffffeULL : 3600000, &v))
		return -1;
	policy[i] = (uint32_t)v;
	return 0;
}

static void map_help(void)
{
	printf("Usage: rdmachan [-j] blk map ADDR[:PORT] NAME [--ro] [--queues N] [--poll-queues P]\n"
	       "                            [--depth D] [--src ADDR] [--reconnect-delay MS]\n"
	       "                            [--loss-timeout MS|off] [--fast-io-fail MS|off]\n"
	       "Map export NAME of the server at ADDR (port %d unless given;\n"
	       "[IPv6]:PORT) as a local disk and print its path, /dev/rcblkN.\n"
	       "      --ro            read-only\n"
	       "  -q, --queues N      hardware queues, one channel each (1-1024;\n"
	       "                      default one per CPU)\n"
	       "  -P, --poll-queues P hardware queues for polled I/O (io_uring\n"
	       "                      IOPOLL, fio --hipri) beyond them (0-64;\n"
	       "                      default none)\n"
	       "  -d, --depth D       requests per queue (1-65535; default the module's)\n"
	       "  -s, --src ADDR      the local address to connect from\n"
	       "When the link is lost, I/O is held and the link reconnected:\n"
	       "      --reconnect-delay MS   first attempt MS after the loss, later\n"
	       "                             waits doubling (100-3600000; default\n"
	       "                             the module's clt_reconnect_delay_ms)\n"
	       "      --loss-timeout MS|off  give up MS after the loss: I/O fails,\n"
	       "                             the mapping is dead (default the\n"
	       "                             module's clt_loss_timeout_ms)\n"
	       "      --fast-io-fail MS|off  fail I/O MS after the loss while\n"
	       "                             reconnecting goes on (default the\n"
	       "                             module's clt_fast_io_fail_ms)\n",
	       BLK_DEFAULT_PORT);
}

int cmd_blk_map(int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "ro", no_argument, NULL, 'r' },
		{ "queues", required_argument, NULL, 'q' },
		{ "poll-queues", required_argument, NULL, 'P' },
		{ "depth", required_argument, NULL, 'd' },
		{ "src", required_argument, NULL, 's' },
		{ "reconnect-delay", required_argument, NULL, 'R' },
		{ "loss-timeout", required_argument, NULL, 'L' },
		{ "fast-io-fail", required_argument, NULL, 'F' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 }
	};
	struct sockaddr_storage server, src;
	uint32_t policy[3] = { 0, 0, 0 };
	uint64_t queues = 0, poll = 0, depth = 0;
	struct rdmachan_blk_map m;
	bool have_src = false;
	unsigned int flags = 0;
	char dev[32], what[160], addr[64];
	uint32_t index;
	int c, ctl, ret;

	CMD_GETOPT_INIT();
	while ((c = CMD_GETOPT(argc, argv, "hq:P:d:s:", longopts)) != -1) {
		switch (c) {
		case 'h':
			map_help();
			return EXIT_OK;
		case 'r':
			flags |= RDMACHAN_BLK_RO;
			break;
		case 'q':
			if (parse_uint(optarg, 1, 1024, &queues))
				return tool_usage_err("blk map", "invalid queue count '%s' (1-1024)",
						      optarg);
			break;
		case 'P':
			if (parse_uint(optarg, 0, 64, &poll))
				return tool_usage_err("blk map", "invalid poll queue count '%s' (0-64)",
						      optarg);
			break;
		case 'd':
			if (parse_uint(optarg, 1, 65535, &depth))
				return tool_usage_err("blk map", "invalid depth '%s' (1-65535)",
						      optarg);
			break;
		case 's':
			if (parse_listen_addr(optarg, 0, &src))
				return tool_usage_err("blk map", "invalid source address '%s'",
						      optarg);
			have_src = true;
			break;
		case 'R':
		case 'L':
		case 'F':
			if (parse_policy_ms(c, optarg, policy))
				return tool_usage_err("blk map", "invalid %s '%.20s'",
						      c == 'R' ? "--reconnect-delay (100-3600000 ms)" :
						      c == 'L' ? "--loss-timeout (ms or off)" :
						      "--fast-io-fail (ms or off)", optarg);
			break;
		default:
			return cmd_bad_option("blk map", argv);
		}
	}
	if (cmd_operands("blk map", &argc, &argv, 2, "an ADDR and a NAME are"))
		return EXIT_USAGE;
	if (parse_blk_server(argv[0], &server))
		return tool_usage_err("blk map", "invalid address '%.70s'", argv[0]);
	if (!blk_name_ok(argv[1]))
		return tool_usage_err("blk map", "invalid export name '%.70s'", argv[1]);
	if (have_src && src.ss_family != server.ss_family)
		return tool_usage_err("blk map", "--src and ADDR are of different families");
	ctl = ctl_open();
	if (ctl < 0)
		return EXIT_FAIL;
	memset(&m, 0, sizeof(m));
	m.flags = flags;
	memcpy(&m.server, &server, sizeof(m.server));
	if (have_src)
		memcpy(&m.src, &src, sizeof(m.src));
	strncpy(m.name, argv[1], sizeof(m.name) - 1);
	m.nr_queues = queues;
	m.nr_poll_queues = poll;
	m.queue_depth = depth;
	m.reconnect_delay_ms = policy[0];
	m.loss_timeout_ms = policy[1];
	m.fast_io_fail_ms = policy[2];
	ret = ioc_blk_map(ctl, &m);
	index = m.index;
	if (ret < 0) {
		int err = errno;
		const char *hint = NULL;

		close(ctl);
		format_addr(&server, addr, sizeof(addr));
		snprintf(what, sizeof(what), "%s %s", addr, argv[1]);
		if (err == ENOENT)
			hint = "the server has no such export";
		else if (err == EACCES)
			hint = "the export does not allow this client's address";
		else if (err == EROFS)
			hint = "the export is read-only: map it --ro";
		else if (err == ECONNREFUSED)
			hint = "no block server listens there (is rdmachan_blk loaded on the server?)";
		else if (err == ETIMEDOUT || err == EHOSTUNREACH || err == ENETUNREACH)
			hint = "the server cannot be reached";
		else if (err == EPROTO)
			hint = "the server speaks another version of the protocol";
		else if (err == ELOOP)
			hint = "the export's device is this very disk";
		return blk_err("blk map", what, err, hint);
	}
	close(ctl);
	snprintf(dev, sizeof(dev), "/dev/" BLK_DISK_PREFIX "%u", index);
	open_record(stdout);
	print_uint(PRINT_JSON, "index", NULL, index);
	print_str(PRINT_ANY, "dev", "%s\n", dev);
	close_record();
	return EXIT_OK;
}

static void unmap_help(void)
{
	printf("Usage: rdmachan blk unmap DEV [--force]\n"
	       "Remove a mapping's disk: DEV is /dev/rcblkN, rcblkN or N.\n"
	       "  -f, --force         even while the disk is open (mounted): its\n"
	       "                      I/O fails\n");
}

int cmd_blk_unmap(int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "force", no_argument, NULL, 'f' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 }
	};
	unsigned int flags = 0;
	uint32_t index;
	int c, ctl, ret;

	CMD_GETOPT_INIT();
	while ((c = CMD_GETOPT(argc, argv, "hf", longopts)) != -1) {
		switch (c) {
		case 'h':
			unmap_help();
			return EXIT_OK;
		case 'f':
			flags |= RDMACHAN_BLK_FORCE;
			break;
		default:
			return cmd_bad_option("blk unmap", argv);
		}
	}
	if (cmd_operands("blk unmap", &argc, &argv, 1, "a DEV is"))
		return EXIT_USAGE;
	if (parse_blk_dev(argv[0], &index))
		return tool_usage_err("blk unmap", "invalid disk '%.70s' (/dev/rcblkN, rcblkN or N)",
				      argv[0]);
	ctl = ctl_open();
	if (ctl < 0)
		return EXIT_FAIL;
	ret = ioc_blk_unmap(ctl, index, flags);
	if (ret < 0) {
		int err = errno;
		char what[32];

		close(ctl);
		snprintf(what, sizeof(what), BLK_DISK_PREFIX "%u", index);
		return blk_err("blk unmap", what, err,
			       err == ENOENT || err == ENODEV ? "no such mapping" :
			       err == EBUSY ? "the disk is open (mounted?): --force fails its I/O" :
			       NULL);
	}
	close(ctl);
	return EXIT_OK;
}

static void remap_help(void)
{
	printf("Usage: rdmachan blk remap DEV\n"
	       "Open a dead mapping again, onto the same disk (DEV is /dev/rcblkN,\n"
	       "rcblkN or N): one attempt to reach the same export on the same\n"
	       "server, at once.  What has the disk open (a mounted filesystem)\n"
	       "goes on when it works; the mapping stays dead when not.\n");
}

int cmd_blk_remap(int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 }
	};
	uint32_t index;
	int c, ctl, ret;

	CMD_GETOPT_INIT();
	while ((c = CMD_GETOPT(argc, argv, "h", longopts)) != -1) {
		switch (c) {
		case 'h':
			remap_help();
			return EXIT_OK;
		default:
			return cmd_bad_option("blk remap", argv);
		}
	}
	if (cmd_operands("blk remap", &argc, &argv, 1, "a DEV is"))
		return EXIT_USAGE;
	if (parse_blk_dev(argv[0], &index))
		return tool_usage_err("blk remap", "invalid disk '%.70s' (/dev/rcblkN, rcblkN or N)",
				      argv[0]);
	ctl = ctl_open();
	if (ctl < 0)
		return EXIT_FAIL;
	ret = ioc_blk_remap(ctl, index);
	if (ret < 0) {
		int err = errno;
		char what[32];

		close(ctl);
		snprintf(what, sizeof(what), BLK_DISK_PREFIX "%u", index);
		return blk_err("blk remap", what, err,
			       err == ENOENT ? "no such mapping, or the server has no such export now" :
			       err == EALREADY ? "the mapping is live" :
			       err == EBUSY ? "the mapping is reconnecting by itself" :
			       err == ESTALE ? "the server exports another device under that name" :
			       NULL);
	}
	close(ctl);
	return EXIT_OK;
}
