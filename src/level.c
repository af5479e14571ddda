/* level.c - reading and writing level collections in the XSB text format.
 *
 * The file is cut into lines; each line is a map row, a blank line or a text line. A run
 * of map rows is one level's map. Text before a map gives the level's title, author and
 * comment; Title:/Author:/Comment: fields right after a map belong to the level above
 * them (the YASC/JSoko style). Each map is then expanded (run-length counts, '|' row
 * breaks), checked, and its outside floor cleared by a flood fill from the player. */
#include "level.h"

#include "textfile.h"

#include <ctype.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum {
    MAX_FILE_BYTES = 64 << 20, /* larger files are refused, not read */
    TAB_WIDTH = 8,
    MAX_ROW_CHARS = 4 * LEVEL_MAX_SIDE, /* expansion stops here: the level is too large anyway */
};

/* ---------------------------------------------------------------- growing buffers */

typedef struct text_buffer {
    char *data;
    size_t length, capacity;
} text_buffer;

static bool buffer_reserve(text_buffer *b, size_t extra)
{
    if (b->length + extra + 1 <= b->capacity) return true;
    size_t capacity = b->capacity ? b->capacity : 64;
    while (capacity < b->length + extra + 1) capacity *= 2;
    char *data = realloc(b->data, capacity);
    if (!data) return false;
    b->data = data;
    b->capacity = capacity;
    return true;
}

static bool buffer_append(text_buffer *b, const char *text, size_t length)
{
    if (!buffer_reserve(b, length)) return false;
    memcpy(b->data + b->length, text, length);
    b->length += length;
    b->data[b->length] = '\0';
    return true;
}

static bool buffer_append_string(text_buffer *b, const char *text)
{
    return buffer_append(b, text, strlen(text));
}

static char *string_copy(const char *text, size_t length)
{
    char *copy = malloc(length + 1);
    if (!copy) return NULL;
    memcpy(copy, text, length);
    copy[length] = '\0';
    return copy;
}

/* ---------------------------------------------------------------- lines */

typedef struct line {
    const char *text; /* not NUL-terminated; trailing white space and CR removed */
    size_t length;
    int number; /* 1-based */
} line;

static bool is_map_char(char c)
{
    return c == '#' || c == ' ' || c == '-' || c == '_' || c == '.' || c == '$' || c == '*' ||
           c == '@' || c == '+';
}

/* True when the line has nothing but white space. */
static bool line_is_blank(const line *l)
{
    for (size_t i = 0; i < l->length; i++)
        if (!isspace((unsigned char)l->text[i])) return false;
    return true;
}

/* True when every character could belong to a map row (digits as run-length counts, '|'
 * as a row break) and there is a wall: a real row of a closed level always has one. */
static bool line_is_map_row(const line *l)
{
    bool wall = false;
    for (size_t i = 0; i < l->length; i++) {
        char c = l->text[i];
        if (c == '#') wall = true;
        if (!is_map_char(c) && !isdigit((unsigned char)c) && c != '|' && c != '\t') return false;
    }
    return wall;
}

/* True when a line that is not a valid map row still looks like one with a bad character
 * in it (it starts like a row and is mostly made of map characters), so that it gets an
 * "unknown character" error instead of being taken for text. */
static bool line_looks_like_map_row(const line *l)
{
    size_t i = 0;
    while (i < l->length && (l->text[i] == ' ' || l->text[i] == '\t')) i++;
    if (i == l->length || l->text[i] != '#') return false;
    size_t good = 0, total = 0;
    for (; i < l->length; i++) {
        char c = l->text[i];
        if (c == ' ') continue;
        total++;
        if (is_map_char(c) || isdigit((unsigned char)c) || c == '|') good++;
    }
    return good * 4 >= total * 3;
}

/* Splits the text into lines, dropping a byte-order mark, CR of CRLF ends and trailing
 * white space. Returns the number of lines, or -1 when out of memory. */
