/*
 * boot: what boot persistence assumes about DSM, the targets, and the
 * record of what enable installed (boot.h). The script itself is
 * boot_script.c, the systemd units and udev rules boot_units.c, writing
 * and removing the files boot_install.c; what they share is boot_int.h.
 */
#include "boot.h"

#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "boot_int.h"
#include "mdp_base.h"

/*
 * DSM, as boot persistence assumes it. Only what the sources below show;
 * nothing here was run on a DiskStation from this project.
 *
 * From Synology's Task Scheduler help ("Create a triggered task": Control
 * Panel > Task Scheduler > Create > Triggered Task > User-defined script;
 * event Boot-up; the task runs as the user chosen, here root), and public
 * reports and scripts of DSM 6 and 7 owners:
 * - a task's script runs with neither /usr/syno/bin nor /usr/syno/sbin on
 *   PATH, no HOME, and stdin not a tty; when it ends its process group is
 *   killed, so what must outlive it (the watcher) is started with setsid;
 * - a non-zero exit is reported as a failed task and can mail the owner;
 * - /etc/rc.local is ignored since DSM 6.1, /usr/local/etc/rc.d/NAME.sh
 *   is run with start at boot and stop at shutdown on DSM 6 (DSM 7:
 *   unconfirmed);
 * - DSM updates wipe /opt and /root, not the volumes: a root-owned 0755
 *   directory on a volume keeps the binary (shared folders carry ACLs and
 *   may look group/world-writable, which the profile check refuses).
 *
 * From a public extracted DSM 6.2.3-25426 root file system (the GitHub
 * repository tbc0309/DSM_DS120j_25426), its files read and its own
 * aarch64 esynoscheduler run under qemu-user in a chroot of it; DSM 7 is
 * inferred from one public script that uses the same verbs:
 * - /usr/syno/sbin/esynoscheduler creates event-triggered tasks. Its exit
 *   code is 0 whether the call worked or not (a crash gives 139); all of
 *   its output goes to stdout, each message prefixed "(PID) file.cpp:LINE";
 *   success is read from the text only. `--create task_name=N event=bootup
 *   enable=true owner='{"0":"root"}' operation_type=script operation='CMD'
 *   description=TEXT` prints "save ok, jOut={" and the task as JSON.
 *   Parameters left out get defaults without a word (a disabled task of
 *   {"1024":"admin"} running "date; echo 20"), so every one is passed;
 *   only the literal enable=true enables. A '%' anywhere in a value saves
 *   nothing and "%s" or "%d" crash it: none is ever passed. A second
 *   --create of a name fails ("UNIQUE constraint failed: task.task_name")
 *   and keeps the old row; --set says "save ok" even for a task that does
 *   not exist: a task is replaced by --delete then --create. `--get
 *   task_name=N` prints "jOut={...}", or "jOut=null" for none; --delete
 *   prints "delete rec number=1" (0 for none) then "delete task ok".
 * - At boot the upstart job esynoscheduler-bootup runs `esynoscheduler
 *   --fireEvent event=bootup` after md assembly and volume mount (DSM 7:
 *   at the same time as packages start, not after them). It writes each
 *   enabled task's operation to /tmp/esynoscheduler.script.PID, one path
 *   for every task of the event, and runs them with /bin/sh in parallel,
 *   waiting for all; a second quick boot-up task failed 18 runs of 20
 *   ("No such file or directory"): mdprofile's boot is one task. A task
 *   inherits the caller's environment, directory and stdin (init's), so
 *   the script sets its own PATH, locale and directory.
 * - Its sqlite database is never written directly (a public project that
 *   does so has a typo that fails silently).
 * - /bin/sh and /bin/ash are bash (4.3); there is no busybox; logger,
 *   flock, timeout, setsid and udevadm are in /bin, mdadm in /sbin.
 * - syslog-ng sends only warning and above to /var/log/messages
 *   (patterndb.d/message.conf): what the owner must find there is logged
 *   with logger -p user.warning.
 * - `synologset1 sys|man|conn info|warn|err EVENTID [STRINGS...]` (its
 *   usage); event 0x11100000's text is "@1." (usr/syno/synosdk/texts/enu/
 *   events): STRING then a period. Run under qemu-user in a chroot of the
 *   image, `synologset1 sys warn 0x11100000 "TEXT"` sent syslog-ng's
 *   /var/run/syslog "<12>TIME System SYSTEM:<tab>TEXT." (user.warning, the
 *   level DSM's syslog keeps; a '%' or "%s" in TEXT went as it is), and
 *   exited 0 with nothing printed also when nothing listened there: its
 *   success cannot be read. It is also used so on DSM 6.2.4 and 7.1.1
 *   (007revad/Synology_Plex_Backup). The watcher's engage, release and
 *   give-up go to Log Center so.
 * - `synodsmnotify [-c CLASS] [-t TAG] [-e true/false] [-b true/false]
 *   [-m MAIL] [--fn FN] USER|@GROUP TITLE MSG...` shows a notification in
 *   DSM's interface; DSM's own rc.subr sends `synodsmnotify @administrators
 *   dsmnotify:system_event "TEXT"`. Run the same way: fewer than three
 *   arguments print its usage (after a copyright line) and exit 1; a group
 *   it cannot read exits 0 all the same (the error goes to syslog only);
 *   '%' in MSG is taken as it is. DSM 7 rejects a literal TITLE ("is neither
 *   mail string key nor i18n format", 007revad/Synology_Plex_Backup), so
 *   TITLE is that i18n key, which DSM 7 takes too [I]; the exit code of
 *   that rejection is not known (the fake's 1 is its own). The watcher
 *   sends one when it removes its profile after operations it sped up
 *   ended.
 * - The zone set in Control Panel > Regional Options is the C library's
 *   /etc/localtime: the image ships /etc.defaults/localtime, a TZif file
 *   (US Pacific), beside /etc.defaults/TZ ("PST8PDT,M3.2.0,M11.1.0"), and
 *   synologset1 reads /etc/localtime for its entries' time; `date` in an
 *   SSH session shows DSM's local time with no TZ set
 *   (openhab/openhab-syno-spk#5). mdprofile's times (status, the watcher's
 *   log, the keeper's lines) are local with their offset, read from it
 *   (mdp_root_zone).
 * - DSM writes dev.raid.speed_limit_min/max at every boot (rc.subr
 *   SYNOStartVolume, then spacetool), before boot-up tasks run; the
 *   re-check catches a later write.
 * tests/fakes/esynoscheduler, synologset1 and synodsmnotify behave as listed
 * here; tests/cli/cases/
 * 5x-boot-*.sh run the scripts as such a task would (env -i, cwd /).
 */
