#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
#
# What an idle channel costs: 1,000 default channel pairs open at once,
# or as many as fit in 90% of the VM's memory (16 on the debug kernel,
# in half of it), each
# carrying checksummed messages both ways; what the channels count (sysfs
# mem_bytes) against what they took out of the machine, the provider's
# queues (vmalloc) sized small; idle again (1 s: shrink_idle_ms), back to
# what they held at the start; every channel gone and the memory back
# after the close.  Then chan_mem_kb=4096: a
# channel's buffers fit 4 MiB, less than the default's.
# The helper is chan_test scale (chan_test_scale.c).

# rxe only: siw's channels cost the same in rdmachan; stock 6.1 and the
# debug kernel (kmemleak sees the close)
requires() {
	_have_rdma rxe
	_have_kernel stock debug
}

. /tests/lib.sh

# scale_value FILE NAME: the figure "RESULT NAME V" in FILE
scale_value() {
	awk -v n="$2" '$2 == n { print $3 }' "$1"
}

check "rxe pair comes up" rxe_pair_up
check "rdmachan loads, idle grants shrinking after 1 s" rdmachan_load shrink_idle_ms=1000
PAIRS=1000
SHARE=90
[ -e /sys/kernel/debug/kmemleak ] && PAIRS=16 SHARE=50
export SCALE_OUT=/tmp/scale-default
run_checks $HELPERS/chan_test scale $PAIRS $SHARE
OWN=$(scale_value $SCALE_OUT scale_own_kib_per_chan)
DEPTH=$(scale_value $SCALE_OUT scale_depth)
PROV=$(scale_value $SCALE_OUT scale_vmalloc_kib_per_chan)

check "chan_mem_kb=4096 is taken" sh -c 'echo 4096 > /sys/module/rdmachan/parameters/chan_mem_kb'
export SCALE_OUT=/tmp/scale-4m
run_checks $HELPERS/chan_test scale 8 50
SMALL=$(scale_value $SCALE_OUT scale_own_kib_per_chan)
SDEPTH=$(scale_value $SCALE_OUT scale_depth)
# the buffers fit 4 MiB; the rings and the structure are the rest
check "with chan_mem_kb=4096 a channel holds at most 4 MiB and 64 KiB" \
	awk -v v="$SMALL" 'BEGIN { exit !(v > 0 && v <= 4096 + 64) }'
check "with chan_mem_kb=4096 a channel may grow to a smaller depth" \
	awk -v a="$SDEPTH" -v b="$DEPTH" 'BEGIN { exit !(a > 0 && a < b) }'
# a new channel grants one credit: four receive buffers and one send
# buffer of 8 KiB (FRAG, both ends from the start), their slots, a send
# ring of 16 KiB and itself
check "a new default channel holds at most 64 KiB of its own" \
	awk -v v="$OWN" 'BEGIN { exit !(v > 0 && v <= 64) }'
# rxe's queues: a send queue of 255 entries of 512 bytes (not 511 of
# 1 KiB), a receive queue and a CQ; KASAN's vmalloc shadow is more
[ -e /sys/kernel/debug/kmemleak ] ||
	check "rxe's queues of a default channel take at most 256 KiB" \
		awk -v v="$PROV" 'BEGIN { exit !(v > 0 && v <= 256) }'
check "chan_mem_kb=65536 is taken" sh -c 'echo 65536 > /sys/module/rdmachan/parameters/chan_mem_kb'
check "rdmachan unloads after the channels closed" rdmachan_unload
done_testing
