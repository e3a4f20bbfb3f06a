/*
 * help: what mdprofile says about itself, from the command table and the
 * option tables: the usage, help COMMAND, and the hidden __options and
 * __values the bash completion asks. The table of commands and the global
 * options are mdprofile.c's.
 */
#ifndef MDP_CMD_HELP_H
#define MDP_CMD_HELP_H

#include <stdio.h>

#include "cli.h"

/* The most commands there may be: the tables of cli_all_tables hold one more. */
#define CLI_MAX_COMMANDS 63

/* mdprofile.c's: every command, in help's order, and the options every command takes. */
extern const struct cmd *const cli_commands[];
extern const size_t cli_n_commands;
extern const struct opt_table cli_global_table;

/* help.c's command. */
extern const struct cmd cmd_help;

/* Every option table into t (cli_n_commands + 1), the global one first. */
void cli_all_tables(const struct opt_table **t);
/* The command named name, or NULL. */
const struct cmd *cli_find_cmd(const char *name);
/*
 * One error line: ctx ("help: " or ""), the command not found and, when one
 * is close, what was meant. Returns MDP_EXIT_USAGE.
 */
int cli_unknown_cmd(struct cli *cli, const char *ctx, const char *name);
/* mdprofile's usage: the commands and the global options with their help. */
void cli_usage_all(FILE *f);
/* c's usage, its summary and its options with their help, on stdout. */
void cli_print_cmd_help(const struct cmd *c);
/*
 * mdprofile __options [COMMAND|--all] and mdprofile __values COMMAND|--all
 * --OPTION (argv as main's): the completion's questions. An exit code.
 */
int cli_print_options(int argc, char **argv);
int cli_print_values(int argc, char **argv);

#endif
