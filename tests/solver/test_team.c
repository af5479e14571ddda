/* test_team.c - IDA* on several threads over one shared transposition table (ida.h's team,
 * solver_table_share): the table's entries under two threads, and a team of searches
 * finding the optimum one search finds, on mazes drawn here. A maze is a toy domain: the
 * walker's square is the state, a step costs 1, the bound is the Manhattan distance to the
 * goal, and the table prunes a square reached again at no better cost, as the Sokoban
 * domain does (solver_domain.c): entered in make(), left in unmake(). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "ida.h"
#include "solver/solver_table.h"
#include "solver/solver_memory.h"
#include "solver/solver_options.h"
#include "solver/solver_team.h"

/* ---- the shared table ------------------------------------------------------------------ */

/* Shared, a position entered at the same cost in the same iteration is entered again while
 * the thread that entered it is below it (to help), and cut once it has left it. */
static void test_a_shared_entry_is_helped_while_entered_and_cut_once_left(void **state)
{
    (void)state;
    solver_table table;
    assert_true(solver_table_init(&table, (size_t)1 << 20));
    uint64_t key = 0x123456789abcdefULL;
    assert_true(solver_table_enter(&table, key, 5, 1)); /* alone: no one is below it */
    assert_false(solver_table_enter(&table, key, 5, 1));
    solver_table_share(&table);
    assert_false(solver_table_enter(&table, key, 5, 1)); /* what it held stays searched */
    assert_true(solver_table_enter(&table, key, 5, 2));  /* the next iteration */
    assert_int_equal(solver_table_visit(&table, key, 5, 2), SOLVER_TABLE_HELPING);
    assert_false(solver_table_enter(&table, key, 6, 2)); /* dearer: cut, as alone */
    solver_table_leave(&table, key, 5, 2);
    assert_false(solver_table_enter(&table, key, 5, 2)); /* left: searched */
    assert_true(solver_table_enter(&table, key, 4, 2));  /* cheaper: searched again */
    solver_table_leave(&table, key, 5, 2);               /* an older entering: nothing */
    assert_true(solver_table_enter(&table, key, 4, 2));
    solver_table_free(&table);
}

enum { HAMMER_KEYS = 20000 };

typedef struct hammer {
    solver_table *table;
    int first; /* the key the thread starts at */
    int entered;
} hammer;

static uint64_t hammer_key(int i)
{
    return ((uint64_t)i + 1) * 0x9e3779b97f4a7c15ULL;
}

static void *hammer_main(void *argument)
{
    hammer *h = argument;
    for (int n = 0; n < HAMMER_KEYS; n++) {
        int i = (h->first + n) % HAMMER_KEYS;
        if (solver_table_enter(h->table, hammer_key(i), i % 7, 3)) {
            h->entered++;
            solver_table_leave(h->table, hammer_key(i), i % 7, 3);
        }
    }
    return NULL;
}

/* Two threads entering and leaving the same positions at once: each position is entered at
 * least once, by one of them or both, and afterwards every one is held as searched; the
 * table then grows (no thread running) and still holds them all but the few torn, and says
 * when it is half full again. */
static void test_two_threads_share_the_table(void **state)
{
    (void)state;
    solver_table table;
    assert_true(solver_table_init(&table, (size_t)64 << 20));
    solver_table_share(&table);
    hammer a = {.table = &table, .first = 0}, b = {.table = &table, .first = HAMMER_KEYS / 2};
    pthread_t thread;
    assert_int_equal(pthread_create(&thread, NULL, hammer_main, &b), 0);
    hammer_main(&a);
    pthread_join(thread, NULL);
    assert_true(a.entered + b.entered >= HAMMER_KEYS);
    assert_false(solver_table_full(&table)); /* 20,000 of the first 65,536 entries */
    solver_table_grow(&table);
    /* but an entry torn by the two writers at once, which reads as another position's (and
     * is dropped by the growing): a few at most */
    int held = 0;
    for (int i = 0; i < HAMMER_KEYS; i++)
        held += !solver_table_enter(&table, hammer_key(i), i % 7, 3);
    assert_true(held >= HAMMER_KEYS - HAMMER_KEYS / 100);
    int more = HAMMER_KEYS;
    while (!solver_table_full(&table) && more < 20 * HAMMER_KEYS)
        solver_table_enter(&table, hammer_key(more++), 1, 4);
    /* half of 4 x 65,536 entries, counted one in 64 */
    assert_true(more > 100000 && more < 200000);
    solver_table_free(&table);
}

