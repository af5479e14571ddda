/* utf8.c - UTF-8 validity, Latin-1 conversion and display width (see utf8.h). */
#include "utf8.h"

#include <stdlib.h>
#include <string.h>
#include <utf8proc.h>

int utf8_decode(const char *text, unsigned *code)
{
    const unsigned char *s = (const unsigned char *)text;
    int length;
    unsigned value, min;
    if (s[0] < 0x80) {
        *code = s[0];
        return 1;
    } else if (s[0] >= 0xC2 && s[0] <= 0xDF) {
        length = 2, value = s[0] & 0x1F, min = 0x80;
    } else if (s[0] >= 0xE0 && s[0] <= 0xEF) {
        length = 3, value = s[0] & 0x0F, min = 0x800;
    } else if (s[0] >= 0xF0 && s[0] <= 0xF4) {
        length = 4, value = s[0] & 0x07, min = 0x10000;
    } else {
        *code = 0xFFFD;
        return 1;
    }
    for (int i = 1; i < length; i++) {
        if ((s[i] & 0xC0) != 0x80) { /* also stops at the NUL */
            *code = 0xFFFD;
            return 1;
        }
        value = value << 6 | (s[i] & 0x3F);
    }
    if (value < min || value > 0x10FFFF || (value >= 0xD800 && value <= 0xDFFF)) {
        *code = 0xFFFD;
        return 1;
    }
    *code = value;
    return length;
}

size_t utf8_encode(unsigned code, char *out)
{
    if (code < 0x80) {
        out[0] = (char)code;
        return 1;
    }
    size_t length = code < 0x800 ? 2 : code < 0x10000 ? 3 : 4;
    static const unsigned char lead[] = {0, 0, 0xC0, 0xE0, 0xF0};
    for (size_t i = length - 1; i > 0; i--, code >>= 6) out[i] = (char)(0x80 | (code & 0x3F));
    out[0] = (char)(lead[length] | code);
    return length;
}

bool utf8_valid(const char *text, size_t length)
{
    size_t i = 0;
    while (i < length) {
        unsigned char c = (unsigned char)text[i];
        if (c < 0x80) {
            i++;
            continue;
        }
        int need = c >= 0xF0 ? 4 : c >= 0xE0 ? 3 : 2;
        if (i + (size_t)need > length) return false;
        char character[5] = {0};
        for (int k = 0; k < need; k++) character[k] = text[i + (size_t)k];
        unsigned code;
        if (utf8_decode(character, &code) != need) return false;
        i += (size_t)need;
    }
    return true;
}

char *utf8_from_latin1(const char *text, size_t length, size_t *out_length)
{
    size_t extra = 0;
    for (size_t i = 0; i < length; i++) extra += (unsigned char)text[i] >= 0x80;
    char *out = malloc(length + extra + 1);
    if (!out) return NULL;
    size_t o = 0;
    for (size_t i = 0; i < length; i++) {
        unsigned char c = (unsigned char)text[i];
        if (c < 0x80) {
            out[o++] = (char)c;
        } else {
            out[o++] = (char)(0xC0 | c >> 6);
            out[o++] = (char)(0x80 | (c & 0x3F));
        }
    }
    out[o] = '\0';
    *out_length = o;
    return out;
}

bool utf8_is_control(unsigned code)
{
    return code < 0x20 || (code >= 0x7F && code < 0xA0) || utf8_is_bidi_control(code);
}

bool utf8_is_bidi_control(unsigned code)
{
    return code == 0x061C || code == 0x200E || code == 0x200F ||
           (code >= 0x202A && code <= 0x202E) || (code >= 0x2066 && code <= 0x2069);
}

unsigned utf8_shown_as(unsigned code)
{
    if (code == '\t') return ' ';
    return utf8_is_control(code) ? 0 : code;
}

size_t utf8_drop_controls(char *text)
{
    size_t from = 0, to = 0;
    while (text[from]) {
        unsigned code;
        size_t length = (size_t)utf8_decode(text + from, &code);
        unsigned shown = utf8_shown_as(code);
        if (shown == code) {
            memmove(text + to, text + from, length);
            to += length;
        } else if (shown) {
            text[to++] = (char)shown; /* a space for a tab */
        }
        from += length;
    }
    text[to] = '\0';
    return to;
}

void utf8_write_shown(FILE *out, const char *text, size_t length)
{
    size_t i = 0;
    while (i < length && text[i]) {
        unsigned code;
        size_t bytes = (size_t)utf8_decode(text + i, &code);
        if (i + bytes > length) break; /* a character cut by `length` */
        unsigned shown = utf8_shown_as(code);
        if (shown == code)
            fwrite(text + i, 1, bytes, out);
        else if (shown)
            fputc((int)shown, out); /* a space for a tab */
        i += bytes;
    }
}

