/*
 * boot_script: the boot script generator (boot.h).
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
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "boot_int.h"
#include "mdp_base.h"
#include "mdp_profile.h"

/* ---- what may go into the script -------------------------------------------------- */

bool mdp_boot_code_safe(const char *s)
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

void mdp_boot_refuse(struct mdp_diags *d, const char *what, const char *value, const char *rule)
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
	else if (!mdp_boot_code_safe(o->binary))
		mdp_boot_refuse(d, "the binary path", o->binary, code_rule);
	/* The script runs apply --name NAME: a name --name refuses fails at every boot. */
	if (!mdp_ident_profile_name_ok(p->name))
		mdp_boot_refuse(d, "the profile name", p->name, MDP_IDENT_PROFILE_NAME_RULE);
	if (o->auto_profile && (!o->auto_profile[0] || !mdp_boot_code_safe(o->auto_profile)))
		mdp_boot_refuse(d, "the watcher's profile", o->auto_profile, code_rule);
	else if (o->auto_profile && !mdp_ident_profile_name_ok(o->auto_profile))
		mdp_boot_refuse(d, "the watcher's profile name", o->auto_profile,
				MDP_IDENT_PROFILE_NAME_RULE);
	if (!comment_safe(p->path))
		mdp_boot_refuse(d, "the profile path", p->path, comment_rule);
	for (size_t i = 0; i < s->n_arrays; i++) {
		if (!mdp_boot_code_safe(s->arrays[i].name))
			mdp_boot_refuse(d, "the array name", s->arrays[i].name, code_rule);
		if (!mdp_boot_code_safe(s->arrays[i].uuid))
			mdp_boot_refuse(d, "the UUID", s->arrays[i].uuid, code_rule);
	}
	for (size_t i = 0; i < p->n_rules; i++)
		for (size_t k = 0; k < p->rules[i].match.n_uuids; k++)
			if (!mdp_boot_code_safe(p->rules[i].match.uuids[k]))
				mdp_boot_refuse(d, "the UUID", p->rules[i].match.uuids[k],
						code_rule);
}

/* ---- the script -------------------------------------------------------------------- */

size_t mdp_boot_rule_uuids(const struct mdp_profile *p, const char **v, size_t cap)
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
	char when[40] = "?";

	mdp_time_local(o->when, when, sizeof(when));
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
	if (o->auto_profile && o->target != MDP_BOOT_SYSTEMD)
		fputs(", starts the watcher (mdprofile auto, under setsid: it\n# outlives this "
		      "script)",
		      f);
	if (o->recheck_after)
		fprintf(f,
			", waits %u s and runs 'mdprofile diff -':\n"
			"# values changed since (DSM sets speed_limit_min itself while it boots)\n"
			"# are applied once more, unless an overlay is on the profile",
			o->recheck_after);
	if (o->auto_profile && o->target == MDP_BOOT_SYSTEMD)
		fputs(";\n# mdprofile-auto.service starts the watcher (mdprofile auto) after it",
		      f);
	fputs(".\n# Every step goes to syslog (tag mdprofile) and to stdout. Exit code 0:\n"
	      "# everything was set; 1: a pinned array was not assembled in time (the\n"
	      "# rest was set); 2, 3, 4: those of 'mdprofile apply' (see mdprofile --help).\n",
	      f);
	if (o->enable)
		fputs("# While it runs it says so in " MDP_BOOT_MARK " (for mdprofile status).\n",
		      f);
	fputs("#\n", f);
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
			: o->packaged               ? ", disables the units"
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
	if (o->enable)
		fputs("boot_mark='" MDP_BOOT_MARK "'\n", f);
	/* enable's: under a test's fixture tree, the tree's binary (as the watcher's) */
	if (o->enable)
		fputs("# a test's fixture tree (mdprofile --root); empty on a box\n"
		      "root=${MDPROFILE_ROOT:-}\nbin=$root$mdp\n",
		      f);
	else
		fputs("bin=$mdp\n", f);
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
 * .service runs the script with auto), the keeper's child. With --wait: a
 * command holding the lock when it starts (the boot script's own re-check,
 * an enable) delays it instead of ending it with exit 3 and a restart ten
 * seconds later; a stop signal still ends the wait.
 */
