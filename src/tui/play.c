/* play.c - the play state and its rules: the level in play, the hint and the deadlock
 * warning on show, the message line, and the saved progress. */
#include <assert.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include <stdarg.h>
#include <stdio.h>

#include "rules/box_moves.h"
#include "rules/lurd.h"
#include "play.h"

void play_message(play *p, play_message_kind kind, const char *format, ...)
{
    va_list arguments;
    va_start(arguments, format);
    vsnprintf(p->message, sizeof p->message, format, arguments);
    va_end(arguments);
    p->message_kind = kind;
}

/* ---- Saved progress ----------------------------------------------------------------- */

const progress_record *play_record(const play *p, int collection, int level)
{
    if (!p->progress) return NULL;
    /* a best saved unchecked (an old progress.txt) is replayed here first */
    return progress_get_level(p->progress, &p->collections[collection].levels[level]);
}

void play_save(play *p)
{
    if (!p->progress) return;
    char message[PROGRESS_MESSAGE_SIZE];
    if (!progress_save(p->progress, message, sizeof message) && message[0])
        play_message(p, PLAY_MESSAGE_ERROR, "%s", message);
}

/* The steps of the game from history index `from` to `to` - 1 as LURD text (to free()). */
static char *steps_text(const game *g, int from, int to)
{
    return lurd_format(g->history + from, to - from, false);
}

/* A help mark of the play state (solver_from, hint_from) as the progress keeps it. */
static int help_mark(int from)
{
    return from == PLAY_NO_SOLVER_STEP ? PROGRESS_NO_HELP : from;
}

/* The steps of the game played as one move (game_play_move's, joined), as the progress
 * keeps them (PROGRESS_GROUPS_FORMAT): a text to free(), "" when none; NULL when out of
 * memory. */
static char *groups_text(const game *g)
{
    size_t size = 1, used = 0;
    char *text = malloc(size);
    for (int first = 0, last; text && first < g->length; first = last + 1) {
        for (last = first; last + 1 < g->length && g->history[last + 1].joined;) last++;
        if (last == first) continue;
        char group[32];
        int length = snprintf(group, sizeof group, "%s" PROGRESS_GROUPS_FORMAT, used ? "," : "",
                              first, last);
        char *grown = realloc(text, size + (size_t)length);
        if (!grown) {
            free(text);
            return NULL;
        }
        text = grown;
        memcpy(text + used, group, (size_t)length);
        used += (size_t)length;
        size += (size_t)length;
    }
    if (text) text[used] = '\0';
    return text;
}

/* Joins again the steps a groups text (groups_text's) names, those the history holds; a
 * damaged text joins what it said before the damage (progress_groups_next). */
static void join_groups(game *g, const char *groups)
{
    int first, last = -1;
    for (const char *at = groups; progress_groups_next(&at, g->length, &first, &last);)
        for (int i = first + 1; i <= last; i++) g->history[i].joined = true;
}

bool play_steps_texts(const play *p, char **lurd, char **redo, char **groups)
{
    *lurd = steps_text(&p->game, 0, p->game.moves);
    *redo = steps_text(&p->game, p->game.moves, p->game.length);
    *groups = groups_text(&p->game);
    if (*lurd && *redo && *groups) return true;
    free(*lurd);
    free(*redo);
    free(*groups);
    *lurd = *redo = *groups = NULL;
    return false;
}

/* Keeps the game of the level in play: the moves in effect, the steps redo can take, those
 * played as one move and the help among them (so a resumed game undoes a box move as one,
 * and one the solver helped stays assisted), on a solved level as on any other (a solved
 * position itself is not kept). play_changed() calls it after every change of the
 * position, whatever made it. */
static void keep_unfinished(play *p)
{
    if (!p->progress || !p->game_ready) return;
    progress_key key = progress_level_key(play_level(p));
    if (game_is_solved(&p->game) || p->game.length == 0) {
        progress_set_game(p->progress, key, NULL, NULL);
        return;
    }
    char *lurd, *redo, *groups;
    if (!play_steps_texts(p, &lurd, &redo, &groups)) return;
    progress_set_game_helped(p->progress, key, lurd, redo, groups, help_mark(p->solver_from),
                             help_mark(p->hint_from));
    free(lurd);
    free(redo);
    free(groups);
}

