/* commands: the descriptors each command file exports, for the table in mdprofile.c. */
#ifndef MDP_CMD_COMMANDS_H
#define MDP_CMD_COMMANDS_H

#include "cli.h"

extern const struct cmd cmd_list, cmd_show, cmd_check;      /* profiles.c */
extern const struct cmd cmd_diff;                           /* diff.c */
extern const struct cmd cmd_apply, cmd_revert, cmd_recover; /* apply.c */
extern const struct cmd cmd_status;                         /* status.c */
extern const struct cmd cmd_boot_script;                    /* boot.c */
extern const struct cmd cmd_bench;                          /* bench.c */
extern const struct cmd cmd_auto;                           /* auto.c */
extern const struct cmd cmd_explain;                        /* explain.c */

#endif
