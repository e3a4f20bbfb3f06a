/* fault: MDPROFILE_FAULT test seam for end-to-end tests (see fault.c). */
#ifndef MDP_FAULT_H
#define MDP_FAULT_H

#include "root.h"
#include "services.h"

enum fault_kind {
	FAULT_NONE,
	FAULT_WRITE,
	FAULT_CLAMP,
	FAULT_CRASH,
	FAULT_CRASH_SVC,
	FAULT_FSYNC,
	FAULT_RENAME
};

struct fault {
	enum fault_kind kind;
	unsigned k;
	unsigned writes, fsyncs, renames, svc_calls;
	struct mdp_svc_ops svc_ops; /* the backend's ops with counting wrappers */
	const struct mdp_svc_ops *svc_real;
};

/* Parse spec ("write:3") and install the fault ops on r. -EINVAL on a bad spec. */
int fault_setup(struct mdp_root *r, struct fault *f, const char *spec);
/* For crash-after-service:K, wrap b's pause/resume to count them. */
void fault_wrap_services(struct fault *f, struct mdp_svc_backend *b);

#endif
