/*
 * boot: the boot script generator (boot.h).
 *
 * The script is POSIX sh (it runs under bash on DSM and under busybox ash
 * elsewhere) in three parts: a header of comments saying what it does and
 * how to remove it, the few values fixed at generation (binary, UUIDs,
 * waits) in single quotes, and a fixed body. The pinned profile sits in a
 * here-document with a quoted delimiter that no line of it equals, so its
 * text is never expanded. Every value that goes into the script outside
 * that here-document is checked first: code gets only a small safe set of
 * characters, comments no control characters.
 */
#include "boot.h"

#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "ident.h"
#include "pin.h"
#include "text.h"

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
 * - `synologset1 sys warn 0x11100000 "TEXT"` writes a Log Center entry
 *   (also used on DSM 6.2.4 and 7.1.1 by 007revad/Synology_Plex_Backup);
 *   it exits 0 and prints nothing whether or not the entry was taken.
 * - DSM writes dev.raid.speed_limit_min/max at every boot (rc.subr
 *   SYNOStartVolume, then spacetool), before boot-up tasks run; the
 *   re-check catches a later write.
 * tests/fakes/esynoscheduler behaves as listed here; tests/cli/cases/
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
    .logset_args = "sys warn 0x11100000",
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

/* ---- what may go into the script -------------------------------------------------- */

/* Characters a value in the script's code may hold: none is special to sh in quotes. */
static bool code_safe(const char *s)
{
	for (; *s; s++)
		if (!isalnum((unsigned char)*s) && !strchr("/._-+@:,=", *s))
			return false;
	return true;
}

/* Comments are inert to sh; what would be quoting or expansion in code is refused anyway. */
static bool comment_safe(const char *s)
{
	for (; *s; s++)
		if (iscntrl((unsigned char)*s) || strchr("'\"`$\\", *s))
			return false;
	return true;
}

static void refuse(struct mdp_diags *d, const char *what, const char *value, const char *rule)
{
	char shown[96];

	/* The value may hold the newline it is refused for: shown by the one rule (text.h). */
	mdp_diags_add(d, NULL, 0, 0, "cannot put %s '%s' into a boot script: %s", what,
		      mdp_text_safe(shown, sizeof(shown), value), rule);
}

static const char code_rule[] = "only letters, digits and / . _ - + @ : , = are allowed";
static const char comment_rule[] =
    "quotes, $, backticks, backslashes and control characters such as newlines are not allowed";

static void check_inputs(const struct mdp_profile *p, const struct mdp_system *s,
			 const struct mdp_boot_opts *o, struct mdp_diags *d)
{
	if (o->binary[0] != '/')
		mdp_diags_add(d, NULL, 0, 0,
			      "--binary '%s': the boot script needs an absolute path", o->binary);
	else if (!code_safe(o->binary))
		refuse(d, "the binary path", o->binary, code_rule);
	/* The script runs apply --name NAME: a name --name refuses fails at every boot. */
	if (!mdp_ident_profile_name_ok(p->name))
		refuse(d, "the profile name", p->name, MDP_IDENT_PROFILE_NAME_RULE);
	if (o->auto_profile && (!o->auto_profile[0] || !code_safe(o->auto_profile)))
		refuse(d, "the watcher's profile", o->auto_profile, code_rule);
	else if (o->auto_profile && !mdp_ident_profile_name_ok(o->auto_profile))
		refuse(d, "the watcher's profile name", o->auto_profile,
		       MDP_IDENT_PROFILE_NAME_RULE);
	if (!comment_safe(p->path))
		refuse(d, "the profile path", p->path, comment_rule);
	for (size_t i = 0; i < s->n_arrays; i++) {
		if (!code_safe(s->arrays[i].name))
			refuse(d, "the array name", s->arrays[i].name, code_rule);
		if (!code_safe(s->arrays[i].uuid))
			refuse(d, "the UUID", s->arrays[i].uuid, code_rule);
	}
	for (size_t i = 0; i < p->n_rules; i++)
		for (size_t k = 0; k < p->rules[i].match.n_uuids; k++)
			if (!code_safe(p->rules[i].match.uuids[k]))
				refuse(d, "the UUID", p->rules[i].match.uuids[k], code_rule);
}

/* ---- the script -------------------------------------------------------------------- */

/* Every UUID the rules match, once each, in rule order. */
static size_t rule_uuids(const struct mdp_profile *p, const char **v, size_t cap)
{
	size_t n = 0;

	for (size_t i = 0; i < p->n_rules; i++)
		for (size_t k = 0; k < p->rules[i].match.n_uuids; k++) {
			const char *u = p->rules[i].match.uuids[k];
			bool seen = false;
			for (size_t j = 0; j < n; j++)
				seen = seen || !strcmp(v[j], u);
			if (!seen && n < cap)
				v[n++] = u;
		}
	return n;
}

static const char *array_of(const struct mdp_system *s, const char *uuid)
{
	for (size_t i = 0; i < s->n_arrays; i++)
		if (!strcmp(s->arrays[i].uuid, uuid))
			return s->arrays[i].name;
	return NULL;
}

static bool has_line(const char *text, const char *line)
{
	size_t n = strlen(line);

	for (const char *l = text; l; l = strchr(l, '\n'), l = l ? l + 1 : NULL)
		if (!strncmp(l, line, n) && (l[n] == '\n' || !l[n]))
			return true;
	return false;
}

/* A here-document delimiter that no line of text equals. */
static void delimiter(const char *text, char *buf, size_t len)
{
	unsigned k = 0;

	snprintf(buf, len, "MDPROFILE_PINNED_PROFILE");
	while (has_line(text, buf))
		snprintf(buf, len, "MDPROFILE_PINNED_PROFILE_%u", ++k);
}

static void header(FILE *f, const struct mdp_profile *p, const struct mdp_system *s,
		   const struct mdp_boot_opts *o, const char **uuids, size_t n)
{
	char when[32] = "?";
	time_t t = (time_t)o->when;
	struct tm tm;

	if (gmtime_r(&t, &tm))
		strftime(when, sizeof(when), "%Y-%m-%dT%H:%M:%SZ", &tm);
	fprintf(f,
		"#!/bin/sh\n"
		"# mdprofile boot script (target %s): applies profile %s at every boot.\n#\n"
		"# profile:   %s, pinned below: extends flattened, array names replaced\n"
		"#            by the UUIDs they had when this was generated\n"
		"# from:      %s\n"
		"# generated: %s by mdprofile %s\n"
		"# binary:    %s\n",
		mdp_boot_target_name(o->target), p->name, p->name, p->path, when, o->version,
		o->binary);
	for (size_t i = 0; i < n; i++) {
		const char *a = array_of(s, uuids[i]);
		fprintf(f, "# %s %s (%s%s)\n", i ? "          " : "arrays:   ", uuids[i],
			a ? a : "not present", " when generated");
	}
	if (!n)
		fputs("# arrays:    none pinned (the rules match by level or all)\n", f);
	fprintf(f, "# services:  %s\n",
		p->n_services ? "paused while applying, as the profile says"
			      : "none paused (generate with --with-services to pause them)");
	if (o->auto_profile)
		fprintf(f, "# watcher:   mdprofile auto %s, started once the profile is applied\n",
			o->auto_profile);
	fputs("#\n", f);
}

