/* level_edit.c - a level being drawn in the editor (see level_edit.h). */
#include "level_edit.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "level_lines.h"

enum { SIDE = EDIT_CANVAS_SIDE, CANVAS_SIZE = EDIT_CANVAS_SIDE * EDIT_CANVAS_SIDE };

static char *copy_text(const char *text)
{
    return strdup(text ? text : "");
}

bool level_edit_init(level_edit *edit)
{
    memset(edit, 0, sizeof *edit);
    edit->canvas = malloc(CANVAS_SIZE);
    edit->title = copy_text("");
    edit->author = copy_text("");
    edit->comment = copy_text("");
    if (!edit->canvas || !edit->title || !edit->author || !edit->comment) {
        level_edit_free(edit);
        return false;
    }
    memset(edit->canvas, LEVEL_FLOOR, CANVAS_SIZE);
    edit->cursor = level_edit_square(SIDE / 2, SIDE / 2);
    return true;
}

bool level_edit_init_from(level_edit *edit, const level *from)
{
    if (!level_edit_init(edit)) return false;
    if (!level_edit_set_text(&edit->title, from->title) ||
        !level_edit_set_text(&edit->author, from->author) ||
        !level_edit_set_text(&edit->comment, from->comment)) {
        level_edit_free(edit);
        return false;
    }
    /* a level that cannot be played opens as it was drawn, to be mended */
    const char *squares = from->squares ? from->squares : from->drawn;
    int width = from->squares ? from->width : from->drawn_width;
    int height = from->squares ? from->height : from->drawn_height;
    if (!squares) return true;
    int left = (SIDE - width) / 2, top = (SIDE - height) / 2;
    int first = -1, player = -1;
    for (int y = 0; y < height; y++)
        for (int x = 0; x < width; x++) {
            char c = squares[y * width + x];
            int square = level_edit_square(left + x, top + y);
            edit->canvas[square] = c;
            if (c != LEVEL_FLOOR && first < 0) first = square;
            if (c == LEVEL_PLAYER || c == LEVEL_PLAYER_ON_GOAL) player = square;
        }
    edit->cursor = player >= 0 ? player : first >= 0 ? first : edit->cursor;
    return true;
}

void level_edit_free(level_edit *edit)
{
    for (int i = 0; i < edit->count; i++) free(edit->steps[i].changes);
    free(edit->steps);
    free(edit->canvas);
    free(edit->title);
    free(edit->author);
    free(edit->comment);
    memset(edit, 0, sizeof *edit);
}

bool level_edit_set_text(char **field, const char *text)
{
    char *copy = copy_text(text);
    if (!copy) return false;
    free(*field);
    *field = copy;
    return true;
}

edit_bounds level_edit_bounds(const level_edit *edit)
{
    int left = SIDE, right = -1, top = SIDE, bottom = -1;
    for (int y = 0; y < SIDE; y++) {
        const char *row = edit->canvas + y * SIDE;
        for (int x = 0; x < SIDE; x++) {
            if (row[x] == LEVEL_FLOOR) continue;
            if (x < left) left = x;
            if (x > right) right = x;
            if (y < top) top = y;
            bottom = y;
        }
    }
    if (right < 0) return (edit_bounds){0};
    return (edit_bounds){left, top, right - left + 1, bottom - top + 1};
}

/* ---- Undo steps --------------------------------------------------------------------- */

/* Opens a new step (dropping the redoable ones); NULL when out of memory. */
static edit_step *open_step(level_edit *edit)
{
    for (int i = edit->done; i < edit->count; i++) free(edit->steps[i].changes);
    edit->count = edit->done;
    if (edit->count == edit->capacity) {
        int capacity = edit->capacity ? 2 * edit->capacity : 32;
        edit_step *steps = realloc(edit->steps, (size_t)capacity * sizeof *steps);
        if (!steps) return NULL;
        edit->steps = steps;
        edit->capacity = capacity;
    }
    edit_step *step = &edit->steps[edit->count++];
    *step = (edit_step){.cursor_before = edit->cursor, .cursor_after = edit->cursor};
    edit->done = edit->count;
    return step;
}

