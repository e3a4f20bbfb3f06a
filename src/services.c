/*
 * services: the dsm6, dsm7 and systemd backends, and detection.
 *
 * Each backend turns (service, verb) into one argv for the NAS's own tool
 * and reads the tool's answer. Everything runs through mdp_exec_run (no
 * shell, fixed PATH under the root, timeout). Names are checked again here
 * before any command is built, whatever the caller already checked.
 *
 * What the real tools print and exit with, as far as public reports go,
 * and what this file relies on (the fakes in tests/fakes/ behave so):
 *
 * DSM 6 synoservice (upstart):
 *   --status NAME  prints "service [NAME] status=[enable]" (or [disable]),
 *                  then per upstart job "[job] is start." / "[job] is stop.";
 *                  exit 0 when enabled and running, non-zero otherwise
 *                  (scripts test only the exit code). For an unknown name
 *                  it prints no "status=[" line but an error that says the
 *                  service does not exist, exit non-zero.
 *                  Relied on: "status=[enable]" with no "is stop." job
 *                  means running (a paused service stays enabled but its job
 *                  is stopped); any other "status=[" means stopped; no
 *                  "status=[" line and exit 0 means running; no "status=["
 *                  with a non-zero exit and a "not exist"/"no such"/"not
 *                  found"/"unknown" message means missing; anything else is
 *                  an error.
 *   --pause/--resume NAME  exit 0 on success, non-zero with a message.
 *   Packages are upstart jobs named pkgctl-NAME, so "pkg:NAME" maps to that.
 *
 * DSM 7 synosystemctl (systemd underneath):
 *   get-active-status UNIT  prints one word like systemctl is-active:
 *                  active, inactive, failed, activating, deactivating,
 *                  reloading; "inactive" also for an unknown unit. The exit
 *                  code is not relied on (scripts use `|| echo inactive`).
 *   get-load-status UNIT    prints "loaded", "not-found", ...; used only to
 *                  tell a missing unit from a stopped one.
 *   stop/start UNIT         exit 0 on success, non-zero with a message.
 * DSM 7 synopkg (entries written pkg:NAME):
 *   status NAME  DSM 7.1+ prints one JSON object with sorted keys whose last
 *                "status" is the package's: "running", "stop" or
 *                "non_installed" (nested "aspect" objects carry their own
 *                "status" keys first); its exit code is 0 even for a stopped
 *                package on some versions, so it is not relied on. DSM 7.0
 *                prints "NAME package is started" / "... is stopped" /
 *                "... is not installed"; both forms are read.
 *   stop/start NAME  non-zero exit, or JSON with "success":false, is a failure.
 *
 * systemd systemctl:
 *   is-active UNIT   exit 0 when active (prints "active"); otherwise exit 3
 *                  with "inactive"/"failed"/..., and for an unknown unit
 *                  "inactive" with exit 3 or 4 depending on the version.
 *   show -p LoadState --value UNIT  prints "not-found" for an unknown unit
 *                  (systemd >= 230 for --value): that is what says missing.
 *   stop/start UNIT  exit 0 on success, non-zero (1, or 5 for an unknown
 *                  unit) with a message.
 */
#include "services.h"
#include "ident.h"
#include "num.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "exec.h"

#define SVC_DEFAULT_TIMEOUT_MS 30000
#define SVC_NAME_MAX           MDP_SERVICE_NAME_MAX
#define SVC_CMDLINE_MAX        (3 * SVC_NAME_MAX + 64)

enum svc_verb { SVC_PAUSE, SVC_RESUME };

/* One command line: argv points into name (the translated service name). */
struct svc_cmd {
	const char *argv[8];
	char name[SVC_NAME_MAX + 16];
};

bool mdp_svc_name_ok(const char *name)
{
	/* One rule for profiles and backends: ident owns it. */
	return name && !mdp_ident_service_check(name);
}

