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
 * The ioctls are ioc.c's (RDMACHAN_IOC_BLK_*, of /dev/rdmachan); the
 * parsers below are pure functions, unit-tested (test_unit.c).
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
static int blk_err(const char *cmd, const char *what, int err, const char *hint)
{
	if (err == ENOTTY)
		hint = "rdmachan_blk is not loaded and could not be (modprobe rdmachan_blk; blacklisted?)";
	else if (err == EPERM && !hint)
		hint = "CAP_SYS_ADMIN is needed";
	tool_err("%s%s%s: %s (%s)%s%s", cmd, what ? " " : "", what ? what : "",
		 strerror(err), errno_name(err), hint ? ": " : "", hint ? hint : "");
	return EXIT_FAIL;
}

#define BLK_GETOPT_INIT() ((void)(optind = 0, opterr = 0))
#define BLK_GETOPT(argc, argv, s, l) getopt_long((argc) + 1, (argv) - 1, s, l, NULL)

/* after BLK_GETOPT: the operands; usage error unless there are @n */
static int operands(const char *cmd, int *argc, char ***argv, int n, const char *what)
{
	*argc -= optind - 1;
	*argv += optind - 1;
	if (*argc == n)
		return 0;
	if (*argc < n)
		return tool_usage_err(cmd, "%s needed", what);
	return tool_usage_err(cmd, "unexpected argument '%s'", (*argv)[n]);
}

static int bad_option(const char *cmd, char **argv)
{
	return tool_usage_err(cmd, "unknown or incomplete option '%s'", argv[optind - 2]);
}

/* An export's state (rdmachan_blk_export_info.state) */
static const char *blk_export_state_name(unsigned int state)
{
	switch (state) {
	case RDMACHAN_BLK_EXPORTED:
		return "exported";
	case RDMACHAN_BLK_UNEXPORTING:
		return "unexporting";
	case RDMACHAN_BLK_DRAINING:
		return "draining";
	default:
		return "unknown";
	}
}

/* ---- export, unexport ---------------------------------------------- */

static void export_help(void)
{
	printf("Usage: rdmachan blk export NAME PATH [--ro] [--stable-id] [--allow CIDR]...\n"
	       "Serve block device PATH as export NAME ([A-Za-z0-9._-], up to 63\n"
	       "characters) to the clients of the networks allowed.\n"
	       "      --ro            read-only: clients may only map it --ro\n"
	       "      --stable-id     its identity is NAME and size only: PATH names\n"
	       "                      the same data after a reboot, so that clients\n"
	       "                      reconnect across it\n"
	       "  -a, --allow CIDR    a client network, ADDR/LEN (IPv4 or IPv6) or\n"
	       "                      one ADDR; up to %d; none refuses every client\n",
	       RDMACHAN_BLK_MAX_ALLOW);
}

