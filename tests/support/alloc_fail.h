/* alloc_fail.h - an allocator that fails on request, for sweeping every allocation of an
 * operation the way SQLite tests itself ("malloc failure" tests): run the operation once
 * to count its allocations, then once for every N with the Nth allocation failing, and
 * check each time that nothing crashes, nothing leaks and a clear error comes back.
 *
 * A test executable built with the link arguments `alloc_fail_link_args` of
 * tests/meson.build (-Wl,--wrap=malloc and friends) sends every malloc, calloc, realloc,
 * strdup, strndup and free of its own object files, the sokoban library's included,
 * through here. Allocations made inside other shared libraries (libc's own, SQLite's) are
 * not seen; a test of such a library can route it here with alloc_fail_malloc() and
 * friends (SQLite: sqlite3_config(SQLITE_CONFIG_MALLOC, ...)).
 *
 * Leaks are counted here, per run: every block handed out while armed or not is kept in a
 * set until freed, so a run that leaves more blocks than it found is a leak, named with
 * the N that caused it. Under AddressSanitizer, LeakSanitizer checks the whole process at
 * exit as well.
 *
 * A typical test:
 *
 *     static bool load(void *argument, char *error, size_t error_size)
 *     {
 *         collection c;
 *         level_error e;
 *         bool ok = collection_load(argument, &c, &e);
 *         if (ok) collection_free(&c);
 *         else snprintf(error, error_size, "%s", e.message);
 *         return ok;
 *     }
 *     ...
 *     alloc_fail_sweep_options options = {.expect_error = "out of memory"};
 *     alloc_fail_sweep("loading a level file", load, path, &options);
 */
#ifndef SOKOBAN_TESTS_ALLOC_FAIL_H
#define SOKOBAN_TESTS_ALLOC_FAIL_H

#include <stdbool.h>
#include <stddef.h>

/* From now on, the `n`th allocation (1-based) fails; when `persistent`, every later one
 * fails too. n <= 0 disarms. Resets the counts below. */
void alloc_fail_arm(long n, bool persistent);
void alloc_fail_disarm(void);

/* Allocations attempted since the last arm (failed ones included). */
long alloc_fail_calls(void);

/* True when an allocation has failed since the last arm. */
bool alloc_fail_fired(void);

/* Blocks handed out through the wrapper and not yet freed. */
long alloc_fail_live_blocks(void);

/* The wrapper's entry points, for routing another allocator through it (each counts as
 * one allocation and can fail like the wrapped ones). */
void *alloc_fail_malloc(size_t size);
void *alloc_fail_realloc(void *block, size_t size);
void alloc_fail_free(void *block);

/* One run of the operation under test: does the whole job, frees what it made, and
 * returns true on success, or false with a message in `error`. */
typedef bool alloc_fail_operation(void *argument, char *error, size_t error_size);

typedef struct alloc_fail_sweep_options {
    /* When not NULL, a failed run's message must contain this text. */
    const char *expect_error;
    /* True when the operation may succeed despite a failed allocation (it has a fallback
     * for it); otherwise a run in which an allocation failed must report failure. */
    bool may_recover;
} alloc_fail_sweep_options;

/* What a sweep saw. */
typedef struct alloc_fail_sweep_result {
    long allocations; /* in a run where none fails */
    long runs;        /* runs with a failure (once and persistent) */
    long recovered;   /* runs that succeeded despite a failure */
} alloc_fail_sweep_result;

/* Runs `operation` once with no failure (it must succeed), then for every N from 1 to its
 * number of allocations twice: with only the Nth failing and with every allocation from
 * the Nth on failing. Fails the current cmocka test, naming `name` and N, when a run
 * leaks a block, reports success when it should not, or gives an empty or unexpected
 * message. `options` may be NULL. */
alloc_fail_sweep_result alloc_fail_sweep(const char *name, alloc_fail_operation *operation,
                                         void *argument, const alloc_fail_sweep_options *options);

#endif
