/*
 * Unit tests of the option tables' parser (cmd/opt.c): each typed kind and
 * its bounds, a missing value, an unknown option, exclusive options, an
 * option of another command's table, options before and after the command
 * and "--".
 */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "opt.h"
#include "support.h"

/* The global options' struct. */
struct g {
	bool json, quiet, verbose;
	const char *root;
	unsigned timeout_ms;
	const char *named; /* set by a custom option of a command */
};

/* One command's. */
struct c {
	bool dry;
	const char *out;
	unsigned wait, runs, interval_ms;
	uint64_t size;
	const char *color;
};

/* Another command's. */
struct o {
	bool yaml;
	unsigned wait;
};

static const char *take_name(void *opts, void *global, const char *arg)
{
	(void)opts;
	if (!strcmp(arg, "bad"))
		return "not a good name";
	((struct g *)global)->named = arg;
	return NULL;
}

static const struct opt g_opts[] = {
    OPT_FLAG("json", 0, struct g, json, "one JSON document"),
    OPT_STRING("root", 0, "DIR", struct g, root, "beneath DIR"),
    OPT_SECONDS("timeout", struct g, timeout_ms, 1, 3600, 1000, "how long"),
    OPT_FLAG("quiet", 'q', struct g, quiet, "less"),
    OPT_FLAG("verbose", 'v', struct g, verbose, "more"),
};
static const struct opt_pair g_excl[] = {
    {"quiet", "verbose", "-q and -v ask for less and more at once: give one of them"},
    {NULL, NULL, NULL},
};
static const struct opt_table g_table = OPT_TABLE(g_opts, struct g, NULL, g_excl, NULL);

static const char *const colors[] = {"red", "green", "blue", NULL};
static const struct opt c_opts[] = {
    OPT_FLAG("dry-run", 'n', struct c, dry, "change nothing"),
    OPT_STRING("output", 'o', "FILE", struct c, out, "write it to FILE"),
    OPT_SECONDS("wait", struct c, wait, 0, 86400, 1, "how long to wait"),
    OPT_NUMBER("runs", "N", struct c, runs, 1, 100, "a number of runs", "how many runs"),
    OPT_INTERVAL("interval", struct c, interval_ms, "between looks"),
    OPT_SIZE("size", "SIZE", struct c, size, 1024, (uint64_t)1 << 30,
	     "a size from 1MiB to 1024GiB, such as 512MiB", "of the file"),
    OPT_CHOICE("color", "COLOR", struct c, color, colors, "its color"),
    OPT_CUSTOM("name", 0, "NAME", take_name, "its name"),
    OPT_FLAG("install", 0, struct c, dry, "install it"),
    OPT_FLAG("uninstall", 0, struct c, dry, "uninstall it"),
};
static const struct opt_pair c_excl[] = {
    {"install", "uninstall", NULL},
    {"dry-run", "json", "--dry-run and --json: not here"},
    {NULL, NULL, NULL},
};
static const struct opt_pair c_requires[] = {
    {"interval", "output", NULL},
    {"runs", "json", "--runs counts only with --json"},
    {NULL, NULL, NULL},
};
static const struct c c_defaults = {.wait = 120};
static const struct opt_table c_table =
    OPT_TABLE(c_opts, struct c, &c_defaults, c_excl, c_requires);

static const struct opt o_opts[] = {
    OPT_FLAG("yaml", 0, struct o, yaml, "as YAML"),
    OPT_SECONDS("wait", struct o, wait, 0, 10, 1, "how long"),
};
static const struct opt_table o_table = OPT_TABLE(o_opts, struct o, NULL, NULL, NULL);

static const struct opt_table *const tables[] = {&g_table, &c_table, &o_table};

struct parsed {
	struct opt_scan s;
	struct g g;
	struct c c;
	int rc;
};

/* Parse "prog" + words as command c's line (the o command's when own is &o_table). */
static void parse_as(struct parsed *p, const struct opt_table *own, void *obase,
		     const char *const *words)
{
	char *argv[32] = {"prog"};
	int argc = 1;

	while (*words)
		argv[argc++] = (char *)*words++;
	memset(p, 0, sizeof(*p));
	p->c = c_defaults;
	assert_int_equal(opt_scan(&p->s, argc, argv, tables, 3), 0);
	p->rc = opt_take(&p->s, &g_table, &p->g, own, obase);
}

