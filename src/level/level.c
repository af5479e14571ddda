/* level.c - reading and writing level collections in the XSB and SOK text formats.
 *
 * The file is cut into classified lines (level_lines.c); each is a map row, a blank line
 * or a text line. A run of map rows is one level's map. Text before a map gives the
 * level's title, author and comment; Title:/Author:/Comment: fields right after a map
 * belong to the level above them (the YASC/JSoko style). Text before the first level
 * that carries SOK marks ("::" banner lines, a Collection: field) is the file's header.
 * "Solution" sections after a level are kept as its imported solutions. Each map is then
 * expanded (run-length counts, '|' row breaks), checked, and its outside floor cleared by
 * a flood fill from the player; a level that fails keeps its place with its reason.
 *
 * Every pass is linear in the file: lines are split once, the searches for a comment's
 * end are cached (a run of one-line "Comment:" fields costs one scan, not one each), and
 * comments grow by doubling. */
#include "level.h"

#include "level_lines.h"
#include "textfile.h"
#include "utf8.h"

#include <assert.h>
#include <ctype.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

enum {
    TAB_WIDTH = 8,
    MAX_ROW_CHARS = 4 * LEVEL_MAX_SIDE, /* expansion stops here: the level is too large anyway */
};

/* ---------------------------------------------------------------- the parser */

typedef struct parser {
    const char *name;
    level_error *error;
    collection *collection;
    int capacity;   /* of collection->levels */
    line_list list; /* the file's lines; solution lines are marked LINE_SOLUTION as read */
    line *lines;    /* list.lines */
    int count;      /* list.count */
    bool out_of_memory;
    /* The comment being written: its level and its length and capacity, so that a line is
     * appended without measuring the comment again. */
    level *comment_owner;
    text_buffer comment;
    /* Caches of the forward searches for the next Comment-End: line (end_at) and the next
     * Comment-End: line or map row (stop_at): the answer from any line in [from, at] is the
     * same, so a run of fields costs one scan. */
    int end_from, end_at;
    int stop_from, stop_at;
} parser;

enum { LINE_SOLUTION = LINE_BANNER + 1 }; /* a line taken into a level's solutions */

static bool out_of_memory(parser *p)
{
    p->out_of_memory = true;
    if (p->error)
        snprintf(p->error->message, sizeof p->error->message, "%s: out of memory", p->name);
    return false;
}

/* Records why level `l` cannot be played (or, with no level, why the file cannot be read)
 * and returns false. A level's reason goes into the level; the collection reads on. */
static bool fail(parser *p, const level *l, int line_number, const char *format, ...)
{
    char reason[256], message[sizeof p->error->message];
    va_list args;
    va_start(args, format);
    vsnprintf(reason, sizeof reason, format, args);
    va_end(args);
    if (l && l->title && l->title[0])
        snprintf(message, sizeof message, "%s: level %d (%s), line %d: %s", p->name, l->number,
                 l->title, line_number, reason);
    else if (l)
        snprintf(message, sizeof message, "%s: level %d, line %d: %s", p->name, l->number,
                 line_number, reason);
    else if (line_number > 0)
        snprintf(message, sizeof message, "%s: line %d: %s", p->name, line_number, reason);
    else
        snprintf(message, sizeof message, "%s: %s", p->name, reason);
    utf8_drop_controls(message); /* a title or a file's name with a tab is one line of text */
    if (!l && p->error) snprintf(p->error->message, sizeof p->error->message, "%s", message);
    if (!l) return false;
    /* the level is the parser's own, the one it is reading */
    level *lv = &p->collection->levels[l->number - 1];
    assert(lv == l);
    if (lv->error) return false; /* the first reason stands */
    lv->error = string_copy(message, strlen(message));
    if (!lv->error) return out_of_memory(p);
    char where[32];
    snprintf(where, sizeof where, "line %d: ", line_number);
    lv->problem = strstr(lv->error, where);
    if (!lv->problem) lv->problem = lv->error;
    return false;
}

/* ---------------------------------------------------------------- metadata */