typedef struct grower {
    solver_table *table;
    pthread_t thread;
} grower;

static void *grow_part_main(void *argument)
{
    grower *g = argument;
    solver_table_grow_part(g->table);
    return NULL;
}

/* The growth shared by threads (begin on one, a part on each at once, end on one) moves every
 * entry, as one thread does, and the table then says when it is half full again. */
static void test_threads_grow_the_table_together(void **state)
{
    (void)state;
    enum { KEYS = 30000 }; /* of the first 65,536 entries: not yet half full */
    solver_table table;
    assert_true(solver_table_init(&table, (size_t)64 << 20));
    for (int i = 0; i < KEYS; i++) assert_true(solver_table_enter(&table, hammer_key(i), 1, 1));
    solver_table_share(&table);
    solver_table_grow_begin(&table);
    grower growers[3];
    for (int i = 0; i < 3; i++) {
        growers[i].table = &table;
        assert_int_equal(pthread_create(&growers[i].thread, NULL, grow_part_main, &growers[i]), 0);
    }
    solver_table_grow_part(&table);
    for (int i = 0; i < 3; i++) pthread_join(growers[i].thread, NULL);
    solver_table_grow_end(&table);
    assert_int_equal(table.bucket_mask + 1, 4 * ((1 << 20) / (SOLVER_TABLE_WAYS * 16)));
    for (int i = 0; i < KEYS; i++) assert_false(solver_table_enter(&table, hammer_key(i), 1, 1));
    assert_true(solver_table_enter(&table, hammer_key(KEYS), 1, 1)); /* a new one is new */
    int more = KEYS + 1;
    while (!solver_table_full(&table) && more < 40 * KEYS)
        solver_table_enter(&table, hammer_key(more++), 1, 2);
    /* half of 4 x 65,536 entries, counted one in 64 from what the growth moved */
    assert_true(more > 100000 && more < 200000);
    solver_table_free(&table);
}

/* ---- a team on mazes ------------------------------------------------------------------- */

enum { MAZE_MOST = 32 * 32, MAZE_DEPTH = 4096 };

typedef struct maze {
    const char *const *rows;
    int width, height;
    int start, goal;
} maze;

/* One member's domain: its own walker and path over the maze and the shared table. */
typedef struct walker {
    const maze *maze;
    solver_table *table;
    int iteration;
    int square[MAZE_DEPTH];
    int entered[MAZE_DEPTH]; /* the cost the table took the square at, or -1 */
    int depth;
    bool helping; /* the square last made is one another member is below */
    int makes;
    int fail_after; /* 0, or the makes after which the walker is out of memory */
    bool no_memory; /* then, as the Sokoban domain, it has no moves from anywhere */
} walker;

/* What goes wrong in a team (team_cost): a member whose domain runs out of memory, one that
 * quits without searching (its set-up failed); -1: none. */
static struct {
    int failing, fail_after;
    unsigned quitting; /* a bit a member */
    /* a bit a member: one still setting up until the team stops (ida_team_stopped), then
     * quitting; whether each saw the stop within 10 s */
    unsigned setting_up;
    atomic_uint saw_stop;
} trouble = {.failing = -1};

/* A pause of the team's own instead of the table's growth (team_cost): wanted every
 * PAUSE_EVERY makes of all members, its steps counted, and what breaks the pause's promise
 * (a member making a move while it is on, a part outside it, an end without parts) counted
 * as wrong. */
enum { PAUSE_EVERY = 64 };
static struct {
    bool on;
    atomic_int makes, parts, pauses, wrong;
    atomic_bool wanted, on_now;
} pausing;

static bool pause_wanted(void *argument)
{
    (void)argument;
    return atomic_load(&pausing.wanted);
}

static void pause_begin(void *argument)
{
    (void)argument;
    if (atomic_exchange(&pausing.on_now, true)) atomic_fetch_add(&pausing.wrong, 1);
    atomic_store(&pausing.parts, 0);
}

