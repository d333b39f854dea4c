/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * rdmachan: the /dev/rdmachan control device
 */
#ifndef RDMACHAN_CHARDEV_H
#define RDMACHAN_CHARDEV_H

int rdmachan_chardev_init(void);
void rdmachan_chardev_exit(void);

#endif /* RDMACHAN_CHARDEV_H */