static int blk_export(int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "ro", no_argument, NULL, 'r' },
		{ "stable-id", no_argument, NULL, 's' },
		{ "allow", required_argument, NULL, 'a' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 }
	};
	struct rdmachan_blk_cidr allow[RDMACHAN_BLK_MAX_ALLOW];
	unsigned int nr_allow = 0, flags = 0;
	int c, ctl, ret;

	BLK_GETOPT_INIT();
	while ((c = BLK_GETOPT(argc, argv, "ha:", longopts)) != -1) {
		switch (c) {
		case 'h':
			export_help();
			return EXIT_OK;
		case 'r':
			flags |= RDMACHAN_BLK_RO;
			break;
		case 's':
			flags |= RDMACHAN_BLK_STABLE_ID;
			break;
		case 'a':
			if (nr_allow == RDMACHAN_BLK_MAX_ALLOW)
				return tool_usage_err("blk export", "at most %d --allow",
						      RDMACHAN_BLK_MAX_ALLOW);
			ret = parse_cidr(optarg, &allow[nr_allow]);
			if (ret)
				return tool_usage_err("blk export", "invalid network '%s'%s", optarg,
						      ret == -ERANGE ? ": prefix length out of range" :
						      " (ADDR/LEN, no bits set past LEN)");
			nr_allow++;
			break;
		default:
			return bad_option("blk export", argv);
		}
	}
	if (operands("blk export", &argc, &argv, 2, "a NAME and a PATH are"))
		return EXIT_USAGE;
	if (!blk_name_ok(argv[0]))
		return tool_usage_err("blk export", "invalid export name '%.70s'", argv[0]);
	if (!argv[1][0] || strlen(argv[1]) >= RDMACHAN_BLK_PATH_MAX)
		return tool_usage_err("blk export", "invalid path '%.70s'", argv[1]);
	ctl = ctl_open();
	if (ctl < 0)
		return EXIT_FAIL;
	ret = ioc_blk_export(ctl, argv[0], argv[1], flags, allow, nr_allow);
	if (ret < 0) {
		int err = errno;
		const char *hint = NULL;

		if (err == EEXIST)
			hint = "an export of this name exists";
		else if (err == ENOENT)
			hint = "no such backing device";
		else if (err == ENOTBLK)
			hint = "not a block device";
		else if (err == EBUSY)
			hint = "the device is in use (exported already, or opened exclusively)";
		else if (err == EROFS)
			hint = "the device is read-only: export it --ro";
		else if (err == ELOOP)
			hint = "the device is a disk this host maps from itself: its requests would come back to it";
		close(ctl);
		return blk_err("blk export", argv[0], err, hint);
	}
	close(ctl);
	if (!nr_allow && !out_json())
		fprintf(stderr, "rdmachan: blk export %s: no --allow: every client is refused\n",
			argv[0]);
	return EXIT_OK;
}

static void unexport_help(void)
{
	printf("Usage: rdmachan blk unexport NAME [--force]\n"
	       "Stop serving export NAME.\n"
	       "  -f, --force         even with clients mapping it: their I/O fails\n");
}

static int blk_unexport(int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "force", no_argument, NULL, 'f' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 }
	};
	unsigned int flags = 0;
	int c, ctl, ret;

	BLK_GETOPT_INIT();
	while ((c = BLK_GETOPT(argc, argv, "hf", longopts)) != -1) {
		switch (c) {
		case 'h':
			unexport_help();
			return EXIT_OK;
		case 'f':
			flags |= RDMACHAN_BLK_FORCE;
			break;
		default:
			return bad_option("blk unexport", argv);
		}
	}
	if (operands("blk unexport", &argc, &argv, 1, "a NAME is"))
		return EXIT_USAGE;
	if (!blk_name_ok(argv[0]))
		return tool_usage_err("blk unexport", "invalid export name '%.70s'", argv[0]);
	ctl = ctl_open();
	if (ctl < 0)
		return EXIT_FAIL;
	ret = ioc_blk_unexport(ctl, argv[0], flags);
	if (ret < 0) {
		int err = errno;

		close(ctl);
		return blk_err("blk unexport", argv[0], err,
			       err == ENOENT ? "no such export" :
			       err == EBUSY ? "clients map it: --force fails their I/O" :
			       err == EINPROGRESS ? "bios still in flight on the device: the export is draining and keeps it claimed until they end (blk show)" :
			       NULL);
	}
	close(ctl);
	return EXIT_OK;
}

/* ---- map, unmap ---------------------------------------------------- */

/*
 * --reconnect-delay, --loss-timeout or --fast-io-fail (@opt R, L, F) into
 * @policy[0..2]; "off" is RDMACHAN_BLK_TMO_OFF for the last two.  The
 * module checks the policy as a whole.
 */
static int parse_policy_ms(int opt, const char *s, uint32_t *policy)
{
	int i = opt == 'R' ? 0 : opt == 'L' ? 1 : 2;
	uint64_t v;

	if (i && !strcmp(s, "off")) {
		policy[i] = RDMACHAN_BLK_TMO_OFF;
		return 0;
	}
	if (parse_uint(s, i ? 1 : 100, i ? 0xfffffffeULL : 3600000, &v))
		return -1;
	policy[i] = (uint32_t)v;
	return 0;
}