static bool line_is_blank(const line *l)
{
    return l->kind == LINE_BLANK;
}

static bool set_string(char **field, const char *text, size_t length)
{
    char *copy = string_copy(text, length);
    if (!copy) return false;
    free(*field);
    *field = copy;
    return true;
}

/* Appends a line to the level's comment. The comment's length and capacity are kept in the
 * parser while it writes to one level, so each line costs its own length only; `lv->comment`
 * always points at the live block, whatever fails. */
static bool append_comment(parser *p, level *lv, const char *text, size_t length)
{
    if (p->comment_owner != lv) {
        size_t used = strlen(lv->comment);
        p->comment = (text_buffer){lv->comment, used, used + 1};
        p->comment_owner = lv;
    }
    bool ok = (p->comment.length == 0 || buffer_append(&p->comment, "\n", 1)) &&
              buffer_append(&p->comment, text, length);
    lv->comment = p->comment.data;
    return ok;
}

/* Adds the text `value` of line `l` to the comment. Text that reads as a Comment-End:
 * field ("; Comment-End:", "Comment: Comment-End:") keeps its whole line instead: written
 * back inside a Comment: block, the bare field would end the block. */
static bool append_comment_line(parser *p, level *lv, const line *l, const char *value,
                                size_t length)
{
    line bare = {.text = value, .length = (uint32_t)length, .number = l->number, .kind = LINE_TEXT};
    if (line_is_comment_end(&bare)) return append_comment(p, lv, l->text, l->length);
    return append_comment(p, lv, value, length);
}

/* The first line at or after `from` that is a Comment-End: line, or (with `stop_at_map`) a
 * map row; p->count when none. Cached, see the parser. */
static int next_comment_end(parser *p, int from, bool stop_at_map)
{
    int *cached_from = stop_at_map ? &p->stop_from : &p->end_from;
    int *cached_at = stop_at_map ? &p->stop_at : &p->end_at;
    if (from >= *cached_from && from <= *cached_at) return *cached_at;
    int i = from;
    while (i < p->count && !line_is_comment_end(&p->lines[i]) &&
           !(stop_at_map && p->lines[i].kind == LINE_MAP))
        i++;
    *cached_from = from;
    *cached_at = i;
    return i;
}

/* A bare "Comment:" line opens a block that runs to a Comment-End: line (or to line `to`
 * when none comes). "Comment: text" is a comment of that one line, unless a Comment-End:
 * line follows before the next map row (a lone "Comment: text" must not swallow the levels
 * after it). Returns the index of the Comment-End: line, `to` for a block with no end, or
 * -1 for a one-line comment. */
static int comment_end_line(parser *p, int at, int to)
{
    size_t length;
    bool bare = line_field(&p->lines[at], "Comment", &length) && length == 0;
    int end = next_comment_end(p, at + 1, !bare);
    if (end < to && line_is_comment_end(&p->lines[end])) return end;
    return bare ? to : -1;
}

/* True when lines [from, to) hold a Title: field (outside Comment: blocks). */
static bool has_title_field(parser *p, int from, int to)
{
    size_t length;
    for (int i = from; i < to; i++) {
        if (line_field(&p->lines[i], "Title", &length)) return true;
        if (line_field(&p->lines[i], "Comment", &length)) {
            int end = comment_end_line(p, i, to);
            if (end >= 0) i = end;
        }
    }
    return false;
}

/* True for a line the metadata never shows: a "::" banner line or a solution's. */
static bool line_is_hidden(const line *l)
{
    return l->kind == LINE_BANNER || l->kind == LINE_SOLUTION;
}

/* A string that is not UTF-8 is taken for Latin-1, as older collections were written, and
 * converted. False when out of memory. */
static bool to_utf8(char **text)
{
    size_t length = strlen(*text);
    if (utf8_valid(*text, length)) return true;
    char *converted = utf8_from_latin1(*text, length, &length);
    if (!converted) return false;
    free(*text);
    *text = converted;
    return true;
}

