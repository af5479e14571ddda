/* ida.c - iterative-deepening A*: the threshold loop, the depth-first search, the limits. */
#include "ida.h"

#include <assert.h>
#include <stdlib.h>
#include <time.h>

typedef struct search {
    const ida_domain *domain;
    const ida_limits *limits;
    int threshold;
    int next_threshold; /* smallest f seen above the threshold */
    uint64_t nodes;
    ida_clock_check check; /* when to look at the limits next */
    double start;
    double next_progress;
    double progress_interval;
    ida_status stop; /* IDA_SOLVED while the search may go on */
    bool stopped;
    ida_move *moves; /* move lists of all depths, max_moves each */
    ida_move *path;  /* path[d] = move made at depth d */
    int *costs;      /* costs[d] = its cost */
    int capacity;    /* depths the two arrays above hold */
    int depth_limit;
    bool depth_cut; /* a branch was cut by the depth limit */
    int solution_length;
} search;

double ida_clock(void)
{
    struct timespec now;
    clock_gettime(CLOCK_MONOTONIC, &now);
    return (double)now.tv_sec + (double)now.tv_nsec * 1e-9;
}

double ida_clock_check_look(ida_clock_check *check, uint64_t nodes, uint64_t node_limit)
{
    double now = ida_clock();
    if (now - check->last > IDA_CHECK_SECONDS && check->every > 1)
        check->every /= 2;
    else if (now - check->last < IDA_CHECK_SECONDS / 4 && check->every < IDA_CHECK_EVERY)
        check->every *= 2;
    check->last = now;
    check->next = nodes + check->every;
    if (node_limit && check->next > node_limit) check->next = node_limit;
    return now;
}

const char *ida_status_name(ida_status status)
{
    switch (status) {
    case IDA_SOLVED:
        return "solved";
    case IDA_UNSOLVABLE:
        return "unsolvable";
    case IDA_LIMIT:
        return "limit";
    case IDA_CANCELLED:
        return "cancelled";
    case IDA_NO_MEMORY:
        return "no memory";
    }
    return "?";
}

/* Grows the per-depth arrays so that `depth` fits; false when out of memory. */
static bool ensure_depth(search *s, int depth)
{
    if (depth < s->capacity) return true;
    int capacity = s->capacity ? s->capacity * 2 : 256;
    while (capacity <= depth) capacity *= 2;
    size_t width = (size_t)s->domain->max_moves;
    ida_move *moves = realloc(s->moves, (size_t)capacity * width * sizeof *moves);
    if (!moves) return false;
    s->moves = moves;
    ida_move *path = realloc(s->path, (size_t)capacity * sizeof *path);
    if (!path) return false;
    s->path = path;
    int *costs = realloc(s->costs, (size_t)capacity * sizeof *costs);
    if (!costs) return false;
    s->costs = costs;
    s->capacity = capacity;
    return true;
}

static void report_progress(search *s, double now)
{
    const ida_limits *l = s->limits;
    if (!l->progress) return;
    ida_progress p = {
        .threshold = s->threshold,
        .nodes = s->nodes,
        .seconds = now - s->start,
        .nodes_per_second = now > s->start ? (double)s->nodes / (now - s->start) : 0.0,
    };
    l->progress(l->progress_argument, &p);
}

/* Looks at the limits, the flag and the clock; returns true when the search must stop. */
static bool check_limits(search *s)
{
    const ida_limits *l = s->limits;
    double now = ida_clock_check_look(&s->check, s->nodes, l->max_nodes);
    if (l->cancel && atomic_load_explicit(l->cancel, memory_order_relaxed)) {
        s->stop = IDA_CANCELLED;
        return s->stopped = true;
    }
    if (l->max_nodes && s->nodes >= l->max_nodes) {
        s->stop = IDA_LIMIT;
        return s->stopped = true;
    }
    if (l->deadline > 0 && now >= l->deadline) {
        s->stop = IDA_LIMIT;
        return s->stopped = true;
    }
    if (now >= s->next_progress) {
        report_progress(s, now);
        s->next_progress = now + s->progress_interval;
    }
    return false;
}

/* Depth-first search below the current state, reached at cost g at the given depth.
 * Returns true when a goal was found (the path then holds it). */
