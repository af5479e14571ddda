/* test_penalty.c - the optimal mode's pair penalties (solver_penalty.h): two boxes in a row
 * in a corridor pay for the one that steps aside, two boxes out of each other's way pay
 * nothing, an answer is kept, and, over the starts of small levels and positions of random
 * walks on Microban I, the matching plus the penalties never exceeds the fewest pushes an
 * optimal search without them finds; and the sum kept along a search's path is the sum from
 * scratch, and a child told its parent's choice less its pushed box's pair before asking. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>

#include <cmocka.h>

#include "ida.h"
#include "search_walk.h"
#include "solver/solver.h"
#include "solver/solver_domain.h"
#include "solver/solver_penalty.h"
#include "solver_board.h"

typedef struct fixture {
    solver_board level; /* the level, its board and push distances (tests/support) */
    solver_penalties penalties;
} fixture;

static void fixture_from_text(fixture *f, const char *text)
{
    solver_board_from_text(&f->level, text);
    assert_true(solver_penalties_init(&f->penalties, &f->level.board, &f->level.distances));
    assert_true(solver_penalties_allow_triples(&f->penalties));
}

static void fixture_free(fixture *f)
{
    solver_penalties_free(&f->penalties);
    solver_board_free(&f->level);
}

static int square(const fixture *f, int x, int y)
{
    return solver_board_square(&f->level, x, y);
}

/* The fewest pushes that solve `start`, by the optimal mode without the penalties; -1 when
 * it does not answer within its nodes. */
static int optimum_without(const board *b, const position *start)
{
    solver_options options = {
        .mode = SOLVER_OPTIMAL, .threads = 1, .max_nodes = 300000, .disable = SOLVER_NO_PENALTIES};
    solver_result result;
    solver_status status = solver_solve(b, start, &options, &result);
    int pushes = status == SOLVER_SOLVED ? result.pushes : -1;
    solver_result_free(&result);
    return pushes;
}

/* The bound the optimal mode starts `start` from: the matching plus the penalties. */
static int start_bound(const board *b, const position *start, const solver_distances *distances,
                       solver_penalties *penalties)
{
    solver_options options = {.mode = SOLVER_OPTIMAL};
    solver_search search;
    assert_true(solver_search_init(&search, b, start, distances, NULL, NULL, NULL, &options));
    search.penalties = penalties;
    ida_domain domain;
    solver_search_domain(&search, &domain);
    int h = domain.root_bound(domain.context);
    solver_search_free(&search);
    return h;
}

/* Two boxes in a column over a one-wide shaft to the goals: the lower goes down first, so
 * the upper must step aside to let the player behind it, and come back. */
static const char stepping_aside[] = "#######\n"
                                     "#  @  #\n"
                                     "#  $  #\n"
                                     "#  $  #\n"
                                     "### ###\n"
                                     "  #.#\n"
                                     "  #.#\n"
                                     "  ###\n";

static void test_two_boxes_in_a_row_pay_for_the_one_that_steps_aside(void **state)
{
    (void)state;
    fixture f;
    fixture_from_text(&f, stepping_aside);
    int first = square(&f, 3, 2), second = square(&f, 3, 3);
    int penalty = solver_penalties_pair(&f.penalties, first, second, square(&f, 3, 1));
    assert_int_equal(penalty, 2); /* a push aside and a push back */
    /* the bound with it is the optimum: the matching alone is under it by the penalty */
    int optimum = optimum_without(&f.level.board, &f.level.start);
    assert_true(optimum > 0);
    assert_int_equal(start_bound(&f.level.board, &f.level.start, &f.level.distances, &f.penalties),
                     optimum);
    assert_int_equal(start_bound(&f.level.board, &f.level.start, &f.level.distances, NULL),
                     optimum - penalty);
    fixture_free(&f);
}

static const char open_room[] = "########\n"
                                "#      #\n"
                                "# $  $ #\n"
                                "#@ .  .#\n"
                                "#      #\n"
                                "########\n";

static void test_two_boxes_out_of_each_others_way_pay_nothing(void **state)
{
    (void)state;
    fixture f;
    fixture_from_text(&f, open_room);
    assert_int_equal(
        solver_penalties_pair(&f.penalties, square(&f, 2, 2), square(&f, 5, 2), square(&f, 1, 3)),
        0);
    fixture_free(&f);
}

