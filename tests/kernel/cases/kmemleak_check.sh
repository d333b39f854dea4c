#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
#
# Debug tier (guest side), run last in a VM, after fixture_reset.sh took
# down what the cases left (our modules among it, so their teardown
# paths are scanned too): let kmemleak scan twice, and fail if it
# suspects any leak.
. /tests/lib.sh

KMEMLEAK=/sys/kernel/debug/kmemleak

# kmemleak does not report objects younger than 5 s.
sleep 6
check "kmemleak scans" sh -c "echo scan > $KMEMLEAK && echo scan > $KMEMLEAK"
leaks=$(cat $KMEMLEAK)
if [ -z "$leaks" ]; then
	ok "kmemleak suspects no leak"
else
	not_ok "kmemleak suspects no leak"
	diag "$(printf '%s\n' "$leaks" | head -n 80)"
fi
done_testing
