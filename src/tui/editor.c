/* editor.c - the level editor: its state, keys and mouse (editor.h). Drawing is in
 * editor_draw.c, the solver's part in editor_solve.c. */
#include "editor.h"

#include <curses.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "level/level_save.h"
#include "level/safe_file.h"
#include "level/utf8.h"
#include "keys.h"
#include "mouse.h"

enum {
    CONTROL_R = 'R' & 0x1f,
    CONTROL_U = 'U' & 0x1f,
    CONTROL_H = 8,
    ESCAPE = 27,
    DELETE = 127,
    SIDE = EDIT_CANVAS_SIDE,
    SOLVE_SECONDS_DEFAULT = 30,
};

static const char DEFAULT_FILE[] = "my-levels.sok";

/* Sets the editor's message line; printf-style. */
static void say(editor *e, play_message_kind kind, const char *format, ...)
    __attribute__((format(printf, 3, 4)));
static void say(editor *e, play_message_kind kind, const char *format, ...)
{
    va_list arguments;
    va_start(arguments, format);
    vsnprintf(e->message, sizeof e->message, format, arguments);
    va_end(arguments);
    e->message_kind = kind;
}

/* ---- The level as checked ----------------------------------------------------------- */

static void check_free(editor_check *c)
{
    if (c->dead_ready) {
        deadlock_table_free(&c->dead);
        position_free(&c->start);
        board_free(&c->board);
    }
    c->dead_ready = false;
    collection_free(&c->checked);
    memset(&c->checked, 0, sizeof c->checked);
}

/* The dead squares of the playable level, and the boxes of the start on them. */
static void find_dead_boxes(editor *e)
{
    editor_check *c = &e->check;
    const level *lv = &c->checked.levels[0];
    edit_bounds b = level_edit_bounds(&e->edit);
    /* the checked level is the drawn rectangle (a row of nothing in it would be dropped) */
    if (lv->width != b.width || lv->height != b.height) return;
    if (!board_from_level(lv, &c->board, &c->start)) return;
    if (!deadlock_table_init(&c->dead, &c->board)) {
        position_free(&c->start);
        board_free(&c->board);
        return;
    }
    c->dead_ready = true;
    for (int s = 0; s < c->board.size; s++) {
        if (!c->start.boxes[s] || board_is_goal(&c->board, s) ||
            !deadlock_square_is_dead(&c->dead, s))
            continue;
        if (c->dead_boxes++ == 0)
            c->first_dead_box = level_edit_square(b.x + s % lv->width, b.y + s / lv->width);
    }
}

/* Renews the check after an edit; an answer of the solver's about other squares goes (a new
 * title, author or comment leaves the squares and so the answer as they were). */
static void refresh_check(editor *e)
{
    editor_check *c = &e->check;
    if (c->changes == e->edit.changes && (c->playable || c->problem[0])) return;
    check_free(c);
    c->changes = e->edit.changes;
    c->dead_boxes = 0;
    c->first_dead_box = -1;
    c->counts = level_edit_count(&e->edit);
    c->playable = level_edit_check(&e->edit, "editor", &c->checked, c->problem, sizeof c->problem);
    if (c->playable) {
        c->problem[0] = '\0';
        find_dead_boxes(e);
    }
    const level *checked = c->playable ? &c->checked.levels[0] : NULL;
    if (!editor_solve_is_about(&e->solve, checked) && e->solve.state != EDITOR_SOLVE_IDLE) {
        editor_solve_cancel(&e->solve, NULL);
        e->solve.state = EDITOR_SOLVE_IDLE;
        e->solve.answer[0] = '\0';
    }
}

/* ---- Opening and closing ------------------------------------------------------------ */

