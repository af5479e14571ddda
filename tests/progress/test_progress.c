/* test_progress.c - the progress store: records and bests (checked by replay), unfinished
 * games with redo steps, snapshots, imported solutions, collections, statistics, games saving
 * at once, failed saves told. Files not ours, damage and migrations: test_progress_files.c,
 * test_progress_salvage.c, test_progress_migrate.c;
 * two games on one level: test_progress_games.c. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <errno.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <sqlite3.h>

#include "aside.h"
#include "level/level.h"
#include "progress/progress.h"
#include "progress_test.h"

/* SQLite's busy timeouts as the progress store sets them, divided by busy_divisor: the
 * executable is linked with -Wl,--wrap=sqlite3_busy_timeout (tests/meson.build). A test
 * of what comes after a wait on another game's lock (not of how long it is) shortens it. */
static int busy_divisor = 1;

int __real_sqlite3_busy_timeout(sqlite3 *db, int ms);
int __wrap_sqlite3_busy_timeout(sqlite3 *db, int ms);

int __wrap_sqlite3_busy_timeout(sqlite3 *db, int ms)
{
    return __real_sqlite3_busy_timeout(db, ms / busy_divisor);
}

/* One push to the right solves it. */
static const char ONE_PUSH[] = "#####\n"
                               "#@$.#\n"
                               "#####\n";
/* rRR solves it in 3 moves and 2 pushes; durRR in 5 and 2. */
static const char CORRIDOR[] = "#######\n"
                               "#@ $ .#\n"
                               "#     #\n"
                               "#######\n";

static void test_edited_level_gets_a_different_key(void **state)
{
    (void)state;
    collection a, b, c;
    progress_test_parse(ONE_PUSH, &a);
    progress_test_parse("#####\n#@ $.#\n######\n", &b);
    progress_test_parse("; Another title\n#####\n#@$.#\n#####\n", &c);
    assert_true(progress_level_key(&a.levels[0]) != progress_level_key(&b.levels[0]));
    assert_true(progress_level_key(&a.levels[0]) == progress_level_key(&c.levels[0]));
    collection_free(&a);
    collection_free(&b);
    collection_free(&c);
}

static void test_new_database_is_empty_progress(void **state)
{
    progress_test_dir *f = *state;
    progress *p = progress_test_open(f);
    assert_null(progress_get(p, 42));
    const char *path;
    int level;
    assert_false(progress_last(p, &path, &level));
    assert_true(progress_saving(p));
    assert_string_equal(progress_file(p), progress_test_path(f, "progress.db"));
    progress_close(p);
    struct stat status;
    assert_int_equal(stat(progress_test_path(f, "progress.db"), &status), 0);
}

static void test_records_survive_closing_without_a_save(void **state)
{
    progress_test_dir *f = *state;
    collection c;
    progress_test_parse(ONE_PUSH, &c);
    progress_key key = progress_level_key(&c.levels[0]);
    progress *p = progress_test_open(f);
    assert_true(progress_add_solution(p, &c.levels[0], "R", PROGRESS_OWN, NULL));
    assert_true(progress_set_game(p, 9, "llUr", "dd"));
    assert_true(progress_set_last(p, "/no/such/dir/my levels 100%.xsb", 12));
    /* Every change is committed at once: a game killed here keeps them. */
    progress *q = progress_test_open(f);
    const progress_record *solved = progress_get_level(q, &c.levels[0]);
    assert_non_null(solved);
    assert_true(solved->solved);
    assert_false(solved->assisted);
    assert_string_equal(solved->best_moves.lurd, "R");
    assert_int_equal(solved->best_moves.moves, 1);
    assert_int_equal(solved->best_moves.pushes, 1);
    assert_int_equal(solved->best_moves.origin, PROGRESS_OWN);
    assert_string_equal(solved->best_pushes.lurd, "R");
    assert_int_equal(solved->key, key);
    const progress_record *playing = progress_get(q, 9);
    assert_non_null(playing);
    assert_string_equal(playing->unfinished, "llUr");
    assert_string_equal(playing->unfinished_redo, "dd");
    assert_false(playing->solved);
    const char *path;
    int level;
    assert_true(progress_last(q, &path, &level));
    assert_string_equal(path, "/no/such/dir/my levels 100%.xsb");
    assert_int_equal(level, 12);
    assert_int_equal(progress_collection_level(q, "/no/such/dir/my levels 100%.xsb"), 12);
    progress_close(q);
    progress_close(p);
    collection_free(&c);
}

static void test_each_collection_remembers_its_own_level(void **state)
{
    progress *p = progress_test_open(*state);
    assert_true(progress_set_last(p, "/levels/a.xsb", 3));
    assert_true(progress_set_last(p, "/levels/b.xsb", 8));
    assert_int_equal(progress_collection_level(p, "/levels/a.xsb"), 3);
    assert_int_equal(progress_collection_level(p, "/levels/b.xsb"), 8);
    assert_int_equal(progress_collection_level(p, "/levels/c.xsb"), 0);
    assert_true(progress_set_last(p, "/levels/a.xsb", 4));
    const char *path;
    int level;
    assert_true(progress_last(p, &path, &level));
    assert_string_equal(path, "/levels/a.xsb");
    assert_int_equal(level, 4);
    progress_close(p);
}