/* The step new changes go into: the drag's open one, or a new one. */
static edit_step *current_step(level_edit *edit)
{
    if (edit->grouping && edit->group_started) return &edit->steps[edit->done - 1];
    edit_step *step = open_step(edit);
    edit->group_started = edit->grouping && step;
    return step;
}

/* Drops an empty step just opened (an edit that changed nothing). */
static void close_step(level_edit *edit, edit_step *step)
{
    if (step->count > 0) return;
    free(step->changes);
    edit->count = --edit->done;
    edit->group_started = false;
}

/* Sets a square and records it in `step`. False when out of memory (nothing changed). */
static bool record(level_edit *edit, edit_step *step, int square, char after)
{
    char before = edit->canvas[square];
    if (before == after) return true;
    if (step->count == step->capacity) {
        int capacity = step->capacity ? 2 * step->capacity : 8;
        edit_change *changes = realloc(step->changes, (size_t)capacity * sizeof *changes);
        if (!changes) return false;
        step->changes = changes;
        step->capacity = capacity;
    }
    step->changes[step->count++] = (edit_change){square, before, after};
    edit->canvas[square] = after;
    edit->changes++;
    return true;
}

void level_edit_begin_group(level_edit *edit)
{
    edit->grouping = true;
    edit->group_started = false;
}

void level_edit_end_group(level_edit *edit)
{
    edit->grouping = false;
    edit->group_started = false;
}

edit_result level_edit_undo(level_edit *edit)
{
    level_edit_end_group(edit);
    if (edit->done == 0) return EDIT_UNCHANGED;
    edit_step *step = &edit->steps[--edit->done];
    for (int i = step->count - 1; i >= 0; i--)
        edit->canvas[step->changes[i].square] = step->changes[i].before;
    edit->cursor = step->cursor_before;
    edit->changes++;
    return EDIT_DONE;
}

edit_result level_edit_redo(level_edit *edit)
{
    level_edit_end_group(edit);
    if (edit->done == edit->count) return EDIT_UNCHANGED;
    edit_step *step = &edit->steps[edit->done++];
    for (int i = 0; i < step->count; i++)
        edit->canvas[step->changes[i].square] = step->changes[i].after;
    edit->cursor = step->cursor_after;
    edit->changes++;
    return EDIT_DONE;
}

/* ---- Pieces ------------------------------------------------------------------------- */

static bool has_goal(char c)
{
    return c == LEVEL_GOAL || c == LEVEL_BOX_ON_GOAL || c == LEVEL_PLAYER_ON_GOAL;
}

/* What `piece` makes of a square that holds `c`. */
static char stacked(char c, edit_piece piece)
{
    bool goal = has_goal(c);
    switch (piece) {
    case EDIT_BOX:
        return goal ? LEVEL_BOX_ON_GOAL : LEVEL_BOX;
    case EDIT_PLAYER:
        return goal ? LEVEL_PLAYER_ON_GOAL : LEVEL_PLAYER;
    case EDIT_GOAL:
        return c == LEVEL_BOX      ? LEVEL_BOX_ON_GOAL
               : c == LEVEL_PLAYER ? LEVEL_PLAYER_ON_GOAL
               : goal              ? c
                                   : LEVEL_GOAL;
    case EDIT_ERASE:
        if (c == LEVEL_BOX_ON_GOAL || c == LEVEL_PLAYER_ON_GOAL) return LEVEL_GOAL;
        return LEVEL_FLOOR;
    default:
        return (char)piece;
    }
}