static void header_what(FILE *f, const struct mdp_boot_opts *o)
{
	fprintf(f,
		"# At boot it waits up to %u s for these arrays to be assembled, applies the\n"
		"# profile with 'mdprofile apply -'",
		o->wait_arrays);
	if (o->recheck_after)
		fprintf(f,
			", waits %u s and runs 'mdprofile diff -':\n"
			"# values changed since (DSM sets speed_limit_min itself while it boots)\n"
			"# are applied once more",
			o->recheck_after);
	if (o->auto_profile && o->target != MDP_BOOT_SYSTEMD)
		fputs(", then starts the watcher\n# (mdprofile auto, under setsid: it outlives "
		      "this script)",
		      f);
	else if (o->auto_profile)
		fputs(";\n# mdprofile-auto.service starts the watcher (mdprofile auto) after it",
		      f);
	fputs(".\n# Every step goes to syslog (tag mdprofile) and to stdout. Exit code 0:\n"
	      "# everything was set; 1: a pinned array was not assembled in time (the\n"
	      "# rest was set); 2, 3, 4: those of 'mdprofile apply' (see mdprofile --help).\n#\n",
	      f);
}

static void header_remove(FILE *f, const struct mdp_profile *p, const struct mdp_boot_opts *o)
{
	const char *t = mdp_boot_target_name(o->target);

	if (o->enable) {
		fprintf(f,
			"# Install: mdprofile enable %s --target %s%s%s (%s).\n"
			"# Remove:  mdprofile disable: removes this file%s, stops the\n"
			"#   watcher and reverts.\n",
			p->name, t, o->auto_profile ? " --auto " : "",
			o->auto_profile ? o->auto_profile : "",
			o->target == MDP_BOOT_DSM
			    ? "the Task Scheduler boot-up task mdprofile runs it"
			: o->target == MDP_BOOT_RCD
			    ? "rc.d runs it with start at boot, stop at shutdown"
			    : "mdprofile.service runs it with start and stop",
			o->target == MDP_BOOT_DSM   ? " and the task"
			: o->target == MDP_BOOT_RCD ? ""
						    : " and the units");
		fputs("# Values set stay until the next reboot, 'mdprofile revert' or stop.\n\n",
		      f);
		return;
	}
	if (o->target == MDP_BOOT_DSM)
		fputs("# Install: Control Panel > Task Scheduler > Create > Triggered Task >\n"
		      "#   User-defined script, user root, event Boot-up, run command: bash FILE\n"
		      "#   (FILE: this script, kept on a volume so DSM updates keep it).\n"
		      "# Remove:  delete that task in Task Scheduler, then this file.\n",
		      f);
	else if (o->target == MDP_BOOT_RCD)
		fprintf(f,
			"# Install: as %s/mdprofile-%s.sh, mode 0755, owned by root\n"
			"#   (run with start at boot; stop does nothing; status runs diff).\n"
			"# Remove:  delete that file.\n",
			mdp_boot_dsm.rcd_dir, p->name);
	else
		fprintf(f,
			"# Install: mdprofile boot-script --install --target %s %s: this script\n"
			"#   run with start by mdprofile-%s.service, and a udev rule that runs it\n"
			"#   again once when a pinned array is assembled later (not on other\n"
			"#   change events: a revert lasts until the next boot or assembly).\n"
			"# Remove:  mdprofile boot-script --uninstall --target %s %s\n",
			t, p->name, p->name, t, p->name);
	fputs("# Values set stay until the next reboot or 'mdprofile revert'.\n\n", f);
}

/* enable --auto on DSM and rc.d: the script keeps the watcher itself (keep-auto). */
static bool keeps_auto(const struct mdp_boot_opts *o)
{
	return o->enable && o->auto_profile && o->target != MDP_BOOT_SYSTEMD;
}

static void settings(FILE *f, const struct mdp_profile *p, const struct mdp_boot_opts *o,
		     const char **uuids, size_t n, const char *self)
{
	fprintf(f,
		"PATH='%s'\nLC_ALL=C\nLANG=C\nexport PATH LC_ALL LANG\ncd / || exit 2\n\n"
		"mdp='%s'\nname='%s'\nwait_s=%u\nrecheck_s=%u\nuuids='",
		mdp_boot_dsm.path, o->binary, p->name, o->wait_arrays, o->recheck_after);
	for (size_t i = 0; i < n; i++)
		fprintf(f, "%s%s", i ? " " : "", uuids[i]);
	fputs("'\n", f);
	if (o->enable && o->auto_profile)
		fprintf(f, "auto='%s'\n", o->auto_profile);
	if (keeps_auto(o))
		fprintf(f,
			"auto_pid='" MDP_BOOT_AUTO_PID "'\nauto_lock='" MDP_BOOT_AUTO_LOCK
			"'\nauto_log='" MDP_BOOT_AUTO_LOG "'\nself='%s'\n",
			self);
	if (o->enable && o->auto_profile)
		fputs("# a test's fixture tree (mdprofile --root); empty on a box\n"
		      "root=${MDPROFILE_ROOT:-}\n",
		      f);
	fputs("\n", f);
}

static void profile_fn(FILE *f, const char *text)
{
	char delim[64];

	delimiter(text, delim, sizeof(delim));
	fprintf(f, "# The profile this script applies.\nprofile() {\n\tcat <<'%s'\n%s%s%s\n}\n\n",
		delim, text, text[0] && text[strlen(text) - 1] != '\n' ? "\n" : "", delim);
}

/*
 * enable --auto: the watcher, with the overlay pinned here on its stdin. It
 * replaces the shell that runs it: systemd's main process (mdprofile-auto
 * .service runs the script with auto), the keeper's child.
 */
static void auto_fn(FILE *f, const char *name, const char *text)
{
	char delim[64];

	delimiter(text, delim, sizeof(delim));
	fprintf(f,
		"# The watcher: mdprofile auto, with profile %s (pinned as the one above) on\n"
		"# its stdin, in place of this shell (under a test's fixture tree, the tree's\n"
		"# binary).\nexec_auto() {\n"
		"\texec \"$root$mdp\" auto --name \"$auto\" - <<'%s'\n%s%s%s\n}\n\n",
		name, delim, text, text[0] && text[strlen(text) - 1] != '\n' ? "\n" : "", delim);
}

