/* solver.c - the solver's public entry: sets up the per-level tables, runs the mode's search
 * on the Sokoban domain (IDA* for the optimal mode, the feature-space search of
 * solver_fast.h for the fast one), fills the player's walking in between the pushes and
 * replays the result before it is returned. */
#include "solver.h"

#include <assert.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "rules/deadlock.h"
#include "ida.h"
#include "solver_below.h"
#include "solver_bound.h"
#include "solver_corral_deadlock.h"
#include "solver_domain.h"
#include "solver_fast.h"
#include "solver_features.h"
#include "solver_frozen.h"
#include "solver_learned.h"
#include "solver_macro.h"
#include "solver_memory.h"
#include "solver_pairs.h"
#include "solver_penalty.h"
#include "solver_table.h"
#include "solver_team.h"
#include "solver_threads.h"
#include "solver_walking.h"

/* The fast mode's second and later searches start only when the first has run this long
 * without an answer: most levels are solved sooner, and then never pay for a thread, its
 * set-up and its share of the cores (docs/SOLVER.md, "The fixed cost per level"). */
#define RACE_STAGGER_SECONDS 0.02

const char *solver_status_name(solver_status status)
{
    static const char *const names[] = {[SOLVER_SOLVED] = "solved",
                                        [SOLVER_UNSOLVABLE] = "unsolvable",
                                        [SOLVER_LIMIT] = "limit",
                                        [SOLVER_CANCELLED] = "cancelled",
                                        [SOLVER_ERROR] = "error"};
    return (unsigned)status < sizeof names / sizeof names[0] ? names[status] : "?";
}

void solver_result_free(solver_result *result)
{
    free(result->steps);
    result->steps = NULL;
}

/* ---- from pushes to a full solution ---------------------------------------------------- */

/* The check promised by solver.h: replays the steps one by one with the rules (board.h)
 * from `start`. True when every step is legal, pushes where it says it pushes, makes
 * `pushes` pushes and ends with every box on a goal, or at a position options->known
 * accepts (*ends_known is set then). */
static bool replay_solves(const board *b, const position *start, const solver_step_list *steps,
                          int pushes, const solver_options *options, bool *ends_known)
{
    position p;
    if (!position_copy(&p, start, b)) return false;
    bool ok = true;
    int pushed = 0;
    for (int i = 0; ok && i < steps->count; i++) {
        step_result r = board_step(b, &p, steps->steps[i].direction);
        ok = r != STEP_BLOCKED && (r == STEP_PUSHED) == steps->steps[i].push;
        if (r == STEP_PUSHED) pushed++;
    }
    *ends_known = false;
    if (ok && pushed == pushes && !position_is_solved(&p, b)) {
        *ends_known =
            options->known && options->known(options->known_argument, solver_position_key(b, &p));
        ok = *ends_known;
    }
    ok = ok && pushed == pushes;
    position_free(&p);
    return ok;
}

/* ---- the search ------------------------------------------------------------------------ */

typedef struct progress_relay {
    const solver_options *options;
} progress_relay;

static void relay_progress(void *argument, const ida_progress *p)
{
    const progress_relay *relay = argument;
    solver_progress progress = {
        .threshold = p->threshold,
        .nodes = p->nodes,
        .seconds = p->seconds,
        .nodes_per_second = p->nodes_per_second,
    };
    relay->options->progress(relay->options->progress_argument, &progress);
}

static solver_status status_of(ida_status status)
{
    switch (status) {
    case IDA_SOLVED:
        return SOLVER_SOLVED;
    case IDA_UNSOLVABLE:
        return SOLVER_UNSOLVABLE;
    case IDA_LIMIT:
        return SOLVER_LIMIT;
    case IDA_CANCELLED:
        return SOLVER_CANCELLED;
    case IDA_NO_MEMORY:
        return SOLVER_ERROR;
    }
    return SOLVER_ERROR;
}

/* True when the solver can take the position: a box for every goal, boxes and player on
 * the board's floor. */
static bool position_is_searchable(const board *b, const position *start)
{
    if (start->player < 0 || start->player >= b->size || !board_is_inside(b, start->player))
        return false;
    int boxes = 0;
    for (int s = 0; s < b->size; s++) {
        if (!start->boxes[s]) continue;
        if (board_is_wall(b, s) || s == start->player) return false;
        boxes++;
    }
    return boxes == b->goal_count;
}

/* Sets the result to SOLVER_ERROR with its reason; returns the status. */
static solver_status refuse(solver_result *result, const char *reason, const char *format, ...)
    __attribute__((format(printf, 3, 4)));
