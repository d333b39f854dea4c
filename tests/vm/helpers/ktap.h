/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * ktap.h: how the in-VM test helpers report, in KTAP (the kernel's
 * Documentation/dev-tools/ktap.rst), as a kselftest does:
 *
 *	KTAP version 1
 *	# anything else the helper has to say
 *	ok 1 - what was checked
 *	not ok 2 - what was checked # what went wrong
 *	1..2
 *
 * ktap_header() first, ktap_result() for each check, ktap_diag() for any
 * other line, ktap_plan() last (the plan follows the results: a helper
 * knows its count only at the end).  The title, the text after
 * "ok N - ", is the same whether the check passes or fails; a failure's
 * detail follows it after " # ", as KTAP's diagnostic data.
 *
 * The guest's run_checks (tests/vm/lib.sh) reads this: it numbers the
 * results anew in its case's KTAP and fails a helper whose plan is
 * missing or short.  Safe to call from several threads, and from a
 * forked child (rdma_test memlock reports from one): the counts are
 * shared (run_checks numbers the results anew anyway).
 */
#ifndef RDMACHAN_TEST_KTAP_H
#define RDMACHAN_TEST_KTAP_H

#include <stdarg.h>
#include <stdio.h>
#include <sys/mman.h>

/*
 * The counts, in memory that ktap_header() shares with the processes
 * the helper forks: a child's results count in the one plan.  Weak: a
 * helper of several files has one copy of them, whichever files report.
 */
struct ktap_counts {
	unsigned int n, failed;
};
__attribute__((weak)) struct ktap_counts ktap_own;
__attribute__((weak)) struct ktap_counts *ktap_cnt = &ktap_own;

static inline void ktap_header(void)
{
	struct ktap_counts *c = mmap(NULL, sizeof(*c), PROT_READ | PROT_WRITE,
				     MAP_SHARED | MAP_ANONYMOUS, -1, 0);

	if (c != MAP_FAILED)
		ktap_cnt = c;
	printf("KTAP version 1\n");
	fflush(stdout);
}

/* ktap_diag: a "# " line; @fmt has no newline */
static inline void __attribute__((format(printf, 1, 2)))
ktap_diag(const char *fmt, ...)
{
	char buf[1024];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(buf, sizeof(buf), fmt, ap);
	va_end(ap);
	printf("# %s\n", buf);
}

/*
 * ktap_result: "ok N - @what" when @ok, else "not ok N - @what # detail",
 * the detail formatted from @fmt (newlines in it become spaces)
 */
static inline void __attribute__((format(printf, 3, 4)))
ktap_result(int ok, const char *what, const char *fmt, ...)
{
	char detail[1024];
	unsigned int n;
	va_list ap;
	char *p;

	if (!ok) {
		va_start(ap, fmt);
		vsnprintf(detail, sizeof(detail), fmt, ap);
		va_end(ap);
		for (p = detail; *p; p++)
			if (*p == '\n')
				*p = ' ';
		__atomic_add_fetch(&ktap_cnt->failed, 1, __ATOMIC_SEQ_CST);
	}
	flockfile(stdout);	/* in number order within the process */
	n = __atomic_add_fetch(&ktap_cnt->n, 1, __ATOMIC_SEQ_CST);
	if (ok)
		printf("ok %u - %s\n", n, what);
	else
		printf("not ok %u - %s # %s\n", n, what, detail);
	funlockfile(stdout);
}

/* ktap_failures: how many checks failed so far */
static inline unsigned int ktap_failures(void)
{
	return __atomic_load_n(&ktap_cnt->failed, __ATOMIC_SEQ_CST);
}

/* ktap_plan: the closing plan line; returns @rc, the exit status */
static inline int ktap_plan(int rc)
{
	printf("1..%u\n", __atomic_load_n(&ktap_cnt->n, __ATOMIC_SEQ_CST));
	fflush(stdout);
	return rc;
}

#endif /* RDMACHAN_TEST_KTAP_H */
