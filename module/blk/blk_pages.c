// SPDX-License-Identifier: GPL-2.0-only
/*
 * rdmachan_blk: pages of the module's own that RDMA reaches - the
 * server's slots (blk_srv_bio.c) and the client's staging pages
 * (blk_clt_stage.c) - with the scatterlist their registration is made
 * from
 */
#include <linux/gfp.h>
#include <linux/scatterlist.h>
#include <linux/slab.h>

#include "blk.h"

/**
 * rcblk_pages_free() - free what rcblk_pages_alloc() made
 * @p: the pages, no longer registered; zeroed on return
 *
 * Context: process context.
 */
void rcblk_pages_free(struct rcblk_pages *p)
{
	u32 i;

	for (i = 0; i < p->nr; i++)
		__free_page(p->pages[i]);
	kfree(p->pages);
	kfree(p->sgl);
	memset(p, 0, sizeof(*p));
}

/**
 * rcblk_pages_alloc() - allocate pages and their scatterlist
 * @p: zeroed; filled
 * @nr: pages, each a whole entry of the scatterlist; 0 for none
 *
 * Context: process context, sleeps.
 * Return: 0, or -ENOMEM with nothing left allocated.
 */
int rcblk_pages_alloc(struct rcblk_pages *p, u32 nr)
{
	if (!nr)
		return 0;
	p->pages = kcalloc(nr, sizeof(*p->pages), GFP_KERNEL);
	p->sgl = kcalloc(nr, sizeof(*p->sgl), GFP_KERNEL);
	if (!p->pages || !p->sgl)
		goto nomem;
	sg_init_table(p->sgl, nr);
	for (p->nr = 0; p->nr < nr; p->nr++) {
		p->pages[p->nr] = alloc_page(GFP_KERNEL);
		if (!p->pages[p->nr])
			goto nomem;
		sg_set_page(&p->sgl[p->nr], p->pages[p->nr], PAGE_SIZE, 0);
	}
	return 0;

nomem:
	rcblk_pages_free(p);
	return -ENOMEM;
}
