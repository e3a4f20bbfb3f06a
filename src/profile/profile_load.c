/*
 * profile_load: profile files, the extends chain, merging, lookup by name
 * and the ownership check.
 *
 * A profile names at most one parent. The parent is looked for next to
 * the child first, then in the profile dirs in order, and loaded first;
 * then the child is laid over it: scalars the child sets win, the parent's
 * array rules come before the child's (later rules win per tunable, see
 * plan), services are the union with the child's entry (optional, only_on,
 * timeout) winning.
 * Files are identified by device and inode, so a cycle is found however
 * the files are named or linked.
 */
#include "profile.h"
#include "profile_int.h"
#include "mdp_base.h"

#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <dirent.h>
#include <sys/stat.h>
#include <unistd.h>

#define MAX_PROFILE_SIZE (1024 * 1024)
#define MAX_CHAIN        16

/* One file on the way down the extends chain, for cycle detection. */
struct frame {
	const struct frame *up;
	const char *name;
	dev_t dev;
	ino_t ino;
	bool has_id;                  /* false for a profile loaded from memory */
	const struct mdp_builtin *bi; /* a built-in profile: its identity */
};

struct loader {
	const struct mdp_profile_dirs *dirs;
	struct mdp_diags *d;
	/* src->check (mdp_profile_open): check every file read; warn NULL means refuse. */
	bool check;
	struct mdp_diags *warn;
};

static int open_checked(const char *path, struct mdp_diags *d);
static const struct mdp_builtin *builtin_of(const struct mdp_profile_dirs *dirs, const char *path);

static int load_path(const struct loader *L, const char *path, const struct frame *up,
		     struct mdp_profile *out);
static int load_builtin(const struct loader *L, const struct mdp_builtin *bi,
			const struct frame *up, struct mdp_profile *out);

void mdp_profile_free(struct mdp_profile *p)
{
	if (!p)
		return;
	for (size_t i = 0; i < p->n_rules; i++) {
		struct mdp_match *m = &p->rules[i].match;

		mdp_strs_free(m->names, m->n_names);
		mdp_strs_free(m->uuids, m->n_uuids);
		free(m->levels);
	}
	for (size_t i = 0; i < p->n_services; i++)
		free(p->services[i].name);
	mdp_maint_key_free(&p->maint);
	mdp_strs_free(p->chain, p->n_chain);
	mdp_strs_free(p->files, p->n_files);
	free(p->rules);
	free(p->services);
	free(p->name);
	free(p->path);
	free(p->description);
	memset(p, 0, sizeof(*p));
}

/* An argument that names a file rather than a profile. */
static bool is_path(const char *arg)
{
	size_t n = strlen(arg);

	return strchr(arg, '/') || (n >= 5 && !strcmp(arg + n - 5, ".yaml"));
}

/* "dir/reshape-fast.yaml" -> "reshape-fast" */
static char *name_of(const char *path)
{
	const char *base = strrchr(path, '/');
	size_t n;

	base = base ? base + 1 : path;
	n = strlen(base);
	if (n > 5 && !strcmp(base + n - 5, ".yaml"))
		n -= 5;
	return strndup(base, n);
}

static int init_profile(struct mdp_profile *p, const char *path, const char *name)
{
	memset(p, 0, sizeof(*p));
	p->files = calloc(1, sizeof(*p->files));
	p->chain = calloc(1, sizeof(*p->chain));
	if (!p->files || !p->chain)
		goto oom;
	p->files[0] = strdup(path);
	p->n_files = p->files[0] ? 1 : 0;
	p->chain[0] = name ? strdup(name) : name_of(path);
	p->n_chain = p->chain[0] ? 1 : 0;
	p->name = p->n_chain ? strdup(p->chain[0]) : NULL;
	p->path = strdup(path);
	if (!p->n_files || !p->n_chain || !p->name || !p->path)
		goto oom;
	return 0;
oom:
	mdp_profile_free(p);
	return -ENOMEM;
}

static void *grow(void *v, size_t n, size_t size)
{
	return n ? reallocarray(v, n, size) : v;
}

/* memcpy that allows an empty (NULL) source. */
static void copy(void *dst, const void *src, size_t n)
{
	if (n)
		memcpy(dst, src, n);
}

