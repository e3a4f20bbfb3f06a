/*
 * boot_units: where boot persistence's files go and, for systemd, what the
 * oneshot unit, the watcher's unit and the udev rule say (boot.h).
 */
#include "boot.h"

#include <errno.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "boot_int.h"
#include "mdp_base.h"

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
/* How the package's units begin (systemd/mdprofile.service, mdprofile-auto.service). */
#define HEAD_PKG "# mdprofile: the packaged "

/*
 * Where the installed units are: a package's (merged /usr's place, Debian 12's own), or make
 * install's default UNITDIR; each is on systemd's own search path.
 */
static const char *const pkg_dirs[] = {"/usr/lib/systemd/system", "/lib/systemd/system",
				       "/usr/local/lib/systemd/system"};

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
	return mdp_boot_mem_close(f, &buf);
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
	return mdp_boot_mem_close(f, &buf);
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
	return mdp_boot_mem_close(f, &buf);
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
		mdp_boot_refuse(d, "the profile name", name, MDP_IDENT_PROFILE_NAME_RULE);
		return -EINVAL;
	}
	base_name(name, o, base, sizeof(base));
	if (o->packaged && o->enable && o->target == MDP_BOOT_SYSTEMD) {
		/* the package's units run the script from its fixed place: no unit here */
		if (file_at(&f[0], "script", HEAD_SCRIPT, 0755, d, "%s", MDP_BOOT_PKG_SCRIPT) ||
		    file_at(&f[1], "udev rule", HEAD_RULE, 0644, d, UDEV_DIR "/90-%s.rules", base))
			return -EINVAL;
		*n = 2;
		return 0;
	}
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
	size_t nu = mdp_boot_rule_uuids(p, uuids, sizeof(uuids) / sizeof(uuids[0]));
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
	if (o->packaged && o->enable && o->target == MDP_BOOT_SYSTEMD) {
		if (nu && !(f[1].text = rule_text(p->name, base, o, uuids, nu, &f[1].len)))
			return -ENOMEM;
		*n -= !nu; /* no UUID pinned, no rule */
		return 0;
	}
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

int mdp_boot_packaged_unit(const struct mdp_root *r, const char *unit, char *where, size_t cap)
{
	struct mdp_boot_file f = {.what = "packaged unit", .head = HEAD_PKG};
	int k;

	for (size_t i = 0; i < sizeof(pkg_dirs) / sizeof(pkg_dirs[0]); i++) {
		snprintf(f.sys, sizeof(f.sys), "%s/%s", pkg_dirs[i], unit);
		if ((k = mdp_boot_file_intact(r, &f)) != -ENOENT) {
			snprintf(where, cap, "%s", f.sys);
			return k;
		}
	}
	snprintf(where, cap, "%s", unit);
	return -ENOENT;
}

bool mdp_boot_packaged(const struct mdp_root *r)
{
	char where[PATH_MAX];

	return mdp_boot_packaged_unit(r, MDP_BOOT_ENABLED ".service", where, sizeof(where)) == 1 &&
	       mdp_boot_packaged_unit(r, MDP_BOOT_ENABLED "-auto.service", where, sizeof(where)) ==
		   1;
}
