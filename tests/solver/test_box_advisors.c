/* test_box_advisors.c - FESS's advisors over whole box moves (solver_box_advisors.h): the joiner
 * takes the box that shuts two rooms apart out of their corridor by the fewest pushes, and
 * names nothing when the floor is one region; the opener takes the box nearest the targets
 * to fill as far from them as it can go; the regions after a move are counted the same over
 * rows of bits and square by square, and the search's floor is left as it was; along random
 * walks on XSokoban levels both advisors name the move a plain definition names (every box,
 * every square it gets to, its regions after by a flood). Levels drawn inline. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "level/collection.h"
#include "solver/solver_box_advisors.h"
#include "solver/solver_domain.h"
#include "solver/solver_features.h"
#include "search_walk.h"
#include "solver_board.h"

typedef struct fixture {
    solver_board level;
    solver_search search;
    solver_features features;
    solver_box_advisors moves;
} fixture;

static void fixture_from_text(fixture *f, const char *text)
{
    solver_board_from_text(&f->level, text);
    solver_options options = {.mode = SOLVER_FAST};
    assert_true(solver_search_init(&f->search, &f->level.board, &f->level.start,
                                   &f->level.distances, NULL, NULL, NULL, &options));
    assert_true(solver_features_init(&f->features, &f->search, NULL));
    assert_true(solver_box_advisors_init(&f->moves, &f->level.board, &f->features));
    solver_search_key(&f->search); /* the player's reach */
}

static void fixture_free(fixture *f)
{
    solver_box_advisors_free(&f->moves);
    solver_features_free(&f->features);
    solver_search_free(&f->search);
    solver_board_free(&f->level);
}

static int at(const fixture *f, int x, int y)
{
    return solver_board_square(&f->level, x, y);
}

/* Asserts that the advice's pushes, made one by one, take its box from `from` to `to`. */
static void assert_pushes(const fixture *f, const solver_box_advice *a, int from, int to)
{
    const board *b = &f->level.board;
    assert_int_equal(a->from, from);
    assert_int_equal(a->to, to);
    int box = from;
    for (int k = 0; k < a->count; k++) {
        assert_int_equal(solver_move_square(a->path[k]), box);
        box += b->delta[solver_move_direction(a->path[k])];
    }
    assert_int_equal(box, to);
}

/* Two rooms joined by a corridor two squares long, the box in it: the first push leaves it
 * in the corridor, the second in the way out of it, both still shutting the rooms apart;
 * the third frees the way. */
static const char two_rooms[] = "##########\n"
                                "#   ##   #\n"
                                "# @ $   .#\n"
                                "#   ##   #\n"
                                "##########\n";

static void test_the_joiner_takes_the_box_out_of_the_corridor(void **state)
{
    (void)state;
    fixture f;
    fixture_from_text(&f, two_rooms);
    assert_int_equal(solver_features_regions(&f.features, &f.search), 2);
    solver_box_advisors_advise(&f.moves, &f.search, 2, true, false);
    const solver_box_advice *joiner = &f.moves.joiner;
    assert_int_equal(joiner->count, 3);
    assert_pushes(&f, joiner, at(&f, 4, 2), at(&f, 7, 2));
    assert_int_equal(f.moves.opener.count, 0); /* not asked */
    fixture_free(&f);
}

static void test_the_joiner_names_nothing_on_one_region(void **state)
{
    (void)state;
    fixture f;
    fixture_from_text(&f, "#######\n"
                          "#.$   #\n"
                          "#     #\n"
                          "#    @#\n"
                          "#######\n");
    assert_int_equal(solver_features_regions(&f.features, &f.search), 1);
    solver_box_advisors_advise(&f.moves, &f.search, 1, true, false);
    assert_int_equal(f.moves.joiner.count, 0);
    fixture_free(&f);
}

/* The box next to the goal can go only along the top wall (the corner is dead): the opener
 * takes it to the farthest square it can, two pushes away. */
