// SPDX-License-Identifier: GPL-2.0-only
/*
 * rdmachan_net: the network channel's tracepoints, made from net_trace.h
 */
#define CREATE_TRACE_POINTS
#include "net_trace.h"