/* Markus Kuhn's wcwidth ranges, shortened to the blocks that matter for titles. */
int utf8_char_width(unsigned c)
{
    c = utf8_shown_as(c);
    if (c == 0) return 0;
    if ((c >= 0x0300 && c <= 0x036F) || (c >= 0x0483 && c <= 0x0489) ||
        (c >= 0x0591 && c <= 0x05BD) || (c >= 0x1AB0 && c <= 0x1AFF) ||
        (c >= 0x1DC0 && c <= 0x1DFF) || (c >= 0x200B && c <= 0x200F) ||
        (c >= 0x20D0 && c <= 0x20FF) || (c >= 0xFE00 && c <= 0xFE0F) ||
        (c >= 0xFE20 && c <= 0xFE2F))
        return 0;
    if ((c >= 0x1100 && c <= 0x115F) || c == 0x2329 || c == 0x232A ||
        (c >= 0x2E80 && c <= 0x303E) || (c >= 0x3041 && c <= 0x33FF) ||
        (c >= 0x3400 && c <= 0x4DBF) || (c >= 0x4E00 && c <= 0x9FFF) ||
        (c >= 0xA000 && c <= 0xA4CF) || (c >= 0xAC00 && c <= 0xD7A3) ||
        (c >= 0xF900 && c <= 0xFAFF) || (c >= 0xFE30 && c <= 0xFE4F) ||
        (c >= 0xFF00 && c <= 0xFF60) || (c >= 0xFFE0 && c <= 0xFFE6) ||
        (c >= 0x1F300 && c <= 0x1F64F) || (c >= 0x1F900 && c <= 0x1F9FF) ||
        (c >= 0x20000 && c <= 0x3FFFD))
        return 2;
    return 1;
}

int utf8_width(const char *text)
{
    int width = 0;
    while (*text) {
        unsigned code;
        text += utf8_decode(text, &code);
        width += utf8_char_width(code);
    }
    return width;
}

bool utf8_is_continuation(char byte)
{
    return ((unsigned char)byte & 0xC0) == 0x80;
}

/* The continuation bytes a UTF-8 character whose first byte is `lead` takes: 0 for ASCII
 * and for a byte that starts none. */
static size_t bytes_after(unsigned char lead)
{
    return lead >= 0xC2 && lead <= 0xDF   ? 1
           : lead >= 0xE0 && lead <= 0xEF ? 2
           : lead >= 0xF0 && lead <= 0xF4 ? 3
                                          : 0;
}

/* The end of the character at `at` in the first `length` bytes of `text`: its byte and the
 * continuation bytes it asks for, no more (a stray one after it is a character of its own,
 * shown apart). *code gets its code point, or -1 when they are not one UTF-8 character
 * (the first bytes of a character cut short, a stray byte, a surrogate): then the byte at
 * `at` alone, as utf8_decode() reads it and the screen shows it. */
static size_t character_end(const char *text, size_t at, size_t length, utf8proc_int32_t *code)
{
    size_t asks = bytes_after((unsigned char)text[at]);
    size_t end = at + 1;
    while (end < length && end - at <= asks && utf8_is_continuation(text[end])) end++;
    utf8proc_ssize_t read =
        utf8proc_iterate((const utf8proc_uint8_t *)text + at, (utf8proc_ssize_t)(end - at), code);
    if (read == (utf8proc_ssize_t)(end - at)) return end;
    *code = -1;
    return at + 1;
}

/* What goes is the last grapheme cluster, what a reader sees as one character (Unicode's
 * UAX #29, by utf8proc): its start is found from the text's start, since the rules carry
 * state (a flag is a pair of regional indicators counted from the first). Bytes that are
 * not UTF-8 stand apart from what is on either side of them. */
size_t utf8_drop_last(char *text, size_t length)
{
    size_t last = 0;
    utf8proc_int32_t before = -1, code, state = 0;
    for (size_t at = 0, end; at < length; at = end, before = code) {
        end = character_end(text, at, length, &code);
        if (before < 0 || code < 0) {
            last = at;
            state = 0;
        } else if (utf8proc_grapheme_break_stateful(before, code, &state)) {
            last = at;
        }
    }
    text[last] = '\0';
    return last;
}

size_t utf8_fit(const char *text, int columns, int *used)
{
    size_t bytes = 0;
    int width = 0;
    while (text[bytes]) {
        unsigned code;
        int length = utf8_decode(text + bytes, &code);
        int w = utf8_char_width(code);
        if (width + w > columns) break;
        width += w;
        bytes += (size_t)length;
    }
    if (used) *used = width;
    return bytes;
}
