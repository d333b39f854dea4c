/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * serve.h: the one server loop of the tool: listen on ADDR[:PORT],
 * accept channels and serve them all at once from one poll() until a
 * signal or the last of max_conns channels, for "chan listen", "chan
 * recv" and "mr reg".  What a channel gets is the command's (ops).
 */
#ifndef RDMACHAN_TOOL_SERVE_H
#define RDMACHAN_TOOL_SERVE_H

#include <sys/types.h>

#include "chan.h"

#define SRV_MAX_CONNS	1024

/* What every served channel has; first member of the command's own. */
struct srv_conn {
	int fd;
	unsigned int id;
	unsigned int max_msg;	/* the channel's, at least 1 */
	char peer[64];
};

struct srv;

struct srv_ops {
	size_t conn_size;	/* of the command's struct, a struct srv_conn first */
	/* a channel was accepted: its buffers; 0, or -1 (not served) */
	int (*init)(struct srv *s, struct srv_conn *c);
	/* after it joined s->conns[@idx]; may end it */
	void (*start)(struct srv *s, unsigned int idx);
	/* what to poll the channel for; NULL: POLLIN */
	short (*events)(const struct srv *s, const struct srv_conn *c);
	/* poll() said @revents (not 0) for s->conns[@idx]; may end it */
	void (*ready)(struct srv *s, unsigned int idx, short revents);
	/* end s->conns[@idx] (@what: "closed", "failed", ...), srv_drop() it */
	void (*end)(struct srv *s, unsigned int idx, const char *what, int err);
	/* optional: before each poll; returns its timeout (ms, -1: none) */
	int (*tick)(struct srv *s);
	/* optional: after the loop, before the channels left end */
	void (*stop)(struct srv *s);
	/* optional: after the last channel ended and the listener closed */
	void (*finish)(struct srv *s);
};

struct srv {
	const struct srv_ops *ops;
	const char *cmd;	/* for usage errors: "chan listen" */
	void *priv;		/* the command's */
	int lfd;
	uint64_t max_conns;	/* stop after this many channels ended; 0: never */
	uint64_t accepted, ended;
	struct srv_conn *conns[SRV_MAX_CONNS];
	unsigned int nconns;
};

/*
 * srv_run: listen on @addr (port 0: any free one, printed in the
 * "listening" event), serve until a signal (SIGINT, SIGTERM) or until
 * max_conns channels ended, end the channels left ("closed").  Returns
 * EXIT_OK, EXIT_FAIL, or EXIT_USAGE for a bad address (nothing printed
 * but the error, no ops->finish).
 */
int srv_run(struct srv *s, const char *addr, const struct chan_args *a);

/* srv_drop: remove s->conns[@idx], close and free it; count it ended. */
void srv_drop(struct srv *s, unsigned int idx, bool ended);

#endif /* RDMACHAN_TOOL_SERVE_H */
