/* test_list.c - the navigation keys every list screen shares (src/tui/list.c). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>

#include <cmocka.h>
#include <curses.h>

#include "tui/list.h"

static int after(int key, int selected, int count, int page)
{
    list_navigate(key, &selected, count, page);
    return selected;
}

static void test_up_and_down_move_by_one_and_stop_at_the_ends(void **state)
{
    (void)state;
    assert_int_equal(after(KEY_DOWN, 3, 10, 4), 4);
    assert_int_equal(after('j', 3, 10, 4), 4);
    assert_int_equal(after('s', 3, 10, 4), 4);
    assert_int_equal(after(KEY_UP, 3, 10, 4), 2);
    assert_int_equal(after('k', 3, 10, 4), 2);
    assert_int_equal(after('w', 3, 10, 4), 2);
    assert_int_equal(after(KEY_UP, 0, 10, 4), 0);
    assert_int_equal(after(KEY_DOWN, 9, 10, 4), 9);
}

static void test_pages_home_and_end(void **state)
{
    (void)state;
    assert_int_equal(after(KEY_NPAGE, 3, 10, 4), 7);
    assert_int_equal(after(' ', 7, 10, 4), 9);
    assert_int_equal(after(KEY_PPAGE, 7, 10, 4), 3);
    assert_int_equal(after(KEY_PPAGE, 2, 10, 4), 0);
    assert_int_equal(after('G', 2, 10, 4), 9);
    assert_int_equal(after(KEY_END, 2, 10, 4), 9);
    assert_int_equal(after('g', 8, 10, 4), 0);
    assert_int_equal(after(KEY_HOME, 8, 10, 4), 0);
}

static void test_other_keys_are_not_navigation(void **state)
{
    (void)state;
    int selected = 5;
    assert_false(list_navigate('q', &selected, 10, 4));
    assert_false(list_navigate('\n', &selected, 10, 4));
    assert_false(list_navigate('d', &selected, 10, 4));
    assert_int_equal(selected, 5);
    assert_true(list_navigate('j', &selected, 10, 4));
}

static void test_an_empty_list_keeps_the_selection_at_zero(void **state)
{
    (void)state;
    assert_int_equal(after(KEY_DOWN, 0, 0, 4), 0);
    assert_int_equal(after('G', 0, 0, 4), 0);
}

static void test_scrolling_keeps_the_selection_on_the_rows_shown(void **state)
{
    (void)state;
    int top = 0;
    list_scroll(7, &top, 5, 10); /* rows 0-4 shown: 7 is below, the view moves down to 3-7 */
    assert_int_equal(top, 3);
    list_scroll(5, &top, 5, 10); /* shown already */
    assert_int_equal(top, 3);
    list_scroll(1, &top, 5, 10); /* above: it becomes the first row */
    assert_int_equal(top, 1);
}

/* A terminal grown (or a list shortened) shows the rows above rather than blank rows below:
 * the last of 10 selected on 3 rows (7-9), then 8 rows: 2-9, not 7-9 and five blank. */
static void test_rows_to_spare_show_the_rows_above(void **state)
{
    (void)state;
    int top = 0;
    list_scroll(9, &top, 3, 10);
    assert_int_equal(top, 7);
    list_scroll(9, &top, 8, 10);
    assert_int_equal(top, 2);
    list_scroll(9, &top, 20, 10); /* the whole list */
    assert_int_equal(top, 0);
    top = 4;
    list_scroll(0, &top, 5, 1); /* one row left */
    assert_int_equal(top, 0);
}

/* A list drawn from screen row 3, index 5 there, 4 rows shown, 7 in all: rows 3 and 4 hold
 * 5 and 6, rows 5 and 6 are blank, the rows above 3 the heads. */
static void test_a_click_finds_the_row_drawn_there(void **state)
{
    (void)state;
    assert_int_equal(list_row_at(3, 3, 5, 4, 7), 5);
    assert_int_equal(list_row_at(4, 3, 5, 4, 7), 6);
    assert_int_equal(list_row_at(5, 3, 5, 4, 7), -1);  /* under the last */
    assert_int_equal(list_row_at(2, 3, 5, 4, 7), -1);  /* the heads */
    assert_int_equal(list_row_at(7, 3, 0, 4, 10), -1); /* the footer, under the rows shown */
    assert_int_equal(list_row_at(6, 3, 0, 4, 10), 3);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_up_and_down_move_by_one_and_stop_at_the_ends),
        cmocka_unit_test(test_pages_home_and_end),
        cmocka_unit_test(test_other_keys_are_not_navigation),
        cmocka_unit_test(test_an_empty_list_keeps_the_selection_at_zero),
        cmocka_unit_test(test_scrolling_keeps_the_selection_on_the_rows_shown),
        cmocka_unit_test(test_rows_to_spare_show_the_rows_above),
        cmocka_unit_test(test_a_click_finds_the_row_drawn_there),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
