/* assist.c - hints and solve-and-replay: requests to the worker, and its answers taken into
 * the play state. */
#include <assert.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "worker/answers.h"
#include "rules/lurd.h"
#include "assist.h"
#include "play.h"

void assist_count(char *out, size_t size, uint64_t n)
{
    if (n < 10000)
        snprintf(out, size, "%llu", (unsigned long long)n);
    else if (n < 1000000)
        snprintf(out, size, "%.1fk", (double)n / 1e3);
    else
        snprintf(out, size, "%.2fM", (double)n / 1e6);
}

static const char *mode_name(solver_mode mode)
{
    return mode == SOLVER_OPTIMAL ? "optimal" : "fast";
}

/* ---- The position in play ---------------------------------------------------------- */

void assist_follow(assist *a, play *p)
{
    if (!a->worker || !p->game_ready || (a->store_level && p->changes == a->seen_changes)) return;
    a->seen_changes = p->changes;
    const level *lv = play_level(p);
    if (lv != a->store_level) {
        answers_release(a->store);
        a->store = answers_create(lv);
        a->store_level = lv;
        a->key = 0;
    }
    uint64_t key = solver_position_key(&p->game.board, &p->game.position);
    if (key == a->key) return; /* walking alone changes nothing */
    a->key = key;
    a->next_hint_seconds = a->hint_seconds;
    a->next_solve_seconds = a->solve_seconds;
    a->lost_undo = 0;
    a->gave_up = a->stopped = false;
    a->timed_out = ASSIST_REQUEST_NONE;
    /* The worker drops a request about the position left; so do we. */
    a->request = ASSIST_REQUEST_NONE;
    a->request_id = 0;
    worker_play(a->worker, &p->game, a->store);
}

void assist_close(assist *a)
{
    optimize_best_close(&a->best);
    answers_release(a->store);
    a->store = NULL;
    a->store_level = NULL;
}

bool assist_take_back(assist *a, play *p)
{
    if (a->lost_undo <= 0 || game_is_solved(&p->game)) return false;
    int undone = 0;
    while (undone < a->lost_undo && game_undo_push(&p->game)) undone++;
    play_changed(p, -1, false);
    play_message(p, PLAY_MESSAGE_INFO, "Took back %d %s: this position can still be solved", undone,
                 play_plural(undone, "push", "pushes"));
    assist_follow(a, p);
    return true;
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
        play_message(p, PLAY_MESSAGE_INFO, "The level is solved already: %s",
                     play_is_last(p) ? "the last level; L lists the levels"
                                     : "n goes to the next one");
        return false;
    }
    assist_follow(a, p);
    worker_request request = {
        .job = what == ASSIST_REQUEST_HINT ? WORKER_HINT : WORKER_SOLVE,
        .game = &p->game,
        .deadline = ida_clock() +
                    (what == ASSIST_REQUEST_HINT ? a->next_hint_seconds : a->next_solve_seconds),
    };
    uint64_t id = worker_submit(a->worker, &request, a->store);
    if (id == 0) {
        play_message(p, PLAY_MESSAGE_ERROR, "Out of memory: the solver cannot take the request");
        return false;
    }
    a->request = what;
    a->request_id = id;
    a->stopped = false;
    a->timed_out = ASSIST_REQUEST_NONE;
    return true;
}

bool assist_busy(const assist *a)
{
    return a->request != ASSIST_REQUEST_NONE || optimize_best_running(&a->best);
}

void assist_optimize_best(assist *a, play *p, int collection, int index)
{
    optimize_best_start(&a->best, p, collection, index);
}

void assist_stop(assist *a, play *p, const char *why)
{
    optimize_best_stop(&a->best); /* its outcome, found so far, is told by the next poll */
    assist_cancel(a, p, a->request == ASSIST_REQUEST_NONE ? NULL : why);
}

