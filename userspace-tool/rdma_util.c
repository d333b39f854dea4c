// SPDX-License-Identifier: GPL-2.0-only
/*
 * rdma_util.c: parsing and formatting for the one-sided RDMA commands:
 * the memory descriptor "reg" sends, its requests, access lists, status
 * names, FNV-1a and the layout of "--sge K".  Pure functions without
 * I/O, covered by test_unit.c.
 */
#include <ctype.h>
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "rdma.h"

/*
 * mr_desc_format: "rdmachan-mr addr=0x%llx length=%llu rkey=0x%x" into
 * @buf.  Returns its length, or -ENOSPC when @len is too small.
 */
int mr_desc_format(const struct rdmachan_remote_mr *mr, char *buf, size_t len)
{
	int n = snprintf(buf, len, MR_DESC_PREFIX "addr=0x%llx length=%llu rkey=0x%x",
			 (unsigned long long)mr->addr,
			 (unsigned long long)mr->length, mr->rkey);

	return n < 0 || (size_t)n >= len ? -ENOSPC : n;
}

/*
 * take_num: @key at *@p, then digits of @base (at least one, no sign,
 * no second "0x") up to @max; *@p moves past them.
 */
static int take_num(const char **p, const char *key, unsigned int base,
		    uint64_t max, uint64_t *out)
{
	size_t kl = strlen(key);
	const char *s = *p;
	uint64_t v = 0;
	int n = 0;

	if (strncmp(s, key, kl))
		return -EINVAL;
	for (s += kl;; s++, n++) {
		unsigned int d;

		if (isdigit((unsigned char)*s))
			d = *s - '0';
		else if (base == 16 && isxdigit((unsigned char)*s))
			d = tolower((unsigned char)*s) - 'a' + 10;
		else
			break;
		if (v > (max - d) / base)
			return -ERANGE;
		v = v * base + d;
	}
	if (!n)
		return -EINVAL;
	*p = s;
	*out = v;
	return 0;
}

/*
 * mr_desc_parse: the descriptor message @msg (@len bytes, not
 * NUL-terminated) into @mr.  Returns 0, or -EINVAL when it is anything
 * but exactly what mr_desc_format writes (-ERANGE: a number too large).
 */
int mr_desc_parse(const char *msg, size_t len, struct rdmachan_remote_mr *mr)
{
	char s[MR_DESC_MAX];
	const char *p = s;
	uint64_t addr, length, rkey;
	int r;

	if (len >= sizeof(s) || memchr(msg, '\0', len))
		return -EINVAL;
	memcpy(s, msg, len);
	s[len] = '\0';
	if (strncmp(p, MR_DESC_PREFIX, strlen(MR_DESC_PREFIX)))
		return -EINVAL;
	p += strlen(MR_DESC_PREFIX);
	r = take_num(&p, "addr=0x", 16, UINT64_MAX, &addr);
	if (!r)
		r = take_num(&p, " length=", 10, UINT64_MAX, &length);
	if (!r)
		r = take_num(&p, " rkey=0x", 16, UINT32_MAX, &rkey);
	if (r)
		return r;
	if (*p)
		return -EINVAL;
	memset(mr, 0, sizeof(*mr));
	mr->addr = addr;
	mr->length = length;
	mr->rkey = rkey;
	return 0;
}

/*
 * mr_req_parse: a request to "reg": "dereg", "sum" or "peek OFF LEN"
 * (one trailing newline tolerated); anything else is MR_REQ_UNKNOWN.
 */
void mr_req_parse(const char *msg, size_t len, struct mr_req *r)
{
	char s[64], off[32], n[32], extra;

	memset(r, 0, sizeof(*r));
	r->type = MR_REQ_UNKNOWN;
	if (len && msg[len - 1] == '\n')
		len--;
	if (len >= sizeof(s) || memchr(msg, '\0', len))
		return;
	memcpy(s, msg, len);
	s[len] = '\0';
	if (!strcmp(s, "dereg")) {
		r->type = MR_REQ_DEREG;
	} else if (!strcmp(s, "sum")) {
		r->type = MR_REQ_SUM;
	} else if (!strncmp(s, "peek ", 5) &&
		   sscanf(s + 5, "%31s %31s %c", off, n, &extra) == 2 &&
		   !parse_uint(off, 0, UINT64_MAX, &r->off) &&
		   !parse_uint(n, 0, UINT32_MAX, &r->len)) {
		r->type = MR_REQ_PEEK;
	}
}

static const struct {
	const char *name;
	uint32_t bits;
} access_names[] = {
	{ "local-write", RDMACHAN_ACCESS_LOCAL_WRITE },
	{ "remote-write", RDMACHAN_ACCESS_REMOTE_WRITE },
	{ "remote-read", RDMACHAN_ACCESS_REMOTE_READ },
	{ "remote-atomic", RDMACHAN_ACCESS_REMOTE_ATOMIC },
	{ "all", RDMACHAN_ACCESS_ALL },
	{ "none", 0 },
};

