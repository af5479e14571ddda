/* test_collection.c - collections from folders, groups of one-level files, FILE:N
 * (src/level/collection.c), and display width and control characters (src/level/utf8.c). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cmocka.h>

#include "level/collection.h"
#include "level/utf8.h"
#include "scratch.h"

/* A one-level file whose title is `title`. */
static void write_level(const char *folder, const char *name, const char *title)
{
    char text[200];
    snprintf(text, sizeof text, "; %s\n#####\n#@$.#\n#####\n", title);
    scratch_write(folder, name, text);
}

/* True when `text` holds no control character (a line end, an escape): one line of text. */
static bool one_line_of_text(const char *text)
{
    for (const char *c = text; *c; c++)
        if ((unsigned char)*c < 0x20 || *c == 0x7f) return false;
    return true;
}

/* ---------------------------------------------------------------- natural order */

static void test_natural_order_compares_numbers_by_value(void **state)
{
    (void)state;
    assert_true(collection_natural_compare("level2.sok", "level10.sok") < 0);
    assert_true(collection_natural_compare("level10.sok", "level2.sok") > 0);
    assert_true(collection_natural_compare("a_0009", "a_0010") < 0);
    assert_true(collection_natural_compare("b1", "a2") > 0);
    assert_int_equal(collection_natural_compare("same7", "same7"), 0);
}

/* ---------------------------------------------------------------- folders */

static void test_folder_opens_as_one_collection_in_natural_order(void **state)
{
    (void)state;
    char *folder = scratch_make("sokoban-collection");
    write_level(folder, "level10.sok", "Ten");
    write_level(folder, "level2.sok", "Two");
    write_level(folder, "level1.xsb", "One");
    scratch_write(folder, "notes.sol", "rR\n");
    scratch_write(folder, ".hidden.sok", "; Hidden\n#####\n#@$.#\n#####\n");
    collection c;
    level_error error;
    if (!collection_open(folder, &c, &error)) fail_msg("%s", error.message);
    assert_int_equal(c.count, 3);
    assert_string_equal(c.levels[0].title, "One");
    assert_string_equal(c.levels[1].title, "Two");
    assert_string_equal(c.levels[2].title, "Ten");
    assert_int_equal(c.levels[2].number, 3);
    assert_string_equal(c.path, folder);
    assert_string_equal(c.name, strrchr(folder, '/') + 1);
    collection_free(&c);
    scratch_remove(folder);
}

static void test_folder_without_level_files_is_refused(void **state)
{
    (void)state;
    char *folder = scratch_make("sokoban-collection");
    collection c;
    level_error error;
    assert_false(collection_open(folder, &c, &error));
    assert_non_null(strstr(error.message, "no level files"));
    scratch_remove(folder);
}

/* ---------------------------------------------------------------- groups */

/* A folder is one collection, read as one file is: up to LEVEL_MAX_FILE_BYTES of level files
 * together, so that a folder of many large files cannot take the machine's memory (a 64 MiB
 * file of small levels takes some 1 GB parsed). Its files' sizes are added before any is
 * read: refused in one line naming the folder. The two files here are sparse (their size
 * without their bytes): nothing is written or read. */
static void test_folder_of_more_than_the_file_limit_is_refused_unread(void **state)
{
    (void)state;
    char *folder = scratch_make("sokoban-collection");
    write_level(folder, "a.sok", "A");
    for (int i = 0; i < 2; i++) {
        char path[512];
        snprintf(path, sizeof path, "%s/big%d.xsb", folder, i);
        FILE *f = fopen(path, "w");
        assert_non_null(f);
        assert_int_equal(ftruncate(fileno(f), (off_t)(LEVEL_MAX_FILE_BYTES / 2)), 0);
        fclose(f);
    }
    collection c;
    level_error error;
    assert_false(collection_open(folder, &c, &error));
    assert_non_null(strstr(error.message, folder));
    assert_non_null(strstr(error.message, "more than 64 MiB of level files"));
    assert_null(strchr(error.message, '\n'));

    /* at the limit it is read (and its sparse files, all NULs, are not text: passed over) */
    char path[512];
    snprintf(path, sizeof path, "%s/big1.xsb", folder);
    assert_int_equal(truncate(path, (off_t)(LEVEL_MAX_FILE_BYTES / 2) - 4096), 0);
    if (!collection_open(folder, &c, &error)) fail_msg("%s", error.message);
    assert_int_equal(c.count, 1);
    collection_free(&c);
    scratch_remove(folder);
}

