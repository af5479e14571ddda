/* test_optimizer_search.c - the optimizer's search (part of the optimizer module): given
 * the solver's push distances its bound is the matching of boxes to goals, which finds the
 * same fewest pushes in fewer positions than the sum of each box's nearest goal, and never
 * enters a configuration where two boxes can only have the same goal; stopped before its
 * end it offers the shortest way it has found to a position of the best solution. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "rules/deadlock.h"
#include "solver/optimizer_search.h"
#include "solver_board.h"

/* Every configuration of the level's boxes (two of them) on its live squares, as keys. */
static void every_pair(const solver_board *f, const uint8_t *dead, optimizer_keys *keys)
{
    assert_true(optimizer_keys_init(keys, 1 << 16));
    const board *b = &f->board;
    for (int p = 0; p < b->size; p++)
        for (int q = p + 1; q < b->size; q++) {
            bool floor = board_is_inside(b, p) && !board_is_wall(b, p) && !dead[p] &&
                         board_is_inside(b, q) && !board_is_wall(b, q) && !dead[q];
            bool full;
            if (floor)
                optimizer_keys_add(keys, optimizer_square_key(p) ^ optimizer_square_key(q), &full);
        }
}

/* Searches the level by pushes in `allowed`, with the distances or without; returns the
 * pushes of what it found and puts the positions expanded in *nodes. */
static int search_pushes(const solver_board *f, const uint8_t *dead, const optimizer_keys *allowed,
                         bool matching, uint64_t *nodes)
{
    optimizer_search_request request = {
        .board = &f->board,
        .start = &f->start,
        .dead = dead,
        .allowed = allowed,
        .distances = matching ? &f->distances : NULL,
        .by_pushes = true,
        .limit_moves = 1000,
        .limit_pushes = 1000,
        .max_bytes = (size_t)64 << 20,
    };
    optimizer_push *pushes;
    int count;
    assert_int_equal(optimizer_search(&request, &pushes, &count, nodes), OPTIMIZER_SEARCH_FOUND);
    free(pushes);
    return count;
}

static uint8_t *dead_squares(const solver_board *f)
{
    deadlock_table table;
    assert_true(deadlock_table_init(&table, &f->board));
    uint8_t *dead = calloc((size_t)f->board.size, 1);
    assert_non_null(dead);
    for (int q = 0; q < f->board.size; q++) dead[q] = deadlock_square_is_dead(&table, q);
    deadlock_table_free(&table);
    return dead;
}

/* Both boxes are nearest the goal at the top left; one of them must go to the far one. */
static const char one_goal_near[] = "#########\n"
                                    "#.      #\n"
                                    "# $$    #\n"
                                    "#  @    #\n"
                                    "#      .#\n"
                                    "#########\n";

static void test_the_matching_finds_the_fewest_pushes_in_fewer_positions(void **state)
{
    (void)state;
    solver_board f;
    solver_board_from_text(&f, one_goal_near);
    uint8_t *dead = dead_squares(&f);
    optimizer_keys every;
    every_pair(&f, dead, &every);
    uint64_t matched_nodes, nearest_nodes;
    int matched = search_pushes(&f, dead, &every, true, &matched_nodes);
    int nearest = search_pushes(&f, dead, &every, false, &nearest_nodes);
    assert_int_equal(matched, nearest); /* every configuration allowed: the optimum, both */
    assert_true(matched_nodes < nearest_nodes);
    optimizer_keys_free(&every);
    free(dead);
    solver_board_free(&f);
}

