/* main.c - the sokoban command: parses the options and hands over to one mode. */
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"

#ifndef SOKOBAN_VERSION
#define SOKOBAN_VERSION "unknown"
#endif

static const char usage_text[] =
    "Usage: sokoban [FILE[:N] | DIRECTORY | - ...] [--level N] [--collection NAME]\n"
    "               [--hint-time SECONDS] [--time SECONDS] [--no-solve-ahead]\n"
    "       sokoban --list FILE\n"
    "       sokoban --verify FILE [--level N] SOLUTION|@SOLUTION-FILE\n"
    "       sokoban --deadlocks FILE [--level N]\n"
    "       sokoban --solve FILE [--level N | --all] [--time SECONDS] [--nodes N]\n"
    "                    [--memory MiB] [--mode optimal|fast] [--threads N]\n"
    "       sokoban --hint FILE [--level N] [--moves LURD|@FILE] [--time SECONDS]\n"
    "       sokoban --tiles \"TILES\" | --tiles-file FILE\n"
    "\n"
    "Play Sokoban in the terminal, with a solver that gives hints, replays solutions\n"
    "and warns of deadlocks. Without a mode option the game starts on the given level\n"
    "collections (default: the bundled tutorial, then the 90 XSokoban levels).\n"
    "A FILE is an XSB or SOK collection (FILE:N starts at its level N); a DIRECTORY\n"
    "is one collection of its level files; - reads a collection from standard input;\n"
    "one-level files named NAME_0001.sok, NAME_0002.sok ... group into one collection.\n"
    "Level files are read up to 64 MiB. A level that cannot be played is listed with\n"
    "its reason and skipped.\n"
    "\n"
    "Modes:\n"
    "  --list FILE          one line per level: number, title, size, boxes\n"
    "  --verify FILE SOL    replay a LURD solution (l u r d moves, L U R D pushes,\n"
    "                       counts like 3l allowed; @FILE reads it from a file,\n"
    "                       @- from standard input; - is no steps,\n"
    "                       as --solve prints for a level already solved);\n"
    "                       exit 0 only if it solves the level\n"
    "  --deadlocks FILE     print the level with its dead squares marked by rule\n"
    "  --solve FILE         solve levels; one line per level:\n"
    "                       level= status= pushes= moves= nodes= seconds= solution=\n"
    "                       (with --all a last line: total levels= solved= seconds=\n"
    "                       pushes= moves=, the sums over the solved levels); an\n"
    "                       error adds reason=WHY and says why on stderr\n"
    "  --hint FILE          the next push from the position the --moves reach, by the\n"
    "                       fast mode; one line: level= status= push= pushes= moves=\n"
    "                       seconds= solution= (push=box(X,Y)DIRECTION, X the column and\n"
    "                       Y the row from 1 at the map's top-left; solution= the rest)\n"
    "  --tiles \"TILES\"      solve a sliding-tile puzzle in the fewest moves (9 or 16\n"
    "                       numbers row by row, x or 0 for the blank; the goal is\n"
    "                       1 2 .. x, or x 1 2 .. after \"; goal=blank-first\"); prints\n"
    "                       the blank's moves (u d l r) or \"unsolvable\"\n"
    "  --tiles-file FILE    solve one such puzzle per line (- reads stdin); prints\n"
    "                       line= status= length= nodes= seconds= solution= and a total\n"
    "\n"
    "Options:\n"
    "  --level N            the level to verify, analyse or solve (default 1), or to\n"
    "                       play (default: where you left off)\n"
    "  --collection NAME    in the game: start in the collection NAME (as the level\n"
    "                       list names it) at --level N (default 1)\n"
    "  --all                with --solve: every level of the file\n"
    "  --time SECONDS       with --solve: time limit per level (default 30), set-up\n"
    "                       included, kept within milliseconds; with --hint: the\n"
    "                       time for the answer (default 10)\n"
    "  --nodes N            with --solve: node limit per level (default none); at most\n"
    "                       N nodes are looked at, in both modes\n"
    "                       (--time and --nodes also limit each --tiles puzzle;\n"
    "                       default none)\n"
    "  --memory MiB         with --solve: memory per level for the transposition table\n"
    "                       (optimal) or the stored states (fast) (default 1024 for\n"
    "                       each search thread, at most a quarter of the machine's\n"
    "                       memory): the peak; more than the machine has is refused\n"
    "  --mode optimal|fast  with --solve: fast (the default) finds a solution soon, as the\n"
    "                       game's first hint does; optimal keeps the fewest pushes and\n"
    "                       proves it (fewer levels in the time)\n"
    "  --threads N          with --solve: searches at once on each level (fast mode:\n"
    "                       different strategies, the first answer wins; they share\n"
    "                       --memory and --nodes; with 1, a search that fills --memory\n"
    "                       goes on with another strategy) (default: one per core)\n"
    "  --moves LURD|@FILE   with --hint: the moves played from the level's start\n"
    "  --no-solve-ahead     in the game: the solver works only when asked (H, S), not\n"
    "                       from each new position before it is asked\n"
    "  --hint-time SECONDS  in the game: the solver's budget for a hint (default 10);\n"
    "                       --time SECONDS there is the budget of S (default 30)\n"
    "  --help, -h           show this help and exit\n"
    "  --version            show the version and exit\n"
    "\n"
    "Keys in the game: arrows, hjkl or wasd move (W A J K too, for Caps Lock); u or\n"
    "Backspace undo; U or Ctrl-R redo; z/x undo/redo by push; Home/End undo to the\n"
    "start/redo to the end; r restart; n/p next/previous level; N/P next/previous\n"
    "unsolved; L or Tab level list; H hint (H again or Enter makes the push); S solve\n"
    "and replay (space pause, . step, , back, End to the end, + and - speed, Esc stop);\n"
    "B replay your best solution; m save a named snapshot, ' list them; i statistics\n"
    "(e exports the best solutions, i imports .sol files); D dead squares; ? help;\n"
    "Ctrl-L repaint; q quit. A mouse click on a floor square walks there.\n"
    "NO_COLOR turns colours off; the game needs a terminal that moves the cursor.\n"
    "\n"
    "Each option may be given once; --time and --hint-time take at most 10000000\n"
    "seconds. -- ends the options (sokoban --list -- -odd-name.xsb).\n"
    "\n"
    "Exit status: 0 success, 1 not solved or not verified, 2 bad input or usage, 3 the game\n"
    "could not save its progress (the reason on stderr), 128+N ended by signal N (saved).\n"
    "Progress: $XDG_DATA_HOME/sokoban/progress.db (~/.local/share/sokoban), an SQLite\n"
    "database; an old progress.txt there is imported once.\n"
    "See sokoban(6) for more.\n";

