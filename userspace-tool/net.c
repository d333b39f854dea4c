// SPDX-License-Identifier: GPL-2.0-only
/*
 * net.c: the "net" object: the network channel of rdmachan_net.ko, a
 * point-to-point IP interface over one rdmachan channel.
 *
 *   rdmachan net add NAME listen ADDR[:PORT] [--peer ADDR] [OPTIONS]
 *   rdmachan net add NAME connect ADDR[:PORT] [--src ADDR] [OPTIONS]
 *   rdmachan net del NAME
 *   rdmachan [-j] net show [NAME]
 *
 * This file has what the commands share and the object's table; each
 * command is in a file of its own (net_add.c, net_show.c), as chan's
 * and rdma's are.  The ioctls are RDMACHAN_IOC_NET_* of /dev/rdmachan.
 */
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <unistd.h>

#include <linux/rdmachan_net.h>

#include "net.h"
#include "rdma.h"		/* errno_name() */

const char *net_state_name(unsigned int state)
{
	switch (state) {
	case RDMACHAN_NET_UP: return "up";
	case RDMACHAN_NET_RECONNECTING: return "reconnecting";
	case RDMACHAN_NET_DEAD: return "dead";
	case RDMACHAN_NET_WAITING: return "waiting";
	default: return "unknown";
	}
}

bool net_name_ok(const char *s)
{
	size_t n = s ? strlen(s) : 0;

	if (!n || n >= RDMACHAN_NET_NAME_MAX || !strcmp(s, ".") || !strcmp(s, ".."))
		return false;
	for (; *s; s++)
		if (*s == '/' || *s == ':' || *s <= ' ' || *s == 0x7f)
			return false;
	return true;
}

int ctl_net_list(int ctl, struct rdmachan_net_info **entries, unsigned int *count)
{
	unsigned int cap = 8;
	struct rdmachan_net_info *e = NULL;

	for (;;) {
		struct rdmachan_net_list l;
		void *p = realloc(e, cap * sizeof(*e));

		if (!p) {
			free(e);
			errno = ENOMEM;
			return -1;
		}
		e = p;
		memset(e, 0, cap * sizeof(*e));
		memset(&l, 0, sizeof(l));
		l.size = sizeof(l);
		l.count = cap;
		l.entry_size = sizeof(*e);
		l.entries = (uintptr_t)e;
		if (ioctl(ctl, RDMACHAN_IOC_NET_LIST, &l) < 0) {
			int err = errno;

			free(e);
			errno = err;
			return -1;
		}
		if (l.count <= cap) {
			*entries = e;
			*count = l.count;
			return 0;
		}
		cap = l.count + 4;
	}
}

/*
 * net_err: "rdmachan: CMD WHAT: strerror (ENAME)[: hint]"; the module's
 * absence for ENOTTY.  Returns EXIT_FAIL.
 */
int net_err(const char *cmd, const char *what, int err, const char *hint)
{
	if (err == ENOTTY)
		hint = "rdmachan_net is not loaded and could not be (modprobe rdmachan_net; blacklisted?)";
	else if (err == EPERM && !hint)
		hint = "CAP_NET_ADMIN is needed";
	return cmd_errno(cmd, what, err, hint);
}


/* ---- the object ---------------------------------------------------- */

static int net_help(int argc, char **argv)
{
	(void)argc;
	(void)argv;
	printf("Usage: rdmachan net add NAME listen ADDR[:PORT] [--peer ADDR] [OPTIONS]\n"
	       "       rdmachan net add NAME connect ADDR[:PORT] [--src ADDR] [OPTIONS]\n"
	       "       rdmachan net del NAME\n"
	       "       rdmachan [-j [-p]] net show [NAME]\n"
	       "       rdmachan net { COMMAND --help | help }\n"
	       "The network channel (rdmachan_net.ko): a point-to-point IP interface\n"
	       "over one rdmachan channel.  Port: %d.\n",
	       RDMACHAN_NET_DEFAULT_PORT);
	return EXIT_OK;
}

const struct cmd net_cmds[] = {
	{ "show", cmd_net_show },
	{ "add", cmd_net_add },
	{ "del", cmd_net_del },
	{ "help", net_help },
	CMD_END
};

int obj_net(int argc, char **argv)
{
	return cmd_run("net", net_cmds, argc, argv);
}

