/*
 * discover_enum: which md arrays there are, sorted by number: libudev's
 * view on the real root (not in the static build, MDP_NO_UDEV), a walk of
 * /sys/block otherwise. Reading md/level (read_array in discover.c) then
 * settles which are arrays.
 */
#include "discover_int.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#ifndef MDP_NO_UDEV
#include <libudev.h>
#endif

/*
 * A candidate array: an mdN-like name. Whether it is a running array is
 * settled by reading md/level (read_array, discover.c): a partition such
 * as md0p1 or a device without md/ has none, while an unreadable md/ is an
 * error.
 */
bool mdp_dw_is_md_name(const char *name)
{
	return !strncmp(name, "md", 2) && mdp_ident_dev_ok(name);
}

/* The /sys/block listing, read once: the sysfs walk and find_disk (discover_member.c) use it. */
int mdp_dw_list_blk(struct mdp_dwalk *w)
{
	int err;

	if (w->blk_loaded)
		return 0;
	err = mdp_root_list(w->r, SYS_BLOCK, &w->blk, &w->n_blk);
	if (err == -ENOENT && (w->skip & MDP_SKIP_ABSENT_SYSFS)) {
		mdp_diags_add(w->d, NULL, 0, 0,
			      SYS_BLOCK " is not there: arrays as /proc/mdstat lists them");
		w->blk_loaded = true;
		return 0;
	}
	if (err) {
		mdp_diags_add(w->d, NULL, 0, 0, "cannot list " SYS_BLOCK ": %s",
			      mdp_root_strerror(-err));
		return err;
	}
	w->blk_loaded = true;
	return 0;
}

#ifndef MDP_NO_UDEV
/*
 * udev's view of block devices named md*: whole disks only (DEVTYPE), so
 * partitions of an array never show up as arrays.
 */
static int enum_udev(struct mdp_dwalk *w, struct mdp_dnames *out)
{
	struct udev_enumerate *e = udev_enumerate_new(w->udev);
	struct udev_list_entry *le;
	int err = -ENOMEM;

	if (!e)
		return err;
	if ((err = udev_enumerate_add_match_subsystem(e, "block")) ||
	    (err = udev_enumerate_add_match_sysname(e, "md*")) ||
	    (err = udev_enumerate_add_match_property(e, "DEVTYPE", "disk")) ||
	    (err = udev_enumerate_scan_devices(e)))
		goto out;
	udev_list_entry_foreach(le, udev_enumerate_get_list_entry(e))
	{
		const char *syspath = udev_list_entry_get_name(le);
		const char *base = syspath ? strrchr(syspath, '/') : NULL;
		if (base && mdp_dw_is_md_name(base + 1) && (err = mdp_dw_names_add(out, base + 1)))
			goto out;
	}
	err = 0;
out:
	udev_enumerate_unref(e);
	return err < 0 ? err : (err ? -EIO : 0);
}
#endif

static int enum_sysfs(struct mdp_dwalk *w, struct mdp_dnames *out)
{
	int err;

	if ((err = mdp_dw_list_blk(w)))
		return err;
	for (size_t i = 0; i < w->n_blk; i++) {
		if (mdp_dw_is_md_name(w->blk[i]) && (err = mdp_dw_names_add(out, w->blk[i])))
			return err;
	}
	return 0;
}

/* md2 < md10: by number when both are mdN, numbered ones first, else by name. */
static int cmp_md(const void *pa, const void *pb)
{
	const char *a = *(char *const *)pa, *b = *(char *const *)pb;
	uint64_t na, nb;
	bool numa = !mdp_num_parse(a + 2, 0, UINT32_MAX, &na);
	bool numb = !mdp_num_parse(b + 2, 0, UINT32_MAX, &nb);

	if (numa && numb)
		return na < nb ? -1 : na > nb;
	if (numa != numb)
		return numa ? -1 : 1;
	return strcmp(a, b);
}

int mdp_dw_enumerate(struct mdp_dwalk *w, struct mdp_dnames *out)
{
	int err;

#ifndef MDP_NO_UDEV
	if (w->udev) {
		if ((err = enum_udev(w, out)))
			mdp_diags_add(w->d, NULL, 0, 0, "cannot enumerate md arrays: %s",
				      strerror(-err));
	} else
#endif
		err = enum_sysfs(w, out);
	if (err)
		return err;
	if (out->n)
		qsort(out->v, out->n, sizeof(*out->v), cmp_md);
	return 0;
}
