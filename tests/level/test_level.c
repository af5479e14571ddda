/* test_level.c - the level parser and writer (src/level/level.c): every feature of the XSB text
 * format, every class of bad input, and the round trip through level_to_text. */
#include <dirent.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>

#include <cmocka.h>

#include "level/level.h"
#include "level_round_trip.h"
#include "rules/lurd.h"

/* ---------------------------------------------------------------- helpers */

/* Parses `text` and fails the test, showing the parser's message, unless it is accepted. */
static void parse_ok(const char *text, collection *c)
{
    level_error error;
    bool ok = collection_parse(text, strlen(text), "test.xsb", c, &error);
    if (!ok) fail_msg("rejected: %s", error.message);
}

/* Parses `length` bytes whose first level cannot be played, or which are refused as a
 * whole; returns the message (the level's, or the file's). */
static const char *parse_error_bytes(const char *text, size_t length)
{
    static level_error error;
    collection c;
    bool ok = collection_parse(text, length, "test.xsb", &c, &error);
    if (ok) {
        const level *bad = collection_first_bad(&c);
        if (!bad) {
            collection_free(&c);
            fail_msg("accepted, but should be rejected:\n%s", text);
        }
        assert_null(bad->squares);
        assert_non_null(bad->problem);
        snprintf(error.message, sizeof error.message, "%s", bad->error);
        collection_free(&c);
        return error.message;
    }
    assert_null(c.levels);
    assert_int_equal(c.count, 0);
    return error.message;
}

static const char *parse_error(const char *text)
{
    return parse_error_bytes(text, strlen(text));
}

/* Fails unless `message` contains `part`. */
static void assert_mentions(const char *message, const char *part)
{
    if (!strstr(message, part)) fail_msg("\"%s\" does not mention \"%s\"", message, part);
}

/* The map rows of a level as one string, rows ended by '\n', trailing floor kept. */
static char *map_of(const level *lv)
{
    char *text = malloc((size_t)(lv->width + 1) * (size_t)lv->height + 1);
    char *out = text;
    for (int y = 0; y < lv->height; y++) {
        for (int x = 0; x < lv->width; x++) *out++ = level_square(lv, x, y);
        *out++ = '\n';
    }
    *out = '\0';
    return text;
}

static void assert_map(const level *lv, const char *expected)
{
    char *map = map_of(lv);
    assert_string_equal(map, expected);
    free(map);
}

/* ---------------------------------------------------------------- squares */

static void test_every_square_character_is_read(void **state)
{
    (void)state;
    collection c;
    parse_ok("#######\n"
             "#@$. *#\n"
             "#-_  .#\n"
             "#$    #\n"
             "#######\n",
             &c);
    assert_int_equal(c.count, 1);
    const level *lv = &c.levels[0];
    assert_int_equal(lv->width, 7);
    assert_int_equal(lv->height, 5);
    assert_map(lv, "#######\n"
                   "#@$. *#\n"
                   "#    .#\n"
                   "#$    #\n"
                   "#######\n");
    collection_free(&c);
}

static void test_player_on_goal_is_read(void **state)
{
    (void)state;
    collection c;
    parse_ok("#####\n#+$ #\n#####\n", &c);
    assert_int_equal(level_square(&c.levels[0], 1, 1), LEVEL_PLAYER_ON_GOAL);
    collection_free(&c);
}

static void test_shorter_rows_are_padded_with_floor(void **state)
{
    (void)state;
    collection c;
    parse_ok("  ####\n"
             "###  #\n"
             "#@$.#\n"
             "#####\n",
             &c);
    const level *lv = &c.levels[0];
    assert_int_equal(lv->width, 6);
    assert_map(lv, "  ####\n"
                   "###  #\n"
                   "#@$.# \n"
                   "##### \n");
    collection_free(&c);
}

static void test_run_length_counts_repeat_the_square_after_them(void **state)
{
    (void)state;
    collection c;
    parse_ok("8#\n#@2-$.-#\n#3 $.-#\n8#\n", &c);
    assert_map(&c.levels[0], "########\n"
                             "#@  $. #\n"
                             "#   $. #\n"
                             "########\n");
    collection_free(&c);
}

static void test_counts_of_more_than_one_digit_are_read(void **state)
{
    (void)state;
    collection c;
    parse_ok("12#\n#@$.7-#\n12#\n", &c);
    assert_int_equal(c.levels[0].width, 12);
    collection_free(&c);
}

static void test_bar_joins_rows(void **state)
{
    (void)state;
    collection c;
    parse_ok("5#|#@$.#|5#\n", &c);
    const level *lv = &c.levels[0];
    assert_int_equal(lv->height, 3);
    assert_map(lv, "#####\n#@$.#\n#####\n");
    assert_int_equal(lv->first_line, 1);
    collection_free(&c);
}

