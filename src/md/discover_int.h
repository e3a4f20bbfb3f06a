/*
 * discover_int: what the files of discovery share, and nothing outside
 * src/md/ uses (discover.h is the interface; the door, mdp_md.h, does not
 * include this header).
 *
 *   discover.c           the run: one walk's reads and the rule that only
 *                        a missing file is absence, an array read whole,
 *                        the entry points
 *   discover_enum.c      which arrays there are: libudev's enumeration on
 *                        the real root, a walk of /sys/block otherwise
 *   discover_member.c    members, their roles, states and disks; the
 *                        disks' read-ahead and classes, each array's class
 *   discover_progress.c  an array's state and operation from md/ and
 *                        /proc/mdstat; an array only /proc/mdstat lists
 *   discover_values.c    the current value of every tunable; memory and
 *                        boot_id
 *   discover_uuid.c      an array's UUID: udev, md/uuid, mdadm, superblock
 *   discover_dsm.c       DSM's system arrays and resync speed setting,
 *                        from the facts in discover.h
 */
#ifndef MDP_DISCOVER_INT_H
#define MDP_DISCOVER_INT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "discover.h"
#include "mdp_base.h"
#include "mdstat.h"

#define SYS_BLOCK "/sys/block"

#ifndef MDP_NO_UDEV
struct udev;
#endif

/* State of one discovery run; nothing here outlives mdp_discover(). */
struct mdp_dwalk {
	const struct mdp_root *r;
	struct mdp_diags *d;
	unsigned skip;            /* enum mdp_discover_skip */
	int err;                  /* first read error that is not absence: the run fails */
	bool mdstat_loaded;       /* read lazily: lean runs only need it without sync_action */
	struct mdp_mdstat mdstat; /* empty when /proc/mdstat is absent or unreadable */
	bool dsm;                 /* /etc.defaults/VERSION: DSM's system-array rule applies */
	bool blk_loaded;
	char **blk; /* /sys/block entries, for finding a partition's disk */
	size_t n_blk;
#ifndef MDP_NO_UDEV
	struct udev *udev; /* real root only: enumeration and the udev database */
#endif
};

/* A growing list of names (arrays, disks). */
struct mdp_dnames {
	char **v;
	size_t n, cap;
};

/* ---- the walk (discover.c) --------------------------------------------------- */

int mdp_dw_names_add(struct mdp_dnames *l, const char *s);
void mdp_dw_names_free(struct mdp_dnames *l);
/* Copy s into a fixed field; false (and nothing copied) when it does not fit. */
bool mdp_dw_copy_str(char *dst, size_t cap, const char *s);
/* Whether a read's -errno means the file is absent. */
bool mdp_dw_absent(ssize_t err);
/* A hard read error of path: said, and the run's error unless skipping unreadable files. */
ssize_t mdp_dw_fail(struct mdp_dwalk *w, const char *path, ssize_t err);
/* A system file's value, stripped: its length, -ENOENT when absent, else -errno (said). */
ssize_t mdp_dw_read_sys(struct mdp_dwalk *w, const char *path, char *buf, size_t cap);
/* /sys/block/<dev>/<attr>, as mdp_dw_read_sys. */
ssize_t mdp_dw_read_attr(struct mdp_dwalk *w, const char *dev, const char *attr, char *buf,
			 size_t cap);
/* The leading decimal number of text ("4 (3)" gives 4): 0, or -EINVAL. */
int mdp_dw_lead_u64(const char *text, uint64_t *out);

/* ---- enumeration (discover_enum.c) ------------------------------------------- */

/* An mdN-like name: a candidate array, that md/level then settles. */
bool mdp_dw_is_md_name(const char *name);
/* The /sys/block listing into w->blk, read once. */
int mdp_dw_list_blk(struct mdp_dwalk *w);
/* The candidate arrays, sorted by md number. */
int mdp_dw_enumerate(struct mdp_dwalk *w, struct mdp_dnames *out);

/* ---- members and disks (discover_member.c) ----------------------------------- */

int mdp_dw_read_members(struct mdp_dwalk *w, struct mdp_array *a);
/* Each member's mstate, from its md/dev-X/state, else from ms (NULL: none). */
void mdp_dw_set_mstates(struct mdp_array *a, const struct mdp_mdstat_array *ms);
/* The member disks of all arrays, and each array's class from them. */
int mdp_dw_read_disks(struct mdp_dwalk *w, struct mdp_system *s);

