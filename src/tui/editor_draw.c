/* editor_draw.c - drawing the level editor (editor.h): the level's text on top, the canvas
 * round the cursor, the status line, what is wrong with the level and what the solver says,
 * the message or the question asked; the test play is the play screen's drawing (draw.h). */
#include <curses.h>
#include <stdio.h>
#include <string.h>

#include "level/utf8.h"
#include "editor.h"
#include "wrap.h"

enum { SIDE = EDIT_CANVAS_SIDE, MARGIN = 2 };

/* Rows under the board: the status line, then the verdict and the message, two rows each
 * (they wrap). */
static int rows_below(void)
{
    return 5;
}

/* The first square shown along one axis: `origin` moved as little as possible to keep
 * `focus` `margin` squares from either edge of the `shown` squares, within the canvas. */
static int follow(int origin, int focus, int shown)
{
    int margin = shown > 4 * MARGIN ? MARGIN : (shown - 1) / 2;
    if (focus - origin < margin) origin = focus - margin;
    if (focus - origin > shown - 1 - margin) origin = focus - (shown - 1 - margin);
    if (origin > SIDE - shown) origin = SIDE - shown;
    if (origin < 0) origin = 0;
    return origin;
}

/* `origin` moved as little as possible to show the squares from `first` to `last` and
 * `focus` along one axis, when they fit in `shown`; else unchanged. */
static int show_span(int origin, int first, int last, int focus, int shown)
{
    if (focus < first) first = focus;
    if (focus > last) last = focus;
    if (last - first + 1 > shown) return origin;
    if (first < origin) origin = first;
    if (last > origin + shown - 1) origin = last - shown + 1;
    return origin;
}

/* Decides the cell width (two columns a square in UTF-8 when the level and a margin fit so)
 * and which canvas squares are shown: the level centred when it first shows, then following
 * the cursor. */
static void lay_out(editor *e, const view *v)
{
    editor_layout *l = &e->layout;
    int rows = LINES - 1 - rows_below();
    edit_bounds b = level_edit_bounds(&e->edit);
    int cell = v->utf8 && (b.width + 2 * MARGIN) * 2 <= COLS && b.height + 2 <= rows ? 2 : 1;
    bool fresh = l->cell_width != cell || l->shown_height != (rows < SIDE ? rows : SIDE) ||
                 l->shown_width != (COLS / cell < SIDE ? COLS / cell : SIDE);
    l->cell_width = cell;
    l->shown_width = COLS / cell < SIDE ? COLS / cell : SIDE;
    l->shown_height = rows < SIDE ? rows : SIDE;
    l->top = 1;
    l->left = (COLS - l->shown_width * cell) / 2;
    int cursor_x = e->edit.cursor % SIDE, cursor_y = e->edit.cursor / SIDE;
    if (fresh) { /* the level centred; on an empty canvas, the cursor up and left of centre */
        int centre_x = b.width ? b.x + b.width / 2 : cursor_x + l->shown_width / 6;
        int centre_y = b.height ? b.y + b.height / 2 : cursor_y + l->shown_height / 4;
        l->origin_x = centre_x - l->shown_width / 2;
        l->origin_y = centre_y - l->shown_height / 2;
    }
    l->origin_x = follow(l->origin_x, cursor_x, l->shown_width);
    l->origin_y = follow(l->origin_y, cursor_y, l->shown_height);
    /* the whole level and the cursor when they fit, moved as little as possible */
    if (b.width > 0) {
        l->origin_x = show_span(l->origin_x, b.x, b.x + b.width - 1, cursor_x, l->shown_width);
        l->origin_y = show_span(l->origin_y, b.y, b.y + b.height - 1, cursor_y, l->shown_height);
    }
}

/* The canvas round the cursor: the level's squares, its outside floor blank, the cursor in
 * reverse, boxes on dead squares marked and, with D, the dead squares. */
static void draw_canvas(const editor *e, const view *v)
{
    const editor_layout *l = &e->layout;
    const editor_check *c = &e->check;
    edit_bounds b = level_edit_bounds(&e->edit);
    for (int y = 0; y < l->shown_height; y++)
        for (int x = 0; x < l->shown_width; x++) {
            int cx = l->origin_x + x, cy = l->origin_y + y, square = level_edit_square(cx, cy);
            char piece = e->edit.canvas[square];
            int marks = square == e->edit.cursor ? DRAW_MARK_CURSOR : 0;
            int bx = cx - b.x, by = cy - b.y;
            if (c->dead_ready && bx >= 0 && by >= 0 && bx < b.width && by < b.height) {
                int s = by * b.width + bx;
                bool dead = board_is_inside(&c->board, s) && deadlock_square_is_dead(&c->dead, s);
                if (dead && (piece == LEVEL_BOX)) marks |= DRAW_MARK_DEADLOCK;
                if (dead && e->show_dead) marks |= DRAW_MARK_DEAD_SQUARE;
            }
            if (piece == LEVEL_FLOOR && !marks) continue;
            draw_level_square(v, l->top + y, l->left + x * l->cell_width, l->cell_width, piece,
                              marks);
        }
}