/* The body: the same for every profile. */
static const char body[] =
    "log() {\n"
    "\tprintf '%s\\n' \"mdprofile: $*\"\n"
    "\tlogger -p user.warning -t mdprofile -- \"$*\" 2>/dev/null || :\n"
    "}\n\n"
    "# mdprofile CMD [OPTION...] - with the profile on stdin; logs what it says, returns its\n"
    "# exit code.\n"
    "run() {\n"
    "\tout=$(profile | \"$mdp\" \"$@\" --name \"$name\" - 2>&1)\n"
    "\trc=$?\n"
    "\tprintf '%s\\n' \"$out\" | while IFS= read -r line; do\n"
    "\t\t[ -z \"$line\" ] || log \"$line\"\n"
    "\tdone\n"
    "\treturn \"$rc\"\n"
    "}\n\n"
    "# The pinned arrays not assembled yet, as 'mdprofile status --json' names them.\n"
    "missing() {\n"
    "\tst=$(\"$mdp\" status --json 2>/dev/null)\n"
    "\tmiss=\n"
    "\tfor u in $uuids; do\n"
    "\t\tcase $st in\n"
    "\t\t*\"\\\"uuid\\\": \\\"$u\\\"\"*) ;;\n"
    "\t\t*) miss=\"$miss $u\" ;;\n"
    "\t\tesac\n"
    "\tdone\n"
    "\techo \"${miss# }\"\n"
    "}\n\n"
    "wait_for_arrays() {\n"
    "\twaited=0\n"
    "\tmiss=$(missing)\n"
    "\twhile [ -n \"$miss\" ] && [ \"$waited\" -lt \"$wait_s\" ]; do\n"
    "\t\tsleep 1\n"
    "\t\twaited=$((waited + 1))\n"
    "\t\tmiss=$(missing)\n"
    "\tdone\n"
    "\t[ -n \"$miss\" ] || return 0\n"
    "\tlog \"not assembled after ${wait_s}s, left untuned: $miss\"\n"
    "\treturn 1\n"
    "}\n\n"
    "apply_or_exit() {\n"
    "\trun apply --origin boot\n"
    "\trc=$?\n"
    "\t[ \"$rc\" -eq 0 ] && return 0\n"
    "\tlog \"apply failed with exit code $rc\"\n"
    "\tfinish \"$rc\"\n"
    "}\n\n"
    "main() {\n"
    "\tresult=0\n"
    "\tlog \"boot: applying profile $name, pinned to: ${uuids:-no arrays}\"\n"
    "\twait_for_arrays || result=1\n"
    "\tapply_or_exit\n"
    "\tif [ \"$recheck_s\" -gt 0 ]; then\n"
    "\t\tsleep \"$recheck_s\"\n"
    "\t\trun diff\n"
    "\t\trc=$?\n"
    "\t\tif [ \"$rc\" -eq 1 ]; then\n"
    "\t\t\tlog \"values changed after apply (DSM sets some while it boots): applying again\"\n"
    "\t\t\tapply_or_exit\n"
    "\t\telif [ \"$rc\" -ne 0 ]; then\n"
    "\t\t\tlog \"diff failed with exit code $rc\"\n"
    "\t\t\tresult=$rc\n"
    "\t\tfi\n"
    "\tfi\n"
    "\tstart_auto\n"
    "\tlog \"done, exit code $result\"\n"
    "\tfinish \"$result\"\n"
    "}\n\n";

/* DSM: a boot that fails is also told in the Log Center (messages need user.warning). */
static const char finish_dsm[] =
    "# The exit code; a failure also goes to DSM's Log Center.\n"
    "finish() {\n"
    "\tif [ \"$1\" -ne 0 ]; then\n"
    "\t\tsynologset1 sys warn 0x11100000 \"mdprofile: profile $name not (fully) applied at "
    "boot, exit code $1; see /var/log/messages\" >/dev/null 2>&1 || :\n"
    "\tfi\n"
    "\texit \"$1\"\n"
    "}\n\n";

static const char finish_other[] = "finish() {\n\texit \"$1\"\n}\n\n";

static const char no_auto[] = "start_auto() { :; }\n\n";
static const char no_auto_stop[] = "start_auto() { :; }\nstop_auto() { :; }\n\n";

/*
 * enable --auto on rc.d and DSM: the keeper (keep-auto) runs the watcher and
 * starts it again when it dies, in a session of its own (a DSM task's
 * process group is killed when it ends). One keeper per machine: it takes
 * its lock (flock, on descriptor 9, which its children do not get) before
 * it starts the watcher and holds it for its life, and a second one ends at
 * once; holding it, it writes its pid into the pid file, and into the lock
 * file with the time of its next start while it waits (src/keeper.h), so
 * that stop (rc.d at shutdown, disable) can end it and status can say so:
 * SIGTERM to the keeper stops the watcher, which removes an engaged overlay
 * first. SIGPIPE is ignored: a log reader gone ends nothing. enable starts
 * the keeper the same way (src/keeper.h), now.
 */
