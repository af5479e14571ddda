/* test_pairs.c - the two- and three-box deadlocks (solver_pairs.h): on boards with two
 * goals the table says lost exactly where an exhaustive search finds no solution (every
 * pair of squares, every square of the player), and on boards with three goals the pairs
 * and the triples kept together say so for every three squares; two boxes in a corridor
 * with the player behind them are lost and the same boxes with the player between them are
 * not; three boxes along a wall are lost where no two of them are; over random walks on
 * Microban I every position a pair or a triple calls lost is; no position along the
 * reference solutions of XSokoban 1-30 is (1-10 for the triples); a board too big for its
 * memory gets no table. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "rules/board.h"
#include "level/collection.h"
#include "deadlock_search.h"
#include "reference_solution.h"
#include "solver_board.h"
#include "search_walk.h"
#include "solver/solver_bound.h"
#include "solver/solver_domain.h"
#include "solver/solver_pairs.h"

typedef struct fixture {
    solver_board level; /* the level, its board and push distances (tests/support) */
    solver_pairs pairs;
    solver_triples triples;
} fixture;

static void fixture_extras(fixture *f)
{
    /* a board with one goal has no pairs */
    bool made = solver_pairs_init(&f->pairs, &f->level.board, &f->level.distances, 1u << 24);
    assert_true(made || f->level.board.goal_count < 2);
    memset(&f->triples, 0, sizeof f->triples);
}

static void fixture_from_text(fixture *f, const char *text)
{
    solver_board_from_text(&f->level, text);
    fixture_extras(f);
}

/* A map of cavepacker-data (solver_board_load_map); false when it is missing. */
static bool fixture_load(fixture *f, const char *format, int number)
{
    if (!solver_board_load_map(&f->level, format, number)) return false;
    fixture_extras(f);
    return true;
}

/* The triples of the fixture's board (three goals or more). */
static void fixture_add_triples(fixture *f)
{
    assert_true(solver_triples_init(&f->triples, &f->pairs, &f->level.board, 1u << 26, NULL));
}

static void fixture_free(fixture *f)
{
    solver_triples_free(&f->triples);
    solver_pairs_free(&f->pairs);
    solver_board_free(&f->level);
}

/* For every pair of live squares and every floor square of the player, the table against
 * the exhaustive search on the two boxes alone (the board has two goals). Returns how
 * many of the positions are lost. */