static void test_bar_rows_mix_with_plain_rows(void **state)
{
    (void)state;
    collection c;
    parse_ok("#####|#@ .#\n#$  #|#####\n", &c);
    assert_int_equal(c.levels[0].height, 4);
    collection_free(&c);
}

static void test_floor_outside_the_walls_is_cleared(void **state)
{
    (void)state;
    collection c;
    parse_ok("--#####\n"
             "__#@$.#\n"
             "--#####\n",
             &c);
    assert_map(&c.levels[0], "  #####\n"
                             "  #@$.#\n"
                             "  #####\n");
    collection_free(&c);
}

static void test_box_on_goal_outside_the_walls_stays_as_decoration(void **state)
{
    (void)state;
    collection c;
    parse_ok("#####  ###\n"
             "#@$.#  #*#\n"
             "#####  ###\n",
             &c);
    assert_int_equal(level_square(&c.levels[0], 8, 1), LEVEL_BOX_ON_GOAL);
    collection_free(&c);
}

/* A fuzzing find: a row ending in '-' made the level one square wider, and the written
 * level (which drops trailing floor) read back narrower. */
static void test_trailing_floor_does_not_widen_the_level(void **state)
{
    (void)state;
    collection c;
    parse_ok("#####--\n#@$.#-\n#####\n", &c);
    assert_int_equal(c.levels[0].width, 5);
    collection_free(&c);
}

/* Rows of nothing but floor ("5#|#@$.#|5#|" ends with one) are not part of the map. */
static void test_empty_rows_from_bars_are_dropped(void **state)
{
    (void)state;
    collection c;
    parse_ok("---|5#|#@$.#|5#|\n", &c);
    assert_int_equal(c.levels[0].height, 3);
    assert_map(&c.levels[0], "#####\n#@$.#\n#####\n");
    collection_free(&c);
}

static void test_largest_level_is_accepted(void **state)
{
    (void)state;
    /* 100 x 100: a wall ring, the player, one box and one goal */
    size_t capacity = 100 * 16 + 1;
    char *text = malloc(capacity);
    char *out = text;
    out += sprintf(out, "100#\n#@$.95-#\n");
    for (int y = 2; y < 99; y++) out += sprintf(out, "#98-#\n");
    sprintf(out, "100#\n");
    collection c;
    parse_ok(text, &c);
    assert_int_equal(c.levels[0].width, 100);
    assert_int_equal(c.levels[0].height, 100);
    collection_free(&c);
    free(text);
}

/* ---------------------------------------------------------------- files of many levels */

static void test_levels_separated_by_blank_lines_are_all_read(void **state)
{
    (void)state;
    collection c;
    parse_ok("#####\n#@$.#\n#####\n"
             "\n"
             "######\n#@$$..#\n######\n"
             "\n\n"
             "#####\n#.$@#\n#####\n",
             &c);
    assert_int_equal(c.count, 3);
    for (int i = 0; i < 3; i++) assert_int_equal(c.levels[i].number, i + 1);
    assert_int_equal(c.levels[1].width, 7);
    assert_int_equal(level_square(&c.levels[2], 3, 1), LEVEL_PLAYER);
    collection_free(&c);
}

static void test_levels_separated_by_text_lines_are_all_read(void **state)
{
    (void)state;
    collection c;
    parse_ok("Level one\n#####\n#@$.#\n#####\nLevel two\n#####\n#.$@#\n#####\n", &c);
    assert_int_equal(c.count, 2);
    assert_string_equal(c.levels[0].title, "Level one");
    assert_string_equal(c.levels[1].title, "Level two");
    collection_free(&c);
}

static void test_first_line_is_the_line_of_the_first_map_row(void **state)
{
    (void)state;
    collection c;
    parse_ok("; 1\n\n#####\n#@$.#\n#####\n\n; 2\n\n#####\n#.$@#\n#####\n", &c);
    assert_int_equal(c.levels[0].first_line, 3);
    assert_int_equal(c.levels[1].first_line, 9);
    collection_free(&c);
}

static void test_single_level_without_any_text_is_read(void **state)
{
    (void)state;
    /* as XSokoban's screen.12: the map and nothing else */
    collection c;
    parse_ok("    #####\n    #   #\n    #$  #\n  ###  $##\n  #  $ $ #\n### # ## #   ######\n"
             "#   # ## #####  ..#\n# $  $          ..#\n##### ### #@##  ..#\n"
             "    #     #########\n    #######\n",
             &c);
    assert_int_equal(c.count, 1);
    assert_string_equal(c.levels[0].title, "");
    assert_string_equal(c.levels[0].author, "");
    assert_string_equal(c.levels[0].comment, "");
    assert_int_equal(c.levels[0].width, 19);
    assert_int_equal(c.levels[0].height, 11);
    collection_free(&c);
}

/* ---------------------------------------------------------------- titles and comments */

