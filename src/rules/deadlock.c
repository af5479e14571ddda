/* deadlock.c - dead squares per level, 2x2 blocks and frozen boxes per position.
 *
 * Three parts: the dead-square table (a backward "pulling" search from the goals, then a
 * rule per dead square in words), the freeze test (recursive, around one box), and the two
 * public checks built on them. Every test here is sound: it answers "dead" only when no
 * solution can exist, and "not dead" whenever it is unsure (a budget or a cap ran out). */
#include "deadlock.h"

#include <assert.h>
#include <stdlib.h>
#include <string.h>

/* ------------------------------------------------------------------------------------ */
/* Small helpers                                                                         */
/* ------------------------------------------------------------------------------------ */

/* A square a box or the player may stand on: inside the level and not a wall. */
static bool is_floor(const board *board, int square)
{
    return (board->flags[square] & (BOARD_INSIDE | BOARD_WALL)) == BOARD_INSIDE;
}

const char *deadlock_reason_name(deadlock_reason reason)
{
    switch (reason) {
    case DEADLOCK_NONE:
        return "none";
    case DEADLOCK_CORNER:
        return "corner";
    case DEADLOCK_DEAD_WALL:
        return "dead wall";
    case DEADLOCK_UNREACHABLE:
        return "unreachable square";
    case DEADLOCK_BLOCK_2X2:
        return "2x2 block";
    case DEADLOCK_FROZEN:
        return "frozen boxes";
    }
    return "unknown";
}

deadlock_reason deadlock_square_reason(const deadlock_table *table, int square)
{
    return (deadlock_reason)table->rule[square];
}

/* ------------------------------------------------------------------------------------ */
/* Dead squares                                                                          */
/* ------------------------------------------------------------------------------------ */

enum { NO_SIDE = 0xff };

/* For every floor square b and direction d whose neighbour is floor: the first direction
 * d' <= d whose neighbour the player can reach from b's d-neighbour while a box stands
 * on b (NO_SIDE when the neighbour is a wall). Two sides with the same value are the same
 * room for the player. One breadth-first search per square, stopped as soon as all four
 * neighbours are classified, so the cost is small on real levels. Fills side[size * 4]. */
static bool compute_player_sides(const board *board, uint8_t *side)
{
    int size = board->size;
    int *stamp = calloc((size_t)size, sizeof *stamp);
    int *queue = malloc((size_t)size * sizeof *queue);
    if (!stamp || !queue) {
        free(stamp);
        free(queue);
        return false;
    }
    memset(side, NO_SIDE, (size_t)size * DIRECTION_COUNT);
    int generation = 0;
    for (int box = 0; box < size; box++) {
        if (!is_floor(board, box)) continue;
        uint8_t *box_side = side + box * DIRECTION_COUNT;
        for (int d = 0; d < DIRECTION_COUNT; d++) {
            int start = box + board->delta[d];
            if (!is_floor(board, start) || box_side[d] != NO_SIDE) continue;
            box_side[d] = (uint8_t)d;
            int unclassified = 0;
            for (int e = d + 1; e < DIRECTION_COUNT; e++)
                if (is_floor(board, box + board->delta[e]) && box_side[e] == NO_SIDE)
                    unclassified++;
            generation++;
            stamp[box] = generation;
            stamp[start] = generation;
            int head = 0, tail = 0;
            queue[tail++] = start;
            while (head < tail && unclassified > 0) {
                int square = queue[head++];
                for (int step = 0; step < DIRECTION_COUNT; step++) {
                    int next = square + board->delta[step];
                    if (stamp[next] == generation || !is_floor(board, next)) continue;
                    stamp[next] = generation;
                    queue[tail++] = next;
                    for (int e = d + 1; e < DIRECTION_COUNT; e++) {
                        if (box + board->delta[e] == next && box_side[e] == NO_SIDE) {
                            box_side[e] = (uint8_t)d;
                            unclassified--;
                        }
                    }
                }
            }
        }
    }
    free(stamp);
    free(queue);
    return true;
}

/* Live squares by pulling (the classic "simple deadlock" search, e.g. Junghanns and
 * Schaeffer's Rolling Stone, made exact about the player): a box alone on the board can
 * reach a goal from square b iff some state (box on b, player in a given room beside it)
 * leads to a goal by pushes. Run backwards: start from every goal with the player on any
 * side, and pull the box (the player steps away from it, the box follows) as long as the
 * square behind the player is floor. Other boxes can only take moves away, so a square no
 * pull reaches is dead whatever they do. Marks live[b] = 1 for every reached box square. */
