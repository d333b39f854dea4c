// SPDX-License-Identifier: GPL-2.0-only
/*
 * dev.c: the "dev" object: "rdmachan dev show|list".
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "tool.h"

static void dev_help(void)
{
	printf("Usage: rdmachan [-j [-p]] dev [show [DEV]]\n"
	       "       rdmachan [-j [-p]] dev list\n"
	       "       rdmachan dev { COMMAND --help | help }\n"
	       "List the RDMA devices rdmachan uses, or show the attributes of\n"
	       "one (or every) device and its ports, as ibv_devinfo -v does.\n");
}

static int dev_list(int argc, char **argv)
{
	struct rdmachan_dev_entry *e;
	unsigned int n, i;
	int ctl;

	if (cmd_help_asked(argc, argv)) {
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
	open_list();
	for (i = 0; i < n; i++) {
		open_record(stdout);
		print_uint(PRINT_ANY, "index", "%u: ", e[i].index);
		print_str(PRINT_ANY, "name", "%s", e[i].name);
		print_uint(PRINT_ANY, "port_count", " ports %u", e[i].port_count);
		print_str(PRINT_ANY, "node_type", " node_type %s\n",
			  node_type_name(e[i].node_type));
		close_record();
	}
	close_list();
	free(e);
	return EXIT_OK;
}

static void show_port(const struct rdmachan_port_attr *p)
{
	double rate = speed_gbps(p->active_speed) * width_lanes(p->active_width);
	/* lid and sm_lid mean something on InfiniBand only: text leaves them out */
	enum out_type ib = p->link_layer == RDMACHAN_LINK_INFINIBAND ? PRINT_ANY : PRINT_JSON;
	char gid[64];

	open_object(NULL);
	print_uint(PRINT_ANY, "port", "    port %u", p->port_num);
	print_str(PRINT_ANY, "state", ": state %s", port_state_name(p->state));
	print_uint(PRINT_JSON, "state_num", NULL, p->state);
	print_str(PRINT_ANY, "physical_state", " physical_state %s",
		  phys_state_name(p->phys_state));
	print_uint(PRINT_JSON, "physical_state_num", NULL, p->phys_state);
	print_str(PRINT_ANY, "link_layer", " link_layer %s", link_layer_name(p->link_layer));
	print_str(PRINT_ANY, "protocol", " protocol %s", protocol_name(p->protocol));
	print_uint(PRINT_ANY, "active_mtu", " mtu %u", p->active_mtu);
	print_uint(PRINT_ANY, "max_mtu", " max_mtu %u", p->max_mtu);
	print_uint(PRINT_JSON, "gid_tbl_len", NULL, p->gid_tbl_len);
	print_uint(PRINT_JSON, "port_cap_flags", NULL, p->port_cap_flags);
	print_uint(PRINT_JSON, "active_speed_num", NULL, p->active_speed);
	print_uint(PRINT_JSON, "active_width_num", NULL, p->active_width);
	/* text: the rate when speed and width are known */
	print_double(rate ? PRINT_ANY : PRINT_JSON, "rate_gbps", " rate %g Gb/s", rate);
	if (rate)
		print_fp(" (%ux)", width_lanes(p->active_width));
	print_uint(ib, "lid", " lid %u", p->lid);
	print_uint(ib, "sm_lid", " sm_lid %u", p->sm_lid);
	if (p->gid_valid) {
		format_gid(p->gid, gid, sizeof(gid));
		print_str(PRINT_ANY, "gid", " gid %s", gid);
	} else {
		print_null(PRINT_JSON, "gid", NULL);
	}
	print_nl();
	close_object();
}

