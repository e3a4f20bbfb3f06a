/*
 * explain_sample: one sample of what explain reads (struct mdp_xsample),
 * read through root, optionally recorded for --capture, and the capture's
 * replay. md's model of each array (level, action, state, progress, limits,
 * stripe cache, members' states) is discover's (mdp_discover_array); what is
 * explain's own (diskstats, /proc/stat and vmstat, md's threads, members'
 * error counters, offsets, bad blocks, disks' buses) is read here.
 *
 * A capture is a tar archive (ustar) that extracts into a fixture root:
 * the first sample's files at their system paths, the second sample's
 * under .explain/1/, and .explain/elapsed_ms, the time between them. So
 * `mkdir x && tar xf FILE -C x && mdprofile --root x explain` replays it:
 * under a fixture root that has /.explain/1, explain reads the second
 * sample from there (a file missing there is taken from the first
 * sample's tree: hand-made fixture pairs hold only what changed) and does
 * not sleep. Every capture holds .explain/ (its elapsed_ms at least), the
 * mark by which no program in the tree is ever run (root.h,
 * MDP_ROOT_CAPTURE_MARK): a capture is data from whoever made it.
 * Only files explain reads are in it (the links it reads, such as
 * /sys/class/block/sda, as links), and of /proc's processes
 * only md's own kernel threads (mdX_*), so an owner can attach it to a
 * report without listing their processes.
 */
#ifndef MDP_EXPLAIN_SAMPLE_H
#define MDP_EXPLAIN_SAMPLE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "mdp_base.h"
#include "explain.h"

/* Files read, in order, for --capture. */
struct mdp_xcap_file {
	int sample; /* 0 or 1 */
	char *path; /* system path, "/proc/mdstat" */
	bool link;  /* a symbolic link; data is its target */
	char *data;
	size_t len;
};

struct mdp_xcap {
	struct mdp_xcap_file *v;
	size_t n, cap;
};

/* Where a sample is read from. */
struct mdp_xsrc {
	const struct mdp_root *root;
	const struct mdp_root *overlay; /* replay's second sample (/.explain/1), or NULL */
	struct mdp_xcap *cap;           /* record what is read, or NULL */
	int sample;                     /* 0 or 1, for cap */
	/* files that exist but could not be read ("/proc/1/stat: permission denied"), deduped */
	struct mdp_diags *unreadable;
};

void mdp_xcap_free(struct mdp_xcap *c);

/*
 * Write the capture (mdp_xcap_tar) to file, a name in a folder opened
 * before anything was read (mdp_root_out_open): a new file beside it,
 * renamed over the name, never written into what is there (another user's
 * file, a hard link to one of root's, a FIFO that would block for ever).
 * 0 or -errno.
 */
int mdp_xcap_write(const struct mdp_xcap *c, uint64_t elapsed_ms, const struct mdp_root_out *file);

#endif
