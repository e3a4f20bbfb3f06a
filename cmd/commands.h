/* commands: the descriptors each command file exports, for the table in mdprofile.c. */
#ifndef MDP_CMD_COMMANDS_H
#define MDP_CMD_COMMANDS_H

#include "mdp_boot.h"
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

/* The boot options boot-script and enable take (BOOT_CLI_OPTS). */
struct boot_cli_opts {
	const char *target, *binary; /* --target, --binary */
	unsigned wait, recheck;      /* --wait-arrays, --recheck-after (seconds) */
	bool with_services;          /* --with-services */
};

/* --recheck-after not given: 120 s, none on systemd (cli_boot_opts). */
#define CLI_RECHECK_DEFAULT UINT_MAX
#define BOOT_CLI_DEFAULTS                                                                          \
	{                                                                                          \
		.wait = 120, .recheck = CLI_RECHECK_DEFAULT                                        \
	}
/* Their table entries, for the options struct T with a struct boot_cli_opts m. */
#define BOOT_CLI_OPTS(T, m)                                                                        \
	OPT_STRING("target", 0, "dsm|systemd|rc.d", T, m.target,                                   \
		   "where it runs at boot (default: dsm on DSM, systemd where systemd runs, rc.d " \
		   "elsewhere)"),                                                                  \
	    OPT_NAMING("binary", 0, "PATH", OPTV_FILE, T, m.binary,                                \
		       "the mdprofile the boot runs (default: this one)"),                         \
	    OPT_SECONDS("wait-arrays", T, m.wait, 0, 86400, 1,                                     \
			"how long the boot waits for the arrays (default 120)"),                   \
	    OPT_SECONDS("recheck-after", T, m.recheck, 0, 86400, 1,                                \
			"then diff and apply again if something drifted (default 120, none on "    \
			"systemd)"),                                                               \
	    OPT_FLAG("with-services", 0, T, m.with_services,                                       \
		     "pause the profile's services too (without: the values only)")

/*
 * boot.c's, shared with enable.c: the boot options from the command line
 * (--target or detected, --binary or this binary's path, which under
 * --root install refuses, the waits, the date). 0 or an exit code.
 */
int cli_boot_opts(struct cli *cli, const struct boot_cli_opts *b, struct mdp_boot_opts *o,
		  bool install, char *exe, size_t len);
/*
 * enable_status.c's, for status: what is enabled and whether its pieces are intact
 * (into j; NULL: as text, or prom: as Prometheus metrics).
 */
void enable_status(struct cli *cli, struct json *j, bool prom);

#endif
