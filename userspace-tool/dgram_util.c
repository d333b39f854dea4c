// SPDX-License-Identifier: GPL-2.0-only
/*
 * dgram_util.c: what the "dgram" commands parse and format, and their
 * payload pattern: pure functions without I/O, covered by test_dgram.c.
 */
#include <arpa/inet.h>
#include <errno.h>
#include <inttypes.h>
#include <netinet/in.h>
#include <stdio.h>
#include <string.h>

#include "dgram.h"

unsigned int dgram_open_flags(const struct dgram_args *a, unsigned int flags)
{
	return flags | (a->busy ? RDMACHAN_DGRAM_BUSY_POLL : 0);
}

void dgram_args_init(struct dgram_args *a)
{
	memset(a, 0, sizeof(*a));
	a->count = 1;
	a->size = DGRAM_DEFAULT_SIZE;
	a->burst = 1;
	a->wait_ms = DGRAM_DEFAULT_WAIT_MS;
}

int dgram_opt(int c, const char *arg, struct dgram_args *a)
{
	uint64_t v;

	switch (c) {
	case 'c':
		if (parse_uint(arg, 0, UINT32_MAX, &a->count))
			return -EINVAL;
		a->has_count = true;
		return 0;
	case 's':
		if (parse_size(arg, 0, 1U << 20, &a->size))
			return -EINVAL;
		a->has_size = true;
		return 0;
	case 'b':
		return parse_uint(arg, 1, RDMACHAN_DGRAM_MAX_BATCH, &a->burst) ?
		       -EINVAL : 0;
	case 'I':
		return parse_listen_addr(arg, 0, &a->src) ? -EINVAL : 0;
	case 'V':
		a->validate = true;
		return 0;
	case 'W':
		if (parse_duration_ms(arg, &v) || !v || v > DGRAM_MAX_WAIT_MS)
			return -EINVAL;
		a->wait_ms = v;
		a->has_wait = true;
		return 0;
	case 'd':
		return parse_uint(arg, 1, RDMACHAN_DGRAM_MAX_DEPTH, &a->depth) ?
		       -EINVAL : 0;
	case 'Q':
		/* a queue pair number has 24 bits; 0 and 1 are QP0 and QP1 */
		return parse_uint(arg, 2, 0xffffff, &a->qpn) ? -EINVAL : 0;
	case 't':
		if (parse_duration_ms(arg, &v) || !v || v > DGRAM_MAX_WAIT_MS)
			return -EINVAL;
		a->time_ms = v;
		return 0;
	case 'k':
		a->kernel = true;
		return 0;
	case 'S':
		a->sink = true;
		return 0;
	case 'P':
		a->busy = true;
		return 0;
	case 'O':
		if (!strcmp(arg, "blast"))
			a->op = DGRAM_BENCH_BLAST;
		else if (!strcmp(arg, "pingpong"))
			a->op = DGRAM_BENCH_PINGPONG;
		else
			return -EINVAL;
		return 0;
	default:
		return -EINVAL;
	}
}

bool addr_is_any(const struct sockaddr_storage *ss)
{
	const struct sockaddr_in *sin = (const struct sockaddr_in *)ss;
	const struct sockaddr_in6 *sin6 = (const struct sockaddr_in6 *)ss;

	if (ss->ss_family == AF_INET)
		return sin->sin_addr.s_addr == htonl(INADDR_ANY);
	if (ss->ss_family == AF_INET6)
		return IN6_IS_ADDR_UNSPECIFIED(&sin6->sin6_addr);
	return false;
}

bool addr_is_multicast(const struct sockaddr_storage *ss)
{
	const struct sockaddr_in *sin = (const struct sockaddr_in *)ss;
	const struct sockaddr_in6 *sin6 = (const struct sockaddr_in6 *)ss;

	if (ss->ss_family == AF_INET)
		return IN_MULTICAST(ntohl(sin->sin_addr.s_addr));
	if (ss->ss_family == AF_INET6)
		return IN6_IS_ADDR_MULTICAST(&sin6->sin6_addr);
	return false;
}

