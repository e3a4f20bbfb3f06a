/*
 * journal: the on-disk record of a transaction, and the lock.
 *
 * Text, one record per line, so an admin can read it in a pinch:
 *
 *   mdprofile-journal 1
 *   state applying|active|reverting
 *   boot_id 5d1c...
 *   profile "reshape-fast"
 *   path "/usr/share/mdprofile/profiles/reshape-fast.yaml"
 *   until-idle                      (only from apply --until-idle)
 *   compare                         (only from bench --compare)
 *   base stripe_cache_size md2 "256"
 *   svc synoindexd paused|resumed|pausing PGID [start TICKS boot ID] [timeout SECONDS]
 *   set stripe_cache_size md2 4096
 *   speed md2 reshape 4687           (KiB/s of an operation running at apply)
 *   end
 *
 * Every field that comes from outside (the profile's name and path, the
 * values read) is quoted and escaped, so no text can start a line of its
 * own; service names and device names follow strict character rules and
 * are checked again when read. A value read back is checked against the
 * tunable registry (it must parse and be in range) before revert may
 * write it: a tampered journal cannot make mdprofile write what apply
 * never would.
 *
 * "pausing PGID start TICKS boot ID": the process group of the tool that
 * was pausing the service, and who led it: the leader's start time
 * (/proc/PGID/stat field 22) and the host's boot id (the host's even
 * under --root: the process is). recover waits for and kills that group
 * only while its leader is still that process; without "start" (an
 * earlier version) it never does.
 *
 * A "svc" line ends with "timeout SECONDS" when the profile entry has its
 * own timeout (1..3600): resume uses it, and recover waits that long for
 * a "pausing" tool. A journal without it (an earlier version) means the
 * default.
 *
 * "speed DEV ACTION KIB_S": md/sync_speed of each operation running when
 * the top layer was applied, so status can show what it changed. Only
 * shown, never acted on; a journal without them (an earlier version, or no
 * operation running) is complete.
 *
 * "base" lines are baselines (values before mdprofile first changed the
 * target this boot), in the order they were first changed; "set" lines are
 * what the active profile asked for, so drift is measured against what was
 * applied, not against the profile file as it reads now. "end" marks a
 * complete record; the file is only ever replaced atomically (root.c's
 * mdp_root_replace), so a torn journal is not expected, but a missing
 * "end" is treated as unreadable rather than trusted.
 */
#include "journal.h"
#include "mdp_base.h"
#include "mdp_profile.h"
#include "services.h"
#include "txn_int.h"
#include "services_int.h"

#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

static const char *const state_names[] = {
    [MDP_J_NONE] = "none",
    [MDP_J_APPLYING] = "applying",
    [MDP_J_ACTIVE] = "active",
    [MDP_J_REVERTING] = "reverting",
};

static const char *const origin_names[] = {
    [MDP_BY_HAND] = "hand",
    [MDP_BY_BOOT] = "boot",
    [MDP_BY_ENABLE] = "enable",
    [MDP_BY_AUTO] = "auto",
    [MDP_BY_UNTIL_IDLE] = "until-idle",
    [MDP_BY_COMPARE] = "compare",
    [MDP_BY_PROBE] = "probe",
};

const char *mdp_origin_name(enum mdp_origin o)
{
	return o < MDP_BY_COUNT ? origin_names[o] : "?";
}

int mdp_origin_parse(const char *s, enum mdp_origin *o)
{
	for (int i = 0; i < MDP_BY_COUNT; i++)
		if (!strcmp(s, origin_names[i])) {
			*o = (enum mdp_origin)i;
			return 0;
		}
	return -EINVAL;
}

/* ---- trust ------------------------------------------------------------------ */

/*
 * The state directory, the journal and the lock steer what mdprofile does
 * as root: which values revert writes, which services it starts, which
 * process group it waits for, whether another mdprofile runs. Like
 * profiles and tools, each must be owned by root or the caller and
 * writable by nobody else; fd is the one that is then used (or, for the
 * directory, an O_PATH one: nothing can swap it for a link after).
 */
int txn_trust_check(const struct mdp_root *r, int fd, const char *sys, bool dir, const char *what,
		    struct mdp_diags *d)
{
	char host[PATH_MAX];
	struct stat st;