bool editor_open(editor *e, const level *from, bool utf8)
{
    double budget = e->solve.budget_seconds > 0 ? e->solve.budget_seconds : SOLVE_SECONDS_DEFAULT;
    /* a new level from within the editor keeps what the session saved and where it goes back */
    bool renew = e->open;
    unsigned long saved = renew ? e->saved_count : 0, old_mouse = e->old_mouse;
    view_screen back_to = e->back_to;
    char saved_path[sizeof e->saved_path];
    snprintf(saved_path, sizeof saved_path, "%s", renew ? e->saved_path : "");
    editor_close(e);
    memset(e, 0, sizeof *e);
    e->solve.budget_seconds = budget;
    e->saved_count = saved;
    e->old_mouse = old_mouse;
    e->back_to = back_to;
    snprintf(e->saved_path, sizeof e->saved_path, "%s", saved_path);
    bool ok = from ? level_edit_init_from(&e->edit, from) : level_edit_init(&e->edit);
    if (!ok) return false;
    e->open = true;
    e->mode = EDITOR_DRAWING;
    e->brush = EDIT_WALL;
    e->saved_changes = e->edit.changes;
    e->saved_text = level_edit_text(&e->edit);
    e->line_start = e->edit.cursor % SIDE;
    e->test.utf8 = utf8;
    e->check.first_dead_box = -1;
    e->check.changes = ~0UL;
    refresh_check(e);
    say(e, PLAY_MESSAGE_INFO, "%s: # wall, space floor, . goal, $ box, @ player; ? lists the keys",
        from ? "Editing" : "A new level");
    /* a level of a file has its key from editor_enter, which knows the file */
    if (!from) {
        level_draft_key(NULL, 0, e->draft_key, sizeof e->draft_key);
        editor_draft_offer(e);
    }
    return true;
}

static void stop_test(editor *e)
{
    if (e->mode != EDITOR_TESTING) return;
    play_close_level(&e->test);
    replay_stop(&e->test.replay);
    for (int i = 0; i < e->test.collection_count; i++) collection_free(&e->test.collections[i]);
    free(e->test.collections);
    e->test.collections = NULL;
    e->test.collection_count = 0;
    e->mode = EDITOR_DRAWING;
}

void editor_close(editor *e)
{
    if (!e->open) return;
    stop_test(e);
    editor_solve_free(&e->solve);
    check_free(&e->check);
    level_edit_free(&e->edit);
    if (e->mode == EDITOR_DRAFT) level_edit_free(&e->draft);
    free(e->saved_text);
    e->saved_text = NULL;
    free(e->file_name);
    e->file_name = NULL;
    e->open = false;
}

bool editor_enter(editor *e, const level *from, play *p, assist *a, view *v)
{
    e->solve.budget_seconds = a->solve_seconds;
    if (!editor_open(e, from, p->utf8)) {
        play_message(p, PLAY_MESSAGE_ERROR, "Out of memory: the editor cannot open");
        return false;
    }
    /* a level of a file of the player's own is saved over where it is */
    char *folder = from ? level_save_folder() : NULL;
    char name[SAFE_FILE_NAME_MAX + 1];
    for (int c = 0; folder && c < p->collection_count; c++) {
        const collection *set = &p->collections[c];
        if (from < set->levels || from >= set->levels + set->count) continue;
        const char *path = from->file ? from->file : set->path;
        level_draft_key(path, from->number, e->draft_key, sizeof e->draft_key);
        if (level_save_is_own(folder, path, name, sizeof name) && (e->file_name = strdup(name)))
            e->replace_number = from->number;
    }
    free(folder);
    if (from && e->draft_key[0]) editor_draft_offer(e);
    if (a->request != ASSIST_REQUEST_NONE) assist_cancel(a, p, NULL);
    if (a->worker) worker_cancel(a->worker);
    mmask_t old = 0;
    mousemask(BUTTON1_PRESSED | BUTTON1_RELEASED | BUTTON1_CLICKED | BUTTON3_PRESSED |
                  REPORT_MOUSE_POSITION,
              &old);
    e->old_mouse = (unsigned long)old;
    e->back_to = v->screen == VIEW_SCREEN_LEVELS ? VIEW_SCREEN_LEVELS : VIEW_SCREEN_PLAY;
    v->screen = VIEW_SCREEN_EDITOR;
    return true;
}

/* The collection in play that is the file a level was saved into is read again, so that
 * the game lists and plays what was saved (the level in play opened again when it is in it). */
static void reload_saved(const char *saved_path, play *p, assist *a)
{
    char saved[PATH_MAX], path[PATH_MAX];
    if (!saved_path[0] || !realpath(saved_path, saved)) return;
    for (int c = 0; c < p->collection_count; c++) {
        if (!realpath(p->collections[c].path, path) || strcmp(path, saved) != 0) continue;
        collection fresh;
        level_error error;
        if (!collection_load(p->collections[c].path, &fresh, &error)) continue;
        bool in_play = c == p->collection_index && p->game_ready;
        if (in_play) play_close_level(p);
        collection_free(&p->collections[c]);
        p->collections[c] = fresh;
        if (!in_play) continue;
        a->store_level = NULL; /* the answers were about the level read before */
        int level = p->level_index < fresh.count ? p->level_index : 0;
        while (level < fresh.count - 1 && fresh.levels[level].error) level++;
        play_open_level(p, c, level);
    }
}

