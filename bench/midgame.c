/* midgame.c - mid-game positions of real play, as a level collection for the solver.
 *
 * For each level NAME%04d.sok of DIR with its reference solution NAME%04d.sol beside it,
 * replays the solution up to a fraction of its pushes (by default the first half: the
 * position right after push floor(P / 2) of P) and writes that position as an XSB level to
 * standard output, titled "NAME%04d at push K of P". bench/midgame.sh solves the result.
 * With --every K it writes instead the position after every K-th push before the last
 * (K, 2K, ...): the positions where hint_bench --as-played presses H, as a collection that
 * bench/solve.sh can measure at node limits.
 *
 *   midgame [--dir DIR] [--prefix NAME] [--levels N] [--first L] [--fraction F | --every K]
 */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>

#include "rules/game.h"
#include "level/level.h"
#include "rules/lurd.h"
#include "level/textfile.h"

static const char USAGE[] =
    "Usage: midgame [--dir DIR] [--prefix NAME] [--levels N] [--first L]\n"
    "               [--fraction F | --every K]\n"
    "Writes, as one XSB collection, the position after the first F (default 0.5) of the\n"
    "pushes of the reference solution DIR/NAME%04d.sol of each level DIR/NAME%04d.sok,\n"
    "levels L (default 1) to L+N-1 (default 90); with --every K, the positions after\n"
    "pushes K, 2K, ... before the last (hint_bench --as-played's stops). Defaults: DIR\n"
    "/usr/share/games/cavepacker/maps, NAME xsokoban.\n";

/* Reads a whole small file (a .sol solution) with the library's reader; NULL when it
 * cannot. */
static char *read_file(const char *path)
{
    char *text = NULL, reason[256];
    size_t length;
    return textfile_read(path, 1 << 20, &text, &length, reason, sizeof reason) ? text : NULL;
}

/* Writes the position of `g` (level `number`, whose solution has `total` pushes) as one
 * level of the collection; false when out of memory. */
static bool write_one(const game *g, const char *prefix, int number, int total)
{
    char *text = position_to_text(&g->board, &g->position);
    if (text) printf("; %s%04d at push %d of %d\n\n%s\n", prefix, number, g->pushes, total, text);
    free(text);
    return text != NULL;
}

/* Writes the positions of level `number`: after `fraction` of its solution's pushes, or,
 * when `every` > 0, after every `every`-th push before the last; false when its files cannot
 * be read or the solution does not replay. */
static bool write_position(const char *directory, const char *prefix, int number, double fraction,
                           int every)
{
    char path[4096];
    snprintf(path, sizeof path, "%s/%s%04d.sok", directory, prefix, number);
    collection levels;
    level_error level_failure;
    if (!collection_load(path, &levels, &level_failure)) {
        fprintf(stderr, "midgame: %s\n", level_failure.message);
        return false;
    }
    snprintf(path, sizeof path, "%s/%s%04d.sol", directory, prefix, number);
    char *solution = read_file(path);
    lurd_steps steps = {0};
    lurd_error failure = {{0}};
    game g;
    bool ok = solution && levels.count >= 1 && lurd_parse(solution, &steps, &failure) &&
              game_init(&g, &levels.levels[0]);
    if (ok && !lurd_apply(&g, &steps, &failure)) {
        game_free(&g);
        ok = false;
    }
    if (!ok) {
        fprintf(stderr, "midgame: %s: %s\n", path, solution ? failure.message : "cannot read");
    } else {
        int total = g.pushes, step = every > 0 ? every : total + 1;
        int target = every > 0 ? every : (int)(total * fraction);
        game_restart(&g);
        for (; ok && target <= total && (every == 0 || target < total); target += step) {
            while (g.pushes < target && game_redo(&g)) continue;
            ok = write_one(&g, prefix, number, total);
        }
        game_free(&g);
    }
    lurd_steps_free(&steps);
    free(solution);
    collection_free(&levels);
    return ok;
}

int main(int argc, char **argv)
{
    const char *directory = "/usr/share/games/cavepacker/maps", *prefix = "xsokoban";
    int first = 1, count = 90, every = 0;
    double fraction = 0.5;
    static const struct option long_options[] = {
        {"dir", required_argument, NULL, 'd'},      {"prefix", required_argument, NULL, 'p'},
        {"levels", required_argument, NULL, 'n'},   {"first", required_argument, NULL, 'f'},
        {"fraction", required_argument, NULL, 'x'}, {"every", required_argument, NULL, 'e'},
        {"help", no_argument, NULL, 'h'},           {NULL, 0, NULL, 0},
    };
    int option;
    while ((option = getopt_long(argc, argv, "", long_options, NULL)) != -1) {
        switch (option) {
        case 'd':
            directory = optarg;
            break;
        case 'p':
            prefix = optarg;
            break;
        case 'n':
            count = atoi(optarg);
            break;
        case 'f':
            first = atoi(optarg);
            break;
        case 'x':
            fraction = atof(optarg);
            break;
        case 'e':
            every = atoi(optarg);
            break;
        case 'h':
            fputs(USAGE, stdout);
            return 0;
        default:
            fputs(USAGE, stderr);
            return 2;
        }
    }
    if (optind != argc || count < 1 || first < 1 || every < 0 ||
        !(fraction >= 0 && fraction <= 1)) {
        fputs(USAGE, stderr);
        return 2;
    }
    int failed = 0;
    for (int number = first; number < first + count; number++)
        if (!write_position(directory, prefix, number, fraction, every)) failed++;
    return failed ? 1 : 0;
}