	if (fstat(fd, &st))
		return -errno;
	if (mdp_root_path(r, sys, host, sizeof(host)))
		snprintf(host, sizeof(host), "%s", sys);
	if (dir ? !S_ISDIR(st.st_mode) : !S_ISREG(st.st_mode))
		mdp_diags_add(d, host, 0, 0, "refusing the %s: not a %s; remove it", what,
			      dir ? "directory" : "regular file");
	else if (st.st_uid != 0 && st.st_uid != geteuid())
		mdp_diags_add(d, host, 0, 0,
			      "refusing the %s: owned by uid %u, not root; check it, then run "
			      "'chown root %s'",
			      what, (unsigned)st.st_uid, host);
	else if (st.st_mode & 022)
		mdp_diags_add(d, host, 0, 0,
			      "refusing the %s: writable by group or others (mode %04o); check it, "
			      "then run 'chmod %s %s'",
			      what, (unsigned)(st.st_mode & 07777), dir ? "0700" : "0600", host);
	else
		return 0;
	return -EPERM;
}

static int state_check(const struct mdp_root *r, int fd, const char *sys, struct mdp_diags *d)
{
	bool dir = !strcmp(sys, MDP_STATE_DIR);

	return txn_trust_check(r, fd, sys, dir,
			       dir                        ? "state directory"
			       : !strcmp(sys, MDP_LOCK)   ? "lock"
			       : !strcmp(sys, MDP_PAUSED) ? "pause journal"
							  : "journal",
			       d);
}

/*
 * The state directory, when there is one: -ENOENT, -EPERM (d says why), 0.
 * A link to it is followed (only who can write /run could have made it;
 * under --root it stays in the tree): what it leads to is checked.
 */
static int state_dir_check(const struct mdp_root *r, struct mdp_diags *d)
{
	int fd = mdp_root_open(r, MDP_STATE_DIR, O_PATH | O_DIRECTORY, 0), err;

	if (fd == -ENOTDIR)
		fd = mdp_root_open(r, MDP_STATE_DIR, O_PATH, 0);
	if (fd < 0)
		return fd;
	err = state_check(r, fd, MDP_STATE_DIR, d);
	close(fd);
	return err;
}

/* ---- lock ------------------------------------------------------------------ */

static long lock_holder(int fd)
{
	char buf[32] = "";
	ssize_t n = pread(fd, buf, sizeof(buf) - 1, 0);
	uint64_t v;

	if (n <= 0)
		return 0;
	buf[n] = '\0';
	return mdp_num_lead(buf, (size_t)n, &v, NULL) || v > INT32_MAX ? 0 : (long)v;
}

static int lock_take(const struct mdp_root *r, const char *path, bool wait, struct mdp_lock *l,
		     long *holder, struct mdp_diags *d)
{
	char pid[32];
	int fd, err, n;

	if ((err = mdp_root_mkdir_p(r, MDP_STATE_DIR, 0700)) || (err = state_dir_check(r, d)))
		return err;
	fd = mdp_root_open(r, path, O_RDWR | O_CREAT | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC, 0600);
	if (fd < 0)
		return fd;
	if ((err = state_check(r, fd, path, d))) {
		close(fd);
		return err;
	}
	while (flock(fd, LOCK_EX | (wait ? 0 : LOCK_NB))) {
		if (errno == EINTR)
			continue;
		err = errno == EWOULDBLOCK ? -EWOULDBLOCK : -errno;
		if (holder)
			*holder = lock_holder(fd);
		close(fd);
		return err;
	}
	/* The pid is only a hint for the message a second mdprofile prints. */
	n = snprintf(pid, sizeof(pid), "%ld\n", (long)getpid());
	if (ftruncate(fd, 0) == 0 && pwrite(fd, pid, (size_t)n, 0) < 0)
		(void)0;
	l->fd = fd;
	return 0;
}

int mdp_lock_take(const struct mdp_root *r, bool wait, struct mdp_lock *l, long *holder,
		  struct mdp_diags *d)
{
	return lock_take(r, MDP_LOCK, wait, l, holder, d);
}

int mdp_watcher_take(const struct mdp_root *r, struct mdp_lock *l, long *holder,
		     struct mdp_diags *d)
{
	return lock_take(r, MDP_WATCHER_LOCK, false, l, holder, d);
}

