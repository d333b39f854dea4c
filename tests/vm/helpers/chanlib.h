/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * chanlib.h: what the in-VM test helpers share: their KTAP reporting
 * (ktap.h) and the channel ioctls, for the fixture's two addresses.
 */
#ifndef RDMACHAN_TEST_CHANLIB_H
#define RDMACHAN_TEST_CHANLIB_H

#include <arpa/inet.h>
#include <errno.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <unistd.h>

#include <linux/rdmachan.h>

#include "ktap.h"

static inline int ctl_open(void)
{
	int fd = open("/dev/" RDMACHAN_DEVICE_NAME, O_RDWR | O_CLOEXEC);

	if (fd < 0) {
		perror("open /dev/" RDMACHAN_DEVICE_NAME);
		exit(1);
	}
	return fd;
}

/* set_in4: fill @ss with IPv4 address @ip (NULL: AF_UNSPEC) and @port. */
static inline void set_in4(struct __kernel_sockaddr_storage *ss,
			   const char *ip, int port)
{
	struct sockaddr_in *sin = (struct sockaddr_in *)ss;

	memset(ss, 0, sizeof(*ss));
	if (!ip)
		return;
	sin->sin_family = AF_INET;
	sin->sin_port = htons(port);
	if (inet_pton(AF_INET, ip, &sin->sin_addr) != 1) {
		fprintf(stderr, "bad IPv4 address %s\n", ip);
		exit(2);
	}
}

static inline int chan_listen(int ctl, const char *ip, int port,
			      const struct rdmachan_chan_opts *opts,
			      unsigned int flags, int *bound_port)
{
	struct rdmachan_listen l;
	int fd;

	memset(&l, 0, sizeof(l));
	l.size = sizeof(l);
	l.flags = flags;
	if (opts)
		l.opts = *opts;
	set_in4(&l.addr, ip, port);
	fd = ioctl(ctl, RDMACHAN_IOC_LISTEN, &l);
	if (fd >= 0 && bound_port)
		*bound_port = ntohs(((struct sockaddr_in *)&l.addr)->sin_port);
	return fd;
}

static inline int chan_connect(int ctl, const char *ip, int port,
			       const char *src_ip,
			       const struct rdmachan_chan_opts *opts,
			       unsigned int flags)
{
	struct rdmachan_connect c;

	memset(&c, 0, sizeof(c));
	c.size = sizeof(c);
	c.flags = flags;
	if (opts)
		c.opts = *opts;
	set_in4(&c.dst, ip, port);
	set_in4(&c.src, src_ip, 0);
	return ioctl(ctl, RDMACHAN_IOC_CONNECT, &c);
}

static inline int chan_accept(int lfd, unsigned int flags)
{
	struct rdmachan_accept a;

	memset(&a, 0, sizeof(a));
	a.size = sizeof(a);
	a.flags = flags;
	return ioctl(lfd, RDMACHAN_IOC_ACCEPT, &a);
}

static inline int chan_info(int fd, struct rdmachan_chan_info *ci)
{
	memset(ci, 0, sizeof(*ci));
	ci->size = sizeof(*ci);
	return ioctl(fd, RDMACHAN_IOC_CHAN_INFO, ci) < 0 ? -1 : 0;
}

/* The fixture's two ends: the server's and the client's address */
#define CHAN_SRV_IP	"192.0.2.1"
#define CHAN_CLI_IP	"192.0.2.2"

/*
 * struct chan_pair: a listener on CHAN_SRV_IP, a channel connected to it
 * from CHAN_CLI_IP, and the server's end of that channel
 */
struct chan_pair {
	int lfd, srv, cli, port;
	struct rdmachan_chan_info info;	/* the client's, once connected */
	const char *failed;		/* the step that failed */
};

/*
 * chan_pair_open: listen with @srv_opts (the accepted end gets them),
 * connect with @cli_opts, accept.  0, or -1 with errno and p->failed.
 */