static int split_lines(const char *text, size_t length, line **out)
{
    if (length >= 3 && memcmp(text, "\xEF\xBB\xBF", 3) == 0) {
        text += 3;
        length -= 3;
    }
    int count = 0, capacity = 64;
    line *lines = malloc((size_t)capacity * sizeof *lines);
    if (!lines) return -1;
    size_t start = 0;
    while (start < length) {
        size_t end = start;
        while (end < length && text[end] != '\n' && text[end] != '\r') end++;
        size_t stripped = end;
        while (stripped > start && isspace((unsigned char)text[stripped - 1])) stripped--;
        if (count == capacity) {
            capacity *= 2;
            line *grown = realloc(lines, (size_t)capacity * sizeof *lines);
            if (!grown) {
                free(lines);
                return -1;
            }
            lines = grown;
        }
        lines[count] = (line){text + start, stripped - start, count + 1};
        count++;
        if (end < length && text[end] == '\r' && end + 1 < length && text[end + 1] == '\n') end++;
        start = end + 1;
    }
    *out = lines;
    return count;
}

/* ---------------------------------------------------------------- errors */

typedef struct parser {
    const char *name;
    level_error *error;
    collection *collection;
} parser;

static bool fail(parser *p, const level *l, int line_number, const char *format, ...)
{
    char reason[256];
    va_list args;
    va_start(args, format);
    vsnprintf(reason, sizeof reason, format, args);
    va_end(args);
    if (!p->error) return false;
    if (l && l->title && l->title[0])
        snprintf(p->error->message, sizeof p->error->message, "%s: level %d (%s), line %d: %s",
                 p->name, l->number, l->title, line_number, reason);
    else if (l)
        snprintf(p->error->message, sizeof p->error->message, "%s: level %d, line %d: %s", p->name,
                 l->number, line_number, reason);
    else if (line_number > 0)
        snprintf(p->error->message, sizeof p->error->message, "%s: line %d: %s", p->name,
                 line_number, reason);
    else
        snprintf(p->error->message, sizeof p->error->message, "%s: %s", p->name, reason);
    return false;
}

static bool out_of_memory(parser *p)
{
    return fail(p, NULL, 0, "out of memory");
}

/* ---------------------------------------------------------------- metadata */

/* If the line is "Key: value" for the given key (any case), returns the value's start
 * and sets *length; else NULL. */
static const char *field_value(const line *l, const char *key, size_t *length)
{
    size_t k = strlen(key);
    if (l->length < k + 1 || strncasecmp(l->text, key, k) != 0 || l->text[k] != ':') return NULL;
    size_t i = k + 1;
    while (i < l->length && isspace((unsigned char)l->text[i])) i++;
    *length = l->length - i;
    return l->text + i;
}

static bool line_is_field(const line *l)
{
    static const char *const keys[] = {"Title",       "Author", "Comment",    "Comment-End",
                                       "Comment_End", "Date",   "Collection", "Level"};
    size_t length;
    for (size_t i = 0; i < sizeof keys / sizeof keys[0]; i++)
        if (field_value(l, keys[i], &length)) return true;
    return false;
}

static bool set_string(char **field, const char *text, size_t length)
{
    char *copy = string_copy(text, length);
    if (!copy) return false;
    free(*field);
    *field = copy;
    return true;
}

static bool append_comment(level *lv, const char *text, size_t length)
{
    text_buffer b = {lv->comment, strlen(lv->comment), strlen(lv->comment) + 1};
    if (b.length && !buffer_append(&b, "\n", 1)) return false;
    if (!buffer_append(&b, text, length)) return false;
    lv->comment = b.data;
    return true;
}

/* The text of a ';' comment line without the ';' and the blanks after it. */
static const char *comment_text(const line *l, size_t *length)
{
    size_t i = 1;
    while (i < l->length && isspace((unsigned char)l->text[i])) i++;
    *length = l->length - i;
    return l->text + i;
}

static bool line_is_comment_end(const line *l)
{
    size_t length;
    return field_value(l, "Comment-End", &length) || field_value(l, "Comment_End", &length);
}

