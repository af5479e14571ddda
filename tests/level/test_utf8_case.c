/* test_utf8_case.c - names matched without regard to case (src/level/utf8_case.c), as the
 * library's search, --collection, the names made unique and the statistics compare them:
 * case does not count, accents do, however the text was written. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include <locale.h>

#include "level/utf8_case.h"

/* "é" written as one character, and as "e" with a combining acute accent (U+0301) after it,
 * as some keyboards and file systems write it. */
#define E_ACUTE "\xc3\xa9"
#define E_THEN_ACUTE "e\xcc\x81"
#define CAPITAL_E_THEN_ACUTE "E\xcc\x81"

static void test_case_does_not_count_in_any_script(void **state)
{
    (void)state;
    assert_true(utf8_case_equal("Sokoban", "SOKOBAN"));
    assert_true(utf8_case_equal("ÉTÉ", "été"));
    assert_true(utf8_case_equal("Ärger", "äRGER"));
    assert_true(utf8_case_equal("ΣΟΦΟΣ", "σοφος")); /* the final sigma too */
    assert_true(utf8_case_equal("ДОМ", "дом"));
    assert_false(utf8_case_equal("été", "étés")); /* the whole name */
    assert_true(utf8_case_starts("Élan vital", "éL"));
    assert_true(utf8_case_starts("anything", ""));
    assert_true(utf8_case_holds("Un été", "ÉTÉ"));
    assert_true(utf8_case_holds("Un été", ""));
    assert_false(utf8_case_holds("Un été", "ÉTÉS"));
}

static void test_an_accent_counts(void **state)
{
    (void)state;
    assert_false(utf8_case_equal("été", "ete"));
    assert_false(utf8_case_starts("Élan vital", "e"));
    assert_false(utf8_case_holds("Un été", "ete"));
}

/* A letter typed as a letter and a combining mark is the letter written with the mark: the
 * one name, whichever way each side was written. */
static void test_a_letter_and_its_mark_are_the_letter_written_with_it(void **state)
{
    (void)state;
    assert_true(utf8_case_equal(E_THEN_ACUTE "t" E_THEN_ACUTE, "été"));
    assert_true(utf8_case_equal(CAPITAL_E_THEN_ACUTE "T" CAPITAL_E_THEN_ACUTE, "été"));
    assert_true(utf8_case_equal("ÉTÉ", E_THEN_ACUTE "t" E_THEN_ACUTE));
    assert_true(utf8_case_starts("Élan vital", E_THEN_ACUTE "l"));
    assert_true(utf8_case_starts(CAPITAL_E_THEN_ACUTE "lan vital", "él"));
    assert_true(utf8_case_holds("Un été", "T" E_THEN_ACUTE));
    assert_false(utf8_case_equal(E_THEN_ACUTE, "e"));
}

/* A match takes whole letters as shown: not a letter without the mark on it (where no
 * letter is written with both: q and an acute accent), not the first byte of a character. */
static void test_a_match_takes_whole_letters(void **state)
{
    (void)state;
    assert_false(utf8_case_starts("q\xcc\x81rst", "q"));
    assert_false(utf8_case_holds("aq\xcc\x81", "aq"));
    assert_true(utf8_case_holds("aq\xcc\x81", "AQ\xcc\x81"));
    assert_false(utf8_case_starts(E_ACUTE "t" E_ACUTE, "\xc3"));
    assert_false(utf8_case_holds("x" E_ACUTE, "\xa9"));
}

/* A name typed a character at a time may end on a letter whose accent is yet to come: "UN E"
 * may hold "Un été" (as "UN E" then U+0301 will), "UN ET" may not; whole letters hold as
 * they do. */
static void test_a_letter_may_wait_for_its_accent(void **state)
{
    (void)state;
    assert_true(utf8_case_may_hold("Un été", "UN E"));
    assert_true(utf8_case_may_hold("Un été", "UN " CAPITAL_E_THEN_ACUTE "T"));
    assert_true(utf8_case_may_hold("Un été", "ÉT"));
    assert_true(utf8_case_may_hold("Un été", ""));
    assert_false(utf8_case_may_hold("Un été", "UN ET"));
    assert_false(utf8_case_may_hold("Un été", "x"));
    assert_false(utf8_case_may_hold("été", "É"
                                           "\xcc\x80"));  /* é then a grave: no such letter */
    assert_false(utf8_case_may_hold("été", "\xcc\x81t")); /* the match starts on a letter */
    assert_true(utf8_case_may_hold("Straße", "STRAS"));
}

/* Unicode's full case folding: "ß" is "ss", as its capital "SS" (and "ẞ") say. */
static void test_sharp_s_is_ss(void **state)
{
    (void)state;
    assert_true(utf8_case_equal("Straße", "STRASSE"));
    assert_true(utf8_case_equal("Straße", "strasse"));
    assert_true(utf8_case_equal("STRAẞE", "straße"));
    assert_true(utf8_case_starts("Straße", "STRASS"));
    assert_true(utf8_case_holds("Große Straße", "strasse"));
    assert_false(utf8_case_equal("Straße", "strase"));
}

/* The Turkish dotted and dotless i are letters of their own, folded as everywhere but Turkey
 * (the fold knows no language): "I" is "i"; "İ" is "i" with a dot above, not "i"; "ı" is
 * neither "i" nor "I". */
