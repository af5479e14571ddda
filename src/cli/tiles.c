/* tiles.c - sokoban --tiles and --tiles-file: sliding-tile puzzles from the command line.
 *
 * An instance is written  TILES [; goal=blank-last|blank-first]  : 9 or 16 tiles row by
 * row (x or 0 for the blank), and optionally the goal (default blank-last, 1 2 3 .. x;
 * blank-first is Korf's 0 1 2 .. 15). 15-puzzles use the pattern databases, built on first
 * use and cached under $XDG_CACHE_HOME/sokoban (default ~/.cache/sokoban); when they
 * cannot be cached the search falls back to Manhattan distance + linear conflicts. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli.h"
#include "level/textfile.h"
#include "level/utf8.h"
#include "tiles/tiles.h"
#include "tiles/tiles_pdb.h"

/* One instance: the start and the goal. */
typedef struct instance {
    tiles_board start, goal;
} instance;

/* Reads "TILES [; goal=KIND]"; false with the reason in `error` on bad input. */
/* The first control character of the `length` bytes of `text` other than the blanks
 * between words (tab, line ends), or -1: a message names it rather than quote the text,
 * which a terminal would act on (ESC, U+009B). */
static long control_character(const char *text, size_t length)
{
    for (size_t i = 0; i < length && text[i];) {
        unsigned code;
        i += (size_t)utf8_decode(text + i, &code);
        if (utf8_is_control(code) && code != '\t' && code != '\r' && code != '\n')
            return (long)code;
    }
    return -1;
}

static bool parse_instance(const char *text, instance *out, char *error, size_t error_size)
{
    long control = control_character(text, strlen(text));
    if (control >= 0) {
        snprintf(error, error_size,
                 "a control character (U+%04lX) is not a tile (numbers from 1, and x or 0 for the "
                 "blank)",
                 control);
        return false;
    }
    char tiles[512];
    const char *separator = strchr(text, ';');
    size_t length = separator ? (size_t)(separator - text) : strlen(text);
    if (length >= sizeof tiles) {
        snprintf(error, error_size, "line too long");
        return false;
    }
    memcpy(tiles, text, length);
    tiles[length] = 0;
    if (!tiles_parse(tiles, &out->start, error, error_size)) return false;
    tiles_goal_kind kind = TILES_GOAL_BLANK_LAST;
    while (separator) {
        const char *option = separator + 1;
        separator = strchr(option, ';');
        size_t size = separator ? (size_t)(separator - option) : strlen(option);
        while (size && strchr(" \t\r\n", *option)) option++, size--;
        while (size && strchr(" \t\r\n", option[size - 1])) size--;
        if (size == 0) continue;
        if (size == strlen("goal=blank-last") && !strncmp(option, "goal=blank-last", size)) {
            kind = TILES_GOAL_BLANK_LAST;
        } else if (size == strlen("goal=blank-first") &&
                   !strncmp(option, "goal=blank-first", size)) {
            kind = TILES_GOAL_BLANK_FIRST;
        } else {
            snprintf(error, error_size,
                     "unknown '%.*s' after ';' (want goal=blank-last or goal=blank-first)",
                     (int)(size > 40 ? 40 : size), option);
            return false;
        }
    }
    tiles_goal(out->start.width, kind, &out->goal);
    return true;
}

/* The pattern databases, opened on the first 15-puzzle. */
typedef struct databases {
    bool tried;
    tiles_pdb *pdb;
} databases;

static void print_notice(void *argument, const char *message)
{
    cli_say("%s in %s (once; a few seconds)", message, (const char *)argument);
}

/* The cache directory: $XDG_CACHE_HOME/sokoban, else $HOME/.cache/sokoban; false when
 * neither is set. */
static bool cache_directory(char *dir, size_t size)
{
    const char *xdg = getenv("XDG_CACHE_HOME");
    const char *home = getenv("HOME");
    int length;
    if (xdg && xdg[0] == '/')
        length = snprintf(dir, size, "%s/sokoban", xdg);
    else if (home && home[0])
        length = snprintf(dir, size, "%s/.cache/sokoban", home);
    else
        return false;
    return length > 0 && (size_t)length < size;
}

static const tiles_pdb *databases_for(databases *d, int width)
{
    if (width != 4) return NULL; /* the 8-puzzle takes milliseconds without them */
    if (d->tried) return d->pdb;
    d->tried = true;
    char dir[4096], error[4400];
    if (!cache_directory(dir, sizeof dir)) {
        fputs("sokoban: no cache directory (neither XDG_CACHE_HOME nor HOME is set); "
              "using Manhattan distance + linear conflicts\n",
              stderr);
        return NULL;
    }
    error[0] = 0;
    d->pdb = tiles_pdb_open(width, dir, print_notice, dir, NULL, error, sizeof error);
    if (!d->pdb)
        cli_say("no pattern databases (%s); using Manhattan distance + linear conflicts", error);
    else if (error[0]) /* built, but not saved */
        cli_say("%s; the pattern databases will be built again next time", error);
    return d->pdb;
}

/* The limits of one puzzle, its time counted from now. */
static ida_limits limits_of(const cli_options *options)
{
    return (ida_limits){.deadline =
                            options->time_seconds > 0 ? ida_clock() + options->time_seconds : 0,
                        .max_nodes = options->node_limit};
}