/* Reads text lines [from, to) as the metadata of `lv`. The title is a Title: field, else
 * the text line nearest the map ("; 12" or plain text); every other text line goes to
 * the comment, and so do Comment: ... Comment-End: blocks. Returns false when out of
 * memory. */
static bool read_metadata(parser *p, level *lv, int from, int to)
{
    const line *lines = p->lines;
    bool titled = has_title_field(p, from, to);
    int title_line = -1;
    size_t length;
    for (int i = from; i < to; i++) {
        const line *l = &lines[i];
        if (line_field(l, "Comment", &length)) {
            int end = comment_end_line(p, i, to);
            if (end >= 0) i = end;
            continue;
        }
        if (!line_is_blank(l) && !line_is_hidden(l) && !line_is_field(l)) title_line = i;
    }
    if (titled) title_line = -1;
    for (int i = from; i < to; i++) {
        const line *l = &lines[i];
        const char *value;
        if (line_is_blank(l) || line_is_hidden(l)) continue;
        if ((value = line_field(l, "Title", &length))) {
            if (!set_string(&lv->title, value, length)) return false;
        } else if ((value = line_field(l, "Author", &length))) {
            if (!set_string(&lv->author, value, length)) return false;
        } else if ((value = line_field(l, "Comment", &length))) {
            if (length && !append_comment_line(p, lv, l, value, length)) return false;
            int end = comment_end_line(p, i, to);
            for (int j = i + 1; j < end; j++) {
                /* a run of blank lines is one entry: each of its lines is kept */
                int span = lines[j].kind == LINE_BLANK ? lines_span(&p->list, j) : 1;
                for (int k = 0; k < span; k++)
                    if (!append_comment(p, lv, lines[j].text, lines[j].length)) return false;
            }
            if (end >= 0) i = end;
        } else if (line_is_field(l)) {
            /* other fields (Date:, Collection:) are not kept */
        } else {
            value = l->text[0] == ';' ? line_comment_text(l, &length) : l->text;
            if (l->text[0] != ';') length = l->length;
            /* a title has no leading blanks, as from "; 12" (and as it is written back) */
            while (i == title_line && length > 0 && isspace((unsigned char)value[0])) {
                value++;
                length--;
            }
            if (!(i == title_line ? set_string(&lv->title, value, length)
                                  : append_comment_line(p, lv, l, value, length)))
                return false;
        }
    }
    p->comment_owner = NULL; /* the comment may be replaced by its conversion */
    return to_utf8(&lv->title) && to_utf8(&lv->author) && to_utf8(&lv->comment);
}

/* ---------------------------------------------------------------- maps */

/* A map row after expansion, with the file line it came from. */
typedef struct map_row {
    char *squares;
    int length;
    int line_number;
} map_row;

typedef struct map_rows {
    map_row *rows;
    int count, capacity;
} map_rows;

static void map_rows_free(map_rows *m)
{
    for (int i = 0; i < m->count; i++) free(m->rows[i].squares);
    free(m->rows);
    *m = (map_rows){0};
}

static bool map_rows_add(map_rows *m, const char *squares, int length, int line_number)
{
    if (m->count == m->capacity) {
        int capacity = m->capacity ? m->capacity * 2 : 16;
        map_row *rows = realloc(m->rows, (size_t)capacity * sizeof *rows);
        if (!rows) return false;
        m->rows = rows;
        m->capacity = capacity;
    }
    char *copy = string_copy(squares, (size_t)length);
    if (!copy) return false;
    m->rows[m->count++] = (map_row){copy, length, line_number};
    return true;
}

/* Expands one file line into map rows: run-length counts, '|' breaks, tabs to the next
 * tab stop, '-' and '_' to floor. Fails on an unknown character, a count with nothing
 * after it, a row longer than the largest level, or more rows (with those of the lines
 * above) than it has: the limits are checked as the line is read, so a huge line of
 * "#|" is refused at its 101st row, not after it was expanded whole. */
