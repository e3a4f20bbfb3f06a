/*
 * opt: option tables and the command line's parser. The global options
 * (cmd/mdprofile.c) and each command's own (in the command's file) are each
 * one table: an entry names the option, says whether it takes a value and
 * how it is taken (a typed kind, stored at an offset in the table's options
 * struct, or a function for the odd one). main reads the line once: the
 * positional arguments and every option in order; the options of the global
 * table and of the command's are taken, one of another command's is kept
 * for "--X does not apply to 'CMD'".
 *
 * Each entry carries its help, and each table its rules: the pairs that
 * exclude each other and the options that need another. Help, the usage
 * synopsis, the completion (mdprofile __options) and the checks all read
 * them from here (cmd/opt_help.c prints them).
 *
 * Nothing here prints: a refused value is one line in scan->err.
 */
#ifndef MDP_CMD_OPT_H
#define MDP_CMD_OPT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

enum opt_kind {
	OPTK_FLAG,     /* bool = true */
	OPTK_STRING,   /* const char * = the value */
	OPTK_SECONDS,  /* unsigned = seconds min..max, times scale (1000: milliseconds) */
	OPTK_NUMBER,   /* unsigned = a count min..max; what names it ("a number of runs") */
	OPTK_INTERVAL, /* unsigned = milliseconds, from seconds 0.1..3600 with up to 3 decimals */
	OPTK_SIZE,     /* uint64_t = bytes, from a size min..max KiB; what: the whole expectation */
	OPTK_CHOICE,   /* const char * = one of words */
	OPTK_CUSTOM,   /* take() */
};

/*
 * What a value names, for the completion (mdprofile __values): a file, a
 * directory, a profile, profiles comma-separated; OPTV_TEXT for the rest
 * (numbers, seconds, a name), where a choice's words (its words, or the
 * "a|b|c" of its metavar) are all there is to offer.
 */
enum opt_value { OPTV_TEXT, OPTV_FILE, OPTV_DIR, OPTV_PROFILE, OPTV_PROFILES };

struct opt {
	const char *name;         /* long name, without "--" */
	char letter;              /* short form (-o), 0: none */
	enum opt_kind kind;       /* how the value is taken */
	size_t off;               /* of the value in the table's options struct */
	const char *metavar;      /* of the value, for help; NULL: the option takes none */
	enum opt_value value;     /* what the value names, for the completion */
	uint64_t min, max;        /* bounds: seconds, numbers; KiB for a size */
	unsigned scale;           /* OPTK_SECONDS: stored as seconds * scale (0: 1) */
	const char *what;         /* OPTK_NUMBER: the noun; OPTK_SIZE: the whole "expected ..." */
	const char *const *words; /* OPTK_CHOICE: the words, NULL-ended (others: offered) */
	/*
	 * OPTK_CUSTOM: take arg (NULL for an option without a value) into opts, or
	 * into global (the global table's struct, struct cli); NULL, or what was
	 * expected (the message after "--NAME 'ARG': ").
	 */
	const char *(*take)(void *opts, void *global, const char *arg);
	const char *help; /* what it does, for help: one phrase, no final period */
};

/*
 * A rule on two options by long name: b may be a global option in a
 * command's table (--json). In excl, A and B cannot go together (msg NULL:
 * "--A and --B: choose one"); in requires, A is taken only with B (msg NULL:
 * "--A applies to 'CMD' only with --B").
 */
struct opt_pair {
	const char *a, *b, *msg;
};

struct opt_table {
	const struct opt *opt;
	size_t n;
	size_t size;                     /* of the options struct: main allocates it; 0: none */
	const void *defaults;            /* copied into it first; NULL: zeroes */
	const struct opt_pair *excl;     /* ended by {NULL}; checked after help (opt_rule_broken) */
	const struct opt_pair *requires; /* the same */
};

#define OPT_N(a) (sizeof(a) / sizeof((a)[0]))
/*
 * A table of the options in array a, for the options struct T, its defaults
 * (NULL: zeroes), its exclusive pairs and its requirements (NULL: none).
 */
#define OPT_TABLE(a, T, defaults_, excl_, requires_)                                               \
	{                                                                                          \
		.opt = (a), .n = OPT_N(a), .size = sizeof(T), .defaults = (defaults_),             \
		.excl = (excl_), .requires = (requires_)                                           \
	}

/* A table of options that all go into the global struct (OPT_CUSTOM): no options struct. */
#define OPT_TABLE_SHARED(a)                                                                        \
	{                                                                                          \
		.opt = (a), .n = OPT_N(a)                                                          \
	}

#define OPT_FLAG(name_, letter_, T, field, help_)                                                  \
	{                                                                                          \
		.name = (name_), .letter = (letter_), .kind = OPTK_FLAG,                           \
		.off = offsetof(T, field), .help = (help_)                                         \
	}
#define OPT_STRING(name_, letter_, meta, T, field, help_)                                          \
	{                                                                                          \
		.name = (name_), .letter = (letter_), .kind = OPTK_STRING,                         \
		.off = offsetof(T, field), .metavar = (meta), .help = (help_)                      \
	}
/* OPT_STRING whose value names a file, a directory or profiles (value_: OPTV_*). */
#define OPT_NAMING(name_, letter_, meta, value_, T, field, help_)                                  \
	{                                                                                          \
		.name = (name_), .letter = (letter_), .kind = OPTK_STRING,                         \
		.off = offsetof(T, field), .metavar = (meta), .value = (value_), .help = (help_)   \
	}
