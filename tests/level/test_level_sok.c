/* test_level_sok.c - the SOK format as YASC and JSoko write it, levels that cannot be played,
 * and the parser's cost on large files (src/level/level.c, src/level/level_lines.c, src/level/textfile.c). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cmocka.h>

#include "level/level.h"
#include "level_round_trip.h"

static void parse_ok(const char *text, collection *c)
{
    level_error error;
    if (!collection_parse(text, strlen(text), "test.sok", c, &error))
        fail_msg("rejected: %s", error.message);
}

/* ---------------------------------------------------------------- the SOK header */

static const char yasc_file[] = "::::::::::::::::::::::::::::::::::::::::::::::::::::::::::::\n"
                                "::        Sokoban (c) by Falcon Co., Ltd., Japan        ::\n"
                                "::::::::::::::::::::::::::::::::::::::::::::::::::::::::::::\n"
                                "::                    File Format 0.20                   ::\n"
                                "::::::::::::::::::::::::::::::::::::::::::::::::::::::::::::\n"
                                "\n"
                                "Title: Little Ones\n"
                                "Author: Ann Example\n"
                                "Collection: Little Ones Collection\n"
                                "A few small levels.\n"
                                "\n"
                                "First\n"
                                "\n"
                                "#####\n"
                                "#@$.#\n"
                                "#####\n"
                                "Comment:\n"
                                "Push right.\n"
                                "Comment-End:\n"
                                "\n"
                                "Solution (moves 2, pushes 1)\n"
                                "rR\n"
                                "\n"
                                "Second\n"
                                "\n"
                                "######\n"
                                "#@ $.#\n"
                                "######\n"
                                "Author: Bob Other\n"
                                "\n"
                                "Solution/Moves\n"
                                "r\n"
                                "R\n"
                                "Save\n"
                                "r\n";

static void test_banner_lines_are_never_shown(void **state)
{
    (void)state;
    collection c;
    parse_ok(yasc_file, &c);
    assert_int_equal(c.count, 2);
    for (int i = 0; i < c.count; i++) {
        assert_null(strstr(c.levels[i].comment, "::"));
        assert_null(strstr(c.levels[i].title, "::"));
    }
    assert_null(strstr(c.comment, "::"));
    collection_free(&c);
}

static void test_collection_field_names_the_collection(void **state)
{
    (void)state;
    collection c;
    parse_ok(yasc_file, &c);
    assert_string_equal(c.name, "Little Ones Collection");
    assert_string_equal(c.path, "test.sok");
    collection_free(&c);
}

static void test_header_title_names_the_collection_without_a_collection_field(void **state)
{
    (void)state;
    collection c;
    parse_ok(":: banner\n\nTitle: Header Title\n\n; Level One\n\n#####\n#@$.#\n#####\n", &c);
    assert_string_equal(c.name, "Header Title");
    assert_string_equal(c.levels[0].title, "Level One");
    collection_free(&c);
}

static void test_header_title_is_not_level_one_title(void **state)
{
    (void)state;
    collection c;
    parse_ok(yasc_file, &c);
    assert_string_equal(c.levels[0].title, "First");
    assert_string_equal(c.levels[1].title, "Second");
    collection_free(&c);
}

static void test_level_title_field_below_the_map_wins_over_the_header(void **state)
{
    (void)state;
    collection c;
    parse_ok("::::\n:: SOK ::\n::::\nTitle: The File\nCollection: Set\n\n#####\n#@$.#\n#####\n"
             "Title: Own Title\n",
             &c);
    assert_string_equal(c.levels[0].title, "Own Title");
    assert_string_equal(c.name, "Set");
    assert_string_equal(c.levels[0].comment, "");
    collection_free(&c);
}

static void test_header_author_is_the_default_author(void **state)
{
    (void)state;
    collection c;
    parse_ok(yasc_file, &c);
    assert_string_equal(c.author, "Ann Example");
    assert_string_equal(c.levels[0].author, "Ann Example");
    assert_string_equal(c.levels[1].author, "Bob Other");
    collection_free(&c);
}

