/* solver_pulls.c - the packing order's searches over the floor: the pulls of one box, the
 * squares boxes can reach, the gate squares, where the player stands when all is packed. */
#include "solver_pulls.h"

#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

bool solver_pulls_init(solver_pulls *p, const board *b, const solver_stop *stop,
                       const uint8_t *rest)
{
    size_t size = (size_t)b->size;
    *p = (solver_pulls){.board = b, .stop = stop, .rest = rest};
    p->visit = calloc(size * 4, sizeof *p->visit);
    p->queue = malloc(size * 4 * sizeof *p->queue);
    p->reach = malloc(size);
    p->reach_queue = malloc(size * sizeof *p->reach_queue);
    p->seen = calloc(size, sizeof *p->seen);
    p->firsts = malloc((size * 4 + 1) * sizeof *p->firsts);
    return p->visit && p->queue && p->reach && p->reach_queue && p->seen && p->firsts;
}

void solver_pulls_free(solver_pulls *p)
{
    free(p->visit);
    free(p->queue);
    free(p->reach);
    free(p->reach_queue);
    free(p->seen);
    free(p->firsts);
    *p = (solver_pulls){0};
}

/* The squares the player can walk to from `from` with the boxes in place and one more box on
 * `extra` (-1: none), the box on `gone` taken away (-1: none), into p->reach. */
void solver_pulls_reach(solver_pulls *p, int from, int extra, int gone)
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
    p->work += (uint64_t)tail;
}

/* True when `square` is a parking square already (one square is never two targets). */
bool solver_parking_has(const solver_parking *parking, int square)
{
    for (int k = 0; parking && k < parking->count; k++)
        if (parking->square[k] == square) return true;
    return false;
}

/* True when a box may be parked on `square`: off the goals, off `sources` and off the
 * parking squares already taken, where a box can be left (`rest`, may be NULL). */
static bool can_park(const board *b, int square, const uint8_t *sources, const uint8_t *rest,
                     const solver_parking *parking)
{
    return !board_is_goal(b, square) && !sources[square] && (!rest || rest[square]) &&
           !solver_parking_has(parking, square);
}

/* Starts a search over the pulls of the box on `square`, the player starting from `player`:
 * a fresh stamp, and the box's first states (one for each side of it he can walk to) in
 * p->queue; returns their number. */
static int pull_start(solver_pulls *p, int square, int player)
{
    const board *b = p->board;
    if (++p->stamp == 0) {
        memset(p->visit, 0, (size_t)b->size * 4 * sizeof *p->visit);
        memset(p->seen, 0, (size_t)b->size * sizeof *p->seen);
        p->stamp = 1;
    }
    int tail = 0;
    solver_pulls_reach(p, player, -1, -1);
    for (int d = 0; d < DIRECTION_COUNT; d++) {
        if (!p->reach[square + b->delta[d]]) continue;
        p->visit[square * 4 + d] = p->stamp;
        p->queue[tail++] = square * 4 + d;
    }
    return tail;
}

/* A breadth-first search over the pulls of the box on `square`, the other boxes standing
 * still and the player starting from `player`. With `home`: the square of `home` (where the
 * boxes now stand) the box gets back to first, the reverse of bringing it in from there.
 * Without: its parking square (can_park()), by `rule`: SOLVER_PARK_LAST, the one its pulls reach
 * last, other than `player`; SOLVER_PARK_WALK_BACK (as YASS parks), of those that the fewest pulls
 * reach, the one reached last from which the player can walk back to the goal, so that
 * parking there does not shut him off; `after` (may be NULL) then gets where he stands
 * after the last pull. -1 when none. */
