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
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "pin.h"

/*
 * DSM, as boot persistence assumes it. Nothing here was checked on a
 * DiskStation from this project; the sources are Synology's Task
 * Scheduler help ("Create a triggered task": Control Panel > Task
 * Scheduler > Create > Triggered Task > User-defined script; event
 * Boot-up; the task runs as the user chosen, here root), and public
 * reports and scripts of DSM 6 and 7 owners:
 * - a task's script runs under bash with neither /usr/syno/bin nor
 *   /usr/syno/sbin on PATH, no HOME, an undefined working directory and
 *   stdin not a tty; when it ends its process group is killed, so the
 *   script works in the foreground only;
 * - a non-zero exit is reported as a failed task and can mail the owner;
 * - /etc/rc.local is ignored since DSM 6.1, /usr/local/etc/rc.d/NAME.sh
 *   is run with start at boot and stop at shutdown on DSM 6 (DSM 7:
 *   unconfirmed);
 * - DSM updates wipe /opt and /root, not the volumes: a root-owned 0755
 *   directory on a volume keeps the binary (shared folders carry ACLs and
 *   may look group/world-writable, which the profile check refuses);
 * - DSM writes dev.raid.speed_limit_min itself during boot, at an
 *   undocumented moment, hence the re-check;
 * - logger(1) is /usr/bin/logger (busybox on older releases);
 * - tasks can reportedly be created with `synowebapi --exec
 *   api=SYNO.Core.EventScheduler method=create version=1 ...` (DSM 7 with
 *   -s); unverified, so the generator only prints the GUI steps.
 * tests/cli/cases/5x-boot-*.sh run the scripts as such a task would
 * (env -i, cwd /, under bash and busybox ash).
 */
const struct mdp_boot_dsm mdp_boot_dsm = {
    .path = "/usr/syno/sbin:/usr/syno/bin:/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:"
	    "/sbin:/bin",
    .rcd_dir = "/usr/local/etc/rc.d",
    .home_dir = "/volume1/@mdprofile",
    .task_steps = "Control Panel > Task Scheduler > Create > Triggered Task > User-defined "
		  "script\n"
		  "General: Task: mdprofile, User: root, Event: Boot-up, Enabled\n"
		  "Task Settings: Run command: bash FILE (this script, on a volume)\n",
};

static const char *const target_names[MDP_BOOT_COUNT] = {"dsm", "rc.d"};

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
	return mdp_root_exists(r, "/etc.defaults/VERSION") ? MDP_BOOT_DSM : MDP_BOOT_RCD;
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
	size_t i;

	/* The value may hold the newline it is refused for: show it escaped-free. */
	for (i = 0; value[i] && i + 1 < sizeof(shown); i++)
		shown[i] = iscntrl((unsigned char)value[i]) ? '?' : value[i];
	shown[i] = '\0';
	mdp_diags_add(d, NULL, 0, 0, "cannot put %s '%s%s' into a boot script: %s", what, shown,
		      value[i] ? "..." : "", rule);
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
	if (!code_safe(p->name))
		refuse(d, "the profile name", p->name, code_rule);
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
	fprintf(f, "# services:  %s\n#\n",
		p->n_services ? "paused while applying, as the profile says"
			      : "none paused (generate with --with-services to pause them)");
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
	fputs(".\n# Every step goes to syslog (tag mdprofile) and to stdout. Exit code 0:\n"
	      "# everything was set; 1: a pinned array was not assembled in time (the\n"
	      "# rest was set); 2, 3, 4: those of 'mdprofile apply' (see mdprofile --help).\n#\n",
	      f);
}

static void header_remove(FILE *f, const struct mdp_boot_opts *o)
{
	if (o->target == MDP_BOOT_DSM)
		fputs("# Install: Control Panel > Task Scheduler > Create > Triggered Task >\n"
		      "#   User-defined script, user root, event Boot-up, run command: bash FILE\n"
		      "#   (FILE: this script, kept on a volume so DSM updates keep it).\n"
		      "# Remove:  delete that task in Task Scheduler, then this file.\n",
		      f);
	else
		fprintf(f,
			"# Install: as %s/mdprofile.sh, mode 0755, owned by root\n"
			"#   (run with start at boot; stop does nothing; status runs diff).\n"
			"# Remove:  delete that file.\n",
			mdp_boot_dsm.rcd_dir);
	fputs("# Values set stay until the next reboot or 'mdprofile revert'.\n\n", f);
}

