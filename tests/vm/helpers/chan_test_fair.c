// SPDX-License-Identifier: GPL-2.0-only
/*
 * chan_test_fair.c: many busy channels on one device at once, and how
 * evenly they share it (make bench's fairness row; a measurement, not a
 * test: it fails only where a channel fails).
 *
 * "fair [N] [SECS]" opens N (default 100) default channel pairs and runs
 * the in-kernel benchmark on all of them at once: each client BLASTs
 * 64-byte messages for SECS (default 5) seconds to its server's SINK.
 * It prints each client's rate's smallest, largest and mean, the
 * smallest over the largest, and the tenth and ninetieth percentiles (is
 * it one straggler, or a spread?), as "RESULT name value" lines, also
 * written to the file $FAIR_OUT names.
 */
#define _GNU_SOURCE
#include "chan_test.h"

#define FAIR_MSG	64

struct fair_run {
	int fd;
	struct rdmachan_bench b;
	pthread_barrier_t *start;
	int ret;
};

static void *fair_thread(void *arg)
{
	struct fair_run *r = arg;

	/* the clients start together, once all exist: one window for all */
	if (r->start)
		pthread_barrier_wait(r->start);
	r->b.size = sizeof(r->b);
	r->ret = ioctl(r->fd, RDMACHAN_IOC_BENCH, &r->b);
	return NULL;
}

static int fair_cmp(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return x < y ? -1 : x > y;
}

static void fair_result(FILE *out, const char *name, double v)
{
	printf("RESULT %s %g\n", name, v);
	if (out)
		fprintf(out, "RESULT %s %g\n", name, v);
}

int cmd_fair(SUBCMD_ARGS)
{
	int n = argc > 1 ? atoi(argv[1]) : 100;
	int secs = argc > 2 ? atoi(argv[2]) : 5;
	const char *path = getenv("FAIR_OUT");
	struct rdmachan_chan_opts o = { 0 };
	pthread_barrier_t start;
	struct fair_run *cli, *srv;
	double lo = 0, hi = 0, sum = 0, *rates;
	struct chan_pair *p;
	pthread_t *t;
	int i, ok = 1;
	FILE *out;

	if (n < 2 || n > 1000 || secs < 1 || secs > 60) {
		ktap_result(0, "fair N SECS: 2 to 1000 pairs, 1 to 60 s",
			    "%d %d", n, secs);
		return 1;
	}
	p = calloc(n, sizeof(*p));
	cli = calloc(n, sizeof(*cli));
	srv = calloc(n, sizeof(*srv));
	t = calloc(2 * n, sizeof(*t));
	rates = calloc(n, sizeof(*rates));
	if (!p || !cli || !srv || !t || !rates)
		return 1;
	for (i = 0; i < n; i++)
		if (pair_open(&p[i], &o))
			return 1;
	ktap_result(1, "the pairs open", "%d", n);
	pthread_barrier_init(&start, NULL, n);
	for (i = 0; i < n; i++) {
		srv[i].fd = p[i].srv;
		srv[i].b.mode = RDMACHAN_BENCH_SINK;
		srv[i].b.duration_ms = (secs + 10) * 1000;
		cli[i].fd = p[i].cli;
		cli[i].b.mode = RDMACHAN_BENCH_BLAST;
		cli[i].b.msg_size = FAIR_MSG;
		cli[i].b.duration_ms = secs * 1000;
		cli[i].start = &start;
		pthread_create(&t[2 * i], NULL, fair_thread, &srv[i]);
	}
	for (i = 0; i < n; i++)
		pthread_create(&t[2 * i + 1], NULL, fair_thread, &cli[i]);
	for (i = 0; i < n; i++)
		pthread_join(t[2 * i + 1], NULL);
	/* the clients are done: their close ends the sinks (EPIPE) */
	for (i = 0; i < n; i++) {
		close(p[i].cli);
		p[i].cli = -1;
	}
	for (i = 0; i < n; i++)
		pthread_join(t[2 * i], NULL);
	pthread_barrier_destroy(&start);
	for (i = 0; i < n; i++) {
		double rate;

		if (cli[i].ret || !cli[i].b.elapsed_ns) {
			ok = 0;
			continue;
		}
		rate = cli[i].b.msgs * 1e9 / cli[i].b.elapsed_ns;
		rates[i] = rate;
		if (!i || rate < lo)
			lo = rate;
		if (!i || rate > hi)
			hi = rate;
		sum += rate;
	}
	ktap_result(ok, "every channel ran its benchmark", "a BENCH failed");
	out = path ? fopen(path, "w") : NULL;
	fair_result(out, "fair_pairs", n);
	fair_result(out, "fair_secs", secs);
	fair_result(out, "fair_min_msgs_per_s", lo);
	fair_result(out, "fair_max_msgs_per_s", hi);
	fair_result(out, "fair_mean_msgs_per_s", sum / n);
	fair_result(out, "fair_min_over_max", hi > 0 ? lo / hi : 0);
	qsort(rates, n, sizeof(*rates), fair_cmp);
	fair_result(out, "fair_p10_msgs_per_s", rates[n / 10]);
	fair_result(out, "fair_p50_msgs_per_s", rates[n / 2]);
	fair_result(out, "fair_p90_msgs_per_s", rates[n - 1 - n / 10]);
	if (out)
		fclose(out);
	for (i = 0; i < n; i++)
		chan_pair_close(&p[i]);
	free(p);
	free(cli);
	free(srv);
	free(t);
	free(rates);
	return ktap_failures() ? 1 : 0;
}
