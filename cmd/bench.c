/*
 * bench: what a volume writes and reads per second, measured so the read is
 * the disks' and not the page cache's (src/volbench.c says how). The seed
 * write-up's dd reads of 2 GB gave ~850 MB/s on every RAID level because
 * they came from RAM; this reports how each read was made and marks a
 * cached one as such.
 */
#include <errno.h>
#include <inttypes.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <sys/utsname.h>
#include <unistd.h>
#include <time.h>

#include "clock.h"
#include "commands.h"
#include "json.h"
#include "render.h"
#include "volbench.h"

/* bench's options. */
struct bench_opts {
	const char *path;    /* --path DIR */
	uint64_t size;       /* --size, bytes; 0: the default */
	unsigned runs;       /* --runs; 0: the default */
	const char *compare; /* --compare A,B,...: profiles in turn */
	bool op_only;        /* --op-only: md's sync speed only, nothing written */
	unsigned duration;   /* --duration: seconds of each --op-only window */
};

static const struct opt bench_opts[] = {
    OPT_STRING("path", 0, "DIR", struct bench_opts, path,
	       "measure the volume DIR is on (default: the first md-backed volume)"),
    OPT_SIZE("size", "SIZE", struct bench_opts, size, 1024, (uint64_t)1 << 30,
	     "a size from 1MiB to 1024GiB, such as 512MiB",
	     "of the test file, 1MiB to 1024GiB (default: 10% of the free space, at most 2GiB)"),
    OPT_NUMBER("runs", "N", struct bench_opts, runs, 1, 100, "a number of runs",
	       "how many runs (default 5)"),
    OPT_STRING("compare", 0, "PROFILE,...", struct bench_opts, compare,
	       "measure the settings as they are, then each profile applied in turn; revert "
	       "at the end"),
    OPT_FLAG("op-only", 0, struct bench_opts, op_only,
	     "measure only md's speed of the running resync, rebuild, reshape or scrub"),
    OPT_SECONDS("duration", struct bench_opts, duration, 1, 86400, 1,
		"of each --op-only window (default 30)"),
};

static const struct opt_table bench_table =
    OPT_TABLE(bench_opts, struct bench_opts, NULL, NULL, NULL);

static const struct bench_opts *bo(const struct cli *cli)
{
	return cli->opts;
}

static const char *const methods[] = {
    [MDP_VB_DIRECT] = "direct",
    [MDP_VB_DROPPED] = "dropped",
    [MDP_VB_CACHED] = "cached",
};

static const char *method_text(enum mdp_vb_method m)
{
	if (m == MDP_VB_DIRECT)
		return "read with O_DIRECT (from the disks)";
	if (m == MDP_VB_DROPPED)
		return "read after the file's pages were dropped and checked gone";
	return "read from the page cache: the filesystem keeps the file in RAM (tmpfs) or "
	       "would not let its pages go, so the read figure is not the disks'";
}

struct stats {
	double mean, min, max, spread_pct;
};

static struct stats stats_of(const struct mdp_vb *b, bool read)
{
	struct stats s = {0};

	for (unsigned i = 0; i < b->n; i++) {
		uint64_t ns = read ? b->v[i].read_ns : b->v[i].write_ns;
		double v = mdp_vb_mbps(b->size, ns);
		s.mean += v / b->n;
		s.min = i == 0 || v < s.min ? v : s.min;
		s.max = v > s.max ? v : s.max;
	}
	s.spread_pct = s.mean > 0 ? (s.max - s.min) * 100.0 / s.mean : 0;
	return s;
}

/* The block device the benchmarked directory is on ("md2", "dm-0"), "" when unknown. */
static void device_of(struct cli *cli, dev_t dev, char *buf, size_t len)
{
	char sys[64], link[256];

	buf[0] = '\0';
	snprintf(sys, sizeof(sys), "/sys/dev/block/%u:%u", major(dev), minor(dev));
	if (mdp_root_readlink(&cli->root, sys, link, sizeof(link)) >= 0)
		snprintf(buf, len, "%.31s", strrchr(link, '/') ? strrchr(link, '/') + 1 : link);
}

/* What mdp_vb_run found in the directory, on stderr (--json or not); -q keeps the warning. */
static void vb_notes(struct cli *cli, const struct mdp_vb *b)
{
	char safe[PATH_MAX + 64];

	render_safe(b->dir, safe, sizeof(safe));
	if (b->stale_removed && cli->verbose >= 0)
		fprintf(stderr,
			"mdprofile: removed %u test file%s (%" PRIu64
			" MiB) left in %s by a bench that was killed\n",
			b->stale_removed, b->stale_removed == 1 ? "" : "s", b->stale_bytes >> 20,
			safe);
}

