/* solver_penalty.h - the optimal mode's pair penalties: two boxes that get in each other's
 * way cost more pushes than their distances say.
 *
 * Take two boxes a and b and the player's square, with no other box on the board. A
 * breadth-first search over their pushes (each box followed: a stays a) finds, for every
 * two goals g and h it reaches with a on g and b on h, the fewest pushes D(g, h). The pair's
 * penalty is the least over those of D(g, h) - d(a, g) - d(b, h), d being the push distances
 * of the matching (solver_bound.h). It is positive when the two block each other whatever
 * goals they end on: one must step aside in a corridor for the other, or be pushed out of
 * the way and back.
 *
 * Admissible beside the matching: in a solution of the whole position let a end on g and b
 * on h. Its pushes of a and b, made with no other box on the board, still bring a onto g and
 * b onto h (the player walks where the other boxes stood, and nothing stands where a push
 * goes), so a and b take at least D(g, h) >= d(a, g) + d(b, h) + penalty pushes. Every other
 * box takes at least its distance to its last goal, and the matching is the least sum of
 * distances over every assignment, so the matching plus the penalties of pairs sharing no
 * box is a lower bound. The distances d are those of the pair alone on the board: the player
 * reaches at least the sides he reaches among all the boxes, so they are never less than the
 * matching's.
 *
 * Rolling Stone (Junghanns and Schaeffer, 2001) finds penalties of box groups by a search
 * during the IDA* ("pattern search"); here groups of two, asked of boxes near each other,
 * and of three round the pairs with a penalty, each answer kept in a table. Part of the solver (solver.h); internal to it. One per search:
 * not shared between threads. */
#ifndef SOKOBAN_SOLVER_PENALTY_H
#define SOKOBAN_SOLVER_PENALTY_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "rules/board.h"
#include "solver_bound.h"
#include "solver_heap.h"
#include "solver_options.h"
#include "solver_rows.h"

enum {
    /* the pair searches give up (penalty 0) beyond this many positions */
    SOLVER_PENALTY_MOST_STATES = 1 << 14,
    /* and the triple searches beyond this many */
    SOLVER_PENALTY_TRIPLE_STATES = 1 << 16,
    /* the answers kept, at most (then the table is emptied and starts again) */
    SOLVER_PENALTY_MOST_ANSWERS = 1 << 20,
    /* the boxes asked about as pairs are this many squares apart at most */
    SOLVER_PENALTY_REACH = 3,
    /* a pair with a penalty is asked about with each third box this near either of its boxes */
    SOLVER_PENALTY_TRIPLE_REACH = 1,
    /* a position with more pairs and triples with a penalty keeps no list (its children scan
     * afresh) */
    SOLVER_PENALTY_LEVEL_PAIRS = 128,
};

/* A pair of boxes with a penalty, as a position's list keeps it (solver_penalties_at). */
typedef struct solver_penalty_pair {
    uint32_t order;    /* its place in solver_penalties_near's scan: first box * 64 + where */
    int first, second; /* the boxes (first: the one on the lesser square) */
    int third;         /* a triple's third box (solver_penalties_triple), or -1: a pair */
    int penalty;
} solver_penalty_pair;

/* The pairs with a penalty of the position at one depth of a search's path. */
typedef struct solver_penalty_level {
    uint64_t key; /* the position's box key (0 with count -1: none kept) */
    int player;   /* the player's region it was kept with */
    int count;    /* pairs in the list, -1 when it overflowed (not kept) */
} solver_penalty_level;

typedef struct solver_penalties {
    const board *board;
    const solver_distances *distances;
    /* the answers: keys (0: none) and penalties, open addressing */
    uint64_t *keys;
    uint8_t *values;
    uint32_t mask, used;
    /* the pair search's work space */
    uint64_t *seen_keys; /* the positions it reached, open addressing */
    uint32_t *seen_stamp;
    int *seen_pushes; /* the fewest pushes it reached each with */
    uint32_t stamp, seen_count;
    int *queue;             /* (a, b, player square, pushes) per position opened */
    int node_count;         /* positions opened */
    solver_heap heap;       /* the open ones: (estimate, position), least first */
    int *start_a, *start_b; /* per goal: the distance of a and of b at the start */
    int *first, *second;    /* per goal: estimate()'s work space */
    int *start_c, *third;   /* the same for a triple's third box */
    bool triples; /* triples round the pairs with a penalty (solver_penalties_allow_triples) */
    uint32_t seen_size; /* the searches' hash set: a power of two */
    /* per box of a triple and square: its three least goals and values (estimate3), valid
     * where least_stamp is the search's stamp */
    int *least;
    uint32_t *least_stamp;
    int *goal_of;           /* per square: its goal, or -1 */
    uint32_t *flood;
    uint32_t flood_stamp;
    int *flood_queue;
    /* the floor as rows of bits, where the board fits (solver_rows.h; else floor NULL): the
     * region of a pair alone is flooded a row at a time, over the rows' `open` (the pair's
     * two boxes only) into their `reach`, which only this search uses */
    solver_rows rows;
    uint8_t *taken; /* per box: in a pair already (solver_penalties_near's work space) */
    solver_penalty_pair *pairs; /* the pairs solver_penalties_near() found */
    int pairs_room;
    /* when to give up (may be NULL): looked at inside the searches each time `work` (squares
     * flooded and goals looked at, over all searches) has grown by a fixed amount; once it
     * says so, pairs and triples not kept yet answer 0 without a search */
    const solver_stop *stop;
    bool stopped;
    uint64_t work, stop_read_at;
    uint64_t searches, positive; /* counters, for measurements */
    /* solver_penalties_at's lists, SOLVER_PENALTY_LEVEL_PAIRS a depth, the largest first */
    solver_penalty_pair *level_pairs;
    solver_penalty_level *levels;
    int level_room;
    uint64_t repaired; /* positions whose list came from their parent's (measurements) */
    uint64_t triples_taken; /* triples put in a list, above their pair (measurements) */
} solver_penalties;

