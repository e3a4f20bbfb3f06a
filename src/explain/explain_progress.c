/*
 * explain's progress family: what the operation's progress says and what it
 * waits on (explain_int.h). The window's own notes (a start between the
 * samples, md's average standing in for the progress, a position that moves
 * in coarse steps), waiting (queued, held, frozen, parked at sync_max),
 * stuck, finishing, the reshape's method, chunks a bitmap skips and the
 * closing notes; and the measure of the progress itself, which the driver
 * takes before any rule runs.
 */
#include <stdio.h>
#include <string.h>

#include "explain_int.h"
#include "mdp_base.h"

#define FINISH_S   1800 /* less than 30 min left: not worth tuning */
#define SKIP_RATIO 2.0  /* progress this far above md's own speed: chunks skipped */

/* md/sync_completed "done / total" (sectors): the done figure; false for "none", "delayed". */
static bool sc_done(const char *sc, uint64_t *done)
{
	const char *end;

	return !mdp_num_lead(sc, SIZE_MAX, done, &end) && !strncmp(end, " / ", 3);
}

/* The window's progress (a measure the driver takes first): speed, its source, a stall, chunks
 * skipped, the ETA. */
void mdp_xprogress(struct mdp_xctx *c)
{
	const struct mdp_xarray *a0 = c->a0, *a1 = c->a1;
	struct mdp_xreport *r = c->r;

	if (a1->have_progress) {
		r->done_kib = a1->done_kib;
		r->total_kib = a1->total_kib;
	}
	/* Progress that jumps past the array's size, or faster than any array, is no figure. */
	if (a0->have_progress && a1->have_progress && a0->total_kib == a1->total_kib &&
	    a1->done_kib > a0->done_kib && a1->done_kib - a0->done_kib <= a1->total_kib &&
	    running(a0) && (double)(a1->done_kib - a0->done_kib) / c->dt <= SPEED_BOUND) {
		c->speed = (double)(a1->done_kib - a0->done_kib) / c->dt;
		r->speed_src = MDP_XS_MDSTAT;
	} else if (a1->sync_speed >= 0 && (double)a1->sync_speed <= SPEED_BOUND) {
		c->speed = (double)a1->sync_speed;
		r->speed_src = MDP_XS_MD;
	}
	/* no progress: mdstat's position and md/sync_completed (where it reads "a / b") both
	 * unchanged; md's sync_speed decays for 30 s and is no test of it */
	if (running(a0) && running(a1) && a0->have_progress && a1->have_progress &&
	    a0->total_kib == a1->total_kib && a0->done_kib == a1->done_kib) {
		uint64_t s0, s1;
		c->stalled = !sc_done(a0->sync_completed, &s0) ||
			     !sc_done(a1->sync_completed, &s1) || s0 == s1;
	}
	/* a bitmap lets md skip clean chunks: they count in the progress, not in md's speed */
	c->skipping = r->speed_src == MDP_XS_MDSTAT && a1->bitmap[0] &&
		      strcmp(a1->bitmap, "none") && a1->sync_speed >= 0 &&
		      c->speed > SKIP_RATIO * (double)a1->sync_speed + 1000;
	r->speed_kib = kib_of(c->speed + 0.5);
	if (c->speed >= 1 && r->total_kib > r->done_kib && !c->stalled)
		r->eta_s = kib_of((double)(r->total_kib - r->done_kib) / c->speed);
}

/* What the window itself says about the speed's source. */
bool mdp_xr_window(struct mdp_xctx *c)
{
	struct mdp_xfinding *f = NULL;

	if (running(c->a1) && !running(c->a0)) {
		f = mdp_xadd(c->r, MDP_XK_INFO);
		mdp_xev(f, "the %s started between the samples: the speed is md's own 30 s average",
			noun(c->a1->action));
		mdp_xrec(f, MDP_XR_NONE, NULL, NULL, "none");
	}
	if (c->r->speed_src == MDP_XS_MD && running(c->a0) && c->a1->have_progress) {
		f = mdp_xadd(c->r, MDP_XK_INFO);
		mdp_xev(f,
			"/proc/mdstat progress did not move in %.0f s; speed from md/sync_speed "
			"(md's 30 s average)",
			c->dt);
		mdp_xrec(f, MDP_XR_NONE, NULL, NULL, "none");
	}
	return f != NULL;
}

