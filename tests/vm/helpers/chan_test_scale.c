// SPDX-License-Identifier: GPL-2.0-only
/*
 * chan_test_scale.c: many idle channels at once, what each costs.
 *
 * "scale [N] [SHARE]" opens channel pairs with the module's default
 * options (queue depth, message size: a zeroed rdmachan_chan_opts), up to
 * N of them (default 1000) or as many as fit in SHARE percent (default
 * 50, at most 90) of the memory available after the first pair,
 * whichever is fewer, a pair costing what SCALE_PROBE pairs after the
 * first took each (the first also pays for what the device makes once
 * for its channels); its descriptor limit raised for two a pair.
 * SCALE_THREADS threads connect while this one accepts, as cmtime sets
 * its connections up concurrently.  Then:
 *   - every pair carries a checksummed message of its own size each way,
 *     SCALE_BATCH pairs at a time, each batch idle again before the next
 *     (a full-size message grows its grant for shrink_idle_ms);
 *   - idle again, the channels give back the send buffers the messages
 *     took, within a few keepalive ticks (chan_sbuf.c), and the receive
 *     buffers their grants grew by, after shrink_idle_ms (chan_grant.c);
 *   - the memory a channel says it holds (sysfs mem_bytes) is no more
 *     than what the pairs took out of the machine (MemFree and the pages
 *     on the per-CPU lists), so the counter does not overstate;
 *   - all closed, every channel's directory goes and MemFree comes back.
 * It prints what a channel costs, the provider's queues (VmallocUsed) on
 * their own line, and the setup rate, as "RESULT name value" lines, also
 * written to the file $SCALE_OUT names (for the case and the benchmark).
 */
#include <dirent.h>
#include <netinet/in.h>
#include <sys/resource.h>

#include "chan_test.h"

/* connecting threads: fewer than listen_max_connecting's default (16) */
#define SCALE_THREADS	8
/* how long the accepting thread waits for the next connection */
#define SCALE_ACCEPT_MS	30000

/* /proc/meminfo's @key in bytes, -1 if absent */
static long long meminfo(const char *key)
{
	char line[128];
	size_t klen = strlen(key);
	long long kb = -1;
	FILE *f = fopen("/proc/meminfo", "r");

	if (!f)
		return -1;
	while (fgets(line, sizeof(line), f))
		if (!strncmp(line, key, klen) && line[klen] == ':') {
			kb = atoll(line + klen + 1);
			break;
		}
	fclose(f);
	return kb < 0 ? -1 : kb * 1024;
}

/*
 * Pages the per-CPU lists hold (/proc/zoneinfo's pagesets' "count:"), in
 * bytes: freed, but not in MemFree until they drain to the buddy lists
 */
static long long pcp_bytes(void)
{
	char line[128];
	long long pages = 0;
	FILE *f = fopen("/proc/zoneinfo", "r");

	if (!f)
		return 0;
	while (fgets(line, sizeof(line), f)) {
		const char *p = line + strspn(line, " ");

		if (!strncmp(p, "count:", 6))
			pages += atoll(p + 6);
	}
	fclose(f);
	return pages * sysconf(_SC_PAGESIZE);
}

struct mem_snap {
	long long free, vmalloc, slab;
};

static void mem_snap(struct mem_snap *m)
{
	FILE *f = fopen("/proc/sys/vm/drop_caches", "w");

	/* page cache and reclaimable slab are not the channels' */
	if (f) {
		fputs("3\n", f);
		fclose(f);
	}
	m->free = meminfo("MemFree") + pcp_bytes();
	m->vmalloc = meminfo("VmallocUsed");
	m->slab = meminfo("Slab");
}

/*
 * A snapshot once MemFree has settled (up to 10 s): what channels closed
 * just before give back their provider's queues from a work item, and
 * their slab objects after RCU grace periods, for a while after their
 * directories went
 */
static void mem_settled(struct mem_snap *m)
{
	struct mem_snap prev;
	int i;

	mem_snap(m);
	for (i = 0; i < 20; i++) {
		usleep(500 * 1000);
		prev = *m;
		mem_snap(m);
		if (llabs(m->free - prev.free) < 1 << 20)
			break;
	}
}

/* the channel directories of the class, now */
static int chan_dirs(void)
{
	DIR *d = opendir("/sys/class/rdmachan");
	struct dirent *e;
	int n = 0;

	if (!d)
		return -1;
	while ((e = readdir(d)))
		n += !strncmp(e->d_name, "chan", 4);
	closedir(d);
	return n;
}

