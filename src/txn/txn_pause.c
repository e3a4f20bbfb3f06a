/*
 * txn_pause: a check or repair paused in place, journaled, resumed and let go (issue 49).
 *
 * md's way (maint_ckpt.h): idle stops a check and md keeps its place in md/sync_min; a
 * check written after starts there. A pause left behind is a check that never finishes
 * and a sync_min that the next check, by anyone, starts from: so every pause is written to
 * MDP_PAUSED before idle is, and revert, disable and recover let go of what it lists.
 *
 *   mdprofile-paused 1
 *   boot_id 5d1c...
 *   pause md2 check 123456 976773120 window 1765256400
 *   end
 *
 * A line is "pause DEV ACTION PLACE [TOTAL [WHY [OPENS]]] [pace KIB_S]": the check's place and
 * the sectors it runs to, then why the watcher holds it back (mdp_maint_why_name's word) and,
 * outside the windows, when the next one opens (seconds since the epoch), and md's speed as it
 * was paused, the pace status's finish counts with: what status shows.
 *
 * The file is the journal's kin (the same trust rules, replaced atomically), apart from it
 * because a check may be paused while no layer is active. Its lines are believed only in
 * the boot that wrote them: a reboot stops the arrays and md forgets sync_min with them.
 */
#include "txn_int.h"

#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "mdp_base.h"

#define PAUSED_HEAD "mdprofile-paused 1"
#define UNREADABLE                                                                                 \
	"the pause journal is unreadable; move it aside, then check each array's "                 \
	"md/sync_min and md/sync_action by hand"

void mdp_jpauses_free(struct mdp_jpauses *p)
{
	free(p->v);
	memset(p, 0, sizeof(*p));
}

static bool is_check(const char *a)
{
	return !strcmp(a, "check") || !strcmp(a, "repair");
}

static bool why_ok(const char *w)
{
	for (int k = MDP_MW_WINDOW; k <= MDP_MW_DEFER; k++)
		if (!strcmp(w, mdp_maint_why_name((enum mdp_mwhy)k)))
			return true;
	return false;
}

int txn_pauses_format(const struct mdp_jpauses *p, char **out, size_t *len)
{
	FILE *f = open_memstream(out, len);

	if (!f)
		return -ENOMEM;
	fprintf(f, PAUSED_HEAD "\nboot_id %s\n", p->boot_id);
	for (size_t i = 0; i < p->n; i++) {
		const struct mdp_jpause *e = &p->v[i];

		fprintf(f, "pause %s %s %" PRIu64 " %" PRIu64, e->dev, e->action, e->position,
			e->total);
		if (e->why.word[0])
			fprintf(f, " %s", e->why.word);
		if (e->why.word[0] && e->why.opens > 0)
			fprintf(f, " %" PRId64, e->why.opens);
		if (e->kib_s)
			fprintf(f, " pace %" PRIu64, e->kib_s);
		fputc('\n', f);
	}
	fputs("end\n", f);
	return fclose(f) ? -ENOMEM : 0;
}

/* "pause DEV ACTION PLACE [TOTAL [WHY [OPENS]]] [pace KIB_S]" after "pause ", a new entry. */
static int pause_line(struct mdp_jpauses *p, char *rest)
{
	char *save = NULL, *t[9] = {0};
	struct mdp_jpause e = {0}, *l;
	uint64_t opens = 0;
	size_t n = 0;

	while (n < 9 && (t[n] = strtok_r(n ? NULL : rest, " ", &save)))
		n++;
	if (n >= 5 && !strcmp(t[n - 2], "pace")) { /* the pace, last: the rest by place */
		if (mdp_num_parse(t[n - 1], 1, UINT64_MAX, &e.kib_s))
			return -EINVAL;
		t[n - 2] = t[n - 1] = NULL;
		n -= 2;
	}
	if (n < 3 || n > 6 || !mdp_ident_dev_ok(t[0]) || strlen(t[0]) >= MDP_NAME_MAX ||
	    !is_check(t[1]) || mdp_num_parse(t[2], 0, UINT64_MAX, &e.position) ||
	    (t[3] && mdp_num_parse(t[3], 0, UINT64_MAX, &e.total)) || (t[4] && !why_ok(t[4])) ||
	    (t[5] && mdp_num_parse(t[5], 1, INT64_MAX, &opens)))
		return -EINVAL;
	snprintf(e.dev, sizeof(e.dev), "%s", t[0]);
	snprintf(e.action, sizeof(e.action), "%s", t[1]);
	snprintf(e.why.word, sizeof(e.why.word), "%s", t[4] ? t[4] : "");
	e.why.opens = (int64_t)opens;
	if (!(l = mdp_push(&p->v, &p->n, sizeof(*l))))
		return -ENOMEM;
	*l = e;
	return 0;
}