void editor_leave(editor *e, play *p, assist *a, view *v, collections_screen *library)
{
    if (e->saved_count > 0) {
        reload_saved(e->saved_path, p, a);
        collections_rescan(library);
    }
    editor_close(e);
    e->saved_count = 0;
    mousemask((mmask_t)e->old_mouse, NULL);
    v->screen = e->back_to;
    /* the game's solver takes up the position in play where it was stopped */
    a->key = 0;
    p->changes++;
    assist_follow(a, p);
}

/* ---- Test play ---------------------------------------------------------------------- */

/* The level as drawn checked anew: true when it can be played, else "Cannot `doing`: why"
 * said (T, S and w refuse so at once). */
static bool playable_for(editor *e, const char *doing)
{
    refresh_check(e);
    if (!e->check.playable) say(e, PLAY_MESSAGE_ERROR, "Cannot %s: %s", doing, e->check.problem);
    return e->check.playable;
}

/* T: plays the level as drawn on a play state of its own (nothing is saved). */
static void start_test(editor *e)
{
    if (!playable_for(e, "test")) return;
    collection *one = calloc(1, sizeof *one);
    char problem[200];
    if (!one || !level_edit_check(&e->edit, "test play", one, problem, sizeof problem)) {
        if (one) collection_free(one); /* empty after a refused check: harmless */
        free(one);
        say(e, PLAY_MESSAGE_ERROR, "Cannot test: out of memory");
        return;
    }
    e->test.collections = one;
    e->test.collection_count = 1;
    replay_init(&e->test.replay);
    e->mode = EDITOR_TESTING;
    if (!play_open_level(&e->test, 0, 0)) {
        stop_test(e);
        say(e, PLAY_MESSAGE_ERROR, "Cannot test: out of memory");
        return;
    }
    play_message(&e->test, PLAY_MESSAGE_INFO, "Test play: Esc or T: back to the editor");
}

/* The test play's keys: the game's moves, undo and redo, the mouse; Esc, T or q go back. */
static void testing_key(editor *e, int key)
{
    play *p = &e->test;
    if (play_restart_answer(p, key)) return; /* r asks, as it does in the game */
    switch (key == 'T' ? KEY_ACTION_ESCAPE : keys_action(key)) {
    case KEY_ACTION_LEFT:
        play_step(p, DIR_LEFT);
        break;
    case KEY_ACTION_UP:
        play_step(p, DIR_UP);
        break;
    case KEY_ACTION_RIGHT:
        play_step(p, DIR_RIGHT);
        break;
    case KEY_ACTION_DOWN:
        play_step(p, DIR_DOWN);
        break;
    case KEY_ACTION_UNDO:
        play_undo(p);
        break;
    case KEY_ACTION_REDO:
        play_redo(p);
        break;
    case KEY_ACTION_UNDO_PUSH:
        play_undo_push(p);
        break;
    case KEY_ACTION_REDO_PUSH:
        play_redo_push(p);
        break;
    case KEY_ACTION_TO_START:
        play_restart(p);
        break;
    case KEY_ACTION_RESTART:
        play_restart_or_ask(p);
        break;
    case KEY_ACTION_TO_END:
        play_redo_all(p);
        break;
    case KEY_ACTION_DEAD_SQUARES:
        e->test_view.show_dead_squares = !e->test_view.show_dead_squares;
        break;
    case KEY_ACTION_MOUSE: {
        MEVENT events[MOUSE_EVENTS_MOST];
        int count = mouse_take(events);
        for (int i = 0; i < count; i++) {
            if (!(events[i].bstate & (BUTTON1_PRESSED | BUTTON1_CLICKED))) continue;
            int square = draw_square_at(&e->test_view, p, events[i].y, events[i].x);
            if (square >= 0) play_walk_to(p, square);
        }
        break;
    }
    case KEY_ACTION_ESCAPE:
    case KEY_ACTION_QUIT:
        stop_test(e);
        say(e, PLAY_MESSAGE_INFO, "Back in the editor");
        break;
    default:
        play_message(p, PLAY_MESSAGE_INFO, "Test play: moves, u U z x r; Esc or T: editor");
        return;
    }
    if (e->mode == EDITOR_TESTING && game_is_solved(&p->game))
        play_message(p, PLAY_MESSAGE_GOOD,
                     "Solved in %d %s, %d %s: Esc or T goes back to the editor", p->game.moves,
                     play_plural(p->game.moves, "move", "moves"), p->game.pushes,
                     play_plural(p->game.pushes, "push", "pushes"));
}

