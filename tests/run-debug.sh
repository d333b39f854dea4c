#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# run-debug.sh [CASE...]: the debug tier of rdmachan's tests, on the debug
# test kernel (KASAN, lockdep, atomic-sleep checks, kmemleak, fault
# injection, KUnit), ending with the line "N passed, N failed".  Exit
# status 0 only when nothing failed.
# run-debug.sh --list: which VM case runs where on this tier
# (KERNEL/RDMA CASE a line), without running anything.
#
#   1. scripts/test-kernel.sh builds the debug kernel when it is not
#      cached yet (the first time takes long: see Documentation/testing.rst)
#   2. rdmachan.ko and the KUnit modules are built against it
#      (tests/kernel/build-modules.sh, W=1)
#   3. every VM case of tests/vm/cases whose requires() lets it run on
#      the debug kernel over rxe (tests/lib-host.sh): all of them, kunit
#      and fault_inject, which need this kernel, among them; for kunit
#      the kernel's own kunit.py parse must agree with our count
#      (the raw KTAP stays as kunit.ktap in its VM's directory)
#   4. the cases whose requires() names siw (_have_rdma rxe siw) once
#      more over soft-iWARP instead of rxe, in VMs of their own
#   RDMACHAN_JOBS VMs run at once (default 2; lib-host.sh, run_jobs).
#   Cases share VMs, RDMACHAN_DEBUG_GROUP of them (default 5) a VM, in
#   name order: a VM boots (10 s under TCG) and kmemleak scans (10 s a
#   scan, three a VM) once for all of them, not once for each
#   (Documentation/testing.rst, "The debug tier").  In
#   a VM, kmemleak_clear comes first and kmemleak_check last, so a leak
#   fails too; fixture_reset runs after each case (tests/kernel/cases)
#   and takes down what it left: mounts, modules, null_blk devices, the
#   RDMA devices and veth pairs, the kernel log.  A VM of one case is
#   named after it (debug/CASE, debug/siw-CASE), one of several
#   debug/rxeN or debug/siwN, and its results debug/rxeN/CASE.
#   CASE names a case of tests/vm/cases, or siw-CASE its siw run; a
#   named case whose requires() keeps it off this tier is not run (a
#   line says why).
#
# Output lines as tests/run-all.sh prints them ("ok - ...", "not ok - ...").
# Logs stay in tests/vm/out/debug/.  RDMACHAN_VM_TIMEOUT: seconds each
# guest script may run (default 600: the debug kernel under TCG is
# several times slower) before the guest dumps its tasks and ends the VM
# (tests/vm/init, rdmachan_case_watchdog); the VM's own timeout is that
# and 300 s a case more.  RDMACHAN_REPEAT=N runs the cases N times
# over in their VM (make soak), its timeout N times as long.
set -uo pipefail

TOP=$(cd "$(dirname "$0")/.." && pwd)
cd "$TOP" || exit 1
OUT=$TOP/tests/vm/out/debug
mkdir -p "$OUT"
export RDMACHAN_KERNEL=debug
CASE_TIMEOUT=${RDMACHAN_VM_TIMEOUT:-600}
GROUP=${RDMACHAN_DEBUG_GROUP:-5}
# shellcheck source=tests/lib-host.sh
. "$TOP/tests/lib-host.sh"

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

# vm_run NAME GUEST-SCRIPTS NCASES [APPEND]: boot one VM running the
# comma-separated guest scripts, NCASES of them cases (APPEND: more kernel
# command line); count the results and check the console.
vm_run() {
	local name=$1 scripts=$2 dir=$OUT/$1 rc attempt boot timeout
	mkdir -p "$dir"
	local append="${4:-} rdmachan_case_watchdog=$CASE_TIMEOUT"
	[ "$REPEAT" = 1 ] || append="$append rdmachan_repeat=$REPEAT"
	timeout=$(((CASE_TIMEOUT + 300 * $3) * REPEAT))
	for attempt in 1 2; do
		RDMACHAN_APPEND="${RDMACHAN_APPEND:-} $append" "$TOP/tests/vm/run-vm.sh" --initrd "$INITRD" \
			--kver "$KVER" --out "$dir" --timeout "$timeout" \
			--cases "$scripts" > "$dir/run.log" 2>&1
		rc=$?
		# The debug kernel under TCG has, rarely, reported an error
		# from an early interrupt while identifying the boot CPU: boot
		# once more (once) and say so.  An error after the tests began,
		# or on the second boot, fails as always.
		boot=$(boot_errors "$dir")
		if [ -z "$boot" ] || [ "$attempt" != 1 ]; then
			break
		fi
		echo "# debug/$name: the kernel reported an error while booting, before any test ran; booting again:"
		echo "$boot" | head -n 5 | sed 's/^/#     /'
		cp "$dir/console.log" "$dir/console-first-boot.log"
	done
	vm_report "debug/$name" "$dir" "$rc" "$(repeated "$scripts" | tr , ' ')"
}