int txn_pauses_parse(char *text, struct mdp_jpauses *p)
{
	char *save = NULL, *l = strtok_r(text, "\n", &save);
	int err = -EINVAL;

	memset(p, 0, sizeof(*p));
	if (!l || strcmp(l, PAUSED_HEAD))
		return -EINVAL;
	while ((l = strtok_r(NULL, "\n", &save))) {
		if (!strcmp(l, "end"))
			return 0;
		if (!strncmp(l, "boot_id ", 8) && strlen(l + 8) < sizeof(p->boot_id))
			snprintf(p->boot_id, sizeof(p->boot_id), "%s", l + 8);
		else if (strncmp(l, "pause ", 6) || (err = pause_line(p, l + 6)))
			break;
		err = -EINVAL;
	}
	mdp_jpauses_free(p);
	return err;
}

/* The pauses, read with the journal's trust rules: diags into d (NULL: quietly). */
static int pauses_load(const struct mdp_root *r, struct mdp_jpauses *p, struct mdp_diags *d)
{
	struct mdp_diags quiet;
	char *text = NULL;
	size_t len = 0;
	int err;

	mdp_diags_init(&quiet);
	memset(p, 0, sizeof(*p));
	if (!(err = txn_state_read(r, MDP_PAUSED, &text, &len, d ? d : &quiet)) &&
	    txn_pauses_parse(text, p)) {
		if (d)
			mdp_diags_add(d, MDP_PAUSED, 0, 0, UNREADABLE);
		err = -EBADMSG;
	}
	free(text);
	mdp_diags_free(&quiet);
	return err;
}

int mdp_txn_pauses(const struct mdp_root *r, struct mdp_jpauses *p)
{
	char boot[40] = "";
	int err = pauses_load(r, p, NULL);

	/* Another boot's: md forgot those places when it stopped the arrays. */
	if (!err && p->boot_id[0] && !txn_read_boot_id(r, boot, sizeof(boot)) && boot[0] &&
	    strcmp(p->boot_id, boot)) {
		mdp_jpauses_free(p);
		err = -ENOENT;
	}
	return err;
}

int txn_pauses_store(struct mdp_txn *tx, const struct mdp_jpauses *p)
{
	char *text = NULL;
	size_t len = 0;
	int err;

	if (!p->n) {
		err = mdp_root_unlink(tx->root, MDP_PAUSED);
		return err == -ENOENT ? 0 : err;
	}
	if (!(err = txn_pauses_format(p, &text, &len)))
		err = txn_state_replace(tx->root, MDP_PAUSED, text, len);
	free(text);
	if (err)
		mdp_diags_add(tx->d, MDP_PAUSED, 0, 0, "cannot store the pause journal: %s",
			      mdp_root_strerror(-err));
	return err;
}

/* ---- md's attributes ------------------------------------------------------------ */

static int md_read(const struct mdp_root *r, const char *dev, const char *attr, char *buf,
		   size_t cap)
{
	char path[128];
	ssize_t n;

	snprintf(path, sizeof(path), "/sys/block/%s/md/%s", dev, attr);
	n = mdp_root_read_value(r, path, buf, cap);
	return n < 0 ? (int)n : 0;
}

static int md_write(struct mdp_txn *tx, const char *dev, const char *attr, const char *v)
{
	char path[128];
	int err;

	snprintf(path, sizeof(path), "/sys/block/%s/md/%s", dev, attr);
	if ((err = mdp_root_write(tx->root, path, v)))
		mdp_diags_add(tx->d, path, 0, 0, "cannot write '%s': %s", v,
			      mdp_root_strerror(-err));
	return err;
}

/* A number md shows first in attr (sync_min "N", sync_completed "N / M"). */
static int md_read_num(const struct mdp_root *r, const char *dev, const char *attr, uint64_t *n)
{
	char buf[64];
	int err = md_read(r, dev, attr, buf, sizeof(buf));

	if (err)
		return err;
	buf[strcspn(buf, " ")] = '\0';
	return mdp_num_parse(buf, 0, UINT64_MAX, n) ? -EINVAL : 0;
}

/* DSM's own scrub reads md/sync_min: mdprofile never writes it there (discover.h). */
static bool on_dsm(const struct mdp_txn *tx)
{
	return mdp_root_exists(tx->root, mdp_discover_dsm.version_file);
}

/* ---- pause and resume ----------------------------------------------------------- */