static solver_status refuse(solver_result *result, const char *reason, const char *format, ...)
{
    result->status = SOLVER_ERROR;
    result->reason = reason;
    va_list arguments;
    va_start(arguments, format);
    vsnprintf(result->message, sizeof result->message, format, arguments);
    va_end(arguments);
    return result->status;
}

/* The level's dead squares for deadlock.h's checks, from the push distances just computed
 * (a square is dead when no goal can be reached from it): computed once, the same squares
 * for the pruning of both. False when out of memory. */
static bool dead_squares_init(deadlock_table *table, const board *b,
                              const solver_distances *distances)
{
    memset(table, 0, sizeof *table);
    uint8_t *live = malloc((size_t)b->size);
    if (!live) return false;
    for (int square = 0; square < b->size; square++)
        live[square] = !solver_square_is_dead(distances, square);
    bool ok = deadlock_table_init_from_live(table, b, live);
    free(live);
    return ok;
}

/* Puts the search back in the start position. */
static void restart(solver_search *search, const board *b, const position *start)
{
    int count = 0;
    for (int square = 0; square < b->size && count < search->box_count; square++)
        if (start->boxes[square]) search->box_square_scratch[count++] = (uint16_t)square;
    solver_search_set(search, search->box_square_scratch, start->player);
}

/* Runs the search and, when it succeeds, turns its pushes into a checked LURD solution. */
static void run_search(const board *b, const position *start, const solver_options *options,
                       size_t store_bytes, solver_search *search, solver_result *result)
{
    ida_domain domain;
    solver_search_domain(search, &domain);
    progress_relay relay = {.options = options};
    ida_limits limits = {
        .max_nodes = options->max_nodes,
        .deadline = options->deadline, /* the set-up spent some of the time already */
        .cancel = options->cancel,
        .progress = options->progress ? relay_progress : NULL,
        .progress_argument = &relay,
        .team = options->team,
        .member = options->team_member,
    };
    ida_result found;
    ida_status status;
    bool features = !(options->disable & SOLVER_NO_FEATURES);
    /* The backward search's nodes for each forward node: a quarter beside the feature-space
     * search, three beside the weighted best-first one, which gains most from it (measured:
     * docs/SOLVER.md). */
    double backward = options->disable & SOLVER_NO_BACKWARD ? 0 : features ? 0.25 : 3;
    if (options->mode == SOLVER_FAST) {
        status = solver_fast_search(search, &limits, store_bytes, features, backward, &found);
        if (status == IDA_UNSOLVABLE && search->counters.goal_room > 0) {
            /* Goal-room macros leave pushes out, so a search that ran dry with them proves
             * nothing: search again without them in what is left of the time. */
            uint64_t nodes = found.nodes;
            ida_result_free(&found);
            search->room = NULL;
            search->counters.goal_room = 0;
            restart(search, b, start);
            if (limits.max_nodes)
                limits.max_nodes = limits.max_nodes > nodes ? limits.max_nodes - nodes : 1;
            status = solver_fast_search(search, &limits, store_bytes, features, backward, &found);
            found.nodes += nodes;
        }
    } else {
        status = ida_search(&domain, &limits, &found);
    }
    /* a bound given up half-way (matching.stop) voids whatever the search said after it;
     * in a team the status is the team's (a member stopped by the team's flag has its
     * matching stopped too, and the finder's answer is sound: a bound of 0 is a lower bound),
     * a cancel aside */
    if (search->matching.stopped) {
        ida_status given_up = solver_stop_status(search->matching.stop);
        if (!options->team || (given_up == IDA_CANCELLED && status != IDA_SOLVED))
            status = given_up;
    }
    result->nodes = found.nodes;
    result->status = search->no_memory ? SOLVER_ERROR : status_of(status);
    if (result->status == SOLVER_ERROR)
        refuse(result, "out-of-memory", "out of memory during the search (memory limit %zu MiB)",
               solver_memory_for(options, 1) >> 20);
    if (result->status == SOLVER_SOLVED) {
        solver_step_list list = {0};
        bool ends_known = false;
        bool filled = solver_fill_in_walking(b, start, search, found.path, found.length, &list);
        if (filled && replay_solves(b, start, &list, found.cost, options, &ends_known)) {
            /* A checked solution has a step at least for every push. */
            assert(list.count >= found.cost);
            result->steps = list.steps;
            result->pushes = found.cost;
            result->moves = list.count;
            result->ends_known = ends_known;
        } else {
            free(list.steps);
            if (filled)
                refuse(result, "internal", "the solution found does not replay (a bug)");
            else
                refuse(result, "out-of-memory", "out of memory writing the solution");
        }
    }
    ida_result_free(&found);
}

