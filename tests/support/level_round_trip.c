/* level_round_trip.c - the round-trip assertion of the level tests. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "level_round_trip.h"

void assert_level_round_trips(const level *original, const char *what)
{
    char *text = level_to_text(original);
    assert_non_null(text);
    collection again;
    level_error error;
    if (!collection_parse(text, strlen(text), what, &again, &error))
        fail_msg("%s (level %d, %s) written as\n%s\ndoes not read back: %s", what, original->number,
                 original->title, text, error.message);
    assert_int_equal(again.count, 1);
    const level *copy = &again.levels[0];
    assert_int_equal(copy->width, original->width);
    assert_int_equal(copy->height, original->height);
    assert_memory_equal(copy->squares, original->squares,
                        (size_t)original->width * (size_t)original->height);
    assert_string_equal(copy->title, original->title);
    assert_string_equal(copy->author, original->author);
    assert_string_equal(copy->comment, original->comment);
    collection_free(&again);
    free(text);
}