/* On a terminal: each run as two bars, scaled to the fastest figure. */
static void print_bars(const struct mdp_vb *b, double top)
{
	char bar[41];

	putchar('\n');
	for (unsigned i = 0; i < b->n && top > 0; i++) {
		for (int k = 0; k < 2; k++) {
			double v = mdp_vb_mbps(b->size, k ? b->v[i].read_ns : b->v[i].write_ns);
			int len = (int)(v * 40.0 / top + 0.5);
			memset(bar, '#', (size_t)len);
			bar[len] = '\0';
			if (k)
				printf("    read  %-40s %.1f\n", bar, v);
			else
				printf("%3u write %-40s %.1f\n", i + 1, bar, v);
		}
	}
}

static void print_text(struct cli *cli, const struct mdp_vb *b, const char *dev,
		       const struct mdp_system *s)
{
	struct stats w = stats_of(b, false), r = stats_of(b, true);
	const struct mdp_array *a = dev[0] ? mdp_system_array(s, dev) : NULL;
	char safe[PATH_MAX + 64];
	struct utsname u;

	uname(&u);
	printf("machine: %s %s, %" PRIu64 " MiB RAM\n", u.machine, u.release,
	       s->mem_total_kib / 1024);
	printf("volume: %s", render_safe(b->dir, safe, sizeof(safe)));
	if (a)
		printf(" on %s (%s, %d disks)", a->name, a->level_name, a->raid_disks);
	else if (dev[0])
		printf(" on %s", dev);
	printf("\nmethod: %" PRIu64 " MiB written and flushed (fdatasync) per run, %s\n",
	       b->size >> 20, method_text(b->method));
	puts("\nrun   write MB/s   read MB/s");
	for (unsigned i = 0; i < b->n; i++)
		printf("%3u %12.1f %11.1f%s\n", i + 1, mdp_vb_mbps(b->size, b->v[i].write_ns),
		       mdp_vb_mbps(b->size, b->v[i].read_ns),
		       b->method == MDP_VB_CACHED ? " (cached)" : "");
	if (isatty(STDOUT_FILENO) && cli_info(cli))
		print_bars(b, w.max > r.max ? w.max : r.max);
	printf("\nwrite: mean %.1f MB/s, min %.1f, max %.1f, spread %.0f%%\n", w.mean, w.min, w.max,
	       w.spread_pct);
	printf("read:  mean %.1f MB/s, min %.1f, max %.1f, spread %.0f%%%s\n", r.mean, r.min, r.max,
	       r.spread_pct, b->method == MDP_VB_CACHED ? " (cached, not the disks)" : "");
	if (b->method == MDP_VB_DROPPED && s->mem_total_kib && b->size < s->mem_total_kib * 1024 &&
	    cli_info(cli))
		printf("hint: without O_DIRECT a file smaller than RAM (%" PRIu64
		       " MiB) is easily served from memory\n",
		       s->mem_total_kib / 1024);
}

static void json_stats(struct json *j, const char *key, struct stats s)
{
	json_key(j, key);
	json_obj(j);
	json_key(j, "mean");
	json_f1(j, s.mean);
	json_key(j, "min");
	json_f1(j, s.min);
	json_key(j, "max");
	json_f1(j, s.max);
	json_key(j, "spread_pct");
	json_f1(j, s.spread_pct);
	json_end(j);
}