static void pause_part(void *argument)
{
    (void)argument;
    if (!atomic_load(&pausing.on_now)) atomic_fetch_add(&pausing.wrong, 1);
    atomic_fetch_add(&pausing.parts, 1);
}

static void pause_end(void *argument)
{
    (void)argument;
    if (atomic_load(&pausing.parts) < 1) atomic_fetch_add(&pausing.wrong, 1);
    atomic_store(&pausing.wanted, false);
    atomic_store(&pausing.on_now, false);
    atomic_fetch_add(&pausing.pauses, 1);
}

static const int step_x[4] = {0, 1, 0, -1}, step_y[4] = {-1, 0, 1, 0};

static maze maze_from(const char *const *rows, int height)
{
    maze m = {.rows = rows, .height = height, .width = (int)strlen(rows[0])};
    for (int y = 0; y < height; y++)
        for (int x = 0; x < m.width; x++) {
            if (rows[y][x] == '@') m.start = y * m.width + x;
            if (rows[y][x] == '.') m.goal = y * m.width + x;
        }
    return m;
}

static uint64_t square_key(int square)
{
    return ((uint64_t)square + 1) * 0xbf58476d1ce4e5b9ULL;
}

static int walker_bound(const walker *w)
{
    int at = w->square[w->depth], width = w->maze->width;
    return abs(at % width - w->maze->goal % width) + abs(at / width - w->maze->goal / width);
}

static int walker_root_bound(void *context)
{
    return walker_bound(context);
}

static void walker_begin_iteration(void *context, int threshold)
{
    (void)threshold;
    walker *w = context;
    w->iteration++;
    solver_table_enter(w->table, square_key(w->square[0]), 0, w->iteration);
}

static int walker_expand(void *context, ida_move *moves)
{
    walker *w = context;
    const maze *m = w->maze;
    int at = w->square[w->depth], count = 0;
    if (w->no_memory) return 0;
    for (int d = 0; d < 4; d++) {
        int x = at % m->width + step_x[d], y = at / m->width + step_y[d];
        if (x >= 0 && y >= 0 && x < m->width && y < m->height && m->rows[y][x] != '#')
            moves[count++] = (ida_move)(y * m->width + x);
    }
    return count;
}

static int walker_make(void *context, ida_move move, int g, int *cost)
{
    walker *w = context;
    *cost = 1;
    /* a move of the list expand() gave: one step to an open square */
    int at = w->square[w->depth], width = w->maze->width, to = (int)move;
    assert_in_range(to, 0, width * w->maze->height - 1);
    assert_int_equal(abs(to % width - at % width) + abs(to / width - at / width), 1);
    if (w->fail_after && ++w->makes > w->fail_after) w->no_memory = true;
    if (pausing.on) {
        if (atomic_load(&pausing.on_now)) atomic_fetch_add(&pausing.wrong, 1);
        if (atomic_fetch_add(&pausing.makes, 1) % PAUSE_EVERY == PAUSE_EVERY - 1)
            atomic_store(&pausing.wanted, true);
    }
    w->depth++;
    w->square[w->depth] = (int)move;
    w->entered[w->depth] = -1;
    if (w->depth + 1 >= MAZE_DEPTH) return IDA_PRUNE;
    solver_table_answer answer =
        solver_table_visit(w->table, square_key((int)move), g + 1, w->iteration);
    if (answer == SOLVER_TABLE_CUT) return IDA_PRUNE;
    w->helping = answer == SOLVER_TABLE_HELPING;
    w->entered[w->depth] = g + 1;
    return walker_bound(w);
}

static void walker_unmake(void *context, ida_move move)
{
    (void)move;
    walker *w = context;
    if (w->entered[w->depth] >= 0)
        solver_table_leave(w->table, square_key(w->square[w->depth]), w->entered[w->depth],
                           w->iteration);
    w->depth--;
}

static bool walker_shared(void *context)
{
    const walker *w = context;
    return w->helping;
}

static ida_status walker_failed(void *context)
{
    const walker *w = context;
    return w->no_memory ? IDA_NO_MEMORY : IDA_SOLVED;
}

static bool walker_is_goal(void *context)
{
    const walker *w = context;
    return w->square[w->depth] == w->maze->goal;
}

typedef struct member {
    walker walker;
    ida_domain domain;
    ida_limits limits;
    ida_result result;
    pthread_t thread;
} member;