static bool compute_live_squares(const board *board, uint8_t *live)
{
    int size = board->size;
    uint8_t *side = malloc((size_t)size * DIRECTION_COUNT);
    uint8_t *seen = calloc((size_t)size * DIRECTION_COUNT, 1);
    int *queue = malloc((size_t)size * DIRECTION_COUNT * sizeof *queue);
    bool ok = side && seen && queue && compute_player_sides(board, side);
    if (ok) {
        int head = 0, tail = 0;
        for (int g = 0; g < board->goal_count; g++) {
            int goal = board->goals[g];
            if (!is_floor(board, goal)) continue;
            for (int d = 0; d < DIRECTION_COUNT; d++) {
                int room = side[goal * DIRECTION_COUNT + d];
                if (room == NO_SIDE || seen[goal * DIRECTION_COUNT + room]) continue;
                seen[goal * DIRECTION_COUNT + room] = 1;
                queue[tail++] = goal * DIRECTION_COUNT + room;
            }
        }
        while (head < tail) {
            int state = queue[head++];
            int box = state / DIRECTION_COUNT, room = state % DIRECTION_COUNT;
            live[box] = 1;
            for (int d = 0; d < DIRECTION_COUNT; d++) {
                if (side[box * DIRECTION_COUNT + d] != room) continue;
                int player = box + board->delta[d];
                if (!is_floor(board, player + board->delta[d])) continue;
                /* Pull: the box moves onto the player's square, the player one further. */
                int pulled = player * DIRECTION_COUNT + side[player * DIRECTION_COUNT + d];
                if (seen[pulled]) continue;
                seen[pulled] = 1;
                queue[tail++] = pulled;
            }
        }
    }
    free(side);
    free(seen);
    free(queue);
    return ok;
}

/* True when the box on `square` could only slide along the wall in direction `wall`, and
 * that stretch of wall ends in corners at both ends with no goal on it. */
static bool is_on_dead_wall(const board *board, int square, direction wall)
{
    for (int along = (wall + 1) & 3, ends = 0; ends < 2; ends++, along = (along + 2) & 3) {
        int at = square;
        for (;;) {
            if (board_is_goal(board, at) || !board_is_wall(board, at + board->delta[wall]))
                return false;
            int next = at + board->delta[along];
            if (board_is_wall(board, next)) break;
            at = next;
        }
    }
    return true;
}

/* The simplest rule that explains why the (dead) square is dead. */
static deadlock_reason classify_dead_square(const board *board, int square)
{
    for (int d = 0; d < DIRECTION_COUNT; d++) {
        int e = (d + 1) & 3;
        if (board_is_wall(board, square + board->delta[d]) &&
            board_is_wall(board, square + board->delta[e]))
            return DEADLOCK_CORNER;
    }
    for (int d = 0; d < DIRECTION_COUNT; d++)
        if (board_is_wall(board, square + board->delta[d]) &&
            is_on_dead_wall(board, square, (direction)d))
            return DEADLOCK_DEAD_WALL;
    return DEADLOCK_UNREACHABLE;
}

bool deadlock_table_init_from_live(deadlock_table *table, const board *board, const uint8_t *live)
{
    memset(table, 0, sizeof *table);
    table->size = board->size;
    table->rule = calloc((size_t)board->size, 1);
    if (!table->rule) return false;
    for (int square = 0; square < board->size; square++) {
        if (!is_floor(board, square) || live[square]) continue;
        deadlock_reason rule = classify_dead_square(board, square);
        table->rule[square] = (uint8_t)rule;
        table->dead_count[rule]++;
    }
    return true;
}

bool deadlock_table_init(deadlock_table *table, const board *board)
{
    memset(table, 0, sizeof *table);
    uint8_t *live = calloc((size_t)board->size, 1);
    bool ok = live && compute_live_squares(board, live) &&
              deadlock_table_init_from_live(table, board, live);
    free(live);
    return ok;
}

void deadlock_table_free(deadlock_table *table)
{
    free(table->rule);
    memset(table, 0, sizeof *table);
}

/* ------------------------------------------------------------------------------------ */
/* 2x2 blocks                                                                            */
/* ------------------------------------------------------------------------------------ */

/* Looks at the four 2x2 squares that contain the box on `square`. A 2x2 square made only
 * of walls and boxes can never change (every box in it is held on both axes by the
 * others), so it is a deadlock as soon as one of its boxes is off its goal. Returns true
 * and writes the block's boxes (up to four) into `found` and their count into `count`. */