/* The fast mode's restarts (solver_fast.h): after this many nodes of a search (about 1 s on
 * XSokoban; the levels solved sooner are not touched), searches afresh of this many nodes
 * each, as many nodes as the search's own between them. Measured in docs/SOLVER.md
 * ("Restarts"). */
#define RESTART_AFTER_NODES 500000
#define RESTART_NODES 150000
/* A restart's share of the search's memory, at most RESTART_MOST_BYTES (150,000 nodes keep
 * less than 16 MiB of states), and none below RESTART_LEAST_BYTES. */
#define RESTART_MEMORY_SHARE 16
#define RESTART_MOST_BYTES ((size_t)64 << 20)
#define RESTART_LEAST_BYTES ((size_t)4 << 20)

/* What a restart needs of the search it restarts from. */
typedef struct restart_context {
    const board *board;
    const solver_options *options; /* the search's, its deadline too */
    size_t memory_bytes;           /* the restart's memory */
    solver_learned *learned;       /* the deadlocks the searches of the board learn; may be NULL */
} restart_context;

/* Every second restart takes the advisors over whole box moves (solver_box_advisors.h), no
 * other search: they trade levels in a whole search (docs/SOLVER.md, section 18). The fast
 * search counts its restarts and hands each its kind (solver_fast.h). */
#define RESTART_BOX_MOVES_EVERY 2
/* The first of them goes from the search's start, with RESTART_START_NODES, when the start's
 * floor falls into more regions than the feature space tells apart: the joiner and the
 * opener untangle it before the boxes are packed, which the search without them does not
 * (XSokoban 28; docs/SOLVER.md, section 27). */
#define RESTART_START_NODES 400000

static void solve_search(const board *b, const position *start, const solver_options *options,
                         solver_learned *learned, bool box_moves, solver_result *result);

/* solver_search.restart: one search afresh, by the same strategy, from the search's state,
 * with its own packing order, store and feature space, learning into the board's deadlocks. */
static solver_restart_answer restart_from(void *argument, const solver_search *search,
                                          uint64_t budget, bool box_moves, ida_result *rest)
{
    restart_context *c = argument;
    const board *b = c->board;
    solver_options options = *c->options;
    if (options.deadline > 0 && ida_clock() >= options.deadline) return SOLVER_RESTART_OPEN;
    position p;
    if (!position_init(&p, b)) return SOLVER_RESTART_OPEN;
    for (int i = 0; i < search->box_count; i++) p.boxes[search->box_square[i]] = 1;
    p.box_count = search->box_count;
    p.player = search->player;
    options.max_nodes = budget;
    options.memory_bytes = c->memory_bytes;
    options.progress = NULL;
    options.known = NULL;     /* its steps end at a solved position */
    options.plan_from = NULL; /* its packing order from its own position */
    options.disable |= SOLVER_NO_RESTARTS;
    if (!search->park_early) options.disable |= SOLVER_NO_EARLY_ORDER;
    options.disable |= SOLVER_NO_PLAN_PICK; /* its order by YASS's rules (docs/SOLVER.md, 21b) */
    solver_result r;
    solve_search(b, &p, &options, c->learned, box_moves, &r);
    rest->nodes = r.nodes;
    solver_restart_answer answer = SOLVER_RESTART_OPEN;
    if (r.status == SOLVER_UNSOLVABLE)
        answer = SOLVER_RESTART_LOST;
    else if (r.status == SOLVER_SOLVED &&
             solver_pushes_of_steps(b, p.player, r.steps, r.moves, rest))
        answer = SOLVER_RESTART_SOLVED;
    solver_result_free(&r);
    position_free(&p);
    return answer;
}

/* Solves from `start` on `b` with one search; its deadlocks are learned in `learned`, shared
 * with the other searches of the board (NULL: in tables of its own). With `box_moves` the
 * fast mode's search takes the advisors over whole box moves the options leave on. */
