/*
 * test_txn_pause: a check paused in place is journaled before md is touched, and revert,
 * disable (a revert) and recover leave no pause behind (issue 49).
 *
 * The fixture's md1 (server-raid6-raid10) runs a check; the root's ops stand in for md the
 * way 99-maint-kernel measured it: idle stops the check and md sets md/sync_min to its place,
 * a sixteenth further than md/sync_completed said at most; check written while one runs is
 * refused (EBUSY). A crash is a child that dies as it writes idle.
 */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cmocka.h>

#include "journal.h"
#include "support.h"
#include "txn.h"
#include "txn_int.h"

#define DONE  863340544ull /* md1's md/sync_completed */
#define PLACE 863341056ull /* where md's idle leaves md/sync_min */

struct md {
	struct mdp_root_ops ops;
	const struct mdp_root_ops *inner;
	bool journaled_first; /* the pause's line was in the file when idle was written */
	bool crash_at_idle;   /* the process dies as it writes idle */
	int fail_action;      /* a check or repair written fails with it (0: md takes it) */
	unsigned min_writes;
};

struct env {
	char dir[64], root[128];
	struct mdp_root r;
	struct md md;
	struct mdp_diags d;
	struct mdp_txn tx;
};

static struct md *md_of(const struct mdp_root_ops *self)
{
	return (struct md *)(void *)((char *)(uintptr_t)self - offsetof(struct md, ops));
}

static bool ends(const char *s, const char *tail)
{
	size_t a = strlen(s), b = strlen(tail);

	return a >= b && !strcmp(s + a - b, tail);
}

static int md_idle(struct md *m, const struct mdp_root *r, const char *sys)
{
	char min[128], text[4096] = "";
	char place[32];

	(void)mdp_root_read_value(r, MDP_PAUSED, text, sizeof(text));
	m->journaled_first = strstr(text, "\npause ") != NULL;
	if (m->crash_at_idle)
		_exit(m->journaled_first ? 0 : 1); /* the process dies before idle reaches md */
	snprintf(min, sizeof(min), "%.*s/sync_min", (int)(strlen(sys) - strlen("/sync_action")),
		 sys);
	snprintf(place, sizeof(place), "%llu\n", PLACE);
	assert_int_equal(m->inner->write(m->inner, r, min, place, strlen(place)), 0);
	return m->inner->write(m->inner, r, sys, "idle\n", 5);
}

static int md_write(const struct mdp_root_ops *self, const struct mdp_root *r, const char *sys,
		    const char *data, size_t len)
{
	struct md *m = md_of(self);
	char cur[16] = "";

	if (ends(sys, "/sync_min"))
		m->min_writes++;
	if (ends(sys, "/sync_action") && !strncmp(data, "idle", 4))
		return md_idle(m, r, sys);
	if (ends(sys, "/sync_action") &&
	    (!strncmp(data, "check", 5) || !strncmp(data, "repair", 6))) {
		(void)mdp_root_read_value(r, sys, cur, sizeof(cur));
		if (m->fail_action)
			return m->fail_action;
		if (strcmp(cur, "idle"))
			return -EBUSY;
	}
	return m->inner->write(m->inner, r, sys, data, len);
}

static int md_fsync(const struct mdp_root_ops *self, const struct mdp_root *r, int fd)
{
	struct md *m = md_of(self);

	return m->inner->fsync(m->inner, r, fd);
}

static int md_rename(const struct mdp_root_ops *self, const struct mdp_root *r, const char *from,
		     const char *to)
{
	struct md *m = md_of(self);

	return m->inner->rename(m->inner, r, from, to);
}

static void env_open(struct env *e, const char *fixture)
{
	const char *src = getenv("MDP_SRCDIR");

	snprintf(e->dir, sizeof(e->dir), "/tmp/mdp-pause-XXXXXX");
	assert_non_null(mkdtemp(e->dir));
	snprintf(e->root, sizeof(e->root), "%s/root", e->dir);
	test_sh("cp -a '%s/tests/fixtures/%s' '%s'", src ? src : ".", fixture, e->root);
	assert_int_equal(mdp_root_init(&e->r, e->root), 0);
	memset(&e->md, 0, sizeof(e->md));
	e->md.ops = (struct mdp_root_ops){md_write, md_fsync, md_rename};
	e->md.inner = e->r.ops;
	e->r.ops = &e->md.ops;
	mdp_diags_init(&e->d);
	mdp_txn_init(&e->tx, &e->r, &e->d, NULL, NULL);
}

