/* explain_render: see explain_render.h. */
#include "explain_render.h"

#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "json.h"
#include "render.h"
#include "status.h"

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
		printf("    gain: none, %s the limit\n", f->kind == MDP_XK_CONTROLLER
							     ? "the shared controller or link is"
							     : "the disks are");
		break;
	default:
		if (f->rec != MDP_XR_NONE)
			printf("    gain: cannot be computed from two samples\n");
	}
}

static void print_probe(const struct explain_probe *pr)
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
			 const struct explain_probe *pr)
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
	    !(r->n_findings &&
	      (r->findings[0].kind == MDP_XK_WAITING || r->findings[0].kind == MDP_XK_STUCK))) {
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

static void json_probe(struct json *j, const struct explain_probe *pr)
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
			const struct explain_probe *pr)
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

/* The report's probe, or NULL. */
static const struct explain_probe *probe_of(const struct explain_probe *pr, size_t i)
{
	return pr && pr->done && pr->rep == i ? pr : NULL;
}

void explain_print_json(struct cli *cli, const struct mdp_xreport *reps, size_t n,
			const struct mdp_xsample *s1, const struct mdp_diags *unread,
			const struct explain_probe *pr)
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

void explain_print_text(const struct mdp_xreport *reps, size_t n, const struct mdp_xsample *s1,
			const struct mdp_diags *unread, double dt, const struct explain_probe *pr)
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
