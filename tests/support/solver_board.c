/* solver_board.c - test fixture: a level as the solver sees it (solver_board.h). */
#include "solver_board.h"

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h>

void solver_board_pick(solver_board *f, int number)
{
    assert_true(number >= 1 && number <= f->collection.count);
    assert_null(f->collection.levels[number - 1].error); /* a level that can be played */
    assert_true(board_from_level(&f->collection.levels[number - 1], &f->board, &f->start));
    assert_true(solver_distances_init(&f->distances, &f->board));
}

void solver_board_from_text(solver_board *f, const char *text)
{
    memset(f, 0, sizeof *f);
    level_error error;
    assert_true(collection_parse(text, strlen(text), "inline", &f->collection, &error));
    solver_board_pick(f, 1);
}

bool solver_board_load(solver_board *f, const char *path)
{
    memset(f, 0, sizeof *f);
    level_error error;
    if (!collection_load(path, &f->collection, &error)) return false;
    solver_board_pick(f, 1);
    return true;
}

bool solver_board_load_map(solver_board *f, const char *format, int number)
{
    char name[256], path[512];
    snprintf(name, sizeof name, format, number);
    snprintf(path, sizeof path, "/usr/share/games/cavepacker/maps/%s", name);
    return solver_board_load(f, path);
}

void solver_board_free(solver_board *f)
{
    solver_distances_free(&f->distances);
    board_free(&f->board);
    position_free(&f->start);
    collection_free(&f->collection);
}

int solver_board_square(const solver_board *f, int x, int y)
{
    return y * f->board.width + x;
}

int solver_board_goal_index(const solver_board *f, int square)
{
    for (int g = 0; g < f->board.goal_count; g++)
        if (f->board.goals[g] == square) return g;
    return -1;
}