static void test_no_configuration_where_two_boxes_need_one_goal_is_entered(void **state)
{
    (void)state;
    solver_board f;
    solver_board_from_text(&f, one_goal_near);
    uint8_t *dead = dead_squares(&f);
    optimizer_keys every;
    every_pair(&f, dead, &every);
    /* the goal at the bottom right is reached by pushes down and right only from the
     * squares above and left of it: both boxes taken up into the top row (live: its left
     * end is a goal) leaves that goal to no box */
    int left = solver_board_square(&f, 1, 1), top = solver_board_square(&f, 4, 1);
    assert_false(dead[top]);
    position stuck;
    assert_true(position_copy(&stuck, &f.start, &f.board));
    memset(stuck.boxes, 0, (size_t)f.board.size);
    stuck.boxes[left] = stuck.boxes[top] = 1;
    stuck.player = solver_board_square(&f, 3, 3);
    optimizer_search_request request = {
        .board = &f.board,
        .start = &stuck,
        .dead = dead,
        .allowed = &every,
        .distances = &f.distances,
        .by_pushes = true,
        .limit_moves = 1000,
        .limit_pushes = 1000,
        .max_bytes = (size_t)64 << 20,
    };
    optimizer_push *pushes;
    int count;
    uint64_t nodes;
    assert_int_equal(optimizer_search(&request, &pushes, &count, &nodes), OPTIMIZER_SEARCH_NONE);
    assert_true(nodes <= 1); /* the start alone: none of its children has a matching */
    free(pushes);
    position_free(&stuck);
    optimizer_keys_free(&every);
    free(dead);
    solver_board_free(&f);
}

/* A wide room, two boxes far from their goals: more search positions on the way than a
 * search looks at before its first node check. */
static const char wide[] = "##########################\n"
                           "#                       .#\n"
                           "#                        #\n"
                           "# $                      #\n"
                           "#@                       #\n"
                           "# $                      #\n"
                           "#                       .#\n"
                           "##########################\n";

static void
test_a_search_stopped_early_offers_its_shorter_way_to_a_position_of_the_best(void **state)
{
    (void)state;
    solver_board f;
    solver_board_from_text(&f, wide);
    uint8_t *dead = dead_squares(&f);
    optimizer_keys every;
    every_pair(&f, dead, &every);
    /* the best's first pushes: the upper box up, down again (a detour), then right: its
     * position 3 (that box a square right, the player left of it) is one push from the
     * start */
    int box = solver_board_square(&f, 2, 3), other = solver_board_square(&f, 2, 5);
    int right = f.board.delta[DIR_RIGHT], up = f.board.delta[DIR_UP];
    uint64_t still = optimizer_square_key(other);
    uint64_t keys[4] = {still ^ optimizer_square_key(box), still ^ optimizer_square_key(box + up),
                        still ^ optimizer_square_key(box),
                        still ^ optimizer_square_key(box + right)};
    int players[4] = {f.start.player, box, box + up, box};
    int moves[4] = {0, 3, 7, 10};
    optimizer_path path = {keys, players, moves, 4};
    int reached = -1;
    optimizer_search_request request = {
        .board = &f.board,
        .start = &f.start,
        .dead = dead,
        .allowed = &every,
        .by_pushes = true,
        .limit_moves = 10000,
        .limit_pushes = 1000,
        .max_nodes = 256, /* stopped at the first node check */
        .max_bytes = (size_t)64 << 20,
        .path = &path,
        .reached = &reached,
    };
    optimizer_push *pushes;
    int count;
    uint64_t nodes;
    assert_int_equal(optimizer_search(&request, &pushes, &count, &nodes),
                     OPTIMIZER_SEARCH_SHORTCUT);
    assert_int_equal(reached, 3);
    assert_int_equal(count, 1);
    assert_int_equal(pushes[0].box, box);
    assert_int_equal(pushes[0].direction, DIR_RIGHT);
    free(pushes);
    /* let run to its end it finds the whole solution instead */
    request.max_nodes = 0;
    assert_int_equal(optimizer_search(&request, &pushes, &count, &nodes), OPTIMIZER_SEARCH_FOUND);
    assert_true(nodes > 256);
    free(pushes);
    optimizer_keys_free(&every);
    free(dead);
    solver_board_free(&f);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_the_matching_finds_the_fewest_pushes_in_fewer_positions),
        cmocka_unit_test(test_no_configuration_where_two_boxes_need_one_goal_is_entered),
        cmocka_unit_test(
            test_a_search_stopped_early_offers_its_shorter_way_to_a_position_of_the_best),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
