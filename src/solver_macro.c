/* solver_macro.c - tunnel macros, packing order and goal-room macros. */
#include "solver_macro.h"

#include <assert.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

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

/* Work space of the packing order's pulling searches. */
typedef struct pull_search {
    const board *board;
    const uint8_t *box; /* the boxes still on goals */
    uint32_t *visit;    /* per (square, side) state */
    int *queue;
    uint8_t *reach;
    int *reach_queue;
    uint32_t stamp;
    const solver_stop *stop; /* may be NULL */
} pull_search;

/* The squares the player can walk to from `from` with the boxes in place and one more box on
 * `extra` (-1: none), the box on `gone` taken away (-1: none), into p->reach. */
static void pull_reach(pull_search *p, int from, int extra, int gone)
{
    const board *b = p->board;
    memset(p->reach, 0, (size_t)b->size);
    int head = 0, tail = 0;
    p->reach[from] = 1;
    p->reach_queue[tail++] = from;
    while (head < tail) {
        int square = p->reach_queue[head++];
        for (int d = 0; d < DIRECTION_COUNT; d++) {
            int next = square + b->delta[d];
            if (p->reach[next] || next == extra || (p->box[next] && next != gone) ||
                !board_is_inside(b, next))
                continue;
            p->reach[next] = 1;
            p->reach_queue[tail++] = next;
        }
    }
}

/* True when `square` is a parking square already (one square is never two targets). */
static bool is_parking(const solver_parking *parking, int square)
{
    for (int k = 0; parking && k < parking->count; k++)
        if (parking->square[k] == square) return true;
    return false;
}

/* A breadth-first search over the pulls of the box on `square`, the other boxes standing
 * still and the player starting from `player`. With `home`: the square of `home` (where the
 * boxes now stand) the box gets back to first, the reverse of bringing it in from there.
 * Without: its parking square, the square off the goals, off `sources` and off the parking
 * squares already taken, that its pulls reach last (the farthest by pulls). -1 when none. */
static int pull_away(pull_search *p, int square, int player, const uint8_t *home,
                     const uint8_t *sources, const solver_parking *parking)
{
    const board *b = p->board;
    if (++p->stamp == 0) {
        memset(p->visit, 0, (size_t)b->size * 4 * sizeof *p->visit);
        p->stamp = 1;
    }
    int head = 0, tail = 0, best = -1;
    pull_reach(p, player, -1, -1);
    if (p->reach[square]) return -1; /* cannot happen: the box stands there */
    for (int d = 0; d < DIRECTION_COUNT; d++) {
        if (!p->reach[square + b->delta[d]]) continue;
        p->visit[square * 4 + d] = p->stamp;
        p->queue[tail++] = square * 4 + d;
    }
    while (head < tail) {
        /* each state floods the floor: on a large level the search takes seconds */
        if (head % 64 == 0 && solver_stop_now(p->stop)) return -1;
        int state = p->queue[head++], box = state / 4;
        if (!home && box != square && box != player && !board_is_goal(b, box) && !sources[box] &&
            !is_parking(parking, box))
            best = box;
        pull_reach(p, box + b->delta[state % 4], box, square);
        for (int d = 0; d < DIRECTION_COUNT; d++) {
            int to = box + b->delta[d], back = to + b->delta[d];
            if (!p->reach[to] || !p->reach[back]) continue;
            if (home && home[to]) return to;
            int next = to * 4 + d;
            if (p->visit[next] == p->stamp) continue;
            p->visit[next] = p->stamp;
            p->queue[tail++] = next;
        }
    }
    return best;
}

/* Where the player stands in the packed position, for the retrograde analysis. With a box on
 * every goal the free floor falls into parts; the player ends in one of them. A level's start
 * usually has him among the boxes, but in the middle of a game he may stand on a goal or in a
 * pocket of the goal area, from where no box could be pulled home. So: the part holding the
 * most of `sources` (where boxes stand now off the goals; may be NULL), his own part when it
 * holds as many; when he stands on a goal and no part holds a source, the off-goal square
 * nearest to him. `mark` and `queue` are work space of the board's size. */
