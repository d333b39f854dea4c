// SPDX-License-Identifier: GPL-2.0-only
/*
 * util.c: argument parsing and value formatting for the rdmachan tool.
 * Pure functions without I/O, covered by test_util.c.
 */
#include <arpa/inet.h>
#include <ctype.h>
#include <errno.h>
#include <inttypes.h>
#include <limits.h>
#include <netinet/in.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tool.h"

/*
 * parse_uint: a decimal (or 0x hex) integer in [min, max] with nothing
 * after it.  Returns 0, or -EINVAL (not a number) / -ERANGE.
 */
int parse_uint(const char *s, uint64_t min, uint64_t max, uint64_t *out)
{
	unsigned long long v;
	char *end;

	if (!s || !*s || *s == '-' || *s == '+' || isspace((unsigned char)*s))
		return -EINVAL;
	errno = 0;
	v = strtoull(s, &end, 0);
	if (errno == ERANGE)
		return -ERANGE;
	if (end == s || *end)
		return -EINVAL;
	if (v < min || v > max)
		return -ERANGE;
	*out = v;
	return 0;
}

/*
 * parse_size: like parse_uint, with an optional binary suffix k, m or g
 * (KiB, MiB, GiB; upper or lower case, optionally followed by "b"/"B"
 * or "iB").
 */
int parse_size(const char *s, uint64_t min, uint64_t max, uint64_t *out)
{
	unsigned long long v;
	unsigned int shift = 0;
	char *end;

	if (!s || !isdigit((unsigned char)*s))
		return -EINVAL;
	errno = 0;
	v = strtoull(s, &end, 10);
	if (errno == ERANGE)
		return -ERANGE;
	switch (*end) {
	case 'k': case 'K':
		shift = 10;
		break;
	case 'm': case 'M':
		shift = 20;
		break;
	case 'g': case 'G':
		shift = 30;
		break;
	case '\0':
		break;
	default:
		return -EINVAL;
	}
	if (shift) {
		end++;
		if (!strcmp(end, "iB") || !strcmp(end, "B") || !strcmp(end, "b"))
			end += strlen(end);
	}
	if (*end)
		return -EINVAL;
	if (v > (ULLONG_MAX >> shift))
		return -ERANGE;
	v <<= shift;
	if (v < min || v > max)
		return -ERANGE;
	*out = v;
	return 0;
}

/*
 * parse_duration_ms: "N" or "Ns" seconds, "Nms" milliseconds, "Nm"
 * minutes, into milliseconds (at most 24 hours).
 */
int parse_duration_ms(const char *s, uint64_t *out)
{
	unsigned long long v;
	uint64_t mult;
	char *end;

	if (!s || !isdigit((unsigned char)*s))
		return -EINVAL;
	errno = 0;
	v = strtoull(s, &end, 10);
	if (errno == ERANGE)
		return -ERANGE;
	if (!*end || !strcmp(end, "s"))
		mult = 1000;
	else if (!strcmp(end, "ms"))
		mult = 1;
	else if (!strcmp(end, "m"))
		mult = 60000;
	else
		return -EINVAL;
	if (v > 86400000ULL / mult)
		return -ERANGE;
	*out = v * mult;
	return 0;
}

static int parse_addr_min(const char *s, int default_port,
			  struct sockaddr_storage *ss, uint64_t min_port);

/*
 * parse_addr: "IPv4", "IPv4:PORT", "IPv6", "[IPv6]" or "[IPv6]:PORT"
 * into @ss; without a port, @default_port.  Port 0 is refused (an address
 * to connect to).  Returns 0 or -EINVAL.
 */
int parse_addr(const char *s, int default_port, struct sockaddr_storage *ss)
{
	return parse_addr_min(s, default_port, ss, 1);
}

/*
 * parse_listen_addr: parse_addr() for an address to listen on, where
 * port 0 asks the kernel for any free port.
 */
int parse_listen_addr(const char *s, int default_port,
		      struct sockaddr_storage *ss)
{
	return parse_addr_min(s, default_port, ss, 0);
}

static int parse_addr_min(const char *s, int default_port,
			  struct sockaddr_storage *ss, uint64_t min_port)
{
	char host[INET6_ADDRSTRLEN + 2];
	const char *port = NULL, *colon;
	uint64_t p = default_port;
	size_t n;

	memset(ss, 0, sizeof(*ss));
	if (!s || !*s)
		return -EINVAL;
	if (*s == '[') {
		const char *close = strchr(s, ']');

		if (!close)
			return -EINVAL;
		n = close - s - 1;
		if (close[1] == ':')
			port = close + 2;
		else if (close[1])
			return -EINVAL;
		s++;
	} else {
		colon = strchr(s, ':');
		if (colon && !strchr(colon + 1, ':')) {
			n = colon - s;		/* exactly one ':': IPv4:PORT */
			port = colon + 1;
		} else {
			n = strlen(s);		/* none, or an IPv6 address */
		}
	}
	if (n == 0 || n >= sizeof(host))
		return -EINVAL;
	memcpy(host, s, n);
	host[n] = '\0';
	if (port && parse_uint(port, min_port, 65535, &p))
		return -EINVAL;

	if (inet_pton(AF_INET, host, &((struct sockaddr_in *)ss)->sin_addr) == 1) {
		struct sockaddr_in *sin = (struct sockaddr_in *)ss;

		sin->sin_family = AF_INET;
		sin->sin_port = htons(p);
		return 0;
	}
	if (inet_pton(AF_INET6, host, &((struct sockaddr_in6 *)ss)->sin6_addr) == 1) {
		struct sockaddr_in6 *sin6 = (struct sockaddr_in6 *)ss;

		sin6->sin6_family = AF_INET6;
		sin6->sin6_port = htons(p);
		return 0;
	}
	memset(ss, 0, sizeof(*ss));
	return -EINVAL;
}

