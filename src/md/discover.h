/*
 * discover: the live state of the machine, as one model.
 *
 * On the real root the md arrays are enumerated with libudev (subsystem
 * "block", sysname md*, whole disks) and each array's UUID is taken from
 * its udev record (MD_UUID, checked against MD_LEVEL and MD_DEVICES) where
 * udevd made one; under a fixture root, and in the static build
 * (MDP_NO_UDEV), by a walk of /sys/block. Either way the same attribute
 * files are then read through root, so the model is the same. /proc/mdstat
 * is parsed for progress where sysfs lacks it (and for the status display).
 *
 * Only a missing file is absence. An attribute that exists but cannot be
 * read (EACCES, EIO) fails discovery with a diagnostic naming the file:
 * taking it for absent would drop an array or a setting without a word.
 */
#ifndef MDP_DISCOVER_H
#define MDP_DISCOVER_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "mdp_base.h"
#include "mdstat.h"
#include "tunable.h"

#define MDP_RAW_MAX 64

/*
 * A member's role as status says it, one word per kernel state whichever
 * file told: md/dev-X/state where it exists, else mdstat's flags.
 */
enum mdp_mstate {
	MDP_M_IN_SYNC,    /* "in_sync" */
	MDP_M_FAILED,     /* "failed": faulty, or Synology's (E) disk errors */
	MDP_M_SPARE,      /* "spare": no role */
	MDP_M_REBUILDING, /* "spare_rebuilding": has a role, not in sync yet (mdadm's words) */
	MDP_M_JOURNAL,    /* "journal": a raid4/5/6 write journal, (J) */
};
/* "in_sync", "failed", "spare", "spare_rebuilding", "journal". */
const char *mdp_mstate_name(enum mdp_mstate st);

struct mdp_member {
	char name[MDP_NAME_MAX]; /* "sda5" */
	char disk[MDP_NAME_MAX]; /* whole disk holding it: "sda"; same as name for a whole disk */
	int slot;                /* role number in the array, -1 spare/unknown */
	char state[48];          /* md/dev-X/state: "in_sync", "faulty", "spare", ...; "" unread */
	enum mdp_mstate mstate;  /* from state, else mdstat's flags (in_sync when neither) */
	bool disk_errors;        /* Synology's (E) in mdstat */
};

/*
 * DSM facts status rests on (Synology's published md source and DSM
 * 6.2.3's shipped files; none could be checked on a DiskStation here):
 *
 * - System arrays: md0 (the system, a v0.90 superblock) and md1 (swap)
 *   are raid1 over partitions 1 and 2 of every disk, sized for the bay
 *   count, so a box with empty bays shows [4/2] [UU__] on them for ever.
 *   Nothing failed there (mdadm --detail says "degraded" all the same).
 *   The rule that counts those '_' slots as empty bays, not missing disks,
 *   holds only where all of it identifies them: DSM (/etc.defaults/VERSION),
 *   the name md0 or md1, raid1, superblock 0.90. A member that failed
 *   still counts as failed there.
 * - A DSM data scrub is md "repair" (DSM writes sync_min, then "repair";
 *   pauses with "idle"); /proc/mdstat shows it as "resync = x%". DSM keeps
 *   its place in /var/lib/datascrubbing/datascrubbing.status and its own
 *   schedule's time window pauses and resumes it that way, so a pause of
 *   mdprofile's must keep the place DSM reads (idle, never sync_min 0).
 * - DSM's "RAID Resync Speed Limits" setting: /usr/syno/etc/raid_setting.conf,
 *   section [ResyncSpeed], resync_speed_option = resync_slower (the default:
 *   10000 / 600000 KB/s), resync_faster (300000 / 600000) or resync_manual
 *   (min_resync_speed, max_resync_speed; the GUI's MB/s, conversion not
 *   known). DSM writes it to dev.raid.speed_limit_min/max at every boot
 *   and whenever the setting changes.
 * - Storage Manager's words for what md runs, from DSM 6.2.3's
 *   usr/syno/synoman/webman/texts/enu/strings (section [volume], the keys
 *   named): recover "Repairing" (volume_status_repair); reshape "Expanding"
 *   (volume_status_expand: md's reshape does not tell an expansion from
 *   "Reshaping" on an added drive or "Changing" the RAID type, its other
 *   words); resync "Re-synchronizing" (volume_status_resync); repair, DSM's
 *   data scrub, "Data scrubbing" (volume_adddisk2_type_data_scrubbing; its
 *   GUI note names "data scrubbing, repairing, expanding storage pools").
 *   DSM starts no check (its scrub writes repair): a check has no word of
 *   Storage Manager's, and keeps md's alone.
 */
