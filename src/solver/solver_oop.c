/* solver_oop.c - boxes out of the plan (solver_oop.h). */
#include "solver_oop.h"

#include <stdlib.h>
#include <string.h>

/* The work of the zones, about (layers x floor squares x floor squares) steps, is kept under
 * this; beyond it no zones are worked out. */
#define OOP_WORK ((uint64_t)1 << 26)

/* Work space of the zones: the inside squares numbered 0 .. floor_count - 1, and for each
 * square a box may stand on, the parts the free floor falls into round it. */
typedef struct zones {
    const board *board;
    int floor_count;
    int *floor;      /* floor index -> square */
    int *index;      /* square -> floor index, -1 off the floor */
    uint16_t *part;  /* part[box index * floor_count + square index]: 0 for the box or a
                        wall, else its part of the floor round the box */
    uint8_t *wall;   /* per square: a goal filled (or the board's wall) */
    uint8_t *source; /* per square: a lone box there reaches a target still to fill */
    uint8_t *seen;   /* per (square, side) state of the pulls */
    int *queue;      /* of squares, then of states */
} zones;

/* The parts of the free floor (no box, `wall` walls) round a box on each floor square, by
 * one flood per square. */
static void label_parts(zones *z)
{
    const board *b = z->board;
    int n = z->floor_count;
    for (int box = 0; box < n; box++) {
        uint16_t *part = z->part + (size_t)box * (size_t)n;
        memset(part, 0, (size_t)n * sizeof *part);
        if (z->wall[z->floor[box]]) continue;
        uint16_t next = 0;
        for (int start = 0; start < n; start++) {
            if (start == box || part[start] || z->wall[z->floor[start]]) continue;
            part[start] = ++next;
            int head = 0, tail = 0;
            z->queue[tail++] = start;
            while (head < tail) {
                int square = z->floor[z->queue[head++]];
                for (int d = 0; d < DIRECTION_COUNT; d++) {
                    int k = z->index[square + b->delta[d]];
                    if (k < 0 || k == box || part[k] || z->wall[z->floor[k]]) continue;
                    part[k] = next;
                    z->queue[tail++] = k;
                }
            }
        }
    }
}

/* z->source: the squares from which a lone box is pushed to a square of `target`, the player
 * walking round it: pulls back from the targets over (box square, player side) states. */
static void find_sources(zones *z, const uint8_t *target)
{
    const board *b = z->board;
    int n = z->floor_count;
    memset(z->source, 0, (size_t)b->size);
    memset(z->seen, 0, (size_t)n * DIRECTION_COUNT);
    int head = 0, tail = 0;
    for (int k = 0; k < n; k++) {
        int square = z->floor[k];
        if (!target[square] || z->wall[square]) continue;
        z->source[square] = 1;
        for (int d = 0; d < DIRECTION_COUNT; d++) {
            int side = z->index[square + b->delta[d]];
            if (side < 0 || z->wall[z->floor[side]]) continue;
            z->seen[k * DIRECTION_COUNT + d] = 1;
            z->queue[tail++] = k * DIRECTION_COUNT + d;
        }
    }
    while (head < tail) {
        int state = z->queue[head++], box = state / DIRECTION_COUNT;
        int square = z->floor[box];
        const uint16_t *part = z->part + (size_t)box * (size_t)n;
        uint16_t here = part[z->index[square + b->delta[state % DIRECTION_COUNT]]];
        /* the push that brought the box here in direction d left the player on the square
         * it came from, in the player's part; before it he stood one further back */
        for (int d = 0; d < DIRECTION_COUNT; d++) {
            int from = z->index[square - b->delta[d]];
            if (from < 0 || z->wall[z->floor[from]] || part[from] != here) continue;
            int behind = z->index[z->floor[from] - b->delta[d]];
            if (behind < 0 || z->wall[z->floor[behind]]) continue;
            /* the box on `from`, the player behind it: direction index of that side */
            int side = -1;
            for (int e = 0; e < DIRECTION_COUNT; e++)
                if (z->floor[from] + b->delta[e] == z->floor[behind]) side = e;
            int next = from * DIRECTION_COUNT + side;
            if (z->seen[next]) continue;
            z->seen[next] = 1;
            z->source[z->floor[from]] = 1;
            z->queue[tail++] = next;
        }
    }
}

/* The pushes of a lone box from `zone` to every square, the walls z->wall, into `distance`. */
static void distances_from(zones *z, const uint8_t *zone, uint16_t *distance)
{
    const board *b = z->board;
    for (int square = 0; square < b->size; square++) distance[square] = SOLVER_NO_PATH;
    int head = 0, tail = 0;
    for (int k = 0; k < z->floor_count; k++)
        if (zone[z->floor[k]]) {
            distance[z->floor[k]] = 0;
            z->queue[tail++] = z->floor[k];
        }
    while (head < tail) {
        int square = z->queue[head++];
        for (int d = 0; d < DIRECTION_COUNT; d++) {
            int to = square + b->delta[d], behind = square - b->delta[d];
            if (z->index[to] < 0 || z->index[behind] < 0 || z->wall[to] || z->wall[behind] ||
                distance[to] != SOLVER_NO_PATH)
                continue;
            distance[to] = (uint16_t)(distance[square] + 1);
            z->queue[tail++] = to;
        }
    }
}

