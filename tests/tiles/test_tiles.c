/* test_tiles.c - the sliding-tile domain: reading boards, parity, optimal solutions, the
 * lower bounds against breadth-first search, and the pattern database cache. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <errno.h>
#include <sys/stat.h>
#include <unistd.h>

#include "tiles/tiles.h"
#include "tiles/tiles_pdb.h"

/* ------------------------------------------------------------------------------------- */
/* Helpers                                                                                */
/* ------------------------------------------------------------------------------------- */

static tiles_board board_of(const char *text)
{
    tiles_board board;
    char error[200];
    if (!tiles_parse(text, &board, error, sizeof error)) fail_msg("%s: %s", text, error);
    return board;
}

static bool boards_equal(const tiles_board *a, const tiles_board *b)
{
    return a->width == b->width && memcmp(a->cell, b->cell, sizeof a->cell) == 0;
}

/* Solves `text` towards `goal` (NULL: blank last), checks the answer replays to the goal
 * and returns its length. */
static int solve_and_replay(const char *text, const tiles_board *goal, const tiles_pdb *pdb)
{
    tiles_board start = board_of(text), target;
    if (goal)
        target = *goal;
    else
        tiles_goal(start.width, TILES_GOAL_BLANK_LAST, &target);
    tiles_solution solution;
    assert_int_equal(tiles_solve(&start, goal, pdb, NULL, &solution), IDA_SOLVED);
    assert_int_equal((int)strlen(solution.moves), solution.length);
    tiles_board replay = start;
    assert_true(tiles_apply(&replay, solution.moves));
    assert_true(boards_equal(&replay, &target));
    int length = solution.length;
    tiles_solution_free(&solution);
    return length;
}

/* The rank of a 3x3 board among the 9! permutations (Lehmer code). */
static int rank_of(const uint8_t *cell)
{
    int rank = 0;
    for (int i = 0; i < 9; i++) {
        int smaller = 0;
        for (int j = i + 1; j < 9; j++) smaller += cell[j] < cell[i];
        rank = rank * (9 - i) + smaller;
    }
    return rank;
}

enum { PERMUTATIONS_3X3 = 362880 };

/* Breadth-first search from `goal` over all 3x3 boards: distance[rank] in moves, or -1
 * where the goal cannot be reached. Returns a malloc'd array. */
static int8_t *distances_to(const tiles_board *goal)
{
    int8_t *distance = malloc(PERMUTATIONS_3X3);
    tiles_board *queue = malloc(PERMUTATIONS_3X3 * sizeof *queue);
    assert_non_null(distance);
    assert_non_null(queue);
    memset(distance, -1, PERMUTATIONS_3X3);
    size_t head = 0, tail = 0;
    queue[tail++] = *goal;
    distance[rank_of(goal->cell)] = 0;
    while (head < tail) {
        tiles_board board = queue[head++];
        int here = distance[rank_of(board.cell)];
        for (const char *m = "udlr"; *m; m++) {
            tiles_board next = board;
            char move[2] = {*m, 0};
            if (!tiles_apply(&next, move)) continue;
            int rank = rank_of(next.cell);
            if (distance[rank] >= 0) continue;
            distance[rank] = (int8_t)(here + 1);
            queue[tail++] = next;
        }
    }
    free(queue);
    return distance;
}

/* A random 3x3 board (any permutation, solvable or not), from a fixed-seed generator. */
static tiles_board random_board(uint32_t *seed)
{
    tiles_board board = {.width = 3};
    for (int c = 0; c < 9; c++) board.cell[c] = (uint8_t)c;
    for (int c = 8; c > 0; c--) {
        *seed = *seed * 1103515245u + 12345u;
        int other = (int)((*seed >> 8) % (uint32_t)(c + 1));
        uint8_t swap = board.cell[c];
        board.cell[c] = board.cell[other];
        board.cell[other] = swap;
    }
    return board;
}

/* A fresh cache directory under /tmp. */
static void make_cache_dir(char *dir, size_t size)
{
    snprintf(dir, size, "/tmp/test_tiles.XXXXXX");
    assert_non_null(mkdtemp(dir));
}

static void remove_cache_dir(const char *dir, int width)
{
    char path[4400];
    for (int g = 0; g < TILES_PDB_MAX_GROUPS; g++) {
        tiles_pdb_file_name(width, g, dir, path, sizeof path);
        remove(path);
    }
    rmdir(dir);
}