/* "RESULT @name @v" on stdout and in $SCALE_OUT */
static void result(const char *name, double v)
{
	const char *path = getenv("SCALE_OUT");
	FILE *f;

	printf("RESULT %s %.6g\n", name, v);
	f = path ? fopen(path, "a") : NULL;
	if (f) {
		fprintf(f, "RESULT %s %.6g\n", name, v);
		fclose(f);
	}
}

/* the memory the @n pairs' channels count, together */
static long long own_sum(const int *cli, const int *srv, int n)
{
	long long own = 0;
	char buf[64];
	int i;

	for (i = 0; i < n; i++) {
		own += atoll(sysfs_attr(cli[i], "mem_bytes", buf, sizeof(buf)));
		own += atoll(sysfs_attr(srv[i], "mem_bytes", buf, sizeof(buf)));
	}
	return own;
}

/* pairs that carry their messages before they are let go idle */
#define SCALE_BATCH	100

/*
 * Wait, up to 20 s, until the @n pairs hold no more than @own bytes
 * again: idle, they give back what their messages took (a keepalive
 * tick the send buffers, shrink_idle_ms the grown grants).
 */
static void idle_wait(const int *cli, const int *srv, int n, long long own)
{
	int i;

	for (i = 0; i < 200 && own_sum(cli, srv, n) > own; i++)
		usleep(100 * 1000);
}

/* pairs after the first that say what one costs */
#define SCALE_PROBE	8

/* what the connecting threads share */
struct connectors {
	int *cli;
	int n;
	int port;
	int next;	/* the next pair to connect (atomic) */
	int err;	/* the first connect's errno that failed */
};

static void *connector_run(void *arg)
{
	struct connectors *c = arg;
	struct rdmachan_chan_opts o = { 0 };
	int i;

	while ((i = __atomic_fetch_add(&c->next, 1, __ATOMIC_RELAXED)) < c->n) {
		c->cli[i] = chan_connect(ctl, SRV_IP, c->port, CLI_IP, &o, 0);
		if (c->cli[i] < 0) {
			__atomic_store_n(&c->err, errno, __ATOMIC_RELAXED);
			break;
		}
	}
	return NULL;
}

static unsigned short sin_port(const struct __kernel_sockaddr_storage *ss)
{
	return ntohs(((const struct sockaddr_in *)ss)->sin_port);
}

/*
 * Pairs [@from, @n) at once: SCALE_THREADS threads connect, this one
 * accepts (in whatever order the connections come), then each accepted
 * end goes to the index of the client end whose port it names.  *@done
 * is when the last connect and accept returned, before that matching.
 * Return: the pairs open, from index @from on.
 */
static int open_concurrently(int lfd, int port, int *cli, int *srv, int from,
			     int n, double *done)
{
	struct connectors c = { .cli = cli, .n = n, .port = port, .next = from };
	pthread_t th[SCALE_THREADS];
	int *got = calloc(n, sizeof(int));
	/* client index by its local port */
	int *by_port = malloc(65536 * sizeof(int));
	int i, j, nth, accepted = 0;

	*done = now_s();
	if (from >= n || !got || !by_port) {
		free(got);
		free(by_port);
		return 0;
	}
	for (i = from; i < n; i++)
		cli[i] = srv[i] = -1;
	for (nth = 0; nth < SCALE_THREADS; nth++)
		if (pthread_create(&th[nth], NULL, connector_run, &c))
			break;
	while (accepted < n - from) {
		struct pollfd p = { .fd = lfd, .events = POLLIN };

		if (poll(&p, 1, SCALE_ACCEPT_MS) != 1)
			break;
		got[accepted] = chan_accept(lfd, 0);
		if (got[accepted] < 0)
			break;
		accepted++;
	}
	for (i = 0; i < nth; i++)
		pthread_join(th[i], NULL);
	*done = now_s();
	if (c.err)
		ktap_diag("a connect failed: %s", strerror(c.err));
	for (i = 0; i < 65536; i++)
		by_port[i] = -1;
	for (i = from; i < n; i++) {
		struct rdmachan_chan_info b;

		if (cli[i] >= 0 && !ioc_chan_info(cli[i], &b))
			by_port[sin_port(&b.src)] = i;
	}
	for (j = 0; j < accepted; j++) {
		struct rdmachan_chan_info a;

		i = ioc_chan_info(got[j], &a) ? -1 : by_port[sin_port(&a.dst)];
		if (i >= 0 && srv[i] < 0)
			srv[i] = got[j];
		else
			close(got[j]);
	}
	free(got);
	free(by_port);
	/* the pairs made, from index @from on, without holes */
	for (i = from, j = from; i < n; i++) {
		if (cli[i] >= 0 && srv[i] >= 0) {
			cli[j] = cli[i];
			srv[j++] = srv[i];
		} else if (cli[i] >= 0) {
			close(cli[i]);
		}
	}
	return j - from;
}