static int compare_with_exhaustive_search(const fixture *f)
{
    const board *b = &f->level.board;
    position p;
    assert_true(position_init(&p, b));
    p.box_count = 2;
    int lost = 0;
    for (int a = 0; a < b->size; a++) {
        if (!board_is_inside(b, a) || solver_square_is_dead(&f->level.distances, a)) continue;
        for (int c = a + 1; c < b->size; c++) {
            if (!board_is_inside(b, c) || solver_square_is_dead(&f->level.distances, c)) continue;
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

/* For every three live squares and every floor square of the player, the pairs and the
 * triples kept against the exhaustive search on the three boxes alone (the board has three
 * goals); the triple's answer is the same asked from each of its squares. Returns how many
 * positions only a triple calls lost. */
static int compare_triples_with_exhaustive_search(const fixture *f)
{
    const board *b = &f->level.board;
    position p;
    assert_true(position_init(&p, b));
    p.box_count = 3;
    int only_triples = 0;
    for (int a = 0; a < b->size; a++) {
        if (f->pairs.live_index[a] < 0) continue;
        for (int c = a + 1; c < b->size; c++) {
            if (f->pairs.live_index[c] < 0) continue;
            for (int e = c + 1; e < b->size; e++) {
                if (f->pairs.live_index[e] < 0) continue;
                memset(p.boxes, 0, (size_t)b->size);
                p.boxes[a] = p.boxes[c] = p.boxes[e] = 1;
                for (int player = 0; player < b->size; player++) {
                    if (!board_is_inside(b, player) || p.boxes[player]) continue;
                    p.player = player;
                    deadlock_search_result r = deadlock_search_solve(b, &p, 100000);
                    assert_int_not_equal(r, DEADLOCK_SEARCH_GAVE_UP);
                    bool pair = solver_pairs_lost(&f->pairs, a, c, player) ||
                                solver_pairs_lost(&f->pairs, a, e, player) ||
                                solver_pairs_lost(&f->pairs, c, e, player);
                    bool triple = solver_triples_lost(&f->triples, &f->pairs, p.boxes, a, player);
                    assert_int_equal(
                        triple, solver_triples_lost(&f->triples, &f->pairs, p.boxes, c, player));
                    assert_int_equal(
                        triple, solver_triples_lost(&f->triples, &f->pairs, p.boxes, e, player));
                    if ((pair || triple) != (r == DEADLOCK_SEARCH_UNSOLVABLE))
                        fail_msg("boxes %d, %d and %d, player %d: tables %s, search %s", a, c, e,
                                 player, pair || triple ? "lost" : "solvable",
                                 r == DEADLOCK_SEARCH_UNSOLVABLE ? "lost" : "solvable");
                    only_triples += triple && !pair;
                }
            }
        }
    }
    position_free(&p);
    return only_triples;
}

/* Two small boards with three goals: the pairs and the triples kept say lost exactly where
 * the exhaustive search finds no solution, and some positions only a triple calls lost. */
static void test_triples_match_an_exhaustive_search(void **state)
{
    (void)state;
    const char *boards[] = {"########\n"
                            "#.. $  #\n"
                            "#. $$ @#\n"
                            "########\n",
                            "#########\n"
                            "#.  #   #\n"
                            "#.$  $  #\n"
                            "#.  #$ @#\n"
                            "#########\n"};
    for (size_t k = 0; k < sizeof boards / sizeof boards[0]; k++) {
        fixture f;
        fixture_from_text(&f, boards[k]);
        fixture_add_triples(&f);
        assert_true(f.triples.count > 0);
        assert_true(compare_triples_with_exhaustive_search(&f) > 0);
        fixture_free(&f);
    }
}

/* Three goals along a wall, two boxes on them and one further along: the box on the
 * middle goal can be pushed neither way (the player would stand on a box), so the far box
 * never gets past it to the empty goal. No two of the boxes are lost: each pair can be
 * solved with the third box gone. */
static void test_three_boxes_along_a_wall_are_lost_where_no_two_are(void **state)
{
    (void)state;
    fixture f;
    fixture_from_text(&f, "#########\n"
                          "#.** $  #\n"
                          "#     @ #\n"
                          "#########\n");
    fixture_add_triples(&f);
    int first = solver_board_square(&f.level, 2, 1), second = solver_board_square(&f.level, 3, 1),
        far = solver_board_square(&f.level, 5, 1);
    int player = solver_board_square(&f.level, 6, 2);
    assert_false(solver_pairs_lost(&f.pairs, first, second, player));
    assert_false(solver_pairs_lost(&f.pairs, first, far, player));
    assert_false(solver_pairs_lost(&f.pairs, second, far, player));
    assert_true(solver_triples_lost(&f.triples, &f.pairs, f.level.start.boxes, far, player));
    assert_true(solver_triples_lost(&f.triples, &f.pairs, f.level.start.boxes, first, player));
    /* the box on the first goal pushed to the empty one: solvable */
    f.level.start.boxes[first] = 0;
    f.level.start.boxes[solver_board_square(&f.level, 1, 1)] = 1;
    assert_false(solver_triples_lost(&f.triples, &f.pairs, f.level.start.boxes, far, player));
    fixture_free(&f);
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
        assert_true(k == 0 ? f.level.board.width <= 64 : f.level.board.width > 64);
        assert_true(compare_with_exhaustive_search(&f) > 0);
        fixture_free(&f);
    }
}

/* Two rooms joined by a gate, a goal in each, pillars to push round. */
static const char GATE_LEVEL[] = "##########\n"
                                 "#.  #    #\n"
                                 "# $     .#\n"
                                 "#  ## #$ #\n"
                                 "# @#     #\n"
                                 "##########\n";

static void test_table_matches_an_exhaustive_search_through_a_gate(void **state)
{
    (void)state;
    fixture f;
    fixture_from_text(&f, GATE_LEVEL);
    assert_true(compare_with_exhaustive_search(&f) > 0);
    fixture_free(&f);
}

/* solver_pairs_lost_among(), the search's look-up of a box against all the others, says what
 * solver_pairs_lost() says of each pair on GATE_LEVEL: asked of one other box (either order of
 * their numbers) and of every live square at once (the box's own among them, passed over). */
static void test_lost_among_says_what_each_pair_says(void **state)
{
    (void)state;
    fixture f;
    fixture_from_text(&f, GATE_LEVEL);
    const board *b = &f.level.board;
    int squares[256], count = 0, lost = 0;
    for (int a = 0; a < b->size && count < 256; a++)
        if (f.pairs.live_index[a] >= 0) squares[count++] = a;
    for (int player = 0; player < b->size; player++) {
        if (!board_is_inside(b, player)) continue;
        for (int i = 0; i < count; i++) {
            bool any = false;
            for (int j = 0; j < count; j++) {
                if (j == i) continue;
                bool pair = solver_pairs_lost(&f.pairs, squares[i], squares[j], player);
                assert_int_equal(
                    solver_pairs_lost_among(&f.pairs, squares[i], &squares[j], 1, player), pair);
                any = any || pair;
                lost += pair;
            }
            assert_int_equal(solver_pairs_lost_among(&f.pairs, squares[i], squares, count, player),
                             any);
        }
    }
    assert_true(lost > 0);
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
    int left = solver_board_square(&f.level, 3, 1), right = solver_board_square(&f.level, 5, 1);
    assert_false(solver_pairs_lost(&f.pairs, left, right, solver_board_square(&f.level, 4, 1)));
    assert_true(solver_pairs_lost(&f.pairs, left, right, solver_board_square(&f.level, 6, 1)));
    assert_true(solver_pairs_lost(&f.pairs, left, right, solver_board_square(&f.level, 2, 1)));
    fixture_free(&f);
    fixture_from_text(&f, "#########\n"
                          "#. $@$ .#\n"
                          "#       #\n"
                          "#########\n");
    assert_false(solver_pairs_lost(&f.pairs, solver_board_square(&f.level, 3, 1),
                                   solver_board_square(&f.level, 5, 1),
                                   solver_board_square(&f.level, 6, 1)));
    fixture_free(&f);
}

/* True when the box on `square` and another of the search's make a lost pair. */
static bool pairs_lost(const fixture *f, const solver_search *s, int square)
{
    for (int i = 0; i < s->box_count; i++)
        if (s->box_square[i] != square &&
            solver_pairs_lost(&f->pairs, square, s->box_square[i], s->player))
            return true;
    return false;
}

/* Over random walks of pushes on Microban I 1-60 (the search's own pruning on, the tables
 * not given to it), every position where the box pushed last and another, or two others,
 * are called lost is: the exhaustive search with no deadlock knowledge finds no solution
 * there. Some of them only a triple calls lost. */
static void test_every_position_called_lost_is_unsolvable(void **state)
{
    (void)state;
    int lost = 0, confirmed = 0, triples = 0;
    unsigned seed = 777;
    for (int number = 1; number <= 60; number++) {
        fixture f;
        if (!fixture_load(&f, "microban01_%04d.sok", number)) skip(); /* cavepacker-data missing */
        solver_options options = {.mode = SOLVER_FAST};
        if (f.level.board.goal_count >= 3) fixture_add_triples(&f);
        solver_search s;
        assert_true(solver_search_init(&s, &f.level.board, &f.level.start, &f.level.distances, NULL,
                                       NULL, NULL, &options));
        ida_domain domain;
        solver_search_domain(&s, &domain);
        position p;
        assert_true(position_copy(&p, &f.level.start, &f.level.board));
        for (int walk = 0; walk < 30; walk++) {
            search_walk_start(&s, &f.level.board, &f.level.start);
            for (int step = 0; step < 30 && search_walk_push(&s, &domain, &seed); step++) {
                int pushed = s.box_square[s.last_box];
                solver_search_use_pairs(&s, &f.pairs, f.triples.first ? &f.triples : NULL);
                bool called = solver_search_pair_lost(&s, pushed);
                triples += called && !pairs_lost(&f, &s, pushed);
                solver_search_use_pairs(&s, NULL, NULL);
                if (!called) continue;
                lost++;
                search_walk_position(&s, &f.level.board, &p);
                deadlock_search_result r = deadlock_search_solve(&f.level.board, &p, 200000);
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
    assert_true(triples >= 3);
    assert_true(confirmed >= lost / 2);
}

/* After a push of a reference solution: every pair of boxes is asked. */
typedef struct solution_check {
    const fixture *fixture;
    long asked, triples_asked;
} solution_check;

static void check_pairs(void *argument, const position *p, direction d)
{
    (void)d;
    solution_check *check = argument;
    const fixture *f = check->fixture;
    for (int a = 0; a < f->level.board.size; a++) {
        if (!p->boxes[a]) continue;
        for (int c = a + 1; c < f->level.board.size; c++)
            if (p->boxes[c]) {
                assert_false(solver_pairs_lost(&f->pairs, a, c, p->player));
                check->asked++;
            }
        if (!f->triples.first) continue;
        assert_false(solver_triples_lost(&f->triples, &f->pairs, p->boxes, a, p->player));
        check->triples_asked++;
    }
}

/* Every position along a real solution can be solved: after each push of the reference
 * solutions of XSokoban 1-30 (cavepacker-data's .sol files), no pair of boxes is lost, and
 * on 1-10 no triple kept. */
static void test_no_position_along_a_solution_is_lost(void **state)
{
    (void)state;
    solution_check check = {0};
    for (int number = 1; number <= 30; number++) {
        fixture f;
        if (!fixture_load(&f, "xsokoban%04d.sok", number)) skip(); /* cavepacker-data missing */
        if (number <= 10) fixture_add_triples(&f);
        check.fixture = &f;
        assert_true(
            reference_solution_play(number, &f.level.board, &f.level.start, check_pairs, &check));
        fixture_free(&f);
    }
    assert_true(check.asked > 100000);
    assert_true(check.triples_asked > 10000);
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
    assert_false(solver_pairs_init(&small, &f.level.board, &f.level.distances, 1));
    assert_false(solver_pairs_lost(&small, f.level.board.width + 3, f.level.board.width + 4,
                                   f.level.board.width + 7));
    solver_pairs_free(&small);
    fixture_free(&f);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_table_matches_an_exhaustive_search_round_a_tunnel),
        cmocka_unit_test(test_table_matches_an_exhaustive_search_through_a_gate),
        cmocka_unit_test(test_lost_among_says_what_each_pair_says),
        cmocka_unit_test(test_two_boxes_in_a_corridor_with_the_player_behind_are_lost),
        cmocka_unit_test(test_triples_match_an_exhaustive_search),
        cmocka_unit_test(test_three_boxes_along_a_wall_are_lost_where_no_two_are),
        cmocka_unit_test(test_every_position_called_lost_is_unsolvable),
        cmocka_unit_test(test_no_position_along_a_solution_is_lost),
        cmocka_unit_test(test_board_too_big_for_the_memory_gets_no_table),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
