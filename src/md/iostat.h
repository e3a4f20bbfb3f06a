/*
 * iostat: an array's foreground latency, from the block layer's counters,
 * for a profile's goal (goal.h). Read through root, so fixture trees can
 * make the counters move.
 *
 * /sys/block/X/stat (Documentation/block/stat.rst): read I/Os, read
 * merges, read sectors, read ticks (ms), write I/Os, write merges, write
 * sectors, write ticks (ms), then more that are not used here. Over an
 * interval, (read ticks + write ticks) / (read I/Os + write I/Os) is the
 * mean time a request took: what the shares and Plex wait.
 *
 * The array's own counters (/sys/block/mdN/stat) count only requests
 * through the array, never the sync's, which md issues to the members
 * itself. md has counted the requests since long before 3.10 (md.c's
 * make_request), but times them only on kernels that do I/O accounting
 * for md (5.14's md_account_bio, raid1/raid10 somewhat earlier): on
 * older ones, DSM's 3.10 and 4.4 and the lab's 5.10 (99-goal) among them, the ticks stay 0 while
 * the I/Os move. Then the members' counters (/sys/block/sda/sda5/stat) stand in: they time every
 * request, but include the sync's own reads and writes, so the latency they give is the disks'
 * under both; and they leave out md's own work (a degraded raid5 read waits for the slower of
 * two members, then for raid5d), so a client can wait longer than they say (99-goal on 5.10:
 * up to twice as long on a host short of CPU; docs/PERFORMANCE.md).
 *
 * Whether there was foreground I/O at all is always the array's own
 * count: no request through the array in the interval is "idle".
 *
 * Where the members stand in, the watcher also times reads of its own
 * (mdp_iostat_timed_reads): MDP_IOSTAT_TIMED_READS of 4 KiB at random
 * places of /dev/mdN with O_DIRECT, whose median is what a client's small
 * read waits, md's own work included. The larger of that and the members' mean is the
 * sample (a client's writes show only in the members'). Only at a look that
 * saw foreground I/O, so it never wakes an idle array; the next look takes
 * those reads out of the array's count.
 */
#ifndef MDP_IOSTAT_H
#define MDP_IOSTAT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "discover.h"
#include "goal.h"
#include "mdp_base.h"

/* Requests completed and the milliseconds they took, reads and writes together. */
struct mdp_io_count {
	uint64_t ios, ticks_ms;
};

/* One look at an array's counters. */
struct mdp_io_snap {
	bool have_md; /* /sys/block/mdN/stat read */
	struct mdp_io_count md;
	bool have_members; /* every member's stat read (and there is one) */
	struct mdp_io_count members;
};

enum mdp_io_source {
	MDP_IO_NONE = 0, /* nothing measured */
	MDP_IO_MD,       /* the array's own counters */
	MDP_IO_MEMBERS,  /* its member disks', sync included */
	MDP_IO_TIMED,    /* the watcher's own timed reads of the array (key "probe") */
	MDP_IO_PART,     /* a partition's own counters (a partition no array uses) */
};

#define MDP_IOSTAT_TIMED_READS 3u
#define MDP_IOSTAT_TIMED_BYTES 4096u

/*
 * "md", "members", "probe" (MDP_IO_TIMED: the word the goal file, JSON and
 * Prometheus have had for it) or "none", for JSON and Prometheus.
 */
const char *mdp_io_source_key(enum mdp_io_source s);
/* The key's enum; MDP_IO_NONE for an unknown word. */
enum mdp_io_source mdp_io_source_of(const char *key);
/* Where a latency came from, in words: "the array's own counters", ... */
const char *mdp_io_source_text(enum mdp_io_source s);

/*
 * Read a's counters (a's members as discovery found them; none when it
 * skipped them). Always fills *out; a file that cannot be read only
 * leaves its part unset.
 */
void mdp_iostat_read(const struct mdp_root *r, const struct mdp_array *a, struct mdp_io_snap *out);

/*
 * The foreground over the interval from before to now: idle when no
 * request went through the array; else the mean time per request from the
 * array's counters when they are timed, else from the members'. *md_timed
 * is the caller's memory for this array: set once md's ticks move, after
 * which a few requests quick enough to add no whole millisecond are the
 * array's own latency of 0, not a reason to ask the members. *src says
 * where the latency came from (MDP_IO_NONE when idle or unknown).
 */
void mdp_iostat_latency(const struct mdp_io_snap *before, const struct mdp_io_snap *now,
			bool *md_timed, struct mdp_goal_sample *out, enum mdp_io_source *src);

/*
 * The watcher's last timed reads of an array (mdp_iostat_timed_reads), for
 * a goal's percentile: a sliding window of the last MDP_IOSTAT_WINDOW reads
 * (three a look: about 55 s at the default 5 s interval), which the watcher
 * empties at a look that sees no request through the array, so that a new
 * burst of foreground is judged by its own reads alone.
 */
#define MDP_IOSTAT_WINDOW 32u

