/*
 * boot: scripts that apply a profile again at every boot
 * (`mdprofile boot-script`).
 *
 * md and dev.raid values live in the kernel and are gone after a reboot,
 * and a reshape that takes days outlives a reboot or two. A boot script
 * carries its profile inside itself, pinned (pin.h): extends flattened,
 * rules that named arrays rewritten to match their UUIDs, so arrays the
 * kernel numbers differently at the next boot get the same values. It
 * feeds that text to `mdprofile apply -` from a binary at an absolute
 * path; no profile file, YAML library or HOME is needed at boot.
 *
 * What the script does at boot is written in it: set PATH and the locale,
 * work from /, wait for the pinned arrays, apply, wait, run `diff -` and
 * apply once more if something (DSM) changed a value since, log every step
 * to syslog and stdout, and exit non-zero when anything could not be set.
 *
 * Everything the generator assumes about DSM is in struct mdp_boot_dsm
 * (boot.c), in one place, with where it comes from.
 */
#ifndef MDP_BOOT_H
#define MDP_BOOT_H

#include <stdbool.h>
#include <stddef.h>

#include "diag.h"
#include "discover.h"
#include "profile.h"
#include "root.h"

enum mdp_boot_target {
	MDP_BOOT_DSM, /* a Task Scheduler boot-up task's script */
	MDP_BOOT_RCD, /* an rc.d script: start|stop|status */
	MDP_BOOT_COUNT,
};

struct mdp_boot_opts {
	enum mdp_boot_target target;
	const char *binary;     /* absolute path of mdprofile on the box */
	unsigned wait_arrays;   /* seconds to wait for the pinned arrays */
	unsigned recheck_after; /* seconds before the re-check; 0: none */
	bool with_services;     /* keep the profile's services to pause */
	const char *version;    /* mdprofile's, for the header */
	long long when;         /* seconds since the epoch, for the header */
};

/*
 * DSM facts boot persistence rests on. None could be checked on a
 * DiskStation here; each field says where it comes from.
 */
struct mdp_boot_dsm {
	const char *path;       /* the PATH the script sets */
	const char *rcd_dir;    /* where DSM 6 runs NAME.sh start|stop at boot */
	const char *home_dir;   /* a suggested home for the binary that updates keep */
	const char *task_steps; /* the Task Scheduler clicks, one per line */
};
extern const struct mdp_boot_dsm mdp_boot_dsm;

/* "dsm", "rc.d"; NULL for a value out of range. */
const char *mdp_boot_target_name(enum mdp_boot_target t);
/* The target named s: 0, or -EINVAL. */
int mdp_boot_target_parse(const char *s, enum mdp_boot_target *t);
/* The target for this system: dsm on DSM (/etc.defaults/VERSION), else rc.d. */
enum mdp_boot_target mdp_boot_target_detect(const struct mdp_root *r);

/*
 * The boot script for p on system s in *out (malloc'd, NUL-terminated,
 * *len bytes). p is pinned in place to s's UUIDs (mdp_pin_uuids) and,
 * without o->with_services, loses its services. -EINVAL with every reason
 * in d when a name cannot be pinned or a value that would go into the
 * script could change what it runs (quotes, $, backticks, newlines);
 * -ENOMEM.
 */
int mdp_boot_script(struct mdp_profile *p, const struct mdp_system *s,
		    const struct mdp_boot_opts *o, char **out, size_t *len, struct mdp_diags *d);

#endif