/* ---- Typing a line ------------------------------------------------------------------ */

static char **field_text(editor *e, editor_field field)
{
    return field == EDITOR_FIELD_TITLE    ? &e->edit.title
           : field == EDITOR_FIELD_AUTHOR ? &e->edit.author
                                          : &e->edit.comment;
}

static const char *field_name(editor_field field)
{
    static const char *names[] = {"Title", "Author", "Comment", "Save into"};
    return names[field];
}

static void start_typing(editor *e, editor_field field)
{
    e->mode = EDITOR_TYPING;
    e->field = field;
    const char *start = field == EDITOR_FIELD_FILE ? (e->file_name ? e->file_name : DEFAULT_FILE)
                                                   : *field_text(e, field);
    snprintf(e->typed, sizeof e->typed, "%s", start);
    typing_start(&e->begun);
    if (field == EDITOR_FIELD_FILE)
        say(e, PLAY_MESSAGE_INFO, "%s", ""); /* the line being typed says it all */
    else
        say(e, PLAY_MESSAGE_INFO, "%s: type, Backspace, Ctrl-U clears; Enter keeps, Esc not",
            field_name(field));
}

bool editor_saves_over(const editor *e, const char *name)
{
    if (e->replace_number <= 0 || !e->file_name) return false;
    char safe[SAFE_FILE_NAME_MAX + 1];
    level_save_file_name(name, safe, sizeof safe);
    return strcmp(safe, e->file_name) == 0;
}

/* Writes the level into the file `name` of the folder: over the level it was opened from or
 * saved as last when that is the file, else added to its end (a new file when none). */
static bool write_level(editor *e, const char *folder, const char *name, const char *text,
                        level_save_result *result, bool *replaced, char *why, size_t size)
{
    char safe[SAFE_FILE_NAME_MAX + 1];
    level_save_file_name(name, safe, sizeof safe);
    *replaced = editor_saves_over(e, name);
    bool ok = *replaced
                  ? level_save_replace(folder, safe, e->replace_number, text, result, why, size)
                  : level_save_append(folder, safe, text, result, why, size);
    if (!ok) return false;
    free(e->file_name);
    e->file_name = strdup(safe);
    e->replace_number = e->file_name ? result->number : 0;
    return true;
}

/* w: saves the level into the file typed. */
static void save(editor *e, const char *name)
{
    if (!playable_for(e, "save")) return;
    char *folder = level_save_folder();
    char *text = level_edit_text(&e->edit);
    level_save_result result;
    bool replaced;
    char why[600];
    if (!folder) {
        say(e, PLAY_MESSAGE_ERROR, "Not saved: neither XDG_DATA_HOME nor HOME is set");
    } else if (!text) {
        say(e, PLAY_MESSAGE_ERROR, "Not saved: out of memory");
    } else if (!write_level(e, folder, name, text, &result, &replaced, why, sizeof why)) {
        say(e, PLAY_MESSAGE_ERROR, "Not saved: %s", why);
    } else {
        e->saved_changes = e->edit.changes;
        free(e->saved_text);
        e->saved_text = text;
        text = NULL;
        /* a draft is now that of the level saved */
        level_draft_key(result.path, result.number, e->draft_key, sizeof e->draft_key);
        e->saved_count++;
        snprintf(e->saved_path, sizeof e->saved_path, "%s", result.path);
        say(e, PLAY_MESSAGE_GOOD, "%s level %d of %s in your levels (L, c: the library)",
            replaced ? "Saved over" : "Saved as", result.number,
            e->file_name ? e->file_name : result.path);
    }
    free(folder);
    free(text);
}

