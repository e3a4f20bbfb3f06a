/*
 * status of the checks `mdprofile auto` paused in place for a profile's maintenance key
 * (issue 49): each one's array, its place, why it waits and, outside the windows, when the
 * next one opens, as text, JSON and Prometheus samples (docs/output.md). What it says is the
 * model's st->checks (src/status/status_model.h), the pause journal's lines of this boot.
 * And for a check running or paused under the watcher's windows, when it ends at its pace,
 * counting only the time inside them (mdp_status_finish).
 */
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "render.h"
#include "status.h"

static const struct mdp_jpause *pause_of(const struct mdp_status *ps, const char *dev)
{
	for (size_t i = 0; i < ps->checks.n; i++)
		if (!strcmp(ps->checks.v[i].dev, dev))
			return &ps->checks.v[i];
	return NULL;
}

/* The place as a permille of the check, -1 when the journal does not know its end. */
static int permille(const struct mdp_jpause *c)
{
	uint64_t p = c->position < c->total ? c->position : c->total;

	if (!c->total)
		return -1;
	return (int)(p > UINT64_MAX / 1000 ? p / (c->total / 1000) : p * 1000 / c->total);
}

/* "outside its windows, the next opens 2026-12-08T01:00:00+01:00" (the box's local time, as
 * status's other times), "a member disk is hot", ... */
static void why_words(const struct mdp_jpause *c, char *buf, size_t len)
{
	char when[32], opens[64] = "";

	if (!strcmp(c->why.word, "window")) {
		if (c->why.opens > 0 && mdp_time_local(c->why.opens, when, sizeof(when)))
			snprintf(opens, sizeof(opens), ", the next opens %s", when);
		snprintf(buf, len, ": outside its windows%s", opens);
	} else if (!strcmp(c->why.word, "heat"))
		snprintf(buf, len, ": a member disk is hot");
	else if (!strcmp(c->why.word, "deferred"))
		snprintf(buf, len, ": a job it defers to runs");
	else
		buf[0] = '\0';
}

/* "about 3h 10m of window time left at 5000 KiB/s: done about 2026-12-08T06:40:00+01:00" */
static void finish_text(const struct mdp_status *ps, const char *dev)
{
	struct mdp_status_finish f;
	char left[32], when[64], end[96];

	if (!mdp_status_finish(ps, dev, &f))
		return;
	status_fmt_eta(f.work_s, left, sizeof(left));
	if (f.at && mdp_time_local(f.at, when, sizeof(when)))
		snprintf(end, sizeof(end), ": done about %s", when);
	else
		snprintf(end, sizeof(end), f.paused ? ", once it resumes" : "");
	render_say(7, "       about %s of window time left at %" PRIu64 " KiB/s%s%s", left, f.kib_s,
		   f.paused ? " (its pace when paused)" : "", end);
}

void status_maint_text(const struct mdp_system *s, const struct mdp_status *ps, const char *dev)
{
	const struct mdp_jpause *c = pause_of(ps, dev);
	char at[48], why[96];
	int pm;

	if (!c) {
		finish_text(ps, dev);
		return;
	}
	if ((pm = permille(c)) >= 0)
		snprintf(at, sizeof(at), "%d.%d%%", pm / 10, pm % 10);
	else
		snprintf(at, sizeof(at), "sector %" PRIu64, c->position);
	why_words(c, why, sizeof(why));
	render_say(7, "       %s paused at %s by mdprofile auto%s%s",
		   s->dsm && !strcmp(c->action, "repair") ? "data scrub (md repair)" : c->action,
		   at, why, ps->have_w ? "" : "; no watcher runs: 'mdprofile recover' resumes it");
	finish_text(ps, dev);
}

