/* test_advisors.c - the fast mode's packing advisor (solver_advisors.h): its cheap test of
 * whether a box might get to a target of a packing layer answers the same over rows of bits
 * as square by square, and the cheaper pre-test for all boxes at once never rules out a box
 * that might, for every box and every layer of positions along random walks of pushes on
 * every XSokoban level. */
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
#include "solver_advisors.h"
#include "solver_bound.h"
#include "solver_domain.h"
#include "solver_features.h"
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

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_rows_and_squares_agree_on_random_walks),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
