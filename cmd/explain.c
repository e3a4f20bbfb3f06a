/*
 * explain: why an md operation runs at the speed it does. Two samples
 * --interval apart (or a capture's two, replayed under --root), the rules
 * of src/explain.c per array, then text or JSON. Reads only, as any user;
 * what it could not read is listed. Exit 0: nothing to change or nothing
 * running; 1: a recommendation; 2: usage; 3: /proc/mdstat unreadable.
 *
 * --probe (root, through the journal): the top recommendation whose gain
 * could not be computed, if it is one setting, is applied for one window
 * between explain's own window and one more at the settings as they were
 * (A/B/A), then reverted; the finding shows what each window measured.
 * Exit 3 when interrupted (reverted first), 4 when the revert did not
 * complete.
 */
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "commands.h"
#include "explain.h"
#include "explain_sample.h"
#include "json.h"
#include "probe.h"
#include "render.h"
#include "status.h"

#define DEFAULT_INTERVAL_MS 10000

static const struct render_word binds_words[] = {
    {"max", "at the maximum: md sleeps above it"},
    {"min", "at the minimum: md throttles down to it while it sees other I/O"},
    {"below-min", "below the minimum: md is not throttling"},
    {"between", "between the limits: md throttles only while it sees other I/O"},
    {NULL, NULL},
};

static const struct render_word rule_words[] = {
    {"depth", "6.16+ rule, throttles only with sync_io_depth requests in flight"},
    {"drain", "4.1+ rule, drains its requests while it sees other I/O"},
    {"sleep", "pre-4.1 rule, sleeps down to the minimum while it sees other I/O"},
    {NULL, NULL},
};

static void print_limit(const char *what, const struct mdp_xlimit *l)
{
	if (l->read)
		printf("%s %" PRIu64 " (%s)", what, l->kib, l->local ? "local" : "system");
	else
		printf("%s unread", what);
}

static void print_gain(const struct mdp_xfinding *f)
{
	switch (f->gain) {
	case MDP_XG_UPPER:
		printf("    gain: at most %" PRIu64
		       " KiB/s per disk (upper bound: the new minimum, "
		       "if the disks can)\n",
		       f->gain_kib);
		break;
	case MDP_XG_ROUGH:
		printf("    gain: roughly %" PRIu64
		       " KiB/s per disk (rough: the speed scaled to the "
		       "disks' idle time)\n",
		       f->gain_kib);
		break;
	case MDP_XG_ZERO:
		printf("    gain: none, the disks are the limit\n");
		break;
	default:
		if (f->rec != MDP_XR_NONE)
			printf("    gain: cannot be computed from two samples\n");
	}
}

/* What --probe did, for the report of array rep, finding finding. */
struct probe {
	bool done;
	size_t rep, finding;
	struct mdp_probe_setting set;
	char name[64]; /* "md2/group_thread_cnt" */
	struct mdp_probe_windows w;
	struct mdp_probe_result res;
};

static void print_probe(const struct probe *pr)
{
	char base[64] = "", ch[160];

	printf("    probe: %s %s for one window between two at the settings as they were, then "
	       "reverted\n",
	       pr->name, pr->set.value);
	if (pr->w.ended) {
		printf("      the operation ended during the probe; reverted, no figure\n");
		return;
	}
	printf("      A %" PRIu64 " KiB/s, B %" PRIu64 " KiB/s, A %" PRIu64
	       " KiB/s per disk; window %.1f s each\n",
	       pr->w.a1, pr->w.b, pr->w.a2, pr->w.window_s);
	if (pr->res.base > 0)
		snprintf(base, sizeof(base), "%+.0f%%", pr->res.change * 100);
	snprintf(ch, sizeof(ch), "%s (the A windows differ by %.0f%%: %s)",
		 base[0] ? base : "no figure (A measured 0)", pr->res.spread * 100,
		 pr->res.beyond ? "the change stands out of that"
				: "the change is within that, not shown to be the setting's");
	printf("      => %s %s: %s\n", pr->name, pr->set.value, ch);
}

/* Every string read from the system, or from a capture someone else made, goes through
 * render_safe: a capture's escape sequences never reach the reader's terminal. */
