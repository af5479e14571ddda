/* play.c - the level in play, and the saved progress. */
#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include "../lurd.h"
#include "assist.h"
#include "play.h"

/* ---- Saved progress ----------------------------------------------------------------- */

const progress_record *play_record(const tui *t, int collection, int level)
{
    if (!t->progress) return NULL;
    return progress_get(t->progress, progress_level_key(&t->collections[collection].levels[level]));
}

void play_save(tui *t)
{
    if (!t->progress) return;
    char message[256];
    if (!progress_save(t->progress, message, sizeof message) && message[0])
        tui_message(t, TUI_MESSAGE_ERROR, "%s", message);
}

/* Keeps the moves of the level in play (or forgets them when there are none). */
static void keep_unfinished(tui *t)
{
    if (!t->progress || !t->game_ready) return;
    progress_key key = progress_level_key(tui_level(t));
    if (game_is_solved(&t->game) || t->game.moves == 0) {
        progress_set_unfinished(t->progress, key, NULL);
        return;
    }
    char *lurd = game_lurd(&t->game);
    if (lurd) progress_set_unfinished(t->progress, key, lurd);
    free(lurd);
}

/* Replays the saved unfinished moves of the level just opened. */
static void restore_unfinished(tui *t)
{
    const progress_record *record = play_record(t, t->collection_index, t->level_index);
    if (!record || !record->unfinished || record->solved) return;
    lurd_steps steps;
    lurd_error error;
    if (!lurd_parse(record->unfinished, &steps, &error)) return;
    if (lurd_apply(&t->game, &steps, &error))
        tui_message(t, TUI_MESSAGE_INFO, "Resumed where you left off (%d move%s); r restarts",
                    t->game.moves, t->game.moves == 1 ? "" : "s");
    else
        game_restart(&t->game);
    lurd_steps_free(&steps);
}

/* Records the level as solved and says so. */
static void record_solved(tui *t, bool by_solver)
{
    const char *dash = t->utf8 ? "\xe2\x80\x94" : "-";
    if (by_solver) {
        tui_message(t, TUI_MESSAGE_GOOD,
                    "Solved by the solver in %d %s, %d %s (not recorded) %s n or Enter: "
                    "next level",
                    t->game.moves, tui_plural(t->game.moves, "move", "moves"), t->game.pushes,
                    tui_plural(t->game.pushes, "push", "pushes"), dash);
        return;
    }
    bool best = false, first = true;
    if (t->progress) {
        progress_key key = progress_level_key(tui_level(t));
        const progress_record *before = progress_get(t->progress, key);
        first = !before || !before->solved;
        char *lurd = game_lurd(&t->game);
        if (lurd)
            best = progress_record_solution(t->progress, key, lurd, t->game.moves, t->game.pushes);
        free(lurd);
    }
    tui_message(t, TUI_MESSAGE_GOOD, "Solved in %d %s, %d %s%s %s n or Enter: next level",
                t->game.moves, tui_plural(t->game.moves, "move", "moves"), t->game.pushes,
                tui_plural(t->game.pushes, "push", "pushes"), best && !first ? " (a new best)" : "",
                dash);
    play_save(t);
}

/* ---- Opening levels ----------------------------------------------------------------- */

void play_close_level(tui *t)
{
    if (!t->game_ready) return;
    assist_cancel(t, NULL);
    replay_stop(&t->replay);
    keep_unfinished(t);
    game_free(&t->game);
    if (t->dead_ready) deadlock_table_free(&t->dead);
    t->game_ready = false;
    t->dead_ready = false;
}

bool play_open_level(tui *t, int collection, int level)
{
    play_close_level(t);
    t->collection_index = collection;
    t->level_index = level;
    t->hint.shown = false;
    t->confirm_restart = false;
    t->solved_recorded = false;
    t->solver_from = TUI_NO_SOLVER_STEP;
    memset(&t->warning, 0, sizeof t->warning);
    tui_message(t, TUI_MESSAGE_INFO, "%s", "");
    if (!game_init(&t->game, tui_level(t))) return false;
    t->game_ready = true;
    t->dead_ready = deadlock_table_init(&t->dead, &t->game.board);
    if (!t->dead_ready) deadlock_table_free(&t->dead);
    restore_unfinished(t);
    assist_check_deadlock(t, -1);
    if (t->progress) {
        progress_set_last(t->progress, t->collections[collection].path, tui_level(t)->number);
        play_save(t);
    }
    return true;
}

