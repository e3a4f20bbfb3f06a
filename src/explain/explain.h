/*
 * explain: why an md operation runs at the speed it does, as pure
 * functions over two samples of what was read from /proc and /sys.
 *
 * The sampler (explain_sample.c) fills struct mdp_xsample twice, --interval
 * apart; mdp_explain_array() compares two of them for one array and returns
 * the findings in the order of docs/explain.md's checks, the binding one
 * first. Nothing here reads a file, prints or sleeps: the rules are tested
 * with the figures users reported (tests/unit/test_explain.c).
 *
 * Units: speeds in KiB/s per member device, as md prints and limits them;
 * progress in KiB per device (mdstat's "(done/total)"); diskstats sectors
 * of 512 bytes; CPU in USER_HZ ticks (100 per second on every Linux ABI).
 */
#ifndef MDP_EXPLAIN_H
#define MDP_EXPLAIN_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "mdp_md.h"

#include "mdp_base.h"

#define MDP_X_MEMBERS  32
#define MDP_X_THREADS  8
#define MDP_X_EVIDENCE 8
#define MDP_X_FINDINGS 12
#define MDP_X_TEXT     200

/* One line of /proc/diskstats. */
struct mdp_xio {
	char name[MDP_NAME_MAX];
	bool present;
	bool full;      /* 14 or more fields: ios, ms, in-flight and io_ticks are there */
	unsigned field; /* fields on the line: 7 (old partition lines), 14, 18 or 20 */
	uint64_t rd_ios, rd_sect, rd_ms, wr_ios, wr_sect, wr_ms, inflight, io_ticks;
	uint64_t rd_merges, wr_merges; /* requests merged into others (full lines only) */
};

/* A speed limit as md shows it: "1000 (system)", "50000 (local)" or the sysctl's "1000". */
struct mdp_xlimit {
	bool read;
	bool local; /* set on this array: the sysctl does not move it */
	uint64_t kib;
};

struct mdp_xmember {
	char name[MDP_NAME_MAX]; /* "sda5" */
	char disk[MDP_NAME_MAX]; /* "sda"; the name itself for a whole disk */
	char state[48];          /* md/dev-X/state; "" unread */
	bool errors_read;
	uint64_t errors;            /* md/dev-X/errors (corrected read errors) */
	int64_t offset, new_offset; /* md/dev-X/offset, new_offset; -1 unread */
	int rotational;             /* queue/rotational of its disk: 1, 0, -1 unread */
	enum mdp_media media;       /* its disk's class (mdp_ident_disk_media) */
	bool spare, faulty;         /* from mdstat's (S) and (F) */
	int64_t bad_blocks;         /* entries in md/dev-X/bad_blocks; -1 unread */
	int64_t ioerr, iotmo;       /* its disk's device/ioerr_cnt, iotmo_cnt; -1 unread */
	char bus[48];               /* its disk's controller or bus (mdp_explain_bus_of); "" */
	uint64_t bus_kib;           /* that controller's own link, KiB/s; 0 unknown */
	char bus_link[48];          /* the link as sysfs says it: "PCIe 5.0 GT/s x1" */
	char pci_bus[48];           /* the bridge of its controller's conventional PCI bus; "" */
	char port[16];              /* its SATA port, "ata3" (mdp_explain_port_of); "" */
	uint64_t port_kib;          /* that port's link (sata_spd), KiB/s; 0 unknown */
	char port_link[24];         /* "SATA 3.0 Gb/s" */
	struct mdp_xio part;        /* its own diskstats line */
	struct mdp_xio whole;       /* its disk's line (the same line for a whole disk) */
	struct mdp_smart smart; /* its disk's SMART, read once after the window (second sample) */
};

/* A kernel thread of this array: md3_raid5, md3_resync, md3_reshape, ... */
struct mdp_xthread {
	char comm[20];
	int pid;
	uint64_t ticks; /* utime + stime from /proc/PID/stat */
	char wchan[32]; /* /proc/PID/wchan: where it sleeps; "" unread, "0" running */
	int64_t start;  /* when it started, USER_HZ ticks after boot (stat field 22); -1 unread */
};

/* One array at one instant. Numbers that were not read are -1 (int64) or flagged. */
struct mdp_xarray {
	char name[MDP_NAME_MAX];
	char level[16];          /* "raid5" */
	char action[16];         /* md/sync_action, else mdstat's operation; "idle" */
	char queued[16];         /* mdstat's resync=DELAYED / PENDING; else "" */
	char array_state[32];    /* md/array_state */
	char sync_completed[48]; /* as read: "123 / 456", "none", "delayed" */
	char sync_max[32];       /* md/sync_max as read: "max" or sectors */
	bool have_progress;      /* mdstat printed "(done/total)" */
	uint64_t done_kib, total_kib;
	int64_t sync_speed;         /* md/sync_speed (md's own 30 s average), -1 unread */
	struct mdp_xlimit min, max; /* md/sync_speed_min/max */
	int64_t stripe_size, stripe_active, group_threads; /* -1 unread or not raid4/5/6 */
	int64_t chunk_kib;
	int64_t suspend_hi;
	bool backup_file; /* /run/mdadm/backup_file-mdX exists */
	char bitmap[32];  /* md/bitmap/location: "+8", "none", "file"; "" unread */
	/* md/reshape_position: "none", or where an unfinished reshape stands; "" unread */
	char reshape_position[32];
	int degraded;      /* md/degraded (raid disks missing), else mdstat's [n/m]; -1 unread */
	struct mdp_xio io; /* the md device's own diskstats line */
	struct mdp_xmember members[MDP_X_MEMBERS];
	size_t n_members;
	struct mdp_xthread threads[MDP_X_THREADS];
	size_t n_threads;
	bool threads_read; /* /proc was listed */
};