/*
 * A position that did not move while the members did sync I/O is coarse, not stuck: a
 * reshape steps a chunk (times the data disks) at a time, so a slow one can sit on one
 * mdstat figure for longer than the window. The members' own traffic beyond what the md
 * device's users explain (their writes cost up to 4x on parity arrays) says md works.
 */
bool mdp_xr_moving(struct mdp_xctx *c)
{
	struct mdp_xfinding *f;
	double per;

	if (!c->stalled || !c->foreign_known || !c->n)
		return false;
	per = c->sync_kib / (double)c->n;
	if (per < 4 * c->md_kib / (double)c->n + 64)
		return false;
	c->stalled = false;
	if (c->speed >= 1 && c->r->total_kib > c->r->done_kib)
		c->r->eta_s = kib_of((double)(c->r->total_kib - c->r->done_kib) / c->speed);
	f = mdp_xadd(c->r, MDP_XK_INFO);
	mdp_xev(
	    f,
	    "the position did not move in %.0f s, but the members did %.0f KiB/s of I/O each: md "
	    "is working, its position moves in coarse steps",
	    c->dt, per);
	mdp_xrec(f, MDP_XR_NONE, NULL, NULL, "none");
	return true;
}

/* Another array running on the same disks (for DELAYED). */
static const struct mdp_xarray *sharing(const struct mdp_xsample *s, const struct mdp_xarray *a)
{
	for (size_t i = 0; i < s->n_arrays; i++) {
		const struct mdp_xarray *o = &s->arrays[i];
		if (o == a || !running(o) || o->queued[0])
			continue;
		for (size_t j = 0; j < o->n_members; j++)
			for (size_t k = 0; k < a->n_members; k++)
				if (!strcmp(o->members[j].disk, a->members[k].disk))
					return o;
	}
	return NULL;
}

/* md/reshape_position holds a sector: a reshape stands unfinished there. */
static bool reshape_pending(const struct mdp_xarray *a)
{
	uint64_t pos;

	return !mdp_num_parse(a->reshape_position, 0, UINT64_MAX, &pos);
}

bool mdp_explain_reshape_held(const struct mdp_xarray *a)
{
	return (!a->action[0] || !strcmp(a->action, "idle")) && !a->queued[0] && reshape_pending(a);
}

/*
 * What resuming an unfinished reshape can do and the check before it (issue 51, h23: a
 * reshape cut off and hung, assembled read-only; the thread said to keep it read-only, and a
 * bare 'mdadm --readwrite' would have started the hang again).
 */
static void resume_harm(struct mdp_xfinding *f)
{
	mdp_xev(f, "harm: whatever cut the reshape off (a hang, a failing member) may stop it "
		   "again once resumed, halfway through its new layout; a member lost then can "
		   "cost the data");
	mdp_xev(f, "harm check: each member healthy (SMART, md/dev-*/errors, dmesg) and the "
		   "--backup-file it was started with, if any, at hand; if it hung before, copy "
		   "the data off first");
}

/* A read-only array with an unfinished reshape: its first write resumes the reshape. */
static void resume_advice(const struct mdp_xctx *c, struct mdp_xfinding *f)
{
	const struct mdp_xarray *a = c->a1;

	mdp_xev(f,
		"md/reshape_position %s: a reshape stands unfinished; the first write, or 'mdadm "
		"--readwrite /dev/%s', resumes it",
		a->reshape_position, a->name);
	resume_harm(f);
	if (!strcmp(a->array_state, "read-auto"))
		mdp_xev(
		    f,
		    "to copy it off without a write: 'mdadm --readonly /dev/%s' first (read-auto "
		    "turns writable at the first write, even a read-only mount's journal "
		    "replay; readonly refuses writes), then mount read-only without log replay "
		    "(ext4 -o ro,noload; XFS -o ro,norecovery)",
		    a->name);
	else
		mdp_xev(f, "to copy it off: mount read-only without log replay (ext4 -o ro,noload; "
			   "XFS -o ro,norecovery)");
	mdp_xrec(f, MDP_XR_NONE, NULL, NULL,
		 "none: keep it read-only (a read-write mount writes) until the harm check "
		 "passes; then 'mdadm --readwrite /dev/%s' resumes it",
		 a->name);
}

