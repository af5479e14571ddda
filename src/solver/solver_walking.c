/* solver_walking.c - a search's pushes made steps (the player's walking filled in between
 * them), and checked steps made single pushes again (solver_walking.h). */
#include "solver_walking.h"

#include <stdlib.h>

#include "solver_domain.h"
#include "solver_macro.h"

static bool append_step(solver_step_list *list, direction d, bool push)
{
    if (list->count == list->capacity) {
        int capacity = list->capacity ? list->capacity * 2 : 256;
        game_step *steps = realloc(list->steps, (size_t)capacity * sizeof *steps);
        if (!steps) return false;
        list->steps = steps;
        list->capacity = capacity;
    }
    list->steps[list->count++] = (game_step){.direction = d, .push = push};
    return true;
}

/* Walks the player behind the box on `square` and pushes it `pushes` times in direction `d`,
 * recording the steps. False when a step is not what it should be. */
static bool walk_and_push(const board *b, position *p, int square, direction d, int pushes,
                          direction *walk, solver_step_list *list)
{
    int steps = board_path(b, p, square - b->delta[d], walk, b->size);
    bool ok = steps >= 0 && p->boxes[square];
    for (int k = 0; ok && k < steps; k++)
        ok = board_step(b, p, walk[k]) == STEP_MOVED && append_step(list, walk[k], false);
    for (int k = 0; ok && k < pushes; k++)
        ok = board_step(b, p, d) == STEP_PUSHED && append_step(list, d, true);
    return ok;
}

bool solver_fill_in_walking(const board *b, const position *start, const solver_search *search,
                            const ida_move *path, int length, solver_step_list *list)
{
    position p;
    if (!position_copy(&p, start, b)) return false;
    direction *walk = malloc((size_t)b->size * sizeof *walk);
    ida_move *macro = malloc(4 * (size_t)b->size * sizeof *macro);
    bool ok = walk && macro;
    for (int i = 0; ok && i < length; i++) {
        int square = solver_move_square(path[i]);
        direction d = solver_move_direction(path[i]);
        int pushes = 1;
        bool single = path[i] & SOLVER_MOVE_SINGLE;
        const uint8_t *doors = search->room && !single ? search->room->is_door : NULL;
        if (search->tunnels && !single)
            pushes = solver_macro_tunnel_length(b, p.boxes, search->distances, square, d, doors);
        ok = walk_and_push(b, &p, square, d, pushes, walk, list);
        int end = square + pushes * b->delta[d];
        if (ok && doors && doors[end]) {
            int count = solver_goal_room_macro(search->room, b, search->distances, p.boxes, square,
                                               end, d, macro, 4 * b->size);
            for (int k = 0; ok && k < count; k++)
                ok = walk_and_push(b, &p, solver_move_square(macro[k]),
                                   solver_move_direction(macro[k]), 1, walk, list);
        }
    }
    free(walk);
    free(macro);
    position_free(&p);
    return ok;
}

bool solver_pushes_of_steps(const board *b, int player, const game_step *steps, int count,
                            ida_result *pushes)
{
    pushes->path = malloc((size_t)(count > 0 ? count : 1) * sizeof *pushes->path);
    if (!pushes->path) return false;
    for (int k = 0; k < count; k++) {
        int to = player + b->delta[steps[k].direction];
        if (steps[k].push)
            pushes->path[pushes->length++] =
                solver_move(to, steps[k].direction) | SOLVER_MOVE_SINGLE;
        player = to;
    }
    pushes->cost = pushes->length;
    return true;
}
