/*
 * services_dsm7: the dsm7 backend, DSM 7's synosystemctl for units and
 * synopkg for "pkg:" entries (services.h). The facts it rests on (F9-F15)
 * are listed, with their sources, at the top of services.c.
 */
#include "services.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "mdp_base.h"
#include "services_int.h"

/* ---- dsm7: synosystemctl and synopkg ----------------------------------- */

/* systemd's load states other than not-found: the unit exists. */
static const char *const svc_load_words[] = {"loaded", "masked", "error", "bad-setting",
					     "stub",   "merged", NULL};

static int synopkg_cmd(const char *verb, const char *svc, struct svc_cmd *c, struct mdp_diags *d)
{
	const char *pkg = mdp_ident_service_pkg(svc);
	int err = mdp_svc_check_name(svc, d);

	if (err)
		return err;
	if (!pkg)
		return -EINVAL; /* callers send only "pkg:" entries here */
	if ((err = mdp_svc_set_name(c, "", pkg)))
		return err;
	mdp_svc_argv(c, "synopkg", verb, c->name, NULL);
	return 0;
}

/* A state word of F14; 0, 1 for "broken", -1 for a word not known. */
static int synopkg_word(const char *v, const char *end, enum svc_raw *st)
{
	static const struct {
		const char *w;
		enum svc_raw st;
	} tab[] = {{"running", RAW_RUNNING},   {"stop", RAW_STOPPED},
		   {"stopped", RAW_STOPPED},   {"starting", RAW_STARTING},
		   {"stopping", RAW_STOPPING}, {"non_installed", RAW_MISSING}};

	if (mdp_svc_json_str_is(v, end, "broken"))
		return 1;
	for (size_t i = 0; i < sizeof(tab) / sizeof(tab[0]); i++) {
		if (mdp_svc_json_str_is(v, end, tab[i].w)) {
			*st = tab[i].st;
			return 0;
		}
	}
	return -1;
}

/* F13: an exit code of either generation; 0, 1 for broken, -1 unknown. */
static int synopkg_code(int code, enum svc_raw *st)
{
	switch (code) {
	case 0:
		*st = RAW_RUNNING;
		return 0;
	case 3:
	case 17:
		*st = RAW_STOPPED;
		return 0;
	case 4:
	case 255:
		*st = RAW_MISSING;
		return 0;
	case 55:
		*st = RAW_STARTING;
		return 0;
	case 150:
		return 1;
	default:
		return -1;
	}
}

/* F13, F14: the package's state from what synopkg status said. */
static int synopkg_parse(const struct mdp_exec_result *res, enum svc_raw *st)
{
	const char *obj, *end, *v, *e;
	int r;

	if (!mdp_svc_json_object(res->out, &obj, &end))
		return synopkg_code(res->exit_code, st);
	v = mdp_svc_json_member(obj, end, "status");
	if ((r = synopkg_word(v, end, st)) < 0)
		return synopkg_code(res->exit_code, st);
	e = mdp_svc_json_member(obj, end, "error");
	if (!r && e && *e == '{' && (end = mdp_svc_json_skip_nest(e, end)) &&
	    mdp_svc_json_str_is(mdp_svc_json_member(e, end, "status"), end, "non_installed"))
		*st = RAW_MISSING;
	return r;
}

static int synopkg_probe(const struct mdp_svc_backend *b, const char *svc, enum svc_raw *st,
			 struct mdp_diags *d)
{
	struct mdp_exec_result res;
	struct svc_cmd c;
	int err, r;

	if ((err = synopkg_cmd("status", svc, &c, d)) ||
	    (err = mdp_svc_run(b, svc, c.argv, false, &res, d)))
		return err;
	if ((r = synopkg_parse(&res, st)) > 0)
		return mdp_svc_failed(svc, c.argv, &res,
				      "says the package is broken; repair it "
				      "in Package Center",
				      d);
	if (r < 0)
		return mdp_svc_failed(svc, c.argv, &res, "gave an unexpected answer", d);
	return 0;
}

/* F11: believe get-load-status only when it names a load state; else F16. */
static int dsm7_load_state(const struct mdp_svc_backend *b, const char *svc, enum svc_raw *st,
			   struct mdp_diags *d)
{
	struct unit_look l;
	int err = mdp_svc_unit_ask(b, "synosystemctl", "get-load-status", svc, &l, d);

	if (err)
		return err;
	if (l.res.exit_code == 0 && mdp_svc_word_in(l.w, svc_load_words)) {
		*st = RAW_STOPPED;
		return 0;
	}
	if (l.res.exit_code == 0 && !strcmp(l.w, "not-found")) {
		*st = RAW_MISSING;
		return 0;
	}
	return mdp_svc_unit_load_state(b, svc, st, d);
}

static int dsm7_probe(const struct mdp_svc_backend *b, const char *svc, enum svc_raw *st,
		      struct mdp_diags *d)
{
	struct unit_look l;
	int err;

	if (mdp_svc_is_pkg(svc))
		return synopkg_probe(b, svc, st, d);
	if ((err = mdp_svc_unit_ask(b, "synosystemctl", "get-active-status", svc, &l, d)))
		return err;
	if (!mdp_svc_unit_word(l.w, st)) /* F9: the word, never the exit code */
		return mdp_svc_failed(svc, l.c.argv, &l.res, "gave an unexpected answer", d);
	return *st == RAW_STOPPED ? dsm7_load_state(b, svc, st, d) : 0;
}

static int dsm7_cmd(const char *svc, enum svc_verb v, bool by_reason, struct svc_cmd *c,
		    struct mdp_diags *d)
{
	int err;

	if (mdp_svc_is_pkg(svc)) /* F15: no reasons for packages */
		return synopkg_cmd(v == SVC_PAUSE ? "stop" : "start", svc, c, d);
	if (!by_reason)
		return mdp_svc_unit_cmd("synosystemctl", v == SVC_PAUSE ? "stop" : "start", svc, c,
					d);
	if ((err = mdp_svc_unit_name(svc, c, d)))
		return err;
	/* F10: the reason first, then the unit. */
	mdp_svc_argv(c, "synosystemctl",
		     v == SVC_PAUSE ? "stop-service-by-reason" : "start-service-by-reason",
		     MDP_SVC_REASON, c->name);
	return 0;
}

static bool dsm7_has_reason(const char *svc)
{
	return !mdp_svc_is_pkg(svc);
}

const struct svc_impl mdp_svc_dsm7_impl = {dsm7_probe, dsm7_cmd, dsm7_has_reason};
