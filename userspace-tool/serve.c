// SPDX-License-Identifier: GPL-2.0-only
/*
 * serve.c: the server loop of "chan listen", "chan recv" and "mr reg"
 * (see serve.h).
 */
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "serve.h"

void srv_drop(struct srv *s, unsigned int idx, bool ended)
{
	struct srv_conn *c = s->conns[idx];

	close(c->fd);
	free(c);
	s->conns[idx] = s->conns[--s->nconns];
	if (ended)
		s->ended++;
}

/* Take one waiting channel; -1 when the listener failed. */
static int accept_new(struct srv *s)
{
	struct rdmachan_chan_info ci;
	struct sockaddr_storage peer;
	struct srv_conn *c;
	int fd, fl;

	fd = chan_accept_one(s->lfd, &peer);
	if (fd < 0)
		return (errno == EAGAIN || errno == EINTR) ? 0 : -1;
	/* poll says when to receive; sends may wait for credits */
	fl = fcntl(fd, F_GETFL);
	if (fl >= 0)
		fcntl(fd, F_SETFL, fl & ~O_NONBLOCK);
	s->accepted++;
	if (s->nconns == SRV_MAX_CONNS) {
		tool_err("more than %d channels: refusing one", SRV_MAX_CONNS);
		goto refuse;
	}
	c = calloc(1, s->ops->conn_size);
	if (!c || chan_get_info(fd, &ci)) {
		tool_err("cannot serve a channel: out of memory or no channel info");
		free(c);
		goto refuse;
	}
	c->fd = fd;
	c->id = ci.id;
	c->max_msg = ci.max_msg_size ? ci.max_msg_size : 1;
	format_addr(&peer, c->peer, sizeof(c->peer));
	if (s->ops->init && s->ops->init(s, c)) {
		tool_err("cannot serve a channel: out of memory");
		free(c);
		goto refuse;
	}
	s->conns[s->nconns++] = c;
	if (s->ops->start)
		s->ops->start(s, s->nconns - 1);
	return 0;

refuse:
	close(fd);
	s->ended++;
	return 0;
}

static int serve(struct srv *s)
{
	struct pollfd pfd[SRV_MAX_CONNS + 1];
	unsigned int i, n;
	int timeout;

	while (!tool_interrupted) {
		timeout = s->ops->tick ? s->ops->tick(s) : -1;
		if (s->max_conns && s->ended >= s->max_conns)
			break;
		n = 0;
		pfd[n].fd = !s->max_conns || s->accepted < s->max_conns ? s->lfd : -1;
		pfd[n++].events = POLLIN;
		for (i = 0; i < s->nconns; i++) {
			pfd[n].fd = s->conns[i]->fd;
			pfd[n++].events = s->ops->events ?
				s->ops->events(s, s->conns[i]) : POLLIN;
		}
		if (poll(pfd, n, timeout) < 0) {
			if (errno == EINTR)
				continue;
			tool_err("poll: %s", strerror(errno));
			return EXIT_FAIL;
		}
		if (pfd[0].revents & (POLLERR | POLLHUP | POLLNVAL)) {
			tool_err("listener failed (RDMA device removed?)");
			return EXIT_FAIL;
		}
		/* Walk backwards: ending a channel moves the last into its hole. */
		for (i = n - 1; i >= 1; i--) {
			unsigned int idx = i - 1;

			if (idx < s->nconns && s->conns[idx]->fd == pfd[i].fd &&
			    pfd[i].revents)
				s->ops->ready(s, idx, pfd[i].revents);
		}
		if ((pfd[0].revents & POLLIN) && accept_new(s))
			return EXIT_FAIL;
	}
	return EXIT_OK;
}

int srv_run(struct srv *s, const char *addr, const struct chan_args *a)
{
	struct sockaddr_storage ss;
	char buf[64];
	int ctl, ret;

	if (parse_listen_addr(addr, TOOL_DEFAULT_PORT, &ss))
		return tool_usage_err(s->cmd, "'%s' is not ADDR[:PORT]", addr);
	ctl = ctl_open();
	if (ctl < 0)
		return EXIT_FAIL;
	s->lfd = chan_listen_on(ctl, &ss, a);
	close(ctl);
	if (s->lfd < 0)
		return EXIT_FAIL;
	/* accept never waits: a connection may vanish before its accept */
	fcntl(s->lfd, F_SETFL, fcntl(s->lfd, F_GETFL) | O_NONBLOCK);
	format_addr(&ss, buf, sizeof(buf));
	open_record(stderr);
	print_str(PRINT_JSON, "event", NULL, "listening");
	print_str(PRINT_ANY, "addr", "listening on %s\n", buf);
	close_record();
	catch_signals(true);
	ret = serve(s);
	if (s->ops->stop)
		s->ops->stop(s);
	while (s->nconns)
		s->ops->end(s, s->nconns - 1, "closed", 0);
	close(s->lfd);
	if (s->ops->finish)
		s->ops->finish(s);
	return ret;
}
