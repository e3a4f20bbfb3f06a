/* iostat: an array's foreground latency from the block layer's counters (iostat.h). */
#include "iostat_int.h"
#include "mdp_base.h"

#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

/* Each source's key (JSON, Prometheus, the watcher's file) and its words. */
static const struct {
	const char *key, *text;
} sources[] = {
    [MDP_IO_NONE] = {"none", "not measured"},
    [MDP_IO_MD] = {"md", "the array's own counters"},
    [MDP_IO_MEMBERS] = {"members", "its member disks' counters, the sync's included"},
    /* the key: the goal file's, JSON's and Prometheus' word for it */
    [MDP_IO_TIMED] = {"probe", "the watcher's own timed reads of the array"},
    [MDP_IO_PART] = {"partition", "the partition's own counters"},
};
#define N_SOURCES (sizeof(sources) / sizeof(sources[0]))

const char *mdp_io_source_key(enum mdp_io_source s)
{
	return sources[(size_t)s < N_SOURCES ? s : MDP_IO_NONE].key;
}

enum mdp_io_source mdp_io_source_of(const char *key)
{
	for (size_t i = 0; i < N_SOURCES; i++)
		if (!strcmp(key, sources[i].key))
			return (enum mdp_io_source)i;
	return MDP_IO_NONE;
}

const char *mdp_io_source_text(enum mdp_io_source s)
{
	return sources[(size_t)s < N_SOURCES ? s : MDP_IO_NONE].text;
}

int mdp_iostat_parse(const char *text, struct mdp_io_count *c)
{
	uint64_t f[8];
	const char *p = text, *end;

	for (size_t i = 0; i < 8; i++) {
		while (*p == ' ' || *p == '\t')
			p++;
		if (mdp_num_lead(p, SIZE_MAX, &f[i], &end) ||
		    (*end != ' ' && *end != '\t' && *end != '\n' && *end))
			return -EINVAL;
		p = end;
	}
	c->ios = f[0] + f[4];
	c->ticks_ms = f[3] + f[7];
	return 0;
}

bool mdp_iostat_read_count(const struct mdp_root *r, const char *path, struct mdp_io_count *c)
{
	char buf[512];

	return mdp_root_read_value(r, path, buf, sizeof(buf)) > 0 && !mdp_iostat_parse(buf, c);
}

void mdp_iostat_read(const struct mdp_root *r, const struct mdp_array *a, struct mdp_io_snap *out)
{
	char path[3 * MDP_NAME_MAX + 32];
	struct mdp_io_count c;

	memset(out, 0, sizeof(*out));
	snprintf(path, sizeof(path), "/sys/block/%s/stat", a->name);
	out->have_md = mdp_iostat_read_count(r, path, &out->md);
	out->have_members = a->n_members > 0;
	for (size_t i = 0; i < a->n_members && out->have_members; i++) {
		const struct mdp_member *m = &a->members[i];
		if (!strcmp(m->name, m->disk))
			snprintf(path, sizeof(path), "/sys/block/%s/stat", m->disk);
		else
			snprintf(path, sizeof(path), "/sys/block/%s/%s/stat", m->disk, m->name);
		if ((out->have_members = mdp_iostat_read_count(r, path, &c))) {
			out->members.ios += c.ios;
			out->members.ticks_ms += c.ticks_ms;
		}
	}
}

/* The counters' growth from b to a, false when one went back (a reset, a new device). */
static bool delta(const struct mdp_io_count *b, const struct mdp_io_count *a,
		  struct mdp_io_count *d)
{
	if (a->ios < b->ios || a->ticks_ms < b->ticks_ms)
		return false;
	d->ios = a->ios - b->ios;
	d->ticks_ms = a->ticks_ms - b->ticks_ms;
	return true;
}

static struct mdp_goal_sample per_request(const struct mdp_io_count *d)
{
	return (struct mdp_goal_sample){.kind = MDP_GOAL_LATENCY,
					.latency_us = d->ticks_ms * 1000 / d->ios};
}

void mdp_iostat_latency(const struct mdp_io_snap *before, const struct mdp_io_snap *now,
			bool *md_timed, struct mdp_goal_sample *out, enum mdp_io_source *src)
{
	struct mdp_io_count md, mem;

	*out = (struct mdp_goal_sample){.kind = MDP_GOAL_UNKNOWN};
	*src = MDP_IO_NONE;
	if (!before->have_md || !now->have_md || !delta(&before->md, &now->md, &md))
		return;
	if (!md.ios) {
		out->kind = MDP_GOAL_IDLE;
		return;
	}
	if (md.ticks_ms)
		*md_timed = true;
	if (*md_timed) {
		*out = per_request(&md);
		*src = MDP_IO_MD;
	} else if (before->have_members && now->have_members &&
		   delta(&before->members, &now->members, &mem) && mem.ios) {
		*out = per_request(&mem);
		*src = MDP_IO_MEMBERS;
	}
}