/* A name as it may be shown in a message: printable, bounded (cap >= 4). */
static void svc_show(const char *s, char *buf, size_t cap)
{
	size_t n = 0;

	for (; s && *s && n < cap - 1; s++)
		buf[n++] = (*s >= 0x20 && *s < 0x7f) ? *s : '?';
	buf[n] = '\0';
	if (s && *s)
		memcpy(buf + cap - 4, "...", 4);
}

static int svc_check_name(const char *svc, struct mdp_diags *d)
{
	const char *why = mdp_ident_service_check(svc);
	char shown[80];

	if (!why)
		return 0;
	svc_show(svc, shown, sizeof(shown));
	mdp_diags_add(d, NULL, 0, 0, "service '%s': invalid name (%s)", shown, why);
	return -EINVAL;
}

static int svc_set_name(struct svc_cmd *c, const char *prefix, const char *name)
{
	int n = snprintf(c->name, sizeof(c->name), "%s%s", prefix, name);

	return n < 0 || (size_t)n >= sizeof(c->name) ? -ENAMETOOLONG : 0;
}

static void svc_cmdline(const char *const argv[], char *buf, size_t cap)
{
	size_t n = 0;

	buf[0] = '\0';
	for (size_t i = 0; argv[i] && n < cap; i++) {
		int k = snprintf(buf + n, cap - n, "%s%s", i ? " " : "", argv[i]);
		if (k < 0)
			return;
		n += (size_t)k;
	}
}

static unsigned svc_timeout(const struct mdp_svc_backend *b)
{
	return b->timeout_ms ? b->timeout_ms : SVC_DEFAULT_TIMEOUT_MS;
}

/* Run one command. 0 when it ran and exited (any exit code); else diag + -errno. */
static int svc_run(const struct mdp_svc_backend *b, const char *svc, const char *const argv[],
		   struct mdp_exec_result *res, struct mdp_diags *d)
{
	char line[SVC_CMDLINE_MAX];
	unsigned ms = svc_timeout(b);
	int err = mdp_exec_run_watched(b->root, argv, ms, res, d, b->watch);

	if (!err || err == -EPERM) /* a refusal is in d already, naming the file */
		return err;
	svc_cmdline(argv, line, sizeof(line));
	if (err == -ETIMEDOUT)
		mdp_diags_add(d, NULL, 0, 0, "service %s: '%s' timed out after %g s, killed", svc,
			      line, ms / 1000.0);
	else if (err == -ENOENT)
		mdp_diags_add(d, NULL, 0, 0, "service %s: cannot run '%s': %s not found in %s", svc,
			      line, argv[0], MDP_EXEC_PATH);
	else
		mdp_diags_add(d, NULL, 0, 0, "service %s: cannot run '%s': %s", svc, line,
			      strerror(-err));
	return err;
}

/* Report a command that ran but did not do its job. Always -EIO. */
static int svc_failed(const char *svc, const char *const argv[], const struct mdp_exec_result *res,
		      const char *why, struct mdp_diags *d)
{
	char line[SVC_CMDLINE_MAX], first[160], how[48];

	svc_cmdline(argv, line, sizeof(line));
	mdp_exec_first_line(res, first, sizeof(first));
	if (res->term_sig)
		snprintf(how, sizeof(how), "killed by signal %d", res->term_sig);
	else
		snprintf(how, sizeof(how), "exit code %d", res->exit_code);
	mdp_diags_add(d, NULL, 0, 0, "service %s: '%s' %s (%s)%s%s", svc, line, why, how,
		      *first ? ": " : "", first);
	return -EIO;
}

/* Run a pause/resume command and require success. */
static int svc_act(const struct mdp_svc_backend *b, const char *svc, const struct svc_cmd *c,
		   struct mdp_diags *d)
{
	struct mdp_exec_result res;
	int err = svc_run(b, svc, c->argv, &res, d);

	if (err)
		return err;
	/* synopkg reports some failures in JSON with a zero exit code. */
	if (res.exit_code != 0 || strstr(res.out, "\"success\":false"))
		return svc_failed(svc, c->argv, &res, "failed", d);
	return 0;
}

