/* hint.c - sokoban --hint: the next push from a position of a level, on one line.
 *
 * The position is the level's start with the --moves played (LURD text, @FILE, @- for
 * standard input, or - for none, as --verify reads a solution). The
 * answer comes from the fast mode, as the game's first hint does:
 *
 *   level=N status=solved push=box(X,Y)DIRECTION pushes=P moves=M seconds=S solution=LURD
 *
 * X and Y are the box's column and row, counted from 1 at the top-left corner of the level's
 * map as the file draws it; the solution is the whole rest from the position (so `--verify`
 * with the moves and then the solution solves the level). Fields without a value are "-". A
 * level the solver refuses (status=error) adds reason=WHY and says why on stderr, as --solve
 * does. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "rules/board.h"
#include "cli.h"
#include "rules/game.h"
#include "rules/lurd.h"
#include "solver/solver.h"

enum { DEFAULT_SECONDS = 10 };

static const char *const direction_names[DIRECTION_COUNT] = {"left", "up", "right", "down"};

/* Plays the --moves on `g`; false after printing why. */
static bool play_moves(const cli_options *options, game *g)
{
    const char *text = options->moves;
    if (!text || strcmp(text, "-") == 0) return true; /* "-": none, as --hint prints them */
    char *file_text = NULL;
    if (strcmp(text, "@-") == 0) {
        if (!(text = file_text = cli_read_stdin())) return false;
    } else if (text[0] == '@') {
        if (!(text = file_text = cli_read_text_file(text + 1))) return false;
    }
    lurd_steps steps;
    lurd_error error;
    bool ok = lurd_parse(text, &steps, &error);
    if (ok) {
        ok = lurd_apply(g, &steps, &error);
        lurd_steps_free(&steps);
    }
    if (!ok) cli_say("bad --moves: %s", error.message);
    free(file_text);
    return ok;
}

/* Writes "box(X,Y)DIRECTION" for the first push of `steps` from `from`, or "-". */
static void describe_first_push(const board *b, const position *from, const game_step *steps,
                                int count, char *out, size_t size)
{
    snprintf(out, size, "-");
    position p;
    if (!position_copy(&p, from, b)) return;
    for (int i = 0; i < count; i++) {
        int stand = p.player;
        step_result r = board_step(b, &p, steps[i].direction);
        if (r == STEP_BLOCKED) break;
        if (r == STEP_PUSHED) {
            int box = board_neighbour(b, stand, steps[i].direction);
            snprintf(out, size, "box(%d,%d)%s", board_x(b, box) + 1, board_y(b, box) + 1,
                     direction_names[steps[i].direction]);
            break;
        }
    }
    position_free(&p);
}

int cli_hint(const cli_options *options)
{
    collection c;
    if (!cli_load_collection(options, &c)) return CLI_BAD_INPUT;
    const level *lv = cli_pick_level(options, &c);
    game g;
    if (!lv || !game_init(&g, lv)) {
        if (lv) fputs("sokoban: out of memory\n", stderr);
        collection_free(&c);
        return CLI_BAD_INPUT;
    }
    if (!play_moves(options, &g)) {
        game_free(&g);
        collection_free(&c);
        return CLI_BAD_INPUT;
    }
    solver_result result = {.status = SOLVER_SOLVED};
    if (!game_is_solved(&g)) {
        solver_options solver = {
            .mode = SOLVER_FAST,
            .deadline =
                ida_clock() + (options->time_seconds > 0 ? options->time_seconds : DEFAULT_SECONDS),
            .memory_bytes = options->memory_bytes,
        };
        solver_solve(&g.board, &g.position, &solver, &result);
    }
    bool solved = result.status == SOLVER_SOLVED;
    char push[64] = "-", pushes[16] = "-", moves[16] = "-";
    char *lurd = NULL;
    if (solved) {
        describe_first_push(&g.board, &g.position, result.steps, result.moves, push, sizeof push);
        snprintf(pushes, sizeof pushes, "%d", result.pushes);
        snprintf(moves, sizeof moves, "%d", result.moves);
        if (result.moves > 0) lurd = lurd_format(result.steps, result.moves, false);
    }
    /* an error says why, as --solve does: a token at the end of the line, a sentence on stderr */
    bool error = result.status == SOLVER_ERROR;
    printf("level=%d status=%s push=%s pushes=%s moves=%s seconds=%.3f solution=%s%s%s\n",
           lv->number, solver_status_name(result.status), push, pushes, moves, result.seconds,
           lurd ? lurd : "-", error ? " reason=" : "",
           error ? (result.reason ? result.reason : "unknown") : "");
    cli_flush();
    if (error)
        cli_say("%s: level %d: %s", c.path, lv->number,
                result.message[0] ? result.message : "the solver failed for an unknown reason");
    free(lurd);
    solver_result_free(&result);
    game_free(&g);
    collection_free(&c);
    return solved ? CLI_OK : CLI_NO;
}