static void parse(struct parsed *p, const char *const *words)
{
	parse_as(p, &c_table, &p->c, words);
}

#define PARSE(p, ...) parse((p), (const char *const[]){__VA_ARGS__, NULL})

static void test_kinds(void **state)
{
	struct parsed p;

	(void)state;
	PARSE(&p, "--json", "cmd", "--root=/r", "-n", "-o", "f.sh", "--wait", "0", "--runs=100",
	      "--interval", "0.5", "--size", "512MiB", "--color", "blue", "--timeout", "30", "arg");
	assert_int_equal(p.rc, 0);
	assert_true(p.g.json);
	assert_string_equal(p.g.root, "/r");
	assert_int_equal(p.g.timeout_ms, 30000);
	assert_true(p.c.dry);
	assert_string_equal(p.c.out, "f.sh");
	assert_int_equal(p.c.wait, 0);
	assert_int_equal(p.c.runs, 100);
	assert_int_equal(p.c.interval_ms, 500);
	assert_true(p.c.size == 512ull << 20);
	assert_string_equal(p.c.color, "blue");
	assert_int_equal(p.s.n_pos, 2);
	assert_string_equal(p.s.pos[0], "cmd");
	assert_string_equal(p.s.pos[1], "arg");
	assert_null(p.s.foreign);
	opt_scan_free(&p.s);
	/* The defaults stay where nothing is given; -oFILE, the interval's decimals. */
	PARSE(&p, "cmd", "-ofile", "--interval=3600", "--name", "x");
	assert_int_equal(p.rc, 0);
	assert_int_equal(p.c.wait, 120);
	assert_string_equal(p.c.out, "file");
	assert_int_equal(p.c.interval_ms, 3600000);
	assert_string_equal(p.g.named, "x");
	opt_scan_free(&p.s);
}

/* One refused value: rc -EINVAL and the exact message. */
static void refused(const char *want, const char *const *words)
{
	struct parsed p;

	parse(&p, words);
	assert_int_equal(p.rc, -EINVAL);
	assert_string_equal(p.s.err, want);
	opt_scan_free(&p.s);
}

#define REFUSED(want, ...) refused((want), (const char *const[]){__VA_ARGS__, NULL})

static void test_bounds(void **state)
{
	(void)state;
	REFUSED("--runs '0': expected a number of runs, 1..100", "cmd", "--runs", "0");
	REFUSED("--runs '101': expected a number of runs, 1..100", "cmd", "--runs=101");
	REFUSED("--runs 'x': expected a number of runs, 1..100", "--runs", "x", "cmd");
	REFUSED("--wait '86401': expected seconds, 0..86400", "cmd", "--wait", "86401");
	REFUSED("--wait '-1': expected seconds, 0..86400", "cmd", "--wait", "-1");
	REFUSED("--timeout '0': expected seconds, 1..3600", "--timeout", "0", "cmd");
	REFUSED("--timeout '3601': expected seconds, 1..3600", "cmd", "--timeout", "3601");
	REFUSED("--interval '0.05': expected seconds, 0.1..3600", "cmd", "--interval", "0.05");
	REFUSED("--interval '1.2345': expected seconds, 0.1..3600", "cmd", "--interval", "1.2345");
	REFUSED("--interval '3600.001': expected seconds, 0.1..3600", "cmd", "--interval",
		"3600.001");
	REFUSED("--interval '.5': expected seconds, 0.1..3600", "cmd", "--interval", ".5");
	REFUSED("--size '1k': expected a size from 1MiB to 1024GiB, such as 512MiB", "cmd",
		"--size", "1k");
	REFUSED("--size '512KiB': expected a size from 1MiB to 1024GiB, such as 512MiB", "cmd",
		"--size", "512KiB");
	REFUSED("--size '2TiB': expected a size from 1MiB to 1024GiB, such as 512MiB", "cmd",
		"--size", "2TiB");
	REFUSED("--color 'pink': expected red, green or blue", "cmd", "--color", "pink");
	REFUSED("--name 'bad': not a good name", "cmd", "--name", "bad");
}

static void test_bounds_edges(void **state)
{
	struct parsed p;

	(void)state;
	PARSE(&p, "cmd", "--runs", "1", "--wait", "86400", "--interval", "0.1", "--size", "1MiB",
	      "--timeout", "3600");
	assert_int_equal(p.rc, 0);
	assert_int_equal(p.c.runs, 1);
	assert_int_equal(p.c.wait, 86400);
	assert_int_equal(p.c.interval_ms, 100);
	assert_true(p.c.size == 1ull << 20);
	assert_int_equal(p.g.timeout_ms, 3600000);
	opt_scan_free(&p.s);
}