static int packed_player(const board *b, int player, const uint8_t *sources, uint8_t *mark,
                         int *queue)
{
    memset(mark, 0, (size_t)b->size);
    int best = board_is_goal(b, player) ? -1 : player, best_count = -1;
    for (int start = 0; start < b->size; start++) {
        if (mark[start] || !board_is_inside(b, start) || board_is_goal(b, start)) continue;
        int head = 0, tail = 0, count = 0;
        bool has_player = false;
        mark[start] = 1;
        queue[tail++] = start;
        while (head < tail) {
            int square = queue[head++];
            count += sources && sources[square] == 1;
            has_player |= square == player;
            for (int d = 0; d < DIRECTION_COUNT; d++) {
                int next = square + b->delta[d];
                if (mark[next] || !board_is_inside(b, next) || board_is_goal(b, next)) continue;
                mark[next] = 1;
                queue[tail++] = next;
            }
        }
        if (count > best_count || (count == best_count && has_player)) {
            best_count = count;
            best = has_player ? player : start;
        }
    }
    if (best_count > 0 || !board_is_goal(b, player)) return best;
    /* On a goal with no source anywhere: the nearest square off the goals. */
    memset(mark, 0, (size_t)b->size);
    int head = 0, tail = 0;
    mark[player] = 1;
    queue[tail++] = player;
    while (head < tail) {
        int square = queue[head++];
        if (!board_is_goal(b, square)) return square;
        for (int d = 0; d < DIRECTION_COUNT; d++) {
            int next = square + b->delta[d];
            if (mark[next] || !board_is_inside(b, next)) continue;
            mark[next] = 1;
            queue[tail++] = next;
        }
    }
    return player;
}

/* A parking step: the first goal box among the `count` removable ones (goal indices first)
 * that has a parking square is pulled there; its goal gets layer `layers`. False when none
 * has, or when the goals parked already are half the goals (YASS caps its parking too). */
static bool park(pull_search *p, const board *b, uint8_t *box, const int *removable, int count,
                 int *layer, int layers, int player, const uint8_t *sources,
                 solver_parking *parking)
{
    if (2 * parking->count >= b->goal_count) return false;
    for (int i = 0; i < count; i++) {
        int g = removable[i];
        if (g >= b->goal_count) continue; /* a box parked already waits where it is */
        int square = pull_away(p, b->goals[g], player, NULL, sources, parking);
        if (square < 0) continue;
        int k = parking->count++;
        parking->square[k] = square;
        parking->goal[k] = g;
        parking->layer[k] = -1;
        layer[g] = layers;
        box[b->goals[g]] = 0;
        box[square] = 1;
        return true;
    }
    return false;
}

int solver_macro_packing_layers(const board *b, int player, const uint8_t *sources, int *layer)
{
    return solver_macro_packing_layers_until(b, player, sources, layer, NULL, NULL);
}

