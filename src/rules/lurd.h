/* lurd.h - LURD solution strings: l, u, r, d for moves, L, U, R, D for pushes.
 *
 * Reads the run-length encoded forms ("3l2U", and groups as in "2(ldr3u)") and ignores
 * white space. A string written
 * all in lowercase, as some programs store solutions, is read without case: a letter that
 * walks into a box pushes it. Replays a string on a level and stops at the first illegal
 * step with its number and the reason. */
#ifndef SOKOBAN_LURD_H
#define SOKOBAN_LURD_H

#include <stdbool.h>
#include <stddef.h>

#include "board.h"
#include "game.h"

/* The most steps a LURD text may stand for, its counts expanded. The longest solutions of
 * real levels have tens of thousands of moves; the limit keeps a few bytes such as
 * "99999(99999l)" from costing gigabytes. */
enum { LURD_MAX_STEPS = 100000 };

typedef struct lurd_error {
    char message[256];
} lurd_error;

typedef struct lurd_steps {
    game_step *steps;
    int count;
    bool case_sensitive; /* false when the text had no uppercase letter */
} lurd_steps;

/* Parses `text` (NUL-terminated). Returns false with a message on a character that is not
 * l/u/r/d, a digit or white space, a count not followed by a letter, a count of zero, or
 * a text of more than LURD_MAX_STEPS steps. */
bool lurd_parse(const char *text, lurd_steps *out, lurd_error *error);
void lurd_steps_free(lurd_steps *steps);

/* Plays the steps on `game` from where it stands. On an illegal step (a wall, a blocked
 * box, a push written where there is no box or a box where a move was written) stops before
 * it and returns false with "step N (X): REASON". */
bool lurd_apply(game *game, const lurd_steps *steps, lurd_error *error);

/* Writes steps as LURD text, run-length encoded when `rle` (counts of 2 or more). */
char *lurd_format(const game_step *steps, int count, bool rle);

#endif