static void solve_search(const board *b, const position *start, const solver_options *options,
                         solver_learned *learned, bool box_moves, solver_result *result)
{
    *result = (solver_result){.status = SOLVER_ERROR, .mode = options->mode};
    /* --time, cancel and a team's answer hold from here on, through the set-up */
    solver_stop stop = solver_stop_of(options);
    bool fast = options->mode == SOLVER_FAST;
    /* The optimal mode spends the memory on its transposition table, the fast mode on the
     * states it keeps. */
    size_t table_bytes = fast ? 0 : solver_search_bytes(options);
    int below_log2 = solver_below_log2_for(table_bytes); /* its share of the table's */
    bool with_below = !fast && !(options->disable & SOLVER_NO_BELOW) &&
                      table_bytes >= 16 * solver_below_bytes(below_log2);
    if (with_below) table_bytes -= solver_below_bytes(below_log2);
    /* the triple penalties' searches take their work space out of the table's too, when it
     * is at most a sixteenth of it */
    bool with_penalties = !fast && !(options->disable & SOLVER_NO_PENALTIES);
    size_t triple_bytes = solver_penalties_triple_bytes(b);
    bool with_triples = with_penalties && table_bytes >= 16 * triple_bytes;
    if (with_triples) table_bytes -= triple_bytes;
    solver_distances distances = {0};
    deadlock_table deadlocks = {0};
    solver_table table = {0};
    solver_search search = {0};
    solver_goal_room room = {0};
    solver_pairs pairs = {0};
    solver_triples triples = {0};
    solver_frozen frozen = {0};
    solver_penalties penalties = {0};
    solver_below below = {0};
    /* the optimal mode checks the boxes frozen on goals after each push (the fast mode at
     * each state it expands, with a check of its own) */
    bool frozen_check = !fast && !(options->disable & SOLVER_NO_FROZEN);
    if (solver_distances_init_until(&distances, b, &stop) &&
        dead_squares_init(&deadlocks, b, &distances) && !solver_stop_now(&stop) &&
        (options->shared_table || solver_table_init(&table, table_bytes)) &&
        !solver_stop_now(&stop) &&
        (!fast || (options->disable & SOLVER_NO_GOAL_ROOM) ||
         solver_goal_room_init(&room, b, start, &distances, &stop)) &&
        solver_search_init(&search, b, start, &distances, &deadlocks,
                           fast                    ? NULL
                           : options->shared_table ? options->shared_table
                                                   : &table,
                           room.doors ? &room : NULL, options) &&
        (!frozen_check || solver_frozen_init(&frozen, b, &distances)) &&
        (!with_penalties || solver_penalties_init(&penalties, b, &distances)) &&
        (!with_triples || solver_penalties_allow_triples(&penalties)) &&
        (!with_below || solver_below_init(&below, below_log2)) &&
        !solver_stop_now(&stop)) {    /* a search may answer before it first looks at the clock */
        search.matching.stop = &stop; /* a bound from scratch is O(boxes^3) */
        search.joiner_moves = search.joiner_moves && box_moves;
        search.opener_moves = search.opener_moves && box_moves;
        if (frozen_check) search.frozen_deadlocks = &frozen;
        if (with_penalties) {
            penalties.stop = &stop;
            search.penalties = &penalties;
        }
        if (search.corral_deadlocks) search.corral_deadlocks->stop = &stop;
        if (with_below) search.below = &below;
        if (learned) solver_search_share_learned(&search, learned);
        if (!(options->disable & SOLVER_NO_PAIRS)) {
            size_t most = solver_pairs_bytes(options);
            bool three = !(options->disable & SOLVER_NO_TRIPLES);
            const solver_triples *kept = NULL;
            const solver_pairs *made = NULL;
            if (learned) {
                made =
                    solver_learned_pairs(learned, b, &distances, most, &stop, three ? &kept : NULL);
            } else if (solver_pairs_init(&pairs, b, &distances, most)) {
                made = &pairs;
                if (three && solver_triples_init(&triples, &pairs, b, most, &stop)) kept = &triples;
            }
            solver_search_use_pairs(&search, made, kept);
        }
        /* the restarts' memory comes out of the search's */
        size_t store_bytes = solver_search_bytes(options);
        restart_context restarts = {.board = b, .options = options, .learned = learned};
        restarts.memory_bytes = store_bytes / RESTART_MEMORY_SHARE;
        if (restarts.memory_bytes > RESTART_MOST_BYTES) restarts.memory_bytes = RESTART_MOST_BYTES;
        if (fast && !(options->disable & SOLVER_NO_RESTARTS) &&
            restarts.memory_bytes >= RESTART_LEAST_BYTES) {
            search.restart = restart_from;
            search.restart_argument = &restarts;
            search.restart_after = RESTART_AFTER_NODES;
            search.restart_budget = RESTART_NODES;
            search.restart_box_moves_every = RESTART_BOX_MOVES_EVERY;
            search.restart_from_start = !(options->disable & SOLVER_NO_FROM_START);
            /* the regions the feature space tells apart (solver_features.h) */
            search.restart_start_regions = SOLVER_REGION_CELLS;
            search.restart_start_budget = RESTART_START_NODES;
            store_bytes -= restarts.memory_bytes;
        }
        run_search(b, start, options, store_bytes, &search, result);
    } else if (solver_stop_now(&stop))
        result->status = status_of(solver_stop_status(&stop));
    else
        refuse(result, "out-of-memory",
               "out of memory setting up the search (memory limit %zu MiB)",
               solver_memory_for(options, 1) >> 20);

    solver_search_free(&search);
    if (frozen.board) solver_frozen_free(&frozen);
    if (penalties.board) solver_penalties_free(&penalties);
    solver_below_free(&below);
    solver_triples_free(&triples);
    solver_pairs_free(&pairs);
    solver_goal_room_free(&room);
    solver_table_free(&table);
    deadlock_table_free(&deadlocks);
    solver_distances_free(&distances);
}