static const char with_auto[] =
    "# A line of the keeper's, with its time, to its log and to syslog.\n"
    "klog() {\n"
    "\tprintf '%s mdprofile: %s\\n' \"$(date -u +%Y-%m-%dT%H:%M:%SZ)\" \"$*\"\n"
    "\tlogger -p user.warning -t mdprofile -- \"$*\" 2>/dev/null || :\n"
    "}\n\n"
    "# The keeper's pid, when the pid file names it still.\n"
    "keeper_pid() {\n"
    "\t[ -f \"$root$auto_pid\" ] || return 1\n"
    "\tpid=$(cat \"$root$auto_pid\")\n"
    "\tcase $(tr '\\000' ' ' <\"/proc/$pid/cmdline\" 2>/dev/null) in\n"
    "\t*\" $root$self keep-auto \"*) echo \"$pid\" ;;\n"
    "\t*) return 1 ;;\n"
    "\tesac\n"
    "}\n\n"
    "# The keeper, in a session of its own, its lines and the watcher's to $auto_log; its\n"
    "# lock keeps it one.\n"
    "start_auto() {\n"
    "\tif pid=$(keeper_pid); then\n"
    "\t\tlog \"the watcher runs already (its keeper: pid $pid)\"\n"
    "\t\treturn 0\n"
    "\tfi\n"
    "\tlog \"starting the watcher: mdprofile auto $auto, kept running; its log: $auto_log\"\n"
    "\tsetsid /bin/sh \"$root$self\" keep-auto </dev/null >>\"$root$auto_log\" 2>&1 &\n"
    "}\n\n"
    "stop_auto() {\n"
    "\tpid=$(keeper_pid) || return 0\n"
    "\trm -f \"$root$auto_pid\"\n"
    "\tlog \"stopping the watcher (its keeper: pid $pid)\"\n"
    "\tkill -TERM \"$pid\" 2>/dev/null || return 0\n"
    "\tn=0\n"
    "\twhile kill -0 \"$pid\" 2>/dev/null && [ \"$n\" -lt 60 ]; do\n"
    "\t\tsleep 1\n"
    "\t\tn=$((n + 1))\n"
    "\tdone\n"
    "}\n\n"
    "stop_child() {\n"
    "\t[ -n \"$child\" ] || return 0\n"
    "\tkill -TERM \"$child\" 2>/dev/null\n"
    "\twait \"$child\"\n"
    "}\n\n"
    "# The keeper's lock on descriptor 9, held until it ends: 0, or 1 when another keeper\n"
    "# holds it, 2 when it cannot be taken.\n"
    "keeper_lock() {\n"
    "\tdir=$root${auto_lock%/*}\n"
    "\t(umask 077 && mkdir -p \"$dir\" && : >>\"$root$auto_lock\") 2>/dev/null || {\n"
    "\t\tklog \"cannot create $auto_lock: the watcher is not started\"\n"
    "\t\treturn 2\n"
    "\t}\n"
    "\texec 9>>\"$root$auto_lock\"\n"
    "\tflock -n 9\n"
    "\tcase $? in\n"
    "\t0) ;;\n"
    "\t1)\n"
    "\t\tholder=$(cut -d' ' -f1 \"$root$auto_lock\")\n"
    "\t\tklog \"another keeper (pid $holder) keeps the watcher: this one ends\"\n"
    "\t\treturn 1\n"
    "\t\t;;\n"
    "\t*)\n"
    "\t\tklog \"cannot lock $auto_lock (flock): the watcher is not started\"\n"
    "\t\treturn 2\n"
    "\t\t;;\n"
    "\tesac\n"
    "\techo \"$$\" >\"$root$auto_pid\" || klog \"cannot keep the keeper's pid in $auto_pid\"\n"
    "}\n\n"
    "# keep-auto: the watcher, started again 10 s after it dies (killed, out of memory),\n"
    "# the wait doubling up to 10 min while it dies within 10 min of its start. Exit\n"
    "# code 0 (a stop signal: its overlay removed) or 2 (refused) ends the keeping.\n"
    "keep_auto() {\n"
    "\tchild=\n"
    "\ttrap 'stop_child; exit 0' TERM INT HUP\n"
    "\ttrap '' PIPE\n"
    "\tkeeper_lock || return\n"
    "\tdelay=10\n"
    "\twhile :; do\n"
    "\t\tt0=$(date +%s)\n"
    "\t\techo \"$$\" >\"$root$auto_lock\"\n"
    "\t\texec_auto 9>&- &\n"
    "\t\tchild=$!\n"
    "\t\twait \"$child\"\n"
    "\t\trc=$?\n"
    "\t\tchild=\n"
    "\t\tcase $rc in\n"
    "\t\t0) klog \"the watcher stopped\"; return 0 ;;\n"
    "\t\t2) klog \"the watcher refused to run (exit code 2): not started again\"; return 2 ;;\n"
    "\t\tesac\n"
    "\t\t[ $(($(date +%s) - t0)) -lt 600 ] || delay=10\n"
    "\t\tklog \"the watcher ended with exit code $rc: starting it again in ${delay}s\"\n"
    "\t\techo \"$$ restart $(($(date +%s) + delay))\" >\"$root$auto_lock\"\n"
    "\t\tsleep \"$delay\" 9>&- &\n"
    "\t\tchild=$!\n"
    "\t\twait \"$child\"\n"
    "\t\tchild=\n"
    "\t\tdelay=$((delay * 2))\n"
    "\t\t[ \"$delay\" -le 600 ] || delay=600\n"
    "\tdone\n"
    "}\n\n";

/* The end of the case both service scripts close with: status, and usage for the rest. */
#define CASE_STATUS_USAGE                                                                          \
	"status) profile | \"$mdp\" diff --name \"$name\" - ;;\n"                                  \
	"*)\n"                                                                                     \
	"\techo \"usage: $0 start|stop|status\" >&2\n"                                             \
	"\texit 2\n"                                                                               \
	"\t;;\n"                                                                                   \
	"esac\n"

static const char tail_dsm[] = "main\n";

/* enable's stop: what start did, undone (the values, the services, the watcher). */
/* enable's stop: what start did, undone (the watcher, every layer, the services). */
#define STOP_FN                                                                                    \
	"stop() {\n"                                                                               \
	"\tstop_auto\n"                                                                            \
	"\tlog \"stop: reverting profile $name\"\n"                                                \
	"\tout=$(\"$mdp\" revert --all 2>&1)\n"                                                    \
	"\trc=$?\n"                                                                                \
	"\tprintf '%s\\n' \"$out\" | while IFS= read -r line; do\n"                                \
	"\t\t[ -z \"$line\" ] || log \"$line\"\n"                                                  \
	"\tdone\n"                                                                                 \
	"\texit \"$rc\"\n"                                                                         \
	"}\n\n"                                                                                    \
	"case ${1:-start} in\n"                                                                    \
	"start) main ;;\n"                                                                         \
	"stop) stop ;;\n"

static const char tail_enable[] = STOP_FN CASE_STATUS_USAGE;
/* enable --auto: the keeper (DSM, rc.d; start-auto for the owner) or the watcher (systemd). */
static const char tail_enable_keep[] = STOP_FN "start-auto) start_auto ;;\n"
					       "keep-auto) keep_auto ;;\n" CASE_STATUS_USAGE;
static const char tail_enable_unit_auto[] = STOP_FN "auto) exec_auto ;;\n" CASE_STATUS_USAGE;

static const char tail_rcd[] =
    "case ${1:-start} in\n"
    "start) main ;;\n"
    "stop) log \"stop: nothing to undo, the kernel forgets these values\" ;;\n" CASE_STATUS_USAGE;

static void drop_services(struct mdp_profile *p)
{
	for (size_t i = 0; i < p->n_services; i++)
		free(p->services[i].name);
	free(p->services);
	p->services = NULL;
	p->n_services = 0;
}

/* Close a memstream: its text, or NULL (and freed) when writing it failed. */
static char *mem_close(FILE *f, char **buf)
{
	if (fclose(f) || !*buf) {
		free(*buf);
		return NULL;
	}
	return *buf;
}

static int boot_paths(const char *name, const struct mdp_boot_opts *o, struct mdp_boot_file *f,
		      size_t *n, struct mdp_diags *d);

