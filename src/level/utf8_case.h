/* utf8_case.h - UTF-8 text matched without regard to case, as a player types a name to find
 * it: "ÉTÉ" finds "été", "alp" finds "Alpha", "STRASSE" is "Straße".
 *
 * Both sides are folded by utf8proc (Unicode's full case folding, then the composed form
 * NFC, the invisible "default ignorable" characters such as a soft hyphen left out): case
 * does not count, accents do ("été" is not "ete"), and a letter written as its base letter
 * and a combining mark (e + U+0301) is the letter written whole (é). Locale-independent:
 * the text is UTF-8 whatever LC_CTYPE says, so the C locale folds as a UTF-8 one does. A
 * byte that is not UTF-8 (a name from a Latin-1 file name, a key of a Latin-1 terminal) is
 * not folded and matches only itself; the valid text around it is folded as usual. A match
 * starts and ends between whole letters as shown: "e" does not find the "é" of e + U+0301,
 * nor a character's first byte the whole character. Each call folds both sides anew (names
 * are short). */
#ifndef SOKOBAN_UTF8_CASE_H
#define SOKOBAN_UTF8_CASE_H

#include <stdbool.h>

/* True when the NUL-terminated strings are the same but for case. */
bool utf8_case_equal(const char *a, const char *b);

/* True when `text` starts with `prefix`, but for case (whole letters; "" starts any). */
bool utf8_case_starts(const char *text, const char *prefix);

/* True when `needle` occurs in `text` but for case, as whole letters ("" occurs in any). */
bool utf8_case_holds(const char *text, const char *needle);

/* `text` folded as names are compared, to order a list by: a new string to free(), NULL when
 * out of memory. Without `accents`, its accents left out as well ("Élan" -> "elan"), so that
 * a name comes among those of its letters. */
char *utf8_case_fold(const char *text, bool accents);

/* True when `needle` occurs in `text` but for case, or will once the marks on its last
 * letter are typed: "e" may hold "été", whose "é" a keyboard may type as "e" and U+0301. */
bool utf8_case_may_hold(const char *text, const char *needle);

#endif
