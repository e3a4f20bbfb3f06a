/*
 * profile_list: every profile that lookup by name can find (profile.h:
 * the profile dirs in order, then the built-ins), each checked by loading
 * it, for 'mdprofile list'.
 */
#ifndef MDP_PROFILE_LIST_H
#define MDP_PROFILE_LIST_H

#include <limits.h>
#include <stdbool.h>
#include <stddef.h>

#include "profile.h"

/* One profile found. */
struct mdp_profile_entry {
	char *name;               /* "balanced" */
	char path[PATH_MAX + 64]; /* DIR/NAME.yaml, or MDP_BUILTIN_PREFIX NAME */
	const char *source;       /* the label of its dir (the caller's), or "built-in" */
	bool valid;               /* it loads, its extends chain and all */
	char *description;        /* its description; "" when it has none or is not valid */
};

struct mdp_profile_list {
	struct mdp_profile_entry *v; /* each name once, in lookup order, by name within a dir */
	size_t n;
	/*
	 * Files DIR/NAME.yaml left out because NAME is not a profile name
	 * (ident.h): apply NAME could never find them, whatever a shell expands.
	 */
	char **skipped;
	size_t n_skipped;
};

/*
 * List the profiles of dirs: NAME.yaml in each directory (a missing one
 * holds none; dot files are not profiles), then the built-ins, a name in
 * an earlier place shadowing the later ones as lookup does. sources[i]
 * labels dirs->dirs[i] (borrowed, as are the built-ins' names). Each
 * profile found is loaded for valid and description. 0, or -ENOMEM with l
 * holding what was found before; free l with mdp_profile_list_free either
 * way.
 */
int mdp_profile_list(const struct mdp_profile_dirs *dirs, const char *const *sources,
		     struct mdp_profile_list *l);
void mdp_profile_list_free(struct mdp_profile_list *l);

#endif
