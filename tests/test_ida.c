/* test_ida.c - the domain-independent IDA* engine (ida.h) on toy domains written here: a
 * small explicit graph with move costs and a hand-set lower bound, and an endless number
 * line for the limits. Pins down: a goal at the root, optimal cost with an admissible
 * bound, exhausting the space, the node, time and depth limits, cancellation, pruned
 * children, the threshold sequence, moves costing more than 1, and progress reports. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdatomic.h>
#include <stdbool.h>
#include <string.h>

#include "ida.h"

/* ------------------------------------------------------------------------------------- */
/* A small explicit graph                                                                 */
/* ------------------------------------------------------------------------------------- */

enum { GRAPH_NODES = 8, GRAPH_EDGES = 4, GRAPH_DEPTH = 64, MAX_ITERATIONS = 16 };

/* An edge to `to` costing `cost`; cost 0 ends a node's list. */
typedef struct graph_edge {
    int to;
    int cost;
} graph_edge;

typedef struct graph {
    graph_edge edges[GRAPH_NODES][GRAPH_EDGES]; /* in the order expand() gives them */
    int h[GRAPH_NODES];                         /* the lower bound of each node */
    bool pruned[GRAPH_NODES];                   /* make() answers IDA_PRUNE for these */
    int goal;
    /* The search's state: the path of nodes from the start. */
    int stack[GRAPH_DEPTH];
    int depth;
    /* What the engine did. */
    int thresholds[MAX_ITERATIONS]; /* begin_iteration()'s arguments */
    int iterations;
    int makes, unmakes;
    bool unmake_mismatch; /* unmake() was asked to take back a move other than the last */
} graph;

static int graph_node(const graph *g)
{
    return g->stack[g->depth];
}

static int graph_root_bound(void *context)
{
    graph *g = context;
    return g->h[graph_node(g)];
}

static void graph_begin_iteration(void *context, int threshold)
{
    graph *g = context;
    if (g->iterations < MAX_ITERATIONS) g->thresholds[g->iterations] = threshold;
    g->iterations++;
}

/* A move is the index of the edge taken from the current node. */
static int graph_expand(void *context, ida_move *moves)
{
    graph *g = context;
    int count = 0;
    while (count < GRAPH_EDGES && g->edges[graph_node(g)][count].cost > 0) {
        moves[count] = (ida_move)count;
        count++;
    }
    return count;
}

static int graph_make(void *context, ida_move move, int g_cost, int *cost)
{
    (void)g_cost;
    graph *g = context;
    graph_edge edge = g->edges[graph_node(g)][move];
    g->stack[++g->depth] = edge.to;
    g->makes++;
    *cost = edge.cost;
    return g->pruned[edge.to] ? IDA_PRUNE : g->h[edge.to];
}

static void graph_unmake(void *context, ida_move move)
{
    graph *g = context;
    int from = g->stack[g->depth - 1];
    if (g->edges[from][move].to != g->stack[g->depth]) g->unmake_mismatch = true;
    g->depth--;
    g->unmakes++;
}

static bool graph_is_goal(void *context)
{
    graph *g = context;
    return graph_node(g) == g->goal;
}

static ida_domain graph_domain(graph *g)
{
    return (ida_domain){
        .context = g,
        .max_moves = GRAPH_EDGES,
        .root_bound = graph_root_bound,
        .begin_iteration = graph_begin_iteration,
        .expand = graph_expand,
        .make = graph_make,
        .unmake = graph_unmake,
        .is_goal = graph_is_goal,
    };
}

/* Adds the edge from -> to costing `cost` after the node's other edges. */
static void add_edge(graph *g, int from, int to, int cost)
{
    int i = 0;
    while (g->edges[from][i].cost > 0) i++;
    g->edges[from][i] = (graph_edge){to, cost};
}

