/* test_worker.c - the solver thread: results, cancelling, solving ahead, the answer store,
 * the optimal upgrade, the optimizer on the answer given, lost positions found unasked, the
 * look back.
 *
 * Most tests put a stand-in search in place of solver_solve() through worker_create_with():
 * one that answers at once, one that blocks until it is cancelled, one that judges a position
 * by where its box stands. The last tests run the real solver on tiny levels. Waits use a
 * mutex and condition variable or poll() on the wake descriptor, never a timed assertion. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <poll.h>
#include <pthread.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#ifdef __linux__
#include <sys/resource.h>
#include <sys/syscall.h>
#include <unistd.h>
#endif

#include "rules/game.h"
#include "level/level.h"
#include "rules/lurd.h"
#include "worker/worker.h"

/* Long enough that only a broken worker ever reaches it. */
enum { PATIENCE_MS = 60000 };

/* ---- the stand-in search -------------------------------------------------------------- */

typedef enum fake_behaviour {
    FAKE_SOLVES,           /* "R" at once, with 10 nodes */
    FAKE_BLOCKS,           /* reports 1234 nodes, then waits until cancelled */
    FAKE_TICKS,            /* reports progress every millisecond until cancelled */
    FAKE_SETS_UP,          /* reports nothing until fake_end_set_up(), then as FAKE_BLOCKS */
    FAKE_OPTIMAL_RUNS_OUT, /* optimal: limit at once; fast: solves */
    FAKE_BY_BOX_COLUMN,    /* judges by the first box's column: see fake_by_column */
    FAKE_DETOUR,           /* fast: LONG_WAY_ROOM's solution the long way round; optimal: limit */
} fake_behaviour;

/* What the stand-in does and has seen; shared with the worker thread, so under a lock. */
static struct {
    pthread_mutex_t lock;
    pthread_cond_t changed;
    fake_behaviour behaviour;
    int started, finished;
    int running, most_running; /* searches running at once, and the most ever */
    /* FAKE_BY_BOX_COLUMN: the answer for a box in column x (0 = UNSOLVABLE). */
    solver_status by_column[16];
    solver_mode modes[16]; /* the mode of each search, in order */
    bool known[16];        /* whether each search was given known positions */
    double seconds_left[16];           /* until each search's deadline, as it started (0: none) */
    const solver_learned *learned[16]; /* what each search was to start from and add to */
    bool learned_fits[16];             /* and whether it was made for that search's board */
    int box_column[16];                /* the first box's column in each search's position */
    int plan_box_column[16];           /* and in its plan_from (-1: none) */
    size_t memory_bytes;
    /* The worker thread's signal mask during the last search: how many of the signals a fault
     * raises (SIGSEGV, SIGBUS, SIGFPE, SIGILL, SIGABRT) were blocked, and whether SIGINT was. */
    int fault_signals_blocked;
    int niceness; /* of the thread that ran the last solve (Linux) */
    bool interrupt_blocked;
    /* The stand-in optimizer (fake_optimize): how often it started and ended, and the seconds
     * and stop flag it was given. */
    int optimizer_started, optimizer_finished;
    double optimizer_seconds;
    bool optimizer_cancel_given;
    bool optimizer_at_once; /* it ends at once, finding nothing shorter */
    bool set_up;            /* FAKE_SETS_UP: its tables are built, its search may begin */
} fake = {.lock = PTHREAD_MUTEX_INITIALIZER, .changed = PTHREAD_COND_INITIALIZER};

/* Reads a field of the fake under its lock: the worker's thread may be writing it (an
 * optimal upgrade after the fast answer, a search ahead) while the test looks. */
#define FAKE_READ(field)                                                                    \
    __extension__({                                                                          \
        pthread_mutex_lock(&fake.lock);                                                      \
        __typeof__(field) value_ = (field);                                                  \
        pthread_mutex_unlock(&fake.lock);                                                    \
        value_;                                                                              \
    })

static void fake_reset(fake_behaviour behaviour)
{
    pthread_mutex_lock(&fake.lock);
    fake.behaviour = behaviour;
    fake.started = fake.finished = fake.running = fake.most_running = 0;
    fake.optimizer_started = fake.optimizer_finished = 0;
    fake.optimizer_at_once = false;
    fake.set_up = false;
    for (int i = 0; i < 16; i++) fake.by_column[i] = SOLVER_SOLVED;
    fake.memory_bytes = 1;
    pthread_mutex_unlock(&fake.lock);
}

static void fake_set_behaviour(fake_behaviour behaviour)
{
    pthread_mutex_lock(&fake.lock);
    fake.behaviour = behaviour;
    pthread_mutex_unlock(&fake.lock);
}

static int first_box_column(const board *board, const position *position)
{
    for (int s = 0; s < board->size; s++)
        if (position->boxes[s]) return board_x(board, s);
    return 0;
}

static void sleep_a_millisecond(void)
{
    struct timespec pause = {0, 1000000};
    nanosleep(&pause, NULL);
}

static game_step *detour_steps(int *count, int *pushes);

/* FAKE_BLOCKS: reports 1234 nodes, then waits until cancelled. */
static void report_then_block(const solver_options *options, solver_result *result)
{
    options->progress(options->progress_argument,
                      &(solver_progress){.nodes = 1234, .seconds = 0.5});
    pthread_mutex_lock(&fake.lock);
    pthread_cond_broadcast(&fake.changed); /* started, and progress reported */
    pthread_mutex_unlock(&fake.lock);
    /* The real solver polls its flag every few hundred nodes; so does this. */
    while (!atomic_load(options->cancel)) sleep_a_millisecond();
    result->status = SOLVER_CANCELLED;
}

