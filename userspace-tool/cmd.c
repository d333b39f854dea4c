// SPDX-License-Identifier: GPL-2.0-only
/*
 * cmd.c: the grammar of the rdmachan tool (see cmd.h) and its messages.
 */
#include <errno.h>
#include <getopt.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cmd.h"
#include "rdma.h"		/* errno_name() */
#include "tool.h"

static void verr(const char *fmt, va_list ap)
{
	fflush(stdout);
	fputs("rdmachan: ", stderr);
	vfprintf(stderr, fmt, ap);
	fputc('\n', stderr);
}

void tool_err(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	verr(fmt, ap);
	va_end(ap);
}

int tool_usage_err(const char *cmd, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	verr(fmt, ap);
	va_end(ap);
	fprintf(stderr, "Try 'rdmachan %s --help'.\n", cmd);
	return EXIT_USAGE;
}

static bool is_prefix(const char *word, const char *name)
{
	return !strncmp(word, name, strlen(word));
}

int cmd_match(const struct cmd *cmds, const char *word)
{
	int i, found = -ENOENT;

	if (!*word)
		return -ENOENT;
	for (i = 0; cmds[i].name; i++)
		if (!strcmp(word, cmds[i].name))
			return i;
	for (i = 0; cmds[i].name; i++) {
		if (!is_prefix(word, cmds[i].name))
			continue;
		if (found >= 0)
			return -EINVAL;
		found = i;
	}
	return found;
}

void cmd_names(const struct cmd *cmds, const char *prefix, char *buf, size_t len)
{
	size_t off = 0;
	int i;

	if (!len)
		return;
	buf[0] = '\0';
	for (i = 0; cmds[i].name && off < len; i++)
		if (is_prefix(prefix, cmds[i].name))
			off += snprintf(buf + off, len - off, "%s%s", off ? ", " : "",
					cmds[i].name);
}

int cmd_run(const char *obj, const struct cmd *cmds, int argc, char **argv)
{
	const char *word;
	char names[256];
	int i;

	if (!argc) {
		for (i = 0; cmds[i].name && strcmp(cmds[i].name, "show"); i++)
			;
		if (!cmds[i].name) {
			cmd_names(cmds, "", names, sizeof(names));
			fflush(stdout);
			fprintf(stderr, "rdmachan: %s: a command is needed (%s)\n"
				"Try 'rdmachan %s help'.\n", obj, names, obj);
			return EXIT_USAGE;
		}
		return cmds[i].fn(0, argv);
	}
	/* OBJECT -h and OBJECT --help are OBJECT help */
	word = argv[0];
	i = cmd_match(cmds, strcmp(word, "-h") && strcmp(word, "--help") ? word : "help");
	if (i >= 0)
		return cmds[i].fn(argc - 1, argv + 1);
	cmd_names(cmds, i == -EINVAL ? word : "", names, sizeof(names));
	fflush(stdout);
	if (i == -EINVAL)
		fprintf(stderr, "rdmachan: %s: '%s' is ambiguous (%s)\n", obj, word, names);
	else
		fprintf(stderr, "rdmachan: %s: unknown command '%s' (%s)\n", obj, word, names);
	fprintf(stderr, "Try 'rdmachan %s help'.\n", obj);
	return EXIT_USAGE;
}

bool cmd_help_asked(int argc, char **argv)
{
	return argc >= 1 && (!strcmp(argv[0], "-h") || !strcmp(argv[0], "--help") ||
			     !strcmp(argv[0], "help"));
}

int cmd_operands(const char *cmd, int *argc, char ***argv, int n, const char *what)
{
	*argc -= optind - 1;
	*argv += optind - 1;
	if (*argc == n)
		return 0;
	if (*argc < n)
		return tool_usage_err(cmd, "%s needed", what);
	return tool_usage_err(cmd, "unexpected argument '%s'", (*argv)[n]);
}

int cmd_bad_option(const char *cmd, char **argv)
{
	return tool_usage_err(cmd, "unknown or incomplete option '%s'", argv[optind - 2]);
}

int cmd_errno(const char *cmd, const char *what, int err, const char *hint)
{
	tool_err("%s%s%s: %s (%s)%s%s", cmd, what ? " " : "", what ? what : "",
		 strerror(err), errno_name(err), hint ? ": " : "", hint ? hint : "");
	return EXIT_FAIL;
}