static tiles_pdb *open_3x3(const char *dir, tiles_pdb_origin *origin)
{
    char error[4400];
    tiles_pdb *pdb = tiles_pdb_open(3, dir, NULL, NULL, origin, error, sizeof error);
    if (!pdb) fail_msg("%s", error);
    return pdb;
}

/* ------------------------------------------------------------------------------------- */
/* Reading boards                                                                         */
/* ------------------------------------------------------------------------------------- */

static void test_x_and_0_both_mean_the_blank(void **state)
{
    (void)state;
    tiles_board a = board_of("1 2 3 4 5 6 7 8 x"), b = board_of("1 2 3 4 5 6 7 8 0");
    assert_int_equal(a.width, 3);
    assert_true(boards_equal(&a, &b));
    assert_int_equal(a.cell[8], TILES_BLANK);
}

static void test_sixteen_tiles_make_a_4x4_board(void **state)
{
    (void)state;
    tiles_board board = board_of(" 1 2 3 4\n5 6 7 8\t9 10 11 12 13 14 15 X ");
    assert_int_equal(board.width, 4);
    assert_int_equal(board.cell[9], 10);
}

static void expect_rejected(const char *text, const char *reason)
{
    tiles_board board;
    char error[200] = "";
    assert_false(tiles_parse(text, &board, error, sizeof error));
    if (!strstr(error, reason)) fail_msg("'%s': error '%s' lacks '%s'", text, error, reason);
}

static void test_wrong_count_is_rejected(void **state)
{
    (void)state;
    expect_rejected("1 2 3 4 5 6 7 8", "8 tiles given");
    expect_rejected("1 2 3 4 5 6 7 8 9 10 x", "11 tiles given");
    expect_rejected("", "0 tiles given");
}

static void test_repeated_tile_is_rejected_naming_the_missing_one(void **state)
{
    (void)state;
    expect_rejected("1 2 3 4 5 6 7 7 x", "tile 7 appears twice and tile 8 is missing");
    expect_rejected("1 2 3 4 5 6 7 0 x", "more than one blank");
}

static void test_out_of_range_tile_is_rejected(void **state)
{
    (void)state;
    expect_rejected("1 2 3 4 5 6 7 9 x", "tile 9 is out of range");
}

static void test_letters_are_rejected(void **state)
{
    (void)state;
    expect_rejected("1 2 3 4 5 6 7 8 y", "'y' is not a tile");
    expect_rejected("1 2 3 4 5 6 7 8 -1", "'-1' is not a tile");
}

static void test_format_reads_back(void **state)
{
    (void)state;
    tiles_board board = board_of("2 3 4 1 5 x 7 6 8"), again;
    char text[100], error[100];
    tiles_format(&board, text, sizeof text);
    assert_string_equal(text, "2 3 4 1 5 x 7 6 8");
    assert_true(tiles_parse(text, &again, error, sizeof error));
    assert_true(boards_equal(&board, &again));
}

static void test_moves_off_the_board_are_refused(void **state)
{
    (void)state;
    tiles_board board = board_of("1 2 3 4 5 6 7 8 x");
    assert_false(tiles_apply(&board, "d"));
    assert_false(tiles_apply(&board, "r"));
    assert_false(tiles_apply(&board, "q"));
    assert_true(tiles_apply(&board, "ul"));
    assert_int_equal(board.cell[4], TILES_BLANK);
}

/* ------------------------------------------------------------------------------------- */
/* Solving                                                                                */
/* ------------------------------------------------------------------------------------- */

static void test_eight_sample_is_solved_in_19_moves(void **state)
{
    (void)state;
    assert_int_equal(solve_and_replay("2 3 4 1 5 x 7 6 8", NULL, NULL), 19);
}

static void test_fifteen_puzzle_is_solved_in_44_moves(void **state)
{
    (void)state;
    assert_int_equal(solve_and_replay("2 5 4 6 1 13 11 3 14 12 7 10 8 15 9 0", NULL, NULL), 44);
}

static void test_goal_is_solved_in_no_moves(void **state)
{
    (void)state;
    assert_int_equal(solve_and_replay("1 2 3 4 5 6 7 8 x", NULL, NULL), 0);
}