/* Move parent's pointer arrays in front of/behind the child's. */
static int merge_arrays(struct mdp_profile *c, struct mdp_profile *par)
{
	struct mdp_rule *rules = grow(NULL, c->n_rules + par->n_rules, sizeof(*rules));
	char **files = grow(c->files, c->n_files + par->n_files, sizeof(*files));
	char **chain;

	if (files)
		c->files = files;
	chain = grow(c->chain, c->n_chain + par->n_chain, sizeof(*chain));
	if (chain)
		c->chain = chain;
	if ((c->n_rules + par->n_rules && !rules) || !files || !chain) {
		free(rules);
		return -ENOMEM;
	}
	if (rules) {
		copy(rules, par->rules, par->n_rules * sizeof(*rules));
		copy(rules + par->n_rules, c->rules, c->n_rules * sizeof(*rules));
		free(c->rules);
		c->rules = rules;
		c->n_rules += par->n_rules;
		par->n_rules = 0;
	}
	copy(c->files + c->n_files, par->files, par->n_files * sizeof(*files));
	c->n_files += par->n_files;
	par->n_files = 0;
	copy(c->chain + c->n_chain, par->chain, par->n_chain * sizeof(*chain));
	c->n_chain += par->n_chain;
	par->n_chain = 0;
	return 0;
}

/*
 * Services: parent's order first; a name in both keeps the child's entry
 * whole: its optional, only_on and timeout (none: the default, not the
 * parent's).
 */
static int merge_services(struct mdp_profile *c, struct mdp_profile *par)
{
	struct mdp_service *v = grow(NULL, c->n_services + par->n_services, sizeof(*v));
	size_t n = 0;

	if (c->n_services + par->n_services && !v)
		return -ENOMEM;
	for (size_t i = 0; i < par->n_services; i++)
		v[n++] = par->services[i];
	for (size_t i = 0; i < c->n_services; i++) {
		size_t j = 0;
		while (j < par->n_services && strcmp(v[j].name, c->services[i].name))
			j++;
		if (j < par->n_services) {
			free(v[j].name);
			v[j] = c->services[i];
		} else {
			v[n++] = c->services[i];
		}
	}
	free(c->services);
	c->services = v;
	c->n_services = n;
	par->n_services = 0;
	return 0;
}

static int merge(struct mdp_profile *c, struct mdp_profile *par)
{
	int r = merge_arrays(c, par);

	if (!r)
		r = merge_services(c, par);
	if (r)
		return r;
	if (!c->description) {
		c->description = par->description;
		par->description = NULL;
	}
	if (c->budget.kind == MDP_BUDGET_UNSET)
		c->budget = par->budget;
	if (!c->goal.latency_ms)
		c->goal = par->goal;
	if (!c->maint.set) {
		c->maint = par->maint;
		memset(&par->maint, 0, sizeof(par->maint));
	}
	for (size_t t = 0; t < MDP_T_COUNT; t++)
		if (c->global[t].kind == MDP_S_UNSET)
			c->global[t] = par->global[t];
	return 0;
}

/* After merging, min <= max must hold for what will actually be written. */
static void check_limits(struct mdp_lctx *c, const struct mdp_profile *p, bool child_set_min)
{
	const struct mdp_setting *lo = &p->global[MDP_T_SPEED_LIMIT_MIN];
	const struct mdp_setting *hi = &p->global[MDP_T_SPEED_LIMIT_MAX];
	const struct mdp_pos *at = child_set_min ? &lo->pos : &hi->pos;
	struct mdp_lctx pc = *c;

	char slo[48], shi[48];

	if (!mdp_setting_crosses(lo, hi))
		return;
	pc.file = at->file;
	mdp_lctx_err(&pc, at->line, at->col,
		     "speed_limit_min %s is above speed_limit_max %s (one of them inherited)",
		     mdp_setting_bound_text(lo, slo, sizeof(slo)),
		     mdp_setting_bound_text(hi, shi, sizeof(shi)));
	c->nerr = pc.nerr;
	c->oom = pc.oom;
}

static int dir_of(const char *path, char *buf, size_t len)
{
	const char *slash = strrchr(path, '/');
	int n;

	if (!slash)
		n = snprintf(buf, len, ".");
	else if (slash == path)
		n = snprintf(buf, len, "/");
	else
		n = snprintf(buf, len, "%.*s", (int)(slash - path), path);
	return n < 0 || (size_t)n >= len ? -ENAMETOOLONG : 0;
}