/* format_addr: "A.B.C.D:PORT", "[IPv6]:PORT" or "-" for AF_UNSPEC. */
void format_addr(const void *addr, char *buf, size_t len)
{
	const struct sockaddr_storage *ss = addr;
	char host[INET6_ADDRSTRLEN];

	if (ss->ss_family == AF_INET) {
		const struct sockaddr_in *sin = addr;

		inet_ntop(AF_INET, &sin->sin_addr, host, sizeof(host));
		snprintf(buf, len, "%s:%u", host, ntohs(sin->sin_port));
	} else if (ss->ss_family == AF_INET6) {
		const struct sockaddr_in6 *sin6 = addr;

		inet_ntop(AF_INET6, &sin6->sin6_addr, host, sizeof(host));
		snprintf(buf, len, "[%s]:%u", host, ntohs(sin6->sin6_port));
	} else {
		snprintf(buf, len, "-");
	}
}

/* format_guid: "xxxx:xxxx:xxxx:xxxx", as ibv_devinfo prints a GUID. */
void format_guid(uint64_t guid, char *buf, size_t len)
{
	snprintf(buf, len, "%04x:%04x:%04x:%04x",
		 (unsigned int)(guid >> 48) & 0xffff,
		 (unsigned int)(guid >> 32) & 0xffff,
		 (unsigned int)(guid >> 16) & 0xffff,
		 (unsigned int)guid & 0xffff);
}

/* format_gid: all eight groups, zero-padded: "fe80:0000:...:xxxx". */
void format_gid(const uint8_t gid[16], char *buf, size_t len)
{
	size_t off = 0;
	int i;

	for (i = 0; i < 8 && off < len; i++)
		off += snprintf(buf + off, len - off, "%s%02x%02x", i ? ":" : "",
				gid[2 * i], gid[2 * i + 1]);
}

#define NAME(table, i) ((i) < sizeof(table) / sizeof(table[0]) && table[i] ? \
			table[i] : "unknown")

const char *port_state_name(unsigned int state)
{
	static const char *const names[] = {
		"NOP", "DOWN", "INIT", "ARMED", "ACTIVE", "ACTIVE_DEFER",
	};

	return NAME(names, state);
}

const char *phys_state_name(unsigned int state)
{
	static const char *const names[] = {
		[1] = "SLEEP", [2] = "POLLING", [3] = "DISABLED",
		[4] = "PORT_CONFIGURATION_TRAINING", [5] = "LINK_UP",
		[6] = "LINK_ERROR_RECOVERY", [7] = "PHY_TEST",
	};

	return NAME(names, state);
}

const char *node_type_name(unsigned int type)
{
	static const char *const names[] = {
		"unknown", "ca", "switch", "router", "rnic", "usnic",
		"usnic_udp", "unspecified",
	};

	return NAME(names, type);
}

const char *link_layer_name(unsigned int ll)
{
	static const char *const names[] = {
		"Unspecified", "InfiniBand", "Ethernet",
	};

	return NAME(names, ll);
}

const char *protocol_name(unsigned int proto)
{
	static const char *const names[] = {
		"unknown", "ib", "roce", "iw", "usnic",
	};

	return NAME(names, proto);
}

const char *atomic_cap_name(unsigned int cap)
{
	static const char *const names[] = { "none", "hca", "glob" };

	return NAME(names, cap);
}

const char *chan_state_name(unsigned int state)
{
	static const char *const names[] = {
		"connecting", "connected", "disconnected", "failed",
	};

	return NAME(names, state);
}

static const char *const poll_mode_names[] = {
	"softirq", "workqueue", "direct", "solicited",
};

const char *poll_mode_name(unsigned int mode)
{
	return NAME(poll_mode_names, mode);
}

/* parse_poll_mode: enum rdmachan_chan_poll of a name, or -1. */
int parse_poll_mode(const char *s)
{
	unsigned int i;

	for (i = 0; i < sizeof(poll_mode_names) / sizeof(poll_mode_names[0]); i++)
		if (!strcmp(s, poll_mode_names[i]))
			return i;
	return -1;
}

/* speed_gbps: per-lane rate of an IB speed code, 0 when unknown. */
double speed_gbps(unsigned int speed)
{
	switch (speed) {
	case 1: return 2.5;
	case 2: return 5.0;
	case 4: return 10.0;
	case 8: return 10.3125;	/* FDR10 */
	case 16: return 14.0625;
	case 32: return 25.78125;
	case 64: return 53.125;
	case 128: return 106.25;
	default: return 0;
	}
}

/* width_lanes: lanes of an IB width code, 0 when unknown. */
unsigned int width_lanes(unsigned int width)
{
	switch (width) {
	case 1: return 1;
	case 2: return 4;
	case 4: return 8;
	case 8: return 12;
	case 16: return 2;
	default: return 0;
	}
}

/*
 * percentile: the nearest-rank @p-th percentile (0 < p <= 100) of
 * @n ascending values; 0 when @n is 0.
 */
double percentile(const double *sorted, size_t n, double p)
{
	size_t rank;

	if (!n)
		return 0;
	if (p <= 0)
		return sorted[0];
	rank = (size_t)((p / 100.0) * n + 0.999999999);
	if (rank < 1)
		rank = 1;
	if (rank > n)
		rank = n;
	return sorted[rank - 1];
}
