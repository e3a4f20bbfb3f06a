/*
 * watcher_int: what watcher_loop.c and watcher_look.c share, and nothing
 * outside the watcher uses.
 */
#ifndef MDP_WATCHER_INT_H
#define MDP_WATCHER_INT_H

#include "watcher_goal.h"

#include "engage.h"

#include "watcher_loop.h"

#include <syslog.h>

/* The loop's clock (monotonic seconds): the wait source's, a test's own. */
double mdp_wl_now(const struct mdp_wloop *w);
/* A line for people, with its priority for the journal and syslog. */
void mdp_wl_log(struct mdp_wloop *w, int prio, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
#define wl_say(w, ...)  mdp_wl_log(w, LOG_INFO, __VA_ARGS__)
#define wl_note(w, ...) mdp_wl_log(w, LOG_NOTICE, __VA_ARGS__)
/* The main lock for one transaction, waited for with the stop signals (0, -EINTR on a stop,
 * else -errno, said); let go with the transaction's report. */
int mdp_wl_lock(struct mdp_wloop *w);
void mdp_wl_unlock(struct mdp_wloop *w);
/* The diagnostics in d said through the caller, then dropped. */
void mdp_wl_diags(struct mdp_wloop *w, struct mdp_diags *d);
/* Maintenance at a look (watcher_maint.c): checks and repairs paused or resumed. */
void mdp_wmaint_look(struct mdp_wloop *w, const struct mdp_system *s);
/* notify (watcher_notify.c): n told where the profile says (its line said in the log here
 * unless n->said), and what was told kept. */
void mdp_wnews_tell(struct mdp_wloop *w, struct mdp_mnews *n);
/* What a watcher before this one told (MDP_WMAINT_NEWS), into w's runs. */
void mdp_wnews_load(struct mdp_wloop *w);
/* "2h 05m 10s" */
const char *mdp_wnews_dur(int64_t s, char *buf, size_t len);

/* Whether the loop acts on array a: every array for until-idle, the profile's for auto. */
bool mdp_wl_selected(const struct mdp_wloop *w, const struct mdp_array *a);
/* A selected array running a watched operation, for the bar and the summary. */
bool mdp_wl_watched(const struct mdp_wloop *w, const struct mdp_array *a);
/* Whether a selected array runs a watched operation; the first one named in w->busy. */
bool mdp_wl_busy(struct mdp_wloop *w, const struct mdp_system *s);

/* The word for one kind in --on ("recovery"). */
const char *mdp_op_kind_name(unsigned kind);

/* The kind of md's sync_action word ("recover" -> MDP_OP_RECOVERY), 0 for idle/frozen/"". */
unsigned mdp_op_kind_of(const char *sync_action);

/* Whether a runs an operation of one of kinds now (queued ones do not run). */
bool mdp_engage_busy(const struct mdp_array *a, unsigned kinds);

/* The caller's answers: the apply worked (engaged) or not (armed stays); released; held. */
void mdp_engage_applied(struct mdp_engage *e, bool ok);

/* The debounce a release waits for now (seconds): debounce_s unless md flaps. */
double mdp_engage_debounce(const struct mdp_engage *e);

/* Seconds until the debounce running now ends, or -1 when none runs. */
double mdp_engage_due(const struct mdp_engage *e, double now);

void mdp_engage_free(struct mdp_engage *e);

void mdp_engage_held(struct mdp_engage *e, double now);

void mdp_engage_init(struct mdp_engage *e, unsigned kinds, double debounce_s, bool engaged);

/*
 * A value found rewritten while engaged: 1 put it back (the count is
 * below MDP_REASSERT_MAX; *n is this attempt's number), 0 leave it (given
 * up: *n is MDP_REASSERT_MAX + 1 the first time, then 0 so the caller
 * reports it once), -ENOMEM.
 */
int mdp_engage_reassert(struct mdp_engage *e, enum mdp_tunable t, const char *dev, unsigned *n);

void mdp_engage_released(struct mdp_engage *e);

/*
 * One look: busy says whether a selected array runs a watched operation,
 * now is monotonic seconds. Returns what the caller must do.
 */
enum mdp_engage_do mdp_engage_step(struct mdp_engage *e, bool busy, double now);

/* Set w up from c (copied). Free with mdp_wloop_fini. */
void mdp_wloop_init(struct mdp_wloop *w, const struct mdp_wloop_cfg *c);
/* Free w and remove the watcher's state file (status's view of it). */
void mdp_wloop_fini(struct mdp_wloop *w);

/*
 * mdprofile auto: release the main lock, look, say what is armed, and
 * watch until a stop signal or a failure. Returns 0, a txn_result code, or
 * -errno when the loop itself failed (said through the hooks).
 */
int mdp_wloop_auto(struct mdp_wloop *w);

/*
 * apply --until-idle, once its layer is on: release the main lock, then
 * watch until md is idle and remove the layer (at once when nothing runs;
 * not at all when the profile was another's layer already). Returns as
 * mdp_wloop_auto.
 */
int mdp_wloop_until_idle(struct mdp_wloop *w);

/*
 * One look: what can change between two looks read into s (freed first):
 * md's arrays, their actions and progress, what discovery with w's skip
 * reads; its diagnostics (the system's standing problems, said at the
 * start) are dropped. mdp_wloop_track then notes, at
 * now (monotonic seconds), each operation's progress and, for those md no
 * longer runs, how they ended; a line at each 10% step when c.steps.
 * mdp_wloop_look is both, at the clock's now: 0 or -errno.
 */
void mdp_wloop_track(struct mdp_wloop *w, const struct mdp_system *s, double now);
int mdp_wloop_look(struct mdp_wloop *w, struct mdp_system *s);

/*
 * The watch over what the discovery s read (its arrays' md/sync_action and
 * /proc/mdstat, the stop signals): the one open since before s was read
 * follows s's arrays (mdp_watch_follow: its files stay open, so that an
 * event md raised while s was read still wakes the next wait), else a new
 * one; s taken as the discovery a glance compares with, seen at now. 0 or
 * -errno.
 */
int mdp_wloop_watch(struct mdp_wloop *w, const struct mdp_system *s, double now);
/*
 * Whether the look at now may be a glance: not engaged, the discovery
 * watched saw no watched operation on a selected array (one queued
 * starts without a word in sync_action) and none it still follows, and is
 * younger than MDP_WLOOP_SAFETY_S.
 */
bool mdp_wloop_quiet(const struct mdp_wloop *w, double now);
/*
 * A glance: the selected arrays' md/sync_action read through the watch,
 * up to MDP_WLOOP_GLANCE_MAX of them from where the last glance stopped.
 * 1 when one differs from what the discovery s (the watched one) read, or
 * cannot be read: a discovery is due; 0 when those read are as they were.
 */
int mdp_wloop_glance(struct mdp_wloop *w, const struct mdp_system *s);

/* Each operation seen (since the engage, or the start), one line each: how it ended, its average.
 */
void mdp_wloop_summary(struct mdp_wloop *w);

/*
 * One look under the layer applied at since (a new since starts over):
 * for each array of s that on[] marks, its counters read through r, and
 * a move in *moves (n of them, the caller frees) when its minimum should
 * change. Arrays no longer marked are dropped. 0 or -ENOMEM.
 */
int mdp_wgoal_look(struct mdp_wgoal *g, int64_t since, const struct mdp_root *r,
		   const struct mdp_system *s, const bool *on, struct mdp_wgoal_move **moves,
		   size_t *n);
/* The state of array name, NULL when none. */
const struct mdp_wgoal_arr *mdp_wgoal_find(const struct mdp_wgoal *g, const char *name);
/* After the move's write worked: its limit is the array's now. */
void mdp_wgoal_moved(struct mdp_wgoal *g, const struct mdp_wgoal_move *m);
/*
 * After a look at now (monotonic seconds): the time since the last one
 * counted as steered for each array looked at, and as over the goal for
 * each whose look was over it.
 */
void mdp_wgoal_tally(struct mdp_wgoal *g, double now);
/* The spans said (the release summary): forgotten. */
void mdp_wgoal_spans_clear(struct mdp_wgoal *g);

int mdp_wgoal_store(const struct mdp_root *r, const struct mdp_wgoal *g);

/* mdp_wgoal_load's view from the file's text in buf (cut up). */
int mdp_wgoal_parse(char *buf, struct mdp_wgoal_view *v);

#endif /* MDP_WATCHER_INT_H */