static void show(const struct rdmachan_dev_query *q, const struct rdmachan_port_attr *ports)
{
	char guid[32];
	unsigned int i;

	open_record(stdout);
	print_uint(PRINT_ANY, "index", "%u: ", q->index);
	print_str(PRINT_ANY, "name", "%s: ", q->name);
	print_str(PRINT_ANY, "node_type", "node_type %s", node_type_name(q->node_type));
	print_str(PRINT_JSON, "fw_ver", NULL, q->fw_ver);
	print_str(PRINT_FP, NULL, " fw %s", q->fw_ver[0] ? q->fw_ver : "-");
	format_guid(q->node_guid, guid, sizeof(guid));
	print_str(PRINT_ANY, "node_guid", " node_guid %s", guid);
	format_guid(q->sys_image_guid, guid, sizeof(guid));
	print_str(PRINT_ANY, "sys_image_guid", " sys_image_guid %s\n", guid);
	print_uint(PRINT_ANY, "vendor_id", "    vendor_id 0x%x", q->vendor_id);
	print_uint(PRINT_ANY, "vendor_part_id", " vendor_part_id %u", q->vendor_part_id);
	print_uint(PRINT_ANY, "hw_ver", " hw_ver 0x%x", q->hw_ver);
	print_str(PRINT_ANY, "atomic_cap", " atomic_cap %s", atomic_cap_name(q->atomic_cap));
	print_u64(PRINT_ANY, "page_size_cap", " page_size_cap 0x%llx\n", q->page_size_cap);
	print_u64(PRINT_JSON, "device_cap_flags", NULL, q->device_cap_flags);
	print_uint(PRINT_ANY, "max_qp", "    max_qp %u", q->max_qp);
	print_uint(PRINT_ANY, "max_qp_wr", " max_qp_wr %u", q->max_qp_wr);
	print_uint(PRINT_ANY, "max_send_sge", " max_send_sge %u", q->max_send_sge);
	print_uint(PRINT_ANY, "max_recv_sge", " max_recv_sge %u", q->max_recv_sge);
	print_uint(PRINT_ANY, "max_sge_rd", " max_sge_rd %u", q->max_sge_rd);
	print_uint(PRINT_ANY, "max_inline_data", " max_inline_data %u\n", q->max_inline_data);
	print_uint(PRINT_ANY, "max_cq", "    max_cq %u", q->max_cq);
	print_uint(PRINT_ANY, "max_cqe", " max_cqe %u", q->max_cqe);
	print_uint(PRINT_ANY, "max_mr", " max_mr %u", q->max_mr);
	print_u64(PRINT_ANY, "max_mr_size", " max_mr_size 0x%llx", q->max_mr_size);
	print_uint(PRINT_ANY, "max_pd", " max_pd %u", q->max_pd);
	print_uint(PRINT_ANY, "max_srq", " max_srq %u", q->max_srq);
	print_uint(PRINT_ANY, "max_fast_reg_page_list_len", " max_fast_reg_page_list_len %u\n",
		   q->max_fast_reg_page_list_len);
	print_uint(PRINT_ANY, "max_qp_rd_atom", "    max_qp_rd_atom %u", q->max_qp_rd_atom);
	print_uint(PRINT_ANY, "max_qp_init_rd_atom", " max_qp_init_rd_atom %u",
		   q->max_qp_init_rd_atom);
	print_uint(PRINT_ANY, "max_pkeys", " max_pkeys %u", q->max_pkeys);
	print_uint(PRINT_ANY, "local_ca_ack_delay", " local_ca_ack_delay %u\n",
		   q->local_ca_ack_delay);
	print_uint(PRINT_JSON, "port_count", NULL, q->port_count);
	open_array("ports");
	for (i = 0; i < q->port_count; i++)
		show_port(&ports[i]);
	close_array();
	close_record();
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
	show(&q, ports);
	free(ports);
	return 0;
}

static int dev_show(int argc, char **argv)
{
	int ctl, ret = EXIT_OK, r;
	unsigned int n, i;
	struct rdmachan_dev_entry *e;

	if (cmd_help_asked(argc, argv)) {
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
	open_list();
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
	close_list();
	return ret;
}

static int dev_help_cmd(int argc, char **argv)
{
	(void)argc;
	(void)argv;
	dev_help();
	return EXIT_OK;
}

const struct cmd dev_cmds[] = {
	{ "show", dev_show },
	{ "list", dev_list },
	{ "help", dev_help_cmd },
	CMD_END
};

int obj_dev(int argc, char **argv)
{
	return cmd_run("dev", dev_cmds, argc, argv);
}
