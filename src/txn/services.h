/*
 * services: pause and resume the services a profile lists, through the
 * NAS's own service manager. Backends are const ops tables:
 *   dsm6     synoservice --status|--pause-by-reason|--resume-by-reason NAME
 *   dsm7     synosystemctl get-active-status|stop-service-by-reason|
 *            start-service-by-reason UNIT, and "pkg:NAME" entries through
 *            synopkg status|stop|start NAME
 *   systemd  systemctl is-active|stop|start UNIT
 * The reason is always MDP_SVC_REASON; where the reason verbs are missing
 * the plain ones are used (and the backend remembers it, for a note).
 * After every stop and start the status is polled until it has changed.
 * The facts all this rests on are listed, with their sources, at the top
 * of services.c.
 * Commands run with fork/execve (never a shell), by absolute path from a
 * fixed list of directories resolved under the root, with a fixed minimal
 * environment and a timeout after which the command is killed.
 */
#ifndef MDP_SERVICES_H
#define MDP_SERVICES_H

#include <stdbool.h>
#include <stddef.h>

#include "mdp_base.h"

enum mdp_svc_state {
	MDP_SVC_RUNNING,
	MDP_SVC_STOPPED, /* exists but not running (or paused) */
	MDP_SVC_MISSING, /* the service manager does not know it */
};

/* The reason mdprofile pauses with: resume releases only this one. */
#define MDP_SVC_REASON "mdprofile"

struct mdp_svc_backend;

struct mdp_svc_ops {
	const char *name; /* "dsm6", "dsm7", "systemd" */
	int (*status)(const struct mdp_svc_backend *b, const char *svc, enum mdp_svc_state *st,
		      struct mdp_diags *d);
	int (*pause)(const struct mdp_svc_backend *b, const char *svc, struct mdp_diags *d);
	/*
	 * 0 when it runs again; -EBUSY (no diagnostic) when mdprofile's reason
	 * was released but DSM still holds the service stopped for one of its
	 * own: it is left so, not started.
	 */
	int (*resume)(const struct mdp_svc_backend *b, const char *svc, struct mdp_diags *d);
};

/* What a backend learnt while it ran. */
struct mdp_svc_memo {
	bool plain_verbs; /* the tool lacks the by-reason verbs: the plain ones were used */
};

struct mdp_svc_backend {
	const struct mdp_svc_ops *ops;
	const struct mdp_root *root;
	/*
	 * Services: each command, and the wait for a stop or start to show (ms).
	 * Precedence: a profile entry's own "timeout" wins (txn_svc.c runs that
	 * entry with a copy of the backend whose two fields both hold it); else
	 * --service-timeout/--package-timeout; else these defaults. The command
	 * line never overrides an entry's own timeout.
	 */
	unsigned timeout_ms;     /* default 30000 */
	unsigned pkg_timeout_ms; /* the same for "pkg:" entries; default 900000 */
	/* Told the process group of each stop/start tool as it starts (exec.h); may be NULL. */
	const struct mdp_exec_watch *watch;
	/* Where the backend notes what it learnt; NULL: nowhere (detect points it at learnt). */
	struct mdp_svc_memo *memo;
	struct mdp_svc_memo learnt;
};

extern const struct mdp_svc_ops mdp_svc_dsm6, mdp_svc_dsm7, mdp_svc_systemd;

/*
 * Pick the backend: force ("dsm6", "dsm7", "systemd", "none") or detect:
 * majorversion= in /etc.defaults/VERSION (6 -> dsm6, >= 7 -> dsm7), else
 * /run/systemd/system -> systemd, else none (*out->ops == NULL).
 */
int mdp_svc_detect(const struct mdp_root *r, const char *force, struct mdp_svc_backend *out,
		   struct mdp_diags *d);

#endif