static void test_group_key_drops_the_number_and_extension(void **state)
{
    (void)state;
    char key[256];
    assert_true(collection_group_key("/maps/microban01_0012.sok", key, sizeof key));
    assert_string_equal(key, "/maps/microban01");
    assert_true(collection_group_key("gri0001.sok", key, sizeof key));
    assert_string_equal(key, "gri");
    assert_false(collection_group_key("tutorial.xsb", key, sizeof key));
    assert_false(collection_group_key("/maps/0001.sok", key, sizeof key));
}

static void test_numbered_one_level_files_group_into_one_collection(void **state)
{
    (void)state;
    char *folder = scratch_make("sokoban-collection");
    write_level(folder, "micro_0001.sok", "1");
    write_level(folder, "micro_0002.sok", "2");
    write_level(folder, "micro_0003.sok", "3");
    write_level(folder, "other_0001.sok", "O");
    char paths[4][512];
    const char *names[] = {"micro_0001.sok", "micro_0002.sok", "micro_0003.sok", "other_0001.sok"};
    const char *arguments[4];
    for (int i = 0; i < 4; i++) {
        snprintf(paths[i], sizeof paths[i], "%s/%s", folder, names[i]);
        arguments[i] = paths[i];
    }
    collection *list;
    int *levels, count;
    level_error error;
    if (!collection_open_all(arguments, 4, &list, &levels, &count, &error))
        fail_msg("%s", error.message);
    assert_int_equal(count, 2);
    assert_string_equal(list[0].name, "micro");
    assert_int_equal(list[0].count, 3);
    assert_string_equal(list[0].levels[2].title, "3");
    assert_int_equal(list[0].levels[2].number, 3);
    /* each level names its file (for the .sol beside it) */
    assert_string_equal(list[0].levels[1].file, paths[1]);
    assert_string_equal(list[0].levels[0].file, paths[0]);
    assert_string_equal(list[1].name, "other");
    for (int i = 0; i < count; i++) collection_free(&list[i]);
    free(list);
    free(levels);
    scratch_remove(folder);
}

/* A group of one-level files is one collection too, read up to LEVEL_MAX_FILE_BYTES together
 * as a folder is: a file that would take the group past it is refused before it is read
 * (here a sparse file of the limit after a small one: its bytes are never written nor
 * read). */
static void test_group_of_more_than_the_file_limit_is_refused(void **state)
{
    (void)state;
    char *folder = scratch_make("sokoban-collection");
    write_level(folder, "micro_0001.sok", "1");
    char paths[2][512];
    const char *arguments[2];
    for (int i = 0; i < 2; i++) {
        snprintf(paths[i], sizeof paths[i], "%s/micro_000%d.sok", folder, i + 1);
        arguments[i] = paths[i];
    }
    FILE *f = fopen(paths[1], "w");
    assert_non_null(f);
    assert_int_equal(ftruncate(fileno(f), (off_t)LEVEL_MAX_FILE_BYTES), 0);
    fclose(f);
    collection *list;
    int *levels, count;
    level_error error;
    assert_false(collection_open_all(arguments, 2, &list, &levels, &count, &error));
    assert_non_null(strstr(error.message, paths[1]));
    assert_non_null(strstr(error.message, "too large a group of level files"));

    /* the same two files named apart (the second as FILE:1) are two collections: each is
     * read on its own, and the second, all NULs, is refused as no text */
    char second[520];
    snprintf(second, sizeof second, "%s:1", paths[1]);
    arguments[1] = second;
    assert_false(collection_open_all(arguments, 2, &list, &levels, &count, &error));
    assert_null(strstr(error.message, "too large"));
    scratch_remove(folder);
}

