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

#include <limits.h>
#include <stdbool.h>
#include <stddef.h>

#include "mdp_base.h"
#include "mdp_md.h"
#include "mdp_profile.h"

enum mdp_boot_target {
	MDP_BOOT_DSM,     /* a Task Scheduler boot-up task's script */
	MDP_BOOT_RCD,     /* an rc.d script: start|stop|status */
	MDP_BOOT_SYSTEMD, /* the rc.d script run by a oneshot unit, and a udev rule */
	MDP_BOOT_COUNT,
};

struct mdp_boot_opts {
	enum mdp_boot_target target;
	const char *binary; /* absolute path of mdprofile on the box */
	/*
	 * enable's files rather than boot-script's: named MDP_BOOT_ENABLED
	 * (mdprofile.sh, mdprofile.service, the DSM task mdprofile) instead of
	 * mdprofile-NAME; stop (rc.d, the unit's ExecStop) stops the watcher
	 * and reverts every layer; the udev rule reloads the unit, or starts it
	 * when it is not active, instead of restarting it.
	 */
	bool enable;
	const char *auto_profile; /* enable --auto: the overlay's name; NULL none */
	/*
	 * enable --auto: the overlay, loaded, pinned in place as the profile is
	 * and written into the script (the watcher's stdin: a relative path or a
	 * name found through --profiles works at boot too); NULL: boot-script
	 */
	struct mdp_profile *auto_p;
	/*
	 * enable on systemd where the package ships mdprofile.service and
	 * mdprofile-auto.service (mdp_boot_packaged): the script goes to
	 * MDP_BOOT_PKG_SCRIPT, which those units run, and no unit is written.
	 */
	bool packaged;
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
	const char *path;           /* the PATH the script sets */
	const char *rcd_dir;        /* where DSM 6 runs NAME.sh start|stop at boot */
	const char *home_dir;       /* a suggested home for the binary that updates keep */
	const char *task_steps;     /* the Task Scheduler clicks, one per line, ending in the
				       start of the command line; the task's operation follows */
	const char *scheduler;      /* the Task Scheduler's command line tool */
	const char *task_name;      /* the one boot-up task enable creates */
	const char *task_owner;     /* its owner, as --create takes it */
	const char *task_shell;     /* the shell its operation runs the script with */
	const char *log_priority;   /* the lowest that reaches /var/log/messages */
	const char *logset;         /* writes a Log Center entry */
	const char *logset_args[3]; /* its arguments before the text: category, level, event */
	const char *notify;         /* shows a DSM notification */
	const char *notify_args[2]; /* its arguments before the text: to whom, the title */
};
extern const struct mdp_boot_dsm mdp_boot_dsm;

/*
 * Tell DSM's owner text (one line): a Log Center entry (mdp_boot_dsm.logset),
 * and with notify a DSM notification to the administrators too
 * (mdp_boot_dsm.notify), through the root's own tools (exec.h), each at
 * most MDP_BOOT_TELL_MS. text should not end in a period: Log Center adds one.
 * 0; -ENOENT when the box has no Log Center tool (not DSM); else the
 * notification's failure, -EIO with its first line in why, or -errno
 * (a refusal's reason in d).
 */
#define MDP_BOOT_TELL_MS 5000
int mdp_boot_dsm_tell(const struct mdp_root *r, const char *text, bool notify, char *why,
		      size_t cap, struct mdp_diags *d);

/* "dsm", "rc.d", "systemd"; NULL for a value out of range. */
const char *mdp_boot_target_name(enum mdp_boot_target t);
/* The target named s: 0, or -EINVAL. */
int mdp_boot_target_parse(const char *s, enum mdp_boot_target *t);
/*
 * The target for this system: dsm on DSM (/etc.defaults/VERSION), systemd
 * where systemd runs (/run/systemd/system), else rc.d.
 */
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

/*
 * Where --install puts a target's files, and what it writes there: the
 * script, and for systemd a unit and a udev rule. Paths are system paths
 * (under the root); the script's: next to the binary on DSM (a volume
 * that DSM updates keep), the rc.d directory, /usr/local/lib/mdprofile.
 */
#define MDP_BOOT_FILES 4
/* The base name of enable's files and task (mdprofile.sh, mdprofile.service, ...). */
#define MDP_BOOT_ENABLED "mdprofile"
/* Where the script run by rc.d or a DSM task keeps the watcher's pid (enable --auto). */
#define MDP_BOOT_AUTO_PID "/run/mdprofile-auto.pid"
/*
 * The keeper's lock, in mdprofile's state directory (journal.h): held by the
 * one keeper for its life (src/boot/keeper.h says what it holds).
 */
