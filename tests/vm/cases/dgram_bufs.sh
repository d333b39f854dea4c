#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
#
# A datagram endpoint's buffers follow use (dgram_buf.c): with
# shrink_idle_ms 0 an idle endpoint keeps a buffer for each of its depth;
# at 300 it gives them back but a full batch's, its reader seeing none of
# the retire datagrams it sends itself, and its memory falls; a full
# batch then arrives whole; a flood at a stopped reader grows it back to
# its depth, every buffer holding a datagram, which the reader then reads,
# each datagram once (UD keeps no order), its bytes checked; idle again,
# it shrinks again, and the
# sender frees its send pages; an empty datagram with the retire
# immediate from a peer is delivered and takes no buffer (dgram_test).

# Over rxe (siw has no datagrams: the dgram case checks the refusal)
requires() {
	_have_rdma rxe
}

. /tests/lib.sh

check "rxe pair comes up" rxe_pair_up
check "rdmachan loads" rdmachan_load
run_checks $HELPERS/dgram_test
check "no endpoint holds the module: rdmachan unloads" rdmachan_unload
done_testing
