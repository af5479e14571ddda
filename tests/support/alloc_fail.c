/* alloc_fail.c - the failing allocator behind -Wl,--wrap=malloc and friends, its block
 * set for counting leaks, and the sweep (alloc_fail.h). */
#include "alloc_fail.h"

#include <malloc.h>
#include <pthread.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The real functions, reached through the linker's --wrap. */
void *__real_malloc(size_t size);
void *__real_calloc(size_t count, size_t size);
void *__real_realloc(void *block, size_t size);
void __real_free(void *block);

void *__wrap_malloc(size_t size);
void *__wrap_calloc(size_t count, size_t size);
void *__wrap_realloc(void *block, size_t size);
void __wrap_free(void *block);
char *__wrap_strdup(const char *text);
char *__wrap_strndup(const char *text, size_t size);

/* ------------------------------------------------------------------------------------- */
/* The state, under one lock (a test may run threads)                                     */
/* ------------------------------------------------------------------------------------- */

/* The live blocks: an open-addressing set of pointers, kept with the real allocator. */
#define TOMBSTONE ((void *)1)

static struct {
    pthread_mutex_t lock;
    long fail_at; /* 0: never */
    bool persistent;
    long calls;
    bool fired;
    void **slots;
    size_t capacity, used, live; /* used counts tombstones too */
} state = {.lock = PTHREAD_MUTEX_INITIALIZER};

static size_t slot_of(const void *block)
{
    uintptr_t x = (uintptr_t)block;
    x ^= x >> 17;
    x *= 0xed5ad4bbu;
    x ^= x >> 11;
    return (size_t)x;
}

static void set_insert(void *block);

/* Doubles the set (or makes it), dropping the tombstones. Keeps the old set on failure. */
static bool set_grow(void)
{
    size_t capacity = state.capacity ? state.capacity * 2 : 1024;
    void **slots = __real_calloc(capacity, sizeof *slots);
    if (!slots) return false;
    void **old = state.slots;
    size_t old_capacity = state.capacity;
    state.slots = slots;
    state.capacity = capacity;
    state.used = state.live = 0;
    for (size_t i = 0; i < old_capacity; i++)
        if (old[i] && old[i] != TOMBSTONE) set_insert(old[i]);
    __real_free(old);
    return true;
}

static void set_insert(void *block)
{
    if ((state.used + 1) * 2 > state.capacity && !set_grow()) return; /* uncounted then */
    size_t mask = state.capacity - 1;
    for (size_t i = slot_of(block) & mask;; i = (i + 1) & mask) {
        if (state.slots[i] == NULL || state.slots[i] == TOMBSTONE) {
            if (state.slots[i] == NULL) state.used++;
            state.slots[i] = block;
            state.live++;
            return;
        }
    }
}

static void set_remove(void *block)
{
    if (!state.capacity) return;
    size_t mask = state.capacity - 1;
    for (size_t i = slot_of(block) & mask; state.slots[i]; i = (i + 1) & mask) {
        if (state.slots[i] == block) {
            state.slots[i] = TOMBSTONE;
            state.live--;
            return;
        }
    }
}

/* Counts one allocation and says whether it is to fail. Called with the lock held. */
static bool next_fails(void)
{
    state.calls++;
    bool fail = state.fail_at > 0 &&
                (state.calls == state.fail_at || (state.persistent && state.calls > state.fail_at));
    if (fail) state.fired = true;
    return fail;
}

/* ------------------------------------------------------------------------------------- */
/* The wrapped functions                                                                  */
/* ------------------------------------------------------------------------------------- */

void *__wrap_malloc(size_t size)
{
    pthread_mutex_lock(&state.lock);
    void *block = next_fails() ? NULL : __real_malloc(size);
    if (block) set_insert(block);
    pthread_mutex_unlock(&state.lock);
    return block;
}

void *__wrap_calloc(size_t count, size_t size)
{
    pthread_mutex_lock(&state.lock);
    void *block = next_fails() ? NULL : __real_calloc(count, size);
    if (block) set_insert(block);
    pthread_mutex_unlock(&state.lock);
    return block;
}

void *__wrap_realloc(void *block, size_t size)
{
    pthread_mutex_lock(&state.lock);
    void *moved;
    if (block && size == 0) { /* frees the block */
        set_remove(block);
        moved = __real_realloc(block, size);
    } else if ((!block || size > malloc_usable_size(block)) && next_fails()) {
        /* A realloc that shrinks a block is not counted: it cannot fail in glibc (it keeps
         * the block), and code may rightly go on with the old block when it does. */
        moved = NULL; /* the old block stays as it was */
    } else {
        moved = __real_realloc(block, size);
        if (moved) {
            if (block) set_remove(block);
            set_insert(moved);
        }
    }
    pthread_mutex_unlock(&state.lock);
    return moved;
}

