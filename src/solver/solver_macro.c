/* solver_macro.c - tunnel macros and goal-room macros. */
#include "solver_macro.h"

#include <assert.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "solver_packing.h"

/* True when `square` has walls on both sides across direction `d`. */
static bool in_corridor(const board *b, int square, direction d)
{
    int across = b->delta[(d + 1) & 3];
    return board_is_wall(b, square + across) && board_is_wall(b, square - across);
}

int solver_macro_tunnel_length(const board *b, const uint8_t *boxes,
                               const solver_distances *distances, int square, direction d,
                               const uint8_t *stop)
{
    int step = b->delta[d];
    int player = square, box = square + step;
    int pushes = 1;
    for (;;) {
        if ((stop && stop[box]) || board_is_goal(b, box) || !in_corridor(b, box, d) ||
            !in_corridor(b, player, d))
            break;
        int next = box + step;
        if (!board_is_inside(b, next) || boxes[next] || solver_square_is_dead(distances, next))
            break;
        pushes++;
        player = box;
        box = next;
    }
    assert(!boxes[box]); /* a push, or a tunnel, ends on free floor */
    return pushes;
}

/* True when a box on `square` can be pushed neither way across direction `d`. */
static bool blocked_across(const board *b, const solver_distances *distances, int square,
                           direction d)
{
    int across = b->delta[(d + 1) & 3];
    for (int side = -1; side <= 1; side += 2) {
        int to = square + side * across, player = square - side * across;
        if (board_is_inside(b, player) && board_is_inside(b, to) &&
            !solver_square_is_dead(distances, to))
            return false;
    }
    return true;
}

void solver_macro_rest_squares(const board *b, const solver_distances *distances, uint8_t *rest)
{
    for (int square = 0; square < b->size; square++) {
        rest[square] = board_is_inside(b, square) && !solver_square_is_dead(distances, square);
        if (!rest[square] || board_is_goal(b, square)) continue;
        for (int d = 0; d < DIRECTION_COUNT && rest[square]; d++) {
            /* pushed in from a corridor, the box can only go on along it */
            int from = square - b->delta[d];
            if (board_is_inside(b, from) && !solver_square_is_dead(distances, from) &&
                in_corridor(b, from, (direction)d) &&
                blocked_across(b, distances, square, (direction)d))
                rest[square] = 0;
        }
    }
}

/* ---- the goal room --------------------------------------------------------------------- */

enum {
    /* The room search costs a flood per candidate door; beyond this size it is skipped. */
    MAX_ROOM_SEARCH_SQUARES = 3000,
};

/* Floods the inside from `from` with the squares `blocked[0..1]` taken out, stamping
 * `mark`. Returns the number of squares reached, or -1 when `player` is among them. The
 * flood always runs to the end, so that a square stamped in this round belongs to a whole
 * component already looked at. */
static int flood(const board *b, int from, const int blocked[2], int player, uint32_t *mark,
                 uint32_t stamp, int *queue)
{
    int head = 0, tail = 0;
    bool has_player = false;
    mark[from] = stamp;
    queue[tail++] = from;
    while (head < tail) {
        int square = queue[head++];
        has_player |= square == player;
        for (int d = 0; d < DIRECTION_COUNT; d++) {
            int next = square + b->delta[d];
            if (next == blocked[0] || next == blocked[1] || mark[next] == stamp ||
                !board_is_inside(b, next))
                continue;
            mark[next] = stamp;
            queue[tail++] = next;
        }
    }
    return has_player ? -1 : tail;
}

void solver_goal_room_free(solver_goal_room *room)
{
    free(room->in_room);
    free(room->is_door);
    free(room->layer);
    solver_box_search_free(&room->search);
    *room = (solver_goal_room){0};
}

/* A square that can be a door: floor, no goal, no box, not the player. */
static bool can_be_door(const board *b, const position *start, int square)
{
    return board_is_inside(b, square) && !board_is_goal(b, square) && square != start->player &&
           !start->boxes[square];
}

/* Tries the doors `doors[0..1]` (the second may be -1): keeps the part of the floor they cut
 * off when it holds every goal, no box off a goal and not the player, and is smaller than
 * the best so far. */
