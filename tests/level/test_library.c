/* test_library.c - the collections installed on the system (src/level/library.c): their
 * names as the game gives them, unique, and a player's name matched to them. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cmocka.h>

#include "level/library.h"
#include "level/utf8_case.h"
#include "scratch.h"

static const char one_level[] = "; One\n#####\n#@$.#\n#####\n\n; Two\n######\n#@ $.#\n######\n";

/* The index of the entry named `name`, failing the test when there is none. */
static int entry_named(const library *l, const char *name)
{
    for (int i = 0; i < l->count; i++)
        if (strcmp(l->entries[i].name, name) == 0) return i;
    fail_msg("no entry named '%s'", name);
    return -1;
}

static void test_a_sok_file_is_named_by_its_collection_field(void **state)
{
    (void)state;
    char *folder = scratch_make("sokoban-library");
    scratch_write(folder, "set.sok", "Collection: My Own Set\n\n; One\n#####\n#@$.#\n#####\n");
    scratch_write(folder, "plain.xsb", one_level);
    library l;
    const char *folders[] = {folder};
    assert_true(library_scan(folders, 1, &l));
    assert_int_equal(l.count, 2);
    /* capitals and small letters sort alike */
    assert_string_equal(l.entries[0].name, "My Own Set");
    assert_string_equal(l.entries[1].name, "plain");
    library_free(&l);
    scratch_remove(folder);
}

static void test_a_name_taken_by_an_earlier_folder_gets_its_folder(void **state)
{
    (void)state;
    char *first = scratch_make("sokoban-library"), *second = scratch_make("sokoban-library");
    char maps[600];
    snprintf(maps, sizeof maps, "%s/maps", second);
    assert_int_equal(mkdir(maps, 0755), 0);
    scratch_write(first, "xsokoban.xsb", one_level);
    scratch_write(maps, "xsokoban_0001.sok", "; One\n#####\n#@$.#\n#####\n");
    scratch_write(maps, "xsokoban_0002.sok", "; Two\n######\n#@ $.#\n######\n");
    library l;
    const char *folders[] = {first, second};
    assert_true(library_scan(folders, 2, &l));
    assert_int_equal(l.count, 2);
    int plain = entry_named(&l, "xsokoban"), other = entry_named(&l, "xsokoban (maps)");
    assert_int_equal(l.entries[plain].root, 0);
    assert_int_equal(l.entries[other].file_count, 2);
    library_free(&l);
    scratch_remove(first);
    scratch_remove(second);
}

static void test_a_name_matches_whole_then_by_its_start_in_any_case(void **state)
{
    (void)state;
    char *folder = scratch_make("sokoban-library");
    scratch_write(folder, "alpha.xsb", one_level);
    scratch_write(folder, "alphabet.xsb", one_level);
    scratch_write(folder, "beta.xsb", one_level);
    library l;
    const char *folders[] = {folder};
    assert_true(library_scan(folders, 1, &l));
    int matches[4];
    /* the whole name wins over the longer names it starts */
    assert_int_equal(library_match(&l, "ALPHA", matches, 4), 1);
    assert_string_equal(l.entries[matches[0]].name, "alpha");
    assert_int_equal(library_match(&l, "alp", matches, 4), 2);
    assert_int_equal(library_match(&l, "Be", matches, 4), 1);
    assert_string_equal(l.entries[matches[0]].name, "beta");
    assert_int_equal(library_match(&l, "gamma", matches, 4), 0);
    /* more matches than room: all are counted, `max` are written */
    assert_int_equal(library_match(&l, "", matches, 1), 3);
    library_free(&l);
    scratch_remove(folder);
}

/* The player's --collection: "ÉLAN" means "élan"; and names that differ only by case are
 * made apart, so that each can still be named. */
