/* lurd.c - reading, writing and replaying LURD solution strings. */
#include "lurd.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int letter_direction(char c)
{
    switch (tolower((unsigned char)c)) {
    case 'l':
        return DIR_LEFT;
    case 'u':
        return DIR_UP;
    case 'r':
        return DIR_RIGHT;
    case 'd':
        return DIR_DOWN;
    default:
        return -1;
    }
}

static bool fail(lurd_error *error, const char *message, int position, char c)
{
    if (!error) return false;
    if (c == '\0')
        snprintf(error->message, sizeof error->message, "%s the end of the text", message);
    else if (c == '\n' || c == '\r' || c == '\t')
        snprintf(error->message, sizeof error->message, "%s a line end or tab at character %d",
                 message, position + 1);
    else if (isprint((unsigned char)c))
        snprintf(error->message, sizeof error->message, "%s '%c' at character %d", message, c,
                 position + 1);
    else
        snprintf(error->message, sizeof error->message, "%s (byte 0x%02X) at character %d", message,
                 (unsigned char)c, position + 1);
    return false;
}

enum { MAX_NESTING = 32 };

typedef struct reader {
    const char *text;
    int at;       /* next character */
    int capacity; /* of out->steps */
    bool upper;   /* an uppercase letter was seen */
    lurd_steps *out;
    lurd_error *error;
} reader;

/* Makes room for `more` steps after the ones in `out`, within LURD_MAX_STEPS. */
static bool reserve_steps(reader *r, long more)
{
    lurd_steps *out = r->out;
    if ((long)out->count + more > LURD_MAX_STEPS) {
        if (r->error)
            snprintf(r->error->message, sizeof r->error->message, "too long: more than %d steps",
                     LURD_MAX_STEPS);
        return false;
    }
    if (out->count + more <= r->capacity) return true;
    int capacity = r->capacity ? r->capacity : 256;
    while (capacity < out->count + more) capacity *= 2;
    if (capacity > LURD_MAX_STEPS) capacity = LURD_MAX_STEPS;
    game_step *grown = realloc(out->steps, (size_t)capacity * sizeof *grown);
    if (!grown) {
        if (r->error) snprintf(r->error->message, sizeof r->error->message, "out of memory");
        return false;
    }
    out->steps = grown;
    r->capacity = capacity;
    return true;
}

/* Appends `copies` more copies of the last `length` steps (a group already read once),
 * doubling what is copied at each memcpy: time linear in the steps written. */
static bool repeat_group(reader *r, int length, long copies)
{
    long total = copies > LURD_MAX_STEPS / length ? LURD_MAX_STEPS + 1L : length * copies;
    if (!reserve_steps(r, total)) return false;
    lurd_steps *out = r->out;
    const game_step *group = out->steps + out->count - length;
    long done = 0;
    while (done < total) {
        /* from `group` on, the steps are whole copies of it, length + done of them */
        long chunk = done + length < total - done ? done + length : total - done;
        memcpy(out->steps + out->count, group, (size_t)chunk * sizeof *group);
        out->count += (int)chunk;
        done += chunk;
    }
    return true;
}

/* Appends `step` `repeat` times. */
static bool add_step(reader *r, game_step step, long repeat)
{
    if (!reserve_steps(r, 1)) return false;
    r->out->steps[r->out->count++] = step;
    return repeat == 1 || repeat_group(r, 1, repeat - 1);
}

/* Reads steps up to the end of the text, or up to the ')' that closes a group when
 * `depth` > 0. A count repeats the letter or the parenthesised group after it. */
static bool read_sequence(reader *r, int depth)
{
    for (;;) {
        char c = r->text[r->at];
        if (c == '\0') {
            if (depth > 0) return fail(r->error, "a group is not closed before", r->at, c);
            return true;
        }
        if (isspace((unsigned char)c)) {
            r->at++;
            continue;
        }
        if (c == ')') {
            if (depth == 0) return fail(r->error, "a ')' with no '(' before it:", r->at, c);
            r->at++;
            return true;
        }
        long count = 1;
        int count_start = r->at;
        if (isdigit((unsigned char)c)) {
            count = 0;
            while (isdigit((unsigned char)r->text[r->at])) {
                count = count * 10 + (r->text[r->at] - '0');
                if (count > LURD_MAX_STEPS) count = LURD_MAX_STEPS + 1;
                r->at++;
            }
            /* a line break may fall between a count and its letter in wrapped files */
            while (isspace((unsigned char)r->text[r->at])) r->at++;
            c = r->text[r->at];
            if (count == 0) return fail(r->error, "a count of zero:", count_start, '0');
            if (c != '(' && letter_direction(c) < 0)
                return fail(r->error, "a count must be followed by a letter or '(', not", r->at, c);
        }
        if (c == '(') {
            if (depth >= MAX_NESTING) return fail(r->error, "groups nested too deep:", r->at, c);
            r->at++;
            int first = r->out->count;
            if (!read_sequence(r, depth + 1)) return false;
            int length = r->out->count - first;
            /* the group is already there once: copy it count - 1 more times */
            if (count > 1 && length > 0 && !repeat_group(r, length, count - 1)) return false;
            continue;
        }
        int d = letter_direction(c);
        if (d < 0) return fail(r->error, "not a LURD letter:", r->at, c);
        bool push = isupper((unsigned char)c);
        r->upper |= push;
        game_step step = {.direction = (direction)d, .push = push};
        if (!add_step(r, step, count)) return false;
        r->at++;
    }
}

bool lurd_parse(const char *text, lurd_steps *out, lurd_error *error)
{
    *out = (lurd_steps){0};
    reader r = {.text = text, .out = out, .error = error};
    if (!read_sequence(&r, 0)) {
        lurd_steps_free(out);
        return false;
    }
    out->case_sensitive = r.upper;
    return true;
}

void lurd_steps_free(lurd_steps *s)
{
    free(s->steps);
    *s = (lurd_steps){0};
}

bool lurd_apply(game *g, const lurd_steps *s, lurd_error *error)
{
    for (int i = 0; i < s->count; i++) {
        game_step step = s->steps[i];
        step_result result = board_try_step(&g->board, &g->position, step.direction);
        const char *reason = NULL;
        if (result == STEP_BLOCKED) {
            int next = board_neighbour(&g->board, g->position.player, step.direction);
            reason = board_is_wall(&g->board, next) ? "walks into a wall"
                                                    : "pushes a box that cannot move";
        } else if (s->case_sensitive && step.push && result != STEP_PUSHED) {
            reason = "is written as a push but there is no box to push";
        } else if (s->case_sensitive && !step.push && result == STEP_PUSHED) {
            reason = "is written as a move but pushes a box";
        }
        if (reason) {
            if (error)
                snprintf(error->message, sizeof error->message, "step %d (%c): %s", i + 1,
                         direction_letter(step.direction, step.push), reason);
            return false;
        }
        game_step_in(g, step.direction);
    }
    return true;
}

char *lurd_format(const game_step *steps, int count, bool rle)
{
    /* at worst 8 characters a run: a 7-digit count and the letter */
    char *text = malloc((size_t)count * 8 + 1);
    if (!text) return NULL;
    char *out = text;
    for (int i = 0; i < count;) {
        int run = 1;
        while (rle && i + run < count && steps[i + run].direction == steps[i].direction &&
               steps[i + run].push == steps[i].push)
            run++;
        if (run > 1) out += sprintf(out, "%d", run);
        *out++ = direction_letter(steps[i].direction, steps[i].push);
        i += run;
    }
    *out = '\0';
    return text;
}
