#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
#
# The rdmachan tool against the real module: version, help, exit codes
# and error messages.

# Debian's kernel only: argument parsing and output; the kernel paths
# behind them run on the debug kernel in bad_input, fuzz and chan_basic
requires() {
	_have_kernel stock 6.12
}

. /tests/lib.sh

check_fail "without the module the tool says why" "cannot open /dev/rdmachan: No such file or directory \(is rdmachan.ko loaded\?\)" $TOOL dev show
check "rxe pair comes up" rxe_pair_up
check "rdmachan loads" rdmachan_load
check "version reports module ABI 1" sh -c "$TOOL version | grep -q 'module ABI 1'"
check "version -j reports features and devices" sh -c \
	"$TOOL -j version | jq -e '.module_abi == 1 and .device_count == 2 and (.features | index(\"dev_list\")) and (.features | index(\"dev_query\"))'"
check "--help exits 0" $TOOL --help
check "dev help exits 0" $TOOL dev help
check "dev show --help exits 0" $TOOL dev show --help
$TOOL bogus >/dev/null 2>&1
check_eq "an unknown object exits 2" 2 "$?"
$TOOL dev bogus >/dev/null 2>&1
check_eq "an unknown command exits 2" 2 "$?"
$TOOL --bogus dev show >/dev/null 2>&1
check_eq "an unknown option exits 2" 2 "$?"
check "help exits 0" $TOOL help
check "chan help exits 0" $TOOL chan help
check "a unique prefix names an object and a command (d sh)" sh -c "$TOOL d sh | grep -q '^[0-9]*: rxe0:'"
check "an object without a command shows (dev)" sh -c "$TOOL -j dev | jq -e 'length == 2'"
check "an object without a command shows (ch)" sh -c "$TOOL -j ch | jq -e 'type == \"array\"'"
$TOOL chan s >/dev/null 2>&1
check_eq "an ambiguous prefix exits 2 (chan s: send, show)" 2 "$?"
check_fail "an old top-level command names its new one" "rdmachan chan listen" $TOOL listen 192.0.2.1
$TOOL mr >/dev/null 2>&1
check_eq "an object without show needs a command (mr)" 2 "$?"
$TOOL dev show nosuch0 >/dev/null 2>&1
check_eq "an unknown device exits 1" 1 "$?"
$TOOL dev show "$(printf 'x%.0s' $(seq 70))" >/dev/null 2>&1
check_eq "a name longer than 63 bytes is a usage error" 2 "$?"
check_eq "dev list -j names both devices" "rxe0 rxe1" "$(rdmachan_devices)"
check "pretty JSON parses" sh -c "$TOOL -j -p dev show | jq -e 'length == 2'"
check_fail "a non-root user is refused with a hint" "Permission denied" \
	$HELPERS/ioctl_abuse run-as 65534 $TOOL dev show
done_testing