static bool expand_line(parser *p, const level *lv, const line *l, map_rows *rows)
{
    char row[MAX_ROW_CHARS + 1];
    int length = 0;
    long count = 0;
    bool counting = false;
    for (size_t i = 0; i <= l->length; i++) {
        char c = i < l->length ? l->text[i] : '|';
        if (isdigit((unsigned char)c)) {
            count = count * 10 + (c - '0');
            if (count > MAX_ROW_CHARS) count = MAX_ROW_CHARS + 1;
            counting = true;
            continue;
        }
        if (c == '|') {
            if (counting) return fail(p, lv, l->number, "a count with no square after it");
            /* trailing floor is no part of the map, and neither is a row of nothing else
             * (as "5#|#@$.#|5#|" ends with): the written level would read back different */
            while (length > 0 && row[length - 1] == LEVEL_FLOOR) length--;
            if (length > 0 && !map_rows_add(rows, row, length, l->number)) return out_of_memory(p);
            if (rows->count > LEVEL_MAX_SIDE)
                return fail(p, lv, l->number, "too large: more than %d rows", LEVEL_MAX_SIDE);
            length = 0;
            continue;
        }
        if (c == '\t') {
            c = ' ';
            count = TAB_WIDTH - length % TAB_WIDTH;
            counting = true;
        }
        if (!line_is_map_char(c)) {
            if (isprint((unsigned char)c))
                return fail(p, lv, l->number, "unknown character '%c' in the map", c);
            return fail(p, lv, l->number, "unknown character (byte 0x%02X) in the map",
                        (unsigned char)c);
        }
        if (c == '-' || c == '_') c = LEVEL_FLOOR;
        if (!counting) count = 1;
        if (count == 0) return fail(p, lv, l->number, "a count of zero");
        if (length + count > MAX_ROW_CHARS)
            return fail(p, lv, l->number, "too large: a row longer than %d squares",
                        LEVEL_MAX_SIDE);
        memset(row + length, c, (size_t)count);
        length += (int)count;
        count = 0;
        counting = false;
    }
    return true;
}

/* Flood fill from the player over every square that is not a wall. Marks `inside`.
 * Returns the index of a square where the fill leaves the grid, or -1 when it is closed. */
static int flood_from_player(const level *lv, int player, uint8_t *inside)
{
    int size = lv->width * lv->height;
    int *queue = malloc((size_t)size * sizeof *queue);
    if (!queue) return -2;
    int head = 0, tail = 0, open = -1;
    queue[tail++] = player;
    inside[player] = 1;
    while (head < tail && open < 0) {
        int square = queue[head++];
        int x = square % lv->width, y = square / lv->width;
        if (x == 0 || y == 0 || x == lv->width - 1 || y == lv->height - 1) {
            open = square;
            break;
        }
        const int neighbours[4] = {square - 1, square + 1, square - lv->width, square + lv->width};
        for (int k = 0; k < 4; k++) {
            int n = neighbours[k];
            if (!inside[n] && lv->squares[n] != LEVEL_WALL) {
                inside[n] = 1;
                queue[tail++] = n;
            }
        }
    }
    free(queue);
    return open;
}

static const char *plural(int n, const char *one, const char *many)
{
    return n == 1 ? one : many;
}