int mdp_lock_seen(const struct mdp_root *r, const char *path, char *buf, size_t cap)
{
	int fd =
	    mdp_root_open(r, path, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_NOCTTY | O_CLOEXEC, 0);
	int held = 0;
	ssize_t n;

	if (cap)
		buf[0] = '\0';
	if (fd == -ENOENT)
		return 0;
	if (fd < 0)
		return fd;
	/* Shared and let go at once: a taker meets it only in this instant. */
	while (flock(fd, LOCK_SH | LOCK_NB)) {
		if (errno == EINTR)
			continue;
		held = errno == EWOULDBLOCK ? 1 : -errno;
		break;
	}
	if (!held)
		flock(fd, LOCK_UN);
	if (cap && (n = pread(fd, buf, cap - 1, 0)) > 0)
		buf[n] = '\0';
	close(fd);
	return held;
}

int mdp_watcher_keep(const struct mdp_root *r, struct mdp_lock *l, long *holder)
{
	struct mdp_lock again = {-1};
	struct mdp_diags d;
	struct stat held, now;
	int fd, err;

	if (l->fd < 0 || fstat(l->fd, &held))
		return -EBADF;
	fd = mdp_root_open(r, MDP_WATCHER_LOCK, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC, 0);
	if (fd >= 0) {
		err = fstat(fd, &now) ? -errno : 0;
		close(fd);
		if (!err && now.st_dev == held.st_dev && now.st_ino == held.st_ino)
			return 0;
	}
	/* Removed or replaced: this watcher's lock is no one's to see. Take the path's. */
	mdp_diags_init(&d);
	err = lock_take(r, MDP_WATCHER_LOCK, false, &again, holder, &d);
	mdp_diags_free(&d);
	if (err)
		return err;
	mdp_lock_release(l);
	l->fd = again.fd;
	return 1;
}

int mdp_watcher_probe(const struct mdp_root *r)
{
	return mdp_lock_seen(r, MDP_WATCHER_LOCK, NULL, 0);
}

void mdp_lock_release(struct mdp_lock *l)
{
	if (l->fd > 0) {
		/* Leave the file: unlinking it would race with a waiter's open. */
		if (ftruncate(l->fd, 0))
			(void)0;
		close(l->fd);
	}
	l->fd = -1;
}

/* ---- format ---------------------------------------------------------------- */

static void put_escaped(FILE *f, const char *s)
{
	fputc('"', f);
	for (; *s; s++) {
		unsigned char c = (unsigned char)*s;
		if (c == '\n')
			fputs("\\n", f);
		else if (c == '"' || c == '\\')
			fprintf(f, "\\%c", c);
		else if (c < 0x20 || c >= 0x7f)
			fprintf(f, "\\x%02x", c);
		else
			fputc(c, f);
	}
	fputc('"', f);
}

/* A boot id as the kernel writes it (a UUID): nothing else goes into a line. */
static bool boot_ok(const char *s)
{
	size_t n = strlen(s);

	return n >= 8 && n < sizeof(((struct mdp_jservice *)0)->boot) &&
	       strspn(s, "0123456789abcdef-") == n;
}

/* A speed line's device and action: what the parser takes back, nothing else is written. */
static bool speed_ok(const char *dev, const char *action)
{
	size_t n = strlen(action);

	return mdp_ident_dev_ok(dev) && strlen(dev) < MDP_NAME_MAX && n &&
	       n < sizeof(((struct mdp_op_speed *)0)->action) &&
	       strspn(action, "abcdefghijklmnopqrstuvwxyz_") == n;
}

static void put_sets(FILE *f, const char *word, const struct mdp_jset *v, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		const struct mdp_jset *st = &v[i];
		fprintf(f, "%s %s %s ", word, mdp_tunable_info(st->t)->key,
			st->dev[0] ? st->dev : "-");
		if (st->want.kind == MDP_V_SYSTEM)
			fputs("system\n", f);
		else
			fprintf(f, "%" PRIu64 "\n", st->want.num);
	}
}