static int write_script(const struct mdp_profile *p, const struct mdp_system *s,
			const struct mdp_boot_opts *o, const char *yaml, const char *auto_yaml,
			char **out, size_t *len)
{
	struct mdp_boot_file paths[MDP_BOOT_FILES];
	struct mdp_diags pd;
	size_t np = 0;
	const char *uuids[256];
	size_t n = rule_uuids(p, uuids, sizeof(uuids) / sizeof(uuids[0]));
	char *buf = NULL;
	size_t blen = 0;
	FILE *f = open_memstream(&buf, &blen);

	if (!f)
		return -ENOMEM;
	/* the script's own place, for the keeper (checked by the caller's boot_paths too) */
	mdp_diags_init(&pd);
	if (boot_paths(p->name, o, paths, &np, &pd))
		np = 0;
	mdp_diags_free(&pd);
	header(f, p, s, o, uuids, n);
	header_what(f, o);
	header_remove(f, p, o);
	settings(f, p, o, uuids, n, np ? paths[0].sys : "");
	profile_fn(f, yaml);
	if (auto_yaml)
		auto_fn(f, o->auto_profile, auto_yaml);
	fputs(o->target == MDP_BOOT_DSM ? finish_dsm : finish_other, f);
	/* systemd starts the watcher in a unit of its own */
	fputs(keeps_auto(o) ? with_auto : o->enable ? no_auto_stop : no_auto, f);
	fputs(body, f);
	if (o->enable) /* DSM's task runs it without an argument: start */
		fputs(keeps_auto(o)                  ? tail_enable_keep
		      : o->auto_profile && auto_yaml ? tail_enable_unit_auto
						     : tail_enable,
		      f);
	else
		fputs(o->target == MDP_BOOT_DSM ? tail_dsm : tail_rcd, f); /* systemd: start */
	if (!(*out = mem_close(f, &buf)))
		return -ENOMEM;
	*len = blen;
	return 0;
}

int mdp_boot_script(struct mdp_profile *p, const struct mdp_system *s,
		    const struct mdp_boot_opts *o, char **out, size_t *len, struct mdp_diags *d)
{
	size_t errors = d->n, ylen, alen;
	char *yaml, *ayaml = NULL;
	int err;

	if ((err = mdp_pin_uuids(p, s, d)))
		return err;
	if (!o->with_services)
		drop_services(p);
	check_inputs(p, s, o, d);
	if (d->n > errors)
		return -EINVAL;
	if ((err = mdp_pin_write(p, &yaml, &ylen, d)))
		return err;
	/* the overlay pinned the same way, its services kept: they are what it pauses */
	if (o->auto_p && !(err = mdp_pin_uuids(o->auto_p, s, d)))
		err = mdp_pin_write(o->auto_p, &ayaml, &alen, d);
	if (!err)
		err = write_script(p, s, o, yaml, ayaml, out, len);
	free(ayaml);
	free(yaml);
	return err;
}

/* ---- installing ----------------------------------------------------------------------- */

/* systemd and udev, as generic Linux has them (systemd.unit(5), udev(7), mdadm's rules). */
#define UNIT_DIR    "/etc/systemd/system"
#define UDEV_DIR    "/etc/udev/rules.d"
#define SCRIPT_DIR  "/usr/local/lib/mdprofile"
#define SYSTEMCTL   "/bin/systemctl"
#define SETTLE_SLOP 300 /* seconds a unit gets beyond its waits: discovery, apply, diff */

/* How each file mdprofile writes begins: --uninstall removes only files that begin so. */
#define HEAD_SCRIPT "#!/bin/sh\n# mdprofile boot script (target "
#define HEAD_UNIT   "# mdprofile: applies profile "
#define HEAD_RULE   "# mdprofile: apply profile "

static int file_at(struct mdp_boot_file *f, const char *what, const char *head, unsigned mode,
		   struct mdp_diags *d, const char *fmt, ...) __attribute__((format(printf, 6, 7)));

static int file_at(struct mdp_boot_file *f, const char *what, const char *head, unsigned mode,
		   struct mdp_diags *d, const char *fmt, ...)
{
	va_list ap;
	int n;

	memset(f, 0, sizeof(*f));
	f->what = what;
	f->head = head;
	f->mode = mode;
	va_start(ap, fmt);
	n = vsnprintf(f->sys, sizeof(f->sys), fmt, ap);
	va_end(ap);
	if (n < 0 || (size_t)n >= sizeof(f->sys)) {
		mdp_diags_add(d, NULL, 0, 0, "the path of the boot %s is too long", what);
		return -EINVAL;
	}
	return 0;
}

/* The base of the files' names: enable's fixed one, or boot-script's per profile. */
static void base_name(const char *name, const struct mdp_boot_opts *o, char *buf, size_t cap)
{
	if (o->enable)
		snprintf(buf, cap, MDP_BOOT_ENABLED);
	else
		snprintf(buf, cap, "mdprofile-%s", name);
}

/* The script's place: on DSM next to the binary, on a volume that updates keep. */
static int script_file(const char *base, const struct mdp_boot_opts *o, struct mdp_boot_file *f,
		       struct mdp_diags *d)
{
	const char *slash = strrchr(o->binary, '/');

	if (o->target == MDP_BOOT_DSM)
		return file_at(f, "script", HEAD_SCRIPT, 0755, d, "%.*s/%s.sh",
			       (int)(slash ? slash - o->binary : 0), o->binary, base);
	return file_at(f, "script", HEAD_SCRIPT, 0755, d, "%s/%s.sh",
		       o->target == MDP_BOOT_RCD ? mdp_boot_dsm.rcd_dir : SCRIPT_DIR, base);
}

/*
 * A oneshot that stays active once it has run (RemainAfterExit): a later
 * 'systemctl start' of it does nothing, so only a boot or the udev rule's
 * restart, at an array's assembly, applies the profile again. enable's
 * also undoes itself on stop (ExecStop reverts every layer), and the rule
 * runs reload-or-restart: a unit that is active applies again (ExecReload)
 * rather than reverting first; one that failed (a pinned array not
 * assembled within --wait-arrays at boot) or is inactive is started, where
 * a reload would be refused and the late array left untuned. systemd needs
 * no re-check: nothing of DSM's runs there.
 */
static char *unit_text(const char *name, const struct mdp_boot_opts *o, const char *script,
		       size_t *len)
{
	char *buf = NULL;
	FILE *f = open_memstream(&buf, len);

	if (!f)
		return NULL;
	if (o->enable)
		fprintf(f,
			HEAD_UNIT "%s at boot (mdprofile enable).\n# Remove: mdprofile disable\n",
			name);
	else
		fprintf(f,
			HEAD_UNIT
			"%s at boot (mdprofile boot-script --install).\n"
			"# Remove: mdprofile boot-script --uninstall --target systemd %s\n",
			name, name);
	fprintf(f,
		"[Unit]\nDescription=mdprofile: apply profile %s to the md arrays\n"
		"Documentation=man:mdprofile(8)\n"
		"After=local-fs.target mdmonitor.service\n\n"
		"[Service]\nType=oneshot\nRemainAfterExit=yes\nExecStart=%s start\n",
		name, script);
	/* stop reverts every layer (the watcher's unit, PartOf this one, has stopped by
	   then); run by the binary, not the script, which disable removes meanwhile */
	if (o->enable)
		fprintf(f, "ExecReload=%s start\nExecStop=-%s revert --all\n", script, o->binary);
	fprintf(f, "TimeoutStartSec=%u\n\n[Install]\nWantedBy=multi-user.target\n",
		o->wait_arrays + o->recheck_after + SETTLE_SLOP);
	return mem_close(f, &buf);
}