#define ARRAY_LEN(a) (sizeof(a) / sizeof((a)[0]))

/*
 * parse_access_list: comma-separated names of access rights ("local-write",
 * "remote-write", "remote-read", "remote-atomic", "all", "none") into
 * RDMACHAN_ACCESS_* bits.  Returns 0 or -EINVAL (empty item, unknown name).
 */
int parse_access_list(const char *s, uint32_t *access)
{
	uint32_t bits = 0;

	if (!s || !*s)
		return -EINVAL;
	for (;;) {
		size_t n = strcspn(s, ","), i;

		for (i = 0; i < ARRAY_LEN(access_names); i++)
			if (strlen(access_names[i].name) == n &&
			    !strncmp(s, access_names[i].name, n))
				break;
		if (!n || i == ARRAY_LEN(access_names))
			return -EINVAL;
		bits |= access_names[i].bits;
		if (!s[n])
			break;
		s += n + 1;
	}
	*access = bits;
	return 0;
}

/* format_access: the names of @access's bits, comma-separated, or "none". */
void format_access(uint32_t access, char *buf, size_t len)
{
	size_t off = 0;
	unsigned int i;

	if (!len)
		return;
	buf[0] = '\0';
	for (i = 0; i < 4 && off < len; i++)
		if (access & access_names[i].bits)
			off += snprintf(buf + off, len - off, "%s%s", off ? "," : "",
					access_names[i].name);
	if (!access)
		snprintf(buf, len, "none");
}

/* wc_status_name: enum ib_wc_status, as the verbs headers name it. */
const char *wc_status_name(unsigned int status)
{
	static const char *const names[] = {
		"SUCCESS", "LOC_LEN_ERR", "LOC_QP_OP_ERR", "LOC_EEC_OP_ERR",
		"LOC_PROT_ERR", "WR_FLUSH_ERR", "MW_BIND_ERR", "BAD_RESP_ERR",
		"LOC_ACCESS_ERR", "REM_INV_REQ_ERR", "REM_ACCESS_ERR",
		"REM_OP_ERR", "RETRY_EXC_ERR", "RNR_RETRY_EXC_ERR",
		"LOC_RDD_VIOL_ERR", "REM_INV_RD_REQ_ERR", "REM_ABORT_ERR",
		"INV_EECN_ERR", "INV_EEC_STATE_ERR", "FATAL_ERR",
		"RESP_TIMEOUT_ERR", "GENERAL_ERR",
	};

	return status < ARRAY_LEN(names) ? names[status] : "unknown";
}

/*
 * errno_name: the symbolic name of an errno value, either sign ("EACCES"
 * for 13 or -13); NULL for 0, "unknown" for one not listed.
 */
const char *errno_name(int err)
{
#define E(x) case x: return #x
	switch (err < 0 ? -err : err) {
	case 0: return NULL;
	E(EPERM); E(ENOENT); E(ESRCH); E(EINTR); E(EIO); E(ENXIO); E(E2BIG);
	E(EBADF); E(EAGAIN); E(ENOMEM); E(EACCES); E(EFAULT); E(EBUSY);
	E(EEXIST); E(ENODEV); E(EINVAL); E(ENFILE); E(EMFILE); E(ENOTTY);
	E(EFBIG); E(ENOSPC); E(EPIPE); E(ERANGE); E(EDEADLK); E(ENOSYS);
	E(ENODATA); E(ETIME); E(ENOLINK); E(EPROTO); E(EBADMSG); E(EOVERFLOW);
	E(EREMOTEIO); E(EMSGSIZE); E(EPROTONOSUPPORT); E(EOPNOTSUPP);
	E(EADDRINUSE); E(EADDRNOTAVAIL); E(ENETDOWN); E(ENETUNREACH);
	E(ECONNABORTED); E(ECONNRESET); E(ENOBUFS); E(EISCONN); E(ENOTCONN);
	E(ESHUTDOWN); E(ETIMEDOUT); E(ECONNREFUSED); E(EHOSTDOWN);
	E(EHOSTUNREACH); E(EALREADY); E(EINPROGRESS); E(ECANCELED);
	E(ENOTBLK); E(EROFS); E(ENAMETOOLONG); E(ENOTDIR); E(EISDIR);
	E(EKEYEXPIRED); E(EKEYREVOKED); E(EKEYREJECTED);
	default: return "unknown";
	}
#undef E
}

/* fnv1a64: FNV-1a, 64 bits, of @n bytes, continuing from @h (FNV64_INIT). */
uint64_t fnv1a64(uint64_t h, const void *p, size_t n)
{
	const unsigned char *b = p;

	while (n--) {
		h ^= *b++;
		h *= 0x100000001b3ULL;
	}
	return h;
}