/* The search left the graph where it found it, with every make() taken back. */
static void assert_graph_restored(const graph *g, int start)
{
    assert_int_equal(g->depth, 0);
    assert_int_equal(graph_node(g), start);
    assert_int_equal(g->makes, g->unmakes);
    assert_false(g->unmake_mismatch);
}

/* ------------------------------------------------------------------------------------- */
/* An endless number line: from x the moves go to x + 1 (move 0) and x - 1 (move 1), each  */
/* costing 1. h is |goal - x| when `guided`, else 0; with no goal the space never ends.    */
/* ------------------------------------------------------------------------------------- */

typedef struct line {
    int x;
    int goal;
    bool has_goal;
    bool guided;
    int progress_calls;
    int reported_thresholds[MAX_ITERATIONS];
    atomic_bool cancel;
    bool cancel_on_progress; /* the progress callback sets `cancel` */
} line;

static int line_bound(const line *l)
{
    if (!l->guided || !l->has_goal) return 0;
    return l->x > l->goal ? l->x - l->goal : l->goal - l->x;
}

static int line_root_bound(void *context)
{
    return line_bound(context);
}

static int line_expand(void *context, ida_move *moves)
{
    (void)context;
    moves[0] = 0;
    moves[1] = 1;
    return 2;
}

static int line_make(void *context, ida_move move, int g_cost, int *cost)
{
    (void)g_cost;
    line *l = context;
    l->x += move == 0 ? 1 : -1;
    *cost = 1;
    return line_bound(l);
}

static void line_unmake(void *context, ida_move move)
{
    line *l = context;
    l->x -= move == 0 ? 1 : -1;
}

static bool line_is_goal(void *context)
{
    line *l = context;
    return l->has_goal && l->x == l->goal;
}

static void line_progress(void *argument, const ida_progress *progress)
{
    line *l = argument;
    if (l->progress_calls < MAX_ITERATIONS)
        l->reported_thresholds[l->progress_calls] = progress->threshold;
    l->progress_calls++;
    if (l->cancel_on_progress) atomic_store(&l->cancel, true);
}

static ida_domain line_domain(line *l)
{
    return (ida_domain){
        .context = l,
        .max_moves = 2,
        .root_bound = line_root_bound,
        .expand = line_expand,
        .make = line_make,
        .unmake = line_unmake,
        .is_goal = line_is_goal,
    };
}

/* ------------------------------------------------------------------------------------- */
/* Solutions                                                                              */
/* ------------------------------------------------------------------------------------- */

static void test_goal_at_the_root_is_solved_without_a_move(void **state)
{
    (void)state;
    graph g = {.goal = 0};
    add_edge(&g, 0, 1, 1);
    ida_domain domain = graph_domain(&g);
    ida_result result;
    assert_int_equal(ida_search(&domain, NULL, &result), IDA_SOLVED);
    assert_int_equal(result.status, IDA_SOLVED);
    assert_int_equal(result.cost, 0);
    assert_int_equal(result.length, 0);
    assert_int_equal(result.nodes, 0);
    assert_int_equal(result.iterations, 0);
    assert_int_equal(g.makes, 0);
    ida_result_free(&result);
}

/* S(0) -> A(1) -> G(3) costs 1 + 5 and comes first; S -> B(2) -> G costs 2 + 2. With an
 * admissible h the cheaper route, expanded second, is the answer. */
static void test_admissible_bound_finds_the_cheapest_route_not_the_first(void **state)
{
    (void)state;
    graph g = {.goal = 3, .h = {3, 1, 2, 0}};
    add_edge(&g, 0, 1, 1);
    add_edge(&g, 0, 2, 2);
    add_edge(&g, 1, 3, 5);
    add_edge(&g, 2, 3, 2);
    ida_domain domain = graph_domain(&g);
    ida_result result;
    assert_int_equal(ida_search(&domain, NULL, &result), IDA_SOLVED);
    assert_int_equal(result.cost, 4);
    assert_int_equal(result.length, 2);
    assert_int_equal(result.path[0], 1); /* S's second edge, to B */
    assert_int_equal(result.path[1], 0); /* B's edge to G */
    assert_graph_restored(&g, 0);
    ida_result_free(&result);
}

