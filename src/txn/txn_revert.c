/*
 * txn_revert: revert and recover (the layers removed, an interrupted
 * transaction finished), one value of the active layer put back or
 * steered, and what the journal says of the layers (txn.h).
 */
#include "txn_int.h"
#include "mdp_base.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

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
		txn_settle(tx, &j->svc[i]);
		if (txn_svc_running(tx, j->svc[i].name, j->svc[i].timeout_s)) {
			j->svc[i].paused = false;
			txn_ev_service(tx, j->svc[i].name, MDP_TXN_RESUME, MDP_TXN_SVC_RUNNING);
			continue;
		}
		if ((err = txn_svc_resume(tx, j->svc[i].name, j->svc[i].timeout_s)) &&
		    err != -EBUSY) {
			txn_left_service(tx, j->svc[i].name, true);
			left++;
			continue;
		}
		j->svc[i].paused = false;
		txn_ev_service(tx, j->svc[i].name, MDP_TXN_RESUME,
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
		if (txn_dev_gone(tx, b->dev))
			continue;
		if ((keep_under ? txn_floor_value(j, b, &want)
				: txn_raw_value(b->t, b->raw, &want)) ||
		    txn_restore_value(tx, b->t, b->dev, &want, true)) {
			txn_left_tunable(tx, b->t, b->dev, b->raw);
			left++;
		}
	}
	left += resume_paused(tx, j, keep_under);
	txn_note_plain_verbs(tx);
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
	if (txn_journal_store(tx, j))
		return MDP_TXN_FAILED;
	if (restore_targets(tx, j, false)) {
		txn_journal_store(tx, j); /* keep what is left for a later revert/recover */
		return MDP_TXN_PARTIAL;
	}
	return txn_journal_remove(tx) ? MDP_TXN_PARTIAL : MDP_TXN_OK;
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
	if (txn_journal_store(tx, j))
		return MDP_TXN_FAILED;
	if (restore_targets(tx, j, true)) {
		txn_journal_store(tx, j);
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
	return txn_journal_store(tx, j) ? MDP_TXN_PARTIAL : MDP_TXN_OK;
}

static void ev_back_to_base(struct mdp_txn *tx, const struct mdp_journal *j)
{
	txn_ev_note(tx, MDP_TXN_NOTE_BACK_TO_BASE, j->under.profile);
}

struct mdp_txn_rc mdp_txn_revert(struct mdp_txn *tx, bool all)
{
	struct mdp_journal j;
	struct mdp_txn_rc rc;
	bool did;
	int err;

	if ((rc = mdp_txn_recover(tx, &did)).res != MDP_TXN_OK)
		return rc;
	/* No pause outlives a revert, but the watcher's own: it lets its layer go between
	 * operations and keeps its checks paused while their reason holds. */
	if (!mdp_origin_watched(tx->origin) && txn_pauses_release(tx))
		did = true;
	if ((err = mdp_journal_load(tx->root, &j, tx->d)) == -ENOENT) {
		if (!did)
			txn_ev_note(tx, MDP_TXN_NOTE_NOTHING_ACTIVE, NULL);
		return txn_res(MDP_TXN_OK);
	}
	if (err)
		return txn_err(err);
	txn_ev_note(tx, MDP_TXN_NOTE_REVERTING, j.profile);
	snprintf(tx->rep.profile, sizeof(tx->rep.profile), "%s", j.profile);
	if (j.has_under && !all) {
		ev_back_to_base(tx, &j);
		rc = txn_res(restore_under(tx, &j));
	} else {
		if (j.has_under)
			txn_ev_note(tx, MDP_TXN_NOTE_REVERTING, j.under.profile);
		rc = txn_res(restore_baseline(tx, &j));
	}
	mdp_journal_free(&j);
	return rc;
}

/* ---- one value of the active layers ------------------------------------------ */

int mdp_txn_reassert(struct mdp_txn *tx, enum mdp_tunable t, const char *dev)
{
	struct mdp_journal j;
	const struct mdp_jset *w;
	char cur[MDP_RAW_MAX];
	struct mdp_value now;
	int err;

	if ((err = mdp_journal_load(tx->root, &j, tx->d)))
		return err;
	if (j.state != MDP_J_ACTIVE || !(w = txn_jset_find(j.set, j.n_set, t, dev)))
		err = -ENOENT;
	else if (txn_dev_gone(tx, dev))
		err = -ENODEV;
	else if ((err = txn_read_target(tx->root, t, dev, cur, sizeof(cur), &now)))
		;
	else if (!txn_journal_base(&j, t, dev)) {
		/*
		 * In sync at apply, so never changed and never journaled: what
		 * rewrote it is now its baseline, durable before it is overwritten
		 * (invariant 1).
		 */
		if (!(err = txn_journal_add_base(&j, t, dev, cur)))
			err = txn_journal_store(tx, &j);
	}
	if (!err)
		err = txn_restore_value(tx, t, dev, &w->want, true);
	mdp_journal_free(&j);
	return err;
}

