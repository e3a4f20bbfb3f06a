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
#include <string.h>

#include <cmocka.h>

#include "opt.h"

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
    OPT_FLAG("json", 0, struct g, json),
    OPT_STRING("root", 0, "DIR", struct g, root),
    OPT_SECONDS("timeout", struct g, timeout_ms, 1, 3600, 1000),
    OPT_FLAG("quiet", 'q', struct g, quiet),
    OPT_FLAG("verbose", 'v', struct g, verbose),
};
static const struct opt_excl g_excl[] = {
    {"quiet", "verbose", "-q and -v ask for less and more at once: give one of them"},
    {NULL, NULL, NULL},
};
static const struct opt_table g_table = OPT_TABLE(g_opts, struct g, NULL, g_excl);

static const char *const colors[] = {"red", "green", "blue", NULL};
static const struct opt c_opts[] = {
    OPT_FLAG("dry-run", 'n', struct c, dry),
    OPT_STRING("output", 'o', "FILE", struct c, out),
    OPT_SECONDS("wait", struct c, wait, 0, 86400, 1),
    OPT_NUMBER("runs", "N", struct c, runs, 1, 100, "a number of runs"),
    OPT_INTERVAL("interval", struct c, interval_ms),
    OPT_SIZE("size", "SIZE", struct c, size, 1024, (uint64_t)1 << 30,
	     "a size from 1MiB to 1024GiB, such as 512MiB"),
    OPT_CHOICE("color", "COLOR", struct c, color, colors),
    OPT_CUSTOM("name", 0, "NAME", take_name),
    OPT_FLAG("install", 0, struct c, dry),
    OPT_FLAG("uninstall", 0, struct c, dry),
};
static const struct opt_excl c_excl[] = {
    {"install", "uninstall", NULL},
    {NULL, NULL, NULL},
};
static const struct c c_defaults = {.wait = 120};
static const struct opt_table c_table = OPT_TABLE(c_opts, struct c, &c_defaults, c_excl);

static const struct opt o_opts[] = {
    OPT_FLAG("yaml", 0, struct o, yaml),
    OPT_SECONDS("wait", struct o, wait, 0, 10, 1),
};
static const struct opt_table o_table = OPT_TABLE(o_opts, struct o, NULL, NULL);

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

static void test_exclusive(void **state)
{
	struct parsed p;
	char err[256] = "";

	(void)state;
	PARSE(&p, "-q", "cmd", "-v");
	assert_int_equal(p.rc, 0);
	assert_true(opt_excl_given(&g_table, p.s.seen[0], err, sizeof(err)));
	assert_string_equal(err, "-q and -v ask for less and more at once: give one of them");
	assert_false(opt_excl_given(&c_table, p.s.seen[1], err, sizeof(err)));
	opt_scan_free(&p.s);
	PARSE(&p, "cmd", "--uninstall", "--install");
	assert_true(opt_excl_given(&c_table, p.s.seen[1], err, sizeof(err)));
	assert_string_equal(err, "--install and --uninstall: choose one");
	assert_false(opt_excl_given(&g_table, p.s.seen[0], err, sizeof(err)));
	opt_scan_free(&p.s);
	PARSE(&p, "-q", "cmd", "--install");
	assert_false(opt_excl_given(&g_table, p.s.seen[0], err, sizeof(err)));
	assert_false(opt_excl_given(&c_table, p.s.seen[1], err, sizeof(err)));
	opt_scan_free(&p.s);
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

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_kinds),        cmocka_unit_test(test_bounds),
	    cmocka_unit_test(test_bounds_edges), cmocka_unit_test(test_missing_and_unknown),
	    cmocka_unit_test(test_exclusive),    cmocka_unit_test(test_other_command),
	    cmocka_unit_test(test_double_dash),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