static void test_missing_and_unknown(void **state)
{
	(void)state;
	REFUSED("option '--runs' needs an argument (see mdprofile --help)", "cmd", "--runs");
	REFUSED("option '-o' needs an argument (see mdprofile --help)", "cmd", "-o");
	REFUSED("unknown option '--bogus' (see mdprofile --help)", "cmd", "--bogus");
	REFUSED("unknown option '-x' (see mdprofile --help)", "cmd", "-x");
	REFUSED("unknown option '--json=1' (see mdprofile --help)", "cmd", "--json=1");
	/* In order: a value refused before the unknown option is what is said. */
	REFUSED("--runs '0': expected a number of runs, 1..100", "cmd", "--runs", "0", "--bogus");
	REFUSED("unknown option '--bogus' (see mdprofile --help)", "cmd", "--bogus", "--runs", "0");
	REFUSED("unknown option '--bogus' (see mdprofile --help)", "cmd", "--bogus", "--more",
		"-x");
}

/* What the rules of t say of the line words (it parses), in err: "" when none is broken. */
static const char *rules_say(const struct opt_table *t, char *err, size_t len,
			     const char *const *words)
{
	struct parsed p;

	parse(&p, words);
	assert_int_equal(p.rc, 0);
	if (!opt_rule_broken(t, &g_table, "cmd", p.s.seen, err, len))
		err[0] = '\0';
	opt_scan_free(&p.s);
	return err;
}

#define RULES(t, ...) rules_say((t), err, sizeof(err), (const char *const[]){__VA_ARGS__, NULL})

static void test_exclusive(void **state)
{
	char err[256] = "";

	(void)state;
	assert_string_equal(RULES(&g_table, "-q", "cmd", "-v"),
			    "-q and -v ask for less and more at once: give one of them");
	assert_string_equal(RULES(&c_table, "-q", "cmd", "-v"), "");
	assert_string_equal(RULES(&c_table, "cmd", "--uninstall", "--install"),
			    "--install and --uninstall: choose one");
	assert_string_equal(RULES(&g_table, "cmd", "--uninstall", "--install"), "");
	assert_string_equal(RULES(&g_table, "-q", "cmd", "--install"), "");
	assert_string_equal(RULES(&c_table, "-q", "cmd", "--install"), "");
	/* A command's option against a global one, wherever each stands. */
	assert_string_equal(RULES(&c_table, "--json", "cmd", "-n"),
			    "--dry-run and --json: not here");
	assert_string_equal(RULES(&c_table, "cmd", "-n"), "");
}

static void test_requires(void **state)
{
	char err[256] = "";

	(void)state;
	assert_string_equal(RULES(&c_table, "cmd", "--interval", "2"),
			    "--interval applies to 'cmd' only with --output");
	assert_string_equal(RULES(&c_table, "cmd", "--interval", "2", "-o", "f"), "");
	/* on a global option, with its own message */
	assert_string_equal(RULES(&c_table, "cmd", "--runs", "2"),
			    "--runs counts only with --json");
	assert_string_equal(RULES(&c_table, "cmd", "--runs", "2", "--json"), "");
	/* the exclusive pairs are said first */
	assert_string_equal(RULES(&c_table, "cmd", "--interval", "2", "--install", "--uninstall"),
			    "--install and --uninstall: choose one");
}

/* What f(args) writes, in a string the caller frees. */
#define PRINTED(buf, call)                                                                         \
	do {                                                                                       \
		size_t len_;                                                                       \
		FILE *f = open_memstream(&(buf), &len_);                                           \
		assert_non_null(f);                                                                \
		call;                                                                              \
		fclose(f);                                                                         \
	} while (0)