static void test_the_dotted_and_dotless_i_stay_letters_of_their_own(void **state)
{
    (void)state;
    assert_true(utf8_case_equal("ISTANBUL", "istanbul"));
    assert_false(utf8_case_equal("İstanbul", "istanbul"));
    assert_true(utf8_case_equal("İstanbul", "i\xcc\x87stanbul")); /* i, combining dot above */
    assert_false(utf8_case_equal("ılık", "ilik"));
    assert_false(utf8_case_equal("ılık", "ILIK"));
    assert_true(utf8_case_equal("ılık", "ılık"));
}

/* Characters that show nothing (a soft hyphen, a zero-width space) do not part a name. */
static void test_invisible_characters_do_not_count(void **state)
{
    (void)state;
    assert_true(utf8_case_equal("Soko\xc2\xad"
                                "ban",
                                "sokoban"));
    assert_true(utf8_case_holds("Micro\xe2\x80\x8b"
                                "ban",
                                "oban"));
}

/* Bytes that are not UTF-8 (a Latin-1 name) match only themselves, byte for byte, the valid
 * text around them folded as usual; nothing is read past the end of a character cut short. */
static void test_bytes_that_are_not_utf8_match_only_themselves(void **state)
{
    (void)state;
    assert_true(utf8_case_equal("\xff\xfeZ", "\xff\xfez"));
    assert_true(utf8_case_equal("caf\xe9 ÉTÉ", "caf\xe9 été")); /* Latin-1 é, then UTF-8 */
    assert_false(utf8_case_equal("caf\xe9", "caf\xc9"));        /* Latin-1 é and É: bytes */
    assert_false(utf8_case_equal("caf\xe9", "café"));
    assert_false(utf8_case_equal("\xff", "\xfe"));
    assert_false(utf8_case_equal("\xc3", E_ACUTE)); /* a character cut short is not it */
    assert_true(utf8_case_equal("ab\xe2\x82", "AB\xe2\x82"));
    assert_false(utf8_case_equal("\xc0\xaf", "/"));        /* an overlong '/' is no '/' */
    assert_false(utf8_case_equal("\xed\xa0\x80", "\xed")); /* nor a surrogate a character */
    assert_true(utf8_case_equal("\xed\xa0\x80", "\xed\xa0\x80"));
    assert_false(utf8_case_holds("abc", "\xff"));
    assert_true(utf8_case_holds("a\xff"
                                "Bc",
                                "\xff"
                                "b"));
    assert_true(utf8_case_starts("\xa9\xa9x", "\xa9"));
}

/* The fold a list is ordered by: with the accents, as names are compared; without them, so
 * that a name comes among those of its letters. */
static void test_a_name_folds_with_or_without_its_accents(void **state)
{
    (void)state;
    char *with = utf8_case_fold(CAPITAL_E_THEN_ACUTE "lan Straße", true);
    char *without = utf8_case_fold("Élan Straße", false);
    assert_string_equal(with, "élan strasse");
    assert_string_equal(without, "elan strasse");
    free(with);
    free(without);
}

/* The fold knows no locale: names are UTF-8 in the C locale too (a terminal that sends UTF-8
 * under LANG=C types the bytes of "É"). */
/* A long name of letters each with a mark on it: every "q" is a hit that does not end a
 * letter, and the search goes on to the next along the name once (a name of 16,000 such
 * letters took 3.5 s a key when each hit walked the name from its start). */
static void test_a_long_name_of_marked_letters_is_searched_to_its_end(void **state)
{
    (void)state;
    enum { LETTERS = 16000 };
    static const char q_acute[] = "q\xcc\x81";
    char *name = malloc(LETTERS * 3 + 2);
    assert_non_null(name);
    for (int i = 0; i < LETTERS; i++) memcpy(name + 3 * i, q_acute, 3);
    name[3 * LETTERS] = '\0';
    assert_false(utf8_case_holds(name, "q"));
    assert_false(utf8_case_starts(name, "Q"));
    assert_true(utf8_case_holds(name, "Q\xcc\x81q\xcc\x81"));
    assert_true(utf8_case_may_hold(name, "q"));
    assert_false(utf8_case_holds(name, "q\xcc\x81\xcc\x81")); /* no letter with two marks */
    strcpy(name + 3 * LETTERS, "Q");                          /* the only bare letter, at the end */
    assert_true(utf8_case_holds(name, "q"));
    assert_false(utf8_case_holds(name, "\xcc\x81q")); /* a mark alone starts no letter */
    free(name);
}

static void test_the_c_locale_folds_as_a_utf8_one(void **state)
{
    (void)state;
    setlocale(LC_CTYPE, "C");
    assert_true(utf8_case_equal("ÉTÉ", "été"));
    assert_true(utf8_case_equal("Straße", "STRASSE"));
    assert_true(utf8_case_equal(E_THEN_ACUTE "t" E_THEN_ACUTE, "ÉTÉ"));
    assert_false(utf8_case_equal("été", "ete"));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_case_does_not_count_in_any_script),
        cmocka_unit_test(test_an_accent_counts),
        cmocka_unit_test(test_a_letter_and_its_mark_are_the_letter_written_with_it),
        cmocka_unit_test(test_a_match_takes_whole_letters),
        cmocka_unit_test(test_a_letter_may_wait_for_its_accent),
        cmocka_unit_test(test_sharp_s_is_ss),
        cmocka_unit_test(test_the_dotted_and_dotless_i_stay_letters_of_their_own),
        cmocka_unit_test(test_invisible_characters_do_not_count),
        cmocka_unit_test(test_bytes_that_are_not_utf8_match_only_themselves),
        cmocka_unit_test(test_a_name_folds_with_or_without_its_accents),
        cmocka_unit_test(test_a_long_name_of_marked_letters_is_searched_to_its_end),
        cmocka_unit_test(test_the_c_locale_folds_as_a_utf8_one),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