static void test_two_swapped_tiles_are_unsolvable_without_search(void **state)
{
    (void)state;
    const char *boards[] = {"2 1 3 4 5 6 7 8 x", "1 2 3 4 5 6 8 7 x",
                            "1 2 3 4 5 6 7 8 9 10 11 12 13 15 14 x",
                            "2 5 4 6 1 13 11 3 14 12 7 10 8 9 15 0"};
    for (size_t i = 0; i < sizeof boards / sizeof boards[0]; i++) {
        tiles_board start = board_of(boards[i]), goal;
        tiles_goal(start.width, TILES_GOAL_BLANK_LAST, &goal);
        assert_false(tiles_is_solvable(&start, &goal));
        tiles_solution solution;
        assert_int_equal(tiles_solve(&start, NULL, NULL, NULL, &solution), IDA_UNSOLVABLE);
        assert_int_equal(solution.nodes, 0);
        assert_null(solution.moves);
    }
}

/* Korf's instance 94, towards his goal (blank top left): 53 moves. */
static void test_korf_instance_is_solved_towards_a_blank_first_goal(void **state)
{
    (void)state;
    tiles_board goal;
    tiles_goal(4, TILES_GOAL_BLANK_FIRST, &goal);
    assert_int_equal(goal.cell[0], TILES_BLANK);
    assert_int_equal(goal.cell[15], 15);
    assert_int_equal(solve_and_replay("5 7 11 8 0 14 9 13 10 12 3 15 6 1 4 2", &goal, NULL), 53);
}

static void test_node_limit_stops_the_search(void **state)
{
    (void)state;
    tiles_board start = board_of("2 5 4 6 1 13 11 3 14 12 7 10 8 15 9 0");
    ida_limits limits = {.max_nodes = 1000};
    tiles_solution solution;
    assert_int_equal(tiles_solve(&start, NULL, NULL, &limits, &solution), IDA_LIMIT);
    assert_null(solution.moves);
}

/* Parity agrees with reachability on every 3x3 board. */
static void test_parity_matches_breadth_first_search_on_all_3x3_boards(void **state)
{
    (void)state;
    tiles_board goal;
    tiles_goal(3, TILES_GOAL_BLANK_LAST, &goal);
    int8_t *distance = distances_to(&goal);
    uint32_t seed = 7;
    int reachable = 0;
    for (int i = 0; i < 20000; i++) {
        tiles_board board = random_board(&seed);
        bool reached = distance[rank_of(board.cell)] >= 0;
        reachable += reached;
        assert_int_equal(tiles_is_solvable(&board, &goal), reached);
    }
    assert_true(reachable > 5000 && reachable < 15000);
    free(distance);
}

/* The lower bounds never exceed the true distance, and the solutions are that long, for
 * every goal with the blank in a corner (Manhattan + conflicts, and the databases). */
static void test_bounds_are_admissible_and_solutions_optimal_on_random_3x3_boards(void **state)
{
    (void)state;
    char dir[64];
    make_cache_dir(dir, sizeof dir);
    tiles_pdb *pdb = open_3x3(dir, NULL);
    const char *goals[] = {"1 2 3 4 5 6 7 8 x", "x 1 2 3 4 5 6 7 8", "1 2 x 3 4 5 6 7 8",
                           "8 7 6 5 4 3 2 1 x", "1 2 3 4 x 5 6 7 8"};
    uint32_t seed = 12345;
    for (size_t g = 0; g < sizeof goals / sizeof goals[0]; g++) {
        tiles_board goal = board_of(goals[g]);
        int8_t *distance = distances_to(&goal);
        int checked = 0;
        while (checked < 300) {
            tiles_board board = random_board(&seed);
            int exact = distance[rank_of(board.cell)];
            if (exact < 0) continue;
            checked++;
            int manhattan = tiles_lower_bound(&board, &goal, NULL);
            int databases = tiles_lower_bound(&board, &goal, pdb);
            if (manhattan > exact || databases > exact)
                fail_msg("goal %s: bounds %d, %d above the distance %d", goals[g], manhattan,
                         databases, exact);
            if (checked % 10) continue;
            char text[100];
            tiles_format(&board, text, sizeof text);
            assert_int_equal(solve_and_replay(text, &goal, NULL), exact);
            assert_int_equal(solve_and_replay(text, &goal, pdb), exact);
        }
        free(distance);
    }
    tiles_pdb_free(pdb);
    remove_cache_dir(dir, 3);
}

