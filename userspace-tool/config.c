// SPDX-License-Identifier: GPL-2.0-only
/*
 * config.c: the "config" object: this host's exports, mappings and
 * network interfaces, saved as the rdmachan commands that make them and
 * restored by running those (as iptables-save/-restore and nvmetcli's
 * save/restore do, in the tool's own grammar: "rdmachan -b" reads the
 * file too).
 *
 *   rdmachan config show
 *   rdmachan config save [--file FILE]
 *   rdmachan config restore [--file FILE] [--dry-run]
 *
 * restore skips what exists already (an export or an interface of the
 * same name, a mapping of the same export on the same server), so that
 * it can run again, at every boot or after a partial failure.
 */
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "blk.h"
#include "config.h"
#include "net.h"

/* ---- pure: lines and keys ------------------------------------------- */

static bool word_plain(const char *s)
{
	if (!*s)
		return false;
	for (; *s; s++)
		if (!((*s >= 'a' && *s <= 'z') || (*s >= 'A' && *s <= 'Z') ||
		      (*s >= '0' && *s <= '9') || strchr("/._:@+=,-", *s)))
			return false;
	return true;
}

int config_quote(const char *s, char *buf, size_t len)
{
	size_t o = 0;

	if (word_plain(s))
		return snprintf(buf, len, "%s", s) < (int)len ? 0 : -1;
	if (len < 3)
		return -1;
	buf[o++] = '"';
	for (; *s; s++) {
		if (o + 4 > len)
			return -1;
		if (*s == '"' || *s == '\\')
			buf[o++] = '\\';
		buf[o++] = *s;
	}
	buf[o++] = '"';
	buf[o] = '\0';
	return 0;
}

/* appends " WORD" (quoted as need be) to @buf at *@o */
static int add_word(char *buf, size_t len, size_t *o, const char *w)
{
	char q[CONFIG_LINE_MAX];

	if (config_quote(w, q, sizeof(q)) || *o + 1 + strlen(q) + 1 > len)
		return -1;
	*o += sprintf(buf + *o, "%s%s", *o ? " " : "", q);
	return 0;
}

static int add_opt(char *buf, size_t len, size_t *o, const char *opt,
		   const char *val)
{
	if (!val || !*val)
		return 0;
	return add_word(buf, len, o, opt) || add_word(buf, len, o, val);
}

static int add_u32(char *buf, size_t len, size_t *o, const char *opt,
		   uint32_t v)
{
	char s[16];

	if (!v)
		return 0;
	snprintf(s, sizeof(s), "%u", v);
	return add_opt(buf, len, o, opt, s);
}

int config_export_line(const struct rdmachan_blk_export_info *e, char *buf,
		       size_t len)
{
	char cidr[64];
	size_t o = 0;
	uint32_t i;

	if (add_word(buf, len, &o, "blk") || add_word(buf, len, &o, "export") ||
	    add_word(buf, len, &o, e->name) || add_word(buf, len, &o, e->path))
		return -1;
	if ((e->flags & RDMACHAN_BLK_RO) && add_word(buf, len, &o, "--ro"))
		return -1;
	if ((e->flags & RDMACHAN_BLK_STABLE_ID) &&
	    add_word(buf, len, &o, "--stable-id"))
		return -1;
	for (i = 0; i < e->nr_allow && i < RDMACHAN_BLK_MAX_ALLOW; i++) {
		format_cidr(&e->allow[i], cidr, sizeof(cidr));
		if (add_opt(buf, len, &o, "--allow", cidr))
			return -1;
	}
	return 0;
}

