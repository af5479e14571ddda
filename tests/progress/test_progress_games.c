/* test_progress_games.c - two games on one level (two terminals, one database): each writes
 * its game only over the one it took or last wrote, also when the write was queued behind
 * another game's lock and runs after the game went to another level, or after the database
 * was replaced; the moves of a game that finds another's saved since go to a snapshot of a
 * name of their own. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <sqlite3.h>

#include "level/level.h"
#include "progress/progress.h"
#include "progress_test.h"

/* rRR solves it in 3 moves and 2 pushes. */
static const char CORRIDOR[] = "#######\n"
                               "#@ $ .#\n"
                               "#     #\n"
                               "#######\n";
/* Another level: R solves it. */
static const char SHORT[] = "######\n"
                            "#@$ .#\n"
                            "######\n";

/* Another game holding the database's write lock (a transaction begun, not ended), as one in
 * the middle of its write: this game's changes wait the busy timeout and are queued. */
static sqlite3 *hold_lock(const progress_test_dir *f)
{
    sqlite3 *lock;
    assert_int_equal(sqlite3_open(progress_test_path(f, "progress.db"), &lock), SQLITE_OK);
    assert_int_equal(sqlite3_exec(lock, "BEGIN IMMEDIATE", NULL, NULL, NULL), SQLITE_OK);
    return lock;
}

static void release_lock(sqlite3 *lock)
{
    assert_int_equal(sqlite3_exec(lock, "COMMIT", NULL, NULL, NULL), SQLITE_OK);
    sqlite3_close(lock);
}

static int snapshot_count(progress *p, progress_key key)
{
    progress_snapshot *list;
    int count = progress_snapshots(p, key, &list);
    if (count > 0) progress_snapshots_free(list, count);
    return count;
}

/* The one snapshot of the level (failing the test unless there is exactly one): its moves,
 * and its name in `name`. */
static char *only_snapshot(progress *p, progress_key key, char *name, size_t size)
{
    progress_snapshot *list;
    int count = progress_snapshots(p, key, &list);
    assert_int_equal(count, 1);
    snprintf(name, size, "%s", list[0].name);
    char *lurd = strdup(list[0].lurd);
    progress_snapshots_free(list, count);
    return lurd;
}

/* Two games on one level (two terminals, one database): each writes its game only over the
 * one it took or last wrote; the moves of the one that finds the other's saved since go to a
 * snapshot of their own, told once, and neither decides alone by quitting last. */
static void test_two_games_on_one_level_never_write_over_each_other(void **state)
{
    collection c;
    progress_test_parse(CORRIDOR, &c);
    progress_key key = progress_level_key(&c.levels[0]);
    progress *first = progress_test_open(*state), *second = progress_test_open(*state);
    progress_take_game(first, key, progress_get(first, key)); /* no game saved yet */
    progress_take_game(second, key, progress_get(second, key));
    assert_true(progress_set_game(first, key, "r", NULL));
    assert_true(progress_set_game(first, key, "rr", "r")); /* over its own */
    assert_null(progress_take_notice(first));
    /* the second's moves do not go over the first's game: they are kept apart, told once */
    assert_true(progress_set_game(second, key, "l", NULL));
    const char *notice = progress_take_notice(second);
    assert_non_null(notice);
    assert_non_null(strstr(notice, "Another sokoban saved this level's game"));
    assert_true(progress_set_game(second, key, "ll", NULL));
    assert_null(progress_take_notice(second));
    assert_string_equal(progress_get(second, key)->unfinished, "rr");
    assert_string_equal(progress_get(second, key)->unfinished_redo, "r");
    char name[64];
    char *kept = only_snapshot(second, key, name, sizeof name);
    assert_string_equal(kept, "ll");
    assert_non_null(strstr(name, "kept apart "));
    free(kept);
    /* the first goes on over its own game */
    assert_true(progress_set_game(first, key, "rrr", NULL));
    assert_string_equal(progress_get(first, key)->unfinished, "rrr");
    /* the level taken again (opened again) by the second: it plays on from the game saved, and
     * the first is the one whose moves are kept apart now */
    progress_take_game(second, key, progress_get(second, key));
    assert_true(progress_set_game(second, key, "rrrl", NULL));
    assert_null(progress_take_notice(second));
    assert_true(progress_set_game(first, key, "rrrr", NULL));
    assert_non_null(progress_take_notice(first));
    assert_string_equal(progress_get(first, key)->unfinished, "rrrl");
    progress_close(first);
    progress_close(second);
    collection_free(&c);
}