/* A reshape md holds (mdp_explain_reshape_held): what resumes it. */
static bool held_reshape(struct mdp_xctx *c)
{
	const struct mdp_xarray *a = c->a1;
	bool ro = !strcmp(a->array_state, "read-auto") || !strcmp(a->array_state, "readonly");
	struct mdp_xfinding *f = mdp_xadd(c->r, MDP_XK_WAITING);

	if (ro) {
		mdp_xev(f,
			"md/sync_action idle, md/array_state %s: md resumes a reshape only "
			"once the array is writable",
			a->array_state);
		resume_advice(c, f);
		return true;
	}
	mdp_xev(f, "md/reshape_position %s: a reshape stands there unfinished; md/sync_action idle",
		a->reshape_position);
	mdp_xev(f, "md/array_state %s", a->array_state[0] ? a->array_state : "unread");
	resume_harm(f);
	mdp_xrec(f, MDP_XR_NONE, NULL, NULL,
		 "none until the harm check passes; then mdadm must continue it ('mdadm --grow "
		 "--continue /dev/%s', with the --backup-file it was started with, if any)",
		 a->name);
	return true;
}

/* resync=PENDING: md starts it at the first write; with a reshape standing unfinished the
 * first write resumes that too (resume_advice). */
static bool pending(struct mdp_xctx *c)
{
	const struct mdp_xarray *a = c->a1;
	struct mdp_xfinding *f = mdp_xadd(c->r, MDP_XK_WAITING);

	mdp_xev(f, "/proc/mdstat: resync=PENDING, array_state %s",
		a->array_state[0] ? a->array_state : "unread");
	if (reshape_pending(a)) {
		resume_advice(c, f);
		return true;
	}
	mdp_xrec(f, MDP_XR_NONE, NULL, NULL,
		 "none: md starts it at the first write ('mdadm --readwrite /dev/%s' starts it "
		 "now)",
		 a->name);
	return true;
}

/* waiting: queued behind another array, pending, held, frozen, or parked at md/sync_max. */
bool mdp_xr_waiting(struct mdp_xctx *c)
{
	const struct mdp_xarray *a = c->a1;
	struct mdp_xfinding *f;
	uint64_t smax;

	if (!strcmp(a->queued, "DELAYED") || !strcmp(a->sync_completed, "delayed")) {
		const struct mdp_xarray *o = sharing(c->s1, a);
		f = mdp_xadd(c->r, MDP_XK_WAITING);
		mdp_xev(f, "/proc/mdstat: resync=DELAYED");
		if (o)
			mdp_xev(
			    f,
			    "%s runs a %s on the same disks; md syncs arrays that share disks one "
			    "after the other",
			    o->name, noun(o->action));
		mdp_xrec(f, MDP_XR_NONE, NULL, NULL, "none: it starts when %s finishes",
			 o ? o->name : "the other array");
		return true;
	}
	if (!strcmp(a->queued, "PENDING"))
		return pending(c);
	if (mdp_explain_reshape_held(a))
		return held_reshape(c);
	if (!strcmp(a->action, "frozen")) {
		f = mdp_xadd(c->r, MDP_XK_WAITING);
		mdp_xev(f, "md/sync_action: frozen");
		mdp_xrec(f, MDP_XR_NONE, NULL, NULL,
			 "none: something froze it on purpose (mdadm, a user)");
		return true;
	}
	if (running(a) && (c->speed == 0 || c->stalled) && a->have_progress &&
	    strcmp(a->sync_max, "max") && !mdp_num_parse(a->sync_max, 0, UINT64_MAX, &smax) &&
	    a->done_kib * 2 + 1024 >= smax) {
		f = mdp_xadd(c->r, MDP_XK_WAITING);
		mdp_xev(f, "md/sync_max: %s sectors, progress %llu sectors: parked at the limit",
			a->sync_max, (unsigned long long)a->done_kib * 2);
		if (a->backup_file || a->suspend_hi > 0) {
			mdp_xev(f, "a reshape through a backup file moves sync_max itself");
			mdp_xrec(f, MDP_XR_NONE, NULL, NULL, "none: mdadm steps it");
		} else {
			char n[64];
			snprintf(n, sizeof(n), "%s/sync_max", a->name);
			mdp_xev(
			    f, "trade-off: the rest then runs at once, while users may be working; "
			       "mdcheck parks a scrub here to run it in slices at quiet hours "
			       "('mdcheck --continue' then)");
			mdp_xrec(
			    f, MDP_XR_SETTING, n, "max",
			    "echo max > /sys/block/%s/md/sync_max, if nobody set it on purpose "
			    "(mdcheck does)",
			    a->name);
		}
		return true;
	}
	return false;
}

