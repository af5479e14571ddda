/* test_answers.c - the answer store: every position along a stored solution is answered with
 * the rest of it, the better of two answers is kept, lost positions are kept, and the store
 * is safe to share between threads. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "worker/answers.h"
#include "rules/game.h"
#include "level/level.h"
#include "rules/lurd.h"
#include "solver/solver.h"

/* A corridor: the box in column 3, its goal in column 6. */
static const char CORRIDOR[] = "########\n"
                               "#@ $  .#\n"
                               "########\n";

/* A room with one box two pushes from its goal. */
static const char ROOM[] = "#######\n"
                           "#     #\n"
                           "#     #\n"
                           "# $ . #\n"
                           "#@    #\n"
                           "#     #\n"
                           "#######\n";

typedef struct fixture {
    collection levels;
    game game;
    answers *store;
} fixture;

static fixture *open_level(const char *text)
{
    fixture *f = calloc(1, sizeof *f);
    assert_non_null(f);
    level_error error;
    assert_true(collection_parse(text, strlen(text), "test", &f->levels, &error));
    assert_true(game_init(&f->game, &f->levels.levels[0]));
    f->store = answers_create(&f->levels.levels[0]);
    assert_non_null(f->store);
    return f;
}

static void close_level(fixture *f)
{
    answers_release(f->store);
    game_free(&f->game);
    collection_free(&f->levels);
    free(f);
}

/* Plays LURD text on the fixture's game. */
static void walk(fixture *f, const char *moves)
{
    lurd_steps steps;
    lurd_error error;
    assert_true(lurd_parse(moves, &steps, &error));
    assert_true(lurd_apply(&f->game, &steps, &error));
    lurd_steps_free(&steps);
}

/* Stores LURD text as a solution from where the game stands. */
static bool store(fixture *f, const char *solution, solver_mode mode)
{
    lurd_steps steps;
    lurd_error error;
    assert_true(lurd_parse(solution, &steps, &error));
    bool ok = answers_add_solution(f->store, &f->game.position, steps.steps, steps.count, mode);
    lurd_steps_free(&steps);
    return ok;
}

/* The answer for where the game stands, as LURD text (NULL unless solvable). */
static char *ask(fixture *f, answer *a)
{
    answers_find(f->store, &f->game.position, a);
    return a->kind == ANSWER_SOLVABLE ? lurd_format(a->steps, a->moves, false) : NULL;
}

static void test_an_empty_store_knows_nothing(void **state)
{
    (void)state;
    fixture *f = open_level(CORRIDOR);
    answer a;
    assert_null(ask(f, &a));
    assert_int_equal(a.kind, ANSWER_UNKNOWN);
    close_level(f);
}

static void test_every_position_along_a_solution_is_answered_with_its_rest(void **state)
{
    (void)state;
    fixture *f = open_level(CORRIDOR);
    assert_true(store(f, "rRRR", SOLVER_FAST));
    const char *rests[] = {"rRRR", "RR", "R"};
    const int pushes[] = {3, 2, 1};
    for (int i = 0; i < 3; i++) {
        answer a;
        char *text = ask(f, &a);
        assert_non_null(text);
        assert_string_equal(text, rests[i]);
        assert_int_equal(a.pushes, pushes[i]);
        assert_int_equal(a.moves, (int)strlen(rests[i]));
        assert_int_equal(a.mode, SOLVER_FAST);
        free(text);
        answer_free(&a);
        walk(f, i == 0 ? "rR" : "R");
    }
    int solvable, lost;
    answers_count(f->store, &solvable, &lost);
    assert_int_equal(solvable, 3);
    assert_int_equal(lost, 0);
    close_level(f);
}

static void test_a_player_elsewhere_in_the_region_gets_the_walk_first(void **state)
{
    (void)state;
    fixture *f = open_level(ROOM);
    assert_true(store(f, "uRR", SOLVER_OPTIMAL)); /* up beside the box, then push it right */
    walk(f, "rr");                                /* the player walks off, boxes unchanged */
    answer a;
    char *text = ask(f, &a);
    assert_non_null(text);
    /* Back to where the stored solution begins (two left), then all of it. */
    assert_string_equal(text, "lluRR");
    assert_int_equal(a.pushes, 2);
    assert_int_equal(a.mode, SOLVER_OPTIMAL);
    /* The answer replays to a solved position from here. */
    lurd_steps steps = {.steps = a.steps, .count = a.moves};
    lurd_error error;
    assert_true(lurd_apply(&f->game, &steps, &error));
    assert_true(game_is_solved(&f->game));
    free(text);
    answer_free(&a);
    close_level(f);
}

static void test_steps_that_do_not_solve_are_refused(void **state)
{
    (void)state;
    fixture *f = open_level(CORRIDOR);
    assert_false(store(f, "rRR", SOLVER_FAST)); /* one push short */
    assert_false(store(f, "rRRRR", SOLVER_FAST)); /* the last push is blocked */
    answer a;
    assert_null(ask(f, &a));
    close_level(f);
}