/* ---- state and progress (discover_progress.c) -------------------------------- */

/* md's array in /proc/mdstat (read once per walk), NULL when it lists none. */
const struct mdp_mdstat_array *mdp_dw_mdstat_of(struct mdp_dwalk *w, const char *md);
void mdp_dw_read_sync_action(struct mdp_dwalk *w, struct mdp_array *a);
void mdp_dw_read_speed(struct mdp_dwalk *w, struct mdp_array *a);
void mdp_dw_read_progress(struct mdp_dwalk *w, struct mdp_array *a);

/* ---- values (discover_values.c) ---------------------------------------------- */

/* Tunable t of dev (NULL for a global one) into *c. */
void mdp_dw_read_cur(struct mdp_dwalk *w, enum mdp_tunable t, const char *dev, struct mdp_cur *c);
/* Every tunable of scope into cur (indexed by tunable); the others zeroed. */
void mdp_dw_read_tunables(struct mdp_dwalk *w, struct mdp_cur *cur, enum mdp_scope scope,
			  const char *dev);
void mdp_dw_read_meminfo(struct mdp_dwalk *w, struct mdp_system *s);
void mdp_dw_read_boot_id(struct mdp_dwalk *w, struct mdp_system *s);

/* ---- UUID (discover_uuid.c) -------------------------------------------------- */

void mdp_dw_read_uuid(struct mdp_dwalk *w, struct mdp_array *a);

/* ---- DSM (discover_dsm.c) ---------------------------------------------------- */

/* md0/md1's '_' slots that are empty bays (a->empty_bays), on DSM with super 0.90. */
void mdp_dw_dsm_empty_bays(bool dsm, struct mdp_array *a, const char *super, int missing);
/* The rule above for an array read from sysfs. */
void mdp_dw_dsm_rule(struct mdp_dwalk *w, struct mdp_array *a);
/* Empty bays that are a disk failed in a data array too. */
void mdp_dw_dsm_failed_disks(struct mdp_system *s);
void mdp_dw_read_dsm_speed(struct mdp_dwalk *w, struct mdp_dsm_speed *sp);

/*
 * Discover everything. Arrays that vanish mid-walk are skipped; an
 * unreadable attribute fails the run (-EACCES, -EIO, ...) with diags.
 */
int mdp_discover(const struct mdp_root *r, struct mdp_system *out, struct mdp_diags *d);

/*
 * Helpers of discovery, exported for tests and fuzzing.
 *
 * mdp_discover_uuid_norm: a UUID as read from md/uuid or mdadm, up to an
 * optional newline, through mdp_ident_uuid_norm() into out (cap >= 33).
 */
int mdp_discover_uuid_norm(const char *text, char *out, size_t cap);
/* MD_UUID=... of `mdadm --detail --export` output, normalised. -ENOENT if absent. */
int mdp_discover_mdadm_uuid(const char *text, size_t len, char *out, size_t cap);
/*
 * The UUID of a's udev record from its MD_UUID, MD_LEVEL and MD_DEVICES
 * properties (NULL when unset): -ENOENT without MD_UUID or MD_LEVEL,
 * -ESTALE when the level or disk count is not a's now (a record of another
 * array, or from before a reshape), -EINVAL on a malformed UUID.
 */
int mdp_discover_udev_uuid(const char *uuid, const char *level, const char *devices,
			   const struct mdp_array *a, char *out, size_t cap);
/*
 * The array UUID from the md superblock on an open member device or image:
 * v1.2 (4 KiB in), v1.1 (start), v1.0 (end - 8 KiB), then 0.90 (last 64 KiB
 * aligned block). -ENOENT when none is found, -errno on read errors.
 */
int mdp_discover_sb_uuid(int fd, char *out, size_t cap);
/*
 * md/sync_completed: "done / total" -> 0 and both numbers (sectors);
 * "none" or "delayed" -> -ENODATA; anything else -EINVAL.
 */
int mdp_discover_parse_sync_completed(const char *text, uint64_t *done, uint64_t *total);
/*
 * Progress in tenths of a percent as md itself prints it in /proc/mdstat
 * (md.c status_resync(): truncated, over total + 1 after scaling), so
 * status never disagrees with the file next to it.
 */
unsigned mdp_discover_permille(uint64_t done, uint64_t total);

#endif /* MDP_DISCOVER_INT_H */
