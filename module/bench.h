/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * rdmachan: the in-kernel benchmark behind RDMACHAN_IOC_BENCH
 */
#ifndef RDMACHAN_BENCH_H
#define RDMACHAN_BENCH_H

#include <linux/compiler.h>

struct rdmachan;

long rdmachan_ioc_bench(struct rdmachan *ch, void __user *uarg);

#endif /* RDMACHAN_BENCH_H */