static void print_json(struct cli *cli, const struct mdp_vb *b, const char *dev,
		       const struct mdp_system *s)
{
	const struct mdp_array *a = dev[0] ? mdp_system_array(s, dev) : NULL;
	struct utsname u;
	struct json j;

	uname(&u);
	cli_json_begin(cli, &j);
	json_obj(&j);
	json_kstr(&j, "path", b->dir);
	json_kstr(&j, "device", dev[0] ? dev : NULL);
	json_kstr(&j, "level", a ? a->level_name : NULL);
	json_key(&j, "raid_disks");
	json_i64(&j, a ? a->raid_disks : 0);
	json_kstr(&j, "method", methods[b->method]);
	json_kbool(&j, "read_cached", b->method == MDP_VB_CACHED);
	json_ku64(&j, "size_bytes", b->size);
	json_key(&j, "runs");
	json_arr(&j);
	for (unsigned i = 0; i < b->n; i++) {
		json_obj(&j);
		json_key(&j, "write_mb_s");
		json_f1(&j, mdp_vb_mbps(b->size, b->v[i].write_ns));
		json_key(&j, "read_mb_s");
		json_f1(&j, mdp_vb_mbps(b->size, b->v[i].read_ns));
		json_end(&j);
	}
	json_end(&j);
	json_stats(&j, "write_mb_s", stats_of(b, false));
	json_stats(&j, "read_mb_s", stats_of(b, true));
	json_key(&j, "machine");
	json_obj(&j);
	json_kstr(&j, "arch", u.machine);
	json_kstr(&j, "kernel", u.release);
	json_ku64(&j, "mem_total_kib", s->mem_total_kib);
	json_end(&j);
	json_end(&j);
}

/* ---- progress on a terminal ---------------------------------------------------- */

#define DRAW_NS 200000000u /* redraw at most five times a second (and at each new phase) */

/*
 * One line on stderr that overwrites itself while bench runs, only on a terminal
 * and not with -q or --json; cleared before anything else is printed.
 */
struct progress {
	bool on, drawn;
	uint64_t last_ns;
	int phase;         /* what was last drawn: a new one is drawn at once */
	const char *label; /* the row measured (--compare), else NULL */
	unsigned idx, n;   /* its place among the rows, 1-based */
};

static void pg_init(struct cli *cli, struct progress *pg)
{
	memset(pg, 0, sizeof(*pg));
	pg->on = cli_info(cli) && isatty(STDERR_FILENO);
	pg->phase = -1;
}

static __attribute__((format(printf, 3, 4))) void pg_draw(struct progress *pg, int phase,
							  const char *fmt, ...)
{
	uint64_t now = mdp_mono_ns();
	va_list ap;

	if (!pg->on || (phase == pg->phase && now - pg->last_ns < DRAW_NS))
		return;
	pg->phase = phase;
	pg->last_ns = now;
	fputs("\rbench: ", stderr);
	if (pg->label)
		fprintf(stderr, "%s (%u/%u), ", pg->label, pg->idx, pg->n);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputs("\033[K", stderr);
	fflush(stderr);
	pg->drawn = true;
}

static void pg_clear(struct progress *pg)
{
	if (!pg->drawn)
		return;
	fputs("\r\033[K", stderr);
	fflush(stderr);
	pg->drawn = false;
	pg->phase = -1;
}

static void fmt_size(uint64_t bytes, char *buf, size_t len)
{
	if (bytes >= (uint64_t)1 << 30)
		snprintf(buf, len, "%.1f GiB", (double)bytes / (double)(1u << 30));
	else
		snprintf(buf, len, "%" PRIu64 " MiB", bytes >> 20);
}

/* volbench's callback: "write run 2/3, 1.2 GiB of 2.0 GiB, 180.3 MB/s so far". */
static void vb_tick(void *arg, const struct mdp_vb *b, const struct mdp_vb_tick *t)
{
	char done[32], size[32];

	fmt_size(t->done, done, sizeof(done));
	fmt_size(b->size, size, sizeof(size));
	pg_draw(arg, (int)t->run * 2 + t->read, "%s run %u/%u, %s of %s, %.1f MB/s so far",
		t->read ? "read" : "write", t->run, b->runs, done, size,
		mdp_vb_mbps(t->done, t->ns));
}

/* ---- --compare and --op-only ------------------------------------------------- */

#define MAX_COMPARE 8
#define SETTLE_S    2         /* after an apply, before measuring: md picks up new limits at once */
#define OP_WINDOW_S 30        /* --op-only without --duration */
#define CURRENT     "current" /* the first row: the settings before any profile */

/* md's own sync speed per busy array, summed over a window's one-second samples. */
struct window {
	struct {
		char array[MDP_NAME_MAX], action[16];
		uint64_t sum_kib_s;
		unsigned n;
	} v[16];
	size_t n;
};