/* (t, dev)'s entry in what the active layers set, added when it has none. */
static struct mdp_jset *jset_take(struct mdp_journal *j, enum mdp_tunable t, const char *dev)
{
	struct mdp_jset *v = (struct mdp_jset *)txn_jset_find(j->set, j->n_set, t, dev);

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
	else if (txn_dev_gone(tx, dev))
		err = -ENODEV;
	else if (!(err = txn_read_target(tx->root, t, dev, cur, sizeof(cur), &now)) &&
		 !(err = txn_journal_add_base(&j, t, dev, cur)))
		err = (w = jset_take(&j, t, dev)) ? 0 : -ENOMEM;
	if (!err) {
		w->want = *want;
		err = txn_journal_store(tx, &j);
	}
	if (!err)
		err = txn_restore_value(tx, t, dev, want, true);
	mdp_journal_free(&j);
	return err;
}

int mdp_txn_floor(const struct mdp_root *r, enum mdp_tunable t, const char *dev,
		  struct mdp_value *v)
{
	struct mdp_journal j;
	const struct mdp_jtarget *b;
	int err;

	if ((err = mdp_journal_load(r, &j, NULL)))
		return err;
	if (!(b = txn_journal_base(&j, t, dev)))
		err = -ENOENT;
	else if (txn_floor_value(&j, b, v))
		err = -EBADMSG;
	mdp_journal_free(&j);
	return err;
}

/* ---- recover ----------------------------------------------------------------- */

/*
 * A layer a watcher (auto, apply --until-idle) applied whose watcher no
 * longer runs: its lock is free. A watcher asking (it holds that lock) sees
 * it held; a lock that cannot be probed is taken as held: never undo on doubt.
 */
static bool watcher_gone(struct mdp_txn *tx, const struct mdp_journal *j)
{
	return mdp_origin_watched(j->by) && mdp_watcher_probe(tx->root) == 0;
}

static enum mdp_txn_result recover_stale(struct mdp_txn *tx, const struct mdp_journal *j)
{
	txn_ev_note(tx, MDP_TXN_NOTE_STALE, j->profile);
	for (size_t i = 0; i < j->n_svc; i++)
		if (j->svc[i].paused)
			txn_ev_service(tx, j->svc[i].name, MDP_TXN_RESUME, MDP_TXN_SVC_REBOOTED);
	return txn_journal_remove(tx) ? MDP_TXN_FAILED : MDP_TXN_OK;
}

/* recover, letting go of a gone watcher's pauses when release (mdp_txn_recover) */
static struct mdp_txn_rc txn_recover(struct mdp_txn *tx, bool release, bool *did)
{
	struct mdp_journal j;
	enum mdp_txn_result rc = MDP_TXN_OK;
	char boot[40];
	int err;

	*did = false;
	/* What a killed watcher said it was doing is no longer true, nor its pauses. */
	if (mdp_watcher_probe(tx->root) == 0) {
		(void)mdp_root_unlink(tx->root, MDP_WATCHER_STATE);
		*did = release && txn_pauses_release(tx);
	}
	if ((err = mdp_journal_load(tx->root, &j, tx->d)) == -ENOENT)
		return txn_res(MDP_TXN_OK);
	if (err)
		return txn_err(err);
	snprintf(tx->rep.profile, sizeof(tx->rep.profile), "%s", j.profile);
	/* Stale only when both boot ids are known and differ: never drop a journal on doubt. */
	if (!txn_read_boot_id(tx->root, boot, sizeof(boot)) && j.boot_id[0] &&
	    strcmp(j.boot_id, boot)) {
		*did = true;
		rc = recover_stale(tx, &j);
	} else if (j.state != MDP_J_ACTIVE || watcher_gone(tx, &j) ||
		   (j.by == MDP_BY_COMPARE && tx->origin != MDP_BY_COMPARE) ||
		   (j.by == MDP_BY_PROBE && tx->origin != MDP_BY_PROBE)) {
		*did = true;
		txn_ev_note(tx,
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

struct mdp_txn_rc mdp_txn_recover(struct mdp_txn *tx, bool *did)
{
	return txn_recover(tx, true, did);
}

struct mdp_txn_rc mdp_txn_recover_watcher(struct mdp_txn *tx, bool *did)
{
	return txn_recover(tx, false, did);
}

/* ---- the layers, as the journal says them ------------------------------------ */

bool mdp_txn_layer_is(const struct mdp_root *r, enum mdp_origin by, int64_t since,
		      const char *profile)
{
	struct mdp_journal j;
	bool mine;

	if (!since || mdp_journal_load(r, &j, NULL))
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

	if (mdp_journal_load(r, &j, NULL))
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
	struct mdp_journal j;
	char boot[40];
	bool needs;
	int err;

	if ((err = mdp_journal_load(r, &j, NULL)))
		return err == -EBADMSG; /* unreadable journal: someone must look */
	needs = j.state != MDP_J_ACTIVE || (!txn_read_boot_id(r, boot, sizeof(boot)) &&
					    j.boot_id[0] && strcmp(j.boot_id, boot));
	mdp_journal_free(&j);
	return needs;
}
