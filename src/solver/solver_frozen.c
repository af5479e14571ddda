/* solver_frozen.c - deadlocks behind boxes frozen on goals: a freeze test, a pulling search
 * per goal over the squares the frozen boxes leave, and a bipartite matching. */
#include "solver_frozen.h"

#include <assert.h>
#include <stdlib.h>
#include <string.h>

bool solver_frozen_init(solver_frozen *f, const board *b, const solver_distances *distances)
{
    *f = (solver_frozen){.board = b, .distances = distances};
    size_t size = (size_t)b->size, goals = (size_t)(b->goal_count > 0 ? b->goal_count : 1);
    f->frozen = calloc(size, 1);
    f->queue = malloc(size * sizeof *f->queue);
    f->goal_of_box = malloc(goals * sizeof *f->goal_of_box);
    f->box_of_goal = malloc(goals * sizeof *f->box_of_goal);
    f->boxes = malloc(goals * sizeof *f->boxes);
    f->goals = malloc(goals * sizeof *f->goals);
    f->seen = calloc(goals, sizeof *f->seen);
    f->sides = malloc(goals);
    f->mark = calloc(size, sizeof *f->mark);
    f->group_seen = calloc(size, sizeof *f->group_seen);
    f->states = malloc(size * 4 * sizeof *f->states);
    f->state_seen = calloc(size * 4, sizeof *f->state_seen);
    f->marks_squares = malloc(goals * SOLVER_FROZEN_MARKS * sizeof *f->marks_squares);
    if (!f->frozen || !f->queue || !f->goal_of_box || !f->box_of_goal || !f->boxes || !f->goals ||
        !f->seen || !f->sides || !f->mark || !f->group_seen || !f->states || !f->state_seen ||
        !f->marks_squares)
        return false;
    size_t per_set = (goals + 4) * size; /* the squares reaching each goal, the side groups */
    f->sets = per_set * SOLVER_FROZEN_SETS <= SOLVER_FROZEN_BYTES
                  ? SOLVER_FROZEN_SETS
                  : (int)(SOLVER_FROZEN_BYTES / per_set > 0 ? SOLVER_FROZEN_BYTES / per_set : 1);
    return true;
}

void solver_frozen_free(solver_frozen *f)
{
    free(f->frozen);
    free(f->queue);
    free(f->goal_of_box);
    free(f->box_of_goal);
    free(f->boxes);
    free(f->goals);
    free(f->seen);
    free(f->sides);
    free(f->mark);
    free(f->group_seen);
    free(f->states);
    free(f->state_seen);
    free(f->marks_squares);
    for (int k = 0; k < SOLVER_FROZEN_SETS; k++) free(f->reach[k]);
    *f = (solver_frozen){0};
}

/* True when an axis through `square` is closed for good: a wall or a frozen box on one side
 * (a box against it can be pushed neither into it nor away, the player having nowhere to
 * stand), or, with `distances`, dead squares on both (a push either way loses the box). */
static bool axis_closed(const board *b, const solver_distances *distances, const uint8_t *frozen,
                        int square, int delta)
{
    int one = square + delta, other = square - delta;
    if (board_is_wall(b, one) || board_is_wall(b, other) || frozen[one] || frozen[other])
        return true;
    return distances && solver_square_is_dead(distances, one) &&
           solver_square_is_dead(distances, other);
}

/* Takes out of `frozen` (`marked` of the `count` boxes on `squares` in it), until nothing
 * changes, every box with an axis open; returns how many are left. */
static int peel(const board *b, const solver_distances *distances, const int *squares, int count,
                uint8_t *frozen, int marked)
{
    for (bool changed = marked > 0; changed;) {
        changed = false;
        for (int i = 0; i < count; i++) {
            int square = squares[i];
            if (!frozen[square] || (axis_closed(b, distances, frozen, square, b->delta[0]) &&
                                    axis_closed(b, distances, frozen, square, b->delta[1])))
                continue;
            frozen[square] = 0;
            marked--;
            changed = true;
        }
    }
    return marked;
}

int solver_frozen_mark(const board *b, const solver_distances *distances, const int *squares,
                       int count, uint8_t *frozen)
{
    int marked = 0;
    for (int i = 0; i < count; i++) {
        frozen[squares[i]] = board_is_goal(b, squares[i]);
        marked += frozen[squares[i]];
    }
    return peel(b, distances, squares, count, frozen, marked);
}

