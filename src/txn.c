/*
 * txn: apply, revert and recover md tunables and services as one
 * transaction, journaled, verified and undone on failure.
 *
 * Invariants, and the function that keeps each:
 *
 *  1. Before any system value changes, the journal holds its prior value
 *     and is durable: mdp_txn_apply() builds the whole journal first
 *     (apply_prepare(): state applying, every baseline the plan touches,
 *     every service it will pause) and stores it with journal_store()
 *     (temp, fsync, rename, fsync dir) before step_do() makes the first
 *     change; restore_baseline() stores state reverting before it writes.
 *  2. The baseline is what the system had before mdprofile first changed
 *     it this boot: journal_add_base() only adds a target that is not
 *     there yet, so a profile switch keeps the first-seen value, and
 *     restore_baseline() writes exactly those values back.
 *  3. Every write is read back: write_verify() reads the attribute after
 *     writing and fails when the kernel kept something else.
 *  4. A failure at step k undoes steps k..1 in reverse: rollback(), called
 *     by apply_unwind(). Step k is included because a clamped write did
 *     change the value.
 *  5. A crash anywhere leaves a journal from which mdp_txn_recover()
 *     restores the baseline; a journal from another boot_id is stale and
 *     only cleared by recover_stale() (the reboot reset the kernel, and
 *     the services came back).
 *  6. Only services that mdprofile paused are resumed: steps_pause() plans
 *     pauses only for services found running, only those are journaled as
 *     paused, and restore_baseline() skips any it finds running again.
 *  7. One mdprofile changes the system at a time: the command layer holds
 *     mdp_lock_take() around every mutating entry point.
 *  8. mdprofile waits for and signals only a process it started: a pause's
 *     tool is journaled with its process group and who led it
 *     (pause_started(), mdp_exec_group_ident()), and settle() checks that
 *     identity (group_state()) before each wait and right before the kill.
 *     The journal and its directory are trusted only when nobody but root
 *     or the caller can have written them (journal.c's state_check()).
 *
 * States of the journal:
 *
 *   (none) --journal_store in mdp_txn_apply--> applying --apply_commit--> active
 *   applying --apply_unwind, rollback ok--> previous state (none or active)
 *   active --mdp_txn_apply (profile switch)--> applying
 *   active|applying|reverting --restore_baseline (revert/recover)--> reverting --> (none)
 *
 * States of a service within the journal ("svc" lines):
 *
 *   (absent) --steps_pause/journal_set_svc--> paused (its tool not yet run)
 *   paused --pause_started (the tool's group and leader journaled)--> pausing
 *   pausing --apply_commit--> paused
 *   paused|pausing --restore_baseline: settle(), svc_resume()--> resumed / dropped
 *   paused --apply_commit, resumed by a profile switch--> resumed
 */
#include "txn.h"
#include "text.h"
#include "grow.h"

#ifdef MDP_FAULT_SEAM
#include <assert.h>
/* Test builds check the state each transition of the diagram above starts from. */
#define assert_jstate(cond) assert(cond)
#define assert_txn(cond)    assert(cond)
#else
#define assert_jstate(cond) ((void)0)
#define assert_txn(cond)    ((void)0)
#endif

#include <errno.h>
#include <signal.h>
#include <time.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "exec.h"
#include "ident.h"
#include "services.h"

enum step_kind { STEP_TUNABLE, STEP_PAUSE, STEP_RESUME };

struct step {
	enum step_kind kind;
	enum mdp_tunable t;
	char dev[MDP_NAME_MAX];
	struct mdp_value want;
	char prev[MDP_RAW_MAX]; /* raw value before this step, for undo */
	const char *svc;
	unsigned timeout_s; /* the service entry's own timeout; 0: the backend's */
	bool started;       /* the write was attempted: undo must consider it */
	bool held;          /* a resume that left the service to DSM's own reason */
};

struct steps {
	struct step *v;
	size_t n;
};

/* ---- result ----------------------------------------------------------------- */

static struct mdp_txn_rc txn_res(enum mdp_txn_result res)
{
	return (struct mdp_txn_rc){res, 0};
}

/* Stopped before anything changed. err is a -errno; anything else is a bug. */
static struct mdp_txn_rc txn_err(int err)
{
	assert_txn(err < 0);
	return (struct mdp_txn_rc){MDP_TXN_ERROR, err < 0 ? err : -EIO};
}

/* ---- report ----------------------------------------------------------------- */

static void ev_change(struct mdp_txn *tx, enum mdp_tunable t, const char *dev,
		      const struct mdp_value *before, const struct mdp_value *after)
{
	struct mdp_txn_report *rep = &tx->rep;
	struct mdp_txn_change *c;

	if (!(c = mdp_push(&rep->changes, &rep->n_changes, sizeof(*c))))
		return;
	c->t = t;
	snprintf(c->dev, sizeof(c->dev), "%s", dev);
	c->have_before = before != NULL;
	if (before)
		c->before = *before;
	c->after = *after;
}

static void ev_service(struct mdp_txn *tx, const char *name, enum mdp_txn_svc_action action,
		       enum mdp_txn_svc_result result)
{
	struct mdp_txn_report *rep = &tx->rep;
	struct mdp_txn_service *sv;

	if (!(sv = mdp_push(&rep->services, &rep->n_services, sizeof(*sv))))
		return;
	snprintf(sv->name, sizeof(sv->name), "%s", name);
	sv->action = action;
	sv->result = result;
}

static void ev_note(struct mdp_txn *tx, enum mdp_txn_note_kind kind, const char *profile)
{
	struct mdp_txn_report *rep = &tx->rep;
	struct mdp_txn_note *n;

	if (!(n = mdp_push(&rep->notes, &rep->n_notes, sizeof(*n))))
		return;
	n->kind = kind;
	snprintf(n->profile, sizeof(n->profile), "%s", profile ? profile : "");
}

static struct mdp_txn_left *ev_left(struct mdp_txn *tx)
{
	struct mdp_txn_report *rep = &tx->rep;
	struct mdp_txn_left *l;

	return mdp_push(&rep->left, &rep->n_left, sizeof(*l));
}

void mdp_txn_report_free(struct mdp_txn_report *rep)
{
	free(rep->changes);
	free(rep->services);
	free(rep->notes);
	free(rep->left);
	memset(rep, 0, sizeof(*rep));
}

bool mdp_txn_report_changed(const struct mdp_txn_report *rep)
{
	if (rep->n_changes)
		return true;
	for (size_t i = 0; i < rep->n_services; i++)
		if (rep->services[i].result == MDP_TXN_SVC_DONE)
			return true;
	return false;
}

/* After a rollback nothing this apply did stays done: drop its events. */
static void ev_forget_since(struct mdp_txn *tx, size_t n_changes, size_t n_services)
{
	struct mdp_txn_report *rep = &tx->rep;
	size_t k = n_services;

	rep->n_changes = n_changes;
	for (size_t i = n_services; i < rep->n_services; i++)
		if (rep->services[i].result != MDP_TXN_SVC_DONE)
			rep->services[k++] = rep->services[i];
	rep->n_services = k;
}

/* ---- reading and writing one target ----------------------------------------- */

static void target_name(enum mdp_tunable t, const char *dev, char *buf, size_t len)
{
	if (mdp_tunable_target_name(t, dev, buf, len))
		snprintf(buf, len, "?");
}

static int read_target(const struct mdp_root *r, enum mdp_tunable t, const char *dev, char *raw,
		       size_t cap, struct mdp_value *v)
{
	char path[128];
	ssize_t n;
	int err;

	if ((err = mdp_tunable_path(t, dev, path, sizeof(path))))
		return err;
	/* Trailing newline stripped, as discovery records baselines. */
	if ((n = mdp_root_read_value(r, path, raw, cap)) < 0)
		return (int)n;
	return mdp_tunable_parse(t, raw, v);
}