/* Candidate dirs for a parent: the child's own dir (if a file), then dirs. */
static size_t parent_dirs(const struct loader *L, const char *child_dir, const char **v)
{
	size_t n = 0;

	if (child_dir)
		v[n++] = child_dir;
	for (size_t i = 0; L->dirs && i < L->dirs->n && i < 4; i++) {
		bool seen = false;
		for (size_t j = 0; j < n; j++)
			seen |= !strcmp(v[j], L->dirs->dirs[i]);
		if (!seen && L->dirs->dirs[i])
			v[n++] = L->dirs->dirs[i];
	}
	return n;
}

static int find_in(const char *const *dirs, size_t n, const char *name, char *path, size_t len,
		   struct stat *st)
{
	for (size_t i = 0; i < n; i++) {
		int k = snprintf(path, len, "%s/%s.yaml", dirs[i], name);
		if (k < 0 || (size_t)k >= len)
			continue;
		if (!stat(path, st) && S_ISREG(st->st_mode))
			return 0;
	}
	return -ENOENT;
}

/* "looked in a, b and the built-in profiles": where a name was looked for. */
static void where_looked(const struct mdp_profile_dirs *dirs, const char *const *v, size_t n,
			 char *buf, size_t len)
{
	bool bi = dirs && dirs->n_builtins;
	size_t k = 0;

	if (!n && !bi) {
		snprintf(buf, len, "no profile directories to look in");
		return;
	}
	k = (size_t)snprintf(buf, len, "looked in ");
	for (size_t i = 0; i < n && k < len; i++)
		k += (size_t)snprintf(buf + k, len - k, "%s%s", i ? ", " : "", v[i]);
	if (bi && k < len)
		snprintf(buf + k, len - k, "%sthe built-in profiles", n ? " and " : "");
}

static void not_found(const struct loader *L, struct mdp_lctx *c, const struct mdp_extends *ext,
		      const char *const *dirs, size_t n)
{
	char list[1024];

	where_looked(L->dirs, dirs, n, list, sizeof(list));
	mdp_lctx_err(c, ext->pos.line, ext->pos.col, "profile '%s' not found (%s)", ext->name,
		     list);
}

/* "a -> b -> a": from the repeated frame down to fr, then the repeat. */
static void cycle_error(struct mdp_lctx *c, const struct mdp_extends *ext, const struct frame *fr,
			const struct frame *rep)
{
	const char *names[MAX_CHAIN + 1];
	char msg[1024];
	size_t n = 0, k;

	for (const struct frame *f = fr; f && n < MAX_CHAIN; f = f->up) {
		names[n++] = f->name;
		if (f == rep)
			break;
	}
	k = (size_t)snprintf(msg, sizeof(msg), "extends cycle: ");
	while (n-- && k < sizeof(msg))
		k += (size_t)snprintf(msg + k, sizeof(msg) - k, "%s -> ", names[n]);
	if (k < sizeof(msg))
		snprintf(msg + k, sizeof(msg) - k, "%s", rep->name);
	mdp_lctx_err(c, ext->pos.line, ext->pos.col, "%s", msg);
}

static int load_parent(const struct loader *L, struct mdp_lctx *c, const struct frame *fr,
		       const char *child_dir, const struct mdp_extends *ext,
		       struct mdp_profile *par)
{
	const char *dirs[5];
	size_t n = parent_dirs(L, child_dir, dirs), depth = 0;
	const struct mdp_builtin *bi = NULL;
	char path[4096];
	struct stat st;

	if (find_in(dirs, n, ext->name, path, sizeof(path), &st)) {
		snprintf(path, sizeof(path), MDP_BUILTIN_PREFIX "%s", ext->name);
		if (!(bi = builtin_of(L->dirs, path))) {
			not_found(L, c, ext, dirs, n);
			return c->oom ? -ENOMEM : -EINVAL;
		}
	}
	for (const struct frame *f = fr; f; f = f->up, depth++) {
		if ((bi && f->bi == bi) ||
		    (!bi && f->has_id && f->dev == st.st_dev && f->ino == st.st_ino)) {
			cycle_error(c, ext, fr, f);
			return c->oom ? -ENOMEM : -EINVAL;
		}
	}
	if (depth >= MAX_CHAIN) {
		mdp_lctx_err(c, ext->pos.line, ext->pos.col,
			     "extends chain is too deep (more than %d profiles)", MAX_CHAIN);
		return c->oom ? -ENOMEM : -EINVAL;
	}
	return bi ? load_builtin(L, bi, fr, par) : load_path(L, path, fr, par);
}