static void *member_main(void *argument)
{
    member *m = argument;
    int i = m->limits.member;
    if (trouble.setting_up >> i & 1) {
        const atomic_bool *stopped = ida_team_stopped(m->limits.team);
        for (int waited = 0; !atomic_load(stopped) && waited < 10000; waited++) {
            struct timespec pause = {0, 1000000};
            nanosleep(&pause, NULL);
        }
        if (atomic_load(stopped)) atomic_fetch_or(&trouble.saw_stop, 1u << i);
    } else if (!(trouble.quitting >> i & 1)) {
        ida_search(&m->domain, &m->limits, &m->result);
    }
    ida_team_quit(m->limits.team);
    return NULL;
}

static void share(void *argument)
{
    solver_table_share(argument);
}

static bool full(void *argument)
{
    return solver_table_full(argument);
}

static void grow(void *argument)
{
    if (solver_table_full(argument)) solver_table_grow(argument);
}

/* A path of moves walks from the start to the goal through open squares. */
static bool walks(const maze *m, const ida_result *r)
{
    int at = m->start;
    for (int i = 0; i < r->length; i++) {
        int to = (int)r->path[i], dx = abs(to % m->width - at % m->width),
            dy = abs(to / m->width - at / m->width);
        if (dx + dy != 1 || m->rows[to / m->width][to % m->width] == '#') return false;
        at = to;
    }
    return at == m->goal;
}

/* Solves `m` with a team of `size` (1: one search alone, no team); the cost, or -1 when
 * there is no answer; the path walks, and the nodes are kept within `max_nodes`. */
static int team_cost(const maze *m, int size, uint64_t parallel_after, uint64_t max_nodes,
                     bool tell, ida_status *status)
{
    solver_table table;
    assert_true(solver_table_init(&table, (size_t)8 << 20));
    ida_team_hooks hooks = {
        .argument = &table, .share = share, .pause_wanted = full, .pause = grow};
    if (pausing.on)
        hooks = (ida_team_hooks){.share = share,
                                 .argument = &table,
                                 .pause_wanted = pause_wanted,
                                 .pause = pause_begin,
                                 .pause_part = pause_part,
                                 .pause_end = pause_end};
    ida_team *team = size > 1 ? ida_team_new(size, parallel_after, &hooks) : NULL;
    member *members = calloc((size_t)size, sizeof *members);
    assert_non_null(members);
    for (int i = 0; i < size; i++) {
        member *mb = &members[i];
        mb->walker = (walker){.maze = m, .table = &table};
        mb->walker.square[0] = m->start;
        if (i == trouble.failing) mb->walker.fail_after = trouble.fail_after;
        mb->domain = (ida_domain){.context = &mb->walker,
                                  .max_moves = 4,
                                  .root_bound = walker_root_bound,
                                  .begin_iteration = walker_begin_iteration,
                                  .expand = walker_expand,
                                  .make = walker_make,
                                  .unmake = walker_unmake,
                                  .is_goal = walker_is_goal,
                                  .shared = tell ? walker_shared : NULL,
                                  .failed = walker_failed};
        mb->limits = (ida_limits){.team = team, .member = i, .max_nodes = max_nodes};
    }
    for (int i = 1; i < size; i++)
        assert_int_equal(pthread_create(&members[i].thread, NULL, member_main, &members[i]), 0);
    if (team) {
        member_main(&members[0]);
    } else {
        ida_search(&members[0].domain, &members[0].limits, &members[0].result);
    }
    for (int i = 1; i < size; i++) pthread_join(members[i].thread, NULL);
    int finder = team ? ida_team_finder(team) : 0;
    int told = finder; /* the team's answer: the finder's, else any searching member's */
    unsigned idle = trouble.quitting | trouble.setting_up; /* members that never search */
    while (told < 0 || idle >> told & 1) told = told < 0 ? 0 : told + 1;
    *status = members[told].result.status;
    uint64_t nodes = 0;
    for (int i = 0; i < size; i++) {
        if (idle >> i & 1) continue; /* it never searched */
        /* the team's, for all but those another member's answer cut short */
        assert_int_equal(members[i].result.status,
                         finder >= 0 && i != finder ? IDA_CANCELLED : *status);
        nodes += members[i].result.nodes;
    }
    if (max_nodes) assert_true(nodes <= max_nodes);
    int cost = -1;
    if (*status == IDA_SOLVED) {
        assert_true(finder >= 0 && finder < size);
        assert_true(walks(m, &members[finder].result));
        cost = members[finder].result.cost;
        assert_int_equal(cost, members[finder].result.length);
    }
    for (int i = 0; i < size; i++) {
        /* each member left its domain where it began */
        assert_int_equal(members[i].walker.depth, 0);
        ida_result_free(&members[i].result);
    }
    free(members);
    ida_team_free(team);
    solver_table_free(&table);
    return cost;
}

