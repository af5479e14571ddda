/* play.h - the level in play: opening levels, the player's steps, undo and redo, solved
 * levels and the saved progress.
 *
 * Every change of the position, whoever made it (a key, a click, a replay, a hint), ends in
 * play_changed(), which hides a stale hint, drops a solver request for a position the
 * player has left, renews the deadlock warning and notices a solved level. */
#ifndef SOKOBAN_TUI_PLAY_H
#define SOKOBAN_TUI_PLAY_H

#include <stdbool.h>

#include "tui.h"

/* Opens level `level` (0-based) of collection `collection`: stops the solver and any
 * replay, saves the unfinished moves of the level left, and restores those of the level
 * opened. Returns false only when out of memory (the game is then not ready). */
bool play_open_level(tui *t, int collection, int level);

/* Saves the moves of the level in play and frees it. */
void play_close_level(tui *t);

/* Opens the first level to play: --level N of the first collection, else where the player
 * left off, else the first level. Returns false only when out of memory. */
bool play_open_first(tui *t);

/* The player's own actions. */
void play_step(tui *t, direction d);
void play_undo(tui *t);
void play_redo(tui *t);
void play_restart(tui *t);
void play_walk_to(tui *t, int square);

/* Goes `delta` levels on (+1 next, -1 previous), across collections, optionally only to
 * unsolved levels. Says so on the message line when there is none. */
void play_go(tui *t, int delta, bool unsolved_only);

/* New steps were just taken (not redone) from history index `first` to game.moves - 1,
 * by the solver's replay or by the player; keeps t->solver_from. Call it before
 * play_changed(). */
void play_took_steps(tui *t, int first, bool by_solver);

/* After any change of the position; `last_pushed_box` is the square a push just moved a
 * box onto, or -1; `by_solver` when the solver's replay made the step. A solved level is recorded
 * as the player's only when no step of the solver's is in effect. */
void play_changed(tui *t, int last_pushed_box, bool by_solver);

/* The saved record of a level, or NULL. */
const progress_record *play_record(const tui *t, int collection, int level);

/* Writes the progress file; reports a failure on the message line. */
void play_save(tui *t);

#endif
