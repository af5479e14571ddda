/* editor_solve.h - the editor's S: is the level as drawn solvable, and in how many pushes?
 *
 * Asked on a solver thread of the editor's own (worker.h, created at the first S and ended
 * with the editor), so the screen keeps answering keys: the fast mode answers first (solvable
 * or not, in how long), then the worker's optimal upgrade runs on the same position for the
 * same budget, and when it finds a solution its push count is proven the fewest. An edit of
 * the squares, Esc or a new S stops the search; the answer is about the squares alone, so a
 * new title, author or comment keeps it. Knows nothing of drawing or keys. */
#ifndef SOKOBAN_TUI_EDITOR_SOLVE_H
#define SOKOBAN_TUI_EDITOR_SOLVE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "level/level.h"
#include "rules/game.h"
#include "worker/answers.h"
#include "worker/worker.h"

typedef enum editor_solve_state {
    EDITOR_SOLVE_IDLE,      /* nothing asked, or the answer is stale (the squares changed) */
    EDITOR_SOLVE_FAST,      /* waiting for the fast mode's answer */
    EDITOR_SOLVE_UPGRADING, /* solvable; the optimal mode is looking for the fewest pushes */
    EDITOR_SOLVE_DONE,      /* the answer is all in */
} editor_solve_state;

typedef struct editor_solve {
    worker *worker; /* NULL until the first S */
    answers *store; /* of the level asked about */
    game game;      /* the level asked about, at its start */
    bool game_ready;
    double budget_seconds;
    uint64_t request_id;
    /* the squares of the level asked about (level.h), kept while its answer stands */
    int width, height;
    char *squares;
    /* the level asked about, of those squares and no title: the one `game` plays, its own
     * (the editor's level checked is made again at a title edit, which keeps the answer) */
    level level;
    editor_solve_state state;
    double asked_at;        /* replay_now_ms() of the S */
    double upgrading_since; /* replay_now_ms() of the fast answer: the optimal mode's start */
    char answer[200];       /* what is known, for the screen */
} editor_solve;

/* Asks about `checked` (a playable level). False, with the reason in the answer, when the
 * thread or memory is lacking. */
bool editor_solve_ask(editor_solve *s, const level *checked);

/* True when `checked` (a playable level, or NULL) has the squares last asked about: what is
 * known of them (the answer, a search under way) still holds. */
bool editor_solve_is_about(const editor_solve *s, const level *checked);

/* Stops the search (Esc, an edit); the answer says so when it was still coming. */
void editor_solve_cancel(editor_solve *s, const char *why);

/* Takes the thread's results; `woke` when its wake fd was readable. */
void editor_solve_poll(editor_solve *s, bool woke);

/* The search's state for the status line ("solving 1.2 s, 34.5k nodes"), or "". */
void editor_solve_activity(const editor_solve *s, char *out, size_t size);

/* The wake fd of the thread, or -1. */
int editor_solve_wake_fd(const editor_solve *s);

/* Ends the thread and frees everything. */
void editor_solve_free(editor_solve *s);

#endif
