#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
#
# Debug tier (guest side), run before a case: forget what kmemleak
# suspects from boot, so that kmemleak_check.sh after the case reports
# only what the case leaked.
. /tests/lib.sh

KMEMLEAK=/sys/kernel/debug/kmemleak

check "kmemleak is enabled" test -w $KMEMLEAK
check "kmemleak: boot-time suspects scanned and cleared" \
	sh -c "echo scan > $KMEMLEAK && echo clear > $KMEMLEAK"
echo "1..$T_N" >&3