struct mdp_io_window {
	uint64_t us[MDP_IOSTAT_WINDOW]; /* a ring: the oldest at next once full */
	unsigned n, next;
};

/* One read's microseconds into w, in place of its oldest once w is full. */
void mdp_iostat_window_add(struct mdp_io_window *w, uint64_t us);
/*
 * The pct-th percentile (1..100) of w's reads, nearest rank: the smallest
 * read that at least pct per cent of them do not exceed (with few reads, a
 * high percentile is their longest). 0 when w is empty.
 */
uint64_t mdp_iostat_window_pct(const struct mdp_io_window *w, unsigned pct);

/* Timed reads under way (mdp_iostat_timed_reads). */
struct mdp_timed_reads;

/*
 * How the thread opens /dev/NAME (sys, through its own copy of the root:
 * fd or -errno) and reads it: the block device's and pread when NULL;
 * tests give their own.
 */
typedef int mdp_timed_open_fn(const struct mdp_root *r, const char *sys);
typedef ssize_t mdp_timed_read_fn(int fd, void *buf, size_t len, off_t at);

/*
 * Time MDP_IOSTAT_TIMED_READS reads of MDP_IOSTAT_TIMED_BYTES with O_DIRECT
 * at random aligned offsets of /dev/NAME (size_kib long) through r, on a
 * thread of their own, the device's open included (md holds an open while
 * it reconfigures the array), with open and rd (above); *seed is the
 * caller's state for the offsets. Each read's microseconds in us[],
 * shortest first (the median at us[MDP_IOSTAT_TIMED_READS / 2]). An open or a read not done within
 * deadline_ms counts as the time waited, and the thread goes on: *held keeps it (release it with
 * mdp_iostat_timed_release), and until it ends another call with the same *held is -EBUSY. -ENOTBLK
 * when /dev/NAME is not a block device (a fixture tree), else -errno of the open or a read (-EIO
 * for a short one).
 */
int mdp_iostat_timed_reads(const struct mdp_root *r, const char *name, uint64_t size_kib,
			   uint64_t *seed, unsigned deadline_ms, mdp_timed_open_fn *open,
			   mdp_timed_read_fn *rd, struct mdp_timed_reads **held,
			   uint64_t us[MDP_IOSTAT_TIMED_READS]);
/* Let go of *held (its thread frees it when it ends); NULL after. */
void mdp_iostat_timed_release(struct mdp_timed_reads **held);

/*
 * The foreground beside an array under a goal (iostat_share.c). On DSM every
 * disk carries md0 (the system), md1 (swap) and the data arrays, each on a
 * partition of its own: a reader of md0 waits behind md2's rebuild on the
 * same disks, and md2's own counters never see it. An array's peers are the
 * other arrays with a member on one of its member disks (discovery's
 * mdp_member.disk: the whole disk holding the partition, found through
 * sysfs), and the partitions of those disks that no array of the system has
 * as a member (/sys/block/DISK/PART with a "partition" file): what else
 * reads and writes there. Each is measured by its own counters, as the
 * array itself is (mdp_iostat_latency): another array by its own, or its
 * members' (its partitions, which carry none of this array's sync), a
 * partition by its own stat file.
 */
enum mdp_peer_kind {
	MDP_PEER_ARRAY, /* another md array */
	MDP_PEER_PART,  /* a partition no array has as a member */
};

#define MDP_IO_SHARES_MAX 128

struct mdp_io_peer {
	enum mdp_peer_kind kind;
	char name[MDP_NAME_MAX];        /* "md0", "sda3" */
	char disk[MDP_NAME_MAX];        /* MDP_PEER_PART: the disk holding it */
	char shares[MDP_IO_SHARES_MAX]; /* the array's disks it is on: "sda,sdb" (those that fit) */
};

/* shares ("sda,sdb") in words into buf: "sda, sdb"; the names that fit whole. */
void mdp_iostat_shares_text(const char *shares, char *buf, size_t len);

/*
 * a's peers in s: the arrays sharing a disk with it in s's order, then the
 * partitions of its disks in the disks' and the names' order; *out (n of
 * them; the caller frees). A disk whose folder cannot be listed adds no
 * partition. 0 or -ENOMEM.
 */
int mdp_iostat_peers(const struct mdp_root *r, const struct mdp_system *s,
		     const struct mdp_array *a, struct mdp_io_peer **out, size_t *n);
/*
 * Read peer p's counters (an array's as mdp_iostat_read; a partition's
 * into the snap's md part, as the array's own are). An array no longer in
 * s reads as nothing.
 */
void mdp_iostat_read_peer(const struct mdp_root *r, const struct mdp_system *s,
			  const struct mdp_io_peer *p, struct mdp_io_snap *out);
/*
 * The peer's foreground from before to now (mdp_iostat_latency; a
 * partition's from its own counters, *src MDP_IO_PART).
 */
void mdp_iostat_peer_latency(const struct mdp_io_peer *p, const struct mdp_io_snap *before,
			     const struct mdp_io_snap *now, bool *md_timed,
			     struct mdp_goal_sample *out, enum mdp_io_source *src);

#endif