/* Parse one text, then resolve and merge its parent, if any. */
static int load_text(const struct loader *L, const struct frame *fr, const char *path,
		     const char *child_dir, const char *data, size_t len, struct mdp_profile *out)
{
	struct mdp_profile p, par;
	struct mdp_extends ext = {0};
	struct mdp_lctx c = {.d = L->d};
	bool child_min;
	int r;

	r = init_profile(&p, path, fr->name);
	if (r)
		return r;
	c.file = p.files[0];
	r = mdp_profile_parse_text(&c, data, len, &p, &ext);
	if (!r && ext.name) {
		child_min = p.global[MDP_T_SPEED_LIMIT_MIN].kind != MDP_S_UNSET;
		r = load_parent(L, &c, fr, child_dir, &ext, &par);
		if (!r) {
			r = merge(&p, &par);
			mdp_profile_free(&par);
		}
		if (!r)
			check_limits(&c, &p, child_min);
		if (!r && (c.oom || c.nerr))
			r = c.oom ? -ENOMEM : -EINVAL;
	}
	free(ext.name);
	if (r) {
		mdp_profile_free(&p);
		return r;
	}
	*out = p;
	return 0;
}

static int read_fd(int fd, char **data, size_t *len)
{
	size_t cap = 4096, n = 0;
	char *buf = malloc(cap);

	if (!buf)
		return -ENOMEM;
	for (;;) {
		ssize_t k;
		if (n == cap) {
			/* A byte buffer doubling up to MAX_PROFILE_SIZE, not an array: realloc. */
			char *nb = cap >= MAX_PROFILE_SIZE ? NULL : realloc(buf, cap * 2);
			if (!nb) {
				free(buf);
				return cap >= MAX_PROFILE_SIZE ? -EFBIG : -ENOMEM;
			}
			buf = nb;
			cap *= 2;
		}
		k = read(fd, buf + n, cap - n);
		if (k < 0 && errno == EINTR)
			continue;
		if (k < 0) {
			int e = -errno;
			free(buf);
			return e;
		}
		if (!k)
			break;
		n += (size_t)k;
	}
	*data = buf;
	*len = n;
	return 0;
}

/*
 * Open a profile to read. Checked (a root-run command): through
 * open_checked(), so the descriptor read is the one checked; a refusal is
 * an error, or with L->warn a warning and the file is opened as usual.
 */
static int open_profile(const struct loader *L, const char *path)
{
	int fd;

	if (L->check) {
		fd = open_checked(path, L->warn ? L->warn : L->d);
		if (fd >= 0 || fd != -EPERM || !L->warn)
			return fd;
	}
	/* O_NONBLOCK: a FIFO is refused below, not waited on. */
	fd = open(path, O_RDONLY | O_CLOEXEC | O_NOCTTY | O_NONBLOCK);
	return fd < 0 ? -errno : fd;
}

static int read_profile(const struct loader *L, const char *path, char **data, size_t *len,
			struct stat *st)
{
	struct mdp_diags *d = L->d;
	int fd = open_profile(L, path);
	int r;

	if (fd == -EPERM && L->check)
		return -EPERM; /* the reason is in d */
	if (fd < 0) {
		r = fd;
		mdp_diags_add(d, path, 0, 0, "cannot open profile: %s", strerror(-r));
		return r == -ENOMEM ? r : -EINVAL;
	}
	if (fstat(fd, st) || !S_ISREG(st->st_mode)) {
		close(fd);
		mdp_diags_add(d, path, 0, 0, "cannot read profile: not a regular file");
		return -EINVAL;
	}
	r = read_fd(fd, data, len);
	close(fd);
	if (r == -EFBIG)
		mdp_diags_add(d, path, 0, 0, "profile is too large (more than 1 MiB)");
	else if (r && r != -ENOMEM)
		mdp_diags_add(d, path, 0, 0, "cannot read profile: %s", strerror(-r));
	return r == -ENOMEM ? r : r ? -EINVAL : 0;
}

static int load_path(const struct loader *L, const char *path, const struct frame *up,
		     struct mdp_profile *out)
{
	struct frame fr = {.up = up, .has_id = true};
	char dir[4096], *data = NULL, *name;
	struct stat st;
	size_t len = 0;
	int r;