static void free_zones(zones *z)
{
    free(z->floor);
    free(z->index);
    free(z->part);
    free(z->wall);
    free(z->source);
    free(z->seen);
    free(z->queue);
}

/* Layer `layer`'s own zone into `zone`: the goals of `layer` and above made walls. */
static void own_zone(zones *z, const solver_features *f, const solver_distances *d, int layer,
                     uint8_t *zone, uint8_t *target)
{
    const board *b = z->board;
    memset(z->wall, 0, (size_t)b->size);
    memset(target, 0, (size_t)b->size);
    bool later = false;
    for (int t = 0; t < f->target_count; t++) {
        int square = solver_features_square(f, b, t);
        if (t < b->goal_count && f->layer[t] >= layer) z->wall[square] = 1;
        if (f->layer[t] < layer) {
            target[square] = 1;
            later = true;
        }
    }
    memset(zone, 0, (size_t)b->size);
    if (!later) return;
    label_parts(z);
    find_sources(z, target);
    for (int k = 0; k < z->floor_count; k++) {
        int square = z->floor[k];
        if (!z->wall[square] && !z->source[square] && !solver_square_is_dead(d, square))
            zone[square] = 1;
    }
}

bool solver_oop_init(solver_oop *o, const board *b, const solver_features *f,
                     const solver_distances *d)
{
    *o = (solver_oop){.size = b->size};
    for (int t = 0; t < f->target_count; t++)
        if (f->layer[t] + 1 > o->layers) o->layers = f->layer[t] + 1;
    zones z = {.board = b};
    for (int square = 0; square < b->size; square++)
        if (board_is_inside(b, square)) z.floor_count++;
    uint64_t work = (uint64_t)o->layers * (uint64_t)z.floor_count * (uint64_t)z.floor_count;
    if (o->layers == 0 || z.floor_count > SOLVER_OOP_MAX_FLOOR || work > OOP_WORK) {
        o->layers = 0;
        return true;
    }
    size_t n = (size_t)z.floor_count, size = (size_t)b->size;
    o->zone = calloc((size_t)o->layers * size, 1);
    o->distance = malloc((size_t)o->layers * size * sizeof *o->distance);
    o->squares = calloc((size_t)o->layers, sizeof *o->squares);
    o->in_any = calloc(size, 1);
    z.floor = malloc(n * sizeof *z.floor);
    z.index = malloc(size * sizeof *z.index);
    z.part = malloc(n * n * sizeof *z.part);
    z.wall = malloc(size);
    z.source = malloc(size);
    z.seen = malloc(n * DIRECTION_COUNT);
    z.queue = malloc(n * DIRECTION_COUNT * sizeof *z.queue);
    uint8_t *target = malloc(size);
    if (!o->zone || !o->distance || !o->squares || !o->in_any || !z.floor || !z.index || !z.part ||
        !z.wall || !z.source || !z.seen || !z.queue || !target) {
        free(target);
        free_zones(&z);
        return false;
    }
    for (int square = 0, k = 0; square < b->size; square++) {
        z.index[square] = board_is_inside(b, square) ? k : -1;
        if (z.index[square] >= 0) z.floor[k++] = square;
    }
    for (int layer = 0; layer < o->layers; layer++)
        own_zone(&z, f, d, layer, o->zone + (size_t)layer * size, target);
    /* Looking ahead (Festival): the layers are filled from the highest down; each layer
     * since the last change of zone takes the zone of the next layer that changes it. The
     * last layer has no later targets, so no zone, and changes none. */
    int last = o->layers - 1;
    for (int layer = o->layers - 2; layer >= 1; layer--) {
        uint8_t *mine = o->zone + (size_t)layer * size;
        if (memcmp(mine, mine + size, size) == 0) continue;
        for (int k = last; k > layer; k--) memcpy(o->zone + (size_t)k * size, mine, size);
        last = layer;
    }
    for (int layer = 0; layer < o->layers; layer++) {
        const uint8_t *zone = o->zone + (size_t)layer * size;
        for (size_t square = 0; square < size; square++) {
            o->squares[layer] += zone[square];
            o->in_any[square] |= zone[square];
        }
        o->any = o->any || o->squares[layer] > 0;
        /* the walls of the layer itself, for the pushes out of its zone */
        memset(z.wall, 0, size);
        for (int t = 0; t < b->goal_count; t++)
            if (f->layer[t] >= layer) z.wall[b->goals[t]] = 1;
        distances_from(&z, zone, o->distance + (size_t)layer * size);
    }
    free(target);
    free_zones(&z);
    return true;
}

void solver_oop_free(solver_oop *o)
{
    free(o->zone);
    free(o->distance);
    free(o->squares);
    free(o->in_any);
    *o = (solver_oop){0};
}

const uint8_t *solver_oop_zone(const solver_oop *o, int current)
{
    if (!o->any || current < 0 || current >= o->layers || o->squares[current] == 0) return NULL;
    return o->zone + (size_t)current * (size_t)o->size;
}

int solver_oop_count(const solver_oop *o, int current, const int *box_square, int count)
{
    const uint8_t *zone = solver_oop_zone(o, current);
    int out = 0;
    for (int i = 0; zone && i < count; i++) out += zone[box_square[i]];
    return out;
}
