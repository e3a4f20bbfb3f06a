/*
 * Unit tests of explain's rules, table-driven: each row is a case users
 * reported (C01-C16, the 16 reports of slow md operations the rules were
 * first drafted on, with the figures as reported) or an edge case, turned into two samples 10 s
 * apart by build(); the row says which finding must bind, what it recommends and the gain it may
 * promise. Then the parsers: /proc/diskstats with 7, 14, 18 and 20 fields, counters wrapping at
 * 2^32, partitions to disks.
 */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>

#include "explain.h"
#include "explain_run.h"
#include "support.h"
#include "explain_int.h"

#define DT 10.0

/* One scenario in the figures a user would quote. */
struct row {
	const char *id;
	const char *release;
	const char *level, *action, *queued; /* action "" = "resync" */
	int n;                               /* members (default 4) */
	int rotational;                      /* 0: 1 (HDD); -1 SSD */
	double speed;                        /* KiB/s per device, from mdstat progress */
	uint64_t min, max;                   /* effective limits */
	bool min_local, max_local;
	uint64_t sys_max; /* the sysctl when the max is local (0: = max) */
	double util;      /* % busy, every member (-1: no full diskstats) */
	int slow;         /* member index + 1 with slow_util / slow_await */
	int target;       /* member index + 1 being rebuilt (state "spare") */
	double slow_util, slow_await;
	double md_kib, holder_kib; /* other I/O: on the md device, other partitions of disk 0 */
	double cpu;                /* % of a CPU of the md thread */
	int64_t group_threads;     /* -1: unread */
	int64_t stripe, active;    /* stripe_cache_size and _active (both samples) */
	int64_t chunk;
	bool backup;
	bool moved;        /* new_offset differs from offset (a reshape moving the data offset) */
	uint64_t left_kib; /* per device left at the end (0: plenty) */
	const char *sync_max;
	bool ended, stalled, sc_same; /* edge cases */
	double md_avg;                /* md/sync_speed when it differs from the window's speed */
	const char *refused;          /* a shipped profile apply would refuse on this box */
	double rq_sect;               /* sectors a sync request on the members (0: 256) */
	double merged;                /* share of requests merged (0: none) */
	bool no_progress;             /* mdstat and sync_completed unchanged, md's average not */
	const char *wchan;            /* the md thread's /proc/PID/wchan */
	const char *array_state;      /* md/array_state (default "active") */
	int64_t bad_blocks;           /* entries in member 0's bad_blocks */
	bool skip;                    /* bitmap skips: md's own speed a tenth of the progress */
	int64_t iotmo;                /* timeouts member 1's disk counts in the window */
	int bus_n;                    /* the last bus_n members on one card, 0000:03:00.0 */
	int slow2;                    /* another member index + 1 as slow as slow */
	bool nvme;                    /* NVMe members (rotational -1: SSD; else hard disks) */
	uint64_t bus_kib;             /* that card's link, KiB/s (0: unstated) */
	bool stacked;                 /* members are md devices md0, md1, ... (whole, no disk) */
	int usb_n;                    /* the last usb_n members in one USB 3 enclosure, 2-1 */
	int pmp_n;                    /* the last pmp_n members behind one port multiplier, ata3 */
	int pci_n;                    /* the last pci_n on two PCI cards behind bridge 00:1e.0 */
	bool smart_ok;                /* every member's SMART read and passing (else unread) */
	int degraded;                 /* md/degraded */
	const char *bitmap;           /* md/bitmap/location (default "+8") */
	int64_t started;              /* md2_raid5's start, ticks after boot (0: at boot) */
	const char *reshape_pos;      /* md/reshape_position (default unread) */
	/* expected */
	enum mdp_xkind kind;
	enum mdp_xrec rec;
	const char *rec_name;
	enum mdp_xgain gain;
	uint64_t gain_kib;
	int also;             /* a kind + 1 that must be among the findings too */
	const char *says;     /* words some finding's evidence or recommendation must hold */
	const char *not_says; /* words none may hold */
};

static void set_io(struct mdp_xio *io, const char *name, uint64_t sect, uint64_t ios, uint64_t ms,
		   uint64_t ticks)
{
	memset(io, 0, sizeof(*io));
	snprintf(io->name, sizeof(io->name), "%s", name);
	io->present = io->full = true;
	io->field = 20;
	io->rd_sect = sect / 2, io->wr_sect = sect - sect / 2;
	io->rd_ios = ios / 2, io->wr_ios = ios - ios / 2;
	io->rd_ms = ms / 2, io->wr_ms = ms - ms / 2;
	io->io_ticks = ticks;
}

/* Sample t (0 or 1) of row r: counters at t = 0 are a base, at t = 1 base + the row's rates. */
static void build(const struct row *r, int t, struct mdp_xsample *s, struct mdp_xarray *a)
{
	int n = r->n ? r->n : 4;
	const uint64_t base = 1000000;
	double sp = r->speed;

	memset(s, 0, sizeof(*s));
	memset(a, 0, sizeof(*a));
	snprintf(s->release, sizeof(s->release), "%s", r->release ? r->release : "5.10.0");
	s->sys_min = (struct mdp_xlimit){.read = true, .kib = r->min_local ? 1000 : r->min};
	s->sys_max = (struct mdp_xlimit){.read = true, .kib = r->sys_max ? r->sys_max : r->max};
	s->arrays = a;
	s->n_arrays = 1;
	snprintf(a->name, sizeof(a->name), "md2");
	snprintf(a->level, sizeof(a->level), "%s", r->level ? r->level : "raid5");
	snprintf(a->action, sizeof(a->action), "%s",
		 r->ended && t ? "idle"
		 : r->action   ? r->action
			       : "resync");
	if (r->queued) {
		snprintf(a->queued, sizeof(a->queued), "%s", r->queued);
		snprintf(a->action, sizeof(a->action), "%s", r->action ? r->action : "idle");
	}
	snprintf(a->sync_max, sizeof(a->sync_max), "%s", r->sync_max ? r->sync_max : "max");
	snprintf(a->sync_completed, sizeof(a->sync_completed), "%s",
		 r->sc_same || r->no_progress || !t ? "261768 / 4188160" : "523536 / 4188160");
	a->min = (struct mdp_xlimit){.read = true, .local = r->min_local, .kib = r->min};
	a->max = (struct mdp_xlimit){.read = true, .local = r->max_local, .kib = r->max};
	a->have_progress = !(r->ended && t) && !r->queued;
	a->total_kib = 8000000000;
	a->done_kib =
	    a->total_kib - (r->left_kib ? r->left_kib : 1000000000) - (uint64_t)(t ? 0 : sp * DT);
	if (r->stalled || r->no_progress)
		a->done_kib = 491263360;
	a->sync_speed = (int64_t)(r->md_avg ? r->md_avg : r->skip ? sp / 10 : sp);
	snprintf(a->array_state, sizeof(a->array_state), "%s",
		 r->array_state ? r->array_state : "active");
	a->stripe_size = r->stripe ? r->stripe : 256;
	a->stripe_active = r->active;
	a->group_threads = r->group_threads;
	a->chunk_kib = r->chunk ? r->chunk : 64;
	a->suspend_hi = r->backup && !r->moved ? 123456 : 0;
	a->backup_file = r->backup;
	a->degraded = r->degraded;
	snprintf(a->reshape_position, sizeof(a->reshape_position), "%s",
		 r->reshape_pos ? r->reshape_pos : "");
	snprintf(a->bitmap, sizeof(a->bitmap), "%s", r->bitmap ? r->bitmap : "+8");
	set_io(&a->io, "md2", base + (uint64_t)(t * r->md_kib * 2 * DT), base, 0, base);
	a->n_members = (size_t)n;
	for (int i = 0; i < n; i++) {
		struct mdp_xmember *m = &a->members[i];
		double util = r->util, aw = 5, sync_sect = sp * 2 * DT, ios;
		if (r->slow == i + 1 || r->slow2 == i + 1) {
			util = r->slow_util ? r->slow_util : util;
			aw = r->slow_await ? r->slow_await : aw;
		}
		ios = sync_sect / (r->rq_sect ? r->rq_sect : 256);
		snprintf(m->name, sizeof(m->name), r->stacked ? "md%d" : "sd%c5",
			 r->stacked ? i : 'a' + i);
		snprintf(m->disk, sizeof(m->disk), r->stacked ? "md%d" : "sd%c",
			 r->stacked ? i : 'a' + i);
		snprintf(m->state, sizeof(m->state), "%s",
			 r->target == i + 1 ? "spare" : "in_sync");
		m->offset = m->new_offset = 2048;
		if (r->moved)
			m->new_offset = 4096;
		m->rotational = r->rotational < 0 || r->nvme ? 0 : 1;
		m->media = r->nvme             ? MDP_MEDIA_NVME
			   : r->rotational < 0 ? MDP_MEDIA_SSD
					       : MDP_MEDIA_HDD;
		set_io(&m->part, m->name, base + (uint64_t)(t * sync_sect),
		       base + (uint64_t)(t * ios), base + (uint64_t)(t * ios * aw), base);
		m->part.rd_merges = m->part.wr_merges = base + (uint64_t)(t * ios * r->merged / 2);
		m->bad_blocks = i == 0 ? r->bad_blocks : 0;
		m->iotmo = i == 1 ? 7 + t * r->iotmo : 7;
		m->ioerr = 0;
		if (i >= n - r->usb_n) {
			snprintf(m->bus, sizeof(m->bus), "2-1");
			snprintf(m->bus_link, sizeof(m->bus_link), "USB 5000 Mb/s");
			m->bus_kib = 488281;
		}
		if (i >= n - r->pmp_n) {
			snprintf(m->bus, sizeof(m->bus), "0000:00:1f.2");
			snprintf(m->port, sizeof(m->port), "ata3");
			snprintf(m->port_link, sizeof(m->port_link), "SATA 3.0 Gb/s");
			m->port_kib = 292968;
		}
		if (r->smart_ok) {
			m->smart.state = MDP_SMART_READ;
			m->smart.health = MDP_SMART_PASSED;
		}
		if (i >= n - r->pci_n) { /* two cards, neither stating a link: their bus */
			snprintf(m->bus, sizeof(m->bus), "0000:05:0%d.0", i % 2);
			snprintf(m->pci_bus, sizeof(m->pci_bus), "0000:00:1e.0");
		}
		if (i >= n - r->bus_n) {
			snprintf(m->bus, sizeof(m->bus), "0000:03:00.0");
			snprintf(m->bus_link, sizeof(m->bus_link), "PCIe 5.0 GT/s x1");
			m->bus_kib = r->bus_kib;
		}
		set_io(&m->whole, m->disk,
		       2 * base + (uint64_t)(t * (sync_sect + (i ? 0 : r->holder_kib * 2 * DT))),
		       2 * base + (uint64_t)(t * ios), 2 * base + (uint64_t)(t * ios * aw),
		       2 * base + (uint64_t)(t * util / 100 * DT * 1000));
		if (util < 0)
			m->whole.full = m->part.full = false;
	}
	a->threads_read = true;
	a->n_threads = 1;
	snprintf(a->threads[0].comm, sizeof(a->threads[0].comm), "md2_raid5");
	a->threads[0].pid = 321;
	a->threads[0].start = r->started;
	a->threads[0].ticks = 5000 + (uint64_t)(t * r->cpu / 100 * DT * 100);
	snprintf(a->threads[0].wchan, sizeof(a->threads[0].wchan), "%s",
		 r->wchan ? r->wchan : "md_thread");
}

