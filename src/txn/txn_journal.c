/* txn_journal: the journal as a transaction builds, checks and stores it (txn_int.h). */
#include "txn_int.h"
#include "mdp_base.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct mdp_jtarget *txn_journal_base(struct mdp_journal *j, enum mdp_tunable t, const char *dev)
{
	for (size_t i = 0; i < j->n_base; i++)
		if (j->base[i].t == t && !strcmp(j->base[i].dev, dev))
			return &j->base[i];
	return NULL;
}

/* Invariant 2: the first value seen this boot stays the baseline. */
int txn_journal_add_base(struct mdp_journal *j, enum mdp_tunable t, const char *dev,
			 const char *raw)
{
	struct mdp_jtarget *nv;

	if (txn_journal_base(j, t, dev))
		return 0;
	if (!(nv = mdp_push(&j->base, &j->n_base, sizeof(*nv))))
		return -ENOMEM;
	nv->t = t;
	snprintf(nv->dev, sizeof(nv->dev), "%s", dev);
	snprintf(nv->raw, sizeof(nv->raw), "%s", raw);
	return 0;
}

struct mdp_jservice *txn_journal_svc(struct mdp_journal *j, const char *name)
{
	for (size_t i = 0; i < j->n_svc; i++)
		if (!strcmp(j->svc[i].name, name))
			return &j->svc[i];
	return NULL;
}

int txn_journal_set_svc(struct mdp_journal *j, const char *name, bool paused, unsigned timeout_s)
{
	struct mdp_jservice *s = txn_journal_svc(j, name);

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

void *txn_dup_array(const void *src, size_t n, size_t size, int *err)
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
int txn_journal_copy(const struct mdp_journal *src, struct mdp_journal *dst)
{
	int err = 0;

	*dst = *src;
	dst->base = txn_dup_array(src->base, src->n_base, sizeof(*src->base), &err);
	dst->svc = txn_dup_array(src->svc, src->n_svc, sizeof(*src->svc), &err);
	dst->uset = txn_dup_array(src->uset, src->n_uset, sizeof(*src->uset), &err);
	dst->speed = txn_dup_array(src->speed, src->n_speed, sizeof(*src->speed), &err);
	dst->set = NULL;
	dst->n_set = 0;
	if (err) {
		dst->n_base = dst->n_svc = dst->n_uset = dst->n_speed = 0;
		mdp_journal_free(dst);
	}
	return err;
}

const struct mdp_jset *txn_jset_find(const struct mdp_jset *v, size_t n, enum mdp_tunable t,
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
int txn_floor_value(const struct mdp_journal *j, const struct mdp_jtarget *b, struct mdp_value *v)
{
	const struct mdp_jset *u =
	    j->has_under ? txn_jset_find(j->uset, j->n_uset, b->t, b->dev) : NULL;

	if (u) {
		*v = u->want;
		return 0;
	}
	return txn_raw_value(b->t, b->raw, v);
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

int txn_journal_store(struct mdp_txn *tx, const struct mdp_journal *j)
{
	int err;

	txn_assert_state(j);
	err = mdp_journal_store(tx->root, j);

	if (err)
		mdp_diags_add(tx->d, NULL, 0, 0, "cannot write the journal %s: %s", MDP_JOURNAL,
			      mdp_root_strerror(-err));
	return err;
}

int txn_journal_remove(struct mdp_txn *tx)
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
int txn_read_boot_id(const struct mdp_root *r, char *buf, size_t len)
{
	ssize_t n = mdp_root_read_value(r, "/proc/sys/kernel/random/boot_id", buf, len);

	if (n >= 0 && (n < 8 || strspn(buf, "0123456789abcdef-") != (size_t)n))
		n = -EINVAL;
	if (n < 0)
		buf[0] = '\0';
	return n < 0 ? (int)n : 0;
}
