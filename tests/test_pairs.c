/* test_pairs.c - the two-box deadlocks (solver_pairs.h): on boards with two goals the table
 * says lost exactly where an exhaustive search finds no solution (every pair of squares,
 * every square of the player); two boxes in a corridor with the player behind them are
 * lost and the same boxes with the player between them are not; over random walks on
 * Microban I every position a pair calls lost is; no position along the reference
 * solutions of XSokoban 1-30 is; a board too big for its memory gets no table. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "board.h"
#include "collection.h"
#include "deadlock_search.h"
#include "reference_solution.h"
#include "search_walk.h"
#include "solver_bound.h"
#include "solver_domain.h"
#include "solver_pairs.h"

typedef struct fixture {
    collection collection;
    board board;
    position start;
    solver_distances distances;
    solver_pairs pairs;
} fixture;

static void fixture_pick(fixture *f, int number)
{
    assert_true(number >= 1 && number <= f->collection.count);
    assert_true(board_from_level(&f->collection.levels[number - 1], &f->board, &f->start));
    assert_true(solver_distances_init(&f->distances, &f->board));
    /* a board with one goal has no pairs */
    bool made = solver_pairs_init(&f->pairs, &f->board, &f->distances, 1u << 24);
    assert_true(made || f->board.goal_count < 2);
}

static void fixture_from_text(fixture *f, const char *text)
{
    level_error error;
    assert_true(collection_parse(text, strlen(text), "inline", &f->collection, &error));
    fixture_pick(f, 1);
}

static bool fixture_load(fixture *f, const char *name)
{
    char path[1024];
    level_error error;
    snprintf(path, sizeof path, "/usr/share/games/cavepacker/maps/%s", name);
    if (!collection_load(path, &f->collection, &error)) return false;
    fixture_pick(f, 1);
    return true;
}

static void fixture_free(fixture *f)
{
    solver_pairs_free(&f->pairs);
    solver_distances_free(&f->distances);
    board_free(&f->board);
    position_free(&f->start);
    collection_free(&f->collection);
}

static int square_at(const board *b, int x, int y)
{
    return y * b->width + x;
}

/* For every pair of live squares and every floor square of the player, the table against
 * the exhaustive search on the two boxes alone (the board has two goals). Returns how
 * many of the positions are lost. */
static int compare_with_exhaustive_search(const fixture *f)
{
    const board *b = &f->board;
    position p;
    assert_true(position_init(&p, b));
    p.box_count = 2;
    int lost = 0;
    for (int a = 0; a < b->size; a++) {
        if (!board_is_inside(b, a) || solver_square_is_dead(&f->distances, a)) continue;
        for (int c = a + 1; c < b->size; c++) {
            if (!board_is_inside(b, c) || solver_square_is_dead(&f->distances, c)) continue;
            for (int player = 0; player < b->size; player++) {
                if (!board_is_inside(b, player) || player == a || player == c) continue;
                memset(p.boxes, 0, (size_t)b->size);
                p.boxes[a] = p.boxes[c] = 1;
                p.player = player;
                deadlock_search_result r = deadlock_search_solve(b, &p, 100000);
                assert_int_not_equal(r, DEADLOCK_SEARCH_GAVE_UP);
                bool table = solver_pairs_lost(&f->pairs, a, c, player);
                if (table != (r == DEADLOCK_SEARCH_UNSOLVABLE))
                    fail_msg("boxes %d and %d, player %d: table %s, search %s", a, c, player,
                             table ? "lost" : "solvable",
                             r == DEADLOCK_SEARCH_UNSOLVABLE ? "lost" : "solvable");
                lost += table;
            }
        }
    }
    position_free(&p);
    return lost;
}

/* A room with a one-way tunnel down to a second room: a box in the tunnel can only be
 * pushed down, and the goals are up. Every answer the table gives matches the search, on
 * a board whose rows fit a machine word (floods by rows) and on one too wide for that. */
static void test_table_matches_an_exhaustive_search_round_a_tunnel(void **state)
{
    (void)state;
    const char *below_the_top = "#.  . #\n"
                                "# $$  #\n"
                                "### ###\n"
                                "###@###\n"
                                "##   ##\n"
                                "##   ##\n"
                                "#######\n";
    const char *tops[] = {"#######", "########################################"
                                     "##############################"};
    for (int k = 0; k < 2; k++) {
        char text[1024];
        snprintf(text, sizeof text, "%s\n%s", tops[k], below_the_top);
        fixture f;
        fixture_from_text(&f, text);
        assert_true(k == 0 ? f.board.width <= 64 : f.board.width > 64);
        assert_true(compare_with_exhaustive_search(&f) > 0);
        fixture_free(&f);
    }
}

/* Two rooms joined by a gate, a goal in each, pillars to push round. */
static void test_table_matches_an_exhaustive_search_through_a_gate(void **state)
{
    (void)state;
    fixture f;
    fixture_from_text(&f, "##########\n"
                          "#.  #    #\n"
                          "# $     .#\n"
                          "#  ## #$ #\n"
                          "# @#     #\n"
                          "##########\n");
    assert_true(compare_with_exhaustive_search(&f) > 0);
    fixture_free(&f);
}

/* Two boxes in a corridor, a goal at each end. With the player between them he pushes
 * each to its own end; with the player behind one he can only push it into the other. In
 * a room he walks round them. */
