/*
 * services: the facts the backends rest on, what they share (building and
 * running a command, reading a JSON answer, acting then waiting), the
 * command that resumes a service by hand, and detection. The backends are
 * services_dsm6.c, services_dsm7.c and services_systemd.c; what they share
 * with this file is declared in services_int.h.
 *
 * Each backend turns (service, verb) into one argv for the NAS's own tool
 * and reads the tool's answer. Everything runs through mdp_exec_run (no
 * shell, fixed PATH under the root, timeout). Names are checked again here
 * before any command is built, whatever the caller already checked. After
 * every stop and start the status is polled until it has changed.
 *
 * ==== What mdprofile knows about the real tools =========================
 *
 * This is the ONE place for facts about DSM's tools. None of them can be
 * checked on a DiskStation here. [D] marks what public sources document:
 * Synology's own scripts shipped on DSM and widely used third-party DSM
 * tools that call these commands and read their answers. [I] marks what is
 * inferred (from related behaviour, or chosen as the safe reading where
 * nothing public says). tests/fakes/ behaves exactly as written here; a
 * change to a fact changes the fake in the same commit.
 *
 * DSM 6 synoservice (upstart underneath), /usr/syno/sbin:
 *  F1 [D] --status NAME prints "Service [NAME] status=[enable]" (capital S;
 *         [disable] when disabled), then per upstart job "[job] is start."
 *         or "[job] is stop."; exit 0 when running, non-zero otherwise.
 *  F2 [D] An unknown name prints "Service [NAME] does not exist", exit
 *         non-zero. [I] Any message saying "not exist"/"no such"/"not
 *         found"/"unknown" without a "status=[" line means missing.
 *  F3 [I] A paused service stays [enable] with its job "is stop.": enable
 *         with no "is stop." job is running, anything else stopped.
 *  F4 [D] --pause NAME / --resume NAME, and --pause-by-reason NAME REASON /
 *         --resume-by-reason NAME REASON (name first, reason second). DSM
 *         itself pauses with reasons such as rebuild, no-volume and
 *         ha-passive. A plain --resume can undo a stop DSM made for its own
 *         reason; a stop by reason is released only by the same reason.
 *  F5 [I] Resume by reason returns when the job has started, or with
 *         exit 0 leaving it stopped while another reason still holds it:
 *         a settled "stopped" right after it means held by DSM.
 *  F6 [D] --is-enabled exits 1 when enabled (inverted): never used.
 *  F7 [I] Versions without the by-reason verbs answer an unknown option
 *         with their usage text and a non-zero exit: a non-zero answer that
 *         says "usage", "unknown" or "invalid" means the verb is missing.
 *  F8 [I] Packages are upstart jobs named pkgctl-NAME: "pkg:NAME" maps to
 *         that, so the by-reason verbs apply to packages too.
 *
 * DSM 7 synosystemctl (systemd underneath), /usr/syno/bin:
 *  F9  [D] get-active-status UNIT prints one word as systemctl is-active
 *          does: active, inactive, failed, activating, deactivating,
 *          reloading. [I] The exit code is not relied on.
 *  F10 [D] stop|start UNIT; stop-service-by-reason REASON UNIT... and
 *          start-service-by-reason REASON UNIT... (reason FIRST, unlike
 *          DSM 6), and list-service-reason. Reasons behave as F4, and
 *          F5 and F7 are assumed alike [I].
 *  F11 [I] get-load-status UNIT: how it answers for an unknown unit is
 *          not documented. "loaded" (and systemd's other load states) with
 *          exit 0 is believed; anything else falls back to F16.
 *  F12 [D] activating/deactivating are transitional: polled (F19).
 *
 * DSM synopkg (entries written pkg:NAME on DSM 7), /usr/syno/bin:
 *  F13 [D] status NAME exit codes. DSM 7.2: 0 started, 55 starting,
 *          17 stopped, 255 not installed, 150 broken. DSM 6 to 7.1: 0
 *          started, 3 stopped, 4 not installed. The two sets overlap only
 *          in 0, so the code alone says the state without the version.
 *  F14 [D] DSM 7.1 and later print one JSON object whose top-level
 *          "status" is "running", "stop", "starting", "stopping",
 *          "non_installed" or "broken" (nested objects such as "aspect"
 *          carry "status" keys of their own: only depth 1 counts). A
 *          missing package is either a top-level "status":"non_installed"
 *          or "status":"stop" with "error":{..."status":"non_installed"}
 *          (exit 255). DSM 7.1.1 may exit 0 whatever the state: JSON, when
 *          there is any, wins over the exit code.
 *  F15 [D] stop|start NAME: a failure is a non-zero exit or, with exit 0,
 *          "success":false in the JSON. Stops and starts can take minutes
 *          (Docker has been reported at 12): see F19. `synopkg is_onoff` is
 *          unreliable (said "isn't turned on" for a running package):
 *          never used. synopkg has no by-reason verbs.
 *
 * systemd systemctl:
 *  F16 [D] show -p LoadState UNIT prints "LoadState=not-found" for an
 *          unknown unit ("LoadState=loaded" otherwise). --value would need
 *          systemd 230, so it is not used. This is how a missing unit is
 *          told from a stopped one, on DSM 7 too (F11).
 *  F17 [D] is-active UNIT: exit 0 and "active" when active; else exit 3
 *          (4 on some versions for an unknown unit) with "inactive",
 *          "failed", ...; transitional words as F12.
 *  F18 [D] stop|start UNIT: exit 0 on success, non-zero with a message.
 *
 * Waiting (all backends):
 *  F19 [D] Tools that manage DSM packages poll the status until it changes:
 *          up to about 20 s for services, much longer for packages. Here
 *          after every stop and start the status is polled until it has
 *          reached the wanted state, within the backend's timeout for the
 *          kind (timeout_ms for services, pkg_timeout_ms for packages). A
 *          stop that reports success while the service keeps running fails
 *          the step (and so rolls the transaction back).
 */
