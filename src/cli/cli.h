/* cli.h - the command line: the options main() parsed, and one function per mode.
 *
 * Each mode lives in a file of its own under src/cli/ (the game in src/tui/) and returns
 * the process exit status: 0 success, 1 a negative answer (not solved, not verified),
 * 2 bad input or usage (and output that could not be written, main.c). Messages go to stderr as
 * "sokoban: ...". */
#ifndef SOKOBAN_CLI_H
#define SOKOBAN_CLI_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "level/level.h"
#include "rules/board.h"
#include "rules/game.h"
#include "solver/optimizer.h"

/* CLI_UNSAVED: the game ended with progress it could not save (the reason on stderr). */
enum { CLI_OK = 0, CLI_NO = 1, CLI_BAD_INPUT = 2, CLI_UNSAVED = 3 };

typedef struct cli_options {
    const char **files; /* collection files named on the command line */
    int file_count;
    int level;              /* --level N, or 0 when not given */
    const char *collection; /* --collection NAME, or NULL */
    bool all;               /* --all */
    const char *solution;   /* --verify's LURD argument (or @file) */
    double time_seconds;    /* --time SECONDS (0: default) */
    uint64_t node_limit;    /* --nodes N (0: none) */
    size_t memory_bytes;    /* --memory MiB, in bytes (0: default) */
    const char *mode;       /* --mode optimal|fast (NULL: default) */
    int threads;            /* --threads N (0: one per core) */
    double hint_seconds;    /* --hint-time SECONDS for the game (0: default) */
    const char *tiles;      /* --tiles "..." */
    const char *tiles_file; /* --tiles-file FILE */
    const char *moves;      /* --hint's --moves LURD (or @file) */
    bool no_solve_ahead;    /* --no-solve-ahead: the game's solver works only when asked */
    bool edit;              /* --edit: the game opens in the level editor */
    const char *by;         /* --by moves|pushes: what the optimizer shortens first */
    double optimize_time;   /* --solve's --optimize-time SECONDS (0: no optimizing) */
} cli_options;

int cli_list(const cli_options *options);
int cli_verify(const cli_options *options);
int cli_deadlocks(const cli_options *options);
int cli_solve(const cli_options *options);
int cli_hint(const cli_options *options);
int cli_optimize(const cli_options *options);
int cli_tiles(const cli_options *options);
int cli_tiles_file(const cli_options *options);
/* The terminal game (src/tui/). */
int tui_main(const cli_options *options);

/* Loads the one collection the options name; on failure prints the error and returns
 * false. */
bool cli_load_collection(const cli_options *options, collection *out);

/* The level --level names in `c` (1 when --level was not given); prints an error and
 * returns NULL when there is no such level or it cannot be played (its reason). */
const level *cli_pick_level(const cli_options *options, const collection *c);

/* What --by asks the optimizer to shorten first (moves unless "pushes"). */
optimizer_metric cli_optimizer_metric(const cli_options *options);
/* Optimizes `steps` from `start` for `seconds` with the options' --by, --nodes and
 * --memory; false when the steps do not solve the level (*result to free either way). */
bool cli_optimize_steps(const cli_options *options, const board *b, const position *start,
                        const game_step *steps, int count, double seconds,
                        optimizer_result *result);

/* Flushes standard output, a line a mode wants seen at once (--solve's, one a level); the
 * reason of the first that failed is kept for main's last word: cli_flush_error(), its errno
 * or 0, since the close at the end finds nothing left to write and no reason. */
void cli_flush(void);
int cli_flush_error(void);

/* A solution's text from a file (cli_read_text_file) or standard input (cli_read_stdin),
 * at most 16 MiB of text: a string to free(), or NULL after printing why. */
char *cli_read_text_file(const char *path);
char *cli_read_stdin(void);

/* Says the message `format` makes on stderr as one line, "sokoban: MESSAGE": its control
 * characters (a line end or an escape in a path or an argument) left out, so that a message
 * is one line of text whatever the names in it. */
void cli_say(const char *format, ...) __attribute__((format(printf, 1, 2)));

#endif
