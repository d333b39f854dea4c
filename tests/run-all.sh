#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# run-all.sh [CASE...]: every test of rdmachan, ending with the line
# "N passed, N failed".  Exit status 0 only when nothing failed.
# run-all.sh --list: which VM case runs where (KERNEL/RDMA CASE a line),
# this tier's and the debug tier's (make check-debug), without running
# anything.
#
#   1. static checks: W=1 -Werror build, sparse (C=2), checkpatch --strict,
#      make install/uninstall (tests/install-test.sh), the bash completion
#      (tests/completion-test.sh), the man pages (tests/man-test.sh); DKMS
#      builds for
#      Debian's kernels (tests/dkms-test.sh) beside step 3
#   2. host unit tests of the rdmachan tool
#   3. the VM cases in tests/vm/cases (or only the CASEs named) whose
#      requires() lets them run on Debian's kernel (tests/lib-host.sh),
#      each in a freshly booted VM with the rxe-on-veth fixture,
#      RDMACHAN_JOBS VMs at once (default 2; lib-host.sh, run_jobs).
#      Without CASEs, the cases whose requires() names 6.12 run on
#      Debian's 6.12 too (as vm-6.12/CASE), after the others, with the
#      modules built for it (W=1 and sparse, counted as static-6.12)
#      beside the first VMs; RDMACHAN_SECOND_KERNEL=0 leaves it out.
#      With CASEs, the kernel is KVER's (scripts/kver.sh), the modules the
#      checkout's: "make KVER=6.12.117+deb12-amd64 all" first, and any
#      case of either Debian kernel runs on 6.12.
#   4. without CASEs and with RDMACHAN_DEBUG_TIER=1 only (make check
#      leaves it out: make check-debug runs it alone): the debug tier,
#      tests/run-debug.sh (the VM cases again on the debug kernel with
#      KASAN, lockdep, kmemleak, and those that need it, KUnit among
#      them; builds that kernel first when it is not cached).  A debug
#      kernel not yet cached is built beside steps 1 to 3, at the lowest
#      priority (nice 19): the VMs of step 3 are idle most of the time,
#      and take the CPU when they are not.
#
# Expects "make all" to have run (make check does it).  Logs of each VM
# case are kept in tests/vm/out/<case>/.
set -uo pipefail

TOP=$(cd "$(dirname "$0")/.." && pwd)
cd "$TOP" || exit 1
OUT=$TOP/tests/vm/out
mkdir -p "$OUT"
# shellcheck source=tests/lib-host.sh
. "$TOP/tests/lib-host.sh"

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
	# the layer rule of Documentation/architecture.rst, on the objects
	# just built
	if scripts/layers.sh > "$log/layers.log" 2>&1; then
		pass "static: rdmachan.ko's layers and the API's users keep their rule"
	else
		fail "static: rdmachan.ko's layers and the API's users keep their rule"
		grep '^layers.sh:' "$log/layers.log" | head -n 20
	fi
	# make install and uninstall in scratch DESTDIRs (tests/install-test.sh)
	tests/install-test.sh > "$log/install.tap" 2>&1
	count_tap "static/install" "$log/install.tap" ||
		fail "static/install: install-test.sh ran to its plan"
	# the bash completion, driven as bash does (tests/completion-test.sh)
	make -s tool > /dev/null 2>&1
	tests/completion-test.sh > "$log/completion.tap" 2>&1
	count_tap "static/completion" "$log/completion.tap" ||
		fail "static/completion: completion-test.sh ran to its plan"
	# the man pages, rendered and against the tool (tests/man-test.sh)
	tests/man-test.sh > "$log/man.tap" 2>&1
	count_tap "static/man" "$log/man.tap" ||
		fail "static/man: man-test.sh ran to its plan"
}

