/* test_stuck.c - the deadlock patterns learned while searching (solver_stuck.h): a position
 * holding a pattern's boxes, its player in the pattern's region, is matched, also with more
 * boxes; with the player outside the region, or a box of the pattern missing, it is not. A
 * copy holds the store's patterns and adds to it, and does not see what the store adds
 * after it is made.
 * Level drawn inline. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>

#include <cmocka.h>

#include "solver/solver_stuck.h"
#include "solver_board.h"

static const char room[] = "########\n"
                           "#      #\n"
                           "# $$$  #\n"
                           "#@ ... #\n"
                           "########\n";

/* Does the store match boxes on the `count` squares (x, y) in pairs, the player on (px, py)? */
static bool matches(solver_stuck_patterns *p, const solver_board *f, int px, int py, int count,
                    const int *xy)
{
    uint8_t *boxes = calloc((size_t)f->board.size, 1);
    int squares[8];
    assert_non_null(boxes);
    for (int i = 0; i < count; i++) {
        squares[i] = solver_board_square(f, xy[2 * i], xy[2 * i + 1]);
        boxes[squares[i]] = 1;
    }
    bool found =
        solver_stuck_patterns_match(p, boxes, squares, count, solver_board_square(f, px, py));
    free(boxes);
    return found;
}

static void test_a_pattern_matches_its_boxes_with_the_player_in_its_region(void **state)
{
    (void)state;
    solver_board f;
    solver_board_from_text(&f, room);
    solver_stuck_patterns p;
    assert_true(solver_stuck_patterns_init(&p, &f.board));
    /* the boxes on (2,2) and (3,2), the player's region the top row */
    int pattern[2] = {solver_board_square(&f, 2, 2), solver_board_square(&f, 3, 2)};
    uint64_t *region = calloc(p.words, sizeof *region);
    assert_non_null(region);
    for (int x = 1; x <= 6; x++) {
        int q = solver_board_square(&f, x, 1);
        region[q / 64] |= UINT64_C(1) << (q % 64);
    }
    solver_stuck_patterns_add(&p, pattern, 2, region);
    assert_true(matches(&p, &f, 4, 1, 2, (const int[]){2, 2, 3, 2}));
    assert_true(matches(&p, &f, 1, 1, 3, (const int[]){2, 2, 3, 2, 4, 2})); /* one more box */
    assert_false(matches(&p, &f, 1, 3, 2, (const int[]){2, 2, 3, 2}));      /* out of region */
    assert_false(matches(&p, &f, 4, 1, 2, (const int[]){2, 2, 4, 2}));      /* another box */
    free(region);
    solver_stuck_patterns_free(&p);
    solver_board_free(&f);
}

/* A copy (a race's first run, solver_learned_copy()) holds the store's patterns; what is
 * added to it is added to the store too; what the store learns after it is made, not. */
static void test_a_copy_holds_the_store_and_writes_it(void **state)
{
    (void)state;
    solver_board f;
    solver_board_from_text(&f, room);
    solver_stuck_patterns p, copy;
    assert_true(solver_stuck_patterns_init(&p, &f.board));
    uint64_t *region = calloc(p.words, sizeof *region);
    assert_non_null(region);
    for (int x = 1; x <= 6; x++) {
        int q = solver_board_square(&f, x, 1);
        region[q / 64] |= UINT64_C(1) << (q % 64);
    }
    int first[2] = {solver_board_square(&f, 2, 2), solver_board_square(&f, 3, 2)};
    int second[2] = {solver_board_square(&f, 4, 2), solver_board_square(&f, 5, 2)};
    int third[2] = {solver_board_square(&f, 2, 3), solver_board_square(&f, 3, 3)};
    solver_stuck_patterns_add(&p, first, 2, region);
    assert_true(solver_stuck_patterns_copy(&copy, &p, &f.board));
    assert_true(matches(&copy, &f, 4, 1, 2, (const int[]){2, 2, 3, 2})); /* held */
    solver_stuck_patterns_add(&copy, second, 2, region);
    assert_true(matches(&copy, &f, 4, 1, 2, (const int[]){4, 2, 5, 2}));
    assert_true(matches(&p, &f, 4, 1, 2, (const int[]){4, 2, 5, 2})); /* written through */
    solver_stuck_patterns_add(&p, third, 2, region);
    assert_true(matches(&p, &f, 4, 1, 2, (const int[]){2, 3, 3, 3}));
    assert_false(matches(&copy, &f, 4, 1, 2, (const int[]){2, 3, 3, 3})); /* not read */
    free(region);
    solver_stuck_patterns_free(&copy);
    solver_stuck_patterns_free(&p);
    solver_board_free(&f);
}

static void test_an_empty_store_matches_nothing(void **state)
{
    (void)state;
    solver_board f;
    solver_board_from_text(&f, room);
    solver_stuck_patterns p;
    assert_true(solver_stuck_patterns_init(&p, &f.board));
    assert_false(matches(&p, &f, 1, 3, 3, (const int[]){2, 2, 3, 2, 4, 2}));
    solver_stuck_patterns_free(&p);
    solver_board_free(&f);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_a_pattern_matches_its_boxes_with_the_player_in_its_region),
        cmocka_unit_test(test_a_copy_holds_the_store_and_writes_it),
        cmocka_unit_test(test_an_empty_store_matches_nothing),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