/*
 * enable --auto: the watcher, started after the profile is applied at
 * boot, restarted if it fails; stopping it (disable, shutdown) removes an
 * engaged overlay (SIGTERM).
 */
static char *auto_unit_text(const char *name, const struct mdp_boot_opts *o, const char *script,
			    size_t *len)
{
	char *buf = NULL;
	FILE *f = open_memstream(&buf, len);

	if (!f)
		return NULL;
	fprintf(f,
		HEAD_UNIT "%s during md operations, over %s (mdprofile enable --auto).\n"
			  "# Remove: mdprofile disable\n"
			  "[Unit]\nDescription=mdprofile: apply profile %s while md resyncs, "
			  "recovers or reshapes\n"
			  "Documentation=man:mdprofile(8)\n"
			  "Wants=" MDP_BOOT_ENABLED ".service\nAfter=" MDP_BOOT_ENABLED
			  ".service\nPartOf=" MDP_BOOT_ENABLED ".service\n\n"
			  "[Service]\nType=simple\nExecStart=/bin/sh %s auto\nRestart=on-failure\n"
			  "RestartSec=10\n\n"
			  "[Install]\nWantedBy=multi-user.target\n",
		o->auto_profile, name, o->auto_profile, script);
	return mem_close(f, &buf);
}

/*
 * The udev property that marks an array whose assembly the rule of profile
 * name has seen: [A-Za-z0-9_] only, one per profile ('_' -> "__", '.' ->
 * "_2E", '-' -> "_2D", so that two names never share one).
 */
static void seen_key(const char *name, char *buf, size_t cap)
{
	size_t n = (size_t)snprintf(buf, cap, "MDPROFILE_SEEN_");

	for (; *name && n + 4 < cap; name++) {
		const char *esc = *name == '_'   ? "__"
				  : *name == '.' ? "_2E"
				  : *name == '-' ? "_2D"
						 : NULL;
		if (esc)
			n += (size_t)snprintf(buf + n, cap - n, "%s", esc);
		else
			buf[n++] = *name;
		buf[n] = '\0';
	}
}

/*
 * udev knows an array by mdadm's MD_UUID (8 hex digits a group, colons
 * between), which mdadm's rules import only once the array runs. md sends
 * change events for much more than its start: the end of a reshape (a
 * capacity change), 'udevadm trigger', a package's rules reload. So the
 * rule restarts the unit once per assembly: the first event of the device
 * that finds it running and pinned sets a property kept in udev's database
 * (IMPORT{db}, the way LVM's rules mark an md PV activated), and later
 * events see it; stopping the array removes the device and its database
 * entry, so the next assembly is seen again.
 */
static char *rule_text(const char *name, const char *base, const struct mdp_boot_opts *o,
		       const char **uuids, size_t n, size_t *len)
{
	char key[3 * 64 + 32], *buf = NULL;
	FILE *f = open_memstream(&buf, len);

	if (!f)
		return NULL;
	/* enable's own key: its rule and a boot-script one of the same profile both act */
	if (o->enable)
		snprintf(key, sizeof(key), "MDPROFILE_ENABLED_SEEN");
	else
		seen_key(name, key, sizeof(key));
	fprintf(f,
		HEAD_RULE
		"%s again when an array it pins is assembled\n"
		"# after boot (%s): once\n"
		"# per assembly, not on later change events (udevadm trigger, a reshape's "
		"end).\n"
		"SUBSYSTEM!=\"block\", GOTO=\"%s_end\"\n"
		"KERNEL!=\"md*\", GOTO=\"%s_end\"\n"
		"ACTION!=\"add|change\", GOTO=\"%s_end\"\n"
		"TEST!=\"md/array_state\", GOTO=\"%s_end\"\n"
		"ATTR{md/array_state}==\"|clear|inactive\", GOTO=\"%s_end\"\n"
		"IMPORT{db}=\"%s\"\n"
		"ENV{%s}==\"1\", GOTO=\"%s_end\"\n",
		name,
		o->enable ? "mdprofile enable" : "mdprofile boot-script --install --target systemd",
		key, key, key, key, key, key, key, key);
	for (size_t i = 0; i < n; i++)
		fprintf(f,
			"ENV{MD_UUID}==\"%.8s:%.8s:%.8s:%.8s\", ENV{%s}=\"1\", "
			"RUN+=\"" SYSTEMCTL " --no-block %s %s.service\"\n",
			uuids[i], uuids[i] + 8, uuids[i] + 16, uuids[i] + 24, key,
			o->enable ? "reload-or-restart" : "restart", base);
	fprintf(f, "LABEL=\"%s_end\"\n", key);
	return mem_close(f, &buf);
}

void mdp_boot_files_free(struct mdp_boot_file *f, size_t n)
{
	for (size_t i = 0; i < n; i++)
		free(f[i].text);
}

/* The paths of name's files for o->target: *n is 1, or 3 for systemd (4 with a watcher). */
static int boot_paths(const char *name, const struct mdp_boot_opts *o, struct mdp_boot_file *f,
		      size_t *n, struct mdp_diags *d)
{
	char base[128];
	int err;

	*n = 0;
	if (!mdp_ident_profile_name_ok(name)) {
		refuse(d, "the profile name", name, MDP_IDENT_PROFILE_NAME_RULE);
		return -EINVAL;
	}
	base_name(name, o, base, sizeof(base));
	if ((err = script_file(base, o, &f[0], d)))
		return err;
	*n = 1;
	if (o->target != MDP_BOOT_SYSTEMD)
		return 0;
	if (file_at(&f[1], "unit", HEAD_UNIT, 0644, d, UNIT_DIR "/%s.service", base) ||
	    file_at(&f[2], "udev rule", HEAD_RULE, 0644, d, UDEV_DIR "/90-%s.rules", base))
		return -EINVAL;
	*n = 3;
	if (!o->auto_profile)
		return 0;
	if (file_at(&f[3], "watcher unit", HEAD_UNIT, 0644, d, UNIT_DIR "/%s-auto.service", base))
		return -EINVAL;
	*n = 4;
	return 0;
}

int mdp_boot_paths(const char *name, const struct mdp_boot_opts *o, struct mdp_boot_file *f,
		   size_t *n, struct mdp_diags *d)
{
	int err = boot_paths(name, o, f, n, d);

	if (err)
		*n = 0;
	return err;
}