int config_map_line(const struct rdmachan_blk_map_info *m,
		    const struct sysfs_extra *x, char *buf, size_t len)
{
	char addr[64];
	size_t o = 0;

	format_addr(&m->server, addr, sizeof(addr));
	if (add_word(buf, len, &o, "blk") || add_word(buf, len, &o, "map") ||
	    add_word(buf, len, &o, addr) || add_word(buf, len, &o, m->name))
		return -1;
	if ((m->flags & RDMACHAN_BLK_RO) && add_word(buf, len, &o, "--ro"))
		return -1;
	if (add_opt(buf, len, &o, "--src", x->src) ||
	    add_u32(buf, len, &o, "--queues", m->nr_queues) ||
	    (m->nr_poll_queues &&
	     add_u32(buf, len, &o, "--poll-queues", m->nr_poll_queues)) ||
	    add_u32(buf, len, &o, "--depth", m->queue_depth) ||
	    add_opt(buf, len, &o, "--reconnect-delay", x->delay) ||
	    add_opt(buf, len, &o, "--loss-timeout", x->loss) ||
	    add_opt(buf, len, &o, "--fast-io-fail", x->fast))
		return -1;
	return 0;
}

int config_net_line(const struct rdmachan_net_info *n,
		    const struct sysfs_extra *x, char *buf, size_t len)
{
	bool listen = n->mode == RDMACHAN_NET_LISTEN;
	char addr[64];
	size_t o = 0;

	format_addr(&n->addr, addr, sizeof(addr));
	if (add_word(buf, len, &o, "net") || add_word(buf, len, &o, "add") ||
	    add_word(buf, len, &o, n->name) ||
	    add_word(buf, len, &o, listen ? "listen" : "connect") ||
	    add_word(buf, len, &o, addr) ||
	    add_opt(buf, len, &o, listen ? "--peer" : "--src", x->src) ||
	    add_u32(buf, len, &o, "--mtu", n->mtu) ||
	    add_u32(buf, len, &o, "--msg-size", n->max_msg_size) ||
	    add_u32(buf, len, &o, "--depth", n->queue_depth) ||
	    add_opt(buf, len, &o, "--reconnect-delay", x->delay) ||
	    add_opt(buf, len, &o, "--loss-timeout", x->loss))
		return -1;
	return 0;
}

/* the name of the entry of @cmds that @word names, or NULL */
static const char *cmd_word(const struct cmd *cmds, const char *word)
{
	int i = cmd_match(cmds, word);

	return i < 0 ? NULL : cmds[i].name;
}

int config_key(int n, char **w, char *key, size_t len)
{
	const char *obj, *cmd;
	struct sockaddr_storage ss;
	char addr[64];

	if (n < 2)
		return -ENOENT;
	obj = cmd_word(tool_objects, w[0]);
	if (!obj || (strcmp(obj, "blk") && strcmp(obj, "net")))
		return -ENOENT;
	cmd = cmd_word(strcmp(obj, "blk") ? net_cmds : blk_cmds, w[1]);
	if (!cmd)
		return -ENOENT;
	if (!strcmp(cmd, "export") || (!strcmp(obj, "net") && !strcmp(cmd, "add"))) {
		if (n < 3 || w[2][0] == '-')
			return -EINVAL;
		snprintf(key, len, "%s %s", *obj == 'b' ? "export" : "net", w[2]);
		return 0;
	}
	if (strcmp(cmd, "map"))
		return -ENOENT;
	if (n < 4 || parse_blk_server(w[2], &ss) || !blk_name_ok(w[3]))
		return -EINVAL;
	format_addr(&ss, addr, sizeof(addr));
	snprintf(key, len, "map %s %s", addr, w[3]);
	return 0;
}

/* ---- what exists ---------------------------------------------------- */

/* every line that makes what exists, or with @keys its key, into @out */
struct config_set {
	char **s;
	unsigned int n;
};

static int set_add(struct config_set *set, const char *s)
{
	char **p = realloc(set->s, (set->n + 1) * sizeof(*p));

	if (!p || !(p[set->n] = strdup(s))) {
		if (p)
			set->s = p;
		return -1;
	}
	set->s = p;
	set->n++;
	return 0;
}

static bool set_has(const struct config_set *set, const char *s)
{
	unsigned int i;

	for (i = 0; i < set->n; i++)
		if (!strcmp(set->s[i], s))
			return true;
	return false;
}

static void set_free(struct config_set *set)
{
	while (set->n)
		free(set->s[--set->n]);
	free(set->s);
	set->s = NULL;
}

