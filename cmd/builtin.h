/*
 * builtin: the shipped profiles compiled into the binary (generated from
 * the YAML files in profiles/ by tools/embed-profiles.sh into build/gen/profiles.c),
 * so the one file copied onto a NAS works without a share directory.
 */
#ifndef MDP_CMD_BUILTIN_H
#define MDP_CMD_BUILTIN_H

#include <stddef.h>

#include "mdp_profile.h"

extern const struct mdp_builtin cli_builtins[];
extern const size_t cli_n_builtins;

#endif
