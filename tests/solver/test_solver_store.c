/* test_solver_store.c - the fast mode's store of seen states (solver_store.h): every state
 * added is found again while the hash set grows, and a full pool says so; and its open
 * lists (solver_open.h): cells in turn, the best of each, and a second list on every other
 * turn. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>

#include <cmocka.h>

#include "solver/solver_open.h"
#include "solver/solver_store.h"

/* SplitMix64: distinct, well-spread keys. */
static uint64_t next_key(uint64_t *state)
{
    uint64_t z = (*state += 0x9e3779b97f4a7c15u);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9u;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebu;
    return z ^ (z >> 31);
}

static void test_states_are_found_again_as_the_hash_set_grows(void **state)
{
    (void)state;
    enum { BOXES = 3, STATES = 200000 };
    solver_store store;
    assert_true(solver_store_init(&store, BOXES, 64u << 20, 16));
    assert_true(store.max_nodes >= STATES);
    size_t first_mask = store.slot_mask;
    uint64_t seed = 1;
    int boxes[BOXES] = {0};
    for (int i = 0; i < STATES; i++) {
        uint64_t key = next_key(&seed);
        assert_false(solver_store_contains(&store, key));
        boxes[0] = i % 1000;
        assert_int_equal(solver_store_add(&store, i - 1, 0, i, 7, key, boxes), i);
    }
    assert_true(store.slot_mask > first_mask);
    assert_true(store.slot_mask <= store.max_slot_mask);
    seed = 1;
    for (int i = 0; i < STATES; i++) {
        uint64_t key = next_key(&seed);
        assert_int_equal(*solver_store_slot(&store, key) - 1, i);
        assert_int_equal(store.nodes[i].key, key);
        assert_int_equal(solver_store_boxes(&store, i)[0], i % 1000);
    }
    assert_false(solver_store_contains(&store, next_key(&seed)));
    solver_store_free(&store);
}

static void test_a_full_pool_adds_no_node(void **state)
{
    (void)state;
    solver_store store;
    assert_true(solver_store_init(&store, 2, 64u << 10, 16));
    uint64_t seed = 2;
    int boxes[2] = {1, 2};
    for (int i = 0; i < store.max_nodes; i++)
        assert_int_equal(solver_store_add(&store, -1, 0, 0, 0, next_key(&seed), boxes), i);
    assert_int_equal(solver_store_add(&store, -1, 0, 0, 0, next_key(&seed), boxes), SOLVER_NO_NODE);
    solver_store_free(&store);
}

/* One list: the cells in turn, the best (lowest priority) of each; empty cells are passed. */
static void test_open_cells_are_taken_in_turn_best_first(void **state)
{
    (void)state;
    solver_open open;
    assert_true(solver_open_init(&open, 3, false));
    assert_true(solver_open_push(&open, 0, 9, 10));
    assert_true(solver_open_push(&open, 0, 2, 11));
    assert_true(solver_open_push(&open, 2, 5, 20));
    int order[] = {11, 20, 10};
    for (int k = 0; k < 3; k++) assert_int_equal(solver_open_pop(&open), order[k]);
    assert_int_equal(solver_open_pop(&open), -1);
    solver_open_free(&open);
}

/* Two lists: the cells first, then the second list, by turns; when one runs dry the other
 * goes on alone. A state on both comes out of each (the caller passes over the second). */
static void test_open_second_list_takes_every_other_turn(void **state)
{
    (void)state;
    solver_open open;
    assert_true(solver_open_init(&open, 2, true));
    assert_true(solver_open_push(&open, 0, 1, 1));
    assert_true(solver_open_push(&open, 1, 1, 2));
    assert_true(solver_open_push_second(&open, 7, 1));
    assert_true(solver_open_push_second(&open, 3, 3));
    assert_true(solver_open_push_second(&open, 5, 4));
    int order[] = {1, 3, 2, 4, 1};
    for (int k = 0; k < 5; k++) assert_int_equal(solver_open_pop(&open), order[k]);
    assert_int_equal(open.count, 0);
    assert_int_equal(solver_open_pop(&open), -1);
    solver_open_free(&open);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_states_are_found_again_as_the_hash_set_grows),
        cmocka_unit_test(test_a_full_pool_adds_no_node),
        cmocka_unit_test(test_open_cells_are_taken_in_turn_best_first),
        cmocka_unit_test(test_open_second_list_takes_every_other_turn),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