/* The kernel's defaults: speed_limit_min 1000, _max 200000, group_thread_cnt 0. */
#define KERNEL_DEFAULTS .min = 1000, .max = 200000, .group_threads = 0

/* A row's scenario on its first lines, what must bind on its last. */
// clang-format off
static const struct row rows[] = {
	/* C01: DS415+, 3.10, reshape at 4687 K/s below min 10000, stripe cache full */
	{.id = "C01", .release = "3.10.105", .action = "reshape", .n = 3, .speed = 4687,
	 .min = 10000, .max = 200000, .util = 21, .group_threads = -1, .stripe = 256, .active = 256,
	 .kind = MDP_XK_STRIPE_CACHE, .rec = MDP_XR_PROFILE, .rec_name = "reshape-fast"},
	/* C02: DS418play 4.4, initialisation at 30 MB/s between the limits, DSM's own I/O; the
	   profile's minimum costs that I/O its share (3000 of 123000 KiB/s) */
	{.id = "C02", .release = "4.4.180+", .speed = 30000, .min = 10000, .max = 200000,
	 .util = 70, .holder_kib = 3000, .group_threads = 0, .stripe = 1024,
	 .kind = MDP_XK_COMPETING_IO, .rec = MDP_XR_PROFILE, .rec_name = "balanced",
	 .says = "trade-off: the other I/O (3000 KiB/s, 2% of"},
	/* C02 again: beside balanced, the goal profile and what it costs the rebuild (issue 48) */
	{.id = "C02-goal", .release = "4.4.180+", .speed = 30000, .min = 10000, .max = 200000,
	 .util = 70, .holder_kib = 3000, .group_threads = 0, .stripe = 1024,
	 .kind = MDP_XK_COMPETING_IO, .rec = MDP_XR_PROFILE, .rec_name = "balanced",
	 .says = "or 'mdprofile auto responsive': the limits steered to hold the shares' requests "
		 "under 30 ms; slower than a fixed minimum while they are busy, full speed when "
		 "they stop"},
	/* C03: QNAP TS-412 ARM, rebuild 20 MB/s, CPU ~100 %, no group threads on that kernel */
	{.id = "C03", .release = "3.4.6", .speed = 20000, .min = 1000, .max = 200000, .util = 50,
	 .cpu = 99, .group_threads = -1,
	 .kind = MDP_XK_CPU, .rec = MDP_XR_NONE},
	/* C04: QNAP TS-559, min 500, recovery held at the floor by other I/O; 50000 -> 50527 */
	{.id = "C04", .release = "2.6.33", .action = "recover", .speed = 505, .min = 500,
	 .max = 200000, .util = 40, .holder_kib = 2000, .group_threads = -1,
	 .kind = MDP_XK_FLOOR, .rec = MDP_XR_PROFILE, .rec_name = "balanced", .gain = MDP_XG_UPPER,
	 .gain_kib = 50000, .says = "or 'mdprofile auto responsive': the limits steered"},
	/* C04 on a box where apply refuses balanced (its stripe caches over the memory budget, as
	   the lab's 1 GiB guest with five parity arrays): the next profile, reshape-fast, whose
	   maximum (at least 2000000) lifts the box's 200000: up to its minimum, 300000 */
	{.id = "C04-balanced-refused", .release = "2.6.33", .action = "recover", .speed = 505,
	 .min = 500, .max = 200000, .util = 40, .holder_kib = 2000, .group_threads = -1,
	 .refused = "balanced",
	 .kind = MDP_XK_FLOOR, .rec = MDP_XR_PROFILE, .rec_name = "reshape-fast",
	 .gain = MDP_XG_UPPER, .gain_kib = 300000},
	/* C16 where apply refuses reshape-fast too: no profile, said so (C16's report gives no
	   speed: the rows take one under the floor's band, as C01's) */
	{.id = "C16-reshape-fast-refused", .release = "3.10.105", .action = "reshape", .n = 5,
	 .speed = 8000, .min = 10000, .max = 200000, .util = 40, .stripe = 256, .active = 250,
	 .group_threads = -1, .refused = "reshape-fast",
	 .kind = MDP_XK_STRIPE_CACHE, .rec = MDP_XR_NONE},
	/* C05: RAID5 7 -> RAID6 8 with a backup file: 7118 K/s whatever the settings */
	{.id = "C05", .release = "3.16.0", .action = "reshape", .n = 8, .speed = 7118, .util = 46,
	 .backup = true, .chunk = 512, .stripe = 4096, KERNEL_DEFAULTS,
	 .kind = MDP_XK_RESHAPE_METHOD, .rec = MDP_XR_NONE},
	/* the lab: a reshape moving its data offset, with mdadm's backup_file link left in /run
	   by an earlier, killed reshape: the link is not the method */
	{.id = "stale-backup-link", .release = "5.10.0-46-amd64", .action = "reshape", .n = 3,
	 .speed = 3357, .util = 40, .backup = true, .moved = true, KERNEL_DEFAULTS,
	 .kind = MDP_XK_INFO, .rec = MDP_XR_NONE},
	/* C06: 10-disk RAID6 recovery at 40 MB/s, disks 47 % busy, iostat's avgrq-sz 8 (sectors)
	   and no merges: the request pattern, with its numbers, and no setting */
	{.id = "C06", .release = "3.2.0", .level = "raid6", .action = "recover", .n = 10,
	 .speed = 40000, .min = 1000, .max = 200000, .util = 47, .group_threads = -1, .rq_sect = 8,
	 .kind = MDP_XK_REQUEST_PATTERN, .rec = MDP_XR_NONE, .says = "8.0 sectors (4.0 KiB)"},
	/* the same with the block layer merging them (30 % merged, 64 sectors): no pattern */
	{.id = "C06-merged", .release = "3.2.0", .level = "raid6", .action = "recover", .n = 10,
	 .speed = 40000, .min = 1000, .max = 200000, .util = 47, .group_threads = -1, .rq_sect = 8,
	 .merged = 0.3, .kind = MDP_XK_INFO, .rec = MDP_XR_NONE},
	/* C07: 8x3TiB RAID6 rebuild at 75 MiB/s, no disk figures: nothing found, said so */
	{.id = "C07", .release = "4.9.0", .level = "raid6", .action = "recover", .n = 8,
	 .speed = 76800, .util = -1, KERNEL_DEFAULTS,
	 .kind = MDP_XK_INFO, .rec = MDP_XR_NONE},
	/* C08: check at ~85 MB/s, users' I/O on the array starves: competing, no profile helps */
	{.id = "C08", .release = "4.19.0", .level = "raid6", .action = "check", .n = 16,
	 .speed = 85000, .util = 75, .md_kib = 6000, KERNEL_DEFAULTS,
	 .kind = MDP_XK_COMPETING_IO, .rec = MDP_XR_NONE},
	/* C09: 12 NVMe, check 1136048 K/s, md1_resync 99 %: CPU-bound; group threads already 64 */
	{.id = "C09", .release = "5.19.0", .level = "raid6", .action = "check", .n = 12,
	 .rotational = -1, .speed = 1136048, .left_kib = 4000000000, .min = 1000, .max = 2000000,
	 .max_local = true, .sys_max = 200000, .util = 100, .cpu = 99, .group_threads = 64,
	 .kind = MDP_XK_CPU, .rec = MDP_XR_NONE},
	/* C10: a tool left the array's max at 10000 (local): ceiling, the sysctl will not lift it */
	{.id = "C10", .release = "5.10.55", .action = "reshape", .speed = 9950, .min = 1000,
	 .max = 10000, .max_local = true, .sys_max = 200000, .util = 30, .group_threads = 0,
	 .kind = MDP_XK_CEILING, .rec = MDP_XR_SETTING, .rec_name = "md2/sync_speed_max",
	 .gain = MDP_XG_ROUGH, .gain_kib = 29850},
	/* the lab (6.1): a maximum just lowered to 2000: md sleeps (178 KiB/s in the window) while
	   its own 30 s average is still above the maximum: the ceiling binds, no rough number */
	{.id = "ceiling-draining", .release = "6.1.0", .action = "recover", .speed = 178,
	 .md_avg = 2100, .min = 1000, .max = 2000, .max_local = true, .sys_max = 200000, .util = 1,
	 .group_threads = 0,
	 .kind = MDP_XK_CEILING, .rec = MDP_XR_SETTING, .rec_name = "md2/sync_speed_max"},
	/* issue 51, a limit's trade-off said: the array's own maximum, lifted only once whoever
	   set it is asked; what users lose by md's pacing rule (6.1 drains, 3.10 sleeps) */
	{.id = "ceiling-local-check", .release = "6.1.0", .action = "recover", .speed = 178,
	 .md_avg = 2100, .min = 1000, .max = 2000, .max_local = true, .sys_max = 200000, .util = 1,
	 .group_threads = 0, .kind = MDP_XK_CEILING, .rec = MDP_XR_SETTING,
	 .rec_name = "md2/sync_speed_max", .says = "check first: a tool or a person set this"},
	/* ... and with SMART unread, the harm rule's check is the user's to make first */
	{.id = "ceiling-smart-unread", .release = "6.1.0", .action = "recover", .speed = 178,
	 .md_avg = 2100, .min = 1000, .max = 2000, .max_local = true, .sys_max = 200000, .util = 1,
	 .group_threads = 0, .kind = MDP_XK_CEILING, .rec = MDP_XR_SETTING,
	 .rec_name = "md2/sync_speed_max",
	 .says = "check first: SMART was not read for sda, sdb, sdc, sdd (explain reads it as root"},
	/* ... read and passing: nothing to check first */
	{.id = "ceiling-smart-read", .release = "6.1.0", .action = "recover", .speed = 178,
	 .md_avg = 2100, .min = 1000, .max = 2000, .max_local = true, .sys_max = 200000, .util = 1,
	 .group_threads = 0, .smart_ok = true, .kind = MDP_XK_CEILING, .rec = MDP_XR_SETTING,
	 .rec_name = "md2/sync_speed_max", .not_says = "SMART was not read"},
	{.id = "ceiling-drain-tradeoff", .release = "6.1.0", .action = "recover", .speed = 178,
	 .md_avg = 2100, .min = 1000, .max = 2000, .max_local = true, .sys_max = 200000, .util = 1,
	 .group_threads = 0, .kind = MDP_XK_CEILING, .rec = MDP_XR_SETTING,
	 .rec_name = "md2/sync_speed_max", .says = "only by draining or capping its own requests"},
	{.id = "ceiling-sleep-tradeoff", .release = "3.10.0", .action = "recover", .speed = 178,
	 .md_avg = 2100, .min = 1000, .max = 2000, .max_local = true, .sys_max = 200000, .util = 1,
	 .group_threads = 0, .kind = MDP_XK_CEILING, .rec = MDP_XR_SETTING,
	 .rec_name = "md2/sync_speed_max", .says = "sleeps down to the minimum while it sees"},
	/* C11: a DM-SMR member stalls: seconds per request on one disk */
	{.id = "C11", .release = "5.4.0", .level = "raid6", .action = "recover", .speed = 3000,
	 .util = 20, .slow = 4, .slow_util = 100, .slow_await = 2000, KERNEL_DEFAULTS,
	 .kind = MDP_XK_MEMBER, .rec = MDP_XR_NONE},
	/* C12: replacement at ~50 MB/s, pollers on other partitions */
	{.id = "C12", .release = "3.16.0", .action = "recover", .speed = 50000, .util = 85,
	 .holder_kib = 5000, KERNEL_DEFAULTS,
	 .kind = MDP_XK_COMPETING_IO, .rec = MDP_XR_PROFILE, .rec_name = "reshape-fast"},
	/* C13: 5x2TB RAID6 at ~4000 K/s, min 1000, nothing else known: no cause claimed */
	{.id = "C13", .level = "raid6", .n = 5, .speed = 4000, .util = -1, KERNEL_DEFAULTS,
	 .kind = MDP_XK_INFO, .rec = MDP_XR_NONE},
	/* C14: check at 197694 K/s against max 200000 with disks 60 % busy: the ceiling */
	{.id = "C14", .release = "4.9.0", .level = "raid6", .action = "check", .speed = 197694,
	 .util = 60, KERNEL_DEFAULTS,
	 .kind = MDP_XK_CEILING, .rec = MDP_XR_PROFILE, .rec_name = "reshape-fast",
	 .gain = MDP_XG_ROUGH, .gain_kib = 296541},
	/* C14 as its owner saw it: reads on the array under 20 MB/s while the check ran at the
	   maximum: stop or reschedule the scrub comes before a faster maximum */
	{.id = "C14-users", .release = "4.9.0", .level = "raid6", .action = "check",
	 .speed = 197694, .util = 60, .md_kib = 18000, KERNEL_DEFAULTS, .kind = MDP_XK_CEILING,
	 .rec = MDP_XR_NONE, .also = MDP_XK_COMPETING_IO + 1, .says = "stop the scrub"},
	/* C15 md0: resync at 1015 K/s (min 1000) under install I/O: the floor */
	{.id = "C15-md0", .level = "raid1", .n = 2, .speed = 1015, .min = 1000, .max = 200000,
	 .util = 30, .md_kib = 800, .group_threads = -1,
	 .kind = MDP_XK_FLOOR, .rec = MDP_XR_PROFILE, .rec_name = "balanced", .gain = MDP_XG_UPPER,
	 .gain_kib = 50000},
	/* C15 md1: resync=DELAYED behind md0 on the same disks */
	{.id = "C15-md1", .n = 3, .queued = "DELAYED", .util = 30, KERNEL_DEFAULTS,
	 .kind = MDP_XK_WAITING, .rec = MDP_XR_NONE},
	/* C16: DS1515+ expansion, 3.10, min 10000, stripe 256 full, no foreign I/O seen */
	{.id = "C16", .release = "3.10.105", .action = "reshape", .n = 5, .speed = 8000,
	 .min = 10000, .max = 200000, .util = 40, .stripe = 256, .active = 250, .group_threads = -1,
	 .kind = MDP_XK_STRIPE_CACHE, .rec = MDP_XR_PROFILE, .rec_name = "reshape-fast"},
	/* ... with the profile's cost said: its cache's RAM, its minimum's slower box */
	{.id = "C16-tradeoff", .release = "3.10.105", .action = "reshape", .n = 5, .speed = 8000,
	 .min = 10000, .max = 200000, .util = 40, .stripe = 256, .active = 250, .group_threads = -1,
	 .kind = MDP_XK_STRIPE_CACHE, .rec = MDP_XR_PROFILE, .rec_name = "reshape-fast",
	 .says = "trade-off: reshape-fast's cache takes RAM"},
	/* a reshape of 512 KiB chunks with 256 stripes: 1024, and the RAM they take */
	{.id = "reshape-cache-ram", .release = "5.10.0", .action = "reshape", .speed = 8000,
	 .util = 40, .chunk = 512, .stripe = 256, .active = 100, .group_threads = -1,
	 .min = 10000, .max = 200000, .kind = MDP_XK_STRIPE_CACHE, .rec = MDP_XR_SETTING,
	 .rec_name = "md2/stripe_cache_size",
	 .says = "1024 stripes take 16384 KiB of RAM (4 KiB a stripe per member, 4 members)"},
	/* ... but exactly at the minimum with nobody else's I/O in sight (3.10's sleep rule holds
	   a sync that md thinks is not idle at the minimum): md's idle test first (issue 51), the
	   full cache beside it */
	{.id = "C16-at-min", .release = "3.10.105", .action = "reshape", .n = 5, .speed = 10000,
	 .min = 10000, .max = 200000, .util = 40, .stripe = 256, .active = 250, .group_threads = -1,
	 .kind = MDP_XK_FLOOR, .rec = MDP_XR_PROFILE, .rec_name = "balanced",
	 .gain = MDP_XG_UPPER, .gain_kib = 50000, .also = MDP_XK_STRIPE_CACHE + 1,
	 .says = "idle test may be counting its own I/O"},
	/* the lab: disks at their limit (util 96 %), no other I/O: nothing to gain */
	{.id = "disks-at-limit", .release = "6.1.0-57-amd64", .speed = 8000, .util = 96,
	 KERNEL_DEFAULTS,
	 .kind = MDP_XK_DISKS_AT_LIMIT, .rec = MDP_XR_NONE, .gain = MDP_XG_ZERO, .gain_kib = 8000},
	/* the lab: a slow member (96 % vs 9 %) sets the speed */
	{.id = "slow-member", .release = "6.1.0", .action = "recover", .speed = 3100, .util = 9,
	 .slow = 3, .slow_util = 96, KERNEL_DEFAULTS,
	 .kind = MDP_XK_MEMBER, .rec = MDP_XR_NONE},
	/* the lab: DSM's system array (p1) read flat out, the data array (p5) recovering: the
	   disk the reader uses is the busy one, shared and not failing */
	{.id = "system-partition-reader", .release = "6.1.0-57-amd64", .action = "recover", .n = 3,
	 .speed = 839, .util = 1, .slow = 1, .slow_util = 96, .slow_await = 143, .holder_kib = 7379,
	 KERNEL_DEFAULTS,
	 .kind = MDP_XK_COMPETING_IO, .rec = MDP_XR_PROFILE, .rec_name = "reshape-fast"},
	/* the lab (5.10): a reader on the array, the recovery at the floor; the disk being rebuilt
	   takes every write (97 % busy against 44 %): no failing member, the floor binds */
	{.id = "rebuild-target", .release = "5.10.0-46-amd64", .action = "recover", .n = 3,
	 .speed = 1040, .util = 44, .slow = 3, .slow_util = 97, .target = 3, .md_kib = 7000,
	 KERNEL_DEFAULTS,
	 .kind = MDP_XK_FLOOR, .rec = MDP_XR_PROFILE, .rec_name = "balanced",
	 .gain = MDP_XG_UPPER, .gain_kib = 50000},
	/* a failing disk among the readers is still one, with the rebuild target left out */
	{.id = "slow-reader-while-rebuilding", .release = "5.10.0", .action = "recover", .n = 4,
	 .speed = 3100, .util = 9, .slow = 2, .slow_util = 96, .target = 4, KERNEL_DEFAULTS,
	 .kind = MDP_XK_MEMBER, .rec = MDP_XR_NONE},
	/* issue 39, write-bound target: the lab's recovery onto a disk throttled to 3 MiB/s (the
	   others 8): 3.1 MB/s, the target 96 % busy against 9 %; 40 ms a request against 5 */
	{.id = "write-bound-target", .release = "6.1.0", .action = "recover", .speed = 3100,
	 .util = 9, .slow = 4, .slow_util = 96, .slow_await = 40, .target = 4, KERNEL_DEFAULTS,
	 .kind = MDP_XK_TARGET, .rec = MDP_XR_NONE, .says = "sdd5 (sdd), the disk being rebuilt"},
	/* ... busy alone, no other I/O: its writes are the limit all the same */
	{.id = "write-bound-target-busy", .release = "6.1.0", .action = "recover", .speed = 3100,
	 .util = 9, .slow = 4, .slow_util = 96, .target = 4, KERNEL_DEFAULTS,
	 .kind = MDP_XK_TARGET, .rec = MDP_XR_NONE, .says = "the disk being rebuilt: 96% busy"},
	/* ... with users' I/O holding the recovery at the floor: the target's 40 ms a request
	   still binds, and no finding raises the minimum */
	{.id = "write-bound-target-floor", .release = "6.1.0", .action = "recover", .speed = 1000,
	 .util = 30, .slow = 4, .slow_util = 96, .slow_await = 40, .target = 4, .md_kib = 5000,
	 KERNEL_DEFAULTS, .kind = MDP_XK_TARGET, .rec = MDP_XR_NONE, .also = MDP_XK_FLOOR + 1,
	 .says = "none while the disk being rebuilt is the limit"},
	/* issue 39, shared controller: the two busy members (96 % against 9 %, the same KiB/s)
	   are the two on one card, which no other member uses: the card, not two failing disks */
	{.id = "busy-pair-on-a-card", .release = "6.1.0", .action = "recover", .speed = 3100,
	 .util = 9, .slow = 4, .slow2 = 3, .slow_util = 96, .bus_n = 2, KERNEL_DEFAULTS,
	 .kind = MDP_XK_CONTROLLER, .rec = MDP_XR_NONE, .gain = MDP_XG_ZERO, .gain_kib = 3100,
	 .says = "sdc, sdd share 0000:03:00.0, PCIe 5.0 GT/s x1 and only they are busy"},
	/* ... but one busy disk on it with an idle one beside it is that disk */
	{.id = "busy-one-on-a-card", .release = "6.1.0", .action = "recover", .speed = 3100,
	 .util = 9, .slow = 4, .slow_util = 96, .bus_n = 2, KERNEL_DEFAULTS,
	 .kind = MDP_XK_MEMBER, .rec = MDP_XR_NONE},
	/* four disks on a PCIe 2.0 x1 card (488281 KiB/s of data) at 95000 KiB/s each, 98 % busy:
	   78 % of the link: the controller, where the disks rule said "at their limit"; with
	   DSM's writes on p1 the floor's profile would say "apply": withdrawn, once */
	{.id = "card-full", .release = "4.4.302+", .action = "recover", .speed = 95000,
	 .util = 98, .bus_n = 4, .bus_kib = 488281, .min = 10000, .max = 200000,
	 .group_threads = 0, .kind = MDP_XK_CONTROLLER, .rec = MDP_XR_NONE, .gain = MDP_XG_ZERO,
	 .gain_kib = 95000, .says = "together 380000 KiB/s, 78% of it"},
	{.id = "card-full-floor", .release = "4.4.302+", .action = "recover", .speed = 10000,
	 .util = 98, .bus_n = 4, .bus_kib = 40000, .holder_kib = 3000, .min = 10000,
	 .max = 200000, .group_threads = 0, .kind = MDP_XK_CONTROLLER, .rec = MDP_XR_NONE,
	 .gain = MDP_XG_ZERO, .also = MDP_XK_FLOOR + 1, .says = "the shared controller or link is the limit, not this"},
	/* the same card at a third of its link: not full, the disks' own rule */
	{.id = "card-not-full", .release = "4.4.302+", .action = "recover", .speed = 30000,
	 .util = 98, .bus_n = 4, .bus_kib = 488281, KERNEL_DEFAULTS,
	 .kind = MDP_XK_DISKS_AT_LIMIT, .rec = MDP_XR_NONE, .gain = MDP_XG_ZERO},
	/* issue 51, shared links: four hard disks in one USB 3 enclosure, 95 % busy at 40000 KiB/s
	   each, a third of the link: the enclosure's bridge, not the disks ("at their limit" before) */
	{.id = "usb-enclosure", .release = "5.10.0", .action = "recover", .speed = 40000,
	 .util = 95, .usb_n = 4, KERNEL_DEFAULTS, .kind = MDP_XK_CONTROLLER, .rec = MDP_XR_NONE,
	 .says = "sda, sdb, sdc, sdd share USB device 2-1 (USB 5000 Mb/s: 488281 KiB/s of data): "
		 "together 160000 KiB/s, 33% of it"},
	/* ... three behind one port multiplier on a 3 Gb/s port at 25000 KiB/s each */
	{.id = "pmp-shared", .release = "4.4.302+", .action = "recover", .n = 3, .speed = 25000,
	 .util = 92, .pmp_n = 3, KERNEL_DEFAULTS, .kind = MDP_XK_CONTROLLER, .rec = MDP_XR_NONE,
	 .says = "share one port multiplier on ata3 (SATA 3.0 Gb/s: 292968 KiB/s of data)"},
	/* ... with DSM's writes holding it at the floor too: no higher minimum over the link */
	{.id = "usb-floor", .release = "4.4.302+", .action = "recover", .speed = 10000,
	 .min = 10000, .max = 200000, .util = 95, .usb_n = 4, .holder_kib = 3000,
	 .group_threads = 0, .kind = MDP_XK_CONTROLLER, .rec = MDP_XR_NONE,
	 .also = MDP_XK_FLOOR + 1, .says = "the shared controller or link is the limit, not this"},
	/* issue 51, a shared 32-bit PCI bus: four hard disks on two PCI SATA cards behind one
	   legacy bridge, 97 % busy at 30000 KiB/s each: the bus ("at their limit" before) */
	{.id = "pci-bus", .release = "2.6.32", .action = "recover", .speed = 30000, .util = 97,
	 .pci_n = 4, KERNEL_DEFAULTS, .kind = MDP_XK_CONTROLLER, .rec = MDP_XR_NONE,
	 .says = "sda, sdb, sdc, sdd share the conventional PCI bus behind bridge 0000:00:1e.0 "
		 "(its clock and width unread: 130208 KiB/s of data if it is the common 32-bit 33 "
		 "MHz one): together 120000 KiB/s, 92% of it"},
	/* ... two of them there, the other two on the board's own ports: only the two share */
	{.id = "pci-bus-two", .release = "2.6.32", .action = "recover", .speed = 30000,
	 .util = 97, .pci_n = 2, KERNEL_DEFAULTS, .kind = MDP_XK_CONTROLLER, .rec = MDP_XR_NONE,
	 .says = "put the disks on the board's own ports or a PCIe card"},
	/* ... but 60000 KiB/s each: the disks' own limit, as on a USB enclosure */
	{.id = "pci-bus-fast", .release = "2.6.32", .action = "recover", .speed = 60000,
	 .util = 97, .pci_n = 4, KERNEL_DEFAULTS, .kind = MDP_XK_DISKS_AT_LIMIT,
	 .rec = MDP_XR_NONE, .gain = MDP_XG_ZERO},
	/* ... but disks streaming 60000 KiB/s each (over half a hard disk's) are their own limit */
	{.id = "usb-fast-disks", .release = "5.10.0", .action = "recover", .speed = 60000,
	 .util = 95, .usb_n = 4, KERNEL_DEFAULTS, .kind = MDP_XK_DISKS_AT_LIMIT,
	 .rec = MDP_XR_NONE, .gain = MDP_XG_ZERO},
	/* issue 38, disk classes: an SSD array held at DSM's floor by users' I/O. balanced's
	   minimum (50000) would do for hard disks, but it leaves the maximum at 200000, which caps
	   an SSD: reshape-fast, whose own rule gives SSD and NVMe arrays at least 1000000 */
	{.id = "ssd-floor", .release = "5.10.0", .action = "recover", .rotational = -1,
	 .speed = 10000, .min = 10000, .max = 200000, .util = 30, .md_kib = 5000,
	 .group_threads = 0, .kind = MDP_XK_FLOOR, .rec = MDP_XR_PROFILE,
	 .rec_name = "reshape-fast", .gain = MDP_XG_UPPER, .gain_kib = 1000000,
	 .says = "balanced: would cap this ssd array (maximum 200000 KiB/s in force after it)"},
	{.id = "ssd-floor-text", .release = "5.10.0", .action = "recover", .rotational = -1,
	 .speed = 10000, .min = 10000, .max = 200000, .util = 30, .md_kib = 5000,
	 .group_threads = 0, .kind = MDP_XK_FLOOR, .rec = MDP_XR_PROFILE,
	 .rec_name = "reshape-fast", .gain = MDP_XG_UPPER, .says = "minimum 1000000 KiB/s on ssd arrays"},
	/* ... at reshape-fast's hard-disk minimum (300000, DSM's faster preset): only its
	   class rule is above it, and the same array on hard disks gets no profile */
	{.id = "nvme-floor-300000", .release = "5.10.0", .action = "recover", .nvme = true,
	 .speed = 300000, .min = 300000, .max = 2000000, .util = 30, .md_kib = 50000,
	 .group_threads = 0, .kind = MDP_XK_FLOOR, .rec = MDP_XR_PROFILE,
	 .rec_name = "reshape-fast", .gain = MDP_XG_UPPER, .gain_kib = 1000000,
	 .says = "minimum 1000000 KiB/s on nvme arrays"},
	{.id = "hdd-floor-300000", .release = "5.10.0", .action = "recover", .speed = 300000,
	 .min = 300000, .max = 2000000, .util = 30, .md_kib = 50000, .group_threads = 0,
	 .kind = MDP_XK_FLOOR, .rec = MDP_XR_SETTING, .rec_name = "md2/sync_speed_min",
	 .gain = MDP_XG_UPPER, .gain_kib = 600000},
	/* an NVMe array at the kernel's maximum: reshape-fast's (2000000), never balanced's */
	{.id = "nvme-ceiling", .release = "6.1.0", .action = "recover", .nvme = true,
	 .speed = 199000, .util = 30, KERNEL_DEFAULTS, .kind = MDP_XK_CEILING,
	 .rec = MDP_XR_PROFILE, .rec_name = "reshape-fast", .gain = MDP_XG_ROUGH, .gain_kib = 597000, .says = "maximum 2000000 KiB/s"},
	/* ... its own maximum (local) at 200000 with the sysctl at 200000 too: "system" would
	   still cap it, so a number, the highest a shipped profile sets (reshape-fast's) */
	{.id = "nvme-ceiling-local", .release = "6.1.0", .action = "recover", .nvme = true,
	 .speed = 199000, .util = 30, .min = 1000, .max = 200000, .max_local = true,
	 .sys_max = 200000, .group_threads = 0, .kind = MDP_XK_CEILING, .rec = MDP_XR_SETTING,
	 .rec_name = "md2/sync_speed_max",
	 .gain = MDP_XG_ROUGH, .gain_kib = 597000, .says = "echo 2000000 > /sys/block/md2/md/sync_speed_max"},
	/* the hard-disk array the same: "system" lifts it to the sysctl (C10's rule) */
	{.id = "hdd-ceiling-local", .release = "6.1.0", .action = "recover", .speed = 199000,
	 .util = 30, .min = 1000, .max = 200000, .max_local = true, .sys_max = 600000,
	 .group_threads = 0, .kind = MDP_XK_CEILING, .rec = MDP_XR_SETTING,
	 .rec_name = "md2/sync_speed_max", .gain = MDP_XG_ROUGH, .gain_kib = 597000, .says = "echo system > /sys/block/md2/md/sync_speed_max"},
	/* (local) minimum held at the floor: a profile's sysctl would not lift it */
	{.id = "local-min", .speed = 1000, .min_local = true, .util = 30, .md_kib = 5000,
	 KERNEL_DEFAULTS,
	 .kind = MDP_XK_FLOOR, .rec = MDP_XR_SETTING, .rec_name = "md2/sync_speed_min",
	 .gain = MDP_XG_UPPER, .gain_kib = 50000},
	/* 20 minutes left: not worth tuning, even at the floor */
	{.id = "finishing", .speed = 1000, .util = 30, .md_kib = 5000, .left_kib = 1200000,
	 KERNEL_DEFAULTS,
	 .kind = MDP_XK_FINISHING, .rec = MDP_XR_NONE},
	/* sync_completed is coarse (1/16 steps): unchanged between samples is not a stall */
	{.id = "sync_completed-unchanged", .speed = 30000, .util = 96, .sc_same = true,
	 KERNEL_DEFAULTS,
	 .kind = MDP_XK_DISKS_AT_LIMIT, .rec = MDP_XR_NONE, .gain = MDP_XG_ZERO, .gain_kib = 30000},
	/* mdstat's progress did not move either: speed 0, md's average 0: waiting, no cause */
	{.id = "stalled", .speed = 0, .stalled = true, .util = 0, KERNEL_DEFAULTS,
	 .kind = MDP_XK_WAITING, .rec = MDP_XR_NONE},
	/* parked at sync_max by hand (not a backup reshape) */
	{.id = "parked", .speed = 0, .stalled = true, .sync_max = "982526720", .util = 0,
	 KERNEL_DEFAULTS,
	 .kind = MDP_XK_WAITING, .rec = MDP_XR_SETTING, .rec_name = "md2/sync_max"},
	/* ... with its trade-off: the rest runs at once, a scrub's slice plan undone */
	{.id = "parked-tradeoff", .speed = 0, .stalled = true, .sync_max = "982526720", .util = 0,
	 KERNEL_DEFAULTS, .kind = MDP_XK_WAITING, .rec = MDP_XR_SETTING, .rec_name = "md2/sync_max",
	 .says = "trade-off: the rest then runs at once, while users may be working"},
	/* issue 39, stuck: no progress (mdstat, sync_completed) while md's decaying average still
	   reads 5000, md2_raid5 at 100 % of a CPU: stuck, what to collect, no setting */
	{.id = "stuck-cpu", .no_progress = true, .md_avg = 5000, .cpu = 100, .util = 0,
	 KERNEL_DEFAULTS, .kind = MDP_XK_STUCK, .rec = MDP_XR_NONE, .says = "/proc/321/stack"},
	/* ... md's thread asleep where md waits for a stripe */
	{.id = "stuck-wchan", .no_progress = true, .md_avg = 5000, .wchan = "raid5_get_active_stripe",
	 .util = 0, KERNEL_DEFAULTS, .kind = MDP_XK_STUCK, .rec = MDP_XR_NONE,
	 .says = "sleeping in raid5_get_active_stripe"},
	/* ... writes waiting on md (array_state write-pending) */
	{.id = "stuck-write-pending", .no_progress = true, .md_avg = 5000,
	 .array_state = "write-pending", .util = 0, KERNEL_DEFAULTS, .kind = MDP_XK_STUCK,
	 .rec = MDP_XR_NONE, .says = "write-pending"},
	/* ... a member's bad block list with entries */
	{.id = "stuck-bad-blocks", .no_progress = true, .md_avg = 5000, .bad_blocks = 3, .util = 0,
	 KERNEL_DEFAULTS, .kind = MDP_XK_STUCK, .rec = MDP_XR_NONE, .says = "3 entries"},
	/* ... nothing shows why: waiting, collect, and never a pacing explanation */
	{.id = "no-progress-quiet", .no_progress = true, .md_avg = 5000, .util = 0, KERNEL_DEFAULTS,
	 .kind = MDP_XK_WAITING, .rec = MDP_XR_NONE, .says = "decaying"},
	/* ... but a slow reshape's position moves a chunk at a time: the members' sync I/O (2000
	   KiB/s each) says md works, so no waiting or stuck finding */
	{.id = "reshape-coarse", .action = "reshape", .no_progress = true, .speed = 2000,
	 .cpu = 100, .util = 30, KERNEL_DEFAULTS, .kind = MDP_XK_CPU, .rec = MDP_XR_SETTING,
	 .says = "coarse steps"},
	/* issue 39, harm: a slow member and other I/O at the floor: the member binds and no
	   finding raises a limit */
	{.id = "member-and-floor", .release = "5.10.0", .action = "recover", .speed = 1000,
	 .util = 9, .slow = 2, .slow_util = 96, .md_kib = 5000, KERNEL_DEFAULTS,
	 .kind = MDP_XK_MEMBER, .rec = MDP_XR_NONE, .also = MDP_XK_FLOOR + 1,
	 .says = "none while a member is failing"},
	/* lprp.fr 2021: a reshape crawling at a few KiB/s, dmesg timeouts on one old disk: its
	   iotmo_cnt grows; the member binds and the floor under the users' I/O recommends nothing */
	{.id = "disk-timeouts", .action = "reshape", .n = 3, .speed = 1000, .util = 40,
	 .iotmo = 2, .md_kib = 3000, KERNEL_DEFAULTS, .kind = MDP_XK_MEMBER, .rec = MDP_XR_NONE,
	 .also = MDP_XK_FLOOR + 1, .says = "iotmo_cnt 7 -> 9"},
	/* a member timing out beside md2_raid5 at 99 %: no worker threads to push it harder */
	{.id = "member-and-cpu", .action = "recover", .speed = 20000, .util = 40, .cpu = 99,
	 .iotmo = 2, KERNEL_DEFAULTS, .kind = MDP_XK_MEMBER, .rec = MDP_XR_NONE,
	 .also = MDP_XK_CPU + 1},
	/* ... nor beside a disk being rebuilt that sets the pace */
	{.id = "target-and-cpu", .release = "6.1.0", .action = "recover", .speed = 3100,
	 .util = 9, .slow = 4, .slow_util = 96, .slow_await = 40, .target = 4, .cpu = 99,
	 KERNEL_DEFAULTS, .kind = MDP_XK_TARGET, .rec = MDP_XR_NONE, .also = MDP_XK_CPU + 1},
	/* terminal findings hide nothing: 20 minutes left, md2_raid5 at 99 % */
	{.id = "finishing-cpu", .speed = 30000, .util = 30, .cpu = 99, .left_kib = 12000000,
	 KERNEL_DEFAULTS, .kind = MDP_XK_FINISHING, .rec = MDP_XR_NONE, .also = MDP_XK_CPU + 1},
	/* ... a backup-file reshape with its CPU evidence (C05's array, a thread at 99 %) */
	{.id = "backup-cpu", .release = "3.16.0", .action = "reshape", .n = 8, .speed = 7118,
	 .util = 46, .backup = true, .chunk = 512, .stripe = 4096, .cpu = 99, KERNEL_DEFAULTS,
	 .kind = MDP_XK_RESHAPE_METHOD, .rec = MDP_XR_NONE, .also = MDP_XK_CPU + 1},
	/* issue 39, limits against md's own figure: a re-added member's recovery skips clean
	   chunks (bitmap +8): progress 190000 KiB/s, md's sync_speed 19000: not the maximum */
	{.id = "bitmap-skip", .action = "recover", .speed = 190000, .skip = true, .util = 20,
	 KERNEL_DEFAULTS, .kind = MDP_XK_INFO, .rec = MDP_XR_NONE, .says = "skips the chunks"},
	/* ... and what stopping it loses: a check started by hand starts over */
	{.id = "C14-users-restart", .release = "4.9.0", .level = "raid6", .action = "check",
	 .speed = 197694, .util = 60, .md_kib = 18000, KERNEL_DEFAULTS, .kind = MDP_XK_CEILING,
	 .rec = MDP_XR_NONE, .also = MDP_XK_COMPETING_IO + 1,
	 .says = "a check stopped by hand keeps no place: it starts over"},
	/* issue 39, trade-offs: a scrub held at the floor by users' I/O: stop or reschedule it */
	{.id = "scrub-floor", .action = "check", .speed = 1000, .util = 30, .md_kib = 5000,
	 KERNEL_DEFAULTS, .kind = MDP_XK_FLOOR, .rec = MDP_XR_NONE, .says = "stop the scrub"},
	/* frozen and PENDING */
	{.id = "frozen", .action = "frozen", .util = 0, KERNEL_DEFAULTS,
	 .kind = MDP_XK_WAITING, .rec = MDP_XR_NONE},
	{.id = "pending", .queued = "PENDING", .util = 0, KERNEL_DEFAULTS,
	 .kind = MDP_XK_WAITING, .rec = MDP_XR_NONE},
	/* issue 51, stacked arrays: a raid1 over two md devices resyncing at the minimum with
	   nothing else running: md counts its own I/O through the members as activity; raising
	   the minimum is harmless while nothing else runs */
	{.id = "stacked-at-min", .level = "raid1", .n = 2, .stacked = true, .speed = 1000,
	 .util = 30, KERNEL_DEFAULTS, .kind = MDP_XK_FLOOR,
	 .rec = MDP_XR_PROFILE, .rec_name = "balanced", .gain = MDP_XG_UPPER, .gain_kib = 50000,
	 .says = "members md0, md1 are md devices"},
	/* ... and under it: md is still holding it there, not "not throttling" */
	{.id = "stacked-under-min", .release = "3.2.0", .level = "raid1", .n = 2, .stacked = true,
	 .speed = 600, .util = 30, KERNEL_DEFAULTS, .kind = MDP_XK_FLOOR,
	 .rec = MDP_XR_PROFILE, .rec_name = "balanced", .gain = MDP_XG_UPPER,
	 .says = "trade-off: none while nothing"},
	/* ... with tiny requests on its members too: md's minimum sets the pace, so no
	   request-pattern finding says "no limit changes that" beside the floor's advice */
	{.id = "stacked-tiny-requests", .level = "raid1", .n = 2, .stacked = true, .speed = 1000,
	 .util = 30, .rq_sect = 8, KERNEL_DEFAULTS, .kind = MDP_XK_FLOOR,
	 .rec = MDP_XR_PROFILE, .rec_name = "balanced", .gain = MDP_XG_UPPER, .gain_kib = 50000,
	 .not_says = "no limit changes that"},
	{.id = "quiet-tiny-requests", .speed = 10000, .min = 10000, .max = 200000, .util = 40,
	 .rq_sect = 8, .group_threads = 0, .kind = MDP_XK_FLOOR, .rec = MDP_XR_PROFILE, .rec_name = "balanced",
	 .gain = MDP_XG_UPPER, .not_says = "no limit changes that"},
	/* ... a plain array at its minimum with no I/O of anyone else in sight */
	{.id = "quiet-at-min", .speed = 10000, .min = 10000, .max = 200000, .util = 40,
	 .group_threads = 0, .kind = MDP_XK_FLOOR, .rec = MDP_XR_PROFILE, .rec_name = "balanced",
	 .gain = MDP_XG_UPPER, .says = "idle test may be counting its own I/O"},
	/* ... but never a higher limit over a failing member (the harm check) */
	{.id = "stacked-slow-member", .level = "raid1", .n = 3, .stacked = true, .speed = 1000,
	 .util = 9, .slow = 2, .slow_util = 96, KERNEL_DEFAULTS,
	 .kind = MDP_XK_MEMBER, .rec = MDP_XR_NONE, .also = MDP_XK_FLOOR + 1,
	 .says = "none while a member is failing"},
	/* issue 51, a crawl is not a stall: a backup-file reshape at 215 KiB/s with bad-block
	   entries: the entries first, not the backup copy */
	{.id = "crawl-bad-blocks", .level = "raid6", .action = "reshape", .n = 10, .speed = 215,
	 .backup = true, .bad_blocks = 1, .cpu = 100, .util = 3, KERNEL_DEFAULTS,
	 .kind = MDP_XK_PATHOLOGY, .rec = MDP_XR_NONE, .also = MDP_XK_RESHAPE_METHOD + 1,
	 .says = "md/dev-sda5/bad_blocks: 1 entries"},
	/* ... md2_raid5 at 100 % beside idle members at 270 KiB/s: md spins; the CPU finding's
	   group_thread_cnt is withdrawn */
	{.id = "crawl-spin", .speed = 270, .cpu = 100, .util = 4, KERNEL_DEFAULTS,
	 .kind = MDP_XK_PATHOLOGY, .rec = MDP_XR_NONE, .also = MDP_XK_CPU + 1,
	 .says = "md2_raid5 (pid 321): 100% of a CPU while the members"},
	/* ... a resync of a degraded array */
	{.id = "degraded-resync", .level = "raid6", .speed = 270, .cpu = 95, .util = 4,
	 .degraded = 1, KERNEL_DEFAULTS, .kind = MDP_XK_PATHOLOGY, .rec = MDP_XR_NONE,
	 .says = "md/degraded 1"},
	/* ... and re-creating it is offered with its harm: only an array with nothing on it */
	{.id = "degraded-resync-recreate", .level = "raid6", .speed = 270, .cpu = 95, .util = 4,
	 .degraded = 1, KERNEL_DEFAULTS, .kind = MDP_XK_PATHOLOGY, .rec = MDP_XR_NONE,
	 .says = "writes new superblocks over the members: only for a new array with nothing"},
	/* ... the same thread at 100 % at 40 MB/s with the disks half busy: CPU-bound, no sign */
	{.id = "busy-not-spinning", .speed = 40000, .cpu = 100, .util = 50, KERNEL_DEFAULTS,
	 .kind = MDP_XK_CPU, .rec = MDP_XR_SETTING, .rec_name = "md2/group_thread_cnt"},
	/* issue 51, own limits first: a backup-file reshape at 77 KiB/s under its own maximum of
	   80: the ceiling binds and stands; the backup file is only a note */
	{.id = "backup-own-max", .release = "5.10.0", .action = "reshape", .speed = 77,
	 .min = 50, .min_local = true, .max = 80, .max_local = true, .sys_max = 200000,
	 .util = 2, .backup = true, .group_threads = 0, .kind = MDP_XK_CEILING,
	 .rec = MDP_XR_SETTING, .rec_name = "md2/sync_speed_max", .says = "binds first"},
	/* issue 51, the bitmap note true to the operation: md2 assembled an hour after boot
	   resyncs without a bitmap: a new array's initial resync, with --assume-clean's trade-off,
	   never "an unclean shutdown" */
	{.id = "initial-resync", .level = "raid6", .speed = 30000, .util = 96, .bitmap = "none",
	 .started = 360000, KERNEL_DEFAULTS, .kind = MDP_XK_DISKS_AT_LIMIT, .rec = MDP_XR_NONE,
	 .gain = MDP_XG_ZERO, .says = "trade-off of --assume-clean", .not_says = "unclean"},
	/* ... assembled at boot: the unclean shutdown's resync, and the bitmap for next time */
	{.id = "dirty-resync", .level = "raid6", .speed = 30000, .util = 96, .bitmap = "none",
	 .started = 1500, KERNEL_DEFAULTS, .kind = MDP_XK_DISKS_AT_LIMIT, .rec = MDP_XR_NONE,
	 .gain = MDP_XG_ZERO, .says = "assembled 15 s after boot: this resync most likely follows an unclean"},
	/* ... whose bitmap for next time comes with its cost to writes */
	{.id = "dirty-resync-bitmap-cost", .level = "raid6", .speed = 30000, .util = 96,
	 .bitmap = "none", .started = 1500, KERNEL_DEFAULTS, .kind = MDP_XK_DISKS_AT_LIMIT,
	 .rec = MDP_XR_NONE, .gain = MDP_XG_ZERO, .says = "trade-off of a bitmap: each write"},
	/* ... a delayed operation (mdstat's resync=DELAYED, for a recovery too): no note */
	{.id = "delayed-no-note", .n = 3, .queued = "DELAYED", .action = "resync", .util = 30,
	 .bitmap = "none", KERNEL_DEFAULTS, .kind = MDP_XK_WAITING, .rec = MDP_XR_NONE,
	 .not_says = "bitmap"},
	/* issue 51, a raid10 resync paced by its chunk: h16's NVMe raid10 of 16 KiB chunks at
	   564418 KiB/s, the members half busy with 16 KiB requests: the chunk, with nothing to set
	   now ("no cause found" before) */
	{.id = "raid10-small-chunk", .release = "5.4.0", .level = "raid10", .chunk = 16,
	 .rq_sect = 32, .nvme = true, .speed = 564418, .util = 50, .left_kib = 4000000000, .min = 1000, .max = 8000000,
	 .group_threads = -1, .kind = MDP_XK_REQUEST_PATTERN, .rec = MDP_XR_NONE,
	 .says = "level raid10, chunk 16 KiB: md's resync reads every copy"},
	/* ... its check the same; the trade-off says a limit brings no larger requests */
	{.id = "raid10-small-chunk-check", .release = "5.4.0", .level = "raid10", .chunk = 32,
	 .action = "check", .rq_sect = 64, .util = 40, .speed = 60000, KERNEL_DEFAULTS,
	 .kind = MDP_XK_REQUEST_PATTERN, .rec = MDP_XR_NONE,
	 .says = "a higher limit brings no larger requests"},
	/* ... requests far under its 32 KiB chunk (4 KiB, unmerged) are not the chunk's: the
	   tiny-request sign, which asks for a report, not a re-creation */
	{.id = "raid10-tiny-requests", .release = "5.4.0", .level = "raid10", .chunk = 32,
	 .action = "check", .rq_sect = 8, .util = 40, .speed = 60000, KERNEL_DEFAULTS,
	 .kind = MDP_XK_REQUEST_PATTERN, .rec = MDP_XR_NONE, .says = "tiny unmerged requests",
	 .not_says = "level raid10"},
	/* ... but a 512 KiB chunk (md reads 64 KiB a request) or a recovery is not paced so */
	{.id = "raid10-large-chunk", .release = "5.4.0", .level = "raid10", .chunk = 512,
	 .rq_sect = 128, .nvme = true, .speed = 564418, .util = 50, .left_kib = 4000000000, .min = 1000,
	 .max = 8000000, .group_threads = -1, .kind = MDP_XK_INFO, .rec = MDP_XR_NONE},
	{.id = "raid10-small-chunk-recovery", .release = "5.4.0", .level = "raid10",
	 .action = "recover", .chunk = 16, .rq_sect = 32, .nvme = true, .speed = 564418, .left_kib = 4000000000,
	 .util = 50, .min = 1000, .max = 8000000, .group_threads = -1, .kind = MDP_XK_INFO,
	 .rec = MDP_XR_NONE},
	/* issue 51, a CPU-bound NVMe recovery 20 minutes from its end: md2_raid5 at 99 % beside
	   members 30 % busy: group_thread_cnt with its room and trade-off, not only "finishing" */
	{.id = "finishing-cpu-nvme", .release = "6.1.0", .action = "recover", .nvme = true,
	 .speed = 1000000, .util = 30, .cpu = 99, .left_kib = 1200000000, .min = 1000,
	 .max = 4000000, .group_threads = 0, .kind = MDP_XK_CPU, .rec = MDP_XR_SETTING,
	 .rec_name = "md2/group_thread_cnt", .also = MDP_XK_INFO + 1,
	 .says = "room for up to 3333333 KiB/s a disk"},
	/* ... but ending within two windows (15 s): finishing, nothing to set */
	{.id = "finishing-cpu-nvme-end", .release = "6.1.0", .action = "recover", .nvme = true,
	 .speed = 1000000, .util = 30, .cpu = 99, .left_kib = 15000000, .min = 1000,
	 .max = 4000000, .group_threads = 0, .kind = MDP_XK_FINISHING, .rec = MDP_XR_NONE},
	/* issue 51, h23: resync=PENDING on a read-only array whose reshape was cut off and hung:
	   what --readwrite would resume and the harm check before it, never a bare command */
	{.id = "pending-reshape", .level = "raid10", .queued = "PENDING", .n = 10,
	 .array_state = "read-auto", .reshape_pos = "3221225472", .util = 0, KERNEL_DEFAULTS,
	 .kind = MDP_XK_WAITING, .rec = MDP_XR_NONE,
	 .says = "until the harm check passes", .not_says = "starts it now"},
	/* ... the harm itself said beside its check: the reshape may stop again, writable */
	{.id = "pending-reshape-harm", .level = "raid10", .queued = "PENDING", .n = 10,
	 .array_state = "read-auto", .reshape_pos = "3221225472", .util = 0, KERNEL_DEFAULTS,
	 .kind = MDP_XK_WAITING, .rec = MDP_XR_NONE, .says = "harm: whatever cut the reshape off"},
	/* ... and how to copy it off without the write that would resume it: read-auto turns
	   writable at the first write, a read-only mount's journal replay among them */
	{.id = "pending-reshape-copy-off", .level = "raid10", .queued = "PENDING", .n = 10,
	 .array_state = "read-auto", .reshape_pos = "3221225472", .util = 0, KERNEL_DEFAULTS,
	 .kind = MDP_XK_WAITING, .rec = MDP_XR_NONE,
	 .says = "to copy it off without a write: 'mdadm --readonly /dev/md2' first"},
	/* ... a reshape held on a writable array: mdadm continues it, after the same check */
	{.id = "held-reshape-continue", .level = "raid5", .action = "idle", .n = 4,
	 .array_state = "clean", .reshape_pos = "3221225472", .util = 0, KERNEL_DEFAULTS,
	 .kind = MDP_XK_WAITING, .rec = MDP_XR_NONE,
	 .says = "none until the harm check passes; then mdadm must continue it"},
	/* the operation ended between the samples: nothing to explain */
	{.id = "ended", .speed = 30000, .ended = true, .util = 50, KERNEL_DEFAULTS,
	 .kind = MDP_XK_INFO, .rec = MDP_XR_NONE},
};
// clang-format on