static void sample_sync(struct cli *cli, struct window *w)
{
	struct mdp_system s = {0};
	struct mdp_diags d;
	size_t k;

	mdp_diags_init(&d);
	if (!mdp_discover_some(&cli->root, MDP_SKIP_UUID | MDP_SKIP_MEMBERS, &s, &d)) {
		for (size_t i = 0; i < s.n_arrays; i++) {
			const struct mdp_array *a = &s.arrays[i];
			if (!a->sync_action[0] || !strcmp(a->sync_action, "idle"))
				continue;
			for (k = 0; k < w->n && strcmp(w->v[k].array, a->name); k++)
				;
			if (k == w->n && w->n == sizeof(w->v) / sizeof(w->v[0]))
				continue;
			if (k == w->n) {
				w->n++;
				snprintf(w->v[k].array, sizeof(w->v[k].array), "%s", a->name);
				snprintf(w->v[k].action, sizeof(w->v[k].action), "%s",
					 a->sync_action);
			}
			w->v[k].sum_kib_s += a->sync_speed;
			w->v[k].n++;
		}
	}
	mdp_diags_free(&d);
	mdp_system_free(&s);
}

/* "second 3 of 30, md3 reshape 4687 KiB/s so far" while a window is sampled. */
static void window_tick(struct progress *pg, unsigned i, unsigned seconds, const struct window *w)
{
	char ops[256] = "";
	size_t o = 0;

	if (!pg->on)
		return;
	if (!w) {
		pg_draw(pg, -2, "settling, %u s of %u", i + 1, seconds);
		return;
	}
	for (size_t k = 0; k < w->n && o < sizeof(ops); k++)
		o += (size_t)snprintf(ops + o, sizeof(ops) - o, ", %s %s %" PRIu64 " KiB/s so far",
				      w->v[k].array, w->v[k].action,
				      w->v[k].n ? w->v[k].sum_kib_s / w->v[k].n : 0);
	pg_draw(pg, -3, "second %u of %u%s", i + 1, seconds,
		w->n ? ops : ", no RAID operation running");
}

/*
 * Wait seconds, sampling md once a second when w is given, the progress line drawn each
 * second and cleared at the end; 1 when a signal asks to stop.
 */
static int wait_window(struct cli *cli, struct progress *pg, unsigned seconds, struct window *w)
{
	struct timespec second = {1, 0};
	int stop = 0;

	for (unsigned i = 0; i < seconds && !stop; i++) {
		if ((stop = cli_stop_requested()))
			break;
		if (w)
			sample_sync(cli, w);
		pg->last_ns = 0; /* a new second: always drawn */
		window_tick(pg, i, seconds, w);
		nanosleep(&second, NULL);
	}
	pg_clear(pg);
	return stop || cli_stop_requested() != 0;
}

struct result {
	char profile[256];
	bool current;     /* the settings the box had before any profile */
	struct mdp_vb vb; /* vb.n == 0: no volume figures (--op-only) */
	struct window w;
};

/* Apply one profile through the same transaction as 'apply'. */
static int compare_apply(struct cli *cli, const char *name, struct result *r)
{
	struct mdp_profile p;
	int rc;

	if ((rc = cli_load_profile(cli, name, &p)))
		return rc;
	snprintf(r->profile, sizeof(r->profile), "%s", p.name);
	return cli_apply_quiet(cli, &p);
}

/*
 * Measure under the profile just applied (settle: let md take up its limits first), or as
 * the box is (the first row): the volume (unless --op-only) and md's speed.
 */
static int compare_measure(struct cli *cli, struct progress *pg, const struct mdp_vb *proto,
			   struct result *r, bool first)
{
	struct mdp_vb_progress cb = {vb_tick, pg};
	struct mdp_diags d;
	int err;

	pg->label = r->profile;
	if (!first && wait_window(cli, pg, SETTLE_S, NULL))
		return 1;
	if (bo(cli)->op_only)
		return wait_window(cli, pg, bo(cli)->duration ? bo(cli)->duration : OP_WINDOW_S,
				   &r->w);
	r->vb = *proto;
	r->vb.progress = &cb;
	sample_sync(cli, &r->w);
	mdp_diags_init(&d);
	err = mdp_vb_run(&r->vb, &d);
	r->vb.progress = NULL;
	pg_clear(pg);
	if (first)
		vb_notes(cli, &r->vb);
	cli_print_diags(cli, &d);
	mdp_diags_free(&d);
	sample_sync(cli, &r->w);
	if (err)
		return -1;
	return r->vb.stop_signal ? 1 : 0;
}