static struct mdp_jpause *pause_find(struct mdp_jpauses *p, const char *dev)
{
	for (size_t i = 0; i < p->n; i++)
		if (!strcmp(p->v[i].dev, dev))
			return &p->v[i];
	return NULL;
}

static void pause_drop(struct mdp_jpauses *p, struct mdp_jpause *e)
{
	size_t i = (size_t)(e - p->v);

	memmove(e, e + 1, (p->n - i - 1) * sizeof(*e));
	p->n--;
}

/* The pauses to add to: the file's, or none of this boot (a stale file is md's no more). */
static int pauses_for_change(struct mdp_txn *tx, struct mdp_jpauses *p)
{
	char boot[40] = "";
	int err = pauses_load(tx->root, p, tx->d);

	if (err && err != -ENOENT)
		return err;
	(void)txn_read_boot_id(tx->root, boot, sizeof(boot));
	if (!err && strcmp(p->boot_id, boot))
		p->n = 0;
	snprintf(p->boot_id, sizeof(p->boot_id), "%s", boot);
	return 0;
}

/* why as a line keeps it: a word it knows, a time only with one. */
static void why_set(struct mdp_jwhy *to, const struct mdp_jwhy *why)
{
	memset(to, 0, sizeof(*to));
	if (why && why_ok(why->word)) {
		snprintf(to->word, sizeof(to->word), "%s", why->word);
		to->opens = why->opens > 0 ? why->opens : 0;
	}
}

/* Journal e's pause (dev, action, place, total, why): the line stored before md is touched. */
static int pause_journal(struct mdp_txn *tx, struct mdp_jpauses *p, const struct mdp_jpause *e)
{
	struct mdp_jpause *l = pause_find(p, e->dev);

	if (!l && !(l = mdp_push(&p->v, &p->n, sizeof(*l))))
		return -ENOMEM;
	*l = *e;
	return txn_pauses_store(tx, p);
}

/* The place kept on disk too, for a reboot (txn_ckpt.c): said in d when it cannot be. */
static void pause_keep(struct mdp_txn *tx, const struct mdp_array *a, const char *action,
		       uint64_t pos, int64_t now)
{
	struct mdp_mckpt c;

	if (mdp_mckpt_take(a, now, &c))
		return; /* no UUID or no progress known: this boot's pause journal alone */
	snprintf(c.action, sizeof(c.action), "%.6s", action);
	c.position = pos < c.total ? pos : c.total;
	(void)mdp_ckpt_save(tx->root, &c, tx->d);
}

int mdp_txn_pause(struct mdp_txn *tx, const struct mdp_array *a, int64_t now,
		  const struct mdp_jwhy *why, uint64_t *position)
{
	const char *dev = a->name;
	struct mdp_jpause e = {.total = a->sync_total, .kib_s = a->sync_speed};
	struct mdp_jpauses p;
	char action[16];
	uint64_t kept;
	int err;

	if (!mdp_ident_dev_ok(dev) || strlen(dev) >= MDP_NAME_MAX)
		return -EINVAL;
	if ((err = md_read(tx->root, dev, "sync_action", action, sizeof(action))))
		return err == -ENOENT ? -ENODEV : err;
	if (!is_check(action))
		return -EBUSY;
	snprintf(e.dev, sizeof(e.dev), "%s", dev);
	snprintf(e.action, sizeof(e.action), "%.6s", action);
	why_set(&e.why, why);
	(void)md_read_num(tx->root, dev, "sync_completed", &e.position); /* none: from 0 */
	if ((err = pauses_for_change(tx, &p)))
		return err;
	if (!(err = pause_journal(tx, &p, &e)) &&
	    (err = md_write(tx, dev, "sync_action", "idle"))) {
		pause_drop(&p, pause_find(&p, dev));
		(void)txn_pauses_store(tx, &p);
	}
	/* md's own place, where idle left it: a sixteenth further at most. */
	if (!err && !md_read_num(tx->root, dev, "sync_min", &kept) && kept > e.position) {
		e.position = kept;
		(void)pause_journal(tx, &p, &e);
	}
	if (!err) {
		pause_keep(tx, a, action, e.position, now);
		*position = e.position;
	}
	mdp_jpauses_free(&p);
	return err;
}

int mdp_txn_pause_why(struct mdp_txn *tx, const char *dev, const struct mdp_jwhy *why)
{
	struct mdp_jpauses p;
	struct mdp_jpause *e;
	struct mdp_jwhy w;
	int err;

	if ((err = pauses_for_change(tx, &p)))
		return err;
	why_set(&w, why);
	if (!(e = pause_find(&p, dev)))
		err = -ENOENT;
	else if (strcmp(e->why.word, w.word) || e->why.opens != w.opens) {
		e->why = w;
		err = txn_pauses_store(tx, &p);
	}
	mdp_jpauses_free(&p);
	return err;
}