/* Plays `moves` and then `redo` on the game and takes the redo steps back, so that they
 * stay redoable; joins the steps `groups` names. False (and the game at the start) when
 * they do not replay. */
bool play_restore_steps(play *p, const char *moves, const char *redo, const char *groups)
{
    lurd_steps steps;
    lurd_error error;
    bool ok = true;
    /* the steps given replace the whole history: nothing of the game before stays redoable */
    game_restart(&p->game);
    game_drop_redo(&p->game);
    if (moves && *moves) {
        if (!lurd_parse(moves, &steps, &error)) return false;
        ok = lurd_apply(&p->game, &steps, &error);
        lurd_steps_free(&steps);
    }
    if (ok && redo && *redo) {
        int in_effect = p->game.moves;
        if (lurd_parse(redo, &steps, &error)) {
            /* redo steps that no longer replay are dropped; the moves stand */
            lurd_apply(&p->game, &steps, &error);
            lurd_steps_free(&steps);
        }
        while (p->game.moves > in_effect) game_undo(&p->game);
    }
    if (!ok) {
        game_restart(&p->game);
        game_drop_redo(&p->game);
    }
    if (ok) join_groups(&p->game, groups);
    return ok;
}

/* Replays the saved game of the level just opened, with its redo steps; the progress then
 * writes this game over that one only (another game's saved since is kept). */
static void restore_unfinished(play *p)
{
    const progress_record *record = play_record(p, p->collection_index, p->level_index);
    if (p->progress) progress_take_game(p->progress, progress_level_key(play_level(p)), record);
    if (!record || (!record->unfinished && !record->unfinished_redo)) return;
    char *moves = record->unfinished ? strdup(record->unfinished) : NULL;
    char *redo = record->unfinished_redo ? strdup(record->unfinished_redo) : NULL;
    char *groups = record->unfinished_groups ? strdup(record->unfinished_groups) : NULL;
    int solver_from = record->unfinished_solver_from;
    int hint_from = record->unfinished_hint_from;
    if (play_restore_steps(p, moves, redo, groups)) {
        /* the help in the game comes back with it: a mark past the steps that replayed
         * (redo steps dropped) marks nothing */
        p->solver_from =
            solver_from >= 0 && solver_from < p->game.length ? solver_from : PLAY_NO_SOLVER_STEP;
        p->hint_from =
            hint_from >= 0 && hint_from < p->game.length ? hint_from : PLAY_NO_SOLVER_STEP;
        if (p->game.moves > 0)
            play_message(p, PLAY_MESSAGE_INFO, "Resumed where you left off (%d move%s); r restarts",
                         p->game.moves, p->game.moves == 1 ? "" : "s");
    }
    free(moves);
    free(redo);
    free(groups);
}

/* After a level solved: when every level of the collection that can be played is solved,
 * the message says so ("collection complete: 155/155") and offers the next collection. */
static void say_if_collection_complete(play *p)
{
    const collection *c = &p->collections[p->collection_index];
    const progress_summary *records =
        p->progress ? progress_summaries(p->progress, c->levels, c->count) : NULL;
    int solved = 0, playable = 0;
    for (int i = 0; i < c->count; i++) {
        if (c->levels[i].error) continue;
        playable++;
        solved += records && records[i].solved;
    }
    if (solved < playable) return;
    bool more = p->collection_index + 1 < p->collection_count;
    const char *dash = p->utf8 ? "\xe2\x80\x94" : "-";
    char message[sizeof p->message];
    snprintf(message, sizeof message, "Solved in %d %s, %d %s: collection complete: %d/%d %s %s",
             p->game.moves, play_plural(p->game.moves, "move", "moves"), p->game.pushes,
             play_plural(p->game.pushes, "push", "pushes"), solved, playable, dash,
             more ? "n: the next collection" : "the last collection; L lists the levels");
    play_message(p, PLAY_MESSAGE_GOOD, "%s", message);
}

/* Adds the time played since the last action (an idle spell counts as one minute at most). */
static void count_time(play *p)
{
    double now = replay_now_ms();
    if (p->last_action_ms > 0) {
        double seconds = (now - p->last_action_ms) / 1000.0;
        p->unsaved_seconds += seconds > 60 ? 60 : seconds;
    }
    p->last_action_ms = now;
}

