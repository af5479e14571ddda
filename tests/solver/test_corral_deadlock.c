/* test_corral_deadlock.c - corral deadlocks proven by a small search on the barrier boxes
 * alone (solver_corral_deadlock.h): a lost corral the static rules miss, one only the boxes
 * touching its barrier prove lost (and a start lost by it, answered at once), one only a
 * single touching box proves, where all of them give up (a start's check), corrals that
 * can be opened, the table of learned answers shared by two searches, a copy of it that
 * writes it and reads only itself, and, over positions
 * of real levels, that every corral proven lost really is (the solver agrees) and that the
 * checks over rows of bits answer as those square by square. The same for the stuck boxes'
 * check (solver_stuck_deadlock()) and the patterns it makes (solver_stuck.h), whose store
 * one search fills while another matches against it. */
#include <pthread.h>
#include <stdatomic.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "rules/board.h"
#include "level/collection.h"
#include "rules/deadlock.h"
#include "solver/solver.h"
#include "solver/solver_bound.h"
#include "solver/solver_corral_deadlock.h"
#include "solver/solver_domain.h"
#include "solver/solver_learned.h"
#include "solver/solver_pairs.h"
#include "solver/solver_stuck.h"
#include "reference_solution.h"
#include "search_walk.h"

typedef struct fixture {
    collection collection;
    board board;
    position start;
    solver_distances distances;
    deadlock_table deadlocks;
    solver_search search; /* its own corral checks off: the tests make their own */
    solver_corral_memory memory;
    solver_corral_deadlocks checks;
    solver_pairs pairs; /* the checks' two-box deadlocks, unless SOLVER_NO_PAIRS */
} fixture;

/* With `disable` (SOLVER_NO_* flags) turned off as well. */
static void fixture_pick_without(fixture *f, int number, unsigned disable)
{
    assert_true(number >= 1 && number <= f->collection.count);
    assert_true(board_from_level(&f->collection.levels[number - 1], &f->board, &f->start));
    assert_true(solver_distances_init(&f->distances, &f->board));
    assert_true(deadlock_table_init(&f->deadlocks, &f->board));
    solver_options options = {.mode = SOLVER_FAST, .disable = SOLVER_NO_CORRAL_DEADLOCKS | disable};
    assert_true(solver_search_init(&f->search, &f->board, &f->start, &f->distances, &f->deadlocks,
                                   NULL, NULL, &options));
    assert_null(f->search.corral_deadlocks);
    assert_true(solver_corral_memory_init(&f->memory, 4096));
    assert_true(solver_corral_deadlocks_init(&f->checks, &f->board, &f->distances, &f->deadlocks,
                                             f->search.zobrist, &f->memory));
    if (disable & SOLVER_NO_ROWS) f->checks.use_rows = false;
    memset(&f->pairs, 0, sizeof f->pairs);
    if (!(disable & SOLVER_NO_PAIRS) &&
        solver_pairs_init(&f->pairs, &f->board, &f->distances, 1u << 24))
        f->checks.pairs = &f->pairs;
    solver_search_key(&f->search); /* the player's reach */
}

static void fixture_pick(fixture *f, int number)
{
    fixture_pick_without(f, number, 0);
}

static void fixture_from_text(fixture *f, const char *text)
{
    level_error error;
    assert_true(collection_parse(text, strlen(text), "inline", &f->collection, &error));
    fixture_pick(f, 1);
}

static void fixture_free(fixture *f)
{
    solver_corral_deadlocks_free(&f->checks);
    solver_corral_memory_free(&f->memory);
    solver_pairs_free(&f->pairs);
    solver_search_free(&f->search);
    deadlock_table_free(&f->deadlocks);
    solver_distances_free(&f->distances);
    board_free(&f->board);
    position_free(&f->start);
    collection_free(&f->collection);
}

static int square_at(const board *b, int x, int y)
{
    return y * b->width + x;
}

/* The level as text solved by the full solver with corral proofs off. */
static solver_status solve_without_corral_proofs(const char *text, solver_mode mode)
{
    collection c;
    level_error error;
    assert_true(collection_parse(text, strlen(text), "inline", &c, &error));
    board b;
    position p;
    assert_true(board_from_level(&c.levels[0], &b, &p));
    solver_options options = {.mode = mode,
                              .memory_bytes = (size_t)16 << 20,
                              .max_nodes = 200000,
                              .threads = 1,
                              .disable = SOLVER_NO_CORRAL_DEADLOCKS};
    solver_result result;
    solver_status status = solver_solve(&b, &p, &options, &result);
    solver_result_free(&result);
    board_free(&b);
    position_free(&p);
    collection_free(&c);
    return status;
}

/* A position of Microban I 1 met by the solver: the box left of the player shuts him out of
 * the three squares at the bottom left. No box stands on a dead square and none is frozen,
 * yet the two barrier boxes alone can never both reach goals. */
static const char *lost_corral = "####\n"
                                 "# .#\n"
                                 "#  ###\n"
                                 "#*   #\n"
                                 "# $@ #\n"
                                 "#  ###\n"
                                 "####\n";