/* adds @line's key (@keys) or @line itself to @set */
static int set_line(struct config_set *set, bool keys, char *line)
{
	char copy[CONFIG_LINE_MAX], *w[64], key[256];
	int n;

	if (!keys)
		return set_add(set, line);
	snprintf(copy, sizeof(copy), "%s", line);
	n = batch_words(copy, w, 64);
	return config_key(n, w, key, sizeof(key)) ? -1 : set_add(set, key);
}

static int blk_lines(int ctl, bool keys, bool exports, struct config_set *set)
{
	char line[CONFIG_LINE_MAX];
	struct rdmachan_blk_export_info *e;
	struct rdmachan_blk_map_info *m;
	struct sysfs_extra x;
	unsigned int i, n;
	void *v;

	if (ctl_blk_list(ctl, exports ? RDMACHAN_BLK_LIST_EXPORTS :
			 RDMACHAN_BLK_LIST_MAPS, &v, &n))
		return -errno;
	for (i = 0; i < n; i++) {
		memset(&x, 0, sizeof(x));
		if (exports) {
			e = (struct rdmachan_blk_export_info *)v + i;
			if (e->state != RDMACHAN_BLK_EXPORTED)
				continue;	/* on its way out */
			if (config_export_line(e, line, sizeof(line)))
				goto bad;
		} else {
			m = (struct rdmachan_blk_map_info *)v + i;
			sysfs_map_extra(m->index, &x);
			if (config_map_line(m, &x, line, sizeof(line)))
				goto bad;
		}
		if (set_line(set, keys, line))
			goto bad;
	}
	free(v);
	return 0;
bad:
	free(v);
	return -ENOMEM;
}

static int net_lines(int ctl, bool keys, struct config_set *set)
{
	char line[CONFIG_LINE_MAX];
	struct rdmachan_net_info *v;
	struct sysfs_extra x;
	unsigned int i, n;

	if (ctl_net_list(ctl, &v, &n))
		return -errno;
	for (i = 0; i < n; i++) {
		sysfs_net_extra(v[i].name, &x);
		if (config_net_line(&v[i], &x, line, sizeof(line)) ||
		    set_line(set, keys, line)) {
			free(v);
			return -ENOMEM;
		}
	}
	free(v);
	return 0;
}

/* the lines of one family ("blk exports", "blk maps", "net") */
static int family_lines(int ctl, int fam, bool keys, struct config_set *set)
{
	return fam == 2 ? net_lines(ctl, keys, set) :
		blk_lines(ctl, keys, fam == 0, set);
}

static const char *const family_names[] = {
	"exports (rdmachan_blk server)",
	"mappings (rdmachan_blk client)",
	"network interfaces (rdmachan_net)",
};

/* ---- show, save ----------------------------------------------------- */

static int write_config(int ctl, FILE *out)
{
	struct config_set set = { NULL, 0 };
	unsigned int i;
	int fam, err;

	fprintf(out, "# rdmachan configuration (rdmachan config save): the commands\n"
		"# that make this host's exports, mappings and interfaces again,\n"
		"# run by \"rdmachan config restore\" (rdmachan -b reads it too)\n");
	for (fam = 0; fam < 3; fam++) {
		err = family_lines(ctl, fam, false, &set);
		if (err) {
			tool_err("config: listing the %s: %s", family_names[fam],
				 strerror(-err));
			set_free(&set);
			return EXIT_FAIL;
		}
		fprintf(out, "\n# %s\n", family_names[fam]);
		for (i = 0; i < set.n; i++)
			fprintf(out, "%s\n", set.s[i]);
		set_free(&set);
	}
	return EXIT_OK;
}

/*
 * --file FILE (-f), and restore's --dry-run (-n).  Return: 0, -1 when
 * the help was printed, EXIT_USAGE.
 */
