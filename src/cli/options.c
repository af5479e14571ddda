/* options.c - the command line's options as one table, and the parser and --help made
 * from it. */
#include <errno.h>
#include <getopt.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "level/utf8.h"
#include "tui/keys.h"

#include "options.h"

#ifndef SOKOBAN_VERSION
#define SOKOBAN_VERSION "unknown"
#endif

/* The longest time limit taken: 10,000,000 s, about 115 days. */
#define MAX_SECONDS 10000000
#define MAX_SECONDS_TEXT "10000000"

#define FIELD(name) offsetof(cli_command, options.name)
#define BY(mode) CLI_TAKEN_BY(CLI_MODE_##mode)

/* A mode's row: --NAME FILE starts MODE, its file into the command's mode_file. */
#define MODE_ROW(row_name, row_value, mode, row_help)                                              \
    {                                                                                              \
        .name = row_name, .value = row_value, .kind = CLI_VALUE_FILE,                              \
        .field = offsetof(cli_command, mode_file), .starts = CLI_MODE_##mode,                      \
        .wants = "a file name", .help = row_help                                                   \
    }

const cli_option_row cli_option_rows[] = {
    /* ---- the modes */
    MODE_ROW("list", "FILE", LIST, "one line per level: number, title, size, boxes"),
    MODE_ROW("verify", "FILE SOL", VERIFY,
             "replay a LURD solution (l u r d moves, L U R D pushes,\n"
             "counts like 3l allowed; @FILE reads it from a file,\n"
             "@- from standard input; - is no steps,\n"
             "as --solve prints for a level already solved);\n"
             "exit 0 only if it solves the level"),
    MODE_ROW("deadlocks", "FILE", DEADLOCKS,
             "print the level with its dead squares marked by rule"),
    MODE_ROW("solve", "FILE", SOLVE,
             "solve levels; one line per level:\n"
             "level= status= pushes= moves= nodes= seconds= solution=\n"
             "(with --all a last line: total levels= solved= seconds=\n"
             "pushes= moves=, the sums over the solved levels); an\n"
             "error adds reason=WHY and says why on stderr"),
    MODE_ROW("hint", "FILE", HINT,
             "the next push from the position the --moves reach, by the\n"
             "fast mode; one line: level= status= push= pushes= moves=\n"
             "seconds= solution= (push=box(X,Y)DIRECTION, X the column and\n"
             "Y the row from 1 at the map's top-left; solution= the rest);\n"
             "an error adds reason=WHY and says why on stderr"),
    MODE_ROW("optimize", "FILE", OPTIMIZE,
             "make a solution shorter (a vicinity search around it, the\n"
             "walking between pushes the shortest); SOLUTION is LURD,\n"
             "@FILE reads it from a file, - from standard input; with\n"
             "--all (or when the text has them) lines as --solve prints\n"
             "them, one a level; one line per level: level= status=\n"
             "(improved or unchanged) pushes= moves= pushes_before=\n"
             "moves_before= nodes= seconds= vicinity= solution=; every\n"
             "solution printed was replayed and is never longer"),
    {.name = "tiles",
     .value = "\"TILES\"",
     .kind = CLI_VALUE_TEXT,
     .field = FIELD(tiles),
     .starts = CLI_MODE_TILES,
     .wants = "the tiles, in quotes",
     .help = "solve a sliding-tile puzzle in the fewest moves (9 or 16\n"
             "numbers row by row, x or 0 for the blank; the goal is\n"
             "1 2 .. x, or x 1 2 .. after \"; goal=blank-first\"); prints\n"
             "the blank's moves (u d l r) or \"unsolvable\""},
    {.name = "tiles-file",
     .value = "FILE",
     .kind = CLI_VALUE_FILE,
     .field = FIELD(tiles_file),
     .starts = CLI_MODE_TILES_FILE,
     .wants = "a file name",
     .help = "solve one such puzzle per line (- reads stdin); prints\n"
             "line= status= length= nodes= seconds= solution= and a total"},

    /* ---- the options */
    {.name = "level",
     .value = "N",
     .kind = CLI_VALUE_INT,
     .low = 1,
     .high = 1000000,
     .field = FIELD(level),
     .taken_by = BY(PLAY) | BY(HINT) | BY(VERIFY) | BY(DEADLOCKS) | BY(SOLVE) | BY(OPTIMIZE),
     .wants = "a level number from 1",
     .bad = "a level number",
     .help = "the level to verify, analyse or solve (default 1), or to\n"
             "play (default: where you left off)"},
    {.name = "collection",
     .value = "NAME",
     .kind = CLI_VALUE_TEXT,
     .field = FIELD(collection),
     .taken_by = BY(PLAY),
     .wants = "a collection name",
     .help = "in the game: start in the collection NAME, any the\n"
             "collection library shows (in any case, accents counting;\n"
             "its start is enough when no other name starts so), at\n"
             "--level N (default: where you left off)"},
    {.name = "all",
     .kind = CLI_VALUE_NONE,
     .field = FIELD(all),
     .taken_by = BY(SOLVE) | BY(OPTIMIZE),
     .help = "with --solve and --optimize: every level of the file"},
    {.name = "time",
     .value = "SECONDS",
     .kind = CLI_VALUE_SECONDS,
     .high = MAX_SECONDS,
     .field = FIELD(time_seconds),
     .taken_by = BY(PLAY) | BY(HINT) | BY(SOLVE) | BY(OPTIMIZE) | BY(TILES) | BY(TILES_FILE),
     .wants = "a number of seconds",
     .bad = "seconds, more than 0 and at most " MAX_SECONDS_TEXT,
     .help = "with --solve: time limit per level (default 30), set-up\n"
             "included, kept within milliseconds; with --hint: the\n"
             "time for the answer (default 10); with --optimize: per\n"
             "level (default 10)"},
    {.name = "nodes",
     .value = "N",
     .kind = CLI_VALUE_COUNT,
     .low = 1,
     .high = (long long)1 << 62,
     .field = FIELD(node_limit),
     .taken_by = BY(SOLVE) | BY(OPTIMIZE) | BY(TILES) | BY(TILES_FILE),
     .wants = "a number of nodes",
     .bad = "a whole number of nodes",
     .help = "with --solve and --optimize: node limit per level (default\n"
             "none); at most N nodes are looked at, in both modes\n"
             "(--time and --nodes also limit each --tiles puzzle;\n"
             "default none)"},
    {.name = "memory",
     .value = "MiB",
     .kind = CLI_VALUE_MIB,
     .low = 1,
     .high = 1 << 20,
     .field = FIELD(memory_bytes),
     .taken_by = BY(HINT) | BY(SOLVE) | BY(OPTIMIZE),
     .wants = "a size in MiB",
     .bad = "a size in MiB",
     .help = "with --solve, --hint and --optimize: memory per level for\n"
             "the transposition table (optimal) or the stored states (fast)\n"
             "(default: fast 1024 for each search thread, at most a quarter\n"
             "of the machine's memory; optimal a quarter of the machine's;\n"
             "under a smaller ulimit -v, a quarter of that; with --optimize\n"
             "256): the peak; more than the machine has, or the ulimit, is\n"
             "refused"},
    {.name = "mode",
     .value = "optimal|fast",
     .kind = CLI_VALUE_CHOICE,
     .field = FIELD(mode),
     .taken_by = BY(SOLVE),
     .wants = "optimal or fast",
     .bad = "optimal or fast",
     .help = "with --solve: fast (the default) finds a solution soon, as the\n"
             "game's first hint does; optimal keeps the fewest pushes and\n"
             "proves it (fewer levels in the time)"},
    {.name = "threads",
     .value = "N",
     .kind = CLI_VALUE_INT,
     .low = 1,
     .high = 64,
     .field = FIELD(threads),
     .taken_by = BY(SOLVE),
     .wants = "a number of threads",
     .bad = "a number",
     .help = "with --solve: searches at once on each level (fast mode:\n"
             "different strategies, the first answer wins; they share\n"
             "--memory and --nodes; with 1, a search that fills --memory\n"
             "goes on with another strategy; optimal mode: one search on\n"
             "N threads over one table, from its first long iteration)\n"
             "(default: one per core)"},
    {.name = "moves",
     .value = "LURD|@FILE",
     .kind = CLI_VALUE_TEXT,
     .field = FIELD(moves),
     .taken_by = BY(HINT),
     .wants = "LURD moves or @FILE",
     .help = "with --hint: the moves played from the level's start\n"
             "(@FILE reads them from a file, @- from standard input;\n"
             "- is none)"},
    {.name = "by",
     .value = "moves|pushes",
     .kind = CLI_VALUE_CHOICE,
     .field = FIELD(by),
     .taken_by = BY(OPTIMIZE) | BY(SOLVE) | BY(PLAY),
     .wants = "moves or pushes",
     .bad = "moves or pushes",
     .help = "with --optimize and --optimize-time: fewer moves first, then\n"
             "pushes (the default), or fewer pushes first, then moves;\n"
             "in the game: what O shortens first"},
    {.name = "optimize-time",
     .value = "SECONDS",
     .kind = CLI_VALUE_SECONDS,
     .high = MAX_SECONDS,
     .field = FIELD(optimize_time),
     .taken_by = BY(SOLVE) | BY(PLAY),
     .wants = "a number of seconds",
     .bad = "seconds, more than 0 and at most " MAX_SECONDS_TEXT,
     .help = "with --solve: optimize each solution found for that long\n"
             "(its line then has pushes_before=, moves_before= and\n"
             "optimize_seconds=); in the game: how long O optimizes a\n"
             "best (default 10)"},
    {.name = "no-solve-ahead",
     .kind = CLI_VALUE_NONE,
     .field = FIELD(no_solve_ahead),
     .taken_by = BY(PLAY),
     .help = "in the game: the solver works only when asked (H, S), not\n"
             "from each new position before it is asked"},
    {.name = "edit",
     .kind = CLI_VALUE_NONE,
     .field = FIELD(edit),
     .taken_by = BY(PLAY),
     .help = "in the game: open the level editor on the level FILE:N (or\n"
             "--level N) names, or on a new level; it saves into\n"
             "$XDG_DATA_HOME/sokoban/levels/; leaving the editor of a\n"
             "FILE ends sokoban, of a new level goes on to the game; a\n"
             "drawing not saved when sokoban is ended is kept as a draft\n"
             "and offered back"},
    {.name = "hint-time",
     .value = "SECONDS",
     .kind = CLI_VALUE_SECONDS,
     .high = MAX_SECONDS,
     .field = FIELD(hint_seconds),
     .taken_by = BY(PLAY),
     .wants = "a number of seconds",
     .bad = "seconds, more than 0 and at most " MAX_SECONDS_TEXT,
     .help = "in the game: the solver's budget for a hint (default 10);\n"
             "--time SECONDS there is the budget of S (default 30)"},
    {.name = "help",
     .short_name = 'h',
     .kind = CLI_VALUE_NONE,
     .starts = CLI_MODE_HELP,
     .help = "show this help and exit"},
    {.name = "version",
     .kind = CLI_VALUE_NONE,
     .starts = CLI_MODE_VERSION,
     .help = "show the version and exit"},
};
const int cli_option_count = (int)(sizeof cli_option_rows / sizeof cli_option_rows[0]);