/* The same graph: the first threshold is h(S) = 3; then the least f above it, 4 (S -> B),
 * not 6 (S -> A -> G). */
static void test_each_threshold_is_the_least_f_above_the_last(void **state)
{
    (void)state;
    graph g = {.goal = 3, .h = {3, 1, 2, 0}};
    add_edge(&g, 0, 1, 1);
    add_edge(&g, 0, 2, 2);
    add_edge(&g, 1, 3, 5);
    add_edge(&g, 2, 3, 2);
    ida_domain domain = graph_domain(&g);
    ida_result result;
    ida_search(&domain, NULL, &result);
    assert_int_equal(result.iterations, 2);
    assert_int_equal(g.iterations, 2);
    assert_int_equal(g.thresholds[0], 3);
    assert_int_equal(g.thresholds[1], 4);
    assert_int_equal(result.threshold, 4);
    ida_result_free(&result);
}

/* With h = 0 everywhere the thresholds are the costs reachable in order: moves costing
 * 2 and 3 give 0, 2, 3, 4, 5 before the goal at cost 5 (2 + 3) is found. */
static void test_moves_costing_more_than_one_set_the_thresholds(void **state)
{
    (void)state;
    graph g = {.goal = 2};
    add_edge(&g, 0, 1, 2);
    add_edge(&g, 0, 4, 3);
    add_edge(&g, 1, 5, 2);
    add_edge(&g, 1, 2, 3);
    ida_domain domain = graph_domain(&g);
    ida_result result;
    assert_int_equal(ida_search(&domain, NULL, &result), IDA_SOLVED);
    assert_int_equal(result.cost, 5);
    assert_int_equal(result.length, 2);
    int expected[] = {0, 2, 3, 4, 5};
    assert_int_equal(g.iterations, 5);
    for (int i = 0; i < 5; i++) assert_int_equal(g.thresholds[i], expected[i]);
    assert_graph_restored(&g, 0);
    ida_result_free(&result);
}

/* A guided search down a line longer than the engine's first per-depth arrays (256). */
static void test_solution_deeper_than_256_moves_is_found(void **state)
{
    (void)state;
    line l = {.goal = 300, .has_goal = true, .guided = true};
    ida_domain domain = line_domain(&l);
    ida_result result;
    assert_int_equal(ida_search(&domain, NULL, &result), IDA_SOLVED);
    assert_int_equal(result.cost, 300);
    assert_int_equal(result.length, 300);
    for (int i = 0; i < 300; i++) assert_int_equal(result.path[i], 0);
    assert_int_equal(result.iterations, 1);
    assert_int_equal(l.x, 0);
    ida_result_free(&result);
}

/* A spine of 300 squares off the start, h = 0 along it and no way on at its end, and a
 * move from the start straight to the goal costing 301: the spine is searched out first,
 * its depth past the 256 the search's move lists first hold (they grow under the start's
 * list), then the start's second move is read and made. */
enum {
    SPINE_LENGTH = 300,
    /* moves a list may hold: the lists of 256 depths take 1 MiB, a block of its own that a
     * move list read where it stood before they grew is not (glibc maps blocks from 128 KiB
     * apart) */
    SPINE_MOST_MOVES = 1024,
};

typedef struct spine {
    int x; /* 0 the start, 1 .. SPINE_LENGTH along the spine, -1 the goal */
    bool wrong_move; /* make() was given a move expand() did not give */
} spine;

static int spine_root_bound(void *context)
{
    (void)context;
    return SPINE_LENGTH + 1;
}

static int spine_expand(void *context, ida_move *moves)
{
    const spine *p = context;
    if (p->x < 0 || p->x == SPINE_LENGTH) return 0;
    moves[0] = 0;
    if (p->x > 0) return 1;
    moves[1] = 1;
    return 2;
}

