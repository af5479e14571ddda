/* fuzz_solve.c - libFuzzer target for the solver, the packing-plan search and the optimizer
 * on levels of any shape.
 *
 * Parses the input as a level collection. Each accepted level that is small (at most
 * FUZZ_SOLVE_SQUARES squares inside and FUZZ_SOLVE_BOXES boxes, so that an input stays
 * quick) is given to the fast mode and to the optimal mode, one thread each and a small node
 * limit, and to the backward packing-plan search. Whatever the level: no crash, hang or bad
 * memory access (the sanitizers watch), and
 *   - a solution either mode returns replays by the rules, as --verify replays it (LURD
 *     written, read back and applied to a game, which must end solved), with the pushes
 *     and moves the result says;
 *   - a mode never proves unsolvable a level the other solved, and the optimal mode's
 *     pushes are never more than the fast mode's;
 *   - a plan gives each goal a layer in range, its parking squares inside and off the goals,
 *     each parked box moving on in a layer in range;
 *   - the optimizer, given the solution found (by moves and by pushes, a small node limit),
 *     returns one that replays and is not longer than its input by the metric asked, and
 *     by pushes never fewer pushes than the optimal mode proved the fewest. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "level/level.h"
#include "rules/board.h"
#include "rules/game.h"
#include "rules/lurd.h"
#include "solver/optimizer.h"
#include "solver/solver.h"
#include "solver/solver_packing_search.h"

enum {
    FUZZ_SOLVE_SQUARES = 64, /* floor squares inside, at most */
    FUZZ_SOLVE_BOXES = 6,
    FUZZ_SOLVE_NODES = 3000,     /* each mode's node limit */
    FUZZ_OPTIMIZE_NODES = 2000,  /* the optimizer's */
    FUZZ_SOLVE_LEVELS = 4,       /* levels of one input looked at, at most */
};

static void fail(const level *lv, const char *what)
{
    char *text = level_to_text(lv);
    fprintf(stderr, "fuzz_solve: %s; the level:\n%s\n", what, text ? text : "(no memory)");
    free(text);
    abort();
}

/* Replays `steps` as --verify does: written as LURD, read back, applied to a fresh game on
 * the level, which must end solved with `moves` moves and `pushes` pushes. */
static void check_replays(const level *lv, const game_step *steps, int count, int moves,
                          int pushes, const char *who)
{
    char what[160];
    if (count != moves) {
        snprintf(what, sizeof what, "%s: %d steps for %d moves", who, count, moves);
        fail(lv, what);
    }
    char *text = lurd_format(steps, count, false);
    if (!text) return; /* out of memory */
    lurd_steps parsed;
    lurd_error error;
    if (!lurd_parse(text, &parsed, &error)) {
        snprintf(what, sizeof what, "%s: its LURD does not read back: %s", who, error.message);
        free(text);
        fail(lv, what);
    }
    free(text);
    game g;
    if (!game_init(&g, lv)) {
        lurd_steps_free(&parsed);
        return;
    }
    bool legal = lurd_apply(&g, &parsed, &error);
    if (!legal) {
        snprintf(what, sizeof what, "%s: illegal %s", who, error.message);
        fail(lv, what);
    }
    if (!game_is_solved(&g)) {
        snprintf(what, sizeof what, "%s: not solved after %d moves", who, g.moves);
        fail(lv, what);
    }
    if (g.moves != moves || g.pushes != pushes) {
        snprintf(what, sizeof what, "%s: replays in %d/%d, says %d/%d", who, g.moves, g.pushes,
                 moves, pushes);
        fail(lv, what);
    }
    game_free(&g);
    lurd_steps_free(&parsed);
}

static solver_status solve(const level *lv, const board *b, const position *start,
                           solver_mode mode, solver_result *result)
{
    solver_options options = {.mode = mode,
                              .max_nodes = FUZZ_SOLVE_NODES,
                              .memory_bytes = (size_t)8 << 20,
                              .threads = 1};
    solver_status status = solver_solve(b, start, &options, result);
    const char *who = mode == SOLVER_FAST ? "fast mode" : "optimal mode";
    if (status == SOLVER_SOLVED)
        check_replays(lv, result->steps, result->steps ? result->moves : 0, result->moves,
                      result->pushes, who);
    return status;
}

