/* solver_macro.c - tunnel macros. */
#include "solver_macro.h"

#include <stdlib.h>

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

int solver_macro_packing_layers(const board *b, int player, int *layer)
{
    uint8_t *box = calloc((size_t)b->size, 1);
    uint8_t *reach = malloc((size_t)b->size);
    int *queue = malloc((size_t)b->size * sizeof *queue);
    int *removable = malloc((size_t)(b->goal_count > 0 ? b->goal_count : 1) * sizeof *removable);
    if (!box || !reach || !queue || !removable) {
        free(box);
        free(reach);
        free(queue);
        free(removable);
        return -1;
    }
    for (int g = 0; g < b->goal_count; g++) {
        box[b->goals[g]] = 1;
        layer[g] = -1;
    }
    int remaining = b->goal_count, layers = 0;
    while (remaining > 0 && !box[player]) {
        /* The player's reach among the boxes still in place. */
        for (int s = 0; s < b->size; s++) reach[s] = 0;
        int head = 0, tail = 0;
        reach[player] = 1;
        queue[tail++] = player;
        while (head < tail) {
            int square = queue[head++];
            for (int d = 0; d < DIRECTION_COUNT; d++) {
                int next = square + b->delta[d];
                if (reach[next] || box[next] || !board_is_inside(b, next)) continue;
                reach[next] = 1;
                queue[tail++] = next;
            }
        }
        /* The boxes he can pull one step towards him. */
        int count = 0;
        for (int g = 0; g < b->goal_count; g++) {
            int square = b->goals[g];
            if (layer[g] >= 0 || !box[square]) continue;
            for (int d = 0; d < DIRECTION_COUNT; d++) {
                int stand = square + b->delta[d], back = stand + b->delta[d];
                if (reach[stand] && reach[back]) {
                    removable[count++] = g;
                    break;
                }
            }
        }
        if (count == 0) break;
        for (int i = 0; i < count; i++) {
            layer[removable[i]] = layers;
            box[b->goals[removable[i]]] = 0;
        }
        remaining -= count;
        layers++;
    }
    for (int g = 0; g < b->goal_count; g++)
        if (layer[g] < 0) layer[g] = layers;
    if (remaining > 0) layers++;
    free(box);
    free(reach);
    free(queue);
    free(removable);
    return layers;
}
