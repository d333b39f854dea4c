// SPDX-License-Identifier: GPL-2.0-only
/*
 * chan_show.c: "rdmachan chan show": every channel and listener with its state and
 * counters, and every RDMA device with its event counters, read from
 * sysfs (/sys/class/rdmachan/).
 */
#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "chan.h"
#include "hist.h"

#define SYSFS_CLASS	"/sys/class/rdmachan"
#define MAX_ATTRS	64

static int cmp_name(const void *a, const void *b)
{
	const char *x = *(char *const *)a, *y = *(char *const *)b;
	size_t lx = strcspn(x, "0123456789"), ly = strcspn(y, "0123456789");
	int c = strncmp(x, y, lx < ly ? lx : ly);

	if (c || lx != ly)
		return c ? c : (lx < ly ? -1 : 1);
	return atoi(x + lx) - atoi(y + ly);
}

static int cmp_attr(const void *a, const void *b)
{
	return strcmp(((const struct chan_attr *)a)->name, ((const struct chan_attr *)b)->name);
}

static bool is_number(const char *s)
{
	if (!*s)
		return false;
	for (; *s; s++)
		if (!isdigit((unsigned char)*s))
			return false;
	return true;
}

/* read_attrs: the readable files of @dir (and of @dir/stats, prefixed). */
static int read_attrs(const char *dir, const char *prefix, struct chan_attr *at, int n)
{
	char path[512];
	struct dirent *d;
	DIR *dp = opendir(dir);

	if (!dp)
		return n;
	while ((d = readdir(dp)) && n < MAX_ATTRS) {
		FILE *f;
		size_t len;

		/* histograms: with --hist, drawn (hist.c) */
		if (d->d_name[0] == '.' || !strcmp(d->d_name, "uevent") ||
		    !strcmp(d->d_name, "subsystem") || !strcmp(d->d_name, "power") ||
		    !strcmp(d->d_name, "device") ||
		    !strncmp(d->d_name, "hist_", 5))
			continue;
		snprintf(path, sizeof(path), "%s/%s", dir, d->d_name);
		if (!strcmp(d->d_name, "stats") && !*prefix) {
			n = read_attrs(path, "", at, n);
			continue;
		}
		f = fopen(path, "r");
		if (!f)
			continue;
		if (strlen(prefix) + strlen(d->d_name) >= sizeof(at[n].name)) {
			fclose(f);
			continue;
		}
		strcpy(at[n].name, prefix);
		strcat(at[n].name, d->d_name);
		if (!fgets(at[n].value, sizeof(at[n].value), f))
			at[n].value[0] = '\0';
		fclose(f);
		len = strlen(at[n].value);
		while (len && isspace((unsigned char)at[n].value[len - 1]))
			at[n].value[--len] = '\0';
		n++;
	}
	closedir(dp);
	return n;
}

static const char *find(const struct chan_attr *at, int n, const char *name)
{
	int i;

	for (i = 0; i < n; i++)
		if (!strcmp(at[i].name, name))
			return at[i].value;
	return NULL;
}

static const char *get(const struct chan_attr *at, int n, const char *name)
{
	const char *v = find(at, n, name);

	return v ? v : "-";
}

/* chan show --hist: the latency histograms too */
static bool show_hists;