const char *dgram_check(const struct dgram_args *a, unsigned int mask)
{
	bool group = addr_is_multicast(&a->addr);

	/* a group is joined from -I SRC; a served port has no -I */
	if ((mask & DGRAM_OPT_GROUP) && !group) {
		if (a->src.ss_family != AF_UNSPEC)
			return "-I SRC is for a multicast group";
		mask &= ~DGRAM_OPT_SRC;
	}
	if ((mask & DGRAM_OPT_GROUP) && group)
		mask &= ~DGRAM_OPT_SERVE;
	if ((mask & DGRAM_OPT_SERVE) && addr_is_any(&a->addr))
		return "ADDR is the local address to serve, not a wildcard";
	if ((mask & DGRAM_OPT_QPN) && group && a->qpn)
		return "--qpn: a group's queue pair is the multicast one";
	if (mask & DGRAM_OPT_SRC) {
		if (a->src.ss_family == AF_UNSPEC)
			return "-I SRC, the local address, is needed";
		if (addr_is_any(&a->src))
			return "-I SRC is a local address, not a wildcard";
		if (a->src.ss_family != a->addr.ss_family)
			return "ADDR and -I SRC are of different families";
	}
	if ((mask & DGRAM_OPT_DATA) && a->data && a->has_size)
		return "DATA or -s SIZE, not both";
	if ((mask & DGRAM_OPT_DATA) && !a->count)
		return "-c: at least 1 datagram";
	return NULL;
}

void format_host(const void *addr, char *buf, size_t len)
{
	const struct sockaddr_storage *ss = addr;

	if (ss->ss_family == AF_INET)
		inet_ntop(AF_INET, &((const struct sockaddr_in *)addr)->sin_addr,
			  buf, len);
	else if (ss->ss_family == AF_INET6)
		inet_ntop(AF_INET6, &((const struct sockaddr_in6 *)addr)->sin6_addr,
			  buf, len);
	else
		snprintf(buf, len, "-");
}

/* the escape of byte @c into @e (at most 5 bytes with the NUL) */
static void escape_byte(unsigned char c, char *e)
{
	switch (c) {
	case '\\':
		strcpy(e, "\\\\");
		break;
	case '\n':
		strcpy(e, "\\n");
		break;
	case '\r':
		strcpy(e, "\\r");
		break;
	case '\t':
		strcpy(e, "\\t");
		break;
	default:
		if (c >= 0x20 && c < 0x7f)
			snprintf(e, 5, "%c", c);
		else
			snprintf(e, 5, "\\x%02x", c);
	}
}

void format_escaped(const void *p, size_t n, size_t max, char *buf, size_t len)
{
	const unsigned char *b = p;
	size_t i, off = 0, k;
	char e[5];

	if (!len)
		return;
	buf[0] = '\0';
	for (i = 0; i < n && i < max; i++) {
		escape_byte(b[i], e);
		k = strlen(e);
		if (off + k >= len)
			return;
		memcpy(buf + off, e, k + 1);
		off += k;
	}
	if (n > max && off + 3 < len)
		memcpy(buf + off, "...", 4);
}

/* the letters of the pattern: 'A' to 'z', as rping's */
#define DGRAM_LETTER_FIRST	65
#define DGRAM_LETTER_LAST	122

void dgram_fill(void *buf, size_t size, uint64_t seq)
{
	unsigned char *b = buf;
	char hdr[48];
	size_t n, i;
	int c;

	n = snprintf(hdr, sizeof(hdr), DGRAM_PATTERN_PREFIX "%" PRIu64 ": ", seq);
	if (n > size)
		n = size;
	memcpy(b, hdr, n);
	c = DGRAM_LETTER_FIRST +
	    seq % (DGRAM_LETTER_LAST - DGRAM_LETTER_FIRST + 1);
	for (i = n; i < size; i++) {
		b[i] = c;
		if (++c > DGRAM_LETTER_LAST)
			c = DGRAM_LETTER_FIRST;
	}
}

int dgram_seq(const void *buf, size_t len, uint64_t *seq)
{
	const size_t plen = sizeof(DGRAM_PATTERN_PREFIX) - 1;
	const char *b = buf;
	uint64_t v = 0;
	size_t i;

	if (len < plen + 3 || memcmp(b, DGRAM_PATTERN_PREFIX, plen))
		return -EINVAL;
	for (i = plen; i < len && b[i] >= '0' && b[i] <= '9'; i++) {
		if (i - plen >= 20 || (i > plen && v == 0))
			return -EINVAL;	/* too long, or a leading zero */
		if (v > (UINT64_MAX - (b[i] - '0')) / 10)
			return -EINVAL;
		v = v * 10 + (b[i] - '0');
	}
	if (i == plen || i + 2 > len || b[i] != ':' || b[i + 1] != ' ')
		return -EINVAL;
	*seq = v;
	return 0;
}

int dgram_match(const void *buf, size_t len, const void *sent, size_t size,
		unsigned int n, uint64_t *seen)
{
	const unsigned char *s = sent;
	unsigned int i;

	if (len != size)
		return -1;
	for (i = 0; i < n && i < 64; i++) {
		if ((*seen >> i) & 1)
			continue;
		if (!memcmp(buf, s + (size_t)i * size, size)) {
			*seen |= 1ULL << i;
			return i;
		}
	}
	return -1;
}
