/*
 * fuzz_profile: any bytes through the whole profile loader (libyaml walk,
 * value checks). Must never crash, leak or hang, and must either
 * succeed with no diagnostics or fail with at least one.
 */
#include <stddef.h>
#include <stdint.h>
#include <errno.h>
#include <stdlib.h>

#include "profile.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct mdp_profile p;
	struct mdp_diags d;
	int r;

	mdp_diags_init(&d);
	r = mdp_profile_load_mem(NULL, "fuzz.yaml", (const char *)data, size, &p, &d);
	if (r == 0) {
		if (d.n)
			abort();
		mdp_profile_free(&p);
	} else if (r == -EINVAL && !d.n) {
		abort();
	}
	for (size_t i = 0; i < d.n; i++) {
		char buf[512];
		mdp_diag_format(&d.v[i], buf, sizeof(buf));
	}
	mdp_diags_free(&d);
	return 0;
}