# second_start: build the modules for Debian's 6.12 (KVER2) in
# $OUT/6.12/modules, outside the checkout, with W=1 and sparse, then its
# initramfs; in the background at nice 10, beside the stock tier's first
# VMs (its cases run last); $OUT/6.12/done holds the exit status (1: the
# modules did not build, 2: the initramfs did not) when it is over
second_start() {
	rm -rf "$OUT/6.12"
	mkdir -p "$OUT/6.12/modules"
	(
		rc=0
		nice -n 10 tests/kernel/build-modules.sh --no-kunit --sparse \
			"/lib/modules/$KVER2/build" "$OUT/6.12/modules" \
			> "$OUT/6.12/build.out" 2>&1 || rc=1
		[ "$rc" != 0 ] || RDMACHAN_KOS=$OUT/6.12/modules nice -n 10 \
			tests/vm/build-initramfs.sh "$KVER2" "$INITRD2" \
			> "$OUT/6.12/initramfs.log" 2>&1 || rc=2
		echo "$rc" > "$OUT/6.12/done"
	) &
	SECOND_JOB=$!
}

# dkms_start: tests/dkms-test.sh for Debian's kernels (KVER, KVER2 when
# it is tested), in the background at nice 10 beside the stock tier's
# VMs; dkms_report counts its results once it is over, as static/dkms
dkms_start() {
	if ! command -v dkms > /dev/null; then
		fail "static/dkms: dkms is installed (make deps)"
		return
	fi
	# shellcheck disable=SC2086 # KVER2 is one word or none
	nice -n 10 tests/dkms-test.sh "$KVER" ${INITRD2:+$KVER2} \
		> "$OUT/static/dkms.tap" 2>&1 &
	DKMS_JOB=$!
}

dkms_report() {
	wait "$DKMS_JOB"
	count_tap "static/dkms" "$OUT/static/dkms.tap" ||
		fail "static/dkms: dkms-test.sh ran to its plan"
}

# second_report: second_start's build, once it is over, as static-6.12
second_report() {
	local rc
	wait "$SECOND_JOB"
	rc=$(cat "$OUT/6.12/done" 2>/dev/null || echo 1)
	if [ "$rc" = 1 ]; then
		fail "static-6.12: modules build against $KVER2"
		tail -n 30 "$OUT/6.12/build.out"
		return
	fi
	pass "static-6.12: modules build against $KVER2"
	if [ -s "$OUT/6.12/modules/warnings.log" ]; then
		fail "static-6.12: W=1 and sparse (C=2) report nothing"
		head -n 30 "$OUT/6.12/modules/warnings.log"
	else
		pass "static-6.12: W=1 and sparse (C=2) report nothing"
	fi
	if [ "$rc" = 2 ]; then
		fail "vm-6.12: initramfs builds"
		tail -n 20 "$OUT/6.12/initramfs.log"
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

# vm_case [6.12:]CASE: CASE in its VM(s), on Debian's 6.1 (or the
# kernel of KVER), or with "6.12:" on Debian's 6.12, as vm-6.12/CASE
vm_case() {
	local c=${1#6.12:} rc
	local dir=$OUT/$c name=vm/$c initrd=$INITRD kver=$KVER
	if [ "$1" != "$c" ]; then
		dir=$OUT/6.12/$c
		name=vm-6.12/$c
		initrd=$INITRD2
		kver=$KVER2
		# second_start's build, as long as it runs
		while [ ! -e "$OUT/6.12/done" ] &&
		      kill -0 "$SECOND_JOB" 2>/dev/null; do
			sleep 2
		done
		if [ ! -f "$initrd" ]; then
			fail "$name: runs (no 6.12 initramfs: see static-6.12)"
			return
		fi
	fi
	mkdir -p "$dir"
	if case_two_hosts "$c"; then
		"$TOP/tests/vm/run-pair.sh" --initrd "$initrd" --kver "$kver" \
			--out "$dir" --timeout "${RDMACHAN_VM_TIMEOUT:-300}" \
			--cases "$c" > "$dir/run.log" 2>&1
		pair_report "$name" "$dir" "$?" "$c"
		return
	fi
	"$TOP/tests/vm/run-vm.sh" --initrd "$initrd" --kver "$kver" \
		--out "$dir" --timeout "${RDMACHAN_VM_TIMEOUT:-300}" \
		--cases "$c" > "$dir/run.log" 2>&1
	rc=$?
	vm_report "$name" "$dir" "$rc" "$c"
}

# debug_tier: tests/run-debug.sh, its results counted with ours
debug_tier() {
	local line tail=0 base=${#FAILED_NAMES[@]} k=-1
	while IFS= read -r line; do
		case "$line" in
		"ok - "*) pass "${line#ok - }" ;;
		"not ok - "*) fail "${line#not ok - }" ;;
		# its own kernel reports, list of failures and totals: ours
		# follow, with its reports and its failures' diagnostics
		"Kernel reports:") tail=2 ;;
		"Failed:") tail=1 ;;
		*" passed, "*" failed") ;;
		*)
			case "$tail:$line" in
			0:*) echo "$line" ;;
			1:"    #"*) fail_diag "${line#    }" $((base + k)) ;;
			1:"  "*) k=$((k + 1)) ;;
			2:?*) KREPORTS+=("$line") ;;
			esac
			;;
		esac
	done < <(tests/run-debug.sh 2>&1)
}

