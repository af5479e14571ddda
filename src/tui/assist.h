/* assist.h - the solver's help in the game: hints, solve-and-replay, and lost positions
 * found unasked. The one place where the solver's answers reach the play state.
 *
 * Hints and solutions come from the worker thread (worker.h), which solves ahead: it is told
 * the position in play whenever the boxes change (assist_follow) and works on it before it
 * is asked, filling the level's answer store (answers.h); H and S from a position the store
 * knows are answered at once. A request carries a copy of the position, the main loop never
 * waits, and a request about a position the player has left (other boxes, or another
 * player's region) is dropped. When solving ahead proves the position in play lost, the
 * message line says so unasked, with how many pushes to undo; Enter takes them back
 * (assist_take_back). Sits above play.h; knows nothing of drawing or keys. */
#ifndef SOKOBAN_TUI_ASSIST_H
#define SOKOBAN_TUI_ASSIST_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "worker/worker.h"
#include "optimize_best.h"
#include "play.h"

/* What the solver thread is working on for us. */
typedef enum assist_request {
    ASSIST_REQUEST_NONE,
    ASSIST_REQUEST_HINT,
    ASSIST_REQUEST_SOLVE,
} assist_request;

typedef struct assist {
    worker *worker;         /* NULL when no thread could start */
    assist_request request; /* what the worker is working on for us */
    uint64_t request_id;    /* worker_submit()'s id of it */
    double hint_seconds;    /* the time a hint may take (--hint-time) */
    double solve_seconds;   /* the time a solve-and-replay may take (--time) */

    /* The position in play as the worker knows it. */
    answers *store;             /* the answer store of the level in play (owned reference) */
    const level *store_level;   /* the level it is for */
    uint64_t key;               /* solver_position_key() of the position in play */
    unsigned long seen_changes; /* play.changes when `key` was taken */
    /* The seconds of the next H and S from this position: doubled after each "No answer
     * within N s", back to hint_seconds and solve_seconds when the boxes move. A request
     * carries them as a deadline, ida_clock() + seconds, from the key on. */
    double next_hint_seconds, next_solve_seconds;
    /* The position in play is proven lost: how many pushes to undo (0: none known). */
    int lost_undo;
    bool ahead; /* the worker solves ahead (no --no-solve-ahead) */
    /* Of the position in play, cleared when the boxes move: a search ran out of its time
     * (`gave_up`); Esc stopped the solver (`stopped`); the request whose time ran out
     * ("No answer within N s"), whose answer a search going on ahead may still bring: it is
     * then taken as the answer, as if in time (`timed_out`). */
    bool gave_up, stopped;
    assist_request timed_out;
    /* O: a level's best given to the optimizer (optimize_best.h). */
    optimize_best best;
} assist;

/* What is known of the position in play while the solver rests, for the status line. */
typedef enum assist_resting {
    ASSIST_RESTING,      /* nothing to say: not asked, stopped, or the level is solved */
    ASSIST_SOLVED_AHEAD, /* a solution from here is known */
    ASSIST_NO_SOLUTION,  /* proven lost */
    ASSIST_GAVE_UP,      /* the solver ran out of time without an answer */
} assist_resting;

/* Ends the solver's help: releases the answer store (after worker_destroy()). */
void assist_close(assist *a);

/* Enter while the position in play is known lost: undoes the pushes back to the nearest
 * solvable position. False when there is nothing to take back. */
bool assist_take_back(assist *a, play *p);

/* H: asks for a hint, or makes the push of the hint on show. */
void assist_hint(assist *a, play *p);

/* S: solves from the position in play, then replays the solution. */
void assist_solve(assist *a, play *p);

/* B: replays the player's best saved solution from the level's start. */
void assist_replay_best(assist *a, play *p);

/* Cancels the worker's request, if any; `why` (may be NULL) goes on the message line. */
void assist_cancel(assist *a, play *p, const char *why);

/* Esc: cancels the worker's request (saying `why` when there was one) and stops O's
 * optimizer, whose outcome, found so far, the next poll tells. */
void assist_stop(assist *a, play *p, const char *why);

/* True while a request waits for the worker or O's optimizer runs: the loop then wakes
 * every tick for the spinner and assist_poll(). */
bool assist_busy(const assist *a);

/* A count of nodes as the game writes it, on the status line and in messages: "12",
 * "12.3k", "4.56M". */
void assist_count(char *out, size_t size, uint64_t n);

/* O: optimizes the best of level `index` of collection `collection` (optimize_best.h). */
void assist_optimize_best(assist *a, play *p, int collection, int index);

/* Tells the worker the position in play when its boxes (or the player's region, or the level)
 * changed, and drops a request about the position left. Call after anything that may change
 * the play state, and once when the first level opens. */
void assist_follow(assist *a, play *p);

/* What is known of the position in play, for when the worker is not busy. */
assist_resting assist_resting_state(const assist *a, const play *p);

/* Takes the worker's answer when one is ready (its wake fd was readable), and O's outcome
 * when its optimizer is done. */
void assist_poll(assist *a, play *p);

#endif
