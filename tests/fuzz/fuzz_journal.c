/*
 * libFuzzer target: the journal under /run/mdprofile is read back by a
 * root-run mdprofile, and whoever could write it (a --root tree's owner, a
 * misconfigured state directory) would steer revert. Parse it; when it
 * parses, check the invariants revert relies on and that formatting it
 * and parsing that again gives the same journal, and the same text.
 */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "ident.h"
#include "journal.h"
#include "txn_int.h"
#include "profile.h"
#include "services.h"
#include "services_int.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void check(const struct mdp_journal *j)
{
	if (j->state == MDP_J_NONE || j->state > MDP_J_REVERTING)
		abort();
	for (size_t i = 0; i < j->n_base; i++)
		if (j->base[i].t >= MDP_T_COUNT ||
		    (j->base[i].dev[0] && !mdp_ident_dev_ok(j->base[i].dev)))
			abort();
	/* status prints these: an md name and a lowercase word, nothing to escape */
	for (size_t i = 0; i < j->n_speed; i++)
		if (!mdp_ident_dev_ok(j->speed[i].dev) ||
		    strspn(j->speed[i].action, "abcdefghijklmnopqrstuvwxyz_") !=
			strlen(j->speed[i].action))
			abort();
	for (size_t i = 0; i < j->n_svc; i++) {
		const struct mdp_jservice *s = &j->svc[i];
		/* a name revert hands to a service tool; an identity only for a pause under way */
		if (!mdp_svc_name_ok(s->name) || (s->start && s->settled) ||
		    (!s->start) != !s->boot[0] || s->pgid < 0 ||
		    s->timeout_s > MDP_SVC_TIMEOUT_MAX_S)
			abort();
	}
}

static void same(const struct mdp_journal *a, const struct mdp_journal *b)
{
	if (a->state != b->state || a->by != b->by || a->since != b->since ||
	    a->has_under != b->has_under || a->n_uset != b->n_uset ||
	    strcmp(a->under.profile, b->under.profile) || strcmp(a->under.path, b->under.path) ||
	    a->under.by != b->under.by || a->under.since != b->under.since ||
	    strcmp(a->boot_id, b->boot_id) || strcmp(a->profile, b->profile) ||
	    strcmp(a->profile_path, b->profile_path) || a->n_base != b->n_base ||
	    a->n_svc != b->n_svc || a->n_set != b->n_set || a->n_speed != b->n_speed)
		abort();
	for (size_t i = 0; i < a->n_speed; i++)
		if (strcmp(a->speed[i].dev, b->speed[i].dev) ||
		    strcmp(a->speed[i].action, b->speed[i].action) ||
		    a->speed[i].kib_s != b->speed[i].kib_s)
			abort();
	for (size_t i = 0; i < a->n_base; i++)
		if (a->base[i].t != b->base[i].t || strcmp(a->base[i].dev, b->base[i].dev) ||
		    strcmp(a->base[i].raw, b->base[i].raw))
			abort();
	for (size_t i = 0; i < a->n_svc; i++) {
		const struct mdp_jservice *x = &a->svc[i], *y = &b->svc[i];
		if (strcmp(x->name, y->name) || x->paused != y->paused ||
		    x->settled != y->settled || x->timeout_s != y->timeout_s ||
		    (x->paused && x->under != y->under) ||
		    /* a pause's group and identity matter only while it is under way */
		    (x->paused && !x->settled &&
		     (x->pgid != y->pgid || x->start != y->start || strcmp(x->boot, y->boot))))
			abort();
	}
	for (size_t i = 0; i < a->n_uset; i++)
		if (a->uset[i].t != b->uset[i].t || strcmp(a->uset[i].dev, b->uset[i].dev) ||
		    a->uset[i].want.kind != b->uset[i].want.kind ||
		    a->uset[i].want.num != b->uset[i].want.num)
			abort();
	for (size_t i = 0; i < a->n_set; i++)
		if (a->set[i].t != b->set[i].t || strcmp(a->set[i].dev, b->set[i].dev) ||
		    a->set[i].want.kind != b->set[i].want.kind ||
		    (a->set[i].want.kind != MDP_V_SYSTEM &&
		     a->set[i].want.num != b->set[i].want.num))
			abort();
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct mdp_journal j, back, again;
	char *text, *text2;
	size_t len, len2;

	if (mdp_journal_parse((const char *)data, size, &j))
		return 0;
	check(&j);
	if (mdp_journal_format(&j, &text, &len))
		abort();
	/* What mdprofile wrote it must read back: the same journal, the same text. */
	if (mdp_journal_parse(text, len, &back))
		abort();
	same(&j, &back);
	if (mdp_journal_format(&back, &text2, &len2) || len2 != len || memcmp(text, text2, len))
		abort();
	if (mdp_journal_parse(text2, len2, &again))
		abort();
	same(&back, &again);
	mdp_journal_free(&again);
	free(text2);
	mdp_journal_free(&back);
	free(text);
	mdp_journal_free(&j);
	return 0;
}