# the kernel a run without CASEs tests second (KVER2), if any
KVER2=
if [ "${RDMACHAN_SECOND_KERNEL:-1}" != 0 ]; then
	KVER2=$(scripts/kver.sh --series 6.12 2>/dev/null) || KVER2=
fi

if [ "${1:-}" = --list ]; then
	vm_cases stock rxe | sed 's|^|stock/rxe |'
	[ -z "$KVER2" ] || vm_cases 6.12 rxe | sed 's|^|6.12/rxe |'
	tests/run-debug.sh --list
	exit 0
fi

DEBUG_TIER=0
TK_JOB=
if [ $# -eq 0 ] && [ "${RDMACHAN_DEBUG_TIER:-0}" != 0 ] &&
   ! scripts/test-kernel.sh --print-dir >/dev/null 2>&1; then
	echo "# building the debug test kernel beside the stock tier (nice 19; $OUT/test-kernel-bg.log)"
	TK_T0=$SECONDS
	nice -n 19 scripts/test-kernel.sh > "$OUT/test-kernel-bg.log" 2>&1 &
	TK_JOB=$!
fi
KVER=$(scripts/kver.sh)
INITRD=$OUT/initramfs-$KVER.cpio
INITRD2=
SECOND_JOB=
DKMS_JOB=
if [ $# -eq 0 ]; then
	static_checks
	CASES=$(vm_cases stock rxe)
	if [ "${RDMACHAN_SECOND_KERNEL:-1}" = 0 ]; then
		:
	elif [ -z "$KVER2" ] || [ ! -d "/lib/modules/$KVER2/build" ]; then
		fail "static-6.12: Debian's 6.12 kernel and its headers are installed (make deps)"
	else
		INITRD2=$OUT/6.12/initramfs.cpio
		second_start
		CASES="$CASES $(vm_cases 6.12 rxe | sed 's/^/6.12:/')"
	fi
	dkms_start
	unit_tests
	DEBUG_TIER=${RDMACHAN_DEBUG_TIER:-0}
else
	# KVER's kernel: 6.12 runs a case of either Debian kernel
	WORD=stock
	case "$KVER" in 6.12.*) WORD=6.12 ;; esac
	CASES=
	for c in "$@"; do
		if [ "$WORD" = 6.12 ] && [ -z "$(case_skips "$c" stock rxe)" ]; then
			CASES="$CASES $c"
		elif case_named "vm/$c" "$c" "$WORD" rxe; then
			CASES="$CASES $c"
		fi
	done
fi

if [ -z "$CASES" ]; then
	:
elif tests/vm/build-initramfs.sh "$KVER" "$INITRD" > "$OUT/initramfs.log" 2>&1; then
	# one-VM cases JOBS at a time (lib-host.sh, run_jobs), then the
	# two-VM ones alone, their two VMs the only ones running
	ONE=()
	TWO=()
	for c in $CASES; do
		if case_two_hosts "${c#6.12:}"; then
			TWO+=("$c")
		else
			ONE+=("$c")
		fi
	done
	run_jobs vm_case "${ONE[@]}"
	for c in "${TWO[@]}"; do
		vm_case "$c"
	done
else
	fail "vm: initramfs builds"
	tail -n 20 "$OUT/initramfs.log"
fi
[ -z "$SECOND_JOB" ] || second_report
[ -z "$DKMS_JOB" ] || dkms_report
if [ -n "$TK_JOB" ]; then
	# run-debug.sh finds it built, or builds what is left and reports
	# the failure with its log
	wait "$TK_JOB"
	echo "# the debug test kernel's build (exit $?) ended $((SECONDS - TK_T0)) s after it began"
fi
[ "$DEBUG_TIER" = 0 ] || debug_tier

summary
