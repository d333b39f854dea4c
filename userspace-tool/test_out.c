// SPDX-License-Identifier: GPL-2.0-only
/*
 * test_out.c: unit tests of the tool's output (out.c, json.c): records
 * in text and JSON, lists, batch lines, UTF-8 and hex, chan show's
 * records with and without -s, and the CHAN_INFO size fallback
 * (chan.c); TAP results through test_unit.c.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "chan.h"
#include "json.h"
#include "rdma.h"
#include "test_unit.h"
#include "tool.h"

/* ---- the output path (out.c) ------------------------------------------ */

static char outbuf[1024];

/* render_out: @fn's records in text (on a memory stream) or JSON */
static char *render_out(void (*fn)(FILE *), bool json, bool pretty)
{
	FILE *f;

	memset(outbuf, 0, sizeof(outbuf));
	f = fmemopen(outbuf, sizeof(outbuf), "w");

	out_init(json, pretty, f);
	fn(f);
	fclose(f);
	out_init(false, false, stdout);
	return outbuf;
}

static void rec_event(FILE *f)
{
	open_record(f);
	print_str(PRINT_JSON, "event", NULL, "closed");
	print_uint(PRINT_ANY, "chan", "chan %u: ", 3);
	print_str(PRINT_FP, NULL, "%s", "closed");
	print_u64(PRINT_ANY, "messages", " after %llu messages", 18446744073709551615ULL);
	print_s64(PRINT_ANY, "status", " status %lld", -13);
	print_double(PRINT_ANY, "seconds", " in %.3f s", 1.5);
	print_bool(PRINT_ANY, "ok", " ok %s", true);
	print_null(PRINT_ANY, "error", " error -");
	print_fp(" (text only %d)", 7);
	print_bytes(PRINT_ANY, "data", " a\0b", 4);
	print_nl();
	close_record();
	open_record(f);
	print_uint(PRINT_ANY, "n", "second %u\n", 2);
	close_record();
}

static void rec_list(FILE *f)
{
	int i;

	open_list();
	for (i = 0; i < 2; i++) {
		open_record(f);
		print_uint(PRINT_ANY, "index", "%u:", i);
		open_array("ports");
		open_object(NULL);
		print_uint(PRINT_ANY, "port", " port %u", 1);
		close_object();
		close_array();
		open_array("features");
		print_str(PRINT_ANY, NULL, " %s", "dev_list");
		close_array();
		print_nl();
		close_record();
	}
	close_list();
}

static void rec_empty_list(FILE *f)
{
	(void)f;
	open_list();
	close_list();
}

void test_batch(void)
{
	char line[128], *w[8], path[] = "/tmp/rdmachan-batch.XXXXXX";
	FILE *f;
	int fd;

	strcpy(line, "  chan  send 'a b' \"c \\\"d\" e\\ f # comment\n");
	ok(batch_words(line, w, 8) == 5 && !strcmp(w[0], "chan") && !strcmp(w[1], "send") &&
	   !strcmp(w[2], "a b") && !strcmp(w[3], "c \"d") && !strcmp(w[4], "e f"),
	   "batch: words, quotes, escapes and a comment");
	strcpy(line, "   # only a comment\n");
	ok(batch_words(line, w, 8) == 0, "batch: a comment line has no words");
	strcpy(line, "chan send 'open\n");
	ok(batch_words(line, w, 8) == -1, "batch: an open quote is refused");
	strcpy(line, "a b c d e f g h i\n");
	ok(batch_words(line, w, 8) == -1, "batch: more words than allowed are refused");

	fd = mkstemp(path);
	f = fd < 0 ? NULL : fdopen(fd, "w");
	if (!f) {
		ok(0, "batch: a scratch file");
		return;
	}
	fputs("help\n\n# a comment\ndev help\n  chan help  \n", f);
	fclose(f);
	ok(run_tool(2, "-b", path) == EXIT_OK, "batch: every line runs, blank and comment lines skipped");
	ok(run_tool(3, "-j", "--batch", path) == EXIT_OK, "batch: the options before -b apply");
	f = fopen(path, "w");
	fputs("help\nbogus\n--ctl /nonexistent/rdmachan dev list\n", f);
	fclose(f);
	ok(run_tool(2, "-b", path) == EXIT_USAGE, "batch: stops at the first line that fails, with its status");
	ok(run_tool(3, "-b", path, "--force") == EXIT_FAIL,
	   "batch: --force goes on and returns the last failure");
	f = fopen(path, "w");
	fprintf(f, "-b %s\n", path);
	fclose(f);
	ok(run_tool(2, "-b", path) == EXIT_USAGE, "batch: a batch file may not run -b");
	ok(run_tool(3, "-b", path, "chan") == EXIT_USAGE, "batch: a command beside -b is a usage error");
	ok(run_tool(1, "--force") == EXIT_USAGE, "batch: --force without -b is a usage error");
	ok(run_tool(1, "-b") == EXIT_USAGE, "batch: -b without a file is a usage error");
	unlink(path);
	ok(run_tool(2, "-b", path) == EXIT_FAIL, "batch: a missing file fails");
}