/* Serialize j; *out is malloc'd. */
int mdp_journal_format(const struct mdp_journal *j, char **out, size_t *len)
{
	FILE *f = open_memstream(out, len);

	if (!f)
		return -ENOMEM;
	fprintf(f, "mdprofile-journal 1\nstate %s\nboot_id %s\nprofile ", state_names[j->state],
		j->boot_id[0] ? j->boot_id : "-");
	put_escaped(f, j->profile);
	fputs("\npath ", f);
	put_escaped(f, j->profile_path);
	fprintf(f, "\nby %s\n", mdp_origin_name(j->by));
	if (j->since > 0)
		fprintf(f, "since %" PRId64 "\n", j->since);
	if (j->has_under) {
		fputs("under ", f);
		put_escaped(f, j->under.profile);
		fputs("\nunder-path ", f);
		put_escaped(f, j->under.path);
		fprintf(f, "\nunder-by %s\n", mdp_origin_name(j->under.by));
		if (j->under.since > 0)
			fprintf(f, "under-since %" PRId64 "\n", j->under.since);
	}
	for (size_t i = 0; i < j->n_base; i++) {
		const struct mdp_jtarget *b = &j->base[i];
		fprintf(f, "base %s %s ", mdp_tunable_info(b->t)->key, b->dev[0] ? b->dev : "-");
		put_escaped(f, b->raw);
		fputc('\n', f);
	}
	for (size_t i = 0; i < j->n_svc; i++) {
		const struct mdp_jservice *sv = &j->svc[i];
		if (sv->paused && !sv->settled) {
			fprintf(f, "svc %s pausing %ld", sv->name, sv->pgid);
			if (sv->start && boot_ok(sv->boot))
				fprintf(f, " start %" PRIu64 " boot %s", sv->start, sv->boot);
		} else
			fprintf(f, "svc %s %s", sv->name, sv->paused ? "paused" : "resumed");
		if (sv->timeout_s)
			fprintf(f, " timeout %u", sv->timeout_s);
		if (sv->under && sv->paused)
			fputs(" under", f);
		fputc('\n', f);
	}
	put_sets(f, "set", j->set, j->n_set);
	if (j->has_under)
		put_sets(f, "under-set", j->uset, j->n_uset);
	for (size_t i = 0; i < j->n_speed; i++)
		if (speed_ok(j->speed[i].dev, j->speed[i].action))
			fprintf(f, "speed %s %s %" PRIu64 "\n", j->speed[i].dev, j->speed[i].action,
				j->speed[i].kib_s);
	fputs("end\n", f);
	if (fclose(f))
		return -ENOMEM;
	return 0;
}

static int unescape(const char *s, char *out, size_t cap)
{
	size_t n = 0;

	if (*s++ != '"')
		return -EINVAL;
	for (; *s && *s != '"'; s++) {
		char c = *s;
		if (c == '\\') {
			s++;
			if (*s == 'n')
				c = '\n';
			else if (*s == '"' || *s == '\\')
				c = *s;
			else if (*s == 'x' && s[1] && s[2]) {
				char hex[3] = {s[1], s[2], 0}, *end;
				c = (char)strtol(hex, &end, 16);
				if (*end)
					return -EINVAL;
				s += 2;
			} else
				return -EINVAL;
		}
		if (n + 1 >= cap)
			return -EINVAL;
		out[n++] = c;
	}
	if (*s != '"' || s[1])
		return -EINVAL;
	out[n] = '\0';
	return 0;
}

static int tunable_by_key(const char *key, enum mdp_tunable *t)
{
	for (int i = 0; i < MDP_T_COUNT; i++)
		if (!strcmp(mdp_tunable_info(i)->key, key)) {
			*t = (enum mdp_tunable)i;
			return 0;
		}
	return -EINVAL;
}

/* A baseline revert may write: the kernel's form of a value the registry accepts. */
static bool value_ok(enum mdp_tunable t, const char *raw)
{
	const struct mdp_tunable_info *ti = mdp_tunable_info(t);
	struct mdp_value v;

	if (mdp_tunable_parse(t, raw, &v))
		return false;
	/* "N (system)" follows the sysctl: its number is not written back. */
	return v.kind == MDP_V_SYSTEM || (v.num >= ti->min && v.num <= ti->max);
}

/* "KEY DEV": the target of a base or set line, checked against the registry. */
static int parse_target(char **rest, enum mdp_tunable *t, char *dev, size_t cap)
{
	char *key = strtok_r(*rest, " ", rest), *d = strtok_r(NULL, " ", rest);

	if (!key || !d || !*rest || tunable_by_key(key, t))
		return -EINVAL;
	dev[0] = '\0';
	if (strcmp(d, "-")) {
		if (!mdp_ident_dev_ok(d) || strlen(d) >= cap)
			return -EINVAL;
		snprintf(dev, cap, "%s", d);
	}
	if ((mdp_tunable_info(*t)->scope == MDP_SCOPE_GLOBAL) != !dev[0])
		return -EINVAL;
	return 0;
}

