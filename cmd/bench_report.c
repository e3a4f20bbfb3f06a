/*
 * bench's results as text and JSON, and its progress line on a terminal
 * (the measuring is src/explain/bench.c's and src/md/volbench.c's).
 */
#include <inttypes.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <sys/utsname.h>
#include <unistd.h>

#include "bench_report.h"
#include "mdp_base.h"
#include "json.h"
#include "render.h"

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

/* What mdp_vb_run found in the directory, on stderr (--json or not); -q keeps the warning. */
void bench_notes(struct cli *cli, const struct mdp_vb *b)
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
	struct mdp_bench_stats w = mdp_bench_stats(b, false), r = mdp_bench_stats(b, true);
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

static void json_stats(struct json *j, const char *key, struct mdp_bench_stats s)
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
	json_stats(&j, "write_mb_s", mdp_bench_stats(b, false));
	json_stats(&j, "read_mb_s", mdp_bench_stats(b, true));
	json_key(&j, "machine");
	json_obj(&j);
	json_kstr(&j, "arch", u.machine);
	json_kstr(&j, "kernel", u.release);
	json_ku64(&j, "mem_total_kib", s->mem_total_kib);
	json_end(&j);
	json_end(&j);
}

void bench_print_run(struct cli *cli, const struct mdp_vb *b, const char *dev,
		     const struct mdp_system *s)
{
	if (cli->json)
		print_json(cli, b, dev, s);
	else
		print_text(cli, b, dev, s);
}

/* ---- progress on a terminal ---------------------------------------------------- */

#define DRAW_NS 200000000u /* redraw at most five times a second (and at each new phase) */

void bench_pg_init(struct cli *cli, struct bench_progress *pg)
{
	memset(pg, 0, sizeof(*pg));
	pg->cli = cli;
	pg->on = cli_info(cli) && isatty(STDERR_FILENO);
	pg->phase = -1;
}

static __attribute__((format(printf, 3, 4))) void pg_draw(struct bench_progress *pg, int phase,
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

void bench_pg_clear(struct bench_progress *pg)
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
void bench_vb_tick(void *arg, const struct mdp_vb *b, const struct mdp_vb_tick *t)
{
	char done[32], size[32];

	fmt_size(t->done, done, sizeof(done));
	fmt_size(b->size, size, sizeof(size));
	pg_draw(arg, (int)t->run * 2 + t->read, "%s run %u/%u, %s of %s, %.1f MB/s so far",
		t->read ? "read" : "write", t->run, b->runs, done, size,
		mdp_vb_mbps(t->done, t->ns));
}

/* ---- md's speed: --compare and --op-only ------------------------------------- */

/* "second 3 of 30, md3 reshape 4687 KiB/s so far" while a window is sampled. */
void bench_window_tick(void *arg, unsigned i, unsigned seconds, const struct mdp_bench_window *w)
{
	struct bench_progress *pg = arg;
	char ops[256] = "";
	size_t o = 0;

	pg->last_ns = 0; /* a new second: always drawn */
	if (!pg->on)
		return;
	if (!w) {
		pg_draw(pg, -2, "settling, %u s of %u", i + 1, seconds);
		return;
	}
	for (size_t k = 0; k < w->n && o < sizeof(ops); k++)
		o +=
		    (size_t)snprintf(ops + o, sizeof(ops) - o, ", %s %s %" PRIu64 " KiB/s so far",
				     w->v[k].array, w->v[k].action, mdp_bench_sync_kib_s(&w->v[k]));
	pg_draw(pg, -3, "second %u of %u%s", i + 1, seconds,
		w->n ? ops : ", no RAID operation running");
}

/* A measure in ms, one decimal, or null (JSON). */
static void json_kms(struct json *j, const char *k, uint64_t us, bool have)
{
	json_key(j, k);
	if (have)
		json_f1(j, (double)us / 1000.0);
	else
		json_null(j);
}

/* A goal row's foreground: what its looks measured (bench.h), beside md's speed. */
static void goal_fg(struct cli *cli, struct json *j, const struct mdp_bench_row *r,
		    const struct mdp_bench_sync *y)
{
	if (!r->goal_ms)
		return;
	if (cli->json) {
		json_key(j, "foreground");
		json_obj(j);
		json_ku64(j, "goal_ms", r->goal_ms);
		json_ku64(j, "percentile", r->goal_pct);
		json_ku64(j, "looks", y->looks);
		json_ku64(j, "looks_measured", y->lat_n);
		json_kms(j, "mean_ms", mdp_bench_lat_us(y), y->lat_n > 0);
		json_kms(j, "percentile_ms", mdp_bench_pct_us(y), y->pct_n > 0);
		json_end(j);
		return;
	}
	if (!y->lat_n) {
		printf(" (goal %u ms: no foreground request at its %u looks)", r->goal_ms,
		       y->looks);
		return;
	}
	printf(" (goal %u ms: foreground %.1f ms", r->goal_ms,
	       (double)mdp_bench_lat_us(y) / 1000.0);
	if (y->pct_n)
		printf(", p%u %.1f ms", r->goal_pct, (double)mdp_bench_pct_us(y) / 1000.0);
	printf(" at %u of its %u looks)", y->lat_n, y->looks);
}

void bench_print_rows(struct cli *cli, const struct mdp_bench_row *res, size_t n, bool reverted)
{
	struct json j;

	if (cli->json) {
		cli_json_begin(cli, &j);
		json_obj(&j);
		json_key(&j, "compare");
		json_arr(&j);
	}
	for (size_t i = 0; i < n; i++) {
		const struct mdp_bench_row *r = &res[i];
		if (cli->json) {
			json_obj(&j);
			json_kstr(&j, "profile", r->profile);
			json_kbool(&j, "current", r->current);
			json_kstr(&j, "method", r->vb.n ? methods[r->vb.method] : NULL);
			if (r->vb.n) {
				json_stats(&j, "write_mb_s", mdp_bench_stats(&r->vb, false));
				json_stats(&j, "read_mb_s", mdp_bench_stats(&r->vb, true));
			}
			json_key(&j, "sync");
			json_arr(&j);
		} else {
			printf("%-16s", r->profile);
			if (r->vb.n)
				printf(" write %.1f MB/s, read %.1f MB/s%s",
				       mdp_bench_stats(&r->vb, false).mean,
				       mdp_bench_stats(&r->vb, true).mean,
				       r->vb.method == MDP_VB_CACHED ? " (cached)" : "");
		}
		for (size_t k = 0; k < r->w.n; k++) {
			uint64_t avg = mdp_bench_sync_kib_s(&r->w.v[k]);
			if (cli->json) {
				json_obj(&j);
				json_kstr(&j, "array", r->w.v[k].array);
				json_kstr(&j, "action", r->w.v[k].action);
				json_ku64(&j, "speed_kib_s", avg);
				goal_fg(cli, &j, r, &r->w.v[k]);
				json_end(&j);
			} else {
				printf("%s %s %s %" PRIu64 " KiB/s", k || r->vb.n ? ";" : "",
				       r->w.v[k].array, r->w.v[k].action, avg);
				goal_fg(cli, &j, r, &r->w.v[k]);
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
