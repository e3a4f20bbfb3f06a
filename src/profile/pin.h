/*
 * pin: a loaded profile written out as one self-contained YAML file, its
 * extends chain flattened, every value in the form the loader reads
 * (`mdprofile show --yaml`). It is what a boot script or another machine
 * can carry without the profile directories it came from, and it loads
 * back to the same settings: the writer proves that before it returns.
 *
 * The YAML is machine-written in a shape that is ours, which is where
 * libcyaml fits (docs/architecture.md): a cyaml schema over a plain
 * struct of strings, emitted by cyaml_save_data(). Its keys are taken
 * from the tunable registry and the profile key names, never spelt here.
 */
#ifndef MDP_PIN_H
#define MDP_PIN_H

#include <stddef.h>

#include "mdp_base.h"
#include "mdp_md.h"
#include "profile.h"

/*
 * The YAML of p in *out (malloc'd, NUL-terminated, *len bytes), its text
 * quoted where YAML would read it as another type. -ENOMEM, -EIO when
 * libcyaml or libyaml fails, -EINVAL (with diags) when the written text
 * does not load back to the same settings.
 */
int mdp_pin_write(const struct mdp_profile *p, char **out, size_t *len, struct mdp_diags *d);

/*
 * Pin p to the arrays of s: a rule that matches by array name matches
 * instead by the UUIDs those names have in s (a rule with UUIDs of its own
 * keeps those of its names' that are among them), so it finds the same
 * arrays when the kernel numbers them differently at the next boot. Level
 * and `all` matches stay as they are. A name that is not in s, or whose
 * UUID is unknown, is an error: -EINVAL with every such rule in d and p
 * unchanged.
 */
int mdp_pin_uuids(struct mdp_profile *p, const struct mdp_system *s, struct mdp_diags *d);

#endif