static void print_report(const struct mdp_xreport *r, const struct mdp_xsample *s1,
			 const struct probe *pr)
{
	char eta[32], b1[MDP_X_TEXT * 4], b2[MDP_X_TEXT * 4];
	int ind;

	printf("%s: %s", render_safe(r->array, b1, sizeof(b1)),
	       render_safe(r->action, b2, sizeof(b2)));
	if (strcmp(r->action, "none")) {
		if (r->total_kib)
			printf(" %.1f%%", (double)(r->done_kib * 1000 / r->total_kib) / 10.0);
		if (r->speed_src == MDP_XS_MDSTAT)
			printf(", %" PRIu64 " KiB/s per disk (progress over %.1f s)", r->speed_kib,
			       r->window_s);
		else
			printf(", %" PRIu64
			       " KiB/s per disk (md's own 30 s average; window %.1f s)",
			       r->speed_kib, r->window_s);
		if (r->eta_s) {
			status_fmt_eta(r->eta_s, eta, sizeof(eta));
			printf(", about %s left", eta);
		}
		printf("\n");
	}
	if (strcmp(r->action, "none") &&
	    !(r->n_findings && r->findings[0].kind == MDP_XK_WAITING)) {
		printf("  limits: ");
		print_limit("minimum", &r->min);
		print_limit(", maximum", &r->max);
		printf(": %s\n", render_word(binds_words, r->binds, "not all read"));
		printf("  pacing: kernel %s, %s (from upstream md.c)\n",
		       s1->release[0] ? render_safe(s1->release, b1, sizeof(b1)) : "unknown",
		       render_word(rule_words, r->rule, "rule unknown"));
	} else if (!strcmp(r->action, "none")) {
		printf(" (sampled over %.1f s)\n", r->window_s);
	}
	for (size_t i = 0; i < r->n_findings; i++) {
		const struct mdp_xfinding *f = &r->findings[i];
		ind = printf("  %s: ", mdp_explain_kind_name(f->kind));
		for (size_t k = 0; k < f->n_evidence; k++)
			printf("%*s%s\n", k ? ind : 0, "",
			       render_safe(f->evidence[k], b1, sizeof(b1)));
		if (!f->n_evidence)
			printf("\n");
		printf("    => %s\n", render_safe(f->rec_text, b1, sizeof(b1)));
		print_gain(f);
		if (pr && pr->finding == i)
			print_probe(pr);
	}
}

static void json_probe(struct json *j, const struct probe *pr)
{
	json_key(j, "probe");
	json_obj(j);
	json_kstr(j, "setting", pr->name);
	json_kstr(j, "value", pr->set.value);
	json_key(j, "window_s");
	json_f1(j, pr->w.window_s);
	json_kbool(j, "ended", pr->w.ended);
	json_key(j, "a_kib_s");
	json_arr(j);
	if (!pr->w.ended) {
		json_u64(j, pr->w.a1);
		json_u64(j, pr->w.a2);
	}
	json_end(j);
	json_key(j, "b_kib_s");
	pr->w.ended ? json_null(j) : json_u64(j, pr->w.b);
	json_key(j, "change_pct");
	pr->res.valid && pr->res.base > 0 ? json_f1(j, pr->res.change * 100) : json_null(j);
	json_key(j, "spread_pct");
	pr->res.valid && pr->res.base > 0 ? json_f1(j, pr->res.spread * 100) : json_null(j);
	json_kbool(j, "beyond_spread", pr->res.beyond);
	json_kbool(j, "reverted", true);
	json_end(j);
}