/* what the closing threads share */
struct closers {
	int *cli, *srv;
	int n;
	int next;	/* the next pair to close (atomic) */
};

static void *closer_run(void *arg)
{
	struct closers *c = arg;
	int i;

	while ((i = __atomic_fetch_add(&c->next, 1, __ATOMIC_RELAXED)) < c->n) {
		close(c->cli[i]);
		close(c->srv[i]);
	}
	return NULL;
}

/*
 * Close @n pairs, SCALE_THREADS threads at a time (a close waits for the
 * peer's answer to its CLOSE and for the drain), and the listener @lfd
 */
static void close_concurrently(int lfd, int *cli, int *srv, int n)
{
	struct closers c = { .cli = cli, .srv = srv, .n = n };
	pthread_t th[SCALE_THREADS];
	int nth;

	for (nth = 0; nth < SCALE_THREADS; nth++)
		if (pthread_create(&th[nth], NULL, closer_run, &c))
			break;
	/* no thread: this one closes them all */
	if (!nth)
		closer_run(&c);
	while (nth--)
		pthread_join(th[nth], NULL);
	close(lfd);
}

/* one message of @len bytes from @from to @to, its content checked */
static int carry(int from, int to, unsigned char *tx, unsigned char *rx,
		 size_t len, uint32_t seed)
{
	ssize_t got;

	fill(tx, len, seed);
	if (write(from, tx, len) != (ssize_t)len)
		return 0;
	got = read(to, rx, len);
	return got == (ssize_t)len && csum(rx, len) == csum(tx, len);
}