/* A game that did not change since it was taken (opened, then left or quit) keeps nothing
 * apart and says nothing: the other's newer game stays saved; nor does one whose moves come
 * to the very game saved. Solving a level forgets the
 * game saved only when it is this game's. */
static void test_a_game_unchanged_or_solved_leaves_the_others_saved_game(void **state)
{
    collection c;
    progress_test_parse(CORRIDOR, &c);
    progress_key key = progress_level_key(&c.levels[0]);
    progress *first = progress_test_open(*state), *second = progress_test_open(*state);
    assert_true(progress_set_game(first, key, "r", NULL));
    progress_take_game(first, key, progress_get(first, key));
    progress_take_game(second, key, progress_get(second, key));
    assert_true(progress_set_game(second, key, "rd", NULL));
    assert_true(progress_set_game(first, key, "r", NULL)); /* its game as it took it */
    assert_null(progress_take_notice(first));
    assert_string_equal(progress_get(first, key)->unfinished, "rd");
    progress_snapshot *list;
    assert_int_equal(progress_snapshots(first, key, &list), 0);
    /* solved by the first: solved, and the second's game still saved */
    assert_true(progress_add_solution(first, &c.levels[0], "rRR", PROGRESS_OWN, NULL));
    assert_true(progress_get(first, key)->solved);
    assert_string_equal(progress_get(first, key)->unfinished, "rd");
    /* solved by the second, whose game it is (no best: the first's is as short): the game is
     * forgotten, and its next one written as ever */
    assert_false(progress_add_solution(second, &c.levels[0], "rRR", PROGRESS_OWN, NULL));
    assert_null(progress_get(second, key)->unfinished);
    assert_true(progress_set_game(second, key, "l", NULL));
    assert_null(progress_take_notice(second));
    assert_string_equal(progress_get(second, key)->unfinished, "l");
    /* nor one that comes to the very game saved: both are one game from there on */
    assert_true(progress_set_game(first, key, "l", NULL));
    assert_null(progress_take_notice(first));
    assert_int_equal(progress_snapshots(first, key, &list), 0);
    progress_close(first);
    progress_close(second);
    collection_free(&c);
}

/* A game's move queued behind another game's lock, written once the game went on to another
 * level: checked against the game it took on its own level, so it does not go over the
 * other's game saved since; it is kept apart. */
static void test_a_queued_game_written_after_leaving_the_level_keeps_the_others(void **state)
{
    collection c, m;
    progress_test_parse(CORRIDOR, &c);
    progress_test_parse(SHORT, &m);
    progress_key key = progress_level_key(&c.levels[0]), other = progress_level_key(&m.levels[0]);
    progress *first = progress_test_open(*state), *second = progress_test_open(*state);
    progress_take_game(first, key, progress_get(first, key));
    progress_take_game(second, key, progress_get(second, key));
    assert_true(progress_set_game(first, key, "r", NULL));
    sqlite3 *lock = hold_lock(*state);
    assert_false(progress_set_game(second, key, "d", NULL)); /* queued */
    assert_non_null(progress_take_notice(second));           /* "progress not saved" */
    progress_take_game(second, other, progress_get(second, other));
    release_lock(lock);
    assert_true(progress_set_game(second, other, "R", NULL)); /* the queued one first */
    assert_string_equal(progress_get(first, key)->unfinished, "r");
    char name[64];
    char *kept = only_snapshot(first, key, name, sizeof name);
    assert_string_equal(kept, "d");
    free(kept);
    const char *notice = progress_take_notice(second);
    assert_non_null(notice);
    assert_non_null(strstr(notice, "Another sokoban saved this level's game"));
    assert_string_equal(progress_get(second, other)->unfinished, "R");
    progress_close(first);
    progress_close(second);
    collection_free(&c);
    collection_free(&m);
}

/* A game's move queued behind a lock while the level is opened again (it resumes the game
 * saved before that move): the move, written later, is this game's, and the next one goes
 * over it as over its own, nothing kept apart. */