static void json_report(struct json *j, const struct mdp_xreport *r, const struct mdp_xsample *s1,
			const struct probe *pr)
{
	static const char *const recs[] = {"none", "profile", "setting"};

	json_obj(j);
	json_kstr(j, "array", r->array);
	json_kstr(j, "action", r->action);
	json_ku64(j, "speed_kib_s", r->speed_kib);
	json_kstr(j, "speed_source",
		  r->speed_src == MDP_XS_MDSTAT ? "progress"
		  : r->speed_src == MDP_XS_MD   ? "md"
						: NULL);
	json_key(j, "window_s");
	json_f1(j, r->window_s);
	json_ku64(j, "done_kib", r->done_kib);
	json_ku64(j, "total_kib", r->total_kib);
	json_ku64(j, "eta_s", r->eta_s);
	json_key(j, "limits");
	json_obj(j);
	json_key(j, "min_kib_s");
	r->min.read ? json_u64(j, r->min.kib) : json_null(j);
	json_kstr(j, "min_source", r->min.read ? (r->min.local ? "local" : "system") : NULL);
	json_key(j, "max_kib_s");
	r->max.read ? json_u64(j, r->max.kib) : json_null(j);
	json_kstr(j, "max_source", r->max.read ? (r->max.local ? "local" : "system") : NULL);
	json_kstr(j, "binds", r->binds[0] ? r->binds : NULL);
	json_end(j);
	json_kstr(j, "kernel", s1->release[0] ? s1->release : NULL);
	json_kstr(j, "pacing_rule", r->rule);
	json_key(j, "findings");
	json_arr(j);
	for (size_t i = 0; i < r->n_findings; i++) {
		const struct mdp_xfinding *f = &r->findings[i];
		json_obj(j);
		json_kstr(j, "kind", mdp_explain_kind_name(f->kind));
		json_key(j, "evidence");
		json_arr(j);
		for (size_t k = 0; k < f->n_evidence; k++)
			json_str(j, f->evidence[k]);
		json_end(j);
		json_key(j, "recommendation");
		json_obj(j);
		json_kstr(j, "kind", recs[f->rec]);
		json_kstr(j, "name", f->rec_name[0] ? f->rec_name : NULL);
		json_kstr(j, "value", f->rec_value[0] ? f->rec_value : NULL);
		json_kstr(j, "text", f->rec_text);
		json_end(j);
		json_key(j, "gain");
		if (f->gain == MDP_XG_UNKNOWN) {
			json_null(j);
		} else {
			json_obj(j);
			json_kstr(j, "kind", mdp_explain_gain_name(f->gain));
			json_ku64(j, "speed_kib_s", f->gain_kib);
			json_end(j);
		}
		if (pr && pr->finding == i)
			json_probe(j, pr);
		json_end(j);
	}
	json_end(j);
	json_end(j);
}

static bool in_sample(const struct mdp_xsample *s, const char *name)
{
	for (size_t i = 0; i < s->n_arrays; i++)
		if (!strcmp(s->arrays[i].name, name))
			return true;
	return false;
}

/* An array worth a report when none are named: an operation runs or waits in either sample. */
static bool busy(const struct mdp_xsample *s, const char *name)
{
	for (size_t i = 0; i < s->n_arrays; i++) {
		const struct mdp_xarray *a = &s->arrays[i];
		if (!strcmp(a->name, name) &&
		    (a->queued[0] || (strcmp(a->action, "idle") && a->action[0])))
			return true;
	}
	return false;
}

/* explain's options. */
struct explain_opts {
	unsigned interval_ms; /* --interval; 0: DEFAULT_INTERVAL_MS */
	const char *capture;  /* --capture FILE */
	bool probe;           /* --probe */
};

static const struct opt explain_opts[] = {
    OPT_INTERVAL("interval", struct explain_opts, interval_ms,
		 "seconds between its two samples (default 10)"),
    OPT_STRING("capture", 0, "FILE", struct explain_opts, capture,
	       "write every file read, as a tar that --root replays"),
    OPT_FLAG("probe", 0, struct explain_opts, probe,
	     "as root, measure the top recommendation's gain by applying it for a while"),
};

static const struct opt_table explain_table =
    OPT_TABLE(explain_opts, struct explain_opts, NULL, NULL, NULL);

static const struct explain_opts *xo(const struct cli *cli)
{
	return cli->opts;
}

static int write_capture(struct cli *cli, const struct mdp_xcap *cap, uint64_t ms)
{
	struct mdp_root real;
	char *tar = NULL, cwd[PATH_MAX], abs[PATH_MAX];
	size_t len = 0;
	int err;

	if ((err = mdp_xcap_tar(cap, ms, &tar, &len)))
		goto out;
	if (xo(cli)->capture[0] != '/' && !getcwd(cwd, sizeof(cwd))) {
		err = -errno;
		goto out;
	}
	if (snprintf(abs, sizeof(abs), "%s%s%s", xo(cli)->capture[0] == '/' ? "" : cwd,
		     xo(cli)->capture[0] == '/' ? "" : "/", xo(cli)->capture) >= (int)sizeof(abs)) {
		err = -ENAMETOOLONG;
		goto out;
	}
	if ((err = mdp_root_init(&real, NULL)))
		goto out;
	/* A new file beside it, renamed over the name: never written into what is there (another
	 * user's file, a hard link to one of root's, a FIFO that would block for ever). */
	err = mdp_root_replace(&real, abs, tar, len, 0644);
	mdp_root_fini(&real);
out:
	free(tar);
	if (err)
		cli_err(cli, "cannot write the capture %s: %s", xo(cli)->capture, strerror(-err));
	return err ? MDP_EXIT_FAILED : 0;
}