static void test_one_bad_file_in_a_group_is_a_bad_level_not_a_refusal(void **state)
{
    (void)state;
    char *folder = scratch_make("sokoban-collection");
    write_level(folder, "set_0001.sok", "Good");
    scratch_write(folder, "set_0002.sok", "; Twins\n######\n#@$.@#\n######\n");
    write_level(folder, "set_0003.sok", "Good too");
    char paths[3][512];
    const char *arguments[3];
    for (int i = 0; i < 3; i++) {
        snprintf(paths[i], sizeof paths[i], "%s/set_000%d.sok", folder, i + 1);
        arguments[i] = paths[i];
    }
    collection *list;
    int *levels, count;
    level_error error;
    if (!collection_open_all(arguments, 3, &list, &levels, &count, &error))
        fail_msg("%s", error.message);
    assert_int_equal(count, 1);
    assert_int_equal(list[0].count, 3);
    assert_int_equal(list[0].bad_count, 1);
    assert_non_null(strstr(list[0].levels[1].error, "set_0002.sok: level 1 (Twins), line 3"));
    collection_free(&list[0]);
    free(list);
    free(levels);
    scratch_remove(folder);
}

/* ---------------------------------------------------------------- FILE:N */

/* A collection's name is made from a file's or a folder's name, which may hold any byte but
 * '/': a line end or an escape there must not reach the screen or the "Collection:" line of
 * an export, where it would start a line of its own. */
static void test_names_made_from_paths_are_one_line_of_text(void **state)
{
    (void)state;
    char *folder = scratch_make("sokoban-collection");
    char inner[512], file[600], grouped[2][600];
    snprintf(inner, sizeof inner, "%s/new\nline\033[2Jset", folder);
    assert_int_equal(mkdir(inner, 0700), 0);
    write_level(inner, "one\nTitle: x.sok", "One");
    write_level(inner, "grp\r\033_0001.sok", "G1");
    write_level(inner, "grp\r\033_0002.sok", "G2");
    collection c;
    level_error error;

    /* a folder */
    if (!collection_open(inner, &c, &error)) fail_msg("%s", error.message);
    assert_true(one_line_of_text(c.name));
    assert_string_equal(c.name, "newline[2Jset");
    collection_free(&c);

    /* a file */
    snprintf(file, sizeof file, "%s/one\nTitle: x.sok", inner);
    if (!collection_open(file, &c, &error)) fail_msg("%s", error.message);
    assert_string_equal(c.name, "oneTitle: x");
    collection_free(&c);

    /* a group of one-level files */
    const char *arguments[2];
    for (int i = 0; i < 2; i++) {
        snprintf(grouped[i], sizeof grouped[i], "%s/grp\r\033_000%d.sok", inner, i + 1);
        arguments[i] = grouped[i];
    }
    collection *list;
    int *levels, count;
    if (!collection_open_all(arguments, 2, &list, &levels, &count, &error))
        fail_msg("%s", error.message);
    assert_int_equal(count, 1);
    assert_string_equal(list[0].name, "grp");
    collection_free(&list[0]);
    free(list);
    free(levels);
    scratch_remove(folder);
}

static void test_file_colon_number_names_a_level(void **state)
{
    (void)state;
    char *file;
    assert_int_equal(collection_split_level("/no/such/levels.xsb:12", &file), 12);
    assert_string_equal(file, "/no/such/levels.xsb");
    free(file);
    assert_int_equal(collection_split_level("levels.xsb", &file), 0);
    assert_null(file);
    assert_int_equal(collection_split_level("levels.xsb:x", &file), 0);
    assert_int_equal(collection_split_level("levels.xsb:0", &file), COLLECTION_LEVEL_ZERO);
    assert_int_equal(collection_split_level("levels.xsb:1000000", &file), 1000000);
    free(file);
    /* past the last level number, however many digits: a level number still (it was the
     * file "levels.xsb:1000001", which could not be opened) */
    assert_int_equal(collection_split_level("levels.xsb:1000001", &file),
                     COLLECTION_LEVEL_TOO_LARGE);
    assert_null(file);
    assert_int_equal(collection_split_level("levels.xsb:99999999999999999999999", &file),
                     COLLECTION_LEVEL_TOO_LARGE);
    level_error error;
    collection_split_level_error("levels.xsb:99999999999999999999999", COLLECTION_LEVEL_TOO_LARGE,
                                 &error);
    assert_string_equal(error.message, "levels.xsb:99999999999999999999999: no level "
                                       "99999999999999999999999 (levels are numbered from 1 "
                                       "to 1000000)");
}