bool solver_frozen_off_goal(const board *b, const solver_distances *distances, const int *squares,
                            int count, uint8_t *frozen)
{
    for (int i = 0; i < count; i++) frozen[squares[i]] = 1;
    peel(b, distances, squares, count, frozen, count);
    bool lost = false;
    for (int i = 0; i < count; i++) {
        lost |= frozen[squares[i]] && !board_is_goal(b, squares[i]);
        frozen[squares[i]] = 0;
    }
    return lost;
}

/* The player's side groups round a box on the free square s (solver_side_groups(), the
 * frozen boxes walls), worked out when the pulling searches of a frozen set first reach s
 * (`group_stamp`) and kept in the set's groups. */
static const uint8_t *side_groups(solver_frozen *f, int s)
{
    uint8_t *group = f->groups + (size_t)s * 4;
    if (f->group_seen[s] != f->group_stamp) {
        f->group_seen[s] = f->group_stamp;
        solver_side_groups(f->board, f->frozen, s, group, f->mark, &f->mark_stamp, f->queue);
    }
    return group;
}

/* Marks state (box on `square`, player on side `side`) and the sides he walks to round the
 * box, in `reach` too (a bit per side), and queues them. */
static void reach_state(solver_frozen *f, uint8_t *reach, int *tail, int square, int side)
{
    const uint8_t *group = side_groups(f, square);
    for (int k = 0; k < DIRECTION_COUNT; k++) {
        int state = square * 4 + k;
        if (group[k] != group[side] || f->state_seen[state] == f->state_stamp) continue;
        f->state_seen[state] = f->state_stamp;
        f->states[(*tail)++] = state;
        reach[square] |= (uint8_t)(1u << k);
    }
}

/* The states (box square, player side) from which a lone box can be pushed to goal square
 * `goal` without crossing a frozen box, with the box or with the player, who walks round
 * the box only where the frozen boxes let him (side_groups()): a pulling search. reach[q]
 * gets a bit for each side of q the player may push from; the goal itself all of them. */
static void pull_reach(solver_frozen *f, int goal, uint8_t *reach)
{
    const board *b = f->board;
    memset(reach, 0, (size_t)b->size);
    if (++f->state_stamp == 0) {
        memset(f->state_seen, 0, (size_t)b->size * 4 * sizeof *f->state_seen);
        f->state_stamp = 1;
    }
    int head = 0, tail = 0;
    const uint8_t *group = side_groups(f, goal);
    for (int k = 0; k < DIRECTION_COUNT; k++)
        if (group[k] != SOLVER_NO_SIDE) reach_state(f, reach, &tail, goal, k);
    reach[goal] = 0xf;
    while (head < tail) {
        int state = f->states[head++];
        int square = state / 4, side = state % 4;
        /* the box came from the player's square; the player stood one further */
        int from = square + b->delta[side], stand = from + b->delta[side];
        if (!board_is_inside(b, stand) || f->frozen[stand] ||
            f->state_seen[from * 4 + side] == f->state_stamp)
            continue;
        reach_state(f, reach, &tail, from, side);
    }
}

/* The sides of the box on `square` the player may yet push it from, as bits: those he
 * walks to round it (the frozen boxes walls, the other boxes gone) from a side he reaches
 * now, when the search's reach is known and he reaches one; else all four, which only
 * lets more through. */
static uint8_t sides_open(const solver_frozen *f, const solver_search *s, int square)
{
    const board *b = f->board;
    if (!s->reach_valid) return 0xf;
    const uint8_t *group = f->groups + (size_t)square * 4;
    for (int k = 0; k < DIRECTION_COUNT; k++) {
        int side = square + b->delta[k];
        if (!solver_search_reaches(s, side) || group[k] == SOLVER_NO_SIDE) continue;
        uint8_t open = 0;
        for (int j = 0; j < DIRECTION_COUNT; j++)
            if (group[j] == group[k]) open |= (uint8_t)(1u << j);
        return open;
    }
    return 0xf;
}

/* Kuhn's augmenting path from box `i` (index into f->boxes) over the goals it reaches. */
static bool augment(solver_frozen *f, const uint8_t *reach, int goal_count, int i)
{
    size_t size = (size_t)f->board->size;
    for (int k = 0; k < goal_count; k++) {
        if (f->seen[k] == f->stamp ||
            !(reach[(size_t)k * size + (size_t)f->boxes[i]] & f->sides[i]))
            continue;
        f->seen[k] = f->stamp;
        if (f->box_of_goal[k] < 0 || augment(f, reach, goal_count, f->box_of_goal[k])) {
            f->box_of_goal[k] = i;
            f->goal_of_box[i] = k;
            return true;
        }
    }
    return false;
}

