/* utf8_case.h - UTF-8 text matched without regard to case, as a player types a name to find
 * it: "ÉTÉ" finds "été", "alp" finds "Alpha".
 *
 * Each character is folded by the C library's wide-character functions in the locale's
 * LC_CTYPE (towupper, then towlower, so that "Σ", "σ" and "ς" are one letter): in a UTF-8
 * locale every letter of Unicode, in the C locale ASCII alone (any other character then
 * matches only itself, as a byte-wise search would). A character folds to one character
 * ("ß" does not match "SS"); a malformed byte matches only itself. The caller sets the locale
 * (the game does, with setlocale(LC_ALL, "")). */
#ifndef SOKOBAN_UTF8_CASE_H
#define SOKOBAN_UTF8_CASE_H

#include <stdbool.h>

/* True when the NUL-terminated strings are the same but for case. */
bool utf8_case_equal(const char *a, const char *b);

/* True when `text` starts with `prefix`, but for case (whole characters; "" starts any). */
bool utf8_case_starts(const char *text, const char *prefix);

/* Where `needle` first occurs in `text` but for case, at the start of a character; NULL when
 * it does not ("" occurs at the start). */
const char *utf8_case_find(const char *text, const char *needle);

#endif
