/*
 * bench: what a volume writes and reads per second, measured so the read is
 * the disks' and not the page cache's (src/volbench.c says how). The seed
 * write-up's dd reads of 2 GB gave ~850 MB/s on every RAID level because
 * they came from RAM; this reports how each read was made and marks a
 * cached one as such.
 */
#include <errno.h>
#include <inttypes.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <sys/utsname.h>

#include "commands.h"
#include "json.h"
#include "render.h"
#include "volbench.h"

static const char *const methods[] = {
    [MDP_VB_DIRECT] = "direct",
    [MDP_VB_DROPPED] = "dropped",
    [MDP_VB_CACHED] = "cached",
};

static const char *method_text(enum mdp_vb_method m)
{
	if (m == MDP_VB_DIRECT)
		return "read with O_DIRECT (from the disks)";
	if (m == MDP_VB_DROPPED)
		return "read after the file's pages were dropped and checked gone";
	return "read from the page cache: the filesystem keeps the file in RAM (tmpfs) or "
	       "would not let its pages go, so the read figure is not the disks'";
}

struct stats {
	double mean, min, max, spread_pct;
};

static struct stats stats_of(const struct mdp_vb *b, bool read)
{
	struct stats s = {0};

	for (unsigned i = 0; i < b->n; i++) {
		uint64_t ns = read ? b->v[i].read_ns : b->v[i].write_ns;
		double v = mdp_vb_mbps(b->size, ns);
		s.mean += v / b->n;
		s.min = i == 0 || v < s.min ? v : s.min;
		s.max = v > s.max ? v : s.max;
	}
	s.spread_pct = s.mean > 0 ? (s.max - s.min) * 100.0 / s.mean : 0;
	return s;
}

/* The block device under dir ("md2", "dm-0"), "" when unknown. */
static void device_of(struct cli *cli, const char *dir, char *buf, size_t len)
{
	char sys[64], link[256];
	struct stat st;

	buf[0] = '\0';
	if (stat(dir, &st))
		return;
	snprintf(sys, sizeof(sys), "/sys/dev/block/%u:%u", major(st.st_dev), minor(st.st_dev));
	if (mdp_root_readlink(&cli->root, sys, link, sizeof(link)) >= 0)
		snprintf(buf, len, "%.31s", strrchr(link, '/') ? strrchr(link, '/') + 1 : link);
}

static void print_text(struct cli *cli, const struct mdp_vb *b, const char *dev,
		       const struct mdp_system *s)
{
	struct stats w = stats_of(b, false), r = stats_of(b, true);
	const struct mdp_array *a = dev[0] ? mdp_system_array(s, dev) : NULL;
	char safe[PATH_MAX + 64];
	struct utsname u;

	uname(&u);
	printf("machine: %s %s, %" PRIu64 " MiB RAM\n", u.machine, u.release,
	       s->mem_total_kib / 1024);
	printf("volume: %s", render_safe(b->dir, safe, sizeof(safe)));
	if (a)
		printf(" on %s (%s, %d disks)", a->name, a->level_name, a->raid_disks);
	else if (dev[0])
		printf(" on %s", dev);
	printf("\nmethod: %" PRIu64 " MiB written and flushed (fdatasync) per run, %s\n",
	       b->size >> 20, method_text(b->method));
	puts("\nrun   write MB/s   read MB/s");
	for (unsigned i = 0; i < b->n; i++)
		printf("%3u %12.1f %11.1f%s\n", i + 1, mdp_vb_mbps(b->size, b->v[i].write_ns),
		       mdp_vb_mbps(b->size, b->v[i].read_ns),
		       b->method == MDP_VB_CACHED ? " (cached)" : "");
	printf("\nwrite: mean %.1f MB/s, min %.1f, max %.1f, spread %.0f%%\n", w.mean, w.min, w.max,
	       w.spread_pct);
	printf("read:  mean %.1f MB/s, min %.1f, max %.1f, spread %.0f%%%s\n", r.mean, r.min, r.max,
	       r.spread_pct, b->method == MDP_VB_CACHED ? " (cached, not the disks)" : "");
	if (b->method == MDP_VB_DROPPED && s->mem_total_kib && b->size < s->mem_total_kib * 1024)
		printf("hint: without O_DIRECT a file smaller than RAM (%" PRIu64
		       " MiB) is easily served from memory\n",
		       s->mem_total_kib / 1024);
	(void)cli;
}