static void test_corral_of_barrier_boxes_that_can_never_clear_is_lost(void **state)
{
    (void)state;
    fixture f;
    fixture_from_text(&f, lost_corral);
    int pushed = square_at(&f.board, 2, 4);
    /* what the static rules see: nothing */
    assert_false(deadlock_check_push(&f.deadlocks, &f.board, f.search.boxes, pushed));
    assert_int_equal(solver_search_reaches(&f.search, square_at(&f.board, 1, 5)), 0);
    assert_true(solver_corral_deadlock(&f.checks, &f.search, pushed));
    assert_int_equal(f.checks.counters.searched, 1);
    assert_int_equal(f.checks.counters.deadlocks, 1);
    /* and the whole solver, without the proof, agrees: no solution exists */
    assert_int_equal(solve_without_corral_proofs(lost_corral, SOLVER_OPTIMAL), SOLVER_UNSOLVABLE);
    fixture_free(&f);
}

/* A square shut in by three boxes, as in a search state of XSokoban 28: the box right of
 * the square has a floor below it, so a box pushed into the square is frozen only with the
 * fourth box, which touches the barrier (four boxes in a square). The barrier alone can
 * fill the square, which opens the corral; with the box that touches it, every push into
 * the square freezes. The check of a whole position (a search's start) adds such boxes. */
static const char *wedged_corral = "##########\n"
                                   "#@     ..#\n"
                                   "#        #\n"
                                   "#   $$   #\n"
                                   "#  $ $  .#\n"
                                   "#####   .#\n"
                                   "##########\n";

static void test_box_touching_the_barrier_is_searched_with_it(void **state)
{
    (void)state;
    fixture f;
    fixture_from_text(&f, wedged_corral);
    int shut = square_at(&f.board, 4, 4), pushed = square_at(&f.board, 3, 4);
    assert_false(solver_search_reaches(&f.search, shut));
    assert_false(deadlock_check_push(&f.deadlocks, &f.board, f.search.boxes, pushed));
    /* the check after a push searches the barrier alone: not proven */
    assert_false(solver_corral_deadlock(&f.checks, &f.search, pushed));
    assert_int_equal(f.checks.counters.searched, 1);
    /* the check of a whole position adds the fourth box */
    assert_true(solver_corral_deadlock_anywhere(&f.checks, &f.search));
    assert_int_equal(f.checks.counters.searched, 2);
    assert_int_equal(f.checks.counters.deadlocks, 1);
    assert_int_equal(solve_without_corral_proofs(wedged_corral, SOLVER_OPTIMAL), SOLVER_UNSOLVABLE);
    fixture_free(&f);
}

/* The same wedge, as XSokoban 28's bottom corner makes it in the search: the square at
 * (6, 4) is shut in by the boxes left of it (a wall below), above it and right of it (a
 * floor below), and the box at (7, 3) wedges the last two. The boxes further along the row
 * can be pushed up and down, so the search with every box touching the barrier, and those
 * touching them, gives up at its node limit: the optimal mode's check of a state within its
 * threshold (solver_corral_deadlock_anywhere()) leaves it unproven. The check of a start,
 * and of each state the fast mode expands, then searches the barrier with each touching box
 * alone; with the wedging box it is lost in a few states. */
static const char *wedged_in_a_crowd = "###########\n"
                                       "#@        #\n"
                                       "#         #\n"
                                       "#  $$$$$  #\n"
                                       "#    $ $  #\n"
                                       "#######   #\n"
                                       "#.......  #\n"
                                       "###########\n";

static void test_one_box_touching_the_barrier_is_searched_when_all_are_too_many(void **state)
{
    (void)state;
    fixture f;
    fixture_from_text(&f, wedged_in_a_crowd);
    assert_false(solver_search_reaches(&f.search, square_at(&f.board, 6, 4)));
    /* the barrier alone can open the corral, all its neighbours give up: not proven */
    assert_false(solver_corral_deadlock(&f.checks, &f.search, square_at(&f.board, 5, 4)));
    assert_false(solver_corral_deadlock_anywhere(&f.checks, &f.search));
    assert_int_equal(f.checks.counters.deadlocks, 0);
    assert_true(solver_corral_deadlock_each_touching(&f.checks, &f.search));
    assert_int_equal(f.checks.counters.one_touching_lost, 1);
    assert_int_equal(f.checks.counters.deadlocks, 1);
    /* and the whole solver, without the proof, agrees; with it, both modes answer at once */
    assert_int_equal(solve_without_corral_proofs(wedged_in_a_crowd, SOLVER_OPTIMAL),
                     SOLVER_UNSOLVABLE);
    const solver_mode modes[] = {SOLVER_OPTIMAL, SOLVER_FAST};
    for (size_t m = 0; m < sizeof modes / sizeof *modes; m++) {
        solver_result result;
        solver_options options = {.mode = modes[m], .max_nodes = 1, .threads = 1};
        assert_int_equal(solver_solve(&f.board, &f.start, &options, &result), SOLVER_UNSOLVABLE);
        assert_int_equal(result.nodes, 0);
        solver_result_free(&result);
    }
    fixture_free(&f);
}