static void map_help(void)
{
	printf("Usage: rdmachan [-j] blk map ADDR[:PORT] NAME [--ro] [--queues N] [--depth D]\n"
	       "                            [--src ADDR] [--reconnect-delay MS]\n"
	       "                            [--loss-timeout MS|off] [--fast-io-fail MS|off]\n"
	       "Map export NAME of the server at ADDR (port %d unless given;\n"
	       "[IPv6]:PORT) as a local disk and print its path, /dev/rcblkN.\n"
	       "      --ro            read-only\n"
	       "  -q, --queues N      hardware queues, one channel each (1-1024;\n"
	       "                      default one per CPU)\n"
	       "  -d, --depth D       requests per queue (1-65535; default the module's)\n"
	       "  -s, --src ADDR      the local address to connect from\n"
	       "When the link is lost, I/O is held and the link reconnected:\n"
	       "      --reconnect-delay MS   first attempt MS after the loss, later\n"
	       "                             waits doubling (100-3600000; default\n"
	       "                             the module's clt_reconnect_delay_ms)\n"
	       "      --loss-timeout MS|off  give up MS after the loss: I/O fails,\n"
	       "                             the mapping is dead (default the\n"
	       "                             module's clt_loss_timeout_ms)\n"
	       "      --fast-io-fail MS|off  fail I/O MS after the loss while\n"
	       "                             reconnecting goes on (default the\n"
	       "                             module's clt_fast_io_fail_ms)\n",
	       BLK_DEFAULT_PORT);
}

static int blk_map(int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "ro", no_argument, NULL, 'r' },
		{ "queues", required_argument, NULL, 'q' },
		{ "depth", required_argument, NULL, 'd' },
		{ "src", required_argument, NULL, 's' },
		{ "reconnect-delay", required_argument, NULL, 'R' },
		{ "loss-timeout", required_argument, NULL, 'L' },
		{ "fast-io-fail", required_argument, NULL, 'F' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 }
	};
	struct sockaddr_storage server, src;
	uint32_t policy[3] = { 0, 0, 0 };
	uint64_t queues = 0, depth = 0;
	bool have_src = false;
	unsigned int flags = 0;
	char dev[32], what[160], addr[64];
	uint32_t index;
	int c, ctl, ret;

	BLK_GETOPT_INIT();
	while ((c = BLK_GETOPT(argc, argv, "hq:d:s:", longopts)) != -1) {
		switch (c) {
		case 'h':
			map_help();
			return EXIT_OK;
		case 'r':
			flags |= RDMACHAN_BLK_RO;
			break;
		case 'q':
			if (parse_uint(optarg, 1, 1024, &queues))
				return tool_usage_err("blk map", "invalid queue count '%s' (1-1024)",
						      optarg);
			break;
		case 'd':
			if (parse_uint(optarg, 1, 65535, &depth))
				return tool_usage_err("blk map", "invalid depth '%s' (1-65535)",
						      optarg);
			break;
		case 's':
			if (parse_listen_addr(optarg, 0, &src))
				return tool_usage_err("blk map", "invalid source address '%s'",
						      optarg);
			have_src = true;
			break;
		case 'R':
		case 'L':
		case 'F':
			if (parse_policy_ms(c, optarg, policy))
				return tool_usage_err("blk map", "invalid %s '%.20s'",
						      c == 'R' ? "--reconnect-delay (100-3600000 ms)" :
						      c == 'L' ? "--loss-timeout (ms or off)" :
						      "--fast-io-fail (ms or off)", optarg);
			break;
		default:
			return bad_option("blk map", argv);
		}
	}
	if (operands("blk map", &argc, &argv, 2, "an ADDR and a NAME are"))
		return EXIT_USAGE;
	if (parse_blk_server(argv[0], &server))
		return tool_usage_err("blk map", "invalid address '%.70s'", argv[0]);
	if (!blk_name_ok(argv[1]))
		return tool_usage_err("blk map", "invalid export name '%.70s'", argv[1]);
	if (have_src && src.ss_family != server.ss_family)
		return tool_usage_err("blk map", "--src and ADDR are of different families");
	ctl = ctl_open();
	if (ctl < 0)
		return EXIT_FAIL;
	ret = ioc_blk_map(ctl, &server, have_src ? &src : NULL, argv[1], flags,
			  queues, depth, policy, &index);
	if (ret < 0) {
		int err = errno;
		const char *hint = NULL;

		close(ctl);
		format_addr(&server, addr, sizeof(addr));
		snprintf(what, sizeof(what), "%s %s", addr, argv[1]);
		if (err == ENOENT)
			hint = "the server has no such export";
		else if (err == EACCES)
			hint = "the export does not allow this client's address";
		else if (err == EROFS)
			hint = "the export is read-only: map it --ro";
		else if (err == ECONNREFUSED)
			hint = "no block server listens there (is rdmachan_blk loaded on the server?)";
		else if (err == ETIMEDOUT || err == EHOSTUNREACH || err == ENETUNREACH)
			hint = "the server cannot be reached";
		else if (err == EPROTO)
			hint = "the server speaks another version of the protocol";
		else if (err == ELOOP)
			hint = "the export's device is this very disk";
		return blk_err("blk map", what, err, hint);
	}
	close(ctl);
	snprintf(dev, sizeof(dev), "/dev/" BLK_DISK_PREFIX "%u", index);
	open_record(stdout);
	print_uint(PRINT_JSON, "index", NULL, index);
	print_str(PRINT_ANY, "dev", "%s\n", dev);
	close_record();
	return EXIT_OK;
}