static void test_every_collection_played_is_listed_last_played_first(void **state)
{
    progress *p = progress_test_open(*state);
    char **paths;
    assert_int_equal(progress_collections(p, &paths), 0);
    assert_true(progress_set_last(p, "/levels/a.xsb", 3));
    assert_true(progress_set_last(p, "-", 1));
    assert_true(progress_set_last(p, "/levels/b.xsb", 8));
    assert_true(progress_set_last(p, "/levels/a.xsb", 4));
    assert_int_equal(progress_collections(p, &paths), 3);
    assert_string_equal(paths[0], "/levels/a.xsb");
    assert_string_equal(paths[1], "/levels/b.xsb");
    assert_string_equal(paths[2], "-"); /* standard input, as kept */
    for (int i = 0; i < 3; i++) free(paths[i]);
    free(paths);
    progress_close(p);
}

static void test_a_solution_that_does_not_solve_is_not_kept(void **state)
{
    collection c;
    progress_test_parse(CORRIDOR, &c);
    progress *p = progress_test_open(*state);
    int flags = -1;
    assert_false(progress_add_solution(p, &c.levels[0], "rR", PROGRESS_OWN, &flags)); /* short */
    assert_int_equal(flags, 0);
    assert_false(progress_add_solution(p, &c.levels[0], "uuu", PROGRESS_OWN, &flags)); /* wall */
    assert_false(progress_add_solution(p, &c.levels[0], "first", PROGRESS_OWN, &flags));
    assert_null(progress_get_level(p, &c.levels[0]));
    progress_close(p);
    collection_free(&c);
}

static void test_bests_count_the_replay_not_the_claim(void **state)
{
    collection c;
    progress_test_parse(CORRIDOR, &c);
    progress *p = progress_test_open(*state);
    int flags;
    /* Lowercase text is read without case: the replay makes the pushes uppercase. */
    assert_true(progress_add_solution(p, &c.levels[0], "durrr", PROGRESS_OWN, &flags));
    assert_int_equal(flags, PROGRESS_BEST_MOVES | PROGRESS_BEST_PUSHES);
    assert_false(progress_add_solution(p, &c.levels[0], "dulrrRR", PROGRESS_OWN, &flags));
    assert_int_equal(flags, 0);
    assert_true(progress_add_solution(p, &c.levels[0], "rRR", PROGRESS_ASSISTED, &flags));
    assert_int_equal(flags, PROGRESS_BEST_MOVES | PROGRESS_BEST_PUSHES);
    const progress_record *r = progress_get_level(p, &c.levels[0]);
    assert_string_equal(r->best_moves.lurd, "rRR");
    assert_int_equal(r->best_moves.moves, 3);
    assert_int_equal(r->best_moves.pushes, 2);
    assert_int_equal(r->best_moves.origin, PROGRESS_ASSISTED);
    assert_true(r->solved);
    assert_true(r->assisted);
    progress_close(p);
    collection_free(&c);
}

/* O in the game: the optimizer's shorter best is kept as its own origin, the level counted
 * assisted, and the game in play left as it was. */
static void test_an_optimized_best_is_marked_and_leaves_the_game(void **state)
{
    collection c;
    progress_test_parse(CORRIDOR, &c);
    progress *p = progress_test_open(*state);
    assert_true(progress_add_solution(p, &c.levels[0], "durrr", PROGRESS_OWN, NULL));
    progress_key key = progress_level_key(&c.levels[0]);
    assert_true(progress_set_game(p, key, "rR", ""));
    int flags;
    assert_true(progress_add_solution(p, &c.levels[0], "rRR", PROGRESS_OPTIMIZED, &flags));
    assert_int_equal(flags, PROGRESS_BEST_MOVES | PROGRESS_BEST_PUSHES);
    progress_close(p);
    p = progress_test_open(*state); /* as the database keeps it */
    const progress_record *r = progress_get_level(p, &c.levels[0]);
    assert_string_equal(r->best_moves.lurd, "rRR");
    assert_int_equal(r->best_moves.origin, PROGRESS_OPTIMIZED);
    assert_int_equal(r->best_pushes.origin, PROGRESS_OPTIMIZED);
    assert_true(r->solved);
    assert_true(r->assisted);
    assert_string_equal(r->unfinished, "rR");
    progress_close(p);
    collection_free(&c);
}

/* The game's status line reads the level's record at every redraw: read again with nothing
 * changed, it is the same record, kept in memory; a change by this game, or by another game
 * on the same file, is seen at the next read. */