/* md1 of the server fixture runs a check from 0, md's sync_min 0. */
static int setup(void **state)
{
	struct env *e = calloc(1, sizeof(*e));

	env_open(e, "server-raid6-raid10");
	test_sh("echo 0 >'%s/sys/block/md1/md/sync_min'", e->root);
	*state = e;
	return 0;
}

static int teardown(void **state)
{
	struct env *e = *state;

	mdp_txn_report_free(&e->tx.rep);
	mdp_diags_free(&e->d);
	mdp_root_fini(&e->r);
	test_sh("rm -rf '%s'", e->dir);
	free(e);
	return 0;
}

static void attr_is(struct env *e, const char *dev, const char *attr, const char *want)
{
	char path[128], buf[64];

	snprintf(path, sizeof(path), "/sys/block/%s/md/%s", dev, attr);
	assert_true(mdp_root_read_value(&e->r, path, buf, sizeof(buf)) >= 0);
	assert_string_equal(buf, want);
}

#define MD1_UUID "c0ffee0012344abc8def0123456789ab"
#define NOW      1765065600

/* dev as discovery shows it running action (md1 of the fixture: raid10 of 4). */
static void array_of(struct mdp_array *a, const char *dev, const char *action)
{
	memset(a, 0, sizeof(*a));
	snprintf(a->name, sizeof(a->name), "%s", dev);
	snprintf(a->uuid, sizeof(a->uuid), "%s", MD1_UUID);
	snprintf(a->sync_action, sizeof(a->sync_action), "%s", action);
	snprintf(a->level_name, sizeof(a->level_name), "raid10");
	a->has_progress = true;
	a->sync_done = DONE;
	a->sync_total = 3906516992ull;
	a->raid_disks = 4;
	a->chunk_kib = 512;
	a->size_kib = 3906516992ull;
	a->sync_speed = 5000;
}

static int pause_dev(struct env *e, const char *dev, const char *action, uint64_t *pos)
{
	struct mdp_array a;

	array_of(&a, dev, action);
	return mdp_txn_pause(&e->tx, &a, NOW, &(struct mdp_jwhy){"window", NOW + 3600}, pos);
}

static size_t n_pauses(struct env *e)
{
	struct mdp_jpauses p;
	size_t n;
	int err = mdp_txn_pauses(&e->r, &p);

	if (err == -ENOENT)
		return 0;
	assert_int_equal(err, 0);
	n = p.n;
	mdp_jpauses_free(&p);
	return n;
}

static size_t notes_of(struct env *e, enum mdp_txn_note_kind k)
{
	size_t n = 0;

	for (size_t i = 0; i < e->tx.rep.n_notes; i++)
		n += e->tx.rep.notes[i].kind == k;
	return n;
}

static struct mdp_txn_rc recover(struct env *e)
{
	bool did;

	return mdp_txn_recover(&e->tx, &did);
}

/* The line is in the file before idle is written; md's place kept; resume from it. */
static void test_pause_resume(void **state)
{
	struct env *e = *state;
	struct mdp_jpauses p;
	uint64_t pos = 0;

	assert_int_equal(pause_dev(e, "md1", "check", &pos), 0);
	assert_true(e->md.journaled_first);
	assert_int_equal(pos, PLACE);
	attr_is(e, "md1", "sync_action", "idle");
	assert_int_equal(mdp_txn_pauses(&e->r, &p), 0);
	assert_int_equal(p.n, 1);
	assert_string_equal(p.v[0].dev, "md1");
	assert_string_equal(p.v[0].action, "check");
	assert_int_equal(p.v[0].position, PLACE);
	assert_int_equal(p.v[0].total, 3906516992ull);
	assert_string_equal(p.v[0].why.word, "window");
	assert_int_equal(p.v[0].why.opens, NOW + 3600);
	assert_int_equal(p.v[0].kib_s, 5000); /* md's pace as it was paused, for status's finish */
	mdp_jpauses_free(&p);
	/* Paused already: nothing runs to pause. */
	assert_int_equal(pause_dev(e, "md1", "check", &pos), -EBUSY);
	assert_int_equal(mdp_txn_resume(&e->tx, "md1"), 0);
	attr_is(e, "md1", "sync_action", "check");
	attr_is(e, "md1", "sync_min", "863341056");
	assert_int_equal(e->md.min_writes, 0); /* md held the place: not written again */
	assert_int_equal(n_pauses(e), 0);
	assert_int_equal(mdp_txn_resume(&e->tx, "md1"), -ENOENT);
}

