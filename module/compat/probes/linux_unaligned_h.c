// SPDX-License-Identifier: GPL-2.0-only
/*
 * RDMACHAN_HAVE_LINUX_UNALIGNED_H: <asm/unaligned.h> became
 * <linux/unaligned.h>.
 * Linux 6.12: "move asm/unaligned.h to linux/unaligned.h".
 */
#include <linux/unaligned.h>

u32 rdmachan_probe(const void *p);
u32 rdmachan_probe(const void *p)
{
	return get_unaligned_be32(p);
}
