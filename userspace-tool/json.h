/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * json.h: a minimal streaming JSON writer for the rdmachan tool, in the
 * spirit of iproute2's json_writer: the caller opens and closes objects
 * and arrays, the writer places commas, indentation and escapes.
 */
#ifndef RDMACHAN_TOOL_JSON_H
#define RDMACHAN_TOOL_JSON_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#define JSON_MAX_DEPTH	16

struct json {
	FILE *out;
	bool pretty;
	int depth;
	bool first[JSON_MAX_DEPTH];	/* no member written yet at depth */
	bool after_key;			/* a key was written, value pending */
};

void json_init(struct json *j, FILE *out, bool pretty);
void json_obj_open(struct json *j);
void json_obj_close(struct json *j);
void json_arr_open(struct json *j);
void json_arr_close(struct json *j);
void json_key(struct json *j, const char *key);
void json_str(struct json *j, const char *s);
void json_u64(struct json *j, uint64_t v);
void json_s64(struct json *j, int64_t v);
void json_double(struct json *j, double v);
void json_bool(struct json *j, bool v);
void json_null(struct json *j);
/* End the document: a newline after the top-level value. */
void json_end(struct json *j);

/* key + value in one call, inside an object */
void json_kv_str(struct json *j, const char *key, const char *s);
void json_kv_u64(struct json *j, const char *key, uint64_t v);
void json_kv_s64(struct json *j, const char *key, int64_t v);
void json_kv_double(struct json *j, const char *key, double v);
void json_kv_bool(struct json *j, const char *key, bool v);

#endif /* RDMACHAN_TOOL_JSON_H */
