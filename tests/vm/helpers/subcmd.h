/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * subcmd.h: one main() for the helpers that take a subcommand (chan_test,
 * rdma_test, listen_test; not the tool's grammar, userspace-tool/cmd.h,
 * whose prefixes a helper does not take).  Each has a table of its
 * commands, walked by subcmd_main():
 *
 *	static const struct subcmd cmds[] = {
 *		{ "stream", cmd_stream, "[N]", "N sequenced messages", 0 },
 *		{ "concurrent", cmd_concurrent, "[N] [MODE]", "...", 300 },
 *		{ }
 *	};
 *	int main(int argc, char **argv)
 *	{
 *		return subcmd_main(argc, argv, cmds, NULL);
 *	}
 *
 * subcmd_main() opens the control device (ctl), ignores SIGPIPE, runs the
 * command named by argv[1] with its own arguments (argv[0] is its name)
 * between ktap_header() and ktap_plan(), and exits with what it returns:
 * 0 when every check passed, 1 when one failed, 2 for a command line it
 * does not know (the usage, from the table, on stderr).
 *
 * A command with a timeout that has not returned after that many seconds
 * is killed by SIGALRM, after a "# ... timed out" line: its checks go
 * missing from the plan, and run_checks (tests/vm/lib.sh) fails it.  A
 * lost wake-up thus fails the case instead of hanging its VM until the
 * host's timeout.
 */
#ifndef RDMACHAN_TEST_SUBCMD_H
#define RDMACHAN_TEST_SUBCMD_H

/* a command's parameters, used or not (-Wunused-parameter) */
#define SUBCMD_ARGS \
	int argc __attribute__((unused)), char **argv __attribute__((unused))

struct subcmd {
	const char *name;
	int (*run)(int argc, char **argv);	/* argv[0]: the name */
	const char *args;			/* for the usage: "N [S]" */
	const char *help;			/* one line */
	unsigned int timeout;			/* seconds; 0: none */
};

/* the control device, /dev/rdmachan, open before a command runs */
extern int ctl;

/*
 * subcmd_main: the helper's main(); @setup (or NULL) runs once ctl is
 * open, before the command
 */
int subcmd_main(int argc, char **argv, const struct subcmd *cmds,
		void (*setup)(void));

/* now: CLOCK_MONOTONIC in seconds */
double now(void);

/* dev_name_env: the fixture's device in $@var (tests/vm/lib.sh), or @dflt */
const char *dev_name_env(const char *var, const char *dflt);

#endif /* RDMACHAN_TEST_SUBCMD_H */