int cmd_scale(SUBCMD_ARGS)
{
	int want = argc > 1 ? atoi(argv[1]) : 1000;
	int share = argc > 2 ? atoi(argv[2]) : 50;
	struct rdmachan_chan_opts o = { 0 };
	struct rdmachan_chan_info ci;
	struct mem_snap base, one, probe, full, after;
	int *cli, *srv, lfd, port, i, n, opened = 0, ok = 1, dirs = -1;
	long long own, busy = 0, pair_cost, slack, avail, fit, batch_own = 0;
	unsigned char *tx, *rx;
	double t0, t1, t2, setup_s, open_s;
	struct rlimit fds = { 2 * want + 64, 2 * want + 64 };
	char buf[64];

	/* two descriptors a pair: 1,000 pairs are beyond the default 1,024 */
	if (want < 1 || want > 100000 || share < 1 || share > 90) {
		ktap_result(0, "scale N SHARE: 1 to 100000 pairs, 1 to 90%",
			    "%d %d", want, share);
		return 1;
	}
	i = setrlimit(RLIMIT_NOFILE, &fds);
	ktap_result(!i, "room for two descriptors a pair", "%s",
		    strerror(errno));
	cli = calloc(want, sizeof(int));
	srv = calloc(want, sizeof(int));
	mem_settled(&base);
	lfd = chan_listen(ctl, SRV_IP, 0, &o, 0, &port);
	ktap_result(lfd >= 0, "a listener with the default options", "%s",
		    strerror(errno));
	if (lfd < 0 || !cli || !srv || want < 1)
		return 1;

	/* the first pair: with what the device makes once for its channels */
	t0 = now_s();
	cli[0] = chan_connect(ctl, SRV_IP, port, CLI_IP, &o, 0);
	srv[0] = cli[0] >= 0 ? chan_accept(lfd, 0) : -1;
	setup_s = now_s() - t0;
	ktap_result(srv[0] >= 0, "the first pair opens", "%s", strerror(errno));
	if (srv[0] < 0)
		return 1;
	mem_snap(&one);
	avail = meminfo("MemAvailable");
	/* SCALE_PROBE more say what a pair costs, so what fits */
	t1 = now_s();
	opened = 1 + open_concurrently(lfd, port, cli, srv, 1,
				       want < SCALE_PROBE + 1 ? want :
				       SCALE_PROBE + 1, &t2);
	open_s = t2 - t1;
	mem_snap(&probe);
	pair_cost = opened > 1 ? (one.free - probe.free) / (opened - 1) :
		    base.free - one.free;
	n = want;
	if (pair_cost > 0) {
		fit = opened + (avail / 100 * share - (one.free - probe.free)) /
			       pair_cost;
		if (fit < n)
			n = fit < opened ? opened : fit;
	}
	ktap_diag("a pair takes %lld KiB; %d of %d pairs fit in %d%% of %lld MiB",
		  pair_cost >> 10, n, want, share, avail >> 20);
	ktap_result(n >= 2, "at least two pairs fit", "a pair takes %lld KiB",
		    pair_cost >> 10);
	t1 = now_s();
	opened += open_concurrently(lfd, port, cli, srv, opened, n, &t2);
	open_s += t2 - t1;
	/* the rate of the pairs after the first, which the measuring delayed */
	if (opened > 1)
		setup_s = open_s / (opened - 1);
	snprintf(buf, sizeof(buf), "%d pairs open at once", n);
	ktap_result(opened == n, buf, "only %d", opened);
	mem_snap(&full);

	own = own_sum(cli, srv, opened);
	/*
	 * What the pairs took: the counters must not claim more (a few
	 * pages of slack for what the allocators keep per CPU)
	 */
	slack = 4LL << 20;
	ktap_result(own > 0 && own <= base.free - full.free + slack,
		    "what the channels count is no more than what they took",
		    "counted %lld KiB, MemFree fell by %lld KiB", own >> 10,
		    (base.free - full.free) >> 10);

	ioc_chan_info(cli[0], &ci);
	tx = malloc(ci.max_msg_size);
	rx = malloc(ci.max_msg_size);
	for (i = 0; tx && rx && i < opened; i++) {
		size_t len = 1 + (size_t)(i * 2654435761u) % ci.max_msg_size;

		/*
		 * A batch's grown grants and send buffers given back before
		 * the next: at 90% of the memory, all of them busy at once
		 * would not fit
		 */
		if (i && !(i % SCALE_BATCH))
			idle_wait(cli + i - SCALE_BATCH, srv + i - SCALE_BATCH,
				  SCALE_BATCH, batch_own);
		if (!(i % SCALE_BATCH))
			batch_own = own_sum(cli + i, srv + i,
					    opened - i < SCALE_BATCH ?
					    opened - i : SCALE_BATCH);
		if (!carry(cli[i], srv[i], tx, rx, len, i) ||
		    !carry(srv[i], cli[i], tx, rx, ci.max_msg_size + 1 - len,
			   ~i))
			ok = 0;
	}
	snprintf(buf, sizeof(buf), "each of the %d pairs carries its own messages",
		 opened);
	ktap_result(tx && rx && ok, buf, "a message was lost or changed");
	free(tx);
	free(rx);
	/*
	 * a tick retires the last sends, the next finds them idle; the
	 * receive grants shrink after shrink_idle_ms (the case sets 1 s)
	 */
	for (i = 0; i < 200 && (busy = own_sum(cli, srv, opened)) > own; i++)
		usleep(100 * 1000);
	ktap_result(busy <= own,
		    "idle again, the channels give back the buffers the messages took",
		    "%lld KiB more than before the messages", (busy - own) >> 10);

	result("scale_pairs", opened);
	result("scale_depth", ci.queue_depth);
	result("scale_msg_size", ci.max_msg_size);
	result("scale_setup_pairs_per_s", 1 / setup_s);
	result("scale_own_kib_per_chan", own / 2.0 / opened / 1024);
	result("scale_total_kib_per_chan",
	       (base.free - full.free) / 2.0 / opened / 1024);
	result("scale_vmalloc_kib_per_chan",
	       (full.vmalloc - base.vmalloc) / 2.0 / opened / 1024);
	result("scale_slab_kib_per_chan",
	       (full.slab - base.slab) / 2.0 / opened / 1024);

	close_concurrently(lfd, cli, srv, opened);
	free(cli);
	free(srv);
	/* a channel goes once its teardown and its last reference are done */
	for (i = 0; i < 600 && (dirs = chan_dirs()) > 0; i++)
		usleep(100 * 1000);
	ktap_result(dirs == 0, "every channel is gone after the close",
		    "%d left", dirs);
	slack = (base.free - full.free) / 20;
	if (slack < 4LL << 20)
		slack = 4LL << 20;
	/*
	 * A KASAN kernel (the debug kernel, whose kmemleak file tells it)
	 * keeps what was freed in quarantine, up to a 32nd of its memory, as
	 * much as the few small pairs it runs took: there kmemleak is the
	 * leak check (the case's kmemleak_check)
	 */
	if (!access("/sys/kernel/debug/kmemleak", F_OK))
		slack += meminfo("MemTotal") / 32;
	/* the provider frees a QP's queues from a work item, later */
	for (i = 0; i < 50; i++) {
		mem_snap(&after);
		if (base.free - after.free <= slack)
			break;
		usleep(100 * 1000);
	}
	ktap_result(base.free - after.free <= slack,
		    "the memory comes back",
		    "MemFree %lld KiB below where it started (slack %lld KiB)",
		    (base.free - after.free) >> 10, slack >> 10);
	return ktap_failures() ? 1 : 0;
}