void chan_show_one(FILE *f, const char *name, struct chan_attr *at, int n)
{
	int i;

	qsort(at, n, sizeof(*at), cmp_attr);
	/* JSON: every attribute, a number where it is one; text: a digest */
	open_record(f);
	print_str(PRINT_JSON, "name", NULL, name);
	for (i = 0; i < n; i++) {
		if (is_number(at[i].value))
			print_u64(PRINT_JSON, at[i].name, NULL,
				  strtoull(at[i].value, NULL, 10));
		else
			print_str(PRINT_JSON, at[i].name, NULL, at[i].value);
	}
	/* text: the counters with -s only (JSON has every attribute) */
	if (!strncmp(name, "dev", 3)) {
		print_fp("%s: %s rx_grown_bytes %s", name, get(at, n, "name"),
			 get(at, n, "rx_grown_bytes"));
		if (tool_stats())
			print_fp(" async_events %s port_events %s fatal_events %s qp_events %s cq_events %s",
				 get(at, n, "async_events"), get(at, n, "port_events"),
				 get(at, n, "fatal_events"), get(at, n, "qp_events"),
				 get(at, n, "cq_events"));
		if (tool_stats())
			print_fp(" grow_refused %s", get(at, n, "grow_refused"));
		print_nl();
		goto out;
	}
	if (!strncmp(name, "listener", 8)) {
		print_fp("%s: %s %s backlog %s pending %s accepted %s\n", name,
		         get(at, n, "state"), get(at, n, "src_addr"),
		         get(at, n, "backlog"), get(at, n, "pending"),
		         get(at, n, "accepted"));
		print_fp("    connecting %s/%s mem_pending %s/%s",
		         get(at, n, "connecting"), get(at, n, "max_connecting"),
		         get(at, n, "mem_pending"), get(at, n, "mem_budget"));
		if (tool_stats())
			print_fp(" rejected %s (busy %s) timed_out %s",
				 get(at, n, "rejected"), get(at, n, "rejected_busy"),
				 get(at, n, "timed_out"));
		print_nl();
		goto out;
	}
	print_fp("%s: %s %s %s -> %s dev %s port %s qpn %s\n", name,
		 get(at, n, "state"), get(at, n, "role"), get(at, n, "src_addr"),
		 get(at, n, "dst_addr"), get(at, n, "dev_name"),
		 get(at, n, "port_num"), get(at, n, "qpn"));
	print_fp("    queue_depth %s max_msg_size %s max_inline %s header %s msg_buf_bytes %s send_credits %s credits_to_return %s rx_queued %s mem_bytes %s\n",
	         get(at, n, "queue_depth"), get(at, n, "max_msg_size"),
	         get(at, n, "max_inline"), get(at, n, "wire_header"),
	         get(at, n, "msg_buf_bytes"),
	         get(at, n, "send_credits"), get(at, n, "credits_to_return"),
	         get(at, n, "rx_queued"), get(at, n, "mem_bytes"));
	if (!tool_stats())
		goto out;
	print_fp("    tx %s msgs %s bytes  rx %s msgs %s bytes  credit_stalls %s credit_msgs %s keepalives %s errors %s",
	         get(at, n, "msgs_tx"), get(at, n, "bytes_tx"), get(at, n, "msgs_rx"),
	         get(at, n, "bytes_rx"), get(at, n, "credit_stalls"),
	         get(at, n, "credit_msgs_tx"), get(at, n, "keepalives_tx"),
	         get(at, n, "errors"));
	/* appended to the counters later: a module before it has none */
	if (find(at, n, "solicited_events"))
		print_fp(" solicited_events %s", get(at, n, "solicited_events"));
	print_nl();
out:
	if (show_hists && !strncmp(name, "chan", 4)) {
		show_hist("hist_send", "from a send to its completion",
			  "class/rdmachan/%s/hist_send", name);
		show_hist("hist_recv", "from a message's arrival to its release",
			  "class/rdmachan/%s/hist_recv", name);
	}
	close_record();
}

static void show_help(void)
{
	printf("Usage: rdmachan [-j [-p]] [-s] chan show [NAME] [--hist]\n"
	       "Show every channel (chanN) and listener (listenerN) of rdmachan,\n"
	       "with its state and addresses, and every RDMA device (devN); or\n"
	       "only NAME.  With -s their counters (JSON: always).  From\n"
	       SYSFS_CLASS "/.\n"
	       "  --hist    a channel's latency histograms: from a send to its\n"
	       "            completion, from a message's arrival to its release\n");
}

int cmd_chan_show(int argc, char **argv)
{
	struct chan_attr *at;
	char **names = NULL, path[512];
	struct dirent *d;
	int n = 0, cap = 0, i, found = 0;
	DIR *dp;

	if (argc >= 1 && (!strcmp(argv[0], "-h") || !strcmp(argv[0], "--help") ||
			  !strcmp(argv[0], "help"))) {
		show_help();
		return EXIT_OK;
	}
	show_hists = take_hist_flag(&argc, argv);
	if (argc > 1)
		return tool_usage_err("chan show", "unexpected argument '%s'", argv[1]);
	if (argc == 1 && (strchr(argv[0], '/') || argv[0][0] == '.' ||
			  argv[0][0] == '-' || strlen(argv[0]) > 64))
		return tool_usage_err("chan show", "'%.70s' is not a channel or listener name",
				      argv[0]);
	dp = opendir(SYSFS_CLASS);
	if (!dp) {
		tool_err("cannot read %s: %s (is rdmachan.ko loaded?)", SYSFS_CLASS,
			 strerror(errno));
		return EXIT_FAIL;
	}
	while ((d = readdir(dp))) {
		if (d->d_name[0] == '.')
			continue;
		if (argc == 1 && strcmp(argv[0], d->d_name))
			continue;
		if (n == cap) {
			char **nn;

			cap = cap ? cap * 2 : 64;
			nn = realloc(names, cap * sizeof(*names));
			if (!nn)
				break;
			names = nn;
		}
		names[n] = strdup(d->d_name);
		if (names[n])
			n++;
	}
	closedir(dp);
	if (n)
		qsort(names, n, sizeof(*names), cmp_name);
	at = calloc(MAX_ATTRS, sizeof(*at));
	open_list();
	for (i = 0; at && i < n; i++) {
		int na;

		snprintf(path, sizeof(path), "%s/%s", SYSFS_CLASS, names[i]);
		na = read_attrs(path, "", at, 0);
		if (!na)
			continue;	/* went away meanwhile */
		chan_show_one(stdout, names[i], at, na);
		found++;
	}
	close_list();
	for (i = 0; i < n; i++)
		free(names[i]);
	free(names);
	free(at);
	if (argc == 1 && !found) {
		tool_err("%s: no such channel or listener", argv[0]);
		return EXIT_FAIL;
	}
	return EXIT_OK;
}
