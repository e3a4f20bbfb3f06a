/* help: usage, help COMMAND, __options and __values (help.h). */
#include "help.h"

#include <stdlib.h>
#include <string.h>

#include "mdp_base.h"

/* The summaries' column in the list of commands: after the longest name. */
#define CMD_COL 15

/* "usage: mdprofile [options] NAME" and c's synopsis, from its option table (opt_help.c). */
static void print_usage(FILE *f, const struct cmd *c)
{
	char head[64];

	snprintf(head, sizeof(head), "usage: mdprofile [options] %s", c->name);
	opt_print_synopsis(f, head, c->opts, c->args);
}

int cli_usage(const struct cmd *c)
{
	print_usage(stderr, c);
	return MDP_EXIT_USAGE;
}

void cli_usage_all(FILE *f)
{
	fputs("usage: mdprofile [options] COMMAND [ARGS]\n\ncommands:\n", f);
	for (size_t i = 0; i < cli_n_commands; i++) {
		const struct cmd *c = cli_commands[i];
		fprintf(f, "  %-*s", CMD_COL - 2, c->name);
		opt_print_wrapped(f, c->summary, CMD_COL, CMD_COL);
	}
	fputs("\noptions, before or after the command ('--' ends them):\n", f);
	opt_print_list(f, &cli_global_table);
	fputs("\nmdprofile help COMMAND or COMMAND --help: that command's usage and options.\n"
	      "exit codes: 0 ok/in sync, 1 changes pending, 2 usage or profile error,\n"
	      "3 failed and rolled back, 4 rollback incomplete, 77 needs root\n",
	      f);
}

void cli_print_cmd_help(const struct cmd *c)
{
	print_usage(stdout, c);
	fputs("  ", stdout);
	opt_print_wrapped(stdout, c->summary, 2, 2);
	if (c->opts && c->opts->n) {
		fputc('\n', stdout);
		opt_print_list(stdout, c->opts);
	}
}

const struct cmd *cli_find_cmd(const char *name)
{
	for (size_t i = 0; i < cli_n_commands; i++)
		if (!strcmp(cli_commands[i]->name, name))
			return cli_commands[i];
	return NULL;
}

/* The commands name begins, "'recover' or 'revert'", in buf; how many. */
static size_t prefix_of(const char *name, char *buf, size_t len)
{
	size_t hits = 0, k = 0, n = 0, nl = strlen(name);

	for (size_t i = 0; nl && i < cli_n_commands; i++)
		hits += !strncmp(cli_commands[i]->name, name, nl);
	buf[0] = '\0';
	for (size_t i = 0; hits && i < cli_n_commands && n < len; i++)
		if (!strncmp(cli_commands[i]->name, name, nl))
			n += (size_t)snprintf(buf + n, len - n, "%s'%s'",
					      !k++        ? ""
					      : k == hits ? " or "
							  : ", ",
					      cli_commands[i]->name);
	return hits;
}

int cli_unknown_cmd(struct cli *cli, const char *ctx, const char *name)
{
	const char *names[CLI_MAX_COMMANDS], *near;
	char cands[512];

	for (size_t i = 0; i < cli_n_commands; i++)
		names[i] = cli_commands[i]->name;
	/* commands are never abbreviated: a prefix of some is told which */
	if (prefix_of(name, cands, sizeof(cands)))
		cli_err(cli, "%sunknown command '%s' (did you mean %s?)", ctx, name, cands);
	else if ((near = mdp_ident_suggest(name, names, cli_n_commands)))
		cli_err(cli, "%sunknown command '%s' (did you mean '%s'?)", ctx, name, near);
	else
		cli_err(cli, "%sunknown command '%s' (see mdprofile --help)", ctx, name);
	return MDP_EXIT_USAGE;
}

static int do_help(struct cli *cli)
{
	const struct cmd *c;

	if (cli->argc < 2) {
		cli_usage_all(stdout);
		return MDP_EXIT_OK;
	}
	if (!(c = cli_find_cmd(cli->argv[1])))
		return cli_unknown_cmd(cli, "help: ", cli->argv[1]);
	cli_print_cmd_help(c);
	return MDP_EXIT_OK;
}

const struct cmd cmd_help = {
    .name = "help",
    .fn = do_help,
    .max_args = 1,
    .args = "[COMMAND]",
    .summary = "show how to use mdprofile or one command",
};