/* Builds and checks the level from its rows. */
static bool check_level(parser *p, level *lv, const map_rows *rows)
{
    int width = 0;
    for (int i = 0; i < rows->count; i++)
        if (rows->rows[i].length > width) width = rows->rows[i].length;
    int first_line = rows->rows[0].line_number;
    lv->first_line = first_line;
    if (width > LEVEL_MAX_SIDE || rows->count > LEVEL_MAX_SIDE)
        return fail(p, lv, first_line, "too large: %dx%d squares, at most %dx%d", width,
                    rows->count, LEVEL_MAX_SIDE, LEVEL_MAX_SIDE);
    lv->width = width;
    lv->height = rows->count;
    lv->squares = malloc((size_t)width * (size_t)rows->count);
    if (!lv->squares) return out_of_memory(p);
    memset(lv->squares, LEVEL_FLOOR, (size_t)width * (size_t)rows->count);

    int players = 0, boxes = 0, goals = 0, player = -1, second_player_line = 0;
    for (int y = 0; y < rows->count; y++) {
        const map_row *r = &rows->rows[y];
        memcpy(lv->squares + y * width, r->squares, (size_t)r->length);
        for (int x = 0; x < r->length; x++) {
            char c = r->squares[x];
            if (c == LEVEL_PLAYER || c == LEVEL_PLAYER_ON_GOAL) {
                if (++players == 1)
                    player = y * width + x;
                else if (players == 2)
                    second_player_line = r->line_number;
            }
            if (c == LEVEL_BOX || c == LEVEL_BOX_ON_GOAL) boxes++;
            if (c == LEVEL_GOAL || c == LEVEL_BOX_ON_GOAL || c == LEVEL_PLAYER_ON_GOAL) goals++;
        }
    }
    if (players == 0) return fail(p, lv, first_line, "no player");
    if (players > 1)
        return fail(p, lv, second_player_line, "%s players (one only, '@' or '+')",
                    players == 2 ? "two" : "more than two");
    if (boxes == 0) return fail(p, lv, first_line, "no boxes");
    if (boxes != goals)
        return fail(p, lv, first_line, "%d %s but %d %s", boxes, plural(boxes, "box", "boxes"),
                    goals, plural(goals, "goal", "goals"));

    int size = width * rows->count;
    uint8_t *inside = calloc((size_t)size, 1);
    if (!inside) return out_of_memory(p);
    int open = flood_from_player(lv, player, inside);
    if (open == -2) {
        free(inside);
        return out_of_memory(p);
    }
    if (open >= 0) {
        int y = open / width;
        free(inside);
        return fail(p, lv, rows->rows[y].line_number,
                    "open wall at row %d: the player can walk off the board", y + 1);
    }
    /* Outside the walls: floor is cleared; a lone box or goal there can never be used. */
    for (int s = 0; s < size; s++) {
        if (inside[s]) continue;
        char c = lv->squares[s];
        int y = s / width;
        if (c == LEVEL_BOX || c == LEVEL_GOAL) {
            free(inside);
            return fail(p, lv, rows->rows[y].line_number,
                        "%s at row %d, column %d is walled off from the player",
                        c == LEVEL_BOX ? "box" : "goal", y + 1, s % width + 1);
        }
        if (c != LEVEL_WALL && c != LEVEL_BOX_ON_GOAL) lv->squares[s] = LEVEL_FLOOR;
    }
    int boxes_in_play = 0;
    for (int s = 0; s < size; s++)
        boxes_in_play +=
            inside[s] && (lv->squares[s] == LEVEL_BOX || lv->squares[s] == LEVEL_BOX_ON_GOAL);
    free(inside);
    if (boxes_in_play == 0)
        return fail(p, lv, first_line, "no boxes (only decoration outside the walls)");
    return true;
}

/* Builds the level from its rows; a level that fails the checks keeps no squares, only its
 * rows as drawn (for the editor). */
static bool build_level(parser *p, level *lv, const map_rows *rows)
{
    if (check_level(p, lv, rows)) return true;
    if (lv->squares && !p->out_of_memory) {
        lv->drawn = lv->squares;
        lv->drawn_width = lv->width;
        lv->drawn_height = lv->height;
    } else {
        free(lv->squares);
    }
    lv->squares = NULL;
    lv->width = lv->height = 0;
    return false;
}

/* Adds the title's text to the comment. A title that reads as a Comment-End: field goes
 * in as a "; " line, so that it cannot end the Comment: block the writer puts the comment
 * in. */
static bool append_title_to_comment(parser *p, level *lv)
{
    line bare = {.text = lv->title, .length = (uint32_t)strlen(lv->title), .kind = LINE_TEXT};
    if (!line_is_comment_end(&bare)) return append_comment(p, lv, lv->title, strlen(lv->title));
    size_t length = strlen(lv->title) + 2;
    char *text = malloc(length + 1);
    if (!text) return false;
    snprintf(text, length + 1, "; %s", lv->title);
    bool ok = append_comment(p, lv, text, length);
    free(text);
    return ok;
}

