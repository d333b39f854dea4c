// SPDX-License-Identifier: GPL-2.0-only
/*
 * blk.c: the "blk" object: the block channel of rdmachan_blk.ko.
 *
 *   rdmachan blk export NAME PATH [--ro] [--stable-id] [--allow CIDR]...
 *   rdmachan blk unexport NAME [--force]
 *   rdmachan blk map ADDR[:PORT] NAME [--ro] [--queues N] [--depth D] [--src ADDR]
 *                    [--reconnect-delay MS] [--loss-timeout MS|off]
 *                    [--fast-io-fail MS|off]
 *   rdmachan blk unmap DEV [--force]
 *   rdmachan blk remap DEV
 *   rdmachan [-j] blk show [exports|maps]
 *
 * This file has what the commands share and the object's table; each
 * command is in a file of its own (blk_export.c, blk_map.c, blk_show.c),
 * as chan's and rdma's are.  The ioctls are ioc.c's (RDMACHAN_IOC_BLK_*,
 * of /dev/rdmachan); the parsers below are pure functions, unit-tested
 * (test_unit.c).
 */
#include <arpa/inet.h>
#include <ctype.h>
#include <errno.h>
#include <getopt.h>
#include <netinet/in.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "blk.h"
#include "ioc.h"
#include "rdma.h"		/* errno_name() */

/* ---- parsers ------------------------------------------------------- */

int parse_cidr(const char *s, struct rdmachan_blk_cidr *c)
{
	char host[INET6_ADDRSTRLEN];
	const char *slash;
	unsigned int max, i;
	uint64_t prefix;
	size_t n;

	memset(c, 0, sizeof(*c));
	if (!s || !*s)
		return -EINVAL;
	slash = strchr(s, '/');
	n = slash ? (size_t)(slash - s) : strlen(s);
	if (!n || n >= sizeof(host))
		return -EINVAL;
	memcpy(host, s, n);
	host[n] = '\0';
	if (inet_pton(AF_INET, host, c->addr) == 1) {
		c->family = AF_INET;
		max = 32;
	} else if (inet_pton(AF_INET6, host, c->addr) == 1) {
		c->family = AF_INET6;
		max = 128;
	} else {
		memset(c, 0, sizeof(*c));
		return -EINVAL;
	}
	prefix = max;
	if (slash) {
		/* decimal only: no sign, no hex, nothing after */
		if (!isdigit((unsigned char)slash[1]) ||
		    (slash[1] == '0' && slash[2]) ||
		    parse_uint(slash + 1, 0, UINT32_MAX, &prefix)) {
			memset(c, 0, sizeof(*c));
			return -EINVAL;
		}
		if (prefix > max) {
			memset(c, 0, sizeof(*c));
			return -ERANGE;
		}
	}
	c->prefix = prefix;
	/* no host bits beyond the prefix */
	for (i = prefix; i < max; i++) {
		if (c->addr[i / 8] & (0x80 >> (i % 8))) {
			memset(c, 0, sizeof(*c));
			return -EINVAL;
		}
	}
	return 0;
}

void format_cidr(const struct rdmachan_blk_cidr *c, char *buf, size_t len)
{
	char host[INET6_ADDRSTRLEN];

	if ((c->family != AF_INET && c->family != AF_INET6) ||
	    !inet_ntop(c->family, c->addr, host, sizeof(host))) {
		snprintf(buf, len, "?");
		return;
	}
	snprintf(buf, len, "%s/%u", host, c->prefix);
}

int parse_blk_server(const char *s, struct sockaddr_storage *ss)
{
	return parse_addr(s, BLK_DEFAULT_PORT, ss);
}

int parse_blk_dev(const char *s, uint32_t *index)
{
	uint64_t v;

	if (!s)
		return -EINVAL;
	if (!strncmp(s, "/dev/", 5))
		s += 5;
	if (!strncmp(s, BLK_DISK_PREFIX, strlen(BLK_DISK_PREFIX)))
		s += strlen(BLK_DISK_PREFIX);
	if (!isdigit((unsigned char)s[0]) || (s[0] == '0' && s[1]))
		return -EINVAL;
	if (parse_uint(s, 0, UINT32_MAX, &v))
		return -EINVAL;
	*index = v;
	return 0;
}

