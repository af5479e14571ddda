/* wrap.c - text broken into lines at spaces, by display width. */
#include "wrap.h"

#include <stdbool.h>
#include <string.h>

#include "level/utf8.h"

/* A space, or a tab (shown as one, utf8.h): where a line may break. */
static bool is_blank(char c)
{
    return c == ' ' || c == '\t';
}

size_t wrap_line(const char *text, size_t length, int columns)
{
    if (columns < 1) columns = 1;
    size_t fit = utf8_fit(text, columns, NULL);
    if (fit >= length) return length;
    size_t cut = fit;
    while (cut > 0 && !is_blank(text[cut])) cut--;
    if (cut > 0) return cut;
    if (fit > 0) return fit;
    unsigned code;
    size_t one = (size_t)utf8_decode(text, &code); /* a character wider than the line */
    return one < length ? one : length;
}

size_t wrap_skip_spaces(const char *text, size_t length)
{
    size_t n = 0;
    while (n < length && is_blank(text[n])) n++;
    return n;
}

int wrap_count(const char *text, size_t length, int columns)
{
    int lines = 0;
    if (wrap_skip_spaces(text, length) == length) return 0; /* nothing but spaces */
    while (length > 0) {
        size_t piece = wrap_line(text, length, columns);
        text += piece;
        length -= piece;
        size_t spaces = wrap_skip_spaces(text, length);
        text += spaces;
        length -= spaces;
        lines++;
    }
    return lines;
}

int wrap_balanced(const char *text, size_t length, int columns)
{
    if (columns < 1) return 1;
    int lines = wrap_count(text, length, columns);
    /* the count only grows as the width shrinks: the narrowest width that keeps it */
    int low = 1, high = columns;
    while (low < high) {
        int middle = (low + high) / 2;
        if (wrap_count(text, length, middle) <= lines)
            high = middle;
        else
            low = middle + 1;
    }
    return high;
}

size_t wrap_shorten(const char *text, size_t length, int columns, int mark_columns)
{
    if (columns < 0) columns = 0;
    size_t whole = utf8_fit(text, columns, NULL);
    if (whole >= length) return length;
    int room = columns - mark_columns;
    if (room < 1) return 0;
    size_t fit = utf8_fit(text, room, NULL);
    if (fit > length) fit = length;
    /* a cut inside a word moves back to the space before it */
    size_t cut = fit;
    if (!is_blank(text[cut]))
        while (cut > 0 && !is_blank(text[cut - 1])) cut--;
    while (cut > 0 && strchr(" \t:,;-(", text[cut - 1])) cut--;
    return cut > 0 ? cut : fit;
}

void wrap_join_lines(const char *text, char *out, size_t size)
{
    size_t length = 0;
    for (const char *c = text; *c && length + 1 < size; c++)
        if (*c != '\n' || (length > 0 && out[length - 1] != ' '))
            out[length++] = *c == '\n' ? ' ' : *c;
    if (size > 0) out[length] = '\0';
}