	r = dir_of(path, dir, sizeof(dir));
	if (r) {
		mdp_diags_add(L->d, path, 0, 0, "profile path is too long");
		return -EINVAL;
	}
	r = read_profile(L, path, &data, &len, &st);
	if (r)
		return r;
	name = name_of(path);
	if (!name) {
		free(data);
		return -ENOMEM;
	}
	fr.name = name;
	fr.dev = st.st_dev;
	fr.ino = st.st_ino;
	r = load_text(L, &fr, path, dir, data, len, out);
	free(name);
	free(data);
	return r;
}

/* A built-in has no directory of its own: its parent is found by name only. */
static int load_builtin(const struct loader *L, const struct mdp_builtin *bi,
			const struct frame *up, struct mdp_profile *out)
{
	struct frame fr = {.up = up, .name = bi->name, .bi = bi};
	char path[256];

	snprintf(path, sizeof(path), MDP_BUILTIN_PREFIX "%s", bi->name);
	return load_text(L, &fr, path, NULL, bi->text, bi->len, out);
}

bool mdp_profile_is_builtin(const char *path)
{
	size_t n = strlen(MDP_BUILTIN_PREFIX);

	return !strncmp(path, MDP_BUILTIN_PREFIX, n) && !is_path(path);
}

/* The built-in profile a path names (MDP_BUILTIN_PREFIX NAME), or NULL. */
static const struct mdp_builtin *builtin_of(const struct mdp_profile_dirs *dirs, const char *path)
{
	const char *name = path + strlen(MDP_BUILTIN_PREFIX);

	if (!dirs || !mdp_profile_is_builtin(path))
		return NULL;
	for (size_t i = 0; i < dirs->n_builtins; i++)
		if (!strcmp(dirs->builtins[i].name, name))
			return &dirs->builtins[i];
	return NULL;
}

/* Sort what this load added so messages come out in file order. */
static int finish(struct mdp_diags *d, size_t first, int r)
{
	if (r && d->n > first) {
		/* Only now is d->v sure to be an array: d->v + first on NULL is undefined. */
		struct mdp_diags view = {.v = d->v + first, .n = d->n - first, .cap = d->n - first};
		mdp_diags_sort(&view);
	}
	if (r == -ENOMEM && d->n == first)
		mdp_diags_add(d, NULL, 0, 0, "out of memory while loading profile");
	return r;
}

/* The profile at path (a file, or a built-in's name), its extends chain as L says. */
static int load_top(const struct loader *L, const char *path, struct mdp_profile *out)
{
	const struct mdp_builtin *bi = builtin_of(L->dirs, path);
	size_t first = L->d->n;

	if (bi)
		return finish(L->d, first, load_builtin(L, bi, NULL, out));
	return finish(L->d, first, load_path(L, path, NULL, out));
}

/* A profile's text, named name, its extends chain as L says. */
static int load_top_mem(const struct loader *L, const char *name, const char *data, size_t len,
			struct mdp_profile *out)
{
	struct frame fr = {.has_id = false};
	size_t first = L->d->n;
	char *n = name_of(name ? name : "<memory>");
	int r;

	if (!n)
		return -ENOMEM;
	fr.name = n;
	r = load_text(L, &fr, name ? name : "<memory>", NULL, data, len, out);
	free(n);
	return finish(L->d, first, r);
}

int mdp_profile_load(const struct mdp_profile_dirs *dirs, const char *path, struct mdp_profile *out,
		     struct mdp_diags *d)
{
	const struct loader L = {.dirs = dirs, .d = d};

	return load_top(&L, path, out);
}

int mdp_profile_load_mem(const struct mdp_profile_dirs *dirs, const char *name, const char *data,
			 size_t len, struct mdp_profile *out, struct mdp_diags *d)
{
	const struct loader L = {.dirs = dirs, .d = d};

	return load_top_mem(&L, name, data, len, out);
}

int mdp_profile_open(const struct mdp_profile_dirs *dirs, const struct mdp_profile_src *src,
		     struct mdp_profile *out, struct mdp_diags *d)
{
	const struct loader L = {.dirs = dirs, .d = d, .check = src->check, .warn = src->warn};
	char path[4096];
	int err;

	if (src->text)
		return load_top_mem(&L, src->arg, src->text, src->len, out);
	if ((err = mdp_profile_find(dirs, src->arg, path, sizeof(path), d)))
		return err;
	return load_top(&L, path, out);
}

