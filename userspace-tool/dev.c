// SPDX-License-Identifier: GPL-2.0-only
/*
 * dev.c: "rdmachan version" and "rdmachan dev list|show".
 */
#include <errno.h>
#include <getopt.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "tool.h"

static const struct {
	uint64_t bit;
	const char *name;
} features[] = {
	{ RDMACHAN_FEAT_DEV_LIST, "dev_list" },
	{ RDMACHAN_FEAT_DEV_QUERY, "dev_query" },
	{ RDMACHAN_FEAT_CHANNEL, "channel" },
};

#define N_FEATURES (sizeof(features) / sizeof(features[0]))

/* help_requested: argv (after the command) is just -h/--help/help. */
static bool help_requested(int argc, char **argv)
{
	return argc >= 1 && (!strcmp(argv[0], "-h") || !strcmp(argv[0], "--help") ||
			     !strcmp(argv[0], "help"));
}

int cmd_version(int argc, char **argv)
{
	struct rdmachan_version v;
	unsigned int i;
	int ctl;

	if (help_requested(argc, argv)) {
		printf("Usage: rdmachan version\n"
		       "Print the tool's version and ABI, and the loaded module's ABI,\n"
		       "feature bits and device count.\n");
		return EXIT_OK;
	}
	if (argc > 0)
		return tool_usage_err("version", "unexpected argument '%s'", argv[0]);
	ctl = ctl_open();
	if (ctl < 0)
		return EXIT_FAIL;
	if (ctl_version(ctl, &v)) {
		close(ctl);
		return EXIT_FAIL;
	}
	close(ctl);

	if (tool.json) {
		struct json *j = &tool.j;

		json_obj_open(j);
		json_kv_str(j, "tool_version", TOOL_VERSION);
		json_kv_u64(j, "tool_abi", RDMACHAN_ABI_VERSION);
		json_kv_u64(j, "module_abi", v.abi_version);
		json_key(j, "features");
		json_arr_open(j);
		for (i = 0; i < N_FEATURES; i++)
			if (v.features & features[i].bit)
				json_str(j, features[i].name);
		json_arr_close(j);
		json_kv_u64(j, "feature_mask", v.features);
		json_kv_u64(j, "device_count", v.device_count);
		json_obj_close(j);
		json_end(j);
		return EXIT_OK;
	}
	printf("rdmachan tool %s, ABI %d\n", TOOL_VERSION, RDMACHAN_ABI_VERSION);
	printf("module ABI %u, features:", v.abi_version);
	for (i = 0; i < N_FEATURES; i++)
		if (v.features & features[i].bit)
			printf(" %s", features[i].name);
	printf(", devices: %u\n", v.device_count);
	if (v.abi_version != RDMACHAN_ABI_VERSION)
		fprintf(stderr, "rdmachan: warning: tool ABI %d differs from module ABI %u\n",
			RDMACHAN_ABI_VERSION, v.abi_version);
	return EXIT_OK;
}

static void dev_help(void)
{
	printf("Usage: rdmachan [-j [-p]] dev list\n"
	       "       rdmachan [-j [-p]] dev show [DEV]\n"
	       "List the RDMA devices rdmachan uses, or show the attributes of\n"
	       "one (or every) device and its ports, as ibv_devinfo -v does.\n");
}

static int dev_list(int argc, char **argv)
{
	struct rdmachan_dev_entry *e;
	unsigned int n, i;
	int ctl;

	if (help_requested(argc, argv)) {
		dev_help();
		return EXIT_OK;
	}
	if (argc > 0)
		return tool_usage_err("dev list", "unexpected argument '%s'", argv[0]);
	ctl = ctl_open();
	if (ctl < 0)
		return EXIT_FAIL;
	if (ctl_dev_list(ctl, &e, &n)) {
		close(ctl);
		return EXIT_FAIL;
	}
	close(ctl);
	if (tool.json)
		json_arr_open(&tool.j);
	for (i = 0; i < n; i++) {
		if (tool.json) {
			json_obj_open(&tool.j);
			json_kv_u64(&tool.j, "index", e[i].index);
			json_kv_str(&tool.j, "name", e[i].name);
			json_kv_u64(&tool.j, "port_count", e[i].port_count);
			json_kv_str(&tool.j, "node_type", node_type_name(e[i].node_type));
			json_obj_close(&tool.j);
		} else {
			printf("%u: %s ports %u node_type %s\n", e[i].index, e[i].name,
			       e[i].port_count, node_type_name(e[i].node_type));
		}
	}
	if (tool.json) {
		json_arr_close(&tool.j);
		json_end(&tool.j);
	}
	free(e);
	return EXIT_OK;
}