/* A position already lost by a corral is answered at once, before any push: the root's
 * corrals are checked by every box. */
static void test_start_lost_by_a_corral_is_unsolvable_at_once(void **state)
{
    (void)state;
    collection c;
    level_error error;
    assert_true(collection_parse(wedged_corral, strlen(wedged_corral), "inline", &c, &error));
    board b;
    position p;
    assert_true(board_from_level(&c.levels[0], &b, &p));
    solver_options options = {.mode = SOLVER_FAST, .memory_bytes = (size_t)16 << 20, .threads = 1};
    solver_result result;
    assert_int_equal(solver_solve(&b, &p, &options, &result), SOLVER_UNSOLVABLE);
    assert_int_equal(result.nodes, 0);
    solver_result_free(&result);
    board_free(&b);
    position_free(&p);
    collection_free(&c);
}

/* A block of boxes in a checkerboard, 40 by 20: each square between four of them is a
 * corral of its own, and every one of them opens (a box pushed aside lets the player in).
 * The goals lie below. */
static char *checkerboard_text(void)
{
    enum { W = 46, H = 36 };
    static char text[(W + 1) * H + 1];
    char *p = text;
    int boxes = 0;
    for (int y = 0; y < H; y++) {
        for (int x = 0; x < W; x++) {
            char c = ' ';
            if (x == 0 || x == W - 1 || y == 0 || y == H - 1)
                c = '#';
            else if (x >= 3 && x < 43 && y >= 3 && y < 23 && (x + y) % 2 == 0)
                c = '$', boxes++;
            if (x == 1 && y == 1) c = '@';
            *p++ = c;
        }
        *p++ = '\n';
    }
    *p = 0;
    /* as many goals, row by row from the bottom */
    for (int y = H - 2; y > 23 && boxes > 0; y--)
        for (int x = 2; x < W - 2 && boxes > 0; x++, boxes--) text[y * (W + 1) + x] = '.';
    return text;
}

/* The check of a whole state reads its stop between two corrals once a few dozen corrals
 * and pushes were made (on a thousand boxes the start's check makes thousands, 50 ms of CPU
 * with nothing else reading the stop): told to stop, it gives up at the first read,
 * proving nothing. */
static void test_check_of_every_corral_gives_up_when_told_to_stop(void **state)
{
    (void)state;
    fixture f;
    fixture_from_text(&f, checkerboard_text());
    assert_false(solver_corral_deadlock_each_touching(&f.checks, &f.search));
    uint64_t whole = f.checks.counters.nodes, corrals = f.checks.counters.checks;
    fixture_free(&f);

    fixture_from_text(&f, checkerboard_text());
    atomic_bool cancel = true;
    solver_stop stop = {.cancel = &cancel};
    f.checks.stop = &stop;
    assert_false(solver_corral_deadlock_each_touching(&f.checks, &f.search));
    print_message("the start's check: %llu corrals, %llu pushes; told to stop, %llu and %llu\n",
                  (unsigned long long)corrals, (unsigned long long)whole,
                  (unsigned long long)f.checks.counters.checks,
                  (unsigned long long)f.checks.counters.nodes);
    assert_true(corrals > 300); /* the check is long enough to measure something */
    assert_true(f.checks.counters.checks + f.checks.counters.nodes < (corrals + whole) / 8);
    assert_true(f.checks.stopped);
    fixture_free(&f);
}

/* A box that shuts the player out of nothing is not looked at. */
static void test_box_next_to_no_corral_is_not_looked_at(void **state)
{
    (void)state;
    fixture f;
    fixture_from_text(&f, "#######\n"
                          "#  .  #\n"
                          "# #$# #\n"
                          "#   @ #\n"
                          "#######\n");
    /* the box closes nothing: no corral next to it */
    assert_false(solver_corral_deadlock(&f.checks, &f.search, square_at(&f.board, 3, 2)));
    assert_int_equal(f.checks.counters.checks, 0);
    fixture_free(&f);

    fixture_free(&f);
}

/* A corral whose barrier boxes all stand on goals has nothing to prove. */
static void test_corral_of_boxes_on_goals_is_left_alone(void **state)
{
    (void)state;
    fixture f;
    fixture_from_text(&f, "######\n"
                          "##   #\n"
                          "# *  #\n"
                          "#*@  #\n"
                          "######\n");
    assert_false(solver_search_reaches(&f.search, square_at(&f.board, 1, 2)));
    assert_false(solver_corral_deadlock(&f.checks, &f.search, square_at(&f.board, 2, 2)));
    assert_int_equal(f.checks.counters.searched, 0);
    fixture_free(&f);
}

/* The answer is learned: the same corral again costs a lookup, in this search or in
 * another one that shares the table (a second thread on the same level). */