/* Where an md thread sleeps when nothing is wrong: idle (md_thread), paced (msleep, a
 * timeout), or running ("0"). Anywhere else, with no progress, is what md waits on. */
static bool wchan_normal(const char *w)
{
	static const char *const ok[] = {"",
					 "0",
					 "md_thread",
					 "msleep",
					 "schedule_timeout",
					 "schedule_hrtimeout_range",
					 "do_nanosleep"};
	for (size_t i = 0; i < sizeof(ok) / sizeof(ok[0]); i++)
		if (!strcmp(w, ok[i]))
			return true;
	return false;
}

/*
 * No progress in the window (mdstat's position and md/sync_completed both unchanged; md's own
 * sync_speed is a decaying 30 s average and stays above 0 for a while, so it is no test). With
 * an md thread busy or sleeping somewhere unusual, or the array blocked, md is stuck, not slow:
 * nothing mdprofile sets helps, and the report says what to collect.
 */
static bool stuck_finding(struct mdp_xctx *c)
{
	const struct mdp_xarray *a = c->a1;
	struct mdp_xfinding *f = mdp_xadd(c->r, MDP_XK_STUCK);
	const char *busy = NULL;
	bool sign = false;
	int pid = 0;

	mdp_xev(f,
		"no progress in %.0f s: /proc/mdstat position %llu KiB and md/sync_completed (%s) "
		"unchanged; md/sync_speed %lld is md's decaying 30 s average",
		c->dt, (unsigned long long)a->done_kib,
		a->sync_completed[0] ? a->sync_completed : "unread", (long long)a->sync_speed);
	for (size_t i = 0; i < a->n_threads; i++) {
		double sh = mdp_xthread_share(c, i);
		const char *w = a->threads[i].wchan;
		if (sh >= CPU_BUSY || !wchan_normal(w)) {
			sign = true;
			busy = busy ? busy : a->threads[i].comm;
			pid = pid ? pid : a->threads[i].pid;
		}
		if (sh >= 0 || w[0])
			mdp_xev(f, "%s (pid %d): %.0f%% of a CPU, sleeping in %s",
				a->threads[i].comm, a->threads[i].pid, sh >= 0 ? sh * 100 : 0,
				w[0] ? w : "(wchan unread)");
	}
	if (!strcmp(a->array_state, "write-pending") || !strcmp(a->array_state, "broken")) {
		sign = true;
		mdp_xev(f, "md/array_state %s: writes wait for md", a->array_state);
	}
	for (size_t i = 0; i < a->n_members; i++)
		if (a->members[i].bad_blocks > 0) {
			sign = true;
			mdp_xev(f, "md/dev-%s/bad_blocks: %lld entries", a->members[i].name,
				(long long)a->members[i].bad_blocks);
		}
	if (!sign) {
		if (f)
			f->kind = MDP_XK_WAITING;
		mdp_xrec(
		    f, MDP_XR_NONE, NULL, NULL,
		    "none: nothing shows what md waits on; collect the md threads' /proc/PID/wchan "
		    "and /proc/PID/stack (root) and dmesg");
		return true;
	}
	if (pid)
		mdp_xrec(
		    f, MDP_XR_NONE, NULL, NULL,
		    "none: stuck, not slow, and no setting helps; collect /proc/%d/stack (root) "
		    "and "
		    "wchan of %s, and dmesg, and report them with the kernel version",
		    pid, busy);
	else
		mdp_xrec(f, MDP_XR_NONE, NULL, NULL,
			 "none: stuck, not slow, and no setting helps; collect the md threads' "
			 "/proc/PID/stack (root) and wchan, and dmesg");
	return true;
}