/* The whole box at one instant. */
struct mdp_xsample {
	struct mdp_xlimit sys_min, sys_max; /* /proc/sys/dev/raid/speed_limit_* */
	bool sync_io_depth;                 /* /proc/sys/dev/raid/sync_io_depth exists: 6.16 rule */
	char release[64];                   /* /proc/sys/kernel/osrelease; "" unread */
	bool vmstat_read;
	uint64_t pswpin, pswpout; /* pages */
	bool stat_read;
	uint64_t cpu_idle, cpu_total; /* /proc/stat "cpu" line, ticks: idle+iowait, all */
	unsigned ncpu;
	struct mdp_xarray *arrays;
	size_t n_arrays;
};

enum mdp_xkind {
	MDP_XK_WAITING,
	MDP_XK_STUCK,
	MDP_XK_PATHOLOGY, /* a sign md is in trouble while it moves: bad blocks, a spinning
			     thread, a resync that cannot make the array redundant */
	MDP_XK_FINISHING,
	MDP_XK_MEMBER,
	MDP_XK_TARGET,     /* the disk a recovery writes, saturated by its own writes */
	MDP_XK_CONTROLLER, /* members sharing one controller or bus that is full */
	MDP_XK_RESHAPE_METHOD,
	MDP_XK_CEILING,
	MDP_XK_FLOOR,
	MDP_XK_COMPETING_IO,
	MDP_XK_CPU,
	MDP_XK_STRIPE_CACHE,
	MDP_XK_REQUEST_PATTERN,
	MDP_XK_DISKS_AT_LIMIT,
	MDP_XK_GOAL, /* a latency goal the watcher steers the array's minimum by */
	MDP_XK_INFO,
};

enum mdp_xrec {
	MDP_XR_NONE,    /* nothing mdprofile can set helps */
	MDP_XR_PROFILE, /* a shipped profile: name */
	MDP_XR_SETTING, /* one setting: name ("md3/sync_speed_max"), value */
};

enum mdp_xgain {
	MDP_XG_UNKNOWN, /* cannot be computed from two samples */
	MDP_XG_UPPER,   /* at most speed_kib (floor: the new min, if the disks can) */
	MDP_XG_ROUGH,   /* about speed_kib (ceiling: speed scaled by the disks' idle share) */
	MDP_XG_ZERO,    /* nothing to gain: the disks are the limit */
};

struct mdp_xfinding {
	enum mdp_xkind kind;
	char evidence[MDP_X_EVIDENCE][MDP_X_TEXT];
	size_t n_evidence;
	enum mdp_xrec rec;
	char rec_name[64];
	char rec_value[32];
	char rec_text[MDP_X_TEXT];
	enum mdp_xgain gain;
	uint64_t gain_kib; /* the speed it leads to (UPPER, ROUGH) or keeps (ZERO) */
};

enum mdp_xspeed_src {
	MDP_XS_NONE,   /* no operation, or no figure */
	MDP_XS_MDSTAT, /* progress delta over the window */
	MDP_XS_MD,     /* md/sync_speed: progress did not move in the window */
};

struct mdp_xreport {
	char array[MDP_NAME_MAX];
	char action[16]; /* the operation in the second sample; "none" when nothing runs */
	uint64_t speed_kib;
	enum mdp_xspeed_src speed_src;
	double window_s;
	uint64_t done_kib, total_kib;
	uint64_t eta_s;             /* 0: unknown */
	struct mdp_xlimit min, max; /* effective: the array's own, else the sysctl */
	const char *rule;  /* md's pacing rule by kernel: "sleep", "drain", "depth", "unknown" */
	const char *binds; /* "min", "max", "below-min", "between", "" */
	struct mdp_xfinding findings[MDP_X_FINDINGS];
	size_t n_findings;
};

/* The kind's name in JSON and text: "waiting", "competing-io", ... */
const char *mdp_explain_kind_name(enum mdp_xkind k);
const char *mdp_explain_gain_name(enum mdp_xgain g);

/*
 * One of them as the caller found it (explain_run.h): the speed limits it
 * sets, from the profile itself, and whether apply would refuse it on this
 * box (its plan does not fit: fixed stripe caches above the memory
 * budget), with the planner's reason. explain recommends a profile by its
 * limits, skips a refused one (saying why) for the next, or none.
 */
struct mdp_xprofile {
	char name[32];
	uint64_t min, max; /* speed_limit_min/max it sets, KiB/s per device; 0: none */
	bool min_floor;    /* min is {at_least: min}: a higher minimum the box has stays */
	bool max_floor;    /* max is {at_least: max}: a higher maximum the box has stays */
	/* the array's own sync_speed_min a rule selecting by disk class sets on an array of
	 * class c (match: {media: [...]}, nothing else), 0: none; and whether it is at_least */
	uint64_t class_min[MDP_MEDIA_COUNT];
	bool class_min_floor[MDP_MEDIA_COUNT];
	/* its latency goal, ms (0: none): a goal profile is offered beside the fixed ones
	 * where other I/O competes, never recommended for its limits */
	unsigned goal_ms;
	bool refused;
	char why[256];
};
struct mdp_xprofiles {
	struct mdp_xprofile v[4];
	size_t n;
};

#endif