static solver_status fake_solve(const board *board, const position *start,
                                const solver_options *options, solver_result *result)
{
    pthread_mutex_lock(&fake.lock);
    fake_behaviour behaviour = fake.behaviour;
    int index = fake.started++ % 16;
    fake.modes[index] = options->mode;
    fake.seconds_left[index] = options->deadline > 0 ? options->deadline - ida_clock() : 0;
    fake.known[index] = options->known != NULL;
    fake.learned[index] = options->learned;
    fake.learned_fits[index] = solver_learned_fits(options->learned, board);
    fake.box_column[index] = first_box_column(board, start);
    fake.plan_box_column[index] =
        options->plan_from ? first_box_column(board, options->plan_from) : -1;
    fake.memory_bytes = options->memory_bytes;
    if (++fake.running > fake.most_running) fake.most_running = fake.running;
    solver_status column_answer = fake.by_column[first_box_column(board, start) % 16];
    sigset_t mask;
    pthread_sigmask(SIG_BLOCK, NULL, &mask);
    static const int faults[] = {SIGSEGV, SIGBUS, SIGFPE, SIGILL, SIGABRT};
    fake.fault_signals_blocked = 0;
    for (size_t i = 0; i < sizeof faults / sizeof *faults; i++)
        fake.fault_signals_blocked += sigismember(&mask, faults[i]) == 1;
    fake.interrupt_blocked = sigismember(&mask, SIGINT) == 1;
#ifdef __linux__
    fake.niceness = getpriority(PRIO_PROCESS, (id_t)syscall(SYS_gettid));
#endif
    pthread_mutex_unlock(&fake.lock);

    *result = (solver_result){.status = SOLVER_SOLVED, .mode = options->mode, .nodes = 10};
    switch (behaviour) {
    case FAKE_SOLVES:
        break;
    case FAKE_SETS_UP:
        pthread_mutex_lock(&fake.lock);
        pthread_cond_broadcast(&fake.changed); /* started, setting up */
        pthread_mutex_unlock(&fake.lock);
        while (!FAKE_READ(fake.set_up) && !atomic_load(options->cancel)) sleep_a_millisecond();
        report_then_block(options, result);
        break;
    case FAKE_BLOCKS:
        report_then_block(options, result);
        break;
    case FAKE_TICKS:
        pthread_mutex_lock(&fake.lock);
        pthread_cond_broadcast(&fake.changed);
        pthread_mutex_unlock(&fake.lock);
        while (!atomic_load(options->cancel)) {
            options->progress(options->progress_argument, &(solver_progress){.nodes = 1});
            sleep_a_millisecond();
        }
        result->status = SOLVER_CANCELLED;
        break;
    case FAKE_OPTIMAL_RUNS_OUT:
        if (options->mode == SOLVER_OPTIMAL) result->status = SOLVER_LIMIT;
        break;
    case FAKE_BY_BOX_COLUMN:
        result->status = column_answer;
        break;
    case FAKE_DETOUR:
        if (options->mode == SOLVER_OPTIMAL) {
            result->status = SOLVER_LIMIT;
        } else {
            result->steps = detour_steps(&result->moves, &result->pushes);
            assert_non_null(result->steps);
        }
        break;
    }
    if (result->status == SOLVER_SOLVED && !result->steps) {
        result->steps = malloc(sizeof *result->steps);
        result->steps[0] = (game_step){.direction = DIR_RIGHT, .push = true};
        result->pushes = result->moves = 1;
    }

    pthread_mutex_lock(&fake.lock);
    fake.running--;
    fake.finished++;
    pthread_cond_broadcast(&fake.changed);
    pthread_mutex_unlock(&fake.lock);
    return result->status;
}

static void wait_until_started(int count)
{
    pthread_mutex_lock(&fake.lock);
    while (fake.started < count) pthread_cond_wait(&fake.changed, &fake.lock);
    pthread_mutex_unlock(&fake.lock);
}

/* FAKE_SETS_UP: its tables are built. */
static void fake_end_set_up(void)
{
    pthread_mutex_lock(&fake.lock);
    fake.set_up = true;
    pthread_mutex_unlock(&fake.lock);
}

static void wait_until_finished(int count)
{
    pthread_mutex_lock(&fake.lock);
    while (fake.finished < count) pthread_cond_wait(&fake.changed, &fake.lock);
    pthread_mutex_unlock(&fake.lock);
}

/* A worker with the stand-in search; it solves ahead unless `ahead` is false. */
static worker *fake_worker_with(bool ahead)
{
    worker_options options = {
        .solve = fake_solve, .memory_bytes = (size_t)16 << 20, .no_solve_ahead = !ahead};
    worker *w = worker_create_with(&options);
    assert_non_null(w);
    return w;
}

static worker *fake_worker(void)
{
    worker_options options = {.solve = fake_solve, .memory_bytes = (size_t)16 << 20};
    worker *w = worker_create_with(&options);
    assert_non_null(w);
    return w;
}

/* ---- levels and games ----------------------------------------------------------------- */

/* A corridor: the box in column 3, its goal in column 6. */
static const char CORRIDOR[] = "########\n"
                               "#@ $  .#\n"
                               "########\n";

typedef struct played {
    collection levels;
    game game;
    answers *store; /* the level's answer store */
} played;

/* Starts the level drawn in `text` and plays `moves` (LURD) on it. */
static played *play(const char *text, const char *moves)
{
    played *p = calloc(1, sizeof *p);
    assert_non_null(p);
    level_error error;
    assert_true(collection_parse(text, strlen(text), "test", &p->levels, &error));
    assert_true(game_init(&p->game, &p->levels.levels[0]));
    p->store = answers_create(&p->levels.levels[0]);
    assert_non_null(p->store);
    lurd_steps steps;
    lurd_error lurd_failure;
    assert_true(lurd_parse(moves, &steps, &lurd_failure));
    assert_true(lurd_apply(&p->game, &steps, &lurd_failure));
    lurd_steps_free(&steps);
    return p;
}

static void played_free(played *p)
{
    answers_release(p->store);
    game_free(&p->game);
    collection_free(&p->levels);
    free(p);
}

/* Asks for `job` from the game in play, the game waiting `seconds` (0: until answered). */
static uint64_t submit(worker *w, worker_job job, const played *p, double seconds)
{
    worker_request request = {
        .job = job, .game = &p->game, .deadline = seconds > 0 ? ida_clock() + seconds : 0};
    uint64_t id = worker_submit(w, &request, p->store);
    assert_true(id != 0);
    return id;
}

static bool wake_fd_is_readable(worker *w, int timeout_ms)
{
    struct pollfd descriptor = {.fd = worker_wake_fd(w), .events = POLLIN};
    return poll(&descriptor, 1, timeout_ms) == 1;
}

/* Waits on the wake descriptor, as the game does, and takes the next result. */
static worker_result wait_for_any(worker *w)
{
    worker_result result;
    while (!worker_poll(w, &result)) assert_true(wake_fd_is_readable(w, PATIENCE_MS));
    return result;
}

/* The next answer to a request, passing over the notices. */
static worker_result wait_for_result(worker *w)
{
    for (;;) {
        worker_result result = wait_for_any(w);
        if (result.job != WORKER_AHEAD) return result;
        worker_result_free(&result);
    }
}

/* The next notice of the given status and mode, passing over the rest. */
static worker_result wait_for_notice(worker *w, solver_status status, solver_mode mode)
{
    for (;;) {
        worker_result result = wait_for_any(w);
        if (result.job == WORKER_AHEAD && result.status == status && result.mode == mode)
            return result;
        worker_result_free(&result);
    }
}

/* The answer to request `id`, which must be ready already: no waiting. */
static worker_result take_at_once(worker *w, uint64_t id)
{
    worker_result result;
    for (;;) {
        assert_true(worker_poll(w, &result));
        if (result.id == id) return result;
        worker_result_free(&result);
    }
}

/* The steps of a result as LURD text, to compare (free it). */
static char *text_of(const worker_result *result)
{
    return lurd_format(result->steps, result->moves, false);
}

static void assert_steps(const worker_result *result, const char *expected)
{
    assert_true(result->steps != NULL || result->moves == 0);
    char *text = text_of(result);
    assert_string_equal(text, expected);
    free(text);
}

/* ---- results -------------------------------------------------------------------------- */

static void test_poll_with_nothing_ready_returns_false(void **state)
{
    (void)state;
    worker *w = fake_worker();
    worker_result result;
    assert_false(worker_poll(w, &result));
    assert_false(wake_fd_is_readable(w, 0));
    worker_activity activity;
    worker_progress(w, &activity);
    assert_false(activity.busy);
    worker_destroy(w);
}

