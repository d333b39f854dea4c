/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * cmd.h: the grammar of the rdmachan tool, as iproute2's "ip" and "rdma"
 * have it:
 *
 *   rdmachan [OPTIONS] OBJECT [COMMAND] [ARGS]
 *
 * An object and a command are tables of names; a word names the entry
 * it equals or, failing that, the one entry it is a prefix of ("ch sh"
 * is "chan show"); a prefix of more than one is an error that lists
 * them.  An object without a command runs its "show".
 */
#ifndef RDMACHAN_TOOL_CMD_H
#define RDMACHAN_TOOL_CMD_H

#include <stdbool.h>
#include <stddef.h>

struct cmd {
	const char *name;
	/* @argv: the arguments after the command; argv[-1] is its word */
	int (*fn)(int argc, char **argv);
};

/* the entries of a table, ended by one without a name */
#define CMD_END { NULL, NULL }

/*
 * cmd_match: the index of the entry of @cmds that @word names, exactly
 * or as the prefix of one name only; -ENOENT when it names none,
 * -EINVAL when it is the prefix of more than one (and of no exact name).
 */
int cmd_match(const struct cmd *cmds, const char *word);

/*
 * cmd_names: the names of @cmds that begin with @prefix ("" for all),
 * ", "-separated, into @buf.
 */
void cmd_names(const struct cmd *cmds, const char *prefix, char *buf, size_t len);

/*
 * cmd_run: run the command argv[0] of object @obj from @cmds, with the
 * arguments after it; without one (argc 0), "show", or a usage error
 * when @cmds has no "show".  An unknown or ambiguous word is a usage
 * error (EXIT_USAGE) that names the candidates.
 */
int cmd_run(const char *obj, const struct cmd *cmds, int argc, char **argv);

/* cmd_help_asked: argv[0] (after the command) is -h, --help or help */
bool cmd_help_asked(int argc, char **argv);

/*
 * Before CMD_GETOPT: no messages from getopt (the command says what was
 * wrong), and optind 0, which has glibc start afresh (test_unit.c runs
 * the tool many times in one process).
 */
#define CMD_GETOPT_INIT() ((void)(optind = 0, opterr = 0))
/* run getopt_long on the command's arguments (argv[-1] is its name) */
#define CMD_GETOPT(argc, argv, s, l) getopt_long((argc) + 1, (argv) - 1, s, l, NULL)

/*
 * cmd_operands: after CMD_GETOPT, the operands left in *@argc, *@argv:
 * 0 when there are @n, else a usage error naming @what (EXIT_USAGE)
 */
int cmd_operands(const char *cmd, int *argc, char ***argv, int n, const char *what);
/* cmd_bad_option: the usage error for the option getopt refused */
int cmd_bad_option(const char *cmd, char **argv);
/*
 * cmd_errno: "rdmachan: CMD[ WHAT]: strerror (ENAME)[: HINT]" on stderr
 * for errno @err; returns EXIT_FAIL
 */
int cmd_errno(const char *cmd, const char *what, int err, const char *hint);

#endif /* RDMACHAN_TOOL_CMD_H */