/* Ends typing: keeps the line (Enter) or not (Esc). */
static void end_typing(editor *e, bool keep)
{
    e->mode = EDITOR_DRAWING;
    if (!keep) {
        say(e, PLAY_MESSAGE_INFO, "%s unchanged", field_name(e->field));
        return;
    }
    if (e->field == EDITOR_FIELD_FILE) {
        save(e, e->typed);
        return;
    }
    if (!level_edit_set_text(field_text(e, e->field), e->typed)) {
        say(e, PLAY_MESSAGE_ERROR, "Out of memory");
        return;
    }
    e->edit.changes++; /* the level's text changed: unsaved */
    say(e, PLAY_MESSAGE_INFO, "%s set", field_name(e->field));
}

static void typing_key(editor *e, int key)
{
    size_t length = strlen(e->typed);
    if (key == '\n' || key == '\r' || key == KEY_ENTER) {
        end_typing(e, true);
    } else if (key == ESCAPE) {
        end_typing(e, false);
    } else if (key == KEY_BACKSPACE || key == DELETE || key == CONTROL_H) {
        utf8_drop_last(e->typed, length);
        typing_start(&e->begun); /* and a character begun */
    } else if (key == CONTROL_U) {
        e->typed[0] = '\0';
        typing_start(&e->begun);
    } else if (typing_is_text(key)) {
        char character[5]; /* a character comes whole, or a byte a key */
        bool left_out;
        size_t bytes = typing_take(&e->begun, key, character, &left_out);
        if (left_out) say(e, PLAY_MESSAGE_ERROR, "%s", typing_left_out_message());
        if (bytes > 0 && length + bytes < sizeof e->typed)
            memcpy(e->typed + length, character, bytes + 1);
    }
}

/* ---- Drawing with keys and the mouse ------------------------------------------------ */

static bool unsaved(const editor *e)
{
    return e->edit.changes != e->saved_changes;
}

/* Says what an edit did when it did not do what was asked. */
static void tell(editor *e, edit_result result, const char *done, const char *nothing)
{
    if (result == EDIT_TOO_LARGE)
        say(e, PLAY_MESSAGE_ERROR, "A level is at most %dx%d squares", LEVEL_MAX_SIDE,
            LEVEL_MAX_SIDE);
    else if (done)
        say(e, PLAY_MESSAGE_INFO, "%s", result == EDIT_DONE ? done : nothing);
    else
        e->message[0] = '\0';
}

static void put(editor *e, int square, edit_piece piece)
{
    tell(e, level_edit_put(&e->edit, square % SIDE, square / SIDE, piece), NULL, NULL);
}

/* The canvas square under a screen cell, or -1. */
static int square_at(const editor *e, int row, int column)
{
    const editor_layout *l = &e->layout;
    if (l->cell_width < 1) return -1;
    int y = row - l->top, columns = column - l->left;
    if (y < 0 || y >= l->shown_height || columns < 0) return -1;
    int x = columns / l->cell_width;
    if (x >= l->shown_width) return -1;
    return level_edit_square(l->origin_x + x, l->origin_y + y);
}

/* Paints the brush on the squares of the straight line from the drag's last square to
 * `square` (a mouse reports no cell it was moved over quickly), and on `square`. */
static void paint_to(editor *e, int square)
{
    int x0 = e->drag_last % SIDE, y0 = e->drag_last / SIDE;
    int x1 = square % SIDE, y1 = square / SIDE;
    int dx = abs(x1 - x0), dy = abs(y1 - y0), steps = dx > dy ? dx : dy;
    for (int i = 1; i <= steps; i++) {
        int x = x0 + (x1 - x0) * i / steps, y = y0 + (y1 - y0) * i / steps;
        put(e, level_edit_square(x, y), e->brush);
    }
    e->drag_last = square;
    e->edit.cursor = square;
}

/* Button 1 paints the brush (a drag is one undo step), button 3 erases. */
static void mouse_one(editor *e, MEVENT event)
{
    int square = square_at(e, event.y, event.x);
    if (event.bstate & BUTTON1_RELEASED) {
        if (square >= 0 && e->dragging) paint_to(e, square);
        level_edit_end_group(&e->edit);
        e->dragging = false;
        return;
    }
    if (square < 0) return;
    if (event.bstate & (BUTTON1_PRESSED | BUTTON1_CLICKED)) {
        level_edit_begin_group(&e->edit);
        e->dragging = !(event.bstate & BUTTON1_CLICKED);
        e->edit.cursor = square;
        e->line_start = square % SIDE;
        e->drag_last = square;
        put(e, square, e->brush);
        if (!e->dragging) level_edit_end_group(&e->edit);
    } else if ((event.bstate & REPORT_MOUSE_POSITION) && e->dragging) {
        paint_to(e, square);
    } else if (event.bstate & BUTTON3_PRESSED) {
        e->edit.cursor = square;
        e->line_start = square % SIDE;
        put(e, square, EDIT_ERASE);
    }
}

