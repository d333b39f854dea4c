/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * blk_wire.h: what blk_wire's files share: the block channel's wire
 * protocol as the server speaks it, a session, and the calls of
 * blk_wire.c (the fixture, the checks of OPEN and of requests) that
 * blk_wire_flood.c (the floods) makes.
 */
#ifndef RDMACHAN_TEST_BLK_WIRE_H
#define RDMACHAN_TEST_BLK_WIRE_H

#include <endian.h>
#include <poll.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/uio.h>
#include <time.h>

#include "chanlib.h"

/* ---- the wire protocol, as module/blk/blk_proto.h has it ----------- */

#define RCBLK_WIRE_MAGIC	0x52424C4B
#define RCBLK_WIRE_VERSION	1
#define RCBLK_NAME_MAX		64
#define RCBLK_DEFAULT_PORT	7471

enum { RCBLK_MSG_OPEN = 1, RCBLK_MSG_OPEN_RSP = 2, RCBLK_MSG_IO = 3 };
enum { OP_READ = 0, OP_WRITE = 1, OP_FLUSH = 2, OP_DISCARD = 3, OP_WRITE_ZEROES = 4 };
#define F_FUA		0x1
#define F_KNOWN		0x7f
enum { DATA_NONE = 0, DATA_INLINE = 1, DATA_REMOTE = 2 };
enum {
	S_OK = 0, S_IOERR, S_INVAL, S_RANGE, S_RO, S_NOTSUPP, S_TOOBIG, S_NOSPC,
	S_RESOURCE, S_GONE, S_REMOTE,
};
#define OPEN_RO		0x1
enum {
	OPEN_OK = 0, OPEN_NOENT, OPEN_ACCES, OPEN_ROFS, OPEN_PROTO, OPEN_BUSY, OPEN_NOMEM,
};

struct wire_open {
	uint32_t magic;
	uint8_t type;
	uint8_t version;
	uint16_t flags;
	uint32_t features;
	uint32_t max_io;
	uint16_t queue;
	uint16_t nr_queues;
	uint32_t gen;		/* with flag FENCE (bit 2) only */
	uint8_t session[16];
	char name[RCBLK_NAME_MAX];
} __attribute__((packed));

struct wire_open_rsp {
	uint32_t magic;
	uint8_t type;
	uint8_t version;
	uint16_t status;
	uint32_t features;
	uint32_t max_io;
	uint64_t nr_sectors;
	uint32_t lbs;
	uint32_t pbs;
	uint32_t max_discard_sectors;
	uint32_t discard_granularity;
	uint32_t max_write_zeroes_sectors;
	uint32_t inline_max;
	uint16_t export_flags;
	uint16_t reserved;
	uint32_t reserved2;
	uint8_t export_id[16];
} __attribute__((packed));

struct wire_io {
	uint8_t type;
	uint8_t op;
	uint16_t flags;
	uint16_t tag;
	uint8_t data;
	uint8_t reserved;
	uint64_t sector;
	uint32_t len;
	uint32_t rkey;
	uint64_t addr;
} __attribute__((packed));

_Static_assert(sizeof(struct wire_open) == 104, "rcblk_wire_open");
_Static_assert(offsetof(struct wire_open, session) == 24, "rcblk_wire_open.session");
_Static_assert(offsetof(struct wire_open, name) == 40, "rcblk_wire_open.name");
_Static_assert(sizeof(struct wire_open_rsp) == 72, "rcblk_wire_open_rsp");
_Static_assert(offsetof(struct wire_open_rsp, nr_sectors) == 16, "open_rsp.nr_sectors");
_Static_assert(offsetof(struct wire_open_rsp, inline_max) == 44, "open_rsp.inline_max");
_Static_assert(offsetof(struct wire_open_rsp, export_id) == 56, "open_rsp.export_id");
_Static_assert(sizeof(struct wire_io) == 32, "rcblk_wire_io");
_Static_assert(offsetof(struct wire_io, sector) == 8, "rcblk_wire_io.sector");
_Static_assert(offsetof(struct wire_io, addr) == 24, "rcblk_wire_io.addr");

/* ---- a session: the channel of a good OPEN --------------------------- */

struct sess {
	int fd;
	const char *name;
	uint16_t oflags;
	struct wire_open_rsp rsp;
	uint64_t nr_sectors;
	uint32_t lbs, max_io, inline_max, features;
	void *buf;		/* registered for the server's RDMA */
	size_t buf_len;
	struct rdmachan_reg_mr mr;
	bool mr_ok;
};

/* ---- blk_wire.c ------------------------------------------------------- */

extern uint16_t next_tag;	/* the tag of the next request io_fill() makes */

int send_msg(int fd, const void *a, size_t alen, const void *b, size_t blen);
int recv_one(int fd, void *buf, unsigned int room, unsigned int *imm, int *has_imm);
int recv_msg(int fd, void *buf, unsigned int room, unsigned int *imm, int *has_imm);
int sess_open(struct sess *s, const char *name, uint16_t oflags);
void io_fill(struct wire_io *io, uint8_t op, uint64_t sector, uint32_t len, uint8_t data);
void check_io(struct sess *s, const char *what, const struct wire_io *io, size_t hlen,
	      const void *payload, size_t plen, int want, int alt);

/* ---- blk_wire_flood.c ------------------------------------------------- */

void flood(const char *name);
void reject_flood(const char *name, int rounds);

#endif /* RDMACHAN_TEST_BLK_WIRE_H */