static void test_a_queued_game_of_a_level_opened_again_stays_its_own(void **state)
{
    collection c;
    progress_test_parse(CORRIDOR, &c);
    progress_key key = progress_level_key(&c.levels[0]);
    progress *first = progress_test_open(*state);
    progress_take_game(first, key, progress_get(first, key));
    sqlite3 *lock = hold_lock(*state);
    assert_false(progress_set_game(first, key, "r", NULL));   /* queued */
    assert_non_null(progress_take_notice(first));             /* "progress not saved" */
    progress_take_game(first, key, progress_get(first, key)); /* opened again: no game */
    release_lock(lock);
    assert_true(progress_set_game(first, key, "d", NULL)); /* the queued one first */
    assert_null(progress_take_notice(first));
    assert_string_equal(progress_get(first, key)->unfinished, "d");
    assert_int_equal(snapshot_count(first, key), 0);
    progress_close(first);
    collection_free(&c);
}

/* A solution queued behind a lock, written after the game went to another level and the
 * other game saved its game of the level: the level is solved, the other's game kept. */
static void test_a_queued_solution_written_after_leaving_the_level_keeps_the_others(void **state)
{
    collection c, m;
    progress_test_parse(CORRIDOR, &c);
    progress_test_parse(SHORT, &m);
    progress_key key = progress_level_key(&c.levels[0]), other = progress_level_key(&m.levels[0]);
    progress *first = progress_test_open(*state), *second = progress_test_open(*state);
    progress_take_game(first, key, progress_get(first, key));
    progress_take_game(second, key, progress_get(second, key));
    sqlite3 *lock = hold_lock(*state);
    assert_false(progress_add_solution(second, &c.levels[0], "rRR", PROGRESS_OWN, NULL));
    assert_false(progress_set_game(second, key, NULL, NULL)); /* solved: the game forgotten */
    progress_take_game(second, other, progress_get(second, other));
    release_lock(lock);
    assert_true(progress_set_game(first, key, "rd", NULL));
    progress_close(first);
    assert_true(progress_set_game(second, other, "R", NULL)); /* the queued ones first */
    const progress_record *record = progress_get(second, key);
    assert_true(record->solved);
    assert_non_null(record->unfinished);
    assert_string_equal(record->unfinished, "rd");
    assert_int_equal(snapshot_count(second, key), 0);
    progress_close(second);
    collection_free(&c);
    collection_free(&m);
}

/* The database replaced under the game (set aside, a new one made by another game, which
 * saved the level's game there): the game takes the level's game of the new database and
 * saves over it, nothing kept apart, and the player is told of the new database. */
static void test_a_replaced_database_is_taken_again(void **state)
{
    collection c;
    progress_test_parse(CORRIDOR, &c);
    progress_key key = progress_level_key(&c.levels[0]);
    progress *first = progress_test_open(*state);
    assert_true(progress_set_game(first, key, "r", NULL));
    progress_take_game(first, key, progress_get(first, key));
    char aside[256];
    snprintf(aside, sizeof aside, "%s", progress_test_path(*state, "aside.db"));
    assert_int_equal(rename(progress_test_path(*state, "progress.db"), aside), 0);
    progress *second = progress_test_open(*state); /* a new database */
    assert_true(progress_set_game(second, key, "l", NULL));
    progress_close(second);
    assert_true(progress_set_game(first, key, "rd", NULL));
    assert_string_equal(progress_get(first, key)->unfinished, "rd");
    assert_int_equal(snapshot_count(first, key), 0);
    const char *notice = progress_take_notice(first);
    assert_non_null(notice);
    if (!strstr(notice, "set aside or replaced") || strstr(notice, "Another sokoban"))
        fail_msg("notice: '%s'", notice);
    progress_close(first);
    collection_free(&c);
}

/* A help mark out of range in the database (edited by hand) reads as none, the same when the
 * game is taken and when it is compared: the game is its own. */
static void test_a_mark_out_of_range_is_read_alike_when_taken_and_compared(void **state)
{
    collection c;
    progress_test_parse(CORRIDOR, &c);
    progress_key key = progress_level_key(&c.levels[0]);
    progress *first = progress_test_open(*state);
    assert_true(progress_set_game(first, key, "r", NULL));
    sqlite3 *db;
    assert_int_equal(sqlite3_open(progress_test_path(*state, "progress.db"), &db), SQLITE_OK);
    assert_int_equal(
        sqlite3_exec(db, "UPDATE level SET unfinished_solver_from = 5000000000", NULL, NULL, NULL),
        SQLITE_OK);
    sqlite3_close(db);
    progress_take_game(first, key, progress_get(first, key));
    assert_int_equal(progress_get(first, key)->unfinished_solver_from, PROGRESS_NO_HELP);
    assert_true(progress_set_game(first, key, "rd", NULL));
    assert_null(progress_take_notice(first));
    assert_string_equal(progress_get(first, key)->unfinished, "rd");
    assert_int_equal(snapshot_count(first, key), 0);
    progress_close(first);
    collection_free(&c);
}

