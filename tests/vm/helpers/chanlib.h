/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * chanlib.h: what the in-VM test helpers share: their KTAP reporting
 * (ktap.h), the tool's channel ioctls (userspace-tool/ioc.h, linked in:
 * ioc_chan_info, ioc_reg_mr, ...) and what the helpers add to them: the
 * fixture's two addresses, a connected pair, one message.
 */
#ifndef RDMACHAN_TEST_CHANLIB_H
#define RDMACHAN_TEST_CHANLIB_H

#include <arpa/inet.h>
#include <dirent.h>
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

#include "ioc.h"
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

/* /sys/module/rdmachan/parameters/@name as a number, -1 if unreadable */
static inline long module_param(const char *name)
{
	char path[128], buf[32];
	long v = -1;
	FILE *f;

	snprintf(path, sizeof(path), "/sys/module/rdmachan/parameters/%s", name);
	f = fopen(path, "r");
	if (f) {
		if (fgets(buf, sizeof(buf), f))
			v = strtol(buf, NULL, 0);
		fclose(f);
	}
	return v;
}

/* module_param_set: write @v to parameter @name; 0, or -1 with errno */
static inline int module_param_set(const char *name, long v)
{
	char path[128];
	FILE *f;
	int ok;

	snprintf(path, sizeof(path), "/sys/module/rdmachan/parameters/%s", name);
	f = fopen(path, "w");
	if (!f)
		return -1;
	ok = fprintf(f, "%ld\n", v) > 0;
	return fclose(f) || !ok ? -1 : 0;
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

/*
 * chan_listen, chan_connect: the tool's ioc_listen and ioc_connect
 * (userspace-tool/ioc.c) on the fixture's IPv4 addresses; @bound_port
 * gets the port the listener bound (for port 0; 0 when it failed).  The
 * ioctl's return.
 */
static inline int chan_listen(int ctl, const char *ip, int port,
			      const struct rdmachan_chan_opts *opts,
			      unsigned int flags, int *bound_port)
{
	struct __kernel_sockaddr_storage addr;
	int fd;

	set_in4(&addr, ip, port);
	fd = ioc_listen(ctl, &addr, opts, flags);
	if (bound_port)
		*bound_port = fd >= 0 ?
			ntohs(((struct sockaddr_in *)&addr)->sin_port) : 0;
	return fd;
}

static inline int chan_connect(int ctl, const char *ip, int port,
			       const char *src_ip,
			       const struct rdmachan_chan_opts *opts,
			       unsigned int flags)
{
	struct __kernel_sockaddr_storage dst, src;

	set_in4(&dst, ip, port);
	set_in4(&src, src_ip, 0);
	return ioc_connect(ctl, &dst, &src, opts, flags);
}

static inline int chan_accept(int lfd, unsigned int flags)
{
	return ioc_accept(lfd, flags, NULL);
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
	if (ioc_chan_info(p->cli, &p->info))
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

/*
 * rdma_counters_diag: after a failed check, the non-zero port counters of
 * every RDMA device, one "# " line each (sequence errors, retries, RNR:
 * what the transport saw).
 */
static inline void rdma_counters_diag(void)
{
	static const char cls[] = "/sys/class/infiniband";
	char path[512], line[1024], val[32];
	struct dirent *dev, *cnt;
	DIR *dd, *cd;

	dd = opendir(cls);
	if (!dd)
		return;
	while ((dev = readdir(dd))) {
		size_t n = 0;

		if (dev->d_name[0] == '.')
			continue;
		snprintf(path, sizeof(path), "%s/%s/ports/1/hw_counters",
			 cls, dev->d_name);
		cd = opendir(path);
		if (!cd)
			continue;
		line[0] = 0;
		while ((cnt = readdir(cd))) {
			char f[768];
			FILE *fp;

			if (cnt->d_name[0] == '.')
				continue;
			snprintf(f, sizeof(f), "%s/%s", path, cnt->d_name);
			fp = fopen(f, "r");
			if (!fp)
				continue;
			if (fgets(val, sizeof(val), fp) && strtoull(val, NULL, 10) &&
			    n < sizeof(line))
				n += snprintf(line + n, sizeof(line) - n, " %s=%llu",
					      cnt->d_name, strtoull(val, NULL, 10));
			fclose(fp);
		}
		closedir(cd);
		ktap_diag("%s counters:%s", dev->d_name, line[0] ? line : " all 0");
	}
	closedir(dd);
}

/* klog_diag: the last @n kernel log lines that match @re, as "# " lines */
static inline void klog_diag(const char *re, int n)
{
	char cmd[256], line[512];
	FILE *fp;

	snprintf(cmd, sizeof(cmd), "dmesg | grep -E '%s' | tail -n %d", re, n);
	fp = popen(cmd, "r");
	if (!fp)
		return;
	while (fgets(line, sizeof(line), fp)) {
		line[strcspn(line, "\n")] = 0;
		ktap_diag("%s", line);
	}
	pclose(fp);
}

#endif /* RDMACHAN_TEST_CHANLIB_H */