static const char *const winding[] = {
    "@.#..........#..", "..#.######.#.#..", "..#......#.#.#..", "..######.#.#.#..",
    "......#..#.#....", ".####.#.##.####.", "....#.#.........", "###.#.#######.##",
    "....#.........#.", ".######.#####.#.", "........#.......",
};

static const char *const open_room[] = {
    "@...............", "................", "......####......", "......#..#......",
    "......#.##......", "................", "...............",
};

static const char *const detour[] = {
    "@.......................", "........................", "........................",
    "........................", "........................", "........................",
    "........................", "........................", "#######################.",
    "........................", "........................", "........................",
    "........................", "........................", "........................",
    "........................",
};

static const char *const walled_off[] = {
    "@..#....", "...#....", "...#..#.", "####..#.", "......#.",
};

/* The team finds the cost one search finds, with the search handed to all at once (after 0
 * nodes) or after a while, with two and three members, told which states another member is
 * below (and deferring them) or not (and helping at once). */
static void test_a_team_finds_the_optimum_one_search_finds(void **state)
{
    (void)state;
    maze mazes[] = {maze_from(winding, 11), maze_from(open_room, 6)};
    /* the goal of the winding maze, far from its start */
    mazes[0].goal = 10 * mazes[0].width + 15;
    mazes[1].goal = 3 * mazes[1].width + 8; /* inside the room: round to its door */
    for (size_t k = 0; k < sizeof mazes / sizeof *mazes; k++) {
        ida_status status;
        int alone = team_cost(&mazes[k], 1, 0, 0, false, &status);
        assert_int_equal(status, IDA_SOLVED);
        assert_true(alone > 0);
        for (int size = 2; size <= 3; size++)
            for (uint64_t after = 0; after <= 64; after += 64)
                for (int told = 0; told <= 1; told++) {
                    assert_int_equal(team_cost(&mazes[k], size, after, 0, told, &status), alone);
                    assert_int_equal(status, IDA_SOLVED);
                }
    }
}

/* A fan: the root's moves lead to states with no moves of their own, each within the
 * threshold, and no goal. Member 0 is told, the first time it makes move 0 in the iteration
 * the whole team searches (its second: the first it searched alone until the hand-over),
 * that another member is below the state. */
typedef struct fan {
    int member;
    int iteration;
    int depth;
    ida_move last;
    bool told;
    ida_move searched[8]; /* the root's moves searched below, in order, this iteration */
    int searched_count;
    ida_move made[8]; /* the root's moves made, in order, this iteration */
    int made_count;
} fan;

enum { FAN_MOVES = 3 };

static int fan_root_bound(void *context)
{
    (void)context;
    return 1;
}

static void fan_begin_iteration(void *context, int threshold)
{
    (void)threshold;
    fan *f = context;
    f->iteration++;
    f->searched_count = f->made_count = 0;
}

static int fan_expand(void *context, ida_move *moves)
{
    fan *f = context;
    if (f->depth > 0) {
        if (f->searched_count < 8) f->searched[f->searched_count++] = f->last;
        return 0;
    }
    for (int i = 0; i < FAN_MOVES; i++) moves[i] = (ida_move)i;
    return FAN_MOVES;
}

static int fan_make(void *context, ida_move move, int g, int *cost)
{
    (void)g;
    fan *f = context;
    *cost = 1;
    f->depth++;
    f->last = move;
    if (f->made_count < 8) f->made[f->made_count++] = move;
    return 0;
}

static void fan_unmake(void *context, ida_move move)
{
    (void)move;
    fan *f = context;
    f->depth--;
}

static bool fan_is_goal(void *context)
{
    (void)context;
    return false;
}