static void test_result_carries_the_request_id_and_solution(void **state)
{
    (void)state;
    fake_reset(FAKE_SOLVES);
    worker *w = fake_worker();
    played *p = play(CORRIDOR, "r");
    uint64_t id = submit(w, WORKER_HINT, p, 10);
    worker_result result = wait_for_result(w);
    assert_int_equal(result.id, id);
    assert_int_equal(result.job, WORKER_HINT);
    assert_int_equal(result.status, SOLVER_SOLVED);
    assert_int_equal(result.mode, SOLVER_FAST);
    assert_true(result.key == solver_position_key(&p->game.board, &p->game.position));
    assert_steps(&result, "R");
    assert_int_equal(result.pushes, 1);
    assert_int_equal(result.nodes, 10);
    assert_false(result.from_store);
    assert_int_equal(FAKE_READ(fake.memory_bytes), (size_t)16 << 20);
    worker_result_free(&result);
    worker_destroy(w);
    played_free(p);
}

/* The game's own threads take ^C and resizes; but a crash in the solver must reach the game's
 * fatal-signal handler (which restores the terminal), not kill the process unhandled. */
static void test_worker_thread_blocks_interrupts_but_not_fault_signals(void **state)
{
    (void)state;
    fake_reset(FAKE_SOLVES);
    worker *w = fake_worker();
    played *p = play(CORRIDOR, "");
    submit(w, WORKER_HINT, p, 10);
    worker_result result = wait_for_result(w);
    worker_result_free(&result);
    pthread_mutex_lock(&fake.lock);
    int faults_blocked = fake.fault_signals_blocked;
    bool interrupt_blocked = fake.interrupt_blocked;
    pthread_mutex_unlock(&fake.lock);
    assert_int_equal(faults_blocked, 0);
    assert_true(interrupt_blocked);
    worker_destroy(w);
    played_free(p);
}

/* The solver thread runs at a lower priority than the game's loop, so that a key is drawn
 * at once while the searches keep the cores busy. */
static void test_worker_thread_runs_below_the_game(void **state)
{
    (void)state;
#ifndef __linux__
    skip(); /* niceness is a thread's own on Linux only */
#else
    int mine = getpriority(PRIO_PROCESS, (id_t)syscall(SYS_gettid));
    fake_reset(FAKE_SOLVES);
    worker *w = fake_worker();
    played *p = play(CORRIDOR, "");
    submit(w, WORKER_HINT, p, 10);
    worker_result result = wait_for_result(w);
    worker_result_free(&result);
    pthread_mutex_lock(&fake.lock);
    int theirs = fake.niceness;
    pthread_mutex_unlock(&fake.lock);
    if (mine < 19) assert_true(theirs > mine);
    worker_destroy(w);
    played_free(p);
#endif
}

static void test_ids_grow_with_each_request(void **state)
{
    (void)state;
    fake_reset(FAKE_SOLVES);
    worker *w = fake_worker();
    played *p = play(CORRIDOR, "");
    uint64_t first = submit(w, WORKER_HINT, p, 10);
    worker_result result = wait_for_result(w);
    worker_result_free(&result);
    uint64_t second = submit(w, WORKER_SOLVE, p, 10);
    result = wait_for_result(w);
    assert_true(second > first);
    assert_int_equal(result.id, second);
    assert_int_equal(result.job, WORKER_SOLVE);
    worker_result_free(&result);
    worker_destroy(w);
    played_free(p);
}

static void test_request_keeps_its_own_copy_of_the_position(void **state)
{
    (void)state;
    fake_reset(FAKE_BY_BOX_COLUMN);
    fake.by_column[4] = SOLVER_LIMIT; /* where the box stood when the hint was asked */
    worker *w = fake_worker_with(false);
    played *p = play(CORRIDOR, "rR");
    submit(w, WORKER_HINT, p, 10);
    played_free(p); /* the player moves on and even leaves the level */
    worker_result result = wait_for_result(w);
    assert_int_equal(result.status, SOLVER_LIMIT);
    worker_result_free(&result);
    worker_destroy(w);
}

/* A search from the middle of a game is given the level's start (solver_options.plan_from),
 * whose packing order the race's second run tries first (docs/SOLVER.md, section 29). */
static void test_a_search_is_given_the_levels_start(void **state)
{
    (void)state;
    fake_reset(FAKE_SOLVES);
    worker *w = fake_worker();
    played *p = play(CORRIDOR, "rR");
    submit(w, WORKER_HINT, p, 10);
    worker_result result = wait_for_result(w);
    assert_int_equal(FAKE_READ(fake.box_column[0]), 4);      /* searched from the box pushed */
    assert_int_equal(FAKE_READ(fake.plan_box_column[0]), 3); /* ordered from where it began */
    worker_result_free(&result);
    worker_destroy(w);
    played_free(p);
}

/* ---- fast first, the optimal upgrade, budgets ------------------------------------------ */

static void test_the_first_answer_comes_from_the_fast_mode_with_the_store(void **state)
{
    (void)state;
    fake_reset(FAKE_SOLVES);
    worker *w = fake_worker();
    played *p = play(CORRIDOR, "rRR");
    submit(w, WORKER_HINT, p, 10);
    worker_result result = wait_for_result(w);
    assert_int_equal(result.status, SOLVER_SOLVED);
    assert_int_equal(result.mode, SOLVER_FAST);
    assert_int_equal(FAKE_READ(fake.modes[0]), SOLVER_FAST);
    assert_true(FAKE_READ(fake.known[0])); /* the search stops at positions the store knows */
    worker_result_free(&result);
    worker_destroy(w);
    played_free(p);
}

static void test_the_optimal_mode_upgrades_an_answer_already_given(void **state)
{
    (void)state;
    fake_reset(FAKE_SOLVES);
    worker *w = fake_worker();
    played *p = play(CORRIDOR, "rRR"); /* "R" solves it, so the store keeps it */
    submit(w, WORKER_HINT, p, 10);
    worker_result result = wait_for_result(w);
    assert_int_equal(result.mode, SOLVER_FAST);
    worker_result_free(&result);
    result = wait_for_notice(w, SOLVER_SOLVED, SOLVER_OPTIMAL);
    assert_int_equal(result.id, 0);
    assert_int_equal(FAKE_READ(fake.modes[1]), SOLVER_OPTIMAL);
    worker_result_free(&result);
    /* Asked again: answered from the store before worker_submit() returns, optimal now. */
    uint64_t id = submit(w, WORKER_HINT, p, 10);
    result = take_at_once(w, id);
    assert_true(result.from_store);
    assert_int_equal(result.mode, SOLVER_OPTIMAL);
    assert_steps(&result, "R");
    worker_result_free(&result);
    worker_destroy(w);
    assert_int_equal(FAKE_READ(fake.started), 2);
    played_free(p);
}

static void test_a_request_without_a_deadline_waits_for_the_answer(void **state)
{
    (void)state;
    fake_reset(FAKE_SOLVES);
    worker *w = fake_worker_with(false);
    played *p = play(CORRIDOR, "");
    submit(w, WORKER_HINT, p, 0);
    worker_result result = wait_for_result(w);
    assert_int_equal(result.status, SOLVER_SOLVED);
    assert_true(FAKE_READ(fake.seconds_left[0]) == 0); /* the search had no deadline */
    worker_result_free(&result);
    worker_destroy(w);
    played_free(p);
}

/* ---- solving ahead -------------------------------------------------------------------- */

