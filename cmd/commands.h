/* commands: the descriptors each command file exports, for the table in mdprofile.c. */
#ifndef MDP_CMD_COMMANDS_H
#define MDP_CMD_COMMANDS_H

#include "boot.h"
#include "cli.h"

extern const struct cmd cmd_list, cmd_show, cmd_check;      /* profiles.c */
extern const struct cmd cmd_diff;                           /* diff.c */
extern const struct cmd cmd_apply, cmd_revert, cmd_recover; /* apply.c */
extern const struct cmd cmd_status;                         /* status.c */
extern const struct cmd cmd_boot_script;                    /* boot.c */
extern const struct cmd cmd_bench;                          /* bench.c */
extern const struct cmd cmd_auto;                           /* auto.c */
extern const struct cmd cmd_explain;                        /* explain.c */
extern const struct cmd cmd_enable, cmd_disable;            /* enable.c */

/*
 * boot.c's, shared with enable.c: the boot options from the command line
 * (--target or detected, --binary or this binary's path, which under
 * --root install refuses, the waits, the date). 0 or an exit code.
 */
int cli_boot_opts(struct cli *cli, struct mdp_boot_opts *o, bool install, char *exe, size_t len);
/* enable.c's, for status: what is enabled and whether its pieces are intact. */
void enable_status(struct cli *cli, struct json *j);

#endif