void cli_all_tables(const struct opt_table **t)
{
	t[0] = &cli_global_table;
	for (size_t i = 0; i < cli_n_commands; i++)
		t[i + 1] = cli_commands[i]->opts;
}

/* One option as __options prints it: "--name", "-c", "=" after those that take a value. */
static void print_option(const struct opt *o)
{
	const char *eq = o->metavar ? "=" : "";

	printf("--%s%s\n", o->name, eq);
	if (o->letter)
		printf("-%c%s\n", o->letter, eq);
}

/*
 * mdprofile __options [COMMAND|--all]: the options COMMAND takes (without one:
 * those every command takes; --all: every option), one a line, "=" after
 * those that take a value. For the bash completion, so it offers what this
 * binary accepts; not in help.
 */
int cli_print_options(int argc, char **argv)
{
	bool all = argc > 2 && !strcmp(argv[2], "--all");
	const struct cmd *c = argc > 2 && !all ? cli_find_cmd(argv[2]) : NULL;
	const struct opt_table *tables[CLI_MAX_COMMANDS + 1];
	struct opt_scan s;

	if (argc > 3 || (argc > 2 && !c && !all))
		return MDP_EXIT_USAGE;
	if (all) {
		/* Every option once, by name. */
		cli_all_tables(tables);
		if (opt_scan(&s, 1, argv, tables, cli_n_commands + 1))
			return MDP_EXIT_FAILED;
		for (size_t i = 0; i < s.n_all; i++)
			print_option(s.all[i]);
		opt_scan_free(&s);
	} else {
		for (size_t i = 0; i < cli_global_table.n; i++)
			print_option(&cli_global_table.opt[i]);
		for (size_t i = 0; c && c->opts && i < c->opts->n; i++)
			print_option(&c->opts->opt[i]);
	}
	return fflush(stdout) ? MDP_EXIT_FAILED : MDP_EXIT_OK;
}

/*
 * What option o's value is: ":file", ":dir", ":profile" or ":profiles" (comma-separated) for
 * one that names them (no word begins with ':'), else the words it takes: its choice list, else
 * the "a|b|c" of its metavar.
 */
static void print_words(const struct opt *o)
{
	static const char *const kinds[] = {
	    [OPTV_FILE] = ":file",
	    [OPTV_DIR] = ":dir",
	    [OPTV_PROFILE] = ":profile",
	    [OPTV_PROFILES] = ":profiles",
	};
	const char *m = o->metavar;

	if (o->value != OPTV_TEXT) {
		printf("%s\n", kinds[o->value]);
		return;
	}
	for (size_t i = 0; o->words && o->words[i]; i++)
		printf("%s\n", o->words[i]);
	if (o->words || !m || !strchr(m, '|'))
		return;
	while (*m) {
		size_t n = strcspn(m, "|");
		printf("%.*s\n", (int)n, m);
		m += n + !!m[n];
	}
}

/* The entry of t given as "--name" or "-c" on a command line, or NULL. */
static const struct opt *find_given(const struct opt_table *t, const char *given)
{
	if (given[0] == '-' && given[1] == '-')
		return opt_find(t, given + 2);
	for (size_t i = 0; given[0] == '-' && given[1] && !given[2] && i < t->n; i++)
		if (t->opt[i].letter == given[1])
			return &t->opt[i];
	return NULL;
}

/*
 * mdprofile __values COMMAND|--all --OPTION (or -O): what --OPTION's value
 * is (print_words), from the option tables; nothing for a free value. For
 * the bash completion, so it never types the lists or the kinds itself; not
 * in help.
 */
int cli_print_values(int argc, char **argv)
{
	bool all = argc > 2 && !strcmp(argv[2], "--all");
	const struct cmd *c = argc > 2 && !all ? cli_find_cmd(argv[2]) : NULL;
	const struct opt_table *tables[CLI_MAX_COMMANDS + 1];
	const char *given = argc > 3 && argv[3][0] == '-' ? argv[3] : NULL;
	const struct opt *o;

	if (argc != 4 || (!c && !all) || !given)
		return MDP_EXIT_USAGE;
	cli_all_tables(tables);
	for (size_t t = 0; t < cli_n_commands + 1; t++) {
		const struct opt_table *tb = tables[t];
		if (!tb || (tb != &cli_global_table && !all && tb != c->opts))
			continue;
		if ((o = find_given(tb, given))) {
			print_words(o);
			break;
		}
	}
	return fflush(stdout) ? MDP_EXIT_FAILED : MDP_EXIT_OK;
}