/* ---- Parsing ------------------------------------------------------------------------- */

/* getopt_long's code for row i; below it, the short names. */
#define ROW_CODE 256

/* The argument is shown without its control characters: the message stays one line. */
static int usage_error(const char *message, const char *argument)
{
    fprintf(stderr, "sokoban: %s%s", message, argument ? ": " : "");
    if (argument) utf8_write_shown(stderr, argument, strlen(argument));
    fputs("\nTry 'sokoban --help'.\n", stderr);
    return CLI_BAD_INPUT;
}

static bool is_mode_row(const cli_option_row *row)
{
    return row->starts >= CLI_MODE_LIST && row->starts <= CLI_MODE_TILES_FILE;
}

/* The row of getopt's code `code` (a row code or a short name), or NULL. */
static const cli_option_row *row_of_code(int code)
{
    if (code >= ROW_CODE && code < ROW_CODE + cli_option_count)
        return &cli_option_rows[code - ROW_CODE];
    for (int i = 0; i < cli_option_count; i++)
        if (code > 0 && cli_option_rows[i].short_name == code) return &cli_option_rows[i];
    return NULL;
}

/* How the message names an option: "--level", or "-h" for the short name given. */
static const char *option_name(const cli_option_row *row, int code)
{
    static char name[64];
    if (code < ROW_CODE)
        snprintf(name, sizeof name, "-%c", code);
    else
        snprintf(name, sizeof name, "--%s", row->name);
    return name;
}

