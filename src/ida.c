/* ida.c - iterative-deepening A*: the threshold loop, the depth-first search, the limits. */
#include "ida.h"

#include <assert.h>
#include <pthread.h>
#include <stdlib.h>
#include <time.h>

/* Nodes a member of a team takes from the team's node limit at a time. */
enum { TEAM_NODE_CHUNK = 1024 };

struct ida_team {
    int members; /* those not yet quit */
    uint64_t parallel_after;
    ida_team_hooks hooks;
    atomic_bool stop;            /* a member found a goal or stopped: the rest stop too */
    atomic_uint_least64_t taken; /* nodes handed out against the node limit */
    atomic_uint_least64_t seen;  /* nodes counted so far, for progress */
    pthread_mutex_t lock;
    pthread_cond_t turn;
    /* under the lock: the iteration being ended */
    int arrived;
    unsigned generation;
    int next_threshold;
    bool depth_cut;
    int finder;         /* the member that found a goal, or -1 */
    ida_status stopped; /* the first limit a member stopped at; IDA_SOLVED: none */
    bool parallel;      /* every member searches */
    bool handoff;       /* the iteration is to be searched again by all */
    bool led;           /* member 0 searched the iteration (else it quit before) */
    int paused;         /* members waiting for a pause */
    bool pausing;       /* the paused are doing the pause's parts (ida_team_hooks) */
    int parts;          /* members in the pause's parts, not yet through */
    unsigned pauses;    /* pauses over */
    /* what the last member to end an iteration decided, for all */
    bool done;
    ida_status status;
    int threshold;
};

ida_team *ida_team_new(int members, uint64_t parallel_after, const ida_team_hooks *hooks)
{
    if (members < 1 || members > IDA_TEAM_MOST) return NULL;
    ida_team *t = calloc(1, sizeof *t);
    if (!t) return NULL;
    *t = (ida_team){
        .members = members,
        .parallel_after = parallel_after,
        .hooks = *hooks,
        .finder = -1,
        .stopped = IDA_SOLVED,
        .next_threshold = IDA_INFINITY,
    };
    atomic_init(&t->stop, false);
    atomic_init(&t->taken, 0);
    atomic_init(&t->seen, 0);
    if (pthread_mutex_init(&t->lock, NULL) != 0) {
        free(t);
        return NULL;
    }
    if (pthread_cond_init(&t->turn, NULL) != 0) {
        pthread_mutex_destroy(&t->lock);
        free(t);
        return NULL;
    }
    return t;
}

void ida_team_free(ida_team *team)
{
    if (!team) return;
    pthread_cond_destroy(&team->turn);
    pthread_mutex_destroy(&team->lock);
    free(team);
}

static void team_decide(ida_team *t);

/* Under the lock: the pause over (its end hook run); the paused go on. */
static void team_pause_end(ida_team *t)
{
    if (t->hooks.pause_end) t->hooks.pause_end(t->hooks.argument);
    t->pausing = false;
    t->paused = 0;
    t->pauses++;
    pthread_cond_broadcast(&t->turn);
}

/* Under the lock: when every member still in is paused or at the end of the iteration,
 * begins the pause; with parts, the paused do them (team_pause), else it is over at once. */
static void team_pause_if_all(ida_team *t)
{
    if (t->pausing || t->paused == 0 || t->paused + t->arrived < t->members) return;
    if (t->hooks.pause) t->hooks.pause(t->hooks.argument);
    if (!t->hooks.pause_part) {
        team_pause_end(t);
        return;
    }
    t->pausing = true;
    t->parts = t->paused;
    pthread_cond_broadcast(&t->turn);
}

/* A member stops between two nodes for the team's pause, and does its part of it. */
static void team_pause(ida_team *t)
{
    pthread_mutex_lock(&t->lock);
    unsigned pauses = t->pauses;
    t->paused++;
    team_pause_if_all(t);
    while (t->pauses == pauses && !t->pausing) pthread_cond_wait(&t->turn, &t->lock);
    if (t->pauses == pauses) {
        /* every member still searching is paused here: this pause's parts are ours */
        pthread_mutex_unlock(&t->lock);
        t->hooks.pause_part(t->hooks.argument);
        pthread_mutex_lock(&t->lock);
        if (--t->parts == 0) team_pause_end(t);
        while (t->pauses == pauses) pthread_cond_wait(&t->turn, &t->lock);
    }
    pthread_mutex_unlock(&t->lock);
}