static void test_header_notes_are_the_collection_comment(void **state)
{
    (void)state;
    collection c;
    parse_ok(yasc_file, &c);
    assert_string_equal(c.comment, "A few small levels.");
    assert_string_equal(c.levels[0].comment, "Push right.");
    collection_free(&c);
}

/* ---------------------------------------------------------------- solutions */

static void test_solution_sections_are_kept_as_imported_solutions(void **state)
{
    (void)state;
    collection c;
    parse_ok(yasc_file, &c);
    assert_int_equal(c.levels[0].solution_count, 1);
    assert_string_equal(c.levels[0].solutions[0].title, "Solution (moves 2, pushes 1)");
    assert_string_equal(c.levels[0].solutions[0].moves, "rR");
    assert_int_equal(c.levels[1].solution_count, 2);
    assert_string_equal(c.levels[1].solutions[0].moves, "rR");
    assert_string_equal(c.levels[1].solutions[1].title, "Save");
    collection_free(&c);
}

static void test_solution_is_never_drawn_as_the_next_level_comment(void **state)
{
    (void)state;
    collection c;
    parse_ok(yasc_file, &c);
    assert_null(strstr(c.levels[1].comment, "Solution"));
    assert_null(strstr(c.levels[1].comment, "rR"));
    assert_string_equal(c.levels[1].comment, "");
    collection_free(&c);
}

/* As this program's own export writes them (solutions.h): the notes after the moves are the
 * solution's, not the next level's comment. */
static void test_solution_notes_are_not_the_next_level_comment(void **state)
{
    (void)state;
    collection c;
    parse_ok("; One\n#####\n#@$.#\n#####\n\nSolution (moves 1, pushes 1)\nR\n"
             "Program: sokoban 0.1.0\nOrigin: own\n\n; Two\n######\n#@ $.#\n######\n",
             &c);
    assert_int_equal(c.levels[0].solution_count, 1);
    assert_string_equal(c.levels[1].comment, "");
    assert_string_equal(c.levels[1].title, "Two");
    collection_free(&c);
}

/* A section that is no solution is not drawn either, as the next level's comment or at all;
 * a title that begins with the word stays a title. */
static void test_a_solution_section_that_is_no_solution_is_never_drawn(void **state)
{
    (void)state;
    collection c;
    parse_ok("; One\n#####\n#@$.#\n#####\n\nSolution\nSECRETRUN\n\n"
             "; Two\n######\n#@ $.#\n######\n\nSave the day\n######\n#@$ .#\n######\n",
             &c);
    assert_int_equal(c.levels[0].solution_count, 0);
    assert_null(strstr(c.levels[1].comment, "SECRETRUN"));
    assert_null(strstr(c.levels[1].comment, "Solution"));
    assert_string_equal(c.levels[1].comment, "");
    assert_string_equal(c.levels[1].title, "Two");
    assert_string_equal(c.levels[2].title, "Save the day");
    collection_free(&c);
}

static void test_title_made_of_move_letters_is_still_a_title(void **state)
{
    (void)state;
    collection c;
    parse_ok("; Dull\n#####\n#@$.#\n#####\n\nDull\n\n######\n#@ $.#\n######\n", &c);
    assert_string_equal(c.levels[1].title, "Dull");
    assert_int_equal(c.levels[0].solution_count, 0);
    collection_free(&c);
}

/* ---------------------------------------------------------------- bad levels */

static const char one_bad_of_three[] = "; One\n#####\n#@$.#\n#####\n\n"
                                       "; Twins\n######\n#@$.@#\n######\n\n"
                                       "; Three\n######\n#@ $.#\n######\n";

static void test_bad_level_keeps_its_place_and_the_others_load(void **state)
{
    (void)state;
    collection c;
    parse_ok(one_bad_of_three, &c);
    assert_int_equal(c.count, 3);
    assert_int_equal(c.bad_count, 1);
    assert_null(c.levels[0].error);
    assert_non_null(c.levels[1].error);
    assert_null(c.levels[2].error);
    assert_string_equal(c.levels[2].title, "Three");
    assert_int_equal(c.levels[2].number, 3);
    assert_int_equal(c.levels[2].width, 6);
    collection_free(&c);
}