/* No progress in the window, md below its maximum (above it md sleeps: the ceiling). */
bool mdp_xr_stuck(struct mdp_xctx *c)
{
	const struct mdp_xarray *a = c->a1;

	if (running(a) && (c->stalled || (c->speed == 0 && c->r->speed_src != MDP_XS_NONE)) &&
	    md_view(c) < CEIL_SHARE * (double)(c->r->max.read ? c->r->max.kib : UINT64_MAX))
		return stuck_finding(c);
	return false;
}

/* A crawl, KiB/s a device: an md thread busy at this speed beside idle members spins. */
#define CRAWL_KIB 5000.0
#define IDLE_UTIL 20.0 /* members under 20 % busy are idle beside a busy md thread */

/* Bad-block entries on members: their evidence; whether there are any. */
static bool bad_block_signs(struct mdp_xctx *c, struct mdp_xfinding **f)
{
	const struct mdp_xarray *a = c->a1;
	size_t n = 0;

	for (size_t i = 0; i < a->n_members; i++) {
		if (a->members[i].bad_blocks <= 0)
			continue;
		*f = *f ? *f : mdp_xadd(c->r, MDP_XK_PATHOLOGY);
		if (n++ < 4)
			mdp_xev(*f, "md/dev-%s/bad_blocks: %lld entries", a->members[i].name,
				(long long)a->members[i].bad_blocks);
	}
	if (n > 4)
		mdp_xev(*f, "... and %zu more members with bad-block entries", n - 4);
	if (n)
		mdp_xrec(*f, MDP_XR_NONE, NULL, NULL,
			 "none: no setting helps; check each member (SMART, mdadm "
			 "--examine-badblocks): the same entries on several members are md's "
			 "record, known to make md crawl or loop");
	return n > 0;
}

/* An md thread at ~100 % of a CPU while the members idle and the sync crawls: md spins. */
static bool spin_signs(struct mdp_xctx *c, struct mdp_xfinding **f, bool said)
{
	const struct mdp_xarray *a = c->a1;
	bool any = false;

	if (!c->util_known || c->util_max >= IDLE_UTIL || !(c->speed < CRAWL_KIB))
		return false;
	for (size_t i = 0; i < a->n_threads; i++) {
		double sh = mdp_xthread_share(c, i);
		if (sh < CPU_BUSY)
			continue;
		*f = *f ? *f : mdp_xadd(c->r, MDP_XK_PATHOLOGY);
		mdp_xev(*f,
			"%s (pid %d): %.0f%% of a CPU while the members are at most %.0f%% busy "
			"and the %s moves %.0f KiB/s",
			a->threads[i].comm, a->threads[i].pid, sh * 100, c->util_max,
			noun(a->action), c->speed);
		any = true;
	}
	if (any && !said)
		mdp_xrec(*f, MDP_XR_NONE, NULL, NULL,
			 "none: md spins, no setting helps; collect /proc/PID/stack (root) of the "
			 "busy thread and dmesg, and report them with the kernel version");
	return any;
}