static int parse_base(struct mdp_journal *j, char *rest)
{
	struct mdp_jtarget b = {0};

	if (parse_target(&rest, &b.t, b.dev, sizeof(b.dev)) ||
	    unescape(rest, b.raw, sizeof(b.raw)) || !value_ok(b.t, b.raw) ||
	    mdp_grow(&j->base, j->n_base, sizeof(b)))
		return -EINVAL;
	j->base[j->n_base++] = b;
	return 0;
}

static int parse_set(struct mdp_jset **v, size_t *n, char *rest)
{
	struct mdp_jset st = {0};
	const struct mdp_tunable_info *ti;

	if (parse_target(&rest, &st.t, st.dev, sizeof(st.dev)))
		return -EINVAL;
	ti = mdp_tunable_info(st.t);
	if (!strcmp(rest, "system") && ti->allows_system) {
		st.want.kind = MDP_V_SYSTEM;
	} else if (mdp_num_parse(rest, ti->min, ti->max, &st.want.num)) {
		return -EINVAL;
	}
	if (mdp_grow(v, *n, sizeof(st)))
		return -ENOMEM;
	(*v)[(*n)++] = st;
	return 0;
}

static int parse_svc(struct mdp_journal *j, char *rest)
{
	char *name = strtok_r(rest, " ", &rest), *st = strtok_r(NULL, " ", &rest), *w;
	struct mdp_jservice s = {0};
	uint64_t v;

	if (!name || !st || strlen(name) >= sizeof(s.name) || !mdp_svc_name_ok(name))
		return -EINVAL;
	if (strcmp(st, "paused") && strcmp(st, "pausing") && strcmp(st, "resumed"))
		return -EINVAL;
	/* "pausing PGID": the process group of the tool that was pausing it. */
	if (!strcmp(st, "pausing")) {
		if (!(w = strtok_r(NULL, " ", &rest)) || mdp_num_parse(w, 0, INT32_MAX, &v))
			return -EINVAL;
		s.pgid = (long)v;
	}
	w = strtok_r(NULL, " ", &rest);
	/* "start TICKS boot ID": who led that group. */
	if (w && !strcmp(w, "start")) {
		if (strcmp(st, "pausing") || !(w = strtok_r(NULL, " ", &rest)) ||
		    mdp_num_parse(w, 1, UINT64_MAX, &s.start) ||
		    !(w = strtok_r(NULL, " ", &rest)) || strcmp(w, "boot") ||
		    !(w = strtok_r(NULL, " ", &rest)) || !boot_ok(w))
			return -EINVAL;
		snprintf(s.boot, sizeof(s.boot), "%s", w);
		w = strtok_r(NULL, " ", &rest);
	}
	/* "timeout SECONDS": the entry's own. */
	if (w && !strcmp(w, "timeout")) {
		if (!(w = strtok_r(NULL, " ", &rest)) ||
		    mdp_num_parse(w, 1, MDP_SVC_TIMEOUT_MAX_S, &v))
			return -EINVAL;
		s.timeout_s = (unsigned)v;
		w = strtok_r(NULL, " ", &rest);
	}
	/* "under": the base under an overlay paused it; the line ends there. */
	if (w && !strcmp(w, "under") && strcmp(st, "resumed")) {
		s.under = true;
		w = strtok_r(NULL, " ", &rest);
	}
	if (w)
		return -EINVAL;
	snprintf(s.name, sizeof(s.name), "%s", name);
	s.paused = strcmp(st, "resumed") != 0;
	s.settled = strcmp(st, "pausing") != 0;
	if (mdp_grow(&j->svc, j->n_svc, sizeof(s)))
		return -ENOMEM;
	j->svc[j->n_svc++] = s;
	return 0;
}

/* "DEV ACTION KIB_S": an md name, md/sync_action's word, a number. */
static int parse_speed(struct mdp_journal *j, char *rest)
{
	char *dev = strtok_r(rest, " ", &rest), *act = strtok_r(NULL, " ", &rest);
	char *num = strtok_r(NULL, " ", &rest);
	struct mdp_op_speed sp = {0};

	if (!dev || !act || !num || strtok_r(NULL, " ", &rest) || !speed_ok(dev, act) ||
	    mdp_num_parse(num, 0, UINT64_MAX, &sp.kib_s))
		return -EINVAL;
	snprintf(sp.dev, sizeof(sp.dev), "%s", dev);
	snprintf(sp.action, sizeof(sp.action), "%s", act);
	if (mdp_grow(&j->speed, j->n_speed, sizeof(sp)))
		return -ENOMEM;
	j->speed[j->n_speed++] = sp;
	return 0;
}

