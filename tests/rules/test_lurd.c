/* test_lurd.c - LURD solution strings (src/rules/lurd.c): reading (letters, counts, groups,
 * white space), writing, and replaying them on a level with clear errors. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "rules/game.h"
#include "level/level.h"
#include "rules/lurd.h"

/* ---------------------------------------------------------------- helpers */

/* The steps of `text` written back without run lengths; fails if it does not parse. */
static char *parsed(const char *text)
{
    lurd_steps steps;
    lurd_error error;
    if (!lurd_parse(text, &steps, &error)) fail_msg("\"%s\" rejected: %s", text, error.message);
    char *plain = lurd_format(steps.steps, steps.count, false);
    lurd_steps_free(&steps);
    return plain;
}

static void assert_parses_to(const char *text, const char *expected)
{
    char *plain = parsed(text);
    assert_string_equal(plain, expected);
    free(plain);
}

/* Fails unless `text` is rejected with a message containing `part`. */
static void assert_rejected(const char *text, const char *part)
{
    lurd_steps steps;
    lurd_error error;
    if (lurd_parse(text, &steps, &error)) {
        lurd_steps_free(&steps);
        fail_msg("\"%.40s\" accepted, but should be rejected", text);
    }
    assert_null(steps.steps);
    assert_int_equal(steps.count, 0);
    if (!strstr(error.message, part))
        fail_msg("\"%s\" does not mention \"%s\"", error.message, part);
}

typedef struct play {
    collection levels;
    game game;
    lurd_error error;
    bool legal;
} play;

/* Replays `solution` on the first level of `level_text`. */
static void play_start(play *p, const char *level_text, const char *solution)
{
    level_error level_error;
    if (!collection_parse(level_text, strlen(level_text), "test.xsb", &p->levels, &level_error))
        fail_msg("%s", level_error.message);
    assert_true(game_init(&p->game, &p->levels.levels[0]));
    lurd_steps steps;
    if (!lurd_parse(solution, &steps, &p->error)) fail_msg("%s", p->error.message);
    p->legal = lurd_apply(&p->game, &steps, &p->error);
    lurd_steps_free(&steps);
}

static void play_end(play *p)
{
    game_free(&p->game);
    collection_free(&p->levels);
}

static const char corridor[] = "########\n"
                               "#@ $  .#\n"
                               "#      #\n"
                               "########\n";

/* ---------------------------------------------------------------- reading */

static void test_lowercase_letters_are_moves_and_uppercase_pushes(void **state)
{
    (void)state;
    lurd_steps steps;
    lurd_error error;
    assert_true(lurd_parse("lUrD", &steps, &error));
    assert_int_equal(steps.count, 4);
    assert_int_equal(steps.steps[0].direction, DIR_LEFT);
    assert_false(steps.steps[0].push);
    assert_int_equal(steps.steps[1].direction, DIR_UP);
    assert_true(steps.steps[1].push);
    assert_int_equal(steps.steps[2].direction, DIR_RIGHT);
    assert_false(steps.steps[2].push);
    assert_int_equal(steps.steps[3].direction, DIR_DOWN);
    assert_true(steps.steps[3].push);
    assert_true(steps.case_sensitive);
    lurd_steps_free(&steps);
}

static void test_all_lowercase_text_is_read_without_case(void **state)
{
    (void)state;
    lurd_steps steps;
    lurd_error error;
    assert_true(lurd_parse("lurd", &steps, &error));
    assert_false(steps.case_sensitive);
    lurd_steps_free(&steps);
}

static void test_empty_text_is_no_steps(void **state)
{
    (void)state;
    lurd_steps steps;
    lurd_error error;
    assert_true(lurd_parse("", &steps, &error));
    assert_int_equal(steps.count, 0);
    lurd_steps_free(&steps);
}

static void test_white_space_is_ignored(void **state)
{
    (void)state;
    assert_parses_to(" l u\n\tR\r\nD  ", "luRD");
}

static void test_count_repeats_the_letter_after_it(void **state)
{
    (void)state;
    assert_parses_to("3l2U", "lllUU");
}

static void test_counts_of_several_digits_are_read(void **state)
{
    (void)state;
    char *plain = parsed("12r");
    assert_string_equal(plain, "rrrrrrrrrrrr");
    free(plain);
}

static void test_count_repeats_a_group(void **state)
{
    (void)state;
    assert_parses_to("2(ldr3u)", "ldruuuldruuu");
}

static void test_groups_nest(void **state)
{
    (void)state;
    assert_parses_to("2(l2(uR))d", "luRuRluRuRd");
}

static void test_group_without_a_count_is_read_once(void **state)
{
    (void)state;
    assert_parses_to("(lu)r", "lur");
}

static void test_empty_group_is_no_steps(void **state)
{
    (void)state;
    assert_parses_to("l3()r", "lr");
}

/* ---------------------------------------------------------------- bad text */

static void test_unknown_letter_is_rejected_with_its_place(void **state)
{
    (void)state;
    assert_rejected("luxr", "not a LURD letter: 'x' at character 3");
}

