/* optimizer_pull.h - a base solution by another route for the optimizer (part of the
 * optimizer module, optimizer.h; not for other modules).
 *
 * The vicinity search (optimizer_search.h) never leaves the routes of the solution it is
 * given: where the fast mode packs a goal room by another order than the shortest, the
 * boxes' routes differ by more than a few squares (XSokoban 22: the box that fills the
 * square inside the left entrance comes first, and four boxes then go round to the other
 * entrances). Here a weighted A* by pulls from the boxes on the goals towards the start's
 * boxes, bound by the matching of the boxes to the start's squares over the pulls a lone box
 * needs, empties the goal room the short way; its fast bound leaves it lost where the
 * start's boxes are packed, so once a tenth of the way is behind it, the fast mode
 * (solver.h) is run from the start to a few of its states spread along its way (the board's
 * goals moved onto their boxes), and its pushes followed by the pulls read backwards are
 * offered as a solution: joined at whichever of its positions the pulls' store holds (the
 * boxes and the player's region), and where it ends with the player in another region than
 * the state's, by a few pushes found from there to a state of the store. Each is checked by
 * the caller. Given the first pushes of a solution, it does the same from the position they
 * lead to (the rest of that solution by another route), where the boxes have left the
 * start's packing. */
#ifndef SOKOBAN_OPTIMIZER_PULL_H
#define SOKOBAN_OPTIMIZER_PULL_H

#include <stdatomic.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "optimizer_search.h"
#include "rules/board.h"

typedef enum optimizer_pull_status {
    OPTIMIZER_PULL_FOUND, /* at least one solution offered was kept */
    OPTIMIZER_PULL_NONE,  /* none, the searches ended */
    OPTIMIZER_PULL_LIMIT, /* none, time, nodes or memory ran out (or cancelled) */
    OPTIMIZER_PULL_ERROR, /* out of memory at the start */
} optimizer_pull_status;

typedef struct optimizer_pull_request {
    const board *board;
    const position *start;
    /* NULL, or pushes from the start (legal, those of a solution) after which the search
     * starts: the pulls then meet the position they lead to, and every solution offered
     * begins with them */
    const optimizer_push *prefix;
    int prefix_count;
    int limit_pushes;    /* only a solution of fewer pushes is offered, the prefix counted */
    double deadline;     /* on ida_clock(); 0: none */
    uint64_t max_nodes;  /* both searches' nodes; 0: no limit */
    uint64_t meet_nodes; /* each run of the fast mode's; 0: what is left */
    double meet_seconds; /* each run of the fast mode's time at most; 0: till the deadline */
    size_t max_bytes;    /* each search's memory */
    const atomic_bool *cancel;
    /* Told of each solution found with fewer pushes than the last kept: the pushes from the
     * start (the player's walks between them not checked); true when the caller keeps it
     * (it replays, solves and is shorter), and only fewer pushes are offered after it. */
    bool (*offer)(void *argument, const optimizer_push *pushes, int count);
    void *offer_argument;
} optimizer_pull_request;

/* Searches; *nodes counts both searches' nodes. */
optimizer_pull_status optimizer_pull_base(const optimizer_pull_request *request, uint64_t *nodes);

#endif