static void show_port_json(const struct rdmachan_port_attr *p)
{
	struct json *j = &tool.j;
	char gid[64];

	json_obj_open(j);
	json_kv_u64(j, "port", p->port_num);
	json_kv_str(j, "state", port_state_name(p->state));
	json_kv_u64(j, "state_num", p->state);
	json_kv_str(j, "physical_state", phys_state_name(p->phys_state));
	json_kv_u64(j, "physical_state_num", p->phys_state);
	json_kv_str(j, "link_layer", link_layer_name(p->link_layer));
	json_kv_str(j, "protocol", protocol_name(p->protocol));
	json_kv_u64(j, "max_mtu", p->max_mtu);
	json_kv_u64(j, "active_mtu", p->active_mtu);
	json_kv_u64(j, "gid_tbl_len", p->gid_tbl_len);
	json_kv_u64(j, "port_cap_flags", p->port_cap_flags);
	json_kv_u64(j, "lid", p->lid);
	json_kv_u64(j, "sm_lid", p->sm_lid);
	json_kv_u64(j, "active_speed_num", p->active_speed);
	json_kv_u64(j, "active_width_num", p->active_width);
	json_kv_double(j, "rate_gbps", speed_gbps(p->active_speed) *
		       width_lanes(p->active_width));
	if (p->gid_valid) {
		format_gid(p->gid, gid, sizeof(gid));
		json_kv_str(j, "gid", gid);
	} else {
		json_key(j, "gid");
		json_null(j);
	}
	json_obj_close(j);
}

static void show_json(const struct rdmachan_dev_query *q,
		      const struct rdmachan_port_attr *ports)
{
	struct json *j = &tool.j;
	char guid[32];
	unsigned int i;

	json_obj_open(j);
	json_kv_u64(j, "index", q->index);
	json_kv_str(j, "name", q->name);
	json_kv_str(j, "node_type", node_type_name(q->node_type));
	format_guid(q->node_guid, guid, sizeof(guid));
	json_kv_str(j, "node_guid", guid);
	format_guid(q->sys_image_guid, guid, sizeof(guid));
	json_kv_str(j, "sys_image_guid", guid);
	json_kv_str(j, "fw_ver", q->fw_ver);
	json_kv_u64(j, "vendor_id", q->vendor_id);
	json_kv_u64(j, "vendor_part_id", q->vendor_part_id);
	json_kv_u64(j, "hw_ver", q->hw_ver);
	json_kv_str(j, "atomic_cap", atomic_cap_name(q->atomic_cap));
	json_kv_u64(j, "max_mr_size", q->max_mr_size);
	json_kv_u64(j, "page_size_cap", q->page_size_cap);
	json_kv_u64(j, "device_cap_flags", q->device_cap_flags);
	json_kv_u64(j, "max_qp", q->max_qp);
	json_kv_u64(j, "max_qp_wr", q->max_qp_wr);
	json_kv_u64(j, "max_send_sge", q->max_send_sge);
	json_kv_u64(j, "max_recv_sge", q->max_recv_sge);
	json_kv_u64(j, "max_sge_rd", q->max_sge_rd);
	json_kv_u64(j, "max_cq", q->max_cq);
	json_kv_u64(j, "max_cqe", q->max_cqe);
	json_kv_u64(j, "max_mr", q->max_mr);
	json_kv_u64(j, "max_pd", q->max_pd);
	json_kv_u64(j, "max_qp_rd_atom", q->max_qp_rd_atom);
	json_kv_u64(j, "max_qp_init_rd_atom", q->max_qp_init_rd_atom);
	json_kv_u64(j, "max_srq", q->max_srq);
	json_kv_u64(j, "max_fast_reg_page_list_len", q->max_fast_reg_page_list_len);
	json_kv_u64(j, "max_inline_data", q->max_inline_data);
	json_kv_u64(j, "max_pkeys", q->max_pkeys);
	json_kv_u64(j, "local_ca_ack_delay", q->local_ca_ack_delay);
	json_kv_u64(j, "port_count", q->port_count);
	json_key(j, "ports");
	json_arr_open(j);
	for (i = 0; i < q->port_count; i++)
		show_port_json(&ports[i]);
	json_arr_close(j);
	json_obj_close(j);
}