/* ------------------------------------------------------------------------------------- */
/* The pattern database cache                                                             */
/* ------------------------------------------------------------------------------------- */

static void test_databases_are_built_once_then_loaded(void **state)
{
    (void)state;
    char dir[64];
    make_cache_dir(dir, sizeof dir);
    tiles_pdb_origin origin;
    tiles_pdb *built = open_3x3(dir, &origin);
    assert_int_equal(origin, TILES_PDB_BUILT);
    tiles_pdb *loaded = open_3x3(dir, &origin);
    assert_int_equal(origin, TILES_PDB_LOADED);
    for (int g = 0; g < built->group_count; g++)
        assert_memory_equal(built->table[g], loaded->table[g], 1u << (4 * built->group_size[g]));
    tiles_pdb_free(built);
    tiles_pdb_free(loaded);
    remove_cache_dir(dir, 3);
}

static void flip_byte(const char *path, long offset)
{
    FILE *file = fopen(path, "r+b");
    assert_non_null(file);
    assert_int_equal(fseek(file, offset, SEEK_SET), 0);
    int byte = fgetc(file);
    assert_int_equal(fseek(file, offset, SEEK_SET), 0);
    fputc(byte ^ 1, file);
    fclose(file);
}

static void test_corrupt_cache_file_is_rebuilt(void **state)
{
    (void)state;
    char dir[64], path[4400];
    make_cache_dir(dir, sizeof dir);
    tiles_pdb *first = open_3x3(dir, NULL);
    tiles_pdb_file_name(3, 0, dir, path, sizeof path);
    flip_byte(path, 1000); /* inside the table: the checksum no longer matches */
    tiles_pdb_origin origin;
    tiles_pdb *second = open_3x3(dir, &origin);
    assert_int_equal(origin, TILES_PDB_BUILT);
    assert_memory_equal(first->table[0], second->table[0], 1u << (4 * first->group_size[0]));
    tiles_pdb_free(second);
    tiles_pdb *third = open_3x3(dir, &origin); /* the rebuilt file is good again */
    assert_int_equal(origin, TILES_PDB_LOADED);
    tiles_pdb_free(third);
    tiles_pdb_free(first);
    remove_cache_dir(dir, 3);
}

static void test_truncated_cache_file_is_rebuilt(void **state)
{
    (void)state;
    char dir[64], path[4400];
    make_cache_dir(dir, sizeof dir);
    tiles_pdb_free(open_3x3(dir, NULL));
    tiles_pdb_file_name(3, 1, dir, path, sizeof path);
    assert_int_equal(truncate(path, 5000), 0);
    tiles_pdb_origin origin;
    tiles_pdb_free(open_3x3(dir, &origin));
    assert_int_equal(origin, TILES_PDB_BUILT);
    remove_cache_dir(dir, 3);
}

/* The cache is read only through regular files opened once: a FIFO planted in place of a
 * table would block a plain open for ever (alarm: the test fails instead of hanging). It
 * reads as missing; the table is built and saved, and a regular file replaces the FIFO. */
static void test_fifo_in_the_cache_is_replaced_not_read(void **state)
{
    (void)state;
    char dir[64], path[4400];
    make_cache_dir(dir, sizeof dir);
    tiles_pdb_file_name(3, 0, dir, path, sizeof path);
    assert_int_equal(mkfifo(path, 0600), 0);
    alarm(60);
    tiles_pdb_origin origin;
    tiles_pdb_free(open_3x3(dir, &origin));
    alarm(0);
    assert_int_equal(origin, TILES_PDB_BUILT);
    struct stat info;
    assert_int_equal(lstat(path, &info), 0);
    assert_true(S_ISREG(info.st_mode));
    remove_cache_dir(dir, 3);
}

/* Writes `text` to a new file at `path`. */
static void write_text(const char *path, const char *text)
{
    FILE *file = fopen(path, "w");
    assert_non_null(file);
    fputs(text, file);
    assert_int_equal(fclose(file), 0);
}

static void expect_text(const char *path, const char *text)
{
    char buffer[256] = "";
    FILE *file = fopen(path, "r");
    assert_non_null(file);
    size_t n = fread(buffer, 1, sizeof buffer - 1, file);
    fclose(file);
    buffer[n] = 0;
    assert_string_equal(buffer, text);
}

