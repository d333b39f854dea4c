// SPDX-License-Identifier: GPL-2.0-only
/*
 * chan_test_budget.c: the receive buffers the channels of one device may
 * be granted beyond their start (grow_budget_kb, module/chan/chan_grant.c),
 * on pairs of depth 32 and messages of 4 KiB in buffers of a page each
 * (wire feature FRAG, rx_buf_mem 4096).  The case sets grow_budget_kb to
 * 512 (128 such buffers, half what eight unread peers would grow to) and
 * shrink_idle_ms low first.
 *
 *   - BUDGET_BUSY pairs carry messages both ways, so their grants grow;
 *   - on BUDGET_STALL more pairs (or the count "budget STALL" names, up
 *     to 1000: the case grant_stall runs 500) nobody reads: their
 *     senders send until no credit comes back.  The grants stop growing where the device's
 *     budget is spent (rx_grown_bytes at most grow_budget_kb, the
 *     refusals counted in grow_refused and logged), every sender got its
 *     start grant's message through, and the provider counted no RNR:
 *     senders wait for credits, the receive queues never run dry;
 *   - the busy pairs still carry checksummed messages both ways;
 *   - the readers come back: every held message is read, in order and
 *     intact, and more go through each of those pairs;
 *   - idle, the grants shrink: rx_grown_bytes falls back to 0, and no
 *     channel saw an error.
 */
#include <dirent.h>
#include <sys/resource.h>

#include "chan_test.h"

#define BUDGET_DEPTH	32
#define BUDGET_MSG	4096
#define BUDGET_BUSY	2
#define BUDGET_STALL	8
#define BUDGET_MAX_STALL	1000

/* An attribute of rdmachan's directory of RDMA device @ibdev; -1: none */
static long long dev_attr(const char *ibdev, const char *attr)
{
	char path[320], val[64];
	long long ret = -1;
	struct dirent *de;
	DIR *d = opendir("/sys/class/rdmachan");
	FILE *f;

	if (!d)
		return -1;
	while ((de = readdir(d))) {
		if (strncmp(de->d_name, "dev", 3))
			continue;
		snprintf(path, sizeof(path), "/sys/class/rdmachan/%s/name",
			 de->d_name);
		f = fopen(path, "r");
		if (!f)
			continue;
		if (!fgets(val, sizeof(val), f))
			val[0] = 0;
		fclose(f);
		val[strcspn(val, "\n")] = 0;
		if (strcmp(val, ibdev))
			continue;
		snprintf(path, sizeof(path), "/sys/class/rdmachan/%s/%s",
			 de->d_name, attr);
		f = fopen(path, "r");
		if (f) {
			if (fgets(val, sizeof(val), f))
				ret = atoll(val);
			fclose(f);
		}
		break;
	}
	closedir(d);
	return ret;
}

/* RNR NAKs the provider counted, sent and received, on every device */
static long long rnr_count(void)
{
	static const char *const names[] = { "rcvd_rnr_err", "send_rnr_err" };
	char path[320], val[64];
	long long sum = 0;
	struct dirent *de;
	unsigned int i;
	DIR *d = opendir("/sys/class/infiniband");
	FILE *f;

	if (!d)
		return 0;
	while ((de = readdir(d))) {
		if (de->d_name[0] == '.')
			continue;
		for (i = 0; i < 2; i++) {
			snprintf(path, sizeof(path),
				 "/sys/class/infiniband/%s/ports/1/hw_counters/%s",
				 de->d_name, names[i]);
			f = fopen(path, "r");
			if (!f)
				continue;
			if (fgets(val, sizeof(val), f))
				sum += atoll(val);
			fclose(f);
		}
	}
	closedir(d);
	return sum;
}

static uint32_t seed(int pair, int i)
{
	return pair * 100000 + i;
}

/* Send on @fd until it has no credit; 0, or -1 on an error */
static int send_unread(int fd, int pair, int *sent)
{
	static unsigned char buf[BUDGET_MSG];

	for (;;) {
		fill(buf, sizeof(buf), seed(pair, *sent));
		if (chan_send_imm(fd, buf, sizeof(buf), *sent, 1))
			return errno == EAGAIN ? 0 : -1;
		(*sent)++;
	}
}

