/* test_wrap.c - text broken into lines at spaces, by display width (src/tui/wrap.c). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h>

#include "level/utf8.h"
#include "tui/wrap.h"

/* The text wrapped to `columns`, its lines joined by '|'. */
static const char *wrapped(const char *text, int columns)
{
    static char out[1024];
    size_t length = strlen(text), n = 0;
    out[0] = '\0';
    text += wrap_skip_spaces(text, length);
    length = strlen(text);
    while (length > 0) {
        size_t piece = wrap_line(text, length, columns);
        if (n) out[n++] = '|';
        memcpy(out + n, text, piece);
        n += piece;
        text += piece;
        length -= piece;
        size_t spaces = wrap_skip_spaces(text, length);
        text += spaces;
        length -= spaces;
    }
    out[n] = '\0';
    return out;
}

/* The words of the line that has the fewest. */
static int fewest_words(const char *lines)
{
    int fewest = 1000, words = 0;
    for (const char *c = lines;; c++) {
        if (c == lines || c[-1] == ' ' || c[-1] == '|') words += *c && *c != ' ' && *c != '|';
        if (*c == '|' || !*c) {
            if (words < fewest) fewest = words;
            words = 0;
        }
        if (!*c) return fewest;
    }
}

static void test_a_line_breaks_at_the_last_space_that_fits(void **state)
{
    (void)state;
    assert_string_equal(wrapped("push the marked box", 10), "push the|marked box");
    assert_string_equal(wrapped("push the marked box", 19), "push the marked box");
    assert_string_equal(wrapped("push the marked box", 8), "push the|marked|box");
}

static void test_a_word_longer_than_the_line_is_cut(void **state)
{
    (void)state;
    assert_string_equal(wrapped("unsolvable now", 5), "unsol|vable|now");
    assert_string_equal(wrapped("ab", 1), "a|b");
}

static void test_width_is_counted_in_columns_not_bytes(void **state)
{
    (void)state;
    /* "é" is two bytes and one column; "漢" three bytes and two columns */
    assert_string_equal(wrapped("café au lait", 7), "café au|lait");
    assert_string_equal(wrapped("漢字 漢字", 5), "漢字|漢字");
    assert_int_equal(wrap_count("漢字 漢字", strlen("漢字 漢字"), 9), 1);
}

static void test_count_of_lines(void **state)
{
    (void)state;
    assert_int_equal(wrap_count("", 0, 10), 0);
    assert_int_equal(wrap_count("   ", 3, 10), 0);
    assert_int_equal(wrap_count("push the marked box", 19, 10), 2);
    assert_int_equal(wrap_count("push the marked box", 19, 80), 1);
    /* only the `length` bytes count */
    assert_int_equal(wrap_count("push the marked box", 8, 10), 1);
}

/* The tutorial's fourth lesson, 103 columns: at 78 it would leave two words on the second
 * line; balanced, both lines are about as long. */
static void test_balanced_lines_leave_no_word_alone(void **state)
{
    (void)state;
    const char *lesson = "A box pushed against a wall can only slide along it; if there is no "
                         "goal on that wall, the box is lost.";
    size_t length = strlen(lesson);
    int width = wrap_balanced(lesson, length, 78);
    assert_int_equal(wrap_count(lesson, length, width), 2);
    assert_true(width < 60);
    assert_true(width >= 52);
    assert_true(fewest_words(wrapped(lesson, width)) >= 8);
    /* the greedy wrap at 80 columns leaves "square." alone; balanced it does not */
    const char *corner = "A box pushed into a corner can never come out. Press D to see every "
                         "dead square.";
    assert_int_equal(fewest_words(wrapped(corner, 78)), 1);
    assert_true(fewest_words(wrapped(corner, wrap_balanced(corner, strlen(corner), 78))) >= 6);
}

static void test_balanced_width_of_a_line_that_fits_is_its_own(void **state)
{
    (void)state;
    assert_int_equal(wrap_balanced("push the box", 12, 40), 12);
    assert_int_equal(wrap_balanced("", 0, 40), 1);
}

/* The text shortened to `columns` with room for a three-column mark, and the mark. */
static const char *shortened(const char *text, int columns)
{
    static char out[256];
    size_t keep = wrap_shorten(text, strlen(text), columns, 3);
    snprintf(out, sizeof out, "%.*s%s", (int)keep, text, keep < strlen(text) ? "..." : "");
    return out;
}

/* A title or a row too long for its line loses whole words, never part of one, and the
 * punctuation left hanging before the cut. */