static void test_a_name_matches_in_any_case_beyond_ascii(void **state)
{
    (void)state;
    char *first = scratch_make("sokoban-library"), *second = scratch_make("sokoban-library");
    scratch_write(first, "elan.sok", "Collection: élan\n\n; One\n#####\n#@$.#\n#####\n");
    scratch_write(second, "ELAN.sok", "Collection: ÉLAN\n\n; One\n#####\n#@$.#\n#####\n");
    library l;
    const char *folders[] = {first, second};
    assert_true(library_scan(folders, 2, &l));
    assert_int_equal(l.count, 2);
    int matches[4];
    assert_int_equal(library_match(&l, "ÉLAN", matches, 4), 1);
    assert_string_equal(l.entries[matches[0]].name, "élan");
    assert_int_equal(l.entries[matches[0]].root, 0);
    /* the later folder's got its folder in brackets */
    assert_int_equal(library_match(&l, "Él", matches, 4), 2);
    int later = l.entries[matches[0]].root == 1 ? matches[0] : matches[1];
    assert_int_equal(l.entries[later].root, 1);
    assert_true(utf8_case_starts(l.entries[later].name, "ÉLAN ("));
    library_free(&l);
    scratch_remove(first);
    scratch_remove(second);
}

/* A name is the same written with "é" as one character or as "e" and a combining accent,
 * and with "ß" or "SS": the later folder's is made apart, and either spelling finds the
 * earlier. */
static void test_a_name_is_the_same_however_its_letters_are_written(void **state)
{
    (void)state;
    char *first = scratch_make("sokoban-library"), *second = scratch_make("sokoban-library");
    scratch_write(first, "ete.sok", "Collection: été\n\n; One\n#####\n#@$.#\n#####\n");
    scratch_write(first, "strasse.sok", "Collection: Straße\n\n; One\n#####\n#@$.#\n#####\n");
    scratch_write(second, "ete.sok",
                  "Collection: E\xcc\x81TE\xcc\x81\n\n; One\n#####\n#@$.#\n#####\n");
    scratch_write(second, "strasse.sok", "Collection: STRASSE\n\n; One\n#####\n#@$.#\n#####\n");
    library l;
    const char *folders[] = {first, second};
    assert_true(library_scan(folders, 2, &l));
    assert_int_equal(l.count, 4);
    int matches[4];
    assert_int_equal(library_match(&l, "e\xcc\x81te\xcc\x81", matches, 4), 1);
    assert_string_equal(l.entries[matches[0]].name, "été");
    assert_int_equal(library_match(&l, "strasse", matches, 4), 1);
    assert_string_equal(l.entries[matches[0]].name, "Straße");
    for (int i = 0; i < l.count; i++)
        if (l.entries[i].root == 1) assert_non_null(strstr(l.entries[i].name, " ("));
    library_free(&l);
    scratch_remove(first);
    scratch_remove(second);
}

/* The library lists names as a reader orders them: case and accents aside ("Élan" among
 * the e's, "ß" as "ss"), numbers by their value, then the accents. */
static void test_names_are_in_a_readers_order(void **state)
{
    (void)state;
    char *folder = scratch_make("sokoban-library");
    const char *names[] = {"Zebra", "Élan vital", "alpha", "ecole 2", "École 10",
                           "Ete",   "Été",        "Grosz", "Große"};
    for (int i = 0; i < 9; i++) {
        char file[16], text[128];
        snprintf(file, sizeof file, "%d.sok", i);
        snprintf(text, sizeof text, "Collection: %s\n\n; One\n#####\n#@$.#\n#####\n", names[i]);
        scratch_write(folder, file, text);
    }
    library l;
    const char *folders[] = {folder};
    assert_true(library_scan(folders, 1, &l));
    assert_int_equal(l.count, 9);
    const char *order[] = {"alpha", "ecole 2", "École 10", "Élan vital", "Ete",
                           "Été",   "Große",   "Grosz",    "Zebra"};
    for (int i = 0; i < 9; i++) assert_string_equal(l.entries[i].name, order[i]);
    library_free(&l);
    scratch_remove(folder);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_a_sok_file_is_named_by_its_collection_field),
        cmocka_unit_test(test_a_name_taken_by_an_earlier_folder_gets_its_folder),
        cmocka_unit_test(test_a_name_matches_whole_then_by_its_start_in_any_case),
        cmocka_unit_test(test_a_name_matches_in_any_case_beyond_ascii),
        cmocka_unit_test(test_a_name_is_the_same_however_its_letters_are_written),
        cmocka_unit_test(test_names_are_in_a_readers_order),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
