/*
 * dsm_tell: a line for DSM's owner, in Log Center and as a DSM notification,
 * with DSM's own tools (the facts in boot.c, struct mdp_boot_dsm).
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "boot.h"
#include "mdp_base.h"

int mdp_boot_dsm_tell(const struct mdp_root *r, const char *text, bool notify, char *why,
		      size_t cap, struct mdp_diags *d)
{
	const struct mdp_boot_dsm *f = &mdp_boot_dsm;
	const char *log[] = {
	    f->logset, f->logset_args[0], f->logset_args[1], f->logset_args[2], text, NULL};
	const char *note[] = {f->notify, f->notify_args[0], f->notify_args[1], text, NULL};
	struct mdp_exec_result res;
	int err;

	why[0] = '\0';
	/* it exits 0 and says nothing whether or not the entry was taken: nothing to check */
	err = mdp_exec_run(r, log, MDP_BOOT_TELL_MS, &res, d);
	if (err == -ENOENT || !notify)
		return err == -ENOENT ? err : 0;
	if ((err = mdp_exec_run(r, note, MDP_BOOT_TELL_MS, &res, d)))
		return err;
	if (res.exit_code == 0)
		return 0;
	mdp_exec_first_line(&res, why, cap);
	return -EIO;
}