void assist_cancel(assist *a, play *p, const char *why)
{
    if (a->request == ASSIST_REQUEST_NONE) return;
    if (a->worker) worker_cancel(a->worker);
    a->request = ASSIST_REQUEST_NONE;
    a->request_id = 0;
    a->stopped = true;
    /* The worker rests now; the next change of the position wakes it. */
    if (why) play_message(p, PLAY_MESSAGE_INFO, "%s", why);
}

/* ---- Hints -------------------------------------------------------------------------- */

/* Finds the first push of `steps` played from the position in play and shows it as the
 * hint. False when they have no push the rules allow. */
static bool show_first_push(play *p, const game_step *steps, int count, solver_mode mode,
                            bool improved)
{
    const board *b = &p->game.board;
    position pos;
    bool found = false;
    if (!position_copy(&pos, &p->game.position, b)) return false;
    for (int i = 0; i < count; i++) {
        direction d = steps[i].direction;
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
                .improved = improved,
            };
            found = true;
            break;
        }
    }
    position_free(&pos);
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
    if (!submit(a, p, ASSIST_REQUEST_HINT)) return;
    if (a->next_hint_seconds > a->hint_seconds)
        play_message(p, PLAY_MESSAGE_INFO, "Thinking of a hint, up to %g s this time...",
                     a->next_hint_seconds);
    else
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
                     a->next_solve_seconds);
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
    /* a best that was not the player's own stays so when replayed (recorded as assisted) */
    bool own = record->best_moves.origin == PROGRESS_OWN;
    if (!lurd) return;
    assist_cancel(a, p, NULL);
    game_restart(&p->game);
    play_changed(p, -1, false);
    /* Its pushes, the player walking between them by the shortest paths. */
    lurd_steps parsed;
    lurd_error error;
    game_step *steps = NULL;
    int count = 0;
    if (!lurd_parse(lurd, &parsed, &error)) {
        play_message(p, PLAY_MESSAGE_ERROR, "The saved solution cannot be read: %s", error.message);
    } else if (!game_shortest_walks(&p->game.board, &p->game.position, parsed.steps, parsed.count,
                                    &steps, &count)) {
        play_message(p, PLAY_MESSAGE_ERROR, "The saved solution does not replay on this level");
    } else if (replay_start_steps(&p->replay, steps, count, "your best solution")) {
        p->replay_by_solver = !own;
        if (count < moves)
            play_message(p, PLAY_MESSAGE_INFO,
                         "Replaying your best, %d %s walked in %d moves (you: %d; space pause, "
                         ". step, +/- speed, Esc stop)",
                         pushes, play_plural(pushes, "push", "pushes"), count, moves);
        else
            play_message(p, PLAY_MESSAGE_INFO,
                         "Replaying your best: %d %s, %d %s (space pause, . step, +/- speed, "
                         "Esc stop)",
                         moves, play_plural(moves, "move", "moves"), pushes,
                         play_plural(pushes, "push", "pushes"));
    } else {
        play_message(p, PLAY_MESSAGE_ERROR, "Out of memory: the solution cannot be replayed");
    }
    lurd_steps_free(&parsed);
    free(steps);
    free(lurd);
}

/* ---- The worker's answers ----------------------------------------------------------- */

/* Says that the position in play is lost, and how far back the nearest solvable one is. */
static void report_lost(assist *a, play *p, const worker_result *result)
{
    a->lost_undo = result->undo_pushes > 0 ? result->undo_pushes : 0;
    if (p->game.pushes == 0)
        play_message(p, PLAY_MESSAGE_WARNING, "This level has no solution");
    else if (result->undo_pushes > 0)
        play_message(p, PLAY_MESSAGE_WARNING,
                     "This position cannot be solved any more: undo %d %s%s. Enter takes %s back",
                     result->undo_pushes, play_plural(result->undo_pushes, "push", "pushes"),
                     result->undo_exact ? "" : " (fewer may do)",
                     result->undo_pushes == 1 ? "it" : "them");
    else
        play_message(p, PLAY_MESSAGE_WARNING,
                     "This position cannot be solved any more: undo some pushes (the look back "
                     "ran out of time)");
}