static int config_opts(const char *cmd, int argc, char **argv,
		       const char **file, bool *dry_run, void (*help)(void))
{
	static const struct option longopts[] = {
		{ "file", required_argument, NULL, 'f' },
		{ "dry-run", no_argument, NULL, 'n' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 }
	};
	int c;

	CMD_GETOPT_INIT();
	*file = CONFIG_DEFAULT_FILE;
	while ((c = CMD_GETOPT(argc, argv, dry_run ? "f:nh" : "f:h", longopts)) != -1) {
		switch (c) {
		case 'f':
			*file = optarg;
			break;
		case 'n':
			if (!dry_run)
				goto bad;
			*dry_run = true;
			break;
		case 'h':
			help();
			return -1;
		default:
			goto bad;
		}
	}
	if (optind - 1 < argc)
		return tool_usage_err(cmd, "unexpected argument '%s'", argv[optind - 1]);
	return 0;
bad:
	return cmd_bad_option(cmd, argv);
}

static void show_help(void)
{
	printf("Usage: rdmachan config show\n"
	       "Print this host's configuration as config save writes it: the\n"
	       "rdmachan commands that make its exports, mappings and network\n"
	       "interfaces.\n");
}

static int config_show(int argc, char **argv)
{
	int ctl, rc;

	if (cmd_help_asked(argc, argv)) {
		show_help();
		return EXIT_OK;
	}
	if (argc)
		return tool_usage_err("config show", "unexpected argument '%s'", argv[0]);
	ctl = ctl_open();
	if (ctl < 0)
		return EXIT_FAIL;
	rc = write_config(ctl, stdout);
	close(ctl);
	return rc;
}

static void save_help(void)
{
	printf("Usage: rdmachan config save [--file FILE]\n"
	       "Write this host's exports, mappings and network interfaces to FILE\n"
	       "(- for stdout), replacing it whole: config restore makes them again.\n"
	       "  -f, --file FILE     the file (default " CONFIG_DEFAULT_FILE ")\n");
}

/* FILE's directory, made (one level, 0755) when missing */
static void make_parent(const char *file)
{
	char dir[512], *slash;

	snprintf(dir, sizeof(dir), "%s", file);
	slash = strrchr(dir, '/');
	if (slash && slash != dir) {
		*slash = '\0';
		mkdir(dir, 0755);
	}
}

static int config_save(int argc, char **argv)
{
	const char *file;
	char tmp[600];
	FILE *f;
	int ctl, rc, r;

	r = config_opts("config save", argc, argv, &file, NULL, save_help);
	if (r)
		return r < 0 ? EXIT_OK : r;
	ctl = ctl_open();
	if (ctl < 0)
		return EXIT_FAIL;
	if (!strcmp(file, "-")) {
		rc = write_config(ctl, stdout);
		close(ctl);
		return rc;
	}
	/* a new file renamed over the old: a crash leaves one or the other */
	make_parent(file);
	snprintf(tmp, sizeof(tmp), "%s.tmp%d", file, (int)getpid());
	f = fopen(tmp, "w");
	if (!f) {
		tool_err("config save: cannot write %s: %s", tmp, strerror(errno));
		close(ctl);
		return EXIT_FAIL;
	}
	rc = write_config(ctl, f);
	close(ctl);
	if (fflush(f) || fsync(fileno(f)))
		rc = EXIT_FAIL;
	if (fclose(f))
		rc = EXIT_FAIL;
	if (rc == EXIT_OK && rename(tmp, file)) {
		tool_err("config save: cannot replace %s: %s", file, strerror(errno));
		rc = EXIT_FAIL;
	}
	if (rc != EXIT_OK)
		unlink(tmp);
	return rc;
}

/* ---- restore -------------------------------------------------------- */

static void restore_help(void)
{
	printf("Usage: rdmachan config restore [--file FILE] [--dry-run]\n"
	       "Run the commands of FILE (- for stdin), as config save wrote them,\n"
	       "skipping an export or interface whose name exists and a mapping of\n"
	       "an export that is mapped already; go on after a command that fails\n"
	       "and exit 1 at the end if one did.\n"
	       "  -f, --file FILE     the file (default " CONFIG_DEFAULT_FILE ")\n"
	       "  -n, --dry-run       print what would run and what is skipped\n");
}

/* the family of a key: 0 export, 1 map, 2 net */
static int key_family(const char *key)
{
	return *key == 'e' ? 0 : *key == 'm' ? 1 : 2;
}