static int parse_state(const char *v, enum mdp_jstate *st)
{
	for (int i = MDP_J_APPLYING; i <= MDP_J_REVERTING; i++)
		if (!strcmp(v, state_names[i])) {
			*st = (enum mdp_jstate)i;
			return 0;
		}
	return -EINVAL;
}

static int copy_field(char *dst, size_t cap, const char *v)
{
	if (strlen(v) >= cap)
		return -EINVAL;
	snprintf(dst, cap, "%s", strcmp(v, "-") ? v : "");
	return 0;
}

/*
 * A quoted, escaped field (a path may hold any byte but NUL). A field
 * without quotes is a journal of an earlier version: one line, as read.
 */
static int copy_quoted(char *dst, size_t cap, const char *v)
{
	if (v[0] != '"')
		return copy_field(dst, cap, v);
	return unescape(v, dst, cap);
}

static int parse_since(const char *v, int64_t *out)
{
	uint64_t n;

	if (mdp_num_parse(v, 1, INT64_MAX, &n))
		return -EINVAL;
	*out = (int64_t)n;
	return 0;
}

static int parse_line(struct mdp_journal *j, char *line)
{
	char *sp = strchr(line, ' ');
	char *rest = sp ? sp + 1 : line + strlen(line);

	if (sp)
		*sp = '\0';
	if (!strcmp(line, "state"))
		return parse_state(rest, &j->state);
	if (!strcmp(line, "boot_id"))
		return copy_field(j->boot_id, sizeof(j->boot_id), rest);
	if (!strcmp(line, "profile"))
		return copy_quoted(j->profile, sizeof(j->profile), rest);
	if (!strcmp(line, "path"))
		return copy_quoted(j->profile_path, sizeof(j->profile_path), rest);
	if (!strcmp(line, "by"))
		return mdp_origin_parse(rest, &j->by);
	if (!strcmp(line, "since"))
		return parse_since(rest, &j->since);
	/* An earlier version's words for who applied it */
	if (!strcmp(line, "until-idle") && !sp && j->by == MDP_BY_HAND) {
		j->by = MDP_BY_UNTIL_IDLE;
		return 0;
	}
	if (!strcmp(line, "compare") && !sp && j->by == MDP_BY_HAND) {
		j->by = MDP_BY_COMPARE;
		return 0;
	}
	if (!strcmp(line, "under")) {
		j->has_under = true;
		return copy_quoted(j->under.profile, sizeof(j->under.profile), rest);
	}
	if (!strcmp(line, "under-path"))
		return copy_quoted(j->under.path, sizeof(j->under.path), rest);
	if (!strcmp(line, "under-by"))
		return mdp_origin_parse(rest, &j->under.by);
	if (!strcmp(line, "under-since"))
		return parse_since(rest, &j->under.since);
	if (!strcmp(line, "base"))
		return parse_base(j, rest);
	if (!strcmp(line, "svc"))
		return parse_svc(j, rest);
	if (!strcmp(line, "set"))
		return parse_set(&j->set, &j->n_set, rest);
	if (!strcmp(line, "under-set"))
		return parse_set(&j->uset, &j->n_uset, rest);
	if (!strcmp(line, "speed"))
		return parse_speed(j, rest);
	return -EINVAL;
}

int mdp_journal_parse(const char *text, size_t len, struct mdp_journal *out)
{
	struct mdp_journal j = {0};
	char *copy = strndup(text, len), *save = NULL, *line;
	bool header = false, end = false;
	int err = 0;

	if (!copy)
		return -ENOMEM;
	for (line = strtok_r(copy, "\n", &save); line && !err; line = strtok_r(NULL, "\n", &save)) {
		if (end)
			err = -EINVAL; /* nothing may follow "end" */
		else if (!header && strcmp(line, "mdprofile-journal 1"))
			err = -EINVAL;
		else if (!header)
			header = true;
		else if (!strcmp(line, "end"))
			end = true;
		else
			err = parse_line(&j, line);
	}
	free(copy);
	if (!err && (!end || j.state == MDP_J_NONE))
		err = -EINVAL;
	/* A base under an overlay, or words about one, but not half of it. */
	if (!err && !j.has_under && (j.under.path[0] || j.n_uset || j.under.by || j.under.since))
		err = -EINVAL;
	for (size_t i = 0; !err && i < j.n_svc; i++)
		if (j.svc[i].under && !j.has_under)
			err = -EINVAL;
	if (err) {
		mdp_journal_free(&j);
		return err;
	}
	*out = j;
	return 0;
}

