// SPDX-License-Identifier: GPL-2.0-only
/*
 * rping.c: "rdmachan rping": rdma-core's rping, run in the kernel
 * (RDMACHAN_IOC_RPING), against "rping -s" or "rping -c" or another
 * "rdmachan rping".  Its options are rping's; the kernel logs the ping
 * data (-v), this prints what the call counted.
 */
#include <errno.h>
#include <arpa/inet.h>
#include <getopt.h>
#include <stdio.h>
#include <string.h>
#include <netinet/in.h>
#include <sys/ioctl.h>
#include <unistd.h>

#include <linux/rdmachan_verbs.h>

#include "chan.h"
#include "rdma.h"
#include "tool.h"

static void rping_help(void)
{
	printf("Usage: rdmachan rping -s [ADDR[:PORT]] [OPTIONS]\n"
	       "       rdmachan rping -c ADDR[:PORT] [OPTIONS]\n"
	       "rping (rdma-core's librdmacm example) run in the kernel, on its wire\n"
	       "protocol: against \"rping -s\", \"rping -c\" or another rdmachan rping.\n"
	       "  -s, --server        serve one client on ADDR (default any address)\n"
	       "  -c, --client        ping the server at ADDR\n"
	       "  -a, --addr ADDR     the address, as rping takes it\n"
	       "  -p, --port PORT     the port (default %d)\n"
	       "  -I, --src ADDR      client: the address to connect from\n"
	       "  -C, --count N       client: N pings (default: until interrupted)\n"
	       "  -S, --size SIZE     bytes of each ping, %d to %d (default %d); a\n"
	       "                      server refuses a client that advertises more\n"
	       "  -v, --verbose       log each ping's data (in the kernel log)\n"
	       "  -V, --validate      check each ping's data\n"
	       "  -W, --wait DUR      bound of each step that waits for the peer\n"
	       "                      (default 5s)\n",
	       RDMACHAN_RPING_PORT, RDMACHAN_RPING_MIN_SIZE,
	       RDMACHAN_RPING_MAX_SIZE, RDMACHAN_RPING_DEFAULT_SIZE);
}

static void rping_print(const struct rdmachan_rping *r, const char *peer,
			int err)
{
	bool server = r->flags & RDMACHAN_RPING_SERVER;
	double avg = r->pings ? r->rtt_sum_ns / 1e3 / r->pings : 0;

	open_record(stdout);
	print_str(PRINT_ANY, "role", "rping %s", server ? "server" : "client");
	print_str(PRINT_ANY, "peer", " %s:", peer);
	print_u64(PRINT_ANY, "pings", " %llu pings", r->pings);
	print_uint(PRINT_ANY, "size", " of %u bytes", r->msg_size);
	print_bool(PRINT_JSON, "validated", NULL,
		   r->flags & RDMACHAN_RPING_VALIDATE);
	if (r->flags & RDMACHAN_RPING_VALIDATE)
		print_fp(", data checked");
	if (server)
		print_uint(PRINT_ANY, "peer_size", ", the client's %u",
			   r->peer_size);
	if (!server && r->pings) {
		print_double(PRINT_ANY, "rtt_min_us", "; round trip min %.1f",
			     r->rtt_min_ns / 1e3);
		print_double(PRINT_ANY, "rtt_avg_us", " avg %.1f", avg);
		print_double(PRINT_ANY, "rtt_max_us", " max %.1f us",
			     r->rtt_max_ns / 1e3);
	}
	if (err) {
		print_fp("; %s", strerror(err));
		print_str(PRINT_ANY, "error", " (%s)", errno_name(err));
	}
	print_nl();
	close_record();
}