/* The mouse events that came with KEY_MOUSE, oldest first. */
static void paint_with_mouse(editor *e)
{
    MEVENT events[MOUSE_EVENTS_MOST];
    int count = mouse_take(events);
    for (int i = 0; i < count; i++) mouse_one(e, events[i]);
}

/* Moves the cursor (within the canvas); the column it lands on is where Enter goes back to. */
static void move_cursor(editor *e, int dx, int dy)
{
    int x = e->edit.cursor % SIDE + dx, y = e->edit.cursor / SIDE + dy;
    if (x >= 0 && y >= 0 && x < SIDE && y < SIDE) e->edit.cursor = level_edit_square(x, y);
    e->line_start = e->edit.cursor % SIDE;
}

/* A piece typed goes on the cursor, which moves on to the right, as when typing the level's
 * XSB text; Enter goes to the next row, under where the typing began. */
static void type_piece(editor *e, edit_piece piece)
{
    put(e, e->edit.cursor, piece);
    int x = e->edit.cursor % SIDE, y = e->edit.cursor / SIDE;
    if (piece != EDIT_ERASE && x + 1 < SIDE) e->edit.cursor = level_edit_square(x + 1, y);
}

/* The piece a key puts, or 0. */
static int piece_of(int key)
{
    switch (key) {
    case '#':
    case '.':
    case '$':
    case '*':
    case '@':
    case '+':
    case ' ':
        return key;
    case '-':
    case '_':
        return EDIT_FLOOR;
    case 'x':
    case KEY_DC:
        return EDIT_ERASE;
    default:
        return 0;
    }
}

/* S: asks the solver about the level as drawn. */
static void ask_solver(editor *e)
{
    if (!playable_for(e, "solve")) return;
    if (editor_solve_ask(&e->solve, &e->check.checked.levels[0]))
        say(e, PLAY_MESSAGE_INFO, "Solving: fast mode first, then the fewest pushes; Esc stops");
    else
        say(e, PLAY_MESSAGE_ERROR, "Cannot solve: %s", e->solve.answer);
}

/* q and n ask first when the level has changes not saved. */
static editor_outcome leave_or_renew(editor *e, int key, bool asked)
{
    if (!asked && unsaved(e)) {
        e->mode = EDITOR_CONFIRM;
        e->confirm = key;
        return EDITOR_STAY;
    }
    if (key == 'n') {
        bool utf8 = e->test.utf8;
        if (!editor_open(e, NULL, utf8)) return EDITOR_LEAVE;
        return EDITOR_STAY;
    }
    return EDITOR_LEAVE;
}

/* Keys that change the level as a whole, or look at it. */
static void command_key(editor *e, int key)
{
    switch (key) {
    case 'u':
        tell(e, level_edit_undo(&e->edit), "Undone", "Nothing to undo");
        break;
    case 'U':
    case CONTROL_R:
        tell(e, level_edit_redo(&e->edit), "Redone", "Nothing to redo");
        break;
    case 'R':
        tell(e, level_edit_transform(&e->edit, 1, false), "Turned a quarter clockwise",
             "Nothing changed: the level is the same turned");
        break;
    case 'M':
        tell(e, level_edit_transform(&e->edit, 0, true), "Mirrored left to right",
             "Nothing changed: the level is the same mirrored");
        break;
    case 'N':
        refresh_check(e);
        if (!e->check.playable && e->check.counts.players != 1)
            say(e, PLAY_MESSAGE_ERROR, "Normalise needs one player in closed walls");
        else
            tell(e, level_edit_normalise(&e->edit), "Normalised: what is outside the walls went",
                 "Nothing changed: nothing is outside the walls");
        break;
    case 'D':
        e->show_dead = !e->show_dead;
        say(e, PLAY_MESSAGE_INFO,
            e->show_dead ? "Dead squares shown (D hides)" : "Dead squares hidden");
        break;
    case 'T':
        start_test(e);
        break;
    case 'S':
        ask_solver(e);
        break;
    case 't':
        start_typing(e, EDITOR_FIELD_TITLE);
        break;
    case 'a':
        start_typing(e, EDITOR_FIELD_AUTHOR);
        break;
    case 'c':
        start_typing(e, EDITOR_FIELD_COMMENT);
        break;
    case 'w':
        if (playable_for(e, "save")) start_typing(e, EDITOR_FIELD_FILE);
        break;
    case '?':
    case KEY_F(1): /* as in the game */
        e->show_keys = !e->show_keys;
        break;
    default:
        say(e, PLAY_MESSAGE_INFO, "Not an editor key: ? lists them");
        break;
    }
}

