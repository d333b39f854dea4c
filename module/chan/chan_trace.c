// SPDX-License-Identifier: GPL-2.0-only
/*
 * rdmachan: the channel's tracepoints, made from chan_trace.h
 */
#define CREATE_TRACE_POINTS
#include "chan_trace.h"
