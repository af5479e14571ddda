/* ida.h - iterative-deepening A* (Korf 1985), independent of any puzzle.
 *
 * A domain keeps its own current state and lets the engine change it through callbacks:
 * list the moves from here, make one (which returns the new state's lower bound h), take
 * it back. The engine runs depth-first iterations bounded by a cost threshold; each new
 * threshold is the smallest f = g + h that exceeded the previous one. When an iteration
 * finds no such f the space is exhausted and the answer is "unsolvable". It counts nodes,
 * watches the node limit, the deadline and a cancellation flag, and reports progress.
 *
 * Time is one clock, ida_clock(): a time limit travels from the option or the key down to
 * the search as a deadline on it, and every search looks at it through ida_clock_check.
 *
 * The Sokoban solver (solver.h) and the sliding-tile puzzles (tiles.h) are its
 * two domains; nothing here knows either. */
#ifndef SOKOBAN_IDA_H
#define SOKOBAN_IDA_H

#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>

/* A move, encoded as the domain likes. */
typedef uint32_t ida_move;

enum {
    /* A bound larger than any real cost. */
    IDA_INFINITY = 1 << 28,
    /* Returned by make() for a state the search must not enter: a deadlock, or a
     * transposition already searched at a lower or equal cost. It does not count towards
     * the next threshold; the domain must only return it when that is sound. */
    IDA_PRUNE = -1,
};

typedef enum ida_status {
    IDA_SOLVED,
    IDA_UNSOLVABLE, /* the whole space was searched: no solution */
    IDA_LIMIT,      /* a node, time or depth limit was reached */
    IDA_CANCELLED,
    IDA_NO_MEMORY,
} ida_status;

typedef struct ida_domain {
    void *context;
    /* The most moves expand() can return for one state. */
    int max_moves;
    /* Lower bound of the current (root) state, or IDA_INFINITY when it is lost. Called once
     * per search, before the first iteration. */
    int (*root_bound)(void *context);
    /* Starts an iteration with the given threshold (optional, may be NULL). */
    void (*begin_iteration)(void *context, int threshold);
    /* Writes the moves of the current state into `moves`, best first; returns how many. */
    int (*expand)(void *context, ida_move *moves);
    /* Makes `move` from the current state, reached at cost `g`. Sets *cost to the move's
     * cost (at least 1) and returns the new state's h, or IDA_PRUNE. When it returns
     * IDA_PRUNE the engine still calls unmake(). */
    int (*make)(void *context, ida_move move, int g, int *cost);
    /* Takes back the last move made. */
    void (*unmake)(void *context, ida_move move);
    /* True when the current state is a goal. Only asked when make() returned 0. */
    bool (*is_goal)(void *context);
    /* In a team: true when the state just made was entered while another member is still
     * below it (optional, may be NULL). A member searching with the others defers such a
     * move: it takes it back and tries it again once the rest of the list was tried. */
    bool (*shared)(void *context);
    /* IDA_SOLVED while the domain's answers hold; else why they no longer do (IDA_NO_MEMORY,
     * or IDA_LIMIT for a bound given up at a limit): the search stops with it, and so does
     * its whole team, whose other members would otherwise take the subtrees this one ended
     * with nothing below them as searched (optional, may be NULL). Asked when the search
     * looks at its limits and at the end of each iteration. */
    ida_status (*failed)(void *context);
} ida_domain;

typedef struct ida_progress {
    int threshold;
    uint64_t nodes;
    double seconds;
    double nodes_per_second;
} ida_progress;

/* Several searches of one problem at once, one a thread, each with a domain of its own over
 * a shared transposition table (opaque; ida_team_new). Their iterations run in step: the
 * next threshold is the least over all of them, and an iteration ends when every one has
 * ended it. While the iterations are short the first member searches alone; from the first
 * iteration of at least `parallel_after` nodes on, every member searches from the root, each
 * in the domain's order, and the table keeps them apart: a state another member has entered
 * at the same cost is left to it once it is left (the domain's make() must be that sound);
 * one it is still below is deferred to the end of the list (ida_domain.shared), and left to
 * it. A goal found by one stops the rest; the node limit is one for the team. */
typedef struct ida_team ida_team;

typedef struct ida_limits {
    uint64_t max_nodes;        /* 0: no limit */
    double deadline;           /* the ida_clock() time to stop at; 0: none */
    int max_depth;             /* 0: no limit other than memory. Deeper branches are cut,
                                  and a search that then finds nothing answers IDA_LIMIT */
    const atomic_bool *cancel; /* NULL, or set from another thread to stop the search */
    /* Called about every progress_interval seconds (default 0.25 when 0); may be NULL. */
    void (*progress)(void *argument, const ida_progress *progress);
    void *progress_argument;
    double progress_interval;
    ida_team *team; /* NULL, or the team this search is member `member` of */
    int member;
} ida_limits;

