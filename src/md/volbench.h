/*
 * volbench: sequential write and read throughput of a volume, measured the
 * way the seed write-up meant to (dd ... conv=fdatasync, then read it back)
 * without its trap: a read that comes from the page cache is not the disks.
 *
 * A run writes a file of its own (created O_EXCL in the directory given,
 * never a device, never elsewhere), flushes it to the disks before the
 * clock stops, then reads it back with O_DIRECT where the filesystem
 * allows it, else after dropping that file's pages (fsync, then
 * posix_fadvise DONTNEED) and checking with mincore() that they are gone.
 * Where neither holds (tmpfs, a cache that will not let go) the read figure
 * is marked cached. The file is removed after every run, and when the
 * caller asks to stop (a signal held pending) between two chunks.
 *
 * The file is never reopened blindly by name: the read opens it again
 * without blocking and checks it is the very file written (same device and
 * inode, a regular file), so nobody who can write the directory can swap
 * in a FIFO (a hang) or another file. Files a killed run left behind
 * (.mdprofile-bench.PID of a process that is gone, ours, regular) are
 * removed before the free space is measured.
 */
#ifndef MDP_VOLBENCH_H
#define MDP_VOLBENCH_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "mdp_base.h"

#define MDP_VB_CHUNK        (1u << 20)          /* bytes per write/read call */
#define MDP_VB_MAX_SIZE     ((uint64_t)2 << 30) /* the default size's cap: 2 GiB */
#define MDP_VB_MIN_SIZE     ((uint64_t)1 << 20)
#define MDP_VB_MARGIN_BYTES ((uint64_t)64 << 20) /* free space left over, at least */

enum mdp_vb_method {
	MDP_VB_DIRECT,  /* O_DIRECT: the read went to the disks */
	MDP_VB_DROPPED, /* the file's pages were dropped and found gone before reading */
	MDP_VB_CACHED,  /* neither: the read figure is the page cache's */
};

struct mdp_vb_run {
	uint64_t write_ns, read_ns;
};

/* How far a run has come: passed to the caller's progress callback after each chunk. */
struct mdp_vb_tick {
	bool read;     /* the run's read, else its write */
	unsigned run;  /* 1..runs */
	uint64_t done; /* bytes of b->size written (not yet flushed) or read so far */
	uint64_t ns;   /* since that phase's clock started */
};

struct mdp_vb;
/* A caller that shows progress (bench on a terminal); volbench itself never prints. */
struct mdp_vb_progress {
	void (*fn)(void *arg, const struct mdp_vb *b, const struct mdp_vb_tick *t);
	void *arg;
};

struct mdp_vb {
	/* in */
	const char *dir; /* where the test file goes (a directory), as shown in messages */
	/*
	 * When set: dir is sys_dir under root and is opened beneath it (a link
	 * cannot lead the test file out of a --root tree). Else dir is opened
	 * as given (--path).
	 */
	const struct mdp_root *root;
	const char *sys_dir;
	uint64_t size;               /* bytes, a multiple of MDP_VB_CHUNK; 0: the default for dir */
	unsigned runs;               /* 1..100 */
	int (*stop_requested)(void); /* a signal number when the caller wants out, else 0 */
	const struct mdp_vb_progress *progress; /* NULL: none */
	/* out */
	uint64_t free_bytes;
	dev_t dev;              /* the device the directory is on */
	unsigned stale_removed; /* test files of killed runs removed */
	uint64_t stale_bytes;   /* their size */
	enum mdp_vb_method method;
	char file[64]; /* the test file's name in dir, for messages */
	struct mdp_vb_run *v;
	unsigned n;
	int stop_signal; /* the signal that stopped it, 0 when it ran to the end */
};

/*
 * The mount point of the first mounted filesystem on an md array, plain or
 * through any stack of device-mapper layers (SHR: LVM over md; DSM 7's
 * cachedev_N over that), named /dev/md*, /dev/dm-N, /dev/mapper/NAME or
 * /dev/VG/LV in /proc/mounts, preferring /volume1 and taking "/" only
 * when nothing else is on md: the system path in sys, the host path (mapped under the root)
 * in host. -ENOENT with a diag when there is none.
 */
int mdp_vb_find_volume(const struct mdp_root *r, char *sys, size_t syslen, char *host,
		       size_t hostlen, struct mdp_diags *d);

/*
 * Run the benchmark. 0 with b->v filled (b->n runs; fewer and
 * b->stop_signal set when stopped), -ENOSPC/-EINVAL/-ENOTDIR/-errno with a
 * diag when it cannot start or a write or read fails. The test file never
 * outlives the call. Free b->v with mdp_vb_free.
 */
int mdp_vb_run(struct mdp_vb *b, struct mdp_diags *d);
void mdp_vb_free(struct mdp_vb *b);

/* MB/s (decimal, as dd reports) of bytes in ns. */
double mdp_vb_mbps(uint64_t bytes, uint64_t ns);

#endif