/*
 * The shipped profiles as explain finds them: the tree's profiles/ (make unit runs from
 * it, MDP_SRCDIR), so the limits a row's gain quotes are the profiles' own. refused: the one
 * apply would refuse on this box, or NULL.
 */
static void shipped(struct mdp_xprofiles *pro, const char *refused)
{
	static const struct mdp_profile_dirs dirs = {.dirs = {"profiles"}, .n = 1};
	const char *name;

	pro->n = 0;
	for (size_t k = 0; (name = mdp_explain_profile(k)); k++) {
		struct mdp_xprofile *x = &pro->v[pro->n++];
		struct mdp_profile p;
		struct mdp_diags d;
		char path[256];

		mdp_diags_init(&d);
		assert_int_equal(mdp_profile_find(&dirs, name, path, sizeof(path), &d), 0);
		assert_int_equal(mdp_profile_load(&dirs, path, &p, &d), 0);
		mdp_xrun_profile_of(&p, x);
		mdp_profile_free(&p);
		mdp_diags_free(&d);
		if (refused && !strcmp(refused, name)) {
			x->refused = true;
			snprintf(x->why, sizeof(x->why), "stripe caches over the budget");
		}
	}
}

static int setup_cwd(void **state)
{
	const char *src = getenv("MDP_SRCDIR");

	(void)state;
	return src && chdir(src) ? -1 : 0;
}

