/*
 * services_int: what services.c (the facts, the common driver, detection)
 * and its backends, services_dsm6.c, services_dsm7.c and
 * services_systemd.c, share. Not part of the library interface; only
 * services*.c use it. F1..F19 are the facts listed at the top of
 * services.c.
 */
#ifndef MDP_SERVICES_INT_H
#define MDP_SERVICES_INT_H

#include <stdbool.h>
#include <stddef.h>
#include <string.h>

#include "mdp_base.h"
#include "services.h"

#define SVC_NAME_MAX MDP_SERVICE_NAME_MAX

enum svc_verb { SVC_PAUSE, SVC_RESUME };

/* What a tool says, before waiting for a transition to end. */
enum svc_raw { RAW_RUNNING, RAW_STOPPED, RAW_MISSING, RAW_STARTING, RAW_STOPPING };

/* One command line: argv points into name (the translated service name). */
struct svc_cmd {
	const char *argv[8];
	char name[SVC_NAME_MAX + 16];
};

/* A backend's own part: how to ask, and how to act (by reason or not). */
struct svc_impl {
	int (*probe)(const struct mdp_svc_backend *b, const char *svc, enum svc_raw *st,
		     struct mdp_diags *d);
	int (*cmd)(const char *svc, enum svc_verb v, bool by_reason, struct svc_cmd *c,
		   struct mdp_diags *d);
	bool (*has_reason)(const char *svc); /* whether the by-reason verbs apply to svc */
};

/* Each backend's own part, which the ops tables in services.c (mdp_svc_dsm6, ...) drive. */
extern const struct svc_impl mdp_svc_dsm6_impl, mdp_svc_dsm7_impl, mdp_svc_systemd_impl;

/* ---- services.c: building and running a command ---------------------------- */

/* A "pkg:NAME" entry: a package (F8, F13-F15). */
static inline bool mdp_svc_is_pkg(const char *svc)
{
	return !strncmp(svc, "pkg:", 4);
}
/* svc checked again by ident's rule: 0, or -EINVAL with a diag. */
int mdp_svc_check_name(const char *svc, struct mdp_diags *d);
/* c->name = prefix name: 0 or -ENAMETOOLONG. */
int mdp_svc_set_name(struct svc_cmd *c, const char *prefix, const char *name);
/* c->argv = a0 a1 a2 a3 (a NULL ends it sooner). */
void mdp_svc_argv(struct svc_cmd *c, const char *a0, const char *a1, const char *a2,
		  const char *a3);
/*
 * Run one command. 0 when it ran and exited (any exit code); else diag +
 * -errno. Only stop/start commands (watched) tell b->watch their group.
 */
int mdp_svc_run(const struct mdp_svc_backend *b, const char *svc, const char *const argv[],
		bool watched, struct mdp_exec_result *res, struct mdp_diags *d);
/* Report a command that ran but did not do its job. Always -EIO. */
int mdp_svc_failed(const char *svc, const char *const argv[], const struct mdp_exec_result *res,
		   const char *why, struct mdp_diags *d);
/* First line of the output, trimmed, for one-word answers. */
void mdp_svc_word(const struct mdp_exec_result *res, char *buf, size_t cap);
/* Is w one of the NULL-ended set? */
bool mdp_svc_word_in(const char *w, const char *const set[]);
/* Does out hold one of the NULL-ended pats, in any case? */
bool mdp_svc_says(const char *out, const char *const pats[]);

/* ---- services.c: JSON (F14), just enough to read one object's top-level members */

/* The end of the object or array starting at p (just past it), or NULL. */
const char *mdp_svc_json_skip_nest(const char *p, const char *end);
/* The value of member key of the object [obj, end) at its own depth, or NULL. */
const char *mdp_svc_json_member(const char *obj, const char *end, const char *key);
/* Whether the string value at v is exactly want. */
bool mdp_svc_json_str_is(const char *v, const char *end, const char *want);
/* The first JSON object in out: [*obj, *end). */
bool mdp_svc_json_object(const char *out, const char **obj, const char **end);

/* ---- services_systemd.c: a look at a unit, which dsm7's synosystemctl shares ---- */

/* A look at a unit: the command run (for the message), its result, the first word it said. */
struct unit_look {
	struct svc_cmd c;
	struct mdp_exec_result res;
	char w[64];
};
/* The unit svc into c->name; "pkg:" entries refused. 0 or -errno with a diag. */
int mdp_svc_unit_name(const char *svc, struct svc_cmd *c, struct mdp_diags *d);
/* "TOOL VERB UNIT" */
int mdp_svc_unit_cmd(const char *tool, const char *verb, const char *svc, struct svc_cmd *c,
		     struct mdp_diags *d);
/* Run TOOL VERB UNIT, which changes nothing, and keep what it said in L. */
int mdp_svc_unit_ask(const struct mdp_svc_backend *b, const char *tool, const char *verb,
		     const char *svc, struct unit_look *l, struct mdp_diags *d);
/* An is-active word (F9, F17) -> state; false for an unknown word. */
bool mdp_svc_unit_word(const char *w, enum svc_raw *st);
/* F16: systemctl show -p LoadState UNIT says whether a stopped unit exists. */
int mdp_svc_unit_load_state(const struct mdp_svc_backend *b, const char *svc, enum svc_raw *st,
			    struct mdp_diags *d);

/* The whole rule of mdp_ident_service_check(), also for "pkg:NAME" entries. */
bool mdp_svc_name_ok(const char *name);

/*
 * The command line b would run to resume svc, for "to restore by hand"
 * messages: exactly what resume() executes (by reason unless the memo says
 * the verbs are missing; dsm6 maps "pkg:NAME" to pkgctl-NAME, dsm7 sends
 * it to synopkg). -EINVAL for a name the backend
 * refuses or b without ops; -ENAMETOOLONG when buf is too small.
 */
int mdp_svc_resume_command(const struct mdp_svc_backend *b, const char *svc, char *buf, size_t len);

#endif