/* "the game", or the mode's option ("--solve"), for "does not apply to" messages. */
static const char *mode_name(cli_mode mode)
{
    static char name[64];
    for (int i = 0; i < cli_option_count; i++)
        if (cli_option_rows[i].starts == mode && mode != CLI_MODE_PLAY) {
            snprintf(name, sizeof name, "--%s", cli_option_rows[i].name);
            return name;
        }
    return "the game";
}

/* Reads a whole number in [low, high]; false when `text` is not one. */
static bool parse_integer(const char *text, long long low, long long high, long long *out)
{
    char *end;
    errno = 0;
    long long value = strtoll(text, &end, 10);
    if (errno || end == text || *end || value < low || value > high) return false;
    *out = value;
    return true;
}

/* Reads seconds, more than 0 and at most `high`. */
static bool parse_seconds(const char *text, long long high, double *out)
{
    char *end;
    errno = 0;
    double value = strtod(text, &end);
    if (errno || end == text || *end || !(value > 0) || value > (double)high) return false;
    *out = value;
    return true;
}

/* True when `text` is one of the '|'-separated words of `choices`. */
static bool is_choice(const char *choices, const char *text)
{
    size_t length = strlen(text);
    for (const char *word = choices; word; word = strchr(word, '|')) {
        if (*word == '|') word++;
        size_t word_length = strcspn(word, "|");
        if (length > 0 && word_length == length && strncmp(word, text, length) == 0) return true;
    }
    return false;
}