static void test_the_opener_takes_the_nearest_box_farthest(void **state)
{
    (void)state;
    fixture f;
    fixture_from_text(&f, "#######\n"
                          "#.$   #\n"
                          "#     #\n"
                          "#    @#\n"
                          "#######\n");
    solver_box_advisors_advise(&f.moves, &f.search, 1, true, true);
    const solver_box_advice *opener = &f.moves.opener;
    assert_int_equal(opener->count, 2);
    assert_pushes(&f, opener, at(&f, 2, 1), at(&f, 4, 1));
    fixture_free(&f);
}

/* The opener takes no box nearer the targets: here the box can only go towards the goal. */
static void test_the_opener_moves_no_box_towards_the_targets(void **state)
{
    (void)state;
    fixture f;
    fixture_from_text(&f, "########\n"
                          "#.  $ @#\n"
                          "########\n");
    solver_box_advisors_advise(&f.moves, &f.search, 1, true, true);
    assert_int_equal(f.moves.opener.count, 0);
    fixture_free(&f);
}

/* The regions after each move of the corridor's box, over rows and by squares, and the
 * search's floor and regions as they were after every count. */
static void test_regions_after_a_move_both_ways(void **state)
{
    (void)state;
    fixture f;
    fixture_from_text(&f, two_rooms);
    solver_search *s = &f.search;
    int from = at(&f, 4, 2);
    const int expected[][3] = {{5, 2, 2}, {6, 2, 2}, {7, 2, 1}, {1, 2, 1}, {2, 2, 1}};
    for (size_t k = 0; k < sizeof expected / sizeof expected[0]; k++) {
        int to = at(&f, expected[k][0], expected[k][1]);
        s->use_rows = true;
        assert_int_equal(solver_box_advisors_regions_after(&f.moves, s, from, to), expected[k][2]);
        s->use_rows = false;
        assert_int_equal(solver_box_advisors_regions_after(&f.moves, s, from, to), expected[k][2]);
        s->use_rows = true;
        assert_true(s->blocked[from]);
        assert_false(s->blocked[to]);
        assert_int_equal(solver_features_regions(&f.features, s), 2);
    }
    fixture_free(&f);
}

/* The plain definition of both advisors, for a check: every box the packing feature does
 * not count, every square it gets to (the fewest pushes there first), the regions after by
 * a flood; the joiner's move leaves the fewest regions, fewer than now (ties to the first
 * box, then the fewest pushes); the opener's takes the box nearest (walking, walls only)
 * to the targets to fill as far from them as it can go without more regions (ties to the
 * first box, then the fewest pushes). */
typedef struct plain {
    int joiner_from, joiner_to, opener_from, opener_to;
} plain;

static plain plain_advice(solver_box_advisors *m, solver_search *s, int regions)
{
    const board *b = s->board;
    const solver_features *f = m->features;
    int current = solver_features_current(f, b, s->boxes);
    int walk[b->size], queue[b->size], head = 0, tail = 0;
    for (int square = 0; square < b->size; square++) walk[square] = SOLVER_NO_PATH;
    for (int t = 0; current >= 0 && t < f->target_count; t++) {
        int square = solver_features_square(f, b, t);
        if (f->layer[t] != current || !solver_features_needed(f, b, s->boxes, t, current) ||
            walk[square] == 0)
            continue;
        walk[square] = 0;
        queue[tail++] = square;
    }
    while (head < tail) {
        int square = queue[head++];
        for (int d = 0; d < DIRECTION_COUNT; d++) {
            int next = square + b->delta[d];
            if (!board_is_inside(b, next) || walk[next] != SOLVER_NO_PATH) continue;
            walk[next] = walk[square] + 1;
            queue[tail++] = next;
        }
    }
    plain p = {-1, -1, -1, -1};
    int fewest = regions, nearest = SOLVER_NO_PATH, farthest = -1;
    for (int i = 0; i < s->box_count; i++) {
        int from = s->box_square[i];
        int t = m->target_of[from];
        if (t >= 0 && current >= 0 && f->layer[t] >= current) continue;
        int states = solver_box_search_all(&m->box, s->distances, s->boxes, from, s->player);
        if (states <= 1) continue; /* the box cannot move (0: no side of it is reached) */
        bool taken[b->size];
        for (int square = 0; square < b->size; square++) taken[square] = square == from;
        int to_of[states];
        for (int k = 1; k < states; k++) to_of[k] = m->box.queue[k] / 4;
        for (int k = 1; k < states; k++) {
            int to = to_of[k];
            if (taken[to]) continue;
            taken[to] = true;
            int after = solver_box_advisors_regions_after(m, s, from, to);
            if (regions > 1 && after < fewest) {
                fewest = after;
                p.joiner_from = from;
                p.joiner_to = to;
            }
            if (walk[from] == SOLVER_NO_PATH || after > regions || walk[to] < walk[from]) continue;
            if (walk[from] < nearest || (walk[from] == nearest && walk[to] > farthest)) {
                nearest = walk[from];
                farthest = walk[to];
                p.opener_from = from;
                p.opener_to = to;
            }
        }
    }
    return p;
}