static void test_answer_is_learned_and_shared(void **state)
{
    (void)state;
    fixture f;
    fixture_from_text(&f, lost_corral);
    int pushed = square_at(&f.board, 2, 4);
    assert_true(solver_corral_deadlock(&f.checks, &f.search, pushed));
    assert_true(solver_corral_deadlock(&f.checks, &f.search, pushed));
    assert_int_equal(f.checks.counters.searched, 1);
    assert_int_equal(f.checks.counters.learned, 1);
    solver_corral_deadlocks other;
    assert_true(solver_corral_deadlocks_init(&other, &f.board, &f.distances, &f.deadlocks,
                                             f.search.zobrist, &f.memory));
    assert_true(solver_corral_deadlock(&other, &f.search, pushed));
    assert_int_equal(other.counters.searched, 0);
    assert_int_equal(other.counters.learned, 1);
    solver_corral_deadlocks_free(&other);
    fixture_free(&f);
}

/* A copy of the board's table (solver_learned_copy(), a race's first run): what is learned
 * through it is learned in the table too, and what the table learns after the copy is made
 * is not read through the copy. */
static void test_a_copy_writes_the_table_and_reads_only_itself(void **state)
{
    (void)state;
    fixture f;
    fixture_from_text(&f, lost_corral);
    int pushed = square_at(&f.board, 2, 4);
    solver_learned *table = solver_learned_new(&f.board);
    solver_learned *copy = solver_learned_copy(table, &f.board);
    assert_non_null(copy);
    solver_corral_deadlocks mine, other, later;
    assert_true(solver_corral_deadlocks_init(&mine, &f.board, &f.distances, &f.deadlocks,
                                             f.search.zobrist, solver_learned_corrals(copy)));
    assert_true(solver_corral_deadlocks_init(&other, &f.board, &f.distances, &f.deadlocks,
                                             f.search.zobrist, solver_learned_corrals(table)));
    assert_true(solver_corral_deadlock(&mine, &f.search, pushed));
    assert_int_equal(mine.counters.searched, 1);
    assert_true(solver_corral_deadlock(&other, &f.search, pushed)); /* from the table */
    assert_int_equal(other.counters.searched, 0);
    assert_int_equal(other.counters.learned, 1);
    solver_corral_deadlocks_free(&mine);
    solver_learned_free(copy);
    solver_learned_free(table);

    table = solver_learned_new(&f.board);
    copy = solver_learned_copy(table, &f.board);
    assert_non_null(copy);
    solver_corral_deadlocks_share(&other, solver_learned_corrals(table));
    assert_true(solver_corral_deadlock(&other, &f.search, pushed)); /* after the copy */
    assert_true(solver_corral_deadlocks_init(&mine, &f.board, &f.distances, &f.deadlocks,
                                             f.search.zobrist, solver_learned_corrals(copy)));
    assert_true(solver_corral_deadlock(&mine, &f.search, pushed));
    assert_int_equal(mine.counters.searched, 1); /* not read */
    solver_learned *copy_after = solver_learned_copy(table, &f.board); /* holds it */
    assert_true(solver_corral_deadlocks_init(&later, &f.board, &f.distances, &f.deadlocks,
                                             f.search.zobrist, solver_learned_corrals(copy_after)));
    assert_true(solver_corral_deadlock(&later, &f.search, pushed));
    assert_int_equal(later.counters.searched, 0);
    assert_int_equal(later.counters.learned, 1);
    solver_corral_deadlocks_free(&later);
    solver_corral_deadlocks_free(&mine);
    solver_corral_deadlocks_free(&other);
    solver_learned_free(copy_after);
    solver_learned_free(copy);
    solver_learned_free(table);
    fixture_free(&f);
}

/* Writes the search's current position as a one-level collection text. */
static void position_text(const solver_search *s, char *text, size_t size)
{
    const board *b = s->board;
    size_t at = 0;
    for (int y = 0; y < b->height; y++) {
        for (int x = 0; x < b->width; x++) {
            int q = y * b->width + x;
            bool goal = board_is_goal(b, q);
            char c = board_is_wall(b, q) ? '#'
                     : q == s->player    ? (goal ? '+' : '@')
                     : s->boxes[q]       ? (goal ? '*' : '$')
                     : goal              ? '.'
                                         : ' ';
            assert_true(at + 2 < size);
            text[at++] = c;
        }
        text[at++] = '\n';
    }
    text[at] = '\0';
}

/* Asserts that the search's current position is lost: the solver without the corral
 * proofs finds no solution (the optimal mode searches these small levels to the end within
 * its node limit). */
static void assert_lost(const solver_search *s)
{
    char text[4096];
    position_text(s, text, sizeof text);
    solver_status status = solve_without_corral_proofs(text, SOLVER_OPTIMAL);
    if (status != SOLVER_UNSOLVABLE) fprintf(stderr, "not lost:\n%s", text);
    assert_int_equal(status, SOLVER_UNSOLVABLE);
}