static void test_semicolon_line_gives_the_title(void **state)
{
    (void)state;
    collection c;
    parse_ok("; 12\n\n#####\n#@$.#\n#####\n", &c);
    assert_string_equal(c.levels[0].title, "12");
    collection_free(&c);
}

static void test_plain_text_line_gives_the_title(void **state)
{
    (void)state;
    collection c;
    parse_ok("The first one\n#####\n#@$.#\n#####\n", &c);
    assert_string_equal(c.levels[0].title, "The first one");
    collection_free(&c);
}

/* A fuzzing find: "\t  Indented" was kept with its blanks, and written back as
 * "; \t  Indented", which reads back without them. */
static void test_title_from_an_indented_text_line_loses_its_blanks(void **state)
{
    (void)state;
    collection c;
    parse_ok("\t  Indented\n#####\n#@$.#\n#####\n", &c);
    assert_string_equal(c.levels[0].title, "Indented");
    collection_free(&c);
}

static void test_text_line_nearest_the_map_is_the_title_and_others_the_comment(void **state)
{
    (void)state;
    collection c;
    parse_ok("; made for a test\n; by hand\n\n; Title line\n#####\n#@$.#\n#####\n", &c);
    assert_string_equal(c.levels[0].title, "Title line");
    assert_string_equal(c.levels[0].comment, "made for a test\nby hand");
    collection_free(&c);
}

static void test_title_author_and_comment_fields_after_the_map(void **state)
{
    (void)state;
    collection c;
    parse_ok("#####\n#@$.#\n#####\n"
             "Title: Little\n"
             "Author: A. Person\n"
             "Comment:\n"
             "first line\n"
             "second line\n"
             "Comment-End:\n"
             "\n"
             "#####\n#.$@#\n#####\n"
             "Title: Second\n",
             &c);
    assert_int_equal(c.count, 2);
    assert_string_equal(c.levels[0].title, "Little");
    assert_string_equal(c.levels[0].author, "A. Person");
    assert_string_equal(c.levels[0].comment, "first line\nsecond line");
    assert_string_equal(c.levels[1].title, "Second");
    assert_string_equal(c.levels[1].author, "");
    collection_free(&c);
}

static void test_fields_before_the_map_are_read(void **state)
{
    (void)state;
    collection c;
    parse_ok("Title: Before\nAuthor: Someone\nComment: one line\n\n#####\n#@$.#\n#####\n", &c);
    assert_string_equal(c.levels[0].title, "Before");
    assert_string_equal(c.levels[0].author, "Someone");
    assert_string_equal(c.levels[0].comment, "one line");
    collection_free(&c);
}

static void test_title_field_wins_over_a_text_line(void **state)
{
    (void)state;
    collection c;
    parse_ok("; 7\nTitle: Named\n#####\n#@$.#\n#####\n", &c);
    assert_string_equal(c.levels[0].title, "Named");
    assert_string_equal(c.levels[0].comment, "7");
    collection_free(&c);
}

static void test_field_names_are_read_in_any_case(void **state)
{
    (void)state;
    collection c;
    parse_ok("#####\n#@$.#\n#####\nTITLE: Loud\nauthor: quiet\n", &c);
    assert_string_equal(c.levels[0].title, "Loud");
    assert_string_equal(c.levels[0].author, "quiet");
    collection_free(&c);
}

static void test_comment_block_keeps_its_blank_lines(void **state)
{
    (void)state;
    collection c;
    parse_ok("#####\n#@$.#\n#####\nComment:\none\n\nthree\nComment-End:\n", &c);
    assert_string_equal(c.levels[0].comment, "one\n\nthree");
    collection_free(&c);
}

/* "Comment: text" with no Comment-End: after it is a comment of one line; it used to
 * swallow every level after it. */
static void test_comment_field_without_an_end_is_one_line(void **state)
{
    (void)state;
    collection c;
    parse_ok("#####\n#@$.#\n#####\nComment: nice\n\n; 2\n#####\n#.$@#\n#####\n", &c);
    assert_int_equal(c.count, 2);
    assert_string_equal(c.levels[0].comment, "nice");
    assert_string_equal(c.levels[1].title, "2");
    collection_free(&c);
}

static void test_comment_end_after_the_next_map_does_not_close_an_earlier_comment(void **state)
{
    (void)state;
    collection c;
    parse_ok("; 1\n#####\n#@$.#\n#####\nComment: nice\n\n; 2\n#####\n#.$@#\n#####\n"
             "Comment:\nlate\nComment-End:\n",
             &c);
    assert_int_equal(c.count, 2);
    assert_string_equal(c.levels[0].comment, "nice");
    assert_string_equal(c.levels[1].comment, "late");
    collection_free(&c);
}

/* A fuzzing find: a bare Comment: block holding a line that looks like a map row ended
 * there, after the one-line comment fix. */
