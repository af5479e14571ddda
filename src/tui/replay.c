/* replay.c - the animated replay of a solution. */
#include <assert.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "rules/lurd.h"
#include "replay.h"

/* Milliseconds between steps at each speed; the middle one is the default. */
static const double step_interval_ms[REPLAY_SPEED_COUNT] = {1000, 500, 250, 120, 60, 30, 15};
enum { DEFAULT_SPEED = 3 };

double replay_now_ms(void)
{
    struct timespec now;
    clock_gettime(CLOCK_MONOTONIC, &now);
    return (double)now.tv_sec * 1000.0 + (double)now.tv_nsec / 1e6;
}

bool replay_start(replay *r, const char *lurd, const char *what, char *error, size_t error_size)
{
    lurd_steps steps;
    lurd_error lurd_error;
    if (!lurd_parse(lurd, &steps, &lurd_error)) {
        if (error) snprintf(error, error_size, "%s", lurd_error.message);
        return false;
    }
    bool started = replay_start_steps(r, steps.steps, steps.count, what);
    lurd_steps_free(&steps);
    if (!started && error) snprintf(error, error_size, "out of memory");
    return started;
}

bool replay_start_steps(replay *r, const game_step *steps, int count, const char *what)
{
    game_step *copy = malloc((size_t)(count > 0 ? count : 1) * sizeof *copy);
    if (!copy) return false;
    if (count > 0) memcpy(copy, steps, (size_t)count * sizeof *copy);
    replay_stop(r);
    r->steps = copy;
    r->count = count;
    r->next = 0;
    r->paused = false;
    r->active = count > 0; /* a replay of no steps is over before it starts */
    r->due = replay_now_ms() + step_interval_ms[r->speed];
    snprintf(r->what, sizeof r->what, "%s", what);
    return true;
}

void replay_init(replay *r)
{
    memset(r, 0, sizeof *r);
    r->speed = DEFAULT_SPEED;
}

void replay_stop(replay *r)
{
    int speed = r->speed;
    free(r->steps);
    memset(r, 0, sizeof *r);
    r->speed = speed;
}

int replay_timeout_ms(const replay *r, double now)
{
    if (!r->active || r->paused || r->held) return -1;
    double wait = r->due - now;
    return wait <= 0 ? 0 : (int)wait + 1;
}

/* Plays step r->next; false when the rules refuse it. Ends the replay after the last. */
static bool play_one(replay *r, game *g)
{
    if (r->next >= r->count) {
        r->active = false;
        return true;
    }
    if (game_step_in(g, r->steps[r->next].direction) == STEP_BLOCKED) {
        r->active = false;
        return false;
    }
    if (++r->next >= r->count) r->active = false;
    return true;
}

int replay_tick(replay *r, game *g, double now)
{
    int played = 0;
    /* After a stall (a slow terminal) play at most a few steps at once, so the eye can
     * still follow; the clock restarts from now. */
    if (r->held) return 0;
    while (r->active && !r->paused && now >= r->due && played < 4) {
        if (!play_one(r, g)) return -1;
        played++;
        r->due += step_interval_ms[r->speed];
    }
    if (r->active && now >= r->due) r->due = now + step_interval_ms[r->speed];
    assert(r->next >= 0 && r->next <= r->count);
    return played;
}

int replay_step(replay *r, game *g)
{
    if (!r->active || r->next >= r->count) return 0;
    if (!play_one(r, g)) return -1;
    r->due = replay_now_ms() + step_interval_ms[r->speed];
    return 1;
}

int replay_step_back(replay *r, game *g)
{
    if (!r->active || r->next == 0 || !game_undo(g)) return 0;
    r->next--;
    r->paused = true;
    return 1;
}

int replay_finish(replay *r, game *g)
{
    int played = 0;
    while (r->active) {
        if (!play_one(r, g)) return -1;
        played++;
    }
    return played;
}

void replay_hold(replay *r, bool held)
{
    if (r->held && !held) r->due = replay_now_ms() + step_interval_ms[r->speed];
    r->held = held;
}

void replay_toggle_pause(replay *r)
{
    r->paused = !r->paused;
    if (!r->paused) r->due = replay_now_ms() + step_interval_ms[r->speed];
}

void replay_faster(replay *r)
{
    if (r->speed < REPLAY_SPEED_COUNT - 1) r->speed++;
}

void replay_slower(replay *r)
{
    if (r->speed > 0) r->speed--;
}

double replay_steps_per_second(const replay *r)
{
    return 1000.0 / step_interval_ms[r->speed];
}
