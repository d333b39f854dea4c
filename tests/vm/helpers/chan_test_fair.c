// SPDX-License-Identifier: GPL-2.0-only
/*
 * chan_test_fair.c: many busy channels on one device at once, and how
 * evenly they share it (make bench's fairness row; a measurement, not a
 * test: it fails only where a channel fails).
 *
 * "fair [N] [SECS]" opens N (default 100) default channel pairs and runs
 * the in-kernel benchmark on all of them at once: each client BLASTs
 * 64-byte messages to its server's SINK.  The rates are measured in one
 * window of SECS (default 5) seconds that opens once every client has
 * sent, from each client's msgs_tx counter in sysfs read at both ends of
 * the window; then a signal ends the clients.  (Each BLAST's own result
 * would not do: its window starts when its thread gets the CPU, and one
 * that runs on for a moment with fewer pairs left beside it takes many
 * times its share in that moment.)  It prints the rates' smallest,
 * largest and mean, the smallest over the largest, and the tenth and
 * ninetieth percentiles (is it one straggler, or a spread?), as "RESULT
 * name value" lines, also written to the file $FAIR_OUT names.
 */
#define _GNU_SOURCE
#include "chan_test.h"

#define FAIR_MSG	64
/* how long the clients may take to all start sending, in ms */
#define FAIR_START_MS	30000

struct fair_run {
	int fd;
	struct rdmachan_bench b;
	pthread_barrier_t *start;
	int ret;
	int done;	/* its BENCH returned (atomic) */
};

/* ends a client's BENCH: it returns what it measured, with 0 */
static void fair_stop(int sig)
{
	(void)sig;
}

static void *fair_thread(void *arg)
{
	struct fair_run *r = arg;

	/* the clients start together, once all exist: one window for all */
	if (r->start)
		pthread_barrier_wait(r->start);
	r->b.size = sizeof(r->b);
	r->ret = ioctl(r->fd, RDMACHAN_IOC_BENCH, &r->b);
	__atomic_store_n(&r->done, 1, __ATOMIC_RELEASE);
	return NULL;
}

static int fair_cmp(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return x < y ? -1 : x > y;
}

/* a client's messages sent so far, and when they were read */
static long long fair_count(int fd, double *when)
{
	char buf[32];

	*when = now_s();
	return atoll(sysfs_attr(fd, "stats/msgs_tx", buf, sizeof(buf)));
}

/* Have all @n clients sent (0: not yet; -1: one has ended already)? */
static int fair_all_sending(const struct fair_run *cli, int n)
{
	double when;
	int i;

	for (i = 0; i < n; i++) {
		if (__atomic_load_n(&cli[i].done, __ATOMIC_ACQUIRE))
			return -1;
		if (fair_count(cli[i].fd, &when) <= 0)
			return 0;
	}
	return 1;
}

/*
 * The @n clients' rates in one window of @secs seconds, into @rates.
 * Return: 0, or -1 where a client did not start or ended before it closed.
 */
static int fair_window(const struct fair_run *cli, int n, int secs,
		       double *rates)
{
	long long *c0 = calloc(n, sizeof(*c0));
	double *t0 = calloc(n, sizeof(*t0));
	double t1, until = now_s() + FAIR_START_MS / 1e3;
	int i, all;

	if (!c0 || !t0)
		return -1;
	while (!(all = fair_all_sending(cli, n)) && now_s() < until)
		usleep(10000);
	ktap_result(all == 1, "every client is sending", "%s",
		    all < 0 ? "one ended" : "not within the time");
	for (i = 0; all == 1 && i < n; i++)
		c0[i] = fair_count(cli[i].fd, &t0[i]);
	if (all == 1)
		sleep(secs);
	for (i = 0; all == 1 && i < n; i++) {
		rates[i] = (fair_count(cli[i].fd, &t1) - c0[i]) / (t1 - t0[i]);
		if (__atomic_load_n(&cli[i].done, __ATOMIC_ACQUIRE))
			all = -1;
	}
	free(c0);
	free(t0);
	return all == 1 ? 0 : -1;
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
	struct sigaction stop = { .sa_handler = fair_stop };
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
	sigaction(SIGUSR1, &stop, NULL);
	pthread_barrier_init(&start, NULL, n);
	for (i = 0; i < n; i++) {
		srv[i].fd = p[i].srv;
		srv[i].b.mode = RDMACHAN_BENCH_SINK;
		cli[i].fd = p[i].cli;
		cli[i].b.mode = RDMACHAN_BENCH_BLAST;
		cli[i].b.msg_size = FAIR_MSG;
		/* the signal after the window ends them; this, if it is lost */
		cli[i].b.duration_ms = FAIR_START_MS + (secs + 30) * 1000;
		srv[i].b.duration_ms = cli[i].b.duration_ms + 10000;
		cli[i].start = &start;
		pthread_create(&t[2 * i], NULL, fair_thread, &srv[i]);
	}
	for (i = 0; i < n; i++)
		pthread_create(&t[2 * i + 1], NULL, fair_thread, &cli[i]);
	if (fair_window(cli, n, secs, rates))
		ok = 0;
	for (i = 0; i < n; i++)
		pthread_kill(t[2 * i + 1], SIGUSR1);
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
		if (cli[i].ret)
			ok = 0;
		if (!i || rates[i] < lo)
			lo = rates[i];
		if (!i || rates[i] > hi)
			hi = rates[i];
		sum += rates[i];
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