int solver_pulls_away(solver_pulls *p, int square, int player, const uint8_t *home,
                      const uint8_t *sources, const solver_parking *parking, solver_park_rule rule,
                      int *after)
{
    const board *b = p->board;
    int head = 0, tail = pull_start(p, square, player), last = -1, firsts = 0;
    bool walk_back = !home && rule == SOLVER_PARK_WALK_BACK;
    while (head < tail) {
        /* each state floods the floor: on a large level the search takes seconds */
        if (head % 64 == 0 && solver_stop_now(p->stop)) return -1;
        int state = p->queue[head++], box = state / 4;
        if (walk_back && p->seen[box] != p->stamp) {
            p->seen[box] = p->stamp;
            p->firsts[firsts++] = state;
        }
        if (!home && box != square && box != player && can_park(b, box, sources, p->rest, parking))
            last = box;
        solver_pulls_reach(p, box + b->delta[state % 4], box, square);
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
    if (!walk_back) return last;
    for (int i = firsts - 1; i >= 0; i--) {
        int state = p->firsts[i], box = state / 4;
        if (box == square || !can_park(b, box, sources, p->rest, parking)) continue;
        int stand = box + b->delta[state % 4];
        solver_pulls_reach(p, stand, box, square);
        if (!p->reach[square]) continue;
        if (after) *after = stand;
        return box;
    }
    return -1;
}

/* The search of solver_pulls_away() over every pull of the box on `square`, to the end, but for
 * pulls that leave the player in a dead end (walls on three sides: YASS's rule): its states
 * (the box's square * 4 + the side the player stands on) in p->queue, in the order reached;
 * returns their number, -1 when told to stop. *area gets the squares the box reaches. */
int solver_pulls_all(solver_pulls *p, int square, int player, int *area)
{
    const board *b = p->board;
    int head = 0, tail = pull_start(p, square, player);
    *area = 0;
    while (head < tail) {
        if (head % 64 == 0 && solver_stop_now(p->stop)) return -1;
        int state = p->queue[head++], box = state / 4;
        if (p->seen[box] != p->stamp) {
            p->seen[box] = p->stamp;
            ++*area;
        }
        solver_pulls_reach(p, box + b->delta[state % 4], box, square);
        for (int d = 0; d < DIRECTION_COUNT; d++) {
            int to = box + b->delta[d], back = to + b->delta[d];
            if (!p->reach[to] || !p->reach[back]) continue;
            int walls = 0;
            for (int e = 0; e < DIRECTION_COUNT; e++)
                walls += !board_is_inside(b, back + b->delta[e]);
            if (walls >= 3) continue;
            int next = to * 4 + d;
            if (p->visit[next] == p->stamp) continue;
            p->visit[next] = p->stamp;
            p->queue[tail++] = next;
        }
    }
    return tail;
}

/* The squares boxes can be pushed to from where they stand now (`sources`), each alone on
 * the board, the player walking round it (YASS's box-reachable squares), marked 1 in
 * `reached`; returns their number, -1 when out of memory. */
int solver_pulls_box_reachable(const board *b, const solver_distances *d, const uint8_t *sources,
                               uint8_t *reached)
{
    size_t size = (size_t)b->size;
    uint8_t *visit = calloc(size * 4, 1);
    int *queue = malloc(size * 4 * sizeof *queue);
    int count = -1;
    memset(reached, 0, size);
    if (visit && queue) {
        int tail = 0;
        for (int q = 0; q < b->size; q++) {
            if (!sources[q]) continue;
            for (int side = 0; side < DIRECTION_COUNT; side++) {
                if (d->side_group[q * 4 + side] == SOLVER_NO_SIDE || visit[q * 4 + side]) continue;
                visit[q * 4 + side] = 1;
                queue[tail++] = q * 4 + side;
            }
        }
        count = 0;
        for (int head = 0; head < tail; head++) {
            int square = queue[head] / 4, side = queue[head] % 4;
            if (!reached[square]) {
                reached[square] = 1;
                count++;
            }
            for (int dir = 0; dir < DIRECTION_COUNT; dir++) {
                int behind = direction_opposite((direction)dir), to = square + b->delta[dir];
                if (d->side_group[square * 4 + behind] != d->side_group[square * 4 + side] ||
                    !board_is_inside(b, to) || d->nearest[to] == SOLVER_NO_PATH)
                    continue;
                int next = to * 4 + behind; /* the player stands where the box was */
                if (visit[next]) continue;
                visit[next] = 1;
                queue[tail++] = next;
            }
        }
    }
    free(visit);
    free(queue);
    return count;
}

/* YASS's gate squares into `gate`: squares with floor on both sides along one axis and no
 * square a box can live on along the other, without which the floor (no box on it) falls
 * apart between the two sides: the two sides are in different groups round a box there
 * (solver_distances.side_group, on the empty board). */
void solver_pulls_gate_squares(const board *b, const solver_distances *d, uint8_t *gate)
{
    static const direction axes[2][2] = {{DIR_LEFT, DIR_RIGHT}, {DIR_UP, DIR_DOWN}};
    for (int q = 0; q < b->size; q++) {
        gate[q] = 0;
        if (!board_is_inside(b, q) || d->nearest[q] == SOLVER_NO_PATH) continue;
        for (int axis = 0; axis < 2; axis++) {
            const direction *along = axes[axis], *across = axes[1 - axis];
            int one = d->side_group[q * 4 + along[0]], other = d->side_group[q * 4 + along[1]];
            bool live = false;
            for (int i = 0; i < 2; i++) {
                int side = q + b->delta[across[i]];
                live |= board_is_inside(b, side) && d->nearest[side] != SOLVER_NO_PATH;
            }
            if (one != SOLVER_NO_SIDE && other != SOLVER_NO_SIDE && !live && one != other)
                gate[q] = 1;
        }
    }
}

/* Where the player stands in the packed position, for the retrograde analysis. With a box on
 * every goal the free floor falls into parts; the player ends in one of them. A level's start
 * usually has him among the boxes, but in the middle of a game he may stand on a goal or in a
 * pocket of the goal area, from where no box could be pulled home. So: the part holding the
 * most of `sources` (where boxes stand now off the goals; may be NULL), his own part when it
 * holds as many; when he stands on a goal and no part holds a source, the off-goal square
 * nearest to him. `mark` and `queue` are work space of the board's size. */
int solver_pulls_packed_player(const board *b, int player, const uint8_t *sources, uint8_t *mark,
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

/* Of the `count` states of solver_pulls_all() in p->queue, those marked in p->firsts[] (1) are the
 * candidates: the best by `key` (highest first, then the lower square, as YASS scans the
 * board) from which the player can walk back to `goal`, marked 0 then; -1 when none. */
int solver_pulls_best_walk_back(solver_pulls *p, int count, int goal, const int *key)
{
    const board *b = p->board;
    for (;;) {
        int best = -1;
        for (int i = 0; i < count; i++)
            if (p->firsts[i] && (best < 0 || key[i] > key[best] ||
                                 (key[i] == key[best] && p->queue[i] < p->queue[best])))
                best = i;
        if (best < 0) return -1;
        p->firsts[best] = 0;
        int state = p->queue[best], box = state / 4;
        solver_pulls_reach(p, box + b->delta[state % 4], box, goal);
        if (p->reach[goal]) return best;
    }
}