void test_utf8(void)
{
	static const struct {
		const char *s;
		size_t n;
		bool text;
		const char *what;
	} c[] = {
		{ "hello", 5, true, "ASCII" },
		{ "", 0, true, "nothing" },
		{ "caf\xc3\xa9 \xe2\x82\xac \xf0\x9f\x98\x80", 14, true, "2-, 3- and 4-byte forms" },
		{ "a\0b", 3, false, "a NUL" },
		{ "\xc3", 1, false, "a cut sequence" },
		{ "\xc3\x28", 2, false, "a bad continuation byte" },
		{ "\x80", 1, false, "a lone continuation byte" },
		{ "\xc0\xaf", 2, false, "an overlong form" },
		{ "\xed\xa0\x80", 3, false, "a surrogate" },
		{ "\xf4\x90\x80\x80", 4, false, "above U+10FFFF" },
		{ "\xff", 1, false, "0xff" },
	};
	unsigned int i;

	for (i = 0; i < sizeof(c) / sizeof(c[0]); i++)
		ok(utf8_text((const unsigned char *)c[i].s, c[i].n) == c[i].text,
		   "utf8_text: %s is %s", c[i].what, c[i].text ? "text" : "not text");
}

void test_out(void)
{
	char *s;

	s = render_out(rec_event, false, false);
	ok(!memcmp(s, "chan 3: closed after 18446744073709551615 messages status -13 in 1.500 s"
		   " ok true error - (text only 7) a\0b\nsecond 2\n", 100),
	   "text: PRINT_FP and PRINT_ANY formats, bytes as they are");
	s = render_out(rec_event, true, false);
	ok(!strcmp(s, "{\"event\":\"closed\",\"chan\":3,\"messages\":18446744073709551615,"
		   "\"status\":-13,\"seconds\":1.5,\"ok\":true,\"error\":null,\"data_hex\":\"20610062\"}\n"
		   "{\"n\":2}\n"),
	   "JSON: PRINT_JSON and PRINT_ANY keys, a line per record");
	s = render_out(rec_list, false, false);
	ok(!strcmp(s, "0: port 1 dev_list\n1: port 1 dev_list\n"), "text: a list is its records");
	s = render_out(rec_list, true, false);
	ok(!strcmp(s, "[{\"index\":0,\"ports\":[{\"port\":1}],\"features\":[\"dev_list\"]},"
		   "{\"index\":1,\"ports\":[{\"port\":1}],\"features\":[\"dev_list\"]}]\n"),
	   "JSON: a list is one array, nested objects and arrays");
	s = render_out(rec_empty_list, true, false);
	ok(!strcmp(s, "[]\n"), "JSON: an empty list");
	s = render_out(rec_empty_list, false, false);
	ok(!strcmp(s, ""), "text: an empty list prints nothing");
	s = render_out(rec_list, true, true);
	ok(!strncmp(s, "[\n  {\n    \"index\": 0,\n    \"ports\": [\n      {\n        \"port\": 1\n",
		    50), "pretty JSON indents records");
}

/* ---- solicited_events: chan show (chan_show.c), CHAN_INFO (chan.c) ---- */

/* chan3's sysfs attributes, with a module's solicited_events or without */
static void chan3(FILE *f, bool solicited)
{
	static const char *const attrs[][2] = {
		{ "state", "connected" }, { "role", "active" },
		{ "msgs_tx", "5" }, { "errors", "0" }, { "solicited_events", "7" },
	};
	struct chan_attr at[5];
	int i, n = solicited ? 5 : 4;

	for (i = 0; i < n; i++) {
		strcpy(at[i].name, attrs[i][0]);
		strcpy(at[i].value, attrs[i][1]);
	}
	chan_show_one(f, "chan3", at, n);
}

static void chan3_new(FILE *f)
{
	chan3(f, true);
}

static void chan3_old(FILE *f)
{
	chan3(f, false);
}

void test_chan_show(void)
{
	char *s;

	s = render_out(chan3_new, false, false);
	ok(strstr(s, "chan3: ") && !strstr(s, "msgs") && !strstr(s, "solicited"),
	   "chan show: text without -s has no counters");
	tool.stats = true;
	s = render_out(chan3_new, false, false);
	ok(strstr(s, " keepalives - errors 0 solicited_events 7\n") != NULL,
	   "chan show -s: text ends the counters with solicited_events");
	s = render_out(chan3_old, false, false);
	ok(strstr(s, " keepalives - errors 0\n") && !strstr(s, "solicited"),
	   "chan show -s: text leaves solicited_events out when the module has none");
	tool.stats = false;
	s = render_out(chan3_new, true, false);
	ok(strstr(s, "\"msgs_tx\":5,\"role\":\"active\",\"solicited_events\":7,") != NULL,
	   "chan show: JSON has solicited_events, a number");
	s = render_out(chan3_old, true, false);
	ok(s[0] == '{' && !strstr(s, "solicited"),
	   "chan show: JSON leaves solicited_events out when the module has none");
}