/* Adds the text `value` of line `l` to the comment. Text that reads as a Comment-End:
 * field ("; Comment-End:", "Comment: Comment-End:") keeps its whole line instead: written
 * back inside a Comment: block, the bare field would end the block. */
static bool append_comment_line(level *lv, const line *l, const char *value, size_t length)
{
    line bare = {value, length, l->number};
    if (line_is_comment_end(&bare)) return append_comment(lv, l->text, l->length);
    return append_comment(lv, value, length);
}

/* A bare "Comment:" line opens a block that runs to a Comment-End: line (or to line `to`
 * when none comes). "Comment: text" is a comment of that one line, unless a Comment-End:
 * line follows before the next map row (a lone "Comment: text" must not swallow the levels
 * after it). Returns the index of the Comment-End: line, `to` for a block with no end, or
 * -1 for a one-line comment. */
static int comment_end_line(const line *lines, int at, int to)
{
    size_t length;
    bool bare = field_value(&lines[at], "Comment", &length) && length == 0;
    for (int i = at + 1; i < to; i++) {
        if (line_is_comment_end(&lines[i])) return i;
        if (!bare && line_is_map_row(&lines[i])) return -1;
    }
    return bare ? to : -1;
}

/* True when lines [from, to) hold a Title: field (outside Comment: blocks). */
static bool has_title_field(const line *lines, int from, int to)
{
    size_t length;
    for (int i = from; i < to; i++) {
        if (field_value(&lines[i], "Title", &length)) return true;
        if (field_value(&lines[i], "Comment", &length)) {
            int end = comment_end_line(lines, i, to);
            if (end >= 0) i = end;
        }
    }
    return false;
}

/* Reads text lines [from, to) as the metadata of `lv`. The title is a Title: field, else
 * the text line nearest the map ("; 12" or plain text); every other text line goes to
 * the comment, and so do Comment: ... Comment-End: blocks. */
