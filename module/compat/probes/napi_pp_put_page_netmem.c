// SPDX-License-Identifier: GPL-2.0-only
/*
 * RDMACHAN_HAVE_NAPI_PP_PUT_PAGE_NETMEM: a page of a page pool goes back
 * to its pool with napi_pp_put_page(netmem_ref) (<linux/skbuff_ref.h>);
 * page_pool_return_skb_page(struct page *) is gone.
 * Renamed napi_pp_put_page() in 6.7 ("net: skbuff: always try to recycle
 * PP pages directly when in softirq"), taking a netmem_ref by 6.12 (the
 * netmem conversion of skb fragments).  The forms in between (6.7-6.11)
 * are not supported.
 */
#include <linux/skbuff.h>
#include <linux/skbuff_ref.h>
#include <net/netmem.h>

bool rdmachan_probe(struct page *page);
bool rdmachan_probe(struct page *page)
{
	return napi_pp_put_page(page_to_netmem(page));
}
