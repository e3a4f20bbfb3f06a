/*
 * txn: apply, revert and recover md tunables and services as one
 * transaction, journaled, verified and undone on failure. This file is
 * the apply engine; txn_int.h says what the module's other files hold.
 *
 * Invariants, and the function that keeps each:
 *
 *  1. Before any system value changes, the journal holds its prior value
 *     and is durable: txn_apply() builds the whole journal first
 *     (apply_prepare(): state applying, every baseline the plan touches,
 *     every service it will pause) and stores it with txn_journal_store()
 *     (txn_journal.c: temp, fsync, rename, fsync dir) before step_do()
 *     makes the first change; restore_baseline() (txn_revert.c) stores
 *     state reverting before it writes.
 *  2. The baseline is what the system had before mdprofile first changed
 *     it this boot: txn_journal_add_base() only adds a target that is not
 *     there yet, so a profile switch keeps the first-seen value, and
 *     restore_baseline() writes exactly those values back.
 *  3. Every write is read back: txn_write_verify() (txn_target.c) reads
 *     the attribute after writing and fails when the kernel kept something
 *     else.
 *  4. A failure at step k undoes steps k..1 in reverse: rollback(), called
 *     by apply_unwind(). Step k is included because a clamped write did
 *     change the value.
 *  5. A crash anywhere leaves a journal from which mdp_txn_recover()
 *     restores the baseline; a journal from another boot_id is stale and
 *     only cleared by recover_stale() (txn_revert.c; the reboot reset the
 *     kernel, and the services came back).
 *  6. Only services that mdprofile paused are resumed: steps_pause() plans
 *     pauses only for services found running, only those are journaled as
 *     paused, and restore_baseline() skips any it finds running again.
 *  7. One mdprofile changes the system at a time: the command layer holds
 *     mdp_lock_take() around every mutating entry point.
 *  8. mdprofile waits for and signals only a process it started: a pause's
 *     tool is journaled with its process group and who led it
 *     (txn_svc.c's pause_started(), mdp_exec_group_ident()), and
 *     txn_settle() checks that identity (group_state()) before each wait
 *     and right before the kill. The journal and its directory are trusted
 *     only when nobody but root or the caller can have written them
 *     (journal.c's state_check()).
 *
 * States of the journal:
 *
 *   (none) --txn_journal_store in txn_apply--> applying --apply_commit--> active
 *   applying --apply_unwind, rollback ok--> previous state (none or active)
 *   active --txn_apply (profile switch)--> applying
 *   active|applying|reverting --restore_baseline (revert/recover)--> reverting --> (none)
 *
 * States of a service within the journal ("svc" lines):
 *
 *   (absent) --steps_pause/txn_journal_set_svc--> paused (its tool not yet run)
 *   paused --pause_started (the tool's group and leader journaled)--> pausing
 *   pausing --apply_commit--> paused
 *   paused|pausing --restore_baseline: txn_settle(), txn_svc_resume()--> resumed / dropped
 *   paused --apply_commit, resumed by a profile switch--> resumed
 */
#include "txn_int.h"
#include "mdp_base.h"

#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

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
		if (txn_read_target(tx->root, b->t, b->dev, cur, sizeof(cur), &now))
			continue;
		if (txn_floor_value(j, b, &want))
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
		if (txn_journal_add_base(j, c->t, c->dev, c->cur.raw))
			return -ENOMEM;
	}
	return 0;
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
		const struct mdp_jservice *was =
		    txn_journal_svc((struct mdp_journal *)old, sv->name);
		enum mdp_svc_state state;
		struct step *s;
		if (was && was->paused) {
			/* still paused by the active profile; this one's timeout resumes it */
			struct mdp_jservice *now = txn_journal_svc(j, sv->name);
			if (now)
				now->timeout_s = sv->timeout_s;
			continue;
		}
		if (!txn_svc_here(tx, sv)) {
			txn_ev_service(tx, sv->name, MDP_TXN_PAUSE, MDP_TXN_SVC_OTHER_PLATFORM);
			continue;
		}
		if ((err = txn_svc_status(tx, sv, &state))) {
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
			txn_ev_service(tx, sv->name, MDP_TXN_PAUSE, MDP_TXN_SVC_NOT_FOUND);
		} else if (state == MDP_SVC_STOPPED) {
			txn_ev_service(tx, sv->name, MDP_TXN_PAUSE, MDP_TXN_SVC_NOT_RUNNING);
		} else {
			if (!(s = steps_add(st, STEP_PAUSE)) ||
			    txn_journal_set_svc(j, sv->name, true, sv->timeout_s))
				return -ENOMEM;
			s->svc = sv->name;
			s->timeout_s = sv->timeout_s;
		}
	}
	return bad == 2 ? -EIO : bad ? -EINVAL : 0;
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
		return txn_svc_pause_journaled(tx, j, s->svc, s->timeout_s);
	if (s->kind == STEP_RESUME) {
		err = txn_svc_resume(tx, s->svc, s->timeout_s);
		s->held = err == -EBUSY;
		return s->held ? 0 : err;
	}
	if ((err = txn_write_verify(tx, s->t, s->dev, &s->want)))
		return err;
	txn_ev_change(tx, s->t, s->dev, txn_raw_value(s->t, s->prev, &prev) ? NULL : &prev,
		      &s->want);
	return 0;
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
			err = (err = txn_svc_resume(tx, s->svc, s->timeout_s)) == -EBUSY ? 0 : err;
		else if (s->kind == STEP_RESUME)
			err = txn_svc_pause(tx, s->svc, s->timeout_s);
		else if (txn_dev_gone(tx, s->dev))
			continue;
		else
			err = txn_restore_raw(tx, s->t, s->dev, s->prev, false);
		if (!err)
			continue;
		left++;
		if (s->kind == STEP_TUNABLE)
			txn_left_tunable(tx, s->t, s->dev, s->prev);
		else
			txn_left_service(tx, s->svc, s->kind == STEP_PAUSE);
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
 * as_base replaces the base (refused while an overlay is on it).
 */