static void test_comment_block_may_hold_lines_that_look_like_map_rows(void **state)
{
    (void)state;
    collection c;
    parse_ok("#####\n#@$.#\n#####\nComment:\n#####\n#   #\nComment-End:\n", &c);
    assert_int_equal(c.count, 1);
    assert_string_equal(c.levels[0].comment, "#####\n#   #");
    collection_free(&c);
}

static void test_bare_comment_without_an_end_runs_to_the_end_of_the_file(void **state)
{
    (void)state;
    collection c;
    parse_ok("#####\n#@$.#\n#####\nComment:\none\n\n#####\n", &c);
    assert_int_equal(c.count, 1);
    assert_string_equal(c.levels[0].comment, "one\n\n#####");
    collection_free(&c);
}

static void test_comment_field_before_the_map_is_one_line_without_an_end(void **state)
{
    (void)state;
    collection c;
    parse_ok("Comment: short\n; Named\n#####\n#@$.#\n#####\n", &c);
    assert_string_equal(c.levels[0].comment, "short");
    assert_string_equal(c.levels[0].title, "Named");
    collection_free(&c);
}

/* When a Title: field after the map names the level, the text line above the map is
 * kept as comment, not lost. */
static void test_text_title_overridden_by_a_later_title_field_goes_to_the_comment(void **state)
{
    (void)state;
    collection c;
    parse_ok("; 12\n#####\n#@$.#\n#####\nTitle: Twelve\n", &c);
    assert_string_equal(c.levels[0].title, "Twelve");
    assert_string_equal(c.levels[0].comment, "12");
    collection_free(&c);
}

/* Fuzzing finds: a comment line "Comment_End: x" or "; Comment-End:" was kept as comment
 * text, and written back inside a Comment: block it ended the block early. */
static void test_stray_comment_end_line_is_not_comment_text(void **state)
{
    (void)state;
    collection c;
    parse_ok("Comment_End: x\nComment-End:\n; Title\n#####\n#@$.#\n#####\n", &c);
    assert_string_equal(c.levels[0].comment, "");
    collection_free(&c);
}

static void test_semicolon_comment_end_line_keeps_its_semicolon(void **state)
{
    (void)state;
    collection c;
    parse_ok("; Comment-End:\n; Title\n#####\n#@$.#\n#####\n", &c);
    assert_string_equal(c.levels[0].comment, "; Comment-End:");
    assert_level_round_trips(&c.levels[0], "test.xsb");
    collection_free(&c);
}

static void test_comment_field_whose_text_is_comment_end_keeps_its_whole_line(void **state)
{
    (void)state;
    collection c;
    parse_ok("#####\n#@$.#\n#####\nComment:Comment_End:\n", &c);
    assert_string_equal(c.levels[0].comment, "Comment:Comment_End:");
    assert_level_round_trips(&c.levels[0], "test.xsb");
    collection_free(&c);
}

static void test_other_fields_are_skipped(void **state)
{
    (void)state;
    collection c;
    parse_ok("Collection: Test\nDate: 2024\n; One\n#####\n#@$.#\n#####\n", &c);
    assert_string_equal(c.levels[0].title, "One");
    assert_string_equal(c.levels[0].comment, "");
    collection_free(&c);
}

/* ---------------------------------------------------------------- line ends and bytes */

static void test_crlf_line_ends_are_read(void **state)
{
    (void)state;
    collection c;
    parse_ok("; Windows\r\n\r\n#####\r\n#@$.#\r\n#####\r\n", &c);
    assert_string_equal(c.levels[0].title, "Windows");
    assert_map(&c.levels[0], "#####\n#@$.#\n#####\n");
    collection_free(&c);
}

static void test_tabs_expand_to_the_next_multiple_of_eight(void **state)
{
    (void)state;
    collection c;
    parse_ok("\t#####\n\t#@$.#\n\t#####\n", &c);
    const level *lv = &c.levels[0];
    assert_int_equal(lv->width, 13);
    assert_int_equal(level_square(lv, 8, 0), LEVEL_WALL);
    assert_int_equal(level_square(lv, 9, 1), LEVEL_PLAYER);
    collection_free(&c);
}

static void test_trailing_spaces_and_tabs_are_ignored(void **state)
{
    (void)state;
    collection c;
    parse_ok("; Spaces   \n#####   \n#@$.# \t\n#####\t\n", &c);
    assert_string_equal(c.levels[0].title, "Spaces");
    assert_int_equal(c.levels[0].width, 5);
    collection_free(&c);
}

static void test_missing_final_newline_is_fine(void **state)
{
    (void)state;
    collection c;
    parse_ok("#####\n#@$.#\n#####", &c);
    assert_int_equal(c.levels[0].height, 3);
    collection_free(&c);
}

static void test_utf8_byte_order_mark_is_skipped(void **state)
{
    (void)state;
    collection c;
    parse_ok("\xEF\xBB\xBF; Marked\n#####\n#@$.#\n#####\n", &c);
    assert_string_equal(c.levels[0].title, "Marked");
    collection_free(&c);
}

