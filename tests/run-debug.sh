#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# run-debug.sh [CASE...]: the debug tier of rdmachan's tests, on the debug
# test kernel (KASAN, lockdep, atomic-sleep checks, kmemleak, fault
# injection, KUnit), ending with the line "N passed, N failed".  Exit
# status 0 only when nothing failed.
#
#   1. scripts/test-kernel.sh builds the debug kernel when it is not
#      cached yet (the first time takes long: see Documentation/testing.rst)
#   2. rdmachan.ko and tests/kunit/rdmachan_kunit.ko are built against it
#      (tests/kernel/build-modules.sh, W=1)
#   3. kunit (tests/kunit/kunit.sh): one VM loads rdmachan_kunit.ko;
#      every KUnit test case (every parameter of a parameterized one) is
#      one test; the raw KTAP is kept in tests/vm/out/debug/kunit/kunit.ktap
#   5. the channel cases (chan_basic, chan_faults, chan_bench, tool_chan,
#      rdma_ops, solicited)
#      once more over soft-iWARP (siw) instead of rxe, as debug/siw-CASE;
#      "siw-CASE" names one of them
#   4. fault_inject (tests/kernel/cases/fault_inject.sh: channel setup and
#      teardown under failslab and fail_page_alloc), then the VM cases of
#      tests/vm/cases
#   3 and 4 run each in a fresh VM, between kmemleak_clear and
#   kmemleak_check (tests/kernel/cases), so a leak fails too.  CASE names
#   "kunit" or a case of tests/vm/cases; the default is all of them.
#
# Output lines as tests/run-all.sh prints them ("ok - ...", "not ok - ...").
# Logs stay in tests/vm/out/debug/.  RDMACHAN_VM_TIMEOUT: seconds a VM may
# run (default 1200: the debug kernel under TCG is several times slower).
# RDMACHAN_REPEAT=N runs each case N times over in its one VM (make soak),
# its timeout N times as long.
set -uo pipefail

TOP=$(cd "$(dirname "$0")/.." && pwd)
cd "$TOP" || exit 1
OUT=$TOP/tests/vm/out/debug
mkdir -p "$OUT"
export RDMACHAN_KERNEL=debug
TIMEOUT=$((${RDMACHAN_VM_TIMEOUT:-1200} * ${RDMACHAN_REPEAT:-1}))
PASSED=0
FAILED=0
FAILED_NAMES=()

pass() { PASSED=$((PASSED + 1)); echo "ok - $1"; }
fail() { FAILED=$((FAILED + 1)); FAILED_NAMES+=("$1"); echo "not ok - $1"; }

# count_cases NAME FILE: count the "ok"/"not ok" lines of a VM's results,
# which hold one KTAP block per guest script between "# case X begin" and
# "# case X end" lines; each block must end with its plan.  Results are
# printed as NAME/X (NAME alone for the script named NAME).  Returns 1 if
# a block is missing, unfinished or short.
count_cases() {
	local name=$1 file=$2 want=$3 line seg='' n=0 plan='' rc=0 label seen=''
	while IFS= read -r line; do
		line=${line%$'\r'}
		case "$line" in
		"# case "*" begin")
			seg=${line#\# case }
			seg=${seg% begin}
			n=0
			plan=
			seen="$seen $seg"
			;;
		"# case "*" end"*)
			if [ -z "$plan" ] || [ "$plan" != "$n" ]; then
				fail "$name: $seg ran to completion (plan '${plan:-none}', $n results)"
				rc=1
			fi
			seg=
			;;
		"ok "* | "not ok "*)
			label=$name
			[ "$seg" = "${name##*/}" ] || label="$name/$seg"
			case "$line" in
			"ok "*) pass "$label: ${line#ok }" ;;
			*) fail "$label: ${line#not ok }" ;;
			esac
			n=$((n + 1))
			;;
		"1.."*) plan=${line#1..} ;;
		esac
	done < "$file"
	if [ -n "$seg" ]; then
		fail "$name: $seg ran to completion (the VM stopped in it)"
		rc=1
	fi
	if [ "$seen" != " $want" ]; then
		fail "$name: every guest script ran (ran:${seen:- none}; wanted: $want)"
		rc=1
	fi
	return "$rc"
}

