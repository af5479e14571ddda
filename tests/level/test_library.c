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

#include <locale.h>

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

/* Sets a UTF-8 locale's LC_CTYPE, as the game takes the player's; skips the test where the
 * system has none. */
static void use_utf8_locale(void)
{
    if (!setlocale(LC_CTYPE, "C.UTF-8") && !setlocale(LC_CTYPE, "C.utf8") &&
        !setlocale(LC_CTYPE, "en_US.UTF-8"))
        skip();
}

static void test_in_a_utf8_locale_every_letter_matches_in_any_case(void **state)
{
    (void)state;
    use_utf8_locale();
    assert_true(utf8_case_equal("ÉTÉ", "été"));
    assert_true(utf8_case_equal("Ärger", "äRGER"));
    assert_true(utf8_case_equal("ΣΟΦΟΣ", "σοφος")); /* the final sigma too */
    assert_true(utf8_case_equal("Sokoban", "SOKOBAN"));
    assert_false(utf8_case_equal("été", "ete"));  /* an accent is no case */
    assert_false(utf8_case_equal("été", "étés")); /* the whole name */
    assert_true(utf8_case_starts("Élan vital", "éL"));
    assert_false(utf8_case_starts("Élan vital", "e"));
    assert_true(utf8_case_starts("anything", ""));
    const char *text = "Un été";
    assert_ptr_equal(utf8_case_find(text, "ÉTÉ"), text + 3);
    assert_ptr_equal(utf8_case_find(text, ""), text);
    assert_null(utf8_case_find(text, "ÉTÉS"));
    setlocale(LC_CTYPE, "C");
}

/* The C locale knows ASCII's letters alone: the others match only themselves, as bytes, and a
 * malformed byte matches only itself. */
static void test_in_the_c_locale_ascii_letters_alone_match_in_any_case(void **state)
{
    (void)state;
    setlocale(LC_CTYPE, "C");
    assert_true(utf8_case_equal("Sokoban", "sOKOBAN"));
    assert_true(utf8_case_equal("été", "été"));
    assert_false(utf8_case_equal("ÉTÉ", "été"));
    assert_true(utf8_case_starts("Été X", "Été x"));
    assert_true(utf8_case_equal("\xff\xfeZ", "\xff\xfez"));
    assert_false(utf8_case_equal("\xff", "\xfe"));
    assert_false(utf8_case_equal("\xc3", "\xc3\xa9")); /* a character cut short is not it */
    assert_null(utf8_case_find("abc", "\xff"));
}

/* The player's --collection: "ÉLAN" means "élan"; and names that differ only by case are
 * made apart, so that each can still be named. */
static void test_a_name_matches_in_any_case_beyond_ascii(void **state)
{
    (void)state;
    use_utf8_locale();
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
    setlocale(LC_CTYPE, "C");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_a_sok_file_is_named_by_its_collection_field),
        cmocka_unit_test(test_a_name_taken_by_an_earlier_folder_gets_its_folder),
        cmocka_unit_test(test_a_name_matches_whole_then_by_its_start_in_any_case),
        cmocka_unit_test(test_in_a_utf8_locale_every_letter_matches_in_any_case),
        cmocka_unit_test(test_in_the_c_locale_ascii_letters_alone_match_in_any_case),
        cmocka_unit_test(test_a_name_matches_in_any_case_beyond_ascii),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
