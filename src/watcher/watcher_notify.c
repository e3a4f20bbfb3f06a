/*
 * watcher_notify: a check's or repair's start, pause, resume and end told where the profile's
 * maintenance notify says (watcher_maint.h): the log, the caller's news hook (DSM's Log
 * Center and notification), and the notify command, run through exec with the event in its
 * environment (mdprofile.yaml(5) lists the variables) under MDP_WMAINT_HOOK_MS; a failure
 * of the command is said once, again only after it worked. What was told is kept in
 * MDP_WMAINT_NEWS, for a watcher started again.
 *
 *   mdprofile-checks 1
 *   run md2 check STARTED PAUSED_S PAUSED_AT DONE TOTAL
 *   end
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "mdp_base.h"
#include "watcher_int.h"

#define NEWS_HEADER "mdprofile-checks 1"

const char *mdp_wnews_dur(int64_t s, char *buf, size_t len)
{
	if (s < 0)
		s = 0;
	snprintf(buf, len, "%" PRId64 "h %02" PRId64 "m %02" PRId64 "s", s / 3600, s / 60 % 60,
		 s % 60);
	return buf;
}

/* ---- what was told, kept --------------------------------------------------------- */

static void news_put(FILE *f, const void *arg)
{
	const struct mdp_wmaint *m = arg;

	fputs(NEWS_HEADER "\n", f);
	for (size_t i = 0; i < m->n_runs; i++) {
		const struct mdp_wm_run *r = &m->runs[i];
		if (r->told)
			fprintf(f,
				"run %s %s %" PRId64 " %" PRId64 " %" PRId64 " %" PRIu64 " %" PRIu64
				"\n",
				r->name, r->action, r->started, r->paused_s, r->paused_at, r->done,
				r->total);
	}
}

static int news_line(void *ctx, char *line)
{
	struct mdp_wmaint *m = ctx;
	char *save = NULL, *t[8] = {0};
	uint64_t v[5];
	struct mdp_wm_run *r;
	size_t n = 0;

	while (n < 8 && (t[n] = strtok_r(n ? NULL : line, " ", &save)))
		n++;
	if (n != 8 || strcmp(t[0], "run") || !mdp_ident_dev_ok(t[1]) ||
	    strlen(t[1]) >= MDP_NAME_MAX || (strcmp(t[2], "check") && strcmp(t[2], "repair")))
		return -EINVAL;
	for (size_t k = 0; k < 5; k++)
		if (mdp_num_parse(t[3 + k], 0, k < 3 ? INT64_MAX : UINT64_MAX, &v[k]))
			return -EINVAL;
	if (!(r = mdp_push(&m->runs, &m->n_runs, sizeof(*r))))
		return -ENOMEM;
	snprintf(r->name, sizeof(r->name), "%s", t[1]);
	snprintf(r->action, sizeof(r->action), "%s", t[2]);
	r->started = (int64_t)v[0];
	r->paused_s = (int64_t)v[1];
	r->paused_at = (int64_t)v[2];
	r->done = v[3];
	r->total = v[4];
	r->told = true;
	return 0;
}

void mdp_wnews_load(struct mdp_wloop *w)
{
	size_t cap = 4096 + 128 * w->maint.n_runs;
	char *buf = malloc(cap);
	int err;

	if (!buf)
		return;
	err =
	    mdp_state_load(w->c.root, MDP_WMAINT_NEWS, NEWS_HEADER, buf, cap, news_line, &w->maint);
	if (err && err != -ENOENT)
		wl_say(w,
		       "%s: not what a watcher wrote (%s): the checks it told of are not told "
		       "of again",
		       MDP_WMAINT_NEWS, strerror(-err));
	free(buf);
}

/* ---- the command ------------------------------------------------------------------- */

struct news_env {
	char v[10][320];
	const char *p[11];
};

static void env_num(char *buf, size_t len, const char *name, int64_t v)
{
	if (v < 0)
		snprintf(buf, len, "%s=", name);
	else
		snprintf(buf, len, "%s=%" PRId64, name, v);
}