/* First line of the output, trimmed, for one-word answers. */
static void svc_word(const struct mdp_exec_result *res, char *buf, size_t cap)
{
	size_t n;

	mdp_exec_first_line(res, buf, cap);
	n = strlen(buf);
	while (n && (buf[n - 1] == ' ' || buf[n - 1] == '\t'))
		buf[--n] = '\0';
}

static bool svc_word_in(const char *w, const char *const set[])
{
	for (size_t i = 0; set[i]; i++)
		if (!strcmp(w, set[i]))
			return true;
	return false;
}

static const char *const svc_up_words[] = {"active", "activating", "reloading", NULL};
static const char *const svc_down_words[] = {"inactive", "failed",      "deactivating",
					     "unknown",  "maintenance", NULL};

/* ---- dsm6: synoservice ------------------------------------------------- */

static int dsm6_cmd(const char *svc, const char *verb, struct svc_cmd *c, struct mdp_diags *d)
{
	const char *pkg = mdp_ident_service_pkg(svc);
	int err = svc_check_name(svc, d);

	if (err)
		return err;
	if ((err = pkg ? svc_set_name(c, "pkgctl-", pkg) : svc_set_name(c, "", svc)))
		return err;
	c->argv[0] = "synoservice";
	c->argv[1] = verb;
	c->argv[2] = c->name;
	c->argv[3] = NULL;
	return 0;
}

static bool dsm6_says_missing(const char *out)
{
	static const char *const pats[] = {"not exist", "doesn't exist", "no such",
					   "not found", "unknown",       NULL};

	for (size_t i = 0; pats[i]; i++)
		if (strcasestr(out, pats[i]))
			return true;
	return false;
}

static int dsm6_status(const struct mdp_svc_backend *b, const char *svc, enum mdp_svc_state *st,
		       struct mdp_diags *d)
{
	struct mdp_exec_result res;
	struct svc_cmd c;
	int err;

	if ((err = dsm6_cmd(svc, "--status", &c, d)) || (err = svc_run(b, svc, c.argv, &res, d)))
		return err;
	if (strstr(res.out, "status=[enable]") && !strstr(res.out, "is stop."))
		*st = MDP_SVC_RUNNING;
	else if (strstr(res.out, "status=["))
		*st = MDP_SVC_STOPPED;
	else if (res.exit_code == 0)
		*st = MDP_SVC_RUNNING;
	else if (dsm6_says_missing(res.out))
		*st = MDP_SVC_MISSING;
	else
		return svc_failed(svc, c.argv, &res, "gave an unexpected answer", d);
	return 0;
}

static int dsm6_pause(const struct mdp_svc_backend *b, const char *svc, struct mdp_diags *d)
{
	struct svc_cmd c;
	int err = dsm6_cmd(svc, "--pause", &c, d);

	return err ? err : svc_act(b, svc, &c, d);
}

static int dsm6_resume(const struct mdp_svc_backend *b, const char *svc, struct mdp_diags *d)
{
	struct svc_cmd c;
	int err = dsm6_cmd(svc, "--resume", &c, d);

	return err ? err : svc_act(b, svc, &c, d);
}

const struct mdp_svc_ops mdp_svc_dsm6 = {
    .name = "dsm6",
    .status = dsm6_status,
    .pause = dsm6_pause,
    .resume = dsm6_resume,
};

/* ---- systemd: systemctl ------------------------------------------------ */

/* argv for "TOOL VERB UNIT", or "TOOL show -p LoadState --value UNIT" for VERB "show". */
static int unit_cmd(const char *tool, const char *verb, const char *svc, struct svc_cmd *c,
		    struct mdp_diags *d)
{
	int err = svc_check_name(svc, d);

