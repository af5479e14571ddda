/* editor_solve.c - the editor's S on a solver thread of its own (editor_solve.h). */
#include "editor_solve.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "assist.h"
#include "ida.h"
#include "replay.h"

/* Forgets the level asked about. */
static void drop_level(editor_solve *s)
{
    if (s->game_ready) game_free(&s->game);
    free(s->squares);
    s->squares = NULL;
    s->level = (level){0};
    s->game_ready = false;
    answers_release(s->store);
    s->store = NULL;
}

/* Keeps the squares asked about, for editor_solve_is_about(). */
static bool keep_squares(editor_solve *s, const level *checked)
{
    size_t size = (size_t)checked->width * (size_t)checked->height;
    free(s->squares);
    s->squares = malloc(size);
    if (!s->squares) return false;
    memcpy(s->squares, checked->squares, size);
    s->width = checked->width;
    s->height = checked->height;
    return true;
}

bool editor_solve_is_about(const editor_solve *s, const level *checked)
{
    return checked && s->squares && checked->width == s->width && checked->height == s->height &&
           memcmp(checked->squares, s->squares, (size_t)s->width * (size_t)s->height) == 0;
}

bool editor_solve_ask(editor_solve *s, const level *checked)
{
    editor_solve_cancel(s, NULL);
    drop_level(s);
    if (!s->worker) {
        /* the thread solves ahead and upgrades for the budget of S, no longer; the optimal mode
         * starts as soon as the fast one has answered (no optimizer between them: what it
         * would shorten is not shown) */
        worker_options options = {.ahead_seconds = s->budget_seconds,
                                  .upgrade_seconds = s->budget_seconds,
                                  .no_improve = true};
        s->worker = worker_create_with(&options);
    }
    static char none[] = "";
    bool kept = keep_squares(s, checked);
    s->level = (level){.number = checked->number,
                       .width = s->width,
                       .height = s->height,
                       .squares = s->squares,
                       .title = none,
                       .author = none,
                       .comment = none};
    s->store = kept ? answers_create(&s->level) : NULL;
    s->game_ready = s->store && game_init(&s->game, &s->level);
    if (!s->worker || !s->game_ready) {
        snprintf(s->answer, sizeof s->answer, "%s",
                 s->worker ? "out of memory" : "the solver thread could not start");
        drop_level(s);
        return false;
    }
    worker_play(s->worker, &s->game, s->store);
    worker_request request = {
        .job = WORKER_SOLVE, .game = &s->game, .deadline = ida_clock() + s->budget_seconds};
    s->request_id = worker_submit(s->worker, &request, s->store);
    s->asked_at = replay_now_ms();
    s->state = s->request_id ? EDITOR_SOLVE_FAST : EDITOR_SOLVE_IDLE;
    snprintf(s->answer, sizeof s->answer, "%s", s->request_id ? "" : "out of memory");
    return s->request_id != 0;
}

void editor_solve_cancel(editor_solve *s, const char *why)
{
    if (s->state == EDITOR_SOLVE_IDLE || s->state == EDITOR_SOLVE_DONE) return;
    if (s->worker) worker_cancel(s->worker);
    if (s->state == EDITOR_SOLVE_UPGRADING) {
        size_t length = strlen(s->answer);
        snprintf(s->answer + length, sizeof s->answer - length, "; optimal: %s",
                 why ? why : "stopped");
        s->state = EDITOR_SOLVE_DONE;
    } else {
        snprintf(s->answer, sizeof s->answer, "%s", why ? why : "");
        s->state = EDITOR_SOLVE_IDLE;
    }
}