/* Stores `text`, the value of `row`, in `command`: false when it is not a value the row
 * takes. */
static bool store_value(const cli_option_row *row, const char *text, cli_command *command)
{
    char *field = (char *)command + row->field;
    long long number;
    double seconds;
    switch (row->kind) {
    case CLI_VALUE_NONE:
        if (row->starts == CLI_MODE_PLAY) *(bool *)field = true;
        return true;
    case CLI_VALUE_TEXT:
    case CLI_VALUE_FILE:
        *(const char **)field = text;
        return true;
    case CLI_VALUE_CHOICE:
        if (!is_choice(row->value, text)) return false;
        *(const char **)field = text;
        return true;
    case CLI_VALUE_INT:
        if (!parse_integer(text, row->low, row->high, &number)) return false;
        *(int *)field = (int)number;
        return true;
    case CLI_VALUE_COUNT:
        if (!parse_integer(text, row->low, row->high, &number)) return false;
        *(uint64_t *)field = (uint64_t)number;
        return true;
    case CLI_VALUE_MIB:
        if (!parse_integer(text, row->low, row->high, &number)) return false;
        *(size_t *)field = (size_t)number << 20;
        return true;
    case CLI_VALUE_SECONDS:
        if (!parse_seconds(text, row->high, &seconds)) return false;
        *(double *)field = seconds;
        return true;
    }
    return false;
}

/* getopt_long's view of the table. */
static void getopt_table(struct option *longs, char *shorts)
{
    char *s = shorts;
    *s++ = ':'; /* a missing value is ':', not '?' */
    for (int i = 0; i < cli_option_count; i++) {
        const cli_option_row *row = &cli_option_rows[i];
        longs[i] = (struct option){row->name,
                                   row->kind == CLI_VALUE_NONE ? no_argument : required_argument,
                                   NULL, ROW_CODE + i};
        if (row->short_name) *s++ = row->short_name;
    }
    longs[cli_option_count] = (struct option){NULL, 0, NULL, 0};
    *s = 0;
}

/* The error for what getopt could not take: a missing value or an unknown option. */
static int getopt_error(int code, char **argv)
{
    if (code == ':') {
        const cli_option_row *row = row_of_code(optopt);
        char message[128];
        snprintf(message, sizeof message, "%s wants a value (%s)", option_name(row, optopt),
                 row && row->wants ? row->wants : "a value");
        return usage_error(message, NULL);
    }
    if (optopt) {
        char name[3] = {'-', (char)optopt, 0};
        return usage_error("unknown or incomplete option", optopt > 255 ? argv[optind - 1] : name);
    }
    return usage_error("unknown option", argv[optind - 1]);
}