/* True when the level with square `square` drawn on stays within LEVEL_MAX_SIDE a side. */
static bool fits(const level_edit *edit, int x, int y)
{
    edit_bounds b = level_edit_bounds(edit);
    if (b.width == 0) return true;
    int left = x < b.x ? x : b.x, right = x > b.x + b.width - 1 ? x : b.x + b.width - 1;
    int top = y < b.y ? y : b.y, bottom = y > b.y + b.height - 1 ? y : b.y + b.height - 1;
    return right - left + 1 <= LEVEL_MAX_SIDE && bottom - top + 1 <= LEVEL_MAX_SIDE;
}

edit_result level_edit_put(level_edit *edit, int x, int y, edit_piece piece)
{
    if (x < 0 || y < 0 || x >= SIDE || y >= SIDE) return EDIT_TOO_LARGE;
    int square = level_edit_square(x, y);
    char after = stacked(edit->canvas[square], piece);
    if (after == edit->canvas[square]) return EDIT_UNCHANGED;
    if (after != LEVEL_FLOOR && !fits(edit, x, y)) return EDIT_TOO_LARGE;
    edit_step *step = current_step(edit);
    if (!step) return EDIT_UNCHANGED;
    bool player = after == LEVEL_PLAYER || after == LEVEL_PLAYER_ON_GOAL;
    /* one player: the one standing elsewhere steps off (his goal stays) */
    for (int s = 0; player && s < CANVAS_SIZE; s++) {
        char c = edit->canvas[s];
        if (s != square && (c == LEVEL_PLAYER || c == LEVEL_PLAYER_ON_GOAL))
            record(edit, step, s, c == LEVEL_PLAYER ? LEVEL_FLOOR : LEVEL_GOAL);
    }
    record(edit, step, square, after);
    step->cursor_after = edit->cursor;
    close_step(edit, step);
    return EDIT_DONE;
}

/* ---- Transforms --------------------------------------------------------------------- */

/* Replaces the level's squares by `squares` (width x height) at (left, top), in one step. */
static edit_result replace_level(level_edit *edit, edit_bounds old, const char *squares, int left,
                                 int top, int width, int height, int cursor)
{
    edit_step *step = open_step(edit);
    if (!step) return EDIT_UNCHANGED;
    bool ok = true;
    for (int y = old.y; y < old.y + old.height; y++)
        for (int x = old.x; x < old.x + old.width; x++)
            ok = ok && record(edit, step, level_edit_square(x, y), LEVEL_FLOOR);
    for (int y = 0; y < height; y++)
        for (int x = 0; x < width; x++)
            ok = ok &&
                 record(edit, step, level_edit_square(left + x, top + y), squares[y * width + x]);
    if (!ok) { /* out of memory: take back what was done */
        for (int i = step->count - 1; i >= 0; i--)
            edit->canvas[step->changes[i].square] = step->changes[i].before;
        step->count = 0;
    }
    edit->cursor = cursor;
    step->cursor_after = cursor;
    close_step(edit, step);
    return ok && step->count > 0 ? EDIT_DONE : EDIT_UNCHANGED;
}

edit_result level_edit_transform(level_edit *edit, int quarters, bool mirror)
{
    level_edit_end_group(edit);
    edit_bounds b = level_edit_bounds(edit);
    if (b.width == 0) return EDIT_UNCHANGED;
    quarters = ((quarters % 4) + 4) % 4;
    bool turned = quarters % 2 == 1;
    int width = turned ? b.height : b.width, height = turned ? b.width : b.height;
    char *squares = malloc((size_t)width * (size_t)height);
    if (!squares) return EDIT_UNCHANGED;
    int cursor_x = edit->cursor % SIDE - b.x, cursor_y = edit->cursor / SIDE - b.y;
    int cursor = edit->cursor;
    for (int y = 0; y < b.height; y++)
        for (int x = 0; x < b.width; x++) {
            int tx = x, ty = y, w = b.width, h = b.height;
            for (int q = 0; q < quarters; q++) { /* clockwise: (x, y) -> (h - 1 - y, x) */
                int nx = h - 1 - ty;
                ty = tx;
                tx = nx;
                int t = w;
                w = h;
                h = t;
            }
            if (mirror) tx = w - 1 - tx;
            squares[ty * width + tx] = level_edit_at(edit, b.x + x, b.y + y);
            if (x == cursor_x && y == cursor_y) cursor = level_edit_square(b.x + tx, b.y + ty);
        }
    /* a level the same so (a symmetric one) stays as it is: no change, no undo step */
    bool same = width == b.width && height == b.height;
    for (int i = 0; same && i < width * height; i++)
        same = squares[i] == level_edit_at(edit, b.x + i % width, b.y + i / width);
    edit_result result =
        same ? EDIT_UNCHANGED : replace_level(edit, b, squares, b.x, b.y, width, height, cursor);
    free(squares);
    return result;
}