/*
 * Send on the clients of pairs [@from, @to) until none gets a credit back
 * for 1 s, into @sent.  Return: 0, or -1 on an error.
 */
static int fill_unread(struct chan_pair *p, int from, int to, int *sent)
{
	struct pollfd *pfd = calloc(to - from, sizeof(*pfd));
	int i, ret = 0;

	if (!pfd)
		return -1;
	for (i = from; i < to; i++) {
		sent[i] = 0;
		pfd[i - from].fd = p[i].cli;
		pfd[i - from].events = POLLOUT;
	}
	do {
		for (i = from; i < to && !ret; i++)
			ret = send_unread(p[i].cli, i, &sent[i]);
	} while (!ret && poll(pfd, to - from, 1000) > 0);
	free(pfd);
	return ret;
}

/* @n checksummed messages each way, one at a time; 1 when all arrived */
static int ping_pong(struct chan_pair *p, int pair, int n)
{
	static unsigned char buf[BUDGET_MSG], want[BUDGET_MSG];
	int i;

	for (i = 0; i < n; i++) {
		fill(want, sizeof(want), seed(pair, i));
		if (write(p->cli, want, sizeof(want)) != sizeof(want) ||
		    read(p->srv, buf, sizeof(buf)) != sizeof(buf) ||
		    memcmp(buf, want, sizeof(buf)))
			return 0;
		if (write(p->srv, want, sizeof(want)) != sizeof(want) ||
		    read(p->cli, buf, sizeof(buf)) != sizeof(buf) ||
		    memcmp(buf, want, sizeof(buf)))
			return 0;
	}
	return 1;
}

/* Read the @sent messages a stalled pair holds: in order and intact? */
static int read_held(struct chan_pair *p, int pair, int sent)
{
	static unsigned char buf[BUDGET_MSG], want[BUDGET_MSG];
	unsigned int imm;
	int i, has;

	for (i = 0; i < sent; i++) {
		fill(want, sizeof(want), seed(pair, i));
		if (chan_recv_msg(p->srv, buf, sizeof(buf), &imm, &has, 1) !=
		    BUDGET_MSG || !has || imm != (unsigned int)i ||
		    memcmp(buf, want, sizeof(buf)))
			return 0;
	}
	/* and no more */
	return chan_recv_msg(p->srv, buf, sizeof(buf), &imm, &has, 1) < 0 &&
	       errno == EAGAIN;
}

/* Wait up to @secs for both devices' rx_grown_bytes to be 0 */
static int wait_grown_zero(const char *a, const char *b, int secs)
{
	int i;

	for (i = 0; i < secs * 10; i++) {
		if (!dev_attr(a, "rx_grown_bytes") &&
		    !dev_attr(b, "rx_grown_bytes"))
			return 1;
		usleep(100 * 1000);
	}
	return 0;
}

static int no_errors(struct chan_pair *p, int n)
{
	struct rdmachan_chan_info ci;
	int i, fd;

	for (i = 0; i < 2 * n; i++) {
		fd = i % 2 ? p[i / 2].srv : p[i / 2].cli;
		if (ioc_chan_info(fd, &ci) ||
		    ci.state != RDMACHAN_STATE_CONNECTED || ci.errors)
			return 0;
	}
	return 1;
}