/* The top line: the title, author and comment, the one being typed in reverse. */
static void draw_fields(const editor *e, const view *v)
{
    char line[1600];
    const char *values[3] = {e->edit.title, e->edit.author, e->edit.comment};
    const char *names[3] = {"Title", "Author", "Comment"};
    size_t at = 0;
    bool typing_field = e->mode == EDITOR_TYPING && e->field != EDITOR_FIELD_FILE;
    for (int i = 0; i < 3; i++) {
        bool typing = e->mode == EDITOR_TYPING && (int)e->field == i;
        const char *value = typing ? e->typed : values[i];
        /* while a field is typed, that field alone (the others could push it out of view) */
        if ((!value[0] && !typing) || (typing_field && !typing)) continue;
        at += (size_t)snprintf(line + at, sizeof line - at, "%s%s: %s%s", at ? "  " : "", names[i],
                               value, typing ? "_" : "");
        if (at >= sizeof line) at = sizeof line - 1;
    }
    if (at == 0) snprintf(line, sizeof line, "(no title: t title, a author, c comment)");
    for (char *n = line; *n; n++)
        if (*n == '\n') *n = '|'; /* the comment's lines, on one row */
    attrset(typing_field ? A_BOLD : A_DIM);
    move(0, 0);
    int width = utf8_width(line);
    if (typing_field && width > COLS && COLS > 4) {
        /* the end typed stays in view: the start of the text gives way, marked */
        const char *tail = line;
        while (*tail && utf8_width(tail) > COLS - (v->utf8 ? 1 : 3)) {
            unsigned code;
            tail += utf8_decode(tail, &code);
        }
        addstr(v->utf8 ? "\xe2\x80\xa6" : "...");
        draw_text(v, 0, v->utf8 ? 1 : 3, tail, strlen(tail), COLS - (v->utf8 ? 1 : 3));
    } else {
        draw_text_fit(v, 0, 0, line, COLS);
    }
    attrset(A_NORMAL);
}

static const char *brush_name(edit_piece brush)
{
    switch (brush) {
    case EDIT_WALL:
        return "wall";
    case EDIT_GOAL:
        return "goal";
    case EDIT_BOX:
        return "box";
    case EDIT_BOX_ON_GOAL:
        return "box on goal";
    case EDIT_PLAYER:
        return "player";
    case EDIT_PLAYER_ON_GOAL:
        return "player on goal";
    case EDIT_ERASE:
        return "erase";
    default:
        return "floor";
    }
}

/* The status line: what is edited and its size on the left, the counts and the brush on the
 * right (shortened on a narrow terminal). */
static void draw_status(const editor *e, const view *v, int row)
{
    edit_bounds b = level_edit_bounds(&e->edit);
    const edit_counts *n = &e->check.counts;
    char left[200], right[120];
    snprintf(left, sizeof left, " edit%s %dx%d%s%s", e->edit.changes != e->saved_changes ? "*" : "",
             b.width, b.height, e->edit.title[0] ? " " : "", e->edit.title);
    /* the counts in words as long as they fit half the line (40 columns: "boxes 1 goals 1",
     * the mouse's piece left out), else as boxes/goals */
    snprintf(right, sizeof right, " boxes %d goals %d  mouse: %s ", n->boxes, n->goals,
             brush_name(e->brush));
    if (utf8_width(right) > COLS / 2)
        snprintf(right, sizeof right, " boxes %d goals %d ", n->boxes, n->goals);
    if (utf8_width(right) > COLS / 2) snprintf(right, sizeof right, " %d/%d ", n->boxes, n->goals);
    attrset(A_REVERSE);
    move(row, 0);
    hline(' ', COLS);
    int right_width = utf8_width(right);
    if (COLS - right_width > 0) draw_text_fit(v, row, 0, left, COLS - right_width);
    if (right_width <= COLS) mvaddstr(row, COLS - right_width, right);
    attrset(A_NORMAL);
}

/* What the checker, the dead squares and the solver say of the level. */
static void verdict(const editor *e, char *out, size_t size, bool *good)
{
    const editor_check *c = &e->check;
    *good = c->playable && c->dead_boxes == 0;
    if (!c->playable) {
        snprintf(out, size, "Cannot be played: %s", c->problem);
        return;
    }
    size_t at = (size_t)snprintf(out, size, "Can be played");
    if (c->dead_boxes > 0)
        at += (size_t)snprintf(out + at, size - at, "; %d %s on a dead square (lost)",
                               c->dead_boxes, c->dead_boxes == 1 ? "box" : "boxes");
    char activity[120];
    editor_solve_activity(&e->solve, activity, sizeof activity);
    if (at < size && (e->solve.answer[0] || activity[0]))
        snprintf(out + at, size - at, "; %s%s%s", e->solve.answer,
                 e->solve.answer[0] && activity[0] ? "; " : "", activity);
}

