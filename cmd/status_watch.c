/*
 * status --watch: the arrays redrawn on md's own events (poll on sync_action
 * and /proc/mdstat, src/md/watch.h) and every interval, with a line for each
 * change and our own ETA from the progress between two looks.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "commands.h"
#include "mdp_base.h"
#include "render.h"
#include "status.h"
#include "mdp_md.h"

/* What the last look showed of one array, to see what changed and to time progress. */
struct seen {
	char name[MDP_NAME_MAX];
	char key[96]; /* action, state, percent, health: a change prints a line */
	uint64_t done;
	double t;
	uint64_t rate; /* sectors per second between the last two looks, 0 unknown */
};

struct watcher {
	struct cli *cli;
	unsigned interval_ms; /* between two redraws */
	bool tty;
	struct seen *v;
	size_t n;
};

static struct seen *seen_of(struct watcher *w, const char *name)
{
	struct seen *v;

	for (size_t i = 0; i < w->n; i++)
		if (!strcmp(w->v[i].name, name))
			return &w->v[i];
	if (!(v = mdp_push(&w->v, &w->n, sizeof(*v))))
		return NULL;
	snprintf(v->name, sizeof(v->name), "%s", name);
	return v;
}

/* Our ETA: the sectors left at the rate of the last interval (md's own is in --json). */
static uint64_t watch_eta(const struct mdp_status_array *v, const struct seen *sn)
{
	const struct mdp_array *a = v->a;

	if (!a->has_progress || a->sync_done >= a->sync_total)
		return 0;
	if (sn && sn->rate)
		return (a->sync_total - a->sync_done) / sn->rate;
	return v->eta;
}

/* "md3 reshape 25.1%, 4687 KiB/s, about 3d 14h left" or "md2 clean, degraded, idle". */
static void watch_line(const struct mdp_status_array *v, const struct seen *sn, char *buf,
		       size_t len)
{
	const struct mdp_array *a = v->a;
	char eta[32] = "";
	int n;

	n = snprintf(buf, len, "%s %s%s", a->name, a->array_state[0] ? a->array_state : "-",
		     v->missing > 0 ? ", degraded" : "");
	if (!v->busy || strcmp(v->op_state, "running")) {
		snprintf(buf + n, len - (size_t)n, ", %s%s%s", v->busy ? a->sync_action : "idle",
			 v->busy ? " " : "", v->busy ? v->op_state : "");
		return;
	}
	if (watch_eta(v, sn))
		status_fmt_eta(watch_eta(v, sn), eta, sizeof(eta));
	snprintf(buf + n, len - (size_t)n, ", %s %u.%u%%, %" PRIu64 " KiB/s%s%s%s", a->sync_action,
		 a->permille / 10, a->permille % 10, a->sync_speed, eta[0] ? ", about " : "", eta,
		 eta[0] ? " left" : "");
}

/* Remember this look; true when what people care about changed. */
static bool watch_note(struct watcher *w, const struct mdp_status_array *v)
{
	const struct mdp_array *a = v->a;
	struct seen *sn = seen_of(w, a->name);
	double t = cli_mono_s();
	char key[96];
	bool changed;

	if (!sn)
		return false;
	snprintf(key, sizeof(key), "%s|%s|%s|%u|%d", a->array_state, a->sync_action, v->op_state,
		 a->permille, v->missing);
	if (a->has_progress && sn->t > 0 && t > sn->t && a->sync_done > sn->done)
		sn->rate = (uint64_t)((double)(a->sync_done - sn->done) / (t - sn->t));
	else if (!a->has_progress)
		sn->rate = 0;
	sn->done = a->sync_done;
	sn->t = t;
	changed = strcmp(key, sn->key) != 0;
	snprintf(sn->key, sizeof(sn->key), "%s", key);
	return changed;
}

/* Not a tty: one timestamped line per array whose state or percent changed. */
static void watch_lines(struct watcher *w, const struct mdp_system *s)
{
	char stamp[40] = "?", line[256], safe[512];
	struct mdp_status_array v;

	mdp_time_local((int64_t)time(NULL), stamp, sizeof(stamp));
	for (size_t i = 0; i < s->n_arrays; i++) {
		mdp_status_array(s, &s->arrays[i], &v);
		if (!watch_note(w, &v))
			continue;
		watch_line(&v, seen_of(w, s->arrays[i].name), line, sizeof(line));
		printf("%s %s\n", stamp, render_safe(line, safe, sizeof(safe)));
	}
}

/* A tty: the whole status again, with a bar under each running operation. */
static void watch_screen(struct watcher *w, const struct mdp_system *s, const struct mdp_status *ps)
{
	char stamp[40] = "?", line[256], safe[512];

	mdp_time_local((int64_t)time(NULL), stamp, sizeof(stamp));
	printf("\033[H\033[2Jmdprofile status --watch   %s   (every %us and on md events; "
	       "Ctrl-C ends)\n\n",
	       stamp, w->interval_ms / 1000);
	for (size_t i = 0; i < s->n_arrays; i++) {
		const struct mdp_array *a = &s->arrays[i];
		int fill = (int)(a->permille * 40 / 1000);
		struct mdp_status_array v;
		mdp_status_array(s, a, &v);
		watch_note(w, &v);
		watch_line(&v, seen_of(w, a->name), line, sizeof(line));
		puts(render_safe(line, safe, sizeof(safe)));
		if (v.busy && !strcmp(v.op_state, "running"))
			printf("    [%.*s>%.*s]\n", fill,
			       "========================================", 39 - fill,
			       ".......................................");
	}
	status_profile_text(ps);
}

static int watch_show(struct watcher *w, const struct mdp_system *s)
{
	struct mdp_status ps;

	status_profile_read(w->cli, s, &ps);
	if (w->tty)
		watch_screen(w, s, &ps);
	else
		watch_lines(w, s);
	fflush(stdout);
	mdp_status_free(&ps);
	return ferror(stdout) ? -EIO : 0;
}

static int watch_look(struct watcher *w, struct mdp_system *s)
{
	struct mdp_diags d;
	int err;

	mdp_diags_init(&d);
	err = mdp_discover_some(&w->cli->root, MDP_SKIP_UUID | MDP_SKIP_ABSENT_SYSFS, s, &d);
	mdp_diags_free(&d); /* the first look printed them */
	return err ? err : watch_show(w, s);
}

/* Redraw on md events and every interval until killed (or stdout goes away). */
int status_watch(struct cli *cli, struct mdp_system *s, unsigned interval_ms)
{
	struct watcher w = {.cli = cli,
			    .tty = isatty(STDOUT_FILENO),
			    .interval_ms = interval_ms ? interval_ms : 5000};
	struct mdp_watch mw = {.sfd = -1};
	int err, ev;

	err = watch_show(&w, s);
	while (!err) {
		ev = mdp_watch_next(&cli->root, s, &mw, (int)w.interval_ms);
		mdp_system_free(s);
		err = ev < 0 ? ev : watch_look(&w, s);
	}
	mdp_watch_close(&mw);
	free(w.v);
	if (err != -EIO)
		cli_err(cli, "status --watch stopped: %s", strerror(-err));
	return MDP_EXIT_FAILED;
}
