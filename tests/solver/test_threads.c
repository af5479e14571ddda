/* test_threads.c - the race of searches on one level (solver_threads.h): the run that
 * answers wins and the others are stopped; with no answer every run ends on its own; a
 * cancel stops them all; staggered helpers do not start when run 0 answers at once. */
#include <setjmp.h>
#include <stdarg.h>
#include <stdatomic.h>
#include <stddef.h>
#include <stdint.h>
#include <time.h>

#include <cmocka.h>

#include "solver/solver_threads.h"

typedef struct race {
    int answering;      /* the run that answers (after a short wait), -1: none */
    atomic_int stopped; /* the runs that saw their stop flag */
    atomic_int ran;     /* the runs that started */
} race;

static void sleep_a_millisecond(void)
{
    struct timespec pause = {0, 1000000};
    nanosleep(&pause, NULL);
}

/* The one that answers does so after 20 ms; the others wait for their stop flag (at most
 * 5 s, then they give up without an answer). */
static bool run(void *argument, int index, const atomic_bool *stop)
{
    race *r = argument;
    atomic_fetch_add(&r->ran, 1);
    for (int ms = 0; ms < 5000; ms++) {
        if (index == r->answering && ms >= 20) return true;
        if (atomic_load(stop)) {
            atomic_fetch_add(&r->stopped, 1);
            return false;
        }
        if (r->answering < 0 && ms >= 10) return false; /* nobody answers: done soon */
        sleep_a_millisecond();
    }
    return false;
}

static void test_the_run_that_answers_wins_and_stops_the_others(void **state)
{
    (void)state;
    race r = {.answering = 2};
    int winner = -1;
    assert_int_equal(solver_threads_race(4, 0, NULL, run, &r, &winner), 4);
    assert_int_equal(winner, 2);
    assert_int_equal(atomic_load(&r.ran), 4);
    assert_int_equal(atomic_load(&r.stopped), 3);
}

static void test_without_an_answer_there_is_no_winner(void **state)
{
    (void)state;
    race r = {.answering = -1};
    int winner = 0;
    assert_int_equal(solver_threads_race(3, 0, NULL, run, &r, &winner), 3);
    assert_int_equal(winner, -1);
    assert_int_equal(atomic_load(&r.stopped), 0);
}

static void test_a_cancel_stops_every_run(void **state)
{
    (void)state;
    race r = {.answering = 99}; /* nobody: they wait for the flag */
    atomic_bool cancel = true;
    int winner = 0;
    int started = solver_threads_race(3, 0, &cancel, run, &r, &winner);
    assert_int_equal(winner, -1);
    assert_int_equal(atomic_load(&r.stopped), atomic_load(&r.ran));
    assert_true(started <= 3);
}

static void test_helpers_do_not_start_when_run_zero_answers_first(void **state)
{
    (void)state;
    race r = {.answering = 0};
    int winner = -1;
    /* helpers would start after 10 s: run 0 answers in 20 ms */
    assert_int_equal(solver_threads_race(4, 10.0, NULL, run, &r, &winner), 1);
    assert_int_equal(winner, 0);
    assert_int_equal(atomic_load(&r.ran), 1);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_the_run_that_answers_wins_and_stops_the_others),
        cmocka_unit_test(test_without_an_answer_there_is_no_winner),
        cmocka_unit_test(test_a_cancel_stops_every_run),
        cmocka_unit_test(test_helpers_do_not_start_when_run_zero_answers_first),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
