/*
 * cli_load: where profiles are found (the directories in cli->dirs) and how
 * a command loads one: from a file, by name or from stdin, with the checks
 * a root-run tool owes the files it takes orders from (cli.h).
 */
#include "cli.h"

#include <errno.h>
#include <libgen.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "builtin.h"

/*
 * Shipped profiles: next to the binary (build tree), ../share (relocated), and DATADIR only
 * for the binary installed in BINDIR (or when /proc cannot say where this one is). A copy
 * elsewhere (the README's install, a newer build beside a packaged one) reads its own
 * built-ins, not an installed package's files of another version: the directory named is
 * then "profiles" beside it, where it looks.
 */
static void shipped_dir(char *buf, size_t len)
{
	char exe[PATH_MAX], cand[PATH_MAX + 64];
	ssize_t n = readlink("/proc/self/exe", exe, sizeof(exe) - 1);

	if (n > 0) {
		exe[n] = '\0';
		char *dir = dirname(exe), up[PATH_MAX + 64];
		bool installed = strcmp(dir, MDP_BINDIR) == 0;
		snprintf(cand, sizeof(cand), "%s/profiles", dir);
		/* DIR/../share, said without "..": /usr/share/..., not /usr/bin/../share/... */
		snprintf(up, sizeof(up), "%s/share/mdprofile/profiles", dirname(dir));
		if (access(cand, R_OK | X_OK) == 0)
			goto found;
		if (access(up, R_OK | X_OK) == 0) {
			snprintf(cand, sizeof(cand), "%s", up);
			goto found;
		}
		if (!installed)
			goto found; /* "profiles" beside it: where it looked */
	}
	snprintf(cand, sizeof(cand), "%s/profiles", MDP_DATADIR);
found:
	snprintf(buf, len, "%s", cand);
}

void cli_setup_dirs(struct cli *cli, const char *user_dir)
{
	size_t n = 0;

	if (user_dir) {
		cli->dir_source[n] = "--profiles";
		cli->dirs.dirs[n++] = user_dir;
	}
	if (!mdp_root_path(&cli->root, MDP_SYSCONFDIR "/mdprofile/profiles", cli->dir_buf[0],
			   sizeof(cli->dir_buf[0]))) {
		cli->dir_source[n] = "etc";
		cli->dirs.dirs[n++] = cli->dir_buf[0];
	}
	shipped_dir(cli->dir_buf[1], sizeof(cli->dir_buf[1]));
	cli->dir_source[n] = "shipped";
	cli->dirs.dirs[n++] = cli->dir_buf[1];
	cli->dirs.n = n;
	cli->dirs.builtins = cli_builtins;
	cli->dirs.n_builtins = cli_n_builtins;
}

/* Larger than any profile the loader takes from a file. */
#define STDIN_MAX (1024 * 1024)

/*
 * "-": the profile text comes from stdin, as a boot script feeds its
 * pinned profile to apply. It has no file, so there is no ownership to
 * check (whoever can write to our stdin already runs us); its extends
 * parents are files, checked as src says.
 */
static int load_stdin(struct cli *cli, struct mdp_profile_src *src, struct mdp_profile *p,
		      struct mdp_diags *d)
{
	char *buf = malloc(STDIN_MAX + 1);
	size_t n = 0, k;
	int err, e;

	if (!buf)
		return -ENOMEM;
	while (n <= STDIN_MAX && (k = fread(buf + n, 1, STDIN_MAX + 1 - n, stdin)) > 0)
		n += k;
	if (ferror(stdin)) {
		e = errno ? errno : EIO;
		err = -e;
		mdp_diags_add(d, MDP_STDIN_NAME, 0, 0, "cannot read the profile from stdin: %s",
			      strerror(e));
	} else if (n > STDIN_MAX) {
		err = -EFBIG;
		mdp_diags_add(d, MDP_STDIN_NAME, 0, 0,
			      "the profile on stdin is larger than %d bytes", STDIN_MAX);
	} else {
		src->arg = cli->stdin_name ? cli->stdin_name : MDP_STDIN_NAME;
		src->text = buf;
		src->len = n;
		err = mdp_profile_open(&cli->dirs, src, p, d);
	}
	free(buf);
	return err;
}

const char *cli_take_name(void *opts, void *cli, const char *arg)
{
	(void)opts;
	if (!mdp_ident_profile_name_ok(arg))
		return "a profile name is letters, digits, '.', '_' and '-', not starting with '.' "
		       "or '-', at most 64";
	((struct cli *)cli)->stdin_name = arg;
	return NULL;
}

/*
 * A root-run tool must not take orders from a file others can edit: a
 * command that changes the system refuses it. One that only reads warns
 * and reads it anyway, so an owner can still look at such a profile.
 */
static bool perms_matter(const struct cli *cli)
{
	return geteuid() == 0 && mdp_root_is_real(&cli->root);
}

/* The refusals a command that only reads shrugs off, as warnings. */
static void perms_warn(struct cli *cli, const struct mdp_diags *w)
{
	static const char *const cuts[][2] = {
	    {"refusing profile: ", ""}, {"refusing profile directory: ", "profile directory: "}};
	char line[1024], *cut;

	for (size_t i = 0; i < w->n; i++) {
		mdp_diag_format(&w->v[i], line, sizeof(line));
		for (size_t k = 0; k < 2; k++) {
			size_t n = strlen(cuts[k][0]), m = strlen(cuts[k][1]);
			if (!(cut = strstr(line, cuts[k][0])))
				continue;
			memmove(cut + m, cut + n, strlen(cut + n) + 1);
			memcpy(cut, cuts[k][1], m);
		}
		cli_err(cli, "warning: %s; read anyway; apply refuses it", line);
	}
}

/*
 * As root on the real root every file of the profile, and the parents it
 * extends, is checked on the descriptor it is read from
 * (mdp_profile_open with check): nothing can be swapped between the check and
 * the read. A command that only reads is warned.
 */
int cli_load_profile(struct cli *cli, const char *arg, struct mdp_profile *p)
{
	struct mdp_diags d, w;
	struct mdp_profile_src src = {
	    .arg = arg, .check = perms_matter(cli), .warn = cli->mutating ? NULL : &w};
	int err;

	mdp_diags_init(&d);
	mdp_diags_init(&w);
	err = !strcmp(arg, "-") ? load_stdin(cli, &src, p, &d)
				: mdp_profile_open(&cli->dirs, &src, p, &d);
	perms_warn(cli, &w);
	mdp_diags_free(&w);
	if (err && !d.n)
		mdp_diags_add(&d, arg, 0, 0, "cannot load profile: %s", strerror(-err));
	cli_print_diags(cli, &d);
	mdp_diags_free(&d);
	return err ? MDP_EXIT_USAGE : 0;
}