static void test_two_boxes_in_a_corridor_with_the_player_behind_are_lost(void **state)
{
    (void)state;
    fixture f;
    fixture_from_text(&f, "#########\n"
                          "#. $@$ .#\n"
                          "#########\n");
    const board *b = &f.board;
    int left = square_at(b, 3, 1), right = square_at(b, 5, 1);
    assert_false(solver_pairs_lost(&f.pairs, left, right, square_at(b, 4, 1)));
    assert_true(solver_pairs_lost(&f.pairs, left, right, square_at(b, 6, 1)));
    assert_true(solver_pairs_lost(&f.pairs, left, right, square_at(b, 2, 1)));
    fixture_free(&f);
    fixture_from_text(&f, "#########\n"
                          "#. $@$ .#\n"
                          "#       #\n"
                          "#########\n");
    b = &f.board;
    assert_false(
        solver_pairs_lost(&f.pairs, square_at(b, 3, 1), square_at(b, 5, 1), square_at(b, 6, 1)));
    fixture_free(&f);
}

/* Over random walks of pushes on Microban I 1-60 (the search's own pruning on, the table
 * not given to it), every position where the box pushed last and another are called lost
 * is: the exhaustive search with no deadlock knowledge finds no solution there. */
static void test_every_position_called_lost_is_unsolvable(void **state)
{
    (void)state;
    int lost = 0, confirmed = 0;
    unsigned seed = 777;
    for (int number = 1; number <= 60; number++) {
        char name[64];
        snprintf(name, sizeof name, "microban01_%04d.sok", number);
        fixture f;
        if (!fixture_load(&f, name)) skip(); /* cavepacker-data missing */
        solver_options options = {.mode = SOLVER_FAST};
        solver_search s;
        assert_true(
            solver_search_init(&s, &f.board, &f.start, &f.distances, NULL, NULL, NULL, &options));
        ida_domain domain;
        solver_search_domain(&s, &domain);
        position p;
        assert_true(position_copy(&p, &f.start, &f.board));
        for (int walk = 0; walk < 30; walk++) {
            search_walk_start(&s, &f.board, &f.start);
            for (int step = 0; step < 30 && search_walk_push(&s, &domain, &seed); step++) {
                int pushed = s.box_square[s.last_box];
                s.pairs = &f.pairs;
                bool called = solver_search_pair_lost(&s, pushed);
                s.pairs = NULL;
                if (!called) continue;
                lost++;
                memset(p.boxes, 0, (size_t)f.board.size);
                for (int i = 0; i < s.box_count; i++) p.boxes[s.box_square[i]] = 1;
                p.player = s.player;
                deadlock_search_result r = deadlock_search_solve(&f.board, &p, 200000);
                assert_int_not_equal(r, DEADLOCK_SEARCH_SOLVABLE);
                confirmed += r == DEADLOCK_SEARCH_UNSOLVABLE;
                break;
            }
        }
        position_free(&p);
        solver_search_free(&s);
        fixture_free(&f);
    }
    /* the walks meet such positions often enough for this to test something */
    assert_true(lost >= 20);
    assert_true(confirmed >= lost / 2);
}

/* After a push of a reference solution: every pair of boxes is asked. */
typedef struct solution_check {
    const fixture *fixture;
    long asked;
} solution_check;

static void check_pairs(void *argument, const position *p, direction d)
{
    (void)d;
    solution_check *check = argument;
    const fixture *f = check->fixture;
    for (int a = 0; a < f->board.size; a++)
        for (int c = a + 1; p->boxes[a] && c < f->board.size; c++)
            if (p->boxes[c]) {
                assert_false(solver_pairs_lost(&f->pairs, a, c, p->player));
                check->asked++;
            }
}

/* Every position along a real solution can be solved: after each push of the reference
 * solutions of XSokoban 1-30 (cavepacker-data's .sol files), no pair of boxes is lost. */
static void test_no_position_along_a_solution_is_lost(void **state)
{
    (void)state;
    solution_check check = {0};
    for (int number = 1; number <= 30; number++) {
        char name[64];
        snprintf(name, sizeof name, "xsokoban%04d.sok", number);
        fixture f;
        if (!fixture_load(&f, name)) skip(); /* cavepacker-data missing */
        check.fixture = &f;
        assert_true(reference_solution_play(number, &f.board, &f.start, check_pairs, &check));
        fixture_free(&f);
    }
    assert_true(check.asked > 100000);
}

/* A table that would take more than the memory given is not made, and calls nothing lost. */
static void test_board_too_big_for_the_memory_gets_no_table(void **state)
{
    (void)state;
    fixture f;
    fixture_from_text(&f, "#########\n"
                          "#..$$  @#\n"
                          "#########\n");
    solver_pairs small;
    assert_false(solver_pairs_init(&small, &f.board, &f.distances, 1));
    assert_false(
        solver_pairs_lost(&small, f.board.width + 3, f.board.width + 4, f.board.width + 7));
    solver_pairs_free(&small);
    fixture_free(&f);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_table_matches_an_exhaustive_search_round_a_tunnel),
        cmocka_unit_test(test_table_matches_an_exhaustive_search_through_a_gate),
        cmocka_unit_test(test_two_boxes_in_a_corridor_with_the_player_behind_are_lost),
        cmocka_unit_test(test_every_position_called_lost_is_unsolvable),
        cmocka_unit_test(test_no_position_along_a_solution_is_lost),
        cmocka_unit_test(test_board_too_big_for_the_memory_gets_no_table),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