static int apply_layer(struct mdp_txn *tx, const struct mdp_profile *p, bool as_base,
		       const struct mdp_journal *old, struct mdp_journal *j)
{
	bool again = old->state == MDP_J_ACTIVE && !strcmp(old->profile, p->name);
	int err = 0;

	if (old->state != MDP_J_ACTIVE || j->has_under || again)
		goto who;
	if (as_base)
		goto who;
	/* base --> overlay over it: the base's name, values and services wait under */
	j->has_under = true;
	snprintf(j->under.profile, sizeof(j->under.profile), "%s", old->profile);
	snprintf(j->under.path, sizeof(j->under.path), "%s", old->profile_path);
	j->under.by = old->by;
	j->under.since = old->since;
	free(j->uset);
	j->uset = txn_dup_array(old->set, old->n_set, sizeof(*old->set), &err);
	j->n_uset = err ? 0 : old->n_set;
	for (size_t i = 0; i < j->n_svc; i++)
		j->svc[i].under = j->svc[i].paused;
	if (err)
		return err;
who:
	if (as_base && j->has_under) {
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
	j->speed = txn_dup_array(pl->ops, pl->n_ops, sizeof(*pl->ops), &err);
	j->n_speed = err ? 0 : pl->n_ops;
	return err;
}

/* Build the new journal and every step before anything changes. */
static int apply_prepare(struct mdp_txn *tx, const struct mdp_profile *p, const struct mdp_plan *pl,
			 bool as_base, const struct mdp_journal *old, struct mdp_journal *j,
			 struct steps *st)
{
	int err;

	if ((err = txn_journal_copy(old, j)))
		return err;
	j->state = MDP_J_APPLYING;
	/* Without it a later recover could take this journal for a stale one and drop it. */
	if ((err = txn_read_boot_id(tx->root, j->boot_id, sizeof(j->boot_id)))) {
		mdp_diags_add(tx->d, NULL, 0, 0,
			      "cannot read the boot id (/proc/sys/kernel/random/boot_id): %s; "
			      "refusing to start a transaction",
			      strerror(-err));
		return err;
	}
	if ((err = apply_layer(tx, p, as_base, old, j)))
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
	txn_ev_forget_since(tx, n_changes, n_services);
	if (rollback(tx, st))
		return MDP_TXN_PARTIAL; /* journal stays "applying": recover can finish */
	if (old->state == MDP_J_ACTIVE ? txn_journal_store(tx, old) : txn_journal_remove(tx))
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
			txn_journal_set_svc(j, st->v[i].svc, false, 0);
	for (size_t i = 0; i < j->n_svc; i++)
		j->svc[i].settled = true;
	for (size_t i = 0; i < st->n; i++)
		if (st->v[i].kind == STEP_PAUSE)
			txn_ev_service(tx, st->v[i].svc, MDP_TXN_PAUSE, MDP_TXN_SVC_DONE);
		else if (st->v[i].kind == STEP_RESUME)
			txn_ev_service(tx, st->v[i].svc, MDP_TXN_RESUME,
				       st->v[i].held ? MDP_TXN_SVC_HELD : MDP_TXN_SVC_DONE);
	j->state = MDP_J_ACTIVE;
	return txn_journal_store(tx, j);
}

/* The top layer j says is on (none unless j is active). */
static void layer_of(const struct mdp_journal *j, struct mdp_layer *l)
{
	*l = (struct mdp_layer){0};
	if (!j || j->state != MDP_J_ACTIVE)
		return;
	*l = (struct mdp_layer){true, j->has_under, j->by, j->since};
}

struct mdp_txn_rc txn_apply(struct mdp_txn *tx, const struct mdp_profile *p,
			    const struct mdp_plan *pl, bool as_base, struct mdp_layer *layer)
{
	struct mdp_journal old, j = {0};
	struct steps st = {0};
	size_t n_changes = tx->rep.n_changes, n_services;
	enum mdp_txn_result rc = MDP_TXN_OK;
	int err;

	snprintf(tx->rep.profile, sizeof(tx->rep.profile), "%s", p->name);
	if ((err = load_current(tx, &old)))
		return txn_err(err);
	if ((err = apply_prepare(tx, p, pl, as_base, &old, &j, &st))) {
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
	if ((err = txn_journal_store(tx, &j))) {
		/* A failed dir fsync may follow a done rename: put the old journal back. */
		if (old.state == MDP_J_ACTIVE)
			txn_journal_store(tx, &old);
		else
			txn_journal_remove(tx);
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
	/* what it wrote (j committed), or found already so (old) */
	layer_of(err || rc != MDP_TXN_OK ? NULL : j.state == MDP_J_ACTIVE ? &j : &old, layer);
	txn_note_plain_verbs(tx);
	free(st.v);
	mdp_journal_free(&j);
	mdp_journal_free(&old);
	return err ? txn_err(err) : txn_res(rc);
}