/* Both samples: live, --interval apart, or a capture's replayed. */
static int take_samples(struct cli *cli, struct mdp_xsample s[2], struct mdp_xcap *cap,
			struct mdp_diags *unread, uint64_t *ms)
{
	struct mdp_xsrc src = {
	    .root = &cli->root, .cap = xo(cli)->capture ? cap : NULL, .unreadable = unread};
	struct mdp_root second;
	bool replay = mdp_explain_is_replay(&cli->root);
	double t0, t1;
	int err;

	if (replay && (err = mdp_explain_replay_open(&cli->root, &second, ms))) {
		cli_err(cli, "cannot replay the capture: .explain/elapsed_ms: %s",
			mdp_root_strerror(-err));
		return MDP_EXIT_FAILED;
	}
	t0 = cli_mono_s();
	err = mdp_explain_sample(&src, &s[0]);
	if (!err && !replay) {
		unsigned iv = xo(cli)->interval_ms ? xo(cli)->interval_ms : DEFAULT_INTERVAL_MS;
		struct timespec ts = {iv / 1000, (long)(iv % 1000) * 1000000L};
		while (nanosleep(&ts, &ts) && errno == EINTR)
			;
	}
	if (!err) {
		t1 = cli_mono_s();
		src.sample = 1;
		src.overlay = replay ? &second : NULL;
		err = mdp_explain_sample(&src, &s[1]);
		if (err)
			mdp_explain_sample_free(&s[0]);
		if (!replay)
			*ms = (uint64_t)((t1 - t0) * 1000.0 + 0.5);
	}
	if (replay)
		mdp_root_fini(&second);
	if (err) {
		cli_err(cli, "cannot read /proc/mdstat: %s", mdp_root_strerror(-err));
		return MDP_EXIT_FAILED;
	}
	return 0;
}

/* Whether apply would refuse shipped profile name on sys: its planner's reason in why. */
static bool plan_refuses(struct cli *cli, const struct mdp_system *sys, const char *name, char *why,
			 size_t len)
{
	struct mdp_profile p;
	struct mdp_plan pl = {0};
	struct mdp_diags d;
	char path[PATH_MAX];
	bool no = false;

	mdp_diags_init(&d);
	if (!mdp_profile_find(&cli->dirs, name, path, sizeof(path), &d) &&
	    !mdp_profile_load(&cli->dirs, path, &p, &d)) {
		no = mdp_plan_build(&p, sys, &pl, &d) == -EINVAL && d.n;
		if (no)
			snprintf(why, len, "%s", d.v[d.n - 1].msg);
		mdp_plan_free(&pl);
		mdp_profile_free(&p);
	}
	mdp_diags_free(&d);
	return no;
}

/*
 * The shipped profiles apply would refuse on this box: each planned against the
 * system as diff plans it, silently. A profile that does not load, or a system
 * that cannot be read, refuses nothing: apply will say what it says.
 */
static void refusals(struct cli *cli, struct mdp_xrefusals *no)
{
	struct mdp_system sys = {0};
	struct mdp_diags d;
	const char *name;

	no->n = 0;
	mdp_diags_init(&d);
	if (!mdp_discover_some(&cli->root, 0, &sys, &d))
		for (size_t k = 0;
		     (name = mdp_explain_profile(k)) && no->n < sizeof(no->v) / sizeof(no->v[0]);
		     k++) {
			struct mdp_xrefusal *r = &no->v[no->n];
			if (!plan_refuses(cli, &sys, name, r->why, sizeof(r->why)))
				continue;
			snprintf(r->profile, sizeof(r->profile), "%s", name);
			no->n++;
		}
	mdp_system_free(&sys);
	mdp_diags_free(&d);
}