#include "services.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "mdp_base.h"
#include "services_int.h"

#define SVC_DEFAULT_TIMEOUT_MS 30000
#define SVC_PKG_TIMEOUT_MS     900000 /* F15: Docker has taken 12 minutes */
#define SVC_POLL_MAX_MS        1000
#define SVC_CMDLINE_MAX        (3 * SVC_NAME_MAX + 64)

bool mdp_svc_name_ok(const char *name)
{
	/* One rule for profiles and backends: ident owns it. */
	return name && !mdp_ident_service_check(name);
}

int mdp_svc_check_name(const char *svc, struct mdp_diags *d)
{
	const char *why = mdp_ident_service_check(svc);
	char shown[80];

	if (!why)
		return 0;
	mdp_text_safe(shown, sizeof(shown), svc);
	mdp_diags_add(d, NULL, 0, 0, "service '%s': invalid name (%s)", shown, why);
	return -EINVAL;
}

int mdp_svc_set_name(struct svc_cmd *c, const char *prefix, const char *name)
{
	int n = snprintf(c->name, sizeof(c->name), "%s%s", prefix, name);

	return n < 0 || (size_t)n >= sizeof(c->name) ? -ENAMETOOLONG : 0;
}

void mdp_svc_argv(struct svc_cmd *c, const char *a0, const char *a1, const char *a2, const char *a3)
{
	c->argv[0] = a0;
	c->argv[1] = a1;
	c->argv[2] = a2;
	c->argv[3] = a3;
	c->argv[4] = NULL;
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

/* F19: packages get their own, longer limit. */
static unsigned svc_timeout(const struct mdp_svc_backend *b, const char *svc)
{
	if (mdp_svc_is_pkg(svc))
		return b->pkg_timeout_ms ? b->pkg_timeout_ms : SVC_PKG_TIMEOUT_MS;
	return b->timeout_ms ? b->timeout_ms : SVC_DEFAULT_TIMEOUT_MS;
}

int mdp_svc_run(const struct mdp_svc_backend *b, const char *svc, const char *const argv[],
		bool watched, struct mdp_exec_result *res, struct mdp_diags *d)
{
	char line[SVC_CMDLINE_MAX];
	unsigned ms = svc_timeout(b, svc);
	int err = mdp_exec_run_watched(b->root, argv, ms, res, d, watched ? b->watch : NULL);

	if (!err || err == -EPERM) /* a refusal is in d already, naming the file */
		return err;
	svc_cmdline(argv, line, sizeof(line));
	if (err == -ETIMEDOUT)
		mdp_diags_add(d, NULL, 0, 0, "service %s: '%s' timed out after %g s, killed", svc,
			      line, ms / 1000.0);
	else if (err == -ENOENT)
		mdp_diags_add(d, NULL, 0, 0,
			      "service %s: cannot run '%s': %s not found in %s (this system's "
			      "service manager is not usable; --services-backend none changes "
			      "the tunables without pausing services)",
			      svc, line, argv[0], MDP_EXEC_PATH);
	else
		mdp_diags_add(d, NULL, 0, 0, "service %s: cannot run '%s': %s", svc, line,
			      strerror(-err));
	return err;
}

int mdp_svc_failed(const char *svc, const char *const argv[], const struct mdp_exec_result *res,
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

void mdp_svc_word(const struct mdp_exec_result *res, char *buf, size_t cap)
{
	size_t n;

	mdp_exec_first_line(res, buf, cap);
	n = strlen(buf);
	while (n && (buf[n - 1] == ' ' || buf[n - 1] == '\t'))
		buf[--n] = '\0';
}

bool mdp_svc_word_in(const char *w, const char *const set[])
{
	for (size_t i = 0; set[i]; i++)
		if (!strcmp(w, set[i]))
			return true;
	return false;
}

bool mdp_svc_says(const char *out, const char *const pats[])
{
	for (size_t i = 0; pats[i]; i++)
		if (strcasestr(out, pats[i]))
			return true;
	return false;
}

/* ---- JSON (F14): just enough to read one object's top-level members ------- */

/* p at an opening quote: just past the closing one, or NULL. */
static const char *json_skip_str(const char *p, const char *end)
{
	for (p++; p < end && *p != '"'; p++)
		if (*p == '\\' && p + 1 < end)
			p++;
	return p < end ? p + 1 : NULL;
}

static const char *json_skip_ws(const char *p, const char *end)
{
	while (p < end && (*p == ' ' || *p == '\t' || *p == '\n' || *p == '\r'))
		p++;
	return p;
}

const char *mdp_svc_json_skip_nest(const char *p, const char *end)
{
	int depth = 0;

	while (p < end) {
		if (*p == '"') {
			if (!(p = json_skip_str(p, end)))
				return NULL;
			continue;
		}
		if (*p == '{' || *p == '[')
			depth++;
		else if ((*p == '}' || *p == ']') && --depth == 0)
			return p + 1;
		p++;
	}
	return NULL;
}

const char *mdp_svc_json_member(const char *obj, const char *end, const char *key)
{
	size_t klen = strlen(key);
	const char *p = obj + 1;
	int depth = 1;

	while (p < end && depth > 0) {
		if (*p == '"') {
			const char *q = json_skip_str(p, end);
			if (!q)
				return NULL;
			if (depth == 1 && (size_t)(q - p - 2) == klen &&
			    !memcmp(p + 1, key, klen)) {
				const char *v = json_skip_ws(q, end);
				if (v < end && *v == ':')
					return json_skip_ws(v + 1, end);
			}
			p = q;
			continue;
		}
		if (*p == '{' || *p == '[')
			depth++;
		else if (*p == '}' || *p == ']')
			depth--;
		p++;
	}
	return NULL;
}

bool mdp_svc_json_str_is(const char *v, const char *end, const char *want)
{
	size_t n = strlen(want);

	return v && v + n + 2 <= end && *v == '"' && !memcmp(v + 1, want, n) && v[n + 1] == '"';
}

/* Whether the bare literal at v (true, false, null) is exactly want. */
static bool json_lit_is(const char *v, const char *end, const char *want)
{
	size_t n = strlen(want);

	return v && v + n <= end && !memcmp(v, want, n) &&
	       (v + n == end || strchr(" \t\r\n,}]", v[n]));
}

bool mdp_svc_json_object(const char *out, const char **obj, const char **end)
{
	const char *p = strchr(out, '{');

	if (!p || !(*end = mdp_svc_json_skip_nest(p, p + strlen(p))))
		return false;
	*obj = p;
	return true;
}

/* ---- the common part: act, then wait (F19) -------------------------------- */

static void svc_sleep_ms(long ms)
{
	struct timespec ts = {ms / 1000, (ms % 1000) * 1000000};

	nanosleep(&ts, NULL);
}

/*
 * Probe until done(state) or the deadline: the first look at once, then
 * 100 ms, 200 ms, ... up to SVC_POLL_MAX_MS apart, the last one at the
 * deadline. *st is the last answer.
 */
static int svc_poll(const struct svc_impl *im, const struct mdp_svc_backend *b, const char *svc,
		    bool (*done)(enum svc_raw, enum svc_verb), enum svc_verb v, enum svc_raw *st,
		    struct mdp_diags *d)
{
	long deadline = (long)mdp_mono_ms() + (long)svc_timeout(b, svc), pause_ms = 100, left;
	int err;

	for (;;) {
		if ((err = im->probe(b, svc, st, d)) || done(*st, v) ||
		    (left = deadline - (long)mdp_mono_ms()) <= 0)
			return err;
		svc_sleep_ms(pause_ms < left ? pause_ms : left);
		pause_ms = pause_ms * 2 > SVC_POLL_MAX_MS ? SVC_POLL_MAX_MS : pause_ms * 2;
	}
}

static bool svc_settled(enum svc_raw st, enum svc_verb v)
{
	(void)v;
	return st != RAW_STARTING && st != RAW_STOPPING;
}

/* After a stop: stopped. After a start: running, or stopped and settled (held or failed). */
static bool svc_reached(enum svc_raw st, enum svc_verb v)
{
	if (v == SVC_PAUSE)
		return st == RAW_STOPPED || st == RAW_MISSING;
	return st == RAW_RUNNING;
}

static const char *svc_raw_name(enum svc_raw st)
{
	static const char *const names[] = {"running", "stopped", "missing", "starting",
					    "stopping"};

	return names[st];
}

static int svc_status(const struct svc_impl *im, const struct mdp_svc_backend *b, const char *svc,
		      enum mdp_svc_state *out, struct mdp_diags *d)
{
	enum svc_raw st;
	int err = svc_poll(im, b, svc, svc_settled, SVC_PAUSE, &st, d);

	if (err)
		return err;
	if (!svc_settled(st, SVC_PAUSE)) {
		mdp_diags_add(d, NULL, 0, 0, "service %s: still %s after %g s", svc,
			      svc_raw_name(st), svc_timeout(b, svc) / 1000.0);
		return -ETIMEDOUT;
	}
	*out = st == RAW_RUNNING   ? MDP_SVC_RUNNING
	       : st == RAW_MISSING ? MDP_SVC_MISSING
				   : MDP_SVC_STOPPED;
	return 0;
}

/* F7: the tool does not know the by-reason verb it was given. */
static bool svc_no_such_verb(const struct mdp_exec_result *res)
{
	static const char *const pats[] = {"usage", "unknown", "invalid", NULL};

	return res->exit_code != 0 && mdp_svc_says(res->out, pats);
}

/* Whether this backend will use the by-reason verbs for svc. */
static bool svc_by_reason(const struct svc_impl *im, const struct mdp_svc_backend *b,
			  const char *svc)
{
	return im->has_reason(svc) && !(b->memo && b->memo->plain_verbs);
}

/* Run the stop or start of svc (by reason when it can) and require success. */
static int svc_act(const struct svc_impl *im, const struct mdp_svc_backend *b, const char *svc,
		   enum svc_verb v, bool *by_reason, struct mdp_diags *d)
{
	struct mdp_exec_result res;
	const char *obj, *end;
	struct svc_cmd c;
	int err;

	*by_reason = svc_by_reason(im, b, svc);
	if ((err = im->cmd(svc, v, *by_reason, &c, d)) ||
	    (err = mdp_svc_run(b, svc, c.argv, true, &res, d)))
		return err;
	if (*by_reason && svc_no_such_verb(&res)) {
		if (b->memo)
			b->memo->plain_verbs = true;
		*by_reason = false;
		if ((err = im->cmd(svc, v, false, &c, d)) ||
		    (err = mdp_svc_run(b, svc, c.argv, true, &res, d)))
			return err;
	}
	/* F15: synopkg reports some failures in JSON with a zero exit code. */
	if (res.exit_code != 0 ||
	    (mdp_svc_json_object(res.out, &obj, &end) &&
	     json_lit_is(mdp_svc_json_member(obj, end, "success"), end, "false")))
		return mdp_svc_failed(svc, c.argv, &res, "failed", d);
	return 0;
}

static int svc_change(const struct svc_impl *im, const struct mdp_svc_backend *b, const char *svc,
		      enum svc_verb v, struct mdp_diags *d)
{
	enum svc_raw st;
	bool by_reason;
	int err;

	if ((err = svc_act(im, b, svc, v, &by_reason, d)))
		return err;
	/* F5: after a start by reason, a settled "stopped" is DSM's own hold. */
	if ((err = svc_poll(im, b, svc, by_reason && v == SVC_RESUME ? svc_settled : svc_reached, v,
			    &st, d)))
		return err;
	if (svc_reached(st, v))
		return 0;
	if (by_reason && v == SVC_RESUME && st == RAW_STOPPED)
		return -EBUSY;
	mdp_diags_add(d, NULL, 0, 0,
		      "service %s: the %s reported success but the service is %s "
		      "after %g s",
		      svc, v == SVC_PAUSE ? "stop" : "start", svc_raw_name(st),
		      svc_timeout(b, svc) / 1000.0);
	return -EIO;
}

/* ---- the ops tables ----------------------------------------------------- */

#define SVC_OPS(NAME, IMPL)                                                                        \
	static int NAME##_status(const struct mdp_svc_backend *b, const char *svc,                 \
				 enum mdp_svc_state *st, struct mdp_diags *d)                      \
	{                                                                                          \
		return svc_status(&IMPL, b, svc, st, d);                                           \
	}                                                                                          \
	static int NAME##_pause(const struct mdp_svc_backend *b, const char *svc,                  \
				struct mdp_diags *d)                                               \
	{                                                                                          \
		return svc_change(&IMPL, b, svc, SVC_PAUSE, d);                                    \
	}                                                                                          \
	static int NAME##_resume(const struct mdp_svc_backend *b, const char *svc,                 \
				 struct mdp_diags *d)                                              \
	{                                                                                          \
		return svc_change(&IMPL, b, svc, SVC_RESUME, d);                                   \
	}                                                                                          \
	const struct mdp_svc_ops mdp_svc_##NAME = {.name = #NAME,                                  \
						   .status = NAME##_status,                        \
						   .pause = NAME##_pause,                          \
						   .resume = NAME##_resume}

