/*
 * profile_list: the profiles lookup can find, for list (profile_list.h).
 * The profile directories are the host's, as for every profile file
 * (profile_load.c): a --root tree holds the system, not the profiles.
 */
#include "profile_list.h"

#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "mdp_base.h"

static int cmp_str(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* Names of *.yaml in dir, sorted; best effort (a name that runs out of memory is left out). */
static void dir_profiles(const char *dir, char ***out, size_t *n)
{
	DIR *d = opendir(dir);
	struct dirent *de;
	char **v = NULL;
	size_t cnt = 0;

	*out = NULL;
	*n = 0;
	if (!d)
		return; /* a missing directory simply holds no profiles */
	while ((de = readdir(d))) {
		size_t len = strlen(de->d_name);
		if (len <= 5 || strcmp(de->d_name + len - 5, ".yaml") || de->d_name[0] == '.')
			continue;
		if (mdp_grow(&v, cnt, sizeof(*v)))
			break;
		if (!(v[cnt] = strndup(de->d_name, len - 5)))
			break;
		cnt++;
	}
	closedir(d);
	qsort(v, cnt, sizeof(*v), cmp_str);
	*out = v;
	*n = cnt;
}

/* Add name (taken) unless an earlier place had it: the first one shadows later ones. */
static int add_found(struct mdp_profile_list *l, char *name, const char *path, const char *source)
{
	struct mdp_profile_entry *e;

	for (size_t i = 0; i < l->n; i++)
		if (!strcmp(l->v[i].name, name)) {
			free(name);
			return 0;
		}
	if (!(e = mdp_push(&l->v, &l->n, sizeof(*l->v)))) {
		free(name);
		return -ENOMEM;
	}
	e->name = name;
	e->source = source;
	snprintf(e->path, sizeof(e->path), "%s", path);
	return 0;
}

/* A file whose name is no profile name: kept for the caller's warning. */
static void add_skipped(struct mdp_profile_list *l, const char *path)
{
	char *dup = strdup(path);

	if (dup && !mdp_grow(&l->skipped, l->n_skipped, sizeof(*l->skipped)))
		l->skipped[l->n_skipped++] = dup;
	else
		free(dup);
}

/* Every profile name in the dirs, then the built-ins, first place first. */
static int find_all(const struct mdp_profile_dirs *dirs, const char *const *sources,
		    struct mdp_profile_list *l)
{
	char path[PATH_MAX + 64];
	int err = 0;

	for (size_t i = 0; i < dirs->n; i++) {
		char **names;
		size_t n;
		dir_profiles(dirs->dirs[i], &names, &n);
		for (size_t k = 0; k < n; k++) {
			snprintf(path, sizeof(path), "%s/%s.yaml", dirs->dirs[i], names[k]);
			if (!mdp_ident_profile_name_ok(names[k])) {
				add_skipped(l, path);
				free(names[k]);
			} else if (!err) {
				err = add_found(l, names[k], path, sources[i]);
			} else {
				free(names[k]);
			}
		}
		free(names);
	}
	for (size_t i = 0; !err && i < dirs->n_builtins; i++) {
		const char *name = dirs->builtins[i].name;
		char *dup = strdup(name);
		snprintf(path, sizeof(path), MDP_BUILTIN_PREFIX "%s", name);
		err = dup ? add_found(l, dup, path, "built-in") : -ENOMEM;
	}
	return err;
}

int mdp_profile_list(const struct mdp_profile_dirs *dirs, const char *const *sources,
		     struct mdp_profile_list *l)
{
	int err;

	memset(l, 0, sizeof(*l));
	if ((err = find_all(dirs, sources, l)))
		return err;
	for (size_t i = 0; i < l->n; i++) {
		struct mdp_profile_entry *e = &l->v[i];
		struct mdp_profile p = {0};
		struct mdp_diags d;

		mdp_diags_init(&d);
		e->valid = mdp_profile_load(dirs, e->path, &p, &d) == 0;
		mdp_diags_free(&d);
		e->description = strdup(e->valid && p.description ? p.description : "");
		if (e->valid)
			mdp_profile_free(&p);
		if (!e->description)
			return -ENOMEM;
	}
	return 0;
}

void mdp_profile_list_free(struct mdp_profile_list *l)
{
	for (size_t i = 0; i < l->n; i++) {
		free(l->v[i].name);
		free(l->v[i].description);
	}
	free(l->v);
	mdp_strs_free(l->skipped, l->n_skipped);
	memset(l, 0, sizeof(*l));
}