enum mode {
    MODE_PLAY,
    MODE_LIST,
    MODE_VERIFY,
    MODE_DEADLOCKS,
    MODE_SOLVE,
    MODE_HINT,
    MODE_TILES,
    MODE_TILES_FILE
};

enum {
    OPT_LIST = 256,
    OPT_VERIFY,
    OPT_DEADLOCKS,
    OPT_SOLVE,
    OPT_TILES,
    OPT_TILES_FILE,
    OPT_LEVEL,
    OPT_COLLECTION,
    OPT_ALL,
    OPT_TIME,
    OPT_NODES,
    OPT_MEMORY,
    OPT_MODE,
    OPT_THREADS,
    OPT_HINT_TIME,
    OPT_HELP,
    OPT_VERSION,
    OPT_HINT,
    OPT_MOVES,
    OPT_NO_SOLVE_AHEAD,
    OPT_LAST /* keep last */
};

static const struct option long_options[] = {
    {"list", required_argument, NULL, OPT_LIST},
    {"verify", required_argument, NULL, OPT_VERIFY},
    {"deadlocks", required_argument, NULL, OPT_DEADLOCKS},
    {"solve", required_argument, NULL, OPT_SOLVE},
    {"tiles", required_argument, NULL, OPT_TILES},
    {"tiles-file", required_argument, NULL, OPT_TILES_FILE},
    {"level", required_argument, NULL, OPT_LEVEL},
    {"collection", required_argument, NULL, OPT_COLLECTION},
    {"all", no_argument, NULL, OPT_ALL},
    {"time", required_argument, NULL, OPT_TIME},
    {"nodes", required_argument, NULL, OPT_NODES},
    {"memory", required_argument, NULL, OPT_MEMORY},
    {"mode", required_argument, NULL, OPT_MODE},
    {"threads", required_argument, NULL, OPT_THREADS},
    {"hint-time", required_argument, NULL, OPT_HINT_TIME},
    {"help", no_argument, NULL, OPT_HELP},
    {"version", no_argument, NULL, OPT_VERSION},
    {"hint", required_argument, NULL, OPT_HINT},
    {"moves", required_argument, NULL, OPT_MOVES},
    {"no-solve-ahead", no_argument, NULL, OPT_NO_SOLVE_AHEAD},
    {NULL, 0, NULL, 0},
};