/* A resync of an array that lacks members: it cannot make the array redundant. */
static bool degraded_signs(struct mdp_xctx *c, struct mdp_xfinding **f, bool said)
{
	const struct mdp_xarray *a = c->a1;

	if (strcmp(a->action, "resync") || a->degraded <= 0)
		return false;
	*f = *f ? *f : mdp_xadd(c->r, MDP_XK_PATHOLOGY);
	mdp_xev(*f,
		"md/degraded %d: a resync of an array that lacks %d member%s cannot make it "
		"fully redundant; the missing disk needs a recovery after it",
		a->degraded, a->degraded, a->degraded > 1 ? "s" : "");
	if (!said)
		mdp_xrec(*f, MDP_XR_NONE, NULL, NULL,
			 "none: add the missing disk; re-creating with --assume-clean skips the "
			 "resync but writes new superblocks over the members: only for a new "
			 "array with nothing on it yet, and its parity stays unchecked until "
			 "written");
	return true;
}

/*
 * pathology: signs that md is in trouble, read whatever the progress (issue 51: a crawl is
 * not a stall, and `stuck` reads them only when nothing moves): bad-block entries on members,
 * an md thread at 90 % of a CPU beside idle members while the sync crawls, a resync of a
 * degraded array. Ranked above the method, the limits and CPU: nothing to tune until it is
 * dealt with (withdraw-for-pathology).
 */
bool mdp_xr_pathology(struct mdp_xctx *c)
{
	struct mdp_xfinding *f = NULL;
	bool said;

	if (!running(c->a1))
		return false;
	said = bad_block_signs(c, &f);
	said |= degraded_signs(c, &f, said);
	said |= spin_signs(c, &f, said);
	return said;
}

/*
 * Less than 30 minutes left, but md's own thread is CPU-bound on a parity array of fast
 * members (mdp_xcpu_groups): group_thread_cnt takes effect at once, so it is worth offering
 * unless the operation ends within two windows (issue 51: an NVMe recovery said "finishing"
 * and nothing else).
 */
static bool groups_near_end(const struct mdp_xctx *c)
{
	return (double)c->r->eta_s > 2 * c->dt && mdp_xcpu_groups(c);
}

/* finishing: less than 30 minutes left at the measured speed. */
bool mdp_xr_finishing(struct mdp_xctx *c)
{
	bool groups = groups_near_end(c);
	struct mdp_xfinding *f;

	if (!c->r->eta_s || c->r->eta_s >= FINISH_S)
		return false;
	f = mdp_xadd(c->r, groups ? MDP_XK_INFO : MDP_XK_FINISHING);
	mdp_xev(f, "%llu KiB per disk left at %.0f KiB/s: about %llu min",
		(unsigned long long)(c->r->total_kib - c->r->done_kib), c->speed,
		(unsigned long long)(c->r->eta_s + 59) / 60);
	if (groups)
		mdp_xrec(f, MDP_XR_NONE, NULL, NULL,
			 "none for the limits: not worth tuning; but md's thread is the limit and "
			 "group_thread_cnt takes effect at once (the cpu finding)");
	else
		mdp_xrec(f, MDP_XR_NONE, NULL, NULL, "none: not worth tuning");
	return true;
}

/* The maximum binds (md's own speed at 90 % of it) and the disks have room: the ceiling's
 * case, which no method finding withdraws (issue 51: 77 KiB/s under an own maximum of 80). */
static bool own_max_binds(const struct mdp_xctx *c)
{
	return c->r->max.read && md_view(c) >= CEIL_SHARE * (double)c->r->max.kib &&
	       (!c->util_known || c->util_max < UTIL_FREE);
}

/* reshape-method: a reshape through a backup file, stepped by mdadm; one that moves the data
 * offset needs no copy (an info line). */