static int spine_make(void *context, ida_move move, int g_cost, int *cost)
{
    (void)g_cost;
    spine *p = context;
    *cost = 1;
    if (move > (p->x == 0 ? 1u : 0u)) {
        p->wrong_move = true;
        return IDA_PRUNE;
    }
    if (move == 1) {
        p->x = -1;
        *cost = SPINE_LENGTH + 1;
        return 0;
    }
    p->x++;
    return 0;
}

static void spine_unmake(void *context, ida_move move)
{
    spine *p = context;
    if (p->wrong_move) return;
    p->x = move == 1 ? 0 : p->x - 1;
}

static bool spine_is_goal(void *context)
{
    const spine *p = context;
    return p->x == -1;
}

static void test_a_move_list_is_read_again_after_a_branch_deeper_than_256(void **state)
{
    (void)state;
    spine p = {0};
    ida_domain domain = {.context = &p,
                         .max_moves = SPINE_MOST_MOVES,
                         .root_bound = spine_root_bound,
                         .expand = spine_expand,
                         .make = spine_make,
                         .unmake = spine_unmake,
                         .is_goal = spine_is_goal};
    ida_result result;
    assert_int_equal(ida_search(&domain, NULL, &result), IDA_SOLVED);
    assert_false(p.wrong_move);
    assert_int_equal(result.cost, SPINE_LENGTH + 1);
    assert_int_equal(result.length, 1);
    assert_int_equal(result.path[0], 1);
    assert_int_equal(result.iterations, 1);
    ida_result_free(&result);
}

/* ------------------------------------------------------------------------------------- */
/* Unsolvable and pruned                                                                  */
/* ------------------------------------------------------------------------------------- */

/* A finite graph with no way to the goal: the thresholds run out. */
static void test_exhausted_space_is_unsolvable(void **state)
{
    (void)state;
    graph g = {.goal = 7};
    add_edge(&g, 0, 1, 1);
    add_edge(&g, 0, 2, 2);
    add_edge(&g, 1, 3, 1);
    add_edge(&g, 2, 3, 4);
    ida_domain domain = graph_domain(&g);
    ida_result result;
    assert_int_equal(ida_search(&domain, NULL, &result), IDA_UNSOLVABLE);
    assert_int_equal(result.length, 0);
    assert_null(result.path);
    assert_graph_restored(&g, 0);
    ida_result_free(&result);
}

static void test_root_with_infinite_bound_is_unsolvable_at_once(void **state)
{
    (void)state;
    graph g = {.goal = 1, .h = {IDA_INFINITY, 0}};
    add_edge(&g, 0, 1, 1);
    ida_domain domain = graph_domain(&g);
    ida_result result;
    assert_int_equal(ida_search(&domain, NULL, &result), IDA_UNSOLVABLE);
    assert_int_equal(result.nodes, 0);
    assert_int_equal(g.makes, 0);
    ida_result_free(&result);
}

/* The only child has an infinite bound (a dead end): unsolvable after one iteration. */
static void test_dead_end_children_do_not_raise_the_threshold(void **state)
{
    (void)state;
    graph g = {.goal = 1, .h = {1, IDA_INFINITY}};
    add_edge(&g, 0, 1, 1);
    ida_domain domain = graph_domain(&g);
    ida_result result;
    assert_int_equal(ida_search(&domain, NULL, &result), IDA_UNSOLVABLE);
    assert_int_equal(result.iterations, 1);
    assert_graph_restored(&g, 0);
    ida_result_free(&result);
}

/* S -> P (cost 1, h 1, pruned) and S -> B (cost 3, h 1) -> G (cost 1). Had P counted, the
 * second threshold would be 2; it is 4, and P is still taken back. */