static void try_doors(solver_goal_room *room, const board *b, const position *start,
                      const int doors[2], uint32_t *mark, uint32_t *stamp, int *list,
                      int *best_size)
{
    for (int k = 0; k < 2; k++) {
        if (doors[k] < 0) continue;
        for (int d = 0; d < DIRECTION_COUNT; d++) {
            int first = doors[k] + b->delta[d];
            if (!board_is_inside(b, first) || first == doors[1 - k]) continue;
            if (mark[first] == *stamp) continue; /* already flooded from the other door */
            int count = flood(b, first, doors, start->player, mark, *stamp, list);
            if (count < 0 || count >= *best_size) continue;
            int goals = 0;
            bool stray_box = false;
            for (int i = 0; i < count; i++) {
                int square = list[i];
                goals += board_is_goal(b, square);
                if (start->boxes[square] && !board_is_goal(b, square)) stray_box = true;
            }
            if (goals != b->goal_count || stray_box) continue;
            *best_size = count;
            memset(room->in_room, 0, (size_t)b->size);
            memset(room->is_door, 0, (size_t)b->size);
            for (int i = 0; i < count; i++) room->in_room[list[i]] = 1;
            room->doors = doors[1] < 0 ? 1 : 2;
            for (int i = 0; i < room->doors; i++) room->is_door[doors[i]] = 1;
        }
        ++*stamp;
    }
}

/* The room: the smallest part of the floor cut off by one square that holds every goal, no
 * box off a goal and not the player. One flood per candidate door and side. (Rooms with two
 * doors were tried: 13 more XSokoban levels had one, none of them solved sooner.) */
bool solver_goal_room_init(solver_goal_room *room, const board *b, const position *start,
                           const solver_distances *distances, const solver_stop *stop)
{
    (void)distances;
    *room = (solver_goal_room){0};
    size_t size = (size_t)b->size;
    room->in_room = calloc(size, 1);
    room->is_door = calloc(size, 1);
    room->layer = malloc((size_t)(b->goal_count > 0 ? b->goal_count : 1) * sizeof(int));
    uint32_t *mark = calloc(size, sizeof *mark);
    int *list = malloc(size * sizeof *list);
    if (!room->in_room || !room->is_door || !room->layer || !mark || !list ||
        !solver_box_search_init(&room->search, b)) {
        free(mark);
        free(list);
        solver_goal_room_free(room);
        return false;
    }
    int inside = 0;
    for (int s = 0; s < b->size; s++) inside += board_is_inside(b, s);
    int best_size = b->size + 1;
    uint32_t stamp = 1;
    bool searchable = b->goal_count > 0 && inside <= MAX_ROOM_SEARCH_SQUARES;
    bool stopped = false;
    for (int door = 0; searchable && door < b->size; door++) {
        if (door % 64 == 0 && solver_stop_now(stop)) {
            stopped = true;
            break;
        }
        if (!can_be_door(b, start, door)) continue;
        try_doors(room, b, start, (const int[2]){door, -1}, mark, &stamp, list, &best_size);
    }
    free(mark);
    free(list);
    if (stopped || (room->doors && solver_packing_layers_until(b, start->player, NULL, room->layer,
                                                               NULL, false, stop) < 0)) {
        solver_goal_room_free(room);
        return false;
    }
    return true;
}

/* Breadth-first search over (box square, player side) states inside the room, the other
 * boxes standing still, from the door to the goal to fill next. */
int solver_goal_room_macro(solver_goal_room *room, const board *b,
                           const solver_distances *distances, const uint8_t *boxes, int from,
                           int door, direction d, uint32_t *pushes, int capacity)
{
    if (!room->doors || !room->is_door[door] || !room->in_room[door + b->delta[d]]) return 0;
    /* The deepest layer with an empty goal. */
    int deepest = -1;
    for (int g = 0; g < b->goal_count; g++)
        if (!boxes[b->goals[g]] && room->layer[g] > deepest) deepest = room->layer[g];
    if (deepest < 0) return 0;
    int goal;
    int count =
        solver_box_search_to_layer(&room->search, distances, boxes, door, door - b->delta[d],
                                   room->in_room, room->layer, deepest, pushes, capacity, &goal);
    return count > 0 && goal == from ? 0 : count;
}

/* ---- one box's way to a goal ----------------------------------------------------------- */

bool solver_box_search_init(solver_box_search *search, const board *b)
{
    size_t size = (size_t)b->size;
    *search = (solver_box_search){
        .board = b,
        .goal_of = malloc(size * sizeof *search->goal_of),
        .visit = calloc(size * 4, sizeof *search->visit),
        .parent = malloc(size * 4 * sizeof *search->parent),
        .queue = malloc(size * 4 * sizeof *search->queue),
    };
    if (!search->goal_of || !search->visit || !search->parent || !search->queue ||
        !solver_floor_tree_init(&search->tree, b)) {
        solver_box_search_free(search);
        return false;
    }
    for (int square = 0; square < b->size; square++) search->goal_of[square] = -1;
    for (int g = 0; g < b->goal_count; g++) search->goal_of[b->goals[g]] = g;
    return true;
}

void solver_box_search_free(solver_box_search *search)
{
    free(search->goal_of);
    free(search->visit);
    free(search->parent);
    free(search->queue);
    solver_floor_tree_free(&search->tree);
    *search = (solver_box_search){0};
}

