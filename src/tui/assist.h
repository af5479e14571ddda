/* assist.h - the solver's help in the game: hints, solve-and-replay, deadlock warnings.
 *
 * Hints and solutions come from the worker thread (worker.h): a request carries a copy of
 * the position, the main loop never waits, and an answer for a position the player has left
 * is dropped. Deadlock warnings come straight from the deadlock analysis (deadlock.h), which
 * is quick enough to run after every push in the UI thread. */
#ifndef SOKOBAN_TUI_ASSIST_H
#define SOKOBAN_TUI_ASSIST_H

#include "tui.h"

/* H: asks for a hint, or makes the push of the hint on show. */
void assist_hint(tui *t);

/* Enter on a hint: makes its push. False when no hint is on show. */
bool assist_hint_push(tui *t);

/* S: solves from the position in play, then replays the solution. */
void assist_solve(tui *t);

/* B: replays the player's best saved solution from the level's start. */
void assist_replay_best(tui *t);

/* Cancels the worker's request, if any; `why` (may be NULL) goes on the message line. */
void assist_cancel(tui *t, const char *why);

/* Takes the worker's answer when one is ready (its wake fd was readable). */
void assist_poll(tui *t);

/* Renews the deadlock warning for the position in play; `last_pushed_box` as in
 * deadlock_check_position(). */
void assist_check_deadlock(tui *t, int last_pushed_box);

#endif