static editor_outcome drawing_key(editor *e, int key)
{
    if (key == KEY_MOUSE) {
        paint_with_mouse(e);
        return EDITOR_STAY;
    }
    if (e->show_keys) { /* any key takes the list of keys away */
        e->show_keys = false;
        return EDITOR_STAY;
    }
    int piece = piece_of(key);
    if (piece) {
        e->brush = (edit_piece)piece;
        type_piece(e, (edit_piece)piece);
        return EDITOR_STAY;
    }
    switch (key) {
    case '\n':
    case '\r':
    case KEY_ENTER:
        if (e->edit.cursor / SIDE + 1 < SIDE)
            e->edit.cursor = level_edit_square(e->line_start, e->edit.cursor / SIDE + 1);
        return EDITOR_STAY;
    case KEY_BACKSPACE:
    case DELETE:
    case CONTROL_H: /* the square left of the cursor, as in text */
        move_cursor(e, -1, 0);
        put(e, e->edit.cursor, EDIT_ERASE);
        return EDITOR_STAY;
    case KEY_LEFT:
    case 'h':
        move_cursor(e, -1, 0);
        return EDITOR_STAY;
    case KEY_RIGHT:
    case 'l':
        move_cursor(e, 1, 0);
        return EDITOR_STAY;
    case KEY_UP:
    case 'k':
        move_cursor(e, 0, -1);
        return EDITOR_STAY;
    case KEY_DOWN:
    case 'j':
        move_cursor(e, 0, 1);
        return EDITOR_STAY;
    case ESCAPE:
        if (e->solve.state == EDITOR_SOLVE_FAST || e->solve.state == EDITOR_SOLVE_UPGRADING) {
            editor_solve_cancel(&e->solve, "stopped");
            say(e, PLAY_MESSAGE_INFO, "Solver stopped");
            return EDITOR_STAY;
        }
        return leave_or_renew(e, 'q', false);
    case 'q':
    case 'n':
        return leave_or_renew(e, key, false);
    default:
        command_key(e, key);
        return EDITOR_STAY;
    }
}

editor_outcome editor_key(editor *e, const view *v, int key)
{
    (void)v;
    if (key == KEY_RESIZE) return EDITOR_STAY;
    editor_outcome outcome = EDITOR_STAY;
    switch (e->mode) {
    case EDITOR_TESTING:
        testing_key(e, key);
        break;
    case EDITOR_TYPING:
        typing_key(e, key);
        break;
    case EDITOR_DRAFT:
        editor_draft_key(e, key);
        break;
    case EDITOR_CONFIRM:
        e->mode = EDITOR_DRAWING;
        if (key == 'y' || key == 'Y')
            outcome = leave_or_renew(e, e->confirm, true);
        else
            say(e, PLAY_MESSAGE_INFO, "Still editing");
        break;
    case EDITOR_DRAWING:
        outcome = drawing_key(e, key);
        break;
    }
    if (e->open) refresh_check(e);
    return outcome;
}

void editor_poll(editor *e, bool woke)
{
    bool busy = e->solve.state == EDITOR_SOLVE_FAST || e->solve.state == EDITOR_SOLVE_UPGRADING;
    editor_solve_poll(&e->solve, woke);
    /* S's message said the solver was at work: now it is done, say so */
    if (busy && e->solve.state == EDITOR_SOLVE_DONE && strncmp(e->message, "Solving:", 8) == 0)
        say(e, PLAY_MESSAGE_INFO, "Solver done: its answer is above");
}

int editor_timeout_ms(const editor *e)
{
    bool busy = e->solve.state == EDITOR_SOLVE_FAST || e->solve.state == EDITOR_SOLVE_UPGRADING;
    return busy ? 100 : -1;
}

int editor_wake_fd(const editor *e)
{
    return editor_solve_wake_fd(&e->solve);
}