/* The value to write to get raw back ("10000 (system)\n" -> "system"). */
static int raw_to_value(enum mdp_tunable t, const char *raw, struct mdp_value *v)
{
	return mdp_tunable_parse(t, raw, v);
}

/*
 * Write want to (t, dev) and read it back (invariant 3). On a mismatch the
 * diag says what the kernel kept; the caller treats the step as started.
 */
static int write_verify(struct mdp_txn *tx, enum mdp_tunable t, const char *dev,
			const struct mdp_value *want)
{
	char path[128], text[48], raw[MDP_RAW_MAX], name[96], a[48], b[48];
	struct mdp_value got;
	int err;

	target_name(t, dev, name, sizeof(name));
	if ((err = mdp_tunable_path(t, dev, path, sizeof(path))) ||
	    (err = mdp_tunable_format(t, want, text, sizeof(text))))
		return err;
	mdp_tunable_show(t, want, a, sizeof(a));
	if ((err = mdp_root_write(tx->root, path, text))) {
		mdp_diags_add(tx->d, NULL, 0, 0, "%s: writing %s failed: %s", name, a,
			      mdp_root_strerror(-err));
		return err;
	}
	if ((err = read_target(tx->root, t, dev, raw, sizeof(raw), &got))) {
		mdp_diags_add(tx->d, NULL, 0, 0, "%s: reading back after writing %s failed: %s",
			      name, a, mdp_root_strerror(-err));
		return err;
	}
	if (!mdp_value_eq(&got, want)) {
		mdp_tunable_show(t, &got, b, sizeof(b));
		mdp_diags_add(tx->d, NULL, 0, 0, "%s: asked for %s, the kernel kept %s", name, a,
			      b);
		return -ERANGE;
	}
	return 0;
}

/*
 * Write a raw baseline/previous value back and verify it. When report is
 * set, a done line says what it went from and to.
 */
static int restore_value(struct mdp_txn *tx, enum mdp_tunable t, const char *dev,
			 const struct mdp_value *want, bool report)
{
	struct mdp_value v = *want, now;
	char cur[MDP_RAW_MAX];
	bool have_now;
	int err;

	have_now = !read_target(tx->root, t, dev, cur, sizeof(cur), &now);
	/*
	 * Already there: nothing to write (keeps a revert from touching more
	 * than it must). "N (system)" matches whatever N: it follows the sysctl.
	 */
	if (have_now && mdp_value_eq(&now, &v))
		return 0;
	if ((err = write_verify(tx, t, dev, &v)) || !report)
		return err;
	ev_change(tx, t, dev, have_now ? &now : NULL, &v);
	return 0;
}

static int restore_raw(struct mdp_txn *tx, enum mdp_tunable t, const char *dev, const char *raw,
		       bool report)
{
	struct mdp_value v;
	int err;

	if ((err = raw_to_value(t, raw, &v)))
		return err;
	return restore_value(tx, t, dev, &v, report);
}

/*
 * An array stopped (or a disk pulled) since apply took its values with it:
 * md and the block layer forget them, and a device of the same name that
 * comes back starts from the kernel's defaults. There is nothing to restore,
 * so the target is dropped with a note instead of wedging every later
 * command on a write that can never succeed.
 */
static bool dev_gone(struct mdp_txn *tx, const char *dev)
{
	char path[64];

	if (!dev[0])
		return false; /* the dev.raid sysctls live as long as md does */
	snprintf(path, sizeof(path), "/sys/block/%s", dev);
	if (mdp_root_exists(tx->root, path))
		return false;
	for (size_t i = 0; i < tx->rep.n_notes; i++)
		if (tx->rep.notes[i].kind == MDP_TXN_NOTE_GONE &&
		    !strcmp(tx->rep.notes[i].dev, dev))
			return true;
	ev_note(tx, MDP_TXN_NOTE_GONE, NULL);
	if (tx->rep.n_notes && tx->rep.notes[tx->rep.n_notes - 1].kind == MDP_TXN_NOTE_GONE)
		snprintf(tx->rep.notes[tx->rep.n_notes - 1].dev, MDP_NAME_MAX, "%s", dev);
	return true;
}

/* ---- services ---------------------------------------------------------------- */

/*
 * The backend for one service entry: a copy whose timeouts are the entry's
 * own when it has one (it wins over the command line's, services.h).
 */
static const struct mdp_svc_backend *svc_for(const struct mdp_txn *tx, unsigned timeout_s,
					     struct mdp_svc_backend *b)
{
	if (!timeout_s)
		return tx->svc;
	*b = *tx->svc;
	b->timeout_ms = b->pkg_timeout_ms = timeout_s * 1000;
	return b;
}

/* Pause (or resume) SVC with its own timeout. */
static int svc_act(struct mdp_txn *tx, const char *svc, unsigned timeout_s, bool pause)
{
	struct mdp_svc_backend b;
	const struct mdp_svc_backend *use;

	if (!tx->svc || !tx->svc->ops)
		return -ENOTSUP;
	use = svc_for(tx, timeout_s, &b);
	return pause ? tx->svc->ops->pause(use, svc, tx->d) : tx->svc->ops->resume(use, svc, tx->d);
}

static int svc_pause(struct mdp_txn *tx, const char *svc, unsigned timeout_s)
{
	return svc_act(tx, svc, timeout_s, true);
}

/* An apply's pause, whose tool is journaled as it starts ("pausing PGID"). */
struct pause_watch {
	struct mdp_txn *tx;
	struct mdp_journal *j;
	const char *svc;
	int err;
};

static int journal_store(struct mdp_txn *tx, const struct mdp_journal *j);
static struct mdp_jservice *journal_svc(struct mdp_journal *j, const char *name);

static void pause_started(void *ctx, long pgid)
{
	struct pause_watch *w = ctx;
	struct mdp_jservice *js = journal_svc(w->j, w->svc);
	struct mdp_exec_ident id;

	/* Only stop/start tools are watched (services.h): a fallback's replaces the first. */
	if (!js)
		return;
	js->settled = false;
	js->pgid = pgid;
	/* Unknown (no /proc): journaled without it, recover then leaves the group alone. */
	if (mdp_exec_group_ident(pgid, &id))
		memset(&id, 0, sizeof(id));
	js->start = id.start;
	snprintf(js->boot, sizeof(js->boot), "%s", id.boot);
	w->err = journal_store(w->tx, w->j);
}

static int svc_pause_journaled(struct mdp_txn *tx, struct mdp_journal *j, const char *svc,
			       unsigned timeout_s)
{
	struct pause_watch w = {tx, j, svc, 0};
	struct mdp_exec_watch watch = {pause_started, &w};
	struct mdp_svc_backend own, b;
	int err;

	if (!tx->svc || !tx->svc->ops)
		return -ENOTSUP;
	b = *svc_for(tx, timeout_s, &own);
	b.watch = &watch;
	err = b.ops->pause(&b, svc, tx->d);
	return err ? err : w.err;
}

static bool svc_running(struct mdp_txn *tx, const char *svc, unsigned timeout_s)
{
	struct mdp_svc_backend b;
	enum mdp_svc_state st;
	struct mdp_diags quiet;
	bool running;

	if (!tx->svc || !tx->svc->ops)
		return false;
	/* Unknown state: fall through to resume, which says what went wrong. */
	mdp_diags_init(&quiet);
	running = !tx->svc->ops->status(svc_for(tx, timeout_s, &b), svc, &st, &quiet) &&
		  st == MDP_SVC_RUNNING;
	mdp_diags_free(&quiet);
	return running;
}