static void test_solving_ahead_answers_before_anyone_asks(void **state)
{
    (void)state;
    fake_reset(FAKE_SOLVES);
    worker *w = fake_worker();
    played *p = play(CORRIDOR, "rRR");
    worker_play(w, &p->game, p->store);
    worker_result result = wait_for_notice(w, SOLVER_SOLVED, SOLVER_FAST);
    assert_true(result.key == solver_position_key(&p->game.board, &p->game.position));
    assert_null(result.steps);
    worker_result_free(&result);
    /* The position has its answer: the thread rests (no optimal search for an answer nobody
     * has seen). */
    wait_until_finished(1);
    worker_activity activity;
    do {
        sleep_a_millisecond();
        worker_progress(w, &activity);
    } while (activity.busy);
    assert_int_equal(FAKE_READ(fake.started), 1);
    /* H now is answered at once, and then the optimal mode tries to better it. */
    uint64_t id = submit(w, WORKER_HINT, p, 10);
    result = take_at_once(w, id);
    assert_true(result.from_store);
    assert_int_equal(result.mode, SOLVER_FAST);
    assert_int_equal(result.nodes, 0);
    worker_result_free(&result);
    result = wait_for_notice(w, SOLVER_SOLVED, SOLVER_OPTIMAL);
    worker_result_free(&result);
    worker_destroy(w);
    assert_int_equal(FAKE_READ(fake.started), 2);
    assert_int_equal(FAKE_READ(fake.modes[1]), SOLVER_OPTIMAL);
    played_free(p);
}

static void test_without_solving_ahead_only_requests_search(void **state)
{
    (void)state;
    fake_reset(FAKE_SOLVES);
    worker *w = fake_worker_with(false);
    played *p = play(CORRIDOR, "rRR");
    worker_play(w, &p->game, p->store);
    submit(w, WORKER_HINT, p, 3);
    worker_result result = wait_for_result(w);
    assert_int_equal(result.status, SOLVER_SOLVED);
    worker_result_free(&result);
    worker_destroy(w);
    assert_int_equal(FAKE_READ(fake.started), 1); /* no search for the play, no upgrade */
    assert_true(FAKE_READ(fake.seconds_left[0]) > 2.5 && FAKE_READ(fake.seconds_left[0]) <= 3);
    played_free(p);
}

static void test_a_request_out_of_time_is_answered_while_the_search_goes_on(void **state)
{
    (void)state;
    fake_reset(FAKE_TICKS);
    worker *w = fake_worker();
    played *p = play(CORRIDOR, "");
    uint64_t first = submit(w, WORKER_HINT, p, 0.05);
    worker_result result = wait_for_result(w);
    assert_int_equal(result.id, first);
    assert_int_equal(result.status, SOLVER_LIMIT);
    worker_result_free(&result);
    /* Asked again (the game doubles the time): the same search, still running, answers. */
    uint64_t second = submit(w, WORKER_HINT, p, 0.1);
    result = wait_for_result(w);
    assert_int_equal(result.id, second);
    assert_int_equal(result.status, SOLVER_LIMIT);
    worker_result_free(&result);
    pthread_mutex_lock(&fake.lock);
    assert_int_equal(fake.started, 1);
    assert_int_equal(fake.running, 1);
    pthread_mutex_unlock(&fake.lock);
    /* solving ahead has more time than a hint */
    assert_true(FAKE_READ(fake.seconds_left[0]) > 59);
    worker_destroy(w);
    played_free(p);
}

/* ---- cancelling and superseding ------------------------------------------------------- */

static void test_progress_shows_the_running_search(void **state)
{
    (void)state;
    fake_reset(FAKE_BLOCKS);
    worker *w = fake_worker();
    played *p = play(CORRIDOR, "");
    uint64_t id = submit(w, WORKER_HINT, p, 10);
    wait_until_started(1);
    worker_activity activity;
    do worker_progress(w, &activity);
    while (activity.nodes != 1234);
    assert_true(activity.busy);
    assert_int_equal(activity.id, id);
    assert_int_equal(activity.mode, SOLVER_FAST);
    assert_false(activity.looking_back);
    worker_cancel(w);
    wait_until_finished(1);
    do {
        sleep_a_millisecond();
        worker_progress(w, &activity);
    } while (activity.busy);
    assert_int_equal(activity.id, 0);
    worker_destroy(w);
    played_free(p);
}

/* A search reports no nodes while it builds its tables (the optimal mode's can take seconds):
 * the activity says it is setting up, not that it looked at 0 nodes, until its first report. */
static void test_a_search_is_setting_up_until_its_first_report(void **state)
{
    (void)state;
    fake_reset(FAKE_SETS_UP);
    worker *w = fake_worker();
    played *p = play(CORRIDOR, "");
    submit(w, WORKER_HINT, p, 10);
    wait_until_started(1);
    worker_activity activity;
    worker_progress(w, &activity);
    assert_true(activity.busy);
    assert_true(activity.setting_up);
    assert_int_equal(activity.nodes, 0);
    fake_end_set_up();
    do worker_progress(w, &activity);
    while (activity.nodes != 1234);
    assert_true(activity.busy);
    assert_false(activity.setting_up);
    worker_cancel(w);
    wait_until_finished(1);
    worker_destroy(w);
    played_free(p);
}

/* A request's time runs out while its search still builds its tables: polled, as the game
 * polls at each tick, it is answered at its deadline with no nodes, not at the search's
 * first report; the search goes on. */
static void test_a_request_out_of_time_while_setting_up_is_answered_when_polled(void **state)
{
    (void)state;
    fake_reset(FAKE_SETS_UP);
    worker *w = fake_worker();
    played *p = play(CORRIDOR, "");
    uint64_t id = submit(w, WORKER_HINT, p, 0.05);
    wait_until_started(1);
    worker_result result;
    double give_up = ida_clock() + PATIENCE_MS / 1000.0;
    while (!worker_poll(w, &result)) {
        assert_true(ida_clock() < give_up);
        sleep_a_millisecond();
    }
    assert_int_equal(result.id, id);
    assert_int_equal(result.status, SOLVER_LIMIT);
    assert_int_equal(result.nodes, 0);
    worker_result_free(&result);
    assert_false(FAKE_READ(fake.set_up));
    assert_int_equal(FAKE_READ(fake.finished), 0);
    fake_end_set_up();
    worker_destroy(w);
    played_free(p);
}

static void test_cancelled_request_never_delivers(void **state)
{
    (void)state;
    fake_reset(FAKE_BLOCKS);
    worker *w = fake_worker();
    played *p = play(CORRIDOR, "");
    uint64_t first = submit(w, WORKER_HINT, p, 10);
    wait_until_started(1);
    worker_cancel(w);
    wait_until_finished(1);
    /* The search has returned; give the worker every chance to (wrongly) publish it. */
    fake_set_behaviour(FAKE_SOLVES);
    uint64_t next = submit(w, WORKER_HINT, p, 10);
    worker_result result = wait_for_result(w);
    assert_int_equal(result.id, next);
    worker_result_free(&result);
    while (worker_poll(w, &result)) {
        assert_true(result.id != first);
        worker_result_free(&result);
    }
    worker_destroy(w);
    played_free(p);
}

static void test_cancel_drops_a_result_not_yet_taken(void **state)
{
    (void)state;
    fake_reset(FAKE_SOLVES);
    worker *w = fake_worker_with(false);
    played *p = play(CORRIDOR, "");
    submit(w, WORKER_HINT, p, 10);
    assert_true(wake_fd_is_readable(w, PATIENCE_MS));
    worker_cancel(w);
    worker_result result;
    assert_false(worker_poll(w, &result));
    assert_false(wake_fd_is_readable(w, 0));
    worker_destroy(w);
    played_free(p);
}

