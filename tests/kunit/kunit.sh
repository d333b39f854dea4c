#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
#
# Debug tier (guest side, /tests/cases/kunit.sh): load rdmachan_kunit.ko,
# whose KUnit suites run while it loads, and report every test case (every
# parameter of a parameterized one) as one test.  The KTAP comes from the
# kernel log, flattened by /tests/kunit/ktap.awk; it is also copied to the
# console between "rdmachan-kunit-ktap begin/end" lines for the host.
. /tests/lib.sh

KTAP=/tmp/kunit.ktap
FLAT=/tmp/kunit.flat

echo "rdmachan-kunit-ktap mark" > /dev/kmsg
check "rdmachan_kunit loads (its suites run)" "$MODPROBE" rdmachan_kunit
dmesg | sed -n '/rdmachan-kunit-ktap mark/,$p' | sed 's/^\[[^]]*\] \{0,1\}//' > $KTAP
awk -f /tests/kunit/ktap.awk $KTAP > $FLAT

failed=0
grep -q '^not ok ' $FLAT && failed=1
while IFS= read -r line; do
	case "$line" in
	"ok "*) ok "kunit: ${line#ok }" ;;
	"not ok "*) not_ok "kunit: ${line#not ok }" ;;
	"# "*) [ "$failed" = 1 ] && diag "${line#\# }" ;;
	esac
done < $FLAT

# Every suite the module registered (one debugfs directory each) finished.
want=$(for d in /sys/kernel/debug/kunit/rdmachan_*; do
	[ -d "$d" ] && echo "${d##*/}"
done | sort | tr '\n' ' ')
have=$(sed -n 's/^suite //p' $FLAT | sort | tr '\n' ' ')
check "KUnit suites found in debugfs" test -n "$want"
check_eq "every rdmachan KUnit suite reported its result" "$want" "$have"

{
	echo "rdmachan-kunit-ktap begin"
	sed -n '/^ *KTAP version/,$p' $KTAP
	echo "rdmachan-kunit-ktap end"
} > /dev/console
check "rdmachan_kunit unloads" "$RMMOD" rdmachan_kunit
done_testing