static void test_bad_level_names_its_line_and_reason(void **state)
{
    (void)state;
    collection c;
    parse_ok(one_bad_of_three, &c);
    const level *bad = collection_first_bad(&c);
    assert_ptr_equal(bad, &c.levels[1]);
    assert_string_equal(bad->problem, "line 8: two players (one only, '@' or '+')");
    assert_string_equal(bad->error,
                        "test.sok: level 2 (Twins), line 8: two players (one only, '@' or '+')");
    assert_null(bad->squares);
    assert_int_equal(bad->width, 0);
    collection_free(&c);
}

/* A level that cannot be played keeps its rows as drawn, for the editor to open and mend;
 * one that can keeps none. */
static void test_bad_level_keeps_its_drawing(void **state)
{
    (void)state;
    collection c;
    parse_ok(one_bad_of_three, &c);
    const level *bad = &c.levels[1];
    assert_non_null(bad->drawn);
    assert_int_equal(bad->drawn_width, 6);
    assert_int_equal(bad->drawn_height, 3);
    assert_memory_equal(bad->drawn, "#######@$.@#######", 18);
    assert_null(c.levels[0].drawn);
    collection_free(&c);
}

static void test_damaged_row_is_a_bad_level_not_the_end_of_the_file(void **state)
{
    (void)state;
    collection c;
    parse_ok("; A\n#####\n#@$x#\n#.  #\n#####\n\n; B\n#####\n#@$.#\n#####\n", &c);
    assert_int_equal(c.count, 2);
    assert_non_null(c.levels[0].error);
    assert_non_null(strstr(c.levels[0].problem, "unknown character 'x'"));
    assert_null(c.levels[1].error);
    collection_free(&c);
}

static void test_every_level_bad_is_still_a_collection(void **state)
{
    (void)state;
    collection c;
    parse_ok("#####\n#@ .#\n#####\n", &c);
    assert_int_equal(c.count, 1);
    assert_int_equal(c.bad_count, 1);
    collection_free(&c);
}

/* ---------------------------------------------------------------- encodings */

static void test_latin1_title_is_converted_to_utf8(void **state)
{
    (void)state;
    collection c;
    parse_ok("; Caf\xE9\n#####\n#@$.#\n#####\nAuthor: Ren\xE9\n", &c);
    assert_string_equal(c.levels[0].title, "Caf\xC3\xA9");
    assert_string_equal(c.levels[0].author, "Ren\xC3\xA9");
    collection_free(&c);
}

static void test_utf8_title_is_kept_as_it_is(void **state)
{
    (void)state;
    collection c;
    parse_ok("; \xE5\x80\x89\xE5\xBA\xAB\n#####\n#@$.#\n#####\n", &c);
    assert_string_equal(c.levels[0].title, "\xE5\x80\x89\xE5\xBA\xAB");
    collection_free(&c);
}

/* ---------------------------------------------------------------- cost */

static const char small_level[] = "; t\n#####\n#@$.#\n#####\n";

/* 100,000 one-line "Comment: x" fields after a level: each used to rescan the rest of the
 * file for a Comment-End, and the comment was measured and reallocated per line (20,000
 * took 12 s, 100,000 did not end in 130 s). Linear now: this test's meson timeout is the
 * check. */
static void test_hundred_thousand_comment_lines_load(void **state)
{
    (void)state;
    enum { COUNT = 100000 };
    size_t length = sizeof small_level - 1 + COUNT * sizeof "Comment: x\n";
    char *text = malloc(length + 1);
    assert_non_null(text);
    char *out = text + sprintf(text, "%s", small_level);
    for (int i = 0; i < COUNT; i++) out += sprintf(out, "Comment: x\n");
    collection c;
    level_error error;
    if (!collection_parse(text, (size_t)(out - text), "comments.xsb", &c, &error))
        fail_msg("%s", error.message);
    assert_int_equal(c.count, 1);
    assert_int_equal(strlen(c.levels[0].comment), 2 * COUNT - 1);
    collection_free(&c);
    free(text);
}

/* Runs collection_load on `path` in a child and returns the child's peak resident memory
 * in KiB (getrusage), or -1 when the load failed. */