/* Along random walks of pushes on XSokoban 1 to 30, both advisors name the move of the
 * plain definition (which boxes they search, and in what order, is theirs). */
static void test_both_advisors_as_the_plain_definition(void **state)
{
    (void)state;
    collection c;
    level_error error;
    assert_true(collection_load(TEST_LEVELS_DIR "/xsokoban.xsb", &c, &error));
    unsigned seed = 43;
    int joins = 0, opens = 0;
    for (int number = 1; number <= 30; number++) {
        board b;
        position start;
        solver_distances distances;
        assert_true(board_from_level(&c.levels[number - 1], &b, &start));
        assert_true(solver_distances_init(&distances, &b));
        solver_options options = {.mode = SOLVER_FAST,
                                  .disable = SOLVER_NO_CORRAL_DEADLOCKS | SOLVER_NO_EARLY_ORDER};
        solver_search s;
        solver_features features;
        solver_box_advisors m;
        assert_true(solver_search_init(&s, &b, &start, &distances, NULL, NULL, NULL, &options));
        assert_true(solver_features_init(&features, &s, NULL));
        assert_true(solver_box_advisors_init(&m, &b, &features));
        ida_domain domain;
        solver_search_domain(&s, &domain);
        for (int walk = 0; walk < 4; walk++) {
            search_walk_start(&s, &b, &start);
            for (int step = 0; step < 40 && search_walk_push(&s, &domain, &seed); step++) {
                solver_search_key(&s);
                int regions = solver_features_regions(&features, &s);
                plain p = plain_advice(&m, &s, regions);
                solver_box_advisors_advise(&m, &s, regions, true, true);
                bool joiner = m.joiner.count > 0, opener = m.opener.count > 0;
                assert_int_equal(joiner ? m.joiner.from : -1, p.joiner_from);
                assert_int_equal(joiner ? m.joiner.to : -1, p.joiner_to);
                assert_int_equal(opener ? m.opener.from : -1, p.opener_from);
                assert_int_equal(opener ? m.opener.to : -1, p.opener_to);
                joins += joiner;
                opens += opener;
            }
        }
        solver_box_advisors_free(&m);
        solver_features_free(&features);
        solver_search_free(&s);
        solver_distances_free(&distances);
        board_free(&b);
        position_free(&start);
    }
    collection_free(&c);
    print_message("joiner %d, opener %d\n", joins, opens);
    assert_true(joins > 100 && opens > 100); /* both advisors had moves to name */
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_the_joiner_takes_the_box_out_of_the_corridor),
        cmocka_unit_test(test_the_joiner_names_nothing_on_one_region),
        cmocka_unit_test(test_the_opener_takes_the_nearest_box_farthest),
        cmocka_unit_test(test_the_opener_moves_no_box_towards_the_targets),
        cmocka_unit_test(test_regions_after_a_move_both_ways),
        cmocka_unit_test(test_both_advisors_as_the_plain_definition),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
