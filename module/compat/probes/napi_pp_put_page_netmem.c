// SPDX-License-Identifier: GPL-2.0-only
/*
 * RDMACHAN_HAVE_NAPI_PP_PUT_PAGE_NETMEM: a page of a page pool goes back
 * to its pool with napi_pp_put_page(netmem_ref) (<linux/skbuff_ref.h>);
 * page_pool_return_skb_page(struct page *) is gone.
 * Renamed napi_pp_put_page() in 6.6 (with the page_pool header split),
 * taking a netmem_ref in 6.11 ("page_pool: convert to use netmem").  The
 * forms in between (6.6-6.10, a struct page) are not supported.
 */
#include <linux/skbuff.h>
#include <linux/skbuff_ref.h>
#include <net/netmem.h>

bool rdmachan_probe(struct page *page);
bool rdmachan_probe(struct page *page)
{
	return napi_pp_put_page(page_to_netmem(page));
}
