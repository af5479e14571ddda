/* level_fixture.c - test fixture for the rules' tests (level_fixture.h). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdlib.h>
#include <string.h>

#include "level_fixture.h"

void level_fixture_open(level_fixture *f, const char *text)
{
    level_error error;
    if (!collection_parse(text, strlen(text), "test.xsb", &f->levels, &error))
        fail_msg("%s", error.message);
    assert_true(board_from_level(&f->levels.levels[0], &f->board, &f->start));
}

void level_fixture_close(level_fixture *f)
{
    position_free(&f->start);
    board_free(&f->board);
    collection_free(&f->levels);
}

int level_fixture_square(const board *b, int x, int y)
{
    return y * b->width + x;
}

void level_fixture_assert_position(const board *b, const position *p, const char *expected)
{
    char *text = position_to_text(b, p);
    assert_non_null(text);
    assert_string_equal(text, expected);
    free(text);
}

void level_fixture_open_game(game *g, collection *levels, const char *text)
{
    level_error error;
    if (!collection_parse(text, strlen(text), "test.xsb", levels, &error))
        fail_msg("%s", error.message);
    assert_true(game_init(g, &levels->levels[0]));
}

void level_fixture_close_game(game *g, collection *levels)
{
    game_free(g);
    collection_free(levels);
}