static void print_compare(struct cli *cli, const struct result *res, size_t n, bool reverted)
{
	struct json j;

	if (cli->json) {
		cli_json_begin(cli, &j);
		json_obj(&j);
		json_key(&j, "compare");
		json_arr(&j);
	}
	for (size_t i = 0; i < n; i++) {
		const struct result *r = &res[i];
		if (cli->json) {
			json_obj(&j);
			json_kstr(&j, "profile", r->profile);
			json_kbool(&j, "current", r->current);
			json_kstr(&j, "method", r->vb.n ? methods[r->vb.method] : NULL);
			if (r->vb.n) {
				json_stats(&j, "write_mb_s", stats_of(&r->vb, false));
				json_stats(&j, "read_mb_s", stats_of(&r->vb, true));
			}
			json_key(&j, "sync");
			json_arr(&j);
		} else {
			printf("%-16s", r->profile);
			if (r->vb.n)
				printf(" write %.1f MB/s, read %.1f MB/s%s",
				       stats_of(&r->vb, false).mean, stats_of(&r->vb, true).mean,
				       r->vb.method == MDP_VB_CACHED ? " (cached)" : "");
		}
		for (size_t k = 0; k < r->w.n; k++) {
			uint64_t avg = r->w.v[k].n ? r->w.v[k].sum_kib_s / r->w.v[k].n : 0;
			if (cli->json) {
				json_obj(&j);
				json_kstr(&j, "array", r->w.v[k].array);
				json_kstr(&j, "action", r->w.v[k].action);
				json_ku64(&j, "speed_kib_s", avg);
				json_end(&j);
			} else {
				printf("%s %s %s %" PRIu64 " KiB/s", k || r->vb.n ? ";" : "",
				       r->w.v[k].array, r->w.v[k].action, avg);
			}
		}
		if (cli->json) {
			json_end(&j);
			json_end(&j);
		} else {
			if (!r->vb.n && !r->w.n)
				fputs(" no RAID operation was running", stdout);
			putchar('\n');
		}
	}
	if (cli->json) {
		json_end(&j);
		json_kbool(&j, "reverted", reverted);
		json_end(&j);
	} else if (reverted && cli_info(cli)) {
		puts("reverted to the values from before");
	}
}

/* The rows: the current settings, then each profile of the list. */
static unsigned count_rows(const char *list)
{
	unsigned n = 1;

	for (const char *p = list; *p; p++)
		n += *p != ',' && (p == list || p[-1] == ',');
	return n;
}

static int compare(struct cli *cli, struct progress *pg, const struct mdp_vb *proto)
{
	struct result *res = calloc(MAX_COMPARE + 1, sizeof(*res));
	char *list = strdup(bo(cli)->compare), *save = NULL, *name;
	size_t n = 0;
	struct mdp_txn_rc rrc;
	int rc = 0, m = 0;

	if (!res || !list || (rc = cli_refuse_over_active(cli, "a comparison")))
		goto out;
	/* The first row: the settings the box has now, measured before any profile. */
	snprintf(res[0].profile, sizeof(res[0].profile), "%s", CURRENT);
	res[0].current = true;
	pg->n = count_rows(list);
	pg->idx = 1;
	m = compare_measure(cli, pg, proto, &res[0], true);
	n = m == 0;
	/* Journaled as a comparison: if this process dies, recover reverts it. */
	cli->tx.origin = MDP_BY_COMPARE;
	cli->tx.as_base = true; /* each profile in turn replaces the last */
	for (name = strtok_r(list, ",", &save); name && !rc && !m;
	     name = strtok_r(NULL, ",", &save)) {
		if (n == MAX_COMPARE + 1) { /* bench_check refused more: empty words */
			break;
		} else if (!(rc = compare_apply(cli, name, &res[n]))) {
			pg->idx = (unsigned)n + 1;
			m = compare_measure(cli, pg, proto, &res[n], false);
			n += m == 0;
		}
	}
	/* Whatever happened after the first apply, the values from before come back. */
	rrc = mdp_txn_revert(&cli->tx, true);
	if (rrc.res != MDP_TXN_OK) {
		rc = cli_txn_result(cli, rrc, "revert", NULL);
	} else if (m > 0) {
		cli_err(cli, "interrupted by %s; reverted to the values from before",
			cli_signal_name(cli_stop_requested()));
		rc = MDP_EXIT_FAILED;
	} else if (m < 0) {
		rc = MDP_EXIT_FAILED;
	} else if (!rc) {
		print_compare(cli, res, n, true);
	}
out:
	for (size_t i = 0; res && i <= MAX_COMPARE; i++)
		mdp_vb_free(&res[i].vb);
	free(res);
	free(list);
	return rc;
}