	if (err)
		return err;
	if (!strncmp(svc, "pkg:", 4)) {
		mdp_diags_add(d, NULL, 0, 0,
			      "service %s: package entries (pkg:) need the dsm6 or dsm7 backend",
			      svc);
		return -EINVAL;
	}
	if ((err = svc_set_name(c, "", svc)))
		return err;
	c->argv[0] = tool;
	c->argv[1] = verb;
	if (strcmp(verb, "show")) {
		c->argv[2] = c->name;
		c->argv[3] = NULL;
		return 0;
	}
	c->argv[2] = "-p";
	c->argv[3] = "LoadState";
	c->argv[4] = "--value";
	c->argv[5] = c->name;
	c->argv[6] = NULL;
	return 0;
}

/* Missing or stopped: ask for the load state ("not-found" means missing). */
static int unit_load_state(const struct mdp_svc_backend *b, const char *svc,
			   const struct svc_cmd *c, enum mdp_svc_state *st, struct mdp_diags *d)
{
	struct mdp_exec_result res;
	char w[64];
	int err = svc_run(b, svc, c->argv, &res, d);

	if (err)
		return err;
	svc_word(&res, w, sizeof(w));
	if (res.exit_code != 0 || !*w)
		return svc_failed(svc, c->argv, &res, "gave an unexpected answer", d);
	*st = !strcmp(w, "not-found") ? MDP_SVC_MISSING : MDP_SVC_STOPPED;
	return 0;
}

static int systemd_status(const struct mdp_svc_backend *b, const char *svc, enum mdp_svc_state *st,
			  struct mdp_diags *d)
{
	struct mdp_exec_result res;
	struct svc_cmd c;
	char w[64];
	int err;

	if ((err = unit_cmd("systemctl", "is-active", svc, &c, d)) ||
	    (err = svc_run(b, svc, c.argv, &res, d)))
		return err;
	svc_word(&res, w, sizeof(w));
	if (res.exit_code == 0 || svc_word_in(w, svc_up_words)) {
		*st = MDP_SVC_RUNNING;
		return 0;
	}
	if (!svc_word_in(w, svc_down_words) && res.exit_code != 3 && res.exit_code != 4)
		return svc_failed(svc, c.argv, &res, "gave an unexpected answer", d);
	if ((err = unit_cmd("systemctl", "show", svc, &c, d)))
		return err;
	return unit_load_state(b, svc, &c, st, d);
}

static int systemd_pause(const struct mdp_svc_backend *b, const char *svc, struct mdp_diags *d)
{
	struct svc_cmd c;
	int err = unit_cmd("systemctl", "stop", svc, &c, d);

	return err ? err : svc_act(b, svc, &c, d);
}

static int systemd_resume(const struct mdp_svc_backend *b, const char *svc, struct mdp_diags *d)
{
	struct svc_cmd c;
	int err = unit_cmd("systemctl", "start", svc, &c, d);

	return err ? err : svc_act(b, svc, &c, d);
}

const struct mdp_svc_ops mdp_svc_systemd = {
    .name = "systemd",
    .status = systemd_status,
    .pause = systemd_pause,
    .resume = systemd_resume,
};

/* ---- dsm7: synosystemctl and synopkg ----------------------------------- */

static int synopkg_cmd(const char *verb, const char *svc, struct svc_cmd *c, struct mdp_diags *d)
{
	const char *pkg = mdp_ident_service_pkg(svc);
	int err = svc_check_name(svc, d);

	if (err)
		return err;
	if (!pkg)
		return -EINVAL; /* callers send only "pkg:" entries here */
	if ((err = svc_set_name(c, "", pkg)))
		return err;
	c->argv[0] = "synopkg";
	c->argv[1] = verb;
	c->argv[2] = c->name;
	c->argv[3] = NULL;
	return 0;
}