/* xorshift64: the timed reads' offsets. */
static uint64_t next_rand(uint64_t *s)
{
	uint64_t x = *s ? *s : 0x9e3779b97f4a7c15u;

	x ^= x << 13;
	x ^= x >> 7;
	x ^= x << 17;
	return *s = x;
}

static int cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return x < y ? -1 : x > y;
}

/* sys opened for O_DIRECT reads, only when it is a block device. */
static int open_dev(const struct mdp_root *r, const char *sys)
{
	struct stat st;
	int fd, err = 0;

	/* O_NONBLOCK: a FIFO in a fixture tree must not hang the open; cleared after */
	if ((fd = mdp_root_open(r, sys, O_RDONLY | O_NONBLOCK | O_NOCTTY, 0)) < 0)
		return fd;
	if (fstat(fd, &st))
		err = -errno;
	else if (!S_ISBLK(st.st_mode))
		err = -ENOTBLK;
	else if (fcntl(fd, F_SETFL, O_DIRECT) < 0)
		err = -errno;
	if (err) {
		close(fd);
		return err;
	}
	return fd;
}

/*
 * The open and the reads run on a thread of their own, so that an open md
 * holds (it takes the array's lock while it reconfigures it) or a read a
 * failing disk holds (a SCSI timeout is 30 s, with retries) cannot hold the
 * watcher: it waits until the deadline, counts what is not done by then as
 * the time waited, and keeps the job (*held) until its thread ends. The job
 * frees itself with its last reference (the thread's or the holder's). It
 * opens through its own copy of the root, whose descriptor is its own: the
 * caller's root may be gone before the thread ends.
 */
struct mdp_timed_reads {
	pthread_mutex_t mu;
	pthread_cond_t cv;
	int refs;
	bool done;
	int fd, err;
	struct mdp_root root;
	char sys[MDP_NAME_MAX + 8]; /* /dev/NAME */
	mdp_timed_open_fn *open;
	mdp_timed_read_fn *rd;
	void *buf;
	uint64_t blocks, seed;
	uint64_t t[MDP_IOSTAT_TIMED_READS]; /* us; 0 until that read ended */
};

static void job_put(struct mdp_timed_reads *j)
{
	bool last;

	pthread_mutex_lock(&j->mu);
	last = --j->refs == 0;
	pthread_mutex_unlock(&j->mu);
	if (!last)
		return;
	if (j->fd >= 0)
		close(j->fd);
	if (j->root.fd >= 0)
		close(j->root.fd);
	free(j->buf);
	pthread_cond_destroy(&j->cv);
	pthread_mutex_destroy(&j->mu);
	free(j);
}

/* The open, then each read, timed. 0 or -errno. */
static int job_reads(struct mdp_timed_reads *j)
{
	if ((j->fd = j->open(&j->root, j->sys)) < 0)
		return j->fd;
	for (size_t i = 0; i < MDP_IOSTAT_TIMED_READS; i++) {
		off_t at = (off_t)(next_rand(&j->seed) % j->blocks * MDP_IOSTAT_TIMED_BYTES);
		uint64_t t0 = mdp_mono_ns();
		ssize_t got = j->rd(j->fd, j->buf, MDP_IOSTAT_TIMED_BYTES, at);
		uint64_t us = (mdp_mono_ns() - t0) / 1000;

		if (got != (ssize_t)MDP_IOSTAT_TIMED_BYTES)
			return got < 0 ? -errno : -EIO;
		pthread_mutex_lock(&j->mu);
		j->t[i] = us ? us : 1;
		pthread_mutex_unlock(&j->mu);
	}
	return 0;
}

static void *job_run(void *arg)
{
	struct mdp_timed_reads *j = arg;
	int err = job_reads(j);

	pthread_mutex_lock(&j->mu);
	j->err = err;
	j->done = true;
	pthread_cond_signal(&j->cv);
	pthread_mutex_unlock(&j->mu);
	job_put(j);
	return NULL;
}

/*
 * The job's copy of r: its prefix and ops, its descriptor duplicated (the
 * open acts on the root's own tree alone: no layer). 0 or -errno.
 */
static int job_root(struct mdp_timed_reads *j, const struct mdp_root *r)
{
	j->root = *r;
	j->root.fallback = NULL;
	j->root.tap = NULL;
	if (r->fd >= 0 && (j->root.fd = fcntl(r->fd, F_DUPFD_CLOEXEC, 0)) < 0)
		return -errno;
	return 0;
}

