/* test_pages.c - the solver's big arrays (solver_pages.h): mapped memory comes zeroed and
 * can be written end to end, small and huge-page sized alike; unmapping NULL is harmless. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "solver/solver_pages.h"

static void check_mapping(size_t bytes)
{
    uint8_t *pages = solver_pages_map(bytes);
    assert_non_null(pages);
    for (size_t i = 0; i < bytes; i += 4096) assert_int_equal(pages[i], 0);
    assert_int_equal(pages[bytes - 1], 0);
    pages[0] = 1;
    pages[bytes - 1] = 2;
    assert_int_equal(pages[0] + pages[bytes - 1], 3);
    solver_pages_unmap(pages, bytes);
}

static void test_mapped_memory_is_zero_and_writable(void **state)
{
    (void)state;
    check_mapping(100);             /* less than a page */
    check_mapping((size_t)4 << 20); /* huge pages where there are */
    check_mapping(((size_t)2 << 20) + 1);
}

static void test_unmapping_null_is_harmless(void **state)
{
    (void)state;
    solver_pages_unmap(NULL, 1 << 20);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_mapped_memory_is_zero_and_writable),
        cmocka_unit_test(test_unmapping_null_is_harmless),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