int solver_macro_packing_layers_until(const board *b, int player, const uint8_t *sources,
                                      int *layer, solver_parking *parking, const solver_stop *stop)
{
    if (!sources) parking = NULL;
    if (parking) parking->count = 0;
    size_t size = (size_t)b->size;
    uint8_t *box = calloc(size, 1);
    uint8_t *reach = malloc(size);
    int *queue = malloc(size * sizeof *queue);
    /* goal indices, and parking entries as goal_count + k */
    int *removable =
        malloc((size_t)(b->goal_count > 0 ? 2 * b->goal_count : 1) * sizeof *removable);
    pull_search pull = {.board = b, .box = box, .stop = stop};
    if (sources) {
        pull.visit = calloc(size * 4, sizeof *pull.visit);
        pull.queue = malloc(size * 4 * sizeof *pull.queue);
        pull.reach = malloc(size);
        pull.reach_queue = malloc(size * sizeof *pull.reach_queue);
    }
    int layers = -1, left_sources = 0;
    uint8_t *unused = NULL;
    if (!box || !reach || !queue || !removable ||
        (sources && (!pull.visit || !pull.queue || !pull.reach || !pull.reach_queue)))
        goto done;
    player = packed_player(b, player, sources, reach, queue);
    /* the squares boxes may still go back to: with parking each is taken once */
    if (sources) {
        unused = malloc(size);
        if (!unused) {
            layers = -1;
            goto done;
        }
        memcpy(unused, sources, size);
        for (size_t q = 0; q < size; q++) left_sources += unused[q] != 0;
    }
    for (int g = 0; g < b->goal_count; g++) {
        box[b->goals[g]] = 1;
        layer[g] = -1;
    }
    int remaining = b->goal_count;
    layers = 0;
    while (remaining > 0 && !box[player]) {
        if (solver_stop_now(stop)) {
            layers = -1;
            goto done;
        }
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
        /* The boxes he can pull one step towards him; with `sources`, of those the ones
         * he can pull all the way back to where a box stands now, when there are any. */
        int count = 0;
        int parked = parking ? parking->count : 0;
        for (int t = 0; t < b->goal_count + parked; t++) {
            bool goal = t < b->goal_count;
            int square = goal ? b->goals[t] : parking->square[t - b->goal_count];
            if ((goal ? layer[t] : parking->layer[t - b->goal_count]) >= 0 || !box[square])
                continue;
            for (int d = 0; d < DIRECTION_COUNT; d++) {
                int stand = square + b->delta[d], back = stand + b->delta[d];
                if (reach[stand] && reach[back]) {
                    removable[count++] = t;
                    break;
                }
            }
        }
        if (count == 0) break;
        if (sources) {
            int home = 0;
            for (int i = 0; i < count; i++) {
                if (solver_stop_now(stop)) {
                    layers = -1;
                    goto done;
                }
                int t = removable[i];
                int square = t < b->goal_count ? b->goals[t] : parking->square[t - b->goal_count];
                int to = pull_away(&pull, square, player, unused, sources, parking);
                if (to < 0) continue;
                removable[home++] = t;
                /* with parking, as YASS plans, each box goes home to a square of its own */
                if (parking) {
                    unused[to] = 0;
                    left_sources--;
                }
            }
            if (solver_stop_now(stop)) {
                layers = -1;
                goto done;
            }
            if (home > 0) {
                count = home;
            } else if (parking && left_sources > 0 &&
                       park(&pull, b, box, removable, count, layer, layers, player, sources,
                            parking)) {
                layers++;
                remaining--;
                continue;
            }
        }
        for (int i = 0; i < count; i++) {
            int t = removable[i];
            if (t < b->goal_count) {
                layer[t] = layers;
                box[b->goals[t]] = 0;
                remaining--;
            } else {
                parking->layer[t - b->goal_count] = layers;
                box[parking->square[t - b->goal_count]] = 0;
            }
        }
        layers++;
    }
    bool left = remaining > 0;
    for (int g = 0; g < b->goal_count; g++)
        if (layer[g] < 0) layer[g] = layers;
    for (int k = 0; parking && k < parking->count; k++) {
        if (parking->layer[k] < 0) {
            parking->layer[k] = layers;
            left = true;
        }
    }
    if (left) layers++;
done:
    free(unused);
    free(box);
    free(reach);
    free(queue);
    free(removable);
    free(pull.visit);
    free(pull.queue);
    free(pull.reach);
    free(pull.reach_queue);
    return layers;
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
    if (stopped || (room->doors && solver_macro_packing_layers_until(
                                       b, start->player, NULL, room->layer, NULL, stop) < 0)) {
        solver_goal_room_free(room);
        return false;
    }
    return true;
}

/* Breadth-first search over (box square, player side) states inside the room, the other
 * boxes standing still, from the door to the goal to fill next. */
int solver_goal_room_macro(solver_goal_room *room, const board *b,
                           const solver_distances *distances, const uint8_t *boxes, int door,
                           direction d, uint32_t *pushes, int capacity)
{
    if (!room->doors || !room->is_door[door] || !room->in_room[door + b->delta[d]]) return 0;
    /* The deepest layer with an empty goal. */
    int deepest = -1;
    for (int g = 0; g < b->goal_count; g++)
        if (!boxes[b->goals[g]] && room->layer[g] > deepest) deepest = room->layer[g];
    if (deepest < 0) return 0;
    int goal;
    return solver_box_search_to_layer(&room->search, distances, boxes, door, door - b->delta[d],
                                      room->in_room, room->layer, deepest, pushes, capacity, &goal);
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

int solver_box_search_to_layer(solver_box_search *search, const solver_distances *distances,
                               const uint8_t *boxes, int origin, int player, const uint8_t *allowed,
                               const int *layer, int target, uint32_t *pushes, int capacity,
                               int *goal)
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
            if (g < 0 || layer[g] != target) continue;
            int count = 0;
            for (int at = next; search->parent[at] >= 0; at = search->parent[at]) count++;
            if (count > capacity) return 0;
            int k = count;
            for (int at = next; search->parent[at] >= 0; at = search->parent[at]) {
                direction pushed = direction_opposite((direction)(at % 4));
                pushes[--k] = (uint32_t)(at / 4 - b->delta[pushed]) * 4u + (uint32_t)pushed;
            }
            *goal = to;
            return count;
        }
    }
    return 0;
}