/* -s/-c, -a, -p, -C, -S, -W, -v, -V into @r and @addr; 1 taken, 0 bad */
static int rping_opt(int c, const char *arg, struct rdmachan_rping *r,
		     const char **addr, uint64_t *port, int *role)
{
	uint64_t v;

	switch (c) {
	case 's':
	case 'c':
		if (*role && *role != c)
			return 0;
		*role = c;
		return 1;
	case 'a':
		*addr = arg;
		return 1;
	case 'I':
		return !parse_listen_addr(arg, 0, (struct sockaddr_storage *)
					  &r->src);
	case 'p':
		return !parse_uint(arg, 1, 65535, port);
	case 'C':
		if (parse_uint(arg, 0, UINT32_MAX, &v))
			return 0;
		r->count = v;
		return 1;
	case 'S':
		if (parse_uint(arg, RDMACHAN_RPING_MIN_SIZE,
			       RDMACHAN_RPING_MAX_SIZE, &v))
			return 0;
		r->msg_size = v;
		return 1;
	case 'W':
		if (parse_duration_ms(arg, &v) || !v || v > 600000)
			return 0;
		r->timeout_ms = v;
		return 1;
	case 'v':
		r->flags |= RDMACHAN_RPING_VERBOSE;
		return 1;
	case 'V':
		r->flags |= RDMACHAN_RPING_VALIDATE;
		return 1;
	default:
		return 0;
	}
}

int obj_rping(int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "server", no_argument, NULL, 's' },
		{ "client", no_argument, NULL, 'c' },
		{ "addr", required_argument, NULL, 'a' },
		{ "port", required_argument, NULL, 'p' },
		{ "src", required_argument, NULL, 'I' },
		{ "count", required_argument, NULL, 'C' },
		{ "size", required_argument, NULL, 'S' },
		{ "wait", required_argument, NULL, 'W' },
		{ "verbose", no_argument, NULL, 'v' },
		{ "validate", no_argument, NULL, 'V' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 }
	};
	struct rdmachan_rping r = { .size = sizeof(r) };
	struct sockaddr_storage ss;
	const char *addr = NULL;
	uint64_t port = 0;
	char peer[80];
	int c, ctl, ret, err, role = 0;

	CMD_GETOPT_INIT();
	while ((c = CMD_GETOPT(argc, argv, "hsca:p:I:C:S:W:vV", longopts)) != -1) {
		if (c == 'h') {
			rping_help();
			return EXIT_OK;
		}
		if (c == '?')
			return cmd_bad_option("rping", argv);
		if (!rping_opt(c, optarg, &r, &addr, &port, &role))
			return tool_usage_err("rping", optarg ?
					      "invalid value '%s'" :
					      "-s and -c: one of them%s",
					      optarg ? optarg : "");
	}
	argc -= optind - 1;
	argv += optind - 1;
	if (argc > 1 || (argc == 1 && addr))
		return tool_usage_err("rping", "one address expected");
	if (argc == 1)
		addr = argv[0];
	if (!role)
		return tool_usage_err("rping", "-s (server) or -c (client) is needed");
	if (role == 's') {
		r.flags |= RDMACHAN_RPING_SERVER;
		if (r.count || r.src.ss_family)
			return tool_usage_err("rping", "a server takes no --count, no --src");
		ret = parse_listen_addr(addr ? addr : "0.0.0.0",
					RDMACHAN_RPING_PORT, &ss);
	} else {
		if (!addr)
			return tool_usage_err("rping", "a client needs the server's address");
		ret = parse_addr(addr, RDMACHAN_RPING_PORT, &ss);
	}
	if (ret)
		return tool_usage_err("rping", "invalid address '%s'",
				      addr ? addr : "");
	if (port) {
		if (ss.ss_family == AF_INET)
			((struct sockaddr_in *)&ss)->sin_port = htons(port);
		else
			((struct sockaddr_in6 *)&ss)->sin6_port = htons(port);
	}
	memcpy(&r.addr, &ss, sizeof(ss));
	format_addr(&ss, peer, sizeof(peer));
	ctl = ctl_open();
	if (ctl < 0)
		return EXIT_FAIL;
	catch_signals(true);
	ret = ioctl(ctl, RDMACHAN_IOC_RPING, &r);
	err = ret < 0 ? errno : 0;
	close(ctl);
	if (!r.msg_size)
		r.msg_size = RDMACHAN_RPING_DEFAULT_SIZE;
	/* interrupted: what it did is the result, as rping's until ^C */
	if (err == EINTR && (r.pings || role == 's'))
		err = 0;
	rping_print(&r, peer, err);
	if (err)
		tool_err("rping %s: %s", peer, strerror(err));
	return err ? EXIT_FAIL : EXIT_OK;
}
