/*
 * services: pause and resume the services a profile lists, through the
 * NAS's own service manager. Backends are const ops tables:
 *   dsm6     synoservice --status|--pause|--resume NAME
 *   dsm7     synosystemctl get-active-status|stop|start UNIT,
 *            and "pkg:NAME" entries through synopkg status|stop|start NAME
 *   systemd  systemctl is-active|stop|start UNIT
 * Commands run with fork/execve (never a shell), by absolute path from a
 * fixed list of directories resolved under the root, with a fixed minimal
 * environment and a timeout after which the command is killed.
 */
#ifndef MDP_SERVICES_H
#define MDP_SERVICES_H

#include <stdbool.h>
#include <stddef.h>

#include "diag.h"
#include "exec.h"
#include "root.h"

enum mdp_svc_state {
	MDP_SVC_RUNNING,
	MDP_SVC_STOPPED, /* exists but not running (or paused) */
	MDP_SVC_MISSING, /* the service manager does not know it */
};

struct mdp_svc_backend;

struct mdp_svc_ops {
	const char *name; /* "dsm6", "dsm7", "systemd" */
	int (*status)(const struct mdp_svc_backend *b, const char *svc, enum mdp_svc_state *st,
		      struct mdp_diags *d);
	int (*pause)(const struct mdp_svc_backend *b, const char *svc, struct mdp_diags *d);
	int (*resume)(const struct mdp_svc_backend *b, const char *svc, struct mdp_diags *d);
};

struct mdp_svc_backend {
	const struct mdp_svc_ops *ops;
	const struct mdp_root *root;
	unsigned timeout_ms; /* per command; default 30000 */
	/* Told each tool's process group as it starts (exec.h); may be NULL. */
	const struct mdp_exec_watch *watch;
};

extern const struct mdp_svc_ops mdp_svc_dsm6, mdp_svc_dsm7, mdp_svc_systemd;

/*
 * Pick the backend: force ("dsm6", "dsm7", "systemd", "none") or detect:
 * majorversion= in /etc.defaults/VERSION (6 -> dsm6, >= 7 -> dsm7), else
 * /run/systemd/system -> systemd, else none (*out->ops == NULL).
 */
int mdp_svc_detect(const struct mdp_root *r, const char *force, struct mdp_svc_backend *out,
		   struct mdp_diags *d);
/* The whole rule of mdp_ident_service_check(), also for "pkg:NAME" entries. */
bool mdp_svc_name_ok(const char *name);

/*
 * The command line b would run to resume svc, for "to restore by hand"
 * messages: exactly what resume() executes (dsm6 maps "pkg:NAME" to
 * pkgctl-NAME, dsm7 sends it to synopkg). -EINVAL for a name the backend
 * refuses or b without ops; -ENAMETOOLONG when buf is too small.
 */
int mdp_svc_resume_command(const struct mdp_svc_backend *b, const char *svc, char *buf, size_t len);

#endif
