/* SPDX-License-Identifier: GPL-2.0-only */
/* rdmachan_blk: RDMACHAN_IOC_BLK_* of /dev/rdmachan (blk_ioctl.c) */
#ifndef RCBLK_IOCTL_H
#define RCBLK_IOCTL_H

int rcblk_ioctl_init(void);
void rcblk_ioctl_exit(void);

#endif /* RCBLK_IOCTL_H */
