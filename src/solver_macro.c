/* solver_macro.c - tunnel macros. */
#include "solver_macro.h"

/* True when `square` has walls on both sides across direction `d`. */
static bool in_corridor(const board *b, int square, direction d)
{
    int across = b->delta[(d + 1) & 3];
    return board_is_wall(b, square + across) && board_is_wall(b, square - across);
}

int solver_macro_tunnel_length(const board *b, const uint8_t *boxes,
                               const solver_distances *distances, int square, direction d)
{
    int step = b->delta[d];
    int player = square, box = square + step;
    int pushes = 1;
    for (;;) {
        if (board_is_goal(b, box) || !in_corridor(b, box, d) || !in_corridor(b, player, d)) break;
        int next = box + step;
        if (!board_is_inside(b, next) || boxes[next] || solver_square_is_dead(distances, next))
            break;
        pushes++;
        player = box;
        box = next;
    }
    return pushes;
}