/* The package's own state: the last "status":"..." of the JSON, or DSM 7.0's sentence. */
static int synopkg_parse(const char *out, enum mdp_svc_state *st)
{
	static const char key[] = "\"status\":\"";
	const char *p = NULL, *q;

	for (q = out; (q = strstr(q, key)); q += sizeof(key) - 1)
		p = q + sizeof(key) - 1;
	if (p) {
		if (!strncmp(p, "running\"", 8))
			*st = MDP_SVC_RUNNING;
		else if (!strncmp(p, "non_installed\"", 14))
			*st = MDP_SVC_MISSING;
		else
			*st = MDP_SVC_STOPPED;
		return 0;
	}
	if (strstr(out, "is not installed") || strstr(out, "No such package"))
		*st = MDP_SVC_MISSING;
	else if (strstr(out, "package is started"))
		*st = MDP_SVC_RUNNING;
	else if (strstr(out, "package is stopped"))
		*st = MDP_SVC_STOPPED;
	else
		return -EIO;
	return 0;
}

static int synopkg_status(const struct mdp_svc_backend *b, const char *svc, enum mdp_svc_state *st,
			  struct mdp_diags *d)
{
	struct mdp_exec_result res;
	struct svc_cmd c;
	int err;

	if ((err = synopkg_cmd("status", svc, &c, d)) || (err = svc_run(b, svc, c.argv, &res, d)))
		return err;
	if (synopkg_parse(res.out, st))
		return svc_failed(svc, c.argv, &res, "gave an unexpected answer", d);
	return 0;
}

static int dsm7_status(const struct mdp_svc_backend *b, const char *svc, enum mdp_svc_state *st,
		       struct mdp_diags *d)
{
	struct mdp_exec_result res;
	struct svc_cmd c;
	char w[64];
	int err;

	if (!strncmp(svc, "pkg:", 4))
		return synopkg_status(b, svc, st, d);
	if ((err = unit_cmd("synosystemctl", "get-active-status", svc, &c, d)) ||
	    (err = svc_run(b, svc, c.argv, &res, d)))
		return err;
	svc_word(&res, w, sizeof(w));
	if (svc_word_in(w, svc_up_words)) {
		*st = MDP_SVC_RUNNING;
		return 0;
	}
	if (!svc_word_in(w, svc_down_words))
		return svc_failed(svc, c.argv, &res, "gave an unexpected answer", d);
	if ((err = unit_cmd("synosystemctl", "get-load-status", svc, &c, d)))
		return err;
	return unit_load_state(b, svc, &c, st, d);
}

static int dsm7_act(const struct mdp_svc_backend *b, const char *svc, enum svc_verb v,
		    struct mdp_diags *d)
{
	const char *verb = v == SVC_PAUSE ? "stop" : "start";
	struct svc_cmd c;
	int err;

	if (!strncmp(svc, "pkg:", 4))
		err = synopkg_cmd(verb, svc, &c, d);
	else
		err = unit_cmd("synosystemctl", verb, svc, &c, d);
	return err ? err : svc_act(b, svc, &c, d);
}

static int dsm7_pause(const struct mdp_svc_backend *b, const char *svc, struct mdp_diags *d)
{
	return dsm7_act(b, svc, SVC_PAUSE, d);
}

static int dsm7_resume(const struct mdp_svc_backend *b, const char *svc, struct mdp_diags *d)
{
	return dsm7_act(b, svc, SVC_RESUME, d);
}

const struct mdp_svc_ops mdp_svc_dsm7 = {
    .name = "dsm7",
    .status = dsm7_status,
    .pause = dsm7_pause,
    .resume = dsm7_resume,
};

/* ---- by hand ------------------------------------------------------------ */

int mdp_svc_resume_command(const struct mdp_svc_backend *b, const char *svc, char *buf, size_t len)
{
	struct mdp_diags quiet;
	struct svc_cmd c;
	const char *name;
	int err;

	if (!b || !b->ops)
		return -EINVAL;
	if (len == 0)
		return -ENAMETOOLONG;
	mdp_diags_init(&quiet);
	/* By name: a test seam may wrap the ops table of a real backend. */
	name = b->ops->name;
	if (!strcmp(name, "dsm6"))
		err = dsm6_cmd(svc, "--resume", &c, &quiet);
	else if (!strcmp(name, "dsm7") && !strncmp(svc, "pkg:", 4))
		err = synopkg_cmd("start", svc, &c, &quiet);
	else if (!strcmp(name, "dsm7"))
		err = unit_cmd("synosystemctl", "start", svc, &c, &quiet);
	else if (!strcmp(name, "systemd"))
		err = unit_cmd("systemctl", "start", svc, &c, &quiet);
	else
		err = -EINVAL;
	mdp_diags_free(&quiet);
	if (err)
		return err;
	svc_cmdline(c.argv, buf, len);
	return strlen(buf) + 1 >= len ? -ENAMETOOLONG : 0;
}

