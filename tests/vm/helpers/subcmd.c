// SPDX-License-Identifier: GPL-2.0-only
/*
 * subcmd.c: the dispatcher of the helpers that take a subcommand, and what
 * their commands share (subcmd.h).
 */
#define _GNU_SOURCE
#include <errno.h>
#include <signal.h>
#include <time.h>

#include "chanlib.h"
#include "subcmd.h"

int ctl = -1;

/* for the SIGALRM handler: its one line, made before the alarm is set */
static char timeout_line[160];
static size_t timeout_len;

double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

const char *dev_name_env(const char *var, const char *dflt)
{
	const char *v = getenv(var);

	return v && *v ? v : dflt;
}

/* the timeout: say so, then die of SIGALRM as if nothing caught it */
static void on_timeout(int sig)
{
	ssize_t r = write(STDOUT_FILENO, timeout_line, timeout_len);

	(void)r;
	signal(sig, SIG_DFL);
	raise(sig);
}

static void usage(const char *prog, const struct subcmd *cmds)
{
	const struct subcmd *c;

	fprintf(stderr, "usage: %s COMMAND [ARGS]\n", prog);
	for (c = cmds; c->name; c++)
		fprintf(stderr, "  %s %s%s%s\n      %s\n", prog, c->name,
			c->args ? " " : "", c->args ? c->args : "", c->help);
}

static int dispatch(int argc, char **argv, const struct subcmd *cmds,
		    void (*setup)(void))
{
	const char *prog = strrchr(argv[0], '/') ? strrchr(argv[0], '/') + 1 : argv[0];
	const struct subcmd *c;
	int rc;

	signal(SIGPIPE, SIG_IGN);
	if (argc < 2) {
		usage(prog, cmds);
		return 2;
	}
	ctl = ctl_open();
	if (setup)
		setup();
	for (c = cmds; c->name && strcmp(c->name, argv[1]); c++)
		;
	if (!c->name) {
		fprintf(stderr, "unknown subcommand %s\n", argv[1]);
		return 2;
	}
	if (c->timeout) {
		snprintf(timeout_line, sizeof(timeout_line),
			 "# %s %s timed out after %u s\n", prog, c->name,
			 c->timeout);
		timeout_len = strlen(timeout_line);
		signal(SIGALRM, on_timeout);
		alarm(c->timeout);
	}
	rc = c->run(argc - 1, argv + 1);
	alarm(0);
	return rc;
}

int subcmd_main(int argc, char **argv, const struct subcmd *cmds,
		void (*setup)(void))
{
	setvbuf(stdout, NULL, _IOLBF, 0);
	ktap_header();
	return ktap_plan(dispatch(argc, argv, cmds, setup));
}