static inline int chan_pair_open(int ctl, struct chan_pair *p,
				 const struct rdmachan_chan_opts *srv_opts,
				 const struct rdmachan_chan_opts *cli_opts)
{
	memset(p, 0, sizeof(*p));
	p->srv = p->cli = -1;
	p->failed = "listen";
	p->lfd = chan_listen(ctl, CHAN_SRV_IP, 0, srv_opts, 0, &p->port);
	if (p->lfd < 0)
		return -1;
	p->failed = "connect";
	p->cli = chan_connect(ctl, CHAN_SRV_IP, p->port, CHAN_CLI_IP,
			      cli_opts, 0);
	if (p->cli < 0)
		return -1;
	p->failed = "accept";
	p->srv = chan_accept(p->lfd, 0);
	if (p->srv < 0)
		return -1;
	p->failed = "CHAN_INFO";
	if (chan_info(p->cli, &p->info))
		return -1;
	p->failed = NULL;
	return 0;
}

static inline void chan_pair_close(struct chan_pair *p)
{
	if (p->cli >= 0)
		close(p->cli);
	if (p->srv >= 0)
		close(p->srv);
	if (p->lfd >= 0)
		close(p->lfd);
}

/* reg_mr: register @len bytes at @buf on channel @fd; the ioctl's return */
static inline int reg_mr(int fd, void *buf, uint64_t len, unsigned int access,
			 struct rdmachan_reg_mr *r)
{
	memset(r, 0, sizeof(*r));
	r->size = sizeof(*r);
	r->access = access;
	r->addr = (uintptr_t)buf;
	r->length = len;
	return ioctl(fd, RDMACHAN_IOC_REG_MR, r);
}

static inline int dereg_mr(int fd, uint32_t handle)
{
	struct rdmachan_dereg_mr d = { .size = sizeof(d), .handle = handle };

	return ioctl(fd, RDMACHAN_IOC_DEREG_MR, &d);
}

/* rdma_op_set: @op is @opcode on @nr segments @sg, at @remote + @roff */
static inline void rdma_op_set(struct rdmachan_rdma_op *op, uint32_t opcode,
			       struct rdmachan_sge *sg, uint32_t nr,
			       const struct rdmachan_reg_mr *remote,
			       uint64_t roff)
{
	memset(op, 0, sizeof(*op));
	op->opcode = opcode;
	op->sgl = (uintptr_t)sg;
	op->nr_sge = nr;
	op->remote_addr = remote->remote.addr + roff;
	op->rkey = remote->remote.rkey;
}

/* chan_send_imm: send one message with immediate @imm; 0 or -1/errno. */
static inline int chan_send_imm(int fd, const void *buf, unsigned int len,
				uint32_t imm, int dontwait)
{
	struct rdmachan_user_msg m = {
		.buf = (uintptr_t)buf, .len = len, .imm = imm,
		.flags = RDMACHAN_MSG_IMM,
	};
	struct rdmachan_mmsg mm = {
		.size = sizeof(mm), .msgs = (uintptr_t)&m, .count = 1,
		.flags = dontwait ? RDMACHAN_MSG_DONTWAIT : 0,
	};

	return ioctl(fd, RDMACHAN_IOC_SEND, &mm) < 0 ? -1 : 0;
}

/*
 * chan_recv_msg: receive one message into @buf (@room bytes); returns its
 * length, its immediate in @imm when @has_imm is set, or -1/errno.
 */
static inline int chan_recv_msg(int fd, void *buf, unsigned int room,
				unsigned int *imm, int *has_imm, int dontwait)
{
	struct rdmachan_user_msg m = { .buf = (uintptr_t)buf, .len = room };
	struct rdmachan_mmsg mm = {
		.size = sizeof(mm), .msgs = (uintptr_t)&m, .count = 1,
		.flags = dontwait ? RDMACHAN_MSG_DONTWAIT : 0,
	};

	if (ioctl(fd, RDMACHAN_IOC_RECV, &mm) < 0)
		return -1;
	*has_imm = !!(m.flags & RDMACHAN_MSG_IMM);
	*imm = m.imm;
	return m.len;
}

#endif /* RDMACHAN_TEST_CHANLIB_H */