int txn_state_read(const struct mdp_root *r, const char *sys, char **text, size_t *len,
		   struct mdp_diags *d)
{
	int fd, err;

	if ((err = state_dir_check(r, d)))
		return err;
	fd = mdp_root_open(r, sys, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_NOCTTY, 0);
	if (fd < 0)
		return fd;
	if ((err = state_check(r, fd, sys, d)))
		goto out;
	/* A journal is a few KiB; 16 MiB is no journal mdprofile wrote. */
	err = mdp_root_read_fd(fd, (size_t)1 << 24, -EFBIG, text, len);
out:
	close(fd);
	return err;
}

int mdp_journal_load(const struct mdp_root *r, struct mdp_journal *j, struct mdp_diags *d)
{
	struct mdp_diags quiet;
	char *text = NULL;
	size_t len = 0;
	int err;

	if (!d) { /* read quietly: only the errno says why not */
		mdp_diags_init(&quiet);
		err = mdp_journal_load(r, j, &quiet);
		mdp_diags_free(&quiet);
		return err;
	}
	if ((err = txn_state_read(r, MDP_JOURNAL, &text, &len, d)))
		return err;
	err = mdp_journal_parse(text, len, j);
	free(text);
	if (err != -EINVAL)
		return err;
	mdp_diags_add(d, MDP_JOURNAL, 0, 0,
		      "journal is unreadable; move it aside after checking the values it lists "
		      "by hand");
	return -EBADMSG;
}

int txn_state_replace(const struct mdp_root *r, const char *sys, const char *text, size_t len)
{
	struct mdp_diags quiet;
	int err;

	/* /run is a tmpfs on DSM 7 and systemd machines: the dir may be gone. */
	if ((err = mdp_root_mkdir_p(r, MDP_STATE_DIR, 0700)))
		return err;
	/* The lock and the load checked it already: this is only for a swap since. */
	mdp_diags_init(&quiet);
	err = state_dir_check(r, &quiet);
	mdp_diags_free(&quiet);
	return err ? err : mdp_root_replace(r, sys, text, len, 0600);
}

int mdp_journal_store(const struct mdp_root *r, const struct mdp_journal *j)
{
	char *text;
	size_t len;
	int err;

	if ((err = mdp_journal_format(j, &text, &len)))
		return err;
	err = txn_state_replace(r, MDP_JOURNAL, text, len);
	free(text);
	return err;
}

void mdp_journal_free(struct mdp_journal *j)
{
	free(j->base);
	free(j->svc);
	free(j->set);
	free(j->uset);
	free(j->speed);
	memset(j, 0, sizeof(*j));
}

int mdp_journal_mtime(const struct mdp_root *r, int64_t *sec)
{
	struct stat st;
	int fd = mdp_root_open(r, MDP_JOURNAL, O_RDONLY | O_CLOEXEC, 0);
	int err = 0;

	if (fd < 0)
		return fd;
	if (fstat(fd, &st))
		err = -errno;
	close(fd);
	if (!err)
		*sec = (int64_t)st.st_mtime;
	return err;
}

/* ---- the watcher's state ------------------------------------------------------ */

int mdp_state_store(const struct mdp_root *r, const char *path,
		    void (*put)(FILE *f, const void *arg), const void *arg)
{
	char *text = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&text, &len);
	int err;

	if (!f)
		return -ENOMEM;
	put(f, arg);
	fputs("end\n", f);
	if (fclose(f))
		return -ENOMEM;
	err = mdp_root_replace(r, path, text, len, 0644);
	free(text);
	return err;
}

#define WSTATE_HEADER "mdprofile-watcher 1" /* the file's first line: its format */

