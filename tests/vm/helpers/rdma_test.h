/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * rdma_test.h: what rdma_test's files share: the commands (one file per
 * concern: rdma_test_args.c, rdma_test_data.c, rdma_test_proc.c; the
 * table and what they share in rdma_test.c).
 */
#ifndef RDMACHAN_TEST_RDMA_TEST_H
#define RDMACHAN_TEST_RDMA_TEST_H

#include <limits.h>
#include <pthread.h>
#include <signal.h>
#include <stdint.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <sys/wait.h>

#include "chanlib.h"
#include "subcmd.h"

#define SRV_IP	CHAN_SRV_IP
#define CLI_IP	CHAN_CLI_IP

/* enum ib_wc_status: what a refused call reports for every op */
#define WC_WR_FLUSH_ERR	5
/* preset in the ops' outputs, so that an op the kernel left alone shows */
#define STATUS_UNSET	12345

/* the largest transfer of data, and of max_reg()'s tries */
#define DATA_MAX	(4u << 20)

/* ---- rdma_test.c -------------------------------------------------------- */

/* the transport is iWARP ($DEV0 is siw): a WRITE completes when sent */
extern int iwarp;

unsigned int poll_mode_arg(int argc, char **argv);
int pair_open(struct chan_pair *p, unsigned int poll_mode);
int rdma(int fd, struct rdmachan_rdma_op *ops, uint32_t count, uint32_t *done);
int peer_sync(struct chan_pair *p);
void fill(unsigned char *b, size_t n, uint32_t seed);
void *map(size_t len);
int expect_errno(int ret, int err);
void refused_case(const char *what, int fd, struct rdmachan_rdma_op *ops,
		  unsigned int n, int bad, int err, int bad_status,
		  const unsigned char *remote, size_t rlen);
uint64_t max_reg(int fd, void *buf);

/* ---- the commands --------------------------------------------------------- */

int cmd_args(int argc, char **argv);
int cmd_access(int argc, char **argv);
int cmd_data(int argc, char **argv);
int cmd_fadd(int argc, char **argv);
int cmd_kill(int argc, char **argv);
int cmd_memlock(int argc, char **argv);

#endif /* RDMACHAN_TEST_RDMA_TEST_H */