static void json_stats(struct json *j, const char *key, struct stats s)
{
	json_key(j, key);
	json_obj(j);
	json_key(j, "mean");
	json_f1(j, s.mean);
	json_key(j, "min");
	json_f1(j, s.min);
	json_key(j, "max");
	json_f1(j, s.max);
	json_key(j, "spread_pct");
	json_f1(j, s.spread_pct);
	json_end(j);
}

static void print_json(struct cli *cli, const struct mdp_vb *b, const char *dev,
		       const struct mdp_system *s)
{
	const struct mdp_array *a = dev[0] ? mdp_system_array(s, dev) : NULL;
	struct utsname u;
	struct json j;

	uname(&u);
	cli_json_begin(cli, &j);
	json_obj(&j);
	json_kstr(&j, "path", b->dir);
	json_kstr(&j, "device", dev[0] ? dev : NULL);
	json_kstr(&j, "level", a ? a->level_name : NULL);
	json_key(&j, "raid_disks");
	json_i64(&j, a ? a->raid_disks : 0);
	json_kstr(&j, "method", methods[b->method]);
	json_kbool(&j, "read_cached", b->method == MDP_VB_CACHED);
	json_ku64(&j, "size_bytes", b->size);
	json_key(&j, "runs");
	json_arr(&j);
	for (unsigned i = 0; i < b->n; i++) {
		json_obj(&j);
		json_key(&j, "write_mb_s");
		json_f1(&j, mdp_vb_mbps(b->size, b->v[i].write_ns));
		json_key(&j, "read_mb_s");
		json_f1(&j, mdp_vb_mbps(b->size, b->v[i].read_ns));
		json_end(&j);
	}
	json_end(&j);
	json_stats(&j, "write_mb_s", stats_of(b, false));
	json_stats(&j, "read_mb_s", stats_of(b, true));
	json_key(&j, "machine");
	json_obj(&j);
	json_kstr(&j, "arch", u.machine);
	json_kstr(&j, "kernel", u.release);
	json_ku64(&j, "mem_total_kib", s->mem_total_kib);
	json_end(&j);
	json_end(&j);
}

static int run(struct cli *cli, struct mdp_vb *b, char *dev, size_t len)
{
	struct mdp_system s = {0};
	struct mdp_diags d;
	int err, rc;

	if ((rc = cli_discover(cli, MDP_SKIP_PROGRESS | MDP_SKIP_UUID, &s)))
		return rc;
	device_of(cli, b->dir, dev, len);
	cli_hold_stop_signals();
	b->stop_requested = cli_stop_requested;
	mdp_diags_init(&d);
	err = mdp_vb_run(b, &d);
	cli_print_diags(cli, &d);
	mdp_diags_free(&d);
	if (err) {
		rc = err == -ENOSPC || err == -ENOTDIR ? MDP_EXIT_USAGE : MDP_EXIT_FAILED;
	} else if (b->stop_signal) {
		cli_err(cli, "interrupted by %s after %u run%s; the test file was removed",
			cli_signal_name(b->stop_signal), b->n, b->n == 1 ? "" : "s");
		rc = MDP_EXIT_FAILED;
	} else if (cli->json) {
		print_json(cli, b, dev, &s);
	} else {
		print_text(cli, b, dev, &s);
	}
	mdp_system_free(&s);
	return rc;
}

static int do_bench(struct cli *cli)
{
	struct mdp_vb b = {.size = cli->bench_size, .runs = cli->bench_runs ? cli->bench_runs : 5};
	char dir[PATH_MAX], dev[64];
	struct mdp_diags d;
	int rc;

	if (!cli->bench_path) {
		mdp_diags_init(&d);
		rc = mdp_vb_find_volume(&cli->root, dir, sizeof(dir), &d);
		cli_print_diags(cli, &d);
		mdp_diags_free(&d);
		if (rc)
			return MDP_EXIT_USAGE;
	}
	b.dir = cli->bench_path ? cli->bench_path : dir;
	rc = run(cli, &b, dev, sizeof(dev));
	mdp_vb_free(&b);
	return rc;
}

const struct cmd cmd_bench = {"bench",
			      do_bench,
			      0,
			      OPT_BENCH,
			      0,
			      0,
			      "bench [--path DIR] [--size SIZE] [--runs N]",
			      "sequential write and read speed of a volume, not of the page cache"};
