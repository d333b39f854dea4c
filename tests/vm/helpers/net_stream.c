// SPDX-License-Identifier: GPL-2.0-only
/*
 * net_stream: TCP streams of known bytes, checked at the far end, for the
 * network channel's cases (tests/vm/cases/net_*.sh).
 *
 *   net_stream server PORT FLOWS SECONDS
 *   net_stream client ADDR PORT FLOWS BYTES SECONDS [SEED [SRC]]
 *
 * Each client flow sends a 16-byte header (magic, flow seed, length)
 * then BYTES of an xorshift64* stream from its seed, and waits for the
 * server's answer: the number of bytes that matched and their FNV-1a
 * checksum.  The server accepts FLOWS connections, one process each,
 * compares every byte with the same generator, and answers.  Both print
 * one line per flow ("flow N: BYTES bytes, fnv1a HEX, ok"; the client
 * adds "in S s, R MB/s", from its connect to the server's answer), and
 * exit 0 when every flow arrived whole and equal.  SRC: the client's
 * source address (bind()), for a route that depends on it.  SECONDS bounds the whole
 * run (alarm): a stalled stream fails instead of hanging.  The flows'
 * processes die with the one that forked them (a test's kill).
 */
#include <arpa/inet.h>
#include <errno.h>
#include <netdb.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#define MAGIC	0x52434e54u	/* "RCNT" */
#define CHUNK	65536

/* the run's bound, for every process (alarm() is not inherited) */
static unsigned int secs;

struct hdr {
	uint32_t magic;
	uint32_t flow;
	uint64_t len;
};

struct answer {
	uint64_t matched;
	uint64_t fnv;
};

static uint64_t next64(uint64_t *s)
{
	uint64_t x = *s;

	x ^= x >> 12;
	x ^= x << 25;
	x ^= x >> 27;
	*s = x;
	return x * 0x2545F4914F6CDD1DULL;
}

/* the next @n bytes of a flow's stream (whole 8-byte words but at its end) */
static void gen(uint64_t *state, unsigned char *buf, size_t n)
{
	size_t i;

	for (i = 0; i < n; i += 8) {
		uint64_t v = next64(state);

		memcpy(buf + i, &v, n - i < 8 ? n - i : 8);
	}
}

static uint64_t fnv1a(uint64_t h, const unsigned char *p, size_t n)
{
	while (n--) {
		h ^= *p++;
		h *= 0x100000001b3ULL;
	}
	return h;
}

static int full_read(int fd, void *buf, size_t n)
{
	size_t got = 0;

	while (got < n) {
		ssize_t r = read(fd, (char *)buf + got, n - got);

		if (r < 0 && errno == EINTR)
			continue;
		if (r <= 0)
			return -1;
		got += r;
	}
	return 0;
}

static int full_write(int fd, const void *buf, size_t n)
{
	size_t done = 0;

	while (done < n) {
		ssize_t w = write(fd, (const char *)buf + done, n - done);

		if (w < 0 && errno == EINTR)
			continue;
		if (w <= 0)
			return -1;
		done += w;
	}
	return 0;
}

/* one connection of the server: compare, answer; exit status 0 if equal */
static int serve_one(int fd)
{
	static unsigned char got[CHUNK], want[CHUNK];
	struct answer a = { 0, 0xcbf29ce484222325ULL };
	uint64_t state, left;
	struct hdr h;
	int bad = 0;

	if (full_read(fd, &h, sizeof(h)) || h.magic != MAGIC) {
		fprintf(stderr, "server: bad header\n");
		return 1;
	}
	state = ((uint64_t)h.flow << 32 | h.flow) | 1;
	left = h.len;
	while (left) {
		size_t n = left < CHUNK ? left : CHUNK;
		ssize_t r = read(fd, got, n);

		if (r < 0 && errno == EINTR)
			continue;
		if (r <= 0) {
			fprintf(stderr, "flow %u: stream ended %llu bytes early\n",
				h.flow, (unsigned long long)left);
			bad = 1;
			break;
		}
		n = r;
		if (n % 8 && left - n) {
			/* keep the generator aligned: read up to a multiple of 8 */
			size_t more = 8 - n % 8;

			if (more > left - n)
				more = left - n;
			if (full_read(fd, got + n, more)) {
				bad = 1;
				break;
			}
			n += more;
		}
		gen(&state, want, n);
		if (!bad && memcmp(got, want, n)) {
			size_t i = 0;

			while (got[i] == want[i])
				i++;
			fprintf(stderr, "flow %u: byte %llu differs\n", h.flow,
				(unsigned long long)(a.matched + i));
			bad = 1;
		}
		if (!bad)
			a.matched += n;
		a.fnv = fnv1a(a.fnv, got, n);
		left -= n;
	}
	full_write(fd, &a, sizeof(a));
	printf("flow %u: %llu bytes, fnv1a %016llx, %s\n", h.flow,
	       (unsigned long long)a.matched, (unsigned long long)a.fnv,
	       bad ? "BAD" : "ok");
	fflush(stdout);
	return bad;
}

