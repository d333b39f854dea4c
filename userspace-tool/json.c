// SPDX-License-Identifier: GPL-2.0-only
/*
 * json.c: minimal streaming JSON writer (see json.h).
 */
#include <inttypes.h>
#include <math.h>

#include "json.h"

void json_init(struct json *j, FILE *out, bool pretty)
{
	j->out = out;
	j->pretty = pretty;
	j->depth = 0;
	j->first[0] = true;
	j->after_key = false;
}

static void newline(struct json *j)
{
	int i;

	if (!j->pretty)
		return;
	fputc('\n', j->out);
	for (i = 0; i < j->depth; i++)
		fputs("  ", j->out);
}

/* Before a value or a key: the separator and indentation it needs. */
static void begin_item(struct json *j)
{
	if (j->after_key) {
		j->after_key = false;
		return;
	}
	if (!j->first[j->depth])
		fputc(',', j->out);
	if (j->depth > 0)
		newline(j);
	j->first[j->depth] = false;
}

static void open_container(struct json *j, char c)
{
	begin_item(j);
	fputc(c, j->out);
	if (j->depth + 1 < JSON_MAX_DEPTH)
		j->depth++;
	j->first[j->depth] = true;
}

static void close_container(struct json *j, char c)
{
	bool empty = j->first[j->depth];

	if (j->depth > 0)
		j->depth--;
	if (!empty)
		newline(j);
	fputc(c, j->out);
}

void json_obj_open(struct json *j)
{
	open_container(j, '{');
}

void json_obj_close(struct json *j)
{
	close_container(j, '}');
}

void json_arr_open(struct json *j)
{
	open_container(j, '[');
}

void json_arr_close(struct json *j)
{
	close_container(j, ']');
}

static void put_string(FILE *out, const char *s)
{
	const unsigned char *p = (const unsigned char *)s;

	fputc('"', out);
	for (; *p; p++) {
		switch (*p) {
		case '"':
			fputs("\\\"", out);
			break;
		case '\\':
			fputs("\\\\", out);
			break;
		case '\n':
			fputs("\\n", out);
			break;
		case '\r':
			fputs("\\r", out);
			break;
		case '\t':
			fputs("\\t", out);
			break;
		default:
			if (*p < 0x20 || *p == 0x7f)
				fprintf(out, "\\u%04x", *p);
			else
				fputc(*p, out);
		}
	}
	fputc('"', out);
}

void json_key(struct json *j, const char *key)
{
	begin_item(j);
	put_string(j->out, key);
	fputs(j->pretty ? ": " : ":", j->out);
	j->after_key = true;
}

void json_str(struct json *j, const char *s)
{
	begin_item(j);
	put_string(j->out, s);
}

void json_u64(struct json *j, uint64_t v)
{
	begin_item(j);
	fprintf(j->out, "%" PRIu64, v);
}

void json_s64(struct json *j, int64_t v)
{
	begin_item(j);
	fprintf(j->out, "%" PRId64, v);
}

void json_double(struct json *j, double v)
{
	begin_item(j);
	if (isfinite(v))
		fprintf(j->out, "%.6g", v);
	else
		fputs("null", j->out);
}

void json_bool(struct json *j, bool v)
{
	begin_item(j);
	fputs(v ? "true" : "false", j->out);
}

void json_null(struct json *j)
{
	begin_item(j);
	fputs("null", j->out);
}

void json_end(struct json *j)
{
	fputc('\n', j->out);
	fflush(j->out);
	j->first[0] = true;
}

void json_kv_str(struct json *j, const char *key, const char *s)
{
	json_key(j, key);
	json_str(j, s);
}

void json_kv_u64(struct json *j, const char *key, uint64_t v)
{
	json_key(j, key);
	json_u64(j, v);
}

void json_kv_s64(struct json *j, const char *key, int64_t v)
{
	json_key(j, key);
	json_s64(j, v);
}

void json_kv_double(struct json *j, const char *key, double v)
{
	json_key(j, key);
	json_double(j, v);
}

void json_kv_bool(struct json *j, const char *key, bool v)
{
	json_key(j, key);
	json_bool(j, v);
}