/* the CPUs' busy and total time so far (/proc/stat's "cpu" line, ticks) */
static void cpu_ticks(long long *busy, long long *total)
{
	long long v[8] = { 0 };
	FILE *f = fopen("/proc/stat", "r");
	int i;

	*busy = *total = 0;
	if (!f)
		return;
	if (fscanf(f, "cpu %lld %lld %lld %lld %lld %lld %lld %lld", &v[0],
		   &v[1], &v[2], &v[3], &v[4], &v[5], &v[6], &v[7]) == 8) {
		for (i = 0; i < 8; i++)
			*total += v[i];
		/* all but idle (3) and iowait (4) */
		*busy = *total - v[3] - v[4];
	}
	fclose(f);
}

/*
 * "setup [N]": one pass of the setup rate alone, for the benchmark to
 * pair with a cmtime pass of as many connections: N default pairs (200)
 * opened at once as scale opens them, the rate printed as
 * setup_pairs_per_s with the share of the CPUs' time they took, then all
 * closed (as many threads at a time) and gone (setup_close_s).
 */
int cmd_setup(SUBCMD_ARGS)
{
	int want = argc > 1 ? atoi(argv[1]) : 200;
	struct rdmachan_chan_opts o = { 0 };
	struct rlimit fds = { 2 * want + 64, 2 * want + 64 };
	int *cli, *srv, lfd, port, opened, dirs = -1, i;
	long long busy0, total0, busy1, total1;
	double t0, t1, secs;
	char buf[64];
	int ret;

	if (want < 1 || want > 100000) {
		ktap_result(0, "setup N: 1 to 100000 pairs", "%d", want);
		return 1;
	}
	ret = setrlimit(RLIMIT_NOFILE, &fds);
	ktap_result(!ret, "room for two descriptors a pair", "%s",
		    strerror(errno));
	cli = calloc(want, sizeof(int));
	srv = calloc(want, sizeof(int));
	lfd = chan_listen(ctl, SRV_IP, 0, &o, 0, &port);
	ktap_result(lfd >= 0, "a listener with the default options", "%s",
		    strerror(errno));
	if (lfd < 0 || !cli || !srv)
		return 1;
	cpu_ticks(&busy0, &total0);
	t0 = now_s();
	opened = open_concurrently(lfd, port, cli, srv, 0, want, &t1);
	secs = t1 - t0;
	cpu_ticks(&busy1, &total1);
	snprintf(buf, sizeof(buf), "%d pairs open at once", want);
	ktap_result(opened == want, buf, "only %d", opened);
	/* a pass that fell short (a connect failed, an accept timed out): 0 */
	result("setup_pairs_per_s", opened == want ? opened / secs : 0);
	/* how much of the machine the setups took: idle CPUs mean waiting */
	if (total1 > total0)
		result("setup_cpu_busy_pct",
		       100.0 * (busy1 - busy0) / (total1 - total0));
	t0 = now_s();
	close_concurrently(lfd, cli, srv, opened);
	for (i = 0; i < 600 && (dirs = chan_dirs()) > 0; i++)
		usleep(100 * 1000);
	if (opened > 0)
		result("setup_close_s", now_s() - t0);
	ktap_result(dirs == 0, "every channel is gone after the close",
		    "%d left", dirs);
	free(cli);
	free(srv);
	return ktap_failures() ? 1 : 0;
}
