// SPDX-License-Identifier: GPL-2.0-only
/*
 * RDMACHAN_HAVE_PAGE_POOL_HELPERS_H: <net/page_pool.h> was split into
 * <net/page_pool/types.h> and <net/page_pool/helpers.h>.
 * Linux 6.6: "page_pool: split types and declarations from page_pool.h".
 */
#include <net/page_pool/helpers.h>

struct page *rdmachan_probe(struct page_pool *pool);
struct page *rdmachan_probe(struct page_pool *pool)
{
	return page_pool_alloc_pages(pool, GFP_KERNEL);
}