/* Asserts that the solver without the corral proofs finds no solution from the search's
 * current position; returns true when it proves there is none, false when its node limit
 * ends the search first (a position too big for the oracle). */
static bool assert_not_solvable(const solver_search *s)
{
    char text[4096];
    position_text(s, text, sizeof text);
    solver_status status = solve_without_corral_proofs(text, SOLVER_OPTIMAL);
    if (status == SOLVER_SOLVED) fprintf(stderr, "solvable:\n%s", text);
    assert_int_not_equal(status, SOLVER_SOLVED);
    return status == SOLVER_UNSOLVABLE;
}

/* Microban I level `number` from cavepacker-data, set up in `f` with `disable` (SOLVER_NO_*)
 * turned off too; skips the test when the package is not installed. */
static void fixture_microban(fixture *f, int number, unsigned disable)
{
    char path[1024];
    level_error error;
    snprintf(path, sizeof path, "/usr/share/games/cavepacker/maps/microban01_%04d.sok", number);
    if (!collection_load(path, &f->collection, &error)) skip(); /* cavepacker-data missing */
    fixture_pick_without(f, 1, disable);
}

/* Over random walks of pushes on Microban I 1-40, every corral the check proves lost is
 * lost: the solver without the proof finds no solution there (the optimal mode searches
 * these small levels to the end within its node limit). */
static void test_every_corral_proven_lost_is_unsolvable(void **state)
{
    (void)state;
    int proven = 0, checked = 0;
    unsigned seed = 12345;
    for (int number = 1; number <= 40; number++) {
        fixture f;
        fixture_microban(&f, number, 0);
        solver_search *s = &f.search;
        ida_domain domain;
        solver_search_domain(s, &domain);
        for (int walk = 0; walk < 20; walk++) {
            search_walk_start(&f.search, &f.board, &f.start);
            for (int step = 0; step < 12 && search_walk_push(s, &domain, &seed); step++) {
                checked++;
                if (solver_corral_deadlock(&f.checks, s, s->box_square[s->last_box])) {
                    assert_lost(s);
                    proven++;
                    break;
                }
            }
        }
        fixture_free(&f);
    }
    /* the walks meet lost corrals often enough for this to test something */
    assert_true(checked > 1000);
    assert_true(proven >= 20);
}

/* Over random walks of pushes on Microban I 1-60, the small searches that may not make a
 * push forming a two-box deadlock (solver_pairs.h) prove corrals lost that the same
 * searches without the table leave open; each of those positions is lost. */
static void test_pairs_prove_corrals_the_search_alone_does_not(void **state)
{
    (void)state;
    int more = 0, fewer = 0;
    unsigned seed = 2024;
    for (int number = 1; number <= 60; number++) {
        fixture with, without;
        fixture_microban(&with, number, 0);
        fixture_microban(&without, number, SOLVER_NO_PAIRS);
        solver_search *s = &with.search;
        ida_domain domain;
        solver_search_domain(s, &domain);
        for (int walk = 0; walk < 20; walk++) {
            search_walk_start(s, &with.board, &with.start);
            for (int step = 0; step < 12 && search_walk_push(s, &domain, &seed); step++) {
                int pushed = s->box_square[s->last_box];
                bool lost = solver_corral_deadlock(&with.checks, s, pushed);
                bool lost_without = solver_corral_deadlock(&without.checks, s, pushed);
                fewer += lost_without && !lost;
                if (!lost || lost_without) continue;
                assert_lost(s);
                more++;
                break;
            }
        }
        fixture_free(&without);
        fixture_free(&with);
    }
    assert_true(more >= 20);    /* 49 with this seed */
    assert_int_equal(fewer, 0); /* the table only ever takes pushes away */
}

/* Over random walks of pushes on Microban I, a corral the small search leaves unproven
 * stays so (from the table) until it has been asked about SOLVER_CORRAL_AGAIN_FROM times;
 * then it is searched again with that many states. Some are proven lost that way, and
 * none of those can be solved (the solver without the proof finds no solution; where its
 * node limit stops it first, the next such position is taken). */
static void test_corral_asked_often_is_searched_again(void **state)
{
    (void)state;
    int proven = 0;
    unsigned seed = 777;
    for (int number = 1; number <= 155 && proven < 3; number++) {
        fixture f;
        fixture_microban(&f, number, 0);
        solver_search *s = &f.search;
        ida_domain domain;
        solver_search_domain(s, &domain);
        for (int walk = 0; walk < 20 && proven < 3; walk++) {
            search_walk_start(&f.search, &f.board, &f.start);
            for (int step = 0; step < 16 && search_walk_push(s, &domain, &seed); step++) {
                int box = s->box_square[s->last_box];
                uint64_t searched = f.checks.counters.searched;
                if (solver_corral_deadlock(&f.checks, s, box)) break;
                if (f.checks.counters.searched == searched) continue; /* learned, or none */
                /* unproven by a fresh search: open, or unproven at the limit. Asked again,
                 * it costs no search until the count comes round. */
                searched = f.checks.counters.searched;
                bool lost = false;
                for (int ask = 2; ask < SOLVER_CORRAL_AGAIN_FROM && !lost; ask++)
                    lost = solver_corral_deadlock(&f.checks, s, box);
                assert_false(lost);
                assert_int_equal(f.checks.counters.searched, searched);
                if (!solver_corral_deadlock(&f.checks, s, box)) continue;
                /* the searches again: the touching boxes' search may run too */
                assert_true(f.checks.counters.searched > searched);
                proven += assert_not_solvable(s);
                break;
            }
        }
        fixture_free(&f);
    }
    assert_true(proven >= 1);
}