/* After the options: one mode at most, no option the mode would ignore. */
static int check_given(const cli_command *command, const bool *given, int modes_given)
{
    if (modes_given > 1) {
        char message[256] = "give one of";
        for (int i = 0; i < cli_option_count; i++)
            if (is_mode_row(&cli_option_rows[i]))
                snprintf(message + strlen(message), sizeof message - strlen(message), "%s --%s",
                         strcmp(message, "give one of") ? "," : "", cli_option_rows[i].name);
        return usage_error(message, NULL);
    }
    for (int i = 0; i < cli_option_count; i++) {
        const cli_option_row *row = &cli_option_rows[i];
        if (given[i] && row->starts == CLI_MODE_PLAY &&
            !(row->taken_by & CLI_TAKEN_BY(command->mode))) {
            char message[128];
            snprintf(message, sizeof message, "--%s does not apply to %s", row->name,
                     mode_name(command->mode));
            return usage_error(message, NULL);
        }
    }
    if (command->options.all && command->options.level)
        return usage_error("--all and --level exclude each other", NULL);
    return CLI_OK;
}

/* The operands after the options: the file after "--" when a mode's FILE was "--", the
 * game's files, --verify's SOLUTION; anything more is an error. */
static int take_operands(cli_command *command, const cli_option_row *follows, char **rest,
                         int rest_count)
{
    if (follows) {
        if (rest_count < 1) return usage_error("a file name should follow --", NULL);
        *(const char **)((char *)command + follows->field) = rest[0];
        rest++;
        rest_count--;
    }
    cli_options *options = &command->options;
    if (command->mode_file) {
        options->files = &command->mode_file;
        options->file_count = 1;
    }
    if (command->mode == CLI_MODE_PLAY) {
        options->files = (const char **)rest;
        options->file_count = rest_count;
    } else if (command->mode == CLI_MODE_VERIFY) {
        if (rest_count != 1) return usage_error("--verify wants one SOLUTION argument", NULL);
        options->solution = rest[0];
    } else if (command->mode == CLI_MODE_OPTIMIZE) {
        if (rest_count != 1)
            return usage_error("--optimize wants one SOLUTION argument (LURD, @FILE or -)", NULL);
        options->solution = rest[0];
    } else if (rest_count > 0) {
        return usage_error("unexpected argument", rest[0]);
    }
    return CLI_OK;
}

/* True when the FILE operand `file` ("-" or "-:N") names standard input. */
static bool names_standard_input(const char *file)
{
    if (strncmp(file, "-", 1) != 0) return false;
    if (file[1] == '\0') return true;
    if (file[1] != ':' || file[2] == '\0') return false;
    for (const char *digit = file + 2; *digit; digit++)
        if (*digit < '0' || *digit > '9') return false;
    return true;
}

/* Standard input can be read once: a level file and a solution (or --moves) that both name
 * it would leave the second one nothing (--verify - @- replayed no steps). */
static int check_standard_input(const cli_command *command)
{
    const cli_options *options = &command->options;
    int readers = 0;
    for (int i = 0; i < options->file_count; i++)
        readers += names_standard_input(options->files[i]);
    const char *other = NULL; /* "the solution" or "the --moves" read from it, or NULL */
    const char *as = NULL;    /* ... as given: "@-" or "-" */
    if (command->mode == CLI_MODE_VERIFY && strcmp(options->solution, "@-") == 0)
        other = "the solution", as = options->solution;
    else if (command->mode == CLI_MODE_OPTIMIZE &&
             (strcmp(options->solution, "-") == 0 || strcmp(options->solution, "@-") == 0))
        other = "the solution", as = options->solution;
    else if (command->mode == CLI_MODE_HINT && options->moves && strcmp(options->moves, "@-") == 0)
        other = "the --moves", as = options->moves;
    if (readers + (other != NULL) < 2) return CLI_OK;
    char message[160];
    if (other && readers == 1)
        snprintf(message, sizeof message,
                 "the level (-) and %s (%s) cannot both come from standard input; give one as "
                 "a file",
                 other, as);
    else
        snprintf(message, sizeof message,
                 "standard input (-) is named %d times; it can be read once", readers + !!other);
    return usage_error(message, NULL);
}

/* An empty file name, or "@" with no file after it, is told as such, where opening it said
 * "sokoban: : cannot open: No such file or directory"; so is an empty --collection, which
 * matched every collection ("which one? ..."). */
