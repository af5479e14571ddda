/* play.h - the play state and its rules: the collections, the level in play, the player's
 * steps, undo and redo, the hint on show, the deadlock warning, the message line, solved
 * levels and the saved progress.
 *
 * This is the bottom of the front-end: it knows nothing of drawing, keys or the solver
 * thread. Every change of the position, whoever made it (a key, a click, a replay, a hint),
 * ends in play_changed(), which hides a stale hint, renews the deadlock warning, notices a
 * solved level, saves the game (its moves, redo steps and help: a killed game resumes from
 * there) and counts the change (play.changes), so that a solver request about a
 * position the player has left can be dropped by the layer that made it (assist.h). */
#ifndef SOKOBAN_TUI_PLAY_H
#define SOKOBAN_TUI_PLAY_H

#include <limits.h>
#include <stdbool.h>
#include <stdint.h>

#include "rules/deadlock.h"
#include "rules/game.h"
#include "level/level.h"
#include "progress/progress.h"
#include "solver/solver.h"
#include "replay.h"

enum { PLAY_NO_SOLVER_STEP = INT_MAX };

/* How the message line is shown. */
typedef enum play_message_kind {
    PLAY_MESSAGE_INFO,
    PLAY_MESSAGE_GOOD,    /* a level solved */
    PLAY_MESSAGE_WARNING, /* a deadlock, a lost position */
    PLAY_MESSAGE_ERROR,   /* a save file that could not be read or written */
} play_message_kind;

/* A hint on show: the push the solver advises from the position it was asked about. */
typedef struct play_hint {
    bool shown;
    int box;             /* the square of the box to push */
    direction direction; /* which way */
    int stand;           /* where the player must stand to push */
    solver_mode mode;    /* "optimal" or "fast" */
    int moves_at;        /* game.moves when the hint was given: any step hides it */
    bool improved;       /* from a line the optimizer shortened after the first answer */
} play_hint;

/* A box picked with the mouse, to be pushed where the player points next (box_moves.h). */
typedef struct play_selection {
    bool active;
    int box;        /* the square of the box picked */
    uint8_t *reach; /* board size bytes: 1 on each square the box can be pushed to (owned) */
} play_selection;

typedef struct play {
    /* The collections played (owned), and the level in play. */
    collection *collections;
    int collection_count;
    int collection_index;
    int level_index;
    game game;
    bool game_ready;      /* `game` holds a level */
    bool solved_recorded; /* the level in play was solved and saved */
    /* The history index of the first step the solver's replay took, in effect or redoable,
     * since the level was opened: a solution with that step in effect is the solver's, not
     * the player's. PLAY_NO_SOLVER_STEP when none; a new step of the player's at or before
     * it drops those steps, and the mark with them. */
    int solver_from;
    /* The same for hints: the history index from which steps were taken with a hint on
     * show; a solution with such a step in effect is recorded as assisted. */
    int hint_from;
    double last_action_ms;  /* when the player last acted (replay_now_ms), for time played */
    double unsaved_seconds; /* time played on the level not yet written */
    deadlock_table dead;    /* the level's dead squares */
    bool dead_ready;
    unsigned long changes; /* counts play_changed() and level changes */

    /* The replay on the level in play. */
    replay replay;
    bool replay_by_solver; /* the replay plays the solver's solution, not the player's */

    /* What the player is told. */
    play_hint hint;
    play_selection selection; /* dropped by every change of the position */
    deadlock_report warning;  /* reason DEADLOCK_NONE: no warning */
    char message[PROGRESS_MESSAGE_SIZE]; /* (a progress message whole) */
    play_message_kind message_kind;
    bool confirm_restart; /* "Restart? y/n" is asked */
    bool utf8;            /* messages may use a dash */

    /* Saved progress (owned); NULL when it could not be opened. */
    progress *progress;
} play;

/* Sets the message line; printf-style. */
void play_message(play *p, play_message_kind kind, const char *format, ...)
    __attribute__((format(printf, 3, 4)));

/* `one` when `count` is 1, else `many`: "%d %s", n, play_plural(n, "push", "pushes"). */
static inline const char *play_plural(int count, const char *one, const char *many)
{
    return count == 1 ? one : many;
}