# repeated SCRIPTS: the comma-separated SCRIPTS, RDMACHAN_REPEAT times
# over: what the guest runs with rdmachan_repeat (the soak: make soak)
REPEAT=${RDMACHAN_REPEAT:-1}
repeated() {
	local i out=$1
	for ((i = 1; i < REPEAT; i++)); do
		out="$out,$1"
	done
	echo "$out"
}

# vm_run NAME GUEST-SCRIPTS: boot one VM running the comma-separated
# guest scripts; count the results and check the console.
# Kernel errors the console must not show.
KERNEL_ERRORS='Kernel panic|BUG:|WARNING:|Oops|general protection|hung_task|blocked for more than|KASAN:|UBSAN:|possible circular locking|inconsistent lock state|suspected memory leak'

# boot_errors DIR: kernel errors printed before the guest's first test
# result, i.e. while the debug kernel booted, before rdmachan or any test
# was there.
boot_errors() {
	awk '/^(not )?ok / { exit } { print }' "$1/console.log" |
		grep -aE "$KERNEL_ERRORS"
}

vm_run() {
	local name=$1 scripts=$2 dir=$OUT/$1 rc attempt boot
	mkdir -p "$dir"
	local append=${3:-}
	[ "$REPEAT" = 1 ] || append="$append rdmachan_repeat=$REPEAT"
	for attempt in 1 2; do
		RDMACHAN_APPEND="${RDMACHAN_APPEND:-} $append" "$TOP/tests/vm/run-vm.sh" --initrd "$INITRD" \
			--kver "$KVER" --out "$dir" --timeout "$TIMEOUT" \
			--cases "$scripts" > "$dir/run.log" 2>&1
		rc=$?
		# The debug kernel under TCG has, rarely, reported an error
		# from an early interrupt while identifying the boot CPU: boot
		# once more (once) and say so.  An error after the tests began,
		# or on the second boot, fails as always.
		boot=$(boot_errors "$dir")
		[ -n "$boot" ] && [ "$attempt" = 1 ] || break
		echo "# debug/$name: the kernel reported an error while booting, before any test ran; booting again:"
		echo "$boot" | head -n 5 | sed 's/^/#     /'
		cp "$dir/console.log" "$dir/console-first-boot.log"
	done
	local before=$FAILED
	count_cases "debug/$name" "$dir/results.ktap" "$(repeated "$scripts" | tr , ' ')" ||
		fail "debug/$name: VM ran to completion (qemu exit $rc)"
	local bad
	bad=$(grep -aE "$KERNEL_ERRORS" "$dir/console.log")
	if [ -n "$bad" ]; then
		fail "debug/$name: console shows no kernel error"
		echo "$bad" | head -n 20 | sed 's/^/    /'
	fi
	if [ "$FAILED" != "$before" ]; then
		grep -a '^#' "$dir/results.ktap" | head -n 60 | sed 's/^/    /'
		echo "    --- console tail ($dir/console.log)"
		tail -n 40 "$dir/console.log" | sed 's/^/    /'
	fi
}

# kunit_crosscheck: keep the KTAP that the kunit VM copied to its console
# (as the kernel printed it, with a top-level header added) in
# kunit/kunit.ktap, and check that the kernel's own parser,
# tools/testing/kunit/kunit.py parse, counts as many tests as we did and
# sees them all pass.
kunit_crosscheck() {
	local dir=$OUT/kunit ktap=$OUT/kunit/kunit.ktap ours ran
	local kunitpy=$TKDIR/src/tools/testing/kunit/kunit.py
	tr -d '\r' < "$dir/console.log" |
		sed -n '/^rdmachan-kunit-ktap begin/,/^rdmachan-kunit-ktap end/p' |
		sed '1d;$d' > "$dir/raw.ktap"
	{
		echo "KTAP version 1"
		echo "1..$(grep -cE '^(not )?ok ' "$dir/raw.ktap")"
		cat "$dir/raw.ktap"
	} > "$ktap"
	rm -f "$dir/raw.ktap"
	command -v python3 >/dev/null && [ -f "$kunitpy" ] || return 0
	ours=$(grep -cE '^(not )?ok [0-9]+ - kunit: ' "$dir/results.ktap")
	python3 "$kunitpy" parse "$ktap" > "$dir/kunit-parse.log" 2>&1
	local rc=$?
	ran=$(sed -n 's/.*Testing complete\. Ran \([0-9]*\) tests.*/\1/p' "$dir/kunit-parse.log")
	if [ "$rc" = 0 ] && [ -n "$ran" ] && [ "$ran" = "$ours" ]; then
		pass "debug/kunit: kunit.py parse agrees ($ran tests, all pass)"
	else
		fail "debug/kunit: kunit.py parse agrees ($ours tests here, kunit.py: ${ran:-none}, exit $rc)"
		grep -E 'FAILED|ERROR|CRASHED|Testing complete' "$dir/kunit-parse.log" |
			head -n 20 | sed 's/^/    /'
	fi
}