static void test_a_record_read_again_follows_every_change(void **state)
{
    collection c;
    progress_test_parse(CORRIDOR, &c);
    progress *p = progress_test_open(*state);
    progress *other = progress_test_open(*state);
    assert_null(progress_get_level(p, &c.levels[0]));
    assert_null(progress_get_level(p, &c.levels[0]));
    assert_true(progress_add_solution(p, &c.levels[0], "durrr", PROGRESS_OWN, NULL));
    const progress_record *r = progress_get_level(p, &c.levels[0]);
    assert_non_null(r);
    assert_int_equal(r->best_moves.moves, 5);
    assert_ptr_equal(progress_get_level(p, &c.levels[0]), r); /* from memory */
    /* another read in between takes the next slot; the record is still the same */
    assert_null(progress_get(p, 12345));
    assert_int_equal(progress_get_level(p, &c.levels[0])->best_moves.moves, 5);
    /* another game saves a better solution */
    assert_true(progress_add_solution(other, &c.levels[0], "rRR", PROGRESS_OWN, NULL));
    r = progress_get_level(p, &c.levels[0]);
    assert_non_null(r);
    assert_int_equal(r->best_moves.moves, 3);
    /* and this game a time */
    assert_true(progress_add_time(p, progress_level_key(&c.levels[0]), 7.5));
    assert_true(progress_get_level(p, &c.levels[0])->seconds >= 7.5);
    progress_close(other);
    progress_close(p);
    collection_free(&c);
}

/* Issue 13, item 6: a record claiming a 0-move best no longer blocks the real ones. */
static void test_a_false_best_is_dropped_and_told_once(void **state)
{
    collection c;
    progress_test_parse(CORRIDOR, &c);
    progress_key key = progress_level_key(&c.levels[0]);
    progress *p = progress_test_open(*state);
    /* The old call keeps the counts it is given, unchecked, as an old progress.txt did. */
    assert_true(progress_record_solution(p, key, "r", 0, 0));
    assert_non_null(progress_get(p, key)->best_moves.lurd);
    const progress_record *r = progress_get_level(p, &c.levels[0]);
    assert_non_null(r);
    assert_null(r->best_moves.lurd);
    assert_null(r->best_pushes.lurd);
    assert_false(r->solved);
    const char *notice = progress_take_notice(p);
    assert_non_null(notice);
    assert_non_null(strstr(notice, "did not solve it"));
    assert_null(progress_take_notice(p));
    int flags;
    assert_true(progress_add_solution(p, &c.levels[0], "rRR", PROGRESS_OWN, &flags));
    assert_int_equal(progress_get_level(p, &c.levels[0])->best_moves.moves, 3);
    assert_null(progress_take_notice(p));
    progress_close(p);
    collection_free(&c);
}

static void test_an_unchecked_true_best_gets_its_real_counts(void **state)
{
    collection c;
    progress_test_parse(CORRIDOR, &c);
    progress_key key = progress_level_key(&c.levels[0]);
    progress *p = progress_test_open(*state);
    assert_true(progress_record_solution(p, key, "rRR", 1, 1));
    const progress_record *r = progress_get_level(p, &c.levels[0]);
    assert_non_null(r);
    assert_int_equal(r->best_moves.moves, 3);
    assert_int_equal(r->best_moves.pushes, 2);
    assert_null(progress_take_notice(p));
    progress_close(p);
    collection_free(&c);
}

static void test_best_by_moves_and_best_by_pushes_are_kept_apart(void **state)
{
    progress *p = progress_test_open(*state);
    assert_false(progress_record_solution(p, 1, "first", 0, 0)); /* not LURD */
    assert_true(progress_record_solution(p, 1, "llllRRRR", 100, 30));
    assert_true(progress_record_solution(p, 1, "lllRRR", 80, 40)); /* fewer moves */
    assert_true(progress_record_solution(p, 1, "llRR", 120, 20));  /* fewer pushes */
    assert_false(progress_record_solution(p, 1, "lR", 90, 35));    /* neither */
    assert_true(progress_record_solution(p, 1, "uuRR", 80, 39));   /* same moves, fewer pushes */
    const progress_record *r = progress_get(p, 1);
    assert_string_equal(r->best_moves.lurd, "uuRR");
    assert_int_equal(r->best_moves.pushes, 39);
    assert_string_equal(r->best_pushes.lurd, "llRR");
    assert_int_equal(r->best_pushes.moves, 120);
    progress_close(p);
}

static void test_solving_forgets_the_unfinished_game(void **state)
{
    collection c;
    progress_test_parse(CORRIDOR, &c);
    progress_key key = progress_level_key(&c.levels[0]);
    progress *p = progress_test_open(*state);
    assert_true(progress_set_game(p, key, "rR", "R"));
    assert_true(progress_add_solution(p, &c.levels[0], "rRR", PROGRESS_OWN, NULL));
    assert_null(progress_get(p, key)->unfinished);
    assert_null(progress_get(p, key)->unfinished_redo);
    assert_true(progress_set_unfinished(p, key, "dd"));
    assert_string_equal(progress_get(p, key)->unfinished, "dd");
    assert_true(progress_set_unfinished(p, key, NULL));
    assert_null(progress_get(p, key)->unfinished);
    assert_true(progress_get(p, key)->solved);
    assert_false(progress_set_game(p, key, "x", NULL));
    progress_close(p);
    collection_free(&c);
}

