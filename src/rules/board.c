/* board.c - the rules: building a board from a level, steps and pushes, walking paths. */
#include "board.h"

#include <assert.h>
#include <stdlib.h>
#include <string.h>

char direction_letter(direction d, bool push)
{
    static const char moves[] = "lurd", pushes[] = "LURD";
    return push ? pushes[d] : moves[d];
}

/* Marks BOARD_INSIDE on every square reachable from `from` without crossing a wall.
 * Returns false when out of memory. */
static bool mark_inside(board *b, int from)
{
    int *queue = malloc((size_t)b->size * sizeof *queue);
    if (!queue) return false;
    int head = 0, tail = 0;
    queue[tail++] = from;
    b->flags[from] |= BOARD_INSIDE;
    while (head < tail) {
        int square = queue[head++];
        for (int d = 0; d < DIRECTION_COUNT; d++) {
            int next = square + b->delta[d];
            if (!(b->flags[next] & (BOARD_WALL | BOARD_INSIDE))) {
                b->flags[next] |= BOARD_INSIDE;
                queue[tail++] = next;
            }
        }
    }
    free(queue);
    return true;
}

bool board_from_level(const level *lv, board *b, position *start)
{
    *b = (board){.width = lv->width, .height = lv->height, .size = lv->width * lv->height};
    *start = (position){0};
    b->delta[DIR_LEFT] = -1;
    b->delta[DIR_RIGHT] = 1;
    b->delta[DIR_UP] = -lv->width;
    b->delta[DIR_DOWN] = lv->width;
    b->flags = calloc((size_t)b->size, 1);
    b->goals = malloc((size_t)b->size * sizeof *b->goals);
    if (!b->flags || !b->goals || !position_init(start, b)) {
        board_free(b);
        position_free(start);
        return false;
    }
    for (int s = 0; s < b->size; s++) {
        switch (lv->squares[s]) {
        case LEVEL_WALL:
            b->flags[s] = BOARD_WALL;
            break;
        case LEVEL_GOAL:
            b->flags[s] = BOARD_GOAL;
            break;
        case LEVEL_BOX:
            start->boxes[s] = 1;
            break;
        case LEVEL_BOX_ON_GOAL:
            b->flags[s] = BOARD_GOAL;
            start->boxes[s] = 1;
            break;
        case LEVEL_PLAYER:
            start->player = s;
            break;
        case LEVEL_PLAYER_ON_GOAL:
            b->flags[s] = BOARD_GOAL;
            start->player = s;
            break;
        default:
            break;
        }
    }
    if (!mark_inside(b, start->player)) {
        board_free(b);
        position_free(start);
        return false;
    }
    /* Boxes and goals outside the player's region (a decorative '*' behind the walls)
     * take no part in play. */
    for (int s = 0; s < b->size; s++) {
        if (b->flags[s] & BOARD_INSIDE) {
            if (b->flags[s] & BOARD_GOAL) b->goals[b->goal_count++] = s;
            start->box_count += start->boxes[s];
        } else {
            b->flags[s] &= (uint8_t)~BOARD_GOAL;
            start->boxes[s] = 0;
        }
    }
    return true;
}

void board_free(board *b)
{
    free(b->flags);
    free(b->goals);
    b->flags = NULL;
    b->goals = NULL;
}

bool position_init(position *p, const board *b)
{
    *p = (position){.player = 0};
    p->boxes = calloc((size_t)b->size, 1);
    return p->boxes != NULL;
}

bool position_copy(position *to, const position *from, const board *b)
{
    if (!position_init(to, b)) return false;
    to->player = from->player;
    to->box_count = from->box_count;
    memcpy(to->boxes, from->boxes, (size_t)b->size);
    return true;
}

void position_free(position *p)
{
    free(p->boxes);
    p->boxes = NULL;
}

bool position_equal(const position *a, const position *b, const board *board)
{
    return a->player == b->player && memcmp(a->boxes, b->boxes, (size_t)board->size) == 0;
}

bool position_is_solved(const position *p, const board *b)
{
    for (int i = 0; i < b->goal_count; i++)
        if (!p->boxes[b->goals[i]]) return false;
    return true;
}

step_result board_try_step(const board *b, const position *p, direction d)
{
    int next = p->player + b->delta[d];
    if (b->flags[next] & BOARD_WALL) return STEP_BLOCKED;
    if (!p->boxes[next]) return STEP_MOVED;
    int beyond = next + b->delta[d];
    if ((b->flags[beyond] & BOARD_WALL) || p->boxes[beyond]) return STEP_BLOCKED;
    return STEP_PUSHED;
}