struct mdp_discover_dsm {
	const char *version_file;     /* its presence says DSM */
	const char *system_arrays[2]; /* md0, md1 */
	const char *system_level;     /* raid1 */
	const char *system_super;     /* 0.90 */
	const char *raid_setting;     /* /usr/syno/etc/raid_setting.conf */
	const char *speed_section;    /* ResyncSpeed */
	struct {
		const char *option;
		uint64_t min, max; /* KB/s */
	} presets[2];              /* resync_slower, resync_faster */
	struct {
		const char *action, *word; /* md's sync_action, Storage Manager's word */
	} words[4];
};
extern const struct mdp_discover_dsm mdp_discover_dsm;

/* Storage Manager's word for md's sync_action (mdp_discover_dsm.words), NULL for none. */
const char *mdp_dsm_op_word(const char *action);

/* DSM's resync speed setting as raid_setting.conf holds it. */
struct mdp_dsm_speed {
	bool present;    /* the file and its [ResyncSpeed] section were read */
	char option[32]; /* resync_slower, resync_faster, resync_manual (as written) */
	bool known;      /* min and max known: a preset, or manual with both numbers */
	uint64_t min, max;
};

/* The current value of one tunable as read. */
struct mdp_cur {
	bool present;          /* the attribute exists */
	char raw[MDP_RAW_MAX]; /* exactly what was read (for the baseline) */
	struct mdp_value val;  /* parsed; valid only when present */
};

struct mdp_array {
	char name[MDP_NAME_MAX]; /* "md2" */
	enum mdp_level level;
	char level_name[16]; /* as md shows it, "raid5" */
	int raid_disks;      /* 0 when md/raid_disks is missing or does not parse */
	int prev_raid_disks; /* mid-reshape, md shows "4 (3)": the old count; else 0 */
	struct mdp_member *members;
	size_t n_members;
	char uuid[40];           /* lowercase hex, no separators; "" when unknown */
	const char *uuid_source; /* "udev", "md/uuid", "mdadm", "superblock" or "unknown" */
	char array_state[32];    /* md/array_state: clean, active, ...; mdstat's word without it */
	char sync_action[16];    /* idle, resync, recover, reshape, check, repair, frozen (mdstat's
				    "recovery" is "recover": one word per kernel state) */
	bool has_progress;
	uint64_t sync_done, sync_total; /* sectors, from md/sync_completed or mdstat */
	uint64_t sync_speed;            /* KiB/s (md/sync_speed, else mdstat's speed=) */
	bool sync_speed_md;             /* sync_speed is md/sync_speed's own number */
	/*
	 * md/sync_speed reads "none" (md's curr_resync is 0): no sync thread works,
	 * even while md/sync_action names an operation. md shows one a moment
	 * before its thread starts (md_check_recovery sets MD_RECOVERY_RUNNING even
	 * when it then finds no spare, as after mdadm --fail) and after the thread
	 * ended, until md reaps it (md/degraded drops only then).
	 */
	bool no_sync_thread;
	uint64_t size_kib;     /* array size (blocks in mdstat) */
	int degraded;          /* md/degraded (raid disks missing), -1 when absent */
	unsigned permille;     /* progress as md truncates it: 25.1% -> 251 */
	char sync_queued[16];  /* "DELAYED", "PENDING", "REMOTE" (mdstat), else "" */
	uint64_t kernel_eta_s; /* md's own finish= estimate in seconds, 0 if none */
	/*
	 * Where md's operation may go and what it holds, as md shows them (explain
	 * reads them; not read when skipping progress): "" or -1 when absent.
	 */
	char sync_completed[48];     /* md/sync_completed: "123 / 456", "none", "delayed" */
	char sync_max[32];           /* md/sync_max: "max" or sectors */
	int64_t stripe_cache_active; /* md/stripe_cache_active (raid4/5/6) */
	int64_t chunk_kib;           /* md/chunk_size / 1024 */
	int64_t suspend_hi;          /* md/suspend_hi: sectors a stepped reshape holds back */
	char bitmap[32];             /* md/bitmap/location: "+8", "none", "file" */
	char reshape_position[32];   /* md/reshape_position: "none" or the sector a reshape is at */
	int empty_bays;              /* DSM's md0/md1: '_' slots of empty bays (not in degraded) */
	bool from_mdstat;            /* built from /proc/mdstat alone (mdp_discover_from_mdstat) */
	struct mdp_cur cur[MDP_T_COUNT]; /* array-scope tunables */
	/*
	 * Its disks' class (ident.h): hdd, ssd or nvme when all members are
	 * of one, mixed when they differ, unknown when any member's disk or
	 * its class is unknown, or members were not read. media_bits holds
	 * 1u << the class of each member's disk (the unknown bit included).
	 */
	enum mdp_media media;
	unsigned media_bits;
};