/* Writes the time played on the level in play. */
static void keep_time(play *p)
{
    count_time(p);
    if (p->progress && p->game_ready && p->unsaved_seconds > 0)
        progress_add_time(p->progress, progress_level_key(play_level(p)), p->unsaved_seconds);
    p->unsaved_seconds = 0;
    p->last_action_ms = 0;
}

/* True when the level is recorded as solved. */
static bool level_solved(const play *p, int collection, int level)
{
    const progress_record *record = play_record(p, collection, level);
    return record && record->solved;
}

/* The level n (delta 1) or p (-1) goes to, N or P with `unsolved_only`: the next one that
 * can be played, across the collections. False when there is none. */
static bool level_after(const play *p, int delta, bool unsolved_only, int *collection_out,
                        int *level_out)
{
    int collection = p->collection_index, level = p->level_index;
    for (;;) {
        level += delta;
        if (level < 0) {
            if (--collection < 0) return false;
            level = p->collections[collection].count - 1;
        } else if (level >= p->collections[collection].count) {
            if (++collection >= p->collection_count) return false;
            level = 0;
        }
        if (p->collections[collection].levels[level].error) continue; /* cannot be played */
        if (!unsolved_only || !level_solved(p, collection, level)) {
            *collection_out = collection;
            *level_out = level;
            return true;
        }
    }
}

/* Records the level as solved and says so: as the player's own, or as assisted when a
 * step of the solver's replay or a step after a hint is in effect. */
static void record_solved(play *p, bool by_solver, bool hinted)
{
    const char *dash = p->utf8 ? "\xe2\x80\x94" : "-";
    bool assisted = by_solver || hinted;
    int best_flags = 0;
    bool first = true;
    if (p->progress) {
        const progress_record *before = play_record(p, p->collection_index, p->level_index);
        first = !before || (!before->solved && !before->assisted);
        char *lurd = game_lurd(&p->game);
        if (lurd)
            progress_add_solution(p->progress, play_level(p), lurd,
                                  assisted ? PROGRESS_ASSISTED : PROGRESS_OWN, &best_flags);
        free(lurd);
    }
    bool last = play_is_last(p);
    play_message(p, PLAY_MESSAGE_GOOD, "Solved%s in %d %s, %d %s%s %s %s",
                 by_solver ? " by the solver"
                 : hinted  ? " with hints"
                           : "",
                 p->game.moves, play_plural(p->game.moves, "move", "moves"), p->game.pushes,
                 play_plural(p->game.pushes, "push", "pushes"),
                 assisted               ? " (recorded as assisted)"
                 : best_flags && !first ? " (a new best)"
                                        : "",
                 dash, last ? "the last level; L lists the levels" : "n or Enter: next level");
    if (first) say_if_collection_complete(p);
    play_save(p);
}

/* ---- Deadlock warnings -------------------------------------------------------------- */

/* What each rule means, for the warning. */
static const char *reason_explained(deadlock_reason reason)
{
    switch (reason) {
    case DEADLOCK_CORNER:
        return "a box in a corner can never move again";
    case DEADLOCK_DEAD_WALL:
        return "a box against this wall can never reach a goal";
    case DEADLOCK_UNREACHABLE:
        return "no goal can be reached from this square";
    case DEADLOCK_BLOCK_2X2:
        return "boxes and walls form a 2x2 block";
    case DEADLOCK_FROZEN:
        return "these boxes can never move again";
    default:
        return "";
    }
}

/* Renews the deadlock warning for the position in play; `last_pushed_box` as in
 * deadlock_check_position(). */
static void check_deadlock(play *p, int last_pushed_box)
{
    bool was_warned = p->warning.reason != DEADLOCK_NONE;
    memset(&p->warning, 0, sizeof p->warning);
    if (p->dead_ready && !game_is_solved(&p->game))
        deadlock_check_position(&p->dead, &p->game.board, &p->game.position, last_pushed_box,
                                &p->warning);
    deadlock_reason reason = p->warning.reason;
    if (reason != DEADLOCK_NONE) {
        /* z (undo by push) takes the push back however many moves followed it; with no push
         * in effect the deadlock is the level's own */
        play_message(p, PLAY_MESSAGE_WARNING, "DEADLOCK (%s): %s. %s", deadlock_reason_name(reason),
                     reason_explained(reason),
                     p->game.pushes > 0 ? "Press z to undo the push."
                                        : "The level cannot be solved from its start.");
    } else if (was_warned && p->message_kind == PLAY_MESSAGE_WARNING) {
        play_message(p, PLAY_MESSAGE_INFO, "%s", "");
    }
}