/* le64_load: 8 bytes at @p as a little-endian u64 (any alignment). */
uint64_t le64_load(const void *p)
{
	const unsigned char *b = p;
	uint64_t v = 0;
	int i;

	for (i = 7; i >= 0; i--)
		v = v << 8 | b[i];
	return v;
}

/* format_hex: @n bytes as lowercase hex digits, as many as @len holds. */
void format_hex(const void *p, size_t n, char *buf, size_t len)
{
	const unsigned char *b = p;
	size_t i;

	if (!len)
		return;
	for (i = 0; i < n && 2 * i + 2 < len; i++)
		snprintf(buf + 2 * i, 3, "%02x", b[i]);
	buf[2 * i] = '\0';
}

/*
 * sge_split: lay @len bytes out as @k segments of one registration,
 * from offset @base with @gap bytes between them, the first (len % k)
 * a byte longer than the others, each nonempty and its length a __u32.
 * Fills @sge[0..k-1] (handle 0: the caller sets it) and returns the
 * registration size they need (their end), or -EINVAL.
 */
int64_t sge_split(uint64_t len, unsigned int k, uint64_t base, uint64_t gap,
		  struct rdmachan_sge *sge)
{
	uint64_t off = base, seg = k ? len / k : 0;
	unsigned int i;

	if (!k || k > RDMACHAN_MAX_SGE || len < k || seg + 1 > UINT32_MAX ||
	    len > INT64_MAX / 2 || base > INT64_MAX / 2 || gap > UINT32_MAX)
		return -EINVAL;
	for (i = 0; i < k; i++) {
		sge[i].handle = 0;
		sge[i].length = seg + (i < len % k);
		sge[i].offset = off;
		off += sge[i].length + (i + 1 < k ? gap : 0);
	}
	return off;
}

/* sge_pack: the bytes of @data, in order, into the segments of @buf. */
void sge_pack(void *buf, const void *data, const struct rdmachan_sge *sge,
	      unsigned int k)
{
	const unsigned char *d = data;
	unsigned int i;

	for (i = 0; i < k; d += sge[i].length, i++)
		memcpy((unsigned char *)buf + sge[i].offset, d, sge[i].length);
}

/* sge_unpack: the segments of @buf, in order, into @data. */
void sge_unpack(void *data, const void *buf, const struct rdmachan_sge *sge,
		unsigned int k)
{
	unsigned char *d = data;
	unsigned int i;

	for (i = 0; i < k; d += sge[i].length, i++)
		memcpy(d, (const unsigned char *)buf + sge[i].offset, sge[i].length);
}

/*
 * rdma_results_fix: the results of a RDMACHAN_IOC_RDMA call that failed
 * with errno @err after @done ops, made to say what happened:
 *
 * - no op has a @status: the call was refused as a whole; each op not
 *   done gets -@err;
 * - an op failed with no completion (a @status, wc_status 0: refused
 *   when checked, before anything was posted): nothing ran, so none is
 *   done, and the ops with status 0 (the module leaves those it checked
 *   before the refused one at 0, SUCCESS) get -ECANCELED;
 * - every op not done that has no completion gets RDMA_WC_NONE.
 *
 * Returns the number of ops done.
 */
unsigned int rdma_results_fix(struct rdmachan_rdma_op *ops, unsigned int n,
			      unsigned int done, int err)
{
	bool filled = false, refused = false;
	unsigned int i;

	if (done > n)
		done = 0;
	for (i = 0; i < n; i++) {
		filled |= ops[i].status != 0;
		refused |= ops[i].status != 0 && !ops[i].wc_status;
	}
	if (refused)
		done = 0;
	for (i = done; i < n; i++) {
		if (!filled)		/* the arguments were refused */
			ops[i].status = -err;
		else if (!ops[i].status)	/* checked, never posted */
			ops[i].status = -ECANCELED;
		if (!ops[i].wc_status)	/* no completion: refused or not run */
			ops[i].wc_status = RDMA_WC_NONE;
	}
	return done;
}

unsigned int rdma_failed_op(const struct rdmachan_rdma_op *ops, unsigned int n,
			    unsigned int done)
{
	unsigned int i;

	for (i = done; i < n; i++)
		if (ops[i].status && ops[i].status != -ECANCELED)
			return i;
	for (i = done; i < n; i++)
		if (ops[i].status)
			return i;
	return done < n ? done : n - 1;
}

/* parse_offset: a size with a suffix ("4k") or a number ("4096", "0x1000"). */
int parse_offset(const char *s, uint64_t *out)
{
	if (!parse_size(s, 0, UINT64_MAX, out))
		return 0;
	return parse_uint(s, 0, UINT64_MAX, out);
}