void ida_team_quit(ida_team *t)
{
    pthread_mutex_lock(&t->lock);
    t->members--;
    team_pause_if_all(t);
    if (t->arrived > 0 && t->arrived == t->members) {
        team_decide(t);
        t->arrived = 0;
        t->generation++;
        pthread_cond_broadcast(&t->turn);
    }
    pthread_mutex_unlock(&t->lock);
}

const atomic_bool *ida_team_stopped(const ida_team *team)
{
    return &team->stop;
}

int ida_team_finder(const ida_team *team)
{
    return team->finder;
}

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
    ida_team *team;           /* NULL: alone */
    int member;               /* in the team */
    bool together;            /* every member searches this iteration */
    int members;              /* the team's members left, when the iteration began */
    bool handoff;             /* stopped to search the iteration again with the whole team */
    uint64_t iteration_start; /* the nodes when the iteration began */
    bool team_stopped;        /* stopped because another member did */
    uint64_t node_end;        /* in a team with a node limit: the nodes taken so far */
    uint64_t nodes_told;      /* in a team: the nodes added to its count */
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
    /* in a team, the team's nodes and rate (the members' counts as last told) */
    uint64_t nodes =
        s->team ? atomic_load_explicit(&s->team->seen, memory_order_relaxed) : s->nodes;
    ida_progress p = {
        .threshold = s->threshold,
        .nodes = nodes,
        .seconds = now - s->start,
        .nodes_per_second = now > s->start ? (double)nodes / (now - s->start) : 0.0,
    };
    l->progress(l->progress_argument, &p);
}

/* A member's share of the team's node limit, taken a chunk at a time: false when none is
 * left. */
static bool take_nodes(search *s)
{
    uint64_t most = s->limits->max_nodes;
    uint64_t before =
        atomic_fetch_add_explicit(&s->team->taken, TEAM_NODE_CHUNK, memory_order_relaxed);
    if (before >= most) return false;
    s->node_end += most - before < TEAM_NODE_CHUNK ? most - before : TEAM_NODE_CHUNK;
    return true;
}

/* True when the domain failed (ida_domain.failed): the search then stops with its reason. */
static bool domain_failed(search *s)
{
    const ida_domain *d = s->domain;
    ida_status failed = d->failed ? d->failed(d->context) : IDA_SOLVED;
    if (failed == IDA_SOLVED) return false;
    s->stop = failed;
    return s->stopped = true;
}

/* Looks at the domain, the limits, the flag and the clock; returns true when the search must
 * stop. */
static bool check_limits(search *s)
{
    const ida_limits *l = s->limits;
    if (domain_failed(s)) return true;
    bool limited = l->max_nodes &&
                   (s->team ? s->nodes >= s->node_end && !take_nodes(s) : s->nodes >= l->max_nodes);
    double now = ida_clock_check_look(&s->check, s->nodes,
                                      s->team && l->max_nodes ? s->node_end : l->max_nodes);
    if (s->team) {
        atomic_fetch_add_explicit(&s->team->seen, s->nodes - s->nodes_told, memory_order_relaxed);
        s->nodes_told = s->nodes;
        if (atomic_load_explicit(&s->team->stop, memory_order_relaxed)) {
            s->stop = IDA_CANCELLED;
            s->team_stopped = true;
            return s->stopped = true;
        }
        const ida_team_hooks *hooks = &s->team->hooks;
        if (s->together && hooks->pause_wanted && hooks->pause_wanted(hooks->argument))
            team_pause(s->team);
        if (!s->together && s->members > 1 &&
            s->nodes - s->iteration_start >= s->team->parallel_after) {
            /* a long iteration on one thread: given up, to be searched by all */
            s->handoff = s->team_stopped = true;
            return s->stopped = true;
        }
    }
    if (l->cancel && atomic_load_explicit(l->cancel, memory_order_relaxed)) {
        s->stop = IDA_CANCELLED;
        return s->stopped = true;
    }
    if (limited) {
        s->stop = IDA_LIMIT;
        return s->stopped = true;
    }
    if (l->deadline > 0 && now >= l->deadline) {
        s->stop = IDA_LIMIT;
        return s->stopped = true;
    }
    if (now >= s->next_progress && s->member == 0) {
        report_progress(s, now);
        s->next_progress = now + s->progress_interval;
    }
    return false;
}