/* ---- detection --------------------------------------------------------- */

#define DSM_VERSION_FILE "/etc.defaults/VERSION"

/* The value of majorversion= on one line (quotes stripped) -> *major. */
static int dsm_major_value(char *v, unsigned lineno, int *major, struct mdp_diags *d)
{
	size_t n = strlen(v);
	uint64_t m;

	while (n && (v[n - 1] == ' ' || v[n - 1] == '\t' || v[n - 1] == '\r'))
		v[--n] = '\0';
	if (n >= 2 && (v[0] == '"' || v[0] == '\'') && v[n - 1] == v[0]) {
		v[n - 1] = '\0';
		v++;
	}
	if (mdp_num_parse(v, 0, 1000, &m)) {
		char shown[40];
		svc_show(v, shown, sizeof(shown));
		mdp_diags_add(d, DSM_VERSION_FILE, lineno, 0, "majorversion '%s' is not a number",
			      shown);
		return -EINVAL;
	}
	*major = (int)m;
	return 1;
}

/* 1 with *major from /etc.defaults/VERSION, 0 when there is none, or -errno. */
static int dsm_major(const struct mdp_root *r, int *major, struct mdp_diags *d)
{
	char *text, *line, *save = NULL;
	unsigned lineno = 0;
	int ret = 0;

	if (mdp_root_read_all(r, DSM_VERSION_FILE, &text, NULL))
		return 0;
	for (line = strtok_r(text, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
		lineno++;
		line += strspn(line, " \t");
		if (!strncmp(line, "majorversion=", 13)) {
			ret = dsm_major_value(line + 13, lineno, major, d);
			break;
		}
	}
	free(text);
	return ret;
}

static int svc_forced(const char *force, const struct mdp_svc_ops **ops, struct mdp_diags *d)
{
	static const struct {
		const char *name;
		const struct mdp_svc_ops *ops;
	} tab[] = {{"dsm6", &mdp_svc_dsm6},
		   {"dsm7", &mdp_svc_dsm7},
		   {"systemd", &mdp_svc_systemd},
		   {"none", NULL}};
	char shown[40];

	for (size_t i = 0; i < sizeof(tab) / sizeof(tab[0]); i++) {
		if (!strcmp(force, tab[i].name)) {
			*ops = tab[i].ops;
			return 0;
		}
	}
	svc_show(force, shown, sizeof(shown));
	mdp_diags_add(d, NULL, 0, 0,
		      "unknown service manager '%s' (expected dsm6, dsm7, systemd or none)", shown);
	return -EINVAL;
}

int mdp_svc_detect(const struct mdp_root *r, const char *force, struct mdp_svc_backend *out,
		   struct mdp_diags *d)
{
	const struct mdp_svc_ops *ops = NULL;
	int major = 0, err;

	if (force && *force) {
		if ((err = svc_forced(force, &ops, d)))
			return err;
	} else if ((err = dsm_major(r, &major, d)) < 0) {
		return err;
	} else if (err > 0) {
		ops = major >= 7 ? &mdp_svc_dsm7 : &mdp_svc_dsm6;
	} else if (mdp_root_is_dir(r, "/run/systemd/system")) {
		ops = &mdp_svc_systemd;
	}
	out->ops = ops;
	out->root = r;
	out->timeout_ms = SVC_DEFAULT_TIMEOUT_MS;
	return 0;
}