const struct mdp_boot_dsm mdp_boot_dsm = {
    .path = "/usr/syno/sbin:/usr/syno/bin:/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:"
	    "/sbin:/bin",
    .rcd_dir = "/usr/local/etc/rc.d",
    .home_dir = "/volume1/@mdprofile",
    .task_steps = "Control Panel > Task Scheduler > Create > Triggered Task > User-defined "
		  "script\n"
		  "General: Task: mdprofile, User: root, Event: Boot-up, Enabled\n"
		  "Task Settings: Run command: bash ",
    .scheduler = "esynoscheduler", /* in /usr/syno/sbin, found by exec.h's search */
    .task_name = "mdprofile",
    .task_owner = "{\"0\":\"root\"}",
    .task_shell = "/bin/bash",
    .log_priority = "user.warning",
    .logset = "synologset1",
    .logset_args = {"sys", "warn", "0x11100000"},
    .notify = "synodsmnotify",
    .notify_args = {"@administrators", "dsmnotify:system_event"},
};

static const char *const target_names[MDP_BOOT_COUNT] = {"dsm", "rc.d", "systemd"};

const char *mdp_boot_target_name(enum mdp_boot_target t)
{
	return (unsigned)t < MDP_BOOT_COUNT ? target_names[t] : NULL;
}

int mdp_boot_target_parse(const char *s, enum mdp_boot_target *t)
{
	for (int i = 0; i < MDP_BOOT_COUNT; i++)
		if (!strcmp(s, target_names[i])) {
			*t = (enum mdp_boot_target)i;
			return 0;
		}
	return -EINVAL;
}

enum mdp_boot_target mdp_boot_target_detect(const struct mdp_root *r)
{
	if (mdp_root_exists(r, "/etc.defaults/VERSION"))
		return MDP_BOOT_DSM;
	return mdp_root_is_dir(r, "/run/systemd/system") ? MDP_BOOT_SYSTEMD : MDP_BOOT_RCD;
}