/* A race of strategies on one level (solver_threads.h): what they all solve, and the
 * result of each. */
typedef struct race_level {
    const board *board;
    const position *start;
    const solver_options *options; /* shared: memory and node limit divided by the runs */
    double began;                  /* the race's start: the runs' shares of time from it */
    solver_learned *learned;       /* the deadlocks they learn, shared; may be NULL */
    solver_learned *first_learned; /* the first run's: a copy of it, solver_learned_copy() */
    const position *plan_from;     /* the odd run's order part from it; NULL: none */
    solver_result *results;
} race_level;

/* The odd runs, in parts, each from what the ones before learned of deadlocks: FESS on the
 * order without parking squares for ODD_FIRST_SHARE of the time (at most ODD_FIRST_SECONDS)
 * and nodes (XSokoban 39, 50 and 87 halfway within 1.4 s); with a limit, FESS with parking
 * and the opener over whole box moves (solver_box_advisors.h) up to ODD_OPENER_SHARE
 * (XSokoban 28, 50 at push 120); FESS on the order by the first rules, which park fewer boxes
 * than YASS's (solver_packing.h), up to ODD_LATE_SHARE (XSokoban 14); then the weighted
 * best-first search (Sasquatch I 19 and 37 in 4 to 5 s). What the even runs miss most often
 * (docs/SOLVER.md, section 29). */
#define ODD_FIRST_SHARE 0.3
#define ODD_FIRST_SECONDS 3.0
#define ODD_OPENER_SHARE 0.45
#define ODD_LATE_SHARE 0.6
/* Before them, given an earlier position of the game whose boxes stood elsewhere
 * (solver_options.plan_from), FESS with parking on the order worked out from it, for
 * PLAN_SHARE of the limits and, with a deadline, at most PLAN_SECONDS (the later parts'
 * shares then PLAN_SHARE more each, the first part's seconds from its end): the hints as
 * played on XSokoban 31 and 50 at push 60 and 39 at push 360, which the race without it does
 * not answer in 2 million nodes (docs/SOLVER.md, section 29). */
#define PLAN_SHARE 0.2
#define PLAN_SECONDS 2.0
/* At a level's start (no such position), FESS with parking on the plan found by the
 * backward search over whole box pulls (solver_packing_search.h), for SEARCHED_SHARE of the
 * limits and at most PLAN_SECONDS, taken out of the first part's share (the later parts keep
 * theirs; moved on, they lost Microban I 109 at 20,000 nodes): the same levels solved at node
 * limits in fewer nodes (docs/SOLVER.md, section 29). */
#define SEARCHED_SHARE 0.1

/* True when a search that ended with `result` leaves room for another within `limits`
 * (whose time counts from `began`): it stopped at a limit (its own, or its memory) and was
 * not cancelled, nodes are left, and more than `least` of the time. */
static bool run_again(const solver_options *limits, double began, const solver_result *result,
                      double least)
{
    double now = ida_clock();
    return result->status == SOLVER_LIMIT && !(limits->cancel && atomic_load(limits->cancel)) &&
           !(limits->max_nodes && result->nodes >= limits->max_nodes) &&
           (limits->deadline <= 0 || limits->deadline - now > least * (limits->deadline - began));
}

/* The deadline at `share` of the time from `began` to `deadline` (0: none stays none). */
static double share_of_time(double began, double deadline, double share)
{
    return deadline > 0 ? began + share * (deadline - began) : 0;
}

/* Goes on after a search that ended with `result`: the search `then` (its node limit over
 * both; `box_moves` as solve_search's), its nodes counted with those before. */
