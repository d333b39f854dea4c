// SPDX-License-Identifier: GPL-2.0-only
/*
 * version.c: "rdmachan version": the tool's and the module's versions.
 */
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "tool.h"

/* where the loaded module says its MODULE_VERSION */
#define MODULE_SYSFS	"/sys/module/rdmachan"

static const struct {
	uint64_t bit;
	const char *name;
} features[] = {
	{ RDMACHAN_FEAT_DEV_LIST, "dev_list" },
	{ RDMACHAN_FEAT_DEV_QUERY, "dev_query" },
	{ RDMACHAN_FEAT_CHANNEL, "channel" },
	{ RDMACHAN_FEAT_BENCH, "bench" },
	{ RDMACHAN_FEAT_RDMA, "rdma" },
};

#define N_FEATURES (sizeof(features) / sizeof(features[0]))

static void version_usage(void);

/* the loaded module's MODULE_VERSION, "unknown" for one without it */
static void module_version(char *buf, size_t len)
{
	FILE *f = fopen(MODULE_SYSFS "/version", "r");

	snprintf(buf, len, "unknown");
	if (!f)
		return;
	if (fgets(buf, len, f))
		buf[strcspn(buf, "\n")] = 0;
	else
		snprintf(buf, len, "unknown");
	fclose(f);
}

static int version_show(int argc, char **argv)
{
	struct rdmachan_version v;
	char mver[64];
	unsigned int i;
	int ctl;

	if (cmd_help_asked(argc, argv)) {
		version_usage();
		return EXIT_OK;
	}
	if (argc > 0)
		return tool_usage_err("version show", "unexpected argument '%s'", argv[0]);
	if (access(MODULE_SYSFS, F_OK)) {
		open_record(stdout);
		print_str(PRINT_ANY, "tool_version", "rdmachan tool %s", TOOL_VERSION);
		print_uint(PRINT_ANY, "tool_abi", ", ABI %u\n", RDMACHAN_ABI_VERSION);
		print_null(PRINT_ANY, "module_version", "module: not loaded\n");
		close_record();
		tool_err("the rdmachan module is not loaded (modprobe rdmachan)");
		return EXIT_FAIL;
	}
	ctl = ctl_open();
	if (ctl < 0)
		return EXIT_FAIL;
	if (ctl_version(ctl, &v)) {
		close(ctl);
		return EXIT_FAIL;
	}
	close(ctl);
	module_version(mver, sizeof(mver));

	open_record(stdout);
	print_str(PRINT_ANY, "tool_version", "rdmachan tool %s", TOOL_VERSION);
	print_uint(PRINT_ANY, "tool_abi", ", ABI %u\n", RDMACHAN_ABI_VERSION);
	print_uint(PRINT_ANY, "module_abi", "module ABI %u", v.abi_version);
	print_str(PRINT_ANY, "module_version", " (version %s), features:", mver);
	open_array("features");
	for (i = 0; i < N_FEATURES; i++)
		if (v.features & features[i].bit)
			print_str(PRINT_ANY, NULL, " %s", features[i].name);
	close_array();
	print_u64(PRINT_JSON, "feature_mask", NULL, v.features);
	print_uint(PRINT_ANY, "device_count", ", devices: %u\n", v.device_count);
	close_record();
	if (v.abi_version < RDMACHAN_ABI_VERSION)
		fprintf(stderr, "rdmachan: warning: the loaded module (ABI %u) is older than this tool (ABI %d): commands it lacks fail; install the module of the tool's release\n",
			v.abi_version, RDMACHAN_ABI_VERSION);
	else if (v.abi_version > RDMACHAN_ABI_VERSION)
		fprintf(stderr, "rdmachan: warning: the loaded module (ABI %u) is newer than this tool (ABI %d): install the tool of the module's release\n",
			v.abi_version, RDMACHAN_ABI_VERSION);
	else if (strcmp(mver, TOOL_VERSION))
		fprintf(stderr, "rdmachan: note: module version %s, tool version %s (same ABI)\n",
			mver, TOOL_VERSION);
	return EXIT_OK;
}

static void version_usage(void)
{
	printf("Usage: rdmachan [-j [-p]] version [show]\n"
	       "Print the tool's version and ABI, and the loaded module's ABI,\n"
	       "version, feature bits and device count; say when the module is\n"
	       "not loaded (exit 1), older or newer.  (rdmachan -V: the tool's only.)\n");
}

static int version_help(int argc, char **argv)
{
	(void)argc;
	(void)argv;
	version_usage();
	return EXIT_OK;
}

const struct cmd version_cmds[] = {
	{ "show", version_show },
	{ "help", version_help },
	CMD_END
};

int obj_version(int argc, char **argv)
{
	return cmd_run("version", version_cmds, argc, argv);
}