/* Says why there is no answer. */
static void report_no_solution(assist *a, play *p, const worker_result *result)
{
    switch (result->status) {
    case SOLVER_UNSOLVABLE:
        report_lost(a, p, result);
        break;
    case SOLVER_LIMIT: {
        bool hint = result->job == WORKER_HINT;
        double *seconds = hint ? &a->next_hint_seconds : &a->next_solve_seconds;
        double spent = *seconds;
        *seconds *= 2;
        a->gave_up = true;
        a->timed_out = hint ? ASSIST_REQUEST_HINT : ASSIST_REQUEST_SOLVE;
        /* no node at all: the time ran out while the search built its tables */
        char nodes[32] = "still setting up";
        if (result->nodes > 0) {
            assist_count(nodes, sizeof nodes, result->nodes);
            strcat(nodes, " nodes");
        }
        play_message(p, PLAY_MESSAGE_INFO,
                     "No answer within %g s (%s); %s again gives the solver %g s", spent, nodes,
                     hint ? "H" : "S", *seconds);
        break;
    }
    default:
        play_message(p, PLAY_MESSAGE_ERROR, "The solver failed: %s",
                     solver_status_name(result->status));
        break;
    }
}

/* The solution from the position in play: the store's when it knows one (it follows the
 * player wherever he walked), else the result's when the player has not moved since.
 * Fills *out; false when there is none. */
static bool solution_here(assist *a, play *p, const worker_result *result, answer *out)
{
    if (a->store && answers_find(a->store, &p->game.position, out) == ANSWER_SOLVABLE) return true;
    answer_free(out);
    if (result->status != SOLVER_SOLVED || !result->steps ||
        result->key != solver_position_key(&p->game.board, &p->game.position))
        return false;
    /* Without a store (it could not be made), the result is from where the player asked. */
    *out = (answer){.kind = ANSWER_SOLVABLE,
                    .mode = result->mode,
                    .steps = result->steps,
                    .moves = result->moves,
                    .pushes = result->pushes};
    return true;
}

static void show_hint(play *p, const answer *solution, bool improved)
{
    if (!show_first_push(p, solution->steps, solution->moves, solution->mode, improved)) {
        play_message(p, PLAY_MESSAGE_ERROR, "The solver's answer has no push to show");
        return;
    }
    if (improved)
        play_message(p, PLAY_MESSAGE_INFO,
                     "Hint improved (%s, %d %s, %d %s to go): push the marked box; H or Enter "
                     "does it",
                     mode_name(solution->mode), solution->moves,
                     play_plural(solution->moves, "move", "moves"), solution->pushes,
                     play_plural(solution->pushes, "push", "pushes"));
    else
        play_message(p, PLAY_MESSAGE_INFO,
                     "Hint (%s, %d %s to go): push the marked box; H or Enter does it",
                     mode_name(solution->mode), solution->pushes,
                     play_plural(solution->pushes, "push", "pushes"));
}

/* The optimizer shortened the answer from the position in play: the hint on show switches
 * to the shorter line, unless the player has begun on it (a step since it was shown, a box
 * picked with the mouse, a replay): never in the middle of a push he is making. */
static void take_improved(assist *a, play *p, const worker_result *result)
{
    if (!p->hint.shown || p->hint.moves_at != p->game.moves || p->selection.active ||
        p->replay.active)
        return;
    answer solution = {0};
    if (solution_here(a, p, result, &solution)) show_hint(p, &solution, true);
    answer_free(&solution);
}