static void test_pruned_children_do_not_count_for_the_next_threshold(void **state)
{
    (void)state;
    graph g = {.goal = 3, .h = {1, 1, 1, 0}, .pruned = {[1] = true}};
    add_edge(&g, 0, 1, 1);
    add_edge(&g, 0, 2, 3);
    add_edge(&g, 2, 3, 1);
    ida_domain domain = graph_domain(&g);
    ida_result result;
    assert_int_equal(ida_search(&domain, NULL, &result), IDA_SOLVED);
    assert_int_equal(result.cost, 4);
    assert_int_equal(g.iterations, 2);
    assert_int_equal(g.thresholds[0], 1);
    assert_int_equal(g.thresholds[1], 4);
    assert_graph_restored(&g, 0);
    ida_result_free(&result);
}

/* Every child pruned: nothing is left to search. */
static void test_all_children_pruned_is_unsolvable(void **state)
{
    (void)state;
    graph g = {.goal = 2, .h = {1, 0, 0}, .pruned = {[1] = true, [2] = true}};
    add_edge(&g, 0, 1, 1);
    add_edge(&g, 0, 2, 1);
    ida_domain domain = graph_domain(&g);
    ida_result result;
    assert_int_equal(ida_search(&domain, NULL, &result), IDA_UNSOLVABLE);
    assert_int_equal(result.iterations, 1);
    assert_graph_restored(&g, 0);
    ida_result_free(&result);
}

/* ------------------------------------------------------------------------------------- */
/* Limits and cancellation                                                                */
/* ------------------------------------------------------------------------------------- */

static void test_node_limit_stops_an_endless_search(void **state)
{
    (void)state;
    line l = {.has_goal = false};
    ida_domain domain = line_domain(&l);
    ida_limits limits = {.max_nodes = 5000};
    ida_result result;
    assert_int_equal(ida_search(&domain, &limits, &result), IDA_LIMIT);
    assert_true(result.nodes >= 5000);
    assert_int_equal(l.x, 0);
    ida_result_free(&result);
}

static void test_time_limit_stops_an_endless_search(void **state)
{
    (void)state;
    line l = {.has_goal = false};
    ida_domain domain = line_domain(&l);
    double before = ida_clock();
    ida_limits limits = {.deadline = before + 0.05};
    ida_result result;
    assert_int_equal(ida_search(&domain, &limits, &result), IDA_LIMIT);
    assert_true(ida_clock() - before >= 0.05);
    assert_int_equal(l.x, 0);
    ida_result_free(&result);
}

/* The goal 5 steps away: a depth limit of 3 stops the search, one of 5 lets it through. */
static void test_depth_limit_stops_the_search_below_it(void **state)
{
    (void)state;
    line l = {.goal = 5, .has_goal = true, .guided = true};
    ida_domain domain = line_domain(&l);
    ida_limits limits = {.max_depth = 3};
    ida_result result;
    assert_int_equal(ida_search(&domain, &limits, &result), IDA_LIMIT);
    assert_int_equal(l.x, 0);
    ida_result_free(&result);

    limits.max_depth = 5;
    assert_int_equal(ida_search(&domain, &limits, &result), IDA_SOLVED);
    assert_int_equal(result.length, 5);
    ida_result_free(&result);
}

/* A branch that reaches the depth limit is cut, not the whole search: a shorter solution
 * in a later branch is still found. The line tries +1 first and has h = 0 everywhere. */
static void test_depth_limit_cuts_a_branch_not_the_search(void **state)
{
    (void)state;
    line l = {.goal = -2, .has_goal = true};
    ida_domain domain = line_domain(&l);
    ida_limits limits = {.max_depth = 2};
    ida_result result;
    assert_int_equal(ida_search(&domain, &limits, &result), IDA_SOLVED);
    assert_int_equal(result.length, 2);
    assert_int_equal(l.x, 0);
    ida_result_free(&result);
}