static void test_rows(void **state)
{
	(void)state;
	for (size_t i = 0; i < sizeof(rows) / sizeof(rows[0]); i++) {
		const struct row *r = &rows[i];
		struct mdp_xsample s0, s1;
		struct mdp_xarray a0, a1;
		struct mdp_xreport rep;
		const struct mdp_xfinding *f;
		struct mdp_xprofiles pro;

		build(r, 0, &s0, &a0);
		build(r, 1, &s1, &a1);
		shipped(&pro, r->refused);
		assert_int_equal(mdp_explain_array(&s0, &s1, DT, "md2", &pro, &rep), 0);
		print_message("%s: %zu findings, first %s (%s %s), speed %llu\n", r->id,
			      rep.n_findings,
			      rep.n_findings ? mdp_explain_kind_name(rep.findings[0].kind) : "-",
			      rep.n_findings ? rep.findings[0].rec_name : "",
			      rep.n_findings ? rep.findings[0].evidence[0] : "",
			      (unsigned long long)rep.speed_kib);
		assert_true(rep.n_findings > 0);
		f = &rep.findings[0];
		assert_string_equal(mdp_explain_kind_name(f->kind), mdp_explain_kind_name(r->kind));
		assert_int_equal(f->rec, r->rec);
		if (r->rec_name)
			assert_string_equal(f->rec_name, r->rec_name);
		assert_string_equal(mdp_explain_gain_name(f->gain), mdp_explain_gain_name(r->gain));
		if (r->gain_kib)
			assert_int_equal(f->gain_kib, r->gain_kib);
		assert_int_equal(mdp_explain_recommends(&rep), r->rec != MDP_XR_NONE);
		/* one report never says both "apply" (or raise) and "nothing to gain" */
		for (size_t k = 0; k < rep.n_findings; k++)
			if (rep.findings[k].gain == MDP_XG_ZERO)
				assert_false(mdp_explain_recommends(&rep));
		/* nor both a recommendation and "no limit ..." helps, changes or gets more */
		for (size_t k = 0; mdp_explain_recommends(&rep) && k < rep.n_findings; k++)
			assert_null(strstr(rep.findings[k].rec_text, "no limit"));
		if (r->also) {
			bool seen = false;
			for (size_t k = 0; k < rep.n_findings; k++)
				seen |= (int)rep.findings[k].kind == r->also - 1;
			assert_true(seen);
		}
		if (r->says) {
			bool seen = false;
			for (size_t k = 0; k < rep.n_findings; k++) {
				const struct mdp_xfinding *g = &rep.findings[k];
				seen |= strstr(g->rec_text, r->says) != NULL;
				for (size_t e = 0; e < g->n_evidence; e++)
					seen |= strstr(g->evidence[e], r->says) != NULL;
			}
			if (!seen)
				print_message("%s: no finding says \"%s\"\n", r->id, r->says);
			assert_true(seen);
		}
		for (size_t k = 0; r->not_says && k < rep.n_findings; k++) {
			const struct mdp_xfinding *g = &rep.findings[k];
			assert_null(strstr(g->rec_text, r->not_says));
			for (size_t e = 0; e < g->n_evidence; e++)
				assert_null(strstr(g->evidence[e], r->not_says));
		}
	}
}

