/*
 * fault: the MDPROFILE_FAULT test seam of the mdprofile binary.
 *
 * MDPROFILE_FAULT=KIND:K makes the K-th (1-based) operation of a kind
 * misbehave, so end-to-end tests (tests/cli, the VM lab) can prove the
 * transaction invariants on the binary itself:
 *   write:K             the K-th system write fails with EIO
 *   clamp:K             the K-th system write stores half the value, as a
 *                       kernel short of memory does with stripe_cache_size
 *   crash-after-write:K SIGKILL right after the K-th system write
 *   crash-after-service:K SIGKILL right after the K-th service pause/resume
 *   fsync:K, rename:K   the K-th journal fsync/rename fails with EIO
 *   minute:K            not a fault: auto --textfile's minute lasts K ms, so a
 *                       test runs a watcher's hour of writes in seconds
 *   now:K               not a fault: status counts a check's finish from the wall
 *                       clock at K seconds since the epoch, so a case's dates hold
 *
 * It lives under tests/ and is linked only into builds made with
 * -DMDP_FAULT_SEAM (see cmd/fault.h): a seam that kills its own process
 * has no place in the library or in the binary users run. The wrappers
 * sit on top of whatever ops the root and the service backend had (the
 * fixture's kernel imitation under --root, plain syscalls on "/") and
 * call them, so a fault changes one operation and nothing else.
 */
#include <errno.h>
#include <inttypes.h>
#include <signal.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "fault.h"

/* The struct fault around one of its ops tables (a struct fault is never a const object). */
static struct fault *fault_of(const struct mdp_root_ops *ops)
{
	return (struct fault *)(void *)((char *)(uintptr_t)ops - offsetof(struct fault, ops));
}

static struct fault *fault_of_svc(const struct mdp_svc_ops *ops)
{
	return (struct fault *)(void *)((char *)(uintptr_t)ops - offsetof(struct fault, svc_ops));
}

static bool hit(struct fault *f, enum fault_kind kind, unsigned *count)
{
	return f->kind == kind && ++*count == f->k;
}

static int fault_write(const struct mdp_root_ops *self, const struct mdp_root *r, const char *sys,
		       const char *data, size_t len)
{
	struct fault *f = fault_of(self);
	unsigned n = ++f->writes;
	char half[32];
	int err;

	if (f->kind == FAULT_WRITE && n == f->k)
		return -EIO;
	if (f->kind == FAULT_CLAMP && n == f->k) {
		uint64_t v = strtoull(data, NULL, 10);
		snprintf(half, sizeof(half), "%" PRIu64 "\n", v / 2);
		return f->inner->write(f->inner, r, sys, half, strlen(half));
	}
	err = f->inner->write(f->inner, r, sys, data, len);
	if (f->kind == FAULT_CRASH && n == f->k)
		kill(getpid(), SIGKILL);
	return err;
}

static int fault_fsync(const struct mdp_root_ops *self, const struct mdp_root *r, int fd)
{
	struct fault *f = fault_of(self);

	if (hit(f, FAULT_FSYNC, &f->fsyncs))
		return -EIO;
	return f->inner->fsync(f->inner, r, fd);
}

static int fault_rename(const struct mdp_root_ops *self, const struct mdp_root *r, const char *from,
			const char *to)
{
	struct fault *f = fault_of(self);

	if (hit(f, FAULT_RENAME, &f->renames))
		return -EIO;
	return f->inner->rename(f->inner, r, from, to);
}

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
    {"minute", FAULT_MINUTE},
    {"now", FAULT_NOW},
};

/* The pause/resume wrappers are the backend's ops, so b->ops leads back to f. */
static void svc_counted(struct fault *f)
{
	if (++f->svc_calls == f->k)
		kill(getpid(), SIGKILL);
}

static int fault_pause(const struct mdp_svc_backend *b, const char *svc, struct mdp_diags *d)
{
	struct fault *f = fault_of_svc(b->ops);
	int err = f->svc_inner->pause(b, svc, d);

	svc_counted(f);
	return err;
}

static int fault_resume(const struct mdp_svc_backend *b, const char *svc, struct mdp_diags *d)
{
	struct fault *f = fault_of_svc(b->ops);
	int err = f->svc_inner->resume(b, svc, d);

	svc_counted(f);
	return err;
}

void fault_wrap_services(struct fault *f, struct mdp_svc_backend *b)
{
	if (f->kind != FAULT_CRASH_SVC || !b->ops)
		return;
	f->svc_inner = b->ops;
	f->svc_ops = *b->ops;
	f->svc_ops.pause = fault_pause;
	f->svc_ops.resume = fault_resume;
	b->ops = &f->svc_ops;
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
	f->inner = r->ops;
	f->ops = (struct mdp_root_ops){fault_write, fault_fsync, fault_rename};
	r->ops = &f->ops;
	return 0;
}
