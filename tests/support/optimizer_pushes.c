/* optimizer_pushes.c - the pushes an optimizer's search answers played from a start
 * (optimizer_pushes.h). */
#include "optimizer_pushes.h"

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>

#include <cmocka.h>

bool optimizer_pushes_solve(const solver_board *f, const optimizer_push *pushes, int count)
{
    const board *b = &f->board;
    position p;
    assert_true(position_copy(&p, &f->start, b));
    direction *walk = malloc((size_t)b->size * sizeof *walk);
    assert_non_null(walk);
    bool ok = true;
    for (int i = 0; ok && i < count; i++) {
        int stand = pushes[i].box - b->delta[pushes[i].direction];
        int w = board_path(b, &p, stand, walk, b->size);
        ok = w >= 0;
        for (int k = 0; ok && k < w; k++) ok = board_step(b, &p, walk[k]) == STEP_MOVED;
        ok = ok && board_step(b, &p, pushes[i].direction) == STEP_PUSHED;
    }
    ok = ok && position_is_solved(&p, b);
    free(walk);
    position_free(&p);
    return ok;
}
