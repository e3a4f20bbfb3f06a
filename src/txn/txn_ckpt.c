/*
 * txn_ckpt: a check's place kept on disk by the array's UUID (issue 49), so that a check
 * paused or cut by a reboot or a crash resumes from it: md starts every check from 0 once
 * the array was stopped. The text is maint_ckpt.c's; this file keeps it under
 * MDP_MAINT_CKPT_DIR through root, with the journal's trust rules (the place steers what
 * mdprofile writes to md as root); mdp_txn_pause_kept journals a check cut at it as paused,
 * for the watcher to resume.
 */
#include "txn_int.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "mdp_base.h"

/* The directory, checked (when make, created first): 0, -ENOENT, -EPERM with why in d. */
static int ckpt_dir(const struct mdp_root *r, bool make, struct mdp_diags *d)
{
	int fd, err;

	if (make && (err = mdp_root_mkdir_p(r, MDP_MAINT_CKPT_DIR, 0700)))
		return err;
	if ((fd = mdp_root_open(r, MDP_MAINT_CKPT_DIR, O_PATH | O_DIRECTORY, 0)) < 0)
		return fd == -ENOTDIR ? -EPERM : fd;
	err = txn_trust_check(r, fd, MDP_MAINT_CKPT_DIR, true, "checkpoint directory", d);
	close(fd);
	return err;
}

static int ckpt_path(const char *uuid, char *buf, size_t len)
{
	char norm[33];

	if (mdp_ident_uuid_norm(uuid, norm))
		return -EINVAL;
	snprintf(buf, len, "%s/%s", MDP_MAINT_CKPT_DIR, norm);
	return 0;
}

int mdp_ckpt_save(const struct mdp_root *r, const struct mdp_mckpt *c, struct mdp_diags *d)
{
	char path[128], text[MDP_MAINT_CKPT_MAX];
	int err;

	if ((err = ckpt_path(c->uuid, path, sizeof(path))) ||
	    (err = mdp_mckpt_format(c, text, sizeof(text))) || (err = ckpt_dir(r, true, d)))
		return err;
	if ((err = mdp_root_replace(r, path, text, strlen(text), 0600)))
		mdp_diags_add(d, path, 0, 0, "cannot keep the check's place: %s",
			      mdp_root_strerror(-err));
	return err;
}

/* The file's text, read from the descriptor that was checked. */
static int ckpt_read(const struct mdp_root *r, const char *path, char **text, struct mdp_diags *d)
{
	size_t len;
	int fd, err;

	if ((err = ckpt_dir(r, false, d)))
		return err;
	if ((fd = mdp_root_open(r, path, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_NOCTTY, 0)) < 0)
		return fd == -ELOOP ? -EPERM : fd;
	if (!(err = txn_trust_check(r, fd, path, false, "checkpoint", d)))
		err = mdp_root_read_fd(fd, MDP_MAINT_CKPT_MAX, -EBADMSG, text, &len);
	close(fd);
	return err;
}

int mdp_ckpt_load(const struct mdp_root *r, const struct mdp_array *a, struct mdp_mckpt *c,
		  struct mdp_diags *d)
{
	char path[128], why[160], *text = NULL;
	int err;

	if ((err = ckpt_path(a->uuid, path, sizeof(path))))
		return -ENOENT; /* an array without a UUID has no place kept */
	if ((err = ckpt_read(r, path, &text, d))) {
		if (err == -EBADMSG)
			mdp_diags_add(d, path, 0, 0, "not a checkpoint mdprofile wrote: too long");
	} else if (mdp_mckpt_parse(text, c, why, sizeof(why))) {
		mdp_diags_add(d, path, 0, 0, "not a checkpoint mdprofile wrote: %s", why);
		err = -EBADMSG;
	} else if (mdp_mckpt_refused(c, a, why, sizeof(why))) {
		mdp_diags_add(d, path, 0, 0, "%s's check does not resume from this place: %s",
			      a->name, why);
		err = -ESTALE;
	}
	free(text);
	return err;
}

int mdp_ckpt_drop(const struct mdp_root *r, const char *uuid)
{
	char path[128];
	int err;

	if ((err = ckpt_path(uuid, path, sizeof(path))))
		return err;
	return (err = mdp_root_unlink(r, path)) == -ENOENT ? 0 : err;
}