/* Explain each array the line names, or each busy one; how many reports, *any: one recommends. */
static size_t explain_arrays(struct cli *cli, const struct mdp_xsample s[2], double dt,
			     const struct mdp_xrefusals *no, struct mdp_xreport *reps, bool *any)
{
	size_t n = 0;

	for (int k = 0; k < 2; k++)
		for (size_t i = 0; i < s[k].n_arrays; i++) {
			const char *name = s[k].arrays[i].name;
			bool dup = false, named = cli->argc < 2;
			for (size_t m = 0; m < n; m++)
				dup |= !strcmp(reps[m].array, name);
			for (int a = 1; a < cli->argc; a++)
				named |= !strcmp(cli->argv[a], name);
			if (dup || !named ||
			    (cli->argc < 2 && !busy(&s[0], name) && !busy(&s[1], name)))
				continue;
			if (!mdp_explain_array(&s[0], &s[1], dt, name, no, &reps[n]))
				*any |= mdp_explain_recommends(&reps[n++]);
		}
	return n;
}

/* The report's probe, or NULL. */
static const struct probe *probe_of(const struct probe *pr, size_t i)
{
	return pr && pr->done && pr->rep == i ? pr : NULL;
}

static void print_json(struct cli *cli, const struct mdp_xreport *reps, size_t n,
		       const struct mdp_xsample *s1, const struct mdp_diags *unread,
		       const struct probe *pr)
{
	struct json j;

	cli_json_begin(cli, &j);
	json_obj(&j);
	json_key(&j, "arrays");
	json_arr(&j);
	for (size_t i = 0; i < n; i++)
		json_report(&j, &reps[i], s1, probe_of(pr, i));
	json_end(&j);
	json_key(&j, "unreadable");
	json_arr(&j);
	for (size_t i = 0; i < unread->n; i++) {
		json_obj(&j);
		json_kstr(&j, "path", unread->v[i].file);
		json_kstr(&j, "error", unread->v[i].msg);
		json_end(&j);
	}
	json_end(&j);
	json_end(&j);
}

static void print_text(const struct mdp_xreport *reps, size_t n, const struct mdp_xsample *s1,
		       const struct mdp_diags *unread, double dt, const struct probe *pr)
{
	if (!n)
		printf("no md operation runs or waits (sampled over %.1f s)\n", dt);
	for (size_t i = 0; i < n; i++) {
		if (i)
			printf("\n");
		print_report(&reps[i], s1, probe_of(pr, i));
	}
	for (size_t i = 0; i < unread->n; i++)
		printf("%snot read: %s (%s)\n", i ? "" : "\n", unread->v[i].file, unread->v[i].msg);
}

/* ---- --probe ------------------------------------------------------------------ */

#define NAP_MS 100 /* a stop signal is seen this soon during a window */

/* Sleep ms, in steps, unless a stop signal is pending; the signal (0: slept it all). */
static int nap(unsigned ms)
{
	struct timespec step = {0, NAP_MS * 1000000L};
	double until = cli_mono_s() + ms / 1000.0;
	int sig;

	while (!(sig = cli_stop_requested()) && cli_mono_s() < until)
		nanosleep(&step, NULL);
	return sig;
}

/*
 * One window: a sample, the interval (none in a replay: /.explain/N and N+1, elapsed_ms
 * apart), a sample; md's speed and operation for array over it. 0, a signal number, or -1
 * (an error said).
 */