/* Add the profile names in dir (NAME.yaml) to *v, for a suggestion; best effort. */
static void names_in(const char *dir, char ***v, size_t *n)
{
	DIR *dp = opendir(dir);
	struct dirent *de;

	while (dp && (de = readdir(dp))) {
		size_t len = strlen(de->d_name);
		if (len <= 5 || strcmp(de->d_name + len - 5, ".yaml"))
			continue;
		if (mdp_grow(v, *n, sizeof(**v)))
			break;
		if (((*v)[*n] = strndup(de->d_name, len - 5)))
			(*n)++;
	}
	if (dp)
		closedir(dp);
}

/* " (did you mean 'x'?)" for a name found nowhere, or "". */
static void did_you_mean(const struct mdp_profile_dirs *dirs, const char *const *v, size_t nv,
			 const char *arg, char *buf, size_t len)
{
	char **names = NULL;
	const char *near;
	size_t n = 0;

	buf[0] = '\0';
	for (size_t i = 0; i < nv; i++)
		names_in(v[i], &names, &n);
	for (size_t i = 0; dirs && i < dirs->n_builtins; i++) {
		if (mdp_grow(&names, n, sizeof(*names)))
			break;
		if ((names[n] = strdup(dirs->builtins[i].name)))
			n++;
	}
	if ((near = mdp_ident_suggest(arg, (const char *const *)names, n)))
		snprintf(buf, len, "; did you mean '%s'?", near);
	mdp_strs_free(names, n);
}

int mdp_profile_find(const struct mdp_profile_dirs *dirs, const char *arg, char *path, size_t len,
		     struct mdp_diags *d)
{
	const char *v[4];
	char buf[4096], list[1024];
	size_t n = 0;
	struct stat st;

	if (is_path(arg)) {
		if (strlen(arg) >= len)
			return -ENAMETOOLONG;
		memcpy(path, arg, strlen(arg) + 1);
		return 0;
	}
	for (size_t i = 0; dirs && i < dirs->n && i < 4; i++)
		if (dirs->dirs[i])
			v[n++] = dirs->dirs[i];
	if (!mdp_ident_profile_name_ok(arg)) {
		mdp_diags_add(d, NULL, 0, 0, "invalid profile name '%s'", arg);
		return -EINVAL;
	}
	if (!find_in(v, n, arg, buf, sizeof(buf), &st)) {
		if (strlen(buf) >= len)
			return -ENAMETOOLONG;
		memcpy(path, buf, strlen(buf) + 1);
		return 0;
	}
	snprintf(buf, sizeof(buf), MDP_BUILTIN_PREFIX "%s", arg);
	if (builtin_of(dirs, buf)) {
		if (strlen(buf) >= len)
			return -ENAMETOOLONG;
		memcpy(path, buf, strlen(buf) + 1);
		return 0;
	}
	where_looked(dirs, v, n, list, sizeof(list));
	did_you_mean(dirs, v, n, arg, buf, sizeof(buf));
	mdp_diags_add(d, NULL, 0, 0, "profile '%s' not found%s (%s)", arg, buf, list);
	return -ENOENT;
}

static int check_stat(const char *path, const struct stat *st, const char *what,
		      struct mdp_diags *d)
{
	int r = 0;

	if (st->st_mode & (S_IWGRP | S_IWOTH)) {
		mdp_diags_add(d, path, 0, 0, "refusing %s: group/world-writable (mode %04o)", what,
			      (unsigned)(st->st_mode & 07777));
		r = -EPERM;
	}
	if (st->st_uid != 0) {
		mdp_diags_add(d, path, 0, 0, "refusing %s: not owned by root (uid %u)", what,
			      (unsigned)st->st_uid);
		r = -EPERM;
	}
	return r;
}

/* "/a/b" of path (absolute) up to end, for a message. */
static void prefix_of(const char *path, size_t end, char *buf, size_t cap)
{
	snprintf(buf, cap, "%.*s", end ? (int)end : 1, end ? path : "/");
}

/*
 * One directory on the way to a profile (st its fstat): a symbolic link,
 * another's, or writable by others, it could be swapped. A sticky one (such
 * as /tmp) above the profile's own directory passes: only the owner of an
 * entry can rename it there, and every entry below is checked to be root's.
 */