static bool fan_shared(void *context)
{
    fan *f = context;
    if (f->member != 0 || f->iteration != 2 || f->last != 0 || f->told) return false;
    return f->told = true;
}

typedef struct fan_member {
    fan fan;
    ida_domain domain;
    ida_limits limits;
    ida_result result;
} fan_member;

static void *fan_main(void *argument)
{
    fan_member *m = argument;
    ida_search(&m->domain, &m->limits, &m->result);
    ida_team_quit(m->limits.team);
    return NULL;
}

/* A move into a state another member is still below is deferred: the member tries the rest
 * of the list first, in the domain's order, and searches the deferred state last. */
static void test_a_state_another_member_is_below_is_searched_last(void **state)
{
    (void)state;
    ida_team_hooks hooks = {0};
    ida_team *team = ida_team_new(2, 0, &hooks);
    assert_non_null(team);
    fan_member members[2];
    for (int i = 0; i < 2; i++) {
        members[i] = (fan_member){.fan = {.member = i}};
        members[i].domain = (ida_domain){.context = &members[i].fan,
                                         .max_moves = FAN_MOVES,
                                         .root_bound = fan_root_bound,
                                         .begin_iteration = fan_begin_iteration,
                                         .expand = fan_expand,
                                         .make = fan_make,
                                         .unmake = fan_unmake,
                                         .is_goal = fan_is_goal,
                                         .shared = fan_shared};
        members[i].limits = (ida_limits){.team = team, .member = i};
    }
    pthread_t thread;
    assert_int_equal(pthread_create(&thread, NULL, fan_main, &members[1]), 0);
    fan_main(&members[0]);
    pthread_join(thread, NULL);
    for (int i = 0; i < 2; i++) assert_int_equal(members[i].result.status, IDA_UNSOLVABLE);
    const fan *f = &members[0].fan;
    assert_int_equal(f->iteration, 2);
    /* made in the domain's order, move 0 made again at the end */
    assert_int_equal(f->made_count, 4);
    assert_int_equal(f->made[0], 0);
    assert_int_equal(f->made[1], 1);
    assert_int_equal(f->made[2], 2);
    assert_int_equal(f->made[3], 0);
    /* and searched below only then */
    assert_int_equal(f->searched_count, 3);
    assert_int_equal(f->searched[0], 1);
    assert_int_equal(f->searched[1], 2);
    assert_int_equal(f->searched[2], 0);
    /* the member not told so searches the fan in the domain's order */
    const fan *other = &members[1].fan;
    assert_int_equal(other->searched_count, 3);
    for (int i = 0; i < 3; i++) assert_int_equal(other->searched[i], (ida_move)i);
    for (int i = 0; i < 2; i++) ida_result_free(&members[i].result);
    ida_team_free(team);
}

/* A goal no path reaches: the team searches the space out, as one search does. */
static void test_a_team_proves_there_is_no_way(void **state)
{
    (void)state;
    maze m = maze_from(walled_off, 5);
    m.goal = 0 * m.width + 7;
    ida_status status;
    assert_int_equal(team_cost(&m, 1, 0, 0, false, &status), -1);
    assert_int_equal(status, IDA_UNSOLVABLE);
    assert_int_equal(team_cost(&m, 2, 0, 0, true, &status), -1);
    assert_int_equal(status, IDA_UNSOLVABLE);
}

/* The node limit is the team's: all members together look at no more nodes than it. */
static void test_the_node_limit_is_the_teams(void **state)
{
    (void)state;
    maze m = maze_from(winding, 11);
    m.goal = 10 * m.width + 15;
    ida_status status;
    assert_int_equal(team_cost(&m, 2, 0, 20, true, &status), -1);
    assert_int_equal(status, IDA_LIMIT);
}

/* A member out of memory ends its subtrees with nothing below them; the others must not
 * take them as searched: the team stops with the error rather than answer a longer way or
 * "no way" as the best. */