static struct mdp_timed_reads *job_new(const struct mdp_root *r, const char *name, uint64_t blocks,
				       uint64_t seed)
{
	struct mdp_timed_reads *j = calloc(1, sizeof(*j));

	if (!j)
		return NULL;
	j->fd = -1;
	j->root.fd = -1;
	if (posix_memalign(&j->buf, MDP_IOSTAT_TIMED_BYTES, MDP_IOSTAT_TIMED_BYTES) ||
	    job_root(j, r)) {
		free(j->buf);
		free(j);
		return NULL;
	}
	pthread_mutex_init(&j->mu, NULL);
	{
		/* waited on by CLOCK_MONOTONIC, as every wait (clock.h): a wall clock set back
		 * must not stretch it */
		pthread_condattr_t ca;
		pthread_condattr_init(&ca);
		pthread_condattr_setclock(&ca, CLOCK_MONOTONIC);
		pthread_cond_init(&j->cv, &ca);
		pthread_condattr_destroy(&ca);
	}
	j->refs = 2; /* the thread's and the caller's */
	snprintf(j->sys, sizeof(j->sys), "/dev/%s", name);
	j->blocks = blocks;
	j->seed = seed;
	return j;
}

/* Wait for j until deadline_ms have passed since start_ns; true when it is done. */
static bool job_wait(struct mdp_timed_reads *j, uint64_t start_ns, unsigned deadline_ms)
{
	bool done;

	pthread_mutex_lock(&j->mu);
	while (!j->done) {
		uint64_t now = mdp_mono_ns(), end = start_ns + (uint64_t)deadline_ms * 1000000u;
		struct timespec ts;
		if (now >= end)
			break;
		ts.tv_sec = (time_t)(end / 1000000000u);
		ts.tv_nsec = (long)(end % 1000000000u);
		pthread_cond_timedwait(&j->cv, &j->mu, &ts);
	}
	done = j->done;
	pthread_mutex_unlock(&j->mu);
	return done;
}

void mdp_iostat_timed_release(struct mdp_timed_reads **held)
{
	if (*held)
		job_put(*held);
	*held = NULL;
}

/* Run j on its thread until the deadline; its reads, shortest first, in us. */
static int job_go(struct mdp_timed_reads *j, unsigned deadline_ms, struct mdp_timed_reads **held,
		  uint64_t *us)
{
	uint64_t t[MDP_IOSTAT_TIMED_READS], start = mdp_mono_ns(), waited;
	pthread_t th;
	bool done;
	int err;

	if ((err = -pthread_create(&th, NULL, job_run, j))) {
		j->refs = 1;
		job_put(j);
		return err;
	}
	pthread_detach(th);
	done = job_wait(j, start, deadline_ms);
	waited = (mdp_mono_ns() - start) / 1000;
	pthread_mutex_lock(&j->mu);
	err = done ? j->err : 0;
	for (size_t i = 0; i < MDP_IOSTAT_TIMED_READS; i++)
		t[i] = j->t[i] ? j->t[i] : waited; /* not done by the deadline: at least that */
	pthread_mutex_unlock(&j->mu);
	if (done)
		job_put(j);
	else
		*held = j;
	if (err)
		return err;
	qsort(t, MDP_IOSTAT_TIMED_READS, sizeof(t[0]), cmp_u64);
	memcpy(us, t, sizeof(t));
	return 0;
}

int mdp_iostat_timed_reads(const struct mdp_root *r, const char *name, uint64_t size_kib,
			   uint64_t *seed, unsigned deadline_ms, mdp_timed_open_fn *open,
			   mdp_timed_read_fn *rd, struct mdp_timed_reads **held,
			   uint64_t us[MDP_IOSTAT_TIMED_READS])
{
	uint64_t blocks = size_kib / (MDP_IOSTAT_TIMED_BYTES / 1024);
	struct mdp_timed_reads *j;

	if (*held) {
		bool done;
		pthread_mutex_lock(&(*held)->mu);
		done = (*held)->done;
		pthread_mutex_unlock(&(*held)->mu);
		if (!done)
			return -EBUSY; /* the last one still waits */
		mdp_iostat_timed_release(held);
	}
	if (!blocks)
		return -EINVAL;
	if (!(j = job_new(r, name, blocks, next_rand(seed))))
		return -ENOMEM;
	j->open = open ? open : open_dev;
	j->rd = rd ? rd : pread;
	return job_go(j, deadline_ms, held, us);
}

void mdp_iostat_window_add(struct mdp_io_window *w, uint64_t us)
{
	w->us[w->next] = us;
	w->next = (w->next + 1) % MDP_IOSTAT_WINDOW;
	if (w->n < MDP_IOSTAT_WINDOW)
		w->n++;
}

uint64_t mdp_iostat_window_pct(const struct mdp_io_window *w, unsigned pct)
{
	uint64_t t[MDP_IOSTAT_WINDOW];
	size_t rank;

	if (!w->n)
		return 0;
	memcpy(t, w->us, w->n * sizeof(t[0])); /* the first n slots hold them, full or not */
	qsort(t, w->n, sizeof(t[0]), cmp_u64);
	rank = ((size_t)w->n * (pct > 100 ? 100 : pct) + 99) / 100; /* ceil(n * pct / 100) */
	return t[rank ? rank - 1 : 0];
}