static void check_plan(const level *lv, const board *b, const position *start)
{
    int goals = b->goal_count;
    uint8_t *sources = calloc((size_t)b->size, 1);
    int *layer = calloc((size_t)goals + 1, sizeof *layer);
    int *square = calloc((size_t)goals + 1, sizeof *square);
    int *goal = calloc((size_t)goals + 1, sizeof *goal);
    int *parked = calloc((size_t)goals + 1, sizeof *parked);
    if (!sources || !layer || !square || !goal || !parked) goto done;
    for (int q = 0; q < b->size; q++)
        if (start->boxes[q]) sources[q] = board_is_goal(b, q) ? 2 : 1;
    solver_parking parking = {.square = square, .goal = goal, .layer = parked};
    int layers = solver_packing_search(b, sources, NULL, layer, &parking, NULL);
    if (layers < -1) fail(lv, "plan: layer count out of range");
    if (layers <= 0) goto done;
    for (int i = 0; i < goals; i++)
        if (layer[i] < 0 || layer[i] >= layers) fail(lv, "plan: a goal's layer out of range");
    if (parking.count < 0 || parking.count > goals) fail(lv, "plan: parking count out of range");
    for (int i = 0; i < parking.count; i++) {
        int q = parking.square[i];
        if (q < 0 || q >= b->size || !board_is_inside(b, q)) fail(lv, "plan: parking outside");
        if (board_is_goal(b, q)) fail(lv, "plan: parking on a goal");
        if (parking.goal[i] < 0 || parking.goal[i] >= goals) fail(lv, "plan: parked goal out of range");
        if (parking.layer[i] < 0 || parking.layer[i] >= layers)
            fail(lv, "plan: parked layer out of range");
    }
done:
    free(sources);
    free(layer);
    free(square);
    free(goal);
    free(parked);
}

static void check_optimizer(const level *lv, const board *b, const position *start,
                            const solver_result *found, optimizer_metric metric, int fewest)
{
    optimizer_options options = {.metric = metric,
                                 .max_nodes = FUZZ_OPTIMIZE_NODES,
                                 .memory_bytes = (size_t)8 << 20};
    optimizer_result result;
    optimizer_status status =
        optimizer_optimize(b, start, found->steps, found->moves, &options, &result);
    const char *who = metric == OPTIMIZER_BY_MOVES ? "optimizer by moves" : "optimizer by pushes";
    if (status == OPTIMIZER_INVALID) fail(lv, "optimizer: a checked solution called invalid");
    if (!result.steps && result.moves > 0) fail(lv, "optimizer: no steps");
    check_replays(lv, result.steps, result.moves, result.moves, result.pushes, who);
    if (optimizer_shorter(metric, found->moves, found->pushes, result.moves, result.pushes))
        fail(lv, "optimizer: longer than its input");
    if (fewest >= 0 && result.pushes < fewest)
        fail(lv, "optimizer: fewer pushes than the optimal mode's");
    if (result.pushes_fewest && fewest >= 0 && result.pushes != fewest)
        fail(lv, "optimizer: pushes called fewest, not the optimal mode's");
    optimizer_result_free(&result);
}

/* The level's floor inside and its boxes, within the caps. */
static bool small_enough(const board *b, const position *start)
{
    int inside = 0;
    for (int q = 0; q < b->size; q++) inside += board_is_inside(b, q) ? 1 : 0;
    return inside <= FUZZ_SOLVE_SQUARES && start->box_count <= FUZZ_SOLVE_BOXES;
}

static void check_level(const level *lv)
{
    board b;
    position start;
    if (!board_from_level(lv, &b, &start)) return;
    if (!small_enough(&b, &start)) goto done;

    solver_result fast, optimal;
    solver_status fs = solve(lv, &b, &start, SOLVER_FAST, &fast);
    solver_status os = solve(lv, &b, &start, SOLVER_OPTIMAL, &optimal);
    if (fs == SOLVER_SOLVED && os == SOLVER_UNSOLVABLE)
        fail(lv, "the optimal mode proved unsolvable a level the fast mode solved");
    if (os == SOLVER_SOLVED && fs == SOLVER_UNSOLVABLE)
        fail(lv, "the fast mode proved unsolvable a level the optimal mode solved");
    if (fs == SOLVER_SOLVED && os == SOLVER_SOLVED && optimal.pushes > fast.pushes)
        fail(lv, "the optimal mode's solution has more pushes than the fast mode's");

    check_plan(lv, &b, &start);

    int fewest = os == SOLVER_SOLVED ? optimal.pushes : -1;
    const solver_result *found = fs == SOLVER_SOLVED ? &fast : os == SOLVER_SOLVED ? &optimal : NULL;
    if (found && found->moves > 0 && found->steps) {
        check_optimizer(lv, &b, &start, found, OPTIMIZER_BY_MOVES, fewest);
        check_optimizer(lv, &b, &start, found, OPTIMIZER_BY_PUSHES, fewest);
    }
    solver_result_free(&fast);
    solver_result_free(&optimal);
done:
    position_free(&start);
    board_free(&b);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    collection c;
    level_error error;
    if (!collection_parse((const char *)data, size, "fuzz", &c, &error)) return 0;
    int looked = 0;
    for (int i = 0; i < c.count && looked < FUZZ_SOLVE_LEVELS; i++) {
        if (c.levels[i].error) continue; /* kept with its reason, never played */
        check_level(&c.levels[i]);
        looked++;
    }
    collection_free(&c);
    return 0;
}