/* 0 resumed, -EBUSY held stopped by DSM for its own reason (invariant 6), else -errno. */
static int svc_resume(struct mdp_txn *tx, const char *svc, unsigned timeout_s)
{
	return svc_act(tx, svc, timeout_s, false);
}

/* Said once per transaction: resume may have undone a stop DSM made itself. */
static void note_plain_verbs(struct mdp_txn *tx)
{
	if (!tx->svc || !tx->svc->memo || !tx->svc->memo->plain_verbs)
		return;
	for (size_t i = 0; i < tx->rep.n_notes; i++)
		if (tx->rep.notes[i].kind == MDP_TXN_NOTE_PLAIN_VERBS)
			return;
	ev_note(tx, MDP_TXN_NOTE_PLAIN_VERBS, NULL);
}

enum group_state { GROUP_GONE, GROUP_OURS, GROUP_OTHER };

/*
 * Whether process group js->pgid is still the tool mdprofile started: its
 * leader must be the very process journaled (start time and boot id).
 * Anything else, a reused number, a forged or --root tree's journal, one
 * without the identity, is another's and never waited for or signalled.
 */
static enum group_state group_state(const struct mdp_jservice *js)
{
	struct mdp_exec_ident id;

	if (!mdp_exec_group_alive(js->pgid))
		return GROUP_GONE;
	if (!js->start || mdp_exec_group_ident(js->pgid, &id) || id.start != js->start ||
	    strcmp(id.boot, js->boot))
		return GROUP_OTHER;
	return GROUP_OURS;
}

/*
 * The longest the tool can have had: mdprofile kills it at the entry's own
 * timeout, else at the backend's for its kind ("pkg:" entries are slower).
 */
static unsigned settle_limit_ms(const struct mdp_txn *tx, const struct mdp_jservice *js)
{
	if (js->timeout_s)
		return js->timeout_s * 1000;
	if (!tx->svc)
		return tx->settle_ms;
	return mdp_ident_service_pkg(js->name) ? tx->svc->pkg_timeout_ms : tx->svc->timeout_ms;
}

/*
 * The tool pausing js when mdprofile died may still run in its own process
 * group and stop the service after recover looked. Let it finish (up to
 * its timeout, settle_limit_ms()), then kill what is left of it; after
 * that the service's state is settled and tells whether the pause
 * happened. The group's identity is checked before each wait and right
 * before the kill (group_state()).
 */
static void settle(struct mdp_txn *tx, const struct mdp_jservice *js)
{
	struct timespec slice = {0, 100 * 1000 * 1000};
	unsigned waited = 0, limit = settle_limit_ms(tx, js);
	enum group_state g;

	if (js->settled)
		return;
	while ((g = group_state(js)) == GROUP_OURS && waited < limit) {
		nanosleep(&slice, NULL);
		waited += 100;
	}
	if (g == GROUP_OURS)
		mdp_exec_group_kill(js->pgid);
	else if (g == GROUP_OTHER)
		mdp_diags_add(tx->d, NULL, 0, 0,
			      "warning: service '%s': process group %ld is not the tool that was "
			      "pausing it (%s): not waited for, not killed",
			      js->name, js->pgid,
			      js->start ? "another process has its number"
					: "the journal does not say which process it was");
}

/* ---- journal helpers ---------------------------------------------------------- */

static struct mdp_jtarget *journal_base(struct mdp_journal *j, enum mdp_tunable t, const char *dev)
{
	for (size_t i = 0; i < j->n_base; i++)
		if (j->base[i].t == t && !strcmp(j->base[i].dev, dev))
			return &j->base[i];
	return NULL;
}

/* Invariant 2: the first value seen this boot stays the baseline. */
static int journal_add_base(struct mdp_journal *j, enum mdp_tunable t, const char *dev,
			    const char *raw)
{
	struct mdp_jtarget *nv;

	if (journal_base(j, t, dev))
		return 0;
	if (!(nv = mdp_push(&j->base, &j->n_base, sizeof(*nv))))
		return -ENOMEM;
	nv->t = t;
	snprintf(nv->dev, sizeof(nv->dev), "%s", dev);
	snprintf(nv->raw, sizeof(nv->raw), "%s", raw);
	return 0;
}

static struct mdp_jservice *journal_svc(struct mdp_journal *j, const char *name)
{
	for (size_t i = 0; i < j->n_svc; i++)
		if (!strcmp(j->svc[i].name, name))
			return &j->svc[i];
	return NULL;
}

static int journal_set_svc(struct mdp_journal *j, const char *name, bool paused, unsigned timeout_s)
{
	struct mdp_jservice *s = journal_svc(j, name);

	if (!s) {
		if (!(s = mdp_push(&j->svc, &j->n_svc, sizeof(*s))))
			return -ENOMEM;
		snprintf(s->name, sizeof(s->name), "%s", name);
	}
	s->paused = paused;
	s->settled = true; /* "paused" before its tool starts: recover checks the state */
	s->pgid = 0;
	s->timeout_s = timeout_s;
	return 0;
}

static void *dup_array(const void *src, size_t n, size_t size, int *err)
{
	void *v;

	if (!n)
		return NULL;
	if (!(v = malloc(n * size))) {
		*err = -ENOMEM;
		return NULL;
	}
	return memcpy(v, src, n * size);
}

/* A copy of src for the next state; set stays empty: the new plan's own. */
static int journal_copy(const struct mdp_journal *src, struct mdp_journal *dst)
{
	int err = 0;

	*dst = *src;
	dst->base = dup_array(src->base, src->n_base, sizeof(*src->base), &err);
	dst->svc = dup_array(src->svc, src->n_svc, sizeof(*src->svc), &err);
	dst->uset = dup_array(src->uset, src->n_uset, sizeof(*src->uset), &err);
	dst->speed = dup_array(src->speed, src->n_speed, sizeof(*src->speed), &err);
	dst->set = NULL;
	dst->n_set = 0;
	if (err) {
		dst->n_base = dst->n_svc = dst->n_uset = dst->n_speed = 0;
		mdp_journal_free(dst);
	}
	return err;
}

static const struct mdp_jset *jset_find(const struct mdp_jset *v, size_t n, enum mdp_tunable t,
					const char *dev)
{
	for (size_t i = 0; i < n; i++)
		if (v[i].t == t && !strcmp(v[i].dev, dev))
			return &v[i];
	return NULL;
}

/*
 * What a target goes back to when the layer above lets go of it: the
 * base's value when a base waits under an overlay and set it, else the
 * baseline. *v filled; -EINVAL when the baseline is unreadable.
 */
static int floor_value(const struct mdp_journal *j, const struct mdp_jtarget *b,
		       struct mdp_value *v)
{
	const struct mdp_jset *u =
	    j->has_under ? jset_find(j->uset, j->n_uset, b->t, b->dev) : NULL;

	if (u) {
		*v = u->want;
		return 0;
	}
	return raw_to_value(b->t, b->raw, v);
}

/*
 * What every journal written must be, whichever transition writes it (test
 * builds; sqlite's assert_pager_state is the model): a state of the diagram
 * at the top other than none (none is the file removed), the profile of
 * the top layer named, a base under an overlay named, every service named.
 */
static void txn_assert_state(const struct mdp_journal *j)
{
	assert_jstate(j->state == MDP_J_APPLYING || j->state == MDP_J_ACTIVE ||
		      j->state == MDP_J_REVERTING);
	assert_jstate(!j->has_under || j->under.profile[0]);
	assert_jstate(j->profile[0]);
	for (size_t i = 0; i < j->n_svc; i++)
		assert_jstate(j->svc[i].name[0]);
}