/* Stand-ins for ioctl(2) on a channel fd: a module of today, of the first ABI */
static int ioc_calls;

static int ioc_new(int fd, unsigned long req, void *arg)
{
	struct rdmachan_chan_info *ci = arg;

	(void)fd;
	ioc_calls++;
	if (req != RDMACHAN_IOC_CHAN_INFO ||
	    (ci->size != sizeof(*ci) && ci->size != RDMACHAN_CHAN_INFO_SIZE_V1)) {
		errno = EINVAL;
		return -1;
	}
	ci->msgs_tx = 5;
	if (ci->size == sizeof(*ci))
		ci->solicited_events = 7;
	return 0;
}

static int ioc_v1(int fd, unsigned long req, void *arg)
{
	struct rdmachan_chan_info *ci = arg;

	(void)fd;
	ioc_calls++;
	if (req != RDMACHAN_IOC_CHAN_INFO || ci->size != RDMACHAN_CHAN_INFO_SIZE_V1) {
		errno = EINVAL;
		return -1;
	}
	ci->msgs_tx = 5;
	return 0;
}

static int ioc_gone(int fd, unsigned long req, void *arg)
{
	(void)fd;
	(void)req;
	(void)arg;
	ioc_calls++;
	errno = ENOTTY;
	return -1;
}

void test_chan_info(void)
{
	struct rdmachan_chan_info ci;
	int r;

	ok(RDMACHAN_CHAN_INFO_SIZE_V1 == offsetof(struct rdmachan_chan_info, solicited_events) &&
	   sizeof(ci) == RDMACHAN_CHAN_INFO_SIZE_V1 + 8,
	   "CHAN_INFO: V1 ends where solicited_events begins");
	ioc_calls = 0;
	r = chan_info_query(3, &ci, ioc_new);
	ok(!r && ioc_calls == 1 && ci.size == sizeof(ci) && ci.msgs_tx == 5 &&
	   ci.solicited_events == 7, "CHAN_INFO: the whole struct from a module that knows it");
	ioc_calls = 0;
	memset(&ci, 0xff, sizeof(ci));
	r = chan_info_query(3, &ci, ioc_v1);
	ok(!r && ioc_calls == 2 && ci.size == RDMACHAN_CHAN_INFO_SIZE_V1 && ci.msgs_tx == 5 &&
	   ci.solicited_events == 0,
	   "CHAN_INFO: an old module's EINVAL: the V1 size again, no solicited_events");
	ioc_calls = 0;
	errno = 0;
	r = chan_info_query(3, &ci, ioc_gone);
	ok(r == -1 && errno == ENOTTY && ioc_calls == 1,
	   "CHAN_INFO: another error is no reason to try V1");
}

/* render: run @fn with a JSON writer on a memory stream, return its text. */
static char *render(void (*fn)(struct json *), bool pretty)
{
	static char buf[1024];
	FILE *f = fmemopen(buf, sizeof(buf), "w");
	struct json j;

	json_init(&j, f, pretty);
	fn(&j);
	fclose(f);
	return buf;
}

static void doc1(struct json *j)
{
	json_arr_open(j);
	json_obj_open(j);
	json_kv_str(j, "name", "rxe0");
	json_kv_u64(j, "n", 18446744073709551615ULL);
	json_kv_s64(j, "e", -5);
	json_kv_bool(j, "ok", true);
	json_key(j, "ports");
	json_arr_open(j);
	json_arr_close(j);
	json_key(j, "none");
	json_null(j);
	json_obj_close(j);
	json_obj_open(j);
	json_obj_close(j);
	json_arr_close(j);
	json_end(j);
}

static void doc2(struct json *j)
{
	json_obj_open(j);
	json_kv_str(j, "s", "a\"b\\c\n\t\x01");
	json_kv_double(j, "d", 1.5);
	json_kv_double(j, "inf", 1.0 / 0.0);
	json_obj_close(j);
	json_end(j);
}

static void doc3(struct json *j)
{
	json_obj_open(j);
	json_kv_u64(j, "a", 1);
	json_key(j, "b");
	json_arr_open(j);
	json_u64(j, 2);
	json_u64(j, 3);
	json_arr_close(j);
	json_obj_close(j);
	json_end(j);
}

void test_json(void)
{
	char *s;

	s = render(doc1, false);
	ok(!strcmp(s, "[{\"name\":\"rxe0\",\"n\":18446744073709551615,\"e\":-5,"
		   "\"ok\":true,\"ports\":[],\"none\":null},{}]\n"),
	   "compact JSON");
	s = render(doc2, false);
	ok(!strcmp(s, "{\"s\":\"a\\\"b\\\\c\\n\\t\\u0001\",\"d\":1.5,\"inf\":null}\n"),
	   "JSON escapes and doubles");
	s = render(doc3, true);
	ok(!strcmp(s, "{\n  \"a\": 1,\n  \"b\": [\n    2,\n    3\n  ]\n}\n"),
	   "pretty JSON indents");
}