static int probe_window(struct cli *cli, unsigned n, const char *array, struct mdp_diags *unread,
			uint64_t *kib, char *action, size_t len, double *dt)
{
	struct mdp_xsample s[2];
	struct mdp_root ov[2];
	struct mdp_xreport r;
	bool replay = mdp_explain_is_replay(&cli->root);
	uint64_t ms = 0;
	double t0 = 0;
	int err = 0, sig = 0, got = 0;

	for (int k = 0; k < 2 && !err && !sig; k++) {
		struct mdp_xsrc src = {.root = &cli->root, .sample = 1, .unreadable = unread};
		if (replay) {
			struct mdp_root one;
			if ((err =
				 mdp_explain_replay_sample(&cli->root, n + (unsigned)k, &ov[k]))) {
				cli_err(cli, "cannot replay the probe: .explain/%u: %s",
					n + (unsigned)k, mdp_root_strerror(-err));
				break;
			}
			src.overlay = &ov[k];
			if (!k && !(err = mdp_explain_replay_open(&cli->root, &one, &ms)))
				mdp_root_fini(&one);
		} else if (k) {
			unsigned iv =
			    xo(cli)->interval_ms ? xo(cli)->interval_ms : DEFAULT_INTERVAL_MS;
			if ((sig = nap(iv)))
				break;
		}
		if (!k)
			t0 = cli_mono_s();
		if (!err && (err = mdp_explain_sample(&src, &s[k])))
			cli_err(cli, "cannot read /proc/mdstat: %s", mdp_root_strerror(-err));
		if (replay)
			mdp_root_fini(&ov[k]);
		got += !err;
	}
	if (!replay)
		ms = (uint64_t)((cli_mono_s() - t0) * 1000.0 + 0.5);
	if (got == 2) {
		*dt = (double)ms / 1000.0;
		if (mdp_explain_array(&s[0], &s[1], *dt, array, NULL, &r)) {
			snprintf(action, len, "none");
			*kib = 0;
		} else {
			snprintf(action, len, "%s", r.action);
			*kib = r.speed_kib;
		}
	}
	for (int k = 0; k < got; k++)
		mdp_explain_sample_free(&s[k]);
	return sig ? sig : err ? -1 : 0;
}

/* Apply the probe's one setting through the transaction, as bench --compare applies a profile. */
static int probe_apply(struct cli *cli, const struct probe *pr)
{
	char yaml[512];
	struct mdp_profile p;
	struct mdp_diags d;
	char name[128];
	int rc;

	snprintf(name, sizeof(name), "%s:%s=%s", pr->set.dev, mdp_tunable_info(pr->set.t)->key,
		 pr->set.value);
	if (mdp_probe_yaml(&pr->set, yaml, sizeof(yaml)))
		return MDP_EXIT_USAGE;
	mdp_diags_init(&d);
	rc = mdp_profile_load_mem(&cli->dirs, name, yaml, strlen(yaml), &p, &d);
	cli_print_diags(cli, &d);
	mdp_diags_free(&d);
	if (rc)
		return MDP_EXIT_USAGE;
	return cli_apply_quiet(cli, &p);
}

/*
 * Pick what to probe among the reports: the first running operation's top recommendation
 * whose gain is unknown. 0, or an exit code with the refusal said.
 */
static int probe_pick(struct cli *cli, const struct mdp_xreport *reps, size_t n, struct probe *pr)
{
	bool running = false;

	for (size_t i = 0; i < n; i++) {
		const struct mdp_xfinding *f;
		int err;
		if (!strcmp(reps[i].action, "none"))
			continue;
		running = true;
		if (!(f = mdp_probe_pick(&reps[i])))
			continue;
		pr->rep = i;
		pr->finding = (size_t)(f - reps[i].findings);
		if ((err = mdp_probe_setting(f, &pr->set)) == -EMEDIUMTYPE) {
			cli_err(cli,
				"--probe: %s's recommendation is the profile %s, not one setting: "
				"measure it with 'mdprofile bench --op-only --compare %s'",
				reps[i].array, f->rec_name, f->rec_name);
			return MDP_EXIT_USAGE;
		}
		if (err) {
			cli_err(cli,
				"--probe: %s's recommendation (%s) is no setting mdprofile "
				"journals: nothing to probe",
				reps[i].array, f->rec_name);
			return MDP_EXIT_USAGE;
		}
		snprintf(pr->name, sizeof(pr->name), "%s/%s", pr->set.dev,
			 mdp_tunable_info(pr->set.t)->key);
		return 0;
	}
	cli_err(cli, running ? "--probe: every recommendation's gain is computed or there is none: "
			       "nothing to probe"
			     : "--probe: no md operation runs: nothing to measure");
	return MDP_EXIT_USAGE;
}

/*
 * A (explain's own window, already measured), then B: the setting applied for one window,
 * reverted; then A again. 0, or an exit code with the error said.
 */
static int probe_run(struct cli *cli, const struct mdp_xreport *r, struct probe *pr,
		     struct mdp_diags *unread)
{
	char act[16] = "";
	double dt = r->window_s;
	struct mdp_txn_rc rrc;
	int rc, m = 0;

