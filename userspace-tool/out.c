// SPDX-License-Identifier: GPL-2.0-only
/*
 * out.c: the one output path for text and JSON (see out.h), over the
 * streaming JSON writer of json.c.
 */
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "out.h"

static struct {
	bool json;
	struct json j;
	FILE *text;		/* the open record's text stream; NULL: stdout */
} out;

void out_init(bool json, bool pretty, FILE *json_out)
{
	out.json = json;
	out.text = NULL;
	json_init(&out.j, json_out, pretty);
}

bool out_json(void)
{
	return out.json;
}

static FILE *text(void)
{
	return out.text ? out.text : stdout;
}

void open_list(void)
{
	if (out.json)
		json_arr_open(&out.j);
}

void close_list(void)
{
	if (!out.json)
		return;
	json_arr_close(&out.j);
	if (!out.j.depth)
		json_end(&out.j);
}

void open_record(FILE *fp)
{
	out.text = fp;
	if (out.json)
		json_obj_open(&out.j);
}

void close_record(void)
{
	if (out.json) {
		json_obj_close(&out.j);
		if (!out.j.depth)
			json_end(&out.j);
	} else {
		fflush(text());
	}
	out.text = NULL;
}

static void key(const char *k)
{
	if (k)
		json_key(&out.j, k);
}

void open_object(const char *k)
{
	if (!out.json)
		return;
	key(k);
	json_obj_open(&out.j);
}

void close_object(void)
{
	if (out.json)
		json_obj_close(&out.j);
}

void open_array(const char *k)
{
	if (!out.json)
		return;
	key(k);
	json_arr_open(&out.j);
}

void close_array(void)
{
	if (out.json)
		json_arr_close(&out.j);
}

/* is_json / is_text: whether a print of type @t writes in this mode */
static bool is_json(enum out_type t)
{
	return out.json && (t & PRINT_JSON);
}

static bool is_text(enum out_type t, const char *fmt)
{
	return !out.json && (t & PRINT_FP) && fmt;
}

void print_str(enum out_type t, const char *k, const char *fmt, const char *v)
{
	if (is_json(t)) {
		key(k);
		json_str(&out.j, v);
	} else if (is_text(t, fmt)) {
		fprintf(text(), fmt, v);
	}
}

void print_uint(enum out_type t, const char *k, const char *fmt, unsigned int v)
{
	if (is_json(t)) {
		key(k);
		json_u64(&out.j, v);
	} else if (is_text(t, fmt)) {
		fprintf(text(), fmt, v);
	}
}

void print_u64(enum out_type t, const char *k, const char *fmt, uint64_t v)
{
	if (is_json(t)) {
		key(k);
		json_u64(&out.j, v);
	} else if (is_text(t, fmt)) {
		fprintf(text(), fmt, (unsigned long long)v);
	}
}

void print_s64(enum out_type t, const char *k, const char *fmt, int64_t v)
{
	if (is_json(t)) {
		key(k);
		json_s64(&out.j, v);
	} else if (is_text(t, fmt)) {
		fprintf(text(), fmt, (long long)v);
	}
}

void print_double(enum out_type t, const char *k, const char *fmt, double v)
{
	if (is_json(t)) {
		key(k);
		json_double(&out.j, v);
	} else if (is_text(t, fmt)) {
		fprintf(text(), fmt, v);
	}
}

void print_bool(enum out_type t, const char *k, const char *fmt, bool v)
{
	if (is_json(t)) {
		key(k);
		json_bool(&out.j, v);
	} else if (is_text(t, fmt)) {
		fprintf(text(), fmt, v ? "true" : "false");
	}
}

void print_bytes(enum out_type t, const char *k, const void *p, size_t n)
{
	char *s;

	if (is_json(t)) {
		s = malloc(n + 1);
		if (!s)
			return;
		memcpy(s, p, n);
		s[n] = '\0';
		key(k);
		json_str(&out.j, s);
		free(s);
	} else if (!out.json && (t & PRINT_FP)) {
		fwrite(p, 1, n, text());
	}
}

void print_null(enum out_type t, const char *k, const char *fmt)
{
	if (is_json(t)) {
		key(k);
		json_null(&out.j);
	} else if (is_text(t, fmt)) {
		fputs(fmt, text());
	}
}

void print_fp(const char *fmt, ...)
{
	va_list ap;

	if (out.json)
		return;
	va_start(ap, fmt);
	vfprintf(text(), fmt, ap);
	va_end(ap);
}

void print_nl(void)
{
	if (!out.json)
		fputc('\n', text());
}