static void test_a_member_out_of_memory_stops_the_team_with_the_error(void **state)
{
    (void)state;
    maze m = maze_from(winding, 11);
    m.goal = 10 * m.width + 15;
    ida_status status;
    int alone = team_cost(&m, 1, 0, 0, false, &status);
    for (int failing = 0; failing < 2; failing++)
        for (int after = 1; after <= 200; after += 199) {
            trouble.failing = failing;
            trouble.fail_after = after;
            int cost = team_cost(&m, 2, 0, 0, true, &status);
            /* a goal found in the iteration the failure came in is still the nearest */
            if (status == IDA_SOLVED) {
                assert_int_equal(cost, alone);
            } else {
                assert_int_equal(cost, -1);
                assert_int_equal(status, IDA_NO_MEMORY);
            }
        }
    /* alone, as before */
    trouble.failing = 0;
    trouble.fail_after = 1;
    assert_int_equal(team_cost(&m, 1, 0, 0, false, &status), -1);
    assert_int_equal(status, IDA_NO_MEMORY);
    trouble.failing = -1;
}

/* Members that quit before they search (a thread that could not start, a set-up that
 * failed) leave the rest to find the optimum. */
static void test_a_team_whose_members_quit_still_finds_the_optimum(void **state)
{
    (void)state;
    maze m = maze_from(open_room, 6);
    m.goal = 3 * m.width + 8;
    ida_status status;
    int alone = team_cost(&m, 1, 0, 0, false, &status);
    unsigned quits[] = {0x6, 0x1, 0x3, 0x5};
    for (size_t k = 0; k < sizeof quits / sizeof *quits; k++)
        for (uint64_t after = 0; after <= 64; after += 64) {
            trouble.quitting = quits[k];
            assert_int_equal(team_cost(&m, 4, after, 0, true, &status), alone);
            assert_int_equal(status, IDA_SOLVED);
        }
    trouble.quitting = 0;
}

/* A pause in parts: every member stops between two nodes (or at the end of the iteration),
 * one begins it, each that stopped between two nodes does a part of it at once, one ends it,
 * and only then do they go on; the team still finds the optimum. */
static void test_a_teams_pause_is_done_in_parts_while_no_member_searches(void **state)
{
    (void)state;
    maze m = maze_from(detour, 16); /* a wall between the start and the goal below it */
    m.goal = 15 * m.width;
    ida_status status;
    int alone = team_cost(&m, 1, 0, 0, false, &status);
    assert_int_equal(alone, 15 + 2 * 23);
    pausing.on = true;
    for (int size = 2; size <= 3; size++) {
        atomic_store(&pausing.pauses, 0);
        assert_int_equal(team_cost(&m, size, 0, 0, true, &status), alone);
        assert_int_equal(status, IDA_SOLVED);
        assert_true(atomic_load(&pausing.pauses) > 0);
        assert_int_equal(atomic_load(&pausing.wrong), 0);
    }
    pausing.on = false;
}

/* A member still setting up when another finds the goal sees the team's stop and quits:
 * the answer waits for no member's set-up (without the stop this test would wait 10 s).
 * The goal is found in the first iteration (the bound along the top row is exact), which the
 * first member searches alone. */
static void test_a_member_setting_up_sees_the_teams_answer(void **state)
{
    (void)state;
    maze m = maze_from(detour, 16);
    m.goal = m.width - 1;
    ida_status status;
    trouble.setting_up = 0x2;
    atomic_store(&trouble.saw_stop, 0);
    assert_int_equal(team_cost(&m, 2, 100000, 0, true, &status), m.width - 1);
    assert_int_equal(status, IDA_SOLVED);
    assert_int_equal(atomic_load(&trouble.saw_stop), 0x2);
    trouble.setting_up = 0;
}

/* A member's stop (solver_stop_of, which its set-up looks at) holds the team's flag, so a
 * member setting up stops once the team has; but the flag says no more than that the team
 * stopped: a team whose nodes ran out gives up at its limit, not as if cancelled. */