bool mdp_xr_reshape(struct mdp_xctx *c)
{
	const struct mdp_xarray *a = c->a1;
	struct mdp_xfinding *f;
	bool moved = false, same = false;

	if (strcmp(a->action, "reshape"))
		return false;
	for (size_t i = 0; i < a->n_members; i++) {
		if (a->members[i].offset < 0 || a->members[i].new_offset < 0)
			continue;
		if (a->members[i].offset != a->members[i].new_offset)
			moved = true;
		else
			same = true;
	}
	/* mdadm's link outlives a killed mdadm: a moving data offset says the reshape needs
	 * no copy, whatever /run still holds; stepping (suspend_hi) is seen in md itself */
	if ((a->suspend_hi > 0 || (a->backup_file && !moved)) && own_max_binds(c)) {
		f = mdp_xadd(c->r, MDP_XK_INFO);
		mdp_xev(f,
			"the reshape goes through a backup file, but md's maximum (%llu KiB/s, %s) "
			"binds first: a backup copy runs at megabytes a second",
			(unsigned long long)c->r->max.kib, c->r->max.local ? "local" : "system");
		mdp_xrec(f, MDP_XR_NONE, NULL, NULL, "none");
		return false;
	}
	if (a->suspend_hi > 0 || (a->backup_file && !moved)) {
		f = mdp_xadd(c->r, MDP_XK_RESHAPE_METHOD);
		if (a->backup_file)
			mdp_xev(
			    f,
			    "/run/mdadm/backup_file-%s: mdadm copies each section to a backup file "
			    "first",
			    a->name);
		if (a->suspend_hi > 0)
			mdp_xev(f, "md/suspend_hi %lld, md/sync_max %s: mdadm steps the reshape",
				(long long)a->suspend_hi, a->sync_max);
		if (same && !moved)
			mdp_xev(f,
				"md/dev-*/new_offset equals offset: the data offset does not move");
		mdp_xrec(
		    f, MDP_XR_NONE, NULL, NULL,
		    "none: the backup copy sets the pace, no limit or cache changes it; next time "
		    "reshape without a backup file (mdadm 3.3+, room for a new data offset)");
		return true;
	}
	if (moved) {
		f = mdp_xadd(c->r, MDP_XK_INFO);
		mdp_xev(
		    f, "md/dev-*/new_offset differs from offset: the reshape moves the data offset "
		       "(no backup copy)");
		if (a->backup_file)
			mdp_xev(
			    f,
			    "/run/mdadm/backup_file-%s is left from an earlier reshape: not in use",
			    a->name);
		mdp_xrec(f, MDP_XR_NONE, NULL, NULL, "none");
	}
	return false;
}

/* Progress far above md's own speed with a bitmap: clean chunks skipped, not speed. */
bool mdp_xr_skipping(struct mdp_xctx *c)
{
	struct mdp_xfinding *f;

	if (!c->skipping)
		return false;
	f = mdp_xadd(c->r, MDP_XK_INFO);
	mdp_xev(
	    f,
	    "progress %.0f KiB/s, md's own speed %lld KiB/s (md/sync_speed) with bitmap %s: md "
	    "skips the chunks the bitmap marks clean, and compares its limits with its own figure",
	    c->speed, (long long)c->a1->sync_speed, c->a1->bitmap);
	mdp_xrec(f, MDP_XR_NONE, NULL, NULL, "none: skipping clean chunks is not slow");
	return true;
}

#define BOOT_S 600 /* an array whose md thread started this long after boot was assembled later */

/* When the array's own thread (mdN_raidX: md starts it when it assembles the array) started,
 * in seconds after boot; -1 unknown. */
static double assembled_s(const struct mdp_xarray *a)
{
	size_t l = strlen(a->name);

	for (size_t i = 0; i < a->n_threads; i++) {
		const struct mdp_xthread *t = &a->threads[i];
		if (!strncmp(t->comm, a->name, l) && !strncmp(t->comm + l, "_raid", 5) &&
		    t->start >= 0)
			return (double)t->start / 100.0; /* USER_HZ */
	}
	return -1;
}

/*
 * A resync without a bitmap covers the whole device; why it runs decides what to say (issue
 * 51). md starts a resync when it assembles an array that was not shut down cleanly, and
 * mdadm --create starts a new array's at once: an array assembled at boot resyncs after an
 * unclean shutdown, one assembled later is most likely new. A delayed operation (mdstat
 * prints resync=DELAYED for a recovery too) gets no note.
 */
