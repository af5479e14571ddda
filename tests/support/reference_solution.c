/* reference_solution.c - cavepacker-data's XSokoban reference solutions, played. */
#include "reference_solution.h"

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#include <cmocka.h>

#include "rules/lurd.h"
#include "level/textfile.h"

bool reference_solution_play(int number, const board *board, const position *start,
                             reference_solution_pushed pushed, void *argument)
{
    char path[1024], reason[256];
    snprintf(path, sizeof path, "/usr/share/games/cavepacker/maps/xsokoban%04d.sol", number);
    char *text = NULL;
    size_t length = 0;
    if (!textfile_read(path, 1 << 20, &text, &length, reason, sizeof reason)) return false;
    lurd_steps steps = {0};
    lurd_error failure;
    if (!lurd_parse(text, &steps, &failure)) fail_msg("%s: %s", path, failure.message);
    position p;
    assert_true(position_copy(&p, start, board));
    for (int i = 0; i < steps.count; i++) {
        direction d = steps.steps[i].direction;
        step_result r = board_step(board, &p, d);
        assert_true(r == STEP_MOVED || r == STEP_PUSHED);
        if (r == STEP_PUSHED) pushed(argument, &p, d);
    }
    position_free(&p);
    lurd_steps_free(&steps);
    free(text);
    return true;
}
