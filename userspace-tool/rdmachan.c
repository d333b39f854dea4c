// SPDX-License-Identifier: GPL-2.0-only
/*
 * rdmachan.c: command-line tool for the rdmachan kernel module (main.c
 * runs it; test_unit.c too), with the
 * grammar of iproute2's "rdma" and "ip" (cmd.h):
 *
 *   rdmachan [OPTIONS] OBJECT [COMMAND] [ARGS]
 *
 * Each object has a file of its name (dev.c, chan.c, mr.c, rdma.c,
 * blk.c, net.c, config.c, rping.c, dgram.c, version.c) holding its
 * table of commands and its help; each command a file
 * OBJECT_COMMAND.c (chan_listen.c, rdma_write.c, dgram_ping.c, ...).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "blk.h"
#include "cmd.h"
#include "config.h"
#include "dgram.h"
#include "net.h"
#include "tool.h"

struct tool_opts tool;

static void usage(FILE *out)
{
	fprintf(out,
		"Usage: rdmachan [OPTIONS] OBJECT [COMMAND] [ARGS]\n"
		"       rdmachan [OBJECT] help\n"
		"where  OBJECT := { dev | chan | mr | rdma | blk | net | config | rping |\n"
		"                   dgram | monitor | version | help }\n"
		"OPTIONS:\n"
		"  -j, --json        JSON output\n"
		"  -p, --pretty      indented JSON (with -j)\n"
		"  -s, --stats       text: the counters too (JSON has them always)\n"
		"  -d, --details     text: identities, sources, reconnect policies\n"
		"                    too (JSON has them always)\n"
		"  -V, --version     print the tool's version and exit\n"
		"  -h, --help        this help\n"
		"      --ctl PATH    control device (default /dev/rdmachan)\n"
		"  -b, --batch FILE  run the commands of FILE (- for stdin), one a\n"
		"                    line, with these options; stop at the first\n"
		"                    that fails\n"
		"      --force       with -b: go on after a failure\n"
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
		"  config { show | save | restore } exports, mappings and interfaces\n"
		"                                 saved to a file and made again\n"
		"  rping -s|-c ADDR[:PORT]        rdma-core's rping, run in the kernel:\n"
		"                                 against rping -s, rping -c\n"
		"  dgram { echo | ping | recv | send }\n"
		"                                 datagram endpoints (UD), as udaddy's\n"
		"  monitor [OBJECT...]            events of devices, channels, listeners,\n"
		"                                 mappings, interfaces as they happen\n"
		"  version [show]                 tool and module versions, features\n"
		"A unique prefix names an object or a command (rdmachan ch sh);\n"
		"rping, dgram and monitor only their whole words.\n"
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
	{ "config", obj_config },
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
	{ "config", config_cmds }, { "version", version_cmds },
	{ "dgram", dgram_cmds },
};

/*
 * The objects named by their whole word only, not in tool_objects, so
 * that no prefix of another object becomes ambiguous: a program's name
 * (rping; "r" stays rdma), dgram ("d" stays dev) and monitor ("m" stays
 * mr).
 */
static const struct cmd word_objects[] = {
	{ "rping", obj_rping },
	{ "dgram", obj_dgram },
	{ "monitor", obj_monitor },
	CMD_END
};

static int word_object(const char *word)
{
	int i;

	for (i = 0; word_objects[i].name; i++)
		if (!strcmp(word, word_objects[i].name))
			return i;
	return -1;
}

/*
 * --list-words [OBJECT]: the objects, or the commands of OBJECT (which a
 * unique prefix names, or the whole word of a word_objects entry), one a
 * line, from the tables the tool runs; the bash completion asks for
 * them, so that it cannot drift from the tool.  Nothing for an unknown
 * or ambiguous OBJECT.
 */
static int list_words(int argc, char **argv)
{
	const struct cmd *cmds = tool_objects;
	unsigned int k;
	int i;

	if (argc > 1) {
		const char *name;

		i = word_object(argv[1]);
		if (i >= 0) {
			name = word_objects[i].name;
		} else {
			i = cmd_match(tool_objects, argv[1]);
			if (i < 0)
				return EXIT_OK;
			name = tool_objects[i].name;
		}
		cmds = NULL;
		for (k = 0; k < sizeof(object_cmds) / sizeof(object_cmds[0]); k++)
			if (!strcmp(object_cmds[k].obj, name))
				cmds = object_cmds[k].cmds;
		if (!cmds)
			return EXIT_OK;
	}
	for (i = 0; cmds[i].name; i++)
		printf("%s\n", cmds[i].name);
	if (cmds == tool_objects)
		for (i = 0; word_objects[i].name; i++)
			printf("%s\n", word_objects[i].name);
	return EXIT_OK;
}

/* the most words a batch line may have */
#define BATCH_MAX_WORDS	64

/*
 * batch_words: split @line in place into words at blanks, as a shell
 * would for what a command takes: '...' and "..." quote, a backslash
 * escapes the next character, # at the start of a word begins a comment.
 * Return: the number of words, or -1 (an open quote, too many words).
 */
int batch_words(char *line, char **w, int max)
{
	char *in = line, *out = line, q;
	int n = 0;

	for (;;) {
		while (*in == ' ' || *in == '\t' || *in == '\n' || *in == '\r')
			in++;
		if (!*in || *in == '#')
			return n;
		if (n == max)
			return -1;
		w[n++] = out;
		q = 0;
		for (; *in; in++) {
			if (q) {
				if (*in == q)
					q = 0;
				else if (*in == '\\' && q == '"' && in[1])
					*out++ = *++in;
				else
					*out++ = *in;
			} else if (*in == '\'' || *in == '"') {
				q = *in;
			} else if (*in == '\\' && in[1]) {
				*out++ = *++in;
			} else if (*in == ' ' || *in == '\t' || *in == '\n' ||
				   *in == '\r') {
				break;
			} else {
				*out++ = *in;
			}
		}
		if (q)
			return -1;
		if (*in)
			in++;
		*out++ = '\0';
	}
}