/*
 * A disk's class: nvme for an NVMe namespace (named nvme<N>n<N>, or its
 * /sys/block link under an nvme controller or subsystem), else ssd or hdd
 * by queue/rotational 0 or 1; unknown when that file is absent or holds
 * anything else.
 */
struct mdp_disk {
	char name[MDP_NAME_MAX];   /* "sda" */
	struct mdp_cur read_ahead; /* /sys/block/sda/queue/read_ahead_kb */
	enum mdp_media media;
};

/* An operation running on an array and md's speed of it (apply journals them, status shows). */
struct mdp_op_speed {
	char dev[MDP_NAME_MAX];
	char action[16]; /* md/sync_action's word */
	uint64_t kib_s;  /* md/sync_speed */
};

struct mdp_system {
	struct mdp_array *arrays; /* sorted by md number */
	size_t n_arrays;
	struct mdp_disk *disks; /* member disks of all arrays, sorted, unique */
	size_t n_disks;
	struct mdp_cur global[MDP_T_COUNT];    /* SPEED_LIMIT_MIN/MAX */
	uint64_t mem_total_kib, mem_avail_kib; /* 0 when absent or not a number */
	char boot_id[40];                      /* /proc/sys/kernel/random/boot_id, "" if absent */
	unsigned skipped;                      /* enum mdp_discover_skip bits not read */
	/* /proc/mdstat as parsed (empty when absent or skipped): arrays sysfs lacks show from it */
	struct mdp_mdstat mdstat;
	bool dsm; /* /etc.defaults/VERSION exists */
	struct mdp_dsm_speed
	    dsm_speed; /* DSM's resync speed setting (not read when skipping progress) */
};

/*
 * Is md loaded on r: /proc/mdstat or /proc/sys/dev/raid exists (the md driver makes both as
 * it loads, before any array)? 0 yes; -ENOENT no, with the one message every command that
 * needs md gives in d.
 */
int mdp_md_loaded(const struct mdp_root *r, struct mdp_diags *d);

/*
 * Parts of the model a caller may go without, to read fewer files (apply
 * on a big box): what is skipped stays zero/empty and is recorded in
 * mdp_system.skipped. sync_action, levels, raid_disks and every tunable
 * are always read, and so is the speed of a running operation.
 */
enum mdp_discover_skip {
	MDP_SKIP_PROGRESS = 1 << 0, /* array_state, sync_completed/speed, size, /proc/mdstat */
	MDP_SKIP_UUID = 1 << 1,     /* uuid stays "", uuid_source "not read" */
	MDP_SKIP_MEMBERS = 1 << 2,  /* no members, no member disks */
	/* status: no /sys/block is a note, not an error; arrays then come from /proc/mdstat only */
	MDP_SKIP_ABSENT_SYSFS = 1 << 3,
	/*
	 * explain: an attribute that exists but cannot be read is left out, as if
	 * absent, with a diag whose file is its path and whose message is the error,
	 * instead of failing the run.
	 */
	MDP_SKIP_UNREADABLE = 1 << 4,
	/* members' disks are not looked up (disk stays ""; explain has diskstats for it) */
	MDP_SKIP_MEMBER_DISKS = 1 << 5,
};
int mdp_discover_some(const struct mdp_root *r, unsigned skip, struct mdp_system *out,
		      struct mdp_diags *d);
void mdp_system_free(struct mdp_system *s);
/*
 * One array by name, read as mdp_discover_some() reads each (skip alike),
 * without what needs the whole system: DSM's empty bays are not counted and
 * media stays unknown. ms is /proc/mdstat as the caller parsed it (NULL:
 * read when needed). 0 with *out (free out->members), 1 when sysfs shows no
 * such array (no md/level; mdp_discover_from_mdstat then), -errno.
 */
int mdp_discover_array(const struct mdp_root *r, const struct mdp_mdstat *ms, const char *name,
		       unsigned skip, struct mdp_array *out, struct mdp_diags *d);
/* One tunable of dev (NULL for a global one) as discovery reads it (skip's UNREADABLE bit). */
void mdp_discover_cur(const struct mdp_root *r, unsigned skip, enum mdp_tunable t, const char *dev,
		      struct mdp_cur *c, struct mdp_diags *d);
/*
 * An array only /proc/mdstat lists, as the same model sysfs arrays have
 * (the same words: recover, read-auto, in_sync ...; no tunables, uuid "",
 * members without slots). out->members is malloc'd: free it. 0 or -ENOMEM.
 */
int mdp_discover_from_mdstat(const struct mdp_system *s, const struct mdp_mdstat_array *ms,
			     struct mdp_array *out);
const struct mdp_array *mdp_system_array(const struct mdp_system *s, const char *name);
const struct mdp_disk *mdp_system_disk(const struct mdp_system *s, const char *name);

#endif