static void test_snapshots_are_kept_by_name(void **state)
{
    progress *p = progress_test_open(*state);
    assert_true(progress_snapshot_save(p, 5, "before the corner", "llUr", "dd", NULL));
    assert_true(progress_snapshot_save(p, 5, "start", "", NULL, NULL));
    assert_true(progress_snapshot_save(p, 5, "before the corner", "llUrr", "", NULL));
    assert_true(progress_snapshot_save(p, 6, "other level", "u", "", NULL));
    assert_false(progress_snapshot_save(p, 5, "bad", "llx", "", NULL));
    progress_snapshot *list;
    int count = progress_snapshots(p, 5, &list);
    assert_int_equal(count, 2);
    bool seen_corner = false;
    for (int i = 0; i < count; i++) {
        if (strcmp(list[i].name, "before the corner") == 0) {
            assert_string_equal(list[i].lurd, "llUrr");
            assert_string_equal(list[i].redo, "");
            seen_corner = true;
        } else {
            assert_string_equal(list[i].name, "start");
            assert_string_equal(list[i].lurd, "");
        }
        assert_true(list[i].saved > 0);
    }
    assert_true(seen_corner);
    progress_snapshots_free(list, count);
    assert_true(progress_snapshot_delete(p, 5, "start"));
    assert_false(progress_snapshot_delete(p, 5, "start"));
    count = progress_snapshots(p, 5, &list);
    assert_int_equal(count, 1);
    progress_snapshots_free(list, count);
    progress_close(p);
}

/* Issue 44: the steps played as one move (a box moved with the mouse) are kept with the
 * unfinished game and with a snapshot, so that they undo as one after a resume; solving
 * the level forgets them with the game; a text that is not groups is refused. */
static void test_moves_played_as_one_are_kept_with_the_game(void **state)
{
    collection c;
    progress_test_parse(CORRIDOR, &c);
    progress_key key = progress_level_key(&c.levels[0]);
    progress *p = progress_test_open(*state);
    assert_true(
        progress_set_game_helped(p, key, "rR", "R", "0-1,2-2", PROGRESS_NO_HELP, PROGRESS_NO_HELP));
    progress *q = progress_test_open(*state); /* another game reads what was written */
    assert_string_equal(progress_get(q, key)->unfinished_groups, "0-1,2-2");
    progress_close(q);
    assert_true(
        progress_set_game_helped(p, key, "rR", "", NULL, PROGRESS_NO_HELP, PROGRESS_NO_HELP));
    assert_null(progress_get(p, key)->unfinished_groups);
    assert_true(progress_set_game_helped(p, key, "rR", "", "0-1", PROGRESS_NO_HELP, 1));
    assert_true(progress_add_solution(p, &c.levels[0], "rRR", PROGRESS_OWN, NULL));
    assert_null(progress_get(p, key)->unfinished_groups);
    assert_false(
        progress_set_game_helped(p, key, "rR", "", "0-1;", PROGRESS_NO_HELP, PROGRESS_NO_HELP));

    assert_true(progress_snapshot_save(p, key, "box moved", "rRR", "", "0-2"));
    assert_true(progress_snapshot_save(p, key, "walked", "r", "", NULL));
    assert_false(progress_snapshot_save(p, key, "bad", "r", "", "x"));
    progress_snapshot *list;
    int count = progress_snapshots(p, key, &list);
    assert_int_equal(count, 2);
    for (int i = 0; i < count; i++)
        assert_string_equal(list[i].groups, strcmp(list[i].name, "box moved") ? "" : "0-2");
    progress_snapshots_free(list, count);
    progress_close(p);
    collection_free(&c);
}

/* The groups a text names, read as a history of `steps` steps takes them, "FIRST-LAST"
 * comma-separated; "" when none. */
static const char *groups_read(const char *text, int steps)
{
    static char out[256];
    size_t used = 0;
    out[0] = '\0';
    int first, last = -1;
    for (const char *at = text; progress_groups_next(&at, steps, &first, &last);)
        used += (size_t)snprintf(out + used, sizeof out - used, "%s%d-%d", used ? "," : "", first,
                                 last);
    return out;
}

/* A groups text from the database is read as far as it makes sense and no further:
 * groups past the history's steps are cut to them, and a damaged group (reversed,
 * overlapping the one before, negative, signed, spaced, a number too big) ends the
 * reading with the groups before it kept; 2 MiB of digits read once. */