static void run_then(const board *b, const position *start, solver_options then,
                     solver_learned *learned, bool box_moves, solver_result *result)
{
    uint64_t nodes = result->nodes;
    solver_result_free(result);
    if (then.max_nodes) then.max_nodes = then.max_nodes > nodes ? then.max_nodes - nodes : 1;
    solve_search(b, start, &then, learned, box_moves, result);
    result->nodes += nodes;
}

/* When `result` leaves room, goes on with `mine`, `off` off, up to `share` of its limits. */
static void run_part(const race_level *level, const solver_options *mine, unsigned off,
                     double share, bool box_moves, solver_result *result)
{
    if (!run_again(mine, level->began, result, 0)) return;
    solver_options part = *mine;
    part.disable |= off;
    part.deadline = share_of_time(level->began, mine->deadline, share);
    if (part.max_nodes && share < 1)
        part.max_nodes = (uint64_t)(share * (double)part.max_nodes) + 1;
    run_then(level->board, level->start, part, level->learned, box_moves, result);
}

/* Run `index` of the race on its share of the options (`mine`): even ones FESS, odd the parts. */
static void solve_run(const race_level *level, int index, solver_options mine,
                      solver_result *result)
{
    if (index % 2 == 0 || (mine.disable & SOLVER_NO_FEATURES)) { /* without: best-first once */
        solver_learned *learned = index == 0 ? level->first_learned : level->learned;
        solve_search(level->board, level->start, &mine, learned, false, result);
        return;
    }
    mine.disable |= SOLVER_NO_PLAN_PICK; /* the parts keep their own orders */
    /* the order of an earlier position first, the later parts' shares moved on by its own;
     * or at a level's start the plan by the backward search, out of the first part's share */
    bool searched =
        !level->plan_from &&
        !(mine.disable & (SOLVER_NO_PLAN_SEARCH | SOLVER_NO_PARKING | SOLVER_NO_PULL_HOME));
    bool planned = level->plan_from || searched;
    double from = level->began, after = level->plan_from ? PLAN_SHARE : 0;
    double lead = level->plan_from ? PLAN_SHARE : SEARCHED_SHARE;
    if (planned) {
        double end = share_of_time(from, mine.deadline, lead);
        solver_options plan = mine;
        plan.plan_from = level->plan_from;
        plan.searched_plan = searched;
        plan.deadline = mine.deadline > 0 && from + PLAN_SECONDS < end ? from + PLAN_SECONDS : end;
        if (mine.deadline == 0 && mine.max_nodes == 0) plan.deadline = from + PLAN_SECONDS;
        if (mine.max_nodes) plan.max_nodes = (uint64_t)(lead * (double)mine.max_nodes) + 1;
        solve_search(level->board, level->start, &plan, level->learned, false, result);
        if (!run_again(&mine, level->began, result, 0)) return;
        from = ida_clock(); /* the first part's seconds from here */
    }
    solver_options first = mine;
    first.disable |= SOLVER_NO_PARKING;
    double share = share_of_time(level->began, mine.deadline, ODD_FIRST_SHARE + after);
    first.deadline = from + ODD_FIRST_SECONDS;
    if (mine.deadline > 0 && share < first.deadline) first.deadline = share;
    if (mine.max_nodes)
        first.max_nodes = (uint64_t)((ODD_FIRST_SHARE + after) * (double)mine.max_nodes) + 1;
    if (planned)
        run_then(level->board, level->start, first, level->learned, false, result);
    else
        solve_search(level->board, level->start, &first, level->learned, false, result);
    bool limited = mine.deadline > 0 || mine.max_nodes;
    if (limited && !(mine.disable & SOLVER_NO_OPENER_MOVES))
        run_part(level, &mine, SOLVER_NO_JOINER_MOVES, ODD_OPENER_SHARE + after, true, result);
    if (limited && !(mine.disable & (SOLVER_NO_EARLY_ORDER | SOLVER_NO_PARKING)))
        run_part(level, &mine, SOLVER_NO_EARLY_ORDER, ODD_LATE_SHARE + after, false, result);
    run_part(level, &mine, SOLVER_NO_FEATURES, 1, false, result);
}

/* One run of the race (solver_threads.h): true when it answered. */
static bool solve_strategy(void *argument, int index, const atomic_bool *stop)
{
    const race_level *level = argument;
    solver_options mine = *level->options;
    mine.cancel = stop;
    if (index > 0) mine.progress = NULL; /* one progress line */
    solver_result *result = &level->results[index];
    solve_run(level, index, mine, result);
    return result->status == SOLVER_SOLVED || result->status == SOLVER_UNSOLVABLE;
}