/* Sets up the penalties of `board` with its push `distances`. False when out of memory. */
bool solver_penalties_init(solver_penalties *p, const board *board,
                           const solver_distances *distances);
void solver_penalties_free(solver_penalties *p);

/* Asks triples too (solver_penalties_triple; without, each answers 0): their searches' work
 * space, solver_penalties_triple_bytes() more, taken now. False when out of memory (the
 * penalties are then left as they were); on a board of more than 40,000 squares, too large
 * for a triple's key, it asks none. */
bool solver_penalties_allow_triples(solver_penalties *p);
size_t solver_penalties_triple_bytes(const board *board);

/* The penalty of the boxes on squares a and b with the player on `player` and no other box
 * on the board: searched the first time, kept for the next. */
int solver_penalties_pair(solver_penalties *p, int a, int b, int player);

/* The penalty of the boxes on squares a, b and c with the player on `player` and no other
 * box on the board, by the same search over the three boxes' pushes: the least over three
 * goals of D(g, h, i) - d(a, g) - d(b, h) - d(c, i) when it is larger than each of its three
 * pairs' penalties, else 0 (so that it does not depend on the pair that asks). Admissible
 * beside the matching for the same reason as a pair's, and beside other pairs and triples
 * that share no box with it. Searched the first time, kept for the next. */
int solver_penalties_triple(solver_penalties *p, int a, int b, int c, int player);

/* The penalties of a position's boxes near each other (SOLVER_PENALTY_REACH squares apart
 * or less, counting along the axes), `count` boxes on `box_square`, `box_at` giving the box
 * on a square or -1: the pairs with a penalty, and for each of them the triples it makes
 * with a third box near either of its boxes (SOLVER_PENALTY_TRIPLE_REACH) whose penalty is
 * larger than the pair's; the largest first, each taken unless it shares a box with one taken
 * before; their sum. */
int solver_penalties_near(solver_penalties *p, const int *box_square, const int *box_at, int count,
                          int player);

/* The same sum as solver_penalties_near() for the position at `depth` of a search's path
 * (0: its root), whose boxes have the key `key`, and keeps its list of pairs with a penalty
 * for the positions one push below it. When box `moved` (-1: none) was the one moved by
 * the push from the position at depth - 1 and that position's list was kept under
 * `parent_key`, only the moved box's pairs are asked again: every other pair has the same
 * squares, and the same penalty even when the player's region changed, since a pair's
 * penalty depends only on the region of the pair alone on the board, and the push moved the
 * player to a square next to his old one (or along a macro's free squares) that is neither
 * box of the pair. Sums equal to solver_penalties_near()'s to the unit (ties taken in its
 * scan's order). */
int solver_penalties_at(solver_penalties *p, int depth, uint64_t key, uint64_t parent_key,
                        int moved, const int *box_square, const int *box_at, int count, int player);

/* What the pairs add for the position one push below the one at `depth` - 1 (kept under
 * `parent_key`), `moved` being the box pushed, without asking any pair: the parent's choice
 * of pairs (solver_penalties_at) less the moved box's pair. Those pairs share no box and keep
 * their penalties in the child (solver_penalties_at), so the matching plus their sum is a
 * lower bound there too (not always solver_penalties_at()'s sum: the moved box's new pairs
 * may add more, or change the choice). 0 when the parent's list is not kept, and when the
 * push changed the player's region `player`: sound either way, but taken after such pushes
 * too it gave the last iteration's move ordering (solver_below.h) bounds that led XSokoban 5's
 * last iteration astray (43.7 million nodes against 2 million). Cheap: no search, no scan. */
int solver_penalties_kept(solver_penalties *p, int depth, uint64_t parent_key, int moved,
                          int player);

#endif