/* What became of one move tried by depth_first(). */
typedef enum try_outcome {
    TRY_NEXT,     /* searched, cut or beyond the threshold: on to the next move */
    TRY_FOUND,    /* a goal below it: the path holds it */
    TRY_DEFERRED, /* another member is below the state it makes: left for later */
} try_outcome;

static bool depth_first(search *s, int g, int depth);

/* Makes `move` from the state at depth `depth` reached at cost g, searches below it and takes
 * it back. With `defer` (a member of a team searching with the others), a state another
 * member is still below is taken back unsearched, to be tried again once the rest of the
 * list is. */
static try_outcome try_move(search *s, ida_move move, int g, int depth, bool defer)
{
    const ida_domain *d = s->domain;
    int cost = 1;
    int h = d->make(d->context, move, g, &cost);
    s->nodes++;
    try_outcome outcome = TRY_NEXT;
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
            outcome = TRY_FOUND;
        } else if (ida_clock_check_due(&s->check, s->nodes) && check_limits(s)) {
            /* stopped before going deeper: taken back below */
        } else if (defer && d->shared && d->shared(d->context)) {
            outcome = TRY_DEFERRED;
        } else if (depth_first(s, g + cost, depth + 1)) {
            s->path[depth] = move;
            s->costs[depth] = cost;
            outcome = TRY_FOUND;
        }
    }
    d->unmake(d->context, move);
    return outcome;
}

/* Depth-first search below the current state, reached at cost g at the given depth.
 * Returns true when a goal was found (the path then holds it).
 *
 * In a team every member takes the moves in the domain's order, the one a search alone
 * takes, so that the shared table fills much as one search's would; a move into a state
 * another member is still below is deferred (J.-C. Weill, "The ABDADA distributed
 * minimax search algorithm", 1996): the member goes on with the next moves, the oldest
 * siblings nobody took yet, and only at the end of the list comes back to the deferred
 * ones, by then cut: the domain's unmake() marked them left, to the member below them. */
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
    /* the list by its place, not a pointer: the lists grow (ensure_depth) below it */
    size_t base = (size_t)depth * (size_t)d->max_moves;
    int count = d->expand(d->context, s->moves + base);
    assert(count >= 0 && count <= d->max_moves); /* the domain keeps its promise */
    /* the deferred moves are kept at the front of the list, over moves already tried */
    int deferred = 0;
    for (int i = 0; i < count; i++) {
        try_outcome outcome = try_move(s, s->moves[base + i], g, depth, s->together);
        if (outcome == TRY_FOUND) return true;
        if (outcome == TRY_DEFERRED) s->moves[base + deferred++] = s->moves[base + i];
        if (s->stopped || (ida_clock_check_due(&s->check, s->nodes) && check_limits(s)))
            return false;
    }
    for (int i = 0; i < deferred; i++) {
        if (try_move(s, s->moves[base + i], g, depth, false) == TRY_FOUND) return true;
        if (s->stopped || (ida_clock_check_due(&s->check, s->nodes) && check_limits(s)))
            return false;
    }
    return false;
}

