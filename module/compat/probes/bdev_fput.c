// SPDX-License-Identifier: GPL-2.0-only
/*
 * RDMACHAN_HAVE_BDEV_FPUT: bdev_fput() closes a block device opened as a
 * file and ends its exclusive claim at once; a plain fput() from a
 * kernel thread ends it only when the delayed fput runs, so that an
 * immediate exclusive open of the same device may fail with -EBUSY.
 * Linux 6.9 (merged for -rc3): "fs,block: yield devices early".
 */
#include <linux/blkdev.h>

void rdmachan_probe(struct file *file);
void rdmachan_probe(struct file *file)
{
	bdev_fput(file);
}
