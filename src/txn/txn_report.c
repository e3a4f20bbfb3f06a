/* txn_report: what a transaction did, as data for cmd/ (txn.h), and what it left (txn_int.h). */
#include "txn_int.h"
#include "mdp_base.h"
#include "services_int.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void txn_ev_change(struct mdp_txn *tx, enum mdp_tunable t, const char *dev,
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

void txn_ev_service(struct mdp_txn *tx, const char *name, enum mdp_txn_svc_action action,
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

void txn_ev_note(struct mdp_txn *tx, enum mdp_txn_note_kind kind, const char *profile)
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
void txn_ev_forget_since(struct mdp_txn *tx, size_t n_changes, size_t n_services)
{
	struct mdp_txn_report *rep = &tx->rep;
	size_t k = n_services;

	rep->n_changes = n_changes;
	for (size_t i = n_services; i < rep->n_services; i++)
		if (rep->services[i].result != MDP_TXN_SVC_DONE)
			rep->services[k++] = rep->services[i];
	rep->n_services = k;
}

void txn_left_tunable(struct mdp_txn *tx, enum mdp_tunable t, const char *dev, const char *raw)
{
	struct mdp_txn_left *l = ev_left(tx);
	char path[128], val[48];

	if (!l)
		return;
	l->t = t;
	snprintf(l->dev, sizeof(l->dev), "%s", dev);
	l->have_value = !txn_raw_value(t, raw, &l->value);
	/* Only a value the registry accepts becomes a command to run as root. */
	if (l->have_value && !mdp_tunable_path(t, dev, path, sizeof(path)) &&
	    !mdp_tunable_format(t, &l->value, val, sizeof(val))) {
		val[strcspn(val, "\n")] = '\0';
		snprintf(l->fix, sizeof(l->fix), "echo %s > %s", val, path);
	}
}

void txn_left_service(struct mdp_txn *tx, const char *svc, bool paused)
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