/* Limits are looked at from the first node, not only after a first batch of nodes. */
static void test_node_limit_is_kept_exactly_on_a_small_search(void **state)
{
    (void)state;
    line l = {.goal = 40, .has_goal = true, .guided = true};
    ida_domain domain = line_domain(&l);
    ida_limits limits = {.max_nodes = 10};
    ida_result result;
    assert_int_equal(ida_search(&domain, &limits, &result), IDA_LIMIT);
    assert_true(result.nodes <= 10);
    ida_result_free(&result);
}

static void test_cancel_flag_set_before_the_search_cancels_it(void **state)
{
    (void)state;
    line l = {.has_goal = false};
    atomic_init(&l.cancel, true);
    ida_domain domain = line_domain(&l);
    ida_limits limits = {.cancel = &l.cancel};
    ida_result result;
    assert_int_equal(ida_search(&domain, &limits, &result), IDA_CANCELLED);
    assert_int_equal(l.x, 0);
    ida_result_free(&result);
}

static void test_cancel_flag_set_from_the_progress_callback_cancels_it(void **state)
{
    (void)state;
    line l = {.has_goal = false, .cancel_on_progress = true};
    atomic_init(&l.cancel, false);
    ida_domain domain = line_domain(&l);
    ida_limits limits = {
        .cancel = &l.cancel,
        .progress = line_progress,
        .progress_argument = &l,
        .progress_interval = 1e-9,
    };
    ida_result result;
    assert_int_equal(ida_search(&domain, &limits, &result), IDA_CANCELLED);
    assert_true(l.progress_calls >= 1);
    assert_int_equal(l.x, 0);
    ida_result_free(&result);
}

/* With h = 0 the goal 3 steps away takes thresholds 0, 1, 2, 3; the progress callback
 * hears of each new threshold. */
static void test_progress_callback_reports_each_new_threshold(void **state)
{
    (void)state;
    line l = {.goal = 3, .has_goal = true};
    atomic_init(&l.cancel, false);
    ida_domain domain = line_domain(&l);
    ida_limits limits = {.progress = line_progress, .progress_argument = &l};
    ida_result result;
    assert_int_equal(ida_search(&domain, &limits, &result), IDA_SOLVED);
    assert_int_equal(result.iterations, 4);
    assert_int_equal(result.cost, 3);
    assert_true(l.progress_calls >= 3);
    for (int i = 0; i < 3; i++) assert_int_equal(l.reported_thresholds[i], i + 1);
    ida_result_free(&result);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_goal_at_the_root_is_solved_without_a_move),
        cmocka_unit_test(test_admissible_bound_finds_the_cheapest_route_not_the_first),
        cmocka_unit_test(test_each_threshold_is_the_least_f_above_the_last),
        cmocka_unit_test(test_moves_costing_more_than_one_set_the_thresholds),
        cmocka_unit_test(test_solution_deeper_than_256_moves_is_found),
        cmocka_unit_test(test_a_move_list_is_read_again_after_a_branch_deeper_than_256),
        cmocka_unit_test(test_exhausted_space_is_unsolvable),
        cmocka_unit_test(test_root_with_infinite_bound_is_unsolvable_at_once),
        cmocka_unit_test(test_dead_end_children_do_not_raise_the_threshold),
        cmocka_unit_test(test_pruned_children_do_not_count_for_the_next_threshold),
        cmocka_unit_test(test_all_children_pruned_is_unsolvable),
        cmocka_unit_test(test_node_limit_stops_an_endless_search),
        cmocka_unit_test(test_time_limit_stops_an_endless_search),
        cmocka_unit_test(test_depth_limit_stops_the_search_below_it),
        cmocka_unit_test(test_depth_limit_cuts_a_branch_not_the_search),
        cmocka_unit_test(test_node_limit_is_kept_exactly_on_a_small_search),
        cmocka_unit_test(test_cancel_flag_set_before_the_search_cancels_it),
        cmocka_unit_test(test_cancel_flag_set_from_the_progress_callback_cancels_it),
        cmocka_unit_test(test_progress_callback_reports_each_new_threshold),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