static int run(struct cli *cli, struct progress *pg, struct mdp_vb *b, char *dev, size_t len)
{
	struct mdp_vb_progress cb = {vb_tick, pg};
	struct mdp_system s = {0};
	struct mdp_diags d;
	int err, rc;

	if ((rc = cli_discover(cli, MDP_SKIP_PROGRESS | MDP_SKIP_UUID, &s)))
		return rc;
	cli_hold_stop_signals();
	b->stop_requested = cli_stop_requested;
	b->progress = &cb;
	mdp_diags_init(&d);
	err = mdp_vb_run(b, &d);
	b->progress = NULL;
	pg_clear(pg);
	vb_notes(cli, b);
	cli_print_diags(cli, &d);
	if (!err)
		device_of(cli, b->dev, dev, len);
	mdp_diags_free(&d);
	if (err) {
		rc = err == -ENOSPC || err == -ENOTDIR || err == -EXDEV || err == -EPERM
			 ? MDP_EXIT_USAGE
			 : MDP_EXIT_FAILED;
	} else if (b->stop_signal) {
		cli_err(cli, "interrupted by %s after %u run%s; the test file was removed",
			cli_signal_name(b->stop_signal), b->n, b->n == 1 ? "" : "s");
		rc = MDP_EXIT_FAILED;
	} else if (cli->json) {
		print_json(cli, b, dev, &s);
	} else {
		print_text(cli, b, dev, &s);
	}
	mdp_system_free(&s);
	return rc;
}

/* --op-only alone: md's speed as the box is, nothing applied. */
static int op_only(struct cli *cli, struct progress *pg)
{
	struct result r = {0};

	if (wait_window(cli, pg, bo(cli)->duration ? bo(cli)->duration : OP_WINDOW_S, &r.w)) {
		cli_err(cli, "interrupted by %s", cli_signal_name(cli_stop_requested()));
		return MDP_EXIT_FAILED;
	}
	snprintf(r.profile, sizeof(r.profile), "%s", CURRENT);
	r.current = true;
	print_compare(cli, &r, 1, false);
	return MDP_EXIT_OK;
}

static int do_bench(struct cli *cli)
{
	struct mdp_vb b = {.size = bo(cli)->size, .runs = bo(cli)->runs ? bo(cli)->runs : 5};
	char dir[PATH_MAX], sys[PATH_MAX], dev[64];
	struct progress pg;
	struct mdp_diags d;
	int rc;

	pg_init(cli, &pg);
	if (bo(cli)->op_only && !bo(cli)->compare)
		return op_only(cli, &pg);
	if (!bo(cli)->path && !bo(cli)->op_only) {
		mdp_diags_init(&d);
		rc = mdp_vb_find_volume(&cli->root, sys, sizeof(sys), dir, sizeof(dir), &d);
		cli_print_diags(cli, &d);
		mdp_diags_free(&d);
		if (rc)
			return MDP_EXIT_USAGE;
		/* found in the tree's /proc/mounts: opened beneath the root, links and all */
		b.root = &cli->root;
		b.sys_dir = sys;
	}
	b.dir = bo(cli)->path ? bo(cli)->path : dir;
	if (bo(cli)->compare) {
		b.stop_requested = cli_stop_requested;
		return compare(cli, &pg, &b);
	}
	rc = run(cli, &pg, &b, dev, sizeof(dev));
	mdp_vb_free(&b);
	return rc;
}

/* Before anything happens (the comparison applies profiles): at most MAX_COMPARE of them. */
static int bench_check(struct cli *cli)
{
	if (bo(cli)->compare && count_rows(bo(cli)->compare) > MAX_COMPARE + 1) {
		cli_err(cli, "--compare: at most %d profiles", MAX_COMPARE);
		return MDP_EXIT_USAGE;
	}
	return 0;
}

/* --compare applies profiles: it needs all that apply needs. */
static unsigned bench_setup_flags(const struct cli *cli, unsigned flags)
{
	return bo(cli)->compare ? flags | CMD_TXN | CMD_RECOVER : flags;
}

const struct cmd cmd_bench = {
    .name = "bench",
    .fn = do_bench,
    .opts = &bench_table,
    .summary = "write and read speed of a volume, never the page cache's",
    .setup_flags = bench_setup_flags,
    .check = bench_check,
};