/* A table file that is a symbolic link, even to a good table, is not followed: the table
 * is built and saved in the link's place, and the link's target is left as it was. */
static void test_symlinked_cache_file_is_not_followed(void **state)
{
    (void)state;
    char good[64], dir[64], path[4400], target[4400];
    make_cache_dir(good, sizeof good);
    make_cache_dir(dir, sizeof dir);
    tiles_pdb_free(open_3x3(good, NULL));
    for (int g = 0; g < 2; g++) {
        tiles_pdb_file_name(3, g, good, target, sizeof target);
        tiles_pdb_file_name(3, g, dir, path, sizeof path);
        assert_int_equal(symlink(target, path), 0);
    }
    struct stat before, after;
    assert_int_equal(stat(target, &before), 0);
    tiles_pdb_origin origin;
    tiles_pdb_free(open_3x3(dir, &origin));
    assert_int_equal(origin, TILES_PDB_BUILT);
    assert_int_equal(lstat(path, &after), 0);
    assert_true(S_ISREG(after.st_mode)); /* the link itself was replaced */
    assert_int_equal(stat(target, &after), 0);
    assert_int_equal(after.st_ino, before.st_ino);
    assert_int_equal(after.st_mtime, before.st_mtime);
    remove_cache_dir(dir, 3);
    remove_cache_dir(good, 3);
}

/* Links planted at every name the cache once used for its temporary files (the table's
 * name or the directory's with the process id) are never written through: the file they
 * point to keeps its contents. */
static void test_planted_links_never_redirect_the_cache_writes(void **state)
{
    (void)state;
    char dir[64], victim[100], link_path[4500], path[4400];
    make_cache_dir(dir, sizeof dir);
    snprintf(victim, sizeof victim, "%s.victim", dir);
    write_text(victim, "the user's precious file\n");
    for (int g = 0; g < 2; g++) {
        tiles_pdb_file_name(3, g, dir, path, sizeof path);
        snprintf(link_path, sizeof link_path, "%s.%ld.tmp", path, (long)getpid());
        assert_int_equal(symlink(victim, link_path), 0);
    }
    snprintf(link_path, sizeof link_path, "%s/.probe.%ld.tmp", dir, (long)getpid());
    assert_int_equal(symlink(victim, link_path), 0);
    tiles_pdb_origin origin;
    tiles_pdb_free(open_3x3(dir, &origin));
    assert_int_equal(origin, TILES_PDB_BUILT);
    expect_text(victim, "the user's precious file\n");
    unlink(link_path);
    for (int g = 0; g < 2; g++) {
        tiles_pdb_file_name(3, g, dir, path, sizeof path);
        snprintf(link_path, sizeof link_path, "%s.%ld.tmp", path, (long)getpid());
        unlink(link_path);
    }
    unlink(victim);
    remove_cache_dir(dir, 3);
}

/* A directory where a table file should be: not read, and the databases still come
 * (built in memory) with the reason they could not be saved. */
static void test_directory_in_place_of_a_table_is_built_around(void **state)
{
    (void)state;
    char dir[64], path[4400], error[4400] = "";
    make_cache_dir(dir, sizeof dir);
    tiles_pdb_file_name(3, 1, dir, path, sizeof path);
    assert_int_equal(mkdir(path, 0755), 0);
    tiles_pdb_origin origin;
    tiles_pdb *pdb = tiles_pdb_open(3, dir, NULL, NULL, &origin, error, sizeof error);
    assert_non_null(pdb);
    assert_int_equal(origin, TILES_PDB_BUILT);
    assert_non_null(strstr(error, "cannot write"));
    assert_int_equal(tiles_lower_bound(&(tiles_board){3, {1, 2, 3, 4, 5, 6, 7, 8, 0}}, NULL, pdb),
                     0);
    tiles_pdb_free(pdb);
    rmdir(path);
    remove_cache_dir(dir, 3);
}

/* The 15-puzzle's 6-6-3 databases (built at build time by tests/tiles/make_tiles_cache.c with
 * the same tiles_pdb_open, and loaded here): zero at the goal, never above the length of
 * a random walk back to it, and optimal answers with them. */