int cmd_budget(SUBCMD_ARGS)
{
	struct rdmachan_chan_opts o = { .queue_depth = BUDGET_DEPTH };
	int stall = argc > 1 ? atoi(argv[1]) : BUDGET_STALL;
	int pairs = BUDGET_BUSY + stall;
	long long budget = module_param("grow_budget_kb") * 1024;
	struct rlimit fds = { 3 * pairs + 64, 3 * pairs + 64 };
	long long grown, refused0, rnr0;
	struct rdmachan_chan_info ci;
	char srv_dev[64], cli_dev[64];
	struct chan_pair *p;
	int i, ok, min_sent;
	int *sent;

	if (budget <= 0 || budget > 4 << 20 ||
	    module_param("shrink_idle_ms") <= 0 ||
	    module_param("shrink_idle_ms") > 2000) {
		ktap_result(0, "grow_budget_kb and shrink_idle_ms are set low for this test",
			    "%lld, %ld", budget,
			    module_param("shrink_idle_ms"));
		return 1;
	}
	if (stall < 1 || stall > BUDGET_MAX_STALL) {
		ktap_result(0, "budget STALL: 1 to 1000 unread pairs", "%d",
			    stall);
		return 1;
	}
	/* three descriptors a pair (its listener's too): 500 pass 1,024 */
	if (setrlimit(RLIMIT_NOFILE, &fds))
		ktap_diag("no room for %d descriptors: %s", 3 * pairs,
			  strerror(errno));
	p = calloc(pairs, sizeof(*p));
	sent = calloc(pairs, sizeof(*sent));
	if (!p || !sent)
		return 1;
	for (i = 0; i < pairs; i++)
		if (pair_open(&p[i], &o))
			return 1;
	ioc_chan_info(p[0].srv, &ci);
	snprintf(srv_dev, sizeof(srv_dev), "%s", ci.dev_name);
	snprintf(cli_dev, sizeof(cli_dev), "%s", p[0].info.dev_name);
	refused0 = dev_attr(srv_dev, "grow_refused");
	rnr0 = rnr_count();
	ktap_result(refused0 >= 0 && dev_attr(srv_dev, "rx_grown_bytes") >= 0,
		    "the device shows rx_grown_bytes and grow_refused", "%s",
		    srv_dev);

	ok = 1;
	for (i = 0; i < BUDGET_BUSY; i++)
		ok &= ping_pong(&p[i], i, 100);
	ktap_result(ok, "the busy pairs carry messages both ways", "%s",
		    strerror(errno));

	ktap_result(!fill_unread(p, BUDGET_BUSY, pairs, sent),
		    "the senders of the unread pairs send until they wait",
		    "%s", strerror(errno));
	min_sent = BUDGET_DEPTH;
	for (i = BUDGET_BUSY; i < pairs; i++)
		if (sent[i] < min_sent)
			min_sent = sent[i];
	grown = dev_attr(srv_dev, "rx_grown_bytes");
	ktap_diag("%d unread peers: at least %d messages each; rx_grown_bytes %lld of %lld",
		  stall, min_sent, grown, budget);
	ktap_result(grown > 0 && grown <= budget,
		    "unread peers grow their grants within the device's budget",
		    "rx_grown_bytes %lld, budget %lld", grown, budget);
	ktap_result(dev_attr(srv_dev, "grow_refused") > refused0,
		    "the grants that stopped there are counted",
		    "grow_refused %lld", dev_attr(srv_dev, "grow_refused"));
	ktap_result(min_sent >= 1,
		    "every sender got its start grant's message through",
		    "least %d", min_sent);
	ktap_result(rnr_count() == rnr0,
		    "senders waited for credits: the provider saw no RNR",
		    "RNR NAKs %lld -> %lld", rnr0, rnr_count());

	ok = 1;
	for (i = 0; i < BUDGET_BUSY; i++)
		ok &= ping_pong(&p[i], i, 50);
	ktap_result(ok, "the busy pairs still carry messages both ways", "%s",
		    strerror(errno));

	ok = 1;
	for (i = BUDGET_BUSY; i < pairs; i++)
		ok &= read_held(&p[i], i, sent[i]);
	ktap_result(ok, "the readers come back: every held message, in order and intact",
		    "mismatch");
	ok = 1;
	for (i = BUDGET_BUSY; i < pairs; i++)
		ok &= ping_pong(&p[i], i, stall > BUDGET_STALL ? 2 : 20);
	ktap_result(ok, "and those pairs carry messages again", "%s",
		    strerror(errno));
	ktap_result(no_errors(p, pairs), "no channel saw an error",
		    "state or errors");

	ktap_result(wait_grown_zero(srv_dev, cli_dev, 30),
		    "idle, the grants shrink and give the budget back",
		    "rx_grown_bytes %lld and %lld",
		    dev_attr(srv_dev, "rx_grown_bytes"),
		    dev_attr(cli_dev, "rx_grown_bytes"));
	for (i = 0; i < pairs; i++)
		chan_pair_close(&p[i]);
	free(p);
	free(sent);
	return ktap_failures() ? 1 : 0;
}
