/* assist.c - hints, solve-and-replay and deadlock warnings. */
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
static bool submit(tui *t, tui_request what)
{
    if (!t->worker) {
        tui_message(t, TUI_MESSAGE_ERROR, "The solver is not available (no thread could start)");
        return false;
    }
    if (game_is_solved(&t->game)) {
        tui_message(t, TUI_MESSAGE_INFO, "The level is solved already: n goes to the next one");
        return false;
    }
    worker_request request = {
        .job = what == TUI_REQUEST_HINT ? WORKER_HINT : WORKER_SOLVE,
        .game = &t->game,
        .budget_seconds = what == TUI_REQUEST_HINT ? t->hint_seconds : t->solve_seconds,
    };
    uint64_t id = worker_submit(t->worker, &request);
    if (id == 0) {
        tui_message(t, TUI_MESSAGE_ERROR, "Out of memory: the solver cannot take the request");
        return false;
    }
    t->request = what;
    t->request_id = id;
    t->request_moves = t->game.moves;
    return true;
}

void assist_cancel(tui *t, const char *why)
{
    if (t->request == TUI_REQUEST_NONE) return;
    if (t->worker) worker_cancel(t->worker);
    t->request = TUI_REQUEST_NONE;
    t->request_id = 0;
    if (why) tui_message(t, TUI_MESSAGE_INFO, "%s", why);
}

/* ---- Hints -------------------------------------------------------------------------- */

/* Finds the first push of `lurd` played from the position in play and shows it as the
 * hint. False when the text has no push the rules allow. */
static bool show_first_push(tui *t, const char *lurd, solver_mode mode)
{
    lurd_steps steps;
    lurd_error error;
    if (!lurd_parse(lurd, &steps, &error)) return false;
    const board *b = &t->game.board;
    position p;
    bool found = false;
    if (!position_copy(&p, &t->game.position, b)) {
        lurd_steps_free(&steps);
        return false;
    }
    for (int i = 0; i < steps.count; i++) {
        direction d = steps.steps[i].direction;
        int stand = p.player;
        step_result result = board_step(b, &p, d);
        if (result == STEP_BLOCKED) break;
        if (result == STEP_PUSHED) {
            t->hint = (tui_hint){
                .shown = true,
                .box = board_neighbour(b, stand, d),
                .direction = d,
                .stand = stand,
                .mode = mode,
                .moves_at = t->game.moves,
            };
            found = true;
            break;
        }
    }
    position_free(&p);
    lurd_steps_free(&steps);
    return found;
}

bool assist_hint_push(tui *t)
{
    if (!t->hint.shown || t->hint.moves_at != t->game.moves) return false;
    tui_hint hint = t->hint;
    int first = t->game.moves;
    if (t->game.position.player != hint.stand && game_walk_to(&t->game, hint.stand) < 0) {
        t->hint.shown = false;
        tui_message(t, TUI_MESSAGE_ERROR, "The hinted push cannot be reached");
        return true;
    }
    step_result result = game_step_in(&t->game, hint.direction);
    t->hint.shown = false;
    play_took_steps(t, first, false);
    play_changed(
        t, result == STEP_PUSHED ? board_neighbour(&t->game.board, hint.box, hint.direction) : -1,
        false);
    return true;
}

void assist_hint(tui *t)
{
    if (assist_hint_push(t)) return;
    if (t->request == TUI_REQUEST_HINT) {
        tui_message(t, TUI_MESSAGE_INFO, "Still thinking about a hint; Esc stops");
        return;
    }
    if (t->replay.active) replay_stop(&t->replay);
    if (submit(t, TUI_REQUEST_HINT)) tui_message(t, TUI_MESSAGE_INFO, "Thinking of a hint...");
}

/* ---- Solve and replay --------------------------------------------------------------- */

void assist_solve(tui *t)
{
    if (t->request == TUI_REQUEST_SOLVE) {
        tui_message(t, TUI_MESSAGE_INFO, "Still solving; Esc stops");
        return;
    }
    if (t->replay.active) replay_stop(&t->replay);
    t->hint.shown = false;
    if (submit(t, TUI_REQUEST_SOLVE))
        tui_message(t, TUI_MESSAGE_INFO, "Solving from here (up to %.0f s; Esc stops)...",
                    t->solve_seconds);
}

void assist_replay_best(tui *t)
{
    const progress_record *record = play_record(t, t->collection_index, t->level_index);
    if (!record || !record->best_moves.lurd) {
        tui_message(t, TUI_MESSAGE_INFO, "No saved solution of this level yet");
        return;
    }
    /* Copy it: restarting may change the record (the unfinished moves). */
    char *lurd = strdup(record->best_moves.lurd);
    int moves = record->best_moves.moves, pushes = record->best_moves.pushes;
    if (!lurd) return;
    assist_cancel(t, NULL);
    game_restart(&t->game);
    play_changed(t, -1, false);
    char error[256];
    if (replay_start(&t->replay, lurd, "your best solution", error, sizeof error)) {
        t->replay_by_solver = false;
        tui_message(t, TUI_MESSAGE_INFO,
                    "Replaying your best: %d %s, %d %s (space pause, . step, +/- speed, "
                    "Esc stop)",
                    moves, tui_plural(moves, "move", "moves"), pushes,
                    tui_plural(pushes, "push", "pushes"));
    } else {
        tui_message(t, TUI_MESSAGE_ERROR, "The saved solution cannot be read: %s", error);
    }
    free(lurd);
}

