/* replay.h - the animated replay of a solution, step by step, on the level in play.
 *
 * A replay holds the steps still to play and a clock. The main loop asks how long it may
 * sleep (replay_timeout_ms) and calls replay_tick when it wakes; the player can pause,
 * step, and change the speed. Stopping leaves the game where the replay stands. Knows
 * nothing of the screen. */
#ifndef SOKOBAN_TUI_REPLAY_H
#define SOKOBAN_TUI_REPLAY_H

#include <stdbool.h>
#include <stddef.h>

#include "rules/game.h"

enum { REPLAY_SPEED_COUNT = 7 };

typedef struct replay {
    bool active;
    bool paused;
    bool held; /* a menu or the help screen is over the board: the clock stands still */
    game_step *steps; /* owned */
    int count;
    int next;      /* the step to play next */
    int speed;     /* 0 (slowest) .. REPLAY_SPEED_COUNT - 1 */
    double due;    /* monotonic milliseconds when the next step is due */
    char what[48]; /* "solver's solution", "your best solution" */
} replay;

/* The monotonic clock in milliseconds. */
double replay_now_ms(void);

/* An idle replay at the default speed. */
void replay_init(replay *r);

/* Starts replaying `lurd` (text from a file: a saved solution) on the game from where it
 * stands. Returns false (and starts nothing) when the text is not LURD; `error` (may be NULL)
 * says why. */
bool replay_start(replay *r, const char *lurd, const char *what, char *error, size_t error_size);

/* The same for steps already read (the solver's answer): copies them. False when out of
 * memory. A replay of no steps is over at once (active false): nothing is played. */
bool replay_start_steps(replay *r, const game_step *steps, int count, const char *what);

/* Stops and frees the steps; the game stays where it is. */
void replay_stop(replay *r);

/* Milliseconds until the next step is due (0 when due), or -1 when nothing will happen
 * without a key (not active, paused or held). */
int replay_timeout_ms(const replay *r, double now);

/* Plays the steps that are due. Returns the number played; stops the replay (active false)
 * after its last step, or at a step the rules refuse (returns -1 then). */
int replay_tick(replay *r, game *g, double now);

/* Plays one step now, paused or not (the '.' key). Same return as replay_tick. */
int replay_step(replay *r, game *g);

/* Takes back the last step played (the ',' key) and pauses. Returns 1, or 0 when no step
 * of the replay is in effect. */
int replay_step_back(replay *r, game *g);

/* Plays every step left at once (the End key). Same return as replay_tick; the replay is
 * over afterwards. */
int replay_finish(replay *r, game *g);

/* Holds the replay while a menu or the help screen is open (`held` true), and lets it carry
 * on where it stood afterwards (false); a pause the player chose stays. */
void replay_hold(replay *r, bool held);

void replay_toggle_pause(replay *r);
void replay_faster(replay *r);
void replay_slower(replay *r);

/* Steps per second at the current speed. */
double replay_steps_per_second(const replay *r);

#endif