static void test_a_members_stop_holds_the_teams_flag_not_as_a_cancel(void **state)
{
    (void)state;
    maze m = maze_from(detour, 16);
    m.goal = m.width - 1;
    solver_table table;
    assert_true(solver_table_init(&table, (size_t)8 << 20));
    ida_team_hooks hooks = {.argument = &table, .share = share};
    ida_team *team = ida_team_new(1, 100000, &hooks);
    assert_non_null(team);
    solver_options options = {.mode = SOLVER_OPTIMAL, .team = team};
    solver_stop stop = solver_stop_of(&options);
    assert_false(solver_stop_now(&stop));
    member alone = {.walker = {.maze = &m, .table = &table}};
    alone.walker.square[0] = m.start;
    alone.domain = (ida_domain){.context = &alone.walker,
                                .max_moves = 4,
                                .root_bound = walker_root_bound,
                                .begin_iteration = walker_begin_iteration,
                                .expand = walker_expand,
                                .make = walker_make,
                                .unmake = walker_unmake,
                                .is_goal = walker_is_goal,
                                .failed = walker_failed};
    alone.limits = (ida_limits){.team = team, .max_nodes = 10};
    assert_int_equal(ida_search(&alone.domain, &alone.limits, &alone.result), IDA_LIMIT);
    assert_true(solver_stop_now(&stop));
    assert_int_equal(solver_stop_status(&stop), IDA_LIMIT);
    atomic_bool cancel = true;
    options.cancel = &cancel;
    stop = solver_stop_of(&options);
    assert_int_equal(solver_stop_status(&stop), IDA_CANCELLED);
    ida_result_free(&alone.result);
    ida_team_free(team);
    solver_table_free(&table);
}

/* --memory is the peak in a team too: the shared table is what one search alone would have,
 * less every other member's own tables; a team whose own tables would take more than half
 * of it is smaller. */
static void test_a_team_keeps_within_the_memory_limit(void **state)
{
    (void)state;
    solver_options options = {.mode = SOLVER_OPTIMAL, .memory_bytes = (size_t)512 << 20};
    size_t alone, bytes, own = solver_member_bytes(&options, false);
    options.threads = 1;
    assert_int_equal(solver_team_fit(&options, false, &alone), 1);
    assert_true(alone + own <= options.memory_bytes + solver_pairs_bytes(&options));
    options.threads = 4;
    assert_int_equal(solver_team_fit(&options, false, &bytes), 4);
    assert_true(own > 0);
    assert_true(bytes == alone - 3 * own);
    options.memory_bytes = (size_t)32 << 20;
    options.threads = 64;
    int size = solver_team_fit(&options, false, &bytes);
    own = solver_member_bytes(&options, false);
    assert_true(size >= 1 && size < 64);
    assert_true((size_t)size * own <= solver_search_bytes(&options) / 2);
    assert_true(bytes + (size_t)(size - 1) * own <= solver_search_bytes(&options));
}

/* A team is one a core, or --threads, never more than a team takes: on a machine of 128
 * cores the optimal mode runs 64 threads rather than failing to set up. */
static void test_a_team_is_one_a_core_up_to_the_most_a_team_takes(void **state)
{
    (void)state;
    assert_int_equal(solver_team_size_for(0, 2), 2);
    assert_int_equal(solver_team_size_for(3, 2), 3);
    assert_int_equal(solver_team_size_for(0, 0), 1);
    assert_int_equal(solver_team_size_for(0, 128), IDA_TEAM_MOST);
    assert_int_equal(solver_team_size_for(1000, 2), IDA_TEAM_MOST);
    ida_team_hooks none = {0};
    ida_team *team = ida_team_new(solver_team_size_for(0, 128), 0, &none);
    assert_non_null(team);
    ida_team_free(team);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_a_shared_entry_is_helped_while_entered_and_cut_once_left),
        cmocka_unit_test(test_two_threads_share_the_table),
        cmocka_unit_test(test_threads_grow_the_table_together),
        cmocka_unit_test(test_a_team_finds_the_optimum_one_search_finds),
        cmocka_unit_test(test_a_state_another_member_is_below_is_searched_last),
        cmocka_unit_test(test_a_team_proves_there_is_no_way),
        cmocka_unit_test(test_the_node_limit_is_the_teams),
        cmocka_unit_test(test_a_member_out_of_memory_stops_the_team_with_the_error),
        cmocka_unit_test(test_a_team_whose_members_quit_still_finds_the_optimum),
        cmocka_unit_test(test_a_member_setting_up_sees_the_teams_answer),
        cmocka_unit_test(test_a_members_stop_holds_the_teams_flag_not_as_a_cancel),
        cmocka_unit_test(test_a_teams_pause_is_done_in_parts_while_no_member_searches),
        cmocka_unit_test(test_a_team_keeps_within_the_memory_limit),
        cmocka_unit_test(test_a_team_is_one_a_core_up_to_the_most_a_team_takes),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