/* "windowed_checks": each check under the watcher's windows, with its end at its pace. */
static void finish_json(struct json *j, const struct mdp_status *ps)
{
	struct mdp_status_finish f;

	json_key(j, "windowed_checks");
	json_arr(j);
	for (size_t i = 0; ps->sys && i < ps->sys->n_arrays; i++) {
		if (!mdp_status_finish(ps, ps->sys->arrays[i].name, &f))
			continue;
		json_obj(j);
		json_kstr(j, "array", ps->sys->arrays[i].name);
		json_kstr(j, "action", f.action);
		json_kbool(j, "paused", f.paused);
		json_ku64(j, "pace_kib_s", f.kib_s);
		json_ku64(j, "window_seconds_left", f.work_s);
		json_key(j, "finish_epoch_s");
		f.at ? json_i64(j, f.at) : json_null(j);
		json_end(j);
	}
	json_end(j);
}

void status_maint_json(struct json *j, const struct mdp_status *ps)
{
	json_key(j, "paused_checks");
	json_arr(j);
	for (size_t i = 0; i < ps->checks.n; i++) {
		const struct mdp_jpause *c = &ps->checks.v[i];
		int pm = permille(c);
		json_obj(j);
		json_kstr(j, "array", c->dev);
		json_kstr(j, "action", c->action);
		json_ku64(j, "position_sectors", c->position);
		json_key(j, "total_sectors");
		c->total ? json_u64(j, c->total) : json_null(j);
		json_key(j, "progress_permille");
		pm >= 0 ? json_i64(j, pm) : json_null(j);
		json_kstr(j, "why", c->why.word[0] ? c->why.word : NULL);
		json_key(j, "next_window_epoch_s");
		c->why.opens > 0 ? json_i64(j, c->why.opens) : json_null(j);
		json_end(j);
	}
	json_end(j);
	finish_json(j, ps);
}

static void prom_check_labels(const char *metric, const struct mdp_jpause *c)
{
	printf("mdprofile_%s", metric);
	prom_label("array", c->dev, true);
	prom_label("device", c->dev, false);
}

/* The window time left and the end of each check under the watcher's windows. */
static void finish_prom(const struct mdp_status *ps)
{
	const struct mdp_array *v = ps->sys ? ps->sys->arrays : NULL;
	size_t n = ps->sys ? ps->sys->n_arrays : 0;
	struct mdp_status_finish f;

	prom_head("check_window_seconds_left",
		  "a check's running time left at its pace, counted in the maintenance windows");
	for (size_t i = 0; i < n; i++)
		if (mdp_status_finish(ps, v[i].name, &f)) {
			printf("mdprofile_check_window_seconds_left");
			prom_label("array", v[i].name, true);
			prom_label("device", v[i].name, false);
			printf("} %" PRIu64 "\n", f.work_s);
		}
	prom_head("check_finish_timestamp_seconds",
		  "when a check under the maintenance windows ends at its pace, where known");
	for (size_t i = 0; i < n; i++)
		if (mdp_status_finish(ps, v[i].name, &f) && f.at) {
			printf("mdprofile_check_finish_timestamp_seconds");
			prom_label("array", v[i].name, true);
			prom_label("device", v[i].name, false);
			printf("} %" PRId64 "\n", f.at);
		}
}

void status_maint_prom(const struct mdp_status *ps)
{
	const struct mdp_jpause *c;
	int pm;

	prom_head("check_paused", "1 for each check or repair mdprofile auto paused in place, "
				  "with why (window, heat, deferred or unknown)");
	for (size_t i = 0; i < ps->checks.n; i++) {
		prom_check_labels("check_paused", c = &ps->checks.v[i]);
		prom_label("action", c->action, false);
		prom_label("why", c->why.word[0] ? c->why.word : "unknown", false);
		printf("} 1\n");
	}
	prom_head("check_paused_progress_ratio", "a paused check's place, 0..1, where known");
	for (size_t i = 0; i < ps->checks.n; i++)
		if ((pm = permille(c = &ps->checks.v[i])) >= 0) {
			prom_check_labels("check_paused_progress_ratio", c);
			printf("} %.3f\n", pm / 1000.0);
		}
	prom_head("check_next_window_timestamp_seconds",
		  "when the next maintenance window opens, for a check paused outside them");
	for (size_t i = 0; i < ps->checks.n; i++)
		if ((c = &ps->checks.v[i])->why.opens > 0) {
			prom_check_labels("check_next_window_timestamp_seconds", c);
			printf("} %" PRId64 "\n", c->why.opens);
		}
	finish_prom(ps);
}