static int journal_store(struct mdp_txn *tx, const struct mdp_journal *j)
{
	int err;

	txn_assert_state(j);
	err = mdp_journal_store(tx->root, j);

	if (err)
		mdp_diags_add(tx->d, NULL, 0, 0, "cannot write the journal %s: %s", MDP_JOURNAL,
			      mdp_root_strerror(-err));
	return err;
}

static int journal_remove(struct mdp_txn *tx)
{
	int err = mdp_root_unlink(tx->root, MDP_JOURNAL);

	if (err && err != -ENOENT) {
		mdp_diags_add(tx->d, NULL, 0, 0, "cannot remove the journal %s: %s", MDP_JOURNAL,
			      mdp_root_strerror(-err));
		return err;
	}
	return 0;
}

/*
 * The boot id tells this boot's journal from a stale one (invariant 5). A
 * boot id is a UUID; anything else is treated as unreadable.
 */
static int read_boot_id(const struct mdp_root *r, char *buf, size_t len)
{
	ssize_t n = mdp_root_read_value(r, "/proc/sys/kernel/random/boot_id", buf, len);

	if (n >= 0 && (n < 8 || strspn(buf, "0123456789abcdef-") != (size_t)n))
		n = -EINVAL;
	if (n < 0)
		buf[0] = '\0';
	return n < 0 ? (int)n : 0;
}

/* ---- steps ------------------------------------------------------------------- */

static struct step *steps_add(struct steps *st, enum step_kind kind)
{
	struct step *nv = mdp_push(&st->v, &st->n, sizeof(*nv));

	if (nv)
		nv->kind = kind;
	return nv;
}

static bool plan_has(const struct mdp_plan *pl, enum mdp_tunable t, const char *dev)
{
	for (size_t i = 0; i < pl->n; i++)
		if (pl->v[i].t == t && !strcmp(pl->v[i].dev, dev))
			return true;
	return false;
}

/*
 * Targets the active layer changed and the new profile does not mention go
 * back: to the base's value when the new profile is an overlay on a base
 * that set them, else to the baseline.
 */
static int steps_restore_old(struct mdp_txn *tx, const struct mdp_journal *j,
			     const struct mdp_plan *pl, struct steps *st)
{
	for (size_t i = 0; i < j->n_base; i++) {
		const struct mdp_jtarget *b = &j->base[i];
		char cur[MDP_RAW_MAX];
		struct mdp_value now, want;
		struct step *s;
		if (plan_has(pl, b->t, b->dev))
			continue;
		if (read_target(tx->root, b->t, b->dev, cur, sizeof(cur), &now))
			continue;
		if (floor_value(j, b, &want))
			return -EINVAL;
		if (mdp_value_eq(&now, &want))
			continue;
		if (!(s = steps_add(st, STEP_TUNABLE)))
			return -ENOMEM;
		s->t = b->t;
		snprintf(s->dev, sizeof(s->dev), "%s", b->dev);
		snprintf(s->prev, sizeof(s->prev), "%s", cur);
		s->want = want;
	}
	return 0;
}

static int steps_plan(const struct mdp_plan *pl, struct mdp_journal *j, struct steps *st)
{
	for (size_t i = 0; i < pl->n; i++) {
		const struct mdp_change *c = &pl->v[i];
		struct step *s;
		if (!c->pending)
			continue;
		if (!(s = steps_add(st, STEP_TUNABLE)))
			return -ENOMEM;
		s->t = c->t;
		snprintf(s->dev, sizeof(s->dev), "%s", c->dev);
		s->want = c->want;
		snprintf(s->prev, sizeof(s->prev), "%s", c->cur.raw);
		if (journal_add_base(j, c->t, c->dev, c->cur.raw))
			return -ENOMEM;
	}
	return 0;
}

/* Whether sv applies here: no only_on, or it names this backend. */
static bool svc_here(const struct mdp_txn *tx, const struct mdp_service *sv)
{
	const char *name = tx->svc && tx->svc->ops ? tx->svc->ops->name : NULL;

	return !sv->only_on || (sv->only_on & mdp_platform_bit(name));
}

static int svc_status(struct mdp_txn *tx, const struct mdp_service *sv, enum mdp_svc_state *state)
{
	struct mdp_svc_backend b;

	if (!tx->svc || !tx->svc->ops) {
		if (sv->optional) {
			*state = MDP_SVC_MISSING;
			return 0;
		}
		mdp_diags_add(tx->d, sv->pos.file, sv->pos.line, sv->pos.col,
			      "cannot pause service '%s': no service manager found "
			      "(DSM 6, DSM 7 or systemd); mark it optional or remove it",
			      sv->name);
		return -ENOTSUP;
	}
	return tx->svc->ops->status(svc_for(tx, sv->timeout_s, &b), sv->name, state, tx->d);
}

/*
 * Pause what runs; leave alone what the user stopped (invariant 6).
 * -EINVAL for what the profile must change, -EIO when the service manager
 * itself failed (missing tool, odd answer): a system failure.
 */
static int steps_pause(struct mdp_txn *tx, const struct mdp_profile *p,
		       const struct mdp_journal *old, struct mdp_journal *j, struct steps *st)
{
	int bad = 0, err;

	for (size_t i = 0; i < p->n_services; i++) {
		const struct mdp_service *sv = &p->services[i];
		const struct mdp_jservice *was = journal_svc((struct mdp_journal *)old, sv->name);
		enum mdp_svc_state state;
		struct step *s;
		if (was && was->paused) {
			/* still paused by the active profile; this one's timeout resumes it */
			struct mdp_jservice *now = journal_svc(j, sv->name);
			if (now)
				now->timeout_s = sv->timeout_s;
			continue;
		}
		if (!svc_here(tx, sv)) {
			ev_service(tx, sv->name, MDP_TXN_PAUSE, MDP_TXN_SVC_OTHER_PLATFORM);
			continue;
		}
		if ((err = svc_status(tx, sv, &state))) {
			bad = err == -EINVAL || err == -ENOTSUP ? (bad ? bad : 1) : 2;
			if (err == -ENOENT)
				break; /* the tool is missing: one error says it */
			continue;
		}
		if (state == MDP_SVC_MISSING && !sv->optional) {
			mdp_diags_add(
			    tx->d, sv->pos.file, sv->pos.line, sv->pos.col,
			    "service '%s' does not exist on this system; mark it optional "
			    "if some models lack it",
			    sv->name);
			bad = 1;
		} else if (state == MDP_SVC_MISSING) {
			ev_service(tx, sv->name, MDP_TXN_PAUSE, MDP_TXN_SVC_NOT_FOUND);
		} else if (state == MDP_SVC_STOPPED) {
			ev_service(tx, sv->name, MDP_TXN_PAUSE, MDP_TXN_SVC_NOT_RUNNING);
		} else {
			if (!(s = steps_add(st, STEP_PAUSE)) ||
			    journal_set_svc(j, sv->name, true, sv->timeout_s))
				return -ENOMEM;
			s->svc = sv->name;
			s->timeout_s = sv->timeout_s;
		}
	}
	return bad == 2 ? -EIO : bad ? -EINVAL : 0;
}

/*
 * One service's fate in a preview: what steps_pause would decide. *gone is
 * set once the service tool is missing: the others are not asked (one error).
 */