	pr->w.a1 = r->speed_kib;
	pr->w.window_s = r->window_s;
	if ((m = cli_stop_requested()))
		goto stopped;
	/* Journaled as a probe: if this process dies, recover (any command's) reverts it. */
	cli->tx.origin = MDP_BY_PROBE;
	cli->tx.as_base = true;
	if ((rc = probe_apply(cli, pr)))
		return rc;
	m = probe_window(cli, 2, r->array, unread, &pr->w.b, act, sizeof(act), &dt);
	pr->w.ended |= strcmp(act, r->action) != 0;
	/* Whatever happened in the window, the value from before comes back. */
	rrc = mdp_txn_revert(&cli->tx, true);
	if (rrc.res != MDP_TXN_OK) {
		rc = cli_txn_result(cli, rrc, "revert", NULL);
		mdp_txn_report_free(&cli->tx.rep);
		return rc ? rc : MDP_EXIT_PARTIAL;
	}
	mdp_txn_report_free(&cli->tx.rep);
	if (m)
		goto stopped;
	if (!pr->w.ended) {
		m = probe_window(cli, 4, r->array, unread, &pr->w.a2, act, sizeof(act), &dt);
		if (m)
			goto stopped;
		pr->w.ended |= strcmp(act, r->action) != 0;
	}
	mdp_probe_judge(&pr->w, &pr->res);
	pr->done = true;
	return 0;
stopped:
	if (m > 0)
		cli_err(cli, "interrupted by %s; %s is as it was", cli_signal_name(m), pr->name);
	return MDP_EXIT_FAILED;
}

static int do_explain(struct cli *cli)
{
	struct mdp_xsample s[2];
	struct mdp_xcap cap = {0};
	struct mdp_diags unread;
	struct mdp_xreport *reps = NULL;
	size_t n = 0;
	uint64_t ms = 0;
	struct probe pr = {0};
	struct mdp_xrefusals no;
	int rc;
	bool any = false;

	mdp_diags_init(&unread);
	if (xo(cli)->probe && (rc = cli_refuse_over_active(cli, "explain --probe")))
		goto out;
	if ((rc = take_samples(cli, s, &cap, &unread, &ms)))
		goto out;
	for (int i = 1; i < cli->argc; i++)
		if (!in_sample(&s[0], cli->argv[i]) && !in_sample(&s[1], cli->argv[i])) {
			cli_err(cli, "no array %s in /proc/mdstat", cli->argv[i]);
			rc = MDP_EXIT_USAGE;
		}
	if (rc || !(reps = calloc(s[1].n_arrays + s[0].n_arrays + 1, sizeof(*reps))))
		goto done;
	refusals(cli, &no);
	n = explain_arrays(cli, s, (double)ms / 1000.0, &no, reps, &any);
	if (xo(cli)->probe && ((rc = probe_pick(cli, reps, n, &pr)) ||
			       (rc = probe_run(cli, &reps[pr.rep], &pr, &unread))))
		goto done;
	if (cli->json)
		print_json(cli, reps, n, &s[1], &unread, &pr);
	else
		print_text(reps, n, &s[1], &unread, (double)ms / 1000.0, &pr);
	rc = any ? MDP_EXIT_PENDING : MDP_EXIT_OK;
	if (xo(cli)->capture) {
		int wr = write_capture(cli, &cap, ms);
		rc = wr ? wr : rc;
	}
done:
	free(reps);
	mdp_explain_sample_free(&s[0]);
	mdp_explain_sample_free(&s[1]);
out:
	mdp_xcap_free(&cap);
	mdp_diags_free(&unread);
	return rc;
}

/* --probe changes a setting through the journal: it needs all that apply needs. */
static unsigned explain_setup_flags(const struct cli *cli, unsigned flags)
{
	return xo(cli)->probe ? flags | CMD_TXN | CMD_RECOVER : flags;
}

const struct cmd cmd_explain = {
    .name = "explain",
    .fn = do_explain,
    .opts = &explain_table,
    .max_args = -1,
    .args = "[ARRAY...]",
    .summary = "why an md operation runs at its speed, what would help and by how much",
    .setup_flags = explain_setup_flags,
};