/* A fresh stamp for `marks` (`count` of them): nothing needs clearing until it wraps. */
static uint32_t next_stamp(uint32_t *marks, uint32_t *stamp, size_t count)
{
    if (++*stamp == 0) {
        memset(marks, 0, count * sizeof *marks);
        *stamp = 1;
    }
    return *stamp;
}

/* True when the player cannot walk on `square`: a wall, outside, or a box other than the
 * one from `origin`, which is moving. */
static inline bool is_blocked(const board *b, const uint8_t *boxes, int square, int origin)
{
    return (boxes[square] && square != origin) || !board_is_inside(b, square);
}

/* The parts of the floor the four neighbours of a box on `box` lie in (floor tree). */
static void side_parts(const solver_floor_tree *tree, int box, int part[DIRECTION_COUNT])
{
    for (int d = 0; d < DIRECTION_COUNT; d++)
        part[d] = solver_floor_tree_part(tree, box, box + tree->board->delta[d]);
}

/* The breadth-first search of the box on `origin` over (box square, player side) states,
 * the other boxes standing still, until a state puts the box on an empty goal g with
 * layer[g] == `target` (`layer` NULL: until every state is visited). Returns that state, or
 * -1; *count gets the number of states queued, in search->queue in the order found. */
static int box_search(solver_box_search *search, const solver_distances *distances,
                      const uint8_t *boxes, int origin, int player, const uint8_t *allowed,
                      const int *layer, int target, int *count)
{
    const board *b = search->board;
    uint32_t stamp = next_stamp(search->visit, &search->visit_stamp, 4 * (size_t)b->size);
    int head = 0, tail = 0;
    /* The player's floor with the box taken away: where the box cuts it, for every square. */
    solver_floor_tree_build(&search->tree, boxes, origin, player);
    int part[DIRECTION_COUNT];
    /* The first state: the box where it stands, the player on a side he can walk to (the
     * other sides he can walk to are the same state, below). */
    int here = solver_floor_tree_part(&search->tree, origin, player);
    side_parts(&search->tree, origin, part);
    for (int d = 0; d < DIRECTION_COUNT && tail == 0; d++) {
        if (part[d] != here) continue;
        search->visit[origin * 4 + d] = stamp;
        search->parent[origin * 4 + d] = -1;
        search->queue[tail++] = origin * 4 + d;
    }
    while (head < tail) {
        int state = search->queue[head++];
        int box = state / 4;
        side_parts(&search->tree, box, part);
        here = part[state % 4];
        /* The other sides the player can walk to round the box are the same state. */
        for (int d = 0; d < DIRECTION_COUNT; d++) {
            int side = box * 4 + d;
            if (search->visit[side] != stamp && part[d] == here) {
                search->visit[side] = stamp;
                search->parent[side] = search->parent[state];
            }
        }
        for (int d = 0; d < DIRECTION_COUNT; d++) {
            int to = box + b->delta[d];
            if (part[direction_opposite((direction)d)] != here ||
                is_blocked(b, boxes, to, origin) || (allowed && !allowed[to]) ||
                solver_square_is_dead(distances, to))
                continue;
            int next = to * 4 + (int)direction_opposite((direction)d);
            if (search->visit[next] == stamp) continue;
            search->visit[next] = stamp;
            search->parent[next] = state;
            search->queue[tail++] = next;
            int g = search->goal_of[to];
            if (layer && g >= 0 && layer[g] == target) {
                *count = tail;
                return next;
            }
        }
    }
    *count = tail;
    return -1;
}

int solver_box_search_path(const solver_box_search *search, int state, uint32_t *pushes,
                           int capacity)
{
    const board *b = search->board;
    int count = 0;
    for (int at = state; search->parent[at] >= 0; at = search->parent[at]) count++;
    if (count > capacity) return 0;
    int k = count;
    for (int at = state; search->parent[at] >= 0; at = search->parent[at]) {
        direction pushed = direction_opposite((direction)(at % 4));
        pushes[--k] = (uint32_t)(at / 4 - b->delta[pushed]) * 4u + (uint32_t)pushed;
    }
    return count;
}

int solver_box_search_all(solver_box_search *search, const solver_distances *distances,
                          const uint8_t *boxes, int origin, int player)
{
    int count;
    box_search(search, distances, boxes, origin, player, NULL, NULL, 0, &count);
    return count;
}

int solver_box_search_to_layer(solver_box_search *search, const solver_distances *distances,
                               const uint8_t *boxes, int origin, int player, const uint8_t *allowed,
                               const int *layer, int target, uint32_t *pushes, int capacity,
                               int *goal)
{
    int count;
    int found =
        box_search(search, distances, boxes, origin, player, allowed, layer, target, &count);
    if (found < 0) return 0;
    *goal = found / 4;
    return solver_box_search_path(search, found, pushes, capacity);
}