static void test_an_answer_is_kept_for_the_next_question(void **state)
{
    (void)state;
    fixture f;
    fixture_from_text(&f, stepping_aside);
    int first = square(&f, 3, 2), second = square(&f, 3, 3), player = square(&f, 3, 1);
    int penalty = solver_penalties_pair(&f.penalties, first, second, player);
    uint64_t searches = f.penalties.searches;
    /* the same pair, named the other way round, and the player elsewhere in his region */
    assert_int_equal(solver_penalties_pair(&f.penalties, second, first, player), penalty);
    assert_int_equal(solver_penalties_pair(&f.penalties, first, second, square(&f, 1, 1)), penalty);
    assert_int_equal(f.penalties.searches, searches);
    fixture_free(&f);
}

/* A position of XSokoban 5 its optimal mode met (one its iteration below the optimum had to
 * search): the box at (11,2) can only go down into row 3, where (13,3) waits on (14,3), and
 * all three must leave by row 3 or column 13; any two of them cost at most 2 over their
 * distances, the three 10. */
static const char three_in_the_way[] = "        #####\n"
                                       "        #   #####\n"
                                       "        # #$##  #\n"
                                       "        #    $$ #\n"
                                       "######### ###   #\n"
                                       "#*.**  ## $   ###\n"
                                       "#*..*     $   ##\n"
                                       "#*...  ## @    #\n"
                                       "#########$    ##\n"
                                       "        #      #\n"
                                       "        ### ## #\n"
                                       "          #    #\n"
                                       "          ######\n";

static void test_three_boxes_in_each_others_way_pay_more_than_any_pair(void **state)
{
    (void)state;
    fixture f;
    fixture_from_text(&f, three_in_the_way);
    int a = square(&f, 11, 2), b = square(&f, 13, 3), c = square(&f, 14, 3);
    int player = square(&f, 10, 7);
    int pairs[3] = {solver_penalties_pair(&f.penalties, a, b, player),
                    solver_penalties_pair(&f.penalties, b, c, player),
                    solver_penalties_pair(&f.penalties, a, c, player)};
    int triple = solver_penalties_triple(&f.penalties, a, b, c, player);
    assert_int_equal(pairs[0], 2);
    assert_int_equal(pairs[1], 2);
    assert_int_equal(pairs[2], 0);
    assert_int_equal(triple, 10);
    /* named in any order, the same answer, kept */
    uint64_t searches = f.penalties.searches;
    assert_int_equal(solver_penalties_triple(&f.penalties, c, a, b, player), triple);
    assert_int_equal(f.penalties.searches, searches);
    /* the position's bound takes the triple instead of a pair: 10 over the matching, which
     * is the optimum, 78 pushes (the optimal mode proves it in 33,209 nodes with the pairs
     * alone: too long for a test) */
    int matching = start_bound(&f.level.board, &f.level.start, &f.level.distances, NULL);
    int bound = start_bound(&f.level.board, &f.level.start, &f.level.distances, &f.penalties);
    assert_int_equal(bound, matching + triple);
    assert_int_equal(bound, 78);
    fixture_free(&f);
}

/* Small levels whose boxes get in each other's way. */
static const char *const crowded[] = {
    stepping_aside,
    "#######\n"
    "#.@ # #\n"
    "#$* $ #\n"
    "#   $ #\n"
    "# ..  #\n"
    "#  *  #\n"
    "#######\n",
    "  ####\n"
    "###  ####\n"
    "#     $ #\n"
    "# #  #$ #\n"
    "# . .#@ #\n"
    "#########\n",
    "########\n"
    "#      #\n"
    "# $$$$ #\n"
    "#  @   #\n"
    "# .... #\n"
    "########\n",
};

static void test_the_bound_never_exceeds_the_optimum_of_a_small_level(void **state)
{
    (void)state;
    for (size_t i = 0; i < sizeof crowded / sizeof crowded[0]; i++) {
        fixture f;
        fixture_from_text(&f, crowded[i]);
        int optimum = optimum_without(&f.level.board, &f.level.start);
        assert_true(optimum >= 0);
        int bound = start_bound(&f.level.board, &f.level.start, &f.level.distances, &f.penalties);
        assert_true(bound <= optimum);
        fixture_free(&f);
    }
}