int mdp_boot_files(const struct mdp_profile *p, const struct mdp_boot_opts *o, const char *script,
		   size_t len, struct mdp_boot_file *f, size_t *n, struct mdp_diags *d)
{
	const char *uuids[256];
	size_t nu = rule_uuids(p, uuids, sizeof(uuids) / sizeof(uuids[0]));
	char base[128];
	int err;

	if ((err = mdp_boot_paths(p->name, o, f, n, d)))
		return err;
	base_name(p->name, o, base, sizeof(base));
	if (!(f[0].text = strndup(script, len)))
		return -ENOMEM;
	f[0].len = len;
	if (*n == 1)
		return 0;
	if (!(f[1].text = unit_text(p->name, o, f[0].sys, &f[1].len)))
		return -ENOMEM;
	if (nu && !(f[2].text = rule_text(p->name, base, o, uuids, nu, &f[2].len)))
		return -ENOMEM;
	if (*n == 4 && !(f[3].text = auto_unit_text(p->name, o, f[0].sys, &f[3].len)))
		return -ENOMEM;
	/* No UUID pinned, no rule: the watcher's unit, if any, takes its place. */
	if (!nu) {
		if (*n == 4) {
			f[2] = f[3];
			memset(&f[3], 0, sizeof(f[3]));
		}
		(*n)--;
	}
	return 0;
}

static int install_one(const struct mdp_root *r, const struct mdp_boot_file *f, struct mdp_diags *d)
{
	char dir[sizeof(f->sys)], why[256] = "";
	char *slash;
	int err;

	snprintf(dir, sizeof(dir), "%s", f->sys);
	if ((slash = strrchr(dir, '/')) && slash != dir)
		*slash = '\0';
	if ((err = mdp_root_mkdir_p(r, dir, 0755)) ||
	    (err = mdp_root_replace(r, f->sys, f->text, f->len, f->mode))) {
		mdp_diags_add(d, NULL, 0, 0, "cannot install the boot %s %s: %s", f->what, f->sys,
			      mdp_root_strerror(-err));
		return err;
	}
	/* Checked where it landed: what runs as root at boot must be root's alone. */
	if ((err = mdp_root_trusted(r, f->sys, why, sizeof(why)))) {
		mdp_root_unlink(r, f->sys);
		mdp_diags_add(d, NULL, 0, 0,
			      "refusing to install the boot %s %s: %s; others could change what "
			      "runs as root at boot",
			      f->what, f->sys, why[0] ? why : mdp_root_strerror(-err));
	}
	return err;
}

int mdp_boot_install(const struct mdp_root *r, struct mdp_boot_file *f, size_t n,
		     struct mdp_diags *d)
{
	int err = 0;

	for (size_t i = 0; i < n && !err; i++)
		f[i].done = !(err = install_one(r, &f[i], d));
	return err;
}

int mdp_boot_check_binary(const struct mdp_root *r, const char *binary, char *msg, size_t cap)
{
	char why[256] = "";
	int err = mdp_root_trusted(r, binary, why, sizeof(why));

	if (err == -ENOENT)
		snprintf(msg, cap,
			 "--binary %s: no such file; the boot script would fail at every boot",
			 binary);
	else if (err)
		snprintf(msg, cap,
			 "--binary %s: %s; others could change what the boot script runs as root",
			 binary, why[0] ? why : mdp_root_strerror(-err));
	return err;
}

bool mdp_boot_unit_file_enabled(const struct mdp_root *r, const char *unit)
{
	char sys[512];

	snprintf(sys, sizeof(sys), UNIT_DIR "/multi-user.target.wants/%s", unit);
	return mdp_root_exists(r, sys);
}

bool mdp_boot_unit_enabled(const struct mdp_root *r, const char *name)
{
	char unit[256];

	snprintf(unit, sizeof(unit), "mdprofile-%s.service", name);
	return mdp_boot_unit_file_enabled(r, unit);
}

/* What the last component of path is, not followed: 0 with *st, or -errno. */
static int lstat_at(const struct mdp_root *r, const char *path, struct stat *st)
{
	int fd = mdp_root_open(r, path, O_PATH | O_NOFOLLOW, 0), err;

	if (fd < 0)
		return fd;
	err = fstat(fd, st) ? -errno : 0;
	close(fd);
	return err;
}

/* Does the file at f->sys begin as mdprofile writes it (a regular file, not through a link)? */
static bool ours(const struct mdp_root *r, const struct mdp_boot_file *f)
{
	char buf[128];
	size_t want = strlen(f->head), got = 0;
	struct stat st;
	ssize_t k;
	int fd;

	fd = mdp_root_open(r, f->sys, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_NOCTTY, 0);
	if (fd < 0)
		return false;
	if (fstat(fd, &st) || !S_ISREG(st.st_mode) || want > sizeof(buf)) {
		close(fd);
		return false;
	}
	while (got < want &&
	       ((k = read(fd, buf + got, want - got)) > 0 || (k < 0 && errno == EINTR)))
		got += k > 0 ? (size_t)k : 0;
	close(fd);
	return got == want && !memcmp(buf, f->head, want);
}

int mdp_boot_uninstall(const struct mdp_root *r, struct mdp_boot_file *f, size_t n,
		       struct mdp_diags *d)
{
	struct stat st;
	int err = 0, e;

	for (size_t i = 0; i < n; i++) {
		f[i].done = false;
		if (lstat_at(r, f[i].sys, &st) == -ENOENT)
			continue;
		if (!ours(r, &f[i])) {
			mdp_diags_add(
			    d, NULL, 0, 0,
			    "not removing %s: it is not a boot %s mdprofile wrote (it does "
			    "not begin with mdprofile's header)",
			    f[i].sys, f[i].what);
			err = err ? err : -EPERM;
		} else if ((e = mdp_root_unlink(r, f[i].sys))) {
			mdp_diags_add(d, NULL, 0, 0, "cannot remove the boot %s %s: %s", f[i].what,
				      f[i].sys, mdp_root_strerror(-e));
			err = err ? err : e;
		} else {
			f[i].done = true;
		}
	}
	return err;
}

/* text without its "# generated: " line, the one that changes at every generation */
static void drop_generated(char *text)
{
	char *l = strstr(text, "\n# generated: "), *nl;

	if (l && (nl = strchr(l + 1, '\n')))
		memmove(l + 1, nl + 1, strlen(nl + 1) + 1);
}

