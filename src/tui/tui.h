/* tui.h - the terminal game's state, shared by the front-end's files.
 *
 * The front-end is cut by concern, as tmux is: tui.c owns the terminal, the signals and the
 * main loop; play.c the level in play (moves, level changes, solved levels, saved progress);
 * assist.c the solver's help (hints, solve requests, deadlock warnings); replay.c the animated
 * replay; draw.c the play screen; levels.c the level list; keys.c the key map. Only draw.c and
 * levels.c draw; only tui.c reads keys. Everything below the UI (rules, solver, worker,
 * progress) comes from the library. */
#ifndef SOKOBAN_TUI_TUI_H
#define SOKOBAN_TUI_TUI_H

#include <limits.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "../cli/cli.h"
#include "../deadlock.h"
#include "../game.h"
#include "../level.h"
#include "../progress.h"
#include "../worker.h"
#include "replay.h"

enum { TUI_NO_SOLVER_STEP = INT_MAX };

/* Which screen has the keys. */
typedef enum tui_screen {
    TUI_SCREEN_PLAY,
    TUI_SCREEN_LEVELS,
    TUI_SCREEN_HELP,
} tui_screen;

/* How the message line is shown. */
typedef enum tui_message_kind {
    TUI_MESSAGE_INFO,
    TUI_MESSAGE_GOOD,    /* a level solved */
    TUI_MESSAGE_WARNING, /* a deadlock, a lost position */
    TUI_MESSAGE_ERROR,   /* a save file that could not be read or written */
} tui_message_kind;

/* What the solver thread is working on for us. */
typedef enum tui_request {
    TUI_REQUEST_NONE,
    TUI_REQUEST_HINT,
    TUI_REQUEST_SOLVE,
} tui_request;

/* A hint on show: the push the solver advises from the position it was asked about. */
typedef struct tui_hint {
    bool shown;
    int box;             /* the square of the box to push */
    direction direction; /* which way */
    int stand;           /* where the player must stand to push */
    solver_mode mode;    /* "optimal" or "fast" */
    int moves_at;        /* game.moves when the hint was given: any step hides it */
} tui_hint;

/* The deadlock warning for the position in play. */
typedef struct tui_warning {
    deadlock_report report; /* reason DEADLOCK_NONE: no warning */
} tui_warning;

/* Where the board lies on the screen, set by draw.c and read back for mouse clicks. */
typedef struct tui_layout {
    int top, left;  /* screen row and column of the board's top-left square */
    int cell_width; /* columns per square: 2, or 1 when the terminal is narrow */
    bool too_small; /* the board does not fit: a note is shown instead */
} tui_layout;

/* The level list's cursor. */
typedef struct tui_level_list {
    int collection; /* the collection listed */
    int selected;   /* index of the highlighted level */
    int top;        /* index of the first level on screen */
    int typed;      /* the level number being typed, 0 when none */
} tui_level_list;

typedef struct tui {
    const cli_options *options;

    /* The collections played, and the level in play. */
    collection *collections;
    int collection_count;
    int collection_index;
    int level_index;
    game game;
    bool game_ready;      /* `game` holds a level */
    bool solved_recorded; /* the level in play was solved and saved */
    /* The history index of the first step the solver's replay took, in effect or redoable,
     * since the level was opened: a solution with that step in effect is the solver's, not
     * the player's. TUI_NO_SOLVER_STEP when none; a new step of the player's at or before
     * it drops those steps, and the mark with them. */
    int solver_from;
    deadlock_table dead; /* the level's dead squares */
    bool dead_ready;

    /* What the player sees. */
    tui_screen screen;
    char message[256];
    tui_message_kind message_kind;
    bool confirm_restart;   /* "Restart? y/n" is asked */
    bool show_dead_squares; /* the D overlay */
    tui_layout layout;
    tui_level_list list;
    bool utf8;   /* the locale's character set is UTF-8 */
    bool colors; /* the terminal has colours and we use them */

    /* The solver's help. */
    worker *worker;
    tui_request request;  /* what the worker is working on for us */
    uint64_t request_id;  /* worker_submit()'s id of it */
    int request_moves;    /* game.moves when it was asked; the player moving drops it */
    unsigned spinner;     /* the spinner's frame: tenths of a second on the clock */
    double hint_seconds;  /* the budget of a hint */
    double solve_seconds; /* the budget of a solve-and-replay */
    tui_hint hint;
    tui_warning warning;
    replay replay;
    bool replay_by_solver; /* the replay plays the solver's solution, not the player's */

    /* Saved progress; NULL when it could not be opened. */
    progress *progress;

    /* The loop. */
    bool quit;
    FILE *trace; /* SOKOBAN_TRACE: key and redraw timestamps, for bench/hint.sh */
} tui;

/* Sets the message line; printf-style. */
void tui_message(tui *t, tui_message_kind kind, const char *format, ...)
    __attribute__((format(printf, 3, 4)));

/* `one` when `count` is 1, else `many`: "%d %s", n, tui_plural(n, "push", "pushes"). */
static inline const char *tui_plural(int count, const char *one, const char *many)
{
    return count == 1 ? one : many;
}

/* The level in play. */
static inline const level *tui_level(const tui *t)
{
    return &t->collections[t->collection_index].levels[t->level_index];
}

#endif
