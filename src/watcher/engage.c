/* engage: the watcher's state machine (engage.h). */
#include "engage.h"
#include "mdp_base.h"
#include "watcher_int.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

static const struct {
	const char *word;   /* in --on */
	const char *action; /* md's sync_action */
	unsigned bit;
} kinds[] = {
    {"resync", "resync", MDP_OP_RESYNC},    {"recovery", "recover", MDP_OP_RECOVERY},
    {"reshape", "reshape", MDP_OP_RESHAPE}, {"check", "check", MDP_OP_CHECK},
    {"repair", "repair", MDP_OP_REPAIR},
};
#define N_KINDS (sizeof(kinds) / sizeof(kinds[0]))

const char *const mdp_op_kind_words[] = {"resync", "recovery", "reshape", "check", "repair", NULL};
_Static_assert(sizeof(mdp_op_kind_words) / sizeof(mdp_op_kind_words[0]) == N_KINDS + 1,
	       "one word per kind");

int mdp_op_kinds_parse(const char *s, unsigned *out, const char **bad, size_t *bad_len)
{
	unsigned bits = 0;

	for (;;) {
		size_t n = strcspn(s, ",");
		size_t i;
		for (i = 0; i < N_KINDS; i++)
			if (strlen(kinds[i].word) == n && !strncmp(kinds[i].word, s, n))
				break;
		if (i == N_KINDS) {
			*bad = s;
			*bad_len = n;
			return -EINVAL;
		}
		bits |= kinds[i].bit;
		if (!s[n])
			break;
		s += n + 1;
	}
	*out = bits;
	return 0;
}

unsigned mdp_op_kind_of(const char *sync_action)
{
	for (size_t i = 0; i < N_KINDS; i++)
		if (!strcmp(kinds[i].action, sync_action))
			return kinds[i].bit;
	return 0;
}

const char *mdp_op_kind_name(unsigned kind)
{
	for (size_t i = 0; i < N_KINDS; i++)
		if (kinds[i].bit == kind)
			return kinds[i].word;
	return "?";
}

bool mdp_engage_busy(const struct mdp_array *a, unsigned bits)
{
	/* DELAYED behind another array on the same disks, PENDING until the first write */
	if (a->sync_queued[0] || a->no_sync_thread)
		return false;
	return (mdp_op_kind_of(a->sync_action) & bits) != 0;
}

void mdp_engage_init(struct mdp_engage *e, unsigned bits, double debounce_s, bool engaged)
{
	memset(e, 0, sizeof(*e));
	e->kinds = bits;
	e->debounce_s = e->debounce_now = debounce_s;
	e->idle_since = -1;
	e->released_at = -1;
	e->state = engaged ? MDP_ENG_ENGAGED : MDP_ENG_ARMED;
}

void mdp_engage_free(struct mdp_engage *e)
{
	free(e->re);
	e->re = NULL;
	e->n_re = 0;
}

/* Idle long enough: true once the debounce has run out. */
static bool settled_idle(struct mdp_engage *e, bool busy, double now)
{
	if (busy) {
		e->idle_since = -1;
		return false;
	}
	if (e->idle_since < 0)
		e->idle_since = now;
	return now - e->idle_since >= e->debounce_now;
}

/* An engage at now: a flap when it comes soon after the last release. */
static void count_flap(struct mdp_engage *e, double now)
{
	if (e->released_at >= 0 && now - e->released_at < MDP_FLAP_WINDOW_S) {
		if (!e->flap_counted) /* once per release: a failed apply tries again */
			e->flaps++;
	} else {
		e->flaps = 0;
	}
	e->flap_counted = true;
	e->debounce_now = e->debounce_s;
	for (unsigned i = 0; i < e->flaps && e->debounce_now < MDP_DEBOUNCE_MAX_S; i++)
		e->debounce_now *= 2;
	if (e->debounce_now > MDP_DEBOUNCE_MAX_S)
		e->debounce_now = MDP_DEBOUNCE_MAX_S;
}

double mdp_engage_debounce(const struct mdp_engage *e)
{
	return e->debounce_now;
}

enum mdp_engage_do mdp_engage_step(struct mdp_engage *e, bool busy, double now)
{
	switch (e->state) {
	case MDP_ENG_ARMED:
		e->idle_since = -1;
		if (!busy)
			return MDP_ENG_NOTHING;
		count_flap(e, now);
		return MDP_ENG_APPLY;
	case MDP_ENG_ENGAGED:
		if (!settled_idle(e, busy, now))
			return MDP_ENG_NOTHING;
		e->released_at = now;
		e->flap_counted = false;
		return MDP_ENG_RELEASE;
	case MDP_ENG_HELD:
		if (!settled_idle(e, busy, now))
			return MDP_ENG_NOTHING;
		e->state = MDP_ENG_ARMED;
		e->idle_since = -1;
		return MDP_ENG_REARM;
	}
	return MDP_ENG_NOTHING;
}

void mdp_engage_applied(struct mdp_engage *e, bool ok)
{
	if (!ok)
		return; /* armed still: the next look tries again */
	e->state = MDP_ENG_ENGAGED;
	e->idle_since = -1;
	e->n_re = 0;
}

void mdp_engage_released(struct mdp_engage *e)
{
	e->state = MDP_ENG_ARMED;
	e->idle_since = -1;
	e->n_re = 0;
}

void mdp_engage_held(struct mdp_engage *e, double now)
{
	(void)now;
	e->state = MDP_ENG_HELD;
	e->idle_since = -1;
	e->n_re = 0;
}

double mdp_engage_due(const struct mdp_engage *e, double now)
{
	double left;

	if (e->state == MDP_ENG_ARMED || e->idle_since < 0)
		return -1;
	left = e->debounce_now - (now - e->idle_since);
	return left > 0 ? left : 0;
}

int mdp_engage_reassert(struct mdp_engage *e, enum mdp_tunable t, const char *dev, unsigned *n)
{
	struct mdp_reassert *r = NULL;

	for (size_t i = 0; i < e->n_re && !r; i++)
		if (e->re[i].t == t && !strcmp(e->re[i].dev, dev))
			r = &e->re[i];
	if (!r) {
		if (!(r = mdp_push(&e->re, &e->n_re, sizeof(*r))))
			return -ENOMEM;
		r->t = t;
		strncpy(r->dev, dev, sizeof(r->dev) - 1);
	}
	if (r->given_up) {
		*n = 0;
		return 0;
	}
	if (r->n >= MDP_REASSERT_MAX) {
		r->given_up = true;
		*n = MDP_REASSERT_MAX + 1;
		return 0;
	}
	*n = ++r->n;
	return 1;
}
