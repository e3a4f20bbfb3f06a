/*
 * explain_run: what `mdprofile explain` does around its rules. Its window
 * (two samples --interval apart, or a capture's two replayed), the arrays it
 * reports on, the shipped profiles as this box would take them, and
 * --probe's A/B/A windows: the recommended setting applied through the
 * caller's transaction for one window between two at the settings as they
 * were, then reverted, whatever happened.
 *
 * Everything is read through the root given; nothing here prints. What
 * could not be read comes back in struct mdp_xfail for the caller to say.
 */
#ifndef MDP_EXPLAIN_RUN_H
#define MDP_EXPLAIN_RUN_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "mdp_base.h"
#include "explain.h"
#include "explain_sample.h"
#include "probe.h"
#include "mdp_profile.h"
#include "mdp_watcher.h"

/* How explain measures. */
struct mdp_xrun {
	const struct mdp_root *root;
	unsigned interval_ms;         /* between a window's two samples; none in a replay */
	struct mdp_diags *unreadable; /* files that exist but could not be read, deduped */
	int (*stop_requested)(void);  /* --probe: a signal number to stop, else 0; NULL never */
};

/* What could not be read, for the caller's message. */
enum mdp_xfail_what {
	MDP_XF_NONE,
	MDP_XF_ELAPSED, /* the capture's .explain/elapsed_ms */
	MDP_XF_MDSTAT,  /* /proc/mdstat (of the root, or of the replayed sample) */
	MDP_XF_PROBE,   /* the replayed probe's sample .explain/<n> */
};
struct mdp_xfail {
	enum mdp_xfail_what what;
	int err; /* -errno */
	unsigned n;
};

/*
 * explain's window: its two samples, the time between them and the reports
 * made of them.
 */
struct mdp_xwindow {
	struct mdp_xsample s[2];
	uint64_t ms;              /* between the samples */
	struct mdp_xreport *reps; /* n of them */
	size_t n;
	bool any;             /* one of them recommends something */
	bool sampled;         /* s holds two samples */
	const char **missing; /* the names asked for that neither sample has, n_missing */
	size_t n_missing;
};

/*
 * Take explain's window (mdp_xrun_samples; recorded into cap, or NULL) and
 * report on it (mdp_xrun_reports): each array of names (n_names of them),
 * or with none named each array an operation runs or waits on, with the
 * shipped profiles found through dirs as this box would take them
 * (mdp_xrun_profiles) and the watcher's word on a goal it steers by
 * (mdp_wgoal_active). A window w held already is dropped first, with what
 * cap recorded and x->unreadable listed: taken again, as after a recover.
 * 0; -ESRCH when a named array is in neither sample (w->missing names
 * them, no reports); -ENOMEM; another -errno with *fail. Free w with
 * mdp_xwindow_free, whatever it returned.
 */
int mdp_xrun_window(const struct mdp_xrun *x, const struct mdp_profile_dirs *dirs,
		    char *const *names, size_t n_names, struct mdp_xcap *cap, struct mdp_xwindow *w,
		    struct mdp_xfail *fail);
void mdp_xwindow_free(struct mdp_xwindow *w);

/* The caller's transaction, for --probe's one setting. */
struct mdp_probe_ops {
	/* Apply s journaled as a probe: 0, or the caller's nonzero code (said). */
	int (*apply)(void *arg, const struct mdp_probe_setting *s);
	/* Revert what apply did: 0, or the caller's nonzero code (said). */
	int (*revert)(void *arg);
	void *arg;
};

/* How a probe went. */
struct mdp_probe_out {
	struct mdp_probe_windows w;
	struct mdp_probe_result res; /* when it returned 0 */
	int sig;                     /* -EINTR: the stop signal */
	int rc;                      /* -ECANCELED: apply's or revert's nonzero code */
	struct mdp_xfail fail;       /* another -errno: the sample that failed */
};

/*
 * --probe of setting set on report r's array: r's window is the first A;
 * set is applied (ops->apply) for one window B, reverted (ops->revert)
 * whatever happened in it, then one more window A at the settings as they
 * were, unless the operation ended or changed. Under a replay root B is
 * /.explain/2 to 3 and the second A /.explain/4 to 5. The stop signal is
 * seen within 100 ms of a window. 0 with out->w and out->res; -EINTR when a
 * stop signal came (out->sig; reverted, if applied); -ECANCELED when apply
 * or revert failed (out->rc: nothing changed, or the revert did not
 * complete); another -errno when a sample could not be read (out->fail;
 * reverted).
 */
int mdp_xrun_probe(const struct mdp_xrun *x, const struct mdp_xreport *r,
		   const struct mdp_probe_setting *set, const struct mdp_probe_ops *ops,
		   struct mdp_probe_out *out);

#endif
