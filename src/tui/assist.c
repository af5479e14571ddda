/* assist.c - hints and solve-and-replay: requests to the worker, and its answers taken into
 * the play state. */
#include <assert.h>
#include <stdlib.h>
#include <string.h>

#include "../lurd.h"
#include "assist.h"
#include "play.h"

static const char *mode_name(solver_mode mode)
{
    return mode == SOLVER_OPTIMAL ? "optimal" : "fast";
}

/* ---- Requests ----------------------------------------------------------------------- */

/* Sends a request for the position in play; false (with a message) when it cannot. */
static bool submit(assist *a, play *p, assist_request what)
{
    if (!a->worker) {
        play_message(p, PLAY_MESSAGE_ERROR, "The solver is not available (no thread could start)");
        return false;
    }
    if (game_is_solved(&p->game)) {
        play_message(p, PLAY_MESSAGE_INFO, "The level is solved already: n goes to the next one");
        return false;
    }
    worker_request request = {
        .job = what == ASSIST_REQUEST_HINT ? WORKER_HINT : WORKER_SOLVE,
        .game = &p->game,
        .budget_seconds = what == ASSIST_REQUEST_HINT ? a->hint_seconds : a->solve_seconds,
    };
    uint64_t id = worker_submit(a->worker, &request);
    if (id == 0) {
        play_message(p, PLAY_MESSAGE_ERROR, "Out of memory: the solver cannot take the request");
        return false;
    }
    a->request = what;
    a->request_id = id;
    a->request_moves = p->game.moves;
    a->request_changes = p->changes;
    return true;
}

void assist_cancel(assist *a, play *p, const char *why)
{
    if (a->request == ASSIST_REQUEST_NONE) return;
    if (a->worker) worker_cancel(a->worker);
    a->request = ASSIST_REQUEST_NONE;
    a->request_id = 0;
    if (why) play_message(p, PLAY_MESSAGE_INFO, "%s", why);
}

void assist_follow(assist *a, play *p)
{
    if (a->request != ASSIST_REQUEST_NONE && a->request_changes != p->changes)
        assist_cancel(a, p, NULL);
}

/* ---- Hints -------------------------------------------------------------------------- */

/* Finds the first push of `lurd` played from the position in play and shows it as the
 * hint. False when the text has no push the rules allow. */
static bool show_first_push(play *p, const char *lurd, solver_mode mode)
{
    lurd_steps steps;
    lurd_error error;
    if (!lurd_parse(lurd, &steps, &error)) return false;
    const board *b = &p->game.board;
    position pos;
    bool found = false;
    if (!position_copy(&pos, &p->game.position, b)) {
        lurd_steps_free(&steps);
        return false;
    }
    for (int i = 0; i < steps.count; i++) {
        direction d = steps.steps[i].direction;
        int stand = pos.player;
        step_result result = board_step(b, &pos, d);
        if (result == STEP_BLOCKED) break;
        if (result == STEP_PUSHED) {
            p->hint = (play_hint){
                .shown = true,
                .box = board_neighbour(b, stand, d),
                .direction = d,
                .stand = stand,
                .mode = mode,
                .moves_at = p->game.moves,
            };
            found = true;
            break;
        }
    }
    position_free(&pos);
    lurd_steps_free(&steps);
    return found;
}

void assist_hint(assist *a, play *p)
{
    if (play_push_hint(p)) return;
    if (a->request == ASSIST_REQUEST_HINT) {
        play_message(p, PLAY_MESSAGE_INFO, "Still thinking about a hint; Esc stops");
        return;
    }
    if (p->replay.active) replay_stop(&p->replay);
    if (submit(a, p, ASSIST_REQUEST_HINT))
        play_message(p, PLAY_MESSAGE_INFO, "Thinking of a hint...");
}

/* ---- Solve and replay --------------------------------------------------------------- */

void assist_solve(assist *a, play *p)
{
    if (a->request == ASSIST_REQUEST_SOLVE) {
        play_message(p, PLAY_MESSAGE_INFO, "Still solving; Esc stops");
        return;
    }
    if (p->replay.active) replay_stop(&p->replay);
    p->hint.shown = false;
    if (submit(a, p, ASSIST_REQUEST_SOLVE))
        play_message(p, PLAY_MESSAGE_INFO, "Solving from here (up to %.0f s; Esc stops)...",
                     a->solve_seconds);
}