static enum mdp_txn_svc_result preview_one(struct mdp_txn *tx, const struct mdp_service *sv,
					   const struct mdp_journal *active, bool *gone)
{
	const struct mdp_jservice *was =
	    active ? journal_svc((struct mdp_journal *)active, sv->name) : NULL;
	enum mdp_svc_state state;
	int err;

	if (was && was->paused)
		return MDP_TXN_SVC_PAUSED;
	if (!svc_here(tx, sv))
		return MDP_TXN_SVC_OTHER_PLATFORM;
	if (*gone)
		return MDP_TXN_SVC_UNKNOWN;
	if ((err = svc_status(tx, sv, &state))) {
		*gone = err == -ENOENT;
		return !tx->svc || !tx->svc->ops ? MDP_TXN_SVC_MISSING : MDP_TXN_SVC_UNKNOWN;
	}
	if (state == MDP_SVC_MISSING)
		return sv->optional ? MDP_TXN_SVC_NOT_FOUND : MDP_TXN_SVC_MISSING;
	return state == MDP_SVC_STOPPED ? MDP_TXN_SVC_NOT_RUNNING : MDP_TXN_SVC_WOULD_PAUSE;
}

int mdp_txn_preview_services(struct mdp_txn *tx, const struct mdp_profile *p)
{
	struct mdp_journal active = {0};
	size_t n = tx->rep.n_services;
	struct mdp_diags quiet;
	bool loaded, gone = false;

	/* An unreadable journal is recover's business; the preview only reads. */
	mdp_diags_init(&quiet);
	loaded = !mdp_journal_load(tx->root, &active, &quiet);
	mdp_diags_free(&quiet);
	for (size_t i = 0; i < p->n_services; i++)
		ev_service(tx, p->services[i].name, MDP_TXN_PAUSE,
			   preview_one(tx, &p->services[i],
				       loaded && active.state == MDP_J_ACTIVE ? &active : NULL,
				       &gone));
	if (loaded)
		mdp_journal_free(&active);
	return tx->rep.n_services == n + p->n_services ? 0 : -ENOMEM;
}

static bool profile_lists(const struct mdp_profile *p, const char *svc)
{
	for (size_t i = 0; i < p->n_services; i++)
		if (!strcmp(p->services[i].name, svc))
			return true;
	return false;
}

/* Services the active layer paused and the new profile does not list; never the base's. */
static int steps_resume_old(const struct mdp_profile *p, const struct mdp_journal *j,
			    struct steps *st)
{
	for (size_t i = 0; i < j->n_svc; i++) {
		struct step *s;
		if (!j->svc[i].paused || j->svc[i].under || profile_lists(p, j->svc[i].name))
			continue;
		if (!(s = steps_add(st, STEP_RESUME)))
			return -ENOMEM;
		s->svc = j->svc[i].name;
		s->timeout_s = j->svc[i].timeout_s;
	}
	return 0;
}

static int step_do(struct mdp_txn *tx, struct step *s, struct mdp_journal *j)
{
	struct mdp_value prev;
	int err;

	s->started = true;
	if (s->kind == STEP_PAUSE)
		return svc_pause_journaled(tx, j, s->svc, s->timeout_s);
	if (s->kind == STEP_RESUME) {
		err = svc_resume(tx, s->svc, s->timeout_s);
		s->held = err == -EBUSY;
		return s->held ? 0 : err;
	}
	if ((err = write_verify(tx, s->t, s->dev, &s->want)))
		return err;
	ev_change(tx, s->t, s->dev, raw_to_value(s->t, s->prev, &prev) ? NULL : &prev, &s->want);
	return 0;
}

static void left_tunable(struct mdp_txn *tx, enum mdp_tunable t, const char *dev, const char *raw)
{
	struct mdp_txn_left *l = ev_left(tx);
	char path[128], val[48];

	if (!l)
		return;
	l->t = t;
	snprintf(l->dev, sizeof(l->dev), "%s", dev);
	l->have_value = !raw_to_value(t, raw, &l->value);
	/* Only a value the registry accepts becomes a command to run as root. */
	if (l->have_value && !mdp_tunable_path(t, dev, path, sizeof(path)) &&
	    !mdp_tunable_format(t, &l->value, val, sizeof(val))) {
		val[strcspn(val, "\n")] = '\0';
		snprintf(l->fix, sizeof(l->fix), "echo %s > %s", val, path);
	}
}

static void left_service(struct mdp_txn *tx, const char *svc, bool paused)
{
	struct mdp_txn_left *l = ev_left(tx);

	if (!l)
		return;
	l->is_service = true;
	l->paused = paused;
	snprintf(l->svc, sizeof(l->svc), "%s", svc);
	/* A name this backend cannot express gets no command: cmd/ says so in words. */
	if (paused && tx->svc && tx->svc->ops &&
	    mdp_svc_resume_command(tx->svc, svc, l->fix, sizeof(l->fix)))
		l->fix[0] = '\0';
}

/* Invariant 4: undo started steps in reverse. Returns the number left undone. */
static size_t rollback(struct mdp_txn *tx, struct steps *st)
{
	size_t left = 0;

	for (size_t i = st->n; i-- > 0;) {
		struct step *s = &st->v[i];
		int err;
		if (!s->started)
			continue;
		if (s->kind == STEP_PAUSE)
			/* -EBUSY: DSM holds it for its own reason; ours is released. */
			err = (err = svc_resume(tx, s->svc, s->timeout_s)) == -EBUSY ? 0 : err;
		else if (s->kind == STEP_RESUME)
			err = svc_pause(tx, s->svc, s->timeout_s);
		else if (dev_gone(tx, s->dev))
			continue;
		else
			err = restore_raw(tx, s->t, s->dev, s->prev, false);
		if (!err)
			continue;
		left++;
		if (s->kind == STEP_TUNABLE)
			left_tunable(tx, s->t, s->dev, s->prev);
		else
			left_service(tx, s->svc, s->kind == STEP_PAUSE);
	}
	return left;
}

/* ---- apply ------------------------------------------------------------------- */

static int load_current(struct mdp_txn *tx, struct mdp_journal *old)
{
	int err = mdp_journal_load(tx->root, old, tx->d);

	if (err == -ENOENT) {
		memset(old, 0, sizeof(*old));
		return 0;
	}
	return err;
}

/*
 * What the layers ask for: the new profile's values, and under an overlay
 * the base's for every target the overlay does not set. Drift compares the
 * live system with these. A value a floor or ceiling kept was not asked
 * for: it may change without that being drift.
 */
static int journal_set_plan(struct mdp_journal *j, const struct mdp_plan *pl)
{
	size_t n = pl->n + (j->has_under ? j->n_uset : 0);

	if (n && !(j->set = calloc(n, sizeof(*j->set))))
		return -ENOMEM;
	j->n_set = 0;
	for (size_t i = 0; i < pl->n; i++) {
		struct mdp_jset *st = &j->set[j->n_set];
		if (pl->v[i].kept)
			continue;
		st->t = pl->v[i].t;
		snprintf(st->dev, sizeof(st->dev), "%s", pl->v[i].dev);
		st->want = pl->v[i].want;
		j->n_set++;
	}
	for (size_t i = 0; j->has_under && i < j->n_uset; i++)
		if (!plan_has(pl, j->uset[i].t, j->uset[i].dev))
			j->set[j->n_set++] = j->uset[i];
	return 0;
}

/*
 * Which layer p becomes (mdprofile(8), LAYERS): with nothing active, the
 * base; over an active base, an overlay, the base kept under it; over an
 * overlay, the new overlay, the same base under it. The top layer's own
 * profile applied again is that layer applied again (drift put right), and
 * tx->as_base replaces the base (refused while an overlay is on it).
 */