static void test_a_damaged_groups_text_keeps_the_groups_before_the_damage(void **state)
{
    (void)state;
    assert_string_equal(groups_read("0-1,3-8,12-20", 30), "0-1,3-8,12-20");
    assert_string_equal(groups_read("0-1,3-8,12-20", 10), "0-1,3-8");
    assert_string_equal(groups_read("0-1,3-8,12-20", 6), "0-1,3-5");
    assert_string_equal(groups_read("0-1,", 6), "0-1");
    assert_string_equal(groups_read("", 6), "");
    assert_string_equal(groups_read(NULL, 6), "");
    assert_string_equal(groups_read("0-1", 0), "");
    assert_string_equal(groups_read("0-1", 1), "");
    assert_string_equal(groups_read("5-3,6-8", 30), "");
    assert_string_equal(groups_read("2-2", 30), "");
    assert_string_equal(groups_read("0-4,3-6", 30), "0-4");
    assert_string_equal(groups_read("0-4,4-6", 30), "0-4");
    assert_string_equal(groups_read("0-4,,6-8", 30), "0-4");
    assert_string_equal(groups_read("-1-3", 30), "");
    assert_string_equal(groups_read("0--3", 30), "");
    assert_string_equal(groups_read("+1-3", 30), "");
    assert_string_equal(groups_read(" 1-3", 30), "");
    assert_string_equal(groups_read("1- 3", 30), "");
    assert_string_equal(groups_read("1-3x", 30), "");
    assert_string_equal(groups_read("1-3;5-6", 30), "");
    assert_string_equal(groups_read("1-99999999999999999999999", 30), "1-29");
    assert_string_equal(groups_read("1-99999999999999999999999,40-50", 60), "1-59");
    assert_string_equal(groups_read("99999999999999999999999-1", 30), "");
    assert_string_equal(groups_read("2147483648-2147483649", 30), "");
    size_t size = 2 << 20;
    char *digits = malloc(size + 8);
    assert_non_null(digits);
    memset(digits, '7', size);
    strcpy(digits + size, ",0-1");
    assert_string_equal(groups_read(digits, 30), "");
    memcpy(digits, "0-", 2);
    assert_string_equal(groups_read(digits, 30), "0-29");
    free(digits);
}

static void test_imported_solutions_are_checked_and_marked(void **state)
{
    collection c;
    progress_test_parse(CORRIDOR, &c);
    progress_key key = progress_level_key(&c.levels[0]);
    progress *p = progress_test_open(*state);
    int flags;
    assert_false(progress_import_solution(p, &c.levels[0], "rR", "a.sol", &flags));
    assert_true(progress_import_solution(p, &c.levels[0], "durRR", "a.sol", &flags));
    assert_int_equal(flags, PROGRESS_BEST_MOVES | PROGRESS_BEST_PUSHES);
    assert_true(progress_import_solution(p, &c.levels[0], "rRR", "b.sok", &flags));
    progress_imported *list;
    int count = progress_imported_solutions(p, key, &list);
    assert_int_equal(count, 2);
    assert_string_equal(list[0].lurd, "rRR");
    assert_string_equal(list[0].source, "b.sok");
    assert_int_equal(list[1].moves, 5);
    progress_imported_free(list, count);
    const progress_record *r = progress_get_level(p, &c.levels[0]);
    assert_int_equal(r->best_moves.origin, PROGRESS_IMPORTED);
    assert_false(r->solved); /* imported is not solved by the player */
    progress_close(p);
    collection_free(&c);
}

static void test_statistics_sum_the_levels_given(void **state)
{
    collection c;
    progress_test_parse(";1\n#####\n#@$.#\n#####\n\n;2\n"
                        "#######\n#@ $ .#\n#     #\n#######\n"
                        "\n;3\n######\n#@$ .#\n######\n",
                        &c);
    assert_int_equal(c.count, 3);
    progress_key keys[3];
    for (int i = 0; i < 3; i++) keys[i] = progress_level_key(&c.levels[i]);
    progress *p = progress_test_open(*state);
    assert_true(progress_add_solution(p, &c.levels[0], "R", PROGRESS_OWN, NULL));
    assert_true(progress_add_solution(p, &c.levels[1], "rRR", PROGRESS_ASSISTED, NULL));
    assert_true(progress_set_unfinished(p, keys[2], "R"));
    assert_true(progress_add_time(p, keys[0], 30));
    assert_true(progress_add_time(p, keys[0], 12.5));
    assert_true(progress_add_time(p, keys[2], 7.5));
    progress_statistics s;
    assert_true(progress_statistics_of(p, keys, 3, &s));
    assert_int_equal(s.levels, 3);
    assert_int_equal(s.solved, 1);
    assert_int_equal(s.assisted, 1);
    assert_int_equal(s.started, 1);
    assert_true(s.seconds > 49.9 && s.seconds < 50.1);
    assert_true(progress_get(p, keys[0])->seconds > 42.4);
    progress_close(p);
    collection_free(&c);
}