static void test_utf8_in_titles_is_kept(void **state)
{
    (void)state;
    collection c;
    parse_ok("; Caf\xC3\xA9\n#####\n#@$.#\n#####\n", &c);
    assert_string_equal(c.levels[0].title, "Caf\xC3\xA9");
    collection_free(&c);
}

/* ---------------------------------------------------------------- loading files */

static void test_load_reads_a_file_and_names_the_collection(void **state)
{
    (void)state;
    collection c;
    level_error error;
    bool ok = collection_load(TEST_LEVELS_DIR "/tutorial.xsb", &c, &error);
    if (!ok) fail_msg("%s", error.message);
    assert_int_equal(c.count, 8);
    assert_string_equal(c.name, "tutorial");
    assert_string_equal(c.path, TEST_LEVELS_DIR "/tutorial.xsb");
    collection_free(&c);
}

static void test_load_of_a_missing_file_names_it(void **state)
{
    (void)state;
    collection c;
    level_error error;
    assert_false(collection_load("/nonexistent/none.xsb", &c, &error));
    assert_mentions(error.message, "/nonexistent/none.xsb");
    assert_mentions(error.message, "cannot open");
}

/* ---------------------------------------------------------------- bad input */

static void test_no_player_is_an_error(void **state)
{
    (void)state;
    const char *message = parse_error("; Lost\n\n#####\n# $.#\n#####\n");
    assert_string_equal(message, "test.xsb: level 1 (Lost), line 3: no player");
}

static void test_two_players_is_an_error_on_the_second_ones_line(void **state)
{
    (void)state;
    const char *message = parse_error("; Twins\n#####\n#@$.#\n#@$.#\n#####\n");
    assert_string_equal(message,
                        "test.xsb: level 1 (Twins), line 4: two players (one only, '@' or '+')");
}

static void test_reason_leaves_out_the_control_characters_of_the_title(void **state)
{
    (void)state;
    /* a tab, a form feed and U+009B (a terminal's CSI) in the title: the reason is one line
     * for a terminal, the title as the screen shows it */
    const char *message = parse_error("; Tw\tin\fs\xC2\x9B"
                                      "2J\n#####\n#@$.#\n#@$.#\n#####\n");
    assert_string_equal(message,
                        "test.xsb: level 1 (Tw ins2J), line 4: two players (one only, '@' or '+')");
}

static void test_player_and_player_on_goal_are_two_players(void **state)
{
    (void)state;
    assert_mentions(parse_error("######\n#@$.+#\n######\n"), "two players");
}

static void test_three_players_is_an_error(void **state)
{
    (void)state;
    assert_mentions(parse_error("#######\n#@@@$.#\n#######\n"), "more than two players");
}

static void test_more_goals_than_boxes_is_an_error(void **state)
{
    (void)state;
    assert_mentions(parse_error("#########\n#@$$$....#\n#########\n"), "3 boxes but 4 goals");
}

static void test_more_boxes_than_goals_is_an_error(void **state)
{
    (void)state;
    assert_mentions(parse_error("######\n#@$$.#\n######\n"), "2 boxes but 1 goal");
}

static void test_no_boxes_is_an_error(void **state)
{
    (void)state;
    assert_mentions(parse_error("#####\n#@  #\n#####\n"), "no boxes");
}

static void test_only_a_decoration_box_outside_the_walls_is_no_boxes(void **state)
{
    (void)state;
    assert_mentions(parse_error("#####  ###\n#@  #  #*#\n#####  ###\n"), "no boxes");
}

static void test_open_wall_is_an_error_naming_the_row(void **state)
{
    (void)state;
    const char *message = parse_error("; Leaky\n#####\n#@$.#\n#   #\n#   \n#####\n");
    assert_mentions(message, "level 1 (Leaky), line 5: open wall at row 4");
}

static void test_gap_in_the_top_wall_is_an_open_wall(void **state)
{
    (void)state;
    assert_mentions(parse_error("## ##\n#@$.#\n#####\n"), "open wall at row 1");
}

static void test_unknown_character_is_an_error_naming_it(void **state)
{
    (void)state;
    const char *message = parse_error("; Odd\n#####\n#@$x#\n#.  #\n#####\n");
    assert_string_equal(message,
                        "test.xsb: level 1 (Odd), line 3: unknown character 'x' in the map");
}

static void test_unprintable_character_is_named_by_its_byte(void **state)
{
    (void)state;
    assert_mentions(parse_error("#####\n#@$\xE9.#\n#####\n"), "byte 0xE9");
}

static void test_too_wide_a_level_is_an_error(void **state)
{
    (void)state;
    assert_mentions(parse_error("101#\n#@$.97-#\n101#\n"), "too large");
}

