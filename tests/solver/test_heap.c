/* test_heap.c - the solver's binary min-heap of (priority, index) entries (solver_heap.h). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <cmocka.h>

#include "solver/solver_heap.h"

static uint64_t entry(uint32_t priority, uint32_t index)
{
    return (uint64_t)priority << 32 | index;
}

/* Entries come out lowest priority first, and of one priority lowest index first, whatever
 * the order they went in. */
static void test_entries_come_out_by_priority_then_index(void **state)
{
    (void)state;
    solver_heap h = {0};
    const uint64_t in[] = {entry(5, 1), entry(2, 9), entry(5, 0), entry(0, 4),
                           entry(2, 3), entry(9, 2), entry(2, 7), entry(0, 8)};
    const uint64_t out[] = {entry(0, 4), entry(0, 8), entry(2, 3), entry(2, 7),
                            entry(2, 9), entry(5, 0), entry(5, 1), entry(9, 2)};
    for (size_t i = 0; i < sizeof in / sizeof *in; i++) assert_true(solver_heap_push(&h, in[i]));
    assert_int_equal(h.count, 8);
    for (size_t i = 0; i < sizeof out / sizeof *out; i++)
        assert_int_equal(solver_heap_pop(&h), out[i]);
    assert_int_equal(h.count, 0);
    free(h.items);
}

/* Pushes and pops mixed, past the first capacity (it grows by doubling): each pop is the
 * least of what is on the heap, as a scan of a plain list of the same entries finds it. */
static void test_each_pop_is_the_least_on_the_heap_as_it_grows(void **state)
{
    (void)state;
    enum { MOST = 1000 };
    solver_heap h = {0};
    uint64_t *kept = malloc(MOST * sizeof *kept);
    assert_non_null(kept);
    int count = 0;
    uint32_t seed = 12345;
    for (int step = 0; step < 3 * MOST; step++) {
        seed = seed * 1103515245u + 12345u;
        if (count < MOST && (count == 0 || (seed >> 16) % 3 != 0)) {
            uint64_t e = entry((seed >> 8) % 97, (uint32_t)step);
            assert_true(solver_heap_push(&h, e));
            kept[count++] = e;
        } else {
            int least = 0;
            for (int i = 1; i < count; i++)
                if (kept[i] < kept[least]) least = i;
            assert_int_equal(solver_heap_pop(&h), kept[least]);
            kept[least] = kept[--count];
        }
        assert_int_equal(h.count, count);
    }
    assert_true(h.capacity >= 64);
    free(kept);
    free(h.items);
}

/* A heap set up with its room up front (as the pair searches' is) does not move it while
 * it fits. */
static void test_room_set_up_front_is_kept(void **state)
{
    (void)state;
    uint64_t *room = malloc(16 * sizeof *room);
    assert_non_null(room);
    solver_heap h = {.items = room, .capacity = 16};
    for (uint32_t i = 16; i > 0; i--) assert_true(solver_heap_push(&h, entry(i, i)));
    assert_ptr_equal(h.items, room);
    assert_int_equal(h.capacity, 16);
    assert_int_equal(solver_heap_pop(&h), entry(1, 1));
    free(h.items);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_entries_come_out_by_priority_then_index),
        cmocka_unit_test(test_each_pop_is_the_least_on_the_heap_as_it_grows),
        cmocka_unit_test(test_room_set_up_front_is_kept),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