/* Issue 45, item 13: a collection's summaries come in one query and say what the records
 * say; a false best is not counted; another game's change is seen at the next call. */
static void test_summaries_of_a_collection_follow_its_records(void **state)
{
    progress_test_dir *f = *state;
    collection c;
    progress_test_parse("; A\n#######\n#@ $ .#\n#     #\n#######\n\n"
                        "; B\n#####\n#@$.#\n#####\n\n"
                        "; C\n######\n#@$ .#\n######\n\n"
                        "; D\n#####\n#@ $.#\n######\n",
                        &c);
    progress *p = progress_test_open(f);
    assert_true(progress_add_solution(p, &c.levels[0], "rRR", PROGRESS_OWN, NULL));
    assert_true(progress_add_solution(p, &c.levels[0], "durRR", PROGRESS_OWN, NULL) == false);
    assert_true(progress_add_solution(p, &c.levels[1], "R", PROGRESS_ASSISTED, NULL));
    assert_true(progress_set_unfinished(p, progress_level_key(&c.levels[2]), "r"));
    const progress_summary *s = progress_summaries(p, c.levels, c.count);
    assert_non_null(s);
    assert_true(s[0].known && s[0].solved && !s[0].assisted);
    assert_true(s[0].best_moves.kept);
    assert_int_equal(s[0].best_moves.moves, 3);
    assert_int_equal(s[0].best_pushes.pushes, 2);
    assert_int_equal(s[0].best_moves.origin, PROGRESS_OWN);
    assert_true(s[1].assisted && !s[1].solved);
    assert_int_equal(s[1].best_moves.origin, PROGRESS_ASSISTED);
    assert_true(s[2].started && !s[2].best_moves.kept);
    assert_false(s[3].known);
    /* the same answer while nothing changes */
    assert_ptr_equal(progress_summaries(p, c.levels, c.count), s);

    /* another game solves D, and writes a false best for C by hand */
    progress *other = progress_test_open(f);
    assert_true(progress_add_solution(other, &c.levels[3], "rR", PROGRESS_OWN, NULL));
    progress_close(other);
    sqlite3 *db;
    assert_int_equal(sqlite3_open(progress_test_path(f, "progress.db"), &db), SQLITE_OK);
    char sql[256];
    snprintf(sql, sizeof sql,
             "INSERT INTO best (key, kind, lurd, moves, pushes, checked) "
             "VALUES (%lld, 0, 'L', 1, 0, 1)",
             (long long)progress_level_key(&c.levels[2]));
    assert_int_equal(sqlite3_exec(db, sql, NULL, NULL, NULL), SQLITE_OK);
    sqlite3_close(db);
    s = progress_summaries(p, c.levels, c.count);
    assert_true(s[3].solved && s[3].best_pushes.kept);
    assert_false(s[2].best_moves.kept); /* 'L' does not solve C */
    progress_close(p);
    collection_free(&c);
}

static void test_xdg_data_home_chooses_the_directory(void **state)
{
    progress_test_dir *f = *state;
    char *saved_data = getenv("XDG_DATA_HOME") ? strdup(getenv("XDG_DATA_HOME")) : NULL;
    char *saved_home = getenv("HOME") ? strdup(getenv("HOME")) : NULL;
    char expected[512];
    setenv("XDG_DATA_HOME", f->directory, 1);
    char message[1024];
    progress *p = progress_open(NULL, message, sizeof message);
    snprintf(expected, sizeof expected, "%s/sokoban/progress.db", f->directory);
    assert_string_equal(progress_file(p), expected);
    progress_close(p);
    setenv("XDG_DATA_HOME", "relative/ignored", 1);
    setenv("HOME", f->directory, 1);
    p = progress_open(NULL, message, sizeof message);
    snprintf(expected, sizeof expected, "%s/.local/share/sokoban/progress.db", f->directory);
    assert_string_equal(progress_file(p), expected);
    progress_close(p);
    unsetenv("XDG_DATA_HOME");
    unsetenv("HOME");
    p = progress_open(NULL, message, sizeof message);
    assert_non_null(strstr(message, "not saved"));
    assert_false(progress_saving(p));
    assert_true(progress_set_unfinished(p, 3, "ll")); /* kept in memory */
    assert_string_equal(progress_get(p, 3)->unfinished, "ll");
    char why[1024];
    assert_true(progress_unsaved(p, why, sizeof why));
    progress_close(p);
    if (saved_data) setenv("XDG_DATA_HOME", saved_data, 1);
    if (saved_home) setenv("HOME", saved_home, 1);
    free(saved_data);
    free(saved_home);
}

/* The done-when of issue 13: 8 processes, each saving 50 times (a solution and an unfinished
 * game, then progress_save), all on the same database at once; nothing may be lost. */
enum { SAVERS = 8, SAVES = 50 };