static void test_a_second_request_joins_the_running_search(void **state)
{
    (void)state;
    fake_reset(FAKE_BLOCKS);
    worker *w = fake_worker();
    played *p = play(CORRIDOR, "");
    submit(w, WORKER_HINT, p, 10);
    wait_until_started(1);
    game_step_in(&p->game, DIR_RIGHT); /* a step without a push: the same position */
    uint64_t second = submit(w, WORKER_SOLVE, p, 10);
    worker_activity activity;
    worker_progress(w, &activity);
    assert_int_equal(activity.id, second);
    worker_cancel(w);
    wait_until_finished(1);
    worker_destroy(w);
    assert_int_equal(FAKE_READ(fake.started), 1);
    played_free(p);
}

static void test_a_new_position_supersedes_the_running_search(void **state)
{
    (void)state;
    fake_reset(FAKE_BLOCKS);
    worker *w = fake_worker();
    played *p = play(CORRIDOR, "");
    uint64_t first = submit(w, WORKER_HINT, p, 10);
    wait_until_started(1);
    fake_set_behaviour(FAKE_SOLVES);
    assert_int_equal(game_step_in(&p->game, DIR_RIGHT), STEP_MOVED);
    assert_int_equal(game_step_in(&p->game, DIR_RIGHT), STEP_PUSHED);
    uint64_t second = submit(w, WORKER_SOLVE, p, 10);
    worker_result result = wait_for_result(w);
    assert_int_equal(result.id, second);
    worker_result_free(&result);
    wait_until_finished(2);
    while (worker_poll(w, &result)) {
        assert_true(result.id != first);
        worker_result_free(&result);
    }
    worker_destroy(w);
    played_free(p);
}

static void test_many_rapid_submits_answer_the_last(void **state)
{
    (void)state;
    fake_reset(FAKE_SOLVES);
    worker *w = fake_worker();
    played *p = play(CORRIDOR, "r");
    uint64_t last = 0;
    for (int i = 0; i < 300; i++) last = submit(w, i % 2 ? WORKER_HINT : WORKER_SOLVE, p, 10);
    worker_result result;
    do {
        result = wait_for_result(w);
        assert_true(result.id <= last);
        worker_result_free(&result);
    } while (result.id != last);
    worker_destroy(w);
    assert_int_equal(FAKE_READ(fake.most_running), 1);
    played_free(p);
}

static void test_destroy_while_busy_cancels_and_joins(void **state)
{
    (void)state;
    fake_reset(FAKE_BLOCKS);
    worker *w = fake_worker();
    played *p = play(CORRIDOR, "");
    submit(w, WORKER_HINT, p, 10);
    wait_until_started(1);
    submit(w, WORKER_HINT, p, 10); /* and one waiting behind it */
    worker_destroy(w);
    assert_int_equal(FAKE_READ(fake.running), 0);
    played_free(p);
}

static void test_destroy_right_after_submit(void **state)
{
    (void)state;
    fake_reset(FAKE_BLOCKS);
    for (int i = 0; i < 20; i++) {
        worker *w = fake_worker();
        played *p = play(CORRIDOR, "");
        submit(w, WORKER_HINT, p, 10);
        worker_destroy(w);
        played_free(p);
    }
    assert_int_equal(FAKE_READ(fake.running), 0);
}

/* ---- lost positions and the look back -------------------------------------------------- */

static void test_lost_position_says_how_many_pushes_to_undo(void **state)
{
    (void)state;
    fake_reset(FAKE_BY_BOX_COLUMN);
    /* Pretend the box is lost from column 4 on. */
    fake.by_column[4] = fake.by_column[5] = SOLVER_UNSOLVABLE;
    worker *w = fake_worker();
    played *p = play(CORRIDOR, "rRR");
    submit(w, WORKER_HINT, p, 10);
    worker_result result = wait_for_result(w);
    assert_int_equal(result.status, SOLVER_UNSOLVABLE);
    assert_null(result.steps);
    assert_int_equal(result.undo_pushes, 2);
    assert_true(result.undo_exact);
    assert_int_equal(FAKE_READ(fake.started), 3); /* the position, then one per push undone */
    assert_int_equal(FAKE_READ(fake.modes[1]), SOLVER_FAST);
    worker_result_free(&result);
    worker_destroy(w);
    played_free(p);
}

static void test_a_lost_position_is_reported_unasked(void **state)
{
    (void)state;
    fake_reset(FAKE_BY_BOX_COLUMN);
    fake.by_column[4] = fake.by_column[5] = SOLVER_UNSOLVABLE;
    worker *w = fake_worker();
    played *p = play(CORRIDOR, "rRR");
    worker_play(w, &p->game, p->store);
    worker_result result = wait_for_notice(w, SOLVER_UNSOLVABLE, SOLVER_FAST);
    assert_int_equal(result.id, 0);
    assert_true(result.key == solver_position_key(&p->game.board, &p->game.position));
    assert_int_equal(result.undo_pushes, 2);
    assert_true(result.undo_exact);
    worker_result_free(&result);
    /* The store remembers: asked now, no search proves it again. */
    wait_until_finished(3);
    answer known;
    assert_int_equal(answers_find(p->store, &p->game.position, &known), ANSWER_LOST);
    worker_destroy(w);
    played_free(p);
}

static void test_undecided_position_makes_the_undo_count_inexact(void **state)
{
    (void)state;
    fake_reset(FAKE_BY_BOX_COLUMN);
    fake.by_column[5] = SOLVER_UNSOLVABLE;
    fake.by_column[4] = SOLVER_LIMIT;
    worker *w = fake_worker();
    played *p = play(CORRIDOR, "rRR");
    submit(w, WORKER_HINT, p, 10);
    worker_result result = wait_for_result(w);
    assert_int_equal(result.undo_pushes, 2);
    assert_false(result.undo_exact);
    worker_result_free(&result);
    worker_destroy(w);
    played_free(p);
}

static void test_lost_from_the_start_gives_no_undo_count(void **state)
{
    (void)state;
    fake_reset(FAKE_BY_BOX_COLUMN);
    for (int x = 0; x < 16; x++) fake.by_column[x] = SOLVER_UNSOLVABLE;
    worker *w = fake_worker();
    played *p = play(CORRIDOR, "rR");
    submit(w, WORKER_HINT, p, 10);
    worker_result result = wait_for_result(w);
    assert_int_equal(result.status, SOLVER_UNSOLVABLE);
    assert_int_equal(result.undo_pushes, -1);
    worker_result_free(&result);
    worker_destroy(w);
    played_free(p);
}

/* ---- the real solver ------------------------------------------------------------------ */

static worker *real_worker(void)
{
    worker_options options = {.memory_bytes = (size_t)16 << 20};
    worker *w = worker_create_with(&options);
    assert_non_null(w);
    return w;
}

static void test_real_solver_hints_the_next_push(void **state)
{
    (void)state;
    worker *w = real_worker();
    played *p = play(CORRIDOR, "r");
    submit(w, WORKER_HINT, p, 30);
    worker_result result = wait_for_result(w);
    assert_int_equal(result.status, SOLVER_SOLVED);
    assert_int_equal(result.mode, SOLVER_FAST);
    assert_steps(&result, "RRR");
    assert_int_equal(result.pushes, 3);
    worker_result_free(&result);
    worker_destroy(w);
    played_free(p);
}