#define MDP_BOOT_AUTO_LOCK "/run/mdprofile/keeper.lock"
/*
 * The boot script enable installed, while it runs at boot: "PID STEP [UNTIL]"
 * (STEP waiting, applying or re-checking; UNTIL, re-checking's end in seconds
 * since the epoch), removed when it ends; status says the boot task runs.
 */
#define MDP_BOOT_MARK "/run/mdprofile/boot"
/* Where its keeper's and the watcher's lines go (src/boot/keeper.h; DSM has no journal). */
#define MDP_BOOT_AUTO_LOG "/var/log/mdprofile-auto.log"
struct mdp_boot_file {
	char sys[4096];
	const char *what; /* "script", "unit", "udev rule", "watcher unit" */
	const char *head; /* how mdprofile's file begins: --uninstall removes no other */
	unsigned mode;
	char *text; /* malloc'd */
	size_t len;
	bool done; /* written or removed by the last install or uninstall */
};

void mdp_boot_files_free(struct mdp_boot_file *f, size_t n);

/*
 * What enable installed, kept in MDP_BOOT_RECORD so that disable, status
 * and the next enable know it without a profile: key=value lines, every
 * value one a boot script's code may hold (no quotes, spaces or '%').
 */
#define MDP_BOOT_RECORD "/etc/mdprofile/enabled"
/*
 * Where enable puts the boot script when the package owns the units: the
 * packaged mdprofile.service runs it with start (stop reverts), and
 * mdprofile-auto.service with auto; both do nothing without it.
 */
#define MDP_BOOT_PKG_SCRIPT "/etc/mdprofile/boot.sh"
struct mdp_boot_record {
	char profile[128];
	char auto_profile[PATH_MAX];
	char binary[PATH_MAX];
	enum mdp_boot_target target;
	bool task;  /* DSM: enable created the Task Scheduler task (else the owner was told how) */
	bool units; /* systemd: enable enabled the units (else the owner was told how) */
	bool packaged; /* systemd: the package's units run MDP_BOOT_PKG_SCRIPT (none written) */
};
/* 0 with *rec, -ENOENT when nothing is enabled, -EINVAL (with a diag) for a record not ours. */
int mdp_boot_record_read(const struct mdp_root *r, struct mdp_boot_record *rec,
			 struct mdp_diags *d);
/*
 * May the boot script run binary (a path on r) as root at every boot? It
 * must exist and be trusted (mdp_root_trusted: the file and every
 * directory down to it owned by root or the caller, not group/world-
 * writable, no link). 0, or -errno with a one-line reason in msg.
 */
int mdp_boot_check_binary(const struct mdp_root *r, const char *binary, char *msg, size_t cap);
/*
 * -o FILE: write the script to path (absolute, on r, the real root) and
 * say in shown where it went. A new or regular file is replaced atomically
 * (mode 0755); a link to a regular file replaces the file it points to;
 * anything else (a device, a FIFO, a link that does not resolve such as
 * /dev/stdout on a pipe) is opened and written into, never created or
 * renamed over. Refused (-EPERM, with the reason in d) when others could
 * swap what is written: a directory on the way owned by someone else, or
 * writable by group/others without the sticky bit; the directory that
 * holds the file (or the file a link leads to) writable by group/others at
 * all; a link owned by someone else. Other failures: -errno with d.
 */
int mdp_boot_write_out(const struct mdp_root *r, const char *path, const char *text, size_t len,
		       char *shown, size_t cap, struct mdp_diags *d);

/*
 * boot-script --install: the files of p's script for o->target made
 * (mdp_boot_files) and installed (mdp_boot_install). 0 or -errno as they
 * return, with f[0..*n) the files (free with mdp_boot_files_free).
 */
int mdp_boot_install_script(const struct mdp_root *r, const struct mdp_profile *p,
			    const struct mdp_boot_opts *o, const char *script, size_t len,
			    struct mdp_boot_file *f, size_t *n, struct mdp_diags *d);
/*
 * boot-script --uninstall: the files of profile name for o->target
 * (mdp_boot_paths) removed (mdp_boot_uninstall), by the name alone.
 * -EINVAL for a name 'apply --name' refuses; -EBUSY, nothing removed, when
 * its systemd unit is still enabled (removing it would leave a dangling
 * link); else as mdp_boot_uninstall, f[0..*n) saying which were removed.
 */
int mdp_boot_uninstall_named(const struct mdp_root *r, const char *name,
			     const struct mdp_boot_opts *o, struct mdp_boot_file *f, size_t *n,
			     struct mdp_diags *d);

#endif