void assist_replay_best(assist *a, play *p)
{
    const progress_record *record = play_record(p, p->collection_index, p->level_index);
    if (!record || !record->best_moves.lurd) {
        play_message(p, PLAY_MESSAGE_INFO, "No saved solution of this level yet");
        return;
    }
    /* Copy it: restarting may change the record (the unfinished moves). */
    char *lurd = strdup(record->best_moves.lurd);
    int moves = record->best_moves.moves, pushes = record->best_moves.pushes;
    if (!lurd) return;
    assist_cancel(a, p, NULL);
    game_restart(&p->game);
    play_changed(p, -1, false);
    char error[256];
    if (replay_start(&p->replay, lurd, "your best solution", error, sizeof error)) {
        p->replay_by_solver = false;
        play_message(p, PLAY_MESSAGE_INFO,
                     "Replaying your best: %d %s, %d %s (space pause, . step, +/- speed, "
                     "Esc stop)",
                     moves, play_plural(moves, "move", "moves"), pushes,
                     play_plural(pushes, "push", "pushes"));
    } else {
        play_message(p, PLAY_MESSAGE_ERROR, "The saved solution cannot be read: %s", error);
    }
    free(lurd);
}

/* ---- The worker's answers ----------------------------------------------------------- */

/* Says why there is no answer. */
static void report_no_solution(const assist *a, play *p, const worker_result *result)
{
    switch (result->status) {
    case SOLVER_UNSOLVABLE:
        if (p->game.pushes == 0)
            play_message(p, PLAY_MESSAGE_WARNING, "This level has no solution");
        else if (result->undo_pushes > 0)
            play_message(p, PLAY_MESSAGE_WARNING, "No solution from here: undo %d push%s%s",
                         result->undo_pushes, result->undo_pushes == 1 ? "" : "es",
                         result->undo_exact ? "" : " (fewer may do)");
        else
            play_message(p, PLAY_MESSAGE_WARNING,
                         "No solution from here: undo some pushes (the look back ran out of time)");
        break;
    case SOLVER_LIMIT:
        play_message(p, PLAY_MESSAGE_INFO,
                     "No answer within %.0f s (%.1fM nodes); --hint-time gives the solver more",
                     result->job == WORKER_HINT ? a->hint_seconds : a->solve_seconds,
                     (double)result->nodes / 1e6);
        break;
    default:
        play_message(p, PLAY_MESSAGE_ERROR, "The solver failed: %s",
                     solver_status_name(result->status));
        break;
    }
}

static void take_hint(const assist *a, play *p, const worker_result *result)
{
    if (result->status != SOLVER_SOLVED || !result->lurd) {
        report_no_solution(a, p, result);
        return;
    }
    if (!show_first_push(p, result->lurd, result->mode)) {
        play_message(p, PLAY_MESSAGE_ERROR, "The solver's answer has no push to show");
        return;
    }
    play_message(
        p, PLAY_MESSAGE_INFO, "Hint (%s, %d %s to go): push the marked box; H or Enter does it",
        mode_name(result->mode), result->pushes, play_plural(result->pushes, "push", "pushes"));
}

static void take_solution(const assist *a, play *p, const worker_result *result)
{
    if (result->status != SOLVER_SOLVED || !result->lurd) {
        report_no_solution(a, p, result);
        return;
    }
    char error[256];
    if (!replay_start(&p->replay, result->lurd, "the solver's solution", error, sizeof error)) {
        play_message(p, PLAY_MESSAGE_ERROR, "The solver's answer cannot be read: %s", error);
        return;
    }
    p->replay_by_solver = true;
    play_message(
        p, PLAY_MESSAGE_INFO,
        "Replaying the solver's %s solution: %d %s, %d %s (space pause, . step, +/- speed, "
        "Esc stop)",
        mode_name(result->mode), result->moves, play_plural(result->moves, "move", "moves"),
        result->pushes, play_plural(result->pushes, "push", "pushes"));
}

void assist_poll(assist *a, play *p)
{
    /* A request in flight has the worker's id; none has none. */
    assert((a->request == ASSIST_REQUEST_NONE) == (a->request_id == 0));
    worker_result result;
    while (a->worker && worker_poll(a->worker, &result)) {
        /* Only the answer to the question asked last, about the position still in play. */
        if (a->request != ASSIST_REQUEST_NONE && result.id == a->request_id &&
            p->game.moves == a->request_moves) {
            a->request = ASSIST_REQUEST_NONE;
            a->request_id = 0;
            if (result.job == WORKER_HINT)
                take_hint(a, p, &result);
            else
                take_solution(a, p, &result);
        }
        worker_result_free(&result);
    }
}
