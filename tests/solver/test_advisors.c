/* test_advisors.c - the fast mode's packing advisor (solver_advisors.h): its cheap test of
 * whether a box might get to a target of a packing layer answers the same over rows of bits
 * as square by square, and the cheaper pre-test for all boxes at once never rules out a box
 * that might, for every box and every layer of positions along random walks of pushes on
 * every XSokoban level; and the weights of FESS's cells count a box's pushes out of the way
 * as one move. */
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
#include "solver/solver_advisors.h"
#include "solver/solver_bound.h"
#include "solver/solver_domain.h"
#include "solver/solver_features.h"
#include "solver/solver_store.h"
#include "search_walk.h"

typedef struct fixture {
    board board;
    position start;
    solver_distances distances;
    solver_search search;
    solver_features features;
    solver_advisors advisors;
} fixture;

static void fixture_init(fixture *f, const level *lv)
{
    assert_true(board_from_level(lv, &f->board, &f->start));
    assert_true(solver_distances_init(&f->distances, &f->board));
    /* the order by the first rules: YASS's are searched for up to a second on some levels */
    solver_options options = {.mode = SOLVER_FAST,
                              .disable = SOLVER_NO_CORRAL_DEADLOCKS | SOLVER_NO_EARLY_ORDER};
    assert_true(solver_search_init(&f->search, &f->board, &f->start, &f->distances, NULL, NULL,
                                   NULL, &options));
    assert_true(solver_features_init(&f->features, &f->search, NULL));
    assert_true(solver_advisors_init(&f->advisors, &f->board, f->search.box_count, &f->features));
}

static void fixture_free(fixture *f)
{
    solver_advisors_free(&f->advisors);
    solver_features_free(&f->features);
    solver_search_free(&f->search);
    solver_distances_free(&f->distances);
    board_free(&f->board);
    position_free(&f->start);
}

/* Asks about every box of the current position and every layer (and one on each side of
 * them, which no target has) both ways; counts the answers, and the boxes the cheaper
 * pre-test rules out: never one that might pack. */
static void ask_both_ways(fixture *f, long *yes, long *no, long *ruled_out)
{
    solver_search *s = &f->search;
    for (int layer = -1; layer <= f->advisors.target_layers; layer++) {
        solver_advisors_mark_arrivals(&f->advisors, s, layer);
        for (int i = 0; i < s->box_count; i++) {
            int box = s->box_square[i];
            bool may = solver_advisors_may_arrive(&f->advisors, s, box);
            s->use_rows = true;
            bool rows = solver_advisors_might_pack(&f->advisors, s, box, layer);
            s->use_rows = false;
            bool squares = solver_advisors_might_pack(&f->advisors, s, box, layer);
            s->use_rows = true;
            if (rows != squares)
                fprintf(stderr, "box on %d, layer %d: rows %d, squares %d\n", box, layer, rows,
                        squares);
            assert_int_equal(rows, squares);
            assert_true(may || !rows);
            *(rows ? yes : no) += 1;
            *ruled_out += !may;
        }
    }
}

static void test_rows_and_squares_agree_on_random_walks(void **state)
{
    (void)state;
    collection c;
    level_error error;
    assert_true(collection_load(TEST_LEVELS_DIR "/xsokoban.xsb", &c, &error));
    unsigned seed = 2024;
    long yes = 0, no = 0, ruled_out = 0;
    for (int number = 1; number <= c.count; number++) {
        fixture f;
        fixture_init(&f, &c.levels[number - 1]);
        solver_search *s = &f.search;
        assert_true(s->use_rows && f.advisors.target_rows);
        ida_domain domain;
        solver_search_domain(s, &domain);
        for (int walk = 0; walk < 8; walk++) {
            search_walk_start(&f.search, &f.board, &f.start);
            ask_both_ways(&f, &yes, &no, &ruled_out);
            for (int step = 0; step < 40 && search_walk_push(s, &domain, &seed); step++)
                if (step % 2 == 1) ask_both_ways(&f, &yes, &no, &ruled_out);
        }
        fixture_free(&f);
    }
    collection_free(&c);
    /* both answers come often enough for this to test something */
    assert_true(yes > 40000);
    assert_true(no > 400000);
    /* and the pre-test takes most of the noes */
    print_message("might pack %ld, not %ld; ruled out first %ld\n", yes, no, ruled_out);
    assert_true(ruled_out > no / 2);
}

