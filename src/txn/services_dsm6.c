/*
 * services_dsm6: the dsm6 backend, DSM 6's synoservice (services.h). The
 * facts it rests on (F1-F8) are listed, with their sources, at the top of
 * services.c.
 */
#include "services.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "mdp_base.h"
#include "services_int.h"

/* ---- dsm6: synoservice ------------------------------------------------- */

static int dsm6_cmd_verb(const char *svc, const char *verb, const char *reason, struct svc_cmd *c,
			 struct mdp_diags *d)
{
	const char *pkg = mdp_ident_service_pkg(svc);
	int err = mdp_svc_check_name(svc, d);

	if (err)
		return err;
	/* F8 */
	if ((err = pkg ? mdp_svc_set_name(c, "pkgctl-", pkg) : mdp_svc_set_name(c, "", svc)))
		return err;
	/* F4: name first, then the reason. */
	mdp_svc_argv(c, "synoservice", verb, c->name, reason);
	return 0;
}

static int dsm6_cmd(const char *svc, enum svc_verb v, bool by_reason, struct svc_cmd *c,
		    struct mdp_diags *d)
{
	static const char *const verbs[2][2] = {{"--pause", "--pause-by-reason"},
						{"--resume", "--resume-by-reason"}};

	return dsm6_cmd_verb(svc, verbs[v][by_reason], by_reason ? MDP_SVC_REASON : NULL, c, d);
}

static int dsm6_probe(const struct mdp_svc_backend *b, const char *svc, enum svc_raw *st,
		      struct mdp_diags *d)
{
	static const char *const missing[] = {"not exist", "doesn't exist", "no such",
					      "not found", "unknown",       NULL};
	struct mdp_exec_result res;
	struct svc_cmd c;
	int err;

	if ((err = dsm6_cmd_verb(svc, "--status", NULL, &c, d)) ||
	    (err = mdp_svc_run(b, svc, c.argv, false, &res, d)))
		return err;
	/* F1, F3 */
	if (strstr(res.out, "status=[enable]") && !strstr(res.out, "is stop."))
		*st = RAW_RUNNING;
	else if (strstr(res.out, "status=["))
		*st = RAW_STOPPED;
	else if (res.exit_code == 0)
		*st = RAW_RUNNING;
	else if (mdp_svc_says(res.out, missing)) /* F2 */
		*st = RAW_MISSING;
	else
		return mdp_svc_failed(svc, c.argv, &res, "gave an unexpected answer", d);
	return 0;
}

static bool dsm6_has_reason(const char *svc)
{
	(void)svc;
	return true; /* F8: packages are upstart jobs too */
}

const struct svc_impl mdp_svc_dsm6_impl = {dsm6_probe, dsm6_cmd, dsm6_has_reason};