/* The seed DiskStation's reshape: 4687 KiB/s, at DSM's limits. */
static const struct row seed_row = {
    .speed = 4687, .min = 10000, .max = 200000, .util = 20, .sc_same = true};

/* Both samples of r. */
static void pair(const struct row *r, struct mdp_xsample *s0, struct mdp_xarray *a0,
		 struct mdp_xsample *s1, struct mdp_xarray *a1)
{
	build(r, 0, s0, a0);
	build(r, 1, s1, a1);
}

/* Two samples, mdstat and md/sync_completed: the speed comes from mdstat's progress. */
static void test_speed_source(void **state)
{
	struct mdp_xsample s0, s1;
	struct mdp_xarray a0, a1;
	struct mdp_xreport rep;

	(void)state;
	pair(&seed_row, &s0, &a0, &s1, &a1);
	a1.sync_speed = 9999; /* md's average differs; the window's own figure wins */
	assert_int_equal(mdp_explain_array(&s0, &s1, DT, "md2", NULL, &rep), 0);
	assert_int_equal(rep.speed_src, MDP_XS_MDSTAT);
	assert_int_equal(rep.speed_kib, 4687);
	/* but md compares its own figure with the limits: 9999 is at the minimum 10000 */
	assert_string_equal(rep.binds, "min");
	a1.sync_speed = 4687;
	assert_int_equal(mdp_explain_array(&s0, &s1, DT, "md2", NULL, &rep), 0);
	assert_string_equal(rep.binds, "below-min");
	a1.sync_speed = 9999;
	assert_string_equal(rep.rule, "drain");
	/* progress unchanged: md's own average, said so */
	a1.done_kib = a0.done_kib;
	assert_int_equal(mdp_explain_array(&s0, &s1, DT, "md2", NULL, &rep), 0);
	assert_int_equal(rep.speed_src, MDP_XS_MD);
	assert_int_equal(rep.speed_kib, 9999);
	{
		bool said = false;
		for (size_t i = 0; i < rep.n_findings; i++)
			said |= rep.findings[i].kind == MDP_XK_INFO &&
				strstr(rep.findings[i].evidence[0], "did not move") != NULL;
		assert_true(said);
	}
	/* 6.16's sync_io_depth names the depth rule; 3.10 the sleep rule */
	s1.sync_io_depth = true;
	assert_int_equal(mdp_explain_array(&s0, &s1, DT, "md2", NULL, &rep), 0);
	assert_string_equal(rep.rule, "depth");
	s1.sync_io_depth = false;
	snprintf(s1.release, sizeof(s1.release), "3.10.105");
	assert_int_equal(mdp_explain_array(&s0, &s1, DT, "md2", NULL, &rep), 0);
	assert_string_equal(rep.rule, "sleep");
	assert_int_equal(mdp_explain_array(&s0, &s1, DT, "md9", NULL, &rep), -ENOENT);
	assert_int_equal(mdp_explain_array(&s0, &s1, 0, "md2", NULL, &rep), -EINVAL);
}

