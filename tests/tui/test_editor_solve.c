/* test_editor_solve.c - the editor's S (editor_solve.h): the answer about the squares asked,
 * on a level of its own, so the editor's level checked may be made again (a title edit)
 * while the search runs or after it answered. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <poll.h>
#include <string.h>

#include "level/level.h"
#include "ida.h"
#include "tui/editor_solve.h"

/* One push to the right solves it. */
static const char ONE_PUSH[] = "; Before the title edit\n"
                               "#####\n"
                               "#@$.#\n"
                               "#####\n";

/* Polls the editor's solver until its fast answer, for up to 30 s. */
static void wait_for_answer(editor_solve *s)
{
    double until = ida_clock() + 30;
    while (s->state == EDITOR_SOLVE_FAST && ida_clock() < until) {
        struct pollfd wake = {.fd = editor_solve_wake_fd(s), .events = POLLIN};
        bool woke = poll(&wake, 1, 100) > 0;
        editor_solve_poll(s, woke);
    }
}

/* The level checked freed right after S (the editor makes it again at a title edit): the
 * game asked about plays a level of its own, and the answer comes about its squares. */
static void test_the_level_asked_about_is_its_own(void **state)
{
    (void)state;
    collection checked;
    level_error error;
    assert_true(collection_parse(ONE_PUSH, strlen(ONE_PUSH), "test", &checked, &error));
    editor_solve s = {.budget_seconds = 5};
    assert_true(editor_solve_ask(&s, &checked.levels[0]));
    assert_ptr_equal(s.game.level, &s.level);
    assert_ptr_not_equal(s.level.squares, checked.levels[0].squares);
    collection_free(&checked); /* the title edited: the level checked made again */
    collection again;
    assert_true(collection_parse(ONE_PUSH, strlen(ONE_PUSH), "test", &again, &error));
    assert_true(editor_solve_is_about(&s, &again.levels[0]));
    wait_for_answer(&s);
    assert_non_null(strstr(s.answer, "solvable: 1 push ("));
    editor_solve_free(&s);
    collection_free(&again);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_the_level_asked_about_is_its_own),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