/* Positions a random walk of pushes reaches on Microban I 1 to 60: the bound with the
 * penalties is at most the optimum of each, and above the matching's on some. */
static void test_the_bound_never_exceeds_the_optimum_along_random_walks(void **state)
{
    (void)state;
    int checked = 0, raised = 0;
    for (int number = 1; number <= 60; number++) {
        solver_board level;
        if (!solver_board_load_map(&level, "microban01_%04d.sok", number)) skip();
        solver_penalties penalties;
        assert_true(solver_penalties_init(&penalties, &level.board, &level.distances));
        assert_true(solver_penalties_allow_triples(&penalties));
        solver_options options = {.mode = SOLVER_OPTIMAL};
        solver_search walk;
        assert_true(solver_search_init(&walk, &level.board, &level.start, &level.distances, NULL,
                                       NULL, NULL, &options));
        ida_domain domain;
        solver_search_domain(&walk, &domain);
        unsigned seed = (unsigned)number * 7919u;
        for (int round = 0; round < 3; round++) {
            search_walk_start(&walk, &level.board, &level.start);
            for (int step = 0; step < 4 + 3 * round; step++)
                if (!search_walk_push(&walk, &domain, &seed)) break;
            position p;
            assert_true(position_copy(&p, &level.start, &level.board));
            search_walk_position(&walk, &level.board, &p);
            int optimum = optimum_without(&level.board, &p);
            if (optimum >= 0) {
                int bound = start_bound(&level.board, &p, &level.distances, &penalties);
                int matching = start_bound(&level.board, &p, &level.distances, NULL);
                assert_true(bound <= optimum);
                checked++;
                raised += bound > matching;
            }
            position_free(&p);
        }
        solver_search_free(&walk);
        solver_penalties_free(&penalties);
        solver_board_free(&level);
    }
    assert_true(checked >= 60);
    assert_true(raised > 0);
}

/* A crowded level (XSokoban 5), whose start the pairs already raise by 2. */
static const char crowd[] = "        #####\n"
                            "        #   #####\n"
                            "        # #$##  #\n"
                            "        #     $ #\n"
                            "######### ###   #\n"
                            "#....  ## $  $###\n"
                            "#....    $ $$ ##\n"
                            "#....  ##$  $ @#\n"
                            "#########  $  ##\n"
                            "        # $ $  #\n"
                            "        ### ## #\n"
                            "          #    #\n"
                            "          ######\n";

/* Walks of pushes and take-backs, as the search goes down and back up its path: at every
 * position, the sum kept per depth (the parent's pairs, the moved box's asked again) is the
 * sum of a scan of every pair from scratch, the positions whose push changed the player's
 * region among them. */
static void test_the_sum_kept_along_a_path_is_the_sum_from_scratch(void **state)
{
    (void)state;
    const char *const levels[] = {crowd, stepping_aside, crowded[1], crowded[2], crowded[3]};
    int positive = 0, other_region = 0;
    uint64_t repaired = 0, triples = 0;
    for (size_t l = 0; l < sizeof levels / sizeof levels[0]; l++) {
        fixture f;
        fixture_from_text(&f, levels[l]);
        solver_penalties scratch;
        assert_true(solver_penalties_init(&scratch, &f.level.board, &f.level.distances));
        assert_true(solver_penalties_allow_triples(&scratch));
        solver_options options = {.mode = SOLVER_OPTIMAL};
        solver_search walk;
        assert_true(solver_search_init(&walk, &f.level.board, &f.level.start, &f.level.distances,
                                       NULL, NULL, NULL, &options));
        ida_domain domain;
        solver_search_domain(&walk, &domain);
        search_walk_start(&walk, &f.level.board, &f.level.start);
        int kept = solver_penalties_at(&f.penalties, 0, walk.box_key, walk.box_key, -1,
                                       walk.box_square, walk.box_at, walk.box_count, walk.region);
        assert_int_equal(kept, solver_penalties_near(&scratch, walk.box_square, walk.box_at,
                                                     walk.box_count, walk.region));
        ida_move path[64];
        unsigned seed = 12345u + (unsigned)l;
        for (int step = 0; step < 3000; step++) {
            seed = seed * 1103515245u + 12345u;
            ida_move moves[4 * 64];
            int count = walk.depth < 64 ? domain.expand(&walk, moves) : 0;
            if (count == 0 || (walk.depth > 0 && (seed >> 16) % 3 == 0)) {
                if (walk.depth > 0) domain.unmake(&walk, path[walk.depth - 1]);
                continue;
            }
            ida_move move = moves[(seed >> 8) % (unsigned)count];
            int box = walk.box_at[solver_move_square(move)];
            uint64_t parent_key = walk.box_key;
            int parent_region = walk.region, cost;
            path[walk.depth] = move;
            int h = domain.make(&walk, move, 0, &cost);
            if (h == IDA_PRUNE || h >= IDA_INFINITY) {
                domain.unmake(&walk, move);
                continue;
            }
            kept = solver_penalties_at(&f.penalties, walk.depth, walk.box_key, parent_key, box,
                                       walk.box_square, walk.box_at, walk.box_count, walk.region);
            assert_int_equal(kept, solver_penalties_near(&scratch, walk.box_square, walk.box_at,
                                                         walk.box_count, walk.region));
            positive += kept > 0;
            other_region += walk.region != parent_region;
        }
        repaired += f.penalties.repaired;
        triples += f.penalties.triples_taken;
        solver_search_free(&walk);
        solver_penalties_free(&scratch);
        fixture_free(&f);
    }
    assert_true(positive > 100); /* the walks met pairs with a penalty */
    assert_true(repaired > 0);   /* and kept sums from the parent's pairs */
    assert_true(triples > 0);    /* and triples with a penalty above their pairs' */
    assert_true(other_region > 100);
}