/* ---------------------------------------------------------------- solutions */

/* Takes the solution sections among lines [from, to) into `lv`'s solutions and marks their
 * lines, so that no level shows them: a line that opens one ("Solution (moves 12, pushes
 * 3)", "Save") followed by lines of moves, and the fields (Date:, ...) right after those.
 * Returns false when out of memory. */
static bool take_solutions(parser *p, level *lv, int from, int to)
{
    for (int i = from; i + 1 < to; i++) {
        line *opener = &p->lines[i];
        if (!line_opens_solution(opener)) continue;
        if (!line_is_moves(&p->lines[i + 1])) { /* no solution, and never drawn */
            int end = line_bad_solution_end(p->lines, i, to, p->count);
            for (int j = i; j < end; j++) p->lines[j].kind = LINE_SOLUTION;
            i = end > i ? end - 1 : i;
            continue;
        }
        int end = i + 1;
        size_t moves_length = 0;
        while (end < to && line_is_moves(&p->lines[end])) moves_length += p->lines[end++].length;
        text_buffer moves = {0};
        bool ok = buffer_reserve(&moves, moves_length);
        for (int j = i + 1; ok && j < end; j++)
            ok = buffer_append(&moves, p->lines[j].text, p->lines[j].length);
        char *title = ok ? string_copy(opener->text, opener->length) : NULL;
        level_solution *grown =
            title ? realloc(lv->solutions, (size_t)(lv->solution_count + 1) * sizeof *grown) : NULL;
        if (!grown) {
            free(moves.data);
            free(title);
            return false;
        }
        lv->solutions = grown;
        lv->solutions[lv->solution_count++] = (level_solution){title, moves.data};
        /* its notes: Program:, Origin:, Date: ... */
        while (end < to && line_is_key_value(&p->lines[end]) &&
               !line_opens_solution(&p->lines[end]) &&
               !line_field(&p->lines[end], "Title", &(size_t){0}))
            end++;
        for (int j = i; j < end; j++) p->lines[j].kind = LINE_SOLUTION;
        i = end - 1;
    }
    return true;
}

/* ---------------------------------------------------------------- collections */

/* Adds a level at the end of the collection; the array grows by doubling. Returns NULL
 * when out of memory. The pointer holds until the next call. */
static level *new_level(parser *p)
{
    collection *c = p->collection;
    if (c->count == p->capacity) {
        int capacity = p->capacity ? p->capacity * 2 : 16;
        level *grown = realloc(c->levels, (size_t)capacity * sizeof *grown);
        if (!grown) return NULL;
        c->levels = grown;
        p->capacity = capacity;
    }
    p->comment_owner = NULL; /* the array may have moved */
    level *lv = &c->levels[c->count];
    *lv = (level){.number = c->count + 1};
    lv->title = string_copy("", 0);
    lv->author = string_copy("", 0);
    lv->comment = string_copy("", 0);
    c->count++; /* counted at once so that collection_free frees it on failure */
    if (!lv->title || !lv->author || !lv->comment) return NULL;
    return lv;
}

static void level_free(level *lv)
{
    free(lv->squares);
    free(lv->drawn);
    free(lv->title);
    free(lv->author);
    free(lv->comment);
    free(lv->error);
    free(lv->file);
    for (int i = 0; i < lv->solution_count; i++) {
        free(lv->solutions[i].title);
        free(lv->solutions[i].moves);
    }
    free(lv->solutions);
}

void collection_free(collection *c)
{
    if (!c) return;
    for (int i = 0; i < c->count; i++) level_free(&c->levels[i]);
    free(c->levels);
    free(c->path);
    free(c->name);
    free(c->author);
    free(c->comment);
    *c = (collection){0};
}

const level *collection_first_bad(const collection *c)
{
    for (int i = 0; i < c->count; i++)
        if (c->levels[i].error) return &c->levels[i];
    return NULL;
}

