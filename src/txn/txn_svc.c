/* txn_svc: services within a transaction, and apply's preview of them (txn_int.h). */
#include "txn_int.h"

#include <stdio.h>
#include <string.h>
#include <time.h>

#include "mdp_base.h"

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

int txn_svc_pause(struct mdp_txn *tx, const char *svc, unsigned timeout_s)
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

static void pause_started(void *ctx, long pgid)
{
	struct pause_watch *w = ctx;
	struct mdp_jservice *js = txn_journal_svc(w->j, w->svc);
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
	w->err = txn_journal_store(w->tx, w->j);
}

int txn_svc_pause_journaled(struct mdp_txn *tx, struct mdp_journal *j, const char *svc,
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

bool txn_svc_running(struct mdp_txn *tx, const char *svc, unsigned timeout_s)
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
int txn_svc_resume(struct mdp_txn *tx, const char *svc, unsigned timeout_s)
{
	return svc_act(tx, svc, timeout_s, false);
}

/* Said once per transaction: resume may have undone a stop DSM made itself. */
void txn_note_plain_verbs(struct mdp_txn *tx)
{
	if (!tx->svc || !tx->svc->memo || !tx->svc->memo->plain_verbs)
		return;
	for (size_t i = 0; i < tx->rep.n_notes; i++)
		if (tx->rep.notes[i].kind == MDP_TXN_NOTE_PLAIN_VERBS)
			return;
	txn_ev_note(tx, MDP_TXN_NOTE_PLAIN_VERBS, NULL);
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
void txn_settle(struct mdp_txn *tx, const struct mdp_jservice *js)
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

/* Whether sv applies here: no only_on, or it names this backend. */
bool txn_svc_here(const struct mdp_txn *tx, const struct mdp_service *sv)
{
	const char *name = tx->svc && tx->svc->ops ? tx->svc->ops->name : NULL;

	return !sv->only_on || (sv->only_on & mdp_platform_bit(name));
}

int txn_svc_status(struct mdp_txn *tx, const struct mdp_service *sv, enum mdp_svc_state *state)
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

/* ---- the preview ------------------------------------------------------------- */

/*
 * One service's fate in a preview: what steps_pause would decide. *gone is
 * set once the service tool is missing: the others are not asked (one error).
 */
static enum mdp_txn_svc_result preview_one(struct mdp_txn *tx, const struct mdp_service *sv,
					   const struct mdp_journal *active, bool *gone)
{
	const struct mdp_jservice *was =
	    active ? txn_journal_svc((struct mdp_journal *)active, sv->name) : NULL;
	enum mdp_svc_state state;
	int err;

	if (was && was->paused)
		return MDP_TXN_SVC_PAUSED;
	if (!txn_svc_here(tx, sv))
		return MDP_TXN_SVC_OTHER_PLATFORM;
	if (*gone)
		return MDP_TXN_SVC_UNKNOWN;
	if ((err = txn_svc_status(tx, sv, &state))) {
		*gone = err == -ENOENT;
		return !tx->svc || !tx->svc->ops ? MDP_TXN_SVC_MISSING : MDP_TXN_SVC_UNKNOWN;
	}
	if (state == MDP_SVC_MISSING)
		return sv->optional ? MDP_TXN_SVC_NOT_FOUND : MDP_TXN_SVC_MISSING;
	return state == MDP_SVC_STOPPED ? MDP_TXN_SVC_NOT_RUNNING : MDP_TXN_SVC_WOULD_PAUSE;
}

int txn_preview_services(struct mdp_txn *tx, const struct mdp_profile *p)
{
	struct mdp_journal active = {0};
	size_t n = tx->rep.n_services;
	bool loaded, gone = false;

	/* An unreadable journal is recover's business; the preview only reads. */
	loaded = !mdp_journal_load(tx->root, &active, NULL);
	for (size_t i = 0; i < p->n_services; i++)
		txn_ev_service(tx, p->services[i].name, MDP_TXN_PAUSE,
			       preview_one(tx, &p->services[i],
					   loaded && active.state == MDP_J_ACTIVE ? &active : NULL,
					   &gone));
	if (loaded)
		mdp_journal_free(&active);
	return tx->rep.n_services == n + p->n_services ? 0 : -ENOMEM;
}
