/* optimizer_trips.h - the goal room filled in another order: a search by pushes over box
 * trips (part of the optimizer module, optimizer.h; not for other modules).
 *
 * The vicinity search keeps the order in which the best fills the goals. Here, from a
 * position, a best-first search by pushes whose every step is a trip: one box pushed, the
 * others standing still, to an empty goal by the fewest pushes (the player walking where he
 * can). Its bound is the matching of the boxes to the goals over the push distances of a lone
 * box (solver_bound.h), which never overestimates a trip; its open list is ordered by pushes
 * plus `weight` times the bound (1: A*, the fewest pushes over all orders of trips). Where a
 * box must first step aside, off any goal, trips alone have no solution: the request may give
 * the parks of a solution (its runs of pushes of one box that end off a goal), each made (or
 * passed) in its turn, after as many trips as that solution made before it. */
#ifndef SOKOBAN_OPTIMIZER_TRIPS_H
#define SOKOBAN_OPTIMIZER_TRIPS_H

#include <stdatomic.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "optimizer_search.h"
#include "rules/board.h"
#include "solver_bound.h"

typedef struct optimizer_trips_request {
    const board *board;
    const position *from;              /* where the trips start */
    const solver_distances *distances; /* the level's push distances (needed) */
    int limit_pushes;                  /* only a solution of fewer pushes from `from` */
    double deadline;                   /* on optimizer_clock(); 0: none */
    uint64_t max_nodes;                /* positions expanded; 0: no limit */
    size_t max_bytes;
    const atomic_bool *cancel;
    int weight; /* the open list by pushes + weight x bound (1 or less: A*) */
    /* NULL, or the parks of a solution from `from` in its order: between its trips, the box
     * on parks[2i] taken to parks[2i + 1] (or not); park_after[i]: the trips before it */
    const int *parks;
    const int *park_after;
    int park_count;
} optimizer_trips_request;

/* Searches; on OPTIMIZER_SEARCH_FOUND, *pushes (malloc'd) holds *count pushes from `from` to a
 * solved position. *nodes counts the positions expanded. */
optimizer_search_status optimizer_trips(const optimizer_trips_request *request,
                                        optimizer_push **pushes, int *count, uint64_t *nodes);

#endif
