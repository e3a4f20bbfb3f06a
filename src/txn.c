/*
 * txn: apply, revert and recover md tunables and services as one
 * transaction, journaled, verified and undone on failure.
 *
 * Invariants (design.md section 5) and the function that keeps each:
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
 *
 * States of the journal:
 *
 *   (none) --journal_store in mdp_txn_apply--> applying --apply_commit--> active
 *   applying --apply_unwind, rollback ok--> previous state (none or active)
 *   active --mdp_txn_apply (profile switch)--> applying
 *   active|applying|reverting --restore_baseline (revert/recover)--> reverting --> (none)
 */
#include "txn.h"

#include <errno.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "services.h"

enum step_kind { STEP_TUNABLE, STEP_PAUSE, STEP_RESUME };

struct step {
	enum step_kind kind;
	enum mdp_tunable t;
	char dev[MDP_NAME_MAX];
	struct mdp_value want;
	char prev[MDP_RAW_MAX]; /* raw value before this step, for undo */
	const char *svc;
	bool started; /* the write was attempted: undo must consider it */
};

struct steps {
	struct step *v;
	size_t n;
};

/* ---- report ----------------------------------------------------------------- */

static int add_line(char ***v, size_t *n, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

static int add_line(char ***v, size_t *n, const char *fmt, ...)
{
	char **nv = realloc(*v, (*n + 1) * sizeof(**v));
	va_list ap;
	int r;

	if (!nv)
		return -ENOMEM;
	*v = nv;
	va_start(ap, fmt);
	r = vasprintf(&nv[*n], fmt, ap);
	va_end(ap);
	if (r < 0)
		return -ENOMEM;
	(*n)++;
	return 0;
}

static void report_done(struct mdp_txn *tx, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));

static void report_done(struct mdp_txn *tx, const char *fmt, ...)
{
	struct mdp_txn_report *rep = &tx->rep;
	struct mdp_txn_event *nv = realloc(rep->done, (rep->n_done + 1) * sizeof(*nv));
	va_list ap;

	if (!nv)
		return;
	rep->done = nv;
	va_start(ap, fmt);
	vsnprintf(nv[rep->n_done].what, sizeof(nv->what), fmt, ap);
	va_end(ap);
	rep->n_done++;
}

static void free_lines(char **v, size_t n)
{
	for (size_t i = 0; i < n; i++)
		free(v[i]);
	free(v);
}

void mdp_txn_report_free(struct mdp_txn_report *rep)
{
	free(rep->done);
	free_lines(rep->left, rep->n_left);
	free_lines(rep->fix, rep->n_fix);
	free_lines(rep->info, rep->n_info);
	memset(rep, 0, sizeof(*rep));
}

/* ---- reading and writing one target ----------------------------------------- */