static void test_file_named_with_a_colon_is_the_file(void **state)
{
    (void)state;
    char *folder = scratch_make("sokoban-collection");
    write_level(folder, "odd:3", "Odd");
    char path[512];
    snprintf(path, sizeof path, "%s/odd:3", folder);
    char *file;
    assert_int_equal(collection_split_level(path, &file), 0);
    assert_null(file);
    scratch_remove(folder);
}

/* ---------------------------------------------------------------- display width */

static void test_width_counts_characters_not_bytes(void **state)
{
    (void)state;
    assert_int_equal(utf8_width("Caf\xC3\xA9"), 4);              /* é: two bytes, one column */
    assert_int_equal(utf8_width("\xE5\x80\x89\xE5\xBA\xAB"), 4); /* two wide CJK */
    assert_int_equal(utf8_width("e\xCC\x81"), 1);                /* e + combining acute */
}

static void test_fit_cuts_between_whole_characters(void **state)
{
    (void)state;
    int used;
    assert_int_equal(utf8_fit("\xE5\x80\x89\xE5\xBA\xAB", 3, &used), 3);
    assert_int_equal(used, 2);
    assert_int_equal(utf8_fit("Caf\xC3\xA9!", 4, &used), 5);
    assert_int_equal(used, 4);
}

static void test_control_characters_take_no_column(void **state)
{
    (void)state;
    assert_true(utf8_is_control('\t'));
    assert_true(utf8_is_control('\f'));
    assert_true(utf8_is_control(0x7F));
    assert_true(utf8_is_control(0x9B)); /* C1: a terminal's CSI */
    assert_false(utf8_is_control(' '));
    assert_false(utf8_is_control(0xA0));                   /* no-break space */
    assert_int_equal(utf8_width("Level\tOne\xC2\x9B"), 9); /* the tab a space */
    assert_int_equal(utf8_shown_as('\t'), ' ');
    assert_int_equal(utf8_shown_as(0x9B), 0);
    assert_int_equal(utf8_shown_as(0xE9), 0xE9);
}

/* A bidirectional control in a title would reorder what the terminal shows after it (U+202E
 * shows the rest of the line reversed): each is a control character, never shown. */
static void test_bidirectional_controls_are_never_shown(void **state)
{
    (void)state;
    static const unsigned bidi[] = {0x061C, 0x200E, 0x200F, 0x202A, 0x202B, 0x202C,
                                    0x202D, 0x202E, 0x2066, 0x2067, 0x2068, 0x2069};
    for (size_t i = 0; i < sizeof bidi / sizeof *bidi; i++) {
        assert_true(utf8_is_bidi_control(bidi[i]));
        assert_true(utf8_is_control(bidi[i]));
        assert_int_equal(utf8_shown_as(bidi[i]), 0);
        assert_int_equal(utf8_char_width(bidi[i]), 0);
    }
    assert_false(utf8_is_control(0x200D)); /* the zero-width joiner, of emoji sequences */
    assert_false(utf8_is_control(0x2029)); /* before the embeddings */
    assert_false(utf8_is_control(0x202F)); /* narrow no-break space, after them */
    assert_false(utf8_is_control(0x2065));
    assert_false(utf8_is_control(0x206A));
    char text[] = "Red\xE2\x80\xAEText\xE2\x81\xA6Tab\xE2\x80\x8F\xD8\x9C!";
    assert_int_equal(utf8_drop_controls(text), 11);
    assert_string_equal(text, "RedTextTab!");
    char *written = NULL;
    size_t size = 0;
    FILE *out = open_memstream(&written, &size);
    assert_non_null(out);
    const char *title = "caf\xC3\xA9 \xE2\x80\xAE"
                        "evil";
    utf8_write_shown(out, title, strlen(title));
    fclose(out);
    assert_string_equal(written, "caf\xC3\xA9 evil");
    free(written);
}