/* Over random walks of pushes on Microban I 1-40, the checks over rows of bits and those
 * square by square (SOLVER_NO_ROWS) give the same answers, for the pushed box's corrals
 * and for all of them, with the same small searches. */
static void test_rows_and_squares_agree(void **state)
{
    (void)state;
    int lost = 0, checked = 0;
    unsigned seed = 54321;
    for (int number = 1; number <= 40; number++) {
        fixture f, g;
        fixture_microban(&f, number, 0);
        fixture_microban(&g, number, SOLVER_NO_ROWS);
        assert_true(f.search.use_rows && f.checks.use_rows);
        assert_false(g.search.use_rows || g.checks.use_rows);
        solver_search *s = &f.search;
        ida_domain domain;
        solver_search_domain(s, &domain);
        for (int walk = 0; walk < 20; walk++) {
            search_walk_start(&f.search, &f.board, &f.start);
            for (int step = 0; step < 12 && search_walk_push(s, &domain, &seed); step++) {
                /* the same position in the other search */
                for (int i = 0; i < s->box_count; i++)
                    g.search.box_square_scratch[i] = (uint16_t)s->box_square[i];
                solver_search_set(&g.search, g.search.box_square_scratch, s->player);
                solver_search_key(&g.search);
                assert_int_equal(g.search.region, s->region);
                int box = s->box_square[s->last_box];
                bool here = solver_corral_deadlock(&f.checks, s, box);
                assert_int_equal(solver_corral_deadlock(&g.checks, &g.search, box), here);
                bool anywhere = solver_corral_deadlock_anywhere(&f.checks, s);
                assert_int_equal(solver_corral_deadlock_anywhere(&g.checks, &g.search), anywhere);
                checked++;
                if (here || anywhere) {
                    lost++;
                    break;
                }
            }
        }
        assert_int_equal(f.checks.counters.searched, g.checks.counters.searched);
        assert_int_equal(f.checks.counters.nodes, g.checks.counters.nodes);
        fixture_free(&f);
        fixture_free(&g);
    }
    assert_true(checked > 1000);
    assert_true(lost >= 20);
}

/* The stuck boxes' check of the search's current position (solver_stuck_deadlock()), with
 * its pattern written to `pattern` and `region` (NULL: none asked). */
static int stuck_check(fixture *f, int *pattern, uint64_t *region)
{
    solver_search *s = &f->search;
    for (int i = 0; i < s->box_count; i++) s->box_square_scratch[i] = (uint16_t)s->box_square[i];
    return solver_stuck_deadlock(&f->checks, s->box_square_scratch, s->box_count, s->player,
                                 pattern, region);
}

/* After a push of a reference solution: no corral is lost. */
typedef struct solution_check {
    fixture *fixture;
    uint64_t pushes;
} solution_check;

static void check_corrals(void *argument, const position *p, direction d)
{
    solution_check *check = argument;
    fixture *f = check->fixture;
    solver_search *s = &f->search;
    int count = 0;
    for (int q = 0; q < f->board.size; q++)
        if (p->boxes[q]) s->box_square_scratch[count++] = (uint16_t)q;
    solver_search_set(s, s->box_square_scratch, p->player);
    solver_search_key(s);
    assert_false(solver_corral_deadlock(&f->checks, s, p->player + f->board.delta[d]));
    /* and no corral anywhere, alone or with the boxes touching its barrier, and no stuck
     * boxes */
    assert_false(solver_corral_deadlock_anywhere(&f->checks, s));
    assert_int_equal(stuck_check(f, NULL, NULL), 0);
    check->pushes++;
}

/* Every position along a real solution can be solved: after each push of the reference
 * solutions of XSokoban 1-30 (cavepacker-data's .sol files), no corral is proven lost,
 * though many are looked at and searched. */
static void test_no_corral_along_a_solution_is_lost(void **state)
{
    (void)state;
    const char *maps = "/usr/share/games/cavepacker/maps";
    char path[1024];
    solution_check check = {0};
    uint64_t searched = 0;
    for (int number = 1; number <= 30; number++) {
        fixture f;
        level_error error;
        snprintf(path, sizeof path, "%s/xsokoban%04d.sok", maps, number);
        if (!collection_load(path, &f.collection, &error)) skip(); /* cavepacker-data missing */
        fixture_pick(&f, 1);
        check.fixture = &f;
        assert_true(reference_solution_play(number, &f.board, &f.start, check_corrals, &check));
        searched += f.checks.counters.searched;
        fixture_free(&f);
    }
    assert_true(check.pushes > 5000);
    assert_true(searched > 100);
}

