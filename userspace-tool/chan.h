/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * chan.h: channel helpers shared by the tool's channel commands.
 */
#ifndef RDMACHAN_TOOL_CHAN_H
#define RDMACHAN_TOOL_CHAN_H

#include <getopt.h>
#include <sys/socket.h>

#include "tool.h"

/* Options every channel command accepts (see CHAN_OPTS_HELP). */
struct chan_args {
	struct rdmachan_chan_opts opts;
	struct sockaddr_storage src;	/* AF_UNSPEC: any */
	bool nonblock;
};

#define CHAN_GETOPT_SHORT	"d:m:"
#define CHAN_OPT_BASE		1000
#define CHAN_LONG_OPTS \
	{ "depth", required_argument, NULL, 'd' }, \
	{ "max-msg", required_argument, NULL, 'm' }, \
	{ "timeout", required_argument, NULL, CHAN_OPT_BASE + 0 }, \
	{ "poll", required_argument, NULL, CHAN_OPT_BASE + 1 }, \
	{ "src", required_argument, NULL, CHAN_OPT_BASE + 2 }, \
	{ "backlog", required_argument, NULL, CHAN_OPT_BASE + 3 }, \
	{ "help", no_argument, NULL, 'h' }

#define CHAN_OPTS_HELP \
	"  -d, --depth N       queue depth (credits) to ask for\n" \
	"  -m, --max-msg SIZE  largest message to ask for (e.g. 4k)\n" \
	"      --timeout DUR   connect timeout (e.g. 2s, 500ms)\n" \
	"      --poll MODE     completions: softirq, workqueue, direct or solicited\n" \
	"      --src ADDR      local address to connect from\n" \
	"      --backlog N     listen: connections waiting for accept\n"

/*
 * chan_opt: handle option @c of CHAN_LONG_OPTS.  Returns 1 if it was one
 * (and valid), 0 if not a channel option, -1 after a usage error.
 */
int chan_opt(const char *cmd, int c, const char *arg, struct chan_args *a);

int chan_connect_to(int ctl, const struct sockaddr_storage *dst,
		    const struct chan_args *a);
int chan_listen_on(int ctl, struct sockaddr_storage *addr,
		   const struct chan_args *a);
int chan_accept_one(int lfd, struct sockaddr_storage *peer);
int chan_get_info(int fd, struct rdmachan_chan_info *ci);
/* run RDMACHAN_IOC_BENCH (@b filled but for its size); errors printed */
int chan_bench(int fd, struct rdmachan_bench *b);
double now_sec(void);

/* run getopt_long on the command's arguments (argv[-1] is its name) */
#define CMD_GETOPT(argc, argv, s, l) getopt_long((argc) + 1, (argv) - 1, s, l, NULL)

#endif /* RDMACHAN_TOOL_CHAN_H */
