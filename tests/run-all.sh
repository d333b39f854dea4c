#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# run-all.sh [CASE...]: every test of rdmachan, ending with the line
# "N passed, N failed".  Exit status 0 only when nothing failed.
#
#   1. static checks: W=1 -Werror build, sparse (C=2), checkpatch --strict
#   2. host unit tests of the rdmachan tool
#   3. the VM cases in tests/vm/cases (or only the CASEs named), each in a
#      freshly booted VM with the rxe-on-veth fixture
#   4. without CASEs: the debug tier, tests/run-debug.sh (KUnit and every
#      VM case again on the debug kernel with KASAN, lockdep, kmemleak;
#      builds that kernel first when it is not cached).
#      RDMACHAN_DEBUG_TIER=0 leaves it out.
#
# Expects "make all" to have run (make check does it).  Logs of each VM
# case are kept in tests/vm/out/<case>/.
set -uo pipefail

TOP=$(cd "$(dirname "$0")/.." && pwd)
cd "$TOP"
OUT=$TOP/tests/vm/out
mkdir -p "$OUT"
PASSED=0
FAILED=0
FAILED_NAMES=()

pass() { PASSED=$((PASSED + 1)); echo "ok - $1"; }
fail() { FAILED=$((FAILED + 1)); FAILED_NAMES+=("$1"); echo "not ok - $1"; }

# count_tap NAME FILE: count "ok"/"not ok" lines of a TAP/KTAP file,
# printing them prefixed with NAME; returns 1 if the plan is missing or
# does not match the number of results.
count_tap() {
	local name=$1 file=$2 n=0 plan=
	while IFS= read -r line; do
		line=${line%$'\r'}
		case "$line" in
		"ok "*) pass "$name: ${line#ok }"; n=$((n + 1)) ;;
		"not ok "*) fail "$name: ${line#not ok }"; n=$((n + 1)) ;;
		"1.."*) plan=${line#1..} ;;
		esac
	done < "$file"
	[ -n "$plan" ] && [ "$plan" = "$n" ]
}

static_checks() {
	local log=$OUT/static
	mkdir -p "$log"
	if make -s modules > "$log/build.log" 2>&1; then
		pass "static: module builds with W=1 -Werror"
	else
		fail "static: module builds with W=1 -Werror"
		tail -n 30 "$log/build.log"
	fi
	if make sparse > "$log/sparse.log" 2>&1 &&
	   ! grep -E '(warning|error):' "$log/sparse.log"; then
		pass "static: sparse (C=2) reports nothing"
	else
		fail "static: sparse (C=2) reports nothing"
		tail -n 30 "$log/sparse.log"
	fi
	if make -s checkpatch > "$log/checkpatch.log" 2>&1; then
		pass "static: checkpatch --strict is clean on module/ and uapi/"
	else
		fail "static: checkpatch --strict is clean on module/ and uapi/"
		tail -n 40 "$log/checkpatch.log"
	fi
}

unit_tests() {
	local log=$OUT/unit.tap
	make -s -C userspace-tool test > "$log" 2>&1
	local rc=$?
	if ! count_tap "unit" "$log" || [ "$rc" != 0 ]; then
		fail "unit: the tool's unit tests ran to completion (exit $rc)"
		grep -a '^#' "$log" | head -n 40
	fi
}

vm_case() {
	local c=$1 dir=$OUT/$1
	mkdir -p "$dir"
	"$TOP/tests/vm/run-vm.sh" --initrd "$INITRD" --kver "$KVER" \
		--out "$dir" --timeout "${RDMACHAN_VM_TIMEOUT:-300}" \
		--cases "$c" > "$dir/run.log" 2>&1
	local rc=$?
	local before=$FAILED
	if ! count_tap "vm/$c" "$dir/results.ktap"; then
		fail "vm/$c: case ran to completion (qemu exit $rc; plan missing or short)"
	fi
	local bad
	bad=$(grep -aE 'Kernel panic|BUG:|WARNING:|Oops|general protection|hung_task|blocked for more than|KASAN:|UBSAN:' "$dir/console.log")
	if [ -n "$bad" ]; then
		fail "vm/$c: console shows no kernel error"
		echo "$bad" | head -n 20 | sed 's/^/    /'
	fi
	if [ "$FAILED" != "$before" ]; then
		grep -a '^#' "$dir/results.ktap" | head -n 60 | sed 's/^/    /'
		echo "    --- console tail ($dir/console.log)"
		tail -n 40 "$dir/console.log" | sed 's/^/    /'
	fi
}

# debug_tier: tests/run-debug.sh, its results counted with ours
debug_tier() {
	local line tail=0
	while IFS= read -r line; do
		case "$line" in
		"ok - "*) pass "${line#ok - }" ;;
		"not ok - "*) fail "${line#not ok - }" ;;
		# its own list of failures and totals: ours follow
		"Failed:") tail=1 ;;
		*" passed, "*" failed") ;;
		*) [ "$tail" = 1 ] || echo "$line" ;;
		esac
	done < <(tests/run-debug.sh 2>&1)
}

DEBUG_TIER=0
if [ $# -eq 0 ]; then
	static_checks
	unit_tests
	CASES=$(cd tests/vm/cases && ls ./*.sh | sed 's|^\./||; s|\.sh$||' | grep -v '^demo$')
	DEBUG_TIER=${RDMACHAN_DEBUG_TIER:-1}
else
	CASES="$*"
fi

KVER=$(scripts/kver.sh)
INITRD=$OUT/initramfs-$KVER.cpio
if tests/vm/build-initramfs.sh "$KVER" "$INITRD" > "$OUT/initramfs.log" 2>&1; then
	for c in $CASES; do
		vm_case "$c"
	done
else
	fail "vm: initramfs builds"
	tail -n 20 "$OUT/initramfs.log"
fi
[ "$DEBUG_TIER" = 0 ] || debug_tier

if [ "${#FAILED_NAMES[@]}" -gt 0 ]; then
	echo
	echo "Failed:"
	printf '  %s\n' "${FAILED_NAMES[@]}"
fi
echo
echo "$PASSED passed, $FAILED failed"
[ "$FAILED" = 0 ]