/* The options that are not modes, as bits, and the ones each mode takes: an option a mode
 * would ignore is an error, not a silent no-op. */
enum {
    GIVEN_LEVEL = 1 << 0,
    GIVEN_ALL = 1 << 1,
    GIVEN_TIME = 1 << 2,
    GIVEN_NODES = 1 << 3,
    GIVEN_MEMORY = 1 << 4,
    GIVEN_MODE = 1 << 5,
    GIVEN_HINT_TIME = 1 << 6,
    GIVEN_COLLECTION = 1 << 7,
    GIVEN_MOVES = 1 << 8,
    GIVEN_NO_SOLVE_AHEAD = 1 << 9,
    GIVEN_THREADS = 1 << 10,
};

static const struct {
    int bit;
    const char *name;
} option_names[] = {
    {GIVEN_LEVEL, "--level"},         {GIVEN_ALL, "--all"},       {GIVEN_TIME, "--time"},
    {GIVEN_NODES, "--nodes"},         {GIVEN_MEMORY, "--memory"}, {GIVEN_MODE, "--mode"},
    {GIVEN_HINT_TIME, "--hint-time"}, {GIVEN_COLLECTION, "--collection"},
    {GIVEN_MOVES, "--moves"},         {GIVEN_NO_SOLVE_AHEAD, "--no-solve-ahead"},
    {GIVEN_THREADS, "--threads"},
};

static int options_taken_by(enum mode mode)
{
    switch (mode) {
    case MODE_PLAY:
        return GIVEN_LEVEL | GIVEN_TIME | GIVEN_HINT_TIME | GIVEN_COLLECTION |
               GIVEN_NO_SOLVE_AHEAD;
    case MODE_HINT:
        return GIVEN_LEVEL | GIVEN_TIME | GIVEN_MOVES | GIVEN_MEMORY;
    case MODE_LIST:
        return 0;
    case MODE_VERIFY:
        return GIVEN_LEVEL;
    case MODE_DEADLOCKS:
        return GIVEN_LEVEL;
    case MODE_SOLVE:
        return GIVEN_LEVEL | GIVEN_ALL | GIVEN_TIME | GIVEN_NODES | GIVEN_MEMORY | GIVEN_MODE |
               GIVEN_THREADS;
    case MODE_TILES:
    case MODE_TILES_FILE:
        return GIVEN_TIME | GIVEN_NODES;
    }
    return 0;
}

static const char *mode_name(enum mode mode)
{
    static const char *const names[] = {"the game", "--list", "--verify",  "--deadlocks",
                                        "--solve",  "--hint", "--tiles",   "--tiles-file"};
    return names[mode];
}

static int usage_error(const char *message, const char *argument)
{
    fprintf(stderr, "sokoban: %s%s%s\nTry 'sokoban --help'.\n", message, argument ? ": " : "",
            argument ? argument : "");
    return CLI_BAD_INPUT;
}

/* The long name of option code `option` ("--level"), for messages. */
static const char *option_name(int option)
{
    static char name[64];
    if (option == 'h') return "-h";
    for (const struct option *o = long_options; o->name; o++)
        if (o->val == option) {
            snprintf(name, sizeof name, "--%s", o->name);
            return name;
        }
    return "?";
}