static void unmap_help(void)
{
	printf("Usage: rdmachan blk unmap DEV [--force]\n"
	       "Remove a mapping's disk: DEV is /dev/rcblkN, rcblkN or N.\n"
	       "  -f, --force         even while the disk is open (mounted): its\n"
	       "                      I/O fails\n");
}

static int blk_unmap(int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "force", no_argument, NULL, 'f' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 }
	};
	unsigned int flags = 0;
	uint32_t index;
	int c, ctl, ret;

	BLK_GETOPT_INIT();
	while ((c = BLK_GETOPT(argc, argv, "hf", longopts)) != -1) {
		switch (c) {
		case 'h':
			unmap_help();
			return EXIT_OK;
		case 'f':
			flags |= RDMACHAN_BLK_FORCE;
			break;
		default:
			return bad_option("blk unmap", argv);
		}
	}
	if (operands("blk unmap", &argc, &argv, 1, "a DEV is"))
		return EXIT_USAGE;
	if (parse_blk_dev(argv[0], &index))
		return tool_usage_err("blk unmap", "invalid disk '%.70s' (/dev/rcblkN, rcblkN or N)",
				      argv[0]);
	ctl = ctl_open();
	if (ctl < 0)
		return EXIT_FAIL;
	ret = ioc_blk_unmap(ctl, index, flags);
	if (ret < 0) {
		int err = errno;
		char what[32];

		close(ctl);
		snprintf(what, sizeof(what), BLK_DISK_PREFIX "%u", index);
		return blk_err("blk unmap", what, err,
			       err == ENOENT || err == ENODEV ? "no such mapping" :
			       err == EBUSY ? "the disk is open (mounted?): --force fails its I/O" :
			       NULL);
	}
	close(ctl);
	return EXIT_OK;
}

static void remap_help(void)
{
	printf("Usage: rdmachan blk remap DEV\n"
	       "Open a dead mapping again, onto the same disk (DEV is /dev/rcblkN,\n"
	       "rcblkN or N): one attempt to reach the same export on the same\n"
	       "server, at once.  What has the disk open (a mounted filesystem)\n"
	       "goes on when it works; the mapping stays dead when not.\n");
}

