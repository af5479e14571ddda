/* utf8_case.c - UTF-8 text matched without regard to case, by utf8proc (see utf8_case.h). */
#include "utf8_case.h"

#include <stdlib.h>
#include <string.h>
#include <utf8proc.h>

/* The fold: Unicode's full case folding ("ß" is "ss"), the default ignorables left out, and
 * a normal form (STABLE: with only the compositions Unicode keeps): composed (NFC) to match
 * whole letters, decomposed (NFD) to match a letter whose marks may yet come. */
static const utf8proc_option_t FOLD =
    (utf8proc_option_t)(UTF8PROC_CASEFOLD | UTF8PROC_STABLE | UTF8PROC_IGNORE);
static const utf8proc_option_t COMPOSED = UTF8PROC_COMPOSE, DECOMPOSED = UTF8PROC_DECOMPOSE;

/* Reads the character at `text` (not at its end): returns its length in bytes and puts its
 * code in *code, -1 for a byte that is not UTF-8 (a character of its own, one byte long). */
static size_t next_character(const char *text, utf8proc_int32_t *code)
{
    utf8proc_ssize_t length = utf8proc_iterate((const utf8proc_uint8_t *)text, -1, code);
    if (length >= 1) return (size_t)length;
    *code = -1;
    return 1;
}

/* Appends `length` bytes to the string of *used bytes in *out (*capacity allocated, room
 * kept for its NUL). False when out of memory (*out freed and NULL). */
static bool append(char **out, size_t *used, size_t *capacity, const void *bytes, size_t length)
{
    if (*used + length + 1 > *capacity) {
        size_t more = *capacity * 2 > *used + length + 1 ? *capacity * 2 : *used + length + 1;
        char *grown = realloc(*out, more);
        if (!grown) {
            free(*out);
            *out = NULL;
            return false;
        }
        *out = grown;
        *capacity = more;
    }
    memcpy(*out + *used, bytes, length);
    *used += length;
    return true;
}

/* `text` folded to the normal `form`: a new string to free(), or NULL when out of memory.
 * Each run of valid UTF-8 is folded whole (a letter and the marks after it compose); a byte
 * that is not UTF-8 is kept as it is, so it matches only itself and never a folded run,
 * which is valid UTF-8. */
static char *fold(const char *text, utf8proc_option_t form)
{
    size_t length = strlen(text), used = 0, capacity = length + 1;
    char *out = malloc(capacity);
    if (!out) return NULL;
    size_t ascii = 0;
    while (ascii < length && (unsigned char)text[ascii] < 0x80) ascii++;
    if (ascii == length) { /* the most names: ASCII, folded by hand, quicker */
        for (size_t i = 0; i <= length; i++)
            out[i] = text[i] >= 'A' && text[i] <= 'Z' ? (char)(text[i] - 'A' + 'a') : text[i];
        return out;
    }
    for (size_t at = 0; out && at < length;) {
        size_t end = at, step = 0;
        utf8proc_int32_t code = 0;
        while (end < length && (step = next_character(text + end, &code), code >= 0)) end += step;
        if (end == at) { /* a byte that is not UTF-8 */
            append(&out, &used, &capacity, text + at, 1);
            at++;
            continue;
        }
        utf8proc_uint8_t *folded;
        utf8proc_ssize_t folded_length =
            utf8proc_map((const utf8proc_uint8_t *)text + at, (utf8proc_ssize_t)(end - at), &folded,
                         (utf8proc_option_t)(FOLD | form));
        if (folded_length < 0) {
            free(out);
            return NULL;
        }
        append(&out, &used, &capacity, folded, (size_t)folded_length);
        free(folded);
        at = end;
    }
    if (out) out[used] = '\0';
    return out;
}

/* A walk along the folded text, one character at a time, that only goes on: `where` is the
 * byte where the character it read last (`before`, -1 at the start) ends. */
struct walk {
    size_t where;
    utf8proc_int32_t before;
};

/* True when byte `at` of the folded `text` (its end included) parts two characters: not
 * inside a character's bytes; when `as_shown`, nor between a letter and a mark on it either
 * (a grapheme break, as utf8proc finds it). The walk goes on from where the last call left
 * it (`at` never lower than the last call's), so that all the hits of a search cost one walk
 * along the text, not one from its start each. */
static bool parts_at(const char *text, struct walk *walk, size_t at, bool as_shown)
{
    while (walk->where < at) walk->where += next_character(text + walk->where, &walk->before);
    if (walk->where != at) return false;
    if (at == 0 || !text[at] || !as_shown) return true;
    utf8proc_int32_t after;
    next_character(text + at, &after);
    utf8proc_int32_t state = 0;
    return walk->before < 0 || after < 0 ||
           utf8proc_grapheme_break_stateful(walk->before, after, &state);
}

/* True when the folded `needle` occurs in the folded `text` from a letter's start, at its
 * start alone when `at_start`, to the end of a letter (`whole`) or of a character. The hits
 * come in order: one walk for their starts and one for their ends, a search linear in the
 * text's length. */
static bool occurs(const char *text, const char *needle, bool at_start, bool whole)
{
    size_t length = strlen(needle);
    struct walk starts = {0, -1}, ends = {0, -1};
    for (const char *at = strstr(text, needle); at; at = strstr(at + 1, needle)) {
        if (at_start && at != text) return false;
        size_t start = (size_t)(at - text);
        if (parts_at(text, &starts, start, true) && parts_at(text, &ends, start + length, whole))
            return true;
    }
    return false;
}

/* The search of `needle` in `text` (as occurs() says) on both folded to `form`; out of
 * memory, byte for byte. */
static bool search(const char *text, const char *needle, utf8proc_option_t form, bool at_start,
                   bool whole)
{
    char *t = fold(text, form), *n = fold(needle, form);
    bool found;
    if (t && n)
        found = occurs(t, n, at_start, whole);
    else
        found =
            at_start ? strncmp(text, needle, strlen(needle)) == 0 : strstr(text, needle) != NULL;
    free(t);
    free(n);
    return found;
}

char *utf8_case_fold(const char *text, bool accents)
{
    return fold(text, accents ? COMPOSED : (utf8proc_option_t)(COMPOSED | UTF8PROC_STRIPMARK));
}

bool utf8_case_equal(const char *a, const char *b)
{
    char *x = fold(a, COMPOSED), *y = fold(b, COMPOSED);
    bool equal = x && y ? strcmp(x, y) == 0 : strcmp(a, b) == 0; /* out of memory: bytes */
    free(x);
    free(y);
    return equal;
}

bool utf8_case_starts(const char *text, const char *prefix)
{
    return search(text, prefix, COMPOSED, true, true);
}

bool utf8_case_holds(const char *text, const char *needle)
{
    return search(text, needle, COMPOSED, false, true);
}

bool utf8_case_may_hold(const char *text, const char *needle)
{
    return search(text, needle, DECOMPOSED, false, false);
}