static long peak_kib_of_loading(const char *path)
{
    pid_t child = fork();
    assert_true(child >= 0);
    if (child == 0) {
        collection c;
        level_error error;
        _exit(collection_load(path, &c, &error) && c.count == 1 ? 0 : 1);
    }
    int status;
    struct rusage usage;
    assert_true(wait4(child, &status, 0, &usage) == child);
    if (!WIFEXITED(status) || WEXITSTATUS(status) != 0) return -1;
    return usage.ru_maxrss;
}

#if defined(__SANITIZE_ADDRESS__)
#define UNDER_SANITIZER 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define UNDER_SANITIZER 1
#endif
#endif

/* A 64 MiB file of newlines after a level took 1.64 GB to load (24 bytes a line, the read
 * buffer doubled to 128 MiB). A run of blank lines is one entry now and the file is read
 * into a block of its size: the peak must stay under twice the file's size. */
static void test_file_of_newlines_loads_in_twice_its_size(void **state)
{
    (void)state;
#ifdef UNDER_SANITIZER
    skip(); /* the sanitizer's shadow memory is no part of the bound */
#endif
    enum { SIZE = 64 << 20 };
    char path[] = "/tmp/sokoban-newlines-XXXXXX";
    int fd = mkstemp(path);
    assert_true(fd >= 0);
    FILE *file = fdopen(fd, "w");
    fputs(small_level, file);
    for (long i = (long)sizeof small_level - 1; i < SIZE; i++) putc('\n', file);
    fclose(file);
    long peak = peak_kib_of_loading(path);
    unlink(path);
    assert_true(peak > 0);
    print_message("peak %ld KiB for a %d KiB file\n", peak, SIZE >> 10);
    assert_true(peak < 2 * (SIZE >> 10));
}

static void test_file_over_the_size_limit_is_refused_with_the_limit(void **state)
{
    (void)state;
    char path[] = "/tmp/sokoban-large-XXXXXX";
    int fd = mkstemp(path);
    assert_true(fd >= 0);
    assert_int_equal(ftruncate(fd, (off_t)LEVEL_MAX_FILE_BYTES + 1), 0);
    close(fd);
    collection c;
    level_error error;
    assert_false(collection_load(path, &c, &error));
    unlink(path);
    assert_non_null(strstr(error.message, "too large a file (more than 64 MiB)"));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_banner_lines_are_never_shown),
        cmocka_unit_test(test_collection_field_names_the_collection),
        cmocka_unit_test(test_header_title_names_the_collection_without_a_collection_field),
        cmocka_unit_test(test_header_title_is_not_level_one_title),
        cmocka_unit_test(test_level_title_field_below_the_map_wins_over_the_header),
        cmocka_unit_test(test_header_author_is_the_default_author),
        cmocka_unit_test(test_header_notes_are_the_collection_comment),
        cmocka_unit_test(test_solution_sections_are_kept_as_imported_solutions),
        cmocka_unit_test(test_solution_is_never_drawn_as_the_next_level_comment),
        cmocka_unit_test(test_solution_notes_are_not_the_next_level_comment),
        cmocka_unit_test(test_a_solution_section_that_is_no_solution_is_never_drawn),
        cmocka_unit_test(test_title_made_of_move_letters_is_still_a_title),
        cmocka_unit_test(test_bad_level_keeps_its_place_and_the_others_load),
        cmocka_unit_test(test_bad_level_names_its_line_and_reason),
        cmocka_unit_test(test_bad_level_keeps_its_drawing),
        cmocka_unit_test(test_damaged_row_is_a_bad_level_not_the_end_of_the_file),
        cmocka_unit_test(test_every_level_bad_is_still_a_collection),
        cmocka_unit_test(test_latin1_title_is_converted_to_utf8),
        cmocka_unit_test(test_utf8_title_is_kept_as_it_is),
        cmocka_unit_test(test_hundred_thousand_comment_lines_load),
        cmocka_unit_test(test_file_of_newlines_loads_in_twice_its_size),
        cmocka_unit_test(test_file_over_the_size_limit_is_refused_with_the_limit),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
