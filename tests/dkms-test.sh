#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# dkms-test.sh KVER...: the DKMS source tree (make dkms-source) added to
# and built by dkms in scratch trees (--dkmstree, --sourcetree: nothing
# under /var/lib/dkms or /usr/src is touched, no module is installed),
# once for each KVER, as KTAP.  Checks that the tree holds no tool or
# test source, that dkms builds the three modules for each kernel with
# this tree's version and that kernel's vermagic, and that dkms remove
# takes them out of its tree.  Needs dkms (make deps) and each kernel's
# headers.
set -uo pipefail

TOP=$(cd "$(dirname "$0")/.." && pwd)
cd "$TOP" || exit 1
VERSION=$(cat VERSION)
WORK=$(mktemp -d /tmp/rdmachan-dkms.XXXXXX)
trap 'rm -rf "$WORK"' EXIT
SRC=$WORK/src
TREE=$WORK/dkms
mkdir -p "$SRC" "$TREE"
DKMS=(dkms --dkmstree "$TREE" --sourcetree "$SRC")

# shellcheck source=tests/tap-host.sh
. "$TOP/tests/tap-host.sh"

make -s dkms-source DKMS_SRC="$SRC/rdmachan-$VERSION" > "$WORK/src.log" 2>&1
ok $? "make dkms-source writes the DKMS tree" "$(tail -n 2 "$WORK/src.log" | tr '\n' ' ')"
extra=$(cd "$SRC/rdmachan-$VERSION" && find . -type f | grep -vE \
	'^\./(Kbuild|VERSION|dkms\.conf|module/.*\.[ch]|module/(.*/)?Kbuild|uapi/linux/rdmachan.*\.h)$')
[ -z "$extra" ]
ok $? "the DKMS tree holds the modules' sources only (no tool, no test)" \
	"$(echo "$extra" | head -n 5 | tr '\n' ' ')"
"${DKMS[@]}" add "rdmachan/$VERSION" > "$WORK/add.log" 2>&1
ok $? "dkms add" "$(tail -n 2 "$WORK/add.log" | tr '\n' ' ')"

for kver in "$@"; do
	"${DKMS[@]}" build "rdmachan/$VERSION" -k "$kver" > "$WORK/build.log" 2>&1
	rc=$?
	ok $rc "dkms build for $kver" \
		"$(tail -n 3 "$WORK/build.log" | tr '\n' ' ')"
	[ "$rc" = 0 ] || tail -n 20 "$TREE/rdmachan/$VERSION/build/make.log" 2>/dev/null |
		sed 's/^/# /'
	bad=
	for m in rdmachan rdmachan_blk rdmachan_net; do
		ko=$(find "$TREE/rdmachan/$VERSION/$kver" -name "$m.ko*" 2>/dev/null | head -n 1)
		v=$(modinfo -F version "$ko" 2>/dev/null)
		vm=$(modinfo -F vermagic "$ko" 2>/dev/null)
		[ -n "$ko" ] && [ "$v" = "$VERSION" ] && [ "${vm%% *}" = "$kver" ] ||
			bad="$bad $m: '${ko##*/}' version '$v' vermagic '${vm%% *}';"
	done
	[ -z "$bad" ]
	ok $? "$kver: rdmachan, rdmachan_blk and rdmachan_net built, version $VERSION" "$bad"
	# Debian's dkms signs what it builds with its Machine Owner Key
	# (made when dkms is installed; admin-guide, "Secure Boot")
	if [ -r /var/lib/dkms/mok.pub ] && [ -n "$ko" ]; then
		signer=$(modinfo -F signer "$ko" 2>/dev/null)
		[ -n "$signer" ]
		ok $? "$kver: dkms signed the modules with its key ($signer)"
	fi
done

"${DKMS[@]}" remove "rdmachan/$VERSION" --all > "$WORK/remove.log" 2>&1
ok $? "dkms remove --all" "$(tail -n 2 "$WORK/remove.log" | tr '\n' ' ')"
[ ! -e "$TREE/rdmachan/$VERSION" ]
ok $? "nothing of rdmachan is left in the DKMS tree"
echo "1..$n"
