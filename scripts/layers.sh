#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# layers.sh [--dot] [DIR]
#
# The layers of rdmachan.ko, derived from its objects: which file calls
# which (nm: the symbols each object leaves undefined, and the object
# that defines them), checked against the rule of
# Documentation/architecture.rst: a file calls its own layer and the
# layers below it, never one above; bench*.c, dgram_bench.c and rping.c call only
# what rdmachan.ko exports (module/rdmachan.h).  Run it after "make"
# (make layers does both).  Also checks that the API's users (module/blk,
# module/net) include only module/rdmachan.h of rdmachan.ko's headers
# (and module/compat.h, every module's).
#
# Prints the file graph, one "caller -> callee, callee, ..." line per
# file, layer by layer; with --dot, a Graphviz graph instead
# (scripts/layers.sh --dot | dot -Tsvg > layers.svg).  Exits 1, naming
# each offending call, when a rule is broken.
set -euo pipefail

DOT=0
if [ "${1:-}" = --dot ]; then
	DOT=1
	shift
fi
TOP=$(cd "$(dirname "$0")/.." && pwd)
DIR=${1:-$TOP/module/chan}

# The layers, top first.  A file not listed is an error: a new file
# must be given its layer here and in Documentation/architecture.rst.
LAYERS=(
	"module:main"
	"abi:ioctl_ctl ioctl_connect ioctl_listener ioctl_chan ioctl_rdma ioctl_rdma_async ioctl_dev ioctl_check ioctl_rping ioctl_dgram bench bench_rdma bench_lat dgram_bench rping"
	"dgram:dgram dgram_buf dgram_cm dgram_mcast dgram_poll"
	"core:chan_core chan_cm chan_listen chan_qp chan_send chan_zc chan_frag chan_sbuf chan_grant chan_rxbuf chan_recv chan_ctrl chan_poll chan_mr chan_rdma chan_rdma_map chan_event chan_pool chan_post chan_reconnect chan_sysfs chan_trace"
	"device:device device_probe dev_sysfs"
	"base:sysfs uevent hist params proto"
)
# Users of the public API only
API_ONLY="bench bench_rdma bench_lat dgram_bench rping"

declare -A LAYER RANK
rank=0
for entry in "${LAYERS[@]}"; do
	name=${entry%%:*}
	for f in ${entry#*:}; do
		LAYER[$f]=$name
		RANK[$f]=$rank
	done
	rank=$((rank + 1))
done

cd "$DIR"
objs=()
for o in *.o; do
	case $o in
	*.mod.o | rdmachan.o) ;;
	# objects of a source that is gone (a rename) are left out
	*) [ -f "${o%.o}.c" ] && objs+=("${o%.o}") ;;
	esac
done
[ ${#objs[@]} -gt 0 ] || { echo "layers.sh: no objects in $DIR: run make first" >&2; exit 2; }

declare -A DEF
for f in "${objs[@]}"; do
	[ -n "${LAYER[$f]:-}" ] || { echo "layers.sh: $f.c has no layer: add it to LAYERS" >&2; exit 1; }
	while read -r sym; do
		DEF[$sym]=$f
	done < <(nm --defined-only -g "$f.o" | awk '{ print $3 }')
done

# What the module exports: the public API
exported=$(grep -ho 'EXPORT_SYMBOL_GPL([a-z_0-9]*)' ./*.c | sed 's/.*(\(.*\))/\1/' | sort -u)

bad=0
declare -A EDGES
for f in "${objs[@]}"; do
	callees=()
	while read -r sym; do
		g=${DEF[$sym]:-}
		[ -n "$g" ] && [ "$g" != "$f" ] || continue
		callees+=("$g")
		if [ "${RANK[$g]}" -lt "${RANK[$f]}" ]; then
			echo "layers.sh: $f.c (${LAYER[$f]}) calls $sym() of $g.c (${LAYER[$g]}), a layer above it" >&2
			bad=1
		fi
		if [[ " $API_ONLY " == *" $f "* ]] && [[ " $API_ONLY " != *" $g "* ]] &&
		   ! grep -qx "$sym" <<< "$exported"; then
			echo "layers.sh: $f.c calls $sym() of $g.c, which is not in the public API (rdmachan.h)" >&2
			bad=1
		fi
	done < <(nm --undefined-only "$f.o" | awk '{ print $2 }')
	EDGES[$f]=$( (for g in "${callees[@]}"; do echo "$g"; done) | sort -u | xargs)
done

# The users of the API (module/blk, module/net) include, of this
# project, only module/rdmachan.h, module/compat.h (the kernel
# interfaces that changed, every module's: admin guide, "Supported
# kernels") and their own headers: never a private header of
# rdmachan.ko (module/chan/).
API_USERS="blk net"
for d in $API_USERS; do
	for f in "$TOP/module/$d"/*.[ch]; do
		[ -f "$f" ] || continue
		while read -r inc; do
			[ "$inc" = rdmachan.h ] || [ "$inc" = compat.h ] ||
				[ -f "$TOP/module/$d/$inc" ] || {
				echo "layers.sh: module/$d/${f##*/} includes \"$inc\": users of the API include only rdmachan.h and compat.h" >&2
				bad=1
			}
		done < <(sed -n 's/^#include "\(.*\)"/\1/p' "$f")
	done
done

if [ $DOT = 1 ]; then
	echo "digraph rdmachan {"
	echo "	rankdir=TB; node [shape=box, fontname=monospace];"
	for entry in "${LAYERS[@]}"; do
		name=${entry%%:*}
		echo "	subgraph cluster_$name { label=\"$name\";"
		for f in ${entry#*:}; do
			[ -n "${EDGES[$f]+x}" ] && echo "		\"$f.c\";"
		done
		echo "	}"
	done
	for f in "${objs[@]}"; do
		for g in ${EDGES[$f]}; do
			echo "	\"$f.c\" -> \"$g.c\";"
		done
	done
	echo "}"
else
	for entry in "${LAYERS[@]}"; do
		name=${entry%%:*}
		echo "[$name]"
		for f in ${entry#*:}; do
			[ -n "${EDGES[$f]+x}" ] || continue
			out=
			for g in ${EDGES[$f]}; do
				out+="${out:+, }$g.c"
			done
			printf '  %-18s -> %s\n' "$f.c" "${out:-(nothing of rdmachan)}"
		done
	done
fi
exit $bad