static bool find_block_2x2(const board *board, const uint8_t *boxes, int square, int *found,
                           int *count)
{
    const int horizontal[2] = {board->delta[DIR_LEFT], board->delta[DIR_RIGHT]};
    const int vertical[2] = {board->delta[DIR_UP], board->delta[DIR_DOWN]};
    /* every block holds a neighbour on each axis: most pushes leave one axis open */
    bool across = false, along = false;
    for (int i = 0; i < 2; i++) {
        int side = square + horizontal[i], end = square + vertical[i];
        across |= boxes[side] || board_is_wall(board, side);
        along |= boxes[end] || board_is_wall(board, end);
    }
    if (!across || !along) return false;
    for (int h = 0; h < 2; h++) {
        for (int v = 0; v < 2; v++) {
            int block[4] = {square, square + horizontal[h], square + vertical[v],
                            square + horizontal[h] + vertical[v]};
            bool closed = true, off_goal = false;
            for (int i = 0; i < 4 && closed; i++) {
                if (boxes[block[i]])
                    off_goal |= !board_is_goal(board, block[i]);
                else if (!board_is_wall(board, block[i]))
                    closed = false;
            }
            if (!closed || !off_goal) continue;
            if (found) {
                *count = 0;
                for (int i = 0; i < 4; i++)
                    if (boxes[block[i]]) found[(*count)++] = block[i];
            }
            return true;
        }
    }
    return false;
}

/* ------------------------------------------------------------------------------------ */
/* Frozen boxes                                                                          */
/* ------------------------------------------------------------------------------------ */

/* The freeze test (Sokoban wiki, "Freeze deadlocks"). A box is blocked on an axis when
 *   - a wall stands on either side of it on that axis, or
 *   - both squares beside it on that axis are dead squares (moving there loses anyway), or
 *   - a box stands on either side that is itself blocked on the other axis.
 * A box blocked on both axes is frozen. While a box's blocking is being worked out it is
 * taken as a wall ("assumed"), which ends cycles: the boxes of a successful proof form a
 * set in which every box is held on both axes by walls, dead squares or other boxes of
 * the set, so none of them can ever move first. Only the boxes of successful branches are
 * kept in `involved`. The recursion is capped in depth, set size and calls; running out
 * answers "not blocked", which is always safe. */
enum { FREEZE_MAX_DEPTH = 64, FREEZE_MAX_CALLS = 512 };

typedef struct freeze_search {
    const deadlock_table *table;
    const board *board;
    const uint8_t *boxes;
    int assumed[FREEZE_MAX_DEPTH]; /* boxes on the current path, taken as walls */
    int assumed_count;
    int involved[DEADLOCK_REPORT_MAX_BOXES]; /* boxes of the proof so far */
    int involved_count;
    int calls_left;
} freeze_search;

static bool is_wall_or_assumed(const freeze_search *search, int square)
{
    if (board_is_wall(search->board, square)) return true;
    for (int i = 0; i < search->assumed_count; i++)
        if (search->assumed[i] == square) return true;
    return false;
}

static bool box_is_blocked(freeze_search *search, int box, int axis);

/* True when the box on `neighbour` is blocked on `axis`; keeps it among the involved
 * boxes then, and forgets whatever the attempt added otherwise (also when the list of
 * involved boxes is full, which makes the answer "not blocked"). */
static bool neighbour_is_blocked(freeze_search *search, int neighbour, int axis)
{
    if (!search->boxes[neighbour]) return false;
    int mark = search->involved_count;
    if (box_is_blocked(search, neighbour, axis) &&
        search->involved_count < DEADLOCK_REPORT_MAX_BOXES) {
        search->involved[search->involved_count++] = neighbour;
        return true;
    }
    search->involved_count = mark;
    return false;
}

/* Axis 0 is left-right (DIR_LEFT, DIR_RIGHT), axis 1 is up-down (DIR_UP, DIR_DOWN). */
static bool box_is_blocked(freeze_search *search, int box, int axis)
{
    const board *board = search->board;
    int before = box + board->delta[axis], after = box + board->delta[axis + 2];
    if (is_wall_or_assumed(search, before) || is_wall_or_assumed(search, after)) return true;
    if (deadlock_square_is_dead(search->table, before) &&
        deadlock_square_is_dead(search->table, after))
        return true;
    if (search->calls_left-- <= 0 || search->assumed_count == FREEZE_MAX_DEPTH) return false;
    search->assumed[search->assumed_count++] = box;
    bool blocked = neighbour_is_blocked(search, before, 1 - axis) ||
                   neighbour_is_blocked(search, after, 1 - axis);
    search->assumed_count--;
    return blocked;
}

/* Runs the freeze test on the box on `box`: true when it is frozen, with the boxes that
 * hold it (itself included) in search->involved. */
