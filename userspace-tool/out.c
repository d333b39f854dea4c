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

/*
 * utf8_text: @p holds text JSON can carry as a string: valid UTF-8
 * (no overlong form, no surrogate, nothing above U+10FFFF) and no NUL
 */
bool utf8_text(const unsigned char *p, size_t n)
{
	size_t i = 0, k, len;
	uint32_t c, min;

	while (i < n) {
		c = p[i];
		if (!c)
			return false;
		if (c < 0x80) {
			i++;
			continue;
		}
		if ((c & 0xe0) == 0xc0) {
			len = 2, c &= 0x1f, min = 0x80;
		} else if ((c & 0xf0) == 0xe0) {
			len = 3, c &= 0x0f, min = 0x800;
		} else if ((c & 0xf8) == 0xf0) {
			len = 4, c &= 0x07, min = 0x10000;
		} else {
			return false;
		}
		if (n - i < len)
			return false;
		for (k = 1; k < len; k++) {
			if ((p[i + k] & 0xc0) != 0x80)
				return false;
			c = (c << 6) | (p[i + k] & 0x3f);
		}
		if (c < min || c > 0x10ffff || (c >= 0xd800 && c <= 0xdfff))
			return false;
		i += len;
	}
	return true;
}

void print_bytes(enum out_type t, const char *k, const void *p, size_t n)
{
	static const char hex[] = "0123456789abcdef";
	const unsigned char *b = p;
	char *s, hk[64];
	size_t i;

	if (is_json(t)) {
		bool text = utf8_text(b, n);

		s = malloc(text ? n + 1 : 2 * n + 1);
		if (!s)
			return;
		if (text) {
			memcpy(s, p, n);
			s[n] = '\0';
		} else {
			for (i = 0; i < n; i++) {
				s[2 * i] = hex[b[i] >> 4];
				s[2 * i + 1] = hex[b[i] & 15];
			}
			s[2 * n] = '\0';
			snprintf(hk, sizeof(hk), "%s_hex", k ? k : "data");
		}
		key(text ? k : hk);
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

void print_str_null(enum out_type t, const char *k, const char *fmt, const char *v)
{
	if (!*v && is_json(t))
		print_null(PRINT_JSON, k, NULL);
	else
		print_str(t, k, fmt, *v ? v : "-");
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
