#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# install-test.sh: "make install" and "make uninstall" into scratch
# DESTDIRs, as KTAP.  Expects "make all" to have run.  Checks that the
# default PREFIX (/usr/local) and PREFIX=/usr put exactly the expected
# files in place (modules under /lib/modules/KVER/updates/rdmachan/,
# with this tree's version and the kernel's vermagic; the tool, which
# runs and, without a loaded module, says so; the uapi headers; the
# examples; the udev rules, the sysusers.d group and the systemd unit,
# which systemd-analyze verify accepts where it exists; the man pages,
# rdmachan(8) and one per object of scripts/man-pages.py --list), that
# each installed uapi header
# compiles alone as C and as C++ against the installed include
# directory only, and that "make uninstall" leaves no file, link or
# rdmachan directory behind.
set -uo pipefail

TOP=$(cd "$(dirname "$0")/.." && pwd)
cd "$TOP" || exit 1
KVER=${KVER:-$(scripts/kver.sh)}
VERSION=$(cat VERSION)
WORK=$(mktemp -d /tmp/rdmachan-install.XXXXXX)
trap 'rm -rf "$WORK"' EXIT

# shellcheck source=tests/tap-host.sh
. "$TOP/tests/tap-host.sh"

# expected PREFIX: the files make install must put in a DESTDIR
expected() {
	local m=lib/modules/$KVER/updates/rdmachan p=${1#/}
	{
		printf '%s\n' "$m/rdmachan.ko" "$m/rdmachan_blk.ko" \
			"$m/rdmachan_net.ko" \
			"$p/sbin/rdmachan" \
			"$p/include/linux/rdmachan.h" "$p/include/linux/rdmachan_blk.h" \
			"$p/include/linux/rdmachan_net.h" \
			"$p/include/linux/rdmachan_verbs.h" \
			"$p/share/rdmachan/modules-load.conf" \
			"$p/share/rdmachan/modprobe.conf" \
			"$p/share/bash-completion/completions/rdmachan" \
			"$p/lib/udev/rules.d/60-rdmachan.rules" \
			"$p/lib/sysusers.d/rdmachan.conf" \
			"$p/lib/systemd/system/rdmachan.service" \
			"usr/lib/$(gcc -print-multiarch)/ip/link_rdmachan.so"
		# the man pages, as make man writes them
		scripts/man-pages.py --list "$p/share/man/man8"
	} | sort
}

# files D: every file and link under D, relative, sorted
files() {
	(cd "$1" && find . \( -type f -o -type l \) | sed 's|^\./||' | sort)
}

for prefix in /usr/local /usr; do
	D=$WORK/root${prefix//\//_}
	mkdir -p "$D"
	args=(DESTDIR="$D")
	[ "$prefix" = /usr/local ] || args+=(PREFIX="$prefix")
	make -s install "${args[@]}" > "$WORK/install.log" 2>&1
	ok $? "make install (PREFIX=$prefix) into a scratch DESTDIR" \
		"$(tail -n 3 "$WORK/install.log" | tr '\n' ' ')"
	diff <(expected "$prefix") <(files "$D") > "$WORK/diff" 2>&1
	ok $? "PREFIX=$prefix: exactly the expected files" "$(tr '\n' ' ' < "$WORK/diff")"
	if [ "$prefix" = /usr/local ]; then
		bad=
		for ko in "$D/lib/modules/$KVER/updates/rdmachan/"*.ko; do
			v=$(modinfo -F version "$ko" 2>/dev/null)
			m=$(modinfo -F vermagic "$ko" 2>/dev/null)
			[ "$v" = "$VERSION" ] && [ "${m%% *}" = "$KVER" ] ||
				bad="$bad ${ko##*/}: version '$v' vermagic '$m';"
		done
		[ -z "$bad" ]
		ok $? "each installed module has version $VERSION and vermagic $KVER" "$bad"
		out=$("$D/usr/local/sbin/rdmachan" --version 2>&1)
		[ "$out" = "rdmachan tool $VERSION, ABI $(sed -n 's/^#define RDMACHAN_ABI_VERSION[[:space:]]*//p' uapi/linux/rdmachan.h)" ]
		ok $? "the installed tool runs and says its version ($VERSION)" "$out"
		if [ -e /sys/module/rdmachan ]; then
			ok 0 "the installed tool without a module # SKIP rdmachan is loaded here"
		else
			out=$("$D/usr/local/sbin/rdmachan" version 2>&1)
			rc=$?
			[ "$rc" = 1 ] && [[ "$out" == *"module is not loaded (modprobe rdmachan)"* ]]
			ok $? "the installed tool says plainly that the module is not loaded (exit 1)" \
				"exit $rc: $(echo "$out" | tr '\n' ' ')"
		fi
		grep -qx "ExecStart=/usr/local/sbin/rdmachan config restore" \
			"$D/usr/local/lib/systemd/system/rdmachan.service"
		ok $? "the systemd unit runs the installed tool's config restore"
		if command -v systemd-analyze > /dev/null; then
			systemd-analyze verify --man=no \
				"$D/usr/local/lib/systemd/system/rdmachan.service" \
				> "$WORK/verify.log" 2>&1
			! grep -v -e 'rdma-load-modules@' -e 'rdma-hw.target' -e 'sbin/rdmachan is not executable' \
				"$WORK/verify.log" | grep -q .
			ok $? "systemd-analyze verify finds nothing wrong with the unit" \
				"$(head -n 3 "$WORK/verify.log" | tr '\n' ' ')"
		fi
		for h in "$D/usr/local/include/linux/"rdmachan*.h; do
			name=linux/${h##*/}
			echo "#include <$name>" |
				gcc -x c -std=c99 -fsyntax-only -Wall -Wextra -Werror \
					-I "$D/usr/local/include" - > "$WORK/cc.log" 2>&1
			ok $? "<$name> compiles alone as C99" "$(head -n 2 "$WORK/cc.log" | tr '\n' ' ')"
			echo "#include <$name>" |
				g++ -x c++ -fsyntax-only -Wall -Wextra -Werror \
					-I "$D/usr/local/include" - > "$WORK/cc.log" 2>&1
			ok $? "<$name> compiles alone as C++" "$(head -n 2 "$WORK/cc.log" | tr '\n' ' ')"
		done
	fi
	make -s uninstall "${args[@]}" > "$WORK/uninstall.log" 2>&1
	ok $? "make uninstall (PREFIX=$prefix)" "$(tail -n 3 "$WORK/uninstall.log" | tr '\n' ' ')"
	left=$(files "$D"; cd "$D" && find . -type d -name 'rdmachan*')
	[ -z "$left" ]
	ok $? "PREFIX=$prefix: make uninstall leaves no file, link or rdmachan directory" \
		"$(echo "$left" | tr '\n' ' ')"
done
echo "1..$n"