static void test_optimal_rest_beats_fast_and_fewer_pushes_beat_more(void **state)
{
    (void)state;
    fixture *f = open_level(ROOM);
    /* A fast solution with a detour: the box up, down again, then right. It passes the
     * start's boxes twice; the later pass, two pushes from the end, is the answer, the
     * walk to it and its own walk made one shortest walk. */
    assert_true(store(f, "rUluurDldRR", SOLVER_FAST));
    answer a;
    char *text = ask(f, &a);
    assert_int_equal(a.pushes, 2);
    assert_string_equal(text, "uRR");
    free(text);
    answer_free(&a);
    /* A shorter fast one replaces it, and a longer one does not replace that. */
    assert_true(store(f, "uRR", SOLVER_FAST));
    assert_true(store(f, "rUluurDldRR", SOLVER_FAST));
    text = ask(f, &a);
    assert_string_equal(text, "uRR");
    assert_int_equal(a.mode, SOLVER_FAST);
    free(text);
    answer_free(&a);
    /* The same rest found by the optimal mode: now it is known optimal. */
    assert_true(store(f, "uRR", SOLVER_OPTIMAL));
    text = ask(f, &a);
    assert_int_equal(a.mode, SOLVER_OPTIMAL);
    free(text);
    answer_free(&a);
    close_level(f);
}

static void test_lost_positions_are_kept_but_never_over_a_solution(void **state)
{
    (void)state;
    fixture *f = open_level(ROOM);
    assert_true(answers_add_lost(f->store, &f->game.position)); /* not true: for the test */
    answer a;
    assert_null(ask(f, &a));
    assert_int_equal(a.kind, ANSWER_LOST);
    walk(f, "r"); /* the player elsewhere in the same region: the same position */
    assert_null(ask(f, &a));
    assert_int_equal(a.kind, ANSWER_LOST);
    /* A solution from it wins, and stays. */
    assert_true(store(f, "luRR", SOLVER_FAST));
    assert_true(answers_add_lost(f->store, &f->game.position));
    char *text = ask(f, &a);
    assert_string_equal(text, "luRR");
    free(text);
    answer_free(&a);
    int solvable, lost;
    answers_count(f->store, &solvable, &lost);
    assert_int_equal(solvable, 2);
    assert_int_equal(lost, 0);
    close_level(f);
}

static void test_known_answers_by_the_solvers_key(void **state)
{
    (void)state;
    fixture *f = open_level(CORRIDOR);
    walk(f, "rR");
    uint64_t key = solver_position_key(&f->game.board, &f->game.position);
    assert_false(answers_known(f->store, key));
    assert_true(store(f, "RR", SOLVER_FAST));
    assert_true(answers_known(f->store, key));
    /* The player one square back (the same region): the same key. */
    walk(f, "l");
    assert_true(solver_position_key(&f->game.board, &f->game.position) == key);
    assert_true(answers_add_lost(f->store, &f->game.position)); /* ignored: it is solvable */
    assert_true(answers_known(f->store, key));
    close_level(f);
}

/* ---- two threads ------------------------------------------------------------------------ */

typedef struct racer {
    fixture *f;
    game game; /* the racer's own game on the shared store */
    int found;
} racer;

static void *race(void *argument)
{
    racer *r = argument;
    lurd_steps steps;
    lurd_error error;
    assert_true(lurd_parse("rRRR", &steps, &error));
    for (int i = 0; i < 200; i++) {
        answers_add_solution(r->f->store, &r->game.position, steps.steps, steps.count,
                             i % 2 ? SOLVER_FAST : SOLVER_OPTIMAL);
        answer a;
        if (answers_find(r->f->store, &r->game.position, &a) == ANSWER_SOLVABLE) r->found++;
        answer_free(&a);
        answers_known(r->f->store, 12345);
    }
    lurd_steps_free(&steps);
    return NULL;
}

static void test_two_threads_share_one_store(void **state)
{
    (void)state;
    fixture *f = open_level(CORRIDOR);
    racer racers[2] = {{.f = f}, {.f = f}};
    pthread_t threads[2];
    for (int i = 0; i < 2; i++) {
        assert_true(game_init(&racers[i].game, &f->levels.levels[0]));
        answers_retain(f->store);
        assert_int_equal(pthread_create(&threads[i], NULL, race, &racers[i]), 0);
    }
    for (int i = 0; i < 2; i++) {
        pthread_join(threads[i], NULL);
        answers_release(f->store);
        game_free(&racers[i].game);
        assert_int_equal(racers[i].found, 200);
    }
    answer a;
    char *text = ask(f, &a);
    assert_string_equal(text, "rRRR");
    assert_int_equal(a.mode, SOLVER_OPTIMAL);
    free(text);
    answer_free(&a);
    close_level(f);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_an_empty_store_knows_nothing),
        cmocka_unit_test(test_every_position_along_a_solution_is_answered_with_its_rest),
        cmocka_unit_test(test_a_player_elsewhere_in_the_region_gets_the_walk_first),
        cmocka_unit_test(test_steps_that_do_not_solve_are_refused),
        cmocka_unit_test(test_optimal_rest_beats_fast_and_fewer_pushes_beat_more),
        cmocka_unit_test(test_lost_positions_are_kept_but_never_over_a_solution),
        cmocka_unit_test(test_known_answers_by_the_solvers_key),
        cmocka_unit_test(test_two_threads_share_one_store),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