/* A capture can claim any progress: a jump past the array's size, or a speed no array has
 * (2^64 KiB in 1 ms), is no figure, and nothing is converted out of range (adversarial-4 F10:
 * a float-cast-overflow, then "0 KiB/s" beside "at the maximum"). */
static void test_forged_progress(void **state)
{
	struct mdp_xsample s0, s1;
	struct mdp_xarray a0, a1;
	struct mdp_xreport rep;

	(void)state;
	pair(&seed_row, &s0, &a0, &s1, &a1);
	a1.sync_speed = 5000;
	a0.done_kib = 0;
	a0.total_kib = a1.total_kib = UINT64_MAX;
	a1.done_kib = UINT64_MAX - 1;
	assert_int_equal(mdp_explain_array(&s0, &s1, 0.001, "md2", NULL, &rep), 0);
	assert_int_equal(rep.speed_src, MDP_XS_MD);
	assert_int_equal(rep.speed_kib, 5000);
	assert_string_not_equal(rep.binds, "max");
	/* md's own figure beyond any array too: no speed at all */
	a1.sync_speed = INT64_MAX;
	assert_int_equal(mdp_explain_array(&s0, &s1, 0.001, "md2", NULL, &rep), 0);
	assert_int_equal(rep.speed_kib, 0);
	assert_int_equal(rep.eta_s, 0);
	/* a jump larger than the array: no figure from progress either */
	pair(&seed_row, &s0, &a0, &s1, &a1);
	a1.sync_speed = 5000;
	a1.done_kib = a0.done_kib + a1.total_kib + 1;
	assert_int_equal(mdp_explain_array(&s0, &s1, DT, "md2", NULL, &rep), 0);
	assert_int_equal(rep.speed_src, MDP_XS_MD);
	assert_int_equal(rep.speed_kib, 5000);
}