/* ---- stuck boxes ---------------------------------------------------------------------- */

/* Over random walks of pushes on Microban I 1-80, every position the stuck boxes prove lost
 * is lost (the solver without the proof finds no solution), and its pattern is a part of
 * it: a box on each of its squares, the player in its region; a store that learned it
 * finds it there. No square is left marked frozen after a check (a mark left over would
 * close an axis of the next position's boxes). */
static void test_every_stuck_set_proven_lost_is_unsolvable(void **state)
{
    (void)state;
    int proven = 0, checked = 0, beyond = 0;
    unsigned seed = 2468;
    for (int number = 1; number <= 80; number++) {
        fixture f;
        fixture_microban(&f, number, 0);
        solver_search *s = &f.search;
        ida_domain domain;
        solver_search_domain(s, &domain);
        int pattern[64];
        uint64_t region[64];
        assert_true(s->box_count <= 64 && f.board.size <= 64 * 64);
        for (int walk = 0; walk < 20; walk++) {
            search_walk_start(&f.search, &f.board, &f.start);
            for (int step = 0; step < 16 && search_walk_push(s, &domain, &seed); step++) {
                checked++;
                solver_search_key(s);
                int count = stuck_check(&f, pattern, region);
                /* nothing stays marked frozen for the next check */
                for (int q = 0; q < f.board.size; q++)
                    assert_int_equal(f.checks.frozen_marks[q], 0);
                if (count == 0) continue;
                assert_lost(s);
                assert_true(count <= s->box_count);
                for (int i = 0; i < count; i++) assert_true(s->boxes[pattern[i]]);
                assert_true(region[s->player / 64] >> (s->player % 64) & 1);
                solver_stuck_patterns patterns;
                assert_true(solver_stuck_patterns_init(&patterns, &f.board));
                solver_stuck_patterns_add(&patterns, pattern, count, region);
                assert_true(solver_stuck_patterns_match(&patterns, s->boxes, s->box_square,
                                                        s->box_count, s->player));
                solver_stuck_patterns_free(&patterns);
                beyond += !solver_corral_deadlock_anywhere(&f.checks, s);
                proven++;
                break;
            }
        }
        fixture_free(&f);
    }
    assert_true(checked > 1000);
    assert_true(proven >= 20);
    /* and some of them no corral proves lost */
    assert_true(beyond >= 5);
}

/* A position of the walks above (Microban I): the top box and the one in the middle row
 * can each only move sideways (walls above or below them). With the box left of the
 * player, free along both axes, taken away, those two alone can never both stand on goals
 * (the solver agrees the position is lost), though the player walks everywhere (no
 * corral) and no box is frozen. They are the pattern. */
static const char *stuck_pair = "  ####    \n"
                                " ##  #####\n"
                                " #       #\n"
                                " # $ #   #\n"
                                "#### #####\n"
                                "#  # $ #  \n"
                                "# $@   #  \n"
                                "# ..#  #  \n"
                                "#  .####  \n"
                                "#  ##     \n"
                                "####      \n";

static void test_stuck_boxes_no_corral_proves(void **state)
{
    (void)state;
    fixture f;
    fixture_from_text(&f, stuck_pair);
    solver_search *s = &f.search;
    assert_false(solver_corral_deadlock_anywhere(&f.checks, s));
    int pattern[3];
    uint64_t region[4];
    assert_true(f.board.size <= 4 * 64);
    assert_int_equal(stuck_check(&f, pattern, region), 2);
    int a = square_at(&f.board, 3, 3), b = square_at(&f.board, 5, 5);
    assert_true((pattern[0] == a && pattern[1] == b) || (pattern[0] == b && pattern[1] == a));
    assert_true(region[s->player / 64] >> (s->player % 64) & 1);
    assert_int_equal(solve_without_corral_proofs(stuck_pair, SOLVER_OPTIMAL), SOLVER_UNSOLVABLE);
    /* asked again, the table answers; without a pattern asked for, no cutting down */
    uint64_t searched = f.checks.counters.searched;
    assert_int_equal(stuck_check(&f, NULL, NULL), 2);
    assert_int_equal(f.checks.counters.searched, searched);
    fixture_free(&f);
}

/* A pattern holds a position only with a box on each of its squares and the player in its
 * region; other boxes may stand anywhere. */
