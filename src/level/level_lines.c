/* level_lines.c - a level file cut into classified lines; fields and solution lines. */
#include "level_lines.h"

#include <ctype.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "utf8.h"

bool line_is_map_char(char c)
{
    return c == '#' || c == ' ' || c == '-' || c == '_' || c == '.' || c == '$' || c == '*' ||
           c == '@' || c == '+';
}

/* True when every character could belong to a map row (digits as run-length counts, '|'
 * as a row break) and there is a wall: a real row of a closed level always has one. */
static bool is_map_row(const char *text, size_t length)
{
    bool wall = false;
    for (size_t i = 0; i < length; i++) {
        char c = text[i];
        if (c == '#') wall = true;
        if (!line_is_map_char(c) && !isdigit((unsigned char)c) && c != '|' && c != '\t')
            return false;
    }
    return wall;
}

/* True when a line that is not a valid map row still looks like one with a bad character
 * in it (it starts like a row and is mostly made of map characters), so that it gets an
 * "unknown character" error instead of being taken for text. */
static bool looks_like_map_row(const char *text, size_t length)
{
    size_t i = 0;
    while (i < length && (text[i] == ' ' || text[i] == '\t')) i++;
    if (i == length || text[i] != '#') return false;
    size_t good = 0, total = 0;
    for (; i < length; i++) {
        char c = text[i];
        if (c == ' ') continue;
        total++;
        if (line_is_map_char(c) || isdigit((unsigned char)c) || c == '|') good++;
    }
    return good * 4 >= total * 3;
}

static line_kind classify(const char *text, size_t length)
{
    if (length == 0) return LINE_BLANK;
    if (length >= 2 && text[0] == ':' && text[1] == ':') return LINE_BANNER;
    if (is_map_row(text, length)) return LINE_MAP;
    if (looks_like_map_row(text, length)) return LINE_BAD_MAP;
    return LINE_TEXT;
}

bool lines_split(const char *text, size_t length, line_list *out)
{
    *out = (line_list){0};
    if (length >= 3 && memcmp(text, "\xEF\xBB\xBF", 3) == 0) {
        text += 3;
        length -= 3;
    }
    size_t capacity = 64, count = 0;
    line *lines = malloc(capacity * sizeof *lines);
    if (!lines) return false;
    uint32_t number = 0;
    size_t start = 0;
    while (start < length) {
        size_t end = start;
        while (end < length && text[end] != '\n' && text[end] != '\r') end++;
        size_t stripped = end;
        while (stripped > start && isspace((unsigned char)text[stripped - 1])) stripped--;
        number++;
        line_kind kind = classify(text + start, stripped - start);
        /* a blank line after a blank line: the entry before stands for both */
        if (!(kind == LINE_BLANK && count > 0 && lines[count - 1].kind == LINE_BLANK)) {
            if (count == capacity) {
                capacity *= 2;
                line *grown = realloc(lines, capacity * sizeof *lines);
                if (!grown) {
                    free(lines);
                    return false;
                }
                lines = grown;
            }
            lines[count++] = (line){.text = text + start,
                                    .length = (uint32_t)(stripped - start),
                                    .number = number,
                                    .kind = kind};
        }
        if (end < length && text[end] == '\r' && end + 1 < length && text[end + 1] == '\n') end++;
        start = end + 1;
    }
    out->lines = lines;
    out->count = (int)count;
    out->total_lines = (int)number;
    return true;
}

void lines_free(line_list *list)
{
    free(list->lines);
    *list = (line_list){0};
}

int lines_span(const line_list *list, int i)
{
    int next = i + 1 < list->count ? (int)list->lines[i + 1].number : list->total_lines + 1;
    return next - (int)list->lines[i].number;
}

const char *line_field(const line *l, const char *key, size_t *length)
{
    size_t k = strlen(key);
    if (l->kind != LINE_TEXT || l->length < k + 1 || strncasecmp(l->text, key, k) != 0 ||
        l->text[k] != ':')
        return NULL;
    size_t i = k + 1;
    while (i < l->length && isspace((unsigned char)l->text[i])) i++;
    *length = l->length - i;
    return l->text + i;
}