SVC_OPS(dsm6, mdp_svc_dsm6_impl);
SVC_OPS(dsm7, mdp_svc_dsm7_impl);
SVC_OPS(systemd, mdp_svc_systemd_impl);

/* ---- by hand ------------------------------------------------------------ */

int mdp_svc_resume_command(const struct mdp_svc_backend *b, const char *svc, char *buf, size_t len)
{
	const struct svc_impl *im = NULL;
	struct mdp_diags quiet;
	struct svc_cmd c;
	int err;

	if (!b || !b->ops)
		return -EINVAL;
	if (len == 0)
		return -ENAMETOOLONG;
	/* By name: a test seam may wrap the ops table of a real backend. */
	if (!strcmp(b->ops->name, "dsm6"))
		im = &mdp_svc_dsm6_impl;
	else if (!strcmp(b->ops->name, "dsm7"))
		im = &mdp_svc_dsm7_impl;
	else if (!strcmp(b->ops->name, "systemd"))
		im = &mdp_svc_systemd_impl;
	if (!im)
		return -EINVAL;
	mdp_diags_init(&quiet);
	err = im->cmd(svc, SVC_RESUME, svc_by_reason(im, b, svc), &c, &quiet);
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
		mdp_text_safe(shown, sizeof(shown), v);
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
	mdp_text_safe(shown, sizeof(shown), force);
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
	out->pkg_timeout_ms = SVC_PKG_TIMEOUT_MS;
	out->watch = NULL;
	out->learnt.plain_verbs = false;
	out->memo = &out->learnt;
	return 0;
}