struct restore {
	int ctl;
	bool listed[3];
	struct config_set have;
	int failed;
};

/* has what @key names been made already (listing its family once) */
static bool restore_has(struct restore *r, const char *key)
{
	int fam = key_family(key), err;

	if (!r->listed[fam]) {
		err = family_lines(r->ctl, fam, true, &r->have);
		if (err)
			tool_err("config restore: listing the %s: %s",
				 family_names[fam], strerror(-err));
		r->listed[fam] = true;
	}
	return set_has(&r->have, key);
}

static void restore_line(struct restore *r, const char *file, int no,
			 char *line, bool dry_run)
{
	char *w[72], key[256], shown[CONFIG_LINE_MAX];
	int n, k, rc, o = 1;

	snprintf(shown, sizeof(shown), "%s", line);
	shown[strcspn(shown, "\n")] = '\0';
	w[0] = "rdmachan";
	if (strcmp(tool.ctl_path, "/dev/" RDMACHAN_DEVICE_NAME)) {
		w[o++] = "--ctl";
		w[o++] = (char *)tool.ctl_path;
	}
	n = batch_words(line, w + o, 64);
	if (n == 0)
		return;
	if (n < 0 || w[o][0] == '-') {
		tool_err("%s:%d: %s", file, no, n < 0 ?
			 "an open quote or too many words" :
			 "a line is OBJECT COMMAND ..., without options before it");
		r->failed++;
		return;
	}
	w[o + n] = NULL;
	k = config_key(n, w + o, key, sizeof(key));
	if (k == 0 && restore_has(r, key)) {
		printf("exists, skipped: %s\n", shown);
		return;
	}
	if (dry_run) {
		printf("would run: %s\n", shown);
		return;
	}
	fflush(stdout);
	rc = rdmachan(o + n, w);
	fflush(stdout);
	if (rc != EXIT_OK) {
		tool_err("%s:%d: failed (exit %d): %s", file, no, rc, shown);
		r->failed++;
	} else if (k == 0) {
		set_add(&r->have, key);
	}
}

static int config_restore(int argc, char **argv)
{
	struct restore r = { .ctl = -1 };
	bool dry_run = false;
	const char *file;
	char *line = NULL;
	size_t cap = 0;
	int no = 0, ret;
	FILE *f;

	ret = config_opts("config restore", argc, argv, &file, &dry_run,
			  restore_help);
	if (ret)
		return ret < 0 ? EXIT_OK : ret;
	f = strcmp(file, "-") ? fopen(file, "r") : stdin;
	if (!f) {
		tool_err("config restore: cannot open %s: %s", file, strerror(errno));
		return EXIT_FAIL;
	}
	r.ctl = ctl_open();
	if (r.ctl < 0) {
		if (f != stdin)
			fclose(f);
		return EXIT_FAIL;
	}
	while (getline(&line, &cap, f) >= 0)
		restore_line(&r, file, ++no, line, dry_run);
	free(line);
	if (f != stdin)
		fclose(f);
	close(r.ctl);
	set_free(&r.have);
	if (r.failed)
		tool_err("config restore: %d command%s of %s failed", r.failed,
			 r.failed == 1 ? "" : "s", file);
	return r.failed ? EXIT_FAIL : EXIT_OK;
}

static int config_help(int argc, char **argv)
{
	(void)argc;
	(void)argv;
	printf("Usage: rdmachan config show\n"
	       "       rdmachan config save [--file FILE]\n"
	       "       rdmachan config restore [--file FILE] [--dry-run]\n"
	       "       rdmachan config { COMMAND --help | help }\n"
	       "This host's exports, mappings and network interfaces as the rdmachan\n"
	       "commands that make them, in " CONFIG_DEFAULT_FILE " by default.\n");
	return EXIT_OK;
}

const struct cmd config_cmds[] = {
	{ "show", config_show },
	{ "save", config_save },
	{ "restore", config_restore },
	{ "help", config_help },
	CMD_END
};

int obj_config(int argc, char **argv)
{
	return cmd_run("config", config_cmds, argc, argv);
}