/* What a child is told its pairs add before any is asked (solver_penalties_kept): the
 * parent's choice of pairs (the largest first, no box in two), less the pair of the box
 * pushed; nothing when the parent's list is of another position or another region of the
 * player. On XSokoban 5's start, whose pairs add 2. */
static void test_a_child_keeps_its_parents_pairs_but_the_pushed_boxs(void **state)
{
    (void)state;
    fixture f;
    fixture_from_text(&f, crowd);
    solver_options options = {.mode = SOLVER_OPTIMAL};
    solver_search s;
    assert_true(solver_search_init(&s, &f.level.board, &f.level.start, &f.level.distances, NULL,
                                   NULL, NULL, &options));
    solver_search_key(&s); /* the player's reach, which names his region */
    uint64_t key = s.box_key;
    int sum = solver_penalties_at(&f.penalties, 0, key, key, -1, s.box_square, s.box_at,
                                  s.box_count, s.region);
    assert_int_equal(sum, 2);
    /* the parent's choice, from its list (largest first) */
    int pair_of[64];
    for (int i = 0; i < s.box_count; i++) pair_of[i] = 0;
    const solver_penalty_pair *pairs = f.penalties.level_pairs;
    for (int k = 0; k < f.penalties.levels[0].count; k++)
        if (!pair_of[pairs[k].first] && !pair_of[pairs[k].second])
            pair_of[pairs[k].first] = pair_of[pairs[k].second] = pairs[k].penalty;
    int whole = 0, less = 0;
    for (int i = 0; i < s.box_count; i++) {
        int kept = solver_penalties_kept(&f.penalties, 1, key, i, s.region);
        assert_int_equal(kept, sum - pair_of[i]);
        whole += kept == sum;
        less += kept < sum;
        assert_int_equal(solver_penalties_kept(&f.penalties, 1, key ^ 2, i, s.region), 0);
        assert_int_equal(solver_penalties_kept(&f.penalties, 1, key, i, s.region + 1), 0);
    }
    assert_true(whole > 0 && less > 0);
    solver_search_free(&s);
    fixture_free(&f);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_two_boxes_in_a_row_pay_for_the_one_that_steps_aside),
        cmocka_unit_test(test_two_boxes_out_of_each_others_way_pay_nothing),
        cmocka_unit_test(test_an_answer_is_kept_for_the_next_question),
        cmocka_unit_test(test_three_boxes_in_each_others_way_pay_more_than_any_pair),
        cmocka_unit_test(test_the_bound_never_exceeds_the_optimum_of_a_small_level),
        cmocka_unit_test(test_the_bound_never_exceeds_the_optimum_along_random_walks),
        cmocka_unit_test(test_the_sum_kept_along_a_path_is_the_sum_from_scratch),
        cmocka_unit_test(test_a_child_keeps_its_parents_pairs_but_the_pushed_boxs),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