static int check_dir(const char *dir, const struct stat *st, bool own_dir, struct mdp_diags *d)
{
	struct stat relaxed = *st;

	if (S_ISLNK(st->st_mode)) {
		mdp_diags_add(d, dir, 0, 0, "refusing profile directory: it is a symbolic link");
		return -EPERM;
	}
	if (!S_ISDIR(st->st_mode)) {
		mdp_diags_add(d, dir, 0, 0, "refusing profile directory: not a directory");
		return -EPERM;
	}
	if (!own_dir && (st->st_mode & S_ISVTX))
		relaxed.st_mode &= ~(mode_t)(S_IWGRP | S_IWOTH);
	return check_stat(dir, &relaxed, "profile directory", d);
}

/* Open the component of abs at [i, end) from *dir, never following a link. */
static int walk_step(const char *abs, size_t i, size_t end, bool last, bool own_dir, int *dir,
		     struct mdp_diags *d)
{
	char name[NAME_MAX + 1], where[4096];
	struct stat st;
	int fd, r;

	if (end - i > NAME_MAX)
		return -ENAMETOOLONG;
	memcpy(name, abs + i, end - i);
	name[end - i] = '\0';
	fd = openat(*dir, name,
		    last ? O_RDONLY | O_NOFOLLOW | O_CLOEXEC | O_NONBLOCK | O_NOCTTY
			 : O_PATH | O_NOFOLLOW | O_CLOEXEC);
	if (fd < 0) {
		r = -errno;
		if (r != -ELOOP)
			return r; /* the caller says it cannot open the profile */
		mdp_diags_add(d, abs, 0, 0, "refusing profile: it is a symbolic link");
		return -EPERM;
	}
	close(*dir);
	*dir = fd;
	if (fstat(fd, &st))
		return -errno;
	if (last) {
		if (!S_ISREG(st.st_mode)) {
			mdp_diags_add(d, abs, 0, 0, "refusing profile: not a regular file");
			return -EPERM;
		}
		return check_stat(abs, &st, "profile", d);
	}
	prefix_of(abs, end, where, sizeof(where));
	return check_dir(where, &st, own_dir, d);
}

/*
 * As doas does for its config: a profile decides what root writes into
 * the kernel, so only root may be able to change it, or swap it or any
 * directory on its way. Each component is opened from the one before
 * without following links and checked on that descriptor; the profile's
 * own descriptor is returned, to be read. -EPERM (or -errno) with a diag.
 */
static int open_checked(const char *path, struct mdp_diags *d)
{
	char abs[4096], cwd[4096], where[2];
	struct stat st;
	size_t i = 0, last_slash;
	int dir, r;

	if (path[0] == '/')
		r = snprintf(abs, sizeof(abs), "%s", path);
	else
		r = getcwd(cwd, sizeof(cwd)) ? snprintf(abs, sizeof(abs), "%s/%s", cwd, path) : -1;
	if (r < 0 || (size_t)r >= sizeof(abs)) {
		mdp_diags_add(d, path, 0, 0, "refusing profile: path too long");
		return -ENAMETOOLONG;
	}
	last_slash = (size_t)(strrchr(abs, '/') - abs);
	if ((dir = open("/", O_PATH | O_DIRECTORY | O_CLOEXEC)) < 0)
		return -errno;
	prefix_of(abs, 0, where, sizeof(where));
	r = fstat(dir, &st) ? -errno : check_dir(where, &st, last_slash == 0, d);
	while (!r) {
		i += strspn(abs + i, "/");
		size_t end = i + strcspn(abs + i, "/");
		if (!abs[i]) {
			r = -EPERM;
			mdp_diags_add(d, path, 0, 0, "refusing profile: not a regular file");
			break;
		}
		r = walk_step(abs, i, end, !abs[end], end == last_slash, &dir, d);
		if (!r && !abs[end])
			return dir;
		i = end;
	}
	close(dir);
	return r;
}

int mdp_profile_check_perms(const char *path, struct mdp_diags *d)
{
	int fd;

	/* Compiled into the binary: as safe as the binary itself. */
	if (mdp_profile_is_builtin(path))
		return 0;
	if ((fd = open_checked(path, d)) < 0) {
		if (fd != -EPERM)
			mdp_diags_add(d, path, 0, 0, "refusing profile: %s", strerror(-fd));
		return fd;
	}
	close(fd);
	return 0;
}