/* The question asked, the line being typed for the file, or the message. */
static void draw_message(const editor *e, const view *v, int row, int rows)
{
    char text[700];
    int attr = A_NORMAL;
    if (e->mode == EDITOR_CONFIRM) {
        snprintf(text, sizeof text, "%s without saving? (y/n)",
                 e->confirm == 'n' ? "New level" : "Leave");
        attr = A_BOLD;
    } else if (e->mode == EDITOR_TYPING && e->field == EDITOR_FIELD_FILE) {
        /* the file the name typed saves into: the level's own (it goes over its level
         * there), or another (it is added) */
        if (editor_saves_over(e, e->typed))
            snprintf(text, sizeof text,
                     "Save into: %s_  (Enter: over its level %d; another name adds it)", e->typed,
                     e->replace_number);
        else if (e->replace_number > 0)
            snprintf(text, sizeof text, "Save into: %s_  (Enter adds it there; Esc not)", e->typed);
        else
            snprintf(text, sizeof text, "Save into: %s_  (Enter saves, Esc not)", e->typed);
        if (e->message[0]) /* what was left out of the name */
            snprintf(text + strlen(text), sizeof text - strlen(text), "  %s", e->message);
        attr = A_BOLD;
    } else {
        snprintf(text, sizeof text, "%s", e->message);
        if (e->message_kind == PLAY_MESSAGE_ERROR) attr = draw_attr(v, DRAW_PAIR_ERROR, 0) | A_BOLD;
        if (e->message_kind == PLAY_MESSAGE_GOOD) attr = draw_attr(v, DRAW_PAIR_GOOD, 0) | A_BOLD;
    }
    attrset(attr);
    draw_wrapped(v, row, text, rows);
    attrset(A_NORMAL);
}

/* ? : the editor's keys, over the whole screen (40 columns wide); on a terminal too short
 * for them, in two columns when it is wide enough, else as many as fit and the footer says
 * the rest are left out. */
static void draw_keys(const view *v)
{
    static const char *lines[] = {
        "arrows hjkl  cursor; Enter: next row",
        "# . $ @ -    wall goal box you floor",
        "* + space    box/you on a goal; floor",
        "x Del Bksp   erase the top piece",
        "mouse        paint (drag); right: erase",
        "u  U         undo, redo (Ctrl-R)",
        "R  M  N      rotate, mirror, normalise",
        "T  S  D      test, solver, dead squares",
        "t  a  c      title, author, comment",
        "w            save into your levels",
        "n  q  Esc    new level; leave",
    };
    int count = (int)(sizeof lines / sizeof lines[0]);
    int columns = count > LINES - 1 && COLS >= 2 * 40 + 2 ? 2 : 1;
    int rows = (count + columns - 1) / columns; /* of each column */
    int top = LINES > rows + 1 ? (LINES - rows - 1) / 2 : 0;
    int left = COLS > 40 * columns + 2 ? (COLS - 40 * columns - 2 * (columns - 1)) / 2 : 0;
    int shown = 0;
    for (int i = 0; i < count; i++) {
        int row = top + i % rows, column = left + (i / rows) * 42;
        if (row >= LINES - 1) continue;
        draw_text(v, row, column, lines[i], strlen(lines[i]), COLS - column);
        shown++;
    }
    attrset(A_REVERSE);
    move(LINES - 1, 0);
    hline(' ', COLS);
    draw_text_fit(v, LINES - 1, 0,
                  shown < count ? " any key: back (12 rows show every key)"
                                : " any key: back to the level",
                  COLS);
    attrset(A_NORMAL);
}

void editor_draw(editor *e, view *v)
{
    erase();
    if (e->mode == EDITOR_TESTING) {
        e->test_view.utf8 = v->utf8;
        e->test_view.colors = v->colors;
        e->test_view.screen = VIEW_SCREEN_PLAY;
        draw_screen(&e->test_view, &e->test, &e->test_assist);
        return;
    }
    if (LINES < 2 + rows_below() || COLS < 10) {
        draw_wrapped(v, 0, "Terminal too small for the editor: q leaves", LINES);
        return;
    }
    if (e->show_keys) {
        draw_keys(v);
        return;
    }
    lay_out(e, v);
    draw_fields(e, v);
    draw_canvas(e, v);
    int row = LINES - rows_below();
    draw_status(e, v, row);
    char text[600];
    bool good;
    verdict(e, text, sizeof text, &good);
    int verdict_rows = 2;
    attrset(draw_attr(v, good ? DRAW_PAIR_GOOD : DRAW_PAIR_ERROR, good ? 0 : A_BOLD));
    draw_wrapped(v, row + 1, text, verdict_rows);
    attrset(A_NORMAL);
    draw_message(e, v, row + 1 + verdict_rows, LINES - (row + 1 + verdict_rows));
}
