/* options.h - the command line's options, one row each, and the parser made from them.
 *
 * A row says everything about one option: its name, how its value is named and read (and
 * the range taken), the mode it starts or the modes that take it, and its help text.
 * Parsing, the error messages (a missing value, a bad one, an option the mode would
 * ignore), --help's mode and option lists and the man page's option list (checked by
 * tests/cli/test_options.c) all come from the one table, so they cannot drift apart. */
#ifndef SOKOBAN_CLI_OPTIONS_H
#define SOKOBAN_CLI_OPTIONS_H

#include <stddef.h>
#include <stdio.h>

#include "cli.h"

/* What the command does: the game, or one of the modes an option starts. */
typedef enum cli_mode {
    CLI_MODE_PLAY,
    CLI_MODE_LIST,
    CLI_MODE_VERIFY,
    CLI_MODE_DEADLOCKS,
    CLI_MODE_SOLVE,
    CLI_MODE_HINT,
    CLI_MODE_OPTIMIZE,
    CLI_MODE_TILES,
    CLI_MODE_TILES_FILE,
    CLI_MODE_HELP,
    CLI_MODE_VERSION,
} cli_mode;

/* How an option's value is read, and where it goes in cli_options (the row's field). */
typedef enum cli_value {
    CLI_VALUE_NONE,    /* no value: sets a bool field */
    CLI_VALUE_TEXT,    /* a string field, taken as given */
    CLI_VALUE_FILE,    /* a mode's file: a string field; "--" there ends the options */
    CLI_VALUE_INT,     /* a whole number in [low, high] into an int field */
    CLI_VALUE_COUNT,   /* a whole number in [low, high] into a uint64_t field */
    CLI_VALUE_MIB,     /* a whole number of MiB in [low, high], in bytes into a size_t field */
    CLI_VALUE_SECONDS, /* seconds, more than 0 and at most high, into a double field */
    CLI_VALUE_CHOICE,  /* one of the words of `value` ("optimal|fast"): a string field */
} cli_value;

/* Bit of a mode in a row's `taken_by`. */
#define CLI_TAKEN_BY(mode) (1u << (mode))

typedef struct cli_option_row {
    const char *name;  /* the long name without its dashes: "level" */
    char short_name;   /* a one-letter alias ('h'), or 0 */
    const char *value; /* the value as --help and the man page name it ("N"), or NULL */
    cli_value kind;
    long long low, high; /* the range of a number (seconds: high only) */
    size_t field;        /* offsetof(cli_options, ...) of where the value goes */
    cli_mode starts;     /* the mode this option starts, or CLI_MODE_PLAY for none */
    unsigned taken_by;   /* not a mode: the CLI_TAKEN_BY bits of the modes that take it */
    const char *wants;   /* given without its value: "--level wants a value (WANTS)" */
    const char *bad;     /* a bad value: "--level wants BAD: VALUE" ("BAD from LOW to HIGH"
                          * for a whole number) */
    const char *help;    /* --help's text; lines after the first start with '\n' */
} cli_option_row;

/* The table, in --help's order (the modes first), and its length. */
extern const cli_option_row cli_option_rows[];
extern const int cli_option_count;

/* A parsed command line: the mode, its options, and the file its option named. */
typedef struct cli_command {
    cli_mode mode;
    cli_options options;
    const char *mode_file; /* --list FILE and the other modes' FILE, or NULL */
} cli_command;

/* Parses argv into `command`, the operands too (the game's files, --verify's SOLUTION):
 * CLI_OK, or CLI_BAD_INPUT after printing the usage error. */
int cli_parse(int argc, char **argv, cli_command *command);

/* Writes --help's text: the usage, the modes and options from the table, the keys. */
void cli_print_help(FILE *out);

/* Writes --version's line. */
void cli_print_version(FILE *out);

#endif