static void test_synopsis(void **state)
{
	char *out = NULL;

	(void)state;
	/* a requirement nests, exclusive options share a bracket, lines break between them */
	PRINTED(out, opt_print_synopsis(f, "usage: x cmd", &c_table, "FILE"));
	assert_string_equal(out,
			    "usage: x cmd [-n|--dry-run] [-o|--output FILE [--interval S]] "
			    "[--wait SECONDS]\n"
			    "             [--runs N] [--size SIZE] [--color COLOR] [--name NAME]\n"
			    "             [--install | --uninstall] FILE\n");
	free(out);
	/* a bracket longer than a line breaks before a " | " */
	PRINTED(out, opt_print_synopsis(f,
					"usage: a head long enough that the bracket of the install "
					"options",
					&c_table, NULL));
	assert_non_null(strstr(out, "[--install\n"));
	assert_non_null(strstr(out, " | --uninstall]\n"));
	free(out);
	PRINTED(out, opt_print_synopsis(f, "usage: x none", NULL, NULL));
	assert_string_equal(out, "usage: x none\n");
	free(out);
}

static void test_option_list(void **state)
{
	char *out = NULL;

	(void)state;
	PRINTED(out, opt_print_list(f, &o_table));
	assert_string_equal(out, "      --yaml              as YAML\n"
				 "      --wait SECONDS      how long\n");
	free(out);
	PRINTED(out, opt_print_list(f, &g_table));
	assert_non_null(strstr(out, "  -q, --quiet             less\n"));
	free(out);
	/* a spec too long for its column: the help on the next line */
	PRINTED(out, opt_print_list(f, &c_table));
	assert_non_null(strstr(out, "  -o, --output FILE       write it to FILE\n"));
	free(out);
	PRINTED(out,
		opt_print_wrapped(f, "one two three four five six seven eight nine ten", 60, 4));
	assert_string_equal(out, "one two three four\n    five six seven eight nine ten\n");
	free(out);
	PRINTED(out, opt_print_wrapped(f, "first\nsecond", 0, 2));
	assert_string_equal(out, "first\n  second\n");
	free(out);
}

static void test_other_command(void **state)
{
	struct parsed p;
	struct o o = {0};

	(void)state;
	/* c's options are foreign to o: the first one named, its value skipped, not checked. */
	parse_as(&p, &o_table, &o,
		 (const char *const[]){"other", "--runs", "x", "--yaml", "-o", "f", "pos", NULL});
	assert_int_equal(p.rc, 0);
	assert_non_null(p.s.foreign);
	assert_string_equal(p.s.foreign, "runs");
	assert_true(o.yaml);
	assert_int_equal(p.s.n_pos, 2);
	assert_string_equal(p.s.pos[1], "pos");
	opt_scan_free(&p.s);
	/* A short option of another command's is named by its long name. */
	parse_as(&p, &o_table, &o, (const char *const[]){"other", "-o", "f", NULL});
	assert_string_equal(p.s.foreign, "output");
	opt_scan_free(&p.s);
	/* The same name in both tables: each command's own bounds. */
	parse_as(&p, &o_table, &o, (const char *const[]){"other", "--wait", "11", NULL});
	assert_int_equal(p.rc, -EINVAL);
	assert_string_equal(p.s.err, "--wait '11': expected seconds, 0..10");
	opt_scan_free(&p.s);
	PARSE(&p, "cmd", "--wait", "11");
	assert_int_equal(p.rc, 0);
	assert_int_equal(p.c.wait, 11);
	assert_null(p.s.foreign);
	opt_scan_free(&p.s);
	/* No command (NULL table): every command option is foreign. */
	parse_as(&p, NULL, NULL, (const char *const[]){"--dry-run", "--json", NULL});
	assert_int_equal(p.rc, 0);
	assert_string_equal(p.s.foreign, "dry-run");
	assert_true(p.g.json);
	opt_scan_free(&p.s);
}

static void test_double_dash(void **state)
{
	struct parsed p;

	(void)state;
	PARSE(&p, "cmd", "-n", "--", "--json", "-q");
	assert_int_equal(p.rc, 0);
	assert_true(p.c.dry);
	assert_false(p.g.json);
	assert_false(p.g.quiet);
	assert_int_equal(p.s.n_pos, 3);
	assert_string_equal(p.s.pos[1], "--json");
	assert_string_equal(p.s.pos[2], "-q");
	opt_scan_free(&p.s);
	/* Bundled short flags, options before the command. */
	PARSE(&p, "-qn", "cmd");
	assert_int_equal(p.rc, 0);
	assert_true(p.g.quiet);
	assert_true(p.c.dry);
	assert_string_equal(p.s.pos[0], "cmd");
	opt_scan_free(&p.s);
}

MDP_TEST_MAIN(test_kinds, test_bounds, test_bounds_edges, test_missing_and_unknown, test_exclusive,
	      test_requires, test_synopsis, test_option_list, test_other_command, test_double_dash)