static int blk_remap(int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 }
	};
	uint32_t index;
	int c, ctl, ret;

	BLK_GETOPT_INIT();
	while ((c = BLK_GETOPT(argc, argv, "h", longopts)) != -1) {
		switch (c) {
		case 'h':
			remap_help();
			return EXIT_OK;
		default:
			return bad_option("blk remap", argv);
		}
	}
	if (operands("blk remap", &argc, &argv, 1, "a DEV is"))
		return EXIT_USAGE;
	if (parse_blk_dev(argv[0], &index))
		return tool_usage_err("blk remap", "invalid disk '%.70s' (/dev/rcblkN, rcblkN or N)",
				      argv[0]);
	ctl = ctl_open();
	if (ctl < 0)
		return EXIT_FAIL;
	ret = ioc_blk_remap(ctl, index);
	if (ret < 0) {
		int err = errno;
		char what[32];

		close(ctl);
		snprintf(what, sizeof(what), BLK_DISK_PREFIX "%u", index);
		return blk_err("blk remap", what, err,
			       err == ENOENT ? "no such mapping, or the server has no such export now" :
			       err == EALREADY ? "the mapping is live" :
			       err == EBUSY ? "the mapping is reconnecting by itself" :
			       err == ESTALE ? "the server exports another device under that name" :
			       NULL);
	}
	close(ctl);
	return EXIT_OK;
}

/* ---- show ---------------------------------------------------------- */

static void show_help(void)
{
	printf("Usage: rdmachan [-j [-p]] [-s] [-d] blk show [exports | maps]\n"
	       "The exports this host serves and the disks it maps (both when\n"
	       "neither is named); with -s their counters, with -d their\n"
	       "identities, sources and reconnect policies (JSON: always).\n");
}

static void show_counters(const struct rdmachan_blk_counters *c)
{
	open_object("counters");
	print_u64(PRINT_ANY, "reads", "    reads %llu", c->reads);
	print_u64(PRINT_ANY, "read_bytes", " read_bytes %llu", c->read_bytes);
	print_u64(PRINT_ANY, "writes", " writes %llu", c->writes);
	print_u64(PRINT_ANY, "write_bytes", " write_bytes %llu", c->write_bytes);
	print_u64(PRINT_ANY, "inline_writes", " inline_writes %llu\n", c->inline_writes);
	print_u64(PRINT_ANY, "flushes", "    flushes %llu", c->flushes);
	print_u64(PRINT_ANY, "fua", " fua %llu", c->fua);
	print_u64(PRINT_ANY, "discards", " discards %llu", c->discards);
	print_u64(PRINT_ANY, "write_zeroes", " write_zeroes %llu", c->write_zeroes);
	print_u64(PRINT_ANY, "errors", " errors %llu", c->errors);
	print_u64(PRINT_ANY, "rejected", " rejected %llu", c->rejected);
	print_u64(PRINT_ANY, "inflight", " inflight %llu\n", c->inflight);
	close_object();
}