/* ---- The worker's answers ----------------------------------------------------------- */

/* Says why there is no answer. */
static void report_no_solution(tui *t, const worker_result *result)
{
    switch (result->status) {
    case SOLVER_UNSOLVABLE:
        if (t->game.pushes == 0)
            tui_message(t, TUI_MESSAGE_WARNING, "This level has no solution");
        else if (result->undo_pushes > 0)
            tui_message(t, TUI_MESSAGE_WARNING, "No solution from here: undo %d push%s%s",
                        result->undo_pushes, result->undo_pushes == 1 ? "" : "es",
                        result->undo_exact ? "" : " (fewer may do)");
        else
            tui_message(t, TUI_MESSAGE_WARNING,
                        "No solution from here: undo some pushes (the look back ran out of time)");
        break;
    case SOLVER_LIMIT:
        tui_message(t, TUI_MESSAGE_INFO,
                    "No answer within %.0f s (%.1fM nodes); --hint-time gives the solver more",
                    result->job == WORKER_HINT ? t->hint_seconds : t->solve_seconds,
                    (double)result->nodes / 1e6);
        break;
    default:
        tui_message(t, TUI_MESSAGE_ERROR, "The solver failed: %s",
                    solver_status_name(result->status));
        break;
    }
}

static void take_hint(tui *t, const worker_result *result)
{
    if (result->status != SOLVER_SOLVED || !result->lurd) {
        report_no_solution(t, result);
        return;
    }
    if (!show_first_push(t, result->lurd, result->mode)) {
        tui_message(t, TUI_MESSAGE_ERROR, "The solver's answer has no push to show");
        return;
    }
    tui_message(
        t, TUI_MESSAGE_INFO, "Hint (%s, %d %s to go): push the marked box; H or Enter does it",
        mode_name(result->mode), result->pushes, tui_plural(result->pushes, "push", "pushes"));
}

static void take_solution(tui *t, const worker_result *result)
{
    if (result->status != SOLVER_SOLVED || !result->lurd) {
        report_no_solution(t, result);
        return;
    }
    char error[256];
    if (!replay_start(&t->replay, result->lurd, "the solver's solution", error, sizeof error)) {
        tui_message(t, TUI_MESSAGE_ERROR, "The solver's answer cannot be read: %s", error);
        return;
    }
    t->replay_by_solver = true;
    tui_message(t, TUI_MESSAGE_INFO,
                "Replaying the solver's %s solution: %d %s, %d %s (space pause, . step, +/- speed, "
                "Esc stop)",
                mode_name(result->mode), result->moves, tui_plural(result->moves, "move", "moves"),
                result->pushes, tui_plural(result->pushes, "push", "pushes"));
}

void assist_poll(tui *t)
{
    worker_result result;
    while (t->worker && worker_poll(t->worker, &result)) {
        /* Only the answer to the question asked last, about the position still in play. */
        if (t->request != TUI_REQUEST_NONE && result.id == t->request_id &&
            t->game.moves == t->request_moves) {
            t->request = TUI_REQUEST_NONE;
            t->request_id = 0;
            if (result.job == WORKER_HINT)
                take_hint(t, &result);
            else
                take_solution(t, &result);
        }
        worker_result_free(&result);
    }
}

/* ---- Deadlock warnings -------------------------------------------------------------- */

/* What each rule means, for the warning. */
static const char *reason_explained(deadlock_reason reason)
{
    switch (reason) {
    case DEADLOCK_CORNER:
        return "a box in a corner can never move again";
    case DEADLOCK_DEAD_WALL:
        return "a box against this wall can never reach a goal";
    case DEADLOCK_UNREACHABLE:
        return "no goal can be reached from this square";
    case DEADLOCK_BLOCK_2X2:
        return "boxes and walls form a 2x2 block";
    case DEADLOCK_FROZEN:
        return "these boxes can never move again";
    default:
        return "";
    }
}

void assist_check_deadlock(tui *t, int last_pushed_box)
{
    bool was_warned = t->warning.report.reason != DEADLOCK_NONE;
    memset(&t->warning.report, 0, sizeof t->warning.report);
    if (t->dead_ready && !game_is_solved(&t->game))
        deadlock_check_position(&t->dead, &t->game.board, &t->game.position, last_pushed_box,
                                &t->warning.report);
    deadlock_reason reason = t->warning.report.reason;
    if (reason != DEADLOCK_NONE) {
        tui_message(t, TUI_MESSAGE_WARNING, "DEADLOCK (%s): %s. Press u to undo the push.",
                    deadlock_reason_name(reason), reason_explained(reason));
    } else if (was_warned && t->message_kind == TUI_MESSAGE_WARNING) {
        tui_message(t, TUI_MESSAGE_INFO, "%s", "");
    }
}