static int check_names(const cli_command *command)
{
    const cli_options *options = &command->options;
    bool empty = options->tiles_file && !options->tiles_file[0];
    for (int i = 0; i < options->file_count; i++) empty = empty || !options->files[i][0];
    if (empty) return usage_error("an empty file name", NULL);
    if (options->collection && !options->collection[0])
        return usage_error("--collection wants a collection name, not an empty one", NULL);
    const char *named[] = {options->solution, options->moves};
    for (size_t i = 0; i < sizeof named / sizeof named[0]; i++)
        if (named[i] && strcmp(named[i], "@") == 0)
            return usage_error("@ wants a file name after it (@FILE)", NULL);
    return CLI_OK;
}

int cli_parse(int argc, char **argv, cli_command *command)
{
    *command = (cli_command){.mode = CLI_MODE_PLAY};
    struct option longs[sizeof cli_option_rows / sizeof cli_option_rows[0] + 1];
    char shorts[sizeof cli_option_rows / sizeof cli_option_rows[0] + 2];
    getopt_table(longs, shorts);
    /* Each option may be given once: a second --time would silently win over the first. */
    bool given[sizeof cli_option_rows / sizeof cli_option_rows[0]] = {0};
    int modes_given = 0;
    const cli_option_row *follows = NULL; /* a mode's FILE was "--": it is the first operand */

    opterr = 0;
    int code;
    while ((code = getopt_long(argc, argv, shorts, longs, NULL)) != -1) {
        const cli_option_row *row = row_of_code(code);
        if (!row) return getopt_error(code, argv);
        if (row->starts == CLI_MODE_HELP || row->starts == CLI_MODE_VERSION) {
            command->mode = row->starts;
            return CLI_OK;
        }
        if (given[row - cli_option_rows])
            return usage_error("an option given twice", option_name(row, code));
        given[row - cli_option_rows] = true;
        /* "--list -- -x.xsb": getopt took "--" as the FILE; step back so that it ends the
         * options instead, and take the FILE from the operands */
        if (row->kind == CLI_VALUE_FILE && strcmp(optarg, "--") == 0 &&
            argv[optind - 1] == optarg) {
            follows = row;
            optind--;
        }
        if (is_mode_row(row)) {
            command->mode = row->starts;
            modes_given++;
        }
        if (!store_value(row, optarg, command)) {
            /* a whole number names its bounds, from the row, as --time names its limit */
            char message[128];
            bool whole = row->kind == CLI_VALUE_INT || row->kind == CLI_VALUE_COUNT ||
                         row->kind == CLI_VALUE_MIB;
            if (whole)
                snprintf(message, sizeof message, "--%s wants %s from %lld to %lld", row->name,
                         row->bad, row->low, row->high);
            else
                snprintf(message, sizeof message, "--%s wants %s", row->name, row->bad);
            return usage_error(message, optarg);
        }
    }
    int status = check_given(command, given, modes_given);
    if (status != CLI_OK) return status;
    status = take_operands(command, follows, argv + optind, argc - optind);
    if (status == CLI_OK) status = check_names(command);
    return status != CLI_OK ? status : check_standard_input(command);
}

/* ---- --help ---------------------------------------------------------------------------- */