static bool is_frozen(freeze_search *search, int box)
{
    search->assumed_count = 0;
    search->involved_count = 1;
    search->involved[0] = box;
    search->calls_left = FREEZE_MAX_CALLS;
    return box_is_blocked(search, box, 0) && box_is_blocked(search, box, 1);
}

static bool any_off_goal(const board *board, const int *boxes, int count)
{
    for (int i = 0; i < count; i++)
        if (!board_is_goal(board, boxes[i])) return true;
    return false;
}

/* Freeze deadlock around a pushed box: the box is frozen with a box off its goal among
 * the boxes that hold it, or it froze (on its goal) and froze a box beside it off its
 * goal. When the pushed box can still move, a box beside it that it would hold can too,
 * so the neighbours are only looked at in the rare frozen-on-goal case. */
static bool find_frozen_around(freeze_search *search, int box)
{
    if (!is_frozen(search, box)) return false;
    if (any_off_goal(search->board, search->involved, search->involved_count)) return true;
    for (int d = 0; d < DIRECTION_COUNT; d++) {
        int neighbour = box + search->board->delta[d];
        if (search->boxes[neighbour] && is_frozen(search, neighbour) &&
            any_off_goal(search->board, search->involved, search->involved_count))
            return true;
    }
    return false;
}

/* ------------------------------------------------------------------------------------ */
/* The checks                                                                            */
/* ------------------------------------------------------------------------------------ */

bool deadlock_check_push(const deadlock_table *table, const board *board, const uint8_t *boxes,
                         int box_square)
{
    assert(table->size == board->size && boxes[box_square]);
    if (deadlock_square_is_dead(table, box_square)) return true;
    if (find_block_2x2(board, boxes, box_square, NULL, NULL)) return true;
    freeze_search search = {.table = table, .board = board, .boxes = boxes};
    return find_frozen_around(&search, box_square);
}

static int compare_ints(const void *a, const void *b)
{
    int x = *(const int *)a, y = *(const int *)b;
    return (x > y) - (x < y);
}

/* Fills the report with a reason and a list of boxes, sorted and without repeats. */
static void fill_report(deadlock_report *report, deadlock_reason reason, const int *boxes,
                        int count)
{
    if (!report) return;
    report->reason = reason;
    report->box_count = 0;
    int sorted[DEADLOCK_REPORT_MAX_BOXES];
    if (count > DEADLOCK_REPORT_MAX_BOXES) count = DEADLOCK_REPORT_MAX_BOXES;
    memcpy(sorted, boxes, (size_t)count * sizeof *sorted);
    qsort(sorted, (size_t)count, sizeof *sorted, compare_ints);
    for (int i = 0; i < count; i++)
        if (i == 0 || sorted[i] != sorted[i - 1]) report->boxes[report->box_count++] = sorted[i];
}

/* Blocks and frozen boxes around one box; fills the report when dead. */
static bool check_blocks_around(const deadlock_table *table, const board *board,
                                const uint8_t *boxes, int box, deadlock_report *report)
{
    int block[4], count = 0;
    if (find_block_2x2(board, boxes, box, block, &count)) {
        fill_report(report, DEADLOCK_BLOCK_2X2, block, count);
        return true;
    }
    freeze_search search = {.table = table, .board = board, .boxes = boxes};
    if (find_frozen_around(&search, box)) {
        fill_report(report, DEADLOCK_FROZEN, search.involved, search.involved_count);
        return true;
    }
    return false;
}

bool deadlock_check_position(const deadlock_table *table, const board *board,
                             const position *position, int last_pushed_box, deadlock_report *report)
{
    const uint8_t *boxes = position->boxes;
    if (report) {
        report->reason = DEADLOCK_NONE;
        report->box_count = 0;
    }
    /* A box on a dead square: the pushed box first, then the others in square order. */
    if (last_pushed_box >= 0 && boxes[last_pushed_box] &&
        deadlock_square_is_dead(table, last_pushed_box)) {
        fill_report(report, deadlock_square_reason(table, last_pushed_box), &last_pushed_box, 1);
        return true;
    }
    for (int square = 0; square < board->size; square++) {
        if (boxes[square] && deadlock_square_is_dead(table, square)) {
            fill_report(report, deadlock_square_reason(table, square), &square, 1);
            return true;
        }
    }
    if (last_pushed_box >= 0)
        return boxes[last_pushed_box] &&
               check_blocks_around(table, board, boxes, last_pushed_box, report);
    /* Every frozen set contains some box, so trying each box in turn finds them all. */
    for (int square = 0; square < board->size; square++) {
        if (boxes[square] && board_is_inside(board, square) &&
            check_blocks_around(table, board, boxes, square, report))
            return true;
    }
    return false;
}