static void test_eight_games_saving_fifty_times_at_once_lose_nothing(void **state)
{
    progress_test_dir *f = *state;
    pid_t children[SAVERS];
    for (int saver = 0; saver < SAVERS; saver++) {
        children[saver] = fork();
        assert_true(children[saver] >= 0);
        if (children[saver] > 0) continue;
        /* The child: no cmocka asserts here, only an exit status. */
        char message[1024];
        progress *p = progress_open(f->directory, message, sizeof message);
        if (!p || message[0]) {
            fprintf(stderr, "game %d: %s\n", saver, p ? message : "out of memory");
            _exit(2);
        }
        for (int i = 0; i < SAVES; i++) {
            progress_key key = (progress_key)(saver * 1000 + i + 1);
            progress_record_solution(p, key, "rR", 2, 1);
            progress_set_unfinished(p, key + 500, "lurd");
            progress_set_last(p, "/levels/shared.xsb", saver * 100 + i);
            progress_save(p, message, sizeof message);
        }
        bool lost = progress_unsaved(p, message, sizeof message);
        progress_close(p);
        _exit(lost ? 1 : 0);
    }
    for (int saver = 0; saver < SAVERS; saver++) {
        int status;
        assert_int_equal(waitpid(children[saver], &status, 0), children[saver]);
        assert_true(WIFEXITED(status));
        assert_int_equal(WEXITSTATUS(status), 0);
    }
    progress *p = progress_test_open(f);
    int missing = 0;
    for (int saver = 0; saver < SAVERS; saver++)
        for (int i = 0; i < SAVES; i++) {
            progress_key key = (progress_key)(saver * 1000 + i + 1);
            const progress_record *solved = progress_get(p, key);
            const progress_record *playing = progress_get(p, key + 500);
            missing += !solved || !solved->best_moves.lurd;
            missing += !playing || !playing->unfinished;
        }
    assert_int_equal(missing, 0);
    const char *path;
    int level;
    assert_true(progress_last(p, &path, &level));
    assert_int_equal(level % 100, SAVES - 1); /* some game's last save */
    progress_close(p);
}

/* Another game holding the database's write lock (a transaction begun, not ended). */
static sqlite3 *hold_the_lock(const progress_test_dir *f)
{
    sqlite3 *other;
    assert_int_equal(sqlite3_open(progress_test_path(f, "progress.db"), &other), SQLITE_OK);
    assert_int_equal(sqlite3_exec(other, "BEGIN IMMEDIATE", NULL, NULL, NULL), SQLITE_OK);
    return other;
}

/* That game ends its transaction and closes. */
static void let_the_lock_go(sqlite3 *other)
{
    assert_int_equal(sqlite3_exec(other, "COMMIT", NULL, NULL, NULL), SQLITE_OK);
    sqlite3_close(other);
}

/* Issue 13, item 4: another game holding the lock does not freeze this one; its writes are
 * kept, told once, and written when the lock goes. */
static void test_a_held_lock_queues_the_change_and_tells_it(void **state)
{
    progress_test_dir *f = *state;
    busy_divisor = 10; /* 200 ms for the final save's 2 s: the same failure, told the same */
    progress *p = progress_test_open(f);
    sqlite3 *other = hold_the_lock(f);
    assert_false(progress_set_unfinished(p, 1, "ll"));
    const char *notice = progress_take_notice(p);
    assert_non_null(notice);
    assert_non_null(strstr(notice, "locked"));
    assert_false(progress_set_unfinished(p, 1, "llr"));
    assert_null(progress_take_notice(p)); /* told once */
    char message[1024];
    assert_false(progress_save(p, message, sizeof message));
    assert_string_equal(message, ""); /* already told */
    assert_true(progress_unsaved(p, message, sizeof message));
    assert_non_null(strstr(message, "locked"));
    assert_false(progress_save_final(p, message, sizeof message));
    assert_non_null(strstr(message, "locked"));
    let_the_lock_go(other);
    assert_true(progress_save(p, message, sizeof message));
    assert_true(progress_save_final(p, message, sizeof message));
    assert_false(progress_unsaved(p, message, sizeof message));
    assert_string_equal(progress_get(p, 1)->unfinished, "llr");
    progress_close(p);
}

/* Snapshots saved and deleted while another game holds the lock are queued, not refused, and
 * the list shows them as the player left them; they are written when the lock goes. */