static void auto_fn(FILE *f, const char *name, const char *text)
{
	char delim[64];

	delimiter(text, delim, sizeof(delim));
	fprintf(f,
		"# The watcher: mdprofile auto, with profile %s (pinned as the one above) on\n"
		"# its stdin, in place of this shell (under a test's fixture tree, the tree's\n"
		"# binary).\nexec_auto() {\n"
		"\texec \"$root$mdp\" --wait auto --name \"$auto\" - <<'%s'\n%s%s%s\n}\n\n",
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
    "\tout=$(profile | \"$bin\" \"$@\" --name \"$name\" - 2>&1)\n"
    "\trc=$?\n"
    "\tprintf '%s\\n' \"$out\" | while IFS= read -r line; do\n"
    "\t\t[ -z \"$line\" ] || log \"$line\"\n"
    "\tdone\n"
    "\treturn \"$rc\"\n"
    "}\n\n"
    "# The pinned arrays not assembled yet, as 'mdprofile status --json' names them.\n"
    "missing() {\n"
    "\tst=$(\"$bin\" status --json 2>/dev/null)\n"
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
    "# Values rewritten since apply: profile $name applied again, unless an overlay is on it\n"
    "# (the watcher's: it puts back what others rewrite while it is on).\n"
    "recheck() {\n"
    "\trun diff\n"
    "\trc=$?\n"
    "\tif [ \"$rc\" -eq 1 ]; then\n"
    "\t\tcase $(\"$bin\" status --json 2>/dev/null) in\n"
    "\t\t*'\"role\": \"overlay\"'*)\n"
    "\t\t\tlog \"an overlay is on profile $name: not applied again\"\n"
    "\t\t\treturn 0\n"
    "\t\t\t;;\n"
    "\t\tesac\n"
    "\t\tlog \"values changed after apply (DSM sets some while it boots): applying again\"\n"
    "\t\tapply_or_exit\n"
    "\telif [ \"$rc\" -ne 0 ]; then\n"
    "\t\tlog \"diff failed with exit code $rc\"\n"
    "\t\tresult=$rc\n"
    "\tfi\n"
    "}\n\n"
    "main() {\n"
    "\tresult=0\n"
    "\tmark waiting\n"
    "\tlog \"boot: applying profile $name, pinned to: ${uuids:-no arrays}\"\n"
    "\twait_for_arrays || result=1\n"
    "\tmark applying\n"
    "\tapply_or_exit\n"
    "\tstart_auto\n"
    "\tif [ \"$recheck_s\" -gt 0 ]; then\n"
    "\t\tmark re-checking $(($(date +%s) + recheck_s))\n"
    "\t\tsleep \"$recheck_s\"\n"
    "\t\trecheck\n"
    "\tfi\n"
    "\tlog \"done, exit code $result\"\n"
    "\tfinish \"$result\"\n"
    "}\n\n";

/*
 * enable's scripts mark themselves while they run at boot (MDP_BOOT_MARK: pid,
 * step, the re-check's end), so that status says the boot task runs; the mark
 * goes when the script ends.
 */
static const char mark_fn[] =
    "# This run's step, for status (\"PID STEP [UNTIL]\"); removed when the script ends.\n"
    "mark() {\n"
    "\t(umask 077 && mkdir -p \"$root${boot_mark%/*}\") 2>/dev/null || return 0\n"
    "\techo \"$$ $*\" >\"$root$boot_mark\" 2>/dev/null || return 0\n"
    "\ttrap 'rm -f \"$root$boot_mark\"' EXIT\n"
    "}\n\n";

static const char no_mark[] = "mark() { :; }\n\n";

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
 * file with the time of its next start while it waits (src/boot/keeper.h), so
 * that stop (rc.d at shutdown, disable) can end it and status can say so:
 * SIGTERM to the keeper stops the watcher, which removes an engaged overlay
 * first. SIGPIPE is ignored: a log reader gone ends nothing. enable starts
 * the keeper the same way (src/boot/keeper.h), now.
 */
static const char with_auto[] =
    "# A line of the keeper's, with its local time and offset (as the watcher's), to its log\n"
    "# and to syslog.\n"
    "klog() {\n"
    "\tt=$(date +%Y-%m-%dT%H:%M:%S%z)\n"
    "\tprintf '%s mdprofile: %s\\n' \"${t%??}:${t#\"${t%??}\"}\" \"$*\"\n"
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

char *mdp_boot_mem_close(FILE *f, char **buf)
{
	if (fclose(f) || !*buf) {
		free(*buf);
		return NULL;
	}
	return *buf;
}

static int write_script(const struct mdp_profile *p, const struct mdp_system *s,
			const struct mdp_boot_opts *o, const char *yaml, const char *auto_yaml,
			char **out, size_t *len)
{
	struct mdp_boot_file paths[MDP_BOOT_FILES];
	struct mdp_diags pd;
	size_t np = 0;
	const char *uuids[256];
	size_t n = mdp_boot_rule_uuids(p, uuids, sizeof(uuids) / sizeof(uuids[0]));
	char *buf = NULL;
	size_t blen = 0;
	FILE *f = open_memstream(&buf, &blen);

	if (!f)
		return -ENOMEM;
	/* the script's own place, for the keeper (checked by the caller's mdp_boot_paths too) */
	mdp_diags_init(&pd);
	mdp_boot_paths(p->name, o, paths, &np, &pd); /* np 0 when it fails */
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
	fputs(o->enable ? mark_fn : no_mark, f);
	fputs(body, f);
	if (o->enable) /* DSM's task runs it without an argument: start */
		fputs(keeps_auto(o)                  ? tail_enable_keep
		      : o->auto_profile && auto_yaml ? tail_enable_unit_auto
						     : tail_enable,
		      f);
	else
		fputs(o->target == MDP_BOOT_DSM ? tail_dsm : tail_rcd, f); /* systemd: start */
	if (!(*out = mdp_boot_mem_close(f, &buf)))
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
