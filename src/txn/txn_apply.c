/*
 * txn_apply: one apply (txn.h). Every command that applies a profile (apply,
 * enable, the watcher, bench --compare, explain --probe) comes here and
 * differs only in its options: who applies, base or overlay, a lean
 * discovery, a dry run. Discovery and the plan are read first, their
 * diagnostics handed over batch by batch; then the engine (txn.c) runs the
 * transaction over the plan.
 */
#include "txn_int.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

void mdp_txn_init(struct mdp_txn *tx, const struct mdp_root *r, struct mdp_diags *d,
		  const struct mdp_svc_backend *svc, int (*stop)(void))
{
	*tx = (struct mdp_txn){.root = r, .d = d, .stop_requested = stop};
	if (!svc)
		return;
	tx->svc = svc->ops ? svc : NULL;
	/*
	 * A pause left under way by a killed mdprofile gets as long as one command;
	 * txn_svc.c extends that to an entry's own journaled timeout when it is longer.
	 */
	tx->settle_ms =
	    svc->timeout_ms > svc->pkg_timeout_ms ? svc->timeout_ms : svc->pkg_timeout_ms;
}

/* d handed to the caller, then emptied. */
static void said(const struct mdp_apply_opts *o, struct mdp_diags *d)
{
	if (o->diags && d->n)
		o->diags(o->ctx, d);
	mdp_diags_free(d);
	mdp_diags_init(d);
}

/* Why a step failed, in a batch of its own (after the step's own diagnostics). */
static void say(const struct mdp_apply_opts *o, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));
static void say(const struct mdp_apply_opts *o, const char *fmt, ...)
{
	struct mdp_diags d;
	char msg[512];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	mdp_diags_init(&d);
	(void)mdp_diags_add(&d, NULL, 0, 0, "%s", msg);
	said(o, &d);
}

/* Discovery, then the plan: 0, or the errno of the step a->step names, said. */
static int read_and_plan(const struct mdp_txn *tx, const struct mdp_profile *p,
			 const struct mdp_apply_opts *o, struct mdp_applied *a)
{
	struct mdp_diags d;
	int err;

	mdp_diags_init(&d);
	a->step = MDP_APPLY_DISCOVER;
	err = mdp_discover_some(tx->root, o->lean ? mdp_plan_discover_skip(p) : 0, &a->sys, &d);
	said(o, &d);
	if (err) {
		say(o, "cannot read the system state: %s", mdp_root_strerror(-err));
		return err;
	}
	a->step = MDP_APPLY_PLAN;
	err = mdp_plan_build(p, &a->sys, &a->plan, &d);
	said(o, &d);
	if (err && err != -EINVAL)
		say(o, "cannot plan: %s", strerror(-err));
	return err;
}

void mdp_apply(struct mdp_txn *tx, const struct mdp_profile *p, const struct mdp_apply_opts *o,
	       struct mdp_applied *a)
{
	int err;

	*a = (struct mdp_applied){0};
	if ((err = read_and_plan(tx, p, o, a))) {
		a->rc = txn_err(err);
		return;
	}
	a->step = MDP_APPLY_TXN;
	if (o->planned)
		o->planned(o->ctx, &a->sys, &a->plan);
	if (o->dry_run) {
		err = txn_preview_services(tx, p);
		a->rc = err ? txn_err(err) : txn_res(MDP_TXN_OK);
		return;
	}
	tx->origin = o->origin;
	a->rc = txn_apply(tx, p, &a->plan, o->as_base, &a->layer);
}

void mdp_applied_free(struct mdp_applied *a)
{
	mdp_plan_free(&a->plan);
	mdp_system_free(&a->sys);
}