/* The other game solved the level (or restarted it): no game is saved, and this game's moves
 * are saved as the level's game, with nothing to tell. */
static void test_a_game_goes_on_over_an_empty_saved_game(void **state)
{
    collection c;
    progress_test_parse(CORRIDOR, &c);
    progress_key key = progress_level_key(&c.levels[0]);
    progress *first = progress_test_open(*state), *second = progress_test_open(*state);
    assert_true(progress_set_game(first, key, "r", NULL));
    progress_take_game(first, key, progress_get(first, key));
    progress_take_game(second, key, progress_get(second, key));
    assert_true(progress_add_solution(first, &c.levels[0], "rRR", PROGRESS_OWN, NULL));
    assert_true(progress_set_game(first, key, NULL, NULL));
    assert_null(progress_get(second, key)->unfinished);
    assert_true(progress_set_game(second, key, "rd", NULL));
    assert_null(progress_take_notice(second));
    assert_string_equal(progress_get(second, key)->unfinished, "rd");
    assert_int_equal(snapshot_count(second, key), 0);
    progress_close(first);
    progress_close(second);
    collection_free(&c);
}

/* A game kept apart twice within one second: each time in a snapshot of its own name, the
 * first not replaced. */
static void test_games_kept_apart_never_replace_each_other(void **state)
{
    collection c;
    progress_test_parse(CORRIDOR, &c);
    progress_key key = progress_level_key(&c.levels[0]);
    progress *first = progress_test_open(*state), *second = progress_test_open(*state);
    progress_take_game(first, key, progress_get(first, key));
    progress_take_game(second, key, progress_get(second, key));
    assert_true(progress_set_game(first, key, "r", NULL));
    assert_true(progress_set_game(second, key, "l", NULL));     /* kept apart */
    progress_take_game(second, key, progress_get(second, key)); /* opened again */
    assert_true(progress_set_game(first, key, "rr", NULL));
    assert_true(progress_set_game(second, key, "rrl", NULL)); /* kept apart again */
    assert_string_equal(progress_get(first, key)->unfinished, "rr");
    progress_snapshot *list;
    int count = progress_snapshots(second, key, &list);
    assert_int_equal(count, 2);
    bool seen[2] = {false, false};
    for (int i = 0; i < count; i++) {
        assert_non_null(strstr(list[i].name, "kept apart "));
        seen[0] |= strcmp(list[i].lurd, "l") == 0;
        seen[1] |= strcmp(list[i].lurd, "rrl") == 0;
    }
    assert_true(seen[0] && seen[1]);
    assert_string_not_equal(list[0].name, list[1].name);
    progress_snapshots_free(list, count);
    progress_close(first);
    progress_close(second);
    collection_free(&c);
}

#define WITH_DIRECTORY(test)                                                                       \
    cmocka_unit_test_setup_teardown(test, progress_test_make_dir, progress_test_remove_dir)

int main(void)
{
    const struct CMUnitTest tests[] = {
        WITH_DIRECTORY(test_two_games_on_one_level_never_write_over_each_other),
        WITH_DIRECTORY(test_a_game_unchanged_or_solved_leaves_the_others_saved_game),
        WITH_DIRECTORY(test_a_queued_game_written_after_leaving_the_level_keeps_the_others),
        WITH_DIRECTORY(test_a_queued_solution_written_after_leaving_the_level_keeps_the_others),
        WITH_DIRECTORY(test_a_queued_game_of_a_level_opened_again_stays_its_own),
        WITH_DIRECTORY(test_a_replaced_database_is_taken_again),
        WITH_DIRECTORY(test_a_mark_out_of_range_is_read_alike_when_taken_and_compared),
        WITH_DIRECTORY(test_a_game_goes_on_over_an_empty_saved_game),
        WITH_DIRECTORY(test_games_kept_apart_never_replace_each_other),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