/* Marks in f->frozen the search's boxes frozen on goals (solver_frozen_mark()), from the
 * sets kept when its boxes on goals were met lately; returns their number. f->frozen is
 * clear under every box before. */
static int mark_frozen(solver_frozen *f, const solver_search *s)
{
    const board *b = f->board;
    uint64_t key = 0;
    for (int i = 0; i < s->box_count; i++)
        if (board_is_goal(b, s->box_square[i])) key ^= s->zobrist.box[s->box_square[i]];
    key |= 1; /* 0 marks an empty entry */
    int slot = (int)((key >> 40) % SOLVER_FROZEN_MARKS);
    int *squares = f->marks_squares + (size_t)slot * (size_t)b->goal_count;
    if (f->marks_key[slot] == key) {
        for (int k = 0; k < f->marks_count[slot]; k++) f->frozen[squares[k]] = 1;
        return f->marks_count[slot];
    }
    f->marked++;
    int marked = solver_frozen_mark(b, f->distances, s->box_square, s->box_count, f->frozen);
    int count = 0;
    for (int i = 0; i < s->box_count; i++)
        if (f->frozen[s->box_square[i]]) squares[count++] = s->box_square[i];
    f->marks_key[slot] = key;
    f->marks_count[slot] = count;
    return marked;
}

bool solver_frozen_lost(solver_frozen *f, const solver_search *s)
{
    const board *b = f->board;
    /* a checked level has as many boxes as goals (level.h); anything else is not looked at */
    if (s->box_count != b->goal_count || mark_frozen(f, s) == 0) return false;
    f->checked++;
    uint64_t key = 0;
    int boxes = 0, goals = 0;
    for (int i = 0; i < s->box_count; i++) {
        int square = s->box_square[i];
        if (f->frozen[square])
            key ^= s->zobrist.box[square];
        else
            f->boxes[boxes++] = square;
    }
    for (int g = 0; g < b->goal_count; g++)
        if (!f->frozen[b->goals[g]]) f->goals[goals++] = b->goals[g];
    assert(boxes == goals);
    key |= 1; /* 0 marks an empty slot */
    int slot = (int)((key >> 32) % (uint64_t)f->sets);
    size_t size = (size_t)b->size;
    if (!f->reach[slot]) {
        f->reach[slot] = malloc(((size_t)b->goal_count + 4) * size);
        if (!f->reach[slot]) { /* no memory: no answer, which only prunes less */
            for (int i = 0; i < s->box_count; i++) f->frozen[s->box_square[i]] = 0;
            return false;
        }
    }
    uint8_t *reach = f->reach[slot];
    /* the set's side groups follow the squares reaching its goals */
    f->groups = reach + (size_t)b->goal_count * size;
    if (f->key[slot] != key) {
        if (++f->group_stamp == 0) {
            memset(f->group_seen, 0, size * sizeof *f->group_seen);
            f->group_stamp = 1;
        }
        memset(f->groups, SOLVER_NO_SIDE, 4 * size); /* squares no pull reaches: no side */
        for (int k = 0; k < goals; k++) pull_reach(f, f->goals[k], reach + (size_t)k * size);
        f->key[slot] = key;
    }
    for (int i = 0; i < boxes; i++) f->sides[i] = sides_open(f, s, f->boxes[i]);
    for (int i = 0; i < s->box_count; i++) f->frozen[s->box_square[i]] = 0;
    for (int k = 0; k < goals; k++) f->box_of_goal[k] = -1;
    /* each box first takes a free goal it reaches, if any: most need no augmenting path */
    for (int i = 0; i < boxes; i++) {
        f->goal_of_box[i] = -1;
        const uint8_t *at = reach + (size_t)f->boxes[i];
        for (int k = 0; k < goals; k++) {
            if (f->box_of_goal[k] < 0 && (at[(size_t)k * size] & f->sides[i])) {
                f->box_of_goal[k] = i;
                f->goal_of_box[i] = k;
                break;
            }
        }
    }
    for (int i = 0; i < boxes; i++) {
        if (f->goal_of_box[i] >= 0) continue;
        if (++f->stamp == 0) {
            memset(f->seen, 0, (size_t)b->goal_count * sizeof *f->seen);
            f->stamp = 1;
        }
        if (!augment(f, reach, goals, i)) {
            f->lost++;
            return true;
        }
    }
    return false;
}