/*
 * Start e's check again from its place, if dev is idle: 1 resumed, 0 nothing to do (gone,
 * or something else runs), -errno when md refused.
 */
static int pause_restart(struct mdp_txn *tx, const struct mdp_jpause *e)
{
	char action[16], pos[32];
	uint64_t kept;
	int err;

	if (md_read(tx->root, e->dev, "sync_action", action, sizeof(action)) ||
	    strcmp(action, "idle"))
		return 0;
	snprintf(pos, sizeof(pos), "%" PRIu64, e->position);
	if (!on_dsm(tx) &&
	    (md_read_num(tx->root, e->dev, "sync_min", &kept) || kept != e->position) &&
	    (err = md_write(tx, e->dev, "sync_min", pos)))
		return err;
	return (err = md_write(tx, e->dev, "sync_action", e->action)) ? err : 1;
}

int mdp_txn_resume(struct mdp_txn *tx, const char *dev)
{
	struct mdp_jpauses p;
	struct mdp_jpause *e;
	int err;

	if ((err = pauses_for_change(tx, &p)))
		return err;
	if (!(e = pause_find(&p, dev)))
		err = -ENOENT;
	else if ((err = pause_restart(tx, e)) >= 0) {
		pause_drop(&p, e);
		err = txn_pauses_store(tx, &p);
	}
	mdp_jpauses_free(&p);
	return err;
}

/* ---- let go ---------------------------------------------------------------------- */

static void ev_check(struct mdp_txn *tx, enum mdp_txn_note_kind kind, const struct mdp_jpause *e)
{
	struct mdp_txn_note *n;

	txn_ev_note(tx, kind, NULL);
	if (!tx->rep.n_notes || (n = &tx->rep.notes[tx->rep.n_notes - 1])->kind != kind)
		return;
	snprintf(n->dev, sizeof(n->dev), "%s", e->dev);
	snprintf(n->action, sizeof(n->action), "%s", e->action);
	n->position = e->position;
}

/* One pause let go: resumed, else md/sync_min 0 (not on DSM), said as a note. */
static void pause_let_go(struct mdp_txn *tx, const struct mdp_jpause *e)
{
	int rc = pause_restart(tx, e);

	if (rc > 0)
		ev_check(tx, MDP_TXN_NOTE_CHECK_RESUMED, e);
	else if (rc < 0 && on_dsm(tx))
		ev_check(tx, MDP_TXN_NOTE_CHECK_LEFT, e);
	else if (rc < 0 && !md_write(tx, e->dev, "sync_min", "0"))
		ev_check(tx, MDP_TXN_NOTE_CHECK_FORGOTTEN, e);
}

bool txn_pauses_release(struct mdp_txn *tx)
{
	struct mdp_jpauses p;
	char boot[40] = "";
	size_t notes = tx->rep.n_notes;
	int err = pauses_load(tx->root, &p, NULL);

	/* The journal's own load says what is wrong with the state directory. */
	if (err == -EBADMSG)
		mdp_diags_add(tx->d, MDP_PAUSED, 0, 0, UNREADABLE);
	if (err)
		return false;
	/* Of another boot: md forgot the places when it stopped the arrays. */
	if (txn_read_boot_id(tx->root, boot, sizeof(boot)) || !strcmp(p.boot_id, boot))
		for (size_t i = 0; i < p.n; i++)
			pause_let_go(tx, &p.v[i]);
	p.n = 0;
	(void)txn_pauses_store(tx, &p);
	mdp_jpauses_free(&p);
	return tx->rep.n_notes > notes;
}

int mdp_txn_pause_kept(struct mdp_txn *tx, const struct mdp_array *a, const struct mdp_mckpt *c)
{
	struct mdp_jpause e = {.position = c->position, .total = c->total};
	struct mdp_jpauses p;
	char action[16];
	int err;

	if ((err = md_read(tx->root, a->name, "sync_action", action, sizeof(action))))
		return err == -ENOENT ? -ENODEV : err;
	if (strcmp(action, "idle"))
		return -EBUSY;
	snprintf(e.dev, sizeof(e.dev), "%s", a->name);
	snprintf(e.action, sizeof(e.action), "%s", c->action);
	if (!(err = pauses_for_change(tx, &p)))
		err = pause_journal(tx, &p, &e);
	mdp_jpauses_free(&p);
	return err;
}