static void test_following_the_hint_is_answered_at_once(void **state)
{
    (void)state;
    worker *w = real_worker();
    played *p = play(CORRIDOR, "r");
    submit(w, WORKER_HINT, p, 30);
    worker_result result = wait_for_result(w);
    assert_steps(&result, "RRR");
    worker_result_free(&result);
    assert_int_equal(game_step_in(&p->game, DIR_RIGHT), STEP_PUSHED); /* the hinted push */
    uint64_t id = submit(w, WORKER_HINT, p, 30);
    result = take_at_once(w, id); /* ready before worker_submit() returned */
    assert_int_equal(result.status, SOLVER_SOLVED);
    assert_true(result.from_store);
    assert_steps(&result, "RR");
    assert_int_equal(result.pushes, 2);
    assert_int_equal(result.moves, 2);
    assert_int_equal(result.nodes, 0);
    worker_result_free(&result);
    worker_destroy(w);
    played_free(p);
}

static void test_walking_off_a_solution_keeps_its_pushes(void **state)
{
    (void)state;
    worker *w = real_worker();
    played *p = play(CORRIDOR, "r");
    submit(w, WORKER_HINT, p, 30);
    worker_result result = wait_for_result(w);
    worker_result_free(&result);
    assert_int_equal(game_step_in(&p->game, DIR_LEFT), STEP_MOVED); /* a step aside */
    uint64_t id = submit(w, WORKER_SOLVE, p, 30);
    result = take_at_once(w, id);
    assert_int_equal(result.status, SOLVER_SOLVED);
    assert_steps(&result, "rRRR");
    assert_int_equal(result.pushes, 3);
    assert_int_equal(result.moves, 4);
    worker_result_free(&result);
    worker_destroy(w);
    played_free(p);
}

static void test_no_reuse_searches_every_request(void **state)
{
    (void)state;
    fake_reset(FAKE_SOLVES);
    worker_options options = {.solve = fake_solve, .no_reuse = true};
    worker *w = worker_create_with(&options);
    assert_non_null(w);
    played *p = play(CORRIDOR, "rRR"); /* "R" solves it: a store would keep it */
    for (int i = 0; i < 2; i++) {
        submit(w, WORKER_HINT, p, 10);
        worker_result result = wait_for_result(w);
        assert_int_equal(result.nodes, 10);
        assert_false(result.from_store);
        worker_result_free(&result);
    }
    worker_destroy(w);
    assert_int_equal(FAKE_READ(fake.started), 2);
    assert_false(FAKE_READ(fake.known[0]));
    played_free(p);
}

/* A room: the box two pushes left of its goal. */
static const char ROOM[] = "#######\n"
                           "#     #\n"
                           "#     #\n"
                           "# $ . #\n"
                           "#@    #\n"
                           "#     #\n"
                           "#######\n";

static void test_boxes_off_every_solution_are_searched_again(void **state)
{
    (void)state;
    worker *w = real_worker();
    played *p = play(ROOM, "");
    submit(w, WORKER_HINT, p, 30);
    worker_result result = wait_for_result(w);
    assert_int_equal(result.status, SOLVER_SOLVED);
    assert_int_equal(result.pushes, 2); /* along the goal's row, where the box stays */
    worker_result_free(&result);
    answers *store = answers_retain(p->store);
    played_free(p);
    p = play(ROOM, "rU"); /* the box one row up: on no position of that solution */
    answers_release(p->store);
    p->store = store; /* the same level, the same store */
    submit(w, WORKER_HINT, p, 30);
    result = wait_for_result(w);
    assert_int_equal(result.status, SOLVER_SOLVED);
    assert_false(result.from_store);
    assert_int_equal(result.pushes, 3);
    worker_result_free(&result);
    worker_destroy(w);
    played_free(p);
}

/* The searches on one board start from what those before them learned of its deadlocks
 * (options.learned, kept by the worker); a new board gets its own, and cold searches none. */
static void test_searches_on_one_board_share_what_they_learn(void **state)
{
    (void)state;
    fake_reset(FAKE_SOLVES);
    worker *w = fake_worker_with(false);
    /* two games of the corridor, each with a store of its own: two searches */
    played *first = play(CORRIDOR, "r"), *second = play(CORRIDOR, "rR");
    submit(w, WORKER_HINT, first, 10);
    worker_result result = wait_for_result(w);
    worker_result_free(&result);
    submit(w, WORKER_HINT, second, 10);
    result = wait_for_result(w);
    assert_false(result.from_store);
    worker_result_free(&result);
    int corridor = FAKE_READ(fake.started);
    assert_true(corridor >= 2 && corridor <= 16);
    for (int i = 0; i < corridor; i++) {
        assert_non_null(FAKE_READ(fake.learned[i]));
        assert_true(FAKE_READ(fake.learned_fits[i]));
        assert_ptr_equal(FAKE_READ(fake.learned[i]), FAKE_READ(fake.learned[0]));
    }
    played *room = play(ROOM, "");
    submit(w, WORKER_HINT, room, 10);
    result = wait_for_result(w);
    worker_result_free(&result);
    assert_true(FAKE_READ(fake.started) > corridor);
    assert_true(FAKE_READ(fake.learned_fits[corridor])); /* the room's own, not the corridor's */
    worker_destroy(w);
    played_free(first);
    played_free(second);
    played_free(room);

    fake_reset(FAKE_SOLVES);
    worker_options options = {.solve = fake_solve, .no_reuse = true};
    w = worker_create_with(&options);
    assert_non_null(w);
    played *cold = play(CORRIDOR, "r");
    submit(w, WORKER_HINT, cold, 10);
    result = wait_for_result(w);
    worker_result_free(&result);
    assert_null(FAKE_READ(fake.learned[0]));
    worker_destroy(w);
    played_free(cold);
}

static void test_a_search_joins_a_known_rest(void **state)
{
    (void)state;
    worker *w = real_worker();
    played *p = play(ROOM, "uR"); /* one push from the goal */
    submit(w, WORKER_HINT, p, 30);
    worker_result result = wait_for_result(w);
    assert_int_equal(result.pushes, 1);
    worker_result_free(&result);
    int solvable_before;
    answers_count(p->store, &solvable_before, NULL);
    /* From the start (same level, same store): the search stops where the stored solution
     * goes on, and the answer is the two joined. */
    answers *store = answers_retain(p->store);
    played_free(p);
    p = play(ROOM, "");
    answers_release(p->store);
    p->store = store;
    submit(w, WORKER_HINT, p, 30);
    result = wait_for_result(w);
    assert_int_equal(result.status, SOLVER_SOLVED);
    assert_false(result.from_store);
    assert_int_equal(result.pushes, 2);
    lurd_steps steps = {.steps = result.steps, .count = result.moves, .case_sensitive = true};
    lurd_error error;
    assert_true(lurd_apply(&p->game, &steps, &error));
    assert_true(game_is_solved(&p->game));
    worker_result_free(&result);
    int solvable_after;
    answers_count(p->store, &solvable_after, NULL);
    assert_true(solvable_after > solvable_before); /* the start is known now too */
    worker_destroy(w);
    played_free(p);
}

/* Two pushes up put the box against the top wall, where no goal is: lost. One push back it
 * can still reach the goal. */