static void test_snapshots_under_a_held_lock_are_listed_as_left(void **state)
{
    progress_test_dir *f = *state;
    busy_divisor = 10;
    progress *p = progress_test_open(f);
    assert_true(progress_snapshot_save(p, 5, "a", "l", "", NULL));
    assert_true(progress_snapshot_save(p, 5, "c", "ll", "", NULL));
    sqlite3 *other = hold_the_lock(f);
    assert_true(progress_snapshot_save(p, 5, "b", "r", "", NULL));   /* queued */
    assert_true(progress_snapshot_save(p, 5, "c", "lll", "", NULL)); /* replaced, queued */
    assert_true(progress_snapshot_delete(p, 5, "a"));                /* queued */
    assert_false(progress_snapshot_delete(p, 5, "a"));               /* gone as listed */
    for (int round = 0; round < 2; round++) {
        progress_snapshot *list;
        int count = progress_snapshots(p, 5, &list);
        assert_int_equal(count, 2);
        bool b_first = strcmp(list[0].name, "b") == 0;
        const progress_snapshot *b = &list[b_first ? 0 : 1], *c = &list[b_first ? 1 : 0];
        assert_string_equal(b->name, "b");
        assert_string_equal(b->lurd, "r");
        assert_string_equal(c->name, "c");
        assert_string_equal(c->lurd, "lll");
        assert_true(list[0].saved >= list[1].saved);
        progress_snapshots_free(list, count);
        if (round == 0) {
            let_the_lock_go(other);
            char message[1024];
            assert_true(progress_save(p, message, sizeof message));
        }
    }
    progress_close(p);
    p = progress_test_open(f);
    progress_snapshot *list;
    int count = progress_snapshots(p, 5, &list);
    assert_int_equal(count, 2);
    progress_snapshots_free(list, count);
    progress_close(p);
}

/* Quitting with another game's lock: progress_save_final() waits for it once and says what
 * is lost; progress_close() right after does not wait as long again (the quit took twice
 * the wait), so what was told stays true: the change is not written even when the lock
 * goes between the two. */
static void test_close_after_a_failed_final_save_does_not_try_again(void **state)
{
    progress_test_dir *f = *state;
    busy_divisor = 10; /* 200 ms for the final save's 2 s: the same failure, told the same */
    progress *p = progress_test_open(f);
    sqlite3 *other = hold_the_lock(f);
    assert_false(progress_set_unfinished(p, 1, "ll"));
    char message[1024];
    assert_false(progress_save_final(p, message, sizeof message));
    assert_non_null(strstr(message, "locked"));
    let_the_lock_go(other);
    progress_close(p);
    p = progress_test_open(f);
    const progress_record *r = progress_get(p, 1);
    assert_true(!r || !r->unfinished);
    progress_close(p);
}

#define WITH_DIRECTORY(test)                                                                       \
    cmocka_unit_test_setup_teardown(test, progress_test_make_dir, progress_test_remove_dir)

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_edited_level_gets_a_different_key),
        WITH_DIRECTORY(test_new_database_is_empty_progress),
        WITH_DIRECTORY(test_records_survive_closing_without_a_save),
        WITH_DIRECTORY(test_each_collection_remembers_its_own_level),
        WITH_DIRECTORY(test_every_collection_played_is_listed_last_played_first),
        WITH_DIRECTORY(test_a_solution_that_does_not_solve_is_not_kept),
        WITH_DIRECTORY(test_a_record_read_again_follows_every_change),
        WITH_DIRECTORY(test_bests_count_the_replay_not_the_claim),
        WITH_DIRECTORY(test_an_optimized_best_is_marked_and_leaves_the_game),
        WITH_DIRECTORY(test_a_false_best_is_dropped_and_told_once),
        WITH_DIRECTORY(test_an_unchecked_true_best_gets_its_real_counts),
        WITH_DIRECTORY(test_best_by_moves_and_best_by_pushes_are_kept_apart),
        WITH_DIRECTORY(test_solving_forgets_the_unfinished_game),
        WITH_DIRECTORY(test_snapshots_are_kept_by_name),
        WITH_DIRECTORY(test_moves_played_as_one_are_kept_with_the_game),
        cmocka_unit_test(test_a_damaged_groups_text_keeps_the_groups_before_the_damage),
        WITH_DIRECTORY(test_imported_solutions_are_checked_and_marked),
        WITH_DIRECTORY(test_statistics_sum_the_levels_given),
        WITH_DIRECTORY(test_summaries_of_a_collection_follow_its_records),
        WITH_DIRECTORY(test_xdg_data_home_chooses_the_directory),
        WITH_DIRECTORY(test_eight_games_saving_fifty_times_at_once_lose_nothing),
    };
    /* Each waits out another game's lock (the busy timeout, shortened): beside the others. */
    const struct CMUnitTest held_lock[] = {
        WITH_DIRECTORY(test_a_held_lock_queues_the_change_and_tells_it),
        WITH_DIRECTORY(test_snapshots_under_a_held_lock_are_listed_as_left)};
    const struct CMUnitTest failed_final_save[] = {
        WITH_DIRECTORY(test_close_after_a_failed_final_save_does_not_try_again)};
    pid_t aside[] = {aside_run("held_lock", held_lock, 2),
                     aside_run("failed_final_save", failed_final_save, 1)};
    int failed = cmocka_run_group_tests(tests, NULL, NULL);
    for (size_t i = 0; i < sizeof aside / sizeof *aside; i++) failed += aside_failures(aside[i]);
    return failed;
}