/* ---- what enable installed -------------------------------------------------------------- */

#define RECORD_HEAD "# mdprofile enable: what is enabled; mdprofile disable removes it\n"

static int record_set(struct mdp_boot_record *rec, const char *k, const char *v)
{
	if (!mdp_boot_code_safe(v))
		return -EINVAL;
	if (!strcmp(k, "profile") && mdp_ident_profile_name_ok(v))
		snprintf(rec->profile, sizeof(rec->profile), "%s", v);
	else if (!strcmp(k, "auto"))
		snprintf(rec->auto_profile, sizeof(rec->auto_profile), "%s", v);
	else if (!strcmp(k, "binary") && v[0] == '/')
		snprintf(rec->binary, sizeof(rec->binary), "%s", v);
	else if (!strcmp(k, "target"))
		return mdp_boot_target_parse(v, &rec->target);
	else if (!strcmp(k, "task") && (!strcmp(v, "created") || !strcmp(v, "no")))
		rec->task = !strcmp(v, "created");
	else if (!strcmp(k, "units") && (!strcmp(v, "enabled") || !strcmp(v, "no")))
		rec->units = !strcmp(v, "enabled");
	else if (!strcmp(k, "unit_files") && !strcmp(v, "packaged"))
		rec->packaged = true;
	else
		return -EINVAL;
	return 0;
}

int mdp_boot_record_read(const struct mdp_root *r, struct mdp_boot_record *rec, struct mdp_diags *d)
{
	char *text, *line, *save = NULL, *eq;
	size_t len;
	int err;

	memset(rec, 0, sizeof(*rec));
	if ((err = mdp_root_read_all(r, MDP_BOOT_RECORD, &text, &len))) {
		if (err != -ENOENT)
			mdp_diags_add(d, NULL, 0, 0, "cannot read %s: %s", MDP_BOOT_RECORD,
				      mdp_root_strerror(-err));
		return err;
	}
	err = strncmp(text, RECORD_HEAD, strlen(RECORD_HEAD)) ? -EINVAL : 0;
	for (line = strtok_r(text, "\n", &save); line && !err; line = strtok_r(NULL, "\n", &save))
		if (line[0] != '#' && !(eq = strchr(line, '=')))
			err = -EINVAL;
		else if (line[0] != '#') {
			*eq = '\0';
			err = record_set(rec, line, eq + 1);
		}
	free(text);
	if (!err && (!rec->profile[0] || !rec->binary[0]))
		err = -EINVAL;
	if (err)
		mdp_diags_add(d, NULL, 0, 0,
			      "%s: not what mdprofile enable writes; remove it by hand",
			      MDP_BOOT_RECORD);
	return err ? -EINVAL : 0;
}

int mdp_boot_record_write(const struct mdp_root *r, const struct mdp_boot_record *rec,
			  struct mdp_diags *d)
{
	char text[3 * PATH_MAX];
	int n, err;

	n = snprintf(text, sizeof(text),
		     RECORD_HEAD "profile=%s\nauto=%s\ntarget=%s\nbinary=%s\ntask=%s\nunits=%s\n%s",
		     rec->profile, rec->auto_profile, mdp_boot_target_name(rec->target),
		     rec->binary, rec->task ? "created" : "no", rec->units ? "enabled" : "no",
		     rec->packaged ? "unit_files=packaged\n" : "");
	if (n < 0 || (size_t)n >= sizeof(text))
		err = -ENAMETOOLONG;
	else if (!(err = mdp_root_mkdir_p(r, "/etc/mdprofile", 0755)))
		err = mdp_root_replace(r, MDP_BOOT_RECORD, text, (size_t)n, 0644);
	if (err)
		mdp_diags_add(d, NULL, 0, 0, "cannot write %s: %s", MDP_BOOT_RECORD,
			      mdp_root_strerror(-err));
	return err;
}

void mdp_boot_record_opts(const struct mdp_boot_record *rec, struct mdp_boot_opts *o)
{
	o->enable = true;
	o->target = rec->target;
	o->binary = rec->binary;
	o->auto_profile = rec->auto_profile[0] ? rec->auto_profile : NULL;
	o->packaged = rec->packaged && rec->target == MDP_BOOT_SYSTEMD;
}
