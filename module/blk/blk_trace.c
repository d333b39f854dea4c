// SPDX-License-Identifier: GPL-2.0-only
/*
 * rdmachan_blk: the block channel's tracepoints, made from blk_trace.h
 */
#define CREATE_TRACE_POINTS
#include "blk_trace.h"
