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

/*
 * Read one sample. -errno only when /proc/mdstat itself cannot be read
 * (a diag in src->unreadable names it) or memory runs out; every other
 * file missing is absence, and one that cannot be read is noted in
 * src->unreadable and left out. Free with mdp_explain_sample_free().
 */
int mdp_explain_sample(const struct mdp_xsrc *src, struct mdp_xsample *out);
void mdp_explain_sample_free(struct mdp_xsample *s);

void mdp_xcap_free(struct mdp_xcap *c);
/* Record data (len bytes) as file path of sample 0 or 1. 0 or -ENOMEM. */
int mdp_xcap_add(struct mdp_xcap *c, int sample, const char *path, const char *data, size_t len);
/*
 * The capture as a ustar archive (see above), elapsed_ms between the
 * samples. *out malloc'd. 0, -ENOMEM, -ENAMETOOLONG (a path beyond ustar's).
 */
int mdp_xcap_tar(const struct mdp_xcap *c, uint64_t elapsed_ms, char **out, size_t *len);

/*
 * Write the capture (mdp_xcap_tar) to file, a name in a folder opened
 * before anything was read (mdp_root_out_open): a new file beside it,
 * renamed over the name, never written into what is there (another user's
 * file, a hard link to one of root's, a FIFO that would block for ever).
 * 0 or -errno.
 */
int mdp_xcap_write(const struct mdp_xcap *c, uint64_t elapsed_ms, const struct mdp_root_out *file);

/* Does this root hold a capture to replay (a fixture root with /.explain/1)? */
bool mdp_explain_is_replay(const struct mdp_root *r);
/* The replay's second-sample root (prefix/.explain/1) and elapsed time. 0 or -errno. */
int mdp_explain_replay_open(const struct mdp_root *r, struct mdp_root *second,
			    uint64_t *elapsed_ms);

/*
 * explain --probe's samples in a replay: /.explain/N (2 and 3 the probed
 * window's start and end, 4 and 5 the second unchanged window's), read
 * over the fixture root like /.explain/1. 0, -ENOENT when there is none.
 */
int mdp_explain_replay_sample(const struct mdp_root *r, unsigned n, struct mdp_root *out);

#endif
