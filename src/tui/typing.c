/* typing.c - characters typed, given as UTF-8 (see typing.h). */
#include "typing.h"

#include <langinfo.h>
#include <string.h>

#include "level/utf8.h"
#include "keys.h"

void typing_start(typing *t)
{
    memset(t, 0, sizeof *t);
}

/* True when the terminal's bytes are read as UTF-8: a UTF-8 locale, or one whose set is
 * ASCII (the C locale). */
static bool reads_utf8(void)
{
    const char *set = nl_langinfo(CODESET);
    return strcmp(set, "UTF-8") == 0 || strcmp(set, "ANSI_X3.4-1968") == 0 ||
           strcmp(set, "ASCII") == 0 || strcmp(set, "US-ASCII") == 0;
}

/* The bytes a UTF-8 character starting with `lead` takes in all: 0 for a byte that starts
 * none (a continuation byte, C0, C1, F5 to FF). */
static int utf8_length(unsigned char lead)
{
    return lead < 0x80                    ? 1
           : lead >= 0xC2 && lead <= 0xDF ? 2
           : lead >= 0xE0 && lead <= 0xEF ? 3
           : lead >= 0xF0 && lead <= 0xF4 ? 4
                                          : 0;
}

/* True when the t->count bytes begun can go on into a character. A first byte can when it
 * starts one; past it, they can when completed with the smallest continuation bytes (80)
 * they are one: an overlong form, a surrogate or a code past U+10FFFF is known from the
 * first two bytes, whatever follows them. */
static bool utf8_may_go_on(const typing *t)
{
    int length = utf8_length((unsigned char)t->bytes[0]);
    if (length == 0 || t->count == 1) return length > 0;
    char whole[5] = {(char)0x80, (char)0x80, (char)0x80, (char)0x80, 0};
    memcpy(whole, t->bytes, (size_t)t->count);
    whole[length] = '\0';
    unsigned code;
    return utf8_decode(whole, &code) == length;
}

/* UTF-8 read a byte at a time: the character `byte` ends into `out`, its length; 0 while
 * one is begun and when `byte` is no part of one (*bad). */
static size_t read_utf8(typing *t, char byte, char out[5], bool *bad)
{
    t->bytes[t->count++] = byte;
    *bad = !utf8_may_go_on(t);
    if (*bad) {
        t->count = 0;
        return 0;
    }
    if (t->count < utf8_length((unsigned char)t->bytes[0])) return 0;
    size_t length = (size_t)t->count;
    memcpy(out, t->bytes, length);
    out[length] = '\0';
    t->count = 0;
    return length;
}

/* The locale's own character set, by the C library, whose wide characters are code points
 * (ISO 10646), as glibc's and musl's are. */
static size_t read_locale(typing *t, char byte, char out[5], bool *bad)
{
    wchar_t wide;
    size_t read = mbrtowc(&wide, &byte, 1, &t->state);
    *bad = read == (size_t)-1;
    if (read == (size_t)-2) return 0;
    if (*bad) {
        memset(&t->state, 0, sizeof t->state); /* undefined after an error */
        return 0;
    }
    unsigned code = (unsigned)wide;
#ifndef __STDC_ISO_10646__
    if (code >= 0x80) *bad = true; /* a wide character of no known code: ASCII alone is */
#endif
    if (read == 0 || code > 0x10FFFF || (code >= 0xD800 && code <= 0xDFFF)) *bad = true;
    if (*bad) return 0;
    size_t length = utf8_encode(code, out);
    out[length] = '\0';
    return length;
}

/* The character the bytes read so far and `byte` end: its length, or 0 (*bad when `byte`
 * is no part of one). */
static size_t read_byte(typing *t, char byte, char out[5], bool *bad)
{
    size_t length = reads_utf8() ? read_utf8(t, byte, out, bad) : read_locale(t, byte, out, bad);
    t->pending = length == 0 && !*bad;
    if (length > 0) {
        unsigned code;
        utf8_decode(out, &code);
        if (utf8_is_control(code)) *bad = true, length = 0; /* never shown */
    }
    return length;
}

size_t typing_byte(typing *t, int key, char out[5], bool *left_out)
{
    bool begun = t->pending, bad;
    size_t length = read_byte(t, (char)key, out, &bad);
    *left_out = bad;
    /* a byte that breaks the character begun may start one of its own (or be ASCII) */
    if (bad && begun) length = read_byte(t, (char)key, out, &bad);
    return length;
}

bool typing_is_text(int key)
{
    return (key >= ' ' && key <= 0xFF && key != 127) || (key & ~KEYS_CODE_POINT) == KEYS_CHARACTER;
}

size_t typing_take(typing *t, int key, char out[5], bool *left_out)
{
    if ((key & ~KEYS_CODE_POINT) != KEYS_CHARACTER) return typing_byte(t, key, out, left_out);
    unsigned code = (unsigned)(key & KEYS_CODE_POINT);
    *left_out = t->pending; /* the bytes of a character begun, broken by this one */
    typing_start(t);
    if (code > 0x10FFFF || (code >= 0xD800 && code <= 0xDFFF) || utf8_is_control(code)) {
        *left_out = true;
        return 0;
    }
    size_t length = utf8_encode(code, out);
    out[length] = '\0';
    return length;
}

const char *typing_left_out_message(void)
{
    return reads_utf8() ? "Left out: bytes that are no UTF-8 character"
                        : "Left out: bytes that are no character of the locale";
}