static void test_drop_controls_keeps_every_other_character_and_a_tab_as_a_space(void **state)
{
    (void)state;
    char text[] = "\tCaf\xC3\xA9\f \xC2\x9B[2J\xE5\x80\x89\x7F";
    assert_int_equal(utf8_drop_controls(text), 13);
    assert_string_equal(text, " Caf\xC3\xA9 [2J\xE5\x80\x89"); /* the tab a space */
}

static void test_write_shown_leaves_out_control_characters(void **state)
{
    (void)state;
    char *written = NULL;
    size_t size = 0;
    FILE *out = open_memstream(&written, &size);
    assert_non_null(out);
    const char *title = "Red\tText\xC2\x9B"
                        "31m caf\xC3\xA9";
    utf8_write_shown(out, title, strlen(title));
    utf8_write_shown(out, "\tab", 2); /* only the first `length` bytes */
    fclose(out);
    assert_string_equal(written, "Red Text31m caf\xC3\xA9" /* the tab a space */
                                 " a");
    free(written);
}

static void test_latin1_converts_to_utf8(void **state)
{
    (void)state;
    size_t length;
    char *text = utf8_from_latin1("Caf\xE9", 4, &length);
    assert_string_equal(text, "Caf\xC3\xA9");
    assert_int_equal(length, 5);
    assert_false(utf8_valid("Caf\xE9", 4));
    assert_true(utf8_valid(text, length));
    free(text);
}

static void test_drop_last_takes_back_a_whole_character(void **state)
{
    (void)state;
    char text[32];
    snprintf(text, sizeof text, "Caf\xC3\xA9");   /* é: two bytes */
    assert_int_equal(utf8_drop_last(text, 5), 3); /* both go */
    assert_string_equal(text, "Caf");
    snprintf(text, sizeof text, "a\xE5\x80\x89\xF0\x9F\x98\x80"); /* CJK, then an emoji */
    assert_int_equal(utf8_drop_last(text, strlen(text)), 4);
    assert_string_equal(text, "a\xE5\x80\x89");
    assert_int_equal(utf8_drop_last(text, 4), 1);
    assert_int_equal(utf8_drop_last(text, 1), 0);
    assert_string_equal(text, "");
    assert_int_equal(utf8_drop_last(text, 0), 0); /* nothing left: nothing taken */
    /* stray continuation bytes with no start: each goes alone, as each is shown */
    snprintf(text, sizeof text, "ab\x80\x80");
    assert_int_equal(utf8_drop_last(text, 4), 3);
    assert_int_equal(utf8_drop_last(text, 3), 2);
    assert_string_equal(text, "ab");
    assert_true(utf8_is_continuation('\x80'));
    assert_false(utf8_is_continuation('\xC3'));
    assert_false(utf8_is_continuation('a'));
}

/* Backspace takes back what shows as one character (a grapheme cluster, Unicode's UAX #29):
 * a letter with the combining marks typed after it, an emoji joined by ZWJ, a flag's pair
 * of regional indicators; the byte of a character not yet whole goes alone. */