/* The end of the run of fields (Title:, Author:, Comment: blocks) that follows a map at
 * line `from`: those lines belong to the level above them. */
static int trailing_fields_end(parser *p, int from)
{
    const line *lines = p->lines;
    int i = from, count = p->count;
    size_t length;
    while (i < count) {
        const line *l = &lines[i];
        if (line_is_blank(l)) {
            /* a blank line ends the fields unless more fields follow it directly */
            int j = i + 1;
            if (j < count && i > from && line_is_field(&lines[j]) &&
                !line_field(&lines[j], "Title", &length))
                i = j;
            else
                return i;
            continue;
        }
        if (!line_is_field(l)) return i;
        if (line_field(l, "Comment", &length)) {
            int end = comment_end_line(p, i, count);
            if (end == count) return count;
            if (end >= 0) i = end;
        }
        i++;
    }
    return i;
}

/* The end of the file's header among lines [0, first_map); 0 when there is no SOK mark in
 * it (a "::" banner line or a Collection: field), as in a plain XSB file, whose first text
 * belongs to level 1. With a mark, the header is everything but the last paragraph above
 * the map (level 1's title), or everything when level 1 is named by a Title: field below
 * its map; a mark in that last paragraph takes it into the header up to its last field. */
static int header_end(parser *p, int first_map)
{
    size_t length;
    int last_mark = -1, last_paragraph = 0;
    for (int i = 0; i < first_map; i++) {
        if (p->lines[i].kind == LINE_BANNER || line_field(&p->lines[i], "Collection", &length))
            last_mark = i;
        if (i > 0 && line_is_blank(&p->lines[i - 1]) && !line_is_blank(&p->lines[i]))
            last_paragraph = i;
    }
    if (last_mark < 0) return 0;
    if (last_mark >= last_paragraph) {
        /* the mark is in the paragraph above the map: text lines after its fields are
         * level 1's */
        int end = last_mark + 1;
        while (end < first_map &&
               (line_is_field(&p->lines[end]) || p->lines[end].kind == LINE_BANNER))
            end++;
        return end;
    }
    int map_end = first_map;
    while (map_end < p->count &&
           (p->lines[map_end].kind == LINE_MAP || p->lines[map_end].kind == LINE_BAD_MAP))
        map_end++;
    if (has_title_field(p, map_end, trailing_fields_end(p, map_end))) return first_map;
    return last_paragraph;
}

/* Reads the header, lines [0, end), into the collection: Collection: (or Title:) names it,
 * Author: is its author and the default of its levels, the rest its comment. */
static bool read_header(parser *p, int end)
{
    collection *c = p->collection;
    level header = {
        .title = string_copy("", 0), .author = string_copy("", 0), .comment = string_copy("", 0)};
    bool ok = header.title && header.author && header.comment && read_metadata(p, &header, 0, end);
    p->comment_owner = NULL;
    size_t length;
    const char *name = NULL;
    for (int i = 0; i < end && !name; i++) name = line_field(&p->lines[i], "Collection", &length);
    if (ok && name && length > 0)
        ok = set_string(&c->name, name, length);
    else if (ok && header.title[0])
        ok = set_string(&c->name, header.title, strlen(header.title));
    if (ok) {
        free(c->author);
        free(c->comment);
        c->author = header.author;
        c->comment = header.comment;
        header.author = header.comment = NULL;
    }
    level_free(&header);
    return ok;
}

/* Reads the map that starts at line *at (rows up to a blank or text line) into a new level,
 * with the text lines [text_start, *at) above it and the fields below it. A level that
 * cannot be played keeps its reason. Moves *at past what was read; false when out of
 * memory. */