static void test_a_shortened_line_keeps_whole_words(void **state)
{
    (void)state;
    assert_string_equal(shortened("Push from the other side", 40), "Push from the other side");
    assert_string_equal(shortened("Push from the other side", 24), "Push from the other side");
    assert_string_equal(shortened("Push from the other side", 23), "Push from the other...");
    assert_string_equal(shortened("Push from the other side", 16), "Push from the...");
    assert_string_equal(shortened("Twins: cannot be played", 15), "Twins...");
    assert_string_equal(shortened(" tutorial 1/8: First push", 18), " tutorial 1/8...");
    assert_string_equal(shortened("Extraordinarily", 8), "Extra...");
    assert_string_equal(shortened("\xe2\x9c\x97 Twins: cannot be played", 12),
                        "\xe2\x9c\x97 Twins...");
    assert_int_equal(wrap_shorten("abc def", 7, 2, 3), 0);
}

/* A tab in a level's title is shown as a space (utf8.h): words part there too. */
static void test_a_tab_parts_words_as_a_space_does(void **state)
{
    (void)state;
    assert_string_equal(shortened("Push\tfrom\tthe other side", 16), "Push\tfrom\tthe...");
    assert_string_equal(shortened("Push\t\tfrom", 9), "Push...");
    assert_int_equal(wrap_line("push\tthe box", 13, 7), 4);
    assert_int_equal(wrap_skip_spaces("\t x", 3), 2);
}

/* At every width from none to a dozen columns, with a mark of one column ("…", three
 * bytes) or three ("..."), whatever the characters (none, wide, combining, the mark's own):
 * the text is whole when it fits, else what is kept and the mark fit the columns, cut
 * between whole characters (a combining accent stays with its letter). */
static void test_a_shortened_line_and_its_mark_fit_any_width(void **state)
{
    (void)state;
    static const char *const texts[] = {
        "",
        " ",
        "a",
        "ab cd",
        "\xe2\x9c\x97 Twins: cannot be played",
        "\xe5\x80\x89\xe5\xba\xab \xe7\x95\xaa ab", /* two wide, one wide, "ab" */
        "Cafe\xcc\x81 cafe\xcc\x81",                /* combining acute accents */
        "\xe2\x80\xa6\xe2\x80\xa6 x",
        "  leading",
        " :,;-( x",
        "Extraordinarily"};
    for (size_t t = 0; t < sizeof texts / sizeof *texts; t++)
        for (int mark = 1; mark <= 3; mark += 2)
            for (int columns = -1; columns <= 12; columns++) {
                const char *text = texts[t];
                size_t length = strlen(text), keep = wrap_shorten(text, length, columns, mark);
                char kept[64];
                snprintf(kept, sizeof kept, "%.*s", (int)keep, text);
                if (utf8_width(text) <= (columns > 0 ? columns : 0)) {
                    assert_int_equal(keep, length);
                    continue;
                }
                assert_true(keep < length);
                if (keep > 0) assert_true(utf8_width(kept) + mark <= columns);
                assert_true((text[keep] & 0xC0) != 0x80); /* not inside a character */
                unsigned code;
                utf8_decode(text + keep, &code);
                assert_true(utf8_char_width(code) > 0); /* no accent left without its letter */
            }
}

/* Lines joined into one: a break is one space, a blank line none, none at the start, and
 * the spaces of a line kept. */
static void test_lines_are_joined_by_one_space(void **state)
{
    (void)state;
    char out[64];
    wrap_join_lines("wrap here.\n\nAfter a blank", out, sizeof out);
    assert_string_equal(out, "wrap here. After a blank");
    wrap_join_lines("\nAfter  two\nlines", out, sizeof out);
    assert_string_equal(out, "After  two lines");
    wrap_join_lines("ends with a space \nnext", out, sizeof out);
    assert_string_equal(out, "ends with a space next");
    wrap_join_lines("abcdef", out, 4); /* cut at the size */
    assert_string_equal(out, "abc");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_a_line_breaks_at_the_last_space_that_fits),
        cmocka_unit_test(test_a_word_longer_than_the_line_is_cut),
        cmocka_unit_test(test_width_is_counted_in_columns_not_bytes),
        cmocka_unit_test(test_count_of_lines),
        cmocka_unit_test(test_balanced_lines_leave_no_word_alone),
        cmocka_unit_test(test_balanced_width_of_a_line_that_fits_is_its_own),
        cmocka_unit_test(test_a_shortened_line_keeps_whole_words),
        cmocka_unit_test(test_a_tab_parts_words_as_a_space_does),
        cmocka_unit_test(test_a_shortened_line_and_its_mark_fit_any_width),
        cmocka_unit_test(test_lines_are_joined_by_one_space),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
