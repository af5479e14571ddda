/* test_typing.c - characters typed a byte a key, read in the locale's character set, as
 * UTF-8 (src/tui/typing.c). */
#include <locale.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h>

#include "level/utf8.h"
#include "tui/typing.h"

/* The line the bytes of `keys` make, typed a byte a key into a new line; *left_out counts
 * the keys after which bytes were left out. */
static const char *typed(const char *keys, int *left_out)
{
    static char line[256];
    typing t;
    typing_start(&t);
    size_t length = 0;
    *left_out = 0;
    for (const char *k = keys; *k; k++) {
        char character[5];
        bool out;
        size_t bytes = typing_byte(&t, (unsigned char)*k, character, &out);
        *left_out += out;
        assert_true(utf8_valid(character, bytes));
        memcpy(line + length, character, bytes);
        length += bytes;
    }
    line[length] = '\0';
    return line;
}

static void utf8_locale(void)
{
    if (!setlocale(LC_CTYPE, "C.UTF-8")) skip();
}

/* A UTF-8 terminal's characters are taken whole, of one to four bytes. */
static void test_utf8_characters_taken(void **state)
{
    (void)state;
    utf8_locale();
    int left_out;
    assert_string_equal(typed("\xE0\xA0\x80", &left_out), "\xE0\xA0\x80"); /* U+0800 */
    assert_string_equal(typed("Caf\xC3\xA9 \xE2\x98\x83 \xF0\x9F\x98\x80", &left_out),
                        "Caf\xC3\xA9 \xE2\x98\x83 \xF0\x9F\x98\x80");
    assert_int_equal(left_out, 0);
}

/* A Latin-1 byte alone (E9, "é" from a terminal in a Latin-1 locale) is no UTF-8: left out,
 * and the letter that broke it taken. */
static void test_stray_latin1_byte_left_out_in_utf8(void **state)
{
    (void)state;
    utf8_locale();
    int left_out;
    assert_string_equal(typed("Caf\xE9x", &left_out), "Cafx");
    assert_int_equal(left_out, 1);
    assert_string_equal(typed("\xE9\xC3\xA9", &left_out), "\xC3\xA9");
    assert_int_equal(left_out, 1);
}

/* A UTF-16 surrogate written as UTF-8 (ED A0 80), an overlong form (C0 80), a byte no UTF-8
 * has (FF), a continuation byte alone: none is taken. */
static void test_malformed_utf8_left_out(void **state)
{
    (void)state;
    utf8_locale();
    int left_out;
    assert_string_equal(typed("a\xED\xA0\x80z", &left_out), "az");
    assert_true(left_out >= 1);
    assert_string_equal(typed("a\xC0\x80\xFF\x80z", &left_out), "az");
    assert_true(left_out >= 3);
    assert_string_equal(typed("\xF4\x90\x80\x80", &left_out), ""); /* past U+10FFFF */
    assert_true(left_out >= 1);
}

/* A control character past ASCII (U+009B, which a terminal takes for the start of a command)
 * is never shown: it is not taken. */
static void test_control_character_left_out(void **state)
{
    (void)state;
    utf8_locale();
    int left_out;
    assert_string_equal(typed("a\xC2\x9B"
                              "b",
                              &left_out),
                        "ab");
    assert_int_equal(left_out, 1);
}

/* The C locale's character set, ASCII, names no other: a terminal there mostly sends UTF-8,
 * taken as it is where UTF-8 is (the screen shows '?' for it), and what is no UTF-8 left
 * out. */
static void test_c_locale_reads_utf8(void **state)
{
    (void)state;
    if (!setlocale(LC_CTYPE, "C")) skip();
    int left_out;
    assert_string_equal(typed("Caf\xC3\xA9!", &left_out), "Caf\xC3\xA9!");
    assert_int_equal(left_out, 0);
    assert_string_equal(typed("Caf\xE9x\xED\xA0\x80", &left_out), "Cafx");
    assert_true(left_out >= 2);
}

/* A terminal in a Latin-1 locale sends "é" as E9: it is "é" in UTF-8 (the test is skipped
 * where no Latin-1 locale is installed). */
static void test_latin1_locale_given_as_utf8(void **state)
{
    (void)state;
    if (!setlocale(LC_CTYPE, "fr_FR.ISO-8859-1") && !setlocale(LC_CTYPE, "en_US.ISO-8859-1") &&
        !setlocale(LC_CTYPE, "de_DE.ISO-8859-1"))
        skip();
    int left_out;
    assert_string_equal(typed("Caf\xE9", &left_out), "Caf\xC3\xA9");
    assert_int_equal(left_out, 0);
}

/* utf8_encode() writes what utf8_decode() reads back. */
static void test_encode_decode_round_trip(void **state)
{
    (void)state;
    unsigned codes[] = {0x41, 0x7F, 0x80, 0xE9, 0x7FF, 0x800, 0x2603, 0xFFFD, 0x10000, 0x10FFFF};
    for (size_t i = 0; i < sizeof codes / sizeof codes[0]; i++) {
        char text[5] = {0};
        size_t length = utf8_encode(codes[i], text);
        unsigned code;
        assert_int_equal(utf8_decode(text, &code), (int)length);
        assert_int_equal(code, codes[i]);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_utf8_characters_taken),
        cmocka_unit_test(test_stray_latin1_byte_left_out_in_utf8),
        cmocka_unit_test(test_malformed_utf8_left_out),
        cmocka_unit_test(test_control_character_left_out),
        cmocka_unit_test(test_c_locale_reads_utf8),
        cmocka_unit_test(test_latin1_locale_given_as_utf8),
        cmocka_unit_test(test_encode_decode_round_trip),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