static void target_name(enum mdp_tunable t, const char *dev, char *buf, size_t len)
{
	const struct mdp_tunable_info *ti = mdp_tunable_info(t);

	if (ti->scope == MDP_SCOPE_GLOBAL)
		snprintf(buf, len, "dev.raid.%s", ti->key);
	else if (ti->scope == MDP_SCOPE_DISK)
		snprintf(buf, len, "%s read_ahead", dev);
	else
		snprintf(buf, len, "%s %s", dev, ti->key);
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

/* A value for the report: "system", "32768 KiB", "100000 KiB/s", "4096". */
static void show(enum mdp_tunable t, const struct mdp_value *v, char *buf, size_t len)
{
	const char *unit = mdp_tunable_info(t)->unit;

	if (v->kind == MDP_V_SYSTEM)
		snprintf(buf, len, "system");
	else if (!strcmp(unit, "KiB") || !strcmp(unit, "KiB/s"))
		snprintf(buf, len, "%" PRIu64 " %s", v->num, unit);
	else
		mdp_tunable_show(t, v, buf, len);
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
	show(t, want, a, sizeof(a));
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
static int restore_raw(struct mdp_txn *tx, enum mdp_tunable t, const char *dev, const char *raw,
		       bool report)
{
	struct mdp_value v, now;
	char cur[MDP_RAW_MAX], name[96], a[48], b[48];
	bool have_now;
	int err;

	if ((err = raw_to_value(t, raw, &v)))
		return err;
	have_now = !read_target(tx->root, t, dev, cur, sizeof(cur), &now);
	/*
	 * Already there: nothing to write (keeps a revert from touching more
	 * than it must). "N (system)" matches whatever N: it follows the sysctl.
	 */
	if (have_now && mdp_value_eq(&now, &v))
		return 0;
	if ((err = write_verify(tx, t, dev, &v)) || !report)
		return err;
	target_name(t, dev, name, sizeof(name));
	if (have_now)
		show(t, &now, a, sizeof(a));
	else
		snprintf(a, sizeof(a), "?");
	show(t, &v, b, sizeof(b));
	report_done(tx, "%s: %s -> %s", name, a, b);
	return 0;
}

/* ---- services ---------------------------------------------------------------- */

static int svc_pause(struct mdp_txn *tx, const char *svc)
{
	if (!tx->svc || !tx->svc->ops)
		return -ENOTSUP;
	return tx->svc->ops->pause(tx->svc, svc, tx->d);
}

static bool svc_running(struct mdp_txn *tx, const char *svc)
{
	enum mdp_svc_state st;
	struct mdp_diags quiet;
	bool running;

	if (!tx->svc || !tx->svc->ops)
		return false;
	/* Unknown state: fall through to resume, which says what went wrong. */
	mdp_diags_init(&quiet);
	running = !tx->svc->ops->status(tx->svc, svc, &st, &quiet) && st == MDP_SVC_RUNNING;
	mdp_diags_free(&quiet);
	return running;
}

static int svc_resume(struct mdp_txn *tx, const char *svc)
{
	if (!tx->svc || !tx->svc->ops)
		return -ENOTSUP;
	return tx->svc->ops->resume(tx->svc, svc, tx->d);
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
	if (!(nv = realloc(j->base, (j->n_base + 1) * sizeof(*nv))))
		return -ENOMEM;
	j->base = nv;
	nv = &j->base[j->n_base++];
	memset(nv, 0, sizeof(*nv));
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

static int journal_set_svc(struct mdp_journal *j, const char *name, bool paused)
{
	struct mdp_jservice *s = journal_svc(j, name), *nv;

	if (!s) {
		if (!(nv = realloc(j->svc, (j->n_svc + 1) * sizeof(*nv))))
			return -ENOMEM;
		j->svc = nv;
		s = &j->svc[j->n_svc++];
		memset(s, 0, sizeof(*s));
		snprintf(s->name, sizeof(s->name), "%s", name);
	}
	s->paused = paused;
	return 0;
}

static int journal_copy(const struct mdp_journal *src, struct mdp_journal *dst)
{
	*dst = *src;
	dst->base = NULL;
	dst->svc = NULL;
	if (src->n_base && !(dst->base = malloc(src->n_base * sizeof(*dst->base))))
		return -ENOMEM;
	if (src->n_svc && !(dst->svc = malloc(src->n_svc * sizeof(*dst->svc)))) {
		free(dst->base);
		return -ENOMEM;
	}
	if (src->n_base)
		memcpy(dst->base, src->base, src->n_base * sizeof(*dst->base));
	if (src->n_svc)
		memcpy(dst->svc, src->svc, src->n_svc * sizeof(*dst->svc));
	return 0;
}

static int journal_store(struct mdp_txn *tx, const struct mdp_journal *j)
{
	int err = mdp_journal_store(tx->root, j);

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

static void read_boot_id(const struct mdp_root *r, char *buf, size_t len)
{
	if (mdp_root_read_value(r, "/proc/sys/kernel/random/boot_id", buf, len) < 0)
		buf[0] = '\0';
}

/* ---- steps ------------------------------------------------------------------- */

static struct step *steps_add(struct steps *st, enum step_kind kind)
{
	struct step *nv = realloc(st->v, (st->n + 1) * sizeof(*nv));

	if (!nv)
		return NULL;
	st->v = nv;
	nv = &st->v[st->n++];
	memset(nv, 0, sizeof(*nv));
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

/* Targets the active profile changed and the new one does not mention go back. */
static int steps_restore_old(struct mdp_txn *tx, const struct mdp_journal *old,
			     const struct mdp_plan *pl, struct steps *st)
{
	for (size_t i = 0; i < old->n_base; i++) {
		const struct mdp_jtarget *b = &old->base[i];
		char cur[MDP_RAW_MAX];
		struct mdp_value now, base;
		struct step *s;
		if (plan_has(pl, b->t, b->dev))
			continue;
		if (read_target(tx->root, b->t, b->dev, cur, sizeof(cur), &now) ||
		    raw_to_value(b->t, b->raw, &base) || mdp_value_eq(&now, &base))
			continue;
		if (!(s = steps_add(st, STEP_TUNABLE)))
			return -ENOMEM;
		s->t = b->t;
		snprintf(s->dev, sizeof(s->dev), "%s", b->dev);
		snprintf(s->prev, sizeof(s->prev), "%s", cur);
		if (raw_to_value(b->t, b->raw, &s->want))
			return -EINVAL;
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

static int svc_status(struct mdp_txn *tx, const struct mdp_service *sv, enum mdp_svc_state *state)
{
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
	return tx->svc->ops->status(tx->svc, sv->name, state, tx->d);
}

/* Pause what runs; leave alone what the user stopped (invariant 6). */
static int steps_pause(struct mdp_txn *tx, const struct mdp_profile *p,
		       const struct mdp_journal *old, struct mdp_journal *j, struct steps *st)
{
	int bad = 0;

	for (size_t i = 0; i < p->n_services; i++) {
		const struct mdp_service *sv = &p->services[i];
		const struct mdp_jservice *was = journal_svc((struct mdp_journal *)old, sv->name);
		enum mdp_svc_state state;
		struct step *s;
		if (was && was->paused)
			continue; /* still paused by the active profile */
		if (svc_status(tx, sv, &state)) {
			bad = 1;
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
			add_line(&tx->rep.info, &tx->rep.n_info,
				 "optional service %s not found; skipped", sv->name);
		} else if (state == MDP_SVC_STOPPED) {
			add_line(&tx->rep.info, &tx->rep.n_info,
				 "service %s is not running; left alone", sv->name);
		} else {
			if (!(s = steps_add(st, STEP_PAUSE)) || journal_set_svc(j, sv->name, true))
				return -ENOMEM;
			s->svc = sv->name;
		}
	}
	return bad ? -EINVAL : 0;
}

static bool profile_lists(const struct mdp_profile *p, const char *svc)
{
	for (size_t i = 0; i < p->n_services; i++)
		if (!strcmp(p->services[i].name, svc))
			return true;
	return false;
}

static int steps_resume_old(const struct mdp_profile *p, const struct mdp_journal *old,
			    struct steps *st)
{
	for (size_t i = 0; i < old->n_svc; i++) {
		struct step *s;
		if (!old->svc[i].paused || profile_lists(p, old->svc[i].name))
			continue;
		if (!(s = steps_add(st, STEP_RESUME)))
			return -ENOMEM;
		s->svc = old->svc[i].name;
	}
	return 0;
}

static int step_do(struct mdp_txn *tx, struct step *s)
{
	char a[48], b[48], name[96];
	struct mdp_value prev;
	int err;

	s->started = true;
	if (s->kind == STEP_PAUSE)
		return svc_pause(tx, s->svc);
	if (s->kind == STEP_RESUME)
		return svc_resume(tx, s->svc);
	if ((err = write_verify(tx, s->t, s->dev, &s->want)))
		return err;
	target_name(s->t, s->dev, name, sizeof(name));
	show(s->t, &s->want, b, sizeof(b));
	if (raw_to_value(s->t, s->prev, &prev))
		snprintf(a, sizeof(a), "?");
	else
		show(s->t, &prev, a, sizeof(a));
	report_done(tx, "%s: %s -> %s", name, a, b);
	return 0;
}

static void left_tunable(struct mdp_txn *tx, enum mdp_tunable t, const char *dev, const char *raw)
{
	char name[96], path[128], val[48];
	struct mdp_value v;

	target_name(t, dev, name, sizeof(name));
	if (mdp_tunable_path(t, dev, path, sizeof(path)) || raw_to_value(t, raw, &v) ||
	    mdp_tunable_format(t, &v, val, sizeof(val)))
		return;
	val[strcspn(val, "\n")] = '\0';
	add_line(&tx->rep.left, &tx->rep.n_left, "%s is not back to %s", name, val);
	add_line(&tx->rep.fix, &tx->rep.n_fix, "echo %s > %s", val, path);
}

static void left_service(struct mdp_txn *tx, const char *svc, bool paused)
{
	char cmd[256];

	if (paused) {
		add_line(&tx->rep.left, &tx->rep.n_left, "service %s is still paused", svc);
		if (tx->svc && tx->svc->ops)
			mdp_svc_resume_command(tx->svc, svc, cmd, sizeof(cmd));
		else
			snprintf(cmd, sizeof(cmd), "start service %s with your service manager",
				 svc);
		add_line(&tx->rep.fix, &tx->rep.n_fix, "%s", cmd);
	} else {
		add_line(&tx->rep.left, &tx->rep.n_left,
			 "service %s was resumed and could not be paused again", svc);
	}
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
			err = svc_resume(tx, s->svc);
		else if (s->kind == STEP_RESUME)
			err = svc_pause(tx, s->svc);
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

/* Build the new journal and every step before anything changes. */
static int apply_prepare(struct mdp_txn *tx, const struct mdp_profile *p, const struct mdp_plan *pl,
			 const struct mdp_journal *old, struct mdp_journal *j, struct steps *st)
{
	int err;

	if ((err = journal_copy(old, j)))
		return err;
	j->state = MDP_J_APPLYING;
	read_boot_id(tx->root, j->boot_id, sizeof(j->boot_id));
	snprintf(j->profile, sizeof(j->profile), "%s", p->name);
	snprintf(j->profile_path, sizeof(j->profile_path), "%s", p->path ? p->path : "");
	if ((err = steps_restore_old(tx, old, pl, st)) || (err = steps_plan(pl, j, st)) ||
	    (err = steps_pause(tx, p, old, j, st)) || (err = steps_resume_old(p, old, st)))
		return err;
	return 0;
}

/* After a rollback: the journal goes back to what it was (or away). */
static int apply_unwind(struct mdp_txn *tx, const struct mdp_journal *old, struct steps *st)
{
	if (rollback(tx, st))
		return MDP_TXN_PARTIAL; /* journal stays "applying": recover can finish */
	if (old->state == MDP_J_ACTIVE ? journal_store(tx, old) : journal_remove(tx))
		return MDP_TXN_PARTIAL;
	return MDP_TXN_FAILED;
}

static int apply_commit(struct mdp_txn *tx, struct mdp_journal *j, const struct steps *st)
{
	for (size_t i = 0; i < st->n; i++)
		if (st->v[i].kind == STEP_RESUME)
			journal_set_svc(j, st->v[i].svc, false);
	for (size_t i = 0; i < st->n; i++)
		if (st->v[i].kind == STEP_PAUSE)
			report_done(tx, "service %s: paused", st->v[i].svc);
		else if (st->v[i].kind == STEP_RESUME)
			report_done(tx, "service %s: resumed", st->v[i].svc);
	j->state = MDP_J_ACTIVE;
	return journal_store(tx, j);
}

int mdp_txn_apply(struct mdp_txn *tx, const struct mdp_profile *p, const struct mdp_plan *pl)
{
	struct mdp_journal old, j = {0};
	struct steps st = {0};
	int err, rc = MDP_TXN_OK;

	if ((err = load_current(tx, &old)))
		return err;
	if ((err = apply_prepare(tx, p, pl, &old, &j, &st)))
		goto out;
	if (!st.n && old.state == MDP_J_ACTIVE && !strcmp(old.profile, p->name))
		goto out; /* already in this profile's state: nothing to journal */
	if (!st.n && old.state != MDP_J_ACTIVE)
		goto out; /* in sync without mdprofile having changed anything */
	/* Invariant 1: durable before the first change. */
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
		if (step_do(tx, &st.v[i])) {
			rc = apply_unwind(tx, &old, &st);
			goto out;
		}
	}
	if (apply_commit(tx, &j, &st))
		rc = apply_unwind(tx, &old, &st);
out:
	free(st.v);
	mdp_journal_free(&j);
	mdp_journal_free(&old);
	return err ? err : rc;
}

/* ---- revert and recover ------------------------------------------------------ */

/* Put every baseline back, resume what we paused, drop the journal. */
static int restore_baseline(struct mdp_txn *tx, struct mdp_journal *j)
{
	size_t left = 0;

	j->state = MDP_J_REVERTING;
	if (journal_store(tx, j))
		return MDP_TXN_FAILED;
	for (size_t i = j->n_base; i-- > 0;) {
		const struct mdp_jtarget *b = &j->base[i];
		if (restore_raw(tx, b->t, b->dev, b->raw, true)) {
			left_tunable(tx, b->t, b->dev, b->raw);
			left++;
		}
	}
	for (size_t i = j->n_svc; i-- > 0;) {
		if (!j->svc[i].paused)
			continue;
		/* Journaled before pausing: after a crash it may never have been paused. */
		if (svc_running(tx, j->svc[i].name)) {
			j->svc[i].paused = false;
			continue;
		}
		if (svc_resume(tx, j->svc[i].name)) {
			left_service(tx, j->svc[i].name, true);
			left++;
			continue;
		}
		j->svc[i].paused = false;
		report_done(tx, "service %s: resumed", j->svc[i].name);
	}
	if (left) {
		journal_store(tx, j); /* keep what is left for a later revert/recover */
		return MDP_TXN_PARTIAL;
	}
	return journal_remove(tx) ? MDP_TXN_PARTIAL : MDP_TXN_OK;
}

int mdp_txn_revert(struct mdp_txn *tx)
{
	struct mdp_journal j;
	bool did;
	int rc;

	if ((rc = mdp_txn_recover(tx, &did)))
		return rc;
	if ((rc = mdp_journal_load(tx->root, &j, tx->d)) == -ENOENT) {
		if (!did)
			add_line(&tx->rep.info, &tx->rep.n_info,
				 "no profile is active; nothing to revert");
		return 0;
	}
	if (rc)
		return rc;
	add_line(&tx->rep.info, &tx->rep.n_info, "reverting profile %s", j.profile);
	rc = restore_baseline(tx, &j);
	mdp_journal_free(&j);
	return rc;
}

static const char *jstate_verb(enum mdp_jstate s)
{
	return s == MDP_J_REVERTING ? "revert" : "apply";
}

static int recover_stale(struct mdp_txn *tx, const struct mdp_journal *j)
{
	char names[512] = "";
	size_t len = 0;

	add_line(&tx->rep.info, &tx->rep.n_info,
		 "cleared a journal from an earlier boot (profile %s): the reboot already reset "
		 "the kernel values",
		 j->profile);
	for (size_t i = 0; i < j->n_svc && len < sizeof(names); i++)
		if (j->svc[i].paused)
			len += (size_t)snprintf(names + len, sizeof(names) - len, "%s%s",
						len ? ", " : "", j->svc[i].name);
	if (len)
		add_line(&tx->rep.info, &tx->rep.n_info,
			 "services it paused (%s) came back with the boot; nothing to resume",
			 names);
	return journal_remove(tx) ? MDP_TXN_FAILED : 0;
}

int mdp_txn_recover(struct mdp_txn *tx, bool *did)
{
	struct mdp_journal j;
	char boot[40];
	int err;

	*did = false;
	if ((err = mdp_journal_load(tx->root, &j, tx->d)) == -ENOENT)
		return 0;
	if (err)
		return err;
	read_boot_id(tx->root, boot, sizeof(boot));
	if (strcmp(j.boot_id, boot)) {
		*did = true;
		err = recover_stale(tx, &j);
	} else if (j.state != MDP_J_ACTIVE) {
		*did = true;
		add_line(&tx->rep.info, &tx->rep.n_info,
			 "found an interrupted %s of profile %s: restoring the baseline",
			 jstate_verb(j.state), j.profile);
		err = restore_baseline(tx, &j);
	}
	mdp_journal_free(&j);
	return err;
}

bool mdp_txn_needs_recover(const struct mdp_root *r)
{
	struct mdp_diags d;
	struct mdp_journal j;
	char boot[40];
	bool needs;

	mdp_diags_init(&d);
	if (mdp_journal_load(r, &j, &d)) {
		needs = d.n > 0; /* unreadable journal: someone must look */
		mdp_diags_free(&d);
		return needs;
	}
	read_boot_id(r, boot, sizeof(boot));
	needs = j.state != MDP_J_ACTIVE || strcmp(j.boot_id, boot);
	mdp_journal_free(&j);
	mdp_diags_free(&d);
	return needs;
}