SIW_CASES=
if [ $# -eq 0 ]; then
	SIW_CASES="chan_basic chan_faults chan_bench tool_chan rdma_ops solicited"
	# shellcheck disable=SC2012 # as tests/run-all.sh lists them
	CASES="kunit fault_inject $(cd tests/vm/cases && ls ./*.sh | sed 's|^\./||; s|\.sh$||' | grep -v '^demo$')"
else
	CASES=
	for c in "$@"; do
		case "$c" in
		siw-*) SIW_CASES="$SIW_CASES ${c#siw-}" ;;
		*) CASES="$CASES $c" ;;
		esac
	done
fi

# 1. The debug kernel.
if TKDIR=$(scripts/test-kernel.sh --print-dir 2>/dev/null); then
	pass "debug: test kernel is built ($TKDIR)"
else
	echo "# building the debug test kernel (scripts/test-kernel.sh); this takes a while"
	if TKDIR=$(scripts/test-kernel.sh 2> "$OUT/test-kernel.log"); then
		pass "debug: test kernel builds ($(tail -n 4 "$OUT/test-kernel.log" | sed -n 's/.*built \(.*\)/\1/p'))"
	else
		fail "debug: test kernel builds"
		tail -n 40 "$OUT/test-kernel.log" | sed 's/^/    /'
		echo
		echo "$PASSED passed, $FAILED failed"
		exit 1
	fi
fi
KVER=$(cat "$TKDIR/kernelrelease")

# 2. Our modules against it (build-initramfs.sh builds them too; built
# here first to report a failure and the warnings as tests of their own).
MODS=$TOP/tests/vm/out/debug-modules
if tests/kernel/build-modules.sh "$TKDIR/build" "$MODS" > "$OUT/modules.log" 2>&1; then
	pass "debug: rdmachan.ko and rdmachan_kunit.ko build against $KVER"
	export RDMACHAN_DEBUG_KOS=$MODS
	if [ -s "$MODS/warnings.log" ]; then
		fail "debug: the module build against $KVER has no warning (W=1)"
		head -n 20 "$MODS/warnings.log" | sed 's/^/    /'
	else
		pass "debug: the module build against $KVER has no warning (W=1)"
	fi
else
	fail "debug: rdmachan.ko and rdmachan_kunit.ko build against $KVER"
	tail -n 30 "$OUT/modules.log" | sed 's/^/    /'
fi

# 3. and 4. The VMs.
INITRD=$OUT/initramfs-$KVER.cpio
if tests/vm/build-initramfs.sh "$KVER" "$INITRD" > "$OUT/initramfs.log" 2>&1; then
	for c in $CASES; do
		vm_run "$c" "kmemleak_clear,$c,kmemleak_check"
	done
	# The channel cases again over soft-iWARP (siw) instead of rxe
	for c in $SIW_CASES; do
		vm_run "siw-$c" "kmemleak_clear,$c,kmemleak_check" rdmachan_rdma=siw
	done
	[ -f "$OUT/kunit/console.log" ] && kunit_crosscheck
else
	fail "debug: initramfs builds"
	tail -n 20 "$OUT/initramfs.log"
fi

if [ "${#FAILED_NAMES[@]}" -gt 0 ]; then
	echo
	echo "Failed:"
	printf '  %s\n' "${FAILED_NAMES[@]}"
fi
echo
echo "$PASSED passed, $FAILED failed"
[ "$FAILED" = 0 ]