static int apply_layer(struct mdp_txn *tx, const struct mdp_profile *p,
		       const struct mdp_journal *old, struct mdp_journal *j)
{
	bool again = old->state == MDP_J_ACTIVE && !strcmp(old->profile, p->name);
	int err = 0;

	if (old->state != MDP_J_ACTIVE || j->has_under || again)
		goto who;
	if (tx->as_base)
		goto who;
	/* base --> overlay over it: the base's name, values and services wait under */
	j->has_under = true;
	snprintf(j->under.profile, sizeof(j->under.profile), "%s", old->profile);
	snprintf(j->under.path, sizeof(j->under.path), "%s", old->profile_path);
	j->under.by = old->by;
	j->under.since = old->since;
	free(j->uset);
	j->uset = dup_array(old->set, old->n_set, sizeof(*old->set), &err);
	j->n_uset = err ? 0 : old->n_set;
	for (size_t i = 0; i < j->n_svc; i++)
		j->svc[i].under = j->svc[i].paused;
	if (err)
		return err;
who:
	if (tx->as_base && j->has_under) {
		mdp_diags_add(tx->d, NULL, 0, 0,
			      "profile %s is an overlay on the base %s: revert it first, or "
			      "'mdprofile revert --all'",
			      old->profile, old->under.profile);
		return -EBUSY;
	}
	/* A watcher never takes over a layer another origin applied (its revert would remove
	 * that layer, the base with it): the same profile again puts drift right and keeps
	 * the layer's own origin and since. */
	if (again && old->by != tx->origin && mdp_origin_watched(tx->origin)) {
		j->by = old->by;
		j->since = old->since;
		return 0;
	}
	j->by = tx->origin;
	j->since = again && old->by == tx->origin && old->since ? old->since : (int64_t)time(NULL);
	return 0;
}

/*
 * The operations running as this layer is applied and md's speed of each: kept from
 * before when the same layer is applied again (drift put right), as its since is.
 */
static int journal_set_speeds(struct mdp_journal *j, const struct mdp_journal *old,
			      const struct mdp_plan *pl)
{
	int err = 0;

	if (old->state == MDP_J_ACTIVE && !strcmp(old->profile, j->profile) &&
	    j->since == old->since)
		return 0;
	free(j->speed);
	j->speed = dup_array(pl->ops, pl->n_ops, sizeof(*pl->ops), &err);
	j->n_speed = err ? 0 : pl->n_ops;
	return err;
}

/* Build the new journal and every step before anything changes. */
static int apply_prepare(struct mdp_txn *tx, const struct mdp_profile *p, const struct mdp_plan *pl,
			 const struct mdp_journal *old, struct mdp_journal *j, struct steps *st)
{
	int err;

	if ((err = journal_copy(old, j)))
		return err;
	j->state = MDP_J_APPLYING;
	/* Without it a later recover could take this journal for a stale one and drop it. */
	if ((err = read_boot_id(tx->root, j->boot_id, sizeof(j->boot_id)))) {
		mdp_diags_add(tx->d, NULL, 0, 0,
			      "cannot read the boot id (/proc/sys/kernel/random/boot_id): %s; "
			      "refusing to start a transaction",
			      strerror(-err));
		return err;
	}
	if ((err = apply_layer(tx, p, old, j)))
		return err;
	snprintf(j->profile, sizeof(j->profile), "%s", p->name);
	snprintf(j->profile_path, sizeof(j->profile_path), "%s", p->path ? p->path : "");
	if ((err = journal_set_speeds(j, old, pl)) || (err = journal_set_plan(j, pl)) ||
	    (err = steps_restore_old(tx, j, pl, st)) || (err = steps_plan(pl, j, st)) ||
	    (err = steps_pause(tx, p, old, j, st)) || (err = steps_resume_old(p, j, st)))
		return err;
	return 0;
}

/* After a rollback: the journal goes back to what it was (or away). */
static enum mdp_txn_result apply_unwind(struct mdp_txn *tx, const struct mdp_journal *old,
					struct steps *st, size_t n_changes, size_t n_services)
{
	/* applying --> the previous state: none or active (recover ran first) */
	assert_jstate(old->state == MDP_J_NONE || old->state == MDP_J_ACTIVE);
	ev_forget_since(tx, n_changes, n_services);
	if (rollback(tx, st))
		return MDP_TXN_PARTIAL; /* journal stays "applying": recover can finish */
	if (old->state == MDP_J_ACTIVE ? journal_store(tx, old) : journal_remove(tx))
		return MDP_TXN_PARTIAL;
	return MDP_TXN_FAILED;
}

/* A signal asked the apply to stop: the step that ran has finished; roll back. */
static bool stopped(struct mdp_txn *tx)
{
	int sig = tx->stop_requested ? tx->stop_requested() : 0;

	if (sig)
		mdp_diags_add(tx->d, NULL, 0, 0, "interrupted by %s: rolling back",
			      sig == SIGINT   ? "SIGINT"
			      : sig == SIGHUP ? "SIGHUP"
					      : "SIGTERM");
	return sig != 0;
}

static int apply_commit(struct mdp_txn *tx, struct mdp_journal *j, const struct steps *st)
{
	assert_jstate(j->state == MDP_J_APPLYING); /* applying --> active */
	for (size_t i = 0; i < st->n; i++)
		if (st->v[i].kind == STEP_RESUME)
			journal_set_svc(j, st->v[i].svc, false, 0);
	for (size_t i = 0; i < j->n_svc; i++)
		j->svc[i].settled = true;
	for (size_t i = 0; i < st->n; i++)
		if (st->v[i].kind == STEP_PAUSE)
			ev_service(tx, st->v[i].svc, MDP_TXN_PAUSE, MDP_TXN_SVC_DONE);
		else if (st->v[i].kind == STEP_RESUME)
			ev_service(tx, st->v[i].svc, MDP_TXN_RESUME,
				   st->v[i].held ? MDP_TXN_SVC_HELD : MDP_TXN_SVC_DONE);
	j->state = MDP_J_ACTIVE;
	return journal_store(tx, j);
}

struct mdp_txn_rc mdp_txn_apply(struct mdp_txn *tx, const struct mdp_profile *p,
				const struct mdp_plan *pl)
{
	struct mdp_journal old, j = {0};
	struct steps st = {0};
	size_t n_changes = tx->rep.n_changes, n_services;
	enum mdp_txn_result rc = MDP_TXN_OK;
	int err;

	snprintf(tx->rep.profile, sizeof(tx->rep.profile), "%s", p->name);
	if ((err = load_current(tx, &old)))
		return txn_err(err);
	if ((err = apply_prepare(tx, p, pl, &old, &j, &st))) {
		if (err == -EIO) { /* the system failed before anything changed */
			rc = MDP_TXN_FAILED;
			err = 0;
		}
		goto out;
	}
	n_services = tx->rep.n_services; /* skipped services stay reported */
	if (!st.n && old.state == MDP_J_ACTIVE && !strcmp(old.profile, p->name) && old.by == j.by)
		goto out; /* already in this profile's state: nothing to journal */
	if (!st.n && old.state != MDP_J_ACTIVE)
		goto out; /* in sync without mdprofile having changed anything */
	/* Invariant 1: durable before the first change. (none|active --> applying) */
	assert_jstate(j.state == MDP_J_APPLYING &&
		      (old.state == MDP_J_NONE || old.state == MDP_J_ACTIVE));
	if ((err = journal_store(tx, &j))) {
		/* A failed dir fsync may follow a done rename: put the old journal back. */
		if (old.state == MDP_J_ACTIVE)
			journal_store(tx, &old);
		else
			journal_remove(tx);
		rc = MDP_TXN_FAILED; /* nothing changed; a leftover journal only restores */
		err = 0;
		goto out;
	}
	for (size_t i = 0; i < st.n; i++) {
		if (stopped(tx) || step_do(tx, &st.v[i], &j)) {
			rc = apply_unwind(tx, &old, &st, n_changes, n_services);
			goto out;
		}
	}
	if (stopped(tx) || apply_commit(tx, &j, &st))
		rc = apply_unwind(tx, &old, &st, n_changes, n_services);
out:
	note_plain_verbs(tx);
	free(st.v);
	mdp_journal_free(&j);
	mdp_journal_free(&old);
	return err ? txn_err(err) : txn_res(rc);
}