static void settings(FILE *f, const struct mdp_profile *p, const struct mdp_boot_opts *o,
		     const char **uuids, size_t n)
{
	fprintf(f,
		"PATH='%s'\nLC_ALL=C\nLANG=C\nexport PATH LC_ALL LANG\ncd / || exit 2\n\n"
		"mdp='%s'\nname='%s'\nwait_s=%u\nrecheck_s=%u\nuuids='",
		mdp_boot_dsm.path, o->binary, p->name, o->wait_arrays, o->recheck_after);
	for (size_t i = 0; i < n; i++)
		fprintf(f, "%s%s", i ? " " : "", uuids[i]);
	fputs("'\n\n", f);
}

static void profile_fn(FILE *f, const char *text)
{
	char delim[64];

	delimiter(text, delim, sizeof(delim));
	fprintf(f, "# The profile this script applies.\nprofile() {\n\tcat <<'%s'\n%s%s%s\n}\n\n",
		delim, text, text[0] && text[strlen(text) - 1] != '\n' ? "\n" : "", delim);
}

/* The body: the same for every profile. */
static const char body[] =
    "log() {\n"
    "\tprintf '%s\\n' \"mdprofile: $*\"\n"
    "\tlogger -t mdprofile -- \"$*\" 2>/dev/null || :\n"
    "}\n\n"
    "# mdprofile CMD - with the profile on stdin; logs what it says, returns its exit code.\n"
    "run() {\n"
    "\tout=$(profile | \"$mdp\" \"$1\" --name \"$name\" - 2>&1)\n"
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
    "\trun apply\n"
    "\trc=$?\n"
    "\t[ \"$rc\" -eq 0 ] && return 0\n"
    "\tlog \"apply failed with exit code $rc\"\n"
    "\texit \"$rc\"\n"
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
    "\tlog \"done, exit code $result\"\n"
    "\texit \"$result\"\n"
    "}\n\n";

static const char tail_dsm[] = "main\n";

static const char tail_rcd[] =
    "case ${1:-start} in\n"
    "start) main ;;\n"
    "stop) log \"stop: nothing to undo, the kernel forgets these values\" ;;\n"
    "status) profile | \"$mdp\" diff --name \"$name\" - ;;\n"
    "*)\n"
    "\techo \"usage: $0 start|stop|status\" >&2\n"
    "\texit 2\n"
    "\t;;\n"
    "esac\n";

static void drop_services(struct mdp_profile *p)
{
	for (size_t i = 0; i < p->n_services; i++)
		free(p->services[i].name);
	free(p->services);
	p->services = NULL;
	p->n_services = 0;
}

static int write_script(const struct mdp_profile *p, const struct mdp_system *s,
			const struct mdp_boot_opts *o, const char *yaml, char **out, size_t *len)
{
	const char *uuids[256];
	size_t n = rule_uuids(p, uuids, sizeof(uuids) / sizeof(uuids[0]));
	char *buf = NULL;
	size_t blen = 0;
	FILE *f = open_memstream(&buf, &blen);

	if (!f)
		return -ENOMEM;
	header(f, p, s, o, uuids, n);
	header_what(f, o);
	header_remove(f, o);
	settings(f, p, o, uuids, n);
	profile_fn(f, yaml);
	fputs(body, f);
	fputs(o->target == MDP_BOOT_DSM ? tail_dsm : tail_rcd, f);
	if (fclose(f) || !buf) {
		free(buf);
		return -ENOMEM;
	}
	*out = buf;
	*len = blen;
	return 0;
}

int mdp_boot_script(struct mdp_profile *p, const struct mdp_system *s,
		    const struct mdp_boot_opts *o, char **out, size_t *len, struct mdp_diags *d)
{
	size_t errors = d->n, ylen;
	char *yaml;
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
	err = write_script(p, s, o, yaml, out, len);
	free(yaml);
	return err;
}