static void test_too_tall_a_level_is_an_error(void **state)
{
    (void)state;
    char *text = malloc(101 * 8 + 32);
    char *out = text + sprintf(text, "5#\n#@$.#\n");
    for (int i = 0; i < 98; i++) out += sprintf(out, "#3-#\n");
    sprintf(out, "5#\n");
    assert_mentions(parse_error(text), "too large");
    free(text);
}

/* The limits are checked while a line is read (issue 45, item 10): a file of one 64 MiB line
 * of "#|" (32 Mi rows) is refused at its 101st row, in a little memory (it took 1.6 GB and
 * 16 to 32 s when the whole line was expanded first). The peak resident size (ru_maxrss)
 * may grow by the file itself and little more. */
static void test_one_line_of_32_million_rows_is_refused_at_once(void **state)
{
    (void)state;
    size_t length = LEVEL_MAX_FILE_BYTES;
    char *text = malloc(length);
    assert_non_null(text);
    for (size_t i = 0; i + 1 < length; i += 2) memcpy(text + i, "#|", 2);
    text[length - 1] = '\n';
    struct rusage before, after;
    getrusage(RUSAGE_SELF, &before);
    assert_mentions(parse_error_bytes(text, length), "more than 100 rows");
    getrusage(RUSAGE_SELF, &after);
    free(text);
    long grown_mib = (after.ru_maxrss - before.ru_maxrss) / 1024;
    if (grown_mib > 256) fail_msg("the peak memory grew by %ld MiB", grown_mib);
}

static void test_huge_count_is_too_large_not_an_overflow(void **state)
{
    (void)state;
    assert_mentions(parse_error("99999999999999999999#\n#@$.#\n#####\n"), "too large");
}

static void test_empty_file_is_an_error(void **state)
{
    (void)state;
    assert_string_equal(parse_error(""), "test.xsb: empty file");
}

static void test_binary_file_is_not_a_text_file(void **state)
{
    (void)state;
    static const char bytes[] = {0x7F, 'E', 'L', 'F', 0x02, 0x01, 0x00, 0x00};
    assert_string_equal(parse_error_bytes(bytes, sizeof bytes), "test.xsb: not a text file");
}

static void test_text_without_a_map_has_no_level(void **state)
{
    (void)state;
    assert_mentions(parse_error("Just some words.\nNo map here.\n"), "no level found");
}

static void test_count_with_no_square_after_it_is_an_error(void **state)
{
    (void)state;
    assert_mentions(parse_error("#####3\n#@$.#\n#####\n"), "a count with no square after it");
}

static void test_count_of_zero_is_an_error(void **state)
{
    (void)state;
    assert_mentions(parse_error("#####\n#@$.0#\n#####\n"), "a count of zero");
}

static void test_box_walled_off_from_the_player_is_an_error(void **state)
{
    (void)state;
    assert_mentions(parse_error("#########\n#@$.#$ .#\n#########\n"),
                    "box at row 2, column 6 is walled off");
}

static void test_error_in_a_later_level_names_that_level(void **state)
{
    (void)state;
    const char *message =
        parse_error("; 1\n#####\n#@$.#\n#####\n\n; 2\n#####\n#@$.#\n#####\n\n; Bad\n######\n"
                    "#@$ .#\n#  # #\n");
    assert_mentions(message, "level 3 (Bad)");
}

static void test_level_without_a_title_is_named_by_number(void **state)
{
    (void)state;
    assert_string_equal(parse_error("#####\n#@ .#\n#####\n"),
                        "test.xsb: level 1, line 1: no boxes");
}

/* ---------------------------------------------------------------- round trip */

static void assert_file_round_trips(const char *path, int expected_count)
{
    collection c;
    level_error error;
    if (!collection_load(path, &c, &error)) fail_msg("%s", error.message);
    assert_int_equal(c.count, expected_count);
    for (int i = 0; i < c.count; i++) assert_level_round_trips(&c.levels[i], path);
    collection_free(&c);
}

static void test_every_tutorial_level_round_trips(void **state)
{
    (void)state;
    assert_file_round_trips(TEST_LEVELS_DIR "/tutorial.xsb", 8);
}

static void test_every_xsokoban_level_round_trips(void **state)
{
    (void)state;
    assert_file_round_trips(TEST_LEVELS_DIR "/xsokoban.xsb", 90);
}

static void test_level_with_every_field_round_trips(void **state)
{
    (void)state;
    collection c;
    parse_ok("; ignored text\n"
             "\n"
             "  ####\n"
             "###  #\n"
             "#@$* #\n"
             "# .  #\n"
             "######\n"
             "Title: Full\n"
             "Author: Hand Written\n"
             "Comment:\n"
             "It has a comment\n"
             "\n"
             "of three lines.\n"
             "Comment-End:\n",
             &c);
    const level *lv = &c.levels[0];
    assert_string_equal(lv->title, "Full");
    assert_string_equal(lv->author, "Hand Written");
    assert_string_equal(lv->comment, "ignored text\nIt has a comment\n\nof three lines.");
    assert_level_round_trips(lv, "test.xsb");
    collection_free(&c);
}