static const char usage_head[] =
    "Usage: sokoban [FILE[:N] | DIRECTORY | - ...] [--level N] [--collection NAME]\n"
    "               [--hint-time SECONDS] [--time SECONDS] [--no-solve-ahead]\n"
    "               [--optimize-time SECONDS] [--by moves|pushes]\n"
    "       sokoban --edit [FILE[:N]]\n"
    "       sokoban --list FILE\n"
    "       sokoban --verify FILE [--level N] SOLUTION|@FILE\n"
    "       sokoban --deadlocks FILE [--level N]\n"
    "       sokoban --solve FILE [--level N | --all] [--time SECONDS] [--nodes N]\n"
    "                    [--memory MiB] [--mode optimal|fast] [--threads N]\n"
    "                    [--optimize-time SECONDS] [--by moves|pushes]\n"
    "       sokoban --hint FILE [--level N] [--moves LURD|@FILE] [--time SECONDS]\n"
    "                    [--memory MiB]\n"
    "       sokoban --optimize FILE [--level N | --all] [--by moves|pushes]\n"
    "                    [--time SECONDS] [--nodes N] [--memory MiB]\n"
    "                    SOLUTION|@FILE|-\n"
    "       sokoban --tiles \"TILES\" | --tiles-file FILE [--time SECONDS] [--nodes N]\n"
    "\n"
    "Play Sokoban in the terminal, with a solver that gives hints, replays solutions\n"
    "and warns of deadlocks. Without a mode option the game starts on the given level\n"
    "collections (default: the bundled tutorial, then the 90 XSokoban levels).\n"
    "A FILE is an XSB or SOK collection (FILE:N starts at its level N); a DIRECTORY\n"
    "is one collection of its level files; - reads a collection from standard input;\n"
    "one-level files named NAME_0001.sok, NAME_0002.sok ... group into one\n"
    "collection.\n"
    "Level files are read up to 64 MiB (a folder's or a group's together). A level\n"
    "that cannot be played is listed with its reason and skipped.\n";

static const char usage_tail[] =
    "NO_COLOR turns colours off; the game needs a terminal that moves the cursor.\n"
    "\n"
    "Each option may be given once; --time and --hint-time take at most " MAX_SECONDS_TEXT "\n"
    "seconds. -- ends the options (sokoban --list -- -odd-name.xsb). Standard input\n"
    "is read once: with a FILE of -, the SOLUTION or --moves comes from a file or the\n"
    "command line.\n"
    "\n"
    "Exit status: 0 success, 1 not solved or not verified, 2 bad input or usage, or\n"
    "output that could not be written, 3 the game could not save its progress (the\n"
    "reason on stderr), 128+N ended by signal N (saved).\n"
    "Progress: $XDG_DATA_HOME/sokoban/progress.db (~/.local/share/sokoban), an\n"
    "SQLite database, written at every change of the position (a killed game resumes\n"
    "as it was shown); an old progress.txt there is imported once. Two games on one\n"
    "level never save over each other's game (the later one's moves go to a snapshot,\n"
    "\"kept apart\"). Every signal that ends a program restores the terminal, saves\n"
    "and exits 128+N.\n"
    "See sokoban(6) for more.\n";

/* One row of --help: "  --name VALUE" in a column of 23 (a longer one on a line of its
 * own), then its text, its words wrapped so that no line is wider than 80 columns (the
 * table's line breaks are word breaks). */
static void print_row(FILE *out, const cli_option_row *row)
{
    enum { TEXT_COLUMN = 23, WIDTH = 80 };
    char label[64];
    snprintf(label, sizeof label, "--%s", row->name);
    if (row->short_name)
        snprintf(label + strlen(label), sizeof label - strlen(label), ", -%c", row->short_name);
    if (row->value)
        snprintf(label + strlen(label), sizeof label - strlen(label), " %s", row->value);
    int column = fprintf(out, "  %-21s", label);
    if (strlen(label) > 20) column = fprintf(out, "\n%*s", TEXT_COLUMN, "") - 1;
    bool line_empty = true;
    for (const char *word = row->help; *word;) {
        size_t length = strcspn(word, " \n");
        if (length > 0) {
            if (!line_empty && column + 1 + (int)length > WIDTH) {
                column = fprintf(out, "\n%*s", TEXT_COLUMN, "") - 1;
                line_empty = true;
            }
            column += fprintf(out, "%s%.*s", line_empty ? "" : " ", (int)length, word);
            line_empty = false;
        }
        word += length;
        if (*word) word++;
    }
    fputc('\n', out);
}

void cli_print_help(FILE *out)
{
    fputs(usage_head, out);
    fputs("\nModes:\n", out);
    for (int i = 0; i < cli_option_count; i++)
        if (is_mode_row(&cli_option_rows[i])) print_row(out, &cli_option_rows[i]);
    fputs("\nOptions:\n", out);
    for (int i = 0; i < cli_option_count; i++)
        if (!is_mode_row(&cli_option_rows[i])) print_row(out, &cli_option_rows[i]);
    fputs("\n", out);
    keys_print_usage(out);
    fputs(usage_tail, out);
}

void cli_print_version(FILE *out)
{
    fprintf(out, "sokoban %s\n", SOKOBAN_VERSION);
}