static void news_env(const struct mdp_mnews *n, struct news_env *e)
{
	size_t k = 0, cap = sizeof(e->v[0]);

	snprintf(e->v[k++], cap, "MDPROFILE_EVENT=%s", mdp_mev_name(n->ev));
	snprintf(e->v[k++], cap, "MDPROFILE_ARRAY=%s", n->array);
	snprintf(e->v[k++], cap, "MDPROFILE_UUID=%s", n->uuid);
	snprintf(e->v[k++], cap, "MDPROFILE_ACTION=%s", n->action);
	env_num(e->v[k++], cap, "MDPROFILE_PROGRESS_PERCENT", n->percent);
	snprintf(e->v[k++], cap, "MDPROFILE_REASON=%s", n->reason);
	env_num(e->v[k++], cap, "MDPROFILE_DURATION_S", n->duration_s);
	env_num(e->v[k++], cap, "MDPROFILE_PAUSED_S", n->paused_s);
	env_num(e->v[k++], cap, "MDPROFILE_MISMATCH_CNT", n->mismatch);
	snprintf(e->v[k++], cap, "MDPROFILE_MESSAGE=%s", n->line);
	for (size_t i = 0; i < k; i++)
		e->p[i] = e->v[i];
	e->p[k] = NULL;
}

/* Why the command's run failed, "" when it worked. */
static void run_why(int err, const struct mdp_exec_result *res, char *buf, size_t len)
{
	char first[160];

	buf[0] = '\0';
	if (err == -ETIMEDOUT)
		snprintf(buf, len, "killed after %u s", MDP_WMAINT_HOOK_MS / 1000);
	else if (err == -EPERM)
		snprintf(buf, len, "refused (see above)");
	else if (err)
		snprintf(buf, len, "%s", strerror(-err));
	else if (res->exit_code) {
		mdp_exec_first_line(res, first, sizeof(first));
		if (res->exit_code > 0)
			snprintf(buf, len, "exit %d%s%s", res->exit_code, first[0] ? ": " : "",
				 first);
		else
			snprintf(buf, len, "killed by signal %d", res->term_sig);
	}
}

static void news_run(struct mdp_wloop *w, const struct mdp_mnews *n)
{
	const char *cmd = w->c.p->maint.m.notify.command;
	const char *argv[] = {cmd, NULL};
	struct mdp_exec_result *res = malloc(sizeof(*res));
	struct news_env e;
	struct mdp_diags d;
	char why[256];
	int err;

	if (!res)
		return;
	news_env(n, &e);
	mdp_diags_init(&d);
	err = (w->c.exec ? w->c.exec : mdp_exec_run_env)(w->c.root, argv, e.p, MDP_WMAINT_HOOK_MS,
							 res, &d);
	run_why(err, res, why, sizeof(why));
	free(res);
	if (!w->maint.hook_failed)
		mdp_wl_diags(w, &d); /* a refusal, said with the failure: once */
	mdp_diags_free(&d);
	if (!why[0]) {
		w->maint.hook_failed = false;
		return;
	}
	if (!w->maint.hook_failed)
		mdp_wl_log(w, LOG_WARNING,
			   "maintenance notify command %s failed at %s's %s: %s (said once until "
			   "it works again)",
			   cmd, n->array, mdp_mev_name(n->ev), why);
	w->maint.hook_failed = true;
}

void mdp_wnews_tell(struct mdp_wloop *w, struct mdp_mnews *n)
{
	const struct mdp_mnotify *nt = &w->c.p->maint.m.notify;

	if (!nt->set)
		return;
	if (!n->said)
		wl_note(w, "%s", n->line);
	(void)mdp_state_store(w->c.root, MDP_WMAINT_NEWS, news_put, &w->maint);
	if (!(nt->on & 1u << n->ev))
		return;
	if (w->c.h.news)
		w->c.h.news(w->c.h.ctx, n);
	if (nt->command)
		news_run(w, n);
}
