#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
#
# "rdmachan dev show" lists rxe0 and rxe1 with the attributes ibv_devinfo
# (libibverbs through /dev/infiniband/uverbs*, a path independent of ours)
# reports for the same devices in the same VM.

# Debian's kernel only: what the attributes say; the device ioctls behind
# them run on the debug kernel in bad_input, fuzz and hotplug
requires() {
	_have_kernel stock
}

. /tests/lib.sh

# ibv DEV KEY: the value ibv_devinfo -v prints for KEY (first match)
ibv() {
	/usr/bin/ibv_devinfo -v -d "$1" |
		awk -v k="$2" '{ key = $1; sub(/:$/, "", key) }
			key == k { sub(/^[ \t]*[^ \t]+[ \t]+/, ""); print; exit }'
}

# num VALUE: decimal of a decimal or 0x-hex value, "VALUE (N)" -> N
num() {
	case "$1" in
	*\(*\)) _v=${1##*(}; echo "${_v%)}" ;;
	0x*|0X*) echo $(($1)) ;;
	*) echo "$1" ;;
	esac
}

check "rxe pair comes up" rxe_pair_up
check "rdmachan loads" rdmachan_load
check_eq "dev list names both devices" "rxe0 rxe1" "$(rdmachan_devices)"
check "dev show prints both devices" sh -c "$TOOL dev show | grep -q '^[0-9]*: rxe0:' && $TOOL dev show | grep -q '^[0-9]*: rxe1:'"
check "dev show -j is valid JSON with two devices" sh -c "$TOOL -j dev show | jq -e 'length == 2'"

for dev in rxe0 rxe1; do
	j=$($TOOL -j dev show $dev)
	jget() { printf '%s' "$j" | jq -r ".[0].$1"; }
	check_eq "$dev: name" "$dev" "$(jget name)"
	check_eq "$dev: node_guid matches ibv_devinfo" "$(ibv $dev node_guid)" "$(jget node_guid)"
	check_eq "$dev: sys_image_guid matches ibv_devinfo" "$(ibv $dev sys_image_guid)" "$(jget sys_image_guid)"
	check_eq "$dev: fw_ver matches ibv_devinfo" "$(ibv $dev fw_ver)" "$(jget fw_ver)"
	check_eq "$dev: atomic_cap matches ibv_devinfo" "$(num "$(ibv $dev atomic_cap)")" \
		"$(jget atomic_cap | sed 's/^none$/0/; s/^hca$/1/; s/^glob$/2/')"
	for k in vendor_id vendor_part_id hw_ver max_qp max_qp_wr max_sge_rd \
		 max_cq max_cqe max_mr max_pd max_qp_rd_atom max_qp_init_rd_atom \
		 max_srq max_pkeys local_ca_ack_delay page_size_cap; do
		check_eq "$dev: $k matches ibv_devinfo" "$(num "$(ibv $dev $k)")" "$(jget $k)"
	done
	check_eq "$dev: max_send_sge matches ibv_devinfo max_sge" "$(ibv $dev max_sge)" "$(jget max_send_sge)"
	check_eq "$dev: port count matches phys_port_cnt" "$(ibv $dev phys_port_cnt)" "$(jget port_count)"
	check_eq "$dev: port state matches" "$(num "$(ibv $dev state)")" "$(jget 'ports[0].state_num')"
	check_eq "$dev: port state is ACTIVE" "ACTIVE" "$(jget 'ports[0].state')"
	check_eq "$dev: physical state matches" "$(num "$(ibv $dev phys_state)")" "$(jget 'ports[0].physical_state_num')"
	check_eq "$dev: max_mtu matches" "$(ibv $dev max_mtu | cut -d' ' -f1)" "$(jget 'ports[0].max_mtu')"
	check_eq "$dev: active_mtu matches" "$(ibv $dev active_mtu | cut -d' ' -f1)" "$(jget 'ports[0].active_mtu')"
	check_eq "$dev: link_layer matches" "$(ibv $dev link_layer)" "$(jget 'ports[0].link_layer')"
	check_eq "$dev: protocol is roce" "roce" "$(jget 'ports[0].protocol')"
	check_eq "$dev: gid_tbl_len matches" "$(ibv $dev gid_tbl_len)" "$(jget 'ports[0].gid_tbl_len')"
	check_eq "$dev: port_cap_flags matches" "$(num "$(ibv $dev port_cap_flags)")" "$(jget 'ports[0].port_cap_flags')"
	check_eq "$dev: lid matches" "$(ibv $dev port_lid)" "$(jget 'ports[0].lid')"
	check_eq "$dev: sm_lid matches" "$(ibv $dev sm_lid)" "$(jget 'ports[0].sm_lid')"
	check_eq "$dev: active_width matches" "$(num "$(ibv $dev active_width)")" "$(jget 'ports[0].active_width_num')"
	check_eq "$dev: active_speed matches" "$(num "$(ibv $dev active_speed)")" "$(jget 'ports[0].active_speed_num')"
	# rxe builds GID 0 from the MAC's EUI-64, which is also its node GUID.
	check_eq "$dev: GID 0 is the link-local GID of the node GUID" \
		"fe80:0000:0000:0000:$(ibv $dev node_guid)" "$(jget 'ports[0].gid')"
	ibv_gid=$(ibv $dev 'GID[' | sed 's/,.*//')
	check "$dev: ibv_devinfo shows the same GID 0 ($ibv_gid)" sh -c \
		"/usr/bin/ibv_devinfo -v -d $dev | grep -q 'GID\[  0\]:.*fe80::'"
done
check "dev show rxe0 text names its port" sh -c "$TOOL dev show rxe0 | grep -q 'port 1: state ACTIVE'"
check_fail "dev show of an unknown device fails with ENODEV" "rdmachan: nosuch0: No such device" $TOOL dev show nosuch0
done_testing