static void test_drop_last_takes_back_a_letter_with_its_marks(void **state)
{
    (void)state;
    char text[64];
    snprintf(text, sizeof text, "Cafe\xCC\x81"); /* e, then U+0301 COMBINING ACUTE ACCENT */
    assert_int_equal(utf8_drop_last(text, strlen(text)), 3);
    assert_string_equal(text, "Caf");
    snprintf(text, sizeof text, "ae\xCC\xA7\xCC\x81"); /* e, cedilla, acute: all three go */
    assert_int_equal(utf8_drop_last(text, strlen(text)), 1);
    assert_string_equal(text, "a");
    snprintf(text, sizeof text, "e\xCC"); /* a mark's first byte typed: it alone goes */
    assert_int_equal(utf8_drop_last(text, 2), 1);
    assert_string_equal(text, "e");
    /* man, ZWJ, woman, ZWJ, girl: one emoji */
    snprintf(text, sizeof text,
             "x\xF0\x9F\x91\xA8\xE2\x80\x8D\xF0\x9F\x91\xA9\xE2\x80\x8D"
             "\xF0\x9F\x91\xA7");
    assert_int_equal(utf8_drop_last(text, strlen(text)), 1);
    /* the flags of France and Germany: the last pair of regional indicators goes */
    snprintf(text, sizeof text,
             "\xF0\x9F\x87\xAB\xF0\x9F\x87\xB7\xF0\x9F\x87\xA9"
             "\xF0\x9F\x87\xAA");
    assert_int_equal(utf8_drop_last(text, strlen(text)), 8);
    assert_int_equal(utf8_drop_last(text, 8), 0);
    /* a byte that is not UTF-8 goes alone, not with the character before it: a Latin-1
     * terminal's "a" and U+00A9 (0xA9, a continuation byte), a stray byte after e-acute */
    snprintf(text, sizeof text, "a\xA9");
    assert_int_equal(utf8_drop_last(text, 2), 1);
    assert_string_equal(text, "a");
    snprintf(text, sizeof text, "\xC3\xA9\x80");
    assert_int_equal(utf8_drop_last(text, 3), 2);
    assert_string_equal(text, "\xC3\xA9");
    snprintf(text, sizeof text, "a\xCC\x81\x80\x80"); /* a, acute, two stray bytes */
    assert_int_equal(utf8_drop_last(text, 5), 4);
    assert_int_equal(utf8_drop_last(text, 4), 3);
    assert_int_equal(utf8_drop_last(text, 3), 0);
    /* a UTF-16 surrogate written as UTF-8 (ED A0 80) is no character: the screen shows
     * each of its bytes as one, and each goes alone */
    snprintf(text, sizeof text, "a\xED\xA0\x80");
    assert_int_equal(utf8_width(text), 4);
    assert_int_equal(utf8_drop_last(text, 4), 3);
    assert_int_equal(utf8_drop_last(text, 3), 2);
    assert_int_equal(utf8_drop_last(text, 2), 1);
    assert_string_equal(text, "a");
    snprintf(text, sizeof text, "a\xF0\x9F\x98"); /* three bytes of four: three shown */
    assert_int_equal(utf8_width(text), 4);
    assert_int_equal(utf8_drop_last(text, 4), 3);
    /* only the first `length` bytes count: the mark after them is not looked at */
    snprintf(text, sizeof text, "ab\xCC\x81");
    assert_int_equal(utf8_drop_last(text, 2), 1);
    assert_string_equal(text, "a");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_natural_order_compares_numbers_by_value),
        cmocka_unit_test(test_folder_opens_as_one_collection_in_natural_order),
        cmocka_unit_test(test_folder_without_level_files_is_refused),
        cmocka_unit_test(test_folder_of_more_than_the_file_limit_is_refused_unread),
        cmocka_unit_test(test_group_key_drops_the_number_and_extension),
        cmocka_unit_test(test_numbered_one_level_files_group_into_one_collection),
        cmocka_unit_test(test_group_of_more_than_the_file_limit_is_refused),
        cmocka_unit_test(test_one_bad_file_in_a_group_is_a_bad_level_not_a_refusal),
        cmocka_unit_test(test_names_made_from_paths_are_one_line_of_text),
        cmocka_unit_test(test_file_colon_number_names_a_level),
        cmocka_unit_test(test_file_named_with_a_colon_is_the_file),
        cmocka_unit_test(test_width_counts_characters_not_bytes),
        cmocka_unit_test(test_fit_cuts_between_whole_characters),
        cmocka_unit_test(test_control_characters_take_no_column),
        cmocka_unit_test(test_bidirectional_controls_are_never_shown),
        cmocka_unit_test(test_drop_controls_keeps_every_other_character_and_a_tab_as_a_space),
        cmocka_unit_test(test_write_shown_leaves_out_control_characters),
        cmocka_unit_test(test_latin1_converts_to_utf8),
        cmocka_unit_test(test_drop_last_takes_back_a_whole_character),
        cmocka_unit_test(test_drop_last_takes_back_a_letter_with_its_marks),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