/* Why a pause holds changes (the window opened while a disk is hot): the line says so, its
 * place kept; a word it does not know is not kept; none for an array not paused. */
static void test_pause_why(void **state)
{
	struct env *e = *state;
	struct mdp_jpauses p;
	uint64_t pos;

	assert_int_equal(pause_dev(e, "md1", "check", &pos), 0);
	assert_int_equal(mdp_txn_pause_why(&e->tx, "md1", &(struct mdp_jwhy){"heat", 0}), 0);
	assert_int_equal(mdp_txn_pauses(&e->r, &p), 0);
	assert_string_equal(p.v[0].why.word, "heat");
	assert_int_equal(p.v[0].why.opens, 0);
	assert_int_equal(p.v[0].kib_s, 5000);
	assert_int_equal(p.v[0].position, PLACE);
	mdp_jpauses_free(&p);
	assert_int_equal(mdp_txn_pause_why(&e->tx, "md1", &(struct mdp_jwhy){"hot", 5}), 0);
	assert_int_equal(mdp_txn_pauses(&e->r, &p), 0);
	assert_string_equal(p.v[0].why.word, "");
	assert_int_equal(p.v[0].why.opens, 0);
	mdp_jpauses_free(&p);
	assert_int_equal(mdp_txn_pause_why(&e->tx, "md0", &(struct mdp_jwhy){"heat", 0}), -ENOENT);
}

/* md forgot the place (someone wrote sync_min 0): the resume writes the journaled one. */
static void test_resume_writes_place(void **state)
{
	struct env *e = *state;
	uint64_t pos;

	assert_int_equal(pause_dev(e, "md1", "check", &pos), 0);
	test_sh("echo 0 >'%s/sys/block/md1/md/sync_min'", e->root);
	assert_int_equal(mdp_txn_resume(&e->tx, "md1"), 0);
	attr_is(e, "md1", "sync_min", "863341056");
	attr_is(e, "md1", "sync_action", "check");
}

/* A crash between the journal's line and idle: recover finds the check running, leaves md be. */
static void test_crash_before_idle(void **state)
{
	struct env *e = *state;
	uint64_t pos;
	int st;
	pid_t pid = fork();

	assert_true(pid >= 0);
	if (!pid) {
		e->md.crash_at_idle = true;
		(void)pause_dev(e, "md1", "check", &pos);
		_exit(2);
	}
	assert_int_equal(waitpid(pid, &st, 0), pid);
	assert_true(WIFEXITED(st));
	assert_int_equal(WEXITSTATUS(st), 0); /* died at idle, the line stored before */
	assert_int_equal(n_pauses(e), 1);
	assert_int_equal(recover(e).res, MDP_TXN_OK);
	attr_is(e, "md1", "sync_action", "check");
	attr_is(e, "md1", "sync_min", "0");
	assert_int_equal(e->md.min_writes, 0);
	assert_int_equal(n_pauses(e), 0);
	assert_int_equal(e->tx.rep.n_notes, 0);
}

/* The watcher died with a check paused: recover resumes it from its place. */
static void test_recover_resumes(void **state)
{
	struct env *e = *state;
	uint64_t pos;

	assert_int_equal(pause_dev(e, "md1", "check", &pos), 0);
	assert_int_equal(recover(e).res, MDP_TXN_OK);
	attr_is(e, "md1", "sync_action", "check");
	attr_is(e, "md1", "sync_min", "863341056");
	assert_int_equal(notes_of(e, MDP_TXN_NOTE_CHECK_RESUMED), 1);
	assert_int_equal(e->tx.rep.notes[0].position, PLACE);
	assert_string_equal(e->tx.rep.notes[0].dev, "md1");
	assert_int_equal(n_pauses(e), 0);
}

/* A live watcher's pauses are its own: recover leaves them. */
static void test_recover_keeps_live_watchers(void **state)
{
	struct env *e = *state;
	struct mdp_lock l;
	long holder;
	uint64_t pos;

	assert_int_equal(pause_dev(e, "md1", "check", &pos), 0);
	assert_int_equal(mdp_watcher_take(&e->r, &l, &holder, &e->d), 0);
	assert_int_equal(recover(e).res, MDP_TXN_OK);
	attr_is(e, "md1", "sync_action", "idle");
	assert_int_equal(n_pauses(e), 1);
	mdp_lock_release(&l);
}