static void test_4x4_databases_are_admissible_and_solve_optimally(void **state)
{
    (void)state;
    char error[4400];
    tiles_pdb_origin origin;
    tiles_pdb *pdb = tiles_pdb_open(4, TEST_TILES_CACHE, NULL, NULL, &origin, error, sizeof error);
    if (!pdb) fail_msg("%s", error);
    assert_int_equal(origin, TILES_PDB_LOADED); /* not built again here */
    assert_int_equal(pdb->group_count, 3);
    tiles_board goal;
    tiles_goal(4, TILES_GOAL_BLANK_LAST, &goal);
    assert_int_equal(tiles_lower_bound(&goal, NULL, pdb), 0);
    uint32_t seed = 99;
    for (int walk = 0; walk < 2000; walk++) {
        tiles_board board = goal;
        int length = 1 + walk % 40;
        for (int step = 0; step < length; step++) {
            seed = seed * 1103515245u + 12345u;
            char move[2] = {"udlr"[(seed >> 16) % 4], 0};
            if (!tiles_apply(&board, move)) step--;
        }
        int bound = tiles_lower_bound(&board, NULL, pdb);
        if (bound > length) fail_msg("bound %d after a walk of %d moves", bound, length);
    }
    assert_int_equal(solve_and_replay("2 5 4 6 1 13 11 3 14 12 7 10 8 15 9 0", NULL, pdb), 44);
    tiles_board korf_goal;
    tiles_goal(4, TILES_GOAL_BLANK_FIRST, &korf_goal);
    assert_int_equal(solve_and_replay("14 13 15 7 11 12 9 5 6 0 2 1 4 8 10 3", &korf_goal, pdb),
                     57);
    tiles_pdb_free(pdb);
}

/* A cache directory that cannot be created (its parent is a file): no databases, a
 * reason, and the caller falls back to Manhattan + conflicts. */
static void test_unwritable_cache_gives_no_databases(void **state)
{
    (void)state;
    char dir[64], file[100], below[200], error[4400] = "";
    make_cache_dir(dir, sizeof dir);
    snprintf(file, sizeof file, "%s/plain-file", dir);
    FILE *f = fopen(file, "w");
    assert_non_null(f);
    fclose(f);
    snprintf(below, sizeof below, "%s/sokoban", file);
    assert_null(tiles_pdb_open(3, below, NULL, NULL, NULL, error, sizeof error));
    assert_non_null(strstr(error, "cannot create"));
    remove(file);
    rmdir(dir);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_x_and_0_both_mean_the_blank),
        cmocka_unit_test(test_sixteen_tiles_make_a_4x4_board),
        cmocka_unit_test(test_wrong_count_is_rejected),
        cmocka_unit_test(test_repeated_tile_is_rejected_naming_the_missing_one),
        cmocka_unit_test(test_out_of_range_tile_is_rejected),
        cmocka_unit_test(test_letters_are_rejected),
        cmocka_unit_test(test_format_reads_back),
        cmocka_unit_test(test_moves_off_the_board_are_refused),
        cmocka_unit_test(test_eight_sample_is_solved_in_19_moves),
        cmocka_unit_test(test_fifteen_puzzle_is_solved_in_44_moves),
        cmocka_unit_test(test_goal_is_solved_in_no_moves),
        cmocka_unit_test(test_two_swapped_tiles_are_unsolvable_without_search),
        cmocka_unit_test(test_korf_instance_is_solved_towards_a_blank_first_goal),
        cmocka_unit_test(test_node_limit_stops_the_search),
        cmocka_unit_test(test_parity_matches_breadth_first_search_on_all_3x3_boards),
        cmocka_unit_test(test_bounds_are_admissible_and_solutions_optimal_on_random_3x3_boards),
        cmocka_unit_test(test_databases_are_built_once_then_loaded),
        cmocka_unit_test(test_corrupt_cache_file_is_rebuilt),
        cmocka_unit_test(test_truncated_cache_file_is_rebuilt),
        cmocka_unit_test(test_fifo_in_the_cache_is_replaced_not_read),
        cmocka_unit_test(test_symlinked_cache_file_is_not_followed),
        cmocka_unit_test(test_planted_links_never_redirect_the_cache_writes),
        cmocka_unit_test(test_directory_in_place_of_a_table_is_built_around),
        cmocka_unit_test(test_4x4_databases_are_admissible_and_solve_optimally),
        cmocka_unit_test(test_unwritable_cache_gives_no_databases),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
