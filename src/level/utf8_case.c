/* utf8_case.c - UTF-8 text matched without regard to case (see utf8_case.h). */
#include "utf8_case.h"

#include <wctype.h>

#include "utf8.h"

/* A malformed byte's stand-in, beyond Unicode: it folds to nothing else. */
enum { MALFORMED = 0x110000 };

/* Reads the character at `text` (not at its end): returns its length in bytes and puts its
 * folded code in *folded. */
static int next_folded(const char *text, unsigned *folded)
{
    unsigned code;
    int length = utf8_decode(text, &code);
    unsigned char byte = (unsigned char)text[0];
    if (code == 0xFFFD && length == 1) {
        *folded = MALFORMED + byte; /* (U+FFFD itself takes three bytes) */
    } else if (code < 0x80) {
        *folded = code >= 'A' && code <= 'Z' ? code - 'A' + 'a' : code; /* in any locale */
    } else {
#ifdef __STDC_ISO_10646__ /* wchar_t holds Unicode code points, whatever the locale */
        *folded = (unsigned)towlower(towupper((wint_t)code));
#else
        *folded = code;
#endif
    }
    return length;
}

bool utf8_case_starts(const char *text, const char *prefix)
{
    while (*prefix) {
        if (!*text) return false;
        unsigned a, b;
        text += next_folded(text, &a);
        prefix += next_folded(prefix, &b);
        if (a != b) return false;
    }
    return true;
}

bool utf8_case_equal(const char *a, const char *b)
{
    while (*a && *b) {
        unsigned x, y;
        a += next_folded(a, &x);
        b += next_folded(b, &y);
        if (x != y) return false;
    }
    return !*a && !*b;
}

const char *utf8_case_find(const char *text, const char *needle)
{
    for (;;) {
        if (utf8_case_starts(text, needle)) return text;
        if (!*text) return NULL;
        unsigned code;
        text += utf8_decode(text, &code);
    }
}