static const char WALL[] = "######\n"
                           "#    #\n"
                           "#    #\n"
                           "#.$  #\n"
                           "# @  #\n"
                           "######\n";

static void test_real_solver_finds_the_push_to_undo(void **state)
{
    (void)state;
    worker *w = real_worker();
    played *p = play(WALL, "UU");
    submit(w, WORKER_HINT, p, 30);
    worker_result result = wait_for_result(w);
    assert_int_equal(result.status, SOLVER_UNSOLVABLE);
    assert_int_equal(result.undo_pushes, 1);
    assert_true(result.undo_exact);
    worker_result_free(&result);
    worker_destroy(w);
    played_free(p);
}

static void test_real_solver_reports_a_lost_position_unasked(void **state)
{
    (void)state;
    worker *w = real_worker();
    played *p = play(WALL, "UU");
    worker_play(w, &p->game, p->store);
    worker_result result = wait_for_notice(w, SOLVER_UNSOLVABLE, SOLVER_FAST);
    assert_int_equal(result.undo_pushes, 1);
    assert_true(result.undo_exact);
    worker_result_free(&result);
    worker_destroy(w);
    played_free(p);
}

static void test_destroy_stops_a_long_real_search(void **state)
{
    (void)state;
    /* XSokoban 50 keeps the solver busy far longer than this test: destroy must cancel the
     * search (which checks its flag every few hundred nodes) and join the thread. A worker
     * that ignored the flag would hang here until the test's timeout. */
    collection levels;
    level_error error;
    assert_true(collection_load(TEST_LEVELS_DIR "/xsokoban.xsb", &levels, &error));
    assert_true(levels.count >= 50);
    game g;
    assert_true(game_init(&g, &levels.levels[49]));
    answers *store = answers_create(&levels.levels[49]);
    worker *w = real_worker();
    worker_request request = {.job = WORKER_SOLVE, .game = &g, .deadline = ida_clock() + 600};
    assert_true(worker_submit(w, &request, store) != 0);
    struct timespec pause = {0, 200 * 1000 * 1000}; /* let the search get going */
    nanosleep(&pause, NULL);
    worker_destroy(w);
    answers_release(store);
    game_free(&g);
    collection_free(&levels);
}

/* ---- improving the answer shown ------------------------------------------------------ */

/* A room whose box the stand-in search sends the long way: down, right along the row below,
 * and up onto its goal (12 moves, 5 pushes, never the same boxes twice); the short way is
 * rRRR (4 moves, 3 pushes). */
static const char LONG_WAY_ROOM[] = "#########\n"
                                    "#       #\n"
                                    "#       #\n"
                                    "#@ $  . #\n"
                                    "#       #\n"
                                    "#       #\n"
                                    "#########\n";
static const char ROOM_DETOUR[] = "urrDldRRRdrU";
static const char ROOM_SHORT[] = "rRRR";

static game_step *steps_of_text(const char *text, int *count, int *pushes)
{
    lurd_steps steps;
    lurd_error error;
    if (!lurd_parse(text, &steps, &error)) return NULL;
    *count = steps.count;
    *pushes = 0;
    for (int i = 0; i < steps.count; i++) *pushes += steps.steps[i].push;
    game_step *out = steps.steps; /* taken from the parse */
    steps.steps = NULL;
    lurd_steps_free(&steps);
    return out;
}

static game_step *detour_steps(int *count, int *pushes)
{
    return steps_of_text(ROOM_DETOUR, count, pushes);
}

/* The stand-in optimizer: says it started, waits until it is stopped, then tells of a
 * shorter line anyway (a worker that keeps it after the stop is wrong) and ends. */
static optimizer_status fake_optimize(const board *board, const position *start,
                                      const game_step *steps, int count,
                                      const optimizer_options *options, optimizer_result *result)
{
    (void)board, (void)start, (void)steps, (void)count;
    pthread_mutex_lock(&fake.lock);
    fake.optimizer_started++;
    fake.optimizer_seconds = options->max_seconds;
    fake.optimizer_cancel_given = options->cancel != NULL;
    bool at_once = fake.optimizer_at_once;
    if (at_once) fake.optimizer_finished++;
    pthread_cond_broadcast(&fake.changed);
    pthread_mutex_unlock(&fake.lock);
    if (at_once) {
        *result = (optimizer_result){.status = OPTIMIZER_CONVERGED};
        return OPTIMIZER_CONVERGED;
    }
    while (!atomic_load(options->cancel)) sleep_a_millisecond();
    int moves, pushes;
    game_step *shorter = steps_of_text(ROOM_SHORT, &moves, &pushes);
    assert_non_null(shorter);
    options->improved(options->improved_argument, shorter, moves, pushes);
    *result = (optimizer_result){.status = OPTIMIZER_CANCELLED, .steps = shorter,
                                 .moves = moves, .pushes = pushes};
    pthread_mutex_lock(&fake.lock);
    fake.optimizer_finished++;
    pthread_cond_broadcast(&fake.changed);
    pthread_mutex_unlock(&fake.lock);
    return OPTIMIZER_CANCELLED;
}

static void wait_until_optimizer(int started, int finished)
{
    pthread_mutex_lock(&fake.lock);
    while (fake.optimizer_started < started || fake.optimizer_finished < finished)
        pthread_cond_wait(&fake.changed, &fake.lock);
    pthread_mutex_unlock(&fake.lock);
}

/* A worker with the stand-in search and, unless `real` is true, the stand-in optimizer. */
static worker *improving_worker(bool real)
{
    worker_options options = {.solve = fake_solve,
                              .optimize = real ? NULL : fake_optimize,
                              .memory_bytes = (size_t)16 << 20,
                              .improve_seconds = 7};
    worker *w = worker_create_with(&options);
    assert_non_null(w);
    return w;
}

/* The next notice that the answer was improved, passing over the rest. */
static worker_result wait_for_improved(worker *w)
{
    for (;;) {
        worker_result result = wait_for_any(w);
        if (result.job == WORKER_AHEAD && result.improved) return result;
        worker_result_free(&result);
    }
}

static void test_the_answer_given_is_improved_and_the_game_told(void **state)
{
    (void)state;
    fake_reset(FAKE_DETOUR);
    worker *w = improving_worker(true);
    played *p = play(LONG_WAY_ROOM, "");
    submit(w, WORKER_HINT, p, 10);
    worker_result result = wait_for_result(w);
    assert_int_equal(result.status, SOLVER_SOLVED);
    assert_int_equal(result.pushes, 5);
    worker_result_free(&result);

    result = wait_for_improved(w);
    assert_int_equal(result.status, SOLVER_SOLVED);
    assert_int_equal(result.key, solver_position_key(&p->game.board, &p->game.position));
    worker_result_free(&result);
    /* The store has the short way now, so the next hint gives it at once. */
    uint64_t id = submit(w, WORKER_HINT, p, 10);
    result = take_at_once(w, id);
    assert_true(result.from_store);
    assert_steps(&result, ROOM_SHORT);
    worker_result_free(&result);
    worker_destroy(w);
    played_free(p);
}

static void test_nothing_is_improved_unasked(void **state)
{
    (void)state;
    fake_reset(FAKE_DETOUR);
    worker *w = improving_worker(false);
    played *p = play(LONG_WAY_ROOM, "");
    worker_play(w, &p->game, p->store);
    worker_result result = wait_for_notice(w, SOLVER_SOLVED, SOLVER_FAST);
    worker_result_free(&result);
    /* Solving ahead alone rests once it has the answer: the optimizer never started. */
    worker_activity activity;
    do {
        sleep_a_millisecond();
        worker_progress(w, &activity);
    } while (activity.busy);
    assert_int_equal(FAKE_READ(fake.optimizer_started), 0);
    worker_destroy(w);
    played_free(p);
}