static int server(int port, int flows)
{
	struct sockaddr_in6 sa = { .sin6_family = AF_INET6 };
	int one = 1, ls, i, st, bad = 0;

	ls = socket(AF_INET6, SOCK_STREAM, 0);
	if (ls < 0)
		return perror("socket"), 1;
	setsockopt(ls, SOL_SOCKET, SO_REUSEADDR, &one, sizeof(one));
	sa.sin6_port = htons(port);
	sa.sin6_addr = in6addr_any;
	if (bind(ls, (struct sockaddr *)&sa, sizeof(sa)) || listen(ls, 64))
		return perror("bind/listen"), 1;
	printf("listening on %d\n", port);
	fflush(stdout);
	for (i = 0; i < flows; i++) {
		int fd = accept(ls, NULL, NULL);

		if (fd < 0) {
			if (errno == EINTR) {
				i--;
				continue;
			}
			return perror("accept"), 1;
		}
		if (!fork()) {
			/* the parent killed (a test's cleanup): so is this */
			prctl(PR_SET_PDEATHSIG, SIGKILL);
			alarm(secs);
			close(ls);
			exit(serve_one(fd));
		}
		close(fd);
	}
	for (i = 0; i < flows; i++) {
		if (wait(&st) < 0 || !WIFEXITED(st) || WEXITSTATUS(st))
			bad = 1;
	}
	return bad;
}

static double now_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

static int client_one(const char *addr, int port, uint32_t flow,
		      uint64_t bytes, const char *src)
{
	static unsigned char buf[CHUNK];
	struct addrinfo hints = { .ai_socktype = SOCK_STREAM }, *ai;
	struct answer a, mine = { 0, 0xcbf29ce484222325ULL };
	char ps[16];
	uint64_t state, left = bytes;
	struct hdr h = { MAGIC, flow, bytes };
	int fd;

	double t0;

	snprintf(ps, sizeof(ps), "%d", port);
	if (getaddrinfo(addr, ps, &hints, &ai))
		return fprintf(stderr, "bad address %s\n", addr), 1;
	fd = socket(ai->ai_family, SOCK_STREAM, 0);
	if (fd < 0)
		return perror("socket"), 1;
	if (src) {
		struct addrinfo *sa;

		if (getaddrinfo(src, NULL, &hints, &sa) ||
		    bind(fd, sa->ai_addr, sa->ai_addrlen))
			return fprintf(stderr, "bad source %s\n", src), 1;
		freeaddrinfo(sa);
	}
	t0 = now_s();
	if (connect(fd, ai->ai_addr, ai->ai_addrlen))
		return perror("connect"), 1;
	freeaddrinfo(ai);
	state = ((uint64_t)flow << 32 | flow) | 1;
	if (full_write(fd, &h, sizeof(h)))
		return perror("write"), 1;
	while (left) {
		size_t n = left < CHUNK ? left : CHUNK;

		gen(&state, buf, n);
		mine.fnv = fnv1a(mine.fnv, buf, n);
		if (full_write(fd, buf, n))
			return fprintf(stderr, "flow %u: write: %s\n", flow,
				       strerror(errno)), 1;
		left -= n;
	}
	shutdown(fd, SHUT_WR);
	if (full_read(fd, &a, sizeof(a)))
		return fprintf(stderr, "flow %u: no answer\n", flow), 1;
	t0 = now_s() - t0;
	printf("flow %u: %llu bytes, fnv1a %016llx, %s, in %.3f s, %.1f MB/s\n", flow,
	       (unsigned long long)a.matched, (unsigned long long)a.fnv,
	       a.matched == bytes && a.fnv == mine.fnv ? "ok" : "BAD",
	       t0, t0 > 0 ? bytes / t0 / 1e6 : 0.0);
	return !(a.matched == bytes && a.fnv == mine.fnv);
}

int main(int argc, char **argv)
{
	int flows, i, st, bad = 0;

	setvbuf(stdout, NULL, _IOLBF, 0);
	if (argc >= 5 && !strcmp(argv[1], "server")) {
		secs = atoi(argv[4]);
		alarm(secs);
		return server(atoi(argv[2]), atoi(argv[3]));
	}
	if (argc >= 7 && !strcmp(argv[1], "client")) {
		uint32_t base = argc > 7 ? strtoul(argv[7], NULL, 0) : 1;

		secs = atoi(argv[6]);
		alarm(secs);
		flows = atoi(argv[4]);
		for (i = 0; i < flows; i++) {
			if (!fork()) {
				prctl(PR_SET_PDEATHSIG, SIGKILL);
				alarm(secs);
				exit(client_one(argv[2], atoi(argv[3]),
						base + i * 7919,
						strtoull(argv[5], NULL, 0),
						argc > 8 ? argv[8] : NULL));
			}
		}
		for (i = 0; i < flows; i++)
			if (wait(&st) < 0 || !WIFEXITED(st) || WEXITSTATUS(st))
				bad = 1;
		return bad;
	}
	fprintf(stderr, "usage: net_stream server PORT FLOWS SECONDS\n"
		"       net_stream client ADDR PORT FLOWS BYTES SECONDS [SEED [SRC]]\n");
	return 2;
}