/* ---- Opening levels ----------------------------------------------------------------- */

void play_close_level(play *p)
{
    play_drop_selection(p);
    if (!p->game_ready) return;
    p->changes++;
    replay_stop(&p->replay);
    keep_unfinished(p);
    keep_time(p);
    game_free(&p->game);
    if (p->dead_ready) deadlock_table_free(&p->dead);
    p->game_ready = false;
    p->dead_ready = false;
}

bool play_open_level(play *p, int collection, int level)
{
    play_close_level(p);
    p->changes++;
    p->collection_index = collection;
    p->level_index = level;
    p->hint.shown = false;
    p->confirm_restart = false;
    p->solved_recorded = false;
    p->solver_from = PLAY_NO_SOLVER_STEP;
    p->hint_from = PLAY_NO_SOLVER_STEP;
    p->last_action_ms = replay_now_ms();
    p->unsaved_seconds = 0;
    memset(&p->warning, 0, sizeof p->warning);
    play_message(p, PLAY_MESSAGE_INFO, "%s", "");
    if (!game_init(&p->game, play_level(p))) return false;
    p->game_ready = true;
    p->dead_ready = deadlock_table_init(&p->dead, &p->game.board);
    if (!p->dead_ready) deadlock_table_free(&p->dead);
    restore_unfinished(p);
    check_deadlock(p, -1);
    if (p->progress) {
        progress_set_last(p->progress, p->collections[collection].path, play_level(p)->number);
        play_save(p);
    }
    return true;
}

/* The collection among those played whose file is `path` (absolute), or -1. */
static int find_collection(const play *p, const char *path)
{
    for (int i = 0; i < p->collection_count; i++) {
        char resolved[PATH_MAX];
        if (realpath(p->collections[i].path, resolved) && strcmp(resolved, path) == 0) return i;
        if (strcmp(p->collections[i].path, path) == 0) return i;
    }
    return -1;
}

bool play_open_first(play *p, int level_number, bool files_named)
{
    int collection = 0, level = 0;
    if (level_number) {
        level = level_number - 1;
    } else if (p->progress) {
        const char *path;
        int number;
        if (!files_named && progress_last(p->progress, &path, &number) &&
            (collection = find_collection(p, path)) >= 0) {
            level = number - 1;
        } else {
            collection = 0;
            level = progress_collection_level(p->progress, p->collections[0].path) - 1;
        }
        if (level < 0 || level >= p->collections[collection].count) level = 0;
    }
    /* a level that cannot be played is passed over, to the next that can */
    for (int tried = 0; p->collections[collection].levels[level].error && tried < 1 << 24;
         tried++) {
        if (++level >= p->collections[collection].count) {
            level = 0;
            collection = (collection + 1) % p->collection_count;
        }
    }
    return play_open_level(p, collection, level);
}

/* ---- The player's actions ----------------------------------------------------------- */

void play_took_steps(play *p, int first, bool by_solver)
{
    if (first >= p->game.moves) return;
    if (by_solver) {
        if (first < p->solver_from) p->solver_from = first;
    } else if (first <= p->solver_from) {
        /* The new steps replaced the history from `first` on, the solver's steps with it. */
        p->solver_from = PLAY_NO_SOLVER_STEP;
    }
    /* steps taken after a hint was on show count as helped, unless the player went back to
     * before the hint and played on */
    if (!by_solver && first < p->hint_from) p->hint_from = PLAY_NO_SOLVER_STEP;
}

/* A hint on show for the position in play: the steps from here on are helped. */
static void note_hint(play *p)
{
    if (p->hint.shown && p->hint.moves_at == p->game.moves && p->game.moves < p->hint_from)
        p->hint_from = p->game.moves;
}

