/* probe: see probe.h. */
#include "probe.h"
#include "explain_int.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>

const struct mdp_xfinding *mdp_probe_pick(const struct mdp_xreport *r)
{
	for (size_t i = 0; i < r->n_findings; i++)
		if (r->findings[i].rec != MDP_XR_NONE && r->findings[i].gain == MDP_XG_UNKNOWN)
			return &r->findings[i];
	return NULL;
}

int mdp_probe_setting(const struct mdp_xfinding *f, struct mdp_probe_setting *out)
{
	const char *slash;
	size_t dl;

	if (!f || f->rec == MDP_XR_NONE)
		return -ENOENT;
	if (f->rec == MDP_XR_PROFILE)
		return -EMEDIUMTYPE;
	slash = strchr(f->rec_name, '/');
	if (!slash || !f->rec_value[0] || (dl = (size_t)(slash - f->rec_name)) == 0 ||
	    dl >= sizeof(out->dev) || strlen(f->rec_value) >= sizeof(out->value))
		return -EINVAL;
	for (int t = 0; t < MDP_T_COUNT; t++) {
		const struct mdp_tunable_info *ti = mdp_tunable_info((enum mdp_tunable)t);
		if (ti->scope != MDP_SCOPE_ARRAY || strcmp(ti->key, slash + 1))
			continue;
		out->t = (enum mdp_tunable)t;
		memcpy(out->dev, f->rec_name, dl);
		out->dev[dl] = '\0';
		snprintf(out->value, sizeof(out->value), "%s", f->rec_value);
		return 0;
	}
	return -EINVAL;
}

int mdp_probe_choose(const struct mdp_xreport *reps, size_t n, size_t *rep, size_t *finding,
		     struct mdp_probe_setting *set)
{
	bool running = false;

	for (size_t i = 0; i < n; i++) {
		const struct mdp_xfinding *f;
		if (!strcmp(reps[i].action, "none"))
			continue;
		running = true;
		if (!(f = mdp_probe_pick(&reps[i])))
			continue;
		*rep = i;
		*finding = (size_t)(f - reps[i].findings);
		return mdp_probe_setting(f, set);
	}
	return running ? -ENOENT : -ESRCH;
}

int mdp_probe_yaml(const struct mdp_probe_setting *s, char *buf, size_t len)
{
	int n = snprintf(buf, len,
			 "description: explain --probe of one setting\n"
			 "arrays:\n"
			 "  - match: {names: [%s]}\n"
			 "    %s: %s\n",
			 s->dev, mdp_tunable_info(s->t)->key, s->value);
	return n < 0 || (size_t)n >= len ? -ENAMETOOLONG : 0;
}

int mdp_probe_profile(const struct mdp_probe_setting *s, const struct mdp_profile_dirs *dirs,
		      struct mdp_profile *out, struct mdp_diags *d)
{
	char yaml[512], name[128];
	int err;

	snprintf(name, sizeof(name), "%s:%s=%s", s->dev, mdp_tunable_info(s->t)->key, s->value);
	if ((err = mdp_probe_yaml(s, yaml, sizeof(yaml))))
		return err;
	return mdp_profile_load_mem(dirs, name, yaml, strlen(yaml), out, d);
}

void mdp_probe_judge(const struct mdp_probe_windows *w, struct mdp_probe_result *out)
{
	double lo = (double)(w->a1 < w->a2 ? w->a1 : w->a2);
	double hi = (double)(w->a1 < w->a2 ? w->a2 : w->a1);
	double d;

	memset(out, 0, sizeof(*out));
	if (w->ended)
		return;
	out->valid = true;
	out->base = (lo + hi) / 2; /* the median of two */
	if (out->base <= 0)
		return;
	out->change = ((double)w->b - out->base) / out->base;
	out->spread = (hi - lo) / out->base;
	d = out->change < 0 ? -out->change : out->change;
	out->beyond = d > out->spread;
}
