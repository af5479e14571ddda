/* test_features.c - FESS's feature space (solver_features.h): boxes count as packed in
 * packing order only (a box on the goal to fill later counts for nothing while the deeper
 * one is empty), and the free floor's regions are counted, the player's reach as one.
 * Levels drawn inline. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "solver/solver_domain.h"
#include "solver/solver_features.h"
#include "solver_board.h"

typedef struct fixture {
    solver_board level;
    solver_search search;
    solver_features features;
} fixture;

/* Puts the search in the position with boxes on the `count` squares (x, y) given in pairs
 * and the player on (px, py), the player's reach computed. */
static void place(fixture *f, int px, int py, int count, const int *xy)
{
    for (int i = 0; i < count; i++)
        f->search.box_square_scratch[i] =
            (uint16_t)solver_board_square(&f->level, xy[2 * i], xy[2 * i + 1]);
    solver_search_set(&f->search, f->search.box_square_scratch,
                      solver_board_square(&f->level, px, py));
    solver_search_key(&f->search);
}

static void fixture_from_text(fixture *f, const char *text)
{
    solver_board_from_text(&f->level, text);
    solver_options options = {.mode = SOLVER_FAST};
    assert_true(solver_search_init(&f->search, &f->level.board, &f->level.start,
                                   &f->level.distances, NULL, NULL, NULL, &options));
    assert_true(solver_features_init(&f->features, &f->search, NULL));
}

static void fixture_free(fixture *f)
{
    solver_features_free(&f->features);
    solver_search_free(&f->search);
    solver_board_free(&f->level);
}

static const char corridor[] = "########\n"
                               "#@ $$..#\n"
                               "########\n";

static void test_nothing_is_packed_at_the_start(void **state)
{
    (void)state;
    fixture f;
    fixture_from_text(&f, corridor);
    place(&f, 1, 1, 2, (const int[]){3, 1, 4, 1});
    assert_int_equal(solver_features_packed(&f.features, &f.search), 0);
    fixture_free(&f);
}

static void test_the_deep_goal_filled_counts_and_the_near_one_alone_does_not(void **state)
{
    (void)state;
    fixture f;
    fixture_from_text(&f, corridor);
    place(&f, 4, 1, 2, (const int[]){3, 1, 6, 1}); /* the deep goal filled */
    assert_int_equal(solver_features_packed(&f.features, &f.search), 1);
    place(&f, 1, 1, 2, (const int[]){3, 1, 5, 1}); /* the near goal filled, the deep empty */
    assert_int_equal(solver_features_packed(&f.features, &f.search), 0);
    place(&f, 1, 1, 2, (const int[]){5, 1, 6, 1}); /* both */
    assert_int_equal(solver_features_packed(&f.features, &f.search), 2);
    fixture_free(&f);
}

static void test_the_free_floor_is_counted_in_regions(void **state)
{
    (void)state;
    fixture f;
    fixture_from_text(&f, corridor);
    place(&f, 1, 1, 2, (const int[]){3, 1, 4, 1}); /* the player's side, the goals' side */
    assert_int_equal(solver_features_regions(&f.features, &f.search), 2);
    place(&f, 1, 1, 2, (const int[]){5, 1, 6, 1}); /* one corridor left of the boxes */
    assert_int_equal(solver_features_regions(&f.features, &f.search), 1);
    fixture_free(&f);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_nothing_is_packed_at_the_start),
        cmocka_unit_test(test_the_deep_goal_filled_counts_and_the_near_one_alone_does_not),
        cmocka_unit_test(test_the_free_floor_is_counted_in_regions),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