static void take_answer(assist *a, play *p, worker_result *result)
{
    if (result->status != SOLVER_SOLVED) {
        report_no_solution(a, p, result);
        return;
    }
    answer solution = {0};
    if (!solution_here(a, p, result, &solution)) {
        play_message(p, PLAY_MESSAGE_ERROR, "The solver's answer has no push to show");
        return;
    }
    bool borrowed = solution.steps == result->steps;
    if (result->job == WORKER_HINT) {
        show_hint(p, &solution, false);
    } else if (replay_start_steps(&p->replay, solution.steps, solution.moves,
                                  "the solver's solution")) {
        p->replay_by_solver = true;
        play_message(
            p, PLAY_MESSAGE_INFO,
            "Replaying the solver's %s solution: %d %s, %d %s (space pause, . step, +/- speed, "
            "Esc stop)",
            mode_name(solution.mode), solution.moves, play_plural(solution.moves, "move", "moves"),
            solution.pushes, play_plural(solution.pushes, "push", "pushes"));
    } else {
        play_message(p, PLAY_MESSAGE_ERROR, "Out of memory: the solution cannot be replayed");
    }
    if (!borrowed) answer_free(&solution);
}

/* A notice nobody asked for, about the position in play. */
static void take_notice(assist *a, play *p, const worker_result *result)
{
    if (result->status == SOLVER_UNSOLVABLE) {
        /* A static deadlock warning already says it, in its own words; Enter still works. */
        if (p->warning.reason != DEADLOCK_NONE) {
            a->lost_undo = result->undo_pushes > 0 ? result->undo_pushes : 0;
            return;
        }
        report_lost(a, p, result);
    } else if (result->status == SOLVER_SOLVED && result->improved) {
        take_improved(a, p, result);
    } else if (result->status == SOLVER_SOLVED && result->mode == SOLVER_OPTIMAL && p->hint.shown &&
               p->hint.moves_at == p->game.moves && p->hint.mode == SOLVER_FAST) {
        /* The optimal mode bettered the hint on show. */
        answer solution = {0};
        if (solution_here(a, p, result, &solution)) show_hint(p, &solution, false);
        answer_free(&solution);
    } else if (result->status == SOLVER_SOLVED && a->timed_out != ASSIST_REQUEST_NONE &&
               strncmp(p->message, "No answer within", 16) == 0) {
        /* Found by the search that went on after "No answer within N s", with the player
         * still where he asked: the answer to that request, as if in time (one message). */
        worker_result late = *result;
        late.job = a->timed_out == ASSIST_REQUEST_HINT ? WORKER_HINT : WORKER_SOLVE;
        late.steps = NULL; /* from the store, which the search filled */
        a->timed_out = ASSIST_REQUEST_NONE;
        a->gave_up = false;
        take_answer(a, p, &late);
    }
}

assist_resting assist_resting_state(const assist *a, const play *p)
{
    if (!a->worker || !a->store || !p->game_ready || game_is_solved(&p->game))
        return ASSIST_RESTING;
    if (answers_known(a->store, a->key)) return ASSIST_SOLVED_AHEAD;
    answer known = {0};
    answer_kind kind = answers_find(a->store, &p->game.position, &known);
    answer_free(&known);
    if (kind == ANSWER_LOST || a->lost_undo > 0) return ASSIST_NO_SOLUTION;
    /* solving ahead rests without an answer only when its time is spent */
    if (a->gave_up || (a->ahead && !a->stopped)) return ASSIST_GAVE_UP;
    return ASSIST_RESTING;
}

void assist_poll(assist *a, play *p)
{
    /* A request in flight has the worker's id; none has none. */
    assert((a->request == ASSIST_REQUEST_NONE) == (a->request_id == 0));
    optimize_best_poll(&a->best, p);
    worker_result result;
    while (a->worker && worker_poll(a->worker, &result)) {
        /* Only what is about the position in play: the answer to the question asked last, and
         * the notices. */
        assist_follow(a, p);
        if (result.key == a->key) {
            if (result.job == WORKER_AHEAD) {
                take_notice(a, p, &result);
            } else if (a->request != ASSIST_REQUEST_NONE && result.id == a->request_id) {
                a->request = ASSIST_REQUEST_NONE;
                a->request_id = 0;
                take_answer(a, p, &result);
            }
        }
        worker_result_free(&result);
    }
}