static void show_export(const struct rdmachan_blk_export_info *e)
{
	char name[RDMACHAN_BLK_NAME_MAX + 1], path[RDMACHAN_BLK_PATH_MAX + 1], cidr[64];
	unsigned int i, n = e->nr_allow;

	snprintf(name, sizeof(name), "%.*s", (int)sizeof(e->name), e->name);
	snprintf(path, sizeof(path), "%.*s", (int)sizeof(e->path), e->path);
	if (n > RDMACHAN_BLK_MAX_ALLOW)
		n = RDMACHAN_BLK_MAX_ALLOW;
	open_object(NULL);
	print_str(PRINT_ANY, "name", "export %s", name);
	print_str(PRINT_ANY, "path", " path %s", path);
	print_bool(PRINT_JSON, "ro", NULL, e->flags & RDMACHAN_BLK_RO);
	print_str(PRINT_FP, NULL, " %s", e->flags & RDMACHAN_BLK_RO ? "ro" : "rw");
	print_bool(PRINT_JSON, "stable_id", NULL, e->flags & RDMACHAN_BLK_STABLE_ID);
	if (e->flags & RDMACHAN_BLK_STABLE_ID)
		print_fp(" stable-id");
	print_u64(PRINT_JSON, "sectors", NULL, e->nr_sectors);
	print_u64(PRINT_ANY, "size", " size %llu", e->nr_sectors * 512);
	print_uint(PRINT_ANY, "lbs", " lbs %u", e->lbs);
	print_uint(PRINT_ANY, "sessions", " sessions %u", e->sessions);
	print_uint(PRINT_ANY, "channels", " channels %u", e->channels);
	print_str(PRINT_ANY, "state", " state %s", blk_export_state_name(e->state));
	print_uint(PRINT_ANY, "bios", " bios %u", e->bios);
	print_fp(" allow");
	if (!n)
		print_fp(" none");
	open_array("allow");
	for (i = 0; i < n; i++) {
		format_cidr(&e->allow[i], cidr, sizeof(cidr));
		print_str(PRINT_ANY, NULL, " %s", cidr);
	}
	close_array();
	print_nl();
	if (tool_details()) {
		char id[40];

		sysfs_word(id, sizeof(id), "class/rdmachan_blk/ctl/exports/%s/export_id", name);
		print_str_null(PRINT_ANY, "export_id", "    export_id %s\n", id);
	}
	if (tool_stats())
		show_counters(&e->c);
	close_object();
}

/* what sysfs adds to a mapping: its identity, source and policy */
static void show_map_details(uint32_t index)
{
	static const char *const attrs[][2] = {
		{ "export_id", "    export_id %s" }, { "src", " src %s" },
		{ "reconnect_delay_ms", "\n    reconnect_delay_ms %s" },
		{ "loss_timeout_ms", " loss_timeout_ms %s" },
		{ "fast_io_fail_ms", " fast_io_fail_ms %s\n" },
	};
	char v[64];
	unsigned int i;

	for (i = 0; i < sizeof(attrs) / sizeof(attrs[0]); i++) {
		sysfs_word(v, sizeof(v), "block/" BLK_DISK_PREFIX "%u/rdmachan/%s",
			   index, attrs[i][0]);
		print_str_null(PRINT_ANY, attrs[i][0], attrs[i][1], v);
	}
}

static void show_map(const struct rdmachan_blk_map_info *m)
{
	char name[RDMACHAN_BLK_NAME_MAX + 1], dev[32], addr[64];

	snprintf(name, sizeof(name), "%.*s", (int)sizeof(m->name), m->name);
	snprintf(dev, sizeof(dev), "/dev/" BLK_DISK_PREFIX "%u", m->index);
	format_addr(&m->server, addr, sizeof(addr));
	open_object(NULL);
	print_uint(PRINT_JSON, "index", NULL, m->index);
	print_str(PRINT_ANY, "dev", "%s:", dev);
	print_str(PRINT_ANY, "server", " server %s", addr);
	print_str(PRINT_ANY, "export", " export %s", name);
	print_str(PRINT_ANY, "state", " state %s", blk_state_name(m->state));
	/* the reconnect loop's figures: "attempt 3 of 20 next 4000ms ..." */
	print_uint(PRINT_JSON, "attempt", NULL, m->attempt);
	print_uint(PRINT_JSON, "max_attempts", NULL, m->max_attempts);
	if (m->state != RDMACHAN_BLK_LIVE) {
		print_uint(PRINT_FP, NULL, " attempt %u", m->attempt);
		if (m->max_attempts)
			print_uint(PRINT_FP, NULL, " of %u", m->max_attempts);
	}
	print_uint(PRINT_JSON, "next_attempt_ms", NULL, m->next_ms);
	print_uint(PRINT_JSON, "deadline_ms", NULL, m->deadline_ms);
	print_uint(PRINT_JSON, "down_ms", NULL, m->down_ms);
	print_uint(PRINT_JSON, "losses", NULL, m->losses);
	if (m->state == RDMACHAN_BLK_RECONNECTING) {
		if (m->next_ms)
			print_uint(PRINT_FP, NULL, " next in %ums", m->next_ms);
		else
			print_str(PRINT_FP, NULL, " %s", "attempting");
		if (m->deadline_ms)
			print_uint(PRINT_FP, NULL, " gives up in %ums",
				   m->deadline_ms);
	}
	if (m->state != RDMACHAN_BLK_LIVE)
		print_uint(PRINT_FP, NULL, " down %ums", m->down_ms);
	print_bool(PRINT_JSON, "ro", NULL, m->flags & RDMACHAN_BLK_RO);
	print_str(PRINT_FP, NULL, " %s", m->flags & RDMACHAN_BLK_RO ? "ro" : "rw");
	print_s64(PRINT_JSON, "last_error", NULL, m->last_error);
	if (m->last_error < 0)
		print_str(PRINT_ANY, "last_error_name", " last_error %s",
			  errno_name(-m->last_error));
	print_uint(PRINT_ANY, "queues", "\n    queues %u", m->nr_queues);
	print_uint(PRINT_ANY, "depth", " depth %u", m->queue_depth);
	print_u64(PRINT_JSON, "sectors", NULL, m->nr_sectors);
	print_u64(PRINT_ANY, "size", " size %llu", m->nr_sectors * 512);
	print_uint(PRINT_ANY, "lbs", " lbs %u", m->lbs);
	print_uint(PRINT_ANY, "pbs", " pbs %u", m->pbs);
	print_uint(PRINT_ANY, "max_io", " max_io %u", m->max_io);
	print_uint(PRINT_ANY, "inline_max", " inline_max %u", m->inline_max);
	print_uint(PRINT_ANY, "openers", " openers %u\n", m->openers);
	if (tool_details())
		show_map_details(m->index);
	if (tool_stats())
		show_counters(&m->c);
	close_object();
}