static bool depth_first(search *s, int g, int depth)
{
    const ida_domain *d = s->domain;
    if (depth >= s->depth_limit) {
        /* the branch is cut; the search goes on elsewhere but can no longer prove that
         * there is no solution */
        s->depth_cut = true;
        return false;
    }
    if (!ensure_depth(s, depth)) {
        s->stop = IDA_NO_MEMORY;
        s->stopped = true;
        return false;
    }
    size_t base = (size_t)depth * (size_t)d->max_moves;
    int count = d->expand(d->context, s->moves + base);
    assert(count >= 0 && count <= d->max_moves); /* the domain keeps its promise */
    for (int i = 0; i < count; i++) {
        ida_move move = s->moves[base + i];
        int cost = 1;
        int h = d->make(d->context, move, g, &cost);
        s->nodes++;
        if (h != IDA_PRUNE) {
            int f = g + cost + h;
            if (h >= IDA_INFINITY) {
                /* a dead end: it never raises the next threshold */
            } else if (f > s->threshold) {
                if (f < s->next_threshold) s->next_threshold = f;
            } else if (h == 0 && d->is_goal(d->context)) {
                s->path[depth] = move;
                s->costs[depth] = cost;
                s->solution_length = depth + 1;
                d->unmake(d->context, move);
                return true;
            } else if (ida_clock_check_due(&s->check, s->nodes) && check_limits(s)) {
                /* stopped before going deeper: taken back below */
            } else if (depth_first(s, g + cost, depth + 1)) {
                s->path[depth] = move;
                s->costs[depth] = cost;
                d->unmake(d->context, move);
                return true;
            }
        }
        d->unmake(d->context, move);
        if (s->stopped || (ida_clock_check_due(&s->check, s->nodes) && check_limits(s)))
            return false;
    }
    return false;
}

ida_status ida_search(const ida_domain *domain, const ida_limits *limits, ida_result *result)
{
    static const ida_limits no_limits;
    if (!limits) limits = &no_limits;
    search s = {
        .domain = domain,
        .limits = limits,
        .start = ida_clock(),
        .progress_interval = limits->progress_interval > 0 ? limits->progress_interval : 0.25,
        .stop = IDA_SOLVED,
        .depth_limit = limits->max_depth > 0 ? limits->max_depth : 1 << 20,
    };
    s.next_progress = s.start + s.progress_interval;
    s.check = ida_clock_check_start(s.start, 0); /* the first node looks at the limits */
    *result = (ida_result){0};

    int h = domain->root_bound(domain->context);
    ida_status status;
    if (h >= IDA_INFINITY) {
        status = IDA_UNSOLVABLE;
    } else if (h == 0 && domain->is_goal(domain->context)) {
        status = IDA_SOLVED;
    } else {
        s.threshold = h;
        status = IDA_UNSOLVABLE;
        for (;;) {
            s.next_threshold = IDA_INFINITY;
            result->iterations++;
            if (domain->begin_iteration) domain->begin_iteration(domain->context, s.threshold);
            if (depth_first(&s, 0, 0)) {
                status = IDA_SOLVED;
                break;
            }
            if (s.stopped) {
                status = s.stop;
                break;
            }
            if (s.next_threshold >= IDA_INFINITY) {
                /* nothing left: unsolvable, unless the depth limit hid part of the space */
                if (s.depth_cut) status = IDA_LIMIT;
                break;
            }
            s.threshold = s.next_threshold;
            report_progress(&s, ida_clock());
        }
    }

    if (status == IDA_SOLVED && s.solution_length > 0) {
        result->path = malloc((size_t)s.solution_length * sizeof *result->path);
        if (!result->path) {
            status = IDA_NO_MEMORY;
        } else {
            for (int i = 0; i < s.solution_length; i++) result->path[i] = s.path[i];
            result->length = s.solution_length;
        }
    }
    if (status == IDA_SOLVED)
        for (int i = 0; i < result->length; i++) result->cost += s.costs[i];
    free(s.moves);
    free(s.path);
    free(s.costs);
    result->status = status;
    result->nodes = s.nodes;
    result->threshold = s.threshold;
    result->seconds = ida_clock() - s.start;
    return status;
}

void ida_result_free(ida_result *result)
{
    free(result->path);
    result->path = NULL;
    result->length = 0;
}