/*
 * batch: rdmachan -b FILE (iproute2's ip -b): each line of FILE a
 * command, run with the options @opts (argv[1..nopts]) given before -b.
 * Return: EXIT_OK, or the status of the first line that failed (with
 * @force, of the last), which is named on stderr.
 */
static int batch_depth;

static int batch(const char *path, bool force, char **opts, int nopts)
{
	char *line = NULL, *w[BATCH_MAX_WORDS + 8];
	FILE *f = strcmp(path, "-") ? fopen(path, "r") : stdin;
	int rc = EXIT_OK, r, n, i, no = 0;
	size_t cap = 0;

	if (!f) {
		tool_err("cannot open batch file %s: %s", path, strerror(errno));
		return EXIT_FAIL;
	}
	while (getline(&line, &cap, f) >= 0) {
		no++;
		w[0] = "rdmachan";
		for (i = 0; i < nopts; i++)
			w[1 + i] = opts[i];
		n = batch_words(line, w + 1 + nopts, BATCH_MAX_WORDS);
		if (n == 0)
			continue;
		if (n < 0) {
			tool_err("%s:%d: an open quote or more than %d words", path,
				 no, BATCH_MAX_WORDS);
			r = EXIT_USAGE;
		} else {
			w[1 + nopts + n] = NULL;
			batch_depth++;
			r = rdmachan(1 + nopts + n, w);
			batch_depth--;
			fflush(stdout);
		}
		if (r != EXIT_OK) {
			tool_err("%s:%d: the command failed (exit %d)", path, no, r);
			rc = r;
			if (!force)
				break;
		}
	}
	free(line);
	if (f != stdin)
		fclose(f);
	return rc;
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
			tool_err("unknown object '%s' (%s, rping, dgram, monitor)",
				 word, names);
	}
	fputs("Try 'rdmachan help'.\n", stderr);
	return EXIT_USAGE;
}

int rdmachan(int argc, char **argv)
{
	const char *batch_file = NULL;
	bool force = false;
	int a = 1, i;

	tool.json = tool.pretty = tool.stats = tool.details = false;
	tool.ctl_path = "/dev/" RDMACHAN_DEVICE_NAME;

	for (; a < argc && argv[a][0] == '-'; a++) {
		const char *o = argv[a];

		if (!strcmp(o, "-j") || !strcmp(o, "--json")) {
			tool.json = true;
		} else if (!strcmp(o, "-p") || !strcmp(o, "--pretty")) {
			tool.pretty = true;
		} else if (!strcmp(o, "-jp") || !strcmp(o, "-pj")) {
			tool.json = tool.pretty = true;
		} else if (!strcmp(o, "-s") || !strcmp(o, "--stats")) {
			tool.stats = true;
		} else if (!strcmp(o, "-d") || !strcmp(o, "--details")) {
			tool.details = true;
		} else if (!strcmp(o, "-sd") || !strcmp(o, "-ds")) {
			tool.stats = tool.details = true;
		} else if (!strcmp(o, "-V") || !strcmp(o, "--version")) {
			printf("rdmachan tool %s, ABI %d\n", TOOL_VERSION,
			       RDMACHAN_ABI_VERSION);
			return EXIT_OK;
		} else if (!strcmp(o, "-h") || !strcmp(o, "--help")) {
			usage(stdout);
			return EXIT_OK;
		} else if (!strcmp(o, "--list-words")) {
			return list_words(argc - a, argv + a);
		} else if (!strcmp(o, "-b") || !strcmp(o, "--batch")) {
			if (++a == argc) {
				tool_err("%s needs a file", o);
				return EXIT_USAGE;
			}
			batch_file = argv[a];
		} else if (!strcmp(o, "--force")) {
			force = true;
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
	if (batch_file) {
		char *opts[6];
		int n = 0;

		if (a != argc) {
			tool_err("-b takes its commands from the file, not '%s'", argv[a]);
			return EXIT_USAGE;
		}
		if (batch_depth) {
			tool_err("-b inside a batch file");
			return EXIT_USAGE;
		}
		if (tool.json)
			opts[n++] = "-j";
		if (tool.pretty)
			opts[n++] = "-p";
		if (tool.stats)
			opts[n++] = "-s";
		if (tool.details)
			opts[n++] = "-d";
		if (strcmp(tool.ctl_path, "/dev/" RDMACHAN_DEVICE_NAME)) {
			opts[n++] = "--ctl";
			opts[n++] = (char *)tool.ctl_path;
		}
		return batch(batch_file, force, opts, n);
	}
	if (force) {
		tool_err("--force goes with -b");
		return EXIT_USAGE;
	}
	out_init(tool.json, tool.pretty, stdout);
	if (a == argc) {
		usage(stderr);
		return EXIT_USAGE;
	}
	/* rping, dgram, monitor by their whole words: "r" stays rdma, ... */
	i = word_object(argv[a]);
	if (i >= 0)
		return word_objects[i].fn(argc - a - 1, argv + a + 1);
	i = cmd_match(tool_objects, argv[a]);
	if (i < 0)
		return unknown_object(argv[a], i == -EINVAL);
	return tool_objects[i].fn(argc - a - 1, argv + a + 1);
}