/* Decides, as the last member to end an iteration, what the team does next. */
static void team_decide(ida_team *t)
{
    if (t->finder >= 0) {
        t->done = true;
        t->status = IDA_SOLVED;
    } else if (t->stopped != IDA_SOLVED) {
        t->done = true;
        t->status = t->stopped;
    } else if (t->handoff || !t->led) {
        /* the same threshold again, by every member (the threshold stays); so too when
         * member 0, which searches alone the short ones, quit before it (no one searched) */
        if (t->hooks.share) t->hooks.share(t->hooks.argument);
        t->parallel = true;
        t->handoff = false;
    } else if (t->next_threshold >= IDA_INFINITY) {
        /* nothing left: unsolvable, unless the depth limit hid part of the space */
        t->done = true;
        t->status = t->depth_cut ? IDA_LIMIT : IDA_UNSOLVABLE;
    } else {
        t->threshold = t->next_threshold;
    }
    t->next_threshold = IDA_INFINITY;
    t->led = t->parallel;
}

/* One iteration of a member of a team, ended with the others; true when the search is over
 * (*status then says how). */
static bool team_iteration(search *s, ida_status *status)
{
    ida_team *t = s->team;
    s->iteration_start = s->nodes;
    bool searching = s->member == 0 || s->together;
    if (searching && s->limits->max_nodes && s->nodes >= s->node_end && !take_nodes(s)) {
        s->stop = IDA_LIMIT; /* the team's nodes are all taken: none looked at */
        s->stopped = true;
    }
    bool found = searching && !s->stopped && depth_first(s, 0, 0);
    /* a failure after the last look: the iteration's "nothing here" is not to be believed */
    if (!found && !s->stopped) domain_failed(s);
    pthread_mutex_lock(&t->lock);
    t->threshold = s->threshold;
    if (s->handoff) t->handoff = true;
    if (s->member == 0) t->led = true;
    if (found) {
        if (t->finder < 0) t->finder = s->member;
        atomic_store(&t->stop, true);
    } else if (s->stopped && !s->team_stopped) {
        if (t->stopped == IDA_SOLVED) t->stopped = s->stop;
        atomic_store(&t->stop, true);
    }
    if (s->next_threshold < t->next_threshold) t->next_threshold = s->next_threshold;
    t->depth_cut = t->depth_cut || s->depth_cut;
    unsigned generation = t->generation;
    t->arrived++;
    team_pause_if_all(t);
    if (t->arrived == t->members) {
        team_decide(t);
        t->arrived = 0;
        t->generation++;
        pthread_cond_broadcast(&t->turn);
    } else {
        while (t->generation == generation) pthread_cond_wait(&t->turn, &t->lock);
    }
    bool done = t->done;
    /* another member's answer: this one's search was cut short */
    *status = t->status == IDA_SOLVED && t->finder != s->member ? IDA_CANCELLED : t->status;
    s->threshold = t->threshold;
    s->together = t->parallel;
    s->members = t->members;
    pthread_mutex_unlock(&t->lock);
    if (!done) {
        s->stopped = s->team_stopped = s->handoff = false;
        s->stop = IDA_SOLVED;
    }
    return done;
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
        .team = limits->team,
        .member = limits->team ? limits->member : 0,
    };
    s.next_progress = s.start + s.progress_interval;
    if (s.team) {
        pthread_mutex_lock(&s.team->lock);
        s.members = s.team->members;
        pthread_mutex_unlock(&s.team->lock);
    }
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
        int missed = 0;
        for (;;) {
            s.next_threshold = IDA_INFINITY;
            result->iterations++;
            /* a member that waits out an iteration does not begin it (the domains' shared
             * state is not yet shared: ida_team_hooks.share); it begins the ones it missed
             * when it joins */
            if (s.team && s.member > 0 && !s.together) {
                missed++;
            } else if (domain->begin_iteration) {
                for (; missed > 0; missed--) domain->begin_iteration(domain->context, s.threshold);
                domain->begin_iteration(domain->context, s.threshold);
            }
            if (s.team) {
                if (team_iteration(&s, &status)) break;
                if (s.member == 0) report_progress(&s, ida_clock());
                continue;
            }
            if (depth_first(&s, 0, 0)) {
                status = IDA_SOLVED;
                break;
            }
            if (s.stopped || domain_failed(&s)) {
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