void play_changed(play *p, int last_pushed_box, bool by_solver)
{
    assert(p->game_ready);
    assert(p->game.moves >= 0 && p->game.pushes <= p->game.moves);
    p->hint.shown = false;
    p->confirm_restart = false;
    play_drop_selection(p);
    /* A request about the position left is no longer wanted (assist.h drops it). */
    p->changes++;
    /* The old message goes, but for an error, "Solved" while the level stays solved, and
     * the replay's keys while it runs. */
    bool still_solved = p->solved_recorded && game_is_solved(&p->game);
    count_time(p);
    if (p->message_kind != PLAY_MESSAGE_ERROR && !still_solved && !p->replay.active)
        play_message(p, PLAY_MESSAGE_INFO, "%s", "");
    check_deadlock(p, last_pushed_box);
    if (game_is_solved(&p->game)) {
        if (!p->solved_recorded)
            record_solved(p, by_solver || p->game.moves > p->solver_from,
                          p->game.moves > p->hint_from);
        p->solved_recorded = true;
    } else {
        p->solved_recorded = false;
    }
    /* the one place where a change is saved: a killed game resumes from here */
    keep_unfinished(p);
}

void play_step(play *p, direction d)
{
    note_hint(p);
    step_result result = game_step_in(&p->game, d);
    if (result == STEP_BLOCKED) return;
    play_took_steps(p, p->game.moves - 1, false);
    int pushed =
        result == STEP_PUSHED ? board_neighbour(&p->game.board, p->game.position.player, d) : -1;
    play_changed(p, pushed, false);
}

void play_undo(play *p)
{
    if (!game_undo_move(&p->game)) {
        play_message(p, PLAY_MESSAGE_INFO, "Nothing to undo");
        return;
    }
    play_changed(p, -1, false);
}

void play_redo(play *p)
{
    if (!game_redo_move(&p->game)) {
        play_message(p, PLAY_MESSAGE_INFO, "Nothing to redo");
        return;
    }
    play_changed(p, -1, false);
}

void play_undo_push(play *p)
{
    if (!game_undo_push(&p->game)) {
        play_message(p, PLAY_MESSAGE_INFO, "Nothing to undo");
        return;
    }
    play_changed(p, -1, false);
}

void play_redo_push(play *p)
{
    if (!game_redo_push(&p->game)) {
        play_message(p, PLAY_MESSAGE_INFO, "Nothing to redo");
        return;
    }
    play_changed(p, -1, false);
}

void play_redo_all(play *p)
{
    if (p->game.moves >= p->game.length) {
        play_message(p, PLAY_MESSAGE_INFO, "Nothing to redo");
        return;
    }
    game_redo_all(&p->game);
    play_changed(p, -1, false);
}

void play_restart(play *p)
{
    if (p->game.moves == 0) {
        play_message(p, PLAY_MESSAGE_INFO, "%s",
                     p->game.length > 0 ? "At the start already; U, x or End redoes the moves"
                                        : "At the start already: no moves to take back");
        return;
    }
    game_restart(&p->game);
    play_changed(p, -1, false);
    play_message(p, PLAY_MESSAGE_INFO, "Restarted; U, x or End redoes the moves");
}

void play_restart_or_ask(play *p)
{
    if (p->game.moves > 0 && !game_is_solved(&p->game))
        p->confirm_restart = true;
    else
        play_restart(p);
}

bool play_restart_answer(play *p, int key)
{
    if (!p->confirm_restart) return false;
    p->confirm_restart = false;
    if (key == 'y' || key == 'Y')
        play_restart(p);
    else
        play_message(p, PLAY_MESSAGE_INFO, "Not restarted");
    return true;
}

void play_walk_to(play *p, int square)
{
    const board *b = &p->game.board;
    if (square < 0 || !board_is_inside(b, square) || p->game.position.boxes[square]) return;
    if (square == p->game.position.player) return;
    int first = p->game.moves;
    note_hint(p);
    if (game_walk_to(&p->game, square) < 0) {
        play_message(p, PLAY_MESSAGE_INFO, "No way there without pushing a box");
        return;
    }
    play_took_steps(p, first, false);
    play_changed(p, -1, false);
}

/* ---- Boxes moved with the mouse ---------------------------------------------------- */

void play_drop_selection(play *p)
{
    free(p->selection.reach);
    p->selection = (play_selection){.active = false};
}

bool play_select_box(play *p, int square)
{
    const board *b = &p->game.board;
    play_drop_selection(p);
    if (square < 0 || square >= b->size || !p->game.position.boxes[square]) return false;
    uint8_t *reach = malloc((size_t)b->size);
    int count = reach ? box_moves_reach(b, &p->game.position, square, reach) : -1;
    if (count < 0) {
        free(reach);
        play_message(p, PLAY_MESSAGE_ERROR, "Out of memory: the box was not picked");
        return false;
    }
    if (count <= 1) { /* not picked: the next click walks */
        free(reach);
        play_message(p, PLAY_MESSAGE_INFO, "This box cannot be pushed anywhere");
        return false;
    }
    p->selection = (play_selection){.active = true, .box = square, .reach = reach};
    play_message(p, PLAY_MESSAGE_INFO,
                 "Box picked: click a marked square to push it there (Esc lets it go)");
    return true;
}