static bool read_metadata(level *lv, const line *lines, int from, int to)
{
    bool titled = has_title_field(lines, from, to);
    int title_line = -1;
    size_t length;
    for (int i = from; i < to; i++) {
        const line *l = &lines[i];
        if (field_value(l, "Comment", &length)) {
            int end = comment_end_line(lines, i, to);
            if (end >= 0) i = end;
            continue;
        }
        if (!line_is_blank(l) && !line_is_field(l)) title_line = i;
    }
    if (titled) title_line = -1;
    for (int i = from; i < to; i++) {
        const line *l = &lines[i];
        const char *value;
        if (line_is_blank(l)) continue;
        if ((value = field_value(l, "Title", &length))) {
            if (!set_string(&lv->title, value, length)) return false;
        } else if ((value = field_value(l, "Author", &length))) {
            if (!set_string(&lv->author, value, length)) return false;
        } else if ((value = field_value(l, "Comment", &length))) {
            if (length && !append_comment_line(lv, l, value, length)) return false;
            int end = comment_end_line(lines, i, to);
            for (int j = i + 1; j < end; j++)
                if (!append_comment(lv, lines[j].text, lines[j].length)) return false;
            if (end >= 0) i = end;
        } else if (line_is_field(l)) {
            /* other fields (Date:, Collection:) are not kept */
        } else {
            value = l->text[0] == ';' ? comment_text(l, &length) : l->text;
            if (l->text[0] != ';') length = l->length;
            /* a title has no leading blanks, as from "; 12" (and as it is written back) */
            while (i == title_line && length > 0 && isspace((unsigned char)value[0])) {
                value++;
                length--;
            }
            if (!(i == title_line ? set_string(&lv->title, value, length)
                                  : append_comment_line(lv, l, value, length)))
                return false;
        }
    }
    return true;
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
 * after it, or a row longer than the largest level. */
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
            length = 0;
            continue;
        }
        if (c == '\t') {
            c = ' ';
            count = TAB_WIDTH - length % TAB_WIDTH;
            counting = true;
        }
        if (!is_map_char(c)) {
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
static bool build_level(parser *p, level *lv, const map_rows *rows)
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

/* Adds the title's text to the comment. A title that reads as a
 * Comment-End: field goes in as a "; " line, so that it cannot end the Comment: block the
 * writer puts the comment in. */
static bool append_title_to_comment(level *lv)
{
    line bare = {lv->title, strlen(lv->title), 0};
    if (!line_is_comment_end(&bare)) return append_comment(lv, lv->title, strlen(lv->title));
    size_t length = strlen(lv->title) + 2;
    char *text = malloc(length + 1);
    if (!text) return false;
    snprintf(text, length + 1, "; %s", lv->title);
    bool ok = append_comment(lv, text, length);
    free(text);
    return ok;
}

/* ---------------------------------------------------------------- collections */

static level *new_level(parser *p)
{
    collection *c = p->collection;
    level *grown = realloc(c->levels, (size_t)(c->count + 1) * sizeof *grown);
    if (!grown) return NULL;
    c->levels = grown;
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
    free(lv->title);
    free(lv->author);
    free(lv->comment);
}

void collection_free(collection *c)
{
    if (!c) return;
    for (int i = 0; i < c->count; i++) level_free(&c->levels[i]);
    free(c->levels);
    free(c->path);
    free(c->name);
    *c = (collection){0};
}

/* True when the bytes are text: no NUL and no control characters other than tab, line
 * ends and form feed. UTF-8 in titles and comments is fine. */
static bool is_text(const char *text, size_t length)
{
    for (size_t i = 0; i < length; i++) {
        unsigned char c = (unsigned char)text[i];
        if (c < 0x20 && c != '\t' && c != '\n' && c != '\r' && c != '\f') return false;
        if (c == 0x7F) return false;
    }
    return true;
}

static char *name_from_path(const char *path)
{
    const char *base = strrchr(path, '/');
    base = base ? base + 1 : path;
    const char *dot = strrchr(base, '.');
    size_t length = dot && dot != base ? (size_t)(dot - base) : strlen(base);
    return string_copy(base, length);
}

/* The end of the run of fields (Title:, Author:, Comment: blocks) that follows a map at
 * line `from`: those lines belong to the level above them. */
static int trailing_fields_end(const line *lines, int from, int count)
{
    int i = from;
    size_t length;
    while (i < count) {
        const line *l = &lines[i];
        if (line_is_blank(l)) {
            /* a blank line ends the fields unless more fields follow it directly */
            int j = i;
            while (j < count && line_is_blank(&lines[j])) j++;
            if (j < count && i > from && line_is_field(&lines[j]) &&
                !field_value(&lines[j], "Title", &length))
                i = j;
            else
                return i;
            continue;
        }
        if (!line_is_field(l)) return i;
        if (field_value(l, "Comment", &length)) {
            int end = comment_end_line(lines, i, count);
            if (end == count) return count;
            if (end >= 0) i = end;
        }
        i++;
    }
    return i;
}

bool collection_parse(const char *text, size_t length, const char *name, collection *out,
                      level_error *error)
{
    parser p = {.name = name, .error = error, .collection = out};
    *out = (collection){0};
    if (error) error->message[0] = '\0';
    out->path = string_copy(name, strlen(name));
    out->name = name_from_path(name);
    if (!out->path || !out->name) {
        collection_free(out);
        return out_of_memory(&p);
    }
    if (length == 0) {
        collection_free(out);
        return fail(&p, NULL, 0, "empty file");
    }
    if (!is_text(text, length)) {
        collection_free(out);
        return fail(&p, NULL, 0, "not a text file");
    }
    line *lines;
    int count = split_lines(text, length, &lines);
    if (count < 0) {
        collection_free(out);
        return out_of_memory(&p);
    }

    bool ok = true;
    int text_start = 0; /* first line of the text that comes before the next map */
    int i = 0;
    while (ok && i < count) {
        bool map_line = line_is_map_row(&lines[i]);
        if (!map_line && line_looks_like_map_row(&lines[i])) {
            /* a damaged row: report it against the level it belongs to */
            level *lv = new_level(&p);
            if (!lv) {
                ok = out_of_memory(&p);
                break;
            }
            ok = read_metadata(lv, lines, text_start, i) || out_of_memory(&p);
            if (ok) {
                map_rows rows = {0};
                ok = expand_line(&p, lv, &lines[i], &rows);
                map_rows_free(&rows);
                if (ok) ok = fail(&p, lv, lines[i].number, "not a map row");
            }
            break;
        }
        if (!map_line) {
            i++;
            continue;
        }
        level *lv = new_level(&p);
        if (!lv) {
            ok = out_of_memory(&p);
            break;
        }
        int map_start = i;
        if (!read_metadata(lv, lines, text_start, i)) {
            ok = out_of_memory(&p);
            break;
        }
        map_rows rows = {0};
        while (ok && i < count && !line_is_blank(&lines[i])) {
            if (line_is_map_row(&lines[i]) || line_looks_like_map_row(&lines[i]))
                ok = expand_line(&p, lv, &lines[i], &rows);
            else
                break;
            if (rows.count > LEVEL_MAX_SIDE) {
                ok = fail(&p, lv, lines[i].number, "too large: more than %d rows", LEVEL_MAX_SIDE);
            }
            i++;
        }
        if (ok) ok = build_level(&p, lv, &rows);
        map_rows_free(&rows);
        if (!ok) break;
        int end = trailing_fields_end(lines, i, count);
        /* The text line above the map was taken for the title; when a Title: field below
         * the map names the level, that line is comment instead. */
        if (lv->title[0] && has_title_field(lines, i, end) &&
            !has_title_field(lines, text_start, map_start) && !append_title_to_comment(lv))
            ok = out_of_memory(&p);
        if (ok && end > i && !read_metadata(lv, lines, i, end)) ok = out_of_memory(&p);
        i = end;
        text_start = i;
    }
    free(lines);
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
    if (!textfile_read(path, MAX_FILE_BYTES, &text, &length, reason, sizeof reason))
        return fail(&p, NULL, 0, "%s", reason);
    bool ok = collection_parse(text, length, path, out, error);
    free(text);
    return ok;
}

/* ---------------------------------------------------------------- writing */

/* Writes the map rows, without trailing floor. A row with no wall in it (only decoration
 * outside the walls, like a lone '*') would not read back as a map row on a line of its
 * own, so it is joined to the row above with '|' (the first rows to the row below). */
static bool append_map(text_buffer *b, const level *lv)
{
    bool wall_written = false;
    for (int y = 0; y < lv->height; y++) {
        const char *row = lv->squares + y * lv->width;
        int length = lv->width;
        while (length > 0 && row[length - 1] == LEVEL_FLOOR) length--;
        bool has_wall = memchr(row, LEVEL_WALL, (size_t)length) != NULL;
        if (y > 0 && !buffer_append(b, has_wall && wall_written ? "\n" : "|", 1)) return false;
        if (!buffer_append(b, row, (size_t)length)) return false;
        wall_written |= has_wall;
    }
    return buffer_append(b, "\n", 1);
}

char *level_to_text(const level *lv)
{
    text_buffer b = {0};
    if (!buffer_reserve(&b, 0)) return NULL;
    b.data[0] = '\0';
    bool ok = true;
    if (ok && lv->title[0]) {
        ok = buffer_append_string(&b, "; ") && buffer_append_string(&b, lv->title) &&
             buffer_append_string(&b, "\n\n");
    }
    ok = ok && append_map(&b, lv);
    if (ok && lv->author[0])
        ok = buffer_append_string(&b, "Author: ") && buffer_append_string(&b, lv->author) &&
             buffer_append_string(&b, "\n");
    if (ok && lv->comment[0])
        ok = buffer_append_string(&b, "Comment:\n") && buffer_append_string(&b, lv->comment) &&
             buffer_append_string(&b, "\nComment-End:\n");
    if (!ok) {
        free(b.data);
        return NULL;
    }
    return b.data;
}