typedef struct ida_result {
    ida_status status;
    int cost;       /* of the solution found */
    ida_move *path; /* the solution's moves (malloc'd; free with ida_result_free) */
    int length;
    uint64_t nodes; /* states entered, over all iterations */
    int iterations;
    int threshold; /* the last threshold searched */
    double seconds;
} ida_result;

/* Searches from the domain's current state, which it leaves as it found it. Moves are
 * made in the order expand() gives; the first goal found is returned, so with an
 * admissible h and make() pruning soundly the solution's cost is the least possible. */
ida_status ida_search(const ida_domain *domain, const ida_limits *limits, ida_result *result);
void ida_result_free(ida_result *result);

/* What a team's shared state (the domains' table) is told. Each may be NULL. */
typedef struct ida_team_hooks {
    void *argument;
    /* Called once, by one member while the others wait, before the first iteration they
     * all search: the table made ready for threads. */
    void (*share)(void *argument);
    /* Asked by each member every few hundred nodes: true when the members should all stop
     * for `pause` (the table is to grow). Must be cheap and thread-safe. */
    bool (*pause_wanted)(void *argument);
    /* The pause (every member between two nodes, or at the end of the iteration), in up to
     * three steps: `pause` by one member while every other waits; then `pause_part` by each
     * member that paused between two nodes, all at once (each takes a share of the work
     * until none is left: it must be thread-safe between them); then `pause_end` by one
     * once every part has returned. */
    void (*pause)(void *argument);
    void (*pause_part)(void *argument);
    void (*pause_end)(void *argument);
} ida_team_hooks;

/* The most members a team takes. */
enum { IDA_TEAM_MOST = 64 };

/* A team of `members` searches (1 to IDA_TEAM_MOST); an iteration runs on the first member
 * alone until it passes `parallel_after` nodes, and is then searched again by all, as are
 * the rest. NULL when out of memory. */
ida_team *ida_team_new(int members, uint64_t parallel_after, const ida_team_hooks *hooks);
void ida_team_free(ida_team *team);
/* Said once by each member when it is done with the team, whether it searched or not (a
 * member that never calls ida_search must say it, or the others wait for it). */
void ida_team_quit(ida_team *team);
/* The flag the team sets once a member has found a goal or stopped (the rest then stop
 * too): a member still setting up, before its ida_search, may look at it and give up. */
const atomic_bool *ida_team_stopped(const ida_team *team);
/* After the members' ida_search returned: the member whose result holds the solution (its
 * status IDA_SOLVED, the others' IDA_CANCELLED), or -1 (every member's status is then the
 * team's). */
int ida_team_finder(const ida_team *team);

/* The status as a word: "solved", "unsolvable", "limit", "cancelled", "no memory". */
const char *ida_status_name(ida_status status);

/* Seconds on the monotonic clock every deadline is on. */
double ida_clock(void);

/* How often a search looks at the clock (and at its deadline and cancel flag): every
 * IDA_CHECK_EVERY nodes at most, at a few microseconds a node. A node can cost a millisecond
 * (a level of a thousand boxes), so the interval adapts: halved while the looks come more
 * than IDA_CHECK_SECONDS apart, doubled back while they come sooner. A deadline or a cancel
 * is seen within about IDA_CHECK_SECONDS whatever a node costs. */
enum { IDA_CHECK_EVERY = 256 };
#define IDA_CHECK_SECONDS 0.002

typedef struct ida_clock_check {
    uint64_t next;  /* the node count of the next look */
    uint64_t every; /* nodes between looks, 1 .. IDA_CHECK_EVERY */
    double last;    /* the time of the last look */
} ida_clock_check;

/* A check started at time `now`, its first look at node count `first`. */
static inline ida_clock_check ida_clock_check_start(double now, uint64_t first)
{
    return (ida_clock_check){.next = first, .every = IDA_CHECK_EVERY, .last = now};
}

/* True when the search, at `nodes` nodes, is due to look. */
static inline bool ida_clock_check_due(const ida_clock_check *check, uint64_t nodes)
{
    return nodes >= check->next;
}

/* Looks at the clock at `nodes` nodes: adapts the interval, sets the next look (never past
 * `node_limit` when it is not 0, so that a node limit is kept exactly) and returns the
 * time. */
double ida_clock_check_look(ida_clock_check *check, uint64_t nodes, uint64_t node_limit);

#endif
