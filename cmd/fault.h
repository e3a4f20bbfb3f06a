/*
 * fault: the command layer's hook for the MDPROFILE_FAULT test seam.
 *
 * The seam itself (tests/seams/fault.c) is compiled only into test and
 * lab builds, which define MDP_FAULT_SEAM: the sanitizer build of the CLI
 * tests, the valgrind build and the VM lab's static build. Without the
 * flag these hooks do nothing and cmd/mdprofile.c does not read the
 * variable, so the release and static binaries neither honour nor name
 * it: what users run cannot fail or crash on purpose.
 */
#ifndef MDP_FAULT_H
#define MDP_FAULT_H

#include "mdp_base.h"
#include "mdp_txn.h"

#ifdef MDP_FAULT_SEAM

enum fault_kind {
	FAULT_NONE,
	FAULT_WRITE,
	FAULT_CLAMP,
	FAULT_CRASH,
	FAULT_CRASH_SVC,
	FAULT_FSYNC,
	FAULT_RENAME,
	FAULT_MINUTE,
	FAULT_NOW
};

/* The wrappers find this around their own ops table and call the ops they replaced. */
struct fault {
	struct mdp_root_ops ops;          /* root's ops, wrapped */
	const struct mdp_root_ops *inner; /* the ops they replaced */
	struct mdp_svc_ops svc_ops;       /* the backend's ops, pause/resume counted */
	const struct mdp_svc_ops *svc_inner;
	enum fault_kind kind;
	unsigned k;
	unsigned writes, fsyncs, renames, svc_calls;
};

/* Parse spec ("write:3") and wrap r's ops. Unset or empty: nothing. -EINVAL on a bad spec. */
int fault_setup(struct mdp_root *r, struct fault *f, const char *spec);
/* For crash-after-service:K, wrap b's pause/resume to count them. */
void fault_wrap_services(struct fault *f, struct mdp_svc_backend *b);

/* minute:MS: a minute of auto --textfile's lasts MS ms (a soak in fast time); else minute_s. */
static inline double fault_minute_s(const struct fault *f, double minute_s)
{
	return f->kind == FAULT_MINUTE ? f->k / 1000.0 : minute_s;
}

/* now:EPOCH: the wall clock status counts a check's finish from is EPOCH; else now. */
static inline int64_t fault_now(const struct fault *f, int64_t now)
{
	return f->kind == FAULT_NOW ? (int64_t)f->k : now;
}

#else

struct fault {
	char unused; /* C has no empty structs */
};

static inline void fault_wrap_services(struct fault *f, struct mdp_svc_backend *b)
{
	(void)f;
	(void)b;
}

static inline double fault_minute_s(const struct fault *f, double minute_s)
{
	(void)f;
	return minute_s;
}

static inline int64_t fault_now(const struct fault *f, int64_t now)
{
	(void)f;
	return now;
}

#endif
#endif