int cli_tiles(const cli_options *options)
{
    instance problem;
    char error[256];
    if (!parse_instance(options->tiles, &problem, error, sizeof error)) {
        cli_say("--tiles: %s", error);
        return CLI_BAD_INPUT;
    }
    if (!tiles_is_solvable(&problem.start, &problem.goal)) {
        puts("unsolvable");
        return CLI_NO;
    }
    databases d = {0};
    const tiles_pdb *pdb = databases_for(&d, problem.start.width);
    ida_limits limits = limits_of(options); /* the databases read or built, the time starts */
    tiles_solution solution;
    tiles_solve(&problem.start, &problem.goal, pdb, &limits, &solution);
    int status = CLI_OK;
    if (solution.status == IDA_SOLVED) {
        puts(solution.moves);
    } else if (solution.status == IDA_UNSOLVABLE) {
        puts("unsolvable");
        status = CLI_NO;
    } else {
        cli_say("--tiles: not solved (%s) after %llu nodes, %.1f s",
                ida_status_name(solution.status), (unsigned long long)solution.nodes,
                solution.seconds);
        status = CLI_NO;
    }
    tiles_solution_free(&solution);
    tiles_pdb_free(d.pdb);
    return status;
}

/* One line of an instance file. */
typedef struct file_line {
    char text[1024];
    bool too_long; /* longer than text holds: the rest was skipped */
    long nul_at;   /* the column (1-based) of the first NUL byte, or 0 */
} file_line;

/* Reads the next line, through its '\n' whatever it holds (NUL bytes included), so that
 * line numbers always count the file's lines. Returns false at the end of the file. */
static bool read_line(FILE *file, file_line *line)
{
    size_t used = 0;
    long column = 0;
    int c;
    line->too_long = false;
    line->nul_at = 0;
    while ((c = getc(file)) != EOF) {
        column++;
        if (c == '\n') break;
        if (c == 0 && !line->nul_at) line->nul_at = column;
        if (used + 1 < sizeof line->text)
            line->text[used++] = (char)c;
        else
            line->too_long = true;
    }
    line->text[used] = 0;
    return c != EOF || column > 0;
}

/* Solves the instances of an open file, one line each; returns the exit status. */
static int solve_lines(FILE *file, const cli_options *options)
{
    databases d = {0};
    file_line line;
    char error[256];
    int line_number = 0, status = CLI_OK;
    int instances = 0, solved = 0, unsolvable = 0;
    uint64_t nodes = 0;
    double seconds = 0;
    while (!ferror(stdout) && read_line(file, &line)) { /* main.c says why it stopped */
        line_number++;
        const char *p = line.text + strspn(line.text, " \t\r\n");
        if (!line.nul_at && (!*p || *p == '#')) continue;
        instance problem;
        bool ok = false;
        if (line.nul_at)
            snprintf(error, sizeof error, "a NUL byte at column %ld: not a line of text",
                     line.nul_at);
        else if (line.too_long)
            snprintf(error, sizeof error, "line too long");
        else
            ok = parse_instance(line.text, &problem, error, sizeof error);
        if (!ok) {
            cli_say("%s:%d: %s", options->tiles_file, line_number, error);
            status = CLI_BAD_INPUT;
            continue;
        }
        instances++;
        tiles_solution solution;
        const tiles_pdb *pdb = tiles_is_solvable(&problem.start, &problem.goal)
                                   ? databases_for(&d, problem.start.width)
                                   : NULL;
        ida_limits limits = limits_of(options); /* each puzzle its own time */
        tiles_solve(&problem.start, &problem.goal, pdb, &limits, &solution);
        nodes += solution.nodes;
        seconds += solution.seconds;
        if (solution.status == IDA_SOLVED) {
            solved++;
            printf("line=%d status=solved length=%d nodes=%llu seconds=%.3f solution=%s\n",
                   line_number, solution.length, (unsigned long long)solution.nodes,
                   solution.seconds, solution.moves);
        } else {
            unsolvable += solution.status == IDA_UNSOLVABLE;
            if (solution.status != IDA_UNSOLVABLE && status == CLI_OK) status = CLI_NO;
            printf("line=%d status=%s length=- nodes=%llu seconds=%.3f\n", line_number,
                   ida_status_name(solution.status), (unsigned long long)solution.nodes,
                   solution.seconds);
        }
        cli_flush();
        tiles_solution_free(&solution);
    }
    printf("total instances=%d solved=%d unsolvable=%d nodes=%llu seconds=%.3f "
           "nodes_per_second=%.0f\n",
           instances, solved, unsolvable, (unsigned long long)nodes, seconds,
           seconds > 0 ? (double)nodes / seconds : 0.0);
    tiles_pdb_free(d.pdb);
    return status;
}

/* The file is opened once and checked after opening (textfile_open), so what is read is
 * what was checked. */
int cli_tiles_file(const cli_options *options)
{
    const char *path = options->tiles_file;
    bool from_stdin = strcmp(path, "-") == 0;
    char reason[200];
    FILE *file = stdin;
    if (!from_stdin) {
        int fd = textfile_open(path, reason, sizeof reason);
        if (fd < 0) {
            cli_say("%s: %s", path, reason);
            return CLI_BAD_INPUT;
        }
        file = fdopen(fd, "r");
        if (!file) {
            cli_say("%s: cannot open: %s", path, strerror(errno));
            close(fd);
            return CLI_BAD_INPUT;
        }
    }
    int status = solve_lines(file, options);
    if (ferror(file)) {
        cli_say("%s: cannot read: %s", path, strerror(errno));
        status = CLI_BAD_INPUT;
    }
    if (!from_stdin) fclose(file);
    return status;
}