/* Adds a node to `store` below `parent` by a push of the box on `square` in direction `d`,
 * with `weight`; the boxes and the key do not matter to the weights. */
static int add(solver_store *store, const fixture *f, int parent, int square, direction d,
               int weight)
{
    static uint64_t key = 1;
    int i = solver_store_add(store, parent, solver_move(square, d), 0, f->search.player, key++,
                             f->search.box_square);
    assert_int_not_equal(i, SOLVER_NO_NODE);
    store->nodes[i].weight = (uint16_t)weight;
    return i;
}

/* Weighs the children of `parent`, whose bound is 10, and returns the weight of child `c`. */
static int weigh(fixture *f, solver_store *store, int parent, solver_child *children, int count,
                 int c)
{
    solver_advisors_weigh(&f->advisors, store, parent, 10, children, count);
    return store->nodes[children[c].node].weight;
}

/* No advisor asks for any of these pushes (no feature changes, no opener): each costs 1,
 * but for a push that carries on a weighed move of the box its parent pushed without
 * lowering the bound. */
static void test_a_box_carried_on_is_one_move(void **state)
{
    (void)state;
    collection c;
    level_error error;
    assert_true(collection_load(TEST_LEVELS_DIR "/xsokoban.xsb", &c, &error));
    fixture f;
    fixture_init(&f, &c.levels[0]);
    f.advisors.opener = -1;
    solver_store store;
    assert_true(solver_store_init(&store, f.search.box_count, 1 << 20, 0));
    const int *delta = f.board.delta;
    int q = f.search.box_square[0], d = DIR_RIGHT, step = delta[d];

    int root = add(&store, &f, SOLVER_NO_NODE, 0, DIR_LEFT, 5);
    /* a push from the root: a new move */
    int first = add(&store, &f, root, q, DIR_RIGHT, 0);
    solver_child from_root[] = {{.node = first, .h = 10}};
    assert_int_equal(weigh(&f, &store, root, from_root, 1, 0), 6);

    /* the parent's push cost 1: its box carried on at the same bound or a higher one is
     * free, carried home (a lower bound) or another box costs 1 */
    int paid = add(&store, &f, root, q, d, 6);
    solver_child after_paid[] = {{.node = add(&store, &f, paid, q + step, d, 0), .h = 10},
                                 {.node = add(&store, &f, paid, q + step, DIR_UP, 0), .h = 11},
                                 {.node = add(&store, &f, paid, q + step, DIR_DOWN, 0), .h = 9},
                                 {.node = add(&store, &f, paid, q - 2 * step, d, 0), .h = 10}};
    assert_int_equal(weigh(&f, &store, paid, after_paid, 4, 0), 6);
    assert_int_equal(weigh(&f, &store, paid, after_paid, 4, 1), 6);
    assert_int_equal(weigh(&f, &store, paid, after_paid, 4, 2), 7);
    assert_int_equal(weigh(&f, &store, paid, after_paid, 4, 3), 7);

    /* the box's move goes on free while it is carried on */
    int carried = after_paid[0].node;
    solver_child after_carried[] = {
        {.node = add(&store, &f, carried, q + 2 * step, d, 0), .h = 10}};
    assert_int_equal(weigh(&f, &store, carried, after_carried, 1, 0), 6);

    /* an advised push (free, and not carrying a move on) starts no move of its own: the
     * next push of its box costs 1, and that one then starts a move */
    int advised = add(&store, &f, root, q, d, 5);
    solver_child after_advised[] = {{.node = add(&store, &f, advised, q + step, d, 0), .h = 10}};
    assert_int_equal(weigh(&f, &store, advised, after_advised, 1, 0), 6);
    int next = after_advised[0].node;
    solver_child after_next[] = {{.node = add(&store, &f, next, q + 2 * step, d, 0), .h = 10}};
    assert_int_equal(weigh(&f, &store, next, after_next, 1, 0), 6);

    solver_store_free(&store);
    fixture_free(&f);
    collection_free(&c);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_rows_and_squares_agree_on_random_walks),
        cmocka_unit_test(test_a_box_carried_on_is_one_move),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
