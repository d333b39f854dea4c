// SPDX-License-Identifier: GPL-2.0-only
/*
 * RDMACHAN_HAVE_BDEV_FILE_OPEN_BY_PATH: a block device is opened as a
 * struct file (bdev_file_open_by_path(), file_bdev(), fput()); a
 * non-NULL holder makes the open exclusive.  blkdev_get_by_path() and
 * blkdev_put() went in 6.8, FMODE_EXCL in 6.5.
 * Linux 6.9: "bdev: open block device as files".
 */
#include <linux/blkdev.h>
#include <linux/fs.h>

struct block_device *rdmachan_probe(const char *path, void *holder);
struct block_device *rdmachan_probe(const char *path, void *holder)
{
	struct file *file;

	file = bdev_file_open_by_path(path, BLK_OPEN_READ | BLK_OPEN_WRITE,
				      holder, NULL);
	return IS_ERR(file) ? NULL : file_bdev(file);
}
