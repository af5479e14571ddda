/* test_floor_tree.c - where a box cuts the player's floor in two (solver_floor_tree.h): a
 * corridor a box closes and a room it does not, the root's own square, a walk that forgets
 * the one before, and over every square of every XSokoban start, each box taken away in turn, that
 * two neighbours of a square lie in the same part exactly when a flood round a box there walks
 * between them. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <limits.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "rules/board.h"
#include "level/collection.h"
#include "flood_squares.h"
#include "solver/solver_floor_tree.h"

typedef struct fixture {
    collection collection;
    board board;
    position start;
    solver_floor_tree tree;
} fixture;

static void fixture_pick(fixture *f, int number)
{
    assert_true(board_from_level(&f->collection.levels[number - 1], &f->board, &f->start));
    assert_true(solver_floor_tree_init(&f->tree, &f->board));
}

static void fixture_drop(fixture *f)
{
    solver_floor_tree_free(&f->tree);
    position_free(&f->start);
    board_free(&f->board);
}

static void fixture_from_text(fixture *f, const char *text)
{
    level_error error;
    assert_true(collection_parse(text, strlen(text), "inline", &f->collection, &error));
    fixture_pick(f, 1);
}

static int at(const fixture *f, int x, int y)
{
    return y * f->board.width + x;
}

static int part(const fixture *f, int cut, int square)
{
    return solver_floor_tree_part(&f->tree, cut, square);
}

/* A corridor with a corner at its left end, a box in it. */
static const char *corridor = "#######\n"
                              "#@ $ .#\n"
                              "#  ####\n"
                              "####\n";

/* "#@ $ .#" over "#  ####": the box taken away, a box on (4,1) closes the corridor, one on
 * (2,1) cuts (3,1) off but not (1,1) from (2,2), which meet round the corner. */
static void test_corridor_and_corner(void **state)
{
    (void)state;
    fixture f = {0};
    fixture_from_text(&f, corridor);
    solver_floor_tree_build(&f.tree, f.start.boxes, at(&f, 3, 1), f.start.player);
    assert_int_not_equal(part(&f, at(&f, 4, 1), at(&f, 3, 1)),
                         part(&f, at(&f, 4, 1), at(&f, 5, 1)));
    assert_int_equal(part(&f, at(&f, 2, 1), at(&f, 1, 1)), part(&f, at(&f, 2, 1), at(&f, 2, 2)));
    assert_int_not_equal(part(&f, at(&f, 2, 1), at(&f, 1, 1)),
                         part(&f, at(&f, 2, 1), at(&f, 3, 1)));
    /* on the player's own square (the walk's root) the corner joins its two neighbours */
    assert_int_equal(part(&f, at(&f, 1, 1), at(&f, 2, 1)), part(&f, at(&f, 1, 1), at(&f, 1, 2)));
    /* a box off the floor walked (the board's outside) cuts nothing */
    assert_int_equal(part(&f, 0, at(&f, 1, 1)), part(&f, 0, at(&f, 5, 1)));
    /* walls and the board's outside are no floor */
    assert_int_equal(part(&f, at(&f, 2, 1), at(&f, 2, 0)), SOLVER_FLOOR_NONE);
    fixture_drop(&f);
    collection_free(&f.collection);
}

/* The box on (3,1) standing still splits the floor: a walk from the right forgets the squares
 * an earlier walk from the left reached, also when its numbers start again from the
 * beginning (they would overflow). */
static void test_a_walk_forgets_the_walk_before(void **state)
{
    (void)state;
    fixture f = {0};
    fixture_from_text(&f, corridor);
    for (int round = 0; round < 2; round++) {
        if (round == 1) f.tree.first = INT_MAX - f.board.size; /* the next walk starts over */
        solver_floor_tree_build(&f.tree, f.start.boxes, -1, f.start.player);
        assert_true(solver_floor_tree_reached(&f.tree, at(&f, 2, 2)));
        assert_false(solver_floor_tree_reached(&f.tree, at(&f, 3, 1)));
        assert_false(solver_floor_tree_reached(&f.tree, at(&f, 5, 1)));
        solver_floor_tree_build(&f.tree, f.start.boxes, -1, at(&f, 5, 1));
        assert_true(solver_floor_tree_reached(&f.tree, at(&f, 4, 1)));
        assert_false(solver_floor_tree_reached(&f.tree, at(&f, 2, 1)));
        assert_false(solver_floor_tree_reached(&f.tree, at(&f, 2, 2)));
        assert_int_not_equal(part(&f, at(&f, 5, 1), at(&f, 4, 1)), SOLVER_FLOOR_NONE);
        assert_int_equal(part(&f, at(&f, 4, 1), at(&f, 1, 1)), SOLVER_FLOOR_NONE);
    }
    fixture_drop(&f);
    collection_free(&f.collection);
}

/* Every square the walk reaches, each box taken away in turn: two of its neighbours share
 * a part exactly when a flood from one, a box on the square, reaches the other. */
static void test_agrees_with_floods(void **state)
{
    (void)state;
    fixture f = {0};
    level_error error;
    assert_true(collection_load(TEST_LEVELS_DIR "/xsokoban.xsb", &f.collection, &error));
    long compared = 0;
    for (int number = 1; number <= f.collection.count; number += 9) {
        fixture_pick(&f, number);
        const board *b = &f.board;
        uint8_t *reach = malloc((size_t)b->size), *seen = malloc((size_t)b->size);
        int *queue = malloc((size_t)b->size * sizeof *queue);
        assert_non_null(reach);
        assert_non_null(seen);
        assert_non_null(queue);
        for (int origin = 0; origin < b->size; origin++) {
            if (!f.start.boxes[origin]) continue;
            solver_floor_tree_build(&f.tree, f.start.boxes, origin, f.start.player);
            flood_squares(b, f.start.boxes, origin, -1, f.start.player, reach, queue);
            for (int cut = 0; cut < b->size; cut++) {
                assert_int_equal(solver_floor_tree_reached(&f.tree, cut), reach[cut]);
                if (!reach[cut]) continue;
                for (int d = 0; d < DIRECTION_COUNT; d++) {
                    int from = cut + b->delta[d];
                    int mine = part(&f, cut, from);
                    assert_int_equal(mine == SOLVER_FLOOR_NONE, !reach[from]);
                    if (!reach[from]) continue;
                    flood_squares(b, f.start.boxes, origin, cut, from, seen, queue);
                    for (int e = 0; e < DIRECTION_COUNT; e++) {
                        int to = cut + b->delta[e];
                        if (!reach[to]) continue;
                        assert_int_equal(part(&f, cut, to) == mine, seen[to]);
                        compared++;
                    }
                }
            }
        }
        free(reach);
        free(seen);
        free(queue);
        fixture_drop(&f);
    }
    assert_true(compared > 10000);
    collection_free(&f.collection);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_corridor_and_corner),
        cmocka_unit_test(test_a_walk_forgets_the_walk_before),
        cmocka_unit_test(test_agrees_with_floods),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
