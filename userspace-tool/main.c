// SPDX-License-Identifier: GPL-2.0-only
/*
 * rdmachan: command-line tool for the rdmachan kernel module, in the
 * style of iproute2's "rdma": rdmachan [OPTIONS] OBJECT [COMMAND] [ARGS].
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tool.h"
#ifdef RDMACHAN_IOC_RDMA
#include "rdma.h"
#define RDMA_USAGE \
	"  reg ADDR[:PORT] --size SIZE  serve a registered buffer to write,\n" \
	"                               read, atomic and bench --op\n" \
	"  write ADDR[:PORT] [...]      one RDMA WRITE to a reg server\n" \
	"  read ADDR[:PORT] --len N     one RDMA READ from a reg server\n" \
	"  atomic fadd|cswap ADDR[:PORT] [...]\n" \
	"                               RDMA atomics on a reg server's buffer\n"
#else
#define RDMA_USAGE ""
#endif

struct tool_opts tool = {
	.ctl_path = "/dev/" RDMACHAN_DEVICE_NAME,
};

void tool_err(const char *fmt, ...)
{
	va_list ap;

	fflush(stdout);
	fputs("rdmachan: ", stderr);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
}

int tool_usage_err(const char *cmd, const char *fmt, ...)
{
	va_list ap;

	fputs("rdmachan: ", stderr);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fprintf(stderr, "\nTry 'rdmachan %s --help'.\n", cmd);
	return EXIT_USAGE;
}

static void usage(FILE *out)
{
	fprintf(out,
		"Usage: rdmachan [OPTIONS] OBJECT [COMMAND] [ARGS]\n"
		"OPTIONS:\n"
		"  -j, --json        JSON output\n"
		"  -p, --pretty      indented JSON (with -j)\n"
		"  -V, --version     print the tool's version and exit\n"
		"  -h, --help        this help\n"
		"      --ctl PATH    control device (default /dev/rdmachan)\n"
		"OBJECTS:\n"
		"  version                      tool and module versions, features\n"
		"  dev list|show [DEV]          RDMA devices and their attributes\n"
		"  listen ADDR[:PORT] [...]     accept channels: print, --echo, --sink\n"
		"                               or --target (in-kernel one-sided)\n"
		"  connect ADDR[:PORT] [...]    a channel: stdin lines out, messages in\n"
		"  send ADDR[:PORT] MSG...      send messages and close\n"
		"  recv ADDR[:PORT] [...]       accept one channel, print its messages\n"
		"  ping ADDR[:PORT] [...]       round-trip times against listen --echo\n"
		"  bench ADDR[:PORT] [...]      message rate and bandwidth against\n"
		"                               listen --sink (--op write|read: reg;\n"
		"                               with --kernel: listen --target)\n"
		RDMA_USAGE
		"  stat [ID]                    channels and their counters (sysfs)\n"
		"Each object takes --help.  Default port: %d.\n", TOOL_DEFAULT_PORT);
}

static const struct {
	const char *name;
	int (*fn)(int argc, char **argv);
} objects[] = {
	{ "version", cmd_version },
	{ "dev", cmd_dev },
	{ "listen", cmd_listen },
	{ "connect", cmd_connect },
	{ "send", cmd_send },
	{ "recv", cmd_recv },
	{ "ping", cmd_ping },
	{ "bench", cmd_bench },
#ifdef RDMACHAN_IOC_RDMA
	{ "reg", cmd_reg },
	{ "write", cmd_write },
	{ "read", cmd_read },
	{ "atomic", cmd_atomic },
#endif
	{ "stat", cmd_stat },
};

int main(int argc, char **argv)
{
	unsigned int i;
	int a = 1;

	for (; a < argc && argv[a][0] == '-'; a++) {
		const char *o = argv[a];

		if (!strcmp(o, "-j") || !strcmp(o, "--json")) {
			tool.json = true;
		} else if (!strcmp(o, "-p") || !strcmp(o, "--pretty")) {
			tool.pretty = true;
		} else if (!strcmp(o, "-jp") || !strcmp(o, "-pj")) {
			tool.json = tool.pretty = true;
		} else if (!strcmp(o, "-V") || !strcmp(o, "--version")) {
			printf("rdmachan tool %s, ABI %d\n", TOOL_VERSION,
			       RDMACHAN_ABI_VERSION);
			return EXIT_OK;
		} else if (!strcmp(o, "-h") || !strcmp(o, "--help")) {
			usage(stdout);
			return EXIT_OK;
		} else if (!strcmp(o, "--ctl")) {
			if (++a == argc) {
				tool_err("--ctl needs a path");
				return EXIT_USAGE;
			}
			tool.ctl_path = argv[a];
		} else if (!strcmp(o, "--")) {
			a++;
			break;
		} else {
			tool_err("unknown option '%s'", o);
			usage(stderr);
			return EXIT_USAGE;
		}
	}
	json_init(&tool.j, stdout, tool.pretty);
	if (a == argc) {
		usage(stderr);
		return EXIT_USAGE;
	}
	if (!strcmp(argv[a], "help")) {
		usage(stdout);
		return EXIT_OK;
	}
	for (i = 0; i < sizeof(objects) / sizeof(objects[0]); i++)
		if (!strcmp(argv[a], objects[i].name))
			return objects[i].fn(argc - a - 1, argv + a + 1);
	tool_err("unknown object '%s'", argv[a]);
	usage(stderr);
	return EXIT_USAGE;
}