/* revert (and disable, which reverts) with nothing active still lets go of a pause. */
static void test_revert_resumes(void **state)
{
	struct env *e = *state;
	uint64_t pos;

	assert_int_equal(pause_dev(e, "md1", "check", &pos), 0);
	e->tx.origin = MDP_BY_HAND;
	assert_int_equal(mdp_txn_revert(&e->tx, true).res, MDP_TXN_OK);
	attr_is(e, "md1", "sync_action", "check");
	assert_int_equal(notes_of(e, MDP_TXN_NOTE_CHECK_RESUMED), 1);
	assert_int_equal(notes_of(e, MDP_TXN_NOTE_NOTHING_ACTIVE), 0);
	assert_int_equal(n_pauses(e), 0);
}

/* The watcher's own revert (its layer let go between operations) keeps its pauses. */
static void test_watchers_revert_keeps(void **state)
{
	struct env *e = *state;
	struct mdp_lock l;
	long holder;
	uint64_t pos;

	assert_int_equal(pause_dev(e, "md1", "check", &pos), 0);
	assert_int_equal(mdp_watcher_take(&e->r, &l, &holder, &e->d), 0);
	e->tx.origin = MDP_BY_AUTO;
	assert_int_equal(mdp_txn_revert(&e->tx, false).res, MDP_TXN_OK);
	attr_is(e, "md1", "sync_action", "idle");
	assert_int_equal(n_pauses(e), 1);
	mdp_lock_release(&l);
}

/* md refuses the resume: sync_min back to 0, so the next check starts as md would. */
static void test_revert_forgets(void **state)
{
	struct env *e = *state;
	uint64_t pos;

	assert_int_equal(pause_dev(e, "md1", "check", &pos), 0);
	e->md.fail_action = -EIO;
	assert_int_equal(mdp_txn_revert(&e->tx, true).res, MDP_TXN_OK);
	attr_is(e, "md1", "sync_action", "idle");
	attr_is(e, "md1", "sync_min", "0");
	assert_int_equal(notes_of(e, MDP_TXN_NOTE_CHECK_FORGOTTEN), 1);
	assert_int_equal(n_pauses(e), 0);
}

/* Someone started something else since: the line goes, md is left as it runs. */
static void test_release_other_running(void **state)
{
	struct env *e = *state;
	uint64_t pos;

	assert_int_equal(pause_dev(e, "md1", "check", &pos), 0);
	test_sh("echo resync >'%s/sys/block/md1/md/sync_action'", e->root);
	assert_int_equal(recover(e).res, MDP_TXN_OK);
	attr_is(e, "md1", "sync_action", "resync");
	assert_int_equal(e->tx.rep.n_notes, 0);
	assert_int_equal(n_pauses(e), 0);
}

/* A pause journal of another boot: md forgot with the reboot; dropped, md untouched. */
static void test_stale_boot(void **state)
{
	struct env *e = *state;
	struct mdp_jpause v = {"md1", "check", 4096, 0, {"", 0}, 0};
	struct mdp_jpauses p = {"00000000-0000-0000-0000-000000000000", &v, 1};

	test_sh("echo idle >'%s/sys/block/md1/md/sync_action'", e->root);
	assert_int_equal(txn_pauses_store(&e->tx, &p), 0);
	/* Not this boot's: no pause to see (the watcher's look, status) nor to let go. */
	assert_int_equal(n_pauses(e), 0);
	assert_int_equal(recover(e).res, MDP_TXN_OK);
	attr_is(e, "md1", "sync_action", "idle");
	assert_int_equal(e->md.min_writes, 0);
	assert_int_equal(n_pauses(e), 0);
}