/* The level in play. */
static inline const level *play_level(const play *p)
{
    return &p->collections[p->collection_index].levels[p->level_index];
}

/* Opens level `level` (0-based) of collection `collection`: stops any replay, saves the
 * unfinished moves of the level left, and restores those of the level opened. Returns false
 * only when out of memory (the game is then not ready). */
bool play_open_level(play *p, int collection, int level);

/* Saves the moves of the level in play and frees it. */
void play_close_level(play *p);

/* Opens the first level to play: `level_number` (1-based; 0 for none) of the first
 * collection, else where the player left off (when `files_named` is false), else the first
 * level. Returns false only when out of memory. */
bool play_open_first(play *p, int level_number, bool files_named);

/* The player's own actions. Undo and redo take a move: one step, or a box move's steps. */
void play_step(play *p, direction d);
void play_undo(play *p);
void play_redo(play *p);
void play_restart(play *p); /* undo to the start: the steps stay redoable */
/* r: asks "Restart the level? (y/n)" when moves were made on a level not solved, else
 * restarts; play_restart_answer() takes the next key: true when it was the answer (y
 * restarts, any other key does not). */
void play_restart_or_ask(play *p);
bool play_restart_answer(play *p, int key);
/* Undo and redo by push (game_undo_push()), and redo to the end. */
void play_undo_push(play *p);
void play_redo_push(play *p);
void play_redo_all(play *p);
void play_walk_to(play *p, int square);

/* Picks the box on `square` and marks the squares it can be pushed to; false (nothing
 * picked) when no box stands there or it cannot be pushed anywhere (said so, and the next
 * click walks). play_drop_selection() lets it go. */
bool play_select_box(play *p, int square);
void play_drop_selection(play *p);

/* Pushes the box on `box` to `target` by the fewest pushes, the player walking between
 * them and the other boxes fixed, as one move that undoes as one; says "No way to push this
 * box there" when there is none. Drops the selection either way. */
void play_move_box(play *p, int box, int target);

/* Makes the push of the hint on show (walking to it first). False when no hint is on show
 * for the position in play. */
bool play_push_hint(play *p);

/* Goes `delta` levels on (+1 next, -1 previous), across collections, optionally only to
 * unsolved levels. Says so on the message line when there is none. Returns false only
 * when out of memory. */
bool play_go(play *p, int delta, bool unsolved_only);

/* True when no level that can be played comes after the one in play: n has nowhere to go. */
bool play_is_last(const play *p);

/* Plays the replay's due steps (or one step when `one_step`), as the player's or the
 * solver's steps. */
void play_replay_steps(play *p, bool one_step);

/* The game's steps as the progress keeps them (an unfinished game, a snapshot): the moves
 * in effect and the redo steps as LURD, and the steps played as one move (a box moved with
 * the mouse) as progress.h's groups text. Each to free(); false (all NULL) when out of
 * memory. */
bool play_steps_texts(const play *p, char **lurd, char **redo, char **groups);

/* Plays `moves` from the start, then `redo` and takes those back so that they stay
 * redoable (a saved game, a snapshot), and joins the steps `groups` (play_steps_texts's,
 * NULL for none) names into one move each. False, with the game at the start, when `moves`
 * does not replay; redo steps that do not replay are dropped. */
bool play_restore_steps(play *p, const char *moves, const char *redo, const char *groups);

/* Replay: one step back (pausing it), or every step left at once. */
void play_replay_back(play *p);
void play_replay_finish(play *p);

/* New steps were just taken (not redone) from history index `first` to game.moves - 1,
 * by the solver's replay or by the player; keeps p->solver_from. Call it before
 * play_changed(). */
void play_took_steps(play *p, int first, bool by_solver);

/* After any change of the position; `last_pushed_box` is the square a push just moved a
 * box onto, or -1; `by_solver` when the solver's replay made the step. A solved level is
 * recorded as the player's only when no step of the solver's is in effect. */
void play_changed(play *p, int last_pushed_box, bool by_solver);

/* The saved record of a level, or NULL. */
const progress_record *play_record(const play *p, int collection, int level);

/* Writes the progress file; reports a failure on the message line. */
void play_save(play *p);

#endif
