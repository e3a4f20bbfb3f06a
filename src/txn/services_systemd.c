/*
 * services_systemd: the systemd backend, systemctl (services.h), and the
 * look at a unit that dsm7's synosystemctl shares. The facts it rests on
 * (F9, F12, F16-F18) are listed, with their sources, at the top of
 * services.c.
 */
#include "services.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "services_int.h"

/* ---- systemd units (systemd, and dsm7's synosystemctl) ------------------- */

static const char *const svc_up_words[] = {"active", "reloading", NULL};
static const char *const svc_down_words[] = {"inactive", "failed", "unknown", "maintenance", NULL};

int mdp_svc_unit_name(const char *svc, struct svc_cmd *c, struct mdp_diags *d)
{
	int err = mdp_svc_check_name(svc, d);

	if (err)
		return err;
	if (mdp_svc_is_pkg(svc)) {
		mdp_diags_add(d, NULL, 0, 0,
			      "service %s: package entries (pkg:) need the dsm6 or dsm7 backend",
			      svc);
		return -EINVAL;
	}
	return mdp_svc_set_name(c, "", svc);
}

int mdp_svc_unit_cmd(const char *tool, const char *verb, const char *svc, struct svc_cmd *c,
		     struct mdp_diags *d)
{
	int err = mdp_svc_unit_name(svc, c, d);

	if (!err)
		mdp_svc_argv(c, tool, verb, c->name, NULL);
	return err;
}

int mdp_svc_unit_ask(const struct mdp_svc_backend *b, const char *tool, const char *verb,
		     const char *svc, struct unit_look *l, struct mdp_diags *d)
{
	int err;

	if ((err = mdp_svc_unit_cmd(tool, verb, svc, &l->c, d)) ||
	    (err = mdp_svc_run(b, svc, l->c.argv, false, &l->res, d)))
		return err;
	mdp_svc_word(&l->res, l->w, sizeof(l->w));
	return 0;
}

bool mdp_svc_unit_word(const char *w, enum svc_raw *st)
{
	if (mdp_svc_word_in(w, svc_up_words))
		*st = RAW_RUNNING;
	else if (!strcmp(w, "activating"))
		*st = RAW_STARTING;
	else if (!strcmp(w, "deactivating"))
		*st = RAW_STOPPING;
	else if (mdp_svc_word_in(w, svc_down_words))
		*st = RAW_STOPPED;
	else
		return false;
	return true;
}

int mdp_svc_unit_load_state(const struct mdp_svc_backend *b, const char *svc, enum svc_raw *st,
			    struct mdp_diags *d)
{
	struct mdp_exec_result res;
	struct svc_cmd c;
	char w[80];
	int err;

	if ((err = mdp_svc_unit_name(svc, &c, d)))
		return err;
	mdp_svc_argv(&c, "systemctl", "show", "-p", "LoadState");
	c.argv[4] = c.name;
	c.argv[5] = NULL;
	if ((err = mdp_svc_run(b, svc, c.argv, false, &res, d)))
		return err;
	mdp_svc_word(&res, w, sizeof(w));
	if (res.exit_code != 0 || strncmp(w, "LoadState=", 10) || !w[10])
		return mdp_svc_failed(svc, c.argv, &res, "gave an unexpected answer", d);
	*st = !strcmp(w + 10, "not-found") ? RAW_MISSING : RAW_STOPPED;
	return 0;
}

static int systemd_probe(const struct mdp_svc_backend *b, const char *svc, enum svc_raw *st,
			 struct mdp_diags *d)
{
	struct unit_look l;
	int err = mdp_svc_unit_ask(b, "systemctl", "is-active", svc, &l, d);

	if (err)
		return err;
	if (!mdp_svc_unit_word(l.w, st)) {
		if (l.res.exit_code != 0 && l.res.exit_code != 3 && l.res.exit_code != 4)
			return mdp_svc_failed(svc, l.c.argv, &l.res, "gave an unexpected answer",
					      d);
		*st = l.res.exit_code ? RAW_STOPPED : RAW_RUNNING;
	}
	return *st == RAW_STOPPED ? mdp_svc_unit_load_state(b, svc, st, d) : 0;
}

static int systemd_cmd(const char *svc, enum svc_verb v, bool by_reason, struct svc_cmd *c,
		       struct mdp_diags *d)
{
	(void)by_reason;
	return mdp_svc_unit_cmd("systemctl", v == SVC_PAUSE ? "stop" : "start", svc, c, d);
}

static bool systemd_has_reason(const char *svc)
{
	(void)svc;
	return false;
}

const struct svc_impl mdp_svc_systemd_impl = {systemd_probe, systemd_cmd, systemd_has_reason};