static void wstate_put(FILE *f, const void *arg)
{
	const struct mdp_wstate *w = arg;
	char text[64];

	fprintf(f, "%s\npid %ld\nmode %s\nprofile ", WSTATE_HEADER, w->pid,
		mdp_origin_name(w->mode));
	put_escaped(f, w->profile);
	fprintf(f, "\nstate %s\nsince %" PRId64 "\non %s\nwhy ", w->state, w->since, w->on);
	put_escaped(f, w->why);
	fputc('\n', f);
	for (size_t i = 0; i < w->n_windows && i < MDP_MAINT_MAX_WINDOWS; i++)
		fprintf(f, "window %s\n", mdp_mwin_text(&w->windows[i], text, sizeof(text)));
	if (w->arrays[0])
		fprintf(f, "arrays %s\n", w->arrays);
}

int mdp_wstate_store(const struct mdp_root *r, const struct mdp_wstate *w)
{
	return mdp_state_store(r, MDP_WATCHER_STATE, wstate_put, w);
}

static bool word_ok(const char *s, const char *extra)
{
	for (; *s; s++)
		if (!((*s >= 'a' && *s <= 'z') || strchr(extra, *s)))
			return false;
	return true;
}

/* One more maintenance window, as mdp_mwin_text wrote it. */
static int wstate_window(struct mdp_wstate *w, const char *text)
{
	char why[160];

	if (w->n_windows >= MDP_MAINT_MAX_WINDOWS ||
	    mdp_mwin_parse(text, &w->windows[w->n_windows], why, sizeof(why)))
		return -EINVAL;
	w->n_windows++;
	return 0;
}

static int wstate_line(void *ctx, char *line)
{
	struct mdp_wstate *w = ctx;
	char *sp = strchr(line, ' ');
	uint64_t v;

	if (!sp)
		return -EINVAL;
	*sp++ = '\0';
	if (!strcmp(line, "pid"))
		return mdp_num_parse(sp, 1, INT32_MAX, &v) ? -EINVAL : (w->pid = (long)v, 0);
	if (!strcmp(line, "mode"))
		return mdp_origin_parse(sp, &w->mode);
	if (!strcmp(line, "profile"))
		return unescape(sp, w->profile, sizeof(w->profile));
	if (!strcmp(line, "state") && strlen(sp) < sizeof(w->state) && word_ok(sp, ""))
		return copy_field(w->state, sizeof(w->state), sp);
	if (!strcmp(line, "since"))
		return mdp_num_parse(sp, 0, INT64_MAX, &v) ? -EINVAL : (w->since = (int64_t)v, 0);
	if (!strcmp(line, "on") && word_ok(sp, ","))
		return copy_field(w->on, sizeof(w->on), sp);
	if (!strcmp(line, "why"))
		return unescape(sp, w->why, sizeof(w->why));
	if (!strcmp(line, "window"))
		return wstate_window(w, sp);
	if (!strcmp(line, "arrays") && word_ok(sp, "0123456789_ "))
		return copy_field(w->arrays, sizeof(w->arrays), sp);
	return -EINVAL;
}

int mdp_state_load(const struct mdp_root *r, const char *path, const char *header, char *buf,
		   size_t cap, int (*line)(void *ctx, char *line), void *ctx)
{
	ssize_t n = mdp_root_read_value(r, path, buf, cap);

	return n < 0 ? (int)n : mdp_state_parse(buf, header, line, ctx);
}

int mdp_state_parse(char *buf, const char *header, int (*line)(void *ctx, char *line), void *ctx)
{
	char *save = NULL, *l;
	int err;

	l = strtok_r(buf, "\n", &save);
	if (!l || strcmp(l, header))
		return -EINVAL;
	while ((l = strtok_r(NULL, "\n", &save))) {
		if (!strcmp(l, "end"))
			return 0;
		if ((err = line(ctx, l)))
			return err;
	}
	return -EINVAL;
}

int mdp_wstate_load(const struct mdp_root *r, struct mdp_wstate *w)
{
	char buf[4096];
	int err;

	memset(w, 0, sizeof(*w));
	err = mdp_state_load(r, MDP_WATCHER_STATE, WSTATE_HEADER, buf, sizeof(buf), wstate_line, w);
	return err ? err : w->pid && w->state[0] ? 0 : -EINVAL;
}

int mdp_wstate_parse(char *buf, struct mdp_wstate *w)
{
	int err;

	memset(w, 0, sizeof(*w));
	err = mdp_state_parse(buf, WSTATE_HEADER, wstate_line, w);
	return err ? err : w->pid && w->state[0] ? 0 : -EINVAL;
}