/* Says what an option given without its value wants ("--level wants a number"). */
static int missing_value_error(int option)
{
    char message[96];
    snprintf(message, sizeof message, "%s wants a value (%s)", option_name(option),
             option == OPT_LEVEL                             ? "a level number from 1"
             : option == OPT_TIME || option == OPT_HINT_TIME ? "a number of seconds"
             : option == OPT_NODES                           ? "a number of nodes"
             : option == OPT_MEMORY                          ? "a size in MiB"
             : option == OPT_MODE                            ? "optimal or fast"
             : option == OPT_TILES                           ? "the tiles, in quotes"
             : option == OPT_COLLECTION                      ? "a collection name"
             : option == OPT_MOVES                           ? "LURD moves or @FILE"
                                                             : "a file name");
    return usage_error(message, NULL);
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

/* The longest time limit taken: 10,000,000 s, about 115 days. */
#define MAX_SECONDS 1e7
#define MAX_SECONDS_TEXT "10000000"

static bool parse_seconds(const char *text, double *out)
{
    char *end;
    errno = 0;
    double value = strtod(text, &end);
    if (errno || end == text || *end || !(value > 0) || value > MAX_SECONDS) return false;
    *out = value;
    return true;
}

int main(int argc, char **argv)
{
    cli_options options = {0};
    enum mode mode = MODE_PLAY;
    int modes_given = 0, given = 0;
    const char *mode_file = NULL;
    long long number;

    /* Each option may be given once: a second --time would silently win over the first. */
    unsigned char times_given[OPT_LAST - OPT_LIST] = {0};
    bool file_follows = false; /* a mode option met "--": its FILE is the first operand */

    opterr = 0;
    int option;
    while ((option = getopt_long(argc, argv, ":h", long_options, NULL)) != -1) {
        if (option >= OPT_LIST && option < OPT_LAST && times_given[option - OPT_LIST]++)
            return usage_error("an option given twice", option_name(option));
        /* "--list -- -x.xsb": getopt took "--" as the FILE; step back so that it ends the
         * options instead, and take the FILE from the operands */
        if (optarg && strcmp(optarg, "--") == 0 && argv[optind - 1] == optarg &&
            (option == OPT_LIST || option == OPT_VERIFY || option == OPT_DEADLOCKS ||
             option == OPT_SOLVE || option == OPT_TILES_FILE || option == OPT_HINT)) {
            file_follows = true;
            optind--;
        }
        switch (option) {
        case OPT_LIST:
            mode = MODE_LIST;
            mode_file = optarg;
            modes_given++;
            break;
        case OPT_VERIFY:
            mode = MODE_VERIFY;
            mode_file = optarg;
            modes_given++;
            break;
        case OPT_DEADLOCKS:
            mode = MODE_DEADLOCKS;
            mode_file = optarg;
            modes_given++;
            break;
        case OPT_SOLVE:
            mode = MODE_SOLVE;
            mode_file = optarg;
            modes_given++;
            break;
        case OPT_HINT:
            mode = MODE_HINT;
            mode_file = optarg;
            modes_given++;
            break;
        case OPT_MOVES:
            given |= GIVEN_MOVES;
            options.moves = optarg;
            break;
        case OPT_NO_SOLVE_AHEAD:
            given |= GIVEN_NO_SOLVE_AHEAD;
            options.no_solve_ahead = true;
            break;
        case OPT_TILES:
            mode = MODE_TILES;
            options.tiles = optarg;
            modes_given++;
            break;
        case OPT_TILES_FILE:
            mode = MODE_TILES_FILE;
            options.tiles_file = optarg;
            modes_given++;
            break;
        case OPT_LEVEL:
            given |= GIVEN_LEVEL;
            if (!parse_integer(optarg, 1, 1000000, &number))
                return usage_error("--level wants a level number from 1", optarg);
            options.level = (int)number;
            break;
        case OPT_COLLECTION:
            given |= GIVEN_COLLECTION;
            options.collection = optarg;
            break;
        case OPT_ALL:
            given |= GIVEN_ALL;
            options.all = true;
            break;
        case OPT_TIME:
            given |= GIVEN_TIME;
            if (!parse_seconds(optarg, &options.time_limit))
                return usage_error(
                    "--time wants seconds, more than 0 and at most " MAX_SECONDS_TEXT, optarg);
            break;
        case OPT_NODES:
            given |= GIVEN_NODES;
            if (!parse_integer(optarg, 1, (long long)1 << 62, &number))
                return usage_error("--nodes wants a positive whole number", optarg);
            options.node_limit = (uint64_t)number;
            break;
        case OPT_MEMORY:
            given |= GIVEN_MEMORY;
            if (!parse_integer(optarg, 1, 1 << 20, &number))
                return usage_error("--memory wants a size in MiB from 1", optarg);
            options.memory_mib = (int)number;
            break;
        case OPT_THREADS:
            given |= GIVEN_THREADS;
            if (!parse_integer(optarg, 1, 64, &number))
                return usage_error("--threads wants a number from 1 to 64", optarg);
            options.threads = (int)number;
            break;
        case OPT_MODE:
            given |= GIVEN_MODE;
            if (strcmp(optarg, "optimal") != 0 && strcmp(optarg, "fast") != 0)
                return usage_error("--mode wants optimal or fast", optarg);
            options.mode = optarg;
            break;
        case OPT_HINT_TIME:
            given |= GIVEN_HINT_TIME;
            if (!parse_seconds(optarg, &options.hint_time))
                return usage_error(
                    "--hint-time wants seconds, more than 0 and at most " MAX_SECONDS_TEXT, optarg);
            break;
        case 'h':
        case OPT_HELP:
            fputs(usage_text, stdout);
            return CLI_OK;
        case OPT_VERSION:
            printf("sokoban %s\n", SOKOBAN_VERSION);
            return CLI_OK;
        case ':':
            return missing_value_error(optopt);
        default:
            if (optopt) {
                char name[3] = {'-', (char)optopt, 0};
                return usage_error("unknown or incomplete option",
                                   optopt > 255 ? argv[optind - 1] : name);
            }
            return usage_error("unknown option", argv[optind - 1]);
        }
    }
    if (modes_given > 1)
        return usage_error("give one of --list, --verify, --deadlocks, --solve, --hint, "
                           "--tiles, --tiles-file",
                           NULL);
    int stray = given & ~options_taken_by(mode);
    for (size_t i = 0; stray && i < sizeof option_names / sizeof option_names[0]; i++) {
        if (stray & option_names[i].bit) {
            char message[96];
            snprintf(message, sizeof message, "%s does not apply to %s", option_names[i].name,
                     mode_name(mode));
            return usage_error(message, NULL);
        }
    }
    if (options.all && options.level)
        return usage_error("--all and --level exclude each other", NULL);

    const char **rest = (const char **)argv + optind;
    int rest_count = argc - optind;
    if (file_follows) {
        if (rest_count < 1) return usage_error("a file name should follow --", NULL);
        if (mode == MODE_TILES_FILE)
            options.tiles_file = rest[0];
        else
            mode_file = rest[0];
        rest++;
        rest_count--;
    }
    if (mode_file) {
        options.files = &mode_file;
        options.file_count = 1;
    }
    switch (mode) {
    case MODE_PLAY:
        options.files = rest;
        options.file_count = rest_count;
        return tui_main(&options);
    case MODE_VERIFY:
        if (rest_count != 1) return usage_error("--verify wants one SOLUTION argument", NULL);
        options.solution = rest[0];
        return cli_verify(&options);
    default:
        break;
    }
    if (rest_count > 0) return usage_error("unexpected argument", rest[0]);
    switch (mode) {
    case MODE_LIST:
        return cli_list(&options);
    case MODE_DEADLOCKS:
        return cli_deadlocks(&options);
    case MODE_SOLVE:
        return cli_solve(&options);
    case MODE_HINT:
        return cli_hint(&options);
    case MODE_TILES:
        return cli_tiles(&options);
    case MODE_TILES_FILE:
        return cli_tiles_file(&options);
    default:
        return CLI_BAD_INPUT;
    }
}