/* Whether a finding of r recommends raising a speed limit. */
static bool raises(const struct mdp_xreport *r)
{
	for (size_t i = 0; i < r->n_findings; i++)
		if (r->findings[i].rec == MDP_XR_PROFILE ||
		    (r->findings[i].rec == MDP_XR_SETTING &&
		     strstr(r->findings[i].rec_name, "/sync_speed_m")))
			return true;
	return false;
}

/*
 * A latency goal the watcher steers md2 by (issue 40): explain names it as the reason, first,
 * and no other finding still recommends raising a limit (C04: a recovery held at its floor by
 * other I/O, which alone gets reshape-fast).
 */
static void test_goal(void **state)
{
	static const struct row floor_row = {.release = "2.6.33",
					     .action = "recover",
					     .speed = 505,
					     .min = 500,
					     .max = 200000,
					     .util = 40,
					     .holder_kib = 2000,
					     .group_threads = -1};
	struct mdp_xsample s[2];
	struct mdp_xarray a[2];
	struct mdp_xreport reps[2];
	struct mdp_wgoal_view g;
	struct mdp_xprofiles pro = {.n = 1};
	bool any = false;

	(void)state;
	pro.v[0] = (struct mdp_xprofile){.name = "reshape-fast",
					 .min = 300000,
					 .max = 2000000,
					 .min_floor = true,
					 .max_floor = true};
	for (int k = 0; k < 2; k++) {
		build(&floor_row, k, &s[k], &a[k]);
		s[k].arrays = &a[k];
		s[k].n_arrays = 1;
	}
	assert_int_equal(mdp_xrun_reports(s, DT, NULL, 0, &pro, NULL, reps, &any), 1);
	assert_true(raises(&reps[0]));
	memset(&g, 0, sizeof(g));
	g.goal_ms = 30;
	g.n = 1;
	snprintf(g.v[0].name, sizeof(g.v[0].name), "md2");
	g.v[0].min = 95000;
	g.v[0].in.kind = MDP_GOAL_LATENCY;
	g.v[0].in.latency_us = 42000;
	g.v[0].src = MDP_IO_MD;
	assert_int_equal(mdp_xrun_reports(s, DT, NULL, 0, &pro, &g, reps, &any), 1);
	assert_int_equal(reps[0].findings[0].kind, MDP_XK_GOAL);
	assert_string_equal(
	    reps[0].findings[0].evidence[0],
	    "the watcher steers md2's minimum by a latency goal of 30 ms: now 95000 "
	    "KiB/s, the shares' requests at 42.0 ms at its last look (the array's own "
	    "counters)");
	assert_false(raises(&reps[0]));
	/* another array's goal says nothing of md2 */
	snprintf(g.v[0].name, sizeof(g.v[0].name), "md5");
	assert_int_equal(mdp_xrun_reports(s, DT, NULL, 0, &pro, &g, reps, &any), 1);
	assert_true(raises(&reps[0]));
}

/* Which arrays get a report: the named ones, else those an operation runs or waits on. */
static void test_reports(void **state)
{
	struct mdp_xsample s[2];
	struct mdp_xarray a[2][2];
	struct mdp_xreport reps[4];
	char *md9[] = {"md9"}, *both[] = {"md9", "md2"};
	bool any = false;

	(void)state;
	for (int k = 0; k < 2; k++) {
		build(&seed_row, k, &s[k], &a[k][0]);
		a[k][1] = a[k][0];
		snprintf(a[k][1].name, sizeof(a[k][1].name), "md9");
		snprintf(a[k][1].action, sizeof(a[k][1].action), "idle");
		s[k].arrays = a[k];
		s[k].n_arrays = 2;
	}
	assert_int_equal(mdp_xrun_reports(s, DT, NULL, 0, NULL, NULL, reps, &any), 1);
	assert_string_equal(reps[0].array, "md2");
	any = false;
	assert_int_equal(mdp_xrun_reports(s, DT, md9, 1, NULL, NULL, reps, &any), 1);
	assert_string_equal(reps[0].array, "md9");
	assert_string_equal(reps[0].action, "none");
	assert_false(any);
	/* in the samples' order, each once; queued counts as waiting */
	assert_int_equal(mdp_xrun_reports(s, DT, both, 2, NULL, NULL, reps, &any), 2);
	assert_string_equal(reps[0].array, "md2");
	snprintf(a[1][1].queued, sizeof(a[1][1].queued), "DELAYED");
	assert_int_equal(mdp_xrun_reports(s, DT, NULL, 0, NULL, NULL, reps, &any), 2);
	assert_string_equal(reps[1].array, "md9");
}