/* The collection among those played whose file is `path` (absolute), or -1. */
static int find_collection(const tui *t, const char *path)
{
    for (int i = 0; i < t->collection_count; i++) {
        char resolved[PATH_MAX];
        if (realpath(t->collections[i].path, resolved) && strcmp(resolved, path) == 0) return i;
        if (strcmp(t->collections[i].path, path) == 0) return i;
    }
    return -1;
}

bool play_open_first(tui *t)
{
    int collection = 0, level = 0;
    if (t->options->level) {
        level = t->options->level - 1;
    } else if (t->progress) {
        const char *path;
        int number;
        if (t->options->file_count == 0 && progress_last(t->progress, &path, &number) &&
            (collection = find_collection(t, path)) >= 0) {
            level = number - 1;
        } else {
            collection = 0;
            level = progress_collection_level(t->progress, t->collections[0].path) - 1;
        }
        if (level < 0 || level >= t->collections[collection].count) level = 0;
    }
    return play_open_level(t, collection, level);
}

/* ---- The player's actions ----------------------------------------------------------- */

void play_took_steps(tui *t, int first, bool by_solver)
{
    if (first >= t->game.moves) return;
    if (by_solver) {
        if (first < t->solver_from) t->solver_from = first;
    } else if (first <= t->solver_from) {
        /* The new steps replaced the history from `first` on, the solver's steps with it. */
        t->solver_from = TUI_NO_SOLVER_STEP;
    }
}

void play_changed(tui *t, int last_pushed_box, bool by_solver)
{
    t->hint.shown = false;
    t->confirm_restart = false;
    /* A request about the position left is no longer wanted. */
    assist_cancel(t, NULL);
    /* The old message goes, but for an error, "Solved" while the level stays solved, and
     * the replay's keys while it runs. */
    bool still_solved = t->solved_recorded && game_is_solved(&t->game);
    if (t->message_kind != TUI_MESSAGE_ERROR && !still_solved && !t->replay.active)
        tui_message(t, TUI_MESSAGE_INFO, "%s", "");
    assist_check_deadlock(t, last_pushed_box);
    if (game_is_solved(&t->game)) {
        if (!t->solved_recorded) record_solved(t, by_solver || t->game.moves > t->solver_from);
        t->solved_recorded = true;
    } else {
        t->solved_recorded = false;
    }
}

void play_step(tui *t, direction d)
{
    step_result result = game_step_in(&t->game, d);
    if (result == STEP_BLOCKED) return;
    play_took_steps(t, t->game.moves - 1, false);
    int pushed =
        result == STEP_PUSHED ? board_neighbour(&t->game.board, t->game.position.player, d) : -1;
    play_changed(t, pushed, false);
}

void play_undo(tui *t)
{
    if (!game_undo(&t->game)) {
        tui_message(t, TUI_MESSAGE_INFO, "Nothing to undo");
        return;
    }
    play_changed(t, -1, false);
}

void play_redo(tui *t)
{
    if (!game_redo(&t->game)) {
        tui_message(t, TUI_MESSAGE_INFO, "Nothing to redo");
        return;
    }
    play_changed(t, -1, false);
}

void play_restart(tui *t)
{
    game_restart(&t->game);
    play_changed(t, -1, false);
    tui_message(t, TUI_MESSAGE_INFO, "Restarted; U redoes the moves");
}

void play_walk_to(tui *t, int square)
{
    const board *b = &t->game.board;
    if (square < 0 || !board_is_inside(b, square) || t->game.position.boxes[square]) return;
    if (square == t->game.position.player) return;
    int first = t->game.moves;
    if (game_walk_to(&t->game, square) < 0) {
        tui_message(t, TUI_MESSAGE_INFO, "No way there without pushing a box");
        return;
    }
    play_took_steps(t, first, false);
    play_changed(t, -1, false);
}

/* True when the level is recorded as solved. */
static bool level_solved(const tui *t, int collection, int level)
{
    const progress_record *record = play_record(t, collection, level);
    return record && record->solved;
}

void play_go(tui *t, int delta, bool unsolved_only)
{
    int collection = t->collection_index, level = t->level_index;
    for (;;) {
        level += delta;
        if (level < 0) {
            if (--collection < 0) break;
            level = t->collections[collection].count - 1;
        } else if (level >= t->collections[collection].count) {
            if (++collection >= t->collection_count) break;
            level = 0;
        }
        if (!unsolved_only || !level_solved(t, collection, level)) {
            if (!play_open_level(t, collection, level)) t->quit = true;
            return;
        }
    }
    tui_message(t, TUI_MESSAGE_INFO, "No %s%s level", unsolved_only ? "unsolved " : "",
                delta > 0 ? "next" : "previous");
}