static void test_unprintable_byte_is_rejected_by_its_value(void **state)
{
    (void)state;
    assert_rejected("lu\x01", "byte 0x01");
}

static void test_count_at_the_end_is_rejected(void **state)
{
    (void)state;
    assert_rejected("lu3", "a count must be followed by a letter or '(', not the end");
}

/* Wrapped solution files may break a line between a count and its letter. */
static void test_count_may_be_separated_from_its_letter_by_white_space(void **state)
{
    (void)state;
    assert_parses_to("3 l2\nU", "lllUU");
}

static void test_count_of_zero_is_rejected(void **state)
{
    (void)state;
    assert_rejected("0l", "a count of zero");
}

static void test_unclosed_group_is_rejected(void **state)
{
    (void)state;
    assert_rejected("2(lu", "a group is not closed before the end of the text");
}

static void test_closing_parenthesis_without_a_group_is_rejected(void **state)
{
    (void)state;
    assert_rejected("lu)r", "a ')' with no '(' before it");
}

static void test_groups_nested_too_deep_are_rejected(void **state)
{
    (void)state;
    char text[200];
    memset(text, '(', 100);
    text[100] = '\0';
    assert_rejected(text, "nested too deep");
}

/* Issue 13: a few bytes of counts cannot stand for more than LURD_MAX_STEPS steps (a fuzzer
 * once spent seconds on "(3rLud)0992999L"); the real solutions are far shorter. */
static void test_more_than_the_step_limit_is_rejected(void **state)
{
    (void)state;
    assert_rejected("100001l", "too long: more than 100000 steps");
    assert_rejected("100(1001l)", "too long");
    assert_rejected("(3rLud)0992999L", "too long");
    assert_rejected("99999(99999l)", "too long");
    assert_rejected("99999999999999999999l", "too long");
    assert_rejected("2(50000l)r", "too long");
}

static void test_the_step_limit_itself_is_accepted(void **state)
{
    (void)state;
    lurd_steps steps;
    lurd_error error;
    assert_true(lurd_parse("100(1000l)", &steps, &error));
    assert_int_equal(steps.count, LURD_MAX_STEPS);
    lurd_steps_free(&steps);
    assert_true(lurd_parse("99999lR", &steps, &error));
    assert_int_equal(steps.count, LURD_MAX_STEPS);
    assert_true(steps.steps[LURD_MAX_STEPS - 1].push);
    lurd_steps_free(&steps);
}

/* A counted group is copied whole, in order, however many times (the copies are made by
 * doubling: an odd count and a group after other steps must come out right). */
static void test_counted_groups_repeat_in_order(void **state)
{
    (void)state;
    assert_parses_to("u7(lRd)u", "ulRdlRdlRdlRdlRdlRdlRdu");
    assert_parses_to("2(r3(dL))", "rdLdLdLrdLdLdL");
    assert_parses_to("5U", "UUUUU");
    char *plain = parsed("d1000(lur)");
    assert_int_equal(strlen(plain), 3001);
    for (int i = 1; i < 3001; i += 3) assert_memory_equal(plain + i, "lur", 3);
    free(plain);
}

/* ---------------------------------------------------------------- writing */

static void test_format_without_run_lengths_writes_every_letter(void **state)
{
    (void)state;
    char *plain = parsed("3l2Ud");
    assert_string_equal(plain, "lllUUd");
    free(plain);
}

static void test_format_with_run_lengths_counts_runs_of_the_same_step(void **state)
{
    (void)state;
    lurd_steps steps;
    lurd_error error;
    assert_true(lurd_parse("lllUUdLl", &steps, &error));
    char *text = lurd_format(steps.steps, steps.count, true);
    assert_string_equal(text, "3l2UdLl");
    free(text);
    lurd_steps_free(&steps);
}

static void test_format_of_no_steps_is_empty(void **state)
{
    (void)state;
    char *text = lurd_format(NULL, 0, true);
    assert_string_equal(text, "");
    free(text);
}

static void test_formatted_text_reads_back_to_the_same_steps(void **state)
{
    (void)state;
    lurd_steps steps, again;
    lurd_error error;
    assert_true(lurd_parse("2(ldr3u) 12R uuLLd", &steps, &error));
    char *text = lurd_format(steps.steps, steps.count, true);
    assert_true(lurd_parse(text, &again, &error));
    assert_int_equal(again.count, steps.count);
    for (int i = 0; i < steps.count; i++) {
        assert_int_equal(again.steps[i].direction, steps.steps[i].direction);
        assert_int_equal(again.steps[i].push, steps.steps[i].push);
    }
    free(text);
    lurd_steps_free(&again);
    lurd_steps_free(&steps);
}

/* ---------------------------------------------------------------- replaying */

static void test_apply_plays_a_solution(void **state)
{
    (void)state;
    play p;
    play_start(&p, corridor, "rRRR");
    assert_true(p.legal);
    assert_true(game_is_solved(&p.game));
    assert_int_equal(p.game.moves, 4);
    assert_int_equal(p.game.pushes, 3);
    play_end(&p);
}