step_result board_step(const board *b, position *p, direction d)
{
    /* The player stands on a floor square, never on a box. */
    assert(!p->boxes[p->player] && !(b->flags[p->player] & BOARD_WALL));
    step_result result = board_try_step(b, p, d);
    if (result == STEP_BLOCKED) return result;
    int next = p->player + b->delta[d];
    if (result == STEP_PUSHED) {
        p->boxes[next] = 0;
        p->boxes[next + b->delta[d]] = 1;
    }
    p->player = next;
    return result;
}

void board_unstep(const board *b, position *p, direction d, step_result result)
{
    if (result == STEP_BLOCKED) return;
    int from = p->player - b->delta[d];
    if (result == STEP_PUSHED) {
        p->boxes[p->player + b->delta[d]] = 0;
        p->boxes[p->player] = 1;
    }
    p->player = from;
    assert(!p->boxes[p->player] && !(b->flags[p->player] & BOARD_WALL));
}

/* Breadth-first search over the squares the player can walk on. `parent` gets, for each
 * reached square, the direction of the step that reached it (or -1 for the start).
 * Stops early once `target` is reached (target -1: never). Returns squares reached. */
static int walk_search(const board *b, const position *p, int target, int8_t *parent, int *queue)
{
    memset(parent, 0x7F, (size_t)b->size);
    int head = 0, tail = 0;
    queue[tail++] = p->player;
    parent[p->player] = -1;
    while (head < tail) {
        int square = queue[head++];
        if (square == target) break;
        for (int d = 0; d < DIRECTION_COUNT; d++) {
            int next = square + b->delta[d];
            if (parent[next] != 0x7F || (b->flags[next] & BOARD_WALL) || p->boxes[next]) continue;
            parent[next] = (int8_t)d;
            queue[tail++] = next;
        }
    }
    return tail;
}

int board_path(const board *b, const position *p, int target, direction *path, int capacity)
{
    if (target < 0 || target >= b->size || !(b->flags[target] & BOARD_INSIDE)) return -1;
    if (target == p->player) return 0;
    if (p->boxes[target]) return -1;
    int8_t *parent = malloc((size_t)b->size);
    int *queue = malloc((size_t)b->size * sizeof *queue);
    int length = -1;
    if (parent && queue) {
        walk_search(b, p, target, parent, queue);
        if (parent[target] != 0x7F) {
            length = 0;
            for (int s = target; s != p->player; s -= b->delta[parent[s]]) length++;
            int i = length;
            for (int s = target; s != p->player; s -= b->delta[parent[s]]) {
                i--;
                if (i < capacity) path[i] = (direction)parent[s];
            }
        }
    }
    free(parent);
    free(queue);
    return length;
}

int board_reachable(const board *b, const position *p, uint8_t *reach)
{
    int8_t *parent = malloc((size_t)b->size);
    int *queue = malloc((size_t)b->size * sizeof *queue);
    int count = 0;
    memset(reach, 0, (size_t)b->size);
    if (parent && queue) {
        count = walk_search(b, p, -1, parent, queue);
        for (int i = 0; i < count; i++) reach[queue[i]] = 1;
    }
    free(parent);
    free(queue);
    return count;
}

char *position_to_text(const board *b, const position *p)
{
    char *text = malloc((size_t)(b->width + 1) * (size_t)b->height + 1);
    if (!text) return NULL;
    char *out = text;
    for (int y = 0; y < b->height; y++) {
        char *row = out;
        for (int x = 0; x < b->width; x++) {
            int s = y * b->width + x;
            bool goal = b->flags[s] & BOARD_GOAL;
            char c = LEVEL_FLOOR;
            if (b->flags[s] & BOARD_WALL)
                c = LEVEL_WALL;
            else if (p->boxes[s])
                c = goal ? LEVEL_BOX_ON_GOAL : LEVEL_BOX;
            else if (s == p->player)
                c = goal ? LEVEL_PLAYER_ON_GOAL : LEVEL_PLAYER;
            else if (goal)
                c = LEVEL_GOAL;
            *out++ = c;
        }
        while (out > row && out[-1] == LEVEL_FLOOR) out--;
        *out++ = '\n';
    }
    *out = '\0';
    return text;
}