static void bitmap_note(struct mdp_xctx *c, struct mdp_xfinding *f)
{
	const struct mdp_xarray *a = c->a1;
	double at = assembled_s(a);

	if (at >= BOOT_S) {
		mdp_xev(
		    f,
		    "md/bitmap/location: none; %s was assembled %.0f min after boot: an initial "
		    "resync of a new array (mdadm --create starts it at once), or of one "
		    "assembled by hand; it covers the whole device",
		    a->name, at / 60);
		mdp_xev(f, "trade-off of --assume-clean: the members are not made consistent: a "
			   "check reports mismatches, and raid4/5/6 may rebuild wrong data where a "
			   "write met stale parity (safe on zeroed disks)");
		mdp_xrec(f, MDP_XR_NONE, NULL, NULL,
			 "none now; a new array can skip its initial resync with mdadm --create "
			 "--assume-clean (see the trade-off)");
		return;
	}
	if (at >= 0)
		mdp_xev(
		    f,
		    "md/bitmap/location: none; %s was assembled %.0f s after boot: this resync "
		    "most likely follows an unclean shutdown (else the array is new); it covers "
		    "the whole device",
		    a->name, at);
	else
		mdp_xev(f, "md/bitmap/location: none; a resync after an unclean shutdown, or a new "
			   "array's initial one, covers the whole device");
	mdp_xev(f, "trade-off of a bitmap: each write first marks its region in it, which costs "
		   "some write speed (less with a larger --bitmap-chunk)");
	mdp_xrec(f, MDP_XR_NONE, NULL, NULL,
		 "none now; with a bitmap (mdadm --grow --bitmap=internal /dev/%s) a resync after "
		 "an unclean shutdown covers only the chunks last written",
		 a->name);
}

/* The closing notes: a resync without a bitmap, the kernel's release unread. */
bool mdp_xr_info(struct mdp_xctx *c)
{
	const struct mdp_xarray *a = c->a1;
	struct mdp_xfinding *f = NULL;

	if (!strcmp(a->action, "resync") && !strcmp(a->bitmap, "none") && !a->queued[0] &&
	    strcmp(a->sync_completed, "delayed")) {
		f = mdp_xadd(c->r, MDP_XK_INFO);
		bitmap_note(c, f);
	}
	if (!c->kver && c->s1->release[0] == '\0') {
		f = mdp_xadd(c->r, MDP_XK_INFO);
		mdp_xev(f, "kernel release unreadable: the pacing rule is not known");
		mdp_xrec(f, MDP_XR_NONE, NULL, NULL, "none");
	}
	return f != NULL;
}

/* A sign of trouble in md: nothing is worth tuning until it is dealt with. */
bool mdp_xw_pathology(struct mdp_xctx *c)
{
	return mdp_xwithdraw(c->r, MDP_XK_PATHOLOGY, false,
			     "none while md shows a sign of trouble (the first finding)");
}

/* Less than 30 minutes left: nothing is worth tuning; the other findings stay as evidence.
 * Near the end of a CPU-bound parity sync on fast members the cpu finding's
 * group_thread_cnt stays (groups_near_end); the rest goes. */
bool mdp_xw_finishing(struct mdp_xctx *c)
{
	const char *why = "none: less than 30 minutes left, not worth tuning";
	struct mdp_xreport *r = c->r;

	if (!r->eta_s || r->eta_s >= FINISH_S || !groups_near_end(c))
		return mdp_xwithdraw(r, MDP_XK_FINISHING, false, why);
	for (size_t i = 0; i < r->n_findings; i++) {
		struct mdp_xfinding *f = &r->findings[i];
		if (f->rec == MDP_XR_NONE || f->kind == MDP_XK_CPU)
			continue;
		mdp_xrec(f, MDP_XR_NONE, NULL, NULL, "%s", why);
		mdp_xgain(f, MDP_XG_UNKNOWN, 0);
	}
	return true;
}

/* A reshape through a backup file: the copy sets the pace, whatever else binds. */
bool mdp_xw_reshape(struct mdp_xctx *c)
{
	return mdp_xwithdraw(c->r, MDP_XK_RESHAPE_METHOD, false,
			     "none: the backup copy sets the reshape's pace, not this");
}