/* The answer to S: solvable (and how), unsolvable, or no answer in time. */
static void take_answer(editor_solve *s, const worker_result *r)
{
    double seconds = r->seconds;
    switch (r->status) {
    case SOLVER_SOLVED:
        if (r->mode == SOLVER_OPTIMAL) {
            snprintf(s->answer, sizeof s->answer, "solvable: %d %s, the fewest (%.1f s)", r->pushes,
                     play_plural(r->pushes, "push", "pushes"), seconds);
            s->state = EDITOR_SOLVE_DONE;
        } else {
            snprintf(s->answer, sizeof s->answer, "solvable: %d %s (fast, %.1f s)", r->pushes,
                     play_plural(r->pushes, "push", "pushes"), seconds);
            s->state = EDITOR_SOLVE_UPGRADING;
            s->upgrading_since = replay_now_ms();
        }
        break;
    case SOLVER_UNSOLVABLE:
        snprintf(s->answer, sizeof s->answer, "unsolvable: proven (%.1f s)", seconds);
        s->state = EDITOR_SOLVE_DONE;
        break;
    case SOLVER_LIMIT:
    case SOLVER_CANCELLED:
        snprintf(s->answer, sizeof s->answer, "no answer within %.0f s", s->budget_seconds);
        s->state = EDITOR_SOLVE_DONE;
        break;
    case SOLVER_ERROR:
        snprintf(s->answer, sizeof s->answer, "the solver cannot take this level");
        s->state = EDITOR_SOLVE_DONE;
        break;
    }
}

/* The optimal upgrade found a solution: its push count, from the store, and the time it took
 * since the fast answer (the worker's notice has none). */
static void take_optimal(editor_solve *s)
{
    answer known;
    if (answers_find(s->store, &s->game.position, &known) == ANSWER_SOLVABLE &&
        known.mode == SOLVER_OPTIMAL) {
        size_t length = strlen(s->answer);
        snprintf(s->answer + length, sizeof s->answer - length, "; optimal: %d %s (%.1f s)",
                 known.pushes, play_plural(known.pushes, "push", "pushes"),
                 (replay_now_ms() - s->upgrading_since) / 1000.0);
        s->state = EDITOR_SOLVE_DONE;
    }
    answer_free(&known);
}

void editor_solve_poll(editor_solve *s, bool woke)
{
    if (!s->worker) return;
    worker_result r;
    bool took = false;
    while (worker_poll(s->worker, &r)) {
        took = true;
        bool ours =
            s->game_ready && r.key == solver_position_key(&s->game.board, &s->game.position);
        if (ours && s->state == EDITOR_SOLVE_FAST && r.id == s->request_id)
            take_answer(s, &r);
        else if (ours && s->state == EDITOR_SOLVE_UPGRADING && r.job == WORKER_AHEAD &&
                 r.status == SOLVER_SOLVED && r.mode == SOLVER_OPTIMAL)
            take_optimal(s);
        worker_result_free(&r);
    }
    /* The thread came to rest (a wake with no result) with the upgrade unfinished. */
    worker_activity activity;
    worker_progress(s->worker, &activity);
    if (woke && !took && !activity.busy && s->state == EDITOR_SOLVE_UPGRADING) {
        size_t length = strlen(s->answer);
        snprintf(s->answer + length, sizeof s->answer - length,
                 "; optimal: not proven within %.0f s", s->budget_seconds);
        s->state = EDITOR_SOLVE_DONE;
    }
}

void editor_solve_activity(const editor_solve *s, char *out, size_t size)
{
    out[0] = '\0';
    if (!s->worker || (s->state != EDITOR_SOLVE_FAST && s->state != EDITOR_SOLVE_UPGRADING)) return;
    worker_activity activity;
    worker_progress(s->worker, &activity);
    /* its nodes once it has some to report; until then, that it sets up its tables */
    char nodes[32] = "setting up";
    if (!activity.setting_up) {
        assist_count(nodes, sizeof nodes, activity.nodes);
        strcat(nodes, " nodes");
    }
    bool fast = s->state == EDITOR_SOLVE_FAST;
    snprintf(out, size, "%s %.1f s, %s (Esc stops)", fast ? "solving" : "optimal",
             (replay_now_ms() - (fast ? s->asked_at : s->upgrading_since)) / 1000.0, nodes);
}

int editor_solve_wake_fd(const editor_solve *s)
{
    return s->worker ? worker_wake_fd(s->worker) : -1;
}

void editor_solve_free(editor_solve *s)
{
    worker_destroy(s->worker);
    s->worker = NULL;
    drop_level(s);
    s->state = EDITOR_SOLVE_IDLE;
}