#define OPT_SECONDS(name_, T, field, min_, max_, scale_, help_)                                    \
	{                                                                                          \
		.name = (name_), .kind = OPTK_SECONDS, .off = offsetof(T, field),                  \
		.metavar = "SECONDS", .min = (min_), .max = (max_), .scale = (scale_),             \
		.help = (help_)                                                                    \
	}
#define OPT_NUMBER(name_, meta, T, field, min_, max_, what_, help_)                                \
	{                                                                                          \
		.name = (name_), .kind = OPTK_NUMBER, .off = offsetof(T, field),                   \
		.metavar = (meta), .min = (min_), .max = (max_), .what = (what_), .help = (help_)  \
	}
#define OPT_INTERVAL(name_, T, field, help_)                                                       \
	{                                                                                          \
		.name = (name_), .kind = OPTK_INTERVAL, .off = offsetof(T, field), .metavar = "S", \
		.help = (help_)                                                                    \
	}
#define OPT_SIZE(name_, meta, T, field, min_kib, max_kib, what_, help_)                            \
	{                                                                                          \
		.name = (name_), .kind = OPTK_SIZE, .off = offsetof(T, field), .metavar = (meta),  \
		.min = (min_kib), .max = (max_kib), .what = (what_), .help = (help_)               \
	}
#define OPT_CHOICE(name_, meta, T, field, words_, help_)                                           \
	{                                                                                          \
		.name = (name_), .kind = OPTK_CHOICE, .off = offsetof(T, field),                   \
		.metavar = (meta), .words = (words_), .help = (help_)                              \
	}
#define OPT_CUSTOM(name_, letter_, meta, fn, help_)                                                \
	{                                                                                          \
		.name = (name_), .letter = (letter_), .kind = OPTK_CUSTOM, .metavar = (meta),      \
		.take = (fn), .help = (help_)                                                      \
	}

/* The command line as read: its positional arguments and its options, in order. */
struct opt_scan {
	char **pos; /* the positional arguments in order: the command, then its arguments */
	int n_pos;
	const struct opt **all; /* every option of every table, once by name */
	size_t n_all;
	struct opt_event {
		int i;           /* into all[]; -1: the scan's error */
		const char *arg; /* the value given */
	} * ev;
	size_t n_ev;
	const char *foreign; /* the first option given of another command's, by long name */
	uint64_t seen[2];    /* the global [0] and the command's [1] options given, by index */
	char err[512];       /* what was refused, one line without "mdprofile: " */
};

/*
 * Read argv (argv[0] is the program): "--" ends the options; "--opt=value",
 * "--opt value", "-o value", "-ovalue" and abbreviations getopt_long accepts.
 * tables: every table there is (global first), to know which options take a
 * value wherever the command is. 0, or -ENOMEM. An unknown option or a
 * missing value is not refused here: opt_take does, in its place on the line.
 */
int opt_scan(struct opt_scan *s, int argc, char **argv, const struct opt_table *const *tables,
	     size_t n_tables);
/*
 * Take the options in order: the global table's into gbase, own's (NULL: a
 * command without options, or none found) into obase; one of neither is
 * s->foreign. 0, or -EINVAL with s->err said (a value refused, an unknown
 * option, a missing value).
 */
int opt_take(struct opt_scan *s, const struct opt_table *global, void *gbase,
	     const struct opt_table *own, void *obase);
/*
 * The first rule of t broken by the options given (seen[0]: global's, seen[1]:
 * t's, as in struct opt_scan; t may be global itself), said in err: the
 * exclusive pairs first, then the requirements. cmd names the command in
 * the default message of a requirement. False when none is broken.
 */
bool opt_rule_broken(const struct opt_table *t, const struct opt_table *global, const char *cmd,
		     const uint64_t seen[2], char *err, size_t len);
void opt_scan_free(struct opt_scan *s);
/* The entry of t named name, or NULL. */
const struct opt *opt_find(const struct opt_table *t, const char *name);

/* ---- help, from the tables (cmd/opt_help.c) ---- */

/* The width help is written to: no line is longer, but for a word that is. */
#define OPT_HELP_WIDTH 80

/*
 * text wrapped at word boundaries to OPT_HELP_WIDTH, to f: the cursor is at
 * column col when it starts, every later line begins with indent spaces; a
 * '\n' in text ends a line there. Ends with a newline.
 */
void opt_print_wrapped(FILE *f, const char *text, int col, int indent);
/*
 * head (such as "usage: mdprofile [options] apply"), then t's options as a
 * synopsis, then args (NULL: none): each option in brackets, one that
 * requires another nested in that one's ("[--watch [--interval S]]"),
 * options that all exclude each other in one bracket ("[-o FILE |
 * --install]"). Wrapped between brackets (a bracket too long for a line
 * before a " | "), later lines under the first option.
 */
void opt_print_synopsis(FILE *f, const char *head, const struct opt_table *t, const char *args);
/*
 * t's options one a line with their help, as git's parse-options lists them:
 * "  -n, --dry-run          help", the help in one column, wrapped under it.
 */
void opt_print_list(FILE *f, const struct opt_table *t);

#endif
