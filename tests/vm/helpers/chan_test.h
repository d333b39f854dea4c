/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * chan_test.h: what chan_test's files share: the commands (one file per
 * concern: chan_test_msg.c, chan_test_bench.c, chan_test_conc.c,
 * chan_test_fault.c, chan_test_scale.c, chan_test_grant.c,
 * chan_test_budget.c, chan_test_frag.c, chan_test_fair.c; the table and what they share in
 * chan_test.c).
 */
#ifndef RDMACHAN_TEST_CHAN_TEST_H
#define RDMACHAN_TEST_CHAN_TEST_H

#include <poll.h>
#include <pthread.h>
#include <signal.h>
#include <stdint.h>
#include <sys/wait.h>
#include <time.h>

#include "chanlib.h"
#include "subcmd.h"

#define SRV_IP	CHAN_SRV_IP
#define CLI_IP	CHAN_CLI_IP

/* ---- chan_test.c -------------------------------------------------------- */

unsigned long long scaled(unsigned long long n);
int pair_open(struct chan_pair *p, const struct rdmachan_chan_opts *opts);
uint32_t csum(const unsigned char *b, size_t n);
void fill(unsigned char *b, size_t n, uint32_t seed);
void pairs_close(int lfd, int *cli, int *srv, int n);
const char *sysfs_attr(int fd, const char *name, char *buf, size_t n);
double now_s(void);

/* ---- the commands --------------------------------------------------------- */

int cmd_basic(int argc, char **argv);
int cmd_stream(int argc, char **argv);
int cmd_backpressure(int argc, char **argv);
int cmd_close(int argc, char **argv);
int cmd_errors(int argc, char **argv);
int cmd_many(int argc, char **argv);
int cmd_pollwake(int argc, char **argv);

int cmd_bench(int argc, char **argv);
int cmd_rdmabench(int argc, char **argv);

int cmd_efault(int argc, char **argv);
int cmd_concurrent(int argc, char **argv);

int cmd_devremove(int argc, char **argv);
int cmd_deadpeer(int argc, char **argv);
int cmd_idleprobe(int argc, char **argv);
int cmd_faultloop(int argc, char **argv);
int cmd_hold(int argc, char **argv);
int cmd_qperror(int argc, char **argv);
int cmd_ctrlhold(int argc, char **argv);
int cmd_unplug(int argc, char **argv);

int cmd_scale(int argc, char **argv);
int cmd_setup(int argc, char **argv);
int cmd_grant(int argc, char **argv);
int cmd_budget(int argc, char **argv);
int cmd_frag(int argc, char **argv);
int cmd_fair(int argc, char **argv);

#endif /* RDMACHAN_TEST_CHAN_TEST_H */