static void test_written_level_has_title_map_and_fields(void **state)
{
    (void)state;
    collection c;
    parse_ok("; Small\n#####--\n#@$.#\n#####\nAuthor: Me\n", &c);
    char *text = level_to_text(&c.levels[0]);
    assert_string_equal(text, "; Small\n\n#####\n#@$.#\n#####\nAuthor: Me\n");
    free(text);
    collection_free(&c);
}

static void test_level_with_run_length_and_bars_round_trips(void **state)
{
    (void)state;
    collection c;
    parse_ok("; Packed\n2-5#|2-#@$.#|2-5#|\n", &c);
    assert_level_round_trips(&c.levels[0], "test.xsb");
    collection_free(&c);
}

/* A row holding only decoration outside the walls (a '*' and floor) is written joined to
 * its neighbour with '|', since on a line of its own it would not read as a map row. */
static void test_row_of_decoration_only_round_trips(void **state)
{
    (void)state;
    collection c;
    parse_ok("; Below\n#####|#@$.#|#####|--*\n\n; Above\n-*|-*|#####|#@$.#|#####\n", &c);
    assert_int_equal(c.levels[0].height, 4);
    assert_int_equal(c.levels[1].height, 5);
    assert_level_round_trips(&c.levels[0], "test.xsb");
    assert_level_round_trips(&c.levels[1], "test.xsb");
    char *text = level_to_text(&c.levels[1]);
    assert_string_equal(text, "; Above\n\n *| *|#####\n#@$.#\n#####\n");
    free(text);
    collection_free(&c);
}

/* ---------------------------------------------------------------- fuzzing finds */

/* Every input the fuzzers (fuzz/) ever stopped on is kept in tests/fuzz-regressions/:
 * level-* files are level files, lurd-* files LURD strings. Each must be read without a
 * crash (the sanitizer build watches); whether it is accepted does not matter, but an
 * accepted level must round-trip. */
static void run_level_regression(const char *path)
{
    collection c;
    level_error error;
    if (!collection_load(path, &c, &error)) return;
    for (int i = 0; i < c.count; i++) assert_level_round_trips(&c.levels[i], path);
    collection_free(&c);
}

static void run_lurd_regression(const char *path)
{
    FILE *file = fopen(path, "rb");
    assert_non_null(file);
    char text[8192];
    size_t length = fread(text, 1, sizeof text - 1, file);
    fclose(file);
    text[length] = '\0';
    collection c;
    parse_ok("#######\n#.  . #\n# $$  #\n#@ #  #\n#######\n", &c);
    lurd_steps steps;
    lurd_error error;
    if (lurd_parse(text, &steps, &error)) {
        game g;
        assert_true(game_init(&g, &c.levels[0]));
        lurd_apply(&g, &steps, &error);
        game_free(&g);
        lurd_steps_free(&steps);
    }
    collection_free(&c);
}

