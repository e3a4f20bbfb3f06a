/*
 * discover_dsm: what discovery makes of DSM, from the facts in discover.h
 * (the one place for them): md0/md1's empty bays, a failed disk they hide,
 * and the resync speed setting of raid_setting.conf.
 */
#include "discover_int.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

const struct mdp_discover_dsm mdp_discover_dsm = {
    .version_file = "/etc.defaults/VERSION",
    .system_arrays = {"md0", "md1"},
    .system_level = "raid1",
    .system_super = "0.90",
    .raid_setting = "/usr/syno/etc/raid_setting.conf",
    .speed_section = "ResyncSpeed",
    .presets = {{"resync_slower", 10000, 600000}, {"resync_faster", 300000, 600000}},
    .words = {{"recover", "Repairing"},
	      {"reshape", "Expanding"},
	      {"resync", "Re-synchronizing"},
	      {"repair", "Data scrubbing"}},
};

const char *mdp_dsm_op_word(const char *action)
{
	for (size_t i = 0; i < sizeof(mdp_discover_dsm.words) / sizeof(mdp_discover_dsm.words[0]);
	     i++)
		if (!strcmp(action, mdp_discover_dsm.words[i].action))
			return mdp_discover_dsm.words[i].word;
	return NULL;
}

/* ---- system arrays ------------------------------------------------------- */

/*
 * DSM's md0/md1 with empty bays (the DSM facts in discover.h): their '_'
 * slots that no failed or rebuilding member explains are empty bays, not
 * missing disks. missing is what md says is missing (-1 unknown).
 */
void mdp_dw_dsm_empty_bays(bool dsm, struct mdp_array *a, const char *super, int missing)
{
	const struct mdp_discover_dsm *f = &mdp_discover_dsm;
	int held = 0;

	if (!dsm || missing <= 0 || strcmp(a->level_name, f->system_level) ||
	    strcmp(super, f->system_super) ||
	    (strcmp(a->name, f->system_arrays[0]) && strcmp(a->name, f->system_arrays[1])))
		return;
	/* a faulty or rebuilding member holds one of the '_' slots; (E) keeps its 'U' */
	for (size_t i = 0; i < a->n_members; i++)
		held += (a->members[i].mstate == MDP_M_FAILED && !a->members[i].disk_errors) ||
			a->members[i].mstate == MDP_M_REBUILDING;
	if (held >= missing)
		return;
	a->empty_bays = missing - held;
	a->degraded = held;
}

static bool is_system_array(const struct mdp_array *a)
{
	return !strcmp(a->name, mdp_discover_dsm.system_arrays[0]) ||
	       !strcmp(a->name, mdp_discover_dsm.system_arrays[1]);
}

static bool has_disk(const struct mdp_array *a, const char *disk)
{
	for (size_t i = 0; i < a->n_members; i++)
		if (!strcmp(a->members[i].disk, disk))
			return true;
	return false;
}

/*
 * An empty bay leaves md0/md1's slot empty and no data array misses a disk;
 * a disk that failed leaves its slot empty there and in the data arrays it
 * held. So a data array missing k members, when fewer than k of md0's (or
 * md1's) disks are not among its own, misses a disk md0 lacks as well: that
 * many of md0's "empty bays" are a failed disk, and md0 is degraded.
 */
void mdp_dw_dsm_failed_disks(struct mdp_system *s)
{
	for (size_t i = 0; s->dsm && i < s->n_arrays; i++) {
		struct mdp_array *sys = &s->arrays[i];
		int failed = 0;
		if (!sys->empty_bays || !is_system_array(sys))
			continue;
		for (size_t k = 0; k < s->n_arrays; k++) {
			const struct mdp_array *a = &s->arrays[k];
			int elsewhere = 0;
			if (is_system_array(a) || a->degraded <= 0)
				continue;
			for (size_t m = 0; m < sys->n_members; m++)
				elsewhere += !has_disk(a, sys->members[m].disk);
			if (a->degraded - elsewhere > failed)
				failed = a->degraded - elsewhere;
		}
		if (failed > sys->empty_bays)
			failed = sys->empty_bays;
		sys->empty_bays -= failed;
		sys->degraded += failed;
	}
}

/* DSM's md0/md1: their superblock version, and what md says is missing. */
void mdp_dw_dsm_rule(struct mdp_dwalk *w, struct mdp_array *a)
{
	const struct mdp_mdstat_array *ms = mdp_mdstat_find(&w->mdstat, a->name);
	char meta[32];
	int missing = a->degraded;

	if (mdp_dw_read_attr(w, a->name, "md/metadata_version", meta, sizeof(meta)) < 0)
		meta[0] = '\0';
	if (missing < 0 && ms && ms->raid_disks)
		missing = ms->raid_disks - ms->working;
	mdp_dw_dsm_empty_bays(true, a, meta, missing);
}

/* ---- the resync speed setting -------------------------------------------- */

/*
 * DSM's [ResyncSpeed] section of raid_setting.conf: key=value lines, the
 * value perhaps in double quotes. A missing file or section is no setting.
 */
static void dsm_speed_line(const char *line, struct mdp_dsm_speed *sp, uint64_t *mn, uint64_t *mx,
			   int *have)
{
	char key[32], val[32];
	const char *eq = strchr(line, '=');
	size_t kl, vl;

	if (!eq || (kl = strcspn(line, " \t=")) >= sizeof(key))
		return;
	memcpy(key, line, kl);
	key[kl] = '\0';
	eq += 1 + strspn(eq + 1, " \t\"");
	if ((vl = strcspn(eq, "\" \t\r\n")) >= sizeof(val))
		return;
	memcpy(val, eq, vl);
	val[vl] = '\0';
	if (!strcmp(key, "resync_speed_option"))
		mdp_dw_copy_str(sp->option, sizeof(sp->option), val);
	else if (!strcmp(key, "min_resync_speed") && !mdp_num_parse(val, 0, UINT32_MAX, mn))
		*have |= 1;
	else if (!strcmp(key, "max_resync_speed") && !mdp_num_parse(val, 0, UINT32_MAX, mx))
		*have |= 2;
}

void mdp_dw_read_dsm_speed(struct mdp_dwalk *w, struct mdp_dsm_speed *sp)
{
	const struct mdp_discover_dsm *f = &mdp_discover_dsm;
	char *text, *save = NULL, sect[40];
	uint64_t mn = 0, mx = 0;
	int have = 0;
	bool in = false;

	if (mdp_root_read_all(w->r, f->raid_setting, &text, NULL))
		return;
	snprintf(sect, sizeof(sect), "[%s]", f->speed_section);
	for (char *l = strtok_r(text, "\n", &save); l; l = strtok_r(NULL, "\n", &save)) {
		l += strspn(l, " \t");
		if (*l == '[') {
			in = !strncmp(l, sect, strlen(sect));
		} else if (in && *l && *l != '#' && *l != ';') {
			sp->present = true;
			dsm_speed_line(l, sp, &mn, &mx, &have);
		}
	}
	free(text);
	for (size_t i = 0; i < 2 && sp->present; i++) {
		if (!strcmp(sp->option, f->presets[i].option)) {
			sp->known = true;
			sp->min = f->presets[i].min;
			sp->max = f->presets[i].max;
		}
	}
	if (sp->present && !sp->known && !strcmp(sp->option, "resync_manual") && have == 3) {
		sp->known = true;
		sp->min = mn;
		sp->max = mx;
	}
}