bool line_is_field(const line *l)
{
    static const char *const keys[] = {"Title",       "Author", "Comment",    "Comment-End",
                                       "Comment_End", "Date",   "Collection", "Level"};
    size_t length;
    for (size_t i = 0; i < sizeof keys / sizeof keys[0]; i++)
        if (line_field(l, keys[i], &length)) return true;
    return false;
}

bool line_is_key_value(const line *l)
{
    if (l->kind != LINE_TEXT) return false;
    size_t i = 0;
    while (i < l->length &&
           (isalnum((unsigned char)l->text[i]) || l->text[i] == '-' || l->text[i] == '_'))
        i++;
    return i > 0 && i < l->length && l->text[i] == ':';
}

bool line_is_comment_end(const line *l)
{
    size_t length;
    return line_field(l, "Comment-End", &length) || line_field(l, "Comment_End", &length);
}

/* True when the line starts with `word` (any case) followed by the end, a blank, '(',
 * '/' or ':'. */
static bool starts_with_word(const line *l, const char *word)
{
    size_t k = strlen(word);
    if (l->kind != LINE_TEXT || l->length < k || strncasecmp(l->text, word, k) != 0) return false;
    if (l->length == k) return true;
    char c = l->text[k];
    return c == ' ' || c == '\t' || c == '(' || c == '/' || c == ':' || c == '-';
}

bool line_opens_solution(const line *l)
{
    return starts_with_word(l, "Solution") || starts_with_word(l, "Save") ||
           starts_with_word(l, "Snapshot");
}

bool line_is_moves(const line *l)
{
    if (l->kind != LINE_TEXT || l->length == 0) return false;
    bool move = false;
    for (size_t i = 0; i < l->length; i++) {
        char c = l->text[i];
        if (strchr("lurdLURD", c))
            move = true;
        else if (!isdigit((unsigned char)c) && c != '(' && c != ')' && c != ' ')
            return false;
    }
    return move;
}

const char *line_comment_text(const line *l, size_t *length)
{
    size_t i = 1;
    while (i < l->length && isspace((unsigned char)l->text[i])) i++;
    *length = l->length - i;
    return l->text + i;
}

/* ---------------------------------------------------------------- buffers and strings */

bool buffer_reserve(text_buffer *b, size_t extra)
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

bool buffer_append(text_buffer *b, const char *text, size_t length)
{
    if (!buffer_reserve(b, length)) return false;
    memcpy(b->data + b->length, text, length);
    b->length += length;
    b->data[b->length] = '\0';
    return true;
}

bool buffer_append_string(text_buffer *b, const char *text)
{
    return buffer_append(b, text, strlen(text));
}

char *string_copy(const char *text, size_t length)
{
    char *copy = malloc(length + 1);
    if (!copy) return NULL;
    memcpy(copy, text, length);
    copy[length] = '\0';
    return copy;
}

/* True when the bytes are text: no NUL and no control characters other than tab, line
 * ends and form feed. UTF-8 in titles and comments is fine. */
bool text_is_text(const char *text, size_t length)
{
    for (size_t i = 0; i < length; i++) {
        unsigned char c = (unsigned char)text[i];
        if (c < 0x20 && c != '\t' && c != '\n' && c != '\r' && c != '\f') return false;
        if (c == 0x7F) return false;
    }
    return true;
}

char *name_from_path(const char *path)
{
    const char *base = strrchr(path, '/');
    base = base ? base + 1 : path;
    const char *dot = strrchr(base, '.');
    size_t length = dot && dot != base ? (size_t)(dot - base) : strlen(base);
    char *name = string_copy(base, length);
    if (name) utf8_drop_controls(name); /* a name is one line of text, whatever the path */
    return name;
}

int line_bad_solution_end(const line *lines, int opener, int to, int count)
{
    int end = opener + 1;
    while (end < to && lines[end].kind == LINE_TEXT && !line_is_key_value(&lines[end]) &&
           !line_opens_solution(&lines[end]))
        end++;
    if (end == opener + 1 || (end == to && to < count)) return opener;
    while (end < to && line_is_key_value(&lines[end]) &&
           !line_field(&lines[end], "Title", &(size_t){0}))
        end++;
    return end;
}