/* ---- revert and recover ------------------------------------------------------ */

/* Resume what the layers being removed paused (all, or only the overlay's). */
static size_t resume_paused(struct mdp_txn *tx, struct mdp_journal *j, bool keep_under)
{
	size_t left = 0;
	int err;

	for (size_t i = j->n_svc; i-- > 0;) {
		if (!j->svc[i].paused || (keep_under && j->svc[i].under))
			continue;
		/*
		 * Journaled before pausing: after a crash it may never have been
		 * paused, or its stop may still be under way in the tool that
		 * outlived us. Give an unsettled pause time to finish first.
		 */
		settle(tx, &j->svc[i]);
		if (svc_running(tx, j->svc[i].name, j->svc[i].timeout_s)) {
			j->svc[i].paused = false;
			ev_service(tx, j->svc[i].name, MDP_TXN_RESUME, MDP_TXN_SVC_RUNNING);
			continue;
		}
		if ((err = svc_resume(tx, j->svc[i].name, j->svc[i].timeout_s)) && err != -EBUSY) {
			left_service(tx, j->svc[i].name, true);
			left++;
			continue;
		}
		j->svc[i].paused = false;
		ev_service(tx, j->svc[i].name, MDP_TXN_RESUME,
			   err ? MDP_TXN_SVC_HELD : MDP_TXN_SVC_DONE);
	}
	return left;
}

/*
 * Put every target back to its floor (floor_value: the base's value under
 * an overlay when keep_under, else the baseline) and resume what the
 * removed layers paused. Returns the number left undone.
 */
static size_t restore_targets(struct mdp_txn *tx, struct mdp_journal *j, bool keep_under)
{
	size_t left = 0;

	for (size_t i = j->n_base; i-- > 0;) {
		const struct mdp_jtarget *b = &j->base[i];
		struct mdp_value want;
		if (dev_gone(tx, b->dev))
			continue;
		if ((keep_under ? floor_value(j, b, &want) : raw_to_value(b->t, b->raw, &want)) ||
		    restore_value(tx, b->t, b->dev, &want, true)) {
			left_tunable(tx, b->t, b->dev, b->raw);
			left++;
		}
	}
	left += resume_paused(tx, j, keep_under);
	note_plain_verbs(tx);
	return left;
}

/* Put every baseline back, resume what we paused, drop the journal. */
static enum mdp_txn_result restore_baseline(struct mdp_txn *tx, struct mdp_journal *j)
{
	/* active|applying|reverting --> reverting; a pause under way is a paused service */
	assert_jstate(j->state != MDP_J_NONE);
	for (size_t i = 0; i < j->n_svc; i++)
		assert_jstate(j->svc[i].settled || j->svc[i].paused);

	/* Every layer goes: a crash from here on finishes the same way. */
	j->state = MDP_J_REVERTING;
	j->has_under = false;
	memset(&j->under, 0, sizeof(j->under));
	j->n_uset = 0;
	for (size_t i = 0; i < j->n_svc; i++)
		j->svc[i].under = false;
	if (journal_store(tx, j))
		return MDP_TXN_FAILED;
	if (restore_targets(tx, j, false)) {
		journal_store(tx, j); /* keep what is left for a later revert/recover */
		return MDP_TXN_PARTIAL;
	}
	return journal_remove(tx) ? MDP_TXN_PARTIAL : MDP_TXN_OK;
}

/*
 * Remove the overlay: the base's values and services back, the base the
 * only layer again. Journaled "reverting" with the base still under, so a
 * crash anywhere in it ends the same way at the next recover.
 */
static enum mdp_txn_result restore_under(struct mdp_txn *tx, struct mdp_journal *j)
{
	assert_jstate(j->state != MDP_J_NONE && j->has_under);
	j->state = MDP_J_REVERTING;
	if (journal_store(tx, j))
		return MDP_TXN_FAILED;
	if (restore_targets(tx, j, true)) {
		journal_store(tx, j);
		return MDP_TXN_PARTIAL;
	}
	/* reverting (overlay) --> active (the base alone) */
	snprintf(j->profile, sizeof(j->profile), "%s", j->under.profile);
	snprintf(j->profile_path, sizeof(j->profile_path), "%s", j->under.path);
	j->by = j->under.by;
	j->since = j->under.since;
	free(j->set);
	j->set = j->uset;
	j->n_set = j->n_uset;
	free(j->speed); /* the overlay's; the base's speeds were not kept */
	j->speed = NULL;
	j->n_speed = 0;
	j->uset = NULL;
	j->n_uset = 0;
	j->has_under = false;
	memset(&j->under, 0, sizeof(j->under));
	for (size_t i = 0; i < j->n_svc; i++)
		j->svc[i].under = false;
	j->state = MDP_J_ACTIVE;
	return journal_store(tx, j) ? MDP_TXN_PARTIAL : MDP_TXN_OK;
}

static void ev_back_to_base(struct mdp_txn *tx, const struct mdp_journal *j)
{
	ev_note(tx, MDP_TXN_NOTE_BACK_TO_BASE, j->under.profile);
}

struct mdp_txn_rc mdp_txn_revert(struct mdp_txn *tx, bool all)
{
	struct mdp_journal j;
	struct mdp_txn_rc rc;
	bool did;
	int err;

	if ((rc = mdp_txn_recover(tx, &did)).res != MDP_TXN_OK)
		return rc;
	if ((err = mdp_journal_load(tx->root, &j, tx->d)) == -ENOENT) {
		if (!did)
			ev_note(tx, MDP_TXN_NOTE_NOTHING_ACTIVE, NULL);
		return txn_res(MDP_TXN_OK);
	}
	if (err)
		return txn_err(err);
	ev_note(tx, MDP_TXN_NOTE_REVERTING, j.profile);
	snprintf(tx->rep.profile, sizeof(tx->rep.profile), "%s", j.profile);
	if (j.has_under && !all) {
		ev_back_to_base(tx, &j);
		rc = txn_res(restore_under(tx, &j));
	} else {
		if (j.has_under)
			ev_note(tx, MDP_TXN_NOTE_REVERTING, j.under.profile);
		rc = txn_res(restore_baseline(tx, &j));
	}
	mdp_journal_free(&j);
	return rc;
}

/*
 * A layer a watcher (auto, apply --until-idle) applied whose watcher no
 * longer runs: its lock is free. A watcher asking (it holds that lock) sees
 * it held; a lock that cannot be probed is taken as held: never undo on doubt.
 */
static bool watcher_gone(struct mdp_txn *tx, const struct mdp_journal *j)
{
	return mdp_origin_watched(j->by) && mdp_watcher_probe(tx->root) == 0;
}

int mdp_txn_reassert(struct mdp_txn *tx, enum mdp_tunable t, const char *dev)
{
	struct mdp_journal j;
	const struct mdp_jset *w;
	char cur[MDP_RAW_MAX];
	struct mdp_value now;
	int err;

	if ((err = mdp_journal_load(tx->root, &j, tx->d)))
		return err;
	if (j.state != MDP_J_ACTIVE || !(w = jset_find(j.set, j.n_set, t, dev)))
		err = -ENOENT;
	else if (dev_gone(tx, dev))
		err = -ENODEV;
	else if ((err = read_target(tx->root, t, dev, cur, sizeof(cur), &now)))
		;
	else if (!journal_base(&j, t, dev)) {
		/*
		 * In sync at apply, so never changed and never journaled: what
		 * rewrote it is now its baseline, durable before it is overwritten
		 * (invariant 1).
		 */
		if (!(err = journal_add_base(&j, t, dev, cur)))
			err = journal_store(tx, &j);
	}
	if (!err)
		err = restore_value(tx, t, dev, &w->want, true);
	mdp_journal_free(&j);
	return err;
}

