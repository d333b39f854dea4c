/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * What the rdmachan_ioctl* KUnit suites share (ioctl_kunit.c): the ABI's
 * bounds as Documentation/ioctl.rst documents them, and a harness that
 * starts from a valid argument struct of one kind, changes a few of its
 * fields (struct ioc_set) and runs the kind's check of
 * module/chan/ioctl_check.c on it.
 */
#ifndef RDMACHAN_IOCTL_KUNIT_H
#define RDMACHAN_IOCTL_KUNIT_H

#include <kunit/test.h>
#include <linux/sizes.h>
#include <linux/stddef.h>
#include <linux/types.h>

#include "../../module/chan/ioctl.h"

/* Bounds of the ABI */
#define ABI_FD_FLAGS	(RDMACHAN_FD_NONBLOCK | RDMACHAN_FD_CLOEXEC)
#define ABI_MAX_DEPTH	16384U
#define ABI_MAX_SIZE	SZ_1M
#define ABI_MAX_TIMEOUT	600000U
#define ABI_MAX_BACKLOG	65536U
#define ABI_MMSG_MAX	1024U

/* A port: any non-zero value (changes are in host byte order) */
#define TEST_PORT	4791

/**
 * struct ioc_set - one change to a valid argument struct
 * @off: byte offset in the struct
 * @len: bytes changed; 0 ends the list
 * @val: the new value of a 1, 2, 4 or 8-byte field, host byte order;
 *	with @fill, the value of every byte
 * @fill: set each of the @len bytes to @val
 */
struct ioc_set {
	unsigned int off;
	unsigned int len;
	u64 val;
	bool fill;
};

#define IOC_SETS	4

/*
 * A member, @tm, is given as "(struct type, member)", the arguments of
 * offsetof() and sizeof_field().
 */
/* Member @tm becomes @v. */
#define IOC_SET(tm, v)		{ offsetof tm, sizeof_field tm, (v), false }
/* Every byte of member @tm becomes @v. */
#define IOC_FILL(tm, v)		{ offsetof tm, sizeof_field tm, (v), true }
/* The @n bytes @add bytes into member @m become @v. */
#define IOC_AT(t, m, add, n, v)	{ offsetof(t, m) + (add), (n), (v), false }

/**
 * struct ioc_case - an argument struct with up to IOC_SETS changes
 * @name: what the case shows
 * @set: the changes to the valid struct
 * @want: the expected return of the check
 */
struct ioc_case {
	const char *name;
	struct ioc_set set[IOC_SETS];
	int want;
};

/**
 * struct ioc_kind - an argument struct and its check
 * @size: sizeof() the struct
 * @init: fill @arg with a valid struct
 * @check: the check of ioctl_check.c, 0 or a negative errno
 */
struct ioc_kind {
	size_t size;
	void (*init)(void *arg);
	int (*check)(const void *arg);
};

extern const struct ioc_kind ioc_version_kind;
extern const struct ioc_kind ioc_dev_list_kind;
extern const struct ioc_kind ioc_dev_query_kind;
extern const struct ioc_kind ioc_connect_kind;
extern const struct ioc_kind ioc_listen_kind;
extern const struct ioc_kind ioc_accept_kind;
extern const struct ioc_kind ioc_send_kind;
extern const struct ioc_kind ioc_mmsg_kind;
extern const struct ioc_kind ioc_user_msg_kind;
extern const struct ioc_kind ioc_bench_kind;

void ioc_case_desc(const struct ioc_case *c, char *desc);
void ioc_apply(struct kunit *test, void *arg, size_t size,
	       const struct ioc_set *set);
int ioc_run(struct kunit *test, const struct ioc_kind *k,
	    const struct ioc_set *set);
const void *ioc_flag_bit_gen_params(const void *prev, char *desc);
void ioc_flag_bit_run(struct kunit *test, const struct ioc_kind *k,
		      size_t off, u32 known);

#endif /* RDMACHAN_IOCTL_KUNIT_H */
