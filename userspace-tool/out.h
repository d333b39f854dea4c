/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * out.h: the one output path of the rdmachan tool, in the model of
 * iproute2's json_print: every value is printed once, by a print_*()
 * call that names its JSON key and its text format, and the -j option
 * alone decides which of the two is written.
 *
 *   PRINT_FP    text only (fmt), nothing in JSON
 *   PRINT_JSON  JSON only (key), nothing in text
 *   PRINT_ANY   both: the key in JSON, the format in text
 *
 * A record is one JSON object (a line of its own at the top level, an
 * element inside a list) or, in text, what its calls print to the
 * stream given to open_record(): stdout, or stderr for the event lines
 * of the servers.  Text formats take the value's own type: %s for
 * print_str, %u/%x for print_uint, %llu/%llx for print_u64, %lld for
 * print_s64, %f/%g for print_double.
 */
#ifndef RDMACHAN_TOOL_OUT_H
#define RDMACHAN_TOOL_OUT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "json.h"

enum out_type {
	PRINT_FP = 1,
	PRINT_JSON = 2,
	PRINT_ANY = PRINT_FP | PRINT_JSON,
};

/* out_init: JSON (with @pretty indentation) or text, on @json_out. */
void out_init(bool json, bool pretty, FILE *json_out);
/* out_json: true under -j (for what is not a value: e.g. skipping a banner) */
bool out_json(void);

/* A top-level JSON array of records (dev list|show, chan show); text: nothing. */
void open_list(void);
void close_list(void);
/* A record: JSON object, text on @text (stdout or stderr). */
void open_record(FILE *text);
void close_record(void);
/* A nested object or array under @key (NULL inside an array): JSON only. */
void open_object(const char *key);
void close_object(void);
void open_array(const char *key);
void close_array(void);

void print_str(enum out_type t, const char *key, const char *fmt, const char *v);
void print_uint(enum out_type t, const char *key, const char *fmt, unsigned int v);
void print_u64(enum out_type t, const char *key, const char *fmt, uint64_t v);
void print_s64(enum out_type t, const char *key, const char *fmt, int64_t v);
void print_double(enum out_type t, const char *key, const char *fmt, double v);
void print_bool(enum out_type t, const char *key, const char *fmt, bool v);
/*
 * @n bytes: in JSON a string under @key when they are text (utf8_text),
 * otherwise their hex under "@key_hex", never cut; in text as they are
 */
void print_bytes(enum out_type t, const char *key, const void *p, size_t n);
/* utf8_text: valid UTF-8 without NUL, which a JSON string carries */
bool utf8_text(const unsigned char *p, size_t n);
/* JSON null under @key; text: @fmt as it is */
void print_null(enum out_type t, const char *key, const char *fmt);
/* print_str, but "" is JSON null, "-" in text (a value sysfs lacked) */
void print_str_null(enum out_type t, const char *key, const char *fmt, const char *v);
/* text only, printf-style, to the record's stream */
void print_fp(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/* text only: a newline */
void print_nl(void);

#endif /* RDMACHAN_TOOL_OUT_H */