/* Marks in `inside` the squares the player reaches, boxes ignored. False when the fill
 * leaves the level's rectangle (an open wall) or there is no single player. */
static bool flood_inside(const level_edit *edit, edit_bounds b, uint8_t *inside)
{
    int player = -1, players = 0;
    for (int y = b.y; y < b.y + b.height; y++)
        for (int x = b.x; x < b.x + b.width; x++) {
            char c = level_edit_at(edit, x, y);
            if (c == LEVEL_PLAYER || c == LEVEL_PLAYER_ON_GOAL) {
                player = level_edit_square(x, y);
                players++;
            }
        }
    if (players != 1) return false;
    int *queue = malloc((size_t)b.width * (size_t)b.height * sizeof *queue);
    if (!queue) return false;
    int head = 0, tail = 0;
    bool closed = true;
    queue[tail++] = player;
    inside[player] = 1;
    while (head < tail && closed) {
        int square = queue[head++], x = square % SIDE, y = square / SIDE;
        if (x <= b.x || y <= b.y || x >= b.x + b.width - 1 || y >= b.y + b.height - 1) {
            closed = false;
            break;
        }
        const int next[4] = {square - 1, square + 1, square - SIDE, square + SIDE};
        for (int k = 0; k < 4; k++)
            if (!inside[next[k]] && edit->canvas[next[k]] != LEVEL_WALL) {
                inside[next[k]] = 1;
                queue[tail++] = next[k];
            }
    }
    free(queue);
    return closed;
}

/* True when a square next to (x, y), diagonals included, is inside. */
static bool touches_inside(const uint8_t *inside, int x, int y)
{
    for (int dy = -1; dy <= 1; dy++)
        for (int dx = -1; dx <= 1; dx++) {
            int nx = x + dx, ny = y + dy;
            if (nx >= 0 && ny >= 0 && nx < SIDE && ny < SIDE && inside[level_edit_square(nx, ny)])
                return true;
        }
    return false;
}

edit_result level_edit_normalise(level_edit *edit)
{
    level_edit_end_group(edit);
    edit_bounds b = level_edit_bounds(edit);
    if (b.width == 0) return EDIT_UNCHANGED;
    uint8_t *inside = calloc(CANVAS_SIZE, 1);
    if (!inside) return EDIT_UNCHANGED;
    if (!flood_inside(edit, b, inside)) {
        free(inside);
        return EDIT_UNCHANGED;
    }
    edit_step *step = open_step(edit);
    bool ok = step != NULL;
    for (int y = b.y; ok && y < b.y + b.height; y++)
        for (int x = b.x; ok && x < b.x + b.width; x++) {
            int square = level_edit_square(x, y);
            char c = edit->canvas[square];
            bool keep = inside[square] || (c == LEVEL_WALL && touches_inside(inside, x, y));
            if (!keep) ok = record(edit, step, square, LEVEL_FLOOR);
        }
    free(inside);
    if (!step) return EDIT_UNCHANGED;
    if (!ok) { /* out of memory: take back what was done */
        for (int i = step->count - 1; i >= 0; i--)
            edit->canvas[step->changes[i].square] = step->changes[i].before;
        step->count = 0;
    }
    close_step(edit, step);
    return ok && step->count > 0 ? EDIT_DONE : EDIT_UNCHANGED;
}