# kunit_crosscheck DIR: keep the KTAP that the kunit case copied to the
# console of its VM, in DIR (as the kernel printed it, with a top-level
# header added), in DIR/kunit.ktap, and check that the kernel's own parser,
# tools/testing/kunit/kunit.py parse, counts as many tests as we did and
# sees them all pass.
kunit_crosscheck() {
	local dir=$1 ktap=$1/kunit.ktap ours ran
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

# The runs of this tier, RDMA:CASE, rxe first
if [ $# -eq 0 ] || [ "$1" = --list ]; then
	RUNS=$(vm_cases debug rxe | sed 's/^/rxe:/'; vm_cases debug siw | sed 's/^/siw:/')
else
	RUNS=
	for c in "$@"; do
		rdma=rxe
		case "$c" in
		siw-*) rdma=siw c=${c#siw-} ;;
		esac
		name=$c
		[ "$rdma" = rxe ] || name=siw-$c
		if case_named "debug/$name" "$c" debug "$rdma"; then
			RUNS="$RUNS $rdma:$c"
		fi
	done
fi
# The VMs: NAME:RDMA:CASE,CASE... a line, each of one RDMA driver, as
# few as GROUP cases a VM allows, their sizes at most one apart (21 cases
# in 5 VMs: 5, 4, 4, 4, 4)
vm_groups() {
	local rdma cases n vms k i size
	for rdma in rxe siw; do
		cases=()
		for r in $RUNS; do
			[ "${r%%:*}" != "$rdma" ] || cases+=("${r#*:}")
		done
		n=${#cases[@]}
		[ "$n" != 0 ] || continue
		vms=$(((n + GROUP - 1) / GROUP))
		i=0
		for ((k = 1; k <= vms; k++)); do
			size=$((n / vms + (k <= n % vms ? 1 : 0)))
			local IFS=,
			echo "$rdma$k:$rdma:${cases[*]:i:size}"
			unset IFS
			i=$((i + size))
		done
	done
}

# vm_name NAME RDMA CASES: the name of the VM vm_groups calls NAME, the
# case's own when it has one (CASE, siw-CASE)
vm_name() {
	case "$3" in
	*,*) echo "$1" ;;
	*) [ "$2" = rxe ] && echo "$3" || echo "$2-$3" ;;
	esac
}

if [ "${1:-}" = --list ]; then
	for g in $(vm_groups); do
		IFS=: read -r name rdma cases <<< "$g"
		for c in ${cases//,/ }; do
			echo "debug/$rdma $c (VM $(vm_name "$name" "$rdma" "$cases"))"
		done
	done
	exit 0
fi

# group_vm NAME:RDMA:CASES: the VM of one line of vm_groups, its cases
# between kmemleak_clear and kmemleak_check, fixture_reset after each
group_vm() {
	local name rdma cases append=
	IFS=: read -r name rdma cases <<< "$1"
	name=$(vm_name "$name" "$rdma" "$cases")
	[ "$rdma" = rxe ] || append="rdmachan_rdma=$rdma"
	vm_run "$name" "kmemleak_clear,${cases//,/,fixture_reset,},fixture_reset,kmemleak_check" \
		"$(echo "${cases//,/ }" | wc -w)" "$append"
	case "$rdma:,$cases," in
	rxe:*,kunit,*) kunit_crosscheck "$OUT/$name" ;;
	esac
}

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
		summary
		exit 1
	fi
fi
KVER=$(cat "$TKDIR/kernelrelease")

# 2. Our modules against it (build-initramfs.sh builds them too; built
# here first to report a failure and the warnings as tests of their own).
MODS=$TOP/tests/vm/out/debug-modules
if tests/kernel/build-modules.sh "$TKDIR/build" "$MODS" > "$OUT/modules.log" 2>&1; then
	pass "debug: rdmachan.ko and rdmachan_kunit.ko build against $KVER"
	export RDMACHAN_KOS=$MODS
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
	mapfile -t VMS < <(vm_groups)
	run_jobs group_vm "${VMS[@]}"
else
	fail "debug: initramfs builds"
	tail -n 20 "$OUT/initramfs.log"
fi

summary