/* What searches one after another or at once on `b` learn of deadlocks, shared (their keys
 * are alike): NULL when `learned` is given already or they learn none; else a table made for
 * them, its table of learned corrals (1 MiB) taken out of their *bytes. */
static solver_learned *learned_for(const board *b, const solver_options *options,
                                   const solver_learned *learned, size_t *bytes)
{
    if (learned || (options->disable & SOLVER_NO_CORRAL_DEADLOCKS)) return NULL;
    if (*bytes > (size_t)4 << 20) *bytes -= (size_t)1 << 20;
    return solver_learned_new(b);
}

/* True when options->plan_from is a position of b with its boxes elsewhere than start's. */
static bool plan_differs(const board *b, const position *start, const solver_options *options)
{
    const position *plan = options->plan_from;
    if (!plan || plan->box_count != start->box_count || !position_is_searchable(b, plan))
        return false;
    for (int square = 0; square < b->size; square++)
        if (plan->boxes[square] != start->boxes[square]) return true;
    return false;
}

/* Solves with `threads` strategies at once; the first answer is the result, the nodes of
 * all are summed. They share what they learn of deadlocks in `learned`, or, when NULL, in
 * one made for the race; the first reads a copy of it (docs/SOLVER.md, section 29). */
static void solve_racing(const board *b, const position *start, const solver_options *options,
                         int threads, double began, solver_learned *learned, solver_result *result)
{
    solver_options shared = *options;
    shared.plan_from = NULL; /* only the odd run's part that takes it */
    size_t bytes = solver_memory_for(options, threads);
    solver_learned *mine = learned_for(b, options, learned, &bytes);
    /* the first run's copy of the race's table: its learned corrals, 1 MiB, out of the bytes */
    solver_learned *race = learned ? learned : mine, *first = solver_learned_copy(race, b);
    if (first && bytes > (size_t)4 << 20) bytes -= (size_t)1 << 20;
    /* the one division of the memory: each run its share, at least 1 MiB */
    shared.memory_bytes = bytes / (size_t)threads;
    if (shared.memory_bytes < (size_t)1 << 20) shared.memory_bytes = (size_t)1 << 20;
    if (options->max_nodes) shared.max_nodes = options->max_nodes / (uint64_t)threads;
    solver_result *results = calloc((size_t)threads, sizeof *results);
    race_level level = {.board = b,
                        .start = start,
                        .options = &shared,
                        .began = began,
                        .learned = race,
                        .first_learned = first ? first : race,
                        .plan_from = plan_differs(b, start, options) ? options->plan_from : NULL,
                        .results = results};
    int winner = -1;
    int started = results ? solver_threads_race(threads, RACE_STAGGER_SECONDS, options->cancel,
                                                solve_strategy, &level, &winner)
                          : 0;
    if (started == 0) {
        free(results);
        solver_learned_free(first);
        solver_learned_free(mine);
        /* no thread: in this one, on the level's own packing order as a single search has */
        solver_options alone = *options;
        alone.plan_from = NULL;
        solve_search(b, start, &alone, learned, false, result);
        return;
    }
    int pick = winner;
    for (int i = 0; pick < 0 && i < started; i++)
        if (results[i].status == SOLVER_LIMIT) pick = i;
    if (pick < 0) pick = 0;
    uint64_t nodes = 0;
    for (int i = 0; i < started; i++) nodes += results[i].nodes;
    *result = results[pick];
    results[pick].steps = NULL;
    result->nodes = nodes;
    if (winner < 0 && options->cancel && atomic_load(options->cancel))
        result->status = SOLVER_CANCELLED;
    for (int i = 0; i < started; i++) solver_result_free(&results[i]);
    free(results);
    solver_learned_free(first);
    solver_learned_free(mine);
}

/* A search that stops within its limits has filled its store (--memory). One search in the
 * fast mode then goes on with the feature-space search without parking squares, the race's
 * other start, in the same memory made free again and from what the first learned of
 * deadlocks, for the time and nodes left: XSokoban 42 fills the 1 GiB store in 26 to 30 s
 * with parking and is solved in 1.5 s without. Less than this share of the time left is
 * not worth a new search. */
#define SINGLE_AGAIN_SHARE 0.02