int mdp_boot_file_intact(const struct mdp_root *r, const struct mdp_boot_file *f)
{
	struct stat st;
	char *have = NULL, *want;
	size_t len;
	int err, same;

	if ((err = lstat_at(r, f->sys, &st)))
		return err == -ENOENT ? -ENOENT : 0;
	if (!ours(r, f))
		return 0;
	if (!f->text)
		return 1;
	if (mdp_root_read_all(r, f->sys, &have, &len))
		return 0;
	if (!(want = strndup(f->text, f->len))) {
		free(have);
		return -ENOMEM;
	}
	drop_generated(have);
	drop_generated(want);
	same = !strcmp(have, want);
	free(have);
	free(want);
	return same;
}

/* ---- what enable installed -------------------------------------------------------------- */

#define RECORD_HEAD "# mdprofile enable: what is enabled; mdprofile disable removes it\n"

static int record_set(struct mdp_boot_record *rec, const char *k, const char *v)
{
	if (!code_safe(v))
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
		     RECORD_HEAD "profile=%s\nauto=%s\ntarget=%s\nbinary=%s\ntask=%s\nunits=%s\n",
		     rec->profile, rec->auto_profile, mdp_boot_target_name(rec->target),
		     rec->binary, rec->task ? "created" : "no", rec->units ? "enabled" : "no");
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
}

/* ---- -o FILE -------------------------------------------------------------------------- */

/*
 * Why the directory dir (absolute, links resolved) is one others could
 * change: a directory on the way owned by someone else, or writable by
 * group/others without the sticky bit; the last one owned by someone else
 * or writable by group/others at all. 0, -EPERM with why, or -errno.
 */
static int out_dir_check(const struct mdp_root *r, const char *dir, char *why, size_t cap)
{
	char part[PATH_MAX];
	struct stat st;
	size_t n = strlen(dir);
	int fd, err;

	if (n >= sizeof(part))
		return -ENAMETOOLONG;
	/* "/", then each directory down to dir. */
	for (size_t i = 1; i <= n; i++) {
		bool last = i == n || (i == 1 && n == 1);
		if (i > 1 && !last && dir[i] != '/')
			continue;
		memcpy(part, dir, i);
		part[i] = '\0';
		if ((fd = mdp_root_open(r, part, O_PATH | O_NOFOLLOW | O_DIRECTORY, 0)) < 0)
			return fd;
		err = fstat(fd, &st) ? -errno : 0;
		close(fd);
		if (err)
			return err;
		if (st.st_uid != 0 && st.st_uid != geteuid()) {
			snprintf(why, cap, "directory %s is owned by uid %u", part,
				 (unsigned)st.st_uid);
			return -EPERM;
		}
		if ((st.st_mode & (S_IWGRP | S_IWOTH)) && (last || !(st.st_mode & S_ISVTX))) {
			snprintf(why, cap, "directory %s is group/world-writable (mode %04o)", part,
				 (unsigned)(st.st_mode & 07777));
			return -EPERM;
		}
	}
	return 0;
}

/* The directory holding path, links resolved, checked; the resolved path of it in real. */
static int out_place(const struct mdp_root *r, const char *path, char *real, size_t cap, char *why,
		     size_t wcap)
{
	char dir[PATH_MAX], rdir[PATH_MAX];
	const char *slash = strrchr(path, '/');
	int err;

	if (!slash || !slash[1] || (size_t)(slash - path) >= sizeof(dir))
		return -EINVAL;
	snprintf(dir, sizeof(dir), "%.*s", (int)(slash == path ? 1 : slash - path), path);
	if (!realpath(dir, rdir))
		return -errno;
	if ((err = out_dir_check(r, rdir, why, wcap)))
		return err;
	if ((size_t)snprintf(real, cap, "%s%s%s", rdir, strcmp(rdir, "/") ? "/" : "", slash + 1) >=
	    cap)
		return -ENAMETOOLONG;
	return 0;
}

/*
 * Write into what path leads to as it is, as a shell's > would (a device,
 * a FIFO, /dev/stdout's pipe): never created, never renamed over.
 */
static int out_into(const struct mdp_root *r, const char *path, const char *text, size_t len)
{
	struct stat st;
	int fd, err;

	if ((fd = mdp_root_open(r, path, O_WRONLY | O_NOCTTY, 0)) < 0)
		return fd;
	err = fstat(fd, &st) ? -errno : S_ISREG(st.st_mode) ? -ESTALE : 0;
	if (!err)
		err = mdp_root_write_all(fd, text, len);
	if (close(fd) && !err)
		err = -errno;
	return err;
}

static int out_write(const struct mdp_root *r, const char *path, const char *text, size_t len,
		     char *shown, size_t cap, char *why, size_t wcap)
{
	char place[PATH_MAX], real[PATH_MAX];
	struct stat st;
	int err;

	/* The place of path itself: others must not be able to swap what is there. */
	if ((err = out_place(r, path, place, sizeof(place), why, wcap)))
		return err;
	if ((err = lstat_at(r, place, &st)) && err != -ENOENT)
		return err;
	if (err || S_ISREG(st.st_mode)) /* new (created there) or a file: replaced */
		return mdp_root_replace(r, place, text, len, 0755);
	if (!S_ISLNK(st.st_mode))
		return out_into(r, path, text, len);
	if (st.st_uid != 0 && st.st_uid != geteuid()) {
		snprintf(why, wcap, "it is a symbolic link owned by uid %u", (unsigned)st.st_uid);
		return -EPERM;
	}
	/*
	 * A link: what it points to. A link that does not resolve (dangling,
	 * or /dev/stdout -> /proc/self/fd/1 -> "pipe:[N]") is never created
	 * through nor replaced: it is opened for writing as it is.
	 */
	if (!realpath(path, real))
		return errno == ENOENT ? out_into(r, path, text, len) : -errno;
	snprintf(shown, cap, "%s", real);
	if ((err = lstat_at(r, real, &st)))
		return err;
	if (!S_ISREG(st.st_mode))
		return out_into(r, real, text, len);
	if ((err = out_place(r, real, place, sizeof(place), why, wcap)))
		return err;
	return mdp_root_replace(r, place, text, len, 0755);
}

int mdp_boot_write_out(const struct mdp_root *r, const char *path, const char *text, size_t len,
		       char *shown, size_t cap, struct mdp_diags *d)
{
	char why[PATH_MAX + 64] = "";
	int err;

	snprintf(shown, cap, "%s", path);
	err = out_write(r, path, text, len, shown, cap, why, sizeof(why));
	if (err == -EPERM && why[0])
		mdp_diags_add(d, NULL, 0, 0,
			      "refusing to write %s: %s; others could change what runs as root at "
			      "boot",
			      path, why);
	else if (err == -ESTALE)
		mdp_diags_add(d, NULL, 0, 0,
			      "refusing to write %s: a link that does not resolve leads to a "
			      "regular file",
			      path);
	else if (err)
		mdp_diags_add(d, NULL, 0, 0, "cannot write %s: %s", path, mdp_root_strerror(-err));
	return err == -ESTALE ? -EPERM : err;
}
