// SPDX-License-Identifier: GPL-2.0-only
/*
 * ctl.c: the control device /dev/rdmachan: open with a helpful error,
 * and the device ioctls, with arrays sized as the kernel asks.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <unistd.h>

#include "tool.h"

int ctl_open(void)
{
	const char *path = tool.ctl_path;
	int fd = open(path, O_RDWR | O_CLOEXEC);

	if (fd >= 0)
		return fd;
	if (errno == ENOENT || errno == ENODEV || errno == ENXIO)
		tool_err("cannot open %s: %s (is rdmachan.ko loaded?)", path,
			 strerror(errno));
	else if (errno == EACCES || errno == EPERM)
		tool_err("cannot open %s: %s (root only unless the module's dev_mode allows it)",
			 path, strerror(errno));
	else
		tool_err("cannot open %s: %s", path, strerror(errno));
	return -1;
}

int ctl_version(int ctl, struct rdmachan_version *v)
{
	memset(v, 0, sizeof(*v));
	v->size = sizeof(*v);
	if (ioctl(ctl, RDMACHAN_IOC_VERSION, v) < 0) {
		tool_err("RDMACHAN_IOC_VERSION: %s", strerror(errno));
		return -1;
	}
	return 0;
}

/*
 * ctl_dev_list: every device rdmachan knows, in a malloc'ed array the
 * caller frees.  Devices may come and go between calls: retry until the
 * array was large enough.
 */
int ctl_dev_list(int ctl, struct rdmachan_dev_entry **entries, unsigned int *count)
{
	struct rdmachan_dev_entry *e = NULL;
	unsigned int cap = 8;

	for (;;) {
		struct rdmachan_dev_list l = { .size = sizeof(l) };
		struct rdmachan_dev_entry *n = realloc(e, cap * sizeof(*e));

		if (!n) {
			free(e);
			tool_err("out of memory");
			return -1;
		}
		e = n;
		memset(e, 0, cap * sizeof(*e));
		l.capacity = cap;
		l.entries = (uintptr_t)e;
		if (ioctl(ctl, RDMACHAN_IOC_DEV_LIST, &l) < 0) {
			tool_err("RDMACHAN_IOC_DEV_LIST: %s", strerror(errno));
			free(e);
			return -1;
		}
		if (l.count <= cap) {
			*entries = e;
			*count = l.count;
			return 0;
		}
		cap = l.count + 4;
	}
}

/*
 * ctl_dev_query: attributes of device @name and its ports (a malloc'ed
 * array of q->port_count the caller frees).  Sets errno and returns -1
 * without a message when the device does not exist (ENODEV).
 */
int ctl_dev_query(int ctl, const char *name, struct rdmachan_dev_query *q,
		  struct rdmachan_port_attr **ports)
{
	struct rdmachan_port_attr *p = NULL;
	unsigned int cap = 4;

	for (;;) {
		struct rdmachan_port_attr *n = realloc(p, cap * sizeof(*p));

		if (!n) {
			free(p);
			tool_err("out of memory");
			return -1;
		}
		p = n;
		memset(q, 0, sizeof(*q));
		memset(p, 0, cap * sizeof(*p));
		q->size = sizeof(*q);
		q->port_capacity = cap;
		q->ports = (uintptr_t)p;
		strncpy(q->name, name, sizeof(q->name) - 1);
		if (ioctl(ctl, RDMACHAN_IOC_DEV_QUERY, q) < 0) {
			int e = errno;

			free(p);
			errno = e;
			return -1;
		}
		if (q->port_count <= cap) {
			*ports = p;
			return 0;
		}
		cap = q->port_count;
	}
}