static void test_apply_with_run_lengths_plays_the_same(void **state)
{
    (void)state;
    play p;
    play_start(&p, corridor, "r3R");
    assert_true(p.legal);
    assert_true(game_is_solved(&p.game));
    play_end(&p);
}

static void test_apply_of_lowercase_pushes_the_boxes_it_walks_into(void **state)
{
    (void)state;
    play p;
    play_start(&p, corridor, "rrrr");
    assert_true(p.legal);
    assert_true(game_is_solved(&p.game));
    assert_int_equal(p.game.pushes, 3);
    play_end(&p);
}

static void test_apply_leaves_an_unfinished_solution_unsolved(void **state)
{
    (void)state;
    play p;
    play_start(&p, corridor, "rR");
    assert_true(p.legal);
    assert_false(game_is_solved(&p.game));
    play_end(&p);
}

static void test_apply_stops_at_a_wall_naming_the_step(void **state)
{
    (void)state;
    play p;
    play_start(&p, corridor, "rRu");
    assert_false(p.legal);
    assert_string_equal(p.error.message, "step 3 (u): walks into a wall");
    assert_int_equal(p.game.moves, 2); /* stopped before the bad step */
    assert_int_equal(p.game.pushes, 1);
    play_end(&p);
}

static void test_apply_stops_at_a_box_that_cannot_move(void **state)
{
    (void)state;
    play p;
    play_start(&p, "#######\n#@$$..#\n#     #\n#######\n", "R");
    assert_false(p.legal);
    assert_string_equal(p.error.message, "step 1 (R): pushes a box that cannot move");
    assert_int_equal(p.game.moves, 0);
    play_end(&p);
}

static void test_apply_stops_at_a_push_with_no_box(void **state)
{
    (void)state;
    play p;
    play_start(&p, corridor, "RR");
    assert_false(p.legal);
    assert_string_equal(p.error.message,
                        "step 1 (R): is written as a push but there is no box to push");
    play_end(&p);
}

static void test_apply_stops_at_a_move_that_pushes(void **state)
{
    (void)state;
    play p;
    play_start(&p, corridor, "rrRR");
    assert_false(p.legal);
    assert_string_equal(p.error.message, "step 2 (r): is written as a move but pushes a box");
    assert_int_equal(p.game.moves, 1);
    play_end(&p);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_lowercase_letters_are_moves_and_uppercase_pushes),
        cmocka_unit_test(test_all_lowercase_text_is_read_without_case),
        cmocka_unit_test(test_empty_text_is_no_steps),
        cmocka_unit_test(test_white_space_is_ignored),
        cmocka_unit_test(test_count_repeats_the_letter_after_it),
        cmocka_unit_test(test_counts_of_several_digits_are_read),
        cmocka_unit_test(test_count_repeats_a_group),
        cmocka_unit_test(test_groups_nest),
        cmocka_unit_test(test_group_without_a_count_is_read_once),
        cmocka_unit_test(test_empty_group_is_no_steps),
        cmocka_unit_test(test_unknown_letter_is_rejected_with_its_place),
        cmocka_unit_test(test_unprintable_byte_is_rejected_by_its_value),
        cmocka_unit_test(test_count_at_the_end_is_rejected),
        cmocka_unit_test(test_count_may_be_separated_from_its_letter_by_white_space),
        cmocka_unit_test(test_count_of_zero_is_rejected),
        cmocka_unit_test(test_unclosed_group_is_rejected),
        cmocka_unit_test(test_closing_parenthesis_without_a_group_is_rejected),
        cmocka_unit_test(test_groups_nested_too_deep_are_rejected),
        cmocka_unit_test(test_more_than_the_step_limit_is_rejected),
        cmocka_unit_test(test_the_step_limit_itself_is_accepted),
        cmocka_unit_test(test_counted_groups_repeat_in_order),
        cmocka_unit_test(test_format_without_run_lengths_writes_every_letter),
        cmocka_unit_test(test_format_with_run_lengths_counts_runs_of_the_same_step),
        cmocka_unit_test(test_format_of_no_steps_is_empty),
        cmocka_unit_test(test_formatted_text_reads_back_to_the_same_steps),
        cmocka_unit_test(test_apply_plays_a_solution),
        cmocka_unit_test(test_apply_with_run_lengths_plays_the_same),
        cmocka_unit_test(test_apply_of_lowercase_pushes_the_boxes_it_walks_into),
        cmocka_unit_test(test_apply_leaves_an_unfinished_solution_unsolved),
        cmocka_unit_test(test_apply_stops_at_a_wall_naming_the_step),
        cmocka_unit_test(test_apply_stops_at_a_box_that_cannot_move),
        cmocka_unit_test(test_apply_stops_at_a_push_with_no_box),
        cmocka_unit_test(test_apply_stops_at_a_move_that_pushes),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
