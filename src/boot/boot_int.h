/*
 * boot_int: what boot.c, boot_script.c, boot_units.c and boot_install.c
 * share. Not part of the library interface; only boot*.c use it.
 */
#ifndef MDP_BOOT_INT_H
#define MDP_BOOT_INT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include "mdp_base.h"
#include "mdp_profile.h"

/*
 * May s go into the script's code (and into the record enable keeps)? Only
 * characters none of which is special to sh in single quotes.
 */
bool mdp_boot_code_safe(const char *s);
/* "cannot put WHAT 'VALUE' into a boot script: RULE" into d, the value shown safely. */
void mdp_boot_refuse(struct mdp_diags *d, const char *what, const char *value, const char *rule);
/* Every UUID p's rules match, once each, in rule order: at most cap, in v. */
size_t mdp_boot_rule_uuids(const struct mdp_profile *p, const char **v, size_t cap);
/* Close a memstream: its text, or NULL (and freed) when writing it failed. */
char *mdp_boot_mem_close(FILE *f, char **buf);

#endif