static bool read_level(parser *p, int text_start, int *at)
{
    int i = *at, map_start = i;
    level *lv = new_level(p);
    if (!lv || !read_metadata(p, lv, text_start, i)) return out_of_memory(p);
    map_rows rows = {0};
    bool good = true;
    while (i < p->count && (p->lines[i].kind == LINE_MAP || p->lines[i].kind == LINE_BAD_MAP)) {
        const line *l = &p->lines[i];
        if (good) good = expand_line(p, lv, l, &rows);
        if (good && l->kind == LINE_BAD_MAP) good = fail(p, lv, l->number, "not a map row");
        if (p->out_of_memory) break;
        i++;
    }
    if (!lv->first_line) lv->first_line = p->lines[map_start].number;
    if (good && !p->out_of_memory) build_level(p, lv, &rows);
    map_rows_free(&rows);
    if (p->out_of_memory) return false;
    int end = trailing_fields_end(p, i);
    /* The text line above the map was taken for the title; when a Title: field below the
     * map names the level, that line is comment instead. */
    if (lv->title[0] && has_title_field(p, i, end) && !has_title_field(p, text_start, map_start) &&
        !append_title_to_comment(p, lv))
        return out_of_memory(p);
    if (end > i && !read_metadata(p, lv, i, end)) return out_of_memory(p);
    if (!lv->author[0] && p->collection->author && p->collection->author[0] &&
        !set_string(&lv->author, p->collection->author, strlen(p->collection->author)))
        return out_of_memory(p);
    if (lv->error) p->collection->bad_count++;
    *at = end;
    return true;
}

bool collection_parse(const char *text, size_t length, const char *name, collection *out,
                      level_error *error)
{
    parser p = {.name = name, .error = error, .collection = out};
    *out = (collection){0};
    if (error) error->message[0] = '\0';
    out->path = string_copy(name, strlen(name));
    out->name = name_from_path(name);
    out->author = string_copy("", 0);
    out->comment = string_copy("", 0);
    bool ok = out->path && out->name && out->author && out->comment;
    if (!ok)
        out_of_memory(&p);
    else if (length == 0)
        ok = fail(&p, NULL, 0, "empty file");
    else if (length > LEVEL_MAX_FILE_BYTES)
        ok = fail(&p, NULL, 0, "too large a file (more than %zu MiB)", LEVEL_MAX_FILE_BYTES >> 20);
    else if (!text_is_text(text, length))
        ok = fail(&p, NULL, 0, "not a text file");
    if (ok && !lines_split(text, length, &p.list)) ok = out_of_memory(&p);
    p.lines = p.list.lines;
    p.count = p.list.count;
    p.end_from = p.stop_from = p.count + 1; /* empty caches */

    int text_start = 0; /* first line of the text that comes before the next map */
    int i = 0;
    while (ok && i < p.count && p.lines[i].kind != LINE_MAP && p.lines[i].kind != LINE_BAD_MAP) i++;
    if (ok && i < p.count) {
        text_start = header_end(&p, i);
        if (text_start > 0) ok = read_header(&p, text_start) || out_of_memory(&p);
    }
    while (ok && i < p.count) {
        line_kind kind = p.lines[i].kind;
        if (kind != LINE_MAP && kind != LINE_BAD_MAP) {
            i++;
            continue;
        }
        /* what lies between the level above and this map may hold the level above's
         * solutions */
        if (out->count > 0 && !take_solutions(&p, &out->levels[out->count - 1], text_start, i))
            ok = out_of_memory(&p);
        if (ok) ok = read_level(&p, text_start, &i);
        text_start = i;
    }
    if (ok && out->count > 0 &&
        !take_solutions(&p, &out->levels[out->count - 1], text_start, p.count))
        ok = out_of_memory(&p);
    lines_free(&p.list);
    if (ok && out->count == 0) ok = fail(&p, NULL, 0, "no level found");
    if (!ok) collection_free(out);
    return ok;
}

bool collection_load(const char *path, collection *out, level_error *error)
{
    parser p = {.name = path, .error = error, .collection = out};
    *out = (collection){0};
    char *text, reason[200];
    size_t length;
    if (!textfile_read(path, LEVEL_MAX_FILE_BYTES, &text, &length, reason, sizeof reason))
        return fail(&p, NULL, 0, "%s", reason);
    bool ok = collection_parse(text, length, path, out, error);
    free(text);
    return ok;
}
