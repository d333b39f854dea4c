/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * rdmachan: the in-kernel benchmark behind RDMACHAN_IOC_BENCH
 */
#ifndef RDMACHAN_BENCH_H
#define RDMACHAN_BENCH_H

#include <linux/compiler.h>

#include <linux/types.h>

struct rdmachan;
struct rdmachan_bench;

long rdmachan_bench_run(struct rdmachan *ch, struct rdmachan_bench *b);
int rdmachan_bench_rdma(struct rdmachan *ch, struct rdmachan_bench *b);

#endif /* RDMACHAN_BENCH_H */