/* ---- What is drawn ------------------------------------------------------------------ */

edit_counts level_edit_count(const level_edit *edit)
{
    edit_counts n = {0};
    for (int s = 0; s < CANVAS_SIZE; s++) {
        char c = edit->canvas[s];
        n.players += c == LEVEL_PLAYER || c == LEVEL_PLAYER_ON_GOAL;
        n.boxes += c == LEVEL_BOX || c == LEVEL_BOX_ON_GOAL;
        n.goals += has_goal(c);
        n.walls += c == LEVEL_WALL;
    }
    return n;
}

/* The map rows as XSB text (level_to_text(), which keeps a row without walls in the map).
 * NULL when nothing is drawn or out of memory. */
static char *map_text(const level_edit *edit)
{
    edit_bounds b = level_edit_bounds(edit);
    if (b.width == 0) return NULL;
    char *squares = malloc((size_t)b.width * (size_t)b.height);
    if (!squares) return NULL;
    for (int y = 0; y < b.height; y++)
        memcpy(squares + y * b.width, edit->canvas + level_edit_square(b.x, b.y + y),
               (size_t)b.width);
    level map = {.width = b.width,
                 .height = b.height,
                 .squares = squares,
                 .title = "",
                 .author = "",
                 .comment = ""};
    char *text = level_to_text(&map);
    free(squares);
    return text;
}

bool level_edit_check(const level_edit *edit, const char *name, collection *out, char *problem,
                      size_t size)
{
    memset(out, 0, sizeof *out);
    char *text = map_text(edit);
    if (!text) {
        snprintf(problem, size, "%s",
                 level_edit_bounds(edit).width == 0 ? "nothing drawn yet" : "out of memory");
        return false;
    }
    level_error error;
    bool read = collection_parse(text, strlen(text), name, out, &error);
    free(text);
    if (!read || out->count != 1) {
        snprintf(problem, size, "%s", read ? "the map is not one level" : error.message);
        if (read) collection_free(out);
        memset(out, 0, sizeof *out);
        return false;
    }
    level *lv = &out->levels[0];
    if (!level_edit_set_text(&lv->title, edit->title) ||
        !level_edit_set_text(&lv->author, edit->author) ||
        !level_edit_set_text(&lv->comment, edit->comment)) {
        snprintf(problem, size, "out of memory");
        collection_free(out);
        memset(out, 0, sizeof *out);
        return false;
    }
    if (!lv->error) return true;
    /* the checker's "line L: WHY": the line is the row, which WHY names where it matters */
    const char *why = lv->problem ? lv->problem : lv->error;
    const char *colon = strncmp(why, "line ", 5) == 0 ? strstr(why, ": ") : NULL;
    snprintf(problem, size, "%s", colon ? colon + 2 : why);
    collection_free(out);
    memset(out, 0, sizeof *out);
    return false;
}

/* Appends "Key: value\n" when the value is set. */
static bool append_field(text_buffer *b, const char *key, const char *value)
{
    if (!value[0]) return true;
    return buffer_append_string(b, key) && buffer_append_string(b, value) &&
           buffer_append_string(b, "\n");
}

char *level_edit_text(const level_edit *edit)
{
    char *map = map_text(edit);
    if (!map) return NULL;
    text_buffer b = {0};
    bool ok = buffer_append_string(&b, map) && append_field(&b, "Title: ", edit->title) &&
              append_field(&b, "Author: ", edit->author);
    free(map);
    if (ok && edit->comment[0])
        ok = buffer_append_string(&b, "Comment:\n") && buffer_append_string(&b, edit->comment) &&
             buffer_append_string(&b, "\nComment-End:\n");
    ok = ok && buffer_append_string(&b, "\n");
    if (!ok) {
        free(b.data);
        return NULL;
    }
    return b.data;
}
