/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * chan.h: channel helpers shared by the tool's channel commands.
 */
#ifndef RDMACHAN_TOOL_CHAN_H
#define RDMACHAN_TOOL_CHAN_H

#include <getopt.h>
#include <signal.h>
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
 * chan_opt: the command's getopt found option @c (optarg its value) that
 * it does not handle itself: one of CHAN_LONG_OPTS (0), or an invalid
 * value, an unknown or incomplete option (-1, usage error printed; argv
 * as the command has it, argv[-1] its word).
 */
int chan_opt(const char *cmd, int c, char **argv, struct chan_args *a);

int chan_connect_to(int ctl, const struct sockaddr_storage *dst,
		    const struct chan_args *a);
int chan_listen_on(int ctl, struct sockaddr_storage *addr,
		   const struct chan_args *a);
int chan_accept_one(int lfd, struct sockaddr_storage *peer);
/*
 * chan_info_query: RDMACHAN_IOC_CHAN_INFO on channel @fd through @ioc
 * (ioctl(2); the unit tests pass a stand-in): the whole struct or, from a
 * module of the first ABI, which refuses its size (EINVAL), the first
 * RDMACHAN_CHAN_INFO_SIZE_V1 bytes, the rest zero; ci->size says which.
 * 0, or -1 with errno.
 */
int chan_info_query(int fd, struct rdmachan_chan_info *ci,
		    int (*ioc)(int fd, unsigned long req, void *arg));
/* chan_get_info: chan_info_query() with ioctl(2); -1 after a message */
int chan_get_info(int fd, struct rdmachan_chan_info *ci);
/* run RDMACHAN_IOC_BENCH (@b filled but for its size); errors printed */
int chan_bench(int fd, struct rdmachan_bench *b);
double now_sec(void);
/* one message, waiting for a credit; @flags: RDMACHAN_MSG_IMM (with
 * @imm), RDMACHAN_MSG_SOLICITED; 0, or -1 after an error message */
int chan_send_one(int fd, const void *buf, size_t len, unsigned int flags,
		  uint32_t imm);

/* SIGINT (and, with @term, SIGTERM) set tool_interrupted; SIGPIPE ignored */
extern volatile sig_atomic_t tool_interrupted;
void catch_signals(bool term);

/*
 * A channel a client command opened: chan_open() connects to ADDR[:PORT]
 * and reads its RDMACHAN_IOC_CHAN_INFO.
 */
struct chan_conn {
	int fd;
	struct rdmachan_chan_info ci;
	char dst[64];		/* the address, formatted */
};

/*
 * chan_open: @c connected to @addr; with @msg_size, refused (EXIT_FAIL)
 * when it is larger than the channel's max message size.  Returns
 * EXIT_OK, or EXIT_USAGE / EXIT_FAIL after a message (@c->fd -1).
 */
int chan_open(const char *cmd, const char *addr, const struct chan_args *a,
	      uint64_t msg_size, struct chan_conn *c);

/* chan_show.c: one sysfs attribute of a channel, listener or device */
struct chan_attr {
	char name[64];
	char value[192];
};

/*
 * chan_show_one: the record of sysfs directory @name (chanN, listenerN,
 * devN) from its @n attributes @at (sorted here; a counter of stats/ by
 * its own name): in JSON every attribute, in text a digest on @f, which
 * leaves out a counter the module does not have.
 */
void chan_show_one(FILE *f, const char *name, struct chan_attr *at, int n);

/* chan_listen.c: the server of "chan listen" and "chan recv" */
enum listen_mode { LISTEN_PRINT, LISTEN_ECHO, LISTEN_SINK, LISTEN_TARGET };

struct listen_opts {
	const char *cmd;
	enum listen_mode mode;
	uint64_t max_conns;	/* exit after this many channels ended; 0: never */
	uint64_t max_msgs;	/* per channel, then close it; 0: unlimited */
	uint64_t region;	/* LISTEN_TARGET: bytes registered per channel */
	bool quiet;
	bool kernel;		/* echo or sink in the kernel, a child per channel */
};

int chan_listen_run(const struct listen_opts *o, const char *addr,
		    const struct chan_args *a);

/* the commands of the "chan" object */
int cmd_chan_show(int argc, char **argv);
int cmd_chan_listen(int argc, char **argv);
int cmd_chan_connect(int argc, char **argv);
int cmd_chan_send(int argc, char **argv);
int cmd_chan_recv(int argc, char **argv);
int cmd_chan_ping(int argc, char **argv);
int cmd_chan_bench(int argc, char **argv);

/*
 * cmd_one_addr: after CMD_GETOPT, the operands left in *argc, *argv: one
 * address (0), or a usage error (EXIT_USAGE).
 */
int cmd_one_addr(const char *cmd, int *argc, char ***argv);

#endif /* RDMACHAN_TOOL_CHAN_H */
