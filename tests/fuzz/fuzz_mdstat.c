/*
 * libFuzzer target: /proc/mdstat text is outside input to mdprofile.
 * Parse it, check the invariants callers rely on, free it.
 */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "mdstat.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct mdp_mdstat m;

	if (mdp_mdstat_parse((const char *)data, size, &m, NULL))
		abort(); /* only -ENOMEM may fail, and libFuzzer reports that itself */
	for (size_t i = 0; i < m.n; i++) {
		const struct mdp_mdstat_array *a = &m.arrays[i];
		if (a->n_members > MDP_MDSTAT_MEMBERS || a->n_members > a->n_members_all ||
		    a->n_faulty > a->n_members_all || a->n_spare > a->n_members_all ||
		    a->permille > 1000 || (a->container && strncmp(a->super, "external:", 9)) ||
		    strnlen(a->name, sizeof(a->name)) == sizeof(a->name) ||
		    !mdp_mdstat_find(&m, a->name))
			abort();
	}
	mdp_mdstat_free(&m);
	return 0;
}
