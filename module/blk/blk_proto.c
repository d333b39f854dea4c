// SPDX-License-Identifier: GPL-2.0-only
/*
 * rdmachan_blk: encoding and checking of the block wire protocol
 * (blk_proto.h).  Pure functions, unit-tested by
 * tests/kunit/blk_proto_kunit.c.
 */
#include "blk_proto.h"