static void test_fuzzing_finds_do_not_crash(void **state)
{
    (void)state;
    const char *folder = TEST_SOURCE_DIR "/fuzz-regressions";
    DIR *dir = opendir(folder);
    if (!dir) fail_msg("cannot open %s", folder);
    int files = 0;
    struct dirent *entry;
    while ((entry = readdir(dir))) {
        char path[4096];
        snprintf(path, sizeof path, "%s/%s", folder, entry->d_name);
        if (strncmp(entry->d_name, "level-", 6) == 0)
            run_level_regression(path);
        else if (strncmp(entry->d_name, "lurd-", 5) == 0)
            run_lurd_regression(path);
        else
            continue;
        files++;
    }
    closedir(dir);
    assert_true(files > 0);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_every_square_character_is_read),
        cmocka_unit_test(test_player_on_goal_is_read),
        cmocka_unit_test(test_shorter_rows_are_padded_with_floor),
        cmocka_unit_test(test_run_length_counts_repeat_the_square_after_them),
        cmocka_unit_test(test_counts_of_more_than_one_digit_are_read),
        cmocka_unit_test(test_bar_joins_rows),
        cmocka_unit_test(test_bar_rows_mix_with_plain_rows),
        cmocka_unit_test(test_floor_outside_the_walls_is_cleared),
        cmocka_unit_test(test_box_on_goal_outside_the_walls_stays_as_decoration),
        cmocka_unit_test(test_trailing_floor_does_not_widen_the_level),
        cmocka_unit_test(test_empty_rows_from_bars_are_dropped),
        cmocka_unit_test(test_largest_level_is_accepted),
        cmocka_unit_test(test_levels_separated_by_blank_lines_are_all_read),
        cmocka_unit_test(test_levels_separated_by_text_lines_are_all_read),
        cmocka_unit_test(test_first_line_is_the_line_of_the_first_map_row),
        cmocka_unit_test(test_single_level_without_any_text_is_read),
        cmocka_unit_test(test_semicolon_line_gives_the_title),
        cmocka_unit_test(test_plain_text_line_gives_the_title),
        cmocka_unit_test(test_title_from_an_indented_text_line_loses_its_blanks),
        cmocka_unit_test(test_text_line_nearest_the_map_is_the_title_and_others_the_comment),
        cmocka_unit_test(test_title_author_and_comment_fields_after_the_map),
        cmocka_unit_test(test_fields_before_the_map_are_read),
        cmocka_unit_test(test_title_field_wins_over_a_text_line),
        cmocka_unit_test(test_field_names_are_read_in_any_case),
        cmocka_unit_test(test_comment_block_keeps_its_blank_lines),
        cmocka_unit_test(test_comment_field_without_an_end_is_one_line),
        cmocka_unit_test(test_comment_end_after_the_next_map_does_not_close_an_earlier_comment),
        cmocka_unit_test(test_comment_block_may_hold_lines_that_look_like_map_rows),
        cmocka_unit_test(test_bare_comment_without_an_end_runs_to_the_end_of_the_file),
        cmocka_unit_test(test_comment_field_before_the_map_is_one_line_without_an_end),
        cmocka_unit_test(test_text_title_overridden_by_a_later_title_field_goes_to_the_comment),
        cmocka_unit_test(test_stray_comment_end_line_is_not_comment_text),
        cmocka_unit_test(test_semicolon_comment_end_line_keeps_its_semicolon),
        cmocka_unit_test(test_comment_field_whose_text_is_comment_end_keeps_its_whole_line),
        cmocka_unit_test(test_other_fields_are_skipped),
        cmocka_unit_test(test_crlf_line_ends_are_read),
        cmocka_unit_test(test_tabs_expand_to_the_next_multiple_of_eight),
        cmocka_unit_test(test_trailing_spaces_and_tabs_are_ignored),
        cmocka_unit_test(test_missing_final_newline_is_fine),
        cmocka_unit_test(test_utf8_byte_order_mark_is_skipped),
        cmocka_unit_test(test_utf8_in_titles_is_kept),
        cmocka_unit_test(test_load_reads_a_file_and_names_the_collection),
        cmocka_unit_test(test_load_of_a_missing_file_names_it),
        cmocka_unit_test(test_no_player_is_an_error),
        cmocka_unit_test(test_two_players_is_an_error_on_the_second_ones_line),
        cmocka_unit_test(test_reason_leaves_out_the_control_characters_of_the_title),
        cmocka_unit_test(test_player_and_player_on_goal_are_two_players),
        cmocka_unit_test(test_three_players_is_an_error),
        cmocka_unit_test(test_more_goals_than_boxes_is_an_error),
        cmocka_unit_test(test_more_boxes_than_goals_is_an_error),
        cmocka_unit_test(test_no_boxes_is_an_error),
        cmocka_unit_test(test_only_a_decoration_box_outside_the_walls_is_no_boxes),
        cmocka_unit_test(test_open_wall_is_an_error_naming_the_row),
        cmocka_unit_test(test_gap_in_the_top_wall_is_an_open_wall),
        cmocka_unit_test(test_unknown_character_is_an_error_naming_it),
        cmocka_unit_test(test_unprintable_character_is_named_by_its_byte),
        cmocka_unit_test(test_too_wide_a_level_is_an_error),
        cmocka_unit_test(test_too_tall_a_level_is_an_error),
        cmocka_unit_test(test_huge_count_is_too_large_not_an_overflow),
        cmocka_unit_test(test_one_line_of_32_million_rows_is_refused_at_once),
        cmocka_unit_test(test_empty_file_is_an_error),
        cmocka_unit_test(test_binary_file_is_not_a_text_file),
        cmocka_unit_test(test_text_without_a_map_has_no_level),
        cmocka_unit_test(test_count_with_no_square_after_it_is_an_error),
        cmocka_unit_test(test_count_of_zero_is_an_error),
        cmocka_unit_test(test_box_walled_off_from_the_player_is_an_error),
        cmocka_unit_test(test_error_in_a_later_level_names_that_level),
        cmocka_unit_test(test_level_without_a_title_is_named_by_number),
        cmocka_unit_test(test_every_tutorial_level_round_trips),
        cmocka_unit_test(test_every_xsokoban_level_round_trips),
        cmocka_unit_test(test_level_with_every_field_round_trips),
        cmocka_unit_test(test_written_level_has_title_map_and_fields),
        cmocka_unit_test(test_level_with_run_length_and_bars_round_trips),
        cmocka_unit_test(test_row_of_decoration_only_round_trips),
        cmocka_unit_test(test_fuzzing_finds_do_not_crash),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