/* Solves with one search at a time, as above (no part from solver_options.plan_from). */
static void solve_single(const board *b, const position *start, const solver_options *given,
                         double began, solver_learned *learned, solver_result *result)
{
    solver_options own = *given, *options = &own;
    own.plan_from = NULL;
    unsigned off = options->disable;
    if (options->mode != SOLVER_FAST || (off & (SOLVER_NO_FEATURES | SOLVER_NO_PARKING))) {
        solve_search(b, start, options, learned, false, result);
        return;
    }
    solver_options first = *options;
    size_t bytes = solver_memory_for(options, 1);
    solver_learned *mine = learned_for(b, options, learned, &bytes);
    if (mine) {
        first.memory_bytes = bytes;
        learned = mine;
    }
    solve_search(b, start, &first, learned, false, result);
    if (run_again(options, began, result, SINGLE_AGAIN_SHARE)) {
        solver_options rest = first;
        rest.disable |= SOLVER_NO_PARKING;
        run_then(b, start, rest, learned, false, result);
    }
    solver_learned_free(mine);
}

/* The optimal mode's members (solver_team.h): one search each, the results kept apart. */
typedef struct team_call {
    const board *board;
    const position *start;
    solver_learned *learned;
    solver_result *results;
} team_call;

static void solve_member(void *argument, const solver_options *options)
{
    team_call *c = argument;
    solve_search(c->board, c->start, options, c->learned, false, &c->results[options->team_member]);
}

/* The optimal mode's team (solver_team_fit): the result of the member that found the solution,
 * else of one that failed (ida_domain.failed), else the team's, with the nodes of all. */
static void solve_team(const board *b, const position *start, const solver_options *options,
                       int size, size_t bytes, solver_learned *learned, solver_result *result)
{
    int finder = -1;
    team_call call = {.board = b, .start = start, .learned = learned};
    call.results = calloc((size_t)size, sizeof *call.results);
    bool ran = false;
    if (call.results) finder = solver_team_run(size, options, bytes, solve_member, &call, &ran);
    if (!ran) {
        free(call.results);
        refuse(result, "out-of-memory", "out of memory setting up the search");
        return;
    }
    for (int i = 0; finder < 0 && i < size; i++)
        if (call.results[i].status == SOLVER_ERROR) finder = i;
    if (finder < 0) finder = 0;
    *result = call.results[finder];
    for (int i = 0; i < size; i++)
        if (i != finder) {
            result->nodes += call.results[i].nodes;
            solver_result_free(&call.results[i]);
        }
    free(call.results);
}

void solver_lower_thread_priority(int by)
{
    solver_threads_lower_priority(by);
}

int solver_searches(const solver_options *options)
{
    if (options->mode != SOLVER_FAST) return 1;
    int threads = options->threads > 0 ? options->threads : solver_threads_cores();
    /* each run gets a share of the node limit, at least one node */
    if (options->max_nodes && (uint64_t)threads > options->max_nodes)
        threads = (int)options->max_nodes;
    return threads;
}

size_t solver_memory_bytes(const solver_options *options)
{
    return solver_memory_for(options, solver_searches(options));
}

solver_status solver_solve(const board *b, const position *start, const solver_options *options,
                           solver_result *result)
{
    static const solver_options defaults;
    if (!options) options = &defaults;
    double began = ida_clock();
    *result = (solver_result){.status = SOLVER_ERROR, .mode = options->mode};
    if (!position_is_searchable(b, start))
        return refuse(result, "bad-position",
                      "the position cannot be searched (a box for every goal, boxes and "
                      "player on the floor)");
    if (b->goal_count > SOLVER_MAX_BOXES)
        return refuse(result, "too-many-boxes", "%d boxes, more than the solver takes (%d)",
                      b->goal_count, SOLVER_MAX_BOXES);
    unsigned long long machine = solver_machine_mib();
    if (machine && (solver_memory_for(options, 1) >> 20) > machine)
        return refuse(result, "memory",
                      "a memory limit of %zu MiB, more than this machine has (%llu MiB)",
                      solver_memory_for(options, 1) >> 20, machine);
    unsigned long long process = solver_process_mib();
    if (process && (solver_memory_for(options, 1) >> 20) > process)
        return refuse(result, "memory",
                      "a memory limit of %zu MiB, more than this process may have (%llu MiB, "
                      "its ulimit)",
                      solver_memory_for(options, 1) >> 20, process);

    int threads = solver_searches(options);
    /* what earlier searches on this board learned, if it is this board's */
    solver_learned *learned = solver_learned_fits(options->learned, b) ? options->learned : NULL;
    size_t bytes = 0;
    int team = options->mode == SOLVER_OPTIMAL ? solver_team_fit(options, learned, &bytes) : 1;
    if (team > 1)
        solve_team(b, start, options, team, bytes, learned, result);
    else if (threads == 1)
        solve_single(b, start, options, began, learned, result);
    else
        solve_racing(b, start, options, threads, began, learned, result);
    result->seconds = ida_clock() - began;
    return result->status;
}
