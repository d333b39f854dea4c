#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# fuzz.sh (make fuzz): the long runs of the ioctl and syscall fuzzer
# (tests/vm/helpers/fuzz.c, guest script tests/vm/cases/fuzz.sh), which
# make check runs only briefly:
#
#   stock kernel  FUZZ_CALLS calls (default 1000000)
#   debug kernel  FUZZ_SECONDS seconds (default 600) with KASAN, lockdep
#                 and kmemleak, between kmemleak_clear and kmemleak_check
#
# Each run must end with the fuzzer clean, no kernel report, no channel,
# listener, block export or mapping or network interface left, the
# modules (rdmachan, rdmachan_blk, rdmachan_net) unloaded (and no
# kmemleak suspect).  Ends with
# one summary line per run and "N passed, N failed"; exit status 0 only
# when nothing failed.
#
# Environment: FUZZ_SEED (replay a seed; default a fresh one per run),
# FUZZ_PROCS (workers, default 3), FUZZ_ARGS (more fuzzer options, e.g.
# --avoid-known), FUZZ_STOCK=0 / FUZZ_DEBUG=0 (leave a run out; the debug
# run builds the debug kernel first when it is not cached, see
# Documentation/testing.rst).  Logs: tests/vm/out/fuzz/ (stock) and
# tests/vm/out/debug/fuzz/ (debug).
set -uo pipefail

TOP=$(cd "$(dirname "$0")/.." && pwd)
cd "$TOP" || exit 1
CALLS=${FUZZ_CALLS:-1000000}
SECS=${FUZZ_SECONDS:-600}
make -s all >/dev/null || exit 1

# the guest's environment comes from the kernel command line
guest_env() {
	local e="$1"
	[ -n "${FUZZ_SEED:-}" ] && e="$e FUZZ_SEED=$FUZZ_SEED"
	[ -n "${FUZZ_PROCS:-}" ] && e="$e FUZZ_PROCS=$FUZZ_PROCS"
	# one word on the kernel command line: the guest script splits it
	[ -n "${FUZZ_ARGS:-}" ] && e="$e FUZZ_ARGS=${FUZZ_ARGS// /,}"
	echo "$e"
}

# summary NAME DIR: the fuzzer's figures from the VM's results
summary() {
	local line
	line=$(tr -d '\r' < "$2/results.ktap" | sed -n 's/^# \(fuzz: [0-9]* calls.*\)/\1/p' | tail -n 1)
	echo "fuzz $1: ${line:-no figures (see $2/console.log)}"
}

RC=0
SUMMARY=()
if [ "${FUZZ_STOCK:-1}" != 0 ]; then
	# under TCG the stock kernel does a few hundred calls a second or more
	RDMACHAN_APPEND="${RDMACHAN_APPEND:-} $(guest_env "FUZZ_CALLS=$CALLS FUZZ_SECONDS=0")" \
	RDMACHAN_VM_TIMEOUT=${FUZZ_TIMEOUT:-$((900 + CALLS / 100))} \
	RDMACHAN_DEBUG_TIER=0 tests/run-all.sh fuzz || RC=1
	SUMMARY+=("$(summary stock tests/vm/out/fuzz)")
fi
if [ "${FUZZ_DEBUG:-1}" != 0 ]; then
	RDMACHAN_APPEND="${RDMACHAN_APPEND:-} $(guest_env "FUZZ_CALLS=0 FUZZ_SECONDS=$SECS")" \
	RDMACHAN_VM_TIMEOUT=${FUZZ_TIMEOUT:-$((SECS + 900))} \
	tests/run-debug.sh fuzz || RC=1
	SUMMARY+=("$(summary debug tests/vm/out/debug/fuzz)")
fi
echo
printf '%s\n' "${SUMMARY[@]}"
[ "$RC" = 0 ] && echo "fuzz: PASS" || echo "fuzz: FAIL"
exit "$RC"