static void test_pattern_needs_all_its_boxes_and_the_region(void **state)
{
    (void)state;
    fixture f;
    fixture_from_text(&f, stuck_pair);
    solver_search *s = &f.search;
    solver_stuck_patterns patterns;
    assert_true(solver_stuck_patterns_init(&patterns, &f.board));
    int a = square_at(&f.board, 3, 3), b = square_at(&f.board, 5, 5);
    int squares[2] = {a, b};
    uint64_t region[4] = {0};
    assert_true(f.board.size <= 4 * 64);
    region[s->player / 64] |= (uint64_t)1 << (s->player % 64);
    solver_stuck_patterns_add(&patterns, squares, 2, region);
    assert_true(
        solver_stuck_patterns_match(&patterns, s->boxes, s->box_square, s->box_count, s->player));
    /* the player elsewhere */
    int other = square_at(&f.board, 4, 2);
    assert_false(
        solver_stuck_patterns_match(&patterns, s->boxes, s->box_square, s->box_count, other));
    /* a box of the pattern gone: the position on the search's squares, one box moved */
    uint8_t boxes[256] = {0};
    int moved[3];
    for (int i = 0; i < s->box_count; i++) moved[i] = s->box_square[i];
    for (int i = 0; i < s->box_count; i++) {
        if (moved[i] == b) moved[i] = square_at(&f.board, 6, 2);
        boxes[moved[i]] = 1;
    }
    assert_false(solver_stuck_patterns_match(&patterns, boxes, moved, s->box_count, s->player));
    assert_int_equal(patterns.matched, 1);
    solver_stuck_patterns_free(&patterns);
    fixture_free(&f);
}

/* The searches of a board share one store of patterns: one adds while another matches, with
 * no lock on the matching side (ThreadSanitizer runs this), and a pattern added is seen. */
typedef struct pattern_writer {
    solver_stuck_patterns *patterns;
    const board *board;
    int player;
} pattern_writer;

static void *add_patterns(void *argument)
{
    pattern_writer *w = argument;
    uint64_t region[16] = {0};
    assert_true(w->patterns->words <= 16);
    region[w->player / 64] |= (uint64_t)1 << (w->player % 64);
    /* more than the store keeps, each of one box, over every floor square in turn */
    for (int i = 0, added = 0; added < SOLVER_STUCK_PATTERNS + 100; i++) {
        int square = i % w->board->size;
        if (!board_is_inside(w->board, square) || board_is_wall(w->board, square)) continue;
        solver_stuck_patterns_add(w->patterns, &square, 1, region);
        added++;
    }
    return NULL;
}

static void test_patterns_are_matched_while_another_search_adds_them(void **state)
{
    (void)state;
    fixture f;
    fixture_from_text(&f, stuck_pair);
    solver_search *s = &f.search;
    solver_stuck_patterns patterns;
    assert_true(solver_stuck_patterns_init(&patterns, &f.board));
    pattern_writer writer = {.patterns = &patterns, .board = &f.board, .player = s->player};
    pthread_t thread;
    assert_int_equal(pthread_create(&thread, NULL, add_patterns, &writer), 0);
    /* the start's boxes: lost as soon as a pattern lands on one of their squares */
    while (
        !solver_stuck_patterns_match(&patterns, s->boxes, s->box_square, s->box_count, s->player))
        ;
    pthread_join(thread, NULL);
    assert_int_equal(patterns.count, SOLVER_STUCK_PATTERNS); /* the rest were dropped */
    for (int b = 0; b < s->box_count; b++) {
        uint8_t one[256] = {0};
        assert_true(f.board.size <= 256);
        one[s->box_square[b]] = 1;
        assert_true(solver_stuck_patterns_match(&patterns, one, &s->box_square[b], 1, s->player));
    }
    /* the player outside every pattern's region */
    assert_false(solver_stuck_patterns_match(&patterns, s->boxes, s->box_square, s->box_count,
                                             square_at(&f.board, 4, 2)));
    solver_stuck_patterns_free(&patterns);
    fixture_free(&f);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_corral_of_barrier_boxes_that_can_never_clear_is_lost),
        cmocka_unit_test(test_box_touching_the_barrier_is_searched_with_it),
        cmocka_unit_test(test_one_box_touching_the_barrier_is_searched_when_all_are_too_many),
        cmocka_unit_test(test_start_lost_by_a_corral_is_unsolvable_at_once),
        cmocka_unit_test(test_box_next_to_no_corral_is_not_looked_at),
        cmocka_unit_test(test_check_of_every_corral_gives_up_when_told_to_stop),
        cmocka_unit_test(test_corral_of_boxes_on_goals_is_left_alone),
        cmocka_unit_test(test_answer_is_learned_and_shared),
        cmocka_unit_test(test_a_copy_writes_the_table_and_reads_only_itself),
        cmocka_unit_test(test_every_corral_proven_lost_is_unsolvable),
        cmocka_unit_test(test_pairs_prove_corrals_the_search_alone_does_not),
        cmocka_unit_test(test_no_corral_along_a_solution_is_lost),
        cmocka_unit_test(test_rows_and_squares_agree),
        cmocka_unit_test(test_corral_asked_often_is_searched_again),
        cmocka_unit_test(test_every_stuck_set_proven_lost_is_unsolvable),
        cmocka_unit_test(test_stuck_boxes_no_corral_proves),
        cmocka_unit_test(test_pattern_needs_all_its_boxes_and_the_region),
        cmocka_unit_test(test_patterns_are_matched_while_another_search_adds_them),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
