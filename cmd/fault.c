/*
 * fault: the test seam of the real binary.
 *
 * MDPROFILE_FAULT=KIND:K makes the K-th (1-based) operation of a kind
 * misbehave, so end-to-end tests can prove the transaction invariants on
 * the binary users run:
 *   write:K             the K-th system write fails with EIO
 *   clamp:K             the K-th system write stores half the value, as a
 *                       kernel short of memory does with stripe_cache_size
 *   crash-after-write:K SIGKILL right after the K-th system write
 *   crash-after-service:K SIGKILL right after the K-th service pause/resume
 *   fsync:K, rename:K   the K-th journal fsync/rename fails with EIO
 * Unset, the default ops are used untouched.
 */
#include <errno.h>
#include <inttypes.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "fault.h"

static struct fault *fault_of(const struct mdp_root *r)
{
	return r->ctx;
}

static bool hit(struct fault *f, enum fault_kind kind, unsigned *count)
{
	return f->kind == kind && ++*count == f->k;
}

static int fault_write(const struct mdp_root *r, const char *path, const char *data, size_t len)
{
	struct fault *f = fault_of(r);
	unsigned n = ++f->writes;
	char half[32];
	int err;

	if (f->kind == FAULT_WRITE && n == f->k)
		return -EIO;
	if (f->kind == FAULT_CLAMP && n == f->k) {
		uint64_t v = strtoull(data, NULL, 10);
		snprintf(half, sizeof(half), "%" PRIu64 "\n", v / 2);
		return mdp_root_default_ops.write(r, path, half, strlen(half));
	}
	err = mdp_root_default_ops.write(r, path, data, len);
	if (f->kind == FAULT_CRASH && n == f->k)
		kill(getpid(), SIGKILL);
	return err;
}

static int fault_fsync(const struct mdp_root *r, int fd)
{
	struct fault *f = fault_of(r);

	if (hit(f, FAULT_FSYNC, &f->fsyncs))
		return -EIO;
	return mdp_root_default_ops.fsync(r, fd);
}

static int fault_rename(const struct mdp_root *r, const char *from, const char *to)
{
	struct fault *f = fault_of(r);

	if (hit(f, FAULT_RENAME, &f->renames))
		return -EIO;
	return mdp_root_default_ops.rename(r, from, to);
}

static const struct mdp_root_ops fault_ops = {
    .write = fault_write,
    .fsync = fault_fsync,
    .rename = fault_rename,
};

static const struct {
	const char *name;
	enum fault_kind kind;
} kinds[] = {
    {"write", FAULT_WRITE},
    {"clamp", FAULT_CLAMP},
    {"crash-after-write", FAULT_CRASH},
    {"crash-after-service", FAULT_CRASH_SVC},
    {"fsync", FAULT_FSYNC},
    {"rename", FAULT_RENAME},
};

static void svc_counted(const struct mdp_svc_backend *b)
{
	struct fault *f = b->ctx;

	if (++f->svc_calls == f->k)
		kill(getpid(), SIGKILL);
}

static int fault_pause(const struct mdp_svc_backend *b, const char *svc, struct mdp_diags *d)
{
	struct fault *f = b->ctx;
	int err = f->svc_real->pause(b, svc, d);

	svc_counted(b);
	return err;
}

static int fault_resume(const struct mdp_svc_backend *b, const char *svc, struct mdp_diags *d)
{
	struct fault *f = b->ctx;
	int err = f->svc_real->resume(b, svc, d);

	svc_counted(b);
	return err;
}

void fault_wrap_services(struct fault *f, struct mdp_svc_backend *b)
{
	if (f->kind != FAULT_CRASH_SVC || !b->ops)
		return;
	f->svc_real = b->ops;
	f->svc_ops = *b->ops;
	f->svc_ops.pause = fault_pause;
	f->svc_ops.resume = fault_resume;
	b->ops = &f->svc_ops;
	b->ctx = f;
}

int fault_setup(struct mdp_root *r, struct fault *f, const char *spec)
{
	const char *colon;
	char *end;

	memset(f, 0, sizeof(*f));
	if (!spec || !*spec)
		return 0;
	if (!(colon = strchr(spec, ':')))
		return -EINVAL;
	for (size_t i = 0; i < sizeof(kinds) / sizeof(kinds[0]); i++)
		if (strlen(kinds[i].name) == (size_t)(colon - spec) &&
		    !strncmp(spec, kinds[i].name, (size_t)(colon - spec)))
			f->kind = kinds[i].kind;
	f->k = (unsigned)strtoul(colon + 1, &end, 10);
	if (f->kind == FAULT_NONE || *end || f->k == 0)
		return -EINVAL;
	r->ops = &fault_ops;
	r->ctx = f;
	return 0;
}
