/* test_shortest_walks.c - a solution's walking made shortest: the pushes kept in order, the
 * walks between them the shortest, nothing after the last push of a solved end. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "level/level.h"
#include "rules/board.h"
#include "rules/game.h"
#include "rules/lurd.h"

/* The LURD text of `input`'s steps with shortest walks, from the first level of `text`; NULL
 * when they do not replay. */
static char *shortest(const char *text, const char *input)
{
    collection levels;
    level_error error;
    assert_true(collection_parse(text, strlen(text), "inline", &levels, &error));
    board b;
    position start;
    assert_true(board_from_level(&levels.levels[0], &b, &start));
    lurd_steps steps;
    lurd_error lurd_error;
    assert_true(lurd_parse(input, &steps, &lurd_error));
    game_step *out;
    int count;
    char *lurd = NULL;
    if (game_shortest_walks(&b, &start, steps.steps, steps.count, &out, &count)) {
        lurd = count > 0 ? lurd_format(out, count, false) : strdup("");
        free(out);
    }
    lurd_steps_free(&steps);
    board_free(&b);
    position_free(&start);
    collection_free(&levels);
    return lurd;
}

static const char corridor[] = "#######\n"
                               "#@ $ .#\n"
                               "#######\n";

static const char room[] = "######\n"
                           "#    #\n"
                           "# @$.#\n"
                           "#    #\n"
                           "######\n";

static void assert_shortest(const char *text, const char *input, const char *expected)
{
    char *got = shortest(text, input);
    assert_non_null(got);
    assert_string_equal(got, expected);
    free(got);
}

static void test_a_walk_there_and_back_is_taken_out(void **state)
{
    (void)state;
    assert_shortest(corridor, "rlrRR", "rRR");
}

static void test_a_walk_round_the_room_becomes_the_shortest(void **state)
{
    (void)state;
    assert_shortest(room, "urrddlluR", "R");
}

static void test_moves_after_the_last_push_of_a_solution_are_dropped(void **state)
{
    (void)state;
    assert_shortest(corridor, "rRRll", "rRR");
}

static void test_an_unfinished_line_ends_where_it_ended_by_the_shortest_walk(void **state)
{
    (void)state;
    assert_shortest(corridor, "rRlrl", "rRl");
}

static void test_pushes_in_lowercase_are_found_by_the_rules(void **state)
{
    (void)state;
    assert_shortest(corridor, "rlrrr", "rRR");
}

static void test_an_illegal_step_gives_nothing(void **state)
{
    (void)state;
    assert_null(shortest(corridor, "l"));
    assert_null(shortest(corridor, "u"));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_a_walk_there_and_back_is_taken_out),
        cmocka_unit_test(test_a_walk_round_the_room_becomes_the_shortest),
        cmocka_unit_test(test_moves_after_the_last_push_of_a_solution_are_dropped),
        cmocka_unit_test(test_an_unfinished_line_ends_where_it_ended_by_the_shortest_walk),
        cmocka_unit_test(test_pushes_in_lowercase_are_found_by_the_rules),
        cmocka_unit_test(test_an_illegal_step_gives_nothing),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