/* Only a file mdprofile wrote: every line checked. */
static void test_parse(void **state)
{
	static const char *const bad[] = {
	    "",
	    "mdprofile-paused 2\nend\n",
	    "mdprofile-paused 1\nboot_id x\n",
	    "mdprofile-paused 1\npause md1 resync 1\nend\n",
	    "mdprofile-paused 1\npause ../x check 1\nend\n",
	    "mdprofile-paused 1\npause md1 check -1\nend\n",
	    "mdprofile-paused 1\npause md1 check 1 x\nend\n",
	    "mdprofile-paused 1\npause md1 check 1 2 3\nend\n",
	    "mdprofile-paused 1\npause md1 check 1 2 heat 0\nend\n",
	    "mdprofile-paused 1\npause md1 check 1 2 heat 3 4\nend\n",
	    "mdprofile-paused 1\npause md1 check 1 2 pace 0\nend\n",
	    "mdprofile-paused 1\npause md1 check 1 2 pace x\nend\n",
	    "mdprofile-paused 1\npause md1 check 1 2 pace\nend\n",
	    "mdprofile-paused 1\npause md1 check 1 2 pace 5 heat\nend\n",
	    "mdprofile-paused 1\nwhat\nend\n",
	};
	struct mdp_jpauses p;
	char buf[256], *text;
	size_t len;

	(void)state;
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		snprintf(buf, sizeof(buf), "%s", bad[i]);
		if (txn_pauses_parse(buf, &p) != -EINVAL)
			fail_msg("taken: '%s'", bad[i]);
	}
	/* A line without its total or why (a pause the watcher did not say) reads. */
	snprintf(buf, sizeof(buf),
		 "mdprofile-paused 1\nboot_id b\npause md1 repair 8\npause md2 check 9 90 heat\n"
		 "pause md3 check 1 2 window 1765069200 pace 5000\npause md4 check 1 2 pace 7\n"
		 "end\n");
	assert_int_equal(txn_pauses_parse(buf, &p), 0);
	assert_int_equal(p.v[1].total, 90);
	assert_string_equal(p.v[1].why.word, "heat");
	assert_int_equal(p.v[1].kib_s, 0);
	assert_int_equal(p.v[2].why.opens, 1765069200);
	assert_int_equal(p.v[2].kib_s, 5000);
	assert_int_equal(p.v[3].kib_s, 7);
	assert_string_equal(p.v[3].why.word, "");
	assert_int_equal(txn_pauses_format(&p, &text, &len), 0);
	assert_string_equal(text, "mdprofile-paused 1\nboot_id b\npause md1 repair 8 0\n"
				  "pause md2 check 9 90 heat\n"
				  "pause md3 check 1 2 window 1765069200 pace 5000\n"
				  "pause md4 check 1 2 pace 7\nend\n");
	free(text);
	mdp_jpauses_free(&p);
}

/*
 * DSM's scrub reads md/sync_min: a resume never writes it (md's place as md kept it), and a
 * refused resume leaves the array idle at its place with a word, never sync_min 0.
 */
static void test_dsm_in_place(void **state)
{
	struct env *e = *state;
	uint64_t pos;

	teardown(state);
	e = calloc(1, sizeof(*e));
	*state = e;
	env_open(e, "dt-sata-dsm7");
	test_sh("cd '%s/sys/block/md2/md' && echo repair >sync_action && echo 0 >sync_min &&"
		" echo '1024 / 4096' >sync_completed",
		e->root);
	assert_int_equal(pause_dev(e, "md2", "repair", &pos), 0);
	test_sh("echo 2048 >'%s/sys/block/md2/md/sync_min'", e->root);
	assert_int_equal(mdp_txn_resume(&e->tx, "md2"), 0);
	attr_is(e, "md2", "sync_action", "repair");
	attr_is(e, "md2", "sync_min", "2048");
	assert_int_equal(e->md.min_writes, 0);
	assert_int_equal(pause_dev(e, "md2", "repair", &pos), 0);
	e->md.fail_action = -EIO;
	assert_int_equal(mdp_txn_revert(&e->tx, true).res, MDP_TXN_OK);
	attr_is(e, "md2", "sync_action", "idle");
	attr_is(e, "md2", "sync_min", "863341056");
	assert_int_equal(e->md.min_writes, 0);
	assert_int_equal(notes_of(e, MDP_TXN_NOTE_CHECK_LEFT), 1);
	assert_int_equal(n_pauses(e), 0);
}

