// SPDX-License-Identifier: GPL-2.0-only
/*
 * rdmachan.c: command-line tool for the rdmachan kernel module (main.c
 * runs it; test_unit.c too), with the
 * grammar of iproute2's "rdma" and "ip" (cmd.h):
 *
 *   rdmachan [OPTIONS] OBJECT [COMMAND] [ARGS]
 *
 * Each object has a file of its name (dev.c, chan.c, mr.c, rdma.c,
 * blk.c, version.c) holding its table of commands and its help; each command a
 * file OBJECT_COMMAND.c (chan_listen.c, rdma_write.c, ...).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "blk.h"
#include "cmd.h"
#include "net.h"
#include "tool.h"

struct tool_opts tool;

static void usage(FILE *out)
{
	fprintf(out,
		"Usage: rdmachan [OPTIONS] OBJECT [COMMAND] [ARGS]\n"
		"       rdmachan [OBJECT] help\n"
		"where  OBJECT := { dev | chan | mr | rdma | blk | net | version | help }\n"
		"OPTIONS:\n"
		"  -j, --json        JSON output\n"
		"  -p, --pretty      indented JSON (with -j)\n"
		"  -V, --version     print the tool's version and exit\n"
		"  -h, --help        this help\n"
		"      --ctl PATH    control device (default /dev/rdmachan)\n"
		"      --list-words [OBJECT]  the objects, or OBJECT's commands, one\n"
		"                    a line (for shell completion)\n"
		"OBJECTS and their COMMANDS (the first, or show, when none is given):\n"
		"  dev { show [DEV] | list }      RDMA devices and their attributes\n"
		"  chan { show [NAME] | listen | connect | send | recv | ping | bench }\n"
		"                                 message channels: counters, servers\n"
		"                                 and clients\n"
		"  mr reg ADDR[:PORT] --size SIZE serve a registered buffer to rdma\n"
		"                                 write, read, atomic and chan bench --op\n"
		"  rdma { write | read | atomic } one-sided operations on an mr reg\n"
		"                                 server's buffer\n"
		"  blk { show | export | unexport | map | unmap | remap }\n"
		"                                 block channel (rdmachan_blk.ko): export\n"
		"                                 a block device, map one as /dev/rcblkN\n"
		"  net { show | add | del }       network channel (rdmachan_net.ko): a\n"
		"                                 point-to-point IP interface\n"
		"  version [show]                 tool and module versions, features\n"
		"A unique prefix names an object or a command (rdmachan ch sh).\n"
		"'rdmachan OBJECT help' lists an object's commands; each command\n"
		"takes --help.  Default port: %d.\n", TOOL_DEFAULT_PORT);
}

static int help(int argc, char **argv)
{
	(void)argc;
	(void)argv;
	usage(stdout);
	return EXIT_OK;
}

const struct cmd tool_objects[] = {
	{ "dev", obj_dev },
	{ "chan", obj_chan },
	{ "mr", obj_mr },
	{ "rdma", obj_rdma },
	{ "blk", obj_blk },
	{ "net", obj_net },
	{ "version", obj_version },
	{ "help", help },
	CMD_END
};

/* Each object's commands, for --list-words */
static const struct {
	const char *obj;
	const struct cmd *cmds;
} object_cmds[] = {
	{ "dev", dev_cmds }, { "chan", chan_cmds }, { "mr", mr_cmds },
	{ "rdma", rdma_cmds }, { "blk", blk_cmds }, { "net", net_cmds },
	{ "version", version_cmds },
};

/*
 * --list-words [OBJECT]: the objects, or the commands of OBJECT (which a
 * unique prefix names), one a line, from the tables the tool runs; the
 * bash completion asks for them, so that it cannot drift from the tool.
 * Nothing for an unknown or ambiguous OBJECT.
 */
static int list_words(int argc, char **argv)
{
	const struct cmd *cmds = tool_objects;
	unsigned int k;
	int i;

	if (argc > 1) {
		i = cmd_match(tool_objects, argv[1]);
		if (i < 0)
			return EXIT_OK;
		cmds = NULL;
		for (k = 0; k < sizeof(object_cmds) / sizeof(object_cmds[0]); k++)
			if (!strcmp(object_cmds[k].obj, tool_objects[i].name))
				cmds = object_cmds[k].cmds;
		if (!cmds)
			return EXIT_OK;
	}
	for (i = 0; cmds[i].name; i++)
		printf("%s\n", cmds[i].name);
	return EXIT_OK;
}

/* The commands before the OBJECT COMMAND grammar: named in the error. */
static const struct {
	const char *old, *now;
} moved[] = {
	{ "listen", "chan listen" }, { "connect", "chan connect" },
	{ "send", "chan send" }, { "recv", "chan recv" },
	{ "ping", "chan ping" }, { "bench", "chan bench" },
	{ "stat", "chan show" }, { "reg", "mr reg" },
	{ "write", "rdma write" }, { "read", "rdma read" },
	{ "atomic", "rdma atomic" },
};

static int unknown_object(const char *word, bool ambiguous)
{
	char names[128];
	unsigned int i;

	cmd_names(tool_objects, ambiguous ? word : "", names, sizeof(names));
	if (ambiguous) {
		tool_err("'%s' is ambiguous (%s)", word, names);
	} else {
		for (i = 0; i < sizeof(moved) / sizeof(moved[0]); i++)
			if (!strcmp(word, moved[i].old))
				break;
		if (i < sizeof(moved) / sizeof(moved[0]))
			tool_err("unknown object '%s': the command is 'rdmachan %s' now",
				 word, moved[i].now);
		else
			tool_err("unknown object '%s' (%s)", word, names);
	}
	fputs("Try 'rdmachan help'.\n", stderr);
	return EXIT_USAGE;
}

int rdmachan(int argc, char **argv)
{
	int a = 1, i;

	tool.json = tool.pretty = false;
	tool.ctl_path = "/dev/" RDMACHAN_DEVICE_NAME;

	for (; a < argc && argv[a][0] == '-'; a++) {
		const char *o = argv[a];

		if (!strcmp(o, "-j") || !strcmp(o, "--json")) {
			tool.json = true;
		} else if (!strcmp(o, "-p") || !strcmp(o, "--pretty")) {
			tool.pretty = true;
		} else if (!strcmp(o, "-jp") || !strcmp(o, "-pj")) {
			tool.json = tool.pretty = true;
		} else if (!strcmp(o, "-V") || !strcmp(o, "--version")) {
			printf("rdmachan tool %s, ABI %d\n", TOOL_VERSION,
			       RDMACHAN_ABI_VERSION);
			return EXIT_OK;
		} else if (!strcmp(o, "-h") || !strcmp(o, "--help")) {
			usage(stdout);
			return EXIT_OK;
		} else if (!strcmp(o, "--list-words")) {
			return list_words(argc - a, argv + a);
		} else if (!strcmp(o, "--ctl")) {
			if (++a == argc) {
				tool_err("--ctl needs a path");
				return EXIT_USAGE;
			}
			tool.ctl_path = argv[a];
		} else if (!strcmp(o, "--")) {
			a++;
			break;
		} else {
			tool_err("unknown option '%s'", o);
			usage(stderr);
			return EXIT_USAGE;
		}
	}
	out_init(tool.json, tool.pretty, stdout);
	if (a == argc) {
		usage(stderr);
		return EXIT_USAGE;
	}
	i = cmd_match(tool_objects, argv[a]);
	if (i < 0)
		return unknown_object(argv[a], i == -EINVAL);
	return tool_objects[i].fn(argc - a - 1, argv + a + 1);
}