static const struct cmd show_what[] = {
	{ "exports", NULL },
	{ "maps", NULL },
	CMD_END
};

static int blk_show(int argc, char **argv)
{
	bool exports = true, maps = true;
	unsigned int n_exp = 0, n_map = 0, i;
	struct rdmachan_blk_export_info *e = NULL;
	struct rdmachan_blk_map_info *m = NULL;
	int ctl, w;

	if (cmd_help_asked(argc, argv)) {
		show_help();
		return EXIT_OK;
	}
	if (argc > 1)
		return tool_usage_err("blk show", "unexpected argument '%s'", argv[1]);
	if (argc == 1) {
		w = cmd_match(show_what, argv[0]);
		if (w < 0)
			return tool_usage_err("blk show", "'%s' is neither exports nor maps",
					      argv[0]);
		exports = w == 0;
		maps = w == 1;
	}
	ctl = ctl_open();
	if (ctl < 0)
		return EXIT_FAIL;
	if (exports && ctl_blk_list(ctl, RDMACHAN_BLK_LIST_EXPORTS, (void **)&e, &n_exp)) {
		close(ctl);
		return blk_err("blk show", "exports", errno, NULL);
	}
	if (maps && ctl_blk_list(ctl, RDMACHAN_BLK_LIST_MAPS, (void **)&m, &n_map)) {
		free(e);
		close(ctl);
		return blk_err("blk show", "maps", errno, NULL);
	}
	close(ctl);
	open_record(stdout);
	if (exports) {
		open_array("exports");
		for (i = 0; i < n_exp; i++)
			show_export(&e[i]);
		close_array();
	}
	if (maps) {
		open_array("maps");
		for (i = 0; i < n_map; i++)
			show_map(&m[i]);
		close_array();
	}
	close_record();
	free(e);
	free(m);
	return EXIT_OK;
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
	{ "show", blk_show },
	{ "export", blk_export },
	{ "unexport", blk_unexport },
	{ "map", blk_map },
	{ "unmap", blk_unmap },
	{ "remap", blk_remap },
	{ "help", blk_help },
	CMD_END
};

int obj_blk(int argc, char **argv)
{
	return cmd_run("blk", blk_cmds, argc, argv);
}