static void show_text(const struct rdmachan_dev_query *q,
		      const struct rdmachan_port_attr *ports)
{
	char guid[32], sys[32], gid[64];
	unsigned int i;

	format_guid(q->node_guid, guid, sizeof(guid));
	format_guid(q->sys_image_guid, sys, sizeof(sys));
	printf("%u: %s: node_type %s fw %s node_guid %s sys_image_guid %s\n",
	       q->index, q->name, node_type_name(q->node_type),
	       q->fw_ver[0] ? q->fw_ver : "-", guid, sys);
	printf("    vendor_id 0x%x vendor_part_id %u hw_ver 0x%x atomic_cap %s page_size_cap 0x%" PRIx64 "\n",
	       q->vendor_id, q->vendor_part_id, q->hw_ver,
	       atomic_cap_name(q->atomic_cap), (uint64_t)q->page_size_cap);
	printf("    max_qp %u max_qp_wr %u max_send_sge %u max_recv_sge %u max_sge_rd %u max_inline_data %u\n",
	       q->max_qp, q->max_qp_wr, q->max_send_sge, q->max_recv_sge,
	       q->max_sge_rd, q->max_inline_data);
	printf("    max_cq %u max_cqe %u max_mr %u max_mr_size 0x%" PRIx64 " max_pd %u max_srq %u max_fast_reg_page_list_len %u\n",
	       q->max_cq, q->max_cqe, q->max_mr, (uint64_t)q->max_mr_size,
	       q->max_pd, q->max_srq, q->max_fast_reg_page_list_len);
	printf("    max_qp_rd_atom %u max_qp_init_rd_atom %u max_pkeys %u local_ca_ack_delay %u\n",
	       q->max_qp_rd_atom, q->max_qp_init_rd_atom, q->max_pkeys,
	       q->local_ca_ack_delay);
	for (i = 0; i < q->port_count; i++) {
		const struct rdmachan_port_attr *p = &ports[i];

		printf("    port %u: state %s physical_state %s link_layer %s protocol %s mtu %u max_mtu %u",
		       p->port_num, port_state_name(p->state),
		       phys_state_name(p->phys_state), link_layer_name(p->link_layer),
		       protocol_name(p->protocol), p->active_mtu, p->max_mtu);
		if (width_lanes(p->active_width) && speed_gbps(p->active_speed))
			printf(" rate %g Gb/s (%ux)",
			       speed_gbps(p->active_speed) * width_lanes(p->active_width),
			       width_lanes(p->active_width));
		if (p->link_layer == RDMACHAN_LINK_INFINIBAND)
			printf(" lid %u sm_lid %u", p->lid, p->sm_lid);
		if (p->gid_valid) {
			format_gid(p->gid, gid, sizeof(gid));
			printf(" gid %s", gid);
		}
		printf("\n");
	}
}

/* show_one: 0 shown, 1 no such device (ENODEV), -1 other error. */
static int show_one(int ctl, const char *name)
{
	struct rdmachan_port_attr *ports;
	struct rdmachan_dev_query q;

	if (ctl_dev_query(ctl, name, &q, &ports)) {
		if (errno == ENODEV)
			return 1;
		tool_err("%s: %s", name, strerror(errno));
		return -1;
	}
	if (tool.json)
		show_json(&q, ports);
	else
		show_text(&q, ports);
	free(ports);
	return 0;
}

static int dev_show(int argc, char **argv)
{
	int ctl, ret = EXIT_OK, r;
	unsigned int n, i;
	struct rdmachan_dev_entry *e;

	if (help_requested(argc, argv)) {
		dev_help();
		return EXIT_OK;
	}
	if (argc > 1)
		return tool_usage_err("dev show", "unexpected argument '%s'", argv[1]);
	if (argc == 1 && (argv[0][0] == '-' || strlen(argv[0]) >= RDMACHAN_NAME_MAX))
		return tool_usage_err("dev show", "'%.70s' is not a device name", argv[0]);
	ctl = ctl_open();
	if (ctl < 0)
		return EXIT_FAIL;
	if (tool.json)
		json_arr_open(&tool.j);
	if (argc == 1) {
		r = show_one(ctl, argv[0]);
		if (r == 1)
			tool_err("%s: %s", argv[0], strerror(ENODEV));
		if (r)
			ret = EXIT_FAIL;
	} else if (ctl_dev_list(ctl, &e, &n)) {
		ret = EXIT_FAIL;
	} else {
		/* A device deleted since the listing is skipped, not an error. */
		for (i = 0; i < n; i++)
			if (show_one(ctl, e[i].name) < 0)
				ret = EXIT_FAIL;
		free(e);
	}
	close(ctl);
	if (tool.json) {
		json_arr_close(&tool.j);
		json_end(&tool.j);
	}
	return ret;
}

int cmd_dev(int argc, char **argv)
{
	if (argc == 0)
		return dev_show(0, argv);
	if (help_requested(argc, argv)) {
		dev_help();
		return EXIT_OK;
	}
	if (!strcmp(argv[0], "list"))
		return dev_list(argc - 1, argv + 1);
	if (!strcmp(argv[0], "show"))
		return dev_show(argc - 1, argv + 1);
	return tool_usage_err("dev", "unknown command '%s'", argv[0]);
}