/* The place outlives a reboot (md forgot it, /run is gone): the check resumes from it. */
static void test_ckpt_after_reboot(void **state)
{
	struct env *e = *state;
	struct mdp_mckpt c;
	struct mdp_array a;
	uint64_t pos;

	assert_int_equal(pause_dev(e, "md1", "check", &pos), 0);
	test_sh("cd '%s' && rm -rf run/mdprofile && echo 0 >sys/block/md1/md/sync_min &&"
		" echo 11111111-2222-3333-4444-555555555555 >proc/sys/kernel/random/boot_id",
		e->root);
	array_of(&a, "md1", "idle");
	assert_int_equal(mdp_ckpt_load(&e->r, &a, &c, &e->d), 0);
	assert_int_equal(c.position, PLACE);
	assert_string_equal(c.action, "check");
	assert_int_equal(c.saved, NOW);
	/* Journaled paused there, then resumed: sync_min first. */
	assert_int_equal(mdp_txn_pause_kept(&e->tx, &a, &c), 0);
	assert_int_equal(n_pauses(e), 1);
	assert_int_equal(mdp_txn_resume(&e->tx, "md1"), 0);
	attr_is(e, "md1", "sync_min", "863341056");
	attr_is(e, "md1", "sync_action", "check");
	/* Running again: not journaled paused. */
	assert_int_equal(mdp_txn_pause_kept(&e->tx, &a, &c), -EBUSY);
	array_of(&a, "md1", "check");
	assert_int_equal(mdp_ckpt_drop(&e->r, MD1_UUID), 0);
	assert_int_equal(mdp_ckpt_load(&e->r, &a, &c, &e->d), -ENOENT);
	assert_int_equal(mdp_ckpt_drop(&e->r, MD1_UUID), 0);
}

static bool said(struct env *e, const char *part)
{
	for (size_t i = 0; i < e->d.n; i++)
		if (strstr(e->d.v[i].msg, part))
			return true;
	return false;
}

/* Another array's place, or one taken before the array changed: refused with a word. */
static void test_ckpt_refused(void **state)
{
	struct env *e = *state;
	struct mdp_mckpt c;
	struct mdp_array a;

	array_of(&a, "md1", "check");
	assert_int_equal(mdp_mckpt_take(&a, NOW, &c), 0);
	assert_int_equal(mdp_ckpt_save(&e->r, &c, &e->d), 0);
	a.raid_disks = 6; /* grown since */
	assert_int_equal(mdp_ckpt_load(&e->r, &a, &c, &e->d), -ESTALE);
	assert_true(said(e, "md1's check does not resume from this place: md1 has changed since "
			    "(4 raid disks then, 6 now)"));
	test_sh("cd '%s/var/lib/mdprofile/checkpoint' && cp " MD1_UUID
		" 0123456789abcdef0123456789abcdef",
		e->root);
	snprintf(a.uuid, sizeof(a.uuid), "0123456789abcdef0123456789abcdef");
	a.raid_disks = 4;
	assert_int_equal(mdp_ckpt_load(&e->r, &a, &c, &e->d), -ESTALE);
	assert_true(said(e, "it is another array's (UUID " MD1_UUID ")"));
	test_sh("cd '%s/var/lib/mdprofile/checkpoint' && echo junk >> " MD1_UUID, e->root);
	array_of(&a, "md1", "idle");
	assert_int_equal(mdp_ckpt_load(&e->r, &a, &c, &e->d), -EBADMSG);
	assert_true(said(e, "not a checkpoint mdprofile wrote: line 11: expected the end"));
}

/* A place others could have written steers nothing. */
static void test_ckpt_untrusted(void **state)
{
	struct env *e = *state;
	struct mdp_mckpt c;
	struct mdp_array a;

	array_of(&a, "md1", "check");
	assert_int_equal(mdp_mckpt_take(&a, NOW, &c), 0);
	assert_int_equal(mdp_ckpt_save(&e->r, &c, &e->d), 0);
	test_sh("chmod 0666 '%s/var/lib/mdprofile/checkpoint/" MD1_UUID "'", e->root);
	assert_int_equal(mdp_ckpt_load(&e->r, &a, &c, &e->d), -EPERM);
	assert_true(said(e, "refusing the checkpoint: writable by group or others"));
	test_sh("chmod 0600 '%s/var/lib/mdprofile/checkpoint/" MD1_UUID "' &&"
		" chmod 0777 '%s/var/lib/mdprofile/checkpoint'",
		e->root, e->root);
	assert_int_equal(mdp_ckpt_load(&e->r, &a, &c, &e->d), -EPERM);
	assert_true(said(e, "refusing the checkpoint directory"));
}

MDP_TEST_MAIN_FX(NULL, setup, teardown, test_ckpt_after_reboot, test_ckpt_refused,
		 test_ckpt_untrusted, test_pause_resume, test_pause_why, test_resume_writes_place,
		 test_crash_before_idle, test_recover_resumes, test_recover_keeps_live_watchers,
		 test_revert_resumes, test_watchers_revert_keeps, test_revert_forgets,
		 test_release_other_running, test_stale_boot, test_parse, test_dsm_in_place)