bool blk_name_ok(const char *s)
{
	size_t n;

	if (!s)
		return false;
	n = strlen(s);
	if (!n || n >= RDMACHAN_BLK_NAME_MAX)
		return false;
	for (; *s; s++)
		if (!isalnum((unsigned char)*s) && *s != '.' && *s != '_' && *s != '-')
			return false;
	return true;
}

const char *blk_state_name(unsigned int state)
{
	switch (state) {
	case RDMACHAN_BLK_LIVE:
		return "live";
	case RDMACHAN_BLK_RECONNECTING:
		return "reconnecting";
	case RDMACHAN_BLK_DEAD:
		return "dead";
	default:
		return "unknown";
	}
}

/* ---- /dev/rdmachan ------------------------------------------------- */

int ctl_blk_list(int ctl, unsigned int what, void **entries, unsigned int *count)
{
	size_t esz = what == RDMACHAN_BLK_LIST_EXPORTS ?
		sizeof(struct rdmachan_blk_export_info) :
		sizeof(struct rdmachan_blk_map_info);
	unsigned int cap = 8, n;
	void *e = NULL;

	for (;;) {
		void *p = realloc(e, cap * esz);

		if (!p) {
			free(e);
			errno = ENOMEM;
			return -1;
		}
		e = p;
		memset(e, 0, cap * esz);
		n = cap;
		if (ioc_blk_list(ctl, what, e, esz, &n) < 0) {
			int err = errno;

			free(e);
			errno = err;
			return -1;
		}
		if (n <= cap) {
			*entries = e;
			*count = n;
			return 0;
		}
		cap = n + 4;
	}
}

/*
 * blk_err: "rdmachan: CMD WHAT: strerror (ENAME)[: hint]" for errno
 * @err; @hint (may be NULL) for what it means to this command, the
 * module's absence for ENOTTY.  Returns EXIT_FAIL.
 */
int blk_err(const char *cmd, const char *what, int err, const char *hint)
{
	if (err == ENOTTY)
		hint = "rdmachan_blk is not loaded and could not be (modprobe rdmachan_blk; blacklisted?)";
	else if (err == EPERM && !hint)
		hint = "CAP_SYS_ADMIN is needed";
	return cmd_errno(cmd, what, err, hint);
}


/* ---- the object ---------------------------------------------------- */

static int blk_help(int argc, char **argv)
{
	(void)argc;
	(void)argv;
	printf("Usage: rdmachan blk export NAME PATH [--ro] [--stable-id] [--allow CIDR]...\n"
	       "       rdmachan blk unexport NAME [--force]\n"
	       "       rdmachan [-j] blk map ADDR[:PORT] NAME [--ro] [--queues N] [--depth D]\n"
	       "                                         [--src ADDR]\n"
	       "       rdmachan blk unmap DEV [--force]\n"
	       "       rdmachan blk remap DEV\n"
	       "       rdmachan [-j [-p]] blk show [exports | maps]\n"
	       "       rdmachan blk { COMMAND --help | help }\n"
	       "The block channel (rdmachan_blk.ko): a server exports a block device;\n"
	       "a client maps it as /dev/rcblkN.  Server port: %d.\n",
	       BLK_DEFAULT_PORT);
	return EXIT_OK;
}

const struct cmd blk_cmds[] = {
	{ "show", cmd_blk_show },
	{ "export", cmd_blk_export },
	{ "unexport", cmd_blk_unexport },
	{ "map", cmd_blk_map },
	{ "unmap", cmd_blk_unmap },
	{ "remap", cmd_blk_remap },
	{ "help", blk_help },
	CMD_END
};

int obj_blk(int argc, char **argv)
{
	return cmd_run("blk", blk_cmds, argc, argv);
}