void __wrap_free(void *block)
{
    if (!block) return;
    pthread_mutex_lock(&state.lock);
    set_remove(block);
    __real_free(block);
    pthread_mutex_unlock(&state.lock);
}

char *__wrap_strndup(const char *text, size_t size)
{
    size_t length = strnlen(text, size);
    char *copy = __wrap_malloc(length + 1);
    if (!copy) return NULL;
    memcpy(copy, text, length);
    copy[length] = 0;
    return copy;
}

char *__wrap_strdup(const char *text)
{
    return __wrap_strndup(text, strlen(text));
}

void *alloc_fail_malloc(size_t size)
{
    return __wrap_malloc(size);
}

void *alloc_fail_realloc(void *block, size_t size)
{
    return __wrap_realloc(block, size);
}

void alloc_fail_free(void *block)
{
    __wrap_free(block);
}

/* ------------------------------------------------------------------------------------- */
/* Arming and counting                                                                    */
/* ------------------------------------------------------------------------------------- */

void alloc_fail_arm(long n, bool persistent)
{
    pthread_mutex_lock(&state.lock);
    state.fail_at = n > 0 ? n : 0;
    state.persistent = persistent;
    state.calls = 0;
    state.fired = false;
    pthread_mutex_unlock(&state.lock);
}

void alloc_fail_disarm(void)
{
    pthread_mutex_lock(&state.lock);
    state.fail_at = 0;
    pthread_mutex_unlock(&state.lock);
}

long alloc_fail_calls(void)
{
    pthread_mutex_lock(&state.lock);
    long calls = state.calls;
    pthread_mutex_unlock(&state.lock);
    return calls;
}

bool alloc_fail_fired(void)
{
    pthread_mutex_lock(&state.lock);
    bool fired = state.fired;
    pthread_mutex_unlock(&state.lock);
    return fired;
}

long alloc_fail_live_blocks(void)
{
    pthread_mutex_lock(&state.lock);
    long live = (long)state.live;
    pthread_mutex_unlock(&state.lock);
    return live;
}

/* ------------------------------------------------------------------------------------- */
/* The sweep                                                                              */
/* ------------------------------------------------------------------------------------- */

/* One run with the Nth allocation failing (n = 0: none); checks the outcome. */
static void run_once(const char *name, alloc_fail_operation *operation, void *argument,
                     const alloc_fail_sweep_options *options, long n, bool persistent,
                     alloc_fail_sweep_result *result)
{
    char error[1024] = "";
    long live_before = alloc_fail_live_blocks();
    alloc_fail_arm(n, persistent);
    bool ok = operation(argument, error, sizeof error);
    bool fired = alloc_fail_fired();
    long calls = alloc_fail_calls();
    alloc_fail_disarm();
    long leaked = alloc_fail_live_blocks() - live_before;
    const char *how = persistent ? "from the" : "only the";
    if (n == 0) {
        if (!ok) fail_msg("%s: fails with no allocation failing: %s", name, error);
        result->allocations = calls;
    }
    if (leaked > 0)
        fail_msg("%s: %ld block(s) leaked with %s allocation %ld failing", name, leaked, how, n);
    if (!fired) return;
    result->runs++;
    if (ok) {
        if (!options || !options->may_recover)
            fail_msg("%s: reports success with %s allocation %ld failing", name, how, n);
        result->recovered++;
        return;
    }
    if (!error[0]) fail_msg("%s: no message with %s allocation %ld failing", name, how, n);
    if (options && options->expect_error && !strstr(error, options->expect_error))
        fail_msg("%s: with %s allocation %ld failing, the message '%s' lacks '%s'", name, how, n,
                 error, options->expect_error);
}

alloc_fail_sweep_result alloc_fail_sweep(const char *name, alloc_fail_operation *operation,
                                         void *argument, const alloc_fail_sweep_options *options)
{
    alloc_fail_sweep_result result = {0};
    /* Thousands of runs free and take the same memory again: keep it rather than give it
     * back to the system and fault it in anew each run (a third of a sweep's time otherwise). */
    mallopt(M_TRIM_THRESHOLD, 256 << 20);
    mallopt(M_MMAP_THRESHOLD, 32 << 20);
    run_once(name, operation, argument, options, 0, false, &result);
    if (result.allocations == 0) fail_msg("%s: makes no allocation to fail", name);
    /* A run may allocate more than the clean run did (error paths allocate too): go on
     * until a run no longer reaches its Nth allocation. */
    for (long n = 1;; n++) {
        run_once(name, operation, argument, options, n, false, &result);
        bool reached = alloc_fail_fired();
        run_once(name, operation, argument, options, n, true, &result);
        if (!reached && !alloc_fail_fired()) break;
    }
    return result;
}