/* (t, dev)'s entry in what the active layers set, added when it has none. */
static struct mdp_jset *jset_take(struct mdp_journal *j, enum mdp_tunable t, const char *dev)
{
	struct mdp_jset *v = (struct mdp_jset *)jset_find(j->set, j->n_set, t, dev);

	if (v || !(v = mdp_push(&j->set, &j->n_set, sizeof(*v))))
		return v;
	v->t = t;
	snprintf(v->dev, sizeof(v->dev), "%s", dev);
	return v;
}

int mdp_txn_steer(struct mdp_txn *tx, enum mdp_tunable t, const char *dev,
		  const struct mdp_value *want)
{
	struct mdp_journal j;
	struct mdp_jset *w = NULL;
	char cur[MDP_RAW_MAX];
	struct mdp_value now;
	int err;

	if ((err = mdp_journal_load(tx->root, &j, tx->d)))
		return err;
	if (j.state != MDP_J_ACTIVE)
		err = -ENOENT;
	else if (dev_gone(tx, dev))
		err = -ENODEV;
	else if (!(err = read_target(tx->root, t, dev, cur, sizeof(cur), &now)) &&
		 !(err = journal_add_base(&j, t, dev, cur)))
		err = (w = jset_take(&j, t, dev)) ? 0 : -ENOMEM;
	if (!err) {
		w->want = *want;
		err = journal_store(tx, &j);
	}
	if (!err)
		err = restore_value(tx, t, dev, want, true);
	mdp_journal_free(&j);
	return err;
}

int mdp_txn_floor(const struct mdp_root *r, enum mdp_tunable t, const char *dev,
		  struct mdp_value *v)
{
	struct mdp_journal j;
	struct mdp_diags d;
	const struct mdp_jtarget *b;
	int err;

	mdp_diags_init(&d);
	err = mdp_journal_load(r, &j, &d);
	mdp_diags_free(&d);
	if (err)
		return err;
	if (!(b = journal_base(&j, t, dev)))
		err = -ENOENT;
	else if (floor_value(&j, b, v))
		err = -EBADMSG;
	mdp_journal_free(&j);
	return err;
}

static enum mdp_txn_result recover_stale(struct mdp_txn *tx, const struct mdp_journal *j)
{
	ev_note(tx, MDP_TXN_NOTE_STALE, j->profile);
	for (size_t i = 0; i < j->n_svc; i++)
		if (j->svc[i].paused)
			ev_service(tx, j->svc[i].name, MDP_TXN_RESUME, MDP_TXN_SVC_REBOOTED);
	return journal_remove(tx) ? MDP_TXN_FAILED : MDP_TXN_OK;
}

struct mdp_txn_rc mdp_txn_recover(struct mdp_txn *tx, bool *did)
{
	struct mdp_journal j;
	enum mdp_txn_result rc = MDP_TXN_OK;
	char boot[40];
	int err;

	*did = false;
	/* What a killed watcher said it was doing is no longer true. */
	if (mdp_watcher_probe(tx->root) == 0)
		(void)mdp_root_unlink(tx->root, MDP_WATCHER_STATE);
	if ((err = mdp_journal_load(tx->root, &j, tx->d)) == -ENOENT)
		return txn_res(MDP_TXN_OK);
	if (err)
		return txn_err(err);
	snprintf(tx->rep.profile, sizeof(tx->rep.profile), "%s", j.profile);
	/* Stale only when both boot ids are known and differ: never drop a journal on doubt. */
	if (!read_boot_id(tx->root, boot, sizeof(boot)) && j.boot_id[0] &&
	    strcmp(j.boot_id, boot)) {
		*did = true;
		rc = recover_stale(tx, &j);
	} else if (j.state != MDP_J_ACTIVE || watcher_gone(tx, &j) ||
		   (j.by == MDP_BY_COMPARE && tx->origin != MDP_BY_COMPARE) ||
		   (j.by == MDP_BY_PROBE && tx->origin != MDP_BY_PROBE)) {
		*did = true;
		ev_note(tx,
			j.state == MDP_J_REVERTING ? MDP_TXN_NOTE_INTERRUPTED_REVERT
			: j.state != MDP_J_ACTIVE  ? MDP_TXN_NOTE_INTERRUPTED_APPLY
			: j.by == MDP_BY_COMPARE   ? MDP_TXN_NOTE_COMPARE_GONE
			: j.by == MDP_BY_PROBE     ? MDP_TXN_NOTE_PROBE_GONE
						   : MDP_TXN_NOTE_WATCH_GONE,
			j.profile);
		if (tx->rep.n_notes &&
		    tx->rep.notes[tx->rep.n_notes - 1].kind == MDP_TXN_NOTE_WATCH_GONE)
			tx->rep.notes[tx->rep.n_notes - 1].by = j.by;
		/* An overlay interrupted or left by its watcher: back to the base under it. */
		if (j.has_under) {
			ev_back_to_base(tx, &j);
			rc = restore_under(tx, &j);
		} else
			rc = restore_baseline(tx, &j);
	}
	mdp_journal_free(&j);
	return txn_res(rc);
}

static bool load_quiet(const struct mdp_root *r, struct mdp_journal *j)
{
	struct mdp_diags d;
	bool ok;

	mdp_diags_init(&d);
	ok = mdp_journal_load(r, j, &d) == 0;
	mdp_diags_free(&d);
	return ok;
}

bool mdp_txn_layer_is(const struct mdp_root *r, enum mdp_origin by, int64_t since,
		      const char *profile)
{
	struct mdp_journal j;
	bool mine;

	if (!since || !load_quiet(r, &j))
		return false;
	mine = j.state == MDP_J_ACTIVE && j.by == by && j.since == since &&
	       !strcmp(j.profile, profile);
	mdp_journal_free(&j);
	return mine;
}

bool mdp_txn_layer_blocks(const struct mdp_root *r, enum mdp_origin by, const char *profile,
			  char *why, size_t len)
{
	struct mdp_journal j;
	char nm[512];
	bool busy, same;

	if (!load_quiet(r, &j))
		return false;
	same = j.state == MDP_J_ACTIVE && j.by != by && !strcmp(j.profile, profile);
	busy = same || (j.state == MDP_J_ACTIVE && j.has_under && !mdp_origin_watched(j.by));
	if (busy)
		snprintf(why, len, "%s %s (%s) is on%s", j.has_under ? "overlay" : "profile",
			 mdp_text_safe(nm, sizeof(nm), j.profile), mdp_origin_name(j.by),
			 same ? " already" : "");
	mdp_journal_free(&j);
	return busy;
}

bool mdp_txn_needs_recover(const struct mdp_root *r)
{
	struct mdp_diags d;
	struct mdp_journal j;
	char boot[40];
	bool needs;
	int err;

	mdp_diags_init(&d);
	if ((err = mdp_journal_load(r, &j, &d))) {
		needs = err == -EBADMSG; /* unreadable journal: someone must look */
		mdp_diags_free(&d);
		return needs;
	}
	needs = j.state != MDP_J_ACTIVE ||
		(!read_boot_id(r, boot, sizeof(boot)) && j.boot_id[0] && strcmp(j.boot_id, boot));
	mdp_journal_free(&j);
	mdp_diags_free(&d);
	return needs;
}