void play_move_box(play *p, int box, int target)
{
    play_drop_selection(p);
    direction *steps;
    int count = box_moves_find(&p->game.board, &p->game.position, box, target, &steps);
    if (count == BOX_MOVES_NO_MEMORY) {
        play_message(p, PLAY_MESSAGE_ERROR, "Out of memory: the box was not moved");
        return;
    }
    if (count == BOX_MOVES_NO_WAY) {
        play_message(p, PLAY_MESSAGE_INFO, "No way to push this box there");
        return;
    }
    if (count == 0) {
        play_message(p, PLAY_MESSAGE_INFO, "%s", "");
        return;
    }
    int first = p->game.moves;
    note_hint(p);
    bool played = game_play_move(&p->game, steps, count);
    free(steps);
    if (!played) {
        play_message(p, PLAY_MESSAGE_ERROR, "Out of memory: the box was not moved");
        return;
    }
    int pushes = 0;
    for (int i = first; i < p->game.moves; i++) pushes += p->game.history[i].push;
    play_took_steps(p, first, false);
    play_changed(p, target, false); /* saved there, as every change */
    if (!p->message[0])
        play_message(p, PLAY_MESSAGE_INFO, "Box pushed there: %d %s, %d %s; u undoes them at once",
                     p->game.moves - first, play_plural(p->game.moves - first, "move", "moves"),
                     pushes, play_plural(pushes, "push", "pushes"));
}

bool play_is_last(const play *p)
{
    int collection, level;
    return !level_after(p, 1, false, &collection, &level);
}

bool play_go(play *p, int delta, bool unsolved_only)
{
    int collection, level;
    if (level_after(p, delta, unsolved_only, &collection, &level))
        return play_open_level(p, collection, level);
    play_message(p, PLAY_MESSAGE_INFO, "No %s%s level", unsolved_only ? "unsolved " : "",
                 delta > 0 ? "next" : "previous");
    return true;
}

bool play_push_hint(play *p)
{
    if (!p->hint.shown || p->hint.moves_at != p->game.moves) return false;
    play_hint hint = p->hint;
    int first = p->game.moves;
    note_hint(p);
    if (p->game.position.player != hint.stand && game_walk_to(&p->game, hint.stand) < 0) {
        p->hint.shown = false;
        play_message(p, PLAY_MESSAGE_ERROR, "The hinted push cannot be reached");
        return true;
    }
    step_result result = game_step_in(&p->game, hint.direction);
    p->hint.shown = false;
    play_took_steps(p, first, false);
    play_changed(
        p, result == STEP_PUSHED ? board_neighbour(&p->game.board, hint.box, hint.direction) : -1,
        false);
    return true;
}

void play_replay_steps(play *p, bool one_step)
{
    int first = p->game.moves;
    int played = one_step ? replay_step(&p->replay, &p->game)
                          : replay_tick(&p->replay, &p->game, replay_now_ms());
    if (played < 0 && !one_step)
        play_message(p, PLAY_MESSAGE_ERROR, "The replay stopped at a step the rules refuse");
    play_took_steps(p, first, p->replay_by_solver);
    if (played != 0) play_changed(p, -1, p->replay_by_solver);
    if (!p->replay.active) replay_stop(&p->replay);
}

void play_replay_back(play *p)
{
    if (replay_step_back(&p->replay, &p->game) == 0) {
        play_message(p, PLAY_MESSAGE_INFO, "At the start of the replay");
        return;
    }
    play_changed(p, -1, p->replay_by_solver);
}

void play_replay_finish(play *p)
{
    int first = p->game.moves;
    int played = replay_finish(&p->replay, &p->game);
    if (played < 0)
        play_message(p, PLAY_MESSAGE_ERROR, "The replay stopped at a step the rules refuse");
    play_took_steps(p, first, p->replay_by_solver);
    if (played != 0) play_changed(p, -1, p->replay_by_solver);
    replay_stop(&p->replay);
}