/* 32-bit kernels: diskstats counters wrap at 2^32; the util of a wrapped disk is still right. */
static void test_wrap(void **state)
{
	struct mdp_xsample s0, s1;
	struct mdp_xarray a0, a1;
	struct mdp_xreport rep;
	struct row r = {.speed = 8000, .min = 1000, .max = 200000, .util = 96};
	uint64_t d;

	(void)state;
	assert_true(mdp_explain_delta(10, 25, &d));
	assert_int_equal(d, 15);
	assert_true(mdp_explain_delta(UINT32_MAX - 4, 5, &d));
	assert_int_equal(d, 10);
	assert_false(mdp_explain_delta(UINT64_C(1) << 40, 5, &d));
	build(&r, 0, &s0, &a0);
	build(&r, 1, &s1, &a1);
	for (size_t i = 0; i < a0.n_members; i++) {
		struct mdp_xio *w0 = &a0.members[i].whole, *w1 = &a1.members[i].whole;
		uint64_t t = w1->io_ticks - w0->io_ticks, s = w1->wr_sect - w0->wr_sect;
		w0->io_ticks = UINT32_MAX - 100;
		w1->io_ticks = t - 101;
		w0->wr_sect = UINT32_MAX - 7;
		w1->wr_sect = s - 8;
	}
	assert_int_equal(mdp_explain_array(&s0, &s1, DT, "md2", NULL, &rep), 0);
	assert_int_equal(rep.findings[0].kind, MDP_XK_DISKS_AT_LIMIT);
}

static void test_diskstats(void **state)
{
	static const char text[] =
	    /* 4.4: 14 fields */
	    "   8       0 sda 100 2 3000 40 200 5 4000 60 0 70 100\n"
	    /* 4.18: 18 fields (discards) */
	    "   8      16 sdb 101 2 3001 40 200 5 4000 60 1 71 100 0 0 0 0\n"
	    /* 5.5: 20 fields (flushes) */
	    "   8      21 sdb5 102 2 3002 40 200 5 4000 60 0 72 100 0 0 0 0 9 9\n"
	    /* 2.6.18 partition: 7 fields */
	    "   8       1 sda1 10 20 30 40\n"
	    /* 15 fields: not a known layout */
	    "   8       2 sda2 1 2 3 4 5 6 7 8 9 10 11 12\n"
	    "   9       2 md2 5 0 40 0 6 0 48 0 0 0 0 0 0 0 0 0 0\n"
	    "garbage\n";
	struct mdp_xio *io = NULL;
	size_t n = 0;
	char disk[32];

	(void)state;
	assert_int_equal(mdp_explain_parse_diskstats(text, sizeof(text) - 1, &io, &n), 0);
	assert_int_equal(n, 5);
	assert_string_equal(io[0].name, "sda");
	assert_int_equal(io[0].field, 14);
	assert_true(io[0].full);
	assert_int_equal(io[0].rd_sect, 3000);
	assert_int_equal(io[0].wr_sect, 4000);
	assert_int_equal(io[0].io_ticks, 70);
	assert_int_equal(io[1].field, 18);
	assert_int_equal(io[1].inflight, 1);
	assert_int_equal(io[2].field, 20);
	assert_int_equal(io[2].io_ticks, 72);
	assert_string_equal(io[3].name, "sda1");
	assert_int_equal(io[3].field, 7);
	assert_false(io[3].full);
	assert_int_equal(io[3].rd_sect, 20);
	assert_int_equal(io[3].wr_sect, 40);
	assert_string_equal(io[4].name, "md2");
	mdp_explain_disk_of("sdb5", io, n, disk, sizeof(disk));
	assert_string_equal(disk, "sdb");
	mdp_explain_disk_of("sda", io, n, disk, sizeof(disk));
	assert_string_equal(disk, "sda");
	mdp_explain_disk_of("sdz5", io, n, disk, sizeof(disk));
	assert_string_equal(disk, "sdz5");
	free(io);
	{
		static const char t2[] = "259 0 nvme0n1 1 0 8 0 0 0 0 0 0 0 0\n"
					 "259 1 nvme0n1p2 1 0 8 0 0 0 0 0 0 0 0\n"
					 "8 32 sata1 1 0 8 0 0 0 0 0 0 0 0\n"
					 "8 37 sata1p5 1 0 8 0 0 0 0 0 0 0 0\n";
		assert_int_equal(mdp_explain_parse_diskstats(t2, sizeof(t2) - 1, &io, &n), 0);
		assert_int_equal(n, 4);
		mdp_explain_disk_of("nvme0n1p2", io, n, disk, sizeof(disk));
		assert_string_equal(disk, "nvme0n1");
		mdp_explain_disk_of("sata1p5", io, n, disk, sizeof(disk));
		assert_string_equal(disk, "sata1");
		free(io);
	}
}

/* A disk's controller from its /sys/class/block link, and that link's data rate. */
static void test_bus(void **state)
{
	static const struct {
		const char *path, *bus;
	} t[] = {
	    {"../../devices/pci0000:00/0000:00:1c.4/0000:03:00.0/ata3/host2/target2:0:0/2:0:0:0/"
	     "block/sdc",
	     "0000:03:00.0"},
	    {"../../devices/pci0000:00/0000:00:14.0/usb2/2-1/2-1.3/2-1.3:1.0/host6/target6:0:0/"
	     "6:0:0:0/block/sdf",
	     "2-1"}, /* behind hub 2-1: its devices share the hub's link */
	    {"../../devices/pci0000:00/0000:00:1d.0/0000:3b:00.0/nvme/nvme0/nvme0n1",
	     "0000:3b:00.0"},
	    {"../../devices/platform/soc/d800000.sata/ata1/host0/target0:0:0/0:0:0:0/block/sda",
	     ""},
	    {"../../devices/virtual/block/md2", ""},
	    {"", ""},
	};
	char bus[48], desc[48];

	(void)state;
	for (size_t i = 0; i < sizeof(t) / sizeof(t[0]); i++) {
		mdp_explain_bus_of(t[i].path, bus, sizeof(bus));
		assert_string_equal(bus, t[i].bus);
	}
	/* a port multiplier's disks share ata3; a chipset's own ports are one disk each */
	mdp_explain_port_of("../../devices/pci0000:00/0000:00:1f.2/ata3/host2/target2:3:0/2:3:0:0/"
			    "block/sdd",
			    bus, sizeof(bus));
	assert_string_equal(bus, "ata3");
	mdp_explain_port_of(t[2].path, bus, sizeof(bus));
	assert_string_equal(bus, "");
	/* the bridge above the controller; none for one on a root bus or with no PCI at all */
	mdp_explain_bridge_of("../../devices/pci0000:00/0000:00:1e.0/0000:05:01.0/ata5/host4/"
			      "target4:0:0/4:0:0:0/block/sde",
			      bus, sizeof(bus));
	assert_string_equal(bus, "0000:00:1e.0");
	mdp_explain_bridge_of(t[0].path, bus, sizeof(bus));
	assert_string_equal(bus, "0000:00:1c.4");
	mdp_explain_bridge_of("../../devices/pci0000:00/0000:00:1f.2/ata3/host2/block/sdd", bus,
			      sizeof(bus));
	assert_string_equal(bus, "");
	mdp_explain_bridge_of(t[3].path, bus, sizeof(bus));
	assert_string_equal(bus, "");
	mdp_explain_port_of(t[3].path, bus, sizeof(bus)); /* no PCI function: no port */
	assert_string_equal(bus, "");
	/* SATA 3 Gb/s, 8b/10b: 300 MB/s = 292968 KiB/s */
	assert_int_equal(mdp_explain_bus_rate("ata3", "3.0 Gbps", 0, desc, sizeof(desc)), 292968);
	assert_string_equal(desc, "SATA 3.0 Gb/s");
	/* PCIe 2.0 x1: 5 GT/s, 8b/10b: 500 MB/s = 488281 KiB/s; 3.0 x2: 128b/130b */
	assert_int_equal(
	    mdp_explain_bus_rate("0000:03:00.0", "5.0 GT/s PCIe", 1, desc, sizeof(desc)), 488281);
	assert_string_equal(desc, "PCIe 5.0 GT/s x1");
	assert_int_equal(
	    mdp_explain_bus_rate("0000:03:00.0", "8.0 GT/s PCIe", 2, desc, sizeof(desc)), 1923076);
	assert_int_equal(mdp_explain_bus_rate("2-1", "480", 0, desc, sizeof(desc)), 58593);
	assert_string_equal(desc, "USB 480 Mb/s");
	assert_int_equal(mdp_explain_bus_rate("2-1", "5000", 0, desc, sizeof(desc)), 488281);
	/* what does not parse is no figure */
	assert_int_equal(mdp_explain_bus_rate("0000:03:00.0", "Unknown", 1, desc, sizeof(desc)), 0);
	assert_int_equal(mdp_explain_bus_rate("0000:03:00.0", "5.0 GT/s", 0, desc, sizeof(desc)),
			 0);
	assert_int_equal(mdp_explain_bus_rate("2-1", "-480", 0, desc, sizeof(desc)), 0);
}

static void test_kver(void **state)
{
	(void)state;
	assert_int_equal(mdp_explain_kver("3.10.105"), 310);
	assert_int_equal(mdp_explain_kver("6.1.0-57-amd64"), 601);
	assert_int_equal(mdp_explain_kver("4.4.302+"), 404);
	assert_int_equal(mdp_explain_kver("6.16"), 616);
	assert_int_equal(mdp_explain_kver(""), 0);
	assert_int_equal(mdp_explain_kver("x.1"), 0);
}

/*
 * A full report: a recovery onto 13 new disks beside 3 that are read, every disk 95 % busy and
 * each new one 400 times slower a request, gives a target finding per new disk, 12 of them
 * (MDP_X_FINDINGS). The checks after it still run: the disks at their limit, and with the
 * members behind one full link, the controller; neither has room left (a finding they could
 * not add is NULL, not written through) and the report stays the 12 targets.
 */
static void test_full_report(void **state)
{
	static const struct row full = {.release = "6.1.0",
					.action = "recover",
					.n = 16,
					.speed = 8000,
					.util = 95,
					KERNEL_DEFAULTS};
	struct row bus = full;
	const struct row *rs[] = {&full, &bus};
	struct mdp_xsample s0, s1;
	struct mdp_xarray a0, a1;
	struct mdp_xreport rep;

	(void)state;
	bus.bus_n = 16;
	bus.bus_kib = 16 * 8000;
	for (size_t k = 0; k < sizeof(rs) / sizeof(rs[0]); k++) {
		pair(rs[k], &s0, &a0, &s1, &a1);
		for (size_t i = 3; i < a1.n_members; i++) {
			struct mdp_xio *w0 = &a0.members[i].whole, *w1 = &a1.members[i].whole;
			snprintf(a0.members[i].state, sizeof(a0.members[i].state), "spare");
			snprintf(a1.members[i].state, sizeof(a1.members[i].state), "spare");
			w1->rd_ms = w0->rd_ms + (w1->rd_ms - w0->rd_ms) * 400;
			w1->wr_ms = w0->wr_ms + (w1->wr_ms - w0->wr_ms) * 400;
		}
		assert_int_equal(mdp_explain_array(&s0, &s1, DT, "md2", NULL, &rep), 0);
		assert_int_equal(rep.n_findings, MDP_X_FINDINGS);
		for (size_t i = 0; i < rep.n_findings; i++)
			assert_int_equal(rep.findings[i].kind, MDP_XK_TARGET);
		assert_false(mdp_explain_recommends(&rep));
	}
}

MDP_TEST_MAIN_FX(setup_cwd, NULL, NULL, test_rows, test_speed_source, test_forged_progress,
		 test_reports, test_goal, test_wrap, test_diskstats, test_kver, test_bus,
		 test_full_report)