static void test_a_new_position_while_improving_drops_the_improvement(void **state)
{
    (void)state;
    fake_reset(FAKE_DETOUR);
    worker *w = improving_worker(false);
    played *p = play(LONG_WAY_ROOM, "");
    submit(w, WORKER_HINT, p, 10);
    worker_result result = wait_for_result(w);
    worker_result_free(&result);
    wait_until_optimizer(1, 0);

    played *moved = play(LONG_WAY_ROOM, "rR"); /* the player pushed the box: another position */
    uint64_t moved_key = solver_position_key(&moved->game.board, &moved->game.position);
    worker_play(w, &moved->game, moved->store);
    /* Everything up to the new position's answer: no word of the line found after the stop. */
    for (;;) {
        result = wait_for_any(w);
        assert_false(result.improved);
        bool done = result.key == moved_key;
        worker_result_free(&result);
        if (done) break;
    }
    wait_until_optimizer(1, 1);
    /* nor is it stored */
    answer known;
    assert_int_equal(answers_find(p->store, &p->game.position, &known), ANSWER_SOLVABLE);
    assert_int_equal(known.pushes, 5);
    answer_free(&known);
    worker_destroy(w);
    played_free(moved);
    played_free(p);
}

static void test_cancel_stops_the_improving_and_the_thread_rests(void **state)
{
    (void)state;
    fake_reset(FAKE_DETOUR);
    worker *w = improving_worker(false);
    played *p = play(LONG_WAY_ROOM, "");
    submit(w, WORKER_HINT, p, 10);
    worker_result result = wait_for_result(w);
    worker_result_free(&result);
    wait_until_optimizer(1, 0);
    /* It runs with the worker's seconds and a stop flag, and shows as improving. */
    assert_true(FAKE_READ(fake.optimizer_seconds) == 7);
    assert_true(FAKE_READ(fake.optimizer_cancel_given));
    worker_activity activity;
    worker_progress(w, &activity);
    assert_true(activity.busy);
    assert_true(activity.improving);

    worker_cancel(w);
    wait_until_optimizer(1, 1);
    do {
        sleep_a_millisecond();
        worker_progress(w, &activity);
    } while (activity.busy);
    assert_false(activity.improving);
    assert_false(worker_poll(w, &result)); /* the line found after the stop is not told */
    worker_destroy(w);
    played_free(p);
}

static void test_the_optimal_upgrade_is_improved_in_turn(void **state)
{
    (void)state;
    fake_reset(FAKE_SOLVES);
    pthread_mutex_lock(&fake.lock);
    fake.optimizer_at_once = true;
    pthread_mutex_unlock(&fake.lock);
    worker *w = improving_worker(false);
    played *p = play(CORRIDOR, "rRR"); /* "R" solves it, so the store keeps it */
    submit(w, WORKER_HINT, p, 10);
    worker_result result = wait_for_notice(w, SOLVER_SOLVED, SOLVER_OPTIMAL);
    worker_result_free(&result);
    /* the fast answer, then the optimal one, each given to the optimizer */
    wait_until_optimizer(2, 2);
    worker_destroy(w);
    assert_int_equal(FAKE_READ(fake.optimizer_started), 2);
    played_free(p);
}

static void test_destroy_while_improving_stops_and_joins(void **state)
{
    (void)state;
    fake_reset(FAKE_DETOUR);
    worker *w = improving_worker(false);
    played *p = play(LONG_WAY_ROOM, "");
    submit(w, WORKER_HINT, p, 10);
    wait_until_optimizer(1, 0);
    worker_destroy(w);
    assert_int_equal(FAKE_READ(fake.optimizer_finished), 1);
    played_free(p);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_poll_with_nothing_ready_returns_false),
        cmocka_unit_test(test_result_carries_the_request_id_and_solution),
        cmocka_unit_test(test_worker_thread_blocks_interrupts_but_not_fault_signals),
        cmocka_unit_test(test_worker_thread_runs_below_the_game),
        cmocka_unit_test(test_ids_grow_with_each_request),
        cmocka_unit_test(test_request_keeps_its_own_copy_of_the_position),
        cmocka_unit_test(test_a_search_is_given_the_levels_start),
        cmocka_unit_test(test_the_first_answer_comes_from_the_fast_mode_with_the_store),
        cmocka_unit_test(test_the_optimal_mode_upgrades_an_answer_already_given),
        cmocka_unit_test(test_a_request_without_a_deadline_waits_for_the_answer),
        cmocka_unit_test(test_solving_ahead_answers_before_anyone_asks),
        cmocka_unit_test(test_without_solving_ahead_only_requests_search),
        cmocka_unit_test(test_a_request_out_of_time_is_answered_while_the_search_goes_on),
        cmocka_unit_test(test_progress_shows_the_running_search),
        cmocka_unit_test(test_a_search_is_setting_up_until_its_first_report),
        cmocka_unit_test(test_a_request_out_of_time_while_setting_up_is_answered_when_polled),
        cmocka_unit_test(test_cancelled_request_never_delivers),
        cmocka_unit_test(test_cancel_drops_a_result_not_yet_taken),
        cmocka_unit_test(test_a_second_request_joins_the_running_search),
        cmocka_unit_test(test_a_new_position_supersedes_the_running_search),
        cmocka_unit_test(test_many_rapid_submits_answer_the_last),
        cmocka_unit_test(test_destroy_while_busy_cancels_and_joins),
        cmocka_unit_test(test_destroy_right_after_submit),
        cmocka_unit_test(test_lost_position_says_how_many_pushes_to_undo),
        cmocka_unit_test(test_a_lost_position_is_reported_unasked),
        cmocka_unit_test(test_undecided_position_makes_the_undo_count_inexact),
        cmocka_unit_test(test_lost_from_the_start_gives_no_undo_count),
        cmocka_unit_test(test_real_solver_hints_the_next_push),
        cmocka_unit_test(test_following_the_hint_is_answered_at_once),
        cmocka_unit_test(test_walking_off_a_solution_keeps_its_pushes),
        cmocka_unit_test(test_no_reuse_searches_every_request),
        cmocka_unit_test(test_searches_on_one_board_share_what_they_learn),
        cmocka_unit_test(test_boxes_off_every_solution_are_searched_again),
        cmocka_unit_test(test_a_search_joins_a_known_rest),
        cmocka_unit_test(test_real_solver_finds_the_push_to_undo),
        cmocka_unit_test(test_real_solver_reports_a_lost_position_unasked),
        cmocka_unit_test(test_destroy_stops_a_long_real_search),
        cmocka_unit_test(test_the_answer_given_is_improved_and_the_game_told),
        cmocka_unit_test(test_nothing_is_improved_unasked),
        cmocka_unit_test(test_a_new_position_while_improving_drops_the_improvement),
        cmocka_unit_test(test_cancel_stops_the_improving_and_the_thread_rests),
        cmocka_unit_test(test_the_optimal_upgrade_is_improved_in_turn),
        cmocka_unit_test(test_destroy_while_improving_stops_and_joins),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
